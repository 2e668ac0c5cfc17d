"""Control flow on the dynamic path: GE's control_op_executor_unittest.cc
(test_IfOpNodeTask, test_CaseOpNodeTask, test_WhileOpNodeTask), ported by name as runs of
ge-compile's output on the dynamic executor over several executions and batch sizes,
against numpy computed independently; and the control-flow cases of
dynamic_shape_partition_unittest.cc: a node with a subgraph is unknown when any of its
subgraphs holds an unknown node (TestSubGraphUnKnownShape), and a control op's subgraphs
are no roots of their own (they follow their parent: MarkSubgraphUnknownStatus)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

from conftest import parse
from ge_dialect import ge
from ge_dialect.graph import dynamic_graphs
from ge_tools import api
from passes.partition.dynamic_shape_partition import DynamicShapePartitionPass
from runtime.dynamic_executor import DynamicExecutor

BRANCH = """
ge.graph @{name} {{
  %x = ge.Data {{index = 0, _parent_node_index = 1}} : tensor<?x3xf32>
  %y = ge.{op}(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  ge.NetOutput %y : tensor<?x3xf32>
}}
"""

HEAD = """
ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<?x3xf32>
  %k = ge.Data {{index = 1}} : {k_type}
  %y = ge.{op}(%k, %x) {{{attrs}}} : ({k_type}, tensor<?x3xf32>) -> tensor<?x3xf32>
  ge.NetOutput %y : tensor<?x3xf32>
}}
"""


def run_dynamic(text: str, executions: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    compiled = api.compile(api.parse_module(text)).module
    ex = DynamicExecutor(compiled)
    return [ex.execute(inputs) for inputs in executions]


def test_IfOpNodeTask() -> None:
    text = HEAD.format(op="If", k_type="tensor<i1>", attrs="then_branch = @t, else_branch = @e")
    text += BRANCH.format(name="t", op="Relu") + BRANCH.format(name="e", op="Neg")
    rng = np.random.default_rng(1)
    runs = [
        [rng.uniform(-1, 1, (b, 3)).astype(np.float32), np.array(c)] for b, c in ((2, True), (5, False), (2, False))
    ]
    outs = run_dynamic(text, runs)
    for (x, c), (y,) in zip(runs, outs):
        np.testing.assert_array_equal(y, np.maximum(x, 0) if c else -x)


@pytest.mark.parametrize("k", [0, 1, 2, 9, -3])
def test_CaseOpNodeTask(k: int) -> None:
    text = HEAD.format(op="Case", k_type="tensor<i32>", attrs="branches = [@b0, @b1, @b2]")
    text += (
        BRANCH.format(name="b0", op="Relu") + BRANCH.format(name="b1", op="Neg") + BRANCH.format(name="b2", op="Abs")
    )
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
    (y,), (y2,) = run_dynamic(text, [[x, np.array(k, np.int32)], [x[:1], np.array(k, np.int32)]])
    # control_kernel.cc: GenIndexForCase: out of range takes the last branch
    f = [lambda a: np.maximum(a, 0), np.negative, np.abs][k if 0 <= k < 3 else 2]
    np.testing.assert_array_equal(y, f(x))
    np.testing.assert_array_equal(y2, f(x[:1]))


WHILE = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x3xf32>
  %n = ge.Data {index = 1} : tensor<i32>
  %i = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:3 = ge.While(%i, %n, %x) {cond = @c, body = @b} : (tensor<i32>, tensor<i32>, tensor<?x3xf32>) -> (tensor<i32>, tensor<i32>, tensor<?x3xf32>)
  ge.NetOutput %w#2, %w#0 : tensor<?x3xf32>, tensor<i32>
}
ge.graph @c {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %x = ge.Data {index = 2, _parent_node_index = 2} : tensor<?x3xf32>
  %l = ge.Less(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %l : tensor<i1>
}
ge.graph @b {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %x = ge.Data {index = 2, _parent_node_index = 2} : tensor<?x3xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %t = ge.Tanh(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %y = ge.Add(%t, %x) : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  ge.NetOutput %i1, %n, %y : tensor<i32>, tensor<i32>, tensor<?x3xf32>
}
"""


def test_WhileOpNodeTask() -> None:
    rng = np.random.default_rng(2)
    runs = [[rng.uniform(-1, 1, (b, 3)).astype(np.float32), np.array(n, np.int32)] for b, n in ((3, 4), (1, 0), (6, 2))]
    for (x, n), (y, i) in zip(runs, run_dynamic(WHILE, runs)):
        want = x.copy()
        for _ in range(int(n)):
            want = np.tanh(want) + want
        np.testing.assert_allclose(y, want, rtol=1e-6)
        assert int(i) == int(n)


STATIC_IO = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %c = ge.Data {index = 1} : tensor<i1>
  %a = ge.Exp(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = ge.If(%c, %a) {then_branch = @t, else_branch = @e} : (tensor<i1>, tensor<2x3xf32>) -> tensor<2x3xf32>
  ge.NetOutput %y : tensor<2x3xf32>
}
ge.graph @t {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<2x3xf32>
  %s = ge.Relu(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = ge.Neg(%s) {_is_unknown_shape = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  ge.NetOutput %r : tensor<2x3xf32>
}
ge.graph @e {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<2x3xf32>
  ge.NetOutput %x : tensor<2x3xf32>
}
"""


def test_TestSubGraphUnKnownShape() -> None:
    # the If's inputs and outputs are static, but its then_branch holds an unknown node
    # (one forced unknown, _is_unknown_shape):
    # IsUnknownShapeNode makes the If unknown (IsUnknownShapeGraph)
    m = parse(STATIC_IO)
    DynamicShapePartitionPass().apply(Context(), m)
    m.verify()
    main = next(g for g in m.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == "main")
    calls = [op for op in main.body.block.ops if isinstance(op, ge.PartitionedCall)]
    unknown = [c for c in calls if ge.called_graph_names(c)[0].endswith("_unknow")]
    assert len(unknown) == 1
    inner = next(
        g for g in m.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == ge.called_graph_names(unknown[0])[0]
    )
    assert any(isinstance(op, ge.If) for op in inner.body.block.ops)
    # MarkSubgraphUnknownStatus: the branches of a control op of an unknown graph run with it
    assert {"t", "e"} <= dynamic_graphs(m)


def test_control_subgraphs_are_not_roots() -> None:
    m = parse(WHILE)
    DynamicShapePartitionPass().apply(Context(), m)
    names = [g.sym_name.data for g in m.ops if isinstance(g, ge.GraphOp)]
    # the root is partitioned (its Consts the known subgraph _input); the cond and body
    # are not partitioned on their own
    assert [n for n in names if "_sub_" in n] == ["main_sub_0_input", "main_sub_1_unknow"]
    assert {"c", "b"} <= set(names)
