"""ge-run's pipeline flags (issue 14 point 5): one flag per option of GeCompilePass, read
from its dataclass fields (a new option gets its flag and its help from its docstring)."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import ROOT
from ge_tools import run as R
from ge_tools import run_args
from ge_tools.pipeline import GeCompilePass

SOFTMAX = str(ROOT / "examples" / "softmax_like.mlir")


def flags(parser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


def test_every_ge_compile_option_is_a_flag():
    want = {"--" + f.name.replace("_", "-") for f in dataclasses.fields(GeCompilePass)}
    assert want == {"--streams", "--enable-pass", "--fusion-solver"} and want <= flags(R.build_arg_parser())


@dataclasses.dataclass(frozen=True)
class _WithMoreOptions(GeCompilePass):
    max_fusion_size: int = 64
    """the most AscIR nodes one fused kernel may hold"""
    keep_going: bool = False


def test_a_new_option_gets_its_flag_and_help(monkeypatch, capsys):
    monkeypatch.setattr(run_args, "GeCompilePass", _WithMoreOptions)
    parser = R.build_arg_parser()
    assert {"--max-fusion-size", "--keep-going"} <= flags(parser)
    args = parser.parse_args([SOFTMAX, "--max-fusion-size", "8", "--keep-going", "--enable-pass", "reduce"])
    assert R.pipeline_spec(args) == "ge-compile{enable-pass=reduce max-fusion-size=8 keep-going=true}"
    parser.format_help()  # the flags' help is built when the help is printed (start-up time)
    helps = {a.option_strings[-1]: a.help for a in parser._actions if a.option_strings}
    assert helps["--max-fusion-size"] == (
        "the most AscIR nodes one fused kernel may hold (ge-compile's max-fusion-size; default 64)"
    )
    assert helps["--keep-going"] == "bool (ge-compile's keep-going; default false)"
    assert helps["--enable-pass"].endswith(
        "(takes a list of reduce, concat, split, transpose, gather; ge-compile's enable-pass; default none; a list is a,b,c)"
    )
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    assert "--keep-going [true|false]" in capsys.readouterr().out


def test_flags_reach_the_pipeline():
    args = R.build_arg_parser().parse_args([SOFTMAX, "--streams", "2", "--enable-pass", "reduce,concat"])
    passes = R.compile_pipeline(args).passes
    assert [p.name for p in passes] == [p.name for p in GeCompilePass().passes()]
    assert next(p for p in passes if p.name == "ge-lower-autofuse").enable_pass == ("reduce", "concat")
    assert next(p for p in passes if p.name == "ge-to-npu").streams == 2
    args = R.build_arg_parser().parse_args([SOFTMAX, "--remarks", "-p", "ge-concat-notask"])
    (p,) = R.compile_pipeline(args).passes
    assert p.name == "ge-concat-notask" and p.remarks


def test_the_help_of_inherited_options_keeps_their_docstrings(monkeypatch):
    monkeypatch.setattr(run_args, "GeCompilePass", _WithMoreOptions)
    parser = R.build_arg_parser()
    parser.format_help()  # the flags' help is built when the help is printed (start-up time)
    helps = {a.option_strings[-1]: a.help for a in parser._actions if a.option_strings}
    # an option of ge-compile's OPTIONS table: its doc and allowed values, as ge-opt --help
    assert helps["--streams"].startswith("ge-to-npu's streams: 1: every task on stream 0; 2: tasks of")
    assert helps["--streams"].endswith("(takes 1 | 2; ge-compile's streams; default 1)")
