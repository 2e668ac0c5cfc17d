"""The reference semantics of the control-flow ops (If, Case, While, For and the stateless
forms) on the examples in examples/control/ and on generated graphs, against numpy
computed independently; the While iteration cap; GE's branch choice rules (a non-scalar
cond is true when non-empty, a Case index out of range takes the last branch)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import parse
from runtime.graph_interpreter import WHILE_ITERATION_CAP, ReferenceEvalError
from runtime.interpreter import ge_interpreter, run_module
from runtime.reference import case_branch, cond_truth, for_trip_count, select_graph

CONTROL = Path(__file__).resolve().parents[2] / "examples" / "control"


def example(name: str):
    return parse((CONTROL / name).read_text())


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_if_select_takes_the_branch_the_cond_says(sign: float) -> None:
    rng = np.random.default_rng(3)
    x = (sign * rng.uniform(0.1, 1.0, (4, 8))).astype(np.float32)
    y = rng.uniform(-1.0, 1.0, (4, 8)).astype(np.float32)
    (out,) = run_module(example("if_select.mlir"), [x, y])
    want = np.maximum(x + y, 0) if x.sum() > 0 else np.maximum(-(x * y), 0)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize(("k", "branch"), [(0, 0), (1, 1), (2, 2), (7, 2), (-1, 2)])
def test_case_branches_out_of_range_takes_the_last(k: int, branch: int) -> None:
    rng = np.random.default_rng(k + 10)
    x = rng.uniform(-1, 1, (3, 5)).astype(np.float16)
    y = rng.uniform(-1, 1, (3, 5)).astype(np.float16)
    a, b = run_module(example("case_branches.mlir"), [np.array(k, np.int32), x, y])
    want = [(x + y, x - y), (x * y, np.maximum(x, y)), (y, x)][branch]
    np.testing.assert_array_equal(a, want[0])
    np.testing.assert_array_equal(b, want[1])


@pytest.mark.parametrize("n", [0, 1, 4])
def test_while_carries_values_n_times(n: int) -> None:
    x = np.random.default_rng(n).uniform(-1, 1, (2, 16)).astype(np.float32)
    acc, i = run_module(example("while_accumulate.mlir"), [x, np.array(n, np.int32)])
    want = x.copy()
    for _ in range(n):
        h = want * np.float32(0.5)
        want = np.exp(h) - h
    np.testing.assert_array_equal(acc, want)
    assert int(i) == n


def test_nested_while_if() -> None:
    x = np.linspace(-1, 2, 8).astype(np.float32)
    (out,) = run_module(example("nested_while_if.mlir"), [x, np.array(5, np.int32), np.array(6.0, np.float32)])
    want = x.copy()
    for _ in range(5):
        want = want * np.float32(0.5) if want.sum() > 6.0 else want + np.float32(1.0)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize(("start", "trips"), [(0, 4), (1, 3), (6, 1), (7, 0), (9, 1)])
def test_for_runs_the_body_with_the_loop_variable(start: int, trips: int) -> None:
    # limit 7, delta 2: GE's ForPass loops while i * |delta| < |limit - start|, so a start
    # beyond the limit still runs ceil(|7 - 9| / 2) = 1 time (Python's range would not)
    acc = np.arange(6, dtype=np.float32)
    (out,) = run_module(example("for_counter.mlir"), [acc, np.array(start, np.int32)])
    want = acc + sum(np.float32(start + 2 * k) for k in range(trips))
    np.testing.assert_array_equal(out, want)


def test_for_trip_count_follows_for_pass() -> None:
    assert [for_trip_count(0, 10, 3), for_trip_count(10, 0, -3), for_trip_count(0, 10, -3)] == [4, 4, 4]
    assert for_trip_count(5, 5, 0) == 0 and for_trip_count(0, 1, 0) is None


def test_cond_truth_and_case_index() -> None:
    assert cond_truth(np.array(2, np.int32)) and not cond_truth(np.array(0.0, np.float32))
    assert cond_truth(np.zeros((1,), np.float32))  # non-scalar: non-empty is true
    assert not cond_truth(np.zeros((0, 3), np.float32))
    assert [case_branch(np.array([k], np.int32), 3) for k in (-5, 0, 2, 3)] == [2, 0, 2, 2]


INFINITE = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2xf32>
  %w = ge.While(%x) {cond = @always, body = @step} : (tensor<2xf32>) -> tensor<2xf32>
  ge.NetOutput %w : tensor<2xf32>
}
ge.graph @always {
  %x = ge.Data {index = 0, _parent_node_index = 0} : tensor<2xf32>
  %t = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  ge.NetOutput %t : tensor<i32>
}
ge.graph @step {
  %x = ge.Data {index = 0, _parent_node_index = 0} : tensor<2xf32>
  ge.NetOutput %x : tensor<2xf32>
}
"""


def test_while_iteration_cap_names_the_node_and_the_cap() -> None:
    m = parse(INFINITE)
    it = ge_interpreter(m)
    assert it.while_cap == WHILE_ITERATION_CAP
    it.while_cap = 25
    with pytest.raises(ReferenceEvalError) as e:
        it.run_graph(select_graph(m), [np.zeros(2, np.float32)])
    assert str(e.value).endswith(
        "error: ge.While: While 'w' ran 25 iterations and its cond is still true: the interpreter's iteration cap "
        "(WHILE_ITERATION_CAP = 25)"
    )


def _generated_if(rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> tuple[str, str]:
    """An If on a generated cond kind with two outputs whose branches differ."""
    t = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    text = f"""
ge.graph @main {{
  %c = ge.Data {{index = 0}} : tensor<3xi32>
  %x = ge.Data {{index = 1}} : {t}
  %r:2 = ge.StatelessIf(%c, %x, %x) {{then_branch = @t, else_branch = @e}} : (tensor<3xi32>, {t}, {t}) -> ({t}, {t})
  ge.NetOutput %r#1, %r#0 : {t}, {t}
}}
ge.graph @t {{
  %a = ge.Data {{index = 0, _parent_node_index = 1}} : {t}
  %b = ge.Data {{index = 1, _parent_node_index = 2}} : {t}
  %s = ge.Add(%a, %b) : ({t}, {t}) -> {t}
  ge.NetOutput %s, %a : {t}, {t}
}}
ge.graph @e {{
  %a = ge.Data {{index = 0, _parent_node_index = 1}} : {t}
  %b = ge.Data {{index = 1, _parent_node_index = 2}} : {t}
  %n = ge.Neg(%b) : ({t}) -> {t}
  ge.NetOutput %a, %n : {t}, {t}
}}
"""
    return text, t


@pytest.mark.parametrize("seed", range(4))
def test_generated_stateless_if_non_scalar_cond_is_true(seed: int) -> None:
    rng = np.random.default_rng(seed)
    dtype = ["f32", "f16", "i32"][seed % 3]
    shape = tuple(int(d) for d in rng.integers(1, 5, size=1 + seed % 3))
    text, _ = _generated_if(rng, dtype, shape)
    np_dt = {"f32": np.float32, "f16": np.float16, "i32": np.int32}[dtype]
    x = rng.integers(-4, 5, size=shape).astype(np_dt)
    # a 3-element cond is non-empty, so true whatever its values (zeros here)
    o0, o1 = run_module(parse(text), [np.zeros(3, np.int32), x])
    np.testing.assert_array_equal(o0, x)
    np.testing.assert_array_equal(o1, x + x)
