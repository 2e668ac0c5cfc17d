"""The timing loop the start-up benchmarks share (bench/bench_startup.py, bench/bench_run_startup.py).

Each command runs in fresh processes; the commands take turns run after run (a, b, c, a,
b, c, ...) so that the load of other processes on a shared machine falls on all of them,
after one warm-up run each (the file cache, the bytecode). What one run costs is the
caller's `measure` (wall seconds, or the child's CPU seconds).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

K = TypeVar("K")

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> str:
    """The tool next to this interpreter (the venv's), else the one on PATH."""
    local = Path(sys.executable).parent / name
    return str(local) if local.exists() else name


def smallest_example() -> Path:
    """The smallest .mlir of examples/."""
    return min(sorted((ROOT / "examples").glob("*.mlir")), key=lambda p: p.stat().st_size)


def take_turns(
    commands: Mapping[K, Sequence[str]], runs: int, measure: Callable[[list[str]], float]
) -> dict[K, list[float]]:
    """`runs` figures per command (by key), the commands in turn run after run, after one
    warm-up run of each."""
    for cmd in commands.values():
        measure(list(cmd))
    out: dict[K, list[float]] = {k: [] for k in commands}
    for _ in range(runs):
        for k, cmd in commands.items():
            out[k].append(measure(list(cmd)))
    return out
