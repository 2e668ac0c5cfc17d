"""GE's host kernels: what ge-dimension-compute-pass and ge-constant-folding-pass compute.

GE folds a node on the host in two tiers (constant_folding_pass.cc:
ConstantFoldingPass::ComputePotentialWeight): first the AICPU engine's host CPU kernels
(ComputeWithHostCpuKernel, CANN's libcpu_kernels, which are not in hicann/ge), then its
built-in kernels (ComputeWithBuiltInKernel, `compiler/host_kernels/*`, registered with
REGISTER_COMPUTE_NODE_KERNEL). Here:

* NODE_KERNELS (passes/prepare/dimension_kernels.py, which needs numpy only when a kernel
  runs): the built-in kernels that compute from the node alone (its input shapes),
  DimensionComputePass's (kernel.h: Compute(const NodePtr &, ...)): Shape, Size, Rank;
* BUILTIN_KERNELS: the built-in kernels on Const inputs for the op types the ge dialect
  has, each with its kernel's dtype table and refusals (a refusal is GE's NOT_CHANGED:
  the node stays);
* AICPU_KERNELS: the few AICPU host kernels the ONNX shape patterns need and the built-in
  set lacks (ConcatD, RealDiv, Div, Minimum, ConcatV2D of another dtype than int32 /
  float32; and for the shape arithmetic of exported networks (docs/onnx.md): StridedSliceV2,
  Expand, Tile, Equal, SelectV2 and the integer Casts cast_kernel.cc lacks), computed as
  their reference semantics; every other AICPU kernel is not modelled, so those nodes
  stay, as they would in a GE without the AICPU engine.

A kernel takes the node and its input arrays and returns the output arrays, or None.
numpy only (passes/ imports ge_dialect and passes/ only).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect.desc import shape_of
from ge_dialect.dtypes import ge_dtype_name
from ge_dialect.ge import slice_ranges, value_dtype
from passes.prepare.dimension_kernels import np_out_dtype as _np_out
from passes.prepare.dimension_kernels import out_dtype

Arrays = Sequence[np.ndarray]
Kernel = Callable[[Operation, Arrays], "list[np.ndarray] | None"]

_INTS = frozenset({"DT_INT8", "DT_INT16", "DT_INT32", "DT_INT64", "DT_UINT8", "DT_UINT16", "DT_UINT32", "DT_UINT64"})
_FLOATS = frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_DOUBLE"})
# add_kernel.cc / sub_kernel.cc / mul_kernel.cc (kMulSupportedType) / maximum_kernel.cc
# (kMaximumSupportedType): the real types (complex ones have no MLIR element type here)
ARITH_DTYPES = _INTS | _FLOATS


def in_dtype(op: Operation, i: int) -> str:
    return ge_dtype_name(value_dtype(op.operands[i]))


def _out_shape(op: Operation, i: int = 0) -> tuple[int, ...] | None:
    s = shape_of(op.results[i].type)
    return s if s is not None and all(d >= 0 for d in s) else None


# -- ConstantFoldingPass's built-in kernels (node, Const inputs -> outputs) ---------------


def _binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Kernel:
    """add_kernel.cc / sub_kernel.cc / mul_kernel.cc / maximum_kernel.cc: two inputs of one
    supported dtype, neither empty, broadcast (BCast); an integer overflow is NOT_CHANGED
    (OverflowCheck), as is a float one (an infinite result of finite inputs)."""

    def kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
        if len(args) != 2 or in_dtype(op, 0) != in_dtype(op, 1) or in_dtype(op, 0) not in ARITH_DTYPES:
            return None
        a, b = args
        if a.size == 0 or b.size == 0:
            return None
        if a.dtype.kind in "iu":
            exact = fn(a.astype(object), b.astype(object))
            info = np.iinfo(a.dtype)
            flat = np.asarray(exact).reshape(-1)
            if flat.size and (min(flat) < info.min or max(flat) > info.max):
                return None
            return [np.asarray(exact).astype(_np_out(op))]
        with np.errstate(all="ignore"):
            r = np.asarray(fn(a, b))
        if not np.all(np.isfinite(r)) and np.all(np.isfinite(a)) and np.all(np.isfinite(b)):
            return None
        return [r.astype(_np_out(op))]

    return kernel


def rsqrt_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # rsqrt_kernel.cc: RsqrtKernel::Compute (f16/f32/f64; an input <= 0 is NOT_CHANGED, ZeroCheck)
    if in_dtype(op, 0) not in _FLOATS or np.any(args[0] <= 0):
        return None
    x = args[0].astype(np.float64) if in_dtype(op, 0) == "DT_FLOAT16" else args[0]
    return [(1 / np.sqrt(x)).astype(_np_out(op))]


# datatype_transfer.cc: trans_mode_map (the casts formats::TransTensorDataType supports)
CAST_PAIRS = frozenset(
    {
        ("DT_FLOAT", "DT_FLOAT16"), ("DT_FLOAT", "DT_INT32"), ("DT_FLOAT16", "DT_FLOAT"),
        ("DT_FLOAT16", "DT_INT32"), ("DT_INT32", "DT_FLOAT"), ("DT_INT32", "DT_FLOAT16"),
        ("DT_INT32", "DT_UINT8"), ("DT_INT32", "DT_INT8"), ("DT_UINT8", "DT_FLOAT"),
        ("DT_UINT8", "DT_INT32"), ("DT_INT8", "DT_FLOAT"), ("DT_INT8", "DT_INT32"),
        ("DT_INT64", "DT_INT32"), ("DT_INT32", "DT_INT64"), ("DT_INT32", "DT_DOUBLE"),
        ("DT_DOUBLE", "DT_INT32"),
    }
)  # fmt: skip


def cast_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # cast_kernel.cc: CastKernel::Compute (formats::IsTransDataTypeSupport; float -> int
    # truncates toward zero)
    if (in_dtype(op, 0), out_dtype(op)) not in CAST_PAIRS:
        return None
    return [args[0].astype(_np_out(op))]


def _view(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    """reshape_kernel.cc / squeeze_kernel.cc / squeezev3_kernel.cc / unsqueeze_kernel.cc /
    unsqueezev3_kernel.cc / expanddims_kernel.cc / flattenv2_kernel.cc / reformat_kernel.cc /
    identity_kernel.cc: the output is input 0's data with the output's shape (Reshape: the
    element counts must agree)."""
    s = _out_shape(op)
    if s is None or math.prod(s) != args[0].size:
        return None
    return [np.asarray(args[0]).reshape(s).astype(_np_out(op))]


def permute_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # permute_kernel.cc: PermuteKernel::Compute (REGISTER for TRANSPOSED: one input, attr
    # perm, a non-empty output shape of the input's dtype)
    perm = A.get_int_list(op, "perm")
    if perm is None or _out_shape(op) in (None, ()) or in_dtype(op, 0) != out_dtype(op):
        return None
    return [np.transpose(args[0], perm).copy()]


# gather_v2_kernel.cc: supported_type (no DT_FLOAT: its GatherV2 of f32 is not folded)
GATHER_DTYPES = frozenset(
    {"DT_FLOAT16", "DT_DOUBLE", "DT_INT8", "DT_INT16", "DT_INT32", "DT_INT64", "DT_UINT8", "DT_UINT16",
     "DT_UINT32", "DT_UINT64"}
)  # fmt: skip


def gather_v2_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # gather_v2_kernel.cc: GatherV2Kernel::Compute / Check: three non-empty inputs, a 0-d
    # axis, x of rank <= 4, int32/int64 indices in [0, dim), a supported dtype
    if len(args) != 3:
        return None
    x, idx, ax = args
    if x.size == 0 or idx.size == 0 or ax.ndim != 0 or in_dtype(op, 0) not in GATHER_DTYPES:
        return None
    if A.get_int(op, "batch_dims", 0):
        return None
    axis = int(ax)
    if axis < 0:
        axis += x.ndim
    if not 0 <= axis < x.ndim or x.ndim > 4:
        return None
    if np.any(idx < 0) or np.any(idx >= x.shape[axis]):
        return None
    return [np.take(x, idx.astype(np.int64), axis=axis).astype(_np_out(op))]


def pack_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # pack_kernel.cc: PackKernel::Compute (N inputs of one dtype and shape, axis in [-(R+1), R])
    if not args or any(a.shape != args[0].shape or a.dtype != args[0].dtype for a in args):
        return None
    rank = args[0].ndim
    axis = A.get_int(op, "axis", 0) or 0
    if not -(rank + 1) <= axis <= rank:
        return None
    return [np.stack(args, axis=axis if axis >= 0 else axis + rank + 1).astype(_np_out(op))]


# fill_kernel.cc: FillKernel::Compute (its CASE list)
FILL_DTYPES = _INTS | _FLOATS | {"DT_BOOL"}


def fill_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # fill_kernel.cc: FillKernel::Compute (dims int32/int64, value a scalar of a listed dtype)
    dims, value = args
    if value.size != 1 or in_dtype(op, 0) not in ("DT_INT32", "DT_INT64"):
        return None
    if out_dtype(op) not in FILL_DTYPES:
        return None
    shape = tuple(int(d) for d in dims.reshape(-1))
    if any(d < 0 for d in shape):
        return None
    return [np.full(shape, value.reshape(-1)[0], dtype=_np_out(op))]


def range_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # range_kernel.cc: RangeKernel::Compute (three 0-d inputs of one dtype: int32, int64,
    # float, double; GetRange: start + i * delta, i < ceil((limit - start) / delta))
    if any(a.ndim != 0 for a in args) or len({in_dtype(op, i) for i in range(3)}) != 1:
        return None
    if in_dtype(op, 0) not in ("DT_INT32", "DT_INT64", "DT_FLOAT", "DT_DOUBLE"):
        return None
    start, limit, delta = (a.item() for a in args)
    if delta == 0 or (start > limit and delta > 0) or (start < limit and delta < 0):
        return None
    n = math.ceil(abs((limit - start) / delta))
    dt = _np_out(op)
    return [(np.asarray(start, dtype=dt) + np.arange(n, dtype=dt) * np.asarray(delta, dtype=dt)).astype(dt)]


def concat_v2_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # concat_v2_kernel.cc: ConcatV2Kernel::Compute / ConcatV2PreCompute (one dtype, int32 or
    # float; concat_dim in [0, rank) after normalisation; an empty input only at rank 1).
    # ConcatV2D's axis is its concat_dim attribute (ConcatV2's is a Const input).
    if len({a.dtype for a in args}) != 1 or in_dtype(op, 0) not in ("DT_INT32", "DT_FLOAT"):
        return None
    return _concat(op, args, allow_empty_rank=1)


def _concat(op: Operation, args: Arrays, allow_empty_rank: int | None) -> list[np.ndarray] | None:
    if any(a.ndim == 0 for a in args):
        return None
    rank = args[0].ndim
    axis = A.get_int(op, "concat_dim", 0) or 0
    axis = axis + rank if axis < 0 else axis
    if not 0 <= axis < rank:
        return None
    if allow_empty_rank is not None and any(a.size == 0 for a in args) and rank > allow_empty_rank:
        return None
    return [np.concatenate(args, axis=axis).astype(_np_out(op))]


# greater_kernel.cc: GreaterKernel::Compute (its SET_BCAST_COMPUTE_CASE list; DT_BOOL out)
GREATER_DTYPES = ARITH_DTYPES | {"DT_BOOL"}


def greater_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # greater_kernel.cc: GreaterKernel::Compute / GreaterCheck (two non-empty inputs of one
    # dtype, broadcast by BCast)
    if len(args) != 2 or in_dtype(op, 0) != in_dtype(op, 1) or in_dtype(op, 0) not in GREATER_DTYPES:
        return None
    if args[0].size == 0 or args[1].size == 0:
        return None
    return [np.greater(args[0], args[1])]


def reduce_prod_kernel(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # reduce_prod_kernel.cc: ReduceProdKernel::Compute / ReduceProdCheck: ReduceProd(x,
    # axes) of int32 or float x with a 1-D int32/int64 axes of one entry (empty x refused),
    # keep_dims as the attribute says; an int32 overflow is NOT_CHANGED
    x, axes = args
    if in_dtype(op, 0) not in ("DT_INT32", "DT_FLOAT") or x.size == 0 or axes.ndim != 1 or axes.size != 1:
        return None
    a = int(axes[0])
    if not -x.ndim <= a < x.ndim:
        return None
    keep = A.get_bool(op, "keep_dims", False)
    if x.dtype.kind in "iu":
        r = np.prod(x.astype(object), axis=a, keepdims=keep)
        flat = np.asarray(r).reshape(-1)
        if flat.size and (min(flat) < np.iinfo(x.dtype).min or max(flat) > np.iinfo(x.dtype).max):
            return None
        return [np.asarray(r).astype(_np_out(op))]
    return [np.asarray(np.prod(x, axis=a, keepdims=keep)).astype(_np_out(op))]


BUILTIN_KERNELS: dict[str, tuple[Kernel, str]] = {
    "Add": (_binary(lambda a, b: a + b), "add_kernel.cc"),
    "Sub": (_binary(lambda a, b: a - b), "sub_kernel.cc"),
    "Mul": (_binary(lambda a, b: a * b), "mul_kernel.cc"),
    "Maximum": (_binary(np.maximum), "maximum_kernel.cc"),
    "Rsqrt": (rsqrt_kernel, "rsqrt_kernel.cc"),
    "Cast": (cast_kernel, "cast_kernel.cc"),
    "Reshape": (_view, "reshape_kernel.cc"),
    "Squeeze": (_view, "squeeze_kernel.cc"),
    "SqueezeV2": (_view, "squeeze_kernel.cc"),
    "SqueezeV3": (_view, "squeezev3_kernel.cc"),
    "Unsqueeze": (_view, "unsqueeze_kernel.cc"),
    "UnsqueezeV2": (_view, "unsqueeze_kernel.cc"),
    "UnsqueezeV3": (_view, "unsqueezev3_kernel.cc"),
    "ExpandDims": (_view, "expanddims_kernel.cc"),
    "FlattenV2": (_view, "flattenv2_kernel.cc"),
    "ReFormat": (_view, "reformat_kernel.cc"),
    "Identity": (_view, "identity_kernel.cc"),
    "TransposeD": (permute_kernel, "permute_kernel.cc"),
    "GatherV2": (gather_v2_kernel, "gather_v2_kernel.cc"),
    "Pack": (pack_kernel, "pack_kernel.cc"),
    "Fill": (fill_kernel, "fill_kernel.cc"),
    "Range": (range_kernel, "range_kernel.cc"),
    "ConcatV2D": (concat_v2_kernel, "concat_v2_kernel.cc"),
    "Greater": (greater_kernel, "greater_kernel.cc"),
    "ReduceProd": (reduce_prod_kernel, "reduce_prod_kernel.cc"),
}


# -- the AICPU host kernels modelled (tried first: ComputeWithHostCpuKernel) ---------------


def _aicpu_concat(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    if len({a.dtype for a in args}) != 1:
        return None
    return _concat(op, args, allow_empty_rank=None)


def _aicpu_divide(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    a, b = args
    if in_dtype(op, 0) != in_dtype(op, 1) or a.size == 0 or b.size == 0:
        return None
    if a.dtype.kind in "iu":
        if np.any(b == 0):
            return None  # the kernel's division by zero: not folded
        q = np.abs(a.astype(object)) // np.abs(b.astype(object))  # toward zero (GE's Div)
        r = np.where((a < 0) ^ (b < 0), -q, q)
        return [np.asarray(r).astype(_np_out(op))]
    if in_dtype(op, 0) not in _FLOATS:
        return None
    with np.errstate(all="ignore"):
        return [np.asarray(a / b).astype(_np_out(op))]


def _aicpu_strided_slice_v2(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # ONNX Slice's semantics (ge.slice_ranges); the output must be the node's static shape
    x = args[0]
    lists = [[int(v) for v in a.reshape(-1)] for a in args[1:]]
    try:
        r = slice_ranges(x.shape, lists[0], lists[1], lists[2] if len(lists) > 2 else None,
                         lists[3] if len(lists) > 3 else None)  # fmt: skip
    except VerifyException:
        return None
    out = np.ascontiguousarray(x[tuple(slice(b, None if e < 0 else e, st) for b, e, st in r)])
    return [out] if out.shape == _out_shape(op) else None


def _aicpu_expand(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    x, shape = args[0], tuple(int(v) for v in args[1].reshape(-1))
    if any(d < 0 for d in shape):
        return None
    try:
        out = np.broadcast_shapes(x.shape, shape)
    except ValueError:
        return None
    return [np.broadcast_to(x, out).copy()] if out == _out_shape(op) else None


def _aicpu_tile(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    reps = [int(v) for v in args[1].reshape(-1)]
    if len(reps) != args[0].ndim or any(k < 0 for k in reps):
        return None
    return [np.tile(args[0], reps)]


def _aicpu_equal(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    if in_dtype(op, 0) != in_dtype(op, 1):
        return None
    return [np.equal(args[0], args[1])]


def _aicpu_select_v2(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    cond, a, b = args
    if in_dtype(op, 1) != in_dtype(op, 2):
        return None
    return [np.where(cond.astype(bool), a, b).astype(_np_out(op))]


def _aicpu_cast(op: Operation, args: Arrays) -> list[np.ndarray] | None:
    # the integer <-> integer and integer <-> float casts shape arithmetic uses (int64 <->
    # float, ...) that cast_kernel.cc's table lacks (its own pairs are left to it: the
    # numbers are the same); float to integer truncates toward zero, and a value out of the
    # target's range is not folded; float <-> float and bool casts are not modelled
    src, dst = in_dtype(op, 0), out_dtype(op)
    if (src, dst) in CAST_PAIRS or src not in ARITH_DTYPES or dst not in _INTS | _FLOATS:
        return None
    if src in _FLOATS and dst in _FLOATS:
        return None
    x, want = args[0], _np_out(op)
    if want.kind in "iu":
        t = np.trunc(x) if x.dtype.kind == "f" else x
        if x.dtype.kind == "f" and not np.all(np.isfinite(t)):
            return None
        if t.size and (t.min() < np.iinfo(want).min or t.max() > np.iinfo(want).max):
            return None
    return [x.astype(want)]


AICPU_KERNELS: dict[str, tuple[Kernel, str]] = {
    "ConcatD": (_aicpu_concat, "AICPU host kernel ConcatD"),
    "StridedSliceV2": (_aicpu_strided_slice_v2, "AICPU host kernel StridedSliceV2"),
    "Expand": (_aicpu_expand, "AICPU host kernel Expand"),
    "Tile": (_aicpu_tile, "AICPU host kernel Tile"),
    "Equal": (_aicpu_equal, "AICPU host kernel Equal"),
    "SelectV2": (_aicpu_select_v2, "AICPU host kernel SelectV2"),
    "Cast": (_aicpu_cast, "AICPU host kernel Cast"),
    "ConcatV2D": (_aicpu_concat, "AICPU host kernel ConcatV2D"),
    "RealDiv": (_aicpu_divide, "AICPU host kernel RealDiv"),
    "Div": (_aicpu_divide, "AICPU host kernel Div"),
    "Minimum": (_binary(np.minimum), "AICPU host kernel Minimum"),
}
