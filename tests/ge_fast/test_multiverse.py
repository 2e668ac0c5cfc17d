"""ge_fast/process.py: multiverse() gives what xDSL's Universe.get_multiverse gives, reads
the entry points once per process with the switch on, at every call with it off, and
ge-opt registers the same dialects, passes and targets either way."""

from __future__ import annotations

import pytest
from xdsl.universe import Universe

import ge_fast.process as process
from conftest import ROOT
from ge_fast import stock
from ge_tools.opt import GeOptMain

SOFTMAX = str(ROOT / "examples" / "softmax_like.mlir")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per read of the entry points (a call of xDSL's get_multiverse), the
    process's kept read forgotten first."""
    calls: list[int] = []
    real = Universe.get_multiverse
    monkeypatch.setattr(process, "_MULTIVERSE", [])
    monkeypatch.setattr(Universe, "get_multiverse", staticmethod(lambda: (calls.append(1), real())[1]))
    return calls


def _registered(main: GeOptMain) -> tuple[list[str], list[str], list[str]]:
    return (list(main.ctx.registered_dialect_names), list(main.available_passes), list(main.available_targets))


def test_the_same_plugins_as_xdsl() -> None:
    mine, xdsl = process.multiverse(), Universe.get_multiverse()
    assert mine.all_dialects.keys() == xdsl.all_dialects.keys() and "ge" in mine.all_dialects
    assert mine.all_passes.keys() == xdsl.all_passes.keys()
    assert mine.all_targets.keys() == xdsl.all_targets.keys()


def test_read_once_per_process(reads: list[int]) -> None:
    first = _registered(GeOptMain([SOFTMAX]))
    assert len(reads) == 1  # dialects, passes and targets from one read
    again = _registered(GeOptMain([SOFTMAX]))
    assert len(reads) == 1 and again == first


def test_stock_reads_at_every_call_and_registers_the_same(reads: list[int]) -> None:
    fast = _registered(GeOptMain([SOFTMAX]))
    reads.clear()
    with stock():
        slow = _registered(GeOptMain([SOFTMAX]))
    assert len(reads) == 3  # xDSL's own: dialects, passes, targets
    assert slow == fast
