"""ge-lower-autofuse keeps the numbers: the reference result of the lowered graph equals the
reference result of the original, for every example and for random graphs mixing
pointwise, broadcast, reduce, concat, split, transpose and reshape (fixed seeds).

Exact for graphs without reductions (same numpy ops in the same dtype); within 1e-5
relative where a reduction may sum in another order.
"""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.parser import Parser
from xdsl.printer import Printer

from bench.gen_graphs import generate
from ge_dialect import ge
from ge_dialect.dtypes import numpy_dtype
from ge_tools.registry import make_context
from lowering.lower_autofuse import LowerAutofusePass
from runtime.reference import root_graphs, run_module

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mlir"))
ALL = ("reduce", "concat", "split", "transpose")


def _context() -> Context:
    return make_context()


def parse(text: str) -> ModuleOp:
    m = Parser(_context(), text, "<test>").parse_module()
    m.verify()
    return m


def print_module(m: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(m)
    return out.getvalue()


def inputs_for(m: ModuleOp, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    g = root_graphs(m)[0]
    arrays = []
    for d in sorted(g.data_nodes, key=lambda d: d.int_attr("index")):
        t = d.results[0].type
        assert isinstance(t, TensorType)
        dt = numpy_dtype(t.element_type)
        shape = tuple(t.get_shape())
        if dt.kind == "f":
            arrays.append(rng.uniform(-2.0, 2.0, size=shape).astype(dt))
        else:
            arrays.append(rng.integers(-5, 6, size=shape).astype(dt))
    return arrays


def check_lowering(text: str, seed: int, p: LowerAutofusePass) -> tuple[int, bool]:
    """Lower, verify, compare; returns (number of AscBackends, whether the graph reduces)."""
    before = parse(text)
    ins = inputs_for(before, seed)
    want = run_module(before, ins)
    after = parse(text)
    p.apply(_context(), after)
    after.verify()
    # The printed form parses back (what ge-opt users see is valid input).
    after = parse(print_module(after))
    got = run_module(after, ins)
    backends = [op for op in after.walk() if isinstance(op, ge.AscBackend)]
    # A reduction (lowered or not) may sum in another order once its input's layout
    # changes (numpy's pairwise summation follows memory order).
    reduces = any(isinstance(op, ge.ReduceD) for op in before.walk())
    assert len(got) == len(want)
    for w, g in zip(want, got):
        assert w.shape == g.shape and w.dtype == g.dtype
        if reduces:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, w)
    for b in backends:
        from ge_dialect.asc_backend import asc_graph_of
        from ge_dialect.ascgraph import node_count

        assert b.attributes["fusion_nodes_size"].value.data == node_count(asc_graph_of(b))  # type: ignore[attr-defined]
    return len(backends), reduces


# ---------------------------------------------------------------------------------------
# A small random-graph generator
# ---------------------------------------------------------------------------------------

UNARY = ("Abs", "Neg", "Relu", "Exp", "Sigmoid", "Tanh", "Square")
BINARY = ("Add", "Sub", "Mul", "Maximum", "Minimum", "RealDiv")
REDUCE = ("ReduceSumD", "ReduceMaxD", "ReduceMinD", "ReduceMeanD")


def _ty(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def _bshape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    return ge.broadcast_shapes(a, b)


def random_graph(seed: int) -> str:
    rng = random.Random(seed)
    A, B, C = rng.choice((2, 3, 4)), rng.choice((3, 4, 8)), rng.choice((4, 8, 16))
    full = (A, B, C)
    in_shapes = [full, rng.choice([(B, C), (A, 1, C), (1, B, 1), (C,), (A, B, 1), full])]
    if rng.random() < 0.5:
        in_shapes.append(rng.choice([full, (B, C), (1, 1, C)]))
    lines: list[str] = []
    pool: list[tuple[str, tuple[int, ...]]] = []
    for i, s in enumerate(in_shapes):
        lines.append(f"  %in{i} = ge.Data {{index = {i}}} : {_ty(s)}")
        pool.append((f"%in{i}", s))
    used: set[str] = set()
    n = 0

    def emit(op: str, ins: list[tuple[str, tuple[int, ...]]], outs: list[tuple[int, ...]], attrs: str = "") -> list[tuple[str, tuple[int, ...]]]:
        nonlocal n
        names = [f"%v{n}_{k}" if len(outs) > 1 else f"%v{n}" for k in range(len(outs))]
        n += 1
        a = f" {{{attrs}}}" if attrs else ""
        in_t = ", ".join(_ty(s) for _, s in ins)
        out_t = _ty(outs[0]) if len(outs) == 1 else "(" + ", ".join(_ty(s) for s in outs) + ")"
        lines.append(f"  {', '.join(names)} = ge.{op}({', '.join(v for v, _ in ins)}){a} : ({in_t}) -> {out_t}")
        for v, _ in ins:
            used.add(v)
        res = list(zip(names, outs))
        pool.extend(res)
        return res

    for _ in range(rng.randint(5, 16)):
        # Prefer recent values: chains fuse, older ones make multi-reader boundaries.
        v = pool[-1] if rng.random() < 0.6 else rng.choice(pool)
        kind = rng.choices(
            ("unary", "binary", "bcast", "reduce", "concat", "split", "transpose", "reshape"),
            (6, 6, 1, 2, 2, 1, 1, 2),
        )[0]
        s = v[1]
        if kind == "unary":
            emit(rng.choice(UNARY), [v], [s])
        elif kind == "binary":
            w = rng.choice(pool)
            b = _bshape(s, w[1])
            if b is None:
                emit(rng.choice(UNARY), [v], [s])
            else:
                ins = [v, w] if rng.random() < 0.5 else [w, v]
                emit(rng.choice(BINARY), ins, [b])
        elif kind == "bcast":
            b = _bshape(s, full)
            if b is not None and b != s:
                emit("BroadcastToD", [v], [b], f"shape = [{', '.join(map(str, b))}]")
        elif kind == "reduce" and s:
            axes = sorted(rng.sample(range(len(s)), rng.randint(1, len(s))))
            keep = rng.random() < 0.6
            out = tuple(1 if i in axes else d for i, d in enumerate(s) if keep or i not in axes)
            if out:
                emit(rng.choice(REDUCE), [v], [out], f"axes = [{', '.join(map(str, axes))}], keep_dims = {'true' if keep else 'false'}")
        elif kind == "concat" and s:
            same = [w for w in pool if len(w[1]) == len(s)]
            d = rng.randrange(len(s))
            parts = [v] + [w for w in same if w is not v and all(x == y for k, (x, y) in enumerate(zip(w[1], s)) if k != d)][:2]
            if len(parts) == 1:
                parts.append(v)
            out = tuple(sum(p[1][d] for p in parts) if k == d else x for k, x in enumerate(s))
            emit(rng.choice(("ConcatD", "ConcatV2D")), parts, [out], f"concat_dim = {d}")
        elif kind == "split" and s:
            even = [k for k, x in enumerate(s) if x % 2 == 0]
            if even:
                d = rng.choice(even)
                half = tuple(x // 2 if k == d else x for k, x in enumerate(s))
                emit("SplitD", [v], [half, half], f"split_dim = {d}, num_split = 2")
        elif kind == "transpose" and len(s) in (2, 3):
            perm = list(range(len(s)))
            while perm == sorted(perm):
                rng.shuffle(perm)
            emit("TransposeD", [v], [tuple(s[p] for p in perm)], f"perm = [{', '.join(map(str, perm))}]")
        elif kind == "reshape" and s:
            choice = rng.random()
            if choice < 0.4 and len(s) >= 2:
                emit("Reshape", [v], [s[:-2] + (s[-2] * s[-1],)])
            elif choice < 0.7:
                emit("ExpandDims", [v], [(1,) + s], "axis = 0")
            elif 1 in s:
                emit("Squeeze", [v], [tuple(x for x in s if x != 1)])
            else:
                emit("Reshape", [v], [(int(np.prod(s)),)])
    outs = [p for p in pool[len(in_shapes):] if p[0] not in used] or [pool[-1]]
    if rng.random() < 0.3 and len(pool) > len(in_shapes) + 1:
        extra = rng.choice(pool[len(in_shapes):])
        if extra not in outs:
            outs.append(extra)
    lines.append(f"  ge.NetOutput {', '.join(v for v, _ in outs)} : {', '.join(_ty(s) for _, s in outs)}")
    return "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


def _dense(vals: np.ndarray) -> str:
    return "dense<" + str(vals.tolist()).replace(" ", "") .replace(",", ", ") + ">"


def random_gather_graph(seed: int) -> str:
    """A graph around one or two ge.Gather/GatherV2 nodes: a pointwise producer of the
    params, Const indices (in range; negative ones with negative_index_support), a last-axis
    or axis-0 gather (GatherV2 on a non-last axis stays a GE op on A2/A3), and consumers of
    every kind the gather strategy rules on: pointwise, broadcasting pointwise, a second
    axis count, reduce, concat, another gather reading it as indices."""
    rng = random.Random(10_000 + seed)
    A, B = rng.choice((2, 3, 4)), rng.choice((4, 8, 16))
    lines = [f"  %x = ge.Data {{index = 0}} : {_ty((A, B))}", f"  %y = ge.Data {{index = 1}} : {_ty((A, B))}"]
    src = rng.choice(("%x", "pre"))
    if src == "pre":
        op = rng.choice(("Abs", "Exp", "Add"))
        args = "%x, %y" if op == "Add" else "%x"
        tys = f"{_ty((A, B))}, {_ty((A, B))}" if op == "Add" else _ty((A, B))
        lines.append(f"  %p = ge.{op}({args}) : ({tys}) -> {_ty((A, B))}")
        src = "%p"
    kind = rng.choice(("v2_last", "v2_last", "v2_axis0", "gather0", "v2_neg"))
    ishape = rng.choice(((3,), (B,), (2, 2), (1,)))
    axis = 0 if kind in ("v2_axis0", "gather0") else 1
    dim = (A, B)[axis]
    nrng = np.random.default_rng(seed)
    lo = -dim if kind == "v2_neg" else 0
    idx = nrng.integers(lo, dim, size=ishape)
    it = "tensor<" + "x".join(map(str, ishape)) + "xi32>"
    lines.append(f"  %i = ge.Const {{value = {_dense(idx)} : {it}}} : {it}")
    out = (A,) + ishape if axis == 1 else ishape + (B,)
    if kind == "gather0":
        lines.append(f"  %g = ge.Gather({src}, %i) : ({_ty((A, B))}, {it}) -> {_ty(out)}")
    else:
        ax = -1 if kind == "v2_neg" else axis
        attrs = " {negative_index_support = true}" if kind == "v2_neg" else ""
        lines.append(f"  %ax = ge.Const {{value = dense<{ax}> : tensor<i32>}} : tensor<i32>")
        lines.append(f"  %g = ge.GatherV2({src}, %i, %ax){attrs} : ({_ty((A, B))}, {it}, tensor<i32>) -> {_ty(out)}")
    outs = []
    for k in range(rng.randint(1, 3)):
        use = rng.choice(("abs", "exp_add", "bcast_add", "rank_up", "reduce", "concat", "regather"))
        name = f"%c{k}"
        if use == "abs":
            lines.append(f"  {name} = ge.Abs(%g) : ({_ty(out)}) -> {_ty(out)}")
            outs.append((name, out))
        elif use == "exp_add":
            lines.append(f"  %e{k} = ge.Exp(%g) : ({_ty(out)}) -> {_ty(out)}")
            lines.append(f"  {name} = ge.Add(%e{k}, %g) : ({_ty(out)}, {_ty(out)}) -> {_ty(out)}")
            outs.append((name, out))
        elif use == "bcast_add":
            w = (1,) * (len(out) - 1) + (out[-1],) if rng.random() < 0.5 else out[:-1] + (1,)
            lines.append(f"  %w{k} = ge.Data {{index = {2 + k}}} : {_ty(w)}")
            lines.append(f"  {name} = ge.Mul(%g, %w{k}) : ({_ty(out)}, {_ty(w)}) -> {_ty(out)}")
            outs.append((name, out))
        elif use == "rank_up":
            up = (2,) + out
            lines.append(f"  %b{k} = ge.BroadcastToD(%g) {{shape = [{', '.join(map(str, up))}]}} : ({_ty(out)}) -> {_ty(up)}")
            lines.append(f"  {name} = ge.Neg(%b{k}) : ({_ty(up)}) -> {_ty(up)}")
            outs.append((name, up))
        elif use == "reduce":
            r = out[:-1] + (1,)
            lines.append(f"  {name} = ge.ReduceSumD(%g) {{axes = [{len(out) - 1}], keep_dims = true}} : ({_ty(out)}) -> {_ty(r)}")
            outs.append((name, r))
        elif use == "concat":
            c = out[:-1] + (2 * out[-1],)
            lines.append(f"  {name} = ge.ConcatD(%g, %g) {{concat_dim = {len(out) - 1}}} : ({_ty(out)}, {_ty(out)}) -> {_ty(c)}")
            outs.append((name, c))
        else:
            # the gather's output, made integer and in range, indexes a second gather (axis 0)
            lines.append(f"  %q{k} = ge.Abs(%g) : ({_ty(out)}) -> {_ty(out)}")
            lines.append(f"  %n{k} = ge.Cast(%q{k}) : ({_ty(out)}) -> {_ty(out).replace('f32', 'i32')}")
            lines.append(f"  %t{k} = ge.Data {{index = {2 + k}}} : tensor<64x3xf32>")
            # |values| of x, y are < 2 (inputs_for draws from [-2, 2]); exp of that < 64
            o2 = out + (3,)
            lines.append(f"  {name} = ge.Gather(%t{k}, %n{k}) : (tensor<64x3xf32>, {_ty(out).replace('f32', 'i32')}) -> {_ty(o2)}")
            outs.append((name, o2))
    lines.append(f"  ge.NetOutput {', '.join(n for n, _ in outs)} : {', '.join(_ty(s) for _, s in outs)}")
    # Data indices must be dense: renumber the extra Data nodes in order of appearance
    k = 2
    fixed = []
    for ln in lines:
        if "= ge.Data {index = " in ln and not ln.startswith("  %x") and not ln.startswith("  %y"):
            ln = ln.split("{index = ")[0] + f"{{index = {k}}}" + ln.split("}", 1)[1]
            k += 1
        fixed.append(ln)
    return "ge.graph @main {\n" + "\n".join(fixed) + "\n}\n"


GATHER_ALL = (*ALL, "gather")


def _pass_for(seed: int) -> LowerAutofusePass:
    # Alternate GE's defaults, everything on, and tight limits that make many boundaries.
    variant = seed % 4
    if variant == 0:
        return LowerAutofusePass()
    if variant == 1:
        return LowerAutofusePass(enable_pass=ALL)
    if variant == 2:
        return LowerAutofusePass(enable_pass=ALL, max_loop_ops=2, max_loop_loads=2)
    return LowerAutofusePass(enable_pass=ALL, cse=False, recomputation_threshold=3)


@pytest.mark.parametrize("seed", range(240))
def test_random_graph(seed: int):
    text = random_graph(seed)
    check_lowering(text, seed, _pass_for(seed))


@pytest.mark.parametrize("seed", range(6))
def test_bench_generator_graphs(seed: int):
    """The bench's mixed graphs (matmul, conv, split, reshape, concat; externs among them)."""
    check_lowering(generate("mixed", 120, seed), seed, _pass_for(seed))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("flags", [(), ALL], ids=["default", "all"])
def test_examples(path: Path, flags: tuple[str, ...]):
    check_lowering(path.read_text(), 0, LowerAutofusePass(enable_pass=flags))


@pytest.mark.parametrize("seed", range(80))
def test_random_gather_graph(seed: int):
    """Graphs around Gather/GatherV2, lowered with gather on (and off every fourth seed)."""
    flags = GATHER_ALL if seed % 4 else ALL
    check_lowering(random_gather_graph(seed), seed, LowerAutofusePass(enable_pass=flags, cse=seed % 3 != 0))


def test_random_gather_graphs_lower_gathers():
    """The gather generator is not vacuous: gather kernels appear, and GE ops stay where
    LowerGather refuses (GatherV2 on a non-last axis)."""
    lowered = kept = 0
    for seed in range(40):
        m = parse(random_gather_graph(seed))
        LowerAutofusePass(enable_pass=GATHER_ALL).apply(_context(), m)
        lowered += sum(isinstance(op, ge.AscBackend) and op.attributes["fuse_type"].data == "gather" for op in m.walk())  # type: ignore[attr-defined]
        kept += sum(isinstance(op, ge.GatherBase) for op in m.walk())
    assert lowered >= 20 and kept >= 3


def test_random_graphs_lower_something():
    """The generator is not vacuous: across the seeds, AscBackends of every fuse type and
    with reductions appear."""
    kinds: set[str] = set()
    for seed in range(1, 240, 4):
        m = parse(random_graph(seed))
        LowerAutofusePass(enable_pass=ALL).apply(_context(), m)
        for op in m.walk():
            if isinstance(op, ge.AscBackend):
                kinds.add(op.attributes["fuse_type"].data)  # type: ignore[attr-defined]
    assert {"pointwise", "reduce", "concat", "transpose", "slice"} <= kinds
