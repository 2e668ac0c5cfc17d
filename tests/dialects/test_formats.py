"""Transformer-library rules (docs/ge/notask.md), dtype sizes and C0, memory types.

Every expected value is transcribed from the reference table or computed by hand in the
comment next to it.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    f16,
    f32,
    i1,
    i8,
)

from ge_dialect import mem_types as mt
from ge_dialect.dtypes import (
    M0,
    N0,
    c0_of,
    dtype_bits,
    ge_dtype_name,
    m0_of,
    n0_of,
    numpy_dtype,
    size_in_bytes,
    tensor_size_in_bytes,
)
from ge_dialect.formats import (
    KNOWN_FORMATS,
    TransferType,
    aligned_shape,
    default_reshape_type_mask,
    expand_by_reshape_type_mask,
    get_transfer_shape_type,
    primary_format,
    storage_shape,
    transfer_dims,
)

ui8 = IntegerType(8, Signedness.UNSIGNED)
si8 = IntegerType(8, Signedness.SIGNED)
i4 = IntegerType(4)
i2 = IntegerType(2)
ui2 = IntegerType(2, Signedness.UNSIGNED)
ui1 = IntegerType(1, Signedness.UNSIGNED)
bf16 = BFloat16Type()
C0 = 16  # fp16
MASK_N_W = 0b1001  # NCHW letters N (bit 0) and W (bit 3) are expanded axes


# ---------------------------------------------------------------------------------------
# §3.7 "Resulting mappings for common cases" -- one case per table row
# ---------------------------------------------------------------------------------------

MAPPING_ROWS = [
    # same primary format, rank r: identity, align all 1
    pytest.param("ND", "ND", 3, 0, [[0], [1], [2]], [[0], [1], [2]], [1, 1, 1], id="ND->ND"),
    pytest.param("NCHW", "NCHW", 4, 0, [[0], [1], [2], [3]], [[0], [1], [2], [3]], [1, 1, 1, 1], id="NCHW->NCHW"),
    pytest.param(
        "NC1HWC0",
        "NC1HWC0",
        5,
        0,
        [[0], [1], [2], [3], [4]],
        [[0], [1], [2], [3], [4]],
        [1] * 5,
        id="NC1HWC0->NC1HWC0",
    ),
    pytest.param(
        "NCHW",
        "NC1HWC0",
        4,
        0,
        [[0], [1, 4], [2], [3]],
        [[0], [1], [2], [3], [1]],
        [1, C0, 1, 1],
        id="NCHW->NC1HWC0",
    ),
    pytest.param(
        "NHWC",
        "NC1HWC0",
        4,
        0,
        [[0], [2], [3], [1, 4]],
        [[0], [3], [1], [2], [3]],
        [1, 1, 1, C0],
        id="NHWC->NC1HWC0",
    ),
    pytest.param(
        "HWCN",
        "NC1HWC0",
        4,
        0,
        [[2], [3], [1, 4], [0]],
        [[3], [2], [0], [1], [2]],
        [1, 1, C0, 1],
        id="HWCN->NC1HWC0",
    ),
    pytest.param(
        "NCDHW",
        "NDC1HWC0",
        5,
        0,
        [[0], [2, 5], [1], [3], [4]],
        [[0], [2], [1], [3], [4], [1]],
        [1, C0, 1, 1, 1],
        id="NCDHW->NDC1HWC0",
    ),
    pytest.param(
        "NCHW",
        "FRACTAL_Z",
        4,
        0,
        [[1, 2], [0, 3], [0], [0]],
        [[1, 2, 3], [0], [0], [1]],
        [N0, C0, 1, 1],
        id="NCHW->FRACTAL_Z",
    ),
    pytest.param(
        "HWCN",
        "FRACTAL_Z",
        4,
        0,
        [[0], [0], [0, 3], [1, 2]],
        [[2, 0, 1], [3], [3], [2]],
        [1, 1, C0, N0],
        id="HWCN->FRACTAL_Z",
    ),
    pytest.param(
        "NHWC",
        "FRACTAL_Z",
        4,
        0,
        [[1, 2], [0], [0], [0, 3]],
        [[3, 1, 2], [0], [0], [3]],
        [N0, 1, 1, C0],
        id="NHWC->FRACTAL_Z",
    ),
    pytest.param(
        "NCHW",
        "HWCN",
        4,
        0,
        [[3], [2], [0], [1]],
        [[2], [3], [1], [0]],
        [1, 1, 1, 1],
        id="NCHW->HWCN",
    ),
    # ND rank n -> FRACTAL_NZ: i->[i] (i<n-2), n-2->[n-1], n-1->[n-2]; d2s = s2d + [-1],[-1]
    pytest.param("ND", "FRACTAL_NZ", 2, 0, [[1], [0]], [[1], [0], [-1], [-1]], [M0, C0], id="ND2->NZ"),
    pytest.param(
        "ND",
        "FRACTAL_NZ",
        4,
        0,
        [[0], [1], [3], [2]],
        [[0], [1], [3], [2], [-1], [-1]],
        [1, 1, M0, C0],
        id="ND4->NZ",
    ),
    pytest.param(
        "ND",
        "FRACTAL_NZ_C0_16",
        3,
        0,
        [[0], [2], [1]],
        [[0], [2], [1], [-1], [-1]],
        [1, M0, C0],
        id="ND3->NZ_C0_16",
    ),
    # CH (NCHW with mask N,W = 0b1001) -> NC1HWC0
    pytest.param(
        "NCHW",
        "NC1HWC0",
        2,
        MASK_N_W,
        [[1, 4], [2]],
        [[-1], [0], [1], [-1], [0]],
        [C0, 1],
        id="CH(mask 0b1001)->NC1HWC0",
    ),
]


@pytest.mark.parametrize("src, dst, rank, mask, s2d, d2s, align", MAPPING_ROWS)
def test_resulting_mappings(src, dst, rank, mask, s2d, d2s, align):
    shape = [7] * rank
    assert transfer_dims(src, dst, shape, f16, mask) == (s2d, d2s)
    assert aligned_shape(src, dst, shape, f16, mask) == align


@pytest.mark.parametrize("dst", ["NC1HWC0", "FRACTAL_Z", "NCHW"])
def test_nd_to_non_nz_fails(dst):
    # ND origin with a non-NZ storage format is classified ND_TO_NZ and then fails.
    assert get_transfer_shape_type("ND", dst, 4) is TransferType.ND_TO_NZ
    assert aligned_shape("ND", dst, [2, 3, 4, 5], f16) is None
    assert transfer_dims("ND", dst, [2, 3, 4, 5], f16) is None


def test_nz_needs_rank_2():
    assert aligned_shape("ND", "FRACTAL_NZ", [32], f16) is None
    assert transfer_dims("ND", "FRACTAL_NZ", [32], f16) is None


def test_aligned_shape_c0_follows_dtype_not_nz_variant():
    # GetNdToNzAlignedShape uses GetC0ByDtype: int8 -> 32 even for FRACTAL_NZ_C0_16.
    assert aligned_shape("ND", "FRACTAL_NZ_C0_16", [4, 64], i8) == [16, 32]
    assert aligned_shape("NCHW", "NC1HWC0", [1, 64, 2, 2], i8) == [1, 32, 1, 1]
    assert aligned_shape("NCHW", "NC1HWC0", [1, 64, 2, 2], i4) == [1, 64, 1, 1]


# ---------------------------------------------------------------------------------------
# Transfer type
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "src, dst, rank, expected",
    [
        ("ND", "ND", 3, TransferType.ND_TO_ND),
        ("NCHW", "NCHW", 4, TransferType.ND_TO_ND),
        ("NC1HWC0", "NC1HWC0", 5, TransferType.ND_TO_ND),
        ("FRACTAL_NZ", "FRACTAL_NZ", 4, TransferType.ND_TO_ND),
        ("ND", "FRACTAL_NZ", 2, TransferType.ND_TO_NZ),
        ("NCHW", "FRACTAL_NZ", 4, TransferType.ND_TO_NZ),  # dst in NZ set
        ("NHWC", "FRACTAL_NZ_C0_32", 2, TransferType.ND_TO_NZ),
        ("ND", "NC1HWC0", 4, TransferType.ND_TO_NZ),  # src ND
        ("ND", "FRACTAL_Z", 4, TransferType.ND_TO_NZ),
        ("NCHW", "NC1HWC0", 4, TransferType.FULL_SIZE),
        ("HWCN", "FRACTAL_Z", 4, TransferType.FULL_SIZE),
        ("CHWN", "NC1HWC0", 4, TransferType.FULL_SIZE),
        ("NCHW", "HWCN", 4, TransferType.FULL_SIZE),
        ("NCDHW", "NDC1HWC0", 5, TransferType.FULL_SIZE),
        ("DHWNC", "NDC1HWC0", 5, TransferType.FULL_SIZE),
        ("NCHW", "NC1HWC0", 2, TransferType.NOT_FULL_SIZE),
        ("NCHW", "NC1HWC0", 1, TransferType.NOT_FULL_SIZE),
        ("NDHWC", "NDC1HWC0", 3, TransferType.NOT_FULL_SIZE),
        ("NCHW", "NC1HWC0", 5, TransferType.INVALID),  # rank 5 NCHW
        ("NCDHW", "NDC1HWC0", 6, TransferType.INVALID),
        ("NC1HWC0", "NCHW", 5, TransferType.INVALID),  # src has no full size
        ("FRACTAL_Z", "NC1HWC0", 4, TransferType.INVALID),
    ],
)
def test_transfer_shape_type(src, dst, rank, expected):
    assert get_transfer_shape_type(src, dst, rank) is expected


def test_invalid_transfer_fails():
    assert aligned_shape("NCHW", "NC1HWC0", [1, 2, 3, 4, 5], f16) is None
    assert transfer_dims("NCHW", "NC1HWC0", [1, 2, 3, 4, 5], f16) is None


def test_not_full_size_needs_positive_mask():
    assert aligned_shape("NCHW", "NC1HWC0", [32, 4], f16, 0) is None
    assert transfer_dims("NCHW", "NC1HWC0", [32, 4], f16, 0) is None


def test_primary_format():
    assert primary_format("FRACTAL_NZ_C0_16") == "FRACTAL_NZ"
    assert primary_format("FRACTAL_NZ_C0_2") == "FRACTAL_NZ"
    assert primary_format("NC1HWC0") == "NC1HWC0"
    assert primary_format("FRACTAL_Z:4") == "FRACTAL_Z"
    for name in (
        "ND",
        "NCHW",
        "NHWC",
        "HWCN",
        "CHWN",
        "NDHWC",
        "NCDHW",
        "DHWCN",
        "DHWNC",
        "NC1HWC0",
        "NDC1HWC0",
        "FRACTAL_Z",
        "FRACTAL_NZ",
        "FRACTAL_NZ_C0_2",
        "FRACTAL_NZ_C0_4",
        "FRACTAL_NZ_C0_8",
        "FRACTAL_NZ_C0_16",
        "FRACTAL_NZ_C0_32",
    ):
        assert name in KNOWN_FORMATS


# ---------------------------------------------------------------------------------------
# §3.7 "Effective rules": CheckDimForInput (§3.6) on top of aligned_shape / transfer_dims
# ---------------------------------------------------------------------------------------


def check_dim_for_input(src_format, dst_format, src_shape, dim, elem=f16, mask=0) -> bool:
    """§3.6 steps 1-4, written from the reference, over this module's functions."""
    runtime = storage_shape(src_format, dst_format, src_shape, elem, mask)
    align = aligned_shape(src_format, dst_format, src_shape, elem, mask)
    if runtime is None or align is None or len(align) != len(src_shape):
        return False
    mapping = transfer_dims(src_format, dst_format, src_shape, elem, mask)
    if mapping is None:
        return False
    s2d, d2s = mapping
    if len(s2d) != len(src_shape) or len(d2s) != len(runtime) or not s2d[dim]:
        return False
    real_dim = s2d[dim][0]
    if not 0 <= real_dim < len(runtime):
        return False
    if any(runtime[axis] != 1 for axis in range(real_dim)):
        return False
    merged = d2s[real_dim]
    if len(merged) > 1:
        if dim not in merged:
            return False
        for f in merged[: merged.index(dim)]:
            if len(s2d[f]) > 1:
                ok = src_shape[f] <= align[f] if s2d[f][0] == real_dim else align[f] == 1
            else:
                ok = src_shape[f] == 1
            if not ok:
                return False
    return align[dim] > 0 and src_shape[dim] % align[dim] == 0


def test_effective_same_format_front_dims_must_be_one():
    assert check_dim_for_input("ND", "ND", [1, 1, 5, 7], 2)  # no alignment condition
    assert not check_dim_for_input("ND", "ND", [1, 2, 5, 7], 2)
    assert check_dim_for_input("ND", "ND", [3, 5], 0)


def test_effective_nchw_to_nc1hwc0():
    # concat on C: runtime N must be 1 and C % C0 == 0
    assert check_dim_for_input("NCHW", "NC1HWC0", [1, 32, 3, 3], 1)
    assert not check_dim_for_input("NCHW", "NC1HWC0", [2, 32, 3, 3], 1)
    assert not check_dim_for_input("NCHW", "NC1HWC0", [1, 24, 3, 3], 1)
    # concat on N: always OK
    assert check_dim_for_input("NCHW", "NC1HWC0", [3, 17, 3, 3], 0)
    # concat on H: N == 1 and C1 == 1 (C <= C0)
    assert check_dim_for_input("NCHW", "NC1HWC0", [1, 16, 3, 3], 2)
    assert not check_dim_for_input("NCHW", "NC1HWC0", [1, 17, 3, 3], 2)


def test_effective_nhwc_to_nc1hwc0_concat_on_c():
    s2d, _ = transfer_dims("NHWC", "NC1HWC0", [1, 5, 7, 32], f16)
    assert s2d[3][0] == 1  # real_dim = C1
    assert check_dim_for_input("NHWC", "NC1HWC0", [1, 5, 7, 32], 3)  # H, W anything
    assert not check_dim_for_input("NHWC", "NC1HWC0", [2, 5, 7, 32], 3)
    assert not check_dim_for_input("NHWC", "NC1HWC0", [1, 5, 7, 40], 3)


def test_effective_nd_to_nz():
    # [b, m, n]: concat on m -> real_dim = m1 axis (n-1 = 2)
    s2d, _ = transfer_dims("ND", "FRACTAL_NZ", [1, 32, 16], f16)
    assert s2d[1][0] == 2 and s2d[2][0] == 1
    assert check_dim_for_input("ND", "FRACTAL_NZ", [1, 32, 16], 1)  # n1 = ceil(16/16) = 1
    assert not check_dim_for_input("ND", "FRACTAL_NZ", [1, 32, 48], 1)  # n1 = 3
    assert not check_dim_for_input("ND", "FRACTAL_NZ", [1, 24, 16], 1)  # 24 % 16 != 0
    assert not check_dim_for_input("ND", "FRACTAL_NZ", [2, 32, 16], 1)  # batch dim
    # concat on n -> real_dim = n1 axis: batch 1 and n % C0 == 0
    assert check_dim_for_input("ND", "FRACTAL_NZ", [1, 50, 48], 2)
    assert not check_dim_for_input("ND", "FRACTAL_NZ", [1, 50, 40], 2)


def test_effective_hwcn_to_fractal_z():
    # merged C1HW list order is C, H, W
    _, d2s = transfer_dims("HWCN", "FRACTAL_Z", [1, 1, 16, 16], f16)
    assert d2s[0] == [2, 0, 1]
    # concat on C: only C % C0
    assert check_dim_for_input("HWCN", "FRACTAL_Z", [3, 3, 32, 16], 2)
    assert not check_dim_for_input("HWCN", "FRACTAL_Z", [3, 3, 24, 16], 2)
    # concat on H: C <= C0
    assert check_dim_for_input("HWCN", "FRACTAL_Z", [3, 3, 16, 16], 0)
    assert not check_dim_for_input("HWCN", "FRACTAL_Z", [3, 3, 17, 16], 0)
    # concat on W: additionally H == 1
    assert check_dim_for_input("HWCN", "FRACTAL_Z", [1, 3, 16, 16], 1)
    assert not check_dim_for_input("HWCN", "FRACTAL_Z", [3, 3, 16, 16], 1)
    # concat on N: real_dim = N1; C1HW (dim 0) must be 1 and N % 16 == 0
    assert transfer_dims("HWCN", "FRACTAL_Z", [1, 1, 16, 32], f16)[0][3][0] == 1
    assert check_dim_for_input("HWCN", "FRACTAL_Z", [1, 1, 16, 32], 3)
    assert not check_dim_for_input("HWCN", "FRACTAL_Z", [1, 1, 16, 24], 3)
    assert not check_dim_for_input("HWCN", "FRACTAL_Z", [2, 1, 16, 32], 3)


def test_effective_nd_origin_non_nz_rejected():
    assert not check_dim_for_input("ND", "NC1HWC0", [1, 32, 4, 4], 1)


# ---------------------------------------------------------------------------------------
# Storage shapes (hand-computed)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin_format, storage_format, shape, elem, mask, expected",
    [
        # NC1HWC0: N, ceil(C/C0), H, W, C0
        ("NCHW", "NC1HWC0", [2, 35, 4, 5], f16, 0, [2, 3, 4, 5, 16]),
        ("NHWC", "NC1HWC0", [2, 4, 5, 35], i8, 0, [2, 2, 4, 5, 32]),  # C0=32: ceil(35/32)=2
        ("HWCN", "NC1HWC0", [3, 3, 20, 7], f16, 0, [7, 2, 3, 3, 16]),
        ("CHWN", "NC1HWC0", [20, 3, 3, 7], f32, 0, [7, 2, 3, 3, 16]),  # fp32 C0 = 16
        ("NCHW", "NC1HWC0", [35, 4], f16, MASK_N_W, [1, 3, 4, 1, 16]),  # expanded [1,35,4,1]
        ("NCHW", "NC1HWC0", [35, 4], f16, 0, [1, 3, 4, 1, 16]),  # default reshape type "CH"
        # NDC1HWC0: N, D, ceil(C/C0), H, W, C0
        ("NCDHW", "NDC1HWC0", [2, 35, 6, 4, 5], f16, 0, [2, 6, 3, 4, 5, 16]),
        ("NDHWC", "NDC1HWC0", [2, 6, 4, 5, 35], f16, 0, [2, 6, 3, 4, 5, 16]),
        ("DHWCN", "NDC1HWC0", [6, 4, 5, 35, 2], f16, 0, [2, 6, 3, 4, 5, 16]),
        ("DHWNC", "NDC1HWC0", [6, 4, 5, 2, 35], f16, 0, [2, 6, 3, 4, 5, 16]),
        # FRACTAL_Z: ceil(C/C0)*H*W, ceil(N/16), 16, C0
        ("NCHW", "FRACTAL_Z", [33, 20, 3, 3], f16, 0, [18, 3, 16, 16]),  # 2*3*3=18
        ("HWCN", "FRACTAL_Z", [3, 3, 20, 33], f16, 0, [18, 3, 16, 16]),
        ("NHWC", "FRACTAL_Z", [33, 3, 3, 20], i8, 0, [9, 3, 16, 32]),  # 1*3*3=9
        ("ND", "FRACTAL_Z", [40, 20], f16, 0, [3, 2, 16, 16]),  # 2-D: ceil(40/16), ceil(20/16)
        # FRACTAL_NZ: [..., ceil(n/C0), ceil(m/M0), M0, C0]
        ("ND", "FRACTAL_NZ", [3, 33, 17], f16, 0, [3, 2, 3, 16, 16]),
        ("ND", "FRACTAL_NZ", [64, 48], i8, 0, [2, 4, 16, 32]),
        ("ND", "FRACTAL_NZ_C0_32", [16, 64], f16, 0, [2, 1, 16, 32]),  # C0 from the format
        ("ND", "FRACTAL_NZ", [40], f16, 0, [1, 3, 16, 16]),  # rank 1: [1, ceil(40/16), M0, C0]
        # identities and permutations
        ("ND", "ND", [3, 4], f16, 0, [3, 4]),
        ("NC1HWC0", "NC1HWC0", [1, 2, 3, 4, 16], f16, 0, [1, 2, 3, 4, 16]),
        ("ND", "NCHW", [1, 2, 3, 4], f16, 0, [1, 2, 3, 4]),
        ("NCHW", "NHWC", [1, 2, 3, 4], f16, 0, [1, 3, 4, 2]),
        ("NHWC", "HWCN", [1, 3, 4, 2], f16, 0, [3, 4, 2, 1]),
        ("NCDHW", "NDHWC", [1, 2, 3, 4, 5], f16, 0, [1, 3, 4, 5, 2]),
        ("NCHW", "NC1HWC0", [], f16, 0, []),  # scalar: not transferred
    ],
)
def test_storage_shape(origin_format, storage_format, shape, elem, mask, expected):
    assert storage_shape(origin_format, storage_format, shape, elem, mask) == expected


@pytest.mark.parametrize(
    "origin_format, storage_format, shape",
    [
        ("NCDHW", "NC1HWC0", [1, 2, 3, 4, 5]),
        ("NCHW", "NDHWC", [1, 2, 3, 4]),
        ("NC1HWC0", "NCHW", [1, 2, 3, 4, 16]),
        ("ND", "NC1HWC0", [2, 3]),
        ("NCHW", "NC1HWC0", [1, 2, 3, 4, 5]),
    ],
)
def test_storage_shape_not_derivable(origin_format, storage_format, shape):
    assert storage_shape(origin_format, storage_format, shape, f16) is None


def test_reshape_type_mask_helpers():
    assert expand_by_reshape_type_mask("NCHW", [35, 4], MASK_N_W) == [1, 35, 4, 1]
    assert expand_by_reshape_type_mask("NCHW", [35, 4, 2], MASK_N_W) is None
    assert default_reshape_type_mask("NCHW", 2) == MASK_N_W  # "CH" keeps C and H
    assert default_reshape_type_mask("NHWC", 1) == 0b0111  # "C" is the last NHWC letter
    assert default_reshape_type_mask("NCHW", 4) == 0


# ---------------------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "elem, c0",
    [
        (f16, 16),
        (bf16, 16),
        (f32, 16),
        (i8, 32),
        (si8, 32),
        (ui8, 32),
        (i4, 64),
        (i2, 128),
        (ui2, 128),
        (ui1, 256),
        (IntegerType(32), 16),
    ],
)
def test_c0_by_dtype(elem, c0):
    assert c0_of(elem) == c0
    assert m0_of(elem) == 16 and n0_of(elem) == 16


@pytest.mark.parametrize(
    "elem, name, bits",
    [
        (f16, "DT_FLOAT16", 16),
        (bf16, "DT_BF16", 16),
        (Float32Type(), "DT_FLOAT", 32),
        (Float64Type(), "DT_DOUBLE", 64),
        (i1, "DT_BOOL", 8),
        (i8, "DT_INT8", 8),
        (si8, "DT_INT8", 8),
        (ui8, "DT_UINT8", 8),
        (IntegerType(16), "DT_INT16", 16),
        (IntegerType(16, Signedness.UNSIGNED), "DT_UINT16", 16),
        (IntegerType(32, Signedness.SIGNED), "DT_INT32", 32),
        (IntegerType(32, Signedness.UNSIGNED), "DT_UINT32", 32),
        (IntegerType(64), "DT_INT64", 64),
        (IntegerType(64, Signedness.UNSIGNED), "DT_UINT64", 64),
        (i4, "DT_INT4", 4),
        (i2, "DT_INT2", 2),
        (ui2, "DT_UINT2", 2),
        (ui1, "DT_UINT1", 1),
    ],
)
def test_dtype_names_and_bits(elem, name, bits):
    assert ge_dtype_name(elem) == name
    assert dtype_bits(elem) == bits


@pytest.mark.parametrize(
    "elem", [IntegerType(3), IntegerType(4, Signedness.UNSIGNED), IntegerType(1, Signedness.SIGNED), IntegerType(128)]
)
def test_unsupported_dtype(elem):
    with pytest.raises(ValueError, match="no GE data type"):
        ge_dtype_name(elem)


@pytest.mark.parametrize(
    "n, elem, expected",
    [
        (3, f16, 6),
        (3, i1, 3),  # bool is one byte
        (3, i4, 2),  # 12 bits -> 2 bytes
        (2, i4, 1),
        (9, ui1, 2),  # 9 bits -> 2 bytes
        (8, ui1, 1),
        (5, i2, 2),  # 10 bits -> 2 bytes
        (0, f32, 0),
        (0, i4, 0),
    ],
)
def test_size_in_bytes(n, elem, expected):
    assert size_in_bytes(n, elem) == expected


def test_tensor_size_in_bytes():
    assert tensor_size_in_bytes([], f32) == 4  # scalar = 1 element
    assert tensor_size_in_bytes([0, 5], f32) == 0
    assert tensor_size_in_bytes([2, 3, 4], f16) == 48
    assert tensor_size_in_bytes([7], i4) == 4  # 28 bits -> 4 bytes


def test_numpy_dtype():
    assert numpy_dtype(f16) == np.float16
    assert numpy_dtype(bf16) == np.dtype("bfloat16")  # ml_dtypes': GE's 2 bytes (tests/dialects/test_bf16.py)
    assert numpy_dtype(i1) == np.bool_
    assert numpy_dtype(i4) == np.int8
    assert numpy_dtype(ui2) == np.uint8
    assert numpy_dtype(IntegerType(64, Signedness.UNSIGNED)) == np.uint64


# ---------------------------------------------------------------------------------------
# memory types
# ---------------------------------------------------------------------------------------


def test_memory_types():
    assert (mt.RT_MEMORY_DEFAULT, mt.RT_MEMORY_HBM, mt.RT_MEMORY_DDR) == (0, 2, 4)
    assert (mt.RT_MEMORY_L1, mt.RT_MEMORY_L2, mt.RT_MEMORY_UB) == (65536, 131072, 32768)
    for t in (mt.RT_MEMORY_DEFAULT, mt.RT_MEMORY_HBM, mt.RT_MEMORY_DDR):
        assert not mt.is_memory_type_special(t)
    for t in (mt.RT_MEMORY_L1, mt.RT_MEMORY_L2, mt.RT_MEMORY_UB, 0x8):
        assert mt.is_memory_type_special(t)
    assert mt.LX_MEMORY_TYPES == {mt.RT_MEMORY_L1, mt.RT_MEMORY_L2, mt.RT_MEMORY_UB}
    assert mt.MEMORY_TYPE_NAMES[mt.RT_MEMORY_L1] == "RT_MEMORY_L1"
    assert (mt.NOTASK_TENSOR_ALIGN_SIZE, mt.MEM_ALIGN_SIZE, mt.GE_LOCAL_MEM_ALIGN_SIZE) == (32, 512, 32)
