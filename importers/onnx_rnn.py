"""ONNX's recurrent ops, LSTM, GRU and RNN, as GE imports them.

CANN's ONNX plugins make LSTM a CommonLSTM and GRU a CommonGRU node
(ops/built-in/framework/onnx_plugin/lstm_plugin.cc, gru_plugin.cc; today's hicann/ops-nn
common/src/framework/lstm_onnx_plugin.cpp, gru_onnx_plugin.cpp register opsets 8 to 18;
they keep `hidden_size` and `direction`), and the fusion passes replace each by GE's recurrent
kernel, one per direction, with the weights rearranged at compile time
(ops/built-in/fusion_pass/graph_fusion/ai_core/common_lstm_fusion_pass.cc:
CommonLSTMFusionPass::Fusion -> DynamicRNN; gru_fusion_pass.cc: GRUFusionPass::Fusion ->
DynamicGRUV2). The importer writes what those passes leave, the weights rearranged here
into Consts:

* LSTM -> DynamicRNN(x, w, b [, seq_length] [, init_h, init_c [, wci, wcf, wco]]):
  w = [W^T; R^T] [I + H, 4H] and b = Wb + Rb with ONNX's gate blocks i, o, f, c swapped
  to GE's i, j (= c), f, o (SetWeightTensorData / SetBiasTensorData: "swap 1, 3"), a zero
  b when ONNX has none;
* GRU -> DynamicGRUV2(x, weight_input, weight_hidden, bias_input, bias_hidden
  [, seq_length] [, init_h]): W^T [I, 3H], R^T [H, 3H] (AddTransposNode, perm 0, 2, 1),
  B split in halves (AddBiasSplitNode), the gate order zrh kept;
* Y is each direction's y [T, B, H] through ExpandDims(axis 1), the two directions'
  joined by ConcatD(concat_dim 1) (AddExpandDimsConcatNode); Y_h (and Y_c) is one time
  step of output_h (output_c) through a slice, the two directions joined by
  ConcatD(concat_dim 0) (AddSliceConcatNode); a bidirectional node's initial states are
  split per direction (SetInitHCTensorData for Consts, else a Split node);
* sequence_lens goes to seq_length unchanged.

Where this goes beyond the passes, to give ONNX's numbers (onnxruntime's):

* Y_h / Y_c of the reverse direction is step 0 of output_h / output_c: the
  REDIRECTIONAL kernel writes step t at index t (tbe/impl/dynamic_rnn.py), so its final
  state is at index 0, where the passes slice index T - 1 for both directions;
* GRU's linear_before_reset sets DynamicGRUV2's reset_after (GRUFusionPass leaves the
  proto's default true, ONNX's linear_before_reset = 1, whatever the model says);
* GRU with sequence_lens: DynamicGRUV2's y keeps the carried state after a sequence's
  end (dynamic_gru_v2.py: update_y_gm is update_h after the mask), ONNX's Y is 0 there: a
  Less of the step index and sequence_lens selects 0 (SelectV2);
* LSTM's P (peepholes) becomes DynamicRNN's wci / wcf / wco with use_peephole (the
  proto's inputs; CommonLSTMFusionPass drops P);
* layout = 1 (opset 14's batch-major tensors) is TransposeD around the time-major op;
* RNN has no CANN plugin: it is imported as the sequence of GE ops its equations are, one
  MatMul for the input projection of all steps and, per step, a MatMul, an Add and the
  activation (unrolled over the static T), with SelectV2 for sequence_lens.

Refused, each one line naming the node and the attribute: clip (DynamicRNN's cell_clip
bounds the cell state from above, not the gates' inputs, and the passes drop clip),
LSTM's input_forget = 1, activations other than the defaults (LSTM, GRU: GE's kernels
compute sigmoid and tanh only) or than those the ge dialect has an op for (RNN: not
ThresholdedRelu, ScaledTanh, Affine), dtypes other than float16 / float32 (the kernels'
TensorType).

Weights that are not constants (graph inputs, as ONNX's node tests feed them) go beyond
the passes, which rewrite Consts at compile time (MutableWeights): the same rearrangement
is written as GE ops in the graph (per direction SplitD and Reshape, the gate blocks by
SplitD and ConcatD, TransposeD, the two biases' Add).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from ge_dialect import ge
from importers.onnx import _T, _bool, _f32, _int, _ints, _NodeCtx, converts

_DIRECTIONS = {"forward": 1, "reverse": 1, "bidirectional": 2}

# The weights the fusion passes rewrite at compile time (CommonLSTMFusionPass::
# ProcessLSTMWxh / ProcessLSTMBias read Consts with OpDescUtils::MutableWeights): inputs
# by position. A weight that is no constant (a graph input, as ONNX's node tests feed
# them) is rearranged by GE ops in the graph instead (_Recurrent.piece): beyond the passes,
# which need Consts.
WEIGHT_INPUTS: dict[str, dict[int, str]] = {
    "LSTM": {1: "W", 2: "R", 3: "B", 7: "P"},
    "GRU": {1: "W", 2: "R", 3: "B"},
    "RNN": {1: "W", 2: "R", 3: "B"},
}
# ONNX's default activations per direction (LSTM: f, g, h; GRU: f, g; RNN: f)
_DEFAULT_ACTS = {"LSTM": ("Sigmoid", "Tanh", "Tanh"), "GRU": ("Sigmoid", "Tanh"), "RNN": ("Tanh",)}


class _Recurrent:
    """One LSTM / GRU / RNN node: its attributes checked, the layout handled, the states
    per direction and the outputs assembled (the parts the three converters share)."""

    def __init__(self, ctx: _NodeCtx, gates: int):
        self.ctx = ctx
        self.elem = ctx.elem(0)
        if self.elem not in (_T.FLOAT, _T.FLOAT16):
            raise ctx.error(
                f"dtype {_T.DataType.Name(self.elem).lower()} is not supported: GE's {self.ge_name()} takes "
                "float16 and float32 (rnn.h)"
            )
        direction = ctx.attr_str("direction", "forward")
        if direction not in _DIRECTIONS:
            raise ctx.unsupported_attr("direction", f"'{direction}'", "ONNX's are forward, reverse and bidirectional")
        self.direction = direction
        self.nd = _DIRECTIONS[direction]
        self.layout = ctx.attr_int("layout", 0)
        if self.layout not in (0, 1):
            raise ctx.unsupported_attr("layout", self.layout, "ONNX's layouts are 0 and 1")
        if ctx.attr("clip") is not None:
            raise ctx.unsupported_attr(
                "clip",
                ctx.attr_float("clip", 0.0),
                f"ONNX's clip bounds the gates' inputs; GE's {self.ge_name()} has only cell_clip, which bounds the "
                "cell state from above (tbe/impl/dynamic_rnn.py), and the fusion passes drop clip",
            )
        self.check_activations()
        self.split_cache: dict[int, list[SSAValue]] = {}
        w = self.weight(1, "W")
        r = self.weight(2, "R")
        wd, rd = ctx.dims(1), ctx.dims(2)
        self.gates = gates
        self.hidden = rd[-1] if len(rd) == 3 else 0
        if len(wd) != 3 or len(rd) != 3 or wd[0] != self.nd or rd != (self.nd, gates * self.hidden, self.hidden):
            raise ctx.error(f"W {list(wd)} and R {list(rd)} do not fit {self.nd} direction(s) of {gates} gates")
        hs = ctx.attr_int("hidden_size", self.hidden)
        if hs != self.hidden:
            raise ctx.unsupported_attr("hidden_size", hs, f"R {list(rd)} gives hidden size {self.hidden}")
        self.w, self.r = w, r
        self.input_size = wd[2]
        dims = ctx.dims(0)
        self.t, self.b = (dims[1], dims[0]) if self.layout else (dims[0], dims[1])
        self.x = self.time_major(ctx.x(0), dims, "TransposeX")

    def ge_name(self) -> str:
        return {"LSTM": "DynamicRNN", "GRU": "DynamicGRUV2"}.get(self.ctx.op_type, "ops")

    # -- attributes ------------------------------------------------------------------------

    def check_activations(self) -> None:
        ctx = self.ctx
        acts = ctx.attr("activations")
        if acts is None:
            return
        names = [a.decode() if isinstance(a, bytes) else str(a) for a in acts]  # type: ignore[union-attr]
        want = _DEFAULT_ACTS[ctx.op_type] * self.nd
        if len(names) != len(want):
            raise ctx.unsupported_attr(
                "activations", names, f"a {self.direction} {ctx.op_type} takes {len(want)} activations"
            )
        if ctx.op_type == "RNN":
            return  # checked per function by the RNN converter
        for got, default in zip(names, want):
            if got.lower() != default.lower():
                raise ctx.unsupported_attr(
                    "activations",
                    names,
                    f"activation '{got}' where GE's {self.ge_name()} computes {default} (its kernel computes "
                    f"{', '.join(_DEFAULT_ACTS[ctx.op_type])} only)",
                )

    def weight(self, i: int, what: str) -> np.ndarray | None:
        """Input `i`'s value when it is a constant (the fusion passes rewrite it at
        compile time), else None: the graph rearranges it (piece)."""
        ctx = self.ctx
        v = ctx.value(i)
        if v.elem != self.elem:
            raise ctx.error(f"input {i} ('{what}') has another dtype than X")
        if v.const is None:
            return None
        return np.asarray(v.const, dtype=np.float32)

    def piece(
        self, i: int, d: int, blocks: int = 1, order: Sequence[int] | None = None, transpose: bool = False
    ) -> list[SSAValue]:
        """Direction `d` of weight input `i` ([nd, rows, cols] or [nd, n]) from the data,
        as GE ops: SplitD of the directions (once per input), Reshape without the
        direction axis, SplitD into `blocks` equal row blocks (ConcatD in `order` when
        given: one tensor), TransposeD of a 2-D result."""
        ctx = self.ctx
        dims = ctx.dims(i)
        one = (1, *dims[1:])
        if i not in self.split_cache:
            if self.nd == 1:
                self.split_cache[i] = [ctx.x(i)]
            else:
                attrs = {"split_dim": _int(0), "num_split": _int(self.nd)}
                op = self.emit(ge.SplitD, [ctx.x(i)], [self.tt(one)] * self.nd, attrs, f"Split_input{i}")
                self.split_cache[i] = list(op.results)
        rest = tuple(dims[1:])
        shape = self.const(np.array(rest, np.int64), f"input{i}_{d}_shape", _T.INT64)
        v = self.emit(
            ge.Reshape, [self.split_cache[i][d], shape], [self.tt(rest)], {}, f"Reshape_input{i}_{d}"
        ).results[0]
        parts: list[SSAValue] = [v]
        if blocks > 1:
            blk = (rest[0] // blocks, *rest[1:])
            attrs = {"split_dim": _int(0), "num_split": _int(blocks)}
            parts = list(self.emit(ge.SplitD, [v], [self.tt(blk)] * blocks, attrs, f"Split_input{i}_{d}").results)
        if order is not None:
            attrs = {"concat_dim": _int(0), "N": _int(len(order))}
            parts = [self.emit(ge.ConcatD, [parts[k] for k in order], [self.tt(rest)], attrs, f"Concat_input{i}_{d}").results[0]]  # fmt: skip
        if transpose:
            parts = [self.transpose(p, [1, 0], f"Transpose_input{i}_{d}") for p in parts]
        return parts

    def add(self, a: SSAValue, b: SSAValue, suffix: str) -> SSAValue:
        return self.emit(ge.Add, [a, b], [a.type], {}, suffix).results[0]

    def reorder(self, v: SSAValue, blocks: int, order: Sequence[int], suffix: str) -> SSAValue:
        """1-D `v`'s `blocks` equal blocks in `order` (SplitD, ConcatD)."""
        (n,) = v.type.get_shape()  # type: ignore[attr-defined]
        attrs = {"split_dim": _int(0), "num_split": _int(blocks)}
        parts = self.emit(ge.SplitD, [v], [self.tt((n // blocks,))] * blocks, attrs, f"Split_{suffix}").results
        attrs = {"concat_dim": _int(0), "N": _int(blocks)}
        return self.emit(ge.ConcatD, [parts[k] for k in order], [self.tt((n,))], attrs, f"Concat_{suffix}").results[0]

    # -- tensors -------------------------------------------------------------------------

    def tt(self, dims: Sequence[int], elem: int | None = None) -> TensorType:
        return self.ctx.imp.tensor_type(self.elem if elem is None else elem, dims)

    def const(self, arr: np.ndarray, suffix: str, elem: int | None = None) -> SSAValue:
        e = self.elem if elem is None else elem
        return self.ctx.const_value(np.ascontiguousarray(arr), e, suffix)

    def data_const(self, arr: np.ndarray, suffix: str) -> SSAValue:
        """A weight-like Const in the node's dtype (computed in float32, cast once)."""
        dt = np.float16 if self.elem == _T.FLOAT16 else np.float32
        return self.const(arr.astype(dt), suffix)

    def emit(
        self, cls: type[Operation], ins: Sequence[SSAValue], types: Sequence[Attribute], attrs: dict, suffix: str | None
    ) -> Operation:
        return self.ctx.emit(cls, ins, types, attrs, suffix=suffix)

    def transpose(self, v: SSAValue, perm: Sequence[int], suffix: str | None) -> SSAValue:
        s = v.type.get_shape()  # type: ignore[attr-defined]
        t = self.tt([s[p] for p in perm])
        return self.emit(ge.TransposeD, [v], [t], {"perm": _ints(perm)}, suffix).results[0]

    def time_major(self, v: SSAValue, dims: Sequence[int], suffix: str) -> SSAValue:
        """layout = 1: [B, T, ...] (or [B, nd, H]) to GE's time-major form."""
        if not self.layout:
            return v
        return self.transpose(v, [1, 0, *range(2, len(dims))], suffix)

    def seq_lens(self) -> SSAValue | None:
        ctx = self.ctx
        if not ctx.has(4):
            return None
        if ctx.elem(4) != _T.INT32:
            raise ctx.error(f"input 4 ('sequence_lens') must be int32, got {_T.DataType.Name(ctx.elem(4)).lower()}")
        return ctx.x(4)

    def states(self, i: int, what: str) -> list[SSAValue | None]:
        """ONNX's initial state input `i` [nd, B, H] (layout 1: [B, nd, H]) as one
        [1, B, H] per direction (SetInitHCTensorData for a Const, else a Split node)."""
        ctx = self.ctx
        if not ctx.has(i):
            return [None] * self.nd
        v = ctx.value(i)
        if v.elem != self.elem:
            raise ctx.error(f"input {i} ('{what}') has another dtype than X")
        if v.const is not None:
            arr = np.asarray(v.const)
            if self.layout:
                arr = arr.transpose(1, 0, 2)
            return [self.const(arr[d : d + 1], f"{what}_{d}") for d in range(self.nd)]
        x = self.time_major(ctx.x(i), v.dims, f"Transpose_{what}")
        if self.nd == 1:
            return [x]
        t = self.tt((1, self.b, self.hidden))
        split = self.emit(ge.SplitD, [x], [t, t], {"split_dim": _int(0), "num_split": _int(2)}, f"Split_{what}")
        return list(split.results)

    def zeros_state(self, suffix: str) -> SSAValue:
        return self.data_const(np.zeros((1, self.b, self.hidden), np.float32), suffix)

    # -- outputs ---------------------------------------------------------------------------

    @property
    def alone(self) -> bool:
        """A per-direction op yields the node's output itself (no ConcatD, no TransposeD after)."""
        return self.nd == 1 and not self.layout

    def present(self, k: int) -> bool:
        return k < len(self.ctx.node.output) and self.ctx.node.output[k] != ""

    def first_present(self) -> int:
        return next(k for k in range(len(self.ctx.node.output)) if self.present(k))

    def bind_y(self, ys: Sequence[SSAValue]) -> None:
        """Output 0, Y [T, nd, B, H] (layout 1: [B, T, nd, H]), from each direction's y."""
        if not self.present(0):
            return
        t4 = self.tt((self.t, 1, self.b, self.hidden))
        parts = [
            self.emit(
                ge.ExpandDims, [y], [t4], {"axis": _int(1)}, self.suffix(0, f"ExpandDims_Y{d}", self.alone)
            ).results[0]
            for d, y in enumerate(ys)
        ]
        out = self.join(parts, 1, (self.t, self.nd, self.b, self.hidden), "Y", 0)
        if self.layout:
            out = self.transpose(out, [2, 0, 1, 3], self.suffix(0, "TransposeY", True))
        self.ctx.bind(0, out)

    def bind_last(self, k: int, seqs: Sequence[SSAValue], what: str) -> None:
        """Output k, Y_h or Y_c [nd, B, H]: each direction's final step of its state
        sequence (the forward one's step T - 1, the reverse one's step 0)."""
        if not self.present(k):
            return
        parts = []
        for d, s in enumerate(seqs):
            reverse = self.direction == "reverse" or d == 1
            step = 0 if reverse else self.t - 1
            ins = [
                s,
                self.const(np.array([step], np.int64), f"{what}{d}_begin", _T.INT64),
                self.const(np.array([step + 1], np.int64), f"{what}{d}_end", _T.INT64),
                self.const(np.array([0], np.int64), f"{what}{d}_axes", _T.INT64),
            ]
            t = self.tt((1, self.b, self.hidden))
            suffix = self.suffix(k, f"StridedSlice_{what}{d}", self.alone)
            parts.append(self.emit(ge.StridedSliceV2, ins, [t], {}, suffix).results[0])
        out = self.join(parts, 0, (self.nd, self.b, self.hidden), what, k)
        if self.layout:
            out = self.transpose(out, [1, 0, 2], self.suffix(k, f"Transpose{what}", True))
        self.ctx.bind(k, out)

    def suffix(self, k: int, what: str, final: bool) -> str | None:
        """The node's own name for the op that yields its first output (`final`: nothing
        follows it), `what` otherwise."""
        return None if final and k == self.first_present() else what

    def join(self, parts: Sequence[SSAValue], dim: int, dims: tuple[int, ...], what: str, k: int) -> SSAValue:
        if len(parts) == 1:
            return parts[0]
        attrs = {"concat_dim": _int(dim), "N": _int(2)}
        suffix = self.suffix(k, f"Concat_{what}", not self.layout)
        return self.emit(ge.ConcatD, parts, [self.tt(dims)], attrs, suffix).results[0]

    def step_mask(self, seq: SSAValue) -> SSAValue:
        """[T, B, 1] bool: step t of batch b lies inside its sequence (t < sequence_lens[b])."""
        steps = self.const(np.arange(self.t, dtype=np.int32).reshape(self.t, 1, 1), "steps", _T.INT32)
        shape = self.const(np.array([1, self.b, 1], np.int64), "seq_shape", _T.INT64)
        seq3 = self.emit(ge.Reshape, [seq, shape], [self.tt((1, self.b, 1), _T.INT32)], {}, "Reshape_seq").results[0]
        return self.emit(ge.Less, [steps, seq3], [self.tt((self.t, self.b, 1), _T.BOOL)], {}, "Less_seq").results[0]


def _reordered(a: np.ndarray, hidden: int, order: Sequence[int]) -> np.ndarray:
    """`a`'s gate blocks of `hidden` rows (axis 0) in `order`."""
    return np.concatenate([a[k * hidden : (k + 1) * hidden] for k in order], axis=0)


# ONNX's LSTM gate blocks are i, o, f, c; DynamicRNN's ijfo is i, c, f, o
# (common_lstm_fusion_pass.cc: SetWeightTensorData, "swap 1, 3")
_LSTM_TO_IJFO = (0, 3, 2, 1)


@converts("LSTM")
def _lstm(ctx: _NodeCtx) -> None:
    # CANN: onnx_plugin/lstm_plugin.cc (ops-nn: lstm_onnx_plugin.cpp) -> CommonLSTM;
    # common_lstm_fusion_pass.cc: CommonLSTMFusionPass::Fusion -> DynamicRNN per direction
    rec = _Recurrent(ctx, 4)
    if ctx.attr_int("input_forget", 0) != 0:
        raise ctx.unsupported_attr(
            "input_forget", ctx.attr_int("input_forget", 0), "GE's DynamicRNN has no coupled input and forget gates"
        )
    hid, nd = rec.hidden, rec.nd
    bias = rec.weight(3, "B") if ctx.has(3) else np.zeros((nd, 8 * hid), np.float32)
    has_peep = ctx.has(7)
    peep = rec.weight(7, "P") if has_peep else None
    if (ctx.has(3) and ctx.dims(3) != (nd, 8 * hid)) or (has_peep and ctx.dims(7) != (nd, 3 * hid)):
        raise ctx.error(f"B {list(ctx.dims(3))} or P does not fit {nd} direction(s) of hidden size {hid}")
    seq = rec.seq_lens()
    init_h, init_c = rec.states(5, "initial_h"), rec.states(6, "initial_c")
    ys, hs, cs = [], [], []
    for d in range(nd):
        if rec.w is not None and rec.r is not None:
            wr = [_reordered(rec.w[d], hid, _LSTM_TO_IJFO).T, _reordered(rec.r[d], hid, _LSTM_TO_IJFO).T]
            w = rec.data_const(np.concatenate(wr), f"w{d}")
        else:  # from the data: the same rearrangement as GE ops
            parts = [
                rec.data_const(_reordered(a[d], hid, _LSTM_TO_IJFO).T, f"{n}{d}")
                if a is not None
                else rec.piece(i, d, 4, _LSTM_TO_IJFO, transpose=True)[0]
                for i, a, n in ((1, rec.w, "W"), (2, rec.r, "R"))
            ]
            attrs = {"concat_dim": _int(0), "N": _int(2)}
            w = rec.emit(ge.ConcatD, parts, [rec.tt((rec.input_size + hid, 4 * hid))], attrs, f"Concat_w{d}").results[0]
        if bias is not None:
            b = rec.data_const(_reordered(bias[d, : 4 * hid] + bias[d, 4 * hid :], hid, _LSTM_TO_IJFO), f"b{d}")
        else:
            halves = rec.piece(3, d, 2)
            summed = rec.add(halves[0], halves[1], f"Add_b{d}")
            b = rec.reorder(summed, 4, _LSTM_TO_IJFO, f"b{d}")
        ins = [rec.x, w, b]
        if seq is not None:
            ins.append(seq)
        h0, c0 = init_h[d], init_c[d]
        if h0 is not None or c0 is not None or has_peep:
            ins.append(h0 if h0 is not None else rec.zeros_state(f"initial_h_{d}"))
            ins.append(c0 if c0 is not None else rec.zeros_state(f"initial_c_{d}"))
        attrs: dict[str, Attribute] = {}
        if has_peep:  # ONNX's P is p_i, p_o, p_f
            if peep is not None:
                ins += [rec.data_const(peep[d, k * hid : (k + 1) * hid], f"w{n}{d}") for k, n in ((0, "ci"), (2, "cf"), (1, "co"))]  # fmt: skip
            else:
                p_i, p_o, p_f = rec.piece(7, d, 3)
                ins += [p_i, p_f, p_o]
            attrs["use_peephole"] = _bool(True)
        reverse = rec.direction == "reverse" or d == 1
        attrs["direction"] = StringAttr("REDIRECTIONAL" if reverse else "UNIDIRECTIONAL")
        attrs["is_training"] = _bool(False)
        t = rec.tt((rec.t, rec.b, hid))
        label = "DynamicRNN" if nd == 1 else ("DynamicRNNReverse" if d else "DynamicRNNForward")
        op = rec.emit(ge.DynamicRNN, ins, [t] * 8, attrs, label)
        ys.append(op.results[0])
        hs.append(op.results[1])
        cs.append(op.results[2])
    rec.bind_y(ys)
    rec.bind_last(1, hs, "Y_h")
    rec.bind_last(2, cs, "Y_c")


@converts("GRU")
def _gru(ctx: _NodeCtx) -> None:
    # CANN: onnx_plugin/gru_plugin.cc (ops-nn: gru_onnx_plugin.cpp) -> CommonGRU;
    # gru_fusion_pass.cc: GRUFusionPass::Fusion -> DynamicGRUV2 per direction
    rec = _Recurrent(ctx, 3)
    hid, nd = rec.hidden, rec.nd
    bias = rec.weight(3, "B") if ctx.has(3) else np.zeros((nd, 6 * hid), np.float32)
    if ctx.has(3) and ctx.dims(3) != (nd, 6 * hid):
        raise ctx.error(f"B {list(ctx.dims(3))} does not fit {nd} direction(s) of hidden size {hid}")
    seq = rec.seq_lens()
    init_h = rec.states(5, "initial_h")
    ys, hs = [], []
    for d in range(nd):
        ins = [
            rec.x,
            rec.data_const(rec.w[d].T, f"weight_input{d}") if rec.w is not None else rec.piece(1, d, transpose=True)[0],
            rec.data_const(rec.r[d].T, f"weight_hidden{d}")
            if rec.r is not None
            else rec.piece(2, d, transpose=True)[0],
            *(
                [
                    rec.data_const(bias[d, : 3 * hid], f"bias_input{d}"),
                    rec.data_const(bias[d, 3 * hid :], f"bias_hidden{d}"),
                ]
                if bias is not None
                else rec.piece(3, d, 2)
            ),
        ]
        if seq is not None:
            ins.append(seq)
        if init_h[d] is not None:
            ins.append(init_h[d])  # type: ignore[arg-type]
        reverse = rec.direction == "reverse" or d == 1
        attrs: dict[str, Attribute] = {
            "direction": StringAttr("REDIRECTIONAL" if reverse else "UNIDIRECTIONAL"),
            # beyond GRUFusionPass, which keeps the default true: ONNX's linear_before_reset
            "reset_after": _bool(ctx.attr_int("linear_before_reset", 0) != 0),
            "is_training": _bool(False),
        }
        t = rec.tt((rec.t, rec.b, hid))
        label = "DynamicGRUV2" if nd == 1 else ("DynamicGRUV2Reverse" if d else "DynamicGRUV2Forward")
        op = rec.emit(ge.DynamicGRUV2, ins, [t] * 6, attrs, label)
        y = op.results[0]
        if seq is not None and rec.present(0):
            # beyond GE: ONNX's Y is 0 past a sequence's end, DynamicGRUV2's y the kept state
            zero = rec.data_const(np.zeros((1, 1, 1), np.float32), f"zero{d}")
            y = rec.emit(ge.SelectV2, [rec.step_mask(seq), y, zero], [t], {}, f"Select_Y{d}").results[0]
        ys.append(y)
        hs.append(op.results[1])
    rec.bind_y(ys)
    rec.bind_last(1, hs, "Y_h")


# RNN's activations the ge dialect has an op for, by ONNX's names (onnxruntime takes them
# as written): the ge op and its attributes from activation_alpha / activation_beta (each
# function that takes alpha, beta consumes the next entries, else ONNX's default, as the
# same ONNX operators' converters set them: leakyrelu_plugin.cc, elu_plugin.cc,
# hard_sigmoid_plugin.cc). ThresholdedRelu, ScaledTanh and Affine have no ge op: refused.
_RNN_ACTIVATIONS: dict[str, tuple[type[Operation], tuple[tuple[str, str, float], ...]]] = {
    "Tanh": (ge.Tanh, ()), "Relu": (ge.Relu, ()), "Sigmoid": (ge.Sigmoid, ()),
    "Softsign": (ge.Softsign, ()), "Softplus": (ge.Softplus, ()),
    "LeakyRelu": (ge.LeakyRelu, (("alpha", "negative_slope", 0.01),)),
    "Elu": (ge.Elu, (("alpha", "alpha", 1.0),)),
    "HardSigmoid": (ge.HardSigmoid, (("alpha", "alpha", 0.2), ("beta", "beta", 0.5))),
}  # fmt: skip


def _rnn_activations(ctx: _NodeCtx, names: list[str]) -> list[tuple[type[Operation], dict[str, Attribute]]]:
    """Each direction's activation op and attributes (alpha / beta consumed in order)."""
    given = {k: [float(v) for v in ctx.attr(f"activation_{k}") or []] for k in ("alpha", "beta")}  # type: ignore[union-attr]
    used = {"alpha": 0, "beta": 0}
    out = []
    for a in names:
        if a not in _RNN_ACTIVATIONS:
            raise ctx.unsupported_attr(
                "activations", names, f"activation '{a}' has no ge op here (supported: {', '.join(_RNN_ACTIVATIONS)})"
            )
        cls, params = _RNN_ACTIVATIONS[a]
        attrs: dict[str, Attribute] = {}
        for onnx_name, ge_name, default in params:
            k = used[onnx_name]
            attrs[ge_name] = _f32(given[onnx_name][k] if k < len(given[onnx_name]) else default)
            used[onnx_name] = k + 1
        out.append((cls, attrs))
    return out


@converts("RNN")
def _rnn(ctx: _NodeCtx) -> None:
    # No CANN plugin maps RNN (the public copies register LSTM and GRU only); GE's own RNN
    # op is Caffe's (an output layer o_t = tanh(W_ho h_t + b_o) after each step, float16
    # only, rnn.h: REG_OP(RNN)). Beyond GE: ONNX's equations written as GE ops,
    # H_t = f(X_t W^T + Wb + Rb + H_{t-1} R^T), unrolled over the static T: one MatMul (with
    # the summed bias) projects the input of every step, SplitD cuts it per step, and each
    # step adds a MatMul of the previous state and applies f; sequence_lens keeps the state
    # and writes 0 past a sequence's end (Less, SelectV2); Pack stacks the steps' outputs.
    rec = _Recurrent(ctx, 1)
    hid, nd, t_size, b_size = rec.hidden, rec.nd, rec.t, rec.b
    names = ctx.attr("activations")
    acts = [a.decode() if isinstance(a, bytes) else str(a) for a in names] if names is not None else ["Tanh"] * nd  # type: ignore[union-attr]
    activations = _rnn_activations(ctx, acts)
    bias = rec.weight(3, "B") if ctx.has(3) else np.zeros((nd, 2 * hid), np.float32)
    if ctx.has(3) and ctx.dims(3) != (nd, 2 * hid):
        raise ctx.error(f"B {list(ctx.dims(3))} does not fit {nd} direction(s) of hidden size {hid}")
    seq = rec.seq_lens()
    init_h = rec.states(5, "initial_h")
    bh = rec.tt((b_size, hid))
    flat = rec.const(np.array([t_size * b_size, rec.input_size], np.int64), "x_shape", _T.INT64)
    x2 = rec.emit(ge.Reshape, [rec.x, flat], [rec.tt((t_size * b_size, rec.input_size))], {}, "Reshape_X").results[0]
    seq2 = None
    if seq is not None:
        shape = rec.const(np.array([b_size, 1], np.int64), "seq_shape", _T.INT64)
        seq2 = rec.emit(ge.Reshape, [seq, shape], [rec.tt((b_size, 1), _T.INT32)], {}, "Reshape_seq").results[0]
    zero = rec.data_const(np.zeros((1, 1), np.float32), "zero")
    ys, finals = [], []
    for d in range(nd):
        w = rec.data_const(rec.w[d].T, f"W{d}") if rec.w is not None else rec.piece(1, d, transpose=True)[0]
        r = rec.data_const(rec.r[d].T, f"R{d}") if rec.r is not None else rec.piece(2, d, transpose=True)[0]
        if bias is not None:
            b = rec.data_const(bias[d, :hid] + bias[d, hid:], f"B{d}")
        else:
            b_in, b_rec = rec.piece(3, d, 2)
            b = rec.add(b_in, b_rec, f"Add_B{d}")
        xw = rec.emit(ge.MatMul, [x2, w, b], [rec.tt((t_size * b_size, hid))], {}, f"MatMul_X{d}").results[0]
        steps = rec.emit(ge.SplitD, [xw], [bh] * t_size, {"split_dim": _int(0), "num_split": _int(t_size)}, f"Split_X{d}")  # fmt: skip
        h = init_h[d]
        if h is not None:
            shape = rec.const(np.array([b_size, hid], np.int64), f"h_shape{d}", _T.INT64)
            h = rec.emit(ge.Reshape, [h, shape], [bh], {}, f"Reshape_initial_h{d}").results[0]
        act, act_attrs = activations[d]
        reverse = rec.direction == "reverse" or d == 1
        y_at: dict[int, SSAValue] = {}
        for t in range(t_size - 1, -1, -1) if reverse else range(t_size):
            pre = steps.results[t]
            if h is not None:
                hr = rec.emit(ge.MatMul, [h, r], [bh], {}, f"MatMul_H{d}_{t}").results[0]
                pre = rec.emit(ge.Add, [pre, hr], [bh], {}, f"Add{d}_{t}").results[0]
            h_new = rec.emit(act, [pre], [bh], act_attrs, f"{act.name[3:]}{d}_{t}").results[0]
            y = h_new
            if seq2 is not None:
                t_const = rec.const(np.full((1, 1), t, np.int32), f"step{d}_{t}", _T.INT32)
                m = rec.emit(ge.Less, [t_const, seq2], [rec.tt((b_size, 1), _T.BOOL)], {}, f"Less{d}_{t}").results[0]
                keep = h if h is not None else zero
                h_new = rec.emit(ge.SelectV2, [m, h_new, keep], [bh], {}, f"Select_H{d}_{t}").results[0]
                y = rec.emit(ge.SelectV2, [m, y, zero], [bh], {}, f"Select_Y{d}_{t}").results[0]
            y_at[t] = y
            h = h_new
        assert h is not None
        finals.append(h)
        if rec.present(0):
            attrs = {"axis": _int(0), "N": _int(t_size)}
            packed = rec.emit(ge.Pack, [y_at[t] for t in range(t_size)], [rec.tt((t_size, b_size, hid))], attrs, f"Pack_Y{d}")  # fmt: skip
            ys.append(packed.results[0])
    rec.bind_y(ys)
    if rec.present(1):
        t3 = rec.tt((1, b_size, hid))
        parts = [
            rec.emit(
                ge.ExpandDims, [h], [t3], {"axis": _int(0)}, rec.suffix(1, f"ExpandDims_Y_h{d}", rec.alone)
            ).results[0]  # fmt: skip
            for d, h in enumerate(finals)
        ]
        out = rec.join(parts, 0, (nd, b_size, hid), "Y_h", 1)
        if rec.layout:
            out = rec.transpose(out, [1, 0, 2], rec.suffix(1, "TransposeY_h", True))
        ctx.bind(1, out)
