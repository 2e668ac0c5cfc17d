"""Concat poor-performance lifting: a FusedAscBackend built around a concat whose output
comes too little from fused producers is unfolded back into its AscBackends.

Follows compiler/graph/optimize/autofuse/autofuse/lowering/op_helper/lower_concat_helper.cpp
(LowerConcatHelper::LiftingPoorPerfFusedAscBackendOps; docs/ge/autofuse.md and open
question 9, now traced). GE runs it in AscIrLowerer::Lifting before
LiftingManager::LiftingGraph, so AscBackends set free here can still be lifted to their GE
ops (passes/autofuse/lifting.py). Fusing producers into a concat only pays when the
concat's output is mostly written by them; otherwise the FusedAscBackend costs the concat
its cheap copy path (a first-dim concat of non-input producers may even become no-task),
so GE measures the share of the concat dimension that fused AscBackends produce and
unfolds the FusedAscBackend below a per-case threshold.

Platform: A2/A3, `concat_alg` = transpose (0), as passes/autofuse/strategies.py. Sizes are
computed in bits, so sub-byte dtypes keep GE's byte arithmetic exact where GE's
GetSizeByDataType would return its bit-offset code.

NeedLifting answers with a Reason (ge_dialect/reason.py) naming the LowerConcatHelper
function that decided, and whether to unfold; the per-node step
(LiftingPoorPerfFusedAscBackendOp) is a `RewritePattern` that
`lifting_poor_perf_fused_asc_backends` drives once over the graph's nodes
(lifting.py `rewrite_block_once`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from ge_dialect import ascgraph as ag
from ge_dialect.diagnostics import remark
from ge_dialect.dtypes import dtype_bits
from ge_dialect.ge import AscBackend, Data, FusedAscBackend, NetOutput, RefData, ge_type, node_name
from ge_dialect.node_types import INVALID_PRE_NODE_TYPES
from ge_dialect.reason import Reason
from passes.autofuse.ascgraph_queries import asc_graph, primary_fuse_type
from passes.autofuse.lifting import rewrite_block_once

# lower_concat_helper.cpp: kAlignment (bytes)
ALIGNMENT = 32
# backend_spec.h: concat_max_input_num on A2/A3 (lower_concat_helper.cpp, older kMaxInputNum 63)
CONCAT_MAX_INPUT_NUM = 63
# lower_concat_helper.cpp: ParseConcatCaseForNoTask size classes (average input bytes)
INPUT_SIZE_LARGE = 8 * 1024 * 1024
INPUT_SIZE_MID = 1024 * 1024
INPUT_SIZE_SMALL = 512 * 1024
# lower_concat_helper.cpp: GetThreshold, concat_alg transpose (0) and scatter (1)
CONCAT_ALG_TRANSPOSE = 0
CONCAT_ALG_SCATTER = 1
THRESHOLDS: dict[int, dict[str, float]] = {
    CONCAT_ALG_TRANSPOSE: {
        "first_dim": 0.0, "may_be_no_task_large": 1.0, "may_be_no_task_mid": 0.8,
        "may_be_no_task_small": 0.5, "may_be_no_task": 0.3333, "aligned": 0.3333, "other": 0.3333,
    },
    CONCAT_ALG_SCATTER: {
        "first_dim": 0.0, "may_be_no_task_large": 1.0, "may_be_no_task_mid": 0.8,
        "may_be_no_task_small": 0.5, "may_be_no_task": 0.3333, "aligned": 0.1666, "other": 0.1666,
    },
}  # fmt: skip


def find_concat_asc_backend(fused: FusedAscBackend) -> tuple[AscBackend, ag.AscNode] | None:
    """# lower_concat_helper.cpp: FindConcatAscBackendNode -- the first AscBackend of
    primary fuse type concat, and the first AscIR Concat node of its AscGraph."""
    for op in fused.body.block.ops:
        if isinstance(op, AscBackend) and primary_fuse_type(op) == "concat":
            g = asc_graph(op)
            if g is None:
                return None
            for n in g.nodes():
                if n.asc_type == "Concat":
                    return op, n
            return None
    return None


def _repeats(v: SSAValue) -> tuple[int, ...]:
    t = v.type
    assert isinstance(t, ag.AscTensorType)
    return t.repeat_list


# The GE functions a NeedLifting answer comes from (the rule of its Reason).
NEED_LIFTING = "LowerConcatHelper::NeedLifting"
HAS_BACKWARD_FUSION = "LowerConcatHelper::HasBackwardFusion"
PARSE_CONCAT_NODE = "LowerConcatHelper::ParseConcatNode"
PARSE_CONCAT_CASE = "LowerConcatHelper::ParseConcatCase"


def has_backward_fusion(backend: AscBackend) -> bool:
    """# lower_concat_helper.cpp: LowerConcatHelper::HasBackwardFusion -- the concat AscBackend
    feeds another AscBackend inside the FusedAscBackend."""
    return any(isinstance(u.operation, AscBackend) for r in backend.results for u in r.uses)


def is_tile(backend: AscBackend, concat: ag.AscNode) -> bool:
    """# lower_concat_helper.cpp: LowerConcatHelper::IsTile -- one AscBackend input read by
    several concat inputs."""
    return len(concat.operands) > 1 and len(backend.operands) == 1


@dataclass(frozen=True)
class ConcatShape:
    """What ParseConcatNode reads off the AscIR Concat."""

    input_shapes: list[tuple[int, ...]]
    output_shape: tuple[int, ...]
    concat_dim: int
    is_first_dim: bool


def parse_concat_node(concat: ag.AscNode) -> ConcatShape | Reason:
    """# lower_concat_helper.cpp: LowerConcatHelper::ParseConcatNode -- the first dim where
    input 0 differs from the output; first-dim when every output dim before it is 1."""
    input_shapes = [_repeats(v) for v in concat.operands]
    output_shape = _repeats(concat.results[0])
    if len(input_shapes[0]) != len(output_shape):
        return Reason(PARSE_CONCAT_NODE, "concat input 0 and output have different ranks")
    concat_dim = next((i for i, (a, b) in enumerate(zip(input_shapes[0], output_shape)) if a != b), None)
    if concat_dim is None:
        return Reason(PARSE_CONCAT_NODE, "no concat dim: input 0 has the output's shape")
    is_first_dim = all(d == 1 for d in output_shape[:concat_dim])
    return ConcatShape(input_shapes, output_shape, concat_dim, is_first_dim)


def calc_concat_axis_stride(concat: ag.AscNode, shape: ConcatShape) -> int:
    """# lower_concat_helper.cpp: LowerConcatHelper::CalcConcatAxisStride -- the bits of one
    step along the concat dim (GE: bytes; bits keep sub-byte dtypes exact)."""
    t = concat.results[0].type
    assert isinstance(t, ag.AscTensorType)
    stride_bits = dtype_bits(t.element_type)
    for d in shape.output_shape[shape.concat_dim + 1 :]:
        stride_bits *= d
    return stride_bits


def is_peer_node_valid_for_no_task(fused: FusedAscBackend, inner: dict[SSAValue, int], v: SSAValue) -> bool:
    """# lower_concat_helper.cpp: LowerConcatHelper::IsPeerNodeValidForNoTask -- the concat
    input's producer (an inner Data stands for the FusedAscBackend's input) is not one of
    the types a no-task concat refuses (IsPreNodeTypeValid's)."""
    src = fused.operands[inner[v]] if v in inner else v
    return not (isinstance(src.owner, Operation) and ge_type(src.owner) in INVALID_PRE_NODE_TYPES)


def parse_concat_case_for_no_task(stride_bits: int, output_dim_size: int, num_inputs: int) -> str:
    """# lower_concat_helper.cpp: LowerConcatHelper::ParseConcatCaseForNoTask -- the class of
    the average input size."""
    avg = stride_bits * output_dim_size // 8 // num_inputs
    if avg > INPUT_SIZE_LARGE:
        return "may_be_no_task_large"
    if avg > INPUT_SIZE_MID:
        return "may_be_no_task_mid"
    if avg > INPUT_SIZE_SMALL:
        return "may_be_no_task_small"
    return "may_be_no_task"


def parse_concat_case(
    fused: FusedAscBackend, backend: AscBackend, concat: ag.AscNode, shape: ConcatShape, output_dim_size: int
) -> tuple[str, int] | Reason:
    """# lower_concat_helper.cpp: LowerConcatHelper::ParseConcatCase -- the case and the part
    of the concat dim that fused AscBackends produce (each producer output once)."""
    stride_bits = calc_concat_axis_stride(concat, shape)
    inner: dict[SSAValue, int] = {
        d.results[0]: d.int_attr("index", 0) for d in fused.body.block.ops if isinstance(d, Data | RefData)
    }
    num_aligned = 0
    total_fused = 0
    unique_srcs: set[tuple[Operation, int]] = set()
    can_be_no_task = shape.is_first_dim
    for idx, v in enumerate(backend.operands):
        if idx >= len(shape.input_shapes):
            return Reason(PARSE_CONCAT_CASE, f"AscBackend input {idx} has no concat input (GE asserts here)")
        if len(shape.input_shapes[idx]) != len(shape.output_shape):
            return Reason(PARSE_CONCAT_CASE, f"concat input {idx} and output have different ranks")
        dim_size = shape.input_shapes[idx][shape.concat_dim]
        owner = v.owner
        if isinstance(owner, AscBackend) and (owner, v.index) not in unique_srcs:  # type: ignore[attr-defined]
            unique_srcs.add((owner, v.index))  # type: ignore[attr-defined]
            total_fused += dim_size
        elif can_be_no_task:
            can_be_no_task = is_peer_node_valid_for_no_task(fused, inner, v)
        num_aligned += (stride_bits * dim_size) % (ALIGNMENT * 8) == 0
    in_num = len(backend.operands)
    all_aligned = num_aligned == in_num
    none_reuse = len(shape.input_shapes) == in_num
    if can_be_no_task and all_aligned and none_reuse:
        return parse_concat_case_for_no_task(stride_bits, output_dim_size, len(concat.operands)), total_fused
    return ("first_dim" if shape.is_first_dim else ("aligned" if all_aligned else "other")), total_fused


def get_threshold(alg: int, case: str) -> float:
    """# lower_concat_helper.cpp: LowerConcatHelper::GetThreshold"""
    return THRESHOLDS[alg][case]


def need_lifting(
    fused: FusedAscBackend, backend: AscBackend, concat: ag.AscNode, alg: int = CONCAT_ALG_TRANSPOSE
) -> tuple[bool, Reason]:
    """# lower_concat_helper.cpp: LowerConcatHelper::NeedLifting -- whether to unfold, and the
    Reason: the function that decided and why (a keep before the ratio, or the ratio)."""
    num_inputs = len(concat.operands)
    if has_backward_fusion(backend):
        return False, Reason(
            HAS_BACKWARD_FUSION, "the concat AscBackend feeds another AscBackend inside (backward fusion)"
        )
    if not is_tile(backend, concat):
        # backend_spec.h: concat_max_input_num
        if num_inputs > CONCAT_MAX_INPUT_NUM:
            return False, Reason(NEED_LIFTING, f"{num_inputs} concat inputs > {CONCAT_MAX_INPUT_NUM}")
        if num_inputs == 1:
            return False, Reason(NEED_LIFTING, "single concat input")
    shape = parse_concat_node(concat)
    if isinstance(shape, Reason):
        return False, shape
    output_dim_size = shape.output_shape[shape.concat_dim]
    if output_dim_size <= 0:
        return False, Reason(NEED_LIFTING, "concat dim size is not positive")
    parsed = parse_concat_case(fused, backend, concat, shape, output_dim_size)
    if isinstance(parsed, Reason):
        return False, parsed
    case, total_fused = parsed
    threshold = get_threshold(alg, case)
    ratio = total_fused / output_dim_size
    cmp = "<" if ratio < threshold else ">="
    why = (
        f"case {case}: fused AscBackends produce {total_fused}/{output_dim_size} = {ratio:.4f} of concat dim "
        f"{shape.concat_dim} {cmp} threshold {threshold}"
    )
    return ratio < threshold, Reason(NEED_LIFTING, why)


def unfold_fused_asc_backend(fused: FusedAscBackend, rewriter: PatternRewriter) -> None:
    """# lower_concat_helper.cpp: UnfoldFusedAscBackend (GraphUtils::UnfoldGraph) -- the
    inner AscBackends take the FusedAscBackend's place, in their order. GE's CheckGraph
    (body inputs/outputs match the node's) is the FusedAscBackend verifier here."""
    body = fused.body.block
    out = body.last_op
    assert isinstance(out, NetOutput)
    datas = [d for d in body.ops if isinstance(d, Data | RefData)]
    mapping: dict[SSAValue, SSAValue] = {d.results[0]: fused.operands[d.int_attr("index", 0)] for d in datas}
    # each result's new value; an inner value keeps the name its readers saw (the
    # FusedAscBackend's output), an input passed straight through keeps its own
    targets: list[SSAValue] = []
    renamed: set[SSAValue] = set()
    for r, v in zip(fused.results, out.operands):
        if v in mapping:
            targets.append(mapping[v])
            continue
        if v not in renamed:
            v.name_hint = r.name_hint
            renamed.add(v)
        targets.append(v)
    rewriter.erase(out)
    for d in datas:
        rewriter.replace_all_uses_with(d.results[0], mapping[d.results[0]])
        rewriter.erase(d)
    rewriter.inline_block(body, InsertPoint.before(fused))
    for r, v in zip(fused.results, targets):
        rewriter.replace_all_uses_with(r, v)
    rewriter.erase(fused)


class LiftingPoorPerfFusedAscBackendOp(RewritePattern):
    """# lower_concat_helper.cpp: LowerConcatHelper::LiftingPoorPerfFusedAscBackendOp -- a
    FusedAscBackend of `block` holding a concat AscBackend is unfolded when NeedLifting says
    so; records the names of the unfolded ones."""

    def __init__(self, block: Block, remarks: bool = False):
        self.block = block
        self.remarks = remarks
        self.unfolded: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, FusedAscBackend) or op.parent_block() is not self.block:
            return
        found = find_concat_asc_backend(op)
        if found is None:
            return
        backend, concat = found
        unfold, why = need_lifting(op, backend, concat)
        if self.remarks:
            verdict = "unfolded" if unfold else "kept"
            remark(
                op,
                f"ge-autofuse: FusedAscBackend '{node_name(op)}' {verdict}: concat in '{node_name(backend)}': {why}",
                reason=why,
                pass_name="ge-autofuse",
                stage="concat lifting",
                verdict=verdict,
                nodes=(node_name(op),),
            )
        if unfold:
            self.unfolded.append(node_name(op))
            unfold_fused_asc_backend(op, rewriter)


def lifting_poor_perf_fused_asc_backends(block: Block, remarks: bool = False) -> list[str]:
    """# lower_concat_helper.cpp: LowerConcatHelper::LiftingPoorPerfFusedAscBackendOps -- one
    forward walk of `block`'s graph with LiftingPoorPerfFusedAscBackendOp; returns the names
    of the unfolded FusedAscBackends."""
    pattern = LiftingPoorPerfFusedAscBackendOp(block, remarks)
    rewrite_block_once(pattern, block)
    return pattern.unfolded
