"""ge-lower-autofuse against parsing, on the bench's 10k-node graph, measured in one run.

    python bench/bench_lowering.py [--nodes 10000] [--seed 0] [--json PATH]

Generates the mixed ge graph (bench/gen_graphs.py, kind "mixed") and times in-process,
best of 3 each: (a) parsing the file into a module (xDSL Parser, the ge and ascgraph
dialects loaded), (b) running ge-lower-autofuse on a freshly parsed module, with GE's
default flags and with every op class on (`enable-pass=reduce,concat,split,transpose`).
Prints the ratios b/a against the target (<= 1.0) with PASS/FAIL text, and the number of
AscBackends made. A benchmark reports; it never fails the exit code on a missed target.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xdsl.context import Context  # noqa: E402
from xdsl.dialects.builtin import ModuleOp  # noqa: E402
from xdsl.parser import Parser  # noqa: E402

from bench.gen_graphs import generate  # noqa: E402
from ge_dialect.ge import AscBackend  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from lowering.lower_autofuse import OPTIONAL_CLASSES, LowerAutofusePass  # noqa: E402

TARGET = 1.0
RUNS = 3


def context() -> Context:
    return make_context()


def parse(text: str) -> ModuleOp:
    return Parser(context(), text, "bench.mlir").parse_module()


def best(fn, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=str, default=None)
    args = ap.parse_args()
    text = generate("mixed", args.nodes, args.seed)
    t_parse = best(lambda: parse(text))
    results = {"nodes": args.nodes, "parse_s": t_parse}
    for label, p in (("default", LowerAutofusePass()), ("all", LowerAutofusePass(enable_pass=OPTIONAL_CLASSES))):
        modules = [parse(text) for _ in range(RUNS)]
        times = []
        for m in modules:
            t0 = time.perf_counter()
            p.apply(context(), m)
            times.append(time.perf_counter() - t0)
        t = min(times)
        n = sum(1 for op in modules[0].walk() if isinstance(op, AscBackend))
        ratio = t / t_parse
        verdict = "PASS" if ratio <= TARGET else "FAIL"
        print(
            f"ge-lower-autofuse ({label} flags): {t:.3f}s, parse {t_parse:.3f}s, ratio {ratio:.2f} "
            f"(target <= {TARGET}) {verdict}; {n} AscBackends"
        )
        results[f"lower_{label}_s"] = t
        results[f"ratio_{label}"] = ratio
        results[f"ascbackends_{label}"] = n
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
