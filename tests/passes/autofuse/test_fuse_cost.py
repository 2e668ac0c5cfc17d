"""The work of one fusion in ge-autofuse's Fuse (issue 12, compile time): counted, never timed.

A group growing node by node keeps its AscGraph whole at each loop merge
(test_fuse_cache.py); these tests count what each merge still did per node of that
kept graph, and per fused node:
* the kept graph's nodes are not walked: its Data and Output nodes and its node count
  come from the merge that built it (fuse_cache._Made);
* a tensor's conversion to the merged loop is computed once per type, map and loop for
  the decider's cache, not once per merge;
* `fusion_nodes_size` is counted as the graph is built, not by walking it;
* the two erased nodes' results (unused) are not each replaced by an ErasedSSAValue.
"""

from __future__ import annotations

import pytest
from xdsl.ir import Operation, core

from bench.gen_graphs import generate
from conftest import parse
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import decider as D
from passes.autofuse import fuse_cache as C
from passes.autofuse import loop_merge as LM
from passes.autofuse.autofuse import AutofusePass


def _lowered(kind: str, nodes: int, seed: int):  # type: ignore[no-untyped-def]
    m = parse(generate(kind, nodes, seed))
    LowerAutofusePass().apply(make_context(), m)
    return m


def _asc_nodes(m) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for op in m.walk() if isinstance(op, ag.AscNode))


def _counting(monkeypatch, owner, name: str) -> list[int]:  # type: ignore[no-untyped-def]
    """Count the calls of owner.name from now on."""
    n = [0]
    real = getattr(owner, name)

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        n[0] += 1
        return real(*a, **k)

    monkeypatch.setattr(owner, name, counted)
    return n


def _fused(monkeypatch, m) -> list[int]:  # type: ignore[no-untyped-def]
    fusions = _counting(monkeypatch, D.AscBackendFusionDecider, "fuse")
    AutofusePass(lifting=False).apply(make_context(), m)
    m.verify()  # (ge.AscBackend's verifier checks fusion_nodes_size against the graph)
    return fusions


@pytest.mark.parametrize("kind", ["fanout", "chain", "mixed"])
def test_a_merge_walks_only_the_graph_it_does_not_keep(monkeypatch, kind):
    # each loop merge asked every node of both graphs its kind (loop_merge.node_kind), the kept
    # group's too: fanout 400 asked 3 times as many nodes as the graph has (8,365 for
    # 2,774); now about each node once, when its graph is the one not kept. (A kept
    # node2 graph is still walked, its readers of a merged or bypassed value taking the
    # new value in block order: diamond 400 asks 1,552 for 992, main 2,171.)
    m = _lowered(kind, 400, 1)
    before = _asc_nodes(m)
    asked = _counting(monkeypatch, LM, "node_kind")
    fusions = _fused(monkeypatch, m)
    assert fusions[0] > 20
    assert asked[0] <= before, (asked[0], before)


@pytest.mark.parametrize("kind", ["fanout", "diamond"])
def test_a_tensor_conversion_is_computed_once_per_type_map_and_loop(monkeypatch, kind):
    # the builder's tensor conversions (fuse_cache._TakingBuilder.tensor) were kept for one
    # merge: fanout 400 converted 840 types
    # in 332 fusions, diamond 373 in 124; now once per (type, map, loop) for the solve
    # (104 and 40)
    m = _lowered(kind, 400, 0)
    planned = _counting(monkeypatch, LM, "completed_parts")  # the input plan's
    converted = _counting(monkeypatch, C, "completed_parts")  # the cache's builder's
    fusions = _fused(monkeypatch, m)
    assert fusions[0] > 20
    assert planned[0] + converted[0] <= fusions[0] // 3, (planned[0], converted[0], fusions[0])


def _in_fuse(monkeypatch) -> tuple[list[bool], list[int]]:  # type: ignore[no-untyped-def]
    """([whether a fuse() runs now], [fusions so far])."""
    inside, fusions = [False], [0]
    real = D.AscBackendFusionDecider.fuse

    def fuse(self, n1: Operation, n2: Operation) -> Operation:
        inside[0] = True
        fusions[0] += 1
        try:
            return real(self, n1, n2)
        finally:
            inside[0] = False

    monkeypatch.setattr(D.AscBackendFusionDecider, "fuse", fuse)
    return inside, fusions


def test_fusion_nodes_size_is_counted_as_built(monkeypatch):
    # every loop merge walked its new graph once more for its node count
    m = _lowered("fanout", 300, 0)
    inside, fusions = _in_fuse(monkeypatch)
    counted = [0]
    real = ag.node_count

    def node_count(graph: ag.AscGraphOp) -> int:
        counted[0] += inside[0]
        return real(graph)

    monkeypatch.setattr(ag, "node_count", node_count)
    AutofusePass(lifting=False).apply(make_context(), m)
    m.verify()  # (ge.AscBackend's verifier checks fusion_nodes_size against the graph)
    assert fusions[0] > 20
    assert counted[0] == 0
    fused = [op for op in m.walk() if isinstance(op, ge.AscBackend) and "origin_nodes" in op.attributes]
    assert fused
    for op in fused:
        graph = op.regions[0].block.first_op
        assert isinstance(graph, ag.AscGraphOp)
        assert op.attributes["fusion_nodes_size"].value.data == len(graph.body.block.ops)  # type: ignore[attr-defined]


def test_fuse_replaces_no_unused_result_by_an_erased_value(monkeypatch):
    # Operation.erase replaced each result of both erased nodes (a fused node has an output
    # per member) by an ErasedSSAValue, though none is used any more
    m = _lowered("fanout", 300, 0)
    inside, fusions = _in_fuse(monkeypatch)
    made = [0]

    class Counted(core.ErasedSSAValue):
        def __init__(self, *a, **k):  # type: ignore[no-untyped-def]
            super().__init__(*a, **k)
            # (the AscIR nodes a merge drops from a kept graph are erased as ever)
            made[0] += inside[0] and not isinstance(self.owner, ag.AscNode)

    monkeypatch.setattr(core, "ErasedSSAValue", Counted)
    AutofusePass(lifting=False).apply(make_context(), m)
    m.verify()
    assert fusions[0] > 20
    assert made[0] == 0
