"""The ONNX importer op by op: what each mapped ONNX op becomes, and its numbers.

For every case (at least one per mapped op; several for ops with opset- or
attribute-dependent mappings) a tiny model is built with onnx.helper:

* `test_import`: the ge ops it imports to (type, the GE attributes the plugin sets,
  output shapes), written by hand from the plugin file the converter cites;
* `test_numbers`: the reference interpreter (runtime/reference.py `run_module`) on the
  imported module against onnxruntime on the model, same seeded inputs.

Tolerances per dtype (TOLERANCES): float32 rtol 1e-5 and atol 1e-6 x max(1, max|ort|)
(the reference computes float32 ops in float32, MatMul/Conv/reductions accumulate in
float32 as onnxruntime's kernels do, but in another order; onnxruntime's exp/tanh/sigmoid
are polynomial approximations within a few ulp); float16 rtol 1e-3 and atol 1e-3 x
max(1, max|ort|) (one f16 rounding of a float32 result either side: half an ulp is 4.9e-4
relative); float64 1e-12; integers and bool exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper
from xdsl.dialects.builtin import ArrayAttr, DenseIntOrFPElementsAttr, IntegerAttr, StringAttr

from conftest import CONTROL_ONNX_OPS, MORE_ONNX_OPS, ONNX_POINTWISE_OPS, STRUCTURAL_ONNX_OPS
from conftest import make_onnx_model as make_model
from ge_dialect import ge
from ge_dialect.desc import shape_of
from importers.onnx import MAPPINGS, import_model, supported_ops
from runtime.interpreter import run_module

TOLERANCES: dict[str, tuple[float, float]] = {
    "float32": (1e-5, 1e-6),
    "float16": (1e-3, 1e-3),
    "float64": (1e-12, 1e-12),
}


# ---------------------------------------------------------------------------------------
# Building models
# ---------------------------------------------------------------------------------------


_NP = {
    T.FLOAT: np.float32,
    T.FLOAT16: np.float16,
    T.DOUBLE: np.float64,
    T.INT32: np.int32,
    T.INT64: np.int64,
    T.BOOL: np.bool_,
}


def seeded_inputs(m: onnx.ModelProto, seed: int, positive: bool = False) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    inits = {t.name for t in m.graph.initializer}
    out = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        dt = _NP[vi.type.tensor_type.elem_type]
        shape = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        if np.dtype(dt).kind == "f":
            a = rng.uniform(0.5, 2.0, shape) if positive else rng.standard_normal(shape)
        elif np.dtype(dt).kind == "b":
            a = rng.integers(0, 2, shape)
        else:
            a = rng.integers(-5, 6, shape)
        out.append(np.asarray(a).astype(dt))
    return out


# ---------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    model: onnx.ModelProto
    # (ge op name, attributes that must be there with these values, output shapes), in order,
    # for every op except ge.Data, ge.Const and ge.NetOutput.
    expect: list[tuple[str, dict[str, object], list[tuple[int, ...]]]]
    positive: bool = False  # inputs in [0.5, 2) (Log, Sqrt, Pow, Reciprocal, Div)
    inputs: list[np.ndarray] | None = field(default=None)


F = T.FLOAT


def one(
    op: str, ins: list[tuple[str, int, list[int]]], opset: int = 17, inits=None, n_out: int = 1, **attrs
) -> onnx.ModelProto:
    outs = [f"y{i}" for i in range(n_out)]
    node = h.make_node(op, [n for n, _, _ in ins] + list((inits or {}).keys()), outs, name="n", **attrs)
    return make_model([node], ins, outs, inits, opset)


def unary_case(op: str, ge_op: str, elem: int = F, shape=(2, 3, 4), positive: bool = False) -> Case:
    return Case(
        f"{op}-{T.DataType.Name(elem).lower()}", one(op, [("x", elem, list(shape))]), [(ge_op, {}, [shape])], positive
    )


def binary_case(
    op: str, ge_op: str, a=(2, 3, 4), b=(4,), out=(2, 3, 4), elem: int = F, positive: bool = False, tag: str = ""
) -> Case:
    m = one(op, [("a", elem, list(a)), ("b", elem, list(b))])
    return Case(f"{op}-{T.DataType.Name(elem).lower()}{tag}", m, [(ge_op, {}, [out])], positive)


CASES: list[Case] = [
    # -- pointwise (similar_opp_plugins.cc) --------------------------------------------
    binary_case("Add", "ge.Add"),
    binary_case("Add", "ge.Add", a=(3, 1), b=(1, 4), out=(3, 4), elem=T.FLOAT16, tag="-bcast"),
    binary_case("Add", "ge.Add", a=(2, 3), b=(2, 3), out=(2, 3), elem=T.INT64),
    binary_case("Sub", "ge.Sub", a=(3, 1), b=(1, 4), out=(3, 4)),
    binary_case("Mul", "ge.Mul", a=(), b=(2, 3), out=(2, 3), tag="-0d"),
    binary_case("Mul", "ge.Mul", a=(0, 3), b=(3,), out=(0, 3), tag="-size0"),
    binary_case("Div", "ge.RealDiv", positive=True),
    binary_case("Div", "ge.RealDiv", a=(5,), b=(5,), out=(5,), elem=T.DOUBLE, positive=True),
    binary_case("Pow", "ge.Pow", a=(2, 3), b=(2, 3), out=(2, 3), positive=True),
    unary_case("Relu", "ge.Relu"),
    unary_case("Relu", "ge.Relu", elem=T.FLOAT16, shape=(7,)),
    unary_case("Abs", "ge.Abs", elem=T.INT32),
    unary_case("Neg", "ge.Neg"),
    unary_case("Exp", "ge.Exp"),
    unary_case("Log", "ge.Log", positive=True),
    unary_case("Sqrt", "ge.Sqrt", positive=True),
    unary_case("Sigmoid", "ge.Sigmoid"),
    unary_case("Tanh", "ge.Tanh", elem=T.FLOAT16),
    unary_case("Reciprocal", "ge.Reciprocal", positive=True),
    unary_case("Identity", "ge.Identity", shape=()),
    Case(
        "Div-int32",
        make_model(
            [h.make_node("Div", ["a", "b"], ["y0"], name="n")],
            [("a", T.INT32, [2, 3])],
            ["y0"],
            {"b": np.array([[3, -2, 5], [4, 7, -3]], dtype=np.int32)},
        ),
        [("ge.Div", {}, [(2, 3)])],
    ),
    # -- Max / Min (max_plugin.cc, min_plugin.cc): chains; Sum / Mean -------------------
    Case(
        "Max-3",
        one("Max", [("a", F, [2, 1, 4]), ("b", F, [3, 1]), ("c", F, [4])]),
        [("ge.Maximum", {}, [(2, 3, 4)]), ("ge.Maximum", {}, [(2, 3, 4)])],
    ),
    Case("Max-1", one("Max", [("a", F, [3])]), [("ge.Identity", {}, [(3,)])]),
    Case("Min-2", one("Min", [("a", T.INT32, [2, 3]), ("b", T.INT32, [3])]), [("ge.Minimum", {}, [(2, 3)])]),
    Case("Sum-3", one("Sum", [("a", F, [2, 3]), ("b", F, [3]), ("c", F, [2, 3])]), [("ge.AddN", {"N": 3}, [(2, 3)])]),
    Case(
        "Mean-2",
        one("Mean", [("a", F, [2, 3]), ("b", F, [2, 3])]),
        [("ge.AddN", {"N": 2}, [(2, 3)]), ("ge.Mul", {}, [(2, 3)])],
    ),
    # -- Cast (cast_plugin.cc: dst_type = GE's DataType) --------------------------------
    Case("Cast-f32-i32", one("Cast", [("x", F, [2, 5])], to=T.INT32), [("ge.Cast", {"dst_type": 3}, [(2, 5)])]),
    Case("Cast-i64-f16", one("Cast", [("x", T.INT64, [4])], to=T.FLOAT16), [("ge.Cast", {"dst_type": 1}, [(4,)])]),
    Case("Cast-f32-bool", one("Cast", [("x", F, [4])], to=T.BOOL), [("ge.Cast", {"dst_type": 12}, [(4,)])]),
    # -- reductions (reduce_*_plugin.cc) --------------------------------------------------
    Case(
        "ReduceSum-13-axes-input",
        one("ReduceSum", [("x", F, [2, 3, 4])], opset=13, inits={"axes": np.array([1], np.int64)}, keepdims=0),
        [("ge.ReduceSumD", {"axes": [1], "keep_dims": False}, [(2, 4)])],
    ),
    Case(
        "ReduceSum-11-axes-attr",
        one("ReduceSum", [("x", F, [2, 3, 4])], opset=11, axes=[0, 2]),
        [("ge.ReduceSumD", {"axes": [0, 2], "keep_dims": True}, [(1, 3, 1)])],
    ),
    Case(
        "ReduceSum-noop-empty-axes",
        one("ReduceSum", [("x", F, [2, 3])], opset=13, noop_with_empty_axes=1),
        [("ge.Identity", {}, [(2, 3)])],
    ),
    Case(
        "ReduceMax-18-axes-input",
        one("ReduceMax", [("x", F, [2, 3, 4])], opset=18, inits={"axes": np.array([-1], np.int64)}),
        [("ge.ReduceMaxD", {"axes": [-1], "keep_dims": True}, [(2, 3, 1)])],
    ),
    Case(
        "ReduceMin-17-axes-attr",
        one("ReduceMin", [("x", T.INT32, [3, 4])], opset=17, axes=[-2], keepdims=0),
        [("ge.ReduceMinD", {"axes": [-2], "keep_dims": False}, [(4,)])],
    ),
    Case(
        "ReduceMean-all-axes",
        one("ReduceMean", [("x", F, [2, 3, 4])], opset=17),
        [("ge.ReduceMeanD", {"axes": [], "keep_dims": True}, [(1, 1, 1)])],
    ),
    Case(
        "ReduceProd",
        one("ReduceProd", [("x", F, [2, 3])], opset=17, axes=[1], keepdims=0),
        [("ge.ReduceProdD", {"axes": [1], "keep_dims": False}, [(2,)])],
        positive=True,
    ),
    Case(
        "ReduceLogSum",
        one("ReduceLogSum", [("x", F, [2, 3])], opset=17, axes=[0]),
        [("ge.ReduceSumD", {"axes": [0], "keep_dims": True}, [(1, 3)]), ("ge.Log", {}, [(1, 3)])],
        positive=True,
    ),
    Case(
        "ReduceLogSumExp-18",
        one("ReduceLogSumExp", [("x", F, [2, 3])], opset=18, inits={"axes": np.array([1], np.int64)}, keepdims=0),
        [
            ("ge.Exp", {}, [(2, 3)]),
            ("ge.ReduceSumD", {"axes": [1], "keep_dims": False}, [(2,)]),
            ("ge.Log", {}, [(2,)]),
        ],
    ),
    # -- Concat (concat_plugin.cc), Split (split_plugin.cc) ------------------------------
    Case(
        "Concat-3",
        one("Concat", [("a", F, [2, 3]), ("b", F, [2, 1]), ("c", F, [2, 0])], axis=-1),
        [("ge.ConcatD", {"concat_dim": -1, "N": 3}, [(2, 4)])],
    ),
    Case("Concat-1", one("Concat", [("a", F, [2, 3])], axis=0), [("ge.Identity", {}, [(2, 3)])]),
    Case(
        "Split-11-attr",
        one("Split", [("x", F, [6, 2])], opset=11, n_out=2, axis=0, split=[2, 4]),
        [("ge.SplitVD", {"size_splits": [2, 4], "split_dim": 0, "num_split": 2}, [(2, 2), (4, 2)])],
    ),
    Case(
        "Split-13-equal",
        one("Split", [("x", F, [2, 9])], opset=13, n_out=3, axis=1),
        [("ge.SplitD", {"split_dim": 1, "num_split": 3}, [(2, 3), (2, 3), (2, 3)])],
    ),
    Case(
        "Split-13-input",
        one("Split", [("x", T.INT64, [5, 2])], opset=13, n_out=2, inits={"split": np.array([1, 4], np.int64)}),
        [("ge.SplitVD", {"size_splits": [1, 4], "split_dim": 0, "num_split": 2}, [(1, 2), (4, 2)])],
    ),
    Case(
        "Split-18-num-outputs-uneven",
        one("Split", [("x", F, [7])], opset=18, n_out=3, num_outputs=3),
        [("ge.SplitVD", {"size_splits": [3, 3, 1], "split_dim": 0, "num_split": 3}, [(3,), (3,), (1,)])],
    ),
    # -- the reshape family, Transpose, Expand -------------------------------------------
    Case(
        "Reshape-0-and-minus1",
        one("Reshape", [("x", F, [2, 3, 4])], inits={"shape": np.array([0, -1], np.int64)}),
        [("ge.Reshape", {}, [(2, 12)])],
    ),
    Case(
        # PyTorch's flatten: the shape stays Reshape's input 1, for the prepare passes to fold
        "Reshape-computed-shape",
        make_model(
            [
                h.make_node("Shape", ["x"], ["s"], name="shape"),
                h.make_node("Gather", ["s", "zero"], ["b"], name="gather", axis=0),
                h.make_node("Unsqueeze", ["b", "axes"], ["bu"], name="unsqueeze"),
                h.make_node("Concat", ["bu", "minus1"], ["c"], name="concat", axis=0),
                h.make_node("Reshape", ["x", "c"], ["y"], name="reshape"),
            ],
            [("x", F, [3, 4, 5])],
            ["y"],
            {"zero": np.array(0, np.int64), "axes": np.array([0], np.int64), "minus1": np.array([-1], np.int64)},
        ),
        [
            ("ge.Shape", {}, [(3,)]),
            ("ge.GatherV2", {}, [()]),
            ("ge.UnsqueezeV3", {"axes": [0]}, [(1,)]),
            ("ge.ConcatD", {"concat_dim": 0, "N": 2}, [(2,)]),
            ("ge.Reshape", {}, [(3, 20)]),
        ],
    ),
    # -- graph preparation: Dropout (its mask a Const of ones), Size, ConstantOfShape, Range
    Case("Dropout-with-mask", one("Dropout", [("x", F, [2, 3])], n_out=2), [("ge.Dropout", {}, [(2, 3)])]),
    Case(
        "Dropout-12-ratio-training-false",
        one("Dropout", [("x", F, [4])], inits={"r": np.array(0.3, np.float32), "t": np.array(False)}),
        [("ge.Dropout", {}, [(4,)])],
    ),
    Case("Size", one("Size", [("x", T.INT32, [2, 3, 4])]), [("ge.Size", {}, [()])]),
    Case(
        "ConstantOfShape-int32",
        one(
            "ConstantOfShape",
            [],
            inits={"shape": np.array([2, 3], np.int64)},
            value=numpy_helper.from_array(np.array([7], np.int32)),
        ),
        [("ge.Fill", {}, [(2, 3)])],
    ),  # fmt: skip
    Case(
        "ConstantOfShape-default-zero",
        one("ConstantOfShape", [], inits={"shape": np.array([4], np.int64)}),
        [("ge.Fill", {}, [(4,)])],
    ),
    Case(
        "Range-int64",
        one("Range", [], inits={"a": np.array(1, np.int64), "b": np.array(10, np.int64), "c": np.array(3, np.int64)}),
        [("ge.Range", {}, [(3,)])],
    ),
    Case(
        "Range-float-down",
        one(
            "Range",
            [],
            inits={"a": np.array(2.0, np.float32), "b": np.array(-1.0, np.float32), "c": np.array(-0.5, np.float32)},
        ),
        [("ge.Range", {}, [(6,)])],
    ),  # fmt: skip
    Case("Flatten-axis2", one("Flatten", [("x", F, [2, 3, 4, 5])], axis=2), [("ge.Flatten", {"axis": 2}, [(6, 20)])]),
    Case("Flatten-axis0", one("Flatten", [("x", F, [2, 3])], axis=0), [("ge.Flatten", {"axis": 0}, [(1, 6)])]),
    Case(
        "Squeeze-11",
        one("Squeeze", [("x", F, [2, 1, 3, 1])], opset=11, axes=[1]),
        [("ge.Squeeze", {"axis": [1]}, [(2, 3, 1)])],
    ),
    Case(
        "Squeeze-13-input",
        one("Squeeze", [("x", F, [2, 1, 3, 1])], opset=13, inits={"axes": np.array([-1, 1], np.int64)}),
        [("ge.SqueezeV3", {"axes": [-1, 1]}, [(2, 3)])],
    ),
    Case("Squeeze-13-all", one("Squeeze", [("x", F, [1, 3, 1])], opset=13), [("ge.SqueezeV3", {}, [(3,)])]),
    Case(
        "Unsqueeze-11",
        one("Unsqueeze", [("x", F, [2, 3])], opset=11, axes=[0, 3]),
        [("ge.Unsqueeze", {"axes": [0, 3]}, [(1, 2, 3, 1)])],
    ),
    Case(
        "Unsqueeze-13-input",
        one("Unsqueeze", [("x", F, [2, 3])], opset=13, inits={"axes": np.array([-1], np.int64)}),
        [("ge.UnsqueezeV3", {"axes": [-1]}, [(2, 3, 1)])],
    ),
    Case(
        "Transpose-perm",
        one("Transpose", [("x", F, [2, 3, 4])], perm=[2, 0, 1]),
        [("ge.TransposeD", {"perm": [2, 0, 1]}, [(4, 2, 3)])],
    ),
    Case(
        "Transpose-default",
        one("Transpose", [("x", F, [2, 3, 4])]),
        [("ge.TransposeD", {"perm": [2, 1, 0]}, [(4, 3, 2)])],
    ),
    Case(
        "Expand-grow",
        one("Expand", [("x", F, [3, 1])], inits={"shape": np.array([2, 1, 4], np.int64)}),
        [("ge.BroadcastToD", {"shape": [2, 3, 4]}, [(2, 3, 4)])],
    ),
    Case(
        "Expand-bidirectional",
        one("Expand", [("x", F, [2, 3])], inits={"shape": np.array([1], np.int64)}),
        [("ge.BroadcastToD", {"shape": [2, 3]}, [(2, 3)])],
    ),
    Case("Shape", one("Shape", [("x", F, [2, 3, 4])]), [("ge.Shape", {}, [(3,)])]),
    # -- Gather (gather_plugin.cc): GatherV2 with a Const axis -------------------------------
    Case(
        "Gather-axis0",
        one("Gather", [("x", F, [5, 4])], inits={"idx": np.array([[0, 4], [2, 2]], np.int64)}),
        [("ge.GatherV2", {}, [(2, 2, 4)])],
    ),
    Case(
        "Gather-axis1-int32",
        one("Gather", [("x", F, [2, 5, 3])], inits={"idx": np.array([4, 0, 1], np.int32)}, axis=1),
        [("ge.GatherV2", {}, [(2, 3, 3)])],
    ),
    # -- MatMul (matmul_plugin.cc), Gemm (gemm_plugin.cc) ------------------------------------
    Case("MatMul-2d", one("MatMul", [("a", F, [3, 4]), ("b", F, [4, 5])]), [("ge.MatMul", {}, [(3, 5)])]),
    Case(
        "Gemm-trans-bias",
        one("Gemm", [("a", F, [4, 3]), ("b", F, [5, 4]), ("c", F, [5])], transA=1, transB=1),
        [("ge.MatMul", {"transpose_x1": True, "transpose_x2": True}, [(3, 5)])],
    ),
    Case(
        "Gemm-matrix-C",
        one("Gemm", [("a", F, [3, 4]), ("b", F, [4, 5]), ("c", F, [3, 5])]),
        [("ge.MatMul", {"transpose_x1": False, "transpose_x2": False}, [(3, 5)]), ("ge.Add", {}, [(3, 5)])],
    ),
    Case("Gemm-no-C", one("Gemm", [("a", F, [3, 4]), ("b", F, [4, 2])]), [("ge.MatMul", {}, [(3, 2)])]),
    Case(
        "Gemm-C-1xN",
        one("Gemm", [("a", F, [3, 4]), ("b", F, [4, 2]), ("c", F, [1, 2])]),
        [("ge.MatMul", {"transpose_x1": False, "transpose_x2": False}, [(3, 2)])],
    ),
    Case(
        "Gemm-C-scalar",
        one("Gemm", [("a", F, [3, 4]), ("b", F, [4, 2]), ("c", F, [])]),
        [("ge.MatMul", {}, [(3, 2)]), ("ge.Add", {}, [(3, 2)])],
    ),
    # -- Conv (conv_plugin.cc) -----------------------------------------------------------------
    Case(
        "Conv-2d-pads-strides-dilations-group",
        one(
            "Conv",
            [("x", F, [1, 4, 9, 8]), ("w", F, [6, 2, 3, 2]), ("b", F, [6])],
            pads=[1, 0, 2, 1],
            strides=[2, 1],
            dilations=[1, 2],
            group=2,
        ),
        [
            (
                "ge.Conv2D",
                {
                    "strides": [1, 1, 2, 1],
                    "pads": [1, 2, 0, 1],
                    "dilations": [1, 1, 1, 2],
                    "groups": 2,
                    "data_format": "NCHW",
                },
                [(1, 6, 5, 7)],
            )
        ],
    ),
    Case(
        "Conv-2d-same-upper",
        one("Conv", [("x", F, [2, 3, 7, 7]), ("w", F, [4, 3, 3, 3])], auto_pad="SAME_UPPER", strides=[2, 2]),
        [("ge.Conv2D", {"pads": [1, 1, 1, 1], "strides": [1, 1, 2, 2]}, [(2, 4, 4, 4)])],
    ),
    Case(
        "Conv-2d-same-lower-even",
        one("Conv", [("x", F, [1, 2, 6, 6]), ("w", F, [2, 2, 2, 2])], auto_pad="SAME_LOWER"),
        [("ge.Conv2D", {"pads": [1, 0, 1, 0]}, [(1, 2, 6, 6)])],
    ),
    Case(
        "Conv-2d-depthwise",
        one("Conv", [("x", F, [1, 3, 5, 5]), ("w", F, [3, 1, 3, 3])], group=3, pads=[1, 1, 1, 1]),
        [("ge.Conv2D", {"groups": 3}, [(1, 3, 5, 5)])],
    ),
    Case(
        "Conv-1d",
        one("Conv", [("x", F, [2, 3, 10]), ("w", F, [4, 3, 3]), ("b", F, [4])], pads=[1, 2], strides=[2]),
        [
            ("ge.Unsqueeze", {"axes": [2]}, [(2, 3, 1, 10)]),
            ("ge.Unsqueeze", {"axes": [2]}, [(4, 3, 1, 3)]),
            ("ge.Conv2D", {"strides": [1, 1, 1, 2], "pads": [0, 0, 1, 2], "dilations": [1, 1, 1, 1]}, [(2, 4, 1, 6)]),
            ("ge.Squeeze", {"axis": [2]}, [(2, 4, 6)]),
        ],
    ),
    # -- Constant: a ge.Const where a node reads it -------------------------------------------
    Case(
        "Constant",
        make_model(
            [
                h.make_node(
                    "Constant",
                    [],
                    ["k"],
                    name="k",
                    value=numpy_helper.from_array(np.array([1.5, -2.0, 3.0], np.float32)),
                ),
                h.make_node("Add", ["x", "k"], ["y0"], name="n"),
            ],
            [("x", F, [2, 3])],
            ["y0"],
        ),
        [("ge.Add", {}, [(2, 3)])],
    ),
]


def _attr_value(a) -> object:
    if isinstance(a, IntegerAttr):
        return bool(a.value.data) if a.type.width.data == 1 else a.value.data
    if isinstance(a, ArrayAttr):
        return [_attr_value(e) for e in a.data]
    if isinstance(a, StringAttr):
        return a.data
    return a


def _graph(module) -> ge.GraphOp:
    (g,) = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    return g


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_import(case: Case) -> None:
    g = _graph(import_model(case.model, f"{case.id}.onnx"))
    got = []
    for op in g.body.block.ops:
        if isinstance(op, ge.Data | ge.Const | ge.NetOutput):
            continue
        got.append(op)
    assert [op.name for op in got] == [e[0] for e in case.expect]
    for op, (_, attrs, shapes) in zip(got, case.expect):
        for k, v in attrs.items():
            assert k in op.attributes, f"{op.name} lacks {k}"
            assert _attr_value(op.attributes[k]) == v, f"{op.name}.{k}"
        assert [shape_of(r.type) for r in op.results] == shapes


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_numbers(case: Case) -> None:
    inputs = seeded_inputs(case.model, seed=len(case.id), positive=case.positive)
    module = import_model(case.model, f"{case.id}.onnx")
    got = run_module(module, inputs)
    sess = ort.InferenceSession(case.model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    want = sess.run(None, dict(zip(names, inputs)))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_close(g, w)


def assert_close(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if got.dtype.name in TOLERANCES:
        rtol, atol = TOLERANCES[got.dtype.name]
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol * scale)
    else:
        np.testing.assert_array_equal(got, want)


def test_every_mapped_op_has_a_case() -> None:
    """Each op the importer converts appears in CASES (so each has an import and a numeric test),
    or in test_onnx_ops_pointwise.py's (ONNX_POINTWISE_OPS) or test_onnx_ops_structural.py's
    (STRUCTURAL_ONNX_OPS) or test_onnx_more_ops.py's (MORE_ONNX_OPS), or are the recurrent
    ops of test_onnx_rnn.py or the control-flow ops of test_onnx_control.py (CONTROL_ONNX_OPS)."""
    covered = {n.op_type for c in CASES for n in c.model.graph.node} | ONNX_POINTWISE_OPS | STRUCTURAL_ONNX_OPS
    covered |= MORE_ONNX_OPS | CONTROL_ONNX_OPS | {"LSTM", "GRU", "RNN"}
    assert set(supported_ops()) - covered == set()


def test_mapping_table_cites_a_plugin_for_every_op() -> None:
    for m in MAPPINGS.values():
        # "-": no plugin in the public copy (an imported one says how it is mapped instead)
        no_plugin = m.plugin == "-" and (m.needs or "no plugin in the public copy" in m.ge_ops)
        assert m.plugin.endswith(".cc") or m.plugin.startswith("onnx_parser.cc") or no_plugin, m
    # what is imported needs nothing; what is not names what it needs
    assert {k for k, m in MAPPINGS.items() if not m.needs} == set(supported_ops())


def test_const_holds_the_initializer_bytes() -> None:
    w = np.arange(-6, 6, dtype=np.float32).reshape(3, 4) / 7
    m = make_model([h.make_node("MatMul", ["x", "w"], ["y0"], name="n")], [("x", F, [2, 3])], ["y0"], {"w": w})
    g = _graph(import_model(m, "m.onnx"))
    (c,) = [op for op in g.body.block.ops if isinstance(op, ge.Const)]
    v = c.attributes["value"]
    assert isinstance(v, DenseIntOrFPElementsAttr)
    np.testing.assert_array_equal(np.array(v.get_values(), dtype=np.float32).reshape(3, 4), w)
    assert c.results[0].name_hint == "w"


def test_bool_and_int_constants_round_trip() -> None:
    """i1 `true` is stored as GE's signless byte; int8 / uint8 keep their values."""
    vals = {
        "b": np.array([True, False, True]),
        "i8": np.array([-128, 0, 127], np.int8),
        "u8": np.array([0, 200, 255], np.uint8),
    }
    nodes = [h.make_node("Identity", [k], [f"o_{k}"], name=f"id_{k}") for k in vals]
    m = make_model(nodes, [], [f"o_{k}" for k in vals], vals)
    got = run_module(import_model(m, "m.onnx"), [])
    for (k, want), g in zip(vals.items(), got):
        assert g.dtype == want.dtype and np.array_equal(g, want), k


# ---------------------------------------------------------------------------------------
# Names, Data indices, locations, determinism
# ---------------------------------------------------------------------------------------


def test_names_are_valid_unique_and_keep_the_original() -> None:
    nodes = [
        h.make_node("Relu", ["x"], ["a"], name="/layer1/Relu"),
        h.make_node("Relu", ["a"], ["b"]),  # unnamed: GE names it <OpType>_<k>
        h.make_node("Neg", ["b"], ["c"], name="dup"),
        h.make_node("Neg", ["c"], ["d"], name="dup"),
        h.make_node("Abs", ["d"], ["e"], name="1st"),
        h.make_node("Relu", ["e"], ["f"]),
        h.make_node("Relu", ["f"], ["g"], name="卷积 1"),
        h.make_node("Relu", ["g"], ["i"], name="dup"),
    ]
    m = make_model(nodes, [("x", F, [2])], ["i"])
    module = import_model(m, "m.onnx")
    g = _graph(module)
    ops = [op for op in g.body.block.ops if not isinstance(op, ge.Data | ge.NetOutput)]
    names = [op.results[0].name_hint for op in ops]
    assert names == ["_layer1_Relu", "Relu_0", "dup", "dup_1", "n1st", "Relu_1", "___1", "dup_2"]
    kept = {op.results[0].name_hint: op.attributes["onnx_name"].data for op in ops if "onnx_name" in op.attributes}
    assert kept == {"_layer1_Relu": "/layer1/Relu", "dup_1": "dup", "n1st": "1st", "___1": "卷积 1", "dup_2": "dup"}
    assert "onnx_name" not in ops[1].attributes  # Relu_0 is already its name
    # the printed module parses back with the same names
    from ge_tools.parse import parse_module
    from ge_tools.registry import make_context

    back = parse_module(make_context(), str(module), "m.mlir")
    back.verify()
    assert [op.results[0].name_hint for op in _graph(back).body.block.ops if op.results][1:] == names


def test_data_indices_follow_inputs_without_initializers() -> None:
    """An input that has an initializer (IR < 4 models list weights as inputs) is a Const,
    not a Data (onnx_parser.cc: ParseInput); the other inputs are Data 0, 1, ... in order."""
    w = np.ones((3,), np.float32)
    m = make_model(
        [h.make_node("Add", ["a", "w"], ["s"], name="add"), h.make_node("Mul", ["s", "b"], ["y0"], name="mul")],
        [("a", F, [3]), ("w", F, [3]), ("b", F, [3])],
        ["y0"],
        {"w": w},
    )
    g = _graph(import_model(m, "m.onnx"))
    datas = [
        (op.results[0].name_hint, op.attributes["index"].value.data)
        for op in g.body.block.ops
        if isinstance(op, ge.Data)
    ]
    assert datas == [("a", 0), ("b", 1)]
    assert [op.results[0].name_hint for op in g.body.block.ops if isinstance(op, ge.Const)] == ["w"]


def test_locations_name_the_onnx_node() -> None:
    """Each op is located at the ONNX element it comes from, `FILE: WHAT` when printed
    (ge_dialect/diagnostics.py: element_location), with the node's number kept."""
    from ge_dialect.diagnostics import op_location

    m = make_model(
        [h.make_node("Relu", ["x"], ["a"], name="r"), h.make_node("Conv", ["a", "w"], ["y0"], name="c")],
        [("x", F, [1, 1, 5])],
        ["y0"],
        {"w": np.ones((1, 1, 3), np.float32)},
    )
    g = _graph(import_model(m, "net.onnx"))
    locs = {
        op.results[0].name_hint if op.results else "out": (op_location(op), op.location.location.line.data)
        for op in g.body.block.ops
    }
    assert locs["r"] == ("net.onnx: node 'r' (Relu)", 1)
    assert locs["c_UnsqueezeX"] == locs["c_Conv2D"] == locs["c"] == ("net.onnx: node 'c' (Conv)", 2)
    assert locs["x"] == ("net.onnx: input 'x'", 0)
    assert locs["w"] == ("net.onnx: initializer 'w'", 0)
    assert locs["out"] == (f"net.onnx: graph '{m.graph.name}' outputs", 0)
    assert op_location(g) == f"net.onnx: graph '{m.graph.name}'"


def test_import_is_deterministic() -> None:
    for case in CASES[::7]:
        a, b = str(import_model(case.model, "m.onnx")), str(import_model(case.model, "m.onnx"))
        assert a == b


def test_constant_used_twice_is_one_const_and_unused_initializers_make_none() -> None:
    m = make_model(
        [
            h.make_node("Constant", [], ["k"], name="k", value_float=2.0),
            h.make_node("Mul", ["x", "k"], ["a"], name="m1"),
            h.make_node("Add", ["a", "k"], ["y0"], name="a1"),
        ],
        [("x", F, [3])],
        ["y0"],
        {"unused": np.zeros((4,), np.float32)},
    )
    g = _graph(import_model(m, "m.onnx"))
    consts = [op.results[0].name_hint for op in g.body.block.ops if isinstance(op, ge.Const)]
    assert consts == ["k"]
    x = np.array([1.0, -2.0, 0.5], np.float32)
    (y,) = run_module(import_model(m, "m.onnx"), [x])
    np.testing.assert_array_equal(y, x * 2 + 2)
