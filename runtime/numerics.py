"""The number semantics the two interpreters share, in one place.

The reference interpreter (runtime/reference.py) evaluates ge ops and the AscGraph
interpreter (runtime/ascgraph_interp.py) the AscIR nodes they are lowered to; a compiled
graph matches the reference only if both round, divide and reduce the same way. So each
such rule lives here once:

* `upcast`: bf16 and float8 are computed in float32 (GE's AscGraph kernels compute bf16
  in float32: adaption_improve_precision.cpp, FromDtypeToOtherDtype(node, DT_BF16,
  DT_FLOAT));
* `acc_dtype`: MatMul, Conv2D and float reductions accumulate narrow floats in float32,
  integers in 64 bits;
* `c_div`: integer division rounds toward zero (C's and TensorFlow's Div);
* `reduce`: sum, prod, max, min and mean over axes, with the identities of an empty
  max/min (`reduce_identity`) and the integer mean rounded toward zero;
* `gather_indices`: Gather's indices checked against the gathered dim, negative ones
  mapped when the op supports them.

The functions work on arrays and know no op: a value they are not defined for raises
ZeroDivisionError (or IndexError for an index out of range), which each interpreter
reports as its located error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ge_dialect.dtypes import compute_dtype, is_float_dtype

__all__ = ["REDUCTIONS", "acc_dtype", "c_div", "gather_indices", "reduce", "reduce_identity", "upcast"]

# The reductions `reduce` knows (ReduceSumD / ascgraph.Sum, ...).
REDUCTIONS = ("sum", "prod", "max", "min", "mean")


def upcast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The arrays an op computes on: bf16 and float8 ones cast up to float32 (exactly),
    others as they are (ge_dialect.dtypes.compute_dtype)."""
    return [a.astype(compute_dtype(a.dtype)) if compute_dtype(a.dtype) != a.dtype else a for a in args]


def acc_dtype(dt: np.dtype) -> np.dtype:
    """Accumulation dtype of matmul/conv/reductions: float32 for narrow floats (f16, bf16,
    float8), int64 for ints."""
    if is_float_dtype(dt):
        return np.dtype(np.float64) if dt.itemsize >= 8 else np.dtype(np.float32)
    if dt.kind in "iu":
        return np.dtype(np.int64) if dt.kind == "i" else np.dtype(np.uint64)
    return dt


def c_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a / b: true division for floats; for integers C's division, rounded toward zero
    (ge.Div is "compatible with the TensorFlow operator Div", div_proto.h /
    elewise_calculation_ops.h: REG_OP(Div), and TF's integer Div is C's); a zero integer
    divisor raises ZeroDivisionError."""
    if a.dtype.kind in "iu":
        if np.any(b == 0):
            raise ZeroDivisionError("integer division by zero")
        return (a - np.fmod(a, b)) // b
    return a / b


def reduce_identity(kind: str, dt: np.dtype) -> Any:
    """The value (a numpy scalar of `dt`, or a bool) of `kind` ("max" or "min") over no elements: -inf / +inf for floats, the
    dtype's least / greatest value for integers, False / True for bools (ONNX ReduceMax:
    "minus infinity (if supported by the datatype) or the minimum value of the data type");
    sum is 0 and prod 1 (numpy's own empty results)."""
    lo = kind == "max"
    if is_float_dtype(dt):
        return dt.type(-np.inf if lo else np.inf)
    if dt.kind == "b":
        return not lo
    info = np.iinfo(dt)
    return dt.type(info.min if lo else info.max)


def reduce(kind: str, x: np.ndarray, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """The reduction `kind` (one of REDUCTIONS) of `x` over `axes`, accumulated in
    `acc_dtype` (max and min: in the upcast dtype, exact), not yet cast to the output
    dtype. The integer mean rounds toward zero; of no elements it raises ZeroDivisionError
    (a float mean of no elements is 0 / 0 = nan)."""
    acc = acc_dtype(x.dtype)
    if kind == "sum":
        return np.sum(x, axis=axes, keepdims=keepdims, dtype=acc)
    if kind == "prod":
        return np.prod(x, axis=axes, keepdims=keepdims, dtype=acc)
    if kind in ("max", "min"):
        # An empty reduction gives the identity (ONNX ReduceMax/ReduceMin): numpy's
        # `initial`, which leaves every non-empty reduction as it is.
        f = np.max if kind == "max" else np.min
        (xc,) = upcast([x])  # exact: max/min of bf16 / float8 values is one of them
        return f(xc, axis=axes, keepdims=keepdims, initial=reduce_identity(kind, xc.dtype))
    assert kind == "mean", kind
    count = math.prod(x.shape[a] for a in axes)
    s = np.sum(x, axis=axes, keepdims=keepdims, dtype=acc)
    if x.dtype.kind in "iu":
        if count == 0:
            raise ZeroDivisionError("the integer mean of no elements")
        return (s - np.fmod(s, count)) // count  # integer mean rounds toward zero
    return s / acc.type(count)


def gather_indices(idx: np.ndarray, dim: int, negative_index_support: bool) -> np.ndarray:
    """`idx` checked against a gathered dim of size `dim`, as int64: GE's default impl mode
    raises an AI-core error on an out-of-range index (selection_ops.h, GatherV2), so it is
    an IndexError here; `negative_index_support` maps [-dim, -1] to dim + i."""
    i = idx.astype(np.int64)
    lo = -dim if negative_index_support else 0
    bad = (i < lo) | (i >= dim)
    if np.any(bad):
        first = int(i[bad].flat[0])
        raise IndexError(
            f"index {first} is out of range for a gathered dim of size {dim} (valid: [{lo}, {dim - 1}]"
            f"{'' if negative_index_support else '; negative_index_support is false'})"
        )
    return np.where(i < 0, i + dim, i)
