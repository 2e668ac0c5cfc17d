"""FX import: an ATen FX graph (Dynamo + AOTAutograd's, or torch.export's) to a ge module.

    module = import_graph_module(gm, consts={"arg0_1": weight}, name="model.py")
    module = import_exported_program(torch.export.load("model.pt2"), "model.pt2")
    module = load_exported_program("model.pt2")

This is TorchAir's `_ge_concrete_graph` (repository Ascend/torchair): every ATen op of the
graph becomes the GE op(s) of TorchAir's converter for it, one converter per op registered
in `CONVERTERS` (TorchAir: `register_fx_node_ge_converter`; each converter below cites its
file, `python/torchair/_ge_concrete_graph/ge_converter/aten/<op>.py`). Where TorchAir makes
an op the ge dialect lacks, the converter says which and uses the GE op sequence
importers/onnx.py uses for the same semantics.

The module holds one `ge.graph @main`:

* a placeholder becomes `ge.Data {index = k}` in order, or, when `consts` gives its value
  (a parameter, buffer or lifted constant), a `ge.Const` holding it;
* each `call_function` node becomes its converter's op(s); `operator.getitem` picks a
  result of a multi-output node;
* the output node's values become the operands of `ge.NetOutput`.

Names and locations: a node's ge op (the one giving its value) is named after the FX node
(`node.name`), the others `<name>_<what>`; every op carries the user's source line from
`node.meta["stack_trace"]` (the innermost frame: `FILE:LINE:1`), or `NAME:0:1` (`name`)
when the node has none (placeholders, outputs), so a later error or remark points at the
user's model line. Types are the node's own (`node.meta["val"]`, torch's fake tensor); a
symbolic dim (`dynamic=True`, a dim Dynamo marks dynamic) is `?`.

Errors are one line, raised as `FxImportError`: `FILE:LINE:1: error: aten.foo.default
(node 'foo'): no converter for this ATen op (N ATen ops have one: ...)`, an argument value a converter
does not take, a dtype the ge dialect lacks. torch is imported only inside the functions
that need it: the module imports without torch.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import numpy_dtype
from importers.fx_load import cia_ops_memoized, schema_type_hints_cached
from importers.onnx import dense_attr

__all__ = [
    "CONVERTERS",
    "FxImportError",
    "import_aten_program",
    "import_exported_program",
    "import_graph_module",
    "load_exported_program",
    "lower_to_aten",
    "supported_ops",
]


class FxImportError(DiagnosticException):
    """An FX graph the importer cannot turn into a ge module; `str()` is the one line."""

    def __init__(self, message: str):
        message = " ".join(message.split())  # always one line
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


# ---------------------------------------------------------------------------------------
# Data types: torch dtype (by name, so torch need not be imported) -> element type, GE's
# DataType number (types.h), the ONNX importer's element code for dense_attr
# ---------------------------------------------------------------------------------------

_DTYPES: dict[str, tuple[Attribute, int]] = {
    "torch.float32": (Float32Type(), 0),
    "torch.float16": (Float16Type(), 1),
    "torch.int8": (IntegerType(8), 2),
    "torch.int32": (IntegerType(32), 3),
    "torch.uint8": (IntegerType(8, Signedness.UNSIGNED), 4),
    "torch.int16": (IntegerType(16), 6),
    "torch.int64": (IntegerType(64), 9),
    "torch.float64": (Float64Type(), 11),
    "torch.bool": (IntegerType(1), 12),
    "torch.bfloat16": (BFloat16Type(), 27),
}
# the ONNX TensorProto code of each element type (importers/onnx.py: dense_attr reads it for bool)
_ONNX_CODE = {"torch.bool": 9}


def _elem(dtype: object, where: str) -> Attribute:
    got = _DTYPES.get(str(dtype))
    if got is None:
        raise FxImportError(f"{where}: error: dtype {dtype} is not supported (supported: {', '.join(sorted(_DTYPES))})")
    return got[0]


def _ge_datatype(dtype: object) -> int:
    return _DTYPES[str(dtype)][1]


def _tensor_type(val: Any, where: str) -> TensorType:
    """The ge type of a torch (fake) tensor: its dtype and shape, a symbolic dim as `?`."""
    dims = [int(d) if _is_static(d) else DYNAMIC_INDEX for d in val.shape]
    return TensorType(_elem(val.dtype, where), dims)


def _is_static(d: object) -> bool:
    if isinstance(d, int):
        return True
    node = getattr(d, "node", None)  # a SymInt: static when its expression is a number
    return node is not None and bool(getattr(node, "is_constant", lambda: False)())


def _const_op(arr: np.ndarray, elem: Attribute, name: str, loc: FileLineColLoc) -> Operation:
    t = TensorType(elem, list(arr.shape))
    code = 9 if isinstance(elem, IntegerType) and elem.width.data == 1 else 1
    op = ge.Const.create(result_types=[t], attributes={"value": dense_attr(arr, code, t)})
    op.results[0].name_hint = name
    op.location = loc
    return op


def _numpy(t: Any) -> np.ndarray:
    """A real torch tensor's values (bf16 through float32, as ml_dtypes reads it); an
    array as it is."""
    if isinstance(t, np.ndarray):
        return t
    from torch._subclasses.fake_tensor import unset_fake_temporarily

    # read outside AOTAutograd's fake-tensor mode, which the forward compiler runs in: a
    # real constant (a get_attr tensor) would otherwise be dispatched to the fake mode and
    # refused (TorchAir: npu_fx_compiler.py _NpuFxCompiler._gen_compiled_gm reads the
    # graph module under no_dispatch)
    with unset_fake_temporarily():
        t = t.detach().cpu()
        if str(t.dtype) == "torch.bfloat16":
            import ml_dtypes

            return t.float().numpy().astype(ml_dtypes.bfloat16)
        return t.contiguous().numpy()


# ---------------------------------------------------------------------------------------
# Locations: the user's source line of an FX node
# ---------------------------------------------------------------------------------------

_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def source_location(node: Any, default: str) -> tuple[str, int]:
    """(file, line) of the innermost frame of `node.meta["stack_trace"]` (the user's model
    line Dynamo or torch.export recorded), else (`default`, 0)."""
    trace = node.meta.get("stack_trace") if hasattr(node, "meta") else None
    frames = _FRAME.findall(trace or "")
    if not frames:
        return default, 0
    f, line = frames[-1]
    return f, int(line)


# ---------------------------------------------------------------------------------------
# The importer
# ---------------------------------------------------------------------------------------


@dataclass
class _Importer:
    name: str
    ops: list[Operation] = field(default_factory=list)
    values: dict[str, SSAValue | list[SSAValue] | object] = field(default_factory=dict)
    _locs: dict[tuple[str, int], FileLineColLoc] = field(default_factory=dict)

    def loc(self, file: str, line: int) -> FileLineColLoc:
        key = (file, line)
        got = self._locs.get(key)
        if got is None:
            got = self._locs[key] = FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(1))
        return got


class _Node:
    """One FX call_function node being converted: its arguments by schema name, its output
    types, and the ops made for it."""

    def __init__(self, imp: _Importer, node: Any):
        self.imp = imp
        self.node = node
        self.name = node.name
        self.op = _op_name(node.target)
        file, line = source_location(node, imp.name)
        self.where = f"{file}:{line}:1"
        self.location = imp.loc(file, line)
        self.args: dict[str, Any] = {}
        schema = getattr(node.target, "_schema", None)
        if schema is not None:
            pos = 0
            for a in schema.arguments:
                if not a.kwarg_only and pos < len(node.args):
                    self.args[a.name] = node.args[pos]
                    pos += 1
                elif a.name in node.kwargs:
                    self.args[a.name] = node.kwargs[a.name]
                elif a.has_default_value():
                    self.args[a.name] = a.default_value

    # -- errors -----------------------------------------------------------------------------

    def error(self, message: str) -> FxImportError:
        return FxImportError(f"{self.where}: error: {self.op} (node '{self.name}'): {message}")

    # -- arguments ----------------------------------------------------------------------------

    def a(self, name: str) -> Any:
        return self.args.get(name)

    def is_tensor(self, name: str) -> bool:
        v = self.args.get(name)
        return hasattr(v, "op") and hasattr(v, "meta")

    def x(self, name: str) -> SSAValue:
        """The ge value of tensor argument `name`."""
        v: Any = self.args.get(name)
        got = self.imp.values.get(v.name) if hasattr(v, "name") and hasattr(v, "meta") else None
        if not isinstance(got, SSAValue):
            raise self.error(f"argument '{name}' is not a tensor the graph computes (got {v!r})")
        return got

    def xs(self, name: str) -> list[SSAValue]:
        vs = self.args.get(name) or []
        out = []
        for v in vs:
            got = self.imp.values.get(v.name)
            if not isinstance(got, SSAValue):
                raise self.error(f"argument '{name}' holds {v!r}, not a tensor the graph computes")
            out.append(got)
        return out

    def val(self, name: str) -> Any:
        """The fake tensor of tensor argument `name` (its dtype and shape)."""
        return self.args[name].meta["val"]

    def rank(self, name: str) -> int:
        return len(self.val(name).shape)

    def ints(self, name: str) -> list[int]:
        v = self.args.get(name)
        if v is None:
            return []
        if isinstance(v, int):
            return [v]
        if not all(isinstance(d, int) for d in v):
            raise self.error(f"argument '{name}' = {v} is not a list of constant ints (a symbolic size)")
        return [int(d) for d in v]

    def out(self, i: int | None = None) -> TensorType:
        val = self.node.meta.get("val")
        if i is not None:
            val = val[i]
        if val is None or not hasattr(val, "shape"):
            raise self.error("the node has no tensor meta (node.meta['val'])")
        return _tensor_type(val, self.where)

    def out_elem(self) -> Attribute:
        return self.out().element_type

    # -- ops ----------------------------------------------------------------------------------

    def emit(
        self,
        cls: type[ge.GeNode],
        *inputs: SSAValue | Sequence[SSAValue],
        suffix: str | None = None,
        types: Sequence[Attribute] | None = None,
        **attrs: Any,
    ) -> Operation:
        """A GE op for this node, named after it (`<name>_<suffix>` for a helper op), its
        result types `types` or inferred by the op (GeNode.build)."""
        name = self.name if suffix is None else f"{self.name}_{suffix}"
        try:
            op = cls.build(*inputs, name=name, result_types=types, **attrs)
            if types is None and any(_has_unknown_minus_one(r.type) for r in op.results):
                # the op's inference spells an unknown dim as GE's -1; the ge types spell it `?`
                types = [_question_dims(r.type) for r in op.results]
                op = cls.build(*inputs, name=name, result_types=types, **attrs)
        except (ValueError, VerifyException, LocatedError) as e:
            raise self.error(f"converted to {cls.name}, which does not verify: {e}") from None
        op.location = self.location
        self.imp.ops.append(op)
        return op

    def single(self, cls: type[ge.GeNode], *inputs: SSAValue | Sequence[SSAValue], **attrs: Any) -> SSAValue:
        """The node is one GE op with the node's own output type."""
        return self.emit(cls, *inputs, types=[self.out()], **attrs).results[0]

    def const(self, value: object, elem: Attribute, suffix: str) -> SSAValue:
        arr = np.asarray(value, dtype=numpy_dtype(elem))
        op = _const_op(arr, elem, f"{self.name}_{suffix}", self.location)
        self.imp.ops.append(op)
        return op.results[0]

    def operand(self, name: str, elem: Attribute) -> SSAValue:
        """Tensor argument `name`, or a Python scalar as a 0-d Const of `elem` (TorchAir:
        converter_utils.py dtype_promote makes a scalar a Const of the result dtype)."""
        if self.is_tensor(name):
            v = self.x(name)
            if _element_type(v) != elem:
                return self.emit(ge.Cast, v, suffix=f"Cast_{name}", dtype=elem, dst_type=_dst(elem)).results[0]
            return v
        v = self.args.get(name)
        if not isinstance(v, int | float | bool):
            raise self.error(f"argument '{name}' = {v!r} is neither a tensor nor a number")
        return self.const(v, elem, name)


def _has_unknown_minus_one(t: Attribute) -> bool:
    return isinstance(t, TensorType) and any(d < 0 and d != DYNAMIC_INDEX for d in t.get_shape())


def _question_dims(t: Attribute) -> Attribute:
    """`t` with each negative dim (GE's -1, unknown) as the builtin's `?`."""
    if not _has_unknown_minus_one(t):
        return t
    tt = cast(TensorType[Attribute], t)
    return TensorType(tt.element_type, [DYNAMIC_INDEX if d < 0 else d for d in tt.get_shape()])


def _element_type(v: SSAValue) -> Attribute:
    t = v.type
    assert isinstance(t, TensorType)
    return t.element_type


_DST = {repr(e): n for e, n in _DTYPES.values()}


def _dst(elem: Attribute) -> int:
    return _DST[repr(elem)]


def _op_name(target: object) -> str:
    """`aten.add.Tensor` for torch.ops.aten.add.Tensor (an OpOverload's str)."""
    return (
        str(target) if not callable(target) or hasattr(target, "_schema") else getattr(target, "__name__", str(target))
    )


# ---------------------------------------------------------------------------------------
# Converters: one per ATen op (TorchAir: register_fx_node_ge_converter)
# ---------------------------------------------------------------------------------------

Converter = Callable[[_Node], "SSAValue | list[SSAValue]"]
CONVERTERS: dict[str, Converter] = {}


def converts(*ops: str) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for op in ops:
            assert op not in CONVERTERS, op
            CONVERTERS[op] = fn
        return fn

    return register


def supported_ops() -> list[str]:
    return sorted(CONVERTERS)


# -- arithmetic ----------------------------------------------------------------------------


def _binary(cx: _Node, cls: type[ge.GeNode], a: str = "self", b: str = "other") -> SSAValue:
    elem = cx.out_elem()
    return cx.single(cls, cx.operand(a, elem), cx.operand(b, elem))


@converts("aten.add.Tensor", "aten.add.Scalar", "aten.sub.Tensor", "aten.sub.Scalar")
def _add_sub(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/add.py, sub.py: alpha != 1 is Mul(other, alpha) first
    # (AxpyV2 for tensors there; the ge dialect has no Axpy), then Add / Sub.
    elem = cx.out_elem()
    x, y = cx.operand("self", elem), cx.operand("other", elem)
    alpha = cx.a("alpha")
    if alpha is not None and alpha != 1:
        y = cx.emit(ge.Mul, y, cx.const(alpha, elem, "alpha"), suffix="Mul_alpha").results[0]
    return cx.single(ge.Add if cx.op.startswith("aten.add") else ge.Sub, x, y)


@converts("aten.rsub.Scalar", "aten.rsub.Tensor")
def _rsub(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/rsub.py: Sub(other, Mul(self, alpha))
    elem = cx.out_elem()
    x, y = cx.operand("self", elem), cx.operand("other", elem)
    alpha = cx.a("alpha")
    if alpha is not None and alpha != 1:
        x = cx.emit(ge.Mul, x, cx.const(alpha, elem, "alpha"), suffix="Mul_alpha").results[0]
    return cx.single(ge.Sub, y, x)


@converts("aten.mul.Tensor", "aten.mul.Scalar")
def _mul(cx: _Node) -> SSAValue:
    return _binary(cx, ge.Mul)  # TorchAir: ge_converter/aten/mul.py: Mul


@converts("aten.div.Tensor", "aten.div.Scalar")
def _div(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/div.py: RealDiv (true division, the result dtype float)
    return _binary(cx, ge.RealDiv)


@converts("aten.pow.Tensor_Scalar", "aten.pow.Tensor_Tensor")
def _pow(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/pow.py: Pow(self, exponent), exponent 2 as Square
    if cx.a("exponent") == 2:
        return cx.single(ge.Square, cx.operand("self", cx.out_elem()))
    return _binary(cx, ge.Pow, "self", "exponent")


@converts("aten.maximum.default", "aten.minimum.default")
def _max_min(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/maximum.py, minimum.py: Maximum / Minimum
    return _binary(cx, ge.Maximum if cx.op == "aten.maximum.default" else ge.Minimum)


# TorchAir: ge_converter/aten/<op>.py for each: the GE op of the same name
_UNARY: dict[str, type[ge.GeNode]] = {
    "aten.relu.default": ge.Relu, "aten.sigmoid.default": ge.Sigmoid, "aten.tanh.default": ge.Tanh,
    "aten.exp.default": ge.Exp, "aten.log.default": ge.Log, "aten.neg.default": ge.Neg,
    "aten.abs.default": ge.Abs, "aten.sqrt.default": ge.Sqrt, "aten.rsqrt.default": ge.Rsqrt,
    "aten.reciprocal.default": ge.Reciprocal, "aten.erf.default": ge.Erf, "aten.sin.default": ge.Sin,
    "aten.cos.default": ge.Cos, "aten.floor.default": ge.Floor, "aten.ceil.default": ge.Ceil,
    "aten.hardswish.default": ge.HardSwish, "aten.logical_not.default": ge.LogicalNot,
    # hardsigmoid.py: HardSigmoid with the REG_OP's alpha 1/6 and beta 1/2, torch's
    "aten.hardsigmoid.default": ge.HardSigmoid,
}  # fmt: skip


@converts(*_UNARY)
def _unary(cx: _Node) -> SSAValue:
    return cx.single(_UNARY[cx.op], cx.x("self"))


@converts(
    "aten.clone.default", "aten.alias.default", "aten.detach.default", "aten.contiguous.default",
    "aten.lift_fresh_copy.default",
)  # fmt: skip
def _identity(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/clone.py, lift_fresh_copy.py (a tensor constant the model
    # makes with torch.tensor, copied into the graph): Identity
    return cx.single(ge.Identity, cx.x("self"))


@converts("aten.silu.default")
def _silu(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/silu.py: Swish. The ge dialect has no Swish: x * Sigmoid(x),
    # the sequence torch's ONNX exporter writes for SiLU (importers/onnx.py: Sigmoid, Mul).
    x = cx.x("self")
    s = cx.emit(ge.Sigmoid, x, suffix="Sigmoid").results[0]
    return cx.single(ge.Mul, x, s)


@converts("aten.gelu.default")
def _gelu(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/gelu.py: Gelu (whose kernel is the tanh approximation) for
    # either `approximate`; the exact ("none") Gelu is written as importers/onnx.py's _gelu
    # writes it, x * 0.5 * (1 + Erf(x / sqrt(2))), so it matches eager's erf form.
    x = cx.x("self")
    if cx.a("approximate") == "tanh":
        return cx.single(ge.Gelu, x)
    elem = cx.out_elem()
    s = cx.emit(ge.Mul, x, cx.const(1 / math.sqrt(2.0), elem, "rsqrt2"), suffix="Mul_rsqrt2").results[0]
    e = cx.emit(ge.Erf, s, suffix="Erf").results[0]
    a = cx.emit(ge.Add, e, cx.const(1.0, elem, "one"), suffix="Add").results[0]
    h = cx.emit(ge.Mul, x, cx.const(0.5, elem, "half"), suffix="Mul_half").results[0]
    return cx.single(ge.Mul, h, a)


@converts("aten.hardtanh.default", "aten.clamp.default")
def _clamp(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/hardtanh.py, clamp.py: ClipByValue(x, min, max); a missing
    # bound of clamp is the dtype's limit (as importers/onnx.py's Clip).
    elem = cx.out_elem()
    lo, hi = ("min_val", "max_val") if cx.op == "aten.hardtanh.default" else ("min", "max")
    dt = numpy_dtype(elem)
    info = np.finfo(dt) if np.issubdtype(dt, np.floating) else np.iinfo(dt)
    lo_v = cx.a(lo) if cx.a(lo) is not None else info.min
    hi_v = cx.a(hi) if cx.a(hi) is not None else info.max
    return cx.single(ge.ClipByValue, cx.x("self"), cx.const(lo_v, elem, "min"), cx.const(hi_v, elem, "max"))


@converts("aten.leaky_relu.default")
def _leaky_relu(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/leaky_relu.py: LeakyRelu {negative_slope}
    return cx.single(ge.LeakyRelu, cx.x("self"), negative_slope=FloatAttr(float(cx.a("negative_slope")), Float32Type()))


# -- comparisons, selection, casts -----------------------------------------------------------

_COMPARE: dict[str, type[ge.GeNode]] = {
    "eq": ge.Equal, "ne": ge.NotEqual, "lt": ge.Less, "le": ge.LessEqual, "gt": ge.Greater, "ge": ge.GreaterEqual,
}  # fmt: skip


@converts(*(f"aten.{k}.{o}" for k in _COMPARE for o in ("Tensor", "Scalar")))
def _compare(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/eq.py, ne.py, lt.py, le.py, gt.py, ge.py: Equal, NotEqual,
    # Less, LessEqual, Greater, GreaterEqual on the inputs promoted to one dtype
    elem = _element_type(cx.x("self"))
    cls = _COMPARE[cx.op.split(".")[1]]
    return cx.single(cls, cx.x("self"), cx.operand("other", elem))


@converts("aten.where.self")
def _where(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/where.py: SelectV2(condition, self, other)
    elem = cx.out_elem()
    return cx.single(ge.SelectV2, cx.x("condition"), cx.operand("self", elem), cx.operand("other", elem))


@converts("aten._to_copy.default", "aten.to.dtype")
def _to_copy(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/_to_copy.py: Cast {dst_type} to the new dtype, Identity
    # when it stays (a device or layout copy)
    x = cx.x("self")
    elem = cx.out_elem()
    if _element_type(x) == elem:
        return cx.single(ge.Identity, x)
    return cx.single(ge.Cast, x, dst_type=_dst(elem))


# -- constants: full, zeros, ones, arange, scalar_tensor ----------------------------------------


@converts(
    "aten.full.default", "aten.zeros.default", "aten.ones.default", "aten.scalar_tensor.default",
    "aten.arange.default", "aten.arange.start", "aten.arange.start_step",
    "aten.full_like.default", "aten.zeros_like.default", "aten.ones_like.default",
)  # fmt: skip
def _constant(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/full.py (Fill), zeros.py, ones.py, scalar_tensor.py,
    # arange.py (Range), full_like.py, zeros_like.py, ones_like.py (Fill(Shape(self), value)):
    # every input here is a constant (a *_like's input only gives its static shape), so the
    # value is the Const GE's constant folding makes of them (graph/passes/constant_folding_pass.cc).
    t = cx.out()
    if any(d == DYNAMIC_INDEX for d in t.get_shape()):
        raise cx.error("a constant of a symbolic size is not supported")
    dt = numpy_dtype(t.element_type)
    shape = tuple(t.get_shape())
    kind = cx.op.split(".")[1]
    if kind == "arange":
        start = cx.a("start") if cx.a("start") is not None else 0
        step = cx.a("step") if cx.a("step") is not None else 1
        arr = np.arange(start, cx.a("end"), step).astype(dt)
    else:
        kind = kind.removesuffix("_like")
        fill = {"zeros": 0, "ones": 1}.get(kind, cx.a("fill_value") if kind == "full" else cx.a("s"))
        arr = np.full(shape, fill, dtype=dt)
    op = _const_op(arr.reshape(shape), t.element_type, cx.name, cx.location)
    cx.imp.ops.append(op)
    return op.results[0]


@converts("aten._assert_tensor_metadata.default")
def _assert_metadata(cx: _Node) -> list[SSAValue]:
    # torch.export's dtype / shape assertion of an input: checked by the import itself (every
    # type is the node's own), so it makes no node
    return []


# -- matmul, conv, norms, pools ----------------------------------------------------------------


@converts("aten.mm.default")
def _mm(cx: _Node) -> SSAValue:
    return cx.single(ge.MatMul, cx.x("self"), cx.x("mat2"))  # TorchAir: ge_converter/aten/mm.py: MatMul


@converts("aten.addmm.default")
def _addmm(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/addmm.py: beta = alpha = 1: Add(MatMul(mat1, mat2), self)
    # (MatMul with bias for a 1-D f16 self); other alpha / beta scale the two by Mul first
    elem = cx.out_elem()
    mm = cx.emit(ge.MatMul, cx.x("mat1"), cx.x("mat2"), suffix="MatMul").results[0]
    alpha, beta = cx.a("alpha"), cx.a("beta")
    if alpha not in (None, 1):
        mm = cx.emit(ge.Mul, mm, cx.const(alpha, elem, "alpha"), suffix="Mul_alpha").results[0]
    bias = cx.x("self")
    if beta not in (None, 1):
        bias = cx.emit(ge.Mul, bias, cx.const(beta, elem, "beta"), suffix="Mul_beta").results[0]
    return cx.single(ge.Add, mm, bias)


@converts("aten.bmm.default")
def _bmm(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/bmm.py: BatchMatMulV2 {adj_x1 = adj_x2 = false}
    return cx.single(ge.BatchMatMulV2, cx.x("self"), cx.x("mat2"), adj_x1=False, adj_x2=False)


@converts("aten.convolution.default")
def _convolution(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/convolution.py: _npu_conv2d: Conv2D {strides [1, 1, sh, sw],
    # pads [ph, ph, pw, pw], dilations [1, 1, dh, dw], groups, data_format NCHW}; a 1-D conv
    # (rank 3) as importers/onnx.py's trans_2d; transposed and 3-D convs are refused.
    if cx.a("transposed"):
        raise cx.error("a transposed convolution is not supported (TorchAir: Conv2DTranspose)")
    if cx.rank("input") != 4:
        raise cx.error(f"a rank-{cx.rank('input')} convolution is not supported (Conv2D takes 4-D NCHW)")
    if any(p != 0 for p in cx.ints("output_padding")):
        raise cx.error("output_padding is only for a transposed convolution")
    s, p, d = cx.ints("stride"), cx.ints("padding"), cx.ints("dilation")
    s, p, d = (v * 2 if len(v) == 1 else v for v in (s, p, d))
    bias = [cx.x("bias")] if cx.a("bias") is not None else []
    return cx.single(
        ge.Conv2D,
        cx.x("input"),
        cx.x("weight"),
        *bias,
        strides=[1, 1, *s],
        pads=[p[0], p[0], p[1], p[1]],
        dilations=[1, 1, *d],
        groups=int(cx.a("groups")),
        data_format="NCHW",
    )


@converts("aten._native_batch_norm_legit_no_training.default")
def _batch_norm(cx: _Node) -> list[SSAValue]:
    # TorchAir: ge_converter/aten/_native_batch_norm_legit_no_training.py: BNInfer on 4-D
    # NCHW (2-D / 3-D input unsqueezed to 4-D first, Squeeze after), a missing weight / bias
    # filled with 1 / 0. The ge dialect's inference BatchNorm is importers/onnx.py's
    # (batch_normalization_plugin.cc: BatchNorm {is_training = false}). Outputs 1 and 2
    # (save_mean, save_rstd) are empty in inference: empty Consts.
    x = cx.x("input")
    rank = cx.rank("input")
    if not 2 <= rank <= 4:
        raise cx.error(f"a rank-{rank} batch norm is not supported (BatchNorm takes 2-D to 4-D here)")
    c = int(cx.val("input").shape[1])
    params = []
    for name, fill in (("weight", 1.0), ("bias", 0.0), ("running_mean", None), ("running_var", None)):
        if cx.a(name) is None:
            if fill is None:
                raise cx.error(f"{name} is required in inference")
            params.append(cx.const(np.full((c,), fill), Float32Type(), name))
            continue
        v = cx.x(name)
        if _element_type(v) != Float32Type():
            v = cx.emit(ge.Cast, v, suffix=f"Cast_{name}", dst_type=0, dtype=Float32Type()).results[0]
        params.append(v)
    if rank < 4:
        x = cx.emit(ge.Unsqueeze, x, suffix="Unsqueeze", axes=list(range(rank, 4))).results[0]
    # BatchNorm's y has x's dtype (f16 or f32), its other outputs are float32 [C] (and [1]),
    # as importers/onnx.py builds it (nn_norm_ops.h: REG_OP(BatchNorm))
    x4 = cast(TensorType[Attribute], x.type)
    f32 = TensorType(Float32Type(), [c])
    types = [x4, f32, f32, f32, f32, TensorType(Float32Type(), [1])]
    bn = cx.emit(
        ge.BatchNorm,
        x,
        *params,
        types=types,
        suffix=None if rank == 4 else "BatchNorm",
        epsilon=FloatAttr(float(cx.a("eps")), Float32Type()),
        data_format="NCHW",
        is_training=False,
    )
    y = bn.results[0]
    if rank < 4:
        y = cx.emit(ge.Squeeze, y, types=[cx.out(0)], axis=list(range(rank, 4))).results[0]
    empty = [cx.const(np.zeros((0,)), cx.out(i).element_type, f"empty{i}") for i in (1, 2)]
    return [y, *empty]


@converts("aten.native_layer_norm.default")
def _layer_norm(cx: _Node) -> list[SSAValue]:
    # TorchAir: ge_converter/aten/native_layer_norm.py: LayerNormV4(input, normalized_shape,
    # gamma, beta, epsilon), a missing weight / bias filled with 1 / 0. The ge dialect's
    # LayerNorm (importers/onnx.py: _layer_norm) {begin_norm_axis = begin_params_axis =
    # rank - len(normalized_shape)} gives y, mean and variance; rstd is Rsqrt(variance + eps).
    x = cx.x("input")
    shape = cx.ints("normalized_shape")
    axis = cx.rank("input") - len(shape)
    elem = _element_type(x)
    gamma = cx.x("weight") if cx.a("weight") is not None else cx.const(np.ones(shape), elem, "gamma")
    beta = cx.x("bias") if cx.a("bias") is not None else cx.const(np.zeros(shape), elem, "beta")
    eps = float(cx.a("eps"))
    ln = cx.emit(
        ge.LayerNorm,
        x,
        gamma,
        beta,
        begin_norm_axis=axis,
        begin_params_axis=axis,
        epsilon=FloatAttr(eps, Float32Type()),
    )
    v = cx.emit(ge.Add, ln.results[2], cx.const(eps, elem, "eps"), suffix="Add").results[0]
    rstd = cx.emit(ge.Rsqrt, v, suffix="Rsqrt").results[0]
    return [ln.results[0], ln.results[1], rstd]


def _pool_lists(cx: _Node) -> tuple[list[int], list[int], list[int]]:
    k = cx.ints("kernel_size")
    s = cx.ints("stride") or k  # an omitted stride is the kernel (max_pool2d_with_indices.py)
    p = cx.ints("padding") or [0]
    k, s, p = (v * 2 if len(v) == 1 else v for v in (k, s, p))
    return k, s, p


@converts("aten.max_pool2d_with_indices.default", "aten.max_pool2d.default")
def _max_pool(cx: _Node) -> SSAValue | list[SSAValue]:
    # TorchAir: ge_converter/aten/max_pool2d_with_indices.py: MaxPoolWithArgmaxV1 {ksize,
    # strides, pads, ceil_mode}. Inference reads only the values: importers/onnx.py's MaxPool,
    # MaxPoolV3 {ksize, strides, padding_mode CALCULATED, pads [ph, ph, pw, pw], ceil_mode};
    # the indices output is refused where a later node reads it.
    if any(d != 1 for d in cx.ints("dilation") or [1]):
        raise cx.error("dilation != 1 is not supported (MaxPoolV3 has no dilation)")
    if cx.rank("self") != 4:
        raise cx.error("a max pool of a non-4-D input is not supported")
    k, s, p = _pool_lists(cx)
    multi = cx.op == "aten.max_pool2d_with_indices.default"
    y = cx.emit(
        ge.MaxPoolV3,
        cx.x("self"),
        types=[cx.out(0) if multi else cx.out()],
        ksize=[1, 1, *k],
        strides=[1, 1, *s],
        padding_mode="CALCULATED",
        pads=[p[0], p[0], p[1], p[1]],
        ceil_mode=bool(cx.a("ceil_mode")),
        data_format="NCHW",
    ).results[0]
    return [y, _Unused(cx, "the indices of max_pool2d_with_indices")] if multi else y  # type: ignore[list-item]


@converts("aten.avg_pool2d.default")
def _avg_pool(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/avg_pool2d.py: AvgPoolV2 {ksize, strides, padding_mode
    # CALCULATED, pads [ph, ph, pw, pw], ceil_mode, exclusive = !count_include_pad, NCHW}
    if cx.a("divisor_override") is not None:
        raise cx.error("divisor_override is not supported")
    k, s, p = _pool_lists(cx)
    return cx.single(
        ge.AvgPoolV2,
        cx.x("self"),
        ksize=[1, 1, *k],
        strides=[1, 1, *s],
        padding_mode="CALCULATED",
        pads=[p[0], p[0], p[1], p[1]],
        ceil_mode=bool(cx.a("ceil_mode")),
        exclusive=not cx.a("count_include_pad"),
        data_format="NCHW",
    )


@converts("aten._adaptive_avg_pool2d.default", "aten.adaptive_avg_pool2d.default")
def _adaptive_avg_pool(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/_adaptive_avg_pool2d.py: AdaptiveAvgPool2d {output_size}.
    # The ge dialect lacks it; an output that divides the input evenly is an AvgPool of
    # kernel = stride = in / out (VALID), as importers/onnx.py's GlobalAveragePool.
    xs = [int(d) for d in cx.val("self").shape[-2:]]
    out = cx.ints("output_size")
    if any(i % o for i, o in zip(xs, out, strict=True)):
        raise cx.error(f"an adaptive pool of {xs} to {out} (not an even division) is not supported")
    k = [i // o for i, o in zip(xs, out, strict=True)]
    return cx.single(
        ge.AvgPool, cx.x("self"), ksize=[1, 1, *k], strides=[1, 1, *k], padding="VALID", data_format="NCHW"
    )


# -- reductions, softmax -------------------------------------------------------------------------


def _dims(cx: _Node, name: str, rank: int) -> list[int]:
    d = cx.ints(name)
    return [a + rank if a < 0 else a for a in d] if d else list(range(rank))


_REDUCE: dict[str, type[ge.GeNode]] = {
    "aten.mean.dim": ge.ReduceMeanD, "aten.sum.dim_IntList": ge.ReduceSumD, "aten.amax.default": ge.ReduceMaxD,
    "aten.amin.default": ge.ReduceMinD, "aten.mean.default": ge.ReduceMeanD, "aten.sum.default": ge.ReduceSumD,
}  # fmt: skip


@converts(*_REDUCE)
def _reduce(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/mean.py, sum.py, amax.py, amin.py: ReduceMean / ReduceSum /
    # ReduceMax / ReduceMin(self, dim) {keep_dims}, the D forms with constant axes
    x = cx.x("self")
    if cx.a("dtype") is not None:
        x = cx.emit(ge.Cast, x, suffix="Cast", dtype=cx.out_elem(), dst_type=_dst(cx.out_elem())).results[0]
    axes = _dims(cx, "dim", cx.rank("self"))
    return cx.single(_REDUCE[cx.op], x, axes=axes, keep_dims=bool(cx.a("keepdim")))


@converts("aten._softmax.default", "aten._log_softmax.default", "aten.softmax.int", "aten.log_softmax.int")
def _softmax(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/_softmax.py: SoftmaxV2 {axes = [dim]}; _log_softmax.py:
    # LogSoftmaxV2 {axes = [dim]}; half_to_float casts the f16 input to f32 first
    x = cx.x("self")
    if cx.a("half_to_float") or (cx.a("dtype") is not None and _element_type(x) != cx.out_elem()):
        x = cx.emit(ge.Cast, x, suffix="Cast", dtype=cx.out_elem(), dst_type=_dst(cx.out_elem())).results[0]
    cls = ge.LogSoftmaxV2 if "log" in cx.op else ge.SoftmaxV2
    return cx.single(cls, x, axes=_dims(cx, "dim", cx.rank("self")))


# -- shapes -------------------------------------------------------------------------------------


@converts("aten.view.default", "aten._unsafe_view.default", "aten.reshape.default", "aten.flatten.using_ints")
def _view(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/view.py, _unsafe_view.py, reshape.py: Reshape(self, size),
    # the size a Const of the output's shape (-1 resolved); a symbolic dim stays -1
    t = cx.out()
    shape = cx.const(
        np.array([d if d != DYNAMIC_INDEX else -1 for d in t.get_shape()], np.int64), IntegerType(64), "shape"
    )
    return cx.single(ge.Reshape, cx.x("self"), shape)


@converts("aten.permute.default")
def _permute(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/permute.py: Transpose(self, perm) -> TransposeD {perm}
    return cx.single(ge.TransposeD, cx.x("self"), perm=_dims(cx, "dims", cx.rank("self")))


@converts("aten.t.default", "aten.transpose.int")
def _transpose(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/t.py, transpose.py: Transpose with the two dims swapped
    rank = cx.rank("self")
    perm = list(range(rank))
    if cx.op == "aten.transpose.int":
        a, b = (d + rank if d < 0 else d for d in (int(cx.a("dim0")), int(cx.a("dim1"))))
    else:
        a, b = 0, max(rank - 1, 0)
    perm[a], perm[b] = perm[b], perm[a]
    return cx.single(ge.TransposeD, cx.x("self"), perm=perm)


@converts("aten.expand.default")
def _expand(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/expand.py: BroadcastTo(self, size) -> BroadcastToD {shape}
    # (made with create: `shape` is GeNode.build's result-shape keyword)
    t = cx.out()
    op = ge.BroadcastToD.create(
        operands=[cx.x("self")], result_types=[t], attributes={"shape": A.int_list_attr(tuple(t.get_shape()))}
    )
    op.results[0].name_hint = cx.name
    op.location = cx.location
    try:
        op.verify_()
    except (VerifyException, LocatedError) as e:
        raise cx.error(f"converted to {op.name}, which does not verify: {e}") from None
    cx.imp.ops.append(op)
    return op.results[0]


@converts("aten.as_strided.default")
def _as_strided(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/as_strided.py: AsStrided(self, size, stride, storage_offset),
    # which the ge dialect lacks. Our tensors are dense, so on a contiguous input the view
    # reads the elements offset + sum(i_k * stride_k) of its row-major storage: a Reshape when
    # those are the storage in order (AOTAutograd restriding an output, e.g. convnext's
    # [1, C, 1, 1] pool), else a GatherV2 of them from the flattened input. Goes beyond
    # TorchAir's op set, for the ge dialect's; a non-contiguous input is refused.
    val = cx.val("self")
    if not all(_is_static(d) for d in val.shape) or not val.is_contiguous():
        raise cx.error("as_strided of a non-contiguous or symbolic-size input is not supported")
    size, stride = cx.ints("size"), cx.ints("stride")
    offset = int(cx.a("storage_offset") or 0)
    index = np.full(size, offset, np.int64)
    for k, (n, st) in enumerate(zip(size, stride, strict=True)):
        index += (np.arange(n, dtype=np.int64) * st).reshape([n if j == k else 1 for j in range(len(size))])
    numel = math.prod(int(d) for d in val.shape)
    if index.size and (index.min() < 0 or index.max() >= numel):
        raise cx.error(f"as_strided reads outside its input's {numel} elements")
    i64 = IntegerType(64)
    if index.size == numel and np.array_equal(index.reshape(-1), np.arange(numel)):
        return cx.single(ge.Reshape, cx.x("self"), cx.const(np.array(size, np.int64), i64, "shape"))
    flat = cx.emit(ge.Reshape, cx.x("self"), cx.const(np.array([numel], np.int64), i64, "flat"), suffix="flat")
    axis = cx.const(0, IntegerType(32), "axis")
    return cx.single(ge.GatherV2, flat.results[0], cx.const(index, i64, "index"), axis)


@converts("aten.unsqueeze.default")
def _unsqueeze(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/unsqueeze.py: Unsqueeze {axes = [dim]}
    d = int(cx.a("dim"))
    d = d + cx.rank("self") + 1 if d < 0 else d
    return cx.single(ge.Unsqueeze, cx.x("self"), axes=[d])


@converts("aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default")
def _squeeze(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/squeeze.py: Squeeze {axis}; a dim of size != 1 stays
    # (torch's squeeze leaves it), so axis lists only the size-1 dims asked for
    shape = [int(d) if _is_static(d) else -1 for d in cx.val("self").shape]
    want = _dims(cx, "dims" if cx.op == "aten.squeeze.dims" else "dim", len(shape))
    axis = [a for a in want if shape[a] == 1]
    if not axis:
        return cx.single(ge.Identity, cx.x("self"))
    return cx.single(ge.Squeeze, cx.x("self"), axis=axis)


@converts("aten.cat.default")
def _cat(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/cat.py: ConcatD {concat_dim = dim, N}; empty tensors dropped
    xs = [v for v, n in zip(cx.xs("tensors"), cx.a("tensors"), strict=True) if n.meta["val"].numel() != 0]
    if len(xs) == 1:
        return cx.single(ge.Identity, xs[0])
    d = int(cx.a("dim"))
    rank = len(cx.out().get_shape())
    return cx.single(ge.ConcatD, xs, concat_dim=d + rank if d < 0 else d, N=len(xs))


@converts("aten.unbind.int")
def _unbind(cx: _Node) -> list[SSAValue]:
    # TorchAir: ge_converter/aten/unbind.py: Unpack(self) {num = the outputs, axis = dim},
    # which the ge dialect lacks: the sequence torch's ONNX exporter writes for unbind
    # (symbolic_opset13.py: unbind: Split, then Squeeze of each part), as importers/onnx.py
    # imports it: SplitD {split_dim, num_split}, Squeeze {axis = [dim]} per part (a dim of
    # size 1: the Squeeze alone)
    rank = cx.rank("self")
    d = int(cx.a("dim"))
    d = d + rank if d < 0 else d
    types = [_tensor_type(v, cx.where) for v in cx.node.meta["val"]]
    parts = [cx.x("self")]
    if len(types) > 1:
        one = list(types[0].get_shape())
        one.insert(d, 1)  # each part keeps the dim, size 1
        piece = TensorType(types[0].element_type, one)
        op = cx.emit(
            ge.SplitD, parts[0], suffix="SplitD", types=[piece] * len(types), split_dim=d, num_split=len(types)
        )
        parts = list(op.results)
    return [
        cx.emit(ge.Squeeze, p, suffix=str(k), types=[t], axis=[d]).results[0]
        for k, (p, t) in enumerate(zip(parts, types, strict=True))
    ]


@converts("aten.flip.default")
def _flip(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/flip.py: ReverseV2(self, dims), which the ge dialect lacks:
    # the Slice torch's ONNX exporter writes for flip (symbolic_opset10.py: flip: starts -1,
    # ends -INT64_MAX, steps -1 on each of dims), as importers/onnx.py imports it
    # (slice_plugin.cc: StridedSliceV2(x, begin, end, axes, strides))
    dims = _dims(cx, "dims", cx.rank("self"))
    if not dims:
        return cx.single(ge.Identity, cx.x("self"))
    i64, n = IntegerType(64), len(dims)
    ins = [cx.const([-1] * n, i64, "begin"), cx.const([-(2**63 - 1)] * n, i64, "end"), cx.const(dims, i64, "axes")]
    ins.append(cx.const([-1] * n, i64, "strides"))
    return cx.single(ge.StridedSliceV2, cx.x("self"), *ins)


@converts("aten.stack.default")
def _stack(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/stack.py: Pack(tensors) {N, axis = dim}
    d = int(cx.a("dim") or 0)
    rank = len(cx.out().get_shape())
    xs = cx.xs("tensors")
    return cx.single(ge.Pack, xs, axis=d + rank if d < 0 else d, N=len(xs))


@converts("aten.split_with_sizes.default", "aten.split.Tensor")
def _split(cx: _Node) -> list[SSAValue]:
    # TorchAir: ge_converter/aten/split_with_sizes.py: SplitV(self, split_sizes, dim) ->
    # SplitVD {size_splits, split_dim, num_split}; split.py: the same with equal sizes
    rank = cx.rank("self")
    d = int(cx.a("dim"))
    d = d + rank if d < 0 else d
    types = [_tensor_type(v, cx.where) for v in cx.node.meta["val"]]
    sizes = [int(t.get_shape()[d]) for t in types]
    op = cx.emit(ge.SplitVD, cx.x("self"), types=types, size_splits=sizes, split_dim=d, num_split=len(sizes))
    return list(op.results)


@converts("aten.slice.Tensor")
def _slice(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/slice.py: StridedSliceV2(self, [start], [end], [dim],
    # [step]); an end past the dim (torch's sys.maxsize) clamps as StridedSliceV2's does
    rank = cx.rank("self")
    d = int(cx.a("dim"))
    d = d + rank if d < 0 else d
    start = int(cx.a("start")) if cx.a("start") is not None else 0
    end = cx.a("end")
    end = 2**62 if end is None or (isinstance(end, int) and end > 2**62) else int(end)
    i64 = IntegerType(64)
    ins = [cx.const([start], i64, "begin"), cx.const([end], i64, "end"), cx.const([d], i64, "axes")]
    ins.append(cx.const([int(cx.a("step") or 1)], i64, "strides"))
    return cx.single(ge.StridedSliceV2, cx.x("self"), *ins)


@converts("aten.select.int")
def _select(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/select.py: GatherV2(self, index, dim) of a 0-d index (the
    # dim dropped), index < 0 counted from the end
    rank = cx.rank("self")
    d = int(cx.a("dim"))
    d = d + rank if d < 0 else d
    i = int(cx.a("index"))
    size = cx.val("self").shape[d]
    if i < 0:
        if not _is_static(size):
            raise cx.error("a negative index into a symbolic dim is not supported")
        i += int(size)
    idx = cx.const(i, IntegerType(64), "index")
    return cx.single(ge.GatherV2, cx.x("self"), idx, cx.const(d, IntegerType(32), "dim"))


@converts("aten.embedding.default", "aten.index_select.default")
def _embedding(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/embedding.py: GatherV2(weight, indices, 0); index_select.py:
    # GatherV2(self, index, dim)
    if cx.op == "aten.embedding.default":
        return cx.single(ge.GatherV2, cx.x("weight"), cx.x("indices"), cx.const(0, IntegerType(32), "axis"))
    d = int(cx.a("dim"))
    d = d + cx.rank("self") if d < 0 else d
    return cx.single(ge.GatherV2, cx.x("self"), cx.x("index"), cx.const(d, IntegerType(32), "axis"))


@converts("aten.gather.default")
def _gather(cx: _Node) -> SSAValue:
    # TorchAir: ge_converter/aten/gather.py: GatherElements(self, index) {dim}
    d = int(cx.a("dim"))
    d = d + cx.rank("self") if d < 0 else d
    return cx.single(ge.GatherElements, cx.x("self"), cx.x("index"), dim=d)


@converts("aten._scaled_dot_product_flash_attention_for_cpu.default")
def _sdpa(cx: _Node) -> list[SSAValue]:
    # TorchAir: ge_converter/aten/_scaled_dot_product_flash_attention.py: the fused
    # FusedInferAttentionScore, which the ge dialect lacks; written as its equations in GE
    # ops: SoftmaxV2(BatchMatMulV2(q, k, adj_x2) * scale + mask) then BatchMatMulV2 with v;
    # is_causal as a Const mask of the dtype's lowest value above the diagonal. The
    # logsumexp output (training only) is refused where read.
    if cx.a("dropout_p"):
        raise cx.error("dropout_p != 0 is not supported (inference)")
    q, k, v = cx.x("query"), cx.x("key"), cx.x("value")
    elem = _element_type(q)
    qs, ks = [int(d) for d in cx.val("query").shape], [int(d) for d in cx.val("key").shape]
    scale = cx.a("scale") if cx.a("scale") is not None else 1.0 / math.sqrt(qs[-1])
    s = cx.emit(ge.BatchMatMulV2, q, k, suffix="BatchMatMulV2_qk", adj_x1=False, adj_x2=True).results[0]
    s = cx.emit(ge.Mul, s, cx.const(scale, elem, "scale"), suffix="Mul_scale").results[0]
    if cx.a("is_causal"):
        low = np.finfo(numpy_dtype(elem)).min
        mask = np.triu(np.full((qs[-2], ks[-2]), low), 1)
        s = cx.emit(ge.Add, s, cx.const(mask, elem, "causal_mask"), suffix="Add_causal").results[0]
    if cx.a("attn_mask") is not None:
        m = cx.x("attn_mask")
        if _element_type(m) == IntegerType(1):  # a bool mask: keep where true
            low = cx.const(np.finfo(numpy_dtype(elem)).min, elem, "mask_low")
            zero = cx.const(0.0, elem, "mask_zero")
            m = cx.emit(ge.SelectV2, m, zero, low, suffix="SelectV2_mask").results[0]
        s = cx.emit(ge.Add, s, m, suffix="Add_mask").results[0]
    p = cx.emit(ge.SoftmaxV2, s, suffix="SoftmaxV2", axes=[-1]).results[0]
    out = cx.emit(ge.BatchMatMulV2, p, v, types=[cx.out(0)], adj_x1=False, adj_x2=False).results[0]
    return [out, _Unused(cx, "the logsumexp of scaled_dot_product_attention")]  # type: ignore[list-item]


# -- recurrent layers ----------------------------------------------------------------------------

# mkldnn_rnn_layer's `mode`, ideep's rnn_kind (RNN_RELU 0, RNN_TANH 1, LSTM 2, GRU 3)
_MKLDNN_LSTM = 2


def _final_step(cx: _Node, seq: SSAValue, reverse: bool, what: str, t: TensorType[Attribute]) -> SSAValue:
    """The final step [1, B, H] of a recurrent op's per-step output `seq` [T, B, H], at any
    T: step T - 1, or step 0 of a reverse direction (REDIRECTIONAL writes step t at index
    t, as importers/onnx_rnn.py's bind_last reads it): StridedSliceV2 on axis 0."""
    i64 = IntegerType(64)
    begin, end = ([0], [1]) if reverse else ([-1], [2**62])
    ins = [cx.const(begin, i64, f"{what}_begin"), cx.const(end, i64, f"{what}_end"), cx.const([0], i64, f"{what}_axes")]
    return cx.emit(ge.StridedSliceV2, seq, *ins, suffix=what, types=[t]).results[0]


@converts("aten.mkldnn_rnn_layer.default")
def _mkldnn_rnn_layer(cx: _Node) -> list[SSAValue]:
    # One layer and direction of an LSTM: what torch's CPU lstm runs per layer and direction
    # (ATen: native/mkldnn/RNN.cpp: mkldnn_impl), and so what AOTAutograd captures of an
    # nn.LSTM in float32. TorchAir has no converter for it (ge_converter/aten/lstm.py leaves
    # aten.lstm unimplemented; on the NPU, torch_npu's npu_lstm is DynamicRNN): the GE op
    # importers/onnx_rnn.py makes of ONNX's LSTM (common_lstm_fusion_pass.cc:
    # CommonLSTMFusionPass::Fusion -> DynamicRNN), with torch's gate blocks i, f, g, o kept
    # by gate_order "ifjo" (rnn.h: REG_OP(DynamicRNN)): w = ConcatD(TransposeD(weight0),
    # TransposeD(weight1)) [I + H, 4H] and b = weight2 + weight3, which GE's constant folding
    # computes for frozen parameters as the fusion pass rewrites its Consts (without biases,
    # weight2 / weight3 repeat weight0 / weight1 and b is zeros); init_h, init_c = hx_, cx_.
    # The output is DynamicRNN's y, hy / cy the final step of output_h / output_c (step 0 of
    # a reverse layer: REDIRECTIONAL writes step t at index t, as importers/onnx_rnn.py's
    # bind_last reads it); the workspace (training only) is refused where read.
    mode = cx.a("mode")
    if mode != _MKLDNN_LSTM:
        raise cx.error(f"mode {mode} is not supported (only mkldnn's LSTM, mode {_MKLDNN_LSTM})")
    if cx.a("train"):
        raise cx.error("train = True is not supported (inference)")
    if cx.a("batch_sizes"):
        raise cx.error("a packed sequence (batch_sizes) is not supported")
    if cx.a("batch_first"):
        # torch's lstm transposes a batch-first input itself and passes false (mkldnn_impl);
        # the CPU kernel's own batch-first reading is not what eager torch computes
        raise cx.error("batch_first = True is not supported (the input must be time-major)")
    x = cx.x("input")
    elem = _element_type(x)
    hid = int(cx.a("hidden_size"))
    wt = [
        cx.emit(ge.TransposeD, cx.x(n), suffix=f"TransposeD_{n}", perm=[1, 0]).results[0]
        for n in ("weight0", "weight1")
    ]
    w = cx.emit(ge.ConcatD, wt, suffix="ConcatD_w", concat_dim=0, N=2).results[0]
    if cx.a("has_biases"):
        b = cx.emit(ge.Add, cx.x("weight2"), cx.x("weight3"), suffix="Add_b").results[0]
    else:
        b = cx.const(np.zeros(4 * hid), elem, "b")
    reverse = bool(cx.a("reverse"))
    rnn = cx.emit(
        ge.DynamicRNN,
        x,
        w,
        b,
        cx.x("hx_"),
        cx.x("cx_"),
        types=[cx.out(0)] * 8,
        direction="REDIRECTIONAL" if reverse else "UNIDIRECTIONAL",
        gate_order="ifjo",
        is_training=False,
    )
    last = [_final_step(cx, rnn.results[k], reverse, what, cx.out(k)) for k, what in ((1, "hy"), (2, "cy"))]
    return [rnn.results[0], *last, _Unused(cx, "the workspace of mkldnn_rnn_layer")]  # type: ignore[list-item]


@converts("aten.lstm.input", "aten.gru.input")
def _recurrent(cx: _Node) -> list[SSAValue]:
    # A whole nn.LSTM / nn.GRU, as torch.export keeps it (a converter's op is not
    # decomposed: _decomposition_table). TorchAir leaves both unimplemented
    # (ge_converter/aten/lstm.py, gru.py): the GE ops importers/onnx_rnn.py makes of ONNX's
    # LSTM and GRU, one per layer and direction (common_lstm_fusion_pass.cc:
    # CommonLSTMFusionPass::Fusion -> DynamicRNN; gru_fusion_pass.cc: GRUFusionPass::Fusion
    # -> DynamicGRUV2), with torch's gate blocks kept by gate_order (rnn.h: LSTM's i, f, g, o
    # as "ifjo"; GRU's r, z, n as "rzh", its n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
    # DynamicGRUV2's reset_after). Per layer and direction, params hold w_ih, w_hh (and
    # b_ih, b_hh with has_biases): DynamicRNN's w = ConcatD(TransposeD(w_ih),
    # TransposeD(w_hh)), b = b_ih + b_hh; DynamicGRUV2's weights TransposeD(w_ih),
    # TransposeD(w_hh), the biases as they are (zeros without); each direction's initial
    # state is its row of hx (SplitD). A bidirectional layer's two y are joined on the
    # feature axis (ConcatD, dim 2) for the next layer; hy (and cy) are the final steps
    # (step 0 of a reverse direction, as importers/onnx_rnn.py's bind_last) joined on dim 0.
    lstm = cx.op == "aten.lstm.input"
    if cx.a("train"):
        raise cx.error("train = True is not supported (inference)")
    layers, nd = int(cx.a("num_layers")), 2 if cx.a("bidirectional") else 1
    per = 4 if cx.a("has_biases") else 2
    params = cx.xs("params")
    if len(params) != layers * nd * per:
        raise cx.error(
            f"{len(params)} parameters for {layers} layer(s) of {nd} direction(s) (a projection, proj_size, "
            "is not supported)"
        )
    x = cx.x("input")
    batch_first = bool(cx.a("batch_first"))
    if batch_first:  # [B, T, I] -> the kernels' time-major [T, B, I]
        x = cx.emit(ge.TransposeD, x, suffix="TransposeD_input", perm=[1, 0, 2]).results[0]
    elem = _element_type(x)
    t, b, _ = cast(TensorType[Attribute], x.type).get_shape()
    hid = cast(TensorType[Attribute], params[1].type).get_shape()[1]  # w_hh [gates * H, H]
    state = TensorType(elem, [t, b, hid])
    one = TensorType(elem, [1, b, hid])
    initial = [cx.xs("hx")[0], cx.xs("hx")[1]] if lstm else [cx.x("hx")]
    rows = [
        list(
            cx.emit(
                ge.SplitD, v, suffix=f"SplitD_hx{k}", types=[one] * (layers * nd), split_dim=0, num_split=layers * nd
            ).results
        )
        if layers * nd > 1
        else [v]
        for k, v in enumerate(initial)
    ]
    finals: list[list[SSAValue]] = [[] for _ in initial]
    for layer in range(layers):
        last = layer == layers - 1
        ys = []
        for d in range(nd):
            k = layer * nd + d
            tag = f"l{layer}" + ("_reverse" if d else "")
            # the op giving the node's output 0 is named after the node
            own = last and nd == 1 and not batch_first
            w_ih, w_hh, *bias = params[k * per : (k + 1) * per]
            wt = [
                cx.emit(ge.TransposeD, w, suffix=f"TransposeD_{n}_{tag}", perm=[1, 0]).results[0]
                for w, n in ((w_ih, "w_ih"), (w_hh, "w_hh"))
            ]
            gates = (4 if lstm else 3) * hid
            biases = bias or [
                cx.const(np.zeros(gates), elem, f"b_ih_{tag}"),
                cx.const(np.zeros(gates), elem, f"b_hh_{tag}"),
            ]
            attrs: dict[str, Any] = {"direction": "REDIRECTIONAL" if d else "UNIDIRECTIONAL", "is_training": False}
            if lstm:
                w = cx.emit(ge.ConcatD, wt, suffix=f"ConcatD_w_{tag}", concat_dim=0, N=2).results[0]
                bsum = cx.emit(ge.Add, *biases, suffix=f"Add_b_{tag}").results[0]
                ins = [x, w, bsum, rows[0][k], rows[1][k]]
                rnn = cx.emit(ge.DynamicRNN, *ins, suffix=None if own else f"DynamicRNN_{tag}", types=[state] * 8, gate_order="ifjo", **attrs)  # fmt: skip
            else:
                ins = [x, *wt, *biases, rows[0][k]]
                rnn = cx.emit(ge.DynamicGRUV2, *ins, suffix=None if own else f"DynamicGRUV2_{tag}", types=[state] * 6, gate_order="rzh", reset_after=True, **attrs)  # fmt: skip
            ys.append(rnn.results[0])
            for j in range(len(initial)):
                finals[j].append(_final_step(cx, rnn.results[1 + j], bool(d), ("hy", "cy")[j] + f"_{tag}", one))
        if nd == 1:
            x = ys[0]
        else:
            both = TensorType(elem, [t, b, nd * hid])
            name = None if last and not batch_first else f"ConcatD_y_l{layer}"
            x = cx.emit(ge.ConcatD, ys, suffix=name, types=[both], concat_dim=2, N=2).results[0]
    if batch_first:
        x = cx.emit(ge.TransposeD, x, types=[cx.out(0)], perm=[1, 0, 2]).results[0]
    outs = [x]
    for j, got in enumerate(finals):
        what = ("hy", "cy")[j]
        if len(got) == 1:
            outs.append(got[0])
        else:
            outs.append(
                cx.emit(ge.ConcatD, got, suffix=what, types=[cx.out(1 + j)], concat_dim=0, N=len(got)).results[0]
            )
    return outs


# ---------------------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------------------


class _Unused:
    """A result of a multi-output node that has no GE value (max pool's indices): an error
    if a node reads it."""

    def __init__(self, cx: _Node, what: str):
        self.where, self.what, self.name = cx.where, what, cx.name

    def error(self) -> FxImportError:
        return FxImportError(f"{self.where}: error: node '{self.name}': {self.what} is read, which is not supported")


def _unsupported(cx: _Node) -> FxImportError:
    # the count, not the list: a line of a hundred op names hides the one that matters
    return cx.error(
        f"no converter for this ATen op ({len(CONVERTERS)} ATen ops have one: importers.fx.supported_ops())"
    )


def import_graph_module(
    gm: Any,
    consts: Mapping[str, Any] | None = None,
    name: str = "<fx>",
    *,
    names: Sequence[str] | None = None,
    skip: set[int] | frozenset[int] = frozenset(),
) -> ModuleOp:
    """The ge module of `gm`, an FX GraphModule of ATen ops (AOTAutograd's or
    torch.export's graph). `consts` maps placeholder names to their real tensors (parameters,
    buffers, lifted constants): those become ge.Const, the other placeholders ge.Data in
    order. `names`: the ge name of each placeholder in order (default: the FX names).
    `skip`: the numbers of placeholders that make no node (a symbolic size Dynamo passes
    with `dynamic=True`: the Data's `?` dim stands for it).
    Raises FxImportError (one line) for a node it cannot convert."""
    consts = consts or {}
    used: set[str] = {n.name for n in gm.graph.nodes if n.op != "placeholder"}
    imp = _Importer(name)
    top = imp.loc(name, 0)
    index = 0
    outputs: list[SSAValue] = []
    placeholder = 0
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            ge_name = names[placeholder] if names is not None else node.name
            placeholder += 1
            if placeholder - 1 in skip:
                continue
            ge_name = _ssa_name(ge_name, used)
            val = node.meta.get("val")
            if node.name in consts:
                t = consts[node.name]
                arr = _numpy(t)
                elem = _elem(val.dtype if val is not None else t.dtype, f"{name}: placeholder '{node.name}'")
                op = _const_op(arr, elem, ge_name, top)
            elif val is None or not hasattr(val, "shape"):
                raise FxImportError(f"{name}: error: placeholder '{node.name}' is not a tensor ({val!r})")
            else:
                t = _tensor_type(val, f"{name}: placeholder '{node.name}'")
                op = ge.Data.create(result_types=[t], attributes={"index": A.make_int(index)})
                op.results[0].name_hint = ge_name
                op.location = top
                index += 1
            imp.ops.append(op)
            imp.values[node.name] = op.results[0]
        elif node.op == "call_function":
            cx = _Node(imp, node)
            if node.target is operator.getitem:
                src, i = node.args
                got = imp.values[src.name]
                item = got[i] if isinstance(got, list) else None
                if isinstance(item, _Unused):
                    imp.values[node.name] = item
                elif not isinstance(item, SSAValue):
                    raise cx.error(f"getitem {i} of a node without that result")
                else:
                    imp.values[node.name] = item
                continue
            conv = CONVERTERS.get(cx.op)
            if conv is None:
                raise _unsupported(cx)
            for a in node.all_input_nodes:
                if isinstance(imp.values.get(a.name), _Unused):
                    raise imp.values[a.name].error()  # type: ignore[union-attr]
            imp.values[node.name] = conv(cx)
        elif node.op == "output":
            for v in _flatten(node.args[0]):
                if v is None:
                    continue
                got = imp.values.get(v.name) if hasattr(v, "name") else None
                if isinstance(got, _Unused):
                    raise got.error()
                if not isinstance(got, SSAValue):
                    raise FxImportError(f"{name}: error: graph output {v!r} is not a tensor the graph computes")
                outputs.append(got)
        elif node.op == "get_attr":
            # a tensor the graph module holds (AOTAutograd keeps a traced constant, such as
            # GPT-2's masked_bias, as `_tensor_constantK`): a ge.Const, as a lifted constant
            # placeholder of torch.export is
            t: Any = gm
            for part in str(node.target).split("."):
                t = getattr(t, part, None)
            if not hasattr(t, "shape") or not hasattr(t, "dtype"):
                raise FxImportError(f"{name}: error: FX node '{node.name}' (get_attr) is not a tensor")
            op = _const_op(_numpy(t), _elem(t.dtype, f"{name}: get_attr '{node.name}'"), node.name, top)
            imp.ops.append(op)
            imp.values[node.name] = op.results[0]
        else:
            raise FxImportError(f"{name}: error: FX node '{node.name}' ({node.op}) is not supported")
    net = ge.NetOutput.create(operands=outputs)
    net.location = top
    imp.ops.append(net)
    graph = ge.GraphOp("main", Region(Block(imp.ops)), {A.SINGLE_OP_SCENE: A.bool_attr(False)})
    module = ModuleOp([graph])
    try:
        graph.verify_()
    except (VerifyException, LocatedError) as e:
        raise FxImportError(f"{name}: error: the imported graph does not verify: {e}") from None
    return module


def _ssa_name(raw: str, used: set[str]) -> str:
    """A valid SSA name for `raw` (a state-dict name such as `0.weight`: characters outside
    `[A-Za-z0-9_.$-]` become `_`, a leading digit gets `n`, as importers/onnx.py names
    values), unique among `used` (`_1`, `_2`, ... on a clash)."""
    base = raw if SSAValue.is_valid_name(raw) else re.sub(r"[^A-Za-z0-9_.$-]", "_", raw)
    if not SSAValue.is_valid_name(base):
        base = "n" + base
    name, k = base, 0
    while name in used:
        k += 1
        name = f"{base}_{k}"
    used.add(name)
    return name


def _flatten(v: Any) -> list[Any]:
    if isinstance(v, list | tuple):
        return [x for item in v for x in _flatten(item)]
    return [v]


def import_exported_program(ep: Any, name: str = "<exported program>") -> ModuleOp:
    """The ge module of a torch.export ExportedProgram: its parameters, buffers and lifted
    constants become ge.Const (named by their state-dict names), the user inputs ge.Data.
    The program is lowered to ATen first (lower_to_aten), then imported
    (import_aten_program)."""
    return import_aten_program(lower_to_aten(ep), name)


def lower_to_aten(ep: Any) -> Any:
    """`ep` lowered to ATen by torch's default decompositions (`run_decompositions`, which
    traces the program again), except those of the ops a converter takes whole (TorchAir
    keeps an op its converter maps, e.g. silu as Swish). torch's set of the ops it may
    preserve is computed once per dispatcher state (importers/fx_load.py)."""
    with cia_ops_memoized():
        return ep.run_decompositions(_decomposition_table())


def import_aten_program(ep: Any, name: str = "<exported program>") -> ModuleOp:
    """The ge module of an ExportedProgram already lowered by lower_to_aten (a program
    that holds an op no converter takes fails at that op, as import_graph_module says)."""
    sig = ep.graph_signature
    consts: dict[str, Any] = {}
    ge_names: list[str] = []
    state = {**ep.state_dict, **getattr(ep, "constants", {})}
    targets = {
        **sig.inputs_to_parameters,
        **sig.inputs_to_buffers,
        **getattr(sig, "inputs_to_lifted_tensor_constants", {}),
    }
    for node in ep.graph.nodes:
        if node.op != "placeholder":
            continue
        target = targets.get(node.name)
        if target is not None:
            if target not in state:
                raise FxImportError(f"{name}: error: the program holds no value for '{target}'")
            consts[node.name] = state[target]
            ge_names.append(target)
        else:
            ge_names.append(node.name)
    return import_graph_module(ep.graph_module, consts, name, names=ge_names)


def _decomposition_table() -> dict[Any, Any]:
    import torch

    table = torch.export.default_decompositions()
    for name in CONVERTERS:
        _, op, overload = (name.split(".") + ["default"])[:3]
        packet = getattr(torch.ops.aten, op, None)
        target = getattr(packet, overload, None) if packet is not None else None
        if target is not None:
            table.pop(target, None)
    return table


def load_exported_program(path: str) -> ModuleOp:
    """The ge module of the ExportedProgram saved at `path` (`torch.export.save`, `.pt2`).
    A file torch cannot load is one FxImportError line."""
    try:
        import torch
    except ImportError:
        raise FxImportError(f"{path}: error: reading a .pt2 program needs torch (pip install -e '.[models]')") from None
    import logging

    log = logging.getLogger("torch.export")
    was = log.disabled
    log.disabled = True  # torch logs a bad archive's traceback before raising: one line here
    try:
        with schema_type_hints_cached():
            ep = torch.export.load(path)
    except FileNotFoundError:
        raise FxImportError(f"{path}: error: no such file") from None
    except Exception as e:  # torch raises many kinds for a bad archive
        raise FxImportError(f"{path}: error: not a torch.export program: {str(e).splitlines()[0]}") from None
    finally:
        log.disabled = was
    return import_exported_program(ep, path)
