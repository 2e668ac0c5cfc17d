"""The reference interpreter of the ge dialect: numpy on value semantics.

`run_graph(graph, inputs)` executes one `ge.graph` and returns its NetOutput values;
`run_module(module, inputs, graph_name=None)` picks the root graph (the one no
`ge.PartitionedCall` calls) unless a name is given. Each node's meaning is GE's meaning of
its op type (the op protos in GE's `ops/built-in/op_proto/inc/*.h`, which follow the
TensorFlow/ONNX operators they name); memory layout plays no part here: a `_no_task` node
means the same as the node it replaces. The simulator of NPU programs is checked against
these numbers.

Semantics are a registry: `@reference_impl(OpClass, ...)` maps an op class to a function
`(op, input arrays) -> output arrays`. It is also the extension point: the AscGraph
interpreter (`runtime/ascgraph_interp.py`) registers `ge.AscBackend` with `replace=True`;
the entry here imports it on first use.

Rules the whole interpreter keeps:

* the block is walked once, in order; values live in a dict value -> array;
* every output array has exactly the output type's shape (`?` dims match anything) and
  the type's numpy dtype (`ge_dialect.dtypes.numpy_dtype`; bf16 and the float8 types are
  ml_dtypes' dtypes, GE's bytes); a mismatch is an internal error, reported as such;
* pointwise ops compute in the inputs' numpy dtype (f16 stays f16) and are cast to the
  output dtype, except bf16 and float8 inputs: those are cast up to float32, the op
  computes in float32 and its result is rounded once to the output dtype (to nearest,
  ties to even), as GE's AscGraph kernels compute bf16 in float32
  (adaption_improve_precision.cpp: FromDtypeToOtherDtype(node, DT_BF16, DT_FLOAT));
  MatMul, Conv2D and float reductions accumulate f16, bf16 and float8 in float32 (as the
  Cube unit and the Vector reduce kernels do) and cast the result;
* every failure is a `ReferenceEvalError`, a `LocatedError` naming the op.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import dtype_bits, is_float_dtype, numpy_dtype
from ge_dialect.shapes import fmt_shape, normalize_axis
from runtime.numerics import acc_dtype, c_div, reduce, upcast

__all__ = [
    "ReferenceEvalError",
    "has_reference_impl",
    "reference_impl",
    "reference_impl_of",
    "root_graphs",
    "run_graph",
    "run_module",
]

Impl = Callable[[Operation, list[np.ndarray]], list[np.ndarray]]


class ReferenceEvalError(LocatedError):
    """The reference interpreter cannot evaluate `op`: bad inputs, an op without reference
    semantics, or values the op is not defined for (e.g. integer division by zero)."""


_IMPLS: dict[type[Operation], Impl] = {}


def reference_impl(*op_classes: type[Operation], replace: bool = False) -> Callable[[Impl], Impl]:
    """Register `fn(op, inputs) -> outputs` as the reference semantics of `op_classes`.

    A class may be registered once; `replace=True` overrides an existing entry (the
    AscGraph interpreter does this for `ge.AscBackend`).
    """

    def register(fn: Impl) -> Impl:
        for cls in op_classes:
            if cls in _IMPLS and not replace:
                raise ValueError(f"{cls.name} already has a reference implementation")
            _IMPLS[cls] = fn
        return fn

    return register


def has_reference_impl(op_class: type[Operation]) -> bool:
    return op_class in _IMPLS


def reference_impl_of(op_class: type[Operation]) -> Impl | None:
    """The registered semantics of `op_class` (the simulator runs library kernels with it)."""
    return _IMPLS.get(op_class)


# ---------------------------------------------------------------------------------------
# Types and checks
# ---------------------------------------------------------------------------------------


def out_dtype(op: Operation, i: int = 0) -> np.dtype:
    return numpy_dtype(op.results[i].type.element_type)  # type: ignore[attr-defined]


def _shape_matches(want: tuple[int, ...] | None, got: tuple[int, ...]) -> bool:
    if want is None:
        return True
    return len(want) == len(got) and all(w < 0 or w == g for w, g in zip(want, got))


def check_value(op: Operation, value: SSAValue, arr: np.ndarray, what: str) -> None:
    """An array given for `value` (a graph input) must have its shape and numpy dtype."""
    want_dt = numpy_dtype(value.type.element_type)  # type: ignore[attr-defined]
    want_shape = shape_of(value.type)
    if not _shape_matches(want_shape, arr.shape) or arr.dtype != want_dt:
        raise ReferenceEvalError(
            op,
            f"{what} is an array of shape {fmt_shape(arr.shape)} and dtype {arr.dtype}, but the "
            f"graph expects {value.type} (numpy dtype {want_dt})",
        )


def _check_outputs(op: Operation, outs: Sequence[np.ndarray]) -> None:
    """Internal invariant: outputs have the result types' shapes and numpy dtypes."""
    if len(outs) != len(op.results):
        raise ReferenceEvalError(
            op, f"internal error in the reference interpreter: {len(outs)} outputs for {len(op.results)} results"
        )
    for i, (r, a) in enumerate(zip(op.results, outs)):
        want_dt = numpy_dtype(r.type.element_type)  # type: ignore[attr-defined]
        if not isinstance(a, np.ndarray) or a.dtype != want_dt or not _shape_matches(shape_of(r.type), a.shape):
            got = f"shape {fmt_shape(a.shape)} dtype {a.dtype}" if isinstance(a, np.ndarray) else type(a).__name__
            raise ReferenceEvalError(
                op,
                f"internal error in the reference interpreter: output {i} is {got}, but the "
                f"type is {r.type} (numpy dtype {want_dt})",
            )


def _target_shape(op: Operation, i: int, size: int) -> tuple[int, ...]:
    """The output type's shape; one unknown dim is derived from the element count."""
    t = op.results[i].type
    s = shape_of(t)
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
# Interpreting blocks, graphs, modules
# ---------------------------------------------------------------------------------------


def _run_block(
    block: Block, inputs: Sequence[np.ndarray], owner: Operation, what: str, stack: tuple[str, ...]
) -> list[np.ndarray]:
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
        impl = _IMPLS.get(type(op))
        if impl is None:
            raise ReferenceEvalError(op, f"{op.name} has no reference semantics")
        args = [env[v] for v in op.operands]
        # A call passes the call stack on (recursion check); other nodes go through the registry.
        outs = _call(op, args, stack) if isinstance(op, ge.PartitionedCall) else impl(op, args)
        _check_outputs(op, outs)
        env.update(zip(op.results, outs))
    raise ReferenceEvalError(owner, f"{what} does not end with ge.NetOutput")


def run_graph(graph: ge.GraphOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Evaluate `graph` on `inputs` (in ge.Data index order); returns NetOutput's values."""
    return _run_graph(graph, inputs, ())


def _run_graph(graph: ge.GraphOp, inputs: Sequence[np.ndarray], stack: tuple[str, ...]) -> list[np.ndarray]:
    name = graph.sym_name.data
    with np.errstate(all="ignore"):  # IEEE results (inf, nan) are values, not warnings
        return _run_block(graph.body.block, inputs, graph, f"graph @{name}", (*stack, name))


def _call(op: ge.PartitionedCall, args: list[np.ndarray], stack: tuple[str, ...]) -> list[np.ndarray]:
    callee = op.callee()
    if callee.sym_name.data in stack:
        chain = " -> ".join(f"@{s}" for s in (*stack, callee.sym_name.data))
        raise ReferenceEvalError(op, f"recursive subgraph call {chain}")
    return _run_graph(callee, args, stack)


def root_graphs(module: ModuleOp) -> list[ge.GraphOp]:
    """The graphs of `module` no ge.PartitionedCall calls, in module order."""
    graphs = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    called: set[str] = set()
    for op in module.walk():
        if isinstance(op, ge.PartitionedCall):
            f = op.attributes.get("f")
            if isinstance(f, SymbolRefAttr):
                called.add(f.root_reference.data)
    return [g for g in graphs if g.sym_name.data not in called]


def run_module(module: ModuleOp, inputs: Sequence[np.ndarray], graph_name: str | None = None) -> list[np.ndarray]:
    """Evaluate graph `graph_name`, or else the module's only root graph."""
    return run_graph(select_graph(module, graph_name), inputs)


def select_graph(module: ModuleOp, graph_name: str | None = None) -> ge.GraphOp:
    """Graph `graph_name`, or the only root graph; ReferenceEvalError when there is none or
    several (located at the module's first graph: the module itself has no location)."""
    graphs = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    where: Operation = graphs[0] if graphs else module
    if graph_name is not None:
        for g in graphs:
            if g.sym_name.data == graph_name:
                return g
        names = ", ".join(f"@{g.sym_name.data}" for g in graphs) or "none"
        raise ReferenceEvalError(where, f"no ge.graph named @{graph_name} (graphs: {names})")
    roots = root_graphs(module)
    if len(roots) == 1:
        return roots[0]
    if not roots:
        raise ReferenceEvalError(
            where, "the module has no root ge.graph (every graph is called by another, or there is none)"
        )
    names = ", ".join(f"@{g.sym_name.data}" for g in roots)
    raise ReferenceEvalError(where, f"the module has several root graphs ({names}); name one")


# ---------------------------------------------------------------------------------------
# Data, constants, calls, fused kernels
# ---------------------------------------------------------------------------------------


@reference_impl(ge.Data, ge.RefData, ge.NetOutput)
def _bound_by_block(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # Data and NetOutput are the graph's interface: _run_block binds and returns them.
    raise ReferenceEvalError(op, f"{op.name} is evaluated by its graph, not as a node")


def dense_value(op: Operation, attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The `value` of a Const/Constant/Variable as an array of the output's type."""
    t = op.results[0].type
    s = shape_of(t)
    assert s is not None and all(d >= 0 for d in s)  # the verifier checks value type == output type
    vals = attr.get_values()
    dt = out_dtype(op)
    # i1 `true` unpacks as -1 (signless): astype(bool) maps nonzero to True.
    return np.array(vals, dtype=np.float64 if is_float_dtype(dt) else np.int64).astype(dt).reshape(s)


@reference_impl(ge.Const, ge.Constant)
def _const(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    v = op.attributes["value"]
    assert isinstance(v, DenseIntOrFPElementsAttr)
    return [dense_value(op, v)]


@reference_impl(ge.Variable)
def _variable(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    v = op.attributes.get("value")
    if isinstance(v, DenseIntOrFPElementsAttr):
        return [dense_value(op, v)]
    s = shape_of(op.results[0].type)
    if s is None or any(d < 0 for d in s):
        raise ReferenceEvalError(op, f"a Variable without 'value' needs a known shape, got {op.results[0].type}")
    return [np.zeros(s, dtype=out_dtype(op))]


@reference_impl(ge.PartitionedCall)
def _partitioned_call(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    assert isinstance(op, ge.PartitionedCall)
    return _call(op, args, ())  # _run_block calls _call directly, with the call stack


@reference_impl(ge.FusedAscBackend)
def _fused_asc_backend(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # Its body is a ge graph body of AscBackends (Data by parent input index, NetOutput).
    return _run_block(op.regions[0].block, args, op, "FusedAscBackend body", ())


@reference_impl(ge.AscBackend)
def _asc_backend(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # The AscGraph interpreter registers itself for ge.AscBackend (replace=True) when it is
    # imported; importing it here, lazily (it imports this module), gives it to every caller.
    from runtime import ascgraph_interp

    return ascgraph_interp.run_asc_backend(op, args)


# ---------------------------------------------------------------------------------------
# Pointwise
# ---------------------------------------------------------------------------------------


def _pointwise(fn: Callable[..., np.ndarray], float_only: bool = False) -> Impl:
    def impl(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
        dt = args[0].dtype
        if float_only and not is_float_dtype(dt):
            raise ReferenceEvalError(op, f"{ge.ge_type(op)} has no reference semantics for dtype {dt} (floats only)")
        try:
            r = fn(*upcast(args))
        except (TypeError, ValueError) as e:  # e.g. bool subtract, int ** negative int
            raise ReferenceEvalError(op, f"{ge.ge_type(op)} is not defined on dtype {dt}: {e}") from None
        return [np.asarray(r).astype(out_dtype(op), copy=False)]

    return impl


def _int_div(op: Operation) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype.kind == "b":
            raise ReferenceEvalError(op, "Div is not defined on bool")
        try:
            return c_div(a, b)
        except ZeroDivisionError as e:
            raise ReferenceEvalError(op, str(e)) from None

    return div


_POINTWISE: dict[type[Operation], tuple[Callable[..., np.ndarray], bool]] = {
    ge.Add: (np.add, False),
    ge.Sub: (np.subtract, False),
    ge.Mul: (np.multiply, False),
    ge.RealDiv: (np.true_divide, True),
    ge.Maximum: (np.maximum, False),
    ge.Minimum: (np.minimum, False),
    ge.Pow: (np.power, False),
    ge.Relu: (lambda x: np.maximum(x, np.zeros((), x.dtype)), False),
    ge.Abs: (np.abs, False),
    ge.Neg: (np.negative, False),
    ge.Exp: (np.exp, True),
    ge.Log: (np.log, True),
    ge.Sqrt: (np.sqrt, True),
    ge.Rsqrt: (lambda x: np.ones((), x.dtype) / np.sqrt(x), True),
    ge.Sigmoid: (lambda x: np.ones((), x.dtype) / (np.ones((), x.dtype) + np.exp(-x)), True),
    ge.Tanh: (np.tanh, True),
    ge.Square: (lambda x: x * x, False),
    ge.Reciprocal: (lambda x: np.ones((), x.dtype) / x, True),
    ge.Identity: (lambda x: x, False),
}
for _cls, (_fn, _float_only) in _POINTWISE.items():
    reference_impl(_cls)(_pointwise(_fn, _float_only))


@reference_impl(ge.Div)
def _div(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    return _pointwise(_int_div(op))(op, args)


@reference_impl(ge.Cast)
def _cast(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # float -> int truncates toward zero; anything -> bool is "!= 0" (numpy astype). bf16
    # and float8 go through float32 (exact), as every other op of theirs and the AscGraph
    # interpreter's Cast do; to bf16 / float8 rounds to nearest, ties to even.
    return [upcast(args)[0].astype(out_dtype(op))]


@reference_impl(ge.AddN)
def _add_n(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # lowering_impl.cpp: AddN lowers to a chain of Add: left to right, each Add rounded to
    # the inputs' dtype (bf16 / float8: computed in float32, then rounded), as the fused kernel
    acc = args[0]
    for a in args[1:]:
        x, y = upcast([acc, a])
        acc = np.asarray(x + y).astype(args[0].dtype, copy=False)
    return [np.asarray(acc).astype(out_dtype(op), copy=False)]


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------


def _reduce_axes(op: Operation, rank: int) -> tuple[int, ...]:
    axes = A.get_int_list(op, "axes") or []
    if not axes:  # GE's ReduceXxxD: an empty `axes` reduces every axis
        return tuple(range(rank))
    return tuple(sorted({_norm_axis(op, a, rank, "axes entry") for a in axes}))


def _reduction(kind: str) -> Impl:
    def impl(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        try:
            r = reduce(kind, x, _reduce_axes(op, x.ndim), A.get_bool(op, "keep_dims", False))
        except ZeroDivisionError:
            raise ReferenceEvalError(op, "ReduceMeanD of an empty integer tensor") from None
        return [np.asarray(r).astype(out_dtype(op), copy=False)]

    return impl


reference_impl(ge.ReduceSumD)(_reduction("sum"))
reference_impl(ge.ReduceProdD)(_reduction("prod"))
reference_impl(ge.ReduceMaxD)(_reduction("max"))
reference_impl(ge.ReduceMinD)(_reduction("min"))
reference_impl(ge.ReduceMeanD)(_reduction("mean"))


# ---------------------------------------------------------------------------------------
# Concat, Pack, Split, PhonyConcat, PhonySplit
# ---------------------------------------------------------------------------------------


@reference_impl(ge.ConcatD, ge.ConcatV2D)
def _concat(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # concatv2d.cc: InferShape4ConcatV2Common -- one input is the output (a scalar too);
    # of several, each scalar is a 1-element vector.
    if len(args) == 1 and args[0].ndim == 0:
        return [args[0]]
    rank = max(args[0].ndim, 1)
    axis = _norm_axis(op, A.get_int(op, "concat_dim", 0) or 0, rank, "concat_dim")
    return [np.concatenate([a.reshape(1) if a.ndim == 0 else a for a in args], axis=axis)]


@reference_impl(ge.Pack)
def _pack(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
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


@reference_impl(ge.SplitD, ge.SplitVD)
def _split(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
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


@reference_impl(ge.PhonyConcat)
def _phony_concat(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
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


@reference_impl(ge.PhonySplit)
def _phony_split(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
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


@reference_impl(
    ge.Reshape, ge.Squeeze, ge.Unsqueeze, ge.ExpandDims, ge.Flatten, ge.FlattenV2, ge.ReFormat,
    ge.SqueezeV2, ge.SqueezeV3, ge.UnsqueezeV2, ge.UnsqueezeV3,
)  # fmt: skip
def _reshape(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # The reshape family keeps the elements in row-major order: the output is the input
    # reshaped to the output type's shape (a Reshape's optional shape input is redundant).
    x = args[0]
    shape = _target_shape(op, 0, x.size)
    if math.prod(shape) != x.size:
        raise ReferenceEvalError(op, f"cannot reshape {fmt_shape(x.shape)} to {fmt_shape(shape)}")
    return [x.reshape(shape)]


@reference_impl(ge.Bitcast)
def _bitcast(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    x = args[0]
    src, dst = op.operands[0].type.element_type, op.results[0].type.element_type  # type: ignore[attr-defined]
    for t in (src, dst):
        if dtype_bits(t) != numpy_dtype(t).itemsize * 8:
            raise ReferenceEvalError(
                op, f"Bitcast of {t}: the reference holds it as {numpy_dtype(t)}, so its bytes are not GE's"
            )
    flat = np.ascontiguousarray(x).reshape(-1).view(out_dtype(op))
    return [flat.reshape(_target_shape(op, 0, flat.size))]


@reference_impl(ge.TransposeD)
def _transpose(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    return [np.transpose(args[0], A.get_int_list(op, "perm") or [])]


@reference_impl(ge.BroadcastToD)
def _broadcast_to(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    return [np.broadcast_to(args[0], tuple(A.get_int_list(op, "shape") or []))]


@reference_impl(ge.Shape_)
def _shape(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    return [np.array(args[0].shape, dtype=out_dtype(op))]


# ---------------------------------------------------------------------------------------
# Gather, GatherV2
# ---------------------------------------------------------------------------------------


def gather_indices(op: Operation, idx: np.ndarray, dim: int, negative_index_support: bool) -> np.ndarray:
    """`idx` checked against a gathered dim of size `dim`, as int64: GE's default impl mode
    raises an AI-core error on an out-of-range index (selection_ops.h, GatherV2), so it is
    a located error here; `negative_index_support` maps [-dim, -1] to dim + i. Shared by
    the AscGraph interpreter's Gather."""
    i = idx.astype(np.int64)
    lo = -dim if negative_index_support else 0
    bad = (i < lo) | (i >= dim)
    if np.any(bad):
        first = int(i[bad].flat[0])
        raise ReferenceEvalError(
            op,
            f"index {first} is out of range for a gathered dim of size {dim} (valid: [{lo}, {dim - 1}]"
            f"{'' if negative_index_support else '; negative_index_support is false'})",
        )
    return np.where(i < 0, i + dim, i)


@reference_impl(ge.Gather, ge.GatherV2)
def _gather(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
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
    i = gather_indices(op, idx, x.shape[axis], A.get_bool(op, "negative_index_support"))
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


@reference_impl(ge.MatMul)
def _matmul(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    acc = acc_dtype(args[0].dtype)
    r = matmul_nd(op, args[0].astype(acc), args[1].astype(acc))
    if len(args) == 3:
        r = r + args[2].astype(acc).reshape(-1)
    return [r.astype(out_dtype(op))]


@reference_impl(ge.Conv2D)
def _conv2d(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    """NCHW: x [N,C,H,W], filter [K,C/groups,kh,kw], bias [K]; strides/dilations NCHW
    4-lists, pads [top, bottom, left, right] (GE's Conv2D op proto, nn_calculation_ops.h)."""
    acc = acc_dtype(args[0].dtype)
    out = conv2d_nchw(op, args[0].astype(acc), args[1].astype(acc))
    if len(args) == 3:
        out = out + args[2].astype(acc).reshape(1, -1, 1, 1)
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
    wg = w.astype(acc).reshape(g, k // g, cg, kh, kw)
    return np.einsum("ngcijhw,gkcij->ngkhw", patches, wg).reshape(n, k, oh, ow)


@reference_impl(ge.HcomAllGather)
def _all_gather(op: Operation, args: list[np.ndarray]) -> list[np.ndarray]:
    # Every rank runs the same graph on its own data; the reference has one rank's data,
    # so rank r's contribution is this input: rank_size copies concatenated on axis 0.
    r = A.get_int(op, "rank_size", 1) or 1
    return [np.concatenate([args[0]] * r, axis=0)]
