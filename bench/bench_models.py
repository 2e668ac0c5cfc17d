"""ge-xdsl's phases beside onnxruntime's on the real-network suite, measured in one process.

    python bench/bench_models.py [NAME ...] [--repeat 3] [--json PATH]

For each network of ge_tools/networks.py (default: all; needs the `models` extra), exported
as it comes with its default exporter to a temporary directory (not timed), this prints, in
CPU seconds of this one process (time.process_time; the machine's other load does not
count, and a ratio of two figures taken side by side is what is compared across runs):

  import + compile    api.load (ONNX import) then api.compile (ge-compile)
  ort session         onnxruntime.InferenceSession creation (default optimizations)
  simulate            one execution of the compiled program on the device simulator,
                      every memory check on (load excluded: it happens once per model),
                      on its load-time check plan and compiled AscGraph kernels
  plain               the same on the simulator's rules and AscGraph interpreter alone
                      (load(plan=False), GE_SIM_PLAIN=1): what the plan saves
  ort run             one onnxruntime inference

and the two ratios the performance targets are about: (import + compile) / ort session
(target <= 2) and simulate / ort run (target <= 10). Each figure is the minimum over
`--repeat` rounds; an execution (simulate, plain, ort run) is timed in a batch of calls back
to back of at least 50 ms CPU, per call (a 50 us onnxruntime inference timed alone moves
1.5 x between runs). Under each network, where one more execution spent its CPU time: per
kernel type (the GE type of a library kernel, `AscGraph` for a fused kernel) and `checks`
(the rest: scheduling, address refresh, the memory checks, memcpy tasks' copies). A network that
does not import or compile is listed with its error line. A benchmark reports; it never
fails on a missed target.

Both sides run on one thread: onnxruntime's session with intra_op_num_threads = 1, and
numpy's BLAS with OPENBLAS_NUM_THREADS / OMP_NUM_THREADS = 1 (set here before numpy loads,
unless the environment sets them): a spinning second BLAS thread doubles the CPU time of a
small GEMM without making it faster.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before numpy loads its BLAS (module doc)

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ge_tools import api  # noqa: E402
from ge_tools.networks import NETWORKS, export  # noqa: E402


def _cpu(fn: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t)
    return best, result


# An execution is timed in a batch of at least this much CPU time (calls back to back):
# onnxruntime runs a transformer in 30 to 60 us, where one call's time moves 1.5 x between
# runs (its caches, the clock's granularity against the call's length)
BATCH_S = 0.05


def _cpu_per_call(fn: Callable[[], object], repeat: int) -> float:
    """The CPU seconds of one call of `fn`: the minimum over `repeat` batches of calls (each
    at least BATCH_S, calibrated on one call made first) of the batch's time per call."""
    t = time.process_time()
    fn()
    k = max(1, round(BATCH_S / max(time.process_time() - t, 1e-6)))
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(k):
            fn()
        best = min(best, (time.process_time() - t) / k)
    return best


def measure(name: str, path: str, repeat: int) -> dict[str, object]:
    import onnxruntime as ort

    from ge_tools.run import random_inputs
    from runtime.reference import select_graph
    from runtime.simulator import load

    def import_compile() -> api.CompileResult:
        return api.compile(api.load(path))

    t_compile, compiled = _cpu(import_compile, repeat)
    assert isinstance(compiled, api.CompileResult)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    t_session, session = _cpu(lambda: ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"]), repeat)
    assert isinstance(session, ort.InferenceSession)
    module = api.load(path)
    graph = select_graph(module, None)
    inputs = random_inputs(graph, np.random.default_rng(0))  # ge-run's own inputs of seed 0
    feeds = {i.name: a for i, a in zip(session.get_inputs(), inputs, strict=True)}
    t_ort_run = _cpu_per_call(lambda: session.run(None, feeds), repeat)
    model = compiled.model(graph.sym_name.data)
    assert model is not None
    # one load, then `repeat` executions: the execution alone is timed (GE loads a model once)
    loaded = load(model, plan=True)
    t_sim = _cpu_per_call(lambda: loaded.execute([np.array(a, copy=True) for a in inputs]), repeat)
    by_kind = breakdown(loaded, inputs)
    plain = load(model, plan=False)
    t_plain = _cpu_per_call(lambda: plain.execute([np.array(a, copy=True) for a in inputs]), repeat)
    return {
        "network": name,
        "import_compile_s": t_compile,
        "ort_session_s": t_session,
        "simulate_s": t_sim,
        "simulate_plain_s": t_plain,
        "ort_run_s": t_ort_run,
        "compile_ratio": t_compile / t_session,
        "simulate_ratio": t_sim / t_ort_run,
        "simulate_plain_ratio": t_plain / t_ort_run,
        "simulate_by_kind_s": by_kind,
    }


def breakdown(loaded: object, inputs: list[np.ndarray]) -> dict[str, float]:
    """CPU seconds of one more execution of `loaded` per kernel type (a library kernel's GE
    type, `AscGraph`), and `checks` for the rest (scheduling, refresh, checks, memcpy)."""
    from runtime.simulator import LoadedModel

    assert isinstance(loaded, LoadedModel)
    spent: dict[str, float] = {}
    defs = loaded.model.kernel_defs()
    saved = [(t, t.run) for t in loaded.tasks if t.run is not None]
    for t, run in saved:
        k = defs[t.op.kernel.root_reference.data]  # type: ignore[attr-defined]
        kind = k.ge_type.data if k.ge_type is not None else "AscGraph"

        def timed(args: object, dst: object, run: object = run, kind: str = kind) -> object:
            t0 = time.process_time()
            try:
                return run(args, dst)  # type: ignore[operator]
            finally:
                spent[kind] = spent.get(kind, 0.0) + time.process_time() - t0

        t.run = timed
    try:
        t0 = time.process_time()
        loaded.execute([np.array(a, copy=True) for a in inputs])
        total = time.process_time() - t0
    finally:
        for t, run in saved:
            t.run = run
    out = dict(sorted(spent.items(), key=lambda kv: -kv[1]))
    out["checks"] = max(total - sum(spent.values()), 0.0)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*", help="networks (default: all)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", help="write the figures as JSON here")
    args = p.parse_args()
    rows: list[dict[str, object]] = []
    print(
        f"{'network':20} {'import+compile':>14} {'ort session':>11} {'ratio':>6}   {'simulate':>9} {'ort run':>8} "
        f"{'ratio':>6}   {'plain':>9} {'ratio':>6}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.names or list(NETWORKS):
            path = str(Path(tmp) / f"{name}.onnx")
            try:
                export(name, path)
                row = measure(name, path, args.repeat)
            except Exception as e:  # a network that does not get in is reported, not fatal
                line = str(e).splitlines()[0] if str(e) else type(e).__name__
                print(f"{name:20} not measured: {line[:200]}")
                rows.append({"network": name, "error": line})
                continue
            rows.append(row)
            print(
                f"{name:20} {row['import_compile_s']:14.3f} {row['ort_session_s']:11.3f} {row['compile_ratio']:6.1f}"
                f"   {row['simulate_s']:9.4f} {row['ort_run_s']:8.4f} {row['simulate_ratio']:6.1f}"
                f"   {row['simulate_plain_s']:9.4f} {row['simulate_plain_ratio']:6.1f}"
            )
            kinds = row["simulate_by_kind_s"]
            assert isinstance(kinds, dict)
            print(f"{'':20} simulate by kind: " + ", ".join(f"{k} {v * 1e3:.1f} ms" for k, v in kinds.items()))
    done = [r for r in rows if "error" not in r]
    if done:
        cr = [float(r["compile_ratio"]) for r in done]  # type: ignore[arg-type]
        sr = [float(r["simulate_ratio"]) for r in done]  # type: ignore[arg-type]
        pr = [float(r["simulate_plain_ratio"]) for r in done]  # type: ignore[arg-type]
        print(
            f"compile ratio median {np.median(cr):.1f} (max {max(cr):.1f}, target <= 2); "
            f"simulate ratio median {np.median(sr):.1f} (max {max(sr):.1f}, target <= 10; "
            f"plain {np.median(pr):.1f}, max {max(pr):.1f}); load average {os.getloadavg()[0]:.1f}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
