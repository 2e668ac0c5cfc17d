"""The implementation xDSL's Interpreter has registered for an op class: the lookup
`Interpreter.run_op` makes (xdsl/interpreter.py: _InterpreterFunctionImpls.run, reading
its private `_impl_dict`, filled by register_from).

Not a speed-up: xDSL has no public lookup, and runtime/graph_interpreter.py needs one to
ask whether an op has semantics (`implements`) and to run an implementation with its own
located errors (run_op reports through Operation.emit_error, which prints the whole
module). So it is the same read whatever the switch says; it lives here because it is
the project's one read of the interpreter's private state.
tests/runtime/test_reference.py runs every op through it.
"""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, OpImpl
from xdsl.ir import Operation


def registered_impl(
    interpreter: Interpreter, op_type: type[Operation]
) -> tuple[InterpreterFunctions, OpImpl[Any, Operation]] | None:
    """The (functions, implementation) pair registered for `op_type`, or None."""
    return interpreter._impls._impl_dict.get(op_type)  # pyright: ignore[reportPrivateUsage]
