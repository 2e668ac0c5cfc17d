"""ge-lower-autofuse + ge-autofuse keep the numbers: the reference result of the fused
graph equals the original's, for every example and for the lowering test's random
graphs (tests/lowering_graphs.py), plus the bench's mixed graphs. The fused IR verifies and
its printed form parses back. The random graphs also run with GE's A5 split lowering
(ge-lower-autofuse split-lowering=split: StoreSplit boxes that ge-autofuse fuses back).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from bench.gen_graphs import generate
from conftest import EXAMPLES, inputs_for, parse, print_module
from ge_dialect import ge
from ge_dialect.verify import verify_module
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from lowering_graphs import ALL, GATHER_ALL, pass_for, random_gather_graph, random_graph, ty
from passes.autofuse.autofuse import AutofusePass, kernel_traffic
from runtime.interpreter import run_module
from runtime.reference import root_graphs

DEFAULT_FUSE = AutofusePass()


def check_fused(
    text: str, seed: int, lower: LowerAutofusePass, fuse: AutofusePass = DEFAULT_FUSE, prune: bool = False
) -> tuple[int, int]:
    """Lower, fuse, verify, compare; returns (kernels after lowering, kernels after fusion).
    `prune` erases the kernels nothing reads before fusing (see `prune_dead_kernels`)."""
    before = parse(text)
    ins = inputs_for(before, seed)
    want = run_module(before, ins)
    m = before.clone()
    lower.apply(make_context(), m)
    if prune:
        prune_dead_kernels(m)
    k0 = sum(kernel_traffic(g.body.block)[0] for g in root_graphs(m))
    fuse.apply(make_context(), m)
    verify_module(m)
    m = parse(print_module(m))
    # lifting drops every origin region: nothing downstream sees them
    assert all(op.origin is None for op in m.walk() if isinstance(op, ge.AscBackend))
    k1 = sum(kernel_traffic(g.body.block)[0] for g in root_graphs(m))
    got = run_module(m, ins)
    reduces = any(isinstance(op, ge.ReduceD) for op in before.walk())
    assert len(got) == len(want)
    for w, g in zip(want, got):
        assert w.shape == g.shape and w.dtype == g.dtype
        if reduces:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, w)
    return k0, k1


@pytest.mark.parametrize("seed", range(240))
def test_random_graph(seed: int):
    check_fused(random_graph(seed), seed, pass_for(seed))


@pytest.mark.parametrize("seed", range(240))
def test_random_graph_split_lowering(seed: int):
    check_fused(random_graph(seed), seed, dataclasses.replace(pass_for(seed), split_lowering="split"))


def test_split_lowering_is_exercised():
    """The split-lowering runs are not vacuous: with every class enabled, many random graphs
    lower a SplitD into split-typed AscBackends, and ge-autofuse rebuilds multi-output split
    kernels from them (the numbers are checked by test_random_graph_split_lowering)."""
    lowered = rebuilt = 0
    for seed in range(1, 240, 4):  # pass_for variant 1: enable-pass = all classes
        m = parse(random_graph(seed))
        dataclasses.replace(pass_for(seed), split_lowering="split").apply(make_context(), m)
        if not any(isinstance(op, ge.AscBackend) and op.attributes["fuse_type"].data == "split" for op in m.walk()):
            continue
        lowered += 1
        AutofusePass().apply(make_context(), m)
        split_bit = 1 << 4  # loop::FuseType::kSplit
        rebuilt += any(
            isinstance(op, ge.AscBackend)
            and op.attributes["fuse_type_mask"].value.data & split_bit  # type: ignore[attr-defined]
            and len(op.results) > 1
            for op in m.walk()
        )
    assert lowered >= 10 and rebuilt >= 10


@pytest.mark.parametrize("seed", range(4))
def test_bench_generator_graphs(seed: int):
    check_fused(generate("mixed", 120, seed), seed, pass_for(seed))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("flags", [(), ALL], ids=["default", "all"])
def test_examples(path: Path, flags: tuple[str, ...]):
    check_fused(path.read_text(), 0, LowerAutofusePass(enable_pass=flags))


@pytest.mark.parametrize("seed", range(80))
def test_random_gather_graph(seed: int):
    """Graphs around Gather/GatherV2 (gather lowering on): fusion and lifting keep the numbers."""
    check_fused(random_gather_graph(seed), seed, LowerAutofusePass(enable_pass=GATHER_ALL))


def test_random_gather_graphs_fuse_gathers():
    """The gather differential test is not vacuous: on many seeds a gather kernel takes its
    pointwise consumer (fuse type mask gather | pointwise)."""
    from ge_dialect.ascgraph import fuse_type_bit

    both = fuse_type_bit("gather") | fuse_type_bit("pointwise")
    hits = 0
    for seed in range(40):
        m = parse(random_gather_graph(seed))
        LowerAutofusePass(enable_pass=GATHER_ALL).apply(make_context(), m)
        AutofusePass(lifting=False).apply(make_context(), m)
        hits += any(
            isinstance(op, ge.AscBackend) and op.attributes["fuse_type_mask"].value.data & both == both  # type: ignore[attr-defined]
            for op in m.walk()
        )
    assert hits >= 10


def test_random_graphs_fuse_something():
    """The differential test is not vacuous: fusion removes kernels on many seeds."""
    fewer = 0
    for seed in range(1, 240, 8):
        k0, k1 = check_fused(random_graph(seed), seed, LowerAutofusePass(enable_pass=ALL))
        assert k1 <= k0
        fewer += k1 < k0
    assert fewer >= 5


def random_slice_graph(seed: int) -> str:
    """A chain of SplitD slices (split-lowering=slice: StridedSlice views) and pointwise ops:
    the chain goes on from one piece of each split, the others are outputs or unread (their
    kernels pruned before fusion), so a slice of a slice kernel, or of a slice + pointwise
    kernel, is its producer's only reader and can loop-merge by back-stepping the
    consumer's slice onto the producer's Loads (DeleteInvalidLoad -> ProcessViewOps)."""
    rng = random.Random(seed)
    shape = rng.choice(((4, 32), (2, 8, 16), (8, 16), (3, 4, 24)))
    lines = [f"  %in0 = ge.Data {{index = 0}} : {ty(shape)}"]
    cur = ("%in0", shape)
    outs: list[tuple[str, tuple[int, ...]]] = []
    n = 0
    for _ in range(rng.randint(3, 9)):
        name, s = cur
        dims = [d for d, x in enumerate(s) if x % 2 == 0 and (d < len(s) - 1 or x >= 4)]
        if rng.random() < 0.55 and dims:
            d = rng.choice(dims)
            k = rng.choice([q for q in (2, 4) if s[d] % q == 0 and (d < len(s) - 1 or s[d] // q > 1)])
            piece = tuple(x // k if i == d else x for i, x in enumerate(s))
            names = [f"%s{n}_{i}" for i in range(k)]
            lines.append(
                f"  {', '.join(names)} = ge.SplitD({name}) {{split_dim = {d}, num_split = {k}}} : "
                f"({ty(s)}) -> ({', '.join(ty(piece) for _ in names)})"
            )
            keep = rng.randrange(k)
            outs += [(v, piece) for i, v in enumerate(names) if i != keep and rng.random() < 0.3]
            cur = (names[keep], piece)
        else:
            op = rng.choice(("Abs", "Neg", "Relu", "Square"))
            lines.append(f"  %p{n} = ge.{op}({name}) : ({ty(s)}) -> {ty(s)}")
            cur = (f"%p{n}", s)
        n += 1
    outs.append(cur)
    lines.append(f"  ge.NetOutput {', '.join(v for v, _ in outs)} : {', '.join(ty(s) for _, s in outs)}")
    return "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


def prune_dead_kernels(m) -> None:  # type: ignore[no-untyped-def]
    """Erase the AscBackends nothing reads (the unread pieces of a lowered SplitD, which
    would make their producer's output multi-referenced), as GE's Fuse_slice_split UT
    graph has none."""
    for g in root_graphs(m):
        for op in reversed(list(g.body.block.ops)):
            if isinstance(op, ge.AscBackend) and not any(r.uses for r in op.results):
                op.detach()
                op.erase()


def _slice_lowering(seed: int) -> LowerAutofusePass:
    # max-buffer-readers=0 keeps every slice its own kernel (GE's UT shape); the default
    # inlines a slice into its reader, so a reader kernel slices its producer's output
    return LowerAutofusePass(enable_pass=ALL, max_buffer_readers=0 if seed % 2 else 4)


@pytest.mark.parametrize("seed", range(60))
def test_random_slice_graph(seed: int):
    check_fused(random_slice_graph(seed), seed, _slice_lowering(seed), prune=True)


def test_random_slice_graphs_push_slices_up(monkeypatch: pytest.MonkeyPatch):
    """The slice differential test is not vacuous: on many seeds a loop merge runs the
    producer on the consumer's slice (AxisUnification.slices non-empty in Fuse)."""
    from passes.autofuse.loop_merge import LoopMerge

    pushed = [0]
    real = LoopMerge.__init__

    def counting(self, info, u, *a, **k):  # type: ignore[no-untyped-def]
        pushed[0] += bool(u.slices)
        real(self, info, u, *a, **k)

    monkeypatch.setattr(LoopMerge, "__init__", counting)
    seeds = 0
    for seed in range(60):
        before = pushed[0]
        check_fused(random_slice_graph(seed), seed, _slice_lowering(seed), prune=True)
        seeds += pushed[0] > before
    assert seeds >= 15, seeds
