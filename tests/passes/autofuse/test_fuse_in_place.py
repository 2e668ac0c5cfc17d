"""ge-autofuse's Fuse moves the two nodes' AscIR nodes into the fused AscGraph instead of
cloning them (issue 12, compile time).

greedy's fuse() erases both nodes right after building the fused one, so it owns their
AscGraphs (`build_fused(take=True)`): a loop merge moves each AscIR node into the new graph
and clones only a node whose type the axis conversion changes, and keeps a graph that an
earlier merge of the same decider built over the same loop whole (its block becomes the
fused graph's), so a group that grows node by node is not copied at every step. The global
solver's `build_fused(keep_groups=True)` builds candidates it may undo and still clones.

The tests count the nodes each fusion creates or puts into a graph (never time) and check
that the result is the cloning path's, byte for byte, on generated graphs of every kind,
the lowering tests' random graphs (broadcasts, reductions, concat, split, slices, gathers)
and a graph with 0-d, size-0, f16 and int32 tensors and multi-output kernels.
"""

from __future__ import annotations

import dataclasses

import pytest
from test_autofuse_differential import _slice_lowering, prune_dead_kernels, random_slice_graph
from xdsl.ir import Operation

from bench.gen_graphs import generate
from conftest import parse, print_module
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from lowering_graphs import ALL, GATHER_ALL, pass_for, random_gather_graph, random_graph
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import decider as D
from passes.autofuse.autofuse import AutofusePass

_CREATE = Operation.create.__func__  # type: ignore[attr-defined]


def _count_created(monkeypatch) -> list[ag.AscNode]:
    """Every AscIR node created from now on (clones, and the Transpose/Broadcast a merge
    inserts for a bypassed Load)."""
    made: list[ag.AscNode] = []

    def create(cls, **kw):  # type: ignore[no-untyped-def]
        op = _CREATE(cls, **kw)
        made.append(op)
        return op

    monkeypatch.setattr(ag.AscNode, "create", classmethod(create))
    return made


def _lowered(text: str, lower: LowerAutofusePass | None = None):  # type: ignore[no-untyped-def]
    m = parse(text)
    (lower or LowerAutofusePass()).apply(make_context(), m)
    return m


def _asc_nodes(m) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for op in m.walk() if isinstance(op, ag.AscNode))


@pytest.mark.parametrize("kind", ["fanout", "diamond"])
def test_fusion_clones_no_node_whose_type_stays(monkeypatch, kind):
    # every loop merge of these graphs renumbers no axis and completes no tensor: on main
    # each fusion cloned every node of both sides (fanout 300: thousands of clones)
    m = _lowered(generate(kind, 300, 0))
    fused = []
    real = D.AscBackendFusionDecider.fuse

    def counted(self, n1, n2):  # type: ignore[no-untyped-def]
        fused.append(1)
        return real(self, n1, n2)

    monkeypatch.setattr(D.AscBackendFusionDecider, "fuse", counted)
    made = _count_created(monkeypatch)
    AutofusePass(lifting=False).apply(make_context(), m)
    assert len(fused) > 50
    assert [op for op in made if not isinstance(op, ag.Transpose | ag.Broadcast)] == []


@pytest.mark.parametrize("kind", ["fanout", "diamond", "chain", "mixed"])
def test_each_node_is_put_into_a_fused_graph_about_once(monkeypatch, kind):
    # a group growing node by node to the 64-node cap was copied at each step (quadratic in
    # the group size); now a graph built by a merge over the same loop stays where it is
    m = _lowered(generate(kind, 400, 1))
    before = _asc_nodes(m)
    put = [0]
    for name in ("clone", "move_as_is"):
        if (real := getattr(D._Builder, name, None)) is None:
            continue  # main had only clone

        def counted(self, *a, _real=real, **k):  # type: ignore[no-untyped-def]
            put[0] += 1
            return _real(self, *a, **k)

        monkeypatch.setattr(D._Builder, name, counted)
    AutofusePass(lifting=False).apply(make_context(), m)
    assert put[0] <= before, (put[0], before)


def _fused_both_ways(monkeypatch, m_text: str, lower: LowerAutofusePass, prune: bool = False) -> tuple[str, str]:
    outs = []
    real = D.AscBackendFusionDecider.build_fused
    for take in (True, False):
        if not take:  # the cloning path for every fusion: fuse() no longer owns the nodes

            def cloning(self, n1, n2, keep_groups=False, take=False):  # type: ignore[no-untyped-def]
                return real(self, n1, n2, keep_groups)

            monkeypatch.setattr(D.AscBackendFusionDecider, "build_fused", cloning)
        m = _lowered(m_text, lower)
        if prune:
            prune_dead_kernels(m)
        AutofusePass().apply(make_context(), m)
        m.verify()
        outs.append(print_module(m))
    monkeypatch.setattr(D.AscBackendFusionDecider, "build_fused", real)
    return outs[0], outs[1]


@pytest.mark.parametrize("kind", ["chain", "diamond", "fanout", "concat_tree", "mixed"])
@pytest.mark.parametrize("seed", [2, 3])
def test_moving_prints_what_cloning_prints_generated(monkeypatch, kind, seed):
    a, b = _fused_both_ways(monkeypatch, generate(kind, 160, seed), LowerAutofusePass())
    assert a == b
    assert "ge.AscBackend" in a


@pytest.mark.parametrize("seed", range(0, 240, 7))
def test_moving_prints_what_cloning_prints_random(monkeypatch, seed):
    a, b = _fused_both_ways(monkeypatch, random_graph(seed), pass_for(seed))
    assert a == b
    a, b = _fused_both_ways(
        monkeypatch, random_graph(seed), dataclasses.replace(pass_for(seed), split_lowering="split")
    )
    assert a == b


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_moving_prints_what_cloning_prints_slices(monkeypatch, seed):
    # slice back-stepping: node1 runs on the consumer's box (its types change: cloned)
    a, b = _fused_both_ways(monkeypatch, random_slice_graph(seed), _slice_lowering(seed), prune=True)
    assert a == b


@pytest.mark.parametrize("seed", range(0, 80, 5))
def test_moving_prints_what_cloning_prints_gathers(monkeypatch, seed):
    a, b = _fused_both_ways(monkeypatch, random_gather_graph(seed), LowerAutofusePass(enable_pass=GATHER_ALL))
    assert a == b


ODD = """
ge.graph @main {
  %s = ge.Data {index = 0} : tensor<f32>
  %t = ge.Data {index = 1} : tensor<f32>
  %z = ge.Data {index = 2} : tensor<0x8xf32>
  %h = ge.Data {index = 3} : tensor<4x8xf16>
  %i = ge.Data {index = 4} : tensor<4x8xi32>
  %s1 = ge.Abs(%s) : (tensor<f32>) -> tensor<f32>
  %s2 = ge.Add(%s1, %t) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %s3 = ge.Neg(%s2) : (tensor<f32>) -> tensor<f32>
  %z1 = ge.Relu(%z) : (tensor<0x8xf32>) -> tensor<0x8xf32>
  %z2 = ge.Abs(%z1) : (tensor<0x8xf32>) -> tensor<0x8xf32>
  %h1 = ge.Abs(%h) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %h2 = ge.Neg(%h1) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %h3 = ge.Relu(%h1) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %h4 = ge.Add(%h2, %h3) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %i1 = ge.Abs(%i) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %i2 = ge.Neg(%i1) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  ge.NetOutput %s3, %s2, %z2, %h4, %h2, %i2, %i1 : tensor<f32>, tensor<f32>, tensor<0x8xf32>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xi32>, tensor<4x8xi32>
}
"""


@pytest.mark.parametrize("flags", [(), ALL])
def test_moving_prints_what_cloning_prints_0d_size0_dtypes_multi_output(monkeypatch, flags):
    a, b = _fused_both_ways(monkeypatch, ODD, LowerAutofusePass(enable_pass=flags))
    assert a == b
    m = parse(a)
    multi = [op for op in m.walk() if isinstance(op, ge.AscBackend) and len(op.results) > 1]
    assert multi, "a kernel with two outputs (an output also read by the partner)"


def test_build_fused_keep_groups_leaves_both_nodes_as_they_were():
    # the global solver builds candidates and undoes them: build_fused without take must not
    # consume na / nb (their AscGraphs print as before; a second build gives the same node)
    m = _lowered(generate("fanout", 60, 0))
    block = next(op for op in m.walk() if isinstance(op, ge.GraphOp)).body.block
    d = D.AscBackendFusionDecider()
    pair = None
    for op in block.ops:
        for r in op.results:
            for use in r.uses:
                c = use.operation
                if U.is_asc_backend(op) and U.is_asc_backend(c) and d.can_fuse(op, c) is None:
                    pair = (op, c)
                    break
            if pair:
                break
        if pair:
            break
    assert pair is not None
    texts = [str(n) for n in pair]
    first = d.build_fused(*pair, keep_groups=True)
    second = d.build_fused(*pair, keep_groups=True)
    assert [str(n) for n in pair] == texts
    assert not isinstance(first, D.Reason) and not isinstance(second, D.Reason)
    g1, g2 = U.asc_graph(first[0]), U.asc_graph(second[0])
    assert g1 is not None and g2 is not None
    assert [str(n) for n in g1.body.block.ops] == [str(n) for n in g2.body.block.ops]
    assert set(g1.body.block.ops).isdisjoint({*U.asc_nodes(pair[0]), *U.asc_nodes(pair[1])})
