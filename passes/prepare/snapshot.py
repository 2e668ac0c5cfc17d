"""ge-snapshot-pass: GE's SnapshotPass (removal of Snapshot nodes before execution).

Port of ``compiler/graph/passes/standard_optimize/remove_unsupported_op/snapshot_pass.cc``
(hicann/ge), which GraphPrepare runs on every graph (graph_prepare.cc: PrepareOptimize,
names_to_passes): a node whose original type is SNAPSHOT is deleted with
IsolateAndDeleteNode(node, {0}), so its consumers read its input. ge-compile runs it
before the rest of the pipeline; a Snapshot that reached task generation would fail there
(GeDeletedOp::Run, or no engine takes it). `remarks` prints one line per node removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from passes.prepare.isolate import RemoveTypePass


@dataclass(frozen=True)
class SnapshotPass(RemoveTypePass):
    """Deletes every Snapshot node (its consumers read its input), as GE's SnapshotPass."""

    name = "ge-snapshot-pass"

    # snapshot_pass.cc: SnapshotPass::Run
    GE_TYPE: ClassVar[str] = "Snapshot"
    GE_PASS: ClassVar[str] = "SnapshotPass"
