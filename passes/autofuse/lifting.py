"""Lifting: AscBackends from lowering that cover fewer than 2 compute ops and were not
fused by CanFuse go back to their original GE ops.

Follows compiler/graph/optimize/autofuse/autofuse/lowering/liftings.cpp
(LoweringManager::LiftingOneNodeAscBackendOp, IsSkipLifting; ge_fusion.md §1 item 6,
§3.5). The original ops are the AscBackend's `origin` region, which ge-lower-autofuse
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
"""

from __future__ import annotations

import sys
from collections import deque

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from ge_dialect import attrs as A
from ge_dialect.diagnostics import op_location
from ge_dialect.dtypes import dtype_bits
from ge_dialect.ge import AscBackend, Data, NetOutput, RefData, ge_type, node_name
from ge_dialect.node_types import (
    CONST_TYPES,
    DATA_NODE_TYPES,
    LIFTING_MIN_COMPUTE_NODES,
    NON_COMPUTE_VIEW_TYPES,
    SPLIT_TYPES,
)
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


def skip_reason(op: AscBackend) -> str | None:
    """Why `op` stays an AscBackend (liftings.cpp IsSkipLifting, in GE's order), or None."""
    if op.origin is None:
        # liftings.cpp IsSkipLifting step 2: fused by CanFuse and not split (a CanFuse
        # merge of one Split's pieces keeps the Split as origin: decider.split_origin)
        return "fused by CanFuse (not from lowering)"
    nodes = origin_ops(op)
    if has_fuse_type(op, "split"):
        # liftings.cpp IsSkipLifting: kSplit -> !LowerSplitHelper::NeedLifting, whose
        # CheckFuseOtherNodes lifts only a kernel of split-type origin nodes alone that has
        # as many outputs as the original Split (CheckFuseRatio's verdict is unused in GE)
        if any(ge_type(n) not in SPLIT_TYPES for n in nodes):
            return "a split AscBackend fused with other nodes"
        if len(op.results) < len(nodes[0].results):
            return f"a split AscBackend with {len(op.results)} of its Split's {len(nodes[0].results)} outputs"
        return None
    compute = [n for n in nodes if ge_type(n) not in NON_COMPUTE_VIEW_TYPES]
    if len(compute) >= LIFTING_MIN_COMPUTE_NODES:
        return f"{len(compute)} compute ops >= {LIFTING_MIN_COMPUTE_NODES}"
    if len(op.results) > 1:
        return f"{len(op.results)} origin output buffers > 1"
    if len(nodes) == 1 and len(nodes[0].operands) >= MIN_ONE_NODE_INPUTS:
        return f"one node with {len(nodes[0].operands)} inputs >= {MIN_ONE_NODE_INPUTS}"
    if len(nodes) == 1 and _is_non_tail_transpose_with_big_tail(nodes[0]):
        return f"non-tail-axis transpose with a tail axis of at least {TRANSPOSE_TAIL_BYTES} bytes"
    # GE attribute _disable_lifting, on the AscBackend or an origin node
    if A.get_bool(op, DISABLE_LIFTING) or any(A.get_bool(n, DISABLE_LIFTING) for n in nodes):
        return f"{DISABLE_LIFTING} is set"
    return None


def _is_non_tail_transpose_with_big_tail(n: Operation) -> bool:
    if ge_type(n) != "TransposeD":
        return False
    perm = A.get_int_list(n, "perm") or []
    if not perm or perm[-1] != len(perm) - 1:
        return False
    t = n.operands[0].type
    shape = t.get_shape() if isinstance(t, TensorType) else ()  # the origin shape
    tail = shape[-1] if shape else 0
    return tail > 0 and tail * dtype_bits(t.element_type) // 8 >= TRANSPOSE_TAIL_BYTES  # type: ignore[attr-defined]


def _output_of(op: AscBackend) -> SSAValue:
    assert op.origin is not None
    net = op.origin.block.last_op
    assert isinstance(net, NetOutput)
    return net.operands[0]


def _lift(block: Block, backends: list[AscBackend], consts: dict[str, Operation]) -> list[Operation]:
    """Replace `backends` (one, or all the outputs of one multi-output origin node) by one
    copy of their origin ops, placed where the first of them is; returns the copies. An
    origin Const (a folded operand such as GatherV2's axis) is the graph's own Const of
    that name and value when it is still there (`consts`), else a copy."""
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
    for c in copies:
        block.insert_op_before(c, first)
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
                k = list(src.results).index(out)
                first_src = next(o for o in origin_ops(first) if node_name(o) == node_name(src))
                twin = vmap[first_src.results[k]]
            res.replace_all_uses_with(twin)
    for b in backends:
        block.erase_op(b)
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
            print(
                f"{op_location(op)}: remark: ge-autofuse: removed '{node_name(op)}': nobody reads its outputs",
                file=sys.stderr,
            )
        block.erase_op(op)
        for p in producers:
            if p.parent_block() is block and ge_type(p) not in DATA_NODE_TYPES and not any(r.uses for r in p.results):
                queue.append(p)
    return removed


def lift_graph(block: Block, remarks: bool = False) -> list[str]:
    """# liftings.cpp: LiftingOneNodeAscBackendOp -- returns the names of lifted AscBackends."""
    lifted: list[str] = []
    lifted_ops: list[Operation] = []
    waiting: dict[str, list[AscBackend]] = {}
    consts: dict[str, Operation] | None = None
    for op in list(block.ops):
        if not isinstance(op, AscBackend) or op.origin is None:
            continue
        why = skip_reason(op)
        if why is not None:
            if remarks:
                print(f"{op_location(op)}: remark: ge-autofuse: '{node_name(op)}' not lifted: {why}", file=sys.stderr)
            continue
        src = _output_of(op).owner
        assert isinstance(src, Operation)
        group = [op]
        if len(src.results) > 1:
            # an origin node with several outputs is lifted once all of them may be
            maybe = waiting.setdefault(node_name(src), [])
            maybe.append(op)
            if sum(len(b.results) for b in maybe) != len(src.results):
                continue
            group = maybe
            waiting.pop(node_name(src))
        names = [node_name(b) for b in group]
        if remarks:
            ops = ", ".join(f"{ge_type(n)} '{node_name(n)}'" for n in origin_ops(group[0]))
            why = (
                "all the Split's outputs and nothing else: LowerSplitHelper::NeedLifting"
                if has_fuse_type(group[0], "split")
                else f"fewer than {LIFTING_MIN_COMPUTE_NODES} compute ops, not fused"
            )
            print(
                f"{op_location(group[0])}: remark: ge-autofuse: lifted {', '.join(repr(n) for n in names)} back to "
                f"{ops} ({why})",
                file=sys.stderr,
            )
        if consts is None:
            consts = {node_name(o): o for o in block.ops if ge_type(o) in CONST_TYPES}
        lifted_ops += _lift(block, group, consts)
        lifted.extend(names)
    # the rest keep their kernels (also those CanFuse moved into a FusedAscBackend)
    for op in [o for o in block.walk() if isinstance(o, AscBackend) and o.origin is not None]:
        drop_origin(op)
    prune_unused_after_lifting(block, lifted_ops, remarks)
    return lifted


def drop_origin(op: AscBackend) -> None:
    """Forget the origin ops (GE drops them with the lowering's bookkeeping)."""
    assert op.origin is not None
    region = op.origin
    op.detach_region(region)
    region.erase()
