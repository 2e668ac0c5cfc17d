"""A fork server for the lit suite: each RUN line's ge-opt, ge-run, ge-import and filecheck
is a fresh process forked from one that has already imported them.

The lit suite runs about 550 tool processes; each spent about 0.5 s of CPU importing
xDSL, the dialects and the passes before reading its input (ge-run more: onnx, numpy,
the runtime), which was most of the suite's time. As Android's zygote does, `serve`
imports everything once and waits on a Unix socket; lit.cfg puts a directory first on
the tests' PATH whose `ge-opt`, `ge-run`, `ge-import` and `filecheck` are small scripts
running `client`: it sends its argv, working directory and environment, and passes its
own stdin, stdout and stderr (the file descriptors themselves, SCM_RIGHTS), to the
server, which forks a child that takes those descriptors as 0, 1 and 2, the directory,
the environment and argv, and calls the tool's console entry point, exactly as the
installed script does. The client exits with the child's status (a child killed by a
signal kills the client with the same signal, so lit's `not` still tells a crash from a
failure). Each child starts from the same freshly imported state: nothing one RUN line
does reaches another.

The server imports every module of the project (but the torch backend's) before it
forks: the tools import most of them lazily, when a pass or a stage is first asked for,
which was two thirds of a small ge-opt run's CPU.

What a forked child does not share with a process started afresh: what happens at
import time. The tools read the environment when they run, not when they are imported;
an environment variable named GE_XDSL_* that differs from the server's (other than
CALL_TIME_ENV, read at call time) makes the client run the installed tool instead, as it
does when there is no server (`GE_XDSL_LIT_FORK=0 lit tests/filecheck` runs every RUN
line as installed processes). The hash seed is the server's for every child (a tool whose
output depended on it would be wrong in either case). What the server reads once for every
child: the tools' entry points and xDSL's plugins (ge_fast/process.py: multiverse), both
from the installed packages' metadata, which does not change while lit runs.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

# the console scripts this server runs (their entry points are read from the installed
# packages' metadata, as the scripts themselves were written from it)
TOOLS = ("ge-opt", "ge-run", "ge-import", "filecheck")
# modules a tool would otherwise import on its first ONNX model, weight or symbolic shape
PRELOAD = ("onnx", "onnxruntime", "ml_dtypes", "symengine", "numpy")
# the project's packages: every module of them is imported by the server (the tools import
# most lazily, when a pass, a stage or a format is first asked for: 0.25 of the 0.39 CPU-s
# of a forked `ge-opt -p ge-compile` on a small input), except the torch backend's (a
# process that has loaded torch forks children that share its thread pools' state)
PROJECT = ("ge_fast", "ge_dialect", "passes", "lowering", "runtime", "ge_tools", "importers", "report")
NOT_PRELOADED = frozenset({"ge_tools.torch_backend"})
# GE_XDSL_* variables the tools read when they run (any other one that differs from the
# server's makes the client run the installed tool)
CALL_TIME_ENV = frozenset({"GE_XDSL_TRACEBACK"})
SOCKET_ENV = "GE_XDSL_FORK_SERVER"
_HEADER = 4  # bytes of a request's length


def _import_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("GE_XDSL_") and k not in CALL_TIME_ENV and k != SOCKET_ENV}


# ---------------------------------------------------------------------------------------
# The client (stdlib only: it starts in about 10 ms under `python -S -I`)
# ---------------------------------------------------------------------------------------


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("the fork server closed the connection")
        data += chunk
    return data


def client(tool: str, real: str, args: list[str]) -> None:
    """Run `tool args` in a child of the server, or exec `real` (the installed script)
    when there is no server or the environment asks for a fresh process."""
    path = os.environ.get(SOCKET_ENV)
    reply = None
    if path:
        request = json.dumps({"tool": tool, "argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.connect(path)
                socket.send_fds(conn, [len(request).to_bytes(_HEADER, "big") + request], [0, 1, 2])
                reply = json.loads(_recv_exact(conn, int.from_bytes(_recv_exact(conn, _HEADER), "big")))
        except (OSError, ConnectionError, ValueError):
            reply = None
    if reply is None or "fallback" in reply:
        os.execv(real, [real, *args])
    if "signal" in reply:
        signal.signal(reply["signal"], signal.SIG_DFL)
        os.kill(os.getpid(), reply["signal"])
    os._exit(reply["exit"])


# ---------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------


_ENTRIES: dict[str, object] = {}  # tool -> its console entry point, resolved by `serve`


def _entry(tool: str):  # noqa: ANN202 - a console entry point
    """The tool's console entry point, read from the installed metadata once (by the server,
    before it forks: a read of every distribution's entry points is about 50 ms of CPU)."""
    if tool not in _ENTRIES:
        from importlib.metadata import entry_points

        (entry,) = entry_points(group="console_scripts", name=tool)
        _ENTRIES[tool] = entry.load()
    return _ENTRIES[tool]


def _std_streams() -> None:
    """sys.stdin, stdout and stderr anew on descriptors 0, 1 and 2, as Python's start-up
    makes them (CPython's create_stdio: no newline translation, stdout line-buffered on a
    terminal, stderr always, with backslashreplace): the server's own were made for other
    files, and a stream caches what its file was (seekable or not)."""
    encoding, errors = sys.stdout.encoding, sys.stdout.errors
    sys.stdin = sys.__stdin__ = open(
        0, encoding=sys.stdin.encoding, errors=sys.stdin.errors, newline="\n", closefd=False
    )  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(  # noqa: SIM115
        1, "w", encoding=encoding, errors=errors, newline="\n", closefd=False, buffering=1 if os.isatty(1) else -1
    )
    sys.stderr = sys.__stderr__ = open(  # noqa: SIM115
        2, "w", encoding=encoding, errors="backslashreplace", newline="\n", closefd=False, buffering=1
    )


def _run_tool(request: dict[str, object], fds: list[int]) -> None:
    """In the forked child: become the tool's process, run it, and exit with its code."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    _std_streams()
    code = 1
    try:
        os.chdir(str(request["cwd"]))
        os.environ.clear()
        os.environ.update(dict(request["env"]))  # type: ignore[arg-type]
        tool = str(request["tool"])
        sys.argv = [tool, *request["argv"]]  # type: ignore[misc]
        result = _entry(tool)()
        code = result if isinstance(result, int) else 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 - what an uncaught exception does to a Python process
        import traceback

        traceback.print_exc()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass
    os._exit(code)


def _handle(conn: socket.socket, server_env: dict[str, str]) -> None:
    """In a child of the server: read one request, fork the tool's process, wait for it,
    and send its status."""
    try:
        # the descriptors come with the request's first bytes: read those with recvmsg
        data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
        data += _recv_exact(conn, max(0, _HEADER - len(data)))
        size = int.from_bytes(data[:_HEADER], "big")
        data = data[_HEADER:]
        data += _recv_exact(conn, size - len(data))
        request = json.loads(data)
        if _import_env(request["env"]) != server_env:
            reply: dict[str, object] = {"fallback": True}
        else:
            pid = os.fork()
            if pid == 0:
                conn.close()
                _run_tool(request, fds)
            for fd in fds:
                os.close(fd)
            _, status = os.waitpid(pid, 0)
            reply = {"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status) else {"exit": os.WEXITSTATUS(status)}
        body = json.dumps(reply).encode()
        conn.sendall(len(body).to_bytes(_HEADER, "big") + body)
    except BaseException:  # noqa: BLE001 - the client then runs the installed tool
        import traceback

        traceback.print_exc()
    os._exit(0)


def _reap() -> None:
    """Wait for the request handlers that have finished (so their CPU time, and their
    tools', counts in the server's children, as a shell's would in its own)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _import_project() -> None:
    """Every module of the project's packages but NOT_PRELOADED: what a tool would import
    when it first needs it (a module's import does the same work in the server as in a
    child; none of them reads the environment or argv when imported)."""
    import importlib
    import pkgutil

    for package in PROJECT:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, package + "."):
            if info.name not in NOT_PRELOADED:
                importlib.import_module(info.name)


def serve(path: str, parent: int) -> None:
    """Import every tool, then fork a child per request on the socket at `path`, until the
    process that started the server (pid `parent`) is gone."""
    # an installed script's sys.path starts with its bin/ directory, not this file's (whose
    # lit test directories, passes/ and runtime/, would shadow the packages of those names)
    sys.path[0] = os.path.dirname(sys.executable)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS threads in a process that forks
    for tool in TOOLS:
        _entry(tool)
    for module in PRELOAD:
        try:
            __import__(module)
        except ImportError:
            pass
    _import_project()
    # xDSL's plugins, read as the tools read them (ge_fast/process.py: once per process with
    # the switch on, so every child starts with the read made; with it off, at each call)
    from ge_fast.process import multiverse

    multiverse()
    server_env = _import_env(dict(os.environ))
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as srv:
        srv.bind(path + ".tmp")
        srv.listen(64)
        os.rename(path + ".tmp", path)  # the socket appears only when the server is ready
        srv.settimeout(1.0)
        while os.getppid() == parent:
            _reap()
            try:
                conn, _ = srv.accept()
            except TimeoutError:
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            if os.fork() == 0:
                srv.close()
                conn.settimeout(None)
                _handle(conn, server_env)
            conn.close()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]))
    else:
        client(sys.argv[2], sys.argv[3], sys.argv[4:])
