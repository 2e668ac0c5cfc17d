"""report/svg_render.py: the SVG beside each DOT file (Graphviz when on PATH, else
report/layered.py), and the summaries of large graphs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from report_helpers import EX, staged

from bench.gen_graphs import generate
from ge_dialect.ge import AscBackend, FusedAscBackend, GeNode, GraphOp
from ge_dialect.names import ge_type
from ge_dialect.node_types import CONST_TYPES
from report.dot import build_picture, kernel_count
from report.svg_render import FULL_LIMIT, KERNEL_LIMIT, graphviz, picture_to_show, render_svg, renderer

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> str:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def test_fallback_draws_labels_and_dashes_no_task_nodes():
    before = build_picture(staged(EX / "split_relu_concat.mlir"), "input")
    after = build_picture(staged(EX / "split_relu_concat.mlir", "ge-concat-notask"), "notask")
    a, b = render_svg(before, use_graphviz=False), render_svg(after, use_graphviz=False)
    for svg in (a, b):
        texts = _texts(svg)
        for word in ("Relu", "SplitD", "ConcatD", "16x32 f16", "1024 B"):
            assert word in texts
    # the input stage has no dashed outline and no dotted edge; the no-task ConcatD is dashed
    assert "stroke-dasharray" not in a
    assert "stroke-dasharray" in b and "reuses memory of" in _texts(b)


def test_fallback_is_deterministic():
    m = staged(EX / "softmax_like.mlir", "ge-lower-autofuse,ge-autofuse")
    pic = build_picture(m, "fused")
    assert render_svg(pic, use_graphviz=False) == render_svg(build_picture(m, "fused"), use_graphviz=False)


def test_renderer_is_named():
    assert renderer(False).startswith("ge-xdsl's layered layout")
    assert renderer(None) == ("Graphviz dot" if graphviz() else renderer(False))


@pytest.mark.skipif(graphviz() is None, reason="Graphviz's dot is not on PATH (apt-get install graphviz)")
def test_graphviz_svg():
    pic = build_picture(staged(EX / "split_relu_concat.mlir", "ge-concat-notask"), "notask")
    svg = render_svg(pic, use_graphviz=True)
    root = ET.fromstring(svg)
    classes = [g.get("class", "") for g in root.iter(f"{SVG}g")]
    assert sum("no_task" in c.split() for c in classes) == 1
    assert sum("gm" in c.split() for c in classes) == 9


def test_large_lowered_graph_is_summarised_by_kernel():
    # lowered, each pointwise op is an AscBackend of several AscIR nodes: more drawn nodes
    # than FULL_LIMIT, fewer kernels than KERNEL_LIMIT
    m = staged(generate("mixed", 700, 1, 40), "ge-lower-autofuse")
    pic = build_picture(m, "lowered")
    assert len(pic.nodes) > FULL_LIMIT
    [g] = [op for op in m.ops if isinstance(op, GraphOp)]
    # constants are lines on their readers, not units of their own
    top = [op for op in g.body.block.ops if isinstance(op, GeNode) and ge_type(op) not in CONST_TYPES]
    assert kernel_count(pic) == len(top) <= KERNEL_LIMIT
    shown = picture_to_show(pic)
    assert shown.level == "by kernel" and len(shown.picture.nodes) == len(top)
    kernels = sum(isinstance(op, AscBackend | FusedAscBackend) for op in top)
    assert sum(n.id.startswith("cluster_") for n in shown.picture.nodes) == kernels
    # one edge per value and pair of top-level nodes, counted on the IR
    pairs = {(v.owner, op, v) for op in top for v in op.operands if ge_type(v.owner) not in CONST_TYPES}
    assert len(shown.picture.edges) == len(pairs)
    assert "summarised by kernel" in shown.picture.title
    ET.fromstring(render_svg(pic, use_graphviz=False))


def test_huge_graph_is_summarised_by_kernel_type():
    m = staged(generate("chain", KERNEL_LIMIT + 200, 0))
    pic = build_picture(m, "input")
    shown = picture_to_show(pic)
    [g] = [op for op in m.ops if isinstance(op, GraphOp)]
    types = {ge_type(op) for op in g.body.block.ops} - CONST_TYPES
    assert shown.level == "by kernel type" and len(shown.picture.nodes) == len(types)
    texts = _texts(render_svg(pic, use_graphviz=False))
    assert "summarised by kernel type" in texts
