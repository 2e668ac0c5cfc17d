"""ge_dialect/symbolic.py: GE's Expression static checks (graph_metadef/graph/expression/
symbolic_utils.cc SymbolicUtils::StaticCheck*), ported from GE's expression UTs
(tests/graph_metadef/ut/expression/testcase/expression_unittest.cc) by name where GE has
one. Expected answers are by hand: symbols are dims >= 1."""

from __future__ import annotations

import pytest

from ge_dialect import symbolic as S
from ge_dialect.symbolic import TriBool

T, F, U = TriBool.TRUE, TriBool.FALSE, TriBool.UNKNOWN
s0, s1, s2, s3 = (S.sym(f"s{i}") for i in range(4))


def test_StaticCheckEq_simplifies_both_sides() -> None:
    # UtestExpression.SymbolCheck_Succ: StaticCheckEq(sym2, sym0 + sym1) once both sides
    # are the same expression after simplification
    assert S.static_check_eq(s0 * s1 * 64, s1 * (s0 * 64)) is T
    assert S.static_check_eq(2 * (s0 + s1), 2 * s0 + 2 * s1) is T
    assert S.static_check_eq(s0, s1) is U
    assert S.static_check_eq(s0 + 1, s0) is F
    assert S.static_check_eq(S.const(2), S.const(3)) is F


def test_StaticCheckEq_zero_one_never_from_a_symbol() -> None:
    # a symbol is a dim >= 1: provably not 0, but it may be 1 (unknown)
    assert S.static_check_eq(s0, 0) is F
    assert S.static_check_eq(s0, 1) is U
    assert S.static_check_eq(s0 * s1 + 1, 1) is F
    assert S.is_eq_zero(s0 - s0) and not S.is_eq_zero(s0)
    assert S.is_eq_one(s0 - s0 + 1) and not S.is_eq_one(s0)


def test_StaticCheckNe_is_the_negation() -> None:
    assert S.static_check_ne(s0 + 1, s0) is T
    assert S.static_check_ne(s0, s0) is F
    assert S.static_check_ne(s0, s1) is U


def test_StaticCheckLt_Le_Gt() -> None:
    # UtestExpression.SymbolCheck_Succ's StaticCheckLe((sym4 - sym3), sym0) shape of fact
    assert S.static_check_lt(s0, s0 + 1) is T
    assert S.static_check_lt(s0 + 1, s0) is F
    assert S.static_check_lt(s0, s0 * s1) is U  # equal when s1 == 1
    assert S.static_check_le(s0, s0 * s1) is T
    assert S.static_check_le(s0 * s1 + s0, s0) is F
    assert S.static_check_gt(s0 * s1 * 4 + s0, s0 * s1) is T
    assert S.static_check_gt(s0, s1) is U
    assert S.static_check_gt(s0 * s1, s0 + s1) is U  # 1*1 < 2, 3*3 > 6
    assert S.static_check_gt(S.const(5), S.const(2)) is T
    assert S.static_check_lt(s0 - 1, 0) is F


def test_static_checks_refuse_what_they_cannot_prove() -> None:
    # a negative coefficient after shifting: s0*s1 - s0 - s1 + 1 = (s0-1)(s1-1) >= 0, but
    # the sound test does not see the factorisation: unknown, never a wrong true
    assert S.static_check_le(s0 + s1, s0 * s1 + 1) in (T, U)
    assert S.static_check_gt(s0 + s1, s0 * s1 + 1) is not T


def test_parse_text_round_trip_and_evaluate() -> None:
    e = s0 * s1 * 64 + s0 * 4
    assert S.text(e) == S.text(S.parse(S.text(e)))
    assert S.evaluate(S.parse("s0*(s1+2)"), {"s0": 3, "s1": 4}) == 18
    assert S.free_symbols(S.parse("s10*s2+s0")) == ["s0", "s2", "s10"]
    assert S.as_const(S.parse("(s0+1)-s0")) == 1
    with pytest.raises(ValueError, match="bad symbolic expression"):
        S.parse("s0/x")
    with pytest.raises(ValueError, match="not s<k>"):
        S.sym("n")
