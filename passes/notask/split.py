"""ge-split-notask: zero-copy SplitD / SplitVD (the Split No Task half of the seed's
"split-compute-merge zero-copy pipeline", Concat No Task seed §5.1 and §5.3).

GE's open-source repository has no pass that marks a SplitD no-task: in CANN it sits in the
closed fusion engine. What the marking must guarantee is GE's, and is already modelled
here: GE-local's PhonySplit carries the same marks (`_no_task`,
`_no_padding_continuous_output`, `_output_reuse_input`, `_reuse_input_on_dim_index = 0`;
ge_local_graph_optimizer.cc: OptimizeOriginalGraphJudgeInsert), memory assignment then
lays output i at the input's offset + the raw sizes of the outputs before it
(graph_mem_assigner.cc: AssignContinuousOutputMemory), task generation drops the node
(task_generator_utils.cc: NoNeedGenTask) and the layout-conflict solver copies a graph
input feeding it when the model cannot refresh the pieces' addresses
(user_in_and_continuous_in_out_checker.cc: UserInputAndNoPaddingContinuousOutputChecker).
So the chain below is ours, written in the shape of GE's NotaskPassBase (passes/notask/
base.py): the graph gates and the per-node gates are GE's functions; the input, dimension
and output rules mirror ConcatNotaskPass's (the split's one input is the concat's output,
its outputs the concat's inputs), each docstring saying where it is GE's rule reused and
where it is ours, and why.

Where it runs (ge-compile, ge_tools/pipeline.py GeCompilePass): after ge-autofuse (the
consumers it checks are the final kernels) and right before ge-concat-notask and
ge-pack-notask. A tensor that would be both a no-task split's output and a no-task
concat's (or pack's) input would need the split's layout (piece i at the input's offset +
the sizes before it) and the concat's (piece j at the concat output's offset + the sizes
before it) to hold at once; GE's layout-conflict solver never keeps both
(mem_layout_conflict_util.cc: FindConflictNodes, NoPaddingContinuousOutput x
NoPaddingContinuousInput: an Identity copy), so the second marking is refused, with a
remark: the split's OutputCheck refuses a consumer that is already a virtual op, the
concat's IsPreNodeAttrValid a producer that is. Split first, concat second: GE hands each
subgraph to the engines, the fusion engine among them, in OptimizeSubgraph (graph_manager.cc:
OptimizeSubgraph -> the engines' OptimizeSubGraph), before OptimizeAfterMergeSubGraph where
ConcatNotaskPass and PackNotaskPass run last (docs/ge/notask.md); that CANN's split marking
is one of those engine passes is our assumption (its code is not public). Either order
refuses the second marking, so the numbers never depend on it, only which node keeps its
task. The same holds for the split's input: a marked split locks its input's producer
output for the concat and pack passes (their `can_reused_for_*_optimize` attributes), so
that tensor is not also made a concat piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Operation, OpResult

from ge_dialect import attrs as A
from ge_dialect import graph as G
from ge_dialect.desc import tensor_desc
from ge_dialect.dtypes import ge_dtype_name
from ge_dialect.ge import GraphOp, PartitionedCall, ge_type, node_name
from ge_dialect.mem_types import RT_MEMORY_HBM, is_memory_type_special, memory_type_name
from ge_dialect.node_types import CONST_TYPES, VARIABLE_TYPES
from ge_dialect.reason import Reason
from passes.notask.base import (
    MarkNotask,
    NotaskPassBase,
    Outcome,
    RefLinks,
    check_dim_for_input,
    first_out_anchor_not_in_ref_node,
    input_memory_type,
    is_owner_graph_unknown,
    is_pre_node_attr_valid,
    is_scalar_input,
    is_unknown_shape_op,
    lx_fusion_check,
    tensor_align,
)

SPLIT_D = "SplitD"
SPLIT_VD = "SplitVD"

# The producer-output locks of the no-task passes that lay a tensor out as a piece of a
# block (notask_pass_base.cc: IsPreOutAnchorCanReuse reads one of them per pass).
PIECE_LOCK_ATTRS: tuple[str, ...] = (A.CAN_REUSED_FOR_CONCAT_OPTIMIZE, A.CAN_REUSED_FOR_PACK_OPTIMIZE)

# An immutable-address output (mem_layout_conflict_util.cc: GetNodeOutputTypes,
# ANCHOR_ATTR_IMMUTABLE_ADDRESS_OUTPUT: Const, Constant, Variable).
IMMUTABLE_SOURCE_TYPES: frozenset[str] = CONST_TYPES | VARIABLE_TYPES


def _output_memory_type(op: Operation, j: int) -> int:
    """The memory type of output j of `op`: its `_output_memory_type` entry when special,
    else HBM (as notask_pass_base.cc: IsSameInputMemType reads a producer's)."""
    types = A.get_int_list(op, A.OUTPUT_MEM_TYPE_LIST) or []
    if j < len(types) and is_memory_type_special(types[j]):
        return types[j]
    return RT_MEMORY_HBM


# ---------------------------------------------------------------------------------------
# InputCheck (the split's one input)
# ---------------------------------------------------------------------------------------


def split_input_check(op: Operation, links: RefLinks) -> Reason | None:
    """The split's input: the mirror of NotaskPassBase::InputCheck for the one tensor the
    outputs are views of.

    Ours, in GE's order and with GE's functions where the reason carries over:
    IsScalarInput (GE's); IsPreNodeTypeValid (the ref-traced source exists and is not an
    immutable-address output: a Const / Variable source would get GE's Identity copy back,
    mem_layout_conflict_util.cc: ImmutableOutputAndContinuousOutputChecker, so the split
    saves nothing; a Data or RefData source is allowed, unlike the concat's, because its
    pieces are read, never written: ge-assign-memory copies it only when the model cannot
    refresh the pieces' addresses, §5.3); IsPreNodeWithSubgraph (GE's); IsPreOutAnchorCanReuse
    (the direct producer output is not a piece of a no-task concat or pack: locked by
    either); IsPreNodeAttrValid (GE's: the producer is not continuous, ref, virtual or
    atomic: its output already has a layout of its own); IsSameMemType (the input's memory
    type is every output's: views cannot change the memory they live in).
    """
    value = op.operands[0]
    td = tensor_desc(value.type)
    where = "input 0: "
    # notask_pass_base.cc: NotaskPassBase::IsScalarInput
    if is_scalar_input(td):
        return Reason("IsScalarInput", where + "is a scalar (origin rank 0)")
    # notask_pass_base.cc: NotaskPassBase::GetFirstOutAnchorNotInRefNode
    src = first_out_anchor_not_in_ref_node(value, links)
    if src is None:
        return Reason(
            "IsPreNodeTypeValid", where + "its source could not be traced (a subgraph input, or 100 ref nodes deep)"
        )
    src_op = src[0]
    assert isinstance(value, OpResult)
    pre, pre_index = value.op, value.index
    traced = "" if src_op is pre else f" (traced from '{node_name(pre)}' through ref nodes)"
    if ge_type(src_op) in IMMUTABLE_SOURCE_TYPES:
        return Reason(
            "IsPreNodeTypeValid",
            where + f"producer '{node_name(src_op)}'{traced} is a {ge_type(src_op)} node (an immutable "
            "address: GE's conflict solver would copy it for the split anyway)",
        )
    # notask_pass_base.cc: NotaskPassBase::IsPreNodeWithSubgraph
    if isinstance(src_op, PartitionedCall):
        f = src_op.attributes.get("f")
        callee = f" ({f})" if isinstance(f, SymbolRefAttr) else ""
        return Reason("IsPreNodeWithSubgraph", where + f"producer '{node_name(src_op)}'{traced} has a subgraph{callee}")
    # notask_pass_base.cc: NotaskPassBase::IsPreOutAnchorCanReuse (the locks of both passes)
    for lock in PIECE_LOCK_ATTRS:
        if not A.get_output_flag(pre, lock, pre_index, default=True):
            return Reason(
                "IsPreOutAnchorCanReuse",
                where + f"output '{node_name(pre)}':{pre_index} is already a piece of a no-task "
                f"node's block ({lock} = false)",
            )
    # notask_pass_base.cc: NotaskPassBase::IsPreNodeAttrValid (direct predecessor)
    if (why := is_pre_node_attr_valid(pre)) is not None:
        return why.prefixed(where)
    # notask_pass_base.cc: NotaskPassBase::IsSameInputMemType (here: input vs outputs)
    mem = input_memory_type(pre, pre_index)
    for j in range(len(op.results)):
        if (out_mem := _output_memory_type(op, j)) != mem:
            return Reason(
                "IsSameMemType",
                f"output {j} is in {memory_type_name(out_mem)}, its input in {memory_type_name(mem)}",
            )
    return None


# ---------------------------------------------------------------------------------------
# CheckFormat, CheckDim
# ---------------------------------------------------------------------------------------


def check_split_format(op: Operation) -> Reason | None:
    """Every output has the input's dtype, origin format and storage format.

    Ours: a view reads the input's bytes as they are, so a piece stored in another format
    or dtype than its input is a conversion, which only a kernel does. GE's concat never
    checks this (docs/ge/notask.md, observations); a split has no producer kernel per piece
    that could write each piece in its own layout.
    """
    src = tensor_desc(op.operands[0].type)
    for j, r in enumerate(op.results):
        td = tensor_desc(r.type)
        for what, a, b in (
            ("dtype", ge_dtype_name(td.dtype), ge_dtype_name(src.dtype)),
            ("origin format", td.origin_format, src.origin_format),
            ("storage format", td.storage_format, src.storage_format),
            ("reshape type mask", str(td.reshape_type_mask), str(src.reshape_type_mask)),
        ):
            if a != b:
                return Reason("CheckFormat", f"output {j}: {what} {a} differs from the input's {b}")
    return None


def check_piece_align(op: Operation, j: int) -> Reason | None:
    """Output j's runtime size is a positive multiple of NOTASK_TENSOR_ALIGN_SIZE, unless the
    split has one output.

    # notask_pass_base.cc: NotaskPassBase::CheckTensorAlign, on the pieces: each piece
    # starts where the pieces before it end, so whole 32-byte blocks keep every piece's
    # address aligned (a 0-byte piece fails, as GE's empty inputs do)
    """
    if len(op.results) == 1:
        return None
    why = tensor_align(op.results[j].type)
    return None if why is None else why.prefixed(f"output {j}: ")


def check_split_dim(op: Operation) -> Reason | None:
    """The split axis on every piece: normalised by the input's origin rank, then the
    32-byte rule and CheckDimForInput per output.

    The mirror of ConcatNotaskPass::CheckDim (concat_notask_pass.cc), with the pieces as
    the concat's inputs: in the runtime (storage) format every axis in front of the split
    axis is 1 and the split axis carries no padding (notask_pass_base.cc: CheckDimForInput,
    through TransferShapeUtils::GetAlignedShape / TransferDims), so piece j is the bytes
    [sum of the sizes before it, + its size) of the input.
    """
    src = tensor_desc(op.operands[0].type)
    rank = src.rank or 0
    original = A.get_int(op, "split_dim", 0) or 0
    dim = original + rank if original < 0 else original
    # concat_notask_pass.cc: ConcatNotaskPass::CheckDim (GE_ASSERT 0 <= dim < rank)
    if not 0 <= dim < rank:
        shown = f"{original}" if original == dim else f"{original} (normalised to {dim})"
        return Reason("CheckDim", f"split_dim {shown} is out of range for origin rank {rank}")
    for j, r in enumerate(op.results):
        if (rej := check_piece_align(op, j)) is not None:
            return rej
        if (rej := check_dim_for_input(tensor_desc(r.type), dim, f"output {j}: ")) is not None:
            return rej
    return None


# ---------------------------------------------------------------------------------------
# OutputCheck
# ---------------------------------------------------------------------------------------


def _consumer_attr(node: Operation) -> str | None:
    """The attribute that makes `node` unfit to read a piece in place, if any."""
    for name in (
        A.NO_TASK,
        A.OUTPUT_REUSE_INPUT,
        A.NOPADDING_CONTINUOUS_INPUT,
        A.NOPADDING_CONTINUOUS_OUTPUT,
        A.CONTINUOUS_INPUT,
        A.REFERENCE,
    ):
        if A.get_bool(node, name):
            return name
    return None


def split_output_check(op: Operation, order: dict[Operation, int]) -> Reason | None:
    """No consumer of a piece, looked at through one Reshape, needs a layout of its own or
    writes its input in place.

    GE's NotaskPassBase::OutputCheck (a Reshape replaced by its first output node; reject a
    virtual op: `_no_task`, `_output_reuse_input`, `_no_padding_continuous_input`), plus,
    ours: `_no_padding_continuous_output` (two chained no-padding continuous outputs get
    GE's Identity, mem_layout_conflict_util.cc: FindConflictNodes), `continuous_input` (the
    piece would have to sit in the consumer's continuous block, GE's
    ContinuousOutputAndContinuousInput conflict) and `reference` (a ref op writes its input
    in place: the bytes of the split's input that other pieces' readers still read). A
    consumer that is a no-task concat or pack is the tensor that would be a piece of two
    layouts (see the module docstring): refused here, named in the remark.
    """
    for j, out in enumerate(op.results):
        # in node order (G.consumers), so the remark names the same consumer every run
        for node, _ in G.consumers(out, order):
            through = ""
            if ge_type(node) == "Reshape" and node.results:
                nxt = G.first_consumer(node.results[0], order)
                if nxt is not None:
                    through = f" (through Reshape '{node_name(node)}')"
                    node = nxt
            if (attr := _consumer_attr(node)) is None:
                continue
            if A.get_bool(node, A.NOPADDING_CONTINUOUS_INPUT):
                why = (
                    f"is a piece of no-task {ge_type(node)} '{node_name(node)}'{through}, whose layout puts it "
                    "inside the concatenated block: a tensor cannot sit in both layouts"
                )
            else:
                why = f"is read by '{node_name(node)}'{through}, which needs its own layout or writes in place ({attr} = true)"
            return Reason("OutputCheck", f"output {j} {why}")
    return None


# ---------------------------------------------------------------------------------------
# SetNotaskAttr
# ---------------------------------------------------------------------------------------


def set_split_notask_attr(op: Operation) -> list[tuple[Operation, int]]:
    """Mark the split as a no-padding continuous-output virtual op and lock its input's
    producer output for the piece layouts; returns the locks.

    # ge_local_graph_optimizer.cc: OptimizeOriginalGraphJudgeInsert (PhonySplit's marks:
    # _no_task, _no_padding_continuous_output, _output_reuse_input, _reuse_input_on_dim_index 0)
    The locks are ours (see the module docstring): ConcatNotaskPass / PackNotaskPass read
    them in IsPreOutAnchorCanReuse, so the split's input is not also made a piece.
    """
    A.set_bool(op, A.NO_TASK, True)
    A.set_bool(op, A.NOPADDING_CONTINUOUS_OUTPUT, True)
    A.set_bool(op, A.OUTPUT_REUSE_INPUT, True)
    A.set_int(op, A.REUSE_INPUT_ON_DIM_INDEX, 0)
    value = op.operands[0]
    assert isinstance(value, OpResult)
    for lock in PIECE_LOCK_ATTRS:
        A.set_output_flag(value.op, lock, value.index, False)
    return [(value.op, value.index)]


# ---------------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------------


def split_rules(op: Operation, graph: GraphOp, links: RefLinks, order: dict[Operation, int]) -> Reason | None:
    """The first failing rule of the chain for one SplitD / SplitVD, or None."""
    for rule in (
        # notask_pass_base.cc: NotaskPassBase::IsUnknownShapeOp
        lambda: is_unknown_shape_op(op),
        # notask_pass_base.cc: NotaskPassBase::IsOwnerGraphUnknown
        lambda: is_owner_graph_unknown(graph),
        lambda: split_input_check(op, links),
        lambda: check_split_format(op),
        lambda: check_split_dim(op),
        lambda: split_output_check(op, order),
        # notask_pass_base.cc: NotaskPassBase::LxFusionCheck
        lambda: lx_fusion_check(op),
    ):
        if (rej := rule()) is not None:
            return rej
    return None


@dataclass
class MarkSplitNotask(MarkNotask):
    """One SplitD / SplitVD: marked no-task when its outputs can be views of its input
    (the chain of split_rules, then set_split_notask_attr; ours, in the shape of GE's
    NotaskPassBase: see the module docstring)."""

    TARGET_TYPES: ClassVar[frozenset[str]] = frozenset({SPLIT_D, SPLIT_VD})

    def check_format(self, op: Operation) -> Reason | None:
        return check_split_format(op)

    def check_dim(self, op: Operation) -> Reason | None:
        return check_split_dim(op)

    def run_on_target_node(self, op: Operation) -> Outcome:
        """The chain of split_rules, then SetNotaskAttr."""
        on = self.on
        rej = split_rules(op, on.graph, on.links, on.order)
        return rej if rej is not None else set_split_notask_attr(op)


@dataclass(frozen=True)
class SplitNotaskPass(NotaskPassBase):
    """Marks SplitD/SplitVD no-task when its outputs can be views of its input (ours: the
    mirror of GE's ConcatNotaskPass; CANN's own pass is in its closed fusion engine).

    Checks, the first failure rejecting: graph gates (single-op scene, discontiguous
    memory), unknown shapes, dynamic owner graph, the input (not a scalar; ref-traced source
    not Const/Variable and without subgraph; producer output not a piece of a no-task
    concat/pack; producer not continuous/ref/virtual/atomic; one memory type for input and
    outputs), CheckFormat (outputs in the input's dtype and formats), CheckDim (split_dim;
    each piece a positive multiple of 32 bytes unless there is one; in the storage format
    only size-1 axes in front of the split axis and no padding on it), OutputCheck (no
    consumer, through one Reshape, is virtual, continuous-input, a no-task concat/pack or a
    ref op), LxFusionCheck. Marked: `_no_task`, `_no_padding_continuous_output`,
    `_output_reuse_input`, `_reuse_input_on_dim_index = 0`; the input's producer output gets
    `can_reused_for_concat_optimize = [false]` and `can_reused_for_pack_optimize = [false]`.
    Runs before ge-concat-notask (why: passes/notask/split.py). `remarks` says why, node by
    node. Each node is one application of the MarkSplitNotask pattern.
    """

    name = "ge-split-notask"

    PATTERN: ClassVar[type[MarkNotask]] = MarkSplitNotask
