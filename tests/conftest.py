"""Shared helpers of the pytest suite: what more than one test module uses lives here
(test modules never import each other). Test modules import them by name
(`from conftest import parse, inputs_for`): pytest puts this directory on sys.path.
"""

from __future__ import annotations

import gc
import inspect
import io
import os
import random
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import numpy as np
import onnx
import onnx.numpy_helper
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, FloatAttr, IntegerAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.ascgraph import node_count
from ge_dialect.desc import tensor_desc
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.ge import GeNode, GraphOp, ge_type, node_name
from ge_dialect.verify import verify_module
from ge_tools.parse import parse_module
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import ascgraph_queries as U
from passes.memory.allocator import FmBlock
from runtime.interpreter import run_module
from runtime.reference import root_graphs

# One BLAS / OpenMP / MKL thread in every process the tests start (xdist's workers, which
# load numpy and torch after this runs in the controller, and the ge-run / ge-opt processes
# the tests spawn): the workers already share the cores, and OpenBLAS's threads
# spin-waiting on a shared core cost up to 4 x the CPU of the work (the Makefile's TEST_ENV
# sets the same for `make test`).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# The test processes' garbage collector: a young collection every 50,000 allocations instead
# of 700, an old one a hundred times rarer. A worker's heap reaches 3 million objects (torch,
# the networks' programs, each file's module-scoped fixtures), and CPython's thresholds
# made it scan all of them about 30 times in four minutes: a tenth of the workers' CPU
# (gc.callbacks, bench/README.md: "The suite's time"). Cycles still die young; the tools'
# mains set their own thresholds (ge_fast/process.py), which run_cli puts back to these.
TEST_GC_THRESHOLDS = (50_000, 20, 100)
gc.set_threshold(*TEST_GC_THRESHOLDS)

# ge-compile's passes as `-p` specs, in order (ge_tools/pipeline.py: GeCompilePass.passes)
COMPILE_ORDER: tuple[str, ...] = tuple(
    str(p.pipeline_pass_spec(include_default=False)).replace('"', "") for p in GeCompilePass().passes()
)

# The ONNX ops whose import and numeric cases are in tests/importers/test_onnx_ops_pointwise.py
# (test_onnx_import.py covers the others; its every-op check counts these as covered there)
ONNX_POINTWISE_OPS: frozenset[str] = frozenset({
    "Erf", "Floor", "Ceil", "Sin", "Cos", "Softplus", "Softsign", "Mish", "Sign", "Round", "HardSwish",
    "IsNaN", "IsInf", "LeakyRelu", "Elu", "Selu", "Celu", "HardSigmoid", "Equal", "Less", "Greater",
    "LessOrEqual", "GreaterOrEqual", "And", "Or", "Not", "Mod", "Where", "Clip", "Softmax", "LogSoftmax",
    "LayerNormalization", "Gelu",
})  # fmt: skip

ROOT = Path(__file__).resolve().parent.parent
# the static examples; examples/dynamic_*.mlir have unknown dims and run on the dynamic
# executor (tests/tools/test_run_dynamic.py), not through the static pipeline's tests
DYNAMIC_EXAMPLES = sorted((ROOT / "examples").glob("dynamic_*.mlir"))
EXAMPLES = [p for p in sorted((ROOT / "examples").glob("*.mlir")) if p not in DYNAMIC_EXAMPLES]

# The ONNX ops with subgraphs, whose import and numeric cases (against onnxruntime) are in
# tests/importers/test_onnx_control.py
CONTROL_ONNX_OPS = frozenset({"If", "Loop"})

# The ONNX ops whose import and numeric cases are in tests/importers/test_onnx_ops_structural.py
# (test_onnx_import.py's coverage test counts them as covered there).
STRUCTURAL_ONNX_OPS = frozenset({
    "BatchNormalization", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "Pad", "Slice", "Tile",
    "ArgMax", "ArgMin", "GatherElements", "Trilu", "Resize", "ConvTranspose",
})  # fmt: skip

# The ONNX ops whose import and numeric cases are in tests/importers/test_onnx_more_ops.py
# (importers/onnx_more_ops.py's; test_onnx_import.py's coverage test counts them as covered there).
MORE_ONNX_OPS = frozenset({
    "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "CastLike", "CumSum", "DepthToSpace",
    "GatherND", "Hardmax", "PRelu", "ReduceL1", "ReduceL2", "ReduceSumSquare", "ScatterElements", "ScatterND",
    "SpaceToDepth", "Xor", "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss",
    "QuantizeLinear", "DequantizeLinear", "ThresholdedRelu", "Shrink", "EyeLike",
    "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cosh", "Sinh", "Tan",
    "InstanceNormalization", "GroupNormalization", "MatMulInteger", "QLinearMatMul", "LpPool", "DynamicQuantizeLinear", "ConvInteger",
    "GridSample", "Scatter",
})  # fmt: skip


def run_cli(main: Callable[[list[str]], object], argv: Sequence[str]) -> tuple[int, str, str]:
    """A tool's `main` (ge-opt, ge-run, ge-import) in this process: (exit code, stdout,
    stderr). The garbage collector's thresholds, which the mains tune, are put back."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    thresholds = gc.get_threshold()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(argv))
        except SystemExit as e:
            code = int(e.code or 0)
        finally:
            gc.set_threshold(*thresholds)
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------------------------
# Work counts: how often a function runs (the work tests count calls, never seconds)
# ---------------------------------------------------------------------------------------


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Wrap `owner.name` (a module's function or a class's plain method) for this test so
    that each call adds one to the returned list's only item, then runs the real one."""
    real = inspect.getattr_static(owner, name)
    assert inspect.isfunction(real), f"{name} is not a plain function or method: {real!r}"
    calls = [0]

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


# The plain paths the compile-time fast paths replace (issue 12, part 3): each test of a
# fast path compares its result with the plain path's.


class NeverPassedNodes(dict[tuple[object, ...], tuple[object, ...]]):
    """An ascgraph._PASSED_NODES that knows no node: every AscIR node runs its checks."""

    def __contains__(self, key: object) -> bool:
        return False


def walker_once(pattern: object, block: object) -> None:
    """What lifting's rewrite_block_once replaces: xDSL's walk over the whole region."""
    from xdsl.ir import Block
    from xdsl.pattern_rewriter import PatternRewriteWalker, RewritePattern

    assert isinstance(block, Block) and isinstance(pattern, RewritePattern) and block.parent is not None
    PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(block.parent)


def without_fuse_handoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Fuse builds its own FusePair, none reuses the one CanFuse just accepted."""
    from passes.autofuse import fuse_cache as C

    monkeypatch.setattr(C.FuseCache, "handed_pair", lambda self, n1, n2, split: None)


# ---------------------------------------------------------------------------------------
# Parsing, printing, inputs, the lowering check
# ---------------------------------------------------------------------------------------


def parse(text: str, name: str = "<test>", ctx: Context | None = None) -> ModuleOp:
    """`text` parsed and verified as the tools read their input (ge_tools/parse.py and
    ge_dialect/verify.py: ge_fast's paths unless its switch is off, GE_XDSL_FAST=0), without
    naming nameless nodes. Tests of passes, lowerings and the runtime read their graphs
    here; xDSL's own Parser and verify give the same module (tests/tools/test_parse_print_work.py,
    tests/ge_fast/test_seam.py and `make lit-stock` compare them), at about 2.5 x the CPU."""
    m = parse_module(ctx or make_context(), text, name)
    verify_module(m)
    return m


def xdsl_parse(text: str) -> ModuleOp:
    """`text` parsed by xDSL's own Parser and verified by xDSL's verify: what the tools'
    parser (`parse`) is compared with."""
    m = Parser(make_context(), text, "<test>").parse_module()
    m.verify()
    return m


def print_module(m: ModuleOp, printer_type: type[Printer] = Printer, **flags: bool) -> str:
    out = StringIO()
    printer_type(stream=out, **flags).print_op(m)
    return out.getvalue()


def inputs_for(m: ModuleOp, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    g = root_graphs(m)[0]
    arrays = []
    for d in sorted(g.data_nodes, key=lambda d: d.int_attr("index")):
        t = d.results[0].type
        assert isinstance(t, TensorType)
        dt = numpy_dtype(t.element_type)
        shape = tuple(t.get_shape())
        if dt.kind == "f":
            arrays.append(rng.uniform(-2.0, 2.0, size=shape).astype(dt))
        else:
            arrays.append(rng.integers(-5, 6, size=shape).astype(dt))
    return arrays


def check_lowering(text: str, seed: int, p: LowerAutofusePass) -> tuple[int, bool]:
    """Lower, verify, compare; returns (number of AscBackends, whether the graph reduces)."""
    before = parse(text)
    ins = inputs_for(before, seed)
    want = run_module(before, ins)
    after = before.clone()
    p.apply(make_context(), after)
    verify_module(after)
    # The printed form parses back (what ge-opt users see is valid input).
    after = parse(print_module(after))
    got = run_module(after, ins)
    backends = [op for op in after.walk() if isinstance(op, ge.AscBackend)]
    # A reduction (lowered or not) may sum in another order once its input's layout
    # changes (numpy's pairwise summation follows memory order).
    reduces = any(isinstance(op, ge.ReduceD) for op in before.walk())
    assert len(got) == len(want)
    for w, g in zip(want, got):
        assert w.shape == g.shape and w.dtype == g.dtype
        if reduces:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, w)
    for b in backends:
        assert b.attributes["fusion_nodes_size"].value.data == node_count(asc_graph_of(b))  # type: ignore[attr-defined]
    return len(backends), reduces


# ---------------------------------------------------------------------------------------
# Autofuse: lowered graphs for the decider, the strategies and the axis groups
# ---------------------------------------------------------------------------------------


def lowered(text: str, enable: tuple[str, ...] = ("reduce", "concat", "transpose")):
    m = parse(text)
    LowerAutofusePass(enable_pass=enable).apply(make_context(), m)
    g = list(m.ops)[0]
    nodes = {node_name(o): o for o in g.body.block.ops if U.inner_backends(o)}
    return m, nodes


def by(nodes: dict, part: str):
    return next(o for n, o in nodes.items() if part in n)


def fuse_checked(m, d, a, b):
    ins = inputs_for(m, 0)
    ref = run_module(m, ins)
    assert d.can_fuse(a, b) is None
    new = d.fuse(a, b)
    verify_module(m)
    out = run_module(m, ins)
    for x, y in zip(out, ref):
        np.testing.assert_allclose(x, y, rtol=1e-6)
    return new


LOOP_MERGE1 = """
ge.graph @g {
  %d1 = ge.Data {index = 0} : tensor<1x2x3x4xf32>
  %d2 = ge.Data {index = 1} : tensor<1x2x3x4xf32>
  %d3 = ge.Data {index = 2} : tensor<1x2x3x4xf32>
  %d4 = ge.Data {index = 3} : tensor<1x2x3x4xf32>
  %a = ge.Add(%d1, %d2) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %b = ge.Mul(%d2, %d3) : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  ge.NetOutput %a, %b, %d4 : tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>
}"""


def ge_add_backend(name: str, sizes: list[int], bcast_input0: bool) -> str:
    """asc_backend_fusion_decider_unittest.cpp's helpers, with concrete sizes for the
    symbols: CreatAddAscGraph(graph, 1, 2) (5 axes, Data, Load, Data, Load, Add, Store,
    Output) and CreatBroadcastAddAscGraph (6 axes; input 0's Data has repeat 1 / stride 0
    on the last axis, its Load the full repeats)."""
    n = len(sizes)
    strides = [1] * n
    for i in range(n - 2, -1, -1):
        strides[i] = strides[i + 1] * sizes[i + 1]
    axis = list(range(n))
    full = f"!ascgraph.tensor<f32, axis = {axis}, repeats = {sizes}, strides = {strides}>"
    if bcast_input0:
        bs = [strides[i] // sizes[-1] for i in range(n - 1)] + [0]
        d0 = f"!ascgraph.tensor<f32, axis = {axis}, repeats = {sizes[:-1] + [1]}, strides = {bs}>"
        in0 = "x".join(map(str, sizes[:-1]))
    else:
        d0, in0 = full, "x".join(map(str, sizes))
    t = "x".join(map(str, sizes))
    sched = f"sched.axis = {axis}"
    axes = ", ".join(f"{i}: {'ABCDEF'[i]} = {s}" for i, s in enumerate(sizes))
    return f"""
  %{name} = ge.AscBackend(%{name}_in0, %{name}_in1) {{name = "{name}", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["{name}"], fusion_nodes_size = 7}} : (tensor<{in0}xf32>, tensor<{t}xf32>) -> tensor<{t}xf32> {{
    ascgraph.graph @{name}build_graph axis = [{axes}] {{
      %x1 = ascgraph.Data {{index = 0}} : {d0}
      %l1 = ascgraph.Load(%x1) {{offset = 0, {sched}}} : {full}
      %x2 = ascgraph.Data {{index = 1}} : {full}
      %l2 = ascgraph.Load(%x2) {{offset = 0, {sched}}} : {full}
      %add = ascgraph.Add(%l1, %l2) {{{sched}}} : {full}
      %st = ascgraph.Store(%add) {{offset = 0, {sched}}} : {full}
      %out = ascgraph.Output(%st) {{index = 0}} : {full}
    }}
  }}"""


SOFTMAX = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8x64xf32>
  %m = ge.ReduceMaxD(%x) {axes = [-1], keep_dims = true} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  %d = ge.Sub(%x, %m) : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %e = ge.Exp(%d) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = ge.ReduceSumD(%e) {axes = [1], keep_dims = true} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  %y = ge.RealDiv(%e, %s) : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  ge.NetOutput %y : tensor<8x64xf32>
}"""


CONCAT = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  %a = ge.Add(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = ge.Exp(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = ge.Mul(%y, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %u = ge.Exp(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = ge.ConcatD(%e, %u) {concat_dim = 0} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  ge.NetOutput %c : tensor<8x8xf32>
}"""


# ---------------------------------------------------------------------------------------
# GE's asc_backend_fusion_decider_unittest.cpp graph helpers (sizes A..F = 2..7)
# ---------------------------------------------------------------------------------------


FIVE, SIX = [2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 7]
T5, T6 = "tensor<2x3x4x5x6xf32>", "tensor<2x3x4x5x6x7xf32>"


def full_view(sizes: list[int]) -> str:
    st = [1] * len(sizes)
    for i in range(len(sizes) - 2, -1, -1):
        st[i] = st[i + 1] * sizes[i + 1]
    return f"!ascgraph.tensor<f32, axis = {list(range(len(sizes)))}, repeats = {sizes}, strides = {st}>"


def add_backend(name: str, sizes: list[int], operands: str, bcast_input0: bool = False) -> str:
    return ge_add_backend(name, sizes, bcast_input0).replace(f"%{name}_in0, %{name}_in1", operands)


def calc_rstd_backend(name: str, operands: str) -> str:
    """CreatCalcRstdAscGraph (5 axes): Data/Load x3, one FlashSoftmax(x1, x2, x3) with
    outputs y1, y2, y3, Store(y1) -> Output 0, Store(y2) -> Output 1: 3+3+1+2+2 = 11 nodes.
    The ascgraph dialect has no 3-output pointwise op, so y1 = Add(x1, x2) and
    y2 = Mul(y1, x3) stand for it: 12 nodes, the same Data/Load/Store/Output skeleton."""
    t, s = full_view(FIVE), "sched.axis = [0, 1, 2, 3, 4]"
    axes = ", ".join(f"{i}: {'ABCDE'[i]} = {v}" for i, v in enumerate(FIVE))
    return f"""
  %{name}:2 = ge.AscBackend({operands}) {{name = "{name}", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["{name}"], fusion_nodes_size = 12}} : ({T5}, {T5}, {T5}) -> ({T5}, {T5}) {{
    ascgraph.graph @{name}build_graph axis = [{axes}] {{
      %x1 = ascgraph.Data {{index = 0}} : {t}
      %l1 = ascgraph.Load(%x1) {{offset = 0, {s}}} : {t}
      %x2 = ascgraph.Data {{index = 1}} : {t}
      %l2 = ascgraph.Load(%x2) {{offset = 0, {s}}} : {t}
      %x3 = ascgraph.Data {{index = 2}} : {t}
      %l3 = ascgraph.Load(%x3) {{offset = 0, {s}}} : {t}
      %y1 = ascgraph.Add(%l1, %l2) {{{s}}} : {t}
      %y2 = ascgraph.Mul(%y1, %l3) {{{s}}} : {t}
      %st = ascgraph.Store(%y1) {{offset = 0, {s}}} : {t}
      %st1 = ascgraph.Store(%y2) {{offset = 0, {s}}} : {t}
      %o = ascgraph.Output(%st) {{index = 0}} : {t}
      %o1 = ascgraph.Output(%st1) {{index = 1}} : {t}
    }}
  }}"""


def build_graph(datas: list[str], body: str, outs: str, out_types: str) -> tuple:
    lines = "".join(f"\n  %data{i + 1} = ge.Data {{index = {i}}} : {t}" for i, t in enumerate(datas))
    m = parse(f"\nge.graph @g {{{lines}{body}\n  ge.NetOutput {outs} : {out_types}\n}}")
    g = list(m.ops)[0]
    nodes = {node_name(o): o for o in g.body.block.ops if U.inner_backends(o)}
    return m, g, nodes


def op_count(g) -> int:
    return len(list(g.body.block.ops))


def dense_strides(rep: list[int]) -> list[int]:
    st, acc = [0] * len(rep), 1
    for i in range(len(rep) - 1, -1, -1):
        st[i] = acc if rep[i] != 1 else 0  # GE's helpers: stride 0 on a repeat-1 axis
        acc *= rep[i]
    return st


def asc_tensor(rep: list[int]) -> str:
    return f"!ascgraph.tensor<f32, axis = {list(range(len(rep)))}, repeats = {rep}, strides = {dense_strides(rep)}>"


def ge_tensor(rep: list[int]) -> str:
    return "tensor<" + "x".join(str(r) for r in rep if r != 1) + "xf32>"


def one_node_backend(
    name: str,
    sizes: list[int],
    ins: list[tuple[str, list[int]]],
    op: str = "",
    out: list[int] | None = None,
    fuse_type: str = "pointwise",
) -> str:
    """GE's one-compute-node helpers: a Data per input (its repeats; 1 = broadcast), a
    Load of the full loop each, Abs (1 input) or Add (2) (or `op`, e.g. a reduction whose
    output repeats are `out`), Store, Output."""
    s, full = f"sched.axis = {list(range(len(sizes)))}", asc_tensor(sizes)
    res = asc_tensor(out) if out is not None else full
    op = op or ("Abs" if len(ins) == 1 else "Add")
    lines = []
    for k, (_, rep) in enumerate(ins):
        lines.append(f"%x{k} = ascgraph.Data {{index = {k}}} : {asc_tensor(rep)}")
        lines.append(f"%l{k} = ascgraph.Load(%x{k}) {{offset = 0, {s}}} : {full}")
    args = ", ".join(f"%l{k}" for k in range(len(ins)))
    lines += [
        f"%y = ascgraph.{op}({args}) {{{s}}} : {res}",
        f"%st = ascgraph.Store(%y) {{offset = 0, {s}}} : {res}",
        f"%o = ascgraph.Output(%st) {{index = 0}} : {res}",
    ]
    axes = ", ".join(f"{i}: {'ABCDEFG'[i]} = {v}" for i, v in enumerate(sizes))
    body = "\n      ".join(lines)
    return f"""
  %{name} = ge.AscBackend({", ".join(o for o, _ in ins)}) {{name = "{name}", fuse_type = "{fuse_type}", fuse_type_mask = {ag.fuse_type_bit(fuse_type)}, origin_nodes = ["{name}"], fusion_nodes_size = {len(lines)}}} : ({", ".join(ge_tensor(r) for _, r in ins)}) -> {ge_tensor(out if out is not None else sizes)} {{
    ascgraph.graph @{name}build_graph axis = [{axes}] {{
      {body}
    }}
  }}"""


R5 = [2, 1, 4, 5, 6]  # CreatReduceAscGraph's Max keeps dims and reduces B (axis 1)


def reduce_into(consumer: str) -> tuple:
    # data1, data2 -> Reduce (GE InCnt(2); SetAttrsGroup gives it CreatReduceAscGraph(1, 1):
    # ONE Data (data1), Load, Max [A, 1, C, D, E], Store, Output) -> consumer -> NetOutput.
    # Our AscBackend has one operand per AscGraph Data, so Reduce reads data1 only and
    # data2 is a graph input nobody reads (GE's edge data2 -> Reduce:1 has no Data node).
    return one_node_backend("Reduce", FIVE, [("%data1", FIVE)], op="Max", out=R5, fuse_type="reduce") + consumer


# ---------------------------------------------------------------------------------------
# Memory: GE's PhonyConcatCalcOffset shapes (memory assignment and the simulator)
# ---------------------------------------------------------------------------------------

# GE's own PhonyConcatCalcOffset shapes: pieces 1x2x2x4x8 f16 (256 B), concat_dim [3, 1],
# N [2, 2]. GE's offsets 0, 64, 512, 576 make the pieces overlap (ge-phony-notask warns, see
# tests/filecheck/passes/notask/phony_notask_layout.mlir), but the planner still places each piece at
# its offset-list entry as GE's AssignContinuousInputMemory does, not at the raw sums
# 0, 256, 512, 768: for equal pieces the two differ only when the layout is broken (or with
# keep_input_offset = false).
PHONY_GE_SHAPES = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %m0 = ge.Abs(%x) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m1 = ge.Neg(%x) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m2 = ge.Exp(%x) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m3 = ge.Relu(%x) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %block = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %y = ge.Abs(%block) : (tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %y : tensor<1x4x2x8x8xf16>
}
"""


# ---------------------------------------------------------------------------------------
# Memory planning: the no-task pipeline, the plan's attributes, an independent checker
# ---------------------------------------------------------------------------------------


NOTASK = ("ge-phony-notask", "ge-concat-notask", "ge-pack-notask")


def graph_named(module: ModuleOp, name: str = "main") -> GraphOp:
    for op in module.ops:
        if isinstance(op, GraphOp) and op.sym_name.data == name:
            return op
    raise KeyError(name)


def out_off(op: Operation, i: int = 0) -> int:
    return A.get_int_list(op, "output_offset")[i]  # type: ignore[index]


def in_off(op: Operation) -> list[int]:
    return A.get_int_list(op, "input_offset")  # type: ignore[return-value]


def out_region(op: Operation, i: int = 0) -> str:
    a = op.attributes["output_region"]
    assert isinstance(a, ArrayAttr)
    e = a.data[i]
    assert isinstance(e, StringAttr)
    return e.data


def out_size(op: Operation, i: int = 0) -> int:
    return A.get_int_list(op, "output_size")[i]  # type: ignore[index]


def fm_blocks(spec: list[tuple[int, int, int]]) -> list[FmBlock]:
    """(512-byte units, begin, end) -> blocks keyed by their position in the list."""
    return [FmBlock((k, 0), u * 512, b, e) for k, (u, b, e) in enumerate(spec)]


def random_blocks(rng: random.Random, n: int, horizon: int) -> list[FmBlock]:
    spec = []
    for _ in range(n):
        b = rng.randrange(horizon)
        length = rng.choice((0, 1, 2, 3, 5, 8, 20, horizon))
        spec.append((rng.choice((1, 2, 3, 5, 9)), b, min(horizon - 1, b + length)))
    return fm_blocks(spec)


def check_plan(module: ModuleOp) -> tuple[int, int]:
    """Checks a planned module from its attributes and the graph structure only."""
    total = peak_seen = 0
    for g in module.ops:
        if not isinstance(g, GraphOp):
            continue
        ops = [op for op in g.body.block.ops if isinstance(op, GeNode)]
        pos = {op: i for i, op in enumerate(ops)}
        values = [r for op in ops for r in op.results]
        # may-share groups, from the IR's declared relations: ref outputs of their input,
        # no-padding continuous input nodes with their inputs, PhonySplit with its input
        parent: dict[SSAValue, SSAValue] = {v: v for v in values}

        def find(v: SSAValue, parent: dict[SSAValue, SSAValue] = parent) -> SSAValue:
            while parent[v] is not v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        def union(a: SSAValue, b: SSAValue, parent: dict[SSAValue, SSAValue] = parent) -> None:
            parent[find(a)] = find(b)

        for op in ops:
            for j, r in enumerate(op.results):
                if A.get_output_flag(op, A.REUSE_INPUT, j, default=False) or ge_type(op) == "Reshape":
                    union(r, op.operands[A.get_output_int(op, A.REUSE_INPUT_INDEX, j, 0)])
            if A.get_bool(op, A.NOPADDING_CONTINUOUS_INPUT):
                for v in op.operands:
                    union(op.results[0], v)
            if A.get_bool(op, A.NOPADDING_CONTINUOUS_OUTPUT):
                for r in op.results:
                    union(r, op.operands[0])
        memory_size = A.get_int(g, "memory_size")
        lower = A.get_int(g, "memory_lower_bound")
        assert memory_size is not None and lower is not None
        assert lower <= memory_size
        # every reader reads where the producer wrote
        for op in ops:
            if op.operands:
                for v, o in zip(op.operands, in_off(op)):
                    assert o == out_off(v.owner, v.index)  # type: ignore[arg-type, attr-defined]
        # group lifetimes and byte ranges in the feature map
        life: dict[SSAValue, list[int]] = {}
        spans: dict[SSAValue, list[tuple[int, int]]] = {}
        for v in values:
            op = v.owner
            i = v.index  # type: ignore[attr-defined]
            if out_region(op, i) != "fm":  # type: ignore[arg-type]
                continue
            lo, n = out_off(op, i), out_size(op, i)  # type: ignore[arg-type]
            assert 0 <= lo and lo + n <= memory_size, f"{node_name(op)}:{i} outside the arena"  # type: ignore[arg-type]
            raw = tensor_desc(v.type).size_in_bytes
            assert raw is not None and n >= raw
            root = find(v)
            end = max([pos[op]] + [pos[u.operation] for u in v.uses if u.operation in pos])  # type: ignore[index]
            lf = life.setdefault(root, [pos[op], end])  # type: ignore[index]
            lf[0], lf[1] = min(lf[0], pos[op]), max(lf[1], end)  # type: ignore[index]
            spans.setdefault(root, []).append((lo, lo + n))
        groups = sorted(life, key=lambda r: life[r][0])
        # live bytes per node (raw stored sizes, not aligned), a weaker bound than the pass's
        for t in range(len(ops)):
            live = 0
            for r in groups:
                if life[r][0] <= t <= life[r][1]:
                    live += max(h for _, h in spans[r]) - min(lo for lo, _ in spans[r])
            assert live <= lower
            peak_seen = max(peak_seen, live)
        for i, r in enumerate(groups):
            for s in groups[i + 1 :]:
                if life[s][0] > life[r][1] or life[r][0] > life[s][1]:
                    continue
                for a0, a1 in spans[r]:
                    for b0, b1 in spans[s]:
                        assert a1 <= b0 or b1 <= a0, "two live tensors share bytes"
        total += sum(out_size(v.owner, v.index) for v in values if out_region(v.owner, v.index) == "fm")  # type: ignore[arg-type, attr-defined]
    return total, peak_seen


def make_onnx_model(
    nodes: list[onnx.NodeProto],
    inputs: list[tuple[str, int, list[int]]],
    outputs: list[str],
    inits: dict[str, np.ndarray] | None = None,
    opset: int = 17,
) -> onnx.ModelProto:
    """An ONNX model of `nodes` (inputs: name, TensorProto element type, shape; `inits`:
    initializers), opset `opset`; output types come from ONNX's strict shape inference."""
    g = onnx.helper.make_graph(
        nodes,
        "g",
        [onnx.helper.make_tensor_value_info(n, e, s) for n, e, s in inputs],
        [onnx.ValueInfoProto(name=o) for o in outputs],
        initializer=[onnx.numpy_helper.from_array(a, n) for n, a in (inits or {}).items()],
    )
    m = onnx.helper.make_model(g, opset_imports=[onnx.helper.make_opsetid("", opset)])
    m.ir_version = 8
    inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    types = {vi.name: vi for vi in [*inferred.graph.value_info, *inferred.graph.output]}
    for o in m.graph.output:
        o.CopyFrom(types[o.name])
    return m


# docs/pipeline.md: the passes ge-compile stands for, in order, as -p names them
# (written by hand, not read from GeCompilePass: the tests check the pass against it)
README_PIPELINE: list[str] = [
    "ge-for-pass",
    "ge-dimension-compute-pass",
    "ge-constant-folding-pass",
    "ge-infer-shape-for-preprocess",
    "ge-cond-pass",
    "ge-dropout-pass",
    "ge-stop-gradient-pass",
    "ge-prevent-gradient-pass",
    "ge-snapshot-pass",
    "ge-identity-pass",
    "ge-dimension-compute-pass",
    "ge-constant-folding-pass",
    "ge-const-to-attr",
    "ge-partition-dynamic",
    "ge-phony-notask{stage=mark}",
    "ge-lower-autofuse",
    "ge-autofuse",
    "ge-split-notask",
    "ge-concat-notask",
    "ge-pack-notask",
    "ge-subgraph-pass",
    "ge-label-allocator",
    "ge-phony-notask{stage=calc}",
    "ge-assign-memory",
    "ge-to-npu",
]


def onnx_attr_value(a: object) -> object:
    """An imported ge attribute as the Python value an ONNX-import test expects."""
    if isinstance(a, IntegerAttr):
        return bool(a.value.data) if a.type.width.data == 1 else a.value.data
    if isinstance(a, FloatAttr):
        return a.value.data
    if isinstance(a, ArrayAttr):
        return [onnx_attr_value(e) for e in a.data]
    if isinstance(a, StringAttr):
        return a.data
    return a


def imported_compute_ops(module: ModuleOp) -> list[Operation]:
    """The ops of an imported model's one graph, without its Data, Consts and NetOutput."""
    (g,) = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    return [op for op in g.body.block.ops if not isinstance(op, ge.Data | ge.Const | ge.NetOutput)]
