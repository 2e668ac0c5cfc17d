"""SVG of a graph picture (report/dot.py): Graphviz's `dot` when it is on PATH, otherwise a
layered layout drawn with networkx and matplotlib (both pip-installed with the project),
so a picture exists on a machine with only Python and pip.

Very large graphs are summarised before drawing (the DOT file beside the SVG stays
complete):

* up to `FULL_LIMIT` (1,500) drawn nodes: the full picture, every AscIR node of every
  kernel;
* above it, up to `KERNEL_LIMIT` (1,500) kernels: one box per kernel (each AscBackend /
  FusedAscBackend cluster becomes one box labelled with the ops it holds), the edges
  between kernels kept;
* above that: one box per kernel type and graph (`Relu x 120`), edges merged per pair of
  types with their count and bytes.

The fallback layout: layers are networkx's topological generations of the picture's
graph (of its strongly connected components, so a cycle in a by-type summary is fine),
each node with inputs then moved down to just above its first consumer, nodes in a layer ordered by one barycentre pass over the layer above (fewer crossings),
kernel clusters as shaded rectangles around their nodes. Edges are drawn as in DOT (GM
solid and dark, workspace solid and brown, on chip dotted and blue; `dot.EDGE_STYLE`),
no-task nodes with a dashed outline. The output is deterministic: a fixed SVG hash salt,
no date, text kept as text. Linear in the picture's size (plus a sort per layer).
"""

from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import dataclass

from report.dot import (
    EDGE_STYLE,
    NO_TASK,
    Picture,
    kernel_count,
    summarise_by_kernel,
    summarise_by_type,
    to_dot,
)

FULL_LIMIT = 1500
KERNEL_LIMIT = 1500


@dataclass
class Shown:
    picture: Picture
    level: str  # "full", "by kernel", "by kernel type"
    note: str  # what the title says about the summary ("" for the full picture)


def picture_to_show(pic: Picture, full_limit: int = FULL_LIMIT, kernel_limit: int = KERNEL_LIMIT) -> Shown:
    """The picture as the SVG shows it: full, by kernel, or by kernel type (see module doc;
    the HTML report passes lower limits)."""
    if len(pic.nodes) <= full_limit:
        return Shown(pic, "full", "")
    kernels = kernel_count(pic)
    if kernels <= kernel_limit:
        s = summarise_by_kernel(pic)
        note = f"summarised by kernel: {kernels} kernels of {len(pic.nodes)} nodes (the DOT file has them all)"
        return Shown(_titled(s, note), "by kernel", note)
    s = summarise_by_type(pic)
    note = (
        f"summarised by kernel type: {len(s.nodes)} groups of {kernels} kernels, {len(pic.nodes)} nodes "
        "(the DOT file has them all)"
    )
    return Shown(_titled(s, note), "by kernel type", note)


def _titled(pic: Picture, note: str) -> Picture:
    pic.title = f"{pic.title}\n{note}" if pic.title else note
    return pic


def graphviz() -> str | None:
    """Graphviz's dot, when on PATH."""
    return shutil.which("dot")


def render_svg(
    pic: Picture, use_graphviz: bool | None = None, full_limit: int = FULL_LIMIT, kernel_limit: int = KERNEL_LIMIT
) -> str:
    """The SVG text of `pic` (summarised when large: `picture_to_show` with the limits).
    `use_graphviz`: None picks dot when it is on PATH; False forces the networkx +
    matplotlib layout."""
    shown = picture_to_show(pic, full_limit, kernel_limit)
    dot = graphviz() if use_graphviz is not False else None
    if dot is not None:
        done = subprocess.run([dot, "-Tsvg"], input=to_dot(shown.picture).encode(), capture_output=True, check=False)
        if done.returncode == 0:
            return done.stdout.decode()
        if use_graphviz:
            raise RuntimeError(f"dot -Tsvg failed: {done.stderr.decode().strip().splitlines()[-1:]}")
    return layered_svg(shown.picture)


# -- the fallback: a layered layout with networkx and matplotlib ----------------------------


def layout(pic: Picture) -> dict[str, tuple[float, int]]:
    """Node id -> (x, layer): layers from the topological generations of the picture's
    condensation, x from one barycentre pass."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(n.id for n in pic.nodes)
    g.add_edges_from((e.src, e.dst) for e in pic.edges if e.src != e.dst)
    cond = nx.condensation(g)
    layer_of_scc: dict[int, int] = {}
    for i, gen in enumerate(nx.topological_generations(cond)):
        for c in gen:
            layer_of_scc[c] = i
    mapping = cond.graph["mapping"]
    # a node with inputs sinks to just above its first consumer (as late as possible), so
    # a kernel's Load of a graph input sits by the kernel, not up by the input
    scc_layer = dict(layer_of_scc)
    for c in reversed(list(nx.topological_sort(cond))):
        succ = [scc_layer[s] for s in cond.successors(c)]
        if succ and cond.in_degree(c) > 0:
            scc_layer[c] = max(scc_layer[c], min(succ) - 1)
    seq = {n.id: i for i, n in enumerate(pic.nodes)}
    cluster = {n.id: n.cluster or "" for n in pic.nodes}
    layers: dict[int, list[str]] = {}
    for n in pic.nodes:
        layers.setdefault(scc_layer[mapping[n.id]], []).append(n.id)
    preds: dict[str, list[str]] = {}
    for e in pic.edges:
        preds.setdefault(e.dst, []).append(e.src)
    pos: dict[str, tuple[float, int]] = {}
    for li in sorted(layers):
        ids = layers[li]

        def key(v: str, li: int = li) -> tuple[str, float, int]:
            xs = [pos[p][0] for p in preds.get(v, ()) if p in pos and pos[p][1] < li]
            return (cluster[v], sum(xs) / len(xs) if xs else float(seq[v]), seq[v])

        ids.sort(key=key)
        width = len(ids)
        for i, v in enumerate(ids):
            pos[v] = (i - (width - 1) / 2, li)
    return pos


def layered_svg(pic: Picture) -> str:
    """The networkx + matplotlib drawing of `pic` as SVG text."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    pos = layout(pic)
    layers = 1 + max((p[1] for p in pos.values()), default=0)
    widest = max((sum(1 for p in pos.values() if p[1] == li) for li in range(layers)), default=1)
    col_w, row_h = 1.9, 0.95  # inches per node column and per layer
    fig_w = min(max(widest * col_w, 6.0), 200.0)
    fig_h = min(max(layers * row_h + 1.0, 3.0), 400.0)
    sx = (fig_w - 0.6) / max(widest, 1)
    sy = (fig_h - 1.0) / max(layers, 1)

    def xy(v: str) -> tuple[float, float]:
        x, li = pos[v]
        return fig_w / 2 + x * sx, fig_h - 0.7 - li * sy

    with matplotlib.rc_context({"svg.hashsalt": "ge-xdsl", "svg.fonttype": "none", "font.family": "DejaVu Sans"}):
        fig = Figure(figsize=(fig_w, fig_h))
        FigureCanvasSVG(fig)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, fig_w)
        ax.set_ylim(0, fig_h)
        ax.axis("off")
        ax.text(0.2, fig_h - 0.25, pic.title, fontsize=9, va="top", ha="left")
        # kernel clusters: a shaded rectangle around the nodes of each
        boxes: dict[str, list[tuple[float, float]]] = {}
        parent = {c.id: c.parent for c in pic.clusters}
        kinds = {c.id: c for c in pic.clusters}
        for n in pic.nodes:
            c = n.cluster
            while c is not None and kinds[c].kind != "graph":
                boxes.setdefault(c, []).append(xy(n.id))
                c = parent[c]
        for cid in sorted(boxes, key=lambda c: int(c.rsplit("_", 1)[1])):
            pts = boxes[cid]
            x0, x1 = min(p[0] for p in pts) - sx * 0.48, max(p[0] for p in pts) + sx * 0.48
            y0, y1 = min(p[1] for p in pts) - sy * 0.4, max(p[1] for p in pts) + sy * 0.4
            c = kinds[cid]
            color = "#b15928" if c.kind == "FusedAscBackend" else "#1f78b4"
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=True, alpha=0.08, color=color, lw=0))
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ec=color, lw=0.8))
            title = c.label.split("\n", 2)[1] if "\n" in c.label else c.label
            ax.text(x0 + 0.05, y1 - 0.04, title, fontsize=6, color=color, va="top")
        # edges, one collection per kind
        for kind, style in EDGE_STYLE.items():
            segs = [(xy(e.src), xy(e.dst)) for e in pic.edges if e.kind == kind]
            if segs:
                ls = "dotted" if style["style"] == "dotted" else "solid"
                ax.add_collection(
                    LineCollection(
                        segs, colors=style["color"], linewidths=float(style["penwidth"]) * 0.6, linestyles=ls
                    )
                )
        if len(pic.edges) <= 400:
            for e in pic.edges:
                (x0, y0), (x1, y1) = xy(e.src), xy(e.dst)
                ax.text(
                    (x0 + x1) / 2,
                    (y0 + y1) / 2,
                    e.label,
                    fontsize=4.5,
                    color="#555555",
                    ha="center",
                    va="center",
                    bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85},
                )
        for n in pic.nodes:
            x, y = xy(n.id)
            ls = "--" if n.kind == NO_TASK else "-"
            box = "round,pad=0.25" if n.kind in ("source", "output", "asc") else "square,pad=0.25"
            ax.text(
                x,
                y,
                n.label,
                fontsize=6,
                ha="center",
                va="center",
                bbox={"boxstyle": box, "fc": "white", "ec": "#333333", "ls": ls, "lw": 0.7},
            )
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()
