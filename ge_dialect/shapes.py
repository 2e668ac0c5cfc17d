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
