"""GE's AscBackend fusion decider: CanFuse and Fuse of two autofuse nodes (ge_fusion.md §5, §8).

GE source: `can_fuse/backend/asc_backend_fusion_decider.{h,cpp}`
(AscBackendFusionDecider::CanFuse, GetFusionPairPriority, Fuse, MergeAscGraphByLoop,
LinkAscSubGraphNode, DeleteInvalidLoad, MergeGraphToFusedAscBackendNode, FuseNode) and
`asc_backend_subgraph_fusion_decider` (the inner round of a FusedAscBackend, §4.7).

CanFuse runs GE's checks in order and returns the first failure as a Reason (GE's
reason name and NFxxxx code, and a message for remarks). Fuse either loop-merges two
AscBackends into one AscBackend (shared Data nodes deduplicated, Store -> Data -> Load
removed, outputs only the partner read dropped), or, when a concat is involved or a side
is already a FusedAscBackend, wraps them in a ge.FusedAscBackend and records the pairs
its inner round may still loop-merge.

Fuse erases both nodes right after building the fused one, so a loop merge moves their
AscIR nodes into the new AscGraph instead of cloning them (`build_fused(take=True)`): a
node is cloned only where the axis conversion changes its type, and of two graphs this
decider built over the same loop the larger is kept whole (its block becomes the fused
graph's), so a group growing node by node is not copied at every step; the printed result
is the cloning path's (tests/passes/autofuse/test_fuse_in_place.py). The global solver's
`build_fused(keep_groups=True)`, whose candidates it may undo, clones.

A slice view on a link is back-stepped as GE's DeleteInvalidLoad -> ProcessViewOps does:
when node2's Data reads a sub-box of node1's stored output (axis_mapping.slice_box: same
rank and axis order, unit element step, an offset that splits per axis by node1's output
strides), node1's output has that one reader, and node1 is neither cube nor a reduction
nor splits a Load (IsLoadConnectedToSplit), the merged loop runs on the slice's extents:
each of node1's Data views takes the box and its Loads the box's start times their
strides as extra offset (ApplyViewOpFinalInfoSlice), node1's Store/Output and node2's
Data/Load go, and node2 reads node1's value directly.

Deviations, each kept numerically exact:
* A view through which the consumer read the producer's value (broadcast, or a transposed
  axis order) becomes an explicit AscIR Broadcast/Transpose on the producer's on-chip
  value (GE's HintGraph form after FallbackPro), instead of GE's ProcessViewOps pushing
  the view up to the producer's own Loads. CanFuse therefore loop-merges a link only
  when the consumer's Data view is the producer's Store view on every merged axis, or
  is a slice as above (axis_mapping.link_views_disagree): a reshape that regroups axes
  is refused up front (CanNotMergeAscGraph), so Fuse never meets a view it cannot build.
* A slice is back-stepped only when node1 has no other output or link and holds no
  Concat, Gather or Workspace (the whole of node1 runs on the slice; GE leaves such
  nodes' views as they are); otherwise CanNotMergeAscGraph names the reason.
* The side with fewer loop axes keeps repeat 1 on the axes it lacks (it is constant
  along them) after a loop merge; GE's ProcessAscgraphAfterMerge/FallbackPro instead
  gives each of that side's Loads a Broadcast to the merged loop, so GE's AscGraph node
  counts can exceed ours (FuseLoopMerge1: GE 15, ours 13, see tests/passes/autofuse/test_decider.py).
* For a loop merge, CanAxisMap's pairings are kept only when paired loop axes have one
  size, or one side is 1 or a concat/split axis (axis_mapping.sizes_agree): repeat-1
  tensor axes otherwise pair loops of any extent (a reduce-all Store [1] with a
  broadcast's Data [1, 1, 1]).
* `fusion_nodes_size` stays the real AscGraph node count (the ge.AscBackend verifier
  checks it); GE's summed, never-recounted figure the size cap reads is carried in
  `canfuse_nodes_size` (ascgraph_queries.CANFUSE_NODES_SIZE_ATTR).
* The per-slot "single reference" of GE (one peer) is widened to "every peer in node2",
  so the Store is removed exactly when the output leaves the fused node's output list.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.asc_backend import FUSE_TYPE_ATTR, FUSE_TYPE_MASK_ATTR
from ge_dialect.ge import ge_type, node_name
from ge_dialect.node_types import SPLIT_TYPES
from ge_dialect.reason import Reason, not_fuse
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import strategies as S
from passes.autofuse.axis_group import AxisGroup, can_merge_axis_group, graph_axis_group
from passes.autofuse.axis_mapping import (
    AxisUnification,
    NodeFuseInfo,
    NodeLinks,
    NodeQueries,
    create_axis_map,
    link_views_disagree,
    node_fuse_info,
    sliced_view,
    update_input_maps,
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
class _NodeFacts:
    """CanFuse's per-node answers (AscBackendFusionDecider._node_checks)."""

    black: Reason | None  # step 1, IsCanFuseBlackList
    no_graph: Reason | None  # step 2, GetSubgraphFailed
    core_num: int  # AutoFuseAttrs::vector_core_num (0 when unset)
    split: bool  # the primary fuse type is split


class _Made:
    """What a loop merge with `take` records of the AscGraph it built (_normal): the loop
    it was built over, its node count and its Data and Output nodes in block order, so
    that the merge keeping the graph whole reads these instead of walking every node. A
    graph is recorded only when it has no Store without a reader (the one node besides
    them that merge would drop)."""

    __slots__ = ("loop", "count", "datas", "outputs")

    def __init__(self, loop: tuple[int, ...], count: int, datas: list[ag.Data], outputs: list[ag.Output]):
        self.loop = loop
        self.count = count
        self.datas = datas
        self.outputs = outputs


@dataclass
class AscBackendFusionDecider:
    """asc_backend_fusion_decider.cpp: AscBackendFusionDecider (a FusionDecider)."""

    max_fusion_size: int = 64
    max_input_nums_after_fuse: int = 8
    max_reduce_fused_elementwise: int = S.MAX_REDUCE_FUSED_ELEMENTWISE
    counter: int = 0
    _pairs: dict[int, list[tuple[Operation, Operation]]] = field(default_factory=dict)
    # axis_group_of per node: a node's AscGraphs never change once built (Fuse makes new
    # nodes), and CanFuse asks for the same node's group once per candidate pair
    _groups: dict[Operation, AxisGroup | None] = field(default_factory=dict)
    # autofuse_attrs.h: SplitFusionRatioRequirementState per node (True = NOT_SATISFIED,
    # False = SATISFIED, absent = NOT_DETERMINED); GE caches it on the node's attributes
    _split_ratio: dict[Operation, bool] = field(default_factory=dict)
    # create_axis_map's per-node answers (axis_mapping.NodeQueries), on the same premise
    _queries: NodeQueries = field(default_factory=NodeQueries)
    # _pair's answers while pair_cache is open (the solver's GetPossibleFusions: no node
    # changes there, and CanFuse, its split-ratio peers and the priority ask for one pair)
    _pair_memo: dict[tuple[Operation, Operation, bool], S.FusePair | Reason] | None = None
    # the FusePair of the last CanFuse outside pair_cache that accepted its pair, handed to
    # the Fuse of that pair when nothing ran between them but the solver's cycle check (the
    # solver's FuseNodesOnce asks CanFuse of the current nodes right before Fuse); any
    # other call of can_fuse, build_fused or fuse drops it. Fuse then reads the same
    # NodeFuseInfo, and its axis map the check's (create_axis_map's `checked`).
    _handoff: tuple[Operation, Operation, bool, S.FusePair] | None = None
    # canfuse_nodes_size per node, on _groups' premise: a lowered node carries no count
    # attribute and CanFuse's size cap would walk both AscGraphs for every candidate pair
    _sizes: dict[Operation, int] = field(default_factory=dict)
    # _group_key per node (on _groups' premise) and _merge_axis_groups' answers by content
    _group_keys: dict[Operation, int | None] = field(default_factory=dict)
    _merge_memo: dict[tuple, Reason | None] = field(default_factory=dict)
    _checks: dict[Operation, _NodeFacts] = field(default_factory=dict)
    # each node's NodeLinks while pair_cache is open (node_fuse_info reads them there)
    _links: dict[Operation, NodeLinks] | None = None
    # CanFuse's verdicts of the unlinked pairs of plain nodes, by content (_alike_key), and
    # each node's content number for it (None: not such a node), on _groups' premise
    _alike: dict[tuple, Reason | None] = field(default_factory=dict)
    _alike_class: dict[Operation, int | None] = field(default_factory=dict)
    # the AscGraphs a loop merge with `take` built, each with the loop it was built over
    # and its node count, Data and Output nodes (_Made): every node's types and sched.axis
    # come out unchanged when converted again to that loop with no renumbering
    # (complete_tensor is idempotent there), and each value's uses are in block order
    # (_Builder). Such a graph is part of a live node of the solve; the merge that takes
    # the node (the only change of its graph while the decider lives, the premise of
    # _groups) removes the entry.
    _normal: dict[ag.AscGraphOp, _Made] = field(default_factory=dict)
    # _Builder.tensor's conversions, kept across the merges of the decider (_Builder)
    _tensor_memo: dict[tuple, tuple[ag.AscTensorType, ag.AscTensorType | None]] = field(default_factory=dict)

    @contextlib.contextmanager
    def pair_cache(self) -> Iterator[None]:
        """Each pair's FusePair (NodeFuseInfo, strategies) built once inside the block; the
        caller changes no node inside it (Fuse and build_fused run outside)."""
        self._pair_memo = {}
        self._links = {}
        try:
            yield
        finally:
            self._pair_memo = None
            self._links = None

    def _axis_group(self, op: Operation) -> AxisGroup | None:
        if op not in self._groups:
            self._groups[op] = axis_group_of(op)
        return self._groups[op]

    # -- FusionDecider ---------------------------------------------------------------------

    def is_fusable_node(self, op: Operation) -> bool:
        return bool(U.inner_backends(op)) and ge_type(op) not in BLACKLIST

    def fusion_nodes_size(self, op: Operation) -> int:
        if (n := self._sizes.get(op)) is None:
            n = self._sizes[op] = U.canfuse_nodes_size(op)
        return n

    def possible_fusion_pairs(self, op: Operation) -> list[tuple[Operation, Operation]]:
        """The pairs recorded by MergeGraphToFusedAscBackendNode; cleared after use."""
        return self._pairs.pop(id(op), [])

    def _pair(self, n1: Operation, n2: Operation) -> S.FusePair | Reason:
        split = self._split_ratio.get(n1) is True
        memo = self._pair_memo
        if memo is not None and (hit := memo.get((n1, n2, split))) is not None:
            return hit
        made = self._make_pair(n1, n2, split)
        if memo is not None:
            memo[(n1, n2, split)] = made
        return made

    def _node_links(self, op: Operation) -> NodeLinks:
        assert self._links is not None
        if (t := self._links.get(op)) is None:
            t = self._links[op] = NodeLinks(op)
        return t

    def _make_pair(self, n1: Operation, n2: Operation, split: bool) -> S.FusePair | Reason:
        if self._links is not None:
            info = node_fuse_info(self._node_links(n1), self._node_links(n2))
        else:
            info = node_fuse_info(n1, n2)
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
        if not ((U.all_fuse_types(n1) | U.all_fuse_types(n2)) & S.STRATEGY_MASK):
            # only the default strategy matches (strategies_for): its priority is DEFAULT
            return FusionPriority.DEFAULT
        n1, n2 = ordered_pair(n1, n2)
        p = self._pair(n1, n2)
        return FusionPriority.DEFAULT if isinstance(p, Reason) else S.fusion_pair_priority(p)

    def can_fuse(self, n1: Operation, n2: Operation) -> Reason | None:
        """AscBackendFusionDecider::CanFuse, in GE's order (ge_fusion.md §5)."""
        self._handoff = None
        # 1. asc_backend_fusion_decider.cpp: blacklisted types never fuse
        k1, k2 = self._node_checks(n1), self._node_checks(n2)
        for k in (k1, k2):
            if k.black is not None:
                return k.black
        # 2. both must hold an AscGraph or a fuse compute graph
        for k in (k1, k2):
            if k.no_graph is not None:
                return k.no_graph
        if self._links is not None and (key := self._alike_key(n1, n2)) is not None:
            # an unlinked pair of plain nodes: the verdict of an earlier pair of equal content
            memo = self._alike
            if key in memo:
                return memo[key]
            p = self._pair(n1, n2)
            r = memo[key] = p if isinstance(p, Reason) else self._can_fuse_pair(p)
            return r
        p = self._pair(n1, n2)
        if isinstance(p, Reason):
            return p
        r = self._can_fuse_pair(p)
        if r is None and self._links is None:
            self._handoff = (n1, n2, p.split_ratio_unsatisfied, p)
        return r

    def _alike_key(self, n1: Operation, n2: Operation) -> tuple | None:
        """The content CanFuse reads of an unlinked pair of plain AscBackends (neither
        reads the other; only the default strategy matches, `_alike_class`), as numbers:
        both nodes' classes and, per shared input (same_input_map), its position on
        each side and both sides' input tables and Data views (NodeQueries). Without a
        link, node_fuse_info's maps are functions of the shared positions and the operand
        counts; the axis mapping reads the loop tables and the shared inputs' tables
        (NodeQueries.axis_map_key); the input plan the unification and the shared Data
        views; the caps the sizes; the axis-group merge the groups; the default strategy
        nothing of a node. So pairs with equal keys (the alike readers of one tensor) get
        one verdict, its Reason included. None: not such a pair."""
        l1, l2 = self._node_links(n1), self._node_links(n2)
        if id(n2) in l1.readers or id(n1) in l2.readers:
            return None
        c1, c2 = self._alike_of(n1), self._alike_of(n2)
        if c1 is None or c2 is None:
            return None
        same = l1.shared_inputs(l2)
        if not same:
            return None
        q = self._queries
        t1, t2 = q.tables(n1), q.tables(n2)
        g1, g2 = t1.graph, t2.graph
        assert g1 is not None and g2 is not None
        it, dv = q.input_table, q.data_view
        return (c1, c2, *((i, j, it(t1, i), it(t2, j), dv(t1, g1, i), dv(t2, g2, j)) for i, j in same))

    def _alike_of(self, op: Operation) -> int | None:
        """The number naming what CanFuse reads of a plain node alone (its loop tables, size,
        vector core number, axis group, operand count and fuse types), or None when the
        node is not plain: not an AscBackend, or a fuse type with a strategy of its own."""
        if (c := self._alike_class.get(op, -1)) != -1:
            return c
        c = None
        mask = U.all_fuse_types(op)
        if self._queries.keep and isinstance(op, ge.AscBackend) and not mask & S.STRATEGY_MASK:
            t = self._queries.tables(op)
            if t.graph is not None:
                facts = (t.axes, self.fusion_nodes_size(op), self._node_checks(op).core_num, self._group_key(op))
                c = self._queries.intern(("alike", *facts, len(op.operands), mask))
        self._alike_class[op] = c
        return c

    def _node_checks(self, op: Operation) -> _NodeFacts:
        """What CanFuse reads of one node alone, kept per node: a node's type, body and
        attributes do not change while it lives (on _groups' premise)."""
        if (k := self._checks.get(op)) is None:
            fusable = None
            if not self.is_fusable_node(op):
                fusable = not_fuse("GetSubgraphFailed", f"'{node_name(op)}' ({ge_type(op)}) holds no AscGraph")
            k = self._checks[op] = _NodeFacts(
                is_can_fuse_black_list(op),
                fusable,
                U.int_attr(op, U.VECTOR_CORE_NUM_ATTR, 0),
                U.primary_fuse_type(op) == "split",
            )
        return k

    def _can_fuse_by_strategy_pro(self, p: S.FusePair) -> Reason | None:
        """backend_utils.cpp CanFuseByStrategyPro: the strategies, the vector core number
        and the node cap."""
        # every matching strategy and the default must agree
        if (r := S.can_fuse_by_strategy(p)) is not None:
            return r
        c1, c2 = self._node_checks(p.n1).core_num, self._node_checks(p.n2).core_num
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

    def _can_fuse_pair(self, p: S.FusePair) -> Reason | None:
        n1, n2, info = p.n1, p.n2, p.info
        # 3. CanFuseByStrategy (backend_utils.cpp): CanFuseByStrategyPro, then a complete
        # split with a low fusion ratio is refused
        if (r := self._can_fuse_by_strategy_pro(p)) is not None:
            return r
        if self._node_checks(n1).split and split_complete(n1):
            if (why := self._split_low_fusion_ratio(n1)) is not None:
                return why
        # 5-6. axis unification in check mode (need_flash = false)
        merge = self._merges_loops(p)
        u = create_axis_map(info, need_flash=False, loop_merge=merge, memo=self._queries)
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
        if merge and (why := link_views_disagree(info, u, self._queries)) is not None:
            return why
        return None

    def _merge_axis_groups(self, n1: Operation, n2: Operation, u: AxisUnification) -> Reason | None:
        """CanFuse's step 9 (BackendUtils::IsCanMergeAxisGroup on both groups converted by
        the axis map). The answer depends on the two groups' contents and the maps only:
        kept by those (NodeQueries.intern numbers), so pairs of equal nodes ask it once."""
        k1, k2 = self._group_key(n1), self._group_key(n2)
        key = ("axis_groups", k1, k2, tuple(u.map1.items()), tuple(u.map2.items()))
        memo = self._merge_memo
        if key in memo:
            return memo[key]
        why = None
        g1, g2 = self._axis_group(n1), self._axis_group(n2)
        if g1 is None or g2 is None:
            why = not_fuse("GetAscgraphAxisGroupFailed", "an AscGraph's axis group cannot be generated")
        elif (r1 := g1.remapped(u.map1)) is None or (r2 := g2.remapped(u.map2)) is None:
            why = not_fuse("GetAscgraphAxisGroupFailed", "an axis group has an axis the axis map does not convert")
        elif can_merge_axis_group(r1, r2, is_ge_call=True) is None:
            why = not_fuse("MergeAxisGroupFailed", f"axis groups {r1.label()} and {r2.label()} cannot merge")
        if self._queries.keep:
            memo[key] = why
        return why

    def _group_key(self, op: Operation) -> int | None:
        """The number naming the node's axis group's contents (None: no group)."""
        if (k := self._group_keys.get(op, -1)) == -1:
            g = self._axis_group(op)
            k = (
                None
                if g is None
                else self._queries.intern((tuple(g.x), tuple(g.y), tuple(g.r), tuple(g.n), tuple(g.axes_order)))
            )
            self._group_keys[op] = k
        return k

    def _plan_fused_inputs(self, info: NodeFuseInfo, merge: bool) -> Reason | None:
        """node2_input_map exactly as Fuse builds it, for CanFuse's input cap and for Fuse
        itself: a loop merge unifies the axes with need_flash (Fuse's map) and rolls back
        the shared inputs whose Data nodes cannot merge (plan_fused_inputs)."""
        if not (merge and info.can_do_horizontal_mapping() and info.same_input_map):
            if info.applied_rollback != frozenset():  # (node_fuse_info applied none)
                update_input_maps(info)
            return None
        u = create_axis_map(info, need_flash=True, loop_merge=True, memo=self._queries)
        if isinstance(u, Reason):
            return u.prefixed("loop axes cannot be unified: ")
        plan_fused_inputs(info, u, self._queries)
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
        u = create_axis_map(p.info, need_flash=True, loop_merge=self._merges_loops(p), memo=self._queries)
        return u if isinstance(u, Reason) else None

    def build_fused(
        self, n1: Operation, n2: Operation, keep_groups: bool = False, take: bool = False
    ) -> tuple[Operation, list[SSAValue], Operation, Operation] | Reason:
        """The fused node of `fuse`, not inserted: (new, the old value each of its results
        replaces, node1, node2 as ordered), or the Reason Fuse's axis map (need_flash)
        refuses the pair. `keep_groups` keeps both axis groups cached (the global solver
        builds candidates it may undo; passes/autofuse/global_solver.py). `take`: the
        caller erases both nodes right after (fuse does), so a loop merge moves their AscIR
        nodes into the new AscGraph instead of cloning them (_Builder); n1 and n2 are then
        left with only the nodes the merge drops. Without it both stay as they were."""
        n1, n2 = ordered_pair(n1, n2)
        hand, self._handoff = self._handoff, None
        if hand is not None and take and hand[:3] == (n1, n2, self._split_ratio.get(n1) is True):
            p: S.FusePair | Reason = hand[3]  # (fuse: CanFuse's pair, right before)
        else:
            p = self._pair(n1, n2)
        if isinstance(p, Reason):
            return p
        merge = self._merges_loops(p)
        u = create_axis_map(p.info, need_flash=True, loop_merge=merge, memo=self._queries)
        if isinstance(u, Reason):
            return u
        if keep_groups:
            g1, g2 = self._axis_group(n1), self._axis_group(n2)
        else:
            g1, g2 = self._groups.pop(n1, None) or axis_group_of(n1), self._groups.pop(n2, None) or axis_group_of(n2)
        r1, r2 = (g1.remapped(u.map1), g2.remapped(u.map2)) if g1 and g2 else (None, None)
        merged = can_merge_axis_group(r1, r2) if r1 and r2 else None
        if merge:
            new = self._merge_by_loop(p.info, u, take)
        else:
            new = self._merge_to_fused(p.info, u)
        if merged is not None:
            new.attributes[AXIS_GROUP_ATTR] = StringAttr(merged.to_text())
        olds: list[SSAValue] = [n1.results[i] for i in p.info.node1_outputs]
        olds += n2.results
        return new, olds, n1, n2

    def fuse(self, n1: Operation, n2: Operation) -> Operation:
        """AscBackendFusionDecider::Fuse (ge_fusion.md §8.1)."""
        built = self.build_fused(n1, n2, take=True)  # both are erased below
        assert not isinstance(built, Reason), built
        new, olds, n1, n2 = built
        block = n2.parent_block()
        assert block is not None
        block.insert_op_before(new, n2)
        for old, r in zip(olds, new.results):
            old.replace_all_uses_with(r)
        # Operation.erase but for its last step, which replaces each result, used by nothing
        # now, by an ErasedSSAValue (a fused node has an output per member: 8 per fusion)
        n2.detach()
        _drop_fused_away(n2)
        for n in (n2, n1):  # outputs read only by n2 (now erased) have no uses left
            for r in n.results:
                assert r.first_use is None, f"output {r.index} of '{node_name(n)}' still used"
        n1.detach()
        _drop_fused_away(n1)
        return new

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
            FUSE_TYPE_MASK_ATTR: _int(U.all_fuse_types(n1) | U.all_fuse_types(n2)),
            "origin_nodes": ArrayAttr(origin),
        }
        absorbed = U.int_attr(n1, U.REDUCE_FUSED_ELEMENTWISE_ATTR, 0)
        if U.has_fuse_type(n1, "reduce") and U.is_only_pointwise(n2):
            absorbed += U.compute_node_num(n2)  # FuseNode: reduce_fused_elementwise_node_num
        if absorbed:
            attrs[U.REDUCE_FUSED_ELEMENTWISE_ATTR] = _int(absorbed)
        if U.VECTOR_CORE_NUM_ATTR in n1.attributes:
            attrs[U.VECTOR_CORE_NUM_ATTR] = n1.attributes[U.VECTOR_CORE_NUM_ATTR]
        attrs[U.CANFUSE_NODES_SIZE_ATTR] = _int(self.fusion_nodes_size(n1) + self.fusion_nodes_size(n2))
        return attrs

    def _result_types(self, info: NodeFuseInfo) -> list[Attribute]:
        return [info.n1.results[k].type for k in info.node1_outputs] + [r.type for r in info.n2.results]

    def _result_names(self, new: Operation, info: NodeFuseInfo) -> None:
        olds = [info.n1.results[k] for k in info.node1_outputs] + list(info.n2.results)
        for r, o in zip(new.results, olds):
            r.name_hint = o.name_hint

    # -- MergeAscGraphByLoop (§8.2) ---------------------------------------------------------

    def _merge_by_loop(self, info: NodeFuseInfo, u: AxisUnification, take: bool = False) -> ge.AscBackend:
        n1, n2 = info.n1, info.n2
        gr1, gr2 = U.asc_graph(n1), U.asc_graph(n2)
        assert gr1 is not None and gr2 is not None
        # both nodes as they are, before `take` moves their AscIR nodes out
        attrs = self._attrs(n1, n2, fused=False)
        full = sorted(u.sizes)
        # a slice link (DeleteInvalidLoad -> ProcessViewOps): node1 runs on the slice's box
        box = next(iter(u.slices.values()), None)
        rollback = plan_fused_inputs(info, u, self._queries)  # reads both graphs as they are
        # as_is1/2: the side's graph was built by a merge of this decider over this very
        # loop and its map renumbers nothing, so converting its nodes again would give each
        # the type and sched.axis it has (see _normal): its nodes move as they are. The
        # larger such graph is kept (`keep`: its block becomes the fused graph's, the other
        # side's nodes go in around them), so a growing group is not moved at every step.
        made1 = self._normal.pop(gr1, None) if take else None
        made2 = self._normal.pop(gr2, None) if take else None
        loop = tuple(full)
        as_is1 = made1 is not None and made1.loop == loop and box is None and all(k == v for k, v in u.map1.items())
        as_is2 = made2 is not None and made2.loop == loop and box is None and all(k == v for k, v in u.map2.items())
        keep = 0
        if as_is1 and (not as_is2 or made1.count >= made2.count):  # type: ignore[union-attr]
            keep = 1
        elif as_is2:
            keep = 2
        # graph1 kept: its Data and Output nodes come from its record (_Made), the block
        # is not walked (its other nodes stay as they are)
        ops1 = [] if keep == 1 else list(gr1.body.block.ops)
        ops2 = list(gr2.body.block.ops)
        # the Data/Output indices and node1's stored values as they were (a moved node's
        # index and operands are rewritten while the later nodes still ask for them)
        index: dict[Operation, int] = {}
        datas1: dict[int, ag.Data] = {}
        stored: dict[int, SSAValue] = {}
        kinds1, kinds2 = [_kind(type(op)) for op in ops1], [_kind(type(op)) for op in ops2]
        if keep == 1:
            assert made1 is not None
            for op in made1.datas:
                datas1[op.index] = op
            for op in made1.outputs:
                index[op] = k = op.index
                stored[k] = op.operands[0].owner.operands[0]  # type: ignore[union-attr]
        for op, kind in zip(ops1, kinds1):
            if kind is _DATA:
                index[op] = k = op.index  # type: ignore[attr-defined]
                datas1[k] = op  # type: ignore[assignment]
            elif kind is _OUTPUT:
                index[op] = k = op.index  # type: ignore[attr-defined]
                stored[k] = op.operands[0].owner.operands[0]  # type: ignore[union-attr]
        for op, kind in zip(ops2, kinds2):
            if kind is _DATA or kind is _OUTPUT:
                index[op] = op.index  # type: ignore[attr-defined]
        if keep:
            kept = gr1 if keep == 1 else gr2
            block = kept.body.block
            kept.body.detach_block(block)
            count = (made1 if keep == 1 else made2).count  # type: ignore[union-attr]
            b = _Builder(full, None, take, block, count, self._tensor_memo)
            if keep == 2:
                b.anchor = block.first_op  # graph1's nodes go before graph2's
        else:
            b = _Builder(full, u.sizes if box else None, take, memo=self._tensor_memo)
        # the new graph's Data and Output nodes in block order (its _Made record)
        new_datas: list[ag.Data] = []
        new_outputs: list[ag.Output] = []
        recordable = True  # no Store without a reader (what the record leaves unwalked)
        # backend_utils.cpp FusedApplyViewOpSlice / ApplyViewOpSliceLoad: each of node1's
        # Data views takes the box, its Loads the box's start as extra offset
        load_shift: dict[SSAValue, int] = {}
        kept1 = set(info.node1_outputs)
        out_index: dict[tuple[int, int], int] = {}
        for pos, k in enumerate(info.node1_outputs):
            out_index[(1, k)] = pos
        for k in range(len(n2.results)):
            out_index[(2, k)] = len(info.node1_outputs) + k
        linked = {j: k for k, j in info.links}
        # graph1: every node; Store/Output of outputs only n2 reads are dropped
        dropped: list[Operation] = []
        if keep == 1:
            assert made1 is not None
            # only the Outputs change (renumbered, or dropped with the Stores only they read:
            # a recorded graph has no Store without a reader); Stores go before Outputs in
            # `dropped`, erased in reverse below
            gone: list[Operation] = []
            stores: dict[Operation, None] = {}
            for op in made1.outputs:
                if index[op] not in kept1:
                    gone.append(op)
                    store = op.operands[0].owner
                    if isinstance(store, ag.Store) and all(
                        isinstance(x.operation, ag.Output) and index[x.operation] not in kept1
                        for x in store.results[0].uses
                    ):
                        stores[store] = None
                else:
                    b.stay(op, index=out_index[(1, index[op])])
                    new_outputs.append(op)
            dropped += stores
            dropped += gone
            new_datas += made1.datas
        for op, kind in zip(ops1, kinds1):
            assert isinstance(op, ag.AscNode)
            if kind is _OUTPUT:
                if index[op] not in kept1:
                    dropped.append(op)
                elif as_is1:
                    new_outputs.append(b.move_as_is(op, index=out_index[(1, index[op])]))  # type: ignore[arg-type]
                else:
                    new_outputs.append(b.clone(op, u.map1, index=out_index[(1, index[op])]))  # type: ignore[arg-type]
            elif kind is _STORE and all(
                isinstance(x.operation, ag.Output) and index[x.operation] not in kept1 for x in op.results[0].uses
            ):
                dropped.append(op)
            elif as_is1:
                new = b.move_as_is(op)
                if kind is _DATA:
                    new_datas.append(new)  # type: ignore[arg-type]
            elif box and kind is _DATA:
                view, load_shift[op.results[0]] = sliced_view(op.out_type(), box)
                new_datas.append(b.clone(op, u.map1, view=view))  # type: ignore[arg-type]
            elif box and isinstance(op, ag.Load) and op.operands[0] in load_shift:
                new = b.clone(op, u.map1)
                new.attributes["offset"] = _int(op.offset + load_shift[op.operands[0]])
            else:
                new = b.clone(op, u.map1)
                if kind is _DATA:
                    new_datas.append(new)  # type: ignore[arg-type]
        b.anchor = None
        # the stored value P of each n1 output (LinkAscSubGraphNode)
        produced = {k: b.value(v) for k, v in stored.items()}

        def put2(op: ag.AscNode, index: int | None = None) -> Operation:
            if keep == 2:
                b.stay(op, index)
                return op
            if as_is2:
                return b.move_as_is(op, index)
            return b.clone(op, u.map2, index=index)

        # graph2: linked Data nodes and their Loads are bypassed; merged Datas reused
        for op, kind in zip(ops2, kinds2):
            assert isinstance(op, ag.AscNode)
            if kind is _DATA:
                if index[op] in linked:
                    dropped.append(op)
                    continue
                pos = info.node2_input_pos[index[op]]
                if pos < len(n1.operands) and index[op] not in rollback and pos in datas1:
                    b.vmap[op.results[0]] = b.value(datas1[pos].results[0])
                    dropped.append(op)
                    continue
                new_datas.append(put2(op, pos))  # type: ignore[arg-type]
            elif kind is _LOAD and isinstance(src := op.operands[0].owner, ag.Data) and index[src] in linked:
                # DeleteInvalidLoad: consumers read the producer's value directly
                want = b.tensor(op.out_type(), u.map2, memory=False)
                if keep == 2:
                    b.anchor = op  # in the Load's place
                b.vmap[op.results[0]] = b.adapt(produced[linked[index[src]]], want)
                b.anchor = None
                dropped.append(op)
            elif kind is _OUTPUT:
                new_outputs.append(put2(op, out_index[(2, index[op])]))  # type: ignore[arg-type]
            else:
                if kind is _STORE and op.results[0].first_use is None:
                    recordable = False
                put2(op)
        if keep:  # the nodes the merge drops from the kept block, each reader before its value
            for op in reversed(dropped):
                if op.parent is b.block:
                    b.erase(op)
        name = attrs[A.NODE_NAME].data  # type: ignore[attr-defined]
        # AscGraphOp(...)'s own arguments, given to Operation.create (IRDL's __init__ checks
        # its arguments again: 40 us of each merge)
        graph = ag.AscGraphOp.create(
            properties={
                "sym_name": StringAttr(f"{name}_graph"),
                "axis": ArrayAttr([_axis(a, u.sizes[a]) for a in full]),
            },
            regions=[Region(b.block)],
        )
        attrs["fusion_nodes_size"] = _int(b.count)  # ag.node_count(graph), counted as built
        new = ge.AscBackend.create(
            operands=list(info.fused_inputs),
            result_types=self._result_types(info),
            attributes=attrs,
            regions=[Region(Block([graph]))],
        )
        new.location = n2.location
        self._result_names(new, info)
        if (origin := split_origin(info)) is not None:
            new.add_region(origin)
        if take and recordable:
            self._normal[graph] = _Made(loop, b.count, new_datas, new_outputs)
        return new

    # -- MergeGraphToFusedAscBackendNode (§8.3) ---------------------------------------------

    def _merge_to_fused(self, info: NodeFuseInfo, u: AxisUnification) -> ge.FusedAscBackend:
        n1, n2 = info.n1, info.n2
        block = Block()
        datas: list[SSAValue] = []
        for i, v in enumerate(info.fused_inputs):
            d = ge.Data.create(result_types=[v.type], attributes={"index": A.make_int(i)})
            d.results[0].name_hint = f"data{i}"
            block.add_op(d)
            datas.append(d.results[0])
        pairs: list[tuple[Operation, Operation]] = []
        # side 1: operands -> the fused Data nodes of the same position
        outs1, inner1, clones1 = _inline_side(block, n1, [datas[i] for i in range(len(n1.operands))], u.map1)
        args2: list[SSAValue] = []
        for j in range(len(n2.operands)):
            k = next((k for k, jj in info.links if jj == j), None)
            args2.append(outs1[k] if k is not None else datas[info.node2_input_pos[j]])
        outs2, inner2, clones2 = _inline_side(block, n2, args2, u.map2)
        for side, clones in ((n1, clones1), (n2, clones2)):
            for a, c in self._pairs.pop(id(side), []):
                if a in clones and c in clones:
                    pairs.append((clones[a], clones[c]))
        # candidate pairs: consumers of each shared input, producer -> consumers of each link
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
        results = [outs1[k] for k in info.node1_outputs] + outs2
        net = ge.NetOutput.create(operands=results)
        block.add_op(net)
        attrs = self._attrs(n1, n2, fused=True)
        new = ge.FusedAscBackend.create(
            operands=list(info.fused_inputs),
            result_types=self._result_types(info),
            attributes=attrs,
            regions=[Region(block)],
        )
        new.location = n2.location
        self._result_names(new, info)
        seen: set[tuple[int, int]] = set()
        uniq = []
        for a, c in pairs:
            if (id(a), id(c)) not in seen:
                seen.add((id(a), id(c)))
                uniq.append((a, c))
        if uniq:
            self._pairs[id(new)] = uniq
        return new


_DATA, _OUTPUT, _STORE, _LOAD, _OTHER = "Data", "Output", "Store", "Load", ""
_KINDS: dict[type, str] = {}


def _kind(cls: type) -> str:
    """Which of Data/Output/Store/Load an AscIR node class is (isinstance, asked once per
    class: a loop merge asks it of every node of both graphs, and AscIR classes are ABCs,
    whose isinstance is slow)."""
    if (k := _KINDS.get(cls)) is None:
        k = _KINDS[cls] = next(
            (
                n
                for t, n in ((ag.Data, _DATA), (ag.Output, _OUTPUT), (ag.Store, _STORE), (ag.Load, _LOAD))
                if issubclass(cls, t)
            ),
            _OTHER,
        )
    return k


# Attributes are immutable values, so the loop merges' few distinct integers, sched.axis
# lists and loop axes are each built once and shared (IntegerAttr's constructor checks
# the range: about 17 us of the merge per integer); no entry can become stale.
_INTS: dict[int, IntegerAttr] = {}
_INT_LISTS: dict[tuple[int, ...], ArrayAttr] = {}
_AXES: dict[tuple[int, int], ag.AxisAttr] = {}


def _int(v: int) -> IntegerAttr:
    if (a := _INTS.get(v)) is None:
        a = _INTS[v] = A.make_int(v)
    return a


def _int_list(vs: list[int]) -> ArrayAttr:
    key = tuple(vs)
    if (a := _INT_LISTS.get(key)) is None:
        a = _INT_LISTS[key] = ArrayAttr([_int(v) for v in vs])
    return a


def _axis(a: int, size: int) -> ag.AxisAttr:
    """A merged loop's axis `a`, named z<a> as every merged AscGraph's axes are."""
    if (x := _AXES.get((a, size))) is None:
        x = _AXES[(a, size)] = ag.AxisAttr(a, f"z{a}", size)
    return x


def _lone_split(op: Operation) -> tuple[Operation, ge.NetOutput] | None:
    """The one split-type GE op and the NetOutput of an AscBackend's origin region."""
    if not isinstance(op, ge.AscBackend) or op.origin is None:
        return None
    ops = [o for o in op.origin.block.ops if not isinstance(o, ge.Data | ge.RefData | ge.NetOutput)]
    net = op.origin.block.last_op
    if len(ops) != 1 or ge_type(ops[0]) not in SPLIT_TYPES or not isinstance(net, ge.NetOutput):
        return None
    return ops[0], net


def _drop_fused_away(n: Operation) -> None:
    """Operation.drop_all_references of a node Fuse erased, without walking its origin
    region: an AscBackend's origin (a ge graph body lowering built, or split_origin's
    clone) is its own and nothing is moved out of it, and the node is IsolatedFromAbove, so
    every use in it is of a value in it and dies with it (about 3/4 of the nested nodes
    the erase walked). Its AscGraph, out of which the merge moved nodes, is still dropped."""
    if isinstance(n, ge.AscBackend) and (origin := n.origin) is not None:
        n.detach_region(origin)
    n.drop_all_references()


def split_origin(info: NodeFuseInfo) -> Region | None:
    """The origin of a loop merge of two pieces of one lowered Split (each origin only that
    Split): Data per fused input, the Split once, NetOutput of the fused node's outputs.

    liftings.cpp IsSkipLifting (step 2-3): a node fused by CanFuse is lifted only when it
    carries a split global id, by LowerSplitHelper::NeedLifting; its origin nodes are the
    Split's, kept here so lifting can put the Split back. Not a GE data structure: GE keeps
    origin nodes by pointer on every node; here only lowering's AscBackends carry them.
    """
    if (side1 := _lone_split(info.n1)) is None or (side2 := _lone_split(info.n2)) is None:
        return None  # (node2's origin is not walked when node1 has none)
    (s1, net1), (s2, net2) = side1, side2
    if node_name(s1) != node_name(s2):
        return None
    block = Block()
    datas = []
    for i, v in enumerate(info.fused_inputs):
        d = ge.Data.create(result_types=[v.type], attributes={"index": A.make_int(i)})
        d.results[0].name_hint = v.name_hint
        block.add_op(d)
        datas.append(d.results[0])
    vmap: dict[SSAValue, SSAValue] = {}
    for n, s in ((info.n1, s1), (info.n2, s2)):
        for v in s.operands:
            src = v.owner
            assert isinstance(src, ge.Data)
            outer = n.operands[src.int_attr("index") or 0]
            if outer not in info.fused_inputs:
                return None
            if vmap.setdefault(v, datas[info.fused_inputs.index(outer)]) is not datas[info.fused_inputs.index(outer)]:
                return None
    if [vmap[v] for v in s1.operands] != [vmap[v] for v in s2.operands]:
        return None  # the two pieces do not split the same value
    split = s1.clone(value_mapper=dict(vmap))
    block.add_op(split)
    outs = [split.results[list[SSAValue](s1.results).index(net1.operands[k])] for k in info.node1_outputs]
    outs += [split.results[list[SSAValue](s2.results).index(v)] for v in net2.operands]
    block.add_op(ge.NetOutput.create(operands=outs))
    return Region(block)


def plan_fused_inputs(info: NodeFuseInfo, u: AxisUnification, memo: NodeQueries | None = None) -> set[int]:
    """The fused node's input list of a loop merge (MergeAscGraphByLoop), written into
    `info`: each shared input's two Data nodes merge when their views, completed to the
    merged loop, agree (BackendUtils::TryAscDataNodeMerge); otherwise node2's Data stays
    a separate input (NodeFuseInfo::RollbackNode2InputMap). Returns the rolled-back node2
    inputs. CanFuse's input cap and Fuse both call this, so the cap counts exactly the
    inputs Fuse produces."""
    rollback: set[int] = set()
    if info.can_do_horizontal_mapping() and info.same_input_map:
        q = memo if memo is not None else NodeQueries()  # `memo`: the decider's, kept for a solve
        t1, t2 = q.tables(info.n1), q.tables(info.n2)
        gr1, gr2 = t1.graph, t2.graph
        assert gr1 is not None and gr2 is not None
        key = None
        if u.key is not None:
            # the rollback depends on the unification (named by its key) and the shared
            # inputs' Data views only: pairs with equal keys share it (NodeQueries)
            views = tuple((q.data_view(t1, gr1, i1), q.data_view(t2, gr2, i2)) for i1, i2 in info.same_input_map)
            key = ("plan", u.key, views)
            if (hit := q.kept(key)) is not None:
                if info.applied_rollback != hit:
                    update_input_maps(info, hit)  # type: ignore[arg-type]
                return set(hit)  # type: ignore[arg-type]
        full = sorted(u.sizes)
        datas1, datas2 = q.data_by_index(gr1), q.data_by_index(gr2)
        for i1, i2 in info.same_input_map:
            d1, d2 = datas1.get(i1), datas2.get(i2)
            if d1 is None or d2 is None:
                continue
            t1 = d1.out_type()
            if u.slices:  # node1's Data as the slice leaves it (sliced_view)
                t1 = sliced_view(t1, next(iter(u.slices.values())))[0]
            # the two completed views compared as their parts (equal parts <=> equal types)
            t2 = d2.out_type()
            v1 = (t1.element_type, *_completed(t1, u.map1, full, True))
            v2 = (t2.element_type, *_completed(t2, u.map2, full, True))
            if v1 != v2:
                rollback.add(i2)
        if key is not None:
            q.keep_answer(key, frozenset(rollback))
    if info.applied_rollback != rollback:  # (node_fuse_info applied none)
        update_input_maps(info, rollback)
    return rollback


def complete_tensor(t: ag.AscTensorType, m: dict[int, int], full: list[int] | None, memory: bool) -> ag.AscTensorType:
    """A tensor with its axis ids converted through `m` and, for a loop merge (`full` is
    the merged loop), completed to every loop axis (CompleteNodeAttrsOnAscGraph: repeat 1,
    stride 0); an on-chip (non-memory) tensor gets contiguous strides."""
    return ag.AscTensorType(t.element_type, *_completed(t, m, full, memory))


def _completed(
    t: ag.AscTensorType, m: dict[int, int], full: list[int] | None, memory: bool
) -> tuple[list[int], list[int], list[int]]:
    """complete_tensor's axis ids, repeats and strides (without building the type)."""
    ids = [m[a] for a in t.axis_ids]
    reps, strides = list(t.repeat_list), list(t.stride_list)
    if full is not None and ids:
        for a in full:
            if a in ids:
                continue
            pos = next((i for i, x in enumerate(ids) if x > a), len(ids))
            ids.insert(pos, a)
            reps.insert(pos, 1)
            strides.insert(pos, 0)
        if not memory:
            strides = list(ag.contiguous_strides(reps))
    return ids, reps, strides


def _inline_side(
    block: Block, side: Operation, args: list[SSAValue], axis_map: dict[int, int]
) -> tuple[list[SSAValue], dict[int, list[Operation]], dict[Operation, Operation]]:
    """Put one side into the FusedAscBackend body: an AscBackend is cloned with its AscGraph
    renumbered (FlushSubGraphAxisInfo); a FusedAscBackend's body is inlined. Returns the
    values of the side's outputs, the inner consumers of each side input, and old->new."""
    consumers: dict[int, list[Operation]] = {}
    clones: dict[Operation, Operation] = {}
    if isinstance(side, ge.AscBackend):
        new = _renumbered_backend(side, args, axis_map)
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
            new = _renumbered_backend(op, [vmap[v] for v in op.operands], axis_map)
            block.add_op(new)
            clones[op] = new
            for r, nr in zip(op.results, new.results):
                vmap[r] = nr
    consumers = {i: [clones[c] for c in cs if c in clones] for i, cs in consumers.items()}
    net = side.body.block.last_op
    assert net is not None
    return [vmap[v] for v in net.operands], consumers, clones


def _renumbered_backend(op: ge.AscBackend, operands: list[SSAValue], axis_map: dict[int, int]) -> ge.AscBackend:
    g = U.asc_graph(op)
    assert g is not None
    b = _Builder(None)
    for node in g.body.block.ops:
        assert isinstance(node, ag.AscNode)
        b.clone(node, axis_map)
    sizes = g.axis_sizes()
    axes = sorted((axis_map[a], f"z{axis_map[a]}", sizes[a]) for a in g.axis_ids())
    graph = ag.AscGraphOp(g.sym_name.data, axes, Region(b.block))
    new = ge.AscBackend.create(
        operands=operands,
        result_types=[r.type for r in op.results],
        attributes=dict(op.attributes),
        regions=[Region(Block([graph]))] + [r.clone() for r in op.regions[1:]],
    )
    for r, o in zip(new.results, op.results):
        r.name_hint = o.name_hint
    new.location = op.location
    return new


class _Builder:
    """Puts AscIR nodes into a new block with axis ids converted through a map and, for
    a loop merge, every tensor completed to the full loop (CompleteNodeAttrsOnAscGraph:
    missing axes get repeat 1, stride 0; sched.axis is the whole loop, as HintGraphs do).

    `take`: the caller owns the nodes' graphs and erases them right after (Fuse erases
    node1 and node2): a node whose result types the conversion leaves unchanged is moved
    into the new block, its sched.axis / index rewritten in place, instead of cloned; a
    node whose types change is cloned (SSA value types are not rewritten in place). Either
    way the new block holds the same nodes, attributes, types and name hints, and every
    value's uses come in the new block's order (operands are set node by node in that
    order), so what is printed and every later walk of the uses is the same as a clone's."""

    def __init__(
        self,
        full: list[int] | None,
        sizes: dict[int, int] | None = None,
        take: bool = False,
        block: Block | None = None,
        count: int = 0,
        memo: dict[tuple, tuple[ag.AscTensorType, ag.AscTensorType | None]] | None = None,
    ):
        self.full = full
        # a loop merge through a slice: on-chip tensors are cut to the merged loop's extents
        self.sizes = sizes
        self.take = take
        # `block`: a taken graph's own block, whose nodes stay (stay) and the others' go in
        self.block = Block() if block is None else block
        self.count = count  # the nodes in `block` (`count`: a given block's), kept as built
        self.anchor: Operation | None = None  # where a node goes in: before it, else at the end
        self.vmap: dict[SSAValue, SSAValue] = {}
        self._sched = _int_list(full) if full is not None else None
        # converted type per (type, map, loop, memory), None where the conversion leaves it
        # as it is; `memo`: the decider's, kept across its merges (the same few types meet
        # the same maps and loops at every step of a growing group), else one merge's. Keyed
        # by the type's id (lowering shares a few type objects among all nodes; hashing a
        # type walks its parameters), the entry holding the type so that no id is reused
        # while the entry lives; the map and loop by their contents (`_maps`: per map of
        # this merge, holding it)
        self._tensors = {} if memo is None else memo
        self._where = (tuple(full) if full is not None else None, tuple(sizes.items()) if sizes is not None else None)
        self._maps: dict[int, tuple[dict[int, int], tuple]] = {}

    def tensor(self, t: ag.AscTensorType, m: dict[int, int], memory: bool) -> ag.AscTensorType:
        """`t` converted; `t` itself when the conversion does not change it."""
        if (mk := self._maps.get(id(m))) is None or mk[0] is not m:
            mk = self._maps[id(m)] = (m, tuple(m.items()))
        key = (id(t), mk[1], self._where, memory)
        if (entry := self._tensors.get(key)) is not None and entry[0] is t:
            hit = entry[1]
        else:
            ids, reps, strides = _completed(t, m, self.full, memory)
            if self.sizes is not None and not memory:
                reps = [min(r, self.sizes[a]) for a, r in zip(ids, reps)]
                strides = list(ag.contiguous_strides(reps))
            if tuple(ids) == t.axis_ids and tuple(reps) == t.repeat_list and tuple(strides) == t.stride_list:
                hit = None  # built only where the conversion changes the type
            else:
                hit = ag.AscTensorType(t.element_type, ids, reps, strides)
            self._tensors[key] = (t, hit)
        return t if hit is None else hit

    def clone(
        self, op: ag.AscNode, m: dict[int, int], index: int | None = None, view: ag.AscTensorType | None = None
    ) -> Operation:
        """`op` converted into the block: `op` itself moved (with `take`, when its types do
        not change), else a clone. Returns the node in the block."""
        memory = op.MEMORY or isinstance(op, ag.Store)
        if ag.gather_operand(op):
            # asc_overrides.h GatherLoad: a Gather's Data view is its whole tensor with
            # positional axis ids, not a loop view: it is neither remapped nor completed.
            types = [r.type for r in op.results]
        elif view is not None:
            types = [complete_tensor(view, m, self.full, memory=True)]
        else:
            types = [self.tensor(r.type, m, memory) for r in op.results]  # type: ignore[arg-type]
        sched = None
        if ag.SCHED_AXIS in op.attributes:
            sched = self._sched or _int_list([m[a] for a in op.sched_axis()])
        if self.take and all(t is r.type for t, r in zip(types, op.results)):
            return self._move(op, sched, index)
        attrs = dict(op.attributes)
        if sched is not None:
            attrs[ag.SCHED_AXIS] = sched
        if index is not None:
            attrs["index"] = _int(index)
        new = type(op).create(operands=[self.vmap[v] for v in op.operands], result_types=types, attributes=attrs)
        for r, nr in zip(op.results, new.results):
            nr.name_hint = r.name_hint
            self.vmap[r] = nr
        self._insert(new)
        return new

    def value(self, v: SSAValue) -> SSAValue:
        """The new block's value for `v` (a kept node's value is its own)."""
        return self.vmap.get(v, v)

    def stay(self, op: ag.AscNode, index: int | None = None) -> None:
        """A node of a graph built over this very loop (_normal) with its types and
        sched.axis, left where it is: its index renumbered, and only the operands the merge
        redirects set, one by one, so every other use keeps its place in its value's
        (block-ordered) use list."""
        if index is not None and U.int_attr(op, "index", -1) != index:
            op.attributes["index"] = _int(index)
        vmap = self.vmap
        for i, v in enumerate(op.operands):
            if (nv := vmap.get(v)) is not None and nv is not v:
                op.operands[i] = nv

    def move_as_is(self, op: ag.AscNode, index: int | None = None) -> Operation:
        """`stay`, the node moved into the block."""
        op.detach()
        self.stay(op, index)
        self._insert(op)
        return op

    def erase(self, op: Operation) -> None:
        """Erase a node of the block."""
        self.block.erase_op(op)
        self.count -= 1

    def _insert(self, op: Operation) -> None:
        self.count += 1
        if self.anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.anchor)

    def _move(self, op: ag.AscNode, sched: Attribute | None, index: int | None) -> Operation:
        op.detach()
        if sched is not None:
            op.attributes[ag.SCHED_AXIS] = sched
        if index is not None and U.int_attr(op, "index", -1) != index:
            op.attributes["index"] = _int(index)
        # set even when unchanged: re-adds each use in the new block's order (see the class)
        op.operands = [self.vmap[v] for v in op.operands]
        for r in op.results:
            self.vmap[r] = r
        self._insert(op)
        return op

    def adapt(self, v: SSAValue, want: ag.AscTensorType) -> SSAValue:
        """The producer's on-chip value as the bypassed Load saw it: an explicit Transpose
        when the axis order differs, a Broadcast where the Load expanded repeat-1 axes."""
        t = v.type
        assert isinstance(t, ag.AscTensorType)
        sched = {ag.SCHED_AXIS: _int_list(self.full or list(want.axis_ids))}
        if t.axis_ids != want.axis_ids:
            reps = [t.repeat_of(a) for a in want.axis_ids]
            tt = ag.AscTensorType(t.element_type, want.axis_ids, reps, ag.contiguous_strides(reps))
            op = ag.Transpose.create(operands=[v], result_types=[tt], attributes=dict(sched))
            op.results[0].name_hint = "transpose"
            self._insert(op)
            v, t = op.results[0], tt
        if t.repeat_list != want.repeat_list:
            assert all(a == b or a == 1 for a, b in zip(t.repeat_list, want.repeat_list)), (
                "a slice view cannot be bypassed"
            )
            op = ag.Broadcast.create(operands=[v], result_types=[want], attributes=dict(sched))
            op.results[0].name_hint = "broadcast"
            self._insert(op)
            v = op.results[0]
        return v


@dataclass
class AscBackendSubGraphFusionDecider(AscBackendFusionDecider):
    """asc_backend_subgraph_fusion_decider.cpp: the decider of a FusedAscBackend's inner
    round (§4.7): only AscBackend + AscBackend pairs whose loops can merge; Fuse always
    produces an AscBackend; every pair has priority HIGH."""

    def get_fusion_pair_priority(self, n1: Operation, n2: Operation) -> FusionPriority:
        return FusionPriority.HIGH

    def can_fuse(self, n1: Operation, n2: Operation) -> Reason | None:
        self._handoff = None
        for n in (n1, n2):
            if not isinstance(n, ge.AscBackend):
                return not_fuse("CanNotMergeAscGraph", f"'{node_name(n)}' is not an AscBackend")
        if (r := super().can_fuse(n1, n2)) is not None:
            return r
        p = self._pair(*ordered_pair(n1, n2))
        assert not isinstance(p, Reason)
        if not self._merges_loops(p):
            self._handoff = None  # (the base accepted the pair; this round does not)
            return not_fuse("CanNotMergeAscGraph", "the two AscGraphs' loops cannot merge (a concat is involved)")
        return None
