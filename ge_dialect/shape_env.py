"""ShapeEnv: the symbols of a graph's unknown dims, their sources and hints, guards, asserts.

GE keeps this as a graph attribute group, ShapeEnvAttr
(graph_metadef/graph/expression/attr_group_shape_env_attr.cc): `CreateSymbol(hint, source)`
makes the symbol of one input dim whose first real value is `hint`; how depends on the
setting (ShapeEnvSetting: specialize_zero_one, DynamicMode):

* 0/1 specialisation: a hint of 0 or 1 gives the constant 0 or 1, no symbol (a dim that
  was 1 broadcasts; compiling it as a symbol would lose that);
* duck mode: equal hints share one symbol (two dims that were equal stay equal);
* dynamic mode: every source gets its own symbol;
* static mode: one symbol per source, with the assert `symbol == hint`.

Shape inference appends guards (AppendSymbolCheckInfo: a fact taken from the hints that the
compiled graph relies on, e.g. a broadcast of s0 against s1 with equal hints needs
s0 == s1) and asserts (AppendSymbolAssertInfo: a fact the graph needs to be valid at all).
Each execution binds the symbols from the actual inputs and checks every guard (GE's
guarded execution point: a guard that fails means the compiled graph does not apply, so
it is compiled again: api/session/jit_execution/exe_points/guarded_execution_point.cc);
an assert that fails is an error.

A dim whose symbol is shared (duck sizing) or that was specialised to 0/1 carries an
implicit guard: its source must give the symbol's value (or the constant) again; binding
checks that too and names the source.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, DictionaryAttr, IntegerAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from ge_dialect import symbolic as S

SHAPE_ENV_ATTR = "_shape_env"
# an AscBackend's output shape over symbols, one expression per dim (GE keeps it in the
# output desc's SymbolicDescAttr: its origin symbol shape)
ORIGIN_SYMBOL_SHAPE_ATTR = "_origin_symbol_shape"


def origin_symbol_shape(v: SSAValue) -> ArrayAttr:
    """`v`'s origin symbol shape as its producer's `_origin_symbol_shape` holds it (one list,
    or one per result), else its static shape; each dim an expression's text."""
    owner = v.owner
    a = owner.attributes.get(ORIGIN_SYMBOL_SHAPE_ATTR) if isinstance(owner, Operation) else None
    if isinstance(a, ArrayAttr) and a.data:
        if isinstance(a.data[0], ArrayAttr):
            k = v.index if isinstance(v, OpResult) else 0
            if k < len(a.data):
                return a.data[k]  # type: ignore[return-value]
        else:
            return a
    t = v.type
    dims = t.get_shape() if isinstance(t, TensorType) else ()
    return ArrayAttr([StringAttr(str(d)) for d in dims])


class DynamicMode(enum.Enum):
    """GE's DynamicMode (attr_group_shape_env.h: kDynamic, kDuck, kStatic)."""

    DYNAMIC = "dynamic"
    DUCK = "duck"
    STATIC = "static"


@dataclass(frozen=True)
class ShapeEnvSetting:
    """GE's ShapeEnvSetting(specialize_zero_one, dynamic_mode)."""

    specialize_zero_one: bool = True
    dynamic_mode: DynamicMode = DynamicMode.DUCK


@dataclass(frozen=True)
class InputShapeSource:
    """A dim of a graph input (GE's GraphInputShapeSource: input index, dim index)."""

    input_index: int
    dim: int

    @property
    def global_index(self) -> int:
        """GE's Source::GetGlobalIndex: the graph input it reads."""
        return self.input_index

    def __str__(self) -> str:
        return f"input {self.input_index} dim {self.dim}"

    def value(self, shapes: Sequence[Sequence[int]]) -> int:
        return int(shapes[self.input_index][self.dim])


@dataclass(frozen=True)
class InputRankSource:
    """The rank of a graph input of unknown rank (GE's InputRankSource)."""

    input_index: int

    @property
    def global_index(self) -> int:
        return self.input_index

    def __str__(self) -> str:
        return f"input {self.input_index} rank"

    def value(self, shapes: Sequence[Sequence[int]]) -> int:
        return len(shapes[self.input_index])


Source = InputShapeSource | InputRankSource

RELATIONS = ("==", "!=", "<", "<=", ">")
_CHECKS = {
    "==": S.static_check_eq, "!=": S.static_check_ne, "<": S.static_check_lt,
    "<=": S.static_check_le, ">": S.static_check_gt,
}  # fmt: skip
_HOLDS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
}  # fmt: skip


@dataclass(frozen=True)
class Guard:
    """One SymbolCheckInfo / SymbolAssertInfo: `lhs rel rhs` (GE's sym::Eq / Ne / Lt / Le /
    Gt) and the node that needed it (GE's GuardDfxContext: dfx_info)."""

    lhs: S.Expr
    rel: str
    rhs: S.Expr
    dfx_info: str = ""

    def text(self) -> str:
        return f"{S.text(self.lhs)} {self.rel} {S.text(self.rhs)}"

    def holds(self, values: Mapping[str, int]) -> bool:
        return _HOLDS[self.rel](S.evaluate(self.lhs, values), S.evaluate(self.rhs, values))

    def static_check(self, lower: int = 1) -> S.TriBool:
        return _CHECKS[self.rel](self.lhs, self.rhs, lower)

    def negation(self) -> Guard:
        """not (lhs rel rhs), with the relations this type has (GE: sym::Not)."""
        a, b, d = self.lhs, self.rhs, self.dfx_info
        return {
            "==": Guard(a, "!=", b, d), "!=": Guard(a, "==", b, d), "<": Guard(b, "<=", a, d),
            "<=": Guard(b, "<", a, d), ">": Guard(a, "<=", b, d),
        }[self.rel]  # fmt: skip

    @staticmethod
    def parse(text: str, dfx_info: str = "") -> Guard:
        for rel in ("==", "!=", "<=", "<", ">"):
            lhs, sep, rhs = text.partition(f" {rel} ")
            if sep:
                return Guard(S.parse(lhs), rel, S.parse(rhs), dfx_info)
        raise ValueError(f"bad guard {text!r}: expected `lhs REL rhs` with REL one of {', '.join(RELATIONS)}")


class GuardFailed(Exception):
    """A guard does not hold for this execution's inputs: the compiled graph does not apply."""


class AssertFailed(Exception):
    """An assert does not hold: the inputs are not valid for this graph."""


@dataclass
class ShapeEnv:
    """GE's ShapeEnvAttr: symbols, their sources and hints, guards and asserts."""

    setting: ShapeEnvSetting = field(default_factory=ShapeEnvSetting)
    # symbol name -> hint (GE: symbol_to_value_)
    symbol_to_value: dict[str, int] = field(default_factory=dict)
    # hint -> the symbols made for it, in creation order (GE: value_to_symbol_)
    value_to_symbol: dict[int, list[str]] = field(default_factory=dict)
    # symbol name -> its first source (GE: symbol_to_source_)
    symbol_to_source: dict[str, Source] = field(default_factory=dict)
    # every source CreateSymbol saw, with the expression it got (symbol or 0/1 constant)
    sources: list[tuple[Source, S.Expr]] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)  # GE: symbol_check_infos_
    asserts: list[Guard] = field(default_factory=list)  # GE: symbol_assert_infos_

    # -- CreateSymbol ---------------------------------------------------------------------

    def create_symbol(self, hint: int, source: Source) -> S.Expr:
        """# GE: attr_group_shape_env_attr.cc ShapeEnvAttr::CreateSymbol

        A source seen before gets its expression again in every mode (GE does so in static
        mode; here a source is one input dim, which can have only one value per execution).
        """
        for src, e in self.sources:
            if src == source:
                return e
        mode = self.setting.dynamic_mode
        if self.setting.specialize_zero_one and hint in (0, 1):
            e: S.Expr = S.const(hint)
        elif mode is DynamicMode.DUCK and self.value_to_symbol.get(hint):
            e = S.sym(self.value_to_symbol[hint][0])
        else:
            name = f"s{len(self.symbol_to_value)}"
            self.symbol_to_value[name] = hint
            self.value_to_symbol.setdefault(hint, []).append(name)
            self.symbol_to_source[name] = source
            e = S.sym(name)
            if mode is DynamicMode.STATIC:
                self.append_assert(Guard(e, "==", S.const(hint), str(source)))
        self.sources.append((source, e))
        return e

    @property
    def lower(self) -> int:
        """The symbols' lower bound: 2 under 0/1 specialisation (a 0 or 1 became a
        constant, so a symbol was >= 2 when it was made, and binding guards that it stays
        so), else 1 (a dim)."""
        return 2 if self.setting.specialize_zero_one else 1

    def hint(self, name: str) -> int:
        return self.symbol_to_value[name]

    def hint_of(self, e: int | S.Expr) -> int:
        """The value `e` had on the inputs the symbols were made from."""
        return S.evaluate(e, self.symbol_to_value)

    # -- guards and asserts ---------------------------------------------------------------

    def append_guard(self, g: Guard) -> None:
        """# GE: ShapeEnvAttr::AppendSymbolCheckInfo (a provable fact is not recorded; one
        guard once)"""
        if g.static_check(self.lower) is S.TriBool.TRUE or self.has_guard(g):
            return
        self.guards.append(g)

    def append_assert(self, g: Guard) -> None:
        """# GE: ShapeEnvAttr::AppendSymbolAssertInfo"""
        if g.static_check(self.lower) is S.TriBool.TRUE or self.has_assert(g):
            return
        self.asserts.append(g)

    def has_guard(self, g: Guard) -> bool:
        """# GE: ShapeEnvAttr::HasSymbolCheckInfo"""
        return any(x.text() == g.text() for x in self.guards)

    def has_assert(self, g: Guard) -> bool:
        """# GE: ShapeEnvAttr::HasSymbolAssertInfo"""
        return any(x.text() == g.text() for x in self.asserts)

    def expect(self, lhs: int | S.Expr, rel: str, rhs: int | S.Expr, dfx_info: str = "") -> bool:
        """GE's EXPECT_SYMBOL_EQ / NE / LT / LE / GT: the static check's answer when it has
        one (no guard); otherwise the answer on the hints, recorded as a guard (the relation
        when it held, its negation when not) so that the graph compiled on that answer is
        only used where it holds again.

        # GE: graph_metadef/graph/expression/expression.cc (EXPECT_SYMBOL_* over SymbolicUtils::StaticCheck*
        # and ShapeEnvAttr::AppendSymbolCheckInfo)
        """
        a, b = S.expr(lhs), S.expr(rhs)
        g = Guard(a, rel, b, dfx_info)
        r = g.static_check(self.lower)
        if r is not S.TriBool.UNKNOWN:
            return r is S.TriBool.TRUE
        held = g.holds(self.symbol_to_value)
        self.append_guard(g if held else g.negation())
        return held

    # -- binding --------------------------------------------------------------------------

    def bind(self, shapes: Sequence[Sequence[int]]) -> dict[str, int]:
        """The symbols' values for inputs of these shapes, after checking every source,
        guard and assert (GuardFailed / AssertFailed say which and why)."""
        values: dict[str, int] = {}
        for src, e in self.sources:
            v = src.value(shapes)
            c = S.as_const(e)
            if c is not None:
                if v != c:
                    raise GuardFailed(f"{src} is {v}, compiled for {c} (0/1 specialisation)")
                continue
            name = str(e)
            if name not in values:
                values[name] = v
            elif values[name] != v:
                first = self.symbol_to_source[name]
                raise GuardFailed(f"{src} is {v}, compiled equal to {name} = {values[name]} ({first}; duck sizing)")
        if self.lower > 1:
            for name, v in values.items():
                if v < self.lower:
                    raise GuardFailed(
                        f"{name} = {v} ({self.symbol_to_source[name]}), compiled for {name} >= {self.lower} "
                        "(0/1 specialisation)"
                    )
        for g in self.asserts:
            if not g.holds(values):
                raise AssertFailed(f"assert {g.text()} fails with {self.fmt_values(values, g)}")
        for g in self.guards:
            if not g.holds(values):
                raise GuardFailed(f"guard {g.text()} fails with {self.fmt_values(values, g)}")
        return values

    @staticmethod
    def fmt_values(values: Mapping[str, int], g: Guard | None = None) -> str:
        names = sorted(values, key=lambda n: int(n[1:]))
        if g is not None:
            used = set(S.free_symbols(g.lhs)) | set(S.free_symbols(g.rhs))
            names = [n for n in names if n in used]
        return ", ".join(f"{n} = {values[n]}" for n in names) or "no symbols"

    def describe_symbols(self) -> list[str]:
        """`s0: input 0 dim 0 (hint 8)` per symbol, in creation order; then each other
        source and the expression it shares."""
        out = [f"{n}: {self.symbol_to_source[n]} (hint {h})" for n, h in self.symbol_to_value.items()]
        for src, e in self.sources:
            c = S.as_const(e)
            if c is not None:
                out.append(f"{src}: specialised to {c}")
            elif self.symbol_to_source[str(e)] != src:
                out.append(f"{src}: duck-sized to {e}")
        return out

    # -- the graph attribute --------------------------------------------------------------

    def to_attr(self) -> DictionaryAttr:
        """The ShapeEnv as a graph attribute (GE serialises ShapeEnvAttr with the graph)."""

        def src_attr(src: Source, e: S.Expr) -> Attribute:
            dim = src.dim if isinstance(src, InputShapeSource) else -1
            return ArrayAttr([IntegerAttr(src.input_index, 64), IntegerAttr(dim, 64), StringAttr(S.text(e))])

        return DictionaryAttr({
            "mode": StringAttr(self.setting.dynamic_mode.value),
            "specialize_zero_one": BoolAttr.from_bool(self.setting.specialize_zero_one),
            "symbols": ArrayAttr([
                ArrayAttr([StringAttr(n), IntegerAttr(h, 64)]) for n, h in self.symbol_to_value.items()
            ]),
            "sources": ArrayAttr([src_attr(s, e) for s, e in self.sources]),
            "guards": ArrayAttr([StringAttr(g.text()) for g in self.guards]),
            "asserts": ArrayAttr([StringAttr(g.text()) for g in self.asserts]),
        })  # fmt: skip

    @staticmethod
    def from_attr(attr: Attribute) -> ShapeEnv:
        """The ShapeEnv of a graph attribute made by `to_attr` (ValueError when malformed)."""
        if not isinstance(attr, DictionaryAttr):
            raise ValueError(f"{SHAPE_ENV_ATTR} must be a dictionary")
        d = attr.data
        try:
            mode, z = d["mode"], d["specialize_zero_one"]
            assert isinstance(mode, StringAttr)
            assert isinstance(z, IntegerAttr)
            env = ShapeEnv(ShapeEnvSetting(bool(z.value.data), DynamicMode(mode.data)))
            syms = d["symbols"]
            assert isinstance(syms, ArrayAttr)
            hints: dict[str, int] = {}
            for s in syms.data:
                n, h = s.data  # type: ignore[attr-defined]
                hints[n.data] = h.value.data
            srcs = d["sources"]
            assert isinstance(srcs, ArrayAttr)
            for s in srcs.data:
                i, dim, e = s.data  # type: ignore[attr-defined]
                i, dim = i.value.data, dim.value.data
                src: Source = InputRankSource(i) if dim < 0 else InputShapeSource(i, dim)
                ex = S.parse(e.data)
                env.sources.append((src, ex))
                name = str(ex)
                if name in hints and name not in env.symbol_to_source:
                    env.symbol_to_source[name] = src
            for n, h in hints.items():
                env.symbol_to_value[n] = h
                env.value_to_symbol.setdefault(h, []).append(n)
            for key, out in (("guards", env.guards), ("asserts", env.asserts)):
                gs = d[key]
                assert isinstance(gs, ArrayAttr)
                out.extend(Guard.parse(g.data) for g in gs.data)  # type: ignore[attr-defined]
        except (KeyError, AssertionError, TypeError, AttributeError) as e:
            raise ValueError(f"malformed {SHAPE_ENV_ATTR} attribute ({e})") from None
        return env
