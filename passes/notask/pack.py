"""ge-pack-notask: GE's PackNotaskPass (zero-copy Pack).

Port of ``compiler/graph/passes/memory_optimize/pack_notask_pass.{h,cc}`` (GE commit
f85d35a61; docs/ge/notask.md) on the chain of ``notask_pass_base.cc`` (passes/notask/base.py).
Same checks and marks as ConcatNotaskPass; it targets `Pack`, locks producers with
`can_reused_for_pack_optimize`, rejects internal storage formats other than FRACTAL_NZ,
and checks the stacking `axis` (normalised by rank + 1) instead of `concat_dim`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.ir import Operation

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.formats import FRACTAL_NZ, ORIGIN_FORMATS, primary_format
from ge_dialect.reason import Reason
from ge_dialect.shapes import fmt_dims
from passes.notask.base import MarkNotask, NotaskPassBase, check_dim_for_input


def is_internal_format(fmt: str) -> bool:
    """# graph/utils/type_utils_inner.cc: TypeUtilsInner::IsInternalFormat (anything that is
    not a plain user layout: NC1HWC0, FRACTAL_Z, FRACTAL_NZ, ...)"""
    return primary_format(fmt) not in ORIGIN_FORMATS


def check_pack_format(op: Operation) -> Reason | None:
    """# pack_notask_pass.cc: PackNotaskPass::CheckFormat"""
    for i, value in enumerate(op.operands):
        fmt = tensor_desc(value.type).storage_format
        if is_internal_format(fmt) and primary_format(fmt) != FRACTAL_NZ:
            return Reason(
                "CheckFormat",
                f"input {i}: storage format {fmt} is an internal format other than FRACTAL_NZ",
            )
    return None


def check_pack_dim(op: Operation) -> Reason | None:
    """# pack_notask_pass.cc: PackNotaskPass::CheckDim"""
    axis = A.get_int(op, "axis", 0) or 0
    original = axis
    for i, value in enumerate(op.operands):
        td = tensor_desc(value.type)
        rank = td.rank or 0
        # pack_notask_pass.cc: PackNotaskPass::CheckDim (negative axis += rank + 1, in place)
        if axis < 0:
            axis += rank + 1
        shown = f"{original}" if original == axis else f"{original} (normalised to {axis})"
        # pack_notask_pass.cc: PackNotaskPass::CheckDim (GE_ASSERT 0 <= axis <= rank)
        if not 0 <= axis <= rank:
            return Reason("CheckDim", f"input {i}: axis {shown} is out of range for origin rank {rank}")
        # pack_notask_pass.cc: PackNotaskPass::CheckDim (axis 0: every piece is contiguous)
        if axis == 0:
            continue
        # pack_notask_pass.cc: PackNotaskPass::CheckDim (axis == rank: all origin dims 1)
        if axis == rank:
            shape = td.shape or ()
            if any(d != 1 for d in shape):
                return Reason(
                    "CheckDim",
                    f"input {i}: axis {shown} equals the rank, so every origin dim must be 1, got {fmt_dims(shape)}",
                )
            continue
        if (rej := check_dim_for_input(td, axis, f"input {i}: ")) is not None:
            return rej
    return None


@dataclass
class MarkPackNotask(MarkNotask):
    """One Pack: marked no-task when its producers can write side by side.

    # pack_notask_pass.cc: PackNotaskPass (IsTargetOp, CheckFormat, CheckDim) on
    # NotaskPassBase's chain
    """

    # pack_notask_pass.cc: PackNotaskPass::IsTargetOp (type "Pack")
    TARGET_TYPES: ClassVar[frozenset[str]] = frozenset({"Pack"})
    LOCK_ATTR: ClassVar[str] = A.CAN_REUSED_FOR_PACK_OPTIMIZE

    def check_format(self, op: Operation) -> Reason | None:
        """# pack_notask_pass.cc: PackNotaskPass::CheckFormat"""
        return check_pack_format(op)

    def check_dim(self, op: Operation) -> Reason | None:
        """# pack_notask_pass.cc: PackNotaskPass::CheckDim"""
        return check_pack_dim(op)


@dataclass(frozen=True)
class PackNotaskPass(NotaskPassBase):
    """Marks Pack no-task when its producers can write side by side (GE PackNotaskPass).

    The ConcatNotaskPass chain (graph gates, unknown shapes, InputCheck, OutputCheck,
    LxFusionCheck) with Pack's own rules: CheckFormat rejects internal storage formats other
    than FRACTAL_NZ; CheckDim normalises a negative `axis` by rank + 1, accepts axis 0,
    needs all-ones pieces for axis == rank, and applies CheckDimForInput otherwise.
    Producers are locked with `can_reused_for_pack_optimize = [false]`. Each node is one
    application of the MarkPackNotask pattern.
    """

    name = "ge-pack-notask"

    PATTERN: ClassVar[type[MarkNotask]] = MarkPackNotask
