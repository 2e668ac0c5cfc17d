"""The AscGraph interpreter (runtime/ascgraph_interp.py) against hand-computed numpy.

Each test writes one ge.AscBackend by hand, runs the whole ge graph through the reference
interpreter (which evaluates AscBackends with the AscGraph interpreter) and compares with
numpy written independently of the IR: views (broadcast stride 0, permuted strides, an
offset slice), every compute node kind, keep-dim reductions, Concat/Split/Workspace, Cast,
Scalar, and GE's SimpleAddAbsExpWithCse.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context

from conftest import ROOT
from ge_dialect import ascgraph as ag
from ge_tools.parse import parse_module
from ge_tools.registry import make_context
from runtime import ascgraph_interp
from runtime.graph_interpreter import ReferenceEvalError
from runtime.interpreter import ge_interpreter, run_module

F32, F16 = np.float32, np.float16
RNG = np.random.default_rng(7)


def ctx() -> Context:
    return make_context()


def T(dt: str, axis, rep, st=None) -> str:
    """!ascgraph.tensor; strides default to contiguous over the repeats."""
    st = list(ag.contiguous_strides(rep)) if st is None else list(st)
    return f"!ascgraph.tensor<{dt}, axis = {list(axis)}, repeats = {list(rep)}, strides = {st}>"


def tensor(shape, dt: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dt}>"


def module(ins, outs, axes, nodes, attrs: str = "") -> str:
    """One ge.graph with one AscBackend over `ins` [(shape, dtype)] -> `outs`."""
    ax = ", ".join(f"{i}: z{i} = {s}" for i, s in enumerate(axes))
    lines = ["ge.graph @main {"]
    for k, (s, dt) in enumerate(ins):
        lines.append(f"  %x{k} = ge.Data {{index = {k}}} : {tensor(s, dt)}")
    rs = ", ".join(f"%y{k}" for k in range(len(outs)))
    intys = ", ".join(tensor(s, dt) for s, dt in ins)
    outtys = [tensor(s, dt) for s, dt in outs]
    ot = outtys[0] if len(outtys) == 1 else "(" + ", ".join(outtys) + ")"
    a = f" {{{attrs}}}" if attrs else ""
    lines.append(f"  {rs} = ge.AscBackend({', '.join(f'%x{k}' for k in range(len(ins)))}){a} : ({intys}) -> {ot} {{")
    lines.append(f"    ascgraph.graph @g axis = [{ax}] {{")
    lines += ["      " + n for n in nodes]
    lines += ["    }", "  }", f"  ge.NetOutput {rs} : {', '.join(outtys)}", "}"]
    return "\n".join(lines)


def run(text: str, *inputs: np.ndarray, verify: bool = True) -> list[np.ndarray]:
    m = parse_module(ctx(), text, "t.mlir")
    if verify:
        m.verify()
    return run_module(m, list(inputs))


def same(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    np.testing.assert_array_equal(a, b)


def sa(*axes: int) -> str:
    return f"{{sched.axis = {list(axes)}}}"


def store_out(src: str, t: str, k: int = 0, axes=(0, 1)) -> list[str]:
    return [
        f"%st{k} = ascgraph.Store({src}) {sa(*axes)} : {t}",
        f"%o{k} = ascgraph.Output(%st{k}) {{index = {k}}} : {t}",
    ]


# -- GE's example ------------------------------------------------------------------------------


def test_simple_add_abs_exp_with_cse_through_the_reference():
    # docs/ge/autofuse.md: exp(abs(x + x)) with one shared Load; 7 nodes.
    t = T("f32", [0, 1, 2], [2, 3, 4])
    text = module(
        [((2, 3, 4), "f32")],
        [((2, 3, 4), "f32")],
        [2, 3, 4],
        [
            f"%data = ascgraph.Data {{index = 0}} : {t}",
            f"%load = ascgraph.Load(%data) {sa(0, 1, 2)} : {t}",
            f"%add = ascgraph.Add(%load, %load) {sa(0, 1, 2)} : {t}",
            f"%abs = ascgraph.Abs(%add) {sa(0, 1, 2)} : {t}",
            f"%exp = ascgraph.Exp(%abs) {sa(0, 1, 2)} : {t}",
            *store_out("%exp", t, axes=(0, 1, 2)),
        ],
        attrs='fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["add", "abs", "exp"], fusion_nodes_size = 7',
    )
    x = RNG.standard_normal((2, 3, 4)).astype(F32)
    (r,) = run(text, x)
    same(r, np.exp(np.abs(x + x)))


# -- views ---------------------------------------------------------------------------------------


def test_broadcast_view_is_stride_zero():
    # y[4] read as [3, 4] through Data repeats [1, 4] / strides [0, 1]; the Load keeps repeat 1
    # and an explicit Broadcast expands it (HintGraph form); out = x + y.
    full, row = T("f32", [0, 1], [3, 4]), T("f32", [0, 1], [1, 4])
    text = module(
        [((3, 4), "f32"), ((4,), "f32")],
        [((3, 4), "f32")],
        [3, 4],
        [
            f"%dx = ascgraph.Data {{index = 0}} : {full}",
            f"%dy = ascgraph.Data {{index = 1}} : {row}",
            f"%lx = ascgraph.Load(%dx) {sa(0, 1)} : {full}",
            f"%ly = ascgraph.Load(%dy) {sa(0, 1)} : {row}",
            f"%by = ascgraph.Broadcast(%ly) {sa(0, 1)} : {full}",
            f"%a = ascgraph.Add(%lx, %by) {sa(0, 1)} : {full}",
            *store_out("%a", full),
        ],
    )
    x, y = RNG.standard_normal((3, 4)).astype(F32), np.array([1, 2, 3, 4], F32)
    (r,) = run(text, x, y)
    same(r, x + y[None, :])


def test_broadcast_on_load_and_in_pointwise():
    # A column vector c[3] as Data repeats [3, 1] strides [1, 0]: the Load itself broadcasts to
    # [3, 4] (repeat-1 input axis); a [1, 4] row broadcasts inside Mul (numpy broadcasting).
    full = T("f32", [0, 1], [3, 4])
    text = module(
        [((3,), "f32"), ((4,), "f32")],
        [((3, 4), "f32")],
        [3, 4],
        [
            f"%dc = ascgraph.Data {{index = 0}} : {T('f32', [0, 1], [3, 1], [1, 0])}",
            f"%dr = ascgraph.Data {{index = 1}} : {T('f32', [0, 1], [1, 4], [0, 1])}",
            f"%lc = ascgraph.Load(%dc) {sa(0, 1)} : {full}",
            f"%lr = ascgraph.Load(%dr) {sa(0, 1)} : {T('f32', [0, 1], [1, 4])}",
            f"%m = ascgraph.Mul(%lc, %lr) {sa(0, 1)} : {full}",
            *store_out("%m", full),
        ],
    )
    c, w = np.array([1, 2, 3], F32), np.array([10, 20, 30, 40], F32)
    (r,) = run(text, c, w)
    same(r, np.outer(c, w).astype(F32))


def test_transposed_view_by_permuted_strides():
    # out[i, j] = x[j, i] for x 3x4: the loop runs over out (z0 = 4, z1 = 3); x's strides
    # in loop order are [1, 4].
    t = T("f32", [0, 1], [4, 3])
    text = module(
        [((3, 4), "f32")],
        [((4, 3), "f32")],
        [4, 3],
        [
            f"%d = ascgraph.Data {{index = 0}} : {T('f32', [0, 1], [4, 3], [1, 4])}",
            f"%l = ascgraph.Load(%d) {sa(0, 1)} : {t}",
            *store_out("%l", t),
        ],
    )
    x = np.arange(12, dtype=F32).reshape(3, 4)
    (r,) = run(text, x)
    same(r, x.T.copy())


def test_explicit_transpose_node():
    # GE's FallBackTransposeOK shape: Data/Load on axes [1, 0], Transpose to [0, 1].
    src = T("f32", [1, 0], [3, 4])
    dst = T("f32", [0, 1], [4, 3])
    text = module(
        [((3, 4), "f32")],
        [((4, 3), "f32")],
        [4, 3],
        [
            f"%d = ascgraph.Data {{index = 0}} : {src}",
            f"%l = ascgraph.Load(%d) {sa(0, 1)} : {src}",
            f"%t = ascgraph.Transpose(%l) {sa(0, 1)} : {dst}",
            *store_out("%t", dst),
        ],
    )
    x = RNG.standard_normal((3, 4)).astype(F32)
    (r,) = run(text, x)
    same(r, x.T.copy())


def test_sliced_view_by_offset():
    # out = x[1:3, 2:6] of a 4x8 tensor: Data strides [8, 1], Load offset 1*8 + 2.
    t = T("f32", [0, 1], [2, 4])
    text = module(
        [((4, 8), "f32")],
        [((2, 4), "f32")],
        [2, 4],
        [
            f"%d = ascgraph.Data {{index = 0}} : {T('f32', [0, 1], [2, 4], [8, 1])}",
            f"%l = ascgraph.Load(%d) {{offset = 10, sched.axis = [0, 1]}} : {t}",
            *store_out("%l", t),
        ],
    )
    x = np.arange(32, dtype=F32).reshape(4, 8)
    (r,) = run(text, x)
    same(r, x[1:3, 2:6].copy())


def test_strided_store_writes_through_its_view():
    # The Store's own view puts the result transposed into the output: out = (x + 1)^T.
    t = T("f32", [0, 1], [2, 3])
    text = module(
        [((2, 3), "f32")],
        [((3, 2), "f32")],
        [2, 3],
        [
            f"%d = ascgraph.Data {{index = 0}} : {t}",
            f"%l = ascgraph.Load(%d) {sa(0, 1)} : {t}",
            f'%one = ascgraph.Scalar {{value = "1"}} : {T("f32", [], [])}',
            f"%a = ascgraph.Add(%l, %one) {sa(0, 1)} : {t}",
            *store_out("%a", T("f32", [0, 1], [2, 3], [1, 2])),
        ],
    )
    x = np.arange(6, dtype=F32).reshape(2, 3)
    (r,) = run(text, x)
    same(r, (x + 1).T.copy())


# -- compute nodes -------------------------------------------------------------------------------

UNARY = {
    "Abs": np.abs,
    "Neg": np.negative,
    "Exp": np.exp,
    "Ln": np.log,
    "Relu": lambda x: np.where(x > 0, x, F32(0)),
    "Sqrt": np.sqrt,
    "Rsqrt": lambda x: F32(1) / np.sqrt(x),
    "Reciprocal": lambda x: F32(1) / x,
    "Sigmoid": lambda x: F32(1) / (F32(1) + np.exp(-x)),
    "Tanh": np.tanh,
}
BINARY = {
    "Add": lambda a, b: a + b,
    "Sub": lambda a, b: a - b,
    "Mul": lambda a, b: a * b,
    "Div": lambda a, b: a / b,
    "Maximum": np.maximum,
    "Minimum": np.minimum,
    "Pow": np.power,
}
COMPARE = {
    "Eq": lambda a, b: a == b,
    "Ne": lambda a, b: a != b,
    "Gt": lambda a, b: a > b,
    "Ge": lambda a, b: a >= b,
    "Lt": lambda a, b: a < b,
    "Le": lambda a, b: a <= b,
}
V = T("f32", [0], [6])


def _pointwise_module(op: str, n_in: int, out_dt: str = "f32") -> str:
    nodes = []
    for k in range(n_in):
        nodes.append(f"%d{k} = ascgraph.Data {{index = {k}}} : {V}")
        nodes.append(f"%l{k} = ascgraph.Load(%d{k}) {sa(0)} : {V}")
    args = ", ".join(f"%l{k}" for k in range(n_in))
    out = T(out_dt, [0], [6])
    nodes.append(f"%r = ascgraph.{op}({args}) {sa(0)} : {out}")
    nodes += store_out("%r", out, axes=(0,))
    return module([((6,), "f32")] * n_in, [((6,), out_dt)], [6], nodes)


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary(op):
    x = np.array([0.25, 0.5, 1.0, 2.0, 3.5, 7.0], F32)  # positive: defined for Ln/Sqrt/Rsqrt
    if op in ("Abs", "Neg", "Relu", "Exp", "Tanh", "Sigmoid"):
        x = x - F32(2)
    (r,) = run(_pointwise_module(op, 1), x)
    same(r, np.asarray(UNARY[op](x), F32))


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary(op):
    a = np.array([1.5, -2.0, 3.0, 4.0, 0.5, 6.0], F32)
    b = np.array([2.0, 1.0, -1.0, 4.0, 3.0, 0.5], F32)
    if op == "Pow":
        a = np.abs(a)
    (r,) = run(_pointwise_module(op, 2), a, b)
    same(r, np.asarray(BINARY[op](a, b), F32))


@pytest.mark.parametrize("op", sorted(COMPARE))
def test_comparisons_give_uint8(op):
    a = np.array([1, 2, 3, 4, 5, 6], F32)
    b = np.array([3, 2, 1, 4, 6, 5], F32)
    (r,) = run(_pointwise_module(op, 2, "ui8"), a, b)
    same(r, COMPARE[op](a, b).astype(np.uint8))


def test_where_selects_by_uint8_condition():
    c = T("ui8", [0], [6])
    nodes = [
        f"%d0 = ascgraph.Data {{index = 0}} : {V}",
        f"%d1 = ascgraph.Data {{index = 1}} : {V}",
        f"%l0 = ascgraph.Load(%d0) {sa(0)} : {V}",
        f"%l1 = ascgraph.Load(%d1) {sa(0)} : {V}",
        f"%c = ascgraph.Gt(%l0, %l1) {sa(0)} : {c}",
        f"%w = ascgraph.Where(%c, %l0, %l1) {sa(0)} : {V}",
        *store_out("%w", V, axes=(0,)),
    ]
    a = np.array([1, 5, 3, 0, 9, -1], F32)
    b = np.array([2, 4, 3, 1, 8, -2], F32)
    (r,) = run(module([((6,), "f32")] * 2, [((6,), "f32")], [6], nodes), a, b)
    same(r, np.array([2, 5, 3, 1, 9, -1], F32))  # the larger of each pair, by hand


@pytest.mark.parametrize(("dt", "np_dt"), [("f16", F16), ("i32", np.int32)])
def test_cast_to_its_output_dtype(dt, np_dt):
    out = T(dt, [0], [6])
    nodes = [
        f"%d = ascgraph.Data {{index = 0}} : {V}",
        f"%l = ascgraph.Load(%d) {sa(0)} : {V}",
        f"%c = ascgraph.Cast(%l) {sa(0)} : {out}",
        *store_out("%c", out, axes=(0,)),
    ]
    x = np.array([1.25, -2.75, 3.5, 1e3, -0.5, 7.0], F32)
    (r,) = run(module([((6,), "f32")], [((6,), dt)], [6], nodes), x)
    want = {F16: np.array([1.25, -2.75, 3.5, 1000, -0.5, 7], F16), np.int32: np.array([1, -2, 3, 1000, 0, 7], np.int32)}
    same(r, want[np_dt])


def test_scalar_broadcasts_into_pointwise():
    nodes = [
        f"%d = ascgraph.Data {{index = 0}} : {V}",
        f"%l = ascgraph.Load(%d) {sa(0)} : {V}",
        f'%k = ascgraph.Scalar {{value = "-1.5"}} : {T("f32", [], [])}',
        f"%m = ascgraph.Mul(%l, %k) {sa(0)} : {V}",
        *store_out("%m", V, axes=(0,)),
    ]
    x = np.arange(6, dtype=F32)
    (r,) = run(module([((6,), "f32")], [((6,), "f32")], [6], nodes), x)
    same(r, np.array([0, -1.5, -3, -4.5, -6, -7.5], F32))


# -- reductions ----------------------------------------------------------------------------------

REDUCE = {
    "Sum": lambda x, ax: np.sum(x, axis=ax, keepdims=True),
    "Max": lambda x, ax: np.max(x, axis=ax, keepdims=True),
    "Min": lambda x, ax: np.min(x, axis=ax, keepdims=True),
    "Mean": lambda x, ax: np.mean(x, axis=ax, keepdims=True),
    "Prod": lambda x, ax: np.prod(x, axis=ax, keepdims=True),
}


@pytest.mark.parametrize("op", sorted(REDUCE))
@pytest.mark.parametrize("axes", [(1,), (0,), (0, 1)])
def test_keep_dim_reductions(op, axes):
    # The loop nest is the input's [3, 4]; the reduced axis stays with repeat 1, stride 0.
    shape = (3, 4)
    out_shape = tuple(1 if i in axes else d for i, d in enumerate(shape))
    full, red = T("f32", [0, 1], shape), T("f32", [0, 1], out_shape)
    text = module(
        [(shape, "f32")],
        [(out_shape, "f32")],
        list(shape),
        [
            f"%d = ascgraph.Data {{index = 0}} : {full}",
            f"%l = ascgraph.Load(%d) {sa(0, 1)} : {full}",
            f"%r = ascgraph.{op}(%l) {sa(0, 1)} : {red}",
            *store_out("%r", red),
        ],
    )
    x = np.array([[1, 2, 3, 4], [0.5, -1, 2, 8], [3, 3, -2, 0.25]], F32)
    (r,) = run(text, x)
    np.testing.assert_allclose(r, REDUCE[op](x, axes), rtol=1e-6)
    assert r.shape == out_shape and r.dtype == F32


def test_f16_sum_accumulates_in_f32():
    # 4097 halves: an f16 accumulator sticks at 1024 (1024 + 0.5 rounds back to 1024: f16 has
    # 11 significant bits); in f32 the sum is 2048.5, which rounds to 2048 in f16.
    n = 4097
    full, red = T("f16", [0], [n]), T("f16", [0], [1], [0])
    text = module(
        [((n,), "f16")],
        [((1,), "f16")],
        [n],
        [
            f"%d = ascgraph.Data {{index = 0}} : {full}",
            f"%l = ascgraph.Load(%d) {sa(0)} : {full}",
            f"%r = ascgraph.Sum(%l) {sa(0)} : {red}",
            *store_out("%r", red, axes=(0,)),
        ],
    )
    x = np.full(n, 0.5, F16)
    (r,) = run(text, x)
    same(r, np.array([2048.5], F32).astype(F16))  # 4097 * 0.5 in f32, then rounded to f16


# -- concat, split, workspace --------------------------------------------------------------------


def test_concat_split_and_workspace():
    # c = concat([a, b], axis 1) (repeats 2 + 4 = 6); split into halves of 3; the first half
    # goes through a GM Workspace and is negated; outputs (-c[:, :3], c[:, 3:]).
    p2, p4, p6, p3 = (T("f16", [0, 1], [4, n]) for n in (2, 4, 6, 3))
    text = module(
        [((4, 2), "f16"), ((4, 4), "f16")],
        [((4, 3), "f16"), ((4, 3), "f16")],
        [4, 6],
        [
            f"%d0 = ascgraph.Data {{index = 0}} : {p2}",
            f"%d1 = ascgraph.Data {{index = 1}} : {p4}",
            f"%l0 = ascgraph.Load(%d0) {sa(0, 1)} : {p2}",
            f"%l1 = ascgraph.Load(%d1) {sa(0, 1)} : {p4}",
            f"%c = ascgraph.Concat(%l0, %l1) {sa(0, 1)} : {p6}",
            f"%s0, %s1 = ascgraph.Split(%c) {sa(0, 1)} : {p3}, {p3}",
            f"%w = ascgraph.Store(%s0) {sa(0, 1)} : {p3}",
            f"%ws = ascgraph.Workspace(%w) : {p3}",
            f"%lw = ascgraph.Load(%ws) {sa(0, 1)} : {p3}",
            f"%n = ascgraph.Neg(%lw) {sa(0, 1)} : {p3}",
            *store_out("%n", p3, 0),
            *store_out("%s1", p3, 1),
        ],
    )
    a = np.arange(8, dtype=F16).reshape(4, 2)
    b = (100 + np.arange(16)).astype(F16).reshape(4, 4)
    u, v = run(text, a, b)
    # Row i of c is [2i, 2i+1, 100+4i, 101+4i, 102+4i, 103+4i].
    i = np.arange(4)[:, None]
    same(u, -np.concatenate([2 * i, 2 * i + 1, 100 + 4 * i], axis=1).astype(F16))
    same(v, np.concatenate([101 + 4 * i, 102 + 4 * i, 103 + 4 * i], axis=1).astype(F16))


def _split_module(sizes, axis: int, attrs: str = "", out_types=None) -> str:
    """x (4 x 10 with axis 1 split, or 10 x 4 with axis 0) -> Load -> Split -> one Store per
    piece; `out_types` replaces the pieces' tensor types (for the verifier cases)."""
    whole = [4, sum(sizes)] if axis == 1 else [sum(sizes), 4]
    shapes = [[4, n] if axis == 1 else [n, 4] for n in sizes]
    ts = out_types or [T("f32", [0, 1], sh) for sh in shapes]
    w = T("f32", [0, 1], whole)
    names = ", ".join(f"%s{k}" for k in range(len(sizes)))
    nodes = [
        f"%d = ascgraph.Data {{index = 0}} : {w}",
        f"%l = ascgraph.Load(%d) {sa(0, 1)} : {w}",
        f"{names} = ascgraph.Split(%l) {{sched.axis = [0, 1]{attrs}}} : {', '.join(ts)}",
    ]
    for k, t in enumerate(ts):
        nodes += store_out(f"%s{k}", t, k)
    return module([(tuple(whole), "f32")], [(tuple(sh), "f32") for sh in shapes], whole, nodes)


def test_split_uneven_pieces_with_gid():
    # the StoreSplit form of GE's A5 lowering: pieces 2, 3, 5 of a 4 x 10 input on axis 1,
    # the Split carrying its original Split's global id
    x = RNG.standard_normal((4, 10)).astype(F32)
    got = run(_split_module([2, 3, 5], 1, ", gid = 7"), x)
    for g, w in zip(got, np.split(x, [2, 5], axis=1)):
        same(g, w)


def test_split_on_the_outer_axis():
    x = np.arange(40, dtype=F32).reshape(10, 4)
    got = run(_split_module([6, 4], 0), x)
    same(got[0], x[:6])
    same(got[1], x[6:])


def test_split_interpreted_from_the_lowering():
    """ge-lower-autofuse split-lowering=split: each StoreSplit box stores its own piece."""
    from lowering.lower_autofuse import LowerAutofusePass

    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3x12xf16>
  %a, %b, %c = ge.SplitVD(%x) {split_dim = 1, num_split = 3, size_splits = [5, 4, 3]} : (tensor<3x12xf16>) -> (tensor<3x5xf16>, tensor<3x4xf16>, tensor<3x3xf16>)
  ge.NetOutput %c, %a, %b : tensor<3x3xf16>, tensor<3x5xf16>, tensor<3x4xf16>
}"""
    m = parse_module(ctx(), text, "t.mlir")
    LowerAutofusePass(enable_pass=("split",), split_lowering="split").apply(ctx(), m)
    m.verify()
    splits = [op for op in m.walk() if isinstance(op, ag.Split)]
    assert len(splits) == 3 and {s.attributes["gid"].value.data for s in splits} == {1}  # type: ignore[attr-defined]
    x = RNG.standard_normal((3, 12)).astype(F16)
    c, a, b = run_module(m, [x])
    same(a, x[:, :5])
    same(b, x[:, 5:9])
    same(c, x[:, 9:])


@pytest.mark.parametrize(
    "types, msg",
    [
        # the pieces cover 2 + 3 of the 6 columns
        (
            [T("f32", [0, 1], [4, 2]), T("f32", [0, 1], [4, 3])],
            "Split output repeats on axis id 1 sum to 5, but the whole has 6",
        ),
        # a piece that differs from the whole on two axes
        (
            [T("f32", [0, 1], [2, 3]), T("f32", [0, 1], [4, 3])],
            "repeats must differ from the whole on exactly one axis",
        ),
        # a piece with another dtype
        ([T("f16", [0, 1], [4, 3]), T("f32", [0, 1], [4, 3])], "output 0: dtype f16 differs from f32"),
        # a piece over another axis order
        ([T("f32", [1, 0], [3, 4]), T("f32", [0, 1], [4, 3])], "output 0 has axis [1, 0], the Split has [0, 1]"),
    ],
)
def test_split_verifier(types, msg):
    text = _split_module([3, 3], 1, out_types=types)
    with pytest.raises(Exception, match=re.escape(msg)):
        parse_module(ctx(), text, "t.mlir").verify()


def test_concat_on_the_outer_axis():
    p = T("f32", [0, 1], [1, 3])
    full = T("f32", [0, 1], [3, 3])
    text = module(
        [((1, 3), "f32"), ((2, 3), "f32")],
        [((3, 3), "f32")],
        [3, 3],
        [
            f"%d0 = ascgraph.Data {{index = 0}} : {p}",
            f"%d1 = ascgraph.Data {{index = 1}} : {T('f32', [0, 1], [2, 3])}",
            f"%l0 = ascgraph.Load(%d0) {sa(0, 1)} : {p}",
            f"%l1 = ascgraph.Load(%d1) {sa(0, 1)} : {T('f32', [0, 1], [2, 3])}",
            f"%c = ascgraph.Concat(%l0, %l1) {sa(0, 1)} : {full}",
            *store_out("%c", full),
        ],
    )
    a, b = np.array([[1, 2, 3]], F32), np.array([[4, 5, 6], [7, 8, 9]], F32)
    (r,) = run(text, a, b)
    same(r, np.arange(1, 10, dtype=F32).reshape(3, 3))


# -- FusedAscBackend, errors, ge-run ---------------------------------------------------------------

FUSED = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %f = ge.FusedAscBackend(%x) : (tensor<4xf32>) -> tensor<4xf32> {
    %d = ge.Data {index = 0} : tensor<4xf32>
    %a = ge.AscBackend(%d) : (tensor<4xf32>) -> tensor<4xf32> {
      ascgraph.graph @abs axis = [0: z0 = 4] {
        %a_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %a_l = ascgraph.Load(%a_d) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %a_r = ascgraph.Abs(%a_l) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %a_s = ascgraph.Store(%a_r) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %a_o = ascgraph.Output(%a_s) {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
      }
    }
    %b = ge.AscBackend(%a) : (tensor<4xf32>) -> tensor<4xf32> {
      ascgraph.graph @sqrt axis = [0: z0 = 4] {
        %b_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %b_l = ascgraph.Load(%b_d) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %b_r = ascgraph.Sqrt(%b_l) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %b_s = ascgraph.Store(%b_r) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
        %b_o = ascgraph.Output(%b_s) {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
      }
    }
    ge.NetOutput %b : tensor<4xf32>
  }
  ge.NetOutput %f : tensor<4xf32>
}
"""


def test_fused_asc_backend_runs_its_asc_backends():
    x = np.array([-4, 9, -0.25, 16], F32)
    (r,) = run(FUSED, x)
    same(r, np.array([2, 3, 0.5, 4], F32))


def test_wrong_input_dtype_is_a_located_error():
    m = parse_module(ctx(), FUSED, "t.mlir")
    fused = next(op for op in m.walk() if op.name == "ge.FusedAscBackend")
    inner = next(op for op in fused.walk() if op.name == "ge.AscBackend")
    with pytest.raises(ReferenceEvalError, match="AscBackend input 0 is an array of shape 4 and dtype float64"):
        ascgraph_interp.run_asc_backend(ge_interpreter(), inner, [np.zeros(4)])


def test_unverified_view_past_the_buffer_is_a_located_error():
    # Not verified: the Load's offset leaves the 4-element input; the interpreter says where.
    text = FUSED.replace(
        "%a_l = ascgraph.Load(%a_d) {sched.axis = [0]}", "%a_l = ascgraph.Load(%a_d) {offset = 2, sched.axis = [0]}"
    )
    with pytest.raises(
        ReferenceEvalError,
        match=r"t.mlir:8:9: error: ascgraph.Load: view reaches element 5 from offset 2, but its buffer has 4 elements",
    ):
        run(text, np.zeros(4, F32), verify=False)


def test_empty_asc_backend_cannot_be_interpreted():
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.AscBackend(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  }
  ge.NetOutput %y : tensor<4xf32>
}"""
    with pytest.raises(
        ReferenceEvalError,
        match=r"t.mlir:3:3: error: ge.AscBackend: no AscGraph to interpret: AscBackend's region must hold exactly one ascgraph.graph, found nothing",
    ):
        run(text, np.zeros(4, F32), verify=False)


def test_ge_run_reference_evaluates_asc_backends(tmp_path):
    path = tmp_path / "fused.mlir"
    path.write_text(FUSED)
    x = np.array([-4, 9, -0.25, 16], F32)
    np.save(tmp_path / "x.npy", x)
    p = subprocess.run(
        [
            str(Path(sys.executable).parent / "ge-run"),
            "--reference",
            "--print-values",
            "--input",
            str(tmp_path / "x.npy"),
            str(path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr
    assert "[2. , 3. , 0.5, 4. ]" in p.stdout  # |-4|**0.5, 9**0.5, 0.25**0.5, 16**0.5


def test_node_count_and_contiguous_strides():
    assert ag.contiguous_strides([4, 1, 8]) == (8, 0, 1)
    assert ag.contiguous_strides([2, 3, 4]) == (12, 4, 1)
    assert ag.contiguous_strides([1]) == (0,)
    m = parse_module(ctx(), FUSED, "t.mlir")
    graphs = [op for op in m.walk() if isinstance(op, ag.AscGraphOp)]
    assert [ag.node_count(g) for g in graphs] == [5, 5]
    assert ag.fuse_type_bit("reduce") == 4 and ag.fuse_type_bit("concat") | ag.fuse_type_bit("split") == 24


# -- Gather (asc_overrides.h GatherLoad) --------------------------------------------------------


def _gather_module(neg: bool) -> str:
    p, i = T("f32", [0, 1], [3, 4]), T("i32", [0, 1], [2, 2])
    out = T("f32", [0, 1, 2], [3, 2, 2])
    attrs = "sched.axis = [0, 1, 2], axis = 1" + (", negative_index_support = true" if neg else "")
    return module(
        [((3, 4), "f32"), ((2, 2), "i32")],
        [((3, 2, 2), "f32")],
        [3, 2, 2],
        [
            f"%p = ascgraph.Data {{index = 0}} : {p}",
            f"%i = ascgraph.Data {{index = 1}} : {i}",
            f"%g = ascgraph.Gather(%p, %i) {{{attrs}}} : {out}",
            f"%a = ascgraph.Abs(%g) {sa(0, 1, 2)} : {out}",
            *store_out("%a", out, axes=(0, 1, 2)),
        ],
    )


def test_gather_takes_params_along_axis_at_indices():
    x = np.array([[0, -1, 2, -3], [10, -11, 12, -13], [20, -21, 22, -23]], F32)
    idx = np.array([[3, 0], [1, 1]], np.int32)
    (r,) = run(_gather_module(False), x, idx)
    # |x[a, idx[i, j]]|, written out by hand
    same(r, np.array([[[3, 0], [1, 1]], [[13, 10], [11, 11]], [[23, 20], [21, 21]]], F32))


def test_gather_out_of_range_and_negative_indices():
    x = np.arange(12, dtype=F32).reshape(3, 4)
    with pytest.raises(
        ReferenceEvalError, match=r"ascgraph.Gather: index 4 is out of range for a gathered dim of size 4"
    ):
        run(_gather_module(False), x, np.array([[4, 0], [0, 0]], np.int32))
    (r,) = run(_gather_module(True), x, np.array([[-1, 0], [-4, 3]], np.int32))
    same(r, np.array([[[3, 0], [0, 3]], [[7, 4], [4, 7]], [[11, 8], [8, 11]]], F32))
