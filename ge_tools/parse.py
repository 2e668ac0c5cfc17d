"""Parsing ge IR text: located ops and one-line errors (the project's parser, shared by
the API (ge_tools/api.py) and the tools ge-opt, ge-run and ge-import).

`parse_module` reads text or bytes into a module whose ops carry `FileLineColLoc`s;
every bad input is one `UserError` line `NAME:LINE:COL: error: ...`. `LocatedParser` is
xDSL's Parser with those locations and with `GeLexer`, a lexer without xDSL's
exponential string-literal regex.

Weights: the module's resource section (`{-# dialect_resources: { builtin: { NAME:
"0x..." } } #-}`, after the module, as ge_tools/printer.py writes it) is read first, each
blob decoded from its hex a block at a time into one `bytes` object (`ResourceReader`;
from a file, `read_ir_file`, through a memory map whose pages are let go once decoded),
and `dense_resource<NAME> : tensor<...>` reads as the `dense<...>` value holding those
bytes: bit-exact, never Python numbers. xDSL keeps resource blobs as hex strings in
the builtin dialect's interface, shared by every parse; here they belong to the one
parse. `dense_resource<__elided__>` (an elided value, ge_dialect/weights.py) reads back
without data.
"""

from __future__ import annotations

import binascii
import io
import math
import mmap
import os
import re
import stat
import string
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation, SSAValue, TypedAttribute
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind, StringLiteral

from ge_dialect.diagnostics import LocatedError, one_line
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.names import adopt_parsed_name
from ge_dialect.weights import ELIDED_HANDLE
from ge_fast.lexer import FastLexer
from ge_fast.parser import FastParser


class LinearStringLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal rule that runs in linear time (a feature:
    on whatever ge_fast's switch says, since xDSL's would never finish on a bad input).

    xDSL 0.74 matches a string literal with one regex whose repeated group holds a
    repeated character class: when the closing quote is missing, the regex engine tries
    every way to split the characters among the repetitions, exponentially many
    (`{group = "hccl_world_group}` and 40 more characters never finish). Here the body
    is matched possessively (nothing is ever re-tried), then the character it stopped at
    says what is wrong: a line end or the end of the file (not closed) or a backslash
    (an unknown escape).
    """

    # Python >= 3.11 possessive quantifiers: no backtracking into the body.
    _string_body = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+')

    def _lex_string_literal(self, start_pos: int) -> MLIRToken:
        content = self.input.content
        m = self._string_body.match(content, start_pos)
        assert m is not None  # the body may be empty; the opening quote is there
        end = m.end()
        stop = content[end] if end < len(content) else ""
        if stop != '"':
            after = content[end + 1 : end + 2]
            if stop == "\\" and after not in ("", "\n", "\v", "\f"):
                bad = content[end : end + (3 if after in string.hexdigits else 2)]
                raise ParseError(
                    Span(end, end + len(bad), self.input),
                    f"unknown escape '{bad}' in string literal (valid: \\n \\t \\\\ \\\" and two hex digits)",
                )
            where = "the end of the file" if end >= len(content) - (stop == "\\") else "the end of its line"
            raise ParseError(
                Span(start_pos, start_pos + 1, self.input),
                f"string literal is not closed: no '\"' before {where}",
            )
        self.pos = end + 1
        lit = StringLiteral(start_pos, self.pos, self.input)
        if "\\" not in lit.text or lit.bytes_contents.isascii():
            return Token(MLIRTokenKind.STRING_LIT, lit)
        return Token(MLIRTokenKind.BYTES_LIT, lit)

    def _lex_prefixed_ident(self, start_pos: int) -> MLIRToken:
        # xDSL's message misses its f-string ("Expected suffix identifier after {first_char}").
        try:
            return super()._lex_prefixed_ident(start_pos)
        except ParseError as e:
            prefix = self.input.content[start_pos]
            raise ParseError(e.span, f"expected a name after '{prefix}' (digits, or a letter or $._- first)") from None


class GeLexer(FastLexer, LinearStringLexer):
    """The tools' lexer: LinearStringLexer's rules, its common tokens lexed by one regex
    (ge_fast/lexer.py)."""


# How deep brackets ( [ { < may nest. xDSL's parser, verifier and printer recurse once per
# level (about ten Python frames each), so far deeper input would end in a RecursionError;
# real GE IR nests fewer than twenty levels (module, graph, fused kernel, attribute, type).
MAX_NESTING = 64

# What the nesting check skips: string literals (closed or not), comments and `->`.
_NOT_BRACKETS = re.compile(r'"(?:[^"\\\n]++|\\.)*+"?|//[^\n]*+|->|[^\[\](){}<>"/-]++|[/-]')
_BRACKET_DEPTH = {"(": 1, "[": 1, "{": 1, "<": 1, ")": -1, "]": -1, "}": -1, ">": -1}


def _nesting_error(text: str) -> int | None:
    """Position of the first bracket nested deeper than MAX_NESTING, or None. Linear: the
    brackets outside strings and comments are extracted by one regex, their running depth
    summed in C; the position is searched for only when the limit is exceeded."""
    brackets = _NOT_BRACKETS.sub("", text)
    if len(brackets) <= MAX_NESTING:
        return None
    depths = accumulate(map(_BRACKET_DEPTH.__getitem__, brackets), lambda a, d: max(a + d, 0))
    if max(depths) <= MAX_NESTING:
        return None
    depth, pos = 0, 0
    while True:
        m = _NOT_BRACKETS.match(text, pos)
        if m is not None:
            pos = m.end()
            continue
        depth = max(depth + _BRACKET_DEPTH[text[pos]], 0)
        if depth > MAX_NESTING:
            return pos
        pos += 1


# Byte-order marks of encodings that are not UTF-8 (longest first: UTF-32 LE starts as UTF-16 LE).
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 little-endian"),
    (b"\x00\x00\xfe\xff", "UTF-32 big-endian"),
    (b"\xff\xfe", "UTF-16 little-endian"),
    (b"\xfe\xff", "UTF-16 big-endian"),
)


def decode_input(data: str | bytes, name: str, line_offset: int = 0) -> str:
    """The input as text: UTF-8, else a UserError located at the first byte that is not
    UTF-8 (MLIR source is UTF-8). A UTF-8 byte-order mark is read as a blank, so that
    columns stay those of the file."""
    if isinstance(data, str):
        return data
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise UserError(
                f"{name}:{1 + line_offset}:1: error: the file is {encoding} text (byte-order mark "
                f"{bom.hex(' ').upper()}); MLIR input must be UTF-8"
            )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1 + line_offset
        col = len(data[line_start : e.start].decode("utf-8")) + 1
        hint = "; this file looks binary" if b"\x00" in data[:4096] else ""
        if name.lower().endswith(".onnx"):
            hint += " (an ONNX model? the tools read ge-dialect IR text)"
        raise UserError(
            f"{name}:{line}:{col}: error: byte 0x{data[e.start]:02X} is not valid UTF-8 ({e.reason}): "
            f"the input must be UTF-8 text{hint}"
        ) from None
    return " " + text[1:] if text.startswith("\ufeff") else text


INT64_MAX = 2**63 - 1


def host_memory_bytes() -> int | None:
    """The host's physical memory, or None when the OS does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _line_starts(text: str) -> list[int]:
    """The position where each line starts (one find per line, no quadratic counting)."""
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    return starts


def _location(line_starts: list[int], line_offset: int, pos: int) -> tuple[int, int]:
    line = bisect_right(line_starts, pos) - 1
    return line + 1 + line_offset, pos - line_starts[line] + 1


# -- the resource section -----------------------------------------------------------------

_BLANKS = b" \t\r\n"
_SCAN = 1 << 19  # bytes of hex decoded (or searched) per step (an even number)
_RESOURCE_TOKEN = re.compile(rb"\s*+(?:([A-Za-z_][A-Za-z0-9_$.]*+)|(\{-#|#-\}|[{}:,])|(\"0x))")


class ResourceError(Exception):
    """A malformed resource section: its position (in the whole input) and message."""

    def __init__(self, pos: int, message: str):
        super().__init__(message)
        self.pos = pos
        self.message = message


class ResourceReader:
    """The resource section at the end of `buf` (bytes, or a read-only mmap of the file:
    `release` lets its pages go once they are decoded, so that the hex never sits in
    memory whole), as MLIR writes it (mlir/lib/AsmParser/Parser.cpp:
    parseFileMetadataDictionary): `{-# dialect_resources: { builtin: { NAME: "0x<4-byte
    alignment><data>", ... } } #-}`. `start` is where it begins (None: no section)."""

    def __init__(self, buf: bytes | mmap.mmap):
        self.buf = buf
        self.start = self._find_start()

    def release(self, start: int, end: int) -> None:
        if isinstance(self.buf, mmap.mmap):
            page = mmap.PAGESIZE
            lo, hi = (start // page) * page, (end // page) * page
            if hi > lo:
                self.buf.madvise(mmap.MADV_DONTNEED, lo, hi - lo)

    def _find_start(self) -> int | None:
        buf, end = self.buf, len(self.buf)
        while end > 0 and buf[end - 1] in _BLANKS:
            end -= 1
        if end < 3 or buf[end - 3 : end] != b"#-}":
            return None
        pos = end
        while pos > 0:  # back to its `{-#`, a block at a time (hex holds no `{`)
            lo = max(0, pos - _SCAN)
            k = buf.rfind(b"{-#", lo, min(end, pos + 2))
            self.release(lo, end)
            if k >= 0:
                return k
            pos = lo
        return None

    def _token(self, pos: int, want: str) -> tuple[int, str]:
        m = _RESOURCE_TOKEN.match(self.buf, pos)  # pyright: ignore[reportCallIssue, reportArgumentType]
        if m is None:
            raise ResourceError(pos, f"expected {want} in the resource section")
        return m.end(), m.group().strip().decode()

    def _expect(self, pos: int, text: str) -> int:
        end, got = self._token(pos, f"'{text}'")
        if got != text:
            raise ResourceError(
                pos + len(self.buf[pos:end]) - len(got), f"expected '{text}' in the resource section, got '{got}'"
            )
        return end

    def blobs(self) -> dict[str, bytes]:
        """handle -> the blob's data (its alignment header checked and dropped)."""
        assert self.start is not None
        out: dict[str, bytes] = {}
        pos = self._expect(self.start, "{-#")
        end, key = self._token(pos, "dialect_resources")
        if key != "dialect_resources":
            raise ResourceError(pos, f"only dialect_resources are read, got '{key}'")
        pos = self._expect(self._expect(end, ":"), "{")
        end, dialect = self._token(pos, "a dialect name")
        if dialect != "builtin":
            raise ResourceError(pos, f"only the builtin dialect's resources are read, got '{dialect}'")
        pos = self._expect(self._expect(end, ":"), "{")
        while True:
            end, tok = self._token(pos, "a resource name or '}'")
            if tok == "}":
                pos = end
                break
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", tok):
                raise ResourceError(pos, f"expected a resource name, got '{tok}'")
            if tok in out:
                raise ResourceError(pos, f"resource '{tok}' is given twice")
            pos = self._expect(end, ":")
            end, q = self._token(pos, 'a blob "0x..."')
            if q != '"0x':
                raise ResourceError(pos, f"expected a blob \"0x...\", got '{q}'")
            out[tok], pos = self._blob(end)
            end, tok = self._token(pos, "',' or '}'")
            if tok == "}":
                pos = end
                break
            if tok != ",":
                raise ResourceError(pos, f"expected ',' or '}}' in the resource section, got '{tok}'")
            pos = end
        pos = self._expect(pos, "}")
        self._expect(pos, "#-}")
        return out

    def _blob(self, pos: int) -> tuple[bytes, int]:
        """The data of the hex blob starting at `pos` (after `"0x`) and the position after
        its closing quote. Two passes a block at a time: the closing quote, then the hex
        decoded into one buffer of the blob's size (BytesIO grown once; its getvalue hands
        that buffer over without a copy), each block's pages let go once read."""
        buf = self.buf
        header = bytes(buf[pos : pos + 8])
        try:
            align = int.from_bytes(binascii.unhexlify(header), "little") if len(header) == 8 else 0
        except binascii.Error:
            align = 0
        if align <= 0 or align & (align - 1):
            raise ResourceError(pos, "a resource blob starts with its alignment, a power of two (8 hex digits)")
        start = p = pos + 8
        while (stop := buf.find(b'"', p, p + _SCAN)) < 0:
            if p + _SCAN >= len(buf):
                raise ResourceError(pos - 3, "the resource blob is not closed (no '\"')")
            self.release(p, p + _SCAN)
            p += _SCAN
        self.release(p, stop)
        if (stop - start) % 2:
            raise ResourceError(stop, "the resource blob holds an odd number of hex digits")
        out = io.BytesIO()
        if stop > start:
            out.seek((stop - start) // 2 - 1)
            out.write(b"\0")  # the buffer at its final size, once
            out.seek(0)
        for p in range(start, stop, _SCAN):
            end = min(p + _SCAN, stop)
            try:
                out.write(binascii.unhexlify(memoryview(buf)[p:end]))  # pyright: ignore[reportArgumentType]
            except binascii.Error:
                raise ResourceError(p, "the resource blob holds a character that is not a hex digit") from None
            self.release(p, end)
        return out.getvalue(), stop + 1


def _resource_error(e: ResourceError, data: bytes | mmap.mmap, name: str, line_offset: int = 0) -> UserError:
    line, start = 1 + line_offset, 0
    while (k := data.find(b"\n", start, e.pos)) >= 0:  # (an mmap has no count)
        line, start = line + 1, k + 1
    return UserError(f"{name}:{line}:{e.pos - start + 1}: error: {e.message}")


def split_resources(data: bytes, name: str, line_offset: int = 0) -> tuple[bytes, dict[str, bytes]]:
    """The text before the resource section and its blobs (ResourceReader)."""
    reader = ResourceReader(data)
    if reader.start is None:
        return data, {}
    try:
        blobs = reader.blobs()
    except ResourceError as e:
        raise _resource_error(e, data, name, line_offset) from None
    return data[: reader.start], blobs


def read_ir_file(f: IO[bytes], name: str, cap: int) -> tuple[bytes, dict[str, bytes]]:
    """A file of IR text: the text before its resource section (refused beyond `cap`
    bytes, read_capped's error) and the section's blobs, read through a memory map whose
    pages are let go as the hex is decoded: a weight is in memory once, as bytes. Anything
    that cannot be mapped (a pipe, an empty file) is read whole, the cap on all of it."""

    try:
        st = os.fstat(f.fileno())
        regular = stat.S_ISREG(st.st_mode) and st.st_size > 0
    except (OSError, AttributeError, io.UnsupportedOperation):
        regular = False
    if not regular:
        return split_resources(read_capped(f, name, cap), name)
    with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        reader = ResourceReader(mm)
        head = reader.start if reader.start is not None else len(mm)
        if head > cap:
            what = f"{len(mm)} bytes" if reader.start is None else f"{head} bytes of text before its resource section"
            raise UserError(
                f"{name}: error: the input has {what}, more than the cap on an input's size, {cap} "
                "(raise it with --max-input-size SIZE)"
            )
        try:
            blobs = reader.blobs() if reader.start is not None else {}
        except ResourceError as e:
            raise _resource_error(e, mm, name) from None
        return mm[:head], blobs


class LocatedParser(FastParser):
    """A Parser that gives each op a FileLineColLoc (line table built once: no
    quadratic newline counting, see xdsl_guide.md §6.3), lexes with GeLexer, and reads
    bytes as UTF-8 with a located error. Constructing it may raise ParseError (the first
    token is lexed at once) or UserError (not UTF-8): parse_module reports both."""

    def __init__(
        self,
        ctx: Context,
        input: str | bytes,
        name: str,
        line_offset: int = 0,
        line_starts: list[int] | None = None,
        resources: dict[str, bytes] | None = None,
    ):
        # the blobs of the input's resource section (split_resources): handle -> bytes
        self.resources = resources or {}
        text = decode_input(input, name, line_offset)
        self._line_starts = line_starts if line_starts is not None else _line_starts(text)
        self._line_offset = line_offset
        self._file = StringAttr(name)
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(GeLexer(Input(text, name)))  # FastLexer: follows the switch
        # FastParser's memos of plain tensor types and plain dialect types (ge_fast/parser.py)
        self.plain_tensor_types: dict[str, Attribute] = {}
        self.dialect_types: dict[str, Attribute] = {}

    def location_of(self, pos: int) -> tuple[int, int]:
        return _location(self._line_starts, self._line_offset, pos)

    def current_location(self) -> str:
        line, col = self.location_of(self._current_token.span.start)
        return f"{self._file.data}:{line}:{col}"

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            line, col = self.location_of(start)
            op.location = FileLineColLoc(self._file, IntAttr(line), IntAttr(col))
        return op

    def _parse_dense_literal_type(self):  # type: ignore[no-untyped-def]
        # xDSL expands a splat `dense<v> : tensor<N...>` into a Python list of N values
        # before packing it: a huge N is a MemoryError (or an OOM kill) inside the parser.
        start = self._current_token.span.start
        t = super()._parse_dense_literal_type()
        count = math.prod(t.get_shape())
        size = getattr(t.element_type, "compile_time_size", 8)
        # tensor_utils.cc: CalcTensorMemSize / types.cc: GetSizeInBytes (int64 sizes)
        if count * size > INT64_MAX:
            self.raise_error(
                f"dense literal of {count} elements is larger than GE's int64 tensor size", start, self.pos
            )
        limit = host_memory_bytes()
        if limit is not None and count * (8 + size) > limit:
            self.raise_error(
                f"dense literal of {count} elements needs about {count * (8 + size)} bytes to build, "
                f"more than this host's {limit}",
                start,
                self.pos,
            )
        return t

    # A float element written as a hex integer is its bit pattern (MLIR's
    # TensorLiteralParser::getFloatAttrElements: a hex integer literal is a float's bits);
    # xDSL's printer writes NaN and infinities so in a dense list (`dense<[0x7fc00000,
    # 1.0]>`) but its parser reads them as integer values (2.14e9): each hex element's
    # position is recorded while the literal is parsed and its bits put back after.
    _dense_hex: list[tuple[int, int]] | None = None
    _dense_count = 0

    def parse_dense_int_or_fp_elements_attr(self, type):  # type: ignore[no-untyped-def]
        outer = (self._dense_hex, self._dense_count)
        self._dense_hex, self._dense_count = [], 0
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(type)
            hexes, count = self._dense_hex, self._dense_count
        finally:
            self._dense_hex, self._dense_count = outer
        et = attr.get_element_type()
        if not hexes or not isinstance(et, AnyFloat):
            return attr
        import numpy as np  # here only: a ge-opt run without such a literal loads no numpy

        arr = np.frombuffer(attr.data.data, dtype=numpy_dtype(et)).copy()
        bits = arr.view(np.dtype(f"<u{arr.dtype.itemsize}"))
        for i, b in hexes:
            if count == 1:  # a splat
                bits[:] = b
            else:
                bits[i] = b
        return DenseIntOrFPElementsAttr(attr.type, BytesAttr(arr.tobytes()))

    def _parse_tensor_literal_element(self):  # type: ignore[no-untyped-def]
        tok = self._current_token
        element = super()._parse_tensor_literal_element()
        if self._dense_hex is not None:
            if tok.kind == MLIRTokenKind.INTEGER_LIT and tok.text[:2].lower() == "0x":
                self._dense_hex.append((self._dense_count, int(tok.text, 16)))
            self._dense_count += 1
        return element

    def _parse_builtin_dense_resource_attr(self) -> TypedAttribute:  # pyright: ignore[reportIncompatibleMethodOverride]
        # `dense_resource<NAME> : tensor<...>`: the dense value holding the blob's bytes
        # (not xDSL's DenseResourceAttr, whose blob lives in a table every parse shares);
        # `__elided__`: the value printed without data (ge_dialect/weights.py)
        start = self._current_token.span.start
        self.parse_characters("<", " in dense_resource attribute")
        handle = self.parse_identifier(" for resource handle")
        self.parse_characters(">", " in dense_resource attribute")
        self.parse_characters(":", " in dense_resource attribute")
        t = self.parse_type()
        if not isinstance(t, TensorType):
            self.raise_error(f"dense_resource needs a tensor type, got {t}", start, self.pos)
        if handle == ELIDED_HANDLE:
            return DenseResourceAttr.from_params(handle, t)
        blob = self.resources.get(handle)
        if blob is None:
            self.raise_error(
                f"dense_resource<{handle}>: the file's resource section (dialect_resources: builtin) has no "
                f"blob '{handle}'",
                start,
                self.pos,
            )
        size = getattr(t.element_type, "compile_time_size", None)
        want = None if size is None else math.prod(t.get_shape()) * size
        if want is None or len(blob) != want:
            self.raise_error(
                f"dense_resource<{handle}>: its blob holds {len(blob)} bytes, {t} takes {want}", start, self.pos
            )
        return DenseIntOrFPElementsAttr(t, BytesAttr(blob))  # pyright: ignore[reportUnknownArgumentType]

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        super()._register_ssa_definition(name, values, span)
        adopt_parsed_name(values)  # a `name` attribute read back (generic form, mlir-opt)

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # xDSL reports an unknown op at the token after its name; point at the name.
        if (op_type := self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)) is not None:
            return op_type
        end = self._current_token.span.start
        start = self.lexer.input.content.rfind(name, 0, end)
        self.raise_error(f"Operation {name} is not registered", start if start >= 0 else end, end)


class UserError(Exception):
    """An error about the command line or the input, printed as one line."""


def parse_module(
    ctx: Context,
    data: str | bytes,
    name: str,
    offset: int = 0,
    implicit_module: bool = True,
    resources: dict[str, bytes] | None = None,
) -> ModuleOp:
    """Parse IR text with located ops (not verified); every bad input is a one-line
    UserError `NAME:LINE:COL: error: ...`: bytes that are not UTF-8, brackets nested deeper
    than MAX_NESTING, a syntax error (in time linear in the input: GeLexer), an attribute
    or type that fails its own checks. Shared by ge-opt and ge-run. The resource section
    at the end of `data` is read first (split_resources); `resources`: blobs already read
    from it (read_ir_file)."""
    if isinstance(data, str) and data.rstrip().endswith("#-}"):
        data = data.encode("utf-8", "surrogatepass")  # a str with a resource section: read as bytes
    if isinstance(data, bytes):
        data, found = split_resources(data, name, offset)
        resources = {**(resources or {}), **found}
    text = decode_input(data, name, offset)
    starts = _line_starts(text)

    def at(pos: int) -> str:
        line, col = _location(starts, offset, pos)
        return f"{name}:{line}:{col}"

    if (deep := _nesting_error(text)) is not None:
        raise UserError(
            f"{at(deep)}: error: brackets nested more than {MAX_NESTING} levels deep "
            "(the parser's limit; GE IR nests attributes, types and regions far less)"
        )
    parser: LocatedParser | None = None
    try:
        parser = LocatedParser(ctx, text, name, offset, starts, resources)
        module = parser.parse_module(implicit_module)
        if isinstance(module.location, UnknownLoc):
            # The implicit module: errors about the whole module point at the chunk's start.
            line, col = parser.location_of(0)
            module.location = FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
        return module
    except ParseError as e:
        msg = e.msg
        if msg == "Could not parse entire input!":  # xDSL's word for "no operation here"
            got = text[e.span.start : max(e.span.end, e.span.start + 1)][:40]
            msg = f"expected an operation, got '{got}'" if got else "expected an operation, got the end of the input"
        raise UserError(f"{at(e.span.start)}: error: {one_line(msg)}") from None
    except LocatedError:
        raise
    except RecursionError:
        # A backstop: MAX_NESTING keeps the parser far from Python's recursion limit.
        where = parser.current_location() if parser is not None else at(0)
        raise UserError(f"{where}: error: input nested too deeply to parse") from None
    except (VerifyException, ValueError, AssertionError, KeyError, TypeError, IndexError) as e:
        # An attribute or type that failed its own checks while being built.
        where = parser.current_location() if parser is not None else at(0)
        raise UserError(f"{where}: error: {one_line(str(e))}") from None


def read_capped(f: IO[bytes], name: str, cap: int) -> bytes:
    """All of `f`, refused with one error line (a UserError) when it holds more than `cap`
    bytes: a regular file by its size before anything is read, a stream (a pipe, a device
    such as /dev/zero) once `cap` bytes are read without reaching its end."""
    hint = "(raise it with --max-input-size SIZE)"
    try:
        st = os.fstat(f.fileno())
        size = st.st_size if stat.S_ISREG(st.st_mode) else 0
    except (OSError, AttributeError, io.UnsupportedOperation):  # a BytesIO
        size = 0
    if size > cap:
        raise UserError(
            f"{name}: error: the input has {size} bytes, more than the cap on an input's size, {cap} {hint}"
        )
    data = f.read(cap + 1)
    if len(data) > cap:
        raise UserError(f"{name}: error: the input goes past {cap} bytes, the cap on an input's size {hint}")
    return data
