"""An op's operand read directly: replaces `op.operands[i]` (xdsl/ir/core.py:
Operation.operands, a property that builds a view per read, then SSAValues' Python
__getitem__) with a C-level index into xDSL 0.74's private `Operation._operands` tuple.
AscIR's `in_type` is asked about a million times on a 4k-node graph (the fusion queries,
lowering and the verifier). With the switch off (ge_fast), `op.operands[i]`.
tests/dialects/test_asc_tensor_lists.py proves both read the same value.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from ge_fast import SWITCH

_item = tuple.__getitem__  # (SSAValues is a tuple)


def operand(op: Operation, i: int) -> SSAValue:
    """`op.operands[i]`."""
    if SWITCH.on:
        return _item(op._operands, i)  # pyright: ignore[reportPrivateUsage]
    return op.operands[i]
