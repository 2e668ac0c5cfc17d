"""`python -m ge_tools.networks`: its listing and its one-line errors (no export here: the
real-network suite, tests/models/, exports and runs every network)."""

from __future__ import annotations

import importlib.util

import pytest

from ge_tools import networks


def test_list_names_every_network(capsys: pytest.CaptureFixture[str]) -> None:
    assert networks.main(["--list"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == list(networks.NETWORKS)


def test_an_unknown_network_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert networks.main(["resnet18", "nope"]) == 1
    assert capsys.readouterr().err == "error: unknown network 'nope' (see --list)\n"


def test_without_the_models_extra_it_says_what_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda m, *a: None if m == "torchvision" else real(m, *a))
    assert networks.main(["resnet18"]) == 1
    assert capsys.readouterr().err == "error: torchvision not installed: pip install -e '.[models]'\n"


def test_an_output_dir_that_cannot_be_made_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    if any(importlib.util.find_spec(m) is None for m in ("torch", "torchvision", "transformers")):
        pytest.skip("the output directory is made after the extra's check")
    assert networks.main(["resnet18", "-o", "/dev/null/x"]) == 1
    assert capsys.readouterr().err == "error: /dev/null/x: Not a directory\n"
