"""GE's cond_pass_unittest.cc (UtestCondPass), ported by name: the cond of an If / a
While's cond graph becomes an int32 scalar (Size for a non-scalar, Cast for the scalar
dtypes GE casts, nothing for int32, a located failure for the others); and the numbers:
the reference interpreter gives the same outputs before and after the pass."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

from conftest import parse
from ge_dialect import ge
from ge_dialect.diagnostics import LocatedError
from passes.control.cond_pass import CondPass
from runtime.interpreter import run_module


def if_graph(cond_type: str, x_type: str = "tensor<4xf32>") -> str:
    return f"""
ge.graph @main {{
  %c = ge.Data {{index = 0}} : {cond_type}
  %x = ge.Data {{index = 1}} : {x_type}
  %y = ge.If(%c, %x) {{then_branch = @t, else_branch = @e}} : ({cond_type}, {x_type}) -> {x_type}
  ge.NetOutput %y : {x_type}
}}
ge.graph @t {{
  %a = ge.Data {{index = 0, _parent_node_index = 1}} : {x_type}
  ge.NetOutput %a : {x_type}
}}
ge.graph @e {{
  %a = ge.Data {{index = 0, _parent_node_index = 1}} : {x_type}
  %n = ge.Neg(%a) : ({x_type}) -> {x_type}
  ge.NetOutput %n : {x_type}
}}
"""


def run_pass(text: str):
    m = parse(text)
    CondPass().apply(Context(), m)
    m.verify()
    return m


def count(m, cls) -> int:
    return sum(1 for op in m.walk() if isinstance(op, cls))


def if_cond(m) -> ge.If:
    return next(op for op in m.walk() if isinstance(op, ge.If))


def test_no_cond_succ() -> None:
    # a graph without If / While: nothing changes
    m = run_pass("ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<4xf32>\n  ge.NetOutput %x : tensor<4xf32>\n}")
    assert count(m, ge.Cast) == count(m, ge.Size) == 0


def test_not_scalar_succ() -> None:
    m = run_pass(if_graph("tensor<1xf32>"))
    assert count(m, ge.Size) == 1 and count(m, ge.Cast) == 0
    c = if_cond(m).operands[0]
    assert isinstance(c.owner, ge.Size) and str(c.type) == "tensor<i32>"
    assert ge.node_name(c.owner) == "y_Size"


@pytest.mark.parametrize(
    ("name", "dtype"),
    [("bool_scalar_succ", "i1"), ("float_scalar_succ", "f32"), ("double_scalar_succ", "f64"),
     ("uint8_scalar_succ", "ui8"), ("int64_scalar_succ", "i64"), ("int8_scalar", "i8"), ("int16_scalar", "i16")],
)  # fmt: skip
def test_scalar_cast_succ(name: str, dtype: str) -> None:
    m = run_pass(if_graph(f"tensor<{dtype}>"))
    assert count(m, ge.Cast) == 1 and count(m, ge.Size) == 0, name
    c = if_cond(m).operands[0]
    assert isinstance(c.owner, ge.Cast) and str(c.type) == "tensor<i32>"
    assert c.owner.int_attr("dst_type") == 3  # DT_INT32


def test_int32_scalar_succ() -> None:
    m = run_pass(if_graph("tensor<i32>"))
    assert count(m, ge.Cast) == count(m, ge.Size) == 0


@pytest.mark.parametrize("dtype", ["f16", "bf16", "ui32", "ui16"])
def test_other_scalar_fail(dtype: str) -> None:
    with pytest.raises(LocatedError) as e:
        run_pass(if_graph(f"tensor<{dtype}>"))
    assert "CondPass: the cond of If 'y' is a DT_" in str(e.value)
    assert "casts only bool, float, double, uint8, int16, int8 and int64 scalars" in str(e.value)


def test_unknown_rank_succ() -> None:
    m = run_pass(if_graph("tensor<*xf32>"))
    assert count(m, ge.Cast) == count(m, ge.Size) == 0


WHILE = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3xf32>
  %w = ge.While(%x) {cond = @c, body = @b} : (tensor<3xf32>) -> tensor<3xf32>
  ge.NetOutput %w : tensor<3xf32>
}
ge.graph @c {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<3xf32>
  %s = ge.ReduceSumD(%a) {axes = [0], keep_dims = true} : (tensor<3xf32>) -> tensor<1xf32>
  %z = ge.Const {value = dense<8.0> : tensor<1xf32>} : tensor<1xf32>
  %l = ge.Less(%s, %z) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %k = ge.Cast(%l) : (tensor<1xi1>) -> tensor<1xf32>
  %r = ge.ReduceSumD(%k) {axes = [0], keep_dims = COND_KEEP} : (tensor<1xf32>) -> COND_T
  ge.NetOutput %r : COND_T
}
ge.graph @b {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<3xf32>
  %one = ge.Const {value = dense<1.0> : tensor<f32>} : tensor<f32>
  %n = ge.Add(%a, %one) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  ge.NetOutput %n : tensor<3xf32>
}
"""


def test_while_not_scalar_succ() -> None:
    # the cond graph returns a 1-element tensor: a Size goes before its NetOutput
    m = run_pass(WHILE.replace("COND_KEEP", "true").replace("COND_T", "tensor<1xf32>"))
    cond = next(g for g in m.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == "c")
    (v,) = cond.net_output.operands
    assert isinstance(v.owner, ge.Size) and str(v.type) == "tensor<i32>"
    assert ge.node_name(v.owner).endswith("_Size")


def test_while_float_scalar_cast_and_same_numbers() -> None:
    text = WHILE.replace("COND_KEEP", "false").replace("COND_T", "tensor<f32>")
    m = run_pass(text)
    cond = next(g for g in m.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == "c")
    assert isinstance(cond.net_output.operands[0].owner, ge.Cast)
    x = np.array([0.5, -1.0, 2.0], np.float32)
    (before,) = run_module(parse(text), [x])
    (after,) = run_module(m, [x])
    np.testing.assert_array_equal(before, after)
    # independent: add 1 while the sum is below 8
    want = x.copy()
    while want.sum() < 8:
        want = want + np.float32(1)
    np.testing.assert_array_equal(after, want)


@pytest.mark.parametrize("seed", range(6))
def test_generated_if_conds_keep_their_numbers(seed: int) -> None:
    rng = np.random.default_rng(seed)
    kind = seed % 3
    dtype = ["f32", "i64", "i1"][kind]
    shape = [(), (int(rng.integers(1, 4)),), (0, 2)][seed % 3 if kind != 2 else 0]
    ct = f"tensor<{'x'.join(map(str, shape)) + 'x' if shape else ''}{dtype}>"
    text = if_graph(ct, "tensor<2x3xf16>")
    np_dt = {"f32": np.float32, "i64": np.int64, "i1": np.bool_}[dtype]
    # integral values: the Cast GE inserts truncates a float (0.5 -> 0), the If does not
    c = rng.integers(0, 2, size=shape).astype(np_dt)
    x = rng.uniform(-1, 1, (2, 3)).astype(np.float16)
    (before,) = run_module(parse(text), [c, x])
    (after,) = run_module(run_pass(text), [c, x])
    np.testing.assert_array_equal(before, after)
    truth = bool(c) if not shape else c.size > 0
    np.testing.assert_array_equal(after, x if truth else -x)
