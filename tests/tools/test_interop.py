"""Interoperability with upstream MLIR (issue 14, point 6): every stage's generic form
(`ge-opt -p ge-compile --print-ir-after-all --print-op-generic`) parses with upstream
`mlir-opt --allow-unregistered-dialect`.

mlir-opt is Debian's `mlir-19-tools` (`/usr/bin/mlir-opt-19`), which .ci/run installs;
where it is absent the mlir-opt tests skip, saying so, unless GE_XDSL_REQUIRE_MLIR_OPT=1
(set by .ci/run) makes its absence a failure. The syntax check below runs everywhere.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import pytest

from conftest import EXAMPLES
from ge_dialect.npu import NPU
from ge_tools.opt import main as ge_opt_main
from ge_tools.pipeline import GeCompilePass
from random_graphs import graph_text

_STAGE = re.compile(r"^// -----// IR Dump After (\S+) .*$", re.M)


def find_mlir_opt() -> str | None:
    """$MLIR_OPT, else `mlir-opt` on PATH, else the newest `mlir-opt-<N>` on PATH, else
    the newest /usr/lib/llvm-<N>/bin/mlir-opt."""
    if os.environ.get("MLIR_OPT"):
        return os.environ["MLIR_OPT"]
    if (path := shutil.which("mlir-opt")) is not None:
        return path
    found: list[tuple[int, str]] = []
    for d in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/lib/llvm-*/bin"]:
        for p in glob.glob(os.path.join(d, "mlir-opt-[0-9]*")) + glob.glob(os.path.join(d, "mlir-opt")):
            m = re.search(r"(\d+)", p.rsplit("mlir-opt", 1)[-1]) or re.search(r"llvm-(\d+)", p)
            if m and os.access(p, os.X_OK):
                found.append((int(m.group(1)), p))
    return max(found)[1] if found else None


MLIR_OPT = find_mlir_opt()


def need_mlir_opt() -> str:
    if MLIR_OPT is None:
        msg = "upstream mlir-opt not found (apt-get install mlir-19-tools, or set MLIR_OPT)"
        if os.environ.get("GE_XDSL_REQUIRE_MLIR_OPT"):
            pytest.fail(msg + "; GE_XDSL_REQUIRE_MLIR_OPT is set")
        pytest.skip(msg)
    return MLIR_OPT


def run_ge_opt(args: list[str]) -> tuple[str, str]:
    """ge-opt in-process: (stdout, stderr); a failing run fails the test with its message."""
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            ge_opt_main(args)
        except SystemExit as e:
            if e.code:
                pytest.fail(f"ge-opt {' '.join(args)} failed: {err.getvalue()}")
    return out.getvalue(), err.getvalue()


def generic_stages(path: Path) -> list[tuple[str, str]]:
    """(pass, generic IR after it) for each pass of ge-compile, from --print-ir-after-all."""
    _, err = run_ge_opt([str(path), "-p", "ge-compile", "--print-ir-after-all", "--print-op-generic"])
    parts = _STAGE.split(err)
    stages = list(zip(parts[1::2], parts[2::2]))
    assert [name for name, _ in stages] == [p.name for p in GeCompilePass().passes()]
    for name, text in stages:
        assert text.lstrip().startswith('"builtin.module"() ({'), f"not generic after {name}: {text[:80]!r}"
    return stages


def mlir_opt_parses(mlir_opt: str, chunks: list[str]) -> None:
    """Every chunk parses with `mlir-opt --allow-unregistered-dialect` (one run, split input)."""
    r = subprocess.run(
        [mlir_opt, "--allow-unregistered-dialect", "--split-input-file", "-"],
        input="\n// -----\n".join(chunks),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("// -----") == len(chunks) - 1


# xDSL spells some builtin attributes with a dialect prefix MLIR does not know
# (`#builtin.int<1>`, an IntAttr); MLIR's builtin attributes and types have no prefix.
_XDSL_ONLY_BUILTIN = re.compile(r"[#!]builtin\.")


def test_generic_stages_use_mlir_builtin_syntax_only():
    """Runs without mlir-opt: no stage of any example prints an xDSL-only builtin spelling
    (the npu level printed `streams = #builtin.int<1>` before)."""
    for path in EXAMPLES:
        for name, text in generic_stages(path):
            bad = _XDSL_ONLY_BUILTIN.search(text)
            assert bad is None, f"{path.name} after {name}: {text[bad.start() : bad.start() + 40]!r}"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_stage_parses_with_mlir_opt(path: Path):
    mlir_opt = need_mlir_opt()
    mlir_opt_parses(mlir_opt, [text for _, text in generic_stages(path)])


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_generated_graph_stages_parse_with_mlir_opt(seed: int, tmp_path: Path):
    """Generated graphs (tests/random_graphs.py: multi-output nodes, 0-d tensors, every
    dtype, numeric and word SSA names)."""
    mlir_opt = need_mlir_opt()
    path = tmp_path / f"random_{seed}.mlir"
    path.write_text(graph_text(seed))
    mlir_opt_parses(mlir_opt, [text for _, text in generic_stages(path)])


def test_two_stream_models_parse_with_mlir_opt():
    """With two streams every npu op appears (events, stream_active): all parse."""
    mlir_opt = need_mlir_opt()
    chunks = [run_ge_opt([str(p), "-p", "ge-compile{streams=2}", "--print-op-generic"])[0] for p in EXAMPLES]
    seen = {m for c in chunks for m in re.findall(r'"(npu\.\w+)"', c)}
    assert seen == {op.name for op in NPU.operations}
    mlir_opt_parses(mlir_opt, chunks)
