"""ge-run, the Python API (`api.compile`) and so the torch.compile backend verify as ge-opt
does (ge_tools/pass_callback.py: apply_verified_at_ends): the input and the pipeline's
result, or after every pass with `--verify-each` / `verify_each=True`; either way a pass
that produces invalid IR is the one the error names, also when a later pass crashes on it
or the result is the first IR verified after it (docs/diagnostics.md, Verification)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ge_tools.api as api
import ge_tools.pass_callback as callback
import ge_tools.run as run_module
from broken_passes import BROKEN_PIPELINES, TEST_PASSES, names_the_broken_pass
from conftest import ROOT
from ge_tools.cli_args import run_tool
from ge_tools.pass_callback import InvalidAfterPass
from ge_tools.registry import get_all_passes

SOFTMAX = ROOT / "examples" / "softmax_like.mlir"
FOUR = "ge-identity-pass,ge-dimension-compute-pass,ge-lower-autofuse,ge-autofuse"


@pytest.fixture
def with_test_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry the API and ge-run build their pipelines from, with the test passes."""

    def passes() -> dict:
        return {**get_all_passes(), **{cls.name: (lambda cls=cls: cls) for cls in TEST_PASSES}}

    monkeypatch.setattr(api, "get_all_passes", passes)
    monkeypatch.setattr(run_module, "get_all_passes", passes)


@pytest.fixture
def verifies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per whole-module verify the pipeline callback makes."""
    calls: list[int] = []
    real = callback.verify_module
    monkeypatch.setattr(callback, "verify_module", lambda m: (calls.append(1), real(m))[1])
    return calls


def _ge_run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = 0

    def go() -> None:
        nonlocal status
        status = run_module.run(argv)

    try:
        run_tool(go, "ge-run")
    except SystemExit as e:
        status = int(e.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("each,count", [(False, 2), (True, 5)])
def test_api_compile_verifies_at_the_ends_unless_verify_each(each: bool, count: int, verifies: list[int]) -> None:
    """Four passes: the input and the result (2 whole-module verifies), or every pass's
    result too (1 + 4); the compiled text is the same."""
    module = api.parse_module(SOFTMAX.read_text(), str(SOFTMAX))
    text = str(api.compile(module, FOUR, verify_each=each).module)
    assert len(verifies) == count
    assert text == str(api.compile(module, FOUR, verify_each=not each).module)


@pytest.mark.parametrize("each,count", [([], 2), (["--verify-each"], 5)])
def test_ge_run_verifies_at_the_ends_unless_verify_each(
    each: list[str], count: int, verifies: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _ge_run([str(SOFTMAX), "-p", FOUR, *each], capsys)
    assert status == 0, err
    assert "outputs match the reference" in out + err
    assert len(verifies) == count


@pytest.mark.usefixtures("with_test_passes")
@pytest.mark.parametrize("each", [False, True])
@pytest.mark.parametrize("pipeline", BROKEN_PIPELINES)
def test_api_names_the_pass_that_produced_invalid_ir(pipeline: str, each: bool) -> None:
    module = api.parse_module(SOFTMAX.read_text(), str(SOFTMAX))
    with pytest.raises(InvalidAfterPass) as e:
        api.compile(module, pipeline, verify_each=each)
    assert e.value.pass_name == "test-break-ir"
    assert "ReduceMaxD requires attribute 'axes'" in str(e.value)


@pytest.mark.usefixtures("with_test_passes")
@pytest.mark.parametrize("each", [[], ["--verify-each"]])
@pytest.mark.parametrize("pipeline", BROKEN_PIPELINES)
def test_ge_run_names_the_pass_that_produced_invalid_ir(
    pipeline: str, each: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """One located line naming the pass, exit 1 (not the later pass's internal error)."""
    status, _, err = _ge_run([str(SOFTMAX), "-p", pipeline, *each], capsys)
    assert status == 1
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert names_the_broken_pass(lines[0], str(SOFTMAX)), lines[0]


@pytest.mark.usefixtures("with_test_passes")
def test_a_crash_after_valid_ir_is_the_crash(tmp_path: Path) -> None:
    """The rerun finds every pass's IR valid: the pass's own error stands (here the input
    already lacks the attribute, so the input's verify reports it, naming no pass)."""
    src = SOFTMAX.read_text().replace(" {axes = [-1], keep_dims = true}", " {keep_dims = true}", 1)
    assert src != SOFTMAX.read_text()
    with pytest.raises(Exception) as e:
        api.compile(api.parse_module(src, "in.mlir"), "test-noop,test-need-axes")
    assert not isinstance(e.value, InvalidAfterPass)
