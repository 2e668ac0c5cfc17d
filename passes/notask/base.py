"""The verification chain GE's no-task passes share (ConcatNotaskPass, PackNotaskPass).

Port of ``compiler/graph/passes/memory_optimize/notask_pass_base.{h,cc}`` (GE commit
f85d35a61; docs/ge/notask.md). Per graph (root first, then each subgraph separately):
ShouldSkipGraph; then per target node, in the graph's stored (topological) order:
IsUnknownShapeOp, IsOwnerGraphUnknown, InputCheck, CheckFormat, CheckDim, OutputCheck,
LxFusionCheck; a node that passes them all gets SetNotaskAttr. Marking mutates the graph
as the pass goes (locks on producers, virtual-op attributes on the node), so later nodes
see earlier marks: a tensor feeds at most one no-task node, the first in node order.

The per-node decision is a RewritePattern, `MarkNotask`, that the pass applies with xDSL's
PatternRewriteWalker once per node, forward (no re-application, no reverse walk); the pass
keeps the per-graph gate (ShouldSkipGraph) and the analyses the nodes share (`NotaskGraph`).
A MarkNotask subclass names its target op types, its lock attribute and its CheckDim (and
optionally CheckFormat) rule, as GE's ConcatNotaskPass / PackNotaskPass override the base
class (MarkConcatNotask, MarkPackNotask, MarkSplitNotask). Every rule returns a ``Reason`` (ge_dialect/reason.py: GE's function name and a message a
user understands) or None when it passes; RunOnTargetNode and InputCheck are ordered rule
tuples, the first failure deciding. With ``remarks`` the pass prints one line per target
node with the first failing rule, or the locked producers.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from ge_dialect import attrs as A
from ge_dialect import graph as G
from ge_dialect.desc import TensorDesc, tensor_desc
from ge_dialect.diagnostics import remark
from ge_dialect.dtypes import ge_dtype_name, size_in_bytes
from ge_dialect.formats import aligned_shape, transfer_dims
from ge_dialect.ge import Data, GraphOp, NetOutput, PartitionedCall, ge_type, node_name
from ge_dialect.mem_types import (
    LX_MEMORY_TYPES,
    NOTASK_TENSOR_ALIGN_SIZE,
    RT_MEMORY_HBM,
    is_memory_type_special,
    memory_type_name,
)
from ge_dialect.node_types import INVALID_PRE_NODE_TYPES
from ge_dialect.pass_options import REMARKS, Option
from ge_dialect.reason import Reason
from ge_dialect.shapes import fmt_dims

# notask_pass_base.cc: kNotaskDeepth (maximum depth of GetFirstOutAnchorNotInRefNode)
NOTASK_DEPTH = 100
# notask_pass_base.cc: kNotaskLxSlice (node-name marker of an LxFusion op)
NOTASK_LX_SLICE = "lxslice"
# graph_utils.cc: GraphUtils::IsRefFromInput, pass-through ops (output i refs input i).
# While/_While/StatelessWhile are not ge dialect ops (yet); the names stay for fidelity.
REF_PASS_THROUGH_TYPES = frozenset({"NetOutput", "While", "_While", "StatelessWhile"})
# graph_utils.cc: GraphUtils::IsRefFromInput, output 0 refs input 0. The ge dialect has no
# Merge op, so only Reshape can occur; Merge stays for fidelity.
REF_OUTPUT0_TYPES = frozenset({"Merge", "Reshape"})


# A source anchor is (producer op, output index); None is GE's null anchor.
SourceAnchor = tuple[Operation, int] | None


_UNTRACED = f"a subgraph input, or {NOTASK_DEPTH} ref nodes deep"


def _anchor(a: SourceAnchor) -> str:
    return "<none>" if a is None else f"'{node_name(a[0])}':{a[1]}"


# ---------------------------------------------------------------------------------------
# Ref tracing
# ---------------------------------------------------------------------------------------


class RefLinks:
    """What ref tracing needs beyond one graph: which graphs are subgraphs.

    GE: a subgraph input node (NodeUtils::IsSubgraphInput: a Data of a graph with a parent
    node) is a pass-through: output i refs ITS OWN input i (GraphUtils::IsRefFromInput).
    A GE Data op has one input anchor ("x") that nothing feeds inside the subgraph, so
    GetFirstOutAnchorNotInRefNode finds no peer there and the source is null: tracing does
    not cross into the parent graph. A root-graph Data is not a ref: it is its own source.
    Here a subgraph is a ge.graph some ge.PartitionedCall calls.
    """

    def __init__(self, module: ModuleOp):
        self._subgraphs = frozenset(G.subgraph_callers(module))

    def is_subgraph_input(self, op: Operation) -> bool:
        """# graph/utils/node_utils.cc: NodeUtils::IsSubgraphInput"""
        graph = op.parent_op()
        return isinstance(op, Data) and isinstance(graph, GraphOp) and graph.sym_name.data in self._subgraphs


_NOT_REF = object()

# Ports GE's op prototypes name alike on both sides (output index -> input index), for rule
# (c) of GraphUtils::IsRefFromInput (`reference` = true and the output's name equals an
# input's name). Only such ops ref an input through `reference`: the ge dialect's ops have
# distinct port names (Relu x -> y, Add x1, x2 -> y, Identity x -> y, ...), so `reference`
# on them is not a ref and tracing stops there (GE UT pack_pre_node_reference_fail: a Relu
# with reference = true is rejected by IsPreNodeAttrValid, not traced through). GE's ref
# ops (Assign: ref, value -> ref; ScatterUpdate: var, indices, updates -> var) are not
# ge dialect ops; the table lists them so the rule holds if they are added.
REF_PORTS: dict[str, dict[int, int]] = {
    "Assign": {0: 0},
    "AssignAdd": {0: 0},
    "AssignSub": {0: 0},
    "ScatterUpdate": {0: 0},
    "ScatterAdd": {0: 0},
}


def ref_port_input(op: Operation, out: int) -> int | None:
    """The input whose port name equals output `out`'s name, if any (GE: OpDesc
    GetOutputNameByIndex / GetInputIndexByName)."""
    return REF_PORTS.get(ge_type(op), {}).get(out)


def referenced_value(value: OpResult, links: RefLinks) -> SSAValue | None | object:
    """The value (peer of the input) that output `value` refs, `_NOT_REF` when it refs no
    input, None when it refs an input that does not exist (tracing fails).

    # graph_utils.cc: GraphUtils::IsRefFromInput
    """
    op, out = value.op, value.index
    t = ge_type(op)

    def input_at(i: int) -> SSAValue | None:
        return op.operands[i] if 0 <= i < len(op.operands) else None

    # (a) pass-through ops and subgraph input nodes: same index. A subgraph Data refs its
    # own input anchor, which has no peer: tracing fails (None).
    if t in REF_PASS_THROUGH_TYPES:
        return input_at(out)
    if links.is_subgraph_input(op):
        return None
    # (b) Merge / Reshape output 0 refs input 0
    if t in REF_OUTPUT0_TYPES and out == 0:
        return input_at(0)
    # (c) `reference` op whose output name equals one of its input names
    if A.get_bool(op, A.REFERENCE) and (i := ref_port_input(op, out)) is not None:
        return input_at(i)
    # (d) the output desc's reuse-input flag, with its reuse index
    # (GE keeps it on the output TensorDesc: per-output `reuse_input` / `reuse_input_index`;
    # not the node-level `_output_reuse_input` of the no-padding virtual ops in (e))
    if A.get_output_flag(op, A.REUSE_INPUT, out, default=False):
        return input_at(A.get_output_int(op, A.REUSE_INPUT_INDEX, out, 0))
    # (e) no-padding virtual op: graph_utils.cc: GraphUtils::IsNoPaddingRefFromInput
    if (A.get_bool(op, A.NOPADDING_CONTINUOUS_INPUT) or A.get_bool(op, A.NOPADDING_CONTINUOUS_OUTPUT)) and A.get_bool(
        op, A.OUTPUT_REUSE_INPUT
    ):
        return input_at(0)
    return _NOT_REF


def first_out_anchor_not_in_ref_node(value: SSAValue, links: RefLinks) -> SourceAnchor:
    """The first out-anchor, going up from `value`, that refs no input; None (GE's null
    anchor) when tracing fails or reaches depth NOTASK_DEPTH.

    # notask_pass_base.cc: NotaskPassBase::GetFirstOutAnchorNotInRefNode
    The concat's own input is depth 0, each ref node passed adds 1, and GE gives up (null)
    when current_deep >= kNotaskDeepth: 99 Reshapes in a row are traced, 100 are not.
    """
    for _depth in range(NOTASK_DEPTH):
        if not isinstance(value, OpResult):
            return None  # ge graphs have no block arguments; defensive only
        nxt = referenced_value(value, links)
        if nxt is _NOT_REF:
            return value.op, value.index
        if nxt is None:
            return None
        assert isinstance(nxt, SSAValue)
        value = nxt
    return None


# ---------------------------------------------------------------------------------------
# Graph and node gates
# ---------------------------------------------------------------------------------------


def should_skip_graph(graph: GraphOp) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::ShouldSkipGraph"""
    name = f"@{graph.sym_name.data}"
    # graph_utils.cc: GraphUtils::IsSingleOpScene (graph attr, else first node carrying it)
    if G.is_single_op_scene(graph):
        return Reason("ShouldSkipGraph", f"graph {name} is a single-op scene (_single_op_scene = true)")
    # notask_pass_base.cc: ShouldSkipGraph (ATTR_NAME_MEMORY_DISCONTIGUOUS_ALLOCATION)
    if A.get_bool(graph, A.MEMORY_DISCONTIGUOUS_ALLOCATION):
        return Reason(
            "ShouldSkipGraph",
            f"graph {name} allocates memory discontiguously (_memory_discontiguous_allocation = true)",
        )
    return None


def is_unknown_shape_op(op: Operation) -> Reason | None:
    """GE skips a node with an unknown input or output shape: its offsets inside the
    concatenated (split) buffer are known only at run time.

    # notask_pass_base.cc: NotaskPassBase::IsUnknownShapeOp ("notask input tensor is
    # unknown shape": GetShape().IsUnknownShape() on every input, then every output desc)
    """
    return G.unknown_desc_reason(op, "IsUnknownShapeOp", "its offsets are known only at run time")


def is_owner_graph_unknown(graph: GraphOp) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsOwnerGraphUnknown"""
    if G.is_graph_unknown(graph):
        return Reason(
            "IsOwnerGraphUnknown",
            f"graph @{graph.sym_name.data} is dynamic (_dynamic_shape_partitioned or the unknown-shape flag is set)",
        )
    return None


# ---------------------------------------------------------------------------------------
# InputCheck
# ---------------------------------------------------------------------------------------


def is_scalar_input(td: TensorDesc) -> bool:
    """# notask_pass_base.cc: NotaskPassBase::IsScalarInput (origin rank 0)"""
    return td.rank == 0


def check_tensor_align(op: Operation, i: int) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::CheckTensorAlign

    Runtime size of input i must be a positive multiple of NOTASK_TENSOR_ALIGN_SIZE, unless
    the node has one input. GE's GetShapeSize is 0 for an empty (scalar) shape, so scalars
    fail; GetSizeByDataType < 0 cannot happen here (the dialect only admits GE dtypes).
    """
    if len(op.operands) == 1:
        return None
    return tensor_align(op.operands[i].type)


def tensor_align(t: Attribute) -> Reason | None:
    """CheckTensorAlign's test of one tensor type (an input of a concat, an output of a
    split): its runtime size is a positive multiple of NOTASK_TENSOR_ALIGN_SIZE."""
    td = tensor_desc(t)
    runtime = td.storage_shape or ()
    elements = 1
    for d in runtime:
        elements *= d
    nbytes = size_in_bytes(elements if runtime else 0, td.dtype)
    if nbytes > 0 and nbytes % NOTASK_TENSOR_ALIGN_SIZE == 0:
        return None
    return Reason(
        "CheckTensorAlign",
        f"runtime size {nbytes} bytes ({td.storage_format} {fmt_dims(runtime)} "
        f"{ge_dtype_name(td.dtype)}) is not a positive multiple of {NOTASK_TENSOR_ALIGN_SIZE}",
    )


def _virtual_attr(op: Operation) -> str | None:
    """The attribute that makes `op` a virtual (no-task / reuse-input) op, if any."""
    for name in (A.NO_TASK, A.OUTPUT_REUSE_INPUT, A.NOPADDING_CONTINUOUS_INPUT):
        if A.get_bool(op, name):
            return name
    return None


def is_pre_node_attr_valid(pre: Operation) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsPreNodeAttrValid"""
    name = node_name(pre)
    for attr in (A.CONTINUOUS_INPUT, A.CONTINUOUS_OUTPUT):
        if A.get_bool(pre, attr):
            return Reason("IsPreNodeAttrValid", f"producer '{name}' needs continuous memory ({attr} = true)")
    if A.get_bool(pre, A.REFERENCE):
        return Reason("IsPreNodeAttrValid", f"producer '{name}' is a ref op (reference = true)")
    if (attr := _virtual_attr(pre)) is not None:
        return Reason("IsPreNodeAttrValid", f"producer '{name}' is a virtual op ({attr} = true)")
    atomic = A.get_int_list(pre, A.ATOMIC_OUTPUT_INDEX)
    if atomic:
        return Reason("IsPreNodeAttrValid", f"producer '{name}' has atomic outputs (atomic_output_index = {atomic})")
    return None


def input_memory_type(pre: Operation, out_index: int) -> int:
    """# notask_pass_base.cc: NotaskPassBase::IsSameInputMemType (one input's memory type):
    the producer's `_output_memory_type` at the output index when special, else HBM."""
    types = A.get_int_list(pre, A.OUTPUT_MEM_TYPE_LIST) or []
    if out_index < len(types) and is_memory_type_special(types[out_index]):
        return types[out_index]
    return RT_MEMORY_HBM


@dataclass(eq=False)
class InputAnchor:
    """One input of the node InputCheck looks at: GE's in-anchor, its peer out-anchor (the
    direct producer output) and, traced through ref nodes, its source anchor."""

    op: Operation
    index: int
    lock_attr: str
    links: RefLinks

    @property
    def value(self) -> SSAValue:
        return self.op.operands[self.index]

    @cached_property
    def td(self) -> TensorDesc:
        return tensor_desc(self.value.type)

    @property
    def pre(self) -> OpResult:
        """The peer out-anchor (GE skips an anchor without one; every operand here has one)."""
        value = self.value
        assert isinstance(value, OpResult)
        return value

    @cached_property
    def source(self) -> SourceAnchor:
        """# notask_pass_base.cc: NotaskPassBase::GetFirstOutAnchorNotInRefNode"""
        return first_out_anchor_not_in_ref_node(self.value, self.links)

    def traced(self) -> str:
        """How the source was reached, for the messages."""
        src = self.source
        pre = self.pre.op
        return "" if src is None or src[0] is pre else f" (traced from '{node_name(pre)}' through ref nodes)"


@dataclass
class InputCheckState:
    """What InputCheck keeps across a node's inputs (GE: its local `src_anchors`, `mem_types`)."""

    src_anchors: set[SourceAnchor] = field(default_factory=set)
    mem_types: set[int] = field(default_factory=set)


InputRule = Callable[[InputAnchor, InputCheckState], "Reason | None"]


def input_is_scalar(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsScalarInput"""
    if is_scalar_input(a.td):
        return Reason("IsScalarInput", "is a scalar (origin rank 0)")
    return None


def input_tensor_align(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::CheckTensorAlign"""
    return check_tensor_align(a.op, a.index)


def has_same_source_anchor(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::HasSameSourceAnchor (records the source)"""
    src = a.source
    if src in state.src_anchors:
        if src is None:
            why = f"its source and an earlier input's could not be traced ({_UNTRACED})"
        else:
            why = f"traces to the same source {_anchor(src)} as an earlier input"
        return Reason("HasSameSourceAnchor", why)
    state.src_anchors.add(src)
    return None


def is_pre_node_type_valid(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsPreNodeTypeValid (the traced source's type)"""
    src = a.source
    if src is None:
        return Reason("IsPreNodeTypeValid", f"its source could not be traced ({_UNTRACED})")
    src_op = src[0]
    if ge_type(src_op) in INVALID_PRE_NODE_TYPES:
        return Reason("IsPreNodeTypeValid", f"producer '{node_name(src_op)}'{a.traced()} is a {ge_type(src_op)} node")
    return None


def is_pre_node_with_subgraph(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsPreNodeWithSubgraph (PartitionedCall is the
    ge dialect's only node with subgraph instances)"""
    src_op = a.source[0] if a.source is not None else None
    if isinstance(src_op, PartitionedCall):
        f = src_op.attributes.get("f")
        callee = f" ({f})" if isinstance(f, SymbolRefAttr) else ""
        return Reason("IsPreNodeWithSubgraph", f"producer '{node_name(src_op)}'{a.traced()} has a subgraph{callee}")
    return None


def is_pre_out_anchor_can_reuse(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsPreOutAnchorCanReuse (direct peer)"""
    pre = a.pre
    if not A.get_output_flag(pre.op, a.lock_attr, pre.index, default=True):
        return Reason(
            "IsPreOutAnchorCanReuse",
            f"output '{node_name(pre.op)}':{pre.index} is already locked by another "
            f"no-task node ({a.lock_attr} = false)",
        )
    return None


def is_pre_out_anchor_valid_multi_ref(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsPreOutAnchorValidMultiRef (direct peer)"""
    pre = a.pre
    if pre.has_more_than_one_use() and any(isinstance(u.operation, NetOutput) for u in pre.uses):
        return Reason(
            "IsPreOutAnchorValidMultiRef",
            f"output '{node_name(pre.op)}':{pre.index} has several consumers and one is NetOutput",
        )
    return None


def input_pre_node_attr_valid(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsPreNodeAttrValid (direct predecessor)"""
    return is_pre_node_attr_valid(a.pre.op)


def is_same_input_mem_type(a: InputAnchor, state: InputCheckState) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::IsSameInputMemType (records the memory type)"""
    mem = input_memory_type(a.pre.op, a.pre.index)
    if state.mem_types and mem not in state.mem_types:
        other = ", ".join(memory_type_name(m) for m in sorted(state.mem_types))
        return Reason(
            "IsSameInputMemType",
            f"memory type {memory_type_name(mem)} differs from the earlier inputs' {other}",
        )
    state.mem_types.add(mem)
    return None


# notask_pass_base.cc: NotaskPassBase::InputCheck -- the nine checks per input, in GE's order
INPUT_CHECKS: tuple[InputRule, ...] = (
    input_is_scalar,
    input_tensor_align,
    has_same_source_anchor,
    is_pre_node_type_valid,
    is_pre_node_with_subgraph,
    is_pre_out_anchor_can_reuse,
    is_pre_out_anchor_valid_multi_ref,
    input_pre_node_attr_valid,
    is_same_input_mem_type,
)


def input_check(op: Operation, lock_attr: str, links: RefLinks) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::InputCheck

    Per input in anchor order, the rules of INPUT_CHECKS; the first failure, prefixed with
    `input i: `, rejects. `src_anchors` and `mem_types` live across inputs. GE skips an
    input anchor without a peer; in our IR every operand is connected, so none is skipped.
    """
    state = InputCheckState()
    for i in range(len(op.operands)):
        anchor = InputAnchor(op, i, lock_attr, links)
        for rule in INPUT_CHECKS:
            if (why := rule(anchor, state)) is not None:
                return why.prefixed(f"input {i}: ")
    return None


# ---------------------------------------------------------------------------------------
# CheckDimForInput (shared by Concat and Pack)
# ---------------------------------------------------------------------------------------


def check_real_dim(
    align_shape: Sequence[int],
    src_shape: Sequence[int],
    src_to_dst: Sequence[Sequence[int]],
    dst_to_src: Sequence[Sequence[int]],
    dim: int,
    runtime_shape: Sequence[int],
) -> Reason | None:
    """The storage axis of origin axis `dim` and the rules on what lies in front of it.

    # notask_pass_base.cc: NotaskPassBase::CheckRealDim
    """
    if not 0 <= dim < len(src_to_dst) or not src_to_dst[dim]:
        return Reason("CheckRealDim", f"origin axis {dim} has no storage axis")
    real_dim = src_to_dst[dim][0]
    if not 0 <= real_dim < len(runtime_shape):
        return Reason(
            "CheckRealDim",
            f"storage axis {real_dim} of origin axis {dim} is outside the runtime shape {fmt_dims(runtime_shape)}",
        )
    # front-dims rule: every runtime dim before real_dim is 1 (both of GE's branches)
    for axis in range(real_dim):
        if runtime_shape[axis] != 1:
            return Reason(
                "CheckRealDim",
                f"runtime dim {axis} of {fmt_dims(runtime_shape)} is {runtime_shape[axis]}; the dims "
                f"in front of storage axis {real_dim} (origin axis {dim}) must be 1",
            )
    # merged-axis rule: real_dim merges several origin axes (e.g. FRACTAL_Z C1HW)
    if len(dst_to_src[real_dim]) > 1:
        merged = list(dst_to_src[real_dim])
        if dim not in merged:
            return Reason("CheckRealDim", f"origin axis {dim} is not part of merged storage axis {real_dim}")
        for f in merged[: merged.index(dim)]:
            if len(src_to_dst[f]) > 1:
                # notask_pass_base.cc: NotaskPassBase::CheckSplitAxis
                if src_to_dst[f][0] == real_dim:
                    if src_shape[f] > align_shape[f]:
                        return Reason(
                            "CheckRealDim",
                            f"origin axis {f} ({src_shape[f]}) is larger than {align_shape[f]}, and its "
                            f"outer part sits before axis {dim} in merged storage axis {real_dim}",
                        )
                elif align_shape[f] != 1:
                    return Reason(
                        "CheckRealDim",
                        f"origin axis {f} is split with granule {align_shape[f]} before axis {dim} in merged storage axis {real_dim}",
                    )
            elif src_shape[f] != 1:
                return Reason(
                    "CheckRealDim",
                    f"origin axis {f} is {src_shape[f]}, must be 1: it comes before axis {dim} "
                    f"in merged storage axis {real_dim}",
                )
    return None


def check_dim_alignment(align_shape: Sequence[int], dim: int, origin_shape: Sequence[int]) -> Reason | None:
    """No padding on the axis: origin dim is a multiple of the aligned granule.

    # notask_pass_base.cc: NotaskPassBase::CheckDimAlignment
    """
    if not dim < len(origin_shape) or not dim < len(align_shape) or align_shape[dim] <= 0:
        return Reason(
            "CheckDimAlignment", f"no alignment granule for origin axis {dim} (aligned shape {fmt_dims(align_shape)})"
        )
    if origin_shape[dim] % align_shape[dim] != 0:
        return Reason(
            "CheckDimAlignment",
            f"origin dim {dim} ({origin_shape[dim]}) is not a multiple of {align_shape[dim]}: "
            "the storage format pads it",
        )
    return None


def check_dim_for_input(td: TensorDesc, dim: int, where: str) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::CheckDimForInput"""
    src = td.shape or ()
    runtime = td.storage_shape or ()
    fmts = f"origin {td.origin_format} {fmt_dims(src)} stored as {td.storage_format}"
    # transfer_shape_utils.cc: TransferShapeUtils::GetAlignedShape
    align = aligned_shape(td.origin_format, td.storage_format, src, td.dtype, td.reshape_type_mask)
    if align is None or len(align) != len(src):
        return Reason("GetAlignedShape", where + f"no aligned shape for {fmts}")
    # transfer_shape_utils.cc: TransferShapeUtils::TransferDims
    mapping = transfer_dims(td.origin_format, td.storage_format, src, td.dtype, td.reshape_type_mask)
    if mapping is None or len(mapping[0]) != len(src) or len(mapping[1]) != len(runtime):
        return Reason("TransferDims", where + f"no axis mapping for {fmts} {fmt_dims(runtime)}")
    s2d, d2s = mapping
    if (why := check_real_dim(align, src, s2d, d2s, dim, runtime)) is not None:
        return why.prefixed(where)
    if (why := check_dim_alignment(align, dim, src)) is not None:
        return why.prefixed(where)
    return None


# ---------------------------------------------------------------------------------------
# OutputCheck, LxFusionCheck, SetNotaskAttr
# ---------------------------------------------------------------------------------------


def output_check(op: Operation, order: dict[Operation, int]) -> Reason | None:
    """No consumer, looked at through one Reshape, is a virtual op.

    # notask_pass_base.cc: NotaskPassBase::OutputCheck
    A Reshape is replaced by its first output data node (first consumer in node order).
    """
    for out in op.results:
        for use in out.uses:
            node = use.operation
            through = ""
            if ge_type(node) == "Reshape" and node.results:
                nxt = G.first_consumer(node.results[0], order)
                if nxt is not None:
                    through = f" (through Reshape '{node_name(node)}')"
                    node = nxt
            if (attr := _virtual_attr(node)) is not None:
                return Reason(
                    "OutputCheck",
                    f"consumer '{node_name(node)}'{through} is a virtual op ({attr} = true)",
                )
    return None


def lx_fusion_check(op: Operation) -> Reason | None:
    """# notask_pass_base.cc: NotaskPassBase::LxFusionCheck"""
    for attr in (A.INPUT_MEM_TYPE_LIST, A.OUTPUT_MEM_TYPE_LIST):
        for m in A.get_int_list(op, attr) or ():
            if m in LX_MEMORY_TYPES:
                return Reason("LxFusionCheck", f"{attr} has {memory_type_name(m)} (an LxFusion buffer)")
    if NOTASK_LX_SLICE in node_name(op):
        return Reason("LxFusionCheck", f"its name contains '{NOTASK_LX_SLICE}' (an LxFusion op)")
    return None


def set_notask_attr(op: Operation, lock_attr: str) -> list[tuple[Operation, int]]:
    """Mark the node and lock each input's direct producer output; returns the locks.

    # notask_pass_base.cc: NotaskPassBase::SetNotaskAttr
    """
    A.set_bool(op, A.NO_TASK, True)
    A.set_bool(op, A.NOPADDING_CONTINUOUS_INPUT, True)
    A.set_bool(op, A.OUTPUT_REUSE_INPUT, True)
    A.set_int(op, A.REUSE_INPUT_ON_DIM_INDEX, 0)
    locked: list[tuple[Operation, int]] = []
    for value in op.operands:
        assert isinstance(value, OpResult)
        A.set_output_flag(value.op, lock_attr, value.index, False)
        locked.append((value.op, value.index))
    return locked


# ---------------------------------------------------------------------------------------
# The marking pattern and the pass skeleton
# ---------------------------------------------------------------------------------------


# What RunOnTargetNode gives a node: the first failing rule, or the producer outputs
# SetNotaskAttr locked.
Outcome = Reason | list[tuple[Operation, int]]


@dataclass
class NotaskGraph:
    """What the markings of one graph share, computed by the pass: the graph, its
    ShouldSkipGraph verdict, the module's ref links, and the node order (OutputCheck's
    "first consumer"), computed at the first node that needs it."""

    graph: GraphOp
    skip: Reason | None
    links: RefLinks

    @cached_property
    def order(self) -> dict[Operation, int]:
        return G.node_order(self.graph)


@dataclass
class MarkNotask(RewritePattern):
    """One target node of one graph: RunOnTargetNode's chain, then SetNotaskAttr.

    # notask_pass_base.cc: NotaskPassBase::Run (per node of graph->GetDirectNode(): IsTargetOp,
    # then RunOnTargetNode)
    The pass applies it with a PatternRewriteWalker, forward and without re-application
    (`apply_recursively=False`), so each node is matched once, in the graph's stored
    (topological) order, and sees the locks the earlier nodes set, as GE's loop does. A
    subclass names its target types, its lock attribute and its CheckDim (and optionally
    CheckFormat), as GE's ConcatNotaskPass / PackNotaskPass override the base class. The
    marks are reported to the rewriter (`notify_op_modified` on the node and on each
    producer it locked); `remarks` prints one line per target node.
    """

    on: NotaskGraph
    remarks: bool
    pass_name: str

    # notask_pass_base.h: IsTargetOp (overridden per pass)
    TARGET_TYPES: ClassVar[frozenset[str]] = frozenset()
    # the per-output lock attribute on the producers
    LOCK_ATTR: ClassVar[str] = ""

    def check_format(self, op: Operation) -> Reason | None:
        """# notask_pass_base.cc: NotaskPassBase::CheckFormat (base: always true)"""
        return None

    @abstractmethod
    def check_dim(self, op: Operation) -> Reason | None:
        """# notask_pass_base.h: NotaskPassBase::CheckDim (pure virtual)"""

    def run_on_target_node(self, op: Operation) -> Outcome:
        """# notask_pass_base.cc: NotaskPassBase::RunOnTargetNode"""
        on = self.on
        for rule in (
            lambda: is_unknown_shape_op(op),
            # the graph being processed is the node's owner graph
            lambda: is_owner_graph_unknown(on.graph),
            lambda: input_check(op, self.LOCK_ATTR, on.links),
            lambda: self.check_format(op),
            lambda: self.check_dim(op),
            lambda: output_check(op, on.order),
            lambda: lx_fusion_check(op),
        ):
            if (rej := rule()) is not None:
                return rej
        return set_notask_attr(op, self.LOCK_ATTR)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        # notask_pass_base.cc: NotaskPassBase::Run (GetDirectNode: nodes of this graph, not
        # the copies inside an AscBackend's origin region; IsTargetOp)
        if op.parent_op() is not self.on.graph or ge_type(op) not in self.TARGET_TYPES:
            return
        # notask_pass_base.cc: NotaskPassBase::Run (ShouldSkipGraph: no node is marked)
        if self.on.skip is not None:
            self.report(op, self.on.skip)
            return
        outcome = self.run_on_target_node(op)
        if not isinstance(outcome, Reason):
            rewriter.notify_op_modified(op)
            for producer, _ in outcome:
                rewriter.notify_op_modified(producer)
        self.report(op, outcome)

    def report(self, op: Operation, outcome: Outcome) -> None:
        """The remark of one target node: the first failing rule, or the locked producers."""
        if not self.remarks:
            return
        head = f"{ge_type(op)} '{node_name(op)}'"
        if isinstance(outcome, Reason):
            remark(
                op, f"{head} not marked: {outcome}", reason=outcome, pass_name=self.pass_name, verdict="not marked",
                nodes=(node_name(op),),
            )  # fmt: skip
        else:
            locks = ", ".join(f"{node_name(p)}:{i}" for p, i in outcome)
            remark(
                op, f"{head} marked no-task; locked producers: {locks}", pass_name=self.pass_name, verdict="marked",
                nodes=(node_name(op), *(node_name(p) for p, _ in outcome)),
            )  # fmt: skip


@dataclass(frozen=True)
class NotaskPassBase(ModulePass):
    """Base of the no-task passes (GE's NotaskPassBase); not registered itself.

    The pass keeps what is per graph: the graphs in GE's pass order, ShouldSkipGraph, and
    the analyses the nodes share (NotaskGraph); the per-node decision is its PATTERN, a
    MarkNotask applied once per node by xDSL's PatternRewriteWalker.
    """

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    # the per-node marking (a MarkNotask subclass)
    PATTERN: ClassVar[type[MarkNotask]]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        """# notask_pass_base.cc: NotaskPassBase::Run, per graph (PassManager::Run: root
        graph, then each subgraph separately)"""
        links = RefLinks(op)
        targets = self.PATTERN.TARGET_TYPES
        for graph in G.graphs_in_pass_order(op):
            # IsTargetOp: a graph without a target node has nothing to mark or remark
            if not any(ge_type(n) in targets for n in G.graph_nodes(graph)):
                continue
            pattern = self.PATTERN(NotaskGraph(graph, should_skip_graph(graph), links), self.remarks, self.name)
            # forward, each node once: GE's node loop (see MarkNotask)
            PatternRewriteWalker(pattern, walk_reverse=False, apply_recursively=False).rewrite_region(graph.body)
