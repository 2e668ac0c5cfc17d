"""Fuse of a pair CanFuse accepted is a rewrite through xDSL's rewriter (FuseAscBackendPair).

The solver decides the pairs; the decider's `fuse` applies the FuseAscBackendPair pattern
to node2, which inserts the merged node (an AscBackend from the loop merge, or a
FusedAscBackend) in node2's place, moves the uses of both nodes' outputs to it and erases
both, each step through the PatternRewriter, so its listeners see them.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener

from conftest import CONCAT, LOOP_MERGE1, by, count_calls, inputs_for, lowered, run_module
from ge_dialect import ge
from passes.autofuse import decider as D
from passes.autofuse.decider import AscBackendFusionDecider, FuseAscBackendPair, ordered_pair
from passes.autofuse.solver import fuse_block


@pytest.mark.parametrize(("text", "first", "second", "kind"), [
    (LOOP_MERGE1, "Add", "Mul", ge.AscBackend),  # same loops: MergeAscGraphByLoop
    (CONCAT, "Exp", "ConcatD", ge.FusedAscBackend),  # a concat: MergeGraphToFusedAscBackendNode
])  # fmt: skip
def test_the_pair_is_replaced_through_the_rewriter(text, first, second, kind):
    m, nodes = lowered(text)
    ins = inputs_for(m, 0)
    ref = run_module(m, ins)
    d = AscBackendFusionDecider()
    n1, n2 = ordered_pair(by(nodes, first), by(nodes, second))
    assert d.can_fuse(n1, n2) is None
    users = {u.operation for r in (*n1.results, *n2.results) for u in r.uses} - {n1, n2}
    events: list[tuple[str, Operation]] = []
    rewriter = PatternRewriter(n2)
    rewriter.extend_from_listener(
        PatternRewriterListener(
            operation_insertion_handler=[lambda op: events.append(("inserted", op))],
            operation_removal_handler=[lambda op: events.append(("erased", op))],
            operation_modification_handler=[lambda op: events.append(("modified", op))],
        )
    )
    rewrite = FuseAscBackendPair(d, n1)
    rewrite.match_and_rewrite(n2, rewriter)
    new = rewrite.fused
    assert isinstance(new, kind) and rewriter.has_done_action
    assert events[0] == ("inserted", new)
    assert events[-2:] == [("erased", n2), ("erased", n1)]
    # every node that read an output of the pair now reads the merged node, as reported
    assert {op for e, op in events if e == "modified"} == users
    assert all(any(v.owner is new for v in op.operands) for op in users)
    m.verify()
    for x, y in zip(run_module(m, ins), ref):
        np.testing.assert_allclose(x, y, rtol=1e-6)


def test_the_solver_fuses_through_the_rewrite(monkeypatch: pytest.MonkeyPatch):
    # every fusion of the solver's rounds is one application of the pattern
    m, _ = lowered(LOOP_MERGE1)
    calls = count_calls(monkeypatch, D.FuseAscBackendPair, "match_and_rewrite")
    stats = fuse_block(next(iter(m.ops)).body.block, AscBackendFusionDecider())
    assert stats.fusions == 1 and calls == [1]
    m.verify()
