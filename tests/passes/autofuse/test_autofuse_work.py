"""ge-autofuse's work around the solve (issue 12, compile time): counted, never timed.

* the lifting walks (LiftingAscBackendOp, LiftingPoorPerfFusedAscBackendOp) offer the
  pattern the graph's own nodes only, not every AscIR node of every AscGraph, and give
  the IR xDSL's PatternRewriteWalker gives;
* Fuse's erase of the two fused nodes does not walk their origin regions (the
  regions are their own and isolated, and die with them).
(test_canfuse_tables.py: the solver sizes each buffer once per solve.)
"""

from __future__ import annotations

import pytest
from xdsl.ir import Block

from bench.gen_graphs import generate
from conftest import count_calls, parse, walker_once, without_fuse_handoff
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import concat_lifting as CL
from passes.autofuse import decider as D
from passes.autofuse import fuse_cache as C
from passes.autofuse import lifting as L
from passes.autofuse.autofuse import AutofusePass


def _lowered(kind: str, nodes: int, seed: int):  # type: ignore[no-untyped-def]
    m = parse(generate(kind, nodes, seed))
    LowerAutofusePass().apply(make_context(), m)
    return m


def _graph_block(m) -> Block:  # type: ignore[no-untyped-def]
    g = next(op for op in m.ops if isinstance(op, ge.GraphOp))
    return g.body.block


def _lifted_both_ways(monkeypatch, kind: str, nodes: int, seed: int, owner, pattern: type, lift):  # type: ignore[no-untyped-def]
    """Lift one greedily fused graph twice: with rewrite_block_once (as `owner`, the lifting
    module, calls it) and with xDSL's walker in its place. Per drive: what `lift` returned,
    the printed module, the calls of `pattern`'s match_and_rewrite, the graph's nodes and
    the AscIR nodes nested in it before the lift."""
    runs = []
    for drive in (L.rewrite_block_once, walker_once):
        m = _lowered(kind, nodes, seed)
        AutofusePass(lifting=False).apply(make_context(), m)
        block = _graph_block(m)
        top = len(block.ops)
        nested = sum(1 for op in m.walk() if isinstance(op, ag.AscNode))
        calls = count_calls(monkeypatch, pattern, "match_and_rewrite")
        monkeypatch.setattr(owner, "rewrite_block_once", drive)
        lifted = lift(block, remarks=False)
        monkeypatch.undo()
        m.verify()
        runs.append((lifted, str(m), calls[0], top, nested))
    return runs


@pytest.mark.parametrize("kind,seed", [("mixed", 0), ("mixed", 3), ("concat_tree", 1), ("diamond", 2), ("chain", 0)])
def test_lifting_offers_the_pattern_the_graph_nodes_only(monkeypatch, kind, seed):
    """lift_graph after a greedy solve: match_and_rewrite is called once per node of the
    graph (not once per nested AscIR node), and the result is the walker's, printed."""
    ours, walker = _lifted_both_ways(monkeypatch, kind, 150, seed, L, L.LiftingAscBackendOp, L.lift_graph)
    lifted, text, calls, top, nested = ours
    assert calls == top, (calls, top)
    assert nested > top  # (the walk would have offered every AscIR node too)
    assert walker[2] > walker[3]  # (the walker offers nested AscIR nodes too, but those of lifted nodes)
    assert (lifted, text) == walker[:2]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_concat_lifting_gives_the_walkers_ir(monkeypatch, seed):
    """lifting_poor_perf_fused_asc_backends (FusedAscBackends that hold a concat): the
    same unfolded nodes and IR as xDSL's walker, one call per graph node."""
    ours, walker = _lifted_both_ways(
        monkeypatch, "concat_tree", 200, seed, CL, CL.LiftingPoorPerfFusedAscBackendOp,
        CL.lifting_poor_perf_fused_asc_backends,
    )  # fmt: skip
    assert ours[2] == ours[3]
    assert ours[:2] == walker[:2]


def test_rewrite_block_once_skips_what_a_rewrite_removed():
    """A node a rewrite takes out of the block before its turn is not offered (the walker
    drops it from its worklist), and nodes a rewrite inserts are not offered."""
    from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

    m = parse(
        "ge.graph @main {\n"
        "  %x = ge.Data {index = 0} : tensor<8x128xf16>\n"
        "  %a = ge.Relu(%x) : (tensor<8x128xf16>) -> tensor<8x128xf16>\n"
        "  %b = ge.Relu(%a) : (tensor<8x128xf16>) -> tensor<8x128xf16>\n"
        "  %c = ge.Exp(%b) : (tensor<8x128xf16>) -> tensor<8x128xf16>\n"
        "  ge.NetOutput %c : tensor<8x128xf16>\n"
        "}\n"
    )
    block = _graph_block(m)
    relus = [op for op in block.ops if ge.ge_type(op) == "Relu"]
    assert len(relus) == 2
    seen: list[str] = []

    class EraseNextAndInsert(RewritePattern):
        def match_and_rewrite(self, op, rewriter: PatternRewriter) -> None:  # type: ignore[no-untyped-def]
            seen.append(ge.node_name(op))
            if op is relus[0]:
                nxt = relus[1]
                nxt.results[0].replace_all_uses_with(nxt.operands[0])
                rewriter.erase(nxt)
                rewriter.insert(ge.Data.create(result_types=[op.results[0].type]))

    L.rewrite_block_once(EraseNextAndInsert(), block)
    names = [ge.node_name(o) for o in relus]
    assert names[0] in seen and names[1] not in seen
    assert len(seen) == len(block.ops) - 1  # every node but the inserted Data


@pytest.mark.parametrize("kind,seed", [("fanout", 0), ("mixed", 1), ("diamond", 2), ("concat_tree", 0)])
def test_fuse_does_not_walk_the_erased_nodes_origins(monkeypatch, kind, seed):
    """The nodes of lowering's origin regions are not visited when Fuse erases their
    AscBackend, and no live value is left with a use by an erased node."""
    from xdsl.ir import Operation

    m = _lowered(kind, 200, seed)
    in_origins = {
        id(o): o for op in m.walk() if isinstance(op, ge.AscBackend) and op.origin is not None for o in op.origin.walk()
    }
    assert in_origins
    visited = [0]
    real = Operation.drop_all_references

    def counted(self):  # type: ignore[no-untyped-def]
        if id(self) in in_origins:
            visited[0] += 1
        return real(self)

    monkeypatch.setattr(Operation, "drop_all_references", counted)
    fusions = [0]
    real_fuse = D.AscBackendFusionDecider.fuse

    def fuse(self, n1, n2):  # type: ignore[no-untyped-def]
        fusions[0] += 1
        return real_fuse(self, n1, n2)

    monkeypatch.setattr(D.AscBackendFusionDecider, "fuse", fuse)
    AutofusePass(lifting=False).apply(make_context(), m)
    assert fusions[0] > 0 and visited[0] == 0
    live = {id(op) for op in m.walk()}
    for op in m.walk():
        for r in op.results:
            assert all(id(u.operation) in live for u in r.uses)
    m.verify()


@pytest.mark.parametrize("kind", ["fanout", "mixed"])
def test_a_graph_scan_walks_the_graph_once(monkeypatch, kind):
    """NodeQueries' scan of an AscGraph (its Loads, Data, Output and partial axes) is one
    walk of its nodes: AscGraphOp.data_nodes, a second walk, is not asked by the scans."""
    from passes.autofuse import axis_mapping as AM

    m = _lowered(kind, 200, 0)
    scans, datas = [0], [0]
    real_scan, real_datas = AM._GraphScan.__init__, ag.AscGraphOp.data_nodes

    def scan(self, graph):  # type: ignore[no-untyped-def]
        scans[0] += 1
        before = datas[0]
        real_scan(self, graph)
        assert datas[0] == before, "the scan listed the Data nodes with a second walk"
        assert self.datas == real_datas(graph)  # (AscGraphOp.data_nodes' order)

    def data_nodes(self):  # type: ignore[no-untyped-def]
        datas[0] += 1
        return real_datas(self)

    monkeypatch.setattr(AM._GraphScan, "__init__", scan)
    monkeypatch.setattr(ag.AscGraphOp, "data_nodes", data_nodes)
    AutofusePass(lifting=False).apply(make_context(), m)
    assert scans[0] > 50


def _solve(kind: str, seed: int, monkeypatch=None, no_handoff: bool = False):  # type: ignore[no-untyped-def]
    m = _lowered(kind, 200, seed)
    if no_handoff:
        assert monkeypatch is not None
        without_fuse_handoff(monkeypatch)
    AutofusePass(lifting=False).apply(make_context(), m)
    if no_handoff:
        assert monkeypatch is not None
        monkeypatch.undo()
    return str(m)


def _fuse_infos(monkeypatch, kind: str, seed: int, no_handoff: bool) -> list[tuple[bool, int]]:  # type: ignore[no-untyped-def]
    """Solve one lowered graph greedily; per Fuse, in order: whether the CanFuse right
    before it accepted the same pair, and how many NodeFuseInfos the Fuse built."""
    m = _lowered(kind, 200, seed)
    events: list[tuple[str, object]] = []
    fuses: list[list] = []  # [handed, node_fuse_info calls]
    real_can, real_fuse, real_info = (
        D.AscBackendFusionDecider.can_fuse,
        D.AscBackendFusionDecider.fuse,
        D.node_fuse_info,
    )
    inside = [False]

    def can_fuse(self, n1, n2):  # type: ignore[no-untyped-def]
        r = real_can(self, n1, n2)
        events.append(("can", (n1, n2) if r is None and getattr(self.cache, "_links", None) is None else None))
        return r

    def fuse(self, n1, n2):  # type: ignore[no-untyped-def]
        prev = events[-1] if events else None
        handed = prev is not None and prev[0] == "can" and prev[1] == D.ordered_pair(n1, n2)
        events.append(("fuse", handed))
        fuses.append([handed, 0])
        inside[0] = True
        try:
            return real_fuse(self, n1, n2)
        finally:
            inside[0] = False

    def info(a, b):  # type: ignore[no-untyped-def]
        if inside[0]:
            fuses[-1][1] += 1
        return real_info(a, b)

    monkeypatch.setattr(D.AscBackendFusionDecider, "can_fuse", can_fuse)
    monkeypatch.setattr(D.AscBackendFusionDecider, "fuse", fuse)
    monkeypatch.setattr(D, "node_fuse_info", info)
    if no_handoff:
        without_fuse_handoff(monkeypatch)
    AutofusePass(lifting=False).apply(make_context(), m)
    monkeypatch.undo()
    return [(h, n) for h, n in fuses]


@pytest.mark.parametrize("kind,seed", [("fanout", 0), ("diamond", 1), ("mixed", 2), ("concat_tree", 3)])
def test_fuse_reads_the_pair_canfuse_just_accepted(monkeypatch, kind, seed):
    """Fuse right after CanFuse accepted the same pair (the solver's FuseNodesOnce) builds
    no second NodeFuseInfo; every other Fuse builds what it builds when no Fuse reuses a
    pair, Fuse by Fuse; the IR is the same as when every Fuse builds its own."""
    assert _solve(kind, seed) == _solve(kind, seed, monkeypatch, no_handoff=True)
    ours = _fuse_infos(monkeypatch, kind, seed, no_handoff=False)
    plain = _fuse_infos(monkeypatch, kind, seed, no_handoff=True)
    assert [h for h, _ in ours] == [h for h, _ in plain]  # the same Fuses, in the same order
    assert any(h for h, _ in ours)
    for i, ((handed, n), (_, want)) in enumerate(zip(ours, plain, strict=True)):
        if handed:
            assert (n, want) == (0, 1), (i, n, want)  # (main: built the pair again)
        else:
            assert n == want, (i, n, want)


def test_a_call_between_canfuse_and_fuse_drops_the_handoff():
    """CanFuse(a, b) accepted, then CanFuse of another pair: Fuse(a, b) builds its own pair."""
    m = _lowered("fanout", 60, 0)
    block = _graph_block(m)
    cache = C.FuseCache()
    d = D.AscBackendFusionDecider(cache=cache)
    backends = [op for op in block.ops if isinstance(op, ge.AscBackend)]
    pairs = [(a, b) for i, a in enumerate(backends) for b in backends[i + 1 :] if set(a.operands) & set(b.operands)]
    ok = [p for p in pairs if d.can_fuse(*p) is None]
    assert len(ok) >= 2
    (a, b), (c, e) = ok[0], ok[1]
    assert d.can_fuse(a, b) is None and cache._handoff is not None and cache._handoff[:2] == (a, b)
    assert d.can_fuse(c, e) is None and cache._handoff[:2] == (c, e)  # type: ignore[index]
    d.build_fused(a, b)  # (not inserted: the pair's own FusePair, and the handoff dropped)
    assert cache._handoff is None
