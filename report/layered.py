"""A layered layout of a graph picture (report/dot.py) in pure Python, drawn as SVG: what
report/svg_render.py uses where Graphviz's `dot` is not on PATH, and what the HTML report
always uses (its script folds, unfolds and lays out again the groups this module writes).

Why not a package: grandalf (the pure-Python Sugiyama layout on PyPI) lays out plain graphs
only, and the pictures are compound graphs (graph @main holds kernels, a FusedAscBackend
holds AscBackends, an AscBackend its AscIR nodes); drawing rectangles around the nodes of a
flat layout is what let cluster boxes overlap before. Here every cluster is laid out as a
block of its own and placed as one item of its parent, so by construction:

* no two cluster rectangles intersect unless one holds the other;
* a node lies inside the rectangles of its own clusters and outside every other cluster.

The layout of one container (the picture, or a cluster) is Sugiyama's layered layout
without dummy nodes: the container's items are its nodes and its child clusters; an edge
between nodes is an edge between the two items, children of their lowest common container,
that hold them. Layers: longest path from the sources (a cycle is broken at the item of
the smallest picture order, so a by-type summary with cycles is fine), an item without
inputs moved down to just above its first consumer; order within a layer: picture order,
then four barycentre sweeps (down, up, down, up). Coordinates: each layer is a row as high
as its highest item, items side by side, the row centred. Linear in the picture's size
(plus a sort per layer and sweep).

The SVG keeps the structure: each item a `<g>` translated inside its parent's body, with
`data-row` (its layer), `data-w`/`data-h` (its size), a cluster's `data-fw`/`data-fh` (its
size folded) and `data-ops` (the original ops it holds); every edge a `<path>` naming its
ends (`data-src`, `data-dst`). The report's script redoes the coordinate step (the same
rule) when a cluster is folded or unfolded; the order stays this module's.

Marked: the critical path (`critical_path`: the longest chain of dependent top-level
units, kernels and no-task nodes, red) and the largest buffers (`largest_values`: the
`BIG_BUFFERS` tensors of the most bytes written to global memory, orange, thick).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from report.dot import ASC, EDGE_STYLE, NO_TASK, ON_CHIP, OUTPUT, SOURCE, Picture, clean_text

RENDERER = "ge-xdsl's layered layout (pure Python)"
"""The name ge-run and the report give this renderer."""

BIG_BUFFERS = 3
"""How many of the largest buffers a picture marks."""

EDGE_LABEL_LIMIT = 300
"""Edges are labelled in the drawing up to this many edges (always in their tooltip)."""

CRITICAL = "#d62728"
BIG = "#ff7f0e"

_CHAR_W = 6.0  # px per character at 10 px Helvetica (an upper estimate)
_LINE_H = 13.0
_GAP_X = 16.0
_GAP_Y = 34.0
_PAD = 10.0
_MAX_LINES = 8
_MAX_CHARS = 64
_MAX_WEIGHTS = 3
_MARGIN = 12.0


def _r(x: float) -> str:
    """A coordinate as text: one decimal, no trailing zero (deterministic)."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _t(s: str) -> str:
    return escape(clean_text(s))


def _cut(line: str) -> str:
    return line if len(line) <= _MAX_CHARS else line[: _MAX_CHARS - 1] + "\u2026"


def _node_lines(label: str, weights: Sequence[str]) -> tuple[list[str], list[str]]:
    lines = [_cut(x) for x in label.split("\n")]
    if len(lines) > _MAX_LINES:
        lines = lines[: _MAX_LINES - 1] + [f"\u2026 {len(lines) - _MAX_LINES + 1} more lines (see the DOT file)"]
    ws = [_cut(w) for w in weights[:_MAX_WEIGHTS]]
    if len(weights) > _MAX_WEIGHTS:
        ws.append(f"+ {len(weights) - _MAX_WEIGHTS} more weights")
    return lines, ws


def _cluster_head(label: str, kind: str) -> list[str]:
    lines = label.split("\n")
    if kind == "graph" or len(lines) < 2:
        return [_cut(lines[0])]
    return [_cut(f"{lines[0]} {lines[1]}"), *(_cut(x) for x in lines[2:4])]


def _text_w(lines: Iterable[str], char_w: float = _CHAR_W) -> float:
    return max((len(x) for x in lines), default=0) * char_w


# -- analyses ---------------------------------------------------------------------------------


def critical_path(pic: Picture) -> list[str]:
    """The longest chain of dependent top-level units (a kernel, a no-task node, an input;
    `Node.unit`), ties broken by the bytes its edges carry, then by picture order. A cycle
    (a by-type summary) is broken at the unit first in picture order. Linear."""
    order: dict[str, int] = {}
    for n in pic.nodes:
        order.setdefault(n.unit, len(order))
    unit = {n.id: n.unit for n in pic.nodes}
    succ: dict[str, dict[str, int]] = {u: {} for u in order}
    for e in pic.edges:
        s, d = unit.get(e.src), unit.get(e.dst)
        if s is None or d is None or s == d:
            continue
        succ[s][d] = succ[s].get(d, 0) + (e.nbytes or 0)
    topo = _topo_order(list(order), order, {u: list(v) for u, v in succ.items()})
    rank = {u: i for i, u in enumerate(topo)}
    best: dict[str, tuple[int, int]] = {u: (1, 0) for u in topo}
    back: dict[str, str] = {}
    for u in topo:
        lu, bu = best[u]
        for d, nbytes in succ[u].items():
            if rank[d] <= rank[u]:
                continue  # the edge that closes a cycle
            cand = (lu + 1, bu + nbytes)
            if cand > best[d]:
                best[d] = cand
                back[d] = u
    if not topo:
        return []
    end = max(topo, key=lambda u: (best[u], -order[u]))
    path = [end]
    while path[-1] in back:
        path.append(back[path[-1]])
    return path[::-1]


def largest_values(pic: Picture, k: int = BIG_BUFFERS) -> list[str]:
    """The `k` values (`Edge.value`) of the most bytes among the tensors in global memory
    (GM and workspace edges), largest first, ties by picture order."""
    size: dict[str, int] = {}
    for e in pic.edges:
        if e.kind != ON_CHIP and e.nbytes and e.value not in size:
            size[e.value] = e.nbytes
    ranked = sorted(enumerate(size.items()), key=lambda x: (-x[1][1], x[0]))
    return [v for _, (v, _) in ranked[:k]]


def _topo_order(items: list[str], seq: Mapping[str, int], succ: Mapping[str, list[str]]) -> list[str]:
    """Kahn's order, the smallest picture order first; on a cycle, the remaining item of
    the smallest order is taken as if it had no input left."""
    indeg = dict.fromkeys(items, 0)
    for v in items:
        for w in succ.get(v, ()):
            indeg[w] += 1
    heap = [(seq[v], v) for v in items if indeg[v] == 0]
    heapq.heapify(heap)
    rest = sorted(items, key=seq.__getitem__)
    ptr = 0
    done: set[str] = set()
    out: list[str] = []
    while len(out) < len(items):
        if not heap:
            while rest[ptr] in done:
                ptr += 1
            heapq.heappush(heap, (seq[rest[ptr]], rest[ptr]))
        _, v = heapq.heappop(heap)
        if v in done:
            continue
        done.add(v)
        out.append(v)
        for w in succ.get(v, ()):
            indeg[w] -= 1
            if indeg[w] == 0 and w not in done:
                heapq.heappush(heap, (seq[w], w))
    return out


# -- the layout -------------------------------------------------------------------------------


@dataclass
class Item:
    id: str
    cluster: bool
    w: float = 0.0
    h: float = 0.0
    fw: float = 0.0  # folded size (a kernel cluster as one box)
    fh: float = 0.0
    x: float = 0.0  # relative to the parent's body
    y: float = 0.0
    row: int = 0
    children: list[str] = field(default_factory=list)  # row by row, each row in order
    head: list[str] = field(default_factory=list)  # a cluster's title lines
    lines: list[str] = field(default_factory=list)  # a node's label lines
    weights: list[str] = field(default_factory=list)


@dataclass
class Layout:
    items: dict[str, Item]
    roots: list[str]
    width: float
    height: float
    top: float  # the title's height
    box: dict[str, tuple[float, float, float, float]]  # id -> absolute (x, y, w, h)


def _body_offset(it: Item) -> tuple[float, float]:
    return _PAD, len(it.head) * _LINE_H + _PAD


def layout(pic: Picture) -> Layout:
    """The layout of `pic` (see the module doc): every node's and cluster's rectangle."""
    items: dict[str, Item] = {}
    parent: dict[str, str | None] = {}
    seq: dict[str, int] = {}
    for i, c in enumerate(pic.clusters):
        items[c.id] = Item(c.id, True, head=_cluster_head(c.label, c.kind))
        parent[c.id] = c.parent
        seq[c.id] = len(pic.nodes) + i
    for i, n in enumerate(pic.nodes):
        lines, ws = _node_lines(n.label, n.weights)
        items[n.id] = Item(n.id, False, lines=lines, weights=ws)
        parent[n.id] = n.cluster
        seq[n.id] = i
        c = n.cluster
        while c is not None and seq[c] > i:  # a cluster is ordered by its first node
            seq[c] = i
            c = parent[c]
    kids: dict[str | None, list[str]] = {}
    for v in sorted(items, key=lambda v: (seq[v], v.startswith("cluster_"))):
        kids.setdefault(parent[v], []).append(v)
    depth: dict[str, int] = {}

    def dep(v: str) -> int:
        d = depth.get(v)
        if d is None:
            p = parent[v]
            d = depth[v] = 0 if p is None else dep(p) + 1
        return d

    def up(v: str) -> str:
        p = parent[v]
        assert p is not None, "only an item deeper than another has a parent here"
        return p

    edges: dict[str | None, dict[str, list[str]]] = {}
    for e in pic.edges:
        a, b = e.src, e.dst
        if a == b or a not in items or b not in items:
            continue
        while dep(a) > dep(b):
            a = up(a)
        while dep(b) > dep(a):
            b = up(b)
        while parent[a] != parent[b]:
            a, b = up(a), up(b)
        if a != b:
            succ = edges.setdefault(parent[a], {}).setdefault(a, [])
            if b not in succ:
                succ.append(b)

    def place(container: str | None) -> tuple[float, float]:
        members = kids.get(container, [])
        for v in members:
            it = items[v]
            if it.cluster:
                cw, ch = place(v)
                ox, oy = _body_offset(it)
                it.w = max(cw + 2 * _PAD, _text_w(it.head) + 2 * _PAD, 60.0)
                it.h = ch + oy + _PAD
                it.fw = max(_text_w(it.head[:1]) + 2 * _PAD, 90.0)
                it.fh = 2 * _LINE_H + 2 * _PAD
            else:
                it.w = max(_text_w(it.lines) + 16, _text_w(it.weights, 5.4) + 16, 40.0)
                it.h = _LINE_H * len(it.lines) + 11.0 * len(it.weights) + 10
        rows = _rows(members, seq, edges.get(container, {}))
        ordered: list[str] = []
        for r, row in enumerate(rows):
            for v in row:
                items[v].row = r
                ordered.append(v)
        if container is not None:
            items[container].children = ordered
        else:
            roots[:] = ordered
        return _pack(rows, items)

    roots: list[str] = []
    w, h = place(None)
    title = pic.title.split("\n") if pic.title else []
    top = len(title) * 15.0 + (6.0 if title else 0.0)
    box: dict[str, tuple[float, float, float, float]] = {}

    def absolute(ids: list[str], ox: float, oy: float) -> None:
        for v in ids:
            it = items[v]
            x, y = ox + it.x, oy + it.y
            box[v] = (x, y, it.w, it.h)
            if it.cluster:
                bx, by = _body_offset(it)
                absolute(it.children, x + bx, y + by)

    absolute(roots, _MARGIN, _MARGIN + top)
    width = max(w, _text_w(title, 7.0)) + 2 * _MARGIN
    return Layout(items, roots, width, h + top + 2 * _MARGIN, top, box)


def _rows(members: list[str], seq: Mapping[str, int], succ: Mapping[str, list[str]]) -> list[list[str]]:
    """The layers of one container, each in its order (module doc)."""
    if not members:
        return []
    pred: dict[str, list[str]] = {v: [] for v in members}
    for v, ws in succ.items():
        for w in ws:
            pred[w].append(v)
    order = _topo_order(members, seq, succ)
    rank = {v: i for i, v in enumerate(order)}
    layer: dict[str, int] = {}
    for v in order:
        layer[v] = max((layer[u] + 1 for u in pred[v] if rank[u] < rank[v]), default=0)
    for v in order:  # an item without inputs sits just above its first consumer
        if not pred[v] and succ.get(v):
            layer[v] = max(layer[v], min(layer[w] for w in succ[v]) - 1)
    n_layers = 1 + max(layer.values())
    rows: list[list[str]] = [[] for _ in range(n_layers)]
    for v in sorted(members, key=seq.__getitem__):
        rows[layer[v]].append(v)
    pos: dict[str, float] = {}

    def number(row: list[str]) -> None:
        mid = (len(row) - 1) / 2
        for i, v in enumerate(row):
            pos[v] = i - mid

    for row in rows:
        number(row)
    for sweep in range(4):
        down = sweep % 2 == 0
        nbr = pred if down else succ
        for li in range(1, n_layers) if down else range(n_layers - 2, -1, -1):
            row = rows[li]

            def key(v: str, nbr: Mapping[str, list[str]] = nbr) -> tuple[float, float]:
                xs = [pos[u] for u in nbr.get(v, ()) if u in pos]
                return (sum(xs) / len(xs) if xs else pos[v], pos[v])

            row.sort(key=key)
            number(row)
    return [r for r in rows if r]


def _pack(rows: list[list[str]], items: Mapping[str, Item]) -> tuple[float, float]:
    """Each row as high as its highest item, items side by side, rows centred; the
    container's content size. (The report's script applies the same rule.)"""
    widths = [sum(items[v].w for v in row) + _GAP_X * (len(row) - 1) for row in rows]
    content_w = max(widths, default=0.0)
    y = 0.0
    for row, rw in zip(rows, widths):
        rh = max(items[v].h for v in row)
        x = (content_w - rw) / 2
        for v in row:
            it = items[v]
            it.x, it.y = x, y + (rh - it.h) / 2
            x += it.w + _GAP_X
        y += rh + _GAP_Y
    return content_w, max(y - _GAP_Y, 0.0)


# -- SVG --------------------------------------------------------------------------------------

_NODE_STYLE = {
    SOURCE: ('rx="12" fill="#ffffff"', "#333333"),
    OUTPUT: ('rx="12" fill="#ffffff"', "#333333"),
    NO_TASK: ('fill="#ffffff" stroke-dasharray="5 3"', "#333333"),
    ASC: ('rx="4" fill="#ffffff"', "#555555"),
}
_CLUSTER_STYLE = {
    "graph": ('fill="none"', "#999999"),
    "AscBackend": ('rx="6" fill="#eef5fb" fill-opacity="0.85"', "#1f78b4"),
    "FusedAscBackend": ('rx="6" fill="#fdf3ea" fill-opacity="0.85"', "#b15928"),
}


def _stroke(color: str, critical: bool) -> str:
    return f'stroke="{CRITICAL}" stroke-width="2.5"' if critical else f'stroke="{color}"'


def _edge_path(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> str:
    x1, y1 = a[0] + a[2] / 2, a[1] + a[3]
    x2, y2 = b[0] + b[2] / 2, b[1]
    d = max(abs(y2 - y1) / 2, 20.0)
    return f"M{_r(x1)},{_r(y1)} C{_r(x1)},{_r(y1 + d)} {_r(x2)},{_r(y2 - d)} {_r(x2)},{_r(y2)}"


def layered_svg(pic: Picture, renderer_note: str = RENDERER, folded: bool = False) -> str:
    """The SVG text of `pic` laid out by `layout` (module doc). `folded`: the report's
    script shows each kernel cluster folded at first (`data-folded`)."""
    lay = layout(pic)
    items, box = lay.items, lay.box
    clusters = {c.id: c for c in pic.clusters}
    nodes = {n.id: n for n in pic.nodes}
    path = critical_path(pic)
    on_path = set(path)
    unit = {n.id: n.unit for n in pic.nodes}
    step = {(a, b) for a, b in zip(path, path[1:])}
    big = {v: i for i, v in enumerate(largest_values(pic))}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="ge-graph" width="{_r(lay.width)}pt" '
        f'height="{_r(lay.height)}pt" viewBox="0 0 {_r(lay.width)} {_r(lay.height)}" '
        f'font-family="Helvetica, Arial, sans-serif" data-renderer="{_t(renderer_note)}" '
        f'data-top="{_r(lay.top)}" data-margin="{_r(_MARGIN)}" data-gaps="{_r(_GAP_X)} {_r(_GAP_Y)} {_r(_PAD)}" '
        f'data-folded="{int(folded)}">',
        f"<title>{_t(pic.title or 'graph')}</title>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" '
        'markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>',
        f'<rect class="background" x="0" y="0" width="{_r(lay.width)}" height="{_r(lay.height)}" fill="#ffffff"/>',
    ]
    for i, line in enumerate(pic.title.split("\n") if pic.title else []):
        out.append(
            f'<text class="title" x="{_r(_MARGIN)}" y="{_r(_MARGIN + 11 + 15 * i)}" font-size="12">{_t(line)}</text>'
        )
    # the items, then the edges over them (cluster fills are translucent)
    out.append(f'<g class="items" transform="translate({_r(_MARGIN)},{_r(_MARGIN + lay.top)})">')

    def emit(ids: list[str]) -> None:
        for v in ids:
            it = items[v]
            tr = f'transform="translate({_r(it.x)},{_r(it.y)})" data-row="{it.row}" data-w="{_r(it.w)}" data-h="{_r(it.h)}"'
            if it.cluster:
                c = clusters[v]
                style, color = _CLUSTER_STYLE.get(c.kind, _CLUSTER_STYLE["graph"])
                crit = " critical" if v in on_path else ""
                kernel = c.kind != "graph"
                fold = f' data-fw="{_r(it.fw)}" data-fh="{_r(it.fh)}" data-ops="{c.ops}"' if kernel else ""
                bx, by = _body_offset(it)
                fold += f' data-minw="{_r(max(_text_w(it.head) + 2 * _PAD, 60.0))}" data-oy="{_r(by)}"'
                name = c.label.split("\n")[1] if kernel and "\n" in c.label else c.label
                out.append(
                    f'<g class="cluster {_t(c.kind)}{crit}" id="{v}" data-name="{_t(name)}" {tr}{fold}>'
                    f"<title>{_t(c.label)}</title>"
                )
                sw = _stroke(color, bool(crit))
                out.append(f'<rect class="frame" x="0" y="0" width="{_r(it.w)}" height="{_r(it.h)}" {style} {sw}/>')
                for k, line in enumerate(it.head):
                    weight = ' font-weight="bold"' if k == 0 else ""
                    out.append(
                        f'<text x="{_r(_PAD)}" y="{_r(_PAD + 3 + _LINE_H * k)}" font-size="10" fill="{color}"{weight}>'
                        f"{_t(line)}</text>"
                    )
                out.append(f'<g class="body" transform="translate({_r(bx)},{_r(by)})">')
                emit(it.children)
                out.append("</g>")
                if kernel:
                    ops = f"{c.ops} op{'s' if c.ops != 1 else ''}, click to unfold"
                    out.append(
                        f'<g class="fold" display="none"><rect width="{_r(it.fw)}" height="{_r(it.fh)}" {style} {sw}/>'
                        f'<text x="{_r(_PAD)}" y="{_r(_PAD + 10)}" font-size="10" font-weight="bold" fill="{color}">'
                        f"{_t(it.head[0])}</text>"
                        f'<text x="{_r(_PAD)}" y="{_r(_PAD + 10 + _LINE_H)}" font-size="10" fill="{color}">'
                        f"{_t(ops)}</text></g>"
                    )
                out.append("</g>")
            else:
                n = nodes[v]
                crit = n.unit in on_path
                style, color = _NODE_STYLE.get(n.kind, ('fill="#ffffff"', "#333333"))
                sw = _stroke(color, crit and n.unit == n.id)
                name = n.label.split("\n")[1] if "\n" in n.label else n.label
                out.append(
                    f'<g class="node {_t(n.kind)}{" critical" if crit else ""}" id="{v}" data-name="{_t(name)}" {tr}>'
                    f"<title>{_t(n.label)}</title>"
                    f'<rect x="0" y="0" width="{_r(it.w)}" height="{_r(it.h)}" {style} {sw}/>'
                )
                size = 9 if n.kind == ASC else 10
                for k, line in enumerate(it.lines):
                    out.append(
                        f'<text x="{_r(it.w / 2)}" y="{_r(5 + 10 + _LINE_H * k)}" font-size="{size}" '
                        f'text-anchor="middle">{_t(line)}</text>'
                    )
                base = 5 + _LINE_H * len(it.lines)
                for k, line in enumerate(it.weights):
                    out.append(
                        f'<text class="weight" x="{_r(it.w / 2)}" y="{_r(base + 9 + 11 * k)}" font-size="8" '
                        f'fill="#6a3d9a" text-anchor="middle">{_t(line)}</text>'
                    )
                out.append("</g>")

    emit(lay.roots)
    out.append("</g>")
    out.append('<g class="edges" fill="none">')
    label_edges = len(pic.edges) <= EDGE_LABEL_LIMIT
    for e in pic.edges:
        if e.src not in box or e.dst not in box:
            continue
        st = EDGE_STYLE[e.kind]
        color, width = st["color"], float(st["penwidth"]) * 0.7
        cls = [e.kind]
        if (unit[e.src], unit[e.dst]) in step:
            cls.append("critical")
            color, width = CRITICAL, 2.2
        rank = big.get(e.value)
        note = ""
        if rank is not None:
            cls.append("big")
            color, width = BIG, 3.0
            note = f"\nlargest buffer #{rank + 1}"
        dash = ' stroke-dasharray="2 2"' if st["style"] == "dotted" else ""
        d = _edge_path(box[e.src], box[e.dst])
        out.append(
            f'<path class="edge {" ".join(cls)}" data-src="{e.src}" data-dst="{e.dst}" d="{d}" stroke="{color}" '
            f'stroke-width="{_r(width)}"{dash} marker-end="url(#arrow)"><title>{_t(e.label + note)}</title></path>'
        )
        if (label_edges and e.kind != ON_CHIP) or rank is not None:
            (x1, y1, w1, h1), (x2, y2, w2, _) = box[e.src], box[e.dst]
            mx, my = (x1 + w1 / 2 + x2 + w2 / 2) / 2, (y1 + h1 + y2) / 2
            text = " ".join((e.label + note).split("\n"))
            out.append(
                f'<text class="edge-label" data-src="{e.src}" data-dst="{e.dst}" x="{_r(mx + 3)}" y="{_r(my)}" '
                f'font-size="7.5" fill="#555555">{_t(text)}</text>'
            )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
