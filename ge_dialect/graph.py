"""Analyses over ge graphs shared by the passes, lowering, the runtime and the tools: which
graphs to run on, in which order, who consumes what, GE's graph-level flags, and what a
module holds (its root graph, its npu.models, whether the dynamic executor runs it, the
names of a graph's outputs). Plain functions, linear in the graph.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, OpResult, SSAValue

from ge_dialect import attrs as A
from ge_dialect.desc import shape_of, tensor_desc
from ge_dialect.diagnostics import LocatedError
from ge_dialect.ge import ControlOp, GeNode, GraphOp, PartitionedCall, called_graph_names, node_name
from ge_dialect.npu import ModelOp
from ge_dialect.reason import Reason
from ge_dialect.shapes import fmt_shape

# ge_attr_define.cc: ATTR_NAME_IS_UNKNOWN_SHAPE (a node forced unknown; the partitioner's
# PartitionedCall and subgraph mark)
IS_UNKNOWN_SHAPE = "_is_unknown_shape"
# an npu.model compiled from a known-shape subgraph (GE's known-node DavinciModel)
KNOWN_NODE_ATTR = "known_node"


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


# ---------------------------------------------------------------------------------------
# What a module holds: its root graph, its models, the dynamic executor's modules
# ---------------------------------------------------------------------------------------


def root_graphs(module: ModuleOp) -> list[GraphOp]:
    """The graphs of `module` no node calls (no ge.PartitionedCall, no control op), in
    module order."""
    graphs = [op for op in module.ops if isinstance(op, GraphOp)]
    called: set[str] = set()
    for op in module.walk():
        if isinstance(op, PartitionedCall | ControlOp):
            called.update(called_graph_names(op))
    return [g for g in graphs if g.sym_name.data not in called]


def select_graph(module: ModuleOp, graph_name: str | None = None) -> GraphOp:
    """Graph `graph_name`, or the only root graph; a LocatedError when there is none or
    several (located at the module's first graph: the module itself has no location)."""
    graphs = [op for op in module.ops if isinstance(op, GraphOp)]
    where: Operation = graphs[0] if graphs else module
    if graph_name is not None:
        for g in graphs:
            if g.sym_name.data == graph_name:
                return g
        names = ", ".join(f"@{g.sym_name.data}" for g in graphs) or "none"
        raise LocatedError(where, f"no ge.graph named @{graph_name} (graphs: {names})")
    roots = root_graphs(module)
    if len(roots) == 1:
        return roots[0]
    if not roots:
        raise LocatedError(
            where, "the module has no root ge.graph (every graph is called by another, or there is none)"
        )
    names = ", ".join(f"@{g.sym_name.data}" for g in roots)
    raise LocatedError(where, f"the module has several root graphs ({names}); name one")


def output_names(graph: GraphOp) -> list[str]:
    """GE's tensor names of the NetOutput values: `producer:output index`."""
    names = []
    for v in graph.net_output.operands:
        if isinstance(v, OpResult):
            names.append(f"{node_name(v.op)}:{v.index}")
        else:
            names.append(v.name_hint or "?")
    return names


def find_model(module: ModuleOp, graph_name: str) -> ModelOp | None:
    """The npu.model ge-to-npu built for graph @graph_name, or None (a pipeline that stops
    earlier)."""
    return next((m for m in module.ops if isinstance(m, ModelOp) and m.sym_name.data == graph_name), None)


def is_known_model(op: Operation | None) -> bool:
    """An npu.model compiled from a known-shape subgraph (`known_node = true`)."""
    a = op.attributes.get(KNOWN_NODE_ATTR) if isinstance(op, ModelOp) else None
    return isinstance(a, IntegerAttr) and bool(a.value.data)  # `true`: an i1 IntegerAttr


def is_dynamic_module(module: ModuleOp) -> bool:
    """A module the dynamic executor runs: some PartitionedCall calls a known-node model."""
    models = {op.sym_name.data: op for op in module.ops if isinstance(op, ModelOp)}
    for op in module.walk():
        if isinstance(op, PartitionedCall) and isinstance(f := op.attributes.get("f"), SymbolRefAttr):
            if is_known_model(models.get(f.root_reference.data)):
                return True
    return False


def is_dynamic_graph(module: ModuleOp, graph: GraphOp) -> bool:
    """A graph the dynamic executor runs: partitioned (docs/dynamic_shapes.md), or with a
    node of unknown shape (GE's IsUnknownShapeOp on any node of the root graph)."""
    if A.DYNAMIC_SHAPE_PARTITIONED in graph.attributes or is_dynamic_module(module):
        return True
    return any(has_unknown_shape(op) for op in graph.body.block.ops)


def has_static_inputs_only(module: ModuleOp, graph: GraphOp) -> bool:
    """A flat graph whose Data nodes all have static shapes (its unknown dims are inside)."""
    if A.DYNAMIC_SHAPE_PARTITIONED in graph.attributes or is_dynamic_module(module):
        return False
    return all(not has_unknown_shape(d) for d in graph.data_nodes)


def uncompiled_known_subgraphs(module: ModuleOp) -> list[str]:
    """The callees of known-shape calls (`_is_unknown_shape = false`) that are still
    ge.graphs, not known-node models, in call order."""
    graphs = {g.sym_name.data for g in module.ops if isinstance(g, GraphOp)}
    out: dict[str, None] = {}
    for op in module.walk():
        if isinstance(op, PartitionedCall) and not A.get_bool(op, IS_UNKNOWN_SHAPE, True):
            f = op.attributes.get("f")
            if isinstance(f, SymbolRefAttr) and f.root_reference.data in graphs:
                out.setdefault(f.root_reference.data, None)
    return list(out)
