"""ge-opt's command line (issue 14): the option tables behind --help and the checks, the
progress line (only on a terminal), the shell-split hint, the expected-* parser."""

from __future__ import annotations

import dataclasses
import io
import re
import sys
from pathlib import Path

import pytest

from broken_passes import BROKEN_PIPELINES, TEST_PASSES, names_the_broken_pass
from conftest import README_PIPELINE
from ge_dialect.pass_options import Flag, OneOf, option_table
from ge_tools import expected
from ge_tools.cli_args import run_tool
from ge_tools.opt import GeOptMain, main
from ge_tools.pass_help import option_help
from ge_tools.pipeline_spec import shell_split_hint
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


def _bar_passes(text: str, tool: str) -> list[tuple[str, int]]:
    """The passes (and op counts) a tqdm pass bar named, in order, each once."""
    out: list[tuple[str, int]] = []
    for m in re.finditer(rf"\r{tool}: ([^\r(]+?) \((\d+) ops\)", text):
        if not out or out[-1][0] != m.group(1):
            out.append((m.group(1), int(m.group(2))))
    return out


def test_progress_on_a_terminal_names_each_pass_with_its_graph_size(monkeypatch, tmp_path):
    err = FakeTerminal()
    _run_with_stderr(monkeypatch, tmp_path, err)
    text = err.getvalue()
    # a tqdm bar (ge_tools/progress.py: PassBar) naming each pass as in -p, in order, with the
    # module's op count when the pass starts, and the passes done of all
    named = _bar_passes(text, "ge-opt")
    assert [p for p, _ in named] == README_PIPELINE
    assert named[0][1] == sum(1 for _ in _parsed_example().walk())
    assert f"| {len(README_PIPELINE) - 1}/{len(README_PIPELINE)} [" in text
    assert text.split("\r")[-1] == ""  # the bar is erased at the end


def test_no_progress_when_stderr_is_not_a_terminal(monkeypatch, tmp_path):
    err = io.StringIO()
    _run_with_stderr(monkeypatch, tmp_path, err)
    assert err.getvalue() == ""


def test_progress_leaves_remarks_and_timings_on_their_own_lines(monkeypatch, tmp_path):
    err = FakeTerminal()
    _run_with_stderr(monkeypatch, tmp_path, err, "--remarks", "--time-passes")
    for line in err.getvalue().split("\n"):
        visible = line.split("\r")[-1]
        # each printed line starts after the bar is erased, never after a progress text
        assert not visible.startswith("ge-opt: "), visible
    assert "remark: " in err.getvalue() and "Total Execution Time: " in err.getvalue()


def _parsed_example():
    from ge_tools.parse import parse_module

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
    text = err.getvalue()
    # only the pass bar: no remark line (matched), the bar erased at the end
    assert _bar_passes(text, "ge-opt") == [("ge-phony-notask{remarks=true}", 5)]
    assert "\n" not in text and text.split("\r")[-1] == ""


def test_ge_run_progress_on_a_terminal_and_remarks_on_clean_lines(monkeypatch):
    """ge-run shows the same pass bar as ge-opt (prefixed ge-run), erases it at the end,
    and each remark starts on a clean line."""
    from ge_tools.run import run as ge_run

    err = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert ge_run([str(EXAMPLES / "allgather_concat.mlir"), "--remarks"]) == 0
    text = err.getvalue()
    # each pass as configured (with --remarks: remarks=true where the pass has the option)
    named = [p for p, _ in _bar_passes(text, "ge-run")]
    assert named[0] == f"{README_PIPELINE[0]}{{remarks=true}}" and named[-1] == "ge-to-npu"
    assert len(named) == len(README_PIPELINE)
    for line in text.split("\n"):
        if "remark:" in line:  # the bar was erased before the remark
            assert line.split("\r")[-1].startswith(str(EXAMPLES / "allgather_concat.mlir"))
    assert "ge-run: executions" in text  # the executions' bar (ge_tools/progress.py: steps)
    assert text.split("\r")[-1] == ""  # erased at the end


def test_ge_run_no_progress_when_not_a_terminal(monkeypatch):
    from ge_tools.run import run as ge_run

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert ge_run([str(EXAMPLES / "allgather_concat.mlir")]) == 0
    assert "ge-run: " not in err.getvalue() and "\r" not in err.getvalue()


# -- verification policy: the input and the result, or after every pass (--verify-each) ---

SOFTMAX = EXAMPLES / "softmax_like.mlir"


class _TestMain(GeOptMain):
    def register_all_passes(self) -> None:
        super().register_all_passes()
        for cls in TEST_PASSES:
            self.register_pass(cls.name, lambda cls=cls: cls)


def _run_opt(argv, capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as e:
        run_tool(lambda: _TestMain(argv).run(), "ge-opt")
    return e.value.code, capsys.readouterr().err


@pytest.mark.parametrize("each", [[], ["--verify-each"]])
@pytest.mark.parametrize("pipeline", BROKEN_PIPELINES)
def test_a_pass_producing_invalid_ir_is_reported_with_its_name(pipeline, each, tmp_path, capsys):
    """With or without --verify-each, the error is the verifier's, at the op, naming the
    pass that produced the invalid IR (not the last pass, nor a later pass's crash)."""
    code, err = _run_opt([str(SOFTMAX), "-p", pipeline, "-o", str(tmp_path / "o"), *each], capsys)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert names_the_broken_pass(lines[0], str(SOFTMAX)) and lines[0].startswith(f"{SOFTMAX}:7:"), lines[0]


def test_a_pass_error_after_valid_ir_is_the_pass_error(tmp_path, capsys):
    """The rerun finds every pass's IR valid: the crash of the pass itself is reported."""
    src = tmp_path / "in.mlir"
    src.write_text(SOFTMAX.read_text().replace(" {axes = [-1], keep_dims = true}", " {keep_dims = true}", 1))
    code, err = _run_opt([str(src), "-p", "test-noop,test-need-axes", "--disable-verify"], capsys)
    assert code == 1 and "internal error: KeyError" in err
    code, err = _run_opt([str(src), "-p", "test-noop,test-need-axes"], capsys)
    assert code == 1 and "error: ge.ReduceMaxD: ReduceMaxD requires attribute 'axes'" in err
    assert "after pass" not in err  # the input is invalid, no pass broke it


@pytest.mark.parametrize(
    "extra,verifies",
    [([], 2), (["--verify-each"], 5), (["--disable-verify"], 0)],
)
def test_verification_runs_at_the_ends_unless_verify_each(extra, verifies, monkeypatch, tmp_path, capsys):
    """Four passes: the input and the result are verified (2 whole-module verifies), every
    pass's result with --verify-each (1 + 4), nothing with --disable-verify; the output is
    the same."""
    import ge_tools.pass_callback as callback

    calls = []
    real = callback.verify_module
    monkeypatch.setattr(callback, "verify_module", lambda m: (calls.append(1), real(m)))
    out = tmp_path / "o.mlir"
    argv = [str(SOFTMAX), "-p", "ge-identity-pass,ge-dimension-compute-pass,ge-lower-autofuse,ge-autofuse"]
    GeOptMain([*argv, "-o", str(out), *extra]).run()
    assert len(calls) == verifies
    monkeypatch.setattr(callback, "verify_module", real)
    GeOptMain([*argv, "-o", str(tmp_path / "ref.mlir"), "--verify-each"]).run()
    assert out.read_text() == (tmp_path / "ref.mlir").read_text()


def test_help_documents_the_verification_policy(capsys):
    with pytest.raises(SystemExit):
        GeOptMain(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--verify-each" in text and "the input and the pipeline's result are verified" in text
