"""The random ge graphs of the lowering and autofuse differential tests: pointwise,
broadcast, reduce, concat, split, transpose and reshape (`random_graph`), and graphs around
Gather/GatherV2 (`random_gather_graph`), each a function of its seed; `pass_for` picks a
ge-lower-autofuse configuration per seed.

Independent of random_graphs.py (ge-run's whole-pipeline generator) and of
bench/gen_graphs.py (large regular graphs for the benchmarks).
"""

from __future__ import annotations

import random

import numpy as np

from ge_dialect import ge
from lowering.lower_autofuse import LowerAutofusePass

# ge-lower-autofuse enable_pass values: every optional lowering, and with gather too.
ALL = ("reduce", "concat", "split", "transpose")
GATHER_ALL = (*ALL, "gather")

UNARY = ("Abs", "Neg", "Relu", "Exp", "Sigmoid", "Tanh", "Square")
BINARY = ("Add", "Sub", "Mul", "Maximum", "Minimum", "RealDiv")
REDUCE = ("ReduceSumD", "ReduceMaxD", "ReduceMinD", "ReduceMeanD")


def ty(shape: tuple[int, ...]) -> str:
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
        lines.append(f"  %in{i} = ge.Data {{index = {i}}} : {ty(s)}")
        pool.append((f"%in{i}", s))
    used: set[str] = set()
    n = 0

    def emit(
        op: str, ins: list[tuple[str, tuple[int, ...]]], outs: list[tuple[int, ...]], attrs: str = ""
    ) -> list[tuple[str, tuple[int, ...]]]:
        nonlocal n
        names = [f"%v{n}_{k}" if len(outs) > 1 else f"%v{n}" for k in range(len(outs))]
        n += 1
        a = f" {{{attrs}}}" if attrs else ""
        in_t = ", ".join(ty(s) for _, s in ins)
        out_t = ty(outs[0]) if len(outs) == 1 else "(" + ", ".join(ty(s) for s in outs) + ")"
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
                emit(
                    rng.choice(REDUCE),
                    [v],
                    [out],
                    f"axes = [{', '.join(map(str, axes))}], keep_dims = {'true' if keep else 'false'}",
                )
        elif kind == "concat" and s:
            same = [w for w in pool if len(w[1]) == len(s)]
            d = rng.randrange(len(s))
            parts = [v] + [
                w for w in same if w is not v and all(x == y for k, (x, y) in enumerate(zip(w[1], s)) if k != d)
            ][:2]
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
    outs = [p for p in pool[len(in_shapes) :] if p[0] not in used] or [pool[-1]]
    if rng.random() < 0.3 and len(pool) > len(in_shapes) + 1:
        extra = rng.choice(pool[len(in_shapes) :])
        if extra not in outs:
            outs.append(extra)
    lines.append(f"  ge.NetOutput {', '.join(v for v, _ in outs)} : {', '.join(ty(s) for _, s in outs)}")
    return "ge.graph @main {\n" + "\n".join(lines) + "\n}\n"


def _dense(vals: np.ndarray) -> str:
    return "dense<" + str(vals.tolist()).replace(" ", "").replace(",", ", ") + ">"


def random_gather_graph(seed: int) -> str:
    """A graph around one or two ge.Gather/GatherV2 nodes: a pointwise producer of the
    params, Const indices (in range; negative ones with negative_index_support), a last-axis
    or axis-0 gather (GatherV2 on a non-last axis stays a GE op on A2/A3), and consumers of
    every kind the gather strategy rules on: pointwise, broadcasting pointwise, a second
    axis count, reduce, concat, another gather reading it as indices."""
    rng = random.Random(10_000 + seed)
    A, B = rng.choice((2, 3, 4)), rng.choice((4, 8, 16))
    lines = [f"  %x = ge.Data {{index = 0}} : {ty((A, B))}", f"  %y = ge.Data {{index = 1}} : {ty((A, B))}"]
    src = rng.choice(("%x", "pre"))
    if src == "pre":
        op = rng.choice(("Abs", "Exp", "Add"))
        args = "%x, %y" if op == "Add" else "%x"
        tys = f"{ty((A, B))}, {ty((A, B))}" if op == "Add" else ty((A, B))
        lines.append(f"  %p = ge.{op}({args}) : ({tys}) -> {ty((A, B))}")
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
        lines.append(f"  %g = ge.Gather({src}, %i) : ({ty((A, B))}, {it}) -> {ty(out)}")
    else:
        ax = -1 if kind == "v2_neg" else axis
        attrs = " {negative_index_support = true}" if kind == "v2_neg" else ""
        lines.append(f"  %ax = ge.Const {{value = dense<{ax}> : tensor<i32>}} : tensor<i32>")
        lines.append(f"  %g = ge.GatherV2({src}, %i, %ax){attrs} : ({ty((A, B))}, {it}, tensor<i32>) -> {ty(out)}")
    outs = []
    for k in range(rng.randint(1, 3)):
        use = rng.choice(("abs", "exp_add", "bcast_add", "rank_up", "reduce", "concat", "regather"))
        name = f"%c{k}"
        if use == "abs":
            lines.append(f"  {name} = ge.Abs(%g) : ({ty(out)}) -> {ty(out)}")
            outs.append((name, out))
        elif use == "exp_add":
            lines.append(f"  %e{k} = ge.Exp(%g) : ({ty(out)}) -> {ty(out)}")
            lines.append(f"  {name} = ge.Add(%e{k}, %g) : ({ty(out)}, {ty(out)}) -> {ty(out)}")
            outs.append((name, out))
        elif use == "bcast_add":
            w = (1,) * (len(out) - 1) + (out[-1],) if rng.random() < 0.5 else out[:-1] + (1,)
            lines.append(f"  %w{k} = ge.Data {{index = {2 + k}}} : {ty(w)}")
            lines.append(f"  {name} = ge.Mul(%g, %w{k}) : ({ty(out)}, {ty(w)}) -> {ty(out)}")
            outs.append((name, out))
        elif use == "rank_up":
            up = (2,) + out
            lines.append(
                f"  %b{k} = ge.BroadcastToD(%g) {{shape = [{', '.join(map(str, up))}]}} : ({ty(out)}) -> {ty(up)}"
            )
            lines.append(f"  {name} = ge.Neg(%b{k}) : ({ty(up)}) -> {ty(up)}")
            outs.append((name, up))
        elif use == "reduce":
            r = out[:-1] + (1,)
            lines.append(
                f"  {name} = ge.ReduceSumD(%g) {{axes = [{len(out) - 1}], keep_dims = true}} : ({ty(out)}) -> {ty(r)}"
            )
            outs.append((name, r))
        elif use == "concat":
            c = out[:-1] + (2 * out[-1],)
            lines.append(
                f"  {name} = ge.ConcatD(%g, %g) {{concat_dim = {len(out) - 1}}} : ({ty(out)}, {ty(out)}) -> {ty(c)}"
            )
            outs.append((name, c))
        else:
            # the gather's output, made integer and in range, indexes a second gather (axis 0)
            lines.append(f"  %q{k} = ge.Abs(%g) : ({ty(out)}) -> {ty(out)}")
            lines.append(f"  %n{k} = ge.Cast(%q{k}) : ({ty(out)}) -> {ty(out).replace('f32', 'i32')}")
            lines.append(f"  %t{k} = ge.Data {{index = {2 + k}}} : tensor<64x3xf32>")
            # |values| of x, y are < 2 (inputs_for draws from [-2, 2]); exp of that < 64
            o2 = out + (3,)
            lines.append(
                f"  {name} = ge.Gather(%t{k}, %n{k}) : (tensor<64x3xf32>, {ty(out).replace('f32', 'i32')}) -> {ty(o2)}"
            )
            outs.append((name, o2))
    lines.append(f"  ge.NetOutput {', '.join(n for n, _ in outs)} : {', '.join(ty(s) for _, s in outs)}")
    # Data indices must be dense: renumber the extra Data nodes in order of appearance
    k = 2
    fixed = []
    for ln in lines:
        if "= ge.Data {index = " in ln and not ln.startswith("  %x") and not ln.startswith("  %y"):
            ln = ln.split("{index = ")[0] + f"{{index = {k}}}" + ln.split("}", 1)[1]
            k += 1
        fixed.append(ln)
    return "ge.graph @main {\n" + "\n".join(fixed) + "\n}\n"


def pass_for(seed: int) -> LowerAutofusePass:
    # Alternate GE's defaults, everything on, and tight limits that make many boundaries.
    variant = seed % 4
    if variant == 0:
        return LowerAutofusePass()
    if variant == 1:
        return LowerAutofusePass(enable_pass=ALL)
    if variant == 2:
        return LowerAutofusePass(enable_pass=ALL, max_loop_ops=2, max_loop_loads=2)
    return LowerAutofusePass(enable_pass=ALL, cse=False, recomputation_threshold=3)
