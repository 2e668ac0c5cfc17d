"""CanFuse of the alike readers of one tensor, once per content (issue 12, compile time).

The solver's GetPossibleFusions asks CanFuse of every pair of a shared-buffer group; in
`fanout` most are unlinked pairs of plain pointwise readers of one tensor, alike in every
fact CanFuse reads (AscBackendFusionDecider._alike_key), and each built its NodeFuseInfo,
FusePair, axis-map key and input plan again. The decider now keeps such a pair's verdict
by content, reads node_fuse_info's operands and uses from per-node tables
(axis_mapping.NodeLinks) while the pair cache is open, and answers the priority of a
pair only the default strategy matches without building the pair. These tests count the
work (never time) and compare every verdict and Reason with a decider that keeps nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from test_canfuse_tables import fan

from bench.gen_graphs import generate
from conftest import lowered, parse
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from lowering_graphs import pass_for, random_graph
from passes.autofuse import axis_mapping as M
from passes.autofuse import decider as D
from passes.autofuse.solver import FusionPriority


def _counting(monkeypatch, owner, name: str, calls: Counter) -> None:
    real = getattr(owner, name)

    def counted(*a, **k):
        calls[name] += 1
        return real(*a, **k)

    monkeypatch.setattr(owner, name, counted)


def test_alike_readers_are_evaluated_once(monkeypatch):
    # 7 pointwise readers of one tensor: 21 unlinked pairs, all alike (main: 21 evaluations,
    # 21 NodeFuseInfos and 21 priorities that built nothing new but asked the pair again)
    calls: Counter = Counter()
    _counting(monkeypatch, D.AscBackendFusionDecider, "_can_fuse_pair", calls)
    _counting(monkeypatch, D, "node_fuse_info", calls)
    _, nodes = lowered(fan(7))
    ops = list(nodes.values())
    d = D.AscBackendFusionDecider()
    with d.pair_cache():
        verdicts = [d.can_fuse(a, b) for a, b in itertools.combinations(ops, 2)]
        prios = [d.get_fusion_pair_priority(a, b) for a, b in itertools.combinations(ops, 2)]
    assert len(ops) == 7 and verdicts == [None] * 21
    assert prios == [FusionPriority.DEFAULT] * 21
    assert calls["_can_fuse_pair"] == 1
    assert calls["node_fuse_info"] == 1


def test_outside_the_pair_cache_every_pair_is_evaluated(monkeypatch):
    # Fuse changes operands and uses: the kept verdicts and tables serve the pair cache only
    calls: Counter = Counter()
    _counting(monkeypatch, D.AscBackendFusionDecider, "_can_fuse_pair", calls)
    _, nodes = lowered(fan(4))
    ops = list(nodes.values())
    d = D.AscBackendFusionDecider()
    assert [d.can_fuse(a, b) for a, b in itertools.combinations(ops, 2)] == [None] * 6
    assert calls["_can_fuse_pair"] == 6


def test_node_links_give_node_fuse_infos_equal_to_the_walk():
    m = parse(generate("mixed", 200, 21))
    LowerAutofusePass().apply(make_context(), m)
    ops = [o for o in next(iter(m.ops)).body.block.ops if D.U.inner_backends(o)]
    links = {o: M.NodeLinks(o) for o in ops}
    compared = 0
    for a, b in itertools.permutations(ops, 2):
        walked = M.node_fuse_info(a, b)
        assert M.node_fuse_info(links[a], links[b]) == walked
        compared += not isinstance(walked, D.Reason)
    assert compared > 100  # (not vacuous: linked and shared pairs among them)


def _readers() -> str:
    """Readers of %x that share it alone, with %y, with %z, twice, or through a broadcast."""
    t, r = "tensor<4x8x16xf16>", "tensor<8x16xf16>"
    body = [f"%x = ge.Data {{index = 0}} : {t}", f"%y = ge.Data {{index = 1}} : {t}"]
    body += [f"%z = ge.Data {{index = 2}} : {t}", f"%w = ge.Data {{index = 3}} : {r}"]
    unary = [f"%u{i} = ge.{op}(%x) : ({t}) -> {t}" for i, op in enumerate(("Relu", "Abs", "Exp", "Neg"))]
    binary = [f"%b{i} = ge.{op}(%x, {v}) : ({t}, {t}) -> {t}" for i, (op, v) in enumerate(
        (("Add", "%y"), ("Mul", "%y"), ("Sub", "%z"), ("Add", "%x"), ("Mul", "%x"), ("Maximum", "%y")))]  # fmt: skip
    bcast = [f"%v{i} = ge.{op}(%x, %w) : ({t}, {r}) -> {t}" for i, op in enumerate(("Add", "Mul"))]
    addn = [f"%n0 = ge.AddN(%x, %y, %z) {{N = 3}} : ({t}, {t}, {t}) -> {t}"]
    chain = [
        f"%c0 = ge.Relu(%x) : ({t}) -> {t}",
        f"%c1 = ge.Exp(%c0) : ({t}) -> {t}",
        f"%c2 = ge.Abs(%c1) : ({t}) -> {t}",
    ]
    chain += [f"%c3 = ge.Abs(%x) : ({t}) -> {t}", f"%c4 = ge.Neg(%c3) : ({t}) -> {t}"]
    outs = ["%u0", "%u1", "%u2", "%u3", "%b0", "%b1", "%b2", "%b3", "%b4", "%b5", "%v0", "%v1", "%n0", "%c2", "%c4"]
    body += unary + binary + bcast + addn + chain
    body.append(f"ge.NetOutput {', '.join(outs)} : {', '.join([t] * len(outs))}")
    return "ge.graph @main {\n" + "\n".join("  " + b for b in body) + "\n}\n"


def _graphs() -> list[tuple[str, str, LowerAutofusePass]]:
    # readers that differ in size, loop, input count and broadcast; splits; random graphs
    out = [("readers", _readers(), LowerAutofusePass())]
    out += [("fan-0d", fan(5, "", "f32").replace("tensor<xf32>", "tensor<f32>"), LowerAutofusePass())]
    out += [
        (f"{k}{s}", generate(k, 160, s), LowerAutofusePass()) for k in ("fanout", "mixed", "diamond") for s in (3, 4)
    ]
    out += [(f"random{s}", random_graph(s), pass_for(s)) for s in range(0, 40, 4)]
    return out


@pytest.mark.parametrize("name,text,lowering", _graphs(), ids=[g[0] for g in _graphs()])
def test_every_pair_gets_the_verdict_and_reason_of_a_decider_that_keeps_nothing(monkeypatch, name, text, lowering):
    m = parse(text)
    lowering.apply(make_context(), m)
    ops = [o for o in next(iter(m.ops)).body.block.ops if D.U.inner_backends(o)]
    pairs = list(itertools.permutations(ops, 2))
    kept = D.AscBackendFusionDecider(max_fusion_size=16, max_input_nums_after_fuse=2)
    with kept.pair_cache():
        got = [(kept.can_fuse(a, b), kept.get_fusion_pair_priority(a, b)) for a, b in pairs]
    with monkeypatch.context() as mp:
        mp.setattr(M.NodeQueries, "keep", False, raising=False)
        fresh = D.AscBackendFusionDecider(max_fusion_size=16, max_input_nums_after_fuse=2)
        want = [(fresh.can_fuse(a, b), fresh.get_fusion_pair_priority(a, b)) for a, b in pairs]
        assert not fresh._alike  # (nothing kept by content)
    assert got == want


def test_the_comparison_is_not_vacuous():
    m = parse(_graphs()[0][1])
    LowerAutofusePass().apply(make_context(), m)
    ops = [o for o in next(iter(m.ops)).body.block.ops if D.U.inner_backends(o)]
    d = D.AscBackendFusionDecider(max_fusion_size=16, max_input_nums_after_fuse=2)
    with d.pair_cache():
        rules = Counter(
            r.rule if (r := d.can_fuse(a, b)) is not None else None for a, b in itertools.combinations(ops, 2)
        )
    # accepted, too big and too many inputs among the alike pairs, each kept once
    assert {None, "MaxFusionNodesSizeExceedThreshold", "InputNumsExceedThreshold"} <= set(rules)
    assert len(d._alike) >= 3
