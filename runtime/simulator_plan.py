"""The device simulator's check plan: its memory checks on byte ranges fixed when the model
loads, as GE prepares a model's task args once (DavinciModel::Init) and not per execution.

Every range the simulator's checks look at is static: a task reads and writes its
operands' addresses, a tensor of the table keeps its range, a label_switch marks its
branch outputs. Cut at every such bound, each region falls into **atoms** (the byte ranges
between two consecutive bounds), and every checked range is a run of whole atoms. The
plan (`CheckPlan`, made once per load and per extent of the host-written buffers) gives
each operand its run of atoms; `PlannedChecks` keeps the shadow state per atom in plain
lists (the writer's epoch, the last read per stream, the pending-read count of the
feature map) instead of runtime/simulator.py's interval maps, so a read or a write is a
walk over a few list items: no search, no split, no new segment.

The rules stay in runtime/simulator.py (`_Execution`). The plan decides only whether a
task faults; when it does, the execution is replayed by the rules, checks and
bookkeeping only (no kernel runs; each label_switch takes the index this execution
read), and the rules' fault is raised: the same message, range and task as the rules
alone give, whatever the plan's atoms. The checks the plan makes are the rules', term
for term (`_Execution.read_range`, `write_range`, `account`); one shortcut is exact:
an epoch of the reading or writing task's own stream always happens before it (program
order: a stream's clock only grows), so only other streams' epochs are compared.

`load(model, plan=False)` or the environment variable GE_SIM_PLAIN=1 runs the rules
alone (the interpretive path); results and faults are the same either way
(tests/runtime/test_simulator_plan.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["CheckPlan", "PlannedChecks", "check_plan"]

# the host's writes (inputs, weights, variables): before every task, on every stream
HOST = (-1, 0, "the host", -2)


class CheckPlan:
    """Per region, the atoms' bounds (`bounds`), sizes (`sizes`) and each bound's atom
    index (`at`): the first atom of a range starting there, or the end of one ending there."""

    def __init__(self, m: Any, extents: dict[str, int]):  # m: runtime/simulator.py's LoadedModel
        cuts: dict[str, set[int]] = {r: {0, size} for r, size in m.region_sizes.items()}
        for r, n in extents.items():
            cuts.setdefault(r, {0}).add(n)
        for r, lo, hi in m.table.range.values():
            cuts.setdefault(r, {0}).update((lo, hi))
        for t in m.tasks:
            for o in (*t.ins, *t.outs, *t.pending):
                cuts.setdefault(o.region, {0}).update((o.offset, o.end))
        self.bounds = {r: sorted(c) for r, c in cuts.items()}
        self.at = {r: {x: i for i, x in enumerate(b)} for r, b in self.bounds.items()}
        self.sizes = {r: [hi - lo for lo, hi in zip(b, b[1:])] for r, b in self.bounds.items()}


def check_plan(m: Any, extents: dict[str, int]) -> CheckPlan:
    """The check plan of loaded model `m` for these extents of its host-written regions,
    made once."""
    key = tuple(sorted(extents.items()))
    plan = m.check_plans.get(key)
    if not isinstance(plan, CheckPlan):
        plan = m.check_plans[key] = CheckPlan(m, extents)
    return plan


class PlannedChecks:
    """The checks of one execution on the model's check plan: the shadow state kept per
    atom. A mixin over the rules' execution (runtime/simulator.py `_Execution`), which
    gives the state and methods declared here; `refute` replays the execution by the rules."""

    m: Any  # the LoadedModel
    vc: list[list[int]]
    live_bytes: int
    check_live: Callable[[Any, Any, int, int], None]
    mark_written: Callable[[Any], None]
    refute: Callable[[Any], BaseException]

    def init_shadow(self, bound: dict[str, np.ndarray]) -> None:
        m = self.m
        extents = m.host_extents(bound)
        plan = check_plan(m, extents)
        self.at = plan.at
        n = m.n_streams
        # per region and atom: the last writer's epoch (stream, clock, label, task), HOST,
        # or None (not written in this execution); per region, stream and atom: the last read
        self.writer: dict[str, list[tuple[int, int, str, int] | None]] = {}
        self.reader: dict[str, list[list[tuple[int, int, str, int] | None]]] = {}
        for r, b in plan.bounds.items():
            k = len(b) - 1
            w: list[tuple[int, int, str, int] | None] = [None] * k
            if r in extents:
                end = plan.at[r][extents[r]]
                w[:end] = [HOST] * end
            self.writer[r] = w
            self.reader[r] = [[None] * k for _ in range(n)]
        # the fm bytes still to be read: a pending-read count per atom
        self.fm_at = plan.at.get("fm", {0: 0})
        self.fm_sizes = plan.sizes.get("fm", [])
        self.count = [0] * len(self.fm_sizes)

    # -- the rules' checks on atoms (runtime/simulator.py _Execution.read_range / write_range)

    def read(self, t: Any, o: Any) -> None:
        r = o.region
        at = self.at[r]
        i0, i1 = at[o.offset], at[o.end]
        w_at = self.writer[r]
        s = t.stream
        vcs = self.vc[s]
        span = w_at[i0:i1]
        if span and span.count(span[0]) == len(span):  # one writer over the range (the usual case)
            span = span[:1]
        for w in span:
            if w is HOST:
                continue
            if w is None:  # read of uninitialised memory (or a race with a writer yet to run)
                raise self.refute(t)
            # a pending branch output, stale bytes of another tensor, a race
            if w[3] not in self.m.table.writers_of(o.tensor) or (w[0] != s and w[1] > vcs[w[0]]):
                raise self.refute(t)
        self.reader[r][s][i0:i1] = [(s, vcs[s], t.label, t.index)] * (i1 - i0)

    def write(self, t: Any, o: Any) -> None:
        r = o.region
        if r == "weight":
            raise self.refute(t)
        at = self.at[r]
        i0, i1 = at[o.offset], at[o.end]
        w_at = self.writer[r]
        readers = self.reader[r]
        s = t.stream
        vcs = self.vc[s]
        if len(readers) > 1:  # races need another stream
            for i in range(i0, i1):
                w = w_at[i]
                if w is not None and w is not HOST and w[0] != s and w[1] > vcs[w[0]]:
                    raise self.refute(t)
                for q, rq in enumerate(readers):
                    rd = rq[i]
                    if q != s and rd is not None and rd[1] > vcs[q]:
                        raise self.refute(t)
        self.check_live(t, o, o.offset, o.end)  # the rules' own check (no shadow state)
        w_at[i0:i1] = [(s, vcs[s], t.label, t.index)] * (i1 - i0)
        none = [None] * (i1 - i0)
        for rq in readers:
            rq[i0:i1] = none
        self.mark_written(o)

    def mark_pending(self, t: Any) -> None:
        s = t.stream
        mark = (s, self.vc[s][s], t.label, -1)  # simulator.PENDING_WRITER: never a writer of a tensor
        for p in t.pending:
            at = self.at[p.region]
            i0, i1 = at[p.offset], at[p.end]
            self.writer[p.region][i0:i1] = [mark] * (i1 - i0)
            none = [None] * (i1 - i0)
            for rq in self.reader[p.region]:
                rq[i0:i1] = none

    def live_add(self, lo: int, hi: int, d: int) -> None:
        count, sizes, grown = self.count, self.fm_sizes, 0
        i0, i1 = self.fm_at[lo], self.fm_at[hi]
        if i0 == i1:
            return
        c = count[i0]
        if count[i0:i1].count(c) == i1 - i0:  # one count over the range: one update
            n = c + d
            count[i0:i1] = [n] * (i1 - i0)
            self.live_bytes += (hi - lo) * ((n != 0) - (c != 0))
            return
        for i in range(i0, i1):
            c = count[i]
            n = count[i] = c + d
            if not c:
                if n:
                    grown += sizes[i]
            elif not n:
                grown -= sizes[i]
        self.live_bytes += grown

    def unset_bytes(self, lo: int, hi: int) -> int:
        count, sizes = self.count, self.fm_sizes
        i0, i1 = self.fm_at[lo], self.fm_at[hi]
        if count[i0:i1].count(0) == i1 - i0:
            return hi - lo
        return sum(sizes[i] for i in range(i0, i1) if not count[i])
