"""GE's CanFuse framework (FusionStrategySolver): the backend-agnostic greedy solver of the
second-stage fusion.

Follows compiler/graph/optimize/autofuse/autofuse/can_fuse/fusion_strategy_solver.{h,cpp}
(docs/ge/autofuse.md): FusingNode bookkeeping, candidate pairs per shared buffer, priority
buckets sorted by memory score / proximity / topo order, the solver-level CanFuse,
reachability-based cycle detection, up to `max_fuse_rounds` rounds, then the single
loop-merge round inside each FusedAscBackend. What may fuse and how two nodes become one
is asked of a `FusionDecider` (GE's FusionDecider interface); the AscBackend decider lives
in passes/autofuse/decider.py, the solver's unit tests use mock deciders as GE's do.

Where this port differs from GE, on purpose:
* Cycle detection. GE keeps a connection matrix (node -> bitmap of the nodes reaching it)
  and, after each fusion, ORs the merged bitmap into every node that reached a member:
  O(n) bitmap operations per fusion, O(n^2) for a graph. Here the block is kept in a valid
  topological order with integer labels (Pearce-Kelly style): fusing {a, b} with
  label(a) < label(b) creates a cycle iff a successor of `a` other than `b` reaches `b`,
  and a successor can only reach `b` through nodes labelled below label(b); the search is
  bounded by that label. The nodes it finds (descendants of `a` between a and b) are
  moved right after b, so the fused node can take b's place; their labels are taken from
  the gap after b (the block is relabelled when a gap is exhausted). The ge dialect has
  data edges only, so there are no control edges to follow.
* Candidate generation. GE tries every pair of every shared-buffer group: k(k-1)/2 CanFuse
  calls for a tensor read by k consumers. Groups of at most `buffer_group_window + 1`
  nodes get exactly that; in a larger group each node is paired with the next
  `buffer_group_window` nodes in topological order (TorchInductor's
  max_fusion_buffer_group_pairwise_attempts, 64), k*window pairs. Pairs outside the window
  get their chance in a later round, once nodes of the group have fused.
* Tie-break. GE std::sort's the pairs by (memory score desc, proximity asc, first node's
  min order asc), which leaves ties unordered; here the key continues with the second
  node's min order and both node names, a total order (min orders are unique per round).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Protocol

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ge_dialect import symbolic as S
from ge_dialect.diagnostics import op_location
from ge_dialect.dtypes import size_in_bytes
from ge_dialect.ge import node_name
from ge_dialect.reason import Reason, not_fuse
from ge_dialect.symbolic import NotProvable
from passes.autofuse import symbolic_score as SP

# auto_fuse_config.h: FusionStrategySolverConfig defaults (docs/ge/autofuse.md)
MAX_FUSE_ROUNDS = 10
MAX_OUTPUT_MEMORY_SIZE_AFTER_FUSION = 13 * 1024**3
# torch/_inductor/config.py: max_fusion_buffer_group_pairwise_attempts (not GE's; see above)
BUFFER_GROUP_WINDOW = 64
# Label spacing of the maintained topological order.
_GAP = 1 << 16


class FusionPriority(IntEnum):
    """fusion_decider.h: FusionPriority (smaller = tried earlier)."""

    HIGHEST = 0
    HIGHER = 1
    HIGH = 2
    DEFAULT = 3
    LOW = 4


class FusionDecider(Protocol):
    """fusion_decider.h: FusionDecider, the backend the solver asks (docs/ge/autofuse.md)."""

    def is_fusable_node(self, op: Operation) -> bool: ...

    def fusion_nodes_size(self, op: Operation) -> int: ...

    def get_fusion_pair_priority(self, n1: Operation, n2: Operation) -> FusionPriority: ...

    def can_fuse(self, n1: Operation, n2: Operation) -> Reason | None: ...

    def fuse(self, n1: Operation, n2: Operation) -> Operation: ...

    def possible_fusion_pairs(self, op: Operation) -> list[tuple[Operation, Operation]]: ...


# fusion_strategy_solver.cpp: CanFuse -- node1 == node2 (GE returns false and logs nothing)
SAME_NODE = "SameNode"


def buffer_bytes(v: SSAValue) -> int:
    """MemoryBuffer size: dtype bytes x numel(origin shape) (fusion_strategy_solver.cpp:
    GetBufferSize). GE keeps unknown dims symbolic; here an unknown dim counts as 1, a
    lower bound that keeps a shared unknown-shape buffer 'shared'."""
    t: Attribute = v.type
    if not isinstance(t, TensorType):
        return 1
    n = math.prod(d if d >= 0 else 1 for d in t.get_shape())
    try:
        return size_in_bytes(n, t.element_type)
    except Exception:  # an element type GE has no size for: count elements
        return n


@dataclass(eq=False)
class FusingNode:
    """fusion_strategy_solver.h: FusingNode (docs/ge/autofuse.md)."""

    op: Operation
    min_order: int
    max_order: int
    reads: tuple[SSAValue, ...]  # peer out-anchors of the inputs, each once
    writes: tuple[SSAValue, ...]  # own out-anchors
    size: int  # fusion_nodes_size: AscIR node count, summed on fusion
    ancestors: set[Operation] = field(default_factory=set)  # direct producers, propagated
    replaced_by: FusingNode | None = None
    buffers: frozenset[SSAValue] = frozenset()

    def __post_init__(self) -> None:
        self.buffers = frozenset(self.reads) | frozenset(self.writes)

    @property
    def name(self) -> str:
        return node_name(self.op)


def _find(n: FusingNode) -> FusingNode:
    root = n
    while root.replaced_by is not None:
        root = root.replaced_by
    while n.replaced_by is not None and n.replaced_by is not root:
        n.replaced_by, n = root, n.replaced_by
    return root


@dataclass
class Rejection:
    """One candidate pair the solver did not fuse, and why (for remarks)."""

    location: str
    first: FusingNode
    second: FusingNode
    first_name: str
    second_name: str
    reason: Reason
    shared_bytes: int = 0  # ScoreFusionMemory of the pair when it was refused


@dataclass
class Fusion:
    """One pair the solver fused (for remarks): the candidate's priority bucket and
    ScoreFusionMemory, the bytes of the buffers both nodes read or write."""

    location: str
    first_name: str
    second_name: str
    fused_name: str
    priority: FusionPriority
    shared_bytes: int
    shared_expr: str = ""  # over symbolic shapes: ScoreFusionMemory as an expression


@dataclass
class FuseStats:
    fusions: int = 0
    rounds: int = 0
    candidate_pairs: int = 0
    rejections: list[Rejection] = field(default_factory=list)
    fused: list[Fusion] = field(default_factory=list)

    def not_fused(self) -> list[Rejection]:
        """Rejected pairs whose nodes did not end up in one node, each pair once."""
        seen: set[tuple[str, str]] = set()
        out = []
        for r in self.rejections:
            if _find(r.first) is _find(r.second):
                continue
            key = (r.first_name, r.second_name)
            if key in seen:
                continue
            seen.add(key)
            out.append(r)
        return out


@dataclass
class SolverConfig:
    max_fuse_rounds: int = MAX_FUSE_ROUNDS
    max_proximity: int | None = None  # GE: INT64_MAX, i.e. disabled
    max_output_bytes: int = MAX_OUTPUT_MEMORY_SIZE_AFTER_FUSION
    buffer_group_window: int = BUFFER_GROUP_WINDOW
    # a graph over symbolic shapes (ge-symbolic-autofuse): pairs ranked by their memory
    # score as an expression with ScoreFusion::Compare (passes/autofuse/symbolic_score.py)
    symbolic: bool = False


class _Order:
    """A topological order of a block's ops with integer labels, kept valid across fusions."""

    def __init__(self, block: Block):
        self.block = block
        self.label: dict[Operation, int] = {}
        self.relabel()

    def relabel(self) -> None:
        self.label = {op: (i + 1) * _GAP for i, op in enumerate(self.block.ops)}

    def descendants_before(self, a: Operation, b: Operation) -> list[Operation] | None:
        """The successors of `a` (transitively, not through `b`) labelled below `b`, in
        label order; None when one of them reaches `b` (the fusion would make a cycle).

        # graph_metadef/graph/utils/cycle_detector.cc: HasDetectedCycle -- a successor of a
        # scope member, outside the scope, reaching another scope member.
        """
        limit = self.label[b]
        label = self.label
        seen: set[Operation] = {a}
        found: list[Operation] = []
        stack = [u.operation for r in a.results for u in r.uses if u.operation is not b]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            lx = label.get(x)
            if lx is None or lx > limit:
                continue
            found.append(x)
            for r in x.results:
                for u in r.uses:
                    y = u.operation
                    if y is b:
                        return None
                    if y not in seen:
                        stack.append(y)
        found.sort(key=label.__getitem__)
        return found

    def sink_after(self, nodes: list[Operation], b: Operation) -> None:
        """Move `nodes` (label order) right after `b`, keeping the order topological."""
        if not nodes:
            return
        nxt = b.next_op
        hi = self.label[nxt] if nxt is not None else self.label[b] + _GAP * (len(nodes) + 1)
        if hi - self.label[b] <= len(nodes):
            self.relabel()
            nxt = b.next_op
            hi = self.label[nxt] if nxt is not None else self.label[b] + _GAP * (len(nodes) + 1)
        lo = self.label[b]
        step = (hi - lo) // (len(nodes) + 1)
        anchor = b
        for k, x in enumerate(nodes):
            x.detach()
            self.block.insert_op_after(x, anchor)
            anchor = x
            self.label[x] = lo + step * (k + 1)

    def replace(self, a: Operation, b: Operation, new: Operation) -> None:
        self.label[new] = self.label.pop(b)
        self.label.pop(a, None)


def will_fusion_create_cycle(order: _Order, n1: Operation, n2: Operation) -> Reason | list[Operation]:
    """# fusion_strategy_solver.cpp: FusionStrategySolver::WillFusionCreateCycle (asked by
    FuseNodesOnce before each fusion, logged as kWillCreateCycle): the Reason when fusing
    n1 (labelled first) with n2 would close a cycle, else the nodes between them that must
    move after n2 (_Order.descendants_before, GE's CycleDetector::HasDetectedCycle)."""
    between = order.descendants_before(n1, n2)
    if between is None:
        return not_fuse("WillCreateCycle", "would create a cycle")
    return between


class FusionStrategySolver:
    """fusion_strategy_solver.cpp: FusionStrategySolver::Fuse over one graph body."""

    def __init__(self, decider: FusionDecider, config: SolverConfig | None = None):
        self.decider = decider
        self.config = config or SolverConfig()
        self.stats = FuseStats()
        # can_not_fuse: cached negative results (pairs of ops), kept across rounds.
        self.can_not_fuse: dict[tuple[Operation, Operation], Reason] = {}
        # the priority bucket of each candidate pair of the current round (for remarks)
        self.priority: dict[tuple[FusingNode, FusingNode], FusionPriority] = {}
        # buffer_bytes per value: a value's type does not change; the write cap asks it of
        # the same buffers for every candidate pair. Keyed by id(value), the
        # entry holding the value (so the id cannot be reused while the entry lives).
        self._bytes: dict[int, tuple[SSAValue, int]] = {}
        self._writes_bytes: dict[FusingNode, int] = {}  # _written, per node (identity-keyed)

    def _written(self, n: FusingNode) -> int:
        """The bytes of the node's writes (its results: fixed while the node lives)."""
        if (b := self._writes_bytes.get(n)) is None:
            b = self._writes_bytes[n] = sum(self._buffer_bytes(v) for v in dict.fromkeys(n.writes))
        return b

    def _buffer_bytes(self, v: SSAValue) -> int:
        if (e := self._bytes.get(id(v))) is None:
            e = self._bytes[id(v)] = (v, buffer_bytes(v))
        return e[1]

    # -- FusingNode --------------------------------------------------------------------

    def _make_node(self, op: Operation, order: int, size: int | None = None) -> FusingNode:
        reads = tuple(dict.fromkeys(op.operands))
        writes = tuple(op.results)
        n = FusingNode(op, order, order, reads, writes, self.decider.fusion_nodes_size(op) if size is None else size)
        # FusingNode::Init -- ancestors: the direct data-input nodes
        n.ancestors = {v.owner for v in reads if isinstance(v.owner, Operation)}
        return n

    # -- scores (ScoreFusion, NodePair::operator<) ---------------------------------------

    @staticmethod
    def memory_score(n1: FusingNode, n2: FusingNode) -> int:
        """# fusion_strategy_solver.cpp: ScoreFusionMemory -- bytes of the buffers both
        read or write (producer->consumer links and shared reads), each anchor once."""
        a, b = (n1.buffers, n2.buffers) if len(n1.buffers) <= len(n2.buffers) else (n2.buffers, n1.buffers)
        return sum(buffer_bytes(v) for v in a if v in b)

    def _score(self, n1: FusingNode, n2: FusingNode) -> int:
        """memory_score, each buffer's bytes from _buffer_bytes (the same sum: the solver
        scores every candidate pair, and a buffer is in many)."""
        a, b = (n1.buffers, n2.buffers) if len(n1.buffers) <= len(n2.buffers) else (n2.buffers, n1.buffers)
        bb = self._buffer_bytes
        return sum(bb(v) for v in a if v in b)

    @staticmethod
    def proximity(n1: FusingNode, n2: FusingNode) -> int:
        """# fusion_strategy_solver.cpp: ScoreFusion -- topo distance of the two ranges"""
        return max(abs(n1.min_order - n2.max_order), abs(n2.min_order - n1.max_order))

    # -- solver-level CanFuse (§4.6) ------------------------------------------------------

    def can_fuse(self, n1: FusingNode, n2: FusingNode, score: int | None = None) -> Reason | None:
        """# fusion_strategy_solver.cpp: FusionStrategySolver::CanFuse, in GE's order.
        `score`: the pair's memory_score when the caller has it."""
        if n1 is n2:
            return Reason(SAME_NODE, "same node")
        cached = self.can_not_fuse.get((n1.op, n2.op)) or self.can_not_fuse.get((n2.op, n1.op))
        if cached is not None:
            return cached
        if (self._score(n1, n2) if score is None else score) == 0:
            # no shared data: fusing would not save a memory transfer (kNoSharedData)
            r = not_fuse("NoSharedData", "no shared data (neither a producer->consumer buffer nor a common input)")
            self.can_not_fuse[(n1.op, n2.op)] = r
            return r
        vertical = n1.op in n2.ancestors or n2.op in n1.ancestors
        if not vertical:
            # CanFuseHorizontal: peak-memory heuristics first, not cached
            if (r := self.can_fusion_increase_peak_memory(n1, n2)) is not None:
                return r
            if (r := self.check_write_memory_after_fusion(n1, n2)) is not None:
                return r
        try:
            r = self.decider.can_fuse(n1.op, n2.op)
        except NotProvable as e:
            # over symbolic shapes: a fact the decider needs that the static checks cannot
            # prove refuses the pair (GE's backend checks are StaticCheck* == kTrue)
            r = Reason("StaticCheck", f"cannot prove {e}")
        if r is not None:
            self.can_not_fuse[(n1.op, n2.op)] = r
        return r

    def can_fusion_increase_peak_memory(self, n1: FusingNode, n2: FusingNode) -> Reason | None:
        """# fusion_strategy_solver.cpp: FusionStrategySolver::CanFusionIncreasePeakMemory
        (logged as kIncreasePeakMemory): the proximity exceeds max_proximity."""
        mp = self.config.max_proximity
        if mp is not None and (p := self.proximity(n1, n2)) > mp:
            return not_fuse(
                "CanFusionIncreasePeakMemory", f"proximity {p} > max-proximity {mp}", reason="IncreasePeakMemory"
            )
        return None

    def check_write_memory_after_fusion(self, n1: FusingNode, n2: FusingNode) -> Reason | None:
        """# fusion_strategy_solver.cpp: FusionStrategySolver::CheckWriteMemoryAfterFusion
        (logged as kIncreasePeakMemory): the union of both nodes' writes exceeds
        max_output_memory_size_after_fusion."""
        # the union of both nodes' writes: their own results, two disjoint sets (n1 is not n2)
        out = self._written(n1) + self._written(n2)
        if out > self.config.max_output_bytes:
            return not_fuse(
                "CheckWriteMemoryAfterFusion",
                f"horizontal fusion would write {out} bytes > max-output-bytes {self.config.max_output_bytes}",
                reason="IncreasePeakMemory",
            )
        return None

    # -- candidates (§4.5) ---------------------------------------------------------------

    def _candidate_groups(self, nodes: Sequence[FusingNode]) -> Iterable[list[FusingNode]]:
        groups: dict[SSAValue, list[FusingNode]] = {}
        for n in nodes:  # topological order
            for v in (*n.reads, *n.writes):
                groups.setdefault(v, []).append(n)
        return (g for g in groups.values() if len(g) > 1)

    def _pairs_of_group(self, group: list[FusingNode]) -> Iterable[tuple[FusingNode, FusingNode]]:
        w = self.config.buffer_group_window
        k = len(group)
        for i in range(k - 1):
            # GE: every pair; bounded to a window of following nodes in large groups
            hi = k if k <= w + 1 else min(k, i + 1 + w)
            for j in range(i + 1, hi):
                yield group[i], group[j]

    def possible_fusions(
        self, nodes: Sequence[FusingNode], recorded: list[tuple[FusingNode, FusingNode]] | None
    ) -> list[tuple[FusingNode, FusingNode]]:
        """# fusion_strategy_solver.cpp: GetPossibleFusions + priority grouping.

        Every candidate pair is tried once; those CanFuse accepts are bucketed by the
        decider's priority; all buckets are kept, in ascending priority value, each sorted
        by (memory score desc, proximity asc, first.min_order, second.min_order, names).
        """
        # the decider's pair cache (AscBackendFusionDecider.pair_cache): nothing changes here
        cache = getattr(self.decider, "pair_cache", None)
        with cache() if cache is not None else contextlib.nullcontext():
            buckets = self._bucketed_pairs(nodes, recorded)
        out: list[tuple[FusingNode, FusingNode]] = []
        for prio in sorted(buckets):
            for _, a, b in self._sorted(buckets[prio]):
                self.priority[(a, b)] = prio
                out.append((a, b))
        return out

    def _sorted(self, bucket: list[tuple[tuple, FusingNode, FusingNode]]) -> list[tuple[tuple, FusingNode, FusingNode]]:
        """A bucket in GE's order: by (memory score desc, proximity, min orders, names); over
        symbolic shapes by ScoreFusion::Compare on the scores as expressions."""
        if not self.config.symbolic:
            return sorted(bucket, key=lambda t: t[0])
        # this port's total order (min orders, names) first; then GE's Compare, stable
        base = sorted(bucket, key=lambda t: t[0][2:])
        scored = [
            SP.ScoredPair(self.symbolic_score(a, b), self.proximity(a, b), a.min_order, k[2:]) for k, a, b in base
        ]
        at = {id(p): t for p, t in zip(scored, base)}
        return [at[id(p)] for p in SP.sort_pairs(scored)]

    @staticmethod
    def symbolic_score(n1: FusingNode, n2: FusingNode) -> S.Expr:
        """# fusion_strategy_solver.cpp: ScoreFusion::ScoreFusionMemory, an Expression"""
        return SP.score_fusion_memory(n1.buffers, n2.buffers)

    def _bucketed_pairs(
        self, nodes: Sequence[FusingNode], recorded: list[tuple[FusingNode, FusingNode]] | None
    ) -> dict[FusionPriority, list[tuple[tuple, FusingNode, FusingNode]]]:
        seen: set[tuple[int, int]] = set()
        buckets: dict[FusionPriority, list[tuple[tuple, FusingNode, FusingNode]]] = {}
        pair_source: Iterable[tuple[FusingNode, FusingNode]]
        if recorded is not None:
            pair_source = recorded
        else:
            pair_source = (p for g in self._candidate_groups(nodes) for p in self._pairs_of_group(g))
        for a, b in pair_source:
            if a.min_order > b.min_order:
                a, b = b, a
            key = (id(a), id(b))
            if key in seen:
                continue
            seen.add(key)
            self.stats.candidate_pairs += 1
            score = self._score(a, b)
            r = self.can_fuse(a, b, score)
            if r is not None:
                self._reject(a, b, r, score)
                continue
            prio = FusionPriority(self.decider.get_fusion_pair_priority(a.op, b.op))
            sort_key = (-score, self.proximity(a, b), a.min_order, b.min_order, a.name, b.name)
            buckets.setdefault(prio, []).append((sort_key, a, b))
        return buckets

    def _reject(self, a: FusingNode, b: FusingNode, r: Reason, score: int | None = None) -> None:
        if r.rule == SAME_NODE:
            return
        if score is None:
            score = self._score(a, b)
        self.stats.rejections.append(Rejection(op_location(a.op), a, b, a.name, b.name, r, score))

    # -- rounds (§4.4) ---------------------------------------------------------------------

    def fuse_graph(
        self,
        block: Block,
        max_rounds: int | None = None,
        recorded_pairs: list[tuple[Operation, Operation]] | None = None,
    ) -> FuseStats:
        """# fusion_strategy_solver.cpp: FuseGraph -- rounds of FuseNodesOnce until nothing
        changes, the graph is one node, or `max_rounds` is reached. With `recorded_pairs`
        (a FusedAscBackend body), only those pairs are candidates, once."""
        rounds = self.config.max_fuse_rounds if max_rounds is None else max_rounds
        order = _Order(block)
        fnodes: dict[Operation, FusingNode] = {}
        for i, op in enumerate(block.ops):
            if self.decider.is_fusable_node(op):
                fnodes[op] = self._make_node(op, i)
        for _ in range(rounds):
            count = len(block.ops)
            if count <= 1:
                break
            self.stats.rounds += 1
            # FuseNodesOnce: refresh ids / min / max to the topological index
            nodes: list[FusingNode] = []
            for i, op in enumerate(block.ops):
                n = fnodes.get(op)
                if n is not None:
                    n.min_order = n.max_order = i
                    nodes.append(n)
            recorded = None
            if recorded_pairs is not None:
                recorded = [(fnodes[a], fnodes[b]) for a, b in recorded_pairs if a in fnodes and b in fnodes]
            fused_any = False
            self.priority = {}
            for p1, p2 in self.possible_fusions(nodes, recorded):
                if self._fuse_pair(block, order, fnodes, p1, p2):
                    fused_any = True
            if recorded_pairs is not None or not fused_any or len(block.ops) == count:
                break
        return self.stats

    def _fuse_pair(
        self, block: Block, order: _Order, fnodes: dict[Operation, FusingNode], p1: FusingNode, p2: FusingNode
    ) -> bool:
        f1, f2 = _find(p1), _find(p2)
        if f1 is f2:
            return False
        # node1 is the producer (IsAncestor -> swap); horizontally the earlier node
        if order.label[f1.op] > order.label[f2.op]:
            f1, f2 = f2, f1
        if (f1, f2) != (p1, p2) and (f1, f2) != (p2, p1):
            r = self.can_fuse(f1, f2)
            if r is not None:
                self._reject(f1, f2, r)
                return False
        between = will_fusion_create_cycle(order, f1.op, f2.op)
        if isinstance(between, Reason):
            self._reject(f1, f2, between)
            return False
        order.sink_after(between, f2.op)
        a_op, b_op = f1.op, f2.op
        where, shared = op_location(a_op), self._score(f1, f2)
        expr = S.text(self.symbolic_score(f1, f2)) if self.config.symbolic else ""
        new_op = self.decider.fuse(a_op, b_op)
        prio = self.priority.get((p1, p2), FusionPriority.DEFAULT)
        self.stats.fused.append(Fusion(where, f1.name, f2.name, node_name(new_op), prio, shared, expr))
        order.replace(a_op, b_op, new_op)
        new = self._make_node(new_op, min(f1.min_order, f2.min_order), f1.size + f2.size)
        new.max_order = max(f1.max_order, f2.max_order)
        # ancestors: both members' (minus the members), then every autofuse consumer of
        # the fused node gets it and its ancestors
        new.ancestors = (f1.ancestors | f2.ancestors | new.ancestors) - {a_op, b_op}
        # (the consumers' read buffers are the fused node's anchors from now on)
        consumers = {u.operation: None for r in new_op.results for u in r.uses}
        for c_op in consumers:
            c = fnodes.get(c_op)
            if c is not None:
                c.ancestors.add(new_op)
                c.ancestors |= new.ancestors
                c.reads = tuple(dict.fromkeys(c_op.operands))
                c.buffers = frozenset(c.reads) | frozenset(c.writes)
        f1.replaced_by = f2.replaced_by = new
        del fnodes[a_op], fnodes[b_op]
        fnodes[new_op] = new
        self.stats.fusions += 1
        return True


def fuse_block(
    block: Block,
    decider: FusionDecider,
    config: SolverConfig | None = None,
    inner_decider: Callable[[], FusionDecider] | None = None,
) -> FuseStats:
    """Root rounds over `block`, then (§4.7) one round inside each FusedAscBackend that
    recorded candidate pairs, with `inner_decider()` (AscBackendSubGraphFusionDecider)."""
    solver = FusionStrategySolver(decider, config)
    solver.fuse_graph(block)
    stats = solver.stats
    if inner_decider is not None:
        fuse_inner_rounds(block, decider, stats, config, inner_decider)
    return stats


def fuse_inner_rounds(
    block: Block,
    decider: FusionDecider,
    stats: FuseStats,
    config: SolverConfig | None,
    inner_decider: Callable[[], FusionDecider],
) -> None:
    """# fusion_strategy_solver.cpp: Fuse -- the one loop-merge round inside each
    FusedAscBackend of `block` that recorded candidate pairs (§4.7), counted in `stats`."""
    for op in list(block.ops):
        if not op.regions or not decider.is_fusable_node(op):
            continue
        pairs = decider.possible_fusion_pairs(op)
        if not pairs:
            continue
        inner = FusionStrategySolver(inner_decider(), config)
        inner.fuse_graph(op.regions[0].block, max_rounds=1, recorded_pairs=pairs)
        stats.fusions += inner.stats.fusions
        stats.candidate_pairs += inner.stats.candidate_pairs
        stats.rejections.extend(inner.stats.rejections)
        stats.fused.extend(inner.stats.fused)
