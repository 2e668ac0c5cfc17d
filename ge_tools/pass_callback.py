"""What ge-opt (and ge-run, and the API) run between two passes: xDSL's PassPipeline
callback with located verification (`PipelineCallback`), --time-passes' report in
mlir-opt's form (`time_report`), the prints and the dumps.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline

from ge_dialect.diagnostics import LocatedError, remark_sink
from ge_dialect.names import names_as_attributes
from ge_dialect.verify import verify_module
from ge_tools.pipeline_spec import PipelineError, pass_spec
from ge_tools.printer import print_module
from ge_tools.progress import Progress


class InvalidAfterPass(LocatedError):
    """The IR a pass produced does not verify: the verifier's error at the op that fails,
    with the pass named (`... (after pass ge-foo)`)."""

    def __init__(self, op: Operation, message: str, pass_name: str):
        super().__init__(op, f"{message} (after pass {pass_name})")
        self.pass_name = pass_name


def apply_verified_at_ends(
    apply: Callable[[], None],
    passes: Sequence[ModulePass],
    verifier: PipelineCallback,
    ctx: Context,
    again: Callable[[], ModuleOp | None] | None,
) -> None:
    """`apply()`, a pipeline of `passes` whose callback runs `verifier` (verify_each False:
    the input and the result verified). A failure after at least one pass ran unverified
    is looked into: the passes are run on `again()` (the same input again) with a verify
    after every pass and, when that shows a pass whose IR is invalid, that error
    (InvalidAfterPass) is raised instead of the one the run ended with. So the error
    still names the first pass whose IR is invalid; only IR a pass breaks and a later
    pass repairs goes unreported (mlir-opt's -verify-each=false)."""
    try:
        apply()
    except Exception as e:
        v = verifier
        if again is None or not v.verify or v.verify_each or v.index == 0 or isinstance(e, PipelineError):
            raise  # no pass whose result went unverified ran before the failure
        found = first_invalid_pass(passes, ctx, again)
        if found is None:
            raise
        raise found from None


def first_invalid_pass(
    passes: Sequence[ModulePass], ctx: Context, again: Callable[[], ModuleOp | None]
) -> InvalidAfterPass | None:
    """The error of the first pass whose IR does not verify, when `passes` run on `again()`
    with a verify after every pass (remarks and stderr of that run dropped); None when
    every pass's IR verifies up to the failure."""
    pipeline = PassPipeline(tuple(passes), PipelineCallback(verify=True, verify_each=True))
    try:
        with remark_sink(lambda r: None), contextlib.redirect_stderr(io.StringIO()):
            module = again()
            if module is not None:
                pipeline.apply(ctx, module)
    except InvalidAfterPass as e:
        return e
    except Exception:
        return None
    return None


@dataclass
class PipelineCallback:
    """What runs between two passes (xDSL's PassPipeline callback: previous pass or None,
    the module, next pass or None): verification with located errors (after every pass,
    or with `verify_each=False` only of the input and of the pipeline's result; an error
    after a pass names it: InvalidAfterPass), then, as asked,
    --time-passes (a report after the last pass: `time_report`), --print-between-passes,
    --print-ir-after-all and --print-ir-after-change (stderr) and --dump-dir
    (DIR/NN_<pass>.mlir, 00_input.mlir first, only the stages whose text differs from the
    stage before; the others are listed in DIR/unchanged.txt; chunk<K>_ before each name from
    the second module on, as --split-input-file gives) and --dot-dir (the same stages drawn,
    report/stages.py)."""

    verify: bool = True
    verify_each: bool = True
    time_passes: bool = False
    print_between_passes: bool = False
    print_ir_after_all: bool = False
    print_ir_after_change: bool = False
    dump_dir: str | None = None
    dot_dir: str | None = None
    print_generic: bool = False  # --print-op-generic: the prints and dumps in generic form too
    # the prints and dumps elide a value of more than this many elements (GePrinter.elide_limit)
    elide: int | None = None
    progress: Progress | None = None
    # called with the module right before the verify of the pipeline's result (ge-opt
    # starts the result's print beside that verify: ge_tools/beside.py)
    before_result_verify: Callable[[ModuleOp], None] | None = None
    origin_types: dict[str, str] = field(default_factory=dict)  # node -> GE type, at the input
    modules: int = 0
    index: int = 0
    started: float = 0.0
    # --time-passes: seconds per pass as named in -p (a pass run twice summed), in first-run
    # order, and the seconds the verifies took
    times: dict[str, float] = field(default_factory=dict)
    verify_time: float = 0.0
    # the text of the stage before (--dump-dir, --print-ir-after-change), its dump's name,
    # and the stages --dump-dir did not write because the text was the same
    last_text: str | None = None
    last_stage: str = ""
    unchanged: list[str] = field(default_factory=list)

    def __call__(self, previous: ModulePass | None, module: ModuleOp, next: ModulePass | None) -> None:
        now = time.perf_counter()
        if self.progress is not None:
            self.progress.clear()  # what is printed below starts on a clean line
        if previous is None:
            self.modules += 1
            self.index = 0
            self.times, self.verify_time, self.last_text = {}, 0.0, None
        elif self.time_passes:
            spec = pass_spec(previous)
            self.times[spec] = self.times.get(spec, 0.0) + now - self.started
        if self.verify and (self.verify_each or previous is None or next is None):
            if next is None and previous is not None and self.before_result_verify is not None:
                self.before_result_verify(module)
            started = time.perf_counter()
            self._verify(previous, module)
            self.verify_time += time.perf_counter() - started
        if previous is not None:
            self.index += 1
            if self.print_between_passes and next is not None:
                # xdsl_opt_main.py: xDSLOptMain.setup_pipeline's callback
                print(f"IR after {pass_spec(previous)}:")
                self._print(module, sys.stdout)
                print("\n\n\n")
        text = self._text(module) if self.dump_dir or self.print_ir_after_change else None
        changed = text is None or text != self.last_text
        if previous is not None and (self.print_ir_after_all or (self.print_ir_after_change and changed)):
            # mlir-opt's --mlir-print-ir-after-all / --mlir-print-ir-after-change header
            print(f"// -----// IR Dump After {previous.name} ({previous}) //----- //", file=sys.stderr)
            if text is not None:
                sys.stderr.write(text)
            else:
                self._print(module, sys.stderr)
            print(file=sys.stderr)
        if self.dump_dir:
            assert text is not None
            self._dump("input" if previous is None else previous.name, text, changed)
        self.last_text = text
        if self.dot_dir:
            self._draw("input" if previous is None else previous.name, module)
        if self.time_passes and next is None:
            print(time_report(self.times, self.verify_time if self.verify else None), file=sys.stderr, end="")
        if self.progress is not None and next is not None:
            self.progress.show(self.index + 1, pass_spec(next), module)
        self.started = time.perf_counter()

    @staticmethod
    def _verify(previous: ModulePass | None, module: ModuleOp) -> None:
        if previous is None:
            verify_module(module)
            return
        try:
            verify_module(module)
        except InvalidAfterPass:
            raise
        except LocatedError as e:
            raise InvalidAfterPass(e.op, e.message, pass_spec(previous)) from None

    def _print(self, module: ModuleOp, stream: IO[str]) -> None:
        if not self.print_generic:
            print_module(module, stream, self.elide)
            return
        with names_as_attributes(module):  # node names that upstream tools keep
            print_module(module, stream, self.elide, print_generic_format=True)

    def _text(self, module: ModuleOp) -> str:
        out = io.StringIO()
        self._print(module, out)
        return out.getvalue()

    def _dump(self, name: str, text: str, changed: bool) -> None:
        """DIR/NN_<name>.mlir when the stage's text differs from the stage before (the input
        always); an unchanged stage is a line `NN_<name>.mlir: same as <file before>` of
        DIR/unchanged.txt, which is rewritten (empty when every pass changed the IR) at
        each stage so that it never lists a stale run's stages."""
        assert self.dump_dir
        os.makedirs(self.dump_dir, exist_ok=True)
        prefix = "" if self.modules <= 1 else f"chunk{self.modules}_"
        stage = f"{prefix}{self.index:02d}_{name}.mlir"
        if self.modules <= 1 and self.index == 0:
            self.unchanged = []
        if changed:
            with open(os.path.join(self.dump_dir, stage), "w") as f:
                f.write(text)
                f.write("\n")
            self.last_stage = stage
        else:
            self.unchanged.append(f"{stage}: same as {self.last_stage}")
        with open(os.path.join(self.dump_dir, "unchanged.txt"), "w") as f:
            f.writelines(line + "\n" for line in self.unchanged)

    def _draw(self, name: str, module: ModuleOp) -> None:
        from report.dot import node_types  # report/ only for --dot-dir (start-up time)
        from report.stages import write_stage

        assert self.dot_dir
        prefix = "" if self.modules <= 1 else f"chunk{self.modules}_"
        if self.index == 0:  # the input's node types name the ops each kernel holds later
            self.origin_types = node_types(module)
        write_stage(module, f"{prefix}{self.index:02d}_{name}", self.dot_dir, self.origin_types)


TIME_RULE = "===" + "-" * 73 + "==="


def time_report(times: dict[str, float], verify_time: float | None) -> str:
    """--time-passes' report, in mlir-opt's list form (mlir/lib/Support/Timing.cpp:
    TimerImpl::printAsList): the total, then each pass (named as in -p, a pass run twice
    once, its times summed) with its wall time and share of the total, the largest first,
    then the Total line. `verify_time`: the verifies between the passes (a `verify` row);
    None when nothing was verified. The total is the sum of the rows: parsing and printing
    are outside the pipeline."""
    rows = dict(times)
    if verify_time is not None:
        rows["verify"] = verify_time
    total = sum(rows.values())

    def row(seconds: float, name: str) -> str:
        share = 100.0 * seconds / total if total > 0 else (100.0 if name == "Total" else 0.0)
        return f"  {seconds:10.4f} ({share:5.1f}%)  {name}"

    order = sorted(rows.items(), key=lambda kv: -kv[1])  # stable: ties in first-run order
    lines = [
        TIME_RULE,
        "... Execution time report ...".center(len(TIME_RULE)).rstrip(),
        TIME_RULE,
        f"  Total Execution Time: {total:.4f} seconds",
        "",
        "  ----Wall Time----  ----Name----",
        *(row(seconds, name) for name, seconds in order),
        row(total, "Total"),
        "",
    ]
    return "\n".join(lines) + "\n"
