"""Work counts of ge-lower-autofuse, ge-to-npu and the verify of their results (issue 12,
part 3, second round): what each builds, computes or checks. Each test counts (attributes
built, sizes computed, ops built, checks run), never seconds, and checks that the faster
path gives the same printed IR as the plain one."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.passes import PassPipeline

from bench.gen_graphs import generate
from conftest import parse, print_module
from ge_dialect import npu
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context
from lowering import ge_to_npu


def _compiled_to_memory(text: str) -> ModuleOp:
    """ge-compile of `text` up to ge-to-npu (every pass but the last)."""
    m = parse(text)
    PassPipeline(GeCompilePass().passes()[:-1]).apply(make_context(), m)
    return m


def _addresses(a: Attribute, out: list[npu.AddrAttr]) -> None:
    if isinstance(a, npu.AddrAttr):
        out.append(a)
    elif isinstance(a, ParametrizedAttribute):
        for p in a.parameters:
            _addresses(p, out)
    elif isinstance(getattr(a, "data", None), tuple):
        for p in a.data:  # pyright: ignore[reportAttributeAccessIssue, reportUnknownVariableType]
            if isinstance(p, Attribute):
                _addresses(p, out)


def _model_addresses(m: ModuleOp) -> list[npu.AddrAttr]:
    out: list[npu.AddrAttr] = []
    for op in m.walk():
        for a in (*op.attributes.values(), *op.properties.values()):
            _addresses(a, out)
    return out


def _to_npu_counted(text: str, monkeypatch: pytest.MonkeyPatch, cached: bool) -> tuple[str, int, int, ModuleOp]:
    """ge-to-npu on `text`'s planned module: the printed model, the AddrAttrs built and the
    byte sizes computed; `cached` False builds each address and size again (the plain path)."""
    m = _compiled_to_memory(text)
    built, sized = [0], [0]
    plain_init = npu.AddrAttr.__init__
    plain_bytes = ge_to_npu._Lowering.raw_bytes  # pyright: ignore[reportPrivateUsage]

    def init(self: npu.AddrAttr, region: str, offset: int, length: int) -> None:
        built[0] += 1
        plain_init(self, region, offset, length)

    def raw_bytes(op: Operation, v: object) -> int:
        sized[0] += 1
        return plain_bytes(op, v)  # pyright: ignore[reportArgumentType]

    with monkeypatch.context() as mp:
        mp.setattr(npu.AddrAttr, "__init__", init)
        mp.setattr(ge_to_npu._Lowering, "raw_bytes", staticmethod(raw_bytes))  # pyright: ignore[reportPrivateUsage]
        if not cached:
            mp.setattr(ge_to_npu._Lowering, "address", lambda self, r, o, n: npu.AddrAttr(r, o, n))  # pyright: ignore[reportPrivateUsage, reportUnknownLambdaType]
            mp.setattr(ge_to_npu._Lowering, "raw", lambda self, op, v: ge_to_npu._Lowering.raw_bytes(op, v))  # pyright: ignore[reportPrivateUsage, reportUnknownLambdaType, reportUnknownMemberType]
        GeCompilePass().passes()[-1].apply(make_context(), m)
    m.verify()
    return print_module(m), built[0], sized[0], m


def test_ge_to_npu_builds_each_address_once_and_sizes_each_type_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An address several tasks read (a fanout producer's output, read by each reader) is
    one AddrAttr, and a type object's byte size is computed once: fanout 400 builds one
    AddrAttr per distinct address of the model instead of one per read and write."""
    text = generate("fanout", 400, 0)
    fast, built, sized, m = _to_npu_counted(text, monkeypatch, cached=True)
    plain, built_plain, sized_plain, _ = _to_npu_counted(text, monkeypatch, cached=False)
    assert fast == plain
    addrs = _model_addresses(m)
    assert built == len(set(addrs)) == len({id(a) for a in addrs})
    assert built_plain > 1.5 * built
    assert sized < sized_plain
