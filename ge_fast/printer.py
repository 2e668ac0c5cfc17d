"""The printer's fast paths: replaces xdsl/printer.py's Printer.print_bytes_literal (one
`print_string` per character) with each literal built and written once, BasePrinter.
print_string's builtin `print` with one `stream.write`, and keeps the text of every
attribute printed (`attribute_text`: tensor types, AscGraph views, addresses and integers
repeat on every line of a compiled module), from which the hot ops' print methods build
their lines (ge_dialect/attrs.py: `keeping`, KeepsTexts). The text, and the line and column
the printer keeps, are what xDSL's Printer gives: tests/tools/test_compile_work.py and
tests/tools/test_parse_print_work.py compare them on every lit input, generated and
compiled graphs. It relies on xDSL 0.74's Printer state (`_current_column`,
`_current_line`, `_dialect_resources`, `_next_line_callback`, `printing_location`).
The tools print with it while the switch is on (ge_tools/printer.py: printer_class).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, cast

from xdsl.dialects.builtin import IntAttr, IntegerAttr, NoneAttr, StringAttr, TensorType, UnitAttr
from xdsl.ir import Attribute
from xdsl.printer import Printer


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


class KeepsTexts(Protocol):
    """A printer that keeps the texts of what it printed (FastPrinter; ge_tools/printer.py:
    GePrinter, the tools' printer while the switch is on): the hot ops' print methods
    (ge_dialect/attrs.py: ge_attr_dict_text, ge_dialect/npu.py, ascgraph.py) build a line
    from kept texts and write it at once. With any other printer (xDSL's own, or the
    tools' with the switch off) they print piece by piece, as xDSL would, and
    tests/tools/test_parse_print_work.py compares the two texts."""

    kept_texts: dict[Hashable, tuple[object, str]]

    def attribute_text(self, attribute: Attribute) -> str | None: ...

    def text_of(self, print_fn: Callable[[], object]) -> str | None: ...

    def print_identifier_or_string_literal(self, text: str) -> None: ...


def keeping(printer: Printer) -> KeepsTexts | None:
    """`printer` as a KeepsTexts (its class says `keeps_texts = True`), or None."""
    return cast(KeepsTexts, printer) if getattr(printer, "keeps_texts", False) else None


@dataclass(eq=False, repr=False)
class FastPrinter(Printer):
    """xDSL's Printer with string literals written whole and attribute texts kept (a
    mixin: the printer after it in the MRO prints what is not kept, as it would alone)."""

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
        else:
            # what the printer after this one in the MRO prints (its own texts, e.g. the
            # tools' weights, included)
            text = self.text_of(lambda: super(FastPrinter, self).print_attribute(attribute))
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
        lists them), a location being printed."""
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
