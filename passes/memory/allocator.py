"""The feature-map allocator: where each block of bytes lives in the arena, with no GE in
it. ge-assign-memory (assign_memory.py) hands it the blocks of a graph (an `FmBlock` per
memory symbol: its 512-aligned size and its lifetime in node positions) and it places them
so that no two blocks alive at once overlap.

* `Symbols`: union-find of the outputs that share memory, with relative offsets.
* `Occupancy`, `Windows`, `Neighbours`, `overlap_index`: which bytes the placed blocks
  alive somewhere in a window of positions hold (a segment tree, or pair lists when few
  blocks live at once).
* `place_by_size` (largest first, best fit), `place_by_chains` (same-size successors keep
  one offset), `place_by_sweep` (a time sweep with a beam under an arena size).
* `assign_offsets`: the smallest arena of the placements; `live_lower_bound`: the most
  bytes alive at one position, a bound no placement beats.
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from ge_dialect.mem_types import MEM_ALIGN_SIZE


def align(n: int, a: int = MEM_ALIGN_SIZE) -> int:
    return (n + a - 1) // a * a


# -- symbols: union-find with relative offsets ------------------------------------------------


class Symbols:
    """Output tensors that must share memory, each at a fixed offset from its symbol's root
    (GE: the ref mapping's symbols plus the continuous no-padding layout)."""

    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}
        self.rel: dict[SSAValue, int] = {}  # offset from parent

    def add(self, v: SSAValue) -> None:
        self.parent[v] = v
        self.rel[v] = 0

    def find(self, v: SSAValue) -> tuple[SSAValue, int]:
        path = []
        while self.parent[v] is not v:
            path.append(v)
            v = self.parent[v]
        root = v
        # path compression, offsets accumulated from the root down
        acc = 0
        for u in reversed(path):
            acc += self.rel[u]
            self.parent[u] = root
            self.rel[u] = acc
        return (root, self.rel[path[0]]) if path else (root, 0)

    def union(self, base: SSAValue, v: SSAValue, delta: int) -> bool:
        """Put `v` at offset(base) + delta; False when that contradicts the known layout."""
        rb, ob = self.find(base)
        rv, ov = self.find(v)
        if rb is rv:
            return ov == ob + delta
        # rv's root goes under rb: offset(rv) = ob + delta - ov
        self.parent[rv] = rb
        self.rel[rv] = ob + delta - ov
        return True


# -- feature-map blocks and their placements --------------------------------------------------


@dataclass
class FmBlock:
    """One feature-map allocation: a symbol's bytes and its lifetime [begin, end] in node
    positions (both inclusive)."""

    key: tuple[int, int]
    size: int
    begin: int
    end: int
    offset: int = -1


class Occupancy:
    """The bytes that placed blocks hold, queried by a window of node positions: which byte
    ranges does any block alive somewhere in [begin, end] hold?

    A segment tree over node positions. A block is stored in the O(log n) canonical nodes
    that tile its lifetime (`own`: blocks covering the whole node range) and in those nodes
    and every ancestor of them (`sub`: blocks touching the node range from inside it). A
    window's blocks are then exactly `sub` of its canonical nodes plus `own` of their
    ancestors (the root paths of its first and last position): no block is listed for each
    block it overlaps. Each node keeps its byte ranges as one sorted list of disjoint,
    coalesced runs, so a node holds as many entries as there are holes between its blocks,
    not as many as blocks. A query or an insertion is O(log n) runs lists; the answer
    (the union of the window's byte ranges) is what a best fit needs.
    """

    def __init__(self, horizon: int) -> None:
        self.leaves = 1
        while self.leaves < horizon:
            self.leaves *= 2
        self.own: list[tuple[list[int], list[int]] | None] = [None] * (2 * self.leaves)
        self.sub: list[tuple[list[int], list[int]] | None] = [None] * (2 * self.leaves)

    def _nodes(self, begin: int, end: int) -> tuple[list[int], list[int]]:
        """The canonical nodes of [begin, end] and the root paths of its two ends."""
        canon: list[int] = []
        lo, hi = begin + self.leaves, end + self.leaves + 1
        while lo < hi:
            if lo & 1:
                canon.append(lo)
                lo += 1
            if hi & 1:
                hi -= 1
                canon.append(hi)
            lo >>= 1
            hi >>= 1
        path: list[int] = []
        lo, hi = (begin + self.leaves) >> 1, (end + self.leaves) >> 1
        while lo != hi:
            path += (lo, hi)
            lo >>= 1
            hi >>= 1
        while lo:
            path.append(lo)
            lo >>= 1
        return canon, path

    def held(self, begin: int, end: int) -> list[tuple[int, int]]:
        """Sorted (lo, hi) byte ranges (possibly overlapping) of the blocks alive in the window."""
        canon, path = self._nodes(begin, end)
        spans: list[tuple[int, int]] = []
        for n in canon:
            if (runs := self.sub[n]) is not None:
                spans += zip(*runs)
        for n in path:
            if (runs := self.own[n]) is not None:
                spans += zip(*runs)
        spans.sort()
        return spans

    def add(self, begin: int, end: int, lo: int, hi: int) -> None:
        """Record bytes [lo, hi) held from position begin to end (inclusive)."""
        canon, path = self._nodes(begin, end)
        own, sub = self.own, self.sub
        for table, nodes in ((own, canon), (sub, canon), (sub, path)):
            for n in nodes:
                # insert [lo, hi) into the node's runs, merging the runs it touches
                runs = table[n]
                if runs is None:
                    table[n] = ([lo], [hi])
                    continue
                starts, ends = runs
                i = bisect.bisect_left(ends, lo)  # first run ending at or after lo
                j = bisect.bisect_right(starts, hi)  # runs [i, j) touch [lo, hi)
                if i == j:
                    starts.insert(i, lo)
                    ends.insert(i, hi)
                else:
                    a, z = starts[i], ends[j - 1]
                    starts[i:j] = (a if a < lo else lo,)
                    ends[i:j] = (z if z > hi else hi,)


def _best_fit(size: int, spans: list[tuple[int, int]]) -> int:
    """The lowest offset of the smallest gap of at least `size` bytes between `spans`
    (sorted (lo, hi) byte ranges), else the first offset above all of them."""
    best: int | None = None
    best_gap = math.inf
    cursor = 0
    for lo, hi in spans:
        gap = lo - cursor
        if gap >= size and gap < best_gap:
            best, best_gap = cursor, gap
        cursor = max(cursor, hi)
    return best if best is not None else cursor


class Windows:
    """Per block, the bytes held in its lifetime, through `Occupancy`."""

    def __init__(self, blocks: Sequence[FmBlock]) -> None:
        self.blocks = blocks
        self.occ = Occupancy(max((b.end for b in blocks), default=0) + 1)

    def held(self, i: int) -> list[tuple[int, int]]:
        b = self.blocks[i]
        return self.occ.held(b.begin, b.end)

    def add(self, i: int, lo: int) -> None:
        b = self.blocks[i]
        self.occ.add(b.begin, b.end, lo, lo + b.size)


class Neighbours:
    """The same answers from each block's list of the blocks overlapping it in time: linear
    in blocks + overlapping pairs, so cheaper than `Windows` when few blocks live at once."""

    def __init__(self, blocks: Sequence[FmBlock], nbrs: list[list[int]] | None = None) -> None:
        self.blocks = blocks
        self.offset = [-1] * len(blocks)
        self.nbrs = nbrs if nbrs is not None else overlapping_lists(blocks)

    def held(self, i: int) -> list[tuple[int, int]]:
        off, blocks = self.offset, self.blocks
        return sorted((off[j], off[j] + blocks[j].size) for j in self.nbrs[i] if off[j] >= 0)

    def add(self, i: int, lo: int) -> None:
        self.offset[i] = lo


def overlapping_lists(blocks: Sequence[FmBlock]) -> list[list[int]]:
    """For each block, the blocks whose lifetimes intersect its own (one sweep in begin order)."""
    nbrs: list[list[int]] = [[] for _ in blocks]
    live: dict[int, None] = {}
    ends: list[tuple[int, int]] = []
    for i in sorted(range(len(blocks)), key=lambda i: (blocks[i].begin, blocks[i].key)):
        while ends and ends[0][0] < blocks[i].begin:
            live.pop(heapq.heappop(ends)[1], None)
        for j in live:
            nbrs[i].append(j)
            nbrs[j].append(i)
        live[i] = None
        heapq.heappush(ends, (blocks[i].end, i))
    return nbrs


# Above this many time-overlapping pairs per block, the pair lists cost more than the tree.
PAIRS_PER_BLOCK = 24


def few_alive_at_once(blocks: Sequence[FmBlock]) -> bool:
    """Whether the blocks overlap in time in at most PAIRS_PER_BLOCK pairs per block (counted
    in one sweep, without listing them)."""
    pairs = 0
    ends: list[int] = []
    for b in sorted(blocks, key=lambda b: b.begin):
        while ends and ends[0] < b.begin:
            heapq.heappop(ends)
        pairs += len(ends)
        heapq.heappush(ends, b.end)
    return pairs <= PAIRS_PER_BLOCK * len(blocks)


def overlap_index(blocks: Sequence[FmBlock]) -> Callable[[], Neighbours | Windows]:
    """A maker of fresh `Neighbours` (sharing one set of lists) when few blocks are alive at
    once (`few_alive_at_once`), else of `Windows`: both give the same placements."""
    if not few_alive_at_once(blocks):
        return lambda: Windows(blocks)
    nbrs = overlapping_lists(blocks)
    return lambda: Neighbours(blocks, nbrs)


def place_by_size(blocks: Sequence[FmBlock], index: Callable[[], Neighbours | Windows] | None = None) -> list[int]:
    """Largest block first (ties: earlier begin, then key), each into the best-fitting gap
    between the already-placed blocks that overlap it in time."""
    order = sorted(range(len(blocks)), key=lambda i: (-blocks[i].size, blocks[i].begin, blocks[i].key))
    offset = [-1] * len(blocks)
    held = (index or overlap_index(blocks))()
    for i in order:
        offset[i] = o = _best_fit(blocks[i].size, held.held(i))
        held.add(i, o)
    return offset


def place_by_chains(blocks: Sequence[FmBlock], index: Callable[[], Neighbours | Windows] | None = None) -> list[int]:
    """Blocks of one size that never live at once are chained (in begin order, each joins the
    chain of that size whose last block ended latest before it begins), and a chain keeps
    one offset: a value's successor takes its slot, as GE's in-order reuse of a freed block
    of the same size does. Chains are then placed largest first, best fit."""
    chains: list[list[int]] = []
    tails: dict[int, list[tuple[int, int]]] = {}  # size -> sorted (last end, chain)
    for i in sorted(range(len(blocks)), key=lambda i: (blocks[i].begin, blocks[i].key)):
        b = blocks[i]
        lst = tails.setdefault(b.size, [])
        k = bisect.bisect_left(lst, (b.begin, -1)) - 1
        if k >= 0:
            _, c = lst.pop(k)
        else:
            c = len(chains)
            chains.append([])
        chains[c].append(i)
        bisect.insort(lst, (b.end, c))
    size = [blocks[c[0]].size for c in chains]
    first = [blocks[c[0]].begin for c in chains]
    offset = [-1] * len(blocks)
    held = (index or overlap_index(blocks))()
    for c in sorted(range(len(chains)), key=lambda c: (-size[c], first[c], c)):
        spans = sorted(s for i in chains[c] for s in held.held(i))
        o = _best_fit(size[c], spans)
        for i in chains[c]:
            offset[i] = o
            held.add(i, o)
    return offset


# -- the time sweep ---------------------------------------------------------------------------


# The time sweep's search (`place_by_sweep`): the beam width, the node positions ahead at
# which a layout's free space is scored, how far ahead the largest coming block is looked
# for, the local retries after a dead end, in turn (beam factor, positions replayed before
# it, positions after it), the retries allowed per 64 blocks, and the capacity step (a
# fraction of the bound). Chosen on bench/gen_graphs.py's graphs (bench/README.md).
SWEEP_BEAM = 4
SWEEP_HORIZONS = (1, 2, 4, 8)
SWEEP_LOOKAHEAD = 32
SWEEP_RETRIES = ((4, 16, 16), (16, 32, 32), (32, 64, 64))
SWEEP_RETRY_BUDGET = 2
SWEEP_STEP = 0.01


# A sweep layout: the blocks alive at the current position, (offset, size, end) sorted by
# offset, with the choices that led to it as a linked list (block, offset, previous choices).
_Layout = tuple[tuple[int, int, int], ...]
_Choices = tuple[int, int, "_Choices"] | None


def _sweep_step(
    states: list[tuple[_Layout, _Choices]], i: int, b: FmBlock, capacity: int, width: int, big: int
) -> list[tuple[_Layout, _Choices]]:
    """One block of the sweep: every state's blocks still alive at `b.begin`, `b` put at each
    canonical offset under `capacity` (the bottom and the top of every free gap that holds
    it), and the `width` best distinct layouts kept. A layout is ranked, at each horizon h of
    SWEEP_HORIZONS, on the free gaps left by the blocks still alive at begin + h: first the
    free bytes in gaps smaller than `big` (the largest block coming soon: bytes it cannot
    use), then the sum of the squared gaps (larger = more contiguous space); ties keep the
    earlier state, then the lower offset."""
    size, begin, end = b.size, b.begin, b.end
    horizons = [begin + h for h in SWEEP_HORIZONS]
    # how many of the horizons the new block is still alive at: only their gaps change
    alive_at = sum(1 for t in horizons if end >= t)
    scored: list[tuple[int, int, int, int, int]] = []  # (waste, -square, state, offset, k)
    lives: list[_Layout] = []
    seen_live: set[_Layout] = set()
    for si, (layout, _) in enumerate(states):
        live = tuple(x for x in layout if x[2] >= begin)
        lives.append(live)
        if live in seen_live:
            continue  # the same blocks alive as an earlier state: its children win the ties
        seen_live.add(live)
        n = len(live)
        # gap k lies below live[k] (k = n: below the capacity); at each horizon, the gap of
        # the blocks still alive then that contains it
        waste = square = 0
        containers: list[list[tuple[int, int]]] = []
        for j, t in enumerate(horizons):
            cur = pending = 0
            cont: list[tuple[int, int]] = []
            for k, (o, s, e) in enumerate(live):
                if e >= t:
                    g = o - cur
                    if g:
                        if g < big:
                            waste += g
                        square += g * g
                    cont += [(cur, o)] * (k + 1 - pending)
                    cur, pending = o + s, k + 1
            g = capacity - cur
            if g > 0:
                if g < big:
                    waste += g
                square += g * g
            if j < alive_at:
                cont += [(cur, capacity)] * (n + 1 - pending)
                containers.append(cont)
        cur = 0
        for k in range(n + 1):
            top = live[k][0] if k < n else capacity
            if top - cur >= size:
                for c in (cur, top - size) if top - size != cur else (cur,):
                    w, sq = waste, square
                    # the block splits one gap at every horizon it is still alive at
                    for cont in containers:
                        lo, hi = cont[k]
                        g, below, above = hi - lo, c - lo, hi - c - size
                        if below < big:
                            w += below
                        if above < big:
                            w += above
                        if g < big:
                            w -= g
                        sq += below * below + above * above - g * g
                    scored.append((w, -sq, si, c, k))
            if k < n:
                cur = live[k][0] + live[k][1]
    scored.sort()
    out: list[tuple[_Layout, _Choices]] = []
    seen: set[_Layout] = set()
    for _, _, si, c, k in scored:
        live = lives[si]
        child = (*live[:k], (c, size, end), *live[k:])
        if child not in seen:
            seen.add(child)
            out.append((child, (i, c, states[si][1])))
            if len(out) == width:
                break
    return out


def place_by_sweep(blocks: Sequence[FmBlock], bound: int, above: int) -> list[int] | None:
    """A time sweep under an arena size (the capacity) that starts at the lower bound: blocks
    in begin order (ties: key), each put at a canonical offset (`_sweep_step`), a beam of
    SWEEP_BEAM layouts kept. Placing in begin order, the blocks a new block may overlap in
    time are exactly the placed ones still alive at its begin (two lifetimes intersect iff
    one begins inside the other), so a layout only holds the live blocks.

    When every layout of the beam dead-ends at a block, the sweep goes back a few positions
    and replays them past the dead end with a wider beam (SWEEP_RETRIES), at most
    SWEEP_RETRY_BUDGET times per 64 blocks; when that fails too, the capacity grows by
    SWEEP_STEP of the bound and the sweep places the last positions (the longest replay)
    again under it (every layout that fits a capacity fits a larger one, so the beam there
    is still valid). Returns None once the capacity reaches `above` (no better than what the
    caller has). The work is linear in the blocks: a bounded number of layouts and offsets
    per block, a bounded number of replays, and at most (above - bound) / step growths."""
    order = sorted(range(len(blocks)), key=lambda i: (blocks[i].begin, blocks[i].key))
    n = len(order)
    # big[p]: the largest block among the next SWEEP_LOOKAHEAD in sweep order (sliding max)
    big = [0] * n
    window: deque[int] = deque()  # positions with decreasing sizes
    for p in range(n - 1, -1, -1):
        while window and blocks[order[window[-1]]].size <= blocks[order[p]].size:
            window.pop()
        window.append(p)
        if window[0] >= p + SWEEP_LOOKAHEAD:
            window.popleft()
        big[p] = blocks[order[window[0]]].size
    capacity = align(bound)
    step = align(max(1, int(bound * SWEEP_STEP)))
    beams: list[list[tuple[_Layout, _Choices]]] = [[((), None)]]
    budget = SWEEP_RETRY_BUDGET * (1 + n // 64)
    p = 0
    while p < n:
        if capacity >= above:
            return None
        nxt = _sweep_step(beams[p], order[p], blocks[order[p]], capacity, SWEEP_BEAM, big[p])
        if nxt:
            beams.append(nxt)
            p += 1
            continue
        resolved = False
        for factor, back, ahead in SWEEP_RETRIES:
            if budget == 0:
                break
            budget -= 1
            start, stop = max(0, p - back), min(n, p + 1 + ahead)
            replay = [beams[start]]
            for q in range(start, stop):
                width = SWEEP_BEAM * factor
                nxt = _sweep_step(replay[-1], order[q], blocks[order[q]], capacity, width, big[q])
                if not nxt:
                    break
                replay.append(nxt)
            else:
                del beams[start:]
                beams += replay
                p, resolved = stop, True
                break
        if not resolved:
            # a larger arena, and the last positions placed again under it
            capacity += step
            p = max(0, p - SWEEP_RETRIES[-1][1])
            del beams[p + 1 :]
    offset = [-1] * len(blocks)
    chosen = beams[n][0][1]
    while chosen is not None:
        i, o, chosen = chosen
        offset[i] = o
    return offset


# The arena / lower-bound ratio above which the sweep placement is tried (the planner's
# quality target, docs/ge/executor.md).


# -- the arena --------------------------------------------------------------------------------


SWEEP_ABOVE_BOUND = 1.10


def assign_offsets(blocks: Sequence[FmBlock], sweep: bool = True) -> int:
    """Place every block so that no two blocks alive at once overlap; returns the arena size.

    An offline interval allocator: two deterministic placements (largest block first; and
    same-size chains, largest first), each a best fit among the blocks overlapping in time
    (found through each block's list of overlapping blocks when few live at once, else
    through `Occupancy`: O(log n) run lists per block, so a graph with thousands of tensors
    alive at once stays near-linear; see `overlap_index`). When both leave the arena more
    than SWEEP_ABOVE_BOUND over the lower bound (`live_lower_bound`, aligned) and few
    blocks are alive at once (each
    of its steps costs the live blocks), a third one searches: `place_by_sweep`,
    a beam search in time order under an arena size that starts at the bound and grows only
    where the search dead-ends. It ranks each placement by the free gaps the layout leaves
    a few positions later (bytes in gaps too small for the largest coming block count as
    lost) and keeps several layouts, so the slots of a repeating pattern can slide instead
    of staying in fixed lanes (the greedy placements keep the lanes, which on the diamond
    graphs of bench/gen_graphs.py costs 18 % over the bound). The smallest arena wins (ties: the
    earlier placement). GE's BlockMemAssigner (block_mem_assigner.cc: ReuseBlock /
    ApplyMemory) reuses freed blocks in node order under the same rule: two tensors alive
    at the same node never share bytes. `sweep=False` leaves the sweep out (the exact
    solver from best fit's plan costs less in all than the sweep and then the solver:
    bench/README.md).
    """
    best: list[int] | None = None
    best_top = 0
    index = overlap_index(blocks)
    for place in (place_by_size, place_by_chains):
        offset = place(blocks, index)
        top = max((o + b.size for o, b in zip(offset, blocks)), default=0)
        if best is None or top < best_top:
            best, best_top = offset, top
    assert best is not None or not blocks
    bound = live_lower_bound(blocks)
    # the sweep's layouts hold every live block: only when few are alive at once; and only
    # when best fit misses SWEEP_ABOVE_BOUND (the sweep costs ~1 s per 10k blocks even when
    # it cannot improve, e.g. bench `mixed` 10k: best fit 1.030, the sweep no better)
    if sweep and best_top > SWEEP_ABOVE_BOUND * align(bound) and few_alive_at_once(blocks):
        swept = place_by_sweep(blocks, bound, best_top)
        if swept is not None:
            top = max(o + b.size for o, b in zip(swept, blocks))
            if top < best_top:
                best, best_top = swept, top
    for b, o in zip(blocks, best or ()):
        b.offset = o
    return best_top


def live_lower_bound(blocks: Sequence[FmBlock]) -> int:
    """The largest total size of blocks alive at one node position."""
    delta: dict[int, int] = {}
    for b in blocks:
        delta[b.begin] = delta.get(b.begin, 0) + b.size
        delta[b.end + 1] = delta.get(b.end + 1, 0) - b.size
    cur = best = 0
    for t in sorted(delta):
        cur += delta[t]
        best = max(best, cur)
    return best
