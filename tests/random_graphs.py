"""Random ge graphs for differential testing (issue 17, "Close the holes").

    from random_graphs import Options, generate
    g = generate(seed)                      # a Graph: g.text() is its MLIR, g.features
    g = generate(seed, Options(without=frozenset({"zero_d"})))

Independent of bench/gen_graphs.py: that one builds large regular graphs for benchmarks;
this one builds small irregular graphs (6 to 40 nodes) aimed at what broke before:

* multi-output nodes (SplitD, SplitVD, PhonySplit) whose consumers read several outputs,
  in any order, the same output twice, some outputs unused; NetOutput listing several
  outputs of one node; SplitD outputs feeding one ConcatD / PhonyConcat in another order;
* 0-d tensors: 0-d Data and Const (as weights, broadcast operands and graph outputs),
  reductions to a scalar (`axes = []`), Gather / GatherV2 with a 0-d index, GatherV2's
  0-d axis;
* value names: word names (`%x`), numeric SSA names (`%0`, `%1`, ...), multi-result
  groups (`%3:2` used as `%3#1`), and a mix of them, including words that look like the
  node names GE generates (`%Add_1`, `%Data_0`);
* Identity in every position: after a Data, after a library kernel (MatMul, Gather,
  GatherV2, Conv2D), on a split output, in chains, right before NetOutput;
* a Data read directly by NetOutput; one value read twice by the same op (`Add(x, x)`);
* padded storage formats (NC1HWC0 with C not a multiple of C0) in pointwise chains and
  ConcatD on N or C;
* ConcatD / ConcatV2D / Pack / PhonyConcat, the reshape family, TransposeD,
  BroadcastToD, reductions with and without keep_dims, Cast between dtypes;
* every dtype the ops accept (f16, bf16, f32, f64, i8, i16, i32, i64, ui8, i1; sub-byte
  integers are left out), size-1 dims and broadcasting, Data nodes listed out of index
  order; optionally (feature `zero_size`) tensors with a size-0 dim.

Every op stays in its domain for ge-run's random inputs (floats uniform in [-1, 1),
signed ints in [-4, 4], unsigned in [0, 8], bools): each value carries a conservative
interval [lo, hi]; Sqrt, Rsqrt, Log, Reciprocal, Pow and divisors get inputs made
positive (|x| + c, x * x + c or Exp of a bounded value), Exp gets inputs bounded to
[-4, 4], and a value whose interval outgrows its dtype's safe range is scaled by a power
of two (floats, exact) or clamped (ints) first. `nonfinite_fraction` measures the
non-finite share of all intermediate float values with the reference interpreter.

Phony layouts follow GE's offsets exactly only when, at each level, the block's dims
before the split / concat axis are all 1 (examples/phony_concat_split.mlir): the
generator only builds such PhonySplit / PhonyConcat nodes, so their meaning is their
reference semantics.

Deterministic: the same seed and options give the same text.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

# -- features -----------------------------------------------------------------------------

FEATURES: tuple[str, ...] = (
    "multi_output",  # SplitD / SplitVD / PhonySplit with rich consumers
    "phony",  # PhonySplit / PhonyConcat (inside multi_output and concat)
    "netoutput_multi",  # NetOutput lists several outputs of one node, or one value twice
    "zero_d",  # 0-d Data, Const, reductions to a scalar, 0-d gather index / axis
    "numeric_names",  # %0, %1, ... (all of them)
    "mixed_names",  # numeric and word names mixed, GE-like words, %N:k groups
    "identity",  # Identity after Data / library kernels / splits, chains, before NetOutput
    "data_to_output",  # a Data read directly by NetOutput
    "same_value_twice",  # Add(x, x), Sub(s#1, s#1), ...
    "padded_formats",  # NC1HWC0 islands with C % C0 != 0
    "concat",  # ConcatD / ConcatV2D / Pack
    "library",  # MatMul, Conv2D, Gather, GatherV2, HcomAllGather
    "reshape",  # Reshape, ExpandDims, Squeeze, Unsqueeze, TransposeD, BroadcastToD
    "reduce",  # ReduceSumD / MaxD / MinD / MeanD / ProdD
    "cast",  # Cast between dtypes
    "int_dtypes",  # integer and bool graphs (else floats only)
    "bf16",  # bf16 graphs and casts to bf16
    "zero_size",  # tensors with a size-0 dim (off unless asked for)
)
DEFAULT_OFF: frozenset[str] = frozenset({"zero_size"})


@dataclass(frozen=True)
class Options:
    min_ops: int = 6
    max_ops: int = 32
    without: frozenset[str] = frozenset()  # features never used
    with_: frozenset[str] = frozenset()  # DEFAULT_OFF features to allow
    feature_probability: float = 0.6  # each allowed feature is on in a graph with this chance

    def allowed(self) -> list[str]:
        return [f for f in FEATURES if f not in self.without and (f not in DEFAULT_OFF or f in self.with_)]


# -- dtypes -------------------------------------------------------------------------------

FLOATS = ("f16", "bf16", "f32", "f64")
SIGNED = ("i8", "i16", "i32", "i64")
UNSIGNED = ("ui8",)
BOOL = "i1"
# The largest magnitude a value of the dtype may reach: far enough from overflow that a
# following Square / Mul / AddN is squashed first (see _Builder.guard).
LIMIT = {
    "f16": 256.0,
    "bf16": 1e4,
    "f32": 1e4,
    "f64": 1e4,
    "i8": 60,
    "i16": 2000,
    "i32": 10000,
    "i64": 10000,
    "ui8": 120,
    "i1": 1,
}
INPUT_RANGE = {
    **{d: (-1.0, 1.0) for d in FLOATS},
    **{d: (-4.0, 4.0) for d in SIGNED},
    "ui8": (0.0, 8.0),
    "i1": (0.0, 1.0),
}


ITEMSIZE = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "ui8": 1, "i1": 1}


def nbytes(shape: Sequence[int], dt: str) -> int:
    return math.prod(shape) * ITEMSIZE[dt]


def is_float(dt: str) -> bool:
    return dt in FLOATS


def is_int(dt: str) -> bool:
    return dt in SIGNED or dt in UNSIGNED


# -- values and nodes -----------------------------------------------------------------------


@dataclass(eq=False)
class Value:
    shape: tuple[int, ...]
    dtype: str
    lo: float
    hi: float
    fmt: str | None = None  # storage format (origin NCHW) or None for ND
    node: Node | None = None
    index: int = 0  # result index in its node
    uses: int = 0
    name: str = ""  # set when the graph is printed

    @property
    def type(self) -> str:
        dims = "".join(f"{d}x" for d in self.shape)
        enc = f", #ge.desc<{self.fmt}, origin = NCHW>" if self.fmt else ""
        return f"tensor<{dims}{self.dtype}{enc}>"

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def mag(self) -> float:
        return max(abs(self.lo), abs(self.hi))

    @property
    def kind(self) -> str:
        return self.node.op if self.node else "?"


@dataclass(eq=False)
class Node:
    op: str
    ins: list[Value]
    outs: list[Value]
    attrs: str = ""
    group: bool = False  # print the results as one `%N:k` group


@dataclass
class Graph:
    seed: int
    nodes: list[Node]
    features: frozenset[str]
    naming: str  # "words", "numeric" or "mixed"

    def text(self) -> str:
        return _render(self)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for n in self.nodes:
            out[n.op] = out.get(n.op, 0) + 1
        return out


# -- numbers --------------------------------------------------------------------------------


def _fmt_num(x: float, dt: str) -> str:
    if dt == BOOL:
        return "true" if x else "false"
    if is_int(dt):
        return str(int(x))
    return repr(float(x))


def _dense(vals: np.ndarray, dt: str) -> str:
    if vals.ndim == 0:
        return _fmt_num(vals.item(), dt)
    return "[" + ", ".join(_dense(v, dt) for v in vals) + "]"


def _interval(op: str, ins: Sequence[Value]) -> tuple[float, float]:
    """A conservative interval of op's result (the caller keeps inputs in domain)."""
    a = ins[0]
    if op in ("Add", "AddN"):
        return sum(v.lo for v in ins), sum(v.hi for v in ins)
    if op == "Sub":
        return a.lo - ins[1].hi, a.hi - ins[1].lo
    if op == "Mul":
        b = ins[1]
        c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        return min(c), max(c)
    if op in ("RealDiv", "Div"):
        b = ins[1]  # b >= b.lo > 0
        m = a.mag / b.lo
        return (-m if a.lo < 0 else 0.0), (m if a.hi > 0 else 0.0)
    if op == "Maximum":
        return max(a.lo, ins[1].lo), max(a.hi, ins[1].hi)
    if op == "Minimum":
        return min(a.lo, ins[1].lo), min(a.hi, ins[1].hi)
    if op == "Pow":
        b, e = a, ins[1]  # b > 0
        c = [b.lo**e.lo, b.lo**e.hi, b.hi**e.lo, b.hi**e.hi]
        return min(c), max(c)
    if op == "Relu":
        return max(a.lo, 0.0), max(a.hi, 0.0)
    if op == "Abs":
        return (0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))), a.mag
    if op == "Neg":
        return -a.hi, -a.lo
    if op == "Square":
        return (0.0 if a.lo <= 0 <= a.hi else min(a.lo * a.lo, a.hi * a.hi)), a.mag * a.mag
    if op == "Exp":
        return math.exp(a.lo), math.exp(a.hi)
    if op == "Log":
        return math.log(a.lo), math.log(a.hi)
    if op == "Sqrt":
        return math.sqrt(a.lo), math.sqrt(a.hi)
    if op == "Rsqrt":
        return 1 / math.sqrt(a.hi), 1 / math.sqrt(a.lo)
    if op == "Reciprocal":
        return 1 / a.hi, 1 / a.lo
    if op == "Sigmoid":
        return 0.0, 1.0
    if op == "Tanh":
        return -1.0, 1.0
    raise KeyError(op)


FLOAT_UNARY = ("Relu", "Abs", "Neg", "Exp", "Log", "Sqrt", "Rsqrt", "Sigmoid", "Tanh", "Square", "Reciprocal")
INT_UNARY = ("Relu", "Abs", "Neg", "Square")
FLOAT_BINARY = ("Add", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "Pow")
INT_BINARY = ("Add", "Sub", "Mul", "Div", "Maximum", "Minimum")
POSITIVE_INPUT = {"Log": 0.25, "Sqrt": 0.0625, "Rsqrt": 0.25, "Reciprocal": 0.25}
LIBRARY = ("MatMul", "Conv2D", "Gather", "GatherV2", "HcomAllGather")


# -- the builder -----------------------------------------------------------------------------


class _Builder:
    def __init__(self, seed: int, options: Options):
        self.rng = random.Random(seed)
        self.seed = seed
        self.opt = options
        rng = self.rng
        allowed = options.allowed()
        self.features = {f for f in allowed if rng.random() < options.feature_probability}
        if "numeric_names" in self.features and "mixed_names" in self.features:
            self.features.discard(rng.choice(("numeric_names", "mixed_names")))
        if "phony" in self.features and not {"multi_output", "concat"} & self.features:
            self.features.add("multi_output" if "multi_output" in allowed else "phony")
        self.nodes: list[Node] = []
        self.pool: list[Value] = []
        self.data: list[Value] = []
        self.outputs: list[Value] = []  # forced NetOutput entries, in order
        self.target = rng.randint(options.min_ops, options.max_ops)
        self.dtype = self.pick_dtype()

    def on(self, feature: str) -> bool:
        return feature in self.features

    # -- dtypes and shapes -------------------------------------------------------------

    def pick_dtype(self) -> str:
        rng = self.rng
        choices = [("f32", 10), ("f16", 6), ("f64", 1)] + ([("bf16", 2)] if self.on("bf16") else [])
        if self.on("int_dtypes"):
            choices += [("i32", 3), ("i8", 1), ("i16", 1), ("i64", 1), ("ui8", 1), ("i1", 1)]
        names, weights = zip(*choices)
        return rng.choices(names, weights)[0]

    def dim(self) -> int:
        return self.rng.choice((1, 1, 2, 2, 3, 4, 4, 5, 6, 8, 16))

    def shape(self, rank: int | None = None) -> tuple[int, ...]:
        rng = self.rng
        if rank is None:
            rank = rng.choices((0, 1, 2, 3, 4), (1 if self.on("zero_d") else 0, 3, 5, 4, 2))[0]
        s = [self.dim() for _ in range(rank)]
        while math.prod(s) > 256:
            s[rng.randrange(rank)] = 1
        if self.on("zero_size") and rank and rng.random() < 0.15:
            s[rng.randrange(rank)] = 0
        return tuple(s)

    # -- emission ---------------------------------------------------------------------

    def emit(
        self, op: str, ins: Sequence[Value], outs: Sequence[Value], attrs: str = "", group: bool = False
    ) -> list[Value]:
        node = Node(op, list(ins), list(outs), attrs, group)
        for v in ins:
            v.uses += 1
        for i, v in enumerate(outs):
            v.node, v.index = node, i
        self.nodes.append(node)
        return list(outs)

    def one(
        self,
        op: str,
        ins: Sequence[Value],
        shape: tuple[int, ...],
        dtype: str,
        lo: float,
        hi: float,
        attrs: str = "",
        fmt: str | None = None,
    ) -> Value:
        v = self.emit(op, ins, [Value(shape, dtype, lo, hi, fmt)], attrs)[0]
        self.pool.append(v)
        return v

    def new_data(self, shape: tuple[int, ...], dtype: str, fmt: str | None = None) -> Value:
        lo, hi = INPUT_RANGE[dtype]
        v = self.one("Data", [], shape, dtype, lo, hi, "", fmt)
        self.data.append(v)
        return v

    def const(
        self,
        shape: tuple[int, ...],
        dtype: str,
        lo: float,
        hi: float,
        splat: bool | None = None,
        fmt: str | None = None,
    ) -> Value:
        """A Const of values in [lo, hi] on a grid exact in every float dtype (a Data when
        the shape is empty: xDSL's dense literal has no size-0 form)."""
        rng = self.rng
        if 0 in shape:
            return self.new_data(shape, dtype)
        if splat is None:
            splat = rng.random() < 0.4
        n = math.prod(shape)
        if lo == hi:
            grid = [lo]  # a power of two or a small integer: exact in every dtype
        elif dtype == BOOL:
            grid = [0.0, 1.0]
        elif is_int(dtype):
            grid = [float(x) for x in range(math.ceil(lo), math.floor(hi) + 1)]
        else:
            grid = [k / 4 for k in range(math.ceil(lo * 4), math.floor(hi * 4) + 1)]
        if n > 64:
            splat = True
        vals = [rng.choice(grid) for _ in range(1 if splat or n == 0 else n)]
        if n == 0:
            body = _dense(np.zeros(shape), dtype)
        elif splat:
            body = _fmt_num(vals[0], dtype)
        else:
            body = _dense(np.array(vals, dtype=np.float64).reshape(shape), dtype)
        t = Value(shape, dtype, 0, 0, fmt).type
        return self.one("Const", [], shape, dtype, min(vals), max(vals), f"value = dense<{body}> : {t}", fmt)

    # -- picking operands -------------------------------------------------------------

    def pick(self, pred: Callable[[Value], bool] = lambda v: True, fresh: bool = True) -> Value | None:
        """A pool value satisfying pred, preferring recent and unused ones."""
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        rng = self.rng
        if fresh:
            unused = [v for v in cands if v.uses == 0]
            if unused and rng.random() < 0.7:
                cands = unused
        k = min(len(cands), 4)
        return rng.choice(cands[-k:]) if rng.random() < 0.75 else rng.choice(cands)

    def plain(self, v: Value) -> bool:
        return v.fmt is None

    def source(self, dtype: str | None = None, rank: int | None = None) -> Value:
        """A value to build on: a pool value (ND, not a Const) or a new Data."""
        dt = dtype or self.dtype
        v = self.pick(
            lambda v: self.plain(v) and v.dtype == dt and v.kind != "Const" and (rank is None or len(v.shape) == rank)
        )
        if v is None or self.rng.random() < 0.12:
            v = self.new_data(self.shape(rank), dt)
        return v

    # -- domain guards ------------------------------------------------------------------

    def guard(self, v: Value, limit: float | None = None) -> Value:
        """v, or v scaled / clamped so that |v| <= limit (default: a quarter of its dtype's limit)."""
        lim = LIMIT[v.dtype] / 4 if limit is None else limit
        if v.mag <= lim or v.dtype == BOOL or v.size == 0:
            return v
        if is_float(v.dtype):
            k = math.ceil(math.log2(v.mag / lim))
            c = self.small_const(v, 2.0**-k)
            return self.one("Mul", [v, c], v.shape, v.dtype, v.lo * 2.0**-k, v.hi * 2.0**-k, fmt=v.fmt)
        lim_i = max(1, int(lim))
        lo_c = self.small_const(v, -lim_i if v.dtype in SIGNED else 0)
        w = self.one("Maximum", [v, lo_c], v.shape, v.dtype, max(v.lo, lo_c.lo), max(v.hi, lo_c.lo), fmt=v.fmt)
        hi_c = self.small_const(v, lim_i)
        return self.one("Minimum", [w, hi_c], v.shape, v.dtype, min(w.lo, hi_c.hi), min(w.hi, hi_c.hi), fmt=v.fmt)

    def small_const(self, like: Value, x: float) -> Value:
        """A splat Const broadcasting against `like`: 0-d, [1] or like's shape."""
        rng = self.rng
        opts = [like.shape] if like.fmt else [like.shape, (1,) * len(like.shape)]
        if not like.fmt:
            if self.on("zero_d"):
                opts.append(())
            if like.shape:
                opts.append(like.shape[-1:])
        shape = rng.choice([s for s in opts if 0 not in s] or [(1,) * len(like.shape)])
        return self.const(shape, like.dtype, x, x, True, like.fmt)

    def positive(self, v: Value, eps: float) -> Value:
        """v made >= eps (floats): |v| + c, v * v + c or Exp of a bounded v."""
        if v.lo >= eps:
            return v
        rng = self.rng
        how = rng.choice(("abs", "abs", "square", "exp")) if v.fmt is None else "abs"
        if how == "exp":
            b = self.bounded(v, 4.0)
            return self.one("Exp", [b], v.shape, v.dtype, math.exp(b.lo), math.exp(b.hi))
        if how == "square":
            v = self.guard(v, 8.0)
            u = self.one("Square", [v], v.shape, v.dtype, *_interval("Square", [v]), fmt=v.fmt)
        else:
            u = self.one("Abs", [v], v.shape, v.dtype, *_interval("Abs", [v]), fmt=v.fmt)
        c = self.small_const(u, rng.choice((0.5, 1.0, 0.25)) if eps <= 0.25 else 1.0)
        c = c if c.lo >= eps else self.small_const(u, 1.0)
        return self.one("Add", [u, c], v.shape, v.dtype, u.lo + c.lo, u.hi + c.hi, fmt=v.fmt)

    def bounded(self, v: Value, m: float) -> Value:
        if v.mag <= m:
            return v
        if self.rng.random() < 0.5:
            return self.one("Tanh", [v], v.shape, v.dtype, -1.0, 1.0, fmt=v.fmt)
        return self.guard(v, m)

    # -- pointwise patterns ------------------------------------------------------------------

    def unary(self, v: Value, op: str | None = None) -> Value:
        rng = self.rng
        dt = v.dtype
        if op is None:
            if is_float(dt):
                op = rng.choice(FLOAT_UNARY)
            elif dt in SIGNED:
                op = rng.choice(INT_UNARY)
            elif dt in UNSIGNED:
                op = rng.choice(("Relu", "Abs", "Square"))
            elif self.on("identity"):
                op = "Identity"
            else:  # bool has no unary op but Identity: max(v, false) = v
                return self.binary(v, self.small_const(v, 0), "Maximum")
        if op == "Identity":
            return self.one("Identity", [v], v.shape, dt, v.lo, v.hi, fmt=v.fmt)
        if op in POSITIVE_INPUT:
            v = self.positive(v, POSITIVE_INPUT[op])
        elif op == "Exp":
            v = self.bounded(v, 4.0)
        elif op == "Square":
            v = self.guard(v, math.sqrt(LIMIT[dt] / 4))
        lo, hi = _interval(op, [v])
        return self.one(op, [v], v.shape, dt, lo, hi, fmt=v.fmt)

    def partner(self, v: Value) -> Value:
        """A second operand broadcasting with v: another value, a Const, v itself."""
        rng = self.rng
        if v.fmt:
            other = self.pick(
                lambda u: u.fmt == v.fmt and u.shape == v.shape and u.dtype == v.dtype and u is not v, fresh=False
            )
            return other if other is not None and rng.random() < 0.6 else self.const(v.shape, v.dtype, -2, 2, fmt=v.fmt)
        r = rng.random()
        if r < 0.1 and self.on("same_value_twice"):
            return v
        if r < 0.45:
            other = self.pick(
                lambda u: self.plain(u) and u.dtype == v.dtype and u is not v and _broadcasts(u.shape, v.shape),
                fresh=False,
            )
            if other is not None:
                return other
        shape = list(v.shape)
        if rng.random() < 0.5:
            shape = [1 if rng.random() < 0.4 else d for d in shape]
        if shape and rng.random() < 0.3:
            shape = shape[rng.randrange(len(shape) + (1 if self.on("zero_d") else 0)) :]
        if self.on("zero_d") and rng.random() < 0.15:
            shape = []
        lo, hi = INPUT_RANGE[v.dtype]
        if rng.random() < 0.4:
            return self.new_data(tuple(shape), v.dtype)
        return self.const(
            tuple(shape),
            v.dtype,
            max(lo * 2, -2) if v.dtype != "ui8" else 0,
            min(hi * 2, 2) if is_float(v.dtype) else hi,
        )

    def binary(self, a: Value, b: Value | None = None, op: str | None = None) -> Value:
        rng = self.rng
        dt = a.dtype
        if b is None:
            b = self.partner(a)
        same = a is b
        if op is None:
            if is_float(dt):
                op = rng.choice(FLOAT_BINARY)
            elif dt in SIGNED:
                op = rng.choice(INT_BINARY)
            elif dt in UNSIGNED:
                op = rng.choice(("Add", "Mul", "Div", "Maximum", "Minimum"))
            else:
                op = rng.choice(("Maximum", "Minimum"))
        if same and op in ("RealDiv", "Div", "Pow"):
            op = "Mul"  # x / x and x ** x: a domain guard would split the two reads
        if op in ("RealDiv", "Div"):
            b = self.positive_divisor(b)
        elif op == "Pow":
            a = self.positive(a, 0.25)
            b = self.bounded(b, 2.0)
        elif op == "Mul":
            a = self.guard(a, math.sqrt(LIMIT[dt] / 4))
            b = a if same else self.guard(b, math.sqrt(LIMIT[dt] / 4))
        elif op in ("Add", "Sub"):
            a = self.guard(a)
            b = a if same else self.guard(b)
        shape = _broadcast(a.shape, b.shape)
        assert shape is not None
        # a padded-format value meets only values of its format and shape (GE would need
        # TransData between formats)
        assert a.fmt == b.fmt and (a.fmt is None or a.shape == b.shape), (a.type, b.type)
        lo, hi = _interval(op, [a, b])
        return self.one(op, [a, b], shape, dt, lo, hi, fmt=a.fmt)

    def positive_divisor(self, b: Value) -> Value:
        if is_float(b.dtype):
            return self.positive(b, 0.25)
        if b.lo >= 1:
            return b
        u = self.one("Abs", [b], b.shape, b.dtype, *_interval("Abs", [b]), fmt=b.fmt) if b.dtype in SIGNED else b
        c = self.small_const(u, 1)
        return self.one("Add", [u, c], u.shape, u.dtype, u.lo + 1, u.hi + 1, fmt=u.fmt)

    def p_chain(self) -> None:
        v = self.source()
        for _ in range(self.rng.randint(1, 3)):
            v = self.unary(v)

    def p_binary(self) -> None:
        self.binary(self.source())

    def p_same_twice(self) -> None:
        v = self.source()
        op = self.rng.choice(
            ("Add", "Mul", "Sub", "Maximum") if v.dtype in SIGNED or is_float(v.dtype) else ("Maximum", "Minimum")
        )
        if v.dtype in UNSIGNED and op == "Sub":
            op = "Add"
        self.binary(v, v, op)

    def p_addn(self) -> None:
        v = self.guard(self.source())
        if v.dtype == BOOL:
            return
        k = self.rng.randint(1, 4)
        ins = [v]
        for _ in range(k):
            u = self.pick(lambda u: self.plain(u) and u.dtype == v.dtype and u.shape == v.shape, fresh=False)
            ins.append(self.guard(u) if u is not None and self.rng.random() < 0.6 else v)
        lo, hi = _interval("AddN", ins)
        self.one("AddN", ins, v.shape, v.dtype, lo, hi, f"N = {len(ins)}")

    # -- reductions ------------------------------------------------------------------------

    def p_reduce(self) -> None:
        rng = self.rng
        v = self.source()
        if v.dtype == BOOL:
            return
        rank = len(v.shape)
        ops = ["ReduceSumD", "ReduceMaxD", "ReduceMinD", "ReduceMeanD", "ReduceProdD"]
        if v.dtype in UNSIGNED:
            ops.remove("ReduceMeanD")
        op = rng.choice(ops)
        if rank == 0 or rng.random() < (0.3 if self.on("zero_d") else 0.0):
            axes: list[int] = [] if rng.random() < 0.5 else list(range(rank))
        else:
            axes = sorted(rng.sample(range(rank), rng.randint(1, rank)))
            axes = [a - rank if rng.random() < 0.3 else a for a in axes]
        keep = rng.random() < 0.5
        if not self.on("zero_d") and not keep and len(axes) in (0, rank):
            keep = True
        red = [a % rank for a in axes] if axes else list(range(rank))
        n = math.prod(v.shape[a] for a in red)
        if n == 0 and op in ("ReduceMaxD", "ReduceMinD", "ReduceMeanD"):
            op = "ReduceSumD"
        out = tuple(1 if i in red else d for i, d in enumerate(v.shape) if keep or i not in red)
        if op == "ReduceSumD":
            v = self.guard(v, LIMIT[v.dtype] / 4 / max(n, 1))
            lo, hi = min(0.0, n * v.lo), max(0.0, n * v.hi)
        elif op == "ReduceProdD":
            v = self.bounded(v, 1.0) if is_float(v.dtype) else self.guard(v, 1)
            lo, hi = (1.0, 1.0) if n == 0 else (min(v.lo, 0.0) if n > 1 else v.lo, max(v.hi, 1.0 if n > 1 else v.hi))
            lo, hi = (min(lo, -1.0), hi) if v.lo < 0 else (lo, hi)
        else:
            lo, hi = v.lo, v.hi
        attrs = f"axes = [{', '.join(map(str, axes))}], keep_dims = {'true' if keep else 'false'}"
        self.one(op, [v], out, v.dtype, lo, hi, attrs)

    # -- multi-output nodes --------------------------------------------------------------

    def p_split(self) -> None:
        rng = self.rng
        v = self.pick(lambda u: self.plain(u) and any(d >= 2 for d in u.shape))
        if v is None:
            v = self.new_data(self.shape(rng.randint(1, 3)), self.dtype)
            if not any(d >= 2 for d in v.shape):
                return
        axes = [i for i, d in enumerate(v.shape) if d >= 2]
        kinds = ["SplitD", "SplitVD"]
        phony_axes = [a for a in axes if math.prod(v.shape[:a]) == 1]
        if self.on("phony") and phony_axes:
            kinds += ["PhonySplit", "PhonySplit"]
        kind = rng.choice(kinds)
        axis = rng.choice(phony_axes if kind == "PhonySplit" else axes)
        d = v.shape[axis]
        if kind == "SplitVD":
            k = rng.randint(2, min(d, 4))
            cuts = sorted(rng.sample(range(1, d), k - 1))
            sizes = [b - a for a, b in zip([0, *cuts], [*cuts, d])]
            if self.on("zero_size") and rng.random() < 0.3:
                sizes.insert(rng.randrange(len(sizes) + 1), 0)
            written = list(sizes)
            if rng.random() < 0.3:
                written[rng.randrange(len(written))] = -1
            outs = [v.shape[:axis] + (s,) + v.shape[axis + 1 :] for s in sizes]
            sd = axis - len(v.shape) if rng.random() < 0.2 else axis
            attrs = f"size_splits = [{', '.join(map(str, written))}], split_dim = {sd}, num_split = {len(sizes)}"
        else:
            divs = [n for n in range(2, min(d, 8) + 1) if d % n == 0] or [min(n for n in range(2, d + 1) if d % n == 0)]
            n = rng.choice(divs)
            piece = v.shape[:axis] + (d // n,) + v.shape[axis + 1 :]
            outs = [piece] * n
            if kind == "SplitD":
                sd = axis - len(v.shape) if rng.random() < 0.2 else axis
                attrs = f"split_dim = {sd}, num_split = {n}"
            else:
                dims, ns = [axis], [n]
                # a second level (last listed axis fastest): the piece's dims before it are 1
                second = [b for b in range(axis + 1, len(v.shape)) if piece[b] >= 2 and math.prod(piece[:b]) == 1]
                if second and rng.random() < 0.4:
                    b = rng.choice(second)
                    m = rng.choice([x for x in (2, piece[b]) if piece[b] % x == 0])
                    dims, ns = [axis, b], [n, m]
                    piece = tuple(p // m if i == b else p for i, p in enumerate(piece))
                    outs = [piece] * (n * m)
                attrs = f"split_dim = [{', '.join(map(str, dims))}], num_split = [{', '.join(map(str, ns))}]"
        group = self.naming_groups and rng.random() < 0.5
        res = self.emit(kind, [v], [Value(s, v.dtype, v.lo, v.hi) for s in outs], attrs, group)
        self.pool.extend(res)
        self.consume_outputs(res)

    def consume_outputs(self, res: list[Value]) -> None:
        """Consumers of several outputs of one node, in any order."""
        rng = self.rng
        live = [r for r in res if r.size > 0 or self.on("zero_size")]
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            if r < 0.3 and len(live) >= 2:
                a, b = rng.sample(live, 2)
                if _broadcast(a.shape, b.shape) is not None:
                    self.binary(
                        a,
                        b,
                        rng.choice(("Sub", "Add", "Maximum"))
                        if a.dtype not in UNSIGNED and a.dtype != BOOL
                        else "Maximum",
                    )
            elif r < 0.45 and live and self.on("same_value_twice"):
                a = rng.choice(live)
                self.binary(a, a, "Add" if a.dtype != BOOL else "Maximum")
            elif r < 0.65 and len(live) >= 2:
                self.concat_of(rng.sample(live, rng.randint(2, len(live))))
            elif r < 0.8 and self.on("netoutput_multi") and len(res) >= 2:
                self.outputs.extend(rng.sample(res, 2))
            elif r < 0.9 and self.on("identity") and live:
                self.unary(rng.choice(live), "Identity")
            elif live:
                self.unary(rng.choice(live))
        # at least one output is read
        if all(r.uses == 0 for r in res) and not any(r in self.outputs for r in res):
            self.outputs.append(rng.choice(res))

    # -- concat family ----------------------------------------------------------------------

    def concat_of(self, ins: list[Value]) -> Value | None:
        """ConcatD / ConcatV2D / PhonyConcat / Pack of these values (any order)."""
        rng = self.rng
        s0 = ins[0].shape
        same = all(v.shape == s0 and v.dtype == ins[0].dtype for v in ins)
        kinds = []
        if s0:
            axes = [
                a
                for a in range(len(s0))
                if all(
                    len(v.shape) == len(s0) and all(v.shape[i] == s0[i] for i in range(len(s0)) if i != a) for v in ins
                )
            ]
            if axes:
                kinds += ["ConcatD", "ConcatD", "ConcatV2D"]
        else:
            axes = []
        if same:
            kinds.append("Pack")
            # ge_local_ops_kernel_calc_op_param.cc: CheckPhonyConcatInputIs32Align -- GE builds
            # PhonyConcat only on 32-byte multiples (a repeated input is allowed: ge-assign-memory
            # copies every repeat, as one output cannot sit at two offsets)
            if (
                self.on("phony")
                and s0
                and nbytes(s0, ins[0].dtype) % 32 == 0
                and nbytes(s0, ins[0].dtype) > 0
                and any(math.prod(s0[:a]) == 1 for a in range(len(s0)))
            ):
                kinds += ["PhonyConcat", "PhonyConcat"]
        if not kinds:
            return None
        kind = rng.choice(kinds)
        lo, hi = min(v.lo for v in ins), max(v.hi for v in ins)
        dt = ins[0].dtype
        if kind in ("ConcatD", "ConcatV2D"):
            a = rng.choice(axes)
            shape = tuple(sum(v.shape[a] for v in ins) if i == a else d for i, d in enumerate(s0))
            cd = a - len(s0) if rng.random() < 0.2 else a
            return self.one(kind, ins, shape, dt, lo, hi, f"concat_dim = {cd}, N = {len(ins)}")
        if kind == "Pack":
            a = rng.randint(0, len(s0))
            shape = s0[:a] + (len(ins),) + s0[a:]
            return self.one("Pack", ins, shape, dt, lo, hi, f"axis = {a}, N = {len(ins)}")
        # PhonyConcat: the first listed axis fastest; the block's dims before each axis are 1
        a = rng.choice([a for a in range(len(s0)) if math.prod(s0[:a]) == 1])
        n = len(ins)
        dims, ns = [a], [n]
        block = list(s0)
        block[a] *= n
        outer = [b for b in range(a) if math.prod(block[:b]) == 1]
        if n % 2 == 0 and n > 2 and outer and rng.random() < 0.5:
            b = rng.choice(outer)
            dims, ns = [a, b], [n // 2, 2]
            block = list(s0)
            block[a] *= n // 2
            block[b] *= 2
        attrs = f"concat_dim = [{', '.join(map(str, dims))}], N = [{', '.join(map(str, ns))}]"
        return self.one("PhonyConcat", ins, tuple(block), dt, lo, hi, attrs)

    def p_concat(self) -> None:
        rng = self.rng
        v = self.source()
        if not v.shape:
            v = self.reshape_to(v, (1,))
        a = rng.randrange(len(v.shape))
        ins = [v]
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            if r < 0.4:
                ins.append(self.unary(v))
            elif r < 0.6:
                ins.append(v)  # the same value twice in one concat
            else:
                s = list(v.shape)
                s[a] = rng.choice((1, 2, 3, 5)) if not (self.on("zero_size") and rng.random() < 0.2) else 0
                ins.append(
                    self.new_data(tuple(s), v.dtype)
                    if rng.random() < 0.5
                    else self.const(tuple(s), v.dtype, *INPUT_RANGE[v.dtype])
                )
        rng.shuffle(ins)
        self.concat_of(ins)

    def p_phony_concat_of_split(self) -> None:
        """SplitD's outputs feeding one ConcatD / PhonyConcat in another order (issue 17 case 1)."""
        rng = self.rng
        v = self.pick(lambda u: self.plain(u) and bool(u.shape) and u.shape[0] >= 2 and u.size > 0)
        if v is None or (self.on("phony") and rng.random() < 0.6):
            # pieces of a whole number of 32-byte blocks, so that a PhonyConcat may take them
            n = rng.choice((2, 3, 4))
            rows = rng.choice((1, 2))
            v = self.new_data((n * rows, 32 // ITEMSIZE[self.dtype] * rng.choice((1, 2))), self.dtype)
        d = v.shape[0]
        n = rng.choice([k for k in (2, 3, 4) if d % k == 0] or [d])
        piece = (d // n, *v.shape[1:])
        res = self.emit(
            "SplitD",
            [v],
            [Value(piece, v.dtype, v.lo, v.hi) for _ in range(n)],
            f"split_dim = 0, num_split = {n}",
            self.naming_groups and rng.random() < 0.5,
        )
        self.pool.extend(res)
        outs = list(res)
        while outs == res:
            rng.shuffle(outs)
        self.concat_of(outs if n > 1 else res)

    # -- reshape family ----------------------------------------------------------------------

    def reshape_to(self, v: Value, shape: tuple[int, ...]) -> Value:
        return self.one("Reshape", [v], shape, v.dtype, v.lo, v.hi)

    def p_reshape(self) -> None:
        rng = self.rng
        v = self.source()
        s = v.shape
        choice = rng.choice(("reshape", "expand", "squeeze", "unsqueeze", "transpose", "broadcast"))
        if choice == "reshape":
            n = math.prod(s)
            dims = _factor(n, rng, self.on("zero_d"))
            self.reshape_to(v, dims)
        elif choice == "expand" and len(s) < 4:
            a = rng.randint(0, len(s))
            self.one("ExpandDims", [v], s[:a] + (1,) + s[a:], v.dtype, v.lo, v.hi, f"axis = {a}")
        elif choice == "squeeze" and 1 in s:
            ones = [i for i, d in enumerate(s) if d == 1]
            axes = rng.sample(ones, rng.randint(1, len(ones)))
            if len(axes) == len(s) and not self.on("zero_d"):
                axes = axes[1:]
                if not axes:
                    return
            out = tuple(d for i, d in enumerate(s) if i not in axes)
            self.one("Squeeze", [v], out, v.dtype, v.lo, v.hi, f"axis = [{', '.join(map(str, sorted(axes)))}]")
        elif choice == "unsqueeze" and len(s) < 4:
            rank = len(s) + 1
            a = rng.randrange(rank)
            self.one("Unsqueeze", [v], s[:a] + (1,) + s[a:], v.dtype, v.lo, v.hi, f"axes = [{a}]")
        elif choice == "transpose" and len(s) >= 2:
            perm = list(range(len(s)))
            while perm == sorted(perm):
                rng.shuffle(perm)
            self.one(
                "TransposeD",
                [v],
                tuple(s[p] for p in perm),
                v.dtype,
                v.lo,
                v.hi,
                f"perm = [{', '.join(map(str, perm))}]",
            )
        elif choice == "broadcast":
            target = [d if d != 1 else rng.choice((1, 2, 3)) for d in s]
            if len(target) < 4 and rng.random() < 0.5:
                target.insert(0, rng.choice((1, 2)))
            if math.prod(target) <= 512:
                self.one(
                    "BroadcastToD", [v], tuple(target), v.dtype, v.lo, v.hi, f"shape = [{', '.join(map(str, target))}]"
                )
        else:
            self.unary(v, "Identity" if self.on("identity") else None)

    # -- library kernels ---------------------------------------------------------------------

    def p_library(self) -> None:
        rng = self.rng
        kind = rng.choices(LIBRARY, (2, 1, 2, 3, 1))[0]
        dt = self.dtype
        if kind in ("MatMul", "Conv2D") and not is_float(dt):
            dt = "f32"
        if kind == "MatMul":
            x = self.guard(self.source(dt, 2), 4.0)
            m, k = x.shape
            n = rng.choice((1, 2, 3, 4, 8, 16))
            t2 = rng.random() < 0.3
            wshape = (n, k) if t2 else (k, n)
            w = self.const(wshape, dt, -1, 1) if rng.random() < 0.6 else self.new_data(wshape, dt)
            ins = [x, w]
            attrs = "transpose_x2 = true" if t2 else ""
            bound = k * x.mag * w.mag
            if rng.random() < 0.3:
                ins.append(self.const(rng.choice(((n,), (1, n))), dt, -1, 1))
                bound += 1
            y = self.one("MatMul", ins, (m, n), dt, -bound, bound, attrs)
        elif kind == "Conv2D":
            x = self.source(dt, 4)
            if x.size == 0:  # GE's Conv2D infers no empty output
                x = self.new_data(tuple(max(d, 1) for d in x.shape), dt)
            x = self.guard(x, 4.0)
            nb, c, h, w_ = x.shape
            kh, kw = rng.choice((1, min(h, 3))), rng.choice((1, min(w_, 3)))
            k = rng.choice((1, 2, 4))
            pads = [rng.randint(0, 1) for _ in range(4)] if rng.random() < 0.5 else [0, 0, 0, 0]
            oh, ow = h + pads[0] + pads[1] - kh + 1, w_ + pads[2] + pads[3] - kw + 1
            f = self.const((k, c, kh, kw), dt, -1, 1)
            bound = c * kh * kw * x.mag
            y = self.one(
                "Conv2D",
                [x, f],
                (nb, k, oh, ow),
                dt,
                -bound,
                bound,
                f"strides = [1, 1, 1, 1], pads = [{', '.join(map(str, pads))}]",
            )
        elif kind in ("Gather", "GatherV2"):
            x = self.pick(lambda u: self.plain(u) and bool(u.shape) and u.size > 0, fresh=True) or self.new_data(
                self.shape(rng.randint(1, 3)) or (3,), dt
            )
            if not x.shape or x.size == 0:
                return
            r = len(x.shape)
            axis = 0 if kind == "Gather" else rng.randrange(r)
            d = x.shape[axis]
            ish = () if self.on("zero_d") and rng.random() < 0.4 else rng.choice(((1,), (3,), (2, 2), (d,)))
            it = rng.choice(("i32", "i64"))
            neg = rng.random() < 0.2
            idx = self.const(ish, it, -d if neg else 0, d - 1)
            ins = [x, idx]
            attrs = "negative_index_support = true" if neg else ""
            if kind == "GatherV2":
                written = axis - r if rng.random() < 0.3 else axis
                ashape = () if self.on("zero_d") and rng.random() < 0.5 else (1,)
                ins.append(self.const(ashape, rng.choice(("i32", "i64")), written, written, True))
            out = x.shape[:axis] + ish + x.shape[axis + 1 :]
            y = self.one(kind, ins, out, x.dtype, x.lo, x.hi, attrs)
        else:
            x = self.source()
            if not x.shape:
                return
            rs = rng.choice((1, 2, 4))
            y = self.one(
                "HcomAllGather",
                [x],
                (x.shape[0] * rs, *x.shape[1:]),
                x.dtype,
                x.lo,
                x.hi,
                f'rank_size = {rs}, group = "hccl_world_group"',
            )
        if self.on("identity") and rng.random() < 0.4:
            self.unary(y, "Identity")

    # -- cast ---------------------------------------------------------------------------------

    def p_cast(self) -> None:
        rng = self.rng
        v = self.source()
        targets = [d for d in ("f16", "f32", "bf16", "f64") if d != v.dtype and (d != "bf16" or self.on("bf16"))]
        if self.on("int_dtypes"):
            targets += [d for d in ("i32", "i8", "i64", "ui8", "i1") if d != v.dtype]
        dst = rng.choice(targets)
        if is_float(v.dtype) and (is_int(dst) or dst == BOOL):
            v = self.guard(v, LIMIT[dst] / 2 if dst != BOOL else LIMIT[v.dtype])
            if dst in UNSIGNED and v.lo < 0:
                v = self.unary(v, "Abs")
        if is_int(v.dtype) and is_int(dst):
            v = self.guard(v, min(LIMIT[dst], LIMIT[v.dtype]) / 2)
            if dst in UNSIGNED and v.lo < 0:
                v = self.unary(v, "Abs")
        if dst == "f16":
            v = self.guard(v, LIMIT["f16"] / 2)
        if is_int(dst):
            lo, hi = math.trunc(v.lo), math.trunc(v.hi)
        elif dst == BOOL:
            lo, hi = 0.0, 1.0
        else:
            lo, hi = v.lo, v.hi
        c = self.one("Cast", [v], v.shape, dst, lo, hi)
        if rng.random() < 0.5:
            self.unary(c)

    # -- padded formats ---------------------------------------------------------------------------

    def p_padded(self) -> None:
        """An NC1HWC0 island (origin NCHW, C % C0 != 0 mostly): pointwise, ConcatD on N or C."""
        rng = self.rng
        dt = rng.choice(("f16", "f32"))
        isl = [v for v in self.pool if v.fmt and v.dtype == dt]
        if isl and rng.random() < 0.6:
            v = rng.choice(isl)
        else:
            c = rng.choice((1, 3, 5, 17, 20, 16, 33))
            v = self.new_data((rng.choice((1, 2)), c, rng.choice((1, 2, 3)), rng.choice((1, 2))), dt, "NC1HWC0")
        r = rng.random()
        if r < 0.3:
            v = self.unary(
                v,
                rng.choice(
                    ("Relu", "Abs", "Neg", "Sigmoid", "Tanh", "Square") + (("Identity",) if self.on("identity") else ())
                ),
            )
        elif r < 0.5:
            other = self.pick(
                lambda u: u.fmt == v.fmt and u.shape == v.shape and u.dtype == dt and u is not v, fresh=False
            )
            b = other or self.new_data(v.shape, dt, "NC1HWC0")
            if self.on("same_value_twice") and rng.random() < 0.3:
                b = v
            self.binary(v, b, rng.choice(("Add", "Sub", "Mul", "Maximum")))
        else:
            axis = rng.choice((0, 0, 1))
            if v.kind == "Data" and rng.random() < 0.7:
                v = self.unary(v, rng.choice(("Relu", "Abs", "Neg")))  # a producer ConcatNotaskPass may lock
            ins = [v]
            for _ in range(rng.randint(1, 2)):
                s = list(v.shape)
                s[axis] = rng.choice((1, 2, 3, 17)) if axis == 1 else rng.choice((1, 2))
                t = tuple(s)
                same = self.pick(lambda u, t=t: u.fmt == v.fmt and u.shape == t and u.dtype == dt, fresh=False)
                ins.append(
                    same
                    if same is not None and rng.random() < 0.5
                    else self.unary(self.new_data(t, dt, "NC1HWC0"), "Relu")
                )
            rng.shuffle(ins)
            shape = tuple(sum(u.shape[axis] for u in ins) if i == axis else d for i, d in enumerate(v.shape))
            self.one(
                "ConcatD",
                ins,
                shape,
                dt,
                min(u.lo for u in ins),
                max(u.hi for u in ins),
                f"concat_dim = {axis}, N = {len(ins)}",
                fmt="NC1HWC0",
            )

    # -- identity -------------------------------------------------------------------------------

    def p_identity(self) -> None:
        rng = self.rng
        pref = [
            v for v in self.pool if v.kind in ("Data", "Const", *LIBRARY, "SplitD", "SplitVD", "PhonySplit", "Identity")
        ]
        v = rng.choice(pref) if pref and rng.random() < 0.7 else self.source()
        for _ in range(rng.randint(1, 3)):
            v = self.unary(v, "Identity")
        if rng.random() < 0.3:
            self.outputs.append(v)

    # -- the driver ------------------------------------------------------------------------------

    PATTERNS: tuple[tuple[str, str | None, int], ...] = (
        ("p_chain", None, 6),
        ("p_binary", None, 6),
        ("p_addn", None, 1),
        ("p_same_twice", "same_value_twice", 2),
        ("p_reduce", "reduce", 3),
        ("p_split", "multi_output", 4),
        ("p_phony_concat_of_split", "multi_output", 1),
        ("p_concat", "concat", 3),
        ("p_reshape", "reshape", 3),
        ("p_library", "library", 3),
        ("p_cast", "cast", 2),
        ("p_padded", "padded_formats", 3),
        ("p_identity", "identity", 2),
    )

    def build(self) -> Graph:
        rng = self.rng
        self.naming = "numeric" if self.on("numeric_names") else "mixed" if self.on("mixed_names") else "words"
        self.naming_groups = self.naming != "words" or rng.random() < 0.3
        for _ in range(rng.randint(1, 3)):
            self.new_data(self.shape(), self.dtype)
        pats = [(p, w) for p, f, w in self.PATTERNS if f is None or self.on(f)]
        names, weights = zip(*pats)
        while len(self.nodes) < self.target:
            getattr(self, rng.choices(names, weights)[0])()
        outs: list[Value] = []
        for v in self.outputs:
            if v not in outs or (self.on("netoutput_multi") and rng.random() < 0.3):
                outs.append(v)
        multi = {id(n) for n in self.nodes if len(n.outs) > 1}
        for v in self.pool:
            if v.uses == 0 and v not in outs and (id(v.node) not in multi):
                outs.append(v)
        if self.on("data_to_output"):
            outs.append(rng.choice(self.data))
        if self.on("zero_d") and rng.random() < 0.3:
            outs.append(self.const((), self.dtype, *INPUT_RANGE[self.dtype]))
        if self.on("identity") and outs and rng.random() < 0.6:
            k = rng.randrange(len(outs))
            outs[k] = self.unary(outs[k], "Identity")
        if not outs:
            outs.append(self.pool[-1])
        self.emit("NetOutput", outs, [])
        # Data nodes: indices in a random order (each index once)
        order = list(range(len(self.data)))
        if rng.random() < 0.4:
            rng.shuffle(order)
        for k, d in zip(order, self.data):
            d.node.attrs = f"index = {k}"  # type: ignore[union-attr]
        return Graph(self.seed, self.nodes, frozenset(self.features), self.naming)


# -- shapes ------------------------------------------------------------------------------------


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    out = []
    for x, y in zip(((1,) * (len(b) - len(a)) + a), ((1,) * (len(a) - len(b)) + b)):
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def _broadcasts(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    """`small` broadcasts to `big` without growing it."""
    return _broadcast(small, big) == big


def _factor(n: int, rng: random.Random, scalar: bool) -> tuple[int, ...]:
    """A random shape with n elements (rank 1..4, or 0 when `scalar`; size-1 dims included)."""
    if n == 1 and scalar and rng.random() < 0.3:
        return ()
    if n == 0:
        return tuple(0 if i == 0 else rng.choice((1, 2)) for i in range(rng.randint(1, 3)))
    dims: list[int] = []
    m = n
    for p in (2, 3, 5, 7):
        while m % p == 0:
            dims.append(p)
            m //= p
    if m > 1:
        dims.append(m)
    rng.shuffle(dims)
    rank = rng.randint(1, 4)
    out = [1] * rank
    for d in dims:
        out[rng.randrange(rank)] *= d
    return tuple(out)


# -- printing ------------------------------------------------------------------------------------

_WORDS = ("x", "y", "h", "t", "acc", "tmp", "out", "w", "r", "s")


def _render(g: Graph) -> str:
    rng = random.Random(g.seed * 7919 + 1)
    counter = [0]
    used: set[str] = set()
    type_count: dict[str, int] = {}

    def numeric() -> str:
        while str(counter[0]) in used:
            counter[0] += 1
        n = str(counter[0])
        counter[0] += 1
        return n

    def word(op: str) -> str:
        r = rng.random()
        if r < 0.35:
            # names that look like GE's generated node names: Add_1, Data_0, Relu
            k = type_count.get(op, 0)
            type_count[op] = k + 1
            base = f"{op}_{k}" if rng.random() < 0.8 else op
        else:
            base = f"{rng.choice(_WORDS)}{len(used)}"
        while base in used:
            base += "_"
        return base

    def fresh(op: str) -> str:
        if g.naming == "numeric" or (g.naming == "mixed" and rng.random() < 0.5):
            name = numeric()
        else:
            name = word(op) if g.naming == "mixed" else f"v{len(used)}"
        used.add(name)
        return name

    lines = []
    for n in g.nodes:
        if n.op == "NetOutput":
            lines.append(
                f"  ge.NetOutput {', '.join('%' + v.name for v in n.ins)} : {', '.join(v.type for v in n.ins)}"
            )
            continue
        if n.group and len(n.outs) > 1:
            base = fresh(n.op)
            for i, v in enumerate(n.outs):
                v.name = f"{base}#{i}"
            lhs = f"%{base}:{len(n.outs)}"
        else:
            for v in n.outs:
                v.name = fresh(n.op)
            lhs = ", ".join("%" + v.name for v in n.outs)
        attrs = f" {{{n.attrs}}}" if n.attrs else ""
        if n.ins:
            args = ", ".join("%" + v.name for v in n.ins)
            in_t = ", ".join(v.type for v in n.ins)
            out_t = n.outs[0].type if len(n.outs) == 1 else "(" + ", ".join(v.type for v in n.outs) + ")"
            lines.append(f"  {lhs} = ge.{n.op}({args}){attrs} : ({in_t}) -> {out_t}")
        else:
            lines.append(f"  {lhs} = ge.{n.op}{attrs} : {n.outs[0].type}")
    feats = ",".join(sorted(g.features))
    head = f"// random_graphs seed={g.seed} naming={g.naming} features={feats}\n"
    return head + "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


# -- the API -------------------------------------------------------------------------------------


def generate(seed: int, options: Options = Options()) -> Graph:
    """The random graph of `seed` (deterministic)."""
    return _Builder(seed, options).build()


def graph_text(seed: int, options: Options = Options()) -> str:
    return generate(seed, options).text()


def intermediate_values(text: str, input_seed: int = 0) -> list[np.ndarray]:
    """Every value of the graph (inputs, each node's outputs) on ge-run's random inputs for
    `--seed input_seed`, computed with the reference interpreter's op semantics."""
    from ge_dialect import ge
    from ge_dialect.verify import verify_module
    from ge_tools.parse import parse_module
    from ge_tools.registry import make_context
    from ge_tools.run import random_input
    from runtime.interpreter import ge_interpreter
    from runtime.reference import select_graph

    module = parse_module(make_context(), text, "<random_graphs>")
    verify_module(module)
    graph = select_graph(module)
    rng = np.random.default_rng(input_seed)
    inputs = {d: random_input(d, rng) for d in graph.data_nodes}
    interpreter = ge_interpreter(module)
    env: dict = {}
    values: list[np.ndarray] = []
    with np.errstate(all="ignore"):
        for op in graph.body.block.ops:
            if isinstance(op, ge.NetOutput):
                break
            if isinstance(op, ge.Data):
                outs = [inputs[op]]
            else:
                outs = interpreter.run_node(op, [env[v] for v in op.operands])
            env.update(zip(op.results, outs))
            values.extend(outs)
    return values


def nonfinite_fraction(text: str, input_seed: int = 0) -> tuple[int, int]:
    """(non-finite float elements, all float elements) over every intermediate value."""
    from ge_dialect.dtypes import is_float_dtype

    bad = total = 0
    for a in intermediate_values(text, input_seed):
        if is_float_dtype(a.dtype):  # bf16 too (ml_dtypes' bfloat16 has numpy kind "V")
            total += a.size
            bad += int(a.size - np.count_nonzero(np.isfinite(a)))
    return bad, total


# -- control flow (issue 29) ---------------------------------------------------------------


def control_graph_text(seed: int, dynamic: bool = False) -> str:
    """A module with nested If / Case / While (depth up to 3, each subgraph a ge.graph):
    one Data `x` (f32 or f16, 1 to 3 dims of 1 to 6) and an int32 scalar Data `k`, every
    subgraph taking (x, k) through its Data nodes (`_parent_node_index`) and returning the
    new x. If's cond is sum(x) > 0 (a bool, CondPass casts it); Case's index is k (ge-run's
    inputs draw it in [-4, 4]: out of range takes the last branch); a While counts i from 0
    to a trip count of 0 to 3 and carries (i, x, k). Values stay bounded (Tanh, Abs + 1
    scaled by 0.5), so every iteration is finite. With `dynamic`, dim 0 of x is `?` in
    every graph. Deterministic."""
    rng = random.Random(seed)
    dt = rng.choice(["f32", "f16"])
    dims = [rng.randint(1, 6) for _ in range(rng.randint(1, 3))]
    shown = ["?" if dynamic and i == 0 else str(d) for i, d in enumerate(dims)]
    xt = f"tensor<{'x'.join(shown)}x{dt}>"
    st = f"tensor<{dt}>"
    it = "tensor<i32>"
    axes = ", ".join(str(i) for i in range(len(dims)))
    graphs: list[str] = []
    counter = [0]

    def fresh(kind: str) -> str:
        counter[0] += 1
        return f"{kind}_{counter[0]}"

    def block(depth: int, x: str, k: str, lines: list[str]) -> str:
        """Lines computing a new x from %x and %k into `lines`; returns its name."""
        choices = ["pointwise"] + (["if", "case", "while"] if depth < 3 else [])
        kind = rng.choice(choices) if depth > 0 else rng.choice(choices[1:] or choices)
        n = fresh("v")
        if kind == "pointwise":
            c = fresh("c")
            op = rng.choice(["Tanh", "Abs", "Neg", "Relu"])
            lines.append(f"%{c} = ge.Const {{value = dense<{rng.choice([0.5, 0.25, -0.5])}> : {st}}} : {st}")
            lines.append(f"%{n}_a = ge.{op}(%{x}) : ({xt}) -> {xt}")
            lines.append(f"%{n} = ge.Mul(%{n}_a, %{c}) : ({xt}, {st}) -> {xt}")
            return n
        if kind == "while":
            body, cond = fresh("body"), fresh("cond")
            trips = rng.randint(0, 3)
            lines.append(f"%{n}_i = ge.Const {{value = dense<0> : {it}}} : {it}")
            lines.append(
                f"%{n}:3 = ge.While(%{n}_i, %{x}, %{k}) {{cond = @{cond}, body = @{body}}} : "
                f"({it}, {xt}, {it}) -> ({it}, {xt}, {it})"
            )
            datas = (
                f"  %i = ge.Data {{index = 0, _parent_node_index = 0}} : {it}\n"
                f"  %x = ge.Data {{index = 1, _parent_node_index = 1}} : {xt}\n"
                f"  %k = ge.Data {{index = 2, _parent_node_index = 2}} : {it}\n"
            )
            graphs.append(
                f"ge.graph @{cond} {{\n{datas}"
                f"  %n = ge.Const {{value = dense<{trips}> : {it}}} : {it}\n"
                f"  %l = ge.Less(%i, %n) : ({it}, {it}) -> tensor<i1>\n"
                f"  ge.NetOutput %l : tensor<i1>\n}}"
            )
            inner: list[str] = []
            y = block(depth + 1, "x", "k", inner)
            body_lines = "".join(f"  {ln}\n" for ln in inner)
            graphs.append(
                f"ge.graph @{body} {{\n{datas}"
                f"  %one = ge.Const {{value = dense<1> : {it}}} : {it}\n"
                f"  %i1 = ge.Add(%i, %one) : ({it}, {it}) -> {it}\n{body_lines}"
                f"  ge.NetOutput %i1, %{y}, %k {{_parent_node_index = [0, 1, 2]}} : {it}, {xt}, {it}\n}}"
            )
            return f"{n}#1"
        names = [fresh("branch") for _ in range(2 if kind == "if" else rng.randint(2, 3))]
        for b in names:
            inner = []
            y = block(depth + 1, "x", "k", inner)
            body_lines = "".join(f"  {ln}\n" for ln in inner)
            graphs.append(
                f"ge.graph @{b} {{\n"
                f"  %x = ge.Data {{index = 0, _parent_node_index = 1}} : {xt}\n"
                f"  %k = ge.Data {{index = 1, _parent_node_index = 2}} : {it}\n{body_lines}"
                f"  ge.NetOutput %{y} : {xt}\n}}"
            )
        if kind == "if":
            lines.append(f"%{n}_s = ge.ReduceSumD(%{x}) {{axes = [{axes}], keep_dims = false}} : ({xt}) -> {st}")
            lines.append(f"%{n}_z = ge.Const {{value = dense<0.0> : {st}}} : {st}")
            lines.append(f"%{n}_c = ge.Greater(%{n}_s, %{n}_z) : ({st}, {st}) -> tensor<i1>")
            lines.append(
                f"%{n} = ge.If(%{n}_c, %{x}, %{k}) {{then_branch = @{names[0]}, else_branch = @{names[1]}}} : "
                f"(tensor<i1>, {xt}, {it}) -> {xt}"
            )
        else:
            refs = ", ".join(f"@{b}" for b in names)
            lines.append(f"%{n} = ge.Case(%{k}, %{x}, %{k}) {{branches = [{refs}]}} : ({it}, {xt}, {it}) -> {xt}")
        return n

    main: list[str] = []
    y = block(0, "x", "k", main)
    y2 = fresh("out")
    main.append(f"%{y2} = ge.Tanh(%{y}) : ({xt}) -> {xt}")
    text = (
        "ge.graph @main {\n"
        f"  %x = ge.Data {{index = 0}} : {xt}\n"
        f"  %k = ge.Data {{index = 1}} : {it}\n"
        + "".join(f"  {ln}\n" for ln in main)
        + f"  ge.NetOutput %{y2} : {xt}\n}}"
    )
    return "\n".join([text, *graphs]) + "\n"
