"""ge-lower-autofuse keeps the numbers: the reference result of the lowered graph equals the
reference result of the original, for every example and for random graphs mixing
pointwise, broadcast, reduce, concat, split, transpose and reshape (fixed seeds).

Exact for graphs without reductions (same numpy ops in the same dtype); within 1e-5
relative where a reduction may sum in another order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.gen_graphs import generate
from conftest import EXAMPLES, check_lowering, parse
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from lowering_graphs import ALL, GATHER_ALL, pass_for, random_gather_graph, random_graph


@pytest.mark.parametrize("seed", range(240))
def test_random_graph(seed: int):
    text = random_graph(seed)
    check_lowering(text, seed, pass_for(seed))


@pytest.mark.parametrize("seed", range(6))
def test_bench_generator_graphs(seed: int):
    """The bench's mixed graphs (matmul, conv, split, reshape, concat; externs among them)."""
    check_lowering(generate("mixed", 120, seed), seed, pass_for(seed))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("flags", [(), ALL], ids=["default", "all"])
def test_examples(path: Path, flags: tuple[str, ...]):
    check_lowering(path.read_text(), 0, LowerAutofusePass(enable_pass=flags))


@pytest.mark.parametrize("seed", range(80))
def test_random_gather_graph(seed: int):
    """Graphs around Gather/GatherV2, lowered with gather on (and off every fourth seed)."""
    flags = GATHER_ALL if seed % 4 else ALL
    check_lowering(random_gather_graph(seed), seed, LowerAutofusePass(enable_pass=flags, cse=seed % 3 != 0))


def test_random_gather_graphs_lower_gathers():
    """The gather generator is not vacuous: gather kernels appear, and GE ops stay where
    LowerGather refuses (GatherV2 on a non-last axis)."""
    lowered = kept = 0
    for seed in range(40):
        m = parse(random_gather_graph(seed))
        LowerAutofusePass(enable_pass=GATHER_ALL).apply(make_context(), m)
        lowered += sum(isinstance(op, ge.AscBackend) and op.attributes["fuse_type"].data == "gather" for op in m.walk())  # type: ignore[attr-defined]
        kept += sum(isinstance(op, ge.GatherBase) for op in m.walk())
    assert lowered >= 20 and kept >= 3


def test_random_graphs_lower_something():
    """The generator is not vacuous: across the seeds, AscBackends of every fuse type and
    with reductions appear."""
    kinds: set[str] = set()
    for seed in range(1, 240, 4):
        m = parse(random_graph(seed))
        LowerAutofusePass(enable_pass=ALL).apply(make_context(), m)
        for op in m.walk():
            if isinstance(op, ge.AscBackend):
                kinds.add(op.attributes["fuse_type"].data)  # type: ignore[attr-defined]
    assert {"pointwise", "reduce", "concat", "transpose", "slice"} <= kinds
