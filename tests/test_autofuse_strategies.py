"""Per-FuseType strategy rules (ge_fusion.md §5.1); each test fails when its rule is removed."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr

from ge_dialect import ascgraph as ag
from ge_dialect.attrs import int_attr
from passes import autofuse_strategies as S
from passes.autofuse_decider import AscBackendFusionDecider
from passes.autofuse_solver import FusionPriority
from passes.axis_mapping import node_fuse_info
from tests.test_autofuse_decider import CONCAT, SOFTMAX, by, lowered


def pair(a, b):
    return S.FusePair(a, b, node_fuse_info(a, b))


def test_reduction_horizontal_refused():
    m, nodes = lowered(SOFTMAX)
    r = S.ReductionFusionStrategy().can_fuse(pair(by(nodes, "ReduceMaxD"), by(nodes, "Sub_Exp")))
    assert r.code == "ReduceCanNotFuseHorizontal"


CHAIN = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8x64xf32>
  %s = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  %a = ge.Abs(%s) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %t = ge.TransposeD(%a) {perm = [1, 0]} : (tensor<8x1xf32>) -> tensor<1x8xf32>
  ge.NetOutput %t : tensor<1x8xf32>
}"""


def test_reduction_absorbs_at_most_3_compute_nodes():
    m, nodes = lowered(CHAIN)
    red, ab = by(nodes, "ReduceSumD"), by(nodes, "Abs")
    assert S.ReductionFusionStrategy().can_fuse(pair(red, ab)) is None  # 0 + 1 <= 3
    red.attributes["reduce_fused_elementwise_node_num"] = int_attr(3)
    r = S.ReductionFusionStrategy().can_fuse(pair(red, ab))
    assert r.code == "ReduceCanFuseWithin3SubNodes" and "absorb 3 compute nodes, this fusion gives 4" in r.message
    p = pair(red, ab)
    p.max_reduce_fused_elementwise = 4
    assert S.ReductionFusionStrategy().can_fuse(p) is None


def test_reduction_then_non_pointwise_refused():
    m, nodes = lowered(CHAIN)
    ab, tr = by(nodes, "Abs"), by(nodes, "TransposeD")
    ab.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("pointwise") | ag.fuse_type_bit("reduce"))
    r = S.ReductionFusionStrategy().can_fuse(pair(ab, tr))
    assert r.code == "ReduceCanOnlyBackwardFuse3Elementwise"


def test_concat_rules_and_priority():
    m, nodes = lowered(CONCAT)
    ae, cat = by(nodes, "Add_Exp"), by(nodes, "ConcatD")
    cs = S.ConcatFusionStrategy()
    p = pair(ae, cat)
    assert cs.can_fuse(p) is None and not cs.can_merge_loop(p)
    assert S.fusion_pair_priority(p) == FusionPriority.HIGH
    assert cs.max_fusion_nodes_size(p, 64) == S.UNLIMITED  # vertical into a concat
    # concat + concat
    ae.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("concat") | ag.fuse_type_bit("pointwise"))
    assert cs.can_fuse(pair(ae, cat)).code == "ConcatCanNotFuseWithConcat"
    # concat + reduce
    ae.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("reduce"))
    assert cs.can_fuse(pair(ae, cat)).code == "ConcatCanNotFuseWithReduce"
    # only horizontal: two producers of the concat share x
    pe = pair(by(nodes, "Add_Exp"), by(nodes, "Mul_Exp"))
    pe.n1.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("concat"))
    assert cs.check_same_sched_axis(pe).code == "ConcatNodeSchedAxisNotEqual"


def test_concat_backward_refused_on_a2_a3():
    m, nodes = lowered(CONCAT + "\n", enable=("concat",))
    cat, ue = by(nodes, "ConcatD"), by(nodes, "Mul_Exp")
    # pretend the concat feeds a pointwise consumer: swap the roles through a fake link
    p = S.FusePair(cat, ue, node_fuse_info(ue, cat))
    assert S.ConcatFusionStrategy().can_fuse(p).code == "ConcatCanNotFuseBackward"


def test_split_rules_and_priorities():
    m, nodes = lowered(CONCAT)
    a, b = by(nodes, "Add_Exp"), by(nodes, "Mul_Exp")
    split = int_attr(ag.fuse_type_bit("split"))
    a.attributes["fuse_type"] = StringAttr("split")
    p = pair(a, b)
    assert S.SplitFusionStrategy().can_fuse(p).code == "SplitCanNotFuseHorizontal"
    assert S.fusion_pair_priority(p) == FusionPriority.HIGHER
    b.attributes["fuse_type"] = a.attributes["fuse_type"]
    b.attributes["fuse_type_mask"] = split
    assert S.fusion_pair_priority(pair(a, b)) == FusionPriority.HIGHEST
    assert S.SplitFusionStrategy().can_fuse(pair(a, b)).code == "SplitCanNotFuseSplitHorizontal"


def test_transpose_only_vertical():
    m, nodes = lowered(CONCAT, enable=("concat", "transpose"))
    a, b = by(nodes, "Add_Exp"), by(nodes, "Mul_Exp")
    a.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("transpose"))
    assert S.TransposeFusionStrategy().can_fuse(pair(a, b)).code == "TransposeCanNotFuseWithNotPointWise"


def test_reshape_only_pair_refused_and_cube_priority():
    m, nodes = lowered(CONCAT)
    a, b, cat = by(nodes, "Add_Exp"), by(nodes, "Mul_Exp"), by(nodes, "ConcatD")
    from xdsl.dialects.builtin import StringAttr

    for n in (a, b):
        n.attributes["fuse_type"] = StringAttr("reshape")
        n.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("reshape"))
    assert S.ReshapeFusionStrategy().can_fuse(pair(a, b)).code == "CanNotMergeAscGraph"
    a.attributes["fuse_type"] = StringAttr("cube")
    a.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("cube"))
    cat.attributes["fuse_type"] = StringAttr("pointwise")
    cat.attributes["fuse_type_mask"] = int_attr(ag.fuse_type_bit("pointwise"))
    assert S.fusion_pair_priority(pair(a, cat)) == FusionPriority.LOW
    assert S.max_fusion_nodes_size(pair(a, cat), 64) == 65
    assert S.CubeFusionStrategy().can_fuse(pair(a, b)).code == "CubeCanNotFuseHoriZontal"


def test_decider_reports_first_strategy_failure():
    m, nodes = lowered(SOFTMAX)
    r = AscBackendFusionDecider().can_fuse(by(nodes, "ReduceMaxD"), by(nodes, "Sub_Exp"))
    assert r.code == "ReduceCanNotFuseHorizontal" and r.message.endswith("[NF1021]")
