"""The real-network suite (ge_tools/networks.py) from PyTorch directly, as TorchAir takes
models to GE: each network through `torch.compile(backend="ge_xdsl")` and through
`torch.export` + `torch.export.save` + `ge-run MODEL.pt2`, both compared with eager PyTorch.

One test per network, both paths on the same model and inputs (the CNNs at 32x32, the
smallest size every one of them takes, to keep the suite's time; the others at the suite's
own inputs):

* torch.compile: the returned tensors against eager at a fixed tolerance computed here
  (the backend's own `check`, ge-run's comparison, is tested in
  tests/tools/test_torch_backend.py; here it would repeat the error-bound pass ge-run
  makes below), after asserting Dynamo gave the backend a graph (lstm and gru too: the
  backend turns on Dynamo's allow_rnn, ge_tools/torch_backend.py);
* the .pt2 program through ge-run as a user runs it (`--input` the same arrays,
  `--save-dir`): ge-run exits 0 after judging every element against the reference
  interpreter (the deep networks' elements step by step: the anchored judgment,
  docs/tolerance.md), and its saved outputs are compared with eager. ge-run's main runs
  in this process (the console script's code; a process of its own would import torch
  again, 2.4 CPU-s per network: tests/tools/test_torch_backend.py runs the script itself
  on a .pt2).

Skipped only where torch is absent (the `models` extra; .ci/run installs it).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from conftest import run_cli

torch = pytest.importorskip("torch", reason="the real-network suite needs the `models` extra (torch)")
pytest.importorskip("torchvision", reason="the real-network suite needs the `models` extra (torchvision)")
pytest.importorskip("transformers", reason="the real-network suite needs the `models` extra (transformers)")

from ge_tools.networks import NETWORKS  # noqa: E402
from ge_tools.run_cli import main as ge_run_main  # noqa: E402
from ge_tools.torch_backend import ge_xdsl  # noqa: E402


def _inputs(name: str) -> tuple:
    net = NETWORKS[name]
    if net.family == "torchvision" and name != "vit":  # vit's image size is its config's
        g = torch.Generator().manual_seed(1)
        return (torch.randn(1, 3, 32, 32, generator=g),)
    return net.inputs()


def _close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype, (what, got.shape, got.dtype, want.shape, want.dtype)
    scale = max(1.0, float(np.abs(want).max()))
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4 * scale, err_msg=what)


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_network_matches_eager(name: str, tmp_path: Path) -> None:
    model = NETWORKS[name].build()
    inputs = _inputs(name)
    with torch.no_grad():
        want = model(*inputs).numpy()

    # torch.compile(backend="ge_xdsl")
    torch._dynamo.reset()
    stats: dict = {}
    fast = torch.compile(model, backend=ge_xdsl, options={"stats": stats})
    with torch.no_grad():
        got = fast(*inputs)
    assert stats.get("compiles", 0) >= 1, f"{name}: Dynamo gave the backend no graph"
    _close(got.numpy(), want, f"{name} through torch.compile")

    # torch.export -> .pt2 -> ge-run
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = torch.export.export(model, inputs)
    pt2 = tmp_path / f"{name}.pt2"
    torch.export.save(program, str(pt2))
    files = []
    for k, x in enumerate(inputs):
        files += ["--input", str(tmp_path / f"input_{k}.npy")]
        np.save(files[-1], x.numpy())
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(ge_run_main, [str(pt2), *files, "--save-dir", str(out)])
    log = (stdout + stderr)[-3000:]
    assert code == 0, log
    assert "outputs match the reference" in log, log
    _close(np.load(out / "output_0.npy"), want, f"{name} through torch.export and ge-run")
