"""An AscGraph kernel compiled once when the device simulator loads a model: the AscGraph
interpreter's walk (runtime/ascgraph_interp.py `run_asc_graph`) with everything it reads
from the IR resolved at load, as GE prepares a kernel's launch args once (DavinciModel::Init)
and not per launch.

`compile_asc_graph(interpreter, graph, input_dtypes, output_shapes)` gives a callable
`run(inputs, out_buffers)` that computes what `run_asc_graph(interpreter, graph, inputs,
output_shapes, out_buffers)` computes, the same numbers from the same numpy calls:

* each value is a slot of a list, not an SSA-keyed dict;
* a Load / Store view is an `np.ndarray` over its GM buffer with shape, byte strides and
  offset computed at load (the bounds check against the buffer's size stays per run);
* a Store's buffer size, dense-cover test, dtype and the Output it feeds are decided at
  load; a Store writing a caller's buffer returns that very buffer (so the simulator
  sees the kernel wrote its output in place);
* a compute node calls its registered semantics (the same function the interpreter's
  `run_node` calls), and its result's dtype and repeats are read once.

A graph the walk would refuse (a Data with no input, an input dtype that is not the
Data's), or an interpreter with listeners (which observe each node), is not compiled
(None): the simulator then runs the interpreter, which reports the error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Operation

from ge_dialect import ascgraph as ag
from ge_dialect.dtypes import numpy_dtype
from runtime.ascgraph_interp import dense_cover
from runtime.graph_interpreter import GeInterpreter, ReferenceEvalError

__all__ = ["CompiledKernel", "compile_asc_graph"]

CompiledKernel = Callable[[Sequence[np.ndarray], Sequence[np.ndarray | None]], list[np.ndarray]]
_Step = Callable[[list[np.ndarray], Sequence[np.ndarray | None]], None]


def compile_asc_graph(
    interpreter: GeInterpreter,
    graph: ag.AscGraphOp,
    input_dtypes: Sequence[np.dtype],
    output_shapes: Sequence[tuple[int, ...]],
) -> CompiledKernel | None:
    if interpreter.listeners:
        return None
    ops = list(graph.body.block.ops)
    slot: dict[object, int] = {}
    for op in ops:
        for r in op.results:
            slot[r] = len(slot)
    steps: list[_Step] = []
    inputs_at: list[tuple[int, int]] = []  # (input index, slot) of each Data
    outputs_at: dict[int, int] = {}  # Output index -> slot
    for op in ops:
        if isinstance(op, ag.Data):
            if op.index >= len(input_dtypes) or input_dtypes[op.index] != numpy_dtype(op.out_type().element_type):
                return None  # run_asc_graph's located error, at run time
            inputs_at.append((op.index, slot[op.results[0]]))
        elif isinstance(op, ag.Load):
            steps.append(_load(op, slot[op.operands[0]], slot[op.results[0]]))
        elif isinstance(op, ag.Store):
            steps.append(_store(op, output_shapes, slot[op.operands[0]], slot[op.results[0]]))
        elif isinstance(op, ag.Workspace):
            steps.append(_alias(slot[op.operands[0]], slot[op.results[0]]))
        elif isinstance(op, ag.Output):
            outputs_at[op.index] = slot[op.operands[0]]
        else:
            step = _compute(interpreter, op, [slot[v] for v in op.operands], [slot[r] for r in op.results])
            if step is None:
                return None
            steps.append(step)
    missing = [k for k in range(len(output_shapes)) if k not in outputs_at]
    shapes = list(output_shapes)
    n = len(slot)

    def run(inputs: Sequence[np.ndarray], out_buffers: Sequence[np.ndarray | None] = ()) -> list[np.ndarray]:
        env: list[np.ndarray] = [None] * n  # type: ignore[list-item]
        for k, s in inputs_at:
            env[s] = np.ascontiguousarray(inputs[k]).reshape(-1)
        for step in steps:
            step(env, out_buffers)
        if missing:
            raise ReferenceEvalError(graph, f"the AscGraph has no Output {missing[0]}")
        result = []
        for k, shape in enumerate(shapes):
            v = env[outputs_at[k]]
            given = out_buffers[k] if k < len(out_buffers) else None
            result.append(v if v is given else v.reshape(shape))
        return result

    return run


def _view_of(op: ag.AscNode, t: ag.AscTensorType, offset: int, dtype: np.dtype, writeable: bool):  # noqa: ANN202
    """A function of a flat GM buffer giving the strided view `t` from `offset` (gm_view)."""
    reps = tuple(t.repeat_list)
    item = dtype.itemsize
    strides = tuple(s * item for s in t.stride_list)
    end = ag.view_extent(t, offset)
    start = offset * item

    def view(buf: np.ndarray) -> np.ndarray:
        if end > buf.size:
            raise ReferenceEvalError(
                op, f"view reaches element {end - 1} from offset {offset}, but its buffer has {buf.size} elements"
            )
        v = np.ndarray(reps, dtype, buffer=buf, offset=start, strides=strides)
        if not writeable:
            v.flags.writeable = False
        return v

    return view


def _load(op: ag.Load, src: int, dst: int) -> _Step:
    t = op.out_type()
    reps = tuple(t.repeat_list)
    src_t = op.in_type()
    view = _view_of(op, src_t, op.offset, numpy_dtype(src_t.element_type), False)
    broadcast = tuple(src_t.repeat_list) != reps

    def step(env: list[np.ndarray], _: Sequence[np.ndarray | None]) -> None:
        v = view(env[src])
        env[dst] = np.broadcast_to(v, reps) if broadcast else v

    return step


def _store(op: ag.Store, output_shapes: Sequence[tuple[int, ...]], src: int, dst: int) -> _Step:
    t = op.out_type()
    dtype = numpy_dtype(t.element_type)
    size = ag.view_extent(t, op.offset)
    feeds: list[int] = []  # the Outputs this Store feeds, in use order
    for use in op.results[0].uses:
        out = use.operation
        if isinstance(out, ag.Output):
            feeds.append(out.index)
            if out.index < len(output_shapes):
                size = max(size, math.prod(output_shapes[out.index]))
    dense = dense_cover(t, op.offset, size)
    view = _view_of(op, t, op.offset, dtype, True)

    def step(env: list[np.ndarray], out_buffers: Sequence[np.ndarray | None]) -> None:
        buf = None
        for k in feeds:  # ascgraph_interp._store_target: the first given buffer that fits
            if k < len(out_buffers):
                b = out_buffers[k]
                if b is not None and b.dtype == dtype and b.size == size:
                    if not dense:
                        b[...] = 0
                    buf = b
                    break
        if buf is None:
            buf = np.zeros(size, dtype=dtype)
        view(buf)[...] = env[src]
        env[dst] = buf

    return step


def _alias(src: int, dst: int) -> _Step:
    def step(env: list[np.ndarray], _: Sequence[np.ndarray | None]) -> None:
        env[dst] = env[src]

    return step


def _compute(interpreter: GeInterpreter, op: Operation, ins: list[int], outs: list[int]) -> _Step | None:
    entry = interpreter._impl(type(op))  # pyright: ignore[reportPrivateUsage]
    if entry is None:
        return None  # run_node's "has no AscGraph interpreter semantics", at run time
    functions, fn = entry
    results = []
    for k, r in zip(outs, op.results):
        t = r.type
        assert isinstance(t, ag.AscTensorType)
        results.append((k, numpy_dtype(t.element_type), tuple(t.repeat_list)))

    def step(env: list[np.ndarray], _: Sequence[np.ndarray | None]) -> None:
        got = fn(functions, interpreter, op, tuple(env[i] for i in ins)).values
        for (k, dt, reps), r in zip(results, got):  # ascgraph_interp._as_out
            r = np.asarray(r)
            if r.dtype != dt:
                with np.errstate(all="ignore"):  # casts saturate/wrap as numpy's astype does
                    r = r.astype(dt)
            if r.shape != reps:
                if r.ndim == 0 or r.size == 1:
                    r = np.broadcast_to(r.reshape(()), reps)
                else:
                    raise ReferenceEvalError(
                        op, f"internal error in the AscGraph interpreter: result shape {r.shape}, type repeats {reps}"
                    )
            env[k] = r

    return step
