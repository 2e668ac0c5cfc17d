"""GeDtype.held_bits, the width of the numpy dtype an element type is held in, is read
from the dtype's name so that ge-assign-memory and ge-to-npu size buffers without
importing numpy (tests/tools/test_interop_startup.py checks that a compile does not load
it); here it is checked against numpy itself for every GE data type the project holds."""

from __future__ import annotations

import numpy as np
import pytest

from ge_dialect import dtypes as D

ALL = [D._F16, D._BF16, D._F32, D._F64, *D._FLOAT8.values(), *D._INTEGERS.values()]


@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
def test_held_bits_is_the_numpy_itemsize(dt: D.GeDtype) -> None:
    assert dt.held_bits == np.dtype(dt.numpy).itemsize * 8
    assert isinstance(dt.numpy, np.dtype)


def test_sub_byte_integers_are_held_in_a_byte() -> None:
    # DT_INT4 is 4 bits in GE but one int8 per element in the simulator (ge-to-npu refuses it)
    assert [(d.name, d.bits, d.held_bits) for d in ALL if d.bits < 8] == [
        ("DT_UINT1", 1, 8),
        ("DT_INT2", 2, 8),
        ("DT_UINT2", 2, 8),
        ("DT_INT4", 4, 8),
    ]
