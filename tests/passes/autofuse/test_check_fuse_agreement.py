"""CanFuse's check mode (need_flash = false) and Fuse's axis map (need_flash = true) agree:
a pair the solver's CanFuse accepts is one the decider can build, so neither solver reaches
decider.fuse's assert with a refusal (issue 12). And the multi-reference rule of a view link
is GE's: asc_graph_axis_mapping.cpp ProcessSubGraphVerticalMapInfo refuses a view link when
`fuse_info.HasMulReference()`, a property of the whole pair (any output of node1 that node2
reads has another reader), not of the one link.

The graphs are multi-output producers (a Split lowered with split-lowering=split: one
kernel per output, the two kernels of one Split fuse into a two-output node): one node
reading two outputs of the producer, one output read twice, and an output read by both
nodes of a pair and by a third node.
"""

from __future__ import annotations

import pytest
from test_autofuse_differential import check_fused

from conftest import parse
from ge_dialect.ge import node_name
from ge_dialect.reason import Reason
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse.autofuse import AutofusePass
from passes.autofuse.decider import AscBackendFusionDecider, ordered_pair
from passes.autofuse.solver import FusionStrategySolver, _Order, will_fusion_create_cycle

SPLIT = LowerAutofusePass(enable_pass=("split",), split_lowering="split")

# x splits (SplitVD on axis 1) into a [4,1,8] and b [4,3,8]; Add reads both (a through a
# broadcast view), Neg reads b, so b has two readers.
TWO_OUTPUTS = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x4x8xf32>
  %a, %b = ge.SplitVD(%x) {size_splits = [1, 3], split_dim = 1, num_split = 2} : (tensor<4x4x8xf32>) -> (tensor<4x1x8xf32>, tensor<4x3x8xf32>)
  %z = ge.Add(%a, %b) : (tensor<4x1x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  %t = ge.Neg(%b) : (tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  ge.NetOutput %z, %t : tensor<4x3x8xf32>, tensor<4x3x8xf32>
}"""

# one output read twice by one node (Mul(a, a)), and through a broadcast view by another
READ_TWICE = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x3x8xf32>
  %a, %b = ge.SplitVD(%x) {size_splits = [1, 3], split_dim = 1, num_split = 2} : (tensor<4x4x8xf32>) -> (tensor<4x1x8xf32>, tensor<4x3x8xf32>)
  %s = ge.Mul(%a, %a) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
  %z = ge.Add(%a, %y) : (tensor<4x1x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  %w = ge.Sub(%b, %z) : (tensor<4x3x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  ge.NetOutput %s, %w : tensor<4x1x8xf32>, tensor<4x3x8xf32>
}"""

# a read by P and by Q, where Q also reads P (a pair linked and sharing a), and by R
THIRD_READER = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x3x8xf32>
  %a, %b = ge.SplitVD(%x) {size_splits = [1, 3], split_dim = 1, num_split = 2} : (tensor<4x4x8xf32>) -> (tensor<4x1x8xf32>, tensor<4x3x8xf32>)
  %p = ge.Mul(%a, %b) : (tensor<4x1x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  %q = ge.Add(%p, %a) : (tensor<4x3x8xf32>, tensor<4x1x8xf32>) -> tensor<4x3x8xf32>
  %r = ge.Sub(%a, %y) : (tensor<4x1x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  ge.NetOutput %q, %r : tensor<4x3x8xf32>, tensor<4x3x8xf32>
}"""

GRAPHS = {"two_outputs": TWO_OUTPUTS, "read_twice": READ_TWICE, "third_reader": THIRD_READER}


def kernels(m) -> list:
    dec = AscBackendFusionDecider()
    return [op for op in list(m.ops)[0].body.block.ops if dec.is_fusable_node(op)]


def test_a_view_link_is_refused_when_another_linked_output_has_two_readers():
    """The two split kernels fuse into S (outputs a, b). S -> Add links a (read through a
    broadcast view, Add its only reader) and b (read plainly, also by Neg): GE's
    HasMulReference holds for the pair, so the view link cannot loop-merge. (Before: the
    rule looked at a's link alone and accepted the pair.)"""
    m = parse(TWO_OUTPUTS)
    SPLIT.apply(make_context(), m)
    split0, split1, add, neg = kernels(m)
    d = AscBackendFusionDecider()
    assert d.can_fuse(split0, split1) is None
    s = d.fuse(split0, split1)
    assert [len(list(r.uses)) for r in s.results] == [1, 2]  # a: Add; b: Add and Neg
    r = d.can_fuse(s, add)
    assert r is not None and r.rule == "UnifySubgraphAxisFailed" and "multi-referenced" in r.message, r
    # the fuse step refuses it for the same reason, with the same rule
    b = d.can_build(s, add)
    assert b is not None and b.rule == r.rule
    # once Neg is in S, b's only other reader is gone from outside: S+Neg -> Add is fine
    sn = d.fuse(s, neg)
    assert d.can_fuse(sn, add) is None and d.can_build(sn, add) is None


def _pairs(block, dec):
    ops = [op for op in block.ops if dec.is_fusable_node(op)]
    for x in range(len(ops)):
        for y in range(x + 1, len(ops)):
            a, b = ops[x], ops[y]
            if ({*a.operands, *a.results}) & {*b.operands, *b.results}:
                yield ordered_pair(a, b)


def _explore(module, depth: int, out: list, path: tuple = ()) -> int:
    """Every state reachable by up to `depth` fusions the solver's CanFuse accepts (fresh
    copies, independent of both solvers' search code); records each pair the check accepts
    and the fuse step refuses. Returns the number of pairs checked."""
    block = list(module.ops)[0].body.block
    dec = AscBackendFusionDecider()
    sol = FusionStrategySolver(dec)
    order = _Order(block)
    ops = list(block.ops)
    fn = {op: sol._make_node(op, i) for i, op in enumerate(ops) if dec.is_fusable_node(op)}
    legal, checked = [], 0
    for a, b in _pairs(block, dec):
        checked += 1
        if sol.can_fuse(fn[a], fn[b]) is not None:
            continue
        if (why := dec.can_build(a, b)) is not None:
            out.append((path, node_name(a), node_name(b), why.message))
        elif not isinstance(will_fusion_create_cycle(order, a, b), Reason):
            legal.append((ops.index(a), ops.index(b)))
    if depth == 0:
        return checked
    for ia, ib in legal:
        m2 = module.clone()
        o2 = list(list(m2.ops)[0].body.block.ops)
        b2 = list(m2.ops)[0].body.block
        order2 = _Order(b2)
        order2.sink_after(will_fusion_create_cycle(order2, o2[ia], o2[ib]), o2[ib])  # type: ignore[arg-type]
        AscBackendFusionDecider().fuse(o2[ia], o2[ib])
        checked += _explore(m2, depth - 1, out, (*path, (node_name(o2[ia]), node_name(o2[ib]))))
    return checked


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_check_mode_accepts_only_what_fuse_builds(name: str):
    """In every state reachable by up to three legal fusions, every pair CanFuse accepts
    is one Fuse's axis map builds."""
    m = parse(GRAPHS[name])
    SPLIT.apply(make_context(), m)
    out: list = []
    checked = _explore(m, 3, out)
    assert checked > 10
    assert out == []


@pytest.mark.parametrize("name", sorted(GRAPHS))
@pytest.mark.parametrize("solver", ["greedy", "global"])
def test_both_solvers_fuse_the_multi_output_graphs_and_keep_the_numbers(name: str, solver: str):
    check_fused(GRAPHS[name], 0, SPLIT, fuse=AutofusePass(solver=solver))
