"""ONNX import: an ONNX `ModelProto` (ai.onnx opsets 11 to 28, and 7 to 10 where each op is
unchanged since, see OLDEST_OPSET; static shapes) to a ge module.

    module = import_model(onnx.load("model.onnx"), "model.onnx")
    module = load_model("model.onnx", input_shapes={"x": (1, 3, 224, 224)})

The module holds one `ge.graph @main`:

* graph inputs (those without an initializer) become `ge.Data {index = k}` in order, named
  after the input (parser/onnx/onnx_parser.cc: OnnxModelParser::ParseInput);
* initializers and `Constant` nodes become `ge.Const` (the weights), made where a node
  first reads them as a tensor (ParseInitializer; kOnnxOpMap maps Constant to CONSTANT);
  one only read as a static attribute (a Reshape's shape, a Split's sizes, ...) is folded
  into that attribute and needs no node;
* graph outputs become the operands of `ge.NetOutput`, in order (ParseOutput);
* every node becomes the GE op(s) GE's ONNX plugin for its type makes
  (`ops/built-in/framework/onnx_plugin/*_plugin.cc`; each converter below cites its
  plugin). Where a plugin makes a "non-D" op whose extra input is a Const (Transpose's
  perm, ReduceSum's axes, Split's split_dim) GE's constant-to-attribute step turns it into
  the D form the ge dialect has (TransposeD, ReduceSumD, SplitD/SplitVD); the importer
  writes that D form directly.

Names: a node's ge name (its first result's SSA name) is its ONNX name, or for an unnamed
node `<OpType>_<k>` as GE names it (onnx_parser.cc: AdaptAndFindAllOnnxGraph), made valid
as an SSA name (characters outside `[A-Za-z0-9_.$-]` become `_`) and unique (`_1`, `_2`,
... on a clash); when that changes the name, the original is kept in the `onnx_name`
attribute. A node GE maps to several ops names the op that yields its output after the
node and the others `<name>_<what>` (e.g. `conv_Conv2D` before `conv`'s Squeeze).
Locations: every op made for an ONNX node carries the node (`MODEL: node 'NAME' (OpType)`
when printed; its position, from 1, kept in the location: ge_dialect/diagnostics.py
element_location); a Data its input (`MODEL: input 'x'`), a Const its initializer or
Constant node, the NetOutput and the graph the ONNX graph: an error or remark of any later
pass, or of the simulator, names the node, never a line and column of the binary file.

Shapes are static: every graph input needs a full shape (`input_shapes` fixes dynamic or
missing ones) and ONNX's shape inference (strict mode) gives every other value its type;
a value whose shape stays dynamic is a located error at the node that makes it. With
`dynamic_dims` (ge-import/ge-opt/ge-run --dynamic-dims) a named or unknown dim stays
unknown instead, `?` (GE's -1), through the inputs and every value inference gives it to. Inputs
that are attributes in GE (and in older opsets), such as Split's `split`, Reduce*'s `axes`,
Expand's `shape`, Squeeze's and Unsqueeze's `axes`, are folded in when they are initializers
or `Constant` outputs. Computed in the graph (PyTorch's flatten, expand_as, x[:, :n],
interpolate: Shape -> Gather -> Unsqueeze -> Concat -> ...), they stay inputs of the GE op
that takes them (Reshape, Expand, StridedSliceV2, Tile, PadV3, SqueezeV3, UnsqueezeV3,
ReduceXxx, SplitV, Resize; VALUE_INPUTS), and GE's graph preparation folds them and the
dims ONNX's inference left unknown (passes/prepare/: ge-infer-shape-for-preprocess,
ge-const-to-attr); a dim whose value arrives with the data stays a dynamic shape. Inputs
that choose the mapping (Dropout's training_mode, ...) stay constants only.

Errors are one line, `MODEL: node 'NAME' (OpType): error: ...` (or `MODEL: input 'x':
error: ...`, `MODEL: error: ...` for the file), raised as `OnnxImportError`: an op we do not
support (the message lists the ones we do, and what GE maps it to), an attribute value we
do not support, a dynamic or missing dimension, a negative dim other than -1, a value with
two producers, a constant index out of range of an index op, a shape-inference failure
(the cause given), a truncated or non-ONNX file, missing external data, an opset outside
11-28 (or an op version whose semantics changed). Sparse initializers are imported as the dense tensors they stand for.

Where this departs from GE's plugins it says so at the converter: ONNX's default perm of
Transpose (GE's plugin refuses an empty perm), Gemm's C of another shape than [N] (MatMul
then Add) and its alpha and beta (Mul by a Const; the plugin drops them), negative indices
(Gather's GatherV2 with negative_index_support; GatherElements' and the scatters' indices
made non-negative by SelectV2 first), ArgMax/ArgMin's select_last_index, Shape's start/end,
Trilu's k from data, Mod on the narrow integer types, IsInf of one sign, integer Div (GE's
Div, as RealDiv is float-only here), MatMul's BatchMatMulV2 on two 2-D inputs written as
the dialect's 2-D MatMul, Sum/Mean's AccumulateNV2 as AddN, Mean's Muls as a Mul by a scalar
Const, Clip's missing bound as the dtype's lowest/highest value (the
plugin casts x to float32), Mod with fmod = 0 as FloorMod (the plugin ignores fmod),
Softmax/LogSoftmax of opsets 11-12 over the coerced trailing axes, Pow with an exponent of
another dtype through Casts, ArgMin's int32 indices cast to ONNX's int64 and the reduced axis
as ExpandDims's axis, Trilu's constant k as the diagonal, the global pools' ksize
[1, 1, -1, -1] written as the plane's size, Pad-18's axes folded into full-rank paddings, a
SAME_LOWER pool refused where GE's SAME would pad the other side; LayerNormalization, Gelu
and Mish have no plugin in the public copy and become GE's LayerNorm, Gelu (or Erf and
arithmetic for the exact Gelu) and Mish. The plugins of the public copy register opsets 8 to
15; the same mappings serve 16 to 21 where the op's semantics did not change (the converters
read the later opsets' input forms of axes, split, shape and pads). LSTM, GRU and RNN are
importers/onnx_rnn.py's (its docstring says where it goes beyond GE's fusion passes).
importers/onnx_more_ops.py holds the ops added for ONNX's node tests and says the same at each.
"""

from __future__ import annotations

import collections.abc
import functools
import math
import mmap
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, cast

import ml_dtypes
import numpy as np
import onnx
from onnx import external_data_helper, numpy_helper
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    Signedness,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.diagnostics import LocatedError, element_location
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.weights import weight_bytes

__all__ = [
    "MAPPINGS",
    "MAX_OPSET",
    "MIN_OPSET",
    "OLDEST_OPSET",
    "Mapping",
    "OnnxImportError",
    "import_model",
    "load_model",
    "parse_input_shape",
    "supported_ops",
]

MIN_OPSET = 11
# The newest ai.onnx opset both the installed onnx (onnx.defs.onnx_opset_version()) and
# onnxruntime run (onnxruntime 1.32 loads opset 28 and refuses 29); the op versions
# between 21 and 28 change types only (bfloat16, float4/6/8, int2/4: outside the dtypes
# imported here), except Cast-24 (round_mode, for float8e8m0 only: not a GE dtype),
# Mod-28 (its documentation only) and Range-27 (stash_type for float16 / bfloat16, which
# Range takes from 27 on: refused, see _range). tests/importers/test_onnx_opsets.py checks
# the table against onnx.defs and onnxruntime.
MAX_OPSET = 28
# Older opsets (onnxruntime guarantees 7 and up): a model of opset 7 to 10 is imported as
# opset MIN_OPSET where every op it uses has, at its opset, the version it has at MIN_OPSET
# (onnx.defs: the same since_version, so the same semantics: And-7, Xor-7, Shrink-9,
# ReverseSequence-10, ...); a node whose op is older (Upsample-9, Slice-1, Pad-2, ...) is
# refused, naming the op and both versions (`check_old_op_version`). Beyond GE: its parser
# takes the plugins' registered opsets (8 to 18), which leave the version to each plugin.
OLDEST_OPSET = 7
_DEFAULT_DOMAINS = ("", "ai.onnx")


class OnnxImportError(DiagnosticException):
    """An ONNX model the importer cannot turn into a ge module; `str()` is the one line."""

    def __init__(self, message: str):
        message = " ".join(message.split())  # always one line
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


# ---------------------------------------------------------------------------------------
# Data types
# ---------------------------------------------------------------------------------------

_T = onnx.TensorProto
# ONNX element type -> MLIR element type (the ge dialect's GE types, ge_dialect/dtypes.py).
_ELEM: dict[int, Attribute] = {
    _T.FLOAT: Float32Type(),
    _T.FLOAT16: Float16Type(),
    _T.DOUBLE: Float64Type(),
    _T.BFLOAT16: BFloat16Type(),
    # GE's float8 types (types.h: DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2); ONNX's FNUZ variants
    # have no GE type
    _T.FLOAT8E4M3FN: Float8E4M3FNType(),
    _T.FLOAT8E5M2: Float8E5M2Type(),
    _T.BOOL: IntegerType(1),
    _T.INT8: IntegerType(8),
    _T.INT16: IntegerType(16),
    _T.INT32: IntegerType(32),
    _T.INT64: IntegerType(64),
    _T.UINT8: IntegerType(8, Signedness.UNSIGNED),
    _T.UINT16: IntegerType(16, Signedness.UNSIGNED),
    _T.UINT32: IntegerType(32, Signedness.UNSIGNED),
    _T.UINT64: IntegerType(64, Signedness.UNSIGNED),
}
_FLOATS = frozenset({_T.FLOAT, _T.FLOAT16, _T.DOUBLE, _T.BFLOAT16, _T.FLOAT8E4M3FN, _T.FLOAT8E5M2})
# GE's DataType numbers of the ONNX types Cast may target.
# cast_plugin.cc: g_data_type_dic / TransDataTypeFromOnnxToOm (no bf16, string is refused here)
_GE_DATATYPE: dict[int, int] = {
    _T.FLOAT: 0, _T.FLOAT16: 1, _T.INT8: 2, _T.INT32: 3, _T.UINT8: 4, _T.INT16: 6,
    _T.UINT16: 7, _T.UINT32: 8, _T.INT64: 9, _T.UINT64: 10, _T.DOUBLE: 11, _T.BOOL: 12,
}  # fmt: skip


def _dtype_name(code: int) -> str:
    return _T.DataType.Name(code) if code in _T.DataType.values() else f"<data type {code}>"


def _supported_dtypes() -> str:
    return ", ".join(_T.DataType.Name(c).lower() for c in _ELEM)


# ---------------------------------------------------------------------------------------
# The mapping table: every ai.onnx op the issue names, with GE's type(s) and plugin file
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mapping:
    """One ai.onnx op: the GE op type(s) its plugin makes, the plugin file, and, for an op
    the ge dialect cannot express yet, the ge op(s) it needs (`needs`)."""

    onnx_op: str
    ge_ops: str
    plugin: str
    needs: str = ""


def _table(rows: str) -> dict[str, Mapping]:
    out: dict[str, Mapping] = {}
    for line in rows.strip().splitlines():
        onnx_op, ge_ops, plugin, needs = (c.strip() for c in (line.split("|") + [""])[:4])
        out[onnx_op] = Mapping(onnx_op, ge_ops, plugin, needs)
    return out


# ONNX op | GE op(s) the plugin makes | plugin file | ge op(s) still needed (empty: imported);
# importers/onnx_more_ops.py adds its ops' rows
MAPPINGS: dict[str, Mapping] = _table(
    """
    Abs | Abs | similar_opp_plugins.cc
    Add | Add | similar_opp_plugins.cc
    Cast | Cast (to float8 with saturate: ClipByValue, Cast; beyond the plugin) | cast_plugin.cc
    Concat | ConcatD (one input: Identity) | concat_plugin.cc
    Constant | Const | onnx_parser.cc (kOnnxOpMap)
    Conv | Conv2D (1-D: Unsqueeze, Conv2D, Squeeze) | conv_plugin.cc
    Div | RealDiv | similar_opp_plugins.cc
    Exp | Exp | similar_opp_plugins.cc
    Expand | Expand (a constant or folded shape: BroadcastToD) | similar_opp_plugins.cc
    Flatten | Flatten | flatten_plugin.cc
    Gather | GatherV2 (Const axis, negative_index_support) | gather_plugin.cc
    Gemm | MatMulV2 (alpha, beta != 1: Mul, Add) | gemm_plugin.cc
    Identity | Identity | similar_opp_plugins.cc
    If | If (then_branch subgraph 0, else_branch 1) | if_plugin (ops repository); parser: subgraph_adapter/if_subgraph_adapter.cc
    Loop | While over a trip counter and condition (ours: no plugin in the public copy, no parser adapter) | -
    Log | Log | similar_opp_plugins.cc
    MatMul | BatchMatMulV2 (2-D: MatMul) | matmul_plugin.cc
    Max | Maximum chain (one input: Identity) | max_plugin.cc
    Mean | AccumulateNV2, Muls | mean_plugin.cc
    Min | Minimum chain (one input: Identity) | min_plugin.cc
    Mul | Mul | similar_opp_plugins.cc
    Neg | Neg | similar_opp_plugins.cc
    Pow | Pow | similar_opp_plugins.cc
    Reciprocal | Reciprocal | similar_opp_plugins.cc
    ReduceLogSum | ReduceSum, Log | reduce_log_sum_plugin.cc
    ReduceLogSumExp | Exp, ReduceSum, Log | reduce_log_sum_exp_plugin.cc
    ReduceMax | ReduceMax (Const axes) | reduce_max_plugin.cc
    ReduceMean | ReduceMean (Const axes) | reduce_mean_plugin.cc
    ReduceMin | ReduceMin (Const axes) | reduce_min_plugin.cc
    ReduceProd | ReduceProd (Const axes) | reduce_prod_plugin.cc
    ReduceSum | ReduceSum (Const or folded axes: ReduceSumD) | reduce_sum_plugin.cc
    Relu | Relu | similar_opp_plugins.cc
    Reshape | Reshape | reshape_plugin.cc
    Shape | Shape | shape_plugin.cc
    Sigmoid | Sigmoid | similar_opp_plugins.cc
    Split | Split / SplitV (Const split_dim; Const or folded size_splits: SplitVD) | split_plugin.cc
    Sqrt | Sqrt | similar_opp_plugins.cc
    Squeeze | Squeeze (opset 13+: SqueezeV3) | squeeze_plugin.cc
    Sub | Sub | similar_opp_plugins.cc
    Sum | AccumulateNV2 | sum_plugin.cc
    Tanh | Tanh | similar_opp_plugins.cc
    Transpose | Transpose (Const perm) | transpose_plugin.cc
    Unsqueeze | Unsqueeze (opset 13+: UnsqueezeV3) | unsqueeze_plugin.cc
    And | LogicalAnd | similar_opp_plugins.cc
    ArgMax | ArgMaxV2 (Const dimension), ExpandDims | argmax_plugin.cc
    ArgMin | ArgMin (Const dimension), ExpandDims, Cast | argmin_plugin.cc
    AveragePool | AvgPoolV2 (1-D: Unsqueeze, AvgPoolV2, Squeeze) | average_pool_plugin.cc
    BatchNormalization | BatchNorm (inference) | batch_normalization_plugin.cc
    Ceil | Ceil | similar_opp_plugins.cc
    Celu | Celu | celu_plugin.cc
    Clip | ClipByValue | clip_plugin.cc
    ConstantOfShape | Fill (dims, Const value) | constantofshape_plugin.cc
    ConvTranspose | Conv2DTranspose (1-D: Unsqueeze, Conv2DTranspose, Squeeze) | conv_transpose_plugin.cc
    Cos | Cos | similar_opp_plugins.cc
    Dropout | Dropout (inference; mask: a Const of ones) | similar_opp_plugins.cc
    Einsum | Einsum | einsum_plugin.cc | Einsum
    Elu | Elu | elu_plugin.cc
    Equal | Equal | similar_opp_plugins.cc
    Erf | Erf | similar_opp_plugins.cc
    Floor | Floor | similar_opp_plugins.cc
    GatherElements | GatherElements (negative indices: Less, Add, SelectV2) | gather_elements_plugin.cc
    Gelu | Gelu (tanh); Mul, Erf, Add (none) (no plugin in the public copy) | -
    GlobalAveragePool | AvgPool | global_average_pool_plugin.cc
    GlobalMaxPool | MaxPool | global_max_pool_plugin.cc
    Greater | Greater | similar_opp_plugins.cc
    GreaterOrEqual | GreaterEqual | similar_opp_plugins.cc
    HardSigmoid | HardSigmoid | hard_sigmoid_plugin.cc
    HardSwish | HardSwish | similar_opp_plugins.cc
    IsInf | IsInf | isinf_plugin.cc
    IsNaN | IsNan | similar_opp_plugins.cc
    LayerNormalization | LayerNorm (no plugin in the public copy) | -
    LeakyRelu | LeakyRelu | leakyrelu_plugin.cc
    Less | Less | similar_opp_plugins.cc
    LessOrEqual | LessEqual | similar_opp_plugins.cc
    LogSoftmax | LogSoftmaxV2 | logsoftmax_plugin.cc
    LpNormalization | LpNorm, Div | lp_normalization_plugin.cc | LpNorm
    LRN | LRN | lrn_plugin.cc | LRN
    MaxPool | MaxPoolV3 (1-D: Unsqueeze, MaxPoolV3, Squeeze) | max_pool_plugin.cc
    MeanVarianceNormalization | MVNV2 | mean_variance_normalization_plugin.cc | MVNV2
    Mish | Mish (no plugin in the public copy) | -
    Mod | Mod (fmod = 0 on integers: FloorMod) | mod_plugin.cc
    Not | LogicalNot | similar_opp_plugins.cc
    OneHot | OneHot | onehot_plugin.cc | OneHot
    Or | LogicalOr | similar_opp_plugins.cc
    Pad | PadV3 (paddings) | pad_plugin.cc
    Range | Range | similar_opp_plugins.cc
    Resize | ResizeNearestNeighborV2 / ResizeBilinearV2 (Const size), else Resize (cubic, tf_crop_and_resize, scales from data: beyond the plugin) | resize_plugin.cc
    Round | Round | similar_opp_plugins.cc
    Selu | Selu (other alpha, gamma: Elu, Mul; beyond the plugin) | selu_plugin.cc
    Sign | Sign | similar_opp_plugins.cc
    Sin | Sin | similar_opp_plugins.cc
    Size | Size | size_plugin.cc
    Slice | StridedSliceV2 (begin, end, axes, strides) | slice_plugin.cc
    Softmax | SoftmaxV2 | softmax_plugin.cc
    Softplus | Softplus | similar_opp_plugins.cc
    Softsign | Softsign | similar_opp_plugins.cc
    Tile | Tile (multiples) | similar_opp_plugins.cc
    TopK | TopK | topk_plugin.cc | TopK
    Trilu | Tril / Triu | trilu_plugin.cc
    Where | SelectV2 | similar_opp_plugins.cc
    LSTM | DynamicRNN per direction (CommonLSTMFusionPass), ExpandDims, StridedSliceV2, ConcatD | lstm_plugin.cc
    GRU | DynamicGRUV2 per direction (GRUFusionPass), ExpandDims, StridedSliceV2, ConcatD | gru_plugin.cc
    RNN | MatMul, SplitD, per step MatMul, Add, activation; Pack (no plugin in the public copy) | -
    """
)


# The inputs whose values (not only dims) set an op's output shape: op type -> positions.
# They may be computed in the graph (a Reshape's or an Expand's shape, Slice's
# starts/ends/axes/steps, Tile's repeats, Pad's pads, the axes, Split's split, Resize's
# scales and sizes): imported as the GE op that takes the value as an input, for GE's graph
# preparation to fold (passes/prepare/), or to read when it runs.
VALUE_INPUTS: dict[str, tuple[int, ...]] = {
    "Reshape": (1,), "Expand": (1,), "Slice": (1, 2, 3, 4), "Tile": (1,), "Pad": (1,), "Squeeze": (1,),
    "Unsqueeze": (1,), "ReduceSum": (1,), "ReduceMax": (1,), "ReduceMin": (1,), "ReduceMean": (1,),
    "ReduceProd": (1,), "Split": (1,), "Resize": (2, 3), "ConstantOfShape": (0,), "Range": (0, 1, 2),
    "ReduceL1": (1,), "ReduceL2": (1,), "ReduceSumSquare": (1,), "ReduceLogSum": (1,), "ReduceLogSumExp": (1,),
}  # fmt: skip


# ---------------------------------------------------------------------------------------
# Loading a file
# ---------------------------------------------------------------------------------------


def load_model(
    path: str,
    input_shapes: collections.abc.Mapping[str, Sequence[int]] | None = None,
    name: str | None = None,
    dynamic_dims: bool = False,
    data: bytes | None = None,
    tensors: dict[str, SSAValue] | None = None,
) -> ModuleOp:
    """Read the ONNX file at `path` (with its external data, next to it) and import it
    (`dynamic_dims`: see import_model). `data`: the file's bytes, when the caller has read
    them (the tools read an input with a cap on its size: ge_tools/parse.py read_capped).
    `tensors`, when given, receives the ge value of each ONNX tensor of the main graph that
    became one (by ONNX name): runtime/anchored.py judges onnxruntime's intermediate values
    there."""
    name = name or path
    aside: dict[str, bytes] = {}
    if data is None:
        try:
            with open(path, "rb") as f:
                data, aside = _read_without_large_raw_data(f)
        except OSError as e:
            raise OnnxImportError(f"{name}: error: cannot read the model: {e.strerror or e}") from None
    model = parse_model_bytes(data, name)
    del data  # the file's bytes (when this function read them) go once decoded: weights are held once
    weights = load_external_data(model, os.path.dirname(os.path.abspath(path)), name)
    return _import(model, name, input_shapes, dynamic_dims, {**aside, **weights}, tensors)


# An initializer's raw data of at least this many bytes is read straight from the file into
# its own bytes object (_read_without_large_raw_data), never through the protobuf.
_RAW_ASIDE_BYTES = 64 * 1024


def _varint(buf: bytes | mmap.mmap, pos: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def _fields(buf: bytes | mmap.mmap, start: int, end: int) -> Iterable[tuple[int, int, int, int, int]]:
    """The protobuf fields in buf[start:end]: (number, wire type, field start, value
    start, value end); a length-delimited value's range is its bytes."""
    pos = start
    while pos < end:
        tag, p = _varint(buf, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            v0, v1 = p, _varint(buf, p)[1]
        elif wire == 1:
            v0, v1 = p, p + 8
        elif wire == 2:
            n, v0 = _varint(buf, p)
            v1 = v0 + n
        elif wire == 5:
            v0, v1 = p, p + 4
        else:
            raise ValueError(f"wire type {wire}")
        if v1 > end:
            raise ValueError("a field past its message")
        yield number, wire, pos, v0, v1
        pos = v1


def _len_field(number: int, payload: bytes) -> bytes:
    out = bytearray()
    for v in ((number << 3) | 2, len(payload)):
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
    return bytes(out) + payload


def _read_without_large_raw_data(f: BinaryIO) -> tuple[bytes, dict[str, bytes]]:
    """The model file's protobuf bytes without the raw data of its main graph's large
    initializers, and those raw data by initializer name, each read from the file into
    one bytes object (no protobuf copy, no second buffer): a model's weights are held
    once. Read through a memory map of the file's structure (the weights' pages are never
    touched by it). Anything unexpected (not a regular file, a field this walk does not
    know): the whole file, and nothing aside, for the protobuf to judge."""
    got = _spans_of_file(f)
    if got is None:  # (the file's position is untouched: a pipe reads on)
        return f.read(), {}
    data, spans = got
    aside: dict[str, bytes] = {}
    for name, (start, end) in spans.items():
        f.seek(start)
        aside[name] = f.read(end - start)
        if len(aside[name]) != end - start:  # the file changed under the walk
            f.seek(0)
            return f.read(), {}
    return data, aside


def _spans_of_file(f: BinaryIO) -> tuple[bytes, dict[str, tuple[int, int]]] | None:
    """_without_large_raw_data over a memory map of the open model file `f`; None where
    the walk does not apply (not a regular file, an empty one, a field it does not know)."""
    try:
        size = os.fstat(f.fileno()).st_size
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else None
    except (OSError, ValueError):
        return None
    if mm is None:
        return None
    with mm:
        try:
            return _without_large_raw_data(mm)
        except (ValueError, IndexError, UnicodeDecodeError):
            return None


def _without_large_raw_data(mm: mmap.mmap) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """The model's protobuf bytes without the raw data of its main graph's large
    initializers, and where each of those raw data lies in the file ([start, end) by
    initializer name)."""
    # onnx.proto: ModelProto.graph = 7; GraphProto.initializer = 5; TensorProto.name = 8,
    # raw_data = 9
    spans: dict[str, tuple[int, int]] = {}
    model_parts: list[bytes] = []
    for number, wire, fstart, vstart, vend in _fields(mm, 0, len(mm)):
        if number != 7 or wire != 2 or vend - vstart < _RAW_ASIDE_BYTES:
            model_parts.append(mm[fstart:vend])
            continue
        graph_parts: list[bytes] = []
        last = vstart
        for gnum, gwire, gstart, gv0, gv1 in _fields(mm, vstart, vend):
            if gnum != 5 or gwire != 2 or gv1 - gv0 < _RAW_ASIDE_BYTES:
                continue
            raw, name, keep = None, None, []
            for tnum, twire, tstart, tv0, tv1 in _fields(mm, gv0, gv1):
                if tnum == 9 and twire == 2 and tv1 - tv0 >= _RAW_ASIDE_BYTES:
                    raw = (tv0, tv1)
                    continue
                if tnum == 8 and twire == 2:
                    name = mm[tv0:tv1].decode("utf-8")
                keep.append(mm[tstart:tv1])
            if raw is None or name is None or name in spans:
                continue
            spans[name] = raw
            graph_parts.append(mm[last:gstart])
            graph_parts.append(_len_field(5, b"".join(keep)))
            last = gv1
        graph_parts.append(mm[last:vend])
        model_parts.append(_len_field(7, b"".join(graph_parts)))
    return b"".join(model_parts), spans


def large_raw_data_spans(path: str) -> tuple[bytes, dict[str, tuple[int, int]]] | None:
    """The model file's protobuf bytes without its main graph's large raw data, and where
    in the file each of those lies (by initializer name), read through a memory map of the
    file's structure (the weights' pages untouched); None where the walk does not apply
    (then read the whole file)."""
    try:
        with open(path, "rb") as f:
            return _spans_of_file(f)
    except OSError:
        return None


def parse_model_bytes(data: bytes, name: str) -> onnx.ModelProto:
    """A ModelProto from the file's bytes; a truncated or non-ONNX file is an error."""
    if not data:
        raise OnnxImportError(f"{name}: error: the file is empty, not an ONNX model")
    model = onnx.ModelProto()
    try:
        model.ParseFromString(data)
    except Exception as e:  # google.protobuf.message.DecodeError (and upb's variants)
        raise OnnxImportError(
            f"{name}: error: not an ONNX model, or a truncated one: the protobuf does not decode ({e})"
        ) from None
    if model.ir_version <= 0 or not model.HasField("graph") or not model.opset_import:
        missing = [
            what
            for what, ok in (
                ("ir_version", model.ir_version > 0),
                ("graph", model.HasField("graph")),
                ("opset_import", bool(model.opset_import)),
            )
            if not ok
        ]
        raise OnnxImportError(f"{name}: error: not an ONNX model: the file decodes, but has no {', '.join(missing)}")
    return model


def _all_tensors(model: onnx.ModelProto) -> Iterable[tuple[str, onnx.TensorProto]]:
    """(how errors name it, tensor) for the initializers and the nodes' tensor attributes."""
    for t in model.graph.initializer:
        yield f"initializer '{t.name}'", t
    for node in model.graph.node:
        for a in node.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                yield f"node '{node.name}' ({node.op_type})", a.t


def load_external_data(model: onnx.ModelProto, base_dir: str, name: str) -> dict[str, bytes]:
    """Read every tensor stored outside the model (ONNX's external data): an initializer's
    bytes are returned (name -> bytes: they become its ge.Const's value as read, no copy
    into the protobuf and out again), a node attribute's are put into the model.

    The data file must lie in the model's folder (or below it) and hold the tensor's
    bytes at `offset`/`length`; anything else is an error naming the tensor."""
    aside: dict[str, bytes] = {}
    for what, t in _all_tensors(model):
        if t.data_location != _T.EXTERNAL:
            continue
        where = f"{name}: {what}: error:"
        try:
            info = external_data_helper.ExternalDataInfo(t)
        except ValueError as e:
            raise OnnxImportError(f"{where} bad external data entry: {e}") from None
        loc = info.location
        if not loc:
            raise OnnxImportError(f"{where} external data without a 'location'")
        path = os.path.normpath(os.path.join(base_dir, loc))
        if os.path.isabs(loc) or not (path + os.sep).startswith(os.path.normpath(base_dir) + os.sep):
            raise OnnxImportError(f"{where} external data location '{loc}' is outside the model's folder")
        want = _tensor_nbytes(t)
        if want is not None and info.length is not None and info.length != want:
            raise OnnxImportError(
                f"{where} external data entry says {info.length} bytes, a {_dtype_name(t.data_type).lower()} "
                f"tensor of shape {list(t.dims)} has {want}"
            )
        # read what the tensor holds (one byte more tells a longer file), never a whole
        # file of unknown size: a location naming a device or an enormous file is no tensor
        # (a dtype without a size here is refused later, when the initializer is read)
        count = info.length if info.length is not None else (want + 1 if want is not None else 0)
        try:
            with open(path, "rb") as f:
                if info.offset:
                    f.seek(info.offset)
                raw = f.read(count)
        except FileNotFoundError:
            raise OnnxImportError(f"{where} external data file '{loc}' is missing (looked in {base_dir})") from None
        except OSError as e:
            raise OnnxImportError(f"{where} cannot read external data file '{loc}': {e.strerror or e}") from None
        if info.length is not None and len(raw) < info.length:
            raise OnnxImportError(
                f"{where} external data file '{loc}' holds {len(raw)} bytes at offset {info.offset or 0}, "
                f"the tensor says {info.length} (truncated?)"
            )
        if want is not None and len(raw) != want:
            raise OnnxImportError(
                f"{where} external data file '{loc}' gives {len(raw)} bytes, a {_dtype_name(t.data_type).lower()} "
                f"tensor of shape {list(t.dims)} has {want}"
            )
        del t.external_data[:]
        t.data_location = _T.DEFAULT
        if what.startswith("initializer ") and t.data_type != _T.BOOL:
            aside[t.name] = raw
        else:
            t.raw_data = raw
    return aside


def _tensor_nbytes(t: onnx.TensorProto) -> int | None:
    try:
        itemsize = onnx.helper.tensor_dtype_to_np_dtype(t.data_type).itemsize
    except Exception:
        return None
    if t.data_type in (_T.STRING,) or t.data_type not in _ELEM:
        return None
    return math.prod(t.dims) * itemsize


def parse_input_shape(spec: str) -> tuple[str, tuple[int, ...]]:
    """`NAME=1x3x224x224` (or `NAME=1,3,224,224`; `NAME=` for a 0-d input) -> (NAME, dims)."""
    if "=" not in spec:
        raise ValueError(f"'{spec}' is not NAME=DIMS (e.g. x=1x3x224x224)")
    name, dims = spec.rsplit("=", 1)
    if not name:
        raise ValueError(f"'{spec}' has no input name before '='")
    parts = [p for p in re.split(r"[x,]", dims.strip())] if dims.strip() else []
    out = []
    for p in parts:
        if not p.strip().isdigit():
            raise ValueError(f"'{spec}': dim '{p}' is not a non-negative integer")
        out.append(int(p))
    return name, tuple(out)


# ---------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------


def import_model(
    model: onnx.ModelProto,
    name: str = "model.onnx",
    input_shapes: collections.abc.Mapping[str, Sequence[int]] | None = None,
    dynamic_dims: bool = False,
) -> ModuleOp:
    """The ge module of `model` (not modified); `name` is the model's name in errors and
    locations. External data must already be loaded (`load_model` does it).
    `dynamic_dims`: a named (dim_param, e.g. batch 'N') or unknown dim of a graph input
    that `input_shapes` does not fix stays unknown, `?` (GE's -1, as ATC's --input_shape
    with -1 and onnxruntime's free dimensions), and ONNX's shape inference carries it
    through the graph; without it such a dim is an error naming --input-shape."""
    own = onnx.ModelProto()
    own.CopyFrom(model)
    for what, t in _all_tensors(own):
        if t.data_location == _T.EXTERNAL:
            raise OnnxImportError(
                f"{name}: {what}: error: its data is external and was not loaded (use load_model with the model's path)"
            )
    return _import(own, name, input_shapes, dynamic_dims)


def default_opset(model: onnx.ModelProto, name: str) -> int:
    """The model's ai.onnx opset; outside OLDEST_OPSET..MAX_OPSET is an error."""
    versions = [o.version for o in model.opset_import if o.domain in _DEFAULT_DOMAINS]
    if not versions:
        raise OnnxImportError(f"{name}: error: the model imports no ai.onnx opset (opset_import has none)")
    v = versions[0]
    if not OLDEST_OPSET <= v <= MAX_OPSET:
        raise OnnxImportError(
            f"{name}: error: ai.onnx opset {v} is outside the supported range {OLDEST_OPSET}-{MAX_OPSET} "
            "(convert it with onnx.version_converter first)"
        )
    return v


# Ops of opsets 7 to 10 that ONNX renamed by opset 11, the semantics unchanged (ONNX's
# Changelog: Scatter-9 became ScatterElements-11, Scatter-11 only deprecates it): imported
# as the later op.
OLD_OP_RENAMES: dict[str, str] = {"Scatter": "ScatterElements"}


def check_old_op_version(op_type: str, opset: int) -> str | None:
    """For a model of an opset below MIN_OPSET: None where `op_type` has at `opset` the
    version it has at MIN_OPSET (unchanged since: imported as at MIN_OPSET), else why not."""
    if op_type in OLD_OP_RENAMES:
        return None  # the same op under its later name (OLD_OP_RENAMES)
    try:
        old = onnx.defs.get_schema(op_type, opset).since_version
        now = onnx.defs.get_schema(op_type, MIN_OPSET).since_version
    except onnx.defs.SchemaError:
        return None  # no such op at one of the opsets: the op's own check refuses it
    if old == now:
        return None
    return (
        f"{op_type}-{old} (opset {opset}) is not supported: the op changed to {op_type}-{now} by opset "
        f"{MIN_OPSET}, the oldest whose ops are mapped (convert the model with onnx.version_converter)"
    )


def _import(
    model: onnx.ModelProto,
    name: str,
    input_shapes: collections.abc.Mapping[str, Sequence[int]] | None,
    dynamic_dims: bool = False,
    weights: dict[str, bytes] | None = None,
    tensors: dict[str, SSAValue] | None = None,
) -> ModuleOp:
    """`weights`: initializers' bytes read aside (load_external_data), by name; `tensors`:
    see load_model."""
    opset = default_opset(model, name)
    graph = model.graph
    _name_unnamed_nodes(graph)
    _densify_sparse_initializers(graph, name)
    init_names = {t.name for t in graph.initializer}
    _check_graph_structure(graph, init_names, name)
    _fix_input_shapes(graph, init_names, dict(input_shapes or {}), name, dynamic_dims)
    if not dynamic_dims:
        for pre in STATIC_PRE_INFERENCE:
            pre(model, name)
    weights = _take_raw_weights(graph, dict(weights or {}))
    inferred = _infer_types(model, name, dynamic_dims)
    # an older opset reads as MIN_OPSET: each op's version is checked against it (convert_node)
    imp = _Importer(
        name, max(opset, MIN_OPSET), inferred, dynamic_dims=dynamic_dims, model_opset=opset, weights=weights
    )
    imp.checker_ctx.ir_version = model.ir_version
    imp.checker_ctx.opset_imports = {o.domain: o.version for o in model.opset_import}
    module = imp.run(graph)
    if tensors is not None:
        tensors.update((n, v.ssa) for n, v in imp.values.items() if v.ssa is not None)
    return module


def _take_raw_weights(graph: onnx.GraphProto, weights: dict[str, bytes]) -> dict[str, bytes]:
    """`weights` and the raw data of every initializer larger than a shape value (_SMALL
    elements), taken out of the protobuf: each is one `bytes` object, which becomes its
    ge.Const's value as it is (a numpy view, never Python numbers: ge_dialect/weights.py),
    and ONNX's shape inference, which serialises the model and parses it back, copies none
    of them (it reads an initializer's type and dims, not its data)."""
    for t in graph.initializer:
        if (
            t.name in weights
            or t.data_type not in _ELEM
            or t.data_type == _T.BOOL  # raw bools are 0 / 1 bytes; the IR's i1 true is -1
            or t.data_location == _T.EXTERNAL
            or not t.HasField("raw_data")
            or math.prod(t.dims) <= _SMALL
        ):
            continue
        raw = t.raw_data
        if len(raw) != _tensor_nbytes(t):
            continue  # a bad size: to_array's error, where the initializer is read
        weights[t.name] = raw
        t.ClearField("raw_data")
    return weights


def _name_unnamed_nodes(graph: onnx.GraphProto) -> None:
    # onnx_parser.cc: AdaptAndFindAllOnnxGraph: an unnamed node is named <op_type>_<index>,
    # the index counting the unnamed nodes.
    k = 0
    for node in graph.node:
        if not node.name:
            node.name = f"{node.op_type}_{k}"
            k += 1


def _densify_sparse_initializers(graph: onnx.GraphProto, name: str) -> None:
    """Turn each sparse initializer into the dense initializer it stands for (zeros, and
    its values at its indices). GE's ONNX parser reads only `graph.initializer`
    (onnx_parser.cc: OnnxModelParser::ParseInitializer): going beyond GE, as a sparse
    initializer is exactly a dense one stored compactly, and onnxruntime accepts it."""
    for sp in graph.sparse_initializer:
        v = sp.values.name or "?"
        where = f"{name}: sparse initializer '{v}': error:"
        try:
            onnx.checker.check_sparse_tensor(sp)
        except Exception as e:  # onnx.checker.ValidationError
            raise OnnxImportError(f"{where} the ONNX checker refuses it: {str(e).split('==> Context:')[0]}") from None
        if sp.values.data_type not in _ELEM:
            raise OnnxImportError(
                f"{where} dtype {_dtype_name(sp.values.data_type).lower()} is not supported "
                f"(supported: {_supported_dtypes()})"
            )
        try:
            values = numpy_helper.to_array(sp.values)
            indices = numpy_helper.to_array(sp.indices).astype(np.int64, copy=False)
        except Exception as e:
            raise OnnxImportError(f"{where} cannot read its data: {e}") from None
        dims = tuple(int(d) for d in sp.dims)
        dense = np.zeros(dims, values.dtype)
        # ONNX's SparseTensorProto: indices are [NNZ] offsets into the row-major dense
        # tensor, or [NNZ, rank] coordinates (the checker has checked their range)
        if indices.ndim == 1:
            dense.reshape(-1)[indices] = values
        else:
            dense[tuple(indices.T)] = values
        graph.initializer.append(numpy_helper.from_array(dense, v))
    del graph.sparse_initializer[:]


def _check_graph_structure(graph: onnx.GraphProto, init_names: set[str], name: str) -> None:
    """Outputs exist and every node reads values defined before it (ONNX lists nodes in
    topological order), checked before shape inference so the error names the node."""
    # onnx_parser.cc: OnnxModelParser::ParseOutput: a graph without outputs is refused.
    if not graph.output:
        raise OnnxImportError(f"{name}: error: the graph has no outputs (a truncated model?)")
    # protobuf hands a string field that is not UTF-8 over as bytes: a corrupt file
    names = [*(vi.name for vi in graph.input), *(vi.name for vi in graph.output), *init_names]
    for node in graph.node:
        names += [node.name, node.op_type, node.domain, *node.input, *node.output, *(a.name for a in node.attribute)]
    for n in names:
        if not isinstance(n, str):
            raise OnnxImportError(f"{name}: error: the name {n!r} is not valid UTF-8: the file is corrupt")
    # Every value has one producer (ONNX's IR: "names of values ... MUST be unique in a
    # graph", SSA form, and the checker's "Graph must be in single static assignment (SSA)
    # form"): a node output that another node, a graph input or an initializer already
    # defines would leave one producer dangling (the last one silently won).
    producer: dict[str, str] = {t: f"initializer '{t}'" for t in init_names}
    producer.update((vi.name, f"graph input '{vi.name}'") for vi in graph.input)
    for node in graph.node:
        for i, v in enumerate(node.input):
            if v and v not in producer:
                later = any(v in n.output for n in graph.node)
                why = "a later node makes it: nodes must be in topological order" if later else "nothing makes it"
                raise OnnxImportError(
                    f"{name}: node '{node.name}' ({node.op_type}): error: input {i} '{v}' is not defined before the node ({why})"
                )
        for i, o in enumerate(node.output):
            if not o:
                continue
            first = producer.get(o)
            if first is not None:
                raise OnnxImportError(
                    f"{name}: node '{node.name}' ({node.op_type}): error: output {i} '{o}' is already defined by "
                    f"{first}: an ONNX value has one producer (SSA form); rename one of them"
                )
            producer[o] = f"node '{node.name}' ({node.op_type})" + (f" as output {i}" if i else "")
    for vi in graph.output:
        if vi.name not in producer:
            raise OnnxImportError(
                f"{name}: error: graph output '{vi.name}' is not produced by any node, input or initializer"
            )


def _dims_of(vi: onnx.ValueInfoProto) -> list[int | str | None] | None:
    """A value's dims (int, a dim_param string, or None for an unknown dim); None when the
    value has no shape at all."""
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in tt.shape.dim]


def _fmt_dims(dims: Sequence[int | str | None]) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in dims) + "]"


def _fix_input_shapes(
    graph: onnx.GraphProto, init_names: set[str], given: dict[str, Sequence[int]], name: str, dynamic: bool = False
) -> None:
    """Apply `given` to the graph inputs; every input must end with a full static shape,
    or (`dynamic`) a shape whose named or unknown dims stay unknown."""
    inputs = [vi for vi in graph.input if vi.name not in init_names]
    known = {vi.name for vi in inputs}
    for n in given:
        if n not in known:
            listed = ", ".join(f"'{k}'" for k in sorted(known)) or "none"
            raise OnnxImportError(
                f"{name}: error: --input-shape names '{n}', which is not a graph input (inputs: {listed})"
            )
    for vi in inputs:
        where = f"{name}: input '{vi.name}': error:"
        if not vi.type.HasField("tensor_type"):
            raise OnnxImportError(f"{where} only tensor inputs are supported, got a {vi.type.WhichOneof('value')}")
        elem = vi.type.tensor_type.elem_type
        if elem not in _ELEM:
            raise OnnxImportError(
                f"{where} dtype {_dtype_name(elem).lower()} is not supported (supported: {_supported_dtypes()})"
            )
        dims = _dims_of(vi)
        example = "x".join(str(d) if isinstance(d, int) and d >= 0 else "1" for d in dims) if dims else "1x3x224x224"
        hint = f"give it with --input-shape, e.g. --input-shape {vi.name}={example}"
        if dims is not None and vi.name not in given:
            # A dim_value is a size (>= 0); -1 is the common spelling of an unknown dim (GE's
            # UNKNOWN_DIM, ATC's --input_shape -1) and stays one; any other negative value
            # is no shape at all (it used to become `?` and run at size 1).
            neg = [(i, d) for i, d in enumerate(dims) if isinstance(d, int) and d < -1]
            if neg:
                i, d = neg[0]
                raise OnnxImportError(
                    f"{where} dim {i} is {d} in shape {_fmt_dims(dims)}: a dim is a size >= 0, or -1 or a name "
                    f"for a dynamic one; {hint}"
                )
            dims = [None if d == -1 else d for d in dims]
        if vi.name in given:
            want = tuple(int(d) for d in given[vi.name])
            if dims is not None:
                if len(dims) != len(want):
                    raise OnnxImportError(
                        f"{where} --input-shape gives rank {len(want)} ({_fmt_dims(want)}), the model says rank {len(dims)} ({_fmt_dims(dims)})"
                    )
                for i, (d, w) in enumerate(zip(dims, want)):
                    if isinstance(d, int) and d >= 0 and d != w:
                        raise OnnxImportError(
                            f"{where} --input-shape gives dim {i} = {w}, but the model fixes it to {d}"
                        )
            shape = vi.type.tensor_type.shape
            shape.Clear()
            for w in want:
                shape.dim.add().dim_value = w
            continue
        if dims is None:
            raise OnnxImportError(f"{where} the model gives no shape for it; {hint}")
        bad = [i for i, d in enumerate(dims) if not isinstance(d, int)]
        if bad and not dynamic:
            i = bad[0]
            what = f"'{dims[i]}'" if isinstance(dims[i], str) else "unknown"
            raise OnnxImportError(
                f"{where} dim {i} is dynamic ({what}) in shape {_fmt_dims(dims)}: static shapes only; {hint} "
                "(or import it as ? with --dynamic-dims)"
            )


# ONNX's shape inference names the failing node `(op_type:Add, node name: a): <why>`; a
# node with subgraphs (If, Loop, Scan) wraps its subgraph's error in the same form.
_INFER_NODE = re.compile(r"\(op_type:([^,]*), node name: (.*?)\): ")
_INFER_PREFIX = re.compile(r"^(\[ShapeInferenceError\] )?Inference error\(s\): ")


def _inference_failure(text: str, name: str) -> OnnxImportError:
    """The one-line error of an ONNX shape-inference failure: located at the model's node,
    with the cause (the innermost node's message; for a node with subgraphs, the subgraph
    node that fails is named too)."""
    text = " ".join(text.split())
    found = list(_INFER_NODE.finditer(text))
    if not found:
        return OnnxImportError(f"{name}: error: ONNX shape inference fails: {text}")
    # follow the nesting (a node's message that is only "Inference error(s):" wraps its
    # subgraph's error); a node error after a message is another failure: the first is kept
    top = inner = found[0]
    end = len(text)
    for nxt in found[1:]:
        between = text[inner.end() : nxt.start()]
        if _INFER_PREFIX.sub("", between).strip():
            end = nxt.start()
            break
        inner = nxt
    cause = _INFER_PREFIX.sub("", text[inner.end() : end]).strip()
    where = ""
    if inner is not top:
        where = f" in a subgraph, at node '{inner.group(2)}' ({inner.group(1)})"
    return OnnxImportError(
        f"{name}: node '{top.group(2)}' ({top.group(1)}): error: ONNX shape inference fails{where}: {cause or text}"
    )


# What ONNX's shape inference leaves out and an op family's converters need, filled in after
# it: functions (graph, types, model name) registered by the op modules that know it
# (importers/onnx_control.py: a Loop's loop-carried shapes).
INFERENCE_COMPLETIONS: list[
    Callable[[onnx.GraphProto, dict[str, tuple[int, list[int | str | None] | None]], str], None]
] = []


Types = dict[str, tuple[int, "list[int | str | None] | None"]]

# Before ONNX's shape inference on a static import (no --dynamic-dims): functions (model,
# model name) registered by the op modules that know what inference cannot carry into a
# subgraph (importers/onnx_control.py: the static shapes of a Loop body's and an If
# branch's declared inputs and outputs).
STATIC_PRE_INFERENCE: list[Callable[[onnx.ModelProto, str], None]] = []

# The ops whose values the import evaluates, for the types only, when all their inputs are
# constants (shape arithmetic: _types_through_constants)
_SHAPE_ARITHMETIC = frozenset({
    "Abs", "Add", "And", "Cast", "Ceil", "Concat", "ConstantOfShape", "Div", "Equal", "Expand", "Floor",
    "Gather", "Greater", "GreaterOrEqual", "Identity", "Less", "LessOrEqual", "Max", "Min", "Mod", "Mul", "Neg",
    "Not", "Or", "Range", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSum", "Reshape", "Shape", "Size", "Slice",
    "Sqrt", "Squeeze", "Sub", "Tile", "Transpose", "Unsqueeze", "Where",
})  # fmt: skip
_SMALL = 4096  # elements: a shape-arithmetic value, not a weight


def _infer_types(model: onnx.ModelProto, name: str, dynamic_dims: bool = False) -> Types:
    """ONNX's shape inference (strict) on the model: value name -> (elem type, dims); where
    it leaves dims unknown behind a value computed from constants, the dims those values
    give (_types_through_constants)."""
    types = _infer_once(model, name)
    if not dynamic_dims and any(d is None or any(not isinstance(x, int) for x in d) for _, d in types.values()):
        types = _types_through_constants(model, name, types)
    return types


def _types_through_constants(model: onnx.ModelProto, name: str, types: Types) -> Types:
    """GE infers a node's shape after folding its all-Const producers (graph_prepare.cc:
    InferShapeForPreprocess runs InferShapePass, DimensionComputePass and
    ConstantFoldingPass node by node), so a Reshape whose shape comes from Shape -> Mod ->
    Slice has a static output there; ONNX's data propagation stops at such ops (Mod, a
    Slice with computed ends, ...). Here the small values computed from constants and
    static shapes (Shape, Size and _SHAPE_ARITHMETIC ops, by onnx.reference) are evaluated
    and ONNX's inference runs again on a copy holding them as initializers, until nothing
    more is known. Only the types are taken: the nodes are imported as they are, and
    GE's preparation (passes/prepare/) folds them."""
    from onnx.reference import ReferenceEvaluator

    g = model.graph
    opset = default_opset(model, name)
    values: dict[str, np.ndarray] = {
        t.name: numpy_helper.to_array(t) for t in g.initializer if math.prod(t.dims) <= _SMALL
    }
    for _ in range(16):
        grew = False
        for node in g.node:
            outs = [o for o in node.output if o]
            if not outs or all(o in values for o in outs) or node.domain not in _DEFAULT_DOMAINS:
                continue
            got = None
            if node.op_type == "Constant":
                a = node.attribute[0] if len(node.attribute) == 1 else None
                if a is not None and a.type == onnx.AttributeProto.TENSOR and math.prod(a.t.dims) <= _SMALL:
                    got = [numpy_helper.to_array(a.t)]
            elif node.op_type in ("Shape", "Size") and node.input[0] in types:
                dims = types[node.input[0]][1]
                if dims is not None and all(isinstance(d, int) for d in dims):
                    got = [_shape_value(node, [int(d) for d in dims])]  # type: ignore[arg-type]
            elif node.op_type in _SHAPE_ARITHMETIC and all(i == "" or i in values for i in node.input):
                got = _evaluate(ReferenceEvaluator, node, opset, {i: values[i] for i in node.input if i})
            if got is None or len(got) != len(node.output) or any(np.asarray(v).size > _SMALL for v in got):
                continue
            for o, v in zip(node.output, got):
                if o:
                    values[o] = np.asarray(v)
            grew = True
        if not grew:
            break
        types = _infer_once(_with_values(model, values), name)
        for k, v in values.items():
            if k not in types and v.dtype != object:
                types[k] = (onnx.helper.np_dtype_to_tensor_dtype(v.dtype), list(v.shape))
    return types


def _shape_value(node: onnx.NodeProto, dims: list[int]) -> np.ndarray:
    """Shape (with Shape-15's start/end, clamped as ONNX says) or Size of static `dims`."""
    if node.op_type == "Size":
        return np.array(math.prod(dims), np.int64)
    attrs = {a.name: a.i for a in node.attribute}
    r = len(dims)

    def clamp(v: int) -> int:
        return min(max(v + r if v < 0 else v, 0), r)

    return np.array(dims[clamp(attrs.get("start", 0)) : clamp(attrs.get("end", r))], np.int64)


def _evaluate(evaluator: Any, node: onnx.NodeProto, opset: int, feeds: dict[str, np.ndarray]) -> list | None:
    try:
        return list(evaluator(node, opsets={"": opset}).run(None, feeds))
    except Exception:  # a node onnx.reference cannot evaluate: its type stays ONNX's
        return None


def _with_values(model: onnx.ModelProto, values: dict[str, np.ndarray]) -> onnx.ModelProto:
    """A copy of `model` whose nodes with every output in `values` are initializers."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    have = {t.name for t in g.initializer}
    keep = [n for n in g.node if not all(o in values for o in n.output if o) or not any(n.output)]
    for n in g.node:
        for o in n.output:
            if o and o in values and o not in have and n not in keep:
                g.initializer.append(numpy_helper.from_array(values[o], o))
    del g.node[:]
    g.node.extend(keep)
    return m


def _infer_once(model: onnx.ModelProto, name: str) -> Types:
    try:
        out = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    except Exception as e:  # onnx.shape_inference.InferenceError and friends
        raise _inference_failure(str(e), name) from None
    types: dict[str, tuple[int, list[int | str | None] | None]] = {}
    graphs = [out.graph]
    while graphs:  # the main graph, then the subgraphs of If / Loop nodes (onnx_control.py)
        g = graphs.pop()
        for vi in [*g.input, *g.value_info, *g.output]:
            if vi.type.HasField("tensor_type"):
                types[vi.name] = (vi.type.tensor_type.elem_type, _dims_of(vi))
            else:
                types[vi.name] = (-1, None)  # a sequence, map or optional value
        graphs += [a.g for n in g.node for a in n.attribute if a.type == onnx.AttributeProto.GRAPH]
    for complete in INFERENCE_COMPLETIONS:
        complete(out.graph, types, name)
    return types


def supported_ops() -> list[str]:
    """The ai.onnx op types the importer turns into ge ops, sorted."""
    return sorted(_CONVERTERS)


def _unsupported_message(op_type: str, domain: str) -> str:
    supported = ", ".join(supported_ops())
    if domain not in _DEFAULT_DOMAINS:
        return f"op {domain}::{op_type} is not supported: only the ai.onnx domain is (supported: {supported})"
    m = MAPPINGS.get(op_type)
    if m is not None and m.needs:
        ge_part = (
            f"GE maps it to {m.ge_ops} ({m.plugin}); the ge dialect lacks {m.needs}"
            if m.plugin != "-"
            else f"GE's public ONNX plugins have no mapping for it; it needs {m.needs}"
        )
    else:
        ge_part = "GE's public ONNX plugins have no mapping for it"
    return f"op {op_type} is not supported yet: {ge_part} (supported: {supported})"


# ---------------------------------------------------------------------------------------
# The importer proper
# ---------------------------------------------------------------------------------------

_INVALID_CHARS = re.compile(r"[^A-Za-z0-9_$.-]")
_VALID_FIRST = re.compile(r"[A-Za-z_$.-]")


def _valid_name(raw: str) -> str:
    """An SSA name (`[A-Za-z_$.-][A-Za-z0-9_$.-]*`, ASCII) for an ONNX name."""
    s = _INVALID_CHARS.sub("_", raw) if raw else "v"
    return s if _VALID_FIRST.match(s) else "n" + s


@dataclass
class _Value:
    """An ONNX value: its element type code, static dims, and (for a constant) its array."""

    elem: int
    dims: tuple[int, ...]
    ssa: SSAValue | None = None
    const: np.ndarray | None = None
    producer: str = ""  # "graph input 'x'", "node 'n' (Op)", "initializer 'w'"
    const_name: str = ""  # the ge name of its Const, when it becomes one
    unranked: bool = False  # no rank known yet (a reduction over computed axes)


@dataclass
class _Importer:
    model_name: str
    opset: int  # the opset the ops are imported at (the model's, or MIN_OPSET for an older one)
    inferred: dict[str, tuple[int, list[int | str | None] | None]]
    # --dynamic-dims: a named or unknown ONNX dim is an unknown dim (-1, `?`)
    dynamic_dims: bool = False
    model_opset: int = 0  # the model's own ai.onnx opset (below MIN_OPSET: see OLDEST_OPSET)
    values: dict[str, _Value] = field(default_factory=dict)
    ops: list[Operation] = field(default_factory=list)
    used_names: set[str] = field(default_factory=set)
    origin: dict[int, tuple[str, str]] = field(default_factory=dict)  # id(op) -> (node name, op type)
    _types: dict[tuple[int, tuple[int, ...]], TensorType] = field(default_factory=dict)
    _next_suffix: dict[str, int] = field(default_factory=dict)  # base name -> last suffix tried
    _locations: dict[str, NameLoc] = field(default_factory=dict)
    checker_ctx: onnx.checker.C.CheckerContext = field(default_factory=onnx.checker.C.CheckerContext)
    # the subgraphs of If / Loop nodes (importers/onnx_control.py), module-level ge.graphs
    subgraphs: list[ge.GraphOp] = field(default_factory=list)
    # initializers' raw bytes taken out of the protobuf (_take_raw_weights), by name
    weights: dict[str, bytes] = field(default_factory=dict[str, bytes])

    # -- names, types, locations -----------------------------------------------------------

    def unique(self, raw: str) -> str:
        """A valid SSA name for `raw` that no other value has: `raw`, else `raw_1`, ..."""
        base = _valid_name(raw)
        name, k = base, self._next_suffix.get(base, 0)
        while name in self.used_names:
            k += 1
            name = f"{base}_{k}"
        self._next_suffix[base] = k
        self.used_names.add(name)
        return name

    def tensor_type(self, elem: int, dims: Sequence[int]) -> TensorType:
        key = (elem, tuple(dims))
        t = self._types.get(key)
        if t is None:
            t = TensorType(_ELEM[elem], [DYNAMIC_INDEX if d < 0 else d for d in dims])
            self._types[key] = t
        return t

    def location(self, what: str, index: int = 0) -> NameLoc:
        """The location of ops made for ONNX element `what` (`node 'n' (Op)`, `input 'x'`,
        ...; `index`: a node's position, from 1): `MODEL: WHAT` when printed
        (ge_dialect/diagnostics.py: element_location); one attribute per element."""
        loc = self._locations.get(what)
        if loc is None:
            loc = self._locations[what] = element_location(self.model_name, what, index)
        return loc

    # -- building ops ----------------------------------------------------------------------

    def add_op(
        self,
        cls: type[Operation],
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        attributes: collections.abc.Mapping[str, Attribute],
        name: str,
        line: int,
        origin: tuple[str, str] | None,
        onnx_name: str | None = None,
        what: str = "",
    ) -> Operation:
        """Add an op named `name` made for ONNX node `origin` (name, op type) number `line`,
        or, without `origin`, for the ONNX element `what` (`input 'x'`, ...)."""
        ssa_name = self.unique(name)
        if onnx_name is not None and onnx_name != ssa_name:
            attributes = {**attributes, "onnx_name": StringAttr(onnx_name)}
        op = cls.create(operands=list(operands), result_types=list(result_types), attributes=dict(attributes))
        op.location = self.location(f"node '{origin[0]}' ({origin[1]})" if origin is not None else what, line)
        if op.results:
            op.results[0].name_hint = ssa_name
            for i, r in enumerate(op.results[1:], 1):
                r.name_hint = self.unique(f"{ssa_name}_{i}")
        self.ops.append(op)
        if origin is not None:
            self.origin[id(op)] = origin
        return op

    def const_op(
        self,
        arr: np.ndarray,
        elem: int,
        name: str,
        line: int = 0,
        origin: tuple[str, str] | None = None,
        what: str = "",
    ) -> SSAValue:
        t = self.tensor_type(elem, arr.shape)
        op = self.add_op(ge.Const, [], [t], {"value": dense_attr(arr, elem, t)}, name, line, origin, what=what)
        return op.results[0]

    def ssa_of(self, vname: str, v: _Value) -> SSAValue:
        """The ge value of ONNX value `vname`; a constant becomes a ge.Const on first use,
        located at what made it (its initializer, its Constant node)."""
        if v.ssa is None:
            assert v.const is not None
            v.ssa = self.const_op(v.const, v.elem, v.const_name or vname, what=v.producer)
        return v.ssa

    # -- the walk --------------------------------------------------------------------------

    def run(self, graph: onnx.GraphProto) -> ModuleOp:
        name = self.model_name
        inits = {t.name: t for t in graph.initializer}
        index = 0
        for vi in graph.input:
            if vi.name in inits:
                continue  # onnx_parser.cc: ParseInput: an input with an initializer is a Const
            elem = vi.type.tensor_type.elem_type
            dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in vi.type.tensor_type.shape.dim)
            t = self.tensor_type(elem, dims)
            op = self.add_op(ge.Data, [], [t], {"index": _int(index)}, vi.name, 0, None, vi.name, f"input '{vi.name}'")
            self.values[vi.name] = _Value(elem, dims, ssa=op.results[0], producer=f"input '{vi.name}'")
            index += 1
        for t in graph.initializer:
            if t.data_type not in _ELEM:
                raise OnnxImportError(
                    f"{name}: initializer '{t.name}': error: dtype {_dtype_name(t.data_type).lower()} is not supported "
                    f"(supported: {_supported_dtypes()})"
                )
            try:
                raw = self.weights.get(t.name)
                dt = onnx.helper.tensor_dtype_to_np_dtype(t.data_type)
                if raw is not None and len(raw) == math.prod(t.dims) * dt.itemsize:
                    # a read-only view of the bytes (no copy)
                    arr = np.frombuffer(raw, dtype=dt).reshape(tuple(t.dims))
                else:
                    if raw is not None:  # packed (4-bit) or a bad size: ONNX's reader says
                        t.raw_data = raw
                    arr = numpy_helper.to_array(t)
            except Exception as e:
                raise OnnxImportError(f"{name}: initializer '{t.name}': error: cannot read its data: {e}") from None
            self.values[t.name] = _Value(
                t.data_type, tuple(arr.shape), const=arr, producer=f"initializer '{t.name}'", const_name=t.name
            )
        for k, node in enumerate(graph.node, 1):
            self.convert_node(node, k)
        outs = []
        for vi in graph.output:
            v = self.values.get(vi.name)
            if v is None:
                raise OnnxImportError(
                    f"{name}: error: graph output '{vi.name}' is not produced by any node, input or initializer"
                )
            outs.append(self.ssa_of(vi.name, v))
        net = ge.NetOutput.create(operands=outs)
        net.location = self.location(f"graph '{graph.name}' outputs")
        self.ops.append(net)
        graph_op = ge.GraphOp("main", Region(Block(self.ops)), {A.SINGLE_OP_SCENE: A.bool_attr(False)})
        graph_op.location = self.location(f"graph '{graph.name}'")
        module = ModuleOp([graph_op, *self.subgraphs])
        module.location = graph_op.location
        self.verify(graph_op)
        return module

    def convert_node(self, node: onnx.NodeProto, line: int) -> None:
        ctx = _NodeCtx(self, node, line)
        if node.domain not in _DEFAULT_DOMAINS or node.op_type not in _CONVERTERS:
            raise ctx.error(_unsupported_message(node.op_type, node.domain))
        if self.model_opset and self.model_opset < MIN_OPSET:
            if why := check_old_op_version(node.op_type, self.model_opset):
                raise ctx.error(why)
        try:  # ONNX's checker: attribute names and types against the op's schema
            # (not a node with subgraphs: the checker cannot be told the outer scope a
            # branch reads; each node of a subgraph is checked when onnx_control.py imports it)
            if not any(a.type == onnx.AttributeProto.GRAPH for a in node.attribute):
                onnx.checker.check_node(node, self.checker_ctx)
        except Exception as e:  # onnx.checker.ValidationError
            raise ctx.error(f"the ONNX checker refuses it: {str(e).split('==> Context:')[0]}") from None
        _check_constant_indices(ctx)
        for i, out in enumerate(node.output):
            if not out:
                continue
            elem, dims = self.inferred.get(out, (None, None))
            ctx.check_static(i, out, elem, dims)
        _CONVERTERS[node.op_type](ctx)
        for i, out in enumerate(node.output):
            if out and out not in self.values:
                raise ctx.error(f"internal error: output {i} '{out}' was not converted")

    def verify(self, graph_op: ge.GraphOp) -> None:
        # (the subgraphs' nodes once the module holds them all: their symbols resolve)
        for op in [*self.ops, *(n for g in self.subgraphs for n in g.body.block.ops)]:
            try:
                if isinstance(op, ge.GeNode):
                    # the node's traits and GE's checks; xDSL's generic IRDL checks (the
                    # decorated verify_'s op_def.verify: variadic operands and results of any
                    # type, no declared attribute, property, region or successor) cannot fail
                    # on a node made here, and were a third of this verify
                    for trait in type(op).traits:
                        trait.verify(op)
                    ge.GeNode.verify_(op)
                else:
                    op.verify_()
            except (VerifyException, LocatedError) as e:
                msg = e.message if isinstance(e, LocatedError) else str(e)
                node, op_type = self.origin.get(id(op), ("", ""))
                if node:
                    raise OnnxImportError(
                        f"{self.model_name}: node '{node}' ({op_type}): error: imported as {op.name}, which does "
                        f"not verify: {msg}"
                    ) from None
                raise OnnxImportError(f"{self.model_name}: error: {op.name} does not verify: {msg}") from None
        try:
            for g in (graph_op, *self.subgraphs):
                g.verify_()
        except (VerifyException, LocatedError) as e:
            msg = e.message if isinstance(e, LocatedError) else str(e)
            raise OnnxImportError(f"{self.model_name}: error: the imported graph does not verify: {msg}") from None


def dense_attr(arr: np.ndarray, elem: int, t: TensorType) -> DenseIntOrFPElementsAttr:
    """`arr` as the `value` of a ge.Const of type `t` (raw little-endian bytes, as xDSL
    stores dense attributes; i1 `true` is the signless byte -1; bf16 and float8 as their
    own bytes, ml_dtypes' encoding, which xDSL's dense attribute prints and parses)."""
    if elem == _T.BOOL:
        data = np.where(np.asarray(arr, dtype=bool), -1, 0).astype(np.int8).tobytes()
    else:
        # an initializer's raw bytes as they were read (a view of them: weight_bytes)
        data = weight_bytes(np.ascontiguousarray(arr).astype(numpy_dtype(t.element_type), copy=False))
    # `t`'s element type is one of _ELEM's, all dense element types (the cast says so)
    return DenseIntOrFPElementsAttr(cast("TensorType[Any]", t), BytesAttr(data))


class _NodeCtx:
    """One ONNX node being converted: its inputs, attributes and outputs."""

    def __init__(self, imp: _Importer, node: onnx.NodeProto, line: int):
        self.imp = imp
        self.node = node
        self.line = line
        self.name = node.name
        self.op_type = node.op_type
        self.attrs = {a.name: a for a in node.attribute}

    # -- errors ------------------------------------------------------------------------------

    def error(self, message: str) -> OnnxImportError:
        return OnnxImportError(f"{self.imp.model_name}: node '{self.name}' ({self.op_type}): error: {message}")

    def unsupported_attr(self, attr: str, value: object, why: str) -> OnnxImportError:
        return self.error(f"attribute {attr} = {value} is not supported: {why}")

    def check_static(self, i: int, out: str, elem: int | None, dims: list[int | str | None] | None) -> None:
        if elem is None or elem == 0:
            raise self.error(f"ONNX shape inference gives output {i} '{out}' no type")
        if elem == -1:
            raise self.error(f"output {i} '{out}' is not a tensor (sequences, maps and optionals are not supported)")
        if elem not in _ELEM:
            raise self.error(
                f"output {i} '{out}' has dtype {_dtype_name(elem).lower()}, which is not supported (supported: {_supported_dtypes()})"
            )
        if (dims is None and not self.shape_from_values()) or (
            dims is not None
            and not self.imp.dynamic_dims
            and any(not isinstance(d, int) for d in dims)
            and not self.shape_from_values()
        ):
            shown = "no shape" if dims is None else f"shape {_fmt_dims(dims)}"
            raise self.error(
                f"output {i} '{out}' has a dynamic or unknown dimension ({shown}): static shapes only "
                "(fix the graph inputs' shapes with --input-shape NAME=DIMS)"
            )

    def shape_from_values(self) -> bool:
        """Whether an unknown output dim of this node comes from values computed in the
        graph, not from the graph inputs: a value input (VALUE_INPUTS) that is no constant,
        or an input whose dims are already such (-1). ONNX's inference does not follow
        every computed value (Slice's ends, Tile's repeats, Resize's sizes); GE's
        preparation infers the dims once it has folded the value (ge-infer-shape), and what
        stays unknown is a dynamic shape."""
        for i in VALUE_INPUTS.get(self.op_type, ()):
            if self.has(i) and self.value(i).const is None:
                return True
        return any(self.has(i) and (-1 in self.value(i).dims or self.value(i).unranked) for i in range(self.n_inputs))

    # -- inputs ------------------------------------------------------------------------------

    @property
    def n_inputs(self) -> int:
        return len(self.node.input)

    def has(self, i: int) -> bool:
        return i < len(self.node.input) and self.node.input[i] != ""

    def value(self, i: int) -> _Value:
        if not self.has(i):
            raise self.error(f"input {i} is missing")
        vname = self.node.input[i]
        v = self.imp.values.get(vname)
        if v is None:
            raise self.error(
                f"input {i} '{vname}' is not produced by an earlier node, an input or an initializer "
                "(ONNX graphs list their nodes in topological order)"
            )
        return v

    def x(self, i: int) -> SSAValue:
        return self.imp.ssa_of(self.node.input[i], self.value(i))

    def elem(self, i: int) -> int:
        return self.value(i).elem

    def dims(self, i: int) -> tuple[int, ...]:
        v = self.value(i)
        if v.unranked:
            raise self.error(
                f"input {i} has no known rank when imported ({v.producer}, whose axes or shape are computed "
                "in the graph: ONNX's inference gives it no rank), and this op's mapping needs it"
            )
        return v.dims

    def const(self, i: int, what: str) -> np.ndarray:
        """The static value of input `i` (an initializer or a Constant output): GE takes it as
        an attribute or a Const."""
        v = self.value(i)
        if v.const is None:
            raise self.error(
                f"input {i} ('{what}') must be a constant (an initializer or a Constant node) to be "
                f"folded into the GE op; it is {v.producer}"
            )
        return v.const

    def const_ints(self, i: int, what: str) -> list[int]:
        arr = self.const(i, what)
        if arr.dtype.kind not in "iu":
            raise self.error(f"input {i} ('{what}') must be an integer tensor, got {arr.dtype}")
        return [int(a) for a in arr.reshape(-1)]

    # -- attributes ------------------------------------------------------------------------

    def attr(self, name: str, default: object = None) -> object:
        a = self.attrs.get(name)
        return default if a is None else onnx.helper.get_attribute_value(a)

    def attr_int(self, name: str, default: int) -> int:
        return int(self.attr(name, default))  # type: ignore[arg-type]

    def attr_float(self, name: str, default: float) -> float:
        return float(self.attr(name, default))  # type: ignore[arg-type]

    def attr_ints(self, name: str, default: Sequence[int] | None = None) -> list[int] | None:
        v = self.attr(name)
        if v is None:
            return None if default is None else list(default)
        return [int(a) for a in v]  # type: ignore[union-attr]

    def attr_str(self, name: str, default: str) -> str:
        v = self.attr(name, default)
        return v.decode() if isinstance(v, bytes) else str(v)

    # -- outputs ---------------------------------------------------------------------------

    def out_elem(self, i: int = 0) -> int:
        return self.imp.inferred[self.node.output[i]][0]

    def out_dims(self, i: int = 0) -> tuple[int, ...]:
        """Output i's dims by ONNX's inference; a named or unknown one (--dynamic-dims) is -1."""
        return tuple(d if isinstance(d, int) else -1 for d in self.imp.inferred[self.node.output[i]][1] or ())

    def out_type(self, i: int = 0) -> TensorType:
        if self.imp.inferred[self.node.output[i]][1] is None:
            # no rank either (a reduction over computed axes): GE's unknown rank (-2),
            # ge-infer-shape-for-preprocess gives it once the axes are folded
            return UnrankedTensorType(_ELEM[self.out_elem(i)])  # type: ignore[return-value]
        return self.imp.tensor_type(self.out_elem(i), self.out_dims(i))

    def emit(
        self,
        cls: type[Operation],
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        attributes: collections.abc.Mapping[str, Attribute] | None = None,
        suffix: str | None = None,
    ) -> Operation:
        """Add a GE op for this node: named after the node (suffix: `<name>_<suffix>`)."""
        name = self.name if suffix is None else f"{self.name}_{suffix}"
        return self.imp.add_op(
            cls,
            operands,
            result_types,
            attributes or {},
            name,
            self.line,
            (self.name, self.op_type),
            self.name if suffix is None else None,
        )

    def const_value(self, arr: np.ndarray, elem: int, suffix: str) -> SSAValue:
        return self.imp.const_op(arr, elem, f"{self.name}_{suffix}", self.line, (self.name, self.op_type))

    def bind(self, i: int, ssa: SSAValue) -> None:
        out = self.node.output[i]
        if out:
            self.imp.values[out] = _Value(
                self.out_elem(i),
                self.out_dims(i),
                ssa=ssa,
                producer=f"output {i} of node '{self.name}' ({self.op_type})",
                unranked=self.imp.inferred[out][1] is None,
            )

    def bind_const(self, i: int, arr: np.ndarray, elem: int) -> None:
        out = self.node.output[i]
        self.imp.values[out] = _Value(
            elem, tuple(arr.shape), const=arr, producer=f"node '{self.name}' ({self.op_type})", const_name=self.name
        )

    def single(
        self,
        cls: type[Operation],
        operands: Sequence[SSAValue],
        attributes: collections.abc.Mapping[str, Attribute] | None = None,
    ) -> Operation:
        """The node is one GE op with the node's output type."""
        op = self.emit(cls, operands, [self.out_type(0)], attributes)
        self.bind(0, op.results[0])
        return op


# The index inputs of the index ops: op type -> (data input, indices input, form). "axis":
# each index addresses the data's dim `axis` (attribute, default 0); "nd": the indices'
# last dim holds coordinates of the data's dims from `batch_dims` on (GatherND, ScatterND).
_INDEX_INPUTS: dict[str, tuple[int, int, str]] = {
    "Gather": (0, 1, "axis"),
    "GatherElements": (0, 1, "axis"),
    "ScatterElements": (0, 1, "axis"),
    "GatherND": (0, 1, "nd"),
    "ScatterND": (0, 1, "nd"),
}


def _check_constant_indices(ctx: _NodeCtx) -> None:
    """A constant index (an initializer or a Constant output) of an index op lies in the
    range ONNX allows, [-n, n-1] for a dim of size n: one outside it is refused here,
    naming the node, instead of failing only when the graph runs. GE finds it at run time
    (the GatherV2 kernel's bound check); we go beyond GE, as the import already holds
    the value."""
    spec = _INDEX_INPUTS.get(ctx.op_type)
    if spec is None or not (ctx.has(spec[0]) and ctx.has(spec[1])):
        return
    data_i, idx_i, form = spec
    idx = ctx.value(idx_i).const
    if idx is None or idx.size == 0 or idx.dtype.kind not in "iu":
        return
    dims = ctx.dims(data_i)
    if form == "axis":
        axis = ctx.attr_int("axis", 0)
        if not -len(dims) <= axis < len(dims):
            return  # the converter's axis check says what is wrong
        pairs = [(axis % len(dims), idx.astype(np.int64, copy=False), "")]
    else:
        if idx.ndim == 0:
            return
        first = ctx.attr_int("batch_dims", 0)
        k = idx.shape[-1]
        pairs = [
            (first + j, idx[..., j].astype(np.int64, copy=False), f" (coordinate {j})")
            for j in range(k)
            if first + j < len(dims)
        ]
    for dim, col, what in pairs:
        n = dims[dim]
        if n < 0:
            continue  # an unknown dim (--dynamic-dims): checked when the graph runs
        bad = np.flatnonzero((col < -n) | (col >= n))
        if bad.size:
            at = tuple(int(a) for a in np.unravel_index(int(bad[0]), col.shape))
            raise ctx.error(
                f"index {int(col.reshape(-1)[bad[0]])} at {list(at)} of input {idx_i} '{ctx.node.input[idx_i]}'{what} "
                f"is out of range for dim {dim} (size {n}) of input {data_i}: valid indices are {-n} to {n - 1}"
                + (f" ({bad.size} indices are out of range)" if bad.size > 1 else "")
            )


# ---------------------------------------------------------------------------------------
# Converters
# ---------------------------------------------------------------------------------------

Converter = Callable[[_NodeCtx], None]
_CONVERTERS: dict[str, Converter] = {}


def converts(*op_types: str) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for t in op_types:
            assert t in MAPPINGS and not MAPPINGS[t].needs, t
            _CONVERTERS[t] = fn
        return fn

    return register


@functools.lru_cache(maxsize=4096)
def _int_list(vs: tuple[int, ...]) -> ArrayAttr:
    return A.int_list_attr(vs)


def _ints(vs: Sequence[int]) -> ArrayAttr:
    """An i64 list attribute; attributes are immutable, so equal lists share one object
    (a 10k-node model has few distinct ones, and building each costs a verification)."""
    return _int_list(tuple(int(v) for v in vs))


@functools.lru_cache(maxsize=4096)
def _int(v: int) -> IntegerAttr:
    return A.make_int(v)


_TRUE, _FALSE = A.bool_attr(True), A.bool_attr(False)


def _bool(v: bool) -> IntegerAttr:
    return _TRUE if v else _FALSE


def _same_dtype(ctx: _NodeCtx, idx: Sequence[int]) -> None:
    elems = {ctx.elem(i) for i in idx if ctx.has(i)}
    if len(elems) > 1:
        names = ", ".join(sorted(_dtype_name(e).lower() for e in elems))
        raise ctx.error(f"inputs of different dtypes ({names}): GE's {ctx.op_type} takes one dtype")


def _norm_axis(ctx: _NodeCtx, axis: int, rank: int, what: str = "axis") -> int:
    if not -rank <= axis < rank:
        raise ctx.error(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


# -- pointwise -----------------------------------------------------------------------------

# similar_opp_plugins.cc: REGISTER_CUSTOM_ONNX_OP(ai.onnx::11::Add, Add, ...) and the
# same for Sub, Mul, Pow, Relu, Abs, Neg, Exp, Log, Sqrt, Sigmoid, Tanh, Reciprocal, Identity.
_POINTWISE: dict[str, type[Operation]] = {
    "Add": ge.Add, "Sub": ge.Sub, "Mul": ge.Mul, "Pow": ge.Pow,
    "Relu": ge.Relu, "Abs": ge.Abs, "Neg": ge.Neg, "Exp": ge.Exp, "Log": ge.Log, "Sqrt": ge.Sqrt,
    "Sigmoid": ge.Sigmoid, "Tanh": ge.Tanh, "Reciprocal": ge.Reciprocal, "Identity": ge.Identity,
}  # fmt: skip


@converts(*_POINTWISE)
def _pointwise(ctx: _NodeCtx) -> None:
    if ctx.op_type == "Pow" and ctx.elem(0) != ctx.elem(1):
        _pow_mixed(ctx)
        return
    _same_dtype(ctx, range(ctx.n_inputs))
    ctx.single(_POINTWISE[ctx.op_type], [ctx.x(i) for i in range(ctx.n_inputs)])


def _pow_mixed(ctx: _NodeCtx) -> None:
    # Pow's exponent may have another dtype in ONNX (Pow-12's T, T1; the result has the base's
    # dtype); GE's Pow takes one dtype. A float base's exponent is cast to the base's dtype;
    # an integer base with a float exponent is computed in the exponent's dtype (Cast of the
    # base, Pow, Cast back, rounding toward zero as onnxruntime's Pow does).
    base, expo = ctx.elem(0), ctx.elem(1)
    tt = ctx.imp.tensor_type
    for e in (base, expo):
        if e not in _GE_DATATYPE:
            raise ctx.error(
                f"Pow with a {_dtype_name(e).lower()} input of another dtype: GE's Cast plugin has no such type"
            )
    if base in _FLOATS or expo not in _FLOATS:
        cast = ctx.emit(
            ge.Cast, [ctx.x(1)], [tt(base, ctx.dims(1))], {"dst_type": _int(_GE_DATATYPE[base])}, suffix="Cast"
        )
        ctx.single(ge.Pow, [ctx.x(0), cast.results[0]])
        return
    xb = ctx.emit(ge.Cast, [ctx.x(0)], [tt(expo, ctx.dims(0))], {"dst_type": _int(_GE_DATATYPE[expo])}, suffix="Cast")
    p = ctx.emit(ge.Pow, [xb.results[0], ctx.x(1)], [tt(expo, ctx.out_dims())], suffix="Pow")
    ctx.single(ge.Cast, [p.results[0]], {"dst_type": _int(_GE_DATATYPE[base])})


@converts("Div")
def _div(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc: ai.onnx::11::Div -> RealDiv. Integer Div becomes GE's Div
    # (TensorFlow's Div, rounded toward zero as ONNX's is): RealDiv is float-only here.
    _same_dtype(ctx, (0, 1))
    cls = ge.RealDiv if ctx.elem(0) in _FLOATS else ge.Div
    ctx.single(cls, [ctx.x(0), ctx.x(1)])


def _chain(ctx: _NodeCtx, cls: type[Operation], what: str) -> None:
    """max_plugin.cc / min_plugin.cc: ParseOpToGraphMax: one input -> Identity, else
    x0 op x1, then (prev) op x_i, ... named <name>_<what>_<i>; the last is the node."""
    n = ctx.n_inputs
    _same_dtype(ctx, range(n))
    if n == 1:
        ctx.single(ge.Identity, [ctx.x(0)])
        return
    prev, shape = ctx.x(0), ctx.dims(0)
    for i in range(1, n):
        if i == n - 1:
            ctx.single(cls, [prev, ctx.x(i)])
            return
        shape = ge.broadcast_shapes(shape, ctx.dims(i)) or shape
        op = ctx.emit(cls, [prev, ctx.x(i)], [ctx.imp.tensor_type(ctx.elem(0), shape)], suffix=f"{what}_{i}")
        prev = op.results[0]


@converts("Max")
def _max(ctx: _NodeCtx) -> None:
    _chain(ctx, ge.Maximum, "Maximum")  # max_plugin.cc: ParseOpToGraphMax


@converts("Min")
def _min(ctx: _NodeCtx) -> None:
    _chain(ctx, ge.Minimum, "Minimum")  # min_plugin.cc: ParseOpToGraphMin


@converts("Sum")
def _sum(ctx: _NodeCtx) -> None:
    # sum_plugin.cc: ParseParamsSum -> AccumulateNV2 {N}; its value is AddN's, the N-ary sum
    # the ge dialect has.
    n = ctx.n_inputs
    _same_dtype(ctx, range(n))
    ctx.single(ge.AddN, [ctx.x(i) for i in range(n)], {"N": _int(n)})


@converts("Mean")
def _mean(ctx: _NodeCtx) -> None:
    # mean_plugin.cc: ParseOpToGraphMean: AccumulateNV2 {N} then Muls {value = 1/N}; Muls
    # is written as a Mul by a 0-d Const of the input dtype (the dialect has no Muls).
    n = ctx.n_inputs
    _same_dtype(ctx, range(n))
    acc = ctx.emit(ge.AddN, [ctx.x(i) for i in range(n)], [ctx.out_type()], {"N": _int(n)}, suffix="AccumulateNV2")
    elem = ctx.out_elem()
    scale = ctx.const_value(np.array(1.0 / n, dtype=onnx.helper.tensor_dtype_to_np_dtype(elem)), elem, "Muls_value")
    ctx.single(ge.Mul, [acc.results[0], scale])


@converts("Cast")
def _cast(ctx: _NodeCtx) -> None:
    # cast_plugin.cc: ParseParamsCast: dst_type = GE's DataType of `to`; a type outside its
    # table (string, bf16, float8, ...) fails the plugin.
    to = ctx.attr_int("to", -1)
    if to not in CAST_DTYPES:
        raise ctx.unsupported_attr(
            "to", _dtype_name(to), "GE's Cast plugin maps only " + ", ".join(_dtype_name(c) for c in CAST_DTYPES)
        )
    cast_to(ctx, ctx.x(0), to, bool(ctx.attr_int("saturate", 1)))


# Beyond cast_plugin.cc's table (it stops at BOOL): GE's Cast op itself takes the float8
# types (metadef's DataType: DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36), which ONNX casts
# to from opset 19, rounding to nearest even as onnxruntime and ml_dtypes do. bfloat16
# (DT_BF16) stays refused: ONNX's own test data truncates float to bfloat16 where
# onnxruntime rounds to nearest even, so no one cast matches both.
_CAST_BEYOND_PLUGIN: dict[int, int] = {_T.FLOAT8E5M2: 35, _T.FLOAT8E4M3FN: 36}
CAST_DTYPES: dict[int, int] = {**_GE_DATATYPE, **_CAST_BEYOND_PLUGIN}  # ONNX dtype -> GE DataType


def cast_to(ctx: _NodeCtx, x: SSAValue, to: int, saturate: bool) -> None:
    """The node's output: Cast of `x` to ONNX dtype `to` (Cast, CastLike). ONNX's saturate
    (Cast-19, float8 outputs only: a value beyond the float8 range, infinities included,
    becomes the largest finite one, NaN stays NaN) is ClipByValue to that range first; without
    it the cast itself gives NaN (E4M3FN) or inf (E5M2), as ONNX says."""
    code = CAST_DTYPES[to]
    src = ctx.elem(0)
    if saturate and to in (_T.FLOAT8E5M2, _T.FLOAT8E4M3FN) and src in (_T.FLOAT, _T.FLOAT16, _T.BFLOAT16, _T.DOUBLE):
        top = float(ml_dtypes.finfo(onnx.helper.tensor_dtype_to_np_dtype(to)).max)
        dt = onnx.helper.tensor_dtype_to_np_dtype(src)
        lo = ctx.const_value(np.array(-top, dt), src, "saturate_min")
        hi = ctx.const_value(np.array(top, dt), src, "saturate_max")
        t = ctx.imp.tensor_type(src, ctx.dims(0))
        x = ctx.emit(ge.ClipByValue, [x, lo, hi], [t], suffix="Saturate").results[0]
    ctx.single(ge.Cast, [x], {"dst_type": _int(code)})


# -- activations, rounding, comparisons, logic, selection, softmax, layer norm -------------

# similar_opp_plugins.cc: REGISTER_CUSTOM_ONNX_OP(ai.onnx::11::Erf, Erf, ...) and the same
# for the ops below (HardSwish: ai.onnx::14::HardSwish); Mish has no plugin in the public
# copy and becomes GE's Mish (nonlinear_fuc_ops.h: REG_OP(Mish)).
_SAME_NAME_OPS: dict[str, type[Operation]] = {
    "Erf": ge.Erf, "Floor": ge.Floor, "Ceil": ge.Ceil, "Round": ge.Round, "Sign": ge.Sign,
    "Sin": ge.Sin, "Cos": ge.Cos, "Softplus": ge.Softplus, "Softsign": ge.Softsign,
    "HardSwish": ge.HardSwish, "Mish": ge.Mish, "IsNaN": ge.IsNan, "Not": ge.LogicalNot,
    "Equal": ge.Equal, "Less": ge.Less, "Greater": ge.Greater, "LessOrEqual": ge.LessEqual,
    "GreaterOrEqual": ge.GreaterEqual, "And": ge.LogicalAnd, "Or": ge.LogicalOr,
}  # fmt: skip


def _made_const(ctx: _NodeCtx, arr: np.ndarray, elem: int, suffix: str) -> SSAValue:
    """A Const the converter makes (a default bound, a zero bias, a formula's constant)."""
    return ctx.const_value(arr, elem, suffix)


def _f32(v: float) -> FloatAttr:
    """A GE `Float` attribute (float32)."""
    return FloatAttr(float(np.float32(v)), Float32Type())


@converts(*_SAME_NAME_OPS)
def _same_name(ctx: _NodeCtx) -> None:
    _same_dtype(ctx, range(ctx.n_inputs))
    ctx.single(_SAME_NAME_OPS[ctx.op_type], [ctx.x(i) for i in range(ctx.n_inputs)])


@converts("LeakyRelu")
def _leaky_relu(ctx: _NodeCtx) -> None:
    # leakyrelu_plugin.cc: ParseParamsLeakyRelu -- negative_slope = alpha (default 0.01)
    ctx.single(ge.LeakyRelu, [ctx.x(0)], {"negative_slope": _f32(ctx.attr_float("alpha", 0.01))})


@converts("Elu")
def _elu(ctx: _NodeCtx) -> None:
    ctx.single(ge.Elu, [ctx.x(0)], {"alpha": _f32(ctx.attr_float("alpha", 1.0))})  # elu_plugin.cc: alpha 1.0


@converts("Celu")
def _celu(ctx: _NodeCtx) -> None:
    # celu_plugin.cc: ParseParamsCelu -- alpha1 = alpha2 = alpha (default 1.0)
    a = _f32(ctx.attr_float("alpha", 1.0))
    ctx.single(ge.Celu, [ctx.x(0)], {"alpha1": a, "alpha2": a})


@converts("HardSigmoid")
def _hard_sigmoid(ctx: _NodeCtx) -> None:
    # hard_sigmoid_plugin.cc: alpha 0.2, beta 0.5 (ONNX's defaults, not the REG_OP's 1/6)
    attrs = {"alpha": _f32(ctx.attr_float("alpha", 0.2)), "beta": _f32(ctx.attr_float("beta", 0.5))}
    ctx.single(ge.HardSigmoid, [ctx.x(0)], attrs)


# selu_plugin.cc: ALPHA_DEFAULT, GAMMA_DEFAULT, DIFF_ABS
_SELU_ALPHA, _SELU_GAMMA, _SELU_DIFF = 1.67326324235, 1.05070098736, 0.00001


@converts("Selu")
def _selu(ctx: _NodeCtx) -> None:
    # selu_plugin.cc: ParseParamsSelu -- GE's Selu has SELU's constants; others fail the
    # plugin. Beyond it: other constants are gamma * Elu(x, alpha) (Elu is alpha (e^x - 1)
    # below 0 and x above, elu_plugin.cc's op), which gives ONNX's numbers for any of them.
    alpha, gamma = ctx.attr_float("alpha", _SELU_ALPHA), ctx.attr_float("gamma", _SELU_GAMMA)
    if abs(alpha - _SELU_ALPHA) <= _SELU_DIFF and abs(gamma - _SELU_GAMMA) <= _SELU_DIFF:
        ctx.single(ge.Selu, [ctx.x(0)])
        return
    elem = ctx.elem(0)
    elu = ctx.emit(ge.Elu, [ctx.x(0)], [ctx.out_type()], {"alpha": _f32(alpha)}, suffix="Elu")
    g = ctx.const_value(np.array(gamma, onnx.helper.tensor_dtype_to_np_dtype(elem)), elem, "gamma")
    ctx.single(ge.Mul, [elu.results[0], g])


@converts("IsInf")
def _is_inf(ctx: _NodeCtx) -> None:
    # isinf_plugin.cc: ParseParamsIsinf -- detect_negative and detect_positive must both be
    # 1. Beyond the plugin: one infinity only is IsInf and the sign (LogicalAnd with
    # Greater / Less than 0); neither is all false (LogicalAnd of both signs).
    neg, pos = ctx.attr_int("detect_negative", 1), ctx.attr_int("detect_positive", 1)
    if neg and pos:
        ctx.single(ge.IsInf, [ctx.x(0)])
        return
    x, bt = ctx.x(0), ctx.out_type()
    dt = onnx.helper.tensor_dtype_to_np_dtype(ctx.elem(0))
    zero = ctx.const_value(np.zeros((), dt), ctx.elem(0), "zero")
    inf = ctx.emit(ge.IsInf, [x], [bt], suffix="IsInf").results[0]
    sign = ctx.emit(ge.Greater if pos else ge.Less, [x, zero], [bt], suffix="sign").results[0]
    if not (neg or pos):
        other = ctx.emit(ge.Greater, [x, zero], [bt], suffix="positive").results[0]
        sign = ctx.emit(ge.LogicalAnd, [sign, other], [bt], suffix="no_sign").results[0]
    ctx.single(ge.LogicalAnd, [inf, sign])


# the integer dtypes GE's Mod / FloorMod take no kernel for, and the wider one each is
# computed in (every value of the narrow one is exact there)
_MOD_WIDER: dict[int, int] = {_T.INT8: _T.INT32, _T.INT16: _T.INT32, _T.UINT8: _T.INT32, _T.UINT16: _T.INT32,
                              _T.UINT32: _T.INT64}  # fmt: skip


@converts("Mod")
def _mod(ctx: _NodeCtx) -> None:
    # mod_plugin.cc: ParseParamsMod -- Mod (TensorFlow's truncating Mod), fmod ignored with a
    # warning. ONNX's fmod = 1 is that remainder; fmod = 0 (integers only) is the floored
    # one, which GE's FloorMod computes: it becomes FloorMod here, not the plugin's Mod.
    # Beyond the plugin: an integer dtype outside FloorMod's (int8, int16, uint8, uint16,
    # uint32) is computed in int32 / int64 between Casts, which gives the same remainder.
    _same_dtype(ctx, (0, 1))
    fmod = ctx.attr_int("fmod", 0)
    elem = ctx.elem(0)
    if fmod == 0 and elem in _FLOATS:
        raise ctx.unsupported_attr("fmod", 0, "ONNX's Mod takes fmod = 1 for floating-point inputs")
    cls = ge.Mod if fmod else ge.FloorMod
    wide = _MOD_WIDER.get(elem)
    if wide is None or (cls is ge.Mod and elem in (_T.INT8, _T.UINT8)):
        ctx.single(cls, [ctx.x(0), ctx.x(1)])
        return
    tt = ctx.imp.tensor_type
    a, b = (
        ctx.emit(
            ge.Cast, [ctx.x(i)], [tt(wide, ctx.dims(i))], {"dst_type": _int(_GE_DATATYPE[wide])}, suffix=f"Cast{i}"
        )
        for i in (0, 1)
    )
    r = ctx.emit(cls, [a.results[0], b.results[0]], [tt(wide, ctx.out_dims())], suffix=cls.name.split(".")[1])
    ctx.single(ge.Cast, [r.results[0]], {"dst_type": _int(_GE_DATATYPE[elem])})


@converts("Where")
def _where(ctx: _NodeCtx) -> None:
    _same_dtype(ctx, (1, 2))
    ctx.single(ge.SelectV2, [ctx.x(0), ctx.x(1), ctx.x(2)])  # similar_opp_plugins.cc: Where -> SelectV2


def _dtype_limits(elem: int) -> tuple[np.ndarray, np.ndarray]:
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    if elem == _T.BOOL:
        return np.array(False), np.array(True)
    info = ml_dtypes.finfo(dt) if elem in _FLOATS else np.iinfo(dt)
    return np.array(info.min, dtype=dt), np.array(info.max, dtype=dt)


@converts("Clip")
def _clip(ctx: _NodeCtx) -> None:
    # clip_plugin.cc: ParseOpToGraphClipV11 -- ClipByValue(x, min, max); a missing bound is
    # a Const of +-3.402823e+38 and x is cast to float32. Here a missing bound is a 0-d Const
    # of x's dtype holding its lowest / highest value, so the output keeps x's dtype.
    x = ctx.x(0)
    elem = ctx.elem(0)
    lo_default, hi_default = _dtype_limits(elem)
    bounds = []
    for i, default, what in ((1, lo_default, "min"), (2, hi_default, "max")):
        if ctx.has(i):
            if ctx.elem(i) != elem:
                raise ctx.error(f"{what} has another dtype than the input: GE's ClipByValue takes one dtype")
            bounds.append(ctx.x(i))
        else:
            bounds.append(_made_const(ctx, default, elem, what))
    ctx.single(ge.ClipByValue, [x, *bounds])


def _softmax_axes(ctx: _NodeCtx) -> list[int]:
    rank = len(ctx.dims(0))
    if ctx.imp.opset >= 13:
        return [ctx.attr_int("axis", -1)]  # softmax_plugin.cc: ParseParamsSoftmaxV13 (default -1)
    # opsets 11-12: the input is coerced to 2-D at `axis` (default 1) and normalised over the
    # flattened trailing dims: SoftmaxV2 over axes [axis, rank). GE's ParseParamsSoftmaxV11
    # sets axes [axis] and need_fusion, leaving the coercion to a fusion pass.
    axis = _norm_axis(ctx, ctx.attr_int("axis", 1), max(rank, 1))
    return list(range(axis, max(rank, 1)))


@converts("Softmax")
def _softmax(ctx: _NodeCtx) -> None:
    ctx.single(ge.SoftmaxV2, [ctx.x(0)], {"axes": _ints(_softmax_axes(ctx))})  # softmax_plugin.cc


@converts("LogSoftmax")
def _log_softmax(ctx: _NodeCtx) -> None:
    # logsoftmax_plugin.cc: ParseParamsLogSoftmax -- axes = [axis]; the opset 11-12 coercion as
    # for Softmax (the plugin defaults axis to -1 in every opset, ONNX's 11-12 default is 1)
    ctx.single(ge.LogSoftmaxV2, [ctx.x(0)], {"axes": _ints(_softmax_axes(ctx))})


@converts("LayerNormalization")
def _layer_norm(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: GE's LayerNorm (nn_norm_ops.h) with begin_norm_axis =
    # begin_params_axis = axis (default -1) and epsilon (default 1e-5). A Scale or B of
    # fewer dims is broadcast to x.shape[axis:] (BroadcastToD), a missing B is a zero Const.
    # ONNX's Mean output is GE's mean, its InvStdDev Rsqrt(variance + epsilon), each cast to
    # float32 (stash_type 1) when x is not.
    if ctx.attr_int("stash_type", 1) != 1:
        raise ctx.unsupported_attr("stash_type", ctx.attr_int("stash_type", 1), "only float32 (1) is supported")
    _same_dtype(ctx, range(ctx.n_inputs))
    xd = ctx.dims(0)
    elem = ctx.elem(0)
    axis = _norm_axis(ctx, ctx.attr_int("axis", -1), len(xd)) if xd else 0
    eps = ctx.attr_float("epsilon", 1e-5)
    pshape = tuple(xd[axis:])
    tt = ctx.imp.tensor_type
    params = []
    for i, what in ((1, "Scale"), (2, "B")):
        if not ctx.has(i):
            zero = np.zeros(pshape, dtype=onnx.helper.tensor_dtype_to_np_dtype(elem))
            params.append(_made_const(ctx, zero, elem, "beta"))
        elif ctx.dims(i) != pshape:
            b = ctx.emit(ge.BroadcastToD, [ctx.x(i)], [tt(elem, pshape)], {"shape": _ints(pshape)}, suffix=what)
            params.append(b.results[0])
        else:
            params.append(ctx.x(i))
    stat = tuple(1 if k >= axis else d for k, d in enumerate(xd))
    attrs = {"begin_norm_axis": _int(axis), "begin_params_axis": _int(axis), "epsilon": _f32(eps)}
    ln = ctx.emit(ge.LayerNorm, [ctx.x(0), *params], [tt(elem, xd), tt(elem, stat), tt(elem, stat)], attrs)
    ctx.bind(0, ln.results[0])
    stash = _T.FLOAT

    def stashed(v: SSAValue, k: int, suffix: str) -> SSAValue:
        if elem == stash:
            return v
        return ctx.emit(ge.Cast, [v], [tt(stash, stat)], {"dst_type": _int(_GE_DATATYPE[stash])}, suffix).results[0]

    if len(ctx.node.output) > 1 and ctx.node.output[1]:
        ctx.bind(1, stashed(ln.results[1], 1, "Mean_Cast"))
    if len(ctx.node.output) > 2 and ctx.node.output[2]:
        np_dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
        e = _made_const(ctx, np.array(eps, dtype=np_dt), elem, "epsilon")
        v = ctx.emit(ge.Add, [ln.results[2], e], [tt(elem, stat)], suffix="Add").results[0]
        r = ctx.emit(ge.Rsqrt, [v], [tt(elem, stat)], suffix="Rsqrt").results[0]
        ctx.bind(2, stashed(r, 2, "InvStdDev_Cast"))


@converts("Gelu")
def _gelu(ctx: _NodeCtx) -> None:
    # No plugin in the public copy. approximate = "tanh" is GE's Gelu, whose kernel is the
    # tanh approximation (tbe/impl/dynamic/gelu.py); "none" (exact) is x * 0.5 * (1 +
    # Erf(x / sqrt(2))) in GE ops (Mul by 0-d Consts, Erf, Add).
    approx = ctx.attr_str("approximate", "none")
    if approx == "tanh":
        ctx.single(ge.Gelu, [ctx.x(0)])
        return
    if approx != "none":
        raise ctx.unsupported_attr("approximate", approx, "ONNX defines none and tanh")
    x = ctx.x(0)
    elem, t = ctx.elem(0), ctx.out_type()
    np_dt = onnx.helper.tensor_dtype_to_np_dtype(elem)

    def k(v: float, suffix: str) -> SSAValue:
        return _made_const(ctx, np.array(v, dtype=np_dt), elem, suffix)

    s = ctx.emit(ge.Mul, [x, k(1 / math.sqrt(2.0), "rsqrt2")], [t], suffix="Mul_rsqrt2").results[0]
    e = ctx.emit(ge.Erf, [s], [t], suffix="Erf").results[0]
    a = ctx.emit(ge.Add, [e, k(1.0, "one")], [t], suffix="Add").results[0]
    h = ctx.emit(ge.Mul, [x, k(0.5, "half")], [t], suffix="Mul_half").results[0]
    ctx.single(ge.Mul, [h, a])


# -- reductions ----------------------------------------------------------------------------

# The opset from which each reduction reads `axes` as input 1 instead of an attribute.
_AXES_INPUT_SINCE = {"ReduceSum": 13}
_REDUCE_D: dict[str, type[Operation]] = {
    "ReduceSum": ge.ReduceSumD, "ReduceMax": ge.ReduceMaxD, "ReduceMin": ge.ReduceMinD,
    "ReduceMean": ge.ReduceMeanD, "ReduceProd": ge.ReduceProdD,
}  # fmt: skip
_REDUCE_AXES: dict[str, type[Operation]] = {
    "ReduceSum": ge.ReduceSum, "ReduceMax": ge.ReduceMax, "ReduceMin": ge.ReduceMin,
    "ReduceMean": ge.ReduceMean, "ReduceProd": ge.ReduceProd,
}  # fmt: skip


def _axes_input(ctx: _NodeCtx) -> bool:
    """Whether the reduction reads its axes from input 1 (ReduceSum from 13, the others 18)."""
    return ctx.imp.opset >= _AXES_INPUT_SINCE.get(ctx.op_type, 18)


def _reduce_axes(ctx: _NodeCtx) -> list[int] | None:
    """The reduced axes as written (empty: all); None: noop_with_empty_axes = 1 with no axes."""
    if _axes_input(ctx):
        axes = ctx.const_ints(1, "axes") if ctx.has(1) else []
        if not axes and ctx.attr_int("noop_with_empty_axes", 0):
            return None  # reduce_sum_plugin.cc: ParseOpToGraphReduceSum13 (empty axes, noop set)
        return axes
    return ctx.attr_ints("axes", [])


def computed_axes(ctx: _NodeCtx) -> bool:
    """Whether the reduction's axes are input 1 and no constant (computed in the graph or a
    graph input): then they stay an input of GE's ReduceXxx (_reduce_d)."""
    return _axes_input(ctx) and ctx.has(1) and ctx.value(1).const is None


def _reduce(ctx: _NodeCtx, x: SSAValue, cls: type[Operation], suffix: str | None, out_elem: int) -> Operation:
    """One ReduceXxxD {axes, keep_dims} of `x` (ONNX keepdims defaults to 1); with
    computed axes (`computed_axes`), ReduceSum(x, axes) {keep_dims, noop_with_empty_axes}
    (reduce_sum_plugin.cc: ParseOpToGraphReduceSum13 passes the axes input on; `cls` is
    ReduceSumD then)."""
    if computed_axes(ctx):
        assert cls is ge.ReduceSumD, cls
        if ctx.attr_int("noop_with_empty_axes", 0):  # ONNX passes x itself on for empty axes
            raise ctx.unsupported_attr(
                "noop_with_empty_axes", 1, f"GE's {ctx.op_type} plugin always reduces (its axes are computed)"
            )
        attrs = {
            "keep_dims": _bool(bool(ctx.attr_int("keepdims", 1))),
            "noop_with_empty_axes": _bool(bool(ctx.attr_int("noop_with_empty_axes", 0))),
        }
        assert out_elem == ctx.out_elem(), (out_elem, ctx.out_elem())
        return ctx.emit(ge.ReduceSum, [x, ctx.x(1)], [ctx.out_type()], attrs, suffix=suffix)
    axes = _reduce_axes(ctx)
    keep = bool(ctx.attr_int("keepdims", 1))
    attrs = {"axes": _ints(axes or []), "keep_dims": _bool(keep)}
    t = ctx.imp.tensor_type(out_elem, ctx.out_dims())
    return ctx.emit(cls, [x], [t], attrs, suffix=suffix)


@converts(*_REDUCE_D)
def _reduce_d(ctx: _NodeCtx) -> None:
    # reduce_sum_plugin.cc / reduce_max_plugin.cc / reduce_min_plugin.cc /
    # reduce_mean_plugin.cc / reduce_prod_plugin.cc: ReduceXxx(x, Const axes) {keep_dims},
    # which GE turns into ReduceXxxD {axes, keep_dims}. Computed axes stay input 1 of
    # ReduceXxx {keep_dims, noop_with_empty_axes} (reduce_sum_plugin.cc:
    # ParseOpToGraphReduceSum13 passes the axes input on), for ge-const-to-attr.
    if computed_axes(ctx):
        attrs = {
            "keep_dims": _bool(bool(ctx.attr_int("keepdims", 1))),
            "noop_with_empty_axes": _bool(bool(ctx.attr_int("noop_with_empty_axes", 0))),
        }
        ctx.single(_REDUCE_AXES[ctx.op_type], [ctx.x(0), ctx.x(1)], attrs)
        return
    if _reduce_axes(ctx) is None:
        ctx.single(ge.Identity, [ctx.x(0)])
        return
    op = _reduce(ctx, ctx.x(0), _REDUCE_D[ctx.op_type], None, ctx.out_elem())
    ctx.bind(0, op.results[0])


@converts("ReduceLogSum", "ReduceLogSumExp")
def _reduce_log_sum(ctx: _NodeCtx) -> None:
    # reduce_log_sum_plugin.cc: ReduceSum(x) -> Log; reduce_log_sum_exp_plugin.cc:
    # Exp(x) -> ReduceSum -> Log (both with Const axes and keep_dims; computed axes stay
    # ReduceSum's input, as ReduceSum's own plugin keeps them).
    x = ctx.x(0)
    if not computed_axes(ctx) and _reduce_axes(ctx) is None:
        raise ctx.unsupported_attr("noop_with_empty_axes", 1, "GE's plugin always reduces (axes are empty)")
    if ctx.op_type == "ReduceLogSumExp":
        x = ctx.emit(ge.Exp, [x], [ctx.imp.tensor_type(ctx.elem(0), ctx.dims(0))], suffix="Exp").results[0]
    s = _reduce(ctx, x, ge.ReduceSumD, "ReduceSum", ctx.out_elem())
    ctx.single(ge.Log, [s.results[0]])


# -- concat, split -------------------------------------------------------------------------


@converts("Concat")
def _concat(ctx: _NodeCtx) -> None:
    # concat_plugin.cc: OpConcatUpdateInfo / ParseOpToGraphConcat: ConcatD {concat_dim =
    # axis, N}; one input -> Identity.
    n = ctx.n_inputs
    _same_dtype(ctx, range(n))
    if n == 1:
        ctx.single(ge.Identity, [ctx.x(0)])
        return
    axis = ctx.attr_int("axis", 0)
    ctx.single(ge.ConcatD, [ctx.x(i) for i in range(n)], {"concat_dim": _int(axis), "N": _int(n)})


@converts("Split")
def _split(ctx: _NodeCtx) -> None:
    # split_plugin.cc: ParseParamsSplitNew / ParseOpToGraphSplitNew: no sizes -> Split
    # {num_split}, sizes -> SplitV (Const size_splits), both with a Const split_dim: GE's
    # SplitD {split_dim, num_split} and SplitVD {size_splits, split_dim, num_split}.
    axis = ctx.attr_int("axis", 0)
    n = len(ctx.node.output)
    dims = ctx.dims(0)
    if not dims:
        raise ctx.error("cannot split a 0-d tensor")
    a = _norm_axis(ctx, axis, len(dims))
    if ctx.imp.opset >= 13 and ctx.has(1) and ctx.value(1).const is None:
        # a computed split: SplitV(x, size_splits, Const split_dim) as the plugin makes it,
        # folded and turned into SplitVD by GE's preparation (ge-const-to-attr)
        dim = ctx.const_value(np.array(axis, dtype=np.int32), _T.INT32, "split_dim")
        op = ctx.emit(ge.SplitV, [ctx.x(0), ctx.x(1), dim], [ctx.out_type(i) for i in range(n)], {"num_split": _int(n)})
        for i, r in enumerate(op.results):
            ctx.bind(i, r)
        return
    if ctx.imp.opset >= 13:
        sizes = ctx.const_ints(1, "split") if ctx.has(1) else None
    else:
        sizes = ctx.attr_ints("split")
    if sizes is None and ctx.imp.opset >= 18 and "num_outputs" in ctx.attrs:
        # Split-18: num_outputs parts of ceil(dim / n), the last one smaller.
        k = ctx.attr_int("num_outputs", n)
        part = -(-dims[a] // k)
        if dims[a] % k:
            sizes = [min(part, max(0, dims[a] - part * j)) for j in range(k)]
    attrs = {"split_dim": _int(axis), "num_split": _int(n)}
    types = [ctx.out_type(i) for i in range(n)]
    if sizes is None:
        op = ctx.emit(ge.SplitD, [ctx.x(0)], types, attrs)
    else:
        if len(sizes) != n:
            raise ctx.error(f"split has {len(sizes)} sizes for {n} outputs")
        op = ctx.emit(ge.SplitVD, [ctx.x(0)], types, {"size_splits": _ints(sizes), **attrs})
    for i, r in enumerate(op.results):
        ctx.bind(i, r)


# -- reshape family, transpose, expand -----------------------------------------------------


@converts("Reshape")
def _reshape(ctx: _NodeCtx) -> None:
    # reshape_plugin.cc: Reshape {allowzero} with its shape input. A constant shape becomes
    # the Const GE keeps as input 1, holding the resolved shape (ONNX's 0 = "copy" and -1
    # resolved), so the two readings of 0 cannot differ. A computed shape (PyTorch's
    # flatten: Shape -> Gather -> Unsqueeze -> Concat) stays input 1, for GE's
    # DimensionComputePass and ConstantFoldingPass to fold (passes/prepare/); the output's
    # static shape is ONNX's inference (data propagation) of it.
    if ctx.value(1).const is not None:
        ctx.const_ints(1, "shape")
        out = ctx.out_dims()
        shape = ctx.const_value(np.array(out, dtype=np.int64), _T.INT64, "shape")
        ctx.single(ge.Reshape, [ctx.x(0), shape])
        return
    if ctx.elem(1) not in (_T.INT64, _T.INT32) or len(ctx.dims(1)) != 1:
        raise ctx.error(
            f"input 1 ('shape') must be a 1-D integer tensor, got {_dtype_name(ctx.elem(1)).lower()} {list(ctx.dims(1))}"
        )
    ctx.single(ge.Reshape, [ctx.x(0), ctx.x(1)])


@converts("Flatten")
def _flatten(ctx: _NodeCtx) -> None:
    ctx.single(ge.Flatten, [ctx.x(0)], {"axis": _int(ctx.attr_int("axis", 1))})  # flatten_plugin.cc


@converts("Squeeze")
def _squeeze(ctx: _NodeCtx) -> None:
    # squeeze_plugin.cc: opsets <= 12: Squeeze {axis = axes}; 13+: SqueezeV3 with an axes
    # input, folded here (the dialect's SqueezeV3 is a one-input view of the output shape;
    # the folded axes are kept in `axes` for the reader).
    if ctx.imp.opset < 13:
        axes = ctx.attr_ints("axes")
        ctx.single(ge.Squeeze, [ctx.x(0)], {} if axes is None else {"axis": _ints(axes)})
        return
    if ctx.has(1) and ctx.value(1).const is None:
        ctx.single(ge.SqueezeV3, [ctx.x(0), ctx.x(1)])  # computed axes: SqueezeV3's input
        return
    axes = ctx.const_ints(1, "axes") if ctx.has(1) else None
    ctx.single(ge.SqueezeV3, [ctx.x(0)], {} if axes is None else {"axes": _ints(axes)})


@converts("Unsqueeze")
def _unsqueeze(ctx: _NodeCtx) -> None:
    # unsqueeze_plugin.cc: opsets <= 12: Unsqueeze {axes}; 13+: UnsqueezeV3 with an axes
    # input, folded as Squeeze's.
    if ctx.imp.opset < 13:
        ctx.single(ge.Unsqueeze, [ctx.x(0)], {"axes": _ints(ctx.attr_ints("axes", []) or [])})
        return
    if ctx.value(1).const is None:
        ctx.single(ge.UnsqueezeV3, [ctx.x(0), ctx.x(1)])  # computed axes: UnsqueezeV3's input
        return
    axes = ctx.const_ints(1, "axes")
    ctx.single(ge.UnsqueezeV3, [ctx.x(0)], {"axes": _ints(axes)})


@converts("Transpose")
def _transpose(ctx: _NodeCtx) -> None:
    # transpose_plugin.cc: ParseOpToGraphTranspose: Transpose(x, Const perm) -> TransposeD
    # {perm}. GE's plugin refuses an empty perm; ONNX's default (reversed axes) is used.
    rank = len(ctx.dims(0))
    perm = ctx.attr_ints("perm") or list(reversed(range(rank)))
    ctx.single(ge.TransposeD, [ctx.x(0)], {"perm": _ints(perm)})


@converts("Expand")
def _expand(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc: ai.onnx::11::Expand -> Expand(x, shape); with a constant shape
    # it is BroadcastToD {shape = the broadcast of x's shape and shape}. A computed shape
    # (torch's expand_as: Shape -> ... -> Expand) stays Expand's input, for GE's preparation
    # to fold and ge-const-to-attr to turn into BroadcastToD.
    if ctx.value(1).const is None:
        ctx.single(ge.Expand, [ctx.x(0), ctx.x(1)])
        return
    ctx.const_ints(1, "shape")
    ctx.single(ge.BroadcastToD, [ctx.x(0)], {"shape": _ints(ctx.out_dims())})


@converts("Shape")
def _shape(ctx: _NodeCtx) -> None:
    # shape_plugin.cc: Shape {dtype = DT_INT64}; the plugin reads no start/end (Shape-15).
    # Beyond it: a slice of a static shape is the Const of those dims, which is what GE's
    # DimensionComputePass makes of a Shape whose input shape is known
    # (graph/passes/dimension_compute_pass.cc); a slice of a shape with unknown dims is
    # refused.
    rank = len(ctx.dims(0))

    def clamp(v: int) -> int:
        return min(max(v + rank if v < 0 else v, 0), rank)

    start, end = clamp(ctx.attr_int("start", 0)), clamp(ctx.attr_int("end", rank))
    if (start, end) == (0, rank):
        ctx.single(ge.Shape, [ctx.x(0)])
        return
    sliced = ctx.dims(0)[start:end]
    if any(d < 0 for d in sliced):
        raise ctx.unsupported_attr(
            "start/end",
            f"{ctx.attr('start')}/{ctx.attr('end')}",
            "GE's Shape plugin takes the whole shape, and the sliced dims are not all known",
        )
    ctx.bind_const(0, np.array(sliced, dtype=np.int64), _T.INT64)


# -- gather, matmul, conv ------------------------------------------------------------------


@converts("Gather")
def _gather(ctx: _NodeCtx) -> None:
    # gather_plugin.cc: ParseOpToGraphGather: GatherV2(x, indices, Const axis: 0-d int32),
    # the axis Const named <name>_const_data. Beyond the plugin, which leaves GatherV2's
    # negative_index_support at its default (false): ONNX counts an index in [-dim, -1]
    # from the end, so the attribute is set (selection_ops.h: REG_OP(GatherV2)
    # .ATTR(negative_index_support, Bool, false)) and a negative index from data gives
    # ONNX's numbers at run time.
    axis = ctx.attr_int("axis", 0)
    ax = ctx.const_value(np.array(axis, dtype=np.int32), _T.INT32, "const_data")
    ctx.single(ge.GatherV2, [ctx.x(0), ctx.x(1), ax], {"negative_index_support": _TRUE})


def nonnegative_indices(ctx: _NodeCtx, i: int, dim: int | np.ndarray, suffix: str) -> SSAValue:
    """Input `i`, ONNX indices into an axis of size `dim` (or, an array, the sizes its last
    axis runs over: GatherND's and ScatterND's), with each index in [-dim, -1] moved to
    dim + index, for a GE op that reads only [0, dim) (GatherElements,
    ScatterElements, GatherNd, ...). A constant is rewritten at import; indices from data
    become SelectV2(Less(indices, 0), Add(indices, dim), indices) (selection_ops.h:
    REG_OP(SelectV2)), so the graph gives ONNX's numbers at run time. An index outside
    [-dim, dim) stays outside [0, dim): the GE op's range error still catches it."""
    v = ctx.value(i)
    elem = v.elem
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    if v.const is not None:
        idx = v.const
        if not (idx < 0).any():
            return ctx.x(i)
        fixed = np.where((idx < 0) & (idx >= -dim), idx + np.asarray(dim, dt), idx).astype(dt)
        return ctx.const_value(fixed, elem, f"{suffix}_nonnegative")
    x = ctx.x(i)
    t = ctx.imp.tensor_type(elem, v.dims)
    zero = ctx.const_value(np.zeros((), dt), elem, f"{suffix}_zero")
    size = ctx.const_value(np.asarray(dim, dt), elem, f"{suffix}_dim")
    neg = ctx.emit(ge.Less, [x, zero], [ctx.imp.tensor_type(_T.BOOL, v.dims)], suffix=f"{suffix}_Less")
    wrapped = ctx.emit(ge.Add, [x, size], [t], suffix=f"{suffix}_Add")
    sel = ctx.emit(ge.SelectV2, [neg.results[0], wrapped.results[0], x], [t], suffix=f"{suffix}_SelectV2")
    return sel.results[0]


@converts("MatMul")
def _matmul(ctx: _NodeCtx) -> None:
    # matmul_plugin.cc: MatMul -> BatchMatMulV2 {adj_x1 = adj_x2 = false}, whose batch
    # dims broadcast as ONNX's do; on two 2-D inputs it is the dialect's MatMul. A 1-D
    # input (numpy's vector case) is outside BatchMatMulV2's 2-D to 6-D.
    _same_dtype(ctx, (0, 1))
    ra, rb = len(ctx.dims(0)), len(ctx.dims(1))
    if ra == 2 and rb == 2:
        ctx.single(ge.MatMul, [ctx.x(0), ctx.x(1)])
        return
    if not (2 <= ra <= 6 and 2 <= rb <= 6):
        raise ctx.error(
            f"MatMul of a rank-{ra} and a rank-{rb} input: GE's BatchMatMulV2 (matmul_plugin.cc) takes 2-D to 6-D inputs"
        )
    ctx.single(ge.BatchMatMulV2, [ctx.x(0), ctx.x(1)], {"adj_x1": _FALSE, "adj_x2": _FALSE})


@converts("Gemm")
def _gemm(ctx: _NodeCtx) -> None:
    # gemm_plugin.cc: ParseParamsGemm: MatMulV2(A, B, C) {transpose_x1 = transA,
    # transpose_x2 = transB}; the plugin reads neither alpha nor beta. C of shape [N] or
    # [1, N] is the bias input; any other broadcastable C is added after the MatMul
    # (MatMulV2's bias is 1-D). Beyond the plugin, which would compute A*B + C for any
    # alpha and beta: alpha != 1 multiplies the product and beta != 1 multiplies C by a
    # 0-d Const (Mul), before the Add, so the graph gives ONNX's alpha*A*B + beta*C.
    _same_dtype(ctx, range(ctx.n_inputs))
    alpha, beta = ctx.attr_float("alpha", 1.0), ctx.attr_float("beta", 1.0)
    elem = ctx.elem(0)
    scaled = alpha != 1.0 or (ctx.has(2) and beta != 1.0)
    if scaled and elem not in _FLOATS:
        which = "alpha" if alpha != 1.0 else "beta"
        raise ctx.unsupported_attr(
            which, alpha if which == "alpha" else beta, "an integer Gemm takes alpha = beta = 1 (GE's Mul would round)"
        )
    attrs = {
        "transpose_x1": _bool(bool(ctx.attr_int("transA", 0))),
        "transpose_x2": _bool(bool(ctx.attr_int("transB", 0))),
    }
    n = ctx.out_dims()[1]
    if not scaled and (not ctx.has(2) or ctx.dims(2) in ((n,), (1, n))):
        ctx.single(ge.MatMul, [ctx.x(i) for i in range(3) if ctx.has(i)], attrs)
        return
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    if not ctx.has(2):
        mm = ctx.emit(ge.MatMul, [ctx.x(0), ctx.x(1)], [ctx.out_type()], attrs, suffix="MatMulV2")
        ctx.single(ge.Mul, [mm.results[0], _made_const(ctx, np.asarray(alpha, dt), elem, "alpha")])
        return
    y = ctx.emit(ge.MatMul, [ctx.x(0), ctx.x(1)], [ctx.out_type()], attrs, suffix="MatMulV2").results[0]
    if alpha != 1.0:
        a = _made_const(ctx, np.asarray(alpha, dt), elem, "alpha")
        y = ctx.emit(ge.Mul, [y, a], [ctx.out_type()], suffix="alpha_Mul").results[0]
    c = ctx.x(2)
    if beta != 1.0:
        b = _made_const(ctx, np.asarray(beta, dt), elem, "beta")
        c = ctx.emit(ge.Mul, [c, b], [ctx.imp.tensor_type(elem, ctx.dims(2))], suffix="beta_Mul").results[0]
    ctx.single(ge.Add, [y, c])


def _conv_pads(
    ctx: _NodeCtx, spatial: Sequence[int], kernel: Sequence[int], strides: Sequence[int], dilations: Sequence[int]
) -> list[int]:
    """ONNX's pads [b_1..b_n, e_1..e_n], with auto_pad resolved as ONNX defines it."""
    n = len(spatial)
    auto = ctx.attr_str("auto_pad", "NOTSET")
    if auto == "NOTSET":
        pads = ctx.attr_ints("pads", [0] * (2 * n)) or [0] * (2 * n)
        if len(pads) != 2 * n:
            raise ctx.unsupported_attr("pads", pads, f"a {n}-D Conv takes {2 * n} pads")
        return pads
    if auto == "VALID":
        return [0] * (2 * n)
    if auto not in ("SAME_UPPER", "SAME_LOWER"):
        raise ctx.unsupported_attr("auto_pad", auto, "ONNX defines NOTSET, VALID, SAME_UPPER and SAME_LOWER")
    begins, ends = [], []
    for i in range(n):
        out = -(-spatial[i] // strides[i])
        total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - spatial[i])
        small, big = total // 2, total - total // 2
        b, e = (small, big) if auto == "SAME_UPPER" else (big, small)
        begins.append(b)
        ends.append(e)
    return begins + ends


@converts("Conv")
def _conv(ctx: _NodeCtx) -> None:
    # conv_plugin.cc: SetAttrToOp / GetConvAttr / ParseOpToGraphConv: 4-D -> Conv2D with
    # strides and dilations as NCHW 4-lists, pads from ONNX's [top, left, bottom, right] to
    # [top, bottom, left, right], groups = group, data_format NCHW; a 1-D conv (trans_2d)
    # is Unsqueeze(axes=[2]) of x and the filter, Conv2D, Squeeze(axis=[2]). 5-D needs Conv3D.
    # auto_pad (GE keeps it as an attribute) is resolved into explicit pads here.
    _same_dtype(ctx, (0, 1))
    attrs = conv_attrs(ctx)
    x, w = ctx.x(0), ctx.x(1)
    bias = [ctx.x(2)] if ctx.has(2) else []
    conv_2d(ctx, x, w, bias, attrs, ctx.elem(0))


def conv_attrs(ctx: _NodeCtx) -> dict[str, Attribute]:
    """Conv2D's attributes of an ONNX Conv-like node (conv_plugin.cc's reading, see _conv)."""
    xd, wd = ctx.dims(0), ctx.dims(1)
    rank = len(xd)
    if rank == 5:
        raise ctx.error("a 3-D Conv (5-D input) needs Conv3D (conv_plugin.cc), which the ge dialect lacks")
    if rank not in (3, 4) or len(wd) != rank:
        raise ctx.error(f"Conv takes a 3-D or 4-D input and filter of the same rank, got {list(xd)} and {list(wd)}")
    n = rank - 2
    kernel = ctx.attr_ints("kernel_shape") or list(wd[2:])
    strides = ctx.attr_ints("strides", [1] * n) or [1] * n
    dilations = ctx.attr_ints("dilations", [1] * n) or [1] * n
    pads = _conv_pads(ctx, xd[2:], kernel, strides, dilations)
    group = ctx.attr_int("group", 1)
    if n == 1:  # trans_2d: the length axis becomes W, H = 1
        strides, dilations = [1, *strides], [1, *dilations]
        pads = [0, 0, pads[0], pads[1]]
    else:
        pads = [pads[0], pads[2], pads[1], pads[3]]
    attrs = {
        "strides": _ints([1, 1, *strides]),
        "pads": _ints(pads),
        "dilations": _ints([1, 1, *dilations]),
        "groups": _int(group),
        "data_format": StringAttr("NCHW"),
    }
    return attrs


def conv_2d(
    ctx: _NodeCtx, x: SSAValue, w: SSAValue, bias: list[SSAValue], attrs: dict[str, Attribute], elem: int
) -> None:
    """The node's output: Conv2D of `x` and `w` (of ONNX dtype `elem`) with _conv's
    attributes; a 1-D conv (3-D x) as Unsqueeze(axes=[2]) of both, Conv2D, Squeeze(axis=[2])."""
    xd, wd = ctx.dims(0), ctx.dims(1)
    if len(xd) == 4:
        ctx.single(ge.Conv2D, [x, w, *bias], attrs)
        return
    tt = ctx.imp.tensor_type
    x4 = ctx.emit(ge.Unsqueeze, [x], [tt(elem, (xd[0], xd[1], 1, xd[2]))], {"axes": _ints([2])}, suffix="UnsqueezeX")
    w4 = ctx.emit(ge.Unsqueeze, [w], [tt(elem, (wd[0], wd[1], 1, wd[2]))], {"axes": _ints([2])}, suffix="UnsqueezeW")
    od = ctx.out_dims()
    conv = ctx.emit(
        ge.Conv2D,
        [x4.results[0], w4.results[0], *bias],
        [tt(ctx.out_elem(), (od[0], od[1], 1, od[2]))],
        attrs,
        suffix="Conv2D",
    )
    ctx.single(ge.Squeeze, [conv.results[0]], {"axis": _ints([2])})


# -- graph preparation: nodes GE removes or folds (passes/prepare/) --------------------------


@converts("Dropout")
def _dropout(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc: ai.onnx::11::Dropout -> Dropout, which GE's DropOutPass deletes
    # in inference (dropout_pass.cc). In inference ONNX's output is the input and the mask
    # (output 1) all true: a Const of ones. training_mode (input 2, opset 12+) must be a
    # constant false: training is not compiled here.
    if ctx.has(2):
        tm = ctx.const(2, "training_mode")
        if tm.size != 1 or bool(tm.reshape(-1)[0]):
            raise ctx.unsupported_attr(
                "training_mode", "true", "only inference is compiled (DropOutPass removes Dropout)"
            )
    ctx.single(ge.Dropout, [ctx.x(0)])
    if len(ctx.node.output) > 1 and ctx.node.output[1]:
        ctx.bind_const(1, np.ones(ctx.out_dims(1), dtype=bool), ctx.out_elem(1))


@converts("Size")
def _size(ctx: _NodeCtx) -> None:
    ctx.single(ge.Size, [ctx.x(0)])  # size_plugin.cc: Size (int64 out); DimensionComputePass folds it


@converts("ConstantOfShape")
def _constant_of_shape(ctx: _NodeCtx) -> None:
    # constantofshape_plugin.cc: ConstantOfShape(shape) {value} -> Fill(dims = shape,
    # value = a 0-d Const of `value`, default float 0); ConstantFoldingPass folds a constant
    # or computed-then-folded shape (fill_kernel.cc).
    a = ctx.attrs.get("value")
    if a is None:
        arr = np.zeros((), dtype=np.float32)
        elem = _T.FLOAT
    else:
        if a.t.data_type not in _ELEM:
            raise ctx.unsupported_attr(
                "value", f"a {_dtype_name(a.t.data_type).lower()} tensor", f"supported dtypes: {_supported_dtypes()}"
            )
        arr = numpy_helper.to_array(a.t).reshape(())
        elem = a.t.data_type
    if ctx.elem(0) not in (_T.INT64, _T.INT32):
        raise ctx.error(f"input 0 ('shape') must be int64, got {_dtype_name(ctx.elem(0)).lower()}")
    value = ctx.const_value(arr, elem, "value")
    ctx.single(ge.Fill, [ctx.x(0), value])


@converts("Range")
def _range(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc: ai.onnx::11::Range -> Range(start, limit, delta)
    _same_dtype(ctx, (0, 1, 2))
    if ctx.elem(0) in (_T.FLOAT16, _T.BFLOAT16):
        # Range-27 takes float16 / bfloat16 and computes them in its stash_type (float32 by
        # default); GE's Range computes in its own dtype
        raise ctx.error(
            f"Range-27 of {_dtype_name(ctx.elem(0)).lower()} (stash_type {ctx.attr_int('stash_type', 1)}) "
            "is not supported: GE's Range computes in the output's dtype"
        )
    ctx.single(ge.Range, [ctx.x(i) for i in range(3)])


# -- constants -----------------------------------------------------------------------------


@converts("Constant")
def _constant(ctx: _NodeCtx) -> None:
    # onnx_parser.cc: kOnnxOpMap: Constant -> CONSTANT (a Const); made on first use.
    if len(ctx.attrs) != 1:
        raise ctx.error(f"Constant takes exactly one value attribute, got {sorted(ctx.attrs) or 'none'}")
    (key,) = ctx.attrs
    a = ctx.attrs[key]
    elem = ctx.out_elem()
    if key == "value":
        if a.t.data_type not in _ELEM:
            raise ctx.unsupported_attr(
                "value", f"a {_dtype_name(a.t.data_type).lower()} tensor", f"supported dtypes: {_supported_dtypes()}"
            )
        try:
            arr = numpy_helper.to_array(a.t)
        except Exception as e:
            raise ctx.error(f"cannot read the value tensor: {e}") from None
    elif key in ("value_float", "value_floats"):
        arr = np.array(ctx.attr(key), dtype=np.float32)
    elif key in ("value_int", "value_ints"):
        arr = np.array(ctx.attr(key), dtype=np.int64)
    else:
        raise ctx.unsupported_attr(
            key, "...", "only numeric tensors (value, value_float(s), value_int(s)) are supported"
        )
    ctx.bind_const(0, arr, elem)


# -- BatchNorm, pooling, Pad, Slice, Tile (the structural ops of real models) --------------


@converts("BatchNormalization")
def _batch_norm(ctx: _NodeCtx) -> None:
    # batch_normalization_plugin.cc: ParseParamsBatchNorm: BatchNorm {epsilon (ONNX's
    # default 1e-5), data_format = NCHW, is_training = false}; its y is the node's output,
    # the other five outputs (mean and variance passed on) are unused.
    if ctx.attr_int("training_mode", 0):
        raise ctx.unsupported_attr("training_mode", 1, "GE's BatchNorm mapping is inference only (is_training = false)")
    if sum(1 for o in ctx.node.output if o) > 1:
        raise ctx.error("only output Y is supported: GE's BatchNorm mapping is inference only (no running mean/var)")
    xd = ctx.dims(0)
    if len(xd) != 4:
        raise ctx.error(
            f"X has rank {len(xd)}: GE's BatchNorm mapping sets data_format NCHW (batch_normalization_plugin.cc), "
            "so X must be 4-D"
        )
    for i, what in ((1, "scale"), (2, "B"), (3, "input_mean"), (4, "input_var")):
        if ctx.elem(i) != _T.FLOAT:
            raise ctx.error(
                f"{what} is {_dtype_name(ctx.elem(i)).lower()}: GE's BatchNorm takes float32 scale, offset, mean and variance"
            )
    c = xd[1]
    f32 = ctx.imp.tensor_type(_T.FLOAT, (c,))
    types = [ctx.out_type(0), f32, f32, f32, f32, ctx.imp.tensor_type(_T.FLOAT, (1,))]
    attrs = {
        "epsilon": FloatAttr(ctx.attr_float("epsilon", 1e-5), Float32Type()),
        "data_format": StringAttr("NCHW"),
        "is_training": _bool(False),
    }
    op = ctx.emit(ge.BatchNorm, [ctx.x(i) for i in range(5)], types, attrs)
    ctx.bind(0, op.results[0])


def _pool_attrs(ctx: _NodeCtx, what: str) -> tuple[dict[str, Attribute], bool]:
    """The MaxPoolV3 / AvgPoolV2 attributes of an ONNX MaxPool / AveragePool (max_pool_plugin.cc:
    UpdateOnnxAttrFromOnnx / ParseParamsMaxPool, average_pool_plugin.cc: ParseParamsAveragePool):
    ksize / strides as NCHW 4-lists, pads [top, bottom, left, right] from ONNX's
    [b_1, b_2, e_1, e_2], padding_mode NOTSET -> CALCULATED, VALID -> VALID, SAME_UPPER and
    SAME_LOWER -> SAME, ceil_mode; a 1-D pool (trans_2d) pools [N, C, L, 1]. Returns the
    attributes and trans_2d."""
    xd = ctx.dims(0)
    kernel = ctx.attr_ints("kernel_shape")
    if not kernel:
        raise ctx.error("kernel_shape is required (GE's plugin refuses a pool without it)")
    n = len(kernel)
    if n == 3:
        raise ctx.error(f"a 3-D {ctx.op_type} needs {what}3D ({what.lower()}_plugin), which the ge dialect lacks")
    if n not in (1, 2) or len(xd) != n + 2:
        raise ctx.error(f"{ctx.op_type} takes a 3-D or 4-D X matching kernel_shape {kernel}, got {list(xd)}")
    strides = ctx.attr_ints("strides") or [1] * n
    dilations = ctx.attr_ints("dilations") or [1] * n
    if any(d != 1 for d in dilations):
        raise ctx.unsupported_attr(
            "dilations", dilations, f"GE's {what}V{'3' if what == 'MaxPool' else '2'} has no dilation"
        )
    auto = ctx.attr_str("auto_pad", "NOTSET")
    modes = {"NOTSET": "CALCULATED", "VALID": "VALID", "SAME_UPPER": "SAME", "SAME_LOWER": "SAME"}
    if auto not in modes:
        raise ctx.unsupported_attr("auto_pad", auto, "ONNX defines NOTSET, VALID, SAME_UPPER and SAME_LOWER")
    pads = (ctx.attr_ints("pads") or [0] * (2 * n)) if auto == "NOTSET" else [0] * (2 * n)
    if len(pads) != 2 * n:
        raise ctx.unsupported_attr("pads", pads, f"a {n}-D pool takes {2 * n} pads")
    if auto == "SAME_LOWER":
        for i in range(n):
            out = -(-xd[2 + i] // strides[i])
            if max(0, (out - 1) * strides[i] + kernel[i] - xd[2 + i]) % 2:
                raise ctx.unsupported_attr(
                    "auto_pad", auto, "GE maps it to SAME, which puts the odd pad at the end (SAME_UPPER's)"
                )
    trans = n == 1
    if trans:
        kernel, strides, pads4 = [kernel[0], 1], [strides[0], 1], [pads[0], pads[1], 0, 0]
    else:
        pads4 = [pads[0], pads[2], pads[1], pads[3]]
    if kernel[0] * kernel[1] > 255 or strides[0] > 63 or strides[1] > 63:
        raise ctx.error(
            f"a window of {kernel[0]}x{kernel[1]} or strides {strides} over the TBE limits (255 elements, stride 63): "
            "GE's plugin builds an AICPU pool in NHWC (TransposeD, PadV2) instead, which is not supported"
        )
    attrs: dict[str, Attribute] = {
        "ksize": _ints([1, 1, *kernel]),
        "strides": _ints([1, 1, *strides]),
        "padding_mode": StringAttr(modes[auto]),
        "pads": _ints(pads4),
        "ceil_mode": _bool(bool(ctx.attr_int("ceil_mode", 0))),
        "data_format": StringAttr("NCHW"),
    }
    return attrs, trans


def _pool(ctx: _NodeCtx, cls: type[Operation], attrs: dict[str, Attribute], trans: bool, what: str) -> None:
    """The pool of input 0; trans_2d: Unsqueeze(axes=[3]) first, Squeeze(axis=[3]) after
    (max_pool_plugin.cc / average_pool_plugin.cc: ParseOpToGraph*: UnsqueezeX, Squeeze*)."""
    if not trans:
        ctx.single(cls, [ctx.x(0)], attrs)
        return
    xd, od = ctx.dims(0), ctx.out_dims()
    tt = ctx.imp.tensor_type
    x4 = ctx.emit(ge.Unsqueeze, [ctx.x(0)], [tt(ctx.elem(0), (*xd, 1))], {"axes": _ints([3])}, suffix="UnsqueezeX")
    pool = ctx.emit(cls, [x4.results[0]], [tt(ctx.out_elem(), (*od, 1))], attrs, suffix=what)
    ctx.single(ge.Squeeze, [pool.results[0]], {"axis": _ints([3])})


@converts("MaxPool")
def _max_pool(ctx: _NodeCtx) -> None:
    # max_pool_plugin.cc: ParseParamsMaxPool / ParseOpToGraphMaxPool: MaxPoolV3 {ksize,
    # strides, padding_mode, pads, ceil_mode, data_format NCHW}; the Indices output and
    # storage_order = 1 are refused by the plugin.
    if sum(1 for o in ctx.node.output if o) > 1:
        raise ctx.error("the Indices output is not supported (max_pool_plugin.cc refuses it)")
    if ctx.attr_int("storage_order", 0):
        raise ctx.unsupported_attr("storage_order", 1, "GE's MaxPool plugin supports storage_order = 0 only")
    attrs, trans = _pool_attrs(ctx, "MaxPool")
    _pool(ctx, ge.MaxPoolV3, attrs, trans, "MaxPoolV3")


@converts("AveragePool")
def _average_pool(ctx: _NodeCtx) -> None:
    # average_pool_plugin.cc: ParseParamsAveragePool / ParseOpToGraphAveragePool: AvgPoolV2
    # {ksize, strides, padding_mode, pads, ceil_mode, exclusive = !count_include_pad,
    # data_format NCHW}.
    attrs, trans = _pool_attrs(ctx, "AvgPool")
    attrs["exclusive"] = _bool(not ctx.attr_int("count_include_pad", 0))
    _pool(ctx, ge.AvgPoolV2, attrs, trans, "AvgPoolV2")


@converts("GlobalAveragePool", "GlobalMaxPool")
def _global_pool(ctx: _NodeCtx) -> None:
    # global_average_pool_plugin.cc / global_max_pool_plugin.cc: AvgPool / MaxPool {ksize
    # [1, 1, -1, -1] (the whole plane), strides [1, 1, 1, 1], padding VALID, data_format
    # NCHW}; the whole plane is written as its size, [1, 1, H, W].
    xd = ctx.dims(0)
    if len(xd) != 4:
        raise ctx.error(f"X has rank {len(xd)}: GE's {ctx.op_type} mapping pools 4-D NCHW only")
    attrs = {
        "ksize": _ints([1, 1, xd[2], xd[3]]),
        "strides": _ints([1, 1, 1, 1]),
        "padding": StringAttr("VALID"),
        "data_format": StringAttr("NCHW"),
    }
    ctx.single(ge.AvgPool if ctx.op_type == "GlobalAveragePool" else ge.MaxPool, [ctx.x(0)], attrs)


@converts("Pad")
def _pad(ctx: _NodeCtx) -> None:
    # pad_plugin.cc: parse_params_pad_v11: PadV3(x, pads, constant_value) {mode,
    # paddings_contiguous = false (ONNX's [b_1, ..., b_n, e_1, ..., e_n])}. Pad-18's axes
    # (after the plugin's opsets) are folded into full-rank paddings (pads and axes must
    # then be constants); without axes the pads input is PadV3's, a constant or computed
    # (GE's preparation folds it). Pad-19's wrap mode is not a PadV3 mode.
    mode = ctx.attr_str("mode", "constant")
    if mode not in ge.PAD_MODES:
        raise ctx.unsupported_attr("mode", mode, f"GE's PadV3 supports {', '.join(ge.PAD_MODES)}")
    rank = len(ctx.dims(0))
    paddings = ctx.x(1)
    if ctx.has(3):
        pads = ctx.const_ints(1, "pads")  # spread over the axes here: both must be constants
        axes = [_norm_axis(ctx, a, rank, "axes entry") for a in ctx.const_ints(3, "axes")]
        if len(pads) != 2 * len(axes) or len(set(axes)) != len(axes):
            raise ctx.error(f"pads {pads} do not match axes {axes} (2 per axis, each axis once)")
        full = [0] * (2 * rank)
        for k, a in enumerate(axes):
            full[a], full[rank + a] = pads[k], pads[len(axes) + k]
        paddings = ctx.const_value(np.array(full, dtype=np.int64), _T.INT64, "paddings")
    ins = [ctx.x(0), paddings]
    if mode == "constant" and ctx.has(2):
        ins.append(ctx.x(2))
    ctx.single(ge.PadV3, ins, {"mode": StringAttr(mode), "paddings_contiguous": _FALSE})


@converts("Slice")
def _slice(ctx: _NodeCtx) -> None:
    # slice_plugin.cc: ai.onnx::11/12/13::Slice -> StridedSliceV2(x, starts, ends, axes,
    # steps), the inputs as they are: constants, or computed ones GE's preparation folds
    # (torch's x[:, :n]: Shape -> Gather -> Unsqueeze -> Slice ends).
    # Without axes but with steps, axes is ONNX's default [0, 1, ..., len(starts) - 1].
    ins = [ctx.x(0), ctx.x(1), ctx.x(2)]
    if ctx.has(3):
        ins.append(ctx.x(3))
    elif ctx.has(4):
        n = ctx.dims(1)[0] if len(ctx.dims(1)) == 1 else len(ctx.const_ints(1, "starts"))
        ins.append(ctx.const_value(np.arange(n, dtype=np.int64), _T.INT64, "axes"))
    if ctx.has(4):
        ins.append(ctx.x(4))
    ctx.single(ge.StridedSliceV2, ins)


@converts("Tile")
def _tile(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc: ai.onnx::11::Tile -> Tile(x, multiples = repeats).
    ctx.single(ge.Tile, [ctx.x(0), ctx.x(1)])


# -- ArgMax / ArgMin, GatherElements, Trilu ------------------------------------------------


@converts("ArgMax", "ArgMin")
def _arg(ctx: _NodeCtx) -> None:
    # argmax_plugin.cc: ParseParamsArgMax / ParseOpToGraphArgMax: ArgMaxV2(x, Const
    # dimension: 0-d int32 axis, named <name>_const_data) {dtype = DT_INT64}, then with
    # keepdims = 1 (the default) ExpandDims. argmin_plugin.cc: the same with ArgMin
    # {dtype = DT_INT32}, whose int32 indices a Cast turns into the int64 ONNX's ArgMin
    # yields. The plugins' ExpandDims axis Const holds keep_dims (1), which is the reduced
    # axis only when axis = 1: the reduced axis is used. The plugins refuse
    # select_last_index = 1; beyond them, x reversed along the axis (GatherV2 of the
    # indices n-1 .. 0) gives the first index i of the reversed order, and n - 1 - i (Sub)
    # is ONNX's last index.
    dims = ctx.dims(0)
    axis = ctx.attr_int("axis", 0)
    a = _norm_axis(ctx, axis, len(dims))
    keep = bool(ctx.attr_int("keepdims", 1))
    last = bool(ctx.attr_int("select_last_index", 0))
    is_max = ctx.op_type == "ArgMax"
    cls, elem, dt = (ge.ArgMaxV2, _T.INT64, 9) if is_max else (ge.ArgMin, _T.INT32, 3)
    tt = ctx.imp.tensor_type
    x = ctx.x(0)
    if last:
        rev = ctx.const_value(np.arange(dims[a] - 1, -1, -1, dtype=np.int64), _T.INT64, "reverse_indices")
        rax = ctx.const_value(np.array(a, dtype=np.int32), _T.INT32, "reverse_axis")
        x = ctx.emit(ge.GatherV2, [x, rev, rax], [tt(ctx.elem(0), dims)], suffix="reverse").results[0]
    dim = ctx.const_value(np.array(axis, dtype=np.int32), _T.INT32, "const_data")
    reduced = dims[:a] + dims[a + 1 :]
    steps: list[tuple[type[Operation], list[SSAValue], dict[str, Attribute], int, tuple[int, ...]]] = []
    steps.append((cls, [x, dim], {"dtype": _int(dt)}, elem, reduced))
    if keep:
        steps.append((ge.ExpandDims, [], {"axis": _int(a)}, elem, ctx.out_dims()))
    if not is_max:
        steps.append((ge.Cast, [], {"dst_type": _int(_GE_DATATYPE[_T.INT64])}, _T.INT64, ctx.out_dims()))
    y: SSAValue | None = None
    for k, (op_cls, operands, attrs, out_elem, out_dims) in enumerate(steps):
        final = k == len(steps) - 1 and not last
        suffix = None if final else op_cls.name.split(".")[1]
        op = ctx.emit(op_cls, operands or [y], [tt(out_elem, out_dims)], attrs, suffix=suffix)  # type: ignore[list-item]
        y = op.results[0]
    assert y is not None
    if last:
        n1 = ctx.const_value(np.array(dims[a] - 1, dtype=np.int64), _T.INT64, "last_index")
        ctx.single(ge.Sub, [n1, y])
        return
    ctx.bind(0, y)


@converts("GatherElements")
def _gather_elements(ctx: _NodeCtx) -> None:
    # gather_elements_plugin.cc: ParseParamsGatherElements: GatherElements {dim = axis}.
    # GE's op follows PyTorch's gather, where a negative index is out of range; ONNX's
    # counts from the end. Beyond the plugin, the indices go through nonnegative_indices
    # first (a constant rewritten, data through SelectV2), so GE's op gives ONNX's numbers.
    dims = ctx.dims(0)
    axis = _norm_axis(ctx, ctx.attr_int("axis", 0), len(dims))
    idx = nonnegative_indices(ctx, 1, dims[axis], "indices")
    ctx.single(ge.GatherElements, [ctx.x(0), idx], {"dim": _int(ctx.attr_int("axis", 0))})


@converts("Trilu")
def _trilu(ctx: _NodeCtx) -> None:
    # trilu_plugin.cc: ParseParamsTrilu / ParseOpToGraphTrilu: upper (default 1) -> Triu,
    # else Tril, {diagonal = 0}. The public copy's plugin refuses the k input ("now only
    # support one input"); a constant k is Tril/Triu's diagonal attribute, folded here.
    # Beyond the plugin, a k from data keeps element (i, j) where j - i >= k (upper) or
    # <= k: GreaterEqual / LessEqual of a Const of j - i and k, then SelectV2 of x and 0.
    upper = bool(ctx.attr_int("upper", 1))
    if ctx.has(1) and ctx.value(1).const is None:
        if int(np.prod(ctx.dims(1), dtype=np.int64)) != 1:
            raise ctx.error(f"k must hold one value, got shape {list(ctx.dims(1))}")
        rows, cols = ctx.dims(0)[-2:]
        offs = (np.arange(cols, dtype=np.int64)[None, :] - np.arange(rows, dtype=np.int64)[:, None]).astype(np.int64)
        d = ctx.const_value(offs, _T.INT64, "diagonal_offsets")
        k = ctx.x(1)
        if ctx.elem(1) != _T.INT64:
            raise ctx.error(f"k must be int64, got {_dtype_name(ctx.elem(1)).lower()}")
        keep = ctx.emit(ge.GreaterEqual if upper else ge.LessEqual, [d, k], [ctx.imp.tensor_type(_T.BOOL, (rows, cols))],
                        suffix="keep").results[0]  # fmt: skip
        zero = ctx.const_value(np.zeros((), onnx.helper.tensor_dtype_to_np_dtype(ctx.elem(0))), ctx.elem(0), "zero")
        ctx.single(ge.SelectV2, [keep, ctx.x(0), zero])
        return
    k = ctx.const_ints(1, "k") if ctx.has(1) else [0]
    if len(k) != 1:
        raise ctx.error(f"k must hold one value, got {len(k)}")
    cls = ge.Triu if upper else ge.Tril
    ctx.single(cls, [ctx.x(0)], {"diagonal": _int(k[0])})


# -- Resize --------------------------------------------------------------------------------


def _resize_matches(mode: str, nm: str, coord: str, flags: tuple[bool, bool], n: int, m: int, scale: float) -> bool:
    """Whether GE's ResizeNearestNeighborV2 / ResizeBilinearV2 with (align_corners,
    half_pixel_centers) = `flags` computes ONNX's Resize on one axis of n -> m pixels:
    the same source pixel of each output (nearest) or the same interpolation matrix
    (linear)."""
    from ge_dialect import resize as R  # the ops' semantics, ONNX's and GE's (loads numpy: here only)

    if mode == "nearest":
        return bool(np.array_equal(R.onnx_resize_index(coord, nm, n, m, scale), R.tf_nearest_index(*flags, n, m)))
    want = R.resize_matrix(*R.onnx_resize_weights(coord, n, m, scale), n)
    return bool(np.allclose(want, R.resize_matrix(*R.tf_linear_weights(*flags, n, m), n), rtol=0, atol=1e-5))


def _resize_vector(ctx: _NodeCtx, i: int, axes: list[int], defaults: np.ndarray, elem: int, what: str) -> SSAValue:
    """Input `i` (Resize's roi, scales or sizes: one value per axis of `axes`, or roi's
    starts then ends) as the full 4-D vector GE's Resize takes: as it is for the 4 axes in
    order, else ConcatD of the `defaults` (a Const) and the input, and GatherV2 of each
    axis's entry (the input's for an axis in `axes`, else its default)."""
    k = len(axes)
    if axes == [0, 1, 2, 3]:
        return ctx.x(i)
    per = defaults.size // 4  # 1 (scales, sizes) or 2 (roi: start and end)
    idx = []
    for half in range(per):
        idx += [defaults.size + half * k + axes.index(a) if a in axes else half * 4 + a for a in range(4)]
    tt = ctx.imp.tensor_type
    d = ctx.const_value(defaults, elem, f"{what}_defaults")
    both = ctx.emit(
        ge.ConcatD, [d, ctx.x(i)], [tt(elem, (defaults.size + per * k,))], {"concat_dim": _int(0), "N": _int(2)},
        suffix=f"{what}_ConcatD",
    ).results[0]  # fmt: skip
    index = ctx.const_value(np.array(idx, np.int64), _T.INT64, f"{what}_index")
    axis = ctx.const_value(np.array(0, np.int32), _T.INT32, f"{what}_axis")
    return ctx.emit(ge.GatherV2, [both, index, axis], [tt(elem, (len(idx),))], suffix=f"{what}_GatherV2").results[0]


def _resize_onnx_op(ctx: _NodeCtx, mode: str, coord: str, nm: str, axes: list[int]) -> None:
    """GE's Resize (image_ops.h: REG_OP(Resize), ONNX's attributes) with the node's roi,
    scales and sizes as its inputs, each made 4-D (_resize_vector): constants, or values
    computed from the data, which GE's Resize reads when it runs."""
    xd = ctx.dims(0)
    attrs: dict[str, Attribute] = {
        "coordinate_transformation_mode": StringAttr(coord),
        "mode": StringAttr(mode),
        "nearest_mode": StringAttr(nm),
    }
    if mode == "cubic":
        attrs["cubic_coeff_a"] = _f32(ctx.attr_float("cubic_coeff_a", -0.75))
        attrs["exclude_outside"] = _int(ctx.attr_int("exclude_outside", 0))
    if coord == "tf_crop_and_resize":
        attrs["extrapolation_value"] = _f32(ctx.attr_float("extrapolation_value", 0.0))
        if not ctx.has(1):
            raise ctx.error("tf_crop_and_resize needs the roi input")
        relem = ctx.elem(1)
        if ctx.dims(1) != (2 * len(axes),):
            raise ctx.error(f"roi has shape {list(ctx.dims(1))}: tf_crop_and_resize takes a start and an end per axis")
        rdt = onnx.helper.tensor_dtype_to_np_dtype(relem)
        roi = _resize_vector(ctx, 1, axes, np.array([0, 0, 0, 0, 1, 1, 1, 1], rdt), relem, "roi")
    else:
        roi = ctx.const_value(np.zeros(0, np.float32), _T.FLOAT, "roi")
    if ctx.has(3):
        sizes = _resize_vector(ctx, 3, axes, np.array(xd, np.int64), ctx.elem(3), "sizes")
        operands = [ctx.x(0), roi, ctx.const_value(np.zeros(0, np.float32), _T.FLOAT, "scales"), sizes]
    else:
        if coord == "tf_crop_and_resize":
            raise ctx.error("tf_crop_and_resize with scales: only with sizes is it imported")
        operands = [ctx.x(0), roi, _resize_vector(ctx, 2, axes, np.ones(4, np.float32), _T.FLOAT, "scales")]
    ctx.single(ge.Resize, operands, attrs)


@converts("Resize")
def _resize(ctx: _NodeCtx) -> None:
    # CANN: onnx_plugin/resize_plugin.cc: ParseParamsResize / ParseOpToGraphResize: mode nearest ->
    # ResizeNearestNeighborV2, linear -> ResizeBilinearV2, any other mode fails
    # ("Unsupported interpolation mode": no cubic), (x, size = [H, W] of sizes, or of
    # shape * scales) {align_corners = (coordinate_transformation_mode == align_corners),
    # half_pixel_centers = (mode == pytorch_half_pixel)}; every other coordinate mode gets
    # both false (TensorFlow's asymmetric mapping); nearest_mode is not read. The size is
    # written as the Const GE folds it into.
    # Departures where those attributes compute other numbers than ONNX's Resize (the
    # plugin computes half_pixel, ONNX's default, as asymmetric and ignores nearest_mode):
    # the same GE op gets the setting, of the three, that computes ONNX's source pixels
    # (nearest) or interpolation weights (linear) for this node's static sizes on both
    # axes, the plugin's own first (half_pixel linear is exactly half_pixel_centers;
    # tf_half_pixel_for_nn floor and half_pixel round_prefer_ceil nearest are
    # half_pixel_centers; asymmetric floor is both false, ...). A node no setting computes
    # becomes GE's Resize op (image_ops.h: REG_OP(Resize), whose attributes are ONNX's,
    # with the node's scales or sizes), and so does, beyond the plugin, a cubic one (its
    # cubic_coeff_a and exclude_outside), a tf_crop_and_resize one (its roi and
    # extrapolation_value) and one whose scales are computed from the data (the scale of
    # each axis is only known when it runs: GE's Resize reads its scales input). Refused:
    # antialias when linear or cubic downscale (GE's Resize has no antialiasing filter),
    # keep_aspect_ratio_policy with sizes from the data, resizing N or C.
    from ge_dialect.resize import ONNX_NEAREST_ROUNDING, ONNX_RESIZE_COORDINATES

    mode = ctx.attr_str("mode", "nearest")
    coord = ctx.attr_str("coordinate_transformation_mode", "half_pixel")
    nm = ctx.attr_str("nearest_mode", "round_prefer_floor")
    policy = ctx.attr_str("keep_aspect_ratio_policy", "stretch")
    if mode not in ("nearest", "linear", "cubic"):
        raise ctx.unsupported_attr("mode", mode, "ONNX's modes are nearest, linear and cubic")
    if coord not in ONNX_RESIZE_COORDINATES and coord != "tf_crop_and_resize":
        raise ctx.unsupported_attr(
            "coordinate_transformation_mode",
            coord,
            "supported: " + ", ".join([*ONNX_RESIZE_COORDINATES, "tf_crop_and_resize"]),
        )
    # Resize-11 has tf_half_pixel_for_nn, Resize-19 adds half_pixel_symmetric (ONNX's schemas)
    for m, ok in (("tf_half_pixel_for_nn", ctx.imp.opset < 13), ("half_pixel_symmetric", ctx.imp.opset >= 19)):
        if coord == m and not ok:
            raise ctx.unsupported_attr(
                "coordinate_transformation_mode", coord, f"not a mode of Resize at opset {ctx.imp.opset}"
            )
    if mode == "nearest" and nm not in ONNX_NEAREST_ROUNDING:
        raise ctx.unsupported_attr("nearest_mode", nm, "ONNX's are " + ", ".join(ONNX_NEAREST_ROUNDING))
    xd, od = ctx.dims(0), ctx.out_dims()
    if len(xd) != 4:
        raise ctx.error(f"X has rank {len(xd)}: GE's resize ops take 4-D NCHW")
    axes = [a + 4 if -4 <= a < 0 else a for a in (ctx.attr_ints("axes") or [0, 1, 2, 3])]
    if len(set(axes)) != len(axes) or not all(0 <= a < 4 for a in axes):
        raise ctx.unsupported_attr("axes", axes, "axes must be distinct axes of the 4-D X")
    if any(o >= 0 and o != x for o, x in zip(od[:2], xd[:2])):
        raise ctx.error(f"resizing N or C ({list(xd)} -> {list(od)}) is not supported: GE's resize ops resize H and W")
    antialias = ctx.attr_int("antialias", 0) and mode != "nearest"
    # ONNX's scale per axis: the scales input, or out / in of the sizes (one scale for all
    # the axes with keep_aspect_ratio_policy not_larger / not_smaller)
    scale = [1.0] * 4
    by_sizes = ctx.has(3)
    computed = by_sizes and ctx.value(3).const is None
    if not by_sizes and not ctx.has(2):
        raise ctx.error("neither scales nor sizes is given")
    computed_scales = not by_sizes and ctx.value(2).const is None
    if computed and policy != "stretch":
        # sizes computed in the graph (torch's interpolate(size=...): Shape -> Slice ->
        # Concat): with the stretch policy they are the output shape ONNX's inference gives
        raise ctx.error(
            f"input 3 ('sizes') must be a constant with keep_aspect_ratio_policy {policy} "
            f"(its scale is computed from the sizes' values); it is {ctx.value(3).producer}"
        )
    if (computed or computed_scales) and antialias:
        raise ctx.unsupported_attr(
            "antialias", 1, "with sizes or scales from the data (GE's Resize has no antialiasing)"
        )
    if computed and (len(ctx.dims(3)) != 1 or ctx.dims(3)[0] != len(axes)):
        raise ctx.error(f"sizes has shape {list(ctx.dims(3))} for {len(axes)} axes")
    if computed_scales and (len(ctx.dims(2)) != 1 or ctx.dims(2)[0] != len(axes)):
        raise ctx.error(f"scales has shape {list(ctx.dims(2))} for {len(axes)} axes")
    if (
        computed_scales
        or mode == "cubic"
        or coord == "tf_crop_and_resize"
        or (computed and any(od[a] < 0 for a in axes))
    ):
        if antialias:
            raise ctx.unsupported_attr("antialias", 1, "GE's Resize has no antialiasing filter")
        # ONNX's inference does not follow computed sizes' values: GE's Resize infers the
        # output once GE's preparation has folded them (resize_onnx_plugin.cpp's
        # BuildInterpolatingResize makes GE's Resize for linear)
        _resize_onnx_op(ctx, mode, coord, nm, axes)
        return
    if by_sizes:
        if computed:
            sizes = np.array([od[a] for a in axes], dtype=np.float64)
        else:
            sizes = ctx.const(3, "sizes").astype(np.float64).reshape(-1)
        if sizes.size != len(axes):
            raise ctx.error(f"sizes holds {sizes.size} values for {len(axes)} axes")
        ratios = [float(np.float32(sizes[k]) / np.float32(xd[a])) for k, a in enumerate(axes)]
        if policy in ("not_larger", "not_smaller"):
            ratios = [min(ratios) if policy == "not_larger" else max(ratios)] * len(axes)
            by_sizes = False  # the coordinates use that one scale, not out / in
        for k, a in enumerate(axes):
            scale[a] = ratios[k]
    else:
        scales = ctx.const(2, "scales").astype(np.float32).reshape(-1)
        if scales.size != len(axes):
            raise ctx.error(f"scales holds {scales.size} values for {len(axes)} axes")
        for k, a in enumerate(axes):
            scale[a] = float(scales[k])
    if antialias and min(scale[2:]) < 1:
        raise ctx.unsupported_attr("antialias", 1, "GE's resize ops have no antialiasing filter for downscaling")
    plugin = (coord == "align_corners", coord == "pytorch_half_pixel")
    candidates = [plugin] + [f for f in ((False, True), (False, False), (True, False)) if f != plugin]
    flags = next(
        (f for f in candidates if all(_resize_matches(mode, nm, coord, f, xd[a], od[a], scale[a]) for a in (2, 3))),
        None,
    )
    if flags is not None and computed:
        # resize_onnx_plugin.cpp: BuildResizeSizesFromInputs (Cast of sizes to int32) and
        # CreateSliceForResize (Slice of [H, W]): here StridedSliceV2 of the H and W
        # entries (GatherV2 of them when axes lists them in another order)
        tt = ctx.imp.tensor_type
        n = len(axes)
        cast = ctx.emit(
            ge.Cast, [ctx.x(3)], [tt(_T.INT32, (n,))], {"dst_type": _int(_GE_DATATYPE[_T.INT32])}, suffix="Cast0"
        ).results[0]
        k = axes.index(2)
        if axes[k + 1 : k + 2] == [3]:
            begin = ctx.const_value(np.array([k], np.int64), _T.INT64, "data_offsets")
            end = ctx.const_value(np.array([k + 2], np.int64), _T.INT64, "data_end")
            size = ctx.emit(ge.StridedSliceV2, [cast, begin, end], [tt(_T.INT32, (2,))], suffix="Slice").results[0]
        else:
            hw = ctx.const_value(np.array([k, axes.index(3)], np.int64), _T.INT64, "hw_index")
            axis = ctx.const_value(np.array(0, np.int32), _T.INT32, "hw_axis")
            size = ctx.emit(ge.GatherV2, [cast, hw, axis], [tt(_T.INT32, (2,))], suffix="GatherV2").results[0]
        cls = ge.ResizeNearestNeighborV2 if mode == "nearest" else ge.ResizeBilinearV2
        ctx.single(cls, [ctx.x(0), size], {"align_corners": _bool(flags[0]), "half_pixel_centers": _bool(flags[1])})
        return
    if flags is not None:
        size = ctx.const_value(np.array(od[2:], dtype=np.int32), _T.INT32, "size")
        cls = ge.ResizeNearestNeighborV2 if mode == "nearest" else ge.ResizeBilinearV2
        ctx.single(cls, [ctx.x(0), size], {"align_corners": _bool(flags[0]), "half_pixel_centers": _bool(flags[1])})
        return
    if not by_sizes and policy != "stretch":
        floor = [math.floor(float(np.float32(xd[a]) * np.float32(scale[a]))) for a in (2, 3)]
        if floor != list(od[2:]):
            raise ctx.unsupported_attr(
                "keep_aspect_ratio_policy",
                policy,
                f"its output {list(od[2:])} rounds in * {scale[2]}, GE's Resize floors it to {floor}",
            )
    roi = ctx.const_value(np.zeros(0, np.float32), _T.FLOAT, "roi")
    operands = [ctx.x(0), roi, ctx.const_value(np.array(scale, np.float32), _T.FLOAT, "scales")]
    if computed:
        operands.append(_resize_vector(ctx, 3, axes, np.array(xd, np.int64), ctx.elem(3), "sizes"))
    elif by_sizes:
        operands.append(ctx.const_value(np.array(od, np.int64), _T.INT64, "sizes"))
    attrs = {
        "coordinate_transformation_mode": StringAttr(coord),
        "mode": StringAttr(mode),
        "nearest_mode": StringAttr(nm),
    }
    ctx.single(ge.Resize, operands, attrs)


# -- ConvTranspose -------------------------------------------------------------------------


@converts("ConvTranspose")
def _conv_transpose(ctx: _NodeCtx) -> None:
    # conv_transpose_plugin.cc: SetAttrToOpConvTranspose / ParseOpToGraphConvTranspose: 4-D ->
    # Conv2DTranspose(Const input_size = zeros (GE infers it), x, filter [, bias]) {strides
    # [1, 1, sh, sw], pads from ONNX's [top, left, bottom, right] to [top, bottom, left,
    # right], dilations [1, 1, dh, dw], groups = group, output_padding [0, 0, oh, ow],
    # data_format NCHW}; a 1-D one (trans_2d) is Unsqueeze(axes=[2]) of x and the filter,
    # Conv2DTranspose, Squeeze(axis=[2]). 5-D needs
    # Conv3DTranspose. The plugin's comment says the AI-core op "does not support auto_pad"
    # and intercepts it; output_shape sets auto_pad: both are refused.
    _same_dtype(ctx, (0, 1))
    xd, wd = ctx.dims(0), ctx.dims(1)
    rank = len(xd)
    # The plugin refuses a ConvTranspose without kernel_shape; ONNX reads it from the
    # filter's spatial dims then, and so does this import (beyond the plugin: the filter
    # is there, the attribute only repeats it).
    kernel = ctx.attr_ints("kernel_shape") or list(wd[2:])
    if rank == 5:
        raise ctx.error(
            "a 3-D ConvTranspose (5-D input) needs Conv3DTranspose (conv_transpose_plugin.cc), which the ge dialect lacks"
        )
    if rank not in (3, 4) or len(wd) != rank or len(kernel) != rank - 2:
        raise ctx.error(
            f"ConvTranspose takes a 3-D or 4-D input and filter of the same rank, got {list(xd)} and {list(wd)}"
        )
    auto = ctx.attr_str("auto_pad", "NOTSET")
    if auto != "NOTSET":
        raise ctx.unsupported_attr(
            "auto_pad", auto, "GE's Conv2DTranspose does not support auto_pad (conv_transpose_plugin.cc)"
        )
    if ctx.attr("output_shape") is not None:
        raise ctx.unsupported_attr(
            "output_shape",
            ctx.attr("output_shape"),
            "GE's plugin turns it into auto_pad, which Conv2DTranspose does not support",
        )
    n = rank - 2
    strides = ctx.attr_ints("strides") or [1] * n
    dilations = ctx.attr_ints("dilations") or [1] * n
    pads = ctx.attr_ints("pads") or [0] * (2 * n)
    out_pad = ctx.attr_ints("output_padding") or [0] * n
    if len(pads) != 2 * n:
        raise ctx.unsupported_attr("pads", pads, f"a {n}-D ConvTranspose takes {2 * n} pads")
    if n == 1:
        if ctx.attr("output_padding") is not None:
            raise ctx.unsupported_attr(
                "output_padding", out_pad, "GE's plugin reads two output_padding values, a 1-D ConvTranspose has one"
            )
        strides, dilations, pads4, out_pad = (
            [strides[0], strides[0]],
            [1, dilations[0]],
            [0, 0, pads[0], pads[1]],
            [0, 0],
        )
    else:
        pads4 = [pads[0], pads[2], pads[1], pads[3]]
    attrs = {
        "strides": _ints([1, 1, *strides]),
        "pads": _ints(pads4),
        "dilations": _ints([1, 1, *dilations]),
        "groups": _int(ctx.attr_int("group", 1)),
        "output_padding": _ints([0, 0, *out_pad]),
        "data_format": StringAttr("NCHW"),
    }
    size = ctx.const_value(np.zeros((4,), dtype=np.int64), _T.INT64, "Const")
    x, w = ctx.x(0), ctx.x(1)
    bias = [ctx.x(2)] if ctx.has(2) else []
    if n == 2:
        ctx.single(ge.Conv2DTranspose, [size, x, w, *bias], attrs)
        return
    elem, tt, od = ctx.elem(0), ctx.imp.tensor_type, ctx.out_dims()
    x4 = ctx.emit(ge.Unsqueeze, [x], [tt(elem, (xd[0], xd[1], 1, xd[2]))], {"axes": _ints([2])}, suffix="UnsqueezeX")
    w4 = ctx.emit(ge.Unsqueeze, [w], [tt(elem, (wd[0], wd[1], 1, wd[2]))], {"axes": _ints([2])}, suffix="UnsqueezeW")
    conv = ctx.emit(
        ge.Conv2DTranspose,
        [size, x4.results[0], w4.results[0], *bias],
        [tt(ctx.out_elem(), (od[0], od[1], 1, od[2]))],
        attrs,
        suffix="Conv2DTranspose",
    )
    ctx.single(ge.Squeeze, [conv.results[0]], {"axis": _ints([2])})
