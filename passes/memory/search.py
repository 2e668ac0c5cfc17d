"""The feature-map planner's own searches, beside CP-SAT (exact.py): no model to build, so no
fixed cost per question, and a count of nodes as their deterministic work limit.

Both answer exact.py's decision "place these items under `target`": an item is (time
from, time to exclusive, units), a fixed box (time from, to, units, offset) is a block the
decision must leave where it is, and offsets are in units.

* `skyline`: a complete branch and bound for items without fixed boxes. When it finishes
  its answer is a proof (a plan, or none exists under the target); cut by its node limit it
  answers UNKNOWN.
* `dive`: a depth-first placement in time order at the ends of the free gaps, with fixed
  boxes, cut by its node limit. It only finds plans: its offsets are not every offset, so
  an exhausted dive proves nothing.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

FEASIBLE, INFEASIBLE, UNKNOWN = "feasible", "infeasible", "unknown"


# The pruning rules of `skyline` (3 and 5), on unless a test or a study turns one off: the
# answers are the same without them, the searches longer.
RULE_FIRST_AT_HEIGHT = True
RULE_SPACE = True


class _Cut(Exception):
    """The node limit was reached."""


class _Skyline:
    """The state of `skyline`'s search: heights per elementary time slot, remaining units
    alive per slot, the items by their first slot."""

    def __init__(self, items: Sequence[tuple[int, int, int]], target: int, limit: int) -> None:
        points = sorted({t for t0, t1, _ in items for t in (t0, t1)})
        slot = {t: k for k, t in enumerate(points)}
        self.slots = max(0, len(points) - 1)
        # item k covers slots [first[k], last[k]]
        self.first = [slot[t0] for t0, _, _ in items]
        self.last = [slot[t1] - 1 for _, t1, _ in items]
        self.units = [u for _, _, u in items]
        self.by_first: list[list[int]] = [[] for _ in range(self.slots)]
        # candidates in begin order, larger first on a tie, then input order
        for k in sorted(range(len(items)), key=lambda k: (self.first[k], -self.units[k], k)):
            self.by_first[self.first[k]].append(k)
        delta = [0] * (self.slots + 1)
        for k, u in enumerate(self.units):
            delta[self.first[k]] += u
            delta[self.last[k] + 1] -= u
        self.rem: list[int] = []  # units of the unplaced items alive in each slot
        acc = 0
        for s in range(self.slots):
            acc += delta[s]
            self.rem.append(acc)
        self.target = target
        self.limit = limit
        self.nodes = 0
        self.placed = [False] * len(items)
        self.offset = [0] * len(items)
        self.left = len(items)

    def run(self, h: list[int]) -> bool:
        """Whether the unplaced items fit above the heights `h` (every unplaced item lies
        above h in every solution this node stands for)."""
        if self.nodes >= self.limit:
            raise _Cut
        self.nodes += 1
        if self.left == 0:
            return True
        m, lo, hi = self._lowest_run(h)
        left_h = h[lo - 1] if lo > 0 else None
        right_h = h[hi + 1] if hi + 1 < self.slots else None
        # Rule 2: the item resting at height m that begins first in [lo, hi] (each item
        # wholly inside the run, under the target, in turn), or none (rule 4)
        for s in range(lo, hi + 1):
            for k in self.by_first[s]:
                if self.placed[k] or self.last[k] > hi or m + self.units[k] > self.target:
                    continue
                if self._place_first(k, h, m, lo, left_h):
                    return True
        return self._rise(h, lo, hi, left_h, right_h)

    def _lowest_run(self, h: list[int]) -> tuple[int, int, int]:
        """Rule 1: the lowest slot, leftmost on a tie, and the run of slots at its height:
        (height, first slot, last slot)."""
        m = min(h)
        lo = h.index(m)
        hi = lo
        while hi + 1 < self.slots and h[hi + 1] == m:
            hi += 1
        return m, lo, hi

    def _place_first(self, k: int, h: list[int], m: int, lo: int, left_h: int | None) -> bool:
        """The branch of rule 2 where item k is the first item at height m in the run
        starting at slot lo: whether the rest then fit (k is left unplaced when not)."""
        rem, u, a, b = self.rem, self.units[k], self.first[k], self.last[k]
        nh = h[:]
        for s2 in range(a, b + 1):
            nh[s2] = m + u
        # Rule 3: k is the first item at height m in the run, so nothing rests at
        # m in [lo, a): those slots rise to the lower of their neighbours
        if a > lo and RULE_FIRST_AT_HEIGHT:
            level = m + u if left_h is None else min(left_h, m + u)
            # Rule 5: the items alive in a slot fit between its height and the target
            if RULE_SPACE and any(level + rem[s2] > self.target for s2 in range(lo, a)):
                return False
            for s2 in range(lo, a):
                nh[s2] = level
        self.placed[k] = True
        self.offset[k] = m
        self.left -= 1
        for s2 in range(a, b + 1):
            rem[s2] -= u
        found = self.run(nh)
        for s2 in range(a, b + 1):
            rem[s2] += u
        if found:
            return True
        self.placed[k] = False
        self.left += 1
        return False

    def _rise(self, h: list[int], lo: int, hi: int, left_h: int | None, right_h: int | None) -> bool:
        """Rule 4: nothing rests at the run's height in [lo, hi]: the run rises to its lower
        neighbour (with no neighbour, nothing is left above it, so unplaced items cannot
        fit)."""
        if left_h is None and right_h is None:
            return False
        level = min(x for x in (left_h, right_h) if x is not None)
        if RULE_SPACE and any(level + self.rem[s] > self.target for s in range(lo, hi + 1)):
            return False
        nh = h[:]
        for s in range(lo, hi + 1):
            nh[s] = level
        return self.run(nh)


def skyline(items: Sequence[tuple[int, int, int]], target: int, limit: int) -> tuple[str, list[int] | None, int]:
    """Offsets (units) for `items` (time from, time to exclusive, units > 0) under `target`,
    searched exhaustively within `limit` nodes: (status, offsets or None, nodes used).

    A plan can be pushed down until every item rests on the floor or on an item alive with
    it, and such a plan, read in order of offsets, places each item at the highest top of
    the items before it in its lifetime: a skyline. The search builds skylines from the
    lowest run of time slots at one height (rule 1): either the first item (in begin
    order) lying at that height in the run is one of the items wholly inside it (rule 2:
    one branch each, and the run's slots before it rise, rule 3), or none is, and the run
    rises to its lower neighbour (rule 4), the space below being waste. A branch ends when
    some slot's remaining items no longer fit between its height and the target (rule 5).
    The branches of a node split its plans without overlap, and every pushed-down plan is
    in one, so an exhausted search proves that none exists."""
    if not items:
        return FEASIBLE, [], 0
    state = _Skyline(items, target, limit)
    if RULE_SPACE and any(r > target for r in state.rem):
        return INFEASIBLE, None, 0
    try:
        found = state.run([0] * state.slots)
    except _Cut:
        return UNKNOWN, None, state.nodes
    return (FEASIBLE, state.offset, state.nodes) if found else (INFEASIBLE, None, state.nodes)


def dive(
    free: Sequence[tuple[int, int, int]], fixed: Sequence[tuple[int, int, int, int]], target: int, limit: int
) -> tuple[list[int] | None, int]:
    """Offsets (units) for `free` beside `fixed` under `target`, found depth first within
    `limit` nodes: items in begin order (larger first on a tie), each at the bottom or the
    top of a free gap that holds it (the tightest gap first, then the lower), the gaps of
    the fixed boxes alive in its lifetime and of the items placed before it still alive
    at its begin (in begin order, exactly the placed items it meets). Returns (offsets or
    None, nodes used); None proves nothing."""
    n = len(free)
    if n == 0:
        return [], 0
    order = sorted(range(n), key=lambda k: (free[k][0], -free[k][2], k))
    # running max of the ends in order: the items before q all end by reach[q]
    reach: list[int] = []
    top = -(10**18)
    for k in order:
        reach.append(top)
        top = max(top, free[k][1])
    reach.append(top)
    boxes = sorted(fixed)
    box_begins = [b[0] for b in boxes]
    offset = [0] * n

    def gaps(p: int) -> list[int]:
        k = order[p]
        t0, t1, u = free[k]
        spans = [(o, o + s) for b0, b1, s, o in boxes[: bisect.bisect_left(box_begins, t1)] if b1 > t0]
        # the placed items still alive at t0: only after the last position whose prefix
        # of ends is <= t0 (every item before it has ended)
        q = bisect.bisect_right(reach, t0, 0, p + 1) - 1
        for r in range(max(q, 0), p):
            j = order[r]
            if free[j][1] > t0:
                spans.append((offset[j], offset[j] + free[j][2]))
        spans.sort()
        holes: list[tuple[int, int]] = []
        cur = 0
        for a, b in (*spans, (target, target)):
            if a - cur >= u:
                holes.append((cur, a))
            cur = max(cur, b)
        holes.sort(key=lambda g: (g[1] - g[0], g[0]))
        out: list[int] = []
        for a, b in holes:
            out.append(a)
            if b - u != a:
                out.append(b - u)
        return out

    choices = [gaps(0)]
    at = [0]
    nodes = 1
    p = 0
    while True:
        if at[p] < len(choices[p]):
            offset[order[p]] = choices[p][at[p]]
            at[p] += 1
            p += 1
            if p == n:
                return offset, nodes
            if nodes >= limit:
                return None, nodes
            nodes += 1
            if p == len(choices):
                choices.append(gaps(p))
                at.append(0)
            else:
                choices[p] = gaps(p)
                at[p] = 0
        else:
            p -= 1
            if p < 0:
                return None, nodes
