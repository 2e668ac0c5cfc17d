"""ge-autofuse{solver=global}: an exact search over the fusion plans GE's own CanFuse accepts,
for the plan that moves the fewest global-memory bytes.

Not GE's: GE's FusionStrategySolver is greedy (fusion_strategy_solver.cpp: Fuse, the score
order of §4.5), and the fusion-strategy seed (003, 融合策略求解) names what it misses: "if A
and D cannot fuse, fusing CD first may prevent ABC". This module keeps every rule of
GE's and changes only which legal fusions are made, and in which order.

Objective. The global-memory bytes moved of a plan: each kernel reads each distinct input
tensor once and writes each of its outputs once (autofuse.kernel_traffic). The simulator's
kernel_bytes_read + kernel_bytes_written (runtime/simulator.py) count the same tensors, per
operand and at storage size: equal, except where a kernel reads one tensor through two
operands or a format pads (tests/passes/autofuse/test_global_solver.py checks both).
A fused group G of original nodes reads every tensor a member reads that no member
produces, and writes every output of a member that some node outside G reads or that
nothing reads (the decider keeps exactly those outputs: NodeFuseInfo's node1_output_map
drops an output only when all its readers are in node2). So a plan's bytes are the sum
over its groups of a function of the group's member set (`_Window.group_bytes`), and
moves between plans are exchanges of groups.

Search. Greedy runs first, on a clone of the graph, recording its merges; its plan is the
incumbent. The fusable nodes are split into regions (connected components of the
candidate-pair graph: two nodes that share a tensor; a fusion never joins nodes of two
regions) and each region, in topological order of its first node, into windows of whole
greedy groups of at most `max_region_nodes` nodes. Each window is searched exactly by a
depth-first branch and bound over merge sequences, in the real graph (the windows before
it already hold their chosen plan): a state is a partition of the window's nodes reached
by legal merges; a merge of two groups that share a tensor is legal when the solver's
CanFuse (shared data, the horizontal peak-memory checks, then the decider: strategies,
caps, axis mapping, axis groups) accepts the two groups' actual fused nodes and the merge
closes no cycle in the whole graph (window-internal edges plus, per node, the window
nodes it reaches through nodes outside the window, computed once per window: such a path
between the two groups is a cycle too); each merge is made in place (the decider's
`build_fused`, so the decider's per-node memos, NodeQueries and axis groups, are shared
by every state; a fused node built once is reused, rewired to the current producers of
the values it reads) and undone on backtracking; a pair of nodes gets one CanFuse verdict
per solve (GE's can_not_fuse cache keeps the negative ones), and a pair CanFuse accepts but
Fuse's axis map (need_flash) refuses is not legal. Children are tried in order of bytes saved,
then node order; a partition already visited is not expanded again (the first merge
order that reached it stands for all); the bound is the window's least possible traffic
(every tensor produced outside read once, every tensor leaving the window written once),
so the search stops early when the incumbent reaches it; below a state, what two groups
that can never be one (their summed size over every strategy's node cap) must still move
is added to that bound (`_Window.state_bound`), and a state whose bound reaches the
incumbent is not expanded (the bound is the partition's, so a pruned child is counted as a
state but its fused node is never built nor merged into the graph, and a partition pruned
once is not counted again). `max_nodes_explored` states per
window is the deterministic work limit. The window's plan is the best found when it moves
strictly fewer bytes than greedy's, else greedy's own merges; it is then replayed in the
graph through the solver's own CanFuse and fusion (FusionStrategySolver._fuse_pair), so
the output is what GE's machinery builds from that merge order. Windows are independent
of load and time: the output is byte-identical run to run.

Guarantee. After every window, the inner loop-merge rounds run as for greedy; the global
graph is kept only when it moves strictly fewer bytes than greedy's (else greedy's graph,
unchanged, is the result), so global never moves more bytes than greedy. The comparison
is of the fused kernels before lifting (lifting puts a kernel's GE ops back with the same
inputs and outputs; the concat unfolding may change bytes on either plan). A replay that
CanFuse refuses (a context the search did not see) abandons the global plan for greedy's,
and the remark says where.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, SSAValue

from ge_dialect.ge import node_name
from ge_dialect.reason import Reason
from passes.autofuse.solver import (
    FuseStats,
    FusingNode,
    FusionDecider,
    FusionStrategySolver,
    SolverConfig,
    _find,
    _Order,
    buffer_bytes,
    fuse_inner_rounds,
)

MAX_NODES_EXPLORED = 300
MAX_REGION_NODES = 12

Merge = tuple[frozenset[int], frozenset[int]]


@dataclass
class GlobalConfig:
    max_nodes_explored: int = MAX_NODES_EXPLORED
    max_region_nodes: int = MAX_REGION_NODES


@dataclass
class WindowResult:
    """One searched window: its nodes, greedy's and the chosen plan's bytes."""

    region: int
    window: int
    names: list[str]
    greedy_bytes: int | None  # None: greedy's merges are not legal after the windows before
    global_bytes: int
    lower_bound: int
    explored: int
    limit_hit: bool

    @property
    def saved(self) -> int:
        return 0 if self.greedy_bytes is None else self.greedy_bytes - self.global_bytes

    def describe(self) -> str:
        where = (
            f"region {self.region} window {self.window} ({len(self.names)} nodes: {self.names[0]} .. {self.names[-1]})"
        )
        if self.greedy_bytes is None:
            return f"{where}: greedy's merges not legal here; best found {self.global_bytes} bytes ({self.explored} states)"
        if self.saved > 0:
            how = "work limit hit, best found" if self.limit_hit else "optimal"
            return (
                f"{where}: global {self.global_bytes} bytes < greedy {self.greedy_bytes} bytes, "
                f"saves {self.saved} ({how}, {self.explored} states)"
            )
        if self.limit_hit:
            return (
                f"{where}: work limit hit after {self.explored} states, greedy's plan kept ({self.greedy_bytes} bytes)"
            )
        if self.explored == 0:
            return f"{where}: greedy already optimal ({self.greedy_bytes} bytes, the window's lower bound)"
        return f"{where}: greedy already optimal ({self.greedy_bytes} bytes, proven in {self.explored} states)"


@dataclass
class GlobalReport:
    greedy_bytes: int = 0
    global_bytes: int = 0
    kept: str = "greedy"  # which plan the graph now holds
    windows: list[WindowResult] = field(default_factory=list)
    aborted: str | None = None  # why the global plan could not be built


def plan_traffic(block: Block, decider: FusionDecider) -> int:
    """Global-memory bytes moved by the fusable kernels of `block` (each distinct input
    read once, each output written once)."""
    moved = 0
    for op in block.ops:
        if decider.is_fusable_node(op):
            moved += sum(buffer_bytes(v) for v in dict.fromkeys(op.operands))
            moved += sum(buffer_bytes(r) for r in op.results)
    return moved


class _Recording:
    """A decider that records the member sets of every fusion (greedy's merge order)."""

    def __init__(self, decider: FusionDecider, members: dict[Operation, frozenset[int]]):
        self._d = decider
        self.members = members
        self.merges: list[Merge] = []

    def __getattr__(self, name: str):
        return getattr(self._d, name)

    def fuse(self, n1: Operation, n2: Operation) -> Operation:
        a, b = self.members[n1], self.members[n2]
        new = self._d.fuse(n1, n2)
        self.members[new] = a | b
        self.merges.append((a, b))
        return new


def _regions(ops: list[Operation], fusable: list[int]) -> list[list[int]]:
    """Connected components of the candidate-pair graph (nodes sharing a tensor), each
    sorted, in order of their first node."""
    parent = {i: i for i in fusable}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[SSAValue, int] = {}
    for i in fusable:
        op = ops[i]
        for v in (*op.operands, *op.results):
            j = first.setdefault(v, i)
            if j != i:
                a, b = find(i), find(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    comps: dict[int, list[int]] = {}
    for i in fusable:
        comps.setdefault(find(i), []).append(i)
    return sorted(comps.values(), key=lambda c: c[0])


class _Window:
    """The static facts of one window: its nodes, the tensors they touch, group bytes."""

    def __init__(self, nodes: list[int], ops: list[Operation]):
        self.nodes = nodes
        self.ops = {i: ops[i] for i in nodes}
        index = {ops[i]: i for i in nodes}
        self.reads: dict[int, set[SSAValue]] = {}
        self.outs: dict[int, list[tuple[SSAValue, frozenset[int] | None]]] = {}
        self.succ: dict[int, set[int]] = {}
        self.touch: dict[SSAValue, list[int]] = {}
        for i in nodes:
            op = ops[i]
            self.reads[i] = set(op.operands)
            outs = []
            succ: set[int] = set()
            for r in op.results:
                readers = {u.operation for u in r.uses}
                inside = {index[x] for x in readers if x in index}
                succ |= inside
                # None: read outside the window (or by nothing): always written
                outs.append((r, frozenset(inside) if readers and len(inside) == len(readers) else None))
            self.outs[i] = outs
            self.succ[i] = succ
            for v in dict.fromkeys((*op.operands, *op.results)):
                self.touch.setdefault(v, []).append(i)
        self._bytes: dict[frozenset[int], int] = {}
        self._lb: int | None = None
        # per tensor the window touches: (bytes, producing window node or None, reading
        # window nodes, whether it is written whatever the plan) -- for `state_bound`
        self.tensors: list[tuple[int, int | None, list[int], bool]] = []
        for v, idx in self.touch.items():
            prod = index.get(v.owner) if isinstance(v.owner, Operation) else None  # type: ignore[arg-type]
            readers = [i for i in idx if i != prod and v in self.reads[i]]
            always = prod is not None and any(
                r is v and inside is None
                for r, inside in self.outs[prod]  # type: ignore[index]
            )
            if readers:
                self.tensors.append((buffer_bytes(v), prod, readers, always))

    def group_bytes(self, g: frozenset[int]) -> int:
        hit = self._bytes.get(g)
        if hit is not None:
            return hit
        produced = {r for i in g for r, _ in self.outs[i]}
        moved = sum(buffer_bytes(v) for v in set().union(*(self.reads[i] for i in g)) - produced)
        for i in g:
            for r, inside in self.outs[i]:
                if inside is None or not inside <= g:
                    moved += buffer_bytes(r)
        self._bytes[g] = moved
        return moved

    def state_bound(self, group_of: dict[int, frozenset[int]], never) -> int:
        """A lower bound on the bytes of every plan reachable from a state (`group_of`: each
        node's group) by more merges: the window's `lower_bound`, plus, per tensor, what no
        later merge can save because two of the groups touching it can never be one
        (`never(ga, gb)`, a monotone refusal: the summed size cap): a tensor read by two
        such groups is read twice; one whose producer's group can never join a reader's
        is written and read again."""
        extra = 0
        for nbytes, prod, readers, always in self.tensors:
            gs = list(dict.fromkeys(group_of[i] for i in readers))
            if prod is None:
                if any(never(gs[x], gs[y]) for x in range(len(gs)) for y in range(x + 1, len(gs))):
                    extra += nbytes
                continue
            gp = group_of[prod]
            if any(g != gp and never(gp, g) for g in gs):
                extra += nbytes if always else 2 * nbytes
        return self.lower_bound() + extra

    def lower_bound(self) -> int:
        """Every tensor produced outside the window read once, every tensor leaving it (or
        read by nothing) written once."""
        if self._lb is not None:
            return self._lb
        produced = {r for i in self.nodes for r, _ in self.outs[i]}
        lb = sum(buffer_bytes(v) for v in set().union(*self.reads.values()) - produced)
        lb += sum(buffer_bytes(r) for i in self.nodes for r, inside in self.outs[i] if inside is None)
        self._lb = lb
        return lb


class _Applied:
    """One merge made in place, with what undoing it needs."""

    __slots__ = ("a", "b", "g", "new", "n1", "n2", "ops1", "ops2", "olds", "prev1", "prev2", "saved")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


class GlobalSolver:
    """Greedy first, then the per-window exact search and the replay (module docstring)."""

    def __init__(
        self,
        make_decider: Callable[[], FusionDecider],
        config: SolverConfig | None = None,
        gconfig: GlobalConfig | None = None,
        inner_decider: Callable[[], FusionDecider] | None = None,
    ):
        self.make_decider = make_decider
        self.config = config or SolverConfig()
        self.gconfig = gconfig or GlobalConfig()
        self.inner_decider = inner_decider
        self.report = GlobalReport()

    # -- the whole graph -----------------------------------------------------------------

    def fuse(self, block: Block, clone_block: Callable[[], Block]) -> tuple[Block, FuseStats]:
        """Fuse `block`'s graph; returns the block to keep (a clone: greedy's or global's)
        and its stats. `clone_block()` makes an independent copy of the unfused block."""
        # 1. greedy, recording its merges (node i = the i-th op of the block)
        b1 = clone_block()
        ops1 = list(b1.ops)
        members = {op: frozenset((i,)) for i, op in enumerate(ops1)}
        greedy_decider = self.make_decider()
        rec = _Recording(greedy_decider, members)
        greedy = FusionStrategySolver(rec, self.config)  # type: ignore[arg-type]
        greedy.fuse_graph(b1)
        groups = [members[op] for op in b1.ops if greedy_decider.is_fusable_node(op)]
        self.report.greedy_bytes = plan_traffic(b1, greedy_decider)
        if self.inner_decider is not None:
            fuse_inner_rounds(b1, greedy_decider, greedy.stats, self.config, self.inner_decider)
        # 2. global, on a second clone
        b2 = clone_block()
        stats = self._global(b2, groups, rec.merges)
        if stats is None:
            self.report.global_bytes = self.report.greedy_bytes
            return b1, greedy.stats
        self.report.global_bytes = plan_traffic(b2, self.replay.decider)
        if self.report.global_bytes < self.report.greedy_bytes:
            self.report.kept = "global"
            return b2, stats
        self.report.global_bytes = self.report.greedy_bytes
        return b1, greedy.stats

    def _global(self, block: Block, greedy_groups: list[frozenset[int]], merges: list[Merge]) -> FuseStats | None:
        ops = list(block.ops)
        replay = FusionStrategySolver(self.make_decider(), self.config)
        self.replay = replay
        self.order = _Order(block)
        self.fnodes: dict[Operation, FusingNode] = {}
        fusable = []
        for i, op in enumerate(ops):
            if replay.decider.is_fusable_node(op):
                self.fnodes[op] = replay._make_node(op, i)
                fusable.append(i)
        self.orig = {i: self.fnodes[ops[i]] for i in fusable}
        self.block = block
        # the search's own decider and solver: their caches (NodeQueries, axis groups,
        # rejected pairs) serve every window
        self.sdecider = self.make_decider()
        self.ssolver = FusionStrategySolver(self.sdecider, self.config)
        self._memo: dict[tuple[Operation, Operation], tuple | None] = {}
        self._verdict: dict[tuple[Operation, Operation], bool] = {}
        self._root: dict[SSAValue, SSAValue] = {}  # a fused node's result -> the value it replaced first
        self._alias: dict[SSAValue, SSAValue] = {}  # a replaced value -> its replacement now
        self._shapes: dict[Operation, tuple] = {}
        group_of = {i: g for g in greedy_groups for i in g}
        for r, region in enumerate(_regions(ops, fusable)):
            gs = sorted({group_of[i] for i in region}, key=min)
            windows: list[list[int]] = []
            cur: list[int] = []
            for g in gs:
                if cur and len(cur) + len(g) > self.gconfig.max_region_nodes:
                    windows.append(cur)
                    cur = []
                cur.extend(g)
            if cur:
                windows.append(cur)
            for wi, w in enumerate(windows):
                w.sort()
                wset = set(w)
                seq = [m for m in merges if min(m[0]) in wset]
                if len(w) > 1:
                    seq = self._solve((r, wi), w, ops, [g for g in gs if min(g) in wset], seq)
                if (why := self._replay(seq)) is not None:
                    self.report.aborted = f"replay of region {r} failed: {why.message}"
                    return None
        stats = replay.stats
        if self.inner_decider is not None:
            fuse_inner_rounds(block, replay.decider, stats, self.config, self.inner_decider)
        return stats

    def _replay(self, seq: list[Merge]) -> Reason | None:
        """Make the merges through the solver's own CanFuse and fusion."""
        for a, b in seq:
            fa, fb = _find(self.orig[min(a)]), _find(self.orig[min(b)])
            if fa is fb:
                return Reason("GlobalReplay", "the two groups are already one node")
            if self.order.label[fa.op] > self.order.label[fb.op]:
                fa, fb = fb, fa
            if (r := self.replay.can_fuse(fa, fb)) is not None:
                return r
            # the search built this fused node in this order; Fuse asserts what CanFuse
            # does not check (need_flash), so a refusal here is caught, not a traceback
            try:
                fused = self.replay._fuse_pair(self.block, self.order, self.fnodes, fa, fb)
            except AssertionError as e:
                return Reason("GlobalReplay", f"Fuse refused the pair: {e}")
            if not fused:
                return Reason("GlobalReplay", "the fusion would create a cycle")
        return None

    # -- one window ------------------------------------------------------------------------

    def _solve(
        self,
        where: tuple[int, int],
        nodes: list[int],
        ops: list[Operation],
        greedy: list[frozenset[int]],
        greedy_seq: list[Merge],
    ) -> list[Merge]:
        win = _Window(nodes, ops)
        self.win = win
        lb = win.lower_bound()
        greedy_bytes = sum(win.group_bytes(g) for g in greedy)
        names = [node_name(ops[i]) for i in nodes]
        res = WindowResult(where[0], where[1], names, greedy_bytes, greedy_bytes, lb, 0, False)
        self.report.windows.append(res)
        if greedy_bytes <= lb:
            return greedy_seq  # nothing can move fewer bytes
        self._ext = self._external_reach(nodes, ops)
        # the state: group of each node, each group's current op and FusingNode
        # one object per group: `group_of`'s values are `cur`'s and `fn`'s keys (the state
        # key below and `_apply` tell groups apart by identity)
        self.group_of = {i: frozenset((i,)) for i in nodes}
        self.cur = {self.group_of[i]: ops[i] for i in nodes}
        self.fn: dict[frozenset[int], FusingNode] = {}
        for i in nodes:
            o = self.orig[i]
            self.fn[self.group_of[i]] = FusingNode(
                o.op, o.min_order, o.max_order, o.reads, o.writes, o.size, set(o.ancestors)
            )
        # the incumbent: greedy's own merges, if they are still legal here
        applied: list[_Applied] = []
        legal = True
        for a, b in greedy_seq:
            ga, gb = self.group_of[min(a)], self.group_of[min(b)]
            if ga is gb or not self._legal(ga, gb):
                legal = False
                break
            applied.append(self._apply(ga, gb))
        for x in reversed(applied):
            self._undo(x)
        if not legal:
            res.greedy_bytes = None
        start = sum(win.group_bytes(g) for g in self.cur)
        self.best = greedy_bytes if legal else start
        self.best_seq: list[Merge] | None = list(greedy_seq) if legal else []
        self.lb = lb
        self._never = self._size_cap(nodes, ops)
        self.pruned = 0
        self.explored = 0
        self.limit_hit = False
        self.visited: set[frozenset] = {frozenset((h, self._shape(op)) for h, op in self.cur.items())}
        # the partitions of the states in `visited` and of the pruned ones, which are
        # never built (a pruned state's bound is its partition's: whatever its fused
        # nodes, a state of that partition is pruned again)
        self.partitions: set[frozenset[frozenset[int]]] = {frozenset(self.cur)}
        self.path: list[Merge] = []
        self._dfs(start)
        res.explored, res.limit_hit = self.explored, self.limit_hit
        res.global_bytes = self.best
        assert self.best_seq is not None
        if legal and self.best >= greedy_bytes:
            res.global_bytes = greedy_bytes
            return greedy_seq
        return self.best_seq

    def _dfs(self, cost: int) -> None:
        self.explored += 1
        if cost < self.best:
            self.best, self.best_seq = cost, list(self.path)
        if self.best <= self.lb:
            return
        if self._never is not None and self.win.state_bound(self.group_of, self._never) >= self.best:
            self.pruned += 1
            return  # no plan below this state moves fewer bytes than the best found
        if self.explored >= self.gconfig.max_nodes_explored:
            self.limit_hit = True
            return
        win = self.win
        pairs: set[tuple[frozenset[int], frozenset[int]]] = set()
        for idx in win.touch.values():
            gs = sorted({self.group_of[i] for i in idx}, key=min)
            for x in range(len(gs)):
                for y in range(x + 1, len(gs)):
                    pairs.add((gs[x], gs[y]))
        children = []
        for ga, gb in pairs:
            g = ga | gb
            saving = win.group_bytes(ga) + win.group_bytes(gb) - win.group_bytes(g)
            children.append((-saving, min(ga), min(gb), ga, gb))
        children.sort(key=lambda c: c[:3])
        for neg, _, _, ga, gb in children:
            if self.best <= self.lb or self.limit_hit:
                return
            if not self._legal(ga, gb):
                continue
            g = ga | gb
            if self._never is not None:
                child = dict(self.group_of)
                for i in g:
                    child[i] = g
                if win.state_bound(child, self._never) >= self.best:
                    # the child's state is pruned (its bound depends on the partition
                    # alone): counted as a state, never built
                    part = frozenset([h for h in self.cur if h is not ga and h is not gb] + [g])
                    if part not in self.partitions:
                        self.partitions.add(part)
                        self.explored += 1
                        self.pruned += 1
                    continue
            a, b = self._oriented(ga, gb)
            built = self._build(self.cur[a], self.cur[b])
            assert built is not None
            # a state is its partition and the shape of each fused node: two merge orders
            # reaching one partition may build different nodes (a loop merge or a
            # FusedAscBackend), whose later CanFuse answers differ
            key = frozenset(
                [(h, self._shape(op)) for h, op in self.cur.items() if h is not ga and h is not gb]
                + [(ga | gb, self._shape(built[0]))]
            )
            if key in self.visited:
                continue
            self.visited.add(key)
            self.partitions.add(frozenset(h for h, _ in key))
            x = self._apply(ga, gb)
            self.path.append((ga, gb))
            self._dfs(cost + neg)
            self.path.pop()
            self._undo(x)

    def _size_cap(self, nodes: list[int], ops: list[Operation]):
        """`never(ga, gb)` for the state bound: the two groups' summed CanFuse size exceeds
        every strategy's node cap (backend_utils.cpp CanFuseByStrategyPro: size1 + size2 >
        max_fusion_nodes_size; the largest cap is the cube strategy's max_fusion_size + 1),
        so no later merge joins them (sizes only grow). None when a strategy lifts the cap
        (a concat or split in the window) or the decider has none (no bound)."""
        from passes.autofuse import ascgraph_queries as U

        cap = getattr(self.sdecider, "max_fusion_size", None)
        if not isinstance(cap, int) or any(U.has_fuse_type(ops[i], t) for i in nodes for t in ("concat", "split")):
            return None
        size = {i: U.canfuse_nodes_size(ops[i]) for i in nodes}
        total: dict[frozenset[int], int] = {}

        def gsize(g: frozenset[int]) -> int:
            n = total.get(g)
            if n is None:
                n = total[g] = sum(size[i] for i in g)
            return n

        return lambda ga, gb: gsize(ga) + gsize(gb) > cap + 1

    # -- legality: the solver's CanFuse on the actual nodes, and the cycle check ---------------

    def _legal(self, ga: frozenset[int], gb: frozenset[int]) -> bool:
        ga, gb = self._oriented(ga, gb)
        fa, fb = self.fn[ga], self.fn[gb]
        key = (fa.op, fb.op)
        ok = self._verdict.get(key)
        if ok is None:
            # a pair of nodes gets one verdict per solve, as GE's can_not_fuse cache keeps
            # the negative ones; the replay asks CanFuse again in the real context. A pair
            # CanFuse accepts but Fuse's axis map (need_flash) refuses is not legal.
            ok = self.ssolver.can_fuse(fa, fb) is None and self._can_build(fa.op, fb.op)
            self._verdict[key] = ok
        return ok and not self._cycle(ga, gb)

    def _oriented(self, ga: frozenset[int], gb: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        """The pair in the solver's order (FusionStrategySolver._fuse_pair: the node placed
        first goes first). The solver keeps a topological order, so a group that reaches
        the other goes first; otherwise a fused node has its later member's place."""
        if self._reaches(ga, gb):
            return ga, gb
        if self._reaches(gb, ga):
            return gb, ga
        return (ga, gb) if self._place(ga) < self._place(gb) else (gb, ga)

    def _reaches(self, src: frozenset[int], dst: frozenset[int]) -> bool:
        stack, seen = [src], {src}
        while stack:
            for h in self._succ(stack.pop()):
                if h == dst:
                    return True
                if h not in seen:
                    seen.add(h)
                    stack.append(h)
        return False

    def _place(self, g: frozenset[int]) -> int:
        label = self.order.label
        return max(label[self.win.ops[i]] for i in g)

    def _shape(self, op: Operation) -> tuple:
        """What a fused node is, for telling states apart: its type, port counts and the
        number of operations it holds."""
        hit = self._shapes.get(op)
        if hit is None:
            hit = self._shapes[op] = (op.name, len(op.operands), len(op.results), sum(1 for _ in op.walk()))
        return hit

    def _resolve(self, v: SSAValue) -> SSAValue:
        """The value that stands for `v` in the current state (its producer's fused node)."""
        while v in self._alias:
            v = self._alias[v]
        return v

    def _can_build(self, na: Operation, nb: Operation) -> bool:
        check = getattr(self.sdecider, "can_build", None)
        if check is None:
            return self._build(na, nb) is not None
        return check(na, nb) is None

    def _build(self, na: Operation, nb: Operation) -> tuple | None:
        key = (na, nb)
        if key in self._memo:
            return self._memo[key]
        built = self.sdecider.build_fused(na, nb, keep_groups=True)  # type: ignore[attr-defined]
        if isinstance(built, Reason):
            self._memo[key] = None
            return None
        new, olds, n1, n2 = built
        # the operands as the values of the unfused graph they stand for: a later state
        # may have their producers fused differently (`_resolve` maps them back)
        saved = [self._root.get(v, v) for v in new.operands]
        new.operands = ()
        for old, r in zip(olds, new.results):
            first = self._root.get(old)
            self._root[r] = old if first is None else first
        hit = self._memo[key] = (new, olds, n1, n2, saved)
        return hit

    def _external_reach(self, nodes: list[int], ops: list[Operation]) -> dict[int, set[int]]:
        """Per window node, the window nodes it reaches through a path that leaves the
        window (in the graph as the windows before left it); bounded by the window's last
        topological label, beyond which no path comes back."""
        label = self.order.label
        inside = {ops[i]: i for i in nodes}
        limit = max(label[ops[i]] for i in nodes)
        out: dict[int, set[int]] = {}
        for i in nodes:
            found: set[int] = set()
            seen: set[Operation] = set()
            stack = [u.operation for r in ops[i].results for u in r.uses if u.operation not in inside]
            while stack:
                x = stack.pop()
                if x in seen:
                    continue
                seen.add(x)
                if x in inside:
                    found.add(inside[x])
                    continue
                if label.get(x, limit + 1) > limit:
                    continue
                stack.extend(u.operation for r in x.results for u in r.uses)
            out[i] = found
        return out

    def _succ(self, g: frozenset[int]) -> set[frozenset[int]]:
        s = {self.group_of[j] for i in g for j in (*self.win.succ[i], *self._ext[i])}
        s.discard(g)
        return s

    def _cycle(self, ga: frozenset[int], gb: frozenset[int]) -> bool:
        """# fusion_strategy_solver.cpp: WillFusionCreateCycle -- fusing ga and gb closes a
        cycle iff a successor of either, other than the two, reaches one of them; a path
        through nodes outside the window between the two is such a successor."""
        ext = self._ext
        if any(j in gb for i in ga for j in ext[i]) or any(j in ga for i in gb for j in ext[i]):
            return True
        stack = [g for g in (self._succ(ga) | self._succ(gb)) if g is not ga and g is not gb]
        seen: set[frozenset[int]] = set()
        while stack:
            g = stack.pop()
            if g in seen:
                continue
            seen.add(g)
            for h in self._succ(g):
                if h is ga or h is gb or h == ga or h == gb:
                    return True
                stack.append(h)
        return False

    # -- in-place merge and undo -------------------------------------------------------------

    def _apply(self, ga: frozenset[int], gb: frozenset[int]) -> _Applied:
        ga, gb = self._oriented(ga, gb)
        hit = self._build(self.cur[ga], self.cur[gb])
        assert hit is not None
        new, olds, n1, n2, saved = hit
        block = self.block
        block.insert_op_before(new, n2)
        ops1, ops2 = list(n1.operands), list(n2.operands)
        n1.operands = ()
        n2.operands = ()
        new.operands = [self._resolve(v) for v in saved]
        for old, r in zip(olds, new.results):
            old.replace_all_uses_with(r)
            self._alias[old] = r
        prev1 = n1.prev_op
        n1.detach()
        prev2 = n2.prev_op
        n2.detach()
        g = ga | gb
        fa, fb = self.fn[ga], self.fn[gb]
        fnew = self.ssolver._make_node(new, min(fa.min_order, fb.min_order), fa.size + fb.size)
        fnew.max_order = max(fa.max_order, fb.max_order)
        # the solver's ancestor propagation (FusionStrategySolver._fuse_pair)
        fnew.ancestors = (fa.ancestors | fb.ancestors | fnew.ancestors) - {n1, n2}
        saved_fn = []
        consumers = {u.operation for r in new.results for u in r.uses}
        for h, f in self.fn.items():
            if h is ga or h is gb or f.op not in consumers:
                continue
            saved_fn.append((f, set(f.ancestors), f.reads, f.buffers))
            f.ancestors.add(new)
            f.ancestors |= fnew.ancestors
            f.reads = tuple(dict.fromkeys(f.op.operands))
            f.buffers = frozenset(f.reads) | frozenset(f.writes)
        del self.cur[ga], self.cur[gb]
        self.cur[g] = new
        self.fn[g] = fnew
        for i in g:
            self.group_of[i] = g
        return _Applied(
            a=ga,
            b=gb,
            g=g,
            new=new,
            n1=n1,
            n2=n2,
            ops1=ops1,
            ops2=ops2,
            olds=olds,
            prev1=prev1,
            prev2=prev2,
            saved=(saved_fn, fa, fb),
        )

    def _undo(self, x: _Applied) -> None:
        block = self.block
        for old, r in zip(x.olds, x.new.results):
            r.replace_all_uses_with(old)
            del self._alias[old]
        if x.prev2 is None:
            block.insert_op_before(x.n2, block.first_op) if block.first_op else block.add_op(x.n2)
        else:
            block.insert_op_after(x.n2, x.prev2)
        if x.prev1 is None:
            block.insert_op_before(x.n1, block.first_op) if block.first_op else block.add_op(x.n1)
        else:
            block.insert_op_after(x.n1, x.prev1)
        x.new.operands = ()
        x.new.detach()
        x.n1.operands = x.ops1
        x.n2.operands = x.ops2
        saved_fn, fa, fb = x.saved
        for f, anc, reads, buffers in saved_fn:
            f.ancestors, f.reads, f.buffers = anc, reads, buffers
        del self.cur[x.g], self.fn[x.g]
        self.cur[x.a], self.cur[x.b] = (fa.op, fb.op)
        self.fn[x.a], self.fn[x.b] = fa, fb
        for i in x.a:
            self.group_of[i] = x.a
        for i in x.b:
            self.group_of[i] = x.b
