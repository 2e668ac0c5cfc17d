"""A reshape-family view is made of the tensor it views only (issue 28 item 6): a Reshape's
shape input is a parameter, not a source of the view. Every dtype, through Reshape (its
shape a weight, or folded from a graph input's Shape) and every other op of the reshape
family, compiled by ge-compile and executed on the simulator against the reference."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import parse, print_module
from ge_dialect import npu
from ge_dialect.node_types import RESHAPE_FAMILY_TYPES
from ge_tools import api
from ge_tools.run import random_inputs
from runtime.reference import select_graph
from runtime.simulator import SimulatorFault, load

DTYPES = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "f16", "bf16", "f32", "f64"]


def _t(shape: tuple[int, ...], dt: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dt}>"


def reshape_graph(dt: str, shape_dt: str, source: str, through_compute: bool) -> str:
    """x (2x6) -> [Cast round trip] -> Reshape(x, shape) -> 3x4. The shape is a ge.Const
    (`weight`) or the Shape of another graph input (`input`, folded by ge-compile's
    DimensionComputePass into a Const)."""
    if source == "weight":
        shape = f"%s = ge.Const {{value = dense<[3, 4]> : tensor<2x{shape_dt}>}} : tensor<2x{shape_dt}>"
    else:
        shape = f"%s = ge.Shape(%y) : ({_t((3, 4), 'f32')}) -> tensor<2x{shape_dt}>"
    x = "%x"
    pre = ""
    if through_compute:  # the view is then of a feature-map tensor, not of input:0
        pre = f"%c = ge.Cast(%x) : ({_t((2, 6), dt)}) -> {_t((2, 6), 'f32')}\n    %d = ge.Cast(%c) : ({_t((2, 6), 'f32')}) -> {_t((2, 6), dt)}\n    "
        x = "%d"
    return f"""builtin.module {{
  ge.graph @main {{
    %x = ge.Data {{index = 0}} : {_t((2, 6), dt)}
    %y = ge.Data {{index = 1}} : {_t((3, 4), "f32")}
    {shape}
    {pre}%v = ge.Reshape({x}, %s) : ({_t((2, 6), dt)}, tensor<2x{shape_dt}>) -> {_t((3, 4), dt)}
    ge.NetOutput %v : {_t((3, 4), dt)}
  }}
}}"""


def _check(text: str) -> npu.ModelOp:
    m = parse(text)
    model = api.compile(m).model("main")
    assert model is not None
    g = select_graph(m, None)
    for seed in (0, 1):
        ins = random_inputs(g, np.random.default_rng(seed))
        sim = api.simulate(model, ins)
        want = api.reference(m, ins)
        for a, b in zip(sim.outputs, want):
            assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8))
    return model


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("source", ["weight", "input"])
def test_reshape_of_every_dtype_with_its_shape_from_a_weight_or_an_input(dt: str, source: str) -> None:
    for shape_dt in ("i64", "i32"):
        model = _check(reshape_graph(dt, shape_dt, source, through_compute=False))
        alias = next(e for e in model.table() if isinstance(e, npu.AliasOp) and e.tensor_name == "v:0")
        # made of x only; the semantics' operands name the shape too
        assert alias.source_names == ["x:0"]
        assert alias.view_operand_names[0] == "x:0" and len(alias.view_operand_names) == 2


@pytest.mark.parametrize("dt", ["i64", "i32", "f32", "f16", "ui8"])
def test_reshape_of_a_computed_tensor(dt: str) -> None:
    _check(reshape_graph(dt, "i64", "weight", through_compute=True))


# (GE type, attributes, input shape, output shape) of the other ops of the reshape family
FAMILY = [
    ("Squeeze", "{axis = [1]}", (2, 1, 6), (2, 6)),
    ("SqueezeV2", "", (2, 1, 6), (2, 6)),
    ("SqueezeV3", "", (2, 1, 6), (2, 6)),
    ("Unsqueeze", "{axes = [1]}", (2, 6), (2, 1, 6)),
    ("UnsqueezeV2", "", (2, 6), (2, 1, 6)),
    ("UnsqueezeV3", "", (2, 6), (2, 1, 6)),
    ("ExpandDims", "{axis = 0}", (2, 6), (1, 2, 6)),
    ("Flatten", "", (2, 3, 2), (2, 6)),
    ("FlattenV2", "", (2, 3, 2), (6, 2)),
    ("ReFormat", "", (2, 6), (2, 6)),
]


@pytest.mark.parametrize(("op", "attrs", "a", "b"), FAMILY)
@pytest.mark.parametrize("dt", DTYPES)
def test_every_op_of_the_reshape_family_of_every_dtype(op: str, attrs: str, a: tuple, b: tuple, dt: str) -> None:
    text = f"""builtin.module {{
  ge.graph @main {{
    %x = ge.Data {{index = 0}} : {_t(a, dt)}
    %v = ge.{op}(%x) {attrs} : ({_t(a, dt)}) -> {_t(b, dt)}
    ge.NetOutput %v : {_t(b, dt)}
  }}
}}"""
    _check(text)


@pytest.mark.parametrize(("src", "dst"), [("f32", "i32"), ("i64", "f64"), ("f16", "i16"), ("ui8", "i8")])
def test_bitcast(src: str, dst: str) -> None:
    text = f"""builtin.module {{
  ge.graph @main {{
    %x = ge.Data {{index = 0}} : {_t((2, 6), src)}
    %v = ge.Bitcast(%x) : ({_t((2, 6), src)}) -> {_t((2, 6), dst)}
    ge.NetOutput %v : {_t((2, 6), dst)}
  }}
}}"""
    _check(text)


def test_the_family_is_tested_whole() -> None:
    assert {f[0] for f in FAMILY} | {"Reshape", "Bitcast"} == RESHAPE_FAMILY_TYPES


def test_a_misplaced_reshape_view_is_still_caught() -> None:
    """The view check runs on an int64 Reshape (it is not skipped for its int64 shape
    operand): the view moved 8 bytes on (its reader too) is a wrong-offset fault naming the
    viewed tensor."""
    m = parse(reshape_graph("i64", "i64", "weight", through_compute=True))
    text = print_module(api.compile(m).module)
    src = "autofuse_pointwise_0_Cast_Cast:0"
    assert text.count('"v:0" at #npu.addr<fm, 0, 96>') == 2  # the alias and the NetOutput memcpy
    moved = parse(text.replace('"v:0" at #npu.addr<fm, 0, 96>', '"v:0" at #npu.addr<fm, 8, 96>'))
    model = next(o for o in moved.ops if isinstance(o, npu.ModelOp))
    with pytest.raises(SimulatorFault, match=rf'wrong offset: its element \[0, 0\] is element \[0, 0\] of "{src}"'):
        load(model)
