"""ge-assign-memory: peak feature-map bytes against the lower bound, measured in one run.

    python bench/bench_memory.py [--sizes 1000,10000] [--seed 0]

For every examples/*.mlir and for generated graphs (bench/gen_graphs.py, every kind, each
size in --sizes, a ConcatD every ~10 nodes for the mixed and concat kinds), runs the no-task
passes (ge-phony-notask, ge-concat-notask, ge-pack-notask) and then ge-assign-memory, and
prints per graph: memory_size (the arena's peak), memory_lower_bound (the most bytes alive
at one node in the same order, with the same 512-aligned blocks), their ratio against the
target (<= 1.10), and the pass time (ge-assign-memory alone); then the time's growth
exponent between the smallest and the largest size (1.0 = linear). A benchmark reports;
it never fails the exit code.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from gen_graphs import KINDS, generate  # noqa: E402
from xdsl.context import Context  # noqa: E402
from xdsl.dialects.builtin import ModuleOp  # noqa: E402

from ge_dialect import attrs as A  # noqa: E402
from ge_dialect.ge import GraphOp  # noqa: E402
from ge_tools.opt import LocatedParser  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from passes.assign_memory import MEMORY_LOWER_BOUND, MEMORY_SIZE, AssignMemoryPass  # noqa: E402
from passes.concat_notask import ConcatNotaskPass  # noqa: E402
from passes.pack_notask import PackNotaskPass  # noqa: E402
from passes.phony_notask import PhonyNotaskPass  # noqa: E402

TARGET = 1.10


def context() -> Context:
    return make_context()


def plan(ctx: Context, text: str, filename: str) -> tuple[ModuleOp, float]:
    module = LocatedParser(ctx, text, filename).parse_module()
    module.verify()
    for p in (PhonyNotaskPass(), ConcatNotaskPass(), PackNotaskPass()):
        p.apply(ctx, module)
    t0 = time.perf_counter()
    AssignMemoryPass().apply(ctx, module)
    return module, time.perf_counter() - t0


def report(label: str, module: ModuleOp, seconds: float) -> float:
    worst = 0.0
    for g in module.ops:
        if not isinstance(g, GraphOp):
            continue
        peak = A.get_int(g, MEMORY_SIZE) or 0
        low = A.get_int(g, MEMORY_LOWER_BOUND) or 0
        ratio = peak / low if low else 1.0
        worst = max(worst, ratio)
        verdict = "PASS" if ratio <= TARGET else "FAIL"
        print(
            f"{label:<34} @{g.sym_name.data:<8} peak {peak:>10} B  lower bound {low:>10} B  "
            f"ratio {ratio:.3f} {verdict}  ({seconds * 1000:.0f} ms)"
        )
    return worst


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ctx = context()
    worst = 0.0
    for path in sorted((HERE.parent / "examples").glob("*.mlir")):
        module, s = plan(ctx, path.read_text(), str(path))
        worst = max(worst, report(path.name, module, s))
    sizes = [int(x) for x in args.sizes.split(",")]
    times: dict[tuple[str, int], float] = {}
    for n in sizes:
        for kind in KINDS:
            concats = n // 10 if kind in ("mixed", "concat_tree") else None
            text = generate(kind, n, args.seed, concats=concats)
            module, s = plan(ctx, text, f"{kind}-{n}.mlir")
            times[(kind, n)] = s
            worst = max(worst, report(f"gen {kind} {n} nodes", module, s))
    if len(sizes) >= 2:
        lo, hi = min(sizes), max(sizes)
        # planner time growth: t ~ n^k, k = log(t_hi / t_lo) / log(hi / lo) (1 = linear)
        growth = ", ".join(
            f"{kind} {math.log(times[(kind, hi)] / times[(kind, lo)]) / math.log(hi / lo):.2f}" for kind in KINDS
        )
        print(f"ge-assign-memory time growth exponent {lo} -> {hi} nodes: {growth}")
    print(f"worst ratio: {worst:.3f} (target <= {TARGET}): {'PASS' if worst <= TARGET else 'FAIL'}")


if __name__ == "__main__":
    main()
