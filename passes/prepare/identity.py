"""ge-identity-pass: GE's IdentityPass (removal of Identity nodes before execution).

Port of ``compiler/graph/passes/memory_conflict/identity_pass.{h,cc}`` (hicann/ge), which
GraphPrepare runs on every graph and subgraph (graph_prepare.cc: PrepareOptimize,
``IdentityPass identity_pass(false)``) and GraphManager runs again after
SwitchToStreamSwitchPass (graph_manager.cc: OptimizeStage1_3, ``identity_force_pass(false)``).
An Identity node is deleted (its consumers read its input instead, IsolateAndDeleteNode
with io_map 0->0) unless CheckIdentityUsable finds a use for it:

* it carries ``no_need_constant_folding`` or ``_is_inserted_by_cann`` (any value: GE asks
  HasAttr; MemLayoutConflictUtil's copies carry the first);
* its input is a subgraph's Data (a Data of a graph some PartitionedCall calls, unless
  that call is forced unknown, `_is_unknown_shape`, in a root or unknown graph) or a node
  with a subgraph (a PartitionedCall);
* its first consumer is a subgraph's NetOutput or a node with a subgraph.

Only the first producer and the first consumer are looked at: GE's loops stop (`break`)
at the first node that is not a Switch / Merge. GE's order of a node's consumers is the
order its edges were made; here it is the consumers' order in the graph, then the
operand index. The rules on Switch/RefSwitch with out-control edges, Merge/RefMerge
with in-control edges and IsIdentityUsefulForVarCache (ReadVariableOp with Assign
control edges) need control edges, Switch, Merge or ReadVariableOp, which the ge dialect
does not have: they cannot fire and are not ported. The root graph's NetOutput is not a
subgraph output, so an Identity before it is deleted (NetOutput then reads the
Identity's input: a Data, a Const, a kernel's output).

``force`` (IdentityPass(bool force)) skips CheckIdentityUsable: every Identity goes.

A kept Identity reaches task generation, where GE's engine placement gives it to the rts
engine (DNN_VM_RTS, COST_2, sorted ahead of the GE-local engine's COST_9): a MemcpyAsync
task (lowering/ge_to_npu.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.ge import Data, GraphOp, NetOutput, PartitionedCall
from ge_dialect.graph import graphs_in_pass_order, subgraph_callers
from ge_dialect.names import ge_type, name_nodes, node_name
from ge_dialect.pass_options import REMARKS, Flag, Option

# identity_pass.cc: IdentityPass::Run (IDENTITY, IDENTITYN, READVARIABLEOP after GetOriginalType)
IDENTITY_TYPES = frozenset({"Identity", "IdentityN", "ReadVariableOp"})
# ge_attr_define.cc: ATTR_NO_NEED_CONSTANT_FOLDING, ATTR_NAME_IS_INSERTED_BY_CANN, ATTR_NAME_IS_UNKNOWN_SHAPE
NO_NEED_CONSTANT_FOLDING = "no_need_constant_folding"
IS_INSERTED_BY_CANN = "_is_inserted_by_cann"
IS_UNKNOWN_SHAPE = "_is_unknown_shape"


def is_subgraph_io(graph: Operation | None, callers: dict[str, list[PartitionedCall]]) -> bool:
    """node_utils.cc: NodeUtils::IsSubgraphInput / IsSubgraphOutput for a Data / NetOutput
    of `graph`: the graph has a parent node (here: a PartitionedCall calls it; GE keeps one
    parent per subgraph instance, here the first caller in module order), unless that
    parent is forced unknown (`_is_unknown_shape`) and its own graph is unknown
    (GetGraphUnknownFlag) or is a root graph (no parent node)."""
    if not isinstance(graph, GraphOp) or not callers.get(graph.sym_name.data):
        return False
    parent = callers[graph.sym_name.data][0]
    if A.get_bool(parent, IS_UNKNOWN_SHAPE):
        owner = parent.parent_op()
        assert isinstance(owner, GraphOp)
        if A.get_bool(owner, A.GRAPH_UNKNOWN_FLAG) or not callers.get(owner.sym_name.data):
            return False
    return True


def _has_subgraph(op: Operation) -> bool:
    """OpDesc::GetSubgraphInstanceNames() non-empty: in the ge dialect, a PartitionedCall."""
    return isinstance(op, PartitionedCall)


def _first_consumer(op: Operation, pos: dict[Operation, int]) -> Operation | None:
    """The first node of GetOutDataNodes(): the earliest reader in the graph."""
    readers = [(pos[u.operation], u.index, u.operation) for r in op.results for u in r.uses if u.operation in pos]
    return min(readers, key=lambda t: (t[0], t[1]))[2] if readers else None


def usable_reason(op: Operation, callers: dict[str, list[PartitionedCall]], pos: dict[Operation, int]) -> str | None:
    """identity_pass.cc: CheckIdentityUsable: why GE keeps `op`, or None (GE deletes it)."""
    in_subgraph = is_subgraph_io(op.parent_op(), callers)
    # identity_pass.cc: CheckIdentityUsable (HasAttr ATTR_NO_NEED_CONSTANT_FOLDING or ATTR_NAME_IS_INSERTED_BY_CANN)
    for attr in (NO_NEED_CONSTANT_FOLDING, IS_INSERTED_BY_CANN):
        if attr in op.attributes:
            return f"it carries {attr}"
    # identity_pass.cc: CheckIdentityUsable, GetInDataNodes loop (first in node only: not a Switch, break)
    for v in op.operands[:1]:
        src = v.owner
        # node_utils.cc: NodeUtils::IsSubgraphInput
        if isinstance(src, Data) and in_subgraph:
            return f"its input is subgraph input Data '{node_name(src)}' (near the subgraph's entrance)"
        if isinstance(src, Operation) and _has_subgraph(src):
            return f"its input comes from {ge_type(src)} '{node_name(src)}', a node with a subgraph"
    # identity_pass.cc: CheckIdentityUsable, GetOutDataNodes loop (first out node only: not a Merge, break)
    dst = _first_consumer(op, pos)
    if dst is not None:
        # node_utils.cc: NodeUtils::IsSubgraphOutput
        if isinstance(dst, NetOutput) and in_subgraph:
            return "its first consumer is the subgraph's NetOutput (near the subgraph's output)"
        if _has_subgraph(dst):
            return f"its first consumer is {ge_type(dst)} '{node_name(dst)}', a node with a subgraph"
    # identity_pass.cc: CheckIdentityUsable, usable = IsIdentityUsefulForVarCache: false
    # for all but a ReadVariableOp with control edges to Assign nodes (none in the dialect)
    return None


@dataclass
class DeleteIdentity(RewritePattern):
    """One Identity-like node of one graph: deleted (its consumers read its input) unless
    CheckIdentityUsable finds a use for it.

    # identity_pass.cc: IdentityPass::Run (a GE node pass: one application per node)
    Not local by itself: CheckIdentityUsable asks which graphs are subgraphs (`callers`,
    a scan of the module) and which consumer comes first (`pos`, the graph's node order
    before any deletion), computed once by the pass and given here. Applied in one forward
    sweep, as GE's node pass runs, so an Identity sees its producers as the earlier
    deletions left them.
    """

    callers: dict[str, list[PartitionedCall]]
    pos: dict[Operation, int]
    force: bool
    remarks: bool

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        # identity_pass.cc: IdentityPass::Run (only Identity-like types; nodes of this
        # graph, not the copies inside an AscBackend's origin region)
        if op not in self.pos or ge_type(op) not in IDENTITY_TYPES:
            return
        # identity_pass.cc: IdentityPass::Run (force_ skips CheckIdentityUsable)
        why = None if self.force else usable_reason(op, self.callers, self.pos)
        if why is not None:
            if self.remarks:
                remark(op, f"ge-identity-pass: {ge_type(op)} '{node_name(op)}' kept: {why} (CheckIdentityUsable)")
            return
        if self.remarks:
            forced = " (force)" if self.force else ""
            remark(op, f"ge-identity-pass: {ge_type(op)} '{node_name(op)}' removed{forced} (IsolateAndDeleteNode)")
        # identity_pass.cc: IdentityPass::Run (io_map i -> i) and base_pass.cc:
        # BaseNodePass::IsolateAndDeleteNode (consumers of output i read input i)
        for i, r in enumerate(op.results):
            rewriter.replace_all_uses_with(r, op.operands[i])
        rewriter.erase(op)


@dataclass(frozen=True)
class IdentityPass(ModulePass):
    """Deletes the Identity nodes GE's IdentityPass deletes (consumers read the input).

    Kept (CheckIdentityUsable): an Identity with `no_need_constant_folding` or
    `_is_inserted_by_cann`; one whose input is a subgraph's Data or a PartitionedCall;
    one whose first consumer is a subgraph's NetOutput or a PartitionedCall (a subgraph
    called by a `_is_unknown_shape` PartitionedCall in a root or unknown graph has no
    subgraph Data or NetOutput in this sense).
    `force=true` deletes every Identity. Runs on the root graphs, then the subgraphs,
    nodes in graph order. `remarks` prints one line per Identity: removed, or kept and why.
    """

    name = "ge-identity-pass"

    force: bool = False
    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {
        "force": Option("delete every Identity, skipping CheckIdentityUsable (GE's IdentityPass(force))", Flag()),
        "remarks": REMARKS,
    }

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        callers: dict[str, list[PartitionedCall]] | None = None  # the module's scan, when needed
        for graph in graphs_in_pass_order(op):
            block = graph.body.block
            # names follow the input graph: fixed before any node is deleted
            name_nodes(block)
            if not any(ge_type(n) in IDENTITY_TYPES for n in block.ops):
                continue  # no Identity-like node: the sweep would match nothing
            if callers is None:
                callers = subgraph_callers(op)
            pos = {n: i for i, n in enumerate(block.ops)}
            pattern = DeleteIdentity(callers, pos, self.force, self.remarks)
            PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(graph.body)
