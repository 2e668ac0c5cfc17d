"""ONNX Resize's coordinate modes and nearest modes, on generated cases, against
onnxruntime: the reference and the compiled program (ge-compile + simulator).

GE's Resize plugin (resize_plugin.cc) makes nearest a ResizeNearestNeighborV2 and linear a
ResizeBilinearV2; where its attributes would compute other numbers than ONNX, the
importer gives the same op the attribute setting that computes ONNX's pixels for the
node's sizes, else it makes GE's Resize op (image_ops.h: REG_OP(Resize), ONNX's
attributes). Beyond the plugin, cubic, tf_crop_and_resize (the roi) and scales computed
from the data are GE's Resize too. Every generated case must import (except the refusals
at the end), and match onnxruntime: nearest exactly, linear and cubic within float32 /
float16 rounding.
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


def _data_model(mode: str, coord: str, by: str, axes: list[int] | None, elem: int = T.FLOAT, **attrs):
    """One Resize of x [1, 2, 4, 5] whose scales or sizes (and roi for tf_crop_and_resize)
    are graph inputs, fed as data (one value per axis of `axes`); the output shape
    declared (ONNX's inference cannot follow data)."""
    k = len(axes) if axes else 4
    inputs = [("x", elem, X_SHAPE)]
    names = ["x", "", "", ""]
    if coord == "tf_crop_and_resize":
        inputs.append(("roi", T.FLOAT, [2 * k]))
        names[1] = "roi"
    if by == "scales":
        inputs.append(("scales", T.FLOAT, [k]))
        names[2] = "scales"
    else:
        inputs.append(("sizes", T.INT64, [k]))
        names[3] = "sizes"
    names = names[: 3 if by == "scales" else 4]
    kw = dict(mode=mode, coordinate_transformation_mode=coord, **attrs)
    if axes:
        kw["axes"] = axes
    node = h.make_node("Resize", names, ["y"], name="rs", **kw)
    return make_onnx_model([node], inputs, ["y"], opset=19)


def _data_check(m, feeds: dict[str, np.ndarray], out_hw: tuple[int, int]) -> None:
    """The model with its output shape declared (`out_hw`): the reference against
    onnxruntime (or ONNX's reference where the two disagree), the compiled program against the reference within the error bound."""
    m.graph.output[0].type.tensor_type.shape.dim[2].dim_value = out_hw[0]
    m.graph.output[0].type.tensor_type.shape.dim[3].dim_value = out_hw[1]
    module = import_model(m, "rs.onnx")
    args = list(feeds.values())
    (ref,) = api.reference(module, args)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    (want,) = sess.run(None, feeds)
    assert ref.shape == want.shape == (*X_SHAPE[:2], *out_hw)
    if not _same(ref, want, exact=False):
        # onnxruntime's cubic tf_crop_and_resize is not ONNX's (its reference's, which
        # the node tests' data hold): ours must then be the reference's
        spec = ReferenceEvaluator(m).run(None, feeds)[0]
        assert _same(ref, spec, exact=False) and not _same(spec, want, exact=False)
    (sim,) = api.simulate(module, args).outputs
    bound = output_error_bounds(select_graph(module, None), args)[0]
    assert ge_run.within_tolerance(sim, ref, bound).all()


CUBIC_CASES = [
    ("half_pixel", -0.75, 0, (8, 10)),
    ("half_pixel", -0.5, 1, (3, 3)),
    ("align_corners", -0.75, 0, (7, 3)),
    ("asymmetric", -0.75, 1, (6, 15)),
    ("pytorch_half_pixel", -0.5, 0, (1, 5)),
    ("half_pixel_symmetric", -0.75, 0, (2, 7)),
]


@pytest.mark.parametrize(
    ("coord", "a", "excl", "out_hw"), CUBIC_CASES, ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in CUBIC_CASES]
)
@pytest.mark.parametrize("elem", [T.FLOAT, T.FLOAT16])
def test_cubic_matches_onnxruntime(coord: str, a: float, excl: int, out_hw: tuple[int, int], elem: int) -> None:
    # beyond the plugin (it refuses cubic): GE's Resize with cubic_coeff_a and exclude_outside
    m = _model("cubic", coord, None, out_hw, elem=elem)
    m.graph.node[0].attribute.extend([h.make_attribute("cubic_coeff_a", a), h.make_attribute("exclude_outside", excl)])
    assert _check(m, elem, 7) == "Resize"


@pytest.mark.parametrize(
    ("mode", "coord", "scales", "axes", "out_hw"),
    [
        ("nearest", "half_pixel", [1, 1, 2.0, 3.0], None, (8, 15)),
        ("nearest", "asymmetric", [3.0, 2.0], [3, 2], (8, 15)),
        ("linear", "half_pixel", [0.6, 0.6], [2, 3], (2, 3)),
        ("linear", "align_corners", [1, 1, 1.5, 0.8], None, (6, 4)),
        ("cubic", "half_pixel", [0.8, 2.5], [-2, -1], (3, 12)),
        ("cubic", "asymmetric", [1, 1, 2.0, 2.0], None, (8, 10)),
    ],
)
def test_scales_from_data_match_onnxruntime(mode, coord, scales, axes, out_hw) -> None:
    # the scales are data: GE's Resize reads them when it runs (the coordinates use the
    # scale, not out / in: 0.6 of 4 pixels is 2 pixels at scale 0.6)
    m = _data_model(mode, coord, "scales", axes)
    x = _input(T.FLOAT, 5)
    _data_check(m, {"x": x, "scales": np.array(scales, np.float32)}, out_hw)
    ops = [ge.ge_type(o) for o in select_graph(import_model(m, "rs.onnx"), None).body.block.ops]
    assert "Resize" in ops and ("GatherV2" in ops) == (axes is not None)


@pytest.mark.parametrize(
    ("mode", "roi", "sizes", "axes", "extrapolation"),
    [
        ("linear", [0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8], [1, 2, 3, 3], None, 0.0),
        ("linear", [0.4, 0.6, 0.6, 0.8], [3, 3], [2, 3], 0.0),
        ("linear", [0.6, 0.4, 0.8, 0.6], [3, 3], [3, 2], 0.0),
        ("linear", [0, 0, -0.2, 0.5, 1, 1, 1.3, 1.2], [1, 2, 5, 4], None, 10.0),
        ("nearest", [0, 0, 0.1, 0.2, 1, 1, 0.9, 1.4], [1, 2, 6, 4], None, -1.0),
        ("cubic", [0, 0, 0.2, 0.1, 1, 1, 0.9, 0.7], [1, 2, 4, 7], None, 0.0),
    ],
)
def test_crop_and_resize_matches_onnxruntime(mode, roi, sizes, axes, extrapolation) -> None:
    # beyond the plugin (no roi crop): GE's Resize with the roi input and
    # extrapolation_value for the outputs whose coordinate falls outside the input
    m = _data_model(mode, "tf_crop_and_resize", "sizes", axes, extrapolation_value=extrapolation)
    x = _input(T.FLOAT, 9)
    feeds = {"x": x, "roi": np.array(roi, np.float32), "sizes": np.array(sizes, np.int64)}
    hw = (sizes[-2], sizes[-1]) if axes != [3, 2] else (sizes[1], sizes[0])
    _data_check(m, feeds, hw)


def test_cubic_bound_covers_negative_weights() -> None:
    # cubic weights have either sign: a bound from the signed weights could cancel to 0;
    # the rule combines |weights|, so a perturbation of x moves the output within it
    m = _model("cubic", "half_pixel", None, (8, 10))
    module = import_model(m, "rs.onnx")
    x = _input(T.FLOAT, 11)
    bound = output_error_bounds(select_graph(module, None), [x])[0]
    (ref,) = api.reference(module, [x])
    rng = np.random.default_rng(3)
    for _ in range(5):
        dx = (rng.uniform(-1, 1, x.shape) * 1e-3).astype(np.float32)
        (moved,) = api.reference(module, [x + dx])
        spread = output_error_bounds(select_graph(module, None), [x], input_bounds=[np.full(x.shape, 1e-3)])[0]
        assert (np.abs(moved.astype(np.float64) - ref) <= spread + 1e-6).all()
    assert (bound > 0).all()


@pytest.mark.parametrize(
    ("m", "msg"),
    [
        (_model("linear", "tf_half_pixel_for_nn", None, (8, 10), opset=19), "not a mode of Resize at opset 19"),
        (_model("linear", "half_pixel_symmetric", None, (8, 10), opset=18), "not a mode of Resize at opset 18"),
        (_data_model("linear", "half_pixel", "scales", None, antialias=1), "antialias = 1 is not supported"),
        (_data_model("cubic", "half_pixel", "sizes", [2, 3], antialias=1), "antialias = 1 is not supported"),
        (
            _data_model("nearest", "half_pixel", "sizes", [2, 3], keep_aspect_ratio_policy="not_larger"),
            r"input 3 \('sizes'\) must be a constant with keep_aspect_ratio_policy not_larger",
        ),
    ],
    ids=["tf-half-pixel-at-19", "half-pixel-symmetric-at-18", "antialias-scales", "antialias-sizes", "policy"],
)
def test_refused(m, msg: str) -> None:
    with pytest.raises(OnnxImportError, match=msg) as e:
        import_model(m, "rs.onnx")
    assert "\n" not in str(e.value)
