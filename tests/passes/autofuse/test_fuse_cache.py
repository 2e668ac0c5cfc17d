"""The fusion decider's caches (passes/autofuse/fuse_cache.py) change no output.

`FuseCache` keeps the decider's answers across pairs (per node, per pair inside the
solver's pair cache, the verdict of an unlinked pair of plain nodes by content) and makes
Fuse's loop merge move the two nodes' AscIR nodes instead of cloning them, keeping a graph
an earlier merge built over the same loop whole (`KeptLoopMerge`). `NoFuseCache`, the
plain GE path (ge-autofuse's `fuse-cache=false`, GE_FUSE_CACHE=0), computes every answer
afresh and clones. The tests compare `ge-compile`'s printed IR and remarks with the cache
on and off, byte for byte, on every example, the ONNX zoo, 200 random graphs
(tests/random_graphs.py) and generated graphs of every bench/gen_graphs.py kind, and the
autofuse pass alone on the lowering tests' random graphs (broadcasts, reductions, concat,
split, slices, gathers) and a graph with 0-d, size-0, f16 and int32 tensors and
multi-output kernels; and they count the work the cache saves (never time).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from pathlib import Path

import onnx
import pytest
from test_autofuse_differential import _slice_lowering, prune_dead_kernels, random_slice_graph
from test_canfuse_tables import fan
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from bench.gen_graphs import KINDS, generate
from conftest import ROOT, lowered, parse, print_module
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.diagnostics import remark_sink
from ge_tools.pipeline import GeCompilePass, expand
from ge_tools.registry import make_context
from importers.onnx import import_model
from lowering.lower_autofuse import LowerAutofusePass
from lowering_graphs import ALL, GATHER_ALL, pass_for, random_gather_graph, random_graph
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import axis_mapping as M
from passes.autofuse import decider as D
from passes.autofuse import fuse_cache as C
from passes.autofuse import loop_merge as LM
from passes.autofuse.autofuse import AutofusePass
from passes.autofuse.solver import FusionPriority
from random_graphs import graph_text

_CREATE = Operation.create.__func__  # type: ignore[attr-defined]


# -- ge-compile with the cache on and off ----------------------------------------------------


def _compiled(m: ModuleOp) -> str:
    """ge-compile's printed IR and remarks (as ge-opt -p ge-compile --remarks prints them),
    or the error that stopped it."""
    lines: list[str] = []
    try:
        with remark_sink(lambda r: lines.append(r.line())):
            for p in expand([GeCompilePass()]):
                if any(f.name == "remarks" for f in dataclasses.fields(p)):
                    p = dataclasses.replace(p, remarks=True)  # type: ignore[call-arg]
                p.apply(make_context(), m)
    except Exception as e:  # noqa: BLE001 (an error must be the same both ways too)
        return "\n".join(lines) + f"\n{type(e).__name__}: {e}"
    return print_module(m) + "\n".join(lines)


def _both_ways(monkeypatch: pytest.MonkeyPatch, load) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    outs = []
    for flag in ("1", "0"):
        monkeypatch.setenv(C.FUSE_CACHE_ENV, flag)
        outs.append(_compiled(load()))
    return outs[0], outs[1]


def _fused(text: str) -> bool:
    return "autofuse_" in text


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.mlir")), ids=lambda p: p.name)
def test_cache_on_and_off_compile_the_examples_alike(monkeypatch, path: Path):
    on, off = _both_ways(monkeypatch, lambda: parse(path.read_text()))
    assert on == off


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "zoo").glob("*.onnx")), ids=lambda p: p.name)
def test_cache_on_and_off_compile_the_zoo_alike(monkeypatch, path: Path):
    # (a dynamic batch dim imported as ?: its graph goes through the dynamic partition)
    on, off = _both_ways(monkeypatch, lambda: import_model(onnx.load(str(path)), path.name, dynamic_dims=True))
    assert on == off


@pytest.mark.parametrize("first", range(0, 200, 20))
def test_cache_on_and_off_compile_random_graphs_alike(monkeypatch, first: int):
    fused = 0
    for seed in range(first, first + 20):
        text = graph_text(seed)
        on, off = _both_ways(monkeypatch, lambda text=text: parse(text))
        assert on == off, seed
        fused += _fused(on)
    assert fused > 0  # (not vacuous: some graphs fuse)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_cache_on_and_off_compile_generated_graphs_alike(monkeypatch, kind: str, seed: int):
    text = generate(kind, 120, seed)
    on, off = _both_ways(monkeypatch, lambda: parse(text))
    assert on == off
    assert _fused(on)


def test_the_switch_selects_the_plain_path(monkeypatch):
    monkeypatch.setenv(C.FUSE_CACHE_ENV, "0")
    assert type(D.AscBackendFusionDecider().cache) is C.NoFuseCache
    monkeypatch.setenv(C.FUSE_CACHE_ENV, "1")
    assert type(D.AscBackendFusionDecider().cache) is C.FuseCache
    assert type(C.make_fuse_cache(False)) is C.NoFuseCache
    # ge-autofuse{fuse-cache=false}: no KeptLoopMerge, every loop merge clones
    kept = []
    real = C.KeptLoopMerge.run

    def counted(self):  # type: ignore[no-untyped-def]
        kept.append(1)
        return real(self)

    monkeypatch.setattr(C.KeptLoopMerge, "run", counted)
    for flag in (False, True):
        m = parse(generate("fanout", 80, 0))
        LowerAutofusePass().apply(make_context(), m)
        AutofusePass(fuse_cache=flag).apply(make_context(), m)
        assert bool(kept) is flag


# -- the loop merge: moved, not cloned ---------------------------------------------------------


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
@pytest.mark.parametrize("cache", [True, False])
def test_fusion_with_the_cache_clones_no_node_whose_type_stays(monkeypatch, kind, cache):
    # every loop merge of these graphs renumbers no axis and completes no tensor: the
    # plain path clones every node of both sides (fanout 300: thousands of clones)
    m = _lowered(generate(kind, 300, 0))
    fused = []
    real = D.AscBackendFusionDecider.fuse

    def counted(self, n1, n2):  # type: ignore[no-untyped-def]
        fused.append(1)
        return real(self, n1, n2)

    monkeypatch.setattr(D.AscBackendFusionDecider, "fuse", counted)
    made = _count_created(monkeypatch)
    AutofusePass(lifting=False, fuse_cache=cache).apply(make_context(), m)
    assert len(fused) > 50
    clones = [op for op in made if not isinstance(op, ag.Transpose | ag.Broadcast)]
    assert (clones == []) is cache


@pytest.mark.parametrize("kind", ["fanout", "diamond", "chain", "mixed"])
def test_each_node_is_put_into_a_fused_graph_about_once(monkeypatch, kind):
    # a group growing node by node to the 64-node cap was copied at each step (quadratic in
    # the group size); with the cache a graph built by a merge over the same loop stays
    m = _lowered(generate(kind, 400, 1))
    before = _asc_nodes(m)
    put = [0]
    for owner, name in ((LM.LoopBuilder, "clone"), (C._TakingBuilder, "move_as_is")):
        real = getattr(owner, name)

        def counted(self, *a, _real=real, **k):  # type: ignore[no-untyped-def]
            put[0] += 1
            return _real(self, *a, **k)

        monkeypatch.setattr(owner, name, counted)
    AutofusePass(lifting=False).apply(make_context(), m)
    assert put[0] <= before, (put[0], before)


def _fused_both_ways(m_text: str, lower: LowerAutofusePass, prune: bool = False) -> tuple[str, str]:
    outs = []
    for cache in (True, False):
        m = _lowered(m_text, lower)
        if prune:
            prune_dead_kernels(m)
        AutofusePass(fuse_cache=cache).apply(make_context(), m)
        m.verify()
        outs.append(print_module(m))
    return outs[0], outs[1]


@pytest.mark.parametrize("seed", range(0, 240, 7))
def test_cache_on_and_off_fuse_alike_random(seed):
    a, b = _fused_both_ways(random_graph(seed), pass_for(seed))
    assert a == b
    a, b = _fused_both_ways(random_graph(seed), dataclasses.replace(pass_for(seed), split_lowering="split"))
    assert a == b


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_cache_on_and_off_fuse_alike_slices(seed):
    # slice back-stepping: node1 runs on the consumer's box (its types change: cloned)
    a, b = _fused_both_ways(random_slice_graph(seed), _slice_lowering(seed), prune=True)
    assert a == b


@pytest.mark.parametrize("seed", range(0, 80, 5))
def test_cache_on_and_off_fuse_alike_gathers(seed):
    a, b = _fused_both_ways(random_gather_graph(seed), LowerAutofusePass(enable_pass=GATHER_ALL))
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
def test_cache_on_and_off_fuse_alike_0d_size0_dtypes_multi_output(flags):
    a, b = _fused_both_ways(ODD, LowerAutofusePass(enable_pass=flags))
    assert a == b
    m = parse(a)
    multi = [op for op in m.walk() if isinstance(op, ge.AscBackend) and len(op.results) > 1]
    assert multi, "a kernel with two outputs (an output also read by the partner)"


def test_build_fused_keep_groups_leaves_both_nodes_as_they_were():
    # the global solver builds candidates and undoes them: build_fused without take must not
    # consume na / nb (their AscGraphs print as before; a second build gives the same node)
    m = _lowered(generate("fanout", 60, 0))
    block = next(op for op in m.walk() if isinstance(op, ge.GraphOp)).body.block
    d = D.AscBackendFusionDecider(cache=C.FuseCache())
    pair = next(
        (op, use.operation)
        for op in block.ops
        for r in op.results
        for use in r.uses
        if U.is_asc_backend(op) and U.is_asc_backend(use.operation) and d.can_fuse(op, use.operation) is None
    )
    texts = [str(n) for n in pair]
    first = d.build_fused(*pair, keep_groups=True)
    second = d.build_fused(*pair, keep_groups=True)
    assert [str(n) for n in pair] == texts
    assert not isinstance(first, D.Reason) and not isinstance(second, D.Reason)
    g1, g2 = U.asc_graph(first[0]), U.asc_graph(second[0])
    assert g1 is not None and g2 is not None
    assert [str(n) for n in g1.body.block.ops] == [str(n) for n in g2.body.block.ops]
    assert set(g1.body.block.ops).isdisjoint({*U.asc_nodes(pair[0]), *U.asc_nodes(pair[1])})


# -- CanFuse of alike pairs, once per content -------------------------------------------------


def _counting(monkeypatch, owner, name: str, calls: Counter) -> None:
    real = getattr(owner, name)

    def counted(*a, **k):
        calls[name] += 1
        return real(*a, **k)

    monkeypatch.setattr(owner, name, counted)


@pytest.mark.parametrize("cache", [C.FuseCache, C.NoFuseCache])
def test_alike_readers_are_evaluated_once_with_the_cache(monkeypatch, cache):
    # 7 pointwise readers of one tensor: 21 unlinked pairs, all alike (the plain path: 21
    # evaluations, 21 NodeFuseInfos)
    calls: Counter = Counter()
    _counting(monkeypatch, D.AscBackendFusionDecider, "_can_fuse_pair", calls)
    _counting(monkeypatch, D, "node_fuse_info", calls)
    _, nodes = lowered(fan(7))
    ops = list(nodes.values())
    d = D.AscBackendFusionDecider(cache=cache())
    with d.pair_cache():
        verdicts = [d.can_fuse(a, b) for a, b in itertools.combinations(ops, 2)]
        prios = [d.get_fusion_pair_priority(a, b) for a, b in itertools.combinations(ops, 2)]
    assert len(ops) == 7 and verdicts == [None] * 21
    assert prios == [FusionPriority.DEFAULT] * 21
    want = 1 if cache is C.FuseCache else 21
    assert calls["_can_fuse_pair"] == want
    assert calls["node_fuse_info"] == want


def test_outside_the_pair_cache_every_pair_is_evaluated(monkeypatch):
    # Fuse changes operands and uses: the kept verdicts and tables serve the pair cache only
    calls: Counter = Counter()
    _counting(monkeypatch, D.AscBackendFusionDecider, "_can_fuse_pair", calls)
    _, nodes = lowered(fan(4))
    ops = list(nodes.values())
    d = D.AscBackendFusionDecider(cache=C.FuseCache())
    assert [d.can_fuse(a, b) for a, b in itertools.combinations(ops, 2)] == [None] * 6
    assert calls["_can_fuse_pair"] == 6


def test_node_links_give_node_fuse_infos_equal_to_the_walk():
    m = parse(generate("mixed", 200, 21))
    LowerAutofusePass().apply(make_context(), m)
    ops = [o for o in next(iter(m.ops)).body.block.ops if U.inner_backends(o)]
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
def test_every_pair_gets_the_verdict_and_reason_of_the_plain_path(name, text, lowering):
    m = parse(text)
    lowering.apply(make_context(), m)
    ops = [o for o in next(iter(m.ops)).body.block.ops if U.inner_backends(o)]
    pairs = list(itertools.permutations(ops, 2))
    kept = D.AscBackendFusionDecider(max_fusion_size=16, max_input_nums_after_fuse=2, cache=C.FuseCache())
    with kept.pair_cache():
        got = [(kept.can_fuse(a, b), kept.get_fusion_pair_priority(a, b)) for a, b in pairs]
    plain = D.AscBackendFusionDecider(max_fusion_size=16, max_input_nums_after_fuse=2, cache=C.NoFuseCache())
    with plain.pair_cache():
        want = [(plain.can_fuse(a, b), plain.get_fusion_pair_priority(a, b)) for a, b in pairs]
    assert got == want


def test_the_comparison_is_not_vacuous():
    m = parse(_graphs()[0][1])
    LowerAutofusePass().apply(make_context(), m)
    ops = [o for o in next(iter(m.ops)).body.block.ops if U.inner_backends(o)]
    cache = C.FuseCache()
    d = D.AscBackendFusionDecider(max_fusion_size=16, max_input_nums_after_fuse=2, cache=cache)
    with d.pair_cache():
        rules = Counter(
            r.rule if (r := d.can_fuse(a, b)) is not None else None for a, b in itertools.combinations(ops, 2)
        )
    # accepted, too big and too many inputs among the alike pairs, each kept once
    assert {None, "MaxFusionNodesSizeExceedThreshold", "InputNumsExceedThreshold"} <= set(rules)
    assert len(cache.alike) >= 3
