"""The ge ops of the section "More ops of ONNX models" (ge_dialect/ge.py): what their
verifiers accept and refuse (GE's op protos) and their reference semantics against numpy
written here independently (loops over elements, not the interpreter's vectorised code),
on generated shapes and dtypes.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_ops_structural import graph, refused, verify  # the ge IR text helpers

from ge_dialect import ge
from ge_tools import api
from runtime.graph_interpreter import ReferenceEvalError

F32, F16, I32, I64 = np.float32, np.float16, np.int32, np.int64


# ---------------------------------------------------------------------------------------
# Verifiers
# ---------------------------------------------------------------------------------------


def test_bitwise_ops_verify_and_refuse() -> None:
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift"):
        verify(graph(op, [((2, 3), I32), ((3,), I32)], [], [((2, 3), I32)]))
        refused(graph(op, [((2, 3), F32), ((3,), F32)], [], [((2, 3), F32)]), f"GE's {op} takes DT_INT16")
    verify(graph("Invert", [((4,), I64)], [], [((4,), I64)]))
    refused(graph("Invert", [((4,), F16)], [], [((4,), F16)]), "GE's Invert takes")


def test_cumsum_and_hardmax_verify_and_refuse() -> None:
    verify(graph("Cumsum", [((2, 3), F32)], [np.array(1, I64)], [((2, 3), F32)]))
    verify(graph("Cumsum", [((2, 3), F32), ((), I32)], [], [((2, 3), F32)]))  # an axis from data
    refused(graph("Cumsum", [((2, 3), F32)], [np.array(2, I64)], [((2, 3), F32)]), "axis 2 is out of range")
    refused(graph("Cumsum", [((2, 3), F32)], [np.array([0, 1], I64)], [((2, 3), F32)]), "one value")
    verify(graph("HardMax", [((2, 3), F16)], [], [((2, 3), F16)], " {axis = 0}"))
    refused(graph("HardMax", [((2, 3), I32)], [], [((2, 3), I32)]), "x must be one of")
    refused(graph("HardMax", [((2, 3), F32)], [], [((2, 3), F32)], " {axis = 2}"), "out of range")


def test_scatter_and_gather_nd_verify_and_refuse() -> None:
    ins = [((4, 3), F32), ((2, 3), I64), ((2, 3), F32)]
    verify(graph("ScatterElements", ins, [], [((4, 3), F32)], ' {axis = 0, reduction = "add"}'))
    refused(graph("ScatterElements", ins, [], [((4, 3), F32)], ' {reduction = "max"}'), "reduction must be one of")
    refused(graph("ScatterElements", ins[:2] + [((2, 2), F32)], [], [((4, 3), F32)]), "updates .* indices' shape")
    refused(graph("ScatterElements", [ins[0], ((2, 3), F32), ins[2]], [], [((4, 3), F32)]), "indices must be one of")
    verify(graph("GatherNd", [((4, 3, 2), F32), ((5, 2), I32)], [], [((5, 2), F32)]))
    refused(graph("GatherNd", [((4, 3), F32), ((5, 3), I32)], [], [((5,), F32)]), "exceeds x's rank")
    refused(graph("GatherNd", [((4, 3), F32), ((5, 1), I32)], [], [((5, 4), F32)]), "GatherNd infers 5x3")
    for op in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterMax", "TensorScatterMin"):
        verify(graph(op, [((4, 3), F32), ((2, 1), I64), ((2, 3), F32)], [], [((4, 3), F32)]))
        refused(graph(op, [((4, 3), F32), ((2, 1), I64), ((2, 2), F32)], [], [((4, 3), F32)]), "updates")


def test_depth_space_verify_and_refuse() -> None:
    verify(graph("DepthToSpace", [((1, 8, 2, 3), F32)], [], [((1, 2, 4, 6), F32)], ' {block_size = 2, mode = "CRD"}'))
    refused(graph("DepthToSpace", [((1, 6, 2, 3), F32)], [], [((1, 1, 4, 6), F32)], " {block_size = 2}"), "multiple")
    refused(graph("DepthToSpace", [((1, 8, 2, 3), F32)], [], [((1, 8, 2, 3), F32)], " {block_size = 1}"), ">= 2")
    refused(
        graph("DepthToSpace", [((1, 8, 2, 3), F32)], [], [((1, 2, 4, 6), F32)], ' {block_size = 2, mode = "X"}'),
        "DCR or CRD",
    )
    verify(graph("SpaceToDepth", [((1, 2, 4, 6), F32)], [], [((1, 8, 2, 3), F32)], " {block_size = 2}"))
    refused(graph("SpaceToDepth", [((1, 2, 5, 6), F32)], [], [((1, 8, 2, 3), F32)], " {block_size = 2}"), "multiples")


# ---------------------------------------------------------------------------------------
# Reference semantics against loops written here
# ---------------------------------------------------------------------------------------


def _run(op: type[ge.GeNode], inputs: list[np.ndarray], consts: list[np.ndarray] = (), **attrs: object) -> np.ndarray:
    with api.GraphBuilder() as g:
        xs = [g.data(a.shape, api._element_type(a.dtype)) for a in inputs]
        cs = [g.const(c) for c in consts]
        g.output(op.build(*xs, *cs, **attrs))
    (y,) = api.reference(g.module, inputs)
    return y


def test_an_index_out_of_range_is_an_error() -> None:
    x = np.arange(24, dtype=F32).reshape(2, 3, 4)
    with pytest.raises(ReferenceEvalError, match="out of range"):
        _run(ge.GatherNd, [x, np.array([[0, 3]], I32)])
    with pytest.raises(ReferenceEvalError, match="out of range"):
        _run(ge.ScatterElements, [x, np.full((2, 3, 4), -1, I64), x])
    with pytest.raises(ReferenceEvalError, match="out of range"):
        _run(ge.TensorScatterAdd, [x, np.array([[2]], I64), x[:1]])


@pytest.mark.parametrize("dt", [np.uint8, np.int16, np.uint32, np.int64])
def test_bit_semantics(dt) -> None:
    bits = np.dtype(dt).itemsize * 8
    r = np.random.default_rng(bits)
    info = np.iinfo(dt)
    a = r.integers(max(info.min, -1000), min(info.max, 1000), (3, 4)).astype(dt)
    b = r.integers(max(info.min, -1000), min(info.max, 1000), (4,)).astype(dt)
    s = np.array([0, 1, bits - 1, bits], dt)  # a shift of the width gives 0 (or -1)
    ints = [[int(v) for v in row] for row in a]
    for cls, fn in ((ge.BitwiseAnd, lambda p, q: p & q), (ge.BitwiseOr, lambda p, q: p | q),
                    (ge.BitwiseXor, lambda p, q: p ^ q)):  # fmt: skip
        want = np.array([[fn(p, int(q)) for p, q in zip(row, b)] for row in ints]).astype(dt)
        np.testing.assert_array_equal(_run(cls, [a, b]), want)
    np.testing.assert_array_equal(_run(ge.Invert, [a]), np.array([[~p for p in row] for row in ints]).astype(dt))
    mask = (1 << bits) - 1
    left = [[0 if int(k) >= bits else (p << int(k)) & mask for p, k in zip(row, s)] for row in ints]
    want_left = np.array(left, np.uint64).astype(dt)  # the low bits, two's complement
    np.testing.assert_array_equal(_run(ge.LeftShift, [a, s]), want_left)
    right = [[(-1 if p < 0 else 0) if int(k) >= bits else p >> int(k) for p, k in zip(row, s)] for row in ints]
    np.testing.assert_array_equal(_run(ge.RightShift, [a, s]), np.array(right).astype(dt))
