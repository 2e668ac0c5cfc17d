"""The structural and compute ops of real models through the ONNX importer: BatchNormalization,
MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool, Pad, Slice, Tile, MatMul above rank 2
(BatchMatMulV2), ArgMax, ArgMin, GatherElements, Trilu, Resize and ConvTranspose.

For every case a tiny model is built with onnx.helper:

* `test_import`: the ge ops it imports to (type, the GE attributes the plugin sets, output
  shapes), written by hand from the plugin file the converter cites;
* `test_numbers`: the reference interpreter on the imported module against onnxruntime on
  the model, same seeded inputs (tolerances: test_onnx_import.py's, float32 rtol 1e-5 and
  atol 1e-6 x max(1, max|ort|), float16 1e-3);
* `test_compiles_and_simulates`: ge-run (ge-compile, the simulator on 1 and 2 streams,
  compared with the reference) on the imported module of one case per op;
* `test_refused`: each attribute value the converters refuse is one located error line.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper
from xdsl.printer import Printer

from conftest import STRUCTURAL_ONNX_OPS, imported_compute_ops, onnx_attr_value, run_cli
from conftest import make_onnx_model as make_model
from ge_dialect.desc import shape_of
from ge_tools import run as ge_run
from importers.onnx import MAPPINGS, OnnxImportError, import_model
from runtime.interpreter import run_module

TOLERANCES: dict[str, tuple[float, float]] = {"float32": (1e-5, 1e-6), "float16": (1e-3, 1e-3)}
F, H = T.FLOAT, T.FLOAT16
_NP = {T.FLOAT: np.float32, T.FLOAT16: np.float16, T.INT32: np.int32, T.INT64: np.int64}


def one(op: str, x: tuple[int, list[int]], inits=None, opset: int = 17, names=None, **attrs) -> onnx.ModelProto:
    """One `op` node on graph input x and the initializers (in order; "" skips an input)."""
    ins = ["x", *(names if names is not None else list((inits or {}).keys()))]
    node = h.make_node(op, ins, ["y"], name="n", **attrs)
    return make_model([node], [("x", x[0], x[1])], ["y"], inits, opset)


def seeded_inputs(m: onnx.ModelProto, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    inits = {t.name for t in m.graph.initializer}
    out = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        dt = _NP[vi.type.tensor_type.elem_type]
        shape = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        a = rng.standard_normal(shape) if np.dtype(dt).kind == "f" else rng.integers(-5, 6, shape)
        out.append(np.asarray(a).astype(dt))
    return out


def bn_params(c: int, seed: int = 3) -> dict[str, np.ndarray]:
    r = np.random.default_rng(seed)
    return {
        "scale": r.standard_normal(c).astype(np.float32),
        "B": r.standard_normal(c).astype(np.float32),
        "mean": r.standard_normal(c).astype(np.float32),
        "var": r.uniform(0.25, 2.0, c).astype(np.float32),
    }


def i64(*v: int) -> np.ndarray:
    return np.array(v, dtype=np.int64)


def weights(shape, dt=np.float32) -> np.ndarray:
    return np.random.default_rng(sum(shape)).standard_normal(shape).astype(dt)


def resize_model(mode: str, coord: str, sizes=None, scales=None, elem: int = F, opset: int = 13, **attrs):
    """One Resize of x [1, 2, 4, 5] with its roi (empty), scales and sizes as initializers."""
    inits = {"roi": np.array([], np.float32), "scales": np.array(scales or [], np.float32)}
    if sizes is not None:
        inits["sizes"] = np.array(sizes, np.int64)
    return one("Resize", (elem, [1, 2, 4, 5]), inits, opset, mode=mode, coordinate_transformation_mode=coord, **attrs)


@dataclass
class Case:
    id: str
    model: onnx.ModelProto
    # (ge op name, attributes that must be there with these values, output shapes), in order,
    # for every op except ge.Data, ge.Const and ge.NetOutput.
    expect: list[tuple[str, dict[str, object], list[tuple[int, ...]]]]


POOL = {"padding_mode": "CALCULATED", "data_format": "NCHW"}
BN_OUT = [(2, 3, 5, 7), (3,), (3,), (3,), (3,), (1,)]

CASES: list[Case] = [
    # -- BatchNormalization (batch_normalization_plugin.cc) --------------------------------
    Case(
        "BatchNorm-f32",
        one("BatchNormalization", (F, [2, 3, 5, 7]), bn_params(3), epsilon=1e-3),
        [("ge.BatchNorm", {"epsilon": 1e-3, "data_format": "NCHW", "is_training": False}, BN_OUT)],
    ),
    Case(
        "BatchNorm-default-epsilon-opset11",
        one("BatchNormalization", (F, [2, 3, 5, 7]), bn_params(3, 4), opset=11),
        [("ge.BatchNorm", {"epsilon": 1e-5, "is_training": False}, BN_OUT)],
    ),
    # -- MaxPool (max_pool_plugin.cc): MaxPoolV3 ---------------------------------------------
    Case(
        "MaxPool-pads-strides",
        one("MaxPool", (F, [1, 2, 7, 8]), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 0, 1, 1]),
        [
            (
                "ge.MaxPoolV3",
                {"ksize": [1, 1, 3, 3], "strides": [1, 1, 2, 2], "pads": [1, 1, 0, 1], "ceil_mode": False, **POOL},
                [(1, 2, 4, 4)],
            )
        ],
    ),
    Case(
        "MaxPool-ceil",
        one("MaxPool", (F, [1, 2, 7, 8]), kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
        [("ge.MaxPoolV3", {"ceil_mode": True, "pads": [0, 0, 0, 0]}, [(1, 2, 3, 4)])],
    ),
    Case(
        "MaxPool-same-upper",
        one("MaxPool", (F, [1, 2, 7, 8]), kernel_shape=[2, 3], strides=[2, 2], auto_pad="SAME_UPPER"),
        [("ge.MaxPoolV3", {"padding_mode": "SAME", "ksize": [1, 1, 2, 3]}, [(1, 2, 4, 4)])],
    ),
    Case(
        "MaxPool-valid-f16",
        one("MaxPool", (H, [2, 3, 6, 5]), kernel_shape=[2, 2], auto_pad="VALID"),
        [("ge.MaxPoolV3", {"padding_mode": "VALID", "strides": [1, 1, 1, 1]}, [(2, 3, 5, 4)])],
    ),
    Case(
        "MaxPool-1d",
        one("MaxPool", (F, [2, 3, 9]), kernel_shape=[3], strides=[2], pads=[1, 1]),
        [
            ("ge.Unsqueeze", {"axes": [3]}, [(2, 3, 9, 1)]),
            ("ge.MaxPoolV3", {"ksize": [1, 1, 3, 1], "strides": [1, 1, 2, 1], "pads": [1, 1, 0, 0]}, [(2, 3, 5, 1)]),
            ("ge.Squeeze", {"axis": [3]}, [(2, 3, 5)]),
        ],
    ),
    # -- AveragePool (average_pool_plugin.cc): AvgPoolV2 -----------------------------------------
    Case(
        "AveragePool-exclusive",
        one("AveragePool", (F, [1, 2, 7, 8]), kernel_shape=[3, 2], strides=[2, 1], pads=[1, 1, 1, 0]),
        [("ge.AvgPoolV2", {"exclusive": True, "pads": [1, 1, 1, 0], **POOL}, [(1, 2, 4, 8)])],
    ),
    Case(
        "AveragePool-count-include-pad",
        one(
            "AveragePool",
            (F, [1, 2, 7, 8]),
            kernel_shape=[3, 2],
            strides=[2, 1],
            pads=[1, 1, 1, 0],
            count_include_pad=1,
        ),
        [("ge.AvgPoolV2", {"exclusive": False}, [(1, 2, 4, 8)])],
    ),
    Case(
        "AveragePool-ceil-include-pad",
        one(
            "AveragePool",
            (F, [1, 2, 7, 8]),
            kernel_shape=[3, 3],
            strides=[2, 2],
            pads=[1, 1, 1, 1],
            ceil_mode=1,
            count_include_pad=1,
        ),
        [("ge.AvgPoolV2", {"ceil_mode": True, "exclusive": False}, [(1, 2, 4, 5)])],
    ),
    Case(
        "AveragePool-same-lower-even-f16",
        one("AveragePool", (H, [1, 1, 6, 5]), kernel_shape=[3, 3], auto_pad="SAME_LOWER"),
        [("ge.AvgPoolV2", {"padding_mode": "SAME"}, [(1, 1, 6, 5)])],
    ),
    Case(
        "AveragePool-1d",
        one("AveragePool", (F, [2, 3, 9]), kernel_shape=[4], strides=[3]),
        [
            ("ge.Unsqueeze", {"axes": [3]}, [(2, 3, 9, 1)]),
            ("ge.AvgPoolV2", {"ksize": [1, 1, 4, 1], "strides": [1, 1, 3, 1], "pads": [0, 0, 0, 0]}, [(2, 3, 2, 1)]),
            ("ge.Squeeze", {"axis": [3]}, [(2, 3, 2)]),
        ],
    ),
    # -- GlobalAveragePool / GlobalMaxPool (global_*_pool_plugin.cc): AvgPool / MaxPool ----------
    Case(
        "GlobalAveragePool",
        one("GlobalAveragePool", (F, [2, 3, 5, 7])),
        [("ge.AvgPool", {"ksize": [1, 1, 5, 7], "strides": [1, 1, 1, 1], "padding": "VALID"}, [(2, 3, 1, 1)])],
    ),
    Case(
        "GlobalMaxPool-f16",
        one("GlobalMaxPool", (H, [1, 4, 3, 1])),
        [("ge.MaxPool", {"ksize": [1, 1, 3, 1], "padding": "VALID", "data_format": "NCHW"}, [(1, 4, 1, 1)])],
    ),
    # -- Pad (pad_plugin.cc): PadV3, paddings_contiguous = false ---------------------------------
    Case(
        "Pad-constant-value",
        one("Pad", (F, [3, 4, 5]), {"pads": i64(1, 0, 2, 2, 3, -1), "v": np.array(1.5, np.float32)}),
        [("ge.PadV3", {"mode": "constant", "paddings_contiguous": False}, [(6, 7, 6)])],
    ),
    Case(
        "Pad-constant-default-int64",
        one("Pad", (T.INT64, [2, 3]), {"pads": i64(0, 1, 1, 0)}),
        [("ge.PadV3", {"mode": "constant"}, [(3, 4)])],
    ),
    Case(
        "Pad-reflect",
        one("Pad", (F, [3, 4, 5]), {"pads": i64(1, 0, 2, 2, 3, 4)}, mode="reflect"),
        [("ge.PadV3", {"mode": "reflect"}, [(6, 7, 11)])],
    ),
    Case(
        "Pad-edge-negative",
        one("Pad", (F, [3, 4, 5]), {"pads": i64(-1, 2, 0, 1, -2, 3)}, mode="edge"),
        [("ge.PadV3", {"mode": "edge"}, [(3, 4, 8)])],
    ),
    Case(
        "Pad-18-axes",
        one("Pad", (F, [3, 4, 5]), {"pads": i64(1, 2, 3, 0), "a": i64(-1, 0)}, opset=18, names=["pads", "", "a"]),
        [("ge.PadV3", {"paddings_contiguous": False}, [(5, 4, 9)])],
    ),
    # -- Slice (slice_plugin.cc): StridedSliceV2 ---------------------------------------------
    Case(
        "Slice-starts-ends",
        one("Slice", (F, [3, 4, 5]), {"b": np.array([1], np.int32), "e": np.array([10], np.int32)}),
        [("ge.StridedSliceV2", {}, [(2, 4, 5)])],
    ),
    Case(
        "Slice-negative-steps-and-indices",
        one("Slice", (F, [3, 4, 5]), {"b": i64(-1, 1), "e": i64(-100, 2**62), "a": i64(2, 0), "s": i64(-2, 1)}),
        [("ge.StridedSliceV2", {}, [(2, 4, 3)])],
    ),
    Case(
        "Slice-steps-default-axes",
        one("Slice", (F, [3, 4, 5]), {"b": i64(0, 3), "e": i64(3, 0), "s": i64(2, -1)}, names=["b", "e", "", "s"]),
        [("ge.StridedSliceV2", {}, [(2, 3, 5)])],
    ),
    Case(
        "Slice-empty-result",
        one("Slice", (T.INT32, [4, 3]), {"b": i64(3), "e": i64(1), "a": i64(0)}),
        [("ge.StridedSliceV2", {}, [(0, 3)])],
    ),
    # -- Tile (similar_opp_plugins.cc) -----------------------------------------------------
    Case(
        "Tile-3d",
        one("Tile", (F, [3, 4, 5]), {"r": i64(2, 1, 3)}),
        [("ge.Tile", {}, [(6, 4, 15)])],
    ),
    Case("Tile-int64-zero", one("Tile", (T.INT64, [2, 3]), {"r": i64(0, 2)}), [("ge.Tile", {}, [(0, 6)])]),
    # -- ArgMax / ArgMin (argmax_plugin.cc, argmin_plugin.cc) ----------------------------------
    Case(
        "ArgMax-keepdims-axis0",
        one("ArgMax", (F, [3, 4, 5])),
        [("ge.ArgMaxV2", {"dtype": 9}, [(4, 5)]), ("ge.ExpandDims", {"axis": 0}, [(1, 4, 5)])],
    ),
    Case(
        "ArgMax-no-keepdims-negative-axis-int32",
        one("ArgMax", (T.INT32, [3, 4, 5]), axis=-1, keepdims=0),
        [("ge.ArgMaxV2", {"dtype": 9}, [(3, 4)])],
    ),
    Case(
        "ArgMin-keepdims-axis2-f16",
        one("ArgMin", (H, [2, 3, 5]), axis=2),
        [
            ("ge.ArgMin", {"dtype": 3}, [(2, 3)]),
            ("ge.ExpandDims", {"axis": 2}, [(2, 3, 1)]),
            ("ge.Cast", {"dst_type": 9}, [(2, 3, 1)]),
        ],
    ),
    Case(
        "ArgMin-no-keepdims",
        one("ArgMin", (F, [4, 3]), axis=0, keepdims=0),
        [("ge.ArgMin", {"dtype": 3}, [(3,)]), ("ge.Cast", {"dst_type": 9}, [(3,)])],
    ),
    # -- GatherElements (gather_elements_plugin.cc) ---------------------------------------
    Case(
        "GatherElements-axis1",
        one("GatherElements", (F, [3, 4]), {"i": np.array([[0, 3, 3], [1, 0, 2], [2, 2, 1]], np.int64)}, axis=1),
        [("ge.GatherElements", {"dim": 1}, [(3, 3)])],
    ),
    Case(
        "GatherElements-axis0-smaller-index-int32",
        one("GatherElements", (T.INT32, [4, 3, 2]), {"i": np.array([[[3], [0]], [[1], [2]]], np.int32)}),
        [("ge.GatherElements", {"dim": 0}, [(2, 2, 1)])],
    ),
    # -- Trilu (trilu_plugin.cc): Triu / Tril -----------------------------------------------
    Case("Trilu-upper", one("Trilu", (F, [3, 5])), [("ge.Triu", {"diagonal": 0}, [(3, 5)])]),
    Case(
        "Trilu-lower-k-batch",
        one("Trilu", (F, [2, 4, 3]), {"k": i64(-1)}, upper=0),
        [("ge.Tril", {"diagonal": -1}, [(2, 4, 3)])],
    ),
    Case(
        "Trilu-upper-k-int64",
        one("Trilu", (T.INT64, [5, 3]), {"k": i64(2)}),
        [("ge.Triu", {"diagonal": 2}, [(5, 3)])],
    ),
    # -- Resize (resize_plugin.cc): ResizeNearestNeighborV2 / ResizeBilinearV2 ----------------
    Case(
        "Resize-linear-asymmetric-scales",
        resize_model("linear", "asymmetric", scales=[1, 1, 2, 2]),
        [("ge.ResizeBilinearV2", {"align_corners": False, "half_pixel_centers": False}, [(1, 2, 8, 10)])],
    ),
    Case(
        "Resize-linear-align-corners-sizes",
        resize_model("linear", "align_corners", sizes=[1, 2, 7, 3]),
        [("ge.ResizeBilinearV2", {"align_corners": True, "half_pixel_centers": False}, [(1, 2, 7, 3)])],
    ),
    Case(
        "Resize-linear-pytorch-half-pixel-down",
        resize_model("linear", "pytorch_half_pixel", scales=[1, 1, 0.5, 1.0]),
        [("ge.ResizeBilinearV2", {"align_corners": False, "half_pixel_centers": True}, [(1, 2, 2, 5)])],
    ),
    Case(
        "Resize-nearest-asymmetric-floor",
        resize_model("nearest", "asymmetric", scales=[1, 1, 2, 3], nearest_mode="floor"),
        [("ge.ResizeNearestNeighborV2", {"align_corners": False}, [(1, 2, 8, 15)])],
    ),
    Case(
        "Resize-nearest-align-corners-f16",
        resize_model("nearest", "align_corners", sizes=[1, 2, 7, 3], nearest_mode="round_prefer_ceil", elem=H),
        [("ge.ResizeNearestNeighborV2", {"align_corners": True}, [(1, 2, 7, 3)])],
    ),
    Case(
        "Resize-nearest-pytorch-half-pixel-up",
        resize_model("nearest", "pytorch_half_pixel", sizes=[1, 2, 9, 11], nearest_mode="round_prefer_ceil"),
        [("ge.ResizeNearestNeighborV2", {"half_pixel_centers": True}, [(1, 2, 9, 11)])],
    ),
    Case(
        "Resize-linear-half-pixel-default",
        resize_model("linear", "half_pixel", sizes=[1, 2, 3, 7]),
        [("ge.ResizeBilinearV2", {"align_corners": False, "half_pixel_centers": True}, [(1, 2, 3, 7)])],
    ),
    Case(
        "Resize-nearest-half-pixel-ceil",
        resize_model("nearest", "half_pixel", sizes=[1, 2, 8, 10], nearest_mode="ceil"),
        [("ge.Resize", {"coordinate_transformation_mode": "half_pixel", "nearest_mode": "ceil"}, [(1, 2, 8, 10)])],
    ),
    Case(
        "Resize-linear-scale-not-whole",
        resize_model("linear", "asymmetric", scales=[1, 1, 1.5, 1.5]),
        [("ge.Resize", {"mode": "linear", "coordinate_transformation_mode": "asymmetric"}, [(1, 2, 6, 7)])],
    ),
    Case(
        "Resize-linear-pytorch-one-pixel",
        resize_model("linear", "pytorch_half_pixel", sizes=[1, 2, 1, 10]),
        [("ge.Resize", {"mode": "linear", "coordinate_transformation_mode": "pytorch_half_pixel"}, [(1, 2, 1, 10)])],
    ),
    # -- ConvTranspose (conv_transpose_plugin.cc): Conv2DTranspose ----------------------------
    Case(
        "ConvTranspose-2d-all-attributes",
        one(
            "ConvTranspose",
            (F, [2, 4, 5, 6]),
            {"w": weights((4, 3, 3, 2)), "b": weights((6,))},
            kernel_shape=[3, 2],
            strides=[2, 3],
            pads=[1, 0, 2, 1],
            dilations=[1, 2],
            group=2,
            output_padding=[1, 2],
        ),
        [
            (
                "ge.Conv2DTranspose",
                {
                    "strides": [1, 1, 2, 3],
                    "pads": [1, 2, 0, 1],
                    "dilations": [1, 1, 1, 2],
                    "groups": 2,
                    "output_padding": [0, 0, 1, 2],
                    "data_format": "NCHW",
                },
                [(2, 6, 9, 19)],
            )
        ],
    ),
    Case(
        "ConvTranspose-2d-defaults-f16",
        one("ConvTranspose", (H, [1, 3, 4, 4]), {"w": weights((3, 2, 3, 3), np.float16)}, kernel_shape=[3, 3]),
        [("ge.Conv2DTranspose", {"strides": [1, 1, 1, 1], "pads": [0, 0, 0, 0], "groups": 1}, [(1, 2, 6, 6)])],
    ),
    Case(
        "ConvTranspose-1d",
        one("ConvTranspose", (F, [2, 3, 7]), {"w": weights((3, 2, 3))}, kernel_shape=[3], strides=[2], pads=[1, 0]),
        [
            ("ge.Unsqueeze", {"axes": [2]}, [(2, 3, 1, 7)]),
            ("ge.Unsqueeze", {"axes": [2]}, [(3, 2, 1, 3)]),
            ("ge.Conv2DTranspose", {"strides": [1, 1, 2, 2], "pads": [0, 0, 1, 0]}, [(2, 2, 1, 14)]),
            ("ge.Squeeze", {"axis": [2]}, [(2, 2, 14)]),
        ],
    ),
    # -- MatMul above rank 2 (matmul_plugin.cc): BatchMatMulV2 ------------------------------
    Case(
        "MatMul-3d-2d",
        one("MatMul", (F, [2, 3, 4]), {"w": np.random.default_rng(5).standard_normal((4, 6)).astype(np.float32)}),
        [("ge.BatchMatMulV2", {"adj_x1": False, "adj_x2": False}, [(2, 3, 6)])],
    ),
    Case(
        "MatMul-4d-broadcast-f16",
        one("MatMul", (H, [2, 1, 3, 4]), {"w": np.random.default_rng(6).standard_normal((5, 4, 2)).astype(np.float16)}),
        [("ge.BatchMatMulV2", {}, [(2, 5, 3, 2)])],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_import(case: Case) -> None:
    got = imported_compute_ops(import_model(case.model, f"{case.id}.onnx"))
    assert [op.name for op in got] == [e[0] for e in case.expect]
    for op, (_, attrs, shapes) in zip(got, case.expect):
        for k, v in attrs.items():
            assert k in op.attributes, f"{op.name} lacks {k}"
            got_v = onnx_attr_value(op.attributes[k])
            if isinstance(v, float):
                assert got_v == pytest.approx(v, rel=1e-7), f"{op.name}.{k}"
            else:
                assert got_v == v, f"{op.name}.{k}"
        assert [shape_of(r.type) for r in op.results] == shapes


def assert_close(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if got.dtype.name in TOLERANCES:
        rtol, atol = TOLERANCES[got.dtype.name]
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol * scale)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_numbers(case: Case) -> None:
    inputs = seeded_inputs(case.model, seed=len(case.id))
    got = run_module(import_model(case.model, f"{case.id}.onnx"), inputs)
    sess = ort.InferenceSession(case.model.SerializeToString(), providers=["CPUExecutionProvider"])
    want = sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), inputs)})
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_close(g, w)


def test_every_structural_op_has_a_case_and_is_imported() -> None:
    covered = {n.op_type for c in CASES for n in c.model.graph.node}
    assert STRUCTURAL_ONNX_OPS <= covered
    for op in STRUCTURAL_ONNX_OPS:
        assert not MAPPINGS[op].needs, op


# ---------------------------------------------------------------------------------------
# Compiled: ge-compile and the simulator, on 1 and 2 streams
# ---------------------------------------------------------------------------------------

COMPILED = [
    "BatchNorm-f32",
    "MaxPool-ceil",
    "MaxPool-1d",
    "AveragePool-ceil-include-pad",
    "GlobalAveragePool",
    "GlobalMaxPool-f16",
    "Pad-reflect",
    "Pad-constant-value",
    "Slice-negative-steps-and-indices",
    "Tile-3d",
    "MatMul-4d-broadcast-f16",
    "ArgMax-keepdims-axis0",
    "ArgMin-keepdims-axis2-f16",
    "GatherElements-axis1",
    "Trilu-lower-k-batch",
    "Resize-linear-pytorch-half-pixel-down",
    "Resize-nearest-asymmetric-floor",
    "Resize-nearest-half-pixel-ceil",
    "Resize-linear-scale-not-whole",
    "ConvTranspose-2d-all-attributes",
    "ConvTranspose-1d",
]


def ge_run_text(text: str, tmp_path: Path, *args: str) -> tuple[int, str]:
    src = tmp_path / "m.mlir"
    src.write_text(text)
    code, out, err = run_cli(ge_run.main, [str(src), *args])
    return code, out + err


def two_branches(m: onnx.ModelProto) -> onnx.ModelProto:
    """`m`'s node twice on the same input (outputs y and y_b): two independent branches,
    so that the 2-stream program puts one on each stream."""
    g = m.graph
    (node,) = g.node
    twin = onnx.NodeProto()
    twin.CopyFrom(node)
    twin.name = "n_b"
    twin.output[0] = "y_b"
    inputs = [(vi.name, vi.type.tensor_type.elem_type, [d.dim_value for d in vi.type.tensor_type.shape.dim])
              for vi in g.input]  # fmt: skip
    inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    opset = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")][0]
    return make_model([node, twin], inputs, ["y", "y_b"], inits, opset)


@pytest.mark.parametrize("streams", ["1", "2"])
@pytest.mark.parametrize("case_id", COMPILED)
def test_compiles_and_simulates(case_id: str, streams: str, tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c.id == case_id]
    module = import_model(two_branches(case.model), f"{case.id}.onnx")
    text = io.StringIO()
    Printer(stream=text).print_op(module)
    code, out = ge_run_text(text.getvalue(), tmp_path, "--streams", streams, "--seed", "3")
    assert code == 0, out
    assert "outputs match the reference" in out
    assert f"on {streams} stream(s)" in out
    # each op is one kernel task per branch (autofuse lowers none of the structural ops;
    # Unsqueeze / Squeeze / ExpandDims are no-task views)
    kernels = 2 * sum(1 for name, _, _ in case.expect if name not in ("ge.Unsqueeze", "ge.Squeeze", "ge.ExpandDims"))
    assert f"kernel {kernels})" in out or f"kernel {kernels}," in out, out


def test_a_chain_of_structural_ops_compiles(tmp_path: Path) -> None:
    """Conv, BatchNorm, Relu, MaxPool, Pad, Slice, Tile, AveragePool, GlobalAveragePool and a
    broadcast MatMul in one graph: ge-compile, 2 streams, every output matches the
    reference within the error bounds (none unbounded)."""
    r = np.random.default_rng(0)
    inits = {
        "w": r.standard_normal((4, 3, 3, 3)).astype(np.float32),
        **bn_params(4),
        "p": i64(0, 0, 1, 1, 0, 0, 1, 2),
        "sb": i64(1),
        "se": i64(-1),
        "sa": i64(3),
        "rp": i64(1, 2, 1, 1),
        "mw": r.standard_normal((8, 5, 7)).astype(np.float32),
    }
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        h.make_node("BatchNormalization", ["c", "scale", "B", "mean", "var"], ["bn"]),
        h.make_node("Relu", ["bn"], ["r"]),
        h.make_node("MaxPool", ["r"], ["mp"], kernel_shape=[2, 2], strides=[2, 2]),
        h.make_node("Pad", ["mp", "p"], ["pd"], mode="reflect"),
        h.make_node("Slice", ["pd", "sb", "se", "sa"], ["sl"]),
        h.make_node("Tile", ["sl", "rp"], ["t"]),
        h.make_node("AveragePool", ["t"], ["ap"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        h.make_node("GlobalAveragePool", ["ap"], ["g"]),
        h.make_node("MatMul", ["ap", "mw"], ["mm"]),
    ]
    m = make_model(nodes, [("x", F, [2, 3, 9, 8])], ["g", "mm", "mp"], inits)
    x = seeded_inputs(m, 1)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    module = import_model(m, "chain.onnx")
    for g, w in zip(run_module(module, x), sess.run(None, {"x": x[0]})):
        assert_close(g, w)
    np.save(tmp_path / "x.npy", x[0])
    code, out = ge_run_text(str(module), tmp_path, "--streams", "2", "--input", str(tmp_path / "x.npy"))
    assert code == 0, out
    assert "outputs match the reference" in out
    assert "undecidable" not in out
    assert "kernel 10" in out  # ten library kernels: every node one task


# ---------------------------------------------------------------------------------------
# What the converters refuse: one line naming the node and the value
# ---------------------------------------------------------------------------------------

REFUSED = [
    (
        "bn-training",
        make_model(
            [h.make_node("BatchNormalization", ["x", *bn_params(3)], ["y", "rm", "rv"], name="n", training_mode=1)],
            [("x", F, [2, 3, 4, 4])],
            ["y", "rm", "rv"],
            bn_params(3),
            opset=15,
        ),
        "attribute training_mode = 1 is not supported",
    ),
    ("bn-rank3", one("BatchNormalization", (F, [2, 3, 4]), bn_params(3)), "X has rank 3"),
    (
        "maxpool-dilations",
        one("MaxPool", (F, [1, 1, 8, 8]), kernel_shape=[2, 2], dilations=[2, 2]),
        "attribute dilations = [2, 2] is not supported",
    ),
    (
        "maxpool-storage-order",
        one("MaxPool", (F, [1, 1, 8, 8]), kernel_shape=[2, 2], storage_order=1),
        "attribute storage_order = 1 is not supported",
    ),
    ("maxpool-3d", one("MaxPool", (F, [1, 1, 4, 4, 4]), kernel_shape=[2, 2, 2]), "needs MaxPool3D"),
    (
        "maxpool-big-window",
        one("MaxPool", (F, [1, 1, 20, 20]), kernel_shape=[16, 16]),
        "over the TBE limits",
    ),
    (
        "avgpool-same-lower-odd",
        one("AveragePool", (F, [1, 1, 6, 6]), kernel_shape=[2, 2], auto_pad="SAME_LOWER"),
        "attribute auto_pad = SAME_LOWER is not supported",
    ),
    ("pad-wrap", one("Pad", (F, [3, 4]), {"pads": i64(1, 1, 1, 1)}, opset=19, mode="wrap"), "mode = wrap"),
    (
        "convtranspose-auto-pad",
        one(
            "ConvTranspose", (F, [1, 2, 4, 4]), {"w": weights((2, 2, 3, 3))}, kernel_shape=[3, 3], auto_pad="SAME_UPPER"
        ),
        "attribute auto_pad = SAME_UPPER is not supported",
    ),
    (
        "convtranspose-output-shape",
        one("ConvTranspose", (F, [1, 2, 4, 4]), {"w": weights((2, 2, 3, 3))}, kernel_shape=[3, 3], output_shape=[7, 7]),
        "attribute output_shape = [7, 7] is not supported",
    ),
    (
        "convtranspose-3d",
        one("ConvTranspose", (F, [1, 2, 3, 3, 3]), {"w": weights((2, 2, 2, 2, 2))}, kernel_shape=[2, 2, 2]),
        "needs Conv3DTranspose",
    ),
    (
        "resize-cubic-antialias-down",
        resize_model("cubic", "asymmetric", sizes=[1, 2, 2, 3], opset=18, antialias=1),
        "attribute antialias = 1 is not supported",
    ),
    (
        "resize-tf-crop-and-resize-empty-roi",
        resize_model("linear", "tf_crop_and_resize", sizes=[1, 2, 8, 10]),
        "roi has shape [0]: tf_crop_and_resize takes a start and an end per axis",
    ),
    (
        "resize-tf-crop-and-resize-scales",
        resize_model("linear", "tf_crop_and_resize", scales=[1, 1, 2, 2]),
        "roi has shape [0]",
    ),
    (
        "resize-antialias-down",
        resize_model("linear", "half_pixel", sizes=[1, 2, 2, 3], opset=18, antialias=1),
        "attribute antialias = 1 is not supported",
    ),
    (
        "resize-channels",
        resize_model("linear", "asymmetric", sizes=[1, 4, 8, 10]),
        "resizing N or C",
    ),
    ("global-rank3", one("GlobalAveragePool", (F, [1, 2, 5])), "X has rank 3"),
    (
        "matmul-1d",
        make_model([h.make_node("MatMul", ["x", "v"], ["y"], name="n")], [("x", F, [2, 3, 4]), ("v", F, [4])], ["y"]),
        "takes 2-D to 6-D inputs",
    ),
]


@pytest.mark.parametrize(("tag", "model", "want"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused(tag: str, model: onnx.ModelProto, want: str) -> None:
    with pytest.raises(OnnxImportError) as e:
        import_model(model, f"{tag}.onnx")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{tag}.onnx: node 'n' (")
    assert want in msg, msg


def test_slice_with_runtime_starts_is_a_dynamic_shape() -> None:
    # starts read from a graph input: known only when the data arrives (issue 28), so the
    # output dim stays unknown and the reference slices by the run-time value
    m = make_model(
        [h.make_node("Slice", ["x", "b", "e"], ["y"], name="n")],
        [("x", F, [4]), ("b", T.INT64, [1])],
        ["y"],
        {"e": i64(3)},
    )
    module = import_model(m, "m.onnx")
    (op,) = imported_compute_ops(module)
    assert op.name == "ge.StridedSliceV2" and shape_of(op.results[0].type) == (-1,)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(run_module(module, [x, i64(1)])[0], x[1:3])
