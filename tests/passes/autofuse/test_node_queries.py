"""ge-autofuse asks each node's own AscGraph queries once per solve (issue 12, compile time).

The solver tries every candidate pair of a shared-buffer group (up to 2 x
buffer-group-window pairs per node), and create_axis_map used to recompute, for every
pair, answers that depend on one node only: the broadcast infos of a Data's Loads
(IsSimplestLoad on each Load), the Data nodes behind an input, the loop axes.
`axis_mapping.NodeQueries` keeps them for the decider's solve. These tests count the
computations (never time), and check that the answers do not change the result: the
fused module is the same with a memo and with a fresh one per call.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bench.gen_graphs import generate
from conftest import lowered, parse, print_module
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import axis_mapping as M
from passes.autofuse.autofuse import AutofusePass

FAN = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf32>
  %a = ge.Relu(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = ge.Abs(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = ge.Neg(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  ge.NetOutput %a, %b, %c : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
"""


def _count_infos(monkeypatch) -> Counter:
    """Counts _input_broadcast_infos computations per (AscBackend, its Loads)."""
    calls: Counter = Counter()
    real = M._input_broadcast_infos

    def counted(backend, loads, conv):
        calls[(backend, tuple(loads))] += 1
        return real(backend, loads, conv)

    monkeypatch.setattr(M, "_input_broadcast_infos", counted)
    return calls


def test_memo_answers_each_node_once_across_pairs(monkeypatch):
    # three consumers of %x: pairs (a, b) and (a, c) both ask about a's Data of %x
    _, nodes = lowered(FAN)
    a, b, c = (next(o for n, o in nodes.items() if t in n) for t in ("Relu", "Abs", "Neg"))
    calls = _count_infos(monkeypatch)
    memo = M.NodeQueries()
    for n1, n2 in ((a, b), (a, c), (b, c)):
        info = M.node_fuse_info(n1, n2)
        assert not isinstance(info, str)
        assert isinstance(M.create_axis_map(info, need_flash=False, memo=memo), M.AxisUnification)
    assert len(calls) == 3  # one Data of %x in each of a, b, c
    assert set(calls.values()) == {1}  # without the memo: a, b and c twice each


def test_memo_gives_the_same_answer_as_a_fresh_call():
    _, nodes = lowered(FAN)
    a, b = (next(o for n, o in nodes.items() if t in n) for t in ("Relu", "Abs"))
    memo = M.NodeQueries()
    for _ in range(2):  # the second call is answered from the memo
        kept = M.create_axis_map(M.node_fuse_info(a, b), need_flash=True, memo=memo)
        fresh = M.create_axis_map(M.node_fuse_info(a, b), need_flash=True)
        assert kept == fresh


@pytest.mark.parametrize("kind", ["fanout", "diamond", "mixed"])
def test_one_solve_computes_each_broadcast_info_once(monkeypatch, kind):
    # a generated graph (not one of the examples), lowered, then the whole ge-autofuse pass
    m = parse(generate(kind, 160, 3))
    LowerAutofusePass().apply(make_context(), m)
    calls = _count_infos(monkeypatch)
    AutofusePass().apply(make_context(), m)
    m.verify()
    assert calls, "the pass asked no broadcast info: the test would prove nothing"
    twice = {k: n for k, n in calls.items() if n > 1}
    assert not twice, f"{len(twice)} of {len(calls)} (node, Loads) answers computed more than once"


@pytest.mark.parametrize("kind", ["fanout", "diamond", "concat_tree"])
def test_memo_does_not_change_the_fused_module(monkeypatch, kind):
    text = generate(kind, 200, 5)
    outs = []
    for keep in (True, False):
        if not keep:  # every query answered afresh (the functions' own answers)
            monkeypatch.setattr(M.NodeQueries, "_get", lambda self, key, compute: compute())
        m = parse(text)
        LowerAutofusePass().apply(make_context(), m)
        AutofusePass().apply(make_context(), m)
        outs.append(print_module(m))
    assert outs[0] == outs[1]
    assert "ge.AscBackend" in outs[0]


def test_canfuse_nodes_size_reads_the_attribute_without_counting(monkeypatch):
    # canfuse_nodes_size counted every node of the AscGraph even when the attribute that
    # carries GE's summed size was there (a walk per candidate pair)
    _, nodes = lowered(FAN)
    op = next(o for n, o in nodes.items() if "Relu" in n)
    assert isinstance(op, ge.AscBackend)
    want = U.node_count(op)
    assert U.canfuse_nodes_size(op) == want  # no attribute: the count
    op.attributes[U.CANFUSE_NODES_SIZE_ATTR] = A.make_int(want + 7)

    def no_walk(_op):
        raise AssertionError("node_count walked the graph although the attribute is set")

    monkeypatch.setattr(U, "node_count", no_walk)
    assert U.canfuse_nodes_size(op) == want + 7
