"""bf16 and GE's float8 types are real dtypes end to end (issue 17: "NEW: bf16 refused by
ge-to-npu"; issue 11, item 2).

ge-to-npu refused every bf16 tensor ("the simulator keeps bf16 in float32, so its
addresses cannot follow GE's byte sizes"), so every valid bf16 graph was a located user
error of ge-run; the reference computed bf16 in float32 without rounding; f8E5M2 /
f8E4M3FN / f8E8M0FNU had no GE data type. Now numpy holds them as ml_dtypes' dtypes (GE's
bytes: types.h GetSizeByDataType, 2 for DT_BF16, 1 for each DT_FLOAT8_*), every op
computes in float32 and rounds its result once to nearest, ties to even, and the
simulator, the memory plan and the kernels' extents use 2 bytes per bf16 element.

Expected values here come from numpy formulas on the inputs, not from the program: a
float32 computation rounded by ml_dtypes' float32 -> bf16 / float8 conversion, and for
bf16 also by a bit-level round-to-nearest-even written here; tie cases are worked by hand.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float6E3M2FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    TensorType,
)

from bench import differential as D
from ge_dialect import ascgraph as ag
from ge_dialect import ge, npu
from ge_dialect.dtypes import dtype_bits, ge_dtype_name, numpy_dtype, size_in_bytes
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from ge_tools.pipeline import GeCompilePass
from ge_tools.run import random_input
from runtime import error_bound as EB
from runtime.interpreter import run_graph
from runtime.reference import select_graph
from runtime.simulator import load

BF16 = np.dtype(ml_dtypes.bfloat16)
E4M3 = np.dtype(ml_dtypes.float8_e4m3fn)
E5M2 = np.dtype(ml_dtypes.float8_e5m2)
E8M0 = np.dtype(ml_dtypes.float8_e8m0fnu)
F32 = np.dtype(np.float32)
# the float types with arithmetic (E8M0 holds only powers of two: data movement and casts)
ARITH = {"bf16": BF16, "f8E4M3FN": E4M3, "f8E5M2": E5M2}
ALL = {**ARITH, "f8E8M0FNU": E8M0}


@pytest.fixture(autouse=True)
def _no_traceback_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GE_XDSL_TRACEBACK", raising=False)


def rne_bf16(a: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits (uint16), round to nearest, ties to even, written without
    ml_dtypes: add 0x7FFF plus the lowest kept bit, drop the low 16 bits (finite values)."""
    u = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def parse(text: str, passes: str = "") -> tuple[GeOptMain, object]:
    opt = GeOptMain(["-p", passes])
    m = parse_module(opt.ctx, text, "<bf16>")
    m.verify()
    return opt, m


def reference(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    _, m = parse(text)
    return run_graph(select_graph(m), inputs)  # type: ignore[arg-type]


def ge_run(tmp_path: Path, text: str, inputs: list[np.ndarray], *extra: str) -> list[np.ndarray]:
    """ge-run on `text` with .npy inputs (saved by numpy as raw bytes for bf16 / float8);
    asserts it matches the reference and returns the compiled outputs it saved."""
    f = tmp_path / "g.mlir"
    f.write_text(text)
    paths = []
    for k, a in enumerate(inputs):
        p = tmp_path / f"in{k}.npy"
        np.save(p, a)
        paths += ["--input", str(p)]
    out = tmp_path / "out"
    o = D.run_in_process([str(f), *paths, "--save-dir", str(out), *extra], 120)
    assert o.code == 0 and "outputs match the reference" in o.stdout, o.stdout + o.stderr
    n = len(list(out.glob("output_*.npy")))
    return [np.load(out / f"output_{k}.npy") for k in range(n)]


def as_dtype(a: np.ndarray, dt: np.dtype) -> np.ndarray:
    """A saved array in `dt` (numpy writes bf16 / float8 as raw bytes, dtype |V2 / |V1)."""
    return a.view(dt) if a.dtype.kind == "V" else a


def same_bits(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    assert got.tobytes() == want.tobytes(), (got, want)


def values(dt: np.dtype, shape: tuple[int, ...], seed: int, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    """Random representable values of `dt` (float64 draws rounded to it)."""
    rng = np.random.default_rng(seed)
    if dt == E8M0:
        return np.asarray(np.ldexp(1.0, rng.integers(-4, 5, shape))).astype(dt)
    return np.asarray(rng.uniform(lo, hi, shape)).astype(dt)


# ---------------------------------------------------------------------------------------
# The dtype table
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("elem", "name", "bits", "dt"),
    [
        # types.h: DataType enum and GetSizeByDataType (2 bytes for DT_BF16, 1 for each float8)
        (BFloat16Type(), "DT_BF16", 16, BF16),
        (Float8E5M2Type(), "DT_FLOAT8_E5M2", 8, E5M2),
        (Float8E4M3FNType(), "DT_FLOAT8_E4M3FN", 8, E4M3),
        (Float8E8M0FNUType(), "DT_FLOAT8_E8M0", 8, E8M0),
    ],
)
def test_the_dtype_table_holds_each_type_at_its_own_width(elem, name, bits, dt) -> None:
    assert ge_dtype_name(elem) == name and dtype_bits(elem) == bits
    assert numpy_dtype(elem) == dt and dt.itemsize * 8 == bits
    assert size_in_bytes(5, elem) == 5 * bits // 8
    assert npu.raw_bytes(TensorType(elem, [3, 5])) == 15 * bits // 8


@pytest.mark.parametrize(
    ("elem", "message"),
    [
        ("f4E2M1FN", "is GE's DT_FLOAT4_E2M1, a packed 4-bit float"),
        ("f6E3M2FN", "is GE's DT_FLOAT6_E3M2, a packed 6-bit float"),
        # OCP E4M3 (with infinities) and the FNUZ types are not GE's; neither is HiFloat8,
        # which no MLIR element type names
        ("f8E4M3", "has no GE data type"),
        ("f8E5M2FNUZ", "has no GE data type"),
    ],
)
def test_a_float_type_we_cannot_hold_is_a_located_error(tmp_path: Path, elem: str, message: str) -> None:
    f = tmp_path / "g.mlir"
    f.write_text(
        "ge.graph @main {\n"
        f"  %x = ge.Data {{index = 0}} : tensor<4x{elem}>\n"
        f"  ge.NetOutput %x : tensor<4x{elem}>\n"
        "}\n"
    )
    o = D.run_in_process([str(f)], 60)
    lines = o.stderr.strip().splitlines()
    assert o.code == 1 and len(lines) == 1, o.stderr
    assert lines[0].startswith(f"{f}:2:3: error: ") and message in lines[0], lines[0]
    assert "Traceback" not in o.stderr


def test_unsupported_messages_name_the_types_we_hold() -> None:
    from xdsl.dialects.builtin import Float8E4M3Type

    from ge_dialect.dtypes import ge_dtype

    with pytest.raises(ValueError, match=r"f8E5M2, f8E4M3FN, f8E8M0FNU.*DT_HIFLOAT8 has no MLIR element type"):
        ge_dtype(Float8E4M3Type())
    with pytest.raises(ValueError, match="DT_FLOAT6_E3M2"):
        ge_dtype(Float6E3M2FNType())
    with pytest.raises(ValueError, match="DT_FLOAT4_E2M1"):
        ge_dtype(Float4E2M1FNType())


# ---------------------------------------------------------------------------------------
# Graphs through ge-run, 1 and 2 streams, against the reference and numpy formulas
# ---------------------------------------------------------------------------------------


def _graphs(t: str) -> dict[str, tuple[str, int]]:
    """name -> (graph text, number of inputs); each input is a 4x8 tensor of `t`."""
    T = f"tensor<4x8x{t}>"
    return {
        # the repro of the bug: a Data read by NetOutput, 1x1x1
        "data": (
            f"ge.graph @main {{\n  %0 = ge.Data {{index = 0}} : tensor<1x1x1x{t}>\n  ge.NetOutput %0 : tensor<1x1x1x{t}>\n}}\n",
            1,
        ),
        "relu_add": (
            f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %y = ge.Data {{index = 1}} : {T}
  %r = ge.Relu(%x) : ({T}) -> {T}
  %a = ge.Add(%r, %y) : ({T}, {T}) -> {T}
  ge.NetOutput %a, %r : {T}, {T}
}}
""",
            2,
        ),
        "cast": (
            f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %z = ge.Data {{index = 1}} : tensor<4x8xf32>
  %f = ge.Cast(%x) : ({T}) -> tensor<4x8xf32>
  %b = ge.Cast(%z) : (tensor<4x8xf32>) -> {T}
  ge.NetOutput %f, %b : tensor<4x8xf32>, {T}
}}
""",
            2,
        ),
        "reduce": (
            f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %s = ge.ReduceSumD(%x) {{axes = [1], keep_dims = false}} : ({T}) -> tensor<4x{t}>
  %m = ge.ReduceMaxD(%x) {{axes = [0], keep_dims = true}} : ({T}) -> tensor<1x8x{t}>
  ge.NetOutput %s, %m : tensor<4x{t}>, tensor<1x8x{t}>
}}
""",
            1,
        ),
        "concat": (
            f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %y = ge.Data {{index = 1}} : {T}
  %r = ge.Relu(%x) : ({T}) -> {T}
  %b = ge.Abs(%y) : ({T}) -> {T}
  %c = ge.ConcatD(%r, %b) {{concat_dim = 0, N = 2}} : ({T}, {T}) -> tensor<8x8x{t}>
  ge.NetOutput %c : tensor<8x8x{t}>
}}
""",
            2,
        ),
        "const": (
            f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {T}
  %c = ge.Const {{value = dense<0.1> : {T}}} : {T}
  %k = ge.Const {{value = dense<3.0> : tensor<{t}>}} : tensor<{t}>
  %a = ge.Add(%x, %c) : ({T}, {T}) -> {T}
  %m = ge.Mul(%a, %k) : ({T}, tensor<{t}>) -> {T}
  ge.NetOutput %m, %k : {T}, tensor<{t}>
}}
""",
            1,
        ),
    }


def _expected(name: str, dt: np.dtype, ins: list[np.ndarray]) -> list[np.ndarray]:
    """Each output from numpy: float32 (exact for these small sums of representable
    values) rounded once to `dt` by ml_dtypes."""
    f = [a.astype(np.float64) for a in ins]
    r = lambda v: np.asarray(v, dtype=np.float32).astype(dt)  # noqa: E731
    if name == "data":
        return [ins[0]]
    if name == "relu_add":
        relu = np.maximum(f[0], 0)
        return [r(relu + f[1]), r(relu)]
    if name == "cast":
        return [f[0].astype(np.float32), r(ins[1])]
    if name == "reduce":
        return [r(f[0].sum(axis=1)), r(f[0].max(axis=0, keepdims=True))]
    if name == "concat":
        return [r(np.concatenate([np.maximum(f[0], 0), np.abs(f[1])]))]
    assert name == "const"
    c = float(np.float32(0.1).astype(dt))  # the Const's value is the nearest of dt to 0.1
    return [r(r(f[0] + c).astype(np.float64) * 3.0), r(3.0).reshape(())]


CASES = [(t, g) for t in ARITH for g in ("data", "relu_add", "cast", "reduce", "concat", "const")] + [
    ("f8E8M0FNU", g) for g in ("data", "cast", "concat")
]


@pytest.mark.parametrize("streams", [1, 2])
@pytest.mark.parametrize(("t", "name"), CASES, ids=[f"{t}-{g}" for t, g in CASES])
def test_ge_run_compiles_and_matches_the_reference_and_numpy(tmp_path: Path, t: str, name: str, streams: int) -> None:
    dt = ALL[t]
    text, n = _graphs(t)[name]
    shape = (1, 1, 1) if name == "data" else (4, 8)
    ins = [values(dt, shape, 7 + k) for k in range(n)]
    if name == "cast":
        ins[1] = values(F32, shape, 9, 0.125, 4.0) if dt == E8M0 else values(F32, shape, 9)
    outs = ge_run(tmp_path, text, ins, "--streams", str(streams), "--executions", "2")
    want = _expected(name, dt, ins)
    assert len(outs) == len(want)
    for got, w in zip(outs, want):
        same_bits(as_dtype(got, w.dtype), w)


# ---------------------------------------------------------------------------------------
# The rounding rule: once per op output, to nearest, ties to even
# ---------------------------------------------------------------------------------------

CHAIN = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4096xbf16>
  %y = ge.Data {index = 1} : tensor<4096xbf16>
  %z = ge.Data {index = 2} : tensor<4096xbf16>
  %m = ge.Mul(%x, %y) : (tensor<4096xbf16>, tensor<4096xbf16>) -> tensor<4096xbf16>
  %a = ge.Add(%m, %z) : (tensor<4096xbf16>, tensor<4096xbf16>) -> tensor<4096xbf16>
  %s = ge.Sigmoid(%a) : (tensor<4096xbf16>) -> tensor<4096xbf16>
  ge.NetOutput %m, %a, %s : tensor<4096xbf16>, tensor<4096xbf16>, tensor<4096xbf16>
}
"""


def test_the_reference_rounds_bf16_once_per_op_to_nearest_even() -> None:
    """Each op computes in float32 from its bf16 inputs and rounds its result once: the
    bits equal a bit-level round-to-nearest-even of the float32 result, and ml_dtypes'
    conversion of it. Rounding only at the end, or at each step inside Sigmoid, gives
    other bits on these inputs (so this test can tell them apart)."""
    x, y, z = (values(BF16, (4096,), s, -4.0, 4.0) for s in (1, 2, 3))
    m, a, s = reference(CHAIN, [x, y, z])
    x32, y32, z32 = (v.astype(np.float32) for v in (x, y, z))
    m32 = x32 * y32
    assert (m.view(np.uint16) == rne_bf16(m32)).all()
    a32 = m.astype(np.float32) + z32
    assert (a.view(np.uint16) == rne_bf16(a32)).all()
    one = np.float32(1)
    s32 = one / (one + np.exp(-a.astype(np.float32)))
    assert (s.view(np.uint16) == rne_bf16(s32)).all()
    same_bits(s, s32.astype(BF16))  # ml_dtypes' RNE of the float32 result
    # the alternatives differ: no rounding of the Mul, rounding inside Sigmoid
    assert (rne_bf16(x32 * y32 + z32) != a.view(np.uint16)).any()
    ab = a.astype(BF16)
    stepwise = (BF16.type(1) / (BF16.type(1) + np.exp(-ab).astype(BF16)).astype(BF16)).astype(BF16)
    assert (stepwise.view(np.uint16) != s.view(np.uint16)).any()


@pytest.mark.parametrize(
    ("dt", "x", "y", "want"),
    [
        # bf16 keeps 7 fraction bits: 1 + 2^-8 is halfway between 1 and 1 + 2^-7 -> 1 (even)
        (BF16, 1.0, 2.0**-8, 1.0),
        # 1 + 2^-7 + 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even) -> 1 + 2^-6
        (BF16, 1.0 + 2.0**-7, 2.0**-8, 1.0 + 2.0**-6),
        (BF16, 1.0, 3 * 2.0**-9, 1.0 + 2.0**-7),  # above halfway: up
        # f8E4M3FN keeps 3 fraction bits: 1.0625 is halfway between 1 and 1.125 -> 1
        (E4M3, 1.0, 0.0625, 1.0),
        (E4M3, 1.125, 0.0625, 1.25),  # halfway between 1.125 (odd) and 1.25 (even)
        (E4M3, 256.0, 256.0, np.nan),  # 512 is past E4M3FN's largest finite 448; it has no inf: NaN
        # f8E5M2 keeps 2 fraction bits: 1.125 is halfway between 1 and 1.25 -> 1
        (E5M2, 1.0, 0.125, 1.0),
        (E5M2, 1.25, 0.125, 1.5),
    ],
)
def test_ties_round_to_even(dt: np.dtype, x: float, y: float, want: float) -> None:
    t = {BF16: "bf16", E4M3: "f8E4M3FN", E5M2: "f8E5M2"}[dt]
    (a,) = reference(
        f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : tensor<{t}>\n  %y = ge.Data {{index = 1}} : tensor<{t}>\n"
        f"  %a = ge.Add(%x, %y) : (tensor<{t}>, tensor<{t}>) -> tensor<{t}>\n  ge.NetOutput %a : tensor<{t}>\n}}\n",
        [np.array(x, dt), np.array(y, dt)],
    )
    assert np.array(x, dt).astype(np.float64) == x and np.array(y, dt).astype(np.float64) == y  # exact inputs
    assert float(a) == want or (np.isnan(want) and np.isnan(float(a)))


def test_the_ascgraph_interpreter_rounds_as_the_reference() -> None:
    """A bf16 chain fused into one AscBackend: its AscGraph holds bf16 tensors and the
    AscGraph interpreter gives the reference's bits on the original graph."""
    opt, m = parse(
        CHAIN.replace(
            "ge.NetOutput %m, %a, %s : tensor<4096xbf16>, tensor<4096xbf16>, tensor<4096xbf16>",
            "ge.NetOutput %s : tensor<4096xbf16>",
        ),
        "ge-lower-autofuse,ge-autofuse",
    )
    fused = m.clone()  # type: ignore[attr-defined]
    opt.apply_passes(fused)
    backends = [op for op in fused.walk() if isinstance(op, ge.AscBackend)]
    assert len(backends) == 1
    # one AscGraph node per ge op, each with a bf16 output: each rounds once, as each ge op
    nodes = [op for op in backends[0].walk() if isinstance(op, ag.AscNode)]
    assert [op.name for op in nodes if op.name in ("ascgraph.Mul", "ascgraph.Add", "ascgraph.Sigmoid")] == [
        "ascgraph.Mul",
        "ascgraph.Add",
        "ascgraph.Sigmoid",
    ]
    assert all(r.type.element_type == BFloat16Type() for op in nodes for r in op.results)  # type: ignore[attr-defined]
    ins = [values(BF16, (4096,), s, -4.0, 4.0) for s in (1, 2, 3)]
    (want,) = run_graph(select_graph(m), ins)  # type: ignore[arg-type]
    (got,) = run_graph(select_graph(fused), ins)
    same_bits(got, want)
    assert want.dtype == BF16


# ---------------------------------------------------------------------------------------
# GE's byte sizes: the memory plan, the model's tensors, the kernels' extents
# ---------------------------------------------------------------------------------------

PLAN_GRAPH = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xbf16>
  %y = ge.Data {index = 1} : tensor<4x8xbf16>
  %r = ge.Relu(%x) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %b = ge.Abs(%y) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %c = ge.ConcatD(%r, %b) {concat_dim = 0, N = 2} : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<8x8xbf16>
  %e = ge.Exp(%c) : (tensor<8x8xbf16>) -> tensor<8x8xbf16>
  ge.NetOutput %e : tensor<8x8xbf16>
}
"""


def test_memory_plan_and_kernel_extents_are_two_bytes_per_bf16_element() -> None:
    from lowering.ge_to_npu import GeToNpuPass

    passes = [str(p) for p in GeCompilePass().passes()]
    assert passes[-1] == "ge-to-npu"
    opt, c = parse(PLAN_GRAPH, ",".join(passes[:-1]))
    opt.apply_passes(c)
    # the plan: GE's TensorUtils size (tensor_utils.cc: GetTensorMemorySizeInBytes) of
    # 32 elements x 2 bytes = 64, rounded up to 32, plus 32 of padding; 64 elements: 160
    (g,) = [o for o in c.ops if isinstance(o, ge.GraphOp)]  # type: ignore[attr-defined]
    sizes = {
        ge.node_name(op): [a.value.data for a in op.attributes["output_size"].data]
        for op in g.body.block.ops
        if "output_size" in op.attributes
    }
    assert sizes["x"] == sizes["y"] == sizes["r"] == sizes["b"] == [64 + 32]
    assert sizes["e"] == [128 + 32]
    GeToNpuPass().apply(None, c)  # type: ignore[arg-type]
    model = next(o for o in c.ops if isinstance(o, npu.ModelOp))  # type: ignore[attr-defined]
    # every tensor of the model spans 2 bytes per element: 4x8 -> 64, 8x8 -> 128
    addr = {e.tensor_name: e.addr for e in model.table()}
    assert {n: a.length.data for n, a in addr.items()} == {
        "x:0": 64,
        "y:0": 64,
        "r:0": 64,
        "b:0": 64,
        "c:0": 128,
        "e:0": 128,
    }
    # the no-task concat's pieces lie side by side: b starts 64 bytes after r, c spans both
    assert addr["b:0"].offset.data - addr["r:0"].offset.data == 64
    assert (addr["c:0"].offset.data, addr["c:0"].end) == (addr["r:0"].offset.data, addr["b:0"].end)
    # every kernel operand too
    kernels = model.kernel_defs()
    read = written = 0
    for s in model.stream_ops():
        for t in s.tasks:
            if isinstance(t, npu.KernelOp):
                k = kernels[t.kernel.root_reference.data]
                ins, outs = t.footprint()
                for (_, a), ty in (*zip(ins, k.function_type.inputs.data), *zip(outs, k.function_type.outputs.data)):
                    assert a.length.data == 2 * int(np.prod(ty.get_shape()))  # type: ignore[attr-defined]
                read += sum(a.length.data for _, a in ins)
                written += sum(a.length.data for _, a in outs)
    loaded = load(model)
    ins = [values(BF16, (4, 8), 1), values(BF16, (4, 8), 2)]
    (out,) = loaded.execute(ins)
    st = loaded.stats
    assert (st.kernel_bytes_read, st.kernel_bytes_written) == (read, written) == (2 * 64 + 128, 2 * 64 + 128)
    want = np.exp(np.concatenate([np.maximum(ins[0].astype(np.float32), 0), np.abs(ins[1].astype(np.float32))])).astype(
        BF16
    )
    same_bits(out, want)


# ---------------------------------------------------------------------------------------
# Dense attributes, Bitcast, inputs, error bounds
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("t", ["bf16", "f8E4M3FN", "f8E5M2"])
def test_dense_consts_parse_to_the_nearest_value_and_load_as_its_bytes(t: str) -> None:
    """xDSL's dense attributes hold bf16 / float8 as their own bytes (a literal rounds to
    the nearest value when parsed); the simulator's weight region holds those bytes."""
    dt = ARITH[t]
    lits = [0.1, -1.7, 3.0, 0.33]
    text = f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<4x{t}>
  %c = ge.Const {{value = dense<[{", ".join(map(str, lits))}]> : tensor<4x{t}>}} : tensor<4x{t}>
  %s = ge.Const {{value = dense<0.3> : tensor<{t}>}} : tensor<{t}>
  %a = ge.Add(%x, %c) : (tensor<4x{t}>, tensor<4x{t}>) -> tensor<4x{t}>
  %m = ge.Mul(%a, %s) : (tensor<4x{t}>, tensor<{t}>) -> tensor<4x{t}>
  ge.NetOutput %m, %c, %s : tensor<4x{t}>, tensor<4x{t}>, tensor<{t}>
}}
"""
    cv, sv = np.array(lits).astype(dt), np.array(0.3).astype(dt)
    x = values(dt, (4,), 5)
    m_ref, c_ref, s_ref = reference(text, [x])
    same_bits(c_ref, cv)
    same_bits(s_ref, sv)
    opt, mod = parse(text, "ge-compile")
    comp = mod.clone()  # type: ignore[attr-defined]
    opt.apply_passes(comp)
    model = next(o for o in comp.ops if isinstance(o, npu.ModelOp))
    loaded = load(model)
    consts = [e for e in model.table() if isinstance(e, npu.ConstOp)]
    assert consts
    for e in consts:
        a = e.addr
        held = bytes(loaded.memory[a.region.data][a.offset.data : a.end])
        assert held in (cv.tobytes(), sv.tobytes()), (e.tensor_name, held)
    m_sim, c_sim, s_sim = loaded.execute([x])
    want = (
        np.asarray(x.astype(np.float32) + cv.astype(np.float32)).astype(dt).astype(np.float32) * sv.astype(np.float32)
    ).astype(dt)
    for got, w in ((m_ref, want), (m_sim, want), (c_sim, cv), (s_sim, sv)):
        same_bits(got, w)


def test_bitcast_of_bf16_keeps_its_bytes() -> None:
    # bf16 1.0 = 0x3F80, -2.0 = 0xC000; little-endian: element 0 is the low half
    (r,) = reference(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2xbf16>
  %y = ge.Bitcast(%x) : (tensor<2xbf16>) -> tensor<1xi32>
  ge.NetOutput %y : tensor<1xi32>
}
""",
        [np.array([1.0, -2.0], BF16)],
    )
    assert r.tolist() == [0xC0003F80 - 2**32]


def test_random_inputs_are_values_of_the_dtype() -> None:
    _, m = parse(
        """ge.graph @main {
  %a = ge.Data {index = 0} : tensor<1000xbf16>
  %b = ge.Data {index = 1} : tensor<1000xf8E4M3FN>
  %c = ge.Data {index = 2} : tensor<1000xf8E5M2>
  %d = ge.Data {index = 3} : tensor<1000xf8E8M0FNU>
  %e = ge.Data {index = 4} : tensor<f8E8M0FNU>
  ge.NetOutput %a, %b, %c, %d, %e : tensor<1000xbf16>, tensor<1000xf8E4M3FN>, tensor<1000xf8E5M2>, tensor<1000xf8E8M0FNU>, tensor<f8E8M0FNU>
}
"""
    )
    rng = np.random.default_rng(0)
    a, b, c, d, e = (random_input(x, rng) for x in select_graph(m).data_nodes)  # type: ignore[arg-type]
    for v, dt in ((a, BF16), (b, E4M3), (c, E5M2)):
        f = v.astype(np.float64)
        assert v.dtype == dt and f.min() >= -1 and f.max() <= 1 and np.unique(f).size > 8
    for v in (d, e):
        assert isinstance(v, np.ndarray) and v.dtype == E8M0
        k = np.log2(v.astype(np.float64))
        assert (k == np.round(k)).all() and k.min() >= -4 and k.max() <= 4  # powers of two, no NaN
    assert e.shape == ()


def test_an_npy_input_of_the_wrong_byte_width_is_a_located_error(tmp_path: Path) -> None:
    f = tmp_path / "g.mlir"
    f.write_text(_graphs("bf16")["data"][0])
    p = tmp_path / "x.npy"
    np.save(p, np.zeros((1, 1, 1), dtype="V4"))
    o = D.run_in_process([str(f), "--input", str(p)], 60)
    assert o.code == 1 and o.stderr.startswith(f"{f}:2:3: error: ") and "numpy dtype bfloat16" in o.stderr, o.stderr
    assert len(o.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("t", "u"), [("bf16", 2.0**-8), ("f8E4M3FN", 2.0**-4), ("f8E5M2", 2.0**-3), ("f8E8M0FNU", 2.0**-1)]
)
def test_error_bounds_use_the_dtypes_unit_roundoff(t: str, u: float) -> None:
    _, m = parse(
        f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : tensor<{t}>\n  ge.NetOutput %x : tensor<{t}>\n}}\n"
    )
    elem = select_graph(m).data_nodes[0].results[0].type.element_type  # type: ignore[attr-defined]
    assert EB.unit_roundoff(elem) == u
    r = np.array([4.0, -2.0, 0.0], dtype=ALL[t])
    e = EB.finish(elem, r, np.array([1e-3, 0.0, 0.0]))
    # a result with an input error gets its own rounding: 2u|r|, plus the subnormal step
    tiny = float(ml_dtypes.finfo(ALL[t]).smallest_subnormal)
    assert e[0] == pytest.approx(1e-3 + 2 * u * 4.0 + tiny) and e[1] == 0.0 and e[2] == 0.0


def test_a_reordered_bf16_sum_is_within_its_bound() -> None:
    """The float32 sum of [1, 2^-8, 2^-24, 2^-24] is 1 + 2^-8 left to right (each 2^-24
    is half a float32 ulp of 1: a tie, kept even) but 1 + 2^-8 + 2^-23 from the right,
    which bf16 rounds to 1 + 2^-7 where the other rounds (a tie) to 1: a correct compiled
    program may be one bf16 ulp away. ge-run's bound for a bf16 ReduceSumD covers it (2u|r|
    with bf16's u = 2^-8), and a float32 accumulation bound alone would not."""
    from ge_tools.run import within_tolerance

    terms = np.array([1.0, 2.0**-8, 2.0**-24, 2.0**-24], np.float32)
    left = np.float32(0)
    for v in terms:
        left = np.float32(left + v)
    right = np.float32(0)
    for v in terms[::-1]:
        right = np.float32(right + v)
    a, b = np.array(left).astype(BF16), np.array(right).astype(BF16)
    assert float(a) == 1.0 and float(b) == 1.0 + 2.0**-7  # the two orders, one bf16 ulp apart
    _, m = parse(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xbf16>
  %s = ge.ReduceSumD(%x) {axes = [0], keep_dims = false} : (tensor<4xbf16>) -> tensor<bf16>
  ge.NetOutput %s : tensor<bf16>
}
"""
    )
    g = select_graph(m)  # type: ignore[arg-type]
    x = terms.astype(BF16)
    (ref,) = run_graph(g, [x])
    (bound,) = EB.output_error_bounds(g, [x])
    assert float(bound) >= 2.0**-7 > 4 * 2.0**-24 * 1.01  # bf16's rounding, not f32's gamma
    for got in (a, b):
        assert within_tolerance(got.reshape(()), ref, bound).all()
    two_ulps = np.array(float(ref) + 2 * 2.0**-7, np.float32).astype(BF16)
    assert not within_tolerance(two_ulps, ref, bound).all()  # two ulps: no


def test_addn_rounds_after_each_add_as_its_lowering(tmp_path: Path) -> None:
    """GE lowers AddN to a chain of Add (lowering_impl.cpp), each rounding to bf16: the
    reference does the same, so the fused kernel matches it on 1 and 2 streams (rounding
    only once at the end gives other bits on these inputs)."""
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4096xbf16>
  %y = ge.Data {index = 1} : tensor<4096xbf16>
  %z = ge.Data {index = 2} : tensor<4096xbf16>
  %s = ge.AddN(%x, %y, %z) {N = 3} : (tensor<4096xbf16>, tensor<4096xbf16>, tensor<4096xbf16>) -> tensor<4096xbf16>
  ge.NetOutput %s : tensor<4096xbf16>
}
"""
    ins = [values(BF16, (4096,), s, -4.0, 4.0) for s in (11, 12, 13)]
    x, y, z = (v.astype(np.float32) for v in ins)
    xy = np.frombuffer(rne_bf16(x + y).astype(np.uint32).tobytes(), np.uint32) << 16
    want = rne_bf16(xy.view(np.float32) + z)
    (ref,) = reference(text, ins)
    assert (ref.view(np.uint16) == want).all()
    assert (rne_bf16(x + y + z) != want).any()
    for streams in ("1", "2"):
        (got,) = ge_run(tmp_path, text, ins, "--streams", streams)
        assert (as_dtype(got, BF16).view(np.uint16) == want).all()
