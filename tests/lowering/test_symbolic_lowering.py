"""ge-symbolic-autofuse: ge-lower-autofuse over symbolic shapes (lowering/symbolic_autofuse.py,
lowering/symbolic_shape.py). Each rule of issue 30's item 4 has a case that fails without
it: axes, repeats and strides are expressions; a fact the static checks cannot prove makes
the node fall back (Reason StaticCheck), never decided on a hint; a node without a symbolic
rule falls back (Reason SymbolicShapeInference); shape inference records its guards."""

from __future__ import annotations

from xdsl.context import Context

from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.diagnostics import Remark, remark_sink
from ge_dialect.shape_env import SHAPE_ENV_ATTR, ShapeEnv
from ge_tools.pipeline import GeCompilePass
from lowering.symbolic_autofuse import SymbolicAutofusePass
from tests.conftest import parse


def compile_symbolic(text: str, *shapes: str, **opts: object) -> tuple[object, list[Remark]]:
    m = parse(text)
    ctx = Context()
    GeCompilePass().apply(ctx, m)
    got: list[Remark] = []
    with remark_sink(got.append):
        SymbolicAutofusePass(input_shapes=shapes, remarks=True, **opts).apply(ctx, m)  # type: ignore[arg-type]
    return m, got


def backends(m) -> list[ge.AscBackend]:  # noqa: ANN001
    return [op for op in m.walk() if isinstance(op, ge.AscBackend)]


def test_axes_repeats_strides_are_expressions() -> None:
    m, _ = compile_symbolic(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x?x8xf32>
  %y = ge.Relu(%x) : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  ge.NetOutput %y : tensor<?x?x8xf32>
}""",
        "4x5x8",
    )
    (b,) = backends(m)
    g = asc_graph_of(b)
    assert ag.is_symbolic(g)
    assert [str(a.size.data) for a in g.axis.data] == ["s0", "s1", "8"]
    data = next(op for op in g.body.block.ops if isinstance(op, ag.Data))
    t = data.out_type()
    assert [str(r) for r in t.repeat_list] == ["s0", "s1", "8"]
    assert [str(s) for s in t.stride_list] == ["8*s1", "8", "1"]
    # tiling for s0 = 4, s1 = 5: the static graph of those sizes
    inst = ag.instantiate(g, {"s0": 4, "s1": 5})
    inst.verify()
    assert inst.axis_sizes() == {0: 4, 1: 5, 2: 8}
    assert ag.tensor_type(next(iter(inst.body.block.ops)).results[0]).stride_list == (40, 8, 1)


def test_unprovable_fact_falls_back_never_decided_on_the_hint() -> None:
    # GE's small-last-dim rule for a reduction over one of the last two axes needs
    # `last dim bytes < 64`: for a symbolic last dim s1 (4*s1 < 64) the static checks
    # cannot decide; the hint (s1 = 3: 12 bytes) would say "small" -- the node falls back
    # with Reason StaticCheck instead
    m, remarks = compile_symbolic(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x?xf32>
  %s = ge.ReduceSumD(%x) {axes = [0], keep_dims = true} : (tensor<?x?xf32>) -> tensor<1x?xf32>
  ge.NetOutput %s : tensor<1x?xf32>
}""",
        "2x3",
    )
    assert not backends(m)
    (r,) = [r for r in remarks if "ReduceSumD" in r.message]
    assert r.reason is not None and r.reason.rule == "StaticCheck"
    assert "4*s1 < 64" in r.message


def test_provable_facts_lower() -> None:
    # the same reduction with a static last dim of 32 floats (128 bytes) lowers: every
    # fact it needs is provable; the size-1 dim of the bias broadcasts (s0 == 1 is false
    # under 0/1 specialisation, proved, not read from the hint)
    m, _ = compile_symbolic(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %b = ge.Data {index = 1} : tensor<1x32xf32>
  %a = ge.Add(%x, %b) : (tensor<?x32xf32>, tensor<1x32xf32>) -> tensor<?x32xf32>
  %s = ge.ReduceSumD(%a) {axes = [0], keep_dims = true} : (tensor<?x32xf32>) -> tensor<1x32xf32>
  ge.NetOutput %s : tensor<1x32xf32>
}""",
        "6x32",
        "1x32",
    )
    assert len(backends(m)) == 1
    g = asc_graph_of(backends(m)[0])
    bias = [op for op in g.body.block.ops if isinstance(op, ag.Data)][1]
    assert bias.out_type().repeat_list == (1, 32) and bias.out_type().stride_list == (0, 1)


def test_node_without_symbolic_rule_falls_back() -> None:
    m, remarks = compile_symbolic(
        """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x8xf32>
  %t = ge.TransposeD(%x) {perm = [1, 0]} : (tensor<?x8xf32>) -> tensor<8x?xf32>
  %r = ge.Relu(%t) : (tensor<8x?xf32>) -> tensor<8x?xf32>
  ge.NetOutput %r : tensor<8x?xf32>
}""",
        "4x8",
    )
    rules = {r.message.split("'")[1]: r.reason.rule for r in remarks if r.reason is not None}
    assert rules["t"] == "SymbolicShapeInference" and rules["r"] == "SymbolicShapeInference"
    assert not backends(m)


def test_broadcast_guard_recorded_in_dynamic_mode() -> None:
    # dynamic mode: the two batch dims get two symbols with equal hints; the Add needs
    # them equal, decided on the hints and recorded as the guard s0 == s1
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x8xf32>
  %y = ge.Data {index = 1} : tensor<?x8xf32>
  %a = ge.Add(%x, %y) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  ge.NetOutput %a : tensor<?x8xf32>
}"""
    m, remarks = compile_symbolic(text, "4x8", "4x8", mode="dynamic")
    root = next(op for op in m.ops if isinstance(op, ge.GraphOp) and SHAPE_ENV_ATTR in op.attributes)
    env = ShapeEnv.from_attr(root.attributes[SHAPE_ENV_ATTR])
    assert [g.text() for g in env.guards] == ["s0 == s1"]
    assert any(r.message.startswith("guard s0 == s1") for r in remarks)
    # duck mode: one symbol, no guard (the shared source is checked at binding instead)
    m, _ = compile_symbolic(text, "4x8", "4x8")
    root = next(op for op in m.ops if isinstance(op, ge.GraphOp) and SHAPE_ENV_ATTR in op.attributes)
    env = ShapeEnv.from_attr(root.attributes[SHAPE_ENV_ATTR])
    assert env.guards == [] and list(env.symbol_to_value) == ["s0"]
