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

It also writes report_transformer.png, a screenshot of a real network's report: ge-run
--report on the zoo's transformer encoder layer (examples/zoo), its graph after fusion
(kernels folded, the critical path red, the largest buffers orange), taken by headless
Chromium; skipped with a note when no Chromium is on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from xdsl.passes import PassPipeline

from ge_dialect.names import name_all_nodes
from ge_dialect.verify import verify_module
from ge_tools.opt import context
from ge_tools.parse import parse_module
from ge_tools.pipeline import GeCompilePass, expand
from report.dot import build_picture, node_types
from report.html import RunRecorder
from report.memory_svg import plans_svg
from report.svg_render import render_svg

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "split_compute_merge.mlir"
NAMES = ("graph_before_fusion.svg", "graph_after_fusion.svg", "memory_plan.svg")
NETWORK = ROOT / "examples" / "zoo" / "transformer_encoder_layer.onnx"
SCREENSHOT = "report_transformer.png"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# the page as the screenshot shows it: the title and the graph after fusion
_ONLY_FUSED = "<style>section:not(#graphs), ul, #stage-0, #stage-2, #graphs > p.note { display: none; }</style></head>"


def report_screenshot(out: Path, network: Path = NETWORK) -> Path | None:
    """`out`/report_transformer.png: the report of `network` in headless Chromium; None
    without a Chromium."""
    from ge_tools.run import run as ge_run

    browser = os.environ.get("GE_XDSL_CHROMIUM") or next((b for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        print("no Chromium on PATH: the report screenshot is not made", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as tmp:
        rep = Path(tmp) / "rep"
        cwd = os.getcwd()
        os.chdir(ROOT)  # the page names the model by its path in the repository
        try:
            if ge_run([str(network.relative_to(ROOT)), "--report", str(rep)]) != 0:
                raise RuntimeError(f"ge-run {network} failed")
        finally:
            os.chdir(cwd)
        page = (rep / "index.html").read_text(encoding="utf-8").replace("</head>", _ONLY_FUSED, 1)
        shown = rep / "shown.html"
        shown.write_text(page, encoding="utf-8")
        path = out / SCREENSHOT
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1400"]
        subprocess.run([*cmd, f"--screenshot={path}", shown.as_uri()], capture_output=True, timeout=300, check=True)
    return path


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
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    paths = make_pictures(out)
    shot = report_screenshot(out)
    for p in [*paths, *([shot] if shot else [])]:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
