"""The fusion decider's incremental caches, behind one interface (`NoFuseCache`).

Not GE's: GE's Decider asks every question afresh. Our solve asks CanFuse
of the same nodes and of alike pairs many times (a fanout's readers of one tensor), and a
group growing node by node would be copied at every loop merge; these caches make that
linear. They change what is computed, never what is decided: the printed IR and the
remarks are the same with `FuseCache` and with `NoFuseCache`, the plain GE path whose
every method computes afresh (tests/passes/autofuse/test_fuse_cache.py compares both,
byte for byte, on every example and on generated graphs).

The decider (passes/autofuse/decider.py) reads every answer through its `cache`:

  per_node(kind, op, compute)   a node's own facts: its AscGraphs, type and attributes do
                                not change while the decider lives (Fuse makes new nodes)
  pair_cache()                  a block in which no node changes (the solver's
                                GetPossibleFusions): each pair's FusePair and each node's
                                operand/use tables (axis_mapping.NodeLinks) built once, and
                                the verdict of an unlinked pair of plain nodes kept by
                                content (`_alike_key`)
  verdict / handed_pair         the FusePair of a CanFuse that accepted its pair, handed
                                to the Fuse of that pair right after (the solver's
                                FuseNodesOnce asks CanFuse right before Fuse)
  axis_groups_merge             CanFuse step 9's answer by the two groups' contents
  loop_merge                    MergeAscGraphByLoop moving the two nodes' AscIR nodes into
                                the new graph instead of cloning them, and keeping a graph
                                an earlier merge built over the same loop whole
                                (`KeptLoopMerge`)
  queries                       axis_mapping.NodeQueries: the axis mapping's per-node
                                tables and per-content answers (None: none kept)

The switch: ge-autofuse's `fuse-cache` option, or the environment variable GE_FUSE_CACHE=0
(which turns it off for every decider, the tests' included).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from xdsl.ir import Attribute, Block, Operation

from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.reason import Reason
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import strategies as S
from passes.autofuse.axis_group import AxisGroup
from passes.autofuse.axis_mapping import AxisUnification, NodeFuseInfo, NodeLinks, NodeQueries
from passes.autofuse.loop_merge import (
    LoopBuilder,
    LoopMerge,
    completed_parts,
    shared_int,
)


class Decider(Protocol):
    """What the content keys read of a node through the decider (decider.py)."""

    def fusion_nodes_size(self, op: Operation) -> int: ...

    def node_facts(self, op: Operation) -> Any: ...  # decider.NodeFacts (its core_num)

    def axis_group(self, op: Operation) -> AxisGroup | None: ...


FUSE_CACHE_ENV = "GE_FUSE_CACHE"


def make_fuse_cache(enabled: bool = True) -> NoFuseCache:
    """`FuseCache`, or `NoFuseCache` when `enabled` is false or GE_FUSE_CACHE=0."""
    if not enabled or os.environ.get(FUSE_CACHE_ENV, "1") == "0":
        return NoFuseCache()
    return FuseCache()


class NoFuseCache:
    """The plain GE path: every answer computed afresh, nothing kept."""

    queries: NodeQueries | None = None

    def pair_cache(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def per_node(self, kind: str, op: Operation, compute: Callable[[Operation], Any]) -> Any:
        return compute(op)

    def forget(self, kind: str, op: Operation) -> None:
        """`op`'s `kind` fact is not asked again (its node is fused away)."""

    def links(self, op: Operation) -> Operation | NodeLinks:
        """What node_fuse_info reads of `op`: the node itself, or its NodeLinks."""
        return op

    def pair(self, n1: Operation, n2: Operation, split: bool, make: Callable[[], S.FusePair | Reason]):
        return make()

    def verdict(self, d: Decider, n1: Operation, n2: Operation, decide: Callable[[], Reason | None]) -> Reason | None:
        return decide()

    def handed_pair(self, n1: Operation, n2: Operation, split: bool) -> S.FusePair | None:
        return None

    def axis_groups_merge(self, d: Decider, n1: Operation, n2: Operation, u: AxisUnification, compute) -> Reason | None:
        return compute()

    def loop_merge(self, info: NodeFuseInfo, u: AxisUnification, attrs: dict[str, Attribute], take: bool) -> LoopMerge:
        return LoopMerge(info, u, attrs)


_MISSING: Any = object()


class FuseCache(NoFuseCache):
    """Every cache of the decider's solve (see the module docstring); one per decider."""

    def __init__(self) -> None:
        self.q = self.queries = NodeQueries()
        self._nodes: dict[str, dict[Operation, Any]] = {}
        # open inside pair_cache: each pair's FusePair, each node's NodeLinks
        self._pairs: dict[tuple[Operation, Operation, bool], S.FusePair | Reason] | None = None
        self._links: dict[Operation, NodeLinks] | None = None
        # CanFuse's verdicts of the unlinked pairs of plain nodes, by content (_alike_key)
        self.alike: dict[tuple, Reason | None] = {}
        self._merges: dict[tuple, Reason | None] = {}
        # the first FusePair a CanFuse outside pair_cache made (while `_watch`), and the
        # one handed to Fuse: (n1, n2, split, pair)
        self._watch = False
        self._first: tuple[Operation, Operation, bool, Any] | None = None
        self._handoff: tuple[Operation, Operation, bool, S.FusePair] | None = None
        # the AscGraphs a KeptLoopMerge built (_Made), and its builders' tensor conversions
        self.made: dict[ag.AscGraphOp, _Made] = {}
        self.tensors: dict[tuple, tuple[ag.AscTensorType, ag.AscTensorType | None]] = {}

    @contextlib.contextmanager
    def pair_cache(self) -> Iterator[None]:
        self._pairs, self._links = {}, {}
        try:
            yield
        finally:
            self._pairs = self._links = None

    def per_node(self, kind: str, op: Operation, compute: Callable[[Operation], Any]) -> Any:
        memo = self._nodes.get(kind)
        if memo is None:
            memo = self._nodes[kind] = {}
        if (v := memo.get(op, _MISSING)) is _MISSING:
            v = memo[op] = compute(op)
        return v

    def forget(self, kind: str, op: Operation) -> None:
        self._nodes.get(kind, {}).pop(op, None)

    def links(self, op: Operation) -> Operation | NodeLinks:
        if self._links is None:
            return op
        if (t := self._links.get(op)) is None:
            t = self._links[op] = NodeLinks(op)
        return t

    def pair(self, n1: Operation, n2: Operation, split: bool, make: Callable[[], S.FusePair | Reason]):
        memo = self._pairs
        if memo is not None:
            if (hit := memo.get((n1, n2, split))) is None:
                hit = memo[(n1, n2, split)] = make()
            return hit
        p = make()
        if self._watch and self._first is None:
            self._first = (n1, n2, split, p)
        return p

    def verdict(self, d: Decider, n1: Operation, n2: Operation, decide: Callable[[], Reason | None]) -> Reason | None:
        self._handoff = None
        if self._links is not None:
            if (key := self._alike_key(d, n1, n2)) is None:
                return decide()
            # an unlinked pair of plain nodes: the verdict of an earlier pair of equal content
            if (r := self.alike.get(key, _MISSING)) is _MISSING:
                r = self.alike[key] = decide()
            return r
        self._watch, self._first = True, None
        try:
            r = decide()
        finally:
            self._watch = False
        if r is None and (first := self._first) is not None and first[0] is n1 and first[1] is n2:
            self._handoff = first
        return r

    def handed_pair(self, n1: Operation, n2: Operation, split: bool) -> S.FusePair | None:
        hand, self._handoff = self._handoff, None
        if hand is not None and hand[0] is n1 and hand[1] is n2 and hand[2] == split:
            return hand[3]
        return None

    def axis_groups_merge(self, d: Decider, n1: Operation, n2: Operation, u: AxisUnification, compute) -> Reason | None:
        # the answer depends on the two groups' contents and the maps only (interned numbers)
        key = (
            "axis_groups",
            self._group_key(d, n1),
            self._group_key(d, n2),
            tuple(u.map1.items()),
            tuple(u.map2.items()),
        )
        if (why := self._merges.get(key, _MISSING)) is _MISSING:
            why = compute()
            if self.q.keep:
                self._merges[key] = why
        return why

    def loop_merge(self, info: NodeFuseInfo, u: AxisUnification, attrs: dict[str, Attribute], take: bool) -> LoopMerge:
        return KeptLoopMerge(self, info, u, attrs, take)

    # -- content keys -----------------------------------------------------------------------

    def _group_key(self, d: Decider, op: Operation) -> int | None:
        """The number naming the node's axis group's contents (None: no group)."""

        def key(op: Operation) -> int | None:
            g = d.axis_group(op)
            if g is None:
                return None
            return self.q.intern((tuple(g.x), tuple(g.y), tuple(g.r), tuple(g.n), tuple(g.axes_order)))

        return self.per_node("group_key", op, key)

    def _alike_key(self, d: Decider, n1: Operation, n2: Operation) -> tuple | None:
        """The content CanFuse reads of an unlinked pair of plain AscBackends (neither
        reads the other; only the default strategy matches, `_alike_of`), as numbers:
        both nodes' classes and, per shared input (same_input_map), its position on
        each side and both sides' input tables and Data views (NodeQueries). Without a
        link, node_fuse_info's maps are functions of the shared positions and the operand
        counts; the axis mapping reads the loop tables and the shared inputs' tables
        (NodeQueries.axis_map_key); the input plan the unification and the shared Data
        views; the caps the sizes; the axis-group merge the groups; the default strategy
        nothing of a node. So pairs with equal keys (the alike readers of one tensor) get
        one verdict, its Reason included. None: not such a pair."""
        l1, l2 = self.links(n1), self.links(n2)
        assert isinstance(l1, NodeLinks) and isinstance(l2, NodeLinks)
        if id(n2) in l1.readers or id(n1) in l2.readers:
            return None
        c1, c2 = self._alike_of(d, n1), self._alike_of(d, n2)
        if c1 is None or c2 is None:
            return None
        same = l1.shared_inputs(l2)
        if not same:
            return None
        q = self.q
        t1, t2 = q.tables(n1), q.tables(n2)
        g1, g2 = t1.graph, t2.graph
        assert g1 is not None and g2 is not None
        it, dv = q.input_table, q.data_view
        return (c1, c2, *((i, j, it(t1, i), it(t2, j), dv(t1, g1, i), dv(t2, g2, j)) for i, j in same))

    def _alike_of(self, d: Decider, op: Operation) -> int | None:
        """The number naming what CanFuse reads of a plain node alone (its loop tables, size,
        vector core number, axis group, operand count and fuse types), or None when the
        node is not plain: not an AscBackend, or a fuse type with a strategy of its own."""

        def alike(op: Operation) -> int | None:
            mask = U.all_fuse_types(op)
            if not (self.q.keep and isinstance(op, ge.AscBackend) and not mask & S.STRATEGY_MASK):
                return None
            t = self.q.tables(op)
            if t.graph is None:
                return None
            facts = (t.axes, d.fusion_nodes_size(op), d.node_facts(op).core_num, self._group_key(d, op))
            return self.q.intern(("alike", *facts, len(op.operands), mask))

        return self.per_node("alike", op, alike)


class _Made:
    """What a KeptLoopMerge with `take` records of the AscGraph it built: the loop it was
    built over, its node count and its Data and Output nodes in block order, so that the
    merge keeping the graph whole reads these instead of walking every node. A graph is
    recorded only when it has no Store without a reader (the one node besides them that
    merge would drop). Every node's types and sched.axis come out unchanged when converted
    again to that loop with no renumbering (complete_tensor is idempotent there), and each
    value's uses are in block order (_TakingBuilder). Such a graph is part of a live node
    of the solve; the merge that takes the node removes the entry."""

    __slots__ = ("loop", "count", "datas", "outputs")

    def __init__(self, loop: tuple[int, ...], count: int, datas: list[ag.Data], outputs: list[ag.Output]):
        self.loop = loop
        self.count = count
        self.datas = datas
        self.outputs = outputs


class KeptLoopMerge(LoopMerge):
    """LoopMerge with `take` (Fuse erases both nodes right after): a node whose types the
    conversion leaves as they are is moved into the new graph instead of cloned; a side
    whose graph an earlier merge of this cache built over this very loop, with a map that
    renumbers nothing (`as_is`), moves as it is; and of two such graphs the larger is kept
    whole (`keep`: its block becomes the fused graph's, the other side's nodes go in around
    it), so a group growing node by node is not moved at every step. Without `take` it
    only keeps the builder's tensor conversions."""

    def __init__(
        self, cache: FuseCache, info: NodeFuseInfo, u: AxisUnification, attrs: dict[str, Attribute], take: bool
    ):
        super().__init__(info, u, attrs, cache.queries)
        self.cache, self.take = cache, take
        made1 = cache.made.pop(self.gr1, None) if take else None
        made2 = cache.made.pop(self.gr2, None) if take else None
        loop = self.loop = tuple(self.full)
        self.as_is1 = made1 is not None and made1.loop == loop and self.box is None and _identity(u.map1)
        self.as_is2 = made2 is not None and made2.loop == loop and self.box is None and _identity(u.map2)
        self.keep = 0
        if self.as_is1 and (not self.as_is2 or made1.count >= made2.count):  # type: ignore[union-attr]
            self.keep = 1
        elif self.as_is2:
            self.keep = 2
        self.made1, self.made2 = made1, made2
        self.recordable = True  # no Store without a reader (what the record leaves unwalked)

    def builder(self) -> LoopBuilder:
        if not self.keep:
            return _TakingBuilder(self.full, self.u.sizes if self.box else None, self.take, memo=self.cache.tensors)
        kept, made = (self.gr1, self.made1) if self.keep == 1 else (self.gr2, self.made2)
        assert made is not None
        block = kept.body.block
        kept.body.detach_block(block)
        b = _TakingBuilder(self.full, None, self.take, block, made.count, self.cache.tensors)
        if self.keep == 2:
            b.anchor = block.first_op  # graph1's nodes go before graph2's
        return b

    def index_graph1(self) -> None:
        if self.keep != 1:
            return super().index_graph1()
        # graph1 kept: its Data and Output nodes come from its record, the block is not
        # walked (its other nodes stay as they are)
        assert self.made1 is not None
        for op in self.made1.datas:
            self.datas1[op.index] = op
        for op in self.made1.outputs:
            self.index[op] = k = op.index
            self.stored[k] = op.operands[0].owner.operands[0]  # type: ignore[union-attr]

    def take_graph1(self) -> None:
        if self.keep == 1:
            self._keep_graph1_outputs()
        super().take_graph1()

    def _keep_graph1_outputs(self) -> None:
        """Of a kept graph 1 only the Outputs change (renumbered, or dropped with the Stores
        only they read: a recorded graph has no Store without a reader); Stores go before
        Outputs in `dropped`, erased in reverse by build_backend."""
        assert self.made1 is not None
        gone: list[Operation] = []
        stores: dict[Operation, None] = {}
        b = self.b
        assert isinstance(b, _TakingBuilder)
        for op in self.made1.outputs:
            if self.index[op] not in self.kept1:
                gone.append(op)
                store = op.operands[0].owner
                if isinstance(store, ag.Store) and self._only_dropped_outputs_read(store):
                    stores[store] = None
            else:
                b.stay(op, index=self.out_index[(1, self.index[op])])
                self.new_outputs.append(op)
        self.dropped += stores
        self.dropped += gone
        self.new_datas += self.made1.datas

    def put1(self, op: ag.AscNode, index: int | None = None) -> Operation:
        if self.as_is1:
            return self.b.move_as_is(op, index)  # type: ignore[attr-defined]
        return super().put1(op, index)

    def put2(self, op: ag.AscNode, index: int | None = None) -> Operation:
        if index is None and op.results and op.results[0].first_use is None and isinstance(op, ag.Store):
            self.recordable = False
        if self.keep == 2:
            self.b.stay(op, index)  # type: ignore[attr-defined]
            return op
        if self.as_is2:
            return self.b.move_as_is(op, index)  # type: ignore[attr-defined]
        return super().put2(op, index)

    def bypass_anchor(self, load: ag.Load) -> Operation | None:
        return load if self.keep == 2 else None  # in the Load's place

    def build_backend(self) -> ge.AscBackend:
        b = self.b
        assert isinstance(b, _TakingBuilder)
        if self.keep:  # the nodes the merge drops from the kept block, each reader before its value
            for op in reversed(self.dropped):
                if op.parent is b.block:
                    b.erase(op)
        new = super().build_backend()
        if self.take and self.recordable:
            self.cache.made[self.graph] = _Made(self.loop, b.count, self.new_datas, self.new_outputs)
        return new


def _identity(m: dict[int, int]) -> bool:
    return all(k == v for k, v in m.items())


class _TakingBuilder(LoopBuilder):
    """LoopBuilder that, with `take` (the caller owns the nodes' graphs and erases them right
    after), moves a node whose result types the conversion leaves unchanged into the new
    block, its sched.axis / index rewritten in place, instead of cloning it; a node whose
    types change is cloned (SSA value types are not rewritten in place). Either way the
    new block holds the same nodes, attributes, types and name hints, and every value's
    uses come in the new block's order (operands are set node by node in that order), so
    what is printed and every later walk of the uses is the same as a clone's.

    `block`: a kept graph's own block, whose nodes stay (`stay`) and the others' go in
    around them; `count` its nodes. `memo`: the cache's tensor conversions, kept across
    its merges (the same few types meet the same maps and loops at every step of a
    growing group), keyed by the type's id (lowering shares a few type objects among all
    nodes; hashing a type walks its parameters), the entry holding the type so that no id
    is reused while the entry lives; the map and loop by their contents."""

    def __init__(
        self,
        full: list[int] | None,
        sizes: dict[int, int] | None,
        take: bool,
        block: Block | None = None,
        count: int = 0,
        memo: dict[tuple, tuple[ag.AscTensorType, ag.AscTensorType | None]] | None = None,
    ):
        super().__init__(full, sizes, block)
        self.take = take
        self.count = count
        self._tensors = {} if memo is None else memo
        self._where = (tuple(full) if full is not None else None, tuple(sizes.items()) if sizes is not None else None)
        self._maps: dict[int, tuple[dict[int, int], tuple]] = {}

    def tensor(self, t: ag.AscTensorType, m: dict[int, int], memory: bool) -> ag.AscTensorType:
        if (mk := self._maps.get(id(m))) is None or mk[0] is not m:
            mk = self._maps[id(m)] = (m, tuple(m.items()))
        key = (id(t), mk[1], self._where, memory)
        if (entry := self._tensors.get(key)) is not None and entry[0] is t:
            hit = entry[1]
        else:
            ids, reps, strides = completed_parts(t, m, self.full, memory)
            if self.sizes is not None and not memory:
                reps = [min(r, self.sizes[a]) for a, r in zip(ids, reps)]
                strides = list(ag.contiguous_strides(reps))
            if tuple(ids) == t.axis_ids and tuple(reps) == t.repeat_list and tuple(strides) == t.stride_list:
                hit = None  # built only where the conversion changes the type
            else:
                hit = ag.AscTensorType(t.element_type, ids, reps, strides)
            self._tensors[key] = (t, hit)
        return t if hit is None else hit

    def reuse(
        self, op: ag.AscNode, types: Sequence[Attribute], sched: Attribute | None, index: int | None
    ) -> Operation | None:
        if not (self.take and all(t is r.type for t, r in zip(types, op.results))):
            return None
        op.detach()
        if sched is not None:
            op.attributes[ag.SCHED_AXIS] = sched
        if index is not None and U.int_attr(op, "index", -1) != index:
            op.attributes["index"] = shared_int(index)
        # set even when unchanged: re-adds each use in the new block's order (see the class)
        op.operands = [self.vmap[v] for v in op.operands]
        for r in op.results:
            self.vmap[r] = r
        self.insert(op)
        return op

    def stay(self, op: ag.AscNode, index: int | None = None) -> None:
        """A node of a graph built over this very loop (_Made) with its types and
        sched.axis, left where it is: its index renumbered, and only the operands the merge
        redirects set, one by one, so every other use keeps its place in its value's
        (block-ordered) use list."""
        if index is not None and U.int_attr(op, "index", -1) != index:
            op.attributes["index"] = shared_int(index)
        vmap = self.vmap
        for i, v in enumerate(op.operands):
            if (nv := vmap.get(v)) is not None and nv is not v:
                op.operands[i] = nv

    def move_as_is(self, op: ag.AscNode, index: int | None = None) -> Operation:
        """`stay`, the node moved into the block."""
        op.detach()
        self.stay(op, index)
        self.insert(op)
        return op

    def erase(self, op: Operation) -> None:
        """Erase a node of the block."""
        self.block.erase_op(op)
        self.count -= 1
