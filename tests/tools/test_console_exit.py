"""The console scripts (ge-opt, ge-run, ge-import) leave through exit_without_teardown
(ge_tools/opt.py): os._exit once the output is flushed, skipping the interpreter's
teardown. These tests check what that must not change: every byte of the output, on a
pipe and in a file, the exit status of success, of a user error and of sys.exit with a
message, and that the scripts really are the cli entries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES

BIN = Path(sys.executable).parent
CLI = "import sys; from ge_tools.{mod} import {fn}; sys.argv[0] = 'ge-opt'; {fn}()"


def _run(mod: str, fn: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = CLI.format(mod=mod, fn=fn)
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("example", sorted(EXAMPLES)[:3], ids=lambda p: p.name)
def test_cli_prints_what_main_prints(example: Path):
    """On stdout (a pipe): cli's output is main's, byte for byte, status 0."""
    by_main, by_cli = (
        _run("opt", "main", "-p", "ge-compile", str(example)),
        _run("opt", "cli", "-p", "ge-compile", str(example)),
    )
    assert by_main.returncode == 0 == by_cli.returncode, by_cli.stderr
    assert by_cli.stdout == by_main.stdout and "npu.model" in by_cli.stdout
    assert by_cli.stderr == by_main.stderr


def test_cli_flushes_a_large_output(tmp_path: Path):
    """An output far larger than a pipe's buffer arrives whole, on stdout and with -o."""
    from bench.gen_graphs import generate

    src = tmp_path / "g.mlir"
    src.write_text(generate("fanout", 1000, 0))
    by_main = _run("opt", "main", "-p", "ge-compile", str(src))
    by_cli = _run("opt", "cli", "-p", "ge-compile", str(src))
    assert len(by_main.stdout) > 1 << 18
    assert by_cli.returncode == 0 and by_cli.stdout == by_main.stdout
    out = tmp_path / "out.mlir"
    assert _run("opt", "cli", "-p", "ge-compile", str(src), "-o", str(out)).returncode == 0
    assert out.read_text() == by_main.stdout


def test_cli_keeps_the_error_status(tmp_path: Path):
    """A user error: one located line and status 1, as with main."""
    bad = tmp_path / "bad.mlir"
    bad.write_text("builtin.module {\n  %0 = ge.NoSuchOp() : () -> tensor<2xf32>\n}\n")
    for fn in ("main", "cli"):
        r = _run("opt", fn, str(bad))
        assert r.returncode == 1 and r.stdout == ""
        assert r.stderr.count("\n") == 1 and "bad.mlir:2:" in r.stderr and "error:" in r.stderr


def test_exit_with_a_message_is_status_one():
    """sys.exit("message") inside a tool: the message on stderr and status 1, as Python's
    own exit gives; sys.exit(3) keeps 3."""
    code = (
        "import sys; from ge_fast.process import exit_without_teardown\n"
        "def go(): print('partial'); sys.exit(sys.argv[1] if not sys.argv[1].isdigit() else int(sys.argv[1]))\n"
        "exit_without_teardown(go)\n"
    )
    r = subprocess.run([sys.executable, "-c", code, "boom"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (1, "partial\n", "boom\n")
    r = subprocess.run([sys.executable, "-c", code, "3"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (3, "partial\n")


@pytest.mark.parametrize("tool", ["ge-opt", "ge-run", "ge-import"])
def test_the_console_scripts_are_the_cli_entries(tool: str):
    """The installed scripts call cli (pyproject.toml [project.scripts]); --help works."""
    script = BIN / tool
    assert "import cli" in script.read_text()
    r = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "usage:" in r.stdout
