"""An exhaustive enumerator of the fusion plans GE's CanFuse accepts, independent of
passes/autofuse/global_solver.py's search (issue 12: the global solver must find its optimum
on generated graphs of up to about 20 AscBackends).

A plan is a partition of the fusable nodes into groups. It is reachable by legal merges
iff (1) the graph of groups is acyclic (an edge G -> H when a node of H depends on a node
of G in the unfused graph) and (2) every group has a merge tree whose every merge the
solver's CanFuse (FusionStrategySolver.can_fuse, then the decider) accepts on the two
sub-groups' fused nodes, each merge joining a path-closed set of nodes (no path between
the two parts through a node outside them: WillFusionCreateCycle). Why the two are
enough: with (1), no path leaves a group and comes back through other groups, so the
cycle check of a merge sees only the nodes of its own group; and what CanFuse reads of
the context does not depend on how the other nodes are grouped (a linked output is
multi-referenced iff a node outside the pair reads it, the outputs kept are those some
node outside the pair reads, the inputs are the values produced outside the pair; the
peak-memory checks of horizontal pairs are off by default: SolverConfig). A pair is
oriented as the solver does: the producer first, else the group whose latest node comes
first in the graph's order.

Search, without copying the graph per plan: one scratch copy of the graph; the fused
nodes of a group are built bottom up by the decider's `build_fused`, every merge tree at
once, one fused node kept per distinct shape (type, ports, operations held: two merge
orders may build different nodes), with their operands recorded as the values of the
unfused graph they stand for; to ask CanFuse about two fused nodes, both are put into the
scratch graph in place of their members and taken out afterwards. Then a depth-first
search over partitions (the group of the first node not yet placed, each group at its
least bytes), bounded by the best partition of the remaining nodes ignoring (1), and
checked against (1) at the leaves.

Bytes moved of a plan: each group's fused node reads each distinct input once and writes
each output once (autofuse.kernel_traffic's objective, global_solver.plan_traffic).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from xdsl.ir import Block, Operation, SSAValue

from ge_dialect.reason import Reason
from passes.autofuse.decider import AscBackendFusionDecider
from passes.autofuse.solver import FusionStrategySolver, buffer_bytes


@dataclass
class Variant:
    """One fused node of a group: the op (the original for a single node), the values of
    the unfused graph its operands and results stand for, its bytes moved."""

    op: Operation
    mask: int  # the group, a bit per fusable node index
    roots: list[SSAValue]
    stands_for: list[SSAValue]
    bytes: int
    single: bool


def _shape(op: Operation) -> tuple:
    return (op.name, len(op.operands), len(op.results), sum(1 for _ in op.walk()))


class PlanEnumerator:
    def __init__(self, block: Block, decider=None, max_groups: int = 200_000, max_pairs: int = 10**7):
        self.block = block  # a scratch copy: fused nodes are put in and taken out again
        self.dec = AscBackendFusionDecider() if decider is None else decider
        self.sol = FusionStrategySolver(self.dec)
        ops = list(block.ops)
        pos = {op: i for i, op in enumerate(ops)}
        self.ops = ops
        self.fusable = [i for i, op in enumerate(ops) if self.dec.is_fusable_node(op)]
        self.bit = {i: 1 << k for k, i in enumerate(self.fusable)}
        n = len(ops)
        # desc[i] / anc[i]: bitmasks over all op positions (every op, fusable or not)
        succ = [{pos[u.operation] for r in op.results for u in r.uses if u.operation in pos} for op in ops]
        self.desc = [0] * n
        for i in range(n - 1, -1, -1):
            m = 0
            for j in succ[i]:
                m |= (1 << j) | self.desc[j]
            self.desc[i] = m
        self.anc = [0] * n
        for i in range(n):
            for j in succ[i]:
                self.anc[j] |= (1 << i) | self.anc[i]
        self.pos_of = {k: i for k, i in enumerate(self.fusable)}
        self.alias: dict[SSAValue, SSAValue] = {}
        self.groups: dict[int, dict[tuple, Variant]] = {}
        self.max_groups = max_groups
        self.max_pairs = max_pairs
        self.pairs_tried = 0
        self._closed: dict[int, bool] = {}

    # -- masks --------------------------------------------------------------------------------

    def members(self, mask: int) -> list[int]:
        return [self.pos_of[k] for k in range(len(self.fusable)) if mask >> k & 1]

    def _opmask(self, mask: int) -> int:
        return sum(1 << i for i in self.members(mask))

    def _closure_ok(self, mask: int) -> bool:
        """No op outside the group lies on a path between two of its nodes."""
        d = a = 0
        for i in self.members(mask):
            d |= self.desc[i]
            a |= self.anc[i]
        return (d & a) & ~self._opmask(mask) == 0

    def _reaches(self, m1: int, m2: int) -> bool:
        d = 0
        for i in self.members(m1):
            d |= self.desc[i]
        return d & self._opmask(m2) != 0

    # -- putting fused nodes into the scratch graph ---------------------------------------------

    def _install(self, v: Variant) -> list:
        if v.single:
            return []
        saved = []
        for i in self.members(v.mask):
            m = self.ops[i]
            saved.append((m, list(m.operands)))
            m.operands = ()
        self.block.add_op(v.op)
        v.op.operands = [self.alias.get(r, r) for r in v.roots]
        for orig, r in zip(v.stands_for, v.op.results):
            orig.replace_all_uses_with(r)
            self.alias[orig] = r
        return saved

    def _uninstall(self, v: Variant, saved: list) -> None:
        if v.single:
            return
        for orig, r in zip(v.stands_for, v.op.results):
            r.replace_all_uses_with(orig)
            del self.alias[orig]
        v.op.operands = ()
        v.op.detach()
        for m, operands in saved:
            m.operands = operands

    def _root(self, v: SSAValue, installed: list[Variant]) -> SSAValue:
        for w in installed:
            for orig, r in zip(w.stands_for, w.op.results):
                if r is v:
                    return orig
        return v

    # -- one merge ------------------------------------------------------------------------------

    def _merge(self, v1: Variant, v2: Variant) -> Variant | None:
        """The fused node of v1 and v2 if the solver's CanFuse accepts them, else None."""
        self.pairs_tried += 1
        if self.pairs_tried > self.max_pairs:
            raise RuntimeError("too many pairs to enumerate")
        m1, m2 = v1.mask, v2.mask
        if self._reaches(m2, m1):
            v1, v2 = v2, v1
        elif not self._reaches(m1, m2) and max(self.members(m1)) > max(self.members(m2)):
            v1, v2 = v2, v1
        s1 = self._install(v1)
        s2 = self._install(v2)
        try:
            f1 = self.sol._make_node(v1.op, 0)
            f2 = self.sol._make_node(v2.op, 1)
            if self.sol.can_fuse(f1, f2) is not None:
                return None
            built = self.dec.build_fused(v1.op, v2.op, keep_groups=True)
            if isinstance(built, Reason):
                raise AssertionError(f"CanFuse accepted a pair Fuse refuses: {built.message}")
            new, olds, _, _ = built
            moved = sum(buffer_bytes(x) for x in dict.fromkeys(new.operands))
            moved += sum(buffer_bytes(r) for r in new.results)
            roots = [self._root(x, [v1, v2]) for x in new.operands]
            stands = [self._root(o, [v1, v2]) for o in olds]
            new.operands = ()
            return Variant(new, m1 | m2, roots, stands, moved, False)
        finally:
            self._uninstall(v2, s2)
            self._uninstall(v1, s1)

    # -- every group --------------------------------------------------------------------------

    def _touch(self, mask: int) -> tuple[set, set]:
        """(values read from outside the group, values the group writes for readers
        outside it)."""
        mem = {self.ops[i] for i in self.members(mask)}
        reads, outs = set(), set()
        for op in mem:
            for x in op.operands:
                if x.owner not in mem:
                    reads.add(x)
            for r in op.results:
                if any(u.operation not in mem for u in r.uses):
                    outs.add(r)
        return reads, outs

    def build_groups(self) -> None:
        """Every group with a legal merge tree, and its distinct fused nodes: each new fused
        node is tried against every known one it is disjoint from and shares a tensor with."""
        frontier: list[Variant] = []
        for k, i in enumerate(self.fusable):
            op = self.ops[i]
            moved = sum(buffer_bytes(x) for x in dict.fromkeys(op.operands)) + sum(buffer_bytes(r) for r in op.results)
            v = Variant(op, 1 << k, list(op.operands), list(op.results), moved, True)
            self.groups[1 << k] = {_shape(op): v}
            frontier.append(v)
        touch = {m: self._touch(m) for m in self.groups}
        known: list[Variant] = []
        while frontier:
            v = frontier.pop(0)
            rv, ov = touch[v.mask]
            for w in list(known):
                g, h = v.mask, w.mask
                if g & h:
                    continue
                rw, ow = touch[h]
                if not (ov & rw or ow & rv or rv & rw):
                    continue  # no shared tensor
                u = g | h
                ok = self._closed.get(u)
                if ok is None:
                    ok = self._closed[u] = self._closure_ok(u)
                if not ok:
                    continue
                x = self._merge(v, w)
                if x is None:
                    continue
                shapes = self.groups.setdefault(u, {})
                if u not in touch:
                    touch[u] = self._touch(u)
                key = _shape(x.op)
                if key not in shapes:
                    shapes[key] = x
                    frontier.append(x)
                if len(self.groups) > self.max_groups:
                    raise RuntimeError("too many groups to enumerate")
            known.append(v)

    # -- the best partition -------------------------------------------------------------------

    def best(self) -> tuple[int, list[int]]:
        """(least bytes over every reachable plan, its groups as masks)."""
        if not self.groups:
            self.build_groups()
        cost = {m: min(v.bytes for v in vs.values()) for m, vs in self.groups.items()}
        by_low: dict[int, list[int]] = {}
        for m in cost:
            by_low.setdefault(m & -m, []).append(m)
        full = (1 << len(self.fusable)) - 1

        @cache
        def bound(rest: int) -> int:
            if rest == 0:
                return 0
            low = rest & -rest
            return min(cost[m] + bound(rest & ~m) for m in by_low[low] if m & rest == m)

        desc_of = {}

        def gdesc(m: int) -> int:
            d = desc_of.get(m)
            if d is None:
                d = 0
                for i in self.members(m):
                    d |= self.desc[i]
                desc_of[m] = d
            return d

        def acyclic(parts: list[int]) -> bool:
            opm = {m: self._opmask(m) for m in parts}
            succ = {m: [h for h in parts if h != m and gdesc(m) & opm[h]] for m in parts}
            state: dict[int, int] = {}

            def visit(m: int) -> bool:
                state[m] = 1
                for h in succ[m]:
                    s = state.get(h, 0)
                    if s == 1 or (s == 0 and not visit(h)):
                        return False
                state[m] = 2
                return True

            return all(state.get(m, 0) == 2 or visit(m) for m in parts)

        best = [sum(cost[1 << k] for k in range(len(self.fusable))) + 1, []]

        def dfs(rest: int, acc: int, parts: list[int]) -> None:
            if acc + bound(rest) >= best[0]:
                return
            if rest == 0:
                if acyclic(parts):
                    best[0], best[1] = acc, list(parts)
                return
            low = rest & -rest
            cands = sorted((cost[m] + bound(rest & ~m), m) for m in by_low[low] if m & rest == m)
            for _, m in cands:
                parts.append(m)
                dfs(rest & ~m, acc + cost[m], parts)
                parts.pop()

        dfs(full, 0, [])
        return best[0], best[1]


def enumerated_optimum(block: Block, decider=None) -> int:
    """The least bytes moved by the fusable kernels over every plan CanFuse accepts;
    `block` is consumed (used as the scratch graph)."""
    return PlanEnumerator(block, decider).best()[0]
