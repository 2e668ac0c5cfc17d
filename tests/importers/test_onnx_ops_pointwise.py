"""The ONNX importer for the activation, rounding, comparison, logic, selection, softmax
and LayerNormalization ops: what each becomes (GE op type, the attributes its plugin sets
with their defaults, output shapes; written by hand from the plugin file the converter
cites) and its numbers: the reference interpreter on the imported module against
onnxruntime on the model, and the compiled module (ge-compile + the device simulator)
against the reference.

Tolerances against onnxruntime (TOLERANCES): float32 rtol 1e-5, atol 1e-5 x max(1,
max|ort|) (onnxruntime's erf/exp/tanh are approximations within a few ulp, and GE's
formulas are not always onnxruntime's: Softplus as max(x, 0) + log1p(exp(-|x|))); float16
rtol and atol 4e-3 (the reference computes float16 ops in float16, onnxruntime in float32
rounded once); bool and integers exactly. The compiled module must equal the reference
exactly (the same formulas run in both, NaN equal to NaN).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h

from conftest import ONNX_POINTWISE_OPS, imported_compute_ops, onnx_attr_value
from conftest import make_onnx_model as make_model
from ge_dialect.desc import shape_of
from importers.onnx import MAPPINGS, OnnxImportError, import_model, supported_ops
from runtime.interpreter import run_module

TOLERANCES: dict[str, tuple[float, float]] = {"float32": (1e-5, 1e-5), "float16": (4e-3, 4e-3)}
F, H, B, I32, I64 = T.FLOAT, T.FLOAT16, T.BOOL, T.INT32, T.INT64
_NP = {F: np.float32, H: np.float16, B: np.bool_, I32: np.int32, I64: np.int64, T.DOUBLE: np.float64}


def one(op: str, ins, opset: int = 17, n_out: int = 1, inputs: list[str] | None = None, inits=None, **attrs):
    outs = [f"y{i}" for i in range(n_out)]
    names = inputs if inputs is not None else [n for n, _, _ in ins] + list((inits or {}).keys())
    return make_model([h.make_node(op, names, outs, name="n", **attrs)], ins, outs, inits, opset)


@dataclass
class Case:
    id: str
    model: onnx.ModelProto
    # (ge op, attributes with their values, output shapes) for every op but Data/Const/NetOutput
    expect: list[tuple[str, dict[str, object], list[tuple[int, ...]]]]
    values: str = "normal"  # "normal", "grid" (quarters: ties, equalities), "positive", "small"
    # the inputs, when the case needs particular ones
    inputs: list[np.ndarray] | None = None
    # the tolerance of every float output (a float32 output computed from a float16 value
    # in GE: LayerNorm's mean of a float16 x, cast to float32)
    tol: str | None = None


def unary(op: str, ge_op: str, elem: int = F, shape=(2, 3, 4), opset: int = 17, attrs_out=None, **attrs) -> Case:
    m = one(op, [("x", elem, list(shape))], opset, **attrs)
    tag = "-".join(f"{k}" for k in attrs)
    return Case(
        f"{op}-{T.DataType.Name(elem).lower()}{'-' + tag if tag else ''}", m, [(ge_op, attrs_out or {}, [shape])]
    )


def binary(op: str, ge_op: str, elem: int = F, a=(2, 3, 4), b=(4,), out=(2, 3, 4), tag: str = "", **attrs) -> Case:
    m = one(op, [("a", elem, list(a)), ("b", elem, list(b))], **attrs)
    return Case(f"{op}-{T.DataType.Name(elem).lower()}{tag}", m, [(ge_op, {}, [out])], "grid")


CASES: list[Case] = [
    *(
        unary(o, g, e, opset=18 if o == "Mish" else 17)
        for o, g in (
            ("Erf", "ge.Erf"),
            ("Floor", "ge.Floor"),
            ("Ceil", "ge.Ceil"),
            ("Sin", "ge.Sin"),
            ("Cos", "ge.Cos"),
            ("Softplus", "ge.Softplus"),
            ("Softsign", "ge.Softsign"),
            ("Mish", "ge.Mish"),
            ("Sign", "ge.Sign"),
            ("Round", "ge.Round"),
        )
        for e in (F, H)
    ),
    unary("HardSwish", "ge.HardSwish", F, opset=14),
    unary("HardSwish", "ge.HardSwish", H, shape=(5,), opset=14),
    unary("Sign", "ge.Sign", I32),
    unary("IsNaN", "ge.IsNan"),
    unary("IsInf", "ge.IsInf"),
    unary("LeakyRelu", "ge.LeakyRelu", attrs_out={"negative_slope": np.float32(0.01)}),
    unary("LeakyRelu", "ge.LeakyRelu", H, attrs_out={"negative_slope": np.float32(0.3)}, alpha=0.3),
    unary("Elu", "ge.Elu", attrs_out={"alpha": 1.0}),
    unary("Elu", "ge.Elu", attrs_out={"alpha": np.float32(0.7)}, alpha=0.7),
    unary("Selu", "ge.Selu"),
    unary("Celu", "ge.Celu", attrs_out={"alpha1": 1.0, "alpha2": 1.0}),
    unary("Celu", "ge.Celu", attrs_out={"alpha1": 2.5, "alpha2": 2.5}, alpha=2.5),
    unary("HardSigmoid", "ge.HardSigmoid", attrs_out={"alpha": np.float32(0.2), "beta": 0.5}),
    unary("HardSigmoid", "ge.HardSigmoid", H, attrs_out={"alpha": 0.25, "beta": 0.375}, alpha=0.25, beta=0.375),
    *(
        binary(o, g, e)
        for o, g in (
            ("Equal", "ge.Equal"),
            ("Less", "ge.Less"),
            ("Greater", "ge.Greater"),
            ("LessOrEqual", "ge.LessEqual"),
            ("GreaterOrEqual", "ge.GreaterEqual"),
        )
        for e in (F, H, I64)
    ),
    binary("Equal", "ge.Equal", B, a=(3, 1), b=(4,), out=(3, 4)),
    binary("And", "ge.LogicalAnd", B, a=(3, 1), b=(4,), out=(3, 4)),
    binary("Or", "ge.LogicalOr", B, a=(2, 3), b=(1, 3), out=(2, 3)),
    unary("Not", "ge.LogicalNot", B),
    binary("Mod", "ge.FloorMod", I32, a=(3, 4), b=(4,), out=(3, 4), tag="-floored"),
    binary("Mod", "ge.Mod", I64, a=(3, 4), b=(4,), out=(3, 4), tag="-fmod", fmod=1),
    binary("Mod", "ge.Mod", F, a=(3, 4), b=(4,), out=(3, 4), tag="-fmod", fmod=1),
    Case(
        "Where-float",
        one("Where", [("c", B, [3, 1]), ("a", F, [3, 4]), ("b", F, [4])]),
        [("ge.SelectV2", {}, [(3, 4)])],
    ),
    Case(
        "Where-int64-scalar",
        one("Where", [("c", B, [2, 3]), ("a", I64, []), ("b", I64, [3])]),
        [("ge.SelectV2", {}, [(2, 3)])],
    ),
    Case(
        "Clip-min-max-inputs",
        one("Clip", [("x", F, [3, 4]), ("lo", F, []), ("hi", F, [])]),
        [("ge.ClipByValue", {}, [(3, 4)])],
        inputs=[
            np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4),
            np.array(-1.5, np.float32),
            np.array(0.5, np.float32),
        ],
    ),
    Case(
        "Clip-const-0-6",
        one("Clip", [("x", H, [3, 4])], inits={"lo": np.array(0, np.float16), "hi": np.array(6, np.float16)}),
        [("ge.ClipByValue", {}, [(3, 4)])],
    ),
    Case(
        "Clip-no-min",
        one("Clip", [("x", F, [3, 4]), ("hi", F, [])], inputs=["x", "", "hi"]),
        [("ge.ClipByValue", {}, [(3, 4)])],
    ),
    Case("Clip-no-bounds-int32", one("Clip", [("x", I32, [5])]), [("ge.ClipByValue", {}, [(5,)])]),
    Case("Softmax-13-default", one("Softmax", [("x", F, [2, 3, 4])]), [("ge.SoftmaxV2", {"axes": [-1]}, [(2, 3, 4)])]),
    Case(
        "Softmax-13-axis1-f16",
        one("Softmax", [("x", H, [2, 3, 4])], axis=1),
        [("ge.SoftmaxV2", {"axes": [1]}, [(2, 3, 4)])],
    ),
    Case(
        "Softmax-11-coerced",
        one("Softmax", [("x", F, [2, 3, 4])], opset=11),
        [("ge.SoftmaxV2", {"axes": [1, 2]}, [(2, 3, 4)])],
    ),
    Case(
        "LogSoftmax-13",
        one("LogSoftmax", [("x", F, [2, 3, 4])], axis=0),
        [("ge.LogSoftmaxV2", {"axes": [0]}, [(2, 3, 4)])],
    ),
    Case(
        "LogSoftmax-12-coerced",
        one("LogSoftmax", [("x", F, [2, 3, 4])], opset=12, axis=2),
        [("ge.LogSoftmaxV2", {"axes": [2]}, [(2, 3, 4)])],
    ),
    Case(
        "LayerNormalization-y",
        one("LayerNormalization", [("x", F, [2, 3, 8]), ("s", F, [8]), ("b", F, [8])]),
        [
            (
                "ge.LayerNorm",
                {"begin_norm_axis": 2, "begin_params_axis": 2, "epsilon": np.float32(1e-5)},
                [(2, 3, 8), (2, 3, 1), (2, 3, 1)],
            )
        ],
    ),  # fmt: skip
    Case(
        "LayerNormalization-axis1-no-bias-3-outputs",
        one("LayerNormalization", [("x", F, [2, 3, 4]), ("s", F, [3, 4])], n_out=3, axis=1, epsilon=1e-3),
        [
            (
                "ge.LayerNorm",
                {"begin_norm_axis": 1, "begin_params_axis": 1, "epsilon": np.float32(1e-3)},
                [(2, 3, 4), (2, 1, 1), (2, 1, 1)],
            ),
            ("ge.Add", {}, [(2, 1, 1)]),
            ("ge.Rsqrt", {}, [(2, 1, 1)]),
        ],
    ),  # fmt: skip
    Case(
        "LayerNormalization-f16-broadcast-scale",
        one("LayerNormalization", [("x", H, [4, 6]), ("s", H, [1]), ("b", H, [6])], n_out=2),
        [
            ("ge.BroadcastToD", {"shape": [6]}, [(6,)]),
            ("ge.LayerNorm", {"begin_norm_axis": 1, "begin_params_axis": 1}, [(4, 6), (4, 1), (4, 1)]),
            ("ge.Cast", {"dst_type": 0}, [(4, 1)]),
        ],
        tol="float16",
    ),
    Case("Gelu-tanh", one("Gelu", [("x", F, [3, 5])], opset=20, approximate="tanh"), [("ge.Gelu", {}, [(3, 5)])]),
    Case(
        "Gelu-exact",
        one("Gelu", [("x", F, [3, 5])], opset=20),
        [
            ("ge.Mul", {}, [(3, 5)]),
            ("ge.Erf", {}, [(3, 5)]),
            ("ge.Add", {}, [(3, 5)]),
            ("ge.Mul", {}, [(3, 5)]),
            ("ge.Mul", {}, [(3, 5)]),
        ],
    ),  # fmt: skip
    Case(
        "Pow-float-base-int-exponent",
        one("Pow", [("a", F, [2, 3]), ("b", I64, [3])], opset=15),
        [("ge.Cast", {"dst_type": 0}, [(3,)]), ("ge.Pow", {}, [(2, 3)])],
        "positive",
    ),
    Case(
        "Pow-int-base-float-exponent",
        one("Pow", [("a", I32, [2, 3]), ("b", F, [3])], opset=15),
        [("ge.Cast", {"dst_type": 0}, [(2, 3)]), ("ge.Pow", {}, [(2, 3)]), ("ge.Cast", {"dst_type": 3}, [(2, 3)])],
        "small",
    ),
]


def _inputs(m: onnx.ModelProto, seed: int, values: str) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    inits = {t.name for t in m.graph.initializer}
    out = []
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        dt = np.dtype(_NP[vi.type.tensor_type.elem_type])
        shape = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        if dt.kind == "b":
            a = rng.integers(0, 2, shape)
        elif dt.kind in "iu":
            a = rng.integers(0, 4, shape) if values == "small" else rng.integers(-6, 7, shape)
            if values == "grid":  # Mod's divisor: no zero
                a = np.where(a == 0, 3, a)
        elif values == "positive":
            a = rng.uniform(0.5, 2.0, shape)
        elif values == "small":
            a = rng.uniform(0.0, 2.0, shape)
        elif values == "grid":
            a = np.round(rng.standard_normal(shape) * 6) / 4
            a = np.where(a == 0, 0.75, a)
        else:
            a = rng.standard_normal(shape) * 2.5
        out.append(np.asarray(a).astype(dt))
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_import(case: Case) -> None:
    got = imported_compute_ops(import_model(case.model, f"{case.id}.onnx"))
    assert [op.name for op in got] == [e[0] for e in case.expect]
    for op, (_, attrs, shapes) in zip(got, case.expect):
        for k, v in attrs.items():
            assert k in op.attributes, f"{op.name} lacks {k}"
            assert onnx_attr_value(op.attributes[k]) == v, f"{op.name}.{k}"
        assert [shape_of(r.type) for r in op.results] == shapes


def _close(got: np.ndarray, want: np.ndarray, tol: str | None = None) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if got.dtype.name in TOLERANCES:
        rtol, atol = TOLERANCES[tol or got.dtype.name]
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol * scale)
    else:
        np.testing.assert_array_equal(got, want)


def _compiled(module, inputs: list[np.ndarray]) -> list[np.ndarray]:
    from ge_dialect import npu
    from ge_tools.opt import GeOptMain
    from runtime.simulator import load

    opt = GeOptMain(["-p", "ge-compile"])
    c = module.clone()
    opt.apply_passes(c)
    model = next(o for o in c.ops if isinstance(o, npu.ModelOp))
    return load(model).execute([a.copy() for a in inputs])


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_numbers_against_onnxruntime_and_compiled(case: Case) -> None:
    inputs = case.inputs or _inputs(case.model, seed=len(case.id), values=case.values)
    module = import_model(case.model, f"{case.id}.onnx")
    got = run_module(module, inputs)
    sess = ort.InferenceSession(case.model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    want = sess.run(None, dict(zip(names, inputs)))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w, case.tol)
    for c, r in zip(_compiled(module, inputs), got):
        assert c.dtype == r.dtype and c.shape == r.shape
        np.testing.assert_array_equal(c, r)


def test_every_op_of_this_file_has_a_case_and_is_imported() -> None:
    covered = {n.op_type for c in CASES for n in c.model.graph.node}
    assert covered >= ONNX_POINTWISE_OPS
    assert ONNX_POINTWISE_OPS <= set(supported_ops())
    for op in ONNX_POINTWISE_OPS:
        assert not MAPPINGS[op].needs, op


@pytest.mark.parametrize(
    "model, msg",
    [
        (one("Mod", [("a", F, [3]), ("b", F, [3])]), "attribute fmod = 0 is not supported"),
        (one("LayerNormalization", [("x", F, [2, 3]), ("s", F, [3])], stash_type=11), "stash_type"),
        (one("Gelu", [("x", F, [3])], opset=20, approximate="erf"), "attribute approximate = erf is not supported"),
    ],
)
def test_unsupported_attributes_are_one_line_errors(model: onnx.ModelProto, msg: str) -> None:
    with pytest.raises(OnnxImportError, match=msg) as e:
        import_model(model, "m.onnx")
    assert "\n" not in str(e.value) and str(e.value).startswith("m.onnx: node 'n' (")
