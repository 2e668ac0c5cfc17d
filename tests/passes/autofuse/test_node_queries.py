"""ge-autofuse asks each node's own AscGraph queries once per solve (issue 12, compile time).

The solver tries every candidate pair of a shared-buffer group (up to 2 x
buffer-group-window pairs per node), and create_axis_map used to recompute, for every
pair, answers that depend on one node only: the broadcast infos of a Data's Loads
(IsSimplestLoad on each Load), the Data nodes behind an input, the loop axes.
`axis_mapping.NodeQueries` keeps them for the decider's solve. These tests count the
computations (never time), and check that the answers do not change the result: the
fused module is the same with a memo and with a fresh one per call.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.gen_graphs import generate
from conftest import lowered, parse, print_module
from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import axis_mapping as M
from passes.autofuse import decider as D
from passes.autofuse import loop_merge as LM
from passes.autofuse import solver as SOL
from passes.autofuse import strategies as S
from passes.autofuse.autofuse import AutofusePass

FAN = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf32>
  %a = ge.Relu(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = ge.Abs(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = ge.Neg(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  ge.NetOutput %a, %b, %c : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
"""


def _count_infos(monkeypatch) -> Counter:
    """Counts _input_broadcast_infos computations per (AscBackend, its Loads)."""
    calls: Counter = Counter()
    real = M._input_broadcast_infos

    def counted(backend, loads, conv, *memo):
        calls[(backend, tuple(loads))] += 1
        return real(backend, loads, conv, *memo)

    monkeypatch.setattr(M, "_input_broadcast_infos", counted)
    return calls


def test_memo_answers_each_node_once_across_pairs(monkeypatch):
    # three consumers of %x: pairs (a, b) and (a, c) both ask about a's Data of %x
    _, nodes = lowered(FAN)
    a, b, c = (next(o for n, o in nodes.items() if t in n) for t in ("Relu", "Abs", "Neg"))
    calls = _count_infos(monkeypatch)
    memo = M.NodeQueries()
    for n1, n2 in ((a, b), (a, c), (b, c)):
        info = M.node_fuse_info(n1, n2)
        assert not isinstance(info, str)
        assert isinstance(M.create_axis_map(info, need_flash=False, memo=memo), M.AxisUnification)
    assert len(calls) == 3  # one Data of %x in each of a, b, c
    assert set(calls.values()) == {1}  # without the memo: a, b and c twice each


def test_memo_gives_the_same_answer_as_a_fresh_call():
    _, nodes = lowered(FAN)
    a, b = (next(o for n, o in nodes.items() if t in n) for t in ("Relu", "Abs"))
    memo = M.NodeQueries()
    for _ in range(2):  # the second call is answered from the memo
        kept = M.create_axis_map(M.node_fuse_info(a, b), need_flash=True, memo=memo)
        fresh = M.create_axis_map(M.node_fuse_info(a, b), need_flash=True)
        assert kept == fresh


@pytest.mark.parametrize("kind", ["fanout", "diamond", "mixed"])
def test_one_solve_computes_each_broadcast_info_once(monkeypatch, kind):
    # a generated graph (not one of the examples), lowered, then the whole ge-autofuse pass
    m = parse(generate(kind, 160, 3))
    LowerAutofusePass().apply(make_context(), m)
    calls = _count_infos(monkeypatch)
    AutofusePass().apply(make_context(), m)
    m.verify()
    assert calls, "the pass asked no broadcast info: the test would prove nothing"
    twice = {k: n for k, n in calls.items() if n > 1}
    assert not twice, f"{len(twice)} of {len(calls)} (node, Loads) answers computed more than once"


@pytest.mark.parametrize("kind", ["fanout", "diamond", "concat_tree"])
def test_memo_does_not_change_the_fused_module(monkeypatch, kind):
    text = generate(kind, 200, 5)
    outs = []
    for keep in (True, False):
        if not keep:  # every query answered afresh (the functions' own answers)
            monkeypatch.setattr(M.NodeQueries, "_get", lambda self, key, compute: compute())
            monkeypatch.setattr(M.NodeQueries, "keep", False)  # no table or step answer kept
        m = parse(text)
        LowerAutofusePass().apply(make_context(), m)
        AutofusePass().apply(make_context(), m)
        outs.append(print_module(m))
    assert outs[0] == outs[1]
    assert "ge.AscBackend" in outs[0]


def test_canfuse_nodes_size_reads_the_attribute_without_counting(monkeypatch):
    # canfuse_nodes_size counted every node of the AscGraph even when the attribute that
    # carries GE's summed size was there (a walk per candidate pair)
    _, nodes = lowered(FAN)
    op = next(o for n, o in nodes.items() if "Relu" in n)
    assert isinstance(op, ge.AscBackend)
    want = U.node_count(op)
    assert U.canfuse_nodes_size(op) == want  # no attribute: the count
    op.attributes[U.CANFUSE_NODES_SIZE_ATTR] = A.make_int(want + 7)

    def no_walk(_op):
        raise AssertionError("node_count walked the graph although the attribute is set")

    monkeypatch.setattr(U, "node_count", no_walk)
    assert U.canfuse_nodes_size(op) == want + 7


# -- the decider's per-pair and per-node caches (issue 12, compile time) ------------------


@pytest.mark.parametrize("kind", ["fanout", "diamond", "mixed"])
def test_each_candidate_pair_builds_its_fuse_pair_once_per_round(monkeypatch, kind):
    """GetPossibleFusions asks CanFuse, then the priority, of each accepted pair (and the
    split ratio asks a split's peers): node_fuse_info ran two to three times per pair; with
    the decider's pair cache, once per pair and round."""
    m = parse(generate(kind, 160, 3))
    LowerAutofusePass().apply(make_context(), m)
    rounds: list[Counter] = []
    real_info, real_possible = D.node_fuse_info, SOL.FusionStrategySolver.possible_fusions

    def counted_info(n1, n2):
        if rounds and rounds[-1] is not None:
            rounds[-1][(n1, n2)] += 1
        return real_info(n1, n2)

    def possible(self, nodes, recorded):
        rounds.append(Counter())
        try:
            return real_possible(self, nodes, recorded)
        finally:
            rounds.append(None)  # calls outside GetPossibleFusions are not counted

    monkeypatch.setattr(D, "node_fuse_info", counted_info)
    monkeypatch.setattr(SOL.FusionStrategySolver, "possible_fusions", possible)
    AutofusePass().apply(make_context(), m)
    m.verify()
    counts = [c for c in rounds if c]
    assert counts, "no candidate pair was examined: the test would prove nothing"
    again = {k: n for c in counts for k, n in c.items() if n > 1}
    assert not again, f"{len(again)} pairs built their NodeFuseInfo more than once in one round"


def test_strategies_are_listed_once_per_pair():
    _, nodes = lowered(FAN)
    a, b = (next(o for n, o in nodes.items() if t in n) for t in ("Relu", "Abs"))
    p = D.AscBackendFusionDecider()._pair(a, b)
    assert isinstance(p, S.FusePair)
    first = S.strategies_for(p)
    assert S.strategies_for(p) is first  # kept on the pair, not rebuilt
    mask = U.all_fuse_types(a) | U.all_fuse_types(b)
    assert first == [s for s in S.STRATEGIES if mask & ag.fuse_type_bit(s.fuse_type)] + [S.DEFAULT_STRATEGY]


@pytest.mark.parametrize("kind", ["fanout", "diamond"])
def test_each_node_is_counted_once_per_solve(monkeypatch, kind):
    """CanFuse's size cap counted both AscGraphs of every candidate pair (lowered nodes
    carry no count attribute); the decider keeps each node's count."""
    m = parse(generate(kind, 160, 4))
    LowerAutofusePass().apply(make_context(), m)
    calls: Counter = Counter()
    real = U.node_count
    monkeypatch.setattr(U, "node_count", lambda op: (calls.update([op]), real(op))[1])
    AutofusePass().apply(make_context(), m)
    m.verify()
    assert calls, "no node was counted: the test would prove nothing"
    assert max(calls.values()) == 1, f"{sum(n > 1 for n in calls.values())} nodes counted more than once"


@pytest.mark.parametrize("kind", ["fanout", "diamond", "mixed", "concat_tree"])
def test_the_caches_do_not_change_the_fused_module(monkeypatch, kind):
    text = generate(kind, 200, 6)
    outs = []
    for keep in (True, False):
        if not keep:  # every pair and count built afresh
            monkeypatch.setattr(D.AscBackendFusionDecider, "pair_cache", None)
            monkeypatch.setattr(
                D.AscBackendFusionDecider, "fusion_nodes_size", lambda self, op: U.canfuse_nodes_size(op)
            )
            monkeypatch.setattr(S, "strategies_for", _fresh_strategies)
        m = parse(text)
        LowerAutofusePass().apply(make_context(), m)
        AutofusePass().apply(make_context(), m)
        outs.append(print_module(m))
    assert outs[0] == outs[1]
    assert "ge.AscBackend" in outs[0]


def _fresh_strategies(p):
    mask = U.all_fuse_types(p.n1) | U.all_fuse_types(p.n2)
    return [s for s in S.STRATEGIES if mask & ag.fuse_type_bit(s.fuse_type)] + [S.DEFAULT_STRATEGY]


def _in_possible_fusions(monkeypatch) -> list:
    """A list whose last item is True while the solver is in GetPossibleFusions."""
    inside = [False]
    real = SOL.FusionStrategySolver.possible_fusions

    def possible(self, nodes, recorded):
        inside.append(True)
        try:
            return real(self, nodes, recorded)
        finally:
            inside.append(False)

    monkeypatch.setattr(SOL.FusionStrategySolver, "possible_fusions", possible)
    return inside


@pytest.mark.parametrize("kind", ["fanout", "diamond", "mixed"])
def test_fuse_axis_map_after_a_successful_check_is_not_recomputed(monkeypatch, kind):
    """CanFuse unifies the axes in check mode, then (a loop merge with shared inputs) in
    Fuse's mode for the input plan: each pair's unification is computed once there, and the
    kept answer is the one a fresh Fuse-mode computation gives."""
    m = parse(generate(kind, 160, 5))
    LowerAutofusePass().apply(make_context(), m)
    inside = _in_possible_fusions(monkeypatch)
    computed: Counter = Counter()
    alive: list = []  # each counted info is held, so no freed info's id is reused by a new one
    answers: list = []
    real_inner, real_outer = M._create_axis_map, M.create_axis_map

    def inner(info, need_flash, loop_merge, memo):
        if inside[-1]:
            if not computed[id(info)]:
                alive.append(info)
            computed[id(info)] += 1
        return real_inner(info, need_flash, loop_merge, memo)

    def outer(info, need_flash, loop_merge=False, memo=None):
        u = real_outer(info, need_flash, loop_merge, memo)
        if inside[-1] and need_flash:
            answers.append((u, real_inner(info, True, loop_merge, None)))  # fresh, not counted
        return u

    monkeypatch.setattr(M, "_create_axis_map", inner)
    monkeypatch.setattr(D, "create_axis_map", outer)
    AutofusePass().apply(make_context(), m)
    assert answers, "no Fuse-mode unification was asked: the test would prove nothing"
    assert all(kept == fresh for kept, fresh in answers)
    assert max(computed.values()) == 1


@pytest.mark.parametrize("kind", ["fanout", "mixed"])
def test_each_graph_lists_its_data_nodes_once_per_solve_in_the_input_plan(monkeypatch, kind):
    """CanFuse's input plan looked up the shared inputs' Data nodes by listing (and sorting)
    both AscGraphs' Data nodes for every candidate pair."""
    m = parse(generate(kind, 160, 6))
    LowerAutofusePass().apply(make_context(), m)
    inside = _in_possible_fusions(monkeypatch)
    planning = [False]
    calls: Counter = Counter()
    real, real_plan = ag.AscGraphOp.data_nodes, D.plan_fused_inputs

    def counted(self):
        if inside[-1] and planning[-1]:
            calls[self] += 1
        return real(self)

    planned = [0]

    def plan(info, u, *memo):
        planning.append(True)
        planned[0] += inside[-1] and bool(info.same_input_map)
        try:
            return real_plan(info, u, *memo)
        finally:
            planning.pop()

    monkeypatch.setattr(ag.AscGraphOp, "data_nodes", counted)
    monkeypatch.setattr(D, "plan_fused_inputs", plan)
    monkeypatch.setattr(LM, "plan_fused_inputs", plan)
    AutofusePass().apply(make_context(), m)
    m.verify()
    assert planned[0], "no input plan of a shared input was made: the test would prove nothing"
    # the plan reads the per-node tables (NodeQueries.data_view), filled from one scan per
    # graph, which may come before the plan: at most once, possibly never, while planning
    assert max(calls.values(), default=0) <= 1


@pytest.mark.parametrize("kind", ["fanout", "diamond", "mixed", "concat_tree"])
def test_kept_simplest_load_answers_are_is_simplest_load_s(kind):
    """is_simplest_load_kept, with one memo across every Load of every fused node of a
    solved graph (Loads that share type objects share an entry), answers as
    is_simplest_load does on each Load, the view-chain Loads included (asked afresh)."""
    m = parse(generate(kind, 400, 4))
    LowerAutofusePass().apply(make_context(), m)
    AutofusePass().apply(make_context(), m)
    memo: dict = {}
    asked = 0
    for b in m.walk():
        if not isinstance(b, ge.AscBackend) or U.has_fuse_type(b, "concat"):
            continue
        g = U.asc_graph(b)
        assert g is not None
        sizes = g.axis_sizes()
        for ld in (op for op in g.body.block.ops if isinstance(op, ag.Load)):
            assert U.is_simplest_load_kept(b, ld, sizes, g.axis, memo) == U.is_simplest_load(b, ld, sizes=sizes)
            asked += 1
    assert asked > 15 and 0 < len(memo) < asked  # some Loads answered from the memo


def test_a_solve_checks_each_kept_load_once(monkeypatch):
    """On fanout, a fused node keeps the Loads (and their types) of the nodes it took, and
    CanFuse's first look at each new node asks IsSimplestLoad of all of them: with the
    per-Load memo (is_simplest_load_kept), load_broadcast_info runs for under a third of
    the Loads it runs for when each new node's Loads are checked afresh (the same module)."""
    counts = []
    for kept in (True, False):
        calls = [0]
        real = U.load_broadcast_info

        def counted(load, sizes=None, calls=calls, real=real):  # type: ignore[no-untyped-def]
            calls[0] += 1
            return real(load, sizes)

        with monkeypatch.context() as mp:
            mp.setattr(U, "load_broadcast_info", counted)
            if not kept:  # what _input_broadcast_infos asked before the per-Load memo
                mp.setattr(
                    U, "is_simplest_load_kept", lambda b, ld, sizes, axis, memo: U.is_simplest_load(b, ld, sizes=sizes)
                )
            m = parse(generate("fanout", 300, 2))
            LowerAutofusePass().apply(make_context(), m)
            AutofusePass().apply(make_context(), m)
            counts.append((calls[0], print_module(m)))
    (with_memo, out_kept), (afresh, out_fresh) = counts
    assert out_kept == out_fresh
    assert afresh > 500 and with_memo * 3 < afresh, (with_memo, afresh)
