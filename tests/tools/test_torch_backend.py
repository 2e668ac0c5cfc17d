"""ge_tools/torch_backend.py (torch.compile's ge_xdsl backend) and `.pt2` programs in the tools."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ge_tools.torch_backend import GeCheckError, ge_xdsl  # noqa: E402
from importers import fx as fx_importer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
F = torch.nn.functional


class Small(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(4)
        self.fc = torch.nn.Linear(4, 5)
        self.ln = torch.nn.LayerNorm(5)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        y = F.adaptive_avg_pool2d(y, 1).flatten(1)
        return torch.softmax(F.silu(self.ln(self.fc(y))), -1), F.gelu(y).t()


def _compile(model, **options):
    return torch.compile(model, backend=ge_xdsl, options=options)


def test_entry_point_names_the_backend():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["entry-points"]["torch_dynamo_backends"] == {"ge_xdsl": "ge_tools.torch_backend:ge_xdsl"}


def test_small_network_matches_eager_with_stats_remarks_and_dumps(tmp_path, capsys):
    torch._dynamo.reset()
    m = Small().eval()
    x = torch.randn(2, 3, 8, 8)
    stats: dict = {}
    with torch.no_grad():
        got = _compile(m, check=True, remarks=True, stats=stats, dump_dir=str(tmp_path))(x)
        want = m(x)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-4, atol=1e-5)
    assert stats["compiles"] == 1 and stats["calls"] == 1
    assert stats["graphs"][0]["tasks"] > 0 and "memory_size" in stats["graphs"][0]
    # remarks point at this file's lines (the FX nodes' stack traces)
    err = capsys.readouterr().err
    assert f"{__file__}:" in err and ": remark: " in err
    dumped = (tmp_path / "graph_0.mlir").read_text()
    assert "ge.Conv2D" in dumped and "ge.MaxPoolV3" in dumped and "ge.SoftmaxV2" in dumped
    assert "npu.model" in (tmp_path / "graph_0.compiled.mlir").read_text()


def test_report_and_stats_mean_what_ge_run_says(tmp_path):
    """`report` writes ge-run --report's page per subgraph; `stats` has ge-run --stats-json's
    figures, with the same values ge-run gives for the same imported graph."""
    torch._dynamo.reset()
    m = Small().eval()
    stats: dict = {}
    fast = _compile(m, check=True, stats=stats, dump_dir=str(tmp_path), report=str(tmp_path / "report"))
    with torch.no_grad():
        for _ in range(2):
            fast(torch.randn(2, 3, 8, 8))
    page = (tmp_path / "report" / "graph_0" / "index.html").read_text()
    assert "eager PyTorch" in page and "ge-autofuse" in page and f"{__file__}" in page
    assert (tmp_path / "report" / "graph_0" / "02_planned.dot").exists()
    ours = stats["graphs"][0]
    assert ours["executions"] == 2 and ours["mode"] == "compare" and ours["mismatch_count"] == 0
    out = tmp_path / "run.json"
    r = subprocess.run(
        [sys.executable, "-m", "ge_tools.run", str(tmp_path / "graph_0.mlir"), "--stats-json", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    theirs = json.loads(out.read_text())
    assert set(theirs) <= set(ours), set(theirs) - set(ours)
    for key in ("graph", "passes", "outputs", "tasks", "tasks_by_kind", "kernels", "memory_size", "bytes_moved"):
        assert ours[key] == theirs[key], key


class Centered(torch.nn.Module):
    """Reductions and pointwise ops, every one with a symbolic shape rule (docs/dynamic_shapes.md)."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.w = torch.nn.Parameter(torch.randn(32))

    def forward(self, x):
        d = x - x.mean(-1, keepdim=True)
        return torch.sigmoid(d * self.w) + torch.relu(x).sum(-1, keepdim=True)


def test_dynamic_batch_compiles_once():
    """dynamic=True: one Dynamo graph with a `?` batch, compiled once over symbols and run
    in device kernels at three batch sizes (ge-run's symbolic path)."""
    torch._dynamo.reset()
    m = Centered().eval()
    stats: dict = {}
    fast = torch.compile(m, backend=ge_xdsl, dynamic=True, options={"stats": stats, "check": True})
    with torch.no_grad():
        for b in (2, 3, 7):
            x = torch.randn(b, 32)
            np.testing.assert_allclose(fast(x).numpy(), m(x).numpy(), rtol=1e-5, atol=1e-6)
    assert stats["compiles"] == 1 and stats["calls"] == 3  # Dynamo's: one graph for every batch
    (graph,) = stats["graphs"]
    assert graph["compiles"] == 1  # ours: one compile over symbols serves the three
    runs = graph["dynamic"]["executions"]
    assert [r["symbols"] for r in runs] == [{"s0": 2}, {"s0": 3}, {"s0": 7}]
    assert all(r["device_kernels"] > 0 for r in runs), runs


def test_graph_break_gives_two_models():
    torch._dynamo.reset()

    def f(x):
        y = torch.tanh(x) * 2.0
        print("graph break")
        return torch.sigmoid(y) + x

    stats: dict = {}
    x = torch.randn(3, 4)
    got = torch.compile(f, backend=ge_xdsl, options={"stats": stats})(x)
    np.testing.assert_allclose(got.numpy(), f(x).numpy(), rtol=1e-5, atol=1e-6)
    assert stats["compiles"] == 2 and len(stats["graphs"]) == 2


def test_unconverted_op_is_one_line_naming_the_source_line():
    torch._dynamo.reset()

    def f(x):
        return torch.cumsum(x, 0)  # the unconverted ATen op

    with pytest.raises(Exception) as info:
        torch.compile(f, backend=ge_xdsl)(torch.randn(3))
    e = info.value
    # Dynamo wraps a backend's error in BackendCompilerFailed (its inner_exception)
    e = getattr(e, "inner_exception", e)
    assert isinstance(e, fx_importer.FxImportError)
    line = f.__code__.co_firstlineno + 1
    assert str(e) == (
        f"{__file__}:{line}:1: error: aten.cumsum.default (node 'cumsum'): no converter for this ATen op "
        f"({len(fx_importer.CONVERTERS)} ATen ops have one: importers.fx.supported_ops())"
    )


def test_check_reports_the_mismatching_node(monkeypatch):
    torch._dynamo.reset()

    def wrong(cx):  # a converter made wrong on purpose: exp instead of tanh
        return cx.single(fx_importer.ge.Exp, cx.x("self"))

    monkeypatch.setitem(fx_importer.CONVERTERS, "aten.tanh.default", wrong)

    def f(x):
        return torch.tanh(x) + 1.0

    with pytest.raises(GeCheckError) as info:
        torch.compile(f, backend=ge_xdsl, options={"check": True})(torch.randn(2, 3))
    # the FX node of the output and the user's line that made it (its stack_trace)
    line = f.__code__.co_firstlineno + 1
    assert str(info.value).startswith(f"{__file__}:{line}:1: error: output 0 (node 'add'): ")
    assert " of 6 elements differ from eager" in str(info.value) and "\n" not in str(info.value)


def test_check_undecidable_is_inconclusive_unless_accepted():
    """An element within rounding of a comparison's boundary (0.3 * 10 against 3) has an
    infinite error bound: the check calls the call inconclusive, as ge-run does, naming the
    output's node and line; accept_undecidable accepts it unjudged and counts it."""

    def f(x):
        return (x * 10.0 > 3.0).float() + x

    x = torch.tensor([0.1, 0.2, 0.3, 0.55])
    torch._dynamo.reset()
    with pytest.raises(GeCheckError) as info:
        torch.compile(f, backend=ge_xdsl, options={"check": True})(x)
    line = f.__code__.co_firstlineno + 1
    assert str(info.value).startswith(
        f"{__file__}:{line}:1: error: output 0 (node 'add'): comparison inconclusive: 1 of 4 elements are undecidable"
    )
    torch._dynamo.reset()
    stats: dict = {}
    got = torch.compile(f, backend=ge_xdsl, options={"check": True, "accept_undecidable": True, "stats": stats})(x)
    np.testing.assert_array_equal(got.numpy(), f(x).numpy())
    assert stats["graphs"][0]["unbounded_elements"] == 1 and stats["graphs"][0]["mismatch_count"] == 0


def test_readme_torch_compile_block_runs_as_shown(tmp_path, monkeypatch, capsys):
    """README's "Bring your PyTorch model": its torch.compile block runs as written (the
    backend by its entry-point name, on a torchvision network), prints the remark lines
    shown, and the figures it shows are the stats it gets; its report page is written."""
    pytest.importorskip("torchvision")
    text = (ROOT / "README.md").read_text()
    section = text[text.index("\n## Bring your PyTorch model\n") :]
    section = section[: section.find("\n## ", 1)]
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", section, re.S) if "torch.compile(" in b]
    shown = re.search(r"```text\n(.*?)```", section, re.S)
    assert 'backend="ge_xdsl"' in block and "torchvision.models." in block and shown is not None
    monkeypatch.chdir(tmp_path)
    torch._dynamo.reset()
    scope: dict = {"__name__": "readme"}
    exec(compile(block, "README.md (Bring your PyTorch model)", "exec"), scope)
    err = capsys.readouterr().err
    lines = shown.group(1).splitlines()
    remarks = [ln for ln in lines if ": remark: " in ln]
    assert remarks
    for ln in remarks:  # `.../torchvision/...` stands for the installed package's directory
        assert ln.removeprefix("...") in err, ln
    expr = next(ln.removeprefix(">>> ") for ln in lines if ln.startswith(">>> "))
    value = lines[lines.index(">>> " + expr) + 1]
    assert repr(eval(expr, scope)) == value
    assert (tmp_path / "report" / "graph_0" / "index.html").exists()


def test_exported_program_through_the_tools(tmp_path):
    """A .pt2 through ge-import and ge-opt (their mains in this process, as their scripts
    call them) and through the installed ge-run script in a process of its own; a file that
    is not a program is one error line and exit 1. (Each process imports torch again, 1 to
    2.4 CPU-s: the script itself runs once.)"""
    from conftest import run_cli
    from ge_tools.import_onnx import main as import_main
    from ge_tools.opt import main as opt_main
    from ge_tools.run_cli import main as run_main

    m = Small().eval()
    x = torch.randn(1, 3, 8, 8)
    path = tmp_path / "small.pt2"
    torch.export.save(torch.export.export(m, (x,)), str(path))
    code, out, err = run_cli(import_main, [str(path)])
    assert code == 0, err
    assert "ge.Conv2D" in out and '"fc.weight"' not in out and "%fc.weight" in out
    code, out, err = run_cli(opt_main, [str(path), "-p", "ge-compile"])
    assert code == 0 and "npu.model" in out, err
    run = subprocess.run([sys.executable, "-m", "ge_tools.run", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    bad = tmp_path / "bad.pt2"
    bad.write_bytes(b"not a zip")
    code, out, err = run_cli(run_main, [str(bad)])
    assert code == 1 and err.count("\n") == 1 and f"{bad}: error: not a torch.export program" in err


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=["f32", "f16"])
@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
def test_recurrent_layers_match_eager(kind, dtype, tmp_path):
    """nn.LSTM / nn.GRU / nn.RNN (two layers, bidirectional, batch-first, with and without biases)
    reach the backend as ATen graphs and match eager under `check`, every output (y and the
    final states, stacked). A float32 LSTM is captured as one mkldnn_rnn_layer per layer and
    direction: each becomes one DynamicRNN; the others are the unrolled cells (unbind, flip
    of the reverse direction, stack)."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    cls = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU, "rnn": torch.nn.RNN}[kind]
    bias = dtype == torch.float32
    m = cls(4, 6, num_layers=2, bidirectional=True, batch_first=True, bias=bias).eval().to(dtype)
    x = torch.randn(2, 3, 4).to(dtype)
    stats: dict = {}
    with torch.no_grad():
        got = _compile(m, check=True, stats=stats, dump_dir=str(tmp_path))(x)
        want = m(x)
    flat = lambda v: [t for item in v for t in (flat(item) if isinstance(item, tuple) else [item])]  # noqa: E731
    tol = 1e-5 if dtype == torch.float32 else 2e-3
    for g, w in zip(flat(got), flat(want), strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g.float().numpy(), w.float().numpy(), rtol=tol, atol=tol)
    assert stats["compiles"] == 1 and stats["graphs"][0]["mismatch_count"] == 0
    dumped = (tmp_path / "graph_0.mlir").read_text()
    assert dumped.count("ge.DynamicRNN") == (4 if kind == "lstm" and dtype == torch.float32 else 0)


def test_rnn_needs_no_extra_step():
    """`torch.compile(lstm, backend="ge_xdsl")` in a fresh process, the backend found by its
    entry-point name and nothing else set: Dynamo gives the backend the LSTM's graph
    (importing the backend turned allow_rnn on), which matches eager."""
    code = (
        "import torch\n"
        "torch.manual_seed(0)\n"
        "m = torch.nn.LSTM(4, 5).eval()\n"
        "x = torch.randn(3, 2, 4)\n"
        "stats = {}\n"
        "with torch.no_grad():\n"
        "    y, _ = torch.compile(m, backend='ge_xdsl', options={'stats': stats})(x)\n"
        "    d = float((y - m(x)[0]).abs().max())\n"
        "print(stats.get('compiles', 0), d < 1e-5)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["1", "True"], r.stdout


def test_networks_torch_compile_entry(capsys):
    """`python -m ge_tools.networks --torch-compile NAME ...`: one line per network, a CNN
    matching eager, and a network Dynamo does not capture (an LSTM, with allow_rnn set back
    to False, the opt-out docs/bring_your_model.md names) reported, not counted as a match."""
    from ge_tools.networks import main

    with torch._dynamo.config.patch(allow_rnn=False):
        assert main(["--torch-compile", "squeezenet1_1", "lstm"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("squeezenet1_1: matches eager (1 compiled subgraph(s), ")
    assert out[1] == "lstm: error: not compiled: Dynamo captured no graph (it ran the model eagerly)"
