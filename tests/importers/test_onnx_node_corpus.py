"""ONNX's backend node tests as a user hands them over: each case's model file, unchanged,
through ge-run's own path, compared with the case's expected outputs and with the
reference interpreter.

A case is a model file and its data sets (inputs and expected outputs), as ONNX's wheel
ships them (`onnx/backend/test/data/node/<case>/model.onnx`,
`test_data_set_<k>/{input,output}_<i>.pb`; onnx 1.17.0's wheel has 1,288) or as the
installed onnx builds them (`onnx.backend.test.case.node.collect_testcases()`: onnx 1.23's
wheel ships no data files; each model is written to a file first). Nothing is changed:
no opset re-stamped, no input frozen into an initializer. Each case goes where
`ge-run MODEL.onnx --input ...` goes, through the functions ge-run calls (ge_tools/api.py):

* `api.load`: the ONNX import (ge_tools/import_onnx.py: load_model_or_text), verified and
  named as ge-run reads its input;
* `api.simulate`: ge-compile and the device simulator on the npu.model, or, for a graph
  ge-run runs dynamically, ge-run's compile_dynamic and the dynamic executor;
* `api.reference`: the reference interpreter.

A case *matches* when, on every data set, every simulated output has the expected dtype
and shape and each element is within the case's rtol/atol of the expected value plus the
element's error bound (runtime/error_bound.py: how far a correct compiled program may be
from the reference), and the reference's outputs match the expected ones within the
case's rtol/atol; it is *refused* when the import or the compile says why in one line
(the tools' UserError / DiagnosticException: what ge-run prints and exits 1 with); it is
*wrong* when a number differs, and a *crash* when anything else is raised. The test prints
how many match and the refusals grouped by reason; it fails on any wrong number or crash,
and when fewer cases match than recorded (raise the record when more match: it may only
grow). A case whose expected outputs both the installed onnx's reference and onnxruntime
contradict, giving our reference's numbers, is *disputed*: the data's own error (onnx
1.17's int8 QLinearMatMul outputs wrap around where both saturate), listed, not a match.

`test_node_corpus[k]` runs the installed onnx's cases of shard k (RECORDED_MATCHES_BY_SHARD;
the shards let pytest-xdist run them on every core). Set
GE_ONNX_NODE_DATA to a wheel's node data directory to run that instead (for onnx 1.17.0's:
`pip download --no-deps onnx==1.17.0`, unzip `onnx/backend/test/data/node`); the counts on
it are RECORDED_MATCHES_1_17_BY_SHARD. `python tests/importers/test_onnx_node_corpus.py DIR
[CASE ...]` prints the same report for a directory (or the named cases of it), all shards.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import re
import sys
import tempfile
import warnings
import zlib
from collections.abc import Iterator, Sequence

import numpy as np
import onnx
import pytest
from onnx import numpy_helper
from xdsl.utils.exceptions import DiagnosticException

from ge_dialect.dtypes import is_float_dtype
from ge_tools import api
from ge_tools.parse import UserError
from runtime.error_bound import output_error_bounds
from runtime.reference import select_graph

# The cases run in SHARDS pytest tests (test_node_corpus[k]), for pytest-xdist to spread
# them over the cores; a case's shard is the CRC-32 of its name modulo SHARDS (stable as
# cases come and go). Each shard's matches are recorded: a shard fails when fewer match,
# so the total can only drop where a shard does.
SHARDS = 8
# cases of the installed onnx's collect_testcases() that match, per shard (onnx 1.23.2:
# 1,884 cases, 1,020 match; the refusals grouped by reason are printed by the test)
RECORDED_MATCHES_BY_SHARD = (111, 116, 134, 112, 135, 143, 129, 140)
# cases of onnx 1.17.0's wheel data (1,288) that match, per shard (1,001; 344 before issue 28's ops)
RECORDED_MATCHES_1_17_BY_SHARD = (111, 117, 141, 110, 137, 132, 110, 143)
RECORDED_MATCHES = sum(RECORDED_MATCHES_BY_SHARD)
RECORDED_MATCHES_1_17 = sum(RECORDED_MATCHES_1_17_BY_SHARD)

# ONNX's backend runner's default tolerances (onnx/backend/test/runner: assert_similar_outputs)
RTOL, ATOL = 1e-3, 1e-7


@dataclasses.dataclass
class Case:
    name: str
    model_path: str
    data_sets: list[tuple[list[object], list[object]]]  # (inputs, expected outputs), input order
    rtol: float = RTOL
    atol: float = ATOL


@dataclasses.dataclass
class Outcome:
    status: str  # 'match' | 'refused' | 'wrong' | 'crash'
    detail: str = ""


def _read_value(path: str, elem: int) -> object:
    """A data file of a value of ONNX element type `elem`: a TensorProto as a numpy array,
    else (elem 0: a sequence, an optional, a map) its bytes (ge-run takes tensors only, and
    the import refuses such a model). onnx 1.17's files hold bfloat16 and float8 values as
    uint16 / uint8 tensors (numpy had no such dtypes): their bits are read as the type."""
    with open(path, "rb") as f:
        data = f.read()
    if not elem:
        return data
    t = onnx.TensorProto()
    t.ParseFromString(data)
    a = numpy_helper.to_array(t)
    if elem < 0:  # a file beyond the model's values: as stored
        return a
    want = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem))
    if a.dtype != want and a.dtype.kind == "u" and a.dtype.itemsize == want.itemsize:
        a = a.view(want)
    return a


def _elem_types(m: onnx.ModelProto) -> tuple[list[int], list[int]]:
    """The element type of each graph input (not an initializer) and output; 0: not a tensor."""
    inits = {t.name for t in m.graph.initializer}

    def elem(vi: onnx.ValueInfoProto) -> int:
        return vi.type.tensor_type.elem_type if vi.type.HasField("tensor_type") else 0

    return [elem(vi) for vi in m.graph.input if vi.name not in inits], [elem(vi) for vi in m.graph.output]


def _data_files(d: str, prefix: str, elems: list[int]) -> list[object]:
    """`d`'s files `<prefix>0.pb`, `<prefix>1.pb`, ..., read as values of `elems`' types."""
    n = sum(f.startswith(prefix) for f in os.listdir(d))
    return [_read_value(os.path.join(d, f"{prefix}{i}.pb"), elems[i] if i < len(elems) else -1) for i in range(n)]


def cases_in(directory: str, shard: int | None = None) -> Iterator[Case]:
    """The cases of a wheel's node data directory (those of `shard` when given), in name order."""
    for name in sorted(os.listdir(directory)):
        if shard is not None and shard_of(name) != shard:
            continue
        d = os.path.join(directory, name)
        model = os.path.join(d, "model.onnx")
        if not os.path.isfile(model):
            continue
        kinds = _elem_types(onnx.load(model, load_external_data=False))
        sets = [
            (_data_files(os.path.join(d, s), "input_", kinds[0]), _data_files(os.path.join(d, s), "output_", kinds[1]))
            for s in sorted(x for x in os.listdir(d) if x.startswith("test_data_set_"))
        ]
        yield Case(name, model, sets)


def installed_cases(tmp: str, shard: int | None = None) -> Iterator[Case]:
    """The installed onnx's node cases (those of `shard` when given), each model written to
    a file under `tmp`."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from onnx.backend.test.case.node import collect_testcases

        collected = collect_testcases()
    for c in collected:
        if shard is not None and shard_of(c.name) != shard:
            continue
        path = os.path.join(tmp, f"{c.name}.onnx")
        onnx.save(c.model, path)
        yield Case(c.name, path, [(list(i), list(o)) for i, o in c.data_sets], c.rtol, c.atol)


def _within(got: np.ndarray, want: np.ndarray, rtol: float, atol: float, bound: np.ndarray | float) -> np.ndarray:
    """Elementwise: |got - want| <= atol + rtol*|want| + bound (floats, NaN equal to NaN;
    an infinite bound is undecidable, never a match: ge-run's rule), got == want (integers
    and bools)."""
    if not is_float_dtype(want.dtype):
        return got == want
    a, b = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore"):
        return (
            (np.abs(a - b) <= atol + rtol * np.abs(b) + bound) | (a == b) | (np.isnan(a) & np.isnan(b))
        ) & ~np.isinf(bound)


def _differs(what: str, got: Sequence[np.ndarray], want: Sequence[object], rtol: float, atol: float, bounds) -> str:
    """'' when `got` matches `want`, else the first difference."""
    if len(got) != len(want):
        return f"{what}: {len(got)} outputs, want {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        w = np.asarray(w)
        if g.dtype != w.dtype or g.shape != w.shape:
            return f"{what} output {k}: {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
        ok = _within(g, w, rtol, atol, bounds[k] if bounds is not None else 0.0)
        if not ok.all():
            first = tuple(int(i) for i in np.argwhere(~ok)[0])
            return f"{what} output {k}: {int(np.count_nonzero(~ok))} of {ok.size} differ; at {list(first)} {g[first]}, want {w[first]}"
    return ""


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())


def _data_disputed(case: Case, inputs: Sequence[object], ours: Sequence[np.ndarray], bounds) -> bool:
    """Whether a case's expected outputs are the data's own error: the installed onnx's
    reference (ReferenceEvaluator) and onnxruntime both give our reference's outputs on the
    case's inputs (onnx 1.17's int8 QLinearMatMul data wrap around where both saturate)."""
    import onnxruntime as ort
    from onnx.reference import ReferenceEvaluator

    m = onnx.load(case.model_path)
    names = [i.name for i in m.graph.input if i.name not in {t.name for t in m.graph.initializer}]
    feeds = dict(zip(names, inputs))
    try:
        others = [
            ReferenceEvaluator(m).run(None, feeds),
            ort.InferenceSession(case.model_path, providers=["CPUExecutionProvider"]).run(None, feeds),
        ]
    except Exception:  # either cannot run the case: nothing disputes the data
        return False
    return all(not _differs("other", ours, o, case.rtol, case.atol, bounds) for o in others)


def run_case(case: Case) -> Outcome:
    """`case` through ge-run's path: import, compile, simulate, compare (see the module doc)."""
    try:
        module = api.load(case.model_path)
        graph = select_graph(module, None)
        for inputs, expected in case.data_sets:
            if any(not isinstance(a, np.ndarray) for a in (*inputs, *expected)):
                return Outcome("refused", "a data set holds a sequence, optional or map value")
            ref = api.reference(module, inputs)
            # the expected outputs are another implementation's, which may round each op on
            # its own (an f16 op in f16 or in f32): ge-run's bound against onnxruntime
            ref_bounds = output_error_bounds(graph, [np.asarray(a) for a in inputs], independent=True)
            finite = [np.where(np.isinf(b), np.finfo(np.float64).max, b) for b in ref_bounds]
            if why := _differs("reference", ref, expected, case.rtol, case.atol, finite):
                if _data_disputed(case, inputs, ref, finite):
                    return Outcome("disputed", why)
                return Outcome("wrong", why)
            got = api.simulate(module, inputs).outputs
            bounds = output_error_bounds(graph, [np.asarray(a) for a in inputs])
            if why := _differs("simulator", got, expected, case.rtol, case.atol, bounds):
                # an element whose bound is infinite is undecidable (ge-run: "comparison
                # inconclusive"): not a match, and not a wrong number unless one elsewhere is
                finite = [np.where(np.isinf(b), np.finfo(np.float64).max, b) for b in bounds]
                if _differs("simulator", got, expected, case.rtol, case.atol, finite):
                    return Outcome("wrong", why)
                return Outcome("inconclusive", why)
    except (UserError, DiagnosticException) as e:
        return Outcome("refused", _one_line(e))
    except Exception as e:  # anything else is a crash: ge-run would print "internal error"
        return Outcome("crash", f"{type(e).__name__}: {_one_line(e)[:300]}")
    return Outcome("match")


# A refusal's reason: its message with the file, node names, values and shapes taken out.
_REASON_EDITS = [
    (re.compile(r"^\S+?(:\d+:\d+)?: "), ""),  # the FILE:LINE:COL or MODEL prefix
    (re.compile(r"node '[^']*' "), "node "),
    (re.compile(r"input '[^']*'"), "input"),
    (re.compile(r"'[^']*'"), "'_'"),
    (re.compile(r"\[[^\]]*\]"), "[_]"),
    (re.compile(r"-?\d+(\.\d+)?"), "N"),
]


def reason(detail: str) -> str:
    for pattern, repl in _REASON_EDITS:
        detail = pattern.sub(repl, detail)
    return detail[:150]


def report(outcomes: dict[str, Outcome], recorded: int, source: str) -> str:
    counts = collections.Counter(o.status for o in outcomes.values())
    lines = [
        f"ONNX node tests handed over unchanged ({source}): {counts['match']} of {len(outcomes)} match "
        f"(recorded {recorded}); refused {counts['refused']}, inconclusive {counts['inconclusive']}, "
        f"disputed data {counts['disputed']}, "
        f"wrong {counts['wrong']}, crash {counts['crash']}"
    ]
    for status in ("wrong", "crash", "inconclusive", "disputed"):
        lines += [f"  {status.upper()} {n}: {o.detail}" for n, o in sorted(outcomes.items()) if o.status == status]
    reasons = collections.Counter(reason(o.detail) for o in outcomes.values() if o.status == "refused")
    lines.append("  refusals by reason:")
    lines += [f"  {n:5d}  {r}" for r, n in reasons.most_common()]
    return "\n".join(lines)


def run_all(cases: Iterator[Case]) -> dict[str, Outcome]:
    return {c.name: run_case(c) for c in cases}


def shard_of(name: str) -> int:
    return zlib.crc32(name.encode()) % SHARDS


@pytest.mark.parametrize("shard", range(SHARDS))
def test_node_corpus(shard: int, capsys: pytest.CaptureFixture[str]) -> None:
    directory = os.environ.get("GE_ONNX_NODE_DATA")
    with tempfile.TemporaryDirectory() as tmp:
        if directory:
            outcomes, recorded = run_all(cases_in(directory, shard)), RECORDED_MATCHES_1_17_BY_SHARD[shard]
            source = f"{directory}, shard {shard} of {SHARDS}"
        else:
            outcomes, recorded = run_all(installed_cases(tmp, shard)), RECORDED_MATCHES_BY_SHARD[shard]
            source = f"installed onnx, shard {shard} of {SHARDS}"
    with capsys.disabled():
        print("\n" + report(outcomes, recorded, source))
    bad = sorted(n for n, o in outcomes.items() if o.status in ("wrong", "crash"))
    assert not bad, f"{len(bad)} node tests give a wrong number or crash: {bad[:10]}"
    matches = sum(o.status == "match" for o in outcomes.values())
    assert matches >= recorded, f"{matches} node tests of shard {shard} match, fewer than the recorded {recorded}"


def test_shards_cover_the_cases_once() -> None:
    # every case is in exactly one shard, and the shards' records add up to the totals
    names = [f"test_case_{k}" for k in range(200)]
    assert sorted(n for k in range(SHARDS) for n in names if shard_of(n) == k) == sorted(names)
    assert len({shard_of(n) for n in names}) == SHARDS
    assert len(RECORDED_MATCHES_BY_SHARD) == len(RECORDED_MATCHES_1_17_BY_SHARD) == SHARDS


if __name__ == "__main__":
    only = sys.argv[2:]
    results = run_all(c for c in cases_in(sys.argv[1]) if not only or c.name in only)
    print(report(results, RECORDED_MATCHES_1_17, sys.argv[1]))
