"""passes/autofuse/symbolic_score.py: GE's ScoreFusionMemory as an expression and
ScoreFusion::Compare's order (fusion_strategy_solver.cpp), on hand-made scores and on
the buffers of a graph ge-symbolic-autofuse lowered. Expected values by hand."""

from __future__ import annotations

from xdsl.context import Context

from ge_dialect import ge
from ge_dialect import symbolic as S
from ge_tools.pipeline import GeCompilePass
from lowering.symbolic_autofuse import SymbolicAutofusePass
from passes.autofuse.symbolic_score import ScoredPair, buffer_size, compare, score_fusion_memory, sort_pairs
from tests.conftest import parse

s0, s1 = S.sym("s0"), S.sym("s1")


def test_ScoreFusion_Compare_identical_scores_by_proximity_then_order() -> None:
    a = ScoredPair(256 * s0 * s1, proximity=3, min_order=1)
    b = ScoredPair(s1 * s0 * 256, proximity=1, min_order=5)
    c = ScoredPair(256 * s0 * s1, proximity=1, min_order=2)
    assert compare(b, a) and not compare(a, b)
    assert compare(c, b) and not compare(b, c)
    assert sort_pairs([a, b, c]) == [c, b, a]


def test_ScoreFusion_Compare_constants_the_larger_first() -> None:
    big, small = ScoredPair(S.const(4096), 9, 9), ScoredPair(S.const(64), 1, 1)
    assert compare(big, small) and not compare(small, big)


def test_ScoreFusion_Compare_symbolic_only_provably_greater_first() -> None:
    # 256*s0*s1 > 4*s0 for all s0, s1 >= 1: first; s0 vs s1 cannot be decided: neither is
    # first, and the stable sort keeps their candidate order
    more, less = ScoredPair(256 * s0 * s1, 5, 5), ScoredPair(4 * s0, 1, 1)
    assert compare(more, less) and not compare(less, more)
    x, y = ScoredPair(4 * s0, 1, 1), ScoredPair(4 * s1, 1, 2)
    assert not compare(x, y) and not compare(y, x)
    assert sort_pairs([y, x]) == [y, x] and sort_pairs([x, y]) == [x, y]
    # a symbolic score against a constant: s0*64 > 64 only with s0 >= 2 (0/1 specialisation)
    sym, const = ScoredPair(64 * s0, 1, 1), ScoredPair(S.const(64), 1, 2)
    assert compare(sym, const, lower=2) and not compare(sym, const, lower=1)


GRAPH = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x?x64xf32>
  %m = ge.ReduceMaxD(%x) {axes = [2], keep_dims = true} : (tensor<?x?x64xf32>) -> tensor<?x?x1xf32>
  %d = ge.Sub(%x, %m) : (tensor<?x?x64xf32>, tensor<?x?x1xf32>) -> tensor<?x?x64xf32>
  %e = ge.Exp(%d) : (tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  %s = ge.ReduceSumD(%e) {axes = [2], keep_dims = true} : (tensor<?x?x64xf32>) -> tensor<?x?x1xf32>
  %y = ge.RealDiv(%e, %s) : (tensor<?x?x64xf32>, tensor<?x?x1xf32>) -> tensor<?x?x64xf32>
  ge.NetOutput %y : tensor<?x?x64xf32>
}"""


def test_ScoreFusionMemory_of_lowered_symbolic_backends() -> None:
    m = parse(GRAPH)
    ctx = Context()
    GeCompilePass().apply(ctx, m)
    SymbolicAutofusePass(input_shapes=("2x3x64",)).apply(ctx, m)
    g = next(op for op in m.ops if isinstance(op, ge.GraphOp) and op.sym_name.data.endswith("unknow"))
    backends = {ge.node_name(op): op for op in g.body.block.ops if isinstance(op, ge.AscBackend)}
    by_origin = {op.attributes["origin_nodes"].data[-1].data: op for op in backends.values()}  # type: ignore[attr-defined]
    exp, rsum, div = by_origin["e"], by_origin["s"], by_origin["y"]
    # the Exp output [s0, s1, 64] f32 is written by Sub_Exp and read by ReduceSumD and RealDiv
    assert S.text(buffer_size(exp.results[0])) == "256*s0*s1"
    assert S.text(buffer_size(rsum.results[0])) == "4*s0*s1"
    bufs = lambda op: [*op.operands, *op.results]  # noqa: E731
    assert S.text(score_fusion_memory(bufs(exp), bufs(rsum))) == "256*s0*s1"
    # ReduceSumD and RealDiv share the Exp output (both read it) and the sum (one writes,
    # the other reads): 256 + 4 bytes per (s0, s1)
    assert S.text(score_fusion_memory(bufs(rsum), bufs(div))) == "260*s0*s1"
    assert S.text(score_fusion_memory(bufs(exp), bufs(div))) == "256*s0*s1"
    # ranked: 260*s0*s1 provably first; the two 256*s0*s1 pairs by proximity
    pairs = [
        ScoredPair(score_fusion_memory(bufs(rsum), bufs(div)), 1, 2, ("s", "y")),
        ScoredPair(score_fusion_memory(bufs(exp), bufs(div)), 2, 1, ("e", "y")),
        ScoredPair(score_fusion_memory(bufs(exp), bufs(rsum)), 1, 1, ("e", "s")),
    ]
    assert [p.tie for p in sort_pairs(pairs)] == [("s", "y"), ("e", "s"), ("e", "y")]
