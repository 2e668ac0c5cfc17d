"""Issue 31, target 3: the error bound's MatMul, BatchMatMulV2, Conv2D and Conv2DTranspose
rules take the weight's float64 magnitudes a block of its output features at a time
(runtime/error_bound.py: _abs_product), never the whole weight in float64. The bounds
must never be below the ones the whole-weight computation gives, and above them by
float64's rounding alone: each case runs once with blocks far larger than the weight (the
whole |w| in one product, the computation before the change) and once with blocks of two
output features, on random values of f32, f16 and bf16, with and without bounds
on the operands (an operand's bound multiplies |w| too)."""

from __future__ import annotations

import zlib

import ml_dtypes
import numpy as np
import pytest

from conftest import count_calls
from ge_dialect import ge
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from runtime import error_bound as EB
from runtime.reference import select_graph

DTYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def _t(shape: tuple[int, ...], elem: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>"


def _graph(op: str, shapes: list[tuple[int, ...]], out: tuple[int, ...], attrs: str, elem: str) -> ge.GraphOp:
    datas = [f"  %a{i} = ge.Data {{index = {i}}} : {_t(s, elem)}" for i, s in enumerate(shapes)]
    names = ", ".join(f"%a{i}" for i in range(len(shapes)))
    types = ", ".join(_t(s, elem) for s in shapes)
    pre, lead, lead_t = "", "", ""
    if op == "Conv2DTranspose":  # its input_size operand first (the output's shape)
        pre = f"  %s = ge.Const {{value = dense<[{', '.join(map(str, out))}]> : tensor<4xi64>}} : tensor<4xi64>\n"
        lead, lead_t = "%s, ", "tensor<4xi64>, "
    text = (
        "ge.graph @main {\n" + pre + "\n".join(datas) + "\n"
        f"  %y = ge.{op}({lead}{names}) {{{attrs}}} : ({lead_t}{types}) -> {_t(out, elem)}\n"
        f"  ge.NetOutput %y : {_t(out, elem)}\n}}\n"
    )
    m = parse_module(GeOptMain([]).ctx, text, "t.mlir")
    m.verify()
    return select_graph(m)


# (op, operand shapes, output shape, attributes): the weight is operand 1 (the filter),
# its output features on the axis _abs_product blocks
CASES = [
    ("MatMul", [(3, 40), (40, 37)], (3, 37), ""),
    ("MatMul", [(5, 24), (29, 24)], (5, 29), "transpose_x2 = true"),
    ("MatMul", [(24, 4), (24, 33)], (4, 33), "transpose_x1 = true"),
    ("MatMul", [(2, 16), (16, 31), (31,)], (2, 31), ""),  # with a bias
    ("BatchMatMulV2", [(2, 3, 4, 12), (3, 12, 23)], (2, 3, 4, 23), ""),  # batch broadcast
    ("BatchMatMulV2", [(2, 5, 12), (2, 19, 12)], (2, 5, 19), "adj_x2 = true"),
    ("BatchMatMulV2", [(2, 12, 5), (1, 12, 17)], (2, 5, 17), "adj_x1 = true"),
    ("Conv2D", [(2, 3, 7, 6), (21, 3, 3, 2)], (2, 21, 5, 5), "strides = [1, 1, 1, 1], pads = [0, 0, 0, 0]"),
    (
        "Conv2D",
        [(1, 4, 9, 9), (17, 4, 3, 3), (17,)],
        (1, 17, 5, 5),
        "strides = [1, 1, 2, 2], pads = [1, 1, 1, 1], dilations = [1, 1, 1, 1]",
    ),
    ("Conv2D", [(1, 4, 5, 5), (6, 2, 3, 3)], (1, 6, 3, 3), "strides = [1, 1, 1, 1], pads = [0, 0, 0, 0], groups = 2"),
    (
        "Conv2DTranspose",
        [(1, 3, 4, 5), (3, 19, 3, 3)],
        (1, 19, 9, 11),
        'strides = [1, 1, 2, 2], pads = [0, 0, 0, 0], data_format = "NCHW"',
    ),
]


def _bounds(graph: ge.GraphOp, inputs: list[np.ndarray], ebs: list[np.ndarray], independent: bool) -> np.ndarray:
    return EB.output_error_bounds(graph, inputs, independent=independent, input_bounds=ebs)[0]


@pytest.mark.parametrize("elem", list(DTYPES))
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
@pytest.mark.parametrize("carried", ["exact", "x-bound", "both-bounds"])
def test_blocked_bounds_never_below_the_whole_weights(
    case: tuple, elem: str, carried: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    op, shapes, out, attrs = case
    dt = DTYPES[elem]
    rng = np.random.default_rng(zlib.crc32(repr((op, shapes, elem, carried)).encode()))
    graph = _graph(op, shapes, out, attrs, elem)
    inputs = [(rng.standard_normal(s) * 10.0 ** rng.integers(-3, 3)).astype(dt) for s in shapes]
    ebs = [np.zeros(s) for s in shapes]
    if carried != "exact":
        ebs[0] = np.abs(rng.standard_normal(shapes[0])) * 1e-3 * (rng.random(shapes[0]) < 0.7)
    if carried == "both-bounds":
        ebs[1] = np.abs(rng.standard_normal(shapes[1])) * 1e-4
    grouped = "groups = 2" in attrs
    for independent in (False, True):
        monkeypatch.setattr(EB, "ABS_BLOCK_BYTES", 1 << 40)  # one block: the whole |w| (as before)
        whole = _bounds(graph, inputs, ebs, independent)
        # blocks of two output features (the last may be one: bytes of two slices of the weight)
        w = shapes[1]
        k_axis = {"MatMul": 0 if "transpose_x2" in attrs else 1, "Conv2D": 0, "Conv2DTranspose": 1}.get(op, -1)
        if op == "BatchMatMulV2":
            k_axis = len(w) - (2 if "adj_x2" in attrs else 1)
        monkeypatch.setattr(EB, "ABS_BLOCK_BYTES", 2 * 8 * (int(np.prod(w)) // w[k_axis]))
        calls = count_calls(monkeypatch, EB, "_abs_f64")
        blocked = _bounds(graph, inputs, ebs, independent)
        made = calls[0]
        monkeypatch.undo()
        # each product over |w| ran in blocks (a grouped filter: whole, once per product)
        products = 1 + (carried != "exact")
        assert made == (products if grouped else products * -(-w[k_axis] // 2)), made
        assert whole.dtype == blocked.dtype == np.float64 and whole.shape == blocked.shape == out
        # BLAS orders a block's sums otherwise than the whole's in the last bits: the blocked
        # products, rounded up by 4 gamma_64(k), are never below the whole ones, and above
        # them by float64's rounding alone (_abs_product's comment)
        k = _terms(op, shapes, attrs)
        g64 = k * 2.0**-53 / (1 - k * 2.0**-53)
        fin = np.isfinite(whole)  # inf (an f16 result near overflow): in both, the same elements
        assert np.array_equal(fin, np.isfinite(blocked)) and np.mean(fin) > 0.5 and np.any(whole > 0)
        if grouped:  # never blocked: the same computation
            assert np.array_equal(whole, blocked)
        assert np.all(blocked >= whole)
        assert np.all(blocked[fin] <= whole[fin] * (1 + 8 * g64)), np.max(blocked[fin] / whole[fin] - 1) / g64
        if op == "MatMul" and carried == "exact" and not independent:
            _covers_another_order(inputs, attrs, blocked)


def _terms(op: str, shapes: list[tuple[int, ...]], attrs: str) -> int:
    """The number of products an output element sums (k of the rules' gamma(k))."""
    x, w = shapes[0], shapes[1]
    if op == "MatMul":
        return x[0 if "transpose_x1" in attrs else 1]
    if op == "BatchMatMulV2":
        return x[-2 if "adj_x1" in attrs else -1]
    if op == "Conv2D":
        return w[1] * w[2] * w[3]
    return w[0] * w[2] * w[3]  # Conv2DTranspose: at most C * kh * kw (groups 1)


def _covers_another_order(inputs: list[np.ndarray], attrs: str, bound: np.ndarray) -> None:
    """The blocked bound still covers the MatMul summed in another order: term by term
    from the last, in the accumulation dtype (float32 for f16 and bf16, as the
    reference), against numpy's product."""
    a, w = (v.astype(np.float32) for v in inputs[:2])
    a = a.T if "transpose_x1" in attrs else a
    w = w.T if "transpose_x2" in attrs else w
    ref = a @ w
    back = np.zeros(ref.shape, np.float32)
    for i in reversed(range(a.shape[1])):
        back = back + np.outer(a[:, i], w[i])
    if len(inputs) == 3:
        ref, back = ref + inputs[2].astype(np.float32), back + inputs[2].astype(np.float32)
    dt = inputs[0].dtype
    diff = np.abs(ref.astype(dt).astype(np.float64) - back.astype(dt).astype(np.float64))
    assert np.all(diff <= bound), np.max(diff - bound)


def test_abs_f64_is_one_new_array_and_never_touches_the_weight() -> None:
    for w in (np.array([-1.5, 2.0, -0.0], np.float64), np.array([-3, 4], np.float16)):
        before = w.copy()
        m = EB._abs_f64(w)
        assert m.dtype == np.float64 and not np.shares_memory(m, w)
        assert np.array_equal(m, np.abs(w.astype(np.float64))) and np.array_equal(w, before)
