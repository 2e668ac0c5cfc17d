"""ge-label-allocator: GE's LabelAllocator for the functional control-flow nodes.

Port of the collection step of ``compiler/graph/build/label_allocator.cc`` (hicann/ge),
which GraphManager runs in OptimizeStage2 after SubgraphPass (graph_manager.cc:
ControlAttrOptimize): LabelAllocator::AssignFunctionalLabels walks the root graph's
subgraphs and, through CollectFunctionalNode, gathers the parent node of every known-shape
subgraph: it skips a subgraph whose graph or owner graph is unknown (GetGraphUnknownFlag:
those run on the host, their control ops as the dynamic runtime's control-op tasks) and a
node of a host-exec graph. For each node gathered GE then runs its LabelMaker
(IfOpLabelMaker, WhileOpLabelMaker, CaseOpLabelMaker; PartitionedCallOpLabelMaker), which
adds LabelSet / LabelGoto / LabelSwitchByIndex / StreamActive nodes to the subgraphs.

Here a PartitionedCall of a known graph is inlined by task generation
(lowering/ge_to_npu.py), so it needs no label. The label makers of If, Case and While are
not ported yet: a functional control-flow node left in a graph compiled as a static model
is refused, one located error naming the node ("If on the static path is not supported
yet"), rather than compiled into tasks that do not branch. A control node of an unknown
graph (ge-partition-dynamic's unknown root or unknown subgraph) is skipped, as GE skips it,
and runs on the host. `remarks` prints one line per node collected or skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ge_dialect.diagnostics import LocatedError, remark
from ge_dialect.ge import ControlOp, GraphOp
from ge_dialect.graph import dynamic_graphs, graphs_in_pass_order
from ge_dialect.names import ge_type, node_name
from ge_dialect.pass_options import REMARKS, Option
from ge_dialect.reason import Reason


def collect_functional_nodes(module: ModuleOp) -> tuple[list[ControlOp], list[ControlOp]]:
    """(nodes that need labels, nodes skipped): the control-flow nodes of the graphs
    compiled as static models, and those of unknown graphs, in pass order.

    # label_allocator.cc: LabelAllocator::CollectFunctionalNode (skips a subgraph whose
    # graph or parent's owner graph is unknown: GetGraphUnknownFlag)
    """
    dynamic = dynamic_graphs(module)
    need: list[ControlOp] = []
    skipped: list[ControlOp] = []
    for g in graphs_in_pass_order(module):
        for op in g.body.block.ops:
            if isinstance(op, ControlOp):
                (skipped if g.sym_name.data in dynamic else need).append(op)
    return need, skipped


def static_path_refusal(op: ControlOp) -> Reason:
    """Why a control node of a known-shape graph cannot be compiled yet."""
    makers = {"If": "IfOpLabelMaker", "Case": "CaseOpLabelMaker", "While": "WhileOpLabelMaker"}
    kind = ge_type(op).removeprefix("Stateless")
    return Reason(
        makers.get(kind, "LabelAllocator::AssignFunctionalLabels"),
        f"{ge_type(op)} on the static path is not supported yet: its label tasks (LabelSet, LabelGoto, "
        "LabelSwitchByIndex, StreamActive) are not generated; give the graph an unknown (`?`) dim to run "
        "it on the dynamic path, or run ge-run --reference",
    )


@dataclass(frozen=True)
class LabelAllocatorPass(ModulePass):
    """Collects the functional nodes of known graphs (CollectFunctionalNode) and refuses
    them (the label makers are not ported); unknown graphs' are skipped (module doc)."""

    name = "ge-label-allocator"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        need, skipped = collect_functional_nodes(op)
        if self.remarks:
            for node in skipped:
                graph = node.parent_op()
                assert isinstance(graph, GraphOp)
                remark(
                    node,
                    f"{self.name}: {ge_type(node)} '{node_name(node)}' skipped: graph @{graph.sym_name.data} is "
                    "unknown-shape, its control flow runs on the host (CollectFunctionalNode)",
                    pass_name=self.name,
                    verdict="skipped",
                )
        if need:
            node = need[0]
            raise LocatedError(node, str(static_path_refusal(node)))
