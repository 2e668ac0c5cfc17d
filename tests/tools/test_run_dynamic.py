"""ge-run on dynamic-shape graphs (issue 16 part 5): per-execution inputs of different
shapes (--input NAME=A.npy,B.npy, --dim AXIS=S1,S2), every execution compared with the
reference, the partition and the refresh cost printed, in --stats-json and in --report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import DYNAMIC_EXAMPLES, ROOT
from ge_tools import api
from ge_tools import run as R
from ge_tools.registry import get_all_passes
from ge_tools.run import main
from ge_tools.run import run as ge_run
from runtime.dynamic_executor import DynamicExecutor

EXAMPLE = str(ROOT / "examples" / "dynamic_batch.mlir")


def test_the_dynamic_example_exists_and_has_a_header() -> None:
    assert [p.name for p in DYNAMIC_EXAMPLES] == ["dynamic_batch.mlir", "dynamic_mlp.mlir", "dynamic_transformer.mlir"]
    assert Path(EXAMPLE).read_text().startswith("//")
    module = api.load(EXAMPLE)
    assert api.parse_module(str(module)).is_structurally_equivalent(module)


def test_three_batch_sizes_through_ge_run(tmp_path, capsys) -> None:
    stats = tmp_path / "s.json"
    # the issue-16 path (its unknown part on the host): the refresh costs worked out by hand
    assert ge_run([EXAMPLE, "--dim", "0=2,8,5", "--no-symbolic", "--stats-json", str(stats)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "clusters: 1 unknown-shape, 1 known-shape (1 run as static models: @main_sub_2_know), 1 data, "
        "5 input nodes (Const), 1 netoutput"
    )
    assert [ln.split(";")[0] for ln in out[1:4]] == [
        "execution 0: inputs 2x32",
        "execution 1: inputs 8x32",
        "execution 2: inputs 5x32",
    ]
    assert "outputs match the reference" in out
    d = json.loads(stats.read_text())
    # hand-worked in tests/filecheck/runtime/dynamic_batch.mlir: all 12 slots, then input and
    # output and feature map moved (8), then the same blocks again (0)
    assert d["args_bytes_refreshed"] == [96, 64, 0] and d["executions"] == 3 and d["mismatch_count"] == 0
    assert d["dynamic"]["clusters"]["static_models"] == ["main_sub_2_know"]
    assert [e["models"][0]["update_policy_name"] for e in d["dynamic"]["executions"]] == [
        "all-one-time", "fm-and-model-io", "no_need_update",
    ]  # fmt: skip


def test_input_files_per_execution(tmp_path, capsys) -> None:
    rng = np.random.default_rng(3)
    paths = []
    for b in (1, 4, 6):
        p = tmp_path / f"x{b}.npy"
        np.save(p, rng.uniform(-1, 1, (b, 32)).astype(np.float32))
        paths.append(str(p))
    assert ge_run([EXAMPLE, "--input", "x=" + ",".join(paths)]) == 0
    out = capsys.readouterr().out
    for k, b in enumerate((1, 4, 6)):
        assert f"execution {k}: inputs {b}x32;" in out
    assert "outputs match the reference" in out


def test_default_unknown_dim_is_one(capsys) -> None:
    assert ge_run([EXAMPLE]) == 0
    assert "execution 0: inputs 1x32;" in capsys.readouterr().out


def test_a_wrong_execution_is_reported(monkeypatch, capsys) -> None:
    """Each execution is compared with its own inputs' reference: a wrong second execution fails."""
    real = DynamicExecutor.execute

    def off(self, inputs):  # noqa: ANN001, ANN202
        outs = real(self, inputs)
        if self.executions == 2:
            outs[0][0, 1] += 1.0
        return outs

    monkeypatch.setattr(DynamicExecutor, "execute", off)
    assert ge_run([EXAMPLE, "--dim", "0=2,3,4"]) == 1
    out = capsys.readouterr().out
    assert "execution 1: output 0 y:0: 1 of 4 elements differ; first at [0, 1]" in out
    assert "execution 0:" not in out.split("max error")[1] and "execution 2: output" not in out


def test_report_has_the_dynamic_section(tmp_path) -> None:
    rep = tmp_path / "rep"
    assert ge_run([EXAMPLE, "--dim", "0=2,8", "--report", str(rep)]) == 0
    page = (rep / "index.html").read_text()
    assert '<section id="dynamic"><h2>Dynamic shapes</h2>' in page
    assert '<table id="dynamic-clusters"' in page and '<table id="dynamic-executions"' in page
    assert "<td>4 (all-one-time)</td>" in page and "<td>3 (fm-and-model-io)</td>" in page
    for sid in ("summary", "kernels", "notask", "graphs", "memory", "tasks", "comparison", "remarks"):
        assert f'<section id="{sid}">' in page  # the existing sections stay
    static = tmp_path / "static"
    assert ge_run([str(ROOT / "examples" / "softmax_like.mlir"), "--report", str(static)]) == 0
    assert 'id="dynamic"' not in (static / "index.html").read_text()


def test_an_already_compiled_module_runs(tmp_path, capsys) -> None:
    """ge-run accepts DYN_CONTRACT.md §3's module (the known part already an npu.model)."""
    module = api.load(EXAMPLE)
    compiled = api.compile(module).module
    f = tmp_path / "compiled.mlir"
    f.write_text(str(compiled))
    assert ge_run([str(f), "--dim", "0=3,9"]) == 0
    out = capsys.readouterr().out
    assert "execution 1: inputs 9x32;" in out and "no reference: the module is already compiled" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dim", "0=a"], "ge-run: error: --dim 0=a: expected [NAME:]AXIS=SIZE[,SIZE...] (AXIS, SIZE >= 0)"),
        (["--dim", "0=-1"], "ge-run: error: --dim 0=-1: expected [NAME:]AXIS=SIZE[,SIZE...] (AXIS, SIZE >= 0)"),
        (["--input", "y=a.npy"], "error: ge.graph: --input y=a.npy: give NAME=FILE.npy[,FILE.npy...] for each Data node (x)"),
        (["--executions", "0"], "ge-run: error: --executions must be >= 1, got 0"),
    ],
)  # fmt: skip
def test_bad_arguments_are_one_line(capsys, argv, message) -> None:
    with pytest.raises(SystemExit):
        main([EXAMPLE, *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]


FLAT = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %r = ge.Relu(%x) : (tensor<?x32xf32>) -> tensor<?x32xf32>
  %s = ge.ReduceSumD(%r) {axes = [0], keep_dims = false} : (tensor<?x32xf32>) -> tensor<32xf32>
  %e = ge.Exp(%s) : (tensor<32xf32>) -> tensor<32xf32>
  ge.NetOutput %e : tensor<32xf32>
}
"""


def test_an_unpartitioned_dynamic_graph(tmp_path, capsys) -> None:
    """A graph with ? dims, not partitioned: ge-partition-dynamic partitions it when the pass
    exists (then its known part, the Exp, runs as a static model); without the pass it is
    a located error, not a traceback."""
    src = tmp_path / "flat.mlir"
    src.write_text(FLAT)
    if R.PARTITION_PASS in get_all_passes():
        assert ge_run([str(src), "--dim", "0=3,5"]) == 0
        out = capsys.readouterr().out
        assert "run as static models" in out and "outputs match the reference" in out
        return
    with pytest.raises(SystemExit):
        main([str(src), "-p", "ge-dropout-pass"])
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{src}:1:1: error: ge.graph: graph @main has inputs of unknown shape")


def test_static_graph_takes_a_file_per_execution(tmp_path, capsys) -> None:
    """--input NAME=A,B on a static graph: the model loaded once, each execution its own values."""
    src = ROOT / "examples" / "softmax_like.mlir"
    paths = []
    for k in range(2):
        p = tmp_path / f"x{k}.npy"
        np.save(p, np.random.default_rng(k).uniform(-1, 1, (8, 64)).astype(np.float32))
        paths.append(str(p))
    assert ge_run([str(src), "--input", "x=" + ",".join(paths)]) == 0
    out = capsys.readouterr().out
    assert "executions: 2" in out and "outputs match the reference" in out
    sets = R.make_input_sets(
        R.build_arg_parser().parse_args([str(src), "--input", "x=" + ",".join(paths)]), api.load(str(src)).ops.first
    )  # type: ignore[arg-type]
    assert [float(s[0][0, 0]) for s in sets] == [float(np.load(p)[0, 0]) for p in paths]


@pytest.mark.parametrize(
    ("extra", "msg"),
    [
        (["--dim", "5=2"], "--dim axis 5: no graph input has an unknown dim there (unknown dims: x:0)"),
        (["--dim", "y:0=2"], "--dim y:0: no graph input has an unknown dim there (unknown dims: x:0)"),
    ],
)
def test_a_dim_that_matches_no_unknown_dim_is_an_error(extra, msg) -> None:
    # a --dim naming a static axis or another input was ignored (the default size used)
    p = subprocess.run(
        [sys.executable, "-m", "ge_tools.run", str(ROOT / "examples" / "dynamic_mlp.mlir"), *extra],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 1 and p.stderr.strip().splitlines() == [f"ge-run: error: {msg}"]


def test_ge_run_compiles_a_partitioned_module_as_ge_compile_does(monkeypatch) -> None:
    """One compile path: ge-run on an already-partitioned module runs ge-compile's passes on
    the whole module (ge-partition-dynamic leaves the partition as it is), so the module the
    dynamic executor gets and the remarks are ge-compile's (api.compile, ge-opt -p
    ge-compile), not those of each known subgraph compiled on its own."""
    from ge_dialect.diagnostics import remark_sink

    ran: list[str] = []

    class Recording(DynamicExecutor):
        def __init__(self, module, *a, **k) -> None:  # noqa: ANN001, ANN002, ANN003
            ran.append(str(module))
            super().__init__(module, *a, **k)

    monkeypatch.setattr(R, "DynamicExecutor", Recording)
    got = []
    with remark_sink(got.append):
        assert ge_run([EXAMPLE, "--dim", "0=2,3", "--remarks", "--no-symbolic"]) == 0
    want = api.compile(api.load(EXAMPLE))
    assert ran == [str(want.module)]
    assert [(r.location, r.message) for r in got] == [(r.location, r.message) for r in want.remarks]
    assert any("not partitioned again" in r.message for r in got)


NESTED = """
ge.graph @main attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<?x8xf32>
  %s = ge.PartitionedCall(%x) {f = @main_sub_1_unknow, _is_unknown_shape = true} : (tensor<?x8xf32>) -> tensor<8xf32>
  %k = ge.PartitionedCall(%s) {f = @main_sub_2_know, _is_unknown_shape = false} : (tensor<8xf32>) -> tensor<8xf32>
  ge.NetOutput %k : tensor<8xf32>
}
ge.graph @main_sub_1_unknow attributes {_is_unknown_shape = true} {
  %x = ge.Data {index = 0} : tensor<?x8xf32>
  %s = ge.ReduceSumD(%x) {axes = [0], keep_dims = false} : (tensor<?x8xf32>) -> tensor<8xf32>
  ge.NetOutput %s : tensor<8xf32>
}
ge.graph @main_sub_2_know attributes {_is_unknown_shape = false} {
  %a = ge.Data {index = 0} : tensor<8xf32>
  %e = ge.Exp(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %h = ge.PartitionedCall(%e) {f = @helper} : (tensor<8xf32>) -> tensor<8xf32>
  %n = ge.Neg(%h) : (tensor<8xf32>) -> tensor<8xf32>
  ge.NetOutput %n : tensor<8xf32>
}
ge.graph @helper {
  %a = ge.Data {index = 0} : tensor<8xf32>
  %r = ge.Relu(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %m = ge.Mul(%r, %r) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  ge.NetOutput %m : tensor<8xf32>
}
"""


def test_a_known_subgraph_that_calls_a_graph(tmp_path, capsys) -> None:
    """DYN_CONTRACT.md §3: a graph a known subgraph calls is inlined into its known-node
    model. Compiled on its own (the known subgraph alone in a module) the call's callee
    was missing: ge-run failed with "subgraph @helper is not a ge.graph"."""
    src = tmp_path / "nested.mlir"
    src.write_text(NESTED)
    assert ge_run([str(src), "--dim", "0=3,5"]) == 0
    out = capsys.readouterr().out
    assert "(1 run as static models: @main_sub_2_know)" in out and "outputs match the reference" in out


def test_a_pipeline_that_does_not_compile_the_known_subgraph(tmp_path, capsys) -> None:
    """-p stopping before ge-to-npu on a partitioned module: one located error line naming
    the known subgraph left a ge.graph."""
    with pytest.raises(SystemExit):
        main([EXAMPLE, "-p", "ge-partition-dynamic"])
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"{EXAMPLE}:12:1: error: ge.graph: graph @main is partitioned, but the pipeline did not compile its "
        "known-shape subgraph @main_sub_2_know into known-node models (npu.model known_node = true: "
        "ge-assign-memory, ge-to-npu)"
    ]
