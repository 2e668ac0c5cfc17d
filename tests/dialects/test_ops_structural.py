"""The structural ge ops (BatchNorm, MaxPoolV3, AvgPoolV2, MaxPool, AvgPool, PadV3,
StridedSliceV2, Tile, BatchMatMulV2): what their verifiers accept and refuse (GE's op
protos), their inferred shapes, the reference against numpy on generated shapes (odd
sizes, strides, pads, ceil mode, f16 and f32, size-0 tensors), and their error bounds on
perturbed inputs.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from ge_dialect import ge
from ge_tools.opt import GeOptMain
from ge_tools.parse import UserError, parse_module
from runtime import error_bound as EB
from runtime.interpreter import ge_interpreter, run_module

_CTX = GeOptMain([]).ctx
ELEM = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}


def ty(shape, dt) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{ELEM[np.dtype(dt)]}>"


def dense(a: np.ndarray) -> str:
    return f"dense<{np.asarray(a).tolist()}> : {ty(a.shape, a.dtype)}"


def graph(
    op: str, ins: list[tuple[tuple, type]], consts: list[np.ndarray], outs: list[tuple[tuple, type]], attrs: str = ""
) -> str:
    lines = [f"  %x{i} = ge.Data {{index = {i}}} : {ty(s, d)}" for i, (s, d) in enumerate(ins)]
    lines += [f"  %c{k} = ge.Const {{value = {dense(c)}}} : {ty(c.shape, c.dtype)}" for k, c in enumerate(consts)]
    args = [f"%x{i}" for i in range(len(ins))] + [f"%c{k}" for k in range(len(consts))]
    in_t = [ty(s, d) for s, d in ins] + [ty(c.shape, c.dtype) for c in consts]
    out_t = [ty(s, d) for s, d in outs]
    res = ", ".join(f"%y{k}" for k in range(len(outs)))
    rt = out_t[0] if len(out_t) == 1 else f"({', '.join(out_t)})"
    lines.append(f"  {res} = ge.{op}({', '.join(args)}){attrs} : ({', '.join(in_t)}) -> {rt}")
    return "ge.graph @main {\n" + "\n".join(lines) + f"\n  ge.NetOutput {res} : {', '.join(out_t)}\n}}"


def verify(text: str) -> None:
    parse_module(_CTX, text, "t.mlir").verify()


def refused(text: str, match: str) -> None:
    with pytest.raises((UserError, VerifyException), match=match):
        verify(text)


# ---------------------------------------------------------------------------------------
# Verifiers
# ---------------------------------------------------------------------------------------

F32, F16, I32, I64 = np.float32, np.float16, np.int32, np.int64
BN_ATTRS = ' {epsilon = 1.000000e-05 : f32, data_format = "NCHW", is_training = false}'
BN_OUTS = [((2, 3, 4, 5), F32), ((3,), F32), ((3,), F32), ((3,), F32), ((3,), F32), ((1,), F32)]
BN_INS = [((2, 3, 4, 5), F32)] + [((3,), F32)] * 4


def test_batch_norm_verifies_and_refuses() -> None:
    verify(graph("BatchNorm", BN_INS, [], BN_OUTS, BN_ATTRS))
    # nn_norm_ops.h: scale, offset, mean and variance are float32
    refused(graph("BatchNorm", BN_INS[:1] + [((3,), F16)] * 4, [], BN_OUTS, BN_ATTRS), "float32")
    refused(graph("BatchNorm", BN_INS[:1] + [((4,), F32)] * 4, [], BN_OUTS, BN_ATTRS), r"expected \[3\]")
    refused(graph("BatchNorm", BN_INS[:3], [], BN_OUTS, BN_ATTRS), "needs mean and variance")
    refused(graph("BatchNorm", BN_INS, [], BN_OUTS, BN_ATTRS.replace("NCHW", "NHWC")), "NCHW")
    refused(graph("BatchNorm", BN_INS, [], BN_OUTS[:5], BN_ATTRS), "takes 6 outputs")
    refused(graph("BatchNorm", BN_INS, [], BN_OUTS, BN_ATTRS.replace("1.000000e-05", "-1.0")), "epsilon must be > 0")


POOL_V3 = ' {ksize = [1, 1, 3, 3], strides = [1, 1, 2, 2], padding_mode = "CALCULATED", pads = [1, 1, 1, 1], data_format = "NCHW"}'


def test_pools_verify_and_refuse() -> None:
    verify(graph("MaxPoolV3", [((1, 2, 7, 7), F32)], [], [((1, 2, 4, 4), F32)], POOL_V3))
    verify(graph("MaxPoolV3", [((1, 2, 7, 7), I32)], [], [((1, 2, 4, 4), I32)], POOL_V3))
    refused(graph("AvgPoolV2", [((1, 2, 7, 7), I32)], [], [((1, 2, 4, 4), I32)], POOL_V3), "x must be one of")
    refused(graph("MaxPoolV3", [((1, 2, 7, 7), F32)], [], [((1, 2, 3, 4), F32)], POOL_V3), "infers 1x2x4x4")
    refused(
        graph(
            "MaxPoolV3",
            [((1, 2, 7, 7), F32)],
            [],
            [((1, 2, 4, 4), F32)],
            POOL_V3.replace("[1, 1, 3, 3]", "[2, 1, 3, 3]"),
        ),
        "must be 1 on N and C",
    )
    refused(
        graph("MaxPoolV3", [((1, 2, 7, 7), F32)], [], [((1, 2, 4, 4), F32)], POOL_V3.replace("CALCULATED", "FULL")),
        "padding_mode must be one of",
    )
    refused(
        graph("MaxPoolV3", [((1, 2, 7, 7), F32)], [], [((1, 2, 4, 4), F32)], POOL_V3.replace("NCHW", "NHWC")), "NCHW"
    )
    refused(
        graph(
            "MaxPoolV3",
            [((1, 2, 2, 2), F32)],
            [],
            [((1, 2, 0, 0), F32)],
            POOL_V3.replace("pads = [1, 1, 1, 1]", "pads = [0, 0, 0, 0]"),
        ),
        "empty",
    )
    tf = ' {ksize = [1, 1, 2, 2], strides = [1, 1, 2, 2], padding = "SAME", data_format = "NCHW"}'
    verify(graph("AvgPool", [((1, 1, 5, 5), F16)], [], [((1, 1, 3, 3), F16)], tf))
    refused(
        graph("MaxPool", [((1, 1, 5, 5), F32)], [], [((1, 1, 3, 3), F32)], tf.replace("SAME", "CALCULATED")),
        "padding must be one of SAME, VALID",
    )
    refused(
        graph(
            "MaxPool",
            [((1, 1, 5, 5), F32)],
            [],
            [((1, 1, 3, 3), F32)],
            " {ksize = [1, 1, 2, 2], strides = [1, 1, 2, 2]}",
        ),
        "requires attribute 'padding'",
    )


def test_pad_slice_tile_verify_and_refuse() -> None:
    p = np.array([1, 0, 2, 1], I64)
    verify(graph("PadV3", [((3, 4), F32)], [p], [((6, 5), F32)], " {paddings_contiguous = false}"))
    verify(graph("PadV3", [((3, 4), F32)], [p], [((4, 7), F32)]))  # contiguous: [[1, 0], [2, 1]]
    refused(graph("PadV3", [((3, 4), F32)], [p[:3]], [((6, 5), F32)]), "3 values for a rank-2 x")
    refused(graph("PadV3", [((3, 4), F32)], [p], [((6, 5), F32)], ' {mode = "wrap"}'), "mode must be one of")
    refused(
        graph("PadV3", [((3, 4), F32)], [np.array([3, 0, 0, 0], I64)], [((6, 4), F32)], ' {mode = "reflect"}'),
        "out of range for mode reflect",
    )
    refused(graph("PadV3", [((3, 4), F32)], [np.array([-4, 0, 0, 0], I64)], [((1, 4), F32)]), "out of range")
    refused(graph("PadV3", [((3, 4), F32)], [p.astype(np.float32)], [((4, 7), F32)]), "paddings must be int32 or int64")
    b, e = np.array([1], I64), np.array([3], I64)
    verify(graph("StridedSliceV2", [((5, 2), F32)], [b, e], [((2, 2), F32)]))
    refused(
        graph("StridedSliceV2", [((5, 2), F32)], [b, e, np.array([0], I64), np.array([0], I64)], [((2, 2), F32)]),
        "must not be 0",
    )
    refused(
        graph("StridedSliceV2", [((5, 2), F32)], [b, e, np.array([0, 1], I64)], [((2, 2), F32)]), "different lengths"
    )
    refused(
        graph("StridedSliceV2", [((5, 2), F32)], [b, e], [((2, 2), F32)], " {shrink_axis_mask = 1}"), "not supported"
    )
    verify(graph("Tile", [((2, 3), I32)], [np.array([2, 0], I32)], [((4, 0), I32)]))
    refused(graph("Tile", [((2, 3), I32)], [np.array([2], I32)], [((4, 3), I32)]), "one entry >= 0 per axis")


def test_batch_matmul_v2_verifies_and_refuses() -> None:
    verify(graph("BatchMatMulV2", [((2, 1, 3, 4), F32), ((5, 4, 6), F32)], [], [((2, 5, 3, 6), F32)]))
    verify(graph("BatchMatMulV2", [((4, 3), F16), ((2, 4, 6), F16)], [], [((2, 3, 6), F16)], " {adj_x1 = true}"))
    refused(graph("BatchMatMulV2", [((2, 3, 4), F32), ((3, 4, 6), F32)], [], [((3, 3, 6), F32)]), "do not broadcast")
    refused(graph("BatchMatMulV2", [((2, 3, 4), F32), ((2, 5, 6), F32)], [], [((2, 3, 6), F32)]), "inner dims differ")
    refused(graph("BatchMatMulV2", [((4,), F32), ((4, 6), F32)], [], [((6,), F32)]), "2-D to 6-D")
    refused(graph("BatchMatMulV2", [((2, 3), I64), ((3, 2), I64)], [], [((2, 2), I64)]), "x1 must be one of")


def test_arg_gather_elements_tri_verify_and_refuse() -> None:
    ax = np.array(1, I32)
    verify(graph("ArgMaxV2", [((3, 4, 5), F16)], [ax], [((3, 5), I64)]))
    verify(graph("ArgMin", [((3, 4, 5), I32)], [ax], [((3, 5), I32)], " {dtype = 3}"))
    refused(graph("ArgMin", [((3, 4, 5), F32)], [ax], [((3, 5), I64)], " {dtype = 3}"), "y must be DT_INT32")
    refused(graph("ArgMaxV2", [((3, 4, 5), F32)], [ax], [((3, 5), I64)], " {dtype = 1}"), "dtype must be DT_INT32")
    refused(graph("ArgMaxV2", [((3, 4, 5), F32)], [np.array(3, I32)], [((3, 4), I64)]), "out of range")
    refused(graph("ArgMaxV2", [((3, 0, 5), F32)], [ax], [((3, 5), I64)]), "empty axis")
    verify(graph("GatherElements", [((4, 3), F32), ((2, 3), I64)], [], [((2, 3), F32)]))
    refused(graph("GatherElements", [((4, 3), F32), ((2, 4), I64)], [], [((2, 4), F32)]), "larger than x's")
    refused(graph("GatherElements", [((4, 3), F32), ((2,), I64)], [], [((2,), F32)]), "x's rank")
    refused(
        graph("GatherElements", [((4, 3), F32), ((2, 3), F32)], [], [((2, 3), F32)]), "index must be int32 or int64"
    )
    verify(graph("Triu", [((2, 3, 4), F32)], [], [((2, 3, 4), F32)], " {diagonal = -2}"))
    refused(graph("Tril", [((4,), F32)], [], [((4,), F32)]), "2-D to 8-D")


def test_resizes_verify_and_refuse() -> None:
    size = np.array([6, 2], I32)
    verify(graph("ResizeBilinearV2", [((1, 2, 3, 4), F16)], [size], [((1, 2, 6, 2), F32)]))
    verify(graph("ResizeBilinearV2", [((1, 2, 3, 4), F16)], [size], [((1, 2, 6, 2), F16)], " {align_corners = true}"))
    verify(graph("ResizeNearestNeighborV2", [((1, 2, 3, 4), I32)], [size], [((1, 2, 6, 2), I32)]))
    both = " {align_corners = true, half_pixel_centers = true}"
    refused(graph("ResizeNearestNeighborV2", [((1, 2, 3, 4), F32)], [size], [((1, 2, 6, 2), F32)], both), "cannot both")
    refused(graph("ResizeBilinearV2", [((1, 2, 3, 4), I32)], [size], [((1, 2, 6, 2), F32)]), "x must be")
    refused(graph("ResizeBilinearV2", [((1, 2, 3, 4), F32)], [size], [((1, 2, 6, 2), F16)]), "y must be DT_FLOAT")
    refused(
        graph("ResizeBilinearV2", [((1, 2, 3, 4), F32)], [size.astype(I64)], [((1, 2, 6, 2), F32)]),
        "size must be int32",
    )
    refused(graph("ResizeBilinearV2", [((2, 3, 4), F32)], [size], [((2, 6, 2), F32)]), "4-D NCHW")
    refused(graph("ResizeBilinearV2", [((1, 2, 3, 4), F32)], [size], [((1, 2, 6, 3), F32)]), "infers 1x2x6x2")


def test_conv2d_transpose_verifies_and_refuses() -> None:
    def ct(x, w, y, attrs=' {strides = [1, 1, 2, 2], pads = [1, 0, 0, 1], data_format = "NCHW"}', size=None):
        size = np.zeros((4,), I64) if size is None else size
        text = graph("Conv2DTranspose", [(x, F32), (w, F32)], [size], [(y, F32)], attrs)
        # GE's input order: input_size first
        return text.replace("ge.Conv2DTranspose(%x0, %x1, %c0)", "ge.Conv2DTranspose(%c0, %x0, %x1)").replace(
            f"({ty(x, F32)}, {ty(w, F32)}, {ty((4,), I64)})", f"({ty((4,), I64)}, {ty(x, F32)}, {ty(w, F32)})"
        )

    verify(ct((1, 2, 3, 4), (2, 3, 3, 3), (1, 3, 6, 8)))
    verify(ct((1, 2, 3, 4), (2, 3, 3, 3), (1, 3, 6, 8), size=np.array([1, 3, 6, 8], I64)))
    refused(ct((1, 2, 3, 4), (2, 3, 3, 3), (1, 3, 6, 8), size=np.array([1, 3, 6, 9], I64)), "is not the output shape")
    refused(ct((1, 2, 3, 4), (3, 3, 3, 3), (1, 3, 6, 8)), "does not match input channels")
    refused(ct((1, 2, 3, 4), (2, 3, 3, 3), (1, 3, 6, 9)), "infers 1x3x6x8")
    refused(ct((1, 2, 3, 4), (2, 3, 3, 3), (1, 3, 6, 8), " {strides = [1, 1, 2, 2], pads = [1, 0, 0, 1]}"), "NCHW")
    refused(
        ct((1, 2, 3, 4), (2, 3, 3, 3), (1, 3, 6, 8), ' {pads = [1, 0, 0, 1], data_format = "NCHW"}'),
        "requires attribute 'strides'",
    )


def test_gather_elements_refuses_an_index_out_of_range() -> None:
    m = parse_module(_CTX, graph("GatherElements", [((4, 3), F32), ((1, 3), I64)], [], [((1, 3), F32)]), "t.mlir")
    m.verify()
    with pytest.raises(Exception, match="index -1 is out of range"):
        run_module(m, [np.zeros((4, 3), F32), np.array([[0, -1, 2]], I64)])


# ---------------------------------------------------------------------------------------
# The reference against numpy on generated shapes
# ---------------------------------------------------------------------------------------


def np_pool(x: np.ndarray, k, s, pads, kind: str, ceil: bool, exclusive: bool) -> np.ndarray:
    """Pooling by numpy on an explicitly padded copy (-inf or nan marks padding)."""
    n, c, h, w = x.shape
    pt, pb, pl, pr = pads

    def out(d, kk, ss, p0, p1):
        o = (d + p0 + p1 - kk + (ss - 1 if ceil else 0)) // ss + 1
        return o - 1 if ceil and (o - 1) * ss >= d + p0 else o

    oh, ow = out(h, k[0], s[0], pt, pb), out(w, k[1], s[1], pl, pr)
    # room for windows that run past the end pad (ceil mode)
    eh, ew = max(0, (oh - 1) * s[0] + k[0] - (h + pt + pb)), max(0, (ow - 1) * s[1] + k[1] - (w + pl + pr))
    xp = np.full((n, c, h + pt + pb + eh, w + pl + pr + ew), np.nan)
    xp[:, :, pt : pt + h, pl : pl + w] = x
    inside = np.zeros(xp.shape[2:], bool)  # the padded input
    inside[: h + pt + pb, : w + pl + pr] = True
    real = np.zeros(xp.shape[2:], bool)  # the input itself
    real[pt : pt + h, pl : pl + w] = True
    y = np.empty((n, c, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        rows, cols = slice(i * s[0], i * s[0] + k[0]), slice(j * s[1], j * s[1] + k[1])
        win = xp[:, :, rows, cols]
        if kind == "max":
            y[:, :, i, j] = np.nanmax(win, axis=(2, 3)) if win.size else 0
        else:
            cnt = np.sum(real[rows, cols]) if exclusive else np.sum(inside[rows, cols])
            y[:, :, i, j] = np.nansum(win, axis=(2, 3)) / cnt
    return y


def _pool_cases():
    rng = np.random.default_rng(11)
    out = []
    for t in range(24):
        n, c = int(rng.integers(0, 3)) if t % 8 == 7 else int(rng.integers(1, 3)), int(rng.integers(1, 4))
        h, w = int(rng.integers(3, 10)), int(rng.integers(3, 10))
        k = (int(rng.integers(1, min(h, 4) + 1)), int(rng.integers(1, min(w, 4) + 1)))
        s = (int(rng.integers(1, 4)), int(rng.integers(1, 4)))
        pads = [
            int(rng.integers(0, k[0])),
            int(rng.integers(0, k[0])),
            int(rng.integers(0, k[1])),
            int(rng.integers(0, k[1])),
        ]
        out.append(((n, c, h, w), k, s, pads, bool(t % 2), bool(t % 3), F16 if t % 4 == 3 else F32))
    return out


@pytest.mark.parametrize(("shape", "k", "s", "pads", "ceil", "exclusive", "dt"), _pool_cases())
@pytest.mark.parametrize("op", ["MaxPoolV3", "AvgPoolV2"])
def test_pools_match_numpy(op, shape, k, s, pads, ceil, exclusive, dt) -> None:
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dt)
    want = np_pool(x.astype(np.float64), k, s, pads, "max" if op == "MaxPoolV3" else "avg", ceil, exclusive)
    attrs = (
        f' {{ksize = [1, 1, {k[0]}, {k[1]}], strides = [1, 1, {s[0]}, {s[1]}], padding_mode = "CALCULATED",'
        f" pads = {pads}, ceil_mode = {str(ceil).lower()}, exclusive = {str(exclusive).lower()}}}"
    )
    if op == "MaxPoolV3":
        attrs = attrs.replace(f", exclusive = {str(exclusive).lower()}", "")
    m = parse_module(_CTX, graph(op, [(shape, dt)], [], [(want.shape, dt)], attrs), "t.mlir")
    m.verify()
    (got,) = run_module(m, [x])
    assert got.dtype == np.dtype(dt) and got.shape == want.shape
    np.testing.assert_allclose(
        got.astype(np.float64), want.astype(dt).astype(np.float64), rtol=2e-3 if dt == F16 else 1e-6, atol=1e-6
    )


@pytest.mark.parametrize("seed", range(12))
def test_pad_slice_tile_match_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 4))
    shape = tuple(int(rng.integers(0 if seed == 5 else 1, 6)) for _ in range(rank))
    dt = [F32, F16, I32, I64][seed % 4]
    x = (rng.standard_normal(shape) * 4).astype(dt)
    # PadV3 constant / edge / reflect against np.pad (non-negative pads, reflect below the dim)
    mode = ["constant", "edge", "reflect"][seed % 3] if min(shape, default=1) > 0 else "constant"
    pairs = [
        (int(rng.integers(0, d if mode == "reflect" else 4)), int(rng.integers(0, d if mode == "reflect" else 4)))
        for d in shape
    ]
    pads = np.array([b for b, _ in pairs] + [e for _, e in pairs], I64)
    want = np.pad(x, pairs, mode=mode)
    m = parse_module(
        _CTX,
        graph("PadV3", [(shape, dt)], [pads], [(want.shape, dt)], f' {{mode = "{mode}", paddings_contiguous = false}}'),
        "t.mlir",
    )
    m.verify()
    (got,) = run_module(m, [x])
    np.testing.assert_array_equal(got, want)
    # StridedSliceV2 against Python's slicing of each axis
    begin = [int(rng.integers(-7, 7)) for _ in shape]
    end = [int(rng.integers(-7, 7)) for _ in shape]
    steps = [int(rng.choice([-3, -2, -1, 1, 2, 3])) for _ in shape]
    idx = []
    for b, e, st, d in zip(begin, end, steps, shape):
        # Python's slicing, but a begin before the start is index 0 even walking down (ONNX
        # clamps begin into [0, d - 1] for a negative step; Python would give nothing)
        r = range(d)[slice(b if -d <= b else 0, e if -d <= e else (0 if st > 0 else None), st)]
        idx.append(list(r))
    want = x[np.ix_(*idx)] if idx else x
    consts = [np.array(begin, I64), np.array(end, I64), np.arange(rank, dtype=I64), np.array(steps, I64)]
    m = parse_module(_CTX, graph("StridedSliceV2", [(shape, dt)], consts, [(want.shape, dt)]), "t.mlir")
    m.verify()
    (got,) = run_module(m, [x])
    np.testing.assert_array_equal(got, want)
    # Tile against np.tile
    reps = np.array([int(rng.integers(0, 3)) for _ in shape], I32)
    want = np.tile(x, reps)
    m = parse_module(_CTX, graph("Tile", [(shape, dt)], [reps], [(want.shape, dt)]), "t.mlir")
    m.verify()
    (got,) = run_module(m, [x])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", range(8))
def test_batch_matmul_v2_matches_numpy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    batch_a = tuple(int(rng.choice([1, 2, 3])) for _ in range(int(rng.integers(0, 3))))
    batch_b = tuple(
        d if rng.random() < 0.5 else 1 for d in batch_a[len(batch_a) - int(rng.integers(0, len(batch_a) + 1)) :]
    )
    m_, k, n = (int(v) for v in rng.integers(0 if seed == 3 else 1, 6, 3))
    t1, t2 = bool(seed % 2), bool(seed // 2 % 2)
    dt = F16 if seed % 4 == 3 else F32
    a = rng.standard_normal((*batch_a, *((k, m_) if t1 else (m_, k)))).astype(dt)
    b = rng.standard_normal((*batch_b, *((n, k) if t2 else (k, n)))).astype(dt)
    if a.ndim < 2 or b.ndim < 2:
        return
    want = np.matmul(np.swapaxes(a, -1, -2) if t1 else a, np.swapaxes(b, -1, -2) if t2 else b, dtype=np.float64)
    attrs = f" {{adj_x1 = {str(t1).lower()}, adj_x2 = {str(t2).lower()}}}"
    mod = parse_module(
        _CTX, graph("BatchMatMulV2", [(a.shape, dt), (b.shape, dt)], [], [(want.shape, dt)], attrs), "t.mlir"
    )
    mod.verify()
    (got,) = run_module(mod, [a, b])
    np.testing.assert_allclose(
        got.astype(np.float64), want.astype(dt).astype(np.float64), rtol=3e-3 if dt == F16 else 1e-5, atol=1e-4
    )


def test_batch_norm_matches_numpy_f16_and_size0() -> None:
    rng = np.random.default_rng(2)
    for shape, dt in [((2, 3, 4, 5), F16), ((0, 3, 2, 2), F32)]:
        x = rng.standard_normal(shape).astype(dt)
        p = [rng.standard_normal(3).astype(F32) for _ in range(3)] + [rng.uniform(0.5, 2, 3).astype(F32)]
        outs = [(shape, dt)] + BN_OUTS[1:]
        m = parse_module(_CTX, graph("BatchNorm", [(shape, dt)] + [((3,), F32)] * 4, [], outs, BN_ATTRS), "t.mlir")
        m.verify()
        got = run_module(m, [x, *p])
        c = (1, 3, 1, 1)
        want = p[0].reshape(c) * (x.astype(np.float64) - p[2].reshape(c)) / np.sqrt(
            p[3].reshape(c) + np.float32(1e-5)
        ) + p[1].reshape(c)
        np.testing.assert_allclose(got[0].astype(np.float64), want.astype(dt).astype(np.float64), rtol=2e-3, atol=2e-3)
        np.testing.assert_array_equal(got[1], p[2])
        np.testing.assert_array_equal(got[2], p[3])


# ---------------------------------------------------------------------------------------
# Error bounds: the compiled result of perturbed inputs stays within them
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "op",
    [
        "MaxPoolV3",
        "AvgPoolV2",
        "BatchNorm",
        "PadV3",
        "StridedSliceV2",
        "Tile",
        "BatchMatMulV2",
        "GatherElements",
        "Triu",
        "ResizeBilinearV2",
        "ResizeNearestNeighborV2",
    ],
)
def test_bounds_hold_on_perturbed_inputs(op: str) -> None:
    """x carries a bound e = 1e-3 |x|: the op on x perturbed by up to e, in either
    direction element by element, stays within the op's output bound of the reference."""
    rng = np.random.default_rng(4)
    shape = (1, 3, 5, 6)
    consts: list[np.ndarray] = []
    extra: list[np.ndarray] = []
    if op == "BatchNorm":
        ins, outs, attrs = [(shape, F32)] + [((3,), F32)] * 4, [(shape, F32)] + BN_OUTS[1:], BN_ATTRS
        extra = [rng.standard_normal(3).astype(F32) for _ in range(3)] + [rng.uniform(0.5, 2, 3).astype(F32)]
    elif op == "PadV3":
        ins, outs, attrs = [(shape, F32)], [((1, 3, 8, 9), F32)], ' {mode = "reflect", paddings_contiguous = false}'
        consts = [np.array([0, 0, 1, 2, 0, 0, 2, 1], I64)]
    elif op == "StridedSliceV2":
        ins, outs, attrs = [(shape, F32)], [((1, 3, 2, 6), F32)], ""
        consts = [np.array([-1], I64), np.array([0], I64), np.array([2], I64), np.array([-2], I64)]
    elif op == "Tile":
        ins, outs, attrs = [(shape, F32)], [((2, 3, 5, 12), F32)], ""
        consts = [np.array([2, 1, 1, 2], I64)]
    elif op == "GatherElements":
        ins, outs, attrs = [(shape, F32), ((1, 3, 2, 6), I64)], [((1, 3, 2, 6), F32)], " {dim = 2}"
        extra = [rng.integers(0, 5, (1, 3, 2, 6)).astype(I64)]
    elif op.startswith("Resize"):
        ins, outs, attrs = [(shape, F32)], [((1, 3, 9, 4), F32)], " {half_pixel_centers = true}"
        consts = [np.array([9, 4], I32)]
    elif op == "Triu":
        ins, outs, attrs = [(shape, F32)], [(shape, F32)], " {diagonal = 1}"
    elif op == "BatchMatMulV2":
        ins, outs, attrs = [(shape, F32), ((3, 6, 2), F32)], [((1, 3, 5, 2), F32)], ""
        extra = [rng.standard_normal((3, 6, 2)).astype(F32)]
    else:
        ins, outs = [(shape, F32)], [((1, 3, 3, 3), F32)]
        attrs = POOL_V3 if op == "MaxPoolV3" else POOL_V3.replace("}", ", exclusive = false}")
    m = parse_module(_CTX, graph(op, ins, consts, outs, attrs), "t.mlir")
    m.verify()
    (g,) = [o for o in m.ops if isinstance(o, ge.GraphOp)]
    (node,) = [o for o in g.body.block.ops if isinstance(o, getattr(ge, op))]
    x = rng.standard_normal(shape).astype(F32)
    args = [x, *extra, *consts]
    ip = ge_interpreter()
    ref = list(ip.run_node(node, args))
    scale = np.abs(x.astype(np.float64)) * 1e-3
    perturbed = [
        (x + (rng.uniform(-1.0, 1.0, shape) * scale if t else scale * np.sign(rng.standard_normal(shape)))).astype(F32)
        for t in range(4)
    ]
    # the bound of x: how far the (float32) perturbed inputs really are
    e = np.max([np.abs(p.astype(np.float64) - x) for p in perturbed], axis=0)
    bounds = [e] + [np.zeros(a.shape) for a in args[1:]]
    rule = EB.bound_rule_of(type(node))
    assert rule is not None
    bound = rule(ip, node, args, bounds, ref)[0]
    assert np.all(np.isfinite(bound)) and np.any(bound > 0)
    for p in perturbed:
        got = ip.run_node(node, [p, *args[1:]])[0]
        assert np.all(np.abs(got.astype(np.float64) - ref[0].astype(np.float64)) <= bound), op


def test_pools_run_on_a_dynamic_dim() -> None:
    """A pool whose x has a `?` dim runs on the array's shape (the type gives no window)."""
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<1x2x?x5xf32>
  %y = ge.AvgPoolV2(%x) {ksize = [1, 1, 3, 3], strides = [1, 1, 2, 2], pads = [1, 1, 1, 1]} : (tensor<1x2x?x5xf32>) -> tensor<1x2x?x3xf32>
  ge.NetOutput %y : tensor<1x2x?x3xf32>
}"""
    m = parse_module(_CTX, text, "t.mlir")
    m.verify()
    x = np.random.default_rng(0).standard_normal((1, 2, 7, 5)).astype(F32)
    (got,) = run_module(m, [x])
    want = np_pool(x.astype(np.float64), (3, 3), (2, 2), [1, 1, 1, 1], "avg", False, True)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_conv2d_transpose_and_arg_bounds() -> None:
    """Conv2DTranspose's bound holds on x perturbed within it; ArgMaxV2's is 0 on exact
    inputs (its per-element rule on perturbed ones: tests/runtime/test_error_bound_rules.py)."""
    rng = np.random.default_rng(6)
    attrs = ' {strides = [1, 1, 2, 2], pads = [1, 0, 0, 1], groups = 2, data_format = "NCHW"}'
    text = graph(
        "Conv2DTranspose",
        [((1, 4, 3, 4), F32), ((4, 2, 3, 2), F32)],
        [np.zeros((4,), I64)],
        [((1, 4, 6, 7), F32)],
        attrs,
    )
    text = text.replace("ge.Conv2DTranspose(%x0, %x1, %c0)", "ge.Conv2DTranspose(%c0, %x0, %x1)").replace(
        f"({ty((1, 4, 3, 4), F32)}, {ty((4, 2, 3, 2), F32)}, {ty((4,), I64)})",
        f"({ty((4,), I64)}, {ty((1, 4, 3, 4), F32)}, {ty((4, 2, 3, 2), F32)})",
    )
    m = parse_module(_CTX, text, "t.mlir")
    m.verify()
    (g,) = [o for o in m.ops if isinstance(o, ge.GraphOp)]
    (node,) = [o for o in g.body.block.ops if isinstance(o, ge.Conv2DTranspose)]
    x, w = rng.standard_normal((1, 4, 3, 4)).astype(F32), rng.standard_normal((4, 2, 3, 2)).astype(F32)
    args = [np.zeros((4,), I64), x, w]
    ip = ge_interpreter()
    ref = ip.run_node(node, args)[0]
    perturbed = [(x + rng.uniform(-1, 1, x.shape) * np.abs(x) * 1e-3).astype(F32) for _ in range(3)]
    e = np.max([np.abs(p.astype(np.float64) - x) for p in perturbed], axis=0)
    rule = EB.bound_rule_of(ge.Conv2DTranspose)
    assert rule is not None
    bound = rule(ip, node, args, [np.zeros(4), e, np.zeros(w.shape)], [ref])[0]
    assert np.all(np.isfinite(bound)) and np.any(bound > 0)
    for p in perturbed:
        got = ip.run_node(node, [args[0], p, w])[0]
        assert np.all(np.abs(got.astype(np.float64) - ref.astype(np.float64)) <= bound)
    arg = EB.bound_rule_of(ge.ArgMaxV2)
    assert arg is not None
    out = [np.zeros((3,), I64)]
    assert np.all(arg(ip, node, [x, np.array(1)], [np.zeros(x.shape), np.zeros(())], out)[0] == 0)


def _conv(attrs: str, x: str = "1x2x5x5", bias: int = 3) -> str:
    return f"""ge.graph @main {{
  %x = ge.Data {{index = 0}} : tensor<{x}xf32>
  %w = ge.Data {{index = 1}} : tensor<3x2x3x3xf32>
  %b = ge.Data {{index = 2}} : tensor<{bias}xf32>
  %y = ge.Conv2D(%x, %w, %b) {{{attrs}}} : (tensor<{x}xf32>, tensor<3x2x3x3xf32>, tensor<{bias}xf32>) -> tensor<1x3x3x3xf32>
  ge.NetOutput %y : tensor<1x3x3x3xf32>
}}"""


def _conv_t(attrs: str, x: str = "1x2x3x4", bias: int = 3) -> str:
    return f"""ge.graph @main {{
  %s = ge.Const {{value = dense<0> : tensor<4xi64>}} : tensor<4xi64>
  %x = ge.Data {{index = 0}} : tensor<{x}xf32>
  %w = ge.Data {{index = 1}} : tensor<2x3x3x3xf32>
  %b = ge.Data {{index = 2}} : tensor<{bias}xf32>
  %y = ge.Conv2DTranspose(%s, %x, %w, %b) {{strides = [1, 1, 2, 2], {attrs}}} : (tensor<4xi64>, tensor<{x}xf32>, tensor<2x3x3x3xf32>, tensor<{bias}xf32>) -> tensor<1x3x6x8xf32>
  ge.NetOutput %y : tensor<1x3x6x8xf32>
}}"""


@pytest.mark.parametrize(
    ("make", "op"), [(_conv, "Conv2D"), (_conv_t, "Conv2DTranspose")], ids=["Conv2D", "Conv2DTranspose"]
)
def test_convolutions_refuse_alike(make, op) -> None:
    """Conv2D and Conv2DTranspose share one checker (ge.py: check_nchw, conv_window,
    conv_bias_channels, conv_output_hw): the same fault, the same message, whichever op
    (Conv2DTranspose's bias message read "expected [3]" where Conv2D's and MatMul's read
    "expected 3")."""
    ok = 'pads = [1, 0, 0, 1], data_format = "NCHW"' if op == "Conv2DTranspose" else 'data_format = "NCHW"'
    verify(make(ok))
    refused(make(ok.replace('"NCHW"', '"NHWC"')), f"{op} supports data_format NCHW, got NHWC")
    refused(make(ok, x="2x5x5"), f"{op} takes 4-D x and filter, got 2x5x5 and ")
    refused(make(ok, bias=4), r"bias has shape 4, expected 3\n")
    refused(
        make(ok + ", groups = 0"), r"strides and dilations must be > 0, pads( and output_padding)? >= 0, groups > 0"
    )
    refused(make(ok + ", dilations = [1, 1, 1]"), r"'dilations' must have 4 entries, got \[1, 1, 1\]")
    big = "pads = [0, 0, 0, 0], dilations = [1, 1, 9, 1]" if op == "Conv2D" else "pads = [9, 9, 0, 1]"
    refused(make(big + ', data_format = "NCHW"'), rf"{op} output would be empty \(-?\d+x-?\d+\)")
