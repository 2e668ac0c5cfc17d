"""The ge-run console script (pyproject.toml): it reads its arguments (ge_tools/run_args.py)
before it loads numpy, the runtime and the report (ge_tools/run.py), so that --help,
--version and a bad argument cost what ge-opt's do (bench/bench_run_startup.py,
tests/tools/test_interop_startup.py); then it runs ge-run on them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from ge_fast.process import exit_without_teardown, tune_gc
from ge_tools.cli_args import run_tool
from ge_tools.run_args import build_arg_parser


def main(argv: Sequence[str] | None = None) -> None:
    """ge-run's main: its arguments first, then ge_tools/run.py: run_parsed, under the
    tools' error policy (run_tool: one line, exit 1)."""
    tune_gc()
    status = 0

    def go() -> None:
        nonlocal status
        args = build_arg_parser().parse_args(argv)  # --help, --version, a bad flag: answered here
        from ge_tools.run import run_parsed  # numpy, the runtime, the report: after the arguments

        status = run_parsed(args)

    run_tool(go, "ge-run")
    if status:
        sys.exit(status)


# BLAS, OpenMP and MKL on one thread unless the environment says otherwise (ge-run --help,
# "Threads"): set before numpy loads its BLAS, which reads them once, when it loads
BLAS_THREAD_ENV = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def cli() -> NoReturn:
    """The ge-run console script: BLAS on one thread (BLAS_THREAD_ENV), main, then
    exit_without_teardown (ge_fast/process.py)."""
    for var in BLAS_THREAD_ENV:
        os.environ.setdefault(var, "1")
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
