"""The AscGraph interpreter against the same computation written directly in numpy.

    python bench/bench_ascgraph_interp.py [--elements 1048576] [--repeat 5]

Builds one ge.AscBackend over a 1-D f32 tensor (Data, Load, Add(Load, Load), Abs, Exp,
Store, Output: GE's SimpleAddAbsExpWithCse on `--elements` elements), then times, best
of `--repeat` each, in one process: (a) `run_asc_backend` on it (on one `ge_interpreter`), (b) `np.exp(np.abs(x + x))`.
Checks the two results are equal, prints both times and the ratio interpreter/numpy
against the target (<= 3.0) with PASS/FAIL text. A benchmark reports; it never fails the
exit code.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402

from ge_dialect import ge  # noqa: E402
from ge_tools.parse import parse_module  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from runtime.ascgraph_interp import run_asc_backend  # noqa: E402
from runtime.interpreter import ge_interpreter  # noqa: E402

TARGET = 3.0


def asc_backend_text(n: int) -> str:
    t = f"!ascgraph.tensor<f32, axis = [0], repeats = [{n}], strides = [1]>"
    s = "{sched.axis = [0]}"
    return f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<{n}xf32>
  %y = ge.AscBackend(%x) {{fuse_type = "pointwise", fusion_nodes_size = 7}} : (tensor<{n}xf32>) -> tensor<{n}xf32> {{
    ascgraph.graph @autofuse_pointwise_0_Add_Abs_Exp axis = [0: z0 = {n}] {{
      %data = ascgraph.Data {{index = 0}} : {t}
      %load = ascgraph.Load(%data) {s} : {t}
      %add = ascgraph.Add(%load, %load) {s} : {t}
      %abs = ascgraph.Abs(%add) {s} : {t}
      %exp = ascgraph.Exp(%abs) {s} : {t}
      %store = ascgraph.Store(%exp) {s} : {t}
      %out = ascgraph.Output(%store) {{index = 0}} : {t}
    }}
  }}
  ge.NetOutput %y : tensor<{n}xf32>
}}"""


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elements", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    module = parse_module(make_context(), asc_backend_text(args.elements), "bench.mlir")
    module.verify()
    op = next(o for o in module.walk() if isinstance(o, ge.AscBackend))
    x = np.random.default_rng(0).standard_normal(args.elements).astype(np.float32)

    ip = ge_interpreter(module)
    (got,) = run_asc_backend(ip, op, [x])
    want = np.exp(np.abs(x + x))
    equal = np.array_equal(got, want)

    t_interp = best_of(lambda: run_asc_backend(ip, op, [x]), args.repeat)
    t_numpy = best_of(lambda: np.exp(np.abs(x + x)), args.repeat)
    ratio = t_interp / t_numpy
    print(f"elements: {args.elements} (f32), best of {args.repeat}")
    print(f"AscGraph interpreter (Load, Add, Abs, Exp, Store): {t_interp * 1e3:.2f} ms")
    print(f"numpy np.exp(np.abs(x + x)):                       {t_numpy * 1e3:.2f} ms")
    print(f"results equal: {equal}")
    print(
        f"ratio interpreter/numpy: {ratio:.2f} (target <= {TARGET}) {'PASS' if ratio <= TARGET and equal else 'FAIL'}"
    )


if __name__ == "__main__":
    main()
