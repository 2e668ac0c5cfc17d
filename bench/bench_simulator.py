"""bench: the device simulator against the reference interpreter on a graph moving 64 MB.

    .venv/bin/python bench/bench_simulator.py [--side 2896] [--repeat 3]

The graph (generated here) is x -> Relu -> Mul(r, r) -> output on a side x side f32 tensor
(32 MB at 2896). ge-autofuse fuses it into one AscBackend kernel that reads 32 MB and
writes 32 MB per execution: 64 MB moved, issue 6's size. It is compiled
with ge-compile (ge_tools/registry.py), loaded once on runtime/simulator.py, and executed
with fresh input buffers; the reference interpreter evaluates the original graph on the
same inputs. Printed: both times (best of --repeat) and simulator / reference (target
<= 3), and that the outputs are equal. A second ratio divides by the reference
interpreter run on the graph after the compile passes before ge-assign-memory (the same
kernels, e.g. AscBackends when ge-lower-autofuse is in the pipeline), which isolates the
simulator's own cost (views, shadow memory, clocks) from the kernels' interpreters.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ge_dialect import npu
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from ge_tools.pipeline import GeCompilePass
from runtime.interpreter import run_graph
from runtime.reference import select_graph
from runtime.simulator import load


def graph_text(side: int) -> str:
    t = f"tensor<{side}x{side}xf32>"
    return f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : {t}
  %r = ge.Relu(%x) : ({t}) -> {t}
  %y = ge.Mul(%r, %r) : ({t}, {t}) -> {t}
  ge.NetOutput %y : {t}
}}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", type=int, default=2896)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    opt = GeOptMain(["-p", "ge-compile"])
    module = parse_module(opt.ctx, graph_text(args.side), "bench_simulator.mlir")
    module.verify()
    graph = select_graph(module)
    compiled = module.clone()
    opt.apply_passes(compiled)
    model = next(o for o in compiled.ops if isinstance(o, npu.ModelOp))
    before = [str(p) for p in GeCompilePass().passes() if p.name not in ("ge-assign-memory", "ge-to-npu")]
    lowered = module.clone()
    GeOptMain(["-p", ",".join(before)]).apply_passes(lowered)
    lowered_graph = select_graph(lowered)
    loaded = load(model)
    x = np.random.default_rng(0).uniform(-1, 1, (args.side, args.side)).astype(np.float32)
    t_sim, t_ref, t_low = [], [], []
    out = ref = None
    for _ in range(args.repeat):
        xin = x.copy()
        t0 = time.perf_counter()
        out = loaded.execute([xin])
        t_sim.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        ref = run_graph(graph, [x])
        t_ref.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        run_graph(lowered_graph, [x])
        t_low.append(time.perf_counter() - t0)
    st = loaded.last_stats
    moved = st.kernel_bytes_read + st.kernel_bytes_written + st.memcpy_bytes
    assert out is not None and ref is not None
    same = all(np.array_equal(a, b) for a, b in zip(out, ref))
    print(f"pipeline: {','.join(str(p) for p in opt.pipeline.passes)}")
    print(f"bytes moved per execution: {moved / 2**20:.1f} MB ({sum(st.tasks_by_kind.values())} tasks)")
    print(f"simulator execute: {min(t_sim) * 1e3:.1f} ms, reference interpreter: {min(t_ref) * 1e3:.1f} ms")
    print(f"ratio simulator / reference: {min(t_sim) / min(t_ref):.2f} (target <= 3); outputs equal: {same}")
    print(
        f"ratio simulator / reference on the same kernels ({','.join(before)}): "
        f"{min(t_sim) / min(t_low):.2f} ({min(t_low) * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
