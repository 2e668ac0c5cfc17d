"""Loop-axis mapping (asc_graph_axis_mapping_unittest{,2}.cpp, docs/ge/autofuse.md)."""

from __future__ import annotations

from conftest import parse
from ge_dialect.reason import Reason, not_fuse
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from passes.autofuse import ascgraph_queries as U
from passes.autofuse.axis_mapping import (
    can_axis_map,
    check_axis_subset_relation,
    create_axis_map,
    find_axis_index,
    node_fuse_info,
)


def test_keep_leading_one_axis():
    # UniqueAxisSizeAnchor_KeepLeadingOneAxis: pre [1,20,40], cur [1,20,40,1]: the anchors
    # 20 and 40 extend left, so the leading 1 maps to axis 0 (not the trailing 1)
    p = can_axis_map([0, 1, 2], [1, 20, 40], [0, 1, 2, 3], [1, 20, 40, 1])
    assert p is not None and p.base == 2
    assert dict(p.a_to_b) == {0: 0, 1: 1, 2: 2}


def test_reverse_mapping_ok_and_failed():
    # CanAxisMapAllowUnitRepeat_ReverseMappingOk: [2,1] on {0,1}, [2,3,1] on {2,3,4}
    p = can_axis_map([0, 1], [2, 1], [2, 3, 4], [2, 3, 1], allow_unit=True)
    assert p is not None and dict(p.a_to_b) == {0: 2, 1: 4}
    assert can_axis_map([0, 1], [2, 4], [2, 3, 4], [2, 3, 5], allow_unit=True) is None


def test_unit_repeat_fallback_only_when_allowed():
    # a reduced store [8,1] against a loop [8,64]: 64 has no equal repeat; only the
    # unit-repeat fallback (need_flash) maps it onto the repeat-1 position
    assert find_axis_index([8, 64], [8, 1], allow_unit=False) is None
    assert find_axis_index([8, 64], [8, 1], allow_unit=True) == [0, 1]
    assert find_axis_index([3, 1], [3, 5], allow_unit=False) is None
    assert find_axis_index([3, 1], [3, 5], allow_unit=True) == [0, 1]


def test_fill_right_to_left():
    # no unique anchors: each short axis goes to the right-most unmapped equal position
    assert find_axis_index([4], [4, 4], allow_unit=False) == [1]
    assert find_axis_index([4, 4], [4, 4, 4], allow_unit=False) == [1, 2]


def test_check_axis_subset_relation():
    # AscBackendFusionDecider_CheckAxisSubsetRelation_Ok
    assert check_axis_subset_relation([0, 2], [0, 1, 2])
    assert check_axis_subset_relation([0, 1, 2], [1, 2])
    assert check_axis_subset_relation([0, 1], [0, 1])
    assert not check_axis_subset_relation([0, 1], [1, 2])
    assert not check_axis_subset_relation([0, 1], [2, 3])
    assert check_axis_subset_relation([], [])
    assert not check_axis_subset_relation([1, 0], [0, 1, 2])


def _lowered(text: str, enable=("reduce", "concat", "transpose")):
    m = parse(text)
    LowerAutofusePass(enable_pass=enable).apply(make_context(), m)
    g = list(m.ops)[0]
    return m, [o for o in g.body.block.ops if U.inner_backends(o)]


def test_node_fuse_info_vertical_and_horizontal():
    m, (a, b) = _lowered("""
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  %a = ge.Exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = ge.Add(%a, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}""")
    info = node_fuse_info(a, b)
    assert info.links == [(0, 0)] and info.single_reference == {0: False}
    assert info.same_input_map == [] and info.node1_outputs == [0]
    assert [v.name_hint for v in info.fused_inputs] == ["x", "y"]
    assert node_fuse_info(b, a) == not_fuse(
        "UnifySubgraphAxisFailed", "the link goes from node2 to node1: the caller must order the pair"
    )


def test_node_fuse_info_horizontal_and_no_relation():
    m, (a, b, c) = _lowered("""
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  %z = ge.Data {index = 2} : tensor<4x8xf32>
  %a = ge.Add(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = ge.Mul(%z, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = ge.Exp(%z) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %a, %b, %c : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}""")
    info = node_fuse_info(a, b)
    assert info.links == [] and info.same_input_map == [(1, 1)]
    assert [v.name_hint for v in info.fused_inputs] == ["x", "y", "z"]
    assert info.node2_input_pos == {0: 2, 1: 1}
    assert node_fuse_info(a, c) == not_fuse("NoSharedData", "the nodes share no input and have no link")
    u = create_axis_map(info, need_flash=False)
    assert not isinstance(u, Reason) and u.map1 == {0: 0, 1: 1} and u.map2 == {0: 0, 1: 1}


def test_vertical_reduce_onto_broadcast_consumer_and_transpose_mapping():
    m, (r, p, t) = _lowered("""
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8x16xf32>
  %m = ge.ReduceMaxD(%x) {axes = [1], keep_dims = true} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %e = ge.Exp(%m) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  %t = ge.TransposeD(%e) {perm = [1, 0]} : (tensor<8x1xf32>) -> tensor<1x8xf32>
  ge.NetOutput %t : tensor<1x8xf32>
}""")
    # reduce -> Exp: the store [8,1] maps to the consumer's data [8,1] position by position
    u = create_axis_map(node_fuse_info(r, p), need_flash=False)
    assert not isinstance(u, Reason) and u.map2 == {0: 0, 1: 1}
    # Exp [8,1] -> Transpose whose loop is [1,8]: the anchors cross over (8 <-> 8)
    u = create_axis_map(node_fuse_info(p, t), need_flash=False)
    assert not isinstance(u, Reason) and u.map1 == {0: 0, 1: 1} and u.map2 == {0: 1, 1: 0}


def test_no_relation_after_reduce_lowering_fallback():
    m, (a, b) = _lowered(
        """
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %a = ge.Exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = ge.ReduceSumD(%x) {axes = [1], keep_dims = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %c = ge.Abs(%b) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %a, %c : tensor<4x8xf32>, tensor<4xf32>
}""",
        enable=(),
    )
    # ReduceSumD is not lowered (reduce off): Exp and Abs share no input and no link
    assert node_fuse_info(a, b) == not_fuse("NoSharedData", "the nodes share no input and have no link")
