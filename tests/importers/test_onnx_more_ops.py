"""importers/onnx_more_ops.py's ops and ONNX's semantics where a CANN plugin is narrower
(Gemm's alpha and beta, negative indices of Gather, GatherElements, ScatterElements,
GatherND and ScatterND, Hardmax at opset 11, PRelu's broadcast slope).

For every case a tiny model is built with onnx.helper, with its own inputs (indices in
range, negative ones included, as data):

* `test_import`: the ge ops it imports to, in order (written by hand from the plugin file
  or the sequence the converter cites);
* `test_numbers`: the reference interpreter and the compiled program (api.simulate:
  ge-compile and the device simulator, the path ge-run takes) against onnxruntime on the
  same inputs (float32 rtol 1e-5, atol 1e-6 x max(1, max|ort|); integers and bools
  exactly);
* `test_out_of_range_index_from_data_is_an_error`: an index outside [-dim, dim) stays an
  error at run time after the negative-index sequence;
* `test_refused`: what no GE op sequence expresses is one located error line.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h

from conftest import MORE_ONNX_OPS
from conftest import make_onnx_model as make_model
from ge_dialect import ge
from ge_tools import api
from importers.onnx import OnnxImportError, import_model
from runtime.graph_interpreter import ReferenceEvalError
from runtime.interpreter import run_module

F, H = T.FLOAT, T.FLOAT16
_ONNX_OF = {np.float32: F, np.float16: H, np.int64: T.INT64, np.int32: T.INT32, np.uint8: T.UINT8,
            np.uint16: T.UINT16, np.uint32: T.UINT32, np.uint64: T.UINT64, np.int8: T.INT8,
            np.int16: T.INT16, np.bool_: T.BOOL}  # fmt: skip


@dataclass
class Case:
    id: str
    model: onnx.ModelProto
    expect: list[str]  # the ge ops (not Data, Const, NetOutput), in order
    inputs: list[np.ndarray]


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def case(
    id: str,
    op: str,
    inputs: dict[str, np.ndarray],
    expect: list[str],
    inits: dict[str, np.ndarray] | None = None,
    opset: int = 17,
    n_out: int = 1,
    order: list[str] | None = None,
    **attrs: object,
) -> Case:
    """One `op` node on graph inputs `inputs`, then the initializers (or in `order`)."""
    names = order or [*inputs, *(inits or {})]
    outs = [f"y{i}" for i in range(n_out)]
    node = h.make_node(op, names, outs, name="n", **attrs)
    ins = [(n, _ONNX_OF[a.dtype.type], list(a.shape)) for n, a in inputs.items()]
    return Case(id, make_model([node], ins, outs, inits, opset), expect, list(inputs.values()))


def f32(*shape: int, seed: int = 0) -> np.ndarray:
    return rng(seed).standard_normal(shape).astype(np.float32)


DQL_OPS = ["ge.ReduceMaxD", "ge.Maximum", "ge.ReduceMinD", "ge.Minimum", "ge.Equal", "ge.Sub", "ge.RealDiv",
           "ge.SelectV2", "ge.RealDiv", "ge.Neg", "ge.ClipByValue", "ge.Round", "ge.RealDiv", "ge.Round", "ge.Add",
           "ge.ClipByValue", "ge.Cast", "ge.Identity", "ge.Cast"]  # fmt: skip


def u8(*shape: int, seed: int = 0) -> np.ndarray:
    return rng(seed).integers(0, 256, shape).astype(np.uint8)


def i64(*v: object) -> np.ndarray:
    return np.array(v, dtype=np.int64)


def _with_output_shape(c: Case, shape: tuple[int, ...]) -> Case:
    """`c` with its float output declared of `shape` (ONNX's inference gives a function
    op's output, e.g. GroupNormalization-21's, no shape)."""
    c.model.graph.output[0].CopyFrom(h.make_tensor_value_info(c.model.graph.output[0].name, F, list(shape)))
    return c


NEG = ["ge.Less", "ge.Add", "ge.SelectV2"]  # nonnegative_indices on data

CASES: list[Case] = [
    # -- Gemm (gemm_plugin.cc): alpha and beta beyond the plugin ----------------------------
    case("Gemm-alpha", "Gemm", {"a": f32(3, 4), "b": f32(4, 5, seed=1)}, ["ge.MatMul", "ge.Mul"], alpha=0.5),
    case(
        "Gemm-alpha-beta-bias",
        "Gemm",
        {"a": f32(4, 3), "b": f32(5, 4, seed=1), "c": f32(5, seed=2)},
        ["ge.MatMul", "ge.Mul", "ge.Mul", "ge.Add"],
        alpha=2.0,
        beta=-0.25,
        transA=1,
        transB=1,
    ),
    case(
        "Gemm-beta-matrix-C-f16",
        "Gemm",
        {"a": f32(2, 3).astype(np.float16), "b": f32(3, 4, seed=1).astype(np.float16)},
        ["ge.MatMul", "ge.Mul", "ge.Add"],
        inits={"c": f32(2, 4, seed=2).astype(np.float16)},
        beta=3.0,
    ),
    # -- negative indices from data ---------------------------------------------------------
    case("Gather-negative-data", "Gather", {"x": f32(5, 3), "i": i64([-1, 0], [-5, 4])}, ["ge.GatherV2"]),
    case(
        "Gather-negative-axis1-int32",
        "Gather",
        {"x": f32(2, 4, 3), "i": np.array([-4, 3, -1], np.int32)},
        ["ge.GatherV2"],
        axis=1,
    ),
    case(
        "GatherElements-negative-data",
        "GatherElements",
        {"x": f32(3, 4), "i": i64([0, -1, -4], [3, -2, 1], [-3, 2, 0])},
        [*NEG, "ge.GatherElements"],
        axis=1,
    ),
    case(
        "GatherElements-negative-const",
        "GatherElements",
        {"x": f32(3, 2)},
        ["ge.GatherElements"],
        inits={"i": i64([-1, 0], [0, -3])},
        axis=0,
    ),
    case(
        "ScatterElements-negative-data",
        "ScatterElements",
        {"d": f32(3, 4), "i": i64([-1, 0], [2, -3]), "u": f32(2, 2, seed=5)},
        [*NEG, "ge.ScatterElements"],
        axis=1,
    ),
    case(
        "ScatterElements-add-axis0",
        "ScatterElements",
        {"d": f32(3, 3), "i": i64([0, 1, 0], [0, -1, 0]), "u": f32(2, 3, seed=6)},
        [*NEG, "ge.ScatterElements"],
        opset=16,
        reduction="add",
    ),
    case(
        "ScatterElements-mul-const",
        "ScatterElements",
        {"d": f32(2, 5), "u": f32(2, 2, seed=7)},
        ["ge.ScatterElements"],
        inits={"i": i64([4, -1], [0, 1])},
        order=["d", "i", "u"],
        opset=18,
        axis=1,
        reduction="mul",
    ),
    case(
        "GatherND-negative-data",
        "GatherND",
        {"x": f32(3, 4, 2), "i": i64([-1, 0], [2, -4], [0, 3])},
        [*NEG, "ge.GatherNd"],
    ),
    case("GatherND-full-index", "GatherND", {"x": f32(2, 3), "i": i64([1, -3], [-2, 2])}, [*NEG, "ge.GatherNd"]),
    case(
        "ScatterND-negative-data",
        "ScatterND",
        {"x": f32(4, 3), "i": i64([-1], [1]), "u": f32(2, 3, seed=3)},
        [*NEG, "ge.TensorScatterUpdate"],
    ),
    case(
        "ScatterND-add-duplicates",
        "ScatterND",
        {"x": f32(4, 3), "i": i64([0, 1], [0, 1], [-1, -1]), "u": f32(3, seed=4)},
        [*NEG, "ge.TensorScatterAdd"],
        reduction="add",
    ),
    case(
        "ScatterND-max",
        "ScatterND",
        {"x": f32(3, 2)},
        ["ge.TensorScatterMax"],
        inits={"i": i64([2], [0], [2]), "u": f32(3, 2, seed=8)},
        opset=18,
        reduction="max",
    ),
    case(
        "ScatterND-min",
        "ScatterND",
        {"x": f32(3, 2)},
        ["ge.TensorScatterMin"],
        inits={"i": i64([1], [1]), "u": f32(2, 2, seed=9)},
        opset=18,
        reduction="min",
    ),
    # -- ArgMax / ArgMin select_last_index, Shape start/end, Mod on narrow ints, IsInf signs --
    case(
        "ArgMax-last-ties",
        "ArgMax",
        {"x": i64([1, 3, 3], [2, 2, 0]).astype(np.float32)},
        ["ge.GatherV2", "ge.ArgMaxV2", "ge.ExpandDims", "ge.Sub"],
        axis=1,
        select_last_index=1,
    ),  # fmt: skip
    case(
        "ArgMin-last-no-keepdims",
        "ArgMin",
        {"x": i64([1, 0, 0, 4], [0, 5, 0, 0], [3, 3, 3, 3]).astype(np.float32)},
        ["ge.GatherV2", "ge.ArgMin", "ge.Cast", "ge.Sub"],
        axis=-1,
        keepdims=0,
        select_last_index=1,
    ),  # fmt: skip
    case("ArgMax-first-axis0", "ArgMax", {"x": f32(3, 2, 5)}, ["ge.ArgMaxV2", "ge.ExpandDims"], axis=0),
    case("Shape-start-end", "Shape", {"x": f32(2, 3, 4, 5)}, [], opset=15, start=1, end=-1),
    case("Shape-start-negative", "Shape", {"x": f32(2, 3, 4)}, [], opset=15, start=-2),
    case(
        "Mod-int8-floored",
        "Mod",
        {"a": np.array([-7, 7, -8, 5], np.int8), "b": np.array([3, -3, 3, 5], np.int8)},
        ["ge.Cast", "ge.Cast", "ge.FloorMod", "ge.Cast"],
    ),  # fmt: skip
    case(
        "Mod-uint16",
        "Mod",
        {"a": np.array([65535, 7, 0], np.uint16), "b": np.array([256, 3, 9], np.uint16)},
        ["ge.Cast", "ge.Cast", "ge.FloorMod", "ge.Cast"],
    ),  # fmt: skip
    case(
        "Mod-int16-fmod",
        "Mod",
        {"a": np.array([-7, 7], np.int16), "b": np.array([3, -3], np.int16)},
        ["ge.Cast", "ge.Cast", "ge.Mod", "ge.Cast"],
        fmod=1,
    ),  # fmt: skip
    case(
        "IsInf-negative-only",
        "IsInf",
        {"x": np.array([-np.inf, np.inf, 1.0, np.nan], np.float32)},
        ["ge.IsInf", "ge.Less", "ge.LogicalAnd"],
        detect_positive=0,
    ),  # fmt: skip
    case(
        "IsInf-positive-only",
        "IsInf",
        {"x": np.array([-np.inf, np.inf, -2.0], np.float32)},
        ["ge.IsInf", "ge.Greater", "ge.LogicalAnd"],
        detect_negative=0,
    ),  # fmt: skip
    case(
        "IsInf-none",
        "IsInf",
        {"x": np.array([-np.inf, np.inf, 0.0], np.float32)},
        ["ge.IsInf", "ge.Less", "ge.Greater", "ge.LogicalAnd", "ge.LogicalAnd"],
        detect_negative=0,
        detect_positive=0,
    ),  # fmt: skip
    # -- Trilu's k from data (trilu_plugin.cc refuses the k input) -----------------------------
    case(
        "Trilu-upper-k-data",
        "Trilu",
        {"x": f32(2, 3, 5), "k": np.array(1, np.int64)},
        ["ge.GreaterEqual", "ge.SelectV2"],
    ),  # fmt: skip
    case(
        "Trilu-lower-k-data-negative",
        "Trilu",
        {"x": i64([1, 2, 3], [4, 5, 6], [7, 8, 9]), "k": np.array(-1, np.int64)},
        ["ge.LessEqual", "ge.SelectV2"],
        upper=0,
    ),  # fmt: skip
    # -- the losses (no plugin in the public copy) ----------------------------------------------
    case(
        "NLL-weight-ignore-mean",
        "NegativeLogLikelihoodLoss",
        {"x": f32(3, 5, 2), "t": i64([0, 4], [1, 1], [3, 2]), "w": np.abs(f32(5, seed=3))},
        [
            "ge.NotEqual",
            "ge.SelectV2",
            "ge.ExpandDims",
            "ge.GatherElements",
            "ge.Squeeze",
            "ge.Neg",
            "ge.GatherV2",
            "ge.Cast",
            "ge.Mul",
            "ge.Mul",
            "ge.ReduceSumD",
            "ge.ReduceSumD",
            "ge.RealDiv",
        ],
        opset=13,
        ignore_index=1,
    ),
    case(
        "NLL-2d-sum",
        "NegativeLogLikelihoodLoss",
        {"x": f32(4, 3), "t": i64(2, 0, 1, 1)},
        ["ge.ExpandDims", "ge.GatherElements", "ge.Squeeze", "ge.Neg", "ge.ReduceSumD"],
        opset=13,
        reduction="sum",
    ),
    case(
        "SCE-none-log-prob-negative-ignore",
        "SoftmaxCrossEntropyLoss",
        {"x": f32(2, 4, 3), "t": i64([0, -1, 3], [-1, 2, 1])},
        [
            "ge.LogSoftmaxV2",
            "ge.NotEqual",
            "ge.SelectV2",
            "ge.ExpandDims",
            "ge.GatherElements",
            "ge.Squeeze",
            "ge.Neg",
            "ge.Cast",
            "ge.Mul",
            "ge.Identity",
        ],
        opset=13,
        n_out=2,
        reduction="none",
        ignore_index=-1,
    ),
    case(
        "SCE-mean-weights",
        "SoftmaxCrossEntropyLoss",
        {"x": f32(5, 3), "t": i64(0, 2, 2, 1, 0)},
        [
            "ge.LogSoftmaxV2",
            "ge.ExpandDims",
            "ge.GatherElements",
            "ge.Squeeze",
            "ge.Neg",
            "ge.GatherV2",
            "ge.Mul",
            "ge.ReduceSumD",
            "ge.ReduceSumD",
            "ge.RealDiv",
        ],
        inits={"w": np.array([0.5, 2.0, 1.5], np.float32)},
    ),
    # -- QuantizeLinear, DequantizeLinear (no plugin in the public copy) ------------------------
    case(
        "DequantizeLinear-axis-u8",
        "DequantizeLinear",
        {
            "x": np.array([[[0, 255], [128, 3]], [[7, 9], [200, 1]]], np.uint8),
            "s": np.array([0.5, 0.25], np.float32),
            "z": np.array([128, 3], np.uint8),
        },
        ["ge.Cast", "ge.Cast", "ge.Reshape", "ge.Sub", "ge.Reshape", "ge.Mul"],
        opset=13,
        axis=-1,
    ),  # fmt: skip
    case(
        "DequantizeLinear-scalar-i8-no-zp",
        "DequantizeLinear",
        {"x": np.array([-128, -1, 0, 127], np.int8), "s": np.array(0.125, np.float32)},
        ["ge.Cast", "ge.Mul"],
    ),
    case(
        "QuantizeLinear-axis-i8-halves",
        "QuantizeLinear",
        {
            "x": np.array([[0.5, 1.5, 2.5], [-0.5, -1.5, 300.0]], np.float32),
            "s": np.array([1.0, 0.5], np.float32),
            "z": np.array([0, -3], np.int8),
        },
        ["ge.Reshape", "ge.RealDiv", "ge.Round", "ge.Cast", "ge.Reshape", "ge.Add", "ge.ClipByValue", "ge.Cast"],
        opset=13,
        axis=0,
    ),  # fmt: skip
    case(
        "QuantizeLinear-default-u8",
        "QuantizeLinear",
        {"x": f32(2, 5) * 100, "s": np.array(0.7, np.float32)},
        ["ge.RealDiv", "ge.Round", "ge.ClipByValue", "ge.Cast"],
    ),  # fmt: skip
    # -- ThresholdedRelu, Shrink, EyeLike -----------------------------------------------------
    case("ThresholdedRelu", "ThresholdedRelu", {"x": f32(3, 5)}, ["ge.Greater", "ge.SelectV2"], alpha=0.3),
    case(
        "Shrink-bias",
        "Shrink",
        {"x": f32(2, 7)},
        ["ge.Less", "ge.Greater", "ge.Add", "ge.Sub", "ge.SelectV2", "ge.SelectV2"],
        lambd=0.6,
        bias=0.25,
    ),  # fmt: skip
    case("EyeLike-k-int32", "EyeLike", {"x": f32(3, 5)}, [], k=1, dtype=T.INT32),
    case("EyeLike-negative-k", "EyeLike", {"x": i64([1, 2], [3, 4], [5, 6])}, [], k=-1),
    # -- the trigonometric and hyperbolic ops (math_ops.h) --------------------------------------
    *(
        case(op, op, {"x": (f32(3, 5) * 0.4 + shift).astype(np.float32)}, [f"ge.{op}"], opset=17)
        for op, shift in [
            ("Acos", 0.0),
            ("Acosh", 2.0),
            ("Asin", 0.0),
            ("Asinh", 0.0),
            ("Atan", 0.0),
            ("Atanh", 0.0),
            ("Cosh", 0.0),
            ("Sinh", 0.0),
            ("Tan", 0.0),
        ]
    ),  # fmt: skip
    # -- InstanceNormalization, GroupNormalization ---------------------------------------------
    case(
        "InstanceNormalization",
        "InstanceNormalization",
        {"x": f32(2, 3, 4, 5), "s": f32(3, seed=1), "b": f32(3, seed=2)},
        [
            "ge.ReduceMeanD",
            "ge.Sub",
            "ge.Mul",
            "ge.ReduceMeanD",
            "ge.Add",
            "ge.Rsqrt",
            "ge.Mul",
            "ge.Reshape",
            "ge.Reshape",
            "ge.Mul",
            "ge.Add",
        ],
        epsilon=0.01,
    ),  # fmt: skip
    _with_output_shape(
        case(
            "GroupNormalization-21",
            "GroupNormalization",
            {"x": f32(2, 6, 3, 1), "s": f32(6, seed=1), "b": f32(6, seed=2)},
            [
                "ge.Reshape",
                "ge.ReduceMeanD",
                "ge.Sub",
                "ge.Mul",
                "ge.ReduceMeanD",
                "ge.Add",
                "ge.Rsqrt",
                "ge.Mul",
                "ge.Reshape",
                "ge.Reshape",
                "ge.Reshape",
                "ge.Mul",
                "ge.Add",
            ],
            opset=21,
            num_groups=3,
        ),
        (2, 6, 3, 1),
    ),
    # -- ConvTranspose without kernel_shape (conv_transpose_plugin.cc requires it) -------------
    case(
        "ConvTranspose-no-kernel-shape",
        "ConvTranspose",
        {"x": f32(1, 2, 3, 4), "w": f32(2, 3, 3, 2, seed=1)},
        ["ge.Conv2DTranspose"],
        strides=[2, 1],
        pads=[1, 0, 0, 1],
    ),  # fmt: skip
    # -- CastLike, bit operations, Xor --------------------------------------------------------
    case("CastLike-f32-to-f16", "CastLike", {"x": f32(2, 3), "t": np.zeros(1, np.float16)}, ["ge.Cast"], opset=19),
    case("CastLike-f32-to-i32", "CastLike", {"x": f32(4) * 9}, ["ge.Cast"], inits={"t": np.zeros(0, np.int32)}),
    case(
        "BitShift-left-u8",
        "BitShift",
        {"x": np.array([1, 3, 255, 16], np.uint8), "s": np.array([1, 7, 1, 2], np.uint8)},
        ["ge.LeftShift"],
        direction="LEFT",
    ),
    case(
        "BitShift-right-u32-bcast",
        "BitShift",
        {"x": np.array([[16, 5], [1024, 7]], np.uint32), "s": np.array([3], np.uint32)},
        ["ge.RightShift"],
        direction="RIGHT",
    ),
    case(
        "BitwiseAnd-i32",
        "BitwiseAnd",
        {"a": i64([5, -3, 12]).astype(np.int32), "b": i64([3, 6, -1]).astype(np.int32)},
        ["ge.BitwiseAnd"],
        opset=18,
    ),
    case(
        "BitwiseOr-u16-bcast",
        "BitwiseOr",
        {"a": np.array([[1, 2], [4, 8]], np.uint16), "b": np.array([3, 16], np.uint16)},
        ["ge.BitwiseOr"],
        opset=18,
    ),
    case(
        "BitwiseXor-i8",
        "BitwiseXor",
        {"a": np.array([7, -1], np.int8), "b": np.array([2, 5], np.int8)},
        ["ge.BitwiseXor"],
        opset=18,
    ),  # fmt: skip
    case("BitwiseNot-i64", "BitwiseNot", {"a": i64(0, -7, 12)}, ["ge.Invert"], opset=18),
    case(
        "Xor-bool",
        "Xor",
        {"a": np.array([True, False, True]), "b": np.array([True, True, False])},
        ["ge.LogicalOr", "ge.LogicalAnd", "ge.LogicalNot", "ge.LogicalAnd"],
    ),
    # -- CumSum, Hardmax, PRelu, reductions, depth <-> space ------------------------------------
    case("CumSum-axis-input", "CumSum", {"x": f32(3, 4), "a": np.array(1, np.int64)}, ["ge.Cumsum"]),
    case(
        "CumSum-exclusive-reverse-i32",
        "CumSum",
        {"x": i64([1, 2, 3], [4, 5, 6]).astype(np.int32)},
        ["ge.Cumsum"],
        inits={"a": np.array([0], np.int32)},
        exclusive=1,
        reverse=1,
    ),
    case("Hardmax-opset13", "Hardmax", {"x": f32(2, 3, 4)}, ["ge.HardMax"], opset=13, axis=1),
    case(
        "Hardmax-opset11-coerced",
        "Hardmax",
        {"x": f32(2, 3, 4)},
        ["ge.Reshape", "ge.HardMax", "ge.Reshape"],
        opset=11,
        axis=1,
    ),  # fmt: skip
    case("PRelu-broadcast", "PRelu", {"x": f32(2, 3, 4), "s": f32(3, 1, seed=2)}, ["ge.Less", "ge.Mul", "ge.SelectV2"]),
    case("ReduceL1", "ReduceL1", {"x": f32(2, 3, 4)}, ["ge.Abs", "ge.ReduceSumD"], axes=[2], keepdims=0),
    case("ReduceL2", "ReduceL2", {"x": f32(2, 3, 4)}, ["ge.Mul", "ge.ReduceSumD", "ge.Sqrt"], axes=[0, -1]),
    case("ReduceSumSquare-all", "ReduceSumSquare", {"x": f32(3, 5)}, ["ge.Mul", "ge.ReduceSumD"], keepdims=0),
    case("DepthToSpace-DCR", "DepthToSpace", {"x": f32(1, 8, 2, 3)}, ["ge.DepthToSpace"], blocksize=2),
    case("DepthToSpace-CRD", "DepthToSpace", {"x": f32(2, 9, 2, 2)}, ["ge.DepthToSpace"], blocksize=3, mode="CRD"),
    case("SpaceToDepth", "SpaceToDepth", {"x": f32(1, 2, 4, 6)}, ["ge.SpaceToDepth"], blocksize=2),
    # -- DynamicQuantizeLinear: the range, scale and zero point, then QuantizeLinear's steps ---
    *(
        case(f"DynamicQuantizeLinear-{name}", "DynamicQuantizeLinear", {"x": x}, DQL_OPS, n_out=3)
        for name, x in (
            ("mixed", f32(3, 4, seed=7) * 2),
            ("positive", np.abs(f32(6, seed=8)) + 0.5),
            ("negative", -np.abs(f32(2, 5, seed=9)) - 0.1),
            ("zeros", np.zeros((4,), np.float32)),
        )
    ),
    # -- LpPool: Abs, Pow, the window sums (AvgPoolV2 divisor_override 1), Pow(1/p) ------------
    case(
        "LpPool-2d-pads-p3",
        "LpPool",
        {"x": f32(1, 2, 6, 5)},
        ["ge.Abs", "ge.Pow", "ge.AvgPoolV2", "ge.Pow"],
        opset=18,
        kernel_shape=[3, 2],
        p=3,
        pads=[1, 0, 2, 1],
        strides=[2, 1],
    ),
    case(
        "LpPool-1d-p2",
        "LpPool",
        {"x": f32(2, 3, 9)},
        ["ge.Abs", "ge.Pow", "ge.Unsqueeze", "ge.AvgPoolV2", "ge.Squeeze", "ge.Pow"],
        kernel_shape=[4],
        strides=[2],
    ),
    case(
        "LpPool-same-upper-p1",
        "LpPool",
        {"x": f32(1, 1, 5, 5)},
        ["ge.Abs", "ge.Pow", "ge.AvgPoolV2", "ge.Pow"],
        kernel_shape=[2, 2],
        p=1,
        auto_pad="SAME_UPPER",
    ),  # fmt: skip
    # -- MatMulInteger, QLinearMatMul (int32 products; the multiplier's one rounding in f64) --
    case(
        "MatMulInteger-u8-zp",
        "MatMulInteger",
        {"a": u8(4, 3), "b": u8(3, 5, seed=1), "az": np.array(200, np.uint8), "bz": np.array(7, np.uint8)},
        ["ge.Cast", "ge.Cast", "ge.Sub", "ge.Cast", "ge.Cast", "ge.Sub", "ge.MatMul"],
        opset=10,
    ),
    case(
        "ConvInteger-pads-strides",
        "ConvInteger",
        {"x": u8(1, 2, 5, 6), "w": u8(3, 2, 2, 3, seed=4), "xz": np.array(128, np.uint8), "wz": np.array(3, np.uint8)},
        ["ge.Cast", "ge.Cast", "ge.Sub", "ge.Cast", "ge.Cast", "ge.Sub", "ge.Conv2D"],
        opset=10,
        pads=[1, 0, 1, 2],
        strides=[2, 1],
    ),
    case(
        "ConvInteger-1d",
        "ConvInteger",
        {"x": u8(2, 2, 7), "w": u8(4, 2, 3, seed=6)},
        ["ge.Cast", "ge.Cast", "ge.Unsqueeze", "ge.Unsqueeze", "ge.Conv2D", "ge.Squeeze"],
    ),
    case(
        "MatMulInteger-i8-batched",
        "MatMulInteger",
        {"a": u8(2, 3, 4).astype(np.int8), "b": u8(4, 2, seed=3).astype(np.int8)},
        ["ge.Cast", "ge.Cast", "ge.BatchMatMulV2"],
    ),
    case(
        "QLinearMatMul-u8",
        "QLinearMatMul",
        {"a": u8(3, 4), "b": u8(4, 2, seed=5)},
        [
            "ge.Cast",
            "ge.Cast",
            "ge.Sub",
            "ge.Cast",
            "ge.Cast",
            "ge.Sub",
            "ge.MatMul",
            "ge.Mul",
            "ge.RealDiv",
            "ge.Cast",
            "ge.Cast",
            "ge.Mul",
            "ge.Cast",
            "ge.Add",
            "ge.Round",
            "ge.ClipByValue",
            "ge.Cast",
        ],
        inits={
            "as": np.array([0.0137], np.float32),
            "az": np.array([113], np.uint8),
            "bs": np.array([0.0211], np.float32),
            "bz": np.array([131], np.uint8),
            "ys": np.array([0.0523], np.float32),
            "yz": np.array([100], np.uint8),
        },
        order=["a", "as", "az", "b", "bs", "bz", "ys", "yz"],
    ),  # fmt: skip
    # -- Scatter (opsets 9-10): ScatterElements-11's old name ------------------------------
    case(
        "Scatter-opset10-axis1",
        "Scatter",
        {"d": f32(3, 5), "i": np.array([[1, -1], [0, 4], [2, 3]], np.int64), "u": f32(3, 2, seed=2)},
        ["ge.Less", "ge.Add", "ge.SelectV2", "ge.ScatterElements"],
        opset=10,
        axis=1,
    ),
    case(
        "Scatter-opset9-axis0",
        "Scatter",
        {"d": f32(4, 2), "i": np.array([[3, 0]], np.int32), "u": f32(1, 2, seed=3)},
        ["ge.Less", "ge.Add", "ge.SelectV2", "ge.ScatterElements"],
        opset=9,
    ),  # fmt: skip
    # -- GridSample: GE's GridSampler2D / GridSampler3D (no plugin in the public copy) -----
    *(
        case(
            f"GridSample-{mode}-{pad}-{align}-{opset}",
            "GridSample",
            {"x": f32(2, 3, 4, 5, seed=3), "g": (f32(2, 3, 6, 2, seed=4) * 0.8).astype(np.float32)},
            ["ge.GridSampler2D"],
            opset=opset,
            mode=mode,
            padding_mode=pad,
            align_corners=align,
        )
        for mode, pad, align, opset in [
            ("bilinear", "zeros", 0, 16),
            ("nearest", "border", 1, 16),
            ("bicubic", "zeros", 0, 16),
            ("linear", "reflection", 1, 20),
            ("cubic", "zeros", 1, 20),
            ("nearest", "reflection", 0, 20),
            ("linear", "border", 0, 20),
        ]
    ),
    *(
        case(
            f"GridSample-3d-{mode}-{pad}-{align}",
            "GridSample",
            {"x": f32(1, 2, 3, 4, 5, seed=5), "g": (f32(1, 2, 3, 4, 3, seed=6) * 0.9).astype(np.float32)},
            ["ge.GridSampler3D"],
            opset=20,
            mode=mode,
            padding_mode=pad,
            align_corners=align,
        )
        for mode, pad, align in [("linear", "zeros", 0), ("nearest", "border", 1), ("linear", "reflection", 1)]
    ),  # fmt: skip
]


def test_every_op_of_onnx_more_ops_has_a_case() -> None:
    assert {n.op_type for c in CASES for n in c.model.graph.node} >= MORE_ONNX_OPS


def _ge_ops(module) -> list[str]:
    (g,) = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    return [op.name for op in g.body.block.ops if not isinstance(op, ge.Data | ge.Const | ge.NetOutput)]


def _onnxruntime(m: onnx.ModelProto, inputs: list[np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), inputs)})


def assert_close(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if got.dtype.kind == "f":
        rtol, atol = (1e-5, 1e-6) if got.dtype == np.float32 else (1e-3, 1e-3)
        scale = max(1.0, float(np.max(np.abs(want.astype(np.float64))))) if want.size else 1.0
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol * scale)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_import(c: Case) -> None:
    assert _ge_ops(import_model(c.model, f"{c.id}.onnx")) == c.expect


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_numbers(c: Case) -> None:
    want = _onnxruntime(c.model, c.inputs)
    module = import_model(c.model, f"{c.id}.onnx")
    for got in (run_module(module, c.inputs), api.simulate(module, c.inputs).outputs):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_close(g, w)


@pytest.mark.parametrize(
    ("op", "x", "idx", "attrs"),
    [
        ("Gather", f32(4, 2), i64(0, -5), {}),
        ("GatherElements", f32(2, 3), i64([0, 3], [1, 1]), {"axis": 1}),
        ("GatherND", f32(3, 2), i64([-4, 0]), {}),
    ],
    ids=["Gather", "GatherElements", "GatherND"],
)
def test_out_of_range_index_from_data_is_an_error(op: str, x: np.ndarray, idx: np.ndarray, attrs) -> None:
    m = make_model(
        [h.make_node(op, ["x", "i"], ["y"], name="n", **attrs)],
        [("x", F, list(x.shape)), ("i", T.INT64, list(idx.shape))],
        ["y"],
    )
    module = import_model(m, "m.onnx")
    with pytest.raises(ReferenceEvalError, match="out of range"):
        run_module(module, [x, idx])
    with pytest.raises(Exception, match="out of range"):
        api.simulate(module, [x, idx])


@pytest.mark.parametrize(
    ("node", "inputs", "pattern"),
    [
        (
            h.make_node("ScatterElements", ["d", "i", "u"], ["y"], name="s", reduction="max"),
            [("d", F, [3]), ("i", T.INT64, [1]), ("u", F, [1])],
            r"node 's' \(ScatterElements\): error: attribute reduction = max is not supported",
        ),
        (
            h.make_node("ScatterND", ["d", "i", "u"], ["y"], name="s", reduction="mul"),
            [("d", F, [3]), ("i", T.INT64, [1, 1]), ("u", F, [1])],
            r"node 's' \(ScatterND\): error: attribute reduction = mul is not supported: GE has no TensorScatter op",
        ),
        (
            h.make_node("GatherND", ["d", "i"], ["y"], name="g", batch_dims=1),
            [("d", F, [2, 3]), ("i", T.INT64, [2, 1])],
            r"node 'g' \(GatherND\): error: attribute batch_dims = 1 is not supported",
        ),
        (
            h.make_node("DepthToSpace", ["d"], ["y"], name="d2s", blocksize=1),
            [("d", F, [1, 4, 2, 2])],
            r"node 'd2s' \(DepthToSpace\): error: attribute blocksize = 1 is not supported",
        ),
        (
            h.make_node("CastLike", ["d", "t"], ["y"], name="cl"),
            [("d", F, [2]), ("t", T.BFLOAT16, [1])],
            r"node 'cl' \(CastLike\): error: CastLike to bfloat16: GE's Cast plugin maps only",
        ),
        (
            h.make_node("GridSample", ["x", "g"], ["y"], name="gs", mode="bicubic"),
            [("x", F, [1, 1, 2, 2, 2]), ("g", F, [1, 1, 1, 1, 3])],
            r"node 'gs' \(GridSample\): error: attribute mode = bicubic is not supported: GE.s GridSampler3D",
        ),
        (
            h.make_node("GridSample", ["x", "g"], ["y"], name="gs", mode="bicubic", padding_mode="border"),
            [("x", F, [1, 1, 2, 2]), ("g", F, [1, 1, 1, 2])],
            r"node 'gs' \(GridSample\): error: attribute padding_mode = border is not supported",
        ),
    ],
    ids=[
        "scatter-elements-max",
        "scatter-nd-mul",
        "gather-nd-batch-dims",
        "depth-to-space-block-1",
        "castlike-bf16",
        "gridsample-3d-cubic",
        "gridsample-cubic-border",
    ],  # fmt: skip
)
def test_refused(node, inputs, pattern: str) -> None:
    m = make_model([node], inputs, ["y"], opset=18)
    with pytest.raises(OnnxImportError, match=pattern):
        import_model(m, "m.onnx")


def test_shape_slice_of_unknown_dims_is_refused() -> None:
    m = make_model(
        [h.make_node("Shape", ["x"], ["y"], name="s", start=0, end=1)], [("x", F, ["N", 3])], ["y"], opset=15
    )
    with pytest.raises(OnnxImportError, match=r"node 's' \(Shape\): error: attribute start/end = 0/1 is not supported"):
        import_model(m, "m.onnx", dynamic_dims=True)


@pytest.mark.parametrize("to", [T.FLOAT8E4M3FN, T.FLOAT8E5M2])
@pytest.mark.parametrize("saturate", [1, 0])
@pytest.mark.parametrize("src", [np.float32, np.float16])
def test_cast_to_float8_saturates_as_onnx_says(to: int, saturate: int, src: type) -> None:
    # beyond cast_plugin.cc's table: GE's Cast to DT_FLOAT8_*; saturate (the default) clips
    # to the float8 range first (infinities too), without it E4M3FN overflows to NaN and
    # E5M2 to inf; rounding to nearest even in both (ml_dtypes computes the expected values)
    f8 = onnx.helper.tensor_dtype_to_np_dtype(to)
    top = float(ml_dtypes.finfo(f8).max)
    values = np.concatenate([rng(to).uniform(-1.5 * top, 1.5 * top, 12), [np.inf, -np.inf, np.nan, 0.3, -1e-3, top]])
    with np.errstate(over="ignore"):  # beyond float16's range: inf, as wanted
        x = values.astype(src).reshape(3, 6)
    m = make_model(
        [h.make_node("Cast", ["x"], ["y"], name="c", to=to, saturate=saturate)],
        [("x", _ONNX_OF[src], [3, 6])],
        ["y"],
        opset=19,
    )
    module = import_model(m, "m.onnx")
    assert ("ge.ClipByValue" in _ge_ops(module)) == bool(saturate)
    want = (np.clip(x, -top, top) if saturate else x).astype(f8)
    for (got,) in (run_module(module, [x]), api.simulate(module, [x]).outputs):
        assert got.dtype == f8
        np.testing.assert_array_equal(got.astype(np.float64), want.astype(np.float64))


@pytest.mark.parametrize(("alpha", "gamma"), [(2.0, 3.0), (1.6732632, 0.5), (0.25, 1.0507)])
def test_selu_with_other_constants_is_gamma_times_elu(alpha: float, gamma: float) -> None:
    c = case("Selu", "Selu", {"x": f32(3, 5, seed=4) * 3}, ["ge.Elu", "ge.Mul"], alpha=alpha, gamma=gamma)
    assert _ge_ops(import_model(c.model, "m.onnx")) == c.expect
    test_numbers(c)


@pytest.mark.parametrize("out", [np.uint8, np.int8])
@pytest.mark.parametrize("scale", [np.float32, np.float16])
def test_qlinear_matmul_is_onnx_reference(out: type, scale: type) -> None:
    # ONNX's definition (its ReferenceEvaluator): C * (a_scale * b_scale / y_scale) in float64
    # (int32 times a narrower float), + y_zero_point, rint, clip; saturating int8 outputs
    from onnx.reference import ReferenceEvaluator

    r = rng(11)
    a = r.integers(-128, 128, (2, 3, 6)).astype(out) if out is np.int8 else u8(2, 3, 6, seed=11)
    b = r.integers(-128, 128, (2, 6, 4)).astype(out) if out is np.int8 else u8(2, 6, 4, seed=12)
    vals = [a, np.array([0.031], scale), np.array([3], out), b, np.array([0.017], scale), np.array([-5 if out is np.int8 else 9], out),
            np.array([0.009], scale), np.array([2], out)]  # fmt: skip
    names = ["a", "as", "az", "b", "bs", "bz", "ys", "yz"]
    m = make_model([h.make_node("QLinearMatMul", names, ["y"], name="q")],
                   [(n, _ONNX_OF[v.dtype.type], list(v.shape)) for n, v in zip(names, vals)], ["y"], opset=21)  # fmt: skip
    (want,) = ReferenceEvaluator(m).run(None, dict(zip(names, vals)))
    module = import_model(m, "m.onnx")
    assert (want == np.iinfo(out).min).any() or (want == np.iinfo(out).max).any()  # some saturate
    for (got,) in (run_module(module, vals), api.simulate(module, vals).outputs):
        np.testing.assert_array_equal(got, want)


def test_matmul_integer_per_row_and_column_zero_points() -> None:
    # ONNX allows one zero point per row of A and per column of B (onnxruntime does not):
    # numpy computes the expected int32 product
    a, b, az, bz = u8(4, 3), u8(3, 5, seed=1), u8(4, seed=2), u8(5, seed=3)
    m = make_model(
        [h.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"], name="mi")],
        [("a", T.UINT8, [4, 3]), ("b", T.UINT8, [3, 5]), ("az", T.UINT8, [4]), ("bz", T.UINT8, [5])],
        ["y"],
        opset=10,
    )
    want = (a.astype(np.int32) - az.astype(np.int32)[:, None]) @ (b.astype(np.int32) - bz.astype(np.int32))
    module = import_model(m, "m.onnx")
    for (got,) in (run_module(module, [a, b, az, bz]), api.simulate(module, [a, b, az, bz]).outputs):
        np.testing.assert_array_equal(got, want)
