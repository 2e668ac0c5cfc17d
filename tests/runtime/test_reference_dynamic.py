"""The reference interpreter on graphs with unknown dims: one graph runs on inputs of any
shape its types admit (`?` any extent, known dims that one), shapes computed at run time by
each node's own inference, and a shape its types do not admit is one located error."""

from __future__ import annotations

import numpy as np
import pytest

from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from runtime.graph_interpreter import ReferenceEvalError
from runtime.interpreter import run_module

_CTX = GeOptMain([]).ctx

# An MLP block with an unknown batch: MatMul + bias, Relu, a softmax over the features, a
# concat with the batch on axis 1, a reduction over the batch, a Reshape whose shape is
# computed (Shape of the input, so its values are the run's), a Squeeze of an unknown dim
# and a broadcast of the batch against a [1, 16] row.
MLP = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x8xf32>
  %w = ge.Data {index = 1} : tensor<8x16xf32>
  %b = ge.Data {index = 2} : tensor<16xf32>
  %row = ge.Data {index = 3} : tensor<1x16xf32>
  %m = ge.MatMul(%x, %w, %b) : (tensor<?x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %r = ge.Relu(%m) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = ge.SoftmaxV2(%r) {axes = [-1]} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %a = ge.Add(%s, %row) : (tensor<?x16xf32>, tensor<1x16xf32>) -> tensor<?x16xf32>
  %c = ge.ConcatD(%a, %r) {concat_dim = 1} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x32xf32>
  %t = ge.ReduceSumD(%c) {axes = [0], keep_dims = true} : (tensor<?x32xf32>) -> tensor<1x32xf32>
  %shape = ge.Shape(%x) : (tensor<?x8xf32>) -> tensor<2xi64>
  %v = ge.Reshape(%x, %shape) : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %e = ge.ExpandDims(%v) {axis = 0} : (tensor<?x?xf32>) -> tensor<1x?x?xf32>
  %q = ge.Squeeze(%e) {axis = [0]} : (tensor<1x?x?xf32>) -> tensor<?x?xf32>
  ge.NetOutput %c, %t, %q : tensor<?x32xf32>, tensor<1x32xf32>, tensor<?x?xf32>
}"""


def _numpy(x, w, b, row):
    m = x @ w + b
    r = np.maximum(m, 0)
    e = np.exp(r - r.max(axis=-1, keepdims=True))
    s = e / e.sum(axis=-1, keepdims=True)
    c = np.concatenate([s + row, r], axis=1)
    return [c, c.sum(axis=0, keepdims=True), x]


@pytest.mark.parametrize("batch", [1, 3, 8])
def test_one_graph_runs_at_batch_1_3_and_8(batch: int) -> None:
    m = parse_module(_CTX, MLP, "t.mlir")
    m.verify()
    rng = np.random.default_rng(batch)
    ins = [rng.standard_normal(s).astype(np.float32) for s in ((batch, 8), (8, 16), (16,), (1, 16))]
    got = run_module(m, [a.copy() for a in ins])
    want = _numpy(*(a.astype(np.float64) for a in ins))
    assert [g.shape for g in got] == [(batch, 32), (1, 32), (batch, 8)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.astype(np.float64), w, rtol=1e-5, atol=1e-5)


def test_an_input_whose_known_dim_differs_is_a_located_error() -> None:
    m = parse_module(_CTX, MLP, "t.mlir")
    with pytest.raises(
        ReferenceEvalError, match=r"input 0 of graph @main is an array of shape 3x9 .* tensor<\?x8xf32>"
    ):
        run_module(m, [np.zeros((3, 9), np.float32), np.zeros((8, 16), np.float32), np.zeros(16, np.float32),
                       np.zeros((1, 16), np.float32)])  # fmt: skip


def test_run_time_shapes_that_break_a_node_rule_name_the_node() -> None:
    # ? against 5 broadcasts to 5 (GE's rule), so the ? must be 1 or 5: 3 is refused at the Add
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %y = ge.Data {index = 1} : tensor<5x4xf32>
  %a = ge.Add(%x, %y) : (tensor<?x4xf32>, tensor<5x4xf32>) -> tensor<5x4xf32>
  ge.NetOutput %a : tensor<5x4xf32>
}"""
    m = parse_module(_CTX, text, "t.mlir")
    y = np.ones((5, 4), np.float32)
    for n in (1, 5):
        np.testing.assert_array_equal(run_module(m, [np.full((n, 4), 2.0, np.float32), y])[0], np.full((5, 4), 3.0))
    with pytest.raises(ReferenceEvalError, match=r"t.mlir:4:3: error: ge.Add: the run-time input shapes \(3x4, 5x4\)"):
        run_module(m, [np.ones((3, 4), np.float32), y])


def test_a_node_output_whose_type_the_run_time_shapes_contradict_is_named() -> None:
    # the declared output knows the batch (2), the input does not: batch 3 contradicts it
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %r = ge.Relu(%x) : (tensor<?x4xf32>) -> tensor<2x4xf32>
  ge.NetOutput %r : tensor<2x4xf32>
}"""
    m = parse_module(_CTX, text, "t.mlir")
    assert run_module(m, [np.ones((2, 4), np.float32)])[0].shape == (2, 4)
    with pytest.raises(ReferenceEvalError, match=r"give output 0 shape 3x4, but its type is tensor<2x4xf32>"):
        run_module(m, [np.ones((3, 4), np.float32)])


def test_an_unranked_input_runs_at_any_rank() -> None:
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<*xf32>
  %g = ge.Data {index = 1} : tensor<4xf32>
  %r = ge.Relu(%x) : (tensor<*xf32>) -> tensor<*xf32>
  %n:3 = ge.LayerNorm(%x, %g, %g) {begin_norm_axis = -1, begin_params_axis = -1} : (tensor<*xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  ge.NetOutput %r, %n#0 : tensor<*xf32>, tensor<*xf32>
}"""
    m = parse_module(_CTX, text, "t.mlir")
    m.verify()
    g = np.ones(4, np.float32)
    for shape in [(4,), (2, 4), (3, 1, 4)]:
        x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) - 3
        r, n = run_module(m, [x, g])
        np.testing.assert_array_equal(r, np.maximum(x, 0))
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        np.testing.assert_allclose(
            n, g * (x - mean) / np.sqrt(var + 1e-7) + g, rtol=1e-4, atol=1e-4
        )  # gamma = beta = g
