"""ge-phony-notask: GE-local marking of PhonyConcat / PhonySplit and the reshape family.

Follows GE's GE-local engine (compiler/engines/local_engine/): GeLocalGraphOptimizer::
OptimizeOriginalGraphJudgeInsert marks every PhonyConcat and PhonySplit no-task (the
no-padding continuous virtual op), and GeLocalOpsKernelBuilder::CalcOpRunningParam then
computes, with GeLocalOpsKernelBuilderCalcOpParam (ge_local_ops_kernel_calc_op_param.cc),
where each PhonyConcat producer writes into the concatenated block and where each
PhonySplit consumer reads, and marks the reshape family's output as reusing its input.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import LocatedError, remark, warning
from ge_dialect.dtypes import size_in_bytes
from ge_dialect.ge import GeNode, GraphOp, ge_type, node_name, value_dtype
from ge_dialect.graph import consumers, graphs_in_pass_order, has_unknown_shape, owner_graph
from ge_dialect.mem_types import GE_LOCAL_MEM_ALIGN_SIZE
from ge_dialect.pass_options import REMARKS, OneOf, Option, check_options
from ge_dialect.reason import Reason
from ge_dialect.shapes import fmt_dims

PHONY_CONCAT = "PhonyConcat"
PHONY_SPLIT = "PhonySplit"

# ge_local_ops_kernel_calc_op_param.h: kReuseInputOpTypes (the calc_op_param_call entries
# mapped to CalcNodeOffsetByReuseInput in ge_local_ops_kernel_builder.cc). Reshape is not one.
REUSE_INPUT_OP_TYPES: frozenset[str] = frozenset({
    "Bitcast", "Flatten", "FlattenV2", "ExpandDims", "ReFormat", "Squeeze", "Unsqueeze",
    "SqueezeV2", "SqueezeV3", "UnsqueezeV2", "UnsqueezeV3",
})  # fmt: skip

PHONY_TYPES: frozenset[str] = frozenset({PHONY_CONCAT, PHONY_SPLIT})
# the types CalcOpRunningParam computes something for
CALC_TYPES: frozenset[str] = PHONY_TYPES | REUSE_INPUT_OP_TYPES

# ge_local_ops_kernel_calc_op_param.cc: kConcatDim, kConcatNum, kKeepInputOffset, kSplitDim,
# kSplitNum, kKeepOutputOffset
CONCAT_DIM = "concat_dim"
CONCAT_NUM = "N"
KEEP_INPUT_OFFSET = "keep_input_offset"
SPLIT_DIM = "split_dim"
SPLIT_NUM = "num_split"
KEEP_OUTPUT_OFFSET = "keep_output_offset"


# -- GeLocalGraphOptimizer::OptimizeOriginalGraphJudgeInsert --------------------------------


def mark_phony_node(node: Operation) -> bool:
    """Mark a PhonyConcat / PhonySplit as GE's no-padding continuous virtual op; unconditional.

    # engine/ge_local_graph_optimizer.cc: GeLocalGraphOptimizer::OptimizeOriginalGraphJudgeInsert
    Returns whether the node is one of the two types.
    """
    t = ge_type(node)
    if t not in (PHONY_CONCAT, PHONY_SPLIT):
        return False
    A.set_bool(node, A.NO_TASK, True)
    A.set_bool(
        node,
        A.NOPADDING_CONTINUOUS_INPUT if t == PHONY_CONCAT else A.NOPADDING_CONTINUOUS_OUTPUT,
        True,
    )
    A.set_bool(node, A.OUTPUT_REUSE_INPUT, True)
    A.set_int(node, A.REUSE_INPUT_ON_DIM_INDEX, 0)
    return True


# -- GeLocalOpsKernelBuilderCalcOpParam: checks and offset formulas ---------------------------


def graph_unknown_flag(graph: GraphOp | None) -> bool:
    """ComputeGraph::GetGraphUnknownFlag of the owner graph.

    The GE-local calculations read only this flag (node.GetOwnerComputeGraph()->
    GetGraphUnknownFlag()), not `_dynamic_shape_partitioned` as the no-task Concat pass's
    IsOwnerGraphUnknown (ge_dialect.graph.is_graph_unknown) does.
    """
    return graph is not None and A.get_bool(graph, A.GRAPH_UNKNOWN_FLAG)


def check_dim_attr_valid(
    node: Operation, dims: list[int], nums: list[int], names: tuple[str, str], count: int, what: str
) -> None:
    """Non-empty lists of equal length, every N > 0, prod(N) == the anchor count.

    # ge_local_ops_kernel_calc_op_param.cc: CheckDimAttrValid
    """
    dn, nn = names
    if not dims or len(dims) != len(nums):
        raise LocatedError(
            node,
            f"CheckDimAttrValid: '{dn}' {fmt_dims(dims)} and '{nn}' {fmt_dims(nums)} must be "
            "non-empty lists of equal length",
        )
    for i, n in enumerate(nums):
        if n <= 0:
            raise LocatedError(node, f"CheckDimAttrValid: '{nn}' entry {i} is {n}, must be > 0")
    if math.prod(nums) != count:
        raise LocatedError(
            node,
            f"CheckDimAttrValid: product of '{nn}' {fmt_dims(nums)} is {math.prod(nums)}, but "
            f"{ge_type(node)} has {count} {what}",
        )


def check_dim_attr_match_tensor(
    node: Operation, dims: list[int], shape: Sequence[int], dim_name: str, what: str
) -> None:
    """Normalise negative entries of `dims` IN PLACE against the rank of `shape` (the
    later pieces see the normalised list), then require 0 <= d < rank.

    # ge_local_ops_kernel_calc_op_param.cc: CheckDimAttrMatchTensor
    """
    rank = len(shape)
    for i, d in enumerate(dims):
        if d < 0:
            dims[i] = d + rank
        if not 0 <= dims[i] < rank:
            raise LocatedError(
                node,
                f"CheckDimAttrMatchTensor: '{dim_name}' entry {i} ({d}) is out of range for "
                f"the runtime shape {fmt_dims(shape)} (rank {rank}) of {what}",
            )


def get_concat_offset(
    shape: Sequence[int], dtype: Attribute, idx: int, dims: Sequence[int], nums: Sequence[int]
) -> int:
    """Byte offset of piece `idx` of a multi-axis concat; the FIRST listed axis varies
    fastest, and the piece grows to the block concatenated so far after each axis.

    # ge_local_ops_kernel_calc_op_param.cc: GetConcatOffset
    """
    slice_id = []
    for n in nums:
        slice_id.append(idx % n)
        idx //= n
    grown = list(shape)
    offset = 0
    for i, d in enumerate(dims):
        offset += slice_id[i] * size_in_bytes(math.prod(grown[d:]), dtype)
        grown[d] *= nums[i]
    return offset


def get_split_offset(shape: Sequence[int], dtype: Attribute, idx: int, dims: Sequence[int], nums: Sequence[int]) -> int:
    """Byte offset of piece `idx` of a multi-axis split: the mirror of get_concat_offset,
    the LAST listed axis varies fastest.

    # ge_local_ops_kernel_calc_op_param.cc: GetSplitOffset
    """
    k = len(dims)
    slice_id = [0] * k
    for i in range(k - 1, -1, -1):
        slice_id[i] = idx % nums[i]
        idx //= nums[i]
    grown = list(shape)
    offset = 0
    for i in range(k - 1, -1, -1):
        d = dims[i]
        offset += slice_id[i] * size_in_bytes(math.prod(grown[d:]), dtype)
        grown[d] *= nums[i]
    return offset


def _runtime_shape(v: SSAValue) -> tuple[int, ...]:
    s = tensor_desc(v.type).storage_shape
    assert s is not None  # callers skip unknown-shape nodes first (CalcOpRunningParam)
    return s


def _producer(node: Operation, i: int) -> tuple[Operation, int]:
    v = node.operands[i]
    owner = v.owner
    if not isinstance(owner, Operation):  # GE_CHECK_NOTNULL(peer_out_data_anchor)
        raise LocatedError(node, f"input {i} has no producer node")
    return owner, v.index  # type: ignore[attr-defined]


class OffsetSlots:
    """The continuous offset lists of one calculation over a graph, one slot per pair.

    GE's CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset write a node's whole list
    (zeros but the one anchor) for each piece, so a producer feeding two pieces, or a
    consumer reading two pieces (of one or of two PhonySplits, a NetOutput listing two),
    keeps only the last piece's offset and the other is silently misplaced (docs/ge/notask.md
    §11 item 4). Ours, not GE's: slot k of `_output_offset_list_for_continuous` belongs to
    the pair (producer, output k), slot k of `_input_offset_list_for_continuous` to the
    pair (consumer, input k), and a piece sets only its own slot. A node's list starts
    from zeros the first time this calculation writes it (so nothing of an earlier
    calculation survives on a node that is written again) and keeps the slots set since.
    """

    def __init__(self) -> None:
        self.started: set[tuple[Operation, str]] = set()

    def set(self, node: Operation, attr: str, size: int, idx: int, offset: int) -> None:
        key = (node, attr)
        current = A.get_int_list(node, attr)
        if key in self.started and current is not None and len(current) == size:
            values = list(current)
        else:
            values = [0] * size
            self.started.add(key)
        values[idx] = offset
        A.set_int_list(node, attr, values)


def reset_offset_slot(node: Operation, attr: str, idx: int) -> None:
    """Zero slot `idx` of `node`'s offset list (if it has one): the pair it belonged to is
    gone (a pass rewired that anchor)."""
    current = A.get_int_list(node, attr)
    if current is not None and idx < len(current) and current[idx] != 0:
        values = list(current)
        values[idx] = 0
        A.set_int_list(node, attr, values)


def buffer_fusion_producer(node: Operation) -> Operation | None:
    """The first producer carrying a non-empty `_output_offset_for_buffer_fusion` (LxFusion
    has laid the pieces out already), or None.

    # ge_local_ops_kernel_calc_op_param.cc: HasBufferFusionOffset
    """
    for i in range(len(node.operands)):
        producer, _ = _producer(node, i)
        if A.get_int_list(producer, A.OUTPUT_OFFSET_FOR_BUFFER_FUSION):
            return producer
    return None


def calc_phony_concat_node_offset(
    node: Operation, slots: OffsetSlots | None = None
) -> tuple[list[tuple[Operation, int, int]], str]:
    """Write `_output_offset_list_for_continuous` on each producer of a PhonyConcat, one
    slot per (producer, output) pair (`OffsetSlots`; pass the calculation's `slots` so
    that pieces of other nodes written before are kept).

    # ge_local_ops_kernel_calc_op_param.cc: CalcPhonyConcatNodeOffset
    Returns the (producer, output index, offset) written, in input order, and a note for
    the remark. Raises LocatedError where GE returns FAILED.
    """
    fused = buffer_fusion_producer(node)
    if fused is not None:
        return [], (
            f"offsets not computed: producer '{node_name(fused)}' has "
            f"{A.OUTPUT_OFFSET_FOR_BUFFER_FUSION} (HasBufferFusionOffset)"
        )
    graph = owner_graph(node)
    if graph_unknown_flag(graph):
        raise LocatedError(
            node,
            f"CalcPhonyConcatNodeOffset: PhonyConcat '{node_name(node)}' does not support an "
            f"unknown graph (@{graph.sym_name.data} has {A.GRAPH_UNKNOWN_FLAG} = true)",  # type: ignore[union-attr]
        )
    # ge_local_ops_kernel_calc_op_param.cc: CheckPhonyConcatInputShapeSame (runtime shapes)
    first = _runtime_shape(node.operands[0])
    for i in range(1, len(node.operands)):
        s = _runtime_shape(node.operands[i])
        if s != first:
            raise LocatedError(
                node,
                f"CheckPhonyConcatInputShapeSame: input {i} has runtime shape {fmt_dims(s)}, "
                f"input 0 has {fmt_dims(first)}",
            )
    # ge_local_ops_kernel_calc_op_param.cc: CheckPhonyConcatInputIs32Align (input 0 only)
    size0 = tensor_desc(node.operands[0].type).size_in_bytes
    assert size0 is not None
    if size0 <= 0 or size0 % GE_LOCAL_MEM_ALIGN_SIZE != 0:
        raise LocatedError(
            node,
            f"CheckPhonyConcatInputIs32Align: input 0 is {size0} bytes, not a positive "
            f"multiple of {GE_LOCAL_MEM_ALIGN_SIZE}",
        )
    dims = A.get_int_list(node, CONCAT_DIM) or []
    nums = A.get_int_list(node, CONCAT_NUM) or []
    keep = A.get_bool(node, KEEP_INPUT_OFFSET, True)
    check_dim_attr_valid(node, dims, nums, (CONCAT_DIM, CONCAT_NUM), len(node.operands), "inputs")
    slots = slots if slots is not None else OffsetSlots()
    written: list[tuple[Operation, int, int]] = []
    for node_idx in range(len(node.operands)):
        producer, out_idx = _producer(node, node_idx)
        offset = 0
        if keep:
            td = node.operands[node_idx]  # the producer's output desc
            shape = _runtime_shape(td)
            check_dim_attr_match_tensor(
                node, dims, shape, CONCAT_DIM, f"input {node_idx} ('{node_name(producer)}':{out_idx})"
            )
            offset = get_concat_offset(shape, value_dtype(td), node_idx, dims, nums)
        # GE: outputs_offset[out_anchor_idx] = mem_offset, then SetListInt of the whole list
        # (an earlier piece's slot is lost); ours: this pair's slot only (OffsetSlots)
        slots.set(producer, A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS, len(producer.results), out_idx, offset)
        written.append((producer, out_idx, offset))
    note = "offsets: " + ", ".join(f"{node_name(p)}:{i}={o}" for p, i, o in written)
    if not keep:
        note += f" ({KEEP_INPUT_OFFSET} = false)"
    return written, note


def calc_phony_split_node_offset(
    node: Operation, order: dict[Operation, int], slots: OffsetSlots | None = None
) -> tuple[list[tuple[Operation, int, int]], str]:
    """Write `_input_offset_list_for_continuous` on each consumer of a PhonySplit, one
    slot per (consumer, input) pair (`OffsetSlots`, as calc_phony_concat_node_offset).

    # ge_local_ops_kernel_calc_op_param.cc: CalcPhonySplitNodeOffset
    No buffer-fusion skip and no 32-byte check here (GE has neither for PhonySplit).
    Consumers of one output are visited in `order` (node position), then input index.
    """
    graph = owner_graph(node)
    if graph_unknown_flag(graph):
        raise LocatedError(
            node,
            f"CalcPhonySplitNodeOffset: PhonySplit '{node_name(node)}' does not support an "
            f"unknown graph (@{graph.sym_name.data} has {A.GRAPH_UNKNOWN_FLAG} = true)",  # type: ignore[union-attr]
        )
    # ge_local_ops_kernel_calc_op_param.cc: CheckPhonySplitOutputShapeSame (runtime shapes)
    first = _runtime_shape(node.results[0])
    for i in range(1, len(node.results)):
        s = _runtime_shape(node.results[i])
        if s != first:
            raise LocatedError(
                node,
                f"CheckPhonySplitOutputShapeSame: output {i} has runtime shape {fmt_dims(s)}, "
                f"output 0 has {fmt_dims(first)}",
            )
    dims = A.get_int_list(node, SPLIT_DIM) or []
    nums = A.get_int_list(node, SPLIT_NUM) or []
    keep = A.get_bool(node, KEEP_OUTPUT_OFFSET, True)
    check_dim_attr_valid(node, dims, nums, (SPLIT_DIM, SPLIT_NUM), len(node.results), "outputs")
    slots = slots if slots is not None else OffsetSlots()
    written: list[tuple[Operation, int, int]] = []
    # node_idx counts output anchors, also those without consumers.
    for node_idx, out in enumerate(node.results):
        for consumer, in_idx in consumers(out, order):
            offset = 0
            if keep:
                td = consumer.operands[in_idx]  # the consumer's input desc
                shape = _runtime_shape(td)
                check_dim_attr_match_tensor(
                    node, dims, shape, SPLIT_DIM,
                    f"output {node_idx}'s consumer '{node_name(consumer)}' input {in_idx}",
                )  # fmt: skip
                offset = get_split_offset(shape, value_dtype(td), node_idx, dims, nums)
            # GE: inputs_offset[in_anchor_idx] = mem_offset, then SetListInt of the whole
            # list (an earlier piece's slot is lost); ours: this pair's slot only
            slots.set(consumer, A.INPUT_OFFSET_LIST_FOR_CONTINUOUS, len(consumer.operands), in_idx, offset)
            written.append((consumer, in_idx, offset))
    note = "input offsets: " + (", ".join(f"{node_name(c)}:{i}={o}" for c, i, o in written) or "none (no consumers)")
    if not keep:
        note += f" ({KEEP_OUTPUT_OFFSET} = false)"
    return written, note


def calc_node_offset_by_reuse_input(node: Operation) -> bool:
    """Output 0 reuses input 0 (GE: TensorUtils::SetReuseInput / SetReuseInputIndex on the
    output desc; ours: per-output `reuse_input` / `reuse_input_index`), unless the owner
    graph is unknown. Returns whether it marked the node.

    # ge_local_ops_kernel_calc_op_param.cc: CalcNodeOffsetByReuseInput (also
    # GeLocalGraphOptimizer::OptimizeWholeGraph, which sets the same ahead of the build)
    """
    if graph_unknown_flag(owner_graph(node)):
        return False
    A.set_output_flag(node, A.REUSE_INPUT, 0, True, default=False)
    A.set_output_int(node, A.REUSE_INPUT_INDEX, 0, 0)
    return True


# -- ours, not GE's: does GE's layout really concatenate the pieces? ---------------------------
#
# GetConcatOffset / GetSplitOffset give each piece ONE byte offset, and the producer kernel
# writes (the consumer kernel reads) its piece contiguously there. That is the logical
# concatenation only if, at each level i (in the formula's order) with N[i] > 1, every dim of
# the block grown so far before dims[i] is 1: then the N[i] blocks follow each other in
# memory. Otherwise the pieces overlap (the block of the earlier levels tiles
# [0, prod(block)) and the next slice starts at prod(block[dims[i]:]) < prod(block)), and on
# an NPU the producers overwrite each other (PhonySplit consumers read the wrong bytes). GE
# does not check this (docs/ge/notask.md item 3; its own PhonyConcatCalcOffset test
# shapes break it); we keep GE's offsets and warn, so the graph still compiles as GE's would.


def phony_layout_break(
    shape: Sequence[int], dims: Sequence[int], nums: Sequence[int], levels: Sequence[int]
) -> tuple[int, list[int]] | None:
    """The first level (visited in `levels` order, growing the block as GE's formula does)
    whose block has a dim != 1 before its axis: (axis, the block's dims before it), or None
    when the contiguous pieces form the logical concatenation. Levels with N = 1 add nothing."""
    grown = list(shape)
    for i in levels:
        d = dims[i]
        if nums[i] > 1 and any(x != 1 for x in grown[:d]):
            return d, grown[:d]
        grown[d] *= nums[i]
    return None


def first_overlap(offsets: Sequence[int], size: int) -> tuple[int, int, int] | None:
    """(piece j, piece k, end of k) for the first piece j, in address order (ties: index
    order), that starts inside an earlier-placed piece k of `size` bytes; None if none."""
    end, owner = 0, -1
    for off, j in sorted((o, j) for j, o in enumerate(offsets)):
        if owner >= 0 and off < end:
            return j, owner, end
        if off + size > end:
            end, owner = off + size, j
    return None


def check_phony_layout(node: Operation) -> str | None:
    """Ours, not GE's (see above): the warning for a PhonyConcat / PhonySplit whose GE offsets
    do not lay its pieces out as their concatenation, or None. Call after the offsets were
    computed (the attributes are valid); no check with keep_*_offset = false (all pieces at 0:
    GE's user-defined layout) or for empty pieces."""
    concat = ge_type(node) == PHONY_CONCAT
    if not A.get_bool(node, KEEP_INPUT_OFFSET if concat else KEEP_OUTPUT_OFFSET, True):
        return None
    piece = node.operands[0] if concat else node.results[0]
    shape = _runtime_shape(piece)
    dtype = value_dtype(piece)
    size = size_in_bytes(math.prod(shape), dtype)
    if size <= 0:
        return None
    dims = [d + len(shape) if d < 0 else d for d in A.get_int_list(node, CONCAT_DIM if concat else SPLIT_DIM) or []]
    nums = A.get_int_list(node, CONCAT_NUM if concat else SPLIT_NUM) or []
    k = len(dims)
    found = phony_layout_break(shape, dims, nums, range(k) if concat else range(k - 1, -1, -1))
    if found is None:
        return None
    d, before = found
    n = len(node.operands) if concat else len(node.results)
    offset_of = get_concat_offset if concat else get_split_offset
    offsets = [offset_of(shape, dtype, i, dims, nums) for i in range(n)]
    what, whole = ("input", "their concatenation") if concat else ("output", "slices of its input")
    msg = (
        f"{ge_type(node)} '{node_name(node)}': GE's offsets do not lay its {what}s out as {whole}: "
        f"before {CONCAT_DIM if concat else SPLIT_DIM} {d} the block has dims "
        f"{'x'.join(map(str, before))} (must all be 1)"
    )
    hit = first_overlap(offsets, size)
    if hit is not None:
        j, o, end = hit
        msg += f"; {what} {j} at byte {offsets[j]} overlaps {what} {o} (bytes {offsets[o]}-{end - 1})"
    return msg


# -- the patterns and the pass ------------------------------------------------------------------


def _all_nodes(graph: GraphOp) -> Iterator[GeNode]:
    """GE's GetAllNodes for one graph: its nodes in stored order, with the nodes of nested
    bodies (FusedAscBackend) right after their parent."""
    for op in graph.walk():
        if isinstance(op, GeNode):
            yield op


@dataclass
class MarkPhonyNotask(RewritePattern):
    """One PhonyConcat / PhonySplit: marked GE's no-padding continuous virtual op.

    # engine/ge_local_graph_optimizer.cc: GeLocalGraphOptimizer::OptimizeOriginalGraphJudgeInsert
    Unconditional (mark_phony_node); applied once per node of GetAllNodes (the walk's
    pre-order: a nested body's nodes right after their parent), the mark reported to the
    rewriter.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, GeNode) and mark_phony_node(op):
            rewriter.notify_op_modified(op)


@dataclass
class CalcOpRunningParam(RewritePattern):
    """One node of one graph at build time: a PhonyConcat's producer offsets, a PhonySplit's
    consumer offsets, the reshape family's output reusing its input.

    # ge_local_ops_kernel_builder.cc: GeLocalOpsKernelBuilder::CalcOpRunningParam
    Applied once per node, forward over GetAllNodes (the pass's walker), with what the
    graph's nodes share: the node order (a PhonySplit's consumers in node order) and the
    offset slots of the calculation (`OffsetSlots`: each pair keeps its slot).
    """

    order: dict[Operation, int]
    slots: OffsetSlots
    remarks: bool
    pass_name: str

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, GeNode):
            return
        t = ge_type(op)
        if t not in (PHONY_CONCAT, PHONY_SPLIT) and t not in REUSE_INPUT_OP_TYPES:
            return
        head = f"{t} '{node_name(op)}'"
        # CalcOpRunningParam: an unknown-shape node (no _op_no_tiling) is skipped entirely.
        if has_unknown_shape(op):
            self._unknown_shape(op, t, head)
        elif t in (PHONY_CONCAT, PHONY_SPLIT):
            self._phony_offsets(op, t, head, rewriter)
        elif calc_node_offset_by_reuse_input(op):
            rewriter.notify_op_modified(op)
            if self.remarks:
                remark(
                    op, f"{head} marked output 0 reuses input 0", pass_name=self.pass_name, verdict="marked",
                    nodes=(node_name(op),),
                )  # fmt: skip
        elif self.remarks:
            why = Reason("CalcNodeOffsetByReuseInput", "owner graph is unknown")
            remark(op, f"{head} not marked: {why}", reason=why, pass_name=self.pass_name, verdict="not marked")

    def _unknown_shape(self, op: Operation, t: str, head: str) -> None:
        """The remark of a node CalcOpRunningParam skips (unknown shape)."""
        if not self.remarks:
            return
        why = Reason("CalcOpRunningParam", "unknown shape")
        if t in REUSE_INPUT_OP_TYPES:
            remark(op, f"{head} not marked: {why}", reason=why, pass_name=self.pass_name, verdict="not marked")
        else:
            remark(
                op, f"{head} marked no-task; offsets not computed: {why}", reason=why, pass_name=self.pass_name,
                verdict="marked",
            )  # fmt: skip

    def _phony_offsets(self, op: Operation, t: str, head: str, rewriter: PatternRewriter) -> None:
        """CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset, then our layout check."""
        if t == PHONY_CONCAT:
            written, note = calc_phony_concat_node_offset(op, self.slots)
        else:
            written, note = calc_phony_split_node_offset(op, self.order, self.slots)
        for node, _, _ in written:  # the producers' (consumers') offset lists
            rewriter.notify_op_modified(node)
        if self.remarks:
            remark(
                op, f"{head} marked no-task; {note}", pass_name=self.pass_name, verdict="marked",
                nodes=(node_name(op),),
            )  # fmt: skip
        # Ours, not GE's: GE builds this graph and its kernels clobber each other.
        if written and (msg := check_phony_layout(op)) is not None:
            warning(op, msg)


@dataclass(frozen=True)
class PhonyNotaskPass(ModulePass):
    """Mark PhonyConcat/PhonySplit no-task and compute their offset lists; mark the reshape
    family output-reuses-input (GE-local engine: GeLocalGraphOptimizer, CalcOpRunningParam).

    On every graph and subgraph: every PhonyConcat gets `_no_task`,
    `_no_padding_continuous_input`, `_output_reuse_input` and `_reuse_input_on_dim_index = 0`,
    every PhonySplit the same with `_no_padding_continuous_output` (unconditional). Then, per
    node in stored order, as GeLocalOpsKernelBuilder::CalcOpRunningParam: a node with an
    unknown-shape input or output is skipped (GE decides at run time; the `_op_no_tiling`
    exception is not modelled); a PhonyConcat writes `_output_offset_list_for_continuous` on
    each producer (zeros except the producer's output feeding it), unless a producer carries
    `_output_offset_for_buffer_fusion`; a PhonySplit writes `_input_offset_list_for_continuous`
    on each consumer; each list has one slot per anchor and a piece sets only its own slot
    (ours, not GE's, whose lists keep one piece per node: `OffsetSlots`); offsets follow GetConcatOffset / GetSplitOffset on the runtime (storage)
    shape, or are all 0 with `keep_input_offset` / `keep_output_offset` = false. Bitcast,
    Flatten, FlattenV2, ExpandDims, ReFormat, Squeeze, Unsqueeze, SqueezeV2, UnsqueezeV2,
    SqueezeV3 and UnsqueezeV3 get per-output `reuse_input = [true]`, `reuse_input_index = [0]`
    unless their owner graph is unknown.

    Errors: where GE's CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset return FAILED,
    CalcOpRunningParam fails and so does GE's build; here each such failure is a located
    error naming the GE check (unknown graph, CheckPhonyConcatInputShapeSame /
    CheckPhonySplitOutputShapeSame, CheckPhonyConcatInputIs32Align, CheckDimAttrValid,
    CheckDimAttrMatchTensor). Several of them are caught earlier by the ge dialect's
    verifier on origin shapes; the pass checks again on runtime shapes, as GE does.

    The per-node work is two RewritePatterns, MarkPhonyNotask (mark) and CalcOpRunningParam
    (calc), each applied once per node, forward, by xDSL's PatternRewriteWalker; the pass
    keeps the stages' order and, per graph, what the nodes share.
    """

    name = "ge-phony-notask"

    stage: str = "all"
    """`mark` (GeLocalGraphOptimizer, on the original graph), `calc` (CalcOpRunningParam,
    at build time, after fusion) or `all` (both). ge-compile runs `mark` first and `calc`
    before memory assignment: GE computes the offsets on the final producers, so an
    AscBackend that replaced a PhonyConcat producer gets the offset list."""
    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {
        "stage": Option(
            "mark: the no-task marks (GeLocalGraphOptimizer, on the original graph); calc: the offset "
            "lists (CalcOpRunningParam, at build time, after fusion); all: both. ge-compile runs mark "
            "first and calc before memory assignment",
            OneOf(("mark", "calc", "all")),
        ),
        "remarks": REMARKS,
    }

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        graphs = graphs_in_pass_order(op)
        # engine/ge_local_graph_optimizer.cc: OptimizeOriginalGraphJudgeInsert (GetAllNodes)
        if self.stage in ("all", "mark"):
            for graph in graphs:
                # a graph without a PhonyConcat / PhonySplit has nothing to mark
                if any(ge_type(n) in PHONY_TYPES for n in _all_nodes(graph)):
                    _walk_once(MarkPhonyNotask(), graph)
        if self.stage == "mark":
            return
        # ge_local_ops_kernel_builder.cc: GeLocalOpsKernelBuilder::CalcOpRunningParam
        for graph in graphs:
            order: dict[Operation, int] = {n: i for i, n in enumerate(_all_nodes(graph))}
            # a graph without a node CalcOpRunningParam computes has nothing to do
            if any(ge_type(n) in CALC_TYPES for n in order):
                # one calculation per graph: every pair keeps its slot
                _walk_once(CalcOpRunningParam(order, OffsetSlots(), self.remarks, self.name), graph)


def _walk_once(pattern: RewritePattern, graph: GraphOp) -> None:
    """`pattern` on every node of `graph` (GetAllNodes), forward, each node once."""
    PatternRewriteWalker(pattern, walk_reverse=False, apply_recursively=False).rewrite_region(graph.body)
