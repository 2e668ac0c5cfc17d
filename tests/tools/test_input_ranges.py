"""ge-run's random inputs are valid for the graph (issue 28 item 5, ge_tools/input_ranges.py):
an integer input that reaches a gather's indices is drawn in range of the dim it indexes,
a divisor holds no zero, and the other inputs keep the values they had."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from conftest import ROOT, parse
from ge_dialect import ge
from ge_tools import api
from ge_tools import run as R
from ge_tools.input_ranges import InputRange, input_ranges
from runtime.interpreter import run_graph
from runtime.reference import select_graph

SEEDS = range(6)


def _t(shape: tuple[int, ...], dt: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{dt}>"


def chain_graph(rng: random.Random) -> tuple[str, int, int, str]:
    """ids -> Add(c) -> Cast -> Reshape -> Unsqueeze -> GatherV2(table, ., axis), of random
    dims, dtypes, shift and axis. Returns (text, low, high, the index dtype) with [low, high)
    the range ids must take, computed by hand: [0, d) of the indexed dim, moved by -c."""
    it = rng.choice(["i32", "i64"])
    ct = "i64" if it == "i32" else "i32"
    n, m = rng.randint(1, 4), rng.randint(1, 5)
    c = rng.randint(-7, 7)
    tab = (rng.randint(2, 9), rng.randint(2, 40), 3)
    axis = rng.randrange(3)
    d = tab[axis]
    out = tab[:axis] + (1, n * m) + tab[axis + 1 :]
    text = f"""builtin.module {{
  ge.graph @main {{
    %ids = ge.Data {{index = 0}} : {_t((n, m), it)}
    %table = ge.Data {{index = 1}} : {_t(tab, "f32")}
    %c = ge.Const {{value = dense<{c}> : {_t((), it)}}} : {_t((), it)}
    %a = ge.Add(%ids, %c) : ({_t((n, m), it)}, {_t((), it)}) -> {_t((n, m), it)}
    %k = ge.Cast(%a) : ({_t((n, m), it)}) -> {_t((n, m), ct)}
    %r = ge.Reshape(%k) : ({_t((n, m), ct)}) -> {_t((n * m,), ct)}
    %u = ge.Unsqueeze(%r) {{axes = [0]}} : ({_t((n * m,), ct)}) -> {_t((1, n * m), ct)}
    %ax = ge.Const {{value = dense<{axis}> : tensor<i32>}} : tensor<i32>
    %y = ge.GatherV2(%table, %u, %ax) : ({_t(tab, "f32")}, {_t((1, n * m), ct)}, tensor<i32>) -> {_t(out, "f32")}
    ge.NetOutput %y : {_t(out, "f32")}
  }}
}}"""
    info = np.iinfo(np.int32 if it == "i32" else np.int64)
    return text, max(-c, int(info.min)), min(d - c, int(info.max) + 1), it


@pytest.mark.parametrize("case", range(8))
def test_an_index_through_a_chain_is_drawn_in_range(case: int) -> None:
    text, low, high, it = chain_graph(random.Random(case))
    g = select_graph(parse(text), None)
    r = input_ranges(g)
    assert r[0] is not None and (r[0].low, r[0].high) == (low, high)
    assert "it indexes node 'y' (GatherV2)" in r[0].why[0]
    assert r[1] is None  # the table is float: any value
    seen = set()
    for seed in SEEDS:
        ids, table = R.random_inputs(g, np.random.default_rng(seed))
        assert ids.dtype == np.dtype("int32" if it == "i32" else "int64")
        assert low <= ids.min() and ids.max() < high
        seen |= set(ids.ravel().tolist())
        run_graph(g, [ids, table])  # the reference accepts them
    assert len(seen) > 1 or high - low == 1 or ids.size == 1  # drawn over the range, not one value


def two_consumer_graph(d1: int, d2: int, it: str) -> str:
    return f"""builtin.module {{
  ge.graph @main {{
    %ids = ge.Data {{index = 0}} : tensor<5x{it}>
    %t1 = ge.Data {{index = 1}} : tensor<{d1}x2xf32>
    %t2 = ge.Data {{index = 2}} : tensor<3x{d2}xf32>
    %ax0 = ge.Const {{value = dense<0> : tensor<i32>}} : tensor<i32>
    %ax1 = ge.Const {{value = dense<1> : tensor<i32>}} : tensor<i32>
    %g1 = ge.GatherV2(%t1, %ids, %ax0) : (tensor<{d1}x2xf32>, tensor<5x{it}>, tensor<i32>) -> tensor<5x2xf32>
    %g2 = ge.GatherV2(%t2, %ids, %ax1) : (tensor<3x{d2}xf32>, tensor<5x{it}>, tensor<i32>) -> tensor<3x5xf32>
    ge.NetOutput %g1, %g2 : tensor<5x2xf32>, tensor<3x5xf32>
  }}
}}"""


@pytest.mark.parametrize(("d1", "d2", "it"), [(10, 4, "i32"), (3, 30, "i64"), (7, 7, "i64"), (1, 9, "i32")])
def test_two_consumers_take_the_smaller_dim(d1: int, d2: int, it: str) -> None:
    g = select_graph(parse(two_consumer_graph(d1, d2, it)), None)
    r = input_ranges(g)[0]
    assert r is not None and (r.low, r.high) == (0, min(d1, d2))
    # the reason named is the binding consumer's
    assert ("'g1'" if d1 <= d2 else "'g2'") in r.why[0]
    for seed in SEEDS:
        ins = R.random_inputs(g, np.random.default_rng(seed))
        assert 0 <= ins[0].min() and ins[0].max() < min(d1, d2)
        run_graph(g, ins)


def gather_elements_graph(shape: tuple[int, ...], dim: int) -> str:
    t = _t(shape, "f32")
    ti = _t(shape, "i64")
    return f"""builtin.module {{
  ge.graph @main {{
    %x = ge.Data {{index = 0}} : {t}
    %i = ge.Data {{index = 1}} : {ti}
    %y = ge.GatherElements(%x, %i) {{dim = {dim}}} : ({t}, {ti}) -> {t}
    ge.NetOutput %y : {t}
  }}
}}"""


@pytest.mark.parametrize(("shape", "dim"), [((3, 17), 1), ((3, 17), 0), ((2, 5, 4), -1), ((6,), 0)])
def test_gather_elements_index_is_in_range_of_its_dim(shape: tuple[int, ...], dim: int) -> None:
    g = select_graph(parse(gather_elements_graph(shape, dim)), None)
    r = input_ranges(g)[1]
    assert r is not None and (r.low, r.high) == (0, shape[dim])
    for seed in SEEDS:
        ins = R.random_inputs(g, np.random.default_rng(seed))
        assert r.admits(ins[1])
        run_graph(g, ins)


def divisor_graph(op: str, dt: str, shape: tuple[int, ...]) -> str:
    t = _t(shape, dt)
    return f"""builtin.module {{
  ge.graph @main {{
    %x = ge.Data {{index = 0}} : {t}
    %y = ge.Data {{index = 1}} : {t}
    %s = ge.Reshape(%y) : ({t}) -> {_t((math.prod(shape),), dt)}
    %b = ge.Reshape(%s) : ({_t((math.prod(shape),), dt)}) -> {t}
    %q = ge.{op}(%x, %b) : ({t}, {t}) -> {t}
    ge.NetOutput %q : {t}
  }}
}}"""


@pytest.mark.parametrize(
    ("op", "dt"),
    [("Div", "i32"), ("Div", "i64"), ("Mod", "i32"), ("FloorMod", "i64"), ("Div", "i8"), ("RealDiv", "f16"),
     ("Div", "ui8")],
)  # fmt: skip
def test_a_divisor_holds_no_zero(op: str, dt: str) -> None:
    g = select_graph(parse(divisor_graph(op, dt, (16, 16))), None)
    x, y = input_ranges(g)
    assert x is None
    assert y is not None and y.nonzero and y.high is None and f"it divides in node 'q' ({op})" in y.why
    values = set()
    for seed in SEEDS:
        ins = R.random_inputs(g, np.random.default_rng(seed))
        assert not np.any(ins[1] == 0)
        values |= set(ins[1].ravel().tolist())
        run_graph(g, ins)
    if dt[0] in "iu":  # the usual values but 0: [-4, 4] or [1, 8]
        assert values == (set(range(1, 9)) if dt[0] == "u" else set(range(-4, 5)) - {0})


def test_a_float_divisor_rounded_to_zero_becomes_one() -> None:
    # f8E4M3FN rounds |v| < 2^-10 to 0: 4096 draws hold some
    g = select_graph(parse(divisor_graph("RealDiv", "f8E4M3FN", (64, 64))), None)
    rng = np.random.default_rng(0)
    plain = [R.random_input(d, np.random.default_rng(0)) for d in g.data_nodes[:1]]
    ins = R.random_inputs(g, rng)
    assert not np.any(ins[1].astype(np.float32) == 0)
    # x, a dividend, is what it was
    assert np.array_equal(plain[0].view(np.uint8), ins[0].view(np.uint8))


def test_other_inputs_keep_their_values() -> None:
    """The values of an input without a range do not depend on another's range: the same
    draw as ge-run made before the analysis (random_input without a range, in order)."""
    for case in range(6):
        text, *_ = chain_graph(random.Random(100 + case))
        g = select_graph(parse(text), None)
        rng = np.random.default_rng(case)
        plain = [R.random_input(d, rng) for d in g.data_nodes]
        got = R.random_inputs(g, np.random.default_rng(case))
        assert np.array_equal(plain[1], got[1])  # the float table
        assert got[0].dtype == plain[0].dtype


def test_a_shift_out_of_the_dtype_is_cut_to_it() -> None:
    # ids (i8) + 120 indexes a dim of 50: [-120, -70), cut to int8's [-128, 128): unchanged;
    # ids (i8) - 100 indexes a dim of 50: [100, 150) cut to [100, 128)
    for c, want in ((120, (-120, -70)), (-100, (100, 128))):
        text = f"""builtin.module {{
  ge.graph @main {{
    %ids = ge.Data {{index = 0}} : tensor<4xi8>
    %c = ge.Const {{value = dense<{c}> : tensor<i32>}} : tensor<i32>
    %k = ge.Cast(%ids) : (tensor<4xi8>) -> tensor<4xi32>
    %a = ge.Add(%k, %c) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %t = ge.Data {{index = 1}} : tensor<50x2xf32>
    %y = ge.Gather(%t, %a) : (tensor<50x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
    ge.NetOutput %y : tensor<4x2xf32>
  }}
}}"""
        g = select_graph(parse(text), None)
        r = input_ranges(g)[0]
        assert r is not None and (r.low, r.high) == want
        for seed in SEEDS:
            ins = R.random_inputs(g, np.random.default_rng(seed))
            run_graph(g, ins)


def test_disjoint_needs_fall_back_to_the_usual_draw() -> None:
    # ids indexes a dim of 3 directly and, shifted by +10, a dim of 4: no value does both
    text = """builtin.module {
  ge.graph @main {
    %ids = ge.Data {index = 0} : tensor<4xi32>
    %t = ge.Data {index = 1} : tensor<3x2xf32>
    %c = ge.Const {value = dense<10> : tensor<i32>} : tensor<i32>
    %a = ge.Add(%ids, %c) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %u = ge.Data {index = 2} : tensor<4x2xf32>
    %y = ge.Gather(%t, %ids) : (tensor<3x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
    %z = ge.Gather(%u, %a) : (tensor<4x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
    ge.NetOutput %y, %z : tensor<4x2xf32>, tensor<4x2xf32>
  }
}"""
    r = input_ranges(select_graph(parse(text), None))[0]
    assert r is not None and r.high is None and r.why[0].startswith("no value satisfies every use")


def test_an_index_through_a_partitioned_call() -> None:
    text = """builtin.module {
  ge.graph @main {
    %ids = ge.Data {index = 0} : tensor<6xi64>
    %t = ge.Data {index = 1} : tensor<11x2xf32>
    %y = ge.PartitionedCall(%t, %ids) {f = @sub} : (tensor<11x2xf32>, tensor<6xi64>) -> tensor<6x2xf32>
    ge.NetOutput %y : tensor<6x2xf32>
  }
  ge.graph @sub {
    %a = ge.Data {index = 0} : tensor<11x2xf32>
    %b = ge.Data {index = 1} : tensor<6xi64>
    %y = ge.Gather(%a, %b) : (tensor<11x2xf32>, tensor<6xi64>) -> tensor<6x2xf32>
    ge.NetOutput %y : tensor<6x2xf32>
  }
}"""
    g = select_graph(parse(text), "main")
    r = input_ranges(g)[0]
    assert r is not None and (r.low, r.high) == (0, 11)


def test_ge_run_says_it_in_remarks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "g.mlir"
    p.write_text(two_consumer_graph(10, 4, "i32"))
    assert R.run([str(p), "--remarks"]) == 0
    err = capsys.readouterr().err
    assert "remark: input 'ids': values in [0, 4) because it indexes node 'g2' (GatherV2) axis 1" in err
    # given files: no remark (the user's values are the user's)
    for i, shape, dt in ((0, (5,), np.int32), (1, (10, 2), np.float32), (2, (3, 4), np.float32)):
        np.save(tmp_path / f"in{i}.npy", np.zeros(shape, dt))
    files = [f"--input={tmp_path / f'in{i}.npy'}" for i in range(3)]
    assert R.run([str(p), "--remarks", *files]) == 0
    assert "remark: input" not in capsys.readouterr().err


@pytest.mark.parametrize("seed", [0, 1, 2, 5, 13, 77])
def test_embedding_bag_runs_with_any_seed(seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert R.run([str(ROOT / "examples/zoo/embedding_bag.onnx"), "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "outputs match the reference" in out and "outputs match onnxruntime" in out


def test_the_api_draws_what_ge_run_draws() -> None:
    m = parse(two_consumer_graph(6, 9, "i64"))
    g = select_graph(m, None)
    for seed in (0, 3):
        want = run_graph(g, R.random_inputs(g, np.random.default_rng(seed)))
        got = api.reference(m, seed=seed)
        assert all(np.array_equal(a, b) for a, b in zip(want, got))
    sim = api.simulate(m, seed=3)
    assert all(np.array_equal(a, b) for a, b in zip(api.reference(m, seed=3), sim.outputs))


def test_an_unknown_dim_admits_index_zero() -> None:
    text = """builtin.module {
  ge.graph @main {
    %t = ge.Data {index = 0} : tensor<?x3xf32>
    %ids = ge.Data {index = 1} : tensor<4xi32>
    %y = ge.Gather(%t, %ids) : (tensor<?x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    ge.NetOutput %y : tensor<4x3xf32>
  }
}"""
    r = input_ranges(select_graph(parse(text), None))[1]
    assert r == InputRange(0, 1, False, r.why) and "unknown size" in r.why[0]


def test_node_types_of_the_rules_exist() -> None:
    """Each gather the analysis knows of is a ge dialect op (a renamed op would drop its rule)."""
    from ge_tools.input_ranges import INDEX_OPERANDS

    names = {c.name for c in ge.GE.operations}  # type: ignore[attr-defined]
    assert {f"ge.{t}" for t in INDEX_OPERANDS} <= names


def select_graph_text(shape: tuple[int, ...], dim: int, cmp: str, c: int, then_shift: int, else_shift: int) -> str:
    """GatherElements(x, SelectV2(cmp(i, c), i + then_shift, i + else_shift)): the form
    ONNX's negative indices import as (cmp Less, c 0, shifts d and 0)."""
    t, ti = _t(shape, "f32"), _t(shape, "i64")
    s = _t((), "i64")
    return f"""builtin.module {{
  ge.graph @main {{
    %x = ge.Data {{index = 0}} : {t}
    %i = ge.Data {{index = 1}} : {ti}
    %c = ge.Const {{value = dense<{c}> : {s}}} : {s}
    %s1 = ge.Const {{value = dense<{then_shift}> : {s}}} : {s}
    %s2 = ge.Const {{value = dense<{else_shift}> : {s}}} : {s}
    %p = ge.{cmp}(%i, %c) : ({ti}, {s}) -> {_t(shape, "i1")}
    %a = ge.Add(%i, %s1) : ({ti}, {s}) -> {ti}
    %b = ge.Add(%i, %s2) : ({ti}, {s}) -> {ti}
    %k = ge.SelectV2(%p, %a, %b) : ({_t(shape, "i1")}, {ti}, {ti}) -> {ti}
    %y = ge.GatherElements(%x, %k) {{dim = {dim}}} : ({t}, {ti}) -> {t}
    ge.NetOutput %y : {t}
  }}
}}"""


@pytest.mark.parametrize(("shape", "dim"), [((3, 17), 1), ((4, 2), 0), ((2, 5, 4), -1)])
def test_negative_indices_normalised_by_a_select_take_minus_d_to_d(shape: tuple[int, ...], dim: int) -> None:
    # SelectV2(Less(i, 0), i + d, i): i in [-d, 0) takes i + d, i in [0, d) itself
    d = shape[dim]
    g = select_graph(parse(select_graph_text(shape, dim, "Less", 0, d, 0)), None)
    r = input_ranges(g)[1]
    assert r is not None and (r.low, r.high) == (-d, d)
    for seed in SEEDS:
        ins = R.random_inputs(g, np.random.default_rng(seed))
        assert r.admits(ins[1])
        run_graph(g, ins)  # every index in range after the select


def test_a_select_whose_condition_does_not_split_its_branches_meets_them() -> None:
    # GreaterEqual(i, 0) takes i + 5 where i >= 0: [-5, 0) for that branch lies outside
    # i >= 0, so no union; both branches' needs meet: [-5, 0) and [0, 5) share no value
    g = select_graph(parse(select_graph_text((2, 5), 1, "GreaterEqual", 0, 5, 0)), None)
    r = input_ranges(g)[1]
    assert r is not None and r.high is None and "no value satisfies every use" in r.why[0]
    # a select over different shifts of i whose ranges overlap: the intersection
    g = select_graph(parse(select_graph_text((2, 5), 1, "Less", 3, 1, 0)), None)
    r = input_ranges(g)[1]
    assert r is not None and (r.low, r.high) == (0, 4)
