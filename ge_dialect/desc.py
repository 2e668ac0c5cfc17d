"""GE tensor descriptors on builtin tensors: the `#ge.desc<...>` encoding.

A GE tensor desc has an origin (logical) shape and format and a storage (runtime) shape
and format (`graph_metadef/graph/ge_tensor.cc`: GeTensorDesc::GetOriginShape/GetShape).
The tensor type's shape is the origin shape; the encoding carries the rest:

    tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
    tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 1, 4, 1, 16], reshape_type_mask = 9>>

No encoding means ND for both. The storage shape is derived from the format rules in
`formats.py` unless written out; when it cannot be derived it must be written out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntAttr,
    NoneAttr,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ge_dialect import formats, memo
from ge_dialect.dtypes import ge_dtype_name, tensor_size_in_bytes
from ge_dialect.shapes import fmt_dims

ND = "ND"


@irdl_attr_definition
class GeDescAttr(ParametrizedAttribute):
    """`#ge.desc<STORAGE_FORMAT, origin = ORIGIN_FORMAT, shape = [...], reshape_type_mask = M>`"""

    name = "ge.desc"

    storage_format: StringAttr
    origin_format: StringAttr
    storage_shape: ArrayAttr[IntAttr]  # empty: derived from the format rules
    reshape_type_mask: IntAttr

    def __init__(
        self,
        storage_format: str,
        origin_format: str = ND,
        storage_shape: Sequence[int] = (),
        reshape_type_mask: int = 0,
    ):
        super().__init__(
            StringAttr(storage_format),
            StringAttr(origin_format),
            ArrayAttr([IntAttr(d) for d in storage_shape]),
            IntAttr(reshape_type_mask),
        )

    @staticmethod
    def _format_error(fmt: str) -> str | None:
        if fmt in formats.KNOWN_FORMATS:
            return None
        return f"unknown GE format '{fmt}' (known: {', '.join(formats.KNOWN_FORMATS)})"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            storage = parser.parse_identifier("GE storage format")
            if (err := cls._format_error(storage)) is not None:
                parser.raise_error(err, start, parser.pos)
            origin, shape, mask = ND, [], 0
            seen: set[str] = set()
            while parser.parse_optional_punctuation(","):
                kstart = parser.pos
                key = parser.parse_identifier("'origin', 'shape' or 'reshape_type_mask'")
                if key in seen:
                    parser.raise_error(f"'{key}' given twice", kstart, parser.pos)
                seen.add(key)
                parser.parse_punctuation("=")
                vstart = parser.pos
                if key == "origin":
                    origin = parser.parse_identifier("GE origin format")
                    if (err := cls._format_error(origin)) is not None:
                        parser.raise_error(err, vstart, parser.pos)
                elif key == "shape":
                    shape = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
                    if any(d < 0 for d in shape):
                        parser.raise_error("storage shape dims must be >= 0", vstart, parser.pos)
                elif key == "reshape_type_mask":
                    mask = parser.parse_integer()
                    if mask < 0:
                        parser.raise_error("reshape_type_mask must be >= 0", vstart, parser.pos)
                else:
                    parser.raise_error(
                        f"unknown #ge.desc field '{key}' (expected origin, shape or reshape_type_mask)",
                        kstart,
                        parser.pos,
                    )
        return (
            StringAttr(storage),
            StringAttr(origin),
            ArrayAttr([IntAttr(d) for d in shape]),
            IntAttr(mask),
        )

    def print_parameters(self, printer: Printer) -> None:
        parts = [self.storage_format.data]
        if self.origin_format.data != ND:
            parts.append(f"origin = {self.origin_format.data}")
        if self.storage_shape.data:
            dims = ", ".join(str(d.data) for d in self.storage_shape.data)
            parts.append(f"shape = [{dims}]")
        if self.reshape_type_mask.data:
            parts.append(f"reshape_type_mask = {self.reshape_type_mask.data}")
        printer.print_string("<" + ", ".join(parts) + ">")

    def verify(self) -> None:
        for fmt in (self.storage_format.data, self.origin_format.data):
            if (err := self._format_error(fmt)) is not None:
                raise VerifyException(err)


@dataclass(frozen=True)
class TensorDesc:
    """GE's GeTensorDesc as seen by the passes. Unknown dims are -1; unknown rank is None."""

    shape: tuple[int, ...] | None  # origin shape
    dtype: Attribute
    origin_format: str
    storage_format: str
    storage_shape: tuple[int, ...] | None  # runtime shape; None when unknown
    reshape_type_mask: int

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def is_unknown_shape(self) -> bool:
        """GE's IsUnknownShape: -1 or -2 anywhere in the runtime shape."""
        if self.shape is None or self.storage_shape is None:
            return True
        return any(d < 0 for d in self.shape) or any(d < 0 for d in self.storage_shape)

    @property
    def size_in_bytes(self) -> int | None:
        """Bytes of the runtime tensor (GE: GetSizeInBytes(shape_size, dtype))."""
        if self.is_unknown_shape:
            return None
        assert self.storage_shape is not None
        return tensor_size_in_bytes(self.storage_shape, self.dtype)


def _shape_of(t: TensorType) -> tuple[int, ...]:
    return tuple(-1 if d == DYNAMIC_INDEX else d for d in t.get_shape())


_DESCS: memo.IdentityTable[Attribute, TensorDesc] = memo.table()
_SHAPES: memo.IdentityTable[TensorType[Attribute], tuple[int, ...]] = memo.table()


def tensor_desc(t: Attribute) -> TensorDesc:
    """The GE desc of a value type. Raises VerifyException when the desc is inconsistent.
    Kept per type object (ge_dialect/memo.py), else per equal type (an LRU cache)."""
    return _DESCS.keep(t, _tensor_desc) if memo.ENABLED else _tensor_desc(t)


@lru_cache(maxsize=4096)
def _tensor_desc(t: Attribute) -> TensorDesc:
    if isinstance(t, UnrankedTensorType):
        return TensorDesc(None, t.element_type, ND, ND, None, 0)
    if not isinstance(t, TensorType):
        raise VerifyException(f"GE values must be tensors, got {t}")
    shape = _shape_of(t)
    enc = t.encoding
    if isinstance(enc, NoneAttr):
        return TensorDesc(shape, t.element_type, ND, ND, shape, 0)
    if not isinstance(enc, GeDescAttr):
        raise VerifyException(f"tensor encoding must be #ge.desc<...>, got {enc}")
    origin, storage = enc.origin_format.data, enc.storage_format.data
    mask = enc.reshape_type_mask.data
    explicit = tuple(d.data for d in enc.storage_shape.data)
    if any(d < 0 for d in shape):
        return TensorDesc(shape, t.element_type, origin, storage, explicit or None, mask)
    derived = formats.storage_shape(origin, storage, shape, t.element_type, mask)
    if explicit:
        if derived is not None and tuple(derived) != explicit:
            raise VerifyException(
                f"storage shape {fmt_dims(explicit)} of {storage} does not match "
                f"{fmt_dims(derived)} derived from origin {origin} "
                f"{'x'.join(map(str, shape))}"
            )
        storage_shape = explicit
    elif derived is not None:
        storage_shape = tuple(derived)
    else:
        raise VerifyException(
            f"cannot derive the {storage} storage shape from origin {origin} "
            f"{'x'.join(map(str, shape)) or 'scalar'} ({ge_dtype_name(t.element_type)}); "
            "write it with shape = [...]"
        )
    return TensorDesc(shape, t.element_type, origin, storage, storage_shape, mask)


def shape_of(t: Attribute) -> tuple[int, ...] | None:
    """Origin shape of a value type: -1 for unknown dims, None for unknown rank (kept per
    type object, ge_dialect/memo.py)."""
    if not isinstance(t, TensorType):
        return None
    return _SHAPES.keep(t, _shape_of) if memo.ENABLED else _shape_of(t)
