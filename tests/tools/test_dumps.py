"""ge-opt's and ge-run's dumps (issue 33): --time-passes' report (structure only, never a
time), --dump-dir writing only the stages that changed the IR (checked against the text
--print-ir-after-all prints of every stage), --print-ir-after-change, and ge-run's long
lists capped with a count."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bench.gen_graphs import generate
from conftest import README_PIPELINE
from ge_tools.opt import main
from ge_tools.pass_callback import time_report
from ge_tools.run import main as run_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROW = re.compile(r"^  +([0-9]+\.[0-9]{4}) \( *([0-9]+\.[0-9])%\)  (\S+)$")
HEADER = re.compile(r"^// -----// IR Dump After (\S+) \(.*\) //----- //$")


def _rows(report: str) -> tuple[float, list[tuple[float, float, str]]]:
    """The total of `Total Execution Time` and the rows (seconds, share, name), Total last."""
    lines = report.splitlines()
    assert lines[0] == lines[2] == "===" + "-" * 73 + "==="
    assert lines[1].strip() == "... Execution time report ..."
    total = re.fullmatch(r"  Total Execution Time: ([0-9]+\.[0-9]{4}) seconds", lines[3])
    assert total is not None and lines[4] == "" and lines[5] == "  ----Wall Time----  ----Name----"
    assert lines[-1] == ""  # the report ends with an empty line, as mlir-opt's does
    rows = []
    for line in lines[6:-1]:
        m = ROW.match(line)
        assert m is not None, line
        rows.append((float(m[1]), float(m[2]), m[3]))
    return float(total[1]), rows


def test_time_report_by_hand():
    """Shares and order of a report whose numbers are worked out by hand: 3 of 4 s is 75 %."""
    text = time_report({"a": 1.0, "b{x=1}": 3.0}, 0.0)
    total, rows = _rows(text)
    assert total == 4.0
    assert rows == [(3.0, 75.0, "b{x=1}"), (1.0, 25.0, "a"), (0.0, 0.0, "verify"), (4.0, 100.0, "Total")]
    # nothing verified: no verify row; nothing timed: the Total line still says 100 %
    assert [r[2] for r in _rows(time_report({"a": 1.0}, None))[1]] == ["a", "Total"]
    assert _rows(time_report({}, None))[1] == [(0.0, 100.0, "Total")]


@pytest.mark.parametrize("source", ["example", "diamond", "concat_tree"])
def test_time_passes_report_names_each_pass_once_largest_first(tmp_path, capsys, source):
    if source == "example":
        f = EXAMPLES / "split_relu_concat.mlir"
    else:
        f = tmp_path / "g.mlir"
        f.write_text(generate(source, 80, 2))
    main([str(f), "-p", "ge-compile,dce", "--time-passes", "-o", str(tmp_path / "out.mlir")])
    total, rows = _rows(capsys.readouterr().err)
    names = [r[2] for r in rows]
    # every pass once, named as in -p (the folding passes run twice: one row), a verify row
    assert sorted(names[:-1]) == sorted({*README_PIPELINE, "dce", "verify"})
    assert names[-1] == "Total" and rows[-1][:2] == (total, 100.0)
    column = [r[0] for r in rows[:-1]]
    assert column == sorted(column, reverse=True)


def test_time_report_rows_add_up_to_the_total():
    """Given times (no clock): each row rounded to 0.1 ms and each share to 0.1 %, the rows
    still add up to the Total line and the shares to 100 %."""
    times = {f"pass-{k}": 0.001 * (k * 37 % 11) + 0.00003 * k for k in range(24)}
    total, rows = _rows(time_report(times, 0.0123))
    assert total == pytest.approx(sum(times.values()) + 0.0123, abs=5e-5)
    column = [r[0] for r in rows[:-1]]
    assert abs(sum(column) - total) <= 0.00005 * len(column) + 1e-9
    assert abs(sum(r[1] for r in rows[:-1]) - 100.0) <= 0.05 * len(column) + 1e-9


def _stages(stderr: str) -> list[tuple[str, str]]:
    """--print-ir-after-all's stages: (pass name, the IR text printed after it)."""
    out: list[tuple[str, list[str]]] = []
    for line in stderr.splitlines(keepends=True):
        m = HEADER.match(line.rstrip("\n"))
        if m:
            out.append((m[1], []))
        elif out:
            out[-1][1].append(line)
    # the printer writes the module, then the callback one newline
    return [(name, "".join(lines)[:-1]) for name, lines in out]


@pytest.mark.parametrize(("kind", "nodes", "seed"), [("example", 0, 0), ("chain", 40, 1), ("concat_tree", 90, 3)])
def test_dump_dir_writes_the_stages_that_changed_and_lists_the_others(tmp_path, capsys, kind, nodes, seed):
    if kind == "example":
        f = EXAMPLES / "split_relu_concat.mlir"
    else:
        f = tmp_path / "g.mlir"
        f.write_text(generate(kind, nodes, seed))
    d = tmp_path / "dumps"
    out = tmp_path / "out.mlir"
    main([str(f), "-p", "ge-compile,dce", "--dump-dir", str(d), "--print-ir-after-all", "-o", str(out)])
    stages = _stages(capsys.readouterr().err)
    assert [name for name, _ in stages] == [*[p.split("{")[0] for p in README_PIPELINE], "dce"]
    input_text = (d / "00_input.mlir").read_text()
    before, before_file = input_text, "00_input.mlir"
    written, unchanged = {"00_input.mlir"}, []
    for i, (name, text) in enumerate(stages, 1):
        file = f"{i:02d}_{name}.mlir"
        if text + "\n" == before:
            unchanged.append(f"{file}: same as {before_file}")
        else:
            assert (d / file).read_text() == text + "\n"
            written.add(file)
            before, before_file = text + "\n", file
    assert {p.name for p in d.iterdir()} == written | {"unchanged.txt"}
    assert (d / "unchanged.txt").read_text().splitlines() == unchanged
    assert unchanged  # these graphs leave some pass with nothing to do (ge-dropout-pass)
    # the last stage written is the result (-o adds an empty line, as xdsl-opt does)
    assert (d / before_file).read_text() + "\n" == out.read_text()

    # --print-ir-after-change prints exactly the stages --dump-dir wrote, with the same text
    main([str(f), "-p", "ge-compile,dce", "--print-ir-after-change", "-o", str(out)])
    changed = _stages(capsys.readouterr().err)
    assert [f"{i:02d}_{name}.mlir" for i, (name, _) in enumerate(stages, 1) if f"{i:02d}_{name}.mlir" in written] == [
        f"{stages.index(s) + 1:02d}_{s[0]}.mlir" for s in changed
    ]


def test_dump_dir_rewrites_a_stale_unchanged_list(tmp_path):
    """A second run into the same DIR leaves no line of the first run's unchanged.txt."""
    d = tmp_path / "dumps"
    d.mkdir()
    (d / "unchanged.txt").write_text("99_stale.mlir: same as 00_input.mlir\n")
    main([str(EXAMPLES / "split_relu_concat.mlir"), "--dump-dir", str(d), "-o", str(tmp_path / "o.mlir")])
    assert (d / "unchanged.txt").read_text() == ""


def test_ge_run_dump_dir_lists_the_unchanged_stages(tmp_path, capsys):
    d = tmp_path / "dumps"
    run_main([str(EXAMPLES / "split_relu_concat.mlir"), "--dump-dir", str(d)])
    assert "outputs match the reference" in capsys.readouterr().out
    lines = (d / "unchanged.txt").read_text().splitlines()
    drop = f"{README_PIPELINE.index('ge-dropout-pass') + 1:02d}_ge-dropout-pass.mlir"  # no Dropout here
    assert f"{drop}: same as 00_input.mlir" in lines
    assert not (d / drop).exists() and (d / "00_input.mlir").exists()


@pytest.mark.parametrize(("nodes", "seed"), [(600, 1), (900, 4)])
def test_ge_run_caps_long_lists_with_a_count(tmp_path, capsys, nodes, seed):
    """The no-task line and the per-execution refresh list: the first 20 and the count;
    --stats-json keeps every item."""
    import json

    f = tmp_path / "g.mlir"
    f.write_text(generate("concat_tree", nodes, seed))
    stats = tmp_path / "stats.json"
    run_main([str(f), "--executions", "23", "--stats-json", str(stats)])
    out = capsys.readouterr().out.splitlines()
    figures = json.loads(stats.read_text())
    nt, refreshed = figures["no_task_nodes"], figures["refreshed_tasks"]
    assert len(nt) > 20 and len(refreshed) == 23
    (line,) = [ln for ln in out if ln.startswith("no-task nodes: ")]
    assert line.startswith(f"no-task nodes: {len(nt)}; the first 20: {', '.join(nt[:20])}; all in --stats-json; ")
    assert nt[20] not in line.split("; ")[1].split(", ")
    (line,) = [ln for ln in out if ln.startswith("executions: 23, ")]
    assert line == (
        f"executions: 23, args refreshed per execution: [{', '.join(map(str, refreshed[:20]))}, ...] "
        "(23 executions; the first 20 shown, all in --stats-json)"
    )
    assert max(len(ln) for ln in out) < 1000


def test_ge_run_keeps_a_short_list_whole(capsys):
    run_main([str(EXAMPLES / "split_relu_concat.mlir"), "--executions", "2"])
    out = capsys.readouterr().out
    assert "no-task nodes: 2 (s0 (SplitD), c (ConcatD)); bytes moved by their tasks: 0\n" in out
    assert re.search(r"^executions: 2, args refreshed per execution: \[[0-9]+, [0-9]+\]$", out, re.M)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
