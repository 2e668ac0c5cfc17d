"""GE's DimensionComputePass kernels: Shape, Size and Rank computed from a node's input
shapes (kernel.h: Compute(const NodePtr &, ...), `compiler/host_kernels/*`), and the
output-dtype helpers passes/prepare/host_kernels.py shares.

numpy is imported only when a kernel builds its output array: ge-dimension-compute-pass
runs on every compile, and most graphs have no Shape, Size or Rank node (importing numpy
is about a fifth of ge-opt's start-up).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from ge_dialect.desc import shape_of
from ge_dialect.dtypes import ge_dtype_name, numpy_dtype
from ge_dialect.ge import value_dtype

if TYPE_CHECKING:
    import numpy as np

NodeKernel = Callable[[Operation], "list[np.ndarray] | None"]

INT32_MAX, INT64_MAX = 2**31 - 1, 2**63 - 1  # np.iinfo(np.int32).max, np.iinfo(np.int64).max


def out_dtype(op: Operation, i: int = 0) -> str:
    return ge_dtype_name(value_dtype(op.results[i]))


def np_out_dtype(op: Operation, i: int = 0) -> np.dtype:
    return numpy_dtype(value_dtype(op.results[i]))


def _static_in_shape(op: Operation) -> tuple[int, ...] | None:
    # kernel_utils.cc: KernelUtils::IsUnknownShape (a -1 or -2 dim: NOT_CHANGED)
    s = shape_of(op.operands[0].type)
    return s if s is not None and all(d >= 0 for d in s) else None


def _shape_data(op: Operation, data: Sequence[int], scalar: bool) -> list[np.ndarray] | None:
    # kernel_utils.cc: KernelUtils::ConstructTensorDescWithData (DT_INT32 or DT_INT64 only)
    if out_dtype(op) not in ("DT_INT32", "DT_INT64"):
        return None
    import numpy as np

    arr = np.array(data[0] if scalar else list(data), dtype=np_out_dtype(op))
    if out_dtype(op) == "DT_INT32" and any(d > INT32_MAX for d in data):
        return None
    return [arr]


def shape_kernel(op: Operation) -> list[np.ndarray] | None:
    # shape_kernel.cc: ShapeKernel::Compute (the input's dims)
    s = _static_in_shape(op)
    return None if s is None else _shape_data(op, s, scalar=False)


def size_kernel(op: Operation) -> list[np.ndarray] | None:
    # size_kernel.cc: SizeKernel::Compute (product of the dims, int64 overflow checked; 0-d)
    s = _static_in_shape(op)
    if s is None:
        return None
    n = math.prod(s)
    if n > INT64_MAX:
        return None
    return _shape_data(op, [n], scalar=True)


def rank_kernel(op: Operation) -> list[np.ndarray] | None:
    # rank_kernel.cc: RankKernel::Compute (GetDimNum, DT_INT32 0-d)
    s = shape_of(op.operands[0].type)
    if s is None:
        return None
    return _shape_data(op, [len(s)], scalar=True)


NODE_KERNELS: dict[str, tuple[NodeKernel, str]] = {
    "Shape": (shape_kernel, "shape_kernel.cc"),
    "Size": (size_kernel, "size_kernel.cc"),
    "Rank": (rank_kernel, "rank_kernel.cc"),
}
