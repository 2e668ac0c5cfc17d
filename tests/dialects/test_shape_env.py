"""ge_dialect/shape_env.py: GE's ShapeEnvAttr, ported from
tests/graph_metadef/ut/.../attr_group_shape_env_unittest.cc (AttributeGroupShapeEnvUt) and
expression_unittest.cc (UtestExpression: SymbolCheck_Succ, SymbolCheckBroadCast_Succ,
SymbolAssertMatmul_Succ) by name."""

from __future__ import annotations

import pytest

from ge_dialect import symbolic as S
from ge_dialect.shape_env import (
    AssertFailed,
    DynamicMode,
    Guard,
    GuardFailed,
    InputShapeSource,
    ShapeEnv,
    ShapeEnvSetting,
)


def env(zero_one: bool, mode: DynamicMode) -> ShapeEnv:
    return ShapeEnv(ShapeEnvSetting(zero_one, mode))


def test_CreateSymbolDuckMode_Succ() -> None:
    e = env(False, DynamicMode.DUCK)
    s = e.create_symbol(2, InputShapeSource(0, 2))
    assert len(e.symbol_to_value) == 1 and len(e.value_to_symbol) == 1 and len(e.symbol_to_source) == 1
    assert e.value_to_symbol[2][0] == "s0" and e.symbol_to_value["s0"] == 2
    assert e.symbol_to_source["s0"].global_index == 0
    assert S.text(s) == "s0"
    s1 = e.create_symbol(2, InputShapeSource(1, 0))
    assert s1 == s  # equal hints share a symbol


def test_CreateSymbolSpecializeZeroOne_Succ() -> None:
    e = env(True, DynamicMode.DYNAMIC)
    s = e.create_symbol(1, InputShapeSource(0, 2))
    assert not e.symbol_to_value and not e.value_to_symbol and not e.symbol_to_source
    assert S.text(s) == "1"
    s1 = e.create_symbol(0, InputShapeSource(0, 3))
    assert not e.symbol_to_value
    assert S.text(s1) == "0"


def test_CreateSymbolDynamicMode_Succ() -> None:
    e = env(False, DynamicMode.DYNAMIC)
    s = e.create_symbol(2, InputShapeSource(0, 2))
    assert e.describe_symbols() == ["s0: input 0 dim 2 (hint 2)"]
    s1 = e.create_symbol(2, InputShapeSource(1, 0))
    assert len(e.symbol_to_value) == 2 and len(e.value_to_symbol) == 1 and e.value_to_symbol[2] == ["s0", "s1"]
    assert s1 != s and S.text(s1) == "s1" and e.symbol_to_source["s1"].global_index == 1


def test_CreateSymbolStaticMode_Succ() -> None:
    e = env(False, DynamicMode.STATIC)
    s = e.create_symbol(2, InputShapeSource(0, 2))
    assert S.text(s) == "s0" and e.value_to_symbol[2] == ["s0"]
    assert e.create_symbol(2, InputShapeSource(0, 2)) == s
    assert e.has_assert(Guard(s, "==", S.const(2)))


def test_ShapeEnvAttrDeserialize_Succ() -> None:
    e = env(True, DynamicMode.DYNAMIC)
    s0 = e.create_symbol(2, InputShapeSource(1, 2))
    s1 = e.create_symbol(5, InputShapeSource(2, 0))
    e.append_guard(Guard(s1 + 2, "==", s0))
    e.append_assert(Guard(s0 + 1, ">", s1))
    e2 = ShapeEnv.from_attr(e.to_attr())
    assert e2.symbol_to_value == {"s0": 2, "s1": 5} and e2.value_to_symbol == {2: ["s0"], 5: ["s1"]}
    assert len(e2.guards) == 1 and len(e2.asserts) == 1
    assert e2.has_guard(Guard(S.sym("s1") + 2, "==", S.sym("s0")))
    assert e2.has_assert(Guard(S.sym("s0") + 1, ">", S.sym("s1")))
    assert e2.sources == e.sources and e2.setting == e.setting


def test_SymbolCheck_Succ() -> None:
    # EXPECT_SYMBOL_*: decided statically when it can be (no guard), else on the hints with
    # the answer recorded as a guard (its negation when false)
    e = env(False, DynamicMode.DYNAMIC)
    sy = [e.create_symbol(h, InputShapeSource(0, i)) for i, h in enumerate((1, 2, 3, 4, 5))]
    assert e.expect(sy[0] + sy[1], "==", sy[2])
    assert e.has_guard(Guard(sy[0] + sy[1], "==", sy[2]))
    assert e.expect(sy[0] * sy[1], "!=", sy[2])
    assert not e.expect(sy[3], "<", sy[1])
    assert e.has_guard(Guard(sy[1], "<=", sy[3]))  # the negation is recorded
    n = len(e.guards)
    assert e.expect(sy[2] + 1, ">", sy[2])  # provable: no guard
    assert not e.expect(S.const(2), "==", S.const(3))
    assert len(e.guards) == n


def test_SymbolCheckBroadCast_Succ() -> None:
    # GE's InferAddSymbolShapeStub: per dim s0 == s1 ? s0 : s0 == 1 ? s1 : s1 == 1 ? s0 : fail
    e = env(False, DynamicMode.DYNAMIC)
    y = [e.create_symbol(h, InputShapeSource(0, i)) for i, h in enumerate((1, 2, 3, 4))]
    a = (y[0] + y[2], y[2], y[0], y[1])
    b = (S.const(4), y[0], y[3], y[1])
    out = []
    for x, z in zip(a, b):
        if e.expect(x, "==", z):
            out.append(x)
        elif e.expect(x, "==", 1):
            out.append(z)
        elif e.expect(z, "==", 1):
            out.append(x)
        else:
            raise AssertionError("not broadcastable")
    assert [S.text(d) for d in out] == [S.text(y[0] + y[2]), "s2", "s3", "s1"]
    assert e.has_guard(Guard(y[0] + y[2], "==", S.const(4)))
    assert e.has_guard(Guard(y[2], "!=", y[0]))
    assert e.has_guard(Guard(y[2], "!=", S.const(1)))
    assert e.has_guard(Guard(y[0], "==", S.const(1)))
    assert not e.has_guard(Guard(y[3], "!=", y[0]))


def test_bind_checks_sources_guards_and_asserts() -> None:
    e = env(True, DynamicMode.DUCK)
    s0 = e.create_symbol(8, InputShapeSource(0, 0))
    assert e.create_symbol(8, InputShapeSource(1, 0)) == s0  # duck-sized
    assert e.create_symbol(1, InputShapeSource(1, 1)) == S.const(1)  # specialised
    s1 = e.create_symbol(16, InputShapeSource(0, 1))
    e.append_guard(Guard(s1, "==", 2 * s0))
    e.append_assert(Guard(s0, "<", 1000))
    assert e.bind([(3, 6), (3, 1)]) == {"s0": 3, "s1": 6}
    with pytest.raises(GuardFailed, match="input 1 dim 0 is 4, compiled equal to s0 = 3 .*duck sizing"):
        e.bind([(3, 6), (4, 1)])
    with pytest.raises(GuardFailed, match=r"input 1 dim 1 is 2, compiled for 1 \(0/1 specialisation\)"):
        e.bind([(3, 6), (3, 2)])
    with pytest.raises(GuardFailed, match="guard s1 == 2\\*s0 fails with s0 = 3, s1 = 7"):
        e.bind([(3, 7), (3, 1)])
    with pytest.raises(AssertFailed, match="assert s0 < 1000"):
        e.bind([(1000, 2000), (1000, 1)])
