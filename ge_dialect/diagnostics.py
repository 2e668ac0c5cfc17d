"""Located diagnostics: `FILE:LINE:COL: error: <op>: <message>`, warnings and remarks.

The parser of the project's tools gives every op a `FileLineColLoc`; errors and remarks
name the op's location, or the nearest enclosing op's when the op was created by a pass.
"""

from __future__ import annotations

import sys
from typing import IO

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


def op_location(op: Operation | None) -> str:
    """`FILE:LINE:COL` of `op`, or of its nearest located ancestor."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        op = op.parent_op()
    return "<unknown>:0:0"


class LocatedError(DiagnosticException):
    """An error about one op; printed as `FILE:LINE:COL: error: <op name>: <message>`."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return f"{op_location(self.op)}: error: {self.op.name}: {self.message}"


def remark(op: Operation, message: str, stream: IO[str] | None = None) -> None:
    """Print `FILE:LINE:COL: remark: <message>` for `op` (stderr by default)."""
    print(f"{op_location(op)}: remark: {message}", file=stream or sys.stderr)


def warning(op: Operation, message: str, stream: IO[str] | None = None) -> None:
    """Print `FILE:LINE:COL: warning: <message>` for `op` (stderr by default): the input
    compiles, but what it asks for is likely wrong. Always printed, not only with --remarks."""
    print(f"{op_location(op)}: warning: {message}", file=stream or sys.stderr)
