"""Weights as byte buffers: a constant's value read as a numpy view of its bytes.

A `dense<...>` value (xDSL's DenseIntOrFPElementsAttr) holds its elements as one `bytes`
object in the element type's own little-endian layout (i1: one byte, 0 or -1; bf16 and
the float8 types: ml_dtypes' encoding). `weight_array` reads those bytes in place
(`numpy.frombuffer`: no copy, read-only), so a 200 MB weight is never expanded into
Python numbers, as xDSL's `get_values()` would (a float object per element, about 25
times the bytes). GE keeps a weight as the bytes of its GeTensor the same way
(graph/ge_tensor.cc: GeTensor::SetData) and copies it once, into device memory, at load
(davinci_model.cc: DavinciModel::InitWeightMem).

`ElidedValue` is a value printed without its data (`--elide-large-elements N`, as
mlir-opt's --mlir-elide-elementsattrs-if-larger: `dense_resource<__elided__> :
tensor<...>`). It reads back so that a module can be looked at, but anything that needs
the bytes (the reference interpreter, lowering a weight, the simulator, folding) gets
`elided_error`: one located error line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr, IntegerType, ShapedType
from xdsl.ir import Attribute, Operation

from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import numpy_dtype

if TYPE_CHECKING:
    import numpy as np

# The resource handle MLIR prints for an elided elements attribute
# (mlir/lib/IR/AsmPrinter.cpp: printElidedElementsAttr).
ELIDED_HANDLE = "__elided__"


def is_elided(attr: Attribute | None) -> bool:
    """Whether `attr` is a value printed without its data (`dense_resource<__elided__>`)."""
    return isinstance(attr, DenseResourceAttr) and attr.resource_handle.data == ELIDED_HANDLE


def elided_error(op: Operation, attr: DenseResourceAttr) -> LocatedError:
    """The error for `op`, whose value `attr` was elided, where its data is needed."""
    return LocatedError(
        op,
        f"its value {attr.type} was elided when the module was printed (dense_resource<{ELIDED_HANDLE}>): "
        "the data is not in this file; write the module without --elide-large-elements "
        "(a file or a pipe gets the whole data by default)",
    )


def weight_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The elements of `attr` as an array of its type's numpy dtype and shape: a read-only
    view of the attribute's bytes (i1 is the one copy: bytes 0 / -1 as bool)."""
    import numpy as np

    t = attr.get_type()
    assert isinstance(t, ShapedType)
    et = attr.get_element_type()
    raw = attr.data.data
    if isinstance(et, IntegerType) and et.width.data == 1:
        arr = np.frombuffer(raw, dtype=np.int8) != 0
    else:
        arr = np.frombuffer(raw, dtype=numpy_dtype(et))
    return arr.reshape(tuple(t.get_shape()))


def weight_bytes(arr: np.ndarray) -> bytes:
    """The bytes of C-contiguous `arr`: the `bytes` object it is a whole view of when there
    is one (an ONNX initializer's raw data, a value read back from a resource), so that a
    weight keeps one buffer from the file to the IR; else one copy."""
    owner: object = arr
    while owner is not None and not isinstance(owner, bytes):
        owner = getattr(owner, "base", None)
    if isinstance(owner, bytes) and arr.flags.c_contiguous and len(owner) == arr.nbytes:
        import numpy as np

        if np.frombuffer(owner, dtype=np.uint8).ctypes.data == arr.ctypes.data:
            return owner
    return arr.tobytes()


def const_value_array(op: Operation, attr: Attribute | None) -> np.ndarray | None:
    """The value of constant `op` (`attr`, its `value`) as weight_array reads it; None when
    it has no dense value; elided_error when the value was elided."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return weight_array(attr)
    if is_elided(attr):
        assert isinstance(attr, DenseResourceAttr)
        raise elided_error(op, attr)
    return None
