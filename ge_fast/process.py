"""Process tuning of the tools: the garbage collector's thresholds (replaces CPython's
defaults, gc.set_threshold(700, 10, 10)), the exit without the interpreter's teardown
(replaces Python's exit, sys.exit) and the environment's xDSL plugins read once per process
(replaces xdsl/universe.py: Universe.get_multiverse, which reads every installed
distribution's entry points at each call). None changes what a tool writes;
tests/tools/test_console_exit.py proves the output and the exit code are the same, and
tests/ge_fast/test_multiverse.py that the plugins are the same. With the switch off
(ge_fast) all three are Python's and xDSL's own.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from xdsl.universe import Universe

from ge_fast import SWITCH

# CPython's default gen-0 threshold (700 allocations) has the collector run about 900 times
# while a 2,000-node graph goes through ge-compile, 12 % of the CPU time. The IR is made of
# long-lived objects and a run leaves little cyclic garbage, while each collection walks
# every object allocated since the last one (about 0.4 us each: a collection per million
# objects cost fanout 4k 0.5 s and 16k 1.4 s). So the tools collect once per ten million
# net allocations: a graph up to about 40k nodes is compiled without a collection, a larger
# one pays what it did at a lower threshold, and the garbage left is bounded
# (bench/README.md: "Start-up": fanout 16k peak RSS 512 -> 562 MB).
GC_THRESHOLDS = (10_000_000, 1000, 1000)
_PYTHON_GC = gc.get_threshold()  # CPython's own, as the process started


def tune_gc() -> None:
    """The tools' garbage-collector thresholds (GC_THRESHOLDS), set by each tool's main;
    with the switch off, CPython's own (set again: --no-fast-paths is read after main
    tuned them)."""
    gc.set_threshold(*(GC_THRESHOLDS if SWITCH.on else _PYTHON_GC))


def exit_without_teardown(tool_main: Callable[[], None]) -> NoReturn:
    """Run a tool's main as its console script and leave through os._exit once its output
    is flushed: the interpreter's teardown frees every IR object one at a time (0.6 s of
    the 5.2 s of `ge-opt -p ge-compile` on fanout 4k, bench/README.md: "Start-up"), and
    nothing is left to it: every file the tools write is closed by a `with` before main
    returns. mypy's util.hard_exit does the same. In-process callers (the tests) call
    main, which returns or raises SystemExit as before. With the switch off: Python's own
    exit (sys.exit), teardown included."""
    code: int = 0
    try:
        tool_main()
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:  # sys.exit("message"): Python prints it and exits 1
            print(e.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: what Python's own exit reports as 120
            code = code or 120
    if not SWITCH.on:
        sys.exit(code)
    os._exit(code)


_MULTIVERSE: list[Universe] = []  # the one read of this process


def multiverse() -> Universe:
    """`Universe.get_multiverse()`: the dialects, passes and targets of every `xdsl.universe`
    entry point installed. xDSL reads the entry points of every installed distribution at
    each call (about 8 ms each after the first in the models environment, three calls per
    ge-opt: dialects, passes, targets; 2,166 calls were a third of the robustness tests'
    in-process runs); installed distributions do not change while a tool runs, so the
    first read is kept. With the switch off: xDSL's own, each call."""
    if not SWITCH.on:
        return Universe.get_multiverse()
    if not _MULTIVERSE:
        _MULTIVERSE.append(Universe.get_multiverse())
    return _MULTIVERSE[0]
