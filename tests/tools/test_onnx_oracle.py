"""ge_tools/onnx_oracle.py: onnxruntime as ge-run's oracle for an ONNX model.

The per-dtype tolerance check by hand-made arrays (NaN equals NaN, integers exact, the
float32 and float16 bounds on both sides of the line), the comparison of the zoo MLP with
onnxruntime (its own outputs match; one element moved past the tolerance does not), and
ge-run's exit status and verdict line when onnxruntime disagrees.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from conftest import ROOT
from ge_tools import onnx_oracle
from ge_tools import run as ge_run

MLP = ROOT / "examples" / "zoo" / "mlp_classifier.onnx"


def test_float32_tolerance_both_sides():
    want = np.array([1.0, -2.0, 1000.0], np.float32)
    atol, rtol = onnx_oracle.TOLERANCES["float32"]
    inside = want + np.array([atol * 0.5, 0.0, rtol * 1000.0 * 0.9], np.float32)
    outside = want + np.array([0.0, 0.0, rtol * 1000.0 * 3], np.float32)
    assert onnx_oracle.check_output("y", inside, want).bad == 0
    c = onnx_oracle.check_output("y", outside, want)
    assert c.bad == 1 and c.max_abs == pytest.approx(0.3, rel=1e-3) and c.max_rel == pytest.approx(3e-4, rel=1e-2)


def test_float16_is_looser_and_nan_equals_nan():
    want = np.array([1.0, np.nan, np.inf], np.float16)
    assert onnx_oracle.check_output("h", np.array([1.005, np.nan, np.inf], np.float16), want).bad == 0
    assert onnx_oracle.check_output("h", np.array([1.05, np.nan, np.inf], np.float16), want).bad == 1
    assert onnx_oracle.check_output("h", np.array([1.0, 0.0, -np.inf], np.float16), want).bad == 2


def test_integers_and_bools_compare_exactly_and_empty_outputs_match():
    assert onnx_oracle.check_output("i", np.array([3, 4], np.int64), np.array([3, 5], np.int64)).bad == 1
    assert onnx_oracle.check_output("b", np.array([True, False]), np.array([True, True])).bad == 1
    assert onnx_oracle.check_output("e", np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32)).bad == 0


def test_zoo_mlp_matches_and_a_moved_element_does_not():
    x = np.random.default_rng(0).standard_normal((2, 1, 8, 8)).astype(np.float32)
    _, (want,) = onnx_oracle.run_onnxruntime(str(MLP), [x])
    assert onnx_oracle.compare_with_onnxruntime(str(MLP), [x], [want]).ok
    moved = want.copy()
    moved[1, 3] += 0.01
    r = onnx_oracle.compare_with_onnxruntime(str(MLP), [x], [moved])
    assert not r.ok and r.outputs[0].bad == 1 and r.outputs[0].name == "logits"
    out = io.StringIO()
    with redirect_stdout(out):
        assert onnx_oracle.print_oracle(r) == 1
    assert "outputs do not match onnxruntime (1 elements differ, 0 shape mismatches)" in out.getvalue()
    bad_shape = onnx_oracle.compare_with_onnxruntime(str(MLP), [x], [want[:1]])
    assert not bad_shape.ok and "shape [1, 10], onnxruntime's [2, 10]" in bad_shape.shape_errors[0]


def test_ge_run_exits_1_when_onnxruntime_disagrees(monkeypatch):
    real = onnx_oracle.run_onnxruntime

    def off_by_one(path, inputs):
        names, outs = real(path, inputs)
        return names, [o + 1 for o in outs]

    monkeypatch.setattr(onnx_oracle, "run_onnxruntime", off_by_one)
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()), pytest.raises(SystemExit) as e:
        ge_run.main([str(MLP)])
    assert e.value.code == 1
    text = out.getvalue()
    assert "outputs match the reference" in text  # the compiled program agrees with the reference
    assert "outputs do not match onnxruntime (20 elements differ" in text
