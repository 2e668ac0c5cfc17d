"""ge-opt's command line (issue 14): the option tables behind --help and the checks, the
progress line (only on a terminal), the shell-split hint, the expected-* parser."""

from __future__ import annotations

import dataclasses
import io
import re
import sys
from pathlib import Path

import pytest

from conftest import README_PIPELINE
from ge_dialect.pass_options import Flag, OneOf, option_table
from ge_tools import expected
from ge_tools.opt import GeOptMain, main, option_help, shell_split_hint
from ge_tools.registry import get_all_passes

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_every_option_of_every_pass_has_one_table_entry(name):
    """The table --help prints and __post_init__ checks has exactly the pass's options:
    an option added without a doc, or a doc left for a removed option, fails here."""
    cls = get_all_passes()[name]()
    fields = {f.name for f in dataclasses.fields(cls) if f.init}
    table = option_table(cls)
    assert set(table) == fields
    assert all(opt.doc for opt in table.values())


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_each_listed_choice_is_accepted_and_help_lists_what_the_check_takes(name):
    """Help and validation read one table: every value a OneOf lists builds the pass, a value
    it does not list is refused, and the help line shows exactly the listed values."""
    cls = get_all_passes()[name]()
    help_text = "\n".join(option_help(cls))
    for field, opt in option_table(cls).items():
        shown = field.replace("_", "-")
        assert f"        {shown}: {opt.allowed.describe('')} (default " in help_text
        if isinstance(opt.allowed, OneOf):
            for choice in opt.allowed.choices:
                cls(**{field: choice})
            bad = "nope" if isinstance(opt.allowed.choices[0], str) else 99
            with pytest.raises(ValueError, match=f"option {shown}: expected"):
                cls(**{field: bad})
        if isinstance(opt.allowed, Flag):
            assert opt.allowed.describe("bool") == "true | false"


def test_phony_stage_help_matches_the_issue():
    help_text = "\n".join(option_help(get_all_passes()["ge-phony-notask"]()))
    assert "        stage: mark | calc | all (default all)" in help_text


def test_name_none_unsets_an_optional_option():
    opt = GeOptMain(["-p", "ge-autofuse{max-proximity=none max-fusion-size=5}"])
    (p,) = opt.pipeline.passes
    assert p.max_proximity is None and p.max_fusion_size == 5  # type: ignore[attr-defined]
    (p,) = GeOptMain(["-p", "ge-autofuse{max-proximity=7}"]).pipeline.passes
    assert p.max_proximity == 7  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "argv,hint",
    [
        (["-p", "a{x=1", "y=2}", "f.mlir"], "-p 'a{x=1 y=2}'"),
        (["-p", "a{x=1", "y=2", "z=3}"], "-p 'a{x=1 y=2 z=3}'"),
        (["-p", "a,", "b"], "-p 'a, b'"),
        (["-p", "a", ",b"], "-p 'a ,b'"),
        (["--passes=a{x=1", "y=2}"], "-p 'a{x=1 y=2}'"),
        (["-pa{x=1", "y=2}"], "-p 'a{x=1 y=2}'"),
        (["f.mlir", "-p", "a{x=1", "y=2}"], "-p 'a{x=1 y=2}'"),
    ],
)
def test_shell_split_hint(argv, hint):
    got = shell_split_hint(argv)
    assert got is not None and got.endswith(hint)


@pytest.mark.parametrize(
    "argv",
    [["-p", "a{x=1 y=2}", "f.mlir"], ["-p", "a,b", "f.mlir"], ["f.mlir", "g.mlir"], ["-p", "a{x=1", "-o", "out"]],
)
def test_no_shell_split_hint(argv):
    assert shell_split_hint(argv) is None


# -- progress on a terminal --------------------------------------------------------------


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run_with_stderr(monkeypatch, tmp_path, stderr: io.StringIO, *extra: str) -> None:
    monkeypatch.setattr(sys, "stderr", stderr)
    out = tmp_path / "out.mlir"
    main([str(EXAMPLES / "allgather_concat.mlir"), "-p", "ge-compile", "-o", str(out), *extra])
    assert "npu.model @main" in out.read_text()


def test_progress_on_a_terminal_names_each_pass_with_its_graph_size(monkeypatch, tmp_path):
    err = FakeTerminal()
    _run_with_stderr(monkeypatch, tmp_path, err)
    text = err.getvalue()
    updates = [u for u in text.split("\r\x1b[K") if u]
    # one update per pass, in order, each `ge-opt: [k/n] <pass as in -p>: <ops> ops, <t> s`
    assert [u.split("] ")[1].split(":")[0] for u in updates] == README_PIPELINE
    assert updates[0].startswith("ge-opt: [1/19] ge-dimension-compute-pass: ")
    # the graph size is the module's op count when the pass starts
    ops = sum(1 for _ in _parsed_example().walk())
    assert f": {ops} ops, " in updates[0]
    assert text.endswith("\r\x1b[K")  # the line is erased at the end


def test_no_progress_when_stderr_is_not_a_terminal(monkeypatch, tmp_path):
    err = io.StringIO()
    _run_with_stderr(monkeypatch, tmp_path, err)
    assert err.getvalue() == ""


def test_progress_leaves_remarks_and_timings_on_their_own_lines(monkeypatch, tmp_path):
    err = FakeTerminal()
    _run_with_stderr(monkeypatch, tmp_path, err, "--remarks", "--time-passes")
    for line in err.getvalue().split("\n"):
        visible = line.split("\r\x1b[K")[-1]
        # each printed line starts after an erase, never after a progress text
        assert not visible.startswith("ge-opt: ["), visible
    assert "remark: " in err.getvalue() and "Pass ge-to-npu took" in err.getvalue()


def _parsed_example():
    from ge_tools.opt import parse_module

    opt = GeOptMain([])
    path = EXAMPLES / "allgather_concat.mlir"
    return parse_module(opt.ctx, path.read_bytes(), str(path))


# -- expected-* comments -------------------------------------------------------------------


def test_expectation_designators():
    text = "\n".join(
        [
            "a",  # 1
            "// expected-error @below {{one}}",  # 2
            "// expected-remark@below {{two}}",  # 3
            "",  # 4: the next line without an expectation
            "b // expected-warning {{three}}",  # 5
            "// expected-note @above {{four}}",  # 6: above = 4
            "// expected-error @+2 {{five}} {{six}}",  # 7
            "// expected-error @-7 {{seven}}",  # 8
        ]
    )
    got = [(e.kind, e.line, e.message) for e in expected.expectations(text)]
    assert got == [
        ("error", 4, "one"),
        ("remark", 4, "two"),
        ("warning", 5, "three"),
        ("note", 4, "four"),
        ("error", 9, "five}} {{six"),
        ("error", 1, "seven"),
    ]


def test_check_matches_each_diagnostic_once():
    text = "x\n// expected-error @-1 {{bad}}\n// expected-error @-2 {{bad}}\n"
    two = ["f:1:1: error: op: bad thing", "f:1:5: error: op: bad other"]
    assert expected.check(text, "f", two) == []
    assert expected.check(text, "f", two[:1]) == ['f:3:4: error: expected error "bad" was not produced']
    assert expected.check(text, "f", [*two, "f:1:1: error: bad again"]) == ["f:1:1: error: unexpected error: bad again"]
    # a diagnostic of another kind, another file, or without a location is unexpected
    assert expected.check("", "f", ["f:1:1: remark: r"]) == ["f:1:1: error: unexpected remark: r"]
    assert expected.check(text, "f", ["g:1:1: error: bad", *two]) == ["g:1:1: error: unexpected error: bad"]
    assert expected.check("", "f", ["ge-opt: error: x"]) == [
        "ge-opt: error: x (unexpected: a diagnostic without a location)"
    ]


def test_verify_diagnostics_on_a_terminal_still_collects_the_remarks(monkeypatch, tmp_path):
    """The progress line's remark printer does not take the remarks --verify-diagnostics
    matches: the expected remark is matched (exit 0), nothing but progress reaches stderr."""
    src = tmp_path / "r.mlir"
    src.write_text(
        "ge.graph @g {\n"
        "  %a = ge.Data {index = 0} : tensor<2x16xf16>\n"
        "  %pk = ge.PhonyConcat(%a, %a) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>\n"
        "  // expected-remark @-1 {{PhonyConcat 'pk' marked no-task}}\n"
        "  ge.NetOutput %pk : tensor<4x16xf16>\n"
        "}\n"
    )
    err = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", err)
    argv = [str(src), "-p", "ge-phony-notask", "--remarks", "--verify-diagnostics", "-o", str(tmp_path / "o")]
    GeOptMain(argv).run()  # no SystemExit: every expectation matched
    visible = [u for u in err.getvalue().split("\r\x1b[K") if u]
    assert len(visible) == 1 and re.fullmatch(
        r"ge-opt: \[1/1\] ge-phony-notask\{remarks=true\}: 5 ops, [0-9.]+ s", visible[0]
    )
    assert err.getvalue().endswith("\r\x1b[K")


def test_ge_run_progress_on_a_terminal_and_remarks_on_clean_lines(monkeypatch):
    """ge-run shows the same status line as ge-opt (prefixed ge-run), erases it at the end,
    and each remark starts on a clean line."""
    from ge_tools.run import run as ge_run

    err = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert ge_run([str(EXAMPLES / "allgather_concat.mlir"), "--remarks"]) == 0
    text = err.getvalue()
    # each pass as configured (with --remarks: remarks=true where the pass has the option)
    assert "\r\x1b[Kge-run: [1/19] ge-dimension-compute-pass{remarks=true}: " in text
    assert "\r\x1b[Kge-run: [19/19] ge-to-npu: " in text
    assert text.count("ge-run: [") == 19
    for line in text.split("\n"):
        if "remark:" in line:  # the status line was erased before the remark
            assert line.split("\r\x1b[K")[-1].startswith(str(EXAMPLES / "allgather_concat.mlir"))
    assert text.endswith("\r\x1b[K")  # erased at the end


def test_ge_run_no_progress_when_not_a_terminal(monkeypatch):
    from ge_tools.run import run as ge_run

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert ge_run([str(EXAMPLES / "allgather_concat.mlir")]) == 0
    assert "ge-run: [" not in err.getvalue() and "\x1b[K" not in err.getvalue()
