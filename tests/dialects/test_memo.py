"""The IR's memo tables (ge_dialect/memo.py) change no output and skip no check.

A GE node's verify is skipped only when what it reads is what it read when it last
passed (GeNode.verify_inputs); a type's desc and shape are kept per type object. The tests
count the verifies run and skipped (never time), show that each part of the key makes a
changed node verify again (an error is still raised), and compare ge-compile's printed IR
and remarks, verified after every pass, with the tables on and off, byte for byte, on
every example, the ONNX zoo and random graphs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, ModuleOp, StringAttr, TensorType, f16, i64
from xdsl.rewriter import Rewriter

from conftest import ROOT, print_module
from ge_dialect import attrs as A
from ge_dialect import desc, ge, memo
from ge_dialect.diagnostics import LocatedError
from ge_dialect.verify import verify_module
from ge_tools import api
from random_graphs import graph_text

TEXT = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  %s = ge.Const {value = dense<[6, 4]> : tensor<2xi64>} : tensor<2xi64>
  %r = ge.Reshape(%x, %s) : (tensor<2x3x4xf16>, tensor<2xi64>) -> tensor<6x4xf16>
  %a = ge.Relu(%r) : (tensor<6x4xf16>) -> tensor<6x4xf16>
  %c = ge.ConcatD(%a, %a) {concat_dim = 0} : (tensor<6x4xf16>, tensor<6x4xf16>) -> tensor<12x4xf16>
  ge.NetOutput %c : tensor<12x4xf16>
}
"""


@pytest.fixture(autouse=True)
def _memo_on():  # type: ignore[no-untyped-def]
    with memo.enabled(True):
        yield


def _counted(m: ModuleOp) -> tuple[int, int]:
    """(verified, skipped) node verifies of one verify_module of `m`."""
    memo.COUNTS.verified = memo.COUNTS.skipped = 0
    verify_module(m)
    return memo.COUNTS.verified, memo.COUNTS.skipped


def _node(m: ModuleOp, kind: type[ge.GeNode]) -> ge.GeNode:
    return next(op for op in m.walk() if isinstance(op, kind))


def test_an_unchanged_node_verifies_once():
    m = api.parse_module(TEXT, verify=False)
    assert _counted(m) == (6, 0)  # Data, Const, Reshape, Relu, ConcatD, NetOutput
    assert _counted(m) == (0, 6)


def test_a_changed_attribute_verifies_its_node_again_and_fails():
    m = api.parse_module(TEXT)
    concat = _node(m, ge.ConcatD)
    concat.attributes["concat_dim"] = IntegerAttr(1, i64)  # 12x4 no longer infers
    with pytest.raises(LocatedError, match="ConcatD infers 6x8"):
        verify_module(m)
    concat.attributes["concat_dim"] = IntegerAttr(0, i64)
    concat.attributes["_probe"] = StringAttr("x")  # a new attribute: one node again
    assert _counted(m) == (1, 5)


def test_a_changed_type_verifies_its_node_and_its_readers_again():
    m = api.parse_module(TEXT)
    relu = _node(m, ge.Relu)
    # (a type changes as ge-infer-shape-for-preprocess changes it: a new value, its uses moved)
    Rewriter.replace_value_with_new_type(relu.results[0], TensorType(f16, [6, 4]))
    # the ConcatD reads a new value; the Relu's result type is a new object equal to the old
    assert _counted(m) == (1, 5)
    Rewriter.replace_value_with_new_type(relu.results[0], TensorType(f16, [4, 6]))  # Relu infers 6x4
    with pytest.raises(LocatedError, match="output 0 has shape 4x6, but Relu infers 6x4"):
        verify_module(m)


def test_a_changed_constant_verifies_the_node_reading_it_again():
    # the Reshape reads its shape input's Const value (const_ints): with the value out of
    # its key, the stale verdict would pass a Reshape whose shape input says 4x6
    m = api.parse_module(TEXT)
    const = _node(m, ge.Const)
    const.attributes["value"] = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [4, 6])
    with pytest.raises(LocatedError, match="output 0 has shape 6x4, but Reshape infers 4x6"):
        verify_module(m)


def test_a_rewired_input_verifies_its_node_again():
    m = api.parse_module(TEXT)
    concat, relu = _node(m, ge.ConcatD), _node(m, ge.Relu)
    concat.operands[1] = relu.operands[0]  # the Reshape's result: same type, another value
    assert _counted(m) == (1, 5)


def test_nodes_that_read_their_graph_verify_every_time():
    m = api.load(str(ROOT / "examples" / "control" / "if_select.mlir"))
    n_if = sum(1 for op in m.walk() if isinstance(op, ge.ControlOp))
    assert n_if > 0
    verified, _ = _counted(m)
    assert verified == n_if


def test_off_every_node_verifies_every_time():
    m = api.parse_module(TEXT)
    with memo.enabled(False):
        assert _counted(m) == (6, 0)
        assert _counted(m) == (6, 0)


def test_a_type_desc_is_kept_per_object():
    t = TensorType(f16, [2, 16])
    d = desc.tensor_desc(t)
    assert desc.tensor_desc(t) is d and desc.shape_of(t) is desc.shape_of(t) == (2, 16)
    assert desc.tensor_desc(TensorType(f16, [2, 16])) == d  # an equal type: an equal desc
    table: memo.IdentityTable[object, int] = memo.IdentityTable(limit=2)
    a, b, c = object(), object(), object()
    table.put(a, 1)
    table.put(b, 2)
    assert table.get(a) == (a, 1) and len(table) == 2
    table.put(c, 3)  # the limit: the table starts again
    assert table.get(a) is None and table.get(c) == (c, 3) and len(table) == 1


def test_an_int_list_attr_makes_one_attribute_per_value():
    a = A.int_list_attr([512, 512, 7])
    assert a.data[0] is a.data[1] and A.int_list_attr([7]).data[0] is a.data[2]
    with memo.enabled(False):
        b = A.int_list_attr([512, 512])
    assert b.data[0] is not b.data[1] and b == A.int_list_attr([512, 512])


# -- ge-compile, verified after each pass, with the tables on and off ----------------------


def _compiled(load) -> str:  # type: ignore[no-untyped-def]
    try:
        r = api.compile(load())
    except Exception as e:  # noqa: BLE001 (an error must be the same both ways too)
        return f"{type(e).__name__}: {e}"
    return print_module(r.module) + "\n".join(f"{x.pass_name} {x.rule} {x.nodes} {x.message}" for x in r.remarks)


def _both_ways(load) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    outs = []
    for on in (True, False):
        with memo.enabled(on):
            outs.append(_compiled(load))
    return outs[0], outs[1]


EXAMPLES = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "examples" / "control").glob("*.mlir"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_on_and_off_compile_the_examples_alike(path: Path):
    on, off = _both_ways(lambda: api.load(str(path)))
    assert on == off


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "zoo").glob("*.onnx")), ids=lambda p: p.name)
def test_on_and_off_compile_the_zoo_alike(path: Path):
    on, off = _both_ways(lambda: api.load(str(path)))
    assert on == off


def test_on_and_off_compile_random_graphs_alike():
    for seed in range(0, 40):
        text = graph_text(seed)
        on, off = _both_ways(lambda text=text: api.parse_module(text))
        assert on == off, seed
