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
from ge_tools.opt import GeOptMain, parse_module
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
# The tests
# ---------------------------------------------------------------------------------------


def test_every_ge_op_has_a_formula():
    missing = [c.name for c in ge.GE_NODE_OPS if c not in FORMULAS]
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
        assert any(a.ndim == 0 or a.size == 1 for a in arrays), name
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
