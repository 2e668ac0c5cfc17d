"""ONNX Resize's coordinate modes and nearest modes, on generated cases, against
onnxruntime: the reference and the compiled program (ge-compile + simulator).

GE's Resize plugin (resize_plugin.cc) makes nearest a ResizeNearestNeighborV2 and linear a
ResizeBilinearV2; where its attributes would compute other numbers than ONNX, the
importer gives the same op the attribute setting that computes ONNX's pixels for the
node's sizes, else it makes GE's Resize op (image_ops.h: REG_OP(Resize), ONNX's
attributes). Every generated case must import (except the refusals at the end), and
match onnxruntime: nearest exactly, linear within float32 / float16 rounding.
"""

from __future__ import annotations

import itertools

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx.reference import ReferenceEvaluator

from conftest import make_onnx_model
from ge_dialect import ge
from ge_tools import api
from ge_tools import run as ge_run
from importers.onnx import OnnxImportError, import_model
from runtime.error_bound import output_error_bounds
from runtime.reference import select_graph

COORDS = [
    "half_pixel",
    "half_pixel_symmetric",
    "pytorch_half_pixel",
    "align_corners",
    "asymmetric",
    "tf_half_pixel_for_nn",
]
NEAREST = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]
X_SHAPE = [1, 2, 4, 5]
# output H, W: up, down, odd ratios, one pixel, mixed
SIZES = [(8, 10), (2, 2), (3, 7), (7, 3), (1, 5), (6, 15)]


def _model(mode: str, coord: str, nm: str | None, out_hw=None, scales=None, elem: int = T.FLOAT, opset: int = 0):
    """One Resize of x [1, 2, 4, 5] to `out_hw` (the sizes input) or by `scales` (H, W),
    at opset 19, or 11 for tf_half_pixel_for_nn (a mode of Resize-11 only)."""
    opset = opset or (11 if coord == "tf_half_pixel_for_nn" else 19)
    inits: dict[str, np.ndarray] = {"roi": np.zeros(0, np.float32)}
    if out_hw is not None:
        inits["scales"] = np.zeros(0, np.float32)
        inits["sizes"] = np.array([*X_SHAPE[:2], *out_hw], np.int64)
        inputs = ["x", "roi", "scales", "sizes"]
    else:
        inits["scales"] = np.array([1, 1, *scales], np.float32)
        inputs = ["x", "roi", "scales"]
    attrs = {"mode": mode, "coordinate_transformation_mode": coord}
    if nm is not None:
        attrs["nearest_mode"] = nm
    node = h.make_node("Resize", inputs, ["y"], name="rs", **attrs)
    return make_onnx_model([node], [("x", elem, X_SHAPE)], ["y"], inits, opset=opset)


def _input(elem: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if elem == T.INT32:
        return rng.integers(-50, 50, X_SHAPE).astype(np.int32)
    if elem == T.UINT8:
        return rng.integers(0, 255, X_SHAPE).astype(np.uint8)
    return rng.standard_normal(X_SHAPE).astype(np.float16 if elem == T.FLOAT16 else np.float32)


def _check(m, elem: int, seed: int) -> str:
    """Import, the reference against onnxruntime, the compiled program against the
    reference within the error bound; the GE op type made."""
    module = import_model(m, "rs.onnx")
    x = _input(elem, seed)
    (ref,) = api.reference(module, [x])
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    (want,) = sess.run(None, {"x": x})
    assert ref.dtype == want.dtype and ref.shape == want.shape
    exact = {a.name: a.s for a in m.graph.node[0].attribute}["mode"] == b"nearest"
    if not _same(ref, want, exact):
        # a source coordinate that is a whole number in exact arithmetic, rounded by floor or
        # ceil, can fall either side in float32: onnxruntime and ONNX's reference disagree
        # there; ours must then be the reference's (ONNX's definition) and differ from ort's
        spec = ReferenceEvaluator(m).run(None, {"x": x})[0]
        assert _same(ref, spec, exact) and not _same(spec, want, exact), (
            "differs from onnxruntime and from ONNX's reference"
        )
    model = api.compile(module).model()
    assert model is not None
    (sim,) = api.simulate(model, [x]).outputs
    bound = output_error_bounds(select_graph(module, None), [x])[0]
    assert ge_run.within_tolerance(sim, ref, bound).all()
    (op,) = [o for o in select_graph(module, None).body.block.ops if ge.ge_type(o).startswith("Resize")]
    return ge.ge_type(op)


def _same(got: np.ndarray, want: np.ndarray, exact: bool) -> bool:
    """Nearest and integer results exactly; linear within float32 / float16 rounding."""
    if exact or got.dtype.kind in "iu":
        return bool(np.array_equal(got, want))
    tol = 1e-2 if got.dtype == np.float16 else 1e-5
    return bool(np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol))


NEAREST_CASES = list(itertools.product(COORDS, NEAREST, SIZES))


@pytest.mark.parametrize(
    ("coord", "nm", "out_hw"), NEAREST_CASES, ids=[f"{c}-{n}-{o[0]}x{o[1]}" for c, n, o in NEAREST_CASES]
)
def test_nearest_matches_onnxruntime(coord: str, nm: str, out_hw: tuple[int, int]) -> None:
    _check(_model("nearest", coord, nm, out_hw), T.FLOAT, len(coord) + out_hw[0])


LINEAR_CASES = list(itertools.product(COORDS, SIZES))


@pytest.mark.parametrize(("coord", "out_hw"), LINEAR_CASES, ids=[f"{c}-{o[0]}x{o[1]}" for c, o in LINEAR_CASES])
def test_linear_matches_onnxruntime(coord: str, out_hw: tuple[int, int]) -> None:
    _check(_model("linear", coord, None, out_hw), T.FLOAT, len(coord) + out_hw[1])


@pytest.mark.parametrize(
    ("mode", "elem", "scales"),
    [
        ("nearest", T.INT32, (2.0, 3.0)),
        ("nearest", T.UINT8, (0.5, 2.0)),
        ("nearest", T.FLOAT16, (1.5, 0.6)),
        ("linear", T.FLOAT16, (2.0, 0.8)),
        ("linear", T.FLOAT, (1.75, 1.25)),
    ],
)
@pytest.mark.parametrize("coord", ["half_pixel", "asymmetric", "pytorch_half_pixel"])
def test_scales_and_dtypes_match_onnxruntime(mode: str, elem: int, scales: tuple[float, float], coord: str) -> None:
    _check(_model(mode, coord, "round_prefer_floor" if mode == "nearest" else None, scales=scales, elem=elem), elem, 3)


@pytest.mark.parametrize(
    ("mode", "coord", "nm", "out_hw", "ge_type", "flags"),
    [
        # the plugin's own attributes where they compute ONNX's numbers
        ("linear", "pytorch_half_pixel", None, (8, 10), "ResizeBilinearV2", (False, True)),
        ("linear", "align_corners", None, (7, 3), "ResizeBilinearV2", (True, False)),
        ("nearest", "asymmetric", "floor", (8, 10), "ResizeNearestNeighborV2", (False, False)),
        # ONNX's default half_pixel: the plugin would compute asymmetric; half_pixel_centers is ONNX's
        ("linear", "half_pixel", None, (3, 7), "ResizeBilinearV2", (False, True)),
        ("nearest", "tf_half_pixel_for_nn", "floor", (6, 15), "ResizeNearestNeighborV2", (False, True)),
        # no setting of ResizeNearestNeighborV2 rounds ceil: GE's Resize with ONNX's attributes
        ("nearest", "half_pixel", "ceil", (8, 10), "Resize", None),
        ("nearest", "asymmetric", "ceil", (8, 10), "Resize", None),
    ],
)
def test_which_ge_op(mode, coord, nm, out_hw, ge_type: str, flags) -> None:
    module = import_model(_model(mode, coord, nm, out_hw), "rs.onnx")
    (op,) = [o for o in select_graph(module, None).body.block.ops if ge.ge_type(o).startswith("Resize")]
    assert ge.ge_type(op) == ge_type
    if flags is not None:
        got = (op.attributes["align_corners"].value.data != 0, op.attributes["half_pixel_centers"].value.data != 0)
        assert got == flags
    else:
        assert op.attributes["coordinate_transformation_mode"].data == coord
        assert op.attributes["mode"].data == mode


@pytest.mark.parametrize(
    ("m", "msg"),
    [
        (_model("cubic", "half_pixel", None, (8, 10)), "attribute mode = cubic is not supported"),
        (_model("linear", "tf_crop_and_resize", None, (8, 10)), "tf_crop_and_resize is not supported"),
        (_model("linear", "tf_half_pixel_for_nn", None, (8, 10), opset=19), "not a mode of Resize at opset 19"),
        (_model("linear", "half_pixel_symmetric", None, (8, 10), opset=18), "not a mode of Resize at opset 18"),
    ],
    ids=["cubic", "tf-crop-and-resize", "tf-half-pixel-at-19", "half-pixel-symmetric-at-18"],
)
def test_refused(m, msg: str) -> None:
    with pytest.raises(OnnxImportError, match=msg) as e:
        import_model(m, "rs.onnx")
    assert "\n" not in str(e.value)
