"""Passes that break the IR or crash on broken IR, for the tests of how a tool names the pass
that produced invalid IR (ge_tools/pass_callback.py: apply_verified_at_ends): ge-opt's
(tests/tools/test_opt_cli.py), ge-run's and the API's (tests/tools/test_verify_at_ends.py)."""

from __future__ import annotations

import dataclasses

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
