"""The no-task markings are RewritePatterns driven by xDSL's PatternRewriteWalker.

Each pass keeps the per-graph gates and the shared analyses and hands every node to its
pattern (MarkConcatNotask, MarkPackNotask, MarkSplitNotask, MarkPhonyNotask,
CalcOpRunningParam) through a PatternRewriteWalker that walks forward and applies the
pattern once per node (GE's node loop: a node sees what the earlier nodes locked).
"""

from __future__ import annotations

import pytest
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener, PatternRewriteWalker, RewritePattern

from conftest import parse
from ge_dialect import attrs as A
from ge_dialect.ge import GraphOp, node_name
from ge_tools.registry import make_context
from passes.notask import base as B
from passes.notask import phony as P
from passes.notask.concat import ConcatNotaskPass, MarkConcatNotask
from passes.notask.pack import MarkPackNotask, PackNotaskPass
from passes.notask.phony import CalcOpRunningParam, MarkPhonyNotask, PhonyNotaskPass
from passes.notask.split import MarkSplitNotask, SplitNotaskPass

T = "tensor<4x16xf16>"
T2 = "tensor<8x16xf16>"
T3 = "tensor<2x4x16xf16>"

# Two ConcatD and two Pack reading the same two producer outputs: the first of each kind,
# in node order, takes the producers (IsPreOutAnchorCanReuse refuses the second).
SHARED = f"""
ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Exp(%x) : ({T}) -> {T}
  %c1 = ge.ConcatD(%a, %b) {{concat_dim = 0}} : ({T}, {T}) -> {T2}
  %c2 = ge.ConcatD(%a, %b) {{concat_dim = 0}} : ({T}, {T}) -> {T2}
  %p1 = ge.Pack(%a, %b) {{axis = 0}} : ({T}, {T}) -> {T3}
  %p2 = ge.Pack(%a, %b) {{axis = 0}} : ({T}, {T}) -> {T3}
  ge.NetOutput %c1, %c2, %p1, %p2 : {T2}, {T2}, {T3}, {T3}
}}"""

SPLIT = f"""
ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T2}
  %r = ge.Relu(%x) : ({T2}) -> {T2}
  %s:2 = ge.SplitD(%r) {{split_dim = 0, num_split = 2}} : ({T2}) -> ({T}, {T})
  %e0 = ge.Exp(%s#0) : ({T}) -> {T}
  %e1 = ge.Exp(%s#1) : ({T}) -> {T}
  ge.NetOutput %e0, %e1 : {T}, {T}
}}"""

PHONY = f"""
ge.graph @g {{
  %x = ge.Data {{index = 0}} : {T}
  %a = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Exp(%x) : ({T}) -> {T}
  %c = ge.PhonyConcat(%a, %b) {{concat_dim = [0], N = [2]}} : ({T}, {T}) -> {T2}
  ge.NetOutput %c : {T2}
}}"""


def op_named(module, name: str):  # noqa: ANN001, ANN201
    return next(op for op in module.walk() if not isinstance(op, GraphOp) and op.results and node_name(op) == name)


def marked(module, name: str) -> bool:  # noqa: ANN001
    return A.get_bool(op_named(module, name), A.NO_TASK)


class _Recorded(PatternRewriteWalker):
    """The walker, recording how each pass configured it."""

    seen: list[tuple[type[RewritePattern], bool, bool]] = []

    def rewrite_region(self, region):  # noqa: ANN001, ANN201
        _Recorded.seen.append((type(self.pattern), self.walk_reverse, self.apply_recursively))
        return super().rewrite_region(region)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[type[RewritePattern], bool, bool]]:
    _Recorded.seen = []
    monkeypatch.setattr(B, "PatternRewriteWalker", _Recorded)
    monkeypatch.setattr(P, "PatternRewriteWalker", _Recorded)
    return _Recorded.seen


@pytest.mark.parametrize(
    ("pass_cls", "pattern", "text", "node"),
    [
        (ConcatNotaskPass, MarkConcatNotask, SHARED, "c1"),
        (PackNotaskPass, MarkPackNotask, SHARED, "p1"),
        (SplitNotaskPass, MarkSplitNotask, SPLIT, "s"),
    ],
)
def test_each_marking_is_a_pattern_the_walker_applies_forward_once(recorded, pass_cls, pattern, text, node):
    assert pass_cls.PATTERN is pattern and issubclass(pattern, RewritePattern)
    m = parse(text)
    pass_cls().apply(make_context(), m)
    # one walk over the graph: forward (walk_reverse=False), no re-application
    assert recorded == [(pattern, False, False)]
    assert marked(m, node)


def test_phony_stages_are_patterns_the_walker_applies(recorded):
    m = parse(PHONY)
    PhonyNotaskPass().apply(make_context(), m)
    assert recorded == [(MarkPhonyNotask, False, False), (CalcOpRunningParam, False, False)]
    assert marked(m, "c")
    assert A.get_int_list(op_named(m, "b"), A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS) == [128]


def test_without_the_walk_nothing_is_marked(monkeypatch: pytest.MonkeyPatch):
    # the pass itself marks nothing: every mark is the pattern's, applied by the walker
    monkeypatch.setattr(B.PatternRewriteWalker, "rewrite_region", lambda self, region: False)
    m = parse(SHARED)
    ConcatNotaskPass().apply(make_context(), m)
    assert not marked(m, "c1") and not marked(m, "c2")


def test_earlier_nodes_lock_first():
    # GE's node loop: the first ConcatD (Pack) in node order takes the shared producers; a
    # reverse walk, or a re-application, would mark the second instead (or both tried)
    for pass_cls, first, second in ((ConcatNotaskPass, "c1", "c2"), (PackNotaskPass, "p1", "p2")):
        m = parse(SHARED)
        pass_cls().apply(make_context(), m)
        assert marked(m, first) and not marked(m, second)


def test_the_marking_is_reported_to_the_rewriter():
    # the node and each producer it locked are modifications the rewriter's listeners see
    m = parse(SHARED)
    graph = next(iter(m.ops))
    on = B.NotaskGraph(graph, B.should_skip_graph(graph), B.RefLinks(m))  # type: ignore[arg-type]
    pattern = MarkConcatNotask(on, remarks=False, pass_name="ge-concat-notask")
    modified: list[str] = []
    c1 = op_named(m, "c1")
    rewriter = PatternRewriter(c1)
    rewriter.extend_from_listener(
        PatternRewriterListener(operation_modification_handler=[lambda op: modified.append(node_name(op))])
    )
    pattern.match_and_rewrite(c1, rewriter)
    assert modified == ["c1", "a", "b"] and rewriter.has_done_action
    # a node the pattern does not mark is no rewrite
    c2 = op_named(m, "c2")
    rewriter = PatternRewriter(c2)
    pattern.match_and_rewrite(c2, rewriter)
    assert not rewriter.has_done_action and not marked(m, "c2")
