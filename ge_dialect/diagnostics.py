"""Located diagnostics: `FILE:LINE:COL: error: <op>: <message>`, warnings and remarks.

The parser of the project's tools gives every op a `FileLineColLoc`; errors and remarks
name the op's location, or the nearest enclosing op's when the op was created by a pass.
An op made from a file that has no lines (an ONNX model, importers/onnx.py) carries
`element_location`'s `NameLoc`, printed `FILE: WHAT` (`model.onnx: node 'ga0' (Gather)`,
`model.onnx: input 'x'`): a diagnostic about it reads `model.onnx: node 'ga0' (Gather):
error: ...`, never a line and column of a binary file.

Remarks are objects (`Remark`: pass, stage, verdict, GE rule and NF code of its `Reason`,
the nodes concerned, message, location) sent to one sink: by default the sink prints
today's line, `FILE:LINE:COL: remark: <message>`, on stderr; `remark_sink` sends them
elsewhere (a collector for a JSON or HTML report) for the duration of a `with` block.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import IO

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, NameLoc, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException

from ge_dialect.names import given_name
from ge_dialect.reason import Reason


def one_line(msg: str) -> str:
    """A message as one printable line (the character of "Unexpected character: X" may be
    a control character)."""
    if msg.isprintable():
        return msg
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in msg)


def element_location(file: str, what: str, index: int = 0) -> NameLoc:
    """The location of an op made for element `what` of `file`, a file without lines (an
    ONNX model): `what` says which element, in the words of the file's format (`node 'ga0'
    (Gather)`, `input 'x'`, `initializer 'w'`, `graph 'g'`); `index` is its position (an
    ONNX node's, from 1; 0 for the others), kept for tools, not printed. In MLIR's form,
    `loc("node 'ga0' (Gather)"("model.onnx":3:0))`; printed `model.onnx: node 'ga0' (Gather)`."""
    return NameLoc(StringAttr(what), FileLineColLoc(StringAttr(file), IntAttr(index), IntAttr(0)))


def format_location(loc: Attribute) -> str | None:
    """`FILE:LINE:COL` of a FileLineColLoc, `FILE: WHAT` of an element_location; None for
    any other location (unknown)."""
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc) and isinstance(loc.location, FileLineColLoc):
        return f"{loc.location.filename.data}: {loc.desc.data}"
    return None


def op_location(op: Operation | None) -> str:
    """`FILE:LINE:COL` (or `FILE: WHAT`, see element_location) of `op`, or of its nearest
    located ancestor."""
    while op is not None:
        where = format_location(op.location)
        if where is not None:
            return where
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


@dataclass(frozen=True)
class Remark:
    """One remark, as an object: what a pass decided about some nodes, and why."""

    location: str
    """`FILE:LINE:COL` of the node, or `FILE: WHAT` for a node of an ONNX model (taken when
    the remark is made: the node may go)."""
    message: str
    """The text after `remark: `."""
    pass_name: str | None = None
    stage: str | None = None
    """The part of the pass that decided (e.g. `fuse`, `lifting`), when it has several."""
    verdict: str | None = None
    """What happened, in the pass's words (`marked`, `not marked`, `not fused`, `lifted`...)."""
    reason: Reason | None = None
    nodes: tuple[str, ...] = ()
    """The names of the nodes concerned."""
    data: tuple[tuple[str, int | float | str | bool], ...] = ()
    """The figures behind the decision, as (key, value) pairs in the pass's order (a fusion's
    priority and shared bytes, ...); `facts` gives them as a dict."""

    @property
    def facts(self) -> dict[str, int | float | str | bool]:
        return dict(self.data)

    @property
    def rule(self) -> str | None:
        """The GE rule that decided, if the remark has a reason."""
        return self.reason.rule if self.reason is not None else None

    @property
    def nf_code(self) -> str | None:
        return self.reason.nf_code if self.reason is not None else None

    def line(self) -> str:
        return f"{self.location}: remark: {self.message}"


RemarkSink = Callable[[Remark], None]


def _node_names(op: Operation | None) -> tuple[str, ...]:
    """(`op`'s GE node name,) when `op` is a named GE node, else () (the name as given:
    making a remark names no node)."""
    if op is None or not op.name.startswith("ge.") or op.name == "ge.graph":
        return ()
    name = given_name(op)
    return (name,) if name is not None else ()


_SINK: ContextVar[RemarkSink | None] = ContextVar("remark_sink", default=None)


def print_remark(r: Remark) -> None:
    """The default sink: the remark's line on stderr."""
    print(r.line(), file=sys.stderr)


def current_remark_sink() -> RemarkSink:
    """Where a remark made now goes: the innermost `remark_sink`'s sink, else stderr."""
    return _SINK.get() or print_remark


@contextmanager
def remark_sink(sink: RemarkSink) -> Iterator[None]:
    """Send every remark made inside the `with` block to `sink` (instead of stderr)."""
    token = _SINK.set(sink)
    try:
        yield
    finally:
        _SINK.reset(token)


def remark(
    op: Operation | None,
    what: str | Reason,
    *,
    reason: Reason | None = None,
    pass_name: str | None = None,
    stage: str | None = None,
    verdict: str | None = None,
    nodes: Iterable[str] = (),
    location: str | None = None,
    data: Mapping[str, int | float | str | bool] | None = None,
) -> Remark:
    """Make a `Remark` about `op` and send it to the current sink (by default: print
    `FILE:LINE:COL: remark: <message>` on stderr). `what` is the message, or a `Reason`
    printed as `message (Rule)`; `reason` attaches the reason behind a message the caller
    formatted itself. `location` overrides `op`'s (for a node erased since); `data` holds
    the decision's figures (Remark.data). `nodes` defaults to `op`'s GE node name when `op`
    is a node: a remark names its node even where the node has no file location (a graph
    built in Python)."""
    if isinstance(what, Reason):
        reason = reason or what
        what = str(what)
    r = Remark(
        location if location is not None else op_location(op),
        what,
        pass_name=pass_name,
        stage=stage,
        verdict=verdict,
        reason=reason,
        nodes=tuple(nodes) or _node_names(op),
        data=tuple(data.items()) if data else (),
    )
    (_SINK.get() or print_remark)(r)
    return r


def warning(op: Operation, message: str, stream: IO[str] | None = None) -> None:
    """Print `FILE:LINE:COL: warning: <message>` for `op` (stderr by default): the input
    compiles, but what it asks for is likely wrong. Always printed, not only with --remarks."""
    print(f"{op_location(op)}: warning: {message}", file=stream or sys.stderr)
