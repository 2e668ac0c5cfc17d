"""ge-autofuse: time against parsing on generated graphs, its growth, and fusion quality.

    python bench/bench_autofuse.py [--sizes 1000,4000,16000] [--seed 0] [--json PATH]

For each generated mixed graph (bench/gen_graphs.py) of 1k, 4k and 16k nodes, in one run:
parse time (xDSL Parser, ge + ascgraph dialects) and ge-autofuse time on a module already
lowered by ge-lower-autofuse (every op class on), as a ratio; the growth exponent of the
ge-autofuse time from 4k to 16k nodes, log(t16k / t4k) / log(4), against the target
<= 1.2 (near linear). Fusion quality for every example and generated graph: kernels before
and after ge-autofuse, and global-memory bytes moved by kernels (each kernel reads each
input once and writes each output once) divided by the ideal (graph inputs read once +
graph outputs written once), before and after. A benchmark reports; it never fails the
exit code on a missed target.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from xdsl.context import Context  # noqa: E402
from xdsl.dialects.builtin import ModuleOp  # noqa: E402
from xdsl.parser import Parser  # noqa: E402

from bench.gen_graphs import generate  # noqa: E402
from ge_dialect.ge import GraphOp  # noqa: E402
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,4000,16000")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results: list[dict] = []
    print("fusion quality (ge-lower-autofuse with every class on, then ge-autofuse):")
    for path in sorted((HERE.parent / "examples").glob("*.mlir")):
        r = measure(path.read_text(), path.name)
        results.append(r)
        print("  " + line(r))
    timing: dict[int, dict] = {}
    for n in sizes:
        r = measure(generate("mixed", n, args.seed), f"generated mixed {n}")
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
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "exponent": exponent}, indent=1))


if __name__ == "__main__":
    main()
