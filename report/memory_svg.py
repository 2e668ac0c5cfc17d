"""The feature-map memory plan of a compiled ge module as SVG: offset down the vertical
axis, node position (time) along the horizontal one, one rectangle per block.

Read from the plan ge-assign-memory writes on the IR (ge_dialect/attrs.py:
`output_offset`, `output_region`, `output_size` per node, `memory_size`,
`memory_lower_bound`, `memory_proven_bound` per graph), never from the planner itself:

* a tensor lives at [offset, offset + size) of its region from its producer's position to
  its last reader's (both included), as the planner's blocks do
  (passes/memory/allocator.py: FmBlock);
* a block is a set of feature-map tensors that share memory: two tensors that one node
  reads or writes and whose byte ranges overlap are in one block (a node's inputs and
  outputs are alive together, so two distinct blocks never overlap there; every sharing
  the planner makes, an alias, a no-padding piece, a ref output, is between an input and
  an output of one node). Its rectangle spans its members' bytes, rounded up to
  MEM_ALIGN_SIZE as the planner's blocks are (block_mem_assigner.cc: GetBlockSize), and
  their lifetimes;
* inside a block of several tensors each tensor is drawn at its own bytes and lifetime:
  `piece` where it covers part of the block (a zero-copy concat's inputs, a split's
  outputs), `alias` where it covers all of it (a concat's output, a split's input, a
  reshape and its input); the block's label names its tensors;
* the lower bound L (the most bytes of blocks alive at one position) and the planned arena
  F (`memory_size`) are horizontal lines (report/figures.py defines them, as ge-run's
  --help does), the position where the bound is reached a vertical one;
* the time axis names the node at each position it marks.

Written as SVG text directly (no dependency), escaped for XML; one panel per graph that
has a plan (root graphs and subgraphs: each its own arena). Linear in the graph (a sort
per node and per block's members).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from ge_dialect import attrs as A
from ge_dialect.ge import GeNode, GraphOp
from ge_dialect.graph import graph_nodes, graphs_in_pass_order, node_order
from ge_dialect.mem_types import MEM_ALIGN_SIZE
from ge_dialect.names import node_name
from report.dot import clean_text, named
from report.figures import LOWER_BOUND, PLANNED_ARENA

REGION_FM = "fm"

TENSOR = "tensor"
PIECE = "piece"
ALIAS = "alias"

_PALETTE = ("#a6cee3", "#b2df8a", "#fdbf6f", "#cab2d6", "#fb9a99", "#ffff99", "#8dd3c7", "#bebada", "#80b1d3")


@dataclass
class Tensor:
    name: str  # node:output
    offset: int
    size: int
    begin: int
    end: int
    kind: str = TENSOR


@dataclass
class Block:
    offset: int
    size: int  # MEM_ALIGN_SIZE-aligned extent of its tensors
    begin: int
    end: int
    tensors: list[Tensor] = field(default_factory=list)


@dataclass
class GraphPlan:
    graph: str
    positions: list[str]  # node name at each position
    blocks: list[Block]
    memory_size: int
    lower_bound: int
    proven_bound: int | None
    bound_position: int  # the first position where the live blocks reach lower_bound
    tensors: int  # feature-map tensors


def _align(n: int) -> int:
    return (n + MEM_ALIGN_SIZE - 1) // MEM_ALIGN_SIZE * MEM_ALIGN_SIZE


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}

    def add(self, v: SSAValue) -> None:
        self.parent.setdefault(v, v)

    def find(self, v: SSAValue) -> SSAValue:
        root = v
        while self.parent[root] is not root:
            root = self.parent[root]
        while self.parent[v] is not root:
            self.parent[v], v = root, self.parent[v]
        return root

    def union(self, a: SSAValue, b: SSAValue) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra is not rb:
            self.parent[rb] = ra


def _placement(v: SSAValue) -> tuple[str, int, int] | None:
    """(region, offset, size) of value `v` in the plan its producer carries, or None."""
    op = v.owner
    if not isinstance(op, Operation):
        return None
    j: int = v.index  # type: ignore[attr-defined]
    regions = op.attributes.get(A.OUTPUT_REGION)
    offsets = A.get_int_list(op, A.OUTPUT_OFFSET)
    sizes = A.get_int_list(op, A.OUTPUT_SIZE)
    names = getattr(regions, "data", None)
    if names is None or offsets is None or sizes is None or j >= min(len(names), len(offsets), len(sizes)):
        return None
    region = getattr(names[j], "data", None)
    if not isinstance(region, str):
        return None
    return region, offsets[j], sizes[j]


def _tensor_name(v: SSAValue) -> str:
    op = v.owner
    assert isinstance(op, Operation)
    return f"{node_name(op)}:{v.index}"  # type: ignore[attr-defined]


def graph_plan(graph: GraphOp) -> GraphPlan | None:
    """The feature-map plan of `graph` as blocks, or None when the graph carries no plan."""
    memory_size = A.get_int(graph, A.MEMORY_SIZE)
    if memory_size is None:
        return None
    order = node_order(graph)
    nodes = list(graph_nodes(graph))
    positions = [node_name(n) for n in nodes]
    pos: dict[Operation, int] = {n: i for i, n in enumerate(nodes)}
    place: dict[SSAValue, tuple[int, int]] = {}
    for n in nodes:
        for r in n.results:
            p = _placement(r)
            if p is not None and p[0] == REGION_FM:
                place[r] = (p[1], p[2])
    uf = _UnionFind()
    for v in place:
        uf.add(v)
    # tensors one node reads or writes whose byte ranges overlap share a block (a size-0
    # tensor: the run it starts in or touches; at one offset the larger tensor comes first)
    for n in nodes:
        items = sorted(
            {v: place[v] for v in (*n.operands, *n.results) if v in place}.items(),
            key=lambda kv: (kv[1][0], -kv[1][1], order.get(kv[0].owner, -1), kv[0].index),  # type: ignore[arg-type,attr-defined]
        )
        run_end = -1
        run: SSAValue | None = None
        for v, (off, size) in items:
            if run is not None and (off < run_end or (size == 0 and off <= run_end)):
                uf.union(run, v)
                run_end = max(run_end, off + size)
            else:
                run, run_end = v, off + size
    members: dict[SSAValue, list[SSAValue]] = {}
    for v in place:  # in node order, then output order
        members.setdefault(uf.find(v), []).append(v)
    blocks: list[Block] = []
    for ms in members.values():
        tensors = []
        for v in ms:
            op = v.owner
            assert isinstance(op, GeNode)
            begin = pos[op]
            end = max((pos[u.operation] for u in v.uses if u.operation in pos), default=begin)
            off, size = place[v]
            tensors.append(Tensor(_tensor_name(v), off, size, begin, max(begin, end)))
        lo = min(t.offset for t in tensors)
        hi = max(t.offset + t.size for t in tensors)
        if len(tensors) > 1:
            for t in tensors:
                t.kind = ALIAS if t.offset == lo and t.offset + t.size == hi else PIECE
        blocks.append(Block(lo, _align(hi - lo), min(t.begin for t in tensors), max(t.end for t in tensors), tensors))
    blocks.sort(key=lambda b: (b.begin, b.offset))
    lower = A.get_int(graph, A.MEMORY_LOWER_BOUND)
    live = [0] * (len(nodes) + 1)
    for b in blocks:
        live[b.begin] += b.size
        live[b.end + 1] -= b.size
    cur, best, at = 0, 0, 0
    for i in range(len(nodes)):
        cur += live[i]
        if cur > best:
            best, at = cur, i
    return GraphPlan(
        graph.sym_name.data,
        positions,
        blocks,
        memory_size,
        best if lower is None else lower,
        A.get_int(graph, A.MEMORY_PROVEN_BOUND),
        at,
        len(place),
    )


def module_plans(module: ModuleOp) -> list[GraphPlan]:
    """The plan of every graph of `module` that has one (root graphs, then subgraphs); a
    node without a name yet gets one (`report.dot.named` draws from a named copy)."""
    out = []
    for g in graphs_in_pass_order(module):
        p = graph_plan(g)
        if p is not None:
            out.append(p)
    return out


# -- SVG ------------------------------------------------------------------------------------

_LEFT, _RIGHT, _TOP, _BOTTOM = 90, 180, 58, 130
_AXIS_CHARS = 22
_PLOT_H = 420
_FONT = 'font-family="Helvetica, Arial, sans-serif"'


def _x(t: float, n: int, width: float) -> float:
    return _LEFT + t * width / max(n, 1)


def _fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _text(s: str) -> str:
    return escape(clean_text(s), quote=False)


def _attr(s: str) -> str:
    """`s` as a double-quoted XML attribute value. (html.escape, not xml.sax.saxutils:
    importing saxutils imports urllib.request, ssl, http and email, 8 ms of ge-run's start.)"""
    return '"' + escape(clean_text(s)) + '"'


def _fit(names: Iterable[str], px: float) -> str:
    """Tensor names joined, cut to what `px` pixels of 9 px text hold."""
    s = ", ".join(names)
    room = int(px / 5.5)
    return s if len(s) <= room else (s[: max(room - 1, 0)] + "…" if room > 1 else "")


def _header(plan: GraphPlan) -> str:
    proven = "" if plan.proven_bound is None else f", proven bound {plan.proven_bound} B"
    return (
        f"graph @{plan.graph}: {PLANNED_ARENA.name} {PLANNED_ARENA.letter} {plan.memory_size} B (the planned arena), "
        f"{LOWER_BOUND.name} {LOWER_BOUND.letter} {plan.lower_bound} B{proven}; {len(plan.blocks)} blocks for "
        f"{plan.tensors} tensors"
    )


def _panel(plan: GraphPlan, y0: float, out: list[str]) -> float:
    """Draw one graph's plan with its top at `y0`; returns the panel's height."""
    n = max(len(plan.positions), 1)
    width = float(min(max(n * 14, 480), 1600))
    top_bytes = max(plan.memory_size, plan.lower_bound, max((b.offset + b.size for b in plan.blocks), default=0), 1)
    scale = _PLOT_H / top_bytes

    def y(off: float) -> float:
        return y0 + _TOP + off * scale

    head = _header(plan)
    out.append(f'<g class="graph-plan" data-graph={_attr(plan.graph)}>')
    out.append(f'<text x="{_LEFT}" y="{_fmt(y0 + 22)}" font-size="13" {_FONT}>{_text(head)}</text>')
    # frame and axes
    out.append(
        f'<rect class="frame" x="{_LEFT}" y="{_fmt(y(0))}" width="{_fmt(width)}" height="{_fmt(_PLOT_H)}" '
        'fill="#fafafa" stroke="#888888"/>'
    )
    for i in range(5):
        off = top_bytes * i / 4
        out.append(
            f'<text x="{_LEFT - 6}" y="{_fmt(y(off) + 3)}" font-size="9" text-anchor="end" {_FONT}>{int(off)}</text>'
        )
    out.append(
        f'<text x="14" y="{_fmt(y(top_bytes / 2))}" font-size="10" {_FONT} '
        f'transform="rotate(-90 14 {_fmt(y(top_bytes / 2))})" text-anchor="middle">offset (bytes)</text>'
    )
    step = max(1, (n + 9) // 10)
    # the time axis names its nodes: position and node name, turned to fit
    step = max(step, int(12 * n / width) + 1)
    for t in range(0, n, step):
        xt, yt = _x(t + 0.5, n, width), y(top_bytes) + 10
        name = plan.positions[t] if t < len(plan.positions) else ""
        short = name if len(name) <= _AXIS_CHARS else name[: _AXIS_CHARS - 1] + "\u2026"
        out.append(
            f'<text class="time-name" x="{_fmt(xt)}" y="{_fmt(yt)}" font-size="9" text-anchor="end" '
            f'transform="rotate(-40 {_fmt(xt)} {_fmt(yt)})" {_FONT}>{_text(f"{t} {short}")}<title>{_text(name)}</title></text>'
        )
    out.append(
        f'<text x="{_fmt(_LEFT + width / 2)}" y="{_fmt(y(top_bytes) + _BOTTOM - 8)}" font-size="10" text-anchor="middle" '
        f"{_FONT}>node position (time) and name</text>"
    )
    # blocks, then the tensors inside multi-tensor blocks
    for i, b in enumerate(plan.blocks):
        bx, bw = _x(b.begin, n, width), (b.end + 1 - b.begin) * width / n
        by, bh = y(b.offset), max(b.size * scale, 0.5)
        names = [t.name for t in b.tensors]
        tip = (
            f"block [{b.offset}, {b.offset + b.size}) ({b.size} B), positions {b.begin}..{b.end} "
            f"({plan.positions[b.begin]} .. {plan.positions[b.end]}): " + ", ".join(names)
        )
        out.append(
            f'<rect class="block" x="{_fmt(bx)}" y="{_fmt(by)}" width="{_fmt(bw)}" height="{_fmt(bh)}" '
            f'fill="{_PALETTE[i % len(_PALETTE)]}" stroke="#333333" stroke-width="0.8">'
            f"<title>{_text(tip)}</title></rect>"
        )
        if len(b.tensors) > 1:
            for t in b.tensors:
                tx, tw = _x(t.begin, n, width), (t.end + 1 - t.begin) * width / n
                ty, th = y(t.offset), max(t.size * scale, 0.5)
                dash = ' stroke-dasharray="3,2"' if t.kind == ALIAS else ""
                out.append(
                    f'<rect class="{t.kind}" x="{_fmt(tx + 1)}" y="{_fmt(ty + 0.5)}" width="{_fmt(max(tw - 2, 0.5))}" '
                    f'height="{_fmt(max(th - 1, 0.5))}" fill="none" stroke="#1f3b73" stroke-width="0.8"{dash}>'
                    f"<title>{_text(f'{t.kind} {t.name}: [{t.offset}, {t.offset + t.size}), positions {t.begin}..{t.end}')}</title></rect>"
                )
        if bh >= 11 and bw >= 24:
            label = _fit(names, bw - 4)
            if label:
                out.append(
                    f'<text class="block-label" x="{_fmt(bx + 3)}" y="{_fmt(by + min(bh - 2, 11))}" font-size="9" '
                    f"{_FONT}>{_text(label)}</text>"
                )
    # the bound and the peak
    right = _LEFT + width
    for cls, val, color, text in (
        ("lower-bound", plan.lower_bound, "#2e7d32", f"{LOWER_BOUND.name} {LOWER_BOUND.letter} {plan.lower_bound} B"),
        ("arena", plan.memory_size, "#c62828", f"planned arena {PLANNED_ARENA.letter} {plan.memory_size} B"),
    ):
        yy = y(val)
        dy = 12 if cls == "lower-bound" and plan.lower_bound == plan.memory_size else 0
        out.append(
            f'<line class="{cls}" x1="{_LEFT}" y1="{_fmt(yy)}" x2="{_fmt(right)}" y2="{_fmt(yy)}" '
            f'stroke="{color}" stroke-width="1.5" stroke-dasharray="6,3"/>'
        )
        out.append(
            f'<text class="{cls}-label" x="{_fmt(right + 6)}" y="{_fmt(yy + 3 + dy)}" font-size="10" fill="{color}" '
            f"{_FONT}>{_text(text)}</text>"
        )
    bx = _x(plan.bound_position + 0.5, n, width)
    at = plan.positions[plan.bound_position] if plan.positions else ""
    out.append(
        f'<line class="bound-position" x1="{_fmt(bx)}" y1="{_fmt(y(0))}" x2="{_fmt(bx)}" y2="{_fmt(y(top_bytes))}" '
        f'stroke="#2e7d32" stroke-width="1" stroke-dasharray="2,3"><title>{_text(f"most bytes alive at position {plan.bound_position} ({at})")}</title></line>'
    )
    out.append("</g>")
    return _TOP + _PLOT_H + _BOTTOM


def plans_svg(plans: list[GraphPlan]) -> str:
    """One SVG document, one panel per plan, stacked."""
    body: list[str] = []
    y0 = 0.0
    width = 0.0
    for p in plans:
        n = max(len(p.positions), 1)
        width = max(width, _LEFT + min(max(n * 14, 480), 1600) + _RIGHT)
        y0 += _panel(p, y0, body)
    legend = (
        "One filled rectangle per feature-map block (its bytes, from its first producer to its last reader).",
        "Inside a shared block: solid outlines are pieces (zero-copy concat inputs, split outputs),",
        "dashed outlines aliases of the whole block (a concat output, a split input, a reshape).",
    )
    for i, line in enumerate(legend):
        body.append(f'<text x="{_LEFT}" y="{_fmt(y0 + 16 + 13 * i)}" font-size="10" {_FONT}>{_text(line)}</text>')
    height = y0 + 16 + 13 * len(legend)
    # wide enough for the longest text line (about 0.6 em per character)
    longest = max([_LEFT + 8 * len(_header(p)) for p in plans] + [_LEFT + 6 * len(x) for x in legend])
    width = max(width, float(longest), 640.0)
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}" '
        f'viewBox="0 0 {_fmt(width)} {_fmt(height)}">'
    )
    return "\n".join([head, *body, "</svg>"]) + "\n"


def memory_svg(module: ModuleOp) -> str | None:
    """The SVG of every memory plan in `module`, or None when no graph carries one (before
    ge-assign-memory, or after ge-to-npu replaced the graphs)."""
    plans = module_plans(named(module))
    return plans_svg(plans) if plans else None


def describe(plan: GraphPlan) -> str:
    """One line per block, for tests and text reports: `[off, off+size) b..e: t1, t2`."""
    return "\n".join(
        f"[{b.offset}, {b.offset + b.size}) {b.begin}..{b.end}: "
        + ", ".join(f"{t.name}({t.kind})" if t.kind != TENSOR else t.name for t in b.tensors)
        for b in plan.blocks
    )
