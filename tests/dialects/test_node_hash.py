"""The dialects' node classes hash by identity in C (object.__hash__) instead of
IRDLOperation.__hash__'s Python `id(self)` (issue 12, compile time: the passes key dicts
and sets by nodes; 2 % of ge-compile's instructions on a 1,000-node fanout graph). The
meaning is xDSL's: a node equals only itself, and its hash does not change while it lives."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr

from bench.gen_graphs import generate
from conftest import parse
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass


def test_every_node_class_hashes_in_c_by_identity():
    m = parse(generate("mixed", 120, 0))
    LowerAutofusePass().apply(make_context(), m)
    ops = list(m.walk())
    kinds = {type(op) for op in ops}
    assert any(issubclass(k, ag.AscNode) for k in kinds) and ge.AscBackend in kinds and ge.GraphOp in kinds
    for k in kinds:
        if issubclass(k, (ge.GeNode, ge.GraphOp, ag.AscNode, ag.AscGraphOp)):
            assert k.__hash__ is object.__hash__, k
    # identity semantics: each node is its own key, equal only to itself
    table = {op: i for i, op in enumerate(ops)}
    assert len(table) == len(ops) and all(table[op] == i for i, op in enumerate(ops))
    a, b = ops[1], ops[2]
    assert a == a and a != b and hash(a) == hash(a)
    h = hash(a)
    a.attributes["_probe"] = StringAttr("changed")  # a node's hash is not its content
    assert hash(a) == h
