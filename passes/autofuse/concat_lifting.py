"""Concat poor-performance lifting: a FusedAscBackend built around a concat whose output
comes too little from fused producers is unfolded back into its AscBackends.

Follows compiler/graph/optimize/autofuse/autofuse/lowering/op_helper/lower_concat_helper.cpp
(LowerConcatHelper::LiftingPoorPerfFusedAscBackendOps; ge_fusion.md §1 item 6 and open
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
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect.diagnostics import remark
from ge_dialect.dtypes import dtype_bits
from ge_dialect.ge import AscBackend, Data, FusedAscBackend, NetOutput, RefData, ge_type, node_name
from ge_dialect.node_types import INVALID_PRE_NODE_TYPES
from passes.autofuse.ascgraph_queries import asc_graph, primary_fuse_type

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


@dataclass(frozen=True)
class ConcatLiftingDecision:
    """What NeedLifting decided for one FusedAscBackend, and why (for the remark)."""

    unfold: bool
    why: str


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


def need_lifting(
    fused: FusedAscBackend, backend: AscBackend, concat: ag.AscNode, alg: int = CONCAT_ALG_TRANSPOSE
) -> ConcatLiftingDecision:
    """# lower_concat_helper.cpp: NeedLifting (with ParseConcatNode, ParseConcatCase)."""
    keep = lambda why: ConcatLiftingDecision(False, why)  # noqa: E731
    num_inputs = len(concat.operands)
    # lower_concat_helper.cpp: HasBackwardFusion -- the concat feeds another AscBackend inside
    if any(isinstance(u.operation, AscBackend) for r in backend.results for u in r.uses):
        return keep("the concat AscBackend feeds another AscBackend inside (backward fusion)")
    # lower_concat_helper.cpp: IsTile -- one AscBackend input read by several concat inputs
    is_tile = num_inputs > 1 and len(backend.operands) == 1
    if not is_tile:
        if num_inputs > CONCAT_MAX_INPUT_NUM:
            return keep(f"{num_inputs} concat inputs > {CONCAT_MAX_INPUT_NUM}")
        if num_inputs == 1:
            return keep("single concat input")
    # lower_concat_helper.cpp: ParseConcatNode -- the first dim where input 0 differs from the output
    input_shapes = [_repeats(v) for v in concat.operands]
    output_shape = _repeats(concat.results[0])
    if len(input_shapes[0]) != len(output_shape):
        return keep("concat input 0 and output have different ranks")
    concat_dim = next((i for i, (a, b) in enumerate(zip(input_shapes[0], output_shape)) if a != b), None)
    if concat_dim is None:
        return keep("no concat dim: input 0 has the output's shape")
    is_first_dim = all(d == 1 for d in output_shape[:concat_dim])
    output_dim_size = output_shape[concat_dim]
    if output_dim_size <= 0:
        return keep("concat dim size is not positive")
    # lower_concat_helper.cpp: ParseConcatCase / CalcConcatAxisStride
    t = concat.results[0].type
    assert isinstance(t, ag.AscTensorType)
    stride_bits = dtype_bits(t.element_type)
    for d in output_shape[concat_dim + 1 :]:
        stride_bits *= d
    inner = {d.results[0]: d.int_attr("index", 0) for d in fused.body.block.ops if isinstance(d, Data | RefData)}
    num_aligned = 0
    total_fused = 0
    unique_srcs: set[tuple[Operation, int]] = set()
    can_be_no_task = is_first_dim
    for idx, v in enumerate(backend.operands):
        if idx >= len(input_shapes):
            return keep(f"AscBackend input {idx} has no concat input (GE asserts here)")
        if len(input_shapes[idx]) != len(output_shape):
            return keep(f"concat input {idx} and output have different ranks")
        dim_size = input_shapes[idx][concat_dim]
        owner = v.owner
        if isinstance(owner, AscBackend) and (owner, v.index) not in unique_srcs:  # type: ignore[attr-defined]
            unique_srcs.add((owner, v.index))  # type: ignore[attr-defined]
            total_fused += dim_size
        elif can_be_no_task:
            # lower_concat_helper.cpp: IsPeerNodeValidForNoTask -- an inner Data is the parent's input
            src = fused.operands[inner[v]] if v in inner else v
            if isinstance(src.owner, Operation) and ge_type(src.owner) in INVALID_PRE_NODE_TYPES:
                can_be_no_task = False
        num_aligned += (stride_bits * dim_size) % (ALIGNMENT * 8) == 0
    in_num = len(backend.operands)
    all_aligned = num_aligned == in_num
    none_reuse = len(input_shapes) == in_num
    if can_be_no_task and all_aligned and none_reuse:
        # lower_concat_helper.cpp: ParseConcatCaseForNoTask
        avg = stride_bits * output_dim_size // 8 // num_inputs
        case = (
            "may_be_no_task_large" if avg > INPUT_SIZE_LARGE
            else "may_be_no_task_mid" if avg > INPUT_SIZE_MID
            else "may_be_no_task_small" if avg > INPUT_SIZE_SMALL
            else "may_be_no_task"
        )  # fmt: skip
    else:
        case = "first_dim" if is_first_dim else ("aligned" if all_aligned else "other")
    threshold = THRESHOLDS[alg][case]
    ratio = total_fused / output_dim_size
    cmp = "<" if ratio < threshold else ">="
    why = (
        f"case {case}: fused AscBackends produce {total_fused}/{output_dim_size} = {ratio:.4f} of concat dim "
        f"{concat_dim} {cmp} threshold {threshold}"
    )
    return ConcatLiftingDecision(ratio < threshold, why)


def unfold(fused: FusedAscBackend) -> None:
    """# lower_concat_helper.cpp: UnfoldFusedAscBackend (GraphUtils::UnfoldGraph) -- the
    inner AscBackends take the FusedAscBackend's place, in their order. GE's CheckGraph
    (body inputs/outputs match the node's) is the FusedAscBackend verifier here."""
    ops = list(fused.body.block.ops)
    out = ops[-1]
    assert isinstance(out, NetOutput)
    mapping = {d.results[0]: fused.operands[d.int_attr("index", 0)] for d in ops if isinstance(d, Data | RefData)}
    parent = fused.parent_block()
    assert parent is not None
    for op in ops:
        if isinstance(op, Data | RefData | NetOutput):
            continue
        op.detach()
        for i, v in enumerate(op.operands):
            if v in mapping:
                op.operands[i] = mapping[v]
        parent.insert_op_before(op, fused)
    renamed: set[SSAValue] = set()
    for r, v in zip(fused.results, out.operands):
        if v in mapping:  # an input passed straight through
            r.replace_all_uses_with(mapping[v])
            continue
        if v not in renamed:
            # the value keeps the name its readers saw (the FusedAscBackend's output)
            v.name_hint = r.name_hint
            renamed.add(v)
        r.replace_all_uses_with(v)
    parent.erase_op(fused)


def lifting_poor_perf_fused_asc_backends(block: Block, remarks: bool = False) -> list[str]:
    """# lower_concat_helper.cpp: LiftingPoorPerfFusedAscBackendOps -- returns the names of
    the unfolded FusedAscBackends."""
    unfolded: list[str] = []
    for op in list(block.ops):
        if not isinstance(op, FusedAscBackend):
            continue
        found = find_concat_asc_backend(op)
        if found is None:
            continue
        backend, concat = found
        decision = need_lifting(op, backend, concat)
        if remarks:
            remark(
                op,
                f"ge-autofuse: FusedAscBackend '{node_name(op)}' {'unfolded' if decision.unfold else 'kept'}: "
                f"concat in '{node_name(backend)}': {decision.why} (LowerConcatHelper::NeedLifting)",
            )
        if decision.unfold:
            unfolded.append(node_name(op))
            unfold(op)
    return unfolded
