"""ge-opt: xdsl-opt with the project's dialects and passes, and located diagnostics.

Every parse, verify and pass error is one line `FILE:LINE:COL: error: <op>: <message>` on
stderr and exit code 1 (with --verify-diagnostics or --parsing-diagnostics: on stdout,
exit 0, for negative lit tests). Never a traceback, never a dump of the whole module.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import textwrap
import time
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.xdsl_opt_main import xDSLOptMain

from ge_dialect.diagnostics import LocatedError
from ge_tools.registry import PIPELINES, get_all_dialects, get_all_passes

_VERIFY_PREFIX = "Operation does not verify: "


def _located_emit_error(self: Operation, message: str, underlying_error: Exception):
    """Replacement for Operation.emit_error: one located line instead of a module dump."""
    if isinstance(underlying_error, LocatedError):
        raise underlying_error
    raise LocatedError(self, message.removeprefix(_VERIFY_PREFIX))


def install_located_errors() -> None:
    """Make every op error a LocatedError (xDSL would print the whole module)."""
    Operation.emit_error = _located_emit_error  # type: ignore[method-assign]


class LocatedParser(Parser):
    """A Parser that gives each op a FileLineColLoc (line table built once: no
    quadratic newline counting, see xdsl_guide.md §6.3)."""

    def __init__(self, ctx: Context, input: str | bytes, name: str, line_offset: int = 0):
        super().__init__(ctx, input, name)
        content = self.lexer.input.content
        nl = b"\n" if isinstance(content, bytes) else "\n"
        starts = [0]
        find = content.find
        pos = find(nl)
        while pos >= 0:
            starts.append(pos + 1)
            pos = find(nl, pos + 1)
        self._line_starts = starts
        self._line_offset = line_offset
        self._file = StringAttr(name)

    def location_of(self, pos: int) -> tuple[int, int]:
        line = bisect_right(self._line_starts, pos) - 1
        return line + 1 + self._line_offset, pos - self._line_starts[line] + 1

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


def parse_module(
    ctx: Context, data: str | bytes, name: str, offset: int = 0, implicit_module: bool = True
) -> ModuleOp:
    """Parse IR text with located ops (not verified); a syntax error, or an attribute or
    type that fails its own checks, is a one-line UserError `NAME:LINE:COL: error: ...`.
    Shared by ge-opt and ge-run."""
    parser = LocatedParser(ctx, data, name, offset)
    try:
        module = parser.parse_module(implicit_module)
        if isinstance(module.location, UnknownLoc):
            # The implicit module: errors about the whole module point at the chunk's start.
            line, col = parser.location_of(0)
            module.location = FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
        return module
    except ParseError as e:
        line, col = parser.location_of(e.span.start)
        raise UserError(f"{name}:{line}:{col}: error: {e.msg}") from None
    except LocatedError:
        raise
    except (VerifyException, ValueError, AssertionError, KeyError, TypeError, IndexError) as e:
        # An attribute or type that failed its own checks while being built.
        raise UserError(f"{parser.current_location()}: error: {e}") from None


def pass_help() -> str:
    """The --help epilog: each project pass and pipeline with its first doc paragraph."""
    lines = ["project passes (-p 'name{option=value ...}'):"]
    for name, factory in sorted(get_all_passes().items()):
        cls = factory()
        doc = (cls.__doc__ or "").strip().split("\n\n")[0]
        lines.append(f"  {name}")
        lines.extend(textwrap.wrap(" ".join(doc.split()), 76, initial_indent="      ", subsequent_indent="      "))
        for f in dataclasses.fields(cls):
            lines.append(f"      option {f.name.replace('_', '-')}: {f.type} = {f.default!r}")
    if len(lines) == 1:
        lines.append("  (none yet)")
    for name, passes in PIPELINES.items():
        lines.append(f"  {name}: runs {', '.join(passes)}")
    lines.append("")
    lines.append("xDSL's own passes (canonicalize, cse, dce, ...) are available too.")
    return "\n".join(lines)


class GeOptMain(xDSLOptMain):
    version_format = "ge-opt 0.1.0 (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="ge-opt: run GE's graph passes on ge-dialect IR", args=args)

    # -- registration -----------------------------------------------------------------

    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        known = set(self.ctx.registered_dialect_names)
        for name, factory in get_all_dialects().items():
            if name not in known:
                self.ctx.register_dialect(name, factory)

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
            "--remarks",
            action="store_true",
            help="each pass that supports it says, node by node, what it decided and why "
            "(FILE:LINE:COL: remark: ... on stderr)",
        )

    # -- parsing ------------------------------------------------------------------------

    def _parse(self, data: bytes, offset: int) -> ModuleOp:
        return parse_module(self.ctx, data, self.get_input_name(), offset, not self.args.no_implicit_module)

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        if file_extension != "mlir":
            return self.available_frontends[file_extension](chunk)
        return self._parse(chunk.read(), start_offset)

    # -- the pipeline ---------------------------------------------------------------------

    def setup_pipeline(self) -> None:
        spec = ",".join(
            ",".join(PIPELINES[p]) if p in PIPELINES else p
            for p in (s.strip() for s in _split_top_level(self.args.passes))
            if p
        )
        try:
            pipeline = PassPipeline.parse_spec(self.available_passes, spec)
        except Exception as e:  # unknown pass or bad option
            raise UserError(f"ge-opt: error: bad pass pipeline '{self.args.passes}': {e}") from None
        passes: list[ModulePass] = list(pipeline.passes)
        if self.args.remarks:
            passes = [
                dataclasses.replace(p, remarks=True)  # type: ignore[call-arg]
                if any(f.name == "remarks" for f in dataclasses.fields(p))
                else p
                for p in passes
            ]
        self.pipeline = PassPipeline(tuple(passes))

    def apply_passes(self, prog: ModuleOp) -> None:
        self._chunk += 1
        verify = not self.args.disable_verify
        if verify:
            prog.verify()
        self._dump(0, "input", prog)
        for i, p in enumerate(self.pipeline.passes, 1):
            t0 = time.perf_counter()
            p.apply(self.ctx, prog)
            if self.args.time_passes:
                print(f"Pass {p.name} took {time.perf_counter() - t0} seconds")
            if verify:
                prog.verify()
            if self.args.print_ir_after_all:
                print(f"// -----// IR Dump After {p.name} ({p}) //----- //", file=sys.stderr)
                Printer(stream=sys.stderr).print_op(prog)
                print(file=sys.stderr)
            self._dump(i, p.name, prog)

    _chunk = 0

    def _dump(self, index: int, name: str, prog: ModuleOp) -> None:
        if not self.args.dump_dir:
            return
        os.makedirs(self.args.dump_dir, exist_ok=True)
        prefix = "" if self._chunk <= 1 else f"chunk{self._chunk}_"
        path = os.path.join(self.args.dump_dir, f"{prefix}{index:02d}_{name}.mlir")
        with open(path, "w") as f:
            Printer(stream=f).print_op(prog)
            f.write("\n")

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


def _split_top_level(spec: str) -> list[str]:
    """Split a pass pipeline at commas outside `{...}`."""
    parts, depth, cur = [], 0, []
    for ch in spec:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def run_tool(make: Callable[[], object], tool: str) -> None:
    """Run a tool's main with the project's error policy: one line, exit 1, no traceback
    (set GE_XDSL_TRACEBACK=1 to see Python's traceback of an internal error)."""
    install_located_errors()
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
