"""ge-dropout-pass: GE's DropOutPass (removal of Dropout nodes before execution).

Port of ``compiler/graph/passes/standard_optimize/remove_unsupported_op/dropout_pass.cc``
(hicann/ge), which GraphPrepare runs on every graph (graph_prepare.cc: PrepareOptimize,
names_to_passes): a node whose original type is DROPOUT, in inference only (graph_prepare.cc: PrepareOptimize adds it when train_graph_flag is false; ge-compile compiles for inference) is deleted with
IsolateAndDeleteNode(node, {0}), so its consumers read its input. ge-compile runs it
before the rest of the pipeline; a Dropout that reached task generation would fail there
(GeDeletedOp::Run, or no engine takes it). `remarks` prints one line per node removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from passes.prepare.isolate import RemoveTypePass


@dataclass(frozen=True)
class DropOutPass(RemoveTypePass):
    """Deletes every Dropout node (its consumers read its input), as GE's DropOutPass."""

    name = "ge-dropout-pass"

    # dropout_pass.cc: DropOutPass::Run
    GE_TYPE: ClassVar[str] = "Dropout"
    GE_PASS: ClassVar[str] = "DropOutPass"
