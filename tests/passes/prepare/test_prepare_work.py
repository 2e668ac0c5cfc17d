"""The node-removal prepare passes (ge-dropout-pass, ge-stop-gradient-pass,
ge-prevent-gradient-pass, ge-snapshot-pass, ge-identity-pass) skip a graph that holds
no node of their type: no rewrite walk over it (each walk asks every node), and the
identity pass's module scan of subgraph callers only when some graph has an Identity.
Counted, never timed; what each pass deletes is tested in test_identity.py and lit."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from bench.gen_graphs import generate
from ge_dialect import ge
from ge_tools.registry import make_context
from passes.prepare import identity, isolate
from passes.prepare.dropout import DropOutPass
from passes.prepare.identity import IdentityPass
from passes.prepare.snapshot import SnapshotPass


def parse(text: str) -> ModuleOp:
    m = Parser(make_context(), text, "<test>").parse_module()
    m.verify()
    return m


def _count(monkeypatch, cls, name: str) -> dict[str, int]:
    calls = {"n": 0}
    real = getattr(cls, name)

    def counted(self, *a, **k):
        calls["n"] += 1
        return real(self, *a, **k)

    monkeypatch.setattr(cls, name, counted)
    return calls


def _with_one(kind: str) -> str:
    return f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<4xf32>
  %r = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %s = ge.{kind}(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %o = ge.Relu(%s) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %o : tensor<4xf32>
}}
"""


@pytest.mark.parametrize("pass_cls", [DropOutPass, SnapshotPass])
def test_a_graph_without_the_type_is_not_walked(monkeypatch, pass_cls):
    calls = _count(monkeypatch, isolate.IsolateAndDelete, "match_and_rewrite")
    m = parse(generate("diamond", 200, 0))
    pass_cls().apply(make_context(), m)
    assert calls["n"] == 0
    m = parse(_with_one("Snapshot" if pass_cls is SnapshotPass else "Dropout"))
    pass_cls().apply(make_context(), m)
    assert calls["n"] >= 5  # the walk asks every op of the graph
    assert not [op for op in m.walk() if isinstance(op, ge.Snapshot | ge.Dropout)]


def test_identity_pass_scans_callers_only_with_an_identity(monkeypatch):
    scans = {"n": 0}
    real = identity.subgraph_callers

    def counted(module):
        scans["n"] += 1
        return real(module)

    monkeypatch.setattr(identity, "subgraph_callers", counted)
    calls = _count(monkeypatch, identity.DeleteIdentity, "match_and_rewrite")
    IdentityPass().apply(make_context(), parse(_with_one("Relu")))  # (the generated kinds hold Identities)
    assert scans["n"] == 0 and calls["n"] == 0
    m = parse(_with_one("Identity"))
    IdentityPass().apply(make_context(), m)
    assert scans["n"] == 1 and calls["n"] >= 5
    assert not [op for op in m.walk() if isinstance(op, ge.Identity)]
