"""ge_fast's switch (GE_XDSL_FAST=0, --no-fast-paths, `stock()`) sends every call to xDSL's
own code, and the tools' output is byte-identical either way: the printed IR of every
example (examples/*.mlir, examples/control), of the ONNX models (examples/zoo, the control
model) through ge-import and of 400 random graphs (tests/random_graphs.py) through
ge-compile, and the errors where there are errors.

The comparisons are not vacuous: each test checks that the fast paths ran in one mode and
not in the other (the verifier's counts, the printer's class, the op builder's calls)."""

from __future__ import annotations

import gc
import io
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from xdsl.dialects.builtin import i32
from xdsl.dialects.test import TestOp
from xdsl.ir import Operation
from xdsl.passes import PassPipeline

from conftest import ROOT
from ge_dialect.verify import verify_module
from ge_fast import Switch, beside, enabled, process, stock
from ge_fast import verify as V
from ge_fast.op_builder import new_op
from ge_tools import import_onnx, opt
from ge_tools.parse import UserError, parse_module
from ge_tools.pass_callback import PipelineCallback
from ge_tools.pipeline_spec import build_pipeline
from ge_tools.printer import GePrinter, ResourcePrinter, print_module, printer_class
from ge_tools.registry import get_all_passes, make_context
from random_graphs import Options, generate

EXAMPLES = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "examples" / "control").glob("*.mlir"))
MODELS = sorted((ROOT / "examples" / "zoo").glob("*.onnx")) + sorted((ROOT / "examples" / "control").glob("*.onnx"))
RANDOM_GRAPHS = 400


@contextmanager
def fast(on: bool) -> Iterator[None]:
    with stock(off=not on):
        yield


def test_the_switch_reaches_each_fast_path(monkeypatch):
    text = EXAMPLES[0].read_text()
    created = [0]
    plain_create = Operation.create.__func__  # pyright: ignore[reportFunctionMemberAccess]

    def counted(cls: type[Operation], **kw: object) -> Operation:
        created[0] += 1
        return plain_create(cls, **kw)

    monkeypatch.setattr(Operation, "create", classmethod(counted))
    seen = {}
    for on in (True, False):
        with fast(on):
            assert enabled() is on
            m = parse_module(make_context(), text, "x.mlir")
            V.VERIFY_COUNTS.fast = V.VERIFY_COUNTS.xdsl = 0
            verify_module(m)
            created[0] = 0
            new_op(TestOp, result_types=[i32])
            seen[on] = (V.VERIFY_COUNTS.fast, created[0], printer_class())
    assert seen[True][0] > 0 and seen[False][0] == 0  # the compiled verifier, or xDSL's
    assert seen[True][1] == 0 and seen[False][1] == 1  # the op builder, or Operation.create
    assert seen[True][2] is GePrinter and seen[False][2] is ResourcePrinter
    thresholds = gc.get_threshold()
    try:
        with fast(False):
            assert not beside.can_fork()  # no fork: the print in-process
            process.tune_gc()
            assert gc.get_threshold() != process.GC_THRESHOLDS
        with fast(True):
            process.tune_gc()
            assert gc.get_threshold() == process.GC_THRESHOLDS
    finally:
        gc.set_threshold(*thresholds)  # the test process's own (tests/conftest.py)


def _ge_opt(argv: list[str], out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """ge-opt in-process: what it wrote (the output file, or the error line)."""
    with stock(off=False):  # put back what --no-fast-paths sets for the rest of the process
        try:
            opt.main([*argv, "-o", str(out)])
        except SystemExit as e:
            assert e.code == 1
            return "error: " + capsys.readouterr().err
    capsys.readouterr()
    return out.read_text()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_compile_to_the_same_text(path: Path, tmp_path: Path, capsys):
    argv = [str(path), "-p", "ge-compile"]
    on = _ge_opt(argv, tmp_path / "on.mlir", capsys)
    off = _ge_opt([*argv, "--no-fast-paths"], tmp_path / "off.mlir", capsys)
    assert on == off
    assert enabled()  # the flag's effect ended with the run (stock() put it back)


@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.name)
def test_models_import_and_compile_to_the_same_text(path: Path, tmp_path: Path, capsys):
    texts = []
    for flags in ([], ["--no-fast-paths"]):
        out = tmp_path / f"m{len(texts)}.mlir"
        with stock(off=False):
            try:
                import_onnx.main([str(path), "--dynamic-dims", "-o", str(out), *flags])
                imported = out.read_text()
            except SystemExit:
                imported = "error: " + capsys.readouterr().err
        compiled = _ge_opt([str(out), "-p", "ge-compile", *flags], tmp_path / f"c{len(texts)}.mlir", capsys)
        texts.append((imported, compiled))
    assert texts[0] == texts[1]
    assert not texts[0][0].startswith("error:")


def _compiler() -> Callable[[str, str], str]:
    ctx = make_context()
    passes = build_pipeline("ge-compile", get_all_passes())

    def compiled(text: str, name: str) -> str:
        try:
            m = parse_module(ctx, text, name)
            PassPipeline(passes, PipelineCallback()).apply(ctx, m)
        except (UserError, Exception) as e:  # the error's text is compared too
            return f"error: {type(e).__name__}: {e}"
        out = io.StringIO()
        print_module(m, out)
        return out.getvalue()

    return compiled


def test_random_graphs_compile_to_the_same_text():
    compiled = _compiler()
    differ, errors = [], 0
    V.VERIFY_COUNTS.fast = 0
    for seed in range(RANDOM_GRAPHS):
        text = generate(seed, Options(min_ops=3, max_ops=8)).text()
        with fast(True):
            on = compiled(text, f"random{seed}.mlir")
        fast_verified = V.VERIFY_COUNTS.fast
        with fast(False):
            off = compiled(text, f"random{seed}.mlir")
        assert V.VERIFY_COUNTS.fast == fast_verified  # nothing fast with the switch off
        errors += on.startswith("error:")
        if on != off:
            differ.append(seed)
    assert differ == []
    assert V.VERIFY_COUNTS.fast > 0 and errors < RANDOM_GRAPHS // 10


def test_the_environment_variable_turns_it_off():
    code = "import ge_fast, sys; sys.stdout.write(str(ge_fast.enabled()))"
    env = {**os.environ, "GE_XDSL_FAST": "0"}
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert got.stdout == "False"
    env["GE_XDSL_FAST"] = "1"
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert got.stdout == "True"
    assert Switch.on  # this process: on
