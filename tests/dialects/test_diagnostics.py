"""The remark channel (ge_dialect/diagnostics.py): one `Remark` object per remark, printed
as `FILE:LINE:COL: remark: <message>` by default, collected by a `remark_sink`."""

from __future__ import annotations

from ge_dialect.diagnostics import Remark, remark, remark_sink
from ge_dialect.ge import node_name
from ge_dialect.reason import Reason
from ge_tools.parse import LocatedParser
from ge_tools.registry import make_context

TEXT = """ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %a = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}"""


def _relu():
    m = LocatedParser(make_context(), TEXT, "r.mlir").parse_module()
    return next(o for o in m.walk() if o.results and node_name(o) == "a")


def test_reason_forms():
    r = Reason("ReduceCanNotFuseHorizontal", "one is a reduction", "NF1021")
    assert str(r) == "one is a reduction (ReduceCanNotFuseHorizontal)"
    assert r.coded() == "one is a reduction [NF1021] [ReduceCanNotFuseHorizontal]"
    assert Reason("CheckDim", "out of range").coded() == "out of range [CheckDim]"
    assert r.prefixed("input 1: ") == Reason("ReduceCanNotFuseHorizontal", "input 1: one is a reduction", "NF1021")


def test_default_sink_prints_the_located_line(capsys):
    op = _relu()
    got = remark(op, "Relu 'a' not marked", pass_name="p")
    assert capsys.readouterr().err == "r.mlir:3:3: remark: Relu 'a' not marked\n"
    assert got.location == "r.mlir:3:3" and got.pass_name == "p" and got.reason is None
    # a Reason as the message prints as `message (Rule)`
    remark(op, Reason("IsScalarInput", "input 0: is a scalar"))
    assert capsys.readouterr().err == "r.mlir:3:3: remark: input 0: is a scalar (IsScalarInput)\n"


def test_sink_collects_objects_and_is_restored(capsys):
    op = _relu()
    seen: list[Remark] = []
    why = Reason("WillCreateCycle", "would create a cycle", "NF1002")
    with remark_sink(seen.append):
        remark(op, "'a' and 'b' not fused: " + why.coded(), reason=why, pass_name="ge-autofuse",
               stage="fuse", verdict="not fused", nodes=["a", "b"])  # fmt: skip
        inner: list[Remark] = []
        with remark_sink(inner.append):
            remark(None, "elsewhere", location="x.mlir:1:1")
        assert [r.line() for r in inner] == ["x.mlir:1:1: remark: elsewhere"]
    assert capsys.readouterr().err == ""  # nothing printed while a sink collects
    (r,) = seen
    assert (r.pass_name, r.stage, r.verdict, r.nodes) == ("ge-autofuse", "fuse", "not fused", ("a", "b"))
    assert (r.rule, r.nf_code) == ("WillCreateCycle", "NF1002")
    assert r.line() == "r.mlir:3:3: remark: 'a' and 'b' not fused: would create a cycle [NF1002] [WillCreateCycle]"
    remark(op, "after")  # the default sink is back
    assert capsys.readouterr().err == "r.mlir:3:3: remark: after\n"
