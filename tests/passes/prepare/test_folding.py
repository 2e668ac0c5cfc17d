"""ge-dimension-compute-pass and ge-constant-folding-pass never change what a graph computes.

Each pass rule has a lit test (tests/filecheck/passes/prepare/{dimension_compute,
constant_folding}.mlir); here, generated graphs of Const-only arithmetic in many dtypes and
shapes (0-d, broadcasting, size-0, duplicated inputs) are evaluated on the reference
interpreter before and after the passes and must agree bit for bit, the folded nodes
must be gone, and a value another node still reads is kept.
"""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from ge_dialect import ge
from ge_tools.registry import make_context
from passes.prepare.constant_folding import ConstantFoldingPass
from passes.prepare.dimension_compute import DimensionComputePass
from runtime.interpreter import run_module

NP_OF = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "ui8": np.uint8, "f16": np.float16,
         "f32": np.float32, "f64": np.float64}  # fmt: skip


def parse(text: str) -> ModuleOp:
    m = Parser(make_context(), text, "<test>").parse_module()
    m.verify()
    return m


def ttype(shape: tuple[int, ...], et: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def dense(arr: np.ndarray, et: str) -> str:
    vals = arr.reshape(-1).tolist()
    if et.startswith("f"):
        body = ", ".join(repr(float(v)) for v in vals)
    else:
        body = ", ".join(str(int(v)) for v in vals)
    if arr.ndim == 0:
        return f"dense<{body}> : {ttype((), et)}"
    return f"dense<[{body}]> : {ttype(arr.shape, et)}".replace("[[", "[")


def const(name: str, arr: np.ndarray, et: str) -> str:
    if arr.ndim > 1:
        raise AssertionError("1-D or 0-d constants only")
    return f"  %{name} = ge.Const {{value = {dense(arr, et)}}} : {ttype(arr.shape, et)}"


def fold_both(m: ModuleOp) -> None:
    ctx = make_context()
    DimensionComputePass().apply(ctx, m)
    ConstantFoldingPass().apply(ctx, m)
    m.verify()


def same_bits(a: list[np.ndarray], b: list[np.ndarray]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()


def graph(lines: list[str], outs: list[tuple[str, str]], data: list[str] = ()) -> str:
    body = "\n".join([*data, *lines])
    names = ", ".join(f"%{n}" for n, _ in outs)
    types = ", ".join(t for _, t in outs)
    return f"ge.graph @main {{\n{body}\n  ge.NetOutput {names} : {types}\n}}\n"


BINARY = ["Add", "Sub", "Mul", "Maximum", "Minimum", "RealDiv"]


@pytest.mark.parametrize(
    "et,shapes",
    list(itertools.product(["i8", "i32", "i64", "ui8", "f16", "f32", "f64"], [((3,), (3,)), ((), (4,)), ((5,), ())])),
)
def test_binary_kernels_agree_with_the_reference(et, shapes):
    rng = np.random.default_rng(zlib.crc32(repr((et, shapes)).encode()))
    dt = NP_OF[et]
    lines, outs = [], []
    for k, op in enumerate(BINARY):
        if op == "RealDiv" and not et.startswith("f"):
            op = "Div"
        a = rng.integers(5, 9, shapes[0]).astype(dt)  # a > b: no unsigned underflow
        b = rng.integers(1, 5, shapes[1]).astype(dt)
        out_shape = np.broadcast_shapes(shapes[0], shapes[1])
        lines += [const(f"a{k}", a, et), const(f"b{k}", b, et)]
        lines.append(
            f"  %r{k} = ge.{op}(%a{k}, %b{k}) : ({ttype(a.shape, et)}, {ttype(b.shape, et)}) -> {ttype(out_shape, et)}"
        )
        outs.append((f"r{k}", ttype(out_shape, et)))
    m = parse(graph(lines, outs))
    want = run_module(m, [])
    fold_both(m)
    ops = [op for op in m.walk() if isinstance(op, ge.GeNode) and not isinstance(op, ge.Const | ge.NetOutput)]
    assert ops == [], [o.name for o in ops]  # every binary op folded (no overflow in range)
    same_bits(want, run_module(m, []))


def test_shape_chains_fold_to_the_values_numpy_gives():
    # Shape -> GatherV2 -> UnsqueezeV3 -> ConcatD (PyTorch's flatten), Size -> Cast ->
    # Range, Rank -> Fill of the shape, Pack and TransposeD of Consts, on a 0-d, a 4-D and
    # a size-0 input
    text = graph(
        [
            "  %s = ge.Shape(%x) : (tensor<2x3x4x5xf16>) -> tensor<4xi64>",
            "  %i = ge.Const {value = dense<[0, 3]> : tensor<2xi64>} : tensor<2xi64>",
            "  %ax = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>",
            "  %g = ge.GatherV2(%s, %i, %ax) : (tensor<4xi64>, tensor<2xi64>, tensor<i32>) -> tensor<2xi64>",
            "  %m = ge.Const {value = dense<[-1]> : tensor<1xi64>} : tensor<1xi64>",
            "  %c = ge.ConcatD(%g, %m) {concat_dim = 0, N = 2} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>",
            "  %n = ge.Size(%z) : (tensor<0x3xi32>) -> tensor<i32>",
            "  %n2 = ge.Size(%x) : (tensor<2x3x4x5xf16>) -> tensor<i32>",
            "  %zero = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>",
            "  %two = ge.Const {value = dense<2> : tensor<i32>} : tensor<i32>",
            "  %rg = ge.Range(%zero, %n2, %two) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<60xi32>",
            "  %nf = ge.Cast(%n2) : (tensor<i32>) -> tensor<f32>",
            "  %k = ge.Rank(%q) : (tensor<f32>) -> tensor<i32>",
            "  %s2 = ge.Shape(%z) : (tensor<0x3xi32>) -> tensor<2xi32>",
            "  %sl = ge.Const {value = dense<[2, 2]> : tensor<2xi32>} : tensor<2xi32>",
            "  %fl = ge.Fill(%sl, %nf) : (tensor<2xi32>, tensor<f32>) -> tensor<2x2xf32>",
            "  %p = ge.Pack(%s2, %sl) {axis = 1, N = 2} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>",
            "  %t = ge.TransposeD(%p) {perm = [1, 0]} : (tensor<2x2xi32>) -> tensor<2x2xi32>",
            "  %y = ge.Reshape(%x, %c) : (tensor<2x3x4x5xf16>, tensor<3xi64>) -> tensor<2x5x12xf16>",
        ],
        [
            ("y", "tensor<2x5x12xf16>"),
            ("c", "tensor<3xi64>"),
            ("n", "tensor<i32>"),
            ("rg", "tensor<60xi32>"),
            ("k", "tensor<i32>"),
            ("fl", "tensor<2x2xf32>"),
            ("t", "tensor<2x2xi32>"),
        ],  # fmt: skip
        [
            "  %x = ge.Data {index = 0} : tensor<2x3x4x5xf16>",
            "  %z = ge.Data {index = 1} : tensor<0x3xi32>",
            "  %q = ge.Data {index = 2} : tensor<f32>",
        ],
    )
    m = parse(text)
    rng = np.random.default_rng(3)
    inputs = [
        rng.standard_normal((2, 3, 4, 5)).astype(np.float16),
        np.zeros((0, 3), np.int32),
        np.array(1.5, np.float32),
    ]
    want = run_module(m, inputs)
    fold_both(m)
    left = sorted(
        op.name
        for op in m.walk()
        if isinstance(op, ge.GeNode) and not isinstance(op, ge.Const | ge.Data | ge.NetOutput)
    )
    assert left == ["ge.Reshape"]
    got = run_module(m, inputs)
    same_bits(want, got)
    # by hand: the shape [2, 3, 4, 5] at [0, 3] and -1; sizes 0 and 120; range(0, 120, 2)
    assert got[1].tolist() == [2, 5, -1]
    assert int(got[2]) == 0 and got[3].tolist() == list(range(0, 120, 2))
    assert int(got[4]) == 0 and got[5].tolist() == [[120.0, 120.0]] * 2
    assert got[6].tolist() == [[0, 3], [2, 2]]


def test_a_value_another_node_still_reads_is_kept():
    # folding_pass.cc: Folding deletes only producers without other consumers; a Shape
    # read twice folds once per reader: one Const per output, shared by its readers
    m = parse(
        graph(
            [
                "  %s = ge.Shape(%x) : (tensor<3x2xf32>) -> tensor<2xi32>",
                "  %a = ge.Add(%s, %s) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>",
                "  %w = ge.Const {value = dense<[1, 1]> : tensor<2xi32>} : tensor<2xi32>",
                "  %b = ge.Sub(%w, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>",
                "  %v = ge.Mul(%w, %y) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>",
            ],
            [("b", "tensor<2xi32>"), ("v", "tensor<2xi32>")],
            ["  %x = ge.Data {index = 0} : tensor<3x2xf32>", "  %y = ge.Data {index = 1} : tensor<2xi32>"],
        )
    )
    inputs = [np.zeros((3, 2), np.float32), np.array([5, 7], np.int32)]
    want = run_module(m, inputs)
    fold_both(m)
    consts = [op for op in m.walk() if isinstance(op, ge.Const)]
    assert sorted(c.results[0].name_hint for c in consts) == ["dynamic_const_2", "w"]
    same_bits(want, run_module(m, inputs))
    assert run_module(m, inputs)[0].tolist() == [1 - 6, 1 - 4]


def test_folding_is_deterministic():
    text = graph(
        ["  %s = ge.Shape(%x) : (tensor<3x2xf32>) -> tensor<2xi64>",
         "  %t = ge.Mul(%s, %s) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>"],
        [("t", "tensor<2xi64>")],
        ["  %x = ge.Data {index = 0} : tensor<3x2xf32>"],
    )  # fmt: skip
    outs = []
    for _ in range(2):
        m = parse(text)
        fold_both(m)
        outs.append(str(m))
    assert outs[0] == outs[1] and "dense<[9, 4]>" in outs[0]


@pytest.mark.parametrize("elem", ["bf16", "f8E4M3FN", "f8E5M2"])
def test_bf16_and_float8_constants_fold_on_byte_copying_kernels(elem):
    # GE's reshape_kernel.cc copies the Const's bytes whatever its dtype: the Reshape of a
    # bf16 / float8 Const folds to a Const of the same bytes (they were not read before);
    # Add's kernel (add_kernel.cc) has no DT_BF16 or float8: that node stays
    m = parse(
        graph(
            [
                f"  %c = ge.Const {{value = dense<[1.5, -2.0, 0x7f]> : tensor<3x{elem}>}} : tensor<3x{elem}>",
                f"  %r = ge.Reshape(%c) : (tensor<3x{elem}>) -> tensor<1x3x{elem}>",
                f"  %a = ge.Add(%r, %r) : (tensor<1x3x{elem}>, tensor<1x3x{elem}>) -> tensor<1x3x{elem}>",
            ],
            [("a", f"tensor<1x3x{elem}>"), ("r", f"tensor<1x3x{elem}>")],
        )
    )
    want = run_module(m, [])
    fold_both(m)
    assert not [op for op in m.walk() if isinstance(op, ge.Reshape)]
    assert [op.name for op in m.walk() if isinstance(op, ge.Add)] == ["ge.Add"]
    same_bits(want, run_module(m, []))


def test_shape_checks_and_names_are_read_only_for_folding_candidates(monkeypatch):
    """run_folding asks its pass's cheap first check (`may_fold`: all inputs Const, or a
    Shape/Size/Rank node) before NeedIgnorePass's output-shape checks, and reads a graph's
    names (for the new Consts' unique names) only when it folds a node of that graph:
    on 20 Relus and one foldable Add, the shape check runs once per pass and one
    Folder is built, by constant folding."""
    from passes.prepare import folding

    calls = {"empty": 0, "folder": 0}
    real_empty, real_init = folding.all_outputs_empty, folding.Folder.__init__

    def empty(op):
        calls["empty"] += 1
        return real_empty(op)

    def init(self, *a, **k):
        calls["folder"] += 1
        real_init(self, *a, **k)

    monkeypatch.setattr(folding, "all_outputs_empty", empty)
    monkeypatch.setattr(folding.Folder, "__init__", init)
    relus = [f"  %r{i} = ge.Relu(%r{i - 1}) : (tensor<2xi32>) -> tensor<2xi32>" for i in range(1, 21)]
    m = parse(
        graph(
            [
                "  %r0 = ge.Relu(%x) : (tensor<2xi32>) -> tensor<2xi32>",
                *relus,
                "  %w = ge.Const {value = dense<[1, 2]> : tensor<2xi32>} : tensor<2xi32>",
                "  %s = ge.Add(%w, %w) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>",
                "  %o = ge.Add(%r20, %s) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>",
            ],
            [("o", "tensor<2xi32>")],
            ["  %x = ge.Data {index = 0} : tensor<2xi32>"],
        )
    )
    ctx = make_context()
    DimensionComputePass().apply(ctx, m)
    assert calls == {"empty": 0, "folder": 0}  # no Shape, Size or Rank node
    ConstantFoldingPass().apply(ctx, m)
    assert calls == {"empty": 1, "folder": 1}  # only the Add of two Consts
    assert [c.results[0].name_hint for c in m.walk() if isinstance(c, ge.Const)] == ["dynamic_const_0"]
