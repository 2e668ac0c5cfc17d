"""--remarks-json on ge-opt and ge-run: every remark as an object, the same remarks the text of
--remarks prints, and the figures of each fusion decision."""

from __future__ import annotations

import json
import re

import pytest
from report_helpers import EX, staged

from bench.gen_graphs import generate
from ge_dialect.diagnostics import Remark, remark, remark_sink
from ge_dialect.reason import Reason
from ge_tools.opt import main as ge_opt
from ge_tools.pipeline_spec import build_pipeline, with_remarks
from ge_tools.registry import get_all_passes, make_context
from ge_tools.run import run as ge_run
from report.remarks import (
    RemarkCollector,
    parse_location,
    read_remarks_json,
    remark_from_json,
    remark_to_json,
    write_remarks_json,
)

LINE = re.compile(r"^(.*:\d+:\d+): remark: (.*)$")
KEYS = {"pass", "stage", "verdict", "rule", "nf_code", "reason", "nodes", "message", "location", "data"}


def _opt(tmp_path, capsys, src, *extra: str) -> tuple[list[dict], list[tuple[str, str]]]:
    """ge-opt -p ge-compile on `src` with --remarks and --remarks-json: the JSON objects and
    the (location, message) of each remark line printed on stderr."""
    out = tmp_path / "remarks.json"
    ge_opt([str(src), "-p", "ge-compile", "--remarks", "--remarks-json", str(out), "-o", str(tmp_path / "o"), *extra])
    err = capsys.readouterr().err.splitlines()
    lines = [m.groups() for ln in err if (m := LINE.match(ln))]
    assert len(lines) == len(err), err  # nothing but remark lines
    return json.loads(out.read_text())["remarks"], lines


@pytest.mark.parametrize("example", ["softmax_like", "split_compute_merge", "split_relu_concat", "residual_conv"])
def test_text_and_json_say_the_same(tmp_path, capsys, example):
    objs, lines = _opt(tmp_path, capsys, EX / f"{example}.mlir")
    assert lines, "the example makes remarks"
    assert [
        (f"{o['location']['file']}:{o['location']['line']}:{o['location']['col']}", o["message"]) for o in objs
    ] == lines
    for o in objs:
        assert set(o) == KEYS
        assert o["pass"] is not None and o["pass"].startswith("ge-")
        if o["rule"] is not None:  # a refusal: its rule is printed in the text too
            assert o["rule"] in o["message"]


def test_generated_graph_text_and_json(tmp_path, capsys):
    # a graph of other shapes and types: every line the text prints is one JSON object
    src = tmp_path / "g.mlir"
    src.write_text(generate("mixed", 300, 3, 20))
    objs, lines = _opt(tmp_path, capsys, src)
    assert len(objs) == len(lines) > 300  # at least one memory remark per tensor
    assert {o["pass"] for o in objs} >= {"ge-lower-autofuse", "ge-autofuse", "ge-concat-notask", "ge-assign-memory"}
    verdicts = {o["verdict"] for o in objs}
    assert {"lowered", "fused", "marked"} <= verdicts


def test_json_objects_equal_the_remark_objects(tmp_path):
    # the objects a sink collects, written and read back: equal, Reason and data included
    m = staged(EX / "split_compute_merge.mlir")
    seen: list[Remark] = []
    with remark_sink(seen.append):
        for p in with_remarks(build_pipeline("ge-compile", get_all_passes())):
            p.apply(make_context(), m)
    assert seen
    path = tmp_path / "r.json"
    write_remarks_json(path, seen)
    back = read_remarks_json(path)
    # the passes name themselves on the remarks the report reads; others get the running
    # pass's name from the tool's collector (test_collector_names_the_running_pass)
    assert back == seen
    assert [remark_from_json(remark_to_json(r)) for r in seen] == seen


def test_fusion_decisions_carry_priority_and_shared_bytes(tmp_path, capsys):
    objs, _ = _opt(tmp_path, capsys, EX / "split_compute_merge.mlir")
    fused = [o for o in objs if o["verdict"] == "fused"]
    # ge-autofuse fuses Exp + Mul on each of the three split blocks
    assert [o["nodes"][2] for o in fused] == ["autofuse_0_Exp_Mul", "autofuse_1_Exp_Mul", "autofuse_2_Exp_Mul"]
    for o in fused:
        assert o["pass"] == "ge-autofuse" and o["stage"] == "fuse"
        # Exp reads the 16x32 f16 block (1024 B) and writes 1024 B; the Mul reads both
        # (fusion_strategy_solver.cpp: ScoreFusionMemory counts each shared buffer once)
        assert o["data"]["shared_bytes"] == 2 * 16 * 32 * 2
        assert o["data"]["priority"] in ("HIGHEST", "HIGHER", "HIGH", "DEFAULT", "LOW")
        assert o["rule"] is None  # a fusion is no refusal
    # the lowering says which kernel each op went to
    lowered = {o["nodes"][0]: o["nodes"][1:] for o in objs if o["verdict"] == "lowered"}
    assert lowered["e0"] == ["autofuse_pointwise_1_Exp"] and lowered["b0"] == ["autofuse_pointwise_2_Mul"]
    assert {o["nodes"][0] for o in objs if o["verdict"] == "not lowered"} == {"s0", "c", "m"}


def test_refusal_carries_rule_nf_code_and_shared_bytes(tmp_path, capsys):
    objs, _ = _opt(tmp_path, capsys, EX / "softmax_like.mlir")
    [o] = [o for o in objs if o["verdict"] == "not fused"]
    assert (o["rule"], o["nf_code"]) == ("WillCreateCycle", "NF1002")
    assert o["nodes"] == ["autofuse_pointwise_0_Sub_Exp", "autofuse_pointwise_1_RealDiv"]
    # RealDiv reads Sub_Exp's 8x64 f32 output (2048 B) and the graph input x is not shared
    assert o["data"]["shared_bytes"] == 8 * 64 * 4
    assert o["location"] == {"file": str(EX / "softmax_like.mlir"), "line": 9, "col": 3}


def test_ge_run_writes_the_same_remarks_as_ge_opt(tmp_path, capsys):
    objs, _ = _opt(tmp_path, capsys, EX / "split_compute_merge.mlir")
    out = tmp_path / "run.json"
    assert ge_run([str(EX / "split_compute_merge.mlir"), "--remarks-json", str(out)]) == 0
    assert "remark:" not in capsys.readouterr().err  # collected, not printed
    assert json.loads(out.read_text())["remarks"] == objs


def test_ge_run_reference_writes_no_remarks(tmp_path):
    out = tmp_path / "ref.json"
    assert ge_run([str(EX / "softmax_like.mlir"), "--reference", "--remarks-json", str(out)]) == 0
    assert json.loads(out.read_text()) == {"remarks": []}


def test_without_remarks_flag_nothing_is_printed(tmp_path, capsys):
    out = tmp_path / "r.json"
    ge_opt([str(EX / "softmax_like.mlir"), "-p", "ge-compile", "--remarks-json", str(out), "-o", str(tmp_path / "o")])
    assert capsys.readouterr().err == ""
    assert json.loads(out.read_text())["remarks"]


def test_collector_names_the_running_pass():
    c = RemarkCollector()
    cb = c.callback()

    class P:
        name = "ge-x"

    cb(None, None, P())
    with c.collecting():
        remark(None, "no pass given", location="f.mlir:1:2")
        remark(None, Reason("SomeRule", "why", "NF1001"), pass_name="ge-y", location="f.mlir:3:4")
    cb(P(), None, None)
    with c.collecting():
        remark(None, "after the last pass", location="f.mlir:5:6")
    assert [r.pass_name for r in c.remarks] == ["ge-x", "ge-y", None]
    assert c.remarks[1].rule == "SomeRule" and c.remarks[1].nf_code == "NF1001"
    assert c.remarks[1].message == "why (SomeRule)"


def test_location_parts():
    assert parse_location("a:b.mlir:12:5") == {"file": "a:b.mlir", "line": 12, "col": 5}
    assert parse_location("<unknown>:0:0") == {"file": "<unknown>", "line": 0, "col": 0}
    assert parse_location("weird") == {"file": "weird", "line": 0, "col": 0}


def test_remark_data_is_kept_in_order():
    seen: list[Remark] = []
    with remark_sink(seen.append):
        remark(None, "m", location="f:1:1", data={"b": 2, "a": "x"})
    assert seen[0].data == (("b", 2), ("a", "x")) and seen[0].facts == {"b": 2, "a": "x"}
    assert remark_to_json(seen[0])["data"] == {"b": 2, "a": "x"}
