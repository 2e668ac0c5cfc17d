"""Lifting: AscBackends from lowering that cover fewer than 2 compute ops and were not
fused by CanFuse go back to their original GE ops.

Follows compiler/graph/optimize/autofuse/autofuse/lowering/liftings.cpp
(LoweringManager::LiftingOneNodeAscBackendOp, IsSkipLifting; ge_fusion.md §1 item 6,
§3.5). The original ops are the AscBackend's `origin` region, which ge-lower-autofuse
fills (GE's is_fuse_from_lowering + origin nodes); an AscBackend made by CanFuse has none
and is never lifted. Every origin region is dropped here, lifted or not. Rules GE has and
this op set cannot meet: cube (no matmul lowering), kSplit (splits lower to slices on
A2/A3), optimised-away input buffers (no ZerosLike-like op).
"""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from ge_dialect.diagnostics import op_location
from ge_dialect.dtypes import dtype_bits
from ge_dialect import attrs as A
from ge_dialect.ge import AscBackend, Data, NetOutput, RefData, ge_type, node_name

# liftings.cpp: kMinComputeNodes
MIN_COMPUTE_NODES = 2
# autofuse_utils.cpp: GetComputeOps -- these view types are not compute ops
VIEW_TYPES = frozenset({"ExpandDims", "Reshape", "Squeeze", "Unsqueeze"})
# liftings.cpp: kMinOneNodeInData (concat_max_input_num + 1 from the backend spec)
MIN_ONE_NODE_INPUTS = 64
# liftings.cpp: IsSpecificConditionSkipLifting -- tail axis of a non-tail transpose, bytes
TRANSPOSE_TAIL_BYTES = 512
DISABLE_LIFTING = "_disable_lifting"


def origin_ops(op: AscBackend) -> list[Operation]:
    """The original GE ops (no Data, no NetOutput) of a lowered AscBackend, in order."""
    assert op.origin is not None
    return [o for o in op.origin.block.ops if not isinstance(o, Data | RefData | NetOutput)]


def skip_reason(op: AscBackend) -> str | None:
    """Why `op` stays an AscBackend (liftings.cpp IsSkipLifting, in GE's order), or None."""
    if op.origin is None:
        return "fused by CanFuse (not from lowering)"
    nodes = origin_ops(op)
    compute = [n for n in nodes if ge_type(n) not in VIEW_TYPES]
    if len(compute) >= MIN_COMPUTE_NODES:
        return f"{len(compute)} compute ops >= {MIN_COMPUTE_NODES}"
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


def _lift(block: Block, backends: list[AscBackend]) -> None:
    """Replace `backends` (one, or all the outputs of one multi-output origin node) by one
    copy of their origin ops, placed where the first of them is."""
    first = backends[0]
    vmap: dict[SSAValue, SSAValue] = {}
    assert first.origin is not None
    for o in first.origin.block.ops:
        if isinstance(o, Data | RefData):
            vmap[o.results[0]] = first.operands[A.get_int(o, "index") or 0]
    for o in origin_ops(first):
        block.insert_op_before(o.clone(value_mapper=vmap), first)
    for b in backends:
        out = _output_of(b)
        # the other backends' origin copies name the same node: map by output position
        src = out.owner
        assert isinstance(src, Operation)
        twin = vmap.get(out)
        if twin is None:
            k = list(src.results).index(out)
            first_src = next(o for o in origin_ops(first) if node_name(o) == node_name(src))
            twin = vmap[first_src.results[k]]
        b.results[0].replace_all_uses_with(twin)
    for b in backends:
        block.erase_op(b)


def lift_graph(block: Block, remarks: bool = False) -> list[str]:
    """# liftings.cpp: LiftingOneNodeAscBackendOp -- returns the names of lifted AscBackends."""
    lifted: list[str] = []
    waiting: dict[str, list[AscBackend]] = {}
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
            print(
                f"{op_location(group[0])}: remark: ge-autofuse: lifted {', '.join(repr(n) for n in names)} back to "
                f"{ops} (fewer than {MIN_COMPUTE_NODES} compute ops, not fused)",
                file=sys.stderr,
            )
        _lift(block, group)
        lifted.extend(names)
    # the rest keep their kernels (also those CanFuse moved into a FusedAscBackend)
    for op in [o for o in block.walk() if isinstance(o, AscBackend) and o.origin is not None]:
        drop_origin(op)
    return lifted


def drop_origin(op: AscBackend) -> None:
    """Forget the origin ops (GE drops them with the lowering's bookkeeping)."""
    assert op.origin is not None
    region = op.origin
    op.detach_region(region)
    region.erase()
