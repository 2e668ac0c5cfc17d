"""GE data types for MLIR builtin element types.

GE names (``DT_FLOAT16`` ...) and bit widths follow ``graph_metadef/inc/graph/types.h``
(``GetSizeByDataType``); byte sizes follow ``TypeUtils::GetSizeInBytes``
(sub-byte types round up: ceil(elements * bits / 8)). The cube fractal sizes (C0 = K0,
M0, N0) follow the platform ``DtypeMKN`` table read by
``transfer_shape_utils.cc: TransferShapeUtils::InitM0K0CO`` (see docs/ge/notask.md).

bf16 and the float8 types are real numpy dtypes (the ``ml_dtypes`` package): arrays of
them hold GE's own bytes (2 bytes per bf16 element, 1 per float8 one). numpy computes
nothing in them directly here: `compute_dtype` is float32 for each, so an op casts its
inputs up, computes in float32 and rounds its result to the output dtype once (round to
nearest, ties to even: ml_dtypes' float32 -> bf16 / float8 conversion), as GE's
AscGraph kernels compute bf16 in float32 (adaption_improve_precision.cpp:
IsLowPrecisionDataType, FromDtypeToOtherDtype(node, DT_BF16, DT_FLOAT)).

This module imports nothing of the project.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float6E2M3FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "M0",
    "N0",
    "GeDtype",
    "c0_of",
    "compute_dtype",
    "dtype_bits",
    "float_info",
    "ge_dtype",
    "ge_dtype_name",
    "is_float_dtype",
    "m0_of",
    "n0_of",
    "held_bits",
    "numpy_dtype",
    "size_in_bytes",
    "tensor_size_in_bytes",
]


@dataclass(frozen=True)
class GeDtype:
    """One GE data type: its name, its width in bits, and its cube K0 (= C0)."""

    name: str
    bits: int
    c0: int
    # The name of its numpy dtype, or ("ml_dtypes", name) for bf16 and the float8 types:
    # numpy and ml_dtypes are imported the first time a dtype is asked for (a ge-opt run
    # that computes no data loads neither: start-up time, bench/bench_startup.py).
    numpy_spec: str | tuple[str, str]

    @cached_property
    def numpy(self) -> np.dtype:
        import numpy as np

        if isinstance(self.numpy_spec, tuple):
            import ml_dtypes

            return np.dtype(getattr(ml_dtypes, self.numpy_spec[1]))
        return np.dtype(self.numpy_spec)

    @cached_property
    def held_bits(self) -> int:
        """The width in bits of the numpy dtype `numpy` is (its itemsize * 8), read from
        the dtype's name ("bool" is one byte; "int8", "float16", "bfloat16",
        "float8_e4m3fn": the first number) so that the memory and task passes can ask it
        without importing numpy (tests/dialects/test_dtypes.py checks it against numpy)."""
        spec = self.numpy_spec[1] if isinstance(self.numpy_spec, tuple) else self.numpy_spec
        if spec == "bool":
            return 8
        m = re.match(r"[a-z]+?(\d+)", spec)
        assert m is not None, spec
        return int(m.group(1))


# Platform DtypeMKN table: "Default=16,16,16" (M0,K0,N0); the shipped platform ini files
# override K0 for DT_INT8/DT_UINT8 (32), DT_INT4 (64), DT_INT2/DT_UINT2 (128), DT_UINT1 (256).
# transfer_shape_utils.cc: TransferShapeUtils::InitPlatformInfo / InitM0K0CO
DEFAULT_C0 = 16
M0 = 16
N0 = 16

_F16 = GeDtype("DT_FLOAT16", 16, DEFAULT_C0, "float16")
_BF16 = GeDtype("DT_BF16", 16, DEFAULT_C0, ("ml_dtypes", "bfloat16"))
_F32 = GeDtype("DT_FLOAT", 32, DEFAULT_C0, "float32")
_F64 = GeDtype("DT_DOUBLE", 64, DEFAULT_C0, "float64")
# GE's float8 types, one byte each (types.h: GetSizeByDataType), with the MLIR builtin type
# and the ml_dtypes dtype of the same encoding. The shipped platform ini files have no
# DtypeMKN entry for them, so K0 is the Default one.
_FLOAT8: dict[type[Attribute], GeDtype] = {
    Float8E5M2Type: GeDtype("DT_FLOAT8_E5M2", 8, DEFAULT_C0, ("ml_dtypes", "float8_e5m2")),
    Float8E4M3FNType: GeDtype("DT_FLOAT8_E4M3FN", 8, DEFAULT_C0, ("ml_dtypes", "float8_e4m3fn")),
    Float8E8M0FNUType: GeDtype("DT_FLOAT8_E8M0", 8, DEFAULT_C0, ("ml_dtypes", "float8_e8m0fnu")),
}
# GE types the project does not hold, with why (types.h: DT_HIFLOAT8 has no MLIR builtin
# type and no ml_dtypes dtype, so no element type names it; the packed sub-byte floats
# would need a numpy dtype of their own width, as the sub-byte integers do).
_REFUSED: dict[type[Attribute], str] = {
    Float6E3M2FNType: "GE's DT_FLOAT6_E3M2, a packed 6-bit float the simulator cannot hold at its own width",
    Float6E2M3FNType: "GE's DT_FLOAT6_E2M3, a packed 6-bit float the simulator cannot hold at its own width",
    Float4E2M1FNType: "GE's DT_FLOAT4_E2M1, a packed 4-bit float the simulator cannot hold at its own width",
}


@cache
def _ml_floats() -> frozenset[np.dtype]:
    """The numpy dtypes of ml_dtypes that stand for GE floats (their numpy kind is not "f")."""
    return frozenset({_BF16.numpy, *(d.numpy for d in _FLOAT8.values())})


# Integer types by (width, unsigned). GE stores bool in one byte (GetSizeByDataType(DT_BOOL)=1).
# Sub-byte integers are held one per int8/uint8 element in the reference interpreter.
_INTEGERS: dict[tuple[int, bool], GeDtype] = {
    (1, False): GeDtype("DT_BOOL", 8, DEFAULT_C0, "bool"),
    (1, True): GeDtype("DT_UINT1", 1, 256, "uint8"),
    (2, False): GeDtype("DT_INT2", 2, 128, "int8"),
    (2, True): GeDtype("DT_UINT2", 2, 128, "uint8"),
    (4, False): GeDtype("DT_INT4", 4, 64, "int8"),
    (8, False): GeDtype("DT_INT8", 8, 32, "int8"),
    (8, True): GeDtype("DT_UINT8", 8, 32, "uint8"),
    (16, False): GeDtype("DT_INT16", 16, DEFAULT_C0, "int16"),
    (16, True): GeDtype("DT_UINT16", 16, DEFAULT_C0, "uint16"),
    (32, False): GeDtype("DT_INT32", 32, DEFAULT_C0, "int32"),
    (32, True): GeDtype("DT_UINT32", 32, DEFAULT_C0, "uint32"),
    (64, False): GeDtype("DT_INT64", 64, DEFAULT_C0, "int64"),
    (64, True): GeDtype("DT_UINT64", 64, DEFAULT_C0, "uint64"),
}
# Not mapped: ui4 (GE's public DataType enum has DT_INT4 but no 4-bit unsigned type),
# si1 (a signed 1-bit integer is not a GE type; i1 is DT_BOOL).


def ge_dtype(elem: Attribute) -> GeDtype:
    """The GE data type of an MLIR element type; ValueError if GE has none."""
    if isinstance(elem, Float16Type):
        return _F16
    if isinstance(elem, BFloat16Type):
        return _BF16
    if isinstance(elem, Float32Type):
        return _F32
    if isinstance(elem, Float64Type):
        return _F64
    if (f8 := _FLOAT8.get(type(elem))) is not None:
        return f8
    if (why := _REFUSED.get(type(elem))) is not None:
        raise ValueError(f"element type {elem} is {why}")
    if isinstance(elem, IntegerType):
        width = elem.width.data
        unsigned = elem.signedness.data == Signedness.UNSIGNED
        if width == 1 and elem.signedness.data == Signedness.SIGNED:
            found = None  # si1 has no GE counterpart
        else:
            found = _INTEGERS.get((width, unsigned))
        if found is not None:
            return found
    raise ValueError(
        f"element type {elem} has no GE data type; supported: f16, bf16, f32, f64, f8E5M2, "
        "f8E4M3FN, f8E8M0FNU, i1, ui1, i2, ui2, i4, i8, ui8, i16, ui16, i32, ui32, i64, ui64 "
        "(GE's DT_HIFLOAT8 has no MLIR element type)"
    )


def ge_dtype_name(elem: Attribute) -> str:
    """GE's name of the element type ("DT_FLOAT16", ...); ValueError if unsupported."""
    return ge_dtype(elem).name


def dtype_bits(elem: Attribute) -> int:
    """Storage width in bits (DT_BOOL is 8: GE stores bool in one byte)."""
    return ge_dtype(elem).bits


def size_in_bytes(num_elements: int, elem: Attribute) -> int:
    """ceil(num_elements * bits / 8); 0 elements -> 0.

    type_utils.cc: TypeUtils::GetSizeInBytes (sub-byte types round up).
    """
    if num_elements < 0:
        raise ValueError(f"negative element count {num_elements}")
    return (num_elements * dtype_bits(elem) + 7) // 8


def tensor_size_in_bytes(shape: Sequence[int], elem: Attribute) -> int:
    """Byte size of a tensor: product of dims (empty shape = scalar = 1 element)."""
    return size_in_bytes(math.prod(shape), elem)


def c0_of(elem: Attribute) -> int:
    """C0 (= K0 of the DtypeMKN table). transfer_shape_utils.cc: TransferShapeUtils::GetC0ByDtype"""
    return ge_dtype(elem).c0


def m0_of(elem: Attribute) -> int:
    """M0. transfer_shape_utils.cc: TransferShapeUtils::GetM0ByDtype (16 for every dtype)."""
    ge_dtype(elem)  # validate
    return M0


def n0_of(elem: Attribute) -> int:
    """N0. transfer_shape_utils.cc: TransferShapeUtils::GetN0ByDtype (16 for every dtype)."""
    ge_dtype(elem)  # validate
    return N0


def numpy_dtype(elem: Attribute) -> np.dtype:
    """The numpy dtype the reference interpreter and the simulator hold `elem` in.

    bf16 -> ml_dtypes.bfloat16, f8E5M2 / f8E4M3FN / f8E8M0FNU -> ml_dtypes' float8 dtypes
    (each GE's width), sub-byte integers -> int8/uint8, i1 -> bool.
    """
    return ge_dtype(elem).numpy


def held_bits(elem: Attribute) -> int:
    """The width in bits of `numpy_dtype(elem)`, without importing numpy."""
    return ge_dtype(elem).held_bits


# numpy numbers the dtypes a package registers (ml_dtypes') from NPY_USERDEF up; its own
# are below: a dtype under it is no ml_dtypes float, decided without importing ml_dtypes (a
# float32 graph's run does not pay for loading it: bench/bench_run_startup.py)
_NPY_USERDEF = 256


def _is_ml_float(dt: np.dtype) -> bool:
    return dt.num >= _NPY_USERDEF and dt in _ml_floats()


def is_float_dtype(dt: np.dtype) -> bool:
    """Whether numpy dtype `dt` is a float: numpy's own, or bf16 / float8 of ml_dtypes
    (whose numpy kind is "V" or "f")."""
    return dt.kind == "f" or _is_ml_float(dt)


def compute_dtype(dt: np.dtype) -> np.dtype:
    """The dtype an op computes in for inputs of `dt`: float32 for bf16 and the float8 types
    (each op casts them up and rounds its result once; module docstring), `dt` otherwise."""
    if not _is_ml_float(dt):
        return dt
    import numpy as np

    return np.dtype(np.float32)


def float_info(dt: np.dtype) -> np.finfo:
    """numpy's finfo of a float dtype, ml_dtypes' for bf16 and the float8 types."""
    if dt.num < _NPY_USERDEF:  # numpy's own: ml_dtypes stays unloaded
        import numpy as np

        return np.finfo(dt)
    import ml_dtypes

    return ml_dtypes.finfo(dt)
