"""Checks of pass option values, run when a pass is built (its dataclass `__post_init__`).

A pass refuses a value it cannot take (`max-fusion-size=-1`, `streams=3`, `stage=foo`)
the moment it is configured, not when it first meets a module: the error names the pass
and the option as they are typed on the command line, and what the option takes. The
tools print it as one line `<tool>: error: <pass>: option <name>: <what is expected>`;
the type of a value (`max-fusion-size=abc`) is checked before, by the pipeline parser.
Here, beside diagnostics.py, because passes/ and lowering/ both use it.
"""

from __future__ import annotations

from collections.abc import Iterable

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
