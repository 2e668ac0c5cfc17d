"""The tools' IR printer: xDSL's Printer with the tools' weights (`ResourcePrinter`),
written by ge_fast's FastPrinter while ge_fast's switch is on (`GePrinter`: string
literals written whole, attribute texts kept; ge_fast/printer.py). Both print the same
text (tests/ge_fast/test_seam.py); what follows is the text, a feature of the tools.

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget

from ge_dialect.names import given_name
from ge_dialect.weights import ELIDED_HANDLE
from ge_fast import SWITCH
from ge_fast.printer import FastPrinter

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
class ResourcePrinter(Printer):
    """xDSL's Printer with the tools' weights (module docstring: large values as
    resources, elided values, values printed from their bytes): the printer of the tools
    with ge_fast's switch off, and the base of GePrinter."""

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

    def attribute_text(self, attribute: Attribute) -> str | None:
        """The text xDSL's Printer writes for `attribute` (GePrinter keeps it)."""
        out = io.StringIO()
        Printer(stream=out).print_attribute(attribute)
        return out.getvalue()

    def print_attribute(self, attribute: Attribute) -> None:
        text = self.dense_text(attribute) if type(attribute) is DenseIntOrFPElementsAttr else None
        if text is None:
            super().print_attribute(attribute)
        else:
            self.print_string(text)

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
            out = io.StringIO()
            Printer(stream=out).print_attribute(one)
            return out.getvalue()
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


@dataclass(eq=False, repr=False)
class GePrinter(FastPrinter, ResourcePrinter):
    """The tools' printer: ResourcePrinter's text, written by ge_fast's FastPrinter."""


def printer_class() -> type[ResourcePrinter]:
    """The tools' printer class: GePrinter, or ResourcePrinter with ge_fast's switch off."""
    return GePrinter if SWITCH.on else ResourcePrinter


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
        printer = printer_class()(
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
    printer = printer_class()(stream=stream, print_generic_format=print_generic_format, elide_limit=elide_limit)
    printer.print_op(module)
    printer.print_resources()
