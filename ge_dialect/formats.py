"""GE tensor formats and the transformer library's shape rules.

Port of ``graph_metadef/third_party/transformer/src/``: ``transfer_shape_utils.cc``
(transfer type, aligned shape, axis index mapping, storage shape), ``axis_util.cc`` (axis
letters and the split/concat table) and ``expand_dimension.cc`` (format full sizes,
reshape-type masks). See docs/ge/notask.md

Formats are GE's serial strings ("NCHW", "NC1HWC0", "FRACTAL_NZ_C0_16", ...).
This module imports nothing of the project except ``ge_dialect.dtypes``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import Enum

from xdsl.ir import Attribute

from ge_dialect.dtypes import c0_of, m0_of, n0_of

__all__ = [
    "FULL_SIZE_OF_FORMAT",
    "KNOWN_FORMATS",
    "NZ_FORMATS",
    "ORIGIN_FORMATS",
    "TransferType",
    "aligned_shape",
    "axis_letters",
    "default_reshape_type_mask",
    "expand_by_reshape_type_mask",
    "get_transfer_shape_type",
    "is_nz_format",
    "primary_format",
    "reshape_type_axes",
    "split_or_concat_axes",
    "storage_shape",
    "transfer_dims",
]

ND = "ND"
NCHW = "NCHW"
NHWC = "NHWC"
HWCN = "HWCN"
CHWN = "CHWN"
NDHWC = "NDHWC"
NCDHW = "NCDHW"
DHWCN = "DHWCN"
DHWNC = "DHWNC"
NC1HWC0 = "NC1HWC0"
NDC1HWC0 = "NDC1HWC0"
FRACTAL_Z = "FRACTAL_Z"
FRACTAL_NZ = "FRACTAL_NZ"
FRACTAL_NZ_C0_2 = "FRACTAL_NZ_C0_2"
FRACTAL_NZ_C0_4 = "FRACTAL_NZ_C0_4"
FRACTAL_NZ_C0_8 = "FRACTAL_NZ_C0_8"
FRACTAL_NZ_C0_16 = "FRACTAL_NZ_C0_16"
FRACTAL_NZ_C0_32 = "FRACTAL_NZ_C0_32"

# axis_constants.h: kFormatNZSet
NZ_FORMATS: tuple[str, ...] = (
    FRACTAL_NZ,
    FRACTAL_NZ_C0_2,
    FRACTAL_NZ_C0_4,
    FRACTAL_NZ_C0_8,
    FRACTAL_NZ_C0_16,
    FRACTAL_NZ_C0_32,
)
# transfer_shape_utils.cc: TransferShapeUtils::GetC0Value (C0 fixed by the format)
_NZ_FORMAT_C0: dict[str, int] = {
    FRACTAL_NZ_C0_2: 2,
    FRACTAL_NZ_C0_4: 4,
    FRACTAL_NZ_C0_8: 8,
    FRACTAL_NZ_C0_16: 16,
    FRACTAL_NZ_C0_32: 32,
}

KNOWN_FORMATS: tuple[str, ...] = (
    ND,
    NCHW,
    NHWC,
    HWCN,
    CHWN,
    NDHWC,
    NCDHW,
    DHWCN,
    DHWNC,
    NC1HWC0,
    NDC1HWC0,
    FRACTAL_Z,
    *NZ_FORMATS,
)

# transfer_shape_utils.cc: kOriginFormatVec (plain layouts a user graph is written in)
ORIGIN_FORMATS: frozenset[str] = frozenset({NCHW, NHWC, HWCN, CHWN, NDHWC, NCDHW, DHWCN, DHWNC, ND})

# expand_dimension.cc: FULL_SIZE_OF_FORMAT
FULL_SIZE_OF_FORMAT: dict[str, int] = {
    NCHW: 4,
    NHWC: 4,
    HWCN: 4,
    CHWN: 4,
    NDHWC: 5,
    NCDHW: 5,
    DHWCN: 5,
    DHWNC: 5,
    ND: 4,
}

# axis_util.cc: kFormatAxisVec
_AXIS_LETTERS: dict[str, tuple[str, ...]] = {
    NCHW: ("N", "C", "H", "W"),
    HWCN: ("H", "W", "C", "N"),
    NHWC: ("N", "H", "W", "C"),
    CHWN: ("C", "H", "W", "N"),
    NDHWC: ("N", "D", "H", "W", "C"),
    NCDHW: ("N", "C", "D", "H", "W"),
    DHWCN: ("D", "H", "W", "C", "N"),
    DHWNC: ("D", "H", "W", "N", "C"),
    NC1HWC0: ("N", "C1", "H", "W", "C0"),
    NDC1HWC0: ("N", "D", "C1", "H", "W", "C0"),
    FRACTAL_Z: ("C1HW", "N1", "N0", "C0"),
}
# axis_util.cc: kFormatAxisIndexMap (letter -> index, derived from kFormatAxisVec)
_AXIS_INDEX: dict[str, dict[str, int]] = {
    fmt: {letter: i for i, letter in enumerate(letters)} for fmt, letters in _AXIS_LETTERS.items()
}

_C_SPLIT: dict[str, tuple[str, ...]] = {"C": ("C1", "C0"), "C1": ("C",), "C0": ("C",)}
# axis_util.cc: kFormatSplitOrConcatAxisMap (keyed by the dst format)
_SPLIT_OR_CONCAT: dict[str, dict[str, tuple[str, ...]]] = {
    NC1HWC0: _C_SPLIT,
    NDC1HWC0: _C_SPLIT,
    FRACTAL_Z: {
        "N": ("N1", "N0"),
        "C": ("C1HW", "C0"),
        "H": ("C1HW",),
        "W": ("C1HW",),
        "C1HW": ("C", "H", "W"),
        "N1": ("N",),
        "N0": ("N",),
        "C0": ("C",),
    },
}

# expand_dimension.cc: DEFAULT_RESHAPE_TYPE (kept axes of a rank-r origin shape)
_DEFAULT_RESHAPE_TYPE: dict[tuple[str, int], str] = {
    **{(fmt, 0): "" for fmt in (NCHW, NHWC, HWCN, CHWN, NDHWC, NCDHW, DHWCN, DHWNC)},
    **{(fmt, 1): "C" for fmt in (NCHW, NHWC, HWCN, CHWN, NDHWC, NCDHW, DHWCN, DHWNC)},
    (NCHW, 2): "CH",
    (NHWC, 2): "HW",
    (HWCN, 2): "CN",
    (CHWN, 2): "WN",
    (NDHWC, 2): "WC",
    (NCDHW, 2): "HW",
    (DHWCN, 2): "CN",
    (DHWNC, 2): "NC",
    (NCHW, 3): "CHW",
    (NHWC, 3): "HWC",
    (HWCN, 3): "WCN",
    (CHWN, 3): "HWN",
    (NDHWC, 3): "HWC",
    (NCDHW, 3): "DHW",
    (DHWCN, 3): "WCN",
    (DHWNC, 3): "WNC",
    (NDHWC, 4): "DHWC",
    (NCDHW, 4): "CDHW",
    (DHWCN, 4): "HWCN",
    (DHWNC, 4): "HWNC",
}


class TransferType(Enum):
    """transfer_shape_utils.h: TransferShapeType."""

    ND_TO_ND = "ND_TO_ND"
    ND_TO_NZ = "ND_TO_NZ"
    FULL_SIZE = "FULL_SIZE"
    NOT_FULL_SIZE = "NOT_FULL_SIZE"
    INVALID = "INVALID"


def primary_format(name: str) -> str:
    """The format family: drops a ":sub_format" suffix and the C0 variants of FRACTAL_NZ
    (FRACTAL_NZ_C0_16 -> FRACTAL_NZ). Unknown names come back unchanged.

    Note: GE's ``GetPrimaryFormat`` keeps FRACTAL_NZ_C0_k as formats of their own (they are
    separate enum values); the transfer rules below use ``_ge_primary_format`` for that.
    """
    base = _ge_primary_format(name)
    return FRACTAL_NZ if base in _NZ_FORMAT_C0 else base


def _ge_primary_format(name: str) -> str:
    # graph/types.h: GetPrimaryFormat strips the sub-format (e.g. FRACTAL_Z groups); our
    # spelling of a sub-format is "FORMAT:sub".
    return name.split(":", 1)[0]


def is_nz_format(name: str) -> bool:
    """axis_constants.h: kFormatNZSet membership."""
    return _ge_primary_format(name) in NZ_FORMATS


def axis_letters(fmt: str) -> tuple[str, ...]:
    """axis_util.cc: AxisUtil::GetAxisVecByFormat (empty for formats without letters)."""
    return _AXIS_LETTERS.get(_ge_primary_format(fmt), ())


def split_or_concat_axes(dst_format: str, axis: str) -> tuple[str, ...]:
    """axis_util.cc: AxisUtil::GetSplitOrConcatAxisByFormat (empty: maps 1:1 by letter)."""
    return _SPLIT_OR_CONCAT.get(_ge_primary_format(dst_format), {}).get(axis, ())


def _axis_index(fmt: str, axis: str) -> int:
    # axis_util.cc: AxisUtil::GetAxisIndexByFormat (-1 when absent)
    return _AXIS_INDEX.get(_ge_primary_format(fmt), {}).get(axis, -1)


def reshape_type_axes(fmt: str, reshape_type_mask: int) -> tuple[str, ...]:
    """The letters of ``fmt`` whose mask bit is 0 (bit i <-> i-th letter is an expanded axis).

    axis_util.cc: AxisUtil::GetReshapeTypeAxisVec
    """
    return tuple(letter for i, letter in enumerate(axis_letters(fmt)) if not (reshape_type_mask >> i) & 1)


def _reshape_type_shift(fmt: str, reshape_type_mask: int) -> dict[str, int]:
    # axis_util.cc: AxisUtil::GetReshapeTypeAxisMap (kept letter -> masked letters before it)
    shift: dict[str, int] = {}
    expanded = 0
    for i, letter in enumerate(axis_letters(fmt)):
        if (reshape_type_mask >> i) & 1:
            expanded += 1
        else:
            shift[letter] = expanded
    return shift


def get_transfer_shape_type(src_format: str, dst_format: str, rank: int) -> TransferType:
    """transfer_shape_utils.cc: TransferShapeUtils::GetTransferShapeType"""
    src = _ge_primary_format(src_format)
    dst = _ge_primary_format(dst_format)
    if src == dst:
        return TransferType.ND_TO_ND
    if src == ND or dst in NZ_FORMATS:
        return TransferType.ND_TO_NZ
    full_size = FULL_SIZE_OF_FORMAT.get(src)
    if full_size is None:
        return TransferType.INVALID
    if rank == full_size:
        return TransferType.FULL_SIZE
    if rank < full_size:
        return TransferType.NOT_FULL_SIZE
    return TransferType.INVALID


def _aligned_by_letters(letters: Sequence[str], dst_format: str, elem: Attribute) -> list[int]:
    # transfer_shape_utils.cc: GetFullSizeAlignedShape / GetNotFullSizeAlignedShape
    n0, c0 = n0_of(elem), c0_of(elem)
    aligned: list[int] = []
    for letter in letters:
        split = len(split_or_concat_axes(dst_format, letter)) > 1
        aligned.append(n0 if split and letter == "N" else c0 if split and letter == "C" else 1)
    return aligned


def aligned_shape(
    src_format: str,
    dst_format: str,
    src_shape: Sequence[int],
    elem: Attribute,
    reshape_type_mask: int = 0,
) -> list[int] | None:
    """Per origin axis, the granule a slice must be a multiple of to stay unpadded.

    transfer_shape_utils.cc: TransferShapeUtils::GetAlignedShape. None = GE returns false.
    """
    rank = len(src_shape)
    kind = get_transfer_shape_type(src_format, dst_format, rank)
    if kind is TransferType.ND_TO_ND:
        # transfer_shape_utils.cc: GetNdToNdAlignedShape
        return [1] * rank
    if kind is TransferType.ND_TO_NZ:
        # transfer_shape_utils.cc: GetNdToNzAlignedShape (C0 by dtype, not by the NZ variant)
        if rank < 2 or not is_nz_format(dst_format):
            return None
        return [1] * (rank - 2) + [m0_of(elem), c0_of(elem)]
    if kind is TransferType.FULL_SIZE:
        letters = axis_letters(src_format)
        return _aligned_by_letters(letters, dst_format, elem) if letters else None
    if kind is TransferType.NOT_FULL_SIZE:
        if reshape_type_mask <= 0:
            return None
        letters = reshape_type_axes(src_format, reshape_type_mask)
        return _aligned_by_letters(letters, dst_format, elem) if letters else None
    return None


AxisIndexMapping = tuple[list[list[int]], list[list[int]]]


def transfer_dims(
    src_format: str,
    dst_format: str,
    src_shape: Sequence[int],
    elem: Attribute | None = None,
    reshape_type_mask: int = 0,
) -> AxisIndexMapping | None:
    """(src_to_dst, dst_to_src): for each origin axis the storage axes it becomes, and for each
    storage axis the origin axes it comes from (-1: none). None = GE returns false.

    transfer_shape_utils.cc: TransferShapeUtils::TransferDims. ``elem`` is unused (GE's
    TransferDimsInfo carries no dtype); it is accepted for symmetry with aligned_shape.
    """
    del elem
    rank = len(src_shape)
    kind = get_transfer_shape_type(src_format, dst_format, rank)
    if kind is TransferType.ND_TO_ND:
        # transfer_shape_utils.cc: GetNdToNdAxisIndexMapping
        identity = [[i] for i in range(rank)]
        return identity, [list(dims) for dims in identity]
    if kind is TransferType.ND_TO_NZ:
        # transfer_shape_utils.cc: GetNdToNzAxisIndexMapping
        if rank < 2 or not is_nz_format(dst_format):
            return None
        src_to_dst = [[i] for i in range(rank - 2)] + [[rank - 1], [rank - 2]]
        dst_to_src = [list(dims) for dims in src_to_dst] + [[-1], [-1]]
        return src_to_dst, dst_to_src
    if kind is TransferType.FULL_SIZE:
        # transfer_shape_utils.cc: GetFullSizeAxisIndexMapping
        src_letters = axis_letters(src_format)
        dst_letters = axis_letters(dst_format)
        if not src_letters or not dst_letters:
            return None
        src_to_dst = [_indices_in(dst_format, dst_format, letter) for letter in src_letters]
        dst_to_src = [_indices_in(src_format, dst_format, letter) for letter in dst_letters]
        return src_to_dst, dst_to_src
    if kind is TransferType.NOT_FULL_SIZE:
        # transfer_shape_utils.cc: GetNotFullSizeAxisIndexMapping
        if reshape_type_mask <= 0:
            return None
        kept = reshape_type_axes(src_format, reshape_type_mask)
        dst_letters = axis_letters(dst_format)
        if not kept or not dst_letters:
            return None
        shift = _reshape_type_shift(src_format, reshape_type_mask)
        src_to_dst = [_indices_in(dst_format, dst_format, letter) for letter in kept]
        dst_to_src = [_indices_in(src_format, dst_format, letter, shift) for letter in dst_letters]
        return src_to_dst, dst_to_src
    return None


def _indices_in(target_format: str, dst_format: str, letter: str, shift: dict[str, int] | None = None) -> list[int]:
    """Indices in ``target_format`` of ``letter``'s parts per dst_format's split/concat table
    (or of the letter itself); with ``shift``, masked letters give -1 and kept ones move down
    by the masked letters before them (AxisUtil::GetAxisIndexByFormat with valid_axis_map)."""
    parts = split_or_concat_axes(dst_format, letter) or (letter,)
    indices: list[int] = []
    for part in parts:
        index = _axis_index(target_format, part)
        if shift is not None and index != -1:
            index = index - shift[part] if part in shift else -1
        indices.append(index)
    return indices


def default_reshape_type_mask(origin_format: str, rank: int) -> int:
    """Mask of GE's default reshape type for a rank-``rank`` shape of ``origin_format``
    (0 when GE has none or the shape is full size).

    expand_dimension.cc: GetDefaultReshapeType + ExpandDimension::GenerateReshapeType (without
    the full-size bits GE stores above bit 56).
    """
    fmt = _ge_primary_format(origin_format)
    kept = _DEFAULT_RESHAPE_TYPE.get((fmt, rank))
    if kept is None or rank == 0:
        return 0
    mask = 0
    for i, letter in enumerate(axis_letters(fmt)):
        if letter not in kept:
            mask |= 1 << i
    return mask


def expand_by_reshape_type_mask(origin_format: str, shape: Sequence[int], reshape_type_mask: int) -> list[int] | None:
    """Expand a not-full-size shape to the format's full rank: masked letters become 1, the
    kept letters take ``shape``'s dims in order. None if the mask does not fit the shape.

    expand_dimension.cc: ExpandByReshapeType (mask bit i set <-> i-th letter expanded).
    """
    letters = axis_letters(origin_format)
    kept = reshape_type_axes(origin_format, reshape_type_mask)
    if not letters or len(kept) != len(shape):
        return None
    dims = iter(shape)
    return [1 if (reshape_type_mask >> i) & 1 else next(dims) for i in range(len(letters))]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def storage_shape(
    origin_format: str,
    storage_format: str,
    origin_shape: Sequence[int],
    elem: Attribute,
    reshape_type_mask: int = 0,
) -> list[int] | None:
    """The runtime (storage) shape GE derives from the origin shape; None if not derivable
    here (the caller then needs an explicit storage shape).

    transfer_shape_utils.cc: TransferShapeUtils::TransferShape (origin-shape overload).
    """
    origin = _ge_primary_format(origin_format)
    storage = _ge_primary_format(storage_format)
    shape = list(origin_shape)
    if origin == storage or not shape:
        # same layout; scalars are never transferred (TransferShapeUtils::IsNeedTransferShape)
        return shape
    if storage == ND or (origin == ND and storage in ORIGIN_FORMATS):
        # IsNeedTransferShape (ND origin) / TransferShapeByFormatIndex default: unchanged
        return shape
    if storage in NZ_FORMATS:
        # transfer_shape_utils.cc: GetFractalNzShape: [..., ceil(n/C0), ceil(m/M0), M0, C0]
        c0 = _NZ_FORMAT_C0.get(storage) or c0_of(elem)
        m0 = m0_of(elem)
        if len(shape) == 1:
            return [1, _ceil_div(shape[0], m0), m0, c0]
        return shape[:-2] + [_ceil_div(shape[-1], c0), _ceil_div(shape[-2], m0), m0, c0]
    if origin == ND:
        if storage == FRACTAL_Z and len(shape) == 2:
            # transfer_shape_utils.cc: GetFractalZShape (2-D): [ceil(d0/C0), ceil(d1/16), 16, C0]
            c0 = c0_of(elem)
            return [_ceil_div(shape[0], c0), _ceil_div(shape[1], n0_of(elem)), n0_of(elem), c0]
        if storage in (NC1HWC0, FRACTAL_Z) and len(shape) == 4:
            # transfer_shape_utils.cc: kFormatIndexMap reads a 4-D ND shape as NCHW
            origin = NCHW
        else:
            return None
    full_size = FULL_SIZE_OF_FORMAT.get(origin)
    if full_size is None:
        return None
    if len(shape) < full_size:
        # expand_dimension.cc: ExpandDimension (explicit mask, else GE's default reshape type)
        mask = reshape_type_mask if reshape_type_mask > 0 else default_reshape_type_mask(origin, len(shape))
        expanded = expand_by_reshape_type_mask(origin, shape, mask) if mask > 0 else None
        if expanded is None:
            return None
        shape = expanded
    if len(shape) != full_size:
        return None
    axis = dict(zip(axis_letters(origin), shape))  # letter -> size
    if storage in FULL_SIZE_OF_FORMAT:
        # transfer_shape_utils.cc: GetNCHWShape ... GetDHWNCShape (a permutation)
        letters = axis_letters(storage)
        if len(letters) != full_size:
            return None
        return [axis[letter] for letter in letters]
    c0 = c0_of(elem)
    if storage == NC1HWC0 and full_size == 4:
        # transfer_shape_utils.cc: GetNC1HWC0Shape: N, ceil(C/C0), H, W, C0
        return [axis["N"], _ceil_div(axis["C"], c0), axis["H"], axis["W"], c0]
    if storage == NDC1HWC0:
        # transfer_shape_utils.cc: GetNDC1HWC0Shape: N, D (1 for a 4-D origin), ceil(C/C0), H, W, C0
        return [axis["N"], axis.get("D", 1), _ceil_div(axis["C"], c0), axis["H"], axis["W"], c0]
    if storage == FRACTAL_Z and full_size == 4:
        # transfer_shape_utils.cc: GetFractalZShape (group 1): C1*H*W, ceil(N/N0), N0, C0
        n0 = n0_of(elem)
        c1hw = math.prod((_ceil_div(axis["C"], c0), axis["H"], axis["W"]))
        return [c1hw, _ceil_div(axis["N"], n0), n0, c0]
    return None
