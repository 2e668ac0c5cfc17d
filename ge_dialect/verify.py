"""Verifying a module with located errors: each failure one LocatedError at the op that
fails (`FILE:LINE:COL: error: <op>: <message>`), never a print of the whole module.

xDSL's Operation.verify runs an op's own verifier after its regions' and reports a
failure through Operation.emit_error, which prints the whole module. Here each op is
verified alone in the same order (nested ops first), so that the op that failed is
known; a LocatedError a verifier raises about another op passes through. Each op is
verified by ge_fast/verify.py's `verify_op` (xDSL's checks, compiled per class unless the
switch is off: the same outcome and message either way).
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from ge_dialect.diagnostics import LocatedError, one_line
from ge_fast.verify import verify_op


def verify_module(module: Operation, fast: bool | None = None) -> None:
    """`module.verify()` with each failure one LocatedError at the op that fails (module
    docstring); `fast`: None follows ge_fast's switch, True or False forces it."""
    for op in module.walk(region_first=True):
        try:
            verify_op(op, fast)
        except VerifyException as e:
            raise LocatedError(op, one_line(str(e))) from None
        # Block.verify's rule, which verify_nested_ops=False skips
        for region in op.regions:
            if len(region.blocks) == 1 and region.block.first_op is None and not op.has_trait(NoTerminator):
                raise LocatedError(
                    op,
                    f"Operation {op.name} contains empty block in single-block region that expects at least a terminator",
                )
