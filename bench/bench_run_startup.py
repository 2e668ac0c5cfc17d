"""Start-up cost of ge-run against ge-opt, measured in one run (issue 31, target 4).

    python bench/bench_run_startup.py [--runs 7] [--example PATH] [--json PATH]

Three pairs of commands, each in fresh processes, taking turns run after run (a, b, a, b,
...) so that the machine's other load falls on both; each figure is the median CPU time
(user + system, of the child process: the load of the other processes on a shared machine
does not count in it) over --runs:

  ge-run --version          / ge-opt --version            target <= 1.2
  ge-run --help             / ge-opt --help               target <= 1.2
  ge-run EXAMPLE            / ge-opt -p ge-compile EXAMPLE target <= 1.5

EXAMPLE is the smallest .mlir of examples/ (default): ge-run compiles it with ge-compile,
simulates it and compares it with the reference interpreter, ge-opt only compiles it. The
script prints each pair's medians, the ratio and PASS/FAIL against its target, and which
modules `ge-run --version` and `ge-run EXAMPLE` load beyond ge-opt's (python -X importtime,
top-level packages only). A benchmark reports; it never fails the exit code on a missed
target.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
from pathlib import Path

from startup_timing import ROOT, smallest_example, take_turns, tool

TARGETS = {"--version": 1.2, "--help": 1.2, "EXAMPLE": 1.5}


def cpu(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one run of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(
            f"bench_run_startup: {' '.join(cmd)} failed (exit {p.returncode}):\n{p.stderr.decode()[-2000:]}"
        )
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imported(cmd: list[str]) -> set[str]:
    """The top-level packages `cmd` (a console script) imports (python -X importtime)."""
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    names = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "imported package" not in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7, help="repetitions of each command (default 7)")
    ap.add_argument("--example", type=Path, help="the module (default: the smallest of examples/)")
    ap.add_argument("--json", help="also write the numbers to this file")
    args = ap.parse_args(argv)
    example = str(args.example or smallest_example())
    run, opt = tool("ge-run"), tool("ge-opt")
    pairs = {
        "--version": ([run, "--version"], [opt, "--version"]),
        "--help": ([run, "--help"], [opt, "--help"]),
        "EXAMPLE": ([run, example], [opt, "-p", "ge-compile", example]),
    }
    # ge-run's and ge-opt's command of each pair in turn: a, b, a, b, ...
    cmds = {(k, side): cmd for k, pair in pairs.items() for side, cmd in enumerate(pair)}
    measured = take_turns(cmds, args.runs, cpu)
    times = {k: (measured[(k, 0)], measured[(k, 1)]) for k in pairs}
    print(f"example: {Path(example).relative_to(ROOT) if Path(example).is_relative_to(ROOT) else example}, "
          f"{args.runs} runs each, CPU seconds (user + system), medians; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    out: dict[str, object] = {"example": example, "runs": args.runs, "load_average": os.getloadavg()[0]}
    for k, (ta, tb) in times.items():
        a, b = statistics.median(ta), statistics.median(tb)
        ratio = a / b
        verdict = "PASS" if ratio <= TARGETS[k] else "FAIL"
        cmd_a, cmd_b = (" ".join(Path(c).name if i == 0 else c for i, c in enumerate(p)) for p in pairs[k])
        print(f"  {cmd_a:40.40s} {a * 1000:7.1f} ms   {cmd_b:40.40s} {b * 1000:7.1f} ms   "
              f"ratio {ratio:.2f} (target <= {TARGETS[k]}): {verdict}")  # fmt: skip
        out[k] = {"ge_run_s": ta, "ge_opt_s": tb, "ratio": ratio}
    base = imported([opt, "--version"])
    for k in ("--version", "EXAMPLE"):
        extra = sorted(imported(pairs[k][0]) - imported(pairs[k][1]) - {"__main__"})
        print(f"ge-run {k} loads beyond ge-opt's: {', '.join(extra) or 'nothing'}")
        out[f"extra_modules {k}"] = extra
    out["ge_opt_version_modules"] = sorted(base)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
