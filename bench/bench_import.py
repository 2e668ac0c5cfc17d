"""ONNX import cost against ge-opt's parse of the same graph, measured in one run.

    python bench/bench_import.py [--nodes 10000] [--seed 0] [--json PATH]

Generates a seeded ONNX model of exactly `--nodes` nodes (`generate_onnx`: four streams
of 1x8x8x8 float32 feature maps through pointwise chains, 1x1 and 3x3 convolutions with
their own weights, channel concats folded back by a 1x1 convolution, and Adds between
streams) and writes the same graph as ge text with `ge-import -o`. Then times, best of 3
runs each (subprocess wall time, the two tools taking turns):

  (a) ge-import MODEL.onnx      read the protobuf, ONNX shape inference, convert, verify,
                                print the ge text
  (b) ge-opt MODEL.mlir         parse + verify + print of that same ge text

and prints the ratio a/b against the target (<= 1.5) with PASS/FAIL text, and each tool's
peak RSS. A benchmark reports; it never fails the exit code on a missed target.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_parse import measure, tool  # noqa: E402

TARGET = 1.5
RUNS = 3
C = 8  # channels of every stream
HW = 8
STREAMS = 4
POINTWISE = ("Relu", "Sigmoid", "Tanh", "Abs", "Neg")


def generate_onnx(n_nodes: int, seed: int = 0) -> onnx.ModelProto:
    """A model of exactly `n_nodes` ONNX nodes (n_nodes >= 2 * STREAMS)."""
    if n_nodes < 2 * STREAMS:
        raise ValueError(f"--nodes must be at least {2 * STREAMS}")
    rng = np.random.default_rng(seed)
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    cur = [f"x{i}" for i in range(STREAMS)]
    k = 0

    def new(prefix: str) -> str:
        nonlocal k
        k += 1
        return f"{prefix}_{k}"

    def conv(x: str, c_in: int, ksize: int) -> str:
        y, w, b = new("conv"), new("w"), new("b")
        inits.append(numpy_helper.from_array(rng.standard_normal((C, c_in, ksize, ksize)).astype(np.float32) * 0.1, w))
        inits.append(numpy_helper.from_array(rng.standard_normal((C,)).astype(np.float32) * 0.1, b))
        p = ksize // 2
        nodes.append(h.make_node("Conv", [x, w, b], [y], name=y, pads=[p] * 4, kernel_shape=[ksize, ksize]))
        return y

    budget = n_nodes - STREAMS  # the last node of each stream is a Relu to the output
    while len(nodes) < budget:
        s = int(rng.integers(STREAMS))
        left = budget - len(nodes)
        kind = rng.choice(["chain", "conv", "concat", "add"], p=[0.45, 0.25, 0.15, 0.15])
        if kind == "concat" and left >= 2:
            other = cur[(s + 1 + int(rng.integers(STREAMS - 1))) % STREAMS]
            cat = new("cat")
            nodes.append(h.make_node("Concat", [cur[s], other], [cat], name=cat, axis=1))
            cur[s] = conv(cat, 2 * C, 1)
        elif kind == "conv":
            cur[s] = conv(cur[s], C, 3 if rng.random() < 0.3 else 1)
        elif kind == "add":
            other = cur[(s + 1) % STREAMS]
            y = new("add")
            nodes.append(h.make_node("Add", [cur[s], other], [y], name=y))
            cur[s] = y
        else:
            for _ in range(min(4, left)):
                y = new("pw")
                nodes.append(h.make_node(str(rng.choice(POINTWISE)), [cur[s]], [y], name=y))
                cur[s] = y
    outs = []
    for s in range(STREAMS):
        y = f"y{s}"
        nodes.append(h.make_node("Relu", [cur[s]], [y], name=f"out{s}"))
        outs.append(h.make_tensor_value_info(y, T.FLOAT, [1, C, HW, HW]))
    assert len(nodes) == n_nodes
    g = h.make_graph(
        nodes,
        "bench",
        [h.make_tensor_value_info(f"x{i}", T.FLOAT, [1, C, HW, HW]) for i in range(STREAMS)],
        outs,
        initializer=inits,
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], producer_name="ge-xdsl bench_import")
    m.ir_version = 8
    return m


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)

    ge_import, ge_opt = tool("ge-import"), tool("ge-opt")
    with tempfile.TemporaryDirectory(prefix="ge_bench_import_") as tmp:
        model = os.path.join(tmp, "bench.onnx")
        text = os.path.join(tmp, "bench.mlir")
        t0 = time.perf_counter()
        m = generate_onnx(args.nodes, args.seed)
        onnx.save(m, model)
        gen_s = time.perf_counter() - t0
        subprocess.run([ge_import, model, "-o", text], check=True)
        counts = {op: sum(1 for n in m.graph.node if n.op_type == op) for op in ("Conv", "Concat", "Add")}
        ge_ops = sum(1 for line in Path(text).read_text().splitlines() if " = ge." in line or "ge.NetOutput" in line)
        sizes = (os.path.getsize(model), os.path.getsize(text))
        r = measure({"a": [ge_import, model], "b": [ge_opt, text]})
        a, b = r["a"], r["b"]

    ratio = a["best_s"] / b["best_s"]
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    mib = 1 << 20
    print(
        f"model: {args.nodes} ONNX nodes ({counts['Conv']} Conv, {counts['Concat']} Concat, {counts['Add']} Add, "
        f"the rest pointwise), seed {args.seed}, {sizes[0] / 1024:.0f} KiB; as ge text {ge_ops} ops, "
        f"{sizes[1] / 1024:.0f} KiB (generated in {gen_s:.2f} s)"
    )
    print(
        f"(a) ge-import MODEL.onnx (load, infer, convert, verify, print): {a['best_s']:.3f} s best of {RUNS}, "
        f"peak RSS {a['peak_rss_bytes'] / mib:.0f} MiB"
    )
    print(
        f"(b) ge-opt MODEL.mlir (parse, verify, print the same graph): {b['best_s']:.3f} s best of {RUNS}, "
        f"peak RSS {b['peak_rss_bytes'] / mib:.0f} MiB"
    )
    print(f"ratio a/b = {ratio:.2f} (target <= {TARGET}): {verdict}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "nodes": args.nodes,
                    "seed": args.seed,
                    "ge_import": a,
                    "ge_opt": b,
                    "ratio": ratio,
                    "target": TARGET,
                    "pass": ratio <= TARGET,
                },
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
