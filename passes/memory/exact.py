"""The exact feature-map placement: own searches and CP-SAT on the blocks a heuristic
already placed.

A block is a number of bytes alive over an inclusive range of node positions [begin, end];
a plan gives every block an offset so that no two blocks alive at a common position share
a byte, and its peak is the highest byte any block reaches. `exact_offsets` improves a
valid plan (the hint) and never returns a worse one. Everything is in units of
`ExactOptions.align` bytes (the project's 512-byte blocks: block_mem_assigner.cc:
GetBlockSize rounds every block up to MEM_ALIGN_SIZE, and the arena starts aligned), so the
bounds proven here are bounds over plans whose offsets are multiples of the alignment, as
every plan of ge-assign-memory is.

A decision ("every free block under T", beside fixed blocks) is asked first of the own
searches (search.py, no model to build, `_search`): the skyline branch and bound when
nothing is fixed and at most SKYLINE_BLOCKS blocks are free (complete: a plan, or a proof
that none exists; cut after SKYLINE_NODES nodes per block), then the dive (a plan or
nothing; DIVE_NODES nodes per block). Unanswered, it goes to one CP-SAT model (`_solve`):
one interval per block in time (fixed) and one in address (its start the offset
variable), with one AddNoOverlap2D over all of them, or, for a whole component (nothing
fixed), one AddNoOverlap per maximal clique of the lifetimes without presolve and one of
the largest blocks kept in the lower half (the mirror image of a plan is a plan);
a whole component's models branch on precedences ("block a below block b" between two
blocks of one clique, CP-SAT's precedence search on no-overlaps) rather than on offsets;
OR-tools CP-SAT on one worker, a fixed seed and a deterministic work limit (CP-SAT's
deterministic time, a count of its own work, not seconds). Both limits are counts of work
(nodes, deterministic time), so the same blocks give the same offsets on any machine
under any load. A model is a decision or a minimisation of the top.

The search:
1. Components. Where no block is alive on both sides of a position, the blocks before
   and after never meet: each such time component is planned alone, the arena is the
   largest component peak, and the largest component bound is a bound of the whole.
2. The target T starts at the best bound known (at first the lower bound LB, the most
   units alive at one position, a bound of every plan); a component already at the target
   is left as it is, the one with the highest peak goes first.
3. At a target T, a component is brought under T by, in turn, and the first that works:
   a. repair windows (components of more than 2 x WINDOW_BLOCKS blocks): for the first
      block above T in begin order, a window of the WINDOW_BLOCKS blocks beginning around
      it (widened once to take in the blocks above T that cross its ends); the blocks
      wholly inside it are free, the blocks crossing its ends stay where the plan has them,
      and the decision at T is asked. Every block alive in the window is in the decision,
      so a plan keeps the whole plan valid. A failing window doubles, up to REPAIR_BLOCKS;
   b. a component of at most MODEL_BLOCKS blocks: the own searches at T (a skyline proof
      moves on to T + 1, proven); unanswered, dives at T + 1, T + 2, T + 4, ...
      (ASCENT_STEPS) for a plan close above; then decision models bisect between the proven bound and
      the plan's peak (a plan lowers the peak, an infeasible answer at s proves s + 1), at
      most BISECT_MODELS of them, after which the top is minimised between the bound and
      the peak - 1 with the plan as the hint (the solver's objective bound is then the
      component's bound);
   c. a larger component: a rebuild in time, CHUNK_BLOCKS blocks at a time in begin order,
      each chunk decided at T beside the placed blocks still alive at its first begin
      (the plan's offsets are the hint); a failing chunk is merged with the chunks before
      it, up to MERGE_BLOCKS blocks. When the merge reaches the first block nothing is
      fixed, so an infeasible answer there proves T + 1; otherwise the failing window's
      relaxation is decided at T: every block alive in the window, all free, their lives
      cut to the window. It is a sub-instance (fewer blocks, shorter lives), so when it
      cannot be packed under T neither can the whole, and T + 1 is proven.
   When T fails, the next target is T + 1, or, after unproven failures in a row, a step
   that doubles each time (the search keeps what it repaired and only loses tightness).
The bound proven for the combination is the largest of LB, the components' minimisation
bounds and the T + 1 of every infeasible decision or relaxation (a skyline search that
finished, or a model); the plan is optimal when its peak equals it, else the gap is
peak / bound - 1. A search cut by its node limit, or a model by its work limit, proves
nothing. The limits are shared by all decisions of one instance, in order: each gets what
is left, a model at most CALL_SHARE of the work limit for a whole component and
WINDOW_WORK for a window or a chunk (a window that needs more is widened instead), a
search at most its nodes per block. The constants were chosen on bench/bench_memory.py's
graphs (bench/README.md).
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from passes.memory.search import FEASIBLE, INFEASIBLE, UNKNOWN, dive, skyline

if TYPE_CHECKING:
    from ortools.sat.python import cp_model_helper as cmh


class Lifetime(Protocol):
    """What the planner needs of a block: its bytes and its inclusive lifetime."""

    @property
    def begin(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def size(self) -> int: ...


# The search's sizes and work shares (module docstring).
MODEL_BLOCKS = 256
SKYLINE_BLOCKS = 128
SKYLINE_NODES = 4
DIVE_NODES = 4
ASCENT_STEPS = 4
BISECT_MODELS = 4
WINDOW_BLOCKS = 48
REPAIR_BLOCKS = 192
CHUNK_BLOCKS = 64
MERGE_BLOCKS = 512
CALL_SHARE = 0.5
WINDOW_WORK = 0.004
CLIQUE_ENTRIES = 8
# A whole component's models branch on "block a below block b" (module docstring); on
# unless a test or a study turns it off: the answers are the same, the proofs longer
PRECEDENCE_BRANCHING = True


@dataclass(frozen=True)
class ExactOptions:
    """work_limit: CP-SAT deterministic time for the whole instance (all its models);
    node_limit: nodes of the own searches (search.py) for the whole instance; seed:
    CP-SAT's random seed; align: the unit of sizes and offsets, in bytes."""

    work_limit: float = 0.5
    node_limit: int = 100_000
    seed: int = 0
    align: int = 512


@dataclass
class ExactPlan:
    """The better of the hint and the solver's plan, with what is proven about it (bytes)."""

    offsets: list[int]
    peak: int
    heuristic_peak: int
    lower_bound: int
    proven_bound: int
    work: float  # deterministic time spent
    models: int  # CP-SAT models solved
    nodes: int = 0  # nodes of the own searches
    searches: int = 0  # own searches run

    @property
    def optimal(self) -> bool:
        return self.peak <= self.proven_bound

    @property
    def gap(self) -> float:
        """peak / proven bound - 1 (0.0 when optimal)."""
        return self.peak / self.proven_bound - 1.0 if self.proven_bound else 0.0


# -- one CP-SAT model ---------------------------------------------------------------------------


@dataclass
class _Result:
    status: str
    offsets: list[int] | None  # units, per free item, when a plan was found
    top: int  # the plan's top (units) when found
    bound: int  # minimise: a lower bound on the top of any plan of the model, given none under lo


class _Budget:
    def __init__(self, options: ExactOptions) -> None:
        self.total = options.work_limit
        self.used = 0.0
        self.models = 0
        self.branches = 0  # CP-SAT's search branches over all its models
        self.seed = options.seed
        self.node_total = options.node_limit
        self.nodes = 0
        self.searches = 0

    def left(self) -> float:
        return max(0.0, self.total - self.used)

    def nodes_left(self) -> int:
        return max(0, self.node_total - self.nodes)

    def any_left(self) -> bool:
        """CP-SAT work or own-search nodes left."""
        return self.left() > 0.0 or self.nodes_left() > 0


def _search(
    free: Sequence[tuple[int, int, int]],
    fixed: Sequence[tuple[int, int, int, int]],
    target: int,
    budget: _Budget,
    proof: bool = True,
) -> tuple[str, list[int] | None]:
    """The own searches on a decision, before any model (module docstring, step 3): the
    skyline branch and bound when nothing is fixed and the items are few (`proof`: it may
    run), then the dive. (status, offsets); UNKNOWN when neither answered."""
    if proof and not fixed and len(free) <= SKYLINE_BLOCKS:
        limit = min(budget.nodes_left(), SKYLINE_NODES * len(free))
        if limit > 0:
            status, offsets, used = skyline(free, target, limit)
            budget.nodes += used
            budget.searches += 1
            if status != UNKNOWN:
                return status, offsets
    limit = min(budget.nodes_left(), DIVE_NODES * len(free))
    if limit <= 0:
        return UNKNOWN, None
    offsets, used = dive(free, fixed, target, limit)
    budget.nodes += used
    budget.searches += 1
    return (FEASIBLE, offsets) if offsets is not None else (UNKNOWN, None)


INT64_MIN = -(2**63)


def _interval(model: cmh.CpModelProto, start: int | None, offset: int, size: int) -> int:
    """A fixed-size interval [var `start` + offset, + size) (`start` None: a constant
    interval at `offset`); returns its constraint index. The proto CpModel's
    new_fixed_size_interval_var writes (tests/passes/memory/test_memory_exact.py compares)."""
    c = model.constraints.add().interval
    if start is not None:
        c.start.vars.append(start)
        c.start.coeffs.append(1)
        c.end.vars.append(start)
        c.end.coeffs.append(1)
        c.end.offset = offset + size
    else:
        c.start.offset = offset
        c.end.offset = offset + size
    c.size.offset = size
    return len(model.constraints) - 1


def _linear_le(model: cmh.CpModelProto, terms: Sequence[tuple[int, int]], rhs: int) -> None:
    """sum(coeff x var) <= rhs over distinct vars, as CpModel.add writes it (vars in index
    order)."""
    c = model.constraints.add().linear
    for v, a in sorted(terms):
        c.vars.append(v)
        c.coeffs.append(a)
    c.domain.extend((INT64_MIN, rhs))


def _model(
    free: Sequence[tuple[int, int, int]],
    fixed: Sequence[tuple[int, int, int, int]],
    lo: int,
    hi: int,
    hint: Sequence[int | None],
    minimise: bool,
    cliques: bool,
) -> tuple[cmh.CpModelProto, list[int], bool]:
    """`_solve`'s model as a CpModelProto, built directly (OR-tools' Python CpModel imports
    pandas and numpy: 0.3 s of CPU once per process, more than the pass on most graphs):
    (model, the offset variables, whether the cliques were used)."""
    # OR-tools' C++ model and solver bindings only, imported when a model is first built
    from ortools.sat.python import cp_model_helper as cmh

    model = cmh.CpModelProto()

    def var(a: int, b: int, name: str = "") -> int:
        v = model.variables.add()
        if name:
            v.name = name
        v.domain.extend((a, b))
        return len(model.variables) - 1

    times: list[int] = []
    addrs: list[int] = []
    xs: list[int] = []
    top = var(lo, hi, "top") if minimise else None
    hints: list[tuple[int, int]] = []
    for k, (t0, t1, s) in enumerate(free):
        x = var(0, hi - s)
        xs.append(x)
        times.append(_interval(model, None, t0, t1 - t0))
        addrs.append(_interval(model, x, 0, s))
        if top is not None:
            _linear_le(model, ((x, 1), (top, -1)), -s)
        h = hint[k]
        if h is not None and 0 <= h <= hi - s:
            hints.append((x, h))
    for t0, t1, s, o in fixed:
        times.append(_interval(model, None, t0, t1 - t0))
        addrs.append(_interval(model, None, o, s))
    lives = [(t0, t1) for t0, t1, _ in free] + [(t0, t1) for t0, t1, _, _ in fixed]
    groups = _maximal_cliques(lives) if cliques else None
    if groups is None:
        c2 = model.constraints.add().no_overlap_2d
        c2.x_intervals.extend(times)
        c2.y_intervals.extend(addrs)
    else:
        for g in groups:
            model.constraints.add().no_overlap.intervals.extend([addrs[k] for k in g])
    if free and not fixed and top is None:
        # mirrored (offset -> hi - units - offset) a plan under hi is one too: one of the
        # largest items (the first) may be kept in the lower half; it halved the proofs of
        # bench/bench_memory.py's small fused graphs
        k = max(range(len(free)), key=lambda k: (free[k][2], -k))
        _linear_le(model, ((xs[k], 2),), hi - free[k][2])
    if top is not None:
        model.objective.vars.append(top)
        model.objective.coeffs.append(1)
        model.objective.scaling_factor = 1
    for x, h in hints:
        model.solution_hint.vars.append(x)
        model.solution_hint.values.append(h)
    return model, xs, groups is not None


def _solve(
    free: Sequence[tuple[int, int, int]],
    fixed: Sequence[tuple[int, int, int, int]],
    lo: int,
    hi: int,
    hint: Sequence[int | None],
    budget: _Budget,
    limit: float,
    minimise: bool,
    prove: bool = False,
    cliques: bool = False,
) -> _Result:
    """Offsets (units) for the `free` items (time from, time to exclusive, units) beside the
    `fixed` boxes (time from, to, units, offset), every item under `hi`. With `minimise`,
    the lowest top in [lo, hi]; else the decision "every item under hi" (lo unused).
    `hint`: a starting offset per free item (None: no hint); `limit`: the most work this
    model may take (less when the budget has less left); `prove`: a model whose answer is
    more often a proof than a plan (a whole component, a relaxation, a minimisation);
    `cliques`: one no-overlap in address per maximal clique of the lifetimes instead of the
    no-overlap in time x address, and no presolve (the cliques are what the presolve
    derives; without it a whole component's decisions took 10 to 50 % less time)."""
    from ortools.sat.python import cp_model_helper as cmh

    limit = min(budget.left(), limit)
    if limit <= 0.0:
        return _Result(UNKNOWN, None, 0, lo if minimise else 0)
    model, xs, cliques = _model(free, fixed, lo, hi, hint, minimise, cliques)
    p = cmh.SatParameters()
    p.num_workers = 1
    p.random_seed = budget.seed
    p.max_deterministic_time = limit
    if cliques:
        # the constraints are already the cliques CP-SAT's presolve derives
        p.cp_model_presolve = False
        if PRECEDENCE_BRANCHING:
            # decisions "a below b" between two blocks of one clique instead of bounds on
            # one offset (CP-SAT's precedence search on no-overlaps): the proof that 31
            # units hold no plan of diamond 1k seed 0 after ge-compile took 6 instead of 86
            # branches, 2 instead of 7 ms (bench/README.md)
            p.use_dynamic_precedence_in_disjunctive = True
    if prove:
        # CP-SAT's automatic search without the LP relaxation: its proofs of infeasibility
        # and of the minimum took 5 to 60 x less work than the fixed search's here
        p.linearization_level = 0
    else:
        # a window beside fixed blocks is nearly always feasible: the fixed search (no
        # strategy given: CP-SAT's default decisions, one subsolver) found those plans with
        # about 10 x less work than the automatic search (bench/README.md)
        p.search_branching = cmh.SatParameters.SearchBranching.FIXED_SEARCH
    solver = cmh.SolveWrapper()
    solver.set_parameters(p)
    response = solver.solve(model)
    status = response.status
    budget.used += response.deterministic_time
    budget.models += 1
    budget.branches += response.num_branches
    if status in (cmh.CpSolverStatus.OPTIMAL, cmh.CpSolverStatus.FEASIBLE):
        values = response.solution
        offsets = [values[x] for x in xs]
        got = max((o + s for o, (_, _, s) in zip(offsets, free)), default=0)
        if not minimise:
            return _Result(FEASIBLE, offsets, got, 0)
        if status == cmh.CpSolverStatus.OPTIMAL:
            bound = got
        else:
            bound = max(lo, math.ceil(response.best_objective_bound - 1e-6))
        return _Result(FEASIBLE, offsets, got, min(bound, got))
    if status == cmh.CpSolverStatus.INFEASIBLE:
        return _Result(INFEASIBLE, None, 0, hi + 1)
    return _Result(UNKNOWN, None, 0, lo if minimise else 0)


def _maximal_cliques(lives: Sequence[tuple[int, int]]) -> list[list[int]] | None:
    """The maximal sets of lifetimes ([from, to) each) alive at one position: the set alive
    at a begin is maximal when one of them ends before the next begin. None when they hold
    more than CLIQUE_ENTRIES entries per lifetime (many alive at once: the 2-D constraint
    is then smaller)."""
    order = sorted(range(len(lives)), key=lambda k: (lives[k][0], k))
    out: list[list[int]] = []
    alive: dict[int, None] = {}
    ends: list[tuple[int, int]] = []  # (end, lifetime) of the alive ones
    entries = 0
    for n, k in enumerate(order):
        t = lives[k][0]
        while ends and ends[0][0] <= t:
            del alive[heapq.heappop(ends)[1]]
        alive[k] = None
        heapq.heappush(ends, (lives[k][1], k))
        nxt = lives[order[n + 1]][0] if n + 1 < len(order) else None
        if nxt == t:
            continue  # the same begin: the set is not complete yet
        if nxt is None or ends[0][0] <= nxt:
            out.append(list(alive))
            entries += len(alive)
            if entries > CLIQUE_ENTRIES * len(lives):
                return None
    return out


# -- the instance ------------------------------------------------------------------------------


class _Stab:
    """Which blocks are alive at a position: a segment tree over positions whose nodes list
    the blocks covering them wholly (each block in O(log n) nodes), read along a leaf's
    root path."""

    def __init__(self, horizon: int, lives: Sequence[tuple[int, int, int]]) -> None:
        self.leaves = 1
        while self.leaves < horizon:
            self.leaves *= 2
        self.nodes: dict[int, list[int]] = {}
        for i, b, e in lives:
            lo, hi = b + self.leaves, e + self.leaves + 1
            while lo < hi:
                if lo & 1:
                    self.nodes.setdefault(lo, []).append(i)
                    lo += 1
                if hi & 1:
                    hi -= 1
                    self.nodes.setdefault(hi, []).append(i)
                lo >>= 1
                hi >>= 1

    def alive(self, t: int) -> list[int]:
        out: list[int] = []
        n = t + self.leaves
        while n:
            out += self.nodes.get(n, ())
            n >>= 1
        return out


class _Instance:
    def __init__(self, blocks: Sequence[Lifetime], hint: Sequence[int], options: ExactOptions) -> None:
        a = options.align
        self.align = a
        self.n = len(blocks)
        self.begin = [b.begin for b in blocks]
        self.end = [b.end for b in blocks]
        self.units = [-(-b.size // a) for b in blocks]
        # the plan in units: a hint offset that is not a multiple of the unit cannot be kept
        # in the model, so the hint is then only the fallback
        self.hint_ok = all(o % a == 0 for o, b in zip(hint, blocks) if b.size)
        self.x = [o // a if b.size else 0 for o, b in zip(hint, blocks)]
        self.budget = _Budget(options)

    def top_of(self, idx: Sequence[int]) -> int:
        x, u = self.x, self.units
        return max((x[i] + u[i] for i in idx), default=0)

    def components(self) -> list[list[int]]:
        """The blocks (size > 0) split where no block is alive on both sides, in time order;
        each component's blocks in (begin, index) order."""
        order = sorted((i for i in range(self.n) if self.units[i]), key=lambda i: (self.begin[i], i))
        comps: list[list[int]] = []
        reach = -1
        for i in order:
            if self.begin[i] > reach:
                comps.append([])
            comps[-1].append(i)
            reach = max(reach, self.end[i])
        return comps

    def live_bound(self, idx: Sequence[int]) -> int:
        delta: dict[int, int] = {}
        for i in idx:
            delta[self.begin[i]] = delta.get(self.begin[i], 0) + self.units[i]
            delta[self.end[i] + 1] = delta.get(self.end[i] + 1, 0) - self.units[i]
        cur = best = 0
        for t in sorted(delta):
            cur += delta[t]
            best = max(best, cur)
        return best


class _Component:
    """One time component: its blocks in (begin, index) order and the plan's moves on them."""

    def __init__(self, inst: _Instance, idx: list[int]) -> None:
        self.inst = inst
        self.idx = idx
        self.begins = [inst.begin[i] for i in idx]
        self.pos = {i: p for p, i in enumerate(idx)}
        self.t0 = self.begins[0]
        self.t_end = max(inst.end[i] for i in idx)
        self._stab: _Stab | None = None

    def stab(self) -> _Stab:
        if self._stab is None:
            inst, t0 = self.inst, self.t0
            lives = [(i, inst.begin[i] - t0, inst.end[i] - t0) for i in self.idx]
            self._stab = _Stab(self.t_end - t0 + 1, lives)
        return self._stab

    def peak(self) -> int:
        return self.inst.top_of(self.idx)

    def apply(self, idx: Sequence[int], offsets: Sequence[int] | None) -> None:
        assert offsets is not None
        for i, o in zip(idx, offsets):
            self.inst.x[i] = o

    def inside(self, a: int, b: int) -> list[int]:
        """Blocks beginning in [a, b], in component order."""
        return self.idx[bisect.bisect_left(self.begins, a) : bisect.bisect_right(self.begins, b)]

    def alive_before(self, a: int) -> list[int]:
        """Blocks alive at position a that begin before it, in component order."""
        inst = self.inst
        return sorted((i for i in self.stab().alive(a - self.t0) if inst.begin[i] < a), key=self.pos.__getitem__)

    def crossing(self, a: int, b: int) -> list[int]:
        """Blocks alive in [a, b] that are not wholly inside it."""
        return self.alive_before(a) + [i for i in self.inside(a, b) if self.inst.end[i] > b]

    def decide(
        self, free_idx: list[int], fixed_idx: list[int], target: int, limit: float, prove: bool = False,
        search: bool = True, model: bool = True, proof: bool = True,
    ) -> str:  # fmt: skip
        """Place `free_idx` under `target` beside `fixed_idx` where the plan has them: the own
        searches first (`search`), then a CP-SAT model (`model`); applies a plan found."""
        inst = self.inst
        free = [(inst.begin[i], inst.end[i] + 1, inst.units[i]) for i in free_idx]
        fixed = [(inst.begin[i], inst.end[i] + 1, inst.units[i], inst.x[i]) for i in fixed_idx]
        status, offsets = _search(free, fixed, target, inst.budget, proof) if search else (UNKNOWN, None)
        if status == UNKNOWN and model:
            # a whole-component decision: the clique model, no hint (a plan above the
            # target misled its proofs: bench/README.md)
            component = not fixed
            hint = [inst.x[i] if inst.hint_ok and not component else None for i in free_idx]
            r = _solve(
                free, fixed, target, target, hint, inst.budget, limit, minimise=False, prove=prove, cliques=component
            )
            status, offsets = r.status, r.offsets
        if status == FEASIBLE:
            self.apply(free_idx, offsets)
        return status

    # -- the whole component in one model --

    def minimise_whole(self, lo: int, hi: int) -> int:
        """The whole component's lowest peak in [lo, hi] (the current plan as the hint);
        applies a plan found; returns the bound proven (hi + 1 when none is under hi)."""
        inst = self.inst
        free = [(inst.begin[i], inst.end[i] + 1, inst.units[i]) for i in self.idx]
        hint = [inst.x[i] for i in self.idx]
        r = _solve(free, (), lo, hi, hint, inst.budget, inst.budget.total * CALL_SHARE, minimise=True, prove=True)
        if r.status == FEASIBLE:
            self.apply(self.idx, r.offsets)
        return r.bound

    def whole(self, t: int, bound: int) -> int:
        """The whole component at target `t` (`bound` <= t proven), module docstring step
        3b; returns the bound proven."""
        everything = list(self.idx)
        share = self.inst.budget.total * CALL_SHARE
        while True:
            status = self.decide(everything, [], t, share, model=False)
            if status == FEASIBLE:
                return bound
            if status == UNKNOWN:
                break
            # the skyline search's proof: the next target
            bound = t = t + 1
            if t >= self.peak():
                return bound
        # the ascent: dives at t + 1, t + 2, t + 4, ... for a plan close above t
        step = 1
        for _ in range(ASCENT_STEPS):
            if t + step >= self.peak():
                break
            if self.decide(everything, [], t + step, share, model=False, proof=False) == FEASIBLE:
                break
            step *= 2
        return self.bisect(bound)

    def bisect(self, bound: int) -> int:
        """Decision models between the proven `bound` and the plan's peak, each at the
        middle: a plan lowers the peak, an infeasible answer at s proves s + 1; after
        BISECT_MODELS models, the minimisation. Returns the bound proven."""
        inst = self.inst
        everything = list(self.idx)
        share = inst.budget.total * CALL_SHARE
        for _ in range(BISECT_MODELS):
            peak = self.peak()
            if peak <= bound or inst.budget.left() <= 0.0:
                return bound
            mid = (bound + peak - 1) // 2
            status = self.decide(everything, [], mid, share, prove=True, search=False)
            if status == INFEASIBLE:
                bound = mid + 1
            elif status == UNKNOWN:
                return bound
        if self.peak() <= bound:
            return bound
        return max(bound, self.minimise_whole(bound, self.peak() - 1))

    # -- repair: windows around the blocks above the target --

    def repair(self, target: int) -> bool:
        """Bring every block under `target`, window by window; whether it did (what the
        windows placed stays placed either way)."""
        inst = self.inst
        n = len(self.idx)
        while True:
            over = [i for i in self.idx if inst.x[i] + inst.units[i] > target]
            if not over:
                return True
            v = over[0]
            p = self.pos[v]
            k = WINDOW_BLOCKS
            while True:
                lo, hi = max(0, p - k // 2), min(n - 1, p + k // 2)
                if lo == 0 and hi == n - 1:
                    return False  # as large as a window gets
                a, b = self.begins[lo], max(self.begins[hi], inst.end[v])
                # a crossing block above the target is freed too (once: not the blocks
                # crossing the widened window, which could spread over the component)
                for i in self.crossing(a, b):
                    if inst.x[i] + inst.units[i] > target:
                        a, b = min(a, inst.begin[i]), max(b, inst.end[i])
                free_idx = [i for i in self.inside(a, b) if inst.end[i] <= b]
                if self.decide(free_idx, self.crossing(a, b), target, WINDOW_WORK) == FEASIBLE:
                    break
                if k >= REPAIR_BLOCKS or inst.budget.left() <= 0.0:
                    return False
                k *= 2

    # -- a rebuild in time: chunk after chunk, each beside the chunks before it --

    def rebuild(self, target: int) -> tuple[int, int, str] | None:
        """Place every block under `target` anew, CHUNK_BLOCKS blocks at a time in begin
        order, each chunk beside the placed blocks still alive at its first begin; when a
        chunk fails, it is merged with the chunks before it (up to MERGE_BLOCKS blocks) and
        placed again. Returns None when every block was placed (the plan replaced), else the
        window that failed and its status (the plan unchanged)."""
        inst = self.inst
        n = len(self.idx)
        saved = [inst.x[i] for i in self.idx]
        starts = list(range(0, n, CHUNK_BLOCKS))
        j = 0
        while j < len(starts):
            stop = starts[j + 1] if j + 1 < len(starts) else n
            back = j
            while True:
                start = starts[back]
                a = self.begins[start]
                free_idx = self.idx[start:stop]
                # the placed blocks alive at a: begun before it, or at it earlier in order
                fixed_idx = self.alive_before(a) + self.idx[bisect.bisect_left(self.begins, a) : start]
                status = self.decide(free_idx, fixed_idx, target, WINDOW_WORK)
                if status == FEASIBLE:
                    break
                if back == 0 or stop - starts[back - 1] > MERGE_BLOCKS or inst.budget.left() <= 0.0:
                    for i, o in zip(self.idx, saved):
                        inst.x[i] = o
                    b = max(inst.end[i] for i in free_idx)
                    # from the first block on, nothing is fixed: a sub-instance
                    return a, b, status if back == 0 else UNKNOWN
                back -= 1
            j += 1
        return None

    def relaxation(self, a: int, b: int, target: int) -> str:
        """Decide the window's sub-instance at `target`: every block alive in [a, b], all
        free, lives cut to [a, b]."""
        inst = self.inst
        alive = self.alive_before(a) + self.inside(a, b)
        free = [(max(a, inst.begin[i]), min(b, inst.end[i]) + 1, inst.units[i]) for i in alive]
        hint = [None] * len(free)
        return _solve(free, (), target, target, hint, inst.budget, WINDOW_WORK, minimise=False, prove=True).status

    def solve(self, target: int) -> int:
        """Bring the plan to `target`, else as low as it gets (module docstring, step 3);
        returns the bound proven for the component (at most its final peak)."""
        inst = self.inst
        bound = t = target
        step = 1
        small = len(self.idx) <= 2 * WINDOW_BLOCKS  # a window would be most of it
        while t < self.peak() and inst.budget.any_left():
            if not small and self.repair(t):
                return bound
            proven = False
            if len(self.idx) <= MODEL_BLOCKS:
                return self.whole(t, bound)
            else:
                failed = self.rebuild(t)
                if failed is None:
                    return bound
                a, b, status = failed
                proven = status == INFEASIBLE or self.relaxation(a, b, t) == INFEASIBLE
            if proven:
                bound, t, step = t + 1, t + 1, 1
            else:
                t, step = t + step, 2 * step
        return min(bound, self.peak())


def exact_offsets(blocks: Sequence[Lifetime], hint: Sequence[int], options: ExactOptions = ExactOptions()) -> ExactPlan:
    """Improve the valid plan `hint` (byte offsets, one per block) with CP-SAT; the result is
    never worse than the hint (module docstring: the search and what it proves)."""
    a = options.align
    inst = _Instance(blocks, hint, options)
    hint_peak = max((o + b.size for o, b in zip(hint, blocks)), default=0)
    comps = [_Component(inst, idx) for idx in inst.components()]
    lb = max((inst.live_bound(c.idx) for c in comps), default=0)
    bound = lb
    if inst.hint_ok and hint_peak > lb * a:
        # the component with the highest peak first (ties: time order): it sets the arena
        ranked = sorted(range(len(comps)), key=lambda c: (-inst.top_of(comps[c].idx), c))
        for c in ranked:
            comp = comps[c]
            peak = inst.top_of(comp.idx)
            if peak <= bound:
                continue
            if not inst.budget.any_left():
                break
            bound = max(bound, comp.solve(bound))
    peak_units = inst.top_of(range(inst.n))
    if not inst.hint_ok or peak_units * a >= hint_peak:
        offsets, peak = list(hint), hint_peak
    else:
        offsets, peak = [x * a for x in inst.x], peak_units * a
    return ExactPlan(
        offsets=offsets,
        peak=peak,
        heuristic_peak=hint_peak,
        lower_bound=lb * a,
        proven_bound=min(bound * a, peak),
        work=inst.budget.used,
        models=inst.budget.models,
        nodes=inst.budget.nodes,
        searches=inst.budget.searches,
    )
