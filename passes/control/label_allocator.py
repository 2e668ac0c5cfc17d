"""ge-label-allocator: GE's LabelAllocator for the functional control-flow nodes.

Port of ``compiler/graph/build/label_allocator.cc`` (hicann/ge), which GraphManager runs
in OptimizeStage2 after SubgraphPass (graph_manager.cc: ControlAttrOptimize):
LabelAllocator::AssignFunctionalLabels walks the root graph's subgraphs and, through
CollectFunctionalNode, gathers the parent node of every known-shape subgraph: it skips a
subgraph whose graph or owner graph is unknown (GetGraphUnknownFlag: those run on the host,
their control ops as the dynamic runtime's control-op tasks). For each node gathered it
runs the node's LabelMaker with one serial label index for the whole graph and stores the
count (ATTR_MODEL_LABEL_NUM). The makers take (compiler/graph/label/):

* If (IfOpLabelMaker::Run): 3 labels, then-enter, else-enter, else-leave;
* While (WhileOpLabelMaker::Run): 3 labels, cond-enter, body-enter, body-leave;
* Case (CaseOpLabelMaker::Run): one per branch and one to leave; a single-branch Case none;
* PartitionedCall (PartitionedCallOpLabelMaker::Run): none (it only activates the
  called graph's stream; here a known call is inlined on its caller's stream).

GE's makers add the LabelSet / LabelGotoEx / LabelSwitchByIndex / StreamActive nodes into
the subgraphs; here the labels are the node's `_label_indexes` (in its maker's order) and
ge-to-npu emits those tasks where the makers put the nodes (lowering/ge_to_npu.py:
lower_control). Each root graph gets `_label_num`. `remarks` prints one line per node
given labels or skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.ge import ControlOp, GraphOp, called_graph_names
from ge_dialect.graph import dynamic_graphs, graphs_in_pass_order
from ge_dialect.names import ge_type, node_name
from ge_dialect.pass_options import REMARKS, Option


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


# label_allocator.cc: the LabelMaker each functional type registers (REGISTER_LABEL_MAKER)
LABEL_MAKERS = {"If": "IfOpLabelMaker", "Case": "CaseOpLabelMaker", "While": "WhileOpLabelMaker"}
LABEL_NAMES = {
    "If": ("then-enter", "else-enter", "else-leave"),
    "While": ("cond-enter", "body-enter", "body-leave"),
}


def label_count(op: ControlOp) -> int:
    """The labels op's maker takes (module doc)."""
    kind = ge_type(op).removeprefix("Stateless")
    if kind == "Case":
        n = len(op.subgraph_refs())
        # case_op_label_maker.cc: a single branch needs no switch (no labels)
        return 0 if n == 1 else n + 1
    return 3


def label_roles(op: ControlOp) -> tuple[str, ...]:
    kind = ge_type(op).removeprefix("Stateless")
    if kind == "Case":
        n = label_count(op)
        return tuple(f"branch-{i}-enter" for i in range(n - 1)) + (("leave",) if n else ())
    return LABEL_NAMES[kind]


@dataclass(frozen=True)
class LabelAllocatorPass(ModulePass):
    """Gives every functional node of a known graph its labels (AssignFunctionalLabels);
    unknown graphs' are skipped (module doc)."""

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
        # label_allocator.cc: AssignFunctionalLabels (one serial index, maker by maker)
        label_index = 0
        for node in need:
            n = label_count(node)
            ids = list(range(label_index, label_index + n))
            label_index += n
            node.attributes[A.LABEL_INDEXES] = A.int_list_attr(ids)
            if self.remarks:
                kind = ge_type(node).removeprefix("Stateless")
                roles = ", ".join(f"{r} {i}" for r, i in zip(label_roles(node), ids)) or "none: a single branch"
                remark(
                    node,
                    f"{self.name}: {ge_type(node)} '{node_name(node)}': {n} labels ({roles}) ({LABEL_MAKERS[kind]})",
                    pass_name=self.name,
                    verdict="labelled",
                )
        dynamic = dynamic_graphs(op)
        called = {n for g in graphs_in_pass_order(op) for c in g.body.block.ops for n in called_graph_names(c)}
        for g in graphs_in_pass_order(op):
            if g.sym_name.data not in dynamic and g.sym_name.data not in called and need:
                # ge_attr_define.cc: ATTR_MODEL_LABEL_NUM
                A.set_int(g, A.LABEL_NUM, label_index)
