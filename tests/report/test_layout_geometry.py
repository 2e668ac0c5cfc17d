"""report/layered.py's layout, checked from the SVG's own coordinates (issue 33, item 1): no
two cluster rectangles intersect unless one holds the other (in the picture's nesting), and
every node lies inside the rectangles of its own clusters and outside every other cluster's.
On every example at three stages, on the zoo's ONNX models compiled, on a generated graph
of 2,000 nodes lowered into AscBackends, and on random compound pictures of 2,000 nodes."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache
from html import escape

import pytest
from report_helpers import EX, TO_MEMORY, staged
from xdsl.passes import PassPipeline

from bench.gen_graphs import generate
from ge_dialect.names import name_all_nodes
from ge_tools.api import load
from ge_tools.pipeline import GeCompilePass, expand
from ge_tools.registry import make_context
from report.dot import Cluster, Edge, Node, Picture, build_picture
from report.html import RunRecorder
from report.layered import RENDERER, critical_path, layered_svg, layout
from report.svg_render import render_svg

SVG = "{http://www.w3.org/2000/svg}"
ZOO = EX / "zoo"
Rect = tuple[float, float, float, float]
_TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def svg_rects(svg: str) -> tuple[dict[str, Rect], dict[str, Rect]]:
    """(clusters, nodes): id -> absolute (x0, y0, x1, y1), read from the SVG (translations
    summed down the tree, each item's first rect's size)."""
    clusters: dict[str, Rect] = {}
    nodes: dict[str, Rect] = {}

    def walk(el: ET.Element, ox: float, oy: float) -> None:
        for ch in el:
            x, y = ox, oy
            m = _TRANSLATE.search(ch.get("transform", ""))
            if m:
                x, y = x + float(m.group(1)), y + float(m.group(2))
            cls = ch.get("class", "").split()
            if ch.tag == f"{SVG}g" and cls[:1] in (["cluster"], ["node"]):
                r = ch.find(f"{SVG}rect")
                assert r is not None
                w, h = float(r.get("width", "0")), float(r.get("height", "0"))
                (clusters if cls[0] == "cluster" else nodes)[ch.get("id", "")] = (x, y, x + w, y + h)
            if ch.tag == f"{SVG}g" and "fold" not in cls:
                walk(ch, x, y)

    walk(ET.fromstring(svg), 0.0, 0.0)
    return clusters, nodes


def _inside(a: Rect, b: Rect) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _meet(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_geometry(pic: Picture, svg: str) -> None:
    clusters, nodes = svg_rects(svg)
    assert set(clusters) == {c.id for c in pic.clusters}
    assert set(nodes) == {n.id for n in pic.nodes}
    parent = {c.id: c.parent for c in pic.clusters}

    def ancestors(c: str | None) -> set[str]:
        out: set[str] = set()
        while c is not None:
            out.add(c)
            c = parent[c]
        return out

    anc = {c: ancestors(c) for c in clusters}
    ids = sorted(clusters, key=lambda c: clusters[c][0])
    for i, a in enumerate(ids):  # sweep in x: only pairs whose x ranges meet are compared
        for b in ids[i + 1 :]:
            if clusters[b][0] >= clusters[a][2]:
                break
            if a in anc[b]:
                assert _inside(clusters[b], clusters[a]), (b, "outside its parent", a)
            elif b in anc[a]:
                assert _inside(clusters[a], clusters[b]), (a, "outside its parent", b)
            else:
                assert not _meet(clusters[a], clusters[b]), ("clusters overlap", a, b, clusters[a], clusters[b])
    for n in pic.nodes:
        mine = ancestors(n.cluster)
        r = nodes[n.id]
        for c, cr in clusters.items():
            if c in mine:
                assert _inside(r, cr), (n.id, n.label, "outside its cluster", c)
            else:
                assert not _meet(r, cr), (n.id, n.label, "inside a cluster it does not belong to", c)


STAGES = ("", "ge-identity-pass,ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse", TO_MEMORY)


@pytest.mark.parametrize("example", sorted(p.name for p in EX.glob("*.mlir")))
def test_examples_never_overlap(example):
    for passes in STAGES:
        pic = build_picture(staged(EX / example, passes), example)
        svg = render_svg(pic, use_graphviz=False)
        assert f'data-renderer="{escape(RENDERER)}' in svg
        check_geometry(pic, svg)


@pytest.mark.parametrize("model", sorted(p.name for p in ZOO.glob("*.onnx")))
def test_zoo_never_overlaps(model):
    m = load(str(ZOO / model), input_shapes={"x": (4, 16)} if "dynamic" in model else None)
    name_all_nodes(m)
    rec = RunRecorder()
    with rec.collecting():
        PassPipeline(expand((GeCompilePass(),)), rec).apply(make_context(), m.clone())
    assert rec.after_fusion is not None and rec.planned is not None
    pics = [build_picture(m, "input"), rec.after_fusion, rec.planned]
    if model.startswith("transformer"):
        assert any(c.kind != "graph" for c in pics[1].clusters), "these models fuse into kernels"
    for pic in pics:
        check_geometry(pic, render_svg(pic, use_graphviz=False))


@cache
def lowered_2000() -> Picture:
    return build_picture(staged(generate("mixed", 2000, 3, 40), "ge-lower-autofuse"), "lowered")


def test_generated_2000_nodes_never_overlap():
    pic = lowered_2000()
    assert sum(c.kind == "AscBackend" for c in pic.clusters) > 300
    check_geometry(pic, layered_svg(pic))


def random_picture(seed: int, n: int = 2000) -> Picture:
    """Random clusters nested up to three deep (graph, FusedAscBackend, AscBackend) and
    random edges, forward and backward (cycles), within and across clusters."""
    rng = random.Random(seed)
    pic = Picture(f"random {seed}")
    pic.clusters.append(Cluster("cluster_0", "graph @g", "graph", "graph", None))
    open_: list[str] = ["cluster_0"]
    for i in range(n):
        r = rng.random()
        if r < 0.08 and len(open_) < 3:
            cid = f"cluster_{len(pic.clusters)}"
            kind = "FusedAscBackend" if len(open_) == 1 and rng.random() < 0.3 else "AscBackend"
            pic.clusters.append(Cluster(cid, f"{kind}\nk{cid}\nholds 2 ops:", kind, kind, open_[-1], 2))
            open_.append(cid)
        elif r < 0.16 and len(open_) > 1:
            open_.pop()
        label = "Op\n" + "x" * rng.randrange(1, 30) + ("\nmore" if rng.random() < 0.3 else "")
        pic.nodes.append(Node(f"n{i}", label, "kernel", "Op", open_[-1], f"n{i}"))
    for i in range(1, n):
        for _ in range(rng.randrange(0, 3)):
            j = rng.randrange(0, n) if rng.random() < 0.05 else rng.randrange(max(0, i - 40), i)
            if j != i:
                pic.edges.append(Edge(f"n{j}", f"n{i}", "4 B", "gm", f"v{j}", 4))
    return pic


@pytest.mark.parametrize("seed", [1, 2])
def test_random_compound_pictures_never_overlap(seed):
    pic = random_picture(seed)
    check_geometry(pic, layered_svg(pic))


def test_layers_follow_the_edges():
    # without a cycle, each edge goes down: its source's box ends above its target's
    pic = build_picture(staged(EX / "phony_concat_split.mlir", "ge-lower-autofuse,ge-autofuse"), "s")
    box = layout(pic).box
    for e in pic.edges:
        assert box[e.src][1] + box[e.src][3] <= box[e.dst][1], (e.src, e.dst)


def test_critical_path_is_the_longest_chain():
    # a -> b -> c -> d and a -> d: the chain of four; x -> d is shorter
    pic = Picture("p")
    for v in "axbcd":
        pic.nodes.append(Node(v, v, "kernel", "Op", None, v))
    for s, d in ("ab", "bc", "cd", "ad", "xd"):
        pic.edges.append(Edge(s, d, "", "gm", s, 4))
    assert critical_path(pic) == ["a", "b", "c", "d"]
