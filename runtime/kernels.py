"""The simulator's library kernels: Conv2D, MatMul, BatchMatMulV2 and the pools on BLAS-backed
numpy, their attributes and shapes decoded once when the model loads.

A library kernel (a node autofuse does not lower) runs on the device simulator
(runtime/simulator.py) as a device runs its kernel: on the bytes at its bound addresses,
many times per load. The reference interpreter (runtime/reference.py) states what each op
means and is the independent check the simulator's numbers are compared with, so these
kernels are a second implementation, not a call into it: they compute the same function
with the same dtypes (runtime/numerics.py: narrow floats accumulate in float32, integers
in 64 bits; max pooling upcasts bf16 and float8 to float32, average pooling accumulates
in float32), in another order where the result may differ by rounding only:

* Conv2D is im2col (one strided copy of the padded input into [N, G, C/G*kh*kw, OH*OW],
  none for a 1x1 convolution of stride 1 without padding) times the filter [G, K/G,
  C/G*kh*kw] by `np.matmul` (BLAS GEMM); the sum of each output's C/G*kh*kw products is
  accumulated in BLAS's order, which runtime/error_bound.py's Conv2D rule allows;
* MatMul and BatchMatMulV2 are `np.matmul` on the accumulation dtype (the same order
  freedom, the MatMul and BatchMatMulV2 rules);
* MaxPool / MaxPoolV3 take the max of each window of the input padded with the dtype's
  identity (padding never wins; a max is exact in any order), AvgPool / AvgPoolV2 the sum
  of each window of the zero-padded input (a sum of kh*kw terms in any order: the AvgPool
  rule) divided by the window's divisor, computed once per output position (exclusive:
  the elements inside x; not exclusive: inside the padded x; or divisor_override); a
  window of fewer taps than outputs one whole-output pass per tap (np.maximum / np.add over
  a strided view), a larger one (a global pool) one reduction over the window view.

`library_kernel(node)` gives the kernel of a probe node (the ge op ge-to-npu's kernel_def
describes, with static types), or None when the node is none of these or its shapes are
not all known: the simulator then runs the reference's semantics of the node.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.lib.stride_tricks import as_strided
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.dtypes import compute_dtype, numpy_dtype
from runtime.numerics import acc_dtype, reduce_identity

__all__ = ["Kernel", "library_kernel"]

Kernel = Callable[[Sequence[np.ndarray]], list[np.ndarray]]


def _shape(t: object) -> tuple[int, ...] | None:
    if not isinstance(t, TensorType):
        return None
    s = tuple(t.get_shape())
    return s if all(d >= 0 for d in s) else None


def _dtype(t: object) -> np.dtype:
    assert isinstance(t, TensorType)
    return numpy_dtype(t.element_type)


def library_kernel(node: Operation) -> Kernel | None:
    """The fast kernel of `node` (a Conv2D, MatMul, BatchMatMulV2 or pool with static
    shapes), or None."""
    shapes = [_shape(v.type) for v in (*node.operands, *node.results)]
    if any(s is None for s in shapes):
        return None
    try:
        if isinstance(node, ge.Conv2D):
            return _conv2d(node)
        if isinstance(node, ge.MatMul):
            return _matmul(node)
        if isinstance(node, ge.BatchMatMulV2):
            return _batch_matmul(node)
        if isinstance(node, ge.MaxPoolV3 | ge.MaxPool):
            return _pool(node, "max")
        if isinstance(node, ge.AvgPoolV2 | ge.AvgPool):
            return _pool(node, "avg")
    except VerifyException:
        return None  # the reference's semantics report the node's error when it runs
    return None


def _conv2d(op: ge.Conv2D) -> Kernel | None:
    n, c, h, wd = _shape(op.operands[0].type)  # type: ignore[misc]
    k, cg, kh, kw = _shape(op.operands[1].type)  # type: ignore[misc]
    sh, sw = ge.quad_attr(op, "strides", [1, 1, 1, 1])[2:]
    dh, dw = ge.quad_attr(op, "dilations", [1, 1, 1, 1])[2:]
    pt, pb, pl, pr = ge.quad_attr(op, "pads", [0, 0, 0, 0])
    g = A.get_int(op, "groups", 1) or 1
    if c != cg * g or k % g or min(sh, sw, dh, dw) <= 0:
        return None
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    if (n, k, oh, ow) != _shape(op.results[0].type):
        return None
    acc = acc_dtype(_dtype(op.operands[0].type))
    out_dt = _dtype(op.results[0].type)
    bias = len(op.operands) == 3
    padded = (n, c, h + pt + pb, wd + pl + pr)
    pointwise = kh == kw == 1 and sh == sw == 1 and pt == pb == pl == pr == 0
    # a depthwise convolution (one input channel per group) stays one GEMM per channel: a
    # multiply-add per tap over the whole output measured 1.2 to 2 times slower on
    # mobilenet_v2's depthwise shapes (the strided tap reads cost more than the batch loop)
    taps = cg * kh * kw
    zero = acc.type(0)

    def run(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = args[0].astype(acc, copy=False)
        if pointwise:
            cols = x.reshape(n, g, cg, h * wd)
        else:
            win = _windows(_padded(x, padded[2:], (pt, pl), zero), (oh, ow), (kh, kw), (sh, sw), (dh, dw))
            # cols[n, g, (c, i, j), (y, x)] = win[n, c, y, x, i, j], copied once
            cols = win.transpose(0, 1, 4, 5, 2, 3).reshape(n, g, taps, oh * ow)
        w = args[1].astype(acc, copy=False).reshape(g, k // g, taps)
        out = np.matmul(w, cols).reshape(n, k, oh, ow)
        if bias:
            out += args[2].astype(acc, copy=False).reshape(1, k, 1, 1)
        return [out.astype(out_dt, copy=False)]

    return run


def _padded(x: np.ndarray, plane: tuple[int, int], top_left: tuple[int, int], fill: np.generic) -> np.ndarray:
    """NCHW `x` in a plane of `plane` rows and columns filled with `fill`, its first element
    at `top_left` (x itself, made contiguous, when the plane is x's own)."""
    n, c, h, w = x.shape
    (hp, wp), (pt, pl) = plane, top_left
    if (hp, wp) == (h, w) and not pt and not pl:
        return np.ascontiguousarray(x)
    xp = np.full((n, c, hp, wp), fill, x.dtype)
    xp[:, :, pt : pt + h, pl : pl + w] = x
    return xp


def _windows(
    xp: np.ndarray, out: tuple[int, int], kernel: tuple[int, int], strides: tuple[int, int],
    dilations: tuple[int, int] = (1, 1),
) -> np.ndarray:  # fmt: skip
    """The sliding windows of the padded plane `xp` as a read-only strided view (no copy):
    windows[n, c, y, x, i, j] = xp[n, c, y*sh + i*dh, x*sw + j*dw], for the convolution's
    im2col and the pools."""
    n, c = xp.shape[:2]
    (oh, ow), (kh, kw), (sh, sw), (dh, dw) = out, kernel, strides, dilations
    s0, s1, s2, s3 = xp.strides
    return as_strided(xp, (n, c, oh, ow, kh, kw), (s0, s1, sh * s2, sw * s3, dh * s2, dw * s3), writeable=False)


def _matmul(op: ge.MatMul) -> Kernel:
    ta, tb = A.get_bool(op, "transpose_x1"), A.get_bool(op, "transpose_x2")
    acc = acc_dtype(_dtype(op.operands[0].type))
    out_dt = _dtype(op.results[0].type)
    bias = len(op.operands) == 3

    def run(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        a, b = args[0].astype(acc, copy=False), args[1].astype(acc, copy=False)
        r = np.matmul(a.T if ta else a, b.T if tb else b)
        if bias:
            r += args[2].astype(acc, copy=False).reshape(-1)
        return [r.astype(out_dt, copy=False)]

    return run


def _batch_matmul(op: ge.BatchMatMulV2) -> Kernel:
    ta, tb = A.get_bool(op, "adj_x1"), A.get_bool(op, "adj_x2")
    acc = acc_dtype(_dtype(op.operands[0].type))
    out_dt = _dtype(op.results[0].type)
    bias = len(op.operands) == 3

    def run(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        a, b = args[0].astype(acc, copy=False), args[1].astype(acc, copy=False)
        r = np.matmul(np.swapaxes(a, -1, -2) if ta else a, np.swapaxes(b, -1, -2) if tb else b)
        if bias:
            r = r + args[2].astype(acc, copy=False)
        return [np.asarray(r).astype(out_dt, copy=False)]

    return run


def _pool(op: ge.PoolBase, kind: str) -> Kernel | None:
    shape = _shape(op.operands[0].type)
    assert shape is not None
    n, c, h, wd = shape
    win = op.windows(shape)
    assert win is not None
    ((oh, pt, pb), (ow, pl, pr)), (kh, kw), (sh, sw) = win
    if (n, c, oh, ow) != _shape(op.results[0].type) or min(oh, ow) <= 0:
        return None
    x_dt = _dtype(op.operands[0].type)
    out_dt = _dtype(op.results[0].type)
    # max is exact in the upcast dtype; an average accumulates f16 / bf16 in float32
    ct = compute_dtype(x_dt) if kind == "max" else acc_dtype(x_dt)
    fill = reduce_identity("max", ct) if kind == "max" else ct.type(0)
    # the padded plane every window lies in: rows -pt .. (oh-1)*sh + kh - pt of x
    hp, wp = max((oh - 1) * sh + kh, pt + h), max((ow - 1) * sw + kw, pl + wd)
    divisor: np.ndarray | None = None
    if kind == "avg":
        exclusive = A.get_bool(op, "exclusive", True) or A.get_str(op, "padding") == "SAME"
        override = A.get_int(op, "divisor_override", 0) or 0
        # per output row / column, its window's extent inside x and inside the padded x
        rows = [(max(min(i * sh - pt + kh, h) - max(i * sh - pt, 0), 0),
                 min(i * sh - pt + kh, h + pb) - max(i * sh - pt, -pt)) for i in range(oh)]  # fmt: skip
        cols = [(max(min(j * sw - pl + kw, wd) - max(j * sw - pl, 0), 0),
                 min(j * sw - pl + kw, wd + pr) - max(j * sw - pl, -pl)) for j in range(ow)]  # fmt: skip
        if override > 0:
            d = np.full((oh, ow), override, dtype=np.int64)
        elif exclusive:
            d = np.outer([r[0] for r in rows], [q[0] for q in cols])
        else:
            d = np.outer([r[1] for r in rows], [q[1] for q in cols])
        divisor = d.astype(ct)

    # A small window (fewer taps than output positions: 3x3 pools) is reduced one pass per
    # tap over the whole output, a strided view of the padded plane per window position:
    # numpy's reduction over a [.., kh, kw] window view runs its slow strided inner loop
    # per output, 15 to 25 times slower on googlenet's and resnet's pools. A large one (a
    # global pool: one output, 49 to 12,544 taps) is that reduction, one pass.
    by_tap = kh * kw <= oh * ow
    reduce = np.maximum if kind == "max" else np.add

    def run(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        xp = _padded(args[0].astype(ct, copy=False), (hp, wp), (pt, pl), fill)
        if by_tap:
            out = None
            for i in range(kh):
                for j in range(kw):
                    tap = xp[:, :, i : i + (oh - 1) * sh + 1 : sh, j : j + (ow - 1) * sw + 1 : sw]
                    out = tap.copy() if out is None else reduce(out, tap, out=out)
            assert out is not None
        else:
            windows = _windows(xp, (oh, ow), (kh, kw), (sh, sw))
            out = windows.max(axis=(4, 5)) if kind == "max" else windows.sum(axis=(4, 5), dtype=ct)
        if divisor is not None:
            out = out / divisor  # (an integer sum divides to float64, as before the cast)
        return [out.astype(out_dt, copy=False)]

    return run
