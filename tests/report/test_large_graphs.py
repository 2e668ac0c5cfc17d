"""The pictures of a 10,000-node graph from bench/gen_graphs.py: they complete, with the
counts the IR says (never a time)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from report_helpers import staged

from bench.gen_graphs import generate
from ge_dialect.ge import GeNode, GraphOp
from ge_dialect.names import ge_type
from ge_dialect.node_types import CONST_TYPES
from ge_tools.pipeline_spec import build_pipeline
from ge_tools.registry import get_all_passes, make_context
from passes.memory.assign_memory import GraphPlanner
from report.dot import build_picture, to_dot
from report.memory_svg import graph_plan, memory_svg
from report.svg_render import picture_to_show, render_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_ten_thousand_nodes_picture_and_plan():
    # --nodes N is the exact number of ops, Data, Const and NetOutput included
    m = staged(generate("mixed", 10000, 0, 1000))
    [g] = [op for op in m.ops if isinstance(op, GraphOp)]
    ops = [op for op in g.body.block.ops if isinstance(op, GeNode)]
    assert len(ops) == 10000
    pic = build_picture(m, "input")
    # a constant is a line on its readers (one per reader and constant), not a node
    consts = [op for op in ops if ge_type(op) in CONST_TYPES]
    assert consts
    assert len(pic.nodes) == 10000 - len(consts)
    assert len(pic.edges) == sum(1 for op in ops for v in op.operands if ge_type(v.owner) not in CONST_TYPES)
    assert sum(len(n.weights) for n in pic.nodes) == len({(u.operation, c) for c in consts for u in c.results[0].uses})
    assert {e.kind for e in pic.edges} == {"gm"}
    assert to_dot(pic).count(" -> ") == len(pic.edges)
    shown = picture_to_show(pic)
    assert shown.level == "by kernel type"
    ET.fromstring(render_svg(pic, use_graphviz=False))
    # the graph planned as it stands (no fusion): one block rectangle per planned block
    for p in build_pipeline("ge-assign-memory{solver=heuristic}", get_all_passes()):
        p.apply(make_context(), m)
    plan = graph_plan(g)
    assert plan is not None and len(plan.positions) >= 10000
    planner = GraphPlanner(g, False, None)
    planner.plan()
    svg = memory_svg(m)
    assert svg is not None
    blocks = [r for r in ET.fromstring(svg).iter(f"{SVG}rect") if r.get("class") == "block"]
    assert len(blocks) == len(plan.blocks) == len(planner.blocks)
