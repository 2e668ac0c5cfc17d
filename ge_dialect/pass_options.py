"""Checks of pass option values, run when a pass is built (its dataclass `__post_init__`).

A pass refuses a value it cannot take (`max-fusion-size=-1`, `streams=3`, `stage=foo`)
the moment it is configured, not when it first meets a module: the error names the pass
and the option as they are typed on the command line, and what the option takes. The
tools print it as one line `<tool>: error: <pass>: option <name>: <what is expected>`;
the type of a value (`max-fusion-size=abc`) is checked before, by the pipeline parser.

Each pass declares its options once, in a table `OPTIONS` (field -> `Option`: what the
option means and what it takes, `Allowed`): `__post_init__` runs the table's checks
(`check_options`) and ge-opt --help prints the same table, so the two cannot drift.
Here, beside diagnostics.py, because passes/ and lowering/ both use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from xdsl.passes import ModulePass


class PassOptionError(ValueError):
    """An option value a pass cannot take: `<pass>: option <name>: <what is expected>`."""

    def __init__(self, pass_name: str, option: str, expected: str):
        self.pass_name = pass_name
        self.option = option.replace("_", "-")
        self.expected = expected
        super().__init__(f"{pass_name}: option {self.option}: {expected}")


def _shown(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, tuple):
        return ",".join(_shown(v) for v in value) or "(none)"
    return str(value)


def option_error(p: ModulePass, field: str, expected: str) -> PassOptionError:
    return PassOptionError(p.name, field, f"{expected}, got {_shown(getattr(p, field))}")


def at_least(p: ModulePass, field: str, lo: int | float, what: str = "an integer") -> None:
    """`p.<field>` is >= lo (None, the value of an `X | None` option left unset, passes)."""
    v = getattr(p, field)
    if v is not None and not v >= lo:  # `not >=`: a NaN float is refused too
        raise option_error(p, field, f"expected {what} >= {lo}")


def in_range(p: ModulePass, field: str, lo: int, hi: int) -> None:
    """`p.<field>` is in lo..hi, both included."""
    if not lo <= getattr(p, field) <= hi:
        raise option_error(p, field, f"expected an integer in {lo}..{hi}")


def _choices(choices: Iterable[object]) -> str:
    shown = [_shown(c).strip("'") for c in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def one_of(p: ModulePass, field: str, choices: Iterable[object]) -> None:
    """`p.<field>` is one of `choices`."""
    choices = tuple(choices)
    if getattr(p, field) not in choices:
        raise option_error(p, field, f"expected {_choices(choices)}")


def each_one_of(p: ModulePass, field: str, choices: Iterable[str], note: dict[str, str] | None = None) -> None:
    """Every element of the list option `p.<field>` is one of `choices`; `note` adds a word
    on a known but refused element."""
    choices = tuple(choices)
    for v in getattr(p, field):
        if v not in choices:
            extra = f" ({note[v]})" if note and v in note else ""
            raise PassOptionError(p.name, field, f"expected a list of {', '.join(choices)}, got '{v}'{extra}")


# -- the declarative option table: one entry per option, read by __post_init__ and --help --


class Allowed:
    """What an option takes: `describe()` is the --help text, `check(p, field)` the test
    that `__post_init__` runs (via check_options). The base class takes any value of the
    option's type (the pipeline parser checks the type)."""

    def describe(self, type_name: str) -> str:
        return type_name

    def check(self, p: ModulePass, field: str) -> None:
        pass


@dataclass(frozen=True)
class AnyValue(Allowed):
    """Any value of the option's type: `what` says it in words (`an integer`)."""

    what: str

    def describe(self, type_name: str) -> str:
        return self.what


@dataclass(frozen=True)
class Flag(Allowed):
    def describe(self, type_name: str) -> str:
        return "true | false"


@dataclass(frozen=True)
class AtLeast(Allowed):
    """A number >= lo; `or_none`: the option may be left unset (`X | None`)."""

    lo: int | float
    what: str = "an integer"
    or_none: str | None = None

    def describe(self, type_name: str) -> str:
        return f"{self.what} >= {self.lo}" + (f", or none ({self.or_none})" if self.or_none else "")

    def check(self, p: ModulePass, field: str) -> None:
        at_least(p, field, self.lo, self.what)


@dataclass(frozen=True)
class InRange(Allowed):
    lo: int
    hi: int

    def describe(self, type_name: str) -> str:
        return f"an integer in {self.lo}..{self.hi}"

    def check(self, p: ModulePass, field: str) -> None:
        in_range(p, field, self.lo, self.hi)


@dataclass(frozen=True)
class OneOf(Allowed):
    """One of `choices`; `or_none`: the option may be left unset (`X | None`)."""

    choices: tuple[object, ...]
    or_none: str | None = None

    def describe(self, type_name: str) -> str:
        shown = " | ".join(_shown(c).strip("'") for c in self.choices)
        return shown + (f", or none ({self.or_none})" if self.or_none else "")

    def check(self, p: ModulePass, field: str) -> None:
        if self.or_none is not None and getattr(p, field) is None:
            return
        one_of(p, field, self.choices)


@dataclass(frozen=True)
class ListOf(Allowed):
    """A comma-separated list, each element one of `choices`; `refused` names known
    elements that are refused, with why."""

    choices: tuple[str, ...]
    refused: tuple[tuple[str, str], ...] = ()

    def describe(self, type_name: str) -> str:
        return "a list of " + ", ".join(self.choices)

    def check(self, p: ModulePass, field: str) -> None:
        each_one_of(p, field, self.choices, dict(self.refused))


@dataclass(frozen=True)
class Option:
    """One pass option: what it means (`doc`, one paragraph) and what it takes."""

    doc: str
    allowed: Allowed = Allowed()


REMARKS = Option("print, node by node, what the pass decided and why (as ge-opt --remarks)", Flag())


def option_table(cls: type[ModulePass]) -> Mapping[str, Option]:
    """`cls.OPTIONS`: field name (underscores) -> Option, one entry per dataclass option."""
    return getattr(cls, "OPTIONS", {})


def check_options(p: ModulePass) -> None:
    """Run every option's check of `p`'s table (what a pass's `__post_init__` calls)."""
    for field_name, opt in option_table(type(p)).items():
        opt.allowed.check(p, field_name)


class LazyOptions:
    """A class attribute OPTIONS built on first use: a pipeline pass that borrows its
    constituents' options without importing them when it is imported."""

    def __init__(self, build: Callable[[], Mapping[str, Option]]):
        self._build = build
        self._table: Mapping[str, Option] | None = None

    def __get__(self, obj: object, owner: type) -> Mapping[str, Option]:
        if self._table is None:
            self._table = self._build()
        return self._table
