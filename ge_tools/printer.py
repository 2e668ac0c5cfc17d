"""The tools' IR printer: xDSL's Printer, the same text written in fewer calls.

xDSL 0.74's Printer writes a string literal one byte at a time (`print_bytes_literal`:
one `print_string`, so one `print()` call, per character), and every `print_string` goes
through the builtin `print`. Every GE node carries its name and attributes as string
literals, so on a compiled graph that was about half of all writes. `GePrinter` builds
each literal with the same escapes first and writes it once, and writes a piece of text
without a newline with one `stream.write`; the text, and the line and column the printer
keeps, are what xDSL's Printer gives (tests/tools/test_compile_work.py compares them).

It also writes each attribute's text once: `attribute_text` keeps the text of every
attribute it printed (tensor types, AscGraph views, addresses and integers repeat on
every line of a compiled module), and the hot ops' print methods build their lines from
these texts (tests/tools/test_parse_print_work.py counts and compares them).

Weights are printed from their bytes, never expanded into Python numbers (xDSL's
DenseIntOrFPElementsAttr.print_builtin unpacks every element, twice, to test for a splat
and to print: about 25 bytes of Python objects per byte of weight). A `dense<...>` value
of at least RESOURCE_MIN_BYTES that is not a splat is printed as MLIR prints a
DenseResourceElementsAttr, `dense_resource<NAME> : tensor<...>`, its bytes written once,
in hex, streamed, in the module's resource section after the module (`{-#
dialect_resources: { builtin: { NAME: "0x<alignment><bytes>" } } #-}`, MLIR's format:
mlir/lib/IR/AsmPrinter.cpp, the blob's 4-byte alignment first); ge_tools/parse.py reads
it back bit-exact. `elide_limit` (--elide-large-elements N) prints a value of more than N
elements that is not a splat as MLIR's elided form, `dense_resource<__elided__> :
tensor<...>` (mlir-opt's --mlir-elide-elementsattrs-if-larger), which names its shape and
dtype and reads back without its data (ge_dialect/weights.py).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget

from ge_dialect.names import given_name
from ge_dialect.weights import ELIDED_HANDLE


def _escaped(byte: int) -> str:
    # xdsl/printer.py: Printer.print_bytes_literal (the same three cases)
    if byte == 0x5C:  # ord("\\")
        return "\\\\"
    if byte < 0x20 or byte > 0x7E or byte == 0x22:
        return f"\\{byte:02X}"
    return chr(byte)


_ESCAPES = tuple(_escaped(b) for b in range(256))
# The bytes a literal writes as themselves: printable ASCII but `"` and `\`.
_PLAIN = bytes(b for b in range(256) if _ESCAPES[b] == chr(b))


def _bytes_literal(bytestring: bytes) -> str:
    """The text xDSL's Printer.print_bytes_literal writes for `bytestring`."""
    if not bytestring.translate(None, _PLAIN):  # only bytes that stand for themselves
        return f'"{bytestring.decode("ascii")}"'
    return '"' + "".join(_ESCAPES[b] for b in bytestring) + '"'


def _equal_prints_same(a: Attribute) -> bool:
    """Whether every attribute equal to `a` prints as `a` does (equality is structural in
    xDSL; it is not the text for a float, as 0.0 == -0.0): the classes of the value memo.
    A dialect's attribute class says so with `PRINTS_BY_VALUE = True` (ge_dialect/npu.py:
    AddrAttr, ge_dialect/ascgraph.py: AscTensorType, AxisAttr)."""
    t = type(a)
    if t is TensorType:
        return isinstance(a.encoding, NoneAttr)  # pyright: ignore[reportAttributeAccessIssue]
    return t in _VALUE_KEYED or getattr(t, "PRINTS_BY_VALUE", False)


# Builtin classes whose parameters hold no float: equal attributes print the same text.
_VALUE_KEYED: frozenset[type[Attribute]] = frozenset({IntegerAttr, IntAttr, StringAttr})


# A dense value of at least this many bytes (and not a splat) is printed as a resource:
# 64 KiB, a 128x128 f32 weight; smaller ones stay inline, as xDSL prints them.
RESOURCE_MIN_BYTES = 64 * 1024
# The values xDSL's printer writes as a list of numbers; above, as hex (or a resource).
_LIST_MAX_ELEMENTS = 100
# Bytes of a blob converted to hex per write (the hex text is twice that).
_HEX_CHUNK = 1 << 18
_HANDLE_CHARS = re.compile(r"[^A-Za-z0-9_$.]")


def is_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """Whether every element of `attr` has the same bytes, compared in place (numpy views
    of the bytes, a block at a time: stops at the first block that differs)."""
    import numpy as np

    raw = attr.data.data
    size = attr.get_element_type().compile_time_size  # pyright: ignore[reportAttributeAccessIssue]
    if len(raw) <= size:
        return True
    word = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(size)
    if word is None or len(raw) % size:
        return raw == raw[:size] * (len(raw) // size)
    elems = np.frombuffer(raw, dtype=word)
    first = elems[0]
    block = _HEX_CHUNK // size
    return all(bool((elems[i : i + block] == first).all()) for i in range(0, elems.size, block))


def resource_blob_chunks(attr: DenseIntOrFPElementsAttr) -> Iterator[str]:
    """The text of `attr`'s resource blob, a piece at a time: `"0x`, its alignment (MLIR's
    blob header: the element size as a little-endian uint32), its bytes in upper-case hex,
    `"`."""
    raw = memoryview(attr.data.data)
    align = max(1, attr.get_element_type().compile_time_size)  # pyright: ignore[reportAttributeAccessIssue]
    yield '"0x' + align.to_bytes(4, "little").hex().upper()
    for i in range(0, len(raw), _HEX_CHUNK):
        yield raw[i : i + _HEX_CHUNK].hex().upper()
    yield '"'


@dataclass(eq=False, repr=False)
class GePrinter(Printer):
    """xDSL's Printer with string literals written whole and attribute texts kept (see
    the module docstring)."""

    keeps_texts: ClassVar[bool] = True  # ge_dialect/attrs.py: keeping

    # id(attribute) -> (attribute, its text): the entry holds the attribute, so no other
    # object has its id while the printer lives.
    _texts_by_id: dict[int, tuple[Attribute, str]] = field(default_factory=dict[int, tuple[Attribute, str]], init=False)
    # attribute -> text, for the classes where equal attributes print the same text
    _texts_by_value: dict[Attribute, str] = field(default_factory=dict[Attribute, str], init=False)
    # attributes whose text is not kept (held, as the entries above)
    _unkept: dict[int, Attribute] = field(default_factory=dict[int, Attribute], init=False)
    # The dialects' print methods keep texts they build from immutable attributes here
    # (ge_dialect/attrs.py: ge_attr_dict_text): key -> (what the key names by id, text).
    kept_texts: dict[Hashable, tuple[object, str]] = field(
        default_factory=dict[Hashable, tuple[object, str]], init=False
    )
    # attribute texts printed (misses) and reused (hits): tests count them
    text_misses: int = field(default=0, init=False)
    text_hits: int = field(default=0, init=False)
    # --elide-large-elements N: a dense value of more than N elements (not a splat) is
    # printed elided (module docstring); None: never
    elide_limit: int | None = None
    # whether large values go to the resource section (else inline hex, as xDSL prints)
    use_resources: bool = True
    # the values printed as resources: id -> (handle, value), in the order first printed
    resources: dict[int, tuple[str, DenseIntOrFPElementsAttr]] = field(
        default_factory=dict[int, tuple[str, DenseIntOrFPElementsAttr]], init=False
    )
    _handles: set[str] = field(default_factory=set[str], init=False)
    _current_op: Operation | None = field(default=None, init=False)

    def print_op(self, op: Operation) -> None:
        outer, self._current_op = self._current_op, op  # names a resource after its node
        try:
            super().print_op(op)
        finally:
            self._current_op = outer

    def dense_text(self, attr: DenseIntOrFPElementsAttr) -> str | None:
        """The text of a dense value, from its bytes: elided, a resource, or xDSL's text
        (a list of numbers up to 100 elements and a splat, computed from one element;
        else `dense<"0x...">`); None for xDSL's own print (small or odd values)."""
        n = len(attr)
        if n <= _LIST_MAX_ELEMENTS and (self.elide_limit is None or n <= self.elide_limit):
            return None  # xDSL's text: a few numbers
        t = attr.get_type()
        type_text = self.attribute_text(t)
        if type_text is None or not isinstance(t, TensorType):
            return None
        if is_splat(attr):
            size = attr.get_element_type().compile_time_size  # pyright: ignore[reportAttributeAccessIssue]
            one = DenseIntOrFPElementsAttr(t, BytesAttr(attr.data.data[:size]))  # pyright: ignore[reportUnknownArgumentType]
            # xDSL prints a splat as its one element: this one-element value prints the same
            return self.text_of(lambda: Printer.print_attribute(self, one))
        if self.elide_limit is not None and n > self.elide_limit:
            return f"dense_resource<{ELIDED_HANDLE}> : {type_text}"
        if not self.use_resources or len(attr.data.data) < RESOURCE_MIN_BYTES:
            return f'dense<"0x{attr.data.data.hex().upper()}"> : {type_text}'
        entry = self.resources.get(id(attr))
        if entry is None:
            entry = (self._new_handle(), attr)
            self.resources[id(attr)] = entry
        return f"dense_resource<{entry[0]}> : {type_text}"

    def _new_handle(self) -> str:
        """A resource handle named after the node being printed (a bare identifier, unique
        in this print: `W`, `W_1`, ...)."""
        op = self._current_op
        name = (given_name(op) if op is not None else None) or "weight"
        base = _HANDLE_CHARS.sub("_", name)
        if not base[0].isalpha() and base[0] != "_":
            base = "_" + base
        handle, k = base, 0
        while handle in self._handles or handle == ELIDED_HANDLE:
            k += 1
            handle = f"{base}_{k}"
        self._handles.add(handle)
        return handle

    def print_resources(self) -> None:
        """The resource section of the values printed as resources (none: nothing), each
        blob streamed in hex (MLIR's layout: one `NAME: "0x..."` per line)."""
        if not self.resources:
            return
        write = self.stream.write  # pyright: ignore[reportOptionalMemberAccess]
        write("\n\n{-#\n  dialect_resources: {\n    builtin: {\n")
        entries = list(self.resources.values())
        for k, (handle, attr) in enumerate(entries):
            write(f"      {handle}: ")
            for piece in resource_blob_chunks(attr):
                write(piece)
            write(",\n" if k + 1 < len(entries) else "\n")
        write("    }\n  }\n#-}")

    def attribute_text(self, attribute: Attribute) -> str | None:
        """The text `print_attribute(attribute)` writes, without writing it, kept for the
        next time; None (and nothing written) when it is not a text to keep (`text_of`)."""
        e = self._texts_by_id.get(id(attribute))
        if e is not None:
            self.text_hits += 1
            return e[1]
        if self.printing_location or id(attribute) in self._unkept:
            return None
        by_value = _equal_prints_same(attribute)
        if by_value:
            text = self._texts_by_value.get(attribute)
            if text is not None:
                self._texts_by_id[id(attribute)] = (attribute, text)
                self.text_hits += 1
                return text
        if type(attribute) is StringAttr:
            # xdsl builtin.py: StringAttr.print_builtin prints the string literal of its
            # data, one line (every control character is escaped): no buffer needed
            text = _bytes_literal(attribute.data.encode("utf-8"))
        elif type(attribute) is DenseIntOrFPElementsAttr and (dense := self.dense_text(attribute)) is not None:
            text = dense
        else:
            text = self.text_of(lambda: Printer.print_attribute(self, attribute))
        if text is None:
            self._unkept[id(attribute)] = attribute
            return None
        self.text_misses += 1
        self._texts_by_id[id(attribute)] = (attribute, text)
        if by_value:
            self._texts_by_value[attribute] = text
        return text

    def text_of(self, print_fn: Callable[[], object]) -> str | None:
        """What `print_fn()` prints, printed into a buffer, with the printer's state put
        back (nothing was written): the same calls, so the same text. None when that text
        cannot be written by one `print_string` later with the same effect: a newline
        (indentation, next-line callbacks), a dialect resource registered (print_metadata
        lists them), a location being printed. Relies on xDSL 0.74's Printer state
        (`stream`, `_current_column`, `_current_line`, `_dialect_resources`,
        `_next_line_callback`, `printing_location`): tests/tools/test_parse_print_work.py
        compares GePrinter's text, line and column with xDSL's Printer's."""
        stream, column, line = self.stream, self._current_column, self._current_line
        resources = {d: set(h) for d, h in self._dialect_resources.items()}
        callbacks = list(self._next_line_callback)
        buffer = io.StringIO()
        self.stream = buffer
        try:
            print_fn()
        finally:
            self.stream = stream
        text = buffer.getvalue()
        kept = (
            "\n" not in text
            and self._current_line == line
            and self._dialect_resources == resources
            and not self.printing_location
        )
        self._current_column, self._current_line = column, line
        self._dialect_resources, self._next_line_callback = resources, callbacks
        return text if kept else None

    def print_attribute(self, attribute: Attribute) -> None:
        text = self.attribute_text(attribute)
        if text is None and type(attribute) is DenseIntOrFPElementsAttr:
            text = self.dense_text(attribute)  # never xDSL's print of a large value
        if text is None:
            super().print_attribute(attribute)
        else:
            self.print_string(text)

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # xdsl/printer.py: Printer.print_attr_dict and _print_attr_string, its entries'
        # texts kept (the keys' and the values'), the dict written at once
        parts: list[str] = []
        for name, a in attr_dict.items():
            key = self.kept_texts.get(("attr-key", name))
            if key is None:
                text = self.text_of(lambda: self.print_identifier_or_string_literal(name))  # noqa: B023
                if text is None:
                    super().print_attr_dict(attr_dict)
                    return
                self.kept_texts["attr-key", name] = (None, text)
                key = (None, text)
            if isinstance(a, UnitAttr):
                parts.append(key[1])
                continue
            value = self.attribute_text(a)
            if value is None:
                super().print_attr_dict(attr_dict)
                return
            parts.append(f"{key[1]} = {value}")
        self.print_string("{" + ", ".join(parts) + "}")

    def print_bytes_literal(self, bytestring: bytes) -> None:
        # no escape writes a newline, so this is print_string's one-line case
        self.print_string(_bytes_literal(bytestring))

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        # base_printer.py: BasePrinter.print_string, its case without a newline, written
        # directly (print(text, end="", file=stream) writes the same text)
        if self.stream is not None and "\n" not in text:
            self._current_column += len(text)
            self.stream.write(text)
            return
        super().print_string(text, indent=indent)


@dataclass(frozen=True)
class GeMLIRTarget(MLIRTarget):
    """ge-opt's `mlir` target: xDSL's MLIRTarget printing with GePrinter (the syntax
    highlighting printer, --syntax-highlight, stays xDSL's); `elide_large_elements`: see
    GePrinter.elide_limit."""

    elide_large_elements: int | None = None

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax_highlight:
            super().emit(ctx, module, output)
            return
        # xdsl/targets/mlir.py: MLIRTarget.emit
        printer = GePrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.elide_limit = self.elide_large_elements
        printer.print_op(module)
        printer.print_resources()
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


def print_module(
    module: Operation, stream: IO[str], elide_limit: int | None = None, print_generic_format: bool = False
) -> None:
    """`module` as the tools print it (GePrinter, then its resource section), written to
    `stream` as it is made: a weight's hex is never one string."""
    printer = GePrinter(stream=stream, print_generic_format=print_generic_format, elide_limit=elide_limit)
    printer.print_op(module)
    printer.print_resources()
