"""ge-stop-gradient-pass: GE's StopGradientPass (removal of StopGradient nodes before execution).

Port of ``compiler/graph/passes/standard_optimize/remove_unsupported_op/stop_gradient_pass.cc``
(hicann/ge), which GraphPrepare runs on every graph (graph_prepare.cc: PrepareOptimize,
names_to_passes): a node whose original type is STOPGRADIENT is deleted with
IsolateAndDeleteNode(node, {0}), so its consumers read its input. ge-compile runs it
before the rest of the pipeline; a StopGradient that reached task generation would fail there
(GeDeletedOp::Run, or no engine takes it). `remarks` prints one line per node removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from passes.prepare.isolate import RemoveTypePass


@dataclass(frozen=True)
class StopGradientPass(RemoveTypePass):
    """Deletes every StopGradient node (its consumers read its input), as GE's StopGradientPass."""

    name = "ge-stop-gradient-pass"

    # stop_gradient_pass.cc: StopGradientPass::Run
    GE_TYPE: ClassVar[str] = "StopGradient"
    GE_PASS: ClassVar[str] = "StopGradientPass"
