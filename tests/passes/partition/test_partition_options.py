"""ge-partition-dynamic's GE session options: topo-sorting-mode (ge.topoSortingMode, with
MergeClustersWithConsistantId for 3), host-scheduling-max-threshold
(ge.exec.hostSchedulingMaxThreshold) and placement (ge.exec.placement).

GE's tests are in tests/ge/ut/ge/graph/partition/dynamic_shape_partition_unittest.cc
(hicann/ge), ported by name. GE sorts the graph with one mode (TopologicalSortingGraph) and
partitions it with mode 3, which keeps that order (StableRDFS); here the test sorts the
block with passes/partition/topo_sorting.py and partitions with topo-sorting-mode=3. GE's
graphs have no Data consumer NetOutput; ours end with one. The expected subgraph contents
are GE's (the orders worked out by hand from GE's sorts in each test's comment).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from conftest import parse
from ge_dialect import attrs as A
from ge_dialect.ge import Data, GraphOp, NetOutput
from ge_dialect.names import node_name
from ge_dialect.pass_options import PassOptionError
from ge_tools.registry import make_context
from passes.partition import dynamic_shape_partition as dsp
from passes.partition.dynamic_shape_partition import DynamicShapePartitionPass
from passes.partition.topo_sorting import BFS, DFS, RDFS, STABLE_RDFS, topological_sorting
from runtime.interpreter import run_module

T = "tensor<1x?x2x2xf32>"
K = "tensor<1x1x2x2xf32>"


def sort_root(m: ModuleOp, mode: int) -> None:
    """GE's compute_graph->TopologicalSortingGraph() with ge.topoSortingMode = mode."""
    g = next(op for op in m.ops if isinstance(op, GraphOp))
    block = g.body.block
    order = topological_sorting(list(block.ops), mode)
    for op in order:
        op.detach()
    for op in order:
        block.add_op(op)


def partition(text: str, sort: int | None = None, **opts) -> ModuleOp:
    m = parse(text)
    if sort is not None:
        sort_root(m, sort)
    DynamicShapePartitionPass(**opts).apply(make_context(), m)
    m.verify()
    return m


def subgraphs(m: ModuleOp) -> dict[str, list[str]]:
    """subgraph name -> its nodes but Data and NetOutput, in order (GE's test loop)."""
    return {
        g.sym_name.data: [node_name(op) for op in g.body.block.ops if not isinstance(op, Data | NetOutput)]
        for g in m.ops
        if isinstance(g, GraphOp) and g.sym_name.data != "g1"
    }


def unary(name: str, src: str, t_in: str, t_out: str, op: str = "Relu") -> str:
    return f"  %{name} = ge.{op}(%{src}) : ({t_in}) -> {t_out}\n"


# not_single_op_scene_success_stable_topo_bfs: data0 -> cast1 -> relu1..3 -> add1 (unknown),
# data1 -> cast2 -> relu4..6 -> add1, const2 -> cast3 -> relu7..9 -> add2 and const3 -> cast4
# -> relu10..12 -> add2 (known), add3 = add1 + add2, add4 = add3 + variable1 (GE's ref_data
# after variable1 is left out: a Variable has no input in the dialect).
STABLE_BFS = (
    "ge.graph @g1 {\n"
    f"  %data0 = ge.Data {{index = 0}} : {T}\n"
    + unary("cast1", "data0", T, T, "Cast")
    + unary("relu1", "cast1", T, T)
    + unary("relu2", "relu1", T, T)
    + unary("relu3", "relu2", T, T)
    + f"  %data1 = ge.Data {{index = 1}} : {T}\n"
    + unary("cast2", "data1", T, T, "Cast")
    + unary("relu4", "cast2", T, T)
    + unary("relu5", "relu4", T, T)
    + unary("relu6", "relu5", T, T)
    + f"  %add1 = ge.Add(%relu6, %relu3) : ({T}, {T}) -> {T}\n"
    + f"  %const2 = ge.Const {{value = dense<1.0> : {K}}} : {K}\n"
    + unary("cast3", "const2", K, K, "Cast")
    + unary("relu7", "cast3", K, K)
    + unary("relu8", "relu7", K, K)
    + unary("relu9", "relu8", K, K)
    + f"  %const3 = ge.Const {{value = dense<2.0> : {K}}} : {K}\n"
    + unary("cast4", "const3", K, K, "Cast")
    + unary("relu10", "cast4", K, K)
    + unary("relu11", "relu10", K, K)
    + unary("relu12", "relu11", K, K)
    + f"  %add2 = ge.Add(%relu12, %relu9) : ({K}, {K}) -> {K}\n"
    + f"  %add3 = ge.Add(%add1, %add2) : ({T}, {K}) -> {T}\n"
    + f"  %variable1 = ge.Variable {{value = dense<3.0> : {K}}} : {K}\n"
    + f"  %add4 = ge.Add(%variable1, %add3) : ({K}, {T}) -> {T}\n"
    + f"  ge.NetOutput %add4 : {T}\n"
    "}\n"
)


def test_bfs_order_is_ges():
    # BFSTopologicalSorting by hand: SortNodes starts data0, data1, then const2, const3,
    # variable1; each node readies one successor (add1, add2, add3, add4 wait for their
    # second input), queued FIFO; a start node is taken when the queue is empty
    m = parse(STABLE_BFS)
    sort_root(m, BFS)
    g = next(op for op in m.ops if isinstance(op, GraphOp))
    assert [node_name(op) for op in g.body.block.ops] == (
        "data0 cast1 relu1 relu2 relu3 data1 cast2 relu4 relu5 relu6 add1 const2 cast3 relu7 relu8 relu9 "
        "const3 cast4 relu10 relu11 relu12 add2 add3 variable1 add4 NetOutput"
    ).split()


def test_not_single_op_scene_success_stable_topo_bfs():
    m = partition(STABLE_BFS, sort=BFS, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m) == {
        "g1_sub_0_unknow": "cast1 relu1 relu2 relu3 cast2 relu4 relu5 relu6 add1".split(),
        "g1_sub_1_input": ["const2", "const3"],
        "g1_sub_2_know": "cast3 relu7 relu8 relu9 cast4 relu10 relu11 relu12 add2".split(),
        # the known variable1 between two unknown runs (1 < 4): it and add4 join add3
        "g1_sub_3_unknow": ["add3", "variable1", "add4"],
    }
    # the partitioned graph computes what the flat one does
    flat = parse(STABLE_BFS.replace(T, K))
    x = [np.full((1, 1, 2, 2), v, "float32") for v in (-1.0, 2.0)]
    assert (run_module(flat, x)[0] == run_module(m, x)[0]).all()


def test_stable_topo_without_merge_clusters_with_consistant_id(monkeypatch):
    # the rule removed: no cluster merges in mode 3, one subgraph per node
    monkeypatch.setattr(dsp.DynamicShapePartitioner, "merge_clusters_with_consistant_id", lambda self: None)
    m = partition(STABLE_BFS, sort=BFS, topo_sorting_mode=STABLE_RDFS)
    assert len(subgraphs(m)) > 4 and "g1_sub_3_unknow" in subgraphs(m)
    assert subgraphs(m)["g1_sub_3_unknow"] != ["add3", "variable1", "add4"]


def test_stable_topo_without_the_small_run_rule(monkeypatch):
    # MergeIdConsistantCluster without its small-known-run rule (limit 0: no run is
    # small): variable1 stays a known subgraph of its own between add3 and add4
    m = partition(STABLE_BFS, sort=BFS, topo_sorting_mode=STABLE_RDFS, static_model_ops_lower_limit=0)
    assert subgraphs(m)["g1_sub_4_know"] == ["variable1"]


# GE's three-branch graph: data_i -> cast_i -> relu_i -> addn
def three_branches(types: dict[str, str], tail: bool = False) -> str:
    t = types.get
    text = "ge.graph @g1 {\n"
    for i in range(3):
        text += f"  %data{i} = ge.Data {{index = {i}}} : {t(f'data{i}', T)}\n"
        text += unary(f"cast{i + 1}", f"data{i}", t(f"data{i}", T), t(f"cast{i + 1}", T), "Cast")
    for i in range(1, 4):
        text += unary(f"relu{i}", f"cast{i}", t(f"cast{i}", T), t(f"relu{i}", T))
    ins = ", ".join(f"%relu{i}" for i in range(1, 4))
    tys = ", ".join(t(f"relu{i}", T) for i in range(1, 4))
    text += f"  %addn = ge.AddN({ins}) {{N = 3}} : ({tys}) -> {t('addn', T)}\n"
    last = "addn"
    if tail:
        text += unary("cast4", "addn", t("addn", T), K, "Cast") + unary("relu4", "cast4", K, K)
        last = "relu4"
    return text + f"  ge.NetOutput %{last} : {t(last, T) if not tail else K}\n}}\n"


BRANCHES = three_branches({})


def test_not_single_op_scene_success_stable_topo_bfs2():
    # BFS: data0 cast1 relu1 (addn waits) data1 cast2 relu2 data2 cast3 relu3 addn
    m = partition(BRANCHES, sort=BFS, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m) == {"g1_sub_0_unknow": "cast1 relu1 cast2 relu2 cast3 relu3 addn".split()}
    # without the sort (the text's order data0 cast1 data1 cast2 ...): another order
    m2 = partition(BRANCHES, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m2) == {"g1_sub_0_unknow": "cast1 cast2 cast3 relu1 relu2 relu3 addn".split()}


def test_not_single_op_scene_success_stable_topo_dfs():
    # DFS: a LIFO from data0: data0 cast1 relu1 data1 cast2 relu2 data2 cast3 relu3 addn
    text = three_branches({"data2": K})
    m = partition(text, sort=DFS, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m) == {"g1_sub_0_unknow": "cast1 relu1 cast2 relu2 cast3 relu3 addn".split()}


def test_not_single_op_scene_success_stable_topo_rdfs():
    # RDFS from NetOutput: addn's producers all of unknown size (-1), by name descending
    # on the stack: relu1's branch walked first
    text = three_branches({"data2": K})
    m = partition(text, sort=RDFS, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m) == {"g1_sub_0_unknow": "cast1 relu1 cast2 relu2 cast3 relu3 addn".split()}


CENTER = three_branches(
    {"data0": K, "data1": K, "cast1": K, "cast2": K, "relu2": K, "addn": K},
)


def test_not_single_op_scene_success_stable_topo_center_static():
    # RDFS: relu2 (16 bytes) is the largest producer of addn, pushed first and walked last;
    # relu3 and relu1 (unknown, -1) by name descending: relu1 first. Then in that order
    # cast1 (K) relu1 (U) cast3 relu3 (U) cast2 relu2 (K) addn: the known cast1 (1 < 4)
    # joins relu1's run; cast2, relu2 and addn (3 < 4, addn unknown here by its inputs:
    # one SSA value per edge) join it too
    m = partition(CENTER, sort=RDFS, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m) == {"g1_sub_0_unknow": "cast1 relu1 cast3 relu3 cast2 relu2 addn".split()}


def test_not_single_op_scene_success_stable_topo_tail_static_3():
    # the known tail cast4, relu4 (2 < 4) turns unknown and joins the unknown run (addn's
    # output known, as in GE, so that cast4 is known)
    text = three_branches({"data2": K, "addn": K}, tail=True)
    m = partition(text, sort=RDFS, topo_sorting_mode=STABLE_RDFS)
    assert subgraphs(m) == {"g1_sub_0_unknow": "cast1 relu1 cast2 relu2 cast3 relu3 addn cast4 relu4".split()}
    # a tail of the limit (4 known nodes) stays known: the rule's bound
    m2 = partition(text, sort=RDFS, topo_sorting_mode=STABLE_RDFS, static_model_ops_lower_limit=2)
    assert subgraphs(m2) == {
        "g1_sub_0_unknow": "cast1 relu1 cast2 relu2 cast3 relu3 addn".split(),
        "g1_sub_1_know": ["cast4", "relu4"],
    }


def test_stable_rdfs_keeps_a_topological_order():
    for text in (STABLE_BFS, BRANCHES, CENTER):
        m = parse(text)
        g = next(op for op in m.ops if isinstance(op, GraphOp))
        ops = list(g.body.block.ops)
        assert topological_sorting(ops, STABLE_RDFS) == ops
        for mode in (BFS, DFS, RDFS):  # every sort is a permutation in topological order
            order = topological_sorting(ops, mode)
            pos = {op: i for i, op in enumerate(order)}
            assert set(order) == set(ops) and len(order) == len(ops)
            assert all(pos[v.owner] < pos[op] for op in order for v in op.operands)  # type: ignore[index]


# -- host scheduling and placement -------------------------------------------------------

HOST_SCHED = """
ge.graph @g1 {
  %node1 = ge.Const {value = dense<1.0> : tensor<1x1x4x4xf32>} : tensor<1x1x4x4xf32>
  %add_n_node = ge.AddN(%node1, %node1) {N = 2} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %node2 = ge.Relu(%add_n_node) : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  ge.NetOutput %node2 : tensor<1x1x4x4xf32>
}
"""


def root(m: ModuleOp) -> GraphOp:
    return next(g for g in m.ops if isinstance(g, GraphOp) and g.sym_name.data == "g1")


def test_host_scheduling_dynamic():
    m = partition(HOST_SCHED, host_scheduling_max_threshold=15)
    assert A.get_bool(root(m), A.GRAPH_UNKNOWN_FLAG)
    assert subgraphs(m) == {}  # not partitioned
    # the bound is strict: 4 known nodes, threshold 4
    assert not A.get_bool(root(partition(HOST_SCHED, host_scheduling_max_threshold=4)), A.GRAPH_UNKNOWN_FLAG)
    assert A.get_bool(root(partition(HOST_SCHED, host_scheduling_max_threshold=5)), A.GRAPH_UNKNOWN_FLAG)


def test_host_scheduling_static():
    m = partition(HOST_SCHED, host_scheduling_max_threshold=0)
    assert not A.get_bool(root(m), A.GRAPH_UNKNOWN_FLAG)


def test_host_scheduling_not_with_a_special_node():
    # IsSpecialNode: a node with a subgraph keeps the graph static
    text = """
ge.graph @g1 {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @sub {
  %d = ge.Data {index = 0} : tensor<4xf32>
  %r = ge.Relu(%d) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
"""
    assert not A.get_bool(root(partition(text, host_scheduling_max_threshold=15)), A.GRAPH_UNKNOWN_FLAG)
    flat = text.replace("%y = ge.PartitionedCall(%x) {f = @sub}", "%y = ge.Relu(%x)")
    assert A.get_bool(root(partition(flat, host_scheduling_max_threshold=15)), A.GRAPH_UNKNOWN_FLAG)


def test_run_on_host_return_success():
    # ge.exec.placement = HOST: the root unknown, whole, though it has unknown nodes
    m = partition(BRANCHES, placement="HOST")
    assert subgraphs(m) == {}
    assert A.get_bool(root(m), A.GRAPH_UNKNOWN_FLAG)
    assert not A.get_bool(root(m), A.DYNAMIC_SHAPE_PARTITIONED)
    m2 = partition(BRANCHES, placement="DEVICE")
    assert list(subgraphs(m2)) == ["g1_sub_0_unknow"]


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"topo_sorting_mode": 4}, "option topo-sorting-mode: expected 0, 1, 2 or 3, got 4"),
        ({"host_scheduling_max_threshold": -1}, "option host-scheduling-max-threshold: expected an integer >= 0"),
        ({"placement": "CPU"}, "option placement: expected HOST or DEVICE, got 'CPU'"),
    ],
)
def test_bad_option_values(opts, message):
    with pytest.raises(PassOptionError, match=message):
        DynamicShapePartitionPass(**opts)


FAN_OUT = """
ge.graph @g1 {
  %c = ge.Const {value = dense<1.0> : tensor<4xf32>} : tensor<4xf32>
  %aw = ge.Relu(%c) : (tensor<4xf32>) -> tensor<4xf32>
  %x = ge.Data {index = 0} : tensor<4xf32>
  %a = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %a2 = ge.Relu(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %b2 = ge.Add(%b, %aw) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %a2, %b2 : tensor<4xf32>, tensor<4xf32>
}
"""


def order(mode: int) -> list[str]:
    g = next(op for op in parse(FAN_OUT).ops if isinstance(op, GraphOp))
    return [node_name(op) for op in topological_sorting(list(g.body.block.ops), mode)]


def test_the_four_orders_by_hand():
    # BFS: SortNodes starts x (a Data) then c; x readies a and b, queued by name; c is
    # taken when the queue runs dry (after a2; b2 waits for aw)
    assert order(BFS) == "x a b a2 c aw b2 NetOutput".split()
    # DFS: x pushes a then b (edge order): b is popped first (b2 waits for aw), then a, a2
    assert order(DFS) == "x b a a2 c aw b2 NetOutput".split()
    # RDFS from NetOutput: a2, b2 of equal size, by name descending (b2 pushed first, a2 on
    # top): a2's producers first; then b2's: aw (by name below b, on top) with c, then b;
    # DelayTopoSort moves aw, fed by the Const c only, next to its consumer b2
    assert order(RDFS) == "x a a2 c b aw b2 NetOutput".split()
    # StableRDFS keeps the stored (topological) order
    assert order(STABLE_RDFS) == "c aw x a b a2 b2 NetOutput".split()


def test_rdfs_without_delay_topo_sort(monkeypatch):
    from passes.partition import topo_sorting

    monkeypatch.setattr(topo_sorting, "_delay_topo_sort", lambda nodes: nodes)
    assert order(RDFS) == "x a a2 c aw b b2 NetOutput".split()


# -- no tiling (IsNodeSupportNoTiling, MarkOpNoTiling, RevertOpNoTilingAttr) -------------

AICPU = '"DNN_VM_AICPU"'
WHERE_ATTRS = (
    f"{{_specified_engine_name = {AICPU}, _op_tiling_inline_engine = [{AICPU}], "
    f'_op_export_shape_engine = [{AICPU}], _op_max_shape = "10, 0"}}'
)


def no_tiling_graph(where_attrs: str = WHERE_ATTRS, where1: bool = False) -> str:
    # GE's mark_no_tiling_nodes: data (2x5) -> where (?x5, an AI CPU op that supports no
    # tiling, max shape 10x0) -> NetOutput; with where1, a second where without the
    # attributes after it (mark_unknown_and_no_tiling_nodes)
    last = "where"
    text = (
        "ge.graph @g1 {\n"
        "  %data = ge.Data {index = 0} : tensor<2x5xf32>\n"
        f"  %where = ge.Relu(%data) {where_attrs} : (tensor<2x5xf32>) -> tensor<?x5xf32>\n"
    )
    if where1:
        text += "  %where1 = ge.Relu(%where) : (tensor<?x5xf32>) -> tensor<?x5xf32>\n"
        last = "where1"
    return text + f"  ge.NetOutput %{last} : tensor<?x5xf32>\n}}\n"


def node(m: ModuleOp, name: str):
    return next(op for g in m.ops if isinstance(g, GraphOp) for op in g.body.block.ops if node_name(op) == name)


def test_mark_no_tiling_nodes():
    m = partition(no_tiling_graph())
    assert subgraphs(m) == {}  # no unknown node: not partitioned
    where = node(m, "where")
    assert A.get_bool(where, "_op_no_tiling")
    assert A.get_bool_list(where, "_tensor_no_tiling_mem_type") == [True]
    assert str(where.attributes["_tensor_max_shape"]) == "[[10 : i64, 0 : i64]]"
    # the NetOutput reads a shape the where exports: no tiling too
    assert A.get_bool(node(m, "NetOutput"), "_op_no_tiling")


@pytest.mark.parametrize(
    "drop",
    ["_op_tiling_inline_engine", "_op_export_shape_engine", "_op_max_shape", "_specified_engine_name"],
)
def test_mark_no_tiling_nodes_without_each_condition(drop):
    # IsNodeSupportNoTiling: each condition removed, the where is unknown: partitioned
    attrs = WHERE_ATTRS.replace(f"{drop} = ", "_dropped = ")
    m = partition(no_tiling_graph(attrs))
    assert list(subgraphs(m)) == ["g1_sub_0_unknow"]
    assert not A.get_bool(node(m, "where"), "_op_no_tiling")


def test_mark_unknown_and_no_tiling_nodes():
    # where1 (no attributes) is unknown: the no-tiling where joins the unknown set and its
    # marks are reverted (RevertOpNoTilingAttr: _op_no_tiling false)
    m = partition(no_tiling_graph(where1=True))
    where = node(m, "where")
    assert "_op_no_tiling" in where.attributes and not A.get_bool(where, "_op_no_tiling")
    assert A.get_bool_list(where, "_tensor_no_tiling_mem_type") == [False]
    assert subgraphs(m) == {"g1_sub_0_unknow": ["where", "where1"]}


def test_test_node_support_no_tiling_01():
    # IsNodeSupportNoTiling: a node marked _op_no_tiling supports no tiling whatever its
    # engine; unmarked, it needs the engine attributes
    def refusal(attrs: str):
        m = parse(no_tiling_graph(attrs))
        g = root(m)
        p = dsp.DynamicShapePartitioner(m, g, 4, False, False)
        return p.no_tiling_refusal(node(m, "where"), False)

    assert refusal("{_op_no_tiling = true}") is None
    assert refusal("{_op_no_tiling = false}") == "engine '' does not support tiling inline (_op_tiling_inline_engine)"
    assert refusal(WHERE_ATTRS) is None


def test_test_node_support_no_tiling():
    # the NetOutput of a no-tiling node whose engine does not export its shape: refused
    # (NoTilingCheckInputNodeUpdateShape), so both are unknown and the graph is partitioned
    m = partition(no_tiling_graph("{_op_no_tiling = true}"))
    assert list(subgraphs(m)) == ["g1_sub_0_unknow"]
    assert not A.get_bool(node(m, "where"), "_op_no_tiling")  # reverted


def test_bad_op_max_shape_is_a_located_error():
    from ge_dialect.diagnostics import LocatedError

    with pytest.raises(LocatedError, match=r"_op_max_shape '10' gives output 0 1 dim, its rank is 2"):
        partition(no_tiling_graph(WHERE_ATTRS.replace('"10, 0"', '"10"')))
    with pytest.raises(LocatedError, match=r"has 2 shapes for 1 output"):
        partition(no_tiling_graph(WHERE_ATTRS.replace('"10, 0"', '"10,0;3,3"')))


def test_not_single_op_scene_success_host_cpu_engine():
    # not_single_op_scene_success: a node of the DNN_VM_HOST_CPU engine is unknown though
    # its shapes are known (IsUnknownShapeNode). By hand: the known cast2 -> relu2 and
    # cast3 -> relu3 merge into addn (5 nodes, kept known); cast1 alone (1 < 4) turns
    # unknown and joins relu1
    static = BRANCHES.replace(T, K)
    text = static.replace(
        "%relu1 = ge.Relu(%cast1)", '%relu1 = ge.Relu(%cast1) {_specified_engine_name = "DNN_VM_HOST_CPU"}'
    )
    m = partition(text)
    assert subgraphs(m) == {
        "g1_sub_0_unknow": ["cast1", "relu1"],
        "g1_sub_1_know": "cast2 cast3 relu2 relu3 addn".split(),
    }
    # another engine, or none: the static graph is not partitioned
    assert subgraphs(partition(text.replace("DNN_VM_HOST_CPU", "AIcoreEngine"))) == {}
    assert subgraphs(partition(static)) == {}
