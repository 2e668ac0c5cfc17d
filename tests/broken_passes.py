"""Passes that break the IR or crash on broken IR, for the tests of how a tool names the pass
that produced invalid IR (ge_tools/pass_callback.py: apply_verified_at_ends): ge-opt's
(tests/tools/test_opt_cli.py), ge-run's and the API's (tests/tools/test_verify_at_ends.py)."""

from __future__ import annotations

import dataclasses
import re

from xdsl.passes import ModulePass


@dataclasses.dataclass(frozen=True)
class BreakIR(ModulePass):
    """Removes ReduceMaxD's required `axes`: IR that does not verify."""

    name = "test-break-ir"

    def apply(self, ctx, op):
        for o in op.walk():
            if o.name == "ge.ReduceMaxD":
                del o.attributes["axes"]


@dataclasses.dataclass(frozen=True)
class NeedAxes(ModulePass):
    """Reads ReduceMaxD's `axes`: an internal error (KeyError) on BreakIR's IR."""

    name = "test-need-axes"

    def apply(self, ctx, op):
        for o in op.walk():
            if o.name == "ge.ReduceMaxD":
                o.attributes["axes"]


@dataclasses.dataclass(frozen=True)
class Noop(ModulePass):
    name = "test-noop"

    def apply(self, ctx, op):
        pass


TEST_PASSES = (BreakIR, NeedAxes, Noop)

# Pipelines whose IR test-break-ir breaks: alone, not the last pass, and with a later pass
# that crashes on the invalid IR (the error names test-break-ir in each)
BROKEN_PIPELINES = (
    "test-break-ir",
    "test-noop,test-break-ir,test-noop,test-noop",
    "test-break-ir,test-need-axes,test-noop",
)


def names_the_broken_pass(line: str, path: str) -> bool:
    """`line` is the verifier's located error at the ReduceMaxD of `path`, naming the pass
    that removed its axes."""
    return (
        re.fullmatch(
            rf"{re.escape(path)}:\d+:\d+: error: ge\.ReduceMaxD: ReduceMaxD requires attribute 'axes' "
            r".*\(after pass test-break-ir\)",
            line,
        )
        is not None
    )
