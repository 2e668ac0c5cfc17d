"""How shapes print in messages, and how an axis attribute is normalised: one home for
each, shared by the dialect verifiers, the passes and the reference interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.utils.exceptions import VerifyException


def fmt_shape(s: Sequence[int] | None) -> str:
    """A tensor shape as the verifiers and interpreters print it: `4x16`, `?` for an unknown
    dim, `scalar` for rank 0, `*` for an unranked tensor (None)."""
    if s is None:
        return "*"
    return "x".join("?" if d < 0 else str(d) for d in s) if s else "scalar"


def fmt_dims(dims: Sequence[int] | None) -> str:
    """A dim list as the passes' remarks and errors print it (GE's runtime/storage dims):
    `[1, 32, 16]` (None: `[]`)."""
    return "[" + ", ".join(map(str, dims or ())) + "]"


def normalize_axis(axis: int, rank: int, what: str) -> int:
    """`axis` in [-rank, rank) as a non-negative axis; a VerifyException naming `what` and
    the valid range otherwise."""
    if not -rank <= axis < rank:
        raise VerifyException(f"{what} {axis} is out of range for rank {rank} (valid: [{-rank}, {rank - 1}])")
    return axis + rank if axis < 0 else axis


def dims_agree(a: Sequence[int] | None, b: Sequence[int] | None) -> bool:
    """Whether two descriptions of one tensor's shape can both hold: an unranked side (None)
    agrees with any shape, an unknown dim (-1, `?`) with any dim, known dims must be equal.
    (GE's infershape treats -1 as "any extent" and -2 as "any rank": the rule every
    verifier applies when it compares two shapes that must be the same.)"""
    if a is None or b is None:
        return True
    return len(a) == len(b) and all(x < 0 or y < 0 or x == y for x, y in zip(a, b))


def merge_shapes(*shapes: Sequence[int] | None) -> tuple[int, ...] | None:
    """The one shape that agreeing descriptions (dims_agree) give: each dim the known one
    where any side knows it, -1 where none does; None when every side is unranked."""
    out: list[int] | None = None
    for s in shapes:
        if s is None:
            continue
        if out is None:
            out = list(s)
            continue
        out = [x if x >= 0 else y for x, y in zip(out, s)]
    return None if out is None else tuple(out)
