"""Issue 27 part 1: the bound rules that used to give up (inf as soon as an input carried
an error) hold on perturbed inputs. For SoftmaxV2, LogSoftmaxV2, LayerNorm, Mod, FloorMod,
the comparisons, the logical ops and ArgMaxV2, on generated shapes, scales and seeds:
inputs x with bounds e, a perturbed x' (|x' - x| <= e, in the input dtype), both run
through the reference's own kernel (what the compiled program runs); every output element
must lie within the rule's bound, and an element whose bound is 0 must be equal. The bounds
must also stay finite where the inputs lie away from a decision boundary, and small enough
to judge (a move of 10x the bound is outside)."""

from __future__ import annotations

import numpy as np
import pytest

from ge_dialect import ge
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from runtime import error_bound as EB
from runtime.interpreter import run_graph
from runtime.reference import select_graph


def graph_of(text: str) -> ge.GraphOp:
    m = parse_module(GeOptMain([]).ctx, text, "t.mlir")
    m.verify()
    return select_graph(m)


def _t(shape: tuple[int, ...], elem: str = "f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{elem}>" if shape else f"tensor<{elem}>"


def unary_graph(op: str, shape: tuple[int, ...], attrs: str, elem: str = "f32") -> ge.GraphOp:
    t = _t(shape, elem)
    return graph_of(f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {t}
  %y = ge.{op}(%x) {attrs} : ({t}) -> {t}
  ge.NetOutput %y : {t}
}}
""")


def layer_norm_graph(shape: tuple[int, ...], axis: int, eps: float) -> ge.GraphOp:
    t, p = _t(shape), _t(shape[axis:])
    st = _t(shape[:axis] + (1,) * (len(shape) - axis))
    return graph_of(f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {t}
  %g = ge.Data {{index = 1}} : {p}
  %b = ge.Data {{index = 2}} : {p}
  %y:3 = ge.LayerNorm(%x, %g, %b) {{begin_norm_axis = {axis}, begin_params_axis = {axis}, epsilon = {eps:e} : f32}} : ({t}, {p}, {p}) -> ({t}, {st}, {st})
  ge.NetOutput %y#0, %y#1, %y#2 : {t}, {st}, {st}
}}
""")


def binary_graph(op: str, shape: tuple[int, ...], out: str, elem: str = "f32") -> ge.GraphOp:
    t, o = _t(shape, elem), _t(shape, out)
    return graph_of(f"""ge.graph @main {{
  %a = ge.Data {{index = 0}} : {t}
  %b = ge.Data {{index = 1}} : {t}
  %y = ge.{op}(%a, %b) : ({t}, {t}) -> {o}
  ge.NetOutput %y : {o}
}}
""")


def perturbed(x: np.ndarray, e: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """x moved within its bound, in x's dtype (the bound widened to cover the rounding)."""
    t = rng.choice([-1.0, 1.0, 0.0, 0.5], size=x.shape) * rng.uniform(0.0, 1.0, x.shape)
    t[rng.uniform(size=x.shape) < 0.3] = rng.choice([-1.0, 1.0])  # many at the ends
    return (x.astype(np.float64) + t * e).astype(x.dtype)


def holds(
    graph: ge.GraphOp, xs: list[np.ndarray], es: list[np.ndarray], rng: np.random.Generator, tries: int = 10
) -> list[np.ndarray]:
    """Check the rules' bounds on `tries` perturbations; the bounds (of the inputs' bounds
    widened to cover the perturbations' rounding to the input dtype)."""
    xps = [[perturbed(x, e, rng) for x, e in zip(xs, es)] for _ in range(tries)]
    es = [
        np.max([e, *(np.abs(xp[k].astype(np.float64) - x.astype(np.float64)) for xp in xps)], axis=0)
        for k, (x, e) in enumerate(zip(xs, es))
    ]
    bounds = EB.output_error_bounds(graph, xs, input_bounds=es)
    ref = run_graph(graph, xs)
    for xp in xps:
        got = run_graph(graph, xp)
        for k, (g, r, b) in enumerate(zip(got, ref, bounds)):
            d = np.abs(g.astype(np.float64) - r.astype(np.float64))
            ok = (d <= b) | np.isinf(b) | (np.isnan(g.astype(np.float64)) & np.isnan(r.astype(np.float64)))
            assert ok.all(), (k, g[~ok][:3], r[~ok][:3], b[~ok][:3])
    return bounds


SHAPES = [(3, 5), (2, 3, 16), (1, 64), (4, 1)]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("op", ["SoftmaxV2", "LogSoftmaxV2"])
def test_softmax_bounds_hold(op: str, seed: int):
    rng = np.random.default_rng(seed)
    for shape in SHAPES:
        for scale in (1.0, 10.0, 1e-3):
            x = (rng.standard_normal(shape) * scale).astype(np.float32)
            e = np.abs(x) * rng.uniform(0, 1e-5, shape) + rng.uniform(0, 1e-6, shape)
            for axes in ("[-1]", "[0]"):
                b = holds(unary_graph(op, shape, f"{{axes = {axes}}}"), [x], [e], rng)
                assert np.isfinite(b[0]).all() and (b[0] > 0).any()
    # an f16 softmax (computed in f32, rounded to f16)
    x = rng.standard_normal((4, 8)).astype(np.float16)
    e = np.full((4, 8), 1e-3)
    b = holds(unary_graph(op, (4, 8), "{axes = [-1]}", "f16"), [x], [e], rng)
    assert np.isfinite(b[0]).all()


def test_softmax_bound_follows_its_conditioning():
    # y (e^(2D) - 1) plus rounding: a bound of 1e-4 on every logit moves y by about 2e-4 y
    g = unary_graph("SoftmaxV2", (2, 6), "{axes = [-1]}")
    x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(2, 6)
    y = run_graph(g, [x])[0].astype(np.float64)
    (b,) = EB.output_error_bounds(g, [x], input_bounds=[np.full((2, 6), 1e-4)])
    assert np.allclose(b, y * np.expm1(2e-4), rtol=0.01)


@pytest.mark.parametrize("seed", range(6))
def test_layer_norm_bounds_hold(seed: int):
    rng = np.random.default_rng(100 + seed)
    for shape, axis in (((3, 8), 1), ((2, 3, 16), 2), ((2, 4, 5), 1), ((5, 2), 1)):
        for scale, eps in ((1.0, 1e-5), (1e-3, 1e-5), (100.0, 1e-7), (1e-4, 1e-3)):
            x = (rng.standard_normal(shape) * scale + rng.uniform(-1, 1)).astype(np.float32)
            pshape = shape[axis:]
            g = rng.uniform(0.5, 2, pshape).astype(np.float32)
            b = rng.uniform(-1, 1, pshape).astype(np.float32)
            es = [np.abs(x) * 1e-6 + scale * rng.uniform(0, 1e-5, shape), np.abs(g) * 1e-6, np.abs(b) * 1e-6]
            bounds = holds(layer_norm_graph(shape, axis, eps), [x, g, b], es, rng)
            assert all(np.isfinite(o).all() for o in bounds)


def test_layer_norm_bound_is_bounded_through_epsilon():
    # a constant row (variance 0): the normalised value is 0 and its move is bounded
    # through sqrt(eps), not infinite
    x = np.ones((2, 8), np.float32)
    x[1] = np.linspace(-1, 1, 8)
    one, zero = np.ones(8, np.float32), np.zeros(8, np.float32)
    bounds = EB.output_error_bounds(
        layer_norm_graph((2, 8), 1, 1e-5),
        [x, one, zero],
        input_bounds=[np.full((2, 8), 1e-7), np.zeros(8), np.zeros(8)],
    )
    y = bounds[0]
    # the move, 2 * 1e-7 / sqrt(eps), plus both sides' roundings (gamma(8) mean|x| / sqrt(eps) each)
    limit = (2e-7 + 2 * 2 * 8 * 2**-24) / np.sqrt(1e-5)
    assert np.isfinite(y).all() and (y[0] <= limit).all() and (y[1] < 1e-5).all()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("op", ["Mod", "FloorMod"])
def test_remainder_bounds_hold_and_decide_away_from_the_boundary(op: str, seed: int):
    rng = np.random.default_rng(200 + seed)
    shape = (64,)
    a = rng.uniform(-10, 10, shape).astype(np.float32)
    b = (rng.choice([-1, 1], shape) * rng.uniform(0.5, 3, shape)).astype(np.float32)
    ea, eb = rng.uniform(0, 1e-3, shape), rng.uniform(0, 1e-4, shape)
    bound = holds(binary_graph(op, shape, "f32"), [a, b], [ea, eb], rng)[0]
    q = a.astype(np.float64) / b
    far = np.abs(q - np.round(q)) > 0.01  # the quotient lies away from an integer: decided
    assert np.isfinite(bound[far]).all() and (bound[far] < 0.01).all()
    # near a decision boundary: undecidable
    a2 = (b * 3).astype(np.float32)
    bound2 = EB.output_error_bounds(binary_graph(op, shape, "f32"), [a2, b], input_bounds=[np.full(shape, 1e-3), eb])[0]
    assert np.isinf(bound2).all()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("op", ["Greater", "GreaterEqual", "Less", "Equal", "NotEqual"])
def test_comparisons_are_exact_outside_their_margin(op: str, seed: int):
    rng = np.random.default_rng(300 + seed)
    shape = (200,)
    a = rng.uniform(-1, 1, shape).astype(np.float32)
    b = np.where(rng.uniform(size=shape) < 0.2, a, rng.uniform(-1, 1, shape)).astype(np.float32)
    ea, eb = rng.uniform(0, 1e-3, shape), rng.uniform(0, 1e-3, shape)
    bound = holds(binary_graph(op, shape, "i1"), [a, b], [ea, eb], rng)[0]
    margin = np.abs(a.astype(np.float64) - b) > ea + eb
    assert (bound[margin] == 0).all() and np.isinf(bound[~margin]).all()


@pytest.mark.parametrize("op", ["LogicalAnd", "LogicalOr"])
def test_logical_ops_are_decided_by_one_decided_operand(op: str):
    g = binary_graph(op, (4,), "i1", "i1")
    a = np.array([True, False, True, False])
    b = np.array([False, False, True, True])
    ea = np.array([np.inf, np.inf, 0.0, 0.0])  # a undecided in the first two
    (bound,) = EB.output_error_bounds(g, [a, b], input_bounds=[ea, np.zeros(4)])
    # And: b False decides elements 0 and 1; Or: b False leaves them open
    want = [0.0, 0.0, 0.0, 0.0] if op == "LogicalAnd" else [np.inf, np.inf, 0.0, 0.0]
    assert bound.tolist() == want


@pytest.mark.parametrize("seed", range(4))
def test_argmax_is_decided_where_the_winner_is_clear(seed: int):
    rng = np.random.default_rng(400 + seed)
    x = rng.uniform(-1, 1, (30, 6)).astype(np.float32)
    e = np.full(x.shape, 2e-2)
    g = graph_of("""ge.graph @main {
  %x = ge.Data {index = 0} : tensor<30x6xf32>
  %d = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %y = ge.ArgMaxV2(%x, %d) {dtype = 3} : (tensor<30x6xf32>, tensor<i32>) -> tensor<30xi32>
  ge.NetOutput %y : tensor<30xi32>
}
""")
    bound = holds(g, [x], [e], rng)[0]
    top2 = np.sort(x.astype(np.float64), axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 2 * 2e-2
    assert (bound[clear] == 0).all() and np.isinf(bound[~clear]).all()


@pytest.mark.parametrize("seed", range(5))
def test_a_sum_exact_in_every_order_is_settled(seed: int):
    # where exact_sum_mask holds, every order of accumulation in float32 gives one value
    # (checked on 30 random orders), and the mask holds for small dyadic and integer data
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(2, 200))
    rows = [
        rng.integers(-1000, 1000, n).astype(np.float32),  # integers
        (rng.integers(-64, 64, n) / 8.0).astype(np.float32),  # dyadic
        rng.uniform(-1, 1, n).astype(np.float32),  # general: rarely exact
        (rng.integers(-3, 3, n) * 2.0**100).astype(np.float32),  # large, still exact
    ]
    x = np.stack(rows)
    mask = EB.exact_sum_mask(x, (1,), False)
    assert mask[0] and mask[1] and mask[3] and (n < 3 or not mask[2])
    for k in np.flatnonzero(mask):
        sums = set()
        for _ in range(30):
            acc = np.float32(0)
            for v in rng.permutation(x[k]):
                acc = np.float32(acc + v)
            sums.add(float(acc))
        assert len(sums) == 1 and sums == {float(np.sum(x[k].astype(np.float64)))}


def test_an_integer_count_compared_exactly_is_decided():
    # Equal(ReduceSum(float of integers), c): the sum is exact in every order, so the
    # comparison is decided even where it holds with equality (without the exactness rule
    # the reordering bound would make every equal element undecidable)
    g = graph_of("""ge.graph @main {
  %x = ge.Data {index = 0} : tensor<6x40xf32>
  %s = ge.ReduceSumD(%x) {axes = [1], keep_dims = false} : (tensor<6x40xf32>) -> tensor<6xf32>
  %c = ge.Const {value = dense<3.0> : tensor<6xf32>} : tensor<6xf32>
  %y = ge.Equal(%s, %c) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
  ge.NetOutput %s, %y : tensor<6xf32>, tensor<6xi1>
}
""")
    x = np.zeros((6, 40), np.float32)
    x[:, :3] = 1.0  # every row sums to 3
    x[1, 5] = 0.1  # row 1: 0.1's last bit is 2^-27, so 3.1 may round by order: it keeps a bound
    s_bound, y_bound = EB.output_error_bounds(g, [x])
    assert (y_bound == 0).all() and (s_bound[[0, 2, 3, 4, 5]] == 0).all() and s_bound[1] > 0
    x2 = np.random.default_rng(0).uniform(-1, 1, (6, 40)).astype(np.float32)
    assert (EB.output_error_bounds(g, [x2])[0] > 0).all()


@pytest.mark.parametrize("op", ["SoftmaxV2", "LogSoftmaxV2"])
def test_softmax_bound_holds_at_the_worst_perturbation(op: str):
    # element i moved up by its bound and every other one down by theirs (and the reverse):
    # the extreme moves of y_i (z_i), computed in float64
    rng = np.random.default_rng(9)
    x = (rng.standard_normal((1, 12)) * 3).astype(np.float32)
    e = rng.uniform(0, 0.05, (1, 12))
    g = unary_graph(op, (1, 12), "{axes = [-1]}")
    (b,) = EB.output_error_bounds(g, [x], input_bounds=[e])

    def f(v: np.ndarray) -> np.ndarray:
        z = v - v.max() - np.log(np.sum(np.exp(v - v.max())))
        return np.exp(z) if op == "SoftmaxV2" else z

    x64 = x.astype(np.float64)[0]
    for i in range(12):
        for sign in (1.0, -1.0):
            d = -sign * e[0]
            d[i] = sign * e[0, i]
            assert abs(f(x64 + d)[i] - f(x64)[i]) <= b[0, i]


FMAX32 = float(np.finfo(np.float32).max)


@pytest.mark.parametrize("seed", range(3))
def test_a_sum_at_fmax_stays_finite(seed: int):
    # an attention mask: score + (-fmax). Both sides round to -fmax; it overflows only at
    # fmax + half an ulp (2^128 - 2^103), far beyond the scores' bound
    rng = np.random.default_rng(seed)
    g = binary_graph("Add", (3, 8), "f32")
    a = rng.standard_normal((3, 8)).astype(np.float32)
    m = np.where(np.tri(3, 8, dtype=bool), 0.0, -FMAX32).astype(np.float32)
    (b,) = holds(g, [a, m], [np.full((3, 8), 1e-3), np.zeros((3, 8))], rng)
    assert np.isfinite(b).all()
    # a sum that may reach the threshold stays undecidable: fmax + fmax
    (b2,) = EB.output_error_bounds(g, [np.full((3, 8), FMAX32, np.float32)] * 2, input_bounds=[np.ones((3, 8))] * 2)
    assert np.isinf(b2).all()


@pytest.mark.parametrize("seed", range(3))
def test_softmax_of_masked_scores_is_decided(seed: int):
    # masked scores (-fmax / 2 here, so that the perturbations stay finite) carry a bound
    # of 2u|x| (their own rounding): their exponentials underflow on both sides, so they
    # weigh nothing, and the other elements keep the bound of the unmasked row
    rng = np.random.default_rng(seed)
    g = unary_graph("SoftmaxV2", (4, 6), "{axes = [-1]}")
    x = rng.standard_normal((4, 6)).astype(np.float32)
    mask = ~np.tri(4, 6, dtype=bool)
    x[mask] = -FMAX32 / 2
    e = np.where(mask, 2.0**-24 * FMAX32, 1e-4)
    (b,) = holds(g, [x], [e], rng)
    assert np.isfinite(b).all() and (b[mask] == 0).all() and (b[~mask] > 0).all()
    # the unmasked elements: as the first row alone (one element: exact), within rounding
    for r in range(1, 4):
        k = r + 1
        gr = unary_graph("SoftmaxV2", (1, k), "{axes = [-1]}")
        (br,) = EB.output_error_bounds(gr, [x[r : r + 1, :k]], input_bounds=[np.full((1, k), 1e-4)])
        assert np.allclose(b[r, :k], br[0], rtol=1e-2)
    # a score whose bound lets it reach the maximum still counts
    x2 = np.array([[0.0, -1.0, -50.0]], np.float32)
    g2 = unary_graph("SoftmaxV2", (1, 3), "{axes = [-1]}")
    (b2,) = holds(g2, [x2], [np.array([[0.0, 0.0, 60.0]])], rng)
    assert b2[0, 2] > 0.5
