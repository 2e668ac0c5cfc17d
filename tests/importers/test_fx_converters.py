"""importers/fx.py: one test per ATen converter against eager PyTorch.

Each case is a tiny module whose torch.export graph (after torch's default decompositions,
the ATen ops torch.compile's AOTAutograd gives) holds the ATen op under test; the imported ge
module is evaluated on the reference interpreter and compared with eager torch (the expected
values are torch's own, computed independently of the project), at float32 and, where the op
takes it, float16.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ge_tools import api  # noqa: E402
from importers.fx import (  # noqa: E402
    CONVERTERS,
    FxImportError,
    import_aten_program,
    import_exported_program,
    lower_to_aten,
)

F = torch.nn.functional


class _Fn(torch.nn.Module):
    def __init__(self, fn: Callable, params: dict | None = None):
        super().__init__()
        self.fn = fn
        for k, v in (params or {}).items():
            self.register_parameter(k, torch.nn.Parameter(v, requires_grad=False))

    def forward(self, *xs):
        return self.fn(self, *xs)


def _run(fn: Callable, inputs: list, params: dict | None = None, op: str | None = None, tol: float = 1e-5):
    m = _Fn(fn, params).eval()
    ep = lower_to_aten(torch.export.export(m, tuple(inputs)))  # lowered once: it traces again
    ops = {str(n.target) for n in ep.graph.nodes if n.op == "call_function"}
    if op is not None:
        assert op in ops, f"{op} not in the graph: {sorted(ops)}"
    module = import_aten_program(ep, "case.py")
    with torch.no_grad():
        want = m(*inputs)
    want = [want] if isinstance(want, torch.Tensor) else list(want)
    got = api.reference(module, [x.numpy() for x in inputs])
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = w.numpy()
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol, atol=tol)
    return module


def _x(*shape, dtype=None, seed=0, positive=False):
    g = torch.Generator().manual_seed(seed)
    t = torch.randn(*shape, generator=g)
    if positive:
        t = t.abs() + 0.5
    return t.to(dtype or torch.float32)


DTYPES = [pytest.param(torch.float32, 1e-5, id="f32"), pytest.param(torch.float16, 2e-3, id="f16")]

# (ATen op, the function, input shapes, positive inputs)
POINTWISE = [
    ("aten.add.Tensor", lambda s, a, b: a + b, [(2, 3), (3,)], False),
    ("aten.add.Tensor", lambda s, a, b: torch.add(a, b, alpha=2.0), [(2, 3), (2, 3)], False),
    ("aten.sub.Tensor", lambda s, a, b: a - b, [(4, 1), (1, 5)], False),
    ("aten.mul.Tensor", lambda s, a, b: a * b * 3.0, [(2, 3), (2, 3)], False),
    ("aten.div.Tensor", lambda s, a, b: a / b, [(2, 3), (2, 3)], True),
    ("aten.rsub.Scalar", lambda s, a: 1.0 - a, [(2, 3)], False),
    ("aten.pow.Tensor_Scalar", lambda s, a: a**3, [(2, 3)], True),
    ("aten.pow.Tensor_Scalar", lambda s, a: a**2, [(2, 3)], False),
    ("aten.relu.default", lambda s, a: torch.relu(a), [(2, 3)], False),
    ("aten.sigmoid.default", lambda s, a: torch.sigmoid(a), [(2, 3)], False),
    ("aten.tanh.default", lambda s, a: torch.tanh(a), [(2, 3)], False),
    ("aten.exp.default", lambda s, a: torch.exp(a), [(2, 3)], False),
    ("aten.neg.default", lambda s, a: -a, [(2, 3)], False),
    ("aten.rsqrt.default", lambda s, a: torch.rsqrt(a), [(2, 3)], True),
    ("aten.sqrt.default", lambda s, a: torch.sqrt(a), [(2, 3)], True),
    ("aten.log.default", lambda s, a: torch.log(a), [(2, 3)], True),
    ("aten.abs.default", lambda s, a: torch.abs(a), [(2, 3)], False),
    ("aten.silu.default", lambda s, a: F.silu(a), [(2, 5)], False),
    ("aten.gelu.default", lambda s, a: F.gelu(a), [(2, 5)], False),
    ("aten.hardtanh.default", lambda s, a: F.relu6(a * 4), [(3, 4)], False),
    ("aten.clamp.default", lambda s, a: torch.clamp(a, min=-0.5), [(3, 4)], False),
    ("aten.maximum.default", lambda s, a, b: torch.maximum(a, b), [(3, 4), (3, 4)], False),
    ("aten.where.self", lambda s, a, b: torch.where(a > 0, a, b), [(3, 4), (3, 4)], False),
    ("aten.softmax.int", lambda s, a: torch.softmax(a, -1), [(3, 4)], False),
    ("aten.softmax.int", lambda s, a: torch.softmax(a, 0), [(3, 4)], False),
    ("aten.log_softmax.int", lambda s, a: torch.log_softmax(a, 1), [(3, 4)], False),
    ("aten.mean.dim", lambda s, a: a.mean((1, 2), keepdim=True), [(2, 3, 4)], False),
    ("aten.sum.dim_IntList", lambda s, a: a.sum(-1), [(2, 3, 4)], False),
    ("aten.amax.default", lambda s, a: a.amax(1), [(2, 3, 4)], False),
    ("aten.clone.default", lambda s, a: a.clone(memory_format=torch.contiguous_format) + 0, [(2, 3)], False),
]


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
@pytest.mark.parametrize(
    ("op", "fn", "shapes", "positive"), POINTWISE, ids=[c[0] + f"_{i}" for i, c in enumerate(POINTWISE)]
)
def test_pointwise_and_reductions(op, fn, shapes, positive, dtype, tol):
    xs = [_x(*s, dtype=dtype, seed=k, positive=positive) for k, s in enumerate(shapes)]
    _run(fn, xs, op=op if op != "aten.clone.default" else None, tol=tol * 10 if "softmax" in op else tol)


STRUCTURAL = [
    ("aten.view.default", lambda s, a: a.view(6, 2), [(3, 4)]),
    ("aten.view.default", lambda s, a: a.reshape(-1), [(2, 3, 2)]),
    ("aten.permute.default", lambda s, a: a.permute(2, 0, 1), [(2, 3, 4)]),
    ("aten.transpose.int", lambda s, a: a.transpose(0, 2), [(2, 3, 4)]),
    ("aten.t.default", lambda s, a: a.t(), [(2, 3)]),
    ("aten.expand.default", lambda s, a: a.expand(3, 4, 5), [(4, 1)]),
    ("aten.cat.default", lambda s, a, b: torch.cat([a, b], -1), [(2, 3), (2, 5)]),
    ("aten.split_with_sizes.default", lambda s, a: torch.split(a, [1, 3], 1), [(2, 4)]),
    ("aten.split.Tensor", lambda s, a: torch.chunk(a, 2, 0), [(4, 3)]),
    ("aten.slice.Tensor", lambda s, a: a[:, 1:5:2], [(2, 6)]),
    ("aten.slice.Tensor", lambda s, a: a[1:], [(3, 2)]),
    ("aten.select.int", lambda s, a: a[:, -1], [(2, 3, 4)]),
    ("aten.unsqueeze.default", lambda s, a: a.unsqueeze(-1), [(2, 3)]),
    ("aten.squeeze.dim", lambda s, a: a.squeeze(1), [(2, 1, 3)]),
]


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
@pytest.mark.parametrize(("op", "fn", "shapes"), STRUCTURAL, ids=[c[0] + f"_{i}" for i, c in enumerate(STRUCTURAL)])
def test_structural(op, fn, shapes, dtype, tol):
    xs = [_x(*s, dtype=dtype, seed=k) for k, s in enumerate(shapes)]
    _run(lambda s, *a: [t + 0 for t in fn(s, *a)] if op.startswith("aten.split") else fn(s, *a), xs, op=op, tol=tol)


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_mm_addmm_bmm_linear(dtype, tol):
    w, b = _x(5, 4, seed=3, dtype=dtype), _x(5, seed=4, dtype=dtype)
    t = tol * 10  # a sum of 4 products, each rounded in the dtype
    _run(lambda s, a: F.linear(a, s.w, s.b), [_x(3, 4, dtype=dtype)], {"w": w, "b": b}, op="aten.addmm.default", tol=t)
    _run(lambda s, a, c: a @ c, [_x(3, 4, dtype=dtype), _x(4, 2, seed=1, dtype=dtype)], op="aten.mm.default", tol=t)
    bmm = [_x(2, 3, 4, dtype=dtype), _x(2, 4, 5, seed=1, dtype=dtype)]
    _run(lambda s, a, c: torch.bmm(a, c), bmm, op="aten.bmm.default", tol=t)
    addmm = [_x(3, 4, dtype=dtype), _x(3, 3, seed=1, dtype=dtype)]
    _run(lambda s, a, c: torch.addmm(c, a, a.t(), beta=0.5, alpha=2.0), addmm, tol=t)


@pytest.mark.parametrize(
    ("stride", "padding", "dilation", "groups", "bias"),
    [(1, 1, 1, 1, True), (2, 0, 1, 1, False), (1, 2, 2, 2, True), ((2, 1), (1, 0), 1, 4, True)],
)
@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_convolution(stride, padding, dilation, groups, bias, dtype, tol):
    w = _x(4, 4 // groups, 3, 3, seed=5, dtype=dtype)
    params = {"w": w, **({"b": _x(4, seed=6, dtype=dtype)} if bias else {})}
    _run(
        lambda s, a: F.conv2d(a, s.w, getattr(s, "b", None), stride, padding, dilation, groups),
        [_x(2, 4, 7, 6, dtype=dtype)],
        params,
        op="aten.convolution.default",
        tol=tol * 20,  # a sum of up to 36 products
    )


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
@pytest.mark.parametrize("rank", [2, 4])
def test_batch_norm_inference(rank, dtype, tol):
    c = 3
    params = {"w": _x(c, seed=1, dtype=dtype), "b": _x(c, seed=2, dtype=dtype)}
    mean, var = _x(c, seed=3, dtype=dtype), _x(c, seed=4, positive=True, dtype=dtype)
    shape = (2, c) if rank == 2 else (2, c, 4, 5)
    _run(
        lambda s, a: F.batch_norm(a, mean, var, s.w, s.b, False, 0.1, 1e-3),
        [_x(*shape, dtype=dtype)],
        params,
        op="aten._native_batch_norm_legit_no_training.default",
        tol=tol * 5,
    )


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_native_layer_norm(dtype, tol):
    params = {"w": _x(4, 5, seed=1).to(dtype), "b": _x(4, 5, seed=2).to(dtype)}
    _run(
        lambda s, a: F.layer_norm(a, (4, 5), s.w, s.b, 1e-5),
        [_x(2, 4, 5, dtype=dtype)],
        params,
        op="aten.native_layer_norm.default",
        tol=tol * 5,
    )
    _run(lambda s, a: F.layer_norm(a, (5,)), [_x(3, 5, dtype=dtype)], tol=tol * 5)


@pytest.mark.parametrize(
    ("kernel", "stride", "padding", "ceil"), [(2, None, 0, False), (3, 2, 1, False), (3, 2, 0, True)]
)
@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_pools(kernel, stride, padding, ceil, dtype, tol):
    x = [_x(1, 2, 7, 7, dtype=dtype)]
    mx = "aten.max_pool2d.default"
    _run(lambda s, a: F.max_pool2d(a, kernel, stride, padding, ceil_mode=ceil), x, op=mx, tol=tol)
    av = "aten.avg_pool2d.default"
    _run(lambda s, a: F.avg_pool2d(a, kernel, stride, padding, ceil_mode=ceil), x, op=av, tol=tol * 5)
    _run(
        lambda s, a: F.avg_pool2d(a, kernel, stride, padding, ceil_mode=ceil, count_include_pad=False),
        x,
        op=av,
        tol=tol * 5,
    )


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_adaptive_avg_pool(dtype, tol):
    x = [_x(1, 2, 4, 6, dtype=dtype)]
    _run(lambda s, a: F.adaptive_avg_pool2d(a, (2, 3)), x, op="aten.adaptive_avg_pool2d.default", tol=tol * 5)
    with pytest.raises(
        FxImportError, match=r"test_fx_converters.py:\d+:1: error: aten.adaptive_avg_pool2d.default .*not an even"
    ):
        _run(lambda s, a: F.adaptive_avg_pool2d(a, (3, 3)), [_x(1, 2, 4, 6)])


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_embedding_and_index_select(dtype, tol):
    table = _x(10, 4, seed=1, dtype=dtype)
    ids = torch.tensor([[1, 9, 0], [3, 3, 2]])
    _run(lambda s, i: F.embedding(i, s.t), [ids], {"t": table}, op="aten.embedding.default", tol=0)
    sel = [_x(3, 5, dtype=dtype), torch.tensor([4, 0])]
    _run(lambda s, a, i: torch.index_select(a, 1, i), sel, op="aten.index_select.default", tol=0)
    _run(
        lambda s, a, i: torch.gather(a, 1, i),
        [_x(3, 5, dtype=dtype), torch.tensor([[4, 0], [1, 1], [2, 3]])],
        op="aten.gather.default",
        tol=0,
    )


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
@pytest.mark.parametrize("variant", ["plain", "causal", "float_mask", "bool_mask"])
def test_scaled_dot_product_attention(variant, dtype, tol):
    q, k, v = _x(1, 2, 4, 8, dtype=dtype), _x(1, 2, 6, 8, seed=1, dtype=dtype), _x(1, 2, 6, 8, seed=2, dtype=dtype)
    fmask = _x(4, 6, seed=3, dtype=dtype)
    bmask = torch.tensor([[True, False, True, True, False, True]] * 4)
    if variant == "causal":
        q = _x(1, 2, 6, 8, dtype=dtype)

    def fn(s, q, k, v):
        mask = {"float_mask": fmask, "bool_mask": bmask}.get(variant)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=variant == "causal")

    _run(fn, [q, k, v], op="aten._scaled_dot_product_flash_attention_for_cpu.default", tol=tol * 10)


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_comparisons_and_casts(dtype, tol):
    a, b = _x(3, 4, dtype=dtype), _x(3, 4, seed=1, dtype=dtype)
    for op, fn in [
        ("aten.gt.Tensor", lambda s, x, y: x > y),
        ("aten.lt.Scalar", lambda s, x, y: x < 0.1),
        ("aten.eq.Tensor", lambda s, x, y: x == x),
        ("aten.ne.Scalar", lambda s, x, y: x != 0.0),
        ("aten.ge.Tensor", lambda s, x, y: x >= y),
        ("aten.le.Scalar", lambda s, x, y: x <= 0.0),
    ]:
        _run(fn, [a, b], op=op)
    _run(
        lambda s, x, y: (x > y).to(torch.float32) + x.to(torch.float16).to(torch.float32) + y.to(torch.float32),
        [a, b],
        op="aten._to_copy.default",
        tol=1e-3,
    )
    _run(lambda s, x, y: (x * 10).to(torch.int32), [a, b], op="aten._to_copy.default")


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
def test_constants(dtype, tol):
    x = [_x(2, 4, dtype=dtype)]
    _run(lambda s, a: a + torch.arange(4, dtype=dtype), x, op="aten.arange.default", tol=tol)
    _run(lambda s, a: a + torch.full((2, 4), 3.0, dtype=dtype), x, op="aten.full.default", tol=tol)
    _run(lambda s, a: a * torch.ones(4, dtype=dtype) + torch.zeros(2, 1, dtype=dtype), x, tol=tol)


def test_names_and_locations():
    """Parameters are Consts named by their state-dict names (made valid SSA names, unique);
    every converted op carries its FX node's name and this file's line."""
    from xdsl.dialects.builtin import FileLineColLoc

    m = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU()).eval()
    module = import_exported_program(torch.export.export(m, (_x(2, 4),)), "seq.pt2")
    ops = list(module.walk())
    names = {o.results[0].name_hint for o in ops if o.results}
    assert {"n0.weight", "n0.bias", "relu"} <= names
    relu = next(o for o in ops if o.name == "ge.Relu")
    assert isinstance(relu.location, FileLineColLoc) and relu.location.filename.data.endswith("activation.py")


A = torch.ops.aten


def _mixed(dt):
    """(2, 3) with every other element equal to `_x(2, 3)`'s (an equality that is true somewhere)."""
    return torch.where(torch.arange(6).reshape(2, 3) % 2 == 0, _x(2, 3, dtype=dt), _x(2, 3, dtype=dt, seed=1))


def _other(dt):
    return torch.float32 if dt == torch.float16 else torch.float16


# Every converter's ATen op called as it is (torch.ops.aten.<op>.<overload>), so the graph
# holds exactly that overload: op -> dtype -> (the function, its inputs). Ops reached only
# through one spelling of AOTAutograd or torch.export (aliases, CompositeImplicit overloads
# such as softmax.int or flatten.using_ints) are covered the same way.
DIRECT: dict[str, Callable] = {
    "aten._adaptive_avg_pool2d.default": lambda dt: (
        lambda a: A._adaptive_avg_pool2d.default(a, [2, 3]), [_x(1, 2, 4, 6, dtype=dt)]),
    "aten.adaptive_avg_pool2d.default": lambda dt: (
        lambda a: A.adaptive_avg_pool2d.default(a, [1, 1]), [_x(1, 2, 4, 6, dtype=dt)]),
    "aten._assert_tensor_metadata.default": lambda dt: (
        lambda a: (A._assert_tensor_metadata.default(a, None, None, dt), A.relu.default(a))[1], [_x(2, 3, dtype=dt)]),
    "aten._log_softmax.default": lambda dt: (lambda a: A._log_softmax.default(a, 1, False), [_x(3, 4, dtype=dt)]),
    "aten._softmax.default": lambda dt: (lambda a: A._softmax.default(a, -1, False), [_x(3, 4, dtype=dt)]),
    "aten.log_softmax.int": lambda dt: (lambda a: A.log_softmax.int(a, 0), [_x(3, 4, dtype=dt)]),
    "aten.softmax.int": lambda dt: (lambda a: A.softmax.int(a, 0), [_x(3, 4, dtype=dt)]),
    "aten._native_batch_norm_legit_no_training.default": lambda dt: (
        lambda x, w, b, m, v: A._native_batch_norm_legit_no_training.default(x, w, b, m, v, 0.1, 1e-3)[0],
        [_x(2, 3, 4, 5, dtype=dt), _x(3, seed=1, dtype=dt), _x(3, seed=2, dtype=dt), _x(3, seed=3, dtype=dt),
         _x(3, seed=4, positive=True, dtype=dt)]),
    "aten.native_layer_norm.default": lambda dt: (
        lambda x, w, b: list(A.native_layer_norm.default(x, [5], w, b, 1e-5)),
        [_x(2, 4, 5, dtype=dt), _x(5, seed=1, dtype=dt), _x(5, seed=2, dtype=dt)]),
    "aten._scaled_dot_product_flash_attention_for_cpu.default": lambda dt: (
        lambda q, k, v: A._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, 0.0, True)[0],
        [_x(1, 2, 4, 8, dtype=dt), _x(1, 2, 4, 8, seed=1, dtype=dt), _x(1, 2, 4, 8, seed=2, dtype=dt)]),
    "aten._to_copy.default": lambda dt: (lambda a: A._to_copy.default(a, dtype=_other(dt)), [_x(2, 3, dtype=dt)]),
    "aten.to.dtype": lambda dt: (lambda a: A.to.dtype(a, _other(dt)), [_x(2, 3, dtype=dt)]),
    "aten._unsafe_view.default": lambda dt: (lambda a: A._unsafe_view.default(a, [6, 2]), [_x(3, 4, dtype=dt)]),
    "aten.view.default": lambda dt: (lambda a: A.view.default(a, [2, 6]), [_x(3, 4, dtype=dt)]),
    "aten.reshape.default": lambda dt: (lambda a: A.reshape.default(a, [-1, 3]), [_x(2, 2, 3, dtype=dt)]),
    "aten.flatten.using_ints": lambda dt: (lambda a: A.flatten.using_ints(a, 1), [_x(2, 3, 4, dtype=dt)]),
    "aten.abs.default": lambda dt: (lambda a: A.abs.default(a), [_x(2, 3, dtype=dt)]),
    "aten.add.Tensor": lambda dt: (lambda a, b: A.add.Tensor(a, b, alpha=2), [_x(2, 3, dtype=dt), _x(3, seed=1, dtype=dt)]),
    "aten.add.Scalar": lambda dt: (lambda a: A.add.Scalar(a, 2.5), [_x(2, 3, dtype=dt)]),
    "aten.sub.Tensor": lambda dt: (lambda a, b: A.sub.Tensor(a, b), [_x(4, 1, dtype=dt), _x(1, 5, seed=1, dtype=dt)]),
    "aten.sub.Scalar": lambda dt: (lambda a: A.sub.Scalar(a, 1.5), [_x(2, 3, dtype=dt)]),
    "aten.mul.Tensor": lambda dt: (lambda a, b: A.mul.Tensor(a, b), [_x(2, 3, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.mul.Scalar": lambda dt: (lambda a: A.mul.Scalar(a, 3.0), [_x(2, 3, dtype=dt)]),
    "aten.div.Tensor": lambda dt: (
        lambda a, b: A.div.Tensor(a, b), [_x(2, 3, dtype=dt), _x(2, 3, seed=1, positive=True, dtype=dt)]),
    "aten.div.Scalar": lambda dt: (lambda a: A.div.Scalar(a, 4.0), [_x(2, 3, dtype=dt)]),
    "aten.rsub.Scalar": lambda dt: (lambda a: A.rsub.Scalar(a, 1.0, 2), [_x(2, 3, dtype=dt)]),
    "aten.rsub.Tensor": lambda dt: (lambda a, b: A.rsub.Tensor(a, b), [_x(2, 3, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.pow.Tensor_Scalar": lambda dt: (lambda a: A.pow.Tensor_Scalar(a, 3), [_x(2, 3, positive=True, dtype=dt)]),
    "aten.pow.Tensor_Tensor": lambda dt: (
        lambda a, b: A.pow.Tensor_Tensor(a, b), [_x(2, 3, positive=True, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.maximum.default": lambda dt: (
        lambda a, b: A.maximum.default(a, b), [_x(2, 3, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.minimum.default": lambda dt: (
        lambda a, b: A.minimum.default(a, b), [_x(2, 3, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.addmm.default": lambda dt: (
        lambda c, a, b: A.addmm.default(c, a, b, beta=0.5, alpha=2),
        [_x(3, 2, seed=2, dtype=dt), _x(3, 4, dtype=dt), _x(4, 2, seed=1, dtype=dt)]),
    "aten.mm.default": lambda dt: (lambda a, b: A.mm.default(a, b), [_x(3, 4, dtype=dt), _x(4, 2, seed=1, dtype=dt)]),
    "aten.bmm.default": lambda dt: (
        lambda a, b: A.bmm.default(a, b), [_x(2, 3, 4, dtype=dt), _x(2, 4, 5, seed=1, dtype=dt)]),
    "aten.convolution.default": lambda dt: (
        lambda x, w, b: A.convolution.default(x, w, b, [2, 1], [1, 0], [1, 1], False, [0, 0], 2),
        [_x(1, 4, 7, 6, dtype=dt), _x(4, 2, 3, 3, seed=1, dtype=dt), _x(4, seed=2, dtype=dt)]),
    "aten.max_pool2d.default": lambda dt: (
        lambda a: A.max_pool2d.default(a, [3, 3], [2, 2], [1, 1]), [_x(1, 2, 7, 7, dtype=dt)]),
    "aten.max_pool2d_with_indices.default": lambda dt: (
        lambda a: A.max_pool2d_with_indices.default(a, [2, 2])[0], [_x(1, 2, 6, 6, dtype=dt)]),
    "aten.avg_pool2d.default": lambda dt: (
        lambda a: A.avg_pool2d.default(a, [3, 3], [2, 2], [1, 1], True, False), [_x(1, 2, 7, 7, dtype=dt)]),
    "aten.mean.dim": lambda dt: (lambda a: A.mean.dim(a, [1], True), [_x(2, 3, 4, dtype=dt)]),
    "aten.mean.default": lambda dt: (lambda a: A.mean.default(a), [_x(2, 3, 4, dtype=dt)]),
    "aten.sum.dim_IntList": lambda dt: (lambda a: A.sum.dim_IntList(a, [-1]), [_x(2, 3, 4, dtype=dt)]),
    "aten.sum.default": lambda dt: (lambda a: A.sum.default(a), [_x(2, 3, 4, dtype=dt)]),
    "aten.amax.default": lambda dt: (lambda a: A.amax.default(a, [1]), [_x(2, 3, 4, dtype=dt)]),
    "aten.amin.default": lambda dt: (lambda a: A.amin.default(a, [0, 2], True), [_x(2, 3, 4, dtype=dt)]),
    "aten.permute.default": lambda dt: (lambda a: A.permute.default(a, [2, 0, 1]), [_x(2, 3, 4, dtype=dt)]),
    "aten.t.default": lambda dt: (lambda a: A.t.default(a), [_x(2, 3, dtype=dt)]),
    "aten.transpose.int": lambda dt: (lambda a: A.transpose.int(a, 0, -1), [_x(2, 3, 4, dtype=dt)]),
    "aten.expand.default": lambda dt: (lambda a: A.expand.default(a, [3, 4, 5]), [_x(4, 1, dtype=dt)]),
    "aten.unsqueeze.default": lambda dt: (lambda a: A.unsqueeze.default(a, -1), [_x(2, 3, dtype=dt)]),
    "aten.squeeze.dim": lambda dt: (lambda a: A.squeeze.dim(a, 1), [_x(2, 1, 3, dtype=dt)]),
    "aten.squeeze.dims": lambda dt: (lambda a: A.squeeze.dims(a, [0, 1, 3]), [_x(2, 1, 3, 1, dtype=dt)]),
    "aten.squeeze.default": lambda dt: (lambda a: A.squeeze.default(a), [_x(2, 1, 3, 1, dtype=dt)]),
    "aten.cat.default": lambda dt: (
        lambda a, b: A.cat.default([a, b], -1), [_x(2, 3, dtype=dt), _x(2, 5, seed=1, dtype=dt)]),
    "aten.split.Tensor": lambda dt: (lambda a: list(A.split.Tensor(a, 3, 0)), [_x(5, 2, dtype=dt)]),
    "aten.split_with_sizes.default": lambda dt: (
        lambda a: list(A.split_with_sizes.default(a, [1, 3], 1)), [_x(2, 4, dtype=dt)]),
    "aten.slice.Tensor": lambda dt: (lambda a: A.slice.Tensor(a, 1, 1, 5, 2), [_x(2, 6, dtype=dt)]),
    "aten.select.int": lambda dt: (lambda a: A.select.int(a, 1, -1), [_x(2, 3, 4, dtype=dt)]),
    "aten.as_strided.default": lambda dt: (
        # a view reading across rows (a GatherV2) and one that is the storage in order (a Reshape)
        lambda a: [A.as_strided.default(a, [3, 2], [1, 3], 1), A.as_strided.default(a, [2, 6], [6, 1])],
        [_x(4, 3, dtype=dt)]),
    "aten.embedding.default": lambda dt: (
        lambda w, i: A.embedding.default(w, i), [_x(10, 4, dtype=dt), torch.tensor([[1, 9, 0], [3, 3, 2]])]),
    "aten.index_select.default": lambda dt: (
        lambda a, i: A.index_select.default(a, 1, i), [_x(3, 5, dtype=dt), torch.tensor([4, 0])]),
    "aten.gather.default": lambda dt: (
        lambda a, i: A.gather.default(a, 1, i), [_x(3, 5, dtype=dt), torch.tensor([[4, 0], [1, 1], [2, 3]])]),
    "aten.where.self": lambda dt: (
        lambda a, b: A.where.self(A.gt.Scalar(a, 0.0), a, b), [_x(2, 3, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.logical_not.default": lambda dt: (
        lambda a: A.logical_not.default(A.gt.Scalar(a, 0.0)), [_x(2, 3, dtype=dt)]),
    "aten.leaky_relu.default": lambda dt: (lambda a: A.leaky_relu.default(a, 0.1), [_x(2, 3, dtype=dt)]),
    "aten.hardtanh.default": lambda dt: (lambda a: A.hardtanh.default(a, -0.5, 0.5), [_x(2, 3, dtype=dt)]),
    "aten.clamp.default": lambda dt: (lambda a: A.clamp.default(a, -0.5, 0.7), [_x(2, 3, dtype=dt)]),
    "aten.gelu.default": lambda dt: (
        lambda a: [A.gelu.default(a), A.gelu.default(a, approximate="tanh")], [_x(2, 5, dtype=dt)]),
    "aten.full.default": lambda dt: (
        lambda a: A.add.Tensor(a, A.full.default([2, 3], 1.5, dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.zeros.default": lambda dt: (lambda a: A.add.Tensor(a, A.zeros.default([3], dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.ones.default": lambda dt: (lambda a: A.add.Tensor(a, A.ones.default([1, 3], dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.scalar_tensor.default": lambda dt: (
        lambda a: A.mul.Tensor(a, A.scalar_tensor.default(2.5, dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.arange.default": lambda dt: (lambda a: A.add.Tensor(a, A.arange.default(3, dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.arange.start": lambda dt: (
        lambda a: A.add.Tensor(a, A.arange.start(1, 4, dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.arange.start_step": lambda dt: (
        lambda a: A.add.Tensor(a, A.arange.start_step(0, 6, 2, dtype=dt)), [_x(2, 3, dtype=dt)]),
    "aten.full_like.default": lambda dt: (lambda a: A.sub.Tensor(A.full_like.default(a, 2.0), a), [_x(2, 3, dtype=dt)]),
    "aten.zeros_like.default": lambda dt: (lambda a: A.sub.Tensor(A.zeros_like.default(a), a), [_x(2, 3, dtype=dt)]),
    "aten.ones_like.default": lambda dt: (lambda a: A.sub.Tensor(A.ones_like.default(a), a), [_x(2, 3, dtype=dt)]),
    # each part of dim 1, and of a size-1 dim (the Squeeze alone)
    "aten.unbind.int": lambda dt: (
        lambda a, b: [*A.unbind.int(a, 1), *A.unbind.int(b, -1)], [_x(2, 3, 4, dtype=dt), _x(3, 1, seed=1, dtype=dt)]),
    "aten.stack.default": lambda dt: (
        lambda a, b: [A.stack.default([a, b]), A.stack.default([a, b, a], -1)],
        [_x(2, 3, dtype=dt), _x(2, 3, seed=1, dtype=dt)]),
    "aten.flip.default": lambda dt: (
        lambda a: [A.flip.default(a, [0]), A.flip.default(a, [-1, 1])], [_x(4, 3, 5, dtype=dt)]),
    # a forward layer with biases, a reverse one without (weight2 / weight3 then repeat
    # weight0 / weight1, as torch's lstm passes them, and are not read): output, hy, cy
    "aten.mkldnn_rnn_layer.default": lambda dt: (
        lambda x, wi, wh, bi, bh, h, c: [
            *A.mkldnn_rnn_layer.default(x, wi, wh, bi, bh, h, c, False, [], 2, 5, 1, True, False, False, False)[:3],
            *A.mkldnn_rnn_layer.default(x, wi, wh, wi, wh, h, c, True, [], 2, 5, 1, False, True, False, False)[:3]],
        [_x(3, 2, 4, dtype=dt), _x(20, 4, seed=1, dtype=dt) * 0.5, _x(20, 5, seed=2, dtype=dt) * 0.5,
         _x(20, seed=3, dtype=dt), _x(20, seed=4, dtype=dt), _x(1, 2, 5, seed=5, dtype=dt),
         _x(1, 2, 5, seed=6, dtype=dt)]),
    # two bidirectional batch-first layers with biases; one time-major layer without
    "aten.lstm.input": lambda dt: _rnn_case(A.lstm.input, 4, dt),
    "aten.gru.input": lambda dt: _rnn_case(A.gru.input, 3, dt),
}  # fmt: skip


def _rnn_case(op, gates: int, dt):
    """DIRECT's case of aten.lstm.input / aten.gru.input (`gates` 4 / 3): every output of
    two calls, (input [B=2, T=3, I=4], 2 bidirectional layers, H = 5, biases, batch_first)
    and (input [T=3, B=2, I=4], 1 layer, no biases, time-major)."""
    lstm = gates == 4
    h = 5
    shapes = []
    for layer in range(2):
        for _ in range(2):
            shapes += [(gates * h, 4 if layer == 0 else 2 * h), (gates * h, h), (gates * h,), (gates * h,)]
    shapes += [(gates * h, 4), (gates * h, h)]
    params = [_x(*sh, seed=10 + k, dtype=dt) * 0.5 for k, sh in enumerate(shapes)]
    x1, x2 = _x(2, 3, 4, dtype=dt), _x(3, 2, 4, seed=1, dtype=dt)
    states = [_x(4, 2, h, seed=2, dtype=dt), _x(4, 2, h, seed=3, dtype=dt), _x(1, 2, h, seed=4, dtype=dt)]
    states += [_x(1, 2, h, seed=5, dtype=dt)]

    # written as an FX graph (one placeholder per tensor: symbolic_trace takes no *args)
    graph = torch.fx.Graph()
    x1n, x2n, h1, c1, h2, c2, *ps = [graph.placeholder(f"a{k}") for k in range(6 + len(params))]
    a = graph.call_function(op, (x1n, [h1, c1] if lstm else h1, ps[:16], True, 2, 0.0, False, True, True))
    b = graph.call_function(op, (x2n, [h2, c2] if lstm else h2, ps[16:], False, 1, 0.0, False, False, False))
    graph.output([graph.call_function(operator.getitem, (r, k)) for r in (a, b) for k in range(3 if lstm else 2)])
    return torch.fx.GraphModule(torch.nn.Module(), graph), [x1, x2, *states, *params]


# ops whose eager CPU kernel takes no float16 (nothing to compare with at that dtype)
NO_FLOAT16 = {"aten.mkldnn_rnn_layer.default": "oneDNN's CPU LSTM has no float16 primitive here"}


def _unary(name: str, positive: bool = False) -> Callable:
    f = getattr(A, name).default
    return lambda dt: (lambda a: f(a), [_x(2, 3, dtype=dt, positive=positive) * (1 if positive else 3)])


def _comparison(name: str, overload: str) -> Callable:
    f = getattr(getattr(A, name), overload)
    if overload == "Tensor":
        return lambda dt: (lambda a, b: f(a, b), [_x(2, 3, dtype=dt), _mixed(dt)])
    return lambda dt: (lambda a: f(a, 0.25), [_x(2, 3, dtype=dt)])


for _op in ("relu", "sigmoid", "tanh", "exp", "neg", "sin", "cos", "floor", "ceil", "hardswish", "hardsigmoid",
            "erf", "silu", "clone", "alias", "detach", "contiguous", "lift_fresh_copy"):  # fmt: skip
    DIRECT[f"aten.{_op}.default"] = _unary(_op)
for _op in ("reciprocal", "sqrt", "rsqrt", "log"):
    DIRECT[f"aten.{_op}.default"] = _unary(_op, positive=True)
for _cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
    for _overload in ("Tensor", "Scalar"):
        DIRECT[f"aten.{_cmp}.{_overload}"] = _comparison(_cmp, _overload)

# tolerance factors over DTYPES' (sums of products, normalisations)
LOOSE = {"aten.addmm.default": 10, "aten.mm.default": 10, "aten.bmm.default": 10, "aten.convolution.default": 20,
         "aten._scaled_dot_product_flash_attention_for_cpu.default": 10, "aten.native_layer_norm.default": 5,
         "aten._native_batch_norm_legit_no_training.default": 5, "aten.avg_pool2d.default": 5,
         "aten._adaptive_avg_pool2d.default": 5, "aten.adaptive_avg_pool2d.default": 5, "aten.mean.dim": 5,
         "aten.mean.default": 5, "aten.sum.dim_IntList": 5, "aten.sum.default": 10, "aten._softmax.default": 10,
         "aten.softmax.int": 10, "aten._log_softmax.default": 10, "aten.log_softmax.int": 10,
         "aten.pow.Tensor_Tensor": 5, "aten.gelu.default": 5, "aten.mkldnn_rnn_layer.default": 10, "aten.lstm.input": 10, "aten.gru.input": 10}  # fmt: skip


def _direct_module(op: str, dtype):
    """The FX graph of DIRECT[op] at `dtype`, its inputs: make_fx's (each node's
    meta['val'] a fake tensor), or, where make_fx decomposes the overload (a
    CompositeImplicit one such as softmax.int), torch.fx.symbolic_trace's, which keeps it as
    called, with FakeTensorProp's meta['val']."""
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    fn, inputs = DIRECT[op](dtype)
    gm = make_fx(fn, tracing_mode="fake")(*inputs)
    if op not in {str(n.target) for n in gm.graph.nodes if n.op == "call_function"}:
        gm = torch.fx.symbolic_trace(fn)
        FakeTensorProp(gm).propagate(*inputs)
    assert op in {str(n.target) for n in gm.graph.nodes if n.op == "call_function"}, gm.graph
    return gm, inputs


@pytest.mark.parametrize(("dtype", "tol"), DTYPES)
@pytest.mark.parametrize("op", sorted(DIRECT))
def test_converter_directly(op, dtype, tol):
    """Each converter on exactly its ATen overload, against eager torch running the same graph."""
    from importers.fx import import_graph_module

    if dtype == torch.float16 and op in NO_FLOAT16:
        pytest.skip(NO_FLOAT16[op])
    gm, inputs = _direct_module(op, dtype)
    module = import_graph_module(gm, None, "direct.py")
    with torch.no_grad():
        want = gm(*inputs)
    want = [want] if isinstance(want, torch.Tensor) else list(want)
    got = api.reference(module, [x.numpy() for x in inputs])
    assert len(got) == len(want)
    t = tol * LOOSE.get(op, 1)
    for g, w in zip(got, want, strict=True):
        w = w.numpy()
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=t, atol=t)


def test_every_converter_is_tested():
    """The converter table and the direct cases are the same set: a new converter needs a
    case (at float32 and float16, test_converter_directly's DTYPES), and a case names no op
    without a converter."""
    assert sorted(set(CONVERTERS) - set(DIRECT)) == []
    assert sorted(set(DIRECT) - set(CONVERTERS)) == []


def test_get_attr_tensor_constant_is_a_const():
    """A tensor the graph module holds (`get_attr`, as make_fx / AOTAutograd keep a traced
    constant) becomes a ge.Const with its values."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from importers.fx import import_graph_module

    c = torch.tensor([1.0, 2.0, 3.0])
    gm = make_fx(lambda x: x * c + 1.0)(_x(2, 3))
    assert any(n.op == "get_attr" for n in gm.graph.nodes)
    module = import_graph_module(gm, None, "k.py")
    x = _x(4, 3, seed=2)[:2]
    np.testing.assert_allclose(api.reference(module, [x.numpy()])[0], (x * c + 1.0).numpy(), rtol=1e-6)


def test_recurrent_refusals_are_one_line():
    """What the recurrent converters refuse, each one FxImportError line naming the ATen op:
    an LSTM projection (proj_size: a fifth parameter per layer), a training-mode layer
    (dropout between layers), and mkldnn_rnn_layer's own batch-first reading (torch's lstm
    transposes a batch-first input itself)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from importers.fx import import_graph_module

    x = _x(2, 3, 4)
    for m, what in [
        (torch.nn.LSTM(4, 5, proj_size=2).eval(), r"aten.lstm.input .*: 5 parameters for 1 layer\(s\) .*proj_size"),
        (torch.nn.GRU(4, 5, num_layers=2, dropout=0.5).train(), r"aten.gru.input .*: train = True is not supported"),
    ]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # export's note on nn.LSTM's _flat_weights
            program = torch.export.export(m, (x,))
        with pytest.raises(FxImportError, match=what):
            import_exported_program(program, "rnn.py")

    def layer(x, wi, wh, h, c):
        return A.mkldnn_rnn_layer.default(x, wi, wh, wi, wh, h, c, False, [], 2, 5, 1, False, False, True, False)[0]

    gm = make_fx(layer, tracing_mode="fake")(x, _x(20, 4), _x(20, 5), _x(1, 2, 5), _x(1, 2, 5))
    with pytest.raises(FxImportError, match=r"aten.mkldnn_rnn_layer.default .*: batch_first = True is not supported"):
        import_graph_module(gm, None, "layer.py")
