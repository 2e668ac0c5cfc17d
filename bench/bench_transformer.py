"""ge-compile of a transformer encoder layer at BERT-base sizes, with its time printed.

    python bench/bench_transformer.py [--hidden 768] [--heads 12] [--seq 128] [--json PATH]

Builds examples/zoo/gen_zoo.py's `transformer_encoder_layer(hidden, heads, seq)` (a
post-LN BERT layer: Q/K/V MatMuls, Softmax attention, exact-GELU MLP, two LayerNorms,
seeded weights: 7.1M parameters at BERT-base's sizes), imports it (importers/onnx.py) and
runs ge-compile's passes on it one by one (ge_tools/pipeline.py, the module verified after
each, as ge-opt does), printing the import time, each pass's time and the total. A
benchmark reports: it has no target and never fails on a time. A model that does not
import (an op the ge dialect lacks) is its one-line error and exit 1.
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
sys.path.insert(0, str(HERE.parent / "examples" / "zoo"))

import gen_zoo  # noqa: E402

from ge_dialect.verify import verify_module  # noqa: E402
from ge_tools.pipeline import GeCompilePass, expand  # noqa: E402
from ge_tools.registry import make_context  # noqa: E402
from importers.onnx import OnnxImportError, import_model  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hidden", type=int, default=768)
    ap.add_argument("--heads", type=int, default=12)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--json", metavar="PATH", help="also write the times as JSON")
    args = ap.parse_args(argv)
    if args.hidden % args.heads:
        print(f"bench_transformer.py: error: --hidden {args.hidden} is not a multiple of --heads {args.heads}")
        return 1
    t0 = time.perf_counter()
    model = gen_zoo.transformer_encoder_layer(args.hidden, args.heads, args.seq)
    t1 = time.perf_counter()
    try:
        module = import_model(model, "transformer_encoder_layer.onnx")
    except OnnxImportError as e:
        print(str(e))
        return 1
    t2 = time.perf_counter()
    params = sum(math.prod(t.dims) for t in model.graph.initializer)
    nodes = len(model.graph.node)
    print(
        f"transformer layer: hidden {args.hidden}, {args.heads} heads, seq {args.seq}: {nodes} ONNX nodes, {params} parameters"
    )
    print(f"build {t1 - t0:.2f} s, import {t2 - t1:.2f} s")
    ctx = make_context()
    times: dict[str, float] = {}
    for p in expand([GeCompilePass()]):
        s = time.perf_counter()
        p.apply(ctx, module)
        verify_module(module)
        key = p.name if p.name not in times else f"{p.name}#{sum(k.startswith(p.name) for k in times) + 1}"
        times[key] = time.perf_counter() - s
        print(f"  {key}: {times[key]:.2f} s")
    total = sum(times.values())
    print(f"ge-compile: {total:.2f} s (import + compile {t2 - t1 + total:.2f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"import": t2 - t1, "passes": times, "compile": total}, f, indent=2, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
