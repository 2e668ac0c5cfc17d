"""ge-assign-memory: peak feature-map bytes against the lower bound, measured in one run.

    python bench/bench_memory.py [--sizes 1000,10000] [--seed 0] [--repeat 3] [--kinds diamond,wide]

For every examples/*.mlir and for generated graphs (bench/gen_graphs.py, every kind, each
size in --sizes, a ConcatD every ~10 nodes for the mixed and concat kinds; and `wide`, built
here: half the nodes are Relus of one input all alive until a chain of Adds consumes them, so
about n/2 tensors are alive at once, the case where a planner that looks at every pair of
time-overlapping blocks turns quadratic), runs the no-task
passes (ge-phony-notask, ge-concat-notask, ge-pack-notask) and then ge-assign-memory, and
prints per graph: memory_size (the arena's peak), memory_lower_bound (the most bytes alive
at one node in the same order, with the same 512-aligned blocks), their ratio against the
target (<= 1.10), and the pass time (ge-assign-memory alone, best of --repeat runs on fresh
parses; the machine is shared, the minimum is the least noisy); then the time's growth
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
from passes.notask.concat import ConcatNotaskPass  # noqa: E402
from passes.notask.pack import PackNotaskPass  # noqa: E402
from passes.notask.phony import PhonyNotaskPass  # noqa: E402

TARGET = 1.10


def context() -> Context:
    return make_context()


def plan(ctx: Context, text: str, filename: str, repeat: int = 1) -> tuple[ModuleOp, float]:
    best = math.inf
    for _ in range(repeat):
        module = LocatedParser(ctx, text, filename).parse_module()
        module.verify()
        for p in (PhonyNotaskPass(), ConcatNotaskPass(), PackNotaskPass()):
            p.apply(ctx, module)
        t0 = time.perf_counter()
        AssignMemoryPass().apply(ctx, module)
        best = min(best, time.perf_counter() - t0)
    return module, best


def wide(n: int) -> str:
    """n nodes: a Data, (n - 2) // 2 Relus of it, as many Adds folding them in, last Relu
    first (the Relus' lifetimes nest), and NetOutput; odd n gets one more Relu step."""
    w = (n - 2) // 2
    ty = "tensor<4x64xf16>"
    lines = ["ge.graph @main {", f"  %x = ge.Data {{index = 0}} : {ty}"]
    lines += [f"  %r{i} = ge.Relu(%x) : ({ty}) -> {ty}" for i in range(w)]
    acc = "%x"
    for i in range(w):
        lines.append(f"  %a{i} = ge.Add({acc}, %r{w - 1 - i}) : ({ty}, {ty}) -> {ty}")
        acc = f"%a{i}"
    if (n - 2) % 2:
        lines.append(f"  %t = ge.Relu({acc}) : ({ty}) -> {ty}")
        acc = "%t"
    lines += [f"  ge.NetOutput {acc} : {ty}", "}"]
    return "\n".join(lines) + "\n"


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
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kinds", default=",".join((*KINDS, "wide")), help="generated kinds to run (comma-separated)")
    args = ap.parse_args(argv)
    ctx = context()
    worst = 0.0
    for path in sorted((HERE.parent / "examples").glob("*.mlir")):
        module, s = plan(ctx, path.read_text(), str(path))
        worst = max(worst, report(path.name, module, s))
    sizes = [int(x) for x in args.sizes.split(",")]
    times: dict[tuple[str, int], float] = {}
    kinds = tuple(args.kinds.split(","))
    unknown = [k for k in kinds if k not in (*KINDS, "wide")]
    if unknown:
        ap.error(f"unknown kind(s) {', '.join(unknown)}; known: {', '.join((*KINDS, 'wide'))}")
    for n in sizes:
        for kind in kinds:
            if kind == "wide":
                text = wide(n)
            else:
                concats = n // 10 if kind in ("mixed", "concat_tree") else None
                text = generate(kind, n, args.seed, concats=concats)
            module, s = plan(ctx, text, f"{kind}-{n}.mlir", args.repeat)
            times[(kind, n)] = s
            worst = max(worst, report(f"gen {kind} {n} nodes", module, s))
    if len(sizes) >= 2:
        lo, hi = min(sizes), max(sizes)
        # planner time growth: t ~ n^k, k = log(t_hi / t_lo) / log(hi / lo) (1 = linear)
        growth = ", ".join(
            f"{kind} {math.log(times[(kind, hi)] / times[(kind, lo)]) / math.log(hi / lo):.2f}" for kind in kinds
        )
        print(f"ge-assign-memory time growth exponent {lo} -> {hi} nodes: {growth}")
    print(f"worst ratio: {worst:.3f} (target <= {TARGET}): {'PASS' if worst <= TARGET else 'FAIL'}")


if __name__ == "__main__":
    main()
