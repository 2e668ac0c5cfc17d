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
import sys
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path

import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer

from conftest import EXAMPLES, ROOT
from ge_dialect.npu import NPU
from ge_tools.opt import main as ge_opt_main
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context
from random_graphs import graph_text

_STAGE = re.compile(r"^// -----// IR Dump After (\S+) .*$", re.M)


def find_mlir_opt() -> str | None:
    """$MLIR_OPT (`none`: as if absent), else `mlir-opt` on PATH, else the newest
    `mlir-opt-<N>` on PATH, else the newest /usr/lib/llvm-<N>/bin/mlir-opt."""
    if os.environ.get("MLIR_OPT"):
        return None if os.environ["MLIR_OPT"] == "none" else os.environ["MLIR_OPT"]
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
    """With two streams every npu op appears (events, stream_active; the label tasks of the
    known-shape control-flow examples, examples/control/): all parse."""
    mlir_opt = need_mlir_opt()
    control = [p for p in sorted((ROOT / "examples" / "control").glob("*.mlir")) if "dynamic" not in p.name]
    chunks = [
        run_ge_opt([str(p), "-p", "ge-compile{streams=2}", "--print-op-generic"])[0] for p in [*EXAMPLES, *control]
    ]
    seen = {m for c in chunks for m in re.findall(r'"(npu\.\w+)"', c)}
    assert seen == {op.name for op in NPU.operations}
    mlir_opt_parses(mlir_opt, chunks)


# -- node names through upstream tools ---------------------------------------------------

COMPILE_SPECS = [str(p.pipeline_pass_spec(include_default=False)).replace('"', "") for p in GeCompilePass().passes()]


def strip_ssa_names(generic: str) -> str:
    """What an upstream tool does to the names, where mlir-opt is absent: it reads the
    generic form and writes it back with every SSA name numeric (`%0`, `%1`, ...),
    attributes kept (xDSL's plain parser and generic printer, every name hint cleared)."""
    module = Parser(make_context(), generic, "<generic>").parse_module()
    for op in module.walk():
        for v in op.results:
            v.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    a.name_hint = None
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    assert "%0" in out.getvalue()
    return out.getvalue()


def upstream_round_trip(generic: str) -> str:
    if MLIR_OPT is None:
        return strip_ssa_names(generic)
    r = subprocess.run(
        [MLIR_OPT, "--allow-unregistered-dialect", "-"], input=generic, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "%0" in r.stdout
    return r.stdout


def remarks_and_names(path: Path, spec: str) -> tuple[list[str], list[str]]:
    """The remarks (without their locations) of running `spec` on `path`, and the node
    names the compiled model's tasks and tensors carry (`node = "..."`)."""
    out, err = run_ge_opt([str(path), "-p", spec, "--remarks"])
    remarks = [re.sub(r"^\S+: remark: ", "", line) for line in err.splitlines()]
    assert remarks and all(": remark: " not in r for r in remarks)
    return remarks, re.findall(r'node = "([^"]*)"', out)


def check_names_survive(path: Path, cut: int, tmp_path: Path) -> None:
    """ge-compile's first `cut` passes, printed in generic form and through an upstream
    tool, then the rest with --remarks: the same remarks, naming the same nodes, and the
    same node names in the model, as when the custom form goes straight on."""
    head, tail = ",".join(COMPILE_SPECS[:cut]), ",".join(COMPILE_SPECS[cut:])
    custom, generic = tmp_path / "custom.mlir", tmp_path / "upstream.mlir"
    custom.write_text(run_ge_opt([str(path), "-p", head])[0])
    generic.write_text(upstream_round_trip(run_ge_opt([str(path), "-p", head, "--print-op-generic"])[0]))
    expected = remarks_and_names(custom, tail)
    assert expected[1], "the model names its nodes"
    assert remarks_and_names(generic, tail) == expected


NAME_EXAMPLES = ["allgather_concat", "split_compute_merge", "softmax_like", "subgraph_call", "embedding_gather"]


@pytest.mark.parametrize("cut", [0, 4, 8])
@pytest.mark.parametrize("name", NAME_EXAMPLES)
def test_node_names_survive_upstream_tools(name: str, cut: int, tmp_path: Path):
    check_names_survive(ROOT / "examples" / f"{name}.mlir", cut, tmp_path)


@pytest.mark.parametrize("seed", [3, 11, 29, 47])
def test_generated_node_names_survive_upstream_tools(seed: int, tmp_path: Path):
    """Generated graphs name values `%Add_1`, `%Data_0`, `%3:2` and numerically (nodes
    GE's parser names): every name, given or generated, survives."""
    path = tmp_path / "g.mlir"
    path.write_text(graph_text(seed))
    for cut in (0, 5):
        check_names_survive(path, cut, tmp_path)


@pytest.mark.parametrize("name", ["allgather_concat", "split_compute_merge"])
def test_custom_syntax_after_an_upstream_round_trip_reads_as_before(name: str, tmp_path: Path):
    """Every value's SSA name comes back (a SplitD's three too) and the generic form's
    `ge.ssa_names` attributes are gone (the attributes' order is the upstream tool's)."""
    path = ROOT / "examples" / f"{name}.mlir"
    generic = run_ge_opt([str(path), "--print-op-generic"])[0]
    nodes = len(re.findall(r'^\s*%.* = "ge\.', generic, re.M))
    assert len(re.findall(r"ge\.ssa_names = ", generic)) == nodes > 5
    back = tmp_path / "back.mlir"
    back.write_text(upstream_round_trip(generic))
    before, after = run_ge_opt([str(path)])[0], run_ge_opt([str(back)])[0]
    defs = re.compile(r"^\s*(%\w+(?:, %\w+)*) = (\S+)", re.M)
    assert defs.findall(after) == defs.findall(before)
    assert "ge.ssa_names" not in after


def test_stock_xdsl_opt_names_nodes_from_the_generic_attribute(tmp_path: Path):
    """Stock xdsl-opt (the plugin, not the tools' parser) reads an upstream tool's output
    and still names the nodes by their `ge.ssa_names` in its remarks."""
    path = ROOT / "examples" / "allgather_concat.mlir"
    back = tmp_path / "back.mlir"
    back.write_text(upstream_round_trip(run_ge_opt([str(path), "--print-op-generic"])[0]))
    xdsl_opt = Path(sys.executable).parent / "xdsl-opt"
    r = subprocess.run(
        [str(xdsl_opt), str(back), "-p", "ge-concat-notask{remarks=true}"], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr
    assert "ConcatD 'batch' marked no-task; locked producers: ga:0, gb:0" in r.stderr
