"""A ge module as a picture: DOT text for Graphviz, at any stage of the pipeline.

`build_picture(module)` reads the IR into a `Picture` (nodes, clusters, edges: the one
model the DOT writer and the SVG renderer both draw); `to_dot(picture)` writes it.
`module_to_dot(module)` does both.

What the picture shows:

* every `ge.graph` is a cluster `graph @name`; nodes are labelled with their GE type and
  name. Kernels (nodes that become a task) are boxes; graph inputs and NetOutput are
  ellipses; a constant (Const, Constant: a weight) is not a node but a line on each node
  that reads it (`name: shape dtype, N B`, `Node.weights`), so a CNN's weights do not
  widen its picture; a PartitionedCall is a box naming the subgraph it calls (drawn
  as its own cluster).
* a no-task node is a dashed box labelled with the nodes whose memory it reuses: a
  node with `_no_task`, or of a GE-local NoOp type (the reshape family, PhonyConcat,
  PhonySplit: task_generator_utils.cc: NoNeedGenTask); its outputs are views of its
  inputs' memory (all inputs; for an output with `reuse_input`, the input it names;
  Reshape's, input 0).
* an `AscBackend` is a cluster labelled with its name, fuse type and the original GE ops
  it holds (`origin_nodes`, with their types when the caller passes the input graph's
  types); inside, its AscGraph's nodes (Load, compute, Store; the Data and Output nodes
  are where the outer edges attach). A `FusedAscBackend` is a cluster holding its
  AscBackends' clusters.
* edges carry the tensor's shape, dtype and bytes. Three kinds, drawn differently
  (`EDGE_STYLE`): `gm`, a tensor between kernels, written to and read back from global
  memory (solid, bold); `workspace`, between the AscBackends of one FusedAscBackend, a GM
  workspace buffer inside one kernel (docs/ge/autofuse.md:
  FusedGraphModifier::SubgraphConnectionsToWorkspace; solid, brown); `on_chip`, between
  AscIR nodes of one AscBackend, a value that stays in the unified buffer after fusion
  (Load is GM -> UB, Store is UB -> GM; dotted, blue).

Node and cluster identifiers are generated (`n0`, `cluster_0`, ...) in IR order, never
taken from node names, and every label is escaped (`dot_string`), so any node name is
safe; the same module always gives the same bytes. One walk over the IR: linear in the
number of nodes and edges.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, TensorType, UnrankedTensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect.asc_backend import FUSE_TYPE_ATTR, asc_graph_of
from ge_dialect.desc import shape_of, tensor_desc
from ge_dialect.dtypes import size_in_bytes
from ge_dialect.ge import AscBackend, Data, FusedAscBackend, GeNode, GraphOp, NetOutput, PartitionedCall, RefData
from ge_dialect.names import ge_type, given_name, name_all_nodes, node_name
from ge_dialect.node_types import CONST_TYPES, GE_LOCAL_NOOP_TYPES, SOURCE_TYPES
from ge_dialect.shapes import fmt_shape

GM = "gm"
WORKSPACE = "workspace"
ON_CHIP = "on_chip"

# DOT attributes of each edge kind (the SVG fallback draws the same distinctions).
EDGE_STYLE: dict[str, dict[str, str]] = {
    GM: {"style": "solid", "penwidth": "1.6", "color": "#222222"},
    WORKSPACE: {"style": "solid", "penwidth": "1.6", "color": "#b15928"},
    ON_CHIP: {"style": "dotted", "penwidth": "1.0", "color": "#1f78b4"},
}

# Node kinds.
KERNEL = "kernel"
NO_TASK = "no_task"
SOURCE = "source"
OUTPUT = "output"
CALL = "call"
ASC = "asc"  # an AscIR node inside an AscBackend

# How many characters of names one line of a label holds.
_LINE_CHARS = 40


@dataclass
class Node:
    id: str
    label: str  # lines separated by "\n"
    kind: str
    type: str  # GE type (AscIR type for ASC nodes)
    cluster: str | None
    unit: str  # the top-level kernel it belongs to: itself, or its outermost kernel cluster
    weights: list[str] = field(default_factory=list)  # the constants it reads: `name: shape dtype, N B`


@dataclass
class Cluster:
    id: str
    label: str
    kind: str  # "graph", "AscBackend", "FusedAscBackend"
    type: str  # graph: "graph"; kernels: their summary key (type and fuse type)
    parent: str | None
    ops: int = 0  # a kernel: how many original ops it holds (origin_nodes)


@dataclass
class Edge:
    src: str
    dst: str
    label: str
    kind: str
    value: str  # the value it carries (one id per SSA value), to merge edges in summaries
    nbytes: int | None


@dataclass
class Picture:
    title: str
    nodes: list[Node] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)


# -- labels ---------------------------------------------------------------------------------


def clean_text(s: str) -> str:
    """`s` without control characters (a newline becomes a space): what any label may hold
    in DOT and in XML 1.0."""
    return "".join(" " if ord(c) < 0x20 or ord(c) == 0x7F else c for c in s)


def dot_string(s: str) -> str:
    """A DOT double-quoted string of `s`; a "\\n" in `s` is a line break, every other
    character is literal (backslash and quote escaped, control characters dropped)."""
    lines = [clean_text(line).replace("\\", "\\\\").replace('"', '\\"') for line in s.split("\n")]
    return '"' + "\\n".join(lines) + '"'


@lru_cache(maxsize=4096)
def _type_label(t: Attribute) -> tuple[str, int | None]:
    """(label, bytes) of a value type: `8x64 f32` and its size in bytes (a GE tensor's
    storage size, an AscIR tensor's repeats times its dtype), None when unknown."""
    if isinstance(t, ag.AscTensorType):
        reps = list(t.repeat_list)
        return f"{fmt_shape(reps)} {t.element_type}", size_in_bytes(math.prod(reps), t.element_type)
    if isinstance(t, TensorType | UnrankedTensorType):
        nbytes: int | None
        try:
            nbytes = tensor_desc(t).size_in_bytes
        except VerifyException:
            nbytes = None
        return f"{fmt_shape(shape_of(t))} {t.element_type}", nbytes
    return str(t), None


def value_label(t: Attribute, kind: str = GM) -> tuple[str, int | None]:
    text, nbytes = _type_label(t)
    size = "? B" if nbytes is None else f"{nbytes} B"
    suffix = {GM: "", WORKSPACE: "\nworkspace", ON_CHIP: "\non chip"}[kind]
    return f"{text}\n{size}{suffix}", nbytes


def _output_name(v: SSAValue) -> str:
    op = v.owner
    if not isinstance(op, Operation):
        return "?"
    name = node_name(op)
    return f"{name}:{v.index}" if len(op.results) > 1 else name  # type: ignore[attr-defined]


def is_no_task(op: Operation) -> bool:
    """# task_generator_utils.cc: NoNeedGenTask (_no_task, or a GE-local NoOp type); graph
    inputs, constants and calls are drawn as what they are."""
    t = ge_type(op)
    if t in SOURCE_TYPES or isinstance(op, PartitionedCall):
        return False
    return A.get_bool(op, A.NO_TASK) or t in GE_LOCAL_NOOP_TYPES


def reused_inputs(op: Operation) -> list[SSAValue]:
    """The inputs whose memory the outputs of no-task `op` are views of, in input order,
    each once: for an output with `reuse_input`, the input it names; Reshape's output,
    input 0 (graph_utils.cc: GetRefMapping); otherwise every input (ge_to_npu: a no-task
    node's outputs alias its inputs)."""
    picked: list[int] = []
    for j in range(len(op.results)):
        if A.get_output_flag(op, A.REUSE_INPUT, j, default=False):
            picked.append(A.get_output_int(op, A.REUSE_INPUT_INDEX, j, 0))
        elif ge_type(op) == "Reshape" and j == 0:
            picked.append(0)
        else:
            picked = list(range(len(op.operands)))
            break
    seen: set[SSAValue] = set()
    out: list[SSAValue] = []
    for k in sorted(set(picked)):
        if k < len(op.operands) and op.operands[k] not in seen:
            seen.add(op.operands[k])
            out.append(op.operands[k])
    return out


def _wrap_names(names: list[str]) -> list[str]:
    """Names joined by ", ", a new line before the line would pass `_LINE_CHARS`."""
    lines: list[str] = []
    cur = ""
    for n in names:
        if cur and len(cur) + 2 + len(n) > _LINE_CHARS:
            lines.append(cur + ",")
            cur = n
        else:
            cur = f"{cur}, {n}" if cur else n
    if cur:
        lines.append(cur)
    return lines


def node_types(module: ModuleOp) -> dict[str, str]:
    """GE node name -> GE type of every node of every graph of `module` (not inside a
    kernel): what `build_picture` needs to show the types of the origin nodes a kernel
    holds, taken from the input graph."""
    out: dict[str, str] = {}
    for g in named(module).walk():
        if isinstance(g, GraphOp):
            for op in g.body.block.ops:
                if isinstance(op, GeNode):
                    out.setdefault(node_name(op), ge_type(op))
    return out


# -- building the picture -----------------------------------------------------------------


class _Builder:
    def __init__(self, title: str, origin_types: Mapping[str, str]):
        self.pic = Picture(title)
        self.origin_types = origin_types
        self.ids: dict[Operation, str] = {}
        self.seq: dict[Operation, int] = {}
        self.anchor: dict[Operation, str] = {}  # kernel op -> a node inside its cluster
        self.value_ids: dict[SSAValue, str] = {}
        self.weights: dict[Operation, str] = {}  # constants: the line their readers show
        self.nodes: dict[str, Node] = {}
        self.n = 0
        self.c = 0

    def _node(self, op: Operation, label: str, kind: str, typ: str, cluster: str | None, unit: str | None) -> str:
        nid = f"n{self.n}"
        self.n += 1
        self.ids[op] = nid
        self.seq.setdefault(op, self.n)
        node = self.nodes[nid] = Node(nid, label, kind, typ, cluster, unit or nid)
        self.pic.nodes.append(node)
        return nid

    def _cluster(self, label: str, kind: str, typ: str, parent: str | None, ops: int = 0) -> str:
        cid = f"cluster_{self.c}"
        self.c += 1
        self.pic.clusters.append(Cluster(cid, label, kind, typ, parent, ops))
        return cid

    def _value(self, v: SSAValue) -> str:
        vid = self.value_ids.get(v)
        if vid is None:
            vid = self.value_ids[v] = f"v{len(self.value_ids)}"
        return vid

    def _sorted_uses(self, v: SSAValue) -> list[tuple[Operation, int]]:
        uses = [(u.operation, u.index) for u in v.uses]
        uses.sort(key=lambda u: (self.seq.get(u[0], -1), u[1]))
        return uses

    # -- nodes --

    def graph(self, g: GraphOp) -> None:
        cid = self._cluster(f"graph @{g.sym_name.data}", "graph", "graph", None)
        ops = [op for op in g.body.block.ops if isinstance(op, GeNode)]
        for op in ops:
            self.ge_node(op, cid, None)
        for op in ops:
            self.in_edges(op, GM)

    def ge_node(self, op: GeNode, cluster: str, unit: str | None) -> None:
        t, name = ge_type(op), node_name(op)
        self.seq[op] = self.n  # the order of uses: IR order
        if isinstance(op, AscBackend):
            self.asc_backend(op, cluster, unit)
        elif isinstance(op, FusedAscBackend):
            self.fused(op, cluster, unit)
        elif isinstance(op, NetOutput):
            self._node(op, f"{t}\n{name}", OUTPUT, t, cluster, unit)
        elif t in CONST_TYPES:
            # a weight is a line on each node that reads it, not a node of its own
            text, nbytes = _type_label(op.results[0].type)
            size = "? B" if nbytes is None else f"{nbytes} B"
            self.weights[op] = f"{name}: {text}, {size}"
        elif t in SOURCE_TYPES:
            self._node(op, f"{t}\n{name}", SOURCE, t, cluster, unit)
        elif isinstance(op, PartitionedCall):
            f = op.attributes.get("f")
            callee = f.root_reference.data if isinstance(f, SymbolRefAttr) else "?"
            self._node(op, f"{t}\n{name}\ncalls @{callee}", CALL, t, cluster, unit)
        elif is_no_task(op):
            srcs = [_output_name(v) for v in reused_inputs(op)]
            lines = _wrap_names(srcs) or ["nothing"]
            label = f"{t}\n{name}\nno task, reuses memory of\n" + "\n".join(lines)
            self._node(op, label, NO_TASK, t, cluster, unit)
        else:
            self._node(op, f"{t}\n{name}", KERNEL, t, cluster, unit)

    def _kernel_label(self, op: Operation) -> tuple[str, str, int]:
        t, name = ge_type(op), node_name(op)
        ft = A.get_str(op, FUSE_TYPE_ATTR)
        lines = [t, name]
        if ft is not None:
            lines.append(f"fuse_type {ft}")
        origin = op.attributes.get("origin_nodes")
        names = [s.data for s in getattr(origin, "data", ()) if hasattr(s, "data")]
        if names:
            typed = [f"{n} ({self.origin_types[n]})" if n in self.origin_types else n for n in names]
            lines.append(f"holds {len(names)} op{'s' if len(names) != 1 else ''}:")
            lines.extend(_wrap_names(typed))
        return "\n".join(lines), f"{t} {ft}" if ft else t, len(names)

    def asc_backend(self, op: AscBackend, parent: str, unit: str | None) -> None:
        label, key, ops = self._kernel_label(op)
        cid = self._cluster(label, "AscBackend", key, parent, ops)
        unit = unit or cid
        g = asc_graph_of(op)
        inner = [n for n in g.body.block.ops if isinstance(n, ag.AscNode)]
        for n in inner:
            if isinstance(n, ag.Data | ag.Output):
                self.seq[n] = self.n  # ordered, not drawn: the outer edges attach past them
                continue
            hint = n.results[0].name_hint if n.results else None
            self._node(n, f"{n.asc_type}\n{hint}" if hint else n.asc_type, ASC, n.asc_type, cid, unit)
        drawn = [n for n in inner if n in self.ids]
        if drawn:
            self.anchor[op] = self.ids[drawn[0]]
        else:  # an AscGraph of Data and Output only: one node stands for the kernel
            self.anchor[op] = self._node(op, ge_type(op), ASC, ge_type(op), cid, unit)
        for n in drawn:
            for v in n.operands:
                prod = v.owner
                if not isinstance(prod, Operation) or isinstance(prod, ag.Data) or prod not in self.ids:
                    continue
                text, nbytes = value_label(v.type, ON_CHIP)
                self.pic.edges.append(Edge(self.ids[prod], self.ids[n], text, ON_CHIP, self._value(v), nbytes))

    def fused(self, op: FusedAscBackend, parent: str, unit: str | None) -> None:
        label, key, ops = self._kernel_label(op)
        cid = self._cluster(label, "FusedAscBackend", key, parent, ops)
        unit = unit or cid
        body = [n for n in op.body.block.ops if isinstance(n, GeNode)]
        first = self.n
        for n in body:
            if isinstance(n, Data | RefData | NetOutput):
                self.seq[n] = self.n
                continue
            self.ge_node(n, cid, unit)
        self.anchor[op] = f"n{first}" if self.n > first else self._node(op, ge_type(op), ASC, ge_type(op), cid, unit)
        for n in body:
            if not isinstance(n, Data | RefData | NetOutput):
                self.in_edges(n, WORKSPACE, inner_of=op)

    # -- edges --

    def source(self, v: SSAValue) -> str:
        """The drawn node that writes value `v`."""
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, AscBackend):
            outs = asc_graph_of(op).output_nodes()
            j: int = v.index  # type: ignore[attr-defined]
            if j < len(outs) and outs[j].operands:
                prod = outs[j].operands[0].owner
                if isinstance(prod, Operation) and prod in self.ids:
                    return self.ids[prod]
            return self.anchor[op]
        if isinstance(op, FusedAscBackend):
            net = op.body.block.last_op
            j = v.index  # type: ignore[attr-defined]
            if isinstance(net, NetOutput) and j < len(net.operands):
                inner = net.operands[j]
                if inner.owner in self.ids or isinstance(inner.owner, AscBackend | FusedAscBackend):
                    return self.source(inner)
            return self.anchor[op]
        return self.ids[op]

    def targets(self, op: Operation, k: int) -> list[str]:
        """The drawn nodes that read input `k` of `op`."""
        if isinstance(op, AscBackend):
            datas = asc_graph_of(op).data_nodes()
            if k >= len(datas):
                return [self.anchor[op]]
            out = [self.ids[u] for u, _ in self._sorted_uses(datas[k].results[0]) if u in self.ids]
            return out or [self.anchor[op]]
        if isinstance(op, FusedAscBackend):
            out: list[str] = []
            for n in op.body.block.ops:
                if isinstance(n, Data | RefData) and A.get_int(n, "index", -1) == k:
                    for u, i in self._sorted_uses(n.results[0]):
                        if not isinstance(u, NetOutput):
                            out.extend(self.targets(u, i))
            return out or [self.anchor[op]]
        return [self.ids[op]]

    def in_edges(self, op: Operation, kind: str, inner_of: FusedAscBackend | None = None) -> None:
        for k, v in enumerate(op.operands):
            prod = v.owner
            if inner_of is not None and isinstance(prod, Data | RefData):
                continue  # a FusedAscBackend input: drawn from the outer producer
            if isinstance(prod, Operation) and prod in self.weights:
                for dst in self.targets(op, k):
                    if self.weights[prod] not in self.nodes[dst].weights:
                        self.nodes[dst].weights.append(self.weights[prod])
                continue
            if not isinstance(prod, Operation) or (prod not in self.ids and prod not in self.anchor):
                continue
            src = self.source(v)
            text, nbytes = value_label(v.type, kind)
            vid = self._value(v)
            for dst in self.targets(op, k):
                self.pic.edges.append(Edge(src, dst, text, kind, vid, nbytes))


def named(module: ModuleOp) -> ModuleOp:
    """`module` itself when every node has its name, else a copy with the names GE's parser
    gives (ge_dialect/names.py): asking a nameless node for its name names its block, and a
    picture must not change the IR the tool prints."""
    for op in module.walk():
        if isinstance(op, GeNode) and given_name(op) is None:
            copy = module.clone()
            name_all_nodes(copy)
            return copy
    return module


def build_picture(module: ModuleOp, title: str = "", origin_types: Mapping[str, str] | None = None) -> Picture:
    """The picture of every ge.graph of `module` (in module order); `origin_types` (node
    name -> GE type, e.g. `node_types` of the input module) adds the types of the origin
    nodes a kernel holds. A module without ge graphs (after ge-to-npu) gives an empty
    picture. The module is not changed (`named`)."""
    module = named(module)
    b = _Builder(title, origin_types or {})
    for op in module.ops:
        if isinstance(op, GraphOp):
            b.graph(op)
    return b.pic


# -- summaries ------------------------------------------------------------------------------


def kernel_count(pic: Picture) -> int:
    """How many top-level units (kernels, no-task nodes, inputs, outputs) the picture has."""
    return len({n.unit for n in pic.nodes})


def summarise_by_kernel(pic: Picture) -> Picture:
    """One node per top-level unit: each AscBackend / FusedAscBackend cluster becomes one
    box (its cluster label), other nodes stay; edges between units stay (one per value and
    pair of units), edges inside a kernel go."""
    clusters = {c.id: c for c in pic.clusters}
    out = Picture(pic.title, clusters=[c for c in pic.clusters if c.kind == "graph"])
    seen_units: dict[str, Node] = {}
    for n in pic.nodes:
        box = seen_units.get(n.unit)
        if box is None:
            if n.unit == n.id:
                box = Node(n.id, n.label, n.kind, n.type, n.cluster, n.id)
            else:
                c = clusters[n.unit]
                box = Node(c.id, c.label, KERNEL, c.type, c.parent, c.id)
            seen_units[n.unit] = box
            out.nodes.append(box)
        box.weights.extend(w for w in n.weights if w not in box.weights)
    unit = {n.id: n.unit for n in pic.nodes}
    seen: set[tuple[str, str, str]] = set()
    for e in pic.edges:
        s, d = unit[e.src], unit[e.dst]
        if s == d or (s, d, e.value) in seen:
            continue
        seen.add((s, d, e.value))
        out.edges.append(Edge(s, d, e.label, GM if e.kind == ON_CHIP else e.kind, e.value, e.nbytes))
    return out


def summarise_by_type(pic: Picture) -> Picture:
    """One node per (graph, kernel type): `Relu x 120`; edges merged per pair of types,
    labelled with their count and bytes. For graphs too large to draw kernel by kernel."""
    by_kernel = summarise_by_kernel(pic)
    out = Picture(pic.title, clusters=list(by_kernel.clusters))
    group: dict[str, str] = {}
    members: dict[tuple[str | None, str], list[Node]] = {}
    for n in by_kernel.nodes:
        members.setdefault((n.cluster, n.type), []).append(n)
    for i, ((cluster, typ), ns) in enumerate(members.items()):
        gid = f"t{i}"
        kinds = {n.kind for n in ns}
        kind = kinds.pop() if len(kinds) == 1 else KERNEL
        out.nodes.append(Node(gid, f"{typ}\nx {len(ns)}", kind, typ, cluster, gid))
        for n in ns:
            group[n.id] = gid
    agg: dict[tuple[str, str, str], list[int | None]] = {}
    for e in by_kernel.edges:
        s, d = group[e.src], group[e.dst]
        agg.setdefault((s, d, e.kind), []).append(e.nbytes)
    for (s, d, kind), sizes in agg.items():
        known = sum(b for b in sizes if b is not None)
        unknown = " (+ unknown)" if any(b is None for b in sizes) else ""
        label = f"{len(sizes)} tensor{'s' if len(sizes) != 1 else ''}\n{known} B{unknown}"
        out.edges.append(Edge(s, d, label, kind, f"{s}>{d}>{kind}", known))
    return out


# -- DOT ------------------------------------------------------------------------------------

_NODE_ATTRS: dict[str, dict[str, str]] = {
    KERNEL: {"shape": "box"},
    NO_TASK: {"shape": "box", "style": "dashed"},
    SOURCE: {"shape": "ellipse"},
    OUTPUT: {"shape": "ellipse"},
    CALL: {"shape": "box3d"},
    ASC: {"shape": "box", "style": "rounded", "fontsize": "9"},
}

_CLUSTER_ATTRS: dict[str, dict[str, str]] = {
    "graph": {"style": "solid", "color": "#999999"},
    "AscBackend": {"style": "rounded,filled", "color": "#1f78b4", "fillcolor": "#eef5fb"},
    "FusedAscBackend": {"style": "rounded,filled", "color": "#b15928", "fillcolor": "#fdf3ea"},
}


def _attrs(d: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v if k in ('label', 'class', 'tooltip') else dot_string(v)}" for k, v in d.items())


def to_dot(pic: Picture) -> str:
    """The DOT text of `pic`: clusters nested as in the IR, then every edge."""
    lines = [
        "digraph ge {",
        f"  graph [label={dot_string(pic.title)}, labelloc=t, rankdir=TB, compound=true, "
        'fontname="Helvetica", fontsize=12];',
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=8];',
    ]
    children: dict[str | None, list[Cluster]] = {}
    for c in pic.clusters:
        children.setdefault(c.parent, []).append(c)
    members: dict[str | None, list[Node]] = {}
    for n in pic.nodes:
        members.setdefault(n.cluster, []).append(n)

    def emit_nodes(cluster: str | None, indent: str) -> None:
        for n in members.get(cluster, ()):
            attrs = {
                "label": dot_string("\n".join([n.label, *n.weights])),
                "class": dot_string(n.kind),
                **_NODE_ATTRS[n.kind],
            }
            lines.append(f"{indent}{n.id} [{_attrs(attrs)}];")

    def emit_cluster(c: Cluster, indent: str) -> None:
        lines.append(f"{indent}subgraph {c.id} {{")
        attrs = {"label": dot_string(c.label), "class": dot_string(c.kind), **_CLUSTER_ATTRS.get(c.kind, {})}
        lines.append(f"{indent}  graph [{_attrs(attrs)}];")
        emit_nodes(c.id, indent + "  ")
        for sub in children.get(c.id, ()):
            emit_cluster(sub, indent + "  ")
        lines.append(f"{indent}}}")

    emit_nodes(None, "  ")
    for c in children.get(None, ()):
        emit_cluster(c, "  ")
    for e in pic.edges:
        attrs = {"label": dot_string(e.label), "class": dot_string(e.kind), **EDGE_STYLE[e.kind]}
        lines.append(f"  {e.src} -> {e.dst} [{_attrs(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def module_to_dot(module: ModuleOp, title: str = "", origin_types: Mapping[str, str] | None = None) -> str:
    return to_dot(build_picture(module, title, origin_types))
