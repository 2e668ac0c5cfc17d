"""Lifting: AscBackends from lowering that cover fewer than 2 compute ops and were not
fused by CanFuse go back to their original GE ops.

Follows compiler/graph/optimize/autofuse/autofuse/lowering/liftings.cpp
(LiftingManager::LiftingGraph, IsSkipLifting, LiftingAscBackendOp; docs/ge/autofuse.md). The original ops are the AscBackend's `origin` region, which ge-lower-autofuse
fills (GE's is_fuse_from_lowering + origin nodes); an AscBackend made by CanFuse has none
and is never lifted, except a merge of one Split's StoreSplit pieces (it carries the Split as
origin). Every origin region is dropped here, lifted or not. A split-typed AscBackend
(ge-lower-autofuse split-lowering=split) follows LowerSplitHelper::NeedLifting instead of
the compute-op count: a lowered piece stays, a complete split of nothing but the Split goes
back to the GE Split. Rules GE has and this op set cannot meet: cube (no
matmul lowering), optimised-away input buffers (no ZerosLike-like op).

Then, as AscIrLowerer::Lifting does (asc_ir_lowerer.cpp PruneUnusedNodesAfterLifting),
every AscBackend and every lifted op nobody reads is removed, and with it each producer
left without a reader (Data nodes stay): an output of a SplitD/SplitVD that nobody reads
keeps no kernel, while the node's other outputs keep theirs.

The per-node decision and lifting is a `RewritePattern` (`LiftingAscBackendOp`) that
`lift_graph` drives over the graph's nodes, once, in node order (`rewrite_block_once`:
what xDSL's `PatternRewriteWalker` without apply_recursively does, over the graph's own
nodes only); the pruning after it stays a seeded walk (it removes only what lifting freed).
"""

from __future__ import annotations

from collections import deque

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.dtypes import dtype_bits
from ge_dialect.ge import AscBackend, Data, NetOutput, RefData, ge_type, node_name, value_type
from ge_dialect.node_types import (
    CONST_TYPES,
    DATA_NODE_TYPES,
    LIFTING_MIN_COMPUTE_NODES,
    NON_COMPUTE_VIEW_TYPES,
    SPLIT_TYPES,
)
from ge_dialect.reason import Reason
from passes.autofuse.ascgraph_queries import has_fuse_type

# liftings.cpp: kMinOneNodeInData (concat_max_input_num + 1 from the backend spec)
MIN_ONE_NODE_INPUTS = 64
# liftings.cpp: IsSpecificConditionSkipLifting -- tail axis of a non-tail transpose, bytes
TRANSPOSE_TAIL_BYTES = 512
DISABLE_LIFTING = "_disable_lifting"


def origin_ops(op: AscBackend) -> list[Operation]:
    """The original GE ops (no Data, no NetOutput) of a lowered AscBackend, in order."""
    assert op.origin is not None
    return [
        o
        for o in op.origin.block.ops
        if not isinstance(o, Data | RefData | NetOutput) and ge_type(o) not in CONST_TYPES
    ]


def lower_split_need_lifting(op: AscBackend, nodes: list[Operation]) -> Reason | None:
    """Why a split-typed AscBackend stays, or None when it goes back to its Split.

    # lower_split_helper.cpp: LowerSplitHelper::NeedLifting -- CheckFuseOtherNodes lifts only
    a kernel of split-type origin nodes alone that has as many outputs as the original Split
    (CheckFuseRatio's verdict is unused in GE)."""
    rule = "LowerSplitHelper::NeedLifting"
    if any(ge_type(n) not in SPLIT_TYPES for n in nodes):
        return Reason(rule, "a split AscBackend fused with other nodes")
    if len(op.results) < len(nodes[0].results):
        return Reason(rule, f"a split AscBackend with {len(op.results)} of its Split's {len(nodes[0].results)} outputs")
    return None


def is_specific_condition_skip_lifting(n: Operation) -> Reason | None:
    """# liftings.cpp: IsSpecificConditionSkipLifting -> IsSingleTransposeShouldSkipLifting: a
    non-tail-axis transpose whose tail axis is at least TRANSPOSE_TAIL_BYTES stays a kernel."""
    if _is_non_tail_transpose_with_big_tail(n):
        return Reason(
            "IsSpecificConditionSkipLifting",
            f"non-tail-axis transpose with a tail axis of at least {TRANSPOSE_TAIL_BYTES} bytes",
        )
    return None


def is_skip_lifting(op: AscBackend) -> Reason | None:
    """Why `op` stays an AscBackend (liftings.cpp IsSkipLifting, in GE's order), or None."""
    if op.origin is None:
        # liftings.cpp IsSkipLifting step 2: fused by CanFuse and not split (a CanFuse
        # merge of one Split's pieces keeps the Split as origin: decider.split_origin)
        return Reason("IsSkipLifting", "fused by CanFuse (not from lowering)")
    nodes = origin_ops(op)
    if has_fuse_type(op, "split"):
        # liftings.cpp IsSkipLifting step 3: kSplit -> !LowerSplitHelper::NeedLifting
        return lower_split_need_lifting(op, nodes)
    # liftings.cpp IsSkipLifting step 4: compute node num, then the origin output buffers
    compute = [n for n in nodes if ge_type(n) not in NON_COMPUTE_VIEW_TYPES]
    if len(compute) >= LIFTING_MIN_COMPUTE_NODES:
        return Reason("IsSkipLifting", f"{len(compute)} compute ops >= {LIFTING_MIN_COMPUTE_NODES}")
    if len(op.results) > 1:
        return Reason("IsSkipLifting", f"{len(op.results)} origin output buffers > 1")
    # liftings.cpp IsSkipLifting: one origin node with at least kMinOneNodeInData inputs
    if len(nodes) == 1 and len(nodes[0].operands) >= MIN_ONE_NODE_INPUTS:
        return Reason("IsSkipLifting", f"one node with {len(nodes[0].operands)} inputs >= {MIN_ONE_NODE_INPUTS}")
    if len(nodes) == 1 and (why := is_specific_condition_skip_lifting(nodes[0])) is not None:
        return why
    # GE attribute _disable_lifting, on the AscBackend or an origin node (GE tests it first)
    if A.get_bool(op, DISABLE_LIFTING) or any(A.get_bool(n, DISABLE_LIFTING) for n in nodes):
        return Reason("IsSkipLifting", f"{DISABLE_LIFTING} is set")
    return None


def _is_non_tail_transpose_with_big_tail(n: Operation) -> bool:
    if ge_type(n) != "TransposeD":
        return False
    perm = A.get_int_list(n, "perm") or []
    if not perm or perm[-1] != len(perm) - 1:
        return False
    t = value_type(n.operands[0])
    shape = t.get_shape() if isinstance(t, TensorType) else ()  # the origin shape
    tail = shape[-1] if shape else 0
    return tail > 0 and tail * dtype_bits(t.element_type) // 8 >= TRANSPOSE_TAIL_BYTES


def _output_of(op: AscBackend) -> SSAValue:
    assert op.origin is not None
    net = op.origin.block.last_op
    assert isinstance(net, NetOutput)
    return net.operands[0]


def lifting_asc_backend_ops(
    rewriter: PatternRewriter, backends: list[AscBackend], consts: dict[str, Operation]
) -> list[Operation]:
    """# liftings.cpp: LiftingAscBackendOps / LiftingAscBackendOp -- replace `backends` (one, or all the outputs of one
    multi-output origin node) by one copy of their origin ops, placed where the first of
    them is; returns the copies. An origin Const (a folded operand such as GatherV2's axis)
    is the graph's own Const of that name and value when it is still there (`consts`),
    else a copy."""
    first = backends[0]
    vmap: dict[SSAValue, SSAValue] = {}
    assert first.origin is not None
    copies: list[Operation] = []
    for o in first.origin.block.ops:
        if isinstance(o, Data | RefData):
            vmap[o.results[0]] = first.operands[A.get_int(o, "index") or 0]
        elif ge_type(o) in CONST_TYPES:
            same = consts.get(node_name(o))
            if same is not None and same.attributes == o.attributes and same.result_types == o.result_types:
                vmap.update(zip(o.results, same.results))
            else:
                copies.append(o.clone(value_mapper=vmap))
                vmap.update(zip(o.results, copies[-1].results))
    copies += [o.clone(value_mapper=vmap) for o in origin_ops(first)]
    rewriter.insert(copies, InsertPoint.before(first))
    for b in backends:
        assert b.origin is not None
        net = b.origin.block.last_op
        assert isinstance(net, NetOutput)
        for res, out in zip(b.results, net.operands):  # a complete split has several outputs
            # the other backends' origin copies name the same node: map by output position
            src = out.owner
            assert isinstance(src, Operation)
            twin = vmap.get(out)
            if twin is None:
                k = list[SSAValue](src.results).index(out)
                first_src = next(o for o in origin_ops(first) if node_name(o) == node_name(src))
                twin = vmap[first_src.results[k]]
            rewriter.replace_all_uses_with(res, twin)
    for b in backends:
        rewriter.erase(b)
    return copies


def prune_unused_after_lifting(block: Block, lifted_ops: list[Operation], remarks: bool = False) -> list[str]:
    """# asc_ir_lowerer.cpp: AscIrLowerer::PruneUnusedNodesAfterLifting -- remove each
    AscBackend, and each op lifting restored, whose results nobody reads; then every
    producer that removal leaves without a reader (IsNodeShouldPrune: Data nodes stay).
    Returns the names of the removed nodes, in removal order."""
    seeds = [o for o in lifted_ops if o.parent_block() is block]
    seeds += [o for o in block.ops if isinstance(o, AscBackend)]
    queue = deque(o for o in seeds if o.results and not any(r.uses for r in o.results))
    removed: list[str] = []
    gone: set[int] = set()
    while queue:
        op = queue.popleft()
        if id(op) in gone or op.parent_block() is not block or any(r.uses for r in op.results):
            continue
        gone.add(id(op))
        producers = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
        removed.append(node_name(op))
        if remarks:
            remark(
                op,
                f"ge-autofuse: removed '{node_name(op)}': nobody reads its outputs (PruneUnusedNodesAfterLifting)",
                pass_name="ge-autofuse",
                stage="lifting",
                verdict="removed",
                nodes=(node_name(op),),
            )
        block.erase_op(op)
        for p in producers:
            if p.parent_block() is block and ge_type(p) not in DATA_NODE_TYPES and not any(r.uses for r in p.results):
                queue.append(p)
    return removed


class LiftingAscBackendOp(RewritePattern):
    """# liftings.cpp: LiftingManager::LiftingGraph, per node -- an AscBackend from lowering
    that IsSkipLifting does not keep goes back to its origin ops (LiftingAscBackendOp, here
    lifting_asc_backend_ops); the AscBackends of one multi-output origin node wait until
    all its outputs may be lifted (LiftingMultiOutNode) and are lifted together. Matches
    the AscBackends of `block` only (not those inside a FusedAscBackend); records what it
    lifted."""

    def __init__(self, block: Block, remarks: bool = False):
        self.block = block
        self.remarks = remarks
        self.lifted: list[str] = []
        self.lifted_ops: list[Operation] = []
        # liftings.cpp: LiftingGraph's node_maybe_lifting_outputs, keyed by origin node name
        self._waiting: dict[str, list[AscBackend]] = {}
        self._consts: dict[str, Operation] | None = None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, AscBackend) or op.origin is None or op.parent_block() is not self.block:
            return
        why = is_skip_lifting(op)
        if why is not None:
            if self.remarks:
                remark(
                    op,
                    f"ge-autofuse: '{node_name(op)}' not lifted: {why}",
                    reason=why,
                    pass_name="ge-autofuse",
                    stage="lifting",
                    verdict="not lifted",
                    nodes=(node_name(op),),
                )
            return
        src = _output_of(op).owner
        assert isinstance(src, Operation)
        group = [op]
        if len(src.results) > 1:
            # liftings.cpp: LiftingMultiOutNode -- lifted once all the outputs may be
            maybe = self._waiting.setdefault(node_name(src), [])
            maybe.append(op)
            if sum(len(b.results) for b in maybe) != len(src.results):
                return
            group = maybe
            self._waiting.pop(node_name(src))
        names = [node_name(b) for b in group]
        if self.remarks:
            ops = ", ".join(f"{ge_type(n)} '{node_name(n)}'" for n in origin_ops(group[0]))
            how = (
                "all the Split's outputs and nothing else: LowerSplitHelper::NeedLifting"
                if has_fuse_type(group[0], "split")
                else f"fewer than {LIFTING_MIN_COMPUTE_NODES} compute ops, not fused"
            )
            remark(
                group[0],
                f"ge-autofuse: lifted {', '.join(repr(n) for n in names)} back to {ops} ({how})",
                pass_name="ge-autofuse",
                stage="lifting",
                verdict="lifted",
                nodes=names,
            )
        if self._consts is None:
            self._consts = {node_name(o): o for o in self.block.ops if ge_type(o) in CONST_TYPES}
        self.lifted_ops += lifting_asc_backend_ops(rewriter, group, self._consts)
        self.lifted.extend(names)


def rewrite_block_once(pattern: RewritePattern, block: Block) -> None:
    """`PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(block.parent)`
    for a pattern that matches only ops of `block` itself (LiftingAscBackendOp,
    LiftingPoorPerfFusedAscBackendOp): the same ops in the same order (the walk's
    pre-order, restricted to the block), an op a rewrite took out of the block skipped
    and the ops a rewrite inserts not matched, as in the walk without apply_recursively;
    without queueing every nested node (each AscBackend's AscGraph) only to skip it."""
    for op in list(block.ops):
        if op.parent is block:
            pattern.match_and_rewrite(op, PatternRewriter(op))


def _backends_with_origin(block: Block) -> list[AscBackend]:
    """`[o for o in block.walk() if isinstance(o, AscBackend) and o.origin is not None]`,
    in the same order, not walking into AscGraphs (their AscIR nodes are no AscBackends)."""
    out: list[AscBackend] = []

    def visit(b: Block) -> None:
        for o in b.ops:
            if isinstance(o, AscBackend) and o.origin is not None:
                out.append(o)
            if isinstance(o, ag.AscGraphOp):
                continue
            for r in o.regions:
                for inner in r.blocks:
                    visit(inner)

    visit(block)
    return out


def lift_graph(block: Block, remarks: bool = False) -> list[str]:
    """# liftings.cpp: LiftingManager::LiftingGraph -- returns the names of lifted AscBackends.

    One forward walk of `block`'s graph with LiftingAscBackendOp (the ops lifting
    restores are not matched again), then every origin region is dropped and the nodes
    nobody reads are pruned."""
    pattern = LiftingAscBackendOp(block, remarks)
    rewrite_block_once(pattern, block)
    # the rest keep their kernels (also those CanFuse moved into a FusedAscBackend)
    for op in _backends_with_origin(block):
        drop_origin(op)
    prune_unused_after_lifting(block, pattern.lifted_ops, remarks)
    return pattern.lifted


def drop_origin(op: AscBackend) -> None:
    """Forget the origin ops (GE drops them with the lowering's bookkeeping)."""
    assert op.origin is not None
    region = op.origin
    op.detach_region(region)
    region.erase()
