"""ONNX's LSTM, GRU and RNN through the importer (importers/onnx_rnn.py).

Models are built with onnx.helper over directions, shapes (T, B, I, H), opsets (11, 13:
the ops' version 7; 14, 17, 21: version 14 with `layout`), dtypes, and with and without
each optional input (B, sequence_lens, initial_h, initial_c, P) and output (Y, Y_h, Y_c):

* `test_matches_onnxruntime`: the reference interpreter on the imported module against
  onnxruntime on the model, same inputs;
* `test_layout_1`: layout = 1 (onnxruntime runs batch-major recurrences only as layout
  0): against onnxruntime on the layout-0 model with the inputs and outputs transposed;
* `test_ge_run`: ge-run on the model file (import, ge-compile, the simulator, compared
  with the reference and with onnxruntime), as a user runs it;
* `test_import`: the GE ops and the weight rearrangement of GE's fusion passes, the
  expected Consts computed here by hand from ONNX's gate layout;
* `test_refused`: each refused attribute or input is one located line.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h

from conftest import imported_compute_ops, run_cli
from conftest import make_onnx_model as make_model
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_tools import run as ge_run
from importers.onnx import OnnxImportError, import_model
from runtime.interpreter import run_module

GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
NP = {T.FLOAT: np.float32, T.FLOAT16: np.float16}


@dataclass
class Case:
    op: str
    t: int = 5
    b: int = 3
    i: int = 4
    hid: int = 6
    direction: str = "forward"
    bias: bool = True
    seq: list[int] | None = None  # sequence_lens as an initializer
    seq_input: bool = False  # sequence_lens as a graph input
    init: bool = False  # initial_h (and initial_c) as graph inputs
    init_const: bool = False  # ... as initializers
    only_h: bool = False  # LSTM: initial_h without initial_c
    peep: bool = False
    outs: tuple[str, ...] = ("Y", "Y_h", "Y_c")
    opset: int = 17
    elem: int = T.FLOAT
    layout: int = 0
    attrs: dict = field(default_factory=dict)

    @property
    def nd(self) -> int:
        return 2 if self.direction == "bidirectional" else 1

    @property
    def id(self) -> str:
        parts = [self.op, self.direction[:3], f"T{self.t}B{self.b}I{self.i}H{self.hid}", f"o{self.opset}"]
        for flag in ("bias", "init", "init_const", "only_h", "peep", "seq_input"):
            if getattr(self, flag) and flag != "bias":
                parts.append(flag)
        if not self.bias:
            parts.append("nobias")
        if self.seq is not None:
            parts.append("seq" + "".join(map(str, self.seq)))
        if self.elem == T.FLOAT16:
            parts.append("f16")
        if self.layout:
            parts.append("layout1")
        parts.append("-".join(o or "_" for o in self.outputs))
        parts += [f"{k}{v}" for k, v in self.attrs.items()]
        return "_".join(parts)

    @property
    def outputs(self) -> list[str]:
        n = 3 if self.op == "LSTM" else 2
        return [o if o in self.outs else "" for o in ("Y", "Y_h", "Y_c")[:n]]


def state_shape(c: Case) -> list[int]:
    return [c.b, c.nd, c.hid] if c.layout else [c.nd, c.b, c.hid]


def build(c: Case) -> onnx.ModelProto:
    rng = np.random.default_rng(7)
    g, nd, dt = GATES[c.op], c.nd, NP[c.elem]
    inits: dict[str, np.ndarray] = {
        "W": (0.5 * rng.standard_normal((nd, g * c.hid, c.i))).astype(dt),
        "R": (0.5 * rng.standard_normal((nd, g * c.hid, c.hid))).astype(dt),
    }
    inputs = [("x", c.elem, [c.b, c.t, c.i] if c.layout else [c.t, c.b, c.i])]
    names = ["x", "W", "R", "", "", "", "", ""]
    if c.bias:
        inits["B"] = (0.5 * rng.standard_normal((nd, 2 * g * c.hid))).astype(dt)
        names[3] = "B"
    if c.seq is not None:
        inits["sl"] = np.array(c.seq, np.int32)
        names[4] = "sl"
    if c.seq_input:
        inputs.append(("sl", T.INT32, [c.b]))
        names[4] = "sl"
    states = ["initial_h"] + (["initial_c"] if c.op == "LSTM" and not c.only_h else [])
    for k, s in zip((5, 6), states):
        if c.init:
            inputs.append((s, c.elem, state_shape(c)))
            names[k] = s
        elif c.init_const:
            inits[s] = rng.standard_normal(state_shape(c)).astype(dt)
            names[k] = s
    if c.peep:
        inits["P"] = (0.5 * rng.standard_normal((nd, 3 * c.hid))).astype(dt)
        names[7] = "P"
    while names[-1] == "":
        names.pop()
    attrs = {"hidden_size": c.hid, "direction": c.direction, **c.attrs}
    if c.layout:
        attrs["layout"] = 1
    outs = c.outputs
    while outs[-1] == "":
        outs.pop()
    node = h.make_node(c.op, names, outs, name="n", **attrs)
    return make_model([node], inputs, [o for o in outs if o], inits, c.opset)


def feeds(m: onnx.ModelProto, seed: int = 0, seq: list[int] | None = None) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    inits = {t.name for t in m.graph.initializer}
    out = {}
    for vi in m.graph.input:
        if vi.name in inits:
            continue
        shape = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        if vi.type.tensor_type.elem_type == T.INT32:
            out[vi.name] = np.array(seq if seq is not None else rng.integers(1, 6, shape), np.int32)
        else:
            out[vi.name] = rng.standard_normal(shape).astype(NP[vi.type.tensor_type.elem_type])
    return out


def ort_run(m: onnx.ModelProto, f: dict[str, np.ndarray]) -> list[np.ndarray]:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, f)


def close(got: list[np.ndarray], want: list[np.ndarray], elem: int) -> None:
    assert len(got) == len(want)
    rtol, atol = (1e-5, 1e-6) if elem == T.FLOAT else (1e-2, 1e-2)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol)


CASES: list[Case] = []
for op in ("LSTM", "GRU", "RNN"):
    for direction in ("forward", "reverse", "bidirectional"):
        CASES += [
            Case(op, direction=direction),
            Case(op, 7, 2, 3, 5, direction, seq=[7, 3], init=True),
            Case(op, 4, 4, 5, 3, direction, bias=False, init_const=True, outs=("Y_h",)),
            Case(op, 1, 1, 2, 2, direction, seq=[1], outs=("Y",)),
            Case(op, 6, 2, 3, 4, direction, seq_input=True, outs=("", "Y_h", "Y_c")),
        ]
    for opset in (11, 13, 14, 21):
        CASES.append(Case(op, 3, 2, 2, 3, "bidirectional", init=True, opset=opset))
    CASES.append(Case(op, 4, 2, 3, 5, "bidirectional", seq=[4, 2], elem=T.FLOAT16, init=True))
CASES += [
    Case("LSTM", 5, 2, 3, 4, "forward", peep=True),
    Case("LSTM", 5, 3, 3, 4, "bidirectional", peep=True, init=True, seq=[5, 1, 3]),
    Case("LSTM", 4, 2, 3, 4, "reverse", init=True, only_h=True),
    Case("LSTM", 4, 2, 3, 4, "forward", attrs={"activations": ["Sigmoid", "Tanh", "Tanh"]}),
    Case("GRU", 5, 3, 4, 6, "forward", attrs={"linear_before_reset": 1}),
    Case("GRU", 5, 3, 4, 6, "bidirectional", seq=[5, 2, 4], init=True, attrs={"linear_before_reset": 1}),
    Case("RNN", 4, 2, 3, 4, "bidirectional", attrs={"activations": ["Relu", "Sigmoid"]}),
    Case("RNN", 4, 2, 3, 4, "forward", attrs={"activations": ["Softsign"]}),
    Case("RNN", 4, 2, 3, 4, "reverse", attrs={"activations": ["Softplus"]}),
    Case(
        "RNN", 4, 2, 3, 4, "bidirectional", attrs={"activations": ["LeakyRelu", "Elu"], "activation_alpha": [0.2, 0.7]}
    ),
    Case(
        "RNN",
        4,
        2,
        3,
        4,
        "bidirectional",
        attrs={"activations": ["HardSigmoid", "LeakyRelu"], "activation_alpha": [0.3], "activation_beta": [0.4]},
    ),
    Case("RNN", 4, 2, 3, 4, "forward", attrs={"activations": ["HardSigmoid"]}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_matches_onnxruntime(case: Case) -> None:
    m = build(case)
    f = feeds(m)
    got = run_module(import_model(m, "m.onnx"), list(f.values()))
    close(got, ort_run(m, f), case.elem)


@pytest.mark.parametrize(
    "case",
    [
        Case(op, 5, 3, 4, 6, d, seq=[5, 2, 3], init=True, layout=1, opset=opset)
        for op in ("LSTM", "GRU", "RNN")
        for d, opset in (("forward", 14), ("bidirectional", 17), ("reverse", 21))
    ]
    + [Case(op, 4, 3, 2, 5, "bidirectional", init_const=True, layout=1, opset=18) for op in ("LSTM", "GRU", "RNN")],
    ids=lambda c: c.id,
)
def test_layout_1(case: Case) -> None:
    m1 = build(case)
    f1 = feeds(m1)
    got = run_module(import_model(m1, "m.onnx"), list(f1.values()))
    m0 = build(Case(**{**case.__dict__, "layout": 0}))
    for t0 in m0.graph.initializer:  # the same initial states, batch-major in m1
        if t0.name.startswith("initial_"):
            t0.CopyFrom(onnx.numpy_helper.from_array(numpy(m1, t0.name).transpose(1, 0, 2), t0.name))
    f0 = {k: v.transpose(1, 0, 2) for k, v in f1.items()}
    want = ort_run(m0, f0)
    want = [want[0].transpose(2, 0, 1, 3), *(w.transpose(1, 0, 2) for w in want[1:])]
    close(got, want, case.elem)


def ge_run_file(m: onnx.ModelProto, tmp_path: Path, *args: str) -> tuple[int, str]:
    path = tmp_path / "m.onnx"
    onnx.save(m, path)
    code, out, err = run_cli(ge_run.main, [str(path), *args])
    return code, out + err


@pytest.mark.parametrize(
    "case",
    [
        Case("LSTM", 6, 3, 5, 4, "bidirectional", seq=[6, 2, 4], init=True, peep=True),
        Case("LSTM", 5, 2, 3, 4, "reverse", init_const=True, opset=13),
        Case("GRU", 6, 3, 5, 4, "bidirectional", seq=[3, 6, 1], init=True),
        Case("GRU", 5, 2, 3, 4, "forward", attrs={"linear_before_reset": 1}, opset=21),
        Case("RNN", 5, 3, 4, 6, "bidirectional", seq=[5, 2, 3], init=True, opset=11),
        Case("LSTM", 4, 2, 3, 4, "forward", elem=T.FLOAT16, outs=("Y", "Y_h")),
    ],
    ids=lambda c: c.id,
)
@pytest.mark.parametrize("streams", ["1", "2"])
def test_ge_run(case: Case, streams: str, tmp_path: Path) -> None:
    code, out = ge_run_file(build(case), tmp_path, "--seed", "0", "--streams", streams)
    assert code == 0, out
    assert "outputs match the reference" in out
    assert "outputs match onnxruntime" in out


def consts(module, name: str) -> np.ndarray:
    (g,) = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    for op in g.body.block.ops:
        if isinstance(op, ge.Const) and op.results[0].name_hint == name:
            from runtime.reference import dense_value

            return dense_value(op, op.attributes["value"])  # type: ignore[arg-type]
    raise KeyError(name)


def test_import_lstm_bidirectional() -> None:
    """CommonLSTMFusionPass: two DynamicRNNs (UNIDIRECTIONAL, REDIRECTIONAL), w = [W^T; R^T]
    and b = Wb + Rb with ONNX's gate blocks i, o, f, c as GE's i, c, f, o; Y through
    ExpandDims + ConcatD(1), Y_h / Y_c through a slice per direction + ConcatD(0)."""
    c = Case("LSTM", 3, 2, 2, 2, "bidirectional")
    m = build(c)
    module = import_model(m, "m.onnx")
    ops = imported_compute_ops(module)
    rnns = [op for op in ops if isinstance(op, ge.DynamicRNN)]
    assert [A.get_str(op, "direction") for op in rnns] == ["UNIDIRECTIONAL", "REDIRECTIONAL"]
    assert sum(isinstance(op, ge.ExpandDims) for op in ops) == 2
    assert sum(isinstance(op, ge.StridedSliceV2) for op in ops) == 4
    assert [A.get_int(op, "concat_dim") for op in ops if isinstance(op, ge.ConcatD)] == [1, 0, 0]
    w, r, b = (numpy(m, n) for n in ("W", "R", "B"))
    hd = c.hid
    for d in range(2):
        # ONNX blocks 0..3 = i, o, f, c; GE's ijfo = blocks 0, 3, 2, 1
        order = [0, 3, 2, 1]
        want_w = np.concatenate(
            [np.concatenate([w[d, k * hd : (k + 1) * hd] for k in order]).T,
             np.concatenate([r[d, k * hd : (k + 1) * hd] for k in order]).T]
        )  # fmt: skip
        s = b[d, : 4 * hd] + b[d, 4 * hd :]
        want_b = np.concatenate([s[k * hd : (k + 1) * hd] for k in order])
        np.testing.assert_array_equal(consts(module, f"n_w{d}"), want_w)
        np.testing.assert_allclose(consts(module, f"n_b{d}"), want_b, rtol=1e-7)


def numpy(m: onnx.ModelProto, name: str) -> np.ndarray:
    (t,) = [t for t in m.graph.initializer if t.name == name]
    return onnx.numpy_helper.to_array(t)


def test_import_gru() -> None:
    """GRUFusionPass: DynamicGRUV2 with weight_input = W^T, weight_hidden = R^T, the bias
    halves; reset_after from linear_before_reset (0 here: beyond the pass's default true)."""
    for lbr in (0, 1):
        c = Case("GRU", 3, 2, 2, 3, "forward", attrs={"linear_before_reset": lbr})
        m = build(c)
        module = import_model(m, "m.onnx")
        (gru,) = [op for op in imported_compute_ops(module) if isinstance(op, ge.DynamicGRUV2)]
        assert A.get_bool(gru, "reset_after") is bool(lbr)
        assert A.get_str(gru, "direction") == "UNIDIRECTIONAL"
        np.testing.assert_array_equal(consts(module, "n_weight_input0"), numpy(m, "W")[0].T)
        np.testing.assert_array_equal(consts(module, "n_weight_hidden0"), numpy(m, "R")[0].T)
        np.testing.assert_array_equal(consts(module, "n_bias_hidden0"), numpy(m, "B")[0, 9:])


def test_gru_y_is_zero_past_sequence_end() -> None:
    """DynamicGRUV2's y keeps the state past a sequence's end; ONNX's Y (onnxruntime's) is 0
    there: the SelectV2 the importer adds (remove it and this fails)."""
    c = Case("GRU", 5, 2, 3, 4, "forward", seq=[2, 5], outs=("Y",))
    m = build(c)
    f = feeds(m)
    (y,) = run_module(import_model(m, "m.onnx"), list(f.values()))
    assert np.all(y[2:, :, 0] == 0) and np.any(y[2:, :, 1] != 0)
    close([y], ort_run(m, f), T.FLOAT)


def test_reverse_y_h_is_step_zero() -> None:
    """A reverse LSTM's final state is step 0 of the REDIRECTIONAL output_h (the passes
    slice step T - 1): Y_h equals Y[0]."""
    m = build(Case("LSTM", 4, 2, 3, 3, "reverse"))
    f = feeds(m)
    y, y_h, _ = run_module(import_model(m, "m.onnx"), list(f.values()))
    np.testing.assert_array_equal(y_h, y[0])
    assert not np.array_equal(y_h, y[-1])


REFUSED = [
    ("clip", Case("LSTM", attrs={"clip": 1.0}), "attribute clip = 1.0 is not supported"),
    ("gru_clip", Case("GRU", attrs={"clip": 2.0}), "attribute clip = 2.0 is not supported"),
    ("input_forget", Case("LSTM", attrs={"input_forget": 1}), "attribute input_forget = 1 is not supported"),
    (
        "lstm_act",
        Case("LSTM", attrs={"activations": ["Sigmoid", "Relu", "Tanh"]}),
        "activation 'Relu' where GE's DynamicRNN computes Tanh",
    ),
    (
        "gru_act",
        Case("GRU", attrs={"activations": ["HardSigmoid", "Tanh"]}),
        "activation 'HardSigmoid' where GE's DynamicGRUV2 computes Sigmoid",
    ),
    ("rnn_act", Case("RNN", attrs={"activations": ["ScaledTanh"]}), "activation 'ScaledTanh' has no ge op here"),
    ("rnn_act_case", Case("RNN", attrs={"activations": ["tanh"]}), "activation 'tanh' has no ge op here"),
    ("act_count", Case("RNN", direction="bidirectional", attrs={"activations": ["Tanh"]}), "takes 2 activations"),
]


@pytest.mark.parametrize(("tag", "case", "want"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused(tag: str, case: Case, want: str) -> None:
    with pytest.raises(OnnxImportError) as e:
        import_model(build(case), f"{tag}.onnx")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{tag}.onnx: node 'n' ({case.op}): error: "), msg
    assert want in msg, msg


def weights_as_inputs(m: onnx.ModelProto, names: set[str]) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """`m` with the initializers `names` made graph inputs, and their values as feeds."""
    out = onnx.ModelProto()
    out.CopyFrom(m)
    moved = {t.name: onnx.numpy_helper.to_array(t) for t in out.graph.initializer if t.name in names}
    keep = [t for t in out.graph.initializer if t.name not in names]
    del out.graph.initializer[:]
    out.graph.initializer.extend(keep)
    for n, a in moved.items():
        out.graph.input.append(h.make_tensor_value_info(n, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), a.shape))
    return out, moved


DATA_WEIGHT_CASES = [
    (Case("LSTM", 5, 3, 4, 6, "bidirectional", peep=True, init=True, seq=[5, 2, 4]), {"W", "R", "B", "P"}),
    (Case("LSTM", 4, 2, 3, 5, "forward"), {"W"}),
    (Case("LSTM", 4, 2, 3, 5, "reverse", bias=False), {"R"}),
    (Case("GRU", 5, 3, 4, 6, "bidirectional", init=True), {"W", "R", "B"}),
    (Case("GRU", 5, 2, 3, 4, "forward", attrs={"linear_before_reset": 1}), {"B"}),
    (Case("RNN", 4, 2, 3, 4, "bidirectional", seq=[4, 2]), {"W", "R", "B"}),
    (Case("RNN", 4, 2, 3, 4, "forward", layout=1), {"W", "B"}),
]


@pytest.mark.parametrize(
    ("case", "names"), DATA_WEIGHT_CASES, ids=[f"{c.id}-{'-'.join(sorted(n))}" for c, n in DATA_WEIGHT_CASES]
)
def test_weights_from_the_data_match_onnxruntime(case: Case, names: set[str]) -> None:
    # beyond GE's fusion passes (they rewrite Consts): weights that are graph inputs are
    # rearranged by GE ops in the graph (SplitD, Reshape, ConcatD, TransposeD, Add)
    from ge_tools import api

    m, values = weights_as_inputs(build(case), names)
    f = {**feeds(build(case)), **values}
    order = [vi.name for vi in m.graph.input]
    args = [f[n] for n in order]
    want = ort_run(m, dict(zip(order, args))) if not case.layout else None
    module = import_model(m, "m.onnx")
    ops = {o.name for g in module.ops for o in g.walk()}
    assert "ge.Reshape" in ops  # the weights' rearrangement is in the graph
    got_ref = run_module(module, args)
    if want is None:  # layout 1: against the same model with the weights as initializers
        want = run_module(import_model(build(case), "m.onnx"), list(feeds(build(case)).values()))
    close(got_ref, want, case.elem)
    close(api.simulate(module, args).outputs, want, case.elem)


def test_double_is_refused() -> None:
    node = h.make_node("GRU", ["x", "W", "R"], ["Y"], name="n", hidden_size=2)
    m = make_model(
        [node],
        [("x", T.DOUBLE, [3, 1, 2])],
        ["Y"],
        {"W": np.zeros((1, 6, 2)), "R": np.zeros((1, 6, 2))},
    )
    with pytest.raises(OnnxImportError, match=r"node 'n' \(GRU\): error: dtype double is not supported"):
        import_model(m, "m.onnx")


def test_import_is_deterministic() -> None:
    """The same model imports to byte-identical text."""
    from xdsl.printer import Printer

    texts = []
    for _ in range(2):
        out = io.StringIO()
        Printer(stream=out).print_op(import_model(build(Case("LSTM", 4, 2, 3, 3, "bidirectional", seq=[4, 2], init=True, peep=True)), "m.onnx"))  # fmt: skip
        texts.append(out.getvalue())
    assert texts[0] == texts[1] and "ge.DynamicRNN" in texts[0]


@pytest.mark.parametrize("op", ["LSTM", "GRU"])
def test_error_bounds_judge_every_element_after_a_matmul(op: str, tmp_path: Path) -> None:
    """x comes from a MatMul (which carries an accumulation-order bound): the recurrent op's
    error-bound rule (runtime/error_bound.py) keeps every output element judged (without
    it they are unbounded)."""
    import json

    rng = np.random.default_rng(0)
    g = GATES[op]
    nodes = [
        h.make_node("MatMul", ["x", "Wm"], ["xm"]),
        h.make_node(op, ["xm", "W", "R", "B"], ["Y", "Y_h"], hidden_size=8, direction="bidirectional", name="n"),
    ]
    inits = {
        "Wm": (0.3 * rng.standard_normal((16, 5))).astype(np.float32),
        "W": (0.5 * rng.standard_normal((2, g * 8, 5))).astype(np.float32),
        "R": (0.5 * rng.standard_normal((2, g * 8, 8))).astype(np.float32),
        "B": (0.5 * rng.standard_normal((2, 2 * g * 8))).astype(np.float32),
    }
    m = make_model(nodes, [("x", T.FLOAT, [6, 2, 16])], ["Y", "Y_h"], inits, 17)
    stats = tmp_path / "s.json"
    code, out = ge_run_file(m, tmp_path, "--seed", "1", "--stats-json", str(stats))
    assert code == 0 and "outputs match onnxruntime" in out, out
    s = json.loads(stats.read_text())
    assert s["unbounded_elements"] == 0 and s["mismatch_count"] == 0


def _onnx_node_cases() -> list:
    """ONNX's node test cases of the three ops. Importing a case module runs its exports
    (onnx/backend/test/case/base.py: _Exporter), which append to the package's list; only
    lstm.py, gru.py and rnn.py are imported (collect_testcases computes all 1,300 cases'
    expected outputs first: 20 s of each test worker's collection)."""
    import importlib
    import warnings

    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for module in ("lstm", "gru", "rnn"):
            importlib.import_module(f"{node_cases.__name__}.{module}")
    cases = node_cases._NodeTestCases  # what collect_testcases returns, filled by the imports
    return [c for c in cases if any(n.op_type in GATES for n in c.model.graph.node)]


@pytest.mark.parametrize("case", _onnx_node_cases(), ids=lambda c: c.name)
def test_onnx_node_tests(case) -> None:  # noqa: ANN001
    """ONNX's own node tests of LSTM, GRU and RNN against their expected outputs, through the
    reference and through ge-compile and the simulator. This onnx stamps them opset 22,
    whose versions of the three ops only add bfloat16 to their types: restamped 21. Their
    W, R, B (and P) are graph inputs fed as data (onnx 1.17's data runs them so in
    test_onnx_node_corpus.py): here initializers, as in a real model, whose rearrangement
    GE's fusion passes do at compile time (WEIGHT_INPUTS)."""
    from ge_tools import api
    from importers.onnx_rnn import WEIGHT_INPUTS

    m = onnx.ModelProto()
    m.CopyFrom(case.model)
    assert m.opset_import[0].version == 22
    m.opset_import[0].version = 21
    node = m.graph.node[0]
    static = {node.input[i] for i in WEIGHT_INPUTS[node.op_type] if i < len(node.input) and node.input[i]}
    for inputs, outputs in case.data_sets:
        mm = onnx.ModelProto()
        mm.CopyFrom(m)
        keep, feeds = [], []
        for vi, a in zip(list(mm.graph.input), inputs):
            if vi.name in static:
                mm.graph.initializer.append(onnx.numpy_helper.from_array(np.asarray(a), vi.name))
            else:
                keep.append(vi)
                feeds.append(np.asarray(a))
        del mm.graph.input[:]
        mm.graph.input.extend(keep)
        module = import_model(mm, f"{case.name}.onnx")
        for got in (run_module(module, feeds), api.simulate(module, feeds).outputs):
            assert len(got) == len(outputs)
            for g, w in zip(got, outputs):
                assert g.shape == w.shape and g.dtype == w.dtype
                np.testing.assert_allclose(g, w, rtol=case.rtol, atol=case.atol)
