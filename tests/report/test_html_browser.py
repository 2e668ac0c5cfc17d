"""The report of every example in a real browser: headless Chromium loads DIR/index.html, the
inline script runs without an error, the rendered DOM holds the tables, and a screenshot is
not blank. Skipped when no Chromium is installed (`.ci/run` installs Debian's `chromium`)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from report_helpers import EX

from ge_tools.run import run as ge_run

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = os.environ.get("GE_XDSL_CHROMIUM") or next((b for b in BROWSERS if shutil.which(b)), None)

pytestmark = pytest.mark.skipif(
    BROWSER is None,
    reason="no Chromium on PATH: install it (apt-get install -y chromium, as .ci/run does) or point "
    "GE_XDSL_CHROMIUM at a Chromium binary to run the headless-browser test of the report",
)

EXAMPLES = sorted(p.stem for p in EX.glob("*.mlir"))


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium; --no-sandbox as the tests may run as root in a container."""
    assert BROWSER is not None
    cmd = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def console_errors(stderr: str) -> list[str]:
    """Lines where Chromium logged a page's console error or an uncaught exception."""
    return [ln for ln in stderr.splitlines() if "CONSOLE" in ln and ("Uncaught" in ln or "rror" in ln)]


@pytest.mark.parametrize("example", EXAMPLES)
def test_report_loads_in_chromium(tmp_path, example):
    out = tmp_path / "rep"
    assert ge_run([str(EX / f"{example}.mlir"), "--report", str(out)]) == 0
    url = (out / "index.html").as_uri()
    shot = tmp_path / "shot.png"
    # one browser start both dumps the DOM and takes the screenshot (a start is most of a
    # load's CPU)
    done = chromium("--window-size=1200,1600", f"--screenshot={shot}", "--dump-dom", url)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert console_errors(done.stderr) == []
    # the script ran to its end
    assert re.search(r'<body[^>]*data-script="ok"', dom)
    for tid in ("summary-figures", "kernel-list", "lowering", "fusion", "notask-decisions", "remark-list"):
        assert f'<table id="{tid}"' in dom
    assert "<svg" in dom
    assert shot.exists(), done.stderr[-2000:]
    assert not_blank(shot)


def test_long_tables_are_paginated(tmp_path):
    from bench.gen_graphs import generate

    src = tmp_path / "g.mlir"
    src.write_text(generate("mixed", 400, 5, 30))
    out = tmp_path / "rep"
    assert ge_run([str(src), "--report", str(out)]) == 0
    done = chromium("--dump-dom", (out / "index.html").as_uri())
    assert done.returncode == 0
    assert console_errors(done.stderr) == []
    # the lowering table has more rows than a page: the script added its page navigation
    # and hid the rows past the first page
    assert re.search(r'<nav class="pages">.*?rows 1-100 of \d+', done.stdout)
    [lowering] = re.findall(r'<table id="lowering".*?</table>', done.stdout, re.S)
    assert lowering.count('style="display: none;"') == lowering.count("<tr") - 1 - 100


def not_blank(png: Path) -> bool:
    """Whether the screenshot has more than one colour (matplotlib reads PNG)."""
    from matplotlib import image

    a = image.imread(str(png))
    return bool(a.size) and float(a.reshape(-1, a.shape[-1]).std(axis=0).max()) > 0.01


def _report_of(tmp_path: Path, argv: list[str]) -> Path:
    out = tmp_path / "rep"
    assert ge_run([*argv, "--report", str(out)]) in (0, 1)  # 1: an inconclusive comparison
    return out / "index.html"


def _inner_name(page: str) -> str:
    """The name of the first AscIR node drawn inside a kernel cluster of the page."""
    m = re.search(
        r'<g class="cluster AscBackend[^"]*"[^>]*>.*?<g class="node asc[^"]*" id="[^"]*" data-name="([^"]+)"',
        page,
        re.S,
    )
    assert m, "the page draws a kernel cluster with AscIR nodes"
    return m.group(1)


def check_pictures_interact(index: Path) -> None:
    """The page's pictures: kernels folded at first sight; #find=NAME (the search box's own
    function) finds a node inside a folded kernel, unfolds that kernel only and marks it."""
    page = index.read_text()
    name = _inner_name(page)
    plain = chromium("--dump-dom", index.as_uri())
    assert plain.returncode == 0 and console_errors(plain.stderr) == []
    assert re.search(r'<body[^>]*data-script="ok"', plain.stdout) and 'data-graphs="3"' in plain.stdout
    folded_before = plain.stdout.count(' folded"')
    assert folded_before > 0, "a large picture's kernels are folded at first sight"
    assert 'data-found="' not in plain.stdout
    done = chromium("--dump-dom", index.as_uri() + "#find=" + name)
    assert done.returncode == 0 and console_errors(done.stderr) == []
    dom = done.stdout
    found = re.findall(r'data-found="([^"]+)"', dom)
    assert found, f"the search found no node named {name}"
    assert re.search(r'class="matches">1 of \d+: ' + re.escape(name), dom)
    # the node found is drawn (class found) and the kernel holding it unfolded
    assert dom.count(' folded"') < folded_before
    for m in re.finditer(r'<g class="node [^"]*found[^"]*"', dom):
        before = dom[: m.start()]
        opened = before.rfind('<g class="cluster AscBackend')
        assert opened >= 0 and "folded" not in dom[opened : dom.index(">", opened)]


def test_zoo_transformer_report_folds_finds_and_unfolds(tmp_path):
    check_pictures_interact(_report_of(tmp_path, [str(EX / "zoo" / "transformer_encoder_layer.onnx")]))


def test_generated_2000_node_report_folds_finds_and_unfolds(tmp_path):
    from bench.gen_graphs import generate

    src = tmp_path / "g.mlir"
    src.write_text(generate("mixed", 2000, 3, 40))
    check_pictures_interact(_report_of(tmp_path, [str(src), "--accept-undecidable"]))
