"""`Reason`: why a pass did not do something, in one shape for every pass.

A GE rule that refuses (a no-task check, a fusion strategy, a lifting condition) answers
with a `Reason`: the GE name of the rule (the function that implements it, or GE's
NotFuseReason where GE logs one), a message a user understands, and GE's NFxxxx code
where GE has one (utils/not_fuse_reason_code.h). A rule that passes answers None. Callers
decide on `rule`, never on the message text; remarks (ge_dialect/diagnostics.py) print it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Reason:
    """Why not: the GE rule that refused, a message, and GE's NF code where GE has one."""

    rule: str
    message: str
    nf_code: str | None = None

    def prefixed(self, where: str) -> Reason:
        """The same reason with `where` (e.g. `input 1: `) in front of the message."""
        return replace(self, message=where + self.message)

    def __str__(self) -> str:
        """`message (Rule)`: the form of the no-task and lifting remarks."""
        return f"{self.message} ({self.rule})"

    def coded(self) -> str:
        """`message [NFxxxx] [Rule]`: the form of the fusion remarks (GE logs the NF code)."""
        nf = f" [{self.nf_code}]" if self.nf_code else ""
        return f"{self.message}{nf} [{self.rule}]"


# utils/not_fuse_reason_code.h: NotFuseReason -> NotFuseReasonCode (the codes GE's CanFuse logs)
NOT_FUSE_REASON_CODES: dict[str, str] = {
    "NoSharedData": "NF1001", "WillCreateCycle": "NF1002", "IncreasePeakMemory": "NF1003",
    "GetSubgraphFailed": "NF1004", "UpdateSubgraphOutputAttrFailed": "NF1005",
    "UnifySubgraphAxisFailed": "NF1006", "InputNumsExceedThreshold": "NF1007",
    "GetAscgraphAxisGroupFailed": "NF1008", "MergeAxisGroupFailed": "NF1009",
    "MaxFusionNodesSizeExceedThreshold": "NF1010", "ConcatCanNotFuseBackward": "NF1011",
    "ConcatCanNotFuseWithReduce": "NF1012", "ConcatCanNotFuseWithConcat": "NF1013",
    "ConcatNodeSchedAxisNotEqual": "NF1014", "ConcatNodeSchedAxisSizeNotEqual": "NF1015",
    "GatherCanNotFuseForward": "NF1016", "GatherCanNotFuseWithReduce": "NF1017",
    "GatherCanNotFuseWithConcat": "NF1018", "GatherNodeAxisSizeNotEqual": "NF1019",
    "GatherNextNodeIsPointWiseAndInputHasViewOp": "NF1020", "ReduceCanNotFuseHorizontal": "NF1021",
    "TransposeCanNotFuseWithNotPointWise": "NF1022", "SliceHasOnlyHorizontalLink": "NF1023",
    "CanNotMergeAscGraph": "NF1024", "VectorCoreNumNotEqual": "NF1025", "NodeInputHasSplit": "NF1026",
    "GatherCanOnlyVerticallyFuseWithElementwise": "NF1027", "SplitCanNotFuseForward": "NF1028",
    "SplitCanNotFuseConcatBackward": "NF1029", "ReduceCanFuseWithin3SubNodes": "NF1030",
    "ReduceCanOnlyBackwardFuse3Elementwise": "NF1031", "ElementwiseHasMoreThanOneInput": "NF1032",
    "ConcatCanNotBackwardFuseNonSimplestPointwise": "NF1033",
    "SplitCanNotFuseSplitHorizontal": "NF1037", "SplitCanNotFuseReduction": "NF1038",
    "SplitCanNotFuseHorizontal": "NF1039", "CubeCanNotFuseForward": "NF1042",
    "CubeCanNotFuseWithViewElementwise": "NF1043", "CubeCanNotFuseWithNotElementwise": "NF1048",
    "CubeCanNotFuseHoriZontal": "NF1049", "FusedSliceHasViewOp": "NF1047", "SplitLowFuseRatio": "NF1050",
}  # fmt: skip


def not_fuse(rule: str, message: str, reason: str | None = None) -> Reason:
    """A fusion refusal. `rule` is GE's NotFuseReason name, or the GE function that decided
    where several of GE's rules log one NotFuseReason (then `reason` names it); the NF code
    is that reason's, None where GE logs none."""
    return Reason(rule, message, NOT_FUSE_REASON_CODES.get(reason or rule))
