"""importers/fx_load.py: a .pt2 read with the schema classes' type hints computed once per
class gives the same program as torch's own read, and computes far fewer hints; a lowering
with torch's preservable CIA ops memoized gives the same program and asks torch once per
dispatcher state (a custom op registered later is in the next answer); with ge_fast's
switch off torch is left as it is."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="reading .pt2 programs needs the `models` extra (torch)")

import torch._export.serde.serialize as serialize  # noqa: E402
import torch._export.utils as export_utils  # noqa: E402

from ge_fast import stock  # noqa: E402
from importers import fx_load  # noqa: E402
from importers.fx import lower_to_aten  # noqa: E402
from importers.fx_load import cia_ops_memoized, schema_type_hints_cached  # noqa: E402


class _Net(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn(self.conv(x)))
        return self.fc(y.flatten(1)).softmax(-1)


@pytest.fixture(scope="module")
def pt2(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pt2") / "net.pt2"
    torch.export.save(torch.export.export(_Net().eval(), (torch.randn(2, 3, 8, 8),)), str(path))
    return path


def _summary(ep) -> tuple[str, str, list[str]]:  # noqa: ANN001
    return ep.graph_module.code, str(ep.graph_signature), sorted(ep.state_dict)


@pytest.fixture
def hint_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per evaluation of type hints (typing.get_type_hints)."""
    calls: list[int] = []
    real = typing.get_type_hints
    monkeypatch.setattr(typing, "get_type_hints", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    return calls


def test_the_same_program_with_far_fewer_hints(pt2: Path, hint_calls: list[int]) -> None:
    plain = torch.export.load(str(pt2))
    evaluated_by_torch = len(hint_calls)
    hint_calls.clear()
    with schema_type_hints_cached() as stand_in:
        cached = torch.export.load(str(pt2))
    assert stand_in is not None and stand_in.computed == len(hint_calls)
    assert _summary(cached) == _summary(plain)
    for k, v in plain.state_dict.items():
        assert torch.equal(cached.state_dict[k], v)
    assert evaluated_by_torch > 5 * len(hint_calls) > 0
    assert serialize.typing is typing  # put back


def test_off_with_the_switch(pt2: Path) -> None:
    with stock(), schema_type_hints_cached() as stand_in:
        assert stand_in is None and serialize.typing is typing
        torch.export.load(str(pt2))


def test_put_back_when_the_load_fails(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pt2"
    bad.write_bytes(b"not a zip")
    with pytest.raises(Exception), schema_type_hints_cached():  # noqa: B017 - torch raises many kinds
        torch.export.load(str(bad))
    assert serialize.typing is typing


def _lowered(ep) -> tuple[str, str]:  # noqa: ANN001
    low = ep.run_decompositions(torch.export.default_decompositions())
    return low.graph_module.code, str(low.graph_signature)


def test_lowering_with_the_cia_ops_memoized(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fx_load, "_CIA_SETS", {})
    ep = torch.export.export(_Net().eval(), (torch.randn(2, 3, 8, 8),))
    want = _lowered(ep)
    torch_answer = export_utils._collect_all_valid_cia_ops()
    with cia_ops_memoized() as first:
        assert first is not None
        assert _lowered(ep) == want
        assert export_utils._collect_all_valid_cia_ops() == torch_answer
    with cia_ops_memoized() as second:
        assert second is not None
        assert _lowered(ep) == want
        assert lower_to_aten(ep).graph_module.code == lower_to_aten(ep).graph_module.code
    # run_decompositions asks twice per call: torch computed it once, in the first lowering
    assert (first.computed, second.computed) == (1, 0)
    assert export_utils._collect_all_valid_cia_ops is not first  # put back


def test_a_custom_op_registered_later_is_in_the_next_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fx_load, "_CIA_SETS", {})
    with cia_ops_memoized() as memo:
        assert memo is not None
        before = export_utils._collect_all_valid_cia_ops()
        lib = torch.library.Library("gexdsl_memo_test", "DEF")  # noqa: TOR901 - a test-only op
        try:
            lib.define("twice(Tensor x) -> Tensor")
            lib.impl("twice", lambda x: x * 2, "CompositeImplicitAutograd")
            after = export_utils._collect_all_valid_cia_ops()
            op = torch.ops.gexdsl_memo_test.twice.default
        finally:
            lib._destroy()  # a failing run leaves no test op registered in this worker
    assert op not in before and op in after and memo.computed == 2
    # a removed op leaves the registrations: the key changes back, and the answer with it
    with cia_ops_memoized() as memo:
        assert memo is not None
        answer = export_utils._collect_all_valid_cia_ops()
        assert op not in answer
    assert answer == export_utils._collect_all_valid_cia_ops()  # torch's own answer


def test_a_nested_memo_is_the_open_one() -> None:
    with cia_ops_memoized() as outer, cia_ops_memoized() as inner:
        assert outer is not None and inner is outer
        export_utils._collect_all_valid_cia_ops()
        assert outer.computed <= 1


def test_cia_memo_off_with_the_switch() -> None:
    with stock(), cia_ops_memoized() as stand_in:
        assert stand_in is None
        assert export_utils._collect_all_valid_cia_ops.__module__ == "torch._export.utils"


def test_cia_memo_put_back_when_the_lowering_fails() -> None:
    real = export_utils._collect_all_valid_cia_ops
    with pytest.raises(RuntimeError), cia_ops_memoized():
        raise RuntimeError("a lowering that fails")
    assert export_utils._collect_all_valid_cia_ops is real
