"""The numpy kernels of the activation, rounding, comparison and normalisation ops, shared
by the reference interpreter (runtime/reference.py, per ge op) and the AscGraph
interpreter (runtime/ascgraph_interp.py, per AscIR node they lower to), so a fused kernel
computes the numbers the reference does.

Every function takes arrays already in their compute dtype (runtime/numerics.py `upcast`:
bf16 and float8 as float32) and returns an array the caller casts to the output dtype.
A float parameter (a GE `Float` attribute) is rounded to the array's dtype first, as a
kernel's scalar operand is. Formulas are GE's kernels' (each cites its source); a
transcendental numpy lacks (erf) is evaluated in float64 and rounded once.
Integer division by zero (Mod, FloorMod) raises ZeroDivisionError.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from runtime.numerics import acc_dtype

__all__ = [
    "SELU_ALPHA", "SELU_SCALE", "celu", "elu", "erf", "floor_mod", "gelu", "hard_sigmoid", "hard_swish",
    "layer_norm", "leaky_relu", "log_softmax", "mish", "mod", "relu6", "round_half_even", "selu", "softmax",
    "softplus", "softsign",
]  # fmt: skip

# selu_plugin.cc: ALPHA_DEFAULT / GAMMA_DEFAULT (GE's Selu has no attributes)
SELU_ALPHA = 1.67326324235
SELU_SCALE = 1.05070098736

_erf64 = np.frompyfunc(math.erf, 1, 1)


def _c(x: np.ndarray, v: float) -> np.generic:
    """`v` as a scalar of x's dtype."""
    return x.dtype.type(v)


def erf(x: np.ndarray) -> np.ndarray:
    return np.asarray(_erf64(x.astype(np.float64)), dtype=np.float64).astype(x.dtype, copy=False)


def gelu(x: np.ndarray) -> np.ndarray:
    # tbe/impl/dynamic/gelu.py: gelu_compute -- x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))
    inner = _c(x, -2.0 * math.sqrt(2.0 / math.pi)) * (x + _c(x, 0.044715) * x * x * x)
    return x / (_c(x, 1.0) + np.exp(inner))


def relu6(x: np.ndarray) -> np.ndarray:
    return np.minimum(np.maximum(x, _c(x, 0)), _c(x, 6))


def hard_swish(x: np.ndarray) -> np.ndarray:
    # tbe/impl/dynamic/hard_swish.py: x * min(max(x + 3, 0), 6) * (1/6)
    return x * (relu6(x + _c(x, 3.0)) * _c(x, 1.0 / 6.0))


def hard_sigmoid(x: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    return np.minimum(np.maximum(_c(x, alpha) * x + _c(x, beta), _c(x, 0.0)), _c(x, 1.0))


def leaky_relu(x: np.ndarray, slope: float) -> np.ndarray:
    return np.where(x >= _c(x, 0), x, x * _c(x, slope))


def elu(x: np.ndarray, alpha: float) -> np.ndarray:
    # lowering_impl.cpp: REGISTER_LOWERING(Elu) -- (exp(min(x, 0)) - 1) * alpha + max(x, 0)
    zero = _c(x, 0)
    return (np.exp(np.minimum(x, zero)) - _c(x, 1.0)) * _c(x, alpha) + np.maximum(x, zero)


def selu(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iu":  # GE's Selu takes int8/int32: computed in float32, truncated back
        return selu(x.astype(np.float32))
    return elu(x, SELU_ALPHA) * _c(x, SELU_SCALE)


def celu(x: np.ndarray, alpha1: float, alpha2: float) -> np.ndarray:
    # nonlinear_fuc_ops.h: REG_OP(Celu) -- max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    zero = _c(x, 0)
    return np.maximum(x, zero) + np.minimum(zero, _c(x, alpha1) * (np.exp(x / _c(x, alpha2)) - _c(x, 1.0)))


def softplus(x: np.ndarray) -> np.ndarray:
    # tbe/impl/dynamic/softplus.py: log(exp(x) + 1) by its positive and negative parts:
    # max(x, 0) + log(1 + exp(-|x|)), finite for every finite x
    return np.maximum(x, _c(x, 0)) + np.log1p(np.exp(-np.abs(x)))


def softsign(x: np.ndarray) -> np.ndarray:
    return x / (_c(x, 1.0) + np.abs(x))


def mish(x: np.ndarray) -> np.ndarray:
    return x * np.tanh(softplus(x))


def round_half_even(x: np.ndarray) -> np.ndarray:
    return x if x.dtype.kind in "iu" else np.rint(x)


def mod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Truncated remainder (the sign of a): TensorFlow's Mod, GE's Mod (mod.py: truncate_mod)."""
    if a.dtype.kind in "iu":
        if np.any(b == 0):
            raise ZeroDivisionError("integer Mod by zero")
        return np.fmod(a, b)
    return np.fmod(a, b)


def floor_mod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Floored remainder (the sign of b): TensorFlow's FloorMod, Python's %."""
    if a.dtype.kind in "iu":
        if np.any(b == 0):
            raise ZeroDivisionError("integer FloorMod by zero")
    return np.mod(a, b)


def softmax(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """exp(x - max) / sum(exp(x - max)) over `axes` jointly, in the accumulation dtype
    (float32 for float16); not yet cast back."""
    a = x.astype(acc_dtype(x.dtype), copy=False)
    ax = tuple(axes)
    if a.size == 0:
        return a
    e = np.exp(a - np.max(a, axis=ax, keepdims=True))
    return e / np.sum(e, axis=ax, keepdims=True)


def log_softmax(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    a = x.astype(acc_dtype(x.dtype), copy=False)
    ax = tuple(axes)
    if a.size == 0:
        return a
    s = a - np.max(a, axis=ax, keepdims=True)
    return s - np.log(np.sum(np.exp(s), axis=ax, keepdims=True))


def layer_norm(
    x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, norm_axis: int, params_axis: int, eps: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, mean, variance) of GE's LayerNorm (nn_norm_ops.h: mean and biased variance over the
    axes from norm_axis, kept as size 1; y = gamma * (x - mean) / sqrt(variance + eps) +
    beta, gamma and beta aligned at params_axis), in the accumulation dtype."""
    acc = acc_dtype(x.dtype)
    a = x.astype(acc, copy=False)
    axes = tuple(range(norm_axis, x.ndim))
    lead = (1,) * params_axis
    g = gamma.astype(acc, copy=False).reshape(lead + gamma.shape)
    b = beta.astype(acc, copy=False).reshape(lead + beta.shape)
    if math.prod(x.shape[norm_axis:]) == 0:  # nothing to normalise over: mean and variance are NaN
        shape = tuple(1 if i >= norm_axis else d for i, d in enumerate(x.shape))
        nan = np.full(shape, np.nan, dtype=acc)
        return np.empty(x.shape, dtype=acc), nan, nan.copy()
    mean = np.mean(a, axis=axes, keepdims=True)
    var = np.mean(np.square(a - mean), axis=axes, keepdims=True)
    y = (a - mean) / np.sqrt(var + acc.type(eps)) * g + b
    return y, mean, var
