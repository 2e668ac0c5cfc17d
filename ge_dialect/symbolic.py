"""Symbolic dims: GE's `ge::Expression` and `SymbolicUtils` static checks, on SymEngine.

GE's Expression wraps SymEngine (graph_metadef/graph/expression/expression.cc); this
module wraps the `symengine` Python package the same way. It was chosen over `sympy` by
measurement: import 0.38 s against 1.56 s, and expand + compare + substitute of a typical
dim expression 0.13 ms against 0.75 ms.

A dim is an `Expr`: an integer constant, a symbol `s<k>` (a dim of a graph input that is
`?`, ge_dialect/shape_env.py), or sums and products of them. Symbols stand for dims, so
each is an integer >= 1; with 0/1 specialisation (ShapeEnv) each is >= 2, and the checks
take that lower bound (`lower`) from the caller: the ShapeEnv guards it at each execution.

The static checks answer true, false or unknown (GE's TriBool): a fact is true only when
it holds for every value of the symbols, false only when it holds for none, and unknown
otherwise (GE's SymbolicUtils::StaticCheck{Eq,Ne,Lt,Le,Gt},
graph_metadef/graph/expression/symbolic_utils.cc). Never from a hint: a symbol's first
value (its hint) is what the ShapeEnv keeps, and nothing here reads it.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import symengine as se
else:

    class _SymEngine(ModuleType):
        """symengine, imported at the first symbolic operation: it loads numpy (a fifth of
        ge-opt's start-up), which a graph without `?` dims never needs
        (tests/tools/test_interop_startup.py)."""

        def __getattr__(self, name: str) -> object:
            import symengine

            globals()["se"] = symengine
            return getattr(symengine, name)

    se = _SymEngine("symengine")

Expr: TypeAlias = "se.Basic"

SYMBOL_NAME = re.compile(r"^s[0-9]+$")
_TOKEN = re.compile(r"\s*(?:(s[0-9]+)|([0-9]+)|([-+*()]))")


class TriBool(enum.Enum):
    """GE's TriBool (graph_metadef/inc/graph/symbolic.h: kTrue, kFalse, kUnknown)."""

    TRUE = "true"
    FALSE = "false"
    UNKNOWN = "unknown"

    @staticmethod
    def of(b: bool) -> TriBool:
        return TriBool.TRUE if b else TriBool.FALSE


def sym(name: str) -> Expr:
    """The symbol `name` (`s0`, `s1`, ...: GE's Symbol("s0"))."""
    if not SYMBOL_NAME.match(name):
        raise ValueError(f"symbol name {name!r} is not s<k>")
    return se.Symbol(name)


def const(v: int) -> Expr:
    """GE's Symbol(int): an integer constant."""
    return se.Integer(int(v))


def expr(x: int | Expr) -> Expr:
    """An int or an expression as an expression."""
    return se.Integer(x) if isinstance(x, int) else x


def as_const(e: int | Expr) -> int | None:
    """The value of a constant expression (GE's Expression::IsConstExpr + GetConstValue), else None."""
    if isinstance(e, int):
        return e
    e = se.expand(e)
    if isinstance(e, se.Integer):
        return int(e)
    return None


def is_const(e: int | Expr) -> bool:
    return as_const(e) is not None


def free_symbols(e: int | Expr) -> list[str]:
    """The names of the symbols `e` uses, sorted (s0 < s1 < ... < s10)."""
    if isinstance(e, int):
        return []
    return sorted((str(s) for s in e.free_symbols), key=lambda n: int(n[1:]))


def text(e: int | Expr) -> str:
    """`e` as GE's Expression::Str prints it: deterministic (SymEngine orders the terms by
    their structure, not by Python's salted hashes)."""
    if isinstance(e, int):
        return str(e)
    return str(se.expand(e)).replace(" ", "")


def parse(s: str) -> Expr:
    """An expression from its text (what `text` prints and ShapeEnv attributes hold):
    integers, symbols s<k>, + - * and parentheses. A ValueError names what is wrong."""
    pos, out = 0, []
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None:
            if s[pos:].strip() == "":
                break
            raise ValueError(f"bad symbolic expression {s!r} at {pos}: expected s<k>, an integer, + - * ( )")
        out.append(m.group(0))
        pos = m.end()
    if not "".join(out).strip():
        raise ValueError("empty symbolic expression")
    try:
        return se.expand(se.sympify("".join(out)))
    except Exception as e:  # symengine's parser raises its own error types
        raise ValueError(f"bad symbolic expression {s!r}: {e}") from None


def evaluate(e: int | Expr, values: Mapping[str, int]) -> int:
    """The integer `e` takes when each symbol has its value in `values` (a KeyError names
    a symbol without one)."""
    if isinstance(e, int):
        return e
    names = free_symbols(e)
    if not names:
        return int(se.expand(e))
    r = se.expand(e.subs({se.Symbol(n): se.Integer(values[n]) for n in names}))
    return int(r)


def product(dims: Iterable[int | Expr]) -> Expr:
    """GE's GetSymbolShapeSize: the product of the dims (1 for none)."""
    acc: Expr = se.Integer(1)
    for d in dims:
        acc = acc * expr(d)
    return se.expand(acc)


# -- static checks ------------------------------------------------------------------------


def _coeff_mul(t: Expr) -> tuple[se.Number | None, Expr | None]:
    """A term as (its numeric coefficient, the rest; None for a number)."""
    if isinstance(t, se.Number):
        return (t, None) if isinstance(t, se.Integer | se.Rational) else (None, None)
    if isinstance(t, se.Mul):
        nums = [f for f in t.args if isinstance(f, se.Number)]
        rest = [f for f in t.args if not isinstance(f, se.Number)]
        c = nums[0] if nums else se.Integer(1)
        if not isinstance(c, se.Integer | se.Rational):
            return (None, None)
        return (c, se.Mul(*rest) if len(rest) > 1 else rest[0])
    return (se.Integer(1), t)


def _is_monomial(e: Expr) -> bool:
    """A product of symbols raised to positive integer powers."""
    factors = e.args if isinstance(e, se.Mul) else (e,)
    for f in factors:
        if isinstance(f, se.Symbol):
            continue
        if isinstance(f, se.Pow) and isinstance(f.args[0], se.Symbol):
            x = f.args[1]
            if isinstance(x, se.Integer) and int(x) > 0:
                continue
        return False
    return True


def _sign_of(diff: Expr, lower: int = 1) -> tuple[bool, bool]:
    """(provably >= 0, provably > 0) for a polynomial `diff` over symbols >= `lower`.

    Substituting s = t + lower (t >= 0) and expanding: when every coefficient is >= 0 the value
    is at least the constant term, for every t >= 0. A sound, incomplete test: a polynomial
    it cannot decide is left unknown. Not GE's algorithm (SymEngine's simplifier with
    positive-integer assumptions), the same contract: true only when proved."""
    names = free_symbols(diff)
    shifted = se.expand(diff.subs({se.Symbol(n): se.Symbol(n) + lower for n in names}))
    terms = shifted.args if isinstance(shifted, se.Add) else (shifted,)
    const_term = 0
    for t in terms:
        c, rest = _coeff_mul(t)
        if c is None:
            return (False, False)
        if rest is None:
            const_term += c
            continue
        if not _is_monomial(rest):
            return (False, False)
        if c < 0:
            return (False, False)
    return (const_term >= 0, const_term > 0)


def _diff(a: int | Expr, b: int | Expr) -> Expr:
    return se.expand(expr(a) - expr(b))


def static_check_eq(a: int | Expr, b: int | Expr, lower: int = 1) -> TriBool:
    """a == b for all symbol values: true when a - b simplifies to 0, false when it is a
    nonzero constant or provably of one sign.

    # GE: graph_metadef/graph/expression/symbolic_utils.cc SymbolicUtils::StaticCheckEq
    """
    d = _diff(a, b)
    c = as_const(d)
    if c is not None:
        return TriBool.of(c == 0)
    if _sign_of(d, lower)[1] or _sign_of(-d, lower)[1]:
        return TriBool.FALSE
    return TriBool.UNKNOWN


def static_check_ne(a: int | Expr, b: int | Expr, lower: int = 1) -> TriBool:
    """# GE: symbolic_utils.cc SymbolicUtils::StaticCheckNe (the negation of StaticCheckEq)"""
    r = static_check_eq(a, b, lower)
    return r if r is TriBool.UNKNOWN else TriBool.of(r is TriBool.FALSE)


def static_check_lt(a: int | Expr, b: int | Expr, lower: int = 1) -> TriBool:
    """a < b: true when b - a is provably > 0, false when a - b is provably >= 0.

    # GE: symbolic_utils.cc SymbolicUtils::StaticCheckLt
    """
    d = _diff(b, a)
    c = as_const(d)
    if c is not None:
        return TriBool.of(c > 0)
    if _sign_of(d, lower)[1]:
        return TriBool.TRUE
    if _sign_of(-d, lower)[0]:
        return TriBool.FALSE
    return TriBool.UNKNOWN


def static_check_le(a: int | Expr, b: int | Expr, lower: int = 1) -> TriBool:
    """# GE: symbolic_utils.cc SymbolicUtils::StaticCheckLe"""
    d = _diff(b, a)
    c = as_const(d)
    if c is not None:
        return TriBool.of(c >= 0)
    if _sign_of(d, lower)[0]:
        return TriBool.TRUE
    if _sign_of(-d, lower)[1]:
        return TriBool.FALSE
    return TriBool.UNKNOWN


def static_check_gt(a: int | Expr, b: int | Expr, lower: int = 1) -> TriBool:
    """# GE: symbolic_utils.cc SymbolicUtils::StaticCheckGt"""
    return static_check_lt(b, a, lower)


def is_eq_zero(e: int | Expr) -> bool:
    """Provably 0. # GE: can_fuse/backend/backend_utils.cpp BackendUtils::IsEqZero (StaticCheckEq == kTrue)"""
    return static_check_eq(e, 0) is TriBool.TRUE


def is_eq_one(e: int | Expr) -> bool:
    """Provably 1. # GE: can_fuse/backend/backend_utils.cpp BackendUtils::IsEqOne (StaticCheckEq == kTrue)"""
    return static_check_eq(e, 1) is TriBool.TRUE


# -- dims in code written for ints ------------------------------------------------------------


class NotProvable(Exception):
    """A structural fact about symbolic dims that the static checks cannot decide: code
    that needs it refuses (never decides from a hint)."""


class Dim:
    """A symbolic dim in code written for int dims (the lowering's shapes, strides,
    repeats): arithmetic builds expressions (a constant result is a plain int again), and
    every comparison is a static check under the symbols' lower bound. Equality is GE's
    Expression::operator== (provably equal, else not equal); an ordering (<, <=, >, >=,
    and so max/min) the checks cannot decide raises NotProvable, and so does any use that
    needs its value (int(), an index, a range): no decision can read a hint.

    # GE: can_fuse/backend/backend_utils.cpp BackendUtils::IsEqZero / IsEqOne and their
    # kin compare Expressions only through SymbolicUtils::StaticCheck* == kTrue
    """

    __slots__ = ("e", "lower")

    def __init__(self, e: Expr, lower: int = 1):
        self.e, self.lower = se.expand(e), lower

    @staticmethod
    def of(e: int | Expr | Dim, lower: int = 1) -> int | Dim:
        """`e` as an int when constant, else as a Dim."""
        if isinstance(e, Dim):
            return e
        c = as_const(e)
        return c if c is not None else Dim(expr(e), lower)

    def _other(self, o: object) -> Expr:
        if isinstance(o, Dim):
            return o.e
        if isinstance(o, int):
            return se.Integer(o)
        raise TypeError(f"cannot combine a symbolic dim with {type(o).__name__}")

    def _lo(self, o: object) -> int:
        return max(self.lower, o.lower) if isinstance(o, Dim) else self.lower

    def _wrap(self, e: Expr, o: object) -> int | Dim:
        return Dim.of(e, self._lo(o))

    def __add__(self, o: object) -> int | Dim:
        return self._wrap(self.e + self._other(o), o)

    __radd__ = __add__

    def __sub__(self, o: object) -> int | Dim:
        return self._wrap(self.e - self._other(o), o)

    def __rsub__(self, o: object) -> int | Dim:
        return self._wrap(self._other(o) - self.e, o)

    def __mul__(self, o: object) -> int | Dim:
        return self._wrap(self.e * self._other(o), o)

    __rmul__ = __mul__

    def __neg__(self) -> int | Dim:
        return Dim.of(-self.e, self.lower)

    def __floordiv__(self, o: object) -> int | Dim:
        q = se.expand(self.e / self._other(o))
        if not _is_polynomial(q):
            raise NotProvable(f"{text(self.e)} // {text(self._other(o))} is not exact")
        return self._wrap(q, o)

    def __rfloordiv__(self, o: object) -> int | Dim:
        q = se.expand(self._other(o) / self.e)
        if not _is_polynomial(q):
            raise NotProvable(f"{text(self._other(o))} // {text(self.e)} is not exact")
        return self._wrap(q, o)

    def __rmod__(self, o: object) -> int:
        if _is_polynomial(se.expand(self._other(o) / self.e)):
            return 0
        raise NotProvable(f"{text(self._other(o))} % {text(self.e)}")

    def __mod__(self, o: object) -> int:
        q = se.expand(self.e / self._other(o))
        if _is_polynomial(q):
            return 0
        raise NotProvable(f"{text(self.e)} % {text(self._other(o))}")

    def _check(self, fn, o: object, what: str) -> bool:  # noqa: ANN001
        r = fn(self.e, self._other(o), self._lo(o))
        if r is TriBool.UNKNOWN:
            raise NotProvable(f"{text(self.e)} {what} {text(self._other(o))}")
        return r is TriBool.TRUE

    def __eq__(self, o: object) -> bool:  # type: ignore[override]
        """GE's Expression::operator==: identical once simplified, i.e. StaticCheckEq ==
        kTrue; a pair it cannot prove equal is not equal (what every `==` on Expressions
        in GE's backend answers), never decided by a hint."""
        if not isinstance(o, Dim | int):
            return NotImplemented
        return static_check_eq(self.e, self._other(o), self._lo(o)) is TriBool.TRUE

    def __ne__(self, o: object) -> bool:  # type: ignore[override]
        if not isinstance(o, Dim | int):
            return NotImplemented
        return not self.__eq__(o)

    def __lt__(self, o: object) -> bool:
        return self._check(static_check_lt, o, "<")

    def __le__(self, o: object) -> bool:
        return self._check(static_check_le, o, "<=")

    def __gt__(self, o: object) -> bool:
        return self._check(static_check_gt, o, ">")

    def __ge__(self, o: object) -> bool:
        return _ge(self, o)

    def __bool__(self) -> bool:
        return self != 0

    def __hash__(self) -> int:
        return hash(text(self.e))

    def __int__(self) -> int:
        raise NotProvable(f"a concrete value of {text(self.e)}")

    def __index__(self) -> int:
        raise NotProvable(f"a concrete value of {text(self.e)}")

    def __str__(self) -> str:
        return text(self.e)

    __repr__ = __str__


def _ge(d: Dim, o: object) -> bool:
    r = static_check_le(d._other(o), d.e, d._lo(o))
    if r is TriBool.UNKNOWN:
        raise NotProvable(f"{text(d.e)} >= {text(d._other(o))}")
    return r is TriBool.TRUE


def _is_polynomial(e: Expr) -> bool:
    """A sum of integer-coefficient monomials (no division left)."""
    terms = e.args if isinstance(e, se.Add) else (e,)
    for t in terms:
        c, rest = _coeff_mul(t)
        if not isinstance(c, se.Integer) or (rest is not None and not _is_monomial(rest)):
            return False
    return True


def same(a: int | Dim, b: int | Dim) -> bool:
    """Structural identity of two dims (the same expression), for keys and caches; not a
    proof of equality for other values."""
    if isinstance(a, Dim) and isinstance(b, Dim):
        return text(a.e) == text(b.e)
    return type(a) is type(b) and a == b


def dim_text(d: int | Dim) -> str:
    return str(d)


def dim_value(d: int | Dim, values: Mapping[str, int]) -> int:
    """The int `d` takes when the symbols have `values`."""
    return d if isinstance(d, int) else evaluate(d.e, values)
