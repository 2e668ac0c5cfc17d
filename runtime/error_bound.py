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
* a float result within e of overflow may be inf; a comparison, a bool op, a Cast to bool,
  a remainder, an integer division, ArgMax / ArgMin and a gathered index are decided (0, or
  the exact jump of an integer result) wherever their operands lie farther from the
  decision boundary than their bounds, and inf only within that margin; SoftmaxV2,
  LogSoftmaxV2 and LayerNorm carry bounds derived from their conditioning (each rule's
  comment); a sum that is exact in every order (`exact_sum_mask`) has no reordering term.

An inf bound means "undecidable": the element depends on rounding so strongly that no
comparison can judge it; it is never a match (ge-run lists those elements and calls the
comparison inconclusive, docs/tolerance.md). Elements with e = 0 are compared as tightly
as before. The model assumes the compiled program evaluates each pointwise op with the
same formula on the same inputs (as the AscGraph interpreter and the library kernels do);
its only freedom is the order of accumulations. `output_error_bounds(..., independent=True)`
drops that assumption for another implementation of the model (onnxruntime): every op's
own rounding counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.dtypes import float_info, is_float_dtype, numpy_dtype
from ge_dialect.ge import value_dtype
from runtime import ascgraph_interp as AI
from runtime import reference as R
from runtime.graph_interpreter import GeInterpreter
from runtime.interpreter import ge_interpreter
from runtime.numerics import acc_dtype, gather_indices

__all__ = ["anchored_bounds", "bound_rule_of", "finish", "output_error_bounds", "unit_roundoff"]

BoundRule = Callable[[GeInterpreter, Operation, list[np.ndarray], list[np.ndarray], list[np.ndarray]], list[np.ndarray]]
# (interpreter, op, input values, input bounds, output values) -> output bounds (float64, output shapes)

INF = math.inf

# Whether every op's own rounding counts, exact inputs or not (see `output_error_bounds`'s
# `independent`): the bound between two implementations that may each round every op on
# its own (onnxruntime and the compiled program), not only where the orders differ.
_INDEPENDENT: ContextVar[bool] = ContextVar("independent_rounding", default=False)


@contextmanager
def _independent(on: bool) -> Iterator[None]:
    token = _INDEPENDENT.set(on)
    try:
        yield
    finally:
        _INDEPENDENT.reset(token)


def _rounds(bounds: Sequence[np.ndarray]) -> bool:
    """Whether an op's own rounding can differ between the two sides: an input carries an
    error, or every op rounds on its own (`_INDEPENDENT`)."""
    return _INDEPENDENT.get() or any(np.any(b > 0) for b in bounds)


def unit_roundoff(element_type: Attribute) -> float:
    """u of a float element type (half an ulp of 1, eps / 2): f16 2^-11, bf16 2^-8, f32
    2^-24, f64 2^-53, f8E4M3FN 2^-4, f8E5M2 2^-3, f8E8M0FNU 2^-1 (powers of two only); 0
    for integers and bools (exact)."""
    dt = numpy_dtype(element_type)
    if not is_float_dtype(dt):
        return 0.0
    return float(float_info(dt).eps) / 2


def _u_acc(x_dtype: np.dtype) -> float:
    # another implementation (onnxruntime's MLAS) may accumulate a narrow float in its own
    # dtype: with independent rounding, the narrower of the two unit roundoffs
    acc = x_dtype if _INDEPENDENT.get() and is_float_dtype(x_dtype) else acc_dtype(x_dtype)
    return float(float_info(acc).eps) / 2 if is_float_dtype(acc) else 0.0


def _gamma(n: int, u: float) -> float:
    """Higham's gamma_n = n*u / (1 - n*u): the relative error bound of n roundings."""
    if u == 0.0 or n <= 0:
        return 0.0
    nu = n * u
    return nu / (1 - nu) if nu < 1 else INF


def _reorder(n: int, u: float) -> float:
    """2 gamma(n - 1): how far two sums of the same n terms in different orders may lie
    apart. Two terms have one order only (a + b rounds as b + a): 0 for n <= 2, unless every
    op rounds on its own (another implementation may add them in another dtype)."""
    return 0.0 if n <= 2 and not _INDEPENDENT.get() else 2 * _gamma(n - 1, u)


def _quantum(v: np.ndarray) -> np.ndarray:
    """The largest power of two dividing each float64 value (its last significant bit);
    inf for 0 (it constrains no sum), NaN for inf and NaN."""
    with np.errstate(all="ignore"):
        m, ex = np.frexp(v)
        big = np.ldexp(np.abs(m), 53).astype(np.int64)  # the 53-bit significand as an integer
        low = (big & -big).astype(np.float64)
        q = np.ldexp(low, ex - 53)
        return np.where(v == 0, INF, np.where(np.isfinite(v), q, np.nan))


def exact_sum_mask(x: np.ndarray, axes: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """Where a sum of `x` over `axes` is exact in every order of accumulation: every term
    a multiple of q = the smallest quantum among them, and sum|x| < q * 2^p (p the
    accumulation dtype's significand bits). Then every partial sum, in any order, is a
    multiple of q below q * 2^p: representable, so no addition rounds and every order gives
    the exact sum (the element recomputed exactly settles it: its reordering bound is 0)."""
    acc = acc_dtype(np.dtype(x.dtype))
    if not is_float_dtype(acc):
        return np.ones(np.sum(np.zeros(x.shape), axis=axes, keepdims=keepdims).shape, dtype=bool)
    p = int(float_info(acc).nmant) + 1
    xx = _f64(x)
    with np.errstate(all="ignore"):
        q = np.min(_quantum(xx), axis=axes, keepdims=keepdims, initial=INF)
        total = np.sum(np.abs(xx), axis=axes, keepdims=keepdims) * (1 + 1e-12)
        return (total < np.ldexp(q, p)) | (total == 0)


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def _zeros(v: SSAValue | np.ndarray) -> np.ndarray:
    shape = v.shape if isinstance(v, np.ndarray) else tuple(v.type.get_shape())  # type: ignore[attr-defined]
    return np.zeros(shape, dtype=np.float64)


def _fmax(v: SSAValue) -> float:
    """The largest finite value of `v`'s float dtype (inf for integers: no overflow to inf)."""
    dt = numpy_dtype(value_dtype(v))
    return float(float_info(dt).max) if is_float_dtype(dt) else INF


def finish(
    element_type: Attribute,
    r: np.ndarray,
    e_prop: np.ndarray,
    extra: np.ndarray | float = 0.0,
    exact: np.ndarray | None = None,
) -> np.ndarray:
    """The bound of a result `r` of `element_type`: the propagated input errors `e_prop`,
    plus `extra` (a reordering term), plus the op's own rounding 2u|r| wherever either is
    nonzero; inf where r +- e may overflow the dtype or where the reference is NaN but an
    input error could have made it a number (0 where the reference is NaN from exact
    inputs: NaN must equal NaN); whole units for integer results.

    `exact`, where the rule knows it: a bound on the magnitude of the reference's result
    before its rounding. Rounding to nearest overflows only at fmax + half an ulp of fmax
    (IEEE 754 4.3.1), so a result within `e_prop + extra` of a value below that threshold
    stays finite on the other side too, even at fmax itself (a mask of -fmax added to a
    score: both sides round to -fmax). Without it, |r| + e > fmax is taken as overflow:
    r alone does not say how far below the threshold the unrounded value was."""
    u = unit_roundoff(element_type)
    rr = _f64(r)
    with np.errstate(invalid="ignore", over="ignore"):
        e_prop = np.where(np.isnan(e_prop), INF, e_prop)
        moved = e_prop > 0
        has_err = moved | _INDEPENDENT.get()
        e = e_prop + extra
        if u:
            # rounding to nearest moves a result by at most u|r|, plus half the subnormal
            # spacing below the normal range (which matters for f16, float8): the two
            # sides' roundings differ by twice that
            fi = float_info(numpy_dtype(element_type))
            step = float(fi.smallest_subnormal)
            e = e + np.where(has_err | (e > 0), 2 * u * np.abs(rr) + step, 0.0)
            fmax = float(fi.max)
            if exact is None:
                over = np.abs(rr) + e > fmax
            else:  # the threshold: fmax + u 2^floor(log2 fmax) (f32: 2^128 - 2^103)
                over = exact + e_prop + extra >= fmax + math.ldexp(u, math.frexp(fmax)[1] - 1)
            e = np.where((e > 0) & over, INF, e)
        else:  # an integer or bool result: a fractional error rounds up to whole units
            e = np.ceil(e)
        e = np.where(np.isnan(rr), np.where(moved, INF, 0.0), np.where(np.isnan(e), INF, e))
    return np.require(np.broadcast_to(e, r.shape), np.float64, ["C", "W"])


def _finish(
    op: Operation,
    i: int,
    r: np.ndarray,
    e_prop: np.ndarray,
    extra: np.ndarray | float = 0.0,
    exact: np.ndarray | None = None,
) -> np.ndarray:
    return finish(value_dtype(op.results[i]), r, e_prop, extra, exact)


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
        if dst.kind == "b":  # x != 0 is decided unless 0 lies within the bound: undecidable there
            return np.where((e > 0) & (np.abs(xx) <= e), INF, 0.0)
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
            if a.dtype.kind in "iu":
                return _int_div_bound(aa, bb, ea, eb)
            den = np.abs(bb) * (np.abs(bb) - eb)
            d = (np.abs(bb) * ea + np.abs(aa) * eb) / den
            return np.where((ea > 0) | (eb > 0), np.where(np.abs(bb) > eb, d, INF), 0.0)
        if name in ("Maximum", "Minimum"):
            return np.maximum(ea, eb)
        if name == "Pow":
            return _pow_bound(aa, bb, ea, eb)
        if name in ("Eq", "Ne", "Gt", "Ge", "Lt", "Le"):
            # decided wherever a - b keeps its sign (or stays 0) over the box: |a - b| > ea + eb,
            # or both exact; within that margin the answer may flip: undecidable (inf)
            return np.where((ea + eb > 0) & (np.abs(aa - bb) <= ea + eb), INF, 0.0)
    raise KeyError(name)


def _quotient_range(
    a: np.ndarray, b: np.ndarray, ea: np.ndarray, eb: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lo, hi, ok) of a' / b' over |a' - a| <= ea, |b' - b| <= eb, in float64: a / b is
    monotone in a and in b while b keeps its sign, so the box's corners span it; ok is
    False where b's interval holds 0."""
    corners = [(a + sa * ea) / (b + sb * eb) for sa in (-1.0, 1.0) for sb in (-1.0, 1.0)]
    c = np.stack(np.broadcast_arrays(*corners))
    return c.min(axis=0), c.max(axis=0), np.abs(b) > eb


def _int_div_bound(a: np.ndarray, b: np.ndarray, ea: np.ndarray, eb: np.ndarray) -> np.ndarray:
    # C's division trunc(a / b) is monotone in the quotient: over the box it moves by at
    # most the largest jump of trunc between the quotient's extremes; a divisor interval
    # holding 0 is undecidable
    lo, hi, ok = _quotient_range(a, b, ea, eb)
    lo, hi = lo - 1e-12 * np.abs(lo), hi + 1e-12 * np.abs(hi)  # float64's own rounding of the corners
    q = np.trunc(a / b)
    d = np.maximum(np.abs(np.trunc(lo) - q), np.abs(np.trunc(hi) - q))
    return np.where((ea > 0) | (eb > 0), np.where(ok, d, INF), 0.0)


def remainder_bound(a: np.ndarray, b: np.ndarray, ea: np.ndarray, eb: np.ndarray, floored: bool) -> np.ndarray:
    """max |r(a', b') - r(a, b)| for r = a - q(a / b) * b, q = trunc (Mod) or floor
    (FloorMod). Where q is one integer over the whole box (q is monotone in the quotient,
    so equal at the quotient range's ends means constant over it), r' - r = (a' - a) - q (b' - b):
    at most ea + |q| eb. Elsewhere r jumps by |b| at a decision boundary within the
    bounds: undecidable (inf)."""
    aa, bb = _f64(a), _f64(b)
    with np.errstate(all="ignore"):
        lo, hi, ok = _quotient_range(aa, bb, ea, eb)
        lo, hi = lo - 1e-12 * np.abs(lo), hi + 1e-12 * np.abs(hi)  # float64's own rounding of the corners
        f = np.floor if floored else np.trunc
        # floor and trunc are monotone: equal at the range's ends, constant over it
        same = ok & (f(lo) == f(hi))
        d = ea + np.abs(f(aa / bb)) * eb
        return np.where((ea > 0) | (eb > 0), np.where(same, d, INF), 0.0)


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


@_rule(*ge.CONTROL_OPS)
def _control_op(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    """If, Case, While, For run on the host with the reference's own semantics (the dynamic
    executor; docs/control_flow.md): exact on exact inputs. Bounds are not carried through
    their subgraphs yet (a branch or a trip count may hinge on an inexact value): an input
    that carries a bound makes every output undecidable, never a silent match."""
    exact = not any(np.any(b > 0) for b in bounds)
    return [np.full(o.shape, 0.0 if exact else INF) for o in outs]


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


def _exact_infinities(e: np.ndarray, r: np.ndarray, v64: np.ndarray, exact_in: np.ndarray) -> np.ndarray:
    """`e` with 0 where the result `r` (of a dtype narrower than float64) is the infinity
    its float64 evaluation `v64` on exact inputs (`exact_in`) also gives: a pole (log 0,
    x / 0), an infinite operand, or a value beyond float64's range, far past the narrow
    dtype's overflow threshold; every implementation rounds it to that infinity (IEEE 754
    7.3, 7.4), even one that rounds each op on its own (`_INDEPENDENT`)."""
    if r.dtype == np.float64 or not is_float_dtype(r.dtype):
        return e
    rr = _f64(r)
    with np.errstate(invalid="ignore"):
        same = np.isinf(v64) & np.isinf(rr) & (np.sign(v64) == np.sign(rr)) & exact_in
    return np.where(same, 0.0, e) if np.any(same) else e


@_rule(*(getattr(ge, n) for n in UNARY_F64))
def _unary(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    name = ge.ge_type(op)
    e = _finish(op, 0, outs[0], unary_bound(name, args[0], bounds[0], _fmax(op.results[0])))
    if _INDEPENDENT.get() and np.any(np.isinf(e)):
        with np.errstate(all="ignore"):
            v64 = UNARY_F64[name][0](_f64(args[0]))
        e = _exact_infinities(e, outs[0], np.broadcast_to(v64, e.shape), bounds[0] == 0)
    return [e]


@_rule(ge.Add, ge.Sub, ge.Mul, ge.RealDiv, ge.Div, ge.Maximum, ge.Minimum, ge.Pow)
def _binary(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    name = ge.ge_type(op)
    e = binary_bound(name, args[0], args[1], bounds[0], bounds[1])
    exact = None
    if name in ("Add", "Sub") and is_float_dtype(outs[0].dtype):
        # the unrounded sum, from float64 (one rounding of 2^-53 relative: f32, f16, bf16
        # inputs never overflow it); lets `finish` keep a sum at +-fmax finite
        with np.errstate(all="ignore"):
            a, b = _f64(args[0]), _f64(args[1])
            exact = np.abs(a + b if name == "Add" else a - b) * (1 + 2.0**-52)
    res = _finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), exact=exact)
    if _INDEPENDENT.get() and name in ("Mul", "RealDiv", "Div") and np.any(np.isinf(res)):
        with np.errstate(all="ignore"):
            a, b = _f64(args[0]), _f64(args[1])
            v64 = np.broadcast_to(a * b if name == "Mul" else a / b, res.shape)
        res = _exact_infinities(res, outs[0], v64, np.broadcast_to((bounds[0] == 0) & (bounds[1] == 0), res.shape))
    return [res]


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
    extra = _reorder(len(args), _u_acc(args[0].dtype)) * mag
    if args and not _INDEPENDENT.get():  # exact in every order on exact terms (ReduceSumD's rule)
        stacked = np.stack([np.broadcast_to(a, shape) for a in args])
        extra = np.where((e == 0) & exact_sum_mask(stacked, (0,), False), 0.0, extra)
    return [_finish(op, 0, outs[0], e, extra)]


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
    # the input forms (docs/onnx.md): their D form's bound with the axes input's values
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
        g = _reorder(n, _u_acc(x.dtype))  # n terms: n - 1 roundings, in any order
        ax = np.abs(_f64(x))
        if kind == "ReduceProdD":
            hi = np.prod(ax + ex, axis=axes, keepdims=keep)
            e, extra = hi - np.prod(ax, axis=axes, keepdims=keep), g * hi
        else:
            e, extra = np.sum(ex, axis=axes, keepdims=keep), g * np.sum(ax, axis=axes, keepdims=keep)
            if kind == "ReduceMeanD":
                e, extra = (e / n, extra / n) if n else (np.zeros_like(e), 0.0)
            elif g and not _INDEPENDENT.get():  # a sum exact in every order on exact terms: no freedom
                extra = np.where((e == 0) & exact_sum_mask(x, axes, keep), 0.0, extra)
    return [_finish(op, 0, outs[0], e, extra)]


# The most bytes of float64 magnitudes of a weight held at once (_abs_product): a block
ABS_BLOCK_BYTES = 16 << 20


def _abs_product(
    product: Callable[[np.ndarray, np.ndarray], np.ndarray],
    p: np.ndarray,
    w: np.ndarray,
    w_axis: int,
    out_axis: int,
    terms: int,
) -> np.ndarray:
    """product(p, |w|) with |w| in float64 (each output element a sum of `terms` products
    of p's and |w|'s elements), |w| made a block of `w`'s output-feature axis `w_axis` at
    a time (each block's result is the same slices of the result's `out_axis`), at most
    ABS_BLOCK_BYTES each (or one slice): a weight is never held whole in float64 (two
    more copies of an f32 model: tests/tools/test_weights.py). A weight of one block is the whole product,
    as before.

    Blocked, it is never below the whole product: BLAS sums a block's columns in
    another order in the last bits, but each order's float64 sum of k non-negative
    products lies within gamma_64(k) of the exact one (Higham, a dot product), so the
    blocked sum times (1 + 4 gamma_64(k)), rounded, is at least the whole one; the rules
    that use it only add, scale and compare non-negative values (rounding is monotone):
    their bounds are at least the ones before, larger by at most some 6 gamma_64(k)
    relative (tests/runtime/test_error_bound_blocks.py checks both sides)."""
    n = w.shape[w_axis]
    per_slice = 8 * (w.size // n) if n else 8
    step = max(1, ABS_BLOCK_BYTES // max(per_slice, 1))
    if n <= step:
        return product(p, _abs_f64(w))
    count = -(-n // step)  # blocks of at most step slices
    parts = []
    for i in range(count):
        part = [slice(None)] * w.ndim
        part[w_axis] = slice(i * n // count, (i + 1) * n // count)
        parts.append(product(p, _abs_f64(w[tuple(part)])))
    out = np.concatenate(parts, axis=out_axis)
    out *= 1 + 4 * _gamma(terms, 2.0**-53)
    return out


def _carries(e: np.ndarray) -> bool:
    """np.any(e > 0) without a temporary of e's size: a weight's bound (zeros as large
    as the weight, in float64) read in place (fmax skips NaN, as NaN > 0 is false)."""
    return bool(np.fmax.reduce(e, axis=None, initial=0.0) > 0)


def _abs_f64(w: np.ndarray) -> np.ndarray:
    """|w| in float64, one new array (np.abs(_f64(w)) makes two when w is narrower)."""
    m = np.array(w, dtype=np.float64)
    return np.abs(m, out=m)


@_rule(ge.MatMul)
def _matmul(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # x2 (the weight) in magnitudes a block of its output columns at a time (_abs_product)
    a = np.abs(_f64(args[0]))
    ea, eb = bounds[0], bounds[1]
    k = args[0].shape[0 if A.get_bool(op, "transpose_x1") else 1]
    n_axis = 0 if A.get_bool(op, "transpose_x2") else 1

    def mm(p: np.ndarray, q: np.ndarray, need: np.ndarray) -> np.ndarray | float:
        return R.matmul_nd(op, p, q) if _carries(need) else 0.0  # inf * 0 is no error

    def mm_w(p: np.ndarray) -> np.ndarray:  # p @ |x2|
        return _abs_product(lambda p_, q: R.matmul_nd(op, p_, q), p, args[1], n_axis, -1, k)

    with np.errstate(all="ignore"):
        e = mm(a, eb, eb) + (mm_w(ea) if _carries(ea) else 0.0) + mm(ea, eb, ea)
        if len(args) == 3:
            e = e + bounds[2].reshape(-1)
        extra = 2 * _gamma(k, _u_acc(args[0].dtype)) * mm_w(a)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra)]


def _conv_like(
    op: Operation,
    conv: Callable[[Operation, np.ndarray, np.ndarray], np.ndarray],
    args: list[np.ndarray],
    bounds: list[np.ndarray],
    outs: list[np.ndarray],
    xi: int,
    terms: int,
    k_axis: int,
) -> list[np.ndarray]:
    """Conv2D's and Conv2DTranspose's rule (x at operand `xi`, the filter after it, an
    optional bias [K] after that): |x| * e_w + e_x * |w| + e_x * e_w through the
    convolution itself, plus the bias's bound per channel, plus the rounding of a sum of
    `terms` products (2 * gamma(terms) * conv(|x|, |w|)). |w| is made a block of the
    filter's output channels (its axis `k_axis`) at a time (_abs_product), where the op
    has one group (a block of a grouped filter would need its group's input channels)."""
    x, w_raw = np.abs(_f64(args[xi])), args[xi + 1]
    ex, ew = bounds[xi], bounds[xi + 1]
    grouped = (A.get_int(op, "groups", 1) or 1) != 1

    def cv(p: np.ndarray, q: np.ndarray, need: np.ndarray) -> np.ndarray | float:
        return conv(op, p, q) if _carries(need) else 0.0  # inf * 0 is no error

    def cv_w(p: np.ndarray) -> np.ndarray:  # conv(p, |w|)
        if grouped:
            return conv(op, p, _abs_f64(w_raw))
        return _abs_product(lambda p_, q: conv(op, p_, q), p, w_raw, k_axis, 1, terms)

    with np.errstate(all="ignore"):
        e = cv(x, ew, ew) + (cv_w(ex) if _carries(ex) else 0.0) + cv(ex, ew, ex)
        if len(args) == xi + 3:
            e = e + bounds[xi + 2].reshape(1, -1, 1, 1)
        extra = 2 * _gamma(terms, _u_acc(args[xi].dtype)) * cv_w(x)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra)]


@_rule(ge.Conv2D)
def _conv2d(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    _, cg, kh, kw = args[1].shape  # each output sums C / groups * kh * kw products
    return _conv_like(op, R.conv2d_nchw, args, bounds, outs, 0, cg * kh * kw, 0)


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
    # the input forms (docs/onnx.md): data movement by the values of inputs 1.. (shape, sizes)
    if not _index_inputs_exact(bounds, 1):
        return [np.full(o.shape, INF) for o in outs]
    return [np.require(b, np.float64, ["C", "W"]) for b in ip.run_node(op, [_f64(bounds[0]), *args[1:]])]


def index_bound_spread(ei: np.ndarray, moved: np.ndarray, lead: int, batch: int, trail: int) -> np.ndarray:
    """The gathered bounds `moved` (output shaped: x.shape[:axis] + indices.shape[batch:] +
    x.shape[axis + 1:]), inf at every output element whose index carries an error
    (`ei`, the indices' bounds): another index picks another row, undecidable there."""
    shape = ei.shape[:batch] + (1,) * (lead - batch) + ei.shape[batch:] + (1,) * trail
    return np.where(ei.reshape(shape) > 0, INF, moved)


@_rule(ge.Gather, ge.GatherV2)
def _gather(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    assert isinstance(op, ge.GatherBase)
    if len(bounds) > 2 and np.any(bounds[2] > 0):  # the axis itself may differ
        return [np.full(outs[0].shape, INF)]
    moved = _f64(ip.run_node(op, [bounds[0], *args[1:]])[0])
    if not np.any(bounds[1] > 0):
        return [np.require(moved, np.float64, ["C", "W"])]
    x, idx = args[0], args[1]
    axis = int(args[2].reshape(-1)[0]) if isinstance(op, ge.GatherV2) else 0
    axis = axis + x.ndim if axis < 0 else axis
    b = op.batch_dims()
    b = b + idx.ndim if b < 0 else b
    return [np.require(index_bound_spread(bounds[1], moved, axis, b, x.ndim - axis - 1), np.float64, ["C", "W"])]


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
        extra = _reorder(k, _u_acc(args[0].dtype)) * R.pool2d(op, np.abs(_f64(args[0])), "avg")
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
    # x2 in magnitudes a block of its output columns at a time (_abs_product)
    a = np.abs(_f64(args[0]))
    ea, eb = bounds[0], bounds[1]
    k = args[0].shape[-2 if A.get_bool(op, "adj_x1") else -1]
    n_axis = args[1].ndim - (2 if A.get_bool(op, "adj_x2") else 1)

    def mm(p: np.ndarray, q: np.ndarray, need: np.ndarray) -> np.ndarray | float:
        return R.batch_matmul_nd(op, p, q) if _carries(need) else 0.0  # inf * 0 is no error

    def mm_w(p: np.ndarray) -> np.ndarray:  # p @ |x2| over the batch (a vector x2: whole)
        if args[1].ndim < 2:
            return R.batch_matmul_nd(op, p, _abs_f64(args[1]))
        return _abs_product(lambda p_, q: R.batch_matmul_nd(op, p_, q), p, args[1], n_axis, -1, k)

    with np.errstate(all="ignore"):
        e = mm(a, eb, eb) + (mm_w(ea) if _carries(ea) else 0.0) + mm(ea, eb, ea)
        if len(args) == 3:
            e = e + bounds[2]
        extra = 2 * _gamma(k, _u_acc(args[0].dtype)) * mm_w(a)
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape), extra)]


@_rule(ge.ArgMaxV2, ge.ArgMin)
def _arg(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # the index of the largest (smallest) value is decided where that value, moved down
    # (up) by its bound, still beats every other value moved up (down) by its own; else
    # another index may win: undecidable
    if np.any(bounds[1] > 0):
        return [np.full(outs[0].shape, INF)]
    if not np.any(bounds[0] > 0):
        return [_zeros(outs[0])]
    sign = 1.0 if isinstance(op, ge.ArgMaxV2) else -1.0
    x, ex = sign * _f64(R.upcast([args[0]])[0]), bounds[0]
    axis = int(args[1].reshape(-1)[0])
    axis = axis + x.ndim if axis < 0 else axis
    with np.errstate(all="ignore"):
        win = np.expand_dims(np.argmax(x, axis=axis), axis)
        low = np.take_along_axis(x - ex, win, axis=axis)
        up = x + ex
        np.put_along_axis(up, win, -INF, axis=axis)
        rival = np.max(up, axis=axis, keepdims=True, initial=-INF)
        exact = np.max(ex, axis=axis, keepdims=True, initial=0.0) == 0  # a row without error: as the reference
        e = np.where((low > rival) | exact, 0.0, INF)
    return [np.require(np.squeeze(e, axis=axis).reshape(outs[0].shape), np.float64, ["C", "W"])]


@_rule(ge.GatherElements)
def _gather_elements(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # the output has the indices' shape: an element whose index may differ is undecidable
    moved = _f64(ip.run_node(op, [_f64(bounds[0]), args[1]])[0])
    return [np.require(np.where(bounds[1] > 0, INF, moved), np.float64, ["C", "W"])]


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
    if isinstance(op, ge.Resize) and (
        A.get_str(op, "mode") == "cubic" or A.get_str(op, "coordinate_transformation_mode") == "tf_crop_and_resize"
    ):
        return [_resize_by_matrices(op, args, bounds, outs)]
    resize_args = args if isinstance(op, ge.Resize) else None
    with np.errstate(all="ignore"):
        e = R.resize_nchw(op, _f64(bounds[0]), oh, ow, resize_args)
        if isinstance(op, ge.ResizeNearestNeighborV2) or (
            isinstance(op, ge.Resize) and (A.get_str(op, "mode") or "nearest") == "nearest"
        ):
            return [np.require(e, np.float64, ["C", "W"])]
        u = float(np.finfo(np.float32).eps) / 2
        extra = np.where(e > 0, 2 * 6 * u * R.resize_nchw(op, np.abs(_f64(args[0])), oh, ow, resize_args), 0.0)
    return [_finish(op, 0, outs[0], e, extra)]


def _resize_by_matrices(op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]):
    """ge.Resize's cubic and tf_crop_and_resize outputs: each is sum_ij mh[p, i] x[i, j]
    mw[q, j] (weights of either sign for cubic): the bounds combine by |mh| and |mw|, plus
    the roundings of an implementation that sums the (at most 4 x 4) products in the
    working precision (at most 8 additions and 3 products deep: 2 * 12 u of the sum of
    |terms|); an extrapolated output is the exact extrapolation_value."""
    scales, out = R.onnx_resize_shape(op, args)
    mh, mw, oh, ow = R.onnx_resize_matrices(op, args, scales, out)
    ah, aw = np.abs(mh), np.abs(mw)
    with np.errstate(all="ignore"):
        e = np.einsum("ph,nchw,qw->ncpq", ah, _f64(bounds[0]), aw, optimize=True)
        mag = np.einsum("ph,nchw,qw->ncpq", ah, np.abs(_f64(args[0])), aw, optimize=True)
    u = float(np.finfo(np.float32).eps) / 2
    outside = oh.reshape(-1, 1) | ow.reshape(1, -1)
    e = np.where(outside, 0.0, e)
    extra = np.where(outside, 0.0, 2 * 12 * u * mag)
    return _finish(op, 0, outs[0], e, extra)


@_rule(ge.GridSampler2D, ge.GridSampler3D)
def _grid_sampler(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # the output sums taps of x with weights from the grid: x's bounds combine by
    # |weights|, plus the roundings of summing the (at most 4^r) products in float32 (2 * (taps
    # + 2 r) u of the sum of |terms|); nearest moves elements. A grid that may differ moves
    # the sampled positions (nearest: another pixel): undecidable (infinite)
    x, grid = args
    if np.any(bounds[1] > 0):
        return [np.full(outs[0].shape, INF)]
    with np.errstate(all="ignore"):
        e = R.grid_sample(op, _f64(bounds[0]), grid, absolute=True)
        if (A.get_str(op, "interpolation_mode") or "bilinear") == "nearest":
            return [np.require(e, np.float64, ["C", "W"])]
        r = grid.shape[-1]
        per_axis = 2 if (A.get_str(op, "interpolation_mode") or "bilinear") == "bilinear" else 4
        u = float(np.finfo(np.float32).eps) / 2
        extra = 2 * (per_axis**r + 2 * r) * u * R.grid_sample(op, np.abs(_f64(x)), grid, absolute=True)
    return [_finish(op, 0, outs[0], e, extra)]


@_rule(ge.Conv2DTranspose)
def _conv2d_transpose(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # Conv2D's rule: each output sums at most C / groups * kh * kw products
    g = A.get_int(op, "groups", 1) or 1
    _, _, kh, kw = args[2].shape
    return _conv_like(op, R.conv2d_transpose_nchw, args, bounds, outs, 1, args[1].shape[1] // g * kh * kw, 1)


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


def _decided_truth(x: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(x != 0, decided) of a logical operand: its truth is decided where it carries no
    error or lies farther from 0 than its bound."""
    xx = _f64(x)
    return xx != 0, (e == 0) | (np.abs(xx) > e)


def logical_bound(name: str, xs: Sequence[np.ndarray], es: Sequence[np.ndarray]) -> np.ndarray:
    """0 where a LogicalAnd / LogicalOr / LogicalNot result is decided, inf where it may
    flip: And is decided when both operands are, or one is decided False; Or when both
    are, or one is decided True; Not when its operand is."""
    (t0, d0), *rest = (_decided_truth(x, e) for x, e in zip(xs, es))
    if name == "LogicalNot":
        decided = d0
    else:
        t1, d1 = rest[0]
        settle = ~t0 & d0 | ~t1 & d1 if name == "LogicalAnd" else t0 & d0 | t1 & d1
        decided = d0 & d1 | settle
    return np.where(decided, 0.0, INF)


_LOGICAL_NAMES: dict[type[Operation], str] = {
    ge.LogicalAnd: "LogicalAnd", ge.LogicalOr: "LogicalOr", ge.LogicalNot: "LogicalNot",
    ag.LogicalAnd: "LogicalAnd", ag.LogicalOr: "LogicalOr", ag.LogicalNot: "LogicalNot",
}  # fmt: skip


@_rule(ge.LogicalAnd, ge.LogicalOr, ge.LogicalNot)
def _logical(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    e = logical_bound(_LOGICAL_NAMES[type(op)], args, bounds)
    return [np.require(np.broadcast_to(e, outs[0].shape), np.float64, ["C", "W"])]


@_rule(ge.IsNan, ge.IsInf)
def _is_special(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # a finite bound keeps a value finite and a number (finish gives inf wherever r +- e
    # may overflow or turn NaN): decided there; an infinite bound is undecidable
    return [np.where(np.isinf(bounds[0]), INF, 0.0)]


@_rule(ge.Mod, ge.FloorMod)
def _remainder(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    e = remainder_bound(args[0], args[1], bounds[0], bounds[1], isinstance(op, ge.FloorMod))
    return [_finish(op, 0, outs[0], np.broadcast_to(e, outs[0].shape))]


def _acc_u(x: np.ndarray) -> float:
    """u of the dtype a softmax or LayerNorm kernel computes `x` in (runtime/activations.py:
    the accumulation dtype)."""
    return _u_acc(np.dtype(x.dtype)) if is_float_dtype(x.dtype) else 0.0


class _SoftmaxTerms:
    """What the SoftmaxV2 and LogSoftmaxV2 rules share, over the op's axes: s = x - max
    (`sv`), the softmax y, D = max e (`big_d`), W = sum y e (`w_e`), log S = log sum y e^e
    (`log_s_e`), the computing dtype's u and sum y |s| (`w`), and n, the terms per sum;
    `shift`, how far the maximum itself may move (M - max(x - e) down, max(x + e) - M up),
    and `p_hi` = y e^e = exp(s - lse + e) evaluated as such, so that an element whose
    exponential underflows (a masked score, x = -fmax, with a large bound) weighs nothing
    instead of 0 * inf."""

    def __init__(self, op: ge.SoftmaxBase, x: np.ndarray, ex: np.ndarray) -> None:
        axes = tuple(op.norm_axes() or [x.ndim - 1])
        self.n = math.prod(x.shape[a] for a in axes)
        a = _f64(R.upcast([x])[0])
        with np.errstate(all="ignore"):
            self.sv = a - np.max(a, axis=axes, keepdims=True)
            p = np.exp(self.sv)
            self.lse = np.log(np.sum(p, axis=axes, keepdims=True))
            self.y = p / np.sum(p, axis=axes, keepdims=True)
            self.big_d = np.max(ex, axis=axes, keepdims=True, initial=0.0)
            top = np.max(a, axis=axes, keepdims=True)
            self.shift = np.maximum(
                top - np.max(a - ex, axis=axes, keepdims=True), np.max(a + ex, axis=axes, keepdims=True) - top
            )
            self.p_hi = np.exp(self.sv - self.lse + ex)
            self.w_e = np.sum(np.where(self.y > 0, self.y * ex, 0.0), axis=axes, keepdims=True)
            # y e^e - y: by expm1 where e is small (no cancellation), else as the difference
            grown = np.where(ex < 1, self.y * np.expm1(ex), self.p_hi - self.y)
            self.log_s_e = np.log1p(np.sum(grown, axis=axes, keepdims=True))
            self.w = np.sum(self.y * np.abs(self.sv), axis=axes, keepdims=True)
        self.u = _acc_u(x)


@_rule(ge.SoftmaxV2)
def _softmax(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # y_i = exp(x_i) / sum_j exp(x_j) over the axes. With inputs moved by d_j, |d_j| <= e_j
    # and D = max_j e_j over the axes: y_i' / y_i = exp(d_i) / sum_j y_j exp(d_j), whose
    # denominator lies in [e^-D, e^D], so |y_i' - y_i| <= y_i (e^(2D) - 1). Tighter, and
    # what is used: the denominator is >= exp(sum_j y_j d_j) >= e^-W (Jensen; W = sum_j y_j
    # e_j) and <= S = sum_j y_j e^(e_j), so y_i' / y_i lies in [e^-e_i / S, e^(e_i + W)]:
    # |y_i' - y_i| <= y_i max(e^(e_i + W) - 1, 1 - e^-e_i / S), and never more than
    # max(y_i, 1 - y_i) (both lie in [0, 1]). And y_i' = exp(s_i') / sum_j exp(s_j') <=
    # exp(s_i') (the largest term is exp(0) = 1), with s_i' = x_i' - max(x') <= s_i + e_i +
    # G, G = M - max_j (x_j - e_j) the most the maximum M may drop: |y_i' - y_i| <=
    # max(y_i, min(1, exp(s_i + e_i + G))), which settles an element whose exponential
    # underflows on both sides however large its bound (a score masked by -fmax: y = 0).
    # Its own rounding (u of the computing dtype) on each side: s = x - max rounds by
    # u|s|, which moves exp(s) by u|s| relatively; exp itself by 2u; the sum of n
    # positive terms by gamma(n) plus the terms' own relative errors, weighted by y
    # (u * sum_j y_j |s_j| + 2u); the division by u: relatively
    # (|s_i| + sum_j y_j |s_j| + 6) u + gamma(n), on the perturbed side with
    # |s_j'| <= |s_j| + e_j + H (H = `shift`, the most the maximum moves either way) and
    # y_j' <= y_j e^(e_j + W): sum_j y_j' |s_j'| <= e^W sum_j y_j e^(e_j) (|s_j| + e_j + H),
    # and never more than max_j (|s_j| + e_j + H) (the y_j' sum to 1).
    assert isinstance(op, ge.SoftmaxBase)
    x, ex = args[0], bounds[0]
    if x.ndim == 0 or x.size == 0 or not _rounds(bounds):  # one element is 1 exactly
        return [_zeros(outs[0])]
    t = _SoftmaxTerms(op, x, ex)
    sv, y, big_d, w, u, n = t.sv, t.y, t.big_d, t.w, t.u, t.n
    axes = tuple(op.norm_axes() or [x.ndim - 1])
    with np.errstate(all="ignore"):
        a = _f64(R.upcast([x])[0])
        top = np.max(a, axis=axes, keepdims=True)
        drop = top - np.max(a - ex, axis=axes, keepdims=True)
        y_hi = np.minimum(1.0, np.exp(sv + ex + drop))  # y' <= y_hi
        grow = np.maximum(np.expm1(ex + t.w_e), -np.expm1(-(ex + t.log_s_e)))
        by_ratio = np.where(y > 0, y * grow, INF)
        e = np.minimum(np.minimum(by_ratio, np.maximum(y, 1 - y)), np.maximum(y, y_hi))
        e = np.where(ex + big_d > 0, e, 0.0)
        rel = (np.abs(sv) + w + 6) * u + _gamma(n, u)
        mag_p = np.abs(sv) + ex + t.shift
        w_p = np.minimum(
            np.exp(t.w_e) * np.sum(np.where(t.p_hi > 0, t.p_hi * mag_p, 0.0), axis=axes, keepdims=True),
            np.max(mag_p, axis=axes, keepdims=True),
        )
        rel_p = (mag_p + w_p + 6) * u + _gamma(n, u)
        extra = np.where(y > 0, y * rel, 0.0) + np.where(y + e > 0, (y + e) * rel_p, 0.0)
        e = np.where(np.isnan(e) | np.isnan(extra), INF, e)
    return [_finish(op, 0, outs[0], e, extra)]


@_rule(ge.LogSoftmaxV2)
def _log_softmax(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # z_i = x_i - log sum_j exp(x_j): log-sum-exp moves by at most max_j |d_j| <= D (its
    # gradient is the softmax, nonnegative and summing to 1), so |z_i' - z_i| <= e_i + D.
    # Tighter, and what is used: it moves by log sum_j y_j exp(d_j), which lies in
    # [-W, log S] (SoftmaxV2's W and S), so |z_i' - z_i| <= e_i + max(W, log S).
    # Own rounding: s = x - max by u|s|; the sum's relative error as in SoftmaxV2's rule
    # (gamma(n) + (sum_j y_j |s_j| + 3) u) moves its log by about as much absolutely; the log
    # rounds by u|L| and the subtraction by u|z|: (|s_i| + |L| + |z_i| + w + 4) u + gamma(n),
    # on the perturbed side with every magnitude widened by 2D.
    assert isinstance(op, ge.SoftmaxBase)
    x, ex = args[0], bounds[0]
    if x.ndim == 0 or x.size == 0 or not _rounds(bounds):  # one element is 0 exactly
        return [_zeros(outs[0])]
    t = _SoftmaxTerms(op, x, ex)
    with np.errstate(all="ignore"):
        z = t.sv - t.lse
        e = ex + np.maximum(t.w_e, t.log_s_e)
        mag = np.abs(t.sv) + np.abs(t.lse) + np.abs(z) + t.w + 4
        extra = (2 * mag + 8 * t.big_d + 2 * ex) * t.u * 1.01 + 2 * _gamma(t.n, t.u)
        e = np.where(np.isnan(e), INF, e)
    return [_finish(op, 0, outs[0], e, extra)]


@_rule(ge.LayerNorm)
def _layer_norm(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # Over the n normalised elements: c = x - mean, var = mean(c^2), s = sqrt(var + eps),
    # y = gamma c / s + beta. Inputs moved by d (|d_j| <= e_j, D = max e_j, Q = rms e_j):
    # c moves by d - mean(d): at most e_i + mean(e) <= 2D per element and Q in rms
    # (centering projects);
    # sqrt(var) = rms(c) moves by at most Q, and s = sqrt(var + eps) (1-Lipschitz in
    # sqrt(var)) too, so s' >= s_lo = max(s - Q, sqrt(eps)). Then
    #   |c_i'/s' - c_i/s| <= |c_i' - c_i| / s' + |c_i| |s - s'| / (s s')
    #                     <= (e_i + mean(e) + |xh_i| Q) / s_lo
    # with xh = c / s, bounded through eps alone when the variance is small. y adds
    # |xh'| e_gamma + e_beta. Own rounding on each side (u of the computing dtype): the
    # mean by gamma(n) mean|x| + u|mean| (= rc), c_i by rc + u|c_i|, var by
    # gamma(n + 1) var + 2 mean|c| rc + rc^2 (rv), s by rv / (s + s_lo) + 2u s; xh by
    # (rc + u|c_i|) / s_lo + |xh_i| (rs / s_lo + u), y by |gamma| of that + 2u|y|; the
    # perturbed side bounds the same with |x| + D, |c| + 2D, |xh| + its move.
    assert isinstance(op, ge.LayerNorm)
    x, g, b = (_f64(v) for v in R.upcast(args))
    ex, eg, eb = bounds
    ax = op.axes()
    assert ax is not None
    norm, params = ax
    axes = tuple(range(norm, x.ndim))
    n = math.prod(x.shape[norm:])
    if n == 0 or not _rounds(bounds):
        return [_zeros(o) for o in outs]
    lead = (1,) * params
    g, eg = g.reshape(lead + g.shape), eg.reshape(lead + eg.shape)
    b, eb = b.reshape(lead + b.shape), eb.reshape(lead + eb.shape)
    eps = op.epsilon()
    u = _acc_u(args[0])
    with np.errstate(all="ignore"):
        mean = np.mean(x, axis=axes, keepdims=True)
        c = x - mean
        var = np.mean(c * c, axis=axes, keepdims=True)
        s = np.sqrt(var + eps)
        big_d = np.max(ex, axis=axes, keepdims=True, initial=0.0)
        rms = np.sqrt(np.mean(ex * ex, axis=axes, keepdims=True))
        s_lo = np.maximum(s - rms, math.sqrt(eps))
        xh = c / s
        dxh = (ex + np.mean(ex, axis=axes, keepdims=True) + np.abs(xh) * rms) / s_lo
        e_y = np.abs(g) * dxh + (np.abs(xh) + dxh) * eg + eb

        def own(ax_: np.ndarray, ac: np.ndarray, axh: np.ndarray, sv: np.ndarray) -> np.ndarray:
            rc = _gamma(n, u) * np.mean(ax_, axis=axes, keepdims=True) + u * np.abs(mean)
            rv = _gamma(n + 1, u) * sv * sv + 2 * np.mean(ac, axis=axes, keepdims=True) * rc + rc * rc
            rs = rv / (sv + s_lo) + 2 * u * sv
            rxh = (rc + u * ac) / s_lo + axh * (rs / s_lo + u)
            return (np.abs(g) + eg) * rxh + 2 * u * ((np.abs(g) + eg) * axh + np.abs(b) + eb)

        extra = own(np.abs(x), np.abs(c), np.abs(xh), s) + own(
            np.abs(x) + ex, np.abs(c) + 2 * big_d, np.abs(xh) + dxh, s + rms
        )
        # mean: the mean of d plus a sum's reordering; variance: var' - var = mean(2 c (d - mean d)
        # + (d - mean d)^2) <= 4 D mean|c| + 4 D^2, plus its own rounding
        e_mean = np.mean(ex, axis=axes, keepdims=True)
        x_mean = _gamma(n, u) * np.mean(np.abs(x) + ex, axis=axes, keepdims=True) * 2
        e_var = 4 * big_d * np.mean(np.abs(c), axis=axes, keepdims=True) + 4 * big_d * big_d
        rc = _gamma(n, u) * np.mean(np.abs(x) + ex, axis=axes, keepdims=True) + u * (np.abs(mean) + big_d)
        x_var = 2 * (
            _gamma(n + 1, u) * (var + e_var)
            + 2 * (np.mean(np.abs(c), axis=axes, keepdims=True) + 2 * big_d) * rc
            + rc * rc
        )
    return [
        _finish(op, 0, outs[0], e_y, extra),
        _finish(op, 1, outs[1], e_mean, x_mean),
        _finish(op, 2, outs[2], e_var, x_var),
    ]


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
    t = value_dtype(node.results[0])

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
            g = _reorder(n, _u_acc(xs[0].dtype))
            ax = np.abs(_f64(xs[0]))
            if isinstance(node, ag.Prod):
                hi = np.prod(ax + es[0], axis=axes, keepdims=True)
                return [rounding(hi - np.prod(ax, axis=axes, keepdims=True), g * hi)]
            e, extra = np.sum(es[0], axis=axes, keepdims=True), g * np.sum(ax, axis=axes, keepdims=True)
            if isinstance(node, ag.Mean):
                return [rounding(e / n, extra / n)]
            if g and not _INDEPENDENT.get():  # exact in every order on exact terms (ReduceSumD's rule)
                extra = np.where((e == 0) & exact_sum_mask(xs[0], axes, True), 0.0, extra)
            return [rounding(e, extra)]
        if isinstance(node, ag.Gather):
            params = AI.gm_view(node, es[0], node.in_type(0), 0)
            idx = AI.gm_view(node, xs[1], node.in_type(1), 0)
            i = gather_indices(idx, params.shape[node.axis], A.get_bool(node, "negative_index_support"))
            moved = np.take(params, i, axis=node.axis)
            if np.any(es[1] > 0):
                ei = AI.gm_view(node, es[1], node.in_type(1), 0)
                moved = index_bound_spread(ei, moved, node.axis, 0, params.ndim - node.axis - 1)
            return [moved.reshape(r.shape)]
        if kind in _LOGICAL_NAMES:
            return [logical_bound(_LOGICAL_NAMES[kind], xs, es)]
        if isinstance(node, ag.Isnan):
            return [np.where(np.isinf(es[0]), INF, 0.0)]
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


# -- More ops of ONNX models (docs/onnx_ops.md) ---------------------------------------------------


@_rule(ge.BitwiseAnd, ge.BitwiseOr, ge.BitwiseXor, ge.Invert, ge.LeftShift, ge.RightShift, ge.HardMax)
def _bits_exact_or_unbounded(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # bits, and HardMax's one-hot of the first largest: exact on exact inputs, any value
    # once an input may differ
    return [np.full(outs[0].shape, INF if any(np.any(b > 0) for b in bounds) else 0.0)]


@_rule(ge.Cumsum)
def _cumsum_bound(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # each output is a sum of up to n inputs: their bounds summed the same way, plus the
    # n - 1 roundings of the accumulation in any order on the magnitudes
    if np.any(bounds[1] > 0):
        return [np.full(outs[0].shape, INF)]
    x = args[0]
    axis = int(args[1].reshape(-1)[0]) % max(x.ndim, 1)
    n = x.shape[axis] if x.ndim else 1
    with np.errstate(all="ignore"):
        e = ip.run_node(op, [_f64(bounds[0]), args[1]])[0]
        mag = ip.run_node(op, [np.abs(_f64(x)), args[1]])[0]
    return [_finish(op, 0, outs[0], e, 2 * _gamma(n - 1, _u_acc(x.dtype)) * mag)]


@_rule(ge.ScatterElements, ge.TensorScatterUpdate, ge.TensorScatterAdd, ge.TensorScatterMax, ge.TensorScatterMin)
def _scatter_bound(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # written elements carry their update's bound, combined ones the combination of the
    # bounds (a sum for add, the larger for max / min); mul multiplies values: exact on
    # exact inputs plus its roundings, else unbounded. A differing index: unbounded.
    if np.any(bounds[1] > 0):
        return [np.full(outs[0].shape, INF)]
    r = A.get_str(op, "reduction", "none") if isinstance(op, ge.ScatterElements) else ""
    kind = r or (op.REDUCTION if isinstance(op, ge.TensorScatterBase) else "none")
    n = args[2].size
    with np.errstate(all="ignore"):
        if kind == "mul":
            if np.any(bounds[0] > 0) or np.any(bounds[2] > 0):
                return [np.full(outs[0].shape, INF)]
            return [
                _finish(op, 0, outs[0], _zeros(outs[0]), 2 * _gamma(n, _u_acc(args[0].dtype)) * np.abs(_f64(outs[0])))
            ]
        e = ip.run_node(op, [_f64(bounds[0]), args[1], _f64(bounds[2])])[0]
        extra: np.ndarray | float = 0.0
        if kind == "add":
            mag = ip.run_node(op, [np.abs(_f64(args[0])), args[1], np.abs(_f64(args[2]))])[0]
            extra = 2 * _gamma(n, _u_acc(args[0].dtype)) * mag
    return [_finish(op, 0, outs[0], e, extra)]


# the trigonometric and hyperbolic ops: each monotone on its domain (Cosh convex with its
# minimum at 0, Tan monotone between its poles); the range over [x - e, x + e] is spanned by
# the end points (and cosh(0)), unbounded when the interval holds a pole of Tan
_TRIG_F64: dict[type[Operation], Callable[[np.ndarray], np.ndarray]] = {
    ge.Acos: np.arccos, ge.Acosh: np.arccosh, ge.Asin: np.arcsin, ge.Asinh: np.arcsinh, ge.Atan: np.arctan,
    ge.Atanh: np.arctanh, ge.Cosh: np.cosh, ge.Sinh: np.sinh, ge.Tan: np.tan,
}  # fmt: skip


@_rule(*_TRIG_F64)
def _trig(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    f, x, e = _TRIG_F64[type(op)], _f64(args[0]), bounds[0]
    with np.errstate(all="ignore"):
        fx, lo, hi = f(x), f(x - e), f(x + e)
        d = np.maximum(np.abs(lo - fx), np.abs(hi - fx))
        if isinstance(op, ge.Cosh):
            d = np.where(np.abs(x) <= e, np.maximum(d, np.abs(fx - 1.0)), d)
        if isinstance(op, ge.Tan):  # a pole (k + 1/2) pi inside the interval
            k_lo, k_hi = np.floor((x - e) / np.pi - 0.5), np.floor((x + e) / np.pi - 0.5)
            d = np.where(k_lo != k_hi, INF, d)
        d = np.where(np.isnan(d) & ~np.isnan(fx), INF, np.where(np.isnan(d), 0.0, d))
    return [_finish(op, 0, outs[0], np.where(e > 0, d, 0.0))]


@_rule(ge.GatherNd, ge.DepthToSpace, ge.SpaceToDepth)
def _nd_and_block_moves(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    # elements move: their bounds move with them (GatherNd: unbounded once an index may differ)
    if not _index_inputs_exact(bounds, 1):
        return [np.full(outs[0].shape, INF)]
    return [np.require(ip.run_node(op, [_f64(bounds[0]), *args[1:]])[0], np.float64, ["C", "W"])]


# ---------------------------------------------------------------------------------------
# Recurrent ops (importers/onnx_rnn.py): DynamicRNN and DynamicGRUV2
#
# The kernel computes each step from the previous step's state, so an input's error and
# the order of the matmuls' accumulations travel through the recurrence. The rule runs the
# steps in the kernel's order on float64 bounds, next to the reference's own outputs (the
# gates and states of every step, their magnitudes inflated by the output dtype's
# rounding): a matmul [z] @ w + b contributes |z| e_w + e_z |w| + e_z e_w + e_b plus
# 2 gamma(K + 1) (|z| |w| + |b|) for any accumulation order (as MatMul's rule); min
# (cell_clip) is 1-Lipschitz; GRU's h' = (1 - z) n + z h a convex mix; a product of bounded
# factors adds |a| e_b + e_a (|b| + e_b); sigmoid's and tanh's slope is taken at the point of
# [p - e, p + e] nearest 0, p recovered from the reference's output (its magnitude
# lowered by its rounding: a smaller |p|, a steeper slope); each gate, state and product computed in float32
# on perturbed inputs may round differently, 8 u32 |value| at most (a few roundings each,
# the exp inside sigmoid and tanh included); a step past seq_length keeps the state's
# bound and writes an exact 0 to DynamicRNN's y. An error in seq_length (an index) makes
# every output unbounded. Finite wherever the inputs' bounds are.
# ---------------------------------------------------------------------------------------

_U32 = float(np.finfo(np.float32).eps) / 2


def _lin_bound(
    z: np.ndarray, ez: np.ndarray, w: np.ndarray, ew: np.ndarray, b: np.ndarray, eb: np.ndarray
) -> np.ndarray:
    """The bound of z @ w + b (2-D z, w; b broadcast) given the bounds of z, w and b."""
    az, aw = np.abs(z), np.abs(w)
    g = 2 * _gamma(w.shape[0] + 1, _U32)
    return az @ ew + ez @ aw + ez @ ew + eb + g * (az @ aw + np.abs(b))


def _prod_bound(a: np.ndarray, ea: np.ndarray, b: np.ndarray, eb: np.ndarray) -> np.ndarray:
    """The bound of a * b given the factors' magnitudes and bounds."""
    return np.abs(a) * eb + ea * (np.abs(b) + eb)


def _lows(op: Operation, outs: list[np.ndarray]) -> list[np.ndarray]:
    """Lower bounds of the outputs' magnitudes (their own rounding taken off)."""
    return [
        np.maximum(np.abs(_f64(o)) * (1 - 4 * unit_roundoff(value_dtype(r))) - 1e-30, 0.0)
        for o, r in zip(outs, op.results)
    ]


def _half_dist(op: Operation, outs: list[np.ndarray]) -> list[np.ndarray]:
    """Lower bounds of |output - 1/2| (a sigmoid's distance from its midpoint), the
    outputs' own rounding taken off."""
    return [
        np.maximum(np.abs(_f64(o) - 0.5) - 4 * unit_roundoff(value_dtype(r)) * np.abs(_f64(o)) - 1e-30, 0.0)
        for o, r in zip(outs, op.results)
    ]


def _tanh_slope(v_lo: np.ndarray, e: np.ndarray) -> np.ndarray:
    """max tanh' over [p - e, p + e] where |tanh(p)| >= v_lo: at the point nearest 0."""
    p = np.arctanh(np.clip(v_lo, 0.0, 1 - 1e-12))
    q = np.maximum(p - e, 0.0)
    return 1 - np.tanh(q) ** 2


def _sigmoid_slope(s_lo: np.ndarray, e: np.ndarray) -> np.ndarray:
    """max sigmoid' over [p - e, p + e] where |sigmoid(p) - 1/2| >= s_lo (<= 1/4)."""
    p = 2 * np.arctanh(np.clip(2 * s_lo, 0.0, 1 - 1e-12))
    q = np.maximum(p - e, 0.0)
    sq = _sigmoid(q)
    return sq * (1 - sq)


def _rnn_inputs(op: Operation, args: list[np.ndarray], bounds: list[np.ndarray]) -> tuple[dict, dict]:
    """(values, bounds) by the op's input names, in float64."""
    assert isinstance(op, ge.RecurrentBase)
    index = {v: k for k, v in enumerate(op.operands)}
    roles = op.roles()
    return ({n: _f64(args[index[v]]) for n, v in roles.items()}, {n: _f64(bounds[index[v]]) for n, v in roles.items()})


def _rnn_order(op: Operation, t_size: int) -> range:
    reverse = A.get_str(op, "direction", "UNIDIRECTIONAL") == "REDIRECTIONAL"
    return range(t_size - 1, -1, -1) if reverse else range(t_size)


def _mags(op: Operation, outs: list[np.ndarray]) -> list[np.ndarray]:
    """The outputs' magnitudes in float64, widened by their own rounding (the kernel keeps
    its state in float32, the outputs may be f16)."""
    return [np.abs(_f64(o)) * (1 + 2 * unit_roundoff(value_dtype(r))) for o, r in zip(outs, op.results)]


@_rule(ge.DynamicRNN)
def _dynamic_rnn(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    v, e = _rnn_inputs(op, args, bounds)
    if "seq_length" in e and np.any(e["seq_length"] > 0):
        return [np.full(o.shape, INF) for o in outs]
    t_size, b_size, i_size = v["x"].shape
    hid = v["b"].shape[0] // 4
    _, h_seq, c_seq, i_v, j_v, f_v, o_v, tc_v = _mags(op, outs)
    _, _, _, _, j_lo, _, _, tc_lo = _lows(op, outs)
    _, _, _, i_d, _, f_d, o_d, _ = _half_dist(op, outs)
    at = (0, 1, 2, 3) if A.get_str(op, "gate_order", "ijfo") == "ijfo" else (0, 2, 1, 3)
    peep = "wci" in v
    zero = np.zeros((b_size, hid))
    h = np.abs(v["init_h"]).reshape(b_size, hid) if "init_h" in v else zero
    c = np.abs(v["init_c"]).reshape(b_size, hid) if "init_c" in v else zero
    eh = e["init_h"].reshape(b_size, hid) if "init_h" in e else zero
    ec = e["init_c"].reshape(b_size, hid) if "init_c" in e else zero
    res = [np.zeros(o.shape) for o in outs]
    with np.errstate(all="ignore"):
        for t in _rnn_order(op, t_size):
            z = np.concatenate([v["x"][t], h], axis=1)
            ez = np.concatenate([e["x"][t], eh], axis=1)
            eg = _lin_bound(z, ez, v["w"], e["w"], v["b"], e["b"])
            egi, egj, egf, ego = (eg[:, k * hid : (k + 1) * hid] for k in at)
            if peep:
                egi = egi + _prod_bound(v["wci"], e["wci"], c, ec)
                egf = egf + _prod_bound(v["wcf"], e["wcf"], c, ec)
            ei = _sigmoid_slope(i_d[t], egi) * egi + 8 * _U32 * i_v[t]
            ef = _sigmoid_slope(f_d[t], egf) * egf + 8 * _U32 * f_v[t]
            ej = _tanh_slope(j_lo[t], egj) * egj + 8 * _U32 * j_v[t]
            ec_new = _prod_bound(f_v[t], ef, c, ec) + _prod_bound(i_v[t], ei, j_v[t], ej)
            ec_new = ec_new + 8 * _U32 * (f_v[t] * c + i_v[t] * j_v[t])
            if peep:
                ego = ego + _prod_bound(v["wco"], e["wco"], c_seq[t], ec_new)
            eo = _sigmoid_slope(o_d[t], ego) * ego + 8 * _U32 * o_v[t]
            etc = _tanh_slope(tc_lo[t], ec_new) * ec_new + 8 * _U32 * tc_v[t]
            eh_new = _prod_bound(o_v[t], eo, tc_v[t], etc) + 8 * _U32 * o_v[t] * tc_v[t]
            ey = eh_new
            if "seq_length" in v:
                m = (t < v["seq_length"]).reshape(b_size, 1)
                ec_new, eh_new, ey = np.where(m, ec_new, ec), np.where(m, eh_new, eh), np.where(m, ey, 0.0)
                # tanhc is tanh of the kept cell state there (the kernel's tanh after the mask)
                etc = _tanh_slope(tc_lo[t], ec_new) * ec_new + 8 * _U32 * tc_v[t]
            for k, b in enumerate((ey, eh_new, ec_new, ei, ej, ef, eo, etc)):
                res[k][t] = b
            h, c, eh, ec = h_seq[t], c_seq[t], eh_new, ec_new
    return [_finish(op, k, outs[k], r) for k, r in enumerate(res)]


@_rule(ge.DynamicGRUV2)
def _dynamic_gru_v2(
    ip: GeInterpreter, op: Operation, args: list[np.ndarray], bounds: list[np.ndarray], outs: list[np.ndarray]
) -> list[np.ndarray]:
    v, e = _rnn_inputs(op, args, bounds)
    if "seq_length" in e and np.any(e["seq_length"] > 0):
        return [np.full(o.shape, INF) for o in outs]
    t_size, b_size, _ = v["x"].shape
    hid = v["weight_hidden"].shape[0]
    _, h_seq, z_v, r_v, n_v, hn_v = _mags(op, outs)
    _, _, z_lo, _, n_lo, _ = _lows(op, outs)
    _, _, z_d, r_d, _, _ = _half_dist(op, outs)
    zk, rk = (0, 1) if A.get_str(op, "gate_order", "zrh") == "zrh" else (1, 0)
    blocks = [slice(k * hid, (k + 1) * hid) for k in (zk, rk, 2)]
    reset_after = A.get_bool(op, "reset_after", True)
    wh, ewh, bh, ebh = v["weight_hidden"], e["weight_hidden"], v["bias_hidden"], e["bias_hidden"]
    h = np.abs(v["init_h"]).reshape(b_size, hid) if "init_h" in v else np.zeros((b_size, hid))
    eh = e["init_h"].reshape(b_size, hid) if "init_h" in e else np.zeros((b_size, hid))
    res = [np.zeros(o.shape) for o in outs]
    with np.errstate(all="ignore"):
        for t in _rnn_order(op, t_size):
            egx = _lin_bound(v["x"][t], e["x"][t], v["weight_input"], e["weight_input"], v["bias_input"], e["bias_input"])  # fmt: skip
            egh = _lin_bound(h, eh, wh, ewh, bh, ebh)
            egz, egr = egx[:, blocks[0]] + egh[:, blocks[0]], egx[:, blocks[1]] + egh[:, blocks[1]]
            ez = _sigmoid_slope(z_d[t], egz) * egz + 8 * _U32 * z_v[t]
            er = _sigmoid_slope(r_d[t], egr) * egr + 8 * _U32 * r_v[t]
            if reset_after:  # n = tanh(ni + r * nh), nh = hidden_new
                ehn = egh[:, blocks[2]]
                en = egx[:, blocks[2]] + _prod_bound(r_v[t], er, hn_v[t], ehn)
            else:  # nh = (r * h) @ wh_n + bh_n
                rh = r_v[t] * h
                erh = _prod_bound(r_v[t], er, h, eh) + 8 * _U32 * rh
                ehn = _lin_bound(rh, erh, wh[:, blocks[2]], ewh[:, blocks[2]], bh[blocks[2]], ebh[blocks[2]])
                en = egx[:, blocks[2]] + ehn
            en = _tanh_slope(n_lo[t], en) * en + 8 * _U32 * n_v[t]
            # h' = (1 - z) n + z h (z in [0, 1]; the kernel computes (h - n) z + n)
            diff = h + n_v[t]
            eh_new = (1 - np.minimum(z_lo[t], 1.0)) * en + z_v[t] * eh + ez * (diff + eh + en)
            eh_new = eh_new + 8 * _U32 * (n_v[t] + z_v[t] * diff)
            if "seq_length" in v:
                eh_new = np.where((t < v["seq_length"]).reshape(b_size, 1), eh_new, eh)
            for k, b in enumerate((eh_new, eh_new, ez, er, en, ehn)):
                res[k][t] = b
            h, eh = h_seq[t], eh_new
    return [_finish(op, k, outs[k], r) for k, r in enumerate(res)]


# ---------------------------------------------------------------------------------------
# Graphs
# ---------------------------------------------------------------------------------------


# (value, its reference, its bound) -> the value to carry on exactly (an anchor), or None
Anchor = Callable[[SSAValue, np.ndarray, np.ndarray], np.ndarray | None]


def _block_bounds(
    ip: GeInterpreter,
    block: Block,
    inputs: Sequence[np.ndarray],
    in_bounds: Sequence[np.ndarray],
    anchor: Anchor | None = None,
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(output values, output bounds) of a graph body, Data nodes bound by index. With
    `anchor`, each op result is offered to it after its rule ran: a value it returns
    replaces the result, with bound 0, for the ops that follow (`anchored_bounds`)."""
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
        if anchor is not None:
            for r in op.results:
                got = anchor(r, val[r], err[r])
                if got is not None:
                    val[r], err[r] = got, np.zeros(got.shape)
    raise AssertionError("a graph body ends with NetOutput (the reference ran it)")


def output_error_bounds(
    graph: ge.GraphOp,
    inputs: Sequence[np.ndarray],
    independent: bool = False,
    input_bounds: Sequence[np.ndarray] | None = None,
) -> list[np.ndarray]:
    """Per NetOutput value of `graph` on `inputs`, the float64 array of bounds on
    |compiled - reference| (module docstring); inputs carry no error unless
    `input_bounds` gives theirs (how far each input element may lie from `inputs`).

    `independent`: the bound between the compiled program and another implementation of
    the same model (onnxruntime), which may round every op on its own: each op's own
    rounding counts even on exact inputs (an f16 op between two Casts may round in f16 or
    in f32, so its result moves by up to 2u|r| of f16, carried to the outputs), and a
    narrow float may be accumulated in its own dtype."""
    if input_bounds is None:
        input_bounds = [np.zeros(np.shape(a)) for a in inputs]
    with np.errstate(all="ignore"), _independent(independent):
        ip = ge_interpreter()
        _, bounds = _block_bounds(ip, graph.body.block, inputs, input_bounds)
    return [np.require(b, np.float64, ["C", "W"]) for b in bounds]


def anchored_bounds(
    graph: ge.GraphOp, inputs: Sequence[np.ndarray], anchor: Anchor, independent: bool = False
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The reference and bounds of `graph` on `inputs` (exact), where each op result
    `anchor` returns a value for is carried on as that value, exact: an op after it is
    evaluated, and its bound derived, on that value (runtime/anchored.py: another
    implementation's value of the result). `anchor` sees each result's reference and bound
    computed from the values before it, so a bound compounds only from the last anchors.
    Returns the NetOutput values' (reference, bound) after anchoring."""
    with np.errstate(all="ignore"), _independent(independent):
        ip = ge_interpreter()
        vals, bounds = _block_bounds(ip, graph.body.block, inputs, [np.zeros(np.shape(a)) for a in inputs], anchor)
    return vals, [np.require(b, np.float64, ["C", "W"]) for b in bounds]
