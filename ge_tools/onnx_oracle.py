"""onnxruntime as the numeric oracle of an ONNX model (`ge-run MODEL.onnx`).

    result = compare_with_onnxruntime("model.onnx", inputs, outputs)
    print_oracle(result)          # per output: largest abs and rel error, then the verdict

onnxruntime is imported here only, lazily (only an `.onnx` input needs it; it is in the
test extra). The model runs on onnxruntime's CPU provider with the same input arrays
ge-run gave the simulator (ge.Data index k = the model's k-th graph input without an
initializer), all optimisations off, so that onnxruntime computes each node as ONNX
defines it. The outputs are compared element by element with a tolerance per dtype
(TOLERANCES): |got - want| <= atol + rtol * |want|, NaN equal to NaN, integers and bools
exactly. The tolerances cover two implementations of one model computing in different
orders (onnxruntime's MLAS kernels block and vectorise their sums, and compute f16 in
f32 or f16 by kernel).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue

from ge_dialect.ge import GraphOp
from ge_tools.parse import UserError
from ge_tools.tolerances import TOLERANCES, tolerance_text  # noqa: F401 - re-exported

if TYPE_CHECKING:
    import onnx  # (imported where a model is read: a .mlir run never loads it)


@dataclass
class OutputCheck:
    """One model output: its name, the largest absolute and relative error, and the
    elements outside the tolerance."""

    name: str
    dtype: str
    max_abs: float
    max_rel: float
    bad: int
    size: int
    undecidable: int = 0  # elements whose error bound is infinite: not judged, never a match
    anchored: int = 0  # elements undecidable end to end, judged step by step (anchor_oracle)


@dataclass
class OracleResult:
    outputs: list[OutputCheck]
    shape_errors: list[str]
    steps: list[str] = field(default_factory=list)  # the anchored judgment's lines (anchor_oracle)
    wrong_steps: int = 0  # onnxruntime's steps outside their tolerance
    anchored_steps: int = 0  # onnxruntime's steps judged on their own inputs

    @property
    def ok(self) -> bool:
        return not self.shape_errors and not self.wrong_steps and all(o.bad == 0 for o in self.outputs)

    @property
    def undecidable(self) -> int:
        return sum(o.undecidable for o in self.outputs)


def run_onnxruntime(
    path: str, inputs: Sequence[np.ndarray], extra: Mapping[str, Attribute] | None = None
) -> tuple[list[str], list[np.ndarray]]:
    """The model's output names and values on onnxruntime's CPU provider. `extra`: tensors
    of the model (ONNX name -> the ge type the importer gave it) to add as outputs after the
    model's own, for runtime/anchored.py (one that is already an output or an input is not
    added again)."""
    try:
        import onnxruntime as ort  # lazily: only an ONNX model needs it
    except ImportError:
        raise UserError(
            f"{path}: error: comparing with onnxruntime needs the onnxruntime package "
            "(pip install onnxruntime, or the project's test extra)"
        ) from None

    def options(folder: str | None) -> object:
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        opts.log_severity_level = 3
        # the oracle checks, it is not timed: its pool's threads sleep when idle instead of
        # spinning (onnxruntime's default spins, which on a machine whose cores are shared,
        # such as a parallel test run, takes the CPU the other processes need)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
        # no pre-packed copies of the weights (MLAS packs a MatMul's B into a buffer of its
        # own beside the tensor: one more model size; the oracle computes each node as ONNX
        # defines it, optimisations off, so its speed is not the point)
        opts.add_session_config_entry("session.disable_prepacking", "1")
        if folder is not None:
            opts.add_session_config_entry(EXTERNAL_FOLDER, folder)
        return opts

    model, folder = _session_model(path, extra)
    try:
        try:
            sess = ort.InferenceSession(model, options(folder), providers=["CPUExecutionProvider"])
        except Exception:
            if folder is None:
                raise
            del model  # an onnxruntime without the folder option: the model as it is
            model = _with_outputs(path, extra) if extra else path
            sess = ort.InferenceSession(model, options(None), providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime's Fail / InvalidGraph / NotImplemented
        raise UserError(f"{path}: error: onnxruntime cannot load the model: {' '.join(str(e).split())}") from None
    del model
    # the graph inputs without an initializer, in order (the importer's ge.Data indices):
    # the session's inputs (an initializer that is also a graph input is one of its
    # overridable initializers instead), not a second load of the model and its weights
    names = [i.name for i in sess.get_inputs()]
    if len(names) != len(inputs):
        raise UserError(f"{path}: error: onnxruntime sees {len(names)} inputs, the imported graph {len(inputs)}")
    feed = {n: np.ascontiguousarray(a) for n, a in zip(names, inputs)}
    try:
        got = sess.run(None, feed)
    except Exception as e:
        raise UserError(f"{path}: error: onnxruntime fails to run the model: {' '.join(str(e).split())}") from None
    return [o.name for o in sess.get_outputs()], [np.asarray(g) for g in got]


# onnxruntime's session option naming the folder a model given as bytes reads its external
# initializers from (onnxruntime_session_options_config_keys.h:
# kOrtSessionOptionsModelExternalInitializersFileFolderPath)
EXTERNAL_FOLDER = "session.model_external_initializers_file_folder_path"


def _session_model(path: str, extra: Mapping[str, Attribute] | None) -> tuple[str | bytes, str | None]:
    """What onnxruntime's session is made from, and the folder its external data is read
    from (None: the model file itself, by its path). A model whose main graph holds large
    initializers in the file (importers/onnx.py: large_raw_data_spans, the walk the importer
    reads weights with) is given as its protobuf without them, each rewritten as external
    data at its own offset in that same file: onnxruntime reads every weight from the file
    once, where from the path it holds the parsed protobuf and the tensors made from it
    together (2 x the model, beside ge-run's IR: 3 x; bench/bench_weights.py). `extra`'s
    tensors are added as outputs (runtime/anchored.py)."""
    from importers.onnx import large_raw_data_spans

    got = large_raw_data_spans(path)
    if got is None or (not got[1] and not extra):
        return (_with_outputs(path, extra) if extra else path), None
    import onnx

    data, spans = got
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # not a model: onnxruntime says what is wrong with the file
        return (_with_outputs(path, extra) if extra else path), None
    del data
    file = os.path.basename(path)
    for t in proto.graph.initializer:
        span = spans.get(t.name)
        if span is None or t.raw_data:  # (a second initializer of one name kept its data)
            continue
        t.data_location = onnx.TensorProto.EXTERNAL
        del t.external_data[:]
        for key, value in (("location", file), ("offset", str(span[0])), ("length", str(span[1] - span[0]))):
            entry = t.external_data.add()
            entry.key, entry.value = key, value
    if extra:
        _add_outputs(proto, extra)
    return proto.SerializeToString(), os.path.dirname(os.path.abspath(path))


def _with_outputs(path: str, extra: Mapping[str, Attribute]) -> bytes:
    """The model at `path` (its external data loaded) with `extra`'s tensors added as
    outputs, serialised."""
    import onnx

    proto = onnx.load(path)
    _add_outputs(proto, extra)
    return proto.SerializeToString()


def _add_outputs(proto: onnx.ModelProto, extra: Mapping[str, Attribute]) -> None:
    """`extra`'s tensors added to the ModelProto's outputs. Each is declared by name alone:
    onnxruntime takes its type from the node that makes it (the importer's type may differ,
    an index held as int32)."""
    import onnx

    taken = {o.name for o in proto.graph.output} | {i.name for i in proto.graph.input}
    taken |= {t.name for t in proto.graph.initializer}
    proto.graph.output.extend(onnx.ValueInfoProto(name=n) for n in extra if n not in taken)


def check_output(name: str, got: np.ndarray, want: np.ndarray, bound: np.ndarray | None = None) -> OutputCheck:
    """`got` (ours) against `want` (onnxruntime's) with TOLERANCES, an element widened by
    its `bound` (runtime/error_bound.py's with independent rounding: what the intermediate
    dtypes' roundings may move it by; none: the fixed tolerance alone). An element whose
    bound is infinite is undecidable: counted apart, never a match."""
    undecided = np.isinf(bound) if bound is not None and bound.shape == want.shape else np.zeros(want.shape, bool)
    n_undecided = int(np.count_nonzero(undecided))
    dt = str(want.dtype)
    if want.size == 0:
        return OutputCheck(name, dt, 0.0, 0.0, 0, 0)
    if dt in TOLERANCES:
        atol, rtol = TOLERANCES[dt]
        a, b = got.astype(np.float64), want.astype(np.float64)
        both_nan = np.isnan(a) & np.isnan(b)
        same_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
        with np.errstate(invalid="ignore"):
            err = np.where(both_nan | same_inf, 0.0, np.abs(a - b))
        err = np.where(np.isnan(err), np.inf, err)
        with np.errstate(invalid="ignore", divide="ignore"):
            rel = np.where(err == 0, 0.0, err / np.maximum(np.abs(b), np.finfo(np.float64).tiny))
        tol = atol + rtol * np.abs(np.where(np.isfinite(b), b, 0.0))
        if bound is not None and bound.shape == b.shape:
            tol = tol + np.where(np.isfinite(bound), bound, 0.0)
        bad = int(np.count_nonzero((err > tol) & ~undecided))
        return OutputCheck(name, dt, float(err.max()), float(rel.max()), bad, want.size, n_undecided)
    diff = got.astype(np.int64) != want.astype(np.int64) if want.dtype.kind in "biu" else got != want
    e = np.abs(got.astype(np.float64) - want.astype(np.float64))
    rel = np.where(e == 0, 0.0, e / np.maximum(np.abs(want.astype(np.float64)), 1.0))
    bad = int(np.count_nonzero(diff & ~undecided))
    return OutputCheck(name, dt, float(e.max()), float(rel.max()), bad, want.size, n_undecided)


def compare_with_onnxruntime(
    path: str,
    inputs: Sequence[np.ndarray],
    outputs: Sequence[np.ndarray],
    names: Sequence[str] | None = None,
    bounds: Sequence[np.ndarray] | None = None,
) -> OracleResult:
    """Run the ONNX model at `path` on onnxruntime with `inputs` and compare `outputs`
    (ours, in the model's output order) with its outputs, widened per element by
    `bounds` (check_output). The function other tools call (ge-run prints it with
    print_oracle)."""
    ort_names, want = run_onnxruntime(path, inputs)
    checks, shape_errors = [], []
    if len(want) != len(outputs):
        shape_errors.append(f"onnxruntime gives {len(want)} outputs, the compiled graph {len(outputs)}")
    for i, (w, g) in enumerate(zip(want, outputs)):
        name = ort_names[i]
        if tuple(w.shape) != tuple(g.shape):
            shape_errors.append(f"output {i} '{name}': shape {list(g.shape)}, onnxruntime's {list(w.shape)}")
            continue
        checks.append(check_output(name, g, w, bounds[i] if bounds is not None and i < len(bounds) else None))
    return OracleResult(checks, shape_errors)


def within(got: np.ndarray, want: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """Elementwise check_output's test: |got - want| <= atol + rtol |want| + bound (TOLERANCES
    of want's dtype; integers and bools within the bound), NaN equal to NaN, an infinity
    equal to itself; never where the bound is infinite."""
    atol, rtol = TOLERANCES.get(str(want.dtype), (0.0, 0.0))
    a, b = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        ok = (np.abs(a - b) <= atol + rtol * np.abs(b) + bound) | (a == b) | (np.isnan(a) & np.isnan(b))
    return ok & ~np.isinf(bound)


def onnxruntime_anchors(
    path: str, inputs: Sequence[np.ndarray]
) -> tuple[GraphOp, dict[SSAValue, np.ndarray], list[np.ndarray]]:
    """The model at `path` imported again, with the ge value of each ONNX tensor
    (importers/onnx.py: load_model's `tensors`), and onnxruntime's value of every such
    intermediate tensor, from one run with them added as outputs (optimisations off):
    (the graph, its values onnxruntime computed, onnxruntime's outputs)."""
    from ge_dialect import ge
    from ge_dialect.names import name_all_nodes
    from importers.onnx import load_model
    from runtime.anchored import matches

    tensors: dict[str, SSAValue] = {}
    module = load_model(path, tensors=tensors)
    name_all_nodes(module)
    graph = next(g for g in module.ops if isinstance(g, ge.GraphOp))
    block = graph.body.block
    mine = {
        n: s
        for n, s in tensors.items()
        if isinstance(s.owner, Operation)
        and s.owner.parent_block() is block
        and not isinstance(s.owner, ge.Data | ge.RefData | ge.Const)
    }
    names, values = run_onnxruntime(path, inputs, extra={n: s.type for n, s in mine.items()})
    got = dict(zip(names, values))
    anchors = {s: got[n] for n, s in mine.items() if n in got and matches(s, got[n])}
    return graph, anchors, values[: len(graph.net_output.operands)]


def anchor_oracle(
    result: OracleResult,
    path: str,
    inputs: Sequence[np.ndarray],
    bounds: Sequence[np.ndarray],
    ours: Sequence[np.ndarray],
    ours_wrong: bool,
) -> OracleResult:
    """`result` with its undecidable elements judged anchored (runtime/anchored.py,
    docs/tolerance.md): onnxruntime run once more with its intermediate tensors as outputs,
    each of its nodes judged against the reference on onnxruntime's own inputs with the
    independent-rounding bound. An element undecidable end to end (`bounds`: ours against
    onnxruntime's) is judged where `ours` (per output: the elements the compiled program's
    anchored judgment judged and found within their last step's tolerance; `ours_wrong`: a
    step of it is wrong, which judges nothing) holds and onnxruntime's last step's bound
    is finite after decided steps; outside that last step's tolerance it is a mismatch."""
    from ge_dialect.diagnostics import op_location
    from runtime.anchored import judge

    try:
        graph, anchors, ort_out = onnxruntime_anchors(path, inputs)
    except UserError as e:  # onnxruntime refuses the model with its intermediates as outputs
        return replace(result, steps=[f"no anchored judgment: {e}"])
    theirs = judge(graph, inputs, anchors, within, independent=True)
    bad, unjudged = theirs.outputs(ort_out, within)
    lines = [f"{op_location(st.node)}: {st.describe('onnxruntime')}" for st in (*theirs.wrong, *theirs.undecided)]
    checks = []
    for o, e, mine, b, u in zip(result.outputs, bounds, ours, bad, unjudged):
        inf = np.isinf(e) if e.shape == b.shape else np.zeros(b.shape, bool)
        judged = inf & ~u & ~b & (mine if not ours_wrong else False)
        wrong = inf & b
        checks.append(
            replace(
                o,
                bad=o.bad + int(np.count_nonzero(wrong)),
                undecidable=int(np.count_nonzero(inf & ~judged & ~wrong)),
                anchored=int(np.count_nonzero(judged)),
            )
        )
    return replace(
        result,
        outputs=checks,
        steps=lines,
        wrong_steps=sum(st.bad for st in theirs.wrong),
        anchored_steps=theirs.steps,
    )


def print_oracle(result: OracleResult, accept_undecidable: bool = False) -> int:
    """Print one line per output and the verdict; the exit status (0: match). Undecidable
    elements make the comparison inconclusive (1) unless `accept_undecidable`."""
    for o in result.outputs:
        verdict = "" if not o.bad else f" ({o.bad} of {o.size} elements outside the tolerance)"
        if o.undecidable:
            verdict += f" ({o.undecidable} of {o.size} elements undecidable)"
        if o.anchored:
            verdict += f" ({o.anchored} of {o.size} elements judged step by step)"
        print(
            f"onnxruntime: output '{o.name}' {o.dtype}: max abs error {o.max_abs:.3g}, max rel error {o.max_rel:.3g}{verdict}"
        )
    for line in result.shape_errors:
        print(f"onnxruntime: {line}")
    if result.anchored_steps:
        print(f"onnxruntime: anchored: {result.anchored_steps} of its steps judged on the inputs they read")
    for line in result.steps:
        print(f"  {line}")
    if result.ok and result.undecidable and not accept_undecidable:
        print(
            f"comparison with onnxruntime inconclusive: {result.undecidable} output elements are undecidable "
            "(--accept-undecidable accepts them unjudged); the other elements match onnxruntime"
        )
        return 1
    if result.ok:
        print("outputs match onnxruntime")
        return 0
    bad = sum(o.bad for o in result.outputs)
    steps = f", {result.wrong_steps} elements of its steps outside their tolerance" if result.wrong_steps else ""
    print(
        f"outputs do not match onnxruntime ({bad} elements differ, {len(result.shape_errors)} shape mismatches{steps})"
    )
    return 1


def oracle_status(path: str, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray]) -> int:
    """ge-run's one call: compare and print; the exit status."""
    return print_oracle(compare_with_onnxruntime(path, inputs, outputs))


__all__ = [
    "TOLERANCES",
    "OracleResult",
    "anchor_oracle",
    "onnxruntime_anchors",
    "OutputCheck",
    "compare_with_onnxruntime",
    "oracle_status",
    "print_oracle",
    "tolerance_text",
    "within",
]
