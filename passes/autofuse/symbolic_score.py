"""CanFuse's memory score over symbolic shapes, and GE's order of candidate pairs by it.

GE scores a candidate pair by the memory its fusion saves: the sizes of the buffers both
nodes read or write, each a symbolic element count times the dtype size, summed into an
Expression (fusion_strategy_solver.cpp: GetMemorySize, GetReadsByNode / GetWritesByNode,
ScoreFusion::ScoreFusionMemory, starting from Symbol(0)). Pairs are sorted with
ScoreFusion::Compare (NodePair::operator<): two identical score expressions fall back to
the smaller proximity, then the smaller min order; two constant scores compare as
numbers, the larger first; otherwise a pair comes first only when its score is provably
greater (SymbolicUtils::StaticCheckGt == kTrue: undecidable counts as not greater).

A buffer's symbolic shape is its producer's `_origin_symbol_shape` (ge-symbolic-autofuse
writes it on the AscBackends it makes and on the unknown graph's Data nodes; a fused node
keeps one per result), else its static shape.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, StringAttr, TensorType
from xdsl.ir import Operation, SSAValue

from ge_dialect import symbolic as S
from ge_dialect.dtypes import size_in_bytes
from ge_dialect.shape_env import ORIGIN_SYMBOL_SHAPE_ATTR


def symbolic_shape(v: SSAValue) -> tuple[S.Expr, ...] | None:
    """`v`'s symbolic shape (its SymbolicDescAttr origin symbol shape in GE), else its
    static shape; None when it has neither."""
    owner = v.owner
    attr = owner.attributes.get(ORIGIN_SYMBOL_SHAPE_ATTR) if isinstance(owner, Operation) else None
    if isinstance(attr, ArrayAttr) and attr.data:
        items = attr.data
        if isinstance(items[0], ArrayAttr):  # one shape per result
            idx = v.index if hasattr(v, "index") else 0  # type: ignore[attr-defined]
            items = items[idx].data if idx < len(items) else ()  # type: ignore[attr-defined]
        if all(isinstance(d, StringAttr) for d in items):
            return tuple(S.parse(d.data) for d in items)  # type: ignore[attr-defined]
    t = v.type
    if isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape()):
        return tuple(S.const(d) for d in t.get_shape())
    return None


def buffer_size(v: SSAValue) -> S.Expr:
    """# GE: fusion_strategy_solver.cpp GetMemorySize(dtype, symbol_shape_size) -- the
    symbolic element count times the dtype size (an unknown shape: 0, it saves nothing
    that can be counted)."""
    shape = symbolic_shape(v)
    t = v.type
    if shape is None or not isinstance(t, TensorType):
        return S.const(0)
    return S.product(shape) * size_in_bytes(1, t.element_type)


def score_fusion_memory(buffers1: Iterable[SSAValue], buffers2: Iterable[SSAValue]) -> S.Expr:
    """# GE: fusion_strategy_solver.cpp ScoreFusion::ScoreFusionMemory -- the sizes of the
    buffers both nodes read or write, each anchor once (an Expression from Symbol(0))."""
    b2 = set(buffers2)
    acc: S.Expr = S.const(0)
    for v in dict.fromkeys(buffers1):
        if v in b2:
            acc = acc + buffer_size(v)
    return S.expr(S.product([acc]))


@dataclass(frozen=True)
class ScoredPair:
    """One candidate pair with what ScoreFusion::Compare reads."""

    score: S.Expr
    proximity: int
    min_order: int
    tie: tuple = ()  # this port's total order where GE's sort leaves a tie (solver.py)


def compare(p1: ScoredPair, p2: ScoredPair, lower: int = 2) -> bool:
    """p1 comes before p2 (`lower`: the symbols' lower bound, 2 under 0/1 specialisation).

    # GE: fusion_strategy_solver.cpp ScoreFusion::Compare (NodePair::operator<)
    """
    if S.text(p1.score) == S.text(p2.score):
        if p1.proximity != p2.proximity:
            return p1.proximity < p2.proximity
        if p1.min_order != p2.min_order:
            return p1.min_order < p2.min_order
        return p1.tie < p2.tie
    c1, c2 = S.as_const(p1.score), S.as_const(p2.score)
    if c1 is not None and c2 is not None:
        return c1 > c2
    return S.static_check_gt(p1.score, p2.score, lower) is S.TriBool.TRUE


def sort_pairs(pairs: Sequence[ScoredPair], lower: int = 2) -> list[ScoredPair]:
    """The pairs in GE's order (GetPossibleFusionsWithPrioritySort's std::sort with
    Compare): a stable sort, so pairs Compare cannot order keep their candidate order."""

    def cmp(a: ScoredPair, b: ScoredPair) -> int:
        if compare(a, b, lower):
            return -1
        if compare(b, a, lower):
            return 1
        return 0

    return sorted(pairs, key=functools.cmp_to_key(cmp))
