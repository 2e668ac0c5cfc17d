"""The generated model zoo (examples/zoo/gen_zoo.py): deterministic, current, small; per
model: import, the reference's outputs against onnxruntime's, and `ge-run MODEL.onnx`
(import, ge-compile, simulate on 1 and 2 streams, compare with the reference and with
onnxruntime, ge_tools/onnx_oracle.py), and what its remarks show fused and no-task
(FUSED_GROUPS, NO_TASK). The UNet block's skip Concat is zero-copy; the
MLP's PyTorch flatten (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) and Dropout are
folded and removed by the prepare passes.

Tolerances of the reference check are test_onnx_import.py's (float32: rtol 1e-5, atol
1e-6 x max(1, max|ort|)); ge-run's onnxruntime check uses onnx_oracle.TOLERANCES.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
from xdsl.context import Context

from conftest import ROOT, run_cli
from ge_dialect import ge
from ge_tools import run as ge_run
from importers.onnx import import_model
from passes.prepare.constant_folding import ConstantFoldingPass
from passes.prepare.dimension_compute import DimensionComputePass
from passes.prepare.dropout import DropOutPass
from runtime.interpreter import run_module

ZOO = ROOT / "examples" / "zoo"
sys.path.insert(0, str(ZOO))

import gen_zoo  # noqa: E402  (examples/zoo is not a package: on sys.path just above)

MAX_BYTES = 200_000

MODEL_PARAMS = list(gen_zoo.MODELS)


def inputs_for(name: str) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    if name == "embedding_bag":
        return [rng.integers(0, 50, (2, 6)).astype(np.int64)]
    model = gen_zoo.MODELS[name]()
    shape = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    return [rng.standard_normal(shape).astype(np.float32)]


def test_generator_is_deterministic_current_and_small(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert gen_zoo.main(["-o", str(a)]) == 0 and gen_zoo.main(["-o", str(b)]) == 0
    for name in gen_zoo.MODELS:
        data = (a / f"{name}.onnx").read_bytes()
        assert data == (b / f"{name}.onnx").read_bytes(), name
        assert len(data) < MAX_BYTES, name
        assert (ZOO / f"{name}.onnx").read_bytes() == data, f"examples/zoo/{name}.onnx is stale: run gen_zoo.py"
    assert gen_zoo.main(["--check"]) == 0


@pytest.mark.parametrize("name", MODEL_PARAMS)
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
    """`ge-run examples/zoo/NAME.onnx ARGS` (import, compile, simulate, compare with the
    reference and onnxruntime)."""
    argv = [str(ZOO / f"{name}.onnx"), *args]  # ge-run's own inputs (ids in the vocabulary)
    code, out, err = run_cli(ge_run.main, argv)
    return code, out + err


@pytest.mark.parametrize("streams", ["1", "2"])
@pytest.mark.parametrize("name", MODEL_PARAMS)
def test_compiles_simulates_and_matches_onnxruntime(name: str, streams: str, tmp_path: Path) -> None:
    code, out = ge_run_on(name, tmp_path, "--streams", streams)
    assert code == 0, out
    assert "outputs match the reference" in out
    assert "outputs match onnxruntime" in out
    assert out.count("onnxruntime: output '") == len(gen_zoo.MODELS[name]().graph.output)
    if name == "unet_block":
        # the zero-copy concat on a real model: the skip connection's ConcatD has no task
        assert "no-task nodes: 1 (_skip_Concat (ConcatD))" in out


def test_mlp_flatten_and_dropout_are_prepared_away() -> None:
    # the PyTorch flatten's Shape folds (DimensionComputePass), the Gather / Unsqueeze /
    # Concat chain on it folds (ConstantFoldingPass), the Reshape reads a Const [2, -1]
    # (checked by hand: the batch dim of 2x1x8x8, then -1), the Dropout goes (DropOutPass)
    module = import_model(gen_zoo.mlp_classifier(), "mlp_classifier.onnx")
    kinds = {type(op) for op in module.walk()}
    assert {ge.Shape, ge.GatherV2, ge.UnsqueezeV3, ge.ConcatD, ge.Dropout} <= kinds
    ctx = Context()
    for p in (DimensionComputePass(), ConstantFoldingPass(), DropOutPass()):
        p.apply(ctx, module)
    module.verify()
    left = {type(op) for op in module.walk()}
    assert not left & {ge.Shape, ge.GatherV2, ge.UnsqueezeV3, ge.ConcatD, ge.Dropout}
    (reshape,) = [op for op in module.walk() if isinstance(op, ge.Reshape)]
    shape_op = reshape.operands[1].owner
    assert isinstance(shape_op, ge.Const) and ge.const_ints(reshape.operands[1]) == [2, -1]
    x = inputs_for("mlp_classifier")
    want = ort.InferenceSession(str(ZOO / "mlp_classifier.onnx"), providers=["CPUExecutionProvider"]).run(
        None, {"image": x[0]}
    )
    np.testing.assert_allclose(run_module(module, x)[0], want[0], rtol=1e-5, atol=1e-6)


def test_unet_block_shows_a_zero_copy_concat_and_a_fusion() -> None:
    """The README's first command (make example) on a real model: the skip Concat is
    no-task and the residual Add and the output Relu become one kernel (GE's first-stage
    fusion: ge-lower-autofuse lowers both into one AscBackend)."""
    from ge_tools import api

    result = api.compile(api.load(str(ZOO / "unet_block.onnx")))
    into = {r.nodes[0]: r.nodes[1] for r in result.remarks if r.verdict == "lowered"}
    assert into["_residual_Add"] == into["_out_Relu"] == "autofuse_pointwise_3_Add_Relu"
    marked = [r.nodes for r in result.remarks if r.pass_name == "ge-concat-notask" and r.verdict == "marked"]
    assert marked == [("_skip_Concat", "_enc2_Relu", "_enc1_Relu")]
    assert result.stats["no_task_nodes"] == ["_skip_Concat (ConcatD)"]


# Per zoo model, what the remarks show (checked by hand against each model's graph in
# gen_zoo.py): the pointwise groups that fuse into one kernel (a chain whose inner values
# have one consumer each; every other pointwise node is a kernel of its own) and the
# no-task nodes (a zero-copy concat, reshapes that are views).
FUSED_GROUPS: dict[str, list[list[str]]] = {
    "embedding_bag": [],
    "mlp_classifier": [],
    "mobilenetv2_inverted_residual": [],
    "resnet_basic_block": [["_residual_Add", "_relu2_Relu"]],
    "transformer_encoder_layer": [
        ["_attn.output_Add", "_attn_residual_Add"],
        ["_mlp_gelu_Div", "_mlp_gelu_Erf", "_mlp_gelu_Add", "_mlp_gelu_Mul"],
        ["_mlp.fc2_Add", "_mlp_residual_Add"],
    ],
    "unet_block": [["_residual_Add", "_out_Relu"]],
}
NO_TASK: dict[str, list[str]] = {
    "embedding_bag": [],
    "mlp_classifier": ["_Reshape (Reshape)"],
    "mobilenetv2_inverted_residual": [],
    "resnet_basic_block": [],
    "transformer_encoder_layer": [f"_attn_{v}_Reshape (Reshape)" for v in ("query", "key", "value", "context")],
    "unet_block": ["_skip_Concat (ConcatD)"],
}


@pytest.mark.parametrize("name", MODEL_PARAMS)
def test_remarks_show_what_fused_and_what_went_zero_copy(name: str) -> None:
    from ge_tools import api

    result = api.compile(api.load(str(ZOO / f"{name}.onnx")))
    into: dict[str, list[str]] = {}
    for r in result.remarks:
        if r.verdict == "lowered":
            into.setdefault(r.nodes[1], []).append(r.nodes[0])
    groups = sorted(sorted(v) for v in into.values() if len(v) > 1)
    assert groups == sorted(sorted(g) for g in FUSED_GROUPS[name])
    assert result.stats["no_task_nodes"] == NO_TASK[name]
    zero_copy = [r.nodes[0] for r in result.remarks if r.pass_name == "ge-concat-notask" and r.verdict == "marked"]
    assert zero_copy == [n.split(" ")[0] for n in NO_TASK[name] if "Concat" in n]
