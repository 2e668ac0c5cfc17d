"""ge-compile's `fusion-solver` option (issue 31): it reaches ge-autofuse's `solver`, so
`ge-compile{fusion-solver=global}` (ge-run --fusion-solver global) is the spelled-out pass
list with `ge-autofuse{solver=global}`."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import pytest
from xdsl.passes import PassPipeline

from conftest import README_PIPELINE as ORDER
from conftest import ROOT, parse, print_module
from ge_tools import run as R
from ge_tools.opt import GeOptMain
from ge_tools.pipeline import GeCompilePass
from ge_tools.pipeline_spec import build_pipeline, pass_spec
from ge_tools.registry import make_context

sys.path.insert(0, str(ROOT / "bench"))
from gen_graphs import generate  # noqa: E402


def test_fusion_solver_goes_to_ge_autofuse():
    got = [pass_spec(p) for p in GeCompilePass(fusion_solver="global").passes()]
    assert got == ["ge-autofuse{solver=global}" if p == "ge-autofuse" else p for p in ORDER]
    assert [pass_spec(p) for p in GeCompilePass(fusion_solver="greedy").passes()] == ORDER


@cache
def compiled(spec: str, text: str) -> str:
    m = parse(text)
    PassPipeline(build_pipeline(spec, GeOptMain([]).available_passes)).apply(make_context(), m)
    return print_module(m)


@cache
def fanout() -> str:
    return generate("fanout", 100, 0)


def test_the_option_is_the_spelled_out_pass_list_and_differs_from_greedy():
    """fanout-100, where global moves fewer bytes than greedy (tests/passes/autofuse/
    test_global_solver.py): the option's module is byte for byte the one of the whole
    pass list written with ge-autofuse{solver=global}, and not greedy's."""
    spelled = ",".join("ge-autofuse{solver=global}" if p == "ge-autofuse" else p for p in ORDER)
    option = compiled("ge-compile{fusion-solver=global}", fanout())
    assert option == compiled(spelled, fanout())
    assert option != compiled("ge-compile", fanout())
    assert compiled("ge-compile{fusion-solver=greedy}", fanout()) == compiled("ge-compile", fanout())


def test_ge_run_takes_it_as_a_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    p = tmp_path / "fanout.mlir"
    p.write_text(fanout())
    moved = {}
    for solver in ("greedy", "global"):
        stats = tmp_path / f"{solver}.json"
        assert R.run([str(p), "--fusion-solver", solver, "--stats-json", str(stats)]) == 0
        assert "outputs match the reference" in capsys.readouterr().out
        moved[solver] = json.loads(stats.read_text())["bytes_moved"]
    assert moved["global"] < moved["greedy"]
    args = R.build_arg_parser().parse_args([str(p), "--fusion-solver", "global"])
    assert R.pipeline_spec(args) == "ge-compile{fusion-solver=global}"


def test_a_bad_solver_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    p = tmp_path / "g.mlir"
    p.write_text((ROOT / "examples" / "softmax_like.mlir").read_text())
    with pytest.raises(SystemExit) as e:
        R.main([str(p), "--fusion-solver", "best"])
    assert e.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fusion-solver" in err[0] and "greedy" in err[0] and "global" in err[0]
    assert "Traceback" not in err[0]
