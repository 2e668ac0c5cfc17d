"""Analyses over ge graphs shared by the passes and lowering: which graphs to run on, in
which order, who consumes what, and GE's graph-level flags. Plain functions, linear in the
graph.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, SSAValue

from ge_dialect import attrs as A
from ge_dialect.desc import shape_of, tensor_desc
from ge_dialect.ge import ControlOp, GeNode, GraphOp, PartitionedCall, called_graph_names
from ge_dialect.reason import Reason
from ge_dialect.shapes import fmt_shape

# ge_attr_define.cc: ATTR_NAME_IS_UNKNOWN_SHAPE (a node forced unknown; the partitioner's
# PartitionedCall and subgraph mark)
IS_UNKNOWN_SHAPE = "_is_unknown_shape"


def graphs_in_pass_order(module: ModuleOp) -> list[GraphOp]:
    """Root graphs first, then subgraphs, each once, in module order.

    # compiler/graph/passes/pass_manager.cc: PassManager::Run (root graph, then
    # graph->GetAllSubgraphs(), each separately)
    A subgraph is a graph some node calls (a ge.PartitionedCall's `f`, a control op's
    branches, cond or body); the others are roots.
    """
    graphs = [op for op in module.ops if isinstance(op, GraphOp)]
    called = {n for g in graphs for op in g.body.block.ops for n in called_graph_names(op)}
    roots = [g for g in graphs if g.sym_name.data not in called]
    subs = [g for g in graphs if g.sym_name.data in called]
    return roots + subs


def graph_nodes(graph: GraphOp) -> Iterator[GeNode]:
    """The graph's direct nodes in stored (topological) order (GE: GetDirectNode)."""
    for op in graph.body.block.ops:
        if isinstance(op, GeNode):
            yield op


def owner_graph(op: Operation) -> GraphOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, GraphOp):
        p = p.parent_op()
    return p


def is_graph_unknown(graph: GraphOp | None) -> bool:
    """GE's IsOwnerGraphUnknown: `_dynamic_shape_partitioned` or the graph unknown flag.

    # compiler/graph/passes/memory_optimize/notask_pass_base.cc: IsOwnerGraphUnknown
    """
    if graph is None:
        return False
    return A.get_bool(graph, A.DYNAMIC_SHAPE_PARTITIONED) or A.get_bool(graph, A.GRAPH_UNKNOWN_FLAG)


def is_single_op_scene(graph: GraphOp) -> bool:
    """GraphUtils::IsSingleOpScene: the graph's `_single_op_scene`; when the graph does not
    carry it, the first node that carries it decides.

    # graph_metadef/graph/utils/graph_utils.cc: GraphUtils::IsSingleOpScene
    """
    if A.SINGLE_OP_SCENE in graph.attributes:
        return A.get_bool(graph, A.SINGLE_OP_SCENE)
    for node in graph_nodes(graph):
        if A.SINGLE_OP_SCENE in node.attributes:
            return A.get_bool(node, A.SINGLE_OP_SCENE)
    return False


def has_unknown_shape(op: Operation) -> bool:
    """GE's IsUnknownShapeOp: a negative dim (-1/-2) on any input or output desc."""
    return any(tensor_desc(v.type).is_unknown_shape for v in (*op.operands, *op.results))


def unknown_desc_reason(op: Operation, rule: str, why: str) -> Reason | None:
    """The first input, then output, of unknown shape as a Reason under GE's `rule`
    (IsUnknownShapeOp, AreDescriptorsStatic, ...), `why` saying what that stops."""
    for what, values in (("input", op.operands), ("output", op.results)):
        for i, v in enumerate(values):
            if tensor_desc(v.type).is_unknown_shape:
                s = shape_of(v.type)
                kind = "unknown rank, GE's -2" if s is None else "a -1 dim"
                return Reason(rule, f"{what} {i} has unknown shape {fmt_shape(s)} ({kind}): {why}")
    return None


def node_order(graph: GraphOp) -> dict[Operation, int]:
    """Position of each direct node of the graph; computed once per graph by a pass."""
    return {op: i for i, op in enumerate(graph.body.block.ops)}


def consumers(value: SSAValue, order: dict[Operation, int]) -> list[tuple[Operation, int]]:
    """(consumer op, input index) of a value in a deterministic order: by the consumer's
    position (`order`, from node_order), then input index. xDSL keeps uses in a set, GE
    keeps them in anchor order; sorting gives both the same total order."""
    uses = [(u.operation, u.index) for u in value.uses]
    if len(uses) > 1:
        uses.sort(key=lambda u: (order.get(u[0], -1), u[1]))
    return uses


def first_consumer(value: SSAValue, order: dict[Operation, int]) -> Operation | None:
    """The first consumer of a value in the order of `consumers` (GE: GetOutDataNodes().at(0)),
    without sorting all uses: one linear scan."""
    best: tuple[int, int] | None = None
    first: Operation | None = None
    for u in value.uses:
        key = (order.get(u.operation, -1), u.index)
        if best is None or key < best:
            best, first = key, u.operation
    return first


def subgraph_callers(module: ModuleOp) -> dict[str, list[PartitionedCall]]:
    """Subgraph symbol -> the ge.PartitionedCall nodes that call it, in module order.

    GE keeps one parent node per subgraph instance (ComputeGraph::GetParentNode); a subgraph
    called from several places has no single parent here, callers decide what that means.
    """
    callers: dict[str, list[PartitionedCall]] = {}
    for g in module.ops:
        if not isinstance(g, GraphOp):
            continue
        for op in g.body.block.ops:
            if isinstance(op, PartitionedCall):
                f = op.attributes.get("f")
                if isinstance(f, SymbolRefAttr):
                    callers.setdefault(f.root_reference.data, []).append(op)
    return callers


def dynamic_graphs(module: ModuleOp) -> set[str]:
    """The graphs of a dynamic-shape module that stay ge graphs through ge-compile, run op by
    op by the host: the unknown graphs (is_graph_unknown: a root ge-partition-dynamic
    partitioned, its unknown-shape subgraphs, a root GE leaves whole and unknown) and,
    transitively, the graphs they call other than through a known-shape call
    (`_is_unknown_shape = false`, whose callee is compiled into a known-node model).
    Empty for a static module: the compile passes then see every graph, as before.

    # dynamic_shape_partition.cc: SetUnknownAttr / SetRootGraphUnknown (the unknown flags)
    """
    graphs = {g.sym_name.data: g for g in module.ops if isinstance(g, GraphOp)}
    todo = [n for n, g in graphs.items() if is_graph_unknown(g)]
    out: set[str] = set()
    while todo:
        name = todo.pop()
        if name in out or name not in graphs:
            continue
        out.add(name)
        for op in graphs[name].body.block.ops:
            if isinstance(op, PartitionedCall) and not (
                IS_UNKNOWN_SHAPE in op.attributes and not A.get_bool(op, IS_UNKNOWN_SHAPE)
            ):
                f = op.attributes.get("f")
                if isinstance(f, SymbolRefAttr):
                    todo.append(f.root_reference.data)
            elif isinstance(op, ControlOp):
                # a control op of an unknown graph runs on the host (the dynamic runtime's
                # control-op tasks) and its subgraphs with it: dynamic_shape_partition.cc:
                # MarkSubgraphUnknownStatus (a subgraph whose parent's graph is unknown)
                todo.extend(op.subgraph_names())
    return out


def graphs_to_compile(module: ModuleOp, pass_name: str, remarks: bool, what: str) -> list[GraphOp]:
    """graphs_in_pass_order without the dynamic graphs (dynamic_graphs), which a compile pass
    (fusion, memory assignment, task generation) leaves as they are; with `remarks`, one
    remark per graph skipped, saying what it does not get (`what`)."""
    dynamic = dynamic_graphs(module)
    out: list[GraphOp] = []
    for g in graphs_in_pass_order(module):
        if g.sym_name.data not in dynamic:
            out.append(g)
        elif remarks:
            from ge_dialect.diagnostics import remark

            remark(
                g,
                f"{pass_name}: graph @{g.sym_name.data} skipped: an unknown-shape graph runs op by op on the host "
                f"({what})",
                pass_name=pass_name,
                verdict="skipped",
            )
    return out
