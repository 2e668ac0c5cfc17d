"""GE's for_pass_unittest.cc (UTEST_graph_passes_for_pass), ported by name: a For becomes
a While over (i, |delta|, |limit - start|, start, delta, inputs...) with a cond graph
(i * |delta| < |limit - start|) and a body graph calling the For's body on
start + i * delta; and the numbers: the reference interpreter gives the For's outputs
(computed independently with numpy) after the pass, for varied starts, limits, deltas
(negative ones too) and loop inputs."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

from conftest import parse
from ge_dialect import ge
from passes.control.cond_pass import CondPass
from passes.control.for_pass import ForPass
from runtime.interpreter import run_module

FOR = """
ge.graph @main {
  %s = ge.Data {index = 0} : tensor<i32>
  %l = ge.Data {index = 1} : tensor<i32>
  %d = ge.Data {index = 2} : tensor<i32>
  %x = ge.Data {index = 3} : tensor<2x3xf32>
  %k = ge.Data {index = 4} : tensor<i64>
  %r:2 = ge.For(%s, %l, %d, %x, %k) {body = @loop} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<2x3xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<i64>)
  ge.NetOutput %r#0, %r#1 : tensor<2x3xf32>, tensor<i64>
}
ge.graph @loop {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %x = ge.Data {index = 1, _parent_node_index = 3} : tensor<2x3xf32>
  %k = ge.Data {index = 2, _parent_node_index = 4} : tensor<i64>
  %f = ge.Cast(%i) : (tensor<i32>) -> tensor<f32>
  %h = ge.Const {value = dense<0.5> : tensor<f32>} : tensor<f32>
  %m = ge.Mul(%x, %h) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %y = ge.Add(%m, %f) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %one = ge.Const {value = dense<1> : tensor<i64>} : tensor<i64>
  %k1 = ge.Add(%k, %one) : (tensor<i64>, tensor<i64>) -> tensor<i64>
  ge.NetOutput %y, %k1 {_parent_node_index = [0, 1]} : tensor<2x3xf32>, tensor<i64>
}
"""


def run_pass():
    m = parse(FOR)
    ForPass().apply(Context(), m)
    m.verify()
    return m


def graph(m, name: str) -> ge.GraphOp:
    return next(g for g in m.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == name)


def test_no_cond_succ() -> None:
    m = parse("ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<4xf32>\n  ge.NetOutput %x : tensor<4xf32>\n}")
    ForPass().apply(Context(), m)
    assert [op.name for op in graph(m, "main").body.block.ops] == ["ge.Data", "ge.NetOutput"]


def test_run_success() -> None:
    m = run_pass()
    main = graph(m, "main")
    assert not any(isinstance(op, ge.For) for op in m.walk())
    (w,) = [op for op in main.body.block.ops if isinstance(op, ge.While)]
    assert ge.node_name(w) == "r_While"
    assert w.subgraph_names() == ["loop_Cond", "loop_Body"]
    assert len(w.operands) == 5 + 2 and len(w.results) == 5 + 2
    # inputs: i (Const 0 -> Identity), |delta|, |limit - start|, start, delta, x, k
    names = [ge.node_name(v.owner) for v in w.operands[:3]]
    assert names == ["r_i_Identity", "r_Abs_0", "r_Abs_1"]
    assert [v.owner.int_attr("index") for v in w.operands[3:]] == [0, 2, 3, 4]  # type: ignore[union-attr]
    # the For's outputs are the While's outputs 5..
    assert [v.owner is w and v.index for v in main.net_output.operands] == [5, 6]
    cond = graph(m, "loop_Cond")
    assert [ge.ge_type(op) for op in cond.body.block.ops][-3:] == ["Mul", "Less", "NetOutput"]
    body = graph(m, "loop_Body")
    (call,) = [op for op in body.body.block.ops if isinstance(op, ge.PartitionedCall)]
    assert ge.called_graph_names(call) == ["loop"]
    # UpdateForBodyInputMapping: loop variable 0 -> 0, loop inputs 3, 4 -> 1, 2
    assert [d.int_attr("_parent_node_index") for d in graph(m, "loop").data_nodes] == [0, 1, 2]


@pytest.mark.parametrize(
    ("start", "limit", "delta"), [(0, 5, 1), (2, 11, 3), (10, 1, -2), (3, 3, 1), (0, 4, -1), (-3, 2, 2)]
)
def test_numbers_after_for_pass_and_cond_pass(start: int, limit: int, delta: int) -> None:
    rng = np.random.default_rng(abs(start * 100 + limit))
    x = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
    k = np.array(7, np.int64)
    args = [np.array(v, np.int32) for v in (start, limit, delta)] + [x, k]
    m = run_pass()
    CondPass().apply(Context(), m)
    m.verify()
    y, k_out = run_module(m, args)
    # independent: ForPass loops while i * |delta| < |limit - start|, the body on start + i * delta
    want, i = x.copy(), 0
    while i * abs(delta) < abs(limit - start):
        want = want * np.float32(0.5) + np.float32(start + i * delta)
        i += 1
    np.testing.assert_array_equal(y, want)
    assert int(k_out) == 7 + i
    before = run_module(parse(FOR), args)
    np.testing.assert_array_equal(before[0], y)
