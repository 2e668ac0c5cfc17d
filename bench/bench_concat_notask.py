"""ge-concat-notask cost against parsing the same graph, measured in one process.

    python bench/bench_concat_notask.py [--nodes 10000] [--concats 1000] [--seed 0]

Generates a mixed ge graph with bench/gen_graphs.py (10k nodes, 1,000 ConcatD by default),
then times, best of 3 each: (a) parsing the text into a module (ge-opt's parser and
context, verification included), (b) running ConcatNotaskPass on a freshly parsed module.
Prints both times, how many ConcatD were marked, and the ratio pass/parse against the
target (<= 0.5) with PASS/FAIL text. A benchmark reports; it never fails the exit code.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from gen_graphs import generate  # noqa: E402
from xdsl.context import Context  # noqa: E402
from xdsl.dialects.builtin import ModuleOp  # noqa: E402

from ge_dialect import attrs as A  # noqa: E402
from ge_tools.parse import LocatedParser  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from passes.notask.concat import ConcatNotaskPass  # noqa: E402

TARGET = 0.5
RUNS = 3


def context() -> Context:
    return make_context()


def parse(ctx: Context, text: str) -> ModuleOp:
    module = LocatedParser(ctx, text, "bench.mlir").parse_module()
    module.verify()
    return module


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--concats", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    text = generate("mixed", args.nodes, args.seed, concats=args.concats)
    ctx = context()
    parse_times, pass_times, marked = [], [], 0
    for _ in range(RUNS):
        t0 = time.perf_counter()
        module = parse(ctx, text)
        parse_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        ConcatNotaskPass().apply(ctx, module)
        pass_times.append(time.perf_counter() - t0)
        marked = sum(1 for op in module.walk() if op.name == "ge.ConcatD" and A.get_bool(op, A.NO_TASK))
    concats = sum(1 for op in module.walk() if op.name == "ge.ConcatD")
    t_parse, t_pass = min(parse_times), min(pass_times)
    ratio = t_pass / t_parse
    print(f"graph: {args.nodes} nodes, {concats} ConcatD, seed {args.seed}; marked {marked}")
    print(f"parse+verify: {t_parse * 1000:.1f} ms (best of {RUNS})")
    print(f"ge-concat-notask: {t_pass * 1000:.1f} ms (best of {RUNS})")
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    print(f"ratio pass/parse: {ratio:.3f} (target <= {TARGET}): {verdict}")


if __name__ == "__main__":
    main()
