"""SVG of a graph picture (report/dot.py): Graphviz's `dot` when it is on PATH, otherwise
report/layered.py's layered layout (pure Python: no cluster box overlaps another), so a
picture exists on a machine with only Python and pip. `renderer()` names the one used.

Very large graphs are summarised before drawing (the DOT file beside the SVG stays
complete):

* up to `FULL_LIMIT` (1,500) drawn nodes: the full picture, every AscIR node of every
  kernel;
* above it, up to `KERNEL_LIMIT` (1,500) kernels: one box per kernel (each AscBackend /
  FusedAscBackend cluster becomes one box labelled with the ops it holds), the edges
  between kernels kept;
* above that: one box per kernel type and graph (`Relu x 120`), edges merged per pair of
  types with their count and bytes.

The output is deterministic (no date, the same input gives the same bytes).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass

from report.dot import (
    Picture,
    kernel_count,
    summarise_by_kernel,
    summarise_by_type,
    to_dot,
)
from report.layered import RENDERER, layered_svg

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


def renderer(use_graphviz: bool | None = None) -> str:
    """The name of what `render_svg(..., use_graphviz)` draws with: what ge-run and the
    report say under the pictures."""
    dot = graphviz() if use_graphviz is not False else None
    return "Graphviz dot" if dot is not None else f"{RENDERER}; Graphviz's dot is not on PATH"


def render_svg(
    pic: Picture, use_graphviz: bool | None = None, full_limit: int = FULL_LIMIT, kernel_limit: int = KERNEL_LIMIT
) -> str:
    """The SVG text of `pic` (summarised when large: `picture_to_show` with the limits).
    `use_graphviz`: None picks dot when it is on PATH; False forces report/layered.py."""
    shown = picture_to_show(pic, full_limit, kernel_limit)
    dot = graphviz() if use_graphviz is not False else None
    if dot is not None:
        done = subprocess.run([dot, "-Tsvg"], input=to_dot(shown.picture).encode(), capture_output=True, check=False)
        if done.returncode == 0:
            return done.stdout.decode()
        if use_graphviz:
            raise RuntimeError(f"dot -Tsvg failed: {done.stderr.decode().strip().splitlines()[-1:]}")
    return layered_svg(shown.picture, renderer(False))
