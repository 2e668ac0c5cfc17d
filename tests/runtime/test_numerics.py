"""The number rules the two interpreters share (runtime/numerics.py), and that both
interpreters give the same numbers through them. Expected values are written by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import parse
from ge_dialect import ascgraph as ag
from runtime import numerics as N
from runtime.graph_interpreter import ReferenceEvalError
from runtime.interpreter import ge_interpreter, run_module

I32 = np.int32


def test_integer_division_rounds_toward_zero():
    a = np.array([-7, 7, -7, 7, 6], I32)
    b = np.array([2, 2, -2, -2, 3], I32)
    np.testing.assert_array_equal(N.c_div(a, b), np.array([-3, 3, 3, -3, 2], I32))  # numpy's // gives -4, -4
    with pytest.raises(ZeroDivisionError, match="integer division by zero"):
        N.c_div(a, np.zeros(5, I32))
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(N.c_div(np.array([1.0, -1.0]), np.array([0.0, 4.0])), np.array([np.inf, -0.25]))


def test_integer_mean_rounds_toward_zero_and_has_no_value_on_no_elements():
    x = np.array([[-3, 3], [-4, 4]], I32)  # column means -3.5 and 3.5
    np.testing.assert_array_equal(N.reduce("mean", x, (0,), keepdims=False), np.array([-3, 3]))
    np.testing.assert_array_equal(N.reduce("sum", x, (1,), keepdims=True), np.array([[0], [0]]))
    with pytest.raises(ZeroDivisionError):
        N.reduce("mean", np.zeros((0, 2), I32), (0,), keepdims=False)
    with np.errstate(invalid="ignore"):
        assert np.isnan(N.reduce("mean", np.zeros((0,), np.float32), (0,), keepdims=False))  # 0 / 0
    assert N.reduce("max", np.zeros((0,), I32), (0,), keepdims=False) == np.iinfo(I32).min


MEAN = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xi32>
  %r = ge.ReduceMeanD(%x) {axes = [0], keep_dims = true} : (tensor<2x3xi32>) -> tensor<1x3xi32>
  %y = ge.AscBackend(%x) : (tensor<2x3xi32>) -> tensor<1x3xi32> {
    ascgraph.graph @g axis = [0: z0 = 2, 1: z1 = 3] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<i32, axis = [0, 1], repeats = [2, 3], strides = [3, 1]>
      %l = ascgraph.Load(%d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<i32, axis = [0, 1], repeats = [2, 3], strides = [3, 1]>
      %m = ascgraph.Mean(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<i32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %s = ascgraph.Store(%m) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<i32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<i32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
    }
  }
  ge.NetOutput %r, %y : tensor<1x3xi32>, tensor<1x3xi32>
}"""


def test_both_interpreters_take_the_integer_mean_toward_zero():
    m = parse(MEAN)
    x = np.array([[-3, 3, 5], [-4, 4, -8]], I32)  # means -3.5, 3.5, -1.5
    ref, asc = run_module(m, [x])
    np.testing.assert_array_equal(ref, np.array([[-3, 3, -1]], I32))
    np.testing.assert_array_equal(asc, np.array([[-3, 3, -1]], I32))


def test_ascgraph_integer_mean_of_no_elements_is_a_located_error():
    # AscGraph axes are >= 1 (the verifier), so only a caller's array can be empty; the
    # reference says "ReduceMeanD of an empty integer tensor" for the same case.
    (node,) = [o for o in parse(MEAN).walk() if isinstance(o, ag.Mean)]
    with pytest.raises(ReferenceEvalError, match="ascgraph.Mean: the integer mean of no elements"):
        ge_interpreter().run_node(node, [np.zeros((0, 3), I32)])
