"""bf16 and GE's float8 types end to end: an ONNX initializer of one of them imports as a
ge.Const whose dense attribute holds its values (xDSL's DenseIntOrFPElementsAttr stores
bf16 / f8E4M3FN / f8E5M2 as their own bytes, ml_dtypes' encoding), the text form prints
and parses back to the same bytes (NaN and infinities included: ge_tools/parse.py reads
a hex element of a float list as its bits, as MLIR does), GE's byte-copying host
kernels fold it, and ge-compile + the simulator compute with it as its own bytes.

Oracles: numpy with ml_dtypes (every op computes in float32 and rounds its result once,
ge_dialect/dtypes.py), and onnxruntime for the ops its CPU provider has in bf16 (Concat,
Transpose, Reshape, Slice; it has no bf16 arithmetic and cannot hand a bf16 array to
numpy, so its model ends in a Cast to float32 that only onnxruntime runs).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
)

from conftest import make_onnx_model
from ge_dialect import ge
from ge_dialect.dtypes import numpy_dtype
from ge_tools import api
from ge_tools import run as ge_run
from importers.onnx import import_model
from runtime.error_bound import output_error_bounds
from runtime.reference import select_graph

BF16 = np.dtype(ml_dtypes.bfloat16)
# ONNX element type, numpy dtype
LOW = [(T.BFLOAT16, BF16), (T.FLOAT8E4M3FN, np.dtype(ml_dtypes.float8_e4m3fn))]
LOW += [(T.FLOAT8E5M2, np.dtype(ml_dtypes.float8_e5m2))]


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.dtype(f"<u{a.dtype.itemsize}"))


def _round(x: np.ndarray, dt: np.dtype) -> np.ndarray:
    """float32 computation rounded once to `dt` (ml_dtypes: to nearest, ties to even)."""
    return np.asarray(x, np.float32).astype(dt)


def _model(nodes, inputs, outputs, inits, opset: int) -> onnx.ModelProto:
    m = make_onnx_model(nodes, inputs, outputs, inits, opset=opset)
    m.ir_version = 10 if opset >= 21 else 9 if opset >= 19 else m.ir_version  # float8 types: IR 9
    return m


def _simulate(module, inputs: list[np.ndarray], streams: int) -> list[np.ndarray]:
    """ge-compile{streams} (in-process) and the device simulator."""
    model = api.compile(module, streams=streams).model()
    assert model is not None
    return api.simulate(model, inputs).outputs


def _consts(module) -> dict[str, np.ndarray]:
    out = {}
    for op in module.walk():
        if isinstance(op, ge.Const):
            v = op.attributes["value"]
            assert isinstance(v, DenseIntOrFPElementsAttr)
            t = op.results[0].type
            out[ge.node_name(op)] = np.frombuffer(v.data.data, numpy_dtype(t.element_type)).reshape(t.get_shape())
    return out


def _specials(dt: np.dtype) -> np.ndarray:
    fi = ml_dtypes.finfo(dt)
    vals = [0.0, -0.0, 1.0 / 3, -2.5, float(fi.max), -float(fi.max), float(fi.tiny), float(fi.smallest_subnormal)]
    if dt != np.dtype(ml_dtypes.float8_e4m3fn):  # E4M3FN has no infinities
        vals += [math.inf, -math.inf]
    return np.array(vals + [math.nan], np.float64).astype(dt)


# -- the text form -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "elem",
    [Float16Type(), Float32Type(), Float64Type(), BFloat16Type(), Float8E4M3FNType(), Float8E5M2Type()],
    ids=str,
)
@pytest.mark.parametrize("form", ["list", "splat", "hex-string"])
def test_float_constants_print_and_parse_to_the_same_bytes(elem, form: str) -> None:
    # xDSL prints NaN and infinities of a dense list as hex bits (0x7fc00000) and read them
    # back as integer values (2.14e9): a NaN or -inf constant changed in a .mlir round trip
    dt = numpy_dtype(elem)
    if form == "list":
        a = np.concatenate([_specials(dt), np.array([1.5, -0.75], np.float32).astype(dt)])
    elif form == "splat":
        a = np.full((2, 3), -np.inf if dt != np.dtype(ml_dtypes.float8_e4m3fn) else np.nan, np.float32).astype(dt)
    else:  # many elements: printed as one hex string
        a = np.frombuffer(np.random.default_rng(1).bytes(300 * dt.itemsize), dt)
    with api.GraphBuilder("main") as g:
        x = g.data(a.shape, elem, name="x")
        g.output(ge.Add.build(x, g.const(a, elem, name="c"), name="y"))
    text = str(g.module)
    again = api.parse_module(text)
    assert np.array_equal(_bits(_consts(again)["c"]).reshape(-1), _bits(a).reshape(-1))
    assert str(again) == text


def test_e8m0_constant_round_trips() -> None:
    # f8E8M0FNU: powers of two and its one NaN (0xff); no zero, no sign
    a = np.array([2.0**-127, 0.25, 1.0, 2.0**127, math.nan], np.float32).astype(ml_dtypes.float8_e8m0fnu)
    with api.GraphBuilder("main") as g:
        x = g.data(a.shape, Float8E8M0FNUType(), name="x")
        g.output(ge.Identity.build(x, name="i"), g.const(a, Float8E8M0FNUType(), name="c"))
    again = api.parse_module(str(g.module))
    assert np.array_equal(_bits(_consts(again)["c"]), _bits(a))


# -- import, fold, compile, simulate ---------------------------------------------------------


@pytest.mark.parametrize("onnx_elem, dt", LOW, ids=["bf16", "f8E4M3FN", "f8E5M2"])
def test_initializer_imports_as_a_const_holding_its_bytes(onnx_elem: int, dt: np.dtype) -> None:
    # opset 21: Transpose-21 and Reshape-21 take the float8 types
    c = np.concatenate([_specials(dt), np.arange(5, dtype=np.float32).astype(dt)]).reshape(-1, 1)
    nodes = [
        h.make_node("Transpose", ["x"], ["y"], perm=[1, 0], name="tr"),
        h.make_node("Reshape", ["c", "shape"], ["z"], name="re"),
    ]
    inits = {"c": c, "shape": np.array([1, -1], np.int64)}
    m = _model(nodes, [("x", onnx_elem, [2, 3])], ["y", "z"], inits, 21)
    module = import_model(m, "m.onnx")
    assert np.array_equal(_bits(_consts(module)["c"]), _bits(c))
    elem = {T.BFLOAT16: "bf16", T.FLOAT8E4M3FN: "f8E4M3FN", T.FLOAT8E5M2: "f8E5M2"}[onnx_elem]
    types = {ge.node_name(op): str(op.results[0].type) for op in module.walk() if isinstance(op, ge.Const)}
    assert types["c"] == f"tensor<{c.size}x1x{elem}>"
    assert np.array_equal(_bits(_consts(api.parse_module(str(module)))["c"]), _bits(c))  # ge-import's text
    x = np.array([[0.5, -1.0, 3.0], [0.25, 0, -0.125]], np.float32).astype(dt)
    want = [x.T, c.reshape(1, -1)]
    for got in (api.reference(module, [x]), _simulate(module, [x], 1), _simulate(module, [x], 2)):
        assert [g.dtype for g in got] == [dt, dt]
        assert all(np.array_equal(_bits(g), _bits(w)) for g, w in zip(got, want))


def test_bf16_constants_fold_on_the_byte_copying_kernels() -> None:
    # Transpose and Reshape of a bf16 initializer are folded by the prepare passes (GE's
    # transpose / reshape host kernels copy bytes); Add of two bf16 Consts is not (GE's
    # add_kernel.cc dtype table has no DT_BF16): it stays a node and runs on the device
    rng = np.random.default_rng(3)
    c = rng.standard_normal((2, 3)).astype(BF16)
    d = rng.standard_normal((3, 2)).astype(BF16)
    nodes = [
        h.make_node("Transpose", ["c"], ["ct"], perm=[1, 0], name="t"),
        h.make_node("Reshape", ["ct", "shape"], ["cr"], name="r"),
        h.make_node("Add", ["cr", "d"], ["s"], name="add_consts"),
        h.make_node("Mul", ["x", "s"], ["y"], name="mul"),
    ]
    m = make_onnx_model(
        nodes, [("x", T.BFLOAT16, [3, 2])], ["y"], {"c": c, "d": d, "shape": np.array([3, 2], np.int64)}
    )
    module = import_model(m, "m.onnx")
    compiled = api.compile(module, "ge-dimension-compute-pass,ge-constant-folding-pass")
    types = [ge.ge_type(op) for op in select_graph(compiled.module, None).body.block.ops]
    assert "TransposeD" not in types and "Reshape" not in types and types.count("Add") == 1
    folded = {n: a for n, a in _consts(compiled.module).items() if a.shape == (3, 2) and n != "d"}
    assert len(folded) == 1 and np.array_equal(_bits(next(iter(folded.values()))), _bits(c.T.reshape(3, 2)))
    x = rng.standard_normal((3, 2)).astype(BF16)
    s = _round(c.T.astype(np.float32) + d.astype(np.float32), BF16)
    want = _round(x.astype(np.float32) * s.astype(np.float32), BF16)
    (ref,) = api.reference(module, [x])
    (sim,) = _simulate(module, [x], 1)
    assert np.array_equal(_bits(ref), _bits(want)) and np.array_equal(_bits(sim), _bits(want))


@pytest.mark.parametrize("shape", [(4, 5), (), (0, 3), (2, 1, 3)])
def test_bf16_clip_gelu_and_arithmetic_with_made_constants(shape: tuple[int, ...]) -> None:
    # Clip's default bounds and Gelu's constants are bf16 Consts the converter makes (they
    # were refused: "needs a bf16 constant"); checked op by op with numpy + ml_dtypes
    rng = np.random.default_rng(len(shape))
    w = rng.standard_normal(shape).astype(BF16)
    nodes = [
        h.make_node("Mul", ["x", "w"], ["m"], name="mul"),
        h.make_node("Clip", ["m"], ["c"], name="clip"),
        h.make_node("Gelu", ["c"], ["y"], name="gelu"),
    ]
    m = make_onnx_model(nodes, [("x", T.BFLOAT16, list(shape))], ["y"], {"w": w}, opset=20)
    module = import_model(m, "m.onnx")
    x = rng.uniform(-3, 3, shape).astype(BF16)
    (ref,) = api.reference(module, [x])
    mm = _round(x.astype(np.float32) * w.astype(np.float32), BF16).astype(np.float32)
    assert ref.dtype == BF16 and ref.shape == shape
    # exact Gelu as ONNX defines it, rounded once; the importer's formula (Mul, Erf, Add,
    # Mul: GE has no exact Gelu) rounds each of its ops to bf16: a few units of 2^-8
    erf = np.vectorize(math.erf, otypes=[np.float64])(mm.astype(np.float64) / math.sqrt(2))
    g = _round(0.5 * mm * (1 + erf), BF16).astype(np.float32)
    np.testing.assert_allclose(ref.astype(np.float32), g, rtol=2**-6, atol=2**-6)
    graph = select_graph(module, None)
    bound = output_error_bounds(graph, [x])[0]
    for streams in (1, 2):
        (sim,) = _simulate(module, [x], streams)
        assert sim.dtype == BF16 and ge_run.within_tolerance(sim, ref, bound).all()


@pytest.mark.parametrize("shape", [(2, 3), (1, 4)])
def test_bf16_data_movement_matches_onnxruntime(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(5)
    c = rng.standard_normal(shape).astype(BF16)
    c.reshape(-1)[0] = np.nan
    rows, cols = shape
    nodes = [
        h.make_node("Concat", ["x", "c"], ["cat"], axis=0, name="cat"),
        h.make_node("Transpose", ["cat"], ["t"], perm=[1, 0], name="tr"),
        h.make_node("Reshape", ["t", "shape"], ["r"], name="re"),
        h.make_node("Slice", ["r", "starts", "ends"], ["y"], name="sl"),
    ]
    inits = {
        "c": c,
        "shape": np.array([-1], np.int64),
        "starts": np.array([1], np.int64),
        "ends": np.array([2 * rows * cols - 1], np.int64),
    }
    m = make_onnx_model(nodes, [("x", T.BFLOAT16, list(shape))], ["y"], inits)
    x = rng.standard_normal(shape).astype(BF16)
    (sim,) = _simulate(import_model(m, "m.onnx"), [x], 1)
    # onnxruntime: the same model with a Cast to float32 after (its bf16 outputs have no numpy type)
    o = onnx.ModelProto()
    o.CopyFrom(m)
    o.graph.node.append(h.make_node("Cast", ["y"], ["y32"], to=T.FLOAT))
    del o.graph.output[:]
    o.graph.output.append(h.make_tensor_value_info("y32", T.FLOAT, list(sim.shape)))
    sess = ort.InferenceSession(o.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = ort.OrtValue.ortvalue_from_numpy_with_onnx_type(_bits(x), T.BFLOAT16)
    (want,) = sess.run_with_ort_values(None, {"x": feed})
    want = want.numpy()
    assert sim.dtype == BF16 and sim.shape == want.shape
    np.testing.assert_array_equal(sim.astype(np.float32), want)  # NaN equal to NaN; exact
    assert np.isnan(sim.astype(np.float32)).sum() == 1
