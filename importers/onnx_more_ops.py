"""More ai.onnx ops for importers/onnx.py: the ops ONNX's node tests and real
models use that GE has, each as its CANN ONNX plugin maps it
(`ops/built-in/framework/onnx_plugin/*_plugin.cc`), or, where the public copy has no plugin
or the plugin is narrower than ONNX, as a short sequence of GE ops that gives ONNX's
numbers (said at each converter).

importers/__init__.py imports this module, which registers the converters with importers/onnx.py's
`converts` decorator and adds their rows to its MAPPINGS table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import SSAValue

from ge_dialect import ge
from importers.onnx import (
    _GE_DATATYPE,
    _T,
    CAST_DTYPES,
    MAPPINGS,
    _bool,
    _dtype_name,
    _int,
    _ints,
    _NodeCtx,
    _norm_axis,
    _pool_attrs,
    _reduce,
    _reduce_axes,
    _same_dtype,
    _table,
    cast_to,
    computed_axes,
    conv_2d,
    conv_attrs,
    converts,
    nonnegative_indices,
)

# ONNX op | GE op(s) | plugin file (rows of importers/onnx.py's MAPPINGS)
MAPPINGS.update(
    _table(
        """
    BitShift | LeftShift / RightShift | bitshift_plugin.cc
    BitwiseAnd | BitwiseAnd (no plugin in the public copy) | -
    BitwiseOr | BitwiseOr (no plugin in the public copy) | -
    BitwiseXor | BitwiseXor (no plugin in the public copy) | -
    BitwiseNot | Invert (no plugin in the public copy) | -
    CastLike | Cast (no plugin in the public copy) | -
    CumSum | Cumsum | cumsum_plugin.cc
    DepthToSpace | DepthToSpace | depth_to_space_plugin.cc
    GatherND | GatherNd (negative indices: Less, Add, SelectV2) | gather_nd_plugin.cc
    Hardmax | HardMax (opsets 11-12: Reshape, HardMax, Reshape) | hardmax_plugin.cc
    PRelu | Less, Mul, SelectV2 (ONNX's broadcast slope) | similar_opp_plugins.cc
    ReduceL1 | Abs, ReduceSum | reduceL1_plugin.cc
    ReduceL2 | Mul, ReduceSum, Sqrt | reduceL2_plugin.cc
    ReduceSumSquare | Mul, ReduceSum | reduce_sum_square_plugin.cc
    ScatterElements | ScatterElements (negative indices: Less, Add, SelectV2) | scatter_elements_plugin.cc
    ScatterND | TensorScatterUpdate / TensorScatterAdd / Max / Min | similar_opp_plugins.cc
    Scatter | ScatterElements (opsets 9-10: ScatterElements-11's old name) | scatter_elements_plugin.cc
    SpaceToDepth | SpaceToDepth | space_to_depth_plugin.cc
    NegativeLogLikelihoodLoss | ExpandDims, GatherElements, Squeeze, Neg, GatherV2, Mul, ReduceSum (no plugin in the public copy) | -
    SoftmaxCrossEntropyLoss | LogSoftmaxV2, then NegativeLogLikelihoodLoss's ops (no plugin in the public copy) | -
    DequantizeLinear | Cast, Sub, Mul (no plugin in the public copy) | -
    QuantizeLinear | RealDiv, Round, Add, ClipByValue, Cast (no plugin in the public copy) | -
    MatMulInteger | Cast, Sub, MatMul / BatchMatMulV2 in int32 (no plugin in the public copy) | -
    ConvInteger | Cast, Sub, Conv2D in int32 (no plugin in the public copy) | -
    LpPool | Abs, Pow, AvgPoolV2 {divisor_override = 1}, Pow (no plugin in the public copy) | -
    DynamicQuantizeLinear | ReduceMaxD, ReduceMinD, Maximum, Minimum, Equal, SelectV2, Sub, RealDiv, Neg, ClipByValue, Round, Add, Cast (no plugin in the public copy) | -
    QLinearMatMul | Cast, Sub, MatMul / BatchMatMulV2, Mul, RealDiv, Add, Round, ClipByValue, Cast (no plugin in the public copy) | -
    ThresholdedRelu | Greater, SelectV2 | threshold_relu_plugin.cc
    Shrink | Less, Greater, Add, Sub, SelectV2 (no plugin in the public copy) | -
    EyeLike | Const (folded: a static shape) | eyelike_plugin.cc
    Acos | Acos (no plugin in the public copy) | -
    Acosh | Acosh (no plugin in the public copy) | -
    Asin | Asin (no plugin in the public copy) | -
    Asinh | Asinh (no plugin in the public copy) | -
    Atan | Atan (no plugin in the public copy) | -
    Atanh | Atanh (no plugin in the public copy) | -
    Cosh | Cosh (no plugin in the public copy) | -
    Sinh | Sinh (no plugin in the public copy) | -
    Tan | Tan (no plugin in the public copy) | -
    InstanceNormalization | ReduceMean, Sub, Mul, Add, Rsqrt, Reshape | instancenormalization_plugin.cc
    GroupNormalization | Reshape, ReduceMean, Sub, Mul, Add, Rsqrt (no plugin in the public copy) | -
    Xor | LogicalOr, LogicalAnd, LogicalNot, LogicalAnd | xor_plugin.cc
    GridSample | GridSampler2D (4-D) / GridSampler3D (5-D) (no plugin in the public copy) | -
    """
    )
)


# -- Cast, bit operations ------------------------------------------------------------------


@converts("CastLike")
def _cast_like(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: CastLike(x, target) is Cast to target's dtype, with
    # Cast's dtypes and saturate (importers/onnx.py: cast_to).
    to = ctx.elem(1)
    if to not in CAST_DTYPES:
        raise ctx.error(
            f"CastLike to {_dtype_name(to).lower()}: GE's Cast plugin maps only "
            + ", ".join(_dtype_name(c) for c in CAST_DTYPES)
        )
    cast_to(ctx, ctx.x(0), to, bool(ctx.attr_int("saturate", 1)))


@converts("BitShift")
def _bit_shift(ctx: _NodeCtx) -> None:
    # bitshift_plugin.cc: direction "LEFT" -> LeftShift, "RIGHT" -> RightShift (x, y).
    _same_dtype(ctx, (0, 1))
    direction = ctx.attr_str("direction", "")
    if direction not in ("LEFT", "RIGHT"):
        raise ctx.unsupported_attr("direction", direction, "BitShift takes LEFT or RIGHT")
    ctx.single(ge.LeftShift if direction == "LEFT" else ge.RightShift, [ctx.x(0), ctx.x(1)])


_BITWISE: dict[str, type[ge.GeNode]] = {
    "BitwiseAnd": ge.BitwiseAnd,
    "BitwiseOr": ge.BitwiseOr,
    "BitwiseXor": ge.BitwiseXor,
    "BitwiseNot": ge.Invert,
}


@converts(*_BITWISE)
def _bitwise(ctx: _NodeCtx) -> None:
    # No plugin in the public copy (the ops are ONNX 18's): GE's ops of the same meaning
    # (elewise_calculation_ops.h: REG_OP(BitwiseAnd), BitwiseOr, BitwiseXor, Invert).
    _same_dtype(ctx, range(ctx.n_inputs))
    ctx.single(_BITWISE[ctx.op_type], [ctx.x(i) for i in range(ctx.n_inputs)])


@converts("Xor")
def _xor(ctx: _NodeCtx) -> None:
    # xor_plugin.cc maps Xor to BitwiseXor, which takes no bool (REG_OP(BitwiseXor)), and
    # ONNX's Xor is on bools only; a xor b = (a or b) and not (a and b): LogicalOr,
    # LogicalAnd, LogicalNot, LogicalAnd, which give ONNX's numbers.
    _same_dtype(ctx, (0, 1))
    a, b = ctx.x(0), ctx.x(1)
    t, tt = ctx.out_type(), ctx.imp.tensor_type
    either = ctx.emit(ge.LogicalOr, [a, b], [t], suffix="LogicalOr").results[0]
    both = ctx.emit(ge.LogicalAnd, [a, b], [t], suffix="LogicalAnd").results[0]
    not_both = ctx.emit(ge.LogicalNot, [both], [tt(_T.BOOL, ctx.out_dims())], suffix="LogicalNot").results[0]
    ctx.single(ge.LogicalAnd, [either, not_both])


# -- CumSum, Hardmax, PRelu, the L1 / L2 / sum-of-squares reductions ----------------------


@converts("CumSum")
def _cumsum(ctx: _NodeCtx) -> None:
    # cumsum_plugin.cc: ParseParamsCumSum: Cumsum(x, axis) {exclusive, reverse}; the axis
    # stays an input (GE's Cumsum reads it when it runs).
    if len(ctx.dims(1)) > 1 or ctx.elem(1) not in (_T.INT32, _T.INT64):
        raise ctx.error(f"input 1 ('axis') must be a 0-d or 1-D int32/int64 tensor, got {list(ctx.dims(1))}")
    attrs = {
        "exclusive": _bool(bool(ctx.attr_int("exclusive", 0))),
        "reverse": _bool(bool(ctx.attr_int("reverse", 0))),
    }
    ctx.single(ge.Cumsum, [ctx.x(0), ctx.x(1)], attrs)


@converts("Hardmax")
def _hardmax(ctx: _NodeCtx) -> None:
    # hardmax_plugin.cc: parse_params_hard_max: HardMax {axis (default -1)}, registered
    # for opsets 9-12. Opset 13 on is HardMax along `axis`, as the plugin maps it; opsets
    # 11-12 take x as a 2-D matrix of the dims before `axis` (default 1) by the rest, which
    # is Reshape, HardMax {axis = 1}, Reshape back (beyond the plugin, which reads axis as
    # opset 13's: only that sequence gives ONNX's numbers there).
    dims = ctx.dims(0)
    if ctx.imp.opset >= 13:
        a = _norm_axis(ctx, ctx.attr_int("axis", -1), len(dims))
        ctx.single(ge.HardMax, [ctx.x(0)], {"axis": _int(a)})
        return
    a = _norm_axis(ctx, ctx.attr_int("axis", 1), len(dims) + 1) if dims else 0
    flat = (int(np.prod(dims[:a], dtype=np.int64)), int(np.prod(dims[a:], dtype=np.int64)))
    tt = ctx.imp.tensor_type(ctx.elem(0), flat)
    shape2 = ctx.const_value(np.array(flat, np.int64), _T.INT64, "shape2d")
    x2 = ctx.emit(ge.Reshape, [ctx.x(0), shape2], [tt], suffix="Reshape2d").results[0]
    h = ctx.emit(ge.HardMax, [x2], [tt], {"axis": _int(1)}, suffix="HardMax").results[0]
    back = ctx.const_value(np.array(dims, np.int64), _T.INT64, "shape")
    ctx.single(ge.Reshape, [h, back])


@converts("PRelu")
def _prelu(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc maps PRelu to GE's PRelu, whose weight is one value per
    # channel (nn_activation_ops.h: REG_OP(PRelu)); ONNX's slope broadcasts to x in any
    # shape. Beyond the plugin: x < 0 ? x * slope : x, as Less, Mul and SelectV2, which
    # give ONNX's numbers for every slope shape.
    _same_dtype(ctx, (0, 1))
    x, elem, dims = ctx.x(0), ctx.elem(0), ctx.out_dims()
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    zero = ctx.const_value(np.zeros((), dt), elem, "zero")
    neg = ctx.emit(ge.Less, [x, zero], [ctx.imp.tensor_type(_T.BOOL, ctx.dims(0))], suffix="Less")
    scaled = ctx.emit(ge.Mul, [x, ctx.x(1)], [ctx.imp.tensor_type(elem, dims)], suffix="Mul")
    ctx.single(ge.SelectV2, [neg.results[0], scaled.results[0], x])


@converts("ReduceSumSquare", "ReduceL1", "ReduceL2")
def _reduce_norms(ctx: _NodeCtx) -> None:
    # reduce_sum_square_plugin.cc: SquareSumV1; reduceL1_plugin.cc / reduceL2_plugin.cc:
    # LpNorm {p = 1 / 2}. The ge dialect has neither; each is the GE ops that compute it,
    # with reduce_sum_plugin.cc's axes and keep_dims: Mul(x, x) or Abs(x), ReduceSumD,
    # and for L2 a Sqrt. Computed axes stay ReduceSum's input (as reduce_sum_plugin.cc's
    # ParseOpToGraphReduceSum13 keeps them).
    if not computed_axes(ctx) and _reduce_axes(ctx) is None:
        raise ctx.unsupported_attr("noop_with_empty_axes", 1, f"GE's {ctx.op_type} plugin always reduces")
    x, elem = ctx.x(0), ctx.elem(0)
    t = ctx.imp.tensor_type(elem, ctx.dims(0))
    if ctx.op_type == "ReduceL1":
        pre = ctx.emit(ge.Abs, [x], [t], suffix="Abs").results[0]
    else:
        pre = ctx.emit(ge.Mul, [x, x], [t], suffix="Square").results[0]
    if ctx.op_type != "ReduceL2":
        ctx.bind(0, _reduce(ctx, pre, ge.ReduceSumD, None, ctx.out_elem()).results[0])
        return
    s = _reduce(ctx, pre, ge.ReduceSumD, "ReduceSum", ctx.out_elem())
    ctx.single(ge.Sqrt, [s.results[0]])


# -- scatters, GatherND, depth <-> space -----------------------------------------------------


@converts("ScatterElements")
def _scatter_elements(ctx: _NodeCtx) -> None:
    # scatter_elements_plugin.cc: ParseParamsScatterElements: ScatterElements {axis};
    # ONNX 16's reduction add / mul is GE's `reduction` attribute (max / min have no GE
    # op: refused). Beyond the plugin, negative indices (ONNX counts them from the end,
    # GE's kernel refuses them) go through nonnegative_indices first.
    _same_dtype(ctx, (0, 2))
    dims = ctx.dims(0)
    axis = _norm_axis(ctx, ctx.attr_int("axis", 0), len(dims))
    reduction = ctx.attr_str("reduction", "none")
    if reduction not in ge.SCATTER_REDUCTIONS:
        raise ctx.unsupported_attr(
            "reduction", reduction, f"GE's ScatterElements reduces by {', '.join(ge.SCATTER_REDUCTIONS)} only"
        )
    idx = nonnegative_indices(ctx, 1, dims[axis], "indices")
    attrs = {"axis": _int(axis), "reduction": StringAttr(reduction)}
    ctx.single(ge.ScatterElements, [ctx.x(0), idx, ctx.x(2)], attrs)


@converts("Scatter")
def _scatter(ctx: _NodeCtx) -> None:
    # CANN: onnx_plugin/scatter_elements_plugin.cc: ONNX's Scatter-9 (opsets 9 and 10) is
    # ScatterElements-11 under its old name (ONNX's Changelog), imported as it
    # (importers/onnx.py: OLD_OP_RENAMES)
    _scatter_elements(ctx)


def _nd_indices(ctx: _NodeCtx) -> SSAValue:
    """GatherND's / ScatterND's indices (input 1) with negative entries moved up by the
    dim each indexes (the last axis of indices runs over data's leading dims)."""
    k = ctx.dims(1)[-1] if ctx.dims(1) else 0
    dims = ctx.dims(0)
    if not 1 <= k <= len(dims):
        raise ctx.error(f"indices' last dim {k} must be in 1..{len(dims)} (data's rank)")
    return nonnegative_indices(ctx, 1, np.array(dims[:k], np.int64), "indices")


@converts("GatherND")
def _gather_nd(ctx: _NodeCtx) -> None:
    # gather_nd_plugin.cc: ParseParamsGatherNd: GatherNd; the plugin warns that GatherNd
    # has no batch_dims and drops it, so batch_dims != 0 is refused rather than computed
    # wrong. Beyond the plugin: negative indices through nonnegative_indices.
    if ctx.attr_int("batch_dims", 0) != 0:
        raise ctx.unsupported_attr("batch_dims", ctx.attr_int("batch_dims", 0), "GE's GatherNd has no batch_dims")
    ctx.single(ge.GatherNd, [ctx.x(0), _nd_indices(ctx)])


_TENSOR_SCATTER: dict[str, type[ge.GeNode]] = {
    "none": ge.TensorScatterUpdate,
    "add": ge.TensorScatterAdd,
    "max": ge.TensorScatterMax,
    "min": ge.TensorScatterMin,
}


@converts("ScatterND")
def _scatter_nd(ctx: _NodeCtx) -> None:
    # similar_opp_plugins.cc: ScatterND -> TensorScatterUpdate. ONNX 16's and 18's
    # reduction add / max / min are GE's TensorScatterAdd / Max / Min (array_ops.h); mul
    # has no GE op and is refused. Beyond the plugin: negative indices through
    # nonnegative_indices.
    _same_dtype(ctx, (0, 2))
    reduction = ctx.attr_str("reduction", "none")
    if reduction not in _TENSOR_SCATTER:
        raise ctx.unsupported_attr("reduction", reduction, "GE has no TensorScatter op for it")
    ctx.single(_TENSOR_SCATTER[reduction], [ctx.x(0), _nd_indices(ctx), ctx.x(2)])


@converts("DepthToSpace", "SpaceToDepth")
def _depth_space(ctx: _NodeCtx) -> None:
    # depth_to_space_plugin.cc: ParseParamsDepthToSpace: {block_size = blocksize (>= 2),
    # mode (default DCR), data_format = NCHW}; space_to_depth_plugin.cc: the same without
    # mode.
    b = ctx.attr_int("blocksize", 0)
    if b < 2:
        raise ctx.unsupported_attr("blocksize", b, f"GE's {ctx.op_type} plugin takes a blocksize >= 2")
    if len(ctx.dims(0)) != 4:
        raise ctx.error(f"{ctx.op_type} of a rank-{len(ctx.dims(0))} input: GE's takes 4-D NCHW")
    attrs = {"block_size": _int(b), "data_format": StringAttr("NCHW")}
    if ctx.op_type == "DepthToSpace":
        attrs["mode"] = StringAttr(ctx.attr_str("mode", "DCR"))
        ctx.single(ge.DepthToSpace, [ctx.x(0)], attrs)
    else:
        # ONNX's newer SpaceToDepth takes a mode too (CRD as DepthToSpace's); GE's plugin and
        # op know the DCR order only: any other is refused, never computed in DCR's order
        if (mode := ctx.attr_str("mode", "DCR")) != "DCR":
            raise ctx.unsupported_attr("mode", mode, "GE's SpaceToDepth plugin computes the DCR order only")
        ctx.single(ge.SpaceToDepth, [ctx.x(0)], attrs)


# -- the losses: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ------------------------


def _nll(ctx: _NodeCtx, logp: SSAValue, weight: SSAValue | None) -> None:
    """ONNX's NegativeLogLikelihoodLoss of `logp` [N, C, d...] and the node's input 1
    (target [N, d...]) into output 0: -logp[n, target, d] * weight[target], 0 where target
    is ignore_index, then none / sum / mean (mean: over the weights of the kept targets)."""
    dims, tdims = ctx.dims(0), ctx.dims(1)
    elem, telem = ctx.elem(0), ctx.elem(1)
    tt = ctx.imp.tensor_type
    idt = onnx.helper.tensor_dtype_to_np_dtype(telem)
    reduction = ctx.attr_str("reduction", "mean")
    if reduction not in ("none", "sum", "mean"):
        raise ctx.unsupported_attr("reduction", reduction, "ONNX's losses reduce by none, sum or mean")
    t = ctx.x(1)
    keep: SSAValue | None = None
    ii = ctx.attr("ignore_index")
    if ii is not None:
        bt = tt(_T.BOOL, tdims)
        ignored = ctx.const_value(np.asarray(int(ii), idt), telem, "ignore_index")  # type: ignore[arg-type]
        keep = ctx.emit(ge.NotEqual, [t, ignored], [bt], suffix="keep").results[0]
        zero = ctx.const_value(np.zeros((), idt), telem, "target_zero")
        t = ctx.emit(ge.SelectV2, [keep, t, zero], [tt(telem, tdims)], suffix="target").results[0]
    idx = ctx.emit(ge.ExpandDims, [t], [tt(telem, (tdims[0], 1, *tdims[1:]))], {"axis": _int(1)}, suffix="ExpandDims")
    picked = ctx.emit(ge.GatherElements, [logp, idx.results[0]], [tt(elem, (dims[0], 1, *dims[2:]))],
                      {"dim": _int(1)}, suffix="GatherElements")  # fmt: skip
    flat = ctx.emit(ge.Squeeze, [picked.results[0]], [tt(elem, tdims)], {"axis": _ints([1])}, suffix="Squeeze")
    loss = ctx.emit(ge.Neg, [flat.results[0]], [tt(elem, tdims)], suffix="Neg").results[0]
    w: SSAValue | None = None
    if weight is not None:
        axis0 = ctx.const_value(np.array(0, np.int32), _T.INT32, "weight_axis")
        w = ctx.emit(ge.GatherV2, [weight, t, axis0], [tt(elem, tdims)], suffix="weight").results[0]
    if keep is not None:
        kept = ctx.emit(ge.Cast, [keep], [tt(elem, tdims)], {"dst_type": _int(_GE_DATATYPE[elem])}, suffix="kept")
        w = kept.results[0] if w is None else ctx.emit(ge.Mul, [w, kept.results[0]], [tt(elem, tdims)],
                                                       suffix="kept_weight").results[0]  # fmt: skip
    if w is not None:
        loss = ctx.emit(ge.Mul, [loss, w], [tt(elem, tdims)], suffix="weighted").results[0]
    if reduction == "none":
        ctx.bind(0, ctx.emit(ge.Identity, [loss], [tt(elem, tdims)]).results[0])
        return
    every = {"axes": _ints(range(len(tdims))), "keep_dims": _bool(False)}
    if reduction == "sum" or w is None:
        cls = ge.ReduceSumD if reduction == "sum" else ge.ReduceMeanD
        ctx.bind(0, ctx.emit(cls, [loss], [tt(elem, ())], every).results[0])
        return
    total = ctx.emit(ge.ReduceSumD, [loss], [tt(elem, ())], every, suffix="ReduceSum").results[0]
    wsum = ctx.emit(ge.ReduceSumD, [w], [tt(elem, ())], every, suffix="weight_sum").results[0]
    ctx.bind(0, ctx.emit(ge.RealDiv, [total, wsum], [tt(elem, ())]).results[0])


@converts("NegativeLogLikelihoodLoss")
def _nll_loss(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: the loss as GE ops -- ExpandDims, GatherElements {dim = 1},
    # Squeeze and Neg pick -input[n, target, d]; GatherV2 of the weights, a NotEqual mask
    # (SelectV2 keeps the gather in range) for ignore_index, Mul; ReduceSumD / ReduceMeanD /
    # RealDiv for the reduction: ONNX's numbers.
    _same_dtype(ctx, [i for i in (0, 2) if ctx.has(i)])
    _nll(ctx, ctx.x(0), ctx.x(2) if ctx.has(2) else None)


@converts("SoftmaxCrossEntropyLoss")
def _softmax_cross_entropy(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: LogSoftmaxV2 {axes = [1]} (logsoftmax_plugin.cc's op),
    # then NegativeLogLikelihoodLoss's sequence; output 1 (log_prob) is the LogSoftmaxV2.
    _same_dtype(ctx, [i for i in (0, 2) if ctx.has(i)])
    t = ctx.imp.tensor_type(ctx.elem(0), ctx.dims(0))
    logp = ctx.emit(ge.LogSoftmaxV2, [ctx.x(0)], [t], {"axes": _ints([1])}, suffix="LogSoftmaxV2").results[0]
    if len(ctx.node.output) > 1 and ctx.node.output[1]:
        ctx.bind(1, logp)
    _nll(ctx, logp, ctx.x(2) if ctx.has(2) else None)


# -- QuantizeLinear, DequantizeLinear ------------------------------------------------------

# the integer types QuantizeLinear writes here (float8 and 4-bit outputs are refused)
_QUANT_TYPES: frozenset[int] = frozenset({_T.UINT8, _T.INT8, _T.UINT16, _T.INT16})


def _per_axis(ctx: _NodeCtx, i: int, to_elem: int, what: str) -> SSAValue:
    """Input `i` (a scale or zero point: a scalar, one value per `axis` slice, or with
    block_size one per block of `axis`) cast to `to_elem` and shaped to broadcast over x."""
    v, dims = ctx.x(i), ctx.dims(i)
    xd = ctx.dims(0)
    tt = ctx.imp.tensor_type
    if ctx.elem(i) != to_elem:
        v = ctx.emit(ge.Cast, [v], [tt(to_elem, dims)], {"dst_type": _int(_GE_DATATYPE[to_elem])},
                     suffix=f"{what}_Cast").results[0]  # fmt: skip
    if int(np.prod(dims, dtype=np.int64)) == 1 and len(dims) <= 1:
        return v
    axis = _norm_axis(ctx, ctx.attr_int("axis", 1), len(xd))
    block = ctx.attr_int("block_size", 0)
    if block > 0:  # one value per block of `axis`: GatherV2 repeats each block's value
        rep = ctx.const_value(np.arange(xd[axis], dtype=np.int64) // block, _T.INT64, f"{what}_blocks")
        ax = ctx.const_value(np.array(axis, np.int32), _T.INT32, f"{what}_axis")
        return ctx.emit(ge.GatherV2, [v, rep, ax], [tt(to_elem, xd)], suffix=f"{what}_blocks").results[0]
    if len(dims) != 1 or dims[0] != xd[axis]:
        raise ctx.error(f"{what} of shape {list(dims)} is neither a scalar nor one value per axis {axis} slice")
    shape = tuple(xd[axis] if k == axis else 1 for k in range(len(xd)))
    s = ctx.const_value(np.array(shape, np.int64), _T.INT64, f"{what}_shape")
    return ctx.emit(ge.Reshape, [v, s], [tt(to_elem, shape)], suffix=f"{what}_Reshape").results[0]


@converts("DequantizeLinear")
def _dequantize_linear(ctx: _NodeCtx) -> None:
    # No plugin in the public copy (GE's own AscendDequant is a fused-conv op): y =
    # (x - zero_point) * scale as Cast, Sub, Mul, the scale and zero point shaped for the
    # axis (Reshape) or repeated over the block (GatherV2).
    elem = ctx.elem(1)
    tt = ctx.imp.tensor_type
    dims = ctx.dims(0)
    x = ctx.emit(ge.Cast, [ctx.x(0)], [tt(elem, dims)], {"dst_type": _int(_GE_DATATYPE[elem])}, suffix="Cast").results[
        0
    ]
    if ctx.has(2):
        zp = _per_axis(ctx, 2, elem, "zero_point")
        x = ctx.emit(ge.Sub, [x, zp], [tt(elem, dims)], suffix="Sub").results[0]
    ctx.single(ge.Mul, [x, _per_axis(ctx, 1, elem, "scale")])


@converts("QuantizeLinear")
def _quantize_linear(ctx: _NodeCtx) -> None:
    # No plugin in the public copy (GE's AscendQuant is a fused-conv op): y =
    # saturate(round_half_even(x / scale) + zero_point) as RealDiv, Round, Add,
    # ClipByValue to the output type's range and Cast, the scale and zero point shaped for
    # the axis or the block as for DequantizeLinear. Float8 and 4-bit outputs are refused.
    out = ctx.out_elem()
    if out not in _QUANT_TYPES:
        raise ctx.error(
            f"QuantizeLinear to {_dtype_name(out).lower()}: only uint8, int8, uint16 and int16 outputs are imported"
        )
    elem, dims = ctx.elem(0), ctx.dims(0)
    tt = ctx.imp.tensor_type
    t = tt(elem, dims)
    q = ctx.emit(ge.RealDiv, [ctx.x(0), _per_axis(ctx, 1, elem, "scale")], [t], suffix="RealDiv").results[0]
    q = ctx.emit(ge.Round, [q], [t], suffix="Round").results[0]
    if ctx.has(2):
        q = ctx.emit(ge.Add, [q, _per_axis(ctx, 2, elem, "zero_point")], [t], suffix="Add").results[0]
    info = np.iinfo(onnx.helper.tensor_dtype_to_np_dtype(out))
    fdt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    lo = ctx.const_value(np.asarray(info.min, fdt), elem, "min")
    hi = ctx.const_value(np.asarray(info.max, fdt), elem, "max")
    q = ctx.emit(ge.ClipByValue, [q, lo, hi], [t], suffix="ClipByValue").results[0]
    ctx.single(ge.Cast, [q], {"dst_type": _int(_GE_DATATYPE[out])})


# -- MatMulInteger, QLinearMatMul ----------------------------------------------------------


def _int32_operand(ctx: _NodeCtx, i: int, zp: int, row_axis: int | None) -> SSAValue:
    """Input `i` (8-bit) as int32, minus its zero point (input `zp`, when given): a scalar,
    or one value per row of A (`row_axis`: reshaped to [M, 1]) / per column of B (a [N]
    vector broadcasts as it is), as ONNX's MatMulInteger and QLinearMatMul take them."""
    tt = ctx.imp.tensor_type
    dims = ctx.dims(i)
    v = ctx.emit(ge.Cast, [ctx.x(i)], [tt(_T.INT32, dims)], {"dst_type": _int(_GE_DATATYPE[_T.INT32])},
                 suffix=f"in{i}_Cast").results[0]  # fmt: skip
    if not ctx.has(zp):
        return v
    zd = ctx.dims(zp)
    z = ctx.emit(ge.Cast, [ctx.x(zp)], [tt(_T.INT32, zd)], {"dst_type": _int(_GE_DATATYPE[_T.INT32])},
                 suffix=f"zp{zp}_Cast").results[0]  # fmt: skip
    n = int(np.prod(zd, dtype=np.int64))
    if n != 1:
        axis = row_axis if row_axis is not None else len(dims) - 1
        if len(zd) != 1 or zd[0] != dims[axis]:
            raise ctx.error(
                f"zero point {zp} of shape {list(zd)} is neither a scalar nor one value per {'row' if row_axis is not None else 'column'}"
            )
        if row_axis is not None:
            s = ctx.const_value(np.array([zd[0], 1], np.int64), _T.INT64, f"zp{zp}_shape")
            z = ctx.emit(ge.Reshape, [z, s], [tt(_T.INT32, (zd[0], 1))], suffix=f"zp{zp}_Reshape").results[0]
    return ctx.emit(ge.Sub, [v, z], [tt(_T.INT32, dims)], suffix=f"in{i}_Sub").results[0]


def _int32_matmul(ctx: _NodeCtx, a: SSAValue, b: SSAValue, out_dims: tuple[int, ...]) -> SSAValue:
    """a @ b in int32 (exact: 8-bit terms), as MatMul (two 2-D inputs) or BatchMatMulV2
    (matmul_plugin.cc's ops), which GE's REG_OPs declare for DT_INT32."""
    ra, rb = len(ctx.dims(0)), len(ctx.dims(3 if ctx.op_type == "QLinearMatMul" else 1))
    t = ctx.imp.tensor_type(_T.INT32, out_dims)
    if ra == 2 and rb == 2:
        return ctx.emit(ge.MatMul, [a, b], [t], suffix="MatMul").results[0]
    if not (2 <= ra <= 6 and 2 <= rb <= 6):
        raise ctx.error(f"{ctx.op_type} of a rank-{ra} and a rank-{rb} input: BatchMatMulV2 takes 2-D to 6-D inputs")
    return ctx.emit(ge.BatchMatMulV2, [a, b], [t], {"adj_x1": _bool(False), "adj_x2": _bool(False)},
                    suffix="BatchMatMulV2").results[0]  # fmt: skip


@converts("ConvInteger")
def _conv_integer(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: (x - x_zero_point) convolved with (w - w_zero_point) in
    # int32 (exact), as Cast, Sub and Conv2D with Conv's attributes (conv_plugin.cc's
    # reading, importers/onnx.py: conv_attrs). Conv2D pads with zeros, which is ONNX's
    # padding with x_zero_point once it is subtracted. A zero point per output channel of
    # w is refused (per tensor only).
    for i in (2, 3):
        if ctx.has(i) and int(np.prod(ctx.dims(i), dtype=np.int64)) != 1:
            raise ctx.error(f"zero point {i} of shape {list(ctx.dims(i))}: only a per-tensor zero point is imported")
    attrs = conv_attrs(ctx)
    x = _int32_operand(ctx, 0, 2, None)
    w = _int32_operand(ctx, 1, 3, None)
    conv_2d(ctx, x, w, [], attrs, _T.INT32)


@converts("MatMulInteger")
def _matmul_integer(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: (A - a_zero_point) @ (B - b_zero_point) in int32, as
    # Cast, Sub and MatMul / BatchMatMulV2 (exact, as ONNX defines it).
    a = _int32_operand(ctx, 0, 2, len(ctx.dims(0)) - 2)
    b = _int32_operand(ctx, 1, 3, None)
    ctx.bind(0, _int32_matmul(ctx, a, b, ctx.out_dims()))


@converts("QLinearMatMul")
def _qlinear_matmul(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: ONNX's definition step by step. The int32 product C of
    # the zero-pointed operands (as MatMulInteger), the multiplier a_scale * b_scale /
    # y_scale in the scales' dtype (Mul, RealDiv), C * multiplier + y_zero_point in
    # float64 (C and both terms are exact there; one rounding, as ONNX's reference
    # computes it), Round (half to even), ClipByValue to the output type's range, Cast.
    tt = ctx.imp.tensor_type
    out_dims, out = ctx.out_dims(), ctx.out_elem()
    selem = ctx.elem(1)
    for i, what in ((1, "a_scale"), (4, "b_scale"), (6, "y_scale"), (7, "y_zero_point")):
        if ctx.has(i) and int(np.prod(ctx.dims(i), dtype=np.int64)) != 1 and i != 4:
            raise ctx.error(f"{what} of shape {list(ctx.dims(i))}: only a per-tensor {what} is imported")
    a = _int32_operand(ctx, 0, 2, len(ctx.dims(0)) - 2)
    b = _int32_operand(ctx, 3, 5, None)
    c = _int32_matmul(ctx, a, b, out_dims)
    f64 = _GE_DATATYPE[_T.DOUBLE]
    scale_dims = ctx.dims(4) if int(np.prod(ctx.dims(4), dtype=np.int64)) != 1 else ctx.dims(1)
    m = ctx.emit(ge.Mul, [ctx.x(1), ctx.x(4)], [tt(selem, scale_dims)], suffix="scale_Mul").results[0]
    m = ctx.emit(ge.RealDiv, [m, ctx.x(6)], [tt(selem, scale_dims)], suffix="scale_RealDiv").results[0]
    m = ctx.emit(ge.Cast, [m], [tt(_T.DOUBLE, scale_dims)], {"dst_type": _int(f64)}, suffix="scale_Cast").results[0]
    d = ctx.emit(ge.Cast, [c], [tt(_T.DOUBLE, out_dims)], {"dst_type": _int(f64)}, suffix="acc_Cast").results[0]
    d = ctx.emit(ge.Mul, [d, m], [tt(_T.DOUBLE, out_dims)], suffix="Mul").results[0]
    if ctx.has(7):
        z = ctx.emit(ge.Cast, [ctx.x(7)], [tt(_T.DOUBLE, ctx.dims(7))], {"dst_type": _int(f64)},
                     suffix="y_zero_point_Cast").results[0]  # fmt: skip
        d = ctx.emit(ge.Add, [d, z], [tt(_T.DOUBLE, out_dims)], suffix="Add").results[0]
    d = ctx.emit(ge.Round, [d], [tt(_T.DOUBLE, out_dims)], suffix="Round").results[0]
    info = np.iinfo(onnx.helper.tensor_dtype_to_np_dtype(out))
    lo = ctx.const_value(np.asarray(info.min, np.float64), _T.DOUBLE, "min")
    hi = ctx.const_value(np.asarray(info.max, np.float64), _T.DOUBLE, "max")
    d = ctx.emit(ge.ClipByValue, [d, lo, hi], [tt(_T.DOUBLE, out_dims)], suffix="ClipByValue").results[0]
    ctx.single(ge.Cast, [d], {"dst_type": _int(_GE_DATATYPE[out])})


# -- DynamicQuantizeLinear -----------------------------------------------------------------


@converts("DynamicQuantizeLinear")
def _dynamic_quantize_linear(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: ONNX's definition as GE ops, on float32 x. The range
    # [min(0, min x), max(0, max x)] (ReduceMinD / ReduceMaxD over every axis, Minimum /
    # Maximum with 0); y_scale = (max - min) / 255, and 1 when they are equal (Equal,
    # SelectV2: onnxruntime's rule and the reference's comment; its Python divides that 1
    # by 255 too, a case ONNX's node tests do not hold); y_zero_point = rint(clip(0 - min / y_scale, 0, 255)); y = clip(rint(x /
    # y_scale) + y_zero_point, 0, 255), each Cast to uint8 (RealDiv, Neg, ClipByValue,
    # Round, Add, as QuantizeLinear's sequence).
    x, xd = ctx.x(0), ctx.dims(0)
    if ctx.elem(0) != _T.FLOAT:
        raise ctx.error("DynamicQuantizeLinear takes float32 x")
    tt = ctx.imp.tensor_type
    f, scalar = _T.FLOAT, ()

    def k(v: float, what: str) -> SSAValue:
        return ctx.const_value(np.asarray(v, np.float32), f, what)

    def op(cls: type, args: list[SSAValue], what: str, dims: tuple[int, ...] = scalar, **attrs) -> SSAValue:
        return ctx.emit(cls, args, [tt(f, dims)], attrs or None, suffix=what).results[0]

    every = {"axes": _ints(range(len(xd))), "keep_dims": _bool(False)}
    hi = op(ge.Maximum, [op(ge.ReduceMaxD, [x], "ReduceMax", **every), k(0.0, "zero")], "Maximum")
    lo = op(ge.Minimum, [op(ge.ReduceMinD, [x], "ReduceMin", **every), k(0.0, "zero_min")], "Minimum")
    same = ctx.emit(ge.Equal, [hi, lo], [tt(_T.BOOL, scalar)], suffix="Equal").results[0]
    ratio = op(ge.RealDiv, [op(ge.Sub, [hi, lo], "Sub"), k(255.0, "qrange")], "RealDiv_range")
    scale = ctx.emit(ge.SelectV2, [same, k(1.0, "one"), ratio], [tt(f, scalar)], suffix="y_scale").results[0]
    qmin, qmax = k(0.0, "qmin"), k(255.0, "qmax")
    zp = op(ge.Neg, [op(ge.RealDiv, [lo, scale], "min_RealDiv")], "Neg")
    zp = op(ge.Round, [op(ge.ClipByValue, [zp, qmin, qmax], "zp_ClipByValue")], "zp_Round")
    q = op(ge.Round, [op(ge.RealDiv, [x, scale], "RealDiv", xd)], "Round", xd)
    q = op(ge.ClipByValue, [op(ge.Add, [q, zp], "Add", xd), qmin, qmax], "ClipByValue", xd)
    u8 = {"dst_type": _int(_GE_DATATYPE[_T.UINT8])}
    ctx.bind(0, ctx.emit(ge.Cast, [q], [tt(_T.UINT8, xd)], u8, suffix="Cast").results[0])
    ctx.bind(1, ctx.emit(ge.Identity, [scale], [tt(f, scalar)], suffix="y_scale_out").results[0])
    ctx.bind(2, ctx.emit(ge.Cast, [zp], [tt(_T.UINT8, scalar)], u8, suffix="zp_Cast").results[0])


# -- LpPool ---------------------------------------------------------------------------------


@converts("LpPool")
def _lp_pool(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: (sum over the window of |x|^p)^(1/p) as Abs, Pow,
    # AvgPoolV2 {divisor_override = 1} (average_pool_plugin.cc's op and attributes, read by
    # _pool_attrs: its window sum; padding adds |0|^p = 0) and Pow(1/p). A 1-D pool pools
    # [N, C, L, 1] as AveragePool's plugin does. ceil_mode (LpPool-18) is refused: a
    # window past the padded edge is not ONNX's there.
    if ctx.attr_int("ceil_mode", 0):
        raise ctx.unsupported_attr("ceil_mode", 1, "LpPool's windows past the edge are not AvgPoolV2's")
    p = ctx.attr_int("p", 2)
    if p <= 0:
        raise ctx.unsupported_attr("p", p, "the norm's order must be positive")
    attrs, trans = _pool_attrs(ctx, "AvgPool")
    attrs["exclusive"] = _bool(False)
    attrs["divisor_override"] = _int(1)
    x, elem, xd, od = ctx.x(0), ctx.elem(0), ctx.dims(0), ctx.out_dims()
    tt = ctx.imp.tensor_type
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    a = ctx.emit(ge.Abs, [x], [tt(elem, xd)], suffix="Abs").results[0]
    pw = ctx.const_value(np.asarray(p, dt), elem, "p")
    a = ctx.emit(ge.Pow, [a, pw], [tt(elem, xd)], suffix="Pow").results[0]
    if trans:
        a = ctx.emit(ge.Unsqueeze, [a], [tt(elem, (*xd, 1))], {"axes": _ints([3])}, suffix="UnsqueezeX").results[0]
        s = ctx.emit(ge.AvgPoolV2, [a], [tt(elem, (*od, 1))], attrs, suffix="AvgPoolV2").results[0]
        s = ctx.emit(ge.Squeeze, [s], [tt(elem, od)], {"axis": _ints([3])}, suffix="Squeeze").results[0]
    else:
        s = ctx.emit(ge.AvgPoolV2, [a], [tt(elem, od)], attrs, suffix="AvgPoolV2").results[0]
    inv = ctx.const_value(np.asarray(1.0 / p, dt), elem, "inv_p")
    ctx.single(ge.Pow, [s, inv])


# -- ThresholdedRelu, Shrink, EyeLike ------------------------------------------------------


@converts("ThresholdedRelu")
def _thresholded_relu(ctx: _NodeCtx) -> None:
    # threshold_relu_plugin.cc: Threshold {threshold = alpha} then Mul by x; the dialect has
    # no Threshold: x > alpha ? x : 0 as Greater, SelectV2, which gives the same numbers.
    x, elem = ctx.x(0), ctx.elem(0)
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    alpha = ctx.const_value(np.asarray(ctx.attr_float("alpha", 1.0), dt), elem, "alpha")
    zero = ctx.const_value(np.zeros((), dt), elem, "zero")
    above = ctx.emit(ge.Greater, [x, alpha], [ctx.imp.tensor_type(_T.BOOL, ctx.dims(0))], suffix="Greater")
    ctx.single(ge.SelectV2, [above.results[0], x, zero])


@converts("Shrink")
def _shrink(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: x < -lambd ? x + bias : (x > lambd ? x - bias : 0) as
    # Less, Greater, Add, Sub and two SelectV2.
    x, elem, dims = ctx.x(0), ctx.elem(0), ctx.dims(0)
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    tt = ctx.imp.tensor_type
    lambd, bias = ctx.attr_float("lambd", 0.5), ctx.attr_float("bias", 0.0)
    lo = ctx.const_value(np.asarray(-lambd, dt), elem, "low")
    hi = ctx.const_value(np.asarray(lambd, dt), elem, "high")
    b = ctx.const_value(np.asarray(bias, dt), elem, "bias")
    zero = ctx.const_value(np.zeros((), dt), elem, "zero")
    below = ctx.emit(ge.Less, [x, lo], [tt(_T.BOOL, dims)], suffix="below").results[0]
    above = ctx.emit(ge.Greater, [x, hi], [tt(_T.BOOL, dims)], suffix="above").results[0]
    up = ctx.emit(ge.Add, [x, b], [tt(elem, dims)], suffix="Add").results[0]
    down = ctx.emit(ge.Sub, [x, b], [tt(elem, dims)], suffix="Sub").results[0]
    upper = ctx.emit(ge.SelectV2, [above, down, zero], [tt(elem, dims)], suffix="upper").results[0]
    ctx.single(ge.SelectV2, [below, up, upper])


@converts("EyeLike")
def _eye_like(ctx: _NodeCtx) -> None:
    # eyelike_plugin.cc maps EyeLike to GE's op, which graph preparation folds to a Const
    # (its output depends on the input's static shape only): the Const is made here,
    # ones on diagonal k, of the `dtype` attribute's type (default: the input's).
    rows, cols = ctx.dims(0)
    elem = ctx.out_elem()
    eye = np.eye(rows, cols, ctx.attr_int("k", 0), dtype=onnx.helper.tensor_dtype_to_np_dtype(elem))
    ctx.bind_const(0, eye, elem)


# math_ops.h: REG_OP(Acos), Acosh, Asin, Asinh, Atan, Atanh, Cosh, Sinh, Tan; no plugin in
# the public copy: GE's op of the same meaning
_TRIG: dict[str, type[ge.GeNode]] = {c.name.split(".")[1]: c for c in ge.TRIG_OPS}


@converts(*_TRIG)
def _trig(ctx: _NodeCtx) -> None:
    ctx.single(_TRIG[ctx.op_type], [ctx.x(0)])


# -- InstanceNormalization, GroupNormalization ---------------------------------------------


def _normalized(ctx: _NodeCtx, x: SSAValue, shape: tuple[int, ...], eps: float) -> SSAValue:
    """(x - mean) / sqrt(var + eps) over every axis of `shape` after the first two (x
    Reshaped to `shape` first when it differs), as ReduceMeanD, Sub, Mul, ReduceMeanD,
    Add, Rsqrt, Mul; the result in x's shape."""
    elem, dims = ctx.elem(0), ctx.dims(0)
    tt = ctx.imp.tensor_type
    dt = onnx.helper.tensor_dtype_to_np_dtype(elem)
    if shape != dims:
        s = ctx.const_value(np.array(shape, np.int64), _T.INT64, "grouped_shape")
        x = ctx.emit(ge.Reshape, [x, s], [tt(elem, shape)], suffix="grouped").results[0]
    axes = {"axes": _ints(range(2, len(shape))), "keep_dims": _bool(True)}
    kept = tt(elem, shape[:2] + (1,) * (len(shape) - 2))
    full = tt(elem, shape)
    mean = ctx.emit(ge.ReduceMeanD, [x], [kept], axes, suffix="mean").results[0]
    d = ctx.emit(ge.Sub, [x, mean], [full], suffix="centered").results[0]
    sq = ctx.emit(ge.Mul, [d, d], [full], suffix="square").results[0]
    var = ctx.emit(ge.ReduceMeanD, [sq], [kept], axes, suffix="variance").results[0]
    e = ctx.const_value(np.asarray(eps, dt), elem, "epsilon")
    ve = ctx.emit(ge.Add, [var, e], [kept], suffix="variance_epsilon").results[0]
    r = ctx.emit(ge.Rsqrt, [ve], [kept], suffix="Rsqrt").results[0]
    y = ctx.emit(ge.Mul, [d, r], [full], suffix="normalized").results[0]
    if shape != dims:
        s = ctx.const_value(np.array(dims, np.int64), _T.INT64, "shape")
        y = ctx.emit(ge.Reshape, [y, s], [tt(elem, dims)], suffix="ungrouped").results[0]
    return y


def _affine(ctx: _NodeCtx, y: SSAValue, per_channel: Sequence[SSAValue]) -> None:
    """y * scale + bias, scale and bias [C] Reshaped to [C, 1, ...] (the node's output)."""
    elem, dims = ctx.elem(0), ctx.dims(0)
    tt = ctx.imp.tensor_type
    shape = (dims[1],) + (1,) * (len(dims) - 2)
    s = ctx.const_value(np.array(shape, np.int64), _T.INT64, "channel_shape")
    scale, bias = (
        ctx.emit(ge.Reshape, [v, s], [tt(elem, shape)], suffix=f"{what}_Reshape").results[0]
        for v, what in zip(per_channel, ("scale", "bias"))
    )
    y = ctx.emit(ge.Mul, [y, scale], [tt(elem, dims)], suffix="scaled").results[0]
    ctx.single(ge.Add, [y, bias])


@converts("InstanceNormalization")
def _instance_norm(ctx: _NodeCtx) -> None:
    # instancenormalization_plugin.cc maps it to GE's InstanceNorm, which the dialect has
    # not; its arithmetic as GE ops: mean and variance over the spatial axes of each
    # (n, c) (ReduceMeanD), Rsqrt, Mul, then scale and bias per channel.
    _same_dtype(ctx, (0, 1, 2))
    if len(ctx.dims(0)) < 3:
        raise ctx.error(f"InstanceNormalization of a rank-{len(ctx.dims(0))} input: it needs spatial axes")
    y = _normalized(ctx, ctx.x(0), ctx.dims(0), ctx.attr_float("epsilon", 1e-5))
    _affine(ctx, y, [ctx.x(1), ctx.x(2)])


@converts("GroupNormalization")
def _group_norm(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: x Reshaped to [N, G, C/G * spatial], normalized over
    # the last axis as InstanceNormalization is, Reshaped back; scale and bias are one per
    # channel (opset 21) or one per group (opset 18: GatherV2 repeats each C/G times).
    _same_dtype(ctx, (0, 1, 2))
    dims = ctx.dims(0)
    g = ctx.attr_int("num_groups", 0)
    if len(dims) < 3 or g <= 0 or dims[1] % g:
        raise ctx.error(f"num_groups {g} must divide the channels of a rank >= 3 input, got {list(dims)}")
    n, c = dims[0], dims[1]
    rest = int(np.prod(dims[2:], dtype=np.int64))
    y = _normalized(ctx, ctx.x(0), (n, g, (c // g) * rest), ctx.attr_float("epsilon", 1e-5))
    params = [ctx.x(1), ctx.x(2)]
    if ctx.dims(1) != (c,):  # opset 18: one per group
        rep = ctx.const_value(np.arange(c, dtype=np.int64) // (c // g), _T.INT64, "group_of_channel")
        ax = ctx.const_value(np.array(0, np.int32), _T.INT32, "group_axis")
        params = [
            ctx.emit(
                ge.GatherV2, [v, rep, ax], [ctx.imp.tensor_type(ctx.elem(0), (c,))], suffix=f"{w}_channels"
            ).results[0]
            for v, w in zip(params, ("scale", "bias"))
        ]
    _affine(ctx, y, params)


# -- GridSample ----------------------------------------------------------------------------

# ONNX's modes (GridSample-16's names, and 20's) -> GE's interpolation_mode
_GRID_MODES = {
    "bilinear": "bilinear",
    "linear": "bilinear",
    "nearest": "nearest",
    "bicubic": "bicubic",
    "cubic": "bicubic",
}


@converts("GridSample")
def _grid_sample(ctx: _NodeCtx) -> None:
    # No plugin in the public copy: GE's GridSampler2D / GridSampler3D (image_ops.h:
    # REG_OP(GridSampler2D), (GridSampler3D): PyTorch's grid_sampler, which ONNX's
    # GridSample is) with interpolation_mode, padding_mode and align_corners; a 4-D X
    # takes bilinear, nearest and bicubic, a 5-D one bilinear and nearest (GridSampler3D's).
    _same_dtype(ctx, (0, 1))
    rank = len(ctx.dims(0))
    mode = ctx.attr_str("mode", "linear" if ctx.imp.opset >= 20 else "bilinear")
    if mode not in _GRID_MODES:
        raise ctx.unsupported_attr("mode", mode, "ONNX's modes are linear, nearest and cubic")
    ge_mode = _GRID_MODES[mode]
    if rank not in (4, 5):
        raise ctx.error(f"GridSample of a rank-{rank} X: GE's GridSampler2D / GridSampler3D take 4-D and 5-D")
    if rank == 5 and ge_mode == "bicubic":
        raise ctx.unsupported_attr("mode", mode, "GE's GridSampler3D interpolates bilinear or nearest")
    pad = ctx.attr_str("padding_mode", "zeros")
    if pad not in ge.GRID_SAMPLE_PADDING:
        raise ctx.unsupported_attr("padding_mode", pad, "ONNX's are zeros, border and reflection")
    if ge_mode == "bicubic" and pad != "zeros":
        # ONNX's reference moves the coordinate inside before taking the 4 taps, PyTorch's
        # bicubic (GE's op, and onnxruntime) pads each tap only: the numbers differ
        raise ctx.unsupported_attr(
            "padding_mode", pad, "cubic GridSample pads as ONNX's reference defines only with zeros padding"
        )
    attrs = {
        "interpolation_mode": StringAttr(ge_mode),
        "padding_mode": StringAttr(pad),
        "align_corners": _bool(bool(ctx.attr_int("align_corners", 0))),
    }
    ctx.single(ge.GridSampler2D if rank == 4 else ge.GridSampler3D, [ctx.x(0), ctx.x(1)], attrs)
