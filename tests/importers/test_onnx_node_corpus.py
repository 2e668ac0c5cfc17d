"""ONNX's backend node tests as a corpus: every case whose ops we import runs on the
reference interpreter and must give ONNX's expected outputs.

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
"""

from __future__ import annotations

import collections
import warnings

import numpy as np
import onnx
import pytest
from onnx import defs, numpy_helper

from importers.onnx import MAX_OPSET, MIN_OPSET, STATIC_INPUTS, OnnxImportError, import_model, supported_ops
from runtime.interpreter import run_module

RECORDED_PASSES = 483


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


def run_case(case) -> tuple[str, str]:
    """('pass' | 'fail' | a reason it is not run, detail)."""
    supported = set(supported_ops())
    missing = {
        n.op_type for n in case.model.graph.node if n.domain not in ("", "ai.onnx") or n.op_type not in supported
    }
    m = retarget(case.model)
    if m is None:  # not run even with every op supported
        return "opset", str(_opset(case.model))
    if missing:
        return "unsupported", ",".join(sorted(missing))
    frozen = freeze_static_inputs(m, case.data_sets)
    if frozen is None:
        return "runtime static input", ""
    m, data_sets = frozen
    try:
        module = import_model(m, f"{case.name}.onnx")
    except OnnxImportError as e:
        return "fail", f"import: {e}"
    for inputs, outputs in data_sets:
        try:
            got = run_module(module, [np.asarray(a) for a in inputs])
        except Exception as e:  # the reference's own errors, reported per case
            return "fail", f"reference: {type(e).__name__}: {' '.join(str(e).split())[:160]}"
        for k, (g, w) in enumerate(zip(got, outputs)):
            w = np.asarray(w)
            if not _matches(g, w, case.rtol, case.atol):
                return "fail", f"output {k}: got {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
    return "pass", ""


def test_node_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    cases = _collect()
    results = {c.name: run_case(c) for c in cases}
    counts = collections.Counter(r for r, _ in results.values())
    # the missing ops that would unlock the most cases (runnable cases missing exactly that op)
    single = collections.Counter(d for r, d in results.values() if r == "unsupported" and "," not in d)
    with capsys.disabled():
        print(
            f"\nONNX node corpus: {counts['pass']} of {len(cases)} cases pass "
            f"(recorded {RECORDED_PASSES}); failing {counts['fail']}, not run: "
            f"{counts['unsupported']} with ops not imported yet, {counts['opset']} whose ops changed after opset {MAX_OPSET} "
            f"(or another domain), "
            f"{counts['runtime static input']} static inputs that vary"
        )
        for name, (r, d) in sorted(results.items()):
            if r == "fail":
                print(f"  FAIL {name}: {d}")
        print("  most cases unlocked by one more op: " + ", ".join(f"{op} {n}" for op, n in single.most_common(15)))
    assert counts["pass"] >= RECORDED_PASSES, (
        f"{counts['pass']} node tests pass, fewer than the recorded {RECORDED_PASSES}"
    )
