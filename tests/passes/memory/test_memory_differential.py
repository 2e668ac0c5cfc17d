"""Generated graphs for the memory plan, end to end through ge-run (issue 17, cases 1 and 2):
every graph is compiled with ge-compile, executed on the device simulator on 1 and 2
streams and several executions, and compared with the reference interpreter.

* Multi-output producers (PhonySplit, SplitD, SplitVD) whose outputs are read 2 or 3 at a
  time, in any order, by one consumer (Add, Sub, Mul, AddN, ConcatD, PhonyConcat), one
  output read twice by one op, and NetOutput listing several of them.
* Padded storage formats: NC1HWC0 (origin NCHW or NHWC), FRACTAL_NZ, with C0 by dtype
  (f16 and f32: 16, int8: 32) and C values around C0, through kernels, no-task ConcatD
  (on N, and on C when C is a multiple of C0), PhonySplit and graph inputs and outputs.

The generators are seeded; the seeds are fixed, so a failure names its graph."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ge_tools.run import run as ge_run

# -- multi-output producers ---------------------------------------------------------------


def multi_output_graph(seed: int) -> str:
    """One producer of 2 to 4 outputs of equal or (SplitVD) different sizes, consumers of
    several of them in a random order, NetOutput listing several directly."""
    rng = random.Random(seed)
    dt = rng.choice(["f32", "f16"])
    n = rng.randint(2, 4)
    kind = rng.choice(["PhonySplit", "SplitD", "SplitVD"])
    w = rng.choice([8, 16, 32])
    rows = rng.randint(1, 3)
    if kind == "SplitVD":
        sizes = [rng.randint(1, 3) for _ in range(n)]
    else:
        sizes = [rows] * n
    # PhonySplit splits dim 0 of a [sum, w] tensor (its pieces are contiguous); SplitD and
    # SplitVD split dim 0 or dim 1
    dim = 0 if kind == "PhonySplit" else rng.choice([0, 1])
    total = sum(sizes)
    in_shape = (total, w) if dim == 0 else (w, total)
    shapes = [(s, w) if dim == 0 else (w, s) for s in sizes]

    def ty(shape: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{dt}>"

    lines = [f"  %x = ge.Data {{index = 0}} : {ty(in_shape)}"]
    lines.append(f"  %r = ge.{rng.choice(['Relu', 'Abs', 'Neg'])}(%x) : ({ty(in_shape)}) -> {ty(in_shape)}")
    outs = [f"%p{k}" for k in range(n)]
    res = ", ".join(ty(s) for s in shapes)
    if kind == "PhonySplit":
        attrs = f"split_dim = [0], num_split = [{n}]"
    elif kind == "SplitD":
        attrs = f"split_dim = {dim}, num_split = {n}"
    else:
        attrs = f"size_splits = [{', '.join(map(str, sizes))}], split_dim = {dim}, num_split = {n}"
    lines.append(f"  {', '.join(outs)} = ge.{kind}(%r) {{{attrs}}} : ({ty(in_shape)}) -> ({res})")
    results: list[tuple[str, str]] = []  # (value, type) NetOutput may list
    same = [k for k in range(n) if shapes[k] == shapes[0]]
    for c in range(rng.randint(1, 3)):
        pick = rng.sample(range(n), k=min(n, rng.choice([2, 3])))
        eq = [k for k in pick if shapes[k] == shapes[pick[0]]]
        op = rng.choice(["Add", "Sub", "Mul", "AddN", "ConcatD", "PhonyConcat", "Twice"])
        v = f"%c{c}"
        if op == "Twice" or len(eq) < 2:
            k = pick[0]
            lines.append(
                f"  {v} = ge.Add({outs[k]}, {outs[k]}) : ({ty(shapes[k])}, {ty(shapes[k])}) -> {ty(shapes[k])}"
            )
            results.append((v, ty(shapes[k])))
        elif op in ("Add", "Sub", "Mul"):
            a, b = eq[:2]
            lines.append(
                f"  {v} = ge.{op}({outs[a]}, {outs[b]}) : ({ty(shapes[a])}, {ty(shapes[b])}) -> {ty(shapes[a])}"
            )
            results.append((v, ty(shapes[a])))
        elif op == "AddN":
            ins = ", ".join(outs[k] for k in eq)
            lines.append(
                f"  {v} = ge.AddN({ins}) {{N = {len(eq)}}} : ({', '.join(ty(shapes[k]) for k in eq)}) -> {ty(shapes[eq[0]])}"
            )
            results.append((v, ty(shapes[eq[0]])))
        elif op == "ConcatD":
            cd = rng.choice([0, 1])
            cat = list(shapes[pick[0]])
            ok = [k for k in pick if all(shapes[k][d] == cat[d] for d in range(2) if d != cd)]
            if len(ok) < 2:
                ok = eq
                cd = 0 if dim == 0 else 1
            cat[cd] = sum(shapes[k][cd] for k in ok)
            ins = ", ".join(outs[k] for k in ok)
            lines.append(
                f"  {v} = ge.ConcatD({ins}) {{concat_dim = {cd}, N = {len(ok)}}} : ({', '.join(ty(shapes[k]) for k in ok)}) -> {ty(tuple(cat))}"
            )
            results.append((v, ty(tuple(cat))))
        else:  # PhonyConcat of equal pieces on dim 0 (contiguous: a [rows, w] piece)
            pieces = [k for k in pick if k in same and shapes[k] == shapes[0]]
            if len(pieces) < 2 or dim != 0:
                k = pick[0]
                lines.append(
                    f"  {v} = ge.Mul({outs[k]}, {outs[k]}) : ({ty(shapes[k])}, {ty(shapes[k])}) -> {ty(shapes[k])}"
                )
                results.append((v, ty(shapes[k])))
            else:
                s0 = shapes[pieces[0]]
                block = (s0[0] * len(pieces), s0[1])
                ins = ", ".join(outs[k] for k in pieces)
                lines.append(
                    f"  {v} = ge.PhonyConcat({ins}) {{concat_dim = [0], N = [{len(pieces)}]}} : ({', '.join(ty(s0) for _ in pieces)}) -> {ty(block)}"
                )
                e = f"%e{c}"
                lines.append(f"  {e} = ge.Exp({v}) : ({ty(block)}) -> {ty(block)}")
                results.append((e, ty(block)))
    # NetOutput: the consumers' results and several producer outputs, in a random order
    direct = rng.sample(range(n), k=rng.randint(0, n))
    listed = results + [(outs[k], ty(shapes[k])) for k in direct]
    rng.shuffle(listed)
    lines.append(f"  ge.NetOutput {', '.join(v for v, _ in listed)} : {', '.join(t for _, t in listed)}")
    return "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


# -- padded storage formats ------------------------------------------------------------------

# (dtype, C0): transfer_shape_utils.cc GetC0ByDtype (16 for f16 and f32, 32 for int8)
PADDED_DTYPES = (("f16", 16), ("f32", 16), ("i8", 32))


def padded_graph(seed: int) -> str:
    """Tensors in NC1HWC0 (origin NCHW or NHWC) or FRACTAL_NZ through kernels, no-task
    ConcatD on N (or on C when C % C0 == 0, or on the batch of an NZ tensor), a PhonySplit
    on N, graph inputs and outputs, with C values around C0."""
    rng = random.Random(seed)
    dt, c0 = rng.choice(PADDED_DTYPES)
    fmt = rng.choice(["NCHW", "NHWC", "NZ"])
    k = rng.choice([2, 3])
    if fmt == "NZ":
        m, nn = rng.choice([1, 3, 16, 17]), rng.choice([c0 // 2, c0, c0 + 1, 2 * c0])
        piece = (1, m, nn)
        desc = "#ge.desc<FRACTAL_NZ, origin = ND>"
        axis = 0
    else:
        c = rng.choice([1, 5, c0 - 1, c0, c0 + 1, 2 * c0])
        h, w = rng.choice([1, 2, 3]), rng.choice([1, 2])
        piece = (1, c, h, w) if fmt == "NCHW" else (1, h, w, c)
        desc = f"#ge.desc<NC1HWC0, origin = {fmt}>"
        c_axis = 1 if fmt == "NCHW" else 3
        axis = c_axis if c % c0 == 0 and rng.random() < 0.5 else 0

    def ty(shape: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{dt}, {desc}>"

    cat = list(piece)
    cat[axis] *= k
    cat_t = ty(tuple(cat))
    lines = []
    for i in range(k):
        lines.append(f"  %x{i} = ge.Data {{index = {i}}} : {ty(piece)}")
    # a weight in the padded layout (the simulator loads it in its storage layout)
    lines.append(
        f"  %w = ge.Const {{value = dense<{_nested(piece, rng, dt)}> : tensor<{'x'.join(map(str, piece))}x{dt}>}} : {ty(piece)}"
    )
    for i in range(k):
        op = rng.choice(["Relu", "Abs", "Add", "Mul"])
        if op == "Mul":
            lines.append(f"  %a{i} = ge.Mul(%x{i}, %w) : ({ty(piece)}, {ty(piece)}) -> {ty(piece)}")
        elif op == "Add":
            lines.append(f"  %a{i} = ge.Add(%x{i}, %x{(i + 1) % k}) : ({ty(piece)}, {ty(piece)}) -> {ty(piece)}")
        else:
            lines.append(f"  %a{i} = ge.{op}(%x{i}) : ({ty(piece)}) -> {ty(piece)}")
    ins = ", ".join(f"%a{i}" for i in range(k))
    lines.append(
        f"  %c = ge.ConcatD({ins}) {{concat_dim = {axis}, N = {k}}} : ({', '.join(ty(piece) for _ in range(k))}) -> {cat_t}"
    )
    lines.append(f"  %z = ge.Relu(%c) : ({cat_t}) -> {cat_t}")
    listed = [("%z", cat_t), ("%a0", ty(piece))]
    if axis == 0:
        # the pieces of a PhonySplit on N of a padded tensor lie a piece's storage size apart
        outs = ", ".join(f"%s{i}" for i in range(k))
        lines.append(
            f"  {outs} = ge.PhonySplit(%z) {{split_dim = [0], num_split = [{k}]}} : ({cat_t}) -> ({', '.join(ty(piece) for _ in range(k))})"
        )
        j = rng.randrange(k)
        lines.append(f"  %u = ge.Sub(%s{j}, %s{(j + 1) % k}) : ({ty(piece)}, {ty(piece)}) -> {ty(piece)}")
        listed += [("%u", ty(piece)), (f"%s{(j + 2) % k}", ty(piece))]
    rng.shuffle(listed)
    lines.append(f"  ge.NetOutput {', '.join(v for v, _ in listed)} : {', '.join(t for _, t in listed)}")
    return "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


def _nested(shape: tuple[int, ...], rng: random.Random, dt: str) -> str:
    """A dense literal of `shape` with distinct small values (exact in f16 and int8)."""
    if not shape:
        v = rng.randint(-8, 8)
        return str(v) if dt == "i8" else f"{v / 4}"
    return "[" + ", ".join(_nested(shape[1:], rng, dt) for _ in range(shape[0])) + "]"


# -- the differential runs -------------------------------------------------------------------


def _ge_run(tmp_path: Path, text: str, name: str, streams: int, capsys: pytest.CaptureFixture[str]) -> str:
    f = tmp_path / f"{name}.mlir"
    f.write_text(text)
    status = ge_run([str(f), "--streams", str(streams), "--executions", "2", "--seed", "1"])
    out = capsys.readouterr()
    assert status == 0 and "outputs match the reference" in out.out, (
        f"{name} on {streams} stream(s):\n{text}\n{out.out}\n{out.err}"
    )
    # the memory figures (ge-run --help): P <= L <= F on one stream, P <= F on two
    got = re.search(r"memory: feature map (\d+) bytes, lower bound (\d+)(?: \([0-9.]+x\))?, peak live (\d+)", out.out)
    assert got is not None, out.out
    fm, lb, peak = map(int, got.groups())
    assert lb <= fm and peak <= fm and (streams > 1 or peak <= lb), (name, streams, fm, lb, peak)
    return out.out


MULTI_SEEDS = range(40)
PADDED_SEEDS = range(30)


@pytest.mark.parametrize("streams", [1, 2])
@pytest.mark.parametrize("seed", MULTI_SEEDS)
def test_multi_output_graph_matches_the_reference(
    seed: int, streams: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _ge_run(tmp_path, multi_output_graph(seed), f"multi_{seed}", streams, capsys)


@pytest.mark.parametrize("streams", [1, 2])
@pytest.mark.parametrize("seed", PADDED_SEEDS)
def test_padded_graph_matches_the_reference(
    seed: int, streams: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _ge_run(tmp_path, padded_graph(seed), f"padded_{seed}", streams, capsys)


def test_the_generators_cover_the_cases() -> None:
    """The seeds above hold what the issue's bugs need: a consumer of two pieces that are
    not the first, NetOutput listing two producer outputs, a PhonyConcat of a SplitD's
    outputs, every producer kind; padded layouts (C not a multiple of C0) of every dtype,
    no-task concats on N and on C."""
    multi = [multi_output_graph(s) for s in MULTI_SEEDS]
    for kind in ("PhonySplit", "SplitD", "SplitVD"):
        assert any(f"ge.{kind}(" in g for g in multi), kind
    assert any("ge.PhonyConcat(" in g and "ge.SplitD(" in g for g in multi)
    assert any("ge.AddN(" in g for g in multi) and any("ge.ConcatD(" in g for g in multi)
    assert any("ge.Sub(%p1, %p2)" in g or "ge.Sub(%p2, %p1)" in g for g in multi)
    assert any(
        g.count("%p") and "ge.NetOutput" in g and sum(f"%p{k}" in g.split("ge.NetOutput")[1] for k in range(4)) >= 2
        for g in multi
    )
    padded = [padded_graph(s) for s in PADDED_SEEDS]
    for dt in ("f16", "f32", "i8"):
        assert any(f"x{dt}, #ge.desc<NC1HWC0" in g for g in padded), dt
    assert any("FRACTAL_NZ" in g for g in padded)
    assert any("tensor<1x17x" in g or "tensor<1x33x" in g or "tensor<1x5x" in g for g in padded)
    assert any("concat_dim = 1," in g for g in padded) and any("concat_dim = 0," in g for g in padded)
