"""`Reason`: why a pass did not do something, in one shape for every pass.

A GE rule that refuses (a no-task check, a fusion strategy, a lifting condition) answers
with a `Reason`: the GE name of the rule (the function that implements it, or GE's
NotFuseReason where GE logs one), a message a user understands, and GE's NFxxxx code
where GE has one (utils/not_fuse_reason_code.h). A rule that passes answers None. Callers
decide on `rule`, never on the message text; remarks (ge_dialect/diagnostics.py) print it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Reason:
    """Why not: the GE rule that refused, a message, and GE's NF code where GE has one."""

    rule: str
    message: str
    nf_code: str | None = None

    def prefixed(self, where: str) -> Reason:
        """The same reason with `where` (e.g. `input 1: `) in front of the message."""
        return replace(self, message=where + self.message)

    def __str__(self) -> str:
        """`message (Rule)`: the form of the no-task and lifting remarks."""
        return f"{self.message} ({self.rule})"

    def coded(self) -> str:
        """`message [NFxxxx] [Rule]`: the form of the fusion remarks (GE logs the NF code)."""
        nf = f" [{self.nf_code}]" if self.nf_code else ""
        return f"{self.message}{nf} [{self.rule}]"
