"""ONNX If and Loop on the static path: the models of test_onnx_control.py, the example
examples/control/if_loop_dynamic.onnx with a static batch and a torch.jit.script model with
a data-dependent `if` and `for` (exported to ONNX If and Loop), compiled to label tasks and
run on the simulator (no host), against onnxruntime."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from test_onnx_control import NP, if_model, loop_model, ort_run

from ge_dialect import npu
from ge_tools import api
from importers.onnx import import_model, load_model
from runtime.simulator import load

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "control" / "if_loop_dynamic.onnx"


def static_run(module, feeds: list[np.ndarray], executions: int = 1) -> list[np.ndarray]:  # noqa: ANN001
    model = api.compile(module).model("main")
    assert isinstance(model, npu.ModelOp)
    kinds = {t.name for s in model.stream_ops() for t in s.tasks}
    assert "npu.label_switch_by_index" in kinds  # the control flow is on the device
    loaded = load(model)
    out: list[np.ndarray] = []
    for _ in range(executions):
        out = loaded.execute(feeds)
    return out


def close(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.astype(np.float64), np.asarray(w).astype(np.float64), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize(("elem", "shape", "cond_shape"), [(T.FLOAT, [2, 3], []), (T.INT32, [3, 1, 2], [1, 1])])
@pytest.mark.parametrize("sign", [1, -1])
def test_if_static_matches_onnxruntime(elem: int, shape: list[int], cond_shape: list[int], sign: int) -> None:
    model = if_model(elem, shape, cond_shape)
    rng = np.random.default_rng(len(shape))
    x = (sign * rng.uniform(1, 3, shape)).astype(NP[elem])
    y = rng.uniform(-2, 2, shape).astype(NP[elem])
    close(static_run(import_model(model, "m.onnx"), [x, y], 2), ort_run(model, {"x": x, "y": y}))


@pytest.mark.parametrize("limit", [-100.0, 3.0])
def test_loop_static_matches_onnxruntime(limit: float) -> None:
    model = loop_model(T.FLOAT, [2, 2], True, True)
    feeds = {
        "v0": np.random.default_rng(1).uniform(0, 1, [2, 2]).astype(np.float32),
        "limit": np.array(limit, np.float32),
        "M": np.array(6, np.int64),
        "c": np.array(True),
    }
    close(static_run(import_model(model, "m.onnx"), list(feeds.values())), ort_run(model, feeds))


def test_example_with_a_static_batch_matches_onnxruntime() -> None:
    # the Loop body's and the branches' declared `N` become the static batch
    # (onnx_control.static_subgraph_shapes)
    module = load_model(str(EXAMPLE), input_shapes={"x": (3, 4)})
    for sign in (1, -1):
        x = (sign * np.random.default_rng(2).uniform(0.1, 1, (3, 4))).astype(np.float32)
        close(static_run(module, [x]), ort_run(onnx.load(str(EXAMPLE)), {"x": x}))


def _scripted_if_for() -> onnx.ModelProto:
    torch = pytest.importorskip("torch")

    class IfFor(torch.nn.Module):
        def forward(self, x: torch.Tensor, n: torch.Tensor) -> torch.Tensor:
            if x.sum() > 0:
                y = torch.relu(x) * 2.0
            else:
                y = -x
            for _ in range(int(n)):
                y = y * 0.5 + 1.0
            return y

    f = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            torch.jit.script(IfFor()), (torch.randn(3, 4), torch.tensor(3)), f, dynamo=False, opset_version=13,
            input_names=["x", "n"], output_names=["y"],
        )  # fmt: skip
    return onnx.load_from_string(f.getvalue())


def test_torch_jit_script_if_for_matches_onnxruntime() -> None:
    model = _scripted_if_for()
    assert {"If", "Loop"} <= {n.op_type for n in model.graph.node}
    mod = import_model(model, "m.onnx")
    compiled = api.compile(mod).model("main")
    assert compiled is not None
    loaded = load(compiled)
    rng = np.random.default_rng(4)
    for sign, n in ((1, 0), (1, 3), (-1, 5)):
        x = (sign * rng.uniform(0.1, 1, (3, 4))).astype(np.float32)
        feeds = {"x": x, "n": np.array(n, np.int64)}
        close(loaded.execute(list(feeds.values())), ort_run(model, feeds))
