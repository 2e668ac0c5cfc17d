"""The pictures of one stage of a run, written to a directory: what `--dot-dir DIR` of
ge-opt and ge-run calls after reading the input and after each pass.

For a stage `S` (`00_input`, `03_ge-autofuse`, ...):

* `DIR/S.dot`: the graph picture (report/dot.py), complete whatever its size;
* `DIR/S.svg`: its drawing (report/svg_render.py: Graphviz when on PATH, else report/layered.py,
  pure Python; summarised by kernel above the cut-offs named there);
* `DIR/S.memory.svg`: the feature-map plan (report/memory_svg.py), when the module
  carries one (after ge-assign-memory).

A module without ge graphs (after ge-to-npu, the npu.model) has no graph picture: the
stage writes nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from report.dot import build_picture, named, node_types, to_dot
from report.memory_svg import memory_svg
from report.svg_render import render_svg


def stage_file_stem(stage: str) -> str:
    """`stage` as a file name: characters other than letters, digits, `.`, `_`, `-` become `_`."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", stage) or "_"


def write_stage(
    module: ModuleOp,
    stage: str,
    out_dir: str | os.PathLike[str],
    origin_types: Mapping[str, str] | None = None,
    svg: bool = True,
) -> list[Path]:
    """Write the stage's DOT, SVG and (with a plan) memory SVG; returns the paths written.
    `origin_types` (node name -> GE type, `dot.node_types` of the input) names the types
    of the ops each kernel holds; `svg=False` writes the DOT only."""
    module = named(module)  # one copy at most, for the graph and the memory pictures
    pic = build_picture(module, stage, origin_types)
    if not pic.nodes:
        return []
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = stage_file_stem(stage)
    written = [out / f"{stem}.dot"]
    written[0].write_text(to_dot(pic), encoding="utf-8")
    if svg:
        p = out / f"{stem}.svg"
        p.write_text(render_svg(pic), encoding="utf-8")
        written.append(p)
        mem = memory_svg(module)
        if mem is not None:
            p = out / f"{stem}.memory.svg"
            p.write_text(mem, encoding="utf-8")
            written.append(p)
    return written


class StageWriter:
    """`write_stage` for the stages of one run, numbered in call order (`NN_<stage>`); the
    GE types of the first module it sees (the input) name the ops kernels hold later."""

    def __init__(self, out_dir: str | os.PathLike[str], svg: bool = True):
        self.out_dir = out_dir
        self.svg = svg
        self.index = 0
        self.types: dict[str, str] = {}

    def __call__(self, module: ModuleOp, stage: str) -> list[Path]:
        for name, t in node_types(module).items():
            self.types.setdefault(name, t)
        paths = write_stage(module, f"{self.index:02d}_{stage}", self.out_dir, self.types, self.svg)
        self.index += 1
        return paths
