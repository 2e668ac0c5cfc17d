"""Unit tests of ge-lower-autofuse's loop IR and the rules lit cannot reach from ge input:
the Store-side Cast, recomputation when the threshold allows it, the oversize fallback."""

from __future__ import annotations

from xdsl.dialects.builtin import f16, f32

from conftest import check_lowering, parse
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_tools.registry import make_context
from lowering import loop_ir as L
from lowering.lower_autofuse import LowerAutofusePass


def test_store_casts_when_the_stored_dtype_differs():
    """StoreOp::RealizeImpl inserts a Cast when the value's dtype is not the target's."""
    x = parse("ge.graph @g {\n  %x = ge.Data {index = 0} : tensor<4xf32>\n  ge.NetOutput %x : tensor<4xf32>\n}\n")
    buf = next(op for op in x.walk() if isinstance(op, ge.Data)).results[0]
    e = L.Pointwise((4,), f32, "Abs", (L.Load((4,), f32, buf),))
    g = L.AscGraphBuilder((4,)).realize(e, f16, "g")
    names = [op.name for op in g.body.block.ops]
    assert names == [
        "ascgraph.Data",
        "ascgraph.Load",
        "ascgraph.Abs",
        "ascgraph.Cast",
        "ascgraph.Store",
        "ascgraph.Output",
    ]
    assert ag.tensor_type(g.body.block.last_op.results[0]).element_type == f16  # type: ignore[union-attr]
    # Without the dtype difference there is no Cast.
    g2 = L.AscGraphBuilder((4,)).realize(e, f32, "g2")
    assert "ascgraph.Cast" not in [op.name for op in g2.body.block.ops]


READERS = """ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = ge.Neg(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = ge.Relu(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %b, %c : tensor<4x16xf32>, tensor<4x16xf32>
}
"""


def _backends(text: str, p: LowerAutofusePass) -> list[str]:
    m = parse(text)
    p.apply(make_context(), m)
    m.verify()
    return [op.attributes["name"].data for op in m.walk() if isinstance(op, ge.AscBackend)]  # type: ignore[attr-defined]


def test_recomputation_threshold():
    """Readers > recomputation_threshold realize (GE default 1: 3 AscBackends); with 2 the
    Abs is recomputed in both readers (2 AscBackends), and the numbers still match."""
    assert _backends(READERS, LowerAutofusePass()) == [
        "autofuse_pointwise_0_Abs", "autofuse_pointwise_1_Neg", "autofuse_pointwise_2_Relu",
    ]  # fmt: skip
    assert _backends(READERS, LowerAutofusePass(recomputation_threshold=2)) == [
        "autofuse_pointwise_0_Abs_Neg", "autofuse_pointwise_1_Abs_Relu",
    ]  # fmt: skip
    check_lowering(READERS, 0, LowerAutofusePass(recomputation_threshold=2))


def test_oversize_realizes_inputs_then_falls_back():
    """PostPrecessAfterLoweringNode 2: an AddN of 3 inputs with max_loop_ops = 1 is oversize
    (2 Adds) even with its inputs realized, so it stays a GE op; its Abs input is realized
    because of that (not inlined)."""
    text = """ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %n = ge.AddN(%a, %x, %x) {N = 3} : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %n : tensor<4x16xf32>
}
"""
    m = parse(text)
    LowerAutofusePass(max_loop_ops=1).apply(make_context(), m)
    m.verify()
    # graph-level nodes only (an AscBackend's `origin` region holds copies of GE ops)
    kinds = [op.name for g in m.ops for op in g.body.block.ops if op.name not in ("ge.Data", "ge.NetOutput")]  # type: ignore[attr-defined]
    assert kinds == ["ge.AscBackend", "ge.AddN"]
    # With room for 2 ops the AddN and the Abs fuse into one AscBackend.
    assert _backends(text, LowerAutofusePass(max_loop_ops=3)) == ["autofuse_pointwise_0_Abs_AddN"]
