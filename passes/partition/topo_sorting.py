"""GE's topological sorting modes (the option ge.topoSortingMode), as graph analyses.

Port of ``graph_metadef/graph/normal_graph/compute_graph.cc`` (hicann/ge):
ComputeGraphImpl::DoTopologicalSorting with its four strategies, which
DynamicShapePartitioner::InitClusters runs on the root graph (graph->TopologicalSorting())
before it numbers the clusters, so the mode decides every cluster's rank and id, the
subgraph names and the order of the nodes in the root and in each subgraph:

* 0, BFS (BFSTopologicalSorting): SortNodes' start list (the Data nodes in graph order,
  then the other nodes without inputs), a FIFO of ready nodes; the nodes a node makes
  ready are queued by name (CollectBreadthOutNode's std::map).
* 1, DFS (DFSTopologicalSorting, GE's default for inference): the same start list on a
  LIFO; after a node, the nodes each of its outputs makes ready are pushed output by
  output, in edge order.
* 2, RDFS (RDFSTopologicalSorting): from each node without consumers, in graph order, a
  reverse DFS over the producers, the larger output first (NodeCmp: output bytes, then
  the name, both descending, so the smallest is walked first); then DelayTopoSort moves a
  chain fed only by Consts / Variables / Data next to its first consumer.
* 3, StableRDFS (StableRDFSTopologicalSorting): from each node in graph order, a reverse
  DFS over the producers not yet placed, the earliest first: an order that is already
  topological is kept as it is.

Not ported: the memory-priority variants (ge.memoryOptimizationPolicy = MemoryPriority:
TopoSortStack's NodeOutInfo order, DelayTopoSort for BFS / DFS); the dialect has no
control edges, so only data edges count; a graph's edges are in node order, then operand
order (GE: the order the edges were added). Output bytes are the origin shape's element
count times the dtype size (of its storage shape), -1 per output of unknown shape (CalcTensorMemSize:
kUnknownShapeMemSize).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from xdsl.ir import Operation

from ge_dialect.desc import tensor_desc
from ge_dialect.ge import Const, Constant, Data, RefData, Variable
from ge_dialect.names import node_name

# ge.topoSortingMode: compute_graph.h TopoSortingMode
BFS, DFS, RDFS, STABLE_RDFS = 0, 1, 2, 3
MODE_NAMES = {BFS: "BFS", DFS: "DFS", RDFS: "RDFS", STABLE_RDFS: "StableRDFS"}


class _Graph:
    """The data edges of a list of nodes in their current order (GetDirectNode)."""

    def __init__(self, nodes: Sequence[Operation]):
        self.nodes = list(nodes)
        self.id = {op: i for i, op in enumerate(self.nodes)}  # InitNodeStatus: SetId
        # each node's in edges (one per operand from a node of the graph) and the peer
        # in anchors of each output (consumers in graph order, then operand order)
        self.in_edges = {op: 0 for op in self.nodes}
        self.out_edges: dict[Operation, list[list[Operation]]] = {op: [[] for _ in op.results] for op in self.nodes}
        for op in self.nodes:
            for v in op.operands:
                src = v.owner
                if isinstance(src, Operation) and src in self.id:
                    self.in_edges[op] += 1
                    self.out_edges[src][v.index].append(op)  # type: ignore[attr-defined]

    def in_nodes(self, op: Operation) -> list[Operation]:
        """GetInAllNodes: one per input edge."""
        return [v.owner for v in op.operands if isinstance(v.owner, Operation) and v.owner in self.id]

    def out_nodes(self, op: Operation) -> list[Operation]:
        """GetOutAllNodes: one per output edge."""
        return [n for peers in self.out_edges[op] for n in peers]

    def sort_nodes(self) -> list[Operation]:
        """ComputeGraphImpl::SortNodes: the nodes without inputs, a stack popped from its back:
        the Data nodes in graph order first, then the others in graph order."""
        stack: list[Operation] = []
        spec = 0
        for op in self.nodes:
            if self.in_edges[op]:
                continue
            if not isinstance(op, Data | RefData):
                stack.insert(0, op)
                spec += 1
            else:  # "Need to insert the data nodes in reverse order"
                stack.insert(spec, op)
        return stack


def _output_bytes(op: Operation) -> int:
    """compute_graph.cc: GetNodeOutputRealSize (CalcTensorMemSize per output)."""
    total = 0
    for r in op.results:
        size = tensor_desc(r.type).size_in_bytes
        total += -1 if size is None else size  # kUnknownShapeMemSize for an unknown shape
    return total


def bfs(nodes: Sequence[Operation]) -> list[Operation]:
    """compute_graph.cc: BFSTopologicalSorting (TopoSortStack without is_dfs: a FIFO)."""
    g = _Graph(nodes)
    pending = dict(g.in_edges)
    stack_input = g.sort_nodes()
    queue: deque[Operation] = deque()
    out: list[Operation] = []
    while stack_input or queue:
        op = queue.popleft() if queue else stack_input.pop()
        out.append(op)
        ready: dict[str, Operation] = {}  # CollectBreadthOutNode: std::map by name
        for peers in g.out_edges[op]:
            for n in peers:
                pending[n] -= 1
                if pending[n] == 0:
                    ready.setdefault(node_name(n), n)
        for name in sorted(ready):
            queue.append(ready[name])
    return out


def dfs(nodes: Sequence[Operation]) -> list[Operation]:
    """compute_graph.cc: DFSTopologicalSorting (TopoSortStack with is_dfs: a LIFO; the
    ready consumers of each output pushed in edge order, output after output)."""
    g = _Graph(nodes)
    pending = dict(g.in_edges)
    stack = list(g.sort_nodes())  # pushed in that order: its back is popped first
    out: list[Operation] = []
    while stack:
        op = stack.pop()
        out.append(op)
        for peers in g.out_edges[op]:
            ready = []
            for n in peers:  # GetOutNodesFromAnchor
                pending[n] -= 1
                if pending[n] == 0:
                    ready.append(n)
            stack.extend(ready)  # stack_push
    return out


def rdfs(nodes: Sequence[Operation]) -> list[Operation]:
    """compute_graph.cc: RDFSTopologicalSorting, then DelayTopoSort (DoTopologicalSorting
    runs it for kRDFS)."""
    g = _Graph(nodes)
    walked: dict[Operation, int] = {}  # 1 walking, 2 walked (WalkStatus)
    sizes: dict[Operation, int] = {}
    out: list[Operation] = []

    def size(op: Operation) -> int:
        if op not in sizes:
            sizes[op] = _output_bytes(op)
        return sizes[op]

    for node in g.nodes:
        if g.out_nodes(node):
            continue
        stack = [node]
        while stack:
            cur = stack[-1]
            if cur not in walked:
                walked[cur] = 1
                # std::set<NodePtr, NodeCmp>: larger output first, equal sizes by name
                # descending; pushed in that order, so the last one is walked first
                ins = list(dict.fromkeys(g.in_nodes(cur)))
                ins.sort(key=lambda n: (size(n), node_name(n)), reverse=True)
                stack.extend(ins)
                continue
            stack.pop()
            if walked[cur] == 1:
                walked[cur] = 2
                out.append(cur)
    return _delay_topo_sort(out)


def _long_life_inputs(op: Operation, g: _Graph) -> bool:
    """compute_graph.cc: InputIsLongLifeTimeNode: every producer is a Const, a Variable or
    a Data of the graph (and there is one)."""
    match = False
    for src in g.in_nodes(op):
        if not isinstance(src, Const | Constant | Variable | Data | RefData):
            return False
        match = True
    return match


def _delay_topo_sort(nodes: list[Operation]) -> list[Operation]:
    """compute_graph.cc: DelayTopoSort / GetOutNodeIndex: a chain that starts at a node fed
    only by long-lived values, through single-input nodes, moves right before its first
    consumer; a chain whose last node has several consumers is not extended further."""
    g = _Graph(nodes)  # SetId: the RDFS order
    n = len(nodes)
    can_delay = [True] * n
    chains: list[list[Operation]] = [[op] for op in nodes]
    delayed = 0
    for i in range(n):
        chain = chains[i]
        if not can_delay[i] or not chain:
            continue
        if len(chain) == 1 and not _long_life_inputs(chain[0], g):
            continue
        last = chain[-1]
        if len(chain) != 1 and len(last.operands) != 1:
            continue  # middle node must be single input
        outs = g.out_nodes(last)
        if not outs:
            continue
        to = min(g.id[o] for o in outs)
        if to < n and to > i + 1:
            chains[to][0:0] = chain
            if len(outs) > 1:
                can_delay[to] = False  # last node cannot be delay
            chains[i] = []
            delayed += 1
    if not delayed:
        return nodes
    return [op for c in chains for op in c]


def stable_rdfs(nodes: Sequence[Operation]) -> list[Operation]:
    """compute_graph.cc: StableRDFSTopologicalSorting: each node in graph order, after its
    producers not yet placed (a reverse DFS, the producer of smallest id walked first)."""
    g = _Graph(nodes)
    walked: dict[Operation, int] = {}
    out: list[Operation] = []
    for node in g.nodes:
        if node in walked:
            continue
        stack = [node]
        while stack:
            cur = stack[-1]
            if cur not in walked:
                walked[cur] = 1
                ins = {n for n in g.in_nodes(cur) if n not in walked}
                # std::set ordered by id descending, appended: the smallest id on top
                stack.extend(sorted(ins, key=g.id.__getitem__, reverse=True))
                continue
            stack.pop()
            if walked[cur] == 1:
                walked[cur] = 2
                out.append(cur)
    return out


SORTS = {BFS: bfs, DFS: dfs, RDFS: rdfs, STABLE_RDFS: stable_rdfs}


def topological_sorting(nodes: Sequence[Operation], mode: int) -> list[Operation]:
    """ComputeGraphImpl::DoTopologicalSorting with `mode` (ge.topoSortingMode)."""
    return SORTS[mode](nodes)


__all__ = ["BFS", "DFS", "MODE_NAMES", "RDFS", "STABLE_RDFS", "topological_sorting"]
