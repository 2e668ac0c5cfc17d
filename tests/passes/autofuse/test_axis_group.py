"""GE's axis-group merge tests (test_tiling_group.cpp, docs/ge/autofuse.md) and per-node groups."""

from __future__ import annotations

import pytest

from conftest import lowered
from passes.autofuse.axis_group import (
    GROUP_R,
    GROUP_X,
    GROUP_Y,
    AxisGroup,
    can_merge_axis_group,
    merge_axes_group,
    transpose_axis_group,
)


def G(x=(), y=(), r=(), n=(), order=None) -> AxisGroup:
    order = list(order) if order is not None else list(range(len(x) + len(y) + len(r)))
    return AxisGroup(list(x), list(y), list(r), list(n), order)


def sched(a: AxisGroup, b: AxisGroup) -> bool:
    return merge_axes_group(a, b, is_canfuse_call=False, is_ge_call=True)


def test_get_group_type():
    assert G().group_type() == 0
    assert G(x=[0]).group_type() == GROUP_X
    assert G(y=[0]).group_type() == GROUP_Y
    assert G(r=[0]).group_type() == GROUP_R
    assert G(x=[0], y=[1]).group_type() == GROUP_X | GROUP_Y
    assert G(y=[0], r=[1]).group_type() == GROUP_Y | GROUP_R
    assert G(x=[0], y=[1], r=[2]).group_type() == GROUP_X | GROUP_Y | GROUP_R


def test_group_merge_y_y():
    assert sched(G(y=[0, 1]), G(y=[0, 1]))
    assert not sched(G(y=[0, 1]), G(y=[1, 0]))  # schedule mode: order matters
    assert not sched(G(y=[0, 1]), G(y=[0]))


def test_group_merge_y_yr():
    t = G(y=[0, 1])
    assert sched(t, G(y=[0], r=[1], order=[0, 1]))
    assert t.group_type() == GROUP_Y | GROUP_R  # the target becomes YR
    # case 2 as GE's test mutates it: the stale r={1} survives -> YR ⊕ YR in schedule mode
    t.y, t.axes_order = [0, 1], [0, 1]
    assert not sched(t, G(y=[1], r=[0], order=[1, 0]))
    # case 3: Y{0} + stale R{1} against Y{0}: |y1| = 1 != |y0| + |r0| = 2
    t = G(y=[0], r=[1])
    assert not sched(t, G(y=[0]))


def test_group_merge_yr_y():
    assert sched(G(y=[0], r=[1]), G(y=[0, 1]))
    assert not sched(G(y=[0], r=[1]), G(y=[1, 0]))
    assert not sched(G(y=[0], r=[1]), G(y=[0]))


def test_group_merge_xy():
    assert sched(G(x=[0], y=[1]), G(y=[0, 1]))
    assert not sched(G(x=[0], y=[1]), G(y=[0, 1, 2]))
    assert sched(G(y=[0, 1]), G(x=[0], y=[1]))
    assert not sched(G(y=[0, 1]), G(x=[0], y=[1, 2]))


def test_group_merge_yr_yr_schedule():
    assert sched(G(y=[0], r=[1]), G(y=[0], r=[1]))
    assert not sched(G(y=[0], r=[1], order=[0, 1]), G(y=[0], r=[1], order=[1, 0]))
    assert not sched(G(y=[0], r=[1]), G(y=[0], r=[1, 2]))


def test_group_merge_concat_like():
    assert sched(G(y=[0], n=[1, 2]), G(y=[0, 1, 2]))
    assert not sched(G(y=[0], n=[1, 2]), G(y=[2]))


def test_y_merge_xy_canfuse_then_xy_xy_fails():
    t = G(y=[0, 1])
    assert merge_axes_group(t, G(x=[0], y=[1]), True, True)
    assert not merge_axes_group(t, G(x=[0], y=[1]), True, True)


@pytest.mark.parametrize(
    "a,b,ok",
    [
        (G(y=[0, 1, 2, 3]), G(y=[0, 3, 1, 2]), True),  # canfuse_disorder_y_y
        (G(y=[0, 1, 2, 3]), G(y=[0, 1, 2, 4]), False),
        (G(y=[0, 1, 2, 3]), G(y=[2, 1], r=[0, 3]), True),  # canfuse_disorder_y_yr
        (G(y=[0, 1, 2, 3]), G(y=[2, 1], r=[0, 4]), False),
        (G(y=[2, 1], r=[0, 3]), G(y=[0, 1, 2, 3]), True),  # canfuse_disorder_yr_y
        (G(y=[2, 1], r=[0, 4]), G(y=[0, 1, 2, 3]), False),
        (G(y=[2, 1], r=[0, 3]), G(y=[1, 2], r=[3, 0]), True),  # torch-style YR ⊕ YR
        (G(y=[2, 1], r=[0, 3]), G(y=[1, 2], r=[3, 4]), False),
        (G(y=[0, 1, 2, 3]), G(y=[0, 1], r=[2, 3]), True),  # gencase_canfuse
    ],
)
def test_can_merge_axis_group_torch_mode(a, b, ok):
    assert (merge_axes_group(a, b, is_canfuse_call=True, is_ge_call=False)) is ok


def test_gencase_cannot_fuse_without_completion_but_ge_completes_subsets():
    assert not merge_axes_group(G(y=[0, 1, 2, 3]), G(y=[0, 1, 2]), True, False)
    # BackendUtils::IsCanMergeAxisGroup appends the missing axis to the smaller y
    assert can_merge_axis_group(G(y=[0, 1, 2, 3]), G(y=[0, 1, 2])) is not None


def test_yr_yr_refused_on_ge_path():
    a, b = G(y=[0], r=[1]), G(y=[0], r=[1])
    assert can_merge_axis_group(a, b, is_ge_call=False) is not None
    assert can_merge_axis_group(a, b, is_ge_call=True) is None


def test_reduce_then_pointwise_with_fewer_axes():
    # reduce YR over {0,1} and a pointwise Y over {0}: completion makes it Y{0,1}
    m = can_merge_axis_group(G(y=[0], r=[1]), G(y=[0]))
    assert m is not None and m.label() == "YR"


def test_transpose_groups():
    # input [2,1,0] -> output [0,1,2], walked by hand from the tail: (0,2) puts 0 in x and
    # 2 in y; (1,1) puts 1 in x (already placed as output); (2,0) both placed: stop
    g = transpose_axis_group([2, 1, 0], [0, 1, 2], [0, 1, 2])
    assert (g.x, g.y, g.n) == ([0, 1], [2], [])
    # last axis unchanged: it goes to n; the swapped pair splits into x and y
    g = transpose_axis_group([1, 0, 2], [0, 1, 2], [0, 1, 2])
    assert g.n == [2] and g.x == [0] and g.y == [1]


def test_text_round_trip():
    g = G(x=[3], y=[0, 1], r=[2], n=[4], order=[2, 0, 1, 3])
    assert AxisGroup.from_text(g.to_text()) == g


def test_gather_node_group_is_all_loop_axes_in_y():
    """tiling_group.cpp GenAxisGroupForSingleNode: a Gather (compute type Gather) puts every
    loop axis in y, order 0..n-1; its Data operands (whole-tensor views with positional
    axis ids) are buffers and add nothing."""
    from ge_dialect import ascgraph as ag
    from ge_dialect.asc_backend import asc_graph_of
    from passes.autofuse.axis_group import graph_axis_group, node_axis_group

    _, nodes = lowered(
        """ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<2x3xi32>
  %ax = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<2x3xi32>, tensor<i32>) -> tensor<4x2x3xf32>
  ge.NetOutput %g : tensor<4x2x3xf32>
}""",
        ("gather",),
    )
    (k,) = nodes.values()
    graph = asc_graph_of(k)
    gather = next(n for n in graph.nodes() if isinstance(n, ag.Gather))
    g = node_axis_group(gather, graph.axis_ids())
    assert (g.x, g.y, g.r, g.n, g.axes_order) == ([], [0, 1, 2], [], [], [0, 1, 2])
    assert all(node_axis_group(d, graph.axis_ids()) is None for d in graph.data_nodes())
    whole = graph_axis_group(graph)
    assert (whole.x, whole.y, whole.r, whole.n) == ([], [0, 1, 2], [], [])
