"""The coordinate arithmetic of the resize ops, shared by the reference interpreter
(runtime/reference.py) and the ONNX importer (importers/onnx.py: _resize, which picks the
GE op and attributes that compute ONNX's numbers): GE's ResizeNearestNeighborV2 /
ResizeBilinearV2, which follow TensorFlow's resize kernels (image_ops.h), and ONNX's Resize,
whose attributes GE's Resize op takes (image_ops.h: REG_OP(Resize)).

Imported only where arrays are computed (it loads numpy; ge_dialect/ge.py does not import
it).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = [
    "ONNX_NEAREST_ROUNDING",
    "ONNX_RESIZE_COORDINATES",
    "onnx_resize_coordinate",
    "onnx_resize_index",
    "onnx_resize_matrix",
    "onnx_resize_weights",
    "resize_matrix",
    "tf_linear_weights",
    "tf_nearest_index",
]


def _resize_scale(align_corners: bool, n_in: int, n_out: int) -> np.float32:
    # image_ops.h (TensorFlow's CalculateResizeScale): (in - 1) / (out - 1) when aligning
    # corners (and out > 1), else in / out, in float32
    if align_corners and n_out > 1:
        return np.float32(n_in - 1) / np.float32(n_out - 1)
    return np.float32(n_in) / np.float32(n_out)


def tf_nearest_index(align_corners: bool, half_pixel_centers: bool, n_in: int, n_out: int) -> np.ndarray:
    """The source index of each output index of one axis for ResizeNearestNeighborV2's
    attributes (TensorFlow's ResizeNearestNeighbor: round (half away from zero) with
    align_corners, else floor, of out * scale or (out + 0.5) * scale; then at most n_in - 1
    and at least 0)."""
    s = _resize_scale(align_corners, n_in, n_out)
    o = np.arange(n_out, dtype=np.float32)
    f = (o + np.float32(0.5)) * s if half_pixel_centers else o * s
    i = np.floor(f + np.float32(0.5)) if align_corners else np.floor(f)
    return np.clip(i.astype(np.int64), 0, n_in - 1)


def tf_linear_weights(
    align_corners: bool, half_pixel_centers: bool, n_in: int, n_out: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lower index, upper index, lerp) per output index of one axis for
    ResizeBilinearV2's attributes (TensorFlow's ResizeBilinear: in = out * scale or
    (out + 0.5) * scale - 0.5; lower = max(floor(in), 0), upper = min(ceil(in), n_in - 1),
    lerp = in - floor(in)), in float32."""
    s = _resize_scale(align_corners, n_in, n_out)
    o = np.arange(n_out, dtype=np.float32)
    f = (o + np.float32(0.5)) * s - np.float32(0.5) if half_pixel_centers else o * s
    lo = np.maximum(np.floor(f), 0).astype(np.int64)
    hi = np.minimum(np.ceil(f), n_in - 1).astype(np.int64)
    return lo, hi, (f - np.floor(f)).astype(np.float32)


# ONNX's Resize (GE's Resize op, image_ops.h: REG_OP(Resize), takes ONNX's attributes):
# the source coordinate of output index o of an axis of n -> m pixels with ONNX scale s
# (length_resized = n * s, as ONNX's reference defines it), in float32 as onnxruntime
# computes it (upsamplebase.h: GetOriginalCoordinateFromResizedCoordinate)
def _half_pixel_symmetric(o: np.ndarray, s: np.float32, n: int, m: int) -> np.ndarray:
    adjustment = np.float32(m) / (s * np.float32(n))
    return np.float32(n / 2) * (np.float32(1) - adjustment) + (o + np.float32(0.5)) / s - np.float32(0.5)


ONNX_RESIZE_COORDINATES: dict[str, Callable[[np.ndarray, np.float32, int, int], np.ndarray]] = {
    "half_pixel": lambda o, s, n, m: (o + np.float32(0.5)) / s - np.float32(0.5),
    "half_pixel_symmetric": _half_pixel_symmetric,
    "pytorch_half_pixel": lambda o, s, n, m: (
        (o + np.float32(0.5)) / s - np.float32(0.5) if np.float32(n) * s > 1 else np.zeros_like(o)
    ),
    "align_corners": lambda o, s, n, m: (
        o * np.float32(n - 1) / (np.float32(n) * s - np.float32(1)) if np.float32(n) * s > 1 else np.zeros_like(o)
    ),
    "asymmetric": lambda o, s, n, m: o / s,
    "tf_half_pixel_for_nn": lambda o, s, n, m: (o + np.float32(0.5)) / s,
}
# ONNX's nearest_mode: the source index of a coordinate (ties: prefer floor / ceil)
ONNX_NEAREST_ROUNDING: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "round_prefer_floor": lambda x: np.ceil(x - np.float32(0.5)),
    "round_prefer_ceil": lambda x: np.floor(x + np.float32(0.5)),
    "floor": np.floor,
    "ceil": np.ceil,
}


def _crop_coordinate(n_in: int, n_out: int, roi: tuple[float, float]) -> np.ndarray:
    # tf_crop_and_resize: the roi [start, end] (fractions of the input) mapped onto the
    # output's pixels (upsamplebase.h: GetOriginalCoordinateFromResizedCoordinate)
    start, end = np.float32(roi[0]), np.float32(roi[1])
    o = np.arange(n_out, dtype=np.float32)
    if n_out > 1:
        return start * np.float32(n_in - 1) + o * (end - start) * np.float32(n_in - 1) / np.float32(n_out - 1)
    return np.full(n_out, np.float32(0.5) * (start + end) * np.float32(n_in - 1), np.float32)


def onnx_resize_coordinate(coord: str, n_in: int, n_out: int, scale: float) -> np.ndarray:
    """The source coordinate of each output index of one axis. An axis of scale 1 that
    keeps its size is the identity (onnxruntime's upsample.cc copies it; ONNX's formulas
    agree for every mode but tf_half_pixel_for_nn, which ONNX's reference no longer has)."""
    if n_in == n_out and np.float32(scale) == 1:
        return np.arange(n_out, dtype=np.float32)
    return ONNX_RESIZE_COORDINATES[coord](np.arange(n_out, dtype=np.float32), np.float32(scale), n_in, n_out).astype(
        np.float32
    )


def onnx_resize_index(coord: str, nearest_mode: str, n_in: int, n_out: int, scale: float) -> np.ndarray:
    """ONNX's nearest Resize on one axis: the source index of each output index (rounded
    by nearest_mode, then clamped to [0, n_in - 1] as onnxruntime does)."""
    x = onnx_resize_coordinate(coord, n_in, n_out, scale)
    return np.clip(ONNX_NEAREST_ROUNDING[nearest_mode](x), 0, n_in - 1).astype(np.int64)


def onnx_resize_weights(coord: str, n_in: int, n_out: int, scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ONNX's linear Resize on one axis: (lower index, upper index, weight of the upper)
    per output index; the coordinate is clamped to [0, n_in - 1] (onnxruntime's
    upsample.cc; ONNX's reference pads with the edge values, the same numbers)."""
    x = np.clip(onnx_resize_coordinate(coord, n_in, n_out, scale), 0, n_in - 1)
    lo = np.floor(x).astype(np.int64)
    return lo, np.minimum(lo + 1, n_in - 1), (x - lo).astype(np.float32)


def resize_matrix(lo: np.ndarray, hi: np.ndarray, w_hi: np.ndarray, n_in: int) -> np.ndarray:
    """The out x in matrix of a 1-D linear interpolation: row o puts 1 - w on lo, w on hi."""
    m = np.zeros((lo.size, n_in))
    rows = np.arange(lo.size)
    np.add.at(m, (rows, lo), 1 - w_hi.astype(np.float64))
    np.add.at(m, (rows, hi), w_hi.astype(np.float64))
    return m


def _cubic_coefficients(t: np.ndarray, a: float) -> np.ndarray:
    """The four cubic convolution weights of taps floor(x) - 1 .. floor(x) + 2 for the
    fraction t = x - floor(x) (Keys' kernel with coefficient a; onnxruntime's
    upsample.cc GetCubicCoeffs), [len(t), 4] in float64."""
    t = t.astype(np.float64).reshape(-1, 1)
    d = np.concatenate([t + 1, t, 1 - t, 2 - t], axis=1)  # each tap's distance
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, far)


def onnx_resize_matrix(
    mode: str,
    coord: str,
    nearest_mode: str,
    n_in: int,
    n_out: int,
    scale: float,
    roi: tuple[float, float] = (0.0, 1.0),
    cubic_coeff_a: float = -0.75,
    exclude_outside: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """ONNX's Resize on one axis as an [n_out, n_in] float64 weight matrix (row o: the
    weights of the input pixels output o is made of) and the outputs whose coordinate lies
    outside the input (tf_crop_and_resize: they take extrapolation_value, onnxruntime's
    use_extrapolation). nearest: one weight 1 at the rounded, clamped index; linear: the
    two neighbours of the clamped coordinate (onnx_resize_weights); cubic: four taps
    floor(x) - 1 .. floor(x) + 2 clamped to the edge, or with exclude_outside those outside
    dropped and the rest renormalised."""
    if coord == "tf_crop_and_resize":
        x = _crop_coordinate(n_in, n_out, roi)
    else:
        x = onnx_resize_coordinate(coord, n_in, n_out, scale)
    outside = (x < 0) | (x > n_in - 1) if coord == "tf_crop_and_resize" else np.zeros(n_out, bool)
    m = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    if mode == "nearest":
        idx = np.clip(ONNX_NEAREST_ROUNDING[nearest_mode](x), 0, n_in - 1).astype(np.int64)
        m[rows, idx] = 1.0
    elif mode == "linear":
        xc = np.clip(x, 0, n_in - 1)
        lo = np.floor(xc).astype(np.int64)
        w = (xc - lo).astype(np.float64)
        np.add.at(m, (rows, lo), 1 - w)
        np.add.at(m, (rows, np.minimum(lo + 1, n_in - 1)), w)
    else:
        base = np.floor(x).astype(np.int64)
        taps = base.reshape(-1, 1) + np.arange(-1, 3).reshape(1, 4)
        c = _cubic_coefficients(x - np.floor(x), cubic_coeff_a)
        if exclude_outside:
            c = np.where((taps >= 0) & (taps < n_in), c, 0.0)
            c = c / c.sum(axis=1, keepdims=True)
        np.add.at(m, (np.repeat(rows, 4), np.clip(taps, 0, n_in - 1).reshape(-1)), c.reshape(-1))
    return m, outside
