"""ge-opt: xdsl-opt with the project's dialects and passes, and located diagnostics.

Every parse, verify and pass error is one line `FILE:LINE:COL: error: <op>: <message>` on
stderr and exit code 1 (with --verify-diagnostics or --parsing-diagnostics: on stdout,
exit 0, for negative lit tests). Never a traceback, never a dump of the whole module.

The passes run in xDSL's PassPipeline: `-p` is parsed here (one message per mistake,
`build_pipeline`), each PipelinePass (`ge-compile`) is spliced in as its constituent
passes, and `PipelineCallback` verifies (op by op, located), times, prints and dumps
between them. The driver patches nothing of xDSL (the parser and the lexer are
subclasses); ge_dialect/names.py still replaces SSAValue.extract_valid_name.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import math
import os
import re
import string
import sys
import textwrap
import time
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import IO, NoReturn, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.universe import Universe
from xdsl.utils.arg_spec import ArgSpec, PipelineLexer, SpecTokenKind, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError, VerifyException
from xdsl.utils.hints import type_repr
from xdsl.utils.lexer import Input, Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind, StringLiteral
from xdsl.xdsl_opt_main import xDSLOptMain

from ge_dialect.diagnostics import LocatedError
from ge_dialect.pass_options import PassOptionError
from ge_tools.pipeline import PipelinePass, expand
from ge_tools.registry import get_all_dialects, get_all_passes
from report.dot import node_types
from report.stages import write_stage


class GeLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal rule that runs in linear time.

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


def _one_line(msg: str) -> str:
    """A message as one printable line (the character of "Unexpected character: X" may be
    a control character)."""
    if msg.isprintable():
        return msg
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in msg)


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


class LocatedParser(Parser):
    """A Parser that gives each op a FileLineColLoc (line table built once: no
    quadratic newline counting, see xdsl_guide.md §6.3), lexes with GeLexer, and reads
    bytes as UTF-8 with a located error. Constructing it may raise ParseError (the first
    token is lexed at once) or UserError (not UTF-8): parse_module reports both."""

    def __init__(
        self, ctx: Context, input: str | bytes, name: str, line_offset: int = 0, line_starts: list[int] | None = None
    ):
        text = decode_input(input, name, line_offset)
        self._line_starts = line_starts if line_starts is not None else _line_starts(text)
        self._line_offset = line_offset
        self._file = StringAttr(name)
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(GeLexer(Input(text, name)))

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

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # xDSL reports an unknown op at the token after its name; point at the name.
        if (op_type := self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)) is not None:
            return op_type
        end = self._current_token.span.start
        start = self.lexer.input.content.rfind(name, 0, end)
        self.raise_error(f"Operation {name} is not registered", start if start >= 0 else end, end)


class UserError(Exception):
    """An error about the command line or the input, printed as one line."""


def one_line_arg_errors(arg_parser: argparse.ArgumentParser) -> None:
    """A bad command-line option is one line `<prog>: error: ...` and exit 1, as every
    other error (argparse would print the usage and exit 2)."""

    def error(message: str) -> NoReturn:
        raise UserError(f"{arg_parser.prog}: error: {message}")

    arg_parser.error = error  # type: ignore[method-assign]


def parse_module(ctx: Context, data: str | bytes, name: str, offset: int = 0, implicit_module: bool = True) -> ModuleOp:
    """Parse IR text with located ops (not verified); every bad input is a one-line
    UserError `NAME:LINE:COL: error: ...`: bytes that are not UTF-8, brackets nested deeper
    than MAX_NESTING, a syntax error (in time linear in the input: GeLexer), an attribute
    or type that fails its own checks. Shared by ge-opt and ge-run."""
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
        parser = LocatedParser(ctx, text, name, offset, starts)
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
        raise UserError(f"{at(e.span.start)}: error: {_one_line(msg)}") from None
    except LocatedError:
        raise
    except RecursionError:
        # A backstop: MAX_NESTING keeps the parser far from Python's recursion limit.
        where = parser.current_location() if parser is not None else at(0)
        raise UserError(f"{where}: error: input nested too deeply to parse") from None
    except (VerifyException, ValueError, AssertionError, KeyError, TypeError, IndexError) as e:
        # An attribute or type that failed its own checks while being built.
        where = parser.current_location() if parser is not None else at(0)
        raise UserError(f"{where}: error: {_one_line(str(e))}") from None


class PipelineError(Exception):
    """A malformed pass pipeline: the message names the pass and the option."""


# A pipeline element: a pass name, then optionally `{...}`, nothing else.
_PASS_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def _pipeline_elements(spec: str) -> list[tuple[int, str]]:
    """The comma-separated elements of `spec` with their start columns (1-based), split at
    commas outside `{...}` and outside string literals; an unclosed `{` or a stray `}` is a
    PipelineError."""
    out: list[tuple[int, str]] = []
    start, depth, i, open_at = 0, 0, 0, -1
    while i < len(spec):
        ch = spec[i]
        if ch == '"':
            j = i + 1
            while j < len(spec) and spec[j] != '"':
                j += 2 if spec[j] == "\\" else 1
            if j >= len(spec):
                raise PipelineError(f"string at column {i + 1} is not closed")
            i = j
        elif ch == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif ch == "}":
            if depth == 0:
                raise PipelineError(f"'}}' at column {i + 1} closes nothing")
            depth -= 1
        elif ch == "," and depth == 0:
            out.append((start + 1, spec[start:i]))
            start = i + 1
        i += 1
    if depth:
        name = _PASS_NAME.match(spec, start)
        who = f"pass {name.group()}: " if name and spec[name.end() : name.end() + 1] == "{" else ""
        raise PipelineError(f"{who}options opened at column {open_at + 1} are not closed (missing '}}')")
    out.append((start + 1, spec[start:]))
    return out


def _group_end(text: str) -> int:
    """Index of the `}` that closes the `{` at text[0] (strings skipped; balanced, as
    _pipeline_elements checked)."""
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def _spec_value(values: tuple[object, ...]) -> str:
    return ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values) or "(none)"


def _make_pass(cls: type[ModulePass], spec: ArgSpec) -> ModulePass:
    """`cls` configured by `spec`: each option checked by name and type, one message each."""
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init and f.name != "name"}
    hints = get_type_hints(cls)
    args = spec.normalize_parameter_names().parameters
    for key, values in args.items():
        shown = key.replace("_", "-")
        if key not in fields:
            known = ", ".join(f.replace("_", "-") for f in fields) or "none"
            close = difflib.get_close_matches(key, list(fields), 1)
            maybe = f"; did you mean '{close[0].replace('_', '-')}'?" if close else ""
            raise PipelineError(f"pass {cls.name}: unknown option '{shown}' (options: {known}){maybe}")
        try:
            cls.from_pass_spec(ArgSpec(cls.name, {key: values}))
        except PassOptionError:
            raise  # a value of the right type the pass refuses: the caller reports it
        except (ValueError, TypeError):
            want = type_repr(hints.get(key, object))
            got = "no value" if not values else f"'{_spec_value(values)}'"
            raise PipelineError(f"pass {cls.name}: option {shown} takes {want}, got {got}") from None
    try:
        return cls.from_pass_spec(spec)
    except PassOptionError:
        raise
    except (ValueError, TypeError) as e:  # a backstop: each option was built alone above
        raise PipelineError(f"pass {cls.name}: {_one_line(str(e))}") from None


def _parse_element(name: str, element: str, column: int) -> ArgSpec:
    """xDSL's ArgSpec of one element, with its syntax errors (ArgSpecParseError derives
    from BaseException) and repeated options as PipelineErrors."""
    try:
        spec = parse_spec(element)
    except ArgSpecParseError as e:
        # xDSL's message: a header, `pass-pipeline:LINE:COL`, the text, carets, the message.
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        where = re.search(r"pass-pipeline:\d+:(\d+)", str(e))
        col = column + int(where.group(1)) - 1 if where else column
        msg = lines[-1].strip().replace("`", "'")
        raise PipelineError(f"pass {name}: bad options: {msg[:1].lower()}{msg[1:]} (column {col})") from None
    # Option keys are the IDENT tokens right after `{` or a space; xDSL keeps the last of
    # a repeated key silently.
    seen: set[str] = set()
    lexer, prev = PipelineLexer(element), None
    while (tok := lexer.lex()).kind is not SpecTokenKind.EOF:
        if tok.kind is SpecTokenKind.IDENT and prev in (SpecTokenKind.L_BRACE, SpecTokenKind.SPACE):
            key = tok.span.text.replace("_", "-")
            if key in seen:
                raise PipelineError(f"pass {name}: option {key} is given twice")
            seen.add(key)
        prev = tok.kind
    return spec


def build_pipeline(spec: str, available: dict[str, Callable[[], type[ModulePass]]]) -> tuple[ModulePass, ...]:
    """The passes of a `-p` pipeline `name{option=value ...},...`, each PipelinePass
    (`ge-compile`) spliced in as its constituent passes. Every malformed pipeline is a
    PipelineError naming the pass and the option: an unknown pass or option, a value of
    the wrong type, unbalanced braces, MLIR's nested `builtin.module(...)` syntax, text
    after the options; a value of the right type that the pass refuses is its
    PassOptionError (passes/options.py)."""
    passes: list[ModulePass] = []
    for column, raw in _pipeline_elements(spec):
        element = raw.strip()
        if not element:
            continue  # `a,` and an empty -p: nothing to run (as before)
        column += len(raw) - len(raw.lstrip())
        m = _PASS_NAME.match(element)
        if m is None:
            raise PipelineError(f"expected a pass name at column {column}, got '{element[0]}'")
        name, rest = m.group(), element[m.end() :]
        if rest.startswith("("):
            raise PipelineError(
                f"'{name}(...)' at column {column}: MLIR's nested pass-manager syntax is not "
                f"supported; list the passes: -p 'pass1,pass2{{option=value}}'"
            )
        if rest and not (rest.startswith("{") and _group_end(rest) == len(rest) - 1):
            after = rest[_group_end(rest) + 1 :] if rest.startswith("{") else rest
            raise PipelineError(
                f"pass {name}: unexpected '{after.strip()}' at column {column + len(element) - len(after)} "
                "(options go in one {option=value ...} after the name)"
            )
        if name not in available:
            close = difflib.get_close_matches(name, list(available), 1)
            maybe = f"; did you mean '{close[0]}'?" if close else ""
            raise PipelineError(f"unknown pass '{name}'{maybe} (ge-opt --help lists them)")
        passes.append(_make_pass(available[name](), _parse_element(name, element, column)))
    return expand(passes)


def with_remarks(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """`passes` with `remarks=true` on each pass that has the option (--remarks)."""
    return tuple(
        dataclasses.replace(p, remarks=True)  # type: ignore[call-arg]
        if any(f.name == "remarks" for f in dataclasses.fields(p))
        else p
        for p in passes
    )


def verify_module(module: ModuleOp) -> None:
    """`module.verify()` with each failure one LocatedError at the op that fails.

    xDSL's Operation.verify runs an op's own verifier after its regions' and reports a
    failure through Operation.emit_error, which prints the whole module. Here each op is
    verified alone in the same order (nested ops first), so that the op that failed is
    known; a LocatedError a verifier raises about another op passes through."""
    for op in module.walk(region_first=True):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            raise LocatedError(op, _one_line(str(e))) from None
        # Block.verify's rule, which verify_nested_ops=False skips
        for region in op.regions:
            if len(region.blocks) == 1 and region.block.first_op is None and not op.has_trait(NoTerminator):
                raise LocatedError(
                    op,
                    f"Operation {op.name} contains empty block in single-block region that expects at least a terminator",
                )


@dataclass
class PipelineCallback:
    """What runs between two passes (xDSL's PassPipeline callback: previous pass or None,
    the module, next pass or None): verification with located errors, then, as asked,
    --time-passes, --print-between-passes, --print-ir-after-all (stderr) and --dump-dir
    (DIR/NN_<pass>.mlir, 00_input.mlir first; chunk<K>_ before each name from the second
    module on, as --split-input-file gives) and --dot-dir (the same stages drawn, report/stages.py)."""

    verify: bool = True
    time_passes: bool = False
    print_between_passes: bool = False
    print_ir_after_all: bool = False
    dump_dir: str | None = None
    dot_dir: str | None = None
    origin_types: dict[str, str] = field(default_factory=dict)  # node -> GE type, at the input
    modules: int = 0
    index: int = 0
    started: float = 0.0

    def __call__(self, previous: ModulePass | None, module: ModuleOp, next: ModulePass | None) -> None:
        if previous is None:
            self.modules += 1
            self.index = 0
        elif self.time_passes:
            print(f"Pass {previous.name} took {time.perf_counter() - self.started} seconds")
        if self.verify:
            verify_module(module)
        if previous is not None:
            self.index += 1
            if self.print_between_passes and next is not None:
                # xdsl_opt_main.py: xDSLOptMain.setup_pipeline's callback
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            if self.print_ir_after_all:
                print(f"// -----// IR Dump After {previous.name} ({previous}) //----- //", file=sys.stderr)
                Printer(stream=sys.stderr).print_op(module)
                print(file=sys.stderr)
        if self.dump_dir:
            self._dump("input" if previous is None else previous.name, module)
        if self.dot_dir:
            self._draw("input" if previous is None else previous.name, module)
        self.started = time.perf_counter()

    def _dump(self, name: str, module: ModuleOp) -> None:
        assert self.dump_dir
        os.makedirs(self.dump_dir, exist_ok=True)
        prefix = "" if self.modules <= 1 else f"chunk{self.modules}_"
        with open(os.path.join(self.dump_dir, f"{prefix}{self.index:02d}_{name}.mlir"), "w") as f:
            Printer(stream=f).print_op(module)
            f.write("\n")

    def _draw(self, name: str, module: ModuleOp) -> None:
        assert self.dot_dir
        prefix = "" if self.modules <= 1 else f"chunk{self.modules}_"
        if self.index == 0:  # the input's node types name the ops each kernel holds later
            self.origin_types = node_types(module)
        write_stage(module, f"{prefix}{self.index:02d}_{name}", self.dot_dir, self.origin_types)


def register_dialects(ctx: Context) -> None:
    """Every dialect xDSL knows and the project's, each loaded when first used."""
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    known = set(ctx.registered_dialect_names)
    for name, factory in get_all_dialects().items():
        if name not in known:
            ctx.register_dialect(name, factory)


def context() -> Context:
    """ge-opt's context, for a tool or a test without a GeOptMain."""
    ctx = Context()
    register_dialects(ctx)
    return ctx


def pass_spec(p: ModulePass) -> str:
    """`p` as it is typed in -p: its name, then the options that are not their default
    (`ge-phony-notask{stage=mark}`)."""
    opts = [
        f"{f.name.replace('_', '-')}={_spec_value(v if isinstance(v, tuple) else (v,))}"
        for f in dataclasses.fields(p)
        if f.init and (v := getattr(p, f.name)) != f.default
    ]
    return f"{p.name}{{{' '.join(opts)}}}" if opts else p.name


def pass_help() -> str:
    """The --help epilog: each project pass with its first doc paragraph and its options;
    a pipeline pass (ge-compile) also with the passes it runs."""
    lines = ["project passes (-p 'name{option=value ...}'):"]
    for name, factory in sorted(get_all_passes().items()):
        cls = factory()
        doc = (cls.__doc__ or "").strip().split("\n\n")[0]
        lines.append(f"  {name}")
        lines.extend(textwrap.wrap(" ".join(doc.split()), 76, initial_indent="      ", subsequent_indent="      "))
        for f in dataclasses.fields(cls):
            lines.append(f"      option {f.name.replace('_', '-')}: {f.type} = {f.default!r}")
        if issubclass(cls, PipelinePass):
            runs = ", ".join(pass_spec(p) for p in cls().passes())
            lines.extend(
                textwrap.wrap(
                    f"runs: {runs}", 76, initial_indent="      ", subsequent_indent="        ", break_on_hyphens=False
                )
            )
    if len(lines) == 1:
        lines.append("  (none yet)")
    lines.append("")
    lines.append("xDSL's own passes (canonicalize, cse, dce, ...) are available too.")
    lines.append("")
    lines.append("-p takes comma-separated passes, each optionally followed by one {option=value ...}")
    lines.append("(space-separated; a list value is a,b,c). MLIR's nested 'builtin.module(...)' is not")
    lines.append("supported. Input files are UTF-8 IR text, whatever their extension; brackets nest at")
    lines.append(f"most {MAX_NESTING} levels. Every error is one line, exit 1.")
    return "\n".join(lines)


class GeOptMain(xDSLOptMain):
    version_format = "ge-opt 0.1.0 (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="ge-opt: run GE's graph passes on ge-dialect IR", args=args)

    # -- registration -----------------------------------------------------------------

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:  # used without --split-input-file offsets
            return self._parse(io.read(), 0)

        self.available_frontends["mlir"] = parse_mlir

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = "ge-opt"
        one_line_arg_errors(arg_parser)
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.epilog = pass_help()
        arg_parser.add_argument(
            "--print-ir-after-all",
            action="store_true",
            help="print the IR to stderr after every pass",
        )
        arg_parser.add_argument(
            "--dump-dir",
            metavar="DIR",
            help="write the input and the IR after each pass as DIR/NN_<pass>.mlir",
        )
        arg_parser.add_argument(
            "--dot-dir",
            metavar="DIR",
            help="draw the input and the graph after each pass: DIR/NN_<pass>.dot and .svg "
            "(Graphviz's dot when on PATH, else networkx + matplotlib; large graphs summarised "
            "by kernel), and DIR/NN_<pass>.memory.svg once memory is planned",
        )
        add_input_shape_argument(arg_parser, only_onnx=True)  # issue 11: ge-opt MODEL.onnx
        arg_parser.add_argument(
            "--remarks",
            action="store_true",
            help="each pass that supports it says, node by node, what it decided and why "
            "(FILE:LINE:COL: remark: ... on stderr)",
        )

    # -- parsing ------------------------------------------------------------------------

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        # Every file is IR text whatever its name (xDSL picks a frontend by extension and
        # fails on `.txt` or `.onnx` with an unlocated ValueError); bytes that are not
        # UTF-8 text get parse_module's located error.
        f, extension = super().get_input_stream()
        return f, extension if extension in self.available_frontends else "mlir"

    def _parse(self, data: bytes, offset: int) -> ModuleOp:
        return parse_module(self.ctx, data, self.get_input_name(), offset, not self.args.no_implicit_module)

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        # issue 11: an ONNX model (.onnx) is imported (importers/onnx.py), with --input-shape
        shapes = input_shapes_arg(self.args.input_shape, "ge-opt")
        if is_onnx_path(self.get_input_name()):
            from importers import onnx as onnx_importer

            return onnx_importer.load_model(self.get_input_name(), shapes)
        if shapes:
            raise UserError(f"{self.get_input_name()}: error: --input-shape applies to an ONNX model (.onnx) only")
        if file_extension != "mlir":
            return self.available_frontends[file_extension](chunk)
        return self._parse(chunk.read(), start_offset)

    # -- the pipeline ---------------------------------------------------------------------

    def setup_pipeline(self) -> None:
        try:
            passes = build_pipeline(self.args.passes, self.available_passes)
        except PipelineError as e:
            raise UserError(f"ge-opt: error: bad pass pipeline '{self.args.passes}': {e}") from None
        except PassOptionError as e:
            raise UserError(f"ge-opt: error: {e}") from None
        if self.args.remarks:
            passes = with_remarks(passes)
        callback = PipelineCallback(
            verify=not self.args.disable_verify,
            time_passes=self.args.time_passes,
            print_between_passes=self.args.print_between_passes,
            print_ir_after_all=self.args.print_ir_after_all,
            dump_dir=self.args.dump_dir,
            dot_dir=self.args.dot_dir,
        )
        self.pipeline = PassPipeline(passes, callback)

    # -- running --------------------------------------------------------------------------

    def run(self) -> None:
        chunks, file_extension = self.prepare_input()
        diagnostics = self.args.verify_diagnostics or self.args.parsing_diagnostics
        out = self.prepare_output()
        try:
            for i, (chunk, offset) in enumerate(chunks):
                try:
                    if i > 0:
                        out.write("// -----\n")
                    module = self.parse_chunk(chunk, file_extension, offset)
                    if module is not None:
                        self.apply_passes(module)
                        out.write(self.output_resulting_program(module))
                    out.flush()
                except (UserError, DiagnosticException) as e:
                    if not diagnostics:
                        raise
                    print(str(e))
                finally:
                    chunk.close()
        finally:
            if out is not sys.stdout:
                out.close()


# -- ONNX models as input (issue 11; ge_tools/import_onnx.py is ge-import) -----------------

ONNX_SUFFIX = ".onnx"
INPUT_SHAPE_HELP = (
    "fix the shape of graph input NAME, e.g. x=1x3x224x224 (x- or comma-separated; "
    "NAME= for a 0-d input); repeat for several inputs. Needed for every input whose "
    "shape has a dynamic (named or unknown) dimension"
)


def is_onnx_path(path: str) -> bool:
    return path.lower().endswith(ONNX_SUFFIX)


def add_input_shape_argument(p: argparse.ArgumentParser, only_onnx: bool = False) -> None:
    """--input-shape NAME=DIMS, as ge-import, ge-opt and ge-run take it."""
    extra = " (an ONNX model input only)" if only_onnx else ""
    p.add_argument("--input-shape", action="append", metavar="NAME=DIMS", help=INPUT_SHAPE_HELP + extra)


def input_shapes_arg(specs: Sequence[str] | None, tool: str = "ge-import") -> dict[str, tuple[int, ...]]:
    """The --input-shape options as {name: dims}; a bad one is a UserError."""
    if not specs:
        return {}  # without the importer (and onnx) loaded: ge-opt on IR text never needs it
    from importers.onnx import parse_input_shape

    out: dict[str, tuple[int, ...]] = {}
    for spec in specs or []:
        try:
            name, dims = parse_input_shape(spec)
        except ValueError as e:
            raise UserError(f"{tool}: error: --input-shape {e}") from None
        if name in out:
            raise UserError(f"{tool}: error: --input-shape gives '{name}' twice")
        out[name] = dims
    return out


def run_tool(make: Callable[[], object], tool: str) -> None:
    """Run a tool's main with the project's error policy: one line, exit 1, no traceback
    (set GE_XDSL_TRACEBACK=1 to see Python's traceback of an internal error)."""
    try:
        make()
    except (UserError, DiagnosticException) as e:
        print(str(e), file=sys.stderr)
        sys.exit(1)
    except OSError as e:
        print(f"{tool}: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except ArgSpecParseError as e:  # a BaseException: build_pipeline catches it, this is a backstop
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        print(f"{tool}: error: bad pass pipeline: {lines[-1] if lines else e}", file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # an internal error: say so, in one line
        if os.environ.get("GE_XDSL_TRACEBACK"):
            raise
        first = str(e).strip().split("\n")[0]  # one line even when the message is not
        print(f"{tool}: error: internal error: {type(e).__name__}: {first}", file=sys.stderr)
        sys.exit(1)


def main(argv: Sequence[str] | None = None) -> None:
    run_tool(lambda: GeOptMain(argv).run(), "ge-opt")


if __name__ == "__main__":
    main()
