"""Differential testing on random graphs (issue 17, "Close the holes").

* The generator (tests/random_graphs.py): deterministic; every graph verifies and keeps at
  most 1 % non-finite intermediate values on ge-run's inputs (measured with the reference
  interpreter, over hundreds of seeds); it generates each pattern that found a bug before
  (counted on the parsed graphs); a feature left out is absent.
* The harness (bench/differential.py): classifies a miscompile as a mismatch and reduces a
  failing graph.
* The differential test itself: fixed seeds through ge-run (the CLI's main) on the
  reference, then compiled on 1 and 2 streams with 3 executions, each compared with the
  reference. A failure that is a known open issue-17 case (bench/differential.py KNOWN,
  by message, or for mismatches and simulator faults by what the graph holds) is an xfail
  naming the case; any other failure fails the test. A second set of seeds leaves out the
  generator features that reach open cases today and must pass outright.

Seeds: the generator checks use 0..299, the differential tests 1000..1035 and 2000..2023;
bench/differential.py's defaults start at 100000.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import OpResult

from bench import differential as D
from conftest import parse
from ge_dialect import ge
from ge_dialect.desc import tensor_desc
from random_graphs import FEATURES, Options, generate, graph_text, nonfinite_fraction

GEN_SEEDS = range(0, 300)
DIFF_SEEDS = range(1000, 1036)
MASKED_SEEDS = range(2000, 2024)
# Features whose graphs reach an open issue-17 case on today's main (names: 6, Identity: 7,
# 0-d: 4 and 5, phony: 1, padded formats: 2). bf16 is a real dtype end to end (tests/dialects/test_bf16.py).
MASKED = Options(without=frozenset({"numeric_names", "mixed_names", "identity", "zero_d", "phony", "padded_formats"}))
ARGS = D.build_arg_parser().parse_args(["--executions", "3", "--timeout", "120"])


def body(m: ModuleOp) -> list:
    (g,) = [op for op in m.ops if isinstance(op, ge.GraphOp)]
    return list(g.body.block.ops)


@pytest.fixture(autouse=True)
def _no_traceback_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GE_XDSL_TRACEBACK", raising=False)


# ---------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------


def test_deterministic_and_seed_dependent() -> None:
    assert graph_text(7) == graph_text(7)
    assert graph_text(7) != graph_text(8)
    opts = Options(with_=frozenset({"zero_size"}))
    assert graph_text(7, opts) == graph_text(7, opts)


def test_graphs_verify_and_stay_in_their_domain() -> None:
    """Every graph verifies and at most 1 % of its intermediate float values (per graph and
    over all graphs) are NaN or infinite on ge-run's random inputs for `--seed seed`."""
    bad = total = 0
    worst = (0.0, -1)
    for seed in GEN_SEEDS:
        opts = Options(with_=frozenset({"zero_size"})) if seed % 3 == 0 else Options()
        b, t = nonfinite_fraction(graph_text(seed, opts), seed)
        bad, total = bad + b, total + t
        if t and b / t > worst[0]:
            worst = (b / t, seed)
    assert total > 100_000
    assert worst[0] <= 0.01, f"seed {worst[1]}: {worst[0]:.1%} non-finite"
    assert bad <= 0.01 * total


def _patterns(seeds: range) -> Counter:
    """Counts of the patterns that found issue 17's bugs, over the parsed graphs."""
    c: Counter = Counter()
    for seed in seeds:
        text = graph_text(seed)
        ops = body(parse(text))
        if re.search(r"%\d+(:\d+)? = ", text) and not re.search(r"%[a-zA-Z]\w* = ", text):
            c["numeric names only"] += 1
        if re.search(r"%\d+ = ", text) and re.search(r"%[a-zA-Z]\w* = ", text):
            c["mixed names"] += 1
        c["%N:k result groups"] += bool(re.search(r"%\w+:\d+ = ", text))
        c["GE-like names (%Add_0)"] += bool(re.search(r"%(Add|Data|Const|Relu|Mul|Sub|Abs)_\d+ ", text))
        for op in ops:
            t = ge.ge_type(op)
            outs = [v for v in op.operands if isinstance(v, OpResult)]
            owners = Counter(id(v.op) for v in outs if len(v.op.results) > 1)
            for v in outs:
                if len(v.op.results) > 1 and owners[id(v.op)] >= 2:
                    who = "NetOutput" if t == "NetOutput" else "a consumer"
                    c[f"{who} reads 2 outputs of one {ge.ge_type(v.op)}"] += 1
                    break
            if len(op.operands) != len(set(op.operands)):
                c["one value read twice by one op" if t != "NetOutput" else "NetOutput lists a value twice"] += 1
                if any(
                    isinstance(v, OpResult) and len(v.op.results) > 1
                    for v in op.operands
                    if list(op.operands).count(v) > 1
                ):
                    c["one split output read twice"] += 1
            if t in ("ConcatD", "ConcatV2D", "PhonyConcat") and outs and all(v.op is outs[0].op for v in outs):
                src = outs[0].op
                if ge.ge_type(src) == "SplitD" and [v.index for v in outs] != sorted(v.index for v in outs):
                    c[f"SplitD outputs into one {t}, reordered"] += 1
            for v in op.operands:
                p = v.owner if isinstance(v, OpResult) else None
                if t == "Identity" and p is not None:
                    pt = ge.ge_type(p)
                    key = (
                        "Data"
                        if pt == "Data"
                        else "library"
                        if pt in ("MatMul", "Gather", "GatherV2", "Conv2D", "HcomAllGather")
                        else "Identity"
                        if pt == "Identity"
                        else "split"
                        if len(p.results) > 1
                        else None
                    )
                    if key:
                        c[f"Identity after {key}"] += 1
                if t == "NetOutput" and p is not None:
                    c["Data read by NetOutput"] += ge.ge_type(p) == "Data"
                    c["Identity before NetOutput"] += ge.ge_type(p) == "Identity"
                    c["0-d graph output"] += len(v.type.get_shape()) == 0
            res = op.results[0].type if op.results else None
            if isinstance(res, TensorType):
                rank = len(res.get_shape())
                if t == "Const" and rank == 0:
                    c["0-d Const"] += 1
                if t == "Data" and rank == 0:
                    c["0-d Data"] += 1
                if t.startswith("Reduce") and rank == 0:
                    c["reduction to a scalar"] += 1
                if t in ("Gather", "GatherV2") and len(op.operands[1].type.get_shape()) == 0:
                    c["gather with a 0-d index"] += 1
                if t == "GatherV2" and len(op.operands[2].type.get_shape()) == 0:
                    c["GatherV2 with a 0-d axis"] += 1
                if 1 in res.get_shape():
                    c["size-1 dim"] += 1
                d = tensor_desc(res)
                if d.storage_format == "NC1HWC0" and res.get_shape()[1] % 16:
                    c["NC1HWC0 with C % 16 != 0"] += 1
                    c["ConcatD of NC1HWC0"] += t == "ConcatD"
                c[f"dtype {res.element_type}"] += 1
            if (
                len(op.operands) == 2
                and t not in ("NetOutput",)
                and all(isinstance(v.type, TensorType) for v in op.operands)
            ):
                c["broadcasting binary"] += op.operands[0].type.get_shape() != op.operands[1].type.get_shape()
            c[f"op {t}"] += 1
    return c


def test_generator_covers_the_patterns() -> None:
    c = _patterns(range(0, 200))
    want = [
        "a consumer reads 2 outputs of one SplitD", "a consumer reads 2 outputs of one SplitVD",
        "a consumer reads 2 outputs of one PhonySplit", "NetOutput reads 2 outputs of one SplitD",
        "NetOutput reads 2 outputs of one PhonySplit", "one value read twice by one op",
        "one split output read twice", "NetOutput lists a value twice",
        "SplitD outputs into one ConcatD, reordered", "SplitD outputs into one PhonyConcat, reordered",
        "0-d Const", "0-d Data", "reduction to a scalar", "gather with a 0-d index",
        "GatherV2 with a 0-d axis", "0-d graph output", "numeric names only", "mixed names",
        "%N:k result groups", "GE-like names (%Add_0)", "Identity after Data", "Identity after library",
        "Identity after Identity", "Identity after split", "Identity before NetOutput",
        "Data read by NetOutput", "NC1HWC0 with C % 16 != 0", "ConcatD of NC1HWC0", "size-1 dim",
        "broadcasting binary", "op PhonyConcat", "op Pack", "op ConcatV2D", "op MatMul", "op Conv2D",
        "op GatherV2", "op Cast", "op TransposeD", "op BroadcastToD", "op ReduceProdD",
        "op Sqrt", "op Rsqrt", "op Log", "op Exp", "op Pow", "op RealDiv", "op Div", "op Reciprocal",
    ] + [f"dtype {d}" for d in ("f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "ui8", "i1")]  # fmt: skip
    missing = {k: c[k] for k in want if c[k] < 3}
    assert not missing, f"patterns generated fewer than 3 times in 200 graphs: {missing}"


@pytest.mark.parametrize(
    ("feature", "pattern"),
    [
        ("zero_d", r"tensor<(f|bf|i|ui)\d+[,>]"),
        ("identity", r"ge\.Identity"),
        ("phony", r"ge\.Phony"),
        ("bf16", r"bf16"),
        ("padded_formats", r"NC1HWC0"),
    ],
)
def test_a_feature_left_out_is_absent(feature: str, pattern: str) -> None:
    opts = Options(without=frozenset({feature}))
    hits = [s for s in range(60) if re.search(pattern, graph_text(s, opts).split("\n", 1)[1])]
    assert not hits, f"without {feature}: seeds {hits} still contain {pattern}"
    assert any(re.search(pattern, graph_text(s).split("\n", 1)[1]) for s in range(60))


def test_names_can_be_left_out() -> None:
    opts = Options(without=frozenset({"numeric_names", "mixed_names"}))
    assert not any(re.search(r"%\d", graph_text(s, opts)) for s in range(60))
    assert set(FEATURES) >= {"numeric_names", "mixed_names"}


# ---------------------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------------------


def test_harness_reports_and_reduces_a_miscompile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulator whose first output is off by one is a mismatch on every graph, and the
    reducer brings a graph down to a Data and its NetOutput (plus at most one node)."""
    import ge_tools.run as run

    execute = run.execute_model

    def off_by_one(*a, **k):
        ex = execute(*a, **k)
        for outs in ex.runs:
            if outs and outs[0].size and outs[0].dtype.kind == "f":
                outs[0] = outs[0] + 1
        return ex

    monkeypatch.setattr(run, "execute_model", off_by_one)
    seed = next(s for s in MASKED_SEEDS if generate(s, MASKED).nodes[-1].ins[0].dtype in ("f32", "f16", "f64"))
    g = generate(seed, MASKED)
    res = D.check_text(g.text(), str(tmp_path / "g.mlir"), seed, ARGS)
    kinds = [kind for _, _, kind, _ in res.runs]
    assert kinds == ["ok", "mismatch", "mismatch"], res.runs
    (key,) = D.keys_of(res)
    assert key == "[NEW?] mismatch [compile]: mismatch (simulator)"
    small = D.reduce_graph(g, key, seed, str(tmp_path / "r.mlir"), ARGS)
    assert len(small.nodes) <= 3 < len(g.nodes)
    assert key in D.keys_of(D.check_text(small.text(), str(tmp_path / "r.mlir"), seed, ARGS))


def test_classify() -> None:
    Out = D.Outcome
    assert D.classify(Out(0, "outputs match the reference\n", "")) == ("ok", "")
    assert D.classify(Out(1, "outputs do not match the reference (3 elements differ)\n", ""))[0] == "mismatch"
    inconclusive = (
        "tolerance: 2 output elements are undecidable (...)\ncomparison inconclusive: 2 output elements ...\n"
    )
    assert D.classify(Out(1, inconclusive, "")) == (
        "inconclusive",
        "tolerance: 2 output elements are undecidable (...)",
    )
    assert D.classify(Out(1, "", "ge-run: error: internal error: ValueError: x\n"))[0] == "internal error"
    assert D.classify(Out(1, "", "f.mlir:3:3: error: simulator: stream 0 task 1 ...\n"))[0] == "sim fault"
    assert D.classify(Out(1, "", "f.mlir:3:3: error: ge.Add: bad\n")) == (
        "user error",
        "f.mlir:3:3: error: ge.Add: bad",
    )
    assert D.classify(Out("escaped RecursionError: deep", "", ""))[0] == "traceback"
    assert D.classify(Out(1, "", "Traceback (most recent call last):\n  ...\nArgSpecParseError: x\n"))[0] == "traceback"
    assert D.classify(Out("hang", "", ""))[0] == "hang"
    assert (
        D.normalize("g.mlir:12:3: error: ge.Add: input 'x_1' has 24 bytes, tensor<3x2xf32>")
        == "error: ge.Add: input <name> has N bytes, <type>"
    )


def test_ge_run_random_input_of_a_0d_bf16_data(tmp_path: Path) -> None:
    """A 0-d bf16 Data got a numpy scalar, not an array, from ge-run's random inputs (the
    bf16 rounding returned numpy's scalar of a 0-d array): `ge-run --reference` failed with
    "input 0 of graph @main is a float32, not a numpy array". Found by this generator."""
    f = tmp_path / "bf0.mlir"
    f.write_text(
        "ge.graph @main {\n"
        "  %x = ge.Data {index = 0} : tensor<bf16>\n"
        "  %y = ge.Relu(%x) : (tensor<bf16>) -> tensor<bf16>\n"
        "  ge.NetOutput %y : tensor<bf16>\n"
        "}\n"
    )
    o = D.run_in_process([str(f), "--reference", "--seed", "3"], 60)
    assert o.code == 0, o.stderr
    from ge_tools.run import random_input

    (d,) = [op for op in body(parse(f.read_text())) if isinstance(op, ge.Data)]
    a = random_input(d, np.random.default_rng(0))
    assert isinstance(a, np.ndarray) and a.shape == () and a.dtype.name == "bfloat16"  # GE's 2 bytes
    assert -1.0 <= float(a) <= 1.0


# ---------------------------------------------------------------------------------------
# The differential test
# ---------------------------------------------------------------------------------------


def _describe(res: D.Result) -> str:
    return "; ".join(f"{label}: {kind}: {msg[:160]}" for label, _, kind, msg in res.failures())


@pytest.mark.parametrize("seed", DIFF_SEEDS)
def test_ge_run_agrees_with_the_reference(seed: int, tmp_path: Path) -> None:
    g = generate(seed)
    res = D.check_text(g.text(), str(tmp_path / f"g{seed}.mlir"), seed, ARGS)
    if not res.failures():
        return
    cases = res.cases()
    if all(c is not None for c in cases):
        pytest.xfail(f"issue 17 open case(s) {', '.join(sorted(set(cases)))}: {_describe(res)}")  # type: ignore[arg-type]
    pytest.fail(
        f"seed {seed}: a failure that is no known case (rerun: bench/differential.py --count 1 --seed-start {seed}): {_describe(res)}"
    )


@pytest.mark.parametrize("seed", MASKED_SEEDS)
def test_ge_run_agrees_with_the_reference_on_graphs_without_open_cases(seed: int, tmp_path: Path) -> None:
    g = generate(seed, MASKED)
    res = D.check_text(g.text(), str(tmp_path / f"g{seed}.mlir"), seed, ARGS)
    assert [kind for _, _, kind, _ in res.runs] == ["ok", "ok", "ok"], _describe(res)


# ---------------------------------------------------------------------------------------
# Control flow (issue 29): nested If / Case / While, static and unknown-shape
# ---------------------------------------------------------------------------------------

CONTROL_SEEDS = range(3000, 3010)


def test_control_generator_is_deterministic_and_nests() -> None:
    from random_graphs import control_graph_text

    assert control_graph_text(3000) == control_graph_text(3000)
    kinds = Counter()
    for seed in CONTROL_SEEDS:
        m = parse(control_graph_text(seed))
        graphs = [op for op in m.ops if isinstance(op, ge.GraphOp)]
        nested = sum(1 for g in graphs[1:] for op in g.body.block.ops if isinstance(op, ge.ControlOp))
        kinds.update(ge.ge_type(op) for g in graphs for op in g.body.block.ops if isinstance(op, ge.ControlOp))
        kinds["nested"] += nested > 0
    assert kinds["If"] and kinds["Case"] and kinds["While"] and kinds["nested"] >= 3


@pytest.mark.parametrize("seed", CONTROL_SEEDS)
def test_control_flow_graphs_match_the_reference(seed: int, tmp_path: Path) -> None:
    """Static: label tasks on the simulator, 1 and 2 streams, 3 executions; unknown-shape:
    the dynamic executor over two batch sizes. Each against the reference (ge-run's check)."""
    from conftest import run_cli
    from ge_tools.run import main as ge_run
    from random_graphs import control_graph_text

    f = tmp_path / "static.mlir"
    f.write_text(control_graph_text(seed))
    for streams in ("1", "2"):
        code, out, err = run_cli(ge_run, [str(f), "--streams", streams, "--executions", "3", "--seed", str(seed)])
        assert code == 0 and "outputs match the reference" in out, (streams, out, err)
        assert "label_switch_by_index" in out
    d = tmp_path / "dynamic.mlir"
    d.write_text(control_graph_text(seed, dynamic=True))
    code, out, err = run_cli(ge_run, [str(d), "--dim", "0=2,3", "--seed", str(seed)])
    assert code == 0 and "outputs match the reference" in out, (out, err)
