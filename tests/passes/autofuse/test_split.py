"""GE's split path pieces that lit cannot reach: the per-node axis group of an AscIR Split
(GE's tiling_group UTs gen_first_axis_split_axis_group / gen_not_first_axis_split_axis_group),
the decider's split verdicts in both orders (asc_backend_fusion_decider UT SplitAndReduce_Ok),
split lifting (LowerSplitHelper::NeedLifting) and the prune after lifting
(AscIrLowerer::PruneUnusedNodesAfterLifting)."""

from __future__ import annotations

import numpy as np
import pytest

from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.ge import node_name
from ge_tools.parse import parse_module
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse.autofuse import AutofusePass
from passes.autofuse.axis_group import node_axis_group
from passes.autofuse.decider import AscBackendFusionDecider, split_complete
from passes.autofuse.lifting import is_skip_lifting
from runtime.interpreter import run_module


def parse(text: str):
    m = parse_module(make_context(), text, "t.mlir")
    m.verify()
    return m


def T(rep, axis=(0, 1, 3, 2)) -> str:
    reps = list(rep)
    return (
        f"!ascgraph.tensor<f16, axis = {list(axis)}, repeats = {reps}, strides = {list(ag.contiguous_strides(reps))}>"
    )


def split_graph(whole, parts) -> ag.Split:
    """GE's test graph: axes z0, z1, z2 (ids 0, 1, 2) and zo (id 3), loops in the order
    z0, z1, zo, z2; Data -> Load -> Split -> one Store/Output per piece."""
    sizes = dict(zip((0, 1, 3, 2), whole))
    ax = ", ".join(f"{i}: z{'o' if i == 3 else i} = {sizes[i]}" for i in (0, 1, 2, 3))
    names = ", ".join(f"%s{k}" for k in range(len(parts)))
    lines = [
        f"ascgraph.graph @g axis = [{ax}] {{",
        f"  %d = ascgraph.Data {{index = 0}} : {T(whole)}",
        f"  %l = ascgraph.Load(%d) {{sched.axis = [0, 1, 3, 2]}} : {T(whole)}",
        f"  {names} = ascgraph.Split(%l) {{sched.axis = [0, 1, 3, 2]}} : {', '.join(T(p) for p in parts)}",
    ]
    for k, p in enumerate(parts):
        lines.append(f"  %st{k} = ascgraph.Store(%s{k}) {{sched.axis = [0, 1, 3, 2]}} : {T(p)}")
        lines.append(f"  %o{k} = ascgraph.Output(%st{k}) {{index = {k}}} : {T(p)}")
    lines.append("}")
    m = parse("\n".join(lines))
    return next(op for op in m.walk() if isinstance(op, ag.Split))


def test_first_axis_split_axis_group():
    # tiling_group.cpp GenSplitTilingGroup: a split on the first loop axis (z0) becomes a
    # plain store before scheduling: every loop axis in y, in loop order (GE's golden y
    # {0, 1, 3, 2}, order {0, 1, 2, 3}, n empty)
    s = split_graph([6, 2, 3, 4], [[2, 2, 3, 4], [4, 2, 3, 4]])
    g = node_axis_group(s, [0, 1, 3, 2])
    assert g is not None and (g.y, g.axes_order, g.n) == ([0, 1, 3, 2], [0, 1, 2, 3], [])


def test_split_with_unit_leading_axes_is_a_plain_store():
    # ... and so is a split whose leading repeats multiply to 1 (pre_size == 1)
    s = split_graph([1, 1, 6, 4], [[1, 1, 2, 4], [1, 1, 4, 4]])
    g = node_axis_group(s, [0, 1, 3, 2])
    assert g is not None and (g.y, g.n) == ([0, 1, 3, 2], [])


def test_not_first_axis_split_axis_group():
    # GE's golden: the split on zo (the third loop axis): y {0, 1}, order {0, 1}, n = zo and
    # z2, plus each of the three outputs' split-axis id: {3, 2, 3, 3, 3}; our n keeps each id
    # once (the merge rules treat n as a set: MergeNGroup is a union)
    s = split_graph([2, 3, 9, 4], [[2, 3, 2, 4], [2, 3, 3, 4], [2, 3, 4, 4]])
    g = node_axis_group(s, [0, 1, 3, 2])
    assert g is not None and (g.y, g.axes_order) == ([0, 1], [0, 1]) and set(g.n) == {3, 2}
    assert g.n[:2] == [3, 2]


def lowered(text: str, enable=("split",)):
    m = parse(text)
    LowerAutofusePass(enable_pass=enable, split_lowering="split").apply(make_context(), m)
    return m, [op for op in m.walk() if isinstance(op, ge.AscBackend)]


SPLIT_REDUCE = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>)
  %r = ge.ReduceSumD(%a) {axes = [1], keep_dims = true} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  ge.NetOutput %r, %b : tensor<2x1xf32>, tensor<2x16xf32>
}"""


def test_split_and_reduce_refused_both_ways():
    # asc_backend_fusion_decider UT SplitAndReduce_Ok: CanFuseVertical(split, reduce) and
    # CanFuseVertical(reduce, split) are both false
    m, ks = lowered(SPLIT_REDUCE, ("split", "reduce"))
    split0 = next(k for k in ks if node_name(k) == "autofuse_split_0_SplitD")
    red = next(k for k in ks if k.attributes["fuse_type"].data == "reduce")  # type: ignore[attr-defined]
    d = AscBackendFusionDecider()
    r = d.can_fuse(split0, red)
    assert r is not None and r.rule == "SplitCanNotFuseReduction"
    assert d.can_fuse(red, split0) is not None


def test_split_complete_counts_the_split_nodes():
    # backend_utils.cpp IsSplitComplete: one piece is not complete; the two pieces fused
    # (same gid) are; fused with a pointwise node it is not pure split any more
    m, ks = lowered(SPLIT_REDUCE, ("split",))
    assert not split_complete(ks[0])
    d = AscBackendFusionDecider()
    assert d.can_fuse(ks[0], ks[1]) is None
    both = d.fuse(ks[0], ks[1])
    assert split_complete(both)


def test_lowered_split_piece_is_not_lifted():
    # liftings.cpp IsSkipLifting -> LowerSplitHelper::NeedLifting (CheckFuseOtherNodes): a
    # StoreSplit box has 1 of its SplitD's 2 outputs: kept; a one-output SplitD's box has
    # them all: lifted (the compute-op count alone would lift both)
    _, ks = lowered(SPLIT_REDUCE)
    assert ks[0].origin is not None and (why := is_skip_lifting(ks[0])) is not None
    assert why.rule == "LowerSplitHelper::NeedLifting" and "1 of its Split's 2 outputs" in why.message
    _, ks = lowered("""ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a = ge.SplitD(%x) {split_dim = 0, num_split = 1} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %a : tensor<4x16xf32>
}""")
    assert len(ks) == 1 and is_skip_lifting(ks[0]) is None


def test_prune_after_lifting_removes_dead_producers():
    # asc_ir_lowerer.cpp PruneUnusedNodesAfterLifting: neither SplitD output is read; both
    # slice kernels are lifted back to the SplitD, which nobody reads: it goes, and so does
    # the MatMul left without a reader; the Data stay
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %w = ge.Data {index = 1} : tensor<16x16xf32>
  %m = ge.MatMul(%x, %w) : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %a, %b = ge.SplitD(%m) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %y : tensor<4x16xf32>
}"""
    m = parse(text)
    LowerAutofusePass(enable_pass=("split",)).apply(make_context(), m)
    AutofusePass().apply(make_context(), m)
    m.verify()
    kinds = [op.name for op in m.walk() if isinstance(op, ge.GeNode)]
    assert "ge.MatMul" not in kinds and "ge.SplitD" not in kinds
    assert kinds.count("ge.Data") == 2
    x = np.arange(64, dtype=np.float32).reshape(4, 16) - 30
    (y,) = run_module(m, [x, np.zeros((16, 16), np.float32)])
    np.testing.assert_array_equal(y, np.abs(x))


@pytest.mark.parametrize("lifting", [True, False])
def test_prune_only_with_lifting(lifting: bool):
    # GE's experimental_disable_lifting skips the whole Lifting, the prune with it
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Exp(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y : tensor<4x8xf32>
}"""
    m = parse(text)
    LowerAutofusePass(enable_pass=("split",)).apply(make_context(), m)
    AutofusePass(lifting=lifting).apply(make_context(), m)
    dead = [op for op in m.walk() if isinstance(op, ge.AscBackend) and not op.results[0].uses]
    assert bool(dead) != lifting
