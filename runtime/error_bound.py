"""How far a correct compiled program may be from the reference interpreter, per element.

A compiled graph computes what the reference computes, but not always in the same order:
a reduction sums the bytes a kernel wrote (a transposed tensor, a fused loop nest) in
another order than numpy sums the reference's view, MatMul and Conv2D accumulate in their
own order, a fused kernel may regroup an AddN. Each such difference is a few units of
rounding, which later ops can amplify (Pow(x, 8) multiplies a relative error by 8,
Sub of two close numbers turns an absolute error into a large relative one). A fixed
tolerance either cries wolf on such programs or misses real errors elsewhere.

`output_error_bounds(graph, inputs)` runs the reference once more and carries, next to
each value, a float64 array `e` of the same shape: an upper bound on |compiled - reference|
element by element, under the model

* graph inputs, constants, data movement (reshape, transpose, concat, split, gather,
  broadcast ...) and Max/Min reductions are exact: e moves with the elements;
* a sum, mean, product, MatMul or Conv2D of n terms may be accumulated in any order:
  both sides are within gamma(n) = n*u / (1 - n*u) of the exact result (u: the unit
  roundoff of the accumulation dtype, float32 for f16, bf16 and float8, as the reference
  accumulates),
  so they differ by at most 2*gamma(n)*sum|terms| plus the propagated input errors;
* every other op is evaluated on the reference's inputs perturbed by their bounds: a
  pointwise function by its exact range over [x - e, x + e] (all of them are monotone or
  convex there; a singularity or a domain edge inside the interval gives inf), products
  and quotients by their first-order-free interval formulas; where an input carries an
  error the op's own rounding adds 2*u*|result| (u of the output dtype) plus the
  dtype's smallest subnormal (the rounding step below its normal range);
* a float result within e of overflow may be inf; a bound that cannot be given (an error
  reaching a bitcast, an index, an integer division, a bool) is inf.

An inf bound means "any value": the element depends on rounding so strongly that no
comparison can judge it (ge-run counts and reports those elements). Elements with e = 0
are compared as tightly as before. The model assumes the compiled program evaluates each
pointwise op with the same formula on the same inputs (as the AscGraph interpreter and
the library kernels do); its only freedom is the order of accumulations.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.dtypes import float_info, is_float_dtype, numpy_dtype
from runtime import ascgraph_interp as AI
from runtime import reference as R
from runtime.graph_interpreter import GeInterpreter
from runtime.interpreter import ge_interpreter
from runtime.numerics import acc_dtype, gather_indices

__all__ = ["bound_rule_of", "finish", "output_error_bounds", "unit_roundoff"]

BoundRule = Callable[[GeInterpreter, Operation, list[np.ndarray], list[np.ndarray], list[np.ndarray]], list[np.ndarray]]
# (interpreter, op, input values, input bounds, output values) -> output bounds (float64, output shapes)

INF = math.inf


def unit_roundoff(element_type: Attribute) -> float:
    """u of a float element type (half an ulp of 1, eps / 2): f16 2^-11, bf16 2^-8, f32
    2^-24, f64 2^-53, f8E4M3FN 2^-4, f8E5M2 2^-3, f8E8M0FNU 2^-1 (powers of two only); 0
    for integers and bools (exact)."""
    dt = numpy_dtype(element_type)
    if not is_float_dtype(dt):
        return 0.0
    return float(float_info(dt).eps) / 2


def _u_acc(x_dtype: np.dtype) -> float:
    acc = acc_dtype(x_dtype)
    return float(float_info(acc).eps) / 2 if is_float_dtype(acc) else 0.0


def _gamma(n: int, u: float) -> float:
    """Higham's gamma_n = n*u / (1 - n*u): the relative error bound of n roundings."""
    if u == 0.0 or n <= 0:
        return 0.0
    nu = n * u
    return nu / (1 - nu) if nu < 1 else INF


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def _zeros(v: SSAValue | np.ndarray) -> np.ndarray:
    shape = v.shape if isinstance(v, np.ndarray) else tuple(v.type.get_shape())  # type: ignore[attr-defined]
    return np.zeros(shape, dtype=np.float64)


def _fmax(v: SSAValue) -> float:
    """The largest finite value of `v`'s float dtype (inf for integers: no overflow to inf)."""
    dt = numpy_dtype(v.type.element_type)  # type: ignore[attr-defined]
    return float(float_info(dt).max) if is_float_dtype(dt) else INF


def finish(element_type: Attribute, r: np.ndarray, e_prop: np.ndarray, extra: np.ndarray | float = 0.0) -> np.ndarray:
    """The bound of a result `r` of `element_type`: the propagated input errors `e_prop`,
    plus `extra` (a reordering term), plus the op's own rounding 2u|r| wherever either is
    nonzero; inf where r +- e may overflow the dtype or where the reference is NaN but an
    input error could have made it a number (0 where the reference is NaN from exact
    inputs: NaN must equal NaN); whole units for integer results."""
    u = unit_roundoff(element_type)
    rr = _f64(r)
    with np.errstate(invalid="ignore", over="ignore"):
        e_prop = np.where(np.isnan(e_prop), INF, e_prop)
        has_err = e_prop > 0
        e = e_prop + extra
        if u:
            # rounding to nearest moves a result by at most u|r|, plus half the subnormal
            # spacing below the normal range (which matters for f16, float8): the two
            # sides' roundings differ by twice that
            fi = float_info(numpy_dtype(element_type))
            step = float(fi.smallest_subnormal)
            e = e + np.where(has_err | (e > 0), 2 * u * np.abs(rr) + step, 0.0)
            fmax = float(fi.max)
            e = np.where((e > 0) & (np.abs(rr) + e > fmax), INF, e)
        else:  # an integer or bool result: a fractional error rounds up to whole units
            e = np.ceil(e)
        e = np.where(np.isnan(rr), np.where(has_err, INF, 0.0), np.where(np.isnan(e), INF, e))
    return np.require(np.broadcast_to(e, r.shape), np.float64, ["C", "W"])


def _finish(op: Operation, i: int, r: np.ndarray, e_prop: np.ndarray, extra: np.ndarray | float = 0.0) -> np.ndarray:
    return finish(op.results[i].type.element_type, r, e_prop, extra)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------
# Pointwise rules (shared by ge ops and AscGraph nodes)
# ---------------------------------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


# name -> (float64 function, singular-at-zero). Each function is monotone on the
# intervals of its domain, or convex (Square, Abs): its range over [x - e, x + e] is
# spanned by the end points, or by an end point and 0 (below).
UNARY_F64: dict[str, tuple[Callable[[np.ndarray], np.ndarray], bool]] = {
    "Relu": (lambda x: np.maximum(x, 0.0), False),
    "Abs": (np.abs, False),
    "Neg": (np.negative, False),
    "Exp": (np.exp, False),
    "Log": (np.log, False),
    "Sqrt": (np.sqrt, False),
    "Rsqrt": (lambda x: 1.0 / np.sqrt(x), True),
    "Sigmoid": (_sigmoid, False),
    "Tanh": (np.tanh, False),
    "Square": (lambda x: x * x, False),
    "Reciprocal": (lambda x: 1.0 / x, True),
    "Identity": (lambda x: x, False),
    # graph preparation removes them (passes/prepare/): each is its input
    "Dropout": (lambda x: x, False),
    "StopGradient": (lambda x: x, False),
    "PreventGradient": (lambda x: x, False),
    "Snapshot": (lambda x: x, False),
}


def unary_bound(name: str, x: np.ndarray, e: np.ndarray, fmax: float = INF) -> np.ndarray:
    """max |f(y) - f(x)| over |y - x| <= e, for f = UNARY_F64[name] (in float64); 0 where
    the whole interval is outside f's domain (NaN on both sides) or overflows `fmax` (the
    output dtype's largest finite value) with one sign (inf on both sides)."""
    f, singular = UNARY_F64[name]
    xx = _f64(x)
    with np.errstate(all="ignore"):
        fx, lo, hi = f(xx), f(xx - e), f(xx + e)
        d = np.maximum(np.abs(lo - fx), np.abs(hi - fx))
        if name in ("Abs", "Square"):  # convex with its minimum 0 at x = 0
            d = np.where(np.abs(xx) <= e, np.maximum(d, np.abs(fx)), d)
        bad = (np.isnan(lo) | np.isnan(hi)) & ~np.isnan(fx)
        if singular:
            bad |= (xx - e <= 0) & (xx + e >= 0) & (e > 0)
        d = np.where(bad, INF, d)
        # monotone or convex f: its values at both ends and at x bound the interval's
        same_nan = np.isnan(fx) & np.isnan(lo) & np.isnan(hi)
        ends = np.stack(np.broadcast_arrays(fx, lo, hi))
        same_inf = (np.all(ends > fmax, axis=0) | np.all(ends < -fmax, axis=0)) & ~(
            singular & (xx - e <= 0) & (xx + e >= 0)
        )
        d = np.where(same_nan | same_inf, 0.0, np.where(np.isnan(d), INF, d))  # NaN on one side only
    return np.where(e > 0, d, 0.0)


def cast_bound(x: np.ndarray, e: np.ndarray, src: np.dtype, dst: np.dtype) -> np.ndarray:
    xx = _f64(x)
    with np.errstate(all="ignore"):
        if dst.kind == "b":  # x != 0 may flip when 0 lies within the bound
            return np.where((e > 0) & (np.abs(xx) <= e), 1.0, 0.0)
        if dst.kind in "iu" and is_float_dtype(src):  # truncation is monotone
            t = np.trunc
            d = np.maximum(np.abs(t(xx + e) - t(xx)), np.abs(t(xx - e) - t(xx)))
            return np.where(e > 0, d, 0.0)
    return e.copy()


def binary_bound(name: str, a: np.ndarray, b: np.ndarray, ea: np.ndarray, eb: np.ndarray) -> np.ndarray:
    """max |f(a', b') - f(a, b)| over |a' - a| <= ea, |b' - b| <= eb (float64)."""
    aa, bb = _f64(a), _f64(b)
    with np.errstate(all="ignore"):
        if name in ("Add", "Sub"):
            return ea + eb
        if name == "Mul":  # guarded: inf * 0 is no error
            return np.where((ea > 0) | (eb > 0), np.abs(aa) * eb + np.abs(bb) * ea + ea * eb, 0.0)
        if name in ("RealDiv", "Div"):
            if a.dtype.kind in "iu":  # integer division rounds: any input error is unbounded
                return np.where((ea > 0) | (eb > 0), INF, 0.0)
            den = np.abs(bb) * (np.abs(bb) - eb)
            d = (np.abs(bb) * ea + np.abs(aa) * eb) / den
            return np.where((ea > 0) | (eb > 0), np.where(np.abs(bb) > eb, d, INF), 0.0)
        if name in ("Maximum", "Minimum"):
            return np.maximum(ea, eb)
        if name == "Pow":
            return _pow_bound(aa, bb, ea, eb)
        if name in ("Eq", "Ne", "Gt", "Ge", "Lt", "Le"):  # a comparison may flip near equality
            return np.where((ea + eb > 0) & (np.abs(aa - bb) <= ea + eb), 1.0, 0.0)
    raise KeyError(name)


def _pow_bound(a: np.ndarray, b: np.ndarray, ea: np.ndarray, eb: np.ndarray) -> np.ndarray:
    # x ** y is monotone in x on each side of 0 (for a fixed y) and in y (for a fixed
    # x > 0): its range over the box is spanned by the corners, and 0 ** y when the
    # x-interval holds 0.
    fx = np.power(a, b)
    d = np.zeros(np.broadcast(a, b, ea, eb).shape)
    bad = np.zeros(d.shape, dtype=bool)
    for sa in (-1.0, 1.0):
        for sb in (-1.0, 1.0):
            c = np.power(a + sa * ea, b + sb * eb)
            d = np.maximum(d, np.abs(c - fx))
            bad |= np.isnan(c) & ~np.isnan(fx)
    has0 = (a - ea <= 0) & (a + ea >= 0) & (ea > 0)
    d = np.where(has0, np.maximum(d, np.abs(fx)), d)
    bad |= has0 & (b - eb <= 0)
    return np.where((ea > 0) | (eb > 0), np.where(bad, INF, d), 0.0)


# ---------------------------------------------------------------------------------------
# Rules of ge ops
# ---------------------------------------------------------------------------------------

_RULES: dict[type[Operation], BoundRule] = {}


def _rule(*classes: type[Operation]) -> Callable[[BoundRule], BoundRule]:
    def reg(fn: BoundRule) -> BoundRule:
        for c in classes:
            _RULES[c] = fn
        return fn

    return reg


def bound_rule_of(op_class: type[Operation]) -> BoundRule | None:
    return _RULES.get(op_class)


@_rule(ge.Const, ge.Constant, ge.Variable, ge.Shape, ge.Size, ge.Rank, ge.Range)
def _exact_source(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return [_zeros(o) for o in outs]


@_rule(ge.Fill)
def _fill(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # every element is the value: its bound everywhere
    return [np.full(outs[0].shape, float(bounds[1].reshape(-1)[0]) if bounds[1].size else 0.0)]


@_rule(ge.Data, ge.RefData, ge.NetOutput)
def _interface(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    raise AssertionError("Data and NetOutput are bound by their graph")


@_rule(*(getattr(ge, n) for n in UNARY_F64))
def _unary(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return [_finish(op, 0, outs[0], unary_bound(ge.ge_type(op), args[0], bounds[0], _fmax(op.results[0])))]


@_rule(ge.Add, ge.Sub, ge.Mul, ge.RealDiv, ge.Div, ge.Maximum, ge.Minimum, ge.Pow)
def _binary(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    e = binary_bound(ge.ge_type(op), args[0], args[1], bounds[0], bounds[1])
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape))]


@_rule(ge.Cast)
def _cast(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return [_finish(op, 0, outs[0], cast_bound(args[0], bounds[0], args[0].dtype, outs[0].dtype))]


@_rule(ge.AddN)
def _add_n(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # a fused kernel may add the n inputs in another order
    shape = outs[0].shape
    e = sum((np.broadcast_to(b, shape) for b in bounds), np.zeros(shape))
    mag = sum((np.broadcast_to(np.abs(_f64(a)), shape) for a in args), np.zeros(shape))
    return [_finish(op, 0, outs[0], e, 2 * _gamma(len(args) - 1, _u_acc(args[0].dtype)) * mag)]


@_rule(ge.ReduceSumD, ge.ReduceMeanD, ge.ReduceProdD, ge.ReduceMaxD, ge.ReduceMinD)
def _reduce(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    x, ex = args[0], bounds[0]
    return _reduce_bound(op, ge.ge_type(op), x, ex, R.reduce_axes(op, x.ndim), outs)


@_rule(ge.ReduceSum, ge.ReduceMean, ge.ReduceProd, ge.ReduceMax, ge.ReduceMin)
def _reduce_axes_input(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # the input forms (issue 28): their D form's bound with the axes input's values
    if not _index_inputs_exact(bounds, 1):
        return [np.full(outs[0].shape, INF)]
    x, ex = args[0], bounds[0]
    vals = [int(v) for v in np.asarray(args[1]).reshape(-1)]
    if not vals and A.get_bool(op, "noop_with_empty_axes", False):
        return [np.require(ex, np.float64, ["C", "W"]).copy()]
    axes = tuple(sorted({v + x.ndim if v < 0 else v for v in vals})) if vals else tuple(range(x.ndim))
    return _reduce_bound(op, ge.ge_type(op) + "D", x, ex, axes, outs)


def _reduce_bound(
    op: Operation, kind: str, x: np.ndarray, ex: np.ndarray, axes: tuple[int, ...], outs: list[np.ndarray]
) -> list[np.ndarray]:
    keep = A.get_bool(op, "keep_dims", False)
    n = math.prod(x.shape[a] for a in axes)
    with np.errstate(all="ignore"):
        if kind in ("ReduceMaxD", "ReduceMinD"):  # exact, order-free
            return [_finish(op, 0, outs[0], np.max(ex, axis=axes, keepdims=keep, initial=0.0))]
        g = 2 * _gamma(n - 1, _u_acc(x.dtype))  # n terms: n - 1 roundings, in any order
        ax = np.abs(_f64(x))
        if kind == "ReduceProdD":
            hi = np.prod(ax + ex, axis=axes, keepdims=keep)
            e, extra = hi - np.prod(ax, axis=axes, keepdims=keep), g * hi
        else:
            e, extra = np.sum(ex, axis=axes, keepdims=keep), g * np.sum(ax, axis=axes, keepdims=keep)
            if kind == "ReduceMeanD":
                e, extra = (e / n, extra / n) if n else (np.zeros_like(e), 0.0)
    return [_finish(op, 0, outs[0], e, extra)]


@_rule(ge.MatMul)
def _matmul(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    a, b = np.abs(_f64(args[0])), np.abs(_f64(args[1]))
    ea, eb = bounds[0], bounds[1]
    k = args[0].shape[0 if A.get_bool(op, "transpose_x1") else 1]

    def mm(p: np.ndarray, q: np.ndarray, need: np.ndarray) -> np.ndarray | float:
        return R.matmul_nd(op, p, q) if np.any(need > 0) else 0.0  # inf * 0 is no error

    with np.errstate(all="ignore"):
        e = mm(a, eb, eb) + mm(ea, b, ea) + mm(ea, eb, ea)
        if len(args) == 3:
            e = e + bounds[2].reshape(-1)
        extra = 2 * _gamma(k, _u_acc(args[0].dtype)) * R.matmul_nd(op, a, b)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra)]


def _conv_like(
    op: Operation,
    conv: Callable[[Operation, np.ndarray, np.ndarray], np.ndarray],
    args: list[np.ndarray],
    bounds: list[np.ndarray],
    outs: list[np.ndarray],
    xi: int,
    terms: int,
) -> list[np.ndarray]:
    """Conv2D's and Conv2DTranspose's rule (x at operand `xi`, the filter after it, an
    optional bias [K] after that): |x| * e_w + e_x * |w| + e_x * e_w through the
    convolution itself, plus the bias's bound per channel, plus the rounding of a sum of
    `terms` products (2 * gamma(terms) * conv(|x|, |w|))."""
    x, w = np.abs(_f64(args[xi])), np.abs(_f64(args[xi + 1]))
    ex, ew = bounds[xi], bounds[xi + 1]

    def cv(p: np.ndarray, q: np.ndarray, need: np.ndarray) -> np.ndarray | float:
        return conv(op, p, q) if np.any(need > 0) else 0.0  # inf * 0 is no error

    with np.errstate(all="ignore"):
        e = cv(x, ew, ew) + cv(ex, w, ex) + cv(ex, ew, ex)
        if len(args) == xi + 3:
            e = e + bounds[xi + 2].reshape(1, -1, 1, 1)
        extra = 2 * _gamma(terms, _u_acc(args[xi].dtype)) * conv(op, x, w)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra)]


@_rule(ge.Conv2D)
def _conv2d(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    _, cg, kh, kw = args[1].shape  # each output sums C / groups * kh * kw products
    return _conv_like(op, R.conv2d_nchw, args, bounds, outs, 0, cg * kh * kw)


@_rule(
    ge.ConcatD, ge.ConcatV2D, ge.Pack, ge.SplitD, ge.SplitVD, ge.PhonyConcat, ge.PhonySplit,
    ge.Reshape, ge.Squeeze, ge.Unsqueeze, ge.ExpandDims, ge.Flatten, ge.FlattenV2, ge.ReFormat,
    ge.SqueezeV2, ge.SqueezeV3, ge.UnsqueezeV2, ge.UnsqueezeV3,
    ge.TransposeD, ge.BroadcastToD, ge.HcomAllGather,
)  # fmt: skip
def _moves(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # data movement: the bounds move as the elements do (the op's own semantics on them;
    # a Reshape's shape and a V3's axes input, values computed in the graph, as they are)
    ins = list(bounds) if isinstance(op, ge.ConcatBase | ge.Pack | ge.PhonyConcat) else [bounds[0], *args[1:]]
    return [np.require(b, np.float64, ["C", "W"]) for b in ip.run_node(op, ins)]


@_rule(ge.Expand, ge.SplitV)
def _moves_by_input(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # the input forms (issue 28): data movement by the values of inputs 1.. (shape, sizes)
    if not _index_inputs_exact(bounds, 1):
        return [np.full(o.shape, INF) for o in outs]
    return [np.require(b, np.float64, ["C", "W"]) for b in ip.run_node(op, [_f64(bounds[0]), *args[1:]])]


@_rule(ge.Gather, ge.GatherV2)
def _gather(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    if any(np.any(b > 0) for b in bounds[1:]):  # an index (or the axis) may differ
        return [np.full(outs[0].shape, INF)]
    return [np.require(ip.run_node(op, [bounds[0], *args[1:]])[0], np.float64, ["C", "W"])]


# -- BatchNorm, pooling, PadV3, StridedSliceV2, Tile, BatchMatMulV2 -------------------------


def _index_inputs_exact(bounds: list[np.ndarray], first: int) -> bool:
    return not any(np.any(b > 0) for b in bounds[first:])


@_rule(ge.BatchNorm)
def _batch_norm(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # y = scale * (x - mean) / sqrt(variance + epsilon) + offset, per channel: an error in x
    # scales by |scale| / sqrt(variance + epsilon); one in the parameters is not modelled
    assert isinstance(op, ge.BatchNorm)
    passed = [np.require(b, np.float64, ["C", "W"]) for b in (bounds[3], bounds[4], bounds[3], bounds[4])]
    rest = [*passed, _zeros(outs[5])]
    if not _index_inputs_exact(bounds, 1):
        return [np.full(outs[0].shape, INF), *rest]
    shape = (1, -1) + (1,) * (args[0].ndim - 2)
    with np.errstate(all="ignore"):
        gain = (np.abs(_f64(args[1])) / np.sqrt(_f64(args[4]) + op.epsilon())).reshape(shape)
        e = bounds[0] * gain
        # on perturbed inputs the four roundings of the formula (in the compute dtype) differ
        # too, each by at most u of its intermediate, all below this magnitude
        mag = gain * (np.abs(_f64(args[0])) + bounds[0] + np.abs(_f64(args[3])).reshape(shape))
        mag = mag + np.abs(_f64(args[2])).reshape(shape)
        extra = np.where(e > 0, 2 * 4 * _u_acc(args[0].dtype) * mag, 0.0)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra), *rest]


@_rule(ge.MaxPoolV3, ge.MaxPool)
def _max_pool(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # |max(x + e) - max(x)| <= max(e) over the window: the bounds pooled the same way (exact)
    return [np.require(R.pool2d(op, _f64(bounds[0]), "max"), np.float64, ["C", "W"])]


@_rule(ge.AvgPoolV2, ge.AvgPool)
def _avg_pool(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # a mean of the window's terms: the averaged input bounds plus a sum of k terms in any order
    assert isinstance(op, ge.PoolBase)
    w = op.windows(args[0].shape)
    assert w is not None
    k = w[1][0] * w[1][1]
    with np.errstate(all="ignore"):
        e = R.pool2d(op, _f64(bounds[0]), "avg")
        extra = 2 * _gamma(k - 1, _u_acc(args[0].dtype)) * R.pool2d(op, np.abs(_f64(args[0])), "avg")
    return [_finish(op, 0, outs[0], e, extra)]


@_rule(ge.PadV3, ge.StridedSliceV2, ge.Tile)
def _index_moves(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # data movement by constant indices (paddings, begin/end/axes/strides, multiples): the
    # bounds move as the elements do; PadV3's constant_values carries its own bound
    if not _index_inputs_exact(bounds[:2], 1):
        return [np.full(outs[0].shape, INF)]
    moved = ip.run_node(op, [_f64(bounds[0]), args[1], *[_f64(b) for b in bounds[2:]]] if isinstance(op, ge.PadV3)
                        else [_f64(bounds[0]), *args[1:]])  # fmt: skip
    return [np.require(moved[0], np.float64, ["C", "W"])]


@_rule(ge.BatchMatMulV2)
def _batch_matmul(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    a, b = np.abs(_f64(args[0])), np.abs(_f64(args[1]))
    ea, eb = bounds[0], bounds[1]
    k = args[0].shape[-2 if A.get_bool(op, "adj_x1") else -1]

    def mm(p: np.ndarray, q: np.ndarray, need: np.ndarray) -> np.ndarray | float:
        return R.batch_matmul_nd(op, p, q) if np.any(need > 0) else 0.0  # inf * 0 is no error

    with np.errstate(all="ignore"):
        e = mm(a, eb, eb) + mm(ea, b, ea) + mm(ea, eb, ea)
        if len(args) == 3:
            e = e + bounds[2]
        extra = 2 * _gamma(k, _u_acc(args[0].dtype)) * R.batch_matmul_nd(op, a, b)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra)]


@_rule(ge.ArgMaxV2, ge.ArgMin)
def _arg(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # an index: exact on exact inputs, any index once an input may differ
    return [np.full(outs[0].shape, INF if any(np.any(b > 0) for b in bounds) else 0.0)]


@_rule(ge.GatherElements)
def _gather_elements(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    if np.any(bounds[1] > 0):  # an index may differ
        return [np.full(outs[0].shape, INF)]
    return [np.require(ip.run_node(op, [_f64(bounds[0]), args[1]])[0], np.float64, ["C", "W"])]


@_rule(ge.Tril, ge.Triu)
def _tri(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # kept elements move, the others are exact zeros
    return [np.require(ip.run_node(op, [_f64(bounds[0])])[0], np.float64, ["C", "W"])]


@_rule(ge.ResizeNearestNeighborV2, ge.ResizeBilinearV2, ge.Resize)
def _resize(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # nearest moves elements; bilinear is a convex combination of four (weights >= 0, sum
    # 1): the bounds combine the same way, plus on perturbed inputs its float32 roundings
    # (three lerps of two terms each), all below the combination of |x|
    oh, ow = outs[0].shape[2], outs[0].shape[3]
    with np.errstate(all="ignore"):
        e = R.resize_nchw(op, _f64(bounds[0]), oh, ow)
        if isinstance(op, ge.ResizeNearestNeighborV2) or (
            isinstance(op, ge.Resize) and (A.get_str(op, "mode") or "nearest") == "nearest"
        ):
            return [np.require(e, np.float64, ["C", "W"])]
        u = float(np.finfo(np.float32).eps) / 2
        extra = np.where(e > 0, 2 * 6 * u * R.resize_nchw(op, np.abs(_f64(args[0])), oh, ow), 0.0)
    return [_finish(op, 0, outs[0], e, extra)]


@_rule(ge.Conv2DTranspose)
def _conv2d_transpose(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # Conv2D's rule: each output sums at most C / groups * kh * kw products
    g = A.get_int(op, "groups", 1) or 1
    _, _, kh, kw = args[2].shape
    return _conv_like(op, R.conv2d_transpose_nchw, args, bounds, outs, 1, args[1].shape[1] // g * kh * kw)


@_rule(ge.Bitcast)
def _bitcast(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return [np.full(outs[0].shape, INF if np.any(bounds[0] > 0) else 0.0)]


@_rule(ge.PartitionedCall)
def _call(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    assert isinstance(op, ge.PartitionedCall)
    return _block_bounds(ip, op.callee().body.block, args, bounds)[1]


@_rule(ge.FusedAscBackend)
def _fused(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return _block_bounds(ip, op.regions[0].block, args, bounds)[1]


@_rule(ge.AscBackend)
def _asc_backend(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return _asc_bounds(ip, op, args, bounds, outs)


# ---------------------------------------------------------------------------------------
# The activation section's ops (ge_dialect/ge.py) and the AscIR nodes they lower to
# ---------------------------------------------------------------------------------------


def _softplus64(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _softsign64(x: np.ndarray) -> np.ndarray:
    return x / (1.0 + np.abs(x))


def _relu6_64(x: np.ndarray) -> np.ndarray:
    return np.clip(x, 0.0, 6.0)


# monotone ones: the range over [x - e, x + e] is spanned by its end points (unary_bound)
UNARY_F64.update({
    "Erf": (np.vectorize(math.erf, otypes=[np.float64]), False),
    "Softplus": (_softplus64, False),
    "Softsign": (_softsign64, False),
    "Relu6": (_relu6_64, False),
    "Floor": (np.floor, False),
    "Ceil": (np.ceil, False),
    "Round": (np.rint, False),
    "Sign": (np.sign, False),
})  # fmt: skip


def _lipschitz(op: Operation) -> float:
    """A bound on |f'| of the ops that are not monotone (or whose slope is an attribute):
    |f(y) - f(x)| <= L |y - x|."""
    t = ge.ge_type(op) if isinstance(op, ge.GeNode) else op.name.split(".", 1)[1]
    if t in ("Gelu", "Mish"):
        return 1.2  # gelu' <= 1.13 (tanh form), mish' <= 1.09
    if t == "HardSwish":
        return 1.5  # (2x + 3) / 6 on [-3, 3]
    if t in ("Sin", "Cos"):
        return 1.0
    if t == "LeakyRelu":
        s = op.negative_slope() if isinstance(op, ag.LeakyRelu) else ge.float_attr(op, "negative_slope", 0.0)
        return max(1.0, abs(s))
    if t == "Elu":
        return max(1.0, abs(ge.float_attr(op, "alpha", 1.0)))
    if t == "Selu":
        from runtime.activations import SELU_ALPHA, SELU_SCALE

        return SELU_SCALE * max(1.0, SELU_ALPHA)
    if t == "Celu":
        return max(1.0, abs(ge.float_attr(op, "alpha1", 1.0) / ge.float_attr(op, "alpha2", 1.0)))
    if t == "HardSigmoid":
        return abs(ge.float_attr(op, "alpha", 0.16666666))
    raise KeyError(t)


_LIPSCHITZ_OPS = (
    ge.Gelu,
    ge.Mish,
    ge.HardSwish,
    ge.Sin,
    ge.Cos,
    ge.LeakyRelu,
    ge.Elu,
    ge.Selu,
    ge.Celu,
    ge.HardSigmoid,
)


@_rule(*_LIPSCHITZ_OPS)
def _lipschitz_rule(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    return [_finish(op, 0, outs[0], _lipschitz(op) * bounds[0])]


_COMPARE_NAMES: dict[type[Operation], str] = {
    ge.Equal: "Eq", ge.NotEqual: "Ne", ge.Greater: "Gt", ge.GreaterEqual: "Ge", ge.Less: "Lt", ge.LessEqual: "Le",
}  # fmt: skip


@_rule(*_COMPARE_NAMES)
def _compare(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    e = binary_bound(_COMPARE_NAMES[type(op)], args[0], args[1], bounds[0], bounds[1])
    return [np.require(np.broadcast_to(e, outs[0].shape), np.float64, ["C", "W"])]


@_rule(ge.SelectV2)
def _select_v2(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    c, a, b = (np.broadcast_to(v, outs[0].shape) for v in args)
    ec, ea, eb = (np.broadcast_to(v, outs[0].shape) for v in bounds)
    with np.errstate(all="ignore"):
        flip = np.abs(_f64(a) - _f64(b)) + np.maximum(ea, eb)
        e = np.where(ec > 0, flip, np.where(c, ea, eb))
    return [np.require(e, np.float64, ["C", "W"])]


@_rule(ge.ClipByValue)
def _clip_by_value(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # min and max move an element by at most the largest of their operands' bounds
    e = np.maximum(np.maximum(bounds[0], bounds[1]), bounds[2])
    return [np.require(np.broadcast_to(e, outs[0].shape), np.float64, ["C", "W"])]


_rule(ge.Erf, ge.Softplus, ge.Softsign, ge.Relu6, ge.Floor, ge.Ceil, ge.Round, ge.Sign)(_unary)


@_rule(ge.IsNan, ge.IsInf, ge.LogicalAnd, ge.LogicalOr, ge.LogicalNot, ge.Mod, ge.FloorMod, ge.SoftmaxV2,
       ge.LogSoftmaxV2, ge.LayerNorm)  # fmt: skip
def _exact_or_unbounded(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # bools and remainders may flip under any input error; softmax and LayerNorm run as the
    # reference's own kernel (the same formula), so they are exact on exact inputs
    err = any(np.any(b > 0) for b in bounds)
    return [np.full(o.shape, INF if err else 0.0) for o in outs]


def _ag_activation(node: Operation, xs: list[np.ndarray], es: list[np.ndarray]) -> np.ndarray | None:
    """The propagated bound of an AscIR node of the activation section (None: not one)."""
    if isinstance(node, ag.Erf | ag.Sign):
        return unary_bound(node.asc_type, xs[0], es[0])
    if isinstance(node, ag.Gelu | ag.LeakyRelu):
        return _lipschitz(node) * es[0]
    return None


# ---------------------------------------------------------------------------------------
# AscGraphs: the AscGraph interpreter's walk, on (value, bound) pairs
# ---------------------------------------------------------------------------------------

_AG_UNARY: dict[type[Operation], str] = {ag.Abs: "Abs", ag.Neg: "Neg", ag.Exp: "Exp", ag.Ln: "Log", ag.Relu: "Relu", ag.Sqrt: "Sqrt",
             ag.Rsqrt: "Rsqrt", ag.Reciprocal: "Reciprocal", ag.Sigmoid: "Sigmoid", ag.Tanh: "Tanh"}  # fmt: skip
_AG_BINARY: dict[type[Operation], str] = {ag.Add: "Add", ag.Sub: "Sub", ag.Mul: "Mul", ag.Div: "Div", ag.Maximum: "Maximum",
              ag.Minimum: "Minimum", ag.Pow: "Pow", ag.Eq: "Eq", ag.Ne: "Ne", ag.Gt: "Gt", ag.Ge: "Ge",
              ag.Lt: "Lt", ag.Le: "Le"}  # fmt: skip


def _asc_bounds(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    graph = asc_graph_of(op)  # the reference ran it: it exists
    val: dict[SSAValue, np.ndarray] = {}
    err: dict[SSAValue, np.ndarray] = {}
    res: dict[int, np.ndarray] = {}
    for node in graph.body.block.ops:
        if isinstance(node, ag.Data):
            r0 = node.results[0]
            val[r0] = np.ascontiguousarray(args[node.index]).reshape(-1)
            err[r0] = np.ascontiguousarray(bounds[node.index], dtype=np.float64).reshape(-1)
        elif isinstance(node, ag.Load):
            r0 = node.results[0]
            reps = node.out_type().repeat_list
            for env in (val, err):
                v = AI.gm_view(node, env[node.operands[0]], node.in_type(), node.offset)
                env[r0] = np.broadcast_to(v, reps)
        elif isinstance(node, ag.Store):
            r0 = node.results[0]
            t = node.out_type()
            size = ag.view_extent(t, node.offset)
            for use in r0.uses:
                if isinstance(use.operation, ag.Output):
                    size = max(size, math.prod(outs[use.operation.index].shape))
            for env, dt in ((val, numpy_dtype(t.element_type)), (err, np.dtype(np.float64))):
                buf = np.zeros(size, dtype=dt)
                AI.gm_view(node, buf, t, node.offset, writeable=True)[...] = env[node.operands[0]]
                env[r0] = buf
        elif isinstance(node, ag.Workspace):
            r0 = node.results[0]
            val[r0], err[r0] = val[node.operands[0]], err[node.operands[0]]
        elif isinstance(node, ag.Output):
            res[node.index] = err[node.operands[0]]
        else:
            AI.compute(ip, node, val)
            for r, e in zip(node.results, _asc_node_bounds(node, val, err)):
                err[r] = np.broadcast_to(e, val[r].shape).astype(np.float64)
    return [res[k].reshape(o.shape) for k, o in enumerate(outs)]


def _asc_node_bounds(
    node: Operation, val: dict[SSAValue, np.ndarray], err: dict[SSAValue, np.ndarray]
) -> list[np.ndarray]:
    xs = [val[v] for v in node.operands]
    es = [err[v] for v in node.operands]
    outs = [val[r] for r in node.results]
    r = outs[0]
    t = node.results[0].type.element_type  # type: ignore[attr-defined]

    def rounding(e: np.ndarray, extra: np.ndarray | float = 0.0) -> np.ndarray:
        return finish(t, r, np.broadcast_to(e, r.shape), extra)

    kind = type(node)
    with np.errstate(all="ignore"):
        if kind in _AG_UNARY:
            return [rounding(unary_bound(_AG_UNARY[kind], xs[0], es[0], _fmax(node.results[0])))]
        if kind in _AG_BINARY:
            return [rounding(binary_bound(_AG_BINARY[kind], xs[0], xs[1], es[0], es[1]))]
        if isinstance(node, ag.Cast):
            return [rounding(cast_bound(xs[0], es[0], xs[0].dtype, r.dtype))]
        if isinstance(node, ag.Scalar):
            return [np.zeros(r.shape)]
        if isinstance(node, ag.Where):
            flip = es[0] > 0
            pick = np.where(xs[0] != 0, es[1], es[2])
            return [np.where(flip, np.abs(_f64(xs[1]) - _f64(xs[2])) + np.maximum(es[1], es[2]), pick)]
        if isinstance(node, ag.Broadcast):
            return [np.broadcast_to(es[0], r.shape)]
        if isinstance(node, ag.Reduction):
            axes = node.reduced_positions()
            if not axes:
                return [es[0]]
            n = math.prod(xs[0].shape[a] for a in axes)
            if isinstance(node, ag.Max | ag.Min):
                return [np.max(es[0], axis=axes, keepdims=True, initial=0.0)]
            g = 2 * _gamma(n - 1, _u_acc(xs[0].dtype))
            ax = np.abs(_f64(xs[0]))
            if isinstance(node, ag.Prod):
                hi = np.prod(ax + es[0], axis=axes, keepdims=True)
                return [rounding(hi - np.prod(ax, axis=axes, keepdims=True), g * hi)]
            e, extra = np.sum(es[0], axis=axes, keepdims=True), g * np.sum(ax, axis=axes, keepdims=True)
            return [rounding(e / n, extra / n) if isinstance(node, ag.Mean) else rounding(e, extra)]
        if isinstance(node, ag.Gather):
            if np.any(es[1] > 0):
                return [np.full(r.shape, INF)]
            params = AI.gm_view(node, es[0], node.in_type(0), 0)
            idx = AI.gm_view(node, xs[1], node.in_type(1), 0)
            i = gather_indices(idx, params.shape[node.axis], A.get_bool(node, "negative_index_support"))
            return [np.take(params, i, axis=node.axis).reshape(r.shape)]
        if isinstance(node, ag.Transpose):
            src, dst = node.in_type().axis_ids, node.out_type().axis_ids
            return [np.transpose(es[0], [src.index(a) for a in dst])]
        if isinstance(node, ag.Concat):
            axis = node.out_type().axis_ids.index(node.moving_axis()) if len(es) > 1 else 0
            return [np.concatenate(es, axis=axis) if es[0].ndim else es[0]]
        if isinstance(node, ag.Split):
            a = node.moving_axis()
            if a is None:
                return [es[0]]
            j = node.in_type().axis_ids.index(a)
            cuts = np.cumsum([node.out_type(i).repeat_list[j] for i in range(len(node.results))])[:-1]
            return list(np.split(es[0], cuts, axis=j))
        act = _ag_activation(node, xs, es)
        if act is not None:
            return [rounding(act)]
    # a node this model does not know: exact when its inputs are, else unbounded
    return [np.full(o.shape, INF if any(np.any(e > 0) for e in es) else 0.0) for o in outs]


# ---------------------------------------------------------------------------------------
# Graphs
# ---------------------------------------------------------------------------------------


def _block_bounds(
    ip: GeInterpreter, block: Block, inputs: Sequence[np.ndarray], in_bounds: Sequence[np.ndarray]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(output values, output bounds) of a graph body, Data nodes bound by index."""
    val: dict[SSAValue, np.ndarray] = {}
    err: dict[SSAValue, np.ndarray] = {}
    for op in block.ops:
        if isinstance(op, ge.Data | ge.RefData):
            k = A.get_int(op, "index") or 0
            val[op.results[0]] = inputs[k]
            err[op.results[0]] = np.require(in_bounds[k], np.float64, ["C", "W"])
            continue
        if isinstance(op, ge.NetOutput):
            return [val[v] for v in op.operands], [err[v] for v in op.operands]
        rule = _RULES.get(type(op))
        args = [val[v] for v in op.operands]
        bs = [err[v] for v in op.operands]
        outs = list(ip.run_node(op, args))
        if rule is None:  # an op without a rule: exact on exact inputs, else unbounded
            eb = [np.full(o.shape, INF if any(np.any(b > 0) for b in bs) else 0.0) for o in outs]
        else:
            eb = rule(ip, op, args, bs, outs)
        val.update(zip(op.results, outs))
        err.update(zip(op.results, eb))
    raise AssertionError("a graph body ends with NetOutput (the reference ran it)")


def output_error_bounds(graph: ge.GraphOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Per NetOutput value of `graph` on `inputs`, the float64 array of bounds on
    |compiled - reference| (module docstring); inputs carry no error."""
    with np.errstate(all="ignore"):
        ip = ge_interpreter()
        _, bounds = _block_bounds(ip, graph.body.block, inputs, [np.zeros(np.shape(a)) for a in inputs])
    return [np.require(b, np.float64, ["C", "W"]) for b in bounds]
