"""ge-prevent-gradient-pass: GE's PreventGradientPass (removal of PreventGradient nodes before execution).

Port of ``compiler/graph/passes/standard_optimize/remove_unsupported_op/prevent_gradient_pass.cc``
(hicann/ge), which GraphPrepare runs on every graph (graph_prepare.cc: PrepareOptimize,
names_to_passes): a node whose original type is PREVENTGRADIENT is deleted with
IsolateAndDeleteNode(node, {0}), so its consumers read its input. ge-compile runs it
before the rest of the pipeline; a PreventGradient that reached task generation would fail there
(GeDeletedOp::Run, or no engine takes it). `remarks` prints one line per node removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from passes.prepare.isolate import RemoveTypePass


@dataclass(frozen=True)
class PreventGradientPass(RemoveTypePass):
    """Deletes every PreventGradient node (its consumers read its input), as GE's PreventGradientPass."""

    name = "ge-prevent-gradient-pass"

    # prevent_gradient_pass.cc: PreventGradientPass::Run
    GE_TYPE: ClassVar[str] = "PreventGradient"
    GE_PASS: ClassVar[str] = "PreventGradientPass"
