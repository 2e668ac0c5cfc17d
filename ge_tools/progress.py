"""Progress bars for the long phases of ge-opt, ge-run and ge-import (docs/diagnostics.md):
importing a model, each pass (`PassBar`: the bar names the running pass and the module's
op count), loading the model onto the simulator and each execution; drawn by tqdm on
stderr when stderr is a terminal, nothing at all otherwise (pipes, files, tests).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any, TypeVar

from xdsl.dialects.builtin import ModuleOp

T = TypeVar("T")


def on_terminal(stream: IO[str] | None = None) -> bool:
    """Whether `stream` (stderr) is a terminal."""
    stream = stream if stream is not None else sys.stderr
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


def steps(items: Iterable[T], desc: str, total: int | None = None, stream: IO[str] | None = None) -> Iterator[T]:
    """`items`, with a tqdm bar `desc` on a terminal (erased when done); plain otherwise."""
    if not on_terminal(stream):
        yield from items
        return
    from tqdm import tqdm

    with tqdm(items, desc=desc, total=total, file=stream or sys.stderr, leave=False, unit="step") as bar:
        yield from bar


@contextmanager
def phase(desc: str, stream: IO[str] | None = None) -> Iterator[None]:
    """A one-step bar `desc` on a terminal while the block runs (a phase without steps to
    count: loading a model), erased at its end; nothing otherwise."""
    if not on_terminal(stream):
        yield
        return
    from tqdm import tqdm

    with tqdm(total=1, desc=desc, file=stream or sys.stderr, leave=False, bar_format="{desc}: {elapsed}") as bar:
        yield
        bar.update(1)


@dataclass
class Progress:
    """A status line on a terminal, `ge-opt: [k/n] <pass>: <ops> ops, <elapsed> s`, written
    in place (carriage return, erase line) as each pass starts, erased at the end."""

    stream: IO[str]
    total: int
    start: float = field(default_factory=time.perf_counter)
    shown: bool = False
    tool: str = "ge-opt"

    @staticmethod
    def on_terminal(total: int, stream: IO[str] | None = None, tool: str = "ge-opt") -> Progress | None:
        """A Progress on `stream` (stderr) when it is a terminal, else None: never in
        pipes, files or tests."""
        stream = stream if stream is not None else sys.stderr
        if stream is None:  # no stderr at all (pythonw)
            return None
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        return Progress(stream, total, tool=tool) if tty else None

    def show(self, index: int, spec: str, module: ModuleOp) -> None:
        """Pass `index` of `total` starts: `spec` as typed in -p (pipeline_spec.py: pass_spec)."""
        ops = sum(1 for _ in module.walk())
        elapsed = time.perf_counter() - self.start
        self.stream.write(f"\r\x1b[K{self.tool}: [{index}/{self.total}] {spec}: {ops} ops, {elapsed:.1f} s")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


class PassBar(Progress):
    """ge-opt's pass progress (Progress above, which ge_tools/pass_callback.py's PipelineCallback drives) as
    a tqdm bar: `[k/n]` passes done, the running pass and the module's ops."""

    bar: Any = None

    @staticmethod
    def on_terminal(total: int, stream: IO[str] | None = None, tool: str = "ge-opt") -> Progress | None:
        out = stream if stream is not None else sys.stderr
        return PassBar(out, total, tool=tool) if out is not None and on_terminal(out) else None

    def show(self, index: int, spec: str, module: ModuleOp) -> None:
        from tqdm import tqdm

        if self.bar is None:
            self.bar = tqdm(total=self.total, desc=self.tool, file=self.stream, leave=False, unit="pass", mininterval=0)
        ops = sum(1 for _ in module.walk())
        self.bar.set_description_str(f"{self.tool}: {spec} ({ops} ops)")
        self.bar.update(index - 1 - self.bar.n)
        self.shown = True

    def clear(self) -> None:
        if self.bar is not None:
            self.bar.clear()
        if self.shown and self.bar is not None:
            self.bar.close()
            self.bar = None
        self.shown = False
