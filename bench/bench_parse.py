"""Parse-and-print cost of ge-opt against xDSL's own floor, measured in one run.

    python bench/bench_parse.py [--nodes 10000] [--seed 0] [--concats K] [--json PATH]

Generates a mixed ge graph (bench/gen_graphs.py) into a temporary directory and times,
best of 3 runs each (subprocess wall time, the two tools taking turns):

  (a) ge-opt FILE                       parse + verify + print, the ge custom syntax
  (b) xdsl-opt --allow-unregistered-dialect GENERIC --print-op-generic
                                        the same module in generic form, through plain
                                        xdsl-opt that does not know the ge dialect: what
                                        xDSL itself costs to parse and print these ops

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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_startup import unregistered  # noqa: E402
from gen_graphs import generate  # noqa: E402

TARGET = 1.5
RUNS = 3

# Runs one command in a fresh process and reports its wall time and its peak RSS: the
# RUSAGE_CHILDREN maximum is over all children ever waited for, so a fresh wrapper per
# measurement is what makes it one tool's peak.
_WRAPPER = r"""
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
with open(sys.argv[1], "wb") as out:
    p = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
print(json.dumps({"wall": wall, "rss": ru.ru_maxrss * scale, "rc": p.returncode,
                  "stderr": p.stderr.decode(errors="replace")[-2000:]}))
"""


def tool(name: str) -> str:
    """The tool next to this interpreter (the venv's), else the one on PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else name


def run_once(cmd: list[str], out: str = os.devnull) -> dict:
    """Wall time and peak RSS of one run of `cmd` (stdout to `out`), in a fresh wrapper."""
    p = subprocess.run([sys.executable, "-c", _WRAPPER, out, *cmd], capture_output=True, text=True, check=True)
    r = json.loads(p.stdout)
    if r["rc"] != 0:
        raise SystemExit(f"bench_parse: {' '.join(cmd)} failed (exit {r['rc']}):\n{r['stderr']}")
    return r


def measure(cmds: dict[str, list[str]]) -> dict[str, dict]:
    """Best-of-RUNS wall time and peak RSS of each command. The commands take turns (a, b,
    a, b, ...) so that load from other processes on a shared machine falls on both."""
    walls: dict[str, list[float]] = {k: [] for k in cmds}
    rss = dict.fromkeys(cmds, 0)
    for _ in range(RUNS):
        for k, cmd in cmds.items():
            r = run_once(cmd)
            walls[k].append(r["wall"])
            rss[k] = max(rss[k], r["rss"])
    return {k: {"best_s": min(walls[k]), "runs_s": walls[k], "peak_rss_bytes": rss[k]} for k in cmds}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--concats", type=int, default=None, help="exact number of ConcatD nodes (default: the mix's own)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)

    ge_opt, xdsl_opt = tool("ge-opt"), tool("xdsl-opt")
    with tempfile.TemporaryDirectory(prefix="ge_bench_") as tmp:
        src = os.path.join(tmp, "mixed.mlir")
        generic = os.path.join(tmp, "mixed_generic.mlir")
        t0 = time.perf_counter()
        Path(src).write_text(generate("mixed", args.nodes, args.seed, args.concats))
        gen_s = time.perf_counter() - t0
        subprocess.run([ge_opt, src, "--print-op-generic", "-o", generic], check=True)
        # xDSL's floor must not load the project's plugin (bench_startup.py: unregistered)
        Path(generic).write_text(unregistered(Path(generic).read_text()))

        m = measure(
            {
                "a": [ge_opt, src],
                "b": [xdsl_opt, "--allow-unregistered-dialect", generic, "--print-op-generic"],
            }
        )
        a, b = m["a"], m["b"]

    ratio = a["best_s"] / b["best_s"]
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    mib = 1 << 20
    concats = "" if args.concats is None else f", {args.concats} ConcatD"
    print(f"graph: mixed, {args.nodes} nodes{concats}, seed {args.seed} (generated in {gen_s:.2f} s)")
    print(
        f"(a) ge-opt FILE (parse+verify+print, custom syntax): {a['best_s']:.3f} s best of {RUNS}, "
        f"peak RSS {a['peak_rss_bytes'] / mib:.0f} MiB"
    )
    print(
        f"(b) xdsl-opt, generic, unregistered (framework floor): {b['best_s']:.3f} s best of {RUNS}, "
        f"peak RSS {b['peak_rss_bytes'] / mib:.0f} MiB"
    )
    print(f"ratio a/b = {ratio:.2f} (target <= {TARGET}): {verdict}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "nodes": args.nodes,
                    "seed": args.seed,
                    "kind": "mixed",
                    "concats": args.concats,
                    "ge_opt": a,
                    "xdsl_opt_generic": b,
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
