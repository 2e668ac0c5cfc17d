"""Per-FuseType fusion strategies of GE's CanFuse (docs/ge/autofuse.md).

GE source: `can_fuse/strategy/*_fusion_strategy.cpp` (FusionStrategy, registered per
`loop::FuseType` with REGISTER_FUSION_STRATEGY) and `fusion_strategy_registry`. For a
pair (n1, n2), every strategy whose type is in `mask1 | mask2`, plus the default one,
must allow the fusion; the size caps are the max of their values; the priority is the
first non-DEFAULT answer in ascending FuseType-bit order, default last; only the concat
strategy forbids a loop merge.

Platform: A2/A3 ("v1"), where `concat_alg` is 0 (no backward concat fusion) and every
GatherSpec flag is off: no gather->reduce, gather->concat or gather+broadcast fusion, so a
gather (ge.Gather/GatherV2 lowered with `enable-pass=gather`, an AscIR Gather node) fuses
only into a pointwise consumer that reads it through simplest loads over as many loop
axes, and nothing fuses forward into a gather (except into a FusedAscBackend past its
gather).

Not modelled (documented, no rule fires in this op set): the norm-like reduce
exception (`IfNormLikeReduce` always returns false in GE, so it never fires);
CheckGatherWithView's per-link checks (only reached with enable_gather_broadcast_fusion,
off on A2/A3). The split rules see splits only with ge-lower-autofuse's
`split-lowering=split` (A5's StoreSplit); the low-fusion-ratio state they read is
computed by the decider (backend_utils.cpp IsSplitComplete / IsSplitLowFusionRatio) and
handed over in `FusePair.split_ratio_unsatisfied`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from ge_dialect import ascgraph as ag
from ge_dialect.reason import Reason, not_fuse
from passes.autofuse import ascgraph_queries as U
from passes.autofuse.axis_mapping import NodeFuseInfo
from passes.autofuse.solver import FusionPriority

UNLIMITED = 1 << 62
# auto_fuse_config.h: max_reduce_can_fuse_elementwise_nums
MAX_REDUCE_FUSED_ELEMENTWISE = 3


@dataclass
class FusePair:
    """What a strategy sees: the ordered pair (n1 is the producer when vertical), their
    connection facts, and the decider's configuration."""

    n1: Operation
    n2: Operation
    info: NodeFuseInfo
    max_reduce_fused_elementwise: int = MAX_REDUCE_FUSED_ELEMENTWISE
    # autofuse_attrs.h: node1's SplitFusionRatioRequirementState is NOT_SATISFIED
    split_ratio_unsatisfied: bool = False
    # strategies_for's answer: it depends on the two nodes' fuse types only, which do not
    # change while the pair exists (Fuse makes a new node); CanFuse asks about 7 times
    strategies: list[FusionStrategy] | None = field(default=None, init=False, repr=False, compare=False)
    # can_merge_loop_by_strategy's and fusion_pair_priority's answers, on the same premise
    merges_loops: bool | None = field(default=None, init=False, repr=False, compare=False)
    priority: FusionPriority | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def vertical(self) -> bool:
        return self.info.is_vertical

    def either(self, t: str) -> bool:
        return U.has_fuse_type(self.n1, t) or U.has_fuse_type(self.n2, t)

    def both(self, t: str) -> bool:
        return U.has_fuse_type(self.n1, t) and U.has_fuse_type(self.n2, t)


class FusionStrategy:
    """strategy/fusion_strategy.h: the default answers (default_fusion_strategy.cpp)."""

    fuse_type = "default"

    def can_fuse(self, p: FusePair) -> Reason | None:
        return None

    def can_merge_loop(self, p: FusePair) -> bool:
        return True

    def priority(self, p: FusePair) -> FusionPriority:
        return FusionPriority.DEFAULT

    def max_fusion_nodes_size(self, p: FusePair, configured: int) -> int:
        """The node cap; the default is the configured max_fusion_size (64)."""
        return configured

    def max_input_size(self, p: FusePair, configured: int) -> int:
        return configured

    def check_same_sched_axis(self, p: FusePair) -> Reason | None:
        return None

    def only_vertical_mapping(self, p: FusePair) -> bool:
        """default_fusion_strategy.cpp OnlyVerticalMapping: true when both links exist."""
        return p.info.is_vertical and p.info.is_horizontal


class ReductionFusionStrategy(FusionStrategy):
    fuse_type = "reduce"

    def can_fuse(self, p: FusePair) -> Reason | None:
        # reduction_fusion_strategy.cpp: the norm-like exception (both reduce-all-load
        # states != NOT_ALL) never fires: IfNormLikeReduce returns false.
        # reduction_fusion_strategy.cpp CanFuse: a reduction never fuses horizontally.
        if p.info.is_horizontal:
            return not_fuse("ReduceCanNotFuseHorizontal", "node1 and node2 read a common input and one is a reduction")
        if U.has_fuse_type(p.n1, "reduce"):
            # reduction_fusion_strategy.cpp: after a reduction only elementwise fuses
            if not U.is_only_pointwise(p.n2):
                return not_fuse(
                    "ReduceCanOnlyBackwardFuse3Elementwise",
                    "a reduction fuses forward only with pointwise nodes (no reduction + reduction)",
                )
            # reduction_fusion_strategy.cpp: at most max_reduce_can_fuse_elementwise_nums
            # compute nodes absorbed after a reduction
            absorbed = U.int_attr(p.n1, U.REDUCE_FUSED_ELEMENTWISE_ATTR, 0) + U.compute_node_num(p.n2)
            if absorbed > p.max_reduce_fused_elementwise:
                return not_fuse(
                    "ReduceCanFuseWithin3SubNodes",
                    f"a reduction may absorb {p.max_reduce_fused_elementwise} compute nodes, this fusion gives {absorbed}",
                )
        return None


def _concat_dim(op: Operation, cls: type) -> int | None:
    """Position of the first dim where a Concat's inputs (a Split's outputs) differ."""
    for n in U.asc_nodes(op):
        if isinstance(n, cls):
            whole = n.out_type() if cls is ag.Concat else n.in_type()
            parts = (
                [n.in_type(i) for i in range(len(n.operands))]
                if cls is ag.Concat
                else [n.out_type(i) for i in range(len(n.results))]
            )
            for j, r in enumerate(whole.repeat_list):
                if any(q.repeat_list[j] != r for q in parts):
                    return j
            return 0
    return None


class ConcatFusionStrategy(FusionStrategy):
    fuse_type = "concat"

    def can_fuse(self, p: FusePair) -> Reason | None:
        # concat_fusion_strategy.cpp 1: concat never fuses with concat
        if p.both("concat"):
            return not_fuse("ConcatCanNotFuseWithConcat", "both nodes hold a concat")
        # concat_fusion_strategy.cpp 2: concat never fuses with a reduction, either order
        if (U.has_fuse_type(p.n1, "concat") and U.has_fuse_type(p.n2, "reduce")) or (
            U.has_fuse_type(p.n1, "reduce") and U.has_fuse_type(p.n2, "concat")
        ):
            return not_fuse("ConcatCanNotFuseWithReduce", "a concat does not fuse with a reduction")
        # concat_fusion_strategy.cpp: backward fusion (concat -> consumer) needs
        # concat_alg != transpose; A2/A3 has concat_alg = 0
        if p.vertical and U.has_fuse_type(p.n1, "concat"):
            return not_fuse(
                "ConcatCanNotFuseBackward", "a concat does not fuse into its consumer on A2/A3 (concat_alg 0)"
            )
        # concat_fusion_strategy.cpp: split -> concat only if one of them is first-dim
        if p.vertical and U.has_fuse_type(p.n1, "split") and U.has_fuse_type(p.n2, "concat"):
            if _concat_dim(p.n1, ag.Split) != 0 and _concat_dim(p.n2, ag.Concat) != 0:
                return not_fuse("SplitCanNotFuseConcatBackward", "split -> concat needs a first-dim split or concat")
        # concat_fusion_strategy.cpp: the concat's graph has no fewer axes than the other
        cat, other = (p.n1, p.n2) if U.has_fuse_type(p.n1, "concat") else (p.n2, p.n1)
        if U.loop_axis_count(cat) < U.loop_axis_count(other):
            return not_fuse(
                "ConcatNodeSchedAxisSizeNotEqual",
                f"the concat loops over {U.loop_axis_count(cat)} axes, the other node over {U.loop_axis_count(other)}",
            )
        return None

    def can_merge_loop(self, p: FusePair) -> bool:
        # concat_fusion_strategy.cpp CanMergeLoop: any concat forbids a loop merge
        return False

    def priority(self, p: FusePair) -> FusionPriority:
        # concat_fusion_strategy.cpp GetFusionPairPriority: HIGH when a primary type is concat
        if "concat" in (U.primary_fuse_type(p.n1), U.primary_fuse_type(p.n2)):
            return FusionPriority.HIGH
        return FusionPriority.DEFAULT

    def _into_concat(self, p: FusePair) -> bool:
        return p.vertical and U.has_fuse_type(p.n2, "concat")

    def max_fusion_nodes_size(self, p: FusePair, configured: int) -> int:
        # concat_fusion_strategy.cpp: vertical fusion into a concat is unlimited
        return UNLIMITED if self._into_concat(p) else configured

    def max_input_size(self, p: FusePair, configured: int) -> int:
        return UNLIMITED if self._into_concat(p) else configured

    def check_same_sched_axis(self, p: FusePair) -> Reason | None:
        # concat_fusion_strategy.cpp CheckSameSchedAxis: concat is never fused only horizontally
        if not p.vertical:
            return not_fuse("ConcatNodeSchedAxisNotEqual", "a concat fuses only along a producer -> consumer link")
        return None


def _split_gids(op: Operation) -> set[int]:
    return {g for n in U.asc_nodes(op) if isinstance(n, ag.Split) and (g := U.int_attr(n, "gid", -1)) >= 0}


def is_reshape_only_squeeze_dims(split_out: tuple[int, ...], reshape_out: tuple[int, ...]) -> bool:
    """# split_fusion_strategy.cpp: IsReshapeOnlySqueezeDims -- `reshape_out` is `split_out`
    with some size-1 dims dropped."""
    if len(reshape_out) > len(split_out):
        return False
    i = j = 0
    while i < len(split_out) and j < len(reshape_out):
        if split_out[i] == reshape_out[j]:
            i, j = i + 1, j + 1
        elif split_out[i] == 1:
            i += 1
        else:
            return False
    return all(d == 1 for d in split_out[i:]) and j == len(reshape_out)


# split_fusion_strategy.cpp: CanReshapeNextNodeFuse -- consumer types that cannot fuse
_NO_FUSE_AFTER_RESHAPE = ("reduce", "extern", "split", "slice")


def _shape0(op: Operation) -> tuple[int, ...] | None:
    t = op.results[0].type if op.results else None
    return tuple(t.get_shape()) if isinstance(t, TensorType) else None


def check_split_reshape_fusion(split: Operation, reshape: Operation) -> Reason | None:
    """Why a split may not fuse with `reshape`, or None (split_fusion_strategy.cpp:
    CheckSplitReshapeFusion, logged as kSplitCanNotFuseReshapeSqueeze, whose NF1051 the
    code table does not list yet): `reshape` is only a reshape (GE: OnlyHasTypesInAscgraph
    {Reshape}; here the fuse-type mask is reshape alone, as reshape views add no AscIR
    node), its output 0 only squeezes size-1 dims of the split's output 0, and none of its
    consumers is an autofuse node free of reduce/extern/split/slice (CanReshapeNextNodeFuse)."""
    if not U.is_only_type(reshape, "reshape"):
        return None
    s, r = _shape0(split), _shape0(reshape)
    if s is None or r is None or not is_reshape_only_squeeze_dims(s, r):
        return None
    for res in reshape.results:
        for use in res.uses:
            nxt = use.operation
            if not U.inner_backends(nxt):
                continue  # GetNodeAutoFuseAttr is null: not an autofuse node
            if not any(U.has_fuse_type(nxt, t) for t in _NO_FUSE_AFTER_RESHAPE):
                return None
    return not_fuse(
        "SplitCanNotFuseReshapeSqueeze", "the reshape only squeezes size-1 dims and none of its consumers can fuse"
    )


class SplitFusionStrategy(FusionStrategy):
    fuse_type = "split"

    def can_fuse(self, p: FusePair) -> Reason | None:
        if p.both("split"):
            # split_fusion_strategy.cpp: split + split only from the same original Split
            if _split_gids(p.n1) & _split_gids(p.n2):
                return None
            return not_fuse("SplitCanNotFuseSplitHorizontal", "the two splits come from different Split nodes")
        # split_fusion_strategy.cpp: CheckSplitLowFusionRatio -- node1's cached state
        if p.split_ratio_unsatisfied:
            return not_fuse("SplitLowFuseRatio", "node1 is a complete split of which too few outputs can fuse")
        # split_fusion_strategy.cpp: split does not fuse with a reduction
        if p.either("reduce"):
            return not_fuse("SplitCanNotFuseReduction", "a split does not fuse with a reduction")
        if p.vertical:
            # split_fusion_strategy.cpp: no forward fusion into a split
            if U.has_fuse_type(p.n2, "split"):
                return not_fuse("SplitCanNotFuseForward", "nothing fuses into a split")
            # split_fusion_strategy.cpp: CheckSplitReshapeFusion
            if U.has_fuse_type(p.n1, "split") and (why := check_split_reshape_fusion(p.n1, p.n2)) is not None:
                return why
            return None
        # split_fusion_strategy.cpp: a split fuses only vertically (except split + split)
        return not_fuse("SplitCanNotFuseHorizontal", "a split fuses only along a producer -> consumer link")

    def priority(self, p: FusePair) -> FusionPriority:
        # split_fusion_strategy.cpp: HIGHEST for split + split (primary types), else HIGHER
        if U.primary_fuse_type(p.n1) == "split" and U.primary_fuse_type(p.n2) == "split":
            return FusionPriority.HIGHEST
        return FusionPriority.HIGHER

    def _unlimited(self, p: FusePair) -> bool:
        return (p.vertical and U.has_fuse_type(p.n1, "split")) or (p.both("split") and not p.vertical)

    def max_fusion_nodes_size(self, p: FusePair, configured: int) -> int:
        # split_fusion_strategy.cpp: vertical from a split, or split + split, is unlimited
        # (GetMaxFusionNodesSize; the input cap is the default's: no override)
        return UNLIMITED if self._unlimited(p) else configured


def _slice_loads(op: Operation) -> list[ag.Load]:
    return [ld for ld in U.graph_loads(op) if U.load_view(ld).slice]


def check_if_slice_node_contains_broadcast(p: FusePair) -> Reason | None:
    """# slice_split_fusion_strategy.cpp: CheckIfSliceNodeContainsBroadcast (logged as
    kFusedSliceHasViewOp): a slice node that also holds a Broadcast is refused."""
    for side in (p.n1, p.n2):
        if U.has_fuse_type(side, "slice") and U.has_broadcast(side):
            return not_fuse(
                "CheckIfSliceNodeContainsBroadcast",
                "a slice node that also broadcasts does not fuse",
                reason="FusedSliceHasViewOp",
            )
    return None


def check_node_input_has_split(p: FusePair) -> Reason | None:
    """# slice_split_fusion_strategy.cpp: CanFuse -> CheckIfSubGraphLinksHaveSpecifiedLoadTypePairs
    (node1 side: non-view, broadcast or transpose loads; node2 side: slice loads), logged as
    kNodeInputHasSplit: into a slice whose linked load is a slice view while the producer's
    loads are not slice views."""
    if p.vertical and U.has_fuse_type(p.n2, "slice"):
        linked = [ld for _, j in p.info.links for _, d in U.input_datas(p.n2, j) for ld in U.loads_of(d)]
        if any(U.load_view(ld).slice for ld in linked) and not _slice_loads(p.n1):
            return not_fuse("NodeInputHasSplit", "node2 slices node1's output, which node1 computes without a slice")
    return None


def check_if_slice_end_dim_is_one(p: FusePair) -> Reason | None:
    """# slice_split_fusion_strategy.cpp: CheckIfSliceEndDimIsOne (A2/A3: backend spec
    slice_fuse_with_end_dim_1 is false; GE logs no NotFuseReason): a slice whose output's
    end dim is 1 fuses only with slices. GE asks it of a vertical pair with a slice-only
    node1; this port of both sides and any link is kept as it was."""
    for a, b in ((p.n1, p.n2), (p.n2, p.n1)):
        if U.has_fuse_type(a, "slice") and not U.has_fuse_type(b, "slice"):
            for k in range(len(a.results)):
                st = U.output_store(a, k)
                if st is not None and st[1].out_type().repeat_list[-1:] == (1,):
                    return not_fuse(
                        "CheckIfSliceEndDimIsOne", "a slice whose output's last dim is 1 fuses only with slices"
                    )
    return None


def check_fused_slice_has_view_op(p: FusePair) -> Reason | None:
    """# slice_split_fusion_strategy.cpp: CanFuse -> CheckIfSubGraphLinksHaveSpecifiedLoadTypePairs
    (node1 side: slice loads; node2 side: broadcast or transpose loads), logged as
    kFusedSliceHasViewOp: a slice load feeding a Broadcast/Transpose is refused."""
    for side in (p.n1, p.n2):
        for ld in _slice_loads(side):
            if any(isinstance(u.operation, ag.Broadcast | ag.Transpose) for u in ld.results[0].uses):
                return not_fuse("FusedSliceHasViewOp", "a slice load feeds a broadcast or transpose")
    return None


def check_slice_has_only_horizontal_link(p: FusePair) -> Reason | None:
    """# slice_split_fusion_strategy.cpp: CanFuse (kSliceHasOnlyHorizontalLink): slice +
    slice linked only horizontally."""
    if p.both("slice") and not p.vertical:
        return not_fuse("SliceHasOnlyHorizontalLink", "two slices fuse only along a producer -> consumer link")
    return None


class SliceSplitFusionStrategy(FusionStrategy):
    fuse_type = "slice"

    # slice_split_fusion_strategy.cpp: SliceSplitFusionStrategy::CanFuse, in GE's order
    RULES = (
        check_if_slice_node_contains_broadcast,
        check_slice_has_only_horizontal_link,
        check_node_input_has_split,
        check_if_slice_end_dim_is_one,
        check_fused_slice_has_view_op,
    )

    def can_fuse(self, p: FusePair) -> Reason | None:
        for rule in self.RULES:
            if (why := rule(p)) is not None:
                return why
        return None


# common/autofuse_backend_spec_api.h AutofuseGatherSpec on A2/A3 (backend_spec.cpp
# platform_v1: gather_spec = {false, false, false, false, false})
ENABLE_REDUCE_GATHER_FUSION = False
ENABLE_GATHER_CONCAT_FUSION = False
ENABLE_GATHER_BROADCAST_FUSION = False


def all_inputs_simplest_load(op: Operation) -> bool:
    """backend_utils.cpp BackendUtils::IsNodeAllInputsAreSimplestLoad (IsSimplestLoad on
    every Load: a concat-typed node reads simply, a Load whose first reader is a
    Broadcast is a view), see ascgraph_queries.node_all_inputs_simplest_load."""
    return U.node_all_inputs_simplest_load(op)


class GatherFusionStrategy(FusionStrategy):
    fuse_type = "gather"

    def can_fuse(self, p: FusePair) -> Reason | None:
        # gather_fusion_strategy.cpp CanFuse 1: nothing fuses forward into a gather; a
        # FusedAscBackend holding a gather takes n1 only where n1 does not feed the gather
        if U.has_fuse_type(p.n2, "gather"):
            if not self.is_forward_fuse_gather(p) and self.check_gather_with_view(p):
                return None
            return not_fuse("GatherCanNotFuseForward", "a gather takes no producer into its kernel (no forward fusion)")
        if U.has_fuse_type(p.n1, "gather"):
            # gather_fusion_strategy.cpp CanFuse 2: CheckGatherReduceFuse
            if U.has_fuse_type(p.n2, "reduce"):
                return self.check_gather_reduce_fuse(p)
            # gather_fusion_strategy.cpp CanFuse 3: CheckGatherConcatFuse
            if U.has_fuse_type(p.n2, "concat"):
                return self.check_gather_concat_fuse(p)
            # gather_fusion_strategy.cpp CanFuse 4: CheckGatherElemwiseFuse
            if U.is_only_pointwise(p.n2):
                return self.check_gather_elemwise_fuse(p)
        # gather_fusion_strategy.cpp CanFuse: anything else
        return not_fuse("GatherCanOnlyVerticallyFuseWithElementwise", "a gather fuses only into its pointwise consumer")

    @staticmethod
    def is_forward_fuse_gather(p: FusePair) -> bool:
        """gather_fusion_strategy.cpp IsForwardFuseGather: n2 is an AscBackend holding a
        gather, or one of n1's links enters the inner node of n2 that holds the gather."""
        if not U.is_fused_asc_backend(p.n2):
            return True
        return any(U.has_fuse_type(inner, "gather") for _, j in p.info.links for inner, _ in U.input_datas(p.n2, j))

    @staticmethod
    def check_gather_with_view(p: FusePair) -> bool:
        """gather_fusion_strategy.cpp CheckGatherWithView: n2 reads only simplest loads; its
        enable_gather_broadcast_fusion branch (per-link view checks) is off on A2/A3."""
        return all_inputs_simplest_load(p.n2) or ENABLE_GATHER_BROADCAST_FUSION

    @staticmethod
    def check_gather_fuse_axis(p: FusePair) -> Reason | None:
        # gather_fusion_strategy.cpp CheckGatherFuseAxis: equal loop axis counts
        a1, a2 = U.loop_axis_count(p.n1), U.loop_axis_count(p.n2)
        if a1 != a2:
            return not_fuse("GatherNodeAxisSizeNotEqual", f"the gather loops over {a1} axes, node2 over {a2}")
        return None

    def check_gather_reduce_fuse(self, p: FusePair) -> Reason | None:
        # gather_fusion_strategy.cpp CheckGatherReduceFuse: enable_reduce_gather_fusion
        if not ENABLE_REDUCE_GATHER_FUSION:
            return not_fuse("GatherCanNotFuseWithReduce", "a gather does not fuse with a reduction on A2/A3")
        if (r := self.check_gather_fuse_axis(p)) is not None:
            return r
        if not self.check_gather_with_view(p):
            return not_fuse("GatherNextNodeIsReduceAndInputHasViewOp", "the reduction reads through a view")
        return None

    def check_gather_concat_fuse(self, p: FusePair) -> Reason | None:
        # gather_fusion_strategy.cpp CheckGatherConcatFuse: vertical and enable_gather_concat_fusion
        if not p.vertical or not ENABLE_GATHER_CONCAT_FUSION:
            return not_fuse("GatherCanNotFuseWithConcat", "a gather does not fuse with a concat on A2/A3")
        if not self.check_gather_with_view(p):
            return not_fuse("GatherNextNodeIsConcatAndInputHasViewOp", "the concat reads through a view")
        return None

    def check_gather_elemwise_fuse(self, p: FusePair) -> Reason | None:
        # gather_fusion_strategy.cpp CheckGatherElemwiseFuse: vertical, equal axis counts,
        # no view op on node2's inputs
        if not p.vertical:
            return not_fuse(
                "GatherCanOnlyVerticallyFuseWithElementwise", "a gather fuses with a pointwise node only along a link"
            )
        if (r := self.check_gather_fuse_axis(p)) is not None:
            return r
        if not self.check_gather_with_view(p):
            return not_fuse(
                "GatherNextNodeIsPointWiseAndInputHasViewOp",
                "the pointwise node reads an input through a view (broadcast, slice or transpose)",
            )
        return None

    def priority(self, p: FusePair) -> FusionPriority:
        # gather_fusion_strategy.cpp GetFusionPairPriority: HIGH when n1's primary type is
        # gather and the pair is vertical
        if p.vertical and U.primary_fuse_type(p.n1) == "gather":
            return FusionPriority.HIGH
        return FusionPriority.DEFAULT


class TransposeFusionStrategy(FusionStrategy):
    fuse_type = "transpose"

    def can_fuse(self, p: FusePair) -> Reason | None:
        # transpose_fusion_strategy.cpp: transpose fuses only vertically
        if not p.vertical:
            return not_fuse(
                "TransposeCanNotFuseWithNotPointWise", "a transpose fuses only along a producer -> consumer link"
            )
        for a, b in ((p.n1, p.n2), (p.n2, p.n1)):
            if U.has_fuse_type(a, "transpose") and not U.has_fuse_type(b, "transpose"):
                if not U.is_only_pointwise(b):
                    return not_fuse(
                        "TransposeCanNotFuseWithNotPointWise", "a transpose fuses only with pointwise nodes"
                    )
                # transpose_fusion_strategy.cpp (A2/A3 normal mode): a pointwise node whose
                # inputs are not all simplest loads (IsNodeAllInputsAreSimplestLoad) cannot
                # fuse with a transpose
                if not all_inputs_simplest_load(b):
                    return not_fuse(
                        "TransposeCanNotFuseWithNotPointWise",
                        "the pointwise node broadcasts an input or reads it through another view",
                    )
        if U.has_fuse_type(p.n2, "transpose") and not U.has_fuse_type(p.n1, "transpose"):
            # transpose_fusion_strategy.cpp: pointwise -> transpose needs a single consumer and a Load
            consumers = {u.operation for r in p.n1.results for u in r.uses}
            if len(consumers) != 1 or not U.graph_loads(p.n1):
                return not_fuse(
                    "TransposeCanNotFuseWithNotPointWise",
                    "a pointwise node fuses into a transpose only when the transpose is its only consumer and it loads its input",
                )
        return None


class CubeFusionStrategy(FusionStrategy):
    fuse_type = "cube"

    def can_fuse(self, p: FusePair) -> Reason | None:
        # cube_fusion_strategy.cpp: never forward into a cube
        if U.has_fuse_type(p.n2, "cube"):
            return not_fuse("CubeCanNotFuseForward", "nothing fuses into a cube")
        # cube_fusion_strategy.cpp: only cube -> pointwise, vertical, no broadcast
        if not p.vertical:
            return not_fuse("CubeCanNotFuseHoriZontal", "a cube fuses only with its consumer")
        if not U.is_only_pointwise(p.n2):
            return not_fuse("CubeCanNotFuseWithNotElementwise", "a cube fuses only with a pointwise consumer")
        # cube_fusion_strategy.cpp: node2 must read every input by a simplest load
        # (IsNodeAllInputsAreSimplestLoad)
        if not all_inputs_simplest_load(p.n2):
            return not_fuse(
                "CubeCanNotFuseWithViewElementwise",
                "the cube's consumer broadcasts an input or reads it through another view",
            )
        return None

    def priority(self, p: FusePair) -> FusionPriority:
        # cube_fusion_strategy.cpp: LOW for cube epilogue fusion (tried last)
        if p.vertical and U.has_fuse_type(p.n1, "cube"):
            return FusionPriority.LOW
        return FusionPriority.DEFAULT

    def max_fusion_nodes_size(self, p: FusePair, configured: int) -> int:
        return configured + 1  # cube_fusion_strategy.cpp: max_fusion_size + 1 (65)


class ReshapeFusionStrategy(FusionStrategy):
    fuse_type = "reshape"

    def can_fuse(self, p: FusePair) -> Reason | None:
        # reshape_fusion_strategy.cpp: two nodes that are only reshapes do not fuse
        if U.is_only_type(p.n1, "reshape") and U.is_only_type(p.n2, "reshape"):
            return not_fuse("CanNotMergeAscGraph", "two reshape-only nodes do not fuse")
        return None


DEFAULT_STRATEGY = FusionStrategy()
# Registered strategies in ascending FuseType-bit order (REGISTER_FUSION_STRATEGY).
STRATEGIES: tuple[FusionStrategy, ...] = tuple(
    sorted(
        (
            ReductionFusionStrategy(), ConcatFusionStrategy(), SplitFusionStrategy(),
            SliceSplitFusionStrategy(), GatherFusionStrategy(), TransposeFusionStrategy(),
            CubeFusionStrategy(), ReshapeFusionStrategy(),
        ),
        key=lambda s: ag.fuse_type_bit(s.fuse_type),
    )
)  # fmt: skip


def strategies_for(p: FusePair) -> list[FusionStrategy]:
    """The strategies matching mask1 | mask2, then the default one (computed once per pair:
    FusePair.strategies)."""
    if p.strategies is None:
        mask = U.all_fuse_types(p.n1) | U.all_fuse_types(p.n2)
        if (listed := _BY_MASK.get(mask)) is None:  # (a function of the mask: one list per mask)
            listed = _BY_MASK[mask] = [s for s in STRATEGIES if mask & _STRATEGY_BITS[s]] + [DEFAULT_STRATEGY]
        p.strategies = listed
    return p.strategies


_STRATEGY_BITS = {s: ag.fuse_type_bit(s.fuse_type) for s in STRATEGIES}
# the fuse-type bits that have a strategy: a pair whose masks hold none of them has only
# DEFAULT_STRATEGY (strategies_for)
STRATEGY_MASK = sum(_STRATEGY_BITS.values())
_BY_MASK: dict[int, list[FusionStrategy]] = {}  # strategies_for's lists (never changed by a caller)


def can_fuse_by_strategy(p: FusePair) -> Reason | None:
    for s in strategies_for(p):
        if (r := s.can_fuse(p)) is not None:
            return r
    return None


def can_merge_loop_by_strategy(p: FusePair) -> bool:
    if p.merges_loops is None:  # (kept on the pair)
        p.merges_loops = all(s.can_merge_loop(p) for s in strategies_for(p))
    return p.merges_loops


def fusion_pair_priority(p: FusePair) -> FusionPriority:
    """The first non-DEFAULT answer, strategies in ascending FuseType-bit order (kept on
    the pair)."""
    if p.priority is None:
        p.priority = next(
            (pr for s in strategies_for(p) if (pr := s.priority(p)) != FusionPriority.DEFAULT), FusionPriority.DEFAULT
        )
    return p.priority


def max_fusion_nodes_size(p: FusePair, configured: int) -> int:
    """The max of the strategies' node caps (the default's is max_fusion_size)."""
    return max(s.max_fusion_nodes_size(p, configured) for s in strategies_for(p))


def max_input_size(p: FusePair, configured: int) -> int:
    return max(s.max_input_size(p, configured) for s in strategies_for(p))


def check_same_sched_axis(p: FusePair) -> Reason | None:
    for s in strategies_for(p):
        if (r := s.check_same_sched_axis(p)) is not None:
            return r
    return None
