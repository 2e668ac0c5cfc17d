"""The simulator's BLAS-backed library kernels (runtime/kernels.py) against the reference
interpreter's semantics (runtime/reference.py), on one-node graphs of varied shapes, dtypes
and attributes: MaxPool exactly (a max is exact in any order), integer MatMul exactly,
Conv2D, MatMul, BatchMatMulV2 and AvgPool within the bound ge-run judges the compiled
program by (ge_tools/run.py `within_tolerance` widened by runtime/error_bound.py's
per-element bound: the accumulation order is the only freedom). The model a library kernel
runs in is the simulator's: tests/runtime/test_simulator.py runs them on compiled models.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import parse
from ge_dialect.dtypes import numpy_dtype
from ge_tools.run import within_tolerance
from runtime.error_bound import output_error_bounds
from runtime.interpreter import ge_interpreter
from runtime.kernels import library_kernel
from runtime.reference import select_graph


def _t(shape: tuple[int, ...], dt: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dt}>"


def one_node(op: str, ins: list[tuple[tuple[int, ...], str]], out: tuple[tuple[int, ...], str], attrs: str) -> str:
    names = [f"%a{i}" for i in range(len(ins))]
    datas = "\n".join(f"  {n} = ge.Data {{index = {i}}} : {_t(*t)}" for i, (n, t) in enumerate(zip(names, ins)))
    in_types = ", ".join(_t(*t) for t in ins)
    return (
        f"ge.graph @main {{\n{datas}\n"
        f"  %y = ge.{op}({', '.join(names)}) {{{attrs}}} : ({in_types}) -> {_t(*out)}\n"
        f"  ge.NetOutput %y : {_t(*out)}\n}}\n"
    )


def _inputs(graph: object, seed: int, nan: bool = False) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for d in sorted(graph.data_nodes, key=lambda d: d.int_attr("index")):  # type: ignore[attr-defined]
        t = d.results[0].type
        dt = numpy_dtype(t.element_type)
        shape = tuple(t.get_shape())
        if dt.kind in "iu":
            a = rng.integers(-9, 10, size=shape).astype(dt)
        else:
            a = rng.uniform(-2, 2, size=shape).astype(np.float32)
            if nan and a.size > 3:
                a.reshape(-1)[[1, a.size // 2]] = [np.nan, -np.inf]
            a = a.astype(dt)
        out.append(a)
    return out


def run_both(text: str, seed: int = 0, nan: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kernel's output, reference's output, error bound) of the graph's one node."""
    m = parse(text)
    g = select_graph(m)
    node = next(op for op in g.body.block.ops if op.name not in ("ge.Data", "ge.NetOutput"))
    kernel = library_kernel(node)
    assert kernel is not None, node.name
    ins = _inputs(g, seed, nan)
    with np.errstate(all="ignore"):
        (got,) = kernel(ins)
        (ref,) = ge_interpreter(m).run_node(node, ins)
    (bound,) = output_error_bounds(g, ins)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    return got, ref, bound


CONVS = [
    # x shape, (K, C/g, kh, kw), strides, pads, dilations, groups, bias
    ((1, 3, 9, 9), (4, 3, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1, False),
    ((2, 4, 8, 7), (6, 2, 3, 2), (2, 1), (0, 1, 2, 0), (1, 1), 2, True),
    ((1, 6, 10, 10), (6, 1, 3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 6, True),  # depthwise
    ((2, 4, 9, 8), (8, 1, 3, 2), (1, 2), (1, 0, 2, 1), (2, 1), 4, False),  # depthwise, 2 per channel, dilated
    ((1, 8, 5, 6), (16, 8, 1, 1), (1, 1), (0, 0, 0, 0), (1, 1), 1, True),  # 1x1, no im2col
    ((1, 8, 6, 6), (4, 8, 1, 1), (2, 2), (0, 0, 0, 0), (1, 1), 1, False),  # 1x1 strided
    ((1, 2, 11, 12), (3, 2, 3, 3), (1, 2), (2, 2, 1, 3), (2, 3), 1, False),  # dilated
    ((3, 4, 7, 7), (8, 4, 7, 7), (1, 1), (3, 3, 3, 3), (1, 1), 1, True),
]


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("case", CONVS, ids=range(len(CONVS)))
def test_conv2d_within_the_bound(case: tuple, dt: str) -> None:
    x, w, (sh, sw), pads, (dh, dw), g, bias = case
    n, c, h, wd = x
    k, _, kh, kw = w
    pt, pb, pl, pr = pads
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    ins = [(x, dt), (w, dt)] + ([((k,), dt)] if bias else [])
    attrs = (
        f"strides = [1, 1, {sh}, {sw}], pads = [{pt}, {pb}, {pl}, {pr}], dilations = [1, 1, {dh}, {dw}], groups = {g}"
    )
    got, ref, bound = run_both(one_node("Conv2D", ins, ((n, k, oh, ow), dt), attrs), seed=len(ins))
    assert within_tolerance(got, ref, bound).all()
    assert np.isfinite(bound).all()


MATMULS = [((4, 5), (5, 3), False, False), ((5, 4), (5, 3), True, False), ((4, 5), (3, 5), False, True),
           ((6, 7), (3, 6), True, True), ((1, 64), (64, 10), False, False)]  # fmt: skip


@pytest.mark.parametrize("dt", ["f32", "f16", "i32"])
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("case", MATMULS, ids=range(len(MATMULS)))
def test_matmul(case: tuple, bias: bool, dt: str) -> None:
    a, b, ta, tb = case
    m = a[1] if ta else a[0]
    n = b[0] if tb else b[1]
    ins = [(a, dt), (b, dt)] + ([((n,), dt)] if bias else [])
    attrs = f"transpose_x1 = {str(ta).lower()}, transpose_x2 = {str(tb).lower()}"
    got, ref, bound = run_both(one_node("MatMul", ins, ((m, n), dt), attrs), seed=m * n)
    if dt == "i32":  # integers: exact in any order
        assert np.array_equal(got, ref)
    else:
        assert within_tolerance(got, ref, bound).all()


BMMS = [((2, 3, 4), (2, 4, 5), False, False, (2, 3, 5)), ((3, 1, 4, 6), (5, 4, 2), True, False, (3, 5, 6, 2)),
        ((4, 6), (2, 3, 5, 6), False, True, (2, 3, 4, 5)), ((2, 5, 3), (2, 4, 5), True, True, (2, 3, 4))]  # fmt: skip


@pytest.mark.parametrize("dt", ["f32", "bf16", "i32"])
@pytest.mark.parametrize("case", BMMS, ids=range(len(BMMS)))
def test_batch_matmul(case: tuple, dt: str) -> None:
    a, b, ta, tb, out = case
    attrs = f"adj_x1 = {str(ta).lower()}, adj_x2 = {str(tb).lower()}"
    got, ref, bound = run_both(one_node("BatchMatMulV2", [(a, dt), (b, dt)], (out, dt), attrs), seed=len(out))
    if dt == "i32":
        assert np.array_equal(got, ref)
    else:
        assert within_tolerance(got, ref, bound).all()


POOLS = [
    # x shape, ksize, strides, attributes beyond them, output hw
    ((1, 3, 8, 8), (2, 2), (2, 2), 'padding_mode = "CALCULATED", pads = [0, 0, 0, 0]', (4, 4)),
    ((2, 2, 9, 9), (3, 3), (2, 2), 'padding_mode = "CALCULATED", pads = [1, 1, 1, 1]', (5, 5)),
    ((1, 2, 7, 10), (3, 2), (2, 3), 'padding_mode = "CALCULATED", pads = [1, 0, 0, 1], ceil_mode = true', (4, 4)),
    ((1, 4, 7, 7), (3, 3), (2, 2), 'padding_mode = "SAME"', (4, 4)),
    ((1, 4, 7, 6), (2, 3), (1, 2), 'padding_mode = "VALID"', (6, 2)),
    ((1, 5, 6, 5), (1, 1), (1, 1), 'padding_mode = "CALCULATED", global_pooling = true', (1, 1)),
    ((1, 2, 5, 5), (3, 3), (3, 3), 'padding_mode = "CALCULATED", pads = [2, 2, 2, 2], ceil_mode = true', (3, 3)),
    # more taps than outputs (and the global pool above): one reduction over the window view
    ((1, 3, 9, 9), (7, 7), (2, 2), 'padding_mode = "CALCULATED", pads = [1, 1, 1, 1]', (3, 3)),
]


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16", "i8"])
@pytest.mark.parametrize("case", POOLS, ids=range(len(POOLS)))
def test_max_pool_is_exact(case: tuple, dt: str) -> None:
    x, (kh, kw), (sh, sw), extra, (oh, ow) = case
    attrs = f"ksize = [1, 1, {kh}, {kw}], strides = [1, 1, {sh}, {sw}], {extra}"
    got, ref, _ = run_both(one_node("MaxPoolV3", [(x, dt)], ((*x[:2], oh, ow), dt), attrs), nan=dt != "i8")
    assert got.tobytes() == ref.tobytes()


@pytest.mark.parametrize("dt", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("avg", ["exclusive = true", "exclusive = false", "divisor_override = 5"])
@pytest.mark.parametrize("case", POOLS[1:4] + POOLS[5:], ids=range(6))
def test_avg_pool_within_the_bound(case: tuple, avg: str, dt: str) -> None:
    x, (kh, kw), (sh, sw), extra, (oh, ow) = case
    attrs = f"ksize = [1, 1, {kh}, {kw}], strides = [1, 1, {sh}, {sw}], {extra}, {avg}"
    got, ref, bound = run_both(one_node("AvgPoolV2", [(x, dt)], ((*x[:2], oh, ow), dt), attrs))
    assert within_tolerance(got, ref, bound).all()


def test_tensorflow_pools_same_padding() -> None:
    """MaxPool / AvgPool (TensorFlow's form): SAME's padding never counts in the divisor."""
    text = one_node("AvgPool", [((1, 3, 7, 5), "f32")], ((1, 3, 4, 3), "f32"),
                    'ksize = [1, 1, 3, 3], strides = [1, 1, 2, 2], padding = "SAME"')  # fmt: skip
    got, ref, bound = run_both(text)
    assert within_tolerance(got, ref, bound).all()
    text = text.replace("AvgPool", "MaxPool")
    got, ref, _ = run_both(text, nan=True)
    assert got.tobytes() == ref.tobytes()


def test_a_wrong_kernel_is_caught() -> None:
    """The comparison above can fail: a conv whose padding is off by one row is outside
    the bound (so a kernel bug would not pass as rounding)."""
    text = one_node("Conv2D", [((1, 2, 6, 6), "f32"), ((3, 2, 3, 3), "f32")], ((1, 3, 6, 6), "f32"),
                    "strides = [1, 1, 1, 1], pads = [1, 1, 1, 1]")  # fmt: skip
    m = parse(text)
    g = select_graph(m)
    node = next(op for op in g.body.block.ops if op.name == "ge.Conv2D")
    kernel = library_kernel(node)
    assert kernel is not None
    x, w = _inputs(g, 0)
    (got,) = kernel([np.roll(x, 1, axis=2), w])
    (ref,) = ge_interpreter(m).run_node(node, [x, w])
    (bound,) = output_error_bounds(g, [x, w])
    assert not within_tolerance(got, ref, bound).all()


def test_other_nodes_have_no_fast_kernel() -> None:
    m = parse(one_node("Relu", [((2, 3), "f32")], ((2, 3), "f32"), ""))
    node = next(op for op in select_graph(m).body.block.ops if op.name == "ge.Relu")
    assert library_kernel(node) is None
