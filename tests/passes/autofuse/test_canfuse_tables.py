"""CanFuse's per-node integer tables and the step answers keyed by them (issue 12).

The solver asks CanFuse of every candidate pair of a shared-buffer group, and pairs of
equal nodes (the consumers of one tensor, built by the same lowering) asked the same
questions again: the axis unification, the input plan, the axis-group merge, each node's
blacklist/graph checks and each buffer's bytes. `axis_mapping.NodeQueries` now keeps each
node's tables (numbers naming contents) and each step's answer by those numbers. These
tests count the computations (never time) and check that the verdicts and Reasons of
every CanFuse call are those of a run that keeps nothing (`NodeQueries.keep = False`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import pytest
from test_node_queries import _in_possible_fusions  # the solver's GetPossibleFusions flag

from bench.gen_graphs import generate
from conftest import lowered, parse, print_module
from ge_dialect import ascgraph as ag
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from lowering_graphs import pass_for, random_gather_graph, random_graph
from passes.autofuse import axis_mapping as M
from passes.autofuse import decider as D
from passes.autofuse import loop_merge as LM
from passes.autofuse import solver as SOL
from passes.autofuse.autofuse import AutofusePass


def fan(k: int, shape: str = "4x8x16", dtype: str = "f16") -> str:
    """k pointwise consumers of one input, of one shape: k(k-1)/2 alike horizontal pairs."""
    t = f"tensor<{shape}x{dtype}>"
    ops = ("Relu", "Abs", "Neg", "Exp", "Sigmoid", "Tanh", "Square")
    lines = [f"  %x = ge.Data {{index = 0}} : {t}"]
    lines += [f"  %c{i} = ge.{ops[i % len(ops)]}(%x) : ({t}) -> {t}" for i in range(k)]
    outs = ", ".join(f"%c{i}" for i in range(k))
    lines.append(f"  ge.NetOutput {outs} : {', '.join([t] * k)}")
    return "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


def _count(monkeypatch, owner, name: str) -> Counter:
    calls: Counter = Counter()
    real = getattr(owner, name)

    def counted(*a, **k):
        calls[name] += 1
        return real(*a, **k)

    monkeypatch.setattr(owner, name, counted)
    return calls


def _all_pairs(text: str):
    _, nodes = lowered(text)
    ops = list(nodes.values())
    d = D.AscBackendFusionDecider()
    with d.pair_cache():
        verdicts = [d.can_fuse(a, b) for a, b in itertools.combinations(ops, 2)]
    return ops, verdicts


@pytest.mark.parametrize("shape,dtype", [("4x8x16", "f16"), ("32", "f32"), ("3x5x1x7", "bf16")])
def test_alike_pairs_unify_their_axes_once(monkeypatch, shape, dtype):
    # 7 alike consumers: 21 pairs, one horizontal axis mapping (main: one per pair)
    calls = _count(monkeypatch, M, "process_sub_graph_horizontal_map_info")
    ops, verdicts = _all_pairs(fan(7, shape, dtype))
    assert len(ops) == 7 and verdicts.count(None) == 21
    assert calls["process_sub_graph_horizontal_map_info"] == 1


def test_alike_pairs_merge_their_axis_groups_and_plan_their_inputs_once(monkeypatch):
    merges = _count(monkeypatch, D, "can_merge_axis_group")
    views = _count(monkeypatch, LM, "completed_parts")  # the input plan's two completed views
    _, verdicts = _all_pairs(fan(6))
    assert verdicts.count(None) == 15
    assert merges["can_merge_axis_group"] == 1  # main: 15
    assert views["completed_parts"] == 2  # one shared input, both sides, once (main: 30)


def test_each_node_is_checked_against_the_blacklist_once(monkeypatch):
    calls: Counter = Counter()
    real = D.is_can_fuse_black_list
    monkeypatch.setattr(D, "is_can_fuse_black_list", lambda op: (calls.update([op]), real(op))[1])
    ops, _ = _all_pairs(fan(6))
    assert set(calls) == set(ops) and max(calls.values()) == 1  # main: 5 per node


@pytest.mark.parametrize("kind", ["fanout", "mixed", "diamond"])  # (horizontal pairs: the write cap)
def test_the_solver_sizes_each_buffer_once_per_solve(monkeypatch, kind):
    """The memory score of every candidate pair and the write cap of every horizontal one
    read each buffer's bytes from one per-solve table (FusionStrategySolver._buffer_bytes)."""
    m = parse(generate(kind, 160, 7))
    LowerAutofusePass().apply(make_context(), m)
    calls: Counter = Counter()
    real = SOL.buffer_bytes

    def counted(v):
        calls[v] += 1
        return real(v)

    monkeypatch.setattr(SOL, "buffer_bytes", counted)
    AutofusePass().apply(make_context(), m)
    assert calls, "no buffer was sized: the test would prove nothing"
    # once per value and solve: the root graph's, and one per FusedAscBackend body
    # (main: once per candidate pair a buffer is in, score and cap each)
    assert max(calls.values()) == 1


@pytest.mark.parametrize("kind", ["diamond", "fanout"])
def test_each_graph_lists_its_outputs_once_per_solve(monkeypatch, kind):
    """The vertical mapping and the link-view check looked up node1's Store by listing and
    sorting its AscGraph's Output nodes for every candidate pair."""
    m = parse(generate(kind, 160, 8))
    LowerAutofusePass().apply(make_context(), m)
    inside = _in_possible_fusions(monkeypatch)
    calls: Counter = Counter()
    real = ag.AscGraphOp.output_nodes

    def counted(self):
        if inside[-1]:
            calls[self] += 1
        return real(self)

    monkeypatch.setattr(ag.AscGraphOp, "output_nodes", counted)
    links = _count(monkeypatch, D, "link_views_disagree")
    AutofusePass().apply(make_context(), m)
    assert links["link_views_disagree"] > 10, "few linked pairs were checked: the test would prove little"
    assert max(calls.values(), default=0) <= 1


# -- the kept answers change no verdict, no Reason, no output ----------------------------


def _graphs() -> list[tuple[str, str, LowerAutofusePass]]:
    out = [(f"{k}{n}", generate(k, n, s), LowerAutofusePass()) for k, n, s in (
        ("fanout", 180, 11), ("diamond", 220, 12), ("mixed", 200, 13), ("concat_tree", 160, 14), ("mixed", 90, 15),
    )]  # fmt: skip
    out += [(f"random{s}", random_graph(s), pass_for(s)) for s in range(0, 48, 3)]
    out += [
        (f"split{s}", random_graph(s), dataclasses.replace(pass_for(s), split_lowering="split")) for s in (1, 5, 9, 13)
    ]
    out += [(f"gather{s}", random_gather_graph(s), LowerAutofusePass(enable_pass=("gather",))) for s in range(4)]
    out += [
        ("fan-0d", fan(5, "", "f32").replace("tensor<xf32>", "tensor<f32>"), LowerAutofusePass()),
        ("fan-size0", fan(5, "3x0", "f16"), LowerAutofusePass()),
    ]
    return out


def _verdicts(monkeypatch, text: str, lowering: LowerAutofusePass, keep: bool) -> tuple[list, str]:
    m = parse(text)
    lowering.apply(make_context(), m)
    seen: list = []
    real = D.AscBackendFusionDecider.can_fuse

    def recorded(self, a, b):
        r = real(self, a, b)
        seen.append((D.node_name(a), D.node_name(b), r))
        return r

    with monkeypatch.context() as mp:
        mp.setattr(D.AscBackendFusionDecider, "can_fuse", recorded)
        if not keep:
            mp.setattr(M.NodeQueries, "keep", False, raising=False)
        AutofusePass().apply(make_context(), m)
    return seen, print_module(m)


@pytest.mark.parametrize("name,text,lowering", _graphs(), ids=[g[0] for g in _graphs()])
def test_kept_answers_give_every_verdict_and_reason_of_a_fresh_run(monkeypatch, name, text, lowering):
    kept, out_kept = _verdicts(monkeypatch, text, lowering, keep=True)
    fresh, out_fresh = _verdicts(monkeypatch, text, lowering, keep=False)
    assert kept == fresh  # the same pairs asked in the same order, the same Reasons
    assert out_kept == out_fresh


def test_the_verdict_comparison_is_not_vacuous(monkeypatch):
    seen, _ = _verdicts(monkeypatch, generate("mixed", 200, 13), LowerAutofusePass(), keep=True)
    rules = {r.rule for _, _, r in seen if r is not None}
    assert sum(r is None for _, _, r in seen) > 20 and len(rules) >= 3
