"""Start-up (issue 14, point 7): ge-opt imports what a run needs and nothing more, so that
on the smallest example it costs about what xdsl-opt costs (bench/bench_startup.py
measures the ratio). The tests count imported modules (`python -X importtime` on the
real ge-opt script, in a fresh process), never seconds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT

GE_OPT = Path(sys.executable).parent / "ge-opt"
SMALLEST = min(EXAMPLES, key=lambda p: p.stat().st_size)

# What a parse-and-print run does not need: the data and solver libraries, the drawing
# and the simulator, the importer, and every pass (the registry builds a pass only when
# the pipeline names it).
LAZY = frozenset(
    {"numpy", "ml_dtypes", "ortools", "onnx", "networkx", "matplotlib", "report", "runtime", "importers"}
    | {"passes", "lowering"}
)

_IMPORT = re.compile(r"^import time:\s+\d+ \|\s+\d+ \| *(\S+)$", re.M)


def imported(*args: str) -> set[str]:
    """Every module a ge-opt run imports (importtime's list), the run's output checked."""
    r = subprocess.run(
        [sys.executable, "-X", "importtime", str(GE_OPT), *args], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "ge.graph" in r.stdout or "npu.model" in r.stdout or "usage:" in r.stdout
    modules = set(_IMPORT.findall(r.stderr))
    assert "ge_dialect.ge" in modules or "usage:" in r.stdout  # the list is the real one
    return modules


def roots(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_parse_and_print_imports_no_pass_and_no_data_library():
    assert roots(imported(str(SMALLEST))) & LAZY == set()


def test_one_pass_imports_that_pass_and_what_it_needs_only():
    modules = imported(str(SMALLEST), "-p", "ge-concat-notask")
    assert roots(modules) & LAZY == {"passes"}
    assert "passes.notask.concat" in modules
    assert all(m == "passes" or m.startswith("passes.notask") for m in modules if roots({m}) == {"passes"})


def test_generic_output_imports_no_data_library():
    assert roots(imported(str(SMALLEST), "--print-op-generic")) & LAZY == set()


def test_help_still_lists_every_pass():
    """The epilog is built when the help is printed (it imports every pass to read its
    doc), not on every run."""
    r = subprocess.run([str(GE_OPT), "--help"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0
    assert all(name in r.stdout for name in ("ge-concat-notask", "ge-compile", "ge-assign-memory", "ge-to-npu"))


_COUNT_COLLECTIONS = """
import gc, sys
n = [0]
gc.callbacks.append(lambda phase, info: n.__setitem__(0, n[0] + (phase == "start")))
from ge_tools import opt
n[0] = 0  # the run's collections, not the imports'
if sys.argv[1] == "main":
    opt.main(sys.argv[2:])
else:  # the same run without main's tune_gc: CPython's default thresholds
    opt.run_tool(lambda: opt.GeOptMain(sys.argv[2:]).run(), "ge-opt")
print(n[0], file=sys.stderr)
"""


def test_the_tools_collect_garbage_rarely(tmp_path: Path):
    """ge-opt's main sets GC_THRESHOLDS: on a 1,000-node graph the collector runs at least
    ten times less often than with CPython's defaults (counted by gc.callbacks)."""
    from bench.gen_graphs import generate

    path = tmp_path / "g.mlir"
    path.write_text(generate("mixed", 1000, 0))

    def collections(entry: str) -> int:
        r = subprocess.run(
            [sys.executable, "-c", _COUNT_COLLECTIONS, entry, str(path), "-o", str(tmp_path / "out.mlir")],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert r.returncode == 0, r.stderr[-2000:]
        return int(r.stderr.split()[-1])

    tuned, default = collections("main"), collections("default")
    assert default >= 20
    assert tuned * 10 < default


def test_the_plugin_loads_no_dialect_and_no_pass_until_used():
    """Stock xdsl-opt reads every plugin's Universe at start-up (Universe.get_multiverse):
    the project's (ge_tools/universe.py) holds registry.py's lazy factories only."""
    code = (
        "import sys\n"
        "from xdsl.universe import Universe\n"
        "u = Universe.get_multiverse()\n"
        "assert {'ge', 'ascgraph', 'npu'} <= set(u.all_dialects), sorted(u.all_dialects)\n"
        "assert {'ge-concat-notask', 'ge-compile'} <= set(u.all_passes)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ge_dialect', 'passes', 'lowering')))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[]"


def test_a_compile_without_data_to_compute_imports_no_numpy(tmp_path):
    """ge-compile sizes buffers from element types (GeDtype.held_bits) and folds nothing on
    a graph without Const inputs or Shape/Size/Rank nodes: numpy (a fifth of start-up) is
    not loaded; it is as soon as a node is folded."""
    from bench.gen_graphs import generate

    g = tmp_path / "g.mlir"
    g.write_text(generate("diamond", 40, 0))
    modules = imported(str(g), "-p", "ge-compile")
    assert "lowering.ge_to_npu" in modules and "passes.prepare.constant_folding" in modules
    assert "numpy" not in modules
    (tmp_path / "f.mlir").write_text(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2xi32>
  %a = ge.Const {value = dense<[1, 2]> : tensor<2xi32>} : tensor<2xi32>
  %b = ge.Const {value = dense<[3, 4]> : tensor<2xi32>} : tensor<2xi32>
  %c = ge.Add(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %d = ge.Add(%x, %c) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  ge.NetOutput %d : tensor<2xi32>
}
"""
    )
    assert "numpy" in imported(str(tmp_path / "f.mlir"), "-p", "ge-compile")


# -- ge-run (issue 31, target 4: bench/bench_run_startup.py measures the ratios) ----------------

_RUN_MODULES = """
import sys
from ge_tools import run
status = run.run(sys.argv[1:])
print(status, " ".join(sorted(sys.modules)), file=sys.stderr)
"""


def ge_run_modules(*args: str) -> tuple[int, set[str]]:
    """The exit status of a ge-run run in a fresh process, and every module loaded by its end."""
    r = subprocess.run([sys.executable, "-c", _RUN_MODULES, *args], capture_output=True, text=True, timeout=600)
    status, modules = r.stderr.strip().splitlines()[-1].split(" ", 1)
    return int(status), set(modules.split())


def test_ge_run_of_an_f32_graph_loads_no_onnx_no_ml_dtypes_no_drawing():
    """A .mlir run of a float32 graph (compile, simulate, compare with its error bounds)
    needs neither the ONNX libraries, nor ml_dtypes (bf16 / float8 only: numpy's own dtypes
    are told apart by their number, ge_dialect/dtypes.py), nor matplotlib."""
    status, modules = ge_run_modules(str(ROOT / "examples" / "softmax_like.mlir"))
    assert status == 0
    assert "runtime.simulator" in modules and "runtime.error_bound" in modules  # it did run and compare
    assert roots(modules) & {"onnx", "onnxruntime", "ml_dtypes", "matplotlib", "torch"} == set()
    # nor the report (report/html.py and what it draws with), unless asked for: below
    assert {"report.html", "report.memory_svg", "report.layered", "urllib.request"} & modules == set()


def test_ge_run_with_report_loads_the_report(tmp_path: Path):
    status, modules = ge_run_modules(str(ROOT / "examples" / "softmax_like.mlir"), "--report", str(tmp_path / "r"))
    assert status == 0 and (tmp_path / "r" / "index.html").exists()
    assert {"report.html", "report.memory_svg", "report.layered"} <= modules


def test_the_ge_run_script_pins_blas_to_one_thread_unless_told(monkeypatch: pytest.MonkeyPatch):
    """ge-run's console script sets OPENBLAS_NUM_THREADS, OMP_NUM_THREADS and
    MKL_NUM_THREADS to 1 before numpy loads, keeping a value the environment gives."""
    from ge_tools import run_cli

    seen: dict[str, str | None] = {}
    monkeypatch.setattr(run_cli, "exit_without_teardown", lambda main: seen.update(
        {v: os.environ.get(v) for v in run_cli.BLAS_THREAD_ENV}))  # fmt: skip
    for var in run_cli.BLAS_THREAD_ENV:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    run_cli.cli()  # type: ignore[misc]
    assert seen == {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "4", "MKL_NUM_THREADS": "1"}


def test_ge_run_of_a_bf16_graph_loads_ml_dtypes(tmp_path: Path):
    """The counterpart: a bf16 graph does need ml_dtypes (the test above can fail)."""
    t = "tensor<4x8xbf16>"
    path = tmp_path / "bf16.mlir"
    path.write_text(
        f"ge.graph @main {{\n  %x = ge.Data {{index = 0}} : {t}\n  %r = ge.Relu(%x) : ({t}) -> {t}\n"
        f"  %y = ge.Add(%r, %x) : ({t}, {t}) -> {t}\n  ge.NetOutput %y : {t}\n}}\n"
    )
    status, modules = ge_run_modules(str(path))
    assert status == 0
    assert "ml_dtypes" in modules


# ge-run's console script (pyproject.toml: ge_tools.run_cli:cli), as the installed script runs it
_GE_RUN = "import sys; from ge_tools.run_cli import cli; sys.argv[0] = 'ge-run'; cli()"


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_ge_run_reads_its_arguments_before_the_runtime(flag: str):
    """ge-run answers --version and --help from its command line (ge_tools/run_args.py)
    alone: neither ge_tools/run.py nor numpy or the runtime are imported (nor, for
    --version, a pass: ge-opt's --help imports them all too)."""
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _GE_RUN, flag], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("ge-run " if flag == "--version" else "usage: ge-run")
    modules = set(_IMPORT.findall(r.stderr))
    assert "ge_tools.run_args" in modules  # the list is the real one
    assert "ge_tools.run" not in modules
    assert roots(modules) & {"numpy", "ml_dtypes", "onnx", "runtime", "importers"} == set()
    if flag == "--version":  # the help of ge-compile's flags reads its passes' options; --version does not
        assert roots(modules) & {"passes", "lowering"} == set()


def test_ge_run_runs_after_reading_its_arguments():
    r = subprocess.run([sys.executable, "-c", _GE_RUN, str(SMALLEST)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines()[-1] == "outputs match the reference"
    bad = subprocess.run(
        [sys.executable, "-c", _GE_RUN, str(SMALLEST), "--executions", "0"], capture_output=True, text=True, timeout=300
    )
    assert bad.returncode == 1 and bad.stderr.strip() == "ge-run: error: --executions must be >= 1, got 0"
