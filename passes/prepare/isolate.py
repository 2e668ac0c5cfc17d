"""GE's node removal with io_map {0} (base_pass.cc: BaseNodePass::IsolateAndDeleteNode),
shared by the prepare passes that delete a node type outright: ge-dropout-pass,
ge-stop-gradient-pass, ge-prevent-gradient-pass, ge-snapshot-pass (each a file of its
own). Not a pass itself.

Each of GE's passes is a node pass (GEPass runs it once per node, graph_prepare.cc:
PrepareOptimize, names_to_passes): it compares the node's original type
(GetOriginalType: a FrameworkOp's original type; the ge dialect has no FrameworkOp, so the
type itself) with its one type and, on a match, calls IsolateAndDeleteNode(node, {0}):
the consumers of output 0 read input 0 and the node goes. Root graphs first, then
subgraphs (pass_manager.cc: PassManager::Run); nodes in graph order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from ge_dialect.diagnostics import remark
from ge_dialect.ge import GraphOp
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.names import ge_type, name_nodes, node_name
from ge_dialect.pass_options import REMARKS, Option


@dataclass
class IsolateAndDelete(RewritePattern):
    """One node of type `ge_type_name` in a graph (not an AscBackend's origin body):
    consumers of output 0 read input 0, the node is erased."""

    ge_type_name: str
    pass_name: str
    ge_pass: str
    remarks: bool

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        # e.g. dropout_pass.cc: DropOutPass::Run (op_type == DROPOUT)
        if ge_type(op) != self.ge_type_name or not isinstance(op.parent_op(), GraphOp):
            return
        if self.remarks:
            remark(
                op,
                f"{self.pass_name}: {ge_type(op)} '{node_name(op)}' removed "
                f"({self.ge_pass}: IsolateAndDeleteNode, io_map 0 -> 0)",
                pass_name=self.pass_name,
            )
        # base_pass.cc: BaseNodePass::IsolateAndDeleteNode (io_map {0})
        rewriter.replace_all_uses_with(op.results[0], op.operands[0])
        rewriter.erase(op)


@dataclass(frozen=True)
class RemoveTypePass(ModulePass):
    """Base of the passes that delete every node of one type (GE_TYPE), as GE's pass
    GE_PASS does."""

    GE_TYPE: ClassVar[str]
    GE_PASS: ClassVar[str]

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for graph in graphs_in_pass_order(op):
            name_nodes(graph.body.block)  # names follow the input graph
            if not any(ge_type(n) == self.GE_TYPE for b in graph.body.blocks for n in b.ops):
                continue  # nothing to delete here: the walk would match nothing
            pattern = IsolateAndDelete(self.GE_TYPE, self.name, self.GE_PASS, self.remarks)
            PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(graph.body)
