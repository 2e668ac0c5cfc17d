"""AscBackendFusionDecider (asc_backend_fusion_decider_unittest.cpp, docs/ge/autofuse.md).

Every Fuse is checked numerically: the reference result of the fused graph (AscGraph
interpreter) equals the unfused one's, and the module still verifies.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr

from conftest import CONCAT, LOOP_MERGE1, SOFTMAX, by, fuse_checked, ge_add_backend, lowered, parse
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.attrs import make_int
from ge_dialect.ge import node_name
from ge_dialect.reason import Reason
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import ascgraph_queries as U
from passes.autofuse.decider import AscBackendFusionDecider, AscBackendSubGraphFusionDecider
from passes.autofuse.solver import FusionPriority


def test_lowered_horizontal_pair_loop_merges():
    # Two lowered 2-input kernels sharing d2 (same loops, no view): 7 + 7 nodes (Data,
    # Data, Load, Load, op, Store, Output) with the shared Data merged: 13 (both Loads
    # survive). GE's FuseLoopMerge1 itself is test_ge_fuse_loop_merge1 below.
    m, nodes = lowered(LOOP_MERGE1)
    g = list(m.ops)[0]
    before = len(list(g.body.block.ops))
    d = AscBackendFusionDecider()
    new = fuse_checked(m, d, by(nodes, "Add"), by(nodes, "Mul"))
    assert isinstance(new, ge.AscBackend)
    assert len(list(g.body.block.ops)) == before - 1
    graph = U.asc_graph(new)
    assert ag.node_count(graph) == 13
    assert len(new.operands) == 3 and len(new.results) == 2
    assert [o.index for o in graph.output_nodes()] == [0, 1]
    assert sum(isinstance(n, ag.Load) for n in graph.nodes()) == 4
    assert node_name(new) == "autofuse_0_Add_Mul"
    assert U.int_attr(new, "fusion_nodes_size", 0) == 13 and U.int_attr(new, U.CANFUSE_NODES_SIZE_ATTR, 0) == 14


def test_ge_fuse_loop_merge1():
    # AscBackendFusionDecider_FuseLoopMerge1_Ok: data1, data2 -> AddN1 (CreatAddAscGraph,
    # 5 axes); data2, data3 -> Assign1 (CreatBroadcastAddAscGraph, 6 axes, reading data2
    # broadcast along F); data4 -> NetOutput. Sizes A..F = 2..7 stand for the symbols.
    five, six = [2, 3, 4, 5, 6], [2, 3, 4, 5, 6, 7]
    t5, t6 = "tensor<2x3x4x5x6xf32>", "tensor<2x3x4x5x6x7xf32>"
    addn1 = ge_add_backend("AddN1", five, False).replace("%AddN1_in0, %AddN1_in1", "%data1, %data2")
    assign1 = ge_add_backend("Assign1", six, True).replace("%Assign1_in0, %Assign1_in1", "%data2, %data3")
    text = f"""
ge.graph @g {{
  %data1 = ge.Data {{index = 0}} : {t5}
  %data2 = ge.Data {{index = 1}} : {t5}
  %data3 = ge.Data {{index = 2}} : {t6}
  %data4 = ge.Data {{index = 3}} : {t6}{addn1}{assign1}
  ge.NetOutput %AddN1, %Assign1, %data4 : {t5}, {t6}, {t6}
}}"""
    m = parse(text)
    g = list(m.ops)[0]
    assert len(list(g.body.block.ops)) == 7  # GetAllNodesSize() == 7
    nodes = {node_name(o): o for o in g.body.block.ops if U.inner_backends(o)}
    new = fuse_checked(m, AscBackendFusionDecider(), nodes["AddN1"], nodes["Assign1"])
    assert isinstance(new, ge.AscBackend)
    assert len(list(g.body.block.ops)) == 6  # GE: 7 -> 6
    assert len(new.operands) == 3 and len(new.results) == 2  # GE: 3 in, 2 out
    graph = U.asc_graph(new)
    assert [o.index for o in graph.output_nodes()] == [0, 1]  # GE: Output indices 0, 1
    # GE asserts 15 AscGraph nodes. Both counts start from 7 + 7 - 1 = 13: data2's two
    # Data nodes merge (TryAscDataNodeMerge: one Load is a view, the other is not) and
    # both Loads survive. GE then runs ProcessAscgraphAfterMerge; its FallbackPro
    # (post_process/scheduler_adapter/adaption_fallback_load.h) derives each Load's view
    # by comparing the Load with the merged graph's axes. In the 6-axis graph AddN1's two
    # Loads lack F, so (our reading of that code) each gets a Broadcast node: 13 + 2 = 15.
    # This port keeps AddN1's nodes at repeat 1 along F (computed once per A..E, which is
    # what AddN1 computes, see the decider's docstring): no Broadcast, 13.
    kinds = [type(n).__name__ for n in graph.nodes()]
    assert kinds.count("Data") == 3 and kinds.count("Load") == 4 and "Broadcast" not in kinds
    assert ag.node_count(graph) == 15 - 2


def test_softmax_vertical_store_data_load_removed():
    m, nodes = lowered(SOFTMAX)
    d = AscBackendFusionDecider()
    # ReduceMaxD and Sub_Exp both read x: a reduction never fuses horizontally
    r = d.can_fuse(by(nodes, "ReduceMaxD"), by(nodes, "Sub_Exp"))
    assert r is not None and r.rule == "ReduceCanNotFuseHorizontal"
    es = fuse_checked(m, d, by(nodes, "Sub_Exp"), by(nodes, "ReduceSumD"))
    # e is also read by RealDiv: its Store/Output stay (multi-reference), no Data/Load for it
    g = U.asc_graph(es)
    assert len(es.results) == 2 and len(g.data_nodes()) == 2
    assert sum(isinstance(n, ag.Store) for n in g.nodes()) == 2
    y = fuse_checked(m, d, es, by(nodes, "RealDiv"))
    g = U.asc_graph(y)
    # both of es's outputs were read only by RealDiv: dropped; their Loads are bypassed and
    # the reduced sum is broadcast explicitly to the row
    assert len(y.results) == 1 and len(y.operands) == 2
    assert [type(n).__name__ for n in g.nodes()] == [
        "Data",
        "Load",
        "Data",
        "Load",
        "Sub",
        "Exp",
        "Sum",
        "Broadcast",
        "Div",
        "Store",
        "Output",
    ]
    assert U.int_attr(y, U.REDUCE_FUSED_ELEMENTWISE_ATTR, 0) == 1
    assert node_name(y) == "autofuse_1_Sub_Exp_ReduceSumD_RealDiv"
    assert y.attributes["_axis_group"].data == "x=;y=0;r=1;n=;order=0,1"


TRANSPOSE = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  %a = ge.Add(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = ge.TransposeD(%a) {perm = [1, 0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  ge.NetOutput %t : tensor<8x4xf32>
}"""


def test_pointwise_into_transpose_loop_merges():
    m, nodes = lowered(TRANSPOSE)
    d = AscBackendFusionDecider()
    new = fuse_checked(m, d, by(nodes, "Add"), by(nodes, "TransposeD"))
    g = U.asc_graph(new)
    assert isinstance(new, ge.AscBackend)
    assert [type(n).__name__ for n in g.nodes()] == [
        "Data",
        "Load",
        "Data",
        "Load",
        "Add",
        "Transpose",
        "Store",
        "Output",
    ]


def test_concat_makes_fused_asc_backend_and_inner_round_loop_merges():
    m, nodes = lowered(CONCAT)
    d = AscBackendFusionDecider()
    cat = by(nodes, "ConcatD")
    assert d.get_fusion_pair_priority(by(nodes, "Add_Exp"), cat) == FusionPriority.HIGH
    f1 = fuse_checked(m, d, by(nodes, "Add_Exp"), cat)
    assert isinstance(f1, ge.FusedAscBackend) and node_name(f1) == "autofuse_fused_0_Add_Exp_ConcatD"
    f2 = fuse_checked(m, d, by(nodes, "Mul_Exp"), f1)
    assert isinstance(f2, ge.FusedAscBackend)
    assert node_name(f2) == "autofuse_fused_1_Mul_Exp_Add_Exp_ConcatD"
    inner = U.inner_backends(f2)
    # vertical and horizontal links both exist: OnlyVerticalMapping skips only the
    # horizontal axis mapping (CreateSubGraphAxisMapInfo); CanDoHorizontalMapping stays on,
    # so the shared x and y are one input each (node2_input_map): 2
    assert len(inner) == 3 and len(f2.operands) == 2
    pairs = d.possible_fusion_pairs(f2)
    assert pairs and d.possible_fusion_pairs(f2) == []  # cleared after use
    sub = AscBackendSubGraphFusionDecider()
    names = [(node_name(a), node_name(b)) for a, b in pairs]
    assert ("autofuse_pointwise_0_Add_Exp", "autofuse_concat_2_ConcatD") in [(b, a) for a, b in names] + names
    # the inner round only loop-merges: the concat pairs are refused, Add_Exp + Mul_Exp merges
    for a, b in pairs:
        r = sub.can_fuse(a, b)
        if "ConcatD" in node_name(a) + node_name(b):
            assert r is not None and r.rule in ("CanNotMergeAscGraph", "ConcatNodeSchedAxisNotEqual")
    # the inner Data nodes of x and y are shared, so the two pointwise kernels are a
    # recorded pair and loop-merge into one AscBackend (GE's Fuse_concat: A+D inside)
    pw = [o for o in inner if "ConcatD" not in node_name(o)]
    assert {node_name(pw[0]), node_name(pw[1])} in [{a, b} for a, b in names]
    assert sub.can_fuse(pw[0], pw[1]) is None
    assert sub.can_fuse(f2, pw[0]).rule == "CanNotMergeAscGraph"
    assert isinstance(fuse_checked(m, sub, pw[0], pw[1]), ge.AscBackend)


def test_subgraph_decider_loop_merges_and_priority_high():
    m, nodes = lowered(LOOP_MERGE1)
    sub = AscBackendSubGraphFusionDecider()
    a, b = by(nodes, "Add"), by(nodes, "Mul")
    assert sub.get_fusion_pair_priority(a, b) == FusionPriority.HIGH
    assert isinstance(fuse_checked(m, sub, a, b), ge.AscBackend)


def test_size_and_input_caps():
    m, nodes = lowered(LOOP_MERGE1)
    a, b = by(nodes, "Add"), by(nodes, "Mul")
    r = AscBackendFusionDecider(max_fusion_size=13).can_fuse(a, b)
    assert r is not None and r.rule == "MaxFusionNodesSizeExceedThreshold" and "fused size 14 > 13" in r.message
    assert AscBackendFusionDecider(max_fusion_size=14).can_fuse(a, b) is None  # strictly greater rejects
    r = AscBackendFusionDecider(max_input_nums_after_fuse=2).can_fuse(a, b)
    assert r is not None and r.rule == "InputNumsExceedThreshold"
    assert AscBackendFusionDecider(max_input_nums_after_fuse=3).can_fuse(a, b) is None


def test_blacklist_no_relation_and_vector_core_num():
    m, nodes = lowered(LOOP_MERGE1)
    g = list(m.ops)[0]
    data = next(o for o in g.body.block.ops if isinstance(o, ge.Data))
    d = AscBackendFusionDecider()
    a, b = by(nodes, "Add"), by(nodes, "Mul")
    assert d.can_fuse(data, a).rule == "IsCanFuseBlackList"
    b.attributes[U.VECTOR_CORE_NUM_ATTR] = make_int(4)
    assert d.can_fuse(a, b).rule == "VectorCoreNumNotEqual"


def test_two_reductions_axis_groups_yr_yr():
    # pointwise -> reduce fused first, then a second reduction of the result's rows:
    # the reduction strategy refuses reduce + reduce before the axis groups are asked
    m, nodes = lowered("""
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8x64xf32>
  %s = ge.ReduceSumD(%x) {axes = [1], keep_dims = false} : (tensor<8x64xf32>) -> tensor<8xf32>
  %t = ge.ReduceMaxD(%s) {axes = [0], keep_dims = true} : (tensor<8xf32>) -> tensor<1xf32>
  ge.NetOutput %t : tensor<1xf32>
}""")
    r = AscBackendFusionDecider().can_fuse(by(nodes, "ReduceSumD"), by(nodes, "ReduceMaxD"))
    assert r is not None and r.rule == "ReduceCanOnlyBackwardFuse3Elementwise"


# -- regressions: CanFuse said yes, then the loop merge built a wrong AscGraph -------------


def test_reduce_all_into_broadcast_pairs_no_unequal_loops():
    # Root cause 1: the reduce-all Store [1] and the broadcast's Data [1, 1, 1] map by
    # repeats alone (all 1), pairing the 96-loop with the 8-loop; the merged graph then
    # had a Broadcast of repeat 8 on an axis of size 96. Paired loop axes must have one
    # size (or one side 1, or a concat/split axis): no step of the mapping gives that.
    text = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<96xf32>
  %s = ge.ReduceSumD(%x) {axes = [0], keep_dims = true} : (tensor<96xf32>) -> tensor<1xf32>
  %e = ge.Abs(%s) : (tensor<1xf32>) -> tensor<1xf32>
  %b = ge.BroadcastToD(%e) {shape = [4, 3, 8]} : (tensor<1xf32>) -> tensor<4x3x8xf32>
  %t = ge.Tanh(%b) : (tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
  ge.NetOutput %t : tensor<4x3x8xf32>
}"""
    m, nodes = lowered(text)
    d = AscBackendFusionDecider()
    red, bc = by(nodes, "ReduceSumD"), by(nodes, "BroadcastToD")
    r = d.can_fuse(red, bc)
    assert r is not None and r.rule == "UnifySubgraphAxisFailed", r
    # a reduction whose consumer loops over the same extent still merges (softmax-like)
    m, nodes = lowered("""
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x96xf32>
  %y = ge.Data {index = 1} : tensor<4x96xf32>
  %s = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<4x96xf32>) -> tensor<4x1xf32>
  %e = ge.Abs(%s) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %b = ge.Mul(%e, %y) : (tensor<4x1xf32>, tensor<4x96xf32>) -> tensor<4x96xf32>
  ge.NetOutput %b : tensor<4x96xf32>
}""")
    assert isinstance(fuse_checked(m, d, by(nodes, "ReduceSumD"), by(nodes, "Mul")), ge.AscBackend)


def test_regrouping_reshape_link_is_not_loop_merged():
    # Root cause 2: Relu loops over [1, 2, 8, 16]; the Reshape reads its output as
    # [2, 128]. The unit-repeat fallback pairs 128 with the size-1 axis and the pair
    # passed as "a plain transpose", but no per-axis view of the stored [2, 8, 16] reads
    # as [2, 128]: the merge asserted. The link check (Store view == Data view on every
    # merged axis) refuses it up front.
    text = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x2x8x16xf32>
  %r = ge.Relu(%x) : (tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %s = ge.Reshape(%r) : (tensor<1x2x8x16xf32>) -> tensor<2x128xf32>
  ge.NetOutput %s : tensor<2x128xf32>
}"""
    m, nodes = lowered(text)
    d = AscBackendFusionDecider()
    r = d.can_fuse(by(nodes, "Relu"), by(nodes, "Reshape"))
    assert r is not None and r.rule == "CanNotMergeAscGraph" and "regrouping" in r.message, r
    # a reshape that only drops the unit axis reads the stored layout: it merges (Relu
    # is also a graph output, so lowering keeps it a kernel of its own)
    m, nodes = lowered(
        text.replace("tensor<2x128xf32>", "tensor<2x8x16xf32>").replace(
            "ge.NetOutput %s : tensor<2x8x16xf32>", "ge.NetOutput %s, %r : tensor<2x8x16xf32>, tensor<1x2x8x16xf32>"
        )
    )
    assert isinstance(fuse_checked(m, d, by(nodes, "Relu"), by(nodes, "Reshape")), ge.AscBackend)


SLICE_OF_SLICE_KERNEL = """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x16xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<2x16xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>)
  %u = ge.Exp(%a) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %c, %e = ge.SplitD(%u) {split_dim = 0, num_split = 2} : (tensor<2x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>)
  ge.NetOutput %b, %e : tensor<2x8xf32>, tensor<1x8xf32>
}"""


def _slice_of_slice_kernel():
    m, nodes = lowered(SLICE_OF_SLICE_KERNEL, enable=("split",))
    # lowering keeps a kernel for the unused first row: drop it, so u has one reader
    dead = by(nodes, "slice_2")
    assert not dead.results[0].uses
    dead.detach()
    dead.erase()
    u, e = by(nodes, "SplitD_Exp"), by(nodes, "slice_3")
    assert U.has_fuse_type(u, "slice") and U.has_fuse_type(e, "slice")
    return m, u, e


def test_slice_of_a_realized_slice_is_back_stepped():
    # Exp realizes a kernel that slices x (x[:, 0:8]: Data [2, 8] strides [16, 1]); its
    # output (stored [2, 8] strides [8, 1]) is sliced again on axis 0: e reads row 1
    # (Data [1, 8], Load offset 8 = start (1, 0) by u's output strides). GE's
    # DeleteInvalidLoad -> ProcessViewOps back-steps that slice onto u's Load: one loop of
    # [1, 8], u's Data [1, 8] strides [0, 1] and its Load at offset 0 + 1 x 16 = 16, i.e.
    # e = Exp(x[1, 0:8]); the numbers are checked by fuse_checked.
    m, u, e = _slice_of_slice_kernel()
    d = AscBackendFusionDecider()
    new = fuse_checked(m, d, u, e)
    assert isinstance(new, ge.AscBackend)
    g = U.asc_graph(new)
    assert g is not None and sorted(g.axis_sizes().values()) == [1, 8]
    (data,) = g.data_nodes()
    assert data.out_type().repeat_list == (1, 8) and data.out_type().stride_list == (0, 1)
    (load,) = U.loads_of(data)
    assert load.offset == 16
    assert [type(n).__name__ for n in g.nodes()] == ["Data", "Load", "Exp", "Store", "Output"]


def test_slice_back_step_needs_a_single_reference():
    # the same pair while the dead first-row kernel still reads u: u's output has two
    # readers, so the slice view is refused (asc_graph_axis_mapping.cpp: a view link must
    # be single-reference; DeleteInvalidLoad would otherwise cut u's other reader's data)
    m, nodes = lowered(SLICE_OF_SLICE_KERNEL, enable=("split",))
    u, e = by(nodes, "SplitD_Exp"), by(nodes, "slice_3")
    r = AscBackendFusionDecider().can_fuse(u, e)
    assert r is not None and r.rule == "UnifySubgraphAxisFailed" and "multi-referenced" in r.message, r


def _message(why: Reason | None) -> str:
    assert why is None or why.rule == "CanNotMergeAscGraph", why
    return "" if why is None else why.message


def _refusal_for(n1) -> Reason | None:  # type: ignore[no-untyped-def]
    """slice_back_step_refusal for node1 feeding its output 0, alone, to a slice reader."""
    from passes.autofuse.axis_mapping import NodeFuseInfo, slice_back_step_refusal

    return slice_back_step_refusal(NodeFuseInfo(n1, n1, links=[(0, 0)], single_reference={0: True}))


def test_slice_back_step_refusals_name_ge_conditions():
    # DeleteInvalidLoad / ProcessViewOps leave a view where node1 is cube, reduces, or
    # splits a Load (IsLoadConnectedToSplit); ours also where node1 concatenates (its
    # concat axis holds parts, which a box of the loop would cut) or has another output
    _, nodes = lowered(
        """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x32xf32>
  %y = ge.Data {index = 1} : tensor<4x32xf32>
  %r = ge.ReduceSumD(%x) {axes = [0], keep_dims = true} : (tensor<4x32xf32>) -> tensor<1x32xf32>
  %c = ge.ConcatD(%x, %y) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x64xf32>
  %e = ge.Exp(%y) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  ge.NetOutput %r, %c, %e : tensor<1x32xf32>, tensor<4x64xf32>, tensor<4x32xf32>
}""",
        enable=("reduce", "concat"),
    )
    red, cat, exp = by(nodes, "Reduce"), by(nodes, "Concat"), by(nodes, "Exp")
    assert "reduction" in _message(_refusal_for(red))
    assert "Concat" in _message(_refusal_for(cat))
    assert _refusal_for(exp) is None
    exp.attributes["fuse_type"] = StringAttr("cube")
    assert "cube" in _message(_refusal_for(exp))
    from passes.autofuse.axis_mapping import NodeFuseInfo, slice_back_step_refusal

    exp.attributes["fuse_type"] = StringAttr("pointwise")
    two = NodeFuseInfo(exp, exp, links=[(0, 0)], node1_outputs=[0])
    assert "other outputs" in _message(slice_back_step_refusal(two))


def test_slice_back_step_refused_onto_a_split_load():
    # ProcessViewOps skips a producer Load that feeds a Split (IsLoadConnectedToSplit): the
    # A5 split lowering's StoreSplit kernel holds an AscIR Split
    m = parse(
        """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  ge.NetOutput %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
}"""
    )
    LowerAutofusePass(enable_pass=("split",), split_lowering="split").apply(make_context(), m)
    split = next(o for o in list(m.ops)[0].body.block.ops if any(isinstance(n, ag.Split) for n in U.asc_nodes(o)))
    assert "IsLoadConnectedToSplit" in _message(_refusal_for(split))


# -- the input cap counts the inputs Fuse builds ----------------------------------------


def _asc_backend(name: str, op: str, operands: str, data0_strides: str) -> str:
    t = "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 4], strides = [4, 1]>"
    d0 = f"!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 4], strides = {data0_strides}>"
    return f"""
  %{name} = ge.AscBackend({operands}) {{name = "autofuse_pointwise_{name}_{op}", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["{name}"], fusion_nodes_size = 7}} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32> {{
    ascgraph.graph @{name}_graph axis = [0: z0 = 4, 1: z1 = 4] {{
      %data = ascgraph.Data {{index = 0}} : {d0}
      %load = ascgraph.Load(%data) {{offset = 0, sched.axis = [0, 1]}} : {t}
      %data_1 = ascgraph.Data {{index = 1}} : {t}
      %load_1 = ascgraph.Load(%data_1) {{offset = 0, sched.axis = [0, 1]}} : {t}
      %r = ascgraph.{op}(%load, %load_1) {{sched.axis = [0, 1]}} : {t}
      %store = ascgraph.Store(%r) {{offset = 0, sched.axis = [0, 1]}} : {t}
      %output = ascgraph.Output(%store) {{index = 0}} : {t}
    }}
  }}"""


def test_input_cap_counts_unmerged_shared_data():
    # a and b share x, but b reads it transposed (Data strides [1, 4]): the two Data nodes
    # cannot merge (TryAscDataNodeMerge), so the loop-merged node keeps x twice: 4 inputs
    # (x, y, x, w), not the 3 a merged Data would give. CanFuse counted 3 and let a
    # max_input_nums_after_fuse=3 decider build a 4-input node.
    text = (
        """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x4xf32>
  %y = ge.Data {index = 1} : tensor<4x4xf32>
  %w = ge.Data {index = 2} : tensor<4x4xf32>"""
        + _asc_backend("a", "Add", "%x, %y", "[4, 1]")
        + _asc_backend("b", "Mul", "%x, %w", "[1, 4]")
        + """
  ge.NetOutput %a, %b : tensor<4x4xf32>, tensor<4x4xf32>
}"""
    )
    m = parse(text)
    g = list(m.ops)[0]
    nodes = {node_name(o): o for o in g.body.block.ops if U.inner_backends(o)}
    a, b = by(nodes, "Add"), by(nodes, "Mul")
    r = AscBackendFusionDecider(max_input_nums_after_fuse=3).can_fuse(a, b)
    assert r is not None and r.rule == "InputNumsExceedThreshold" and "4 inputs > 3" in r.message, r
    new = fuse_checked(m, AscBackendFusionDecider(max_input_nums_after_fuse=4), a, b)
    assert isinstance(new, ge.AscBackend) and len(new.operands) == 4
    assert new.operands[0] is new.operands[2]  # x kept twice: its two views differ
    # the shared x whose views agree still merges into one input (LOOP_MERGE1: 3)
    m, nodes = lowered(LOOP_MERGE1)
    assert AscBackendFusionDecider(max_input_nums_after_fuse=3).can_fuse(by(nodes, "Add"), by(nodes, "Mul")) is None
