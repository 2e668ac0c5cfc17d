"""report/stages.py: the files one stage writes, and the numbered writer of a run."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from report_helpers import EX, Dot, staged
from xdsl.parser import Parser

from conftest import COMPILE_ORDER
from ge_dialect.names import name_all_nodes
from ge_tools.pipeline_spec import build_pipeline
from ge_tools.registry import get_all_passes, make_context
from report.stages import StageWriter, stage_file_stem, write_stage


def test_stage_file_stem():
    assert stage_file_stem("03_ge-phony-notask{stage=mark}") == "03_ge-phony-notask_stage_mark_"
    assert stage_file_stem("a/b\\c d") == "a_b_c_d"
    assert stage_file_stem("") == "_"


def test_write_stage_dot_svg_and_memory(tmp_path):
    m = staged(EX / "split_relu_concat.mlir")
    assert [p.name for p in write_stage(m, "00_input", tmp_path)] == ["00_input.dot", "00_input.svg"]
    Dot((tmp_path / "00_input.dot").read_text())
    ET.fromstring((tmp_path / "00_input.svg").read_text())
    planned = staged(EX / "split_relu_concat.mlir", "ge-concat-notask,ge-assign-memory{solver=heuristic}")
    names = [p.name for p in write_stage(planned, "02_planned", tmp_path / "sub", svg=True)]
    assert names == ["02_planned.dot", "02_planned.svg", "02_planned.memory.svg"]
    assert [p.name for p in write_stage(planned, "dot only", tmp_path, svg=False)] == ["dot_only.dot"]


def test_writer_numbers_the_stages_of_a_run(tmp_path):
    ctx = make_context()
    m = Parser(ctx, (EX / "softmax_like.mlir").read_text(), "softmax_like.mlir").parse_module()
    name_all_nodes(m)
    write = StageWriter(tmp_path, svg=False)
    write(m, "input")
    passes = build_pipeline(",".join(COMPILE_ORDER), get_all_passes())
    for p in passes:
        p.apply(ctx, m)
        write(m, p.name)
    names = sorted(p.name for p in tmp_path.iterdir())
    # one DOT per stage that still holds a ge graph; the last (ge-to-npu) holds an npu.model
    want = ["00_input.dot"] + [f"{i:02d}_{p.name}.dot" for i, p in enumerate(passes[:-1], 1)]
    assert names == sorted(want)
    # the kernel the fusion made lists the original ops with the types the input had
    k = [p.name for p in passes].index("ge-autofuse") + 1
    fused = Dot((tmp_path / f"{k:02d}_ge-autofuse.dot").read_text())
    labels = [a["label"] for a in fused.clusters.values() if a.get("class") == "AscBackend"]
    assert any(lb.endswith("d (Sub), e (Exp)") for lb in labels), labels
