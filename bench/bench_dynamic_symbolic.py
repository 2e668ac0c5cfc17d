"""A transformer layer's vector part over `?` batch and `?` sequence at 8 sizes: one compile
over symbols plus 8 executions, against 8 static compiles plus 8 executions.

    python bench/bench_dynamic_symbolic.py [--hidden 64] [--json PATH]

The graph is examples/dynamic_transformer.mlir with its hidden size set to `--hidden`
(LayerNorm, a softmax over the hidden axis, a residual add, the mean over the sequence:
GE's decomposed ops, every one lowerable). Symbolic: ge-compile, then ge-symbolic-autofuse
for the first size's shapes, then the dynamic executor runs the 8 sizes (its guards
checked before each, the kernels tiled once per symbol values). Static: per size, the
graph with that batch and sequence written in, ge-compile, load on the simulator, one
execution. Both are timed warm (one untimed compile of each kind first: what is imported on
first use is not either side's cost). Printed: both totals and their ratio, the guard check's cost per execution,
and the fraction of the compute ops that ran inside device kernels. Each execution's
outputs are compared between the two (they must agree exactly: the same kernels' numbers).
A benchmark reports: it has no target and never fails on a time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import ml_dtypes  # noqa: F401  (the kernels' dtype tables load it lazily: imported up front, so neither side pays it)
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xdsl.passes import PassPipeline  # noqa: E402

from ge_dialect import ge  # noqa: E402
from ge_tools.api import parse_module  # noqa: E402
from ge_tools.pipeline import GeCompilePass, expand  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from ge_tools.run import compile_dynamic, simulate_model, symbolic_compile  # noqa: E402
from runtime.dynamic_executor import DynamicExecutor  # noqa: E402

SIZES = [(2, 3), (8, 16), (5, 7), (16, 32), (3, 64), (32, 5), (7, 9), (24, 48)]


def graph_text(hidden: int, batch: int | None = None, seq: int | None = None) -> str:
    text = (HERE.parent / "examples" / "dynamic_transformer.mlir").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    text = text.replace("x64x", f"x{hidden}x").replace("<64x", f"<{hidden}x").replace("?x64", f"?x{hidden}")
    if batch is not None:
        text = text.replace("?x?x", f"{batch}x{seq}x").replace("?x1x", f"{batch}x1x").replace("?x", f"{batch}x")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    ctx = make_context()
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((b, s, args.hidden)).astype(np.float32) for b, s in SIZES]

    # the op classes ge-symbolic-autofuse lowers by default, so both sides build the same kernels
    pipeline = PassPipeline(expand([GeCompilePass(enable_pass=("reduce", "concat", "split"))]))

    def symbolic() -> tuple[ge.GraphOp, object]:
        module = parse_module(graph_text(args.hidden))
        graph = next(g for g in module.ops if isinstance(g, ge.GraphOp))
        base = compile_dynamic(ctx, pipeline, module, graph)
        return graph, symbolic_compile(ctx, base, [inputs[0]], False)

    # warm-up, untimed: one compile of each kind first (the passes, stages and symengine are
    # imported on first use, and the side timed first paid it: 0.86x where warm is 1.9x)
    symbolic()
    pipeline.apply(ctx, parse_module(graph_text(args.hidden, *SIZES[0])))

    # -- symbolic: one compile, 8 executions ------------------------------------------------
    t0 = time.perf_counter()
    graph, compiled = symbolic()
    t1 = time.perf_counter()
    ex = DynamicExecutor(compiled)
    sym_outs = [ex.execute([x]) for x in inputs]
    t2 = time.perf_counter()
    guard_s = [h.guard_check_seconds for h in ex.history]
    kernels = [h.device_kernels for h in ex.history]
    host = [h.host_nodes for h in ex.history]
    compute_ops = sum(1 for op in graph.body.block.ops if not isinstance(op, ge.Data | ge.Const | ge.NetOutput))
    lowered = sum(
        len(op.attributes["origin_nodes"].data)  # type: ignore[attr-defined]
        for g in compiled.ops
        if isinstance(g, ge.GraphOp)
        for op in g.body.block.ops
        if isinstance(op, ge.AscBackend)
    )

    # -- static: 8 compiles, 8 executions ----------------------------------------------------
    t3 = time.perf_counter()
    static_compile = static_run = 0.0
    mismatches = 0
    for k, ((b, s), x) in enumerate(zip(SIZES, inputs)):
        a = time.perf_counter()
        m = parse_module(graph_text(args.hidden, b, s))
        mc = m.clone()
        pipeline.apply(ctx, mc)
        model = next(op for op in mc.walk() if op.name == "npu.model")
        c = time.perf_counter()
        sim = simulate_model(model, [x], ["y", "pool"], 1, ())  # type: ignore[arg-type]
        d = time.perf_counter()
        static_compile += c - a
        static_run += d - c
        for got, want in zip(sym_outs[k], [o.array for o in sim.runs[0]]):
            mismatches += int(np.sum(got != want))
    t4 = time.perf_counter()

    sym_total, static_total = t2 - t0, t4 - t3
    print(f"transformer layer vector part, hidden {args.hidden}, 8 sizes (batch x sequence): {SIZES}")
    print(f"symbolic: 1 compile {t1 - t0:.2f} s + 8 executions {t2 - t1:.2f} s = {sym_total:.2f} s")
    print(f"static:   8 compiles {static_compile:.2f} s + 8 executions {static_run:.2f} s = {static_total:.2f} s")
    print(f"static / symbolic: {static_total / sym_total:.2f}x")
    print(f"guard check per execution: {1e6 * sum(guard_s) / len(guard_s):.0f} us (sources, guards, asserts)")
    print(
        f"compute ops in device kernels: {lowered} of {compute_ops} ({lowered / compute_ops:.0%}); "
        f"device kernels per execution {kernels}, host nodes {host}"
    )
    print(f"outputs differing between symbolic and static kernels: {mismatches} elements")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "sizes": SIZES,
                    "symbolic_compile_s": t1 - t0,
                    "symbolic_run_s": t2 - t1,
                    "static_compile_s": static_compile,
                    "static_run_s": static_run,
                    "ratio": static_total / sym_total,
                    "guard_check_us": [1e6 * g for g in guard_s],
                    "device_kernel_fraction": lowered / compute_ops,
                    "host_nodes": host,
                    "mismatches": mismatches,
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
