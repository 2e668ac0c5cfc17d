"""Deterministic generator of large, realistic ge graphs (MLIR text, the ge dialect's syntax).

    python bench/gen_graphs.py --nodes 10000 --kind mixed --concats 1000 --seed 0 > g.mlir

A graph is built from a few parallel *streams* (think branches of a network), each with a
current value `[R, C]` (f16 or f32, C a multiple of 16, so every tensor is a whole number
of 32-byte blocks and every ConcatD input starts 32-byte aligned). Patterns advance one
stream at a time:

  chain        a pointwise unary op (Relu, Exp, Sigmoid, ...)
  diamond      fan-out to two pointwise ops, joined by a binary op (Add, Mul, ...)
  fanout       fan-out to 4..24 pointwise ops, joined by AddN
  reduce       ReduceSumD/ReduceMaxD/ReduceMeanD over C with keep_dims, then Sub (softmax-like)
  concat       2..4 pointwise producers -> ConcatD on dim 0 (rows grow)
  concat_tree  pointwise leaves -> ConcatD of ConcatD (nested concats)
  split        SplitD on dim 0 -> AddN (rows shrink; forced when rows grow past 64)
  reshape      Reshape [R, C] <-> [2R, C/2] or [R/2, 2C]
  matmul       MatMul with a splat Const weight [C, C']
  conv         Reshape to [1, R, 1, C], Conv2D with a splat Const 1x3 filter, Reshape back
  cast         Cast between f16 and f32
  join         Add of two streams' current values of one shape (a residual link)
  mix          Add of a Const [R, 1] of distinct values, then Mul by a Const [C], drawn from
               the seed (R + C values: compact in the text)

Every stream ends with a mix before the NetOutput (where `--nodes` leaves room: 4 ops
each); `--no-mixes` (generate()'s default: the tests and benchmarks that use it were
measured on those graphs) leaves the mixes out. Long runs of pointwise ops contract (Sigmoid, Tanh) or saturate, so without the
mixes every element of an output ends as one value (min = max) and a comparison of the
outputs checks little of the arithmetic; a mix gives its result distinct rows (row i,
column j: (v + r[i]) * c[j], r distinct), so every output has a spread and the ops after a
mix in the graph work on varied data.

Each stream starts at a ge.Data node and the graph ends with one ge.NetOutput of every
stream's current value, so no value is left dangling. `--nodes N` is the exact number of
ops in the graph (Data, Const and NetOutput included); `--concats K` asks for exactly K
ConcatD nodes, spread evenly through the graph. Results are named %n0, %n1, ... so node
names are unique. The same (kind, nodes, seed, concats) always gives the same bytes.

Every op stays in its domain on ge-run's random inputs (uniform in [-1, 1)): each value
carries an interval, and an op whose result would leave its domain or grow past SOFT /
HARD is swapped for a bounded op of the same arity (Sigmoid, Tanh, Maximum, ReduceMeanD);
MatMul and Conv2D splat weights are scaled down by their reduction length. The swaps keep
every random draw, so shapes, edges and node counts are those of the unbounded generator.
"""

from __future__ import annotations

import argparse
import math
import random
import struct
import sys
from dataclasses import dataclass

KINDS = ("chain", "diamond", "fanout", "concat_tree", "mixed")

UNARY = ("Relu", "Abs", "Neg", "Exp", "Sigmoid", "Tanh", "Square", "Sqrt", "Rsqrt", "Identity")
BINARY = ("Add", "Sub", "Mul", "Maximum", "Minimum")
REDUCE = ("ReduceSumD", "ReduceMaxD", "ReduceMeanD")

# Patterns each kind draws from, with weights (concat patterns are scheduled separately
# when an exact number of ConcatD nodes is requested).
MIXES: dict[str, dict[str, int]] = {
    "chain": {"chain": 8, "mix": 1},
    "diamond": {"diamond": 6, "chain": 1, "mix": 1},
    "fanout": {"fanout": 6, "chain": 1, "mix": 1},
    "concat_tree": {"concat_tree": 5, "concat": 2, "chain": 1, "mix": 1},
    "mixed": {
        "chain": 10, "diamond": 5, "fanout": 2, "reduce": 3, "concat": 3, "concat_tree": 1,
        "split": 1, "reshape": 2, "matmul": 1, "conv": 1, "cast": 1, "join": 2, "mix": 2,
    },
}  # fmt: skip
STREAMS = {"chain": 1, "diamond": 4, "fanout": 2, "concat_tree": 4, "mixed": 8}
CONCAT_PATTERNS = ("concat", "concat_tree")

MAX_ROWS = 64  # streams whose rows grow past this are split back
MIN_COLS, MAX_COLS = 16, 512
MIN_CONCAT_COST = 3  # two producers and the ConcatD
MIX_COST = 4  # two Consts, Add, Mul
# a mix's weights: multiples of 1/64 (exact in f16)
MIX_ROW_GRID = tuple(k / 64 for k in range(16, 80))  # [0.25, 1.25)
MIX_COL_GRID = tuple(k / 64 for k in range(32, 65))  # [0.5, 1.0]


@dataclass
class Value:
    name: str
    shape: tuple[int, ...]
    dtype: str
    lo: float = -1.0  # a conservative interval of the value's elements on ge-run's random
    hi: float = 1.0  # inputs (uniform in [-1, 1)): what keeps every op in its domain

    @property
    def type(self) -> str:
        return f"tensor<{'x'.join(map(str, self.shape))}x{self.dtype}>"

    @property
    def mag(self) -> float:
        return max(abs(self.lo), abs(self.hi))


# Value ranges. The patterns and their random choices are those of the generator before
# ranges were tracked (same rng calls, same shapes, same node counts and edges); only an op
# whose result would leave its domain or grow past these bounds is swapped for a bounded op
# of the same arity, and splat weights are scaled by their reduction length.
SOFT = 64.0  # |x| bound of every unary result (Relu/Abs/Neg/Identity of more: Tanh)
HARD = 4096.0  # |x| bound of binary and reduction results (f16's max is 65504)
RSQRT_MIN = 2.0**-6  # Rsqrt needs x >= this (result <= 8); Sqrt needs x >= 0
EXP_MAX = 4.0  # Exp needs x <= this (result <= 55)
SQUARE_MAX = 8.0  # Square needs |x| <= this (result <= 64)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def unary_range(op: str, v: Value) -> tuple[float, float] | None:
    """The result interval of a unary op on v, or None when v is outside its domain or the
    result could pass SOFT."""
    lo, hi = v.lo, v.hi
    if op == "Sqrt":
        r = (math.sqrt(lo), math.sqrt(hi)) if lo >= 0 else None
    elif op == "Rsqrt":
        r = (1 / math.sqrt(hi), 1 / math.sqrt(lo)) if lo >= RSQRT_MIN else None
    elif op == "Exp":
        r = (math.exp(lo), math.exp(hi)) if hi <= EXP_MAX else None
    elif op == "Square":
        m = v.mag
        r = (0.0 if lo <= 0 <= hi else min(lo * lo, hi * hi), m * m) if m <= SQUARE_MAX else None
    elif op == "Sigmoid":
        r = (_sigmoid(lo), _sigmoid(hi))
    elif op == "Tanh":
        r = (math.tanh(lo), math.tanh(hi))
    elif op == "Relu":
        r = (max(lo, 0.0), max(hi, 0.0))
    elif op == "Abs":
        r = (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), v.mag)
    elif op == "Neg":
        r = (-hi, -lo)
    else:  # Identity
        r = (lo, hi)
    if r is not None and max(abs(r[0]), abs(r[1])) > SOFT:
        return None
    return r


def binary_range(op: str, a: Value, b: Value) -> tuple[float, float]:
    if op == "Add":
        return a.lo + b.lo, a.hi + b.hi
    if op == "Sub":
        return a.lo - b.hi, a.hi - b.lo
    if op == "Mul":
        c = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
        return min(c), max(c)
    if op == "Maximum":
        return max(a.lo, b.lo), max(a.hi, b.hi)
    return min(a.lo, b.lo), min(a.hi, b.hi)  # Minimum


def pow2_at_least(n: int) -> float:
    return float(2 ** math.ceil(math.log2(max(n, 1))))


def split_count(rows: int) -> int:
    """How many equal parts to split `rows` into: 4 when that divides it and it is large."""
    if rows > 2 * MAX_ROWS and rows % 4 == 0:
        return 4
    return 2 if rows % 2 == 0 else 3  # rows are 2^a * 3^b: every factor below is 2, 3 or 4


class _Builder:
    def __init__(self, kind: str, nodes: int, seed: int, concats: int | None, mixes: bool = True):
        if kind not in KINDS:
            raise ValueError(f"unknown kind '{kind}' (known: {', '.join(KINDS)})")
        self.rng = random.Random(seed)
        self.seed = seed
        self.kind = kind
        self.nodes = nodes
        self.concats = concats
        self.lines: list[str] = []
        self.count = 0  # ops emitted
        self.next_name = 0
        self.n_concat = 0
        self.streams: list[Value] = []
        n_streams = STREAMS[kind]
        floor = n_streams + 1 + (MIN_CONCAT_COST * concats if concats else 0)
        # each stream's final mix, where the nodes allow (a graph at its floor has none)
        self.mixes = mixes
        self.final_mixes = min(n_streams, max(0, nodes - floor) // MIX_COST) if mixes else 0
        self.reserve = MIX_COST * self.final_mixes
        if nodes < floor:
            raise ValueError(
                f"--nodes {nodes} is too small for kind '{kind}'"
                + (f" with {concats} ConcatD nodes" if concats else "")
                + f" (need at least {floor})"
            )
        if concats is not None and concats < 0:
            raise ValueError(f"--concats must be >= 0, got {concats}")

    # -- emission -------------------------------------------------------------------------

    def fresh(self) -> str:
        name = f"%n{self.next_name}"
        self.next_name += 1
        return name

    def emit(self, op: str, ins: list[Value], outs: list[tuple[tuple[int, ...], str]], attrs: str = "") -> list[Value]:
        res = [Value(self.fresh(), s, d) for s, d in outs]
        lhs = ", ".join(r.name for r in res)
        a = f" {{{attrs}}}" if attrs else ""
        if ins:
            args = ", ".join(v.name for v in ins)
            in_t = ", ".join(v.type for v in ins)
            out_t = res[0].type if len(res) == 1 else "(" + ", ".join(r.type for r in res) + ")"
            self.lines.append(f"  {lhs} = ge.{op}({args}){a} : ({in_t}) -> {out_t}")
        else:
            self.lines.append(f"  {lhs} = ge.{op}{a} : {', '.join(r.type for r in res)}")
        self.count += 1
        if op == "ConcatD":
            self.n_concat += 1
        return res

    def unary(self, v: Value, op: str | None = None) -> Value:
        op = op or self.rng.choice(UNARY)
        r = unary_range(op, v)
        if r is None:  # out of its domain or too large: a bounded op instead
            op = "Sigmoid" if op in ("Sqrt", "Rsqrt") else "Tanh"
            r = unary_range(op, v)
            assert r is not None
        out = self.emit(op, [v], [(v.shape, v.dtype)])[0]
        out.lo, out.hi = r
        return out

    def binary(self, op: str, a: Value, b: Value) -> Value:
        lo, hi = binary_range(op, a, b)
        if max(abs(lo), abs(hi)) > HARD:
            op = "Maximum"
            lo, hi = binary_range(op, a, b)
        out = self.emit(op, [a, b], [(a.shape, a.dtype)])[0]
        out.lo, out.hi = lo, hi
        return out

    def const(self, shape: tuple[int, ...], dtype: str, scale: float = 1.0) -> Value:
        """A splat Const; `scale` (a power of two) divides the drawn value exactly."""
        value = float(self.rng.choice(("0.5", "1.0", "0.25", "-1.0"))) / scale
        t = Value("", shape, dtype).type
        out = self.emit("Const", [], [(shape, dtype)], f"value = dense<{value!r}> : {t}")[0]
        out.lo = out.hi = value
        return out

    # -- budget -----------------------------------------------------------------------------

    @property
    def remaining(self) -> int:
        """Ops still to emit before the final mixes and the NetOutput."""
        return self.nodes - 1 - self.reserve - self.count

    @property
    def need_concats(self) -> int:
        return 0 if self.concats is None else self.concats - self.n_concat

    @property
    def slack(self) -> int:
        """Ops free for non-concat work once every missing ConcatD gets its cheapest pattern."""
        return self.remaining - MIN_CONCAT_COST * self.need_concats

    # -- patterns (each returns the new current value of the stream) -------------------------
    # `cost` of a pattern is its op count; `t` its ConcatD count.

    def p_chain(self, v: Value) -> Value:
        return self.unary(v)

    def p_diamond(self, v: Value) -> Value:
        a, b = self.unary(v), self.unary(v)
        return self.binary(self.rng.choice(BINARY), a, b)

    def addn(self, ins: list[Value]) -> Value:
        out = self.emit("AddN", ins, [(ins[0].shape, ins[0].dtype)], f"N = {len(ins)}")[0]
        out.lo, out.hi = sum(i.lo for i in ins), sum(i.hi for i in ins)
        return out

    def p_fanout(self, v: Value, k: int) -> Value:
        return self.addn([self.unary(v) for _ in range(k)])  # k <= 24 values <= SOFT

    def p_reduce(self, v: Value) -> Value:
        op = self.rng.choice(REDUCE)
        n = v.shape[1]
        if op == "ReduceSumD" and n * v.mag > HARD:
            op = "ReduceMeanD"
        r = self.emit(op, [v], [((v.shape[0], 1), v.dtype)], "axes = [1], keep_dims = true")[0]
        r.lo, r.hi = (min(0.0, n * v.lo), max(0.0, n * v.hi)) if op == "ReduceSumD" else (v.lo, v.hi)
        return self.binary("Sub", v, r)

    def p_concat(self, v: Value, k: int) -> Value:
        ins = [self.unary(v) for _ in range(k)]
        return self.concat(ins)

    def concat(self, ins: list[Value]) -> Value:
        rows = sum(i.shape[0] for i in ins)
        shape = (rows, *ins[0].shape[1:])
        out = self.emit("ConcatD", ins, [(shape, ins[0].dtype)], f"concat_dim = 0, N = {len(ins)}")[0]
        out.lo, out.hi = min(i.lo for i in ins), max(i.hi for i in ins)
        return out

    def p_concat_tree(self, v: Value, groups: list[int]) -> Value:
        """One ConcatD per group of leaves, then a ConcatD of those: len(groups) + 1 ConcatD."""
        inner = [self.concat([self.unary(v) for _ in range(g)]) for g in groups]
        return self.concat(inner)

    def p_split(self, v: Value, n: int) -> Value:
        rows = v.shape[0] // n
        parts = self.emit("SplitD", [v], [((rows, v.shape[1]), v.dtype)] * n, f"split_dim = 0, num_split = {n}")
        for p in parts:
            p.lo, p.hi = v.lo, v.hi
        return self.addn(parts)  # n <= 4 parts of a value <= HARD

    def p_reshape(self, v: Value) -> Value:
        r, c = v.shape
        options = []
        if c % 32 == 0 and c // 2 >= MIN_COLS and r * 2 <= MAX_ROWS:
            options.append((r * 2, c // 2))
        if r % 2 == 0 and c * 2 <= MAX_COLS:
            options.append((r // 2, c * 2))
        if not options:
            return self.unary(v)
        return self.same_range(self.emit("Reshape", [v], [(self.rng.choice(options), v.dtype)])[0], v)

    @staticmethod
    def same_range(out: Value, v: Value) -> Value:
        out.lo, out.hi = v.lo, v.hi
        return out

    def p_matmul(self, v: Value) -> Value:
        cols = self.rng.choice((16, 32, 64, 128))
        k = v.shape[1]
        w = self.const((k, cols), v.dtype, pow2_at_least(k))  # k * |w| <= 1
        y = self.emit("MatMul", [v, w], [((v.shape[0], cols), v.dtype)])[0]
        m = v.mag * k * abs(w.lo)
        y.lo, y.hi = -m, m
        return y

    def p_conv(self, v: Value) -> Value:
        r, c = v.shape
        x = self.same_range(self.emit("Reshape", [v], [((1, r, 1, c), v.dtype)])[0], v)
        w = self.const((r, r, 1, 3), v.dtype, pow2_at_least(3 * r))  # 3r products per output
        y = self.emit("Conv2D", [x, w], [((1, r, 1, c), v.dtype)], "pads = [0, 0, 1, 1]")[0]
        m = v.mag * 3 * r * abs(w.lo)
        y.lo, y.hi = -m, m
        return self.same_range(self.emit("Reshape", [y], [((r, c), v.dtype)])[0], y)

    def p_cast(self, v: Value) -> Value:
        dtype = "f32" if v.dtype == "f16" else "f16"
        return self.same_range(self.emit("Cast", [v], [(v.shape, dtype)])[0], v)  # |v| <= HARD fits f16

    def dense(self, shape: tuple[int, ...], dtype: str, grid: tuple[float, ...]) -> Value:
        """A Const of values drawn from `grid` without replacement (distinct where `grid`
        is), its interval the values' range."""
        vals = self.rng.sample(grid, math.prod(shape))
        # the little-endian bytes in hex: 4 or 8 characters an element, parsed at once
        body = struct.pack(f"<{len(vals)}{'e' if dtype == 'f16' else 'f'}", *vals).hex().upper()
        t = Value("", shape, dtype).type
        out = self.emit("Const", [], [(shape, dtype)], f'value = dense<"0x{body}"> : {t}')[0]
        out.lo, out.hi = min(vals), max(vals)
        return out

    def p_mix(self, v: Value) -> Value:
        """(v + r) * c, r a Const [R, 1] of distinct values and c a Const [C] in [0.5, 1]:
        row i, column j of the result is (v[i, j] + r[i]) * c[j], so a v of one value gives
        distinct rows, and columns that differ where c does."""
        if len(v.shape) != 2 or v.shape[0] > len(MIX_ROW_GRID):
            return self.unary(self.unary(self.unary(self.unary(v))))  # out of the grids: same cost
        r = self.dense((v.shape[0], 1), v.dtype, MIX_ROW_GRID)
        a = self.emit("Add", [v, r], [(v.shape, v.dtype)])[0]
        a.lo, a.hi = v.lo + r.lo, v.hi + r.hi
        cols = v.shape[1]
        c = self.dense((cols,), v.dtype, MIX_COL_GRID * (-(-cols // len(MIX_COL_GRID))))
        y = self.emit("Mul", [a, c], [(v.shape, v.dtype)])[0]
        y.lo, y.hi = binary_range("Mul", a, c)
        return y

    def p_join(self, s: int) -> Value:
        v = self.streams[s]
        others = [o for i, o in enumerate(self.streams) if i != s and o.shape == v.shape and o.dtype == v.dtype]
        if not others:
            return self.unary(v)
        op = self.rng.choice(BINARY)
        return self.binary(op, v, self.rng.choice(others))

    # -- the driver ----------------------------------------------------------------------------

    def plan(self, pattern: str, v: Value) -> tuple[int, int, dict]:
        """(cost, ConcatD count, parameters) of a pattern on value v."""
        rng = self.rng
        if pattern == "diamond":
            return 3, 0, {}
        if pattern == "fanout":
            k = rng.randint(4, 24)
            return k + 1, 0, {"k": k}
        if pattern == "reduce":
            return 2, 0, {}
        if pattern == "concat":
            k = rng.choice((2, 2, 2, 4)) if v.shape[0] * 2 <= MAX_ROWS * 4 else 2
            return k + 1, 1, {"k": k}
        if pattern == "concat_tree":
            groups = [2] * rng.randint(2, 3)
            return sum(groups) + len(groups) + 1, len(groups) + 1, {"groups": groups}
        if pattern == "split":
            n = split_count(v.shape[0])
            if v.shape[0] % n == 0:
                return 2, 0, {"n": n}
            return 1, 0, {"instead": "chain"}  # rows that do not divide: a chain instead
        if pattern == "matmul":
            return 2, 0, {}
        if pattern == "conv":
            return 4, 0, {}
        if pattern == "mix":
            return MIX_COST, 0, {}
        return 1, 0, {}  # chain, reshape, cast, join

    def run_pattern(self, pattern: str, s: int, params: dict) -> None:
        v = self.streams[s]
        pattern = params.pop("instead", pattern)
        if pattern == "join":
            out = self.p_join(s)
        else:
            out = getattr(self, f"p_{pattern}")(v, **params)
        self.streams[s] = out

    def fits(self, cost: int, t: int) -> bool:
        if cost > self.remaining:
            return False
        if self.concats is None:
            return True
        if t > self.need_concats:
            return False
        # Keep enough ops for the ConcatD nodes still missing.
        return cost - MIN_CONCAT_COST * t <= self.slack

    def build(self) -> str:
        rng = self.rng
        for i in range(STREAMS[self.kind]):
            shape = (rng.choice((4, 8, 16)), rng.choice((16, 32, 64, 128)))
            dtype = "f16" if i % 4 != 3 else "f32"
            self.streams.append(self.emit("Data", [], [(shape, dtype)], f"index = {i}")[0])
        mix = dict(MIXES[self.kind])
        if not self.mixes:  # the graphs of the generator before the mixes, draw for draw
            mix.pop("mix")
        if self.concats is not None:
            for p in CONCAT_PATTERNS:
                mix.pop(p, None)
        names, weights = list(mix), list(mix.values())
        total = self.nodes - 1
        while self.remaining > 0:
            s = rng.randrange(len(self.streams))
            v = self.streams[s]
            want_concat = self.need_concats > 0 and (
                self.slack <= 0 or self.n_concat / self.concats < self.count / total  # type: ignore[operator]
            )
            if v.shape[0] > MAX_ROWS:
                if want_concat:  # grow the narrowest stream instead
                    s = min(range(len(self.streams)), key=lambda i: self.streams[i].shape[0])
                    v = self.streams[s]
                elif self.fits(2, 0):
                    self.run_pattern("split", s, {"n": split_count(v.shape[0])})
                    continue
            if want_concat:
                pattern = "concat_tree" if self.kind == "concat_tree" and rng.random() < 0.7 else "concat"
            else:
                pattern = rng.choices(names, weights)[0]
            cost, t, params = self.plan(pattern, v)
            if not self.fits(cost, t) and want_concat:
                pattern, (cost, t, params) = "concat", (3, 1, {"k": 2})
            if not self.fits(cost, t):
                pattern, (cost, t, params) = "chain", (1, 0, {})
            self.run_pattern(pattern, s, params)
        assert self.need_concats == 0, "concat schedule left ConcatD nodes missing"
        self.reserve = 0  # the final mixes, then the NetOutput
        for s in range(self.final_mixes):
            self.run_pattern("mix", s, {})
        outs = self.streams
        self.lines.append(f"  ge.NetOutput {', '.join(o.name for o in outs)} : {', '.join(o.type for o in outs)}")
        self.count += 1
        assert self.count == self.nodes
        head = f"// generated: kind={self.kind} nodes={self.nodes} seed={self.seed} concats={self.concats}\n"
        return head + "ge.graph @main attributes {_single_op_scene = false} {\n" + "\n".join(self.lines) + "\n}\n"


def generate(kind: str, nodes: int, seed: int, concats: int | None = None, mixes: bool = False) -> str:
    """The MLIR text of one generated ge graph with exactly `nodes` ops (and exactly
    `concats` ConcatD nodes when given). `mixes` (the command line's default) draws the mix
    pattern and ends the streams with one, so that every output varies; without them the
    graph is the earlier generator's, which the tests and benchmarks that use it were
    measured on (its outputs may be one repeated value). Raises ValueError on impossible
    requests."""
    return _Builder(kind, nodes, seed, concats, mixes).build()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=10000, help="exact number of ops in the graph")
    ap.add_argument("--kind", choices=KINDS, default="mixed")
    ap.add_argument("--concats", type=int, default=None, help="exact number of ConcatD nodes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--no-mixes", action="store_true",
        help="no mix pattern and no final mixes: the earlier generator's graph, whose outputs may be one value",
    )  # fmt: skip
    ap.add_argument("-o", "--output", help="output file (default: stdout)")
    args = ap.parse_args(argv)
    try:
        text = generate(args.kind, args.nodes, args.seed, args.concats, not args.no_mixes)
    except ValueError as e:
        ap.error(str(e))
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
