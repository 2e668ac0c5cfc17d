"""ge-autofuse: time against parsing on generated graphs, its growth, and fusion quality.

    python bench/bench_autofuse.py [--sizes 1000,4000,16000] [--seed 0] [--json PATH]
                                   [--global-sizes 1000,4000] [--global-kinds chain,...]
                                   [--seeds 0,1,2,3] [--via-compile] [--no-enumerate]

For each generated mixed graph (bench/gen_graphs.py) of 1k, 4k and 16k nodes, in one run:
parse time (xDSL Parser, ge + ascgraph dialects) and ge-autofuse time on a module already
lowered by ge-lower-autofuse (every op class on), as a ratio; the growth exponent of the
ge-autofuse time from 4k to 16k nodes, log(t16k / t4k) / log(4), against the target
<= 1.2 (near linear). Fusion quality for every example and generated graph: kernels before
and after ge-autofuse, and global-memory bytes moved by kernels (each kernel reads each
input once and writes each output once) divided by the ideal (graph inputs read once +
graph outputs written once), before and after. A benchmark reports; it never fails the
exit code on a missed target.

solver=global against greedy (passes/autofuse/global_solver.py), in the same run: for
every generated kind at each of --global-sizes, the fused-kernel bytes moved (each kernel
reads each distinct input once and writes each output once, after ge-autofuse) of global
divided by greedy's (at most 1.0 by construction), the windows where global won, and both
CPU times of the process, for each seed of --seeds (default: --seed), then per kind and
size the smallest, median and largest ratio over the seeds and the range of the CPU
ratios, and whether global was never worse. The passes before ge-autofuse are
ge-lower-autofuse with every class on, or with --via-compile ge-compile's own passes up
to its ge-autofuse, built by `ge-compile{fusion-solver=...}` (ge-run's --fusion-solver).
`--sizes ''` skips the quality and time figures. Then the enumeration check: on every
generated graph of 3 to 22 AscBackends (tests/lowering_graphs.py seeds 0 to 599 and
bench/gen_graphs.py kinds of 20 to 60 nodes), global's plan against the optimum of the test suite's independent exhaustive enumerator
(tests/passes/autofuse/plan_enumerator.py); `--enumerate-only` runs just that.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xdsl.context import Context  # noqa: E402
from xdsl.dialects.builtin import ModuleOp  # noqa: E402
from xdsl.parser import Parser  # noqa: E402
from xdsl.passes import ModulePass  # noqa: E402

from bench.gen_graphs import KINDS, generate  # noqa: E402
from ge_dialect.ge import GraphOp  # noqa: E402
from ge_tools.pipeline import GeCompilePass  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from lowering.lower_autofuse import OPTIONAL_CLASSES, LowerAutofusePass  # noqa: E402
from passes.autofuse.autofuse import AutofusePass, ideal_traffic, kernel_traffic  # noqa: E402
from runtime.reference import root_graphs  # noqa: E402

TARGET_EXPONENT = 1.2
LOWER = LowerAutofusePass(enable_pass=OPTIONAL_CLASSES)


def context() -> Context:
    return make_context()


def parse(text: str, name: str = "bench.mlir") -> ModuleOp:
    return Parser(context(), text, name).parse_module()


def quality(m: ModuleOp) -> tuple[int, int, int]:
    """(kernels, bytes moved, ideal bytes): kernels and their traffic over every graph;
    the ideal over the root graphs only (a called subgraph's inputs and outputs are the
    call's, which the caller's ideal already counts)."""
    k = b = 0
    for g in m.ops:
        if isinstance(g, GraphOp):
            kk, bb = kernel_traffic(g.body.block)
            k, b = k + kk, b + bb
    ideal = sum(ideal_traffic(g.body.block) for g in root_graphs(m))
    return k, b, ideal


def measure(text: str, name: str) -> dict:
    t0 = time.perf_counter()
    m = parse(text, name)
    t_parse = time.perf_counter() - t0
    LOWER.apply(context(), m)
    k0, b0, ideal = quality(m)
    t0 = time.perf_counter()
    AutofusePass().apply(context(), m)
    t_fuse = time.perf_counter() - t0
    k1, b1, _ = quality(m)
    return {
        "graph": name,
        "parse_s": t_parse,
        "autofuse_s": t_fuse,
        "kernels_before": k0,
        "kernels_after": k1,
        "bytes_before": b0,
        "bytes_after": b1,
        "ideal_bytes": ideal,
    }


def line(r: dict) -> str:
    ideal = max(r["ideal_bytes"], 1)
    return (
        f"{r['graph']:<28} kernels {r['kernels_before']:>6} -> {r['kernels_after']:<6} "
        f"bytes/ideal {r['bytes_before'] / ideal:6.2f} -> {r['bytes_after'] / ideal:6.2f}"
    )


def quality_and_time(sizes: list[int], seed: int) -> tuple[list[dict], float | None]:
    """Fusion quality on every example and the generated mixed graph of each size (seed
    `seed`), ge-autofuse's time against parsing, and its growth exponent 4k -> 16k."""
    results: list[dict] = []
    print("fusion quality (ge-lower-autofuse with every class on, then ge-autofuse):")
    for path in sorted((HERE.parent / "examples").glob("*.mlir")):
        r = measure(path.read_text(), path.name)
        results.append(r)
        print("  " + line(r))
    timing: dict[int, dict] = {}
    for n in sizes:
        r = measure(generate("mixed", n, seed), f"generated mixed {n}")
        timing[n] = r
        results.append(r)
        print("  " + line(r))
    print("time (one run each):")
    for n, r in timing.items():
        print(
            f"  {n:>6} nodes: parse {r['parse_s']:.3f}s, ge-autofuse {r['autofuse_s']:.3f}s, "
            f"ratio {r['autofuse_s'] / r['parse_s']:.2f}"
        )
    exponent = None
    if 4000 in timing and 16000 in timing:
        exponent = math.log(timing[16000]["autofuse_s"] / timing[4000]["autofuse_s"]) / math.log(4)
        verdict = "PASS" if exponent <= TARGET_EXPONENT else "FAIL"
        print(f"  growth exponent 4k -> 16k: {exponent:.2f} (target <= {TARGET_EXPONENT}: {verdict})")
    return results, exponent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,4000,16000")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--global-sizes", default="1000,4000", help="graph sizes of the global-vs-greedy figures")
    ap.add_argument("--global-kinds", default=",".join(KINDS), help="generated kinds of the global-vs-greedy figures")
    ap.add_argument("--seeds", help="comma-separated seeds of the global-vs-greedy figures (default: --seed)")
    ap.add_argument(
        "--via-compile", action="store_true",
        help="global vs greedy through ge-compile{fusion-solver=...}'s own passes up to ge-autofuse "
        "(its default enable-pass), not ge-lower-autofuse with every class on",
    )  # fmt: skip
    ap.add_argument("--enumerate-only", action="store_true", help="only the enumeration check")
    ap.add_argument("--no-enumerate", action="store_true", help="skip the enumeration check")
    args = ap.parse_args()
    if args.enumerate_only:
        enumeration_check()
        return
    sizes = [int(s) for s in args.sizes.split(",") if s]
    results: list[dict] = []
    exponent = None
    if sizes:  # `--sizes ''`: the global-vs-greedy figures only
        results, exponent = quality_and_time(sizes, args.seed)
    seeds = [int(x) for x in args.seeds.split(",") if x] if args.seeds else [args.seed]
    glob = global_vs_greedy(
        [int(x) for x in args.global_sizes.split(",") if x], args.global_kinds.split(","), seeds, args.via_compile
    )
    enum = None if args.no_enumerate else enumeration_check()
    if args.json:
        Path(args.json).write_text(
            json.dumps({"results": results, "exponent": exponent, "global": glob, "enumeration": enum}, indent=1)
        )


def before_autofuse(solver: str, via_compile: bool) -> tuple[list[ModulePass], ModulePass]:
    """The passes run before ge-autofuse, and ge-autofuse itself: ge-lower-autofuse with
    every class on, or (`via_compile`) ge-compile{fusion-solver=solver}'s own passes up to
    its ge-autofuse (the option's path through ge_tools/pipeline.py)."""
    if not via_compile:
        return [LOWER], AutofusePass(solver=solver)
    passes = list(GeCompilePass(fusion_solver=solver).passes())
    i = next(i for i, p in enumerate(passes) if isinstance(p, AutofusePass))
    return passes[:i], passes[i]


def fused_bytes(text: str, solver: str, name: str, via_compile: bool = False) -> tuple[int, float, list]:
    """(fused-kernel bytes over every graph, ge-autofuse CPU seconds of the process,
    global's window results). CPU time, not wall time: the machine may be shared."""
    from passes.autofuse import global_solver as gs

    m = parse(text, name)
    prefix, autofuse = before_autofuse(solver, via_compile)
    for p in prefix:
        p.apply(context(), m)
    windows: list = []
    orig = gs.GlobalSolver.fuse

    def keep(self, *a):  # noqa: ANN001, ANN202
        r = orig(self, *a)
        windows.extend(self.report.windows)
        return r

    gs.GlobalSolver.fuse = keep  # type: ignore[method-assign]
    try:
        t0 = time.process_time()
        autofuse.apply(context(), m)
        dt = time.process_time() - t0
    finally:
        gs.GlobalSolver.fuse = orig  # type: ignore[method-assign]
    moved = sum(kernel_traffic(g.body.block)[1] for g in m.ops if isinstance(g, GraphOp))
    return moved, dt, windows


def global_vs_greedy(sizes: list[int], kinds: list[str], seeds: list[int], via_compile: bool = False) -> list[dict]:
    how = "ge-compile{fusion-solver=...} up to ge-autofuse" if via_compile else "ge-lower-autofuse, every class on"
    print(f"solver=global vs greedy (fused-kernel bytes moved, one run each; {how}):")
    out = []
    for n in sizes:
        for kind in kinds:
            for seed in seeds:
                text = generate(kind, n, seed)
                b0, t0, _ = fused_bytes(text, "greedy", f"{kind}-{n}", via_compile)
                b1, t1, ws = fused_bytes(text, "global", f"{kind}-{n}", via_compile)
                won = [w for w in ws if w.saved > 0]
                limit = sum(1 for w in ws if w.limit_hit)
                r = {
                    "kind": kind,
                    "nodes": n,
                    "seed": seed,
                    "greedy_bytes": b0,
                    "global_bytes": b1,
                    "ratio": b1 / b0 if b0 else 1.0,
                    "windows": len(ws),
                    "windows_won": len(won),
                    "windows_limit": limit,
                    "greedy_cpu_s": t0,
                    "global_cpu_s": t1,
                }
                out.append(r)
                print(
                    f"  {kind:<12} {n:>6} seed {seed}: global/greedy bytes {r['ratio']:.4f} ({b0} -> {b1}); "
                    f"windows {len(ws)}, won {len(won)}, work limit {limit}; CPU time greedy {t0:.1f}s, "
                    f"global {t1:.1f}s ({t1 / t0 if t0 else 0:.1f}x)",
                    flush=True,
                )
    if out:
        print(
            "per kind and size over the seeds (bytes global/greedy: min, median, max; CPU global/greedy: min to max):"
        )
        for n in sizes:
            for kind in kinds:
                rs = [r for r in out if r["kind"] == kind and r["nodes"] == n]
                ratios = sorted(r["ratio"] for r in rs)
                cpu = [r["global_cpu_s"] / r["greedy_cpu_s"] for r in rs if r["greedy_cpu_s"]]
                print(
                    f"  {kind:<12} {n:>6} ({len(rs)} seeds): {ratios[0]:.3f} / {statistics.median(ratios):.3f} / "
                    f"{ratios[-1]:.3f}; CPU {min(cpu, default=0):.1f} to {max(cpu, default=0):.1f}x"
                )
        worse = [r for r in out if r["global_bytes"] > r["greedy_bytes"]]
        print(
            f"never worse than greedy: {len(out) - len(worse)} of {len(out)} graphs: "
            + (
                "PASS"
                if not worse
                else "FAIL (" + ", ".join(f"{r['kind']} {r['nodes']} seed {r['seed']}" for r in worse) + ")"
            )
        )
    return out


def enumeration_check(max_nodes: int = 22) -> dict:
    """global's plan against the exhaustive enumerator (tests/passes/autofuse/plan_enumerator.py)
    on the generated graphs of 3 to `max_nodes` AscBackends; a graph whose groups are too
    many to enumerate (over 1,500 groups or 20,000 pairs asked) is counted and skipped."""
    sys.path.insert(0, str(HERE.parent / "tests"))
    sys.path.insert(0, str(HERE.parent / "tests" / "passes" / "autofuse"))
    from plan_enumerator import PlanEnumerator  # noqa: PLC0415

    from lowering_graphs import pass_for, random_graph  # noqa: PLC0415
    from passes.autofuse.decider import AscBackendFusionDecider  # noqa: PLC0415
    from passes.autofuse.global_solver import GlobalConfig, GlobalSolver, plan_traffic  # noqa: PLC0415
    from passes.autofuse.solver import SolverConfig  # noqa: PLC0415

    def cases():
        for seed in range(600):
            m = parse(random_graph(seed), f"random-{seed}")
            pass_for(seed).apply(context(), m)
            yield f"lowering_graphs seed {seed}", m
        for kind in KINDS:
            for n in (20, 30, 40, 50, 60):
                for seed in range(3):
                    m = parse(generate(kind, n, seed), f"{kind}-{n}")
                    LOWER.apply(context(), m)
                    yield f"{kind} {n} seed {seed}", m

    total = same = better = biggest = skipped = limit = 0
    sizes: dict[int, int] = {}
    misses = []
    t0 = time.process_time()
    for label, m in cases():
        graphs = [g for g in m.ops if isinstance(g, GraphOp)]
        if len(graphs) != 1:
            continue
        g = graphs[0]
        k = sum(1 for op in g.body.block.ops if AscBackendFusionDecider().is_fusable_node(op))
        if not 3 <= k <= max_nodes:
            continue
        try:
            want = PlanEnumerator(g.clone().body.block, max_groups=1500, max_pairs=20_000).best()[0]
        except RuntimeError:
            skipped += 1
            continue
        s = GlobalSolver(AscBackendFusionDecider, SolverConfig(), GlobalConfig(10**5, 64))
        kept, _ = s.fuse(g.body.block, lambda g=g: g.clone().body.block)
        got = plan_traffic(kept, AscBackendFusionDecider())
        total += 1
        sizes[k] = sizes.get(k, 0) + 1
        biggest = max(biggest, k)
        same += got == want
        better += want < s.report.greedy_bytes
        limit += any(w.limit_hit for w in s.report.windows)
        if got != want:
            misses.append(f"{label} ({k} AscBackends): global {got}, optimum {want}")
    print(
        f"enumeration check: global equals the enumerated optimum on {same} of {total} graphs "
        f"(3 to {biggest} AscBackends, {sum(v for k, v in sizes.items() if k > 12)} of them over 12; "
        f"greedy misses the optimum on {better}; global's work limit hit on {limit}); "
        f"{skipped} graphs with too many groups to enumerate skipped; {time.process_time() - t0:.0f} s CPU"
    )
    for x in misses:
        print("  MISS " + x)
    return {
        "graphs": total,
        "optimal": same,
        "greedy_suboptimal": better,
        "max_asc_backends": biggest,
        "over_12": sum(v for k, v in sizes.items() if k > 12),
        "skipped": skipped,
        "limit_hit": limit,
    }


if __name__ == "__main__":
    main()
