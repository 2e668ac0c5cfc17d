"""Weights without copies (issue 31, target 3), measured in one run.

    python bench/bench_weights.py [--mb 200] [--dir /tmp] [--json PATH]

Generates a valid ONNX model with one initializer of --mb megabytes (MatMul [1, 1000] x
W [1000, N], float32: a feature map of a few kilobytes), then runs each tool in its own
process and reads that process's peak resident memory (ru_maxrss of exactly that child,
os.wait4) and its wall and CPU seconds:

  ge-import MODEL.onnx -o MODEL.mlir          import, weights printed as a resource
  ge-opt MODEL.mlir -o OUT.mlir               parse, verify, print
  ge-opt MODEL.mlir -p ge-compile -o OUT.mlir compile to the npu.model
  ge-run MODEL.mlir                           compile, simulate, reference, compare
  ge-run MODEL.onnx                           the same from the model, and onnxruntime

and the same commands on the model with a 4-column W (the tools' own footprint). Prints,
per tool, peak RSS / model bytes (target: at most 2 plus the feature map), the same with
the footprint taken off, and import seconds per 100 MB (target: at most 1). With
--phases, also ge-run's peak per phase (read, compile, reference, simulate, error bounds,
compare, onnxruntime) above its start, in model sizes: where a copy of the weight is made.
A benchmark reports; it never fails the exit code on a missed target.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from weights_model import Usage, make_model, measure, phase_peaks

TARGET_RSS = 2.0
TARGET_IMPORT_S_PER_100MB = 1.0


def tool(name: str) -> str:
    """The tool next to this interpreter (the venv's), else the one on PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else name


def run(cmd: list[str]) -> Usage:
    """`cmd`'s figures (bench/weights_model.py: measure); a failure ends the benchmark."""
    u = measure(cmd)
    if u.code != 0:
        raise SystemExit(f"bench_weights: {' '.join(cmd)} failed:\n{u.stderr}")
    return u


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=200, help="the initializer's size in MB (default 200)")
    ap.add_argument("--dir", default="/tmp", help="where the models are written (default /tmp)")
    ap.add_argument("--json", help="also write the numbers to this file")
    ap.add_argument("--phases", action="store_true", help="also ge-run's peak per phase (Linux)")
    ap.add_argument("--make", nargs=2, metavar=("PATH", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.make:
        make_model(Path(args.make[0]), 1000, int(args.make[1]))
        return
    d = Path(args.dir)
    n = max(4, int(args.mb * 1e6 / 4 / 1000))
    big, small = d / f"bench_weights_{n}.onnx", d / "bench_weights_4.onnx"
    for path, cols in ((big, n), (small, 4)):
        if not path.exists():  # in a process of its own: this one stays small
            subprocess.run([sys.executable, __file__, "--make", str(path), str(cols)], check=True)
    size = big.stat().st_size
    out = d / "bench_weights_out.mlir"
    commands = {
        "ge-import": lambda m: [tool("ge-import"), str(m), "-o", f"{m}.mlir"],
        "ge-opt": lambda m: [tool("ge-opt"), f"{m}.mlir", "-o", str(out)],
        "ge-opt -p ge-compile": lambda m: [tool("ge-opt"), f"{m}.mlir", "-p", "ge-compile", "-o", str(out)],
        "ge-run .mlir": lambda m: [tool("ge-run"), f"{m}.mlir"],
        "ge-run .onnx": lambda m: [tool("ge-run"), str(m)],
    }
    print(f"model: {big} ({size / 1e6:.1f} MB, one initializer [1000, {n}] float32)")
    print(f"load: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rows = {}
    for name, cmd in commands.items():
        footprint = run(cmd(small))
        m = run(cmd(big))
        rows[name] = {
            "rss_bytes": m.rss,
            "footprint_bytes": footprint.rss,
            "rss_over_model": m.rss / size,
            "above_footprint_over_model": (m.rss - footprint.rss) / size,
            "wall_s": m.wall,
            "cpu_s": m.cpu,
            "cpu_s_per_100mb": m.cpu / (size / 1e8),
            # the seconds the weights cost: the tool's start-up (imports) taken off
            "cpu_s_per_100mb_above_footprint": (m.cpu - footprint.cpu) / (size / 1e8),
        }
    print(
        f"{'tool':22s} {'peak RSS':>9s} {'/model':>7s} {'above footprint':>16s} {'CPU s':>7s} {'s/100MB':>8s}"
        f" {'above footprint':>16s}"
    )
    for name, r in rows.items():
        print(
            f"{name:22s} {r['rss_bytes'] / 1e6:7.0f}MB {r['rss_over_model']:7.2f} "
            f"{r['above_footprint_over_model']:13.2f} x  {r['cpu_s']:7.2f} {r['cpu_s_per_100mb']:8.2f}"
            f" {r['cpu_s_per_100mb_above_footprint']:16.2f}"
        )
    worst = max(r["rss_over_model"] for r in rows.values())
    imp = rows["ge-import"]["cpu_s_per_100mb_above_footprint"]
    print(
        f"peak RSS / model bytes, worst tool: {worst:.2f} (target <= {TARGET_RSS} + feature map): "
        f"{'PASS' if worst <= TARGET_RSS else 'FAIL'}"
    )
    print(
        f"ge-import CPU seconds per 100 MB: {imp:.2f} (target <= {TARGET_IMPORT_S_PER_100MB}): "
        f"{'PASS' if imp <= TARGET_IMPORT_S_PER_100MB else 'FAIL'}"
    )
    phases: dict[str, list[dict[str, object]]] = {}
    if args.phases:
        for label, model in (("ge-run .mlir", f"{big}.mlir"), ("ge-run .onnx", str(big))):
            phases[label] = [
                {"phase": p, "start_bytes": start, "peak_bytes": peak, "above_start_over_model": (peak - start) / size}
                for p, start, peak in phase_peaks([model])
            ]
            print(f"{label}, peak per phase above its start (model sizes):")
            for r in phases[label]:
                print(f"  {r['phase']:24s} {r['above_start_over_model']:6.2f}  (peak {r['peak_bytes'] / 1e6:.0f} MB)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"model_bytes": size, "tools": rows, "phases": phases}, f, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
