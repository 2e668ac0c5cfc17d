"""GE's recurrent ops as library kernels on the simulator: ge.DynamicRNN and ge.DynamicGRUV2
written as ge IR with the attributes ONNX never sets (forget_bias, cell_clip, gate_order
ifjo / rzh, reset_after, peepholes, REDIRECTIONAL, seq_length), compiled by ge-compile
(one kernel task per node, its outputs planned in the feature map) and run on the
simulator with its memory checks, against a float64 step-by-step numpy model of the ops'
equations written here from the TBE kernels (tbe/impl/dynamic_rnn.py, dynamic_gru_v2.py),
independently of runtime/reference.py; and their verifiers."""

from __future__ import annotations

import numpy as np
import pytest

from ge_tools import api

T_, B_, I_, H_ = 5, 3, 4, 6


def sig(z: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-z))


def lstm_model(x, w, b, seq, h0, c0, peep, *, gate_order="ijfo", forget_bias=0.0, cell_clip=-1.0, reverse=False):
    """Per step, in float64: the gates one by one from [x_t, h] @ w + b."""
    t_size, b_size, i_size = x.shape
    hid = b.shape[0] // 4
    h = np.zeros((b_size, hid)) if h0 is None else h0[0].astype(np.float64)
    c = np.zeros((b_size, hid)) if c0 is None else c0[0].astype(np.float64)
    names = "ijfo" if gate_order == "ijfo" else "ifjo"
    ys, hs, cs = (np.zeros((t_size, b_size, hid)) for _ in range(3))
    for t in reversed(range(t_size)) if reverse else range(t_size):
        g = np.concatenate([x[t], h], axis=1).astype(np.float64) @ w.astype(np.float64) + b
        blk = {n: g[:, k * hid : (k + 1) * hid] for k, n in enumerate(names)}
        wci, wcf, wco = (np.zeros(hid),) * 3 if peep is None else peep
        i = sig(blk["i"] + wci * c)
        f = sig(blk["f"] + forget_bias + wcf * c)
        cn = f * c + i * np.tanh(blk["j"])
        if cell_clip > 0:
            cn = np.minimum(cn, cell_clip)
        hn = sig(blk["o"] + wco * cn) * np.tanh(cn)
        m = np.ones((b_size, 1), bool) if seq is None else (t < seq)[:, None]
        ys[t] = np.where(m, hn, 0)
        c, h = np.where(m, cn, c), np.where(m, hn, h)
        hs[t], cs[t] = h, c
    return ys, hs, cs


def gru_model(x, wi, wh, bi, bh, seq, h0, *, gate_order="zrh", reset_after=True, reverse=False):
    t_size, b_size, _ = x.shape
    hid = wh.shape[0]
    h = np.zeros((b_size, hid)) if h0 is None else h0[0].astype(np.float64)
    names = "zrn" if gate_order == "zrh" else "rzn"
    ys = np.zeros((t_size, b_size, hid))
    for t in reversed(range(t_size)) if reverse else range(t_size):
        gx = x[t].astype(np.float64) @ wi + bi
        bx = {n: gx[:, k * hid : (k + 1) * hid] for k, n in enumerate(names)}
        wb = {n: (wh[:, k * hid : (k + 1) * hid], bh[k * hid : (k + 1) * hid]) for k, n in enumerate(names)}
        z = sig(bx["z"] + h @ wb["z"][0] + wb["z"][1])
        r = sig(bx["r"] + h @ wb["r"][0] + wb["r"][1])
        if reset_after:
            n = np.tanh(bx["n"] + r * (h @ wb["n"][0] + wb["n"][1]))
        else:
            n = np.tanh(bx["n"] + (r * h) @ wb["n"][0] + wb["n"][1])
        hn = z * h + (1 - z) * n
        if seq is not None:
            hn = np.where((t < seq)[:, None], hn, h)
        ys[t] = h = hn
    return ys


def ty(shape: tuple[int, ...], dt: str = "f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dt}>"


def graph(op: str, ins: list[tuple[str, tuple[int, ...], str]], n_out: int, attrs: str, outs: list[int]) -> str:
    """A graph of Data inputs `ins` (name, shape, dtype) -> one `op` node -> NetOutput of
    its outputs `outs`."""
    lines = ["ge.graph @main attributes {_single_op_scene = false} {"]
    for k, (n, s, dt) in enumerate(ins):
        lines.append(f"  %{n} = ge.Data {{index = {k}}} : {ty(s, dt)}")
    out_t = ty((T_, B_, H_))
    res = ", ".join(f"%r{k}" for k in range(n_out))
    args = ", ".join(f"%{n}" for n, _, _ in ins)
    in_ts = ", ".join(ty(s, dt) for _, s, dt in ins)
    lines.append(f"  {res} = ge.{op}({args}) {{{attrs}}} : ({in_ts}) -> ({', '.join([out_t] * n_out)})")
    lines.append(f"  ge.NetOutput {', '.join(f'%r{k}' for k in outs)} : {', '.join([out_t] * len(outs))}")
    lines.append("}")
    return "\n".join(lines)


def rand(rng: np.random.Generator, *shape: int, scale: float = 0.5) -> np.ndarray:
    return (scale * rng.standard_normal(shape)).astype(np.float32)


LSTM_CASES = [
    dict(),
    dict(forget_bias=1.0),
    dict(cell_clip=0.3, states=True),
    dict(gate_order="ifjo", reverse=True, seq=True),
    dict(peep=True, states=True, seq=True, reverse=True),
    dict(peep=True, states=True, forget_bias=-0.5, cell_clip=0.5),
]


@pytest.mark.parametrize("case", LSTM_CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()) or "plain")
def test_dynamic_rnn_kernel(case: dict) -> None:
    rng = np.random.default_rng(3)
    x, w, b = rand(rng, T_, B_, I_, scale=1.0), rand(rng, I_ + H_, 4 * H_), rand(rng, 4 * H_)
    ins = [("x", (T_, B_, I_), "f32"), ("w", (I_ + H_, 4 * H_), "f32"), ("b", (4 * H_,), "f32")]
    arrays = [x, w, b]
    seq = h0 = c0 = peep = None
    if case.get("seq"):
        seq = np.array([5, 2, 4], np.int32)
        ins.append(("seq", (B_,), "i32"))
        arrays.append(seq)
    if case.get("states"):
        h0, c0 = rand(rng, 1, B_, H_, scale=1.0), rand(rng, 1, B_, H_, scale=1.0)
        ins += [("h0", (1, B_, H_), "f32"), ("c0", (1, B_, H_), "f32")]
        arrays += [h0, c0]
    if case.get("peep"):
        peep = [rand(rng, H_) for _ in range(3)]
        ins += [(n, (H_,), "f32") for n in ("wci", "wcf", "wco")]
        arrays += peep
    reverse = case.get("reverse", False)
    attrs = [f'direction = "{"REDIRECTIONAL" if reverse else "UNIDIRECTIONAL"}"']
    attrs.append(f'gate_order = "{case.get("gate_order", "ijfo")}"')
    attrs.append(f"forget_bias = {case.get('forget_bias', 0.0)} : f32")
    attrs.append(f"cell_clip = {case.get('cell_clip', -1.0)} : f32")
    if peep is not None:
        attrs.append("use_peephole = true")
    module = api.parse_module(graph("DynamicRNN", ins, 8, ", ".join(attrs), [0, 1, 2]), "rnn.mlir")
    res = api.simulate(module, arrays)
    assert res.stats["kernels"] == 1
    want = lstm_model(
        x, w, b, seq, h0, c0, peep,
        gate_order=case.get("gate_order", "ijfo"), forget_bias=case.get("forget_bias", 0.0),
        cell_clip=case.get("cell_clip", -1.0), reverse=reverse,
    )  # fmt: skip
    for got, ref, exp in zip(res.outputs, api.reference(module, arrays), want):
        np.testing.assert_array_equal(got, ref)  # the kernel is the reference's
        np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-6)
    if case.get("cell_clip", -1.0) > 0:
        assert res.outputs[2].max() <= case["cell_clip"] + 1e-7


GRU_CASES = [
    dict(),
    dict(reset_after=False),
    dict(gate_order="rzh", states=True),
    dict(reverse=True, seq=True, states=True, reset_after=False),
]


@pytest.mark.parametrize("case", GRU_CASES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()) or "plain")
def test_dynamic_gru_v2_kernel(case: dict) -> None:
    rng = np.random.default_rng(5)
    x, wi, wh = rand(rng, T_, B_, I_, scale=1.0), rand(rng, I_, 3 * H_), rand(rng, H_, 3 * H_)
    bi, bh = rand(rng, 3 * H_), rand(rng, 3 * H_)
    ins = [
        ("x", (T_, B_, I_), "f32"), ("wi", (I_, 3 * H_), "f32"), ("wh", (H_, 3 * H_), "f32"),
        ("bi", (3 * H_,), "f32"), ("bh", (3 * H_,), "f32"),
    ]  # fmt: skip
    arrays = [x, wi, wh, bi, bh]
    seq = h0 = None
    if case.get("seq"):
        seq = np.array([1, 5, 3], np.int32)
        ins.append(("seq", (B_,), "i32"))
        arrays.append(seq)
    if case.get("states"):
        h0 = rand(rng, 1, B_, H_, scale=1.0)
        ins.append(("h0", (1, B_, H_), "f32"))
        arrays.append(h0)
    reverse = case.get("reverse", False)
    reset_after = case.get("reset_after", True)
    attrs = (
        f'direction = "{"REDIRECTIONAL" if reverse else "UNIDIRECTIONAL"}", '
        f'gate_order = "{case.get("gate_order", "zrh")}", reset_after = {str(reset_after).lower()}'
    )
    module = api.parse_module(graph("DynamicGRUV2", ins, 6, attrs, [0, 1]), "gru.mlir")
    res = api.simulate(module, arrays)
    assert res.stats["kernels"] == 1
    want = gru_model(
        x, wi, wh, bi, bh, seq, h0, gate_order=case.get("gate_order", "zrh"), reset_after=reset_after, reverse=reverse
    )
    for got in res.outputs:  # y and output_h: the state after each step (kept past seq_length)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_float16_computes_in_float32() -> None:
    """f16 inputs and outputs, the gates in float32: within f16's rounding of the float64 model."""
    rng = np.random.default_rng(9)
    x, w, b = rand(rng, T_, B_, I_, scale=1.0), rand(rng, I_ + H_, 4 * H_), rand(rng, 4 * H_)
    ins = [("x", (T_, B_, I_), "f16"), ("w", (I_ + H_, 4 * H_), "f16"), ("b", (4 * H_,), "f16")]
    text = graph("DynamicRNN", ins, 8, "", [0]).replace(f"{ty((T_, B_, H_))}", f"{ty((T_, B_, H_), 'f16')}")
    module = api.parse_module(text, "f16.mlir")
    arrays = [a.astype(np.float16) for a in (x, w, b)]
    (y,) = api.simulate(module, arrays).outputs
    assert y.dtype == np.float16
    (want, _, _) = lstm_model(*(a.astype(np.float64) for a in arrays), None, None, None, None)
    np.testing.assert_allclose(y.astype(np.float64), want, rtol=2e-3, atol=2e-3)


BAD = [
    ("w [9, 24]", "DynamicRNN", [("x", (T_, B_, I_), "f32"), ("w", (9, 24), "f32"), ("b", (24,), "f32")], 8, "",
     "DynamicRNN w has shape 9x24, expected 10x24"),
    ("init_h alone", "DynamicRNN",
     [("x", (T_, B_, I_), "f32"), ("w", (10, 24), "f32"), ("b", (24,), "f32"), ("h0", (1, B_, H_), "f32")], 8, "",
     "takes init_h and init_c together"),
    ("direction", "DynamicRNN", [("x", (T_, B_, I_), "f32"), ("w", (10, 24), "f32"), ("b", (24,), "f32")], 8,
     'direction = "BIDIRECTIONAL"', "direction must be one of UNIDIRECTIONAL, REDIRECTIONAL"),
    ("int64 seq", "DynamicGRUV2",
     [("x", (T_, B_, I_), "f32"), ("wi", (I_, 18), "f32"), ("wh", (H_, 18), "f32"), ("bi", (18,), "f32"),
      ("bh", (18,), "f32"), ("s", (B_,), "i64")], 6, "", "DynamicGRUV2 seq_length must be int32, got DT_INT64"),
    ("activation", "DynamicGRUV2",
     [("x", (T_, B_, I_), "f32"), ("wi", (I_, 18), "f32"), ("wh", (H_, 18), "f32"), ("bi", (18,), "f32"),
      ("bh", (18,), "f32")], 6, 'activation = "relu"', "supports activation 'tanh' only"),
    ("outputs", "DynamicGRUV2",
     [("x", (T_, B_, I_), "f32"), ("wi", (I_, 18), "f32"), ("wh", (H_, 18), "f32"), ("bi", (18,), "f32"),
      ("bh", (18,), "f32")], 5, "", "takes 6 outputs, got 5"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "op", "ins", "n_out", "attrs", "want"), BAD, ids=[b[0] for b in BAD])
def test_verifier(what: str, op: str, ins: list, n_out: int, attrs: str, want: str) -> None:
    with pytest.raises(Exception) as e:
        api.parse_module(graph(op, ins, n_out, attrs, [0]), "bad.mlir")
    assert want in str(e.value)


ERROR_CASES = [
    ("DynamicRNN", ""),
    ("DynamicRNN", 'direction = "REDIRECTIONAL", gate_order = "ifjo", forget_bias = 1.0 : f32'),
    ("DynamicRNN", "use_peephole = true, cell_clip = 0.4 : f32"),
    ("DynamicGRUV2", ""),
    ("DynamicGRUV2", 'reset_after = false, direction = "REDIRECTIONAL"'),
    ("DynamicGRUV2", 'gate_order = "rzh"'),
]


def rnn_inputs(op: str, peep: bool, rng: np.random.Generator) -> tuple[list, list[np.ndarray]]:
    if op == "DynamicRNN":
        ins = [("x", (T_, B_, I_), "f32"), ("w", (I_ + H_, 4 * H_), "f32"), ("b", (4 * H_,), "f32")]
    else:
        ins = [("x", (T_, B_, I_), "f32"), ("wi", (I_, 3 * H_), "f32"), ("wh", (H_, 3 * H_), "f32"),
               ("bi", (3 * H_,), "f32"), ("bh", (3 * H_,), "f32")]  # fmt: skip
    ins.append(("seq", (B_,), "i32"))
    ins += [("h0", (1, B_, H_), "f32")] + ([("c0", (1, B_, H_), "f32")] if op == "DynamicRNN" else [])
    if peep:
        ins += [(n, (H_,), "f32") for n in ("wci", "wcf", "wco")]
    arrays = [np.array([5, 2, 4], np.int32) if dt == "i32" else rand(rng, *s, scale=0.8) for _, s, dt in ins]
    return ins, arrays


@pytest.mark.parametrize(("op", "attrs"), ERROR_CASES, ids=[f"{o}-{a}" for o, a in ERROR_CASES])
def test_error_bound_holds_on_perturbed_inputs(op: str, attrs: str) -> None:
    """runtime/error_bound.py's rule: finite, and every output of the op on inputs moved
    anywhere within their bounds (the corners and random points) lies within it of the
    reference's (each float input carries a bound of 1e-3 relative plus 1e-4)."""
    from ge_dialect import ge
    from runtime import error_bound as EB
    from runtime.interpreter import ge_interpreter

    rng = np.random.default_rng(11)
    ins, arrays = rnn_inputs(op, "use_peephole" in attrs, rng)
    n_out = 8 if op == "DynamicRNN" else 6
    module = api.parse_module(graph(op, ins, n_out, attrs, [0]), "eb.mlir")
    (node,) = [o for o in module.walk() if isinstance(o, ge.RecurrentBase)]
    ip = ge_interpreter()
    outs = list(ip.run_node(node, arrays))
    bounds = [np.zeros(a.shape) if a.dtype == np.int32 else 1e-3 * np.abs(a) + 1e-4 for a in arrays]
    rule = EB.bound_rule_of(type(node))
    assert rule is not None
    eb = rule(ip, node, arrays, bounds, outs)
    for e in eb:
        assert np.isfinite(e).all() and e.max() < 0.5
    for trial in range(12):
        sign = [rng.choice([-1.0, 1.0], a.shape) if trial < 6 else rng.uniform(-1, 1, a.shape) for a in arrays]
        moved = [a if a.dtype == np.int32 else (a + s * b).astype(np.float32) for a, s, b in zip(arrays, sign, bounds)]
        for got, ref, e in zip(ip.run_node(node, moved), outs, eb):
            assert (np.abs(got.astype(np.float64) - ref) <= e).all(), (trial, float(np.max(np.abs(got - ref) - e)))


def test_an_error_in_seq_length_is_unbounded() -> None:
    from ge_dialect import ge
    from runtime import error_bound as EB
    from runtime.interpreter import ge_interpreter

    ins, arrays = rnn_inputs("DynamicGRUV2", False, np.random.default_rng(0))
    module = api.parse_module(graph("DynamicGRUV2", ins, 6, "", [0]), "eb.mlir")
    (node,) = [o for o in module.walk() if isinstance(o, ge.RecurrentBase)]
    ip = ge_interpreter()
    outs = list(ip.run_node(node, arrays))
    bounds = [np.ones(a.shape) if a.dtype == np.int32 else np.zeros(a.shape) for a in arrays]
    eb = EB.bound_rule_of(ge.DynamicGRUV2)(ip, node, arrays, bounds, outs)  # type: ignore[misc]
    assert all(np.isinf(e).all() for e in eb)
