"""The graph interpreter both interpreters run on: xDSL's `Interpreter` with GE's graph walk.

`GeInterpreter` walks a ge graph body once, in order (Data nodes bound by index, NetOutput's
operands returned) and runs each node with the implementation registered for its class
(xDSL `InterpreterFunctions`: runtime/reference.py's `ReferenceFunctions` for the ge ops,
runtime/ascgraph_interp.py's `AscGraphFunctions` for ge.AscBackend and the AscGraph compute
nodes). `node_impl(OpClass, fn)` makes an `@impl` method of a function
`fn(op, input arrays) -> output arrays`. Every failure is a `ReferenceEvalError`, a
`LocatedError` naming the op.

This module knows no op's semantics, so both function sets import it and neither imports
the other; runtime/interpreter.py (the composition root) registers both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType, UnrankedTensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, OpImpl, PythonValues, impl
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.desc import shape_of, tensor_desc
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.ge import value_dtype
from ge_dialect.shapes import fmt_shape
from ge_fast.interpreter import registered_impl

__all__ = [
    "WHILE_ITERATION_CAP",
    "GeInterpreter",
    "Impl",
    "ReferenceEvalError",
    "check_value",
    "node_impl",
    "run_time_node",
]

# The most iterations a While (or For) may run in one execution before the interpreter
# stops it with a located error naming the node and this cap (GE has none: a device loop
# whose cond never becomes false hangs; an interpreter must answer).
WHILE_ITERATION_CAP = 100_000

# The semantics of one node: (op, input arrays) -> output arrays.
Impl = Callable[[Operation, Sequence[np.ndarray]], Sequence[np.ndarray]]


class ReferenceEvalError(LocatedError):
    """The reference (or AscGraph) interpreter cannot evaluate `op`: bad inputs, an op
    without semantics, or values the op is not defined for (e.g. integer division by zero)."""


def _shape_matches(want: tuple[int, ...] | None, got: tuple[int, ...]) -> bool:
    if want is None:
        return True
    return len(want) == len(got) and all(w < 0 or w == g for w, g in zip(want, got))


def check_value(op: Operation, value: SSAValue, arr: np.ndarray, what: str) -> None:
    """An array given for `value` (a graph input) must have its shape and numpy dtype."""
    want_dt = numpy_dtype(value_dtype(value))
    want_shape = shape_of(value.type)
    if not _shape_matches(want_shape, arr.shape) or arr.dtype != want_dt:
        raise ReferenceEvalError(
            op,
            f"{what} is an array of shape {fmt_shape(arr.shape)} and dtype {arr.dtype}, but the "
            f"graph expects {value.type} (numpy dtype {want_dt})",
        )


def is_static(op: Operation) -> bool:
    """Whether every input and output type of `op` has a known shape."""
    return not any(tensor_desc(v.type).is_unknown_shape for v in (*op.operands, *op.results))


@contextmanager
def run_time_node(op: Operation, args: Sequence[np.ndarray]) -> Iterator[Operation]:
    """`op` as GE's run-time infershape sees it: a copy whose inputs have the arrays' shapes
    (its attributes and constant inputs its own, its outputs unranked), so the node's own
    rules (infer(), axes(), norm_axes(), ...) read the shapes the graph runs with; `op`
    itself when its types are static. The copy is taken apart on exit. A rule the run-time
    shapes break (a broadcast of 3 against 5 behind a `?`) is a located error.

    # runtime/v2: each node's InferShape runs on the run-time shapes before its kernel
    """
    if not isinstance(op, ge.GeNode) or op.regions or is_static(op):
        yield op
        return
    made: list[Operation] = []
    operands = []
    for v, a in zip(op.operands, args):
        if isinstance(v.owner, ge.Const | ge.Constant):
            operands.append(v)  # a constant input is read for its values (const_ints)
            continue
        d = ge.Data.create(result_types=[TensorType(value_dtype(v), list(a.shape))])
        made.append(d)
        operands.append(d.results[0])
    probe = type(op).create(
        operands=operands,
        result_types=[UnrankedTensorType(value_dtype(r)) for r in op.results],
        attributes=dict(op.attributes),
    )
    try:
        try:
            probe.check()
            probe.infer()
        except VerifyException as e:
            shapes = ", ".join(fmt_shape(a.shape) for a in args)
            raise ReferenceEvalError(op, f"the run-time input shapes ({shapes}) break {op.name}'s rules: {e}") from None
        yield probe
    finally:
        probe.erase()
        for d in made:
            d.erase()


def _check_run_time_shapes(op: ge.GeNode, args: Sequence[np.ndarray]) -> None:
    """A node with unknown dims, before it runs: its rules hold on the run-time input
    shapes and the output shapes they give fit its declared output types (`?` any extent,
    a known dim that one), else a located error naming both."""
    with run_time_node(op, args) as node:
        assert isinstance(node, ge.GeNode)
        inferred = node.infer()
    if inferred is None:
        return
    for i, (s, r) in enumerate(zip(inferred, op.results)):
        if s is not None and all(d >= 0 for d in s) and not _shape_matches(shape_of(r.type), s):
            shapes = ", ".join(fmt_shape(a.shape) for a in args)
            raise ReferenceEvalError(
                op,
                f"the run-time input shapes ({shapes}) give output {i} shape {fmt_shape(s)}, but its type is {r.type}",
            )


def _check_outputs(op: Operation, outs: Sequence[np.ndarray]) -> None:
    """Internal invariant: outputs have the result types' shapes and numpy dtypes."""
    if len(outs) != len(op.results):
        raise ReferenceEvalError(
            op, f"internal error in the reference interpreter: {len(outs)} outputs for {len(op.results)} results"
        )
    for i, (r, a) in enumerate(zip(op.results, outs)):
        want_dt = numpy_dtype(value_dtype(r))
        if not isinstance(a, np.ndarray) or a.dtype != want_dt or not _shape_matches(shape_of(r.type), a.shape):
            got = f"shape {fmt_shape(a.shape)} dtype {a.dtype}" if isinstance(a, np.ndarray) else type(a).__name__
            raise ReferenceEvalError(
                op,
                f"internal error in the reference interpreter: output {i} is {got}, but the "
                f"type is {r.type} (numpy dtype {want_dt})",
            )


@dataclass
class GeInterpreter(Interpreter):
    """xDSL's `Interpreter` running ge graphs as GE does: a graph body is walked once, in
    order, its Data nodes bound to the inputs by their `index` and NetOutput's operands
    returned (`Interpreter.run_ssacfg_region` expects block arguments and a terminator
    instead). Each node runs the implementation registered for its class through
    `register_implementations` (InterpreterFunctions: `ReferenceFunctions`,
    runtime/ascgraph_interp.py's `AscGraphFunctions`).

    `run_node` calls the registered implementation itself, where `Interpreter.run_op` would
    wrap any exception into a diagnostic that prints the whole module
    (`Operation.emit_error`): a `ReferenceEvalError` stays one located line, and the
    simulator can try an implementation that may refuse a probe. Listeners
    (`Interpreter.Listener`, e.g. xDSL's `OpCounter`) see every node it runs.
    """

    # graph names of the PartitionedCalls being evaluated, outermost first
    _calls: list[str] = field(default_factory=list)
    # the iteration cap of While and For nodes (WHILE_ITERATION_CAP)
    while_cap: int = WHILE_ITERATION_CAP

    def implements(self, op_type: type[Operation]) -> bool:
        """Whether an implementation of `op_type` is registered."""
        return self._impl(op_type) is not None

    def _impl(self, op_type: type[Operation]) -> tuple[InterpreterFunctions, OpImpl[Any, Operation]] | None:
        # the lookup Interpreter.run_op makes (ge_fast/interpreter.py)
        return registered_impl(self, op_type)

    def run_node(self, op: Operation, args: Sequence[Any], semantics: str = "reference") -> PythonValues:
        """The results of the implementation registered for `op`'s class on `args`; a
        located error when there is none ("... has no `semantics` semantics")."""
        entry = self._impl(type(op))
        if entry is None:
            raise ReferenceEvalError(op, f"{op.name} has no {semantics} semantics")
        functions, fn = entry
        values = tuple(args)
        for listener in self.listeners:
            listener.will_interpret_op(op, values)
        outs = fn(functions, self, op, values).values
        for listener in self.listeners:
            listener.did_interpret_op(op, outs)
        return outs

    def run_block(self, block: Block, inputs: Sequence[np.ndarray], owner: Operation, what: str) -> list[np.ndarray]:
        """Evaluate a graph body (Data nodes by index, ..., NetOutput) once, in order."""
        datas: dict[int, Operation] = {}
        for op in block.ops:
            if isinstance(op, ge.Data | ge.RefData):
                datas[A.get_int(op, "index") or 0] = op
        if len(inputs) != len(datas):
            raise ReferenceEvalError(owner, f"{what} takes {len(datas)} inputs, {len(inputs)} given")
        env: dict[SSAValue, np.ndarray] = {}
        for op in block.ops:
            if isinstance(op, ge.Data | ge.RefData):
                idx = A.get_int(op, "index") or 0
                arr = inputs[idx]
                if not isinstance(arr, np.ndarray):
                    raise ReferenceEvalError(op, f"input {idx} of {what} is a {type(arr).__name__}, not a numpy array")
                check_value(op, op.results[0], arr, f"input {idx} of {what}")
                env[op.results[0]] = arr
                continue
            if isinstance(op, ge.NetOutput):
                return [np.array(env[v]) for v in op.operands]  # copies: callers own their outputs
            args = [env[v] for v in op.operands]
            # (a node with a body, a subgraph call (PartitionedCall, a control op) or a fused
            # kernel, is checked by its body's nodes)
            if (
                isinstance(op, ge.GeNode)
                and not op.regions
                and not isinstance(op, ge.PartitionedCall | ge.ControlOp)
                and not is_static(op)
            ):
                _check_run_time_shapes(op, args)
            outs = self.run_node(op, args)
            _check_outputs(op, outs)
            env.update(zip(op.results, outs))
        raise ReferenceEvalError(owner, f"{what} does not end with ge.NetOutput")

    def run_graph(self, graph: ge.GraphOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Evaluate `graph` on `inputs` (in ge.Data index order); returns NetOutput's values."""
        name = graph.sym_name.data
        self._calls.append(name)
        try:
            with np.errstate(all="ignore"):  # IEEE results (inf, nan) are values, not warnings
                return self.run_block(graph.body.block, inputs, graph, f"graph @{name}")
        finally:
            self._calls.pop()

    def call_graph(self, op: Operation, callee: ge.GraphOp, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        """`callee` called by `op` (a PartitionedCall or a control op): a recursive call is a
        located error."""
        name = callee.sym_name.data
        if name in self._calls:
            chain = " -> ".join(f"@{s}" for s in (*self._calls, name))
            raise ReferenceEvalError(op, f"recursive subgraph call {chain}")
        return self.run_graph(callee, args)


def node_impl(op_type: type[Operation], semantics: Impl) -> OpImpl[Any, Operation]:
    """`semantics(op, inputs) -> outputs` as the xDSL implementation of `op_type` (an
    `@impl` method of an InterpreterFunctions class)."""

    def run(self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        return tuple(semantics(op, args))

    run.__name__ = f"run_{op_type.__name__}"
    return impl(op_type)(run)
