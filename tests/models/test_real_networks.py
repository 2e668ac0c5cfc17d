"""The real-network suite (ge_tools/networks.py): every network exported by torch as it
comes, then `ge-run NET.onnx --seed 0` as a user runs it (ge-run's main in this process,
which has exported the model already): imported, compiled, simulated, and compared
element by element with the reference interpreter and with onnxruntime.

A network passes when ge-run exits 0, says both "outputs match the reference" and
"outputs match onnxruntime", and its --stats-json has no element left unjudged
(`unbounded_elements` 0) and no mismatch; for the deep ones, whose elements only the
anchored judgment judges, `anchored_elements` counts them. Skipped only where torch is not installed
(the project's `models` extra; .ci/run installs it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli

torch = pytest.importorskip("torch", reason="the real-network suite needs the `models` extra (torch)")
pytest.importorskip("torchvision", reason="the real-network suite needs the `models` extra (torchvision)")
pytest.importorskip("transformers", reason="the real-network suite needs the `models` extra (transformers)")

from ge_tools.networks import NETWORKS, export  # noqa: E402
from ge_tools.run_cli import main as ge_run_main  # noqa: E402


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {}


def _model(name: str, exported: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    if name not in exported:
        path = tmp_path_factory.mktemp("networks") / f"{name}.onnx"
        export(name, str(path))
        exported[name] = path
    return exported[name]


# Networks whose outputs the end-to-end worst-case bounds cannot judge: the per-op bounds
# compound over their depth until they exceed the values (docs/tolerance.md), so every
# output element ge-run judges there is judged step by step (anchored: each kernel, and
# each onnxruntime node, on the inputs it read).
DEEP = {"densenet121", "mobilenet_v3_small", "resnet50", "t5_encoder", "vit"}


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_network_matches_onnxruntime(
    name: str, exported: dict[str, Path], tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    model = _model(name, exported, tmp_path_factory)
    stats = tmp_path / "stats.json"
    code, stdout, stderr = run_cli(ge_run_main, [str(model), "--seed", "0", "--stats-json", str(stats)])
    out = stdout + stderr
    assert code == 0, out[-3000:]
    assert "outputs match the reference" in out, out[-3000:]
    assert "outputs match onnxruntime" in out, out[-3000:]
    figures = json.loads(stats.read_text())
    assert figures["unbounded_elements"] == 0, out[-3000:]
    assert figures["mismatch_count"] == 0, out[-3000:]
    if name in DEEP:  # judged, but only step by step: the count says so
        assert figures["anchored_elements"] > 0 and figures["anchored_steps"] > 0, out[-3000:]
        assert "judged step by step" in out, out[-3000:]
