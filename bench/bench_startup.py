"""Start-up cost of ge-opt against xdsl-opt on the smallest example, measured in one run.

    python bench/bench_startup.py [--runs 15] [--example PATH] [--json PATH]

Issue 14, point 7: `ge-opt` on the smallest example takes at most 1.2 times `xdsl-opt`
on the same module in generic form. Times, in fresh processes (subprocess wall time),
the commands taking turns run after run (a, b, c, a, b, c, ...) so that load from other
processes on a shared machine falls on all of them, and takes each one's median:

  (a) ge-opt EXAMPLE                  parse + verify + print, the ge custom syntax
  (b) xdsl-opt --allow-unregistered-dialect GENERIC
                                      the same module in generic form, its op names
                                      renamed out of the ge/ascgraph/npu namespaces, so
                                      that xdsl-opt does not load the project's plugin
                                      (pyproject.toml's xdsl.universe entry point), and
                                      without `ge.ssa_names` (`unregistered`): what xDSL
                                      itself costs to start, parse and print it
  (c) xdsl-opt GENERIC-AS-IS          for information: stock xdsl-opt with the plugin,
                                      which loads the ge dialect to parse the module

and prints the ratio a/b against the target (<= 1.2) with PASS/FAIL text. A benchmark
reports; it never fails the exit code on a missed target.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from startup_timing import ROOT, smallest_example, take_turns, tool

TARGET = 1.2


_SSA_NAMES = re.compile(r'(?:, )?ge\.ssa_names = (?:"[^"]*"|\[[^\]]*\])')


def unregistered(generic: str) -> str:
    """The generic form as xDSL's floor reads it: op names moved out of the ge, ascgraph
    and npu namespaces (`"ge.Data"` -> `"x_ge.Data"`), so that xdsl-opt does not load the
    project's plugin, and without the `ge.ssa_names` copies of the SSA names (only there
    for upstream tools: ge_dialect/names.py), so that both tools read the same module."""
    return (
        re.sub(r'"(ge|ascgraph|npu)\.', r'"x_\1.', _SSA_NAMES.sub("", generic))
        .replace("{, ", "{")
        .replace(" {} :", " :")
    )


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(cmd)} failed (exit {p.returncode}):\n{p.stderr.decode()[-2000:]}")
    return t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="repetitions of each command (default 15)")
    ap.add_argument("--example", type=Path, help="the module (default: the smallest of examples/)")
    ap.add_argument("--json", help="also write the numbers to this file")
    args = ap.parse_args(argv)
    example = args.example or smallest_example()

    with tempfile.TemporaryDirectory() as tmp:
        generic = subprocess.run(
            [tool("ge-opt"), str(example), "--print-op-generic"], capture_output=True, text=True, check=True
        ).stdout
        as_is = Path(tmp) / "generic.mlir"
        as_is.write_text(generic)
        renamed = Path(tmp) / "generic_unregistered.mlir"
        renamed.write_text(unregistered(generic))
        cmds = {
            "ge-opt": [tool("ge-opt"), str(example)],
            "xdsl-opt": [tool("xdsl-opt"), "--allow-unregistered-dialect", str(renamed)],
            "xdsl-opt+plugin": [tool("xdsl-opt"), str(as_is)],
        }
        plugin = subprocess.run(cmds["xdsl-opt+plugin"], capture_output=True).returncode == 0
        if not plugin:  # an older install without the entry point: (c) cannot run
            del cmds["xdsl-opt+plugin"]
        walls = take_turns(cmds, args.runs, wall)

    med = {k: statistics.median(v) for k, v in walls.items()}
    ratio = med["ge-opt"] / med["xdsl-opt"]
    print(f"example: {example.relative_to(ROOT) if example.is_relative_to(ROOT) else example}, {args.runs} runs each")
    for k, v in med.items():
        print(f"  {k:16s} median {v * 1000:7.1f} ms  (min {min(walls[k]) * 1000:7.1f} ms)")
    verdict = "PASS" if ratio <= TARGET else "FAIL"
    print(f"ratio ge-opt / xdsl-opt (generic, unregistered): {ratio:.2f}  target <= {TARGET}: {verdict}")
    if "xdsl-opt+plugin" in med:
        print(f"ratio ge-opt / xdsl-opt with the plugin: {med['ge-opt'] / med['xdsl-opt+plugin']:.2f}")
    else:
        print("xdsl-opt+plugin: not measured (xdsl-opt does not load the project: no xdsl.universe entry point)")
    if args.json:
        Path(args.json).write_text(
            json.dumps({"example": str(example), "runs_s": walls, "median_s": med, "ratio": ratio}, indent=1)
        )


if __name__ == "__main__":
    main()
