"""Progress bars for the long phases of ge-run (issue 33, item 6): loading the model onto
the simulator and each execution, drawn by tqdm on stderr when stderr is a terminal, and
nothing at all otherwise (pipes, files, tests). The passes keep ge-opt's status line
(ge_tools/opt.py: Progress), which names the running pass.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, TypeVar

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
