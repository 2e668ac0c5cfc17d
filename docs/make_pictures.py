"""The README's pictures, generated (`make pictures`), never drawn by hand:

    python docs/make_pictures.py [OUT_DIR]     # default: docs/

compiles examples/split_compute_merge.mlir with ge-compile as ge-run does (its PassPipeline
with report/html.py's RunRecorder) and writes

* graph_before_fusion.svg: the input graph;
* graph_after_fusion.svg: after ge-autofuse and the no-task passes, memory planned (kernels
  as clusters holding their ops, the zero-copy split and concat dashed);
* memory_plan.svg: the feature-map plan (one rectangle per block, the concat's inputs as
  pieces of its block).

The graph pictures come from Graphviz's dot when it is on PATH, else from report/layered.py
(report/svg_render.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

from xdsl.passes import PassPipeline

from ge_dialect.names import name_all_nodes
from ge_tools.opt import context, parse_module, verify_module
from ge_tools.pipeline import GeCompilePass, expand
from report.dot import build_picture, node_types
from report.html import RunRecorder
from report.memory_svg import plans_svg
from report.svg_render import render_svg

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "split_compute_merge.mlir"
NAMES = ("graph_before_fusion.svg", "graph_after_fusion.svg", "memory_plan.svg")


def make_pictures(out_dir: Path, example: Path = EXAMPLE) -> list[Path]:
    ctx = context()
    module = parse_module(ctx, example.read_bytes(), f"examples/{example.name}")
    verify_module(module)
    name_all_nodes(module)
    before = build_picture(module, "before fusion", node_types(module))
    rec = RunRecorder()
    with rec.collecting():
        PassPipeline(expand((GeCompilePass(),)), rec).apply(ctx, module.clone())
    assert rec.planned is not None and rec.plans, "ge-compile plans the memory of the example"
    rec.planned.title = "after fusion and the no-task passes"
    texts = (render_svg(before), render_svg(rec.planned), plans_svg(rec.plans))
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / n for n in NAMES]
    for p, t in zip(paths, texts):
        p.write_text(t, encoding="utf-8")
    return paths


if __name__ == "__main__":
    for p in make_pictures(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"):
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
