"""The activation, rounding, comparison, logic, selection, softmax and LayerNorm ge ops
(ge_dialect/ge.py, their section) end to end: the verifier (GE's op-proto dtypes, shapes),
the reference interpreter against formulas written here in float64 numpy (never the
program's own kernels), and ge-compile + the device simulator against the reference on
generated shapes (broadcasting, 0-d, size-0), f16 and f32 (bool for comparisons and
logic); which of them autofuse lowers, and that a chain of them fuses.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from ge_dialect import ge
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from lowering.lower_autofuse import LowerAutofusePass
from runtime.interpreter import run_module
from runtime.simulator import load

_ERF = np.vectorize(math.erf, otypes=[np.float64])
_SELU_A, _SELU_S = 1.67326324235, 1.05070098736


def _softplus(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)


# ge op -> (float64 formula, attributes as ge text, dtypes to run)
UNARY = {
    "Erf": (_ERF, "", ("f16", "f32")),
    "Gelu": (lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))), "", ("f16", "f32")),
    "HardSwish": (lambda x: x * np.clip(x + 3, 0, 6) / 6, "", ("f16", "f32")),
    "HardSigmoid": (lambda x: np.clip(0.25 * x + 0.375, 0, 1), "{alpha = 0.25 : f32, beta = 0.375 : f32}", ("f16", "f32")),
    "LeakyRelu": (lambda x: np.where(x >= 0, x, 0.125 * x), "{negative_slope = 0.125 : f32}", ("f16", "f32")),
    "Relu6": (lambda x: np.clip(x, 0, 6), "", ("f16", "f32", "i32")),
    "Elu": (lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1)), "{alpha = 0.5 : f32}", ("f16", "f32")),
    "Selu": (lambda x: _SELU_S * np.where(x > 0, x, _SELU_A * (np.exp(x) - 1)), "", ("f16", "f32")),
    "Celu": (lambda x: np.maximum(x, 0) + np.minimum(0, 2.0 * (np.exp(x / 2.0) - 1)), "{alpha1 = 2.0 : f32, alpha2 = 2.0 : f32}", ("f16", "f32")),
    "Softplus": (_softplus, "", ("f16", "f32")),
    "Softsign": (lambda x: x / (1 + np.abs(x)), "", ("f16", "f32")),
    "Mish": (lambda x: x * np.tanh(_softplus(x)), "", ("f16", "f32")),
    "Floor": (np.floor, "", ("f16", "f32")),
    "Ceil": (np.ceil, "", ("f16", "f32")),
    "Round": (np.rint, "", ("f16", "f32", "i32")),
    "Sign": (np.sign, "", ("f16", "f32", "i32")),
    "Sin": (np.sin, "", ("f16", "f32")),
    "Cos": (np.cos, "", ("f16", "f32")),
}  # fmt: skip
COMPARE = {
    "Equal": np.equal, "NotEqual": np.not_equal, "Less": np.less, "LessEqual": np.less_equal,
    "Greater": np.greater, "GreaterEqual": np.greater_equal,
}  # fmt: skip
LOGIC = {"LogicalAnd": np.logical_and, "LogicalOr": np.logical_or}
_NP = {"f16": np.float16, "f32": np.float32, "i32": np.int32, "i64": np.int64, "i1": np.bool_}
# relative tolerance of the reference against the float64 formula (a few roundings in the
# op's dtype; float16's half ulp is 4.9e-4)
_RTOL = {"f16": 8e-3, "f32": 2e-6, "i32": 0}


def _t(shape: tuple[int, ...], e: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{e}>"


def _values(shape: tuple[int, ...], e: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if e == "i1":
        return np.asarray(rng.integers(0, 2, shape)).astype(np.bool_)
    if e in ("i32", "i64"):
        return np.asarray(rng.integers(-7, 8, shape)).astype(_NP[e])
    # values on a grid of quarters (exact in f16, so ties and equalities occur) plus noise
    x = np.round(rng.standard_normal(shape) * 8) / 4 + rng.choice([0.0, 0.1], shape)
    return np.asarray(x).astype(_NP[e])


def _graph(op: str, attrs: str, ins: list[tuple[tuple[int, ...], str]], out: tuple[tuple[int, ...], str]) -> str:
    datas = "\n".join(f"  %x{i} = ge.Data {{index = {i}}} : {_t(s, e)}" for i, (s, e) in enumerate(ins))
    args = ", ".join(f"%x{i}" for i in range(len(ins)))
    tys = ", ".join(_t(s, e) for s, e in ins)
    return (
        f"ge.graph @main {{\n{datas}\n  %y = ge.{op}({args}) {attrs} : ({tys}) -> {_t(*out)}\n"
        f"  ge.NetOutput %y : {_t(*out)}\n}}"
    )


def _parse(text: str, pipeline: str = ""):
    opt = GeOptMain(["-p", pipeline] if pipeline else [])
    m = parse_module(opt.ctx, text, "t.mlir")
    m.verify()
    return opt, m


def _compiled(text: str, inputs: list[np.ndarray], streams: int = 1) -> list[np.ndarray]:
    """ge-compile, load on the simulator, execute once."""
    from ge_dialect import npu

    opt, m = _parse(text, f"ge-compile{{streams={streams}}}")
    c = m.clone()
    opt.apply_passes(c)
    model = next(o for o in c.ops if isinstance(o, npu.ModelOp))
    return load(model).execute([a.copy() for a in inputs])


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)  # NaN equals NaN


def _check_formula(got: np.ndarray, want64: np.ndarray, e: str) -> None:
    if e in ("i32", "i64", "i1"):
        np.testing.assert_array_equal(got, want64.astype(got.dtype))
        return
    rtol = _RTOL[e]
    np.testing.assert_allclose(got.astype(np.float64), want64, rtol=rtol, atol=rtol)


SHAPES = [(3, 5), (2, 1, 4), (), (0, 3)]


# ---------------------------------------------------------------------------------------
# Reference against the formulas, compiled against the reference
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_reference_and_compiled(op: str) -> None:
    fn, attrs, dtypes = UNARY[op]
    for e in dtypes:
        for k, shape in enumerate(SHAPES):
            text = _graph(op, attrs, [(shape, e)], (shape, e))
            x = _values(shape, e, seed=k)
            (ref,) = run_module(_parse(text)[1], [x])
            with np.errstate(all="ignore"):
                want = fn(x.astype(np.float64))
            _check_formula(ref, want, e)
            (got,) = _compiled(text, [x])
            _same(got, ref)


# (a, b, out) shapes with numpy broadcasting
BIN_SHAPES = [((3, 5), (5,), (3, 5)), ((2, 1, 4), (3, 1), (2, 3, 4)), ((), (4,), (4,)), ((0, 3), (1, 3), (0, 3))]


@pytest.mark.parametrize("op", sorted(COMPARE))
def test_comparisons_give_bool(op: str) -> None:
    for e in ("f16", "f32", "i32"):
        for k, (a, b, out) in enumerate(BIN_SHAPES):
            text = _graph(op, "", [(a, e), (b, e)], (out, "i1"))
            xa, xb = _values(a, e, k), _values(b, e, k + 10)
            (ref,) = run_module(_parse(text)[1], [xa, xb])
            _same(ref, COMPARE[op](xa.astype(np.float64), xb.astype(np.float64)))
            (got,) = _compiled(text, [xa, xb])
            _same(got, ref)


def test_equal_takes_bool() -> None:
    text = _graph("Equal", "", [((4,), "i1"), ((4,), "i1")], ((4,), "i1"))
    a, b = np.array([1, 0, 1, 0], bool), np.array([1, 1, 0, 0], bool)
    (ref,) = run_module(_parse(text)[1], [a, b])
    _same(ref, np.array([True, False, False, True]))
    _same(_compiled(text, [a, b])[0], ref)


@pytest.mark.parametrize("op", sorted(LOGIC))
def test_logical_binary(op: str) -> None:
    for k, (a, b, out) in enumerate(BIN_SHAPES):
        text = _graph(op, "", [(a, "i1"), (b, "i1")], (out, "i1"))
        xa, xb = _values(a, "i1", k), _values(b, "i1", k + 3)
        (ref,) = run_module(_parse(text)[1], [xa, xb])
        _same(ref, LOGIC[op](xa, xb))
        _same(_compiled(text, [xa, xb])[0], ref)


def test_logical_not_is_nan_is_inf() -> None:
    for k, shape in enumerate(SHAPES):
        x = _values(shape, "i1", k)
        text = _graph("LogicalNot", "", [(shape, "i1")], (shape, "i1"))
        (ref,) = run_module(_parse(text)[1], [x])
        _same(ref, ~x)
        _same(_compiled(text, [x])[0], ref)
        for op, fn in (("IsNan", np.isnan), ("IsInf", np.isinf)):
            for e in ("f16", "f32"):
                v = _values(shape, e, k)
                if v.size:
                    v.flat[::2] = np.array([np.nan, np.inf, -np.inf], v.dtype)[np.arange(v.flat[::2].size) % 3]
                text = _graph(op, "", [(shape, e)], (shape, "i1"))
                (ref,) = run_module(_parse(text)[1], [v])
                _same(ref, fn(v))
                _same(_compiled(text, [v])[0], ref)


@pytest.mark.parametrize("op", ["Mod", "FloorMod"])
def test_mod_signs(op: str) -> None:
    a = np.array([7, -7, 7, -7, 0, 5], np.int32)
    b = np.array([3, 3, -3, -3, 4, 5], np.int32)
    want = {"Mod": [1, -1, 1, -1, 0, 0], "FloorMod": [1, 2, -2, -1, 0, 0]}[op]
    for e in ("i32", "f32", "f16"):
        text = _graph(op, "", [((6,), e), ((6,), e)], ((6,), e))
        xa, xb = a.astype(_NP[e]), b.astype(_NP[e])
        (ref,) = run_module(_parse(text)[1], [xa, xb])
        _same(ref, np.array(want, _NP[e]))
        _same(_compiled(text, [xa, xb])[0], ref)


def test_integer_mod_by_zero_is_a_located_error() -> None:
    from runtime.graph_interpreter import ReferenceEvalError

    text = _graph("Mod", "", [((2,), "i32"), ((2,), "i32")], ((2,), "i32"))
    with pytest.raises(ReferenceEvalError, match="Mod by zero"):
        run_module(_parse(text)[1], [np.array([1, 2], np.int32), np.array([1, 0], np.int32)])


def test_select_v2_and_clip_by_value() -> None:
    for e in ("f16", "f32", "i32"):
        for k, (cs, a, b, out) in enumerate(
            [
                ((3, 5), (3, 5), (5,), (3, 5)),
                ((2, 1), (1, 4), (), (2, 4)),
                ((), (), (), ()),
                ((0, 2), (2,), (1, 2), (0, 2)),
            ]
        ):
            text = (
                f"ge.graph @main {{\n  %c = ge.Data {{index = 0}} : {_t(cs, 'i1')}\n"
                f"  %a = ge.Data {{index = 1}} : {_t(a, e)}\n  %b = ge.Data {{index = 2}} : {_t(b, e)}\n"
                f"  %y = ge.SelectV2(%c, %a, %b) : ({_t(cs, 'i1')}, {_t(a, e)}, {_t(b, e)}) -> {_t(out, e)}\n"
                f"  ge.NetOutput %y : {_t(out, e)}\n}}"
            )
            ins = [_values(cs, "i1", k), _values(a, e, k + 1), _values(b, e, k + 2)]
            (ref,) = run_module(_parse(text)[1], ins)
            _same(ref, np.where(*ins).astype(_NP[e]))
            _same(_compiled(text, ins)[0], ref)
        for k, shape in enumerate(SHAPES):
            text = (
                f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : {_t(shape, e)}\n"
                f"  %lo = ge.Const {{value = dense<-1> : {_t((), e)}}} : {_t((), e)}\n"
                f"  %hi = ge.Const {{value = dense<2> : {_t((), e)}}} : {_t((), e)}\n"
                f"  %y = ge.ClipByValue(%x, %lo, %hi) : ({_t(shape, e)}, {_t((), e)}, {_t((), e)}) -> {_t(shape, e)}\n"
                f"  ge.NetOutput %y : {_t(shape, e)}\n}}"
            )
            x = _values(shape, e, k)
            (ref,) = run_module(_parse(text)[1], [x])
            _same(ref, np.clip(x, -1, 2).astype(_NP[e]))
            _same(_compiled(text, [x])[0], ref)


def test_clip_by_value_min_above_max_gives_min() -> None:
    # GE's ClipByValue (lowering_impl.cpp: Maximum(Minimum(x, max), min)): min wins
    text = _graph("ClipByValue", "", [((3,), "f32"), ((), "f32"), ((), "f32")], ((3,), "f32"))
    args = [np.array([-5, 0, 5], np.float32), np.array(2, np.float32), np.array(1, np.float32)]
    (ref,) = run_module(_parse(text)[1], args)
    _same(ref, np.array([2, 2, 2], np.float32))
    _same(_compiled(text, args)[0], ref)


@pytest.mark.parametrize("op", ["SoftmaxV2", "LogSoftmaxV2"])
def test_softmax_over_axes(op: str) -> None:
    for e in ("f16", "f32"):
        for k, (shape, axes) in enumerate(
            [((3, 5), [-1]), ((2, 3, 4), [0, 2]), ((4,), [0]), ((0, 3), [1]), ((), [-1])]
        ):
            text = _graph(op, f"{{axes = {axes}}}", [(shape, e)], (shape, e))
            x = _values(shape, e, k)
            (ref,) = run_module(_parse(text)[1], [x])
            x64 = x.astype(np.float64)
            ax = tuple(a % max(len(shape), 1) for a in axes) if shape else ()
            if shape:
                s = x64 - x64.max(axis=ax, keepdims=True) if x.size else x64
                lse = np.log(np.exp(s).sum(axis=ax, keepdims=True)) if x.size else s
                want = np.exp(s - lse) if op == "SoftmaxV2" else s - lse
            else:
                want = np.float64(1.0 if op == "SoftmaxV2" else 0.0)
            _check_formula(ref, np.asarray(want), e)
            _same(_compiled(text, [x])[0], ref)


def test_layer_norm_outputs() -> None:
    for e in ("f16", "f32"):
        for k, (shape, axis) in enumerate([((3, 8), 1), ((2, 3, 4), 1), ((2, 3, 4), -1), ((0, 4), 1)]):
            n = axis % len(shape)
            pshape = shape[n:]
            stat = tuple(1 if i >= n else d for i, d in enumerate(shape))
            text = (
                f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : {_t(shape, e)}\n"
                f"  %g = ge.Data {{index = 1}} : {_t(pshape, e)}\n  %b = ge.Data {{index = 2}} : {_t(pshape, e)}\n"
                f"  %y:3 = ge.LayerNorm(%x, %g, %b) {{begin_norm_axis = {axis}, begin_params_axis = {axis}, epsilon = 1.0e-03 : f32}}"
                f" : ({_t(shape, e)}, {_t(pshape, e)}, {_t(pshape, e)}) -> ({_t(shape, e)}, {_t(stat, e)}, {_t(stat, e)})\n"
                f"  ge.NetOutput %y#0, %y#1, %y#2 : {_t(shape, e)}, {_t(stat, e)}, {_t(stat, e)}\n}}"
            )
            ins = [_values(shape, e, k), _values(pshape, e, k + 1), _values(pshape, e, k + 2)]
            ref = run_module(_parse(text)[1], ins)
            x, g, b = (a.astype(np.float64) for a in ins)
            ax = tuple(range(n, len(shape)))
            mean = x.mean(axis=ax, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=ax, keepdims=True)
            y = (x - mean) / np.sqrt(var + 1e-3) * g + b
            for got, want in zip(ref, (y, mean, var)):
                _check_formula(got, want, e)
            for got, want in zip(_compiled(text, ins), ref):
                _same(got, want)


# ---------------------------------------------------------------------------------------
# Verifier
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, msg",
    [
        (_graph("Gelu", "", [((4,), "i32")], ((4,), "i32")), "GE's Gelu takes DT_FLOAT, DT_FLOAT16"),
        (_graph("Less", "", [((4,), "f32"), ((4,), "f32")], ((4,), "f32")), "Less outputs DT_BOOL"),
        (_graph("Less", "", [((4,), "f32"), ((3,), "f32")], ((4,), "i1")), "do not broadcast"),
        (_graph("LogicalAnd", "", [((4,), "f32"), ((4,), "f32")], ((4,), "i1")), "takes DT_BOOL"),
        (_graph("LeakyRelu", '{negative_slope = "x"}', [((4,), "f32")], ((4,), "f32")), "must be a float"),
        (_graph("Erf", "", [((4,), "f32")], ((4,), "f16")), "differs from input dtype"),
        (_graph("SoftmaxV2", "{axes = [0, -2]}", [((2, 3),"f32")], ((2, 3), "f32")), "name an axis twice"),
        (_graph("SoftmaxV2", "{axes = [2]}", [((2, 3), "f32")], ((2, 3), "f32")), "out of range"),
        (_graph("ClipByValue", "", [((3,), "f32"), ((2, 3), "f32"), ((), "f32")], ((2, 3), "f32")), "must broadcast to x's shape"),
        (_graph("SelectV2", "", [((3,), "f32"), ((3,), "f32"), ((3,), "f32")], ((3,), "f32")), "input 0 has dtype f32"),
        (
            "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<2x4xf32>\n  %g = ge.Data {index = 1} : tensor<3xf32>\n"
            "  %y:3 = ge.LayerNorm(%x, %g, %g) {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<2x4xf32>, tensor<3xf32>, "
            "tensor<3xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>)\n  ge.NetOutput %y#0 : tensor<2x4xf32>\n}",
            "gamma has shape",
        ),
        (
            "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<2x4xf32>\n  %g = ge.Data {index = 1} : tensor<4xf32>\n"
            "  %y:3 = ge.LayerNorm(%x, %g, %g) {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<2x4xf32>, tensor<4xf32>, "
            "tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x1xf32>)\n  ge.NetOutput %y#0 : tensor<2x4xf32>\n}",
            "output 1 has shape",
        ),
    ],
)  # fmt: skip
def test_verifier_rejects(text: str, msg: str) -> None:
    with pytest.raises(Exception, match=msg):
        _parse(text)


# ---------------------------------------------------------------------------------------
# Lowering: what GE lowers fuses, the rest stays a kernel
# ---------------------------------------------------------------------------------------

LOWERED = {"Erf", "Gelu", "Sign", "LeakyRelu", "Elu"}


def _lowered_types(text: str) -> list[str]:
    opt, m = _parse(text, "ge-lower-autofuse")
    opt.apply_passes(m)
    g = next(o for o in m.ops if isinstance(o, ge.GraphOp))
    return [ge.ge_type(o) for o in g.body.block.ops if not isinstance(o, ge.Data | ge.Const | ge.NetOutput)]


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_lowers_exactly_where_ge_lowers(op: str) -> None:
    _, attrs, _ = UNARY[op]
    got = _lowered_types(_graph(op, attrs, [((4, 8), "f32")], ((4, 8), "f32")))
    assert got == (["AscBackend"] if op in LOWERED else [op])


def test_comparisons_logic_select_clip_lower() -> None:
    for op in (*COMPARE, "LogicalAnd", "LogicalOr"):
        e = "i1" if op.startswith("Logical") else "f32"
        assert _lowered_types(_graph(op, "", [((4, 8), e), ((8,), e)], ((4, 8), "i1"))) == ["AscBackend"], op
    assert _lowered_types(_graph("IsNan", "", [((4, 8), "f16")], ((4, 8), "i1"))) == ["AscBackend"]
    # IsInf has no lowering in GE (lowering_impl.cpp registers IsNan and IsFinite only)
    assert _lowered_types(_graph("IsInf", "", [((4, 8), "f16")], ((4, 8), "i1"))) == ["IsInf"]
    sel = _graph("SelectV2", "", [((4, 8), "i1"), ((4, 8), "f32"), ((8,), "f32")], ((4, 8), "f32"))
    assert _lowered_types(sel) == ["AscBackend"]
    # a dtype AscIR's Where does not take stays a kernel
    sel64 = _graph("SelectV2", "", [((4, 8), "i1"), ((4, 8), "f64"), ((8,), "f64")], ((4, 8), "f64"))
    assert _lowered_types(sel64) == ["SelectV2"]
    for op in ("SoftmaxV2", "LogSoftmaxV2"):
        assert _lowered_types(_graph(op, "", [((4, 8), "f32")], ((4, 8), "f32"))) == [op]


def test_a_chain_of_the_new_ops_is_one_asc_backend_on_two_streams() -> None:
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<6x16xf16>
  %y = ge.Data {index = 1} : tensor<16xf16>
  %a = ge.LeakyRelu(%x) {negative_slope = 0.2 : f32} : (tensor<6x16xf16>) -> tensor<6x16xf16>
  %e = ge.Erf(%a) : (tensor<6x16xf16>) -> tensor<6x16xf16>
  %c = ge.Greater(%e, %y) : (tensor<6x16xf16>, tensor<16xf16>) -> tensor<6x16xi1>
  %s = ge.SelectV2(%c, %e, %y) : (tensor<6x16xi1>, tensor<6x16xf16>, tensor<16xf16>) -> tensor<6x16xf16>
  %g = ge.Gelu(%s) : (tensor<6x16xf16>) -> tensor<6x16xf16>
  ge.NetOutput %g : tensor<6x16xf16>
}"""
    opt, m = _parse(text, "ge-lower-autofuse,ge-autofuse")
    opt.apply_passes(m)
    g = next(o for o in m.ops if isinstance(o, ge.GraphOp))
    assert [ge.ge_type(o) for o in g.body.block.ops if not isinstance(o, ge.Data | ge.NetOutput)] == ["AscBackend"]
    ins = [_values((6, 16), "f16", 1), _values((16,), "f16", 2)]
    (ref,) = run_module(_parse(text)[1], ins)
    for streams in (1, 2):
        _same(_compiled(text, ins, streams)[0], ref)


def test_lowering_pass_has_entries_for_every_lowered_op() -> None:
    for t in (*LOWERED, *COMPARE, "LogicalAnd", "LogicalOr", "LogicalNot", "IsNan", "SelectV2", "ClipByValue"):
        assert t in LowerAutofusePass.LOWERINGS, t
    with pytest.raises(VerifyException):
        ge.float_attr(ge.Erf.create(attributes={"x": ge.StringAttr("a")}), "x", 0.0)


# ---------------------------------------------------------------------------------------
# Error bounds (runtime/error_bound.py): the Lipschitz bounds hold on perturbed inputs
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op", ["Gelu", "Mish", "HardSwish", "Sin", "Cos", "LeakyRelu", "Elu", "Selu", "Celu", "HardSigmoid"]
)
def test_lipschitz_bounds_hold(op: str) -> None:
    from runtime import error_bound as EB

    fn, attrs, _ = UNARY[op]
    node = _parse(_graph(op, attrs, [((4,), "f32")], ((4,), "f32")))[1]
    (g,) = [o for o in node.ops if isinstance(o, ge.GraphOp)]
    the_op = next(o for o in g.body.block.ops if ge.ge_type(o) == op)
    assert EB.bound_rule_of(type(the_op)) is not None
    lip = EB._lipschitz(the_op)
    rng = np.random.default_rng(5)
    x = rng.uniform(-6, 6, 2000)
    e = rng.uniform(0, 0.5, 2000)
    fx = fn(x)
    for t in np.linspace(-1, 1, 21):
        assert np.all(np.abs(fn(x + t * e) - fx) <= lip * e * (1 + 1e-9) + 1e-12), (op, t)


# ---------------------------------------------------------------------------------------
# bf16 (computed in float32, rounded once: runtime/numerics.py upcast) and the AscIR
# nodes' own verifiers
# ---------------------------------------------------------------------------------------


def test_bf16_activations_and_comparisons_compile_to_the_reference() -> None:
    import ml_dtypes

    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3x8xbf16>
  %y = ge.Data {index = 1} : tensor<8xbf16>
  %a = ge.Erf(%x) : (tensor<3x8xbf16>) -> tensor<3x8xbf16>
  %b = ge.Softplus(%a) : (tensor<3x8xbf16>) -> tensor<3x8xbf16>
  %c = ge.GreaterEqual(%b, %y) : (tensor<3x8xbf16>, tensor<8xbf16>) -> tensor<3x8xi1>
  %s = ge.SelectV2(%c, %b, %y) : (tensor<3x8xi1>, tensor<3x8xbf16>, tensor<8xbf16>) -> tensor<3x8xbf16>
  ge.NetOutput %s, %c : tensor<3x8xbf16>, tensor<3x8xi1>
}"""
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 8)).astype(ml_dtypes.bfloat16)
    y = rng.standard_normal(8).astype(ml_dtypes.bfloat16)
    ref = run_module(_parse(text)[1], [x, y])
    x32 = x.astype(np.float32)
    a = _ERF(x32.astype(np.float64)).astype(ml_dtypes.bfloat16).astype(np.float64)
    b = (np.log1p(np.exp(-np.abs(a))) + np.maximum(a, 0)).astype(ml_dtypes.bfloat16)
    np.testing.assert_allclose(ref[0].astype(np.float64), np.where(b >= y, b, y).astype(np.float64), rtol=1e-2)
    for got, want in zip(_compiled(text, [x, y]), ref):
        _same(got, want)


def _lowered_module(text: str):
    opt, m = _parse(text, "ge-lower-autofuse")
    opt.apply_passes(m)
    return m


def test_asc_leaky_relu_needs_its_slope_and_logical_nodes_take_bool_or_uint8() -> None:
    from ge_dialect import ascgraph as ag

    m = _lowered_module(_graph("LeakyRelu", "{negative_slope = 0.5 : f32}", [((4, 8), "f32")], ((4, 8), "f32")))
    (node,) = [o for o in m.walk() if isinstance(o, ag.LeakyRelu)]
    assert node.negative_slope() == 0.5
    del node.attributes["negative_slope"]
    with pytest.raises(VerifyException, match="negative_slope"):
        node.verify()
    m = _lowered_module(_graph("LogicalOr", "", [((4, 8), "i1"), ((8,), "i1")], ((4, 8), "i1")))
    (node,) = [o for o in m.walk() if isinstance(o, ag.LogicalOr)]
    assert [str(v.type.element_type) for v in node.operands] == ["i1", "i1"]
    assert str(node.results[0].type.element_type) == "ui8"
    node.verify()
