"""Byte-range states of one memory region: the address analysis that task generation
(lowering/ge_to_npu.py: which task last wrote, and which read since, each byte range) and
the device simulator (runtime/simulator.py: owners, shadow copies, live bytes) share.

Not IR: a plain data structure over the byte ranges of npu addresses. It lives in
ge_dialect, not runtime/, because lowering uses it too and lowering imports ge_dialect only.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable


class IntervalMap:
    """Disjoint byte segments [start, end) of one region, each with a state; the rest of
    the region has none. Segments split where an update's bounds fall inside them, so the
    number of segments stays of the order of the number of tensors, whatever their bytes."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.states: list[object] = []

    def _split(self, x: int) -> None:
        i = bisect.bisect_right(self.starts, x) - 1
        if i >= 0 and self.starts[i] < x < self.ends[i]:
            self.starts.insert(i + 1, x)
            self.ends.insert(i + 1, self.ends[i])
            self.states.insert(i + 1, self.states[i])
            self.ends[i] = x

    def covered(self, start: int, end: int) -> list[tuple[int, int, object]]:
        """The segments (clipped to [start, end)) that have a state, in address order."""
        out = []
        i = max(bisect.bisect_right(self.starts, start) - 1, 0)
        while i < len(self.starts) and self.starts[i] < end:
            s, e = max(self.starts[i], start), min(self.ends[i], end)
            if s < e:
                out.append((s, e, self.states[i]))
            i += 1
        return out

    def gaps(self, start: int, end: int) -> list[tuple[int, int]]:
        """The sub-ranges of [start, end) no segment covers."""
        out, pos = [], start
        for s, e, _ in self.covered(start, end):
            if s > pos:
                out.append((pos, s))
            pos = e
        if pos < end:
            out.append((pos, end))
        return out

    def unset_bytes(self, start: int, end: int) -> int:
        """How many bytes of [start, end) have no state or a false one (a count of 0)."""
        n = end - start
        for s, e, st in self.covered(start, end):
            if st:
                n -= e - s
        return n

    def update(self, start: int, end: int, fn: Callable[[object | None], object]) -> None:
        """Replace the state of every byte of [start, end) by fn(old state or None)."""
        if start >= end:
            return
        self._split(start)
        self._split(end)
        lo = bisect.bisect_left(self.starts, start)
        hi = bisect.bisect_left(self.starts, end)
        new: list[tuple[int, int, object]] = []
        pos = start
        for i in range(lo, hi):
            if self.starts[i] > pos:
                new.append((pos, self.starts[i], fn(None)))
            new.append((self.starts[i], self.ends[i], fn(self.states[i])))
            pos = self.ends[i]
        if pos < end:
            new.append((pos, end, fn(None)))
        self.starts[lo:hi] = [n[0] for n in new]
        self.ends[lo:hi] = [n[1] for n in new]
        self.states[lo:hi] = [n[2] for n in new]

    def assign(self, start: int, end: int, state: object) -> None:
        """Give every byte of [start, end) the one state `state`: the segments there become
        one (a write's shadow state, the same for all its bytes, does not fragment the map)."""
        if start >= end:
            return
        self._split(start)
        self._split(end)
        lo = bisect.bisect_left(self.starts, start)
        hi = bisect.bisect_left(self.starts, end)
        self.starts[lo:hi] = [start]
        self.ends[lo:hi] = [end]
        self.states[lo:hi] = [state]

    def add(self, start: int, end: int, d: int) -> int:
        """Add `d` to the count (an int state; none counts 0) of every byte of [start, end);
        returns by how much the number of bytes with a nonzero count grew. Touching segments
        left with equal counts become one (a map changed only by `add` never holds two)."""
        if start >= end or d == 0:
            return 0
        self._split(start)
        self._split(end)
        lo = bisect.bisect_left(self.starts, start)
        hi = bisect.bisect_left(self.starts, end)
        starts, ends, states = self.starts, self.ends, self.states
        new_s: list[int] = []
        new_e: list[int] = []
        new_c: list[object] = []
        grown = 0
        pos = start

        def put(s: int, e: int, c: int) -> None:
            if new_c and new_c[-1] == c and new_e[-1] == s:
                new_e[-1] = e
            else:
                new_s.append(s)
                new_e.append(e)
                new_c.append(c)

        for i in range(lo, hi):
            s, e = starts[i], ends[i]
            if s > pos:  # a gap: count 0 -> d
                put(pos, s, d)
                grown += s - pos
            c = states[i] or 0
            n = c + d  # type: ignore[operator]
            grown += (e - s) * ((n != 0) - (c != 0))
            put(s, e, n)
            pos = e
        if pos < end:
            put(pos, end, d)
            grown += end - pos
        # the neighbours outside [start, end) with the count of the new first / last segment
        if hi < len(starts) and starts[hi] == new_e[-1] and states[hi] == new_c[-1]:
            new_e[-1] = ends[hi]
            hi += 1
        if lo > 0 and ends[lo - 1] == new_s[0] and states[lo - 1] == new_c[0]:
            new_s[0] = starts[lo - 1]
            lo -= 1
        starts[lo:hi], ends[lo:hi], states[lo:hi] = new_s, new_e, new_c
        return grown
