"""Every ge op of the reference interpreter against an independent formula.

`FORMULAS` maps each op class the ge dialect defines (`ge.GE_NODE_OPS`) to the cases that
check it: a graph, its inputs and the outputs computed here, element by element in Python
(`math`, integer arithmetic, index loops), never by the reference's vectorised numpy nor by
calling the reference. The shapes include 0-d, size-1, odd (3x5, 2x3x5) and, where the op
allows them, size-0 tensors. An op added to the dialect without an entry here fails
`test_every_ge_op_has_a_formula`.

Floats: a formula computes in Python's double and rounds once to the output dtype; the
reference's own rounding may differ by a few units in the last place (`ulps` of a case)
for transcendental functions and by the accumulation error for sums (`tol` of a case).
Structural ops, integer ops and single IEEE operations (+ - * / sqrt) must be exact.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest

from ge_dialect import ge
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from runtime.interpreter import run_module

_CTX = GeOptMain([]).ctx
F32, F16, I32, I64 = np.float32, np.float16, np.int32, np.int64
ELEM = {
    np.dtype(F32): "f32",
    np.dtype(F16): "f16",
    np.dtype(I32): "i32",
    np.dtype(I64): "i64",
    np.dtype(bool): "i1",
    np.dtype(np.int8): "i8",
}


@dataclass
class Case:
    id: str
    text: str
    inputs: list[np.ndarray]
    want: list[np.ndarray]
    ulps: int = 0  # allowed distance in units of the last place (floats)
    tol: list[float] = field(default_factory=list)  # per-output absolute tolerance (accumulations)


def ty(shape: Sequence[int], elem: str) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{elem}>"


def tyd(shape: Sequence[int], dt: np.dtype | type) -> str:
    return ty(shape, ELEM[np.dtype(dt)])


def rng_array(shape: Sequence[int], dt: type, lo: float = -2.0, hi: float = 2.0, seed: int = 0) -> np.ndarray:
    r = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    if np.dtype(dt).kind == "f":
        return r.uniform(lo, hi, shape).astype(dt)
    if np.dtype(dt).kind == "b":
        return r.integers(0, 2, shape).astype(bool)
    return r.integers(int(lo), int(hi) + 1, shape).astype(dt)


def build(shape: Sequence[int], dt: type, fn: Callable[[tuple[int, ...]], object]) -> np.ndarray:
    """The array of `shape` whose element at idx is fn(idx) (a Python number), rounded once."""
    out = np.empty(tuple(shape), dtype=dt)
    for idx in itertools.product(*(range(d) for d in shape)):
        out[idx] = fn(idx)
    return out


def py(a: np.ndarray, idx: tuple[int, ...]) -> float | int | bool:
    v = a[idx]
    return bool(v) if a.dtype.kind == "b" else (int(v) if a.dtype.kind in "iu" else float(v))


def bcast_index(idx: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's broadcasting by hand: align on the right, size-1 dims read index 0."""
    tail = idx[len(idx) - len(shape) :] if shape else ()
    return tuple(0 if d == 1 else i for i, d in zip(tail, shape))


def bcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    rank = max(len(s) for s in shapes)
    out = []
    for k in range(rank):
        ds = {s[k - rank + len(s)] for s in shapes if k - rank + len(s) >= 0}
        ds.discard(1)
        out.append(ds.pop() if ds else 1)
    return tuple(out)


def flat(a: np.ndarray) -> list:
    """Row-major element list, by index loops."""
    return [py(a, idx) for idx in itertools.product(*(range(d) for d in a.shape))]


def graph(inputs: Sequence[tuple[Sequence[int], str]], body: str, outs: Sequence[tuple[str, str]]) -> str:
    lines = [f"  %x{i} = ge.Data {{index = {i}}} : {ty(s, e)}" for i, (s, e) in enumerate(inputs)]
    names = ", ".join(n for n, _ in outs)
    types = ", ".join(t for _, t in outs)
    return "ge.graph @main {\n" + "\n".join(lines) + "\n" + body + f"\n  ge.NetOutput {names} : {types}\n}}"


def one_op(
    op: str, ins: Sequence[np.ndarray], out_shapes: Sequence[Sequence[int]], out_dt: Sequence[type], attrs: str = ""
) -> str:
    in_t = [tyd(a.shape, a.dtype) for a in ins]
    out_t = [tyd(s, d) for s, d in zip(out_shapes, out_dt)]
    res = ", ".join(f"%y{k}" for k in range(len(out_t)))
    args = ", ".join(f"%x{i}" for i in range(len(ins)))
    rt = out_t[0] if len(out_t) == 1 else f"({', '.join(out_t)})"
    body = f"  {res} = ge.{op}({args}){attrs} : ({', '.join(in_t)}) -> {rt}"
    return graph([(a.shape, ELEM[a.dtype]) for a in ins], body, [(f"%y{k}", t) for k, t in enumerate(out_t)])


Formula = Callable[[str], Iterator[Case]]  # the op's GE type -> its cases
FORMULAS: dict[type, Formula] = {}


def formula(*classes: type) -> Callable[[Formula], Formula]:
    def reg(fn: Formula) -> Formula:
        for c in classes:
            assert c not in FORMULAS, c
            FORMULAS[c] = fn
        return fn

    return reg


# ---------------------------------------------------------------------------------------
# Graph interface and constants
# ---------------------------------------------------------------------------------------


@formula(ge.Data, ge.RefData, ge.NetOutput)
def _interface(op: str) -> Iterator[Case]:
    if op != "NetOutput":
        for shape in [(), (1,), (3, 5), (0, 2)]:
            x = rng_array(shape, F32)
            text = f"ge.graph @main {{\n  %a = ge.{op} {{index = 0}} : {tyd(shape, F32)}\n  ge.NetOutput %a, %a : {tyd(shape, F32)}, {tyd(shape, F32)}\n}}"
            want = build(shape, F32, lambda i, x=x: py(x, i))
            yield Case(f"{op}-{shape}", text, [x], [want, want])
        return
    # NetOutput: index order of the Data nodes, a value listed twice, a constant
    a, b = np.array([1, 2, 3], I32), np.array(2.5, F32)
    text = """ge.graph @main {
  %b = ge.Data {index = 1} : tensor<f32>
  %a = ge.Data {index = 0} : tensor<3xi32>
  %c = ge.Const {value = dense<[7]> : tensor<1xi64>} : tensor<1xi64>
  ge.NetOutput %b, %a, %c, %b : tensor<f32>, tensor<3xi32>, tensor<1xi64>, tensor<f32>
}"""
    yield Case(
        "NetOutput-order",
        text,
        [a, b],
        [np.array(2.5, F32), np.array([1, 2, 3], I32), np.array([7], I64), np.array(2.5, F32)],
    )


def _dense_literal(vals: list, shape: tuple[int, ...], kind: str) -> str:
    def fmt(v: object) -> str:
        if kind == "b":
            return "true" if v else "false"
        return repr(float(v)) if kind == "f" else str(int(v))  # type: ignore[arg-type]

    if not shape:
        return fmt(vals[0])

    def nest(vs: list, dims: tuple[int, ...]) -> str:
        if len(dims) == 1:
            return "[" + ", ".join(fmt(v) for v in vs) + "]"
        step = len(vs) // dims[0] if dims[0] else 0
        return "[" + ", ".join(nest(vs[k * step : (k + 1) * step], dims[1:]) for k in range(dims[0])) + "]"

    return nest(vals, shape)


@formula(ge.Const, ge.Constant, ge.Variable)
def _constants(op: str) -> Iterator[Case]:
    specs = [
        ((), F32, [1.5]),
        ((1,), F16, [-2.0]),
        ((2, 3), I32, [1, -2, 3, -4, 5, -6]),
        ((3,), np.bool_, [True, False, True]),
    ]
    for shape, dt, vals in specs:
        t = tyd(shape, dt)
        lit = _dense_literal(vals, shape, np.dtype(dt).kind)
        text = f"ge.graph @main {{\n  %c = ge.{op} {{value = dense<{lit}> : {t}}} : {t}\n  ge.NetOutput %c : {t}\n}}"
        it = iter(vals)
        yield Case(f"{op}-{shape}-{np.dtype(dt)}", text, [], [build(shape, dt, lambda i, it=it: next(it))])
    # a splat fills its shape
    text = f"ge.graph @main {{\n  %c = ge.{op} {{value = dense<3> : tensor<2x2xi32>}} : tensor<2x2xi32>\n  ge.NetOutput %c : tensor<2x2xi32>\n}}"
    yield Case(f"{op}-splat", text, [], [build((2, 2), I32, lambda i: 3)])
    for shape in [(), (3, 5)] if op == "Variable" else []:
        t = tyd(shape, F32)
        text = f"ge.graph @main {{\n  %v = ge.Variable : {t}\n  ge.NetOutput %v : {t}\n}}"
        yield Case(f"Variable-zeros-{shape}", text, [], [build(shape, F32, lambda i: 0.0)])


# ---------------------------------------------------------------------------------------
# Pointwise
# ---------------------------------------------------------------------------------------


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _wrap(v: int, dt: type) -> int:
    bits = np.dtype(dt).itemsize * 8
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


BINARY: dict[str, tuple[type, Callable[[object, object], object], tuple[type, ...], tuple[float, float], int]] = {
    # name: (class, formula, dtypes, input range, ulps)
    "Add": (ge.Add, lambda a, b: a + b, (F32, F16, I32), (-4, 4), 0),
    "Sub": (ge.Sub, lambda a, b: a - b, (F32, F16, I32), (-4, 4), 0),
    "Mul": (ge.Mul, lambda a, b: a * b, (F32, F16, I32), (-4, 4), 0),
    "RealDiv": (ge.RealDiv, lambda a, b: a / b, (F32, F16), (0.5, 4), 0),
    "Div": (ge.Div, lambda a, b: _trunc_div(a, b) if isinstance(a, int) else a / b, (I32, F32), (1, 9), 0),
    "Maximum": (ge.Maximum, lambda a, b: a if a >= b else b, (F32, F16, I32), (-4, 4), 0),
    "Minimum": (ge.Minimum, lambda a, b: a if a <= b else b, (F32, F16, I32), (-4, 4), 0),
    "Pow": (ge.Pow, lambda a, b: a**b if isinstance(a, int) else math.pow(a, b), (F32, F16, I32), (0, 3), 2),
}
BINARY_SHAPES = [
    ((), ()),
    ((1,), (3,)),
    ((3, 5), (5,)),
    ((2, 3, 5), (3, 1)),
    ((), (2, 3)),
    ((0, 3), (3,)),
    ((1, 1), (1,)),
]


def _binary_cases(name: str) -> Iterator[Case]:
    _, fn, dts, (lo, hi), ulps = BINARY[name]
    for dt in dts:
        for k, (sa, sb) in enumerate(BINARY_SHAPES):
            a = rng_array(sa, dt, lo, hi, seed=k)
            b = rng_array(sb, dt, lo, hi, seed=k + 100)
            if name == "Pow" and np.dtype(dt).kind == "f":
                a = rng_array(sa, dt, 0.25, 2.0, seed=k)  # positive bases: real results
            if name in ("Div", "RealDiv") and np.dtype(dt).kind in "iu":
                b = np.where(b == 0, 1, b).astype(dt)
            out = bcast_shape(sa, sb)

            def f(i: tuple[int, ...], a=a, b=b, dt=dt) -> object:
                r = fn(py(a, bcast_index(i, a.shape)), py(b, bcast_index(i, b.shape)))
                return _wrap(r, dt) if isinstance(r, int) else r  # type: ignore[arg-type]

            yield Case(
                f"{name}-{np.dtype(dt)}-{sa}-{sb}",
                one_op(name, [a, b], [out], [dt]),
                [a, b],
                [build(out, dt, f)],
                ulps=ulps,
            )


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= -700 else 0.0


UNARY: dict[str, tuple[type, Callable[[object], object], tuple[type, ...], tuple[float, float], int]] = {
    "Relu": (ge.Relu, lambda x: x if x > 0 else type(x)(0), (F32, F16, I32), (-3, 3), 0),
    "Abs": (ge.Abs, abs, (F32, F16, I32), (-3, 3), 0),
    "Neg": (ge.Neg, lambda x: -x, (F32, F16, I32), (-3, 3), 0),
    "Exp": (ge.Exp, math.exp, (F32, F16), (-3, 3), 2),
    "Log": (ge.Log, math.log, (F32, F16), (0.1, 5), 2),
    "Sqrt": (ge.Sqrt, math.sqrt, (F32, F16), (0, 5), 0),
    "Rsqrt": (ge.Rsqrt, lambda x: 1 / math.sqrt(x), (F32, F16), (0.1, 5), 2),
    "Sigmoid": (ge.Sigmoid, _sigmoid, (F32, F16), (-4, 4), 3),
    "Tanh": (ge.Tanh, math.tanh, (F32, F16), (-3, 3), 2),
    "Square": (ge.Square, lambda x: x * x, (F32, F16, I32), (-3, 3), 0),
    "Reciprocal": (ge.Reciprocal, lambda x: 1 / x, (F32, F16), (0.25, 4), 0),
    "Identity": (ge.Identity, lambda x: x, (F32, F16, I32, np.bool_), (-3, 3), 0),
    "Dropout": (ge.Dropout, lambda x: x, (F32, F16), (-3, 3), 0),
    "StopGradient": (ge.StopGradient, lambda x: x, (F32, I32), (-3, 3), 0),
    "PreventGradient": (ge.PreventGradient, lambda x: x, (F32, I32), (-3, 3), 0),
    "Snapshot": (ge.Snapshot, lambda x: x, (F32, F16, I32, np.bool_), (-3, 3), 0),
}
UNARY_SHAPES = [(), (1,), (3, 5), (2, 3, 5), (0,)]


def _unary_cases(name: str) -> Iterator[Case]:
    _, fn, dts, (lo, hi), ulps = UNARY[name]
    for dt in dts:
        for k, shape in enumerate(UNARY_SHAPES):
            x = rng_array(shape, dt, lo, hi, seed=k)
            want = build(shape, dt, lambda i, x=x: fn(py(x, i)))
            yield Case(f"{name}-{np.dtype(dt)}-{shape}", one_op(name, [x], [shape], [dt]), [x], [want], ulps=ulps)


for _name in BINARY:
    formula(BINARY[_name][0])(lambda op, _name=_name: _binary_cases(_name))
for _name in UNARY:
    formula(UNARY[_name][0])(lambda op, _name=_name: _unary_cases(_name))


@formula(ge.Cast)
def _cast(op: str) -> Iterator[Case]:
    convs: list[tuple[type, type, Callable[[object], object]]] = [
        (F32, I32, lambda v: math.trunc(v)),  # toward zero
        (F32, F16, lambda v: v),  # one rounding to the nearest f16
        (I32, F32, lambda v: float(v)),
        (I32, np.bool_, lambda v: v != 0),
        (np.bool_, F32, lambda v: 1.0 if v else 0.0),
        (F16, F32, lambda v: v),
    ]
    for src, dst, fn in convs:
        for shape in [(), (1,), (3, 5), (0, 2)]:
            x = rng_array(shape, src, -5, 5)
            want = build(shape, dst, lambda i, x=x, fn=fn: fn(py(x, i)))
            yield Case(
                f"Cast-{np.dtype(src)}-{np.dtype(dst)}-{shape}", one_op("Cast", [x], [shape], [dst]), [x], [want]
            )


@formula(ge.AddN)
def _add_n(op: str) -> Iterator[Case]:
    for dt in (F32, F16, I32):
        for shape in [(), (1,), (3, 5), (0, 4)]:
            xs = [rng_array(shape, dt, -4, 4, seed=s) for s in range(3)]

            def f(i: tuple[int, ...], xs=xs, dt=dt) -> object:
                acc = np.array(py(xs[0], i), dt)
                for x in xs[1:]:  # left to right, rounded to the dtype after each add
                    acc = np.array(py(acc, ()) + py(x, i), dt)
                return py(acc, ())

            yield Case(f"AddN-{np.dtype(dt)}-{shape}", one_op("AddN", xs, [shape], [dt]), xs, [build(shape, dt, f)])


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------


def _reduce_formula(
    kind: str, x: np.ndarray, axes: list[int], keep: bool
) -> tuple[tuple[int, ...], Callable[[tuple[int, ...]], object], float]:
    rank = x.ndim
    red = sorted({a + rank if a < 0 else a for a in axes}) if axes else list(range(rank))
    out_shape = tuple(1 if k in red else d for k, d in enumerate(x.shape) if keep or k not in red)
    kept = [k for k in range(rank) if k not in red]
    n = math.prod(x.shape[k] for k in red)
    is_int = x.dtype.kind in "iu"

    def f(oi: tuple[int, ...]) -> object:
        base = list(oi) if keep else None
        vals = []
        for ri in itertools.product(*(range(x.shape[k]) for k in red)):
            full = [0] * rank
            for k, v in zip(red, ri):
                full[k] = v
            for j, k in enumerate(kept):
                full[k] = base[k] if base is not None else oi[j]
            vals.append(py(x, tuple(full)))
        if kind == "sum":
            return sum(vals) if is_int else math.fsum(vals)
        if kind == "prod":
            return math.prod(vals)
        if kind == "max":
            return max(vals) if vals else (-math.inf if not is_int else int(np.iinfo(x.dtype).min))
        if kind == "min":
            return min(vals) if vals else (math.inf if not is_int else int(np.iinfo(x.dtype).max))
        s = sum(vals) if is_int else math.fsum(vals)
        return _trunc_div(s, n) if is_int else (s / n if n else math.nan)

    # the reference accumulates in float32 (f16/f32 inputs): its order's error bound
    tol = 0.0 if is_int or kind in ("max", "min") else 2 * n * 2.0**-24 * float(np.abs(x.astype(np.float64)).sum() + 1)
    if kind == "prod" and not is_int:
        tol = 4 * n * 2.0**-24 * float(np.prod(np.maximum(np.abs(x.astype(np.float64)), 1)))
    return out_shape, f, tol


@formula(ge.ReduceSumD, ge.ReduceMaxD, ge.ReduceMinD, ge.ReduceMeanD, ge.ReduceProdD)
def _reductions(op: str) -> Iterator[Case]:
    kinds = {
        "ReduceSumD": "sum",
        "ReduceMaxD": "max",
        "ReduceMinD": "min",
        "ReduceMeanD": "mean",
        "ReduceProdD": "prod",
    }
    specs = [
        ((), []),
        ((1,), [0]),
        ((3, 5), [1]),
        ((3, 5), [-2]),
        ((3, 5), []),
        ((2, 3, 5), [0, 2]),
        ((0, 3), [0]),
        ((2, 0), [1]),
    ]
    for name, kind in [(op, kinds[op])]:
        for dt in (F32, F16, I32):
            for shape, axes in specs:
                if kind == "mean" and dt is I32 and math.prod(shape[a] for a in (axes or range(len(shape)))) == 0:
                    continue  # an integer mean of nothing has no value (a located error)
                for keep in (False, True):
                    x = rng_array(shape, dt, -3, 3, seed=len(axes))
                    out_shape, f, tol = _reduce_formula(kind, x, axes, keep)
                    attrs = f" {{axes = [{', '.join(map(str, axes))}], keep_dims = {'true' if keep else 'false'}}}"
                    ulps = 1 if dt is F16 else 0
                    yield Case(
                        f"{name}-{np.dtype(dt)}-{shape}-{axes}-{keep}", one_op(name, [x], [out_shape], [dt], attrs), [x],
                        [build(out_shape, dt, f)], ulps=ulps, tol=[tol],
                    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# Concat, Pack, Split, PhonyConcat, PhonySplit
# ---------------------------------------------------------------------------------------


def _concat_formula(xs: list[np.ndarray], axis: int) -> tuple[tuple[int, ...], Callable[[tuple[int, ...]], object]]:
    vs = [x.reshape(1) if x.ndim == 0 else x for x in xs]  # GE's infer: a scalar is [1]
    sizes = [v.shape[axis] for v in vs]
    out = tuple(sum(sizes) if k == axis else d for k, d in enumerate(vs[0].shape))

    def f(i: tuple[int, ...]) -> object:
        pos = i[axis]
        for v, n in zip(vs, sizes):
            if pos < n:
                return py(v, i[:axis] + (pos,) + i[axis + 1 :])
            pos -= n
        raise AssertionError(i)

    return out, f


@formula(ge.ConcatD, ge.ConcatV2D)
def _concat(op: str) -> Iterator[Case]:
    specs = [
        ([(1,), (1,)], 0), ([(3, 5), (3, 2), (3, 1)], 1), ([(2, 3, 5), (1, 3, 5)], -3), ([(), (), ()], 0),
        ([(), (4,)], -1), ([(4,), ()], 0), ([(0, 3), (2, 3)], 0), ([(3, 5)], 1),
    ]  # fmt: skip
    for dt in (F32, I32):
        for shapes, dim in specs:
            xs = [rng_array(s, dt, seed=k) for k, s in enumerate(shapes)]
            rank = max(xs[0].ndim, 1)
            out, f = _concat_formula(xs, dim + rank if dim < 0 else dim)
            yield Case(
                f"{op}-{np.dtype(dt)}-{shapes}-{dim}",
                one_op(op, xs, [out], [dt], f" {{concat_dim = {dim}}}"),
                xs,
                [build(out, dt, f)],
            )
    # one scalar input is the output
    x = np.array(4.0, F32)
    yield Case(f"{op}-one-scalar", one_op(op, [x], [()], [F32]), [x], [np.array(4.0, F32)])


@formula(ge.Pack)
def _pack(op: str) -> Iterator[Case]:
    for shape, axis in [((), 0), ((1,), -1), ((3, 5), 1), ((3, 5), 2), ((2, 0), 0)]:
        xs = [rng_array(shape, F32, seed=k) for k in range(3)]
        a = axis + len(shape) + 1 if axis < 0 else axis
        out = shape[:a] + (3,) + shape[a:]
        want = build(out, F32, lambda i, xs=xs, a=a: py(xs[i[a]], i[:a] + i[a + 1 :]))
        yield Case(f"Pack-{shape}-{axis}", one_op("Pack", xs, [out], [F32], f" {{axis = {axis}}}"), xs, [want])


@formula(ge.SplitD, ge.SplitVD)
def _split(op: str) -> Iterator[Case]:
    specs = [("SplitD", (1,), 0, [1]), ("SplitD", (3, 6), 1, [2, 2, 2]), ("SplitD", (2, 3, 5), -3, [1, 1]), ("SplitD", (0, 4), 1, [2, 2]),
             ("SplitVD", (3, 5), 1, [2, -1, 0]), ("SplitVD", (7,), 0, [3, 4]), ("SplitVD", (2,), 0, [1, -1]), ("SplitVD", (2, 3, 5), 2, [5])]  # fmt: skip
    for kind, shape, dim, sizes in specs:
        if kind != op:
            continue
        x = rng_array(shape, F32)
        a = dim + len(shape) if dim < 0 else dim
        real = [shape[a] - sum(s for s in sizes if s >= 0) if s == -1 else s for s in sizes]
        outs, wants, off = [], [], 0
        for n in real:
            o = shape[:a] + (n,) + shape[a + 1 :]
            outs.append(o)
            wants.append(build(o, F32, lambda i, off=off, x=x, a=a: py(x, i[:a] + (i[a] + off,) + i[a + 1 :])))
            off += n
        attrs = f"split_dim = {dim}, num_split = {len(sizes)}"
        if op == "SplitVD":
            attrs += f", size_splits = [{', '.join(map(str, sizes))}]"
        yield Case(f"{op}-{shape}-{dim}-{sizes}", one_op(op, [x], outs, [F32] * len(outs), f" {{{attrs}}}"), [x], wants)


@formula(ge.PhonyConcat)
def _phony_concat(op: str) -> Iterator[Case]:
    # ge_local_ops_kernel_calc_op_param.cc: GetConcatOffset -- input k sits at slice
    # (k % N[0], (k // N[0]) % N[1], ...) along concat_dim[0], concat_dim[1], ...
    for piece, dims, ns in [((1,), [0], [2]), ((2, 3), [1, 0], [2, 2]), ((1, 2, 3), [2], [3]), ((0, 3), [0], [2])]:
        count = math.prod(ns)
        xs = [rng_array(piece, F32, seed=k) for k in range(count)]
        out = list(piece)
        for d, n in zip(dims, ns):
            out[d] *= n

        def f(i: tuple[int, ...], xs=xs, piece=piece, dims=dims, ns=ns) -> object:
            k, mult = 0, 1
            for d, n in zip(dims, ns):
                k += (i[d] // piece[d]) * mult
                mult *= n
            return py(xs[k], tuple(v % p for v, p in zip(i, piece)))

        attrs = f" {{concat_dim = [{', '.join(map(str, dims))}], N = [{', '.join(map(str, ns))}]}}"
        yield Case(
            f"PhonyConcat-{piece}-{dims}-{ns}",
            one_op("PhonyConcat", xs, [tuple(out)], [F32], attrs),
            xs,
            [build(tuple(out), F32, f)],
        )


@formula(ge.PhonySplit)
def _phony_split(op: str) -> Iterator[Case]:
    # GetSplitOffset -- output k's slice ids, the last listed axis fastest
    for shape, dims, ns in [((2,), [0], [2]), ((4, 6), [0, 1], [2, 3]), ((1, 2, 9), [2], [3]), ((0, 6), [1], [2])]:
        x = rng_array(shape, F32)
        piece = list(shape)
        for d, n in zip(dims, ns):
            piece[d] //= n
        wants = []
        for k in range(math.prod(ns)):
            slot, rest = {}, k
            for d, n in reversed(list(zip(dims, ns))):
                slot[d], rest = rest % n, rest // n
            wants.append(
                build(
                    tuple(piece),
                    F32,
                    lambda i, slot=slot, x=x, piece=piece: py(
                        x, tuple(v + slot.get(d, 0) * piece[d] for d, v in enumerate(i))
                    ),
                )
            )
        attrs = f" {{split_dim = [{', '.join(map(str, dims))}], num_split = [{', '.join(map(str, ns))}]}}"
        yield Case(
            f"PhonySplit-{shape}-{dims}-{ns}",
            one_op("PhonySplit", [x], [tuple(piece)] * len(wants), [F32] * len(wants), attrs),
            [x],
            wants,
        )


# ---------------------------------------------------------------------------------------
# The reshape family, Bitcast, TransposeD, BroadcastToD, Shape
# ---------------------------------------------------------------------------------------

RESHAPES = {
    "Reshape": (ge.Reshape, ""), "Flatten": (ge.Flatten, ""), "FlattenV2": (ge.FlattenV2, ""), "ReFormat": (ge.ReFormat, ""),
    "SqueezeV2": (ge.SqueezeV2, ""), "SqueezeV3": (ge.SqueezeV3, ""), "UnsqueezeV2": (ge.UnsqueezeV2, ""),
    "UnsqueezeV3": (ge.UnsqueezeV3, ""), "Squeeze": (ge.Squeeze, None), "Unsqueeze": (ge.Unsqueeze, None),
    "ExpandDims": (ge.ExpandDims, None),
}  # fmt: skip


def _row_major(x: np.ndarray, out: tuple[int, ...]) -> np.ndarray:
    vals = flat(x)
    strides = [math.prod(out[k + 1 :]) for k in range(len(out))]
    return build(out, x.dtype.type, lambda i: vals[sum(a * s for a, s in zip(i, strides))])


def _reshape_cases(name: str) -> Iterator[Case]:
    if name == "Squeeze":
        specs = [((1,), (), " {axis = [0]}"), ((3, 1, 5), (3, 5), " {axis = [1]}"), ((1, 1), (), "")]
    elif name == "Unsqueeze":
        specs = [((), (1,), " {axes = [0]}"), ((3, 5), (3, 1, 5, 1), " {axes = [1, -1]}")]
    elif name == "ExpandDims":
        specs = [((), (1,), " {axis = 0}"), ((3, 5), (3, 5, 1), " {axis = -1}")]
    else:
        specs = [
            ((), (1, 1), ""),
            ((1, 1), (), ""),
            ((3, 5), (5, 3), ""),
            ((2, 3, 5), (6, 5), ""),
            ((0, 3), (3, 0), ""),
        ]
    for src, dst, attrs in specs:
        x = rng_array(src, F32)
        yield Case(f"{name}-{src}-{dst}", one_op(name, [x], [dst], [F32], attrs), [x], [_row_major(x, dst)])
    # V3 with its axes input (issue 28: axes computed in the graph, folded to a Const)
    with_axes = {
        "SqueezeV3": [((3, 1, 5), [1], (3, 5)), ((1, 4, 1), [-1], (1, 4))],
        "UnsqueezeV3": [((3, 5), [0, 3], (1, 3, 5, 1)), ((), [0], (1,))],
    }
    for src, axes, dst in with_axes.get(name, []):
        x = rng_array(src, F32)
        text = op_with_consts(name, [x], [np.array(axes, I64)], [dst], [F32])
        yield Case(f"{name}-{src}-axes{axes}", text, [x], [_row_major(x, dst)])


for _name, (_cls, _) in RESHAPES.items():
    formula(_cls)(lambda op, _name=_name: _reshape_cases(_name))


@formula(ge.Bitcast)
def _bitcast(op: str) -> Iterator[Case]:
    for shape in [(), (1,), (3, 5)]:
        x = rng_array(shape, F32)
        want = build(shape, I32, lambda i, x=x: struct.unpack("<i", struct.pack("<f", py(x, i)))[0])
        yield Case(f"Bitcast-{shape}", one_op("Bitcast", [x], [shape], [I32]), [x], [want])


@formula(ge.TransposeD)
def _transpose(op: str) -> Iterator[Case]:
    for shape, perm in [((), []), ((1,), [0]), ((3, 5), [1, 0]), ((2, 3, 5), [2, 0, 1]), ((0, 3), [1, 0])]:
        x = rng_array(shape, F32)
        out = tuple(shape[p] for p in perm)

        def f(i: tuple[int, ...], x=x, perm=perm) -> object:
            src = [0] * len(perm)
            for k, p in enumerate(perm):
                src[p] = i[k]  # output dim k is input dim perm[k]
            return py(x, tuple(src))

        yield Case(
            f"TransposeD-{shape}-{perm}",
            one_op("TransposeD", [x], [out], [F32], f" {{perm = [{', '.join(map(str, perm))}]}}"),
            [x],
            [build(out, F32, f)],
        )


@formula(ge.BroadcastToD)
def _broadcast_to(op: str) -> Iterator[Case]:
    for src, dst in [((), (3, 2)), ((1,), (4,)), ((3, 1), (2, 3, 5)), ((), ()), ((1, 5), (0, 5))]:
        x = rng_array(src, F32)
        want = build(dst, F32, lambda i, x=x: py(x, bcast_index(i, x.shape)))
        yield Case(
            f"BroadcastToD-{src}-{dst}",
            one_op("BroadcastToD", [x], [dst], [F32], f" {{shape = [{', '.join(map(str, dst))}]}}"),
            [x],
            [want],
        )


@formula(ge.Shape)
def _shape(op: str) -> Iterator[Case]:
    for shape, dt in [((), I32), ((1,), I64), ((3, 5), I32), ((2, 0, 7), I64)]:
        x = rng_array(shape, F32)
        want = build((len(shape),), dt, lambda i, shape=shape: shape[i[0]])
        yield Case(f"Shape-{shape}", one_op("Shape", [x], [(len(shape),)], [dt]), [x], [want])


@formula(ge.Size, ge.Rank)
def _size_rank(op: str) -> Iterator[Case]:
    for shape, dt in [((), I32), ((1,), I64), ((3, 5), I32), ((2, 0, 7), I64)]:
        x = rng_array(shape, F32)
        v = math.prod(shape) if op == "Size" else len(shape)
        want = build((), dt, lambda i, v=v: v)
        yield Case(f"{op}-{shape}", one_op(op, [x], [()], [dt]), [x], [want])


@formula(ge.Fill)
def _fill(op: str) -> Iterator[Case]:
    for dims, dt in [((2, 3), F32), ((0, 4), I32), ((5,), F16)]:
        d = np.array(dims, dtype=I64)
        v = np.array(1.25 if dt != I32 else 7, dtype=dt)
        want = build(dims, dt, lambda i, v=v: py(v, ()))
        yield Case(f"Fill-{dims}-{np.dtype(dt)}", one_op("Fill", [d, v], [dims], [dt]), [d, v], [want])


@formula(ge.Range)
def _range(op: str) -> Iterator[Case]:
    for start, limit, delta, dt in [(1, 10, 3, I32), (2.0, -1.0, -0.5, F32), (0, 0, 1, I64)]:
        n = max(0, math.ceil((limit - start) / delta))
        ins = [np.array(v, dtype=dt) for v in (start, limit, delta)]
        want = build((n,), dt, lambda i, s=start, d=delta: s + i[0] * d)
        yield Case(f"Range-{start}-{limit}-{delta}", one_op("Range", ins, [(n,)], [dt]), ins, [want])


# ---------------------------------------------------------------------------------------
# Gather, GatherV2
# ---------------------------------------------------------------------------------------


def _gather_formula(
    x: np.ndarray, idx: np.ndarray, axis: int, b: int
) -> tuple[tuple[int, ...], Callable[[tuple[int, ...]], object]]:
    out = x.shape[:axis] + idx.shape[b:] + x.shape[axis + 1 :]
    ni = idx.ndim - b

    def f(i: tuple[int, ...]) -> object:
        lead, mid, tail = i[:axis], i[axis : axis + ni], i[axis + ni :]
        k = py(idx, lead[:b] + mid)
        k = k + x.shape[axis] if k < 0 else k
        return py(x, lead + (k,) + tail)

    return out, f


@formula(ge.Gather, ge.GatherV2)
def _gather(op: str) -> Iterator[Case]:
    # (x shape, indices, axis, batch_dims)
    specs = [
        ((5,), np.array(3, I32), 0, 0), ((1,), np.array([0, 0], I64), 0, 0), ((3, 5), np.array([[4, 0], [2, 2]], I32), 1, 0),
        ((3, 5), np.array([2, 0, 1], I32), 0, 0), ((2, 3, 5), np.array(1, I64), -2, 0), ((3, 4), np.array([3, 0, 2], I32), 1, 1),
        ((3, 5), np.zeros(0, I32), 1, 0), ((4,), np.array([-1, -4], I32), 0, 0),
    ]  # fmt: skip
    for k, (shape, idx, axis, b) in enumerate(specs):
        if op == "Gather" and (axis != 0 or b):
            continue
        x = rng_array(shape, F32, seed=k)
        a = axis + len(shape) if axis < 0 else axis
        out, f = _gather_formula(x, idx, a, b)
        neg = bool((idx < 0).any())
        attrs = []
        if b:
            attrs.append(f"batch_dims = {b}")
        if neg:
            attrs.append("negative_index_support = true")
        at = f" {{{', '.join(attrs)}}}" if attrs else ""
        ti, tx, to = tyd(idx.shape, idx.dtype), tyd(shape, F32), tyd(out, F32)
        if op == "Gather":
            body = f"  %y = ge.Gather(%x0, %x1){at} : ({tx}, {ti}) -> {to}"
        else:
            body = (
                f"  %a = ge.Const {{value = dense<{axis}> : tensor<i32>}} : tensor<i32>\n"
                f"  %y = ge.GatherV2(%x0, %x1, %a){at} : ({tx}, {ti}, tensor<i32>) -> {to}"
            )
        text = graph([(shape, "f32"), (idx.shape, ELEM[idx.dtype])], body, [("%y", to)])
        yield Case(f"{op}-{shape}-{idx.shape}-{axis}-{b}", text, [x, idx], [build(out, F32, f)])


# ---------------------------------------------------------------------------------------
# MatMul, Conv2D, HcomAllGather
# ---------------------------------------------------------------------------------------


@formula(ge.MatMul)
def _matmul(op: str) -> Iterator[Case]:
    for (m, k, n), t1, t2, bias, dt in [
        ((1, 1, 1), False, False, False, F32), ((3, 5, 2), False, False, True, F32), ((3, 5, 2), True, True, False, F32),
        ((2, 3, 4), False, True, True, F16), ((2, 0, 3), False, False, False, F32),
    ]:  # fmt: skip
        a = rng_array((k, m) if t1 else (m, k), dt, seed=1)
        b = rng_array((n, k) if t2 else (k, n), dt, seed=2)
        ins = [a, b] + ([rng_array((n,), dt, seed=3)] if bias else [])

        def f(i: tuple[int, ...], a=a, b=b, ins=ins, t1=t1, t2=t2, k=k) -> object:
            s = math.fsum(
                py(a, (j, i[0]) if t1 else (i[0], j)) * py(b, (i[1], j) if t2 else (j, i[1])) for j in range(k)
            )
            return s + (py(ins[2], (i[1],)) if len(ins) == 3 else 0.0)

        attrs = f" {{transpose_x1 = {'true' if t1 else 'false'}, transpose_x2 = {'true' if t2 else 'false'}}}"
        tol = 2 * (k + 1) * 2.0**-24 * (k + 1) * 16
        yield Case(
            f"MatMul-{m}x{k}x{n}-{t1}-{t2}-{bias}-{np.dtype(dt)}",
            one_op("MatMul", ins, [(m, n)], [dt], attrs),
            ins,
            [build((m, n), dt, f)],
            ulps=1,
            tol=[tol],
        )


@formula(ge.Conv2D)
def _conv2d(op: str) -> Iterator[Case]:
    # (x NCHW, filter KCkhkw, strides, pads [t, b, l, r], dilations, groups, bias)
    specs = [
        ((1, 1, 1, 1), (1, 1, 1, 1), 1, [0, 0, 0, 0], 1, 1, False),
        ((1, 2, 5, 3), (3, 2, 2, 2), 1, [1, 0, 0, 1], 1, 1, True),
        ((2, 4, 5, 5), (2, 2, 3, 3), 2, [1, 1, 1, 1], 1, 2, False),
        ((1, 1, 7, 5), (1, 1, 2, 2), 1, [0, 0, 0, 0], 2, 1, True),
        ((0, 2, 5, 5), (3, 2, 3, 3), 1, [0, 0, 0, 0], 1, 1, False),
    ]
    for xs, ws, st, pads, dil, g, bias in specs:
        x, w = rng_array(xs, F32, seed=4), rng_array(ws, F32, seed=5)
        n, c, h, wd = xs
        kk, cg, kh, kw = ws
        oh = (h + pads[0] + pads[1] - dil * (kh - 1) - 1) // st + 1
        ow = (wd + pads[2] + pads[3] - dil * (kw - 1) - 1) // st + 1
        ins = [x, w] + ([rng_array((kk,), F32, seed=6)] if bias else [])

        def f(
            i: tuple[int, ...],
            x=x,
            w=w,
            ins=ins,
            st=st,
            pads=pads,
            dil=dil,
            g=g,
            kk=kk,
            cg=cg,
            kh=kh,
            kw=kw,
            h=h,
            wd=wd,
        ) -> object:
            b_, o, y, z = i
            grp = o // (kk // g)
            terms = []
            for ci in range(cg):
                for p in range(kh):
                    for q in range(kw):
                        yy, zz = y * st + p * dil - pads[0], z * st + q * dil - pads[2]
                        if 0 <= yy < h and 0 <= zz < wd:
                            terms.append(py(x, (b_, grp * cg + ci, yy, zz)) * py(w, (o, ci, p, q)))
            return math.fsum(terms) + (py(ins[2], (o,)) if len(ins) == 3 else 0.0)

        attrs = (
            f" {{strides = [1, 1, {st}, {st}], pads = [{', '.join(map(str, pads))}], "
            f"dilations = [1, 1, {dil}, {dil}], groups = {g}}}"
        )
        tol = 2 * (cg * kh * kw + 1) * 2.0**-24 * 4 * cg * kh * kw
        yield Case(
            f"Conv2D-{xs}-{ws}-{st}-{pads}-{dil}-{g}",
            one_op("Conv2D", ins, [(n, kk, oh, ow)], [F32], attrs),
            ins,
            [build((n, kk, oh, ow), F32, f)],
            tol=[tol],
        )


@formula(ge.HcomAllGather)
def _all_gather(op: str) -> Iterator[Case]:
    for shape, r in [((1,), 1), ((3, 5), 2), ((2, 0), 3)]:
        x = rng_array(shape, F32)
        out = (shape[0] * r,) + shape[1:]
        want = build(out, F32, lambda i, x=x, shape=shape: py(x, (i[0] % shape[0],) + i[1:]))
        yield Case(
            f"HcomAllGather-{shape}-{r}",
            one_op("HcomAllGather", [x], [out], [F32], f" {{rank_size = {r}}}"),
            [x],
            [want],
        )


# ---------------------------------------------------------------------------------------
# Calls and fused kernels
# ---------------------------------------------------------------------------------------


@formula(ge.PartitionedCall)
def _call(op: str) -> Iterator[Case]:
    for shape in [(), (1,), (3, 5)]:
        t = tyd(shape, F32)
        text = f"""ge.graph @sub {{
  %q = ge.Data {{index = 1}} : {t}
  %p = ge.Data {{index = 0}} : {t}
  %d = ge.Sub(%p, %q) : ({t}, {t}) -> {t}
  ge.NetOutput %d, %p : {t}, {t}
}}
ge.graph @main {{
  %a = ge.Data {{index = 0}} : {t}
  %b = ge.Data {{index = 1}} : {t}
  %r, %s = ge.PartitionedCall(%a, %b) {{f = @sub}} : ({t}, {t}) -> ({t}, {t})
  ge.NetOutput %r, %s : {t}, {t}
}}"""
        a, b = rng_array(shape, F32, seed=1), rng_array(shape, F32, seed=2)
        yield Case(
            f"PartitionedCall-{shape}",
            text,
            [a, b],
            [build(shape, F32, lambda i, a=a, b=b: py(a, i) - py(b, i)), build(shape, F32, lambda i, a=a: py(a, i))],
        )


def _asc_tensor(axes: Sequence[int], reps: Sequence[int], strides: Sequence[int]) -> str:
    j = lambda v: ", ".join(map(str, v))  # noqa: E731
    strides = [0 if r == 1 else s for r, s in zip(reps, strides)]  # the verifier's rule
    return f"!ascgraph.tensor<f32, axis = [{j(axes)}], repeats = [{j(reps)}], strides = [{j(strides)}]>"


def _asc_backend(m: int, n: int, name: str = "k") -> str:
    """out[i, j] = exp(x^T[i, j] + y[j]) for x of shape n x m, y of shape n: a transposed
    Load (strides [1, m]), a broadcast Load (repeat 1, stride 0), Add, Exp, Store."""
    full = _asc_tensor([0, 1], [m, n], [n, 1])
    return f"""ge.AscBackend(%a, %b) : (tensor<{n}x{m}xf32>, tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
    ascgraph.graph @{name} axis = [0: z0 = {m}, 1: z1 = {n}] {{
      %dx = ascgraph.Data {{index = 0}} : {_asc_tensor([0, 1], [m, n], [1, m])}
      %dy = ascgraph.Data {{index = 1}} : {_asc_tensor([0, 1], [1, n], [0, 1])}
      %lx = ascgraph.Load(%dx) {{sched.axis = [0, 1]}} : {full}
      %ly = ascgraph.Load(%dy) {{sched.axis = [0, 1]}} : {_asc_tensor([0, 1], [1, n], [0, 1])}
      %by = ascgraph.Broadcast(%ly) {{sched.axis = [0, 1]}} : {full}
      %s = ascgraph.Add(%lx, %by) {{sched.axis = [0, 1]}} : {full}
      %e = ascgraph.Exp(%s) {{sched.axis = [0, 1]}} : {full}
      %st = ascgraph.Store(%e) {{sched.axis = [0, 1]}} : {full}
      %out = ascgraph.Output(%st) {{index = 0}} : {full}
    }}
  }}"""


def _asc_want(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    n, m = x.shape
    return build((m, n), F32, lambda i: math.exp(py(x, (i[1], i[0])) + py(y, (i[1],))))


@formula(ge.AscBackend)
def _asc(op: str) -> Iterator[Case]:
    for m, n in [(1, 1), (3, 5), (2, 7)]:
        text = f"""ge.graph @main {{
  %a = ge.Data {{index = 0}} : tensor<{n}x{m}xf32>
  %b = ge.Data {{index = 1}} : tensor<{n}xf32>
  %o = {_asc_backend(m, n)}
  ge.NetOutput %o : tensor<{m}x{n}xf32>
}}"""
        x, y = rng_array((n, m), F32, seed=1), rng_array((n,), F32, seed=2)
        yield Case(f"AscBackend-{m}x{n}", text, [x, y], [_asc_want(x, y)], ulps=2)


@formula(ge.FusedAscBackend)
def _fused(op: str) -> Iterator[Case]:
    for m, n in [(1, 1), (3, 5)]:
        text = f"""ge.graph @main {{
  %p = ge.Data {{index = 0}} : tensor<{n}x{m}xf32>
  %q = ge.Data {{index = 1}} : tensor<{n}xf32>
  %f = ge.FusedAscBackend(%p, %q) : (tensor<{n}x{m}xf32>, tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
    %b = ge.Data {{index = 1}} : tensor<{n}xf32>
    %a = ge.Data {{index = 0}} : tensor<{n}x{m}xf32>
    %o = {_asc_backend(m, n, "inner")}
    ge.NetOutput %o : tensor<{m}x{n}xf32>
  }}
  ge.NetOutput %f : tensor<{m}x{n}xf32>
}}"""
        x, y = rng_array((n, m), F32, seed=3), rng_array((n,), F32, seed=4)
        yield Case(f"FusedAscBackend-{m}x{n}", text, [x, y], [_asc_want(x, y)], ulps=2)


# ---------------------------------------------------------------------------------------
# Activations, rounding, comparisons, logic, selection, softmax, LayerNorm
# (ge_dialect/ge.py, the activation section)
# ---------------------------------------------------------------------------------------

_SELU_A, _SELU_S = 1.67326324235, 1.05070098736  # selu_plugin.cc


def _softplus_py(x: float) -> float:
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def _round_even(x):  # noqa: ANN001, ANN202
    return x if isinstance(x, int) else float(round(x))  # Python's round: halves to even


# name: (class, formula, dtypes, input range, attributes, ulps, absolute tolerance by dtype)
ACT: dict[str, tuple[type, Callable[[object], object], tuple[type, ...], tuple[float, float], str, int, dict]] = {
    "Erf": (ge.Erf, math.erf, (F32, F16), (-3, 3), "", 1, {}),
    "Gelu": (ge.Gelu, lambda x: 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
             (F32, F16), (-4, 4), "", 8, {F16: 4e-3, F32: 1e-6}),
    "HardSwish": (ge.HardSwish, lambda x: x * min(max(x + 3, 0.0), 6.0) / 6, (F32, F16), (-5, 5), "", 4,
                  {F16: 4e-3, F32: 1e-6}),
    "HardSigmoid": (ge.HardSigmoid, lambda x: max(0.0, min(1.0, 0.25 * x + 0.375)), (F32, F16), (-5, 5),
                    " {alpha = 0.25 : f32, beta = 0.375 : f32}", 2, {}),
    "LeakyRelu": (ge.LeakyRelu, lambda x: x if x >= 0 else 0.125 * x, (F32, F16), (-3, 3),
                  " {negative_slope = 0.125 : f32}", 0, {}),
    "Relu6": (ge.Relu6, lambda x: min(max(x, type(x)(0)), type(x)(6)), (F32, F16, I32), (-8, 8), "", 0, {}),
    "Elu": (ge.Elu, lambda x: x if x > 0 else 0.5 * (math.exp(x) - 1), (F32, F16), (-3, 3), " {alpha = 0.5 : f32}", 4,
            {F16: 2e-3, F32: 1e-7}),
    "Selu": (ge.Selu, lambda x: _SELU_S * (x if x > 0 else _SELU_A * (math.exp(x) - 1)), (F32, F16), (-3, 3), "", 4,
             {F16: 4e-3, F32: 4e-7}),
    "Celu": (ge.Celu, lambda x: max(0.0, x) + min(0.0, 2.0 * (math.exp(x / 2.0) - 1)), (F32, F16), (-3, 3),
             " {alpha1 = 2.0 : f32, alpha2 = 2.0 : f32}", 4, {F16: 4e-3, F32: 4e-7}),
    "Softplus": (ge.Softplus, _softplus_py, (F32, F16), (-4, 4), "", 4, {F16: 2e-3, F32: 1e-7}),
    "Softsign": (ge.Softsign, lambda x: x / (1 + abs(x)), (F32, F16), (-4, 4), "", 2, {}),
    "Mish": (ge.Mish, lambda x: x * math.tanh(_softplus_py(x)), (F32, F16), (-4, 4), "", 8, {F16: 4e-3, F32: 1e-6}),
    "Floor": (ge.Floor, lambda x: float(math.floor(x)), (F32, F16), (-4, 4), "", 0, {}),
    "Ceil": (ge.Ceil, lambda x: float(math.ceil(x)), (F32, F16), (-4, 4), "", 0, {}),
    "Round": (ge.Round, _round_even, (F32, F16, I32), (-4, 4), "", 0, {}),
    "Sign": (ge.Sign, lambda x: type(x)((x > 0) - (x < 0)), (F32, F16, I32), (-3, 3), "", 0, {}),
    "Sin": (ge.Sin, math.sin, (F32, F16), (-4, 4), "", 1, {}),
    "Cos": (ge.Cos, math.cos, (F32, F16), (-4, 4), "", 1, {}),
    "Acos": (ge.Acos, math.acos, (F32, F16), (-0.95, 0.95), "", 2, {}),
    "Acosh": (ge.Acosh, math.acosh, (F32, F16), (1.05, 4), "", 2, {}),
    "Asin": (ge.Asin, math.asin, (F32, F16), (-0.95, 0.95), "", 2, {}),
    "Asinh": (ge.Asinh, math.asinh, (F32, F16), (-3, 3), "", 2, {}),
    "Atan": (ge.Atan, math.atan, (F32, F16), (-4, 4), "", 2, {}),
    "Atanh": (ge.Atanh, math.atanh, (F32, F16), (-0.95, 0.95), "", 2, {}),
    "Cosh": (ge.Cosh, math.cosh, (F32, F16), (-3, 3), "", 2, {}),
    "Sinh": (ge.Sinh, math.sinh, (F32, F16), (-3, 3), "", 2, {}),
    "Tan": (ge.Tan, math.tan, (F32, F16), (-1.3, 1.3), "", 2, {}),
}  # fmt: skip


def _act_cases(name: str) -> Iterator[Case]:
    _, fn, dts, (lo, hi), attrs, ulps, tols = ACT[name]
    for dt in dts:
        for k, shape in enumerate(UNARY_SHAPES):
            x = rng_array(shape, dt, lo, hi, seed=k)
            if name == "Round" and np.dtype(dt).kind == "f" and x.size:
                x.flat[0] = 2.5  # a tie: to even
            want = build(shape, dt, lambda i, x=x: fn(py(x, i)))
            text = one_op(name, [x], [shape], [dt], attrs)
            tol = [tols.get(dt, 0.0)]
            yield Case(f"{name}-{np.dtype(dt)}-{shape}", text, [x], [want], ulps=ulps, tol=tol)


for _name in ACT:
    formula(ACT[_name][0])(lambda op, _name=_name: _act_cases(_name))


@formula(ge.IsNan, ge.IsInf)
def _is_special(op: str) -> Iterator[Case]:
    test = math.isnan if op == "IsNan" else math.isinf
    for dt in (F32, F16):
        for k, shape in enumerate(UNARY_SHAPES):
            x = rng_array(shape, dt, seed=k)
            specials = [math.nan, math.inf, -math.inf, 0.0]
            for j in range(0, x.size, 2):
                x.flat[j] = specials[(j // 2) % 4]
            want = build(shape, np.bool_, lambda i, x=x: test(py(x, i)))
            yield Case(f"{op}-{np.dtype(dt)}-{shape}", one_op(op, [x], [shape], [np.bool_]), [x], [want])


COMPARE: dict[type, Callable[[object, object], bool]] = {
    ge.Equal: lambda a, b: a == b, ge.NotEqual: lambda a, b: a != b, ge.Less: lambda a, b: a < b,
    ge.LessEqual: lambda a, b: a <= b, ge.Greater: lambda a, b: a > b, ge.GreaterEqual: lambda a, b: a >= b,
}  # fmt: skip


def _binary_bool_cases(op: str, fn: Callable[[object, object], object], dts: Sequence[type], out_dt=None):  # noqa: ANN001, ANN202
    for dt in dts:
        for k, (sa, sb) in enumerate(BINARY_SHAPES):
            a = rng_array(sa, dt, -2, 2, seed=k)
            b = rng_array(sb, dt, -2, 2, seed=k + 100)
            if np.dtype(dt).kind == "f":  # on a grid of halves: equal elements occur
                a, b = (np.asarray(np.round(v * 2) / 2).astype(dt) for v in (a, b))
            out = bcast_shape(sa, sb)
            odt = out_dt or dt

            def f(i: tuple[int, ...], a=a, b=b) -> object:
                return fn(py(a, bcast_index(i, a.shape)), py(b, bcast_index(i, b.shape)))

            yield Case(f"{op}-{np.dtype(dt)}-{sa}-{sb}", one_op(op, [a, b], [out], [odt]), [a, b], [build(out, odt, f)])


for _cls, _fn in COMPARE.items():
    formula(_cls)(lambda op, _fn=_fn: _binary_bool_cases(op, _fn, (F32, F16, I32), np.bool_))
formula(ge.LogicalAnd)(lambda op: _binary_bool_cases(op, lambda a, b: a and b, (np.bool_,)))
formula(ge.LogicalOr)(lambda op: _binary_bool_cases(op, lambda a, b: a or b, (np.bool_,)))


@formula(ge.LogicalNot)
def _logical_not(op: str) -> Iterator[Case]:
    for k, shape in enumerate(UNARY_SHAPES):
        x = rng_array(shape, np.bool_, seed=k)
        yield Case(
            f"{op}-{shape}",
            one_op(op, [x], [shape], [np.bool_]),
            [x],
            [build(shape, np.bool_, lambda i, x=x: not py(x, i))],
        )


def _trunc_mod(a, b):  # noqa: ANN001, ANN202
    return a - _trunc_div(a, b) * b if isinstance(a, int) else math.fmod(a, b)


def _floor_mod(a, b):  # noqa: ANN001, ANN202
    return a % b  # Python's % is floored (the sign of b), for ints and floats


@formula(ge.Mod, ge.FloorMod)
def _mod(op: str) -> Iterator[Case]:
    fn = _trunc_mod if op == "Mod" else _floor_mod
    for dt in (I32, F32, F16):
        for k, (sa, sb) in enumerate(BINARY_SHAPES):
            a = rng_array(sa, dt, -9, 9, seed=k)
            b = rng_array(sb, dt, -4, 4, seed=k + 100)
            b = np.where(np.abs(b) < 1, 3, b).astype(dt)
            if np.dtype(dt).kind == "f":
                a, b = (np.asarray(np.round(v)).astype(dt) for v in (a, b))  # whole numbers: exact remainders
            out = bcast_shape(sa, sb)

            def f(i: tuple[int, ...], a=a, b=b) -> object:
                return fn(py(a, bcast_index(i, a.shape)), py(b, bcast_index(i, b.shape)))

            yield Case(f"{op}-{np.dtype(dt)}-{sa}-{sb}", one_op(op, [a, b], [out], [dt]), [a, b], [build(out, dt, f)])


@formula(ge.SelectV2, ge.ClipByValue)
def _three_inputs(op: str) -> Iterator[Case]:
    shapes = [((), (), ()), ((3, 5), (5,), (3, 1)), ((2, 1, 5), (3, 5), ()), ((0, 3), (3,), (1, 3))]
    for dt in (F32, F16, I32):
        for k, (s0, s1, s2) in enumerate(shapes):
            if op == "SelectV2":
                ins = [rng_array(s0, np.bool_, seed=k), rng_array(s1, dt, seed=k + 1), rng_array(s2, dt, seed=k + 2)]
                out = bcast_shape(s0, s1, s2)

                def f(i: tuple[int, ...], c=ins[0], a=ins[1], b=ins[2]) -> object:
                    return (
                        py(a, bcast_index(i, a.shape))
                        if py(c, bcast_index(i, c.shape))
                        else py(b, bcast_index(i, b.shape))
                    )

            else:
                out = s0 if k != 2 else (2, 3, 5)  # the bounds broadcast to x's shape
                x = rng_array(out, dt, -4, 4, seed=k)
                ins = [
                    x,
                    rng_array(s1 if k != 2 else (3, 5), dt, -2, 0, seed=k + 1),
                    rng_array(s2, dt, 0, 2, seed=k + 2),
                ]
                if k == 1:  # a lower bound above the upper one: the lower one wins (Maximum last)
                    ins[1] = np.full((5,), 3, dt)

                def f(i: tuple[int, ...], x=ins[0], lo=ins[1], hi=ins[2]) -> object:
                    v = py(x, i)
                    h_ = py(hi, bcast_index(i, hi.shape))
                    lo_ = py(lo, bcast_index(i, lo.shape))
                    v = v if v <= h_ else h_
                    return v if v >= lo_ else lo_

            yield Case(f"{op}-{np.dtype(dt)}-{k}", one_op(op, ins, [out], [dt]), ins, [build(out, dt, f)])


@formula(ge.SoftmaxV2, ge.LogSoftmaxV2)
def _softmax(op: str) -> Iterator[Case]:
    specs = [((), [-1]), ((1,), [0]), ((3, 5), [-1]), ((2, 3, 5), [0, 2]), ((0, 3), [1])]
    for dt in (F32, F16):
        for k, (shape, axes) in enumerate(specs):
            x = rng_array(shape, dt, -3, 3, seed=k)
            rank = max(len(shape), 1)
            ax = {a % rank for a in axes} if shape else set()

            def f(i: tuple[int, ...], x=x, ax=ax) -> float:
                group = [
                    py(x, tuple(j[ax_list.index(d)] if d in ax else i[d] for d in range(len(i))))
                    for ax_list in [sorted(ax)]
                    for j in itertools.product(*(range(x.shape[d]) for d in sorted(ax)))
                ]
                if not x.shape:
                    group = [py(x, ())]
                m = max(group)
                s = sum(math.exp(v - m) for v in group)
                v = py(x, i) - m
                return math.exp(v) / s if op == "SoftmaxV2" else v - math.log(s)

            text = one_op(op, [x], [shape], [dt], f" {{axes = [{', '.join(map(str, axes))}]}}")
            # computed in float32 (f16 accumulated in float32), rounded once
            yield Case(f"{op}-{np.dtype(dt)}-{shape}-{axes}", text, [x], [build(shape, dt, f)], ulps=4, tol=[1e-6])


@formula(ge.LayerNorm)
def _layer_norm(op: str) -> Iterator[Case]:
    for dt in (F32, F16):
        for k, (shape, axis) in enumerate([((1, 3), 1), ((3, 5), 1), ((2, 3, 5), 1), ((2, 3, 5), -1), ((0, 4), 1)]):
            n = axis % len(shape)
            pshape, stat = shape[n:], tuple(1 if d >= n else s for d, s in enumerate(shape))
            x, g, b = rng_array(shape, dt, seed=k), rng_array(pshape, dt, seed=k + 1), rng_array(pshape, dt, seed=k + 2)

            def group(i: tuple[int, ...], x=x, n=n) -> list[float]:
                return [py(x, i[:n] + j) for j in itertools.product(*(range(d) for d in x.shape[n:]))]

            def mean(i: tuple[int, ...]) -> float:
                vs = group(i)
                return sum(vs) / len(vs)

            def var(i: tuple[int, ...]) -> float:
                vs, m = group(i), mean(i)
                return sum((v - m) ** 2 for v in vs) / len(vs)

            def y(i: tuple[int, ...], x=x, g=g, b=b, n=n) -> float:
                j = i[n:]
                return (py(x, i) - mean(i)) / math.sqrt(var(i) + 1e-3) * py(g, j) + py(b, j)

            body = (
                f"  %y:3 = ge.LayerNorm(%x0, %x1, %x2) {{begin_norm_axis = {axis}, begin_params_axis = {axis}, "
                f"epsilon = 1.0e-03 : f32}} : ({tyd(shape, dt)}, {tyd(pshape, dt)}, {tyd(pshape, dt)}) -> "
                f"({tyd(shape, dt)}, {tyd(stat, dt)}, {tyd(stat, dt)})"
            )
            text = graph(
                [(shape, ELEM[np.dtype(dt)]), (pshape, ELEM[np.dtype(dt)]), (pshape, ELEM[np.dtype(dt)])],
                body,
                [("%y#0", tyd(shape, dt)), ("%y#1", tyd(stat, dt)), ("%y#2", tyd(stat, dt))],
            )
            want = [build(shape, dt, y), build(stat, dt, mean), build(stat, dt, var)]
            # float32 accumulation of a few terms: a few float32 roundings, then one to dt
            yield Case(f"{op}-{np.dtype(dt)}-{shape}-{axis}", text, [x, g, b], want, ulps=2, tol=[2e-6] * 3)


# ---------------------------------------------------------------------------------------
# BatchNorm, pooling, PadV3, StridedSliceV2, Tile, BatchMatMulV2, ArgMaxV2, ArgMin,
# GatherElements, Tril, Triu, ResizeNearestNeighborV2, ResizeBilinearV2, Conv2DTranspose
# ---------------------------------------------------------------------------------------


def op_with_consts(
    op: str,
    ins: Sequence[np.ndarray],
    consts: Sequence[np.ndarray],
    out_shapes: Sequence[Sequence[int]],
    out_dt: Sequence[type],
    attrs: str = "",
) -> str:
    """One `op` on Data inputs `ins` then ge.Const inputs `consts` (index lists)."""
    lines = []
    for k, c in enumerate(consts):
        t = tyd(c.shape, c.dtype)
        lines.append(
            f"  %c{k} = ge.Const {{value = dense<{_dense_literal(flat(c), c.shape, c.dtype.kind)}> : {t}}} : {t}"
        )
    in_t = [tyd(a.shape, a.dtype) for a in [*ins, *consts]]
    out_t = [tyd(s, d) for s, d in zip(out_shapes, out_dt)]
    res = ", ".join(f"%y{k}" for k in range(len(out_t)))
    args = ", ".join([f"%x{i}" for i in range(len(ins))] + [f"%c{k}" for k in range(len(consts))])
    rt = out_t[0] if len(out_t) == 1 else f"({', '.join(out_t)})"
    body = "\n".join(lines) + f"\n  {res} = ge.{op}({args}){attrs} : ({', '.join(in_t)}) -> {rt}"
    return graph([(a.shape, ELEM[a.dtype]) for a in ins], body, [(f"%y{k}", t) for k, t in enumerate(out_t)])


@formula(ge.BatchNorm)
def _batch_norm(op: str) -> Iterator[Case]:
    for shape, dt, eps in [((1, 1, 1, 1), F32, 1e-3), ((2, 3, 5, 3), F32, 1e-5), ((1, 3, 3, 1), F16, 1e-3)]:
        c = shape[1]
        x = rng_array(shape, dt, seed=1)
        scale, offset, mean = (rng_array((c,), F32, seed=s) for s in (2, 3, 4))
        var = rng_array((c,), F32, 0.25, 2.0, seed=5)
        e32 = float(np.float32(eps))

        def f(i: tuple[int, ...], x=x, scale=scale, offset=offset, mean=mean, var=var, e32=e32) -> object:
            ch = (i[1],)
            return py(scale, ch) * (py(x, i) - py(mean, ch)) / math.sqrt(py(var, ch) + e32) + py(offset, ch)

        ins = [x, scale, offset, mean, var]
        attrs = f' {{epsilon = {eps:.6e} : f32, data_format = "NCHW", is_training = false}}'
        outs = [shape, (c,), (c,), (c,), (c,), (1,)]
        want = [build(shape, dt, f), mean, var, mean, var, np.zeros((1,), F32)]
        # float32 arithmetic: x - mean rounds at the scale of |x| + |mean|, then * / + each once
        mag = float(np.max(np.abs(scale)) * (np.max(np.abs(x)) + np.max(np.abs(mean))) / math.sqrt(np.min(var)))
        yield Case(
            f"BatchNorm-{shape}-{np.dtype(dt)}",
            one_op(op, ins, outs, [dt, F32, F32, F32, F32, F32], attrs),
            ins,
            want,
            ulps=2,
            tol=[8 * 2.0**-24 * (mag + float(np.max(np.abs(offset))))],
        )


def _pool_out(d: int, k: int, s: int, p0: int, p1: int, mode: str, ceil: bool) -> tuple[int, int]:
    """(output size, begin pad) as nn_pooling_ops.h's output formulas state them."""
    if mode == "SAME":
        out = (d + s - 1) // s
        return out, max(0, (out - 1) * s + k - d) // 2
    if mode == "VALID":
        return (d + s - k) // s, 0
    if ceil:
        out = (d + p0 + p1 - k + s - 1) // s + 1
        return (out - 1 if (out - 1) * s >= d + p0 else out), p0
    return (d + p0 + p1 - k) // s + 1, p0


@formula(ge.MaxPoolV3, ge.AvgPoolV2, ge.MaxPool, ge.AvgPool)
def _pools(op: str) -> Iterator[Case]:
    v3 = op in ("MaxPoolV3", "AvgPoolV2")
    is_max = op.startswith("Max")
    # (x, k, s, pads [t, b, l, r], mode, ceil, exclusive, divisor_override, global)
    specs = [
        ((1, 1, 1, 1), (1, 1), (1, 1), [0, 0, 0, 0], "VALID", False, True, 0, False),
        ((2, 3, 5, 7), (3, 2), (2, 1), [0, 0, 0, 0], "SAME", False, True, 0, False),
        ((1, 2, 7, 5), (3, 3), (2, 2), [0, 0, 0, 0], "VALID", False, True, 0, False),
    ]
    if v3:
        specs += [
            ((1, 2, 7, 8), (3, 3), (2, 2), [1, 1, 0, 1], "CALCULATED", False, True, 0, False),
            ((1, 1, 7, 8), (3, 3), (2, 2), [1, 1, 1, 1], "CALCULATED", True, False, 0, False),
            ((2, 1, 6, 5), (2, 3), (2, 2), [1, 0, 1, 1], "CALCULATED", True, True, 0, False),
            ((1, 2, 3, 5), (1, 1), (1, 1), [0, 0, 0, 0], "CALCULATED", False, True, 0, True),
            ((0, 2, 5, 5), (3, 3), (1, 1), [1, 1, 1, 1], "CALCULATED", False, True, 0, False),
        ]
        if not is_max:
            specs.append(((1, 1, 5, 5), (3, 3), (2, 2), [1, 1, 1, 1], "CALCULATED", False, True, 7, False))
    for dt in (F32, F16):
        for xs, (kh, kw), (sh, sw), pads, mode, ceil, excl, override, glob in specs:
            if dt == F16 and xs[0] == 0:
                continue
            x = rng_array(xs, dt, seed=7)
            n, c, h, w = xs
            if glob:
                (oh, pt), (ow, pl), kh, kw = (1, 0), (1, 0), h, w
            else:
                oh, pt = _pool_out(h, kh, sh, pads[0], pads[1], mode, ceil)
                ow, pl = _pool_out(w, kw, sw, pads[2], pads[3], mode, ceil)
            pb = pads[1] if mode == "CALCULATED" and not glob else 0
            pr = pads[3] if mode == "CALCULATED" and not glob else 0

            def f(i, x=x, kh=kh, kw=kw, sh=sh, sw=sw, pt=pt, pl=pl, pb=pb, pr=pr, h=h, w=w, excl=excl, ov=override):
                b_, ch, oi, oj = i
                vals = []
                padded = 0
                for p in range(kh):
                    for q in range(kw):
                        yy, zz = oi * sh - pt + p, oj * sw - pl + q
                        if -pt <= yy < h + pb and -pl <= zz < w + pr:
                            padded += 1
                        if 0 <= yy < h and 0 <= zz < w:
                            vals.append(py(x, (b_, ch, yy, zz)))
                if is_max:
                    return max(vals)
                return math.fsum(vals) / (ov if ov else len(vals) if excl else padded)

            if v3:
                attrs = (
                    f" {{ksize = [1, 1, {kh if not glob else 1}, {kw if not glob else 1}], strides = [1, 1, {sh}, {sw}],"
                    f' padding_mode = "{mode}", pads = [{", ".join(map(str, pads))}], ceil_mode = {str(ceil).lower()},'
                    f" global_pooling = {str(glob).lower()}"
                    + ("" if is_max else f", exclusive = {str(excl).lower()}, divisor_override = {override}")
                    + ', data_format = "NCHW"}'
                )
            else:
                attrs = f' {{ksize = [1, 1, {kh}, {kw}], strides = [1, 1, {sh}, {sw}], padding = "{mode}", data_format = "NCHW"}}'
            yield Case(
                f"{op}-{xs}-{kh}x{kw}-{mode}-{ceil}-{excl}-{override}-{glob}-{np.dtype(dt)}",
                one_op(op, [x], [(n, c, oh, ow)], [dt], attrs),
                [x],
                [build((n, c, oh, ow), dt, f)],
                ulps=2,
                tol=[4 * kh * kw * 2.0**-24 * 2.0],
            )


@formula(ge.PadV3)
def _pad_v3(op: str) -> Iterator[Case]:
    # (x shape, dtype, paddings as ONNX orders them [b..., e...], mode, constant value)
    specs = [
        ((1,), F32, [2, 1], "constant", 1.5),
        ((3, 5), F32, [1, -1, 0, 2], "constant", None),
        ((2, 3, 5), I32, [0, 1, 2, 1, 0, -2], "constant", 7),
        ((3, 5), F32, [2, 1, 1, 4], "reflect", None),
        ((3, 5), F16, [0, 2, 2, 3], "edge", None),
        ((4, 3), F32, [-1, 2, 1, 0], "edge", None),
        ((0, 3), F32, [1, 0, 0, 1], "constant", 2.0),
    ]
    for shape, dt, pads, mode, value in specs:
        x = rng_array(shape, dt, seed=3)
        r = len(shape)
        pairs = [(pads[i], pads[r + i]) for i in range(r)]
        out = tuple(d + b + e for d, (b, e) in zip(shape, pairs))
        cval = 0 if value is None else value

        def f(i, x=x, pairs=pairs, shape=shape, mode=mode, cval=cval):
            src = []
            for t, d, (b, e) in zip(i, shape, pairs):
                lo, hi = max(0, -b), d - max(0, -e)
                s = t - b
                if mode == "edge":
                    s = min(max(s, lo), hi - 1)
                elif mode == "reflect":
                    s = 2 * lo - s if s < lo else (2 * (hi - 1) - s if s > hi - 1 else s)
                elif not lo <= s < hi:
                    return cval
                src.append(s)
            return py(x, tuple(src))

        ins = [x] + ([np.array([value], dtype=dt)] if value is not None else [])
        consts = [np.array(pads, dtype=I64)]
        attrs = f' {{mode = "{mode}", paddings_contiguous = false}}'
        # the Data inputs first, then the paddings Const: input order x, paddings, value
        text = op_with_consts(op, ins[:1], consts, [out], [dt], attrs)
        if value is not None:
            vt = tyd((1,), dt)
            text = text.replace("%x0, %c0)", "%x0, %c0, %x1)").replace(
                f"{tyd(shape, dt)}, {tyd((2 * r,), I64)})", f"{tyd(shape, dt)}, {tyd((2 * r,), I64)}, {vt})"
            )
            text = text.replace("\n  %c0 =", f"\n  %x1 = ge.Data {{index = 1}} : {vt}\n  %c0 =", 1)
        yield Case(f"PadV3-{shape}-{pads}-{mode}-{np.dtype(dt)}", text, ins, [build(out, dt, f)])


@formula(ge.StridedSliceV2)
def _strided_slice_v2(op: str) -> Iterator[Case]:
    # (x shape, begin, end, axes, strides): ONNX Slice's semantics
    specs = [
        ((1,), [0], [1], None, None),
        ((3, 5), [1], [100], None, None),
        ((3, 5), [-1, 4], [-100, 0], [0, 1], [-1, -2]),
        ((2, 3, 5), [0, 1], [2**62, -1], [2, -2], [2, 1]),
        ((4, 3), [3], [1], [0], [1]),
        ((5,), [4], [-7], [0], [-3]),
    ]
    for shape, begin, end, axes, steps in specs:
        x = rng_array(shape, F32, seed=2)
        n = len(begin)
        ax = [a % len(shape) for a in (axes if axes is not None else list(range(n)))]
        st = steps if steps is not None else [1] * n
        picks = [list(range(d)) for d in shape]
        for b, e, a, s in zip(begin, end, ax, st):
            d = shape[a]
            b, e = (b + d if b < 0 else b), (e + d if e < 0 else e)
            if s > 0:
                b, e = min(max(b, 0), d), min(max(e, 0), d)
            else:
                b, e = min(max(b, 0), d - 1), min(max(e, -1), d - 1)
            picks[a] = []
            t = b
            while (s > 0 and t < e) or (s < 0 and t > e):
                picks[a].append(t)
                t += s
        out = tuple(len(p) for p in picks)
        consts = [np.array(begin, I64), np.array(end, I64)]
        if axes is not None or steps is not None:
            consts.append(np.array(axes if axes is not None else list(range(n)), I64))
        if steps is not None:
            consts.append(np.array(steps, I64))
        yield Case(
            f"StridedSliceV2-{shape}-{begin}-{end}-{axes}-{steps}",
            op_with_consts(op, [x], consts, [out], [F32]),
            [x],
            [build(out, F32, lambda i, x=x, picks=picks: py(x, tuple(p[k] for p, k in zip(picks, i))))],
        )


@formula(ge.Tile)
def _tile(op: str) -> Iterator[Case]:
    for shape, reps, dt in [((1,), [3], F32), ((3, 5), [2, 1], F32), ((2, 3), [0, 2], I64), ((), [], F16)]:
        x = rng_array(shape, dt, seed=4)
        out = tuple(d * k for d, k in zip(shape, reps))
        yield Case(
            f"Tile-{shape}-{reps}-{np.dtype(dt)}",
            op_with_consts(op, [x], [np.array(reps, I64)], [out], [dt]),
            [x],
            [build(out, dt, lambda i, x=x, shape=shape: py(x, tuple(k % d for k, d in zip(i, shape))))],
        )


# -- the input forms of issue 28: Expand, ReduceXxx with an axes input, SplitV, and
# SqueezeV3 / UnsqueezeV3 with an axes input (their values as Consts, or Data read at run time)


@formula(ge.Expand)
def _expand(op: str) -> Iterator[Case]:
    # ONNX's Expand: both ways (a 1 in shape keeps x's dim)
    for src, shape, dt in [((3, 1), [2, 1, 4], F32), ((1,), [5], I64), ((2, 3), [1, 1], F16), ((4, 1), [4, 0], F32)]:
        x = rng_array(src, dt, seed=2)
        out = bcast_shape(src, tuple(shape))
        want = build(out, dt, lambda i, x=x: py(x, bcast_index(i, x.shape)))
        yield Case(f"Expand-{src}-{shape}", op_with_consts(op, [x], [np.array(shape, I64)], [out], [dt]), [x], [want])
    # the shape read at run time (a Data): the output type says the shape
    x, sh = rng_array((3, 1), F32, seed=3), np.array([3, 2], I64)
    want = build((3, 2), F32, lambda i, x=x: py(x, (i[0], 0)))
    yield Case("Expand-data-shape", one_op(op, [x, sh], [(3, 2)], [F32]), [x, sh], [want])


@formula(ge.ReduceSum, ge.ReduceMax, ge.ReduceMin, ge.ReduceMean, ge.ReduceProd)
def _reductions_axes_input(op: str) -> Iterator[Case]:
    kind = {"ReduceSum": "sum", "ReduceMax": "max", "ReduceMin": "min", "ReduceMean": "mean", "ReduceProd": "prod"}[op]
    for dt in (F32, I32):
        for shape, axes in [((3, 5), [1]), ((2, 3, 5), [0, -1]), ((3, 5), [])]:
            for keep in (False, True):
                x = rng_array(shape, dt, -3, 3, seed=len(axes))
                out_shape, f, tol = _reduce_formula(kind, x, axes, keep)
                attrs = f" {{keep_dims = {'true' if keep else 'false'}}}"
                yield Case(
                    f"{op}-{np.dtype(dt)}-{shape}-{axes}-{keep}",
                    op_with_consts(op, [x], [np.array(axes, I64)], [out_shape], [dt], attrs),
                    [x], [build(out_shape, dt, f)], tol=[tol],
                )  # fmt: skip
    # empty axes with noop_with_empty_axes: the output is x
    x = rng_array((2, 3), F32, seed=5)
    yield Case(
        f"{op}-noop",
        op_with_consts(op, [x], [np.zeros(0, I64)], [(2, 3)], [F32], " {noop_with_empty_axes = true}"),
        [x], [build((2, 3), F32, lambda i, x=x: py(x, i))],
    )  # fmt: skip


@formula(ge.SplitV)
def _split_v(op: str) -> Iterator[Case]:
    for shape, dim, sizes in [((3, 5), 1, [2, -1, 0]), ((7,), 0, [3, 4]), ((2, 3, 5), -1, [5]), ((2,), 0, [1, -1])]:
        x = rng_array(shape, F32)
        a = dim + len(shape) if dim < 0 else dim
        real = [shape[a] - sum(s for s in sizes if s >= 0) if s == -1 else s for s in sizes]
        outs, wants, off = [], [], 0
        for n in real:
            o = shape[:a] + (n,) + shape[a + 1 :]
            outs.append(o)
            wants.append(build(o, F32, lambda i, off=off, x=x, a=a: py(x, i[:a] + (i[a] + off,) + i[a + 1 :])))
            off += n
        consts = [np.array(sizes, I64), np.array(dim, I32)]
        text = op_with_consts(op, [x], consts, outs, [F32] * len(outs), f" {{num_split = {len(sizes)}}}")
        yield Case(f"SplitV-{shape}-{dim}-{sizes}", text, [x], wants)


@formula(ge.BatchMatMulV2)
def _batch_matmul_v2(op: str) -> Iterator[Case]:
    # (x1 shape, x2 shape, adj_x1, adj_x2, bias, dtype)
    specs = [
        ((1, 1), (1, 1), False, False, False, F32),
        ((2, 3, 5), (5, 4), False, False, True, F32),
        ((2, 1, 5, 3), (3, 5, 2), True, False, False, F32),
        ((3, 2, 4), (1, 3, 4), False, True, False, F16),
        ((0, 3, 2), (2, 3), False, False, False, F32),
    ]
    for sa, sb, t1, t2, bias, dt in specs:
        a, b = rng_array(sa, dt, seed=1), rng_array(sb, dt, seed=2)
        m = sa[-1] if t1 else sa[-2]
        k = sa[-2] if t1 else sa[-1]
        n = sb[-2] if t2 else sb[-1]
        batch = bcast_shape(sa[:-2], sb[:-2])
        out = (*batch, m, n)
        ins = [a, b] + ([rng_array((n,), dt, seed=3)] if bias else [])

        def f(i, a=a, b=b, ins=ins, t1=t1, t2=t2, k=k, sa=sa, sb=sb):
            bi = i[:-2]
            ia, ib = bcast_index(bi, sa[:-2]), bcast_index(bi, sb[:-2])
            s = math.fsum(
                py(a, (*ia, *((j, i[-2]) if t1 else (i[-2], j)))) * py(b, (*ib, *((i[-1], j) if t2 else (j, i[-1]))))
                for j in range(k)
            )
            return s + (py(ins[2], (i[-1],)) if len(ins) == 3 else 0.0)

        attrs = f" {{adj_x1 = {str(t1).lower()}, adj_x2 = {str(t2).lower()}}}"
        yield Case(
            f"BatchMatMulV2-{sa}-{sb}-{t1}-{t2}-{bias}-{np.dtype(dt)}",
            one_op(op, ins, [out], [dt], attrs),
            ins,
            [build(out, dt, f)],
            ulps=1,
            tol=[2 * (k + 1) * 2.0**-24 * (k + 1) * 16],
        )


@formula(ge.ArgMaxV2, ge.ArgMin)
def _arg(op: str) -> Iterator[Case]:
    better = (lambda a, b: a > b) if op == "ArgMaxV2" else (lambda a, b: a < b)
    for shape, axis, dt, out_dt in [((1,), 0, F32, I64), ((3, 5), 1, F32, I32), ((2, 3, 5), -3, I32, I64),
                                    ((3, 5), 0, F16, I64)]:  # fmt: skip
        x = rng_array(shape, dt, -3, 3, seed=5)
        if dt == I32:
            x[0, 0, 0] = x[1, 0, 0]  # a tie: the first index wins
        a = axis % len(shape)
        out = shape[:a] + shape[a + 1 :]

        def f(i, x=x, a=a, n=shape[a]) -> object:
            best = 0
            for k in range(1, n):
                if better(py(x, (*i[:a], k, *i[a:])), py(x, (*i[:a], best, *i[a:]))):
                    best = k
            return best

        dcode = 3 if out_dt == I32 else 9
        yield Case(
            f"{op}-{shape}-{axis}-{np.dtype(dt)}-{np.dtype(out_dt)}",
            op_with_consts(op, [x], [np.array(axis, I32)], [out], [out_dt], f" {{dtype = {dcode}}}"),
            [x],
            [build(out, out_dt, f)],
        )


@formula(ge.GatherElements)
def _gather_elements(op: str) -> Iterator[Case]:
    for xs, ids, dim, dt in [((1,), (1,), 0, F32), ((3, 5), (3, 2), 1, F32), ((4, 3, 2), (2, 3, 1), 0, I64),
                             ((3, 3), (0, 3), 0, F16)]:  # fmt: skip
        x = rng_array(xs, dt, seed=6)
        r = np.random.default_rng(len(xs) + sum(ids))
        idx = r.integers(0, xs[dim], ids).astype(I64)

        def f(i, x=x, idx=idx, dim=dim) -> object:
            j = list(i)
            j[dim] = int(idx[i])
            return py(x, tuple(j))

        yield Case(
            f"GatherElements-{xs}-{ids}-{dim}-{np.dtype(dt)}",
            one_op(op, [x, idx], [ids], [dt], f" {{dim = {dim}}}"),
            [x, idx],
            [build(ids, dt, f)],
        )


@formula(ge.Tril, ge.Triu)
def _tri(op: str) -> Iterator[Case]:
    for shape, k, dt in [
        ((1, 1), 0, F32),
        ((3, 5), 1, F32),
        ((2, 5, 3), -1, I32),
        ((3, 3), 0, F16),
        ((0, 4, 3), 2, F32),
    ]:
        x = rng_array(shape, dt, seed=8)

        def f(i, x=x, k=k) -> object:
            keep = i[-1] - i[-2] >= k if op == "Triu" else i[-1] - i[-2] <= k
            return py(x, i) if keep else 0

        yield Case(
            f"{op}-{shape}-{k}-{np.dtype(dt)}",
            one_op(op, [x], [shape], [dt], f" {{diagonal = {k}}}"),
            [x],
            [build(shape, dt, f)],
        )


@formula(ge.ResizeNearestNeighborV2, ge.ResizeBilinearV2)
def _resize(op: str) -> Iterator[Case]:
    # TensorFlow's resize arithmetic (image_ops.h), one element at a time in float32 scalars
    f32 = np.float32
    for xs, (oh, ow), align, half, dt in [
        ((1, 1, 1, 1), (1, 1), False, False, F32),
        ((1, 2, 4, 5), (8, 3), False, False, F32),
        ((2, 1, 5, 3), (3, 7), True, False, F32),
        ((1, 2, 4, 5), (7, 11), False, True, F32),
        ((1, 1, 3, 3), (5, 1), False, True, F16),
    ]:
        x = rng_array(xs, dt, seed=9)
        h, w = xs[2], xs[3]

        def scale(n_in: int, n_out: int, align=align) -> np.float32:
            return f32(n_in - 1) / f32(n_out - 1) if align and n_out > 1 else f32(n_in) / f32(n_out)

        def nearest(o: int, n_in: int, n_out: int, align=align, half=half) -> int:
            c = (f32(o) + f32(0.5)) * scale(n_in, n_out) if half else f32(o) * scale(n_in, n_out)
            i = math.floor(c + f32(0.5)) if align else math.floor(c)
            return min(max(int(i), 0), n_in - 1)

        def linear(o: int, n_in: int, n_out: int, half=half) -> tuple[int, int, np.float32]:
            c = (f32(o) + f32(0.5)) * scale(n_in, n_out) - f32(0.5) if half else f32(o) * scale(n_in, n_out)
            return max(math.floor(c), 0), min(math.ceil(c), n_in - 1), f32(c - f32(math.floor(c)))

        def f(i, x=x, h=h, w=w, oh=oh, ow=ow) -> object:
            n, c, p, q = i
            if op == "ResizeNearestNeighborV2":
                return py(x, (n, c, nearest(p, h, oh), nearest(q, w, ow)))
            y0, y1, ly = linear(p, h, oh)
            x0, x1, lx = linear(q, w, ow)
            v = [[f32(py(x, (n, c, yy, xx))) for xx in (x0, x1)] for yy in (y0, y1)]
            top = v[0][0] + (v[0][1] - v[0][0]) * lx
            bottom = v[1][0] + (v[1][1] - v[1][0]) * lx
            return float(top + (bottom - top) * ly)

        attrs = f" {{align_corners = {str(align).lower()}, half_pixel_centers = {str(half).lower()}}}"
        out = (xs[0], xs[1], oh, ow)
        yield Case(
            f"{op}-{xs}-{oh}x{ow}-{align}-{half}-{np.dtype(dt)}",
            op_with_consts(op, [x], [np.array([oh, ow], I32)], [out], [dt], attrs),
            [x],
            [build(out, dt, f)],
            ulps=1,
        )


@formula(ge.Resize)
def _resize_onnx(op: str) -> Iterator[Case]:
    # ONNX's Resize (GE's Resize op takes ONNX's attributes), one element at a time from the
    # ONNX operator text, in float32 scalars: x_original of each output index by the
    # coordinate mode (length_resized = in * scale), nearest by nearest_mode then clamped,
    # linear on the coordinate clamped to [0, in - 1]; an axis of scale 1 keeps its index
    f32 = np.float32

    def coordinate(mode: str, o: int, n: int, m: int, s: np.float32) -> np.float32:
        if n == m and s == 1:
            return f32(o)
        length = f32(n) * s
        if mode == "half_pixel":
            return (f32(o) + f32(0.5)) / s - f32(0.5)
        if mode == "pytorch_half_pixel":
            return (f32(o) + f32(0.5)) / s - f32(0.5) if length > 1 else f32(0)
        if mode == "align_corners":
            return f32(o) * f32(n - 1) / (length - f32(1)) if length > 1 else f32(0)
        if mode == "asymmetric":
            return f32(o) / s
        if mode == "half_pixel_symmetric":
            adjustment = f32(m) / length
            return f32(n / 2) * (f32(1) - adjustment) + (f32(o) + f32(0.5)) / s - f32(0.5)
        assert mode == "tf_half_pixel_for_nn"
        return (f32(o) + f32(0.5)) / s

    def rounded(nm: str, c: np.float32) -> int:
        if nm == "floor":
            return math.floor(c)
        if nm == "ceil":
            return math.ceil(c)
        frac = c - math.floor(c)
        if frac == 0.5:
            return math.floor(c) if nm == "round_prefer_floor" else math.ceil(c)
        return math.floor(c + f32(0.5))

    specs = [
        # x shape, sizes (or None: scales), scales [h, w], mode, coordinate mode, nearest_mode, dtype
        ((1, 1, 1, 1), (1, 1), None, "nearest", "half_pixel", "round_prefer_floor", F32),
        ((1, 1, 1, 1), (3, 2), None, "linear", "half_pixel", "round_prefer_floor", F32),
        ((1, 2, 4, 5), (8, 10), None, "nearest", "asymmetric", "round_prefer_floor", F32),
        ((1, 2, 4, 5), (8, 10), None, "nearest", "asymmetric", "round_prefer_ceil", F32),
        ((1, 1, 4, 5), (8, 10), None, "nearest", "half_pixel", "ceil", F32),
        ((2, 1, 5, 3), (3, 7), None, "nearest", "align_corners", "floor", I32),
        ((1, 1, 4, 4), (1, 4), None, "nearest", "pytorch_half_pixel", "round_prefer_floor", F16),
        ((1, 2, 4, 5), None, (1.5, 0.6), "linear", "half_pixel", "round_prefer_floor", F32),
        ((1, 1, 4, 5), None, (1.5, 0.6), "linear", "half_pixel_symmetric", "round_prefer_floor", F32),
        ((1, 1, 4, 5), (7, 1), None, "linear", "align_corners", "round_prefer_floor", F32),
        ((1, 1, 3, 3), None, (2.0, 1.0), "linear", "tf_half_pixel_for_nn", "round_prefer_floor", F16),
    ]
    for xs, sizes, scales, mode, coord, nm, dt in specs:
        x = rng_array(xs, dt, seed=11)
        h, w = xs[2], xs[3]
        if sizes is not None:
            oh, ow = sizes
            sh, sw = f32(f32(oh) / f32(h)), f32(f32(ow) / f32(w))
        else:
            sh, sw = f32(scales[0]), f32(scales[1])
            oh, ow = math.floor(h * float(sh)), math.floor(w * float(sw))

        def nearest(o: int, n: int, m: int, s: np.float32, coord=coord, nm=nm) -> int:
            return min(max(rounded(nm, coordinate(coord, o, n, m, s)), 0), n - 1)

        def linear(o: int, n: int, m: int, s: np.float32, coord=coord) -> tuple[int, int, np.float32]:
            c = f32(min(max(coordinate(coord, o, n, m, s), f32(0)), f32(n - 1)))
            lo = math.floor(c)
            return lo, min(lo + 1, n - 1), f32(c - f32(lo))

        def f(i, x=x, h=h, w=w, oh=oh, ow=ow, sh=sh, sw=sw, mode=mode, nearest=nearest, linear=linear) -> object:
            n, c, p, q = i
            if mode == "nearest":
                return py(x, (n, c, nearest(p, h, oh, sh), nearest(q, w, ow, sw)))
            y0, y1, ly = linear(p, h, oh, sh)
            x0, x1, lx = linear(q, w, ow, sw)
            v = [[f32(py(x, (n, c, yy, xx))) for xx in (x0, x1)] for yy in (y0, y1)]
            top = v[0][0] + (v[0][1] - v[0][0]) * lx
            bottom = v[1][0] + (v[1][1] - v[1][0]) * lx
            return float(top + (bottom - top) * ly)

        consts = [np.zeros((0,), F32), np.array([1, 1, 1, 1] if sizes else [1, 1, *scales], F32)]
        if sizes is not None:
            consts.append(np.array([xs[0], xs[1], oh, ow], I64))
        attrs = f' {{coordinate_transformation_mode = "{coord}", mode = "{mode}", nearest_mode = "{nm}"}}'
        out = (xs[0], xs[1], oh, ow)
        yield Case(
            f"{op}-{xs}-{oh}x{ow}-{mode}-{coord}-{nm}-{np.dtype(dt)}",
            op_with_consts(op, [x], consts, [out], [dt], attrs),
            [x],
            [build(out, dt, f)],
            ulps=1,
        )


@formula(ge.Conv2DTranspose)
def _conv2d_transpose(op: str) -> Iterator[Case]:
    # (x NCHW, filter [C, K/g, kh, kw], strides, pads [t, b, l, r], dilations, groups, output_padding, bias)
    specs = [
        ((1, 1, 1, 1), (1, 1, 1, 1), 1, [0, 0, 0, 0], 1, 1, 0, False),
        ((1, 2, 3, 5), (2, 3, 2, 3), 2, [1, 0, 0, 1], 1, 1, 1, True),
        ((2, 4, 3, 3), (4, 1, 3, 3), 1, [1, 1, 1, 1], 2, 2, 0, False),
        ((0, 2, 3, 3), (2, 2, 2, 2), 1, [0, 0, 0, 0], 1, 1, 0, False),
    ]
    for xs, ws, st, pads, dil, g, opad, bias in specs:
        x, w = rng_array(xs, F32, seed=4), rng_array(ws, F32, seed=5)
        n, c, h, wd = xs
        _, kg, kh, kw = ws
        k = kg * g
        oh = (h - 1) * st - pads[0] - pads[1] + dil * (kh - 1) + opad + 1
        ow = (wd - 1) * st - pads[2] - pads[3] + dil * (kw - 1) + opad + 1
        ins = [x, w] + ([rng_array((k,), F32, seed=6)] if bias else [])

        def f(i, x=x, w=w, ins=ins, st=st, pads=pads, dil=dil, g=g, kg=kg, kh=kh, kw=kw, h=h, wd=wd, c=c) -> object:
            b_, o, y, z = i
            grp, oc = o // kg, o % kg
            terms = []
            for ci in range(grp * (c // g), (grp + 1) * (c // g)):
                for p in range(kh):
                    for q in range(kw):
                        ny, nz = y + pads[0] - p * dil, z + pads[2] - q * dil  # = input * stride
                        if ny % st or nz % st:
                            continue
                        iy, iz = ny // st, nz // st
                        if 0 <= iy < h and 0 <= iz < wd:
                            terms.append(py(x, (b_, ci, iy, iz)) * py(w, (ci, oc, p, q)))
            return math.fsum(terms) + (py(ins[2], (o,)) if len(ins) == 3 else 0.0)

        attrs = (
            f" {{strides = [1, 1, {st}, {st}], pads = [{', '.join(map(str, pads))}], dilations = [1, 1, {dil}, {dil}],"
            f' groups = {g}, output_padding = [0, 0, {opad}, {opad}], data_format = "NCHW"}}'
        )
        size = np.zeros((4,), I64)
        text = op_with_consts(op, [], [size], [(n, k, oh, ow)], [F32], attrs)
        # inputs: %c0 (input_size) first, then the Data x, filter (and bias)
        data_t = [tyd(a.shape, a.dtype) for a in ins]
        args = ", ".join(f"%x{i}" for i in range(len(ins)))
        text = text.replace("ge.Conv2DTranspose(%c0)", f"ge.Conv2DTranspose(%c0, {args})")
        text = text.replace(f"({tyd((4,), I64)}) ->", f"({', '.join([tyd((4,), I64), *data_t])}) ->")
        lines = "\n".join(f"  %x{i} = ge.Data {{index = {i}}} : {t}" for i, t in enumerate(data_t))
        text = text.replace("ge.graph @main {\n", "ge.graph @main {\n" + lines + "\n", 1)
        tol = 2 * (c * kh * kw + 1) * 2.0**-24 * 4 * c * kh * kw
        yield Case(
            f"Conv2DTranspose-{xs}-{ws}-{st}-{pads}-{dil}-{g}-{opad}-{bias}",
            text,
            ins,
            [build((n, k, oh, ow), F32, f)],
            tol=[tol],
        )


# ---------------------------------------------------------------------------------------
# Recurrent ops: DynamicRNN (LSTM), DynamicGRUV2 (GRU), one step at a time in Python
# ---------------------------------------------------------------------------------------


def _lstm_py(x, w, b, seq, h0, c0, peep, order: str, forget_bias: float, clip: float, reverse: bool):  # noqa: ANN001, ANN202
    """The eight outputs as nested Python lists [k][t][b][h], element by element."""
    t_n, b_n, i_n = x.shape
    hid = b.shape[0] // 4
    h = [[py(h0, (0, bb, k)) if h0 is not None else 0.0 for k in range(hid)] for bb in range(b_n)]
    c = [[py(c0, (0, bb, k)) if c0 is not None else 0.0 for k in range(hid)] for bb in range(b_n)]
    out = [[[[0.0] * hid for _ in range(b_n)] for _ in range(t_n)] for _ in range(8)]
    for t in reversed(range(t_n)) if reverse else range(t_n):
        for bb in range(b_n):
            z = [py(x, (t, bb, k)) for k in range(i_n)] + h[bb]
            g = [math.fsum(z[r] * py(w, (r, col)) for r in range(i_n + hid)) + py(b, (col,)) for col in range(4 * hid)]
            live = seq is None or t < py(seq, (bb,))
            for k in range(hid):
                blk = {n: g[q * hid + k] for q, n in enumerate(order)}
                wci, wcf, wco = (py(p, (k,)) for p in peep) if peep is not None else (0.0, 0.0, 0.0)
                i = _sigmoid(blk["i"] + wci * c[bb][k])
                f = _sigmoid(blk["f"] + forget_bias + wcf * c[bb][k])
                j = math.tanh(blk["j"])
                cn = f * c[bb][k] + i * j
                if clip > 0:
                    cn = min(cn, clip)
                o = _sigmoid(blk["o"] + wco * cn)
                hn = o * math.tanh(cn)
                y = hn if live else 0.0
                if not live:
                    cn, hn = c[bb][k], h[bb][k]
                for q, v in enumerate((y, hn, cn, i, j, f, o, math.tanh(cn))):
                    out[q][t][bb][k] = v
        for bb in range(b_n):
            h[bb] = [out[1][t][bb][k] for k in range(hid)]
            c[bb] = [out[2][t][bb][k] for k in range(hid)]
    return out


def _gru_py(x, wi, wh, bi, bh, seq, h0, order: str, reset_after: bool, reverse: bool):  # noqa: ANN001, ANN202
    t_n, b_n, i_n = x.shape
    hid = wh.shape[0]
    h = [[py(h0, (0, bb, k)) if h0 is not None else 0.0 for k in range(hid)] for bb in range(b_n)]
    out = [[[[0.0] * hid for _ in range(b_n)] for _ in range(t_n)] for _ in range(6)]
    at = {n: q for q, n in enumerate(order)}
    for t in reversed(range(t_n)) if reverse else range(t_n):
        new_h = []
        for bb in range(b_n):

            def gx(col: int, bb=bb, t=t) -> float:
                return math.fsum(py(x, (t, bb, r)) * py(wi, (r, col)) for r in range(i_n)) + py(bi, (col,))

            def gh(col: int, hv: list, bb=bb) -> float:
                return math.fsum(hv[r] * py(wh, (r, col)) for r in range(hid)) + py(bh, (col,))

            z = [_sigmoid(gx(at["z"] * hid + k) + gh(at["z"] * hid + k, h[bb])) for k in range(hid)]
            r = [_sigmoid(gx(at["r"] * hid + k) + gh(at["r"] * hid + k, h[bb])) for k in range(hid)]
            if reset_after:
                hn = [gh(2 * hid + k, h[bb]) for k in range(hid)]
                n = [math.tanh(gx(2 * hid + k) + r[k] * hn[k]) for k in range(hid)]
            else:
                rh = [r[k] * h[bb][k] for k in range(hid)]
                hn = [gh(2 * hid + k, rh) for k in range(hid)]
                n = [math.tanh(gx(2 * hid + k) + hn[k]) for k in range(hid)]
            live = seq is None or t < py(seq, (bb,))
            hv = [z[k] * h[bb][k] + (1 - z[k]) * n[k] if live else h[bb][k] for k in range(hid)]
            for q, v in enumerate((hv, hv, z, r, n, hn)):
                out[q][t][bb] = list(v)
            new_h.append(hv)
        h = new_h
    return out


def _as_arrays(out: list, dt: type) -> list[np.ndarray]:
    return [np.array(o, dtype=np.float64).astype(dt) for o in out]


@formula(ge.DynamicRNN)
def _dynamic_rnn(op: str) -> Iterator[Case]:
    # (T, B, I, H, seq, states, peepholes, attrs); T=3/B=1/H=1: the odd and size-1 shapes
    specs = [
        (1, 1, 3, 1, None, False, False, "", F32),
        (3, 1, 3, 1, None, False, False, "", F32),
        (
            3,
            2,
            2,
            3,
            [3, 1],
            True,
            True,
            'direction = "REDIRECTIONAL", forget_bias = 0.5 : f32, cell_clip = 0.6 : f32',
            F32,
        ),  # fmt: skip
        (2, 3, 2, 2, [2, 0, 1], True, False, 'gate_order = "ifjo"', F32),
        (3, 2, 2, 2, None, False, False, "", F16),
    ]
    for k, (t_n, b_n, i_n, hid, seq, states, peep, attrs, dt) in enumerate(specs):
        x = rng_array((t_n, b_n, i_n), dt, seed=k)
        w = rng_array((i_n + hid, 4 * hid), dt, -1, 1, seed=k + 1)
        b = rng_array((4 * hid,), dt, -1, 1, seed=k + 2)
        ins = [x, w, b]
        sq = np.array(seq, I32) if seq is not None else None
        h0 = c0 = None
        pp = None
        if sq is not None:
            ins.append(sq)
        if states:
            h0, c0 = rng_array((1, b_n, hid), dt, seed=k + 3), rng_array((1, b_n, hid), dt, seed=k + 4)
            ins += [h0, c0]
        if peep:
            pp = [rng_array((hid,), dt, -1, 1, seed=k + 5 + q) for q in range(3)]
            ins += pp
            attrs = "use_peephole = true, " + attrs
        fb = float(attrs.split("forget_bias = ")[1].split(" ")[0]) if "forget_bias" in attrs else 0.0
        clip = float(attrs.split("cell_clip = ")[1].split(" ")[0]) if "cell_clip" in attrs else -1.0
        want = _lstm_py(x, w, b, sq, h0, c0, pp, "ifjo" if "ifjo" in attrs else "ijfo", fb, clip, "REDIRECTIONAL" in attrs)  # fmt: skip
        tol = 1e-5 if dt == F32 else 2e-3
        yield Case(
            f"DynamicRNN-{t_n}x{b_n}x{i_n}-h{hid}-{k}-{np.dtype(dt)}",
            one_op("DynamicRNN", ins, [(t_n, b_n, hid)] * 8, [dt] * 8, f" {{{attrs}}}" if attrs else ""),
            ins,
            _as_arrays(want, dt),
            ulps=4,
            tol=[tol] * 8,
        )


@formula(ge.DynamicGRUV2)
def _dynamic_gru_v2(op: str) -> Iterator[Case]:
    specs = [
        (1, 1, 3, 1, None, False, "", F32),
        (3, 1, 3, 1, None, False, "", F32),
        (3, 2, 2, 3, [1, 3], True, 'direction = "REDIRECTIONAL", reset_after = false', F32),
        (2, 3, 2, 2, [2, 0, 1], True, 'gate_order = "rzh"', F32),
        (3, 2, 2, 2, None, False, "reset_after = false", F16),
    ]
    for k, (t_n, b_n, i_n, hid, seq, states, attrs, dt) in enumerate(specs):
        x = rng_array((t_n, b_n, i_n), dt, seed=k)
        wi, wh = rng_array((i_n, 3 * hid), dt, -1, 1, seed=k + 1), rng_array((hid, 3 * hid), dt, -1, 1, seed=k + 2)
        bi, bh = rng_array((3 * hid,), dt, -1, 1, seed=k + 3), rng_array((3 * hid,), dt, -1, 1, seed=k + 4)
        ins = [x, wi, wh, bi, bh]
        sq = np.array(seq, I32) if seq is not None else None
        h0 = None
        if sq is not None:
            ins.append(sq)
        if states:
            h0 = rng_array((1, b_n, hid), dt, seed=k + 5)
            ins.append(h0)
        want = _gru_py(
            x, wi, wh, bi, bh, sq, h0, "rzh" if "rzh" in attrs else "zrh", "reset_after = false" not in attrs,
            "REDIRECTIONAL" in attrs,
        )  # fmt: skip
        tol = 1e-5 if dt == F32 else 2e-3
        yield Case(
            f"DynamicGRUV2-{t_n}x{b_n}x{i_n}-h{hid}-{k}-{np.dtype(dt)}",
            one_op("DynamicGRUV2", ins, [(t_n, b_n, hid)] * 6, [dt] * 6, f" {{{attrs}}}" if attrs else ""),
            ins,
            _as_arrays(want, dt),
            ulps=4,
            tol=[tol] * 6,
        )


# More ops of ONNX models: bit operations, Cumsum, HardMax, the scatters, GatherNd,
# DepthToSpace, SpaceToDepth
# ---------------------------------------------------------------------------------------

_BITS = {
    "BitwiseAnd": lambda p, q, w: p & q,
    "BitwiseOr": lambda p, q, w: p | q,
    "BitwiseXor": lambda p, q, w: p ^ q,
    # a shift of the width or more: 0 (a right shift of a negative value: -1)
    "LeftShift": lambda p, q, w: 0 if q >= w else p << q,
    "RightShift": lambda p, q, w: (-1 if p < 0 else 0) if q >= w else p >> q,
}


def _wrap(v: int, dt: type) -> int:
    """v's low bits as a value of integer dtype dt (two's complement)."""
    bits = np.dtype(dt).itemsize * 8
    v &= (1 << bits) - 1
    return v - (1 << bits) if np.dtype(dt).kind == "i" and v >= 1 << (bits - 1) else v


@formula(ge.BitwiseAnd, ge.BitwiseOr, ge.BitwiseXor, ge.LeftShift, ge.RightShift)
def _bit_binary(op: str) -> Iterator[Case]:
    shift = op.endswith("Shift")
    for sa, sb, dt in [((), (), I32), ((3, 5), (5,), np.int8), ((2, 3, 1), (1, 4), I64), ((0, 3), (3,), I32)]:
        w = np.dtype(dt).itemsize * 8
        a = rng_array(sa, dt, -100, 100, seed=21)
        b = rng_array(sb, dt, 0, w, seed=22) if shift else rng_array(sb, dt, -100, 100, seed=22)
        out = bcast_shape(sa, sb)

        def f(i, a=a, b=b, w=w, dt=dt) -> object:
            return _wrap(_BITS[op](py(a, bcast_index(i, a.shape)), py(b, bcast_index(i, b.shape)), w), dt)

        yield Case(f"{op}-{sa}-{sb}-{np.dtype(dt)}", one_op(op, [a, b], [out], [dt]), [a, b], [build(out, dt, f)])


@formula(ge.Invert)
def _invert(op: str) -> Iterator[Case]:
    for shape, dt in [((), I32), ((3, 5), np.int8), ((1, 3), I64)]:
        x = rng_array(shape, dt, -100, 100, seed=23)
        yield Case(f"Invert-{shape}-{np.dtype(dt)}", one_op(op, [x], [shape], [dt]), [x],
                   [build(shape, dt, lambda i, x=x: ~py(x, i))])  # fmt: skip


@formula(ge.Cumsum)
def _cumsum(op: str) -> Iterator[Case]:
    for shape, axis, exclusive, reverse, dt in [((1,), 0, False, False, F32), ((3, 5), 1, True, False, I32),
                                                ((2, 3, 5), 1, False, True, F16), ((5, 3), -2, True, True, I64),
                                                ((3, 0), 1, True, False, F32)]:  # fmt: skip
        x = rng_array(shape, dt, -4, 4, seed=24)
        a = axis % len(shape)
        n = shape[a]

        def f(i, x=x, a=a, n=n, exclusive=exclusive, reverse=reverse) -> object:
            k = i[a]
            terms = range(k, n) if reverse else range(k + 1)
            return sum(py(x, i[:a] + (j,) + i[a + 1 :]) for j in terms if not (exclusive and j == k))

        ax = np.array(axis, I64)
        attrs = f" {{exclusive = {str(exclusive).lower()}, reverse = {str(reverse).lower()}}}"
        yield Case(f"Cumsum-{shape}-{axis}-{exclusive}-{reverse}-{np.dtype(dt)}",
                   one_op(op, [x, ax], [shape], [dt], attrs), [x, ax], [build(shape, dt, f)],
                   tol=[5e-3 if dt == F16 else 1e-5])  # fmt: skip


@formula(ge.HardMax)
def _hard_max(op: str) -> Iterator[Case]:
    for shape, axis, dt in [((1,), 0, F32), ((3, 5), 1, F32), ((2, 3, 5), 0, F16), ((3, 3), -2, F32)]:
        x = rng_array(shape, I32, -2, 2, seed=25).astype(dt)  # ties: the first largest wins
        a = axis % len(shape)

        def f(i, x=x, a=a) -> object:
            line = [py(x, i[:a] + (j,) + i[a + 1 :]) for j in range(x.shape[a])]
            return 1 if i[a] == line.index(max(line)) else 0

        yield Case(f"HardMax-{shape}-{axis}-{np.dtype(dt)}", one_op(op, [x], [shape], [dt], f" {{axis = {axis}}}"),
                   [x], [build(shape, dt, f)])  # fmt: skip


def _combine(kind: str, old: float, new: float) -> float:
    return {"none": new, "add": old + new, "mul": old * new, "max": max(old, new), "min": min(old, new)}[kind]


@formula(ge.ScatterElements)
def _scatter_elements(op: str) -> Iterator[Case]:
    for ds, us, axis, kind, dt in [((1,), (1,), 0, "none", F32), ((3, 5), (3, 2), 1, "add", F32),
                                   ((4, 3, 2), (2, 3, 1), 0, "mul", I64), ((5, 3), (3, 3), 0, "add", I32)]:  # fmt: skip
        d = rng_array(ds, dt, seed=26)
        u = rng_array(us, dt, seed=27)
        r = np.random.default_rng(len(ds) + sum(us))
        idx = r.integers(0, ds[axis], us).astype(I64)
        if kind == "none":  # distinct targets: the order of duplicates is not ONNX's business
            idx = np.zeros(us, I64)
        want = d.copy()
        for i in itertools.product(*(range(s) for s in us)):  # updates in index order
            t = i[:axis] + (int(idx[i]),) + i[axis + 1 :]
            want[t] = _combine(kind, py(want, t), py(u, i))
        attrs = f' {{axis = {axis}, reduction = "{kind}"}}'
        yield Case(f"ScatterElements-{ds}-{us}-{kind}-{np.dtype(dt)}", one_op(op, [d, idx, u], [ds], [dt], attrs),
                   [d, idx, u], [want])  # fmt: skip


@formula(ge.GatherNd)
def _gather_nd(op: str) -> Iterator[Case]:
    for xs, ids, dt in [((3,), (1, 1), F32), ((3, 5), (2, 2), F32), ((2, 3, 5), (3, 1), I64), ((3, 5), (0, 2), F16)]:
        x = rng_array(xs, dt, seed=28)
        r = np.random.default_rng(sum(xs) + sum(ids))
        k = ids[-1]
        idx = np.stack([r.integers(0, xs[j], ids[:-1]) for j in range(k)], axis=-1).astype(I32).reshape(ids)
        out = ids[:-1] + xs[k:]
        lead = len(ids) - 1

        def f(i, x=x, idx=idx, k=k, n=lead) -> object:
            return py(x, tuple(int(idx[i[:n] + (j,)]) for j in range(k)) + i[n:])

        yield Case(f"GatherNd-{xs}-{ids}-{np.dtype(dt)}", one_op(op, [x, idx], [out], [dt]), [x, idx],
                   [build(out, dt, f)])  # fmt: skip


@formula(ge.TensorScatterUpdate, ge.TensorScatterAdd, ge.TensorScatterMax, ge.TensorScatterMin)
def _tensor_scatter(op: str) -> Iterator[Case]:
    kind = {"TensorScatterUpdate": "none", "TensorScatterAdd": "add", "TensorScatterMax": "max",
            "TensorScatterMin": "min"}[op]  # fmt: skip
    for xs, ids, dt in [((1,), (1, 1), F32), ((5, 3), (3, 1), F32), ((3, 5, 2), (2, 2), I32)]:
        x = rng_array(xs, dt, seed=29)
        k = ids[-1]
        us = ids[:-1] + xs[k:]
        u = rng_array(us, dt, seed=30)
        rows = [[(j * 2 + m) % xs[m] for m in range(k)] for j in range(ids[0])]
        if kind != "none":
            rows[-1] = rows[0]  # a duplicate target, combined in index order
        idx = np.array(rows, I64).reshape(ids)
        want = x.copy()
        for j in range(ids[0]):
            for rest in itertools.product(*(range(s) for s in xs[k:])):
                t = tuple(rows[j]) + rest
                want[t] = _combine(kind, py(want, t), py(u, (j, *rest)))
        yield Case(f"{op}-{xs}-{ids}-{np.dtype(dt)}", one_op(op, [x, idx, u], [xs], [dt]), [x, idx, u], [want])


def _grid_pixel(x: np.ndarray, n: int, c: int, idx: list[int], pad: str, align: bool) -> float:
    """x[n, c, idx] with padding_mode `pad` for an index outside (PyTorch's grid_sampler)."""
    fixed = []
    for i, d in zip(idx, x.shape[2:]):
        if pad == "zeros" and not 0 <= i < d:
            return 0.0
        if pad == "border":
            i = min(max(i, 0), d - 1)
        if pad == "reflection":
            i = min(max(int(_reflect(float(i), *((0.0, d - 1.0) if align else (-0.5, d - 0.5)))), 0), d - 1)
        fixed.append(i)
    return float(x[(n, c, *fixed)])


def _reflect(v: float, lo: float, hi: float) -> float:
    span = hi - lo
    if v < lo:
        k, r = divmod(lo - v, span)
        return lo + r if int(k) % 2 == 0 else hi - r
    if v > hi:
        k, r = divmod(v - hi, span)
        return hi - r if int(k) % 2 == 0 else lo + r
    return v


def _keys(t: float) -> list[float]:
    """Keys' cubic weights (a = -0.75) of taps -1, 0, 1, 2 at fraction t."""
    a = -0.75
    near = lambda d: ((a + 2) * d - (a + 3)) * d * d + 1  # noqa: E731
    far = lambda d: ((a * d - 5 * a) * d + 8 * a) * d - 4 * a  # noqa: E731
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


@formula(ge.GridSampler2D, ge.GridSampler3D)
def _grid_sampler(op: str) -> Iterator[Case]:
    r = 2 if op == "GridSampler2D" else 3
    modes = ["bilinear", "nearest", "bicubic"] if r == 2 else ["bilinear", "nearest"]
    x_shape = (1, 2, 3, 5) if r == 2 else (1, 2, 3, 2, 3)
    g_shape = (1, 3, 1, 2) if r == 2 else (1, 1, 3, 1, 3)
    for k, (mode, pad, align) in enumerate(itertools.product(modes, ("zeros", "border", "reflection"), (False, True))):
        xs, gs = (x_shape, g_shape) if k else ((1,) * (r + 2), (1,) * (r + 1) + (r,))  # size 1 first
        x = rng_array(xs, F32, seed=40 + k)
        g = rng_array(gs, F32, -1.4, 1.4, seed=60 + k)
        out = (*xs[:2], *gs[1:-1])

        def f(i, x=x, g=g, mode=mode, pad=pad, align=align) -> object:
            n, c, *o = i
            coords = []
            for ax, d in enumerate(x.shape[2:]):
                gv = float(np.float32(g[(n, *o, r - 1 - ax)]))
                v = (gv + 1) / 2 * (d - 1) if align else ((gv + 1) * d - 1) / 2
                v = float(np.float32(v))
                if mode == "nearest":
                    v = float(round(v))  # Python's round: half to even
                lo, hi = (0.0, d - 1.0) if align else (-0.5, d - 0.5)
                if (v < lo or v > hi) and pad == "border":
                    v = min(max(v, 0.0), d - 1.0)
                elif (v < lo or v > hi) and pad == "reflection":
                    v = _reflect(v, lo, hi)
                coords.append(v)
            if mode == "nearest":
                return _grid_pixel(x, n, c, [int(v) for v in coords], pad, align)
            per_axis = []
            for v in coords:
                base = math.floor(v)
                if mode == "bilinear":
                    per_axis.append([(base, 1 - (v - base)), (base + 1, v - base)])
                else:
                    per_axis.append(list(zip(range(base - 1, base + 3), _keys(v - base))))
            total = 0.0
            for combo in itertools.product(*per_axis):
                w = math.prod(t[1] for t in combo)
                total += w * _grid_pixel(x, n, c, [t[0] for t in combo], pad, align)
            return total

        attrs = f' {{interpolation_mode = "{mode}", padding_mode = "{pad}", align_corners = {str(align).lower()}}}'
        yield Case(f"{op}-{mode}-{pad}-{align}", one_op(op, [x, g], [out], [F32], attrs), [x, g],
                   [build(out, F32, f)], tol=[1e-5])  # fmt: skip


@formula(ge.DepthToSpace, ge.SpaceToDepth)
def _depth_space(op: str) -> Iterator[Case]:
    for shape, b, mode, dt in [((1, 4, 1, 1), 2, "DCR", F32), ((1, 9, 3, 5), 3, "CRD", F32),
                               ((2, 8, 1, 3), 2, "DCR", I32), ((1, 3, 4, 2), 2, "DCR", F16)]:  # fmt: skip
        if op == "DepthToSpace":
            if shape[1] % (b * b):
                continue
            n, c, h, w = shape
            out = (n, c // (b * b), h * b, w * b)

            def f(i, b=b, mode=mode, oc=c // (b * b), x=None) -> object:
                _, k, y, z = i
                by, bx = y % b, z % b
                src = (by * b + bx) * oc + k if mode == "DCR" else k * b * b + by * b + bx
                return py(x, (i[0], src, y // b, z // b))

            attrs = f' {{block_size = {b}, mode = "{mode}", data_format = "NCHW"}}'
        else:
            n, c, h, w = shape[0], shape[1], shape[2] * b, shape[3] * b
            shape = (n, c, h, w)
            out = (n, c * b * b, h // b, w // b)

            def f(i, b=b, c=c, x=None) -> object:
                _, k, y, z = i
                blk, ch = divmod(k, c)
                return py(x, (i[0], ch, y * b + blk // b, z * b + blk % b))

            attrs = f' {{block_size = {b}, data_format = "NCHW"}}'
        x = rng_array(shape, dt, seed=31)
        yield Case(f"{op}-{shape}-{b}-{np.dtype(dt)}", one_op(op, [x], [out], [dt], attrs), [x],
                   [build(out, dt, lambda i, f=f, x=x: f(i, x=x))])  # fmt: skip


# ---------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------


def test_every_ge_op_has_a_formula():
    # the control ops' semantics are their subgraphs': tests/runtime/test_control_flow.py
    missing = [c.name for c in ge.GE_NODE_OPS if c not in FORMULAS and c not in ge.CONTROL_OPS]
    extra = [c.name for c in FORMULAS if c not in ge.GE_NODE_OPS]
    assert missing == [] and extra == []


def _all_cases() -> list[tuple[str, Case]]:
    out = []
    for cls in ge.GE_NODE_OPS:
        if cls in FORMULAS:
            out.extend((cls.name, case) for case in FORMULAS[cls](cls.name.split(".", 1)[1]))
    return out


CASES = _all_cases()


def test_every_op_is_checked_on_0d_or_size_1_and_an_odd_shape():
    """Each op's cases include a 0-d or size-1 tensor and one with a dim >= 3 that is odd
    (or the op admits neither: MatMul/Conv2D have fixed ranks, size 1 still)."""
    by_op: dict[str, list[Case]] = {}
    for name, c in CASES:
        by_op.setdefault(name, []).append(c)
    assert sorted(by_op) == sorted(c.name for c in FORMULAS)  # every formula has cases
    for name, cases in by_op.items():
        arrays = [a for c in cases for a in (*c.inputs, *c.want)]
        # DepthToSpace / SpaceToDepth move blocks of block_size^2 >= 4 channels: no size 1
        assert any(a.ndim == 0 or a.size == 1 for a in arrays) or name in ("ge.DepthToSpace", "ge.SpaceToDepth"), name
        if name not in ("ge.Const", "ge.Constant", "ge.Variable"):  # values of any shape, written out
            assert any(any(d >= 3 and d % 2 for d in a.shape) for a in arrays), name


def _ulp(want: np.ndarray) -> np.ndarray:
    return np.spacing(np.abs(want).astype(want.dtype)).astype(np.float64)


@pytest.mark.parametrize(("op", "case"), CASES, ids=[f"{c.id}" for _, c in CASES])
def test_reference_matches_the_formula(op, case):
    m = parse_module(_CTX, case.text, "t.mlir")
    m.verify()
    got = run_module(m, [a.copy() for a in case.inputs])
    assert len(got) == len(case.want)
    for k, (g, w) in enumerate(zip(got, case.want)):
        assert isinstance(g, np.ndarray), (op, k, type(g))
        assert g.dtype == w.dtype and g.shape == w.shape, (op, k, g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind != "f":
            np.testing.assert_array_equal(g, w)
            continue
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        with np.errstate(invalid="ignore"):  # inf - inf: equal specials are checked apart
            tol = case.ulps * _ulp(w) + (case.tol[k] if k < len(case.tol) else 0.0)
            same_special = (g64 == w64) | (np.isnan(g64) & np.isnan(w64))
            close = np.abs(g64 - w64) <= tol
        bad = ~(same_special | close)
        assert not bad.any(), (op, k, g[bad][:4], w[bad][:4])
