"""ONNX's backend node tests as a corpus: every case whose ops we import runs on the
reference interpreter and through the whole compiled pipeline (ge-compile and the device
simulator), and both must give ONNX's expected outputs.

`onnx.backend.test.case.node.collect_testcases()` builds the cases (model, inputs and
expected outputs; onnx 1.23's wheel ships no data files). A case is run when

* every node is an ai.onnx op the importer converts (`supported_ops()`);
* its ai.onnx opset is in 11-21, or every node's op resolves to the same schema version at
  the nearest end of that range (then the model *is* that model at opset 11 or 21, and is
  re-stamped so): a case whose op changed after opset 21 is not run;
* graph inputs that a node reads as a static attribute (`STATIC_INPUTS`: a Reshape's shape,
  a Split's split, a reduction's axes; node tests feed them as data) hold one value over
  the case's data sets: they become initializers, as in a real model.

Each run case is imported and run on every data set; a case passes when every output has
the expected dtype and shape and matches within the case's own rtol/atol (NaNs equal). The
test prints the counts, the cases that fail and why, and the missing ops that would
unlock the most cases; it fails when fewer cases pass than RECORDED_PASSES (raise it
when more pass: the count may only grow).

Every case that passes on the reference is then compiled in-process (ge_tools/api.py:
compile, the whole ge-compile pipeline down to the npu.model) and run on the device
simulator (api.simulate) on each data set, on 1 stream and on 2; a simulated output
passes when it has the expected dtype and shape and each element is within the case's
rtol/atol of the expected value plus the element's error bound (runtime/error_bound.py:
how far a correct compiled program may be from the reference, which itself is within
rtol/atol of the expected value). RECORDED_COMPILED_PASSES is that count; a case the
compiled path cannot take is listed in COMPILED_REFUSED with why, and must fail with
that reason; any other case that fails compiled fails the test. One test runs the
whole corpus (collecting and importing once): about 15 s of the suite for 503 cases.
"""

from __future__ import annotations

import collections
import dataclasses
import warnings

import numpy as np
import onnx
import pytest
from onnx import defs, numpy_helper
from xdsl.dialects.builtin import ModuleOp

from ge_dialect.dtypes import is_float_dtype
from ge_tools import api
from importers.onnx import MAX_OPSET, MIN_OPSET, STATIC_INPUTS, OnnxImportError, import_model, supported_ops
from runtime.error_bound import output_error_bounds
from runtime.interpreter import run_module
from runtime.reference import select_graph

RECORDED_PASSES = 684
RECORDED_COMPILED_PASSES = 684

# case name -> (a substring of its compiled-path failure, why the compiled path cannot take it)
COMPILED_REFUSED: dict[str, tuple[str, str]] = {}


def _collect():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from onnx.backend.test.case.node import collect_testcases

        return collect_testcases()


def _opset(m: onnx.ModelProto) -> int | None:
    v = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")]
    return v[0] if v else None


def retarget(m: onnx.ModelProto) -> onnx.ModelProto | None:
    """The model at an opset in MIN_OPSET..MAX_OPSET when that changes no node's schema."""
    v = _opset(m)
    if v is None:
        return None
    if MIN_OPSET <= v <= MAX_OPSET:
        return m
    target = min(max(v, MIN_OPSET), MAX_OPSET)
    for n in m.graph.node:
        try:
            if defs.get_schema(n.op_type, v, "").since_version != defs.get_schema(n.op_type, target, "").since_version:
                return None
        except defs.SchemaError:
            return None
    out = onnx.ModelProto()
    out.CopyFrom(m)
    for o in out.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = target
    return out


def freeze_static_inputs(m: onnx.ModelProto, data_sets: list) -> tuple[onnx.ModelProto, list] | None:
    """Graph inputs read as static attributes become initializers (None: they vary)."""
    inits = {t.name for t in m.graph.initializer}
    names = [vi.name for vi in m.graph.input if vi.name not in inits]
    static = {
        n.input[i]
        for n in m.graph.node
        for i in STATIC_INPUTS.get(n.op_type, {})
        if i < len(n.input) and n.input[i] in names
    }
    if not static:
        return m, data_sets
    pos = {name: k for k, name in enumerate(names)}
    for name in static:
        vals = [np.asarray(ins[pos[name]]) for ins, _ in data_sets]
        if any(v.shape != vals[0].shape or not np.array_equal(v, vals[0]) for v in vals):
            return None
    out = onnx.ModelProto()
    out.CopyFrom(m)
    keep = [vi for vi in out.graph.input if vi.name not in static]
    del out.graph.input[:]
    out.graph.input.extend(keep)
    for name in sorted(static):
        out.graph.initializer.append(numpy_helper.from_array(np.asarray(data_sets[0][0][pos[name]]), name))
    return out, [([a for k, a in enumerate(ins) if names[k] not in static], outs) for ins, outs in data_sets]


def _matches(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> bool:
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if got.dtype.kind in "fc":
        return bool(np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True))
    return bool(np.array_equal(got, want))


@dataclasses.dataclass
class CaseResult:
    status: str  # 'pass' | 'fail' | a reason it is not run
    detail: str
    module: ModuleOp | None = None  # the imported module (when imported)
    data_sets: list = dataclasses.field(default_factory=list)  # (inputs, outputs), static inputs frozen


def run_case(case) -> CaseResult:
    """The case on the reference interpreter."""
    supported = set(supported_ops())
    missing = {
        n.op_type for n in case.model.graph.node if n.domain not in ("", "ai.onnx") or n.op_type not in supported
    }
    m = retarget(case.model)
    if m is None:  # not run even with every op supported
        return CaseResult("opset", str(_opset(case.model)))
    if missing:
        return CaseResult("unsupported", ",".join(sorted(missing)))
    frozen = freeze_static_inputs(m, case.data_sets)
    if frozen is None:
        return CaseResult("runtime static input", "")
    m, data_sets = frozen
    try:
        module = import_model(m, f"{case.name}.onnx")
    except OnnxImportError as e:
        return CaseResult("fail", f"import: {e}")
    for inputs, outputs in data_sets:
        try:
            got = run_module(module, [np.asarray(a) for a in inputs])
        except Exception as e:  # the reference's own errors, reported per case
            return CaseResult("fail", f"reference: {type(e).__name__}: {' '.join(str(e).split())[:160]}")
        for k, (g, w) in enumerate(zip(got, outputs)):
            w = np.asarray(w)
            if not _matches(g, w, case.rtol, case.atol):
                return CaseResult("fail", f"output {k}: got {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}")
    return CaseResult("pass", "", module, data_sets)


def within_bound(got: np.ndarray, want: np.ndarray, rtol: float, atol: float, bound: np.ndarray) -> np.ndarray:
    """Elementwise: |got - want| <= atol + rtol*|want| + bound (floats, NaN equal to NaN,
    an infinite bound admits any value), got == want (integers and bools)."""
    if not is_float_dtype(want.dtype):
        return got == want
    a, b = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore"):
        return (
            (np.abs(a - b) <= atol + rtol * np.abs(b) + bound)
            | (a == b)
            | (np.isnan(a) & np.isnan(b))
            | np.isinf(bound)
        )


def run_compiled(case, r: CaseResult, streams: int) -> str:
    """'' when ge-compile{streams} + the simulator give the expected outputs, else why not."""
    assert r.module is not None
    try:
        compiled = api.compile(r.module, streams=streams)
    except Exception as e:  # a pass's error, reported per case
        return f"compile: {type(e).__name__}: {' '.join(str(e).split())[:200]}"
    model = compiled.model()
    executor = None
    if model is None:
        # values computed in the graph that stay unknown until the data arrives (issue 28):
        # ge-partition-dynamic's module, run by the dynamic executor as ge-run does
        from runtime.dynamic_executor import DynamicExecutor

        try:
            executor = DynamicExecutor(compiled.module)
        except Exception as e:
            return f"compile: ge-compile built no npu.model, nor a module the dynamic executor runs: {e}"
    graph = select_graph(r.module, None)
    for inputs, outputs in r.data_sets:
        inputs = [np.asarray(a) for a in inputs]
        try:
            if executor is not None:
                got = executor.execute([np.array(a, copy=True) for a in inputs])
            else:
                got = api.simulate(model, inputs).outputs
        except Exception as e:
            return f"simulator: {type(e).__name__}: {' '.join(str(e).split())[:200]}"
        bounds = output_error_bounds(graph, inputs)
        if len(got) != len(outputs):
            return f"{len(got)} outputs, want {len(outputs)}"
        for k, (g, w, e) in enumerate(zip(got, outputs, bounds)):
            w = np.asarray(w)
            if g.dtype != w.dtype or g.shape != w.shape:
                return f"output {k}: got {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
            ok = within_bound(g, w, case.rtol, case.atol, e)
            if not ok.all():
                first = tuple(int(i) for i in np.argwhere(~ok)[0])
                return (
                    f"streams={streams} output {k}: {int(np.count_nonzero(~ok))} of {ok.size} elements differ; "
                    f"first at {list(first)}: got {g[first]}, want {w[first]}"
                )
    return ""


@pytest.fixture(scope="module")
def corpus() -> list[tuple[object, CaseResult]]:
    return [(c, run_case(c)) for c in _collect()]


def test_node_corpus(corpus: list[tuple[object, CaseResult]], capsys: pytest.CaptureFixture[str]) -> None:
    results = {c.name: r for c, r in corpus}
    counts = collections.Counter(r.status for r in results.values())
    # the missing ops that would unlock the most cases (runnable cases missing exactly that op)
    single = collections.Counter(
        r.detail for r in results.values() if r.status == "unsupported" and "," not in r.detail
    )
    with capsys.disabled():
        print(
            f"\nONNX node corpus: {counts['pass']} of {len(corpus)} cases pass "
            f"(recorded {RECORDED_PASSES}); failing {counts['fail']}, not run: "
            f"{counts['unsupported']} with ops not imported yet, {counts['opset']} whose ops changed after opset {MAX_OPSET} "
            f"(or another domain), "
            f"{counts['runtime static input']} static inputs that vary"
        )
        for name, r in sorted(results.items()):
            if r.status == "fail":
                print(f"  FAIL {name}: {r.detail}")
        print("  most cases unlocked by one more op: " + ", ".join(f"{op} {n}" for op, n in single.most_common(15)))
    assert counts["pass"] >= RECORDED_PASSES, (
        f"{counts['pass']} node tests pass, fewer than the recorded {RECORDED_PASSES}"
    )


def test_node_corpus_compiled(corpus: list[tuple[object, CaseResult]], capsys: pytest.CaptureFixture[str]) -> None:
    failures: dict[str, str] = {}
    passed = 0
    for case, r in corpus:
        if r.status != "pass":
            continue
        why = run_compiled(case, r, 1) or run_compiled(case, r, 2)
        if why:
            failures[case.name] = why
        else:
            passed += 1
    unexpected = {n: w for n, w in failures.items() if n not in COMPILED_REFUSED or COMPILED_REFUSED[n][0] not in w}
    stale = sorted(n for n in COMPILED_REFUSED if n not in failures)
    with capsys.disabled():
        print(
            f"\nONNX node corpus, compiled (ge-compile + simulator, 1 and 2 streams): {passed} cases pass "
            f"(recorded {RECORDED_COMPILED_PASSES}), {len(failures)} fail, {len(COMPILED_REFUSED)} listed as refused"
        )
        for name, why in sorted(failures.items()):
            print(f"  {'REFUSED' if name not in unexpected else 'FAIL'} {name}: {why}")
    assert not unexpected, f"{len(unexpected)} cases fail the compiled path: {sorted(unexpected)[:10]}"
    assert not stale, f"COMPILED_REFUSED lists cases that now pass or are not run: {stale}"
    assert passed >= RECORDED_COMPILED_PASSES, (
        f"{passed} node tests pass compiled, fewer than the recorded {RECORDED_COMPILED_PASSES}"
    )
