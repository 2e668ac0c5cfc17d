"""The tools' IR printer: xDSL's Printer, the same text written in fewer calls.

xDSL 0.74's Printer writes a string literal one byte at a time (`print_bytes_literal`:
one `print_string`, so one `print()` call, per character), and every `print_string` goes
through the builtin `print`. Every GE node carries its name and attributes as string
literals, so on a compiled graph that was about half of all writes. `GePrinter` builds
each literal with the same escapes first and writes it once, and writes a piece of text
without a newline with one `stream.write`; the text, and the line and column the printer
keeps, are what xDSL's Printer gives (tests/tools/test_compile_work.py compares them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget


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


class GePrinter(Printer):
    """xDSL's Printer with string literals written whole (see the module docstring)."""

    def print_bytes_literal(self, bytestring: bytes) -> None:
        if not bytestring.translate(None, _PLAIN):  # only bytes that stand for themselves
            body = bytestring.decode("ascii")
        else:
            body = "".join(_ESCAPES[b] for b in bytestring)
        # no escape writes a newline, so this is print_string's one-line case
        self.print_string(f'"{body}"')

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
    highlighting printer, --syntax-highlight, stays xDSL's)."""

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
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)
