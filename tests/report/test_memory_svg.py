"""report/memory_svg.py: the feature-map plan as SVG. The blocks are counted independently:
by hand from the examples' memory attributes (comments), and on random graphs from the
planner's own blocks (passes/memory: GraphPlanner) of the same planned graph."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from report_helpers import EX, TO_MEMORY, staged

from ge_dialect.diagnostics import LocatedError
from ge_dialect.graph import graphs_in_pass_order
from passes.memory.assign_memory import GraphPlanner
from random_graphs import Options, graph_text
from report.memory_svg import ALIAS, PIECE, TENSOR, graph_plan, memory_svg, module_plans

SVG = "{http://www.w3.org/2000/svg}"


def _rects(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == cls]


def test_split_relu_concat_blocks():
    # the plan (ge-assign-memory's attributes on the IR), with ge-split-notask in ge-compile:
    # r at fm [0, 3104); the no-task SplitD's outputs are views of r at 0, 1024, 2048 (each
    # 1024 raw bytes, 1056 with GE's 32-byte padding); b0, b1, b2 at 3584, 4608, 5632 and the
    # no-task ConcatD c over them. x is input:0. Blocks: {r, s0:0, s0:1, s0:2} (r the alias
    # of the whole block, the split outputs its pieces) and {b0, b1, b2, c}: 2 blocks of
    # 3584 (3104 rounded up to 512), 6 pieces, 2 aliases.
    m = staged(EX / "split_relu_concat.mlir", TO_MEMORY)
    svg = memory_svg(m)
    assert svg is not None
    assert len(_rects(svg, "block")) == 2
    assert len(_rects(svg, "piece")) == 6 and len(_rects(svg, "alias")) == 2
    [plan] = module_plans(m)
    split, concat = plan.blocks
    assert {t.name: (t.kind, t.offset) for t in split.tensors} == {
        "r:0": (ALIAS, 0), "s0:0": (PIECE, 0), "s0:1": (PIECE, 1024), "s0:2": (PIECE, 2048)
    }  # fmt: skip
    assert {t.name: (t.kind, t.offset) for t in concat.tensors} == {
        "b0:0": (PIECE, 3584), "b1:0": (PIECE, 4608), "b2:0": (PIECE, 5632), "c:0": (ALIAS, 3584)
    }  # fmt: skip
    assert (split.offset, split.size, concat.offset, concat.size) == (0, 3584, 3584, 3584)
    # positions: x 0, r 1, s 2, b0 3, b1 4, b2 5, c 6, NetOutput 7: r's block lives until
    # b2 read its last piece, the concat's from b0 to the NetOutput
    assert (split.begin, split.end, concat.begin, concat.end) == (1, 5, 3, 7)
    # both blocks are alive at positions 3 to 5: the bound is their sum
    assert plan.memory_size == 7168 and plan.lower_bound == 7168


def test_phony_concat_split_pieces_in_two_blocks():
    # the four Mul outputs are the PhonyConcat's pieces (at 0, 64, 128, 192 of its block);
    # the Add's output is cut into the PhonySplit's four pieces: two blocks, eight pieces
    m = staged(EX / "phony_concat_split.mlir", TO_MEMORY)
    svg = memory_svg(m)
    assert svg is not None
    assert len(_rects(svg, "block")) == 2
    assert len(_rects(svg, "piece")) == 8 and len(_rects(svg, "alias")) == 2
    [plan] = module_plans(m)
    offs = sorted(t.offset - b.offset for b in plan.blocks for t in b.tensors if t.kind == PIECE)
    assert offs == [0, 0, 64, 64, 128, 128, 192, 192]


def test_softmax_blocks_and_marks():
    # m (ReduceMaxD, 8x1 f32) at fm 2560, the fused Sub/Exp output at 0, s (ReduceSumD) at
    # 2560 again once m is dead; y is output:0 and x input:0: three blocks
    m = staged(EX / "softmax_like.mlir", TO_MEMORY)
    svg = memory_svg(m)
    assert svg is not None
    assert len(_rects(svg, "block")) == 3
    [plan] = module_plans(m)
    assert all(len(b.tensors) == 1 and b.tensors[0].kind == TENSOR for b in plan.blocks)
    root = ET.fromstring(svg)
    lines = {ln.get("class") for ln in root.iter(f"{SVG}line")}
    assert {"arena", "lower-bound", "bound-position"} <= lines
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "planned arena F 3072 B" in texts and "lower bound L 3072 B" in texts
    # the time axis names every position's node (six positions: one label each, a long name
    # cut with an ellipsis, the whole name in its tooltip)
    named = [t for t in root.iter(f"{SVG}text") if t.get("class") == "time-name"]
    assert [t.text for t in named][:2] == ["0 x", "1 m"] and named[2].text == "2 autofuse_pointwise_0_\u2026"
    assert [t.findtext(f"{SVG}title") for t in named] == plan.positions
    assert len(named) == len(plan.positions) > 3


def test_subgraphs_get_a_panel_each():
    m = staged(EX / "subgraph_call.mlir", TO_MEMORY)
    svg = memory_svg(m)
    assert svg is not None
    root = ET.fromstring(svg)
    panels = [g.get("data-graph") for g in root.iter(f"{SVG}g") if g.get("class") == "graph-plan"]
    assert panels == [g.sym_name.data for g in graphs_in_pass_order(m) if graph_plan(g) is not None]


def test_no_plan_no_picture():
    assert memory_svg(staged(EX / "softmax_like.mlir")) is None
    assert memory_svg(staged(EX / "softmax_like.mlir", TO_MEMORY + ",ge-to-npu")) is None


def test_deterministic():
    a = memory_svg(staged(EX / "phony_concat_split.mlir", TO_MEMORY))
    b = memory_svg(staged(EX / "phony_concat_split.mlir", TO_MEMORY))
    assert a == b


def test_blocks_match_the_planner_on_random_graphs():
    # random graphs with multi-output nodes, phony nodes, the reshape family, 0-d and size-0
    # tensors: the blocks read back from the attributes are the planner's blocks (same
    # offsets, sizes and lifetimes), and so is the lower bound
    checked = 0
    for seed in range(60):
        try:
            m = staged(graph_text(seed, Options(with_=frozenset({"zero_size"}))), TO_MEMORY)
        except LocatedError:  # a graph the pipeline refuses has no plan
            continue
        for g in graphs_in_pass_order(m):
            plan = graph_plan(g)
            assert plan is not None
            planner = GraphPlanner(g, False, None)
            planner.plan()
            want = sorted((b.offset, b.size, b.begin, b.end) for b in planner.blocks)
            got = sorted((b.offset, b.size, b.begin, b.end) for b in plan.blocks)
            assert got == want, seed
            assert plan.lower_bound == planner.lower_bound
            checked += 1
        svg = memory_svg(m)
        assert svg is not None
        assert len(_rects(svg, "block")) == sum(len(p.blocks) for p in module_plans(m))
    assert checked >= 40
