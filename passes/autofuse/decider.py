"""GE's AscBackend fusion decider: CanFuse, the pair priority and Fuse of two autofuse nodes.

GE source: `can_fuse/backend/asc_backend_fusion_decider.{h,cpp}`
(AscBackendFusionDecider::CanFuse, GetFusionPairPriority, Fuse, MergeAscGraphByLoop,
MergeGraphToFusedAscBackendNode, FuseNode) and `asc_backend_subgraph_fusion_decider`
(the inner round of a FusedAscBackend).

CanFuse runs GE's checks in order and returns the first failure as a Reason (GE's
reason name and NFxxxx code, and a message for remarks). Fuse either loop-merges two
AscBackends into one AscBackend (passes/autofuse/loop_merge.py: shared Data nodes
deduplicated, Store -> Data -> Load removed, outputs only the partner read dropped), or,
when a concat is involved or a side is already a FusedAscBackend, wraps them in a
ge.FusedAscBackend and records the pairs its inner round may still loop-merge. The
replacement of the pair by the merged node is a rewrite, the FuseAscBackendPair pattern,
applied through xDSL's PatternRewriter: the solver decides the pairs, the pattern merges
them and reports each insertion, use change and erasure to the rewriter.

Every answer that is kept across calls (per node, per pair, per content) is read through
`self.cache` (passes/autofuse/fuse_cache.py); with ge-autofuse's `fuse-cache=false` or
GE_FUSE_CACHE=0 it is the plain path, which computes each afresh, and the result is the
same. The decider's own state is GE's: the split-ratio state per node and the pairs a
FusedAscBackend's inner round may fuse.

Deviations, each kept numerically exact:
* CanFuse loop-merges a link only when the consumer's Data view is the producer's Store
  view on every merged axis, or is a slice node1 can run on
  (axis_mapping.link_views_disagree): a reshape that regroups axes is refused up front
  (CanNotMergeAscGraph), so Fuse never meets a view it cannot build (loop_merge.py says
  how a broadcast or transposed view is built).
* A slice is back-stepped only when node1 has no other output or link and holds no
  Concat, Gather or Workspace (the whole of node1 runs on the slice; GE leaves such
  nodes' views as they are); otherwise CanNotMergeAscGraph names the reason.
* For a loop merge, CanAxisMap's pairings are kept only when paired loop axes have one
  size, or one side is 1 or a concat/split axis (axis_mapping.sizes_agree): repeat-1
  tensor axes otherwise pair loops of any extent (a reduce-all Store [1] with a
  broadcast's Data [1, 1, 1]). The side with fewer loop axes keeps repeat 1 on the axes
  it lacks, so GE's AscGraph node counts can exceed ours (FuseLoopMerge1: GE 15, ours 13,
  see tests/passes/autofuse/test_decider.py).
* `fusion_nodes_size` stays the real AscGraph node count (the ge.AscBackend verifier
  checks it); GE's summed, never-recounted figure the size cap reads is carried in
  `canfuse_nodes_size` (ascgraph_queries.CANFUSE_NODES_SIZE_ATTR).
* The per-slot "single reference" of GE (one peer) is widened to "every peer in node2",
  so the Store is removed exactly when the output leaves the fused node's output list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.asc_backend import FUSE_TYPE_ATTR, FUSE_TYPE_MASK_ATTR
from ge_dialect.ge import ge_type, node_name
from ge_dialect.reason import Reason, not_fuse
from ge_dialect.shape_env import ORIGIN_SYMBOL_SHAPE_ATTR, origin_symbol_shape
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import strategies as S
from passes.autofuse.axis_group import AxisGroup, can_merge_axis_group, graph_axis_group
from passes.autofuse.axis_mapping import (
    AxisUnification,
    NodeFuseInfo,
    create_axis_map,
    link_views_disagree,
    node_fuse_info,
    update_input_maps,
)
from passes.autofuse.fuse_cache import NoFuseCache, make_fuse_cache
from passes.autofuse.loop_merge import (
    fused_result_types,
    name_fused_results,
    plan_fused_inputs,
    renumbered_backend,
    shared_int,
)
from passes.autofuse.solver import FusionPriority

AXIS_GROUP_ATTR = "_axis_group"  # GE AutoFuseAttrs::axis_group (the cached merged group)
# backend_utils.cpp: BackendUtils::IsCanFuseBlackList (the types CanFuse never fuses)
BLACKLIST = ("NetOutput", "Data", "Output", "AscBackendNoKernelOp")
MAX_OP_NAME_LEN = 140  # auto_fuse_config.h: max_op_name_len
SPLIT_LOW_FUSION_RATIO_THRESHOLD = 0.2  # autofuse_attrs.h: kSplitLowFusionRatioThreshold
# backend_utils.h: kPureSplitIncludedAscirNodeTypes
PURE_SPLIT_NODE_TYPES = (ag.Split, ag.Data, ag.Load, ag.Store, ag.Output)


def split_complete(op: Operation) -> bool:
    """backend_utils.cpp IsSplitComplete: a primary-split AscBackend holding only
    Data/Load/Split/Store/Output whose Split nodes number the original Split's outputs
    (every piece of the Split's StoreSplit boxes has been fused back in)."""
    if not isinstance(op, ge.AscBackend) or U.primary_fuse_type(op) != "split":
        return False
    nodes = list(U.asc_nodes(op))
    splits = [n for n in nodes if isinstance(n, ag.Split)]
    if not splits or any(not isinstance(n, PURE_SPLIT_NODE_TYPES) for n in nodes):
        return False
    # our lowered Split nodes keep every piece as a result: the original output count
    return len(splits) == len(splits[0].results)


def is_can_fuse_black_list(op: Operation) -> Reason | None:
    """# backend_utils.cpp: BackendUtils::IsCanFuseBlackList -- a type CanFuse never fuses
    (GE logs no NotFuseReason for it)."""
    if ge_type(op) in BLACKLIST:
        return Reason("IsCanFuseBlackList", f"'{node_name(op)}' is a {ge_type(op)}, which never fuses")
    return None


def axis_group_of(op: Operation) -> AxisGroup | None:
    """BackendUtils::GetAscGraphAxisGroup: the cached group, else generated from the
    AscGraph(s) (a FusedAscBackend's inner groups merged in order)."""
    a = op.attributes.get(AXIS_GROUP_ATTR)
    if isinstance(a, StringAttr) and (g := AxisGroup.from_text(a.data)) is not None:
        if g.all_axes():
            return g
        # backend_utils.cpp GetAscGraphAxisGroup: an empty cached group is regenerated for
        # an AscBackend; a FusedAscBackend has none to regenerate it from (FAILED)
        if isinstance(op, ge.FusedAscBackend):
            return None
    groups = [graph_axis_group(g) for g in U.asc_graphs(op)]
    if not groups or any(g is None for g in groups):
        return None
    merged = groups[0]
    for g in groups[1:]:
        merged = can_merge_axis_group(merged, g)  # type: ignore[arg-type]
        if merged is None:
            return None
    return merged


# asc_backend_fusion_decider.cpp ExtractNameFromAscBackend: regex_search, any pattern name
_NAME_RE = re.compile(r"autofuse(_fused)?(?:_[^_]+)?_([0-9]+)_(.*)")


def origin_types(op: Operation) -> str:
    """asc_backend_fusion_decider.cpp ExtractNameFromAscBackend: the ordered node types in
    an autofuse node's name (`autofuse_<pattern>_<n>_Add_Abs` -> `Add_Abs`); "" for any
    other name."""
    m = _NAME_RE.search(node_name(op))
    return m.group(3) if m else ""


def fuse_node_types(n1: Operation, n2: Operation) -> str:
    """asc_backend_fusion_decider.cpp CreateFuseNodeName: the node earlier in topological
    order (GE: the smaller op id; here: the block order) names its types first, joined by
    "_" only when that first part is not empty."""
    first, second = (n1, n2) if n1.is_before_in_block(n2) else (n2, n1)
    t1, t2 = origin_types(first), origin_types(second)
    return t1 + ("_" if t1 else "") + t2


def ordered_pair(n1: Operation, n2: Operation) -> tuple[Operation, Operation]:
    """n1 is the producer when the pair is vertical (the solver orders it; so does this)."""
    if any(u.operation is n1 for r in n2.results for u in r.uses):
        return n2, n1
    return n1, n2


@dataclass(frozen=True, slots=True)
class NodeFacts:
    """What CanFuse reads of one node alone (steps 1-3)."""

    black: Reason | None  # step 1, IsCanFuseBlackList
    no_graph: Reason | None  # step 2, GetSubgraphFailed
    core_num: int  # AutoFuseAttrs::vector_core_num (0 when unset)
    split: bool  # the primary fuse type is split


@dataclass
class AscBackendFusionDecider:
    """asc_backend_fusion_decider.cpp: AscBackendFusionDecider (a FusionDecider)."""

    max_fusion_size: int = 64
    max_input_nums_after_fuse: int = 8
    max_reduce_fused_elementwise: int = S.MAX_REDUCE_FUSED_ELEMENTWISE
    counter: int = 0
    # the kept answers (fuse_cache.FuseCache), or none (NoFuseCache: the plain path)
    cache: NoFuseCache = field(default_factory=make_fuse_cache)
    # MergeGraphToFusedAscBackendNode's pairs per FusedAscBackend, for its inner round
    _pairs: dict[int, list[tuple[Operation, Operation]]] = field(default_factory=dict)
    # autofuse_attrs.h: SplitFusionRatioRequirementState per node (True = NOT_SATISFIED,
    # False = SATISFIED, absent = NOT_DETERMINED); GE caches it on the node's attributes
    _split_ratio: dict[Operation, bool] = field(default_factory=dict)

    def pair_cache(self):  # noqa: ANN201
        """A block in which the caller changes no node (the solver's GetPossibleFusions):
        the cache may keep each pair's answers inside it."""
        return self.cache.pair_cache()

    # -- what CanFuse reads of one node --------------------------------------------------------

    def axis_group(self, op: Operation) -> AxisGroup | None:
        return self.cache.per_node("group", op, axis_group_of)

    def node_facts(self, op: Operation) -> NodeFacts:
        return self.cache.per_node("facts", op, self._node_facts)

    def _node_facts(self, op: Operation) -> NodeFacts:
        fusable = None
        if not self.is_fusable_node(op):
            fusable = not_fuse("GetSubgraphFailed", f"'{node_name(op)}' ({ge_type(op)}) holds no AscGraph")
        return NodeFacts(
            is_can_fuse_black_list(op),
            fusable,
            U.int_attr(op, U.VECTOR_CORE_NUM_ATTR, 0),
            U.primary_fuse_type(op) == "split",
        )

    # -- FusionDecider ---------------------------------------------------------------------

    def is_fusable_node(self, op: Operation) -> bool:
        return bool(U.inner_backends(op)) and ge_type(op) not in BLACKLIST

    def fusion_nodes_size(self, op: Operation) -> int:
        return self.cache.per_node("size", op, U.canfuse_nodes_size)

    def possible_fusion_pairs(self, op: Operation) -> list[tuple[Operation, Operation]]:
        """The pairs recorded by MergeGraphToFusedAscBackendNode; cleared after use."""
        return self._pairs.pop(id(op), [])

    def _pair(self, n1: Operation, n2: Operation) -> S.FusePair | Reason:
        """NodeFuseInfo::UpdateNodeFuseInfo and the matching strategies of (n1, n2)."""
        split = self._split_ratio.get(n1) is True
        return self.cache.pair(n1, n2, split, lambda: self._make_pair(n1, n2, split))

    def _make_pair(self, n1: Operation, n2: Operation, split: bool) -> S.FusePair | Reason:
        info = node_fuse_info(self.cache.links(n1), self.cache.links(n2))
        if isinstance(info, Reason):
            return info
        p = S.FusePair(n1, n2, info, self.max_reduce_fused_elementwise, split)
        # asc_graph_axis_mapping.cpp: CreateSubGraphAxisMapInfo: a strategy's
        # OnlyVerticalMapping skips only the horizontal axis mapping; NodeFuseInfo's
        # CanDoHorizontalMapping stays on, so an input both nodes read is still shared.
        if any(s.only_vertical_mapping(p) for s in S.strategies_for(p)):
            info.only_vertical_mapping = True
        return p

    def get_fusion_pair_priority(self, n1: Operation, n2: Operation) -> FusionPriority:
        """AscBackendFusionDecider::GetFusionPairPriority: the matching strategies' priority."""
        if not ((U.all_fuse_types(n1) | U.all_fuse_types(n2)) & S.STRATEGY_MASK):
            # only the default strategy matches (strategies_for): its priority is DEFAULT
            return FusionPriority.DEFAULT
        n1, n2 = ordered_pair(n1, n2)
        p = self._pair(n1, n2)
        return FusionPriority.DEFAULT if isinstance(p, Reason) else S.fusion_pair_priority(p)

    # -- CanFuse ---------------------------------------------------------------------------

    def can_fuse(self, n1: Operation, n2: Operation) -> Reason | None:
        """AscBackendFusionDecider::CanFuse (the cache may answer with the verdict of a pair
        of equal content)."""
        return self.cache.verdict(self, n1, n2, lambda: self._can_fuse(n1, n2))

    def _can_fuse(self, n1: Operation, n2: Operation) -> Reason | None:
        """CanFuse's steps in GE's order."""
        k1, k2 = self.node_facts(n1), self.node_facts(n2)
        # 1. asc_backend_fusion_decider.cpp: blacklisted types never fuse
        for k in (k1, k2):
            if k.black is not None:
                return k.black
        # 2. both must hold an AscGraph or a fuse compute graph
        for k in (k1, k2):
            if k.no_graph is not None:
                return k.no_graph
        p = self._pair(n1, n2)
        if isinstance(p, Reason):
            return p
        return self._can_fuse_pair(p)

    def _can_fuse_pair(self, p: S.FusePair) -> Reason | None:
        n1, n2, info = p.n1, p.n2, p.info
        # 3. CanFuseByStrategy (backend_utils.cpp): CanFuseByStrategyPro, then a complete
        # split with a low fusion ratio is refused
        if (r := self._can_fuse_by_strategy_pro(p)) is not None:
            return r
        if self.node_facts(n1).split and split_complete(n1):
            if (why := self._split_low_fusion_ratio(n1)) is not None:
                return why
        # 5-6. axis unification in check mode (need_flash = false)
        merge = self._merges_loops(p)
        u = create_axis_map(info, need_flash=False, loop_merge=merge, memo=self.cache.queries)
        if isinstance(u, Reason):
            return u.prefixed("loop axes cannot be unified: ")
        # 7. CheckSameSchedAxis by strategy
        if (r := S.check_same_sched_axis(p)) is not None:
            return r
        # 8. input cap: |node2_input_map| <= max_input_size, counted as Fuse will build
        # the input list (shared Data nodes that cannot merge stay separate inputs)
        if (plan := self._plan_fused_inputs(info, merge)) is not None:
            return plan
        cap_in = S.max_input_size(p, self.max_input_nums_after_fuse)
        if len(info.fused_inputs) > cap_in:
            return not_fuse(
                "InputNumsExceedThreshold", f"fused node would have {len(info.fused_inputs)} inputs > {cap_in}"
            )
        # 9. axis-group merge (BackendUtils::IsCanMergeAxisGroup)
        if (why := self._merge_axis_groups(n1, n2, u)) is not None:
            return why
        # Ours: a loop merge reads node1's on-chip value only where node2 loaded exactly
        # what node1 stored (a slice or regrouping reshape cannot be bypassed).
        if merge and (why := link_views_disagree(info, u, self.cache.queries)) is not None:
            return why
        return None

    def _can_fuse_by_strategy_pro(self, p: S.FusePair) -> Reason | None:
        """backend_utils.cpp CanFuseByStrategyPro: the strategies, the vector core number
        and the node cap."""
        # every matching strategy and the default must agree
        if (r := S.can_fuse_by_strategy(p)) is not None:
            return r
        c1, c2 = self.node_facts(p.n1).core_num, self.node_facts(p.n2).core_num
        if c1 != c2:
            return not_fuse("VectorCoreNumNotEqual", f"vector core numbers differ: {c1} and {c2}")
        # size1 + size2 > max_fusion_nodes_size rejects
        cap = S.max_fusion_nodes_size(p, self.max_fusion_size)
        size = self.fusion_nodes_size(p.n1) + self.fusion_nodes_size(p.n2)
        if size > cap:
            return not_fuse("MaxFusionNodesSizeExceedThreshold", f"fused size {size} > {cap}")
        return None

    def _split_low_fusion_ratio(self, n1: Operation) -> Reason | None:
        """backend_utils.cpp IsSplitLowFusionRatio: of the original Split's outputs, the
        share of node1's outputs with some autofuse consumer that CanFuseByStrategyPro
        accepts; at most kSplitLowFusionRatioThreshold is low. The answer is cached on
        node1 (SATISFIED short-cuts later calls; NOT_SATISFIED makes SplitFusionStrategy
        refuse node1 as a producer)."""
        if self._split_ratio.get(n1) is False:
            return None
        total = len(next(n for n in U.asc_nodes(n1) if isinstance(n, ag.Split)).results)
        can = 0
        for r in n1.results:
            for use in r.uses:
                peer = use.operation
                if not self.is_fusable_node(peer):
                    continue
                pp = self._pair(n1, peer)
                if not isinstance(pp, Reason) and self._can_fuse_by_strategy_pro(pp) is None:
                    can += 1
                    break
        ratio = can / total
        if ratio > SPLIT_LOW_FUSION_RATIO_THRESHOLD:
            self._split_ratio[n1] = False
            return None
        self._split_ratio[n1] = True
        return not_fuse(
            "SplitLowFuseRatio",
            f"{can} of the split's {total} outputs can fuse: ratio {ratio:g} <= {SPLIT_LOW_FUSION_RATIO_THRESHOLD}",
        )

    def _merge_axis_groups(self, n1: Operation, n2: Operation, u: AxisUnification) -> Reason | None:
        """CanFuse's step 9: BackendUtils::IsCanMergeAxisGroup on both groups converted by
        the axis map."""

        def merge() -> Reason | None:
            g1, g2 = self.axis_group(n1), self.axis_group(n2)
            if g1 is None or g2 is None:
                return not_fuse("GetAscgraphAxisGroupFailed", "an AscGraph's axis group cannot be generated")
            if (r1 := g1.remapped(u.map1)) is None or (r2 := g2.remapped(u.map2)) is None:
                return not_fuse("GetAscgraphAxisGroupFailed", "an axis group has an axis the axis map does not convert")
            if can_merge_axis_group(r1, r2, is_ge_call=True) is None:
                return not_fuse("MergeAxisGroupFailed", f"axis groups {r1.label()} and {r2.label()} cannot merge")
            return None

        return self.cache.axis_groups_merge(self, n1, n2, u, merge)

    def _plan_fused_inputs(self, info: NodeFuseInfo, merge: bool) -> Reason | None:
        """node2_input_map exactly as Fuse builds it, for CanFuse's input cap and for Fuse
        itself: a loop merge unifies the axes with need_flash (Fuse's map) and rolls back
        the shared inputs whose Data nodes cannot merge (plan_fused_inputs)."""
        if not (merge and info.can_do_horizontal_mapping() and info.same_input_map):
            if info.applied_rollback != frozenset():  # (node_fuse_info applied none)
                update_input_maps(info)
            return None
        u = create_axis_map(info, need_flash=True, loop_merge=True, memo=self.cache.queries)
        if isinstance(u, Reason):
            return u.prefixed("loop axes cannot be unified: ")
        plan_fused_inputs(info, u, self.cache.queries)
        return None

    def _merges_loops(self, p: S.FusePair) -> bool:
        """CanMergeAscGraph: both AscBackend and every strategy allows a loop merge."""
        return U.is_asc_backend(p.n1) and U.is_asc_backend(p.n2) and S.can_merge_loop_by_strategy(p)

    # -- Fuse ------------------------------------------------------------------------------

    def can_build(self, n1: Operation, n2: Operation) -> Reason | None:
        """Why `build_fused` would refuse the pair (Fuse's axis map, need_flash), else None:
        the global solver's check before it builds (passes/autofuse/global_solver.py)."""
        p = self._pair(*ordered_pair(n1, n2))
        if isinstance(p, Reason):
            return p
        u = create_axis_map(p.info, need_flash=True, loop_merge=self._merges_loops(p), memo=self.cache.queries)
        return u if isinstance(u, Reason) else None

    def build_fused(
        self, n1: Operation, n2: Operation, keep_groups: bool = False, take: bool = False
    ) -> tuple[Operation, list[SSAValue], Operation, Operation] | Reason:
        """The fused node of `fuse`, not inserted: (new, the old value each of its results
        replaces, node1, node2 as ordered), or the Reason Fuse's axis map (need_flash)
        refuses the pair. `keep_groups` keeps both axis groups asked (the global solver
        builds candidates it may undo; passes/autofuse/global_solver.py). `take`: the
        caller erases both nodes right after (fuse does), so the cache's loop merge may
        move their AscIR nodes into the new AscGraph instead of cloning them; n1 and n2
        are then left with only the nodes the merge drops. Without it both stay as they
        were."""
        n1, n2 = ordered_pair(n1, n2)
        hand = self.cache.handed_pair(n1, n2, self._split_ratio.get(n1) is True)
        p: S.FusePair | Reason = hand if hand is not None and take else self._pair(n1, n2)
        if isinstance(p, Reason):
            return p
        merge = self._merges_loops(p)
        u = create_axis_map(p.info, need_flash=True, loop_merge=merge, memo=self.cache.queries)
        if isinstance(u, Reason):
            return u
        g1, g2 = self.axis_group(n1), self.axis_group(n2)
        if not keep_groups:  # both nodes are fused away
            self.cache.forget("group", n1)
            self.cache.forget("group", n2)
        r1, r2 = (g1.remapped(u.map1), g2.remapped(u.map2)) if g1 and g2 else (None, None)
        merged = can_merge_axis_group(r1, r2) if r1 and r2 else None
        if merge:
            # MergeAscGraphByLoop (loop_merge.py), FuseNode's attributes of both nodes whole
            attrs = self._attrs(n1, n2, fused=False)
            new: Operation = self.cache.loop_merge(p.info, u, attrs, take).run()
        else:
            new = self._merge_to_fused(p.info, u)
        if merged is not None:
            new.attributes[AXIS_GROUP_ATTR] = StringAttr(merged.to_text())
        olds: list[SSAValue] = [n1.results[i] for i in p.info.node1_outputs]
        olds += n2.results
        if ORIGIN_SYMBOL_SHAPE_ATTR in n1.attributes or ORIGIN_SYMBOL_SHAPE_ATTR in n2.attributes:
            # over symbolic shapes: each output keeps its SymbolicDescAttr (GE keeps it on
            # the fused node's output descs), for the dynamic executor
            new.attributes[ORIGIN_SYMBOL_SHAPE_ATTR] = ArrayAttr([origin_symbol_shape(v) for v in olds])
        return new, olds, n1, n2

    def fuse(self, n1: Operation, n2: Operation) -> Operation:
        """AscBackendFusionDecider::Fuse: the fused node in node2's place, both erased (the
        FuseAscBackendPair rewrite, through xDSL's PatternRewriter)."""
        n1, n2 = ordered_pair(n1, n2)
        rewrite = FuseAscBackendPair(self, n1)
        rewrite.match_and_rewrite(n2, PatternRewriter(n2))
        assert rewrite.fused is not None
        return rewrite.fused

    def _attrs(self, n1: Operation, n2: Operation, fused: bool) -> dict[str, Attribute]:
        """FuseNode's attributes: name, primary type of n1, OR-ed masks, origin nodes."""
        types = fuse_node_types(n1, n2)
        name = f"autofuse_{'fused_' if fused else ''}{self.counter}_{types}"[:MAX_OP_NAME_LEN]
        self.counter += 1
        origin = []
        for n in (n1, n2):
            o = n.attributes.get("origin_nodes")
            origin += list(o.data) if isinstance(o, ArrayAttr) else [StringAttr(node_name(n))]
        attrs: dict[str, Attribute] = {
            A.NODE_NAME: StringAttr(name),
            FUSE_TYPE_ATTR: StringAttr(U.primary_fuse_type(n1)),
            FUSE_TYPE_MASK_ATTR: shared_int(U.all_fuse_types(n1) | U.all_fuse_types(n2)),
            "origin_nodes": ArrayAttr(origin),
        }
        absorbed = U.int_attr(n1, U.REDUCE_FUSED_ELEMENTWISE_ATTR, 0)
        if U.has_fuse_type(n1, "reduce") and U.is_only_pointwise(n2):
            absorbed += U.compute_node_num(n2)  # FuseNode: reduce_fused_elementwise_node_num
        if absorbed:
            attrs[U.REDUCE_FUSED_ELEMENTWISE_ATTR] = shared_int(absorbed)
        if U.VECTOR_CORE_NUM_ATTR in n1.attributes:
            attrs[U.VECTOR_CORE_NUM_ATTR] = n1.attributes[U.VECTOR_CORE_NUM_ATTR]
        attrs[U.CANFUSE_NODES_SIZE_ATTR] = shared_int(self.fusion_nodes_size(n1) + self.fusion_nodes_size(n2))
        return attrs

    # -- MergeGraphToFusedAscBackendNode ---------------------------------------------------

    def _merge_to_fused(self, info: NodeFuseInfo, u: AxisUnification) -> ge.FusedAscBackend:
        """Both nodes inlined into a ge.FusedAscBackend's body (an AscBackend cloned with
        its axes renumbered, a FusedAscBackend's body inlined), and the pairs its inner
        round may loop-merge recorded."""
        n1, n2 = info.n1, info.n2
        block = Block()
        datas: list[SSAValue] = []
        for i, v in enumerate(info.fused_inputs):
            d = ge.Data.create(result_types=[v.type], attributes={"index": A.make_int(i)})
            d.results[0].name_hint = f"data{i}"
            block.add_op(d)
            datas.append(d.results[0])
        # side 1: operands -> the fused Data nodes of the same position
        outs1, inner1, clones1 = _inline_side(block, n1, [datas[i] for i in range(len(n1.operands))], u.map1)
        args2: list[SSAValue] = []
        for j in range(len(n2.operands)):
            k = next((k for k, jj in info.links if jj == j), None)
            args2.append(outs1[k] if k is not None else datas[info.node2_input_pos[j]])
        outs2, inner2, clones2 = _inline_side(block, n2, args2, u.map2)
        pairs = self._recorded_pairs(((n1, clones1), (n2, clones2)))
        pairs += _inner_pairs(info, inner1, inner2, outs1)
        block.add_op(ge.NetOutput.create(operands=[outs1[k] for k in info.node1_outputs] + outs2))
        new = ge.FusedAscBackend.create(
            operands=list(info.fused_inputs),
            result_types=fused_result_types(info),
            attributes=self._attrs(n1, n2, fused=True),
            regions=[Region(block)],
        )
        new.location = n2.location
        name_fused_results(new, info)
        if uniq := list({(id(a), id(c)): (a, c) for a, c in pairs}.values()):
            self._pairs[id(new)] = uniq
        return new

    def _recorded_pairs(
        self, sides: tuple[tuple[Operation, dict[Operation, Operation]], ...]
    ) -> list[tuple[Operation, Operation]]:
        """The pairs a side (a FusedAscBackend) still held, as clones in the new body."""
        pairs = []
        for side, clones in sides:
            for a, c in self._pairs.pop(id(side), []):
                if a in clones and c in clones:
                    pairs.append((clones[a], clones[c]))
        return pairs


def _inner_pairs(
    info: NodeFuseInfo, inner1: dict[int, list[Operation]], inner2: dict[int, list[Operation]], outs1: list[SSAValue]
) -> list[tuple[Operation, Operation]]:
    """MergeGraphToFusedAscBackendNode's candidate pairs: the consumers of each shared
    input, and each link's producer with node2's consumers of it."""
    pairs: list[tuple[Operation, Operation]] = []
    for i1, i2 in info.same_input_map:
        for a in inner1.get(i1, []):
            for c in inner2.get(i2, []):
                if a is not c:
                    pairs.append((a, c))
    for k, j in info.links:
        prod = outs1[k].owner
        for c in inner2.get(j, []):
            if isinstance(prod, ge.AscBackend) and prod is not c:
                pairs.append((prod, c))
    return pairs


@dataclass
class FuseAscBackendPair(RewritePattern):
    """Fuse of a pair CanFuse accepted, as a rewrite of node2: node1 and node2 replaced by
    the merged node (an AscBackend from MergeAscGraphByLoop, loop_merge.py, or a
    FusedAscBackend from MergeGraphToFusedAscBackendNode), inserted in node2's place.

    # asc_backend_fusion_decider.cpp: AscBackendFusionDecider::Fuse (then FuseNode)
    The solver decides the pairs (solver.py: FusionStrategySolver::FuseGraph) and calls
    the decider's `fuse`, which applies this pattern to node2 once; the insertion, the
    uses of both nodes' outputs moving to the merged node's, and the two erasures go
    through the PatternRewriter, so a listener sees them. `fused` is the merged node.
    """

    decider: AscBackendFusionDecider
    node1: Operation
    fused: Operation | None = None

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        built = self.decider.build_fused(self.node1, op, take=True)  # both are erased below
        assert not isinstance(built, Reason), built
        new, olds, n1, n2 = built
        rewriter.insert(new, InsertPoint.before(n2))
        for old, r in zip(olds, new.results):
            rewriter.replace_all_uses_with(old, r)
        # node2 first: the outputs of node1 only node2 read have no use left after it.
        # PatternRewriter.erase without its per-result ErasedSSAValue (Operation.erase makes
        # one for every result, used or not; a fused node has an output per member): the
        # listener hears of the removal as erase reports it, and no result is used any more
        for n in (n2, n1):
            _detach_origin(n)
            assert all(r.first_use is None for r in n.results), f"'{node_name(n)}' still used"
            rewriter.has_done_action = True
            rewriter.handle_operation_removal(n)
            n.detach()
            n.drop_all_references()
        self.fused = new


def _detach_origin(n: Operation) -> None:
    """Before a fused-away node is erased: its origin region (an AscBackend's, a ge graph
    body lowering built, or split_origin's clone) detached, so the erasure does not walk
    it. The origin is the node's own and nothing is moved out of it, and the node is
    IsolatedFromAbove, so every use in it is of a value in it and dies with it (about 3/4
    of the nested nodes the erase walked). Its AscGraph, out of which the merge moved
    nodes, is still dropped by the erasure."""
    if isinstance(n, ge.AscBackend) and (origin := n.origin) is not None:
        n.detach_region(origin)


def _inline_side(
    block: Block, side: Operation, args: list[SSAValue], axis_map: dict[int, int]
) -> tuple[list[SSAValue], dict[int, list[Operation]], dict[Operation, Operation]]:
    """Put one side into the FusedAscBackend body: an AscBackend is cloned with its AscGraph
    renumbered (FlushSubGraphAxisInfo); a FusedAscBackend's body is inlined. Returns the
    values of the side's outputs, the inner consumers of each side input, and old->new."""
    consumers: dict[int, list[Operation]] = {}
    clones: dict[Operation, Operation] = {}
    if isinstance(side, ge.AscBackend):
        new = renumbered_backend(side, args, axis_map)
        block.add_op(new)
        clones[side] = new
        for i in range(len(args)):
            consumers.setdefault(i, []).append(new)
        return list(new.results), consumers, clones
    assert isinstance(side, ge.FusedAscBackend)
    vmap: dict[SSAValue, SSAValue] = {}
    for op in side.body.block.ops:
        if isinstance(op, ge.Data):
            idx = op.int_attr("index") or 0
            vmap[op.results[0]] = args[idx]
            consumers[idx] = [u.operation for u in op.results[0].uses if isinstance(u.operation, ge.AscBackend)]
        elif isinstance(op, ge.AscBackend):
            new = renumbered_backend(op, [vmap[v] for v in op.operands], axis_map)
            block.add_op(new)
            clones[op] = new
            for r, nr in zip(op.results, new.results):
                vmap[r] = nr
    consumers = {i: [clones[c] for c in cs if c in clones] for i, cs in consumers.items()}
    net = side.body.block.last_op
    assert net is not None
    return [vmap[v] for v in net.operands], consumers, clones


@dataclass
class AscBackendSubGraphFusionDecider(AscBackendFusionDecider):
    """asc_backend_subgraph_fusion_decider.cpp: the decider of a FusedAscBackend's inner
    round: only AscBackend + AscBackend pairs whose loops can merge; Fuse always produces
    an AscBackend; every pair has priority HIGH."""

    def get_fusion_pair_priority(self, n1: Operation, n2: Operation) -> FusionPriority:
        return FusionPriority.HIGH

    def _can_fuse(self, n1: Operation, n2: Operation) -> Reason | None:
        for n in (n1, n2):
            if not isinstance(n, ge.AscBackend):
                return not_fuse("CanNotMergeAscGraph", f"'{node_name(n)}' is not an AscBackend")
        if (r := super()._can_fuse(n1, n2)) is not None:
            return r
        p = self._pair(*ordered_pair(n1, n2))
        assert not isinstance(p, Reason)
        if not self._merges_loops(p):
            return not_fuse("CanNotMergeAscGraph", "the two AscGraphs' loops cannot merge (a concat is involved)")
        return None
