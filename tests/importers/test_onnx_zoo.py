"""The generated model zoo (examples/zoo/gen_zoo.py): deterministic, current, small; each
model imports and its reference outputs match onnxruntime's; the imported module compiles
(ge-compile) and runs on the simulator, on 1 and 2 streams, matching the reference, with
the UNet block's skip Concat made zero-copy.

Tolerances are test_onnx_import.py's (float32: rtol 1e-5, atol 1e-6 x max(1, max|ort|)).
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
from xdsl.printer import Printer

from conftest import ROOT
from ge_tools import run as ge_run
from importers.onnx import import_model
from runtime.interpreter import run_module

ZOO = ROOT / "examples" / "zoo"
sys.path.insert(0, str(ZOO))

import gen_zoo  # noqa: E402  (examples/zoo is not a package: on sys.path just above)

MAX_BYTES = 200_000


def inputs_for(name: str) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    if name == "mlp_classifier":
        return [rng.standard_normal((2, 1, 8, 8)).astype(np.float32)]
    if name == "unet_block":
        return [rng.standard_normal((1, 4, 16, 16)).astype(np.float32)]
    if name == "embedding_bag":
        return [rng.integers(0, 50, (2, 6)).astype(np.int64)]
    raise AssertionError(name)


def test_generator_is_deterministic_current_and_small(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert gen_zoo.main(["-o", str(a)]) == 0 and gen_zoo.main(["-o", str(b)]) == 0
    for name in gen_zoo.MODELS:
        data = (a / f"{name}.onnx").read_bytes()
        assert data == (b / f"{name}.onnx").read_bytes(), name
        assert len(data) < MAX_BYTES, name
        assert (ZOO / f"{name}.onnx").read_bytes() == data, f"examples/zoo/{name}.onnx is stale: run gen_zoo.py"
    assert gen_zoo.main(["--check"]) == 0


@pytest.mark.parametrize("name", list(gen_zoo.MODELS))
def test_reference_matches_onnxruntime(name: str) -> None:
    path = ZOO / f"{name}.onnx"
    model = gen_zoo.MODELS[name]()
    inputs = inputs_for(name)
    got = run_module(import_model(model, path.name), inputs)
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want = sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), inputs)})
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6 * max(1.0, float(np.max(np.abs(w)))))


def ge_run_on(name: str, tmp_path: Path, *args: str) -> tuple[int, str]:
    """ge-run (compile, simulate, compare with the reference) on the imported module's text."""
    module = import_model(gen_zoo.MODELS[name](), f"{name}.onnx")
    text = tmp_path / f"{name}.mlir"
    with open(text, "w") as f:
        Printer(stream=f).print_op(module)
    argv = [str(text), *args]
    if name == "embedding_bag":
        np.save(tmp_path / "ids.npy", inputs_for(name)[0])
        argv += ["--input", str(tmp_path / "ids.npy")]
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            ge_run.main(argv)
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("streams", ["1", "2"])
@pytest.mark.parametrize(
    "name",
    [
        "mlp_classifier",
        "unet_block",
        "embedding_bag",
    ],
)
def test_compiles_and_simulates(name: str, streams: str, tmp_path: Path) -> None:
    code, out = ge_run_on(name, tmp_path, "--streams", streams)
    assert code == 0, out
    assert "outputs match the reference" in out
    if name == "unet_block":
        # the zero-copy concat on a real model: the skip connection's ConcatD has no task
        assert "no-task nodes: 1 (_skip_Concat (ConcatD))" in out
