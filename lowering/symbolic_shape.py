"""Symbolic shape inference: every value's shape as dims that are ints or `symbolic.Dim`s.

GE symbolizes a graph's inputs (compiler/graph/optimize/symbolic/infer_symbolic_shape/
symbolic_shape_symbolizer.cc: SymbolizeShape, a `-1` dim becomes a symbol created from the
actual input's dim as hint, a static dim stays a constant) and propagates symbolic shapes
node by node (symbolic_shape_inference.cc with per-op rules in infer_symbolic_shape/*.cc:
elewise, broadcast, reduce, reshape, concatv2d, split), appending guards to the ShapeEnv
where a rule decides on the hints (a broadcast of s0 against s1 needs s0 == s1, or one of
them 1). This module has a rule for each op ge-lower-autofuse lowers over symbols
(pointwise with numpy broadcasting, BroadcastToD, the reductions, Reshape and its family,
ConcatD/ConcatV2D, SplitD/SplitVD); a node without one, or whose rule cannot decide, gets
no symbolic shape (`None`), and nothing downstream of it either: such a node runs on the
host, as before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect import symbolic as S
from ge_dialect.ge import const_ints, ge_type, node_name
from ge_dialect.shape_env import Guard, InputShapeSource, ShapeEnv
from ge_dialect.shapes import normalize_axis

SymShape = tuple[int | S.Dim, ...]

# The pointwise types (GE's elewise / broadcast infer rules): the lowering's pointwise,
# comparison, logical, select and activation ops.
ELEMENTWISE_TYPES: frozenset[str] = frozenset({
    "Add", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "Pow", "Relu", "Abs", "Neg",
    "Exp", "Log", "Sqrt", "Rsqrt", "Sigmoid", "Tanh", "Reciprocal", "Square", "AddN", "Cast",
    "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd",
    "LogicalOr", "LogicalNot", "SelectV2", "Erf", "Gelu", "LeakyRelu", "Elu", "Sign",
    "IsNan", "ClipByValue",
})  # fmt: skip
REDUCE_TYPES: frozenset[str] = frozenset({"ReduceSumD", "ReduceMaxD", "ReduceMinD", "ReduceMeanD", "ReduceProdD"})
VIEW_TYPES: frozenset[str] = frozenset({"Identity", "Squeeze", "Unsqueeze", "ExpandDims", "Flatten", "Reshape"})


class NoRule(Exception):
    """The node has no symbolic rule, or its rule cannot decide."""


def static_shape(v: SSAValue) -> tuple[int, ...] | None:
    t = v.type
    if not isinstance(t, TensorType):
        return None
    s = tuple(t.get_shape())
    return None if any(d < 0 for d in s) else s


def symbolize_data(env: ShapeEnv, index: int, v: SSAValue, hint: Sequence[int]) -> SymShape:
    """A graph input's symbolic shape: its static dims as they are, each `?` a symbol of
    the ShapeEnv with the actual input's dim as hint.

    # GE: symbolic_shape_symbolizer.cc SymbolizeShape
    """
    t = v.type
    assert isinstance(t, TensorType)
    s = tuple(t.get_shape())
    if len(s) != len(hint):
        raise NoRule(f"input {index} has rank {len(s)}, its first value rank {len(hint)}")
    out: list[int | S.Dim] = []
    for k, (d, h) in enumerate(zip(s, hint)):
        if d >= 0:
            if d != h:
                raise NoRule(f"input {index} dim {k} is {d}, its first value has {h}")
            out.append(d)
        else:
            out.append(S.Dim.of(env.create_symbol(int(h), InputShapeSource(index, k)), env.lower))
    return tuple(out)


def broadcast(env: ShapeEnv, shapes: Sequence[SymShape], where: str) -> SymShape:
    """numpy broadcasting over symbolic dims, per dim as GE's broadcast rule: equal dims
    stay, a 1 takes the other; where the static checks cannot decide, the hints do and a
    guard records it (GE's InferAddSymbolShapeStub over EXPECT_SYMBOL_EQ)."""
    rank = max(len(s) for s in shapes)
    out: list[int | S.Dim] = []
    for k in range(rank):
        dims = [s[k - rank + len(s)] for s in shapes if k - rank + len(s) >= 0]
        acc = dims[0]
        for d in dims[1:]:
            a, b = _expr(acc), _expr(d)
            if env.expect(a, "==", b, where):
                continue
            if env.expect(a, "==", 1, where):
                acc = d
            elif env.expect(b, "==", 1, where):
                continue
            else:
                raise NoRule(f"dims {acc} and {d} do not broadcast")
        out.append(acc)
    return tuple(out)


def _expr(d: int | S.Dim) -> int | S.Expr:
    return d.e if isinstance(d, S.Dim) else d


def infer_node(env: ShapeEnv, node: Operation, ins: Sequence[SymShape]) -> list[SymShape]:
    """The node's output shapes from its inputs' (NoRule when it has no rule or cannot decide).

    # GE: symbolic_shape_inference.cc SymbolicShapeInference (infer_symbolic_shape/*.cc per op)
    """
    t = ge_type(node)
    where = f"{t} '{node_name(node)}'"
    if t in ELEMENTWISE_TYPES:
        # GE: infer_symbolic_shape/elewise (broadcast of every input)
        return [broadcast(env, ins, where)] * len(node.results)
    if t == "BroadcastToD":
        target = tuple(const_list(node, "shape"))
        return [broadcast(env, [ins[0], target], where)]
    if t in REDUCE_TYPES:
        # GE: infer_symbolic_shape/reduce
        s = ins[0]
        axes = const_list(node, "axes") or list(range(len(s)))
        try:
            axes = sorted({normalize_axis(a, len(s), "axis") for a in axes})
        except VerifyException as e:
            raise NoRule(str(e)) from None
        keep = A.get_bool(node, "keep_dims", False)
        return [tuple(1 if i in axes else d for i, d in enumerate(s) if keep or i not in axes)]
    if t in ("ConcatD", "ConcatV2D"):
        # GE: infer_symbolic_shape/concatv2d -- the axis dims add up, the others must agree
        assert isinstance(node, ge.ConcatBase)
        rank = len(ins[0])
        axis = normalize_axis(A.get_int(node, "concat_dim", 0) or 0, rank, "concat_dim")
        out = list(ins[0])
        for s in ins[1:]:
            if len(s) != rank:
                raise NoRule("inputs of different ranks")
            for k in range(rank):
                if k == axis:
                    out[k] = out[k] + s[k]
                elif not env.expect(_expr(out[k]), "==", _expr(s[k]), where):
                    raise NoRule(f"dim {k}: {out[k]} and {s[k]} differ")
        return [tuple(out)]
    if t in ("SplitD", "SplitVD"):
        # GE: infer_symbolic_shape/split -- equal parts (exact division), or the sizes
        # with at most one -1 taking the rest
        s = ins[0]
        axis = normalize_axis(A.get_int(node, "split_dim", 0) or 0, len(s), "split_dim")
        n = len(node.results)
        d = s[axis]
        if t == "SplitD":
            try:
                part = d // n
            except S.NotProvable as e:
                raise NoRule(f"{d} is not provably divisible by {n} ({e})") from None
            if not isinstance(part, S.Dim) and isinstance(d, int) and d % n:
                raise NoRule(f"{d} is not divisible by {n}")
            sizes: list[int | S.Dim] = [part] * n
        else:
            sizes = list(const_list(node, "size_splits"))
            if -1 in sizes:
                k = sizes.index(-1)
                rest = d - sum(x for x in sizes if x != -1)
                env.append_assert(Guard(_expr(rest), ">", S.const(0), where))
                sizes[k] = rest
        return [s[:axis] + (p,) + s[axis + 1 :] for p in sizes]
    if t in VIEW_TYPES:
        return [reshape(env, node, ins[0], where)]
    raise NoRule(f"no symbolic shape rule for {t}")


def reshape(env: ShapeEnv, node: Operation, s: SymShape, where: str) -> SymShape:
    """The reshape family: the output type's static dims, its one `?` the element count
    over them (GE: infer_symbolic_shape/reshape; the products stay equal by construction,
    a division that is not exact is refused). Identity keeps the shape."""
    if ge_type(node) == "Identity":
        return s
    t = node.results[0].type
    assert isinstance(t, TensorType)
    out: list[int | S.Dim] = list(t.get_shape())
    if ge_type(node) == "Reshape" and len(node.operands) > 1:
        dims = const_ints(node.operands[1])
        if dims is not None and len(dims) == len(out):
            # a 0 keeps the input dim (GE's Reshape attr allowzero=0)
            for k, d in enumerate(dims):
                if d == 0 and k < len(s) and isinstance(out[k], int) and out[k] < 0:
                    out[k] = -2
    for k, d in enumerate(out):
        if d == -2:
            out[k] = s[k]  # type: ignore[call-overload]
    unknown = [k for k, d in enumerate(out) if isinstance(d, int) and d < 0]
    if not unknown:
        if not env.expect(S.product(_expr(d) for d in s), "==", S.product(_expr(d) for d in out), where):
            raise NoRule("the element counts differ")
        return tuple(out)
    if len(unknown) > 1:
        # squeeze/unsqueeze-like: the non-1 dims keep their order
        src = [d for d in s if not (isinstance(d, int) and d == 1)]
        k_src = 0
        for k, d in enumerate(out):
            if isinstance(d, int) and d < 0:
                if k_src >= len(src):
                    raise NoRule("more unknown dims than the input has")
                out[k] = src[k_src]
                k_src += 1
            elif isinstance(d, int) and d != 1:
                raise NoRule("several unknown dims among static ones")
        if k_src != len(src):
            raise NoRule("the input's dims do not map onto the output's unknown dims")
        return tuple(out)
    known = math.prod(d for d in out if isinstance(d, int) and d >= 0)
    total = S.product(_expr(d) for d in s)
    if known == 0:
        raise NoRule("a zero dim")
    q = S.Dim.of(total, env.lower)
    try:
        part = q // known
    except S.NotProvable as e:
        raise NoRule(str(e)) from None
    out[unknown[0]] = part
    return tuple(out)


def const_list(node: Operation, name: str) -> list[int]:
    v = A.get_int_list(node, name)
    return list(v or [])
