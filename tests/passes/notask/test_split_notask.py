"""ge-split-notask (issue 13): what the rule-by-rule lit cases cannot reach, and the memory,
task and simulator side end to end.

* Registration and ge-compile's order (after ge-autofuse, before ge-concat-notask); the
  rule functions on ops the verifier would refuse (a scalar input, split_dim out of range)
  and on a storage format without an aligned shape.
* Every rule of the chain decides one case of tests/filecheck/passes/notask/
  split_notask_rules.mlir (so removing a rule changes that case's outcome, which the lit
  file checks).
* The split / concat interplay in both orders: the second marking is refused, with a remark.
* Generated graphs (shapes, f16 / f32 / int8 / bf16, split axes, SplitD and SplitVD,
  consumers reading several outputs, NetOutput reading outputs, 0-size pieces) through
  ge-compile on 1 and 2 streams: marked exactly when an independent numpy-level predicate
  says the pieces are contiguous, aligned byte ranges of the input; the plan puts piece i
  at the input's offset + the raw sizes before it; no task runs for the split; the
  numbers equal the reference interpreter's over several executions with fresh buffers;
  the memory tests' layout checker accepts every plan.
* The seed's two scenarios end to end on 1 and 2 streams: block computation (the
  flagship example) and §5.3 (a graph input feeding the split: an Identity after the Data
  when the build is offline, views in the input's memory when online).
"""

from __future__ import annotations

import io
import math
import random
import re
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from conftest import COMPILE_ORDER, check_plan
from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_dialect.ge import GraphOp, node_name
from ge_tools.opt import GeOptMain
from ge_tools.parse import LocatedParser, parse_module
from ge_tools.registry import get_all_passes, make_context
from ge_tools.run import random_input
from passes.notask import split as S
from passes.notask.base import RefLinks
from runtime.interpreter import run_graph
from runtime.reference import select_graph
from runtime.simulator import load

ROOT = Path(__file__).resolve().parents[3]
RULES_LIT = ROOT / "tests/filecheck/passes/notask/split_notask_rules.mlir"
FLAGSHIP = ROOT / "examples/split_compute_merge.mlir"


def parse(text: str, verify: bool = True) -> ModuleOp:
    m = LocatedParser(make_context(), text, "test.mlir").parse_module()
    if verify:
        m.verify()
    return m


def op_named(m: ModuleOp, name: str):
    for op in m.walk():
        if not isinstance(op, GraphOp) and op.results and node_name(op) == name:
            return op
    raise KeyError(name)


def compile_pipeline(streams: int = 1, build_graph_mode: str = "online", order: tuple[str, ...] | None = None) -> str:
    passes = []
    for p in order or COMPILE_ORDER:
        if p == "ge-to-npu":
            p = f"ge-to-npu{{streams={streams}}}"
        elif p == "ge-assign-memory":
            p = f"ge-assign-memory{{build-graph-mode={build_graph_mode}}}"
        passes.append(p)
    return ",".join(passes)


def compile_text(text: str, pipeline: str, remarks: bool = False) -> tuple[ModuleOp, ModuleOp, str]:
    """(original module, compiled module, stderr of the passes)."""
    opt = GeOptMain(["-p", pipeline] + (["--remarks"] if remarks else []))
    m = parse_module(opt.ctx, text, "gen.mlir")
    m.verify()
    c = m.clone()
    err = io.StringIO()
    with redirect_stderr(err):
        opt.apply_passes(c)
    return m, c, err.getvalue()


def model_of(c: ModuleOp) -> npu.ModelOp:
    return next(o for o in c.ops if isinstance(o, npu.ModelOp))


def task_nodes(model: npu.ModelOp) -> list[str]:
    return [t.attributes["node"].data for s in model.stream_ops() for t in s.tasks if "node" in t.attributes]  # type: ignore[attr-defined]


def run_and_compare(m: ModuleOp, c: ModuleOp, executions: int = 3, seed: int = 0) -> None:
    """Execute the compiled model `executions` times with fresh input buffers and compare
    every output with the reference interpreter bit for bit (same kernels' semantics)."""
    graph = select_graph(m)
    rng = np.random.default_rng(seed)
    ins = [random_input(d, rng) for d in graph.data_nodes]
    ref = run_graph(graph, ins)
    loaded = load(model_of(c))
    for k in range(executions):
        outs = loaded.execute([a.copy() for a in ins])
        for o, r in zip(outs, ref):
            assert o.shape == r.shape and o.dtype == r.dtype, k
            assert np.array_equal(o.view(np.uint8), np.ascontiguousarray(r).view(np.uint8)) or np.allclose(
                o.astype(np.float64), r.astype(np.float64), equal_nan=True
            ), k


# ---------------------------------------------------------------------------------------
# Registration and ge-compile's order
# ---------------------------------------------------------------------------------------


def test_registered_with_remarks_option_and_in_ge_compile_before_the_concat() -> None:
    assert get_all_passes()["ge-split-notask"]() is S.SplitNotaskPass
    assert S.SplitNotaskPass().remarks is False and S.SplitNotaskPass(remarks=True).remarks
    assert S.SplitNotaskPass.PATTERN.TARGET_TYPES == {"SplitD", "SplitVD"}
    seq = [p.split("{")[0] for p in COMPILE_ORDER]
    assert seq.index("ge-autofuse") < seq.index("ge-split-notask") == seq.index("ge-concat-notask") - 1
    assert "ge-split-notask" in COMPILE_ORDER


# ---------------------------------------------------------------------------------------
# Rules on ops the verifier refuses, and the aligned-shape rule
# ---------------------------------------------------------------------------------------


def _unverified_split(in_type: str, out_types: list[str], attrs: str) -> tuple[ModuleOp, object]:
    outs = ", ".join(f"%s{i}" for i in range(len(out_types)))
    text = f"""
ge.graph @g {{
  %x = ge.Data {{index = 0}} : {in_type}
  %r = ge.Relu(%x) : ({in_type}) -> {in_type}
  {outs} = ge.SplitD(%r) {{{attrs}}} : ({in_type}) -> ({", ".join(out_types)})
  ge.NetOutput {outs} : {", ".join(out_types)}
}}"""
    m = parse(text, verify=False)
    return m, op_named(m, "s0")


def test_is_scalar_input_rejects_a_scalar_input() -> None:
    m, op = _unverified_split("tensor<f16>", ["tensor<f16>", "tensor<f16>"], "split_dim = 0, num_split = 2")
    rej = S.split_input_check(op, RefLinks(m))  # type: ignore[arg-type]
    assert rej is not None and rej.rule == "IsScalarInput"


@pytest.mark.parametrize("dim, ok", [(2, False), (-3, False), (-2, True), (1, True)])
def test_check_dim_range_after_normalising_by_the_input_rank(dim: int, ok: bool) -> None:
    _, op = _unverified_split(
        "tensor<1x64xf16>", ["tensor<1x32xf16>", "tensor<1x32xf16>"], f"split_dim = {dim}, num_split = 2"
    )
    rej = S.check_split_dim(op)  # type: ignore[arg-type]
    if ok:
        assert rej is None
    else:
        assert rej is not None and rej.rule == "CheckDim" and "out of range for origin rank 2" in rej.message


def test_check_dim_without_an_aligned_shape_is_refused() -> None:
    """ND origin stored as NC1HWC0: GE's transfer type is ND_TO_NZ with a non-NZ storage
    format, GetAlignedShape fails (docs/ge/notask.md)."""
    t = "tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = ND, shape = [1, 2, 4, 4, 16]>>"
    p = "tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = ND, shape = [1, 1, 4, 4, 16]>>"
    _, op = _unverified_split(t, [p, p], "split_dim = 1, num_split = 2")
    rej = S.check_split_dim(op)  # type: ignore[arg-type]
    assert rej is not None and rej.rule == "GetAlignedShape"


# ---------------------------------------------------------------------------------------
# Every rule decides a lit case
# ---------------------------------------------------------------------------------------

CHAIN_RULES = {
    "ShouldSkipGraph",
    "IsUnknownShapeOp",
    "IsOwnerGraphUnknown",
    "IsPreNodeTypeValid",
    "IsPreNodeWithSubgraph",
    "IsPreOutAnchorCanReuse",
    "IsPreNodeAttrValid",
    "IsSameMemType",
    "CheckFormat",
    "CheckTensorAlign",
    "CheckRealDim",
    "CheckDimAlignment",
    "OutputCheck",
    "LxFusionCheck",
}


def _lit_marks(monkeypatch: pytest.MonkeyPatch | None = None, removed: str | None = None) -> tuple[set[str], set[str]]:
    """Run the lit file's cases; (names of the marked splits, rules that rejected one).
    With `removed`, that rule never rejects (its Reason is None, as if deleted)."""
    if removed is not None and monkeypatch is not None:
        from ge_dialect.reason import Reason
        from passes.notask import base as B

        class reject(Reason):  # noqa: N801
            def __new__(cls, rule: str, message: str, nf_code: str | None = None):  # noqa: ANN204
                return None if rule == removed else super().__new__(cls)

        monkeypatch.setattr(B, "Reason", reject)
        monkeypatch.setattr(S, "Reason", reject)
    marked: set[str] = set()
    deciding: set[str] = set()
    text = RULES_LIT.read_text()
    checked = set(re.findall(r"// CHECK: %(\w+)(?:, %\w+)* = ge\.Split", text))
    for k, chunk in enumerate(text.split("// -----")):
        if "ge.graph" not in chunk:
            continue
        m = parse(chunk)
        err = io.StringIO()
        try:
            with redirect_stderr(err):
                S.SplitNotaskPass(remarks=True).apply(make_context(), m)
        except Exception:  # a later rule meets what the removed one kept out
            marked.add(f"{k}:<crash>")
            continue
        for ln in err.getvalue().splitlines():
            if "not marked" in ln:
                deciding.add(re.search(r"\((\w+)\)$", ln).group(1))  # type: ignore[union-attr]
        for op in m.walk():
            if isinstance(op, ge.SplitD | ge.SplitVD) and A.get_bool(op, A.NO_TASK) and node_name(op) in checked:
                marked.add(f"{k}:{node_name(op)}")
    return marked, deciding


def test_every_rule_decides_a_case_of_the_lit_file() -> None:
    _, deciding = _lit_marks()
    assert CHAIN_RULES <= deciding, CHAIN_RULES - deciding


@pytest.mark.parametrize("rule", sorted(CHAIN_RULES))
def test_removing_a_rule_changes_what_the_lit_file_checks(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lit CHECK lines spell each checked split's whole attribute dictionary (marked or
    not), so any change of which splits are marked (or a crash) fails the lit file: each
    rule's removal makes one."""
    base, _ = _lit_marks()
    without, _ = _lit_marks(monkeypatch, rule)
    assert without != base, rule


# ---------------------------------------------------------------------------------------
# The split / concat interplay
# ---------------------------------------------------------------------------------------

SPLIT_INTO_CONCAT = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %s0, %s1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %c = ge.ConcatD(%s1, %s0) {concat_dim = 0, N = 2} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  %o = ge.Abs(%c) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %o : tensor<4x16xf16>
}
"""

SHARED_INPUT = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %q = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %s0, %s1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %m = ge.Mul(%s0, %s1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  %c = ge.ConcatD(%r, %q) {concat_dim = 0, N = 2} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %m, %c : tensor<2x16xf16>, tensor<8x16xf16>
}
"""


@pytest.mark.parametrize("streams", [1, 2])
def test_split_output_into_concat_split_first_refuses_the_concat(streams: int) -> None:
    m, c, err = compile_text(SPLIT_INTO_CONCAT, compile_pipeline(streams), remarks=True)
    assert "SplitD 's0' marked no-task" in err
    assert (
        "ConcatD 'c' not marked: input 0: producer 's0' is a virtual op (_no_task = true) (IsPreNodeAttrValid)" in err
    )
    nodes = task_nodes(model_of(c))
    assert "s0" not in nodes and "c" in nodes
    run_and_compare(m, c)


def test_split_output_into_concat_concat_first_refuses_the_split() -> None:
    m = parse(SPLIT_INTO_CONCAT)
    err = io.StringIO()
    with redirect_stderr(err):
        get_all_passes()["ge-concat-notask"]()(remarks=True).apply(make_context(), m)
        S.SplitNotaskPass(remarks=True).apply(make_context(), m)
    out = err.getvalue()
    assert "ConcatD 'c' marked no-task" in out
    assert (
        "SplitD 's0' not marked: output 0 is a piece of no-task ConcatD 'c', whose layout puts it inside the "
        "concatenated block: a tensor cannot sit in both layouts (OutputCheck)" in out
    )
    assert not A.get_bool(op_named(m, "s0"), A.NO_TASK)


@pytest.mark.parametrize("streams", [1, 2])
def test_split_input_is_not_also_made_a_concat_piece(streams: int) -> None:
    m, c, err = compile_text(SHARED_INPUT, compile_pipeline(streams), remarks=True)
    assert "SplitD 's0' marked no-task" in err
    # (Relu and Abs are fused into one kernel: the lock is on its output 0)
    assert re.search(
        r"ConcatD 'c' not marked: input 0: output '\w+':0 is already locked .*\(IsPreOutAnchorCanReuse\)", err
    )
    # no layout-conflict Identity was needed
    assert not [
        op for op in c.walk() if isinstance(op, npu.KernelDefOp) and op.ge_type and op.ge_type.data == "Identity"
    ]
    run_and_compare(m, c)


# ---------------------------------------------------------------------------------------
# Generated graphs
# ---------------------------------------------------------------------------------------

DTYPES = {"f16": 2, "f32": 4, "i8": 1, "bf16": 2}


def expected_marked(in_shape: tuple[int, ...], dim: int, sizes: list[int], itemsize: int) -> bool:
    """Independently of the pass: ND pieces are contiguous byte ranges of the input when
    every dim in front of the split axis is 1, and aligned when each piece is a positive
    multiple of 32 bytes (or there is one piece)."""
    if any(d != 1 for d in in_shape[:dim]):
        return False
    if len(sizes) == 1:
        return True
    inner = math.prod(in_shape[dim + 1 :])
    return all(s * inner * itemsize > 0 and s * inner * itemsize % 32 == 0 for s in sizes)


def split_graph(seed: int) -> tuple[str, bool, str, list[int], int]:
    """A Relu-fed SplitD / SplitVD with 1..4 outputs on a random axis of a rank 1..4 ND
    tensor; consumers: a unary per output, one binary op reading two outputs (when their
    shapes agree), NetOutput reading some outputs directly. Returns (text, marked?, dtype,
    piece sizes along the axis, itemsize)."""
    rng = random.Random(seed)
    dt = rng.choice(list(DTYPES))
    item = DTYPES[dt]
    rank = rng.randint(1, 4)
    dim = rng.randrange(rank)
    shape = [rng.choice([1, 1, 2, 4, 8, 16]) for _ in range(rank)]
    kind = rng.choice(["SplitD", "SplitVD"])
    n = rng.randint(1, 4)
    if kind == "SplitD":
        per = rng.choice([1, 2, 4, 8])
        sizes = [per] * n
    else:
        sizes = [rng.choice([0, 1, 2, 4, 8, 16]) for _ in range(n)]
        if sum(sizes) == 0:
            sizes[0] = 2
    shape[dim] = sum(sizes)
    in_shape = tuple(shape)

    def ty(s: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, s))}x{dt}>"

    pieces = [tuple(s if a == dim else d for a, d in enumerate(in_shape)) for s in sizes]
    unary = ["Relu", "Abs", "Neg"] if dt != "i8" else ["Abs", "Neg"]
    lines = [f"  %x = ge.Data {{index = 0}} : {ty(in_shape)}"]
    lines.append(f"  %r = ge.{rng.choice(unary)}(%x) : ({ty(in_shape)}) -> {ty(in_shape)}")
    outs = [f"%p{i}" for i in range(n)]
    res = ", ".join(ty(p) for p in pieces)
    if kind == "SplitD":
        attrs = f"split_dim = {dim - rank if rng.random() < 0.3 else dim}, num_split = {n}"
    else:
        attrs = f"size_splits = [{', '.join(map(str, sizes))}], split_dim = {dim}, num_split = {n}"
    lines.append(f"  {', '.join(outs)} = ge.{kind}(%r) {{{attrs}}} : ({ty(in_shape)}) -> ({res})")
    results: list[tuple[str, str]] = []
    for i in range(n):
        if rng.random() < 0.7:
            op = rng.choice(unary)
            lines.append(f"  %u{i} = ge.{op}(%p{i}) : ({ty(pieces[i])}) -> {ty(pieces[i])}")
            results.append((f"%u{i}", ty(pieces[i])))
        if rng.random() < 0.4:
            results.append((f"%p{i}", ty(pieces[i])))  # NetOutput reads a piece directly
    same = [(i, j) for i in range(n) for j in range(n) if i < j and pieces[i] == pieces[j]]
    if same:
        i, j = rng.choice(same)
        a, b = (j, i) if rng.random() < 0.5 else (i, j)
        op = rng.choice(["Add", "Mul", "Sub"])
        lines.append(f"  %b = ge.{op}(%p{a}, %p{b}) : ({ty(pieces[a])}, {ty(pieces[b])}) -> {ty(pieces[a])}")
        results.append(("%b", ty(pieces[a])))
    if not results:
        results.append(("%p0", ty(pieces[0])))
    lines.append(f"  ge.NetOutput {', '.join(v for v, _ in results)} : {', '.join(t for _, t in results)}")
    text = "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"
    return text, expected_marked(in_shape, dim, sizes, item), dt, sizes, item


GEN_SEEDS = range(0, 40)


@pytest.mark.parametrize("seed", GEN_SEEDS)
def test_generated_splits_marked_laid_out_and_exact(seed: int) -> None:
    text, want, _dt, sizes, item = split_graph(seed)
    streams = 1 + seed % 2
    m, c, _ = compile_text(text, compile_pipeline(streams))
    model = model_of(c)
    nodes = task_nodes(model)
    assert ("p0" not in nodes) == want, text
    if want:
        # the views: piece i at the input's address + the raw bytes of the pieces before it
        table = {e.tensor_name: e for e in model.table()}
        base = table["p0:0"].addr
        inner = math.prod(tensor_shape(m, "p0", 0)) // sizes[0] if sizes[0] else None
        running = 0
        for i, s in enumerate(sizes):
            e = table[f"p0:{i}"]
            assert isinstance(e, npu.AliasOp) and e.addr.region.data == base.region.data
            assert e.addr.offset.data == base.offset.data + running, (i, text)
            if inner is not None:
                running += s * inner * item
    run_and_compare(m, c, executions=2, seed=seed)


def tensor_shape(m: ModuleOp, name: str, i: int) -> tuple[int, ...]:
    return tuple(op_named(m, name).results[i].type.get_shape())  # type: ignore[attr-defined]


def test_generated_splits_cover_both_outcomes_and_every_dtype() -> None:
    outcomes = {split_graph(s)[1] for s in GEN_SEEDS}
    dts = {split_graph(s)[2] for s in GEN_SEEDS}
    zero = any(0 in split_graph(s)[3] for s in GEN_SEEDS)
    assert outcomes == {True, False} and dts == set(DTYPES) and zero


@pytest.mark.parametrize("seed", range(0, 12))
def test_generated_plans_pass_the_memory_layout_checker(seed: int) -> None:
    text, _, _, _, _ = split_graph(seed)
    order = tuple(p for p in COMPILE_ORDER if p != "ge-to-npu")
    _, c, _ = compile_text(text, compile_pipeline(order=order))
    check_plan(c)


# ---------------------------------------------------------------------------------------
# The seed's scenarios end to end
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("streams", [1, 2])
def test_flagship_split_and_concat_zero_copy_with_fusion_and_reuse(streams: int) -> None:
    m, c, err = compile_text(FLAGSHIP.read_text(), compile_pipeline(streams), remarks=True)
    model = model_of(c)
    nodes = task_nodes(model)
    assert "s0" not in nodes and "c" not in nodes
    aliases = {e.tensor_name: e for e in model.table() if isinstance(e, npu.AliasOp)}
    assert {"s0:0", "s0:1", "s0:2", "c:0"} <= set(aliases)
    assert re.search(r"ge-autofuse @main: kernels 11 -> 8,.*\(3 fusions", err)
    assert "'m':0 -> fm [0, 3104): reused block of 'autofuse_pointwise_0_Mul_Relu':0" in err
    # no memcpy at all: the split and the concat move no bytes
    assert not any(isinstance(t, npu.MemcpyOp) for s in model.stream_ops() for t in s.tasks)
    loaded = load(model)
    graph = select_graph(m)
    rng = np.random.default_rng(1)
    ins = [random_input(d, rng) for d in graph.data_nodes]
    ref = run_graph(graph, ins)
    for _ in range(2):
        outs = loaded.execute([a.copy() for a in ins])
        assert all(np.array_equal(o, r) for o, r in zip(outs, ref))
    assert "s0" not in loaded.stats.bytes_by_node and "c" not in loaded.stats.bytes_by_node
    assert loaded.stats.memcpy_bytes == 0


DATA_SPLIT = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<6x32xf16>
  %s0, %s1, %s2 = ge.SplitD(%x) {split_dim = 0, num_split = 3} : (tensor<6x32xf16>) -> (tensor<2x32xf16>, tensor<2x32xf16>, tensor<2x32xf16>)
  %a = ge.Relu(%s0) : (tensor<2x32xf16>) -> tensor<2x32xf16>
  %b = ge.Abs(%s1) : (tensor<2x32xf16>) -> tensor<2x32xf16>
  %c = ge.Neg(%s2) : (tensor<2x32xf16>) -> tensor<2x32xf16>
  %e = ge.Exp(%x) : (tensor<6x32xf16>) -> tensor<6x32xf16>
  ge.NetOutput %a, %b, %c, %e : tensor<2x32xf16>, tensor<2x32xf16>, tensor<2x32xf16>, tensor<6x32xf16>
}
"""


@pytest.mark.parametrize("streams", [1, 2])
def test_graph_input_feeding_the_split_offline_gets_the_identity(streams: int) -> None:
    """§5.3: data -> identity -> split (no_task, no_padding_continuous_output): the
    Identity goes after the Data and every reader of the Data reads the copy."""
    m, c, err = compile_text(DATA_SPLIT, compile_pipeline(streams, "offline"), remarks=True)
    assert "inserted Identity 'identity_0_s0_MemLayoutConflict_0' after graph input 'x':0" in err
    assert "(offline build)" in err
    model = model_of(c)
    table = {e.tensor_name: e for e in model.table()}
    ident = table["identity_0_s0_MemLayoutConflict_0:0"]
    assert ident.addr.region.data == "fm"
    for i in range(3):
        v = table[f"s0:{i}"]
        assert isinstance(v, npu.AliasOp) and v.source_names == ["identity_0_s0_MemLayoutConflict_0:0"]
        assert v.addr.region.data == "fm" and v.addr.offset.data == ident.addr.offset.data + 128 * i
    nodes = task_nodes(model)
    assert "s0" not in nodes and nodes.count("identity_0_s0_MemLayoutConflict_0") == 1
    run_and_compare(m, c, executions=3)


@pytest.mark.parametrize("streams", [1, 2])
def test_graph_input_feeding_the_split_online_keeps_views_in_the_input(streams: int) -> None:
    m, c, err = compile_text(DATA_SPLIT, compile_pipeline(streams, "online"), remarks=True)
    assert "inserted Identity" not in err
    model = model_of(c)
    table = {e.tensor_name: e for e in model.table()}
    for i in range(3):
        v = table[f"s0:{i}"]
        assert isinstance(v, npu.AliasOp) and v.addr.region.data == "input:0" and v.addr.offset.data == 128 * i
    assert not any(isinstance(op, ge.Identity) for op in c.walk())
    # fresh input buffers each execution: the views' readers are refreshed with them
    run_and_compare(m, c, executions=3)


def test_single_op_scene_gets_the_identity_for_a_phony_split() -> None:
    """GE's rule is on the no-padding continuous output, whoever marked it: a PhonySplit
    fed by a graph input in a single-op scene (ge-split-notask skips such a graph)."""
    text = """
ge.graph @main attributes {_single_op_scene = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %p0, %p1 = ge.PhonySplit(%x) {split_dim = [0], num_split = [2]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %a = ge.Relu(%p0) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %b = ge.Abs(%p1) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %a, %b : tensor<2x16xf16>, tensor<2x16xf16>
}
"""
    m, c, err = compile_text(text, compile_pipeline(1), remarks=True)
    assert "inserted Identity 'identity_0_p0_MemLayoutConflict_0' after graph input 'x':0" in err
    assert "(single-op scene)" in err
    run_and_compare(m, c)


def test_one_output_split_of_a_graph_input_needs_no_identity() -> None:
    """mem_layout_conflict_util.cc: IsNoPaddingContinuousOutput needs more than one output."""
    text = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %s = ge.SplitD(%x) {split_dim = 0, num_split = 1} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %a = ge.Relu(%s) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %a : tensor<4x16xf16>
}
"""
    m, c, err = compile_text(text, compile_pipeline(1, "offline"), remarks=True)
    assert "SplitD 's' marked no-task" in err and "inserted Identity" not in err
    run_and_compare(m, c)


def test_build_graph_mode_is_checked() -> None:
    from ge_dialect.pass_options import PassOptionError
    from passes.memory.assign_memory import AssignMemoryPass

    # checked when the pass is built (ge_dialect/pass_options.py), before any graph is read
    with pytest.raises(PassOptionError, match="ge-assign-memory: option build-graph-mode: expected online or offline"):
        AssignMemoryPass(build_graph_mode="atc")


# ---------------------------------------------------------------------------------------
# The planner reads consumers' offset lists for PhonySplit pieces only
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("streams", [1, 2])
def test_a_consumer_of_phony_split_and_split_pieces_reads_each_at_its_offset(streams: int) -> None:
    """A Mul reads PhonySplit piece 1 (its `_input_offset_list_for_continuous` gets [64, 0])
    and SplitD piece 1: the SplitD piece is at its input + 64 (the raw size of piece 0), not
    at the list's slot 1 (a 0 that is no piece of the SplitD's)."""
    text = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %p0, %p1 = ge.PhonySplit(%a) {split_dim = [0], num_split = [2]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %s0, %s1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %m = ge.Mul(%p1, %s1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  %n = ge.Sub(%s0, %p0) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %m, %n : tensor<2x16xf16>, tensor<2x16xf16>
}
"""
    m, c, _ = compile_text(text, compile_pipeline(streams))
    table = {e.tensor_name: e for e in model_of(c).table()}
    assert table["s0:1"].addr.offset.data == table["s0:0"].addr.offset.data + 64
    run_and_compare(m, c)
