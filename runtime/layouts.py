"""Storage layouts: where each element of a tensor lies in the bytes GE's kernels read and
write (the tensor's storage format and shape), for the device simulator.

A GE tensor desc has an origin shape and format (what the graph computes) and a storage
format and shape (what the device holds: GeTensorDesc::GetShape, ge_dialect/desc.py). Its
memory is TensorUtils::GetTensorMemorySizeInBytes of the STORAGE shape (graph_metadef
tensor_utils.cc: CalcTensorMemSize(desc.GetShape(), ...)), so a 1x17x1x2 NCHW f32 tensor
stored as NC1HWC0 (C0 = 16: 1x2x1x2x16) takes 256 bytes, not 136, and the pieces of a
no-task ConcatD lie 256 bytes apart. The simulator keeps every value in the storage
layout: a kernel's inputs are gathered from it into origin-shaped arrays and its outputs
scattered back, the padding written as zeros (as TransData pads), so no-task views of
padded tensors read the bytes their producers wrote.

`storage_index(type)` is, per origin element, its flat (row-major) index in the storage
shape, following the shape rules of formats.storage_shape (transfer_shape_utils.cc:
TransferShapeUtils::TransferShape and its GetNC1HWC0Shape, GetNDC1HWC0Shape,
GetFractalZShape, GetFractalNzShape, the permutations), with the element mapping of GE's
TransData for each (the C axis split into C1 = c // C0 and C0 = c % C0; FRACTAL_Z's first
axis C1*H*W row-major; FRACTAL_NZ's [..., n1, m1, m0, n0]). None means the identity: the
storage layout is the origin row-major one (same format family, ND storage, scalars), or a
storage shape that was written out and that no rule here derives, taken as the origin
elements row-major at the start of the storage bytes.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from ge_dialect import formats as F
from ge_dialect.desc import tensor_desc
from ge_dialect.dtypes import c0_of, m0_of, n0_of

__all__ = ["gather", "scatter", "storage_elements", "storage_index"]


# transfer_shape_utils.cc: TransferShapeUtils::GetC0Value (C0 fixed by the format)
_NZ_C0 = {
    "FRACTAL_NZ_C0_2": 2,
    "FRACTAL_NZ_C0_4": 4,
    "FRACTAL_NZ_C0_8": 8,
    "FRACTAL_NZ_C0_16": 16,
    "FRACTAL_NZ_C0_32": 32,
}


def _primary(fmt: str) -> str:
    # graph/types.h: GetPrimaryFormat strips the sub-format ("FORMAT:sub" here, as formats.py)
    return fmt.split(":", 1)[0]


def _coords(
    origin_format: str, storage_format: str, shape: tuple[int, ...], elem: Attribute, mask: int
) -> tuple[list[np.ndarray], list[int]] | None:
    """Storage coordinates (one index array per storage axis, each of the origin shape) and
    the storage shape; None for the identity layout or a layout no rule here derives."""
    origin = _primary(origin_format)
    storage = _primary(storage_format)
    if origin == storage or not shape:
        return None
    if storage == F.ND or (origin == F.ND and storage in F.ORIGIN_FORMATS):
        return None
    grid = np.indices(shape, dtype=np.int64) if shape else np.zeros((0,), dtype=np.int64)
    idx: list[np.ndarray] = [grid[k] for k in range(len(shape))]
    if storage in F.NZ_FORMATS:
        # transfer_shape_utils.cc: GetFractalNzShape: [..., ceil(n/C0), ceil(m/M0), M0, C0];
        # a 1-D [n] is [1, ceil(n/M0), M0, C0] (n rows of one column)
        c0 = _NZ_C0.get(storage) or c0_of(elem)
        m0 = m0_of(elem)
        if len(shape) == 1:
            (i,) = idx
            zero = np.zeros_like(i)
            return [zero, i // m0, i % m0, zero], [1, -(-shape[0] // m0), m0, c0]
        *batch, i, j = idx
        m, n = shape[-2], shape[-1]
        return [*batch, j // c0, i // m0, i % m0, j % c0], [*shape[:-2], -(-n // c0), -(-m // m0), m0, c0]
    if origin == F.ND:
        if storage == F.FRACTAL_Z and len(shape) == 2:
            # transfer_shape_utils.cc: GetFractalZShape (2-D): [ceil(d0/C0), ceil(d1/16), 16, C0]
            c0, n0 = c0_of(elem), n0_of(elem)
            i, j = idx
            return [i // c0, j // n0, j % n0, i % c0], [-(-shape[0] // c0), -(-shape[1] // n0), n0, c0]
        if storage in (F.NC1HWC0, F.FRACTAL_Z) and len(shape) == 4:
            origin = F.NCHW  # transfer_shape_utils.cc: kFormatIndexMap reads a 4-D ND shape as NCHW
        else:
            return None
    full = F.FULL_SIZE_OF_FORMAT.get(origin)
    if full is None:
        return None
    letters = F.axis_letters(origin)
    if len(shape) < full:
        # expand_dimension.cc: ExpandDimension (the expanded axes have index 0)
        m = mask if mask > 0 else F.default_reshape_type_mask(origin, len(shape))
        if m <= 0 or F.expand_by_reshape_type_mask(origin, shape, m) is None:
            return None
        it = iter(zip(idx, shape))
        full_idx, full_shape = [], []
        for k in range(len(letters)):
            if (m >> k) & 1:
                full_idx.append(np.zeros(shape, dtype=np.int64))
                full_shape.append(1)
            else:
                a, d = next(it)
                full_idx.append(a)
                full_shape.append(d)
        idx, dims = full_idx, full_shape
    elif len(shape) == full:
        dims = list(shape)
    else:
        return None
    at = dict(zip(letters, idx))
    size = dict(zip(letters, dims))
    if storage in F.FULL_SIZE_OF_FORMAT:
        # transfer_shape_utils.cc: GetNCHWShape ... (a permutation of the letters)
        sl = F.axis_letters(storage)
        if len(sl) != full or set(sl) != set(letters):
            return None
        return [at[x] for x in sl], [size[x] for x in sl]
    c0 = c0_of(elem)
    c1 = -(-size["C"] // c0)
    if storage == F.NC1HWC0 and full == 4:
        # transfer_shape_utils.cc: GetNC1HWC0Shape: N, ceil(C/C0), H, W, C0
        return [at["N"], at["C"] // c0, at["H"], at["W"], at["C"] % c0], [size["N"], c1, size["H"], size["W"], c0]
    if storage == F.NDC1HWC0:
        # transfer_shape_utils.cc: GetNDC1HWC0Shape: N, D (1 for a 4-D origin), ceil(C/C0), H, W, C0
        d = at.get("D", np.zeros_like(at["N"]))
        return [at["N"], d, at["C"] // c0, at["H"], at["W"], at["C"] % c0], [
            size["N"],
            size.get("D", 1),
            c1,
            size["H"],
            size["W"],
            c0,
        ]
    if storage == F.FRACTAL_Z and full == 4:
        # transfer_shape_utils.cc: GetFractalZShape (group 1): C1*H*W, ceil(N/N0), N0, C0
        n0 = n0_of(elem)
        h, w = size["H"], size["W"]
        first = ((at["C"] // c0) * h + at["H"]) * w + at["W"]
        return [first, at["N"] // n0, at["N"] % n0, at["C"] % c0], [c1 * h * w, -(-size["N"] // n0), n0, c0]
    return None


@lru_cache(maxsize=1024)
def storage_index(t: Attribute) -> np.ndarray | None:
    """Per element of the origin shape of static tensor type `t`, its flat index in the
    storage shape; None for the identity layout (see the module docstring)."""
    assert isinstance(t, TensorType)
    d = tensor_desc(t)
    shape = tuple(t.get_shape())
    if d.storage_shape is None or math.prod(shape) == 0:
        return None
    got = _coords(d.origin_format, d.storage_format, shape, d.dtype, d.reshape_type_mask)
    if got is None:
        return None
    coords, sshape = got
    if tuple(sshape) != tuple(d.storage_shape):
        return None  # a storage shape written out differently: no rule here derives it
    n = math.prod(sshape)
    flat = np.ravel_multi_index(tuple(coords), tuple(sshape)).astype(np.int32 if n < 2**31 else np.int64)
    flat.flags.writeable = False
    return flat


def storage_elements(t: Attribute) -> int:
    """Elements of the storage shape (GE sizes a tensor by it: CalcTensorMemSize of
    GetShape); at least the origin's."""
    assert isinstance(t, TensorType)
    d = tensor_desc(t)
    n = math.prod(t.get_shape())
    return n if d.storage_shape is None else max(n, math.prod(d.storage_shape))


def gather(t: Attribute, flat: np.ndarray) -> np.ndarray:
    """The origin-shaped value of `t` held in `flat` (its storage elements, one dtype)."""
    idx = storage_index(t)
    assert isinstance(t, TensorType)
    shape = tuple(t.get_shape())
    if idx is None:
        return flat[: math.prod(shape)].reshape(shape)
    return flat[idx]


def scatter(t: Attribute, value: np.ndarray, flat: np.ndarray) -> None:
    """Write the origin-shaped `value` of `t` into `flat` (its storage elements): every
    element where the layout puts it, the padding as zeros."""
    idx = storage_index(t)
    if idx is None:
        flat[: value.size] = value.reshape(-1)
        flat[value.size :] = 0
        return
    flat[...] = 0
    flat[idx] = value
