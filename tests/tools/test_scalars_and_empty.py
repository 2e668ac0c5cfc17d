"""0-d and size-0 tensors through the verifier, the reference interpreter, the compile
pipeline and the device simulator (issue 17, cases 4, 5, 9 and 11).

Expected values are written by hand (x * 2, x[2], [s, v0, v1], -inf, ...), never taken
from the program's own output.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ge_dialect import ascgraph as ag
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from runtime.graph_interpreter import ReferenceEvalError
from runtime.interpreter import ge_interpreter, run_module
from runtime.reference import select_graph
from runtime.simulator import load

F32 = np.float32


def parse(text: str, pipeline: str = "") -> tuple[GeOptMain, ModuleOp]:
    opt = GeOptMain(["-p", pipeline] if pipeline else [])
    m = parse_module(opt.ctx, text, "t.mlir")
    m.verify()
    return opt, m


def simulate(
    text: str, inputs: list[np.ndarray], pipeline: str = "ge-compile", streams: int = 1, runs: int = 2
) -> list[list[np.ndarray]]:
    """Compile `text` with `pipeline` (ge-compile's passes, or the given ones followed by
    ge-assign-memory and ge-to-npu) on `streams` streams, load the model and execute it
    `runs` times on fresh copies of `inputs`."""
    from ge_dialect import npu

    passes = (
        f"ge-compile{{streams={streams}}}"
        if pipeline == "ge-compile"
        else f"{pipeline},ge-assign-memory,ge-to-npu{{streams={streams}}}"
    )
    opt, m = parse(text, passes)
    c = m.clone()
    opt.apply_passes(c)
    model = next(o for o in c.ops if isinstance(o, npu.ModelOp))
    loaded = load(model)
    return [loaded.execute([a.copy() for a in inputs]) for _ in range(runs)]


def reference(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return run_module(parse(text)[1], inputs)


def same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


def ge_run(tmp_path, text: str, *args: str) -> int:
    from ge_tools.run import run

    src = tmp_path / "g.mlir"
    src.write_text(text)
    return run([str(src), *args])


# ---------------------------------------------------------------------------------------
# Case 4: 0-d weights load on the simulator
# ---------------------------------------------------------------------------------------

_SCALAR_WEIGHT = """ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<5x{e}>
  %c = ge.Const {{value = dense<{v}> : tensor<{e}>}} : tensor<{e}>
  %m = ge.Mul(%x, %c) : (tensor<5x{e}>, tensor<{e}>) -> tensor<5x{e}>
  ge.NetOutput %m, %c : tensor<5x{e}>, tensor<{e}>
}}"""


@pytest.mark.parametrize("streams", [1, 2])
@pytest.mark.parametrize(
    ("elem", "value", "dtype"),
    [("f32", "2.0", np.float32), ("f16", "-0.5", np.float16), ("i32", "3", np.int32), ("i64", "-7", np.int64)],
)
def test_a_0d_const_weight_feeds_a_kernel_and_the_net_output(elem, value, dtype, streams):
    x = np.arange(5).astype(dtype)
    text = _SCALAR_WEIGHT.format(e=elem, v=value)
    c = np.array(float(value) if dtype().dtype.kind == "f" else int(value), dtype)
    for m, w in simulate(text, [x], streams=streams):
        same(m, x * c)
        same(w, c)  # the 0-d Const listed in NetOutput


def test_gather_v2_with_a_0d_axis_weight(tmp_path, capsys):
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x3xf32>
  %i = ge.Const {value = dense<[2, 0]> : tensor<2xi32>} : tensor<2xi32>
  %a = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %g = ge.GatherV2(%x, %i, %a) : (tensor<4x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<4x2xf32>
  ge.NetOutput %g : tensor<4x2xf32>
}"""
    x = np.arange(12, dtype=F32).reshape(4, 3)
    for (g,) in simulate(text, [x]):
        same(g, np.array([[2, 0], [5, 3], [8, 6], [11, 9]], F32))
    assert ge_run(tmp_path, text, "--streams", "2") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "outputs match the reference"


# ---------------------------------------------------------------------------------------
# Case 5: 0-d gathers
# ---------------------------------------------------------------------------------------

_GATHER_0D = """ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<5x{e}>
  %i = ge.Const {{value = dense<{i}> : tensor<{ie}>}} : tensor<{ie}>
  {axis}
  %g = ge.{op}(%x, %i{axis_arg}){attrs} : (tensor<5x{e}>, tensor<{ie}>{axis_ty}) -> tensor<{e}>
  %y = ge.Add(%g, %g) : (tensor<{e}>, tensor<{e}>) -> tensor<{e}>
  ge.NetOutput %g, %y : tensor<{e}>, tensor<{e}>
}}"""


def _gather_0d(op: str, elem: str, idx: int, idx_elem: str = "i32", attrs: str = "") -> str:
    v2 = op == "GatherV2"
    return _GATHER_0D.format(
        e=elem, i=idx, ie=idx_elem, op=op, attrs=attrs,
        axis="%a = ge.Const {value = dense<0> : tensor<i64>} : tensor<i64>" if v2 else "",
        axis_arg=", %a" if v2 else "", axis_ty=", tensor<i64>" if v2 else "",
    )  # fmt: skip


@pytest.mark.parametrize("op", ["Gather", "GatherV2"])
@pytest.mark.parametrize(("elem", "dtype"), [("f32", np.float32), ("f16", np.float16), ("i32", np.int32)])
def test_a_0d_index_gathers_a_0d_array(op, elem, dtype):
    x = np.array([10, 11, 12, 13, 14], dtype)
    g, y = reference(_gather_0d(op, elem, 2), [x])
    same(g, np.array(12, dtype))
    same(y, np.array(24, dtype))
    for g, y in simulate(_gather_0d(op, elem, 2), [x]):
        same(g, np.array(12, dtype))
        same(y, np.array(24, dtype))


def test_a_negative_0d_index_with_negative_index_support():
    x = np.array([10, 11, 12, 13, 14], F32)
    text = _gather_0d("GatherV2", "f32", -1, "i64", " {negative_index_support = true}")
    g, _ = reference(text, [x])
    same(g, np.array(14, F32))


def test_a_0d_gather_with_batch_dims_equal_to_the_index_rank():
    # batch_dims = 1 = rank of indices: one element per batch row, the output is 1-D.
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3x4xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %a = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %g = ge.GatherV2(%x, %i, %a) {batch_dims = 1} : (tensor<3x4xf32>, tensor<3xi32>, tensor<i32>) -> tensor<3xf32>
  ge.NetOutput %g : tensor<3xf32>
}"""
    x = np.arange(12, dtype=F32).reshape(3, 4)
    (g,) = reference(text, [x, np.array([3, 0, 2], np.int32)])
    same(g, np.array([3, 4, 10], F32))


# ---------------------------------------------------------------------------------------
# Case 9: ConcatD / ConcatV2D of rank-0 inputs (concatv2d.cc: InferShape4ConcatV2Common)
# ---------------------------------------------------------------------------------------

_SCALAR_CONCAT = """ge.graph @main {
  %s = ge.Data {index = 0} : tensor<f32>
  %v = ge.Data {index = 1} : tensor<3xf32>
  %r = ge.Relu(%s) : (tensor<f32>) -> tensor<f32>
  %e = ge.Exp(%v) : (tensor<3xf32>) -> tensor<3xf32>
  %a = ge.ConcatD(%r, %e) {concat_dim = 0} : (tensor<f32>, tensor<3xf32>) -> tensor<4xf32>
  %b = ge.ConcatV2D(%e, %r, %r) {concat_dim = -1} : (tensor<3xf32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  %c = ge.ConcatD(%r, %r) : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  %d = ge.ConcatD(%r) : (tensor<f32>) -> tensor<f32>
  ge.NetOutput %a, %b, %c, %d : tensor<4xf32>, tensor<5xf32>, tensor<2xf32>, tensor<f32>
}"""


def _scalar_concat_want(s: np.ndarray, v: np.ndarray) -> list[np.ndarray]:
    r, e = max(float(s), 0.0), [float(np.exp(t)) for t in v]  # by hand, element by element
    return [
        np.array([r, *e], F32),
        np.array([*e, r, r], F32),
        np.array([r, r], F32),
        np.array(r, F32),
    ]


@pytest.mark.parametrize(
    "pipeline",
    [
        "ge-compile",
        # concat lowering enabled: a concat with a rank-0 input stays a ConcatD kernel
        "ge-lower-autofuse{enable-pass=concat},ge-autofuse,ge-concat-notask",
    ],
)
def test_scalar_concat_verifies_runs_on_the_reference_and_the_pipeline(pipeline):
    s, v = np.array(0.75, F32), np.array([0.5, -1.0, 2.0], F32)
    want = _scalar_concat_want(s, v)
    for got, w in zip(reference(_SCALAR_CONCAT, [s, v]), want):
        np.testing.assert_allclose(got, w, rtol=1e-6)
        assert got.shape == w.shape
    for outs in simulate(_SCALAR_CONCAT, [s, v], pipeline):
        for got, w in zip(outs, want):
            np.testing.assert_allclose(got, w, rtol=1e-6)
            assert got.shape == w.shape


def test_the_no_task_pass_rejects_a_scalar_concat_with_is_scalar_input():
    from passes.notask.concat import ConcatNotaskPass

    _, m = parse(_SCALAR_CONCAT)
    ConcatNotaskPass().apply(None, m)  # type: ignore[arg-type]
    concats = [o for o in select_graph(m).body.block.ops if o.name in ("ge.ConcatD", "ge.ConcatV2D")]
    assert len(concats) == 4 and not any("_no_task" in o.attributes for o in concats)


@pytest.mark.parametrize(
    ("types", "out", "error"),
    [
        ("tensor<f16>, tensor<f16>, tensor<f16>", "tensor<3xf16>", None),
        ("tensor<f16>, tensor<7xf16>", "tensor<8xf16>", None),
        ("tensor<7xf16>, tensor<f16>", "tensor<8xf16>", None),
        ("tensor<f16>, tensor<f16>", "tensor<3xf16>", "output 0 has shape 3, but ConcatD infers 2"),
        ("tensor<f16>, tensor<1x2xf16>", "tensor<2x2xf16>", "input 1 has shape 1x2"),
        ("tensor<1x2xf16>, tensor<f16>", "tensor<2x2xf16>", "input 1 has shape scalar"),
    ],
)
def test_scalar_concat_shapes_follow_ge_infer(types, out, error):
    n = types.count(",") + 1
    text = (
        "ge.graph @main {\n"
        + "".join(f"  %x{i} = ge.Data {{index = {i}}} : {t.strip()}\n" for i, t in enumerate(types.split(",")))
        + f"  %c = ge.ConcatD({', '.join(f'%x{i}' for i in range(n))}) : ({types}) -> {out}\n"
        + f"  ge.NetOutput %c : {out}\n}}"
    )
    from xdsl.utils.exceptions import DiagnosticException

    if error is None:
        parse(text)
    else:
        with pytest.raises(DiagnosticException, match=error):
            parse(text)


# ---------------------------------------------------------------------------------------
# Case 11: reductions over a size-0 axis give their identities
# ---------------------------------------------------------------------------------------

_EMPTY_REDUCE = """ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<0x3x{e}>
  %mx = ge.ReduceMaxD(%x) {{axes = [0]}} : (tensor<0x3x{e}>) -> tensor<3x{e}>
  %mn = ge.ReduceMinD(%x) {{axes = [0], keep_dims = true}} : (tensor<0x3x{e}>) -> tensor<1x3x{e}>
  %sm = ge.ReduceSumD(%x) {{axes = [0]}} : (tensor<0x3x{e}>) -> tensor<3x{e}>
  %pr = ge.ReduceProdD(%x) {{axes = []}} : (tensor<0x3x{e}>) -> tensor<{e}>
  %ma = ge.ReduceMaxD(%x) {{axes = [1]}} : (tensor<0x3x{e}>) -> tensor<0x{e}>
  ge.NetOutput %mx, %mn, %sm, %pr, %ma : tensor<3x{e}>, tensor<1x3x{e}>, tensor<3x{e}>, tensor<{e}>, tensor<0x{e}>
}}"""


@pytest.mark.parametrize(
    ("elem", "dtype", "lo", "hi"),
    [
        ("f32", np.float32, -np.inf, np.inf),
        ("f16", np.float16, -np.inf, np.inf),
        ("i32", np.int32, -(2**31), 2**31 - 1),
        ("i8", np.int8, -128, 127),
        ("ui8", np.uint8, 0, 255),
    ],
)
def test_empty_reductions_give_the_identity(elem, dtype, lo, hi):
    text = _EMPTY_REDUCE.format(e=elem)
    x = np.zeros((0, 3), dtype)
    want = [
        np.array([lo] * 3, dtype),
        np.array([[hi] * 3], dtype),
        np.zeros(3, dtype),
        np.array(1, dtype),
        np.zeros(0, dtype),
    ]
    for got, w in zip(reference(text, [x]), want):
        same(got, w)
    for outs in simulate(text, [x], runs=1):
        for got, w in zip(outs, want):
            same(got, w)


def test_empty_bool_max_and_min_and_float_mean():
    text = """ge.graph @main {
  %b = ge.Data {index = 0} : tensor<2x0xi1>
  %f = ge.Data {index = 1} : tensor<2x0xf32>
  %mx = ge.ReduceMaxD(%b) {axes = [1]} : (tensor<2x0xi1>) -> tensor<2xi1>
  %mn = ge.ReduceMinD(%b) {axes = [1]} : (tensor<2x0xi1>) -> tensor<2xi1>
  %me = ge.ReduceMeanD(%f) {axes = [-1]} : (tensor<2x0xf32>) -> tensor<2xf32>
  ge.NetOutput %mx, %mn, %me : tensor<2xi1>, tensor<2xi1>, tensor<2xf32>
}"""
    mx, mn, me = reference(text, [np.zeros((2, 0), bool), np.zeros((2, 0), F32)])
    same(mx, np.array([False, False]))  # any() of nothing
    same(mn, np.array([True, True]))  # all() of nothing
    assert me.dtype == F32 and np.isnan(me).all()  # 0 / 0


def test_empty_integer_mean_is_a_located_error():
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<0xi32>
  %m = ge.ReduceMeanD(%x) {axes = [0]} : (tensor<0xi32>) -> tensor<i32>
  ge.NetOutput %m : tensor<i32>
}"""
    with pytest.raises(ReferenceEvalError, match="ReduceMeanD of an empty integer tensor"):
        reference(text, [np.zeros(0, np.int32)])


def test_ascgraph_max_and_min_over_an_empty_axis_give_the_identity():
    # AscGraph axes are >= 1 (the verifier), so the interpreter's reductions meet an empty
    # axis only through a caller's array: the kernels themselves must not fail on one.
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %y, %z = ge.AscBackend(%x) : (tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>) {
    ascgraph.graph @g axis = [0: z0 = 2, 1: z1 = 3] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 3], strides = [3, 1]>
      %l = ascgraph.Load(%d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 3], strides = [3, 1]>
      %mx = ascgraph.Max(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %mn = ascgraph.Min(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %s = ascgraph.Store(%mx) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %t = ascgraph.Store(%mn) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
      %p = ascgraph.Output(%t) {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 3], strides = [0, 1]>
    }
  }
  ge.NetOutput %y, %z : tensor<1x3xf32>, tensor<1x3xf32>
}"""
    _, m = parse(text)
    x = np.array([[1, -5, 3], [4, 2, -6]], F32)
    y, z = run_module(m, [x])
    same(y, np.array([[4, 2, 3]], F32))
    same(z, np.array([[1, -5, -6]], F32))
    nodes = [o for o in m.walk() if isinstance(o, ag.Max | ag.Min)]
    for node, want in zip(nodes, (-np.inf, np.inf)):
        (r,) = ge_interpreter().run_node(node, [np.zeros((0, 3), F32)])
        same(r, np.full((1, 3), want, F32))
