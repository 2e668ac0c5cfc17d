"""ge-concat-notask: GE's ConcatNotaskPass (zero-copy ConcatD / ConcatV2D).

Port of ``compiler/graph/passes/memory_optimize/concat_notask_pass.{h,cc}`` on the shared
chain of ``notask_pass_base.cc`` (passes/notask/base.py; docs/ge/notask.md). A ConcatD or
ConcatV2D whose inputs can be written side by side by their producers is marked `_no_task`
(no kernel: the producers write straight into the output) and each producer output is
locked with `can_reused_for_concat_optimize = [false]` so no other no-task concat takes it.
Runs on the root graph, then each subgraph; nodes in topological order, first one wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.ir import Operation

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.reason import Reason
from passes.notask.base import MarkNotask, NotaskPassBase, check_dim_for_input


def check_concat_dim(op: Operation) -> Reason | None:
    """The concat axis on every input: normalised by the first input's origin rank, then
    CheckDimForInput per input.

    # concat_notask_pass.cc: ConcatNotaskPass::CheckDim
    """
    # concat_notask_pass.cc: ConcatNotaskPass::CheckDim (int attr "concat_dim", default 0;
    # "axis" is not consulted)
    concat_dim = A.get_int(op, "concat_dim", 0) or 0
    original = concat_dim
    for i, value in enumerate(op.operands):
        td = tensor_desc(value.type)
        rank = td.rank or 0
        # mutated in place: the first input's rank normalises it, later inputs see the result
        if concat_dim < 0:
            concat_dim += rank
        # concat_notask_pass.cc: ConcatNotaskPass::CheckDim (GE_ASSERT 0 <= dim < rank)
        if not 0 <= concat_dim < rank:
            shown = f"{original}" if original == concat_dim else f"{original} (normalised to {concat_dim})"
            return Reason(
                "CheckDim",
                f"input {i}: concat_dim {shown} is out of range for origin rank {rank}",
            )
        if (rej := check_dim_for_input(td, concat_dim, f"input {i}: ")) is not None:
            return rej
    return None


@dataclass
class MarkConcatNotask(MarkNotask):
    """One ConcatD / ConcatV2D: marked no-task when its producers can write side by side.

    # concat_notask_pass.cc: ConcatNotaskPass (IsTargetOp, CheckDim) on NotaskPassBase's chain
    """

    # concat_notask_pass.cc: ConcatNotaskPass::IsTargetOp (CONCATD, CONCATV2D)
    TARGET_TYPES: ClassVar[frozenset[str]] = frozenset({"ConcatD", "ConcatV2D"})
    LOCK_ATTR: ClassVar[str] = A.CAN_REUSED_FOR_CONCAT_OPTIMIZE

    def check_dim(self, op: Operation) -> Reason | None:
        """# concat_notask_pass.cc: ConcatNotaskPass::CheckDim"""
        return check_concat_dim(op)


@dataclass(frozen=True)
class ConcatNotaskPass(NotaskPassBase):
    """Marks ConcatD/ConcatV2D no-task when its producers can write side by side (GE ConcatNotaskPass).

    Checks, in GE's order, the first failure rejecting: graph gates (single-op scene,
    discontiguous memory), unknown shapes, dynamic owner graph, InputCheck (per input:
    scalar, 32-byte size, unique ref-traced source, source not Data/Const/Variable, no
    subgraph, producer output not locked, no NetOutput among several consumers, producer
    not continuous/ref/virtual/atomic, one memory type), CheckDim (concat axis with the
    storage format's alignment), OutputCheck, LxFusionCheck. Marked: `_no_task`,
    `_no_padding_continuous_input`, `_output_reuse_input`, `_reuse_input_on_dim_index = 0`;
    producers get `can_reused_for_concat_optimize = [false]`. `remarks` says why, node by node.
    Each node is one application of the MarkConcatNotask pattern.
    """

    name = "ge-concat-notask"

    PATTERN: ClassVar[type[MarkNotask]] = MarkConcatNotask
