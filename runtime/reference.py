"""The reference interpreter of the ge dialect: numpy on value semantics.

Each node's meaning is GE's meaning of its op type (the op protos in GE's
`ops/built-in/op_proto/inc/*.h`, which follow the TensorFlow/ONNX operators they name);
memory layout plays no part here: a `_no_task` node means the same as the node it
replaces. The simulator of NPU programs is checked against these numbers.

The semantics are xDSL interpreter functions: `ReferenceFunctions` holds one `@impl` per
ge op class (`ge.AscBackend` excepted: its meaning is its AscGraph's, which
runtime/ascgraph_interp.py's `AscGraphFunctions` implement). They run on
runtime/graph_interpreter.py's `GeInterpreter`, xDSL's `Interpreter` with GE's graph walk;
runtime/interpreter.py (the composition root) registers both function sets on each
interpreter it makes and gives `run_graph` / `run_module` to its callers. Registration is
per interpreter instance: an implementation registered on one
(`register_implementations(..., override=True)`) changes no other. `select_graph` picks
the graph a module runs (the one no `ge.PartitionedCall` calls, unless one is named): a
graph query of ge_dialect/graph.py, re-exported here for the interpreter's callers.

Rules the whole interpreter keeps:

* a graph body is walked once, in order (`GeInterpreter.run_block`); values live in a dict
  value -> array;
* every output array has exactly the output type's shape (`?` dims match anything) and
  the type's numpy dtype (`ge_dialect.dtypes.numpy_dtype`; bf16 and the float8 types are
  ml_dtypes' dtypes, GE's bytes); a mismatch is an internal error, reported as such;
* pointwise ops compute in the inputs' numpy dtype (f16 stays f16) and are cast to the
  output dtype, except bf16 and float8 inputs: those are cast up to float32, the op
  computes in float32 and its result is rounded once to the output dtype (to nearest,
  ties to even), as GE's AscGraph kernels compute bf16 in float32
  (adaption_improve_precision.cpp: FromDtypeToOtherDtype(node, DT_BF16, DT_FLOAT));
  MatMul, Conv2D and float reductions accumulate f16, bf16 and float8 in float32 (as the
  Cube unit and the Vector reduce kernels do) and cast the result (runtime/numerics.py,
  shared with the AscGraph interpreter);
* every failure is a `ReferenceEvalError`, a `LocatedError` naming the op.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    OpImpl,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.desc import shape_of
from ge_dialect.dtypes import dtype_bits, is_float_dtype, numpy_dtype
from ge_dialect.ge import value_dtype
from ge_dialect.graph import root_graphs, select_graph
from ge_dialect.resize import (
    onnx_resize_index,
    onnx_resize_matrix,
    onnx_resize_weights,
    tf_linear_weights,
    tf_nearest_index,
)
from ge_dialect.shapes import fmt_shape, normalize_axis
from ge_dialect.weights import const_value_array, weight_array
from runtime import activations as AF
from runtime.graph_interpreter import GeInterpreter, Impl, ReferenceEvalError, node_impl, run_time_node
from runtime.numerics import acc_dtype, c_div, gather_indices, reduce, reduce_identity, upcast

__all__ = [
    "ReferenceFunctions",
    "batch_matmul_nd",
    "case_branch",
    "cond_truth",
    "conv2d_nchw",
    "conv2d_transpose_nchw",
    "dense_value",
    "dynamic_gru_v2",
    "dynamic_rnn",
    "grid_sample",
    "matmul_nd",
    "onnx_resize_matrices",
    "onnx_resize_shape",
    "out_dtype",
    "pool2d",
    "resize_nchw",
    "reduce_axes",
    "root_graphs",
    "select_graph",
]

# ---------------------------------------------------------------------------------------
# Types and checks
# ---------------------------------------------------------------------------------------


def out_dtype(op: Operation, i: int = 0) -> np.dtype:
    return numpy_dtype(value_dtype(op.results[i]))


def run_time_shape(op: Operation, i: int, args: Sequence[np.ndarray]) -> tuple[int, ...] | None:
    """Output i's shape as the node's inference gives it on the run-time input shapes (None
    when it infers none)."""
    with run_time_node(op, args) as node:
        assert isinstance(node, ge.GeNode)
        got = node.infer()
    s = None if got is None else got[i]
    return s if s is not None and all(d >= 0 for d in s) else None


def _target_shape(op: Operation, i: int, size: int, args: Sequence[np.ndarray] = ()) -> tuple[int, ...]:
    """The output type's shape; when it has unknown dims, the node's inference on the
    run-time shapes (`args`), else one unknown dim derived from the element count."""
    t = op.results[i].type
    s = shape_of(t)
    if s is not None and all(d >= 0 for d in s):
        return s
    if args and (rt := run_time_shape(op, i, args)) is not None:
        return rt
    if s is None:
        raise ReferenceEvalError(op, f"output {i} has unranked type {t}: the reference cannot know its shape")
    unknown = [k for k, d in enumerate(s) if d < 0]
    if not unknown:
        return s
    known = math.prod(d for d in s if d >= 0)
    if len(unknown) > 1 or known == 0 or size % known:
        raise ReferenceEvalError(op, f"output {i} type {t} has unknown dims the reference cannot derive")
    return tuple(size // known if d < 0 else d for d in s)


def _norm_axis(op: Operation, axis: int, rank: int, what: str) -> int:
    """shapes.normalize_axis, its error located at `op` (a verified op never fails it)."""
    try:
        return normalize_axis(axis, rank, what)
    except VerifyException as e:
        raise ReferenceEvalError(op, str(e)) from None


# ---------------------------------------------------------------------------------------
# Which graph runs
# ---------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------
# Data, constants, calls, fused kernels
# ---------------------------------------------------------------------------------------


def _bound_by_block(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # Data nodes are the graph's inputs: GeInterpreter.run_block binds them.
    raise ReferenceEvalError(op, f"{op.name} is evaluated by its graph, not as a node")


def dense_value(op: Operation, attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The `value` of a Const/Constant/Variable as an array of the output's type: a
    read-only view of the value's bytes (ge_dialect/weights.py), never Python numbers."""
    t = op.results[0].type
    s = shape_of(t)
    assert s is not None and all(d >= 0 for d in s)  # the verifier checks value type == output type
    return weight_array(attr).astype(out_dtype(op), copy=False).reshape(s)


def _const(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    v = const_value_array(op, op.attributes.get("value"))  # an elided value: a located error
    assert v is not None  # the verifier checks a Const has a value
    return [v.astype(out_dtype(op), copy=False)]


def _variable(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    v = const_value_array(op, op.attributes.get("value"))
    if v is not None:
        return [v.astype(out_dtype(op), copy=False)]
    s = shape_of(op.results[0].type)
    if s is None or any(d < 0 for d in s):
        raise ReferenceEvalError(op, f"a Variable without 'value' needs a known shape, got {op.results[0].type}")
    return [np.zeros(s, dtype=out_dtype(op))]


# ---------------------------------------------------------------------------------------
# Pointwise
# ---------------------------------------------------------------------------------------


def _pointwise(fn: Callable[..., np.ndarray], float_only: bool = False) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        dt = args[0].dtype
        if float_only and not is_float_dtype(dt):
            raise ReferenceEvalError(op, f"{ge.ge_type(op)} has no reference semantics for dtype {dt} (floats only)")
        try:
            r = fn(*upcast(args))
        except (TypeError, ValueError) as e:  # e.g. bool subtract, int ** negative int
            raise ReferenceEvalError(op, f"{ge.ge_type(op)} is not defined on dtype {dt}: {e}") from None
        return [np.asarray(r).astype(out_dtype(op), copy=False)]

    return semantics


def _int_div(op: Operation) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "b":
            raise ReferenceEvalError(op, "Div is not defined on bool")
        try:
            return c_div(a, b)
        except ZeroDivisionError as e:
            raise ReferenceEvalError(op, str(e)) from None

    return div


def _div(op: Operation, args: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
    return _pointwise(_int_div(op))(op, args)


def _cast(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # float -> int truncates toward zero; anything -> bool is "!= 0" (numpy astype). bf16
    # and float8 go through float32 (exact), as every other op of theirs and the AscGraph
    # interpreter's Cast do; to bf16 / float8 rounds to nearest, ties to even.
    return [upcast(args)[0].astype(out_dtype(op))]


def _add_n(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # lowering_impl.cpp: AddN lowers to a chain of Add: left to right, each Add rounded to
    # the inputs' dtype (bf16 / float8: computed in float32, then rounded), as the fused kernel
    acc = args[0]
    for a in args[1:]:
        x, y = upcast([acc, a])
        acc = np.asarray(x + y).astype(args[0].dtype, copy=False)
    return [np.asarray(acc).astype(out_dtype(op), copy=False)]


# ---------------------------------------------------------------------------------------
# Activations, comparisons, logic, selection, softmax, layer norm (runtime/activations.py
# holds the formulas, shared with the AscGraph interpreter)
# ---------------------------------------------------------------------------------------


def _with_attrs(fn: Callable[..., np.ndarray], *names: str) -> Impl:
    """A pointwise op whose kernel also takes the op's float attributes `names`."""

    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        assert isinstance(op, ge._Checked)
        params = [op.fattr(n) for n in names]
        return list(_pointwise(lambda x: fn(x, *params))(op, args))

    return semantics


def _remainder(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        try:
            return list(_pointwise(fn)(op, args))
        except ZeroDivisionError as e:
            raise ReferenceEvalError(op, str(e)) from None

    return semantics


def _clip_by_value(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # lowering_impl.cpp: REGISTER_LOWERING(ClipByValue) -- Maximum(Minimum(x, max), min)
    return list(_pointwise(lambda x, lo, hi: np.maximum(np.minimum(x, hi), lo))(op, args))


def _select_v2(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    c, a, b = args[0], *upcast(args[1:])
    return [np.asarray(np.where(c, a, b)).astype(out_dtype(op), copy=False)]


def _softmax_kind(fn: Callable[[np.ndarray, Sequence[int]], np.ndarray]) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        assert isinstance(op, ge.SoftmaxBase)
        x = args[0]
        with run_time_node(op, args) as node:
            assert isinstance(node, ge.SoftmaxBase)
            axes = node.norm_axes() or []
        if x.ndim == 0:  # one element: softmax 1, log-softmax 0
            return [fn(x.reshape(1), [0]).reshape(()).astype(out_dtype(op))]
        return [fn(upcast([x])[0], axes).astype(out_dtype(op))]

    return semantics


def _layer_norm(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ge.LayerNorm)
    with run_time_node(op, args) as node:
        assert isinstance(node, ge.LayerNorm)
        ax = node.axes()
    assert ax is not None  # of the run-time (ranked) x
    x, g, b = upcast(args)
    outs = AF.layer_norm(x, g, b, ax[0], ax[1], op.epsilon())
    return [o.astype(out_dtype(op, i)) for i, o in enumerate(outs)]


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------


def reduce_axes(op: Operation, rank: int) -> tuple[int, ...]:
    axes = A.get_int_list(op, "axes") or []
    if not axes:  # GE's ReduceXxxD: an empty `axes` reduces every axis
        return tuple(range(rank))
    return tuple(sorted({_norm_axis(op, a, rank, "axes entry") for a in axes}))


def _reduction(kind: str) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        try:
            r = reduce(kind, x, reduce_axes(op, x.ndim), A.get_bool(op, "keep_dims", False))
        except ZeroDivisionError:
            raise ReferenceEvalError(op, "ReduceMeanD of an empty integer tensor") from None
        return [np.asarray(r).astype(out_dtype(op), copy=False)]

    return semantics


# ---------------------------------------------------------------------------------------
# Concat, Pack, Split, PhonyConcat, PhonySplit
# ---------------------------------------------------------------------------------------


def _concat(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # concatv2d.cc: InferShape4ConcatV2Common -- one input is the output (a scalar too);
    # of several, each scalar is a 1-element vector.
    if len(args) == 1 and args[0].ndim == 0:
        return [args[0]]
    rank = max(args[0].ndim, 1)
    axis = _norm_axis(op, A.get_int(op, "concat_dim", 0) or 0, rank, "concat_dim")
    return [np.concatenate([a.reshape(1) if a.ndim == 0 else a for a in args], axis=axis)]


def _pack(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    axis = _norm_axis(op, A.get_int(op, "axis", 0) or 0, args[0].ndim + 1, "axis")
    return [np.stack(args, axis=axis)]


def _split_sizes(op: Operation, dim_size: int) -> list[int]:
    n = len(op.results)
    if isinstance(op, ge.SplitVD):
        sizes = A.get_int_list(op, "size_splits") or []
        rest = dim_size - sum(s for s in sizes if s >= 0)
        sizes = [rest if s == -1 else s for s in sizes]
    else:
        if dim_size % n:
            raise ReferenceEvalError(op, f"split_dim size {dim_size} is not divisible by num_split {n}")
        sizes = [dim_size // n] * n
    if len(sizes) != n or any(s < 0 for s in sizes) or sum(sizes) != dim_size:
        raise ReferenceEvalError(op, f"split sizes {sizes} do not split a dim of size {dim_size} into {n} parts")
    return sizes


def _split(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    axis = _norm_axis(op, A.get_int(op, "split_dim", 0) or 0, x.ndim, "split_dim")
    sizes = _split_sizes(op, x.shape[axis])
    return list(np.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis))


def _phony_dims(op: Operation, dim_attr: str, n_attr: str, count: int, rank: int) -> tuple[list[int], list[int]]:
    dims = A.get_int_list(op, dim_attr) or []
    ns = A.get_int_list(op, n_attr) or []
    if not dims or len(dims) != len(ns) or math.prod(ns) != count:
        raise ReferenceEvalError(op, f"'{dim_attr}' {dims} and '{n_attr}' {ns} do not describe {count} pieces")
    return [_norm_axis(op, d, rank, f"'{dim_attr}' entry") for d in dims], ns


def _keep_offset(op: Operation, name: str) -> None:
    # ge_local_ops_kernel_calc_op_param.cc: CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset:
    # with keep_*_offset = false every piece sits at offset 0 (a user-defined layout), so
    # the node's value is not determined by the graph.
    if not A.get_bool(op, name, True):
        raise ReferenceEvalError(
            op, f"{name} = false places every piece at offset 0 (a user-defined layout): no reference semantics"
        )


def _phony_concat(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Input k goes to block position slice[i] along dims[i], slice ids first-axis-fastest.

    ge_local_ops_kernel_calc_op_param.cc: GetConcatOffset (slice[i] = k % N[i]; k //= N[i]).
    """
    _keep_offset(op, "keep_input_offset")
    piece = args[0].shape
    dims, ns = _phony_dims(op, "concat_dim", "N", len(args), len(piece))
    out = np.empty(ge.phony_block_shape(piece, dims, ns), dtype=args[0].dtype)  # the output's (verifier)
    for k, a in enumerate(args):
        if a.shape != piece:
            raise ReferenceEvalError(op, f"input {k} has shape {fmt_shape(a.shape)}, input 0 has {fmt_shape(piece)}")
        where: list[slice] = [slice(None)] * len(piece)
        idx = k
        for d, n in zip(dims, ns):
            s, idx = idx % n, idx // n
            where[d] = slice(s * piece[d], (s + 1) * piece[d])
        out[tuple(where)] = a
    return [out]


def _phony_split(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Output k is the block at slice[i] along dims[i], slice ids last-axis-fastest.

    ge_local_ops_kernel_calc_op_param.cc: GetSplitOffset (i = k-1 .. 0: slice[i] = k % N[i]).
    """
    _keep_offset(op, "keep_output_offset")
    x = args[0]
    count = len(op.results)
    dims, ns = _phony_dims(op, "split_dim", "num_split", count, x.ndim)
    piece = list(x.shape)
    for d, n in zip(dims, ns):
        if piece[d] % n:
            raise ReferenceEvalError(op, f"input dim {d} of size {piece[d]} does not split into {n} pieces")
        piece[d] //= n
    outs = []
    for k in range(count):
        where: list[slice] = [slice(None)] * x.ndim
        idx = k
        for d, n in reversed(list(zip(dims, ns))):
            s, idx = idx % n, idx // n
            where[d] = slice(s * piece[d], (s + 1) * piece[d])
        outs.append(x[tuple(where)])
    return outs


# ---------------------------------------------------------------------------------------
# The reshape family, Bitcast, TransposeD, BroadcastToD, Shape
# ---------------------------------------------------------------------------------------


def _reshape(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # The reshape family keeps the elements in row-major order: the output is the input
    # reshaped to the output type's shape (a Reshape's optional shape input is redundant).
    x = args[0]
    if isinstance(op, ge.Reshape) and len(args) == 2 and any(d < 0 for d in (shape_of(op.results[0].type) or (-1,))):
        # the output type leaves dims unknown: the shape input's run-time values say them
        # (one -1 is derived from the element count, as GE's Reshape kernel does)
        shape = _reshape_target(op, x, [int(v) for v in np.asarray(args[1]).reshape(-1)])
    else:
        shape = _target_shape(op, 0, x.size, args)
    if math.prod(shape) != x.size:
        raise ReferenceEvalError(op, f"cannot reshape {fmt_shape(x.shape)} to {fmt_shape(shape)}")
    return [x.reshape(shape)]


def _squeeze_unsqueeze_v3(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # SqueezeV3 / UnsqueezeV3 with an axes input: the run-time axes say the shape (the
    # output type may not know it: axes computed in the graph); without it, the output type
    if len(args) < 2:
        return _reshape(op, args)
    x, axes = args[0], _ints_of(args[1])
    try:
        shape = ge.squeeze_shape(x.shape, axes) if isinstance(op, ge.SqueezeV3) else ge.unsqueeze_shape(x.shape, axes)
    except VerifyException as e:
        raise ReferenceEvalError(op, str(e)) from None
    assert shape is not None  # a run-time shape has no unknown dim
    return [x.reshape(shape)]


def _reshape_target(op: Operation, x: np.ndarray, dims: list[int]) -> tuple[int, ...]:
    if sum(1 for d in dims if d == -1) > 1 or any(d < -1 for d in dims):
        raise ReferenceEvalError(op, f"shape {dims} may hold one -1 and no other negative entry")
    known = math.prod(d for d in dims if d >= 0)
    if -1 in dims:
        if known == 0 or x.size % known:
            raise ReferenceEvalError(op, f"cannot reshape {fmt_shape(x.shape)} to {dims}")
        dims = [x.size // known if d == -1 else d for d in dims]
    out = tuple(dims)
    want = shape_of(op.results[0].type)
    if want is not None and (len(want) != len(out) or any(w >= 0 and w != d for w, d in zip(want, out))):
        raise ReferenceEvalError(op, f"shape {dims} at run time is not the output type {op.results[0].type}")
    return out


def _bitcast(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    src, dst = value_dtype(op.operands[0]), value_dtype(op.results[0])
    for t in (src, dst):
        if dtype_bits(t) != numpy_dtype(t).itemsize * 8:
            raise ReferenceEvalError(
                op, f"Bitcast of {t}: the reference holds it as {numpy_dtype(t)}, so its bytes are not GE's"
            )
    flat = np.ascontiguousarray(x).reshape(-1).view(out_dtype(op))
    return [flat.reshape(_target_shape(op, 0, flat.size))]


def _transpose(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.transpose(args[0], A.get_int_list(op, "perm") or [])]


def _broadcast_to(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.broadcast_to(args[0], tuple(A.get_int_list(op, "shape") or []))]


def _shape(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.array(args[0].shape, dtype=out_dtype(op))]


# ---------------------------------------------------------------------------------------
# Gather, GatherV2
# ---------------------------------------------------------------------------------------


def _gather(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ge.GatherBase)
    x, idx = args[0], args[1]
    if isinstance(op, ge.GatherV2):
        if args[2].size != 1:
            raise ReferenceEvalError(op, f"axis must hold one value, got {args[2].size}")
        raw = int(args[2].reshape(-1)[0])
    else:
        raw = 0
    axis = _norm_axis(op, raw, x.ndim, "axis")
    b = op.batch_dims()
    b = b + idx.ndim if b < 0 else b
    try:
        i = gather_indices(idx, x.shape[axis], A.get_bool(op, "negative_index_support"))
    except IndexError as e:
        raise ReferenceEvalError(op, str(e)) from None
    if b == 0:
        # np.take of a 0-d index on a 1-D x is a numpy scalar: the output is a 0-d array.
        return [np.asarray(np.take(x, i, axis=axis))]
    # batch_dims: one take per batch element over the shared leading dims.
    lead = x.shape[:b]
    xs = x.reshape((-1,) + x.shape[b:])
    iss = i.reshape((-1,) + i.shape[b:])
    parts = [np.take(xs[k], iss[k], axis=axis - b) for k in range(xs.shape[0])]
    if not parts:  # an empty batch: the output is empty too
        return [np.zeros(lead + i.shape[b:] + x.shape[axis + 1 :], dtype=x.dtype)]
    return [np.stack(parts).reshape(lead + parts[0].shape)]


# ---------------------------------------------------------------------------------------
# MatMul, Conv2D, HcomAllGather
# ---------------------------------------------------------------------------------------


def matmul_nd(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x1 @ x2 in the arrays' dtype, after the op's transpose_x1/transpose_x2 (shared with
    runtime/error_bound.py, which runs it on float64 magnitudes)."""
    if A.get_bool(op, "transpose_x1"):
        a = a.T
    if A.get_bool(op, "transpose_x2"):
        b = b.T
    return a @ b


def _matmul(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    acc = acc_dtype(args[0].dtype)
    r = matmul_nd(op, args[0].astype(acc, copy=False), args[1].astype(acc, copy=False))
    if len(args) == 3:
        r = r + args[2].astype(acc, copy=False).reshape(-1)
    return [r.astype(out_dtype(op))]


def _conv2d(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """NCHW: x [N,C,H,W], filter [K,C/groups,kh,kw], bias [K]; strides/dilations NCHW
    4-lists, pads [top, bottom, left, right] (GE's Conv2D op proto, nn_calculation_ops.h)."""
    acc = acc_dtype(args[0].dtype)
    out = conv2d_nchw(op, args[0].astype(acc, copy=False), args[1].astype(acc, copy=False))
    if len(args) == 3:
        out = out + args[2].astype(acc, copy=False).reshape(1, -1, 1, 1)
    return [out.astype(out_dtype(op))]


def conv2d_nchw(op: Operation, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The convolution of `op` (no bias) in the arrays' dtype (shared with
    runtime/error_bound.py, which runs it on float64 magnitudes)."""
    acc = x.dtype
    sh, sw = ge.quad_attr(op, "strides", [1, 1, 1, 1])[2:]
    dh, dw = ge.quad_attr(op, "dilations", [1, 1, 1, 1])[2:]
    pt, pb, pl, pr = ge.quad_attr(op, "pads", [0, 0, 0, 0])
    g = A.get_int(op, "groups", 1) or 1
    n, c, h, wd = x.shape
    k, cg, kh, kw = w.shape
    if c != cg * g or k % g:
        raise ReferenceEvalError(op, f"filter {fmt_shape(w.shape)} does not match {c} input channels with groups {g}")
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    xp = np.pad(x.astype(acc), ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    # patches[n, c, i, j, oh, ow] = xp[n, c, i*dh + oh*sh, j*dw + ow*sw]
    patches = np.empty((n, c, kh, kw, oh, ow), dtype=acc)
    for i in range(kh):
        for j in range(kw):
            patches[:, :, i, j] = xp[
                :, :, i * dh : i * dh + sh * (oh - 1) + 1 : sh, j * dw : j * dw + sw * (ow - 1) + 1 : sw
            ]
    patches = patches.reshape(n, g, cg, kh, kw, oh, ow)
    # out[n, g, k, hw] = sum over (c, i, j) of wg[g, k, (c, i, j)] * cols[n, g, (c, i, j), hw]:
    # one matmul per group and image (BLAS; einsum's own loop is several times slower)
    cols = patches.reshape(n, g, cg * kh * kw, oh * ow)
    wg = w.astype(acc, copy=False).reshape(g, k // g, cg * kh * kw)
    return np.matmul(wg, cols).reshape(n, k, oh, ow)


def _all_gather(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # Every rank runs the same graph on its own data; the reference has one rank's data,
    # so rank r's contribution is this input: rank_size copies concatenated on axis 0.
    r = A.get_int(op, "rank_size", 1) or 1
    return [np.concatenate([args[0]] * r, axis=0)]


# ---------------------------------------------------------------------------------------
# Structural and compute ops of real models: BatchNorm, pooling, PadV3, StridedSliceV2,
# Tile, BatchMatMulV2, ArgMaxV2, ArgMin, GatherElements, Tril, Triu, the resizes,
# Conv2DTranspose (their op protos: ge_dialect/ge.py). Index inputs (paddings, begin,
# end, axes, strides, multiples) are read from the input arrays: in a kernel they are
# the Consts' bytes, not attributes.
# ---------------------------------------------------------------------------------------


def _ints_of(a: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(a).reshape(-1)]


def _batch_norm(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Inference: y = scale * (x - mean) / sqrt(variance + epsilon) + offset per channel
    (axis 1), computed in float32 (f16 / bf16 x upcast, as the Vector kernels compute),
    rounded once to x's dtype; the other outputs pass mean and variance on."""
    assert isinstance(op, ge.BatchNorm)
    if A.get_bool(op, "is_training", True):
        raise ReferenceEvalError(
            op, "is_training = true (batch statistics) has no reference semantics here: only inference is implemented"
        )
    x, scale, offset, mean, var = args
    ct = acc_dtype(x.dtype)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xs = x.astype(ct)
    inv = np.sqrt(var.astype(ct) + ct.type(op.epsilon()))
    y = scale.astype(ct).reshape(shape) * (xs - mean.astype(ct).reshape(shape)) / inv.reshape(shape)
    y = y + offset.astype(ct).reshape(shape)
    f32 = np.dtype(np.float32)
    return [y.astype(out_dtype(op)), mean.astype(f32), var.astype(f32), mean.astype(f32), var.astype(f32),
            np.zeros((1,), f32)]  # fmt: skip


def pool2d(op: Operation, x: np.ndarray, kind: str) -> np.ndarray:
    """`kind` ("max" or "avg") pooling of NCHW `x` by `op`'s windows (ge.PoolBase), in
    `x`'s dtype (the caller upcasts): a max never takes padding (an empty window gives the
    dtype's identity); an average divides the window's sum by its elements inside x
    (exclusive, AvgPool's SAME), inside the padded x (AvgPoolV2 exclusive = false), or by
    divisor_override when it is > 0."""
    assert isinstance(op, ge.PoolBase)
    try:
        w = op.windows(x.shape)
    except VerifyException as e:
        raise ReferenceEvalError(op, str(e)) from None
    assert w is not None  # of an array's (known) shape
    ((oh, pt, pb), (ow, pl, pr)), (kh, kw), (sh, sw) = w
    n, c, h, wd = x.shape
    out = np.empty((n, c, oh, ow), dtype=x.dtype)
    exclusive = A.get_bool(op, "exclusive", True) or A.get_str(op, "padding") == "SAME"
    override = A.get_int(op, "divisor_override", 0) or 0
    for i in range(oh):
        h0 = i * sh - pt
        r0, r1 = max(h0, 0), min(h0 + kh, h)
        rows_padded = min(h0 + kh, h + pb) - max(h0, -pt)
        for j in range(ow):
            w0 = j * sw - pl
            c0, c1 = max(w0, 0), min(w0 + kw, wd)
            win = x[:, :, r0 : max(r0, r1), c0 : max(c0, c1)]
            if kind == "max":
                out[:, :, i, j] = np.max(win, axis=(2, 3), initial=reduce_identity("max", x.dtype))
                continue
            if override > 0:
                count = override
            elif exclusive:
                count = max(r1 - r0, 0) * max(c1 - c0, 0)
            else:
                count = rows_padded * (min(w0 + kw, wd + pr) - max(w0, -pl))
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, :, i, j] = np.sum(win, axis=(2, 3), dtype=x.dtype) / x.dtype.type(count)
    return out


def _pool(kind: str) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        # max is exact in the upcast dtype; an average accumulates f16 / bf16 in float32
        xc = upcast([x])[0] if kind == "max" else x.astype(acc_dtype(x.dtype))
        return [pool2d(op, xc, kind).astype(out_dtype(op))]

    return semantics


def _pad_v3(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Negative pads crop first, then positive pads extend: constant (constant_values, or
    0), reflect (mirrored without the edge) or edge (the edge repeated)."""
    x = args[0]
    pairs = ge.pad_pairs(_ints_of(args[1]), x.ndim, A.get_bool(op, "paddings_contiguous", True))
    if pairs is None:
        raise ReferenceEvalError(op, f"paddings has {args[1].size} values for a rank-{x.ndim} x")
    crop = tuple(slice(max(0, -b), d - max(0, -e)) for d, (b, e) in zip(x.shape, pairs))
    x = x[crop]
    widths = [(max(0, b), max(0, e)) for b, e in pairs]
    mode = A.get_str(op, "mode", "constant") or "constant"
    if mode == "constant":
        value = args[2].reshape(-1)[0] if len(args) == 3 else x.dtype.type(0)
        return [np.pad(x, widths, mode="constant", constant_values=value).astype(out_dtype(op), copy=False)]
    if mode not in ge.PAD_MODES:
        raise ReferenceEvalError(op, f"PadV3 mode {mode} has no reference semantics")
    if any(w != (0, 0) and d == 0 for w, d in zip(widths, x.shape)):
        raise ReferenceEvalError(op, f"mode {mode} cannot extend an empty axis")
    return [np.pad(x, widths, mode="reflect" if mode == "reflect" else "edge").astype(out_dtype(op), copy=False)]


def _strided_slice_v2(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    lists = [_ints_of(a) for a in args[1:]]
    try:
        r = ge.slice_ranges(x.shape, lists[0], lists[1], lists[2] if len(lists) > 2 else None,
                            lists[3] if len(lists) > 3 else None)  # fmt: skip
    except VerifyException as e:
        raise ReferenceEvalError(op, str(e)) from None
    idx = tuple(slice(b, None if e < 0 else e, s) for b, e, s in r)
    return [np.ascontiguousarray(x[idx])]


def _tile(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    reps = _ints_of(args[1])
    if len(reps) != args[0].ndim or any(k < 0 for k in reps):
        raise ReferenceEvalError(op, f"multiples {reps} must have one entry >= 0 per axis of x")
    return [np.tile(args[0], reps)]


# -- the input forms: Expand, ReduceXxx with an axes input, SplitV (their D forms' semantics
# with the input's run-time values)


def _expand(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, shape = args[0], tuple(_ints_of(args[1]))
    if any(d < 0 for d in shape):
        raise ReferenceEvalError(op, f"shape {list(shape)} has a negative entry")
    try:
        out = np.broadcast_shapes(x.shape, shape)
    except ValueError:
        raise ReferenceEvalError(op, f"x {fmt_shape(x.shape)} and shape {list(shape)} do not broadcast") from None
    return [np.ascontiguousarray(np.broadcast_to(x, out))]


def _reduction_axes(kind: str) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, axes = args[0], _ints_of(args[1])
        if not axes and A.get_bool(op, "noop_with_empty_axes", False):
            return [x.copy()]
        norm = sorted({_norm_axis(op, a, x.ndim, "axes entry") for a in axes}) if axes else range(x.ndim)
        try:
            r = reduce(kind, x, tuple(norm), A.get_bool(op, "keep_dims", False))
        except ZeroDivisionError:
            raise ReferenceEvalError(op, "ReduceMean of an empty integer tensor") from None
        return [np.asarray(r).astype(out_dtype(op), copy=False)]

    return semantics


def _split_v(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, dim = args[0], _ints_of(args[2])
    if len(dim) != 1:
        raise ReferenceEvalError(op, f"split_dim must hold one value, got {dim}")
    axis = _norm_axis(op, dim[0], x.ndim, "split_dim")
    try:
        sizes = ge.split_sizes(_ints_of(args[1]), len(op.results), x.shape[axis])
    except VerifyException as e:
        raise ReferenceEvalError(op, str(e)) from None
    return list(np.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis))


def batch_matmul_nd(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x1 @ x2 over the last two axes with numpy's batch broadcasting, after adj_x1 /
    adj_x2, in the arrays' dtype (shared with runtime/error_bound.py)."""
    if A.get_bool(op, "adj_x1"):
        a = np.swapaxes(a, -1, -2)
    if A.get_bool(op, "adj_x2"):
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _batch_matmul_v2(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    acc = acc_dtype(args[0].dtype)
    r = batch_matmul_nd(op, args[0].astype(acc, copy=False), args[1].astype(acc, copy=False))
    if len(args) == 3:
        r = r + args[2].astype(acc, copy=False)
    return [np.asarray(r).astype(out_dtype(op))]


def _arg(kind: str) -> Impl:
    """ArgMaxV2 / ArgMin: the first index of the largest / smallest value along the
    axis (numpy's argmax / argmin keep the first), in the upcast dtype (exact)."""

    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = upcast([args[0]])[0]
        if args[1].size != 1:
            raise ReferenceEvalError(op, f"dimension must hold one value, got {args[1].size}")
        axis = _norm_axis(op, int(args[1].reshape(-1)[0]), x.ndim, "dimension")
        if x.shape[axis] == 0:
            raise ReferenceEvalError(op, f"{ge.ge_type(op)} of an empty axis {axis} has no index")
        r = np.argmax(x, axis=axis) if kind == "max" else np.argmin(x, axis=axis)
        return [np.asarray(r).astype(out_dtype(op))]

    return semantics


def _gather_elements(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, idx = args[0], args[1]
    axis = _norm_axis(op, A.get_int(op, "dim", 0) or 0, x.ndim, "dim")
    try:
        i = gather_indices(idx, x.shape[axis], False)
    except IndexError as e:
        raise ReferenceEvalError(op, str(e)) from None
    # index's other dims may be smaller than x's: gather from x's leading corner
    corner = x[tuple(slice(0, d) if k != axis else slice(None) for k, d in enumerate(idx.shape))]
    return [np.take_along_axis(corner, i, axis=axis)]


def _tri(upper: bool) -> Impl:
    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        k = A.get_int(op, "diagonal", 0) or 0
        rows, cols = x.shape[-2], x.shape[-1]
        keep = np.triu(np.ones((rows, cols), bool), k) if upper else np.tril(np.ones((rows, cols), bool), k)
        return [np.where(keep, x, np.zeros((), x.dtype))]

    return semantics


def _flags(op: Operation) -> tuple[bool, bool]:
    return bool(A.get_bool(op, "align_corners")), bool(A.get_bool(op, "half_pixel_centers"))


def resize_nearest_index(op: Operation, n_in: int, n_out: int) -> np.ndarray:
    """tf_nearest_index for `op`'s attributes."""
    return tf_nearest_index(*_flags(op), n_in, n_out)


def resize_linear_weights(op: Operation, n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """tf_linear_weights for `op`'s attributes."""
    return tf_linear_weights(*_flags(op), n_in, n_out)


def _onnx_resize_nchw(op: ge.Resize, x: np.ndarray, scales: list[float], out: Sequence[int]) -> np.ndarray:
    coord = A.get_str(op, "coordinate_transformation_mode") or "half_pixel"
    h, w = x.shape[2], x.shape[3]
    if (A.get_str(op, "mode") or "nearest") == "nearest":
        nm = A.get_str(op, "nearest_mode") or "round_prefer_floor"
        iy = onnx_resize_index(coord, nm, h, out[2], scales[2])
        ix = onnx_resize_index(coord, nm, w, out[3], scales[3])
        return x[:, :, iy][:, :, :, ix]
    y0, y1, ly = onnx_resize_weights(coord, h, out[2], scales[2])
    x0, x1, lx = onnx_resize_weights(coord, w, out[3], scales[3])
    ly, lx = ly.astype(x.dtype).reshape(1, 1, -1, 1), lx.astype(x.dtype).reshape(1, 1, 1, -1)
    top, bottom = x[:, :, y0], x[:, :, y1]
    t = top[:, :, :, x0] + (top[:, :, :, x1] - top[:, :, :, x0]) * lx
    b = bottom[:, :, :, x0] + (bottom[:, :, :, x1] - bottom[:, :, :, x0]) * lx
    return t + (b - t) * ly


def onnx_resize_matrices(
    op: Operation, args: Sequence[np.ndarray], scales: list[float], out: Sequence[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """ge.Resize's H and W weight matrices and out-of-input masks (ge_dialect/resize.py:
    onnx_resize_matrix) for its attributes and input values (roi: args[1]). Shared with
    runtime/error_bound.py."""
    coord = A.get_str(op, "coordinate_transformation_mode") or "half_pixel"
    roi = np.asarray(args[1], np.float64).reshape(-1)
    if coord == "tf_crop_and_resize":
        if roi.size != 8:
            raise ReferenceEvalError(op, f"tf_crop_and_resize needs a roi of 8 values, got {roi.size}")
        if any(roi[a] != 0 or roi[4 + a] != 1 for a in (0, 1)):
            raise ReferenceEvalError(op, f"roi {roi.tolist()} crops N or C: Resize resizes H and W here")
    common = (
        A.get_str(op, "mode") or "nearest",
        coord,
        A.get_str(op, "nearest_mode") or "round_prefer_floor",
    )
    a = ge.float_attr(op, "cubic_coeff_a", -0.75)
    excl = bool(A.get_int(op, "exclude_outside", 0))
    h, w = args[0].shape[2], args[0].shape[3]
    crop = coord == "tf_crop_and_resize"
    mh, oh = onnx_resize_matrix(*common, h, out[2], scales[2], (roi[2], roi[6]) if crop else (0, 1), a, excl)
    mw, ow = onnx_resize_matrix(*common, w, out[3], scales[3], (roi[3], roi[7]) if crop else (0, 1), a, excl)
    return mh, mw, oh, ow


def _resize_onnx(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ge.Resize)
    x = args[0]
    scales, out = onnx_resize_shape(op, args)
    mode = A.get_str(op, "mode") or "nearest"
    if mode == "cubic" or A.get_str(op, "coordinate_transformation_mode") == "tf_crop_and_resize":
        # the weight matrices of both axes in float64, rounded once to x's dtype;
        # outputs outside the cropped input take extrapolation_value
        mh, mw, oh, ow = onnx_resize_matrices(op, args, scales, out)
        y = np.einsum("ph,nchw,qw->ncpq", mh, x.astype(np.float64), mw, optimize=True)
        fill = ge.float_attr(op, "extrapolation_value", 0.0)
        y = np.where(oh.reshape(-1, 1) | ow.reshape(1, -1), fill, y)
        return [np.ascontiguousarray(y).astype(out_dtype(op))]
    if mode == "linear" and x.dtype != np.float64:
        x = x.astype(np.float32)  # computed in float32, rounded once to x's dtype
    return [np.ascontiguousarray(_onnx_resize_nchw(op, x, scales, out)).astype(out_dtype(op))]


def onnx_resize_shape(op: Operation, args: Sequence[np.ndarray]) -> tuple[list[float], tuple[int, ...]]:
    """ge.Resize's scales and output shape from its input values (x, roi, scales [, sizes])."""
    sizes = _ints_of(args[3]) if len(args) == 4 else []
    try:
        return ge.resize_scales_and_shape(args[0].shape, [float(v) for v in np.asarray(args[2]).reshape(-1)], sizes)
    except VerifyException as e:
        raise ReferenceEvalError(op, str(e)) from None


def resize_nchw(op: Operation, x: np.ndarray, oh: int, ow: int, args: Sequence[np.ndarray] | None = None) -> np.ndarray:
    """`op`'s resize of NCHW `x` to oh x ow, in x's dtype (bilinear: the caller passes
    float32 or float64); a ge.Resize's scales from its input values `args` when given
    (scales computed from the data), else from its Consts."""
    h, w = x.shape[2], x.shape[3]
    if isinstance(op, ge.Resize):
        got = onnx_resize_shape(op, args) if args is not None else op.scales_and_shape()
        if got is None:  # computed sizes (docs/onnx.md): the output's size is the sizes' value
            got = ([1.0, 1.0, oh / h, ow / w], (x.shape[0], x.shape[1], oh, ow))
        return _onnx_resize_nchw(op, x, *got)
    if isinstance(op, ge.ResizeNearestNeighborV2):
        return x[:, :, resize_nearest_index(op, h, oh)][:, :, :, resize_nearest_index(op, w, ow)]
    y0, y1, ly = resize_linear_weights(op, h, oh)
    x0, x1, lx = resize_linear_weights(op, w, ow)
    ly, lx = ly.astype(x.dtype).reshape(1, 1, -1, 1), lx.astype(x.dtype).reshape(1, 1, 1, -1)
    top, bottom = x[:, :, y0], x[:, :, y1]
    tl, tr, bl, br = top[:, :, :, x0], top[:, :, :, x1], bottom[:, :, :, x0], bottom[:, :, :, x1]
    t = tl + (tr - tl) * lx
    b = bl + (br - bl) * lx
    return t + (b - t) * ly


def _resize(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    size = _ints_of(args[1])
    if len(size) != 2 or min(size) <= 0 or x.ndim != 4:
        raise ReferenceEvalError(op, f"size {size} must be [new_height, new_width] of a 4-D x")
    if isinstance(op, ge.ResizeBilinearV2):
        x = x.astype(np.float64 if x.dtype == np.float64 else np.float32)
    return [np.ascontiguousarray(resize_nchw(op, x, size[0], size[1])).astype(out_dtype(op))]


def conv2d_transpose_nchw(op: Operation, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The transposed convolution of `op` (no bias) in the arrays' dtype: input pixel
    (i, j) adds x * w[:, :, p, q] at output (i * stride + p * dilation - top, j * stride +
    q * dilation - left) (nn_calculation_ops.h, Conv2DTranspose; ONNX's ConvTranspose).
    Shared with runtime/error_bound.py."""
    sh, sw = ge.quad_attr(op, "strides", [1, 1, 1, 1])[2:]
    dh, dw = ge.quad_attr(op, "dilations", [1, 1, 1, 1])[2:]
    pt, pb, pl, pr = ge.quad_attr(op, "pads", [0, 0, 0, 0])
    oph, opw = ge.quad_attr(op, "output_padding", [0, 0, 0, 0])[2:]
    g = A.get_int(op, "groups", 1) or 1
    n, c, h, wd = x.shape
    _, kg, kh, kw = w.shape
    cg = c // g
    oh = (h - 1) * sh - pt - pb + dh * (kh - 1) + oph + 1
    ow = (wd - 1) * sw - pl - pr + dw * (kw - 1) + opw + 1
    # the full (unpadded) output, large enough for every contribution and the output window
    fh, fw = max((h - 1) * sh + dh * (kh - 1) + 1, pt + oh), max((wd - 1) * sw + dw * (kw - 1) + 1, pl + ow)
    full = np.zeros((n, g, kg, fh, fw), dtype=x.dtype)
    xg = x.reshape(n, g, cg, h, wd)
    wg = w.astype(x.dtype, copy=False).reshape(g, cg, kg, kh, kw)
    for p in range(kh):
        for q in range(kw):
            part = np.einsum("ngchw,gck->ngkhw", xg, wg[:, :, :, p, q])
            full[:, :, :, p * dh : p * dh + sh * (h - 1) + 1 : sh, q * dw : q * dw + sw * (wd - 1) + 1 : sw] += part
    return full[:, :, :, pt : pt + oh, pl : pl + ow].reshape(n, g * kg, oh, ow)


def _conv2d_transpose(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # accumulates in float32 for f16 / bf16 (the Cube unit), as Conv2D does
    acc = acc_dtype(args[1].dtype)
    out = conv2d_transpose_nchw(op, args[1].astype(acc, copy=False), args[2].astype(acc, copy=False))
    if len(args) == 4:
        out = out + args[3].astype(acc).reshape(1, -1, 1, 1)
    return [out.astype(out_dtype(op))]


# ---------------------------------------------------------------------------------------
# Graph preparation: Dropout (inference), StopGradient, PreventGradient, Snapshot, Size,
# Rank, Fill, Range (GE removes or folds them before execution: passes/prepare/)
# ---------------------------------------------------------------------------------------


def _size(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.array(args[0].size, dtype=out_dtype(op))]


def _rank(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    return [np.array(args[0].ndim, dtype=out_dtype(op))]


def _fill(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    dims = tuple(int(d) for d in args[0].reshape(-1))
    if any(d < 0 for d in dims):
        raise ReferenceEvalError(op, f"Fill's dims {list(dims)} has a negative entry")
    return [np.full(dims, args[1].reshape(-1)[0], dtype=out_dtype(op))]


def _range(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # range_kernel.cc: GetRange: start + i * delta for i < ceil((limit - start) / delta)
    start, limit, delta = (a.reshape(-1)[0] for a in args)
    if delta == 0:
        raise ReferenceEvalError(op, "Range's delta is 0")
    n = max(0, math.ceil((float(limit) - float(start)) / float(delta)))
    dt = out_dtype(op)
    return [(np.asarray(start, dtype=dt) + np.arange(n, dtype=dt) * np.asarray(delta, dtype=dt)).astype(dt)]


# ---------------------------------------------------------------------------------------
# Recurrent ops: DynamicRNN (LSTM), DynamicGRUV2 (GRU)
#
# One kernel per node, as the library kernel runs it on the simulator: f16 and f32 inputs
# computed in float32 (the TBE kernels' fp32 gate math, tbe/impl/dynamic_rnn.py and
# dynamic_gru_v2.py), the input projection of all T steps as one matmul [T*B, I] @ [I, G*H],
# then one [B, H] @ [H, G*H] matmul per step for the recurrence (BLAS through numpy), the
# outputs cast once to the output dtype. The step equations are in the ops' docstrings
# (ge_dialect/ge.py).
# ---------------------------------------------------------------------------------------


def _sigmoid32(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.float32(1.0) / (np.float32(1.0) + np.exp(-z))


def _rnn_steps(op: Operation, t_size: int) -> range:
    """The time steps in the order the kernel runs them (REDIRECTIONAL: T-1 .. 0)."""
    if A.get_str(op, "direction", "UNIDIRECTIONAL") == "REDIRECTIONAL":
        return range(t_size - 1, -1, -1)
    return range(t_size)


def _rnn_state(v: np.ndarray | None, b: int, h: int) -> np.ndarray:
    return np.zeros((b, h), np.float32) if v is None else v.astype(np.float32).reshape(b, h)


def _rnn_roles(op: Operation, args: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
    assert isinstance(op, ge.RecurrentBase)
    index = {v: k for k, v in enumerate(op.operands)}
    return {name: args[index[v]] for name, v in op.roles().items()}


def dynamic_rnn(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """DynamicRNN's eight outputs y, output_h, output_c, i, j, f, o, tanhc [T, B, H]."""
    r = _rnn_roles(op, args)
    x = r["x"].astype(np.float32)
    t_size, b_size, i_size = x.shape
    w = r["w"].astype(np.float32)
    hid = w.shape[1] // 4
    xw = (x.reshape(t_size * b_size, i_size) @ w[:i_size]).reshape(t_size, b_size, 4 * hid)
    xw += r["b"].astype(np.float32)
    wh = w[i_size:]
    h, c = _rnn_state(r.get("init_h"), b_size, hid), _rnn_state(r.get("init_c"), b_size, hid)
    peep = [r[k].astype(np.float32) for k in ("wci", "wcf", "wco")] if "wci" in r else None
    seq = r.get("seq_length")
    # gate_order: where i, j, f, o sit among the four blocks
    at = (0, 1, 2, 3) if A.get_str(op, "gate_order", "ijfo") == "ijfo" else (0, 2, 1, 3)
    forget_bias = np.float32(ge.float_attr(op, "forget_bias", 0.0))
    clip = ge.float_attr(op, "cell_clip", -1.0)
    out = np.zeros((8, t_size, b_size, hid), np.float32)
    for t in _rnn_steps(op, t_size):
        g = xw[t] + h @ wh
        gi, gj, gf, go = (g[:, k * hid : (k + 1) * hid] for k in at)
        if peep is not None:
            gi, gf = gi + peep[0] * c, gf + peep[1] * c
        i, j, f = _sigmoid32(gi), np.tanh(gj), _sigmoid32(gf + forget_bias)
        c_new = f * c + i * j
        if clip > 0:
            c_new = np.minimum(c_new, np.float32(clip))
        if peep is not None:
            go = go + peep[2] * c_new
        o = _sigmoid32(go)
        y = o * np.tanh(c_new)
        h_new = y
        if seq is not None:
            m = (t < seq.astype(np.int64)).reshape(b_size, 1)
            c_new, h_new, y = np.where(m, c_new, c), np.where(m, y, h), np.where(m, y, np.float32(0))
        out[:, t] = (y, h_new, c_new, i, j, f, o, np.tanh(c_new))
        h, c = h_new, c_new
    return [a.astype(out_dtype(op, k)) for k, a in enumerate(out)]


def dynamic_gru_v2(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """DynamicGRUV2's six outputs y, output_h, update, reset, new, hidden_new [T, B, H]."""
    r = _rnn_roles(op, args)
    x = r["x"].astype(np.float32)
    t_size, b_size, i_size = x.shape
    wi, wh = r["weight_input"].astype(np.float32), r["weight_hidden"].astype(np.float32)
    bi, bh = r["bias_input"].astype(np.float32), r["bias_hidden"].astype(np.float32)
    hid = wh.shape[0]
    xw = (x.reshape(t_size * b_size, i_size) @ wi).reshape(t_size, b_size, 3 * hid) + bi
    # gate_order: where z, r, n sit among the three blocks
    zk, rk = (0, 1) if A.get_str(op, "gate_order", "zrh") == "zrh" else (1, 0)
    blocks = [slice(k * hid, (k + 1) * hid) for k in (zk, rk, 2)]
    reset_after = A.get_bool(op, "reset_after", True)
    wh_zr = wh[:, np.r_[blocks[0], blocks[1]]]
    bh_zr = bh[np.r_[blocks[0], blocks[1]]]
    wh_n, bh_n = wh[:, blocks[2]], bh[blocks[2]]
    h = _rnn_state(r.get("init_h"), b_size, hid)
    seq = r.get("seq_length")
    out = np.zeros((6, t_size, b_size, hid), np.float32)
    for t in _rnn_steps(op, t_size):
        gx = xw[t]
        if reset_after:  # one matmul for the three gates; n = tanh(ni + r * nh)
            gh = h @ wh + bh
            hz, hr, hn = (gh[:, s] for s in blocks)
            z, rr = _sigmoid32(gx[:, blocks[0]] + hz), _sigmoid32(gx[:, blocks[1]] + hr)
            n = np.tanh(gx[:, blocks[2]] + rr * hn)
        else:  # n = tanh(ni + (r * h) @ wh_n + bh_n)
            ghz = h @ wh_zr + bh_zr
            z, rr = _sigmoid32(gx[:, blocks[0]] + ghz[:, :hid]), _sigmoid32(gx[:, blocks[1]] + ghz[:, hid:])
            hn = (rr * h) @ wh_n + bh_n
            n = np.tanh(gx[:, blocks[2]] + hn)
        h_new = (h - n) * z + n
        if seq is not None:
            h_new = np.where((t < seq.astype(np.int64)).reshape(b_size, 1), h_new, h)
        out[:, t] = (h_new, h_new, z, rr, n, hn)
        h = h_new
    return [a.astype(out_dtype(op, k)) for k, a in enumerate(out)]


# ---------------------------------------------------------------------------------------
# Control flow: If, Case, While, For (their subgraphs run on this interpreter)
# ---------------------------------------------------------------------------------------


def cond_truth(arr: np.ndarray) -> bool:
    """An If's or While-cond's value as a truth value: a scalar (one element of a 0-d
    tensor) is true when non-zero; any other tensor when it is not empty.

    # runtime/v2/kernel/control_kernel/control_kernel.cc: GenIndexForIf (a non-scalar cond:
    # non-empty is true); hybrid control_op_executor.cc: ControlOpNodeTask::ToBool
    """
    if arr.ndim == 0:
        return bool(arr.reshape(-1)[0])
    return arr.size > 0


def case_branch(arr: np.ndarray, n: int) -> int:
    """A Case's branch for index tensor `arr` among `n` branches: an index below 0 or from
    `n` on takes the last branch.

    # control_kernel.cc: GenIndexForCase; control_op_executor.cc: CaseOpNodeTask::DoExecuteAsync
    """
    flat = arr.reshape(-1)
    k = int(flat[0]) if flat.size else -1
    return k if 0 <= k < n else n - 1


def for_trip_count(start: int, limit: int, delta: int) -> int | None:
    """How many times a For runs its body, as GE's ForPass makes it loop: while
    i * |delta| < |limit - start| (so a delta of the wrong sign still runs, unlike Python's
    range); None when it never stops (delta 0 with limit != start).

    # for_pass.cc: ForPass::CreateLoopInput (|delta|, |limit - start|), BuildCondGraph (Mul, Less)
    """
    span, step = abs(limit - start), abs(delta)
    if span == 0:
        return 0
    if step == 0:
        return None
    return -(-span // step)


def _iteration_cap(interpreter: GeInterpreter, op: Operation, n: int) -> None:
    if n >= interpreter.while_cap:
        raise ReferenceEvalError(
            op,
            f"{ge.ge_type(op)} '{ge.node_name(op)}' ran {interpreter.while_cap} iterations and its cond is still "
            f"true: the interpreter's iteration cap (WHILE_ITERATION_CAP = {interpreter.while_cap})",
        )


def _run_if(interpreter: GeInterpreter, op: ge.IfBase, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # control_op_executor.cc: IfOpNodeTask::DoExecuteAsync (then_branch is subgraph 0)
    branch = op.subgraph(0 if cond_truth(np.asarray(args[0])) else 1)
    return interpreter.call_graph(op, branch, args[1:])


def _run_case(interpreter: GeInterpreter, op: ge.CaseBase, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    branch = op.subgraph(case_branch(np.asarray(args[0]), len(op.subgraph_refs())))
    return interpreter.call_graph(op, branch, args[1:])


def _run_while(interpreter: GeInterpreter, op: ge.WhileBase, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    # control_op_executor.cc: WhileOpNodeTask::DoExecuteAsync / ExecuteCond / ExecuteOneLoop:
    # run cond, ToBool, run body, feed its outputs back as the inputs
    cond, body = op.subgraph(0), op.subgraph(1)
    values = [np.asarray(a) for a in args]
    n = 0
    while True:
        (c,) = interpreter.call_graph(op, cond, values)
        if not cond_truth(c):
            return values
        _iteration_cap(interpreter, op, n)
        values = interpreter.call_graph(op, body, values)
        n += 1


def _run_for(interpreter: GeInterpreter, op: ge.For, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    start, limit, delta = (int(a.reshape(-1)[0]) for a in args[:3])
    trips = for_trip_count(start, limit, delta)
    body = op.subgraph(0)
    values = [np.asarray(a) for a in args[3:]]
    i32 = np.dtype(np.int32)
    k = 0
    while trips is None or k < trips:
        _iteration_cap(interpreter, op, k)
        # for_pass.cc: BuildBodyGraph: the loop variable is start + i * delta
        var = np.asarray(start + k * delta, dtype=np.int64).astype(i32)
        values = interpreter.call_graph(op, body, [var, *values])
        k += 1
    return values


def _control_impl(
    op_type: type[Operation], run: Callable[[GeInterpreter, Any, Sequence[np.ndarray]], list[np.ndarray]]
) -> OpImpl[Any, Operation]:
    """`run(interpreter, op, inputs)` as the `@impl` of a control op (it needs the
    interpreter to call its subgraphs, which node_impl's functions do not get)."""

    def impl_fn(
        self: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        assert isinstance(interpreter, GeInterpreter)
        return tuple(run(interpreter, op, args))

    impl_fn.__name__ = f"run_{op_type.__name__}"
    return impl(op_type)(impl_fn)


# ---------------------------------------------------------------------------------------
# The interpreter functions: one @impl per ge op class
# ---------------------------------------------------------------------------------------


# -- More ops of ONNX models (docs/onnx_ops.md): bit operations, Cumsum, HardMax, the scatters,
#    GatherNd, DepthToSpace, SpaceToDepth ---------------------------------------------------


def _shift(left: bool) -> Impl:
    """LeftShift / RightShift: x shifted by y bits; a shift of the width or more gives 0
    (a right shift of a negative signed x: -1), as the elementwise shift kernels saturate
    rather than take C's undefined result."""

    def semantics(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, y = np.broadcast_arrays(args[0], args[1])
        bits = x.dtype.itemsize * 8
        if y.dtype.kind == "i" and (y < 0).any():
            raise ReferenceEvalError(op, f"{ge.ge_type(op)} of a negative shift {int(y.min())}")
        big = y.astype(np.uint64) >= bits
        s = np.where(big, 0, y).astype(x.dtype)
        r = np.left_shift(x, s) if left else np.right_shift(x, s)
        over = np.zeros((), x.dtype) if left or x.dtype.kind == "u" else np.where(x < 0, -1, 0).astype(x.dtype)
        return [np.where(big, over, r).astype(x.dtype)]

    return semantics


def _cumsum(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Cumsum: the running sum along the axis (floats accumulate f16/bf16 in float32, as
    the reductions do), `reverse` from the end, `exclusive` without the element itself."""
    x = args[0]
    if args[1].size != 1:
        raise ReferenceEvalError(op, f"axis must hold one value, got {args[1].size}")
    axis = _norm_axis(op, int(args[1].reshape(-1)[0]), x.ndim, "axis")
    acc = upcast([x])[0]
    if A.get_bool(op, "reverse"):
        acc = np.flip(acc, axis)
    s = np.cumsum(acc, axis=axis, dtype=acc.dtype)
    if A.get_bool(op, "exclusive") and s.shape[axis]:  # each sum moves one place on, a 0 first
        head = [slice(None)] * s.ndim
        head[axis] = slice(0, -1)
        first = list(s.shape)
        first[axis] = 1
        s = np.concatenate([np.zeros(first, s.dtype), s[tuple(head)]], axis=axis)
    if A.get_bool(op, "reverse"):
        s = np.flip(s, axis)
    return [np.ascontiguousarray(s).astype(out_dtype(op))]


def _grid_reflect(v: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """`v` reflected by the nearer border until within [lo, hi] (PyTorch's
    reflect_coordinates; ONNX's reference _gs_reflect)."""
    rng = hi - lo
    v = v.astype(np.float64)
    below, above = lo - v, v - hi
    n_b, n_a = np.floor(below / rng), np.floor(above / rng)
    r_b, r_a = below - n_b * rng, above - n_a * rng
    out = np.where(v < lo, np.where(n_b % 2 == 0, lo + r_b, hi - r_b), v)
    return np.where(v > hi, np.where(n_a % 2 == 0, hi - r_a, lo + r_a), out)


def _grid_cubic(t: np.ndarray) -> list[np.ndarray]:
    """The cubic convolution weights (A = -0.75) of taps -1, 0, 1, 2 for fraction t."""
    a = -0.75
    t = t.astype(np.float64)
    d = [t + 1, t, 1 - t, 2 - t]
    return [(((a * e - 5 * a) * e + 8 * a) * e - 4 * a) if k in (0, 3) else (((a + 2) * e - (a + 3)) * e * e + 1) for k, e in enumerate(d)]  # fmt: skip


def grid_sample(op: Operation, x: np.ndarray, grid: np.ndarray, absolute: bool = False) -> np.ndarray:
    """GridSampler2D / GridSampler3D (PyTorch's grid_sampler, ONNX's GridSample) of x [N,
    C, *in] at grid [N, *out, r], in float64: each grid position denormalized per axis
    (align_corners: (g + 1) / 2 * (d - 1), else ((g + 1) * d - 1) / 2, in float32; the
    grid's last axis lists W first), rounded for nearest (half to even, as onnxruntime
    and ONNX's data: PyTorch's 3-D rounds half away from zero), moved inside by border (clamp) or reflection padding when outside
    [-0.5, d - 0.5] ([0, d - 1] aligned); then the taps (nearest 1, bilinear 2, bicubic 4
    of A = -0.75 per axis), a tap outside the input 0 (zeros) or its clamped / reflected
    pixel. `absolute`: with |weights| (runtime/error_bound.py)."""
    mode = A.get_str(op, "interpolation_mode") or "bilinear"
    pad = A.get_str(op, "padding_mode") or "zeros"
    align = A.get_bool(op, "align_corners")
    r = grid.shape[-1]
    dims = x.shape[2:]
    g = grid.astype(np.float32)
    taps: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for k, d in enumerate(dims):
        n = g[..., r - 1 - k]
        if align:
            c = (n + np.float32(1)) / np.float32(2) * np.float32(d - 1)
        else:
            c = ((n + np.float32(1)) * np.float32(d) - np.float32(1)) / np.float32(2)
        if mode == "nearest":
            c = np.rint(c)
        lo, hi = (0.0, d - 1.0) if align else (-0.5, d - 0.5)
        if pad == "border":
            c = np.where((c < lo) | (c > hi), np.clip(c, 0, d - 1), c)
        elif pad == "reflection":
            c = np.where((c < lo) | (c > hi), _grid_reflect(c, lo, hi), c).astype(np.float32)
        f = np.floor(c)
        if mode == "nearest":
            axis_taps = [(c.astype(np.int64), np.ones(c.shape))]
        elif mode == "bilinear":
            t = (c - f).astype(np.float64)
            axis_taps = [(f.astype(np.int64), 1 - t), (f.astype(np.int64) + 1, t)]
        else:
            w = _grid_cubic(c - f)
            axis_taps = [(f.astype(np.int64) + j, w[j + 1]) for j in range(-1, 3)]
        padded = []
        for i, w in axis_taps:
            if pad == "zeros":
                w = np.where((i >= 0) & (i < d), w, 0.0)
            elif pad == "reflection":
                i = _grid_reflect(i, lo, hi).astype(np.int64)
            padded.append((np.clip(i, 0, d - 1), np.abs(w) if absolute else w))
        taps.append(padded)
    xt = np.moveaxis(x.astype(np.float64), 1, -1)  # [N, *in, C]
    batch = np.arange(x.shape[0]).reshape((-1,) + (1,) * (g.ndim - 2))
    out = np.zeros((*g.shape[:-1], x.shape[1]))
    for combo in itertools.product(*taps):
        w = np.prod([c[1] for c in combo], axis=0)
        out += w[..., None] * xt[(batch, *(c[0] for c in combo))]
    return np.moveaxis(out, -1, 1)


def _grid_sampler(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x, grid = args
    if x.shape[0] != grid.shape[0]:
        raise ReferenceEvalError(op, f"x and grid have batch {x.shape[0]} and {grid.shape[0]}")
    return [np.ascontiguousarray(grid_sample(op, x, grid)).astype(out_dtype(op))]


def _hard_max(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """HardMax: 1 at the first largest value along the axis, 0 elsewhere."""
    x = args[0]
    axis = _norm_axis(op, A.get_int(op, "axis", -1), x.ndim, "axis")
    y = np.zeros(x.shape, out_dtype(op))
    if x.size:
        np.put_along_axis(y, np.expand_dims(np.argmax(upcast([x])[0], axis=axis), axis), 1, axis=axis)
    return [y]


def _checked_indices(op: Operation, idx: np.ndarray, dim: int | np.ndarray) -> np.ndarray:
    try:
        if isinstance(dim, np.ndarray):
            return _nd_checked(idx, dim)
        return gather_indices(idx, dim, False)
    except IndexError as e:
        raise ReferenceEvalError(op, str(e)) from None


def _nd_checked(idx: np.ndarray, dims: np.ndarray) -> np.ndarray:
    """N-d indices (last axis: one index per leading dim of x), each in [0, dims[j])."""
    for j, d in enumerate(dims.tolist()):
        gather_indices(idx[..., j], int(d), False)
    return idx.astype(np.int64)


_UFUNCS: dict[str, np.ufunc] = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


def _scatter_elements(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """ScatterElements: data with updates written (or combined, in index order) at the
    positions indices name along the axis."""
    data, idx, upd = args
    axis = _norm_axis(op, A.get_int(op, "axis", 0), data.ndim, "axis")
    i = _checked_indices(op, idx, data.shape[axis])
    pos: list[np.ndarray] = list(np.indices(idx.shape, sparse=True))
    pos[axis] = i
    out = np.array(data, copy=True)
    r = A.get_str(op, "reduction", "none") or "none"
    if r == "none":
        out[tuple(pos)] = upd
    else:
        _UFUNCS[r].at(out, tuple(np.broadcast_arrays(*pos)), upd)
    return [out]


def _nd_positions(op: Operation, x: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, ...]:
    k = idx.shape[-1]
    if k > x.ndim:
        raise ReferenceEvalError(op, f"indices' last dim {k} exceeds x's rank {x.ndim}")
    i = _checked_indices(op, idx, np.asarray(x.shape[:k]))
    return tuple(i.reshape(-1, k).T)


def _gather_nd(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """GatherNd: the slices of x at the index tuples of indices' last axis."""
    x, idx = args
    k = idx.shape[-1]
    y = x[_nd_positions(op, x, idx)]
    return [np.ascontiguousarray(y.reshape(idx.shape[:-1] + x.shape[k:]))]


def _tensor_scatter(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    """TensorScatterUpdate / Add / Max / Min: x with the slices at indices' index tuples
    replaced by (or combined in index order with) updates."""
    assert isinstance(op, ge.TensorScatterBase)
    x, idx, upd = args
    k = idx.shape[-1]
    pos = _nd_positions(op, x, idx)
    u = upd.reshape((-1,) + x.shape[k:])
    out = np.array(x, copy=True)
    if op.REDUCTION == "none":
        out[pos] = u
    else:
        _UFUNCS[op.REDUCTION].at(out, pos, u)
    return [out]


def _depth_to_space(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    b = A.get_int(op, "block_size", 2)
    n, c, h, w = x.shape
    if (A.get_str(op, "mode", "DCR") or "DCR") == "DCR":
        t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return [np.ascontiguousarray(t.reshape(n, c // (b * b), h * b, w * b))]


def _space_to_depth(op: Operation, args: Sequence[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    b = A.get_int(op, "block_size", 2)
    n, c, h, w = x.shape
    t = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return [np.ascontiguousarray(t.reshape(n, c * b * b, h // b, w // b))]


@register_impls
class ReferenceFunctions(InterpreterFunctions):
    """The reference semantics of every ge op class but ge.AscBackend (runtime/ascgraph_interp.py's
    AscGraphFunctions): each entry is an `@impl` of one class, most of them a function
    above applied to the node and its input arrays."""

    # Data, constants, calls, fused kernels
    run_data = node_impl(ge.Data, _bound_by_block)
    run_ref_data = node_impl(ge.RefData, _bound_by_block)
    run_const = node_impl(ge.Const, _const)
    run_constant = node_impl(ge.Constant, _const)
    run_variable = node_impl(ge.Variable, _variable)

    @impl_terminator(ge.NetOutput)
    def run_net_output(
        self, interpreter: Interpreter, op: ge.NetOutput, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        # the graph's results (GeInterpreter.run_block returns them without running this)
        return ReturnedValues(args), ()

    @impl(ge.PartitionedCall)
    def run_partitioned_call(
        self, interpreter: Interpreter, op: ge.PartitionedCall, args: PythonValues
    ) -> PythonValues:
        assert isinstance(interpreter, GeInterpreter)
        return tuple(interpreter.call_graph(op, op.callee(), args))

    # Control flow: If, Case, While, For and their stateless forms (they call subgraphs)
    run_if = _control_impl(ge.If, lambda it, op, args: _run_if(it, op, args))
    run_stateless_if = _control_impl(ge.StatelessIf, lambda it, op, args: _run_if(it, op, args))
    run_case = _control_impl(ge.Case, lambda it, op, args: _run_case(it, op, args))
    run_stateless_case = _control_impl(ge.StatelessCase, lambda it, op, args: _run_case(it, op, args))
    run_while = _control_impl(ge.While, lambda it, op, args: _run_while(it, op, args))
    run_stateless_while = _control_impl(ge.StatelessWhile, lambda it, op, args: _run_while(it, op, args))
    run_for = _control_impl(ge.For, lambda it, op, args: _run_for(it, op, args))

    @impl(ge.FusedAscBackend)
    def run_fused_asc_backend(
        self, interpreter: Interpreter, op: ge.FusedAscBackend, args: PythonValues
    ) -> PythonValues:
        # Its body is a ge graph body of AscBackends (Data by parent input index, NetOutput).
        assert isinstance(interpreter, GeInterpreter)
        return tuple(interpreter.run_block(op.regions[0].block, args, op, "FusedAscBackend body"))

    # Pointwise
    run_add = node_impl(ge.Add, _pointwise(np.add))
    run_sub = node_impl(ge.Sub, _pointwise(np.subtract))
    run_mul = node_impl(ge.Mul, _pointwise(np.multiply))
    run_real_div = node_impl(ge.RealDiv, _pointwise(np.true_divide, float_only=True))
    run_div = node_impl(ge.Div, _div)
    run_maximum = node_impl(ge.Maximum, _pointwise(np.maximum))
    run_minimum = node_impl(ge.Minimum, _pointwise(np.minimum))
    run_pow = node_impl(ge.Pow, _pointwise(np.power))
    run_relu = node_impl(ge.Relu, _pointwise(lambda x: np.maximum(x, np.zeros((), x.dtype))))
    run_abs = node_impl(ge.Abs, _pointwise(np.abs))
    run_neg = node_impl(ge.Neg, _pointwise(np.negative))
    run_exp = node_impl(ge.Exp, _pointwise(np.exp, float_only=True))
    run_log = node_impl(ge.Log, _pointwise(np.log, float_only=True))
    run_sqrt = node_impl(ge.Sqrt, _pointwise(np.sqrt, float_only=True))
    run_rsqrt = node_impl(ge.Rsqrt, _pointwise(lambda x: np.ones((), x.dtype) / np.sqrt(x), float_only=True))
    run_sigmoid = node_impl(
        ge.Sigmoid, _pointwise(lambda x: np.ones((), x.dtype) / (np.ones((), x.dtype) + np.exp(-x)), float_only=True)
    )
    run_tanh = node_impl(ge.Tanh, _pointwise(np.tanh, float_only=True))
    run_square = node_impl(ge.Square, _pointwise(lambda x: x * x))
    run_reciprocal = node_impl(ge.Reciprocal, _pointwise(lambda x: np.ones((), x.dtype) / x, float_only=True))
    run_identity = node_impl(ge.Identity, _pointwise(lambda x: x))
    run_cast = node_impl(ge.Cast, _cast)
    run_add_n = node_impl(ge.AddN, _add_n)

    # Activations, rounding, comparisons, logic, selection (runtime/activations.py)
    run_erf = node_impl(ge.Erf, _pointwise(AF.erf, float_only=True))
    run_gelu = node_impl(ge.Gelu, _pointwise(AF.gelu, float_only=True))
    run_hard_swish = node_impl(ge.HardSwish, _pointwise(AF.hard_swish, float_only=True))
    run_hard_sigmoid = node_impl(ge.HardSigmoid, _with_attrs(AF.hard_sigmoid, "alpha", "beta"))
    run_leaky_relu = node_impl(ge.LeakyRelu, _with_attrs(AF.leaky_relu, "negative_slope"))
    run_relu6 = node_impl(ge.Relu6, _pointwise(AF.relu6))
    run_elu = node_impl(ge.Elu, _with_attrs(AF.elu, "alpha"))
    run_selu = node_impl(ge.Selu, _pointwise(AF.selu))
    run_celu = node_impl(ge.Celu, _with_attrs(AF.celu, "alpha1", "alpha2"))
    run_softplus = node_impl(ge.Softplus, _pointwise(AF.softplus, float_only=True))
    run_softsign = node_impl(ge.Softsign, _pointwise(AF.softsign, float_only=True))
    run_mish = node_impl(ge.Mish, _pointwise(AF.mish, float_only=True))
    run_floor = node_impl(ge.Floor, _pointwise(np.floor, float_only=True))
    run_ceil = node_impl(ge.Ceil, _pointwise(np.ceil, float_only=True))
    run_round = node_impl(ge.Round, _pointwise(AF.round_half_even))
    run_sign = node_impl(ge.Sign, _pointwise(np.sign))
    run_sin = node_impl(ge.Sin, _pointwise(np.sin, float_only=True))
    run_cos = node_impl(ge.Cos, _pointwise(np.cos, float_only=True))
    run_is_nan = node_impl(ge.IsNan, _pointwise(np.isnan, float_only=True))
    run_is_inf = node_impl(ge.IsInf, _pointwise(np.isinf, float_only=True))
    run_mod = node_impl(ge.Mod, _remainder(AF.mod))
    run_floor_mod = node_impl(ge.FloorMod, _remainder(AF.floor_mod))
    run_equal = node_impl(ge.Equal, _pointwise(np.equal))
    run_not_equal = node_impl(ge.NotEqual, _pointwise(np.not_equal))
    run_less = node_impl(ge.Less, _pointwise(np.less))
    run_less_equal = node_impl(ge.LessEqual, _pointwise(np.less_equal))
    run_greater = node_impl(ge.Greater, _pointwise(np.greater))
    run_greater_equal = node_impl(ge.GreaterEqual, _pointwise(np.greater_equal))
    run_logical_and = node_impl(ge.LogicalAnd, _pointwise(np.logical_and))
    run_logical_or = node_impl(ge.LogicalOr, _pointwise(np.logical_or))
    run_logical_not = node_impl(ge.LogicalNot, _pointwise(np.logical_not))
    run_select_v2 = node_impl(ge.SelectV2, _select_v2)
    run_clip_by_value = node_impl(ge.ClipByValue, _clip_by_value)
    run_softmax_v2 = node_impl(ge.SoftmaxV2, _softmax_kind(AF.softmax))
    run_log_softmax_v2 = node_impl(ge.LogSoftmaxV2, _softmax_kind(AF.log_softmax))
    run_layer_norm = node_impl(ge.LayerNorm, _layer_norm)

    # Reductions
    run_reduce_sum = node_impl(ge.ReduceSumD, _reduction("sum"))
    run_reduce_prod = node_impl(ge.ReduceProdD, _reduction("prod"))
    run_reduce_max = node_impl(ge.ReduceMaxD, _reduction("max"))
    run_reduce_min = node_impl(ge.ReduceMinD, _reduction("min"))
    run_reduce_mean = node_impl(ge.ReduceMeanD, _reduction("mean"))

    # Concat, Pack, Split, PhonyConcat, PhonySplit
    run_concat = node_impl(ge.ConcatD, _concat)
    run_concat_v2 = node_impl(ge.ConcatV2D, _concat)
    run_pack = node_impl(ge.Pack, _pack)
    run_split = node_impl(ge.SplitD, _split)
    run_split_v = node_impl(ge.SplitVD, _split)
    run_phony_concat = node_impl(ge.PhonyConcat, _phony_concat)
    run_phony_split = node_impl(ge.PhonySplit, _phony_split)

    # The reshape family, Bitcast, TransposeD, BroadcastToD, Shape
    run_reshape = node_impl(ge.Reshape, _reshape)
    run_squeeze = node_impl(ge.Squeeze, _reshape)
    run_unsqueeze = node_impl(ge.Unsqueeze, _reshape)
    run_expand_dims = node_impl(ge.ExpandDims, _reshape)
    run_flatten = node_impl(ge.Flatten, _reshape)
    run_flatten_v2 = node_impl(ge.FlattenV2, _reshape)
    run_reformat = node_impl(ge.ReFormat, _reshape)
    run_squeeze_v2 = node_impl(ge.SqueezeV2, _reshape)
    run_squeeze_v3 = node_impl(ge.SqueezeV3, _squeeze_unsqueeze_v3)
    run_unsqueeze_v2 = node_impl(ge.UnsqueezeV2, _reshape)
    run_unsqueeze_v3 = node_impl(ge.UnsqueezeV3, _squeeze_unsqueeze_v3)
    run_bitcast = node_impl(ge.Bitcast, _bitcast)
    run_transpose = node_impl(ge.TransposeD, _transpose)
    run_broadcast_to = node_impl(ge.BroadcastToD, _broadcast_to)
    run_shape = node_impl(ge.Shape, _shape)

    # Gather, MatMul, Conv2D, HcomAllGather
    run_gather = node_impl(ge.Gather, _gather)
    run_gather_v2 = node_impl(ge.GatherV2, _gather)
    run_matmul = node_impl(ge.MatMul, _matmul)
    run_conv2d = node_impl(ge.Conv2D, _conv2d)
    run_all_gather = node_impl(ge.HcomAllGather, _all_gather)

    # BatchNorm, pooling, PadV3, StridedSliceV2, Tile, BatchMatMulV2, ArgMaxV2, ArgMin,
    # GatherElements, Tril, Triu, the resizes, Conv2DTranspose
    run_batch_norm = node_impl(ge.BatchNorm, _batch_norm)
    run_max_pool_v3 = node_impl(ge.MaxPoolV3, _pool("max"))
    run_avg_pool_v2 = node_impl(ge.AvgPoolV2, _pool("avg"))
    run_max_pool = node_impl(ge.MaxPool, _pool("max"))
    run_avg_pool = node_impl(ge.AvgPool, _pool("avg"))
    run_pad_v3 = node_impl(ge.PadV3, _pad_v3)
    run_strided_slice_v2 = node_impl(ge.StridedSliceV2, _strided_slice_v2)
    run_tile = node_impl(ge.Tile, _tile)
    run_batch_matmul_v2 = node_impl(ge.BatchMatMulV2, _batch_matmul_v2)
    run_arg_max_v2 = node_impl(ge.ArgMaxV2, _arg("max"))
    run_arg_min = node_impl(ge.ArgMin, _arg("min"))
    run_gather_elements = node_impl(ge.GatherElements, _gather_elements)
    run_tril = node_impl(ge.Tril, _tri(False))
    run_triu = node_impl(ge.Triu, _tri(True))
    run_resize_nearest = node_impl(ge.ResizeNearestNeighborV2, _resize)
    run_resize_bilinear = node_impl(ge.ResizeBilinearV2, _resize)
    run_resize = node_impl(ge.Resize, _resize_onnx)
    run_conv2d_transpose = node_impl(ge.Conv2DTranspose, _conv2d_transpose)
    # Recurrent ops
    run_dynamic_rnn = node_impl(ge.DynamicRNN, dynamic_rnn)
    run_dynamic_gru_v2 = node_impl(ge.DynamicGRUV2, dynamic_gru_v2)
    # The input forms (ConstToAttrPass makes D forms of them once their inputs are Consts)
    run_expand = node_impl(ge.Expand, _expand)
    run_reduce_sum_axes = node_impl(ge.ReduceSum, _reduction_axes("sum"))
    run_reduce_max_axes = node_impl(ge.ReduceMax, _reduction_axes("max"))
    run_reduce_min_axes = node_impl(ge.ReduceMin, _reduction_axes("min"))
    run_reduce_mean_axes = node_impl(ge.ReduceMean, _reduction_axes("mean"))
    run_reduce_prod_axes = node_impl(ge.ReduceProd, _reduction_axes("prod"))
    run_split_v_input = node_impl(ge.SplitV, _split_v)
    # Graph preparation (GE removes Dropout in inference, StopGradient, PreventGradient and
    # Snapshot, io_map 0 -> 0: each is its input; it folds Size, Rank, Fill, Range)
    run_dropout = node_impl(ge.Dropout, _pointwise(lambda x: x))
    run_stop_gradient = node_impl(ge.StopGradient, _pointwise(lambda x: x))
    run_prevent_gradient = node_impl(ge.PreventGradient, _pointwise(lambda x: x))
    run_snapshot = node_impl(ge.Snapshot, _pointwise(lambda x: x))
    run_size = node_impl(ge.Size, _size)
    run_rank = node_impl(ge.Rank, _rank)
    run_fill = node_impl(ge.Fill, _fill)
    run_range = node_impl(ge.Range, _range)
    # More ops of ONNX models: bit operations, Cumsum, HardMax, the scatters, GatherNd,
    # DepthToSpace, SpaceToDepth
    run_bitwise_and = node_impl(ge.BitwiseAnd, _pointwise(np.bitwise_and))
    run_bitwise_or = node_impl(ge.BitwiseOr, _pointwise(np.bitwise_or))
    run_bitwise_xor = node_impl(ge.BitwiseXor, _pointwise(np.bitwise_xor))
    run_invert = node_impl(ge.Invert, _pointwise(np.invert))
    run_left_shift = node_impl(ge.LeftShift, _shift(True))
    run_right_shift = node_impl(ge.RightShift, _shift(False))
    run_cumsum = node_impl(ge.Cumsum, _cumsum)
    run_hard_max = node_impl(ge.HardMax, _hard_max)
    run_grid_sampler_2d = node_impl(ge.GridSampler2D, _grid_sampler)
    run_grid_sampler_3d = node_impl(ge.GridSampler3D, _grid_sampler)
    run_scatter_elements = node_impl(ge.ScatterElements, _scatter_elements)
    run_gather_nd = node_impl(ge.GatherNd, _gather_nd)
    run_tensor_scatter_update = node_impl(ge.TensorScatterUpdate, _tensor_scatter)
    run_tensor_scatter_add = node_impl(ge.TensorScatterAdd, _tensor_scatter)
    run_tensor_scatter_max = node_impl(ge.TensorScatterMax, _tensor_scatter)
    run_tensor_scatter_min = node_impl(ge.TensorScatterMin, _tensor_scatter)
    run_depth_to_space = node_impl(ge.DepthToSpace, _depth_to_space)
    run_space_to_depth = node_impl(ge.SpaceToDepth, _space_to_depth)
    run_acos = node_impl(ge.Acos, _pointwise(np.arccos, float_only=True))
    run_acosh = node_impl(ge.Acosh, _pointwise(np.arccosh, float_only=True))
    run_asin = node_impl(ge.Asin, _pointwise(np.arcsin, float_only=True))
    run_asinh = node_impl(ge.Asinh, _pointwise(np.arcsinh, float_only=True))
    run_atan = node_impl(ge.Atan, _pointwise(np.arctan, float_only=True))
    run_atanh = node_impl(ge.Atanh, _pointwise(np.arctanh, float_only=True))
    run_cosh = node_impl(ge.Cosh, _pointwise(np.cosh, float_only=True))
    run_sinh = node_impl(ge.Sinh, _pointwise(np.sinh, float_only=True))
    run_tan = node_impl(ge.Tan, _pointwise(np.tan, float_only=True))
