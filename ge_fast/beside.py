"""The compiled module's text rendered on the second core while ge-opt verifies it.

mlir-opt verifies and compiles with a thread pool; a Python process has one core to run
Python on, so ge-opt uses a second process: right before the verify of the pipeline's
result, `PrintBeside.start` forks, and the child renders the module's text (ge-opt's
printer, as the run would print it) into an anonymous in-memory file, while this process
verifies the same IR. The child sees the module as it is at the fork, which is what the
print after the verify reads (verifying changes no IR). Then `text()` waits for the child
and returns its text, or None when the child did not finish cleanly, for the caller to
print in-process as it would have without it. Nothing the child does is visible: it writes
only to that file and leaves with os._exit (no buffered output flushed, no teardown). When
the verify fails, `cancel()` stops it.

It is used only where a fork is safe and pays: a POSIX system with memfd_create, one
thread in the process (a fork copies no other thread, whose locks could be held), and
an input of at least MIN_INPUT_BYTES (under that, the fork costs about what it saves).
`ge-opt --disable-threading` (mlir-opt's --mlir-disable-threading) turns it off, and so
does the switch (ge_fast): then the text is rendered in-process, as xDSL's driver does
(xdsl_opt_main.py: xDSLOptMain.run, verify then output_resulting_program).
tests/tools/test_print_beside.py proves the text and the errors are the same either way.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

from ge_fast import SWITCH

# about a 200-node graph: its print and verify take some 10 ms each, a fork about 2 ms
MIN_INPUT_BYTES = 64 * 1024
_ENCODING, _ERRORS = "utf-8", "surrogatepass"  # any str, lone surrogates included, round-trips


def can_fork() -> bool:
    """A fork here copies a process with one thread, on a system with memfd_create (and
    the fast paths are on)."""
    return SWITCH.on and hasattr(os, "fork") and hasattr(os, "memfd_create") and threading.active_count() == 1


class PrintBeside:
    """One child process rendering a module's text (see the module docstring)."""

    def __init__(self, pid: int, fd: int):
        self.pid = pid
        self.fd = fd
        self.done = False

    @staticmethod
    def start(render: Callable[[], str]) -> PrintBeside | None:
        """Fork a child that writes `render()` to an in-memory file; None when no child
        could be started (the caller then renders in-process)."""
        if not can_fork():
            return None
        try:
            fd = os.memfd_create("ge-opt-result", os.MFD_CLOEXEC)
        except OSError:
            return None
        try:
            pid = os.fork()
        except OSError:
            os.close(fd)
            return None
        if pid == 0:  # the child: render, write, leave without a trace
            code = 1
            try:
                data = memoryview(render().encode(_ENCODING, _ERRORS))
                while data:
                    data = data[os.write(fd, data) :]
                code = 0
            except BaseException:  # noqa: BLE001 -- the parent renders again and reports
                code = 1
            finally:
                os._exit(code)
        return PrintBeside(pid, fd)

    def text(self) -> str | None:
        """The child's text once it has finished; None when it failed (or was killed)."""
        try:
            _, status = os.waitpid(self.pid, 0)
            self.done = True
            if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
                return None
            size = os.fstat(self.fd).st_size
            chunks: list[bytes] = []
            offset = 0
            while offset < size:
                chunk = os.pread(self.fd, size - offset, offset)
                if not chunk:
                    return None
                chunks.append(chunk)
                offset += len(chunk)
            return b"".join(chunks).decode(_ENCODING, _ERRORS)
        finally:
            self.close()

    def cancel(self) -> None:
        """Stop the child (the verify failed: its text is not printed) and reap it."""
        if not self.done:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.done = True
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
