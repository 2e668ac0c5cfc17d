"""Per-FuseType strategy rules (docs/ge/autofuse.md); each test fails when its rule is removed."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr

from conftest import CONCAT, LOOP_MERGE1, SOFTMAX, by, lowered, parse
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.attrs import make_int
from ge_dialect.ge import node_name
from passes.autofuse import ascgraph_queries as U
from passes.autofuse import strategies as S
from passes.autofuse.axis_mapping import node_fuse_info
from passes.autofuse.decider import AscBackendFusionDecider
from passes.autofuse.solver import FusionPriority


def pair(a, b):
    return S.FusePair(a, b, node_fuse_info(a, b))


def test_reduction_horizontal_refused():
    m, nodes = lowered(SOFTMAX)
    r = S.ReductionFusionStrategy().can_fuse(pair(by(nodes, "ReduceMaxD"), by(nodes, "Sub_Exp")))
    assert r.rule == "ReduceCanNotFuseHorizontal"


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
    red.attributes["reduce_fused_elementwise_node_num"] = make_int(3)
    r = S.ReductionFusionStrategy().can_fuse(pair(red, ab))
    assert r.rule == "ReduceCanFuseWithin3SubNodes" and "absorb 3 compute nodes, this fusion gives 4" in r.message
    p = pair(red, ab)
    p.max_reduce_fused_elementwise = 4
    assert S.ReductionFusionStrategy().can_fuse(p) is None


def test_reduction_then_non_pointwise_refused():
    m, nodes = lowered(CHAIN)
    ab, tr = by(nodes, "Abs"), by(nodes, "TransposeD")
    ab.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("pointwise") | ag.fuse_type_bit("reduce"))
    r = S.ReductionFusionStrategy().can_fuse(pair(ab, tr))
    assert r.rule == "ReduceCanOnlyBackwardFuse3Elementwise"


def test_concat_rules_and_priority():
    m, nodes = lowered(CONCAT)
    ae, cat = by(nodes, "Add_Exp"), by(nodes, "ConcatD")
    cs = S.ConcatFusionStrategy()
    p = pair(ae, cat)
    assert cs.can_fuse(p) is None and not cs.can_merge_loop(p)
    assert S.fusion_pair_priority(p) == FusionPriority.HIGH
    assert cs.max_fusion_nodes_size(p, 64) == S.UNLIMITED  # vertical into a concat
    # concat + concat
    ae.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("concat") | ag.fuse_type_bit("pointwise"))
    assert cs.can_fuse(pair(ae, cat)).rule == "ConcatCanNotFuseWithConcat"
    # concat + reduce
    ae.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("reduce"))
    assert cs.can_fuse(pair(ae, cat)).rule == "ConcatCanNotFuseWithReduce"
    # only horizontal: two producers of the concat share x
    pe = pair(by(nodes, "Add_Exp"), by(nodes, "Mul_Exp"))
    pe.n1.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("concat"))
    assert cs.check_same_sched_axis(pe).rule == "ConcatNodeSchedAxisNotEqual"


def test_concat_backward_refused_on_a2_a3():
    m, nodes = lowered(CONCAT + "\n", enable=("concat",))
    cat, ue = by(nodes, "ConcatD"), by(nodes, "Mul_Exp")
    # pretend the concat feeds a pointwise consumer: swap the roles through a fake link
    p = S.FusePair(cat, ue, node_fuse_info(ue, cat))
    assert S.ConcatFusionStrategy().can_fuse(p).rule == "ConcatCanNotFuseBackward"


def test_split_rules_and_priorities():
    m, nodes = lowered(CONCAT)
    a, b = by(nodes, "Add_Exp"), by(nodes, "Mul_Exp")
    split = make_int(ag.fuse_type_bit("split"))
    a.attributes["fuse_type"] = StringAttr("split")
    p = pair(a, b)
    assert S.SplitFusionStrategy().can_fuse(p).rule == "SplitCanNotFuseHorizontal"
    assert S.fusion_pair_priority(p) == FusionPriority.HIGHER
    b.attributes["fuse_type"] = a.attributes["fuse_type"]
    b.attributes["fuse_type_mask"] = split
    assert S.fusion_pair_priority(pair(a, b)) == FusionPriority.HIGHEST
    assert S.SplitFusionStrategy().can_fuse(pair(a, b)).rule == "SplitCanNotFuseSplitHorizontal"


def test_transpose_only_vertical():
    m, nodes = lowered(CONCAT, enable=("concat", "transpose"))
    a, b = by(nodes, "Add_Exp"), by(nodes, "Mul_Exp")
    a.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("transpose"))
    assert S.TransposeFusionStrategy().can_fuse(pair(a, b)).rule == "TransposeCanNotFuseWithNotPointWise"


def test_reshape_only_pair_refused_and_cube_priority():
    m, nodes = lowered(CONCAT)
    a, b, cat = by(nodes, "Add_Exp"), by(nodes, "Mul_Exp"), by(nodes, "ConcatD")
    from xdsl.dialects.builtin import StringAttr

    for n in (a, b):
        n.attributes["fuse_type"] = StringAttr("reshape")
        n.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("reshape"))
    assert S.ReshapeFusionStrategy().can_fuse(pair(a, b)).rule == "CanNotMergeAscGraph"
    a.attributes["fuse_type"] = StringAttr("cube")
    a.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("cube"))
    cat.attributes["fuse_type"] = StringAttr("pointwise")
    cat.attributes["fuse_type_mask"] = make_int(ag.fuse_type_bit("pointwise"))
    assert S.fusion_pair_priority(pair(a, cat)) == FusionPriority.LOW
    assert S.max_fusion_nodes_size(pair(a, cat), 64) == 65
    assert S.CubeFusionStrategy().can_fuse(pair(a, b)).rule == "CubeCanNotFuseHoriZontal"


def test_decider_reports_first_strategy_failure():
    m, nodes = lowered(SOFTMAX)
    r = AscBackendFusionDecider().can_fuse(by(nodes, "ReduceMaxD"), by(nodes, "Sub_Exp"))
    assert (
        r.rule == "ReduceCanNotFuseHorizontal"
        and r.nf_code == "NF1021"
        and r.coded().endswith("[NF1021] [ReduceCanNotFuseHorizontal]")
    )


# -- one test per refusal rule that no test above reaches (mutation-checked: each fails
# when its `return not_fuse(...)` is disabled). Fuse types are set on real lowered kernels
# (HasFuseType reads the mask), so each pair reaches exactly the rule under test.

V = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %y = ge.Data {index = 1} : tensor<2x3xf32>
  %a = ge.Add(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = ge.Exp(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  ge.NetOutput %a, %e : tensor<2x3xf32>, tensor<2x3xf32>
}"""

# Add (2 axes) -> Unsqueeze + Add (3 axes, broadcasting the Add's output along axis 2)
VB = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %y = ge.Data {index = 1} : tensor<2x3xf32>
  %w = ge.Data {index = 2} : tensor<2x3x4xf32>
  %a = ge.Add(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %u = ge.Unsqueeze(%a) {axes = [2]} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %b = ge.Add(%u, %w) : (tensor<2x3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %a, %b : tensor<2x3xf32>, tensor<2x3x4xf32>
}"""

# the same, horizontal: both kernels read y (the second one through a broadcast)
HB = VB.replace("%u = ge.Unsqueeze(%a)", "%u = ge.Unsqueeze(%y)")

# Add (2 axes) -> Unsqueeze + Exp (3 axes, no broadcast)
V3 = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %y = ge.Data {index = 1} : tensor<2x3xf32>
  %a = ge.Add(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %u = ge.Unsqueeze(%a) {axes = [2]} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %e = ge.Exp(%u) : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  ge.NetOutput %a, %e : tensor<2x3xf32>, tensor<2x3x1xf32>
}"""


def typed(op, *types):
    """Give a kernel these fuse types (primary = the first)."""
    op.attributes["fuse_type"] = StringAttr(types[0])
    mask = 0
    for t in types:
        mask |= ag.fuse_type_bit(t)
    op.attributes["fuse_type_mask"] = make_int(mask)
    return op


def kernels(text, enable=("reduce", "concat", "transpose")):
    _, nodes = lowered(text, enable)
    return list(nodes.values())


def code(strategy, n1, n2):
    r = strategy.can_fuse(pair(n1, n2))
    return None if r is None else r.rule


def test_concat_split_backward_and_axis_count():
    a, e = kernels(V)
    # split -> concat with neither first-dim (no Split/Concat node says dim 0)
    assert code(S.ConcatFusionStrategy(), typed(a, "split"), typed(e, "concat")) == "SplitCanNotFuseConcatBackward"
    # a concat whose loop has fewer axes than its partner's (2 < 3), horizontally
    a, b = kernels(HB)
    assert code(S.ConcatFusionStrategy(), typed(a, "concat"), b) == "ConcatNodeSchedAxisSizeNotEqual"


def test_split_with_reduction_and_forward_into_split():
    a, e = kernels(V)
    assert code(S.SplitFusionStrategy(), typed(a, "split"), typed(e, "reduce")) == "SplitCanNotFuseReduction"
    a, e = kernels(V)
    assert code(S.SplitFusionStrategy(), a, typed(e, "split")) == "SplitCanNotFuseForward"
    a, e = kernels(V)
    assert code(S.SplitFusionStrategy(), typed(a, "split"), e) is None  # split -> pointwise


def test_slice_rules():
    a, b = kernels(HB)
    assert U.has_broadcast(b)
    r = S.SliceSplitFusionStrategy().can_fuse(pair(a, typed(b, "slice")))
    assert r.rule == "CheckIfSliceNodeContainsBroadcast" and r.nf_code == "NF1047" and "also broadcasts" in r.message
    m, nodes = lowered(LOOP_MERGE1)
    a, b = typed(by(nodes, "Add"), "slice"), typed(by(nodes, "Mul"), "slice")
    assert code(S.SliceSplitFusionStrategy(), a, b) == "SliceHasOnlyHorizontalLink"
    # Exp's output is sliced by the next kernel; Exp itself loads x whole
    ks = kernels(
        """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %u = ge.Exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %p, %q = ge.SplitD(%u) {split_dim = 1, num_split = 2} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  ge.NetOutput %u, %p, %q : tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}""",
        enable=("split",),
    )
    exp, sl = ks[0], ks[1]
    assert U.has_fuse_type(sl, "slice") and not U.has_fuse_type(exp, "slice")
    r = S.SliceSplitFusionStrategy().can_fuse(pair(exp, sl))
    assert r.rule == "NodeInputHasSplit" and r.nf_code == "NF1026" and "computes without a slice" in r.message
    # a slice whose output's last dim is 1 (x[:, 0:1]) fuses only with slices. Lowering
    # does not build one from a SplitD (CheckEndDimHasOne), GE's Slice/StridedSlice would:
    # the kernels are written by hand, as ge-lower-autofuse printed them before that rule.
    m = parse("""
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x2xf32>
  %p = ge.AscBackend(%x) {name = "autofuse_slice_0_SplitD", fuse_type = "slice", fuse_type_mask = 32, fusion_nodes_size = 4} : (tensor<4x2xf32>) -> tensor<4x1xf32> {
    ascgraph.graph @p_out0_graph axis = [0: z0 = 4, 1: z1 = 1] {
      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [2, 0]>
      %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %store = ascgraph.Store(%load) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %output = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
    }
  }
  %e = ge.AscBackend(%x) {name = "autofuse_pointwise_2_SplitD_Exp", fuse_type = "pointwise", fuse_type_mask = 34, fusion_nodes_size = 5} : (tensor<4x2xf32>) -> tensor<4x1xf32> {
    ascgraph.graph @e_out0_graph axis = [0: z0 = 4, 1: z1 = 1] {
      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [2, 0]>
      %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %exp = ascgraph.Exp(%load) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %store = ascgraph.Store(%exp) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %output = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
    }
  }
  ge.NetOutput %p, %e : tensor<4x1xf32>, tensor<4x1xf32>
}""")
    m.verify()
    sl, exp = [o for o in list(m.ops)[0].body.block.ops if U.inner_backends(o)]
    exp = typed(exp, "pointwise")
    assert U.has_fuse_type(sl, "slice") and "Exp" in node_name(exp)
    r = S.SliceSplitFusionStrategy().can_fuse(pair(sl, exp))
    assert r.rule == "CheckIfSliceEndDimIsOne" and r.nf_code is None and "last dim is 1" in r.message


def test_gather_rules():
    g = S.GatherFusionStrategy()
    a, e = kernels(V)
    assert code(g, a, typed(e, "gather")) == "GatherCanNotFuseForward"
    a, e = kernels(V)
    assert code(g, typed(a, "gather"), typed(e, "reduce")) == "GatherCanNotFuseWithReduce"
    a, e = kernels(V)
    assert code(g, typed(a, "gather"), typed(e, "concat")) == "GatherCanNotFuseWithConcat"
    m, nodes = lowered(LOOP_MERGE1)
    assert code(g, typed(by(nodes, "Add"), "gather"), by(nodes, "Mul")) == "GatherCanOnlyVerticallyFuseWithElementwise"
    # gather_fusion_strategy.cpp CheckGatherElemwiseFuse: the axis count is checked
    # before the view (VB's consumer both broadcasts and has 3 axes)
    a, b = kernels(VB)
    assert code(g, typed(a, "gather"), b) == "GatherNodeAxisSizeNotEqual"
    # same axis count, but the consumer reads another input through a broadcast view
    a, b = kernels(
        VB.replace("tensor<2x3x4xf32>", "tensor<2x1xf32>", 1)
        .replace("%u = ge.Unsqueeze(%a) {axes = [2]} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>\n", "")
        .replace(
            "%b = ge.Add(%u, %w) : (tensor<2x3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>",
            "%b = ge.Add(%a, %w) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>",
        )
        .replace("tensor<2x3xf32>, tensor<2x3x4xf32>\n}", "tensor<2x3xf32>, tensor<2x3xf32>\n}")
    )
    assert code(g, typed(a, "gather"), b) == "GatherNextNodeIsPointWiseAndInputHasViewOp"
    a, e = kernels(V3)
    assert code(g, typed(a, "gather"), e) == "GatherNodeAxisSizeNotEqual"
    a, e = kernels(V)
    assert code(g, typed(a, "gather"), e) is None  # gather -> pointwise, same axis count


# Exp(w) (3 axes) feeds a 3-axis Add that also reads x through an Unsqueeze; Exp(x) (2 axes)
# shares x with it
G3 = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %w = ge.Data {index = 1} : tensor<2x3x4xf32>
  %g = ge.Exp(%w) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %a = ge.Exp(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %u = ge.Unsqueeze(%x) {axes = [2]} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %b = ge.Add(%u, %g) : (tensor<2x3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %a, %b, %g : tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}"""


def test_gather_axis_count_of_a_fused_asc_backend():
    # gather_fusion_strategy.cpp CheckGatherFuseAxis compares the axis lists of the two
    # nodes' fused graphs; a FusedAscBackend's list is the one
    # asc_backend_fusion_decider.cpp UpdateSubgraphAxisAttr gives its fuse compute graph on
    # every Fuse: the longer of the two fused nodes' lists (node2's when equally long), so
    # its length is the largest constituent AscGraph's. F = Fuse(Exp(x) [2 axes], the Add
    # [3 axes]) (a concat-typed Exp makes it a FusedAscBackend; Fuse called directly, as GE's
    # Fuse UTs do) counts 3.
    m, nodes = lowered(G3)
    g, a, b = nodes.values()
    assert [U.loop_axis_count(k) for k in (g, a, b)] == [3, 2, 3]
    f = AscBackendFusionDecider().fuse(typed(a, "concat"), b)
    m.verify()
    assert isinstance(f, ge.FusedAscBackend) and sorted(len(x.axis.data) for x in U.asc_graphs(f)) == [2, 3]
    assert U.loop_axis_count(f) == 3
    # the 3-axis gather feeding F passes the axis check (F reads its input through the
    # Unsqueeze's broadcast view, so the view check refuses next)
    typed(f, "pointwise")
    assert code(S.GatherFusionStrategy(), typed(g, "gather"), f) == "GatherNextNodeIsPointWiseAndInputHasViewOp"


def test_transpose_rules():
    t = S.TransposeFusionStrategy()
    a, e = kernels(V)
    r = t.can_fuse(pair(typed(a, "transpose"), typed(e, "reduce")))
    assert r.rule == "TransposeCanNotFuseWithNotPointWise" and "only with pointwise" in r.message
    a, b = kernels(VB)
    r = t.can_fuse(pair(typed(a, "transpose"), b))
    assert r.rule == "TransposeCanNotFuseWithNotPointWise" and "broadcasts an input" in r.message
    # pointwise -> transpose: the Add's output is also a graph output (two consumers)
    a, e = kernels(V)
    r = t.can_fuse(pair(a, typed(e, "transpose")))
    assert r.rule == "TransposeCanNotFuseWithNotPointWise" and "only consumer" in r.message
    a, e = kernels(V)
    assert t.can_fuse(pair(typed(a, "transpose"), e)) is None  # transpose -> pointwise


def test_cube_rules():
    c = S.CubeFusionStrategy()
    a, e = kernels(V)
    assert code(c, a, typed(e, "cube")) == "CubeCanNotFuseForward"
    a, e = kernels(V)
    assert code(c, typed(a, "cube"), typed(e, "reduce")) == "CubeCanNotFuseWithNotElementwise"
    a, b = kernels(VB)
    assert code(c, typed(a, "cube"), b) == "CubeCanNotFuseWithViewElementwise"
    a, e = kernels(V)
    assert code(c, typed(a, "cube"), e) is None  # cube -> pointwise epilogue


def _slice_transpose_pair(transpose: bool):
    """a (typed slice) reads x whole; b (pointwise) reads x[:, 0:4] (Data strides [8, 1]
    over a 4x8 operand: a slice view) and, when `transpose`, feeds that Load into an
    explicit Transpose. They share x: a horizontal pair."""
    whole = "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>"
    part = "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 4], strides = [8, 1]>"
    dense = "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 4], strides = [4, 1]>"
    perm = "!ascgraph.tensor<f32, axis = [1, 0], repeats = [4, 4], strides = [4, 1]>"
    s = "sched.axis = [0, 1]"
    if transpose:
        b_body = f"""%t = ascgraph.Transpose(%l) {{{s}}} : {perm}
      %e = ascgraph.Abs(%t) {{{s}}} : {perm}
      %st = ascgraph.Store(%e) {{offset = 0, {s}}} : {perm}
      %o = ascgraph.Output(%st) {{index = 0}} : {perm}"""
    else:
        b_body = f"""%e = ascgraph.Abs(%l) {{{s}}} : {dense}
      %st = ascgraph.Store(%e) {{offset = 0, {s}}} : {dense}
      %o = ascgraph.Output(%st) {{index = 0}} : {dense}"""
    text = f"""
ge.graph @g {{
  %x = ge.Data {{index = 0}} : tensor<4x8xf32>
  %a = ge.AscBackend(%x) {{name = "a", fuse_type = "slice", fuse_type_mask = {ag.fuse_type_bit("slice")}, origin_nodes = ["a"], fusion_nodes_size = 5}} : (tensor<4x8xf32>) -> tensor<4x8xf32> {{
    ascgraph.graph @a_graph axis = [0: z0 = 4, 1: z1 = 8] {{
      %d = ascgraph.Data {{index = 0}} : {whole}
      %l = ascgraph.Load(%d) {{offset = 0, {s}}} : {whole}
      %e = ascgraph.Exp(%l) {{{s}}} : {whole}
      %st = ascgraph.Store(%e) {{offset = 0, {s}}} : {whole}
      %o = ascgraph.Output(%st) {{index = 0}} : {whole}
    }}
  }}
  %b = ge.AscBackend(%x) {{name = "b", fuse_type = "pointwise", fuse_type_mask = {ag.fuse_type_bit("pointwise")}, origin_nodes = ["b"], fusion_nodes_size = {6 if transpose else 5}}} : (tensor<4x8xf32>) -> tensor<4x4xf32> {{
    ascgraph.graph @b_graph axis = [0: z0 = 4, 1: z1 = 4] {{
      %d = ascgraph.Data {{index = 0}} : {part}
      %l = ascgraph.Load(%d) {{offset = 0, {s}}} : {dense}
      {b_body}
    }}
  }}
  ge.NetOutput %a, %b : tensor<4x8xf32>, tensor<4x4xf32>
}}"""
    m = parse(text)
    m.verify()
    ops = {node_name(o): o for o in list(m.ops)[0].body.block.ops if U.inner_backends(o)}
    return ops["a"], ops["b"]


def test_slice_load_feeding_transpose_refused():
    # slice_fusion_strategy.cpp: a slice Load that feeds a Broadcast/Transpose refuses the
    # pair, even inside the node that is not typed slice (b is pointwise; a, typed slice,
    # makes the strategy apply). No earlier slice rule fires: a holds no Broadcast, b is
    # not a slice, the pair is horizontal, a's output ends in 8.
    a, b = _slice_transpose_pair(transpose=True)
    (ld,) = U.graph_loads(b)
    assert U.load_view(ld).slice and not U.load_view(ld).broadcast
    r = S.SliceSplitFusionStrategy().can_fuse(pair(a, b))
    assert (
        r is not None
        and r.rule == "FusedSliceHasViewOp"
        and r.nf_code == "NF1047"
        and "feeds a broadcast or transpose" in r.message
    ), r
    # the same slice Load feeding Abs directly: the strategy accepts the pair
    a, b = _slice_transpose_pair(transpose=False)
    assert S.SliceSplitFusionStrategy().can_fuse(pair(a, b)) is None


# x -> Abs -> GatherV2 (last axis) -> Add(., Exp(y)): four kernels with gather lowering on
# (LowerGather realizes Abs; Exp, a heavy op, realizes itself)
GATHER_FUSED = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x3xf32>
  %i = ge.Data {index = 2} : tensor<3xi32>
  %ax = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %pa = ge.Abs(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %pn = ge.Exp(%y) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %g = ge.GatherV2(%pa, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
  %add = ge.Add(%g, %pn) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  ge.NetOutput %add : tensor<4x3xf32>
}"""


def test_gather_forward_into_a_fused_asc_backend_only_past_its_gather():
    """gather_fusion_strategy.cpp IsForwardFuseGather: into an AscBackend holding a gather
    nothing fuses; into a FusedAscBackend holding one, a producer may fuse when its link
    enters an inner node without the gather (and n2 reads only simplest loads)."""
    g = S.GatherFusionStrategy()
    _, nodes = lowered(GATHER_FUSED, ("gather",))
    pa, pn, gather, add = by(nodes, "Abs"), by(nodes, "Exp"), by(nodes, "GatherV2"), by(nodes, "_Add")
    assert len({pa, pn, gather, add}) == 4
    assert code(g, pa, gather) == "GatherCanNotFuseForward"
    d = AscBackendFusionDecider()
    d._merges_loops = lambda p: False  # keep the two kernels apart: a FusedAscBackend
    fused = d.fuse(gather, add)
    assert U.is_fused_asc_backend(fused) and U.has_fuse_type(fused, "gather")
    assert code(g, pn, fused) is None  # Exp feeds the inner Add
    assert code(g, pa, fused) == "GatherCanNotFuseForward"  # Abs feeds the inner gather


def test_gather_priority_high_only_for_a_primary_gather_producer():
    """gather_fusion_strategy.cpp GetFusionPairPriority: HIGH when n1's primary fuse type is
    gather and the pair is vertical; a gather only in n1's mask, or a horizontal pair, is
    DEFAULT."""
    g = S.GatherFusionStrategy()
    _, nodes = lowered(GATHER_FUSED, ("gather",))
    gather, add, pn = by(nodes, "GatherV2"), by(nodes, "_Add"), by(nodes, "Exp")
    assert g.priority(pair(gather, add)) == FusionPriority.HIGH
    assert S.fusion_pair_priority(pair(gather, add)) == FusionPriority.HIGH
    assert g.priority(pair(typed(gather, "pointwise", "gather"), add)) == FusionPriority.DEFAULT
    assert g.priority(pair(typed(pn, "gather"), typed(add, "pointwise"))) == FusionPriority.HIGH
    a, e = kernels(HB)
    assert g.priority(pair(typed(a, "gather"), e)) == FusionPriority.DEFAULT  # horizontal


def test_cube_and_transpose_ask_is_node_all_inputs_simplest_load():
    # cube_fusion_strategy.cpp and transpose_fusion_strategy.cpp (A2/A3) refuse a pointwise
    # partner when !BackendUtils::IsNodeAllInputsAreSimplestLoad: any view IsSimplestLoad
    # sees, not only a broadcast. Exp's Load of Add's output moved to offset 3 is a slice
    # view (IsSlice: a non-zero offset) and no broadcast.
    for strategy, t, want in (
        (S.CubeFusionStrategy(), "cube", "CubeCanNotFuseWithViewElementwise"),
        (S.TransposeFusionStrategy(), "transpose", "TransposeCanNotFuseWithNotPointWise"),
    ):
        a, e = kernels(V)
        assert code(strategy, typed(a, t), e) is None  # control: Exp reads Add plainly
        ld = next(n for n in U.asc_nodes(e) if isinstance(n, ag.Load))
        ld.attributes["offset"] = make_int(3)
        assert not U.has_broadcast(e) and not S.all_inputs_simplest_load(e)
        assert code(strategy, a, e) == want
