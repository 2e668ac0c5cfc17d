"""The AscGraph interpreter: runs a `ge.AscBackend`'s loop nest on numpy arrays.

`run_asc_backend(interpreter, op, inputs)` evaluates the AscGraph in the AscBackend's
region on the AscBackend's input arrays and returns its output arrays. `AscGraphFunctions`
(xDSL interpreter functions) implement `ge.AscBackend` with it, and each AscGraph compute
node; runtime/interpreter.py registers them beside the reference interpreter's
`ReferenceFunctions`, so `run_graph` and `ge-run --reference` evaluate AscBackends (and
FusedAscBackends, whose bodies are AscBackends) through it.

The loop nest is never iterated in Python: each node is one vectorised numpy operation
over its whole output tensor, whose numpy shape is the tensor's `repeats` in its `axis`
order (docs/ge/autofuse.md: a node with sched.axis [z0..zn] runs prod(size(zi)) times).

* GM values (Data, Workspace, the result of a Store) are flat 1-D arrays. A `Load` views
  its Data/Workspace through that value's `repeats`/`strides` from `offset` with
  `np.lib.stride_tricks.as_strided` (element strides x itemsize; stride 0 = broadcast,
  permuted strides = transpose, offset = slice), then broadcasts repeat-1 axes to its
  own repeats. No copy is made.
* Pointwise nodes use numpy broadcasting over repeat-1 axes and compute in the inputs'
  numpy dtype, cast to the output dtype (as the reference interpreter does for ge ops);
  bf16 and float8 inputs are cast up to float32 first, so each node rounds its result to
  its output dtype once, as the reference does per ge op (GE's AscGraph kernels compute
  bf16 in float32: adaption_improve_precision.cpp, FromDtypeToOtherDtype(node, DT_BF16,
  DT_FLOAT)).
* A `Gather` reads its two Data buffers through their whole-tensor views and takes
  params[..., indices, ...] along `axis` (numpy take); an out-of-range index is the
  reference interpreter's located error (runtime/numerics.py `gather_indices`).
* Reductions keep dims (the reduced axes are those with input repeat > 1 and output
  repeat 1); fp16, bf16 and float8 accumulate in fp32 as the reference does.
* A `Store` writes its input through its own view into a fresh GM buffer (the
  AscBackend output of the `Output` that reads it, or a workspace), `Output` returns it
  reshaped to the AscBackend result's shape.

Each failure (a bad input array, a view that leaves its buffer) is a `ReferenceEvalError`
naming the node.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.dtypes import numpy_dtype
from runtime import activations as AF
from runtime.graph_interpreter import GeInterpreter, Impl, ReferenceEvalError, check_value, node_impl
from runtime.numerics import c_div, gather_indices, reduce, upcast

__all__ = ["AscGraphFunctions", "compute", "dense_cover", "gm_view", "run_asc_backend", "run_asc_graph"]

as_strided = np.lib.stride_tricks.as_strided


def _np_dtype(t: ag.AscTensorType) -> np.dtype:
    return numpy_dtype(t.element_type)


def gm_view(op: Operation, buf: np.ndarray, t: ag.AscTensorType, offset: int, writeable: bool = False) -> np.ndarray:
    """The strided view `t` of the flat GM buffer `buf`, `offset` elements in."""
    reps, strides = t.repeat_list, t.stride_list
    end = ag.view_extent(t, offset)
    if offset < 0 or end > buf.size:
        raise ReferenceEvalError(
            op, f"view reaches element {end - 1} from offset {offset}, but its buffer has {buf.size} elements"
        )
    item = buf.itemsize
    return as_strided(buf[offset:], shape=reps, strides=tuple(s * item for s in strides), writeable=writeable)


# -- pointwise and reduction kernels -----------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    one = np.ones((), x.dtype)
    return one / (one + np.exp(-x))


_REDUCTION_KIND: dict[type[Operation], str] = {
    ag.Sum: "sum",
    ag.Prod: "prod",
    ag.Max: "max",
    ag.Min: "min",
    ag.Mean: "mean",
}


def _reduce(op: ag.Reduction, x: np.ndarray) -> np.ndarray:
    axes = op.reduced_positions()
    if not axes:
        return x
    # The reference interpreter's reductions (runtime/numerics.py), so both give the same numbers.
    try:
        return reduce(_REDUCTION_KIND[type(op)], x, axes, keepdims=True)
    except ZeroDivisionError as e:
        raise ReferenceEvalError(op, str(e)) from None


def _scalar(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Scalar)
    t = op.out_type()
    return [np.full(t.repeat_list, op.number(), dtype=_np_dtype(t))]


# -- the interpreter ----------------------------------------------------------------------------


def dense_cover(t: ag.AscTensorType, offset: int, size: int) -> bool:
    """Whether the view `t` from `offset` writes each of `size` elements exactly once, in
    row-major order (its non-unit repeats have the C-contiguous strides and fill `size`)."""
    if offset != 0 or math.prod(t.repeat_list) != size:
        return False
    expect = 1
    for r, s in zip(reversed(t.repeat_list), reversed(t.stride_list)):
        if r != 1 and s != expect:
            return False
        expect *= r
    return True


def _store_target(op: ag.Store, t: ag.AscTensorType, size: int, out_buffers: Sequence[np.ndarray | None]) -> np.ndarray:
    """The GM buffer a Store writes: the caller's flat buffer of the Output it feeds when one
    was given (the kernel writes its output in place, as a device kernel writes its output
    address), else a fresh zeroed buffer. Bytes of a given buffer the view does not cover
    are zeroed, so both give the same array."""
    for use in op.results[0].uses:
        out = use.operation
        if isinstance(out, ag.Output) and out.index < len(out_buffers):
            buf = out_buffers[out.index]
            if buf is not None and buf.dtype == _np_dtype(t) and buf.size == size:
                if not dense_cover(t, op.offset, size):
                    buf[...] = 0
                return buf
    return np.zeros(size, dtype=_np_dtype(t))


def run_asc_graph(
    interpreter: GeInterpreter,
    graph: ag.AscGraphOp,
    inputs: Sequence[np.ndarray],
    output_shapes: Sequence[tuple[int, ...]],
    out_buffers: Sequence[np.ndarray | None] = (),
) -> list[np.ndarray]:
    """Evaluate `graph` on the AscBackend input arrays; returns one array per Output index,
    shaped as `output_shapes`. The compute nodes run on `interpreter` (AscGraphFunctions
    registered on it); the walk handles the GM nodes (Data, Load, Store, Workspace, Output).

    `out_buffers[k]`, when given, is a flat C-contiguous array (the output's dtype and
    element count) that the Store feeding Output k writes directly: the returned array k
    then shares its memory. It must not overlap an input: the nodes after the Store may
    still read them."""
    env: dict[SSAValue, np.ndarray] = {}
    outs: dict[int, np.ndarray] = {}
    for op in graph.body.block.ops:
        assert isinstance(op, ag.AscNode)
        if isinstance(op, ag.Data):
            if op.index >= len(inputs):
                raise ReferenceEvalError(op, f"Data {op.index} has no input: the AscBackend got {len(inputs)}")
            arr = inputs[op.index]
            want = _np_dtype(op.out_type())
            if arr.dtype != want:
                raise ReferenceEvalError(op, f"input {op.index} has dtype {arr.dtype}, the Data is {want}")
            env[op.results[0]] = np.ascontiguousarray(arr).reshape(-1)
        elif isinstance(op, ag.Load):
            t = op.out_type()
            v = gm_view(op, env[op.operands[0]], op.in_type(), op.offset)
            env[op.results[0]] = np.broadcast_to(v, t.repeat_list) if v.shape != t.repeat_list else v
        elif isinstance(op, ag.Store):
            t = op.out_type()
            size = ag.view_extent(t, op.offset)
            for use in op.results[0].uses:
                if isinstance(use.operation, ag.Output) and use.operation.index < len(output_shapes):
                    size = max(size, math.prod(output_shapes[use.operation.index]))
            buf = _store_target(op, t, size, out_buffers)
            gm_view(op, buf, t, op.offset, writeable=True)[...] = env[op.operands[0]]
            env[op.results[0]] = buf
        elif isinstance(op, ag.Workspace):
            env[op.results[0]] = env[op.operands[0]]
        elif isinstance(op, ag.Output):
            outs[op.index] = env[op.operands[0]]
        else:
            compute(interpreter, op, env)
    result = []
    for k, shape in enumerate(output_shapes):
        if k not in outs:
            raise ReferenceEvalError(graph, f"the AscGraph has no Output {k}")
        result.append(outs[k].reshape(shape))
    return result


def compute(interpreter: GeInterpreter, op: Operation, env: dict[SSAValue, np.ndarray]) -> None:
    """Run the compute node `op` (its implementation registered on `interpreter`) on the
    values of its operands in `env`; its results, in their types' dtypes and repeats, go
    to `env`."""
    outs = interpreter.run_node(op, [env[v] for v in op.operands], "AscGraph interpreter")
    for res, arr in zip(op.results, outs):
        env[res] = _as_out(op, res, arr)


def _as_out(op: Operation, res: SSAValue, r: np.ndarray) -> np.ndarray:
    t = res.type
    assert isinstance(t, ag.AscTensorType)
    r = np.asarray(r)
    dt = _np_dtype(t)
    if r.dtype != dt:
        with np.errstate(all="ignore"):  # casts saturate/wrap as numpy's astype does
            r = r.astype(dt)
    if r.shape != t.repeat_list:
        if r.ndim == 0 or r.size == 1:
            r = np.broadcast_to(r.reshape(()), t.repeat_list)
        else:
            raise ReferenceEvalError(
                op, f"internal error in the AscGraph interpreter: result shape {r.shape}, type repeats {t.repeat_list}"
            )
    return r


def run_asc_backend(interpreter: GeInterpreter, op: Operation, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Evaluate a ge.AscBackend on its input arrays (in operand order)."""
    assert isinstance(op, ge.AscBackend)
    try:
        graph = asc_graph_of(op)
    except VerifyException as e:
        raise ReferenceEvalError(op, f"no AscGraph to interpret: {e}") from None
    if len(inputs) != len(op.operands):
        raise ReferenceEvalError(op, f"AscBackend takes {len(op.operands)} inputs, {len(inputs)} given")
    for i, (v, arr) in enumerate(zip(op.operands, inputs)):
        check_value(op, v, arr, f"AscBackend input {i}")
    shapes = []
    for i, r in enumerate(op.results):
        t = r.type
        if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
            raise ReferenceEvalError(op, f"AscBackend output {i} has type {t}: AscGraphs have static shapes")
        shapes.append(tuple(t.get_shape()))
    return run_asc_graph(interpreter, graph, inputs, shapes)


# -- the semantics of the compute nodes ---------------------------------------------------------


def _unary(fn: Callable[[np.ndarray], np.ndarray]) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [fn(*upcast(args[:1]))]

    return semantics


def _binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        try:
            return [fn(*upcast(args[:2]))]
        except ZeroDivisionError as e:
            raise ReferenceEvalError(op, str(e)) from None

    return semantics


def _where(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.where(args[0] != 0, args[1], args[2])]


def _reduction(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Reduction)
    return [_reduce(op, args[0])]


def _broadcast(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Broadcast)
    return [np.broadcast_to(args[0], op.out_type().repeat_list)]


def _gather(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Gather)
    # Each operand is a flat Data buffer seen through its whole-tensor view.
    params = gm_view(op, args[0], op.in_type(0), 0)
    idx = gm_view(op, args[1], op.in_type(1), 0)
    try:
        i = gather_indices(idx, params.shape[op.axis], A.get_bool(op, "negative_index_support"))
    except IndexError as e:
        raise ReferenceEvalError(op, str(e)) from None
    return [np.take(params, i, axis=op.axis)]


def _transpose(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Transpose)
    src, dst = op.in_type().axis_ids, op.out_type().axis_ids
    return [np.transpose(args[0], [src.index(a) for a in dst])]


def _concat(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Concat)
    axis = op.out_type().axis_ids.index(op.moving_axis()) if len(args) > 1 else 0
    return [np.concatenate(args, axis=axis) if args[0].ndim else args[0]]


def _split(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.Split)
    a = op.moving_axis()
    if a is None:
        return [args[0]]
    j = op.in_type().axis_ids.index(a)
    cuts = np.cumsum([r.type.repeat_list[j] for r in op.results])[:-1]  # type: ignore[attr-defined]
    return np.split(args[0], cuts, axis=j)


def _leaky_relu(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ag.LeakyRelu)
    return [AF.leaky_relu(upcast(args[:1])[0], op.negative_slope())]


def _logical(fn: Callable[..., np.ndarray]) -> Impl:
    # bool values are uint8 here (or bool, from a Load of a bool buffer): non-zero is true
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [fn(*(a != 0 for a in args))]

    return semantics


@register_impls
class AscGraphFunctions(InterpreterFunctions):
    """ge.AscBackend (its AscGraph run by `run_asc_backend`) and the AscGraph compute
    nodes, one `@impl` each; the GM nodes are `run_asc_graph`'s."""

    @impl(ge.AscBackend)
    def run_asc_backend(self, interpreter: Interpreter, op: ge.AscBackend, args: PythonValues) -> PythonValues:
        assert isinstance(interpreter, GeInterpreter)
        return tuple(run_asc_backend(interpreter, op, args))

    run_abs = node_impl(ag.Abs, _unary(np.abs))
    run_neg = node_impl(ag.Neg, _unary(np.negative))
    run_exp = node_impl(ag.Exp, _unary(np.exp))
    run_ln = node_impl(ag.Ln, _unary(np.log))
    run_relu = node_impl(ag.Relu, _unary(lambda x: np.maximum(x, x.dtype.type(0))))
    run_sqrt = node_impl(ag.Sqrt, _unary(np.sqrt))
    run_rsqrt = node_impl(ag.Rsqrt, _unary(lambda x: x.dtype.type(1) / np.sqrt(x)))
    run_reciprocal = node_impl(ag.Reciprocal, _unary(lambda x: x.dtype.type(1) / x))
    run_sigmoid = node_impl(ag.Sigmoid, _unary(_sigmoid))
    run_tanh = node_impl(ag.Tanh, _unary(np.tanh))
    run_cast = node_impl(ag.Cast, _unary(lambda x: x))  # the cast is the astype to the output dtype

    run_add = node_impl(ag.Add, _binary(np.add))
    run_sub = node_impl(ag.Sub, _binary(np.subtract))
    run_mul = node_impl(ag.Mul, _binary(np.multiply))
    run_div = node_impl(ag.Div, _binary(c_div))
    run_maximum = node_impl(ag.Maximum, _binary(np.maximum))
    run_minimum = node_impl(ag.Minimum, _binary(np.minimum))
    run_pow = node_impl(ag.Pow, _binary(np.power))
    run_eq = node_impl(ag.Eq, _binary(np.equal))
    run_ne = node_impl(ag.Ne, _binary(np.not_equal))
    run_gt = node_impl(ag.Gt, _binary(np.greater))
    run_ge = node_impl(ag.Ge, _binary(np.greater_equal))
    run_lt = node_impl(ag.Lt, _binary(np.less))
    run_le = node_impl(ag.Le, _binary(np.less_equal))

    run_where = node_impl(ag.Where, _where)
    run_scalar = node_impl(ag.Scalar, _scalar)
    run_sum = node_impl(ag.Sum, _reduction)
    run_prod = node_impl(ag.Prod, _reduction)
    run_max = node_impl(ag.Max, _reduction)
    run_min = node_impl(ag.Min, _reduction)
    run_mean = node_impl(ag.Mean, _reduction)
    run_broadcast = node_impl(ag.Broadcast, _broadcast)
    run_gather = node_impl(ag.Gather, _gather)
    run_transpose = node_impl(ag.Transpose, _transpose)
    run_concat = node_impl(ag.Concat, _concat)
    run_split = node_impl(ag.Split, _split)

    # the activation section's nodes (runtime/activations.py, shared with the reference)
    run_erf = node_impl(ag.Erf, _unary(AF.erf))
    run_gelu = node_impl(ag.Gelu, _unary(AF.gelu))
    run_sign = node_impl(ag.Sign, _unary(np.sign))
    run_isnan = node_impl(ag.Isnan, _unary(np.isnan))
    run_leaky_relu = node_impl(ag.LeakyRelu, _leaky_relu)
    run_logical_and = node_impl(ag.LogicalAnd, _logical(np.logical_and))
    run_logical_or = node_impl(ag.LogicalOr, _logical(np.logical_or))
    run_logical_not = node_impl(ag.LogicalNot, _logical(np.logical_not))
