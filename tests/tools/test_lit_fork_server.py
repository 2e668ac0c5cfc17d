"""The lit suite's fork server (tests/filecheck/fork_server.py): a tool run through it
gives what the installed script gives (output, errors, exit code, stdin), and an
environment the server was not started with runs the installed script instead."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import ROOT

SERVER = ROOT / "tests" / "filecheck" / "fork_server.py"
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not hasattr(os, "fork"):
        pytest.skip("the fork server needs os.fork")
    sock = str(tmp_path_factory.mktemp("fork") / "server")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GE_XDSL_")}
    proc = subprocess.Popen([sys.executable, str(SERVER), "serve", sock, str(os.getpid())], env=env)
    try:
        for _ in range(3000):
            if os.path.exists(sock) or proc.poll() is not None:
                break
            subprocess.run(["sleep", "0.05"], check=True)
        assert os.path.exists(sock), "the fork server did not start"
        yield sock
    finally:
        proc.kill()
        proc.wait()


def _client(sock: str, tool: str, args: list[str], real: str | None = None, stdin: str = "", **env: str):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GE_XDSL_")}
    environ.update(env, GE_XDSL_FORK_SERVER=sock)
    return subprocess.run(
        [sys.executable, "-S", "-I", str(SERVER), "client", tool, real or str(BIN / tool), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
    )


def _direct(tool: str, args: list[str], stdin: str = ""):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GE_XDSL_")}
    return subprocess.run([str(BIN / tool), *args], input=stdin, capture_output=True, text=True, env=env, cwd=ROOT)


@pytest.mark.parametrize(
    "tool, args",
    [
        ("ge-opt", ["examples/softmax_like.mlir", "-p", "ge-compile"]),  # a file, a pipeline
        ("ge-opt", ["examples/no_such_file.mlir"]),  # an error line, exit 1
        ("ge-opt", ["-p", "no-such-pass", "examples/softmax_like.mlir"]),
        ("ge-run", ["examples/softmax_like.mlir"]),
    ],
)
def test_same_as_the_installed_tool(server: str, tool: str, args: list[str]) -> None:
    # `real` is /bin/false: a fallback to the installed tool would exit 1 with no output
    via, direct = _client(server, tool, args, real="/bin/false"), _direct(tool, args)
    assert (via.returncode, via.stdout, via.stderr) == (direct.returncode, direct.stdout, direct.stderr)
    assert via.stdout or via.stderr


def test_stdin_reaches_the_tool(server: str) -> None:
    text = (ROOT / "examples" / "softmax_like.mlir").read_text()
    via = _client(server, "ge-opt", [], real="/bin/false", stdin=text)
    assert via.returncode == 0 and via.stdout == _direct("ge-opt", [], stdin=text).stdout


def test_filecheck_through_the_server(server: str, tmp_path: Path) -> None:
    checks = tmp_path / "checks.txt"
    checks.write_text("// CHECK: hello\n")
    assert _client(server, "filecheck", [str(checks)], real="/bin/false", stdin="hello\n").returncode == 0
    failed = _client(server, "filecheck", [str(checks)], real="/bin/false", stdin="bye\n")
    assert failed.returncode == 1 and "hello" in failed.stderr


@pytest.fixture
def installed(tmp_path: Path) -> str:
    """A stand-in for the installed script: it says that it ran, and with what."""
    path = tmp_path / "installed"
    path.write_text('#!/bin/sh\necho "installed $*"\n')
    path.chmod(0o755)
    return str(path)


def test_another_environment_runs_the_installed_tool(server: str, installed: str) -> None:
    # GE_XDSL_SOMETHING differs from the server's: the client execs the installed script
    via = _client(server, "ge-opt", ["--version"], real=installed, GE_XDSL_SOMETHING="1")
    assert via.stdout == "installed --version\n"
    # GE_XDSL_TRACEBACK is read when a tool runs: it stays in the server
    via = _client(server, "ge-opt", ["--version"], real=installed, GE_XDSL_TRACEBACK="1")
    assert via.stdout == _direct("ge-opt", ["--version"]).stdout


def test_no_server_runs_the_installed_tool(tmp_path: Path, installed: str) -> None:
    via = _client(str(tmp_path / "absent"), "ge-opt", ["--version"], real=installed)
    assert via.stdout == "installed --version\n"


def test_the_server_imports_the_project_but_not_torch() -> None:
    """What `serve` imports before it forks: every module of the project's packages (the
    tools import most lazily), never torch (NOT_PRELOADED)."""
    probe = (
        "import sys, pkgutil, importlib\n"
        f"sys.path[:0] = [{str(ROOT)!r}, {str(SERVER.parent)!r}]\n"
        "import fork_server\n"
        "fork_server._import_project()\n"
        "missing = [i.name for p in fork_server.PROJECT for i in pkgutil.walk_packages(importlib.import_module(p).__path__, p + '.')\n"
        "           if i.name not in sys.modules and i.name not in fork_server.NOT_PRELOADED]\n"
        "print(len(missing), 'torch' in sys.modules, 'passes.autofuse.global_solver' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "False", "True"]
