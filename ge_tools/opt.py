"""ge-opt: xdsl-opt with the project's dialects and passes, and located diagnostics.

Every parse, verify and pass error is one line `FILE:LINE:COL: error: <op>: <message>` on
stderr (for an ONNX model, `MODEL.onnx: node 'NAME' (OpType): error: ...`) and exit code 1 (--split-input-file: one per failing chunk; --verify-diagnostics:
checked against the input's expected-* comments, ge_tools/expected.py; --parsing-diagnostics:
on stdout, exit 0). A command-line mistake is one line `ge-opt: error: ...`. Never a
traceback, never a dump of the whole module. --help is the manual of the project's passes,
built from each pass's OPTIONS table (ge_dialect/pass_options.py).

The passes run in xDSL's PassPipeline: `-p` is parsed here (one message per mistake,
`build_pipeline`), each PipelinePass (`ge-compile`) is spliced in as its constituent
passes, and `PipelineCallback` verifies (op by op, located), times, prints and dumps
between them. Verification: the input and the pipeline's result, or after every pass with
--verify-each; a failure after an unverified pass reruns the input with --verify-each's
checks to name the pass that broke the IR (GeOptMain.apply_passes). The driver patches
nothing of xDSL: what is faster than xDSL is in ge_fast/ (--no-fast-paths or
GE_XDSL_FAST=0 turns it off; the output is the same). The pipeline's syntax is
ge_tools/pipeline_spec.py, the callback ge_tools/pass_callback.py, --help's manual of the
passes ge_tools/pass_help.py, the arguments the tools share ge_tools/cli_args.py.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Sequence
from io import BytesIO
from itertools import accumulate
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from ge_dialect.diagnostics import Remark, current_remark_sink, remark_sink
from ge_dialect.names import names_as_attributes
from ge_dialect.pass_options import PassOptionError
from ge_fast.beside import MIN_INPUT_BYTES, PrintBeside
from ge_fast.process import exit_without_teardown, multiverse, tune_gc
from ge_tools.cli_args import (
    DUMP_DIR_HELP,
    VERIFY_EACH_HELP,
    add_elide_argument,
    add_fast_paths_argument,
    add_input_shape_argument,
    add_max_input_size_argument,
    elide_limit,
    input_shapes_arg,
    input_size_cap,
    is_onnx_path,
    one_line_arg_errors,
    regular_within_cap,
    run_tool,
)
from ge_tools.dump_onnx import add_dump_onnx_argument, with_dump_onnx
from ge_tools.expected import Diagnostic
from ge_tools.expected import check as check_expected
from ge_tools.parse import UserError, parse_module, read_capped, read_ir_file
from ge_tools.pass_callback import PipelineCallback, apply_verified_at_ends
from ge_tools.pass_help import pass_help
from ge_tools.pipeline_spec import PipelineError, build_pipeline, shell_split_hint, with_remarks
from ge_tools.printer import GeMLIRTarget
from ge_tools.registry import get_all_dialects, get_all_passes


def register_dialects(ctx: Context) -> None:
    """Every dialect xDSL knows and the project's, each loaded when first used."""
    for name, factory in multiverse().all_dialects.items():
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


# The -t targets that print ge IR (see GeOptMain.register_all_targets).
GE_TARGETS = ("mlir",)

# ge-opt's words for xDSL's options whose behaviour it changes or whose help lists ~150 names.
OWN_HELP = {
    "passes": "the pass pipeline: 'pass1,pass2{option=value ...}' (the passes are listed below)",
    "target": f"output format: {', '.join(GE_TARGETS)} (xDSL's other targets do not read ge IR)",
    "input_file": "the input IR file; '-' or none: standard input",
    "verify_diagnostics": "check the diagnostics against the input's '// expected-error {{...}}', "
    "expected-warning and expected-remark comments (@+N, @-N, @above, @below) as mlir-opt does: "
    "exit 1 when one is missing or unexpected",
    "parsing_diagnostics": "print a parse or verify error on stdout and exit 0 (xDSL's negative tests)",
    "split_input_file": "process each '// -----' chunk of the input alone; every chunk's error is "
    "reported (line numbers of the whole file), exit 1 if any",
    "print_between_passes": "print the IR on stdout after each pass but the last",
    "time_passes": "after the pipeline, print a timing report to stderr as mlir-opt does: the total "
    "and each pass (named as in -p, ge-phony-notask{stage=mark}; a pass run twice summed) with "
    "its wall time and share of the total, the largest first, a `verify` row for the verifies, "
    "then a Total line",
    "disable_verify": "verify nothing: neither the input, nor the IR after a pass (see --verify-each)",
}


class GeOptMain(xDSLOptMain):
    version_format = "ge-opt 0.1.0 (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        self.argv = list(sys.argv[1:] if args is None else args)
        super().__init__(description="ge-opt: run GE's graph passes on ge-dialect IR", args=args)

    # -- registration -----------------------------------------------------------------

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        # xdsl_opt_main.py: xDSLOptMain.register_all_passes, the plugins read once (multiverse)
        for name, factory in multiverse().all_passes.items():
            self.register_pass(name, factory)
        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # xdsl_opt_main.py: xDSLOptMain.register_all_targets, the plugins read once (multiverse).
        # xDSL's other targets read other dialects: on ge IR, llvm, arm-asm, riscv-asm,
        # x86-asm and mps fail with internal errors and csl, wat and wgsl print nothing.
        for name, target in multiverse().all_targets.items():
            self.available_targets.setdefault(name, target)
        self.available_targets = {name: t for name, t in self.available_targets.items() if name in GE_TARGETS}
        self.available_targets["mlir"] = lambda: GeMLIRTarget  # the same text, fewer writes

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:  # used without --split-input-file offsets
            return self._parse(io.read(), 0)

        self.available_frontends["mlir"] = parse_mlir

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = "ge-opt"
        one_line_arg_errors(arg_parser, lambda: shell_split_hint(self.argv))
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        for action in arg_parser._actions:
            if action.dest in OWN_HELP:
                action.help = OWN_HELP[action.dest]
        # The epilog builds every project pass: only when the help is printed (start-up time).
        format_help = arg_parser.format_help

        def format_help_with_passes() -> str:
            project = get_all_passes()
            arg_parser.epilog = pass_help([n for n in self.available_passes if n not in project])
            return format_help()

        arg_parser.format_help = format_help_with_passes  # type: ignore[method-assign]
        arg_parser.add_argument(
            "--verify-each",
            action="store_true",
            help=VERIFY_EACH_HELP,
        )
        arg_parser.add_argument(
            "--disable-threading",
            action="store_true",
            help="run everything in this one process (mlir-opt's --mlir-disable-threading). "
            "Without it, for an input of 64 KiB or more, ge-opt renders the result's text in "
            "a forked second process while it verifies the result, and prints that text only "
            "once the verify passed (the same text, the same errors: ge_fast/beside.py)",
        )
        arg_parser.add_argument(
            "--print-ir-after-all",
            action="store_true",
            help="print the IR to stderr after every pass",
        )
        arg_parser.add_argument(
            "--print-ir-after-change",
            action="store_true",
            help="print the IR to stderr after a pass only when the pass changed its text "
            "(mlir-opt's --mlir-print-ir-after-change)",
        )
        arg_parser.add_argument(
            "--dump-dir",
            metavar="DIR",
            help=DUMP_DIR_HELP,
        )
        add_dump_onnx_argument(arg_parser)
        arg_parser.add_argument(
            "--dot-dir",
            metavar="DIR",
            help="draw the input and the graph after each pass: DIR/NN_<pass>.dot and .svg "
            "(Graphviz's dot when on PATH, else report/layered.py's pure-Python layout; large graphs summarised "
            "by kernel), and DIR/NN_<pass>.memory.svg once memory is planned",
        )
        add_elide_argument(arg_parser)
        add_input_shape_argument(arg_parser, only_onnx=True)  # ge-opt MODEL.onnx (docs/onnx.md)
        add_max_input_size_argument(arg_parser)
        add_fast_paths_argument(arg_parser)
        arg_parser.add_argument(
            "--remarks",
            action="store_true",
            help="each pass that supports it says, node by node, what it decided and why "
            "(FILE:LINE:COL: remark: ... on stderr; for an ONNX model "
            "MODEL.onnx: node 'NAME' (OpType): remark: ...)",
        )
        arg_parser.add_argument(
            "--remarks-json",
            metavar="FILE",
            help="write every remark as a JSON object to FILE (pass, stage, verdict, GE rule, "
            "NF code, nodes, message, location, data: report/remarks.py); the remarks are "
            "printed on stderr only with --remarks too",
        )

    # -- parsing ------------------------------------------------------------------------

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        # Every file is IR text whatever its name (xDSL picks a frontend by extension and
        # fails on `.txt` or `.onnx` with an unlocated ValueError); bytes that are not
        # UTF-8 text get parse_module's located error.
        # `-` is standard input, as none is.
        if self.args.input_file == "-":
            return sys.stdin.buffer, "mlir"
        try:
            f, extension = super().get_input_stream()
        except OSError as e:
            hint = shell_split_hint(self.argv)
            if hint is None:
                raise
            raise UserError(f"ge-opt: error: {e.filename}: {e.strerror or e}; {hint}") from None
        return f, extension if extension in self.available_frontends else "mlir"

    def get_input_name(self) -> str:
        return "<stdin>" if self.args.input_file in (None, "-") else self.args.input_file

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        # xDSL's, with the whole input kept (--verify-diagnostics reads its expectations).
        f, file_extension = self.get_input_stream()
        self.resources: dict[str, bytes] = {}
        try:
            cap = input_size_cap(self.get_input_name(), self.args.max_input_size)
            if is_onnx_path(self.get_input_name()) and regular_within_cap(f, self.get_input_name(), cap):
                self.input_data = b""  # the importer reads the model (its bytes go once decoded)
            elif self.args.split_input_file or self.args.verify_diagnostics:
                self.input_data = read_capped(f, self.get_input_name(), cap)  # each chunk has its own section
            else:  # the text before the resource section, and its blobs (ge_tools/parse.py)
                self.input_data, self.resources = read_ir_file(f, self.get_input_name(), cap)
        finally:
            if f is not sys.stdin.buffer:
                f.close()
        if self.args.split_input_file:
            # xdsl_opt_main.py: xDSLOptMain.prepare_input (chunks at `// -----`, line offsets)
            pieces = self.input_data.split(b"// -----")
            offsets = accumulate([0, *[piece.count(b"\n") for piece in pieces[:-1]]])
            chunks: list[tuple[IO[bytes], int]] = [(BytesIO(c), o) for c, o in zip(pieces, offsets, strict=True)]
        else:
            chunks = [(BytesIO(self.input_data), 0)]
        return chunks, self.args.frontend or file_extension

    def _parse(self, data: bytes, offset: int) -> ModuleOp:
        return parse_module(
            self.ctx, data, self.get_input_name(), offset, not self.args.no_implicit_module, self.resources
        )

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        # an ONNX model (.onnx, docs/onnx.md) is imported (importers/onnx.py), with --input-shape
        shapes = input_shapes_arg(self.args.input_shape, "ge-opt")
        if is_onnx_path(self.get_input_name()):
            from importers import onnx as onnx_importer

            return onnx_importer.load_model(
                self.get_input_name(), shapes, dynamic_dims=self.args.dynamic_dims, data=self.input_data or None
            )
        if self.get_input_name().lower().endswith(".pt2") and not shapes and not self.args.dynamic_dims:
            from importers.fx import load_exported_program  # a torch.export program

            return load_exported_program(self.get_input_name())
        if shapes or self.args.dynamic_dims:
            flag = "--input-shape" if shapes else "--dynamic-dims"
            raise UserError(f"{self.get_input_name()}: error: {flag} applies to an ONNX model (.onnx) only")
        if file_extension != "mlir":
            return self.available_frontends[file_extension](chunk)
        return self._parse(chunk.read(), start_offset)

    # -- the pipeline ---------------------------------------------------------------------

    def setup_pipeline(self) -> None:
        try:
            passes = build_pipeline(self.args.passes, self.available_passes)
        except PipelineError as e:
            hint = shell_split_hint(self.argv)
            raise UserError(
                f"ge-opt: error: bad pass pipeline '{self.args.passes}': {e}" + (f"; {hint}" if hint else "")
            ) from None
        except PassOptionError as e:
            raise UserError(f"ge-opt: error: {e}") from None
        if self.args.remarks or self.args.remarks_json:
            passes = with_remarks(passes)
        from ge_tools.progress import PassBar  # a tqdm bar, on a terminal only

        self.verifier = PipelineCallback(
            verify=not self.args.disable_verify,
            verify_each=self.args.verify_each,
            time_passes=self.args.time_passes,
            print_between_passes=self.args.print_between_passes,
            print_ir_after_all=self.args.print_ir_after_all,
            print_ir_after_change=self.args.print_ir_after_change,
            dump_dir=self.args.dump_dir,
            dot_dir=self.args.dot_dir,
            print_generic=self.args.print_op_generic,
            elide=elide_limit(self.args.elide_large_elements, None, default_on=True),
            progress=PassBar.on_terminal(len(passes)),
            before_result_verify=None if self.args.disable_threading else self._start_print_beside,
        )
        callback: Callable[..., None] = self.verifier
        self.collector = None
        if self.args.remarks_json:
            from report.remarks import RemarkCollector  # report/ only when asked (start-up time)

            self.collector = RemarkCollector(echo=self.args.remarks)
        if self.collector is not None:
            callback = self.collector.callback(callback)
        self.pipeline = PassPipeline(passes, with_dump_onnx(callback, self.args.dump_onnx))

    # -- running --------------------------------------------------------------------------

    def output_resulting_program(self, prog: ModuleOp) -> str:
        out = io.StringIO()
        self.emit_result(prog, out)
        return out.getvalue()

    def emit_result(self, prog: ModuleOp, out: IO[str]) -> None:
        """The result written to `out` as it is printed (xDSLOptMain.output_resulting_program's
        target, without the one string: a weight's hex is streamed), large values elided as
        --elide-large-elements and the output (a terminal or not) say."""
        # xdsl_opt_main.py: xDSLOptMain.output_resulting_program (the mlir target, the only one)
        target = GeMLIRTarget(
            print_generic_format=self.args.print_op_generic,
            print_properties_as_attributes=self.args.print_no_properties,
            print_debuginfo=self.args.print_debuginfo,
            syntax_highlight=self.args.syntax_highlight,
            elide_large_elements=elide_limit(self.args.elide_large_elements, out),
        )
        if not self.args.print_op_generic:
            target.emit(self.ctx, prog, out)
            return
        with names_as_attributes(prog):  # node names that upstream tools keep
            target.emit(self.ctx, prog, out)

    def apply_passes(self, prog: ModuleOp, reparse: Callable[[], ModuleOp | None] | None = None) -> None:
        """The pipeline on `prog`. Verified at the ends only (no --verify-each), a failure
        after at least one pass is looked into on `reparse()` (the same input again):
        pass_callback.apply_verified_at_ends."""
        apply_verified_at_ends(lambda: self._apply_passes(prog), self.pipeline.passes, self.verifier, self.ctx, reparse)

    def _apply_passes(self, prog: ModuleOp) -> None:
        progress = self.pipeline.callback.progress if isinstance(self.pipeline.callback, PipelineCallback) else None
        if progress is None:
            self.pipeline.apply(self.ctx, prog)
            return
        outer = current_remark_sink()  # --remarks-json's collector, --verify-diagnostics', or stderr

        # A remark or an error starts on a clean line, not after the progress text.
        def sink(r: Remark) -> None:
            progress.clear()
            outer(r)

        try:
            with remark_sink(sink):
                self.pipeline.apply(self.ctx, prog)
        finally:
            progress.clear()

    def run(self) -> None:
        """Each chunk parsed, run and printed. An error ends the run (exit 1), except with
        --split-input-file (every chunk's error on stderr, then exit 1), --verify-diagnostics
        (the diagnostics checked against the input's expectations: ge_tools/expected.py) and
        --parsing-diagnostics (the error on stdout, exit 0). With --remarks-json every remark
        is collected and written, whatever the outcome."""
        if self.collector is None:
            return self._run()
        try:
            with self.collector.collecting():
                self._run()
        finally:
            from report.remarks import write_remarks_json

            write_remarks_json(self.args.remarks_json, self.collector.remarks)

    def _run(self) -> None:
        chunks, file_extension = self.prepare_input()
        verify = self.args.verify_diagnostics
        produced: list[str | Diagnostic] = []
        failed = False
        out = self.prepare_output()
        try:
            for i, (chunk, offset) in enumerate(chunks):
                try:
                    if i > 0:
                        out.write("// -----\n")
                    if verify:
                        produced.extend(self._diagnostics_of(chunk, file_extension, offset, out))
                    else:
                        self._run_chunk(chunk, file_extension, offset, out)
                    out.flush()
                except (UserError, DiagnosticException) as e:
                    if self.args.parsing_diagnostics:
                        print(str(e))
                    elif self.args.split_input_file:
                        print(str(e), file=sys.stderr)
                        failed = True
                    else:
                        raise
                finally:
                    chunk.close()
        finally:
            if out is not sys.stdout:
                out.close()
        if verify:
            text = self.input_data.decode("utf-8", errors="replace")  # a bad byte: its own error
            failures = check_expected(text, self.get_input_name(), produced)
            for line in failures:
                print(line, file=sys.stderr)
            failed = bool(failures)
        if failed:
            raise SystemExit(1)

    def _run_chunk(self, chunk: IO[bytes], file_extension: str, offset: int, out: IO[str]) -> None:
        data = chunk.read()

        def parse() -> ModuleOp | None:
            return self.parse_chunk(BytesIO(data), file_extension, offset)

        module = parse()
        if module is None:
            return
        # the result's text is rendered beside its verify (PrintBeside) for a large input
        # (not one with weights in a resource section: their hex is streamed, never one text)
        self._beside_wanted = len(data) >= MIN_INPUT_BYTES and not self.resources
        try:
            self.apply_passes(module, parse)
            beside, self._beside = self._beside, None
            text = beside.text() if beside is not None else None
        finally:
            self._beside_wanted = False
            if self._beside is not None:  # the verify (or a pass after it) failed
                self._beside.cancel()
                self._beside = None
        if text is not None:
            out.write(text)
        else:
            self.emit_result(module, out)

    _beside_wanted: bool = False
    _beside: PrintBeside | None = None

    def _start_print_beside(self, module: ModuleOp) -> None:
        """PipelineCallback.before_result_verify: fork the child that renders the result."""
        if self._beside_wanted and self._beside is None:
            self._beside = PrintBeside.start(lambda: self.output_resulting_program(module))

    def _diagnostics_of(
        self, chunk: IO[bytes], file_extension: str, offset: int, out: IO[str]
    ) -> list[str | Diagnostic]:
        """Run one chunk and return its diagnostics instead of printing them: the error that
        ended it, the remarks, the warnings (written to stderr: taken from it; what else the
        run writes there is passed on)."""
        found: list[str | Diagnostic] = []
        err = io.StringIO()
        try:
            with remark_sink(lambda r: found.append(r.line())), contextlib.redirect_stderr(err):
                self._run_chunk(chunk, file_extension, offset, out)
        except (UserError, DiagnosticException) as e:
            found.append(str(e))
        for line in err.getvalue().splitlines():
            d = Diagnostic.parse(line)
            if d is not None and d.kind == "warning":
                found.append(d)
            else:
                print(line, file=sys.stderr)
        return found


def main(argv: Sequence[str] | None = None) -> None:
    tune_gc()
    run_tool(lambda: GeOptMain(argv).run(), "ge-opt")


def cli() -> NoReturn:
    """The ge-opt console script: main, then exit_without_teardown."""
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
