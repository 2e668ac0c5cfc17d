"""--dot-dir of ge-opt and ge-run: one DOT and SVG per stage, the memory SVG once planned."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from report_helpers import EX, Dot

from conftest import COMPILE_ORDER
from ge_tools.opt import main as ge_opt
from ge_tools.run import run as ge_run

STAGES = [p.split("{")[0] for p in COMPILE_ORDER]


def _check(out) -> None:
    # input and every pass but ge-to-npu (its module holds no ge graph)
    want = {"00_input"} | {f"{i:02d}_{p}" for i, p in enumerate(STAGES[:-1], 1)}
    stems = {p.name.split(".")[0] for p in out.iterdir()}
    assert stems == want
    for stem in want:
        Dot((out / f"{stem}.dot").read_text())
        ET.fromstring((out / f"{stem}.svg").read_text())
    [mem] = sorted(out.glob("*.memory.svg"))
    assert mem.name == f"{len(STAGES) - 1:02d}_ge-assign-memory.memory.svg"
    ET.fromstring(mem.read_text())
    # the zero-copy ConcatD is dashed from ge-concat-notask on, not before
    k = STAGES.index("ge-concat-notask") + 1
    before = Dot((out / f"{k - 1:02d}_{STAGES[k - 2]}.dot").read_text())
    after = Dot((out / f"{k:02d}_ge-concat-notask.dot").read_text())
    assert before.nodes[before.node_by_label("ConcatD\nc")].get("style") is None
    assert after.nodes[after.node_by_label("ConcatD\nc")]["style"] == "dashed"


def test_ge_opt_dot_dir(tmp_path, capsys):
    out = tmp_path / "opt"
    ge_opt([str(EX / "split_relu_concat.mlir"), "-p", "ge-compile", "--dot-dir", str(out), "-o", str(tmp_path / "o")])
    assert capsys.readouterr().err == ""
    _check(out)


def test_ge_run_dot_dir(tmp_path, capsys):
    out = tmp_path / "run"
    assert ge_run([str(EX / "split_relu_concat.mlir"), "--dot-dir", str(out)]) == 0
    assert "outputs match the reference" in capsys.readouterr().out
    _check(out)


def test_ge_opt_prints_the_same_ir_with_dot_dir(tmp_path, capsys):
    # nameless nodes are named for the picture on a copy: the printed IR does not change
    src = tmp_path / "nameless.mlir"
    src.write_text(
        "ge.graph @main {\n"
        "  %0 = ge.Data {index = 0} : tensor<4xf32>\n"
        "  %1 = ge.Relu(%0) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  ge.NetOutput %1 : tensor<4xf32>\n"
        "}\n"
    )
    ge_opt([str(src), "-p", "canonicalize"])
    plain = capsys.readouterr().out
    ge_opt([str(src), "-p", "canonicalize", "--dot-dir", str(tmp_path / "d")])
    assert capsys.readouterr().out == plain
    assert "Relu_1" in (tmp_path / "d" / "00_input.dot").read_text()
