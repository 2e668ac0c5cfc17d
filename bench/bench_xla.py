"""Compile time against XLA: `ge-opt -p ge-compile` beside JAX's jit of the same graph.

    python bench/bench_xla.py [--kinds chain,diamond,fanout,concat_tree,mixed]
        [--sizes 1000,4000,16000] [--seed 0] [--repeat 3] [--json PATH] [--keep DIR]
    python bench/bench_xla.py --profile [--kinds fanout,diamond,chain] [--sizes 1000,4000]
        [--top 12] [--json PATH]
    python bench/bench_xla.py --translate FILE.mlir [-o OUT.py]

Needs the bench extra (JAX on CPU): `.venv/bin/pip install -e '.[bench]'`.

Each generated graph (bench/gen_graphs.py, one per kind and size) is translated op by op
to a Python function over `jax.numpy` (`translate`: parsed and verified by the project's
own parser, each ge node one jnp/lax expression with the reference interpreter's
semantics: dtypes, f32 accumulation of f16 reductions and matmuls, AddN as a left-to-right
chain of Adds, ...). tests/tools/test_bench_xla.py checks the translation's numbers
against runtime/reference.py. Then, interleaved `--repeat` times (the minimum is kept, wall
and CPU separately), two fresh processes per graph:

* **ours**: `ge-opt -p ge-compile --time-passes FILE.mlir -o /dev/null`: Python start-up,
  imports, parse, a verify of the input, the nine passes of ge-compile, a verify of the
  result (ge-opt's default; `--verify-each` is not given), and printing the compiled
  module (rendered in a forked child beside the result's verify: ge_fast/beside.py);
  `--time-passes` gives the passes' own time (the sum of its pass rows: no parse, verify,
  print or start-up). Both sides import from bytecode: pip wrote jax's and
  xDSL's `.pyc` files when it installed them, but an editable install of this project
  writes none, and with PYTHONDONTWRITEBYTECODE set (as on these machines) every ge-opt
  process would compile the project's sources again (about 0.2 s CPU); so the benchmark
  first byte-compiles the project's packages (`precompile_project`, what pip does for a
  regular install) and prints how many modules it wrote.
* **XLA**: `python -c WORKER FILE_jax.py`: Python start-up, `import jax`, compiling and
  running the translated module's source (defining `f`), creating the CPU backend, then
  `jax.jit(f).trace(*specs).lower().compile()` on `jax.ShapeDtypeStruct` arguments
  (tracing to a jaxpr, lowering to StableHLO, XLA's HLO passes and LLVM code generation
  for the CPU). No persistent compilation cache; nothing is executed or printed.

Per graph: both whole-process times and their ratio ours / XLA (wall and CPU: the machine
is shared, CPU time is the steadier figure); the passes alone against XLA's trace + lower +
compile alone (both wall, in-process) and their ratio, with the slowest pass; XLA's
in-process split; per kind, the growth exponents from the
second-largest to the largest size, log(t_big / t_small) / log(size ratio), of the whole
process and of the whole process minus start-up (a 3-node chain compiled the same way on
each side). Targets (issue 12, part 3): ratio <= 1.0 everywhere, exponents <= 1.1.

`--profile` runs ge-opt's steps in-process (bench's own driver around ge_tools/opt.py's
GeOptMain, read-only) and times start-up (interpreter, imports, GeOptMain set-up), parse,
verify, each pass and print; then again under cProfile, one profile per phase, and prints
each phase's top functions by own time (file:function). A benchmark reports; it never
fails the exit code on a missed target.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

KINDS = ("chain", "diamond", "fanout", "concat_tree", "mixed")
TARGET_RATIO = 1.0
TARGET_EXPONENT = 1.1
# the project's packages (pyproject.toml [tool.setuptools.packages.find])
PACKAGES = ("ge_dialect", "passes", "lowering", "runtime", "ge_tools", "importers", "report")
INSTALL_HINT = "JAX is not installed: .venv/bin/pip install -e '.[bench]'  (or: .venv/bin/pip install jax jaxlib)"

# The project is imported lazily (inside functions): the --profile worker times ge-opt's
# imports from a clean interpreter, so this module's top level holds the standard library only.


# =========================================================================================
# The translator: a verified ge graph -> the source of a Python module defining f over jnp
# =========================================================================================


class Untranslatable(Exception):
    """A node with no jax.numpy translation (FILE:LINE:COL: error: ... as every project error)."""


@dataclass
class JaxProgram:
    """The translation of one ge.graph: `source` defines `f(x0, ..., xn)` (one argument per
    ge.Data, in `index` order) returning the NetOutput's values as a tuple."""

    source: str
    inputs: list[tuple[tuple[int, ...], str]]  # (shape, numpy dtype name) of each argument
    nodes: int  # ge nodes translated (Data, Const and NetOutput included)
    x64: bool  # whether f needs jax_enable_x64 (a 64-bit dtype somewhere)
    kinds: dict[str, int] = field(default_factory=dict)  # ge op type -> count


# ge op type -> jnp expression of its operands ({0}, {1}), and whether the reference
# defines it on floats only (runtime/reference.py: _POINTWISE).
_UNARY = {
    "Relu": ("jnp.maximum({0}, 0)", False),  # the reference: np.maximum(x, 0)
    "Abs": ("jnp.abs({0})", False),
    "Neg": ("jnp.negative({0})", False),
    "Exp": ("jnp.exp({0})", True),
    "Log": ("jnp.log({0})", True),
    "Sqrt": ("jnp.sqrt({0})", True),
    "Rsqrt": ("lax.rsqrt({0})", True),
    "Sigmoid": ("jax.nn.sigmoid({0})", True),
    "Tanh": ("jnp.tanh({0})", True),
    "Square": ("jnp.square({0})", False),
    "Reciprocal": ("jnp.reciprocal({0})", True),
}
_BINARY = {
    "Add": ("jnp.add({0}, {1})", False),
    "Sub": ("jnp.subtract({0}, {1})", False),
    "Mul": ("jnp.multiply({0}, {1})", False),
    "RealDiv": ("jnp.true_divide({0}, {1})", True),
    "Div": ("lax.div({0}, {1})", False),  # integers: rounded toward zero, as the reference's TF Div
    "Maximum": ("jnp.maximum({0}, {1})", False),
    "Minimum": ("jnp.minimum({0}, {1})", False),
    "Pow": ("jnp.power({0}, {1})", False),
}
_RESHAPES = {
    "Reshape", "Squeeze", "Unsqueeze", "ExpandDims", "Flatten", "FlattenV2", "ReFormat",
    "SqueezeV2", "SqueezeV3", "UnsqueezeV2", "UnsqueezeV3",
}  # fmt: skip
_REDUCES = {"ReduceSumD": "sum", "ReduceProdD": "prod", "ReduceMaxD": "max", "ReduceMinD": "min", "ReduceMeanD": "mean"}


class _Translator:
    def __init__(self, graph):
        from ge_dialect import ge

        self.ge = ge
        self.graph = graph
        self.lines: list[str] = []
        self.names: dict[object, str] = {}
        self.dtypes: set[str] = set()
        self.next = 0
        self.x64 = False
        self.kinds: dict[str, int] = {}

    # -- helpers -------------------------------------------------------------------------

    def fail(self, op, msg: str) -> Untranslatable:
        from ge_dialect.diagnostics import LocatedError

        return Untranslatable(str(LocatedError(op, msg)))

    def np_dtype(self, value):
        from ge_dialect.dtypes import numpy_dtype

        return numpy_dtype(value.type.element_type)

    def dt(self, np_dt) -> str:
        """The source name of a numpy dtype (defined once at the module's top)."""
        name = np_dt.name
        self.dtypes.add(name)
        if np_dt.itemsize == 8:
            self.x64 = True
        return f"dt_{name}"

    def shape(self, op, value) -> tuple[int, ...]:
        from ge_dialect.desc import shape_of

        s = shape_of(value.type)
        if s is None or any(d < 0 for d in s):
            raise self.fail(op, f"{value.type} is not a static shape: jax.jit traces static shapes only")
        return tuple(s)

    def fresh(self) -> str:
        self.next += 1
        return f"v{self.next}"

    def bind(self, op, exprs: list[str]) -> None:
        """One line `v = expr` per result (or a tuple target for one expression of several)."""
        if len(exprs) == 1 and len(op.results) > 1:
            names = [self.fresh() for _ in op.results]
            self.lines.append(f"    {', '.join(names)} = {exprs[0]}")
        else:
            assert len(exprs) == len(op.results)
            names = []
            for e in exprs:
                if e.isidentifier():  # an alias (Identity): no new jnp op
                    names.append(e)
                    continue
                n = self.fresh()
                self.lines.append(f"    {n} = {e}")
                names.append(n)
        self.names.update(zip(op.results, names))

    def upcast(self, op, args: list[str]) -> tuple[list[str], object]:
        """The reference computes bf16 and float8 in float32 (runtime/reference.py: upcast)."""
        from ge_dialect.dtypes import compute_dtype

        dts = [self.np_dtype(v) for v in op.operands]
        cdt = compute_dtype(dts[0])
        return [
            a if compute_dtype(d) == d else f"{a}.astype({self.dt(compute_dtype(d))})" for a, d in zip(args, dts)
        ], cdt

    def cast_to_out(self, op, expr: str, have, i: int = 0) -> str:
        out = self.np_dtype(op.results[i])
        return expr if out == have else f"({expr}).astype({self.dt(out)})"

    # -- nodes ---------------------------------------------------------------------------

    def node(self, op) -> list[str]:
        from ge_dialect import attrs as A
        from ge_dialect.dtypes import is_float_dtype
        from runtime.numerics import acc_dtype

        ge = self.ge
        t = ge.ge_type(op)
        args = [self.names[v] for v in op.operands]
        if t == "Identity":
            return [args[0]]
        if t in _UNARY or t in _BINARY:
            fmt, float_only = _UNARY[t] if t in _UNARY else _BINARY[t]
            if float_only and not is_float_dtype(self.np_dtype(op.operands[0])):
                raise self.fail(op, f"{t} is defined on floats only (runtime/reference.py)")
            cargs, cdt = self.upcast(op, args)
            return [self.cast_to_out(op, fmt.format(*cargs), cdt)]
        if t == "AddN":
            # runtime/reference.py: _add_n, left to right, each Add rounded to the inputs' dtype
            _, cdt = self.upcast(op, args)
            in_dt = self.np_dtype(op.operands[0])
            acc = args[0]
            for a in args[1:]:
                if cdt == in_dt:
                    acc = f"jnp.add({acc}, {a})"
                else:
                    c, i = self.dt(cdt), self.dt(in_dt)
                    acc = f"jnp.add({acc}.astype({c}), {a}.astype({c})).astype({i})"
            return [self.cast_to_out(op, acc, in_dt)]
        if t == "Cast":
            cargs, cdt = self.upcast(op, args)
            return [self.cast_to_out(op, cargs[0], cdt)]
        if t in _REDUCES:
            return [self.reduce(op, _REDUCES[t], args[0])]
        if t in ("ConcatD", "ConcatV2D"):
            rank = len(self.shape(op, op.operands[0]))
            if len(args) == 1 and rank == 0:
                return [args[0]]
            axis = self.axis(op, A.get_int(op, "concat_dim", 0) or 0, max(rank, 1))
            parts = [f"{a}.reshape(1)" if len(self.shape(op, v)) == 0 else a for a, v in zip(args, op.operands)]
            return [f"jnp.concatenate([{', '.join(parts)}], axis={axis})"]
        if t in ("SplitD", "SplitVD"):
            x = self.shape(op, op.operands[0])
            axis = self.axis(op, A.get_int(op, "split_dim", 0) or 0, len(x))
            sizes = [self.shape(op, r)[axis] for r in op.results]  # verified: they tile the dim
            cuts = [sum(sizes[: i + 1]) for i in range(len(sizes) - 1)]
            return [f"tuple(jnp.split({args[0]}, {cuts}, axis={axis}))"]
        if t == "Pack":
            axis = self.axis(op, A.get_int(op, "axis", 0) or 0, len(self.shape(op, op.operands[0])) + 1)
            return [f"jnp.stack([{', '.join(args)}], axis={axis})"]
        if t in _RESHAPES:
            return [f"jnp.reshape({args[0]}, {self.shape(op, op.results[0])})"]
        if t == "TransposeD":
            return [f"jnp.transpose({args[0]}, {tuple(A.get_int_list(op, 'perm') or [])})"]
        if t == "BroadcastToD":
            return [f"jnp.broadcast_to({args[0]}, {tuple(A.get_int_list(op, 'shape') or [])})"]
        if t == "MatMul":
            # runtime/reference.py: _matmul, f16 products accumulated in float32, then cast
            a, b = args[0], args[1]
            if A.get_bool(op, "transpose_x1"):
                a = f"{a}.T"
            if A.get_bool(op, "transpose_x2"):
                b = f"{b}.T"
            acc = acc_dtype(self.np_dtype(op.operands[0]))
            e = f"jnp.matmul({a}, {b}, preferred_element_type={self.dt(acc)})"
            if len(args) == 3:
                e = f"{e} + {args[2]}.astype({self.dt(acc)}).reshape(-1)"
            return [self.cast_to_out(op, e, acc)]
        if t == "Conv2D":
            return [self.conv2d(op, args)]
        if t in ("Const", "Constant"):
            return [self.const(op)]
        raise self.fail(op, f"{t} has no jax.numpy translation (bench/bench_xla.py)")

    def axis(self, op, axis: int, rank: int) -> int:
        from ge_dialect.shapes import normalize_axis

        try:
            return normalize_axis(axis, rank, "axis")
        except Exception as e:  # a verified op never fails it
            raise self.fail(op, str(e)) from None

    def reduce(self, op, kind: str, x: str) -> str:
        from ge_dialect import attrs as A
        from runtime.numerics import acc_dtype

        shape = self.shape(op, op.operands[0])
        axes_attr = A.get_int_list(op, "axes") or []
        axes = (
            tuple(sorted({self.axis(op, a, len(shape)) for a in axes_attr})) if axes_attr else tuple(range(len(shape)))
        )
        keep = A.get_bool(op, "keep_dims", False)
        in_dt = self.np_dtype(op.operands[0])
        acc = acc_dtype(in_dt)
        kw = f"axis={axes}, keepdims={keep}"
        if kind in ("sum", "prod"):
            e = f"jnp.{kind}({x}, {kw}, dtype={self.dt(acc)})"
            return self.cast_to_out(op, e, acc)
        if kind in ("max", "min"):
            (cx,), cdt = self.upcast(op, [x])
            count = math.prod(shape[a] for a in axes)
            init = "" if count else f", initial={'-' if kind == 'max' else ''}jnp.inf"
            if not count and in_dt.kind != "f":
                raise self.fail(op, f"an empty Reduce{kind.capitalize()}D of {in_dt} has no translation here")
            return self.cast_to_out(op, f"jnp.{kind}({cx}, {kw}{init})", cdt)
        count = math.prod(shape[a] for a in axes)  # mean
        s = f"jnp.sum({x}, {kw}, dtype={self.dt(acc)})"
        if in_dt.kind in "iu":
            if count == 0:
                raise self.fail(op, "ReduceMeanD of an empty integer tensor")
            return self.cast_to_out(op, f"lax.div({s}, {acc.type(count)!r})", acc)
        return self.cast_to_out(op, f"({s} / {self.dt(acc)}.type({count}))", acc)

    def conv2d(self, op, args: list[str]) -> str:
        # runtime/reference.py: conv2d_nchw; NCHW x, OIHW filter, pads [top, bottom, left, right]
        from ge_dialect import attrs as A
        from runtime.numerics import acc_dtype

        ge = self.ge
        sh, sw = ge.quad_attr(op, "strides", [1, 1, 1, 1])[2:]
        dh, dw = ge.quad_attr(op, "dilations", [1, 1, 1, 1])[2:]
        pt, pb, pl, pr = ge.quad_attr(op, "pads", [0, 0, 0, 0])
        g = A.get_int(op, "groups", 1) or 1
        acc = acc_dtype(self.np_dtype(op.operands[0]))
        e = (
            f"lax.conv_general_dilated({args[0]}, {args[1]}, window_strides=({sh}, {sw}), "
            f"padding=(({pt}, {pb}), ({pl}, {pr})), rhs_dilation=({dh}, {dw}), "
            f"dimension_numbers=('NCHW', 'OIHW', 'NCHW'), feature_group_count={g}, "
            f"preferred_element_type={self.dt(acc)})"
        )
        if len(args) == 3:
            e = f"{e} + {args[2]}.astype({self.dt(acc)}).reshape(1, -1, 1, 1)"
        return self.cast_to_out(op, e, acc)

    def const(self, op) -> str:
        import numpy as np
        from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

        from runtime.reference import dense_value

        attr = op.attributes.get("value")
        if not isinstance(attr, DenseIntOrFPElementsAttr):
            raise self.fail(op, "a Const without a dense 'value' has no translation here")
        v = dense_value(op, attr)  # the reference's own reading (dtype, shape)
        dt = self.dt(v.dtype)
        flat = v.reshape(-1)
        if flat.size and np.all(flat == flat[0]) and not np.isnan(flat[0]):
            return f"jnp.full({v.shape}, {_literal(flat[0])}, {dt})"
        items = ", ".join(_literal(x) for x in flat)
        return f"jnp.asarray(np.array([{items}], dtype=np.float64).astype({dt}).reshape({v.shape}))"

    # -- the graph -----------------------------------------------------------------------

    def run(self) -> JaxProgram:
        from ge_dialect import attrs as A

        ge = self.ge
        ops = list(self.graph.body.block.ops)
        datas = sorted(
            ((A.get_int(op, "index") or 0, op) for op in ops if isinstance(op, ge.Data | ge.RefData)),
            key=lambda p: p[0],
        )
        if [i for i, _ in datas] != list(range(len(datas))):
            raise self.fail(self.graph, "the Data indices are not 0..n-1")
        inputs = []
        for i, d in datas:
            self.names[d.results[0]] = f"x{i}"
            inputs.append((self.shape(d, d.results[0]), self.np_dtype(d.results[0]).name))
            self.dt(self.np_dtype(d.results[0]))
        ret = None
        for op in ops:
            t = ge.ge_type(op)
            self.kinds[t] = self.kinds.get(t, 0) + 1
            if isinstance(op, ge.Data | ge.RefData):
                continue
            if isinstance(op, ge.NetOutput):
                ret = [self.names[v] for v in op.operands]
                break
            self.bind(op, self.node(op))
        if ret is None:
            raise self.fail(self.graph, "the graph does not end with ge.NetOutput")
        head = [
            f'"""jax.numpy translation of ge graph @{self.graph.sym_name.data} (bench/bench_xla.py)."""',
            "import jax",
            "import jax.numpy as jnp",
            "import numpy as np",
            "from jax import lax",
            "",
        ]
        head += [f'dt_{n} = jnp.dtype("{n}")' for n in sorted(self.dtypes)]
        params = ", ".join(f"x{i}" for i, _ in datas)
        body = [
            *head,
            "",
            "",
            f"def f({params}):",
            *self.lines,
            f"    return ({', '.join(ret)}{',' if ret else ''})",
            "",
        ]
        body.append(f"INPUTS = {inputs!r}")
        body.append(f"X64 = {self.x64}")
        return JaxProgram("\n".join(body) + "\n", inputs, len(ops), self.x64, self.kinds)


def _literal(x) -> str:
    """A Python literal of one element (floats by repr of their float64 value: exact)."""
    import numpy as np

    if isinstance(x, np.bool_ | bool):
        return repr(bool(x))
    if isinstance(x, np.integer):
        return repr(int(x))
    f = float(x)
    if math.isnan(f):
        return "float('nan')"
    if math.isinf(f):
        return "float('inf')" if f > 0 else "float('-inf')"
    return repr(f)


def translate_graph(graph) -> JaxProgram:
    """The jax.numpy translation of a verified ge.graph (Untranslatable when a node has none)."""
    return _Translator(graph).run()


def parse_verified(text: str, name: str):
    """The module of `text`, parsed and verified as ge-opt does (a UserError when bad)."""
    from ge_dialect.verify import verify_module
    from ge_tools.parse import parse_module
    from ge_tools.registry import make_context

    module = parse_module(make_context(), text, name)
    verify_module(module)
    return module


def translate_text(text: str, name: str = "graph.mlir", graph_name: str | None = None) -> JaxProgram:
    """Parse, verify and translate IR text (the root graph, or `graph_name`)."""
    from runtime.reference import select_graph

    return translate_graph(select_graph(parse_verified(text, name), graph_name))


def load(program: JaxProgram):
    """`f` of a translation, ready to call or jit (needs JAX; enables x64 when f needs it)."""
    import jax

    if program.x64:
        jax.config.update("jax_enable_x64", True)
    ns: dict[str, object] = {}
    exec(compile(program.source, "<bench_xla translation>", "exec"), ns)
    return ns["f"]


def have_jax() -> bool:
    import importlib.util

    return importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib") is not None


# =========================================================================================
# Measuring: fresh processes, interleaved repeats, minimum of each
# =========================================================================================

# The XLA side's process: everything after Python's own start is timed in-process too.
XLA_WORKER = r"""
import time
t0 = time.perf_counter()
import json, sys
import jax
t1 = time.perf_counter()
jax.config.update("jax_enable_compilation_cache", False)
src = open(sys.argv[1]).read()
ns = {}
exec(compile(src, sys.argv[1], "exec"), ns)
if ns["X64"]:
    jax.config.update("jax_enable_x64", True)
t2 = time.perf_counter()
jax.devices()
t3 = time.perf_counter()
specs = [jax.ShapeDtypeStruct(s, jax.numpy.dtype(d)) for s, d in ns["INPUTS"]]
traced = jax.jit(ns["f"]).trace(*specs)
t4 = time.perf_counter()
lowered = traced.lower()
t5 = time.perf_counter()
compiled = lowered.compile()
t6 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "define": t2 - t1, "backend": t3 - t2, "trace": t4 - t3,
                  "lower": t5 - t4, "compile": t6 - t5, "eqns": len(traced.jaxpr.eqns)}))
"""


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"  # no accelerator probing
    env.pop("XLA_FLAGS", None)  # XLA's defaults
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def run_timed(
    cmd: list[str], stdout: int | None = subprocess.DEVNULL, stderr_too: bool = False
) -> tuple[float, float, int, str]:
    """(wall s, CPU s of the child, its peak RSS KiB, its stdout; with `stderr_too`, its
    stdout and stderr in one stream) of one fresh process."""
    t0 = time.perf_counter()
    err_to = subprocess.STDOUT if stderr_too else subprocess.PIPE
    p = subprocess.Popen(cmd, stdout=stdout, stderr=err_to, env=_child_env(), cwd=ROOT)
    out = p.stdout.read().decode() if p.stdout else ""
    err = p.stderr.read().decode() if p.stderr else out
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {err.strip()[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, out


def precompile_project() -> int:
    """Byte-compile the project's packages into their __pycache__ directories (what pip
    does for jax and xDSL when it installs them; py_compile writes the files even under
    PYTHONDONTWRITEBYTECODE) and return how many modules were (re)written: without it an
    editable install pays the compile of every project module in every ge-opt process."""
    import compileall
    import importlib.util

    def stamp(p: Path) -> int | None:
        return p.stat().st_mtime_ns if p.exists() else None

    written = 0
    for pkg in PACKAGES:
        for src in sorted((ROOT / pkg).rglob("*.py")):
            cached = Path(importlib.util.cache_from_source(str(src)))
            before = stamp(cached)
            if not compileall.compile_file(str(src), quiet=2):  # a syntax error: ge-opt reports it
                continue
            written += stamp(cached) != before
    return written


def ge_opt_exe() -> str:
    exe = Path(sys.executable).with_name("ge-opt")
    return str(exe) if exe.exists() else "ge-opt"


@dataclass
class Case:
    kind: str
    nodes: int
    mlir: Path
    jaxpy: Path
    ours: list[tuple[float, float, int]] = field(default_factory=list)  # (wall, cpu, rss KiB)
    xla: list[tuple[float, float, int]] = field(default_factory=list)
    xla_split: list[dict] = field(default_factory=list)
    ours_passes: list[dict[str, float]] = field(default_factory=list)  # --time-passes, per repeat

    def best(self, side: str, i: int) -> float:
        return min(r[i] for r in getattr(self, side))

    def best_pass_s(self) -> float:
        """ge-compile's passes alone (the sum of --time-passes), the least over the repeats."""
        return min(sum(p.values()) for p in self.ours_passes)

    def best_jit_s(self) -> float:
        """XLA's trace + lower + compile alone (in-process), the least over the repeats."""
        return min(sp["trace"] + sp["lower"] + sp["compile"] for sp in self.xla_split)

    def passes_of_best(self) -> dict[str, float]:
        k = min(range(len(self.ours_passes)), key=lambda j: sum(self.ours_passes[j].values()))
        return self.ours_passes[k]

    def split(self) -> dict:
        """XLA's in-process phases of the repeat with the least wall time."""
        k = min(range(len(self.xla)), key=lambda j: self.xla[j][0])
        return self.xla_split[k]


def prepare(kind: str, nodes: int, seed: int, out_dir: Path) -> Case:
    from bench.gen_graphs import generate

    text = generate(kind, nodes, seed)
    name = f"{kind}-{nodes}"
    mlir = out_dir / f"{name}.mlir"
    mlir.write_text(text)
    prog = translate_text(text, str(mlir))
    jaxpy = out_dir / f"{name}_jax.py"
    jaxpy.write_text(prog.source)
    return Case(kind, nodes, mlir, jaxpy)


def pass_times(out: str) -> dict[str, float]:
    """The passes' rows of `ge-opt --time-passes`'s report (on stderr, mlir-opt's form:
    `  SECONDS ( SHARE%)  NAME`, NAME as in -p, `ge-phony-notask{stage=mark}`, a pass run
    twice one row), without the `verify` and `Total` rows."""
    times: dict[str, float] = {}
    for line in out.splitlines():
        m = TIME_ROW.match(line)
        if m and m[2] not in ("Total", "verify"):
            times[m[2]] = times.get(m[2], 0.0) + float(m[1])
    return times


TIME_ROW = re.compile(r"^ +([0-9]+\.[0-9]+) \( *[0-9]+\.[0-9]%\)  (\S+)$")


def measure(case: Case) -> None:
    cmd = [ge_opt_exe(), "-p", "ge-compile", "--time-passes", str(case.mlir), "-o", os.devnull]
    wall, cpu, rss, out = run_timed(cmd, stdout=subprocess.PIPE, stderr_too=True)  # --time-passes: stderr
    case.ours.append((wall, cpu, rss))
    case.ours_passes.append(pass_times(out))
    wall, cpu, rss, out = run_timed([sys.executable, "-c", XLA_WORKER, str(case.jaxpy)], stdout=subprocess.PIPE)
    case.xla.append((wall, cpu, rss))
    case.xla_split.append(json.loads(out.strip().splitlines()[-1]))


def exponent(t_small: float, t_big: float, n_small: int, n_big: int) -> float:
    if t_small <= 0 or t_big <= 0:
        return math.nan
    return math.log(t_big / t_small) / math.log(n_big / n_small)


def bench(args: argparse.Namespace) -> dict:
    kinds = _list(args.kinds, KINDS)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_xla_"))
    tmp.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    print(f"generating and translating {len(kinds) * len(sizes)} graphs into {tmp} ...", flush=True)
    print(f"byte-compiled {precompile_project()} project modules (both sides import from .pyc)", flush=True)
    startup = prepare("chain", 3, args.seed, tmp)  # Data -> one pointwise op -> NetOutput
    cases = [prepare(k, n, args.seed, tmp) for k in kinds for n in sizes]
    for r in range(args.repeat):
        for c in [startup, *cases]:  # one pass over every graph per repeat: load falls on all
            measure(c)
            if r == 0:
                print(
                    f"  {c.kind:>11} {c.nodes:>6}: ours {c.ours[-1][0]:7.2f} s, XLA {c.xla[-1][0]:7.2f} s",
                    flush=True,
                )
        print(f"repeat {r + 1}/{args.repeat} done ({time.perf_counter() - t_start:.0f} s)", flush=True)

    rows = []
    s_ours, s_xla = startup.best("ours", 0), startup.best("xla", 0)
    for c in [startup, *cases]:
        sp = c.split()
        rows.append({
            "kind": c.kind, "nodes": c.nodes,
            "ours_wall_s": c.best("ours", 0), "xla_wall_s": c.best("xla", 0),
            "ours_cpu_s": c.best("ours", 1), "xla_cpu_s": c.best("xla", 1),
            "ours_rss_mib": c.best("ours", 2) / 1024, "xla_rss_mib": c.best("xla", 2) / 1024,
            "ratio_wall": c.best("ours", 0) / c.best("xla", 0),
            "ratio_cpu": c.best("ours", 1) / c.best("xla", 1),
            "ours_pass_s": c.best_pass_s(), "xla_jit_s": c.best_jit_s(),
            "ratio_pass": c.best_pass_s() / c.best_jit_s(),
            "ours_passes_s": c.passes_of_best(),
            "xla_split_s": sp,
        })  # fmt: skip
    exps = []
    if len(sizes) >= 2:
        a, b = sizes[-2], sizes[-1]
        for k in kinds:
            ca = next(c for c in cases if c.kind == k and c.nodes == a)
            cb = next(c for c in cases if c.kind == k and c.nodes == b)
            exps.append({
                "kind": k, "from": a, "to": b,
                "ours": exponent(ca.best("ours", 0), cb.best("ours", 0), a, b),
                "xla": exponent(ca.best("xla", 0), cb.best("xla", 0), a, b),
                "ours_minus_startup": exponent(ca.best("ours", 0) - s_ours, cb.best("ours", 0) - s_ours, a, b),
                "xla_minus_startup": exponent(ca.best("xla", 0) - s_xla, cb.best("xla", 0) - s_xla, a, b),
                "ours_cpu": exponent(ca.best("ours", 1), cb.best("ours", 1), a, b),
                "xla_cpu": exponent(ca.best("xla", 1), cb.best("xla", 1), a, b),
            })  # fmt: skip
    report(rows, exps, args.repeat)
    if not args.keep:
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return {"seed": args.seed, "repeat": args.repeat, "rows": rows, "exponents": exps}


def report(rows: list[dict], exps: list[dict], repeat: int) -> None:
    print(f"\nge-opt -p ge-compile against XLA (JAX on CPU), best of {repeat}; ratio = ours / XLA")
    print(
        "whole process: ge-opt's, and python + import jax + define f + jit; passes: ge-compile's nine passes "
        "(--time-passes) against XLA's trace + lower + compile"
    )
    print(
        "| graph | ours wall | XLA wall | ratio wall | ours CPU | XLA CPU | ratio CPU "
        "| ours passes | XLA trace+lower+compile | ratio passes | slowest pass (share of passes) "
        "| XLA: import, define, backend, trace, lower, compile | jaxpr eqns | peak RSS ours / XLA |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        sp = r["xla_split_s"]
        split = ", ".join(f"{sp[k]:.2f}" for k in ("import", "define", "backend", "trace", "lower", "compile"))
        name = f"{r['kind']} {r['nodes']}" + (" (start-up)" if r["nodes"] == 3 else "")
        ps = r["ours_passes_s"]
        top = max(ps, key=ps.get) if ps else "-"
        share = 100 * ps[top] / sum(ps.values()) if ps and sum(ps.values()) > 0 else 0.0
        print(
            f"| {name} | {r['ours_wall_s']:.2f} s | {r['xla_wall_s']:.2f} s | {r['ratio_wall']:.2f} "
            f"| {r['ours_cpu_s']:.2f} s | {r['xla_cpu_s']:.2f} s | {r['ratio_cpu']:.2f} "
            f"| {r['ours_pass_s']:.2f} s | {r['xla_jit_s']:.2f} s | {r['ratio_pass']:.2f} | {top} ({share:.0f} %) "
            f"| {split} | {sp['eqns']} | {r['ours_rss_mib']:.0f} / {r['xla_rss_mib']:.0f} MiB |"
        )
    big = [r for r in rows if r["nodes"] != 3]
    for key, what in (("ratio_cpu", "whole process, CPU"), ("ratio_wall", "whole process"), ("ratio_pass", "passes")):
        if not big:
            break
        worst = max(big, key=lambda r: r[key])
        verdict = "PASS" if worst[key] <= TARGET_RATIO else "FAIL"
        print(
            f"{chr(10) if key == 'ratio_cpu' else ''}ratio target ({what}) <= {TARGET_RATIO}: {verdict} "
            f"(worst {worst[key]:.2f}, {worst['kind']} {worst['nodes']}; "
            f"{sum(r[key] <= TARGET_RATIO for r in big)} of {len(big)} graphs met)"
        )
    if exps:
        print(f"\ngrowth exponents {exps[0]['from']} -> {exps[0]['to']} nodes (wall; target <= {TARGET_EXPONENT})")
        print("| kind | ours | XLA | ours minus start-up | XLA minus start-up | ours CPU | XLA CPU |")
        print("|---|---|---|---|---|---|---|")
        for e in exps:
            print(
                f"| {e['kind']} | {e['ours']:.2f} | {e['xla']:.2f} | {e['ours_minus_startup']:.2f} "
                f"| {e['xla_minus_startup']:.2f} | {e['ours_cpu']:.2f} | {e['xla_cpu']:.2f} |"
            )
        ok = all(e["ours"] <= TARGET_EXPONENT for e in exps)
        print(f"our exponent target <= {TARGET_EXPONENT}: {'PASS' if ok else 'FAIL'}")
        ok = all(e["ours_cpu"] <= TARGET_EXPONENT for e in exps)
        print(f"our exponent target <= {TARGET_EXPONENT} (CPU): {'PASS' if ok else 'FAIL'}")


# =========================================================================================
# Profiling ge-opt: phases in-process, then cProfile per phase
# =========================================================================================

PHASE_WORKER_FLAG = "--profile-worker"


def profile_worker(argv: list[str]) -> None:
    """Run `ge-opt -p ge-compile FILE > /dev/null` in this fresh process, timing each phase;
    with --cprofile, one cProfile per phase. Prints one JSON line."""
    t_enter = time.perf_counter()
    use_cprofile = "--cprofile" in argv
    path = next(a for a in argv if not a.startswith("--"))
    profiles: dict[str, object] = {}
    times: dict[str, float] = {}
    order: list[str] = []
    import cProfile

    def phase(name: str):
        class _P:
            def __enter__(self):
                self.t = time.perf_counter()
                if use_cprofile:
                    self.p = profiles.setdefault(name, cProfile.Profile())
                    self.p.enable()

            def __exit__(self, *exc):
                if use_cprofile:
                    self.p.disable()
                if name not in times:
                    order.append(name)
                times[name] = times.get(name, 0.0) + time.perf_counter() - self.t

        return _P()

    with phase("imports"):
        from ge_fast.process import tune_gc
        from ge_tools import opt
        from ge_tools.registry import get_all_dialects, get_all_passes

        tune_gc()  # what ge-opt's main does first: the same collector thresholds

        for factory in get_all_dialects().values():  # what ge-opt imports lazily on first use
            factory()
        for factory in get_all_passes().values():
            factory()

    from xdsl.passes import PassPipeline

    phase_stack: list = []

    class Timed(opt.GeOptMain):
        def parse_chunk(self, chunk, file_extension, start_offset=0):
            with phase("parse"):
                return super().parse_chunk(chunk, file_extension, start_offset)

        def setup_pipeline(self):  # ge-opt's pipeline, each pass and each verify timed
            super().setup_pipeline()
            inner = self.pipeline.callback

            def timed(previous, module, nxt):
                if previous is not None:
                    phase_stack.pop().__exit__(None, None, None)
                with phase("verify"):
                    inner(previous, module, nxt)
                if nxt is not None:
                    name = nxt.name + (f"{{stage={nxt.stage}}}" if hasattr(nxt, "stage") else "")
                    ctx = phase(name)
                    ctx.__enter__()
                    phase_stack.append(ctx)

            self.pipeline = PassPipeline(self.pipeline.passes, timed)

        def output_resulting_program(self, prog):
            with phase("print"):
                return super().output_resulting_program(prog)

    from ge_fast.beside import PrintBeside

    text = PrintBeside.text

    def waited_text(self):  # ge-opt's print runs in a child beside the result's verify
        with phase("print: waiting for the child (rendered beside the verify)"):
            return text(self)

    PrintBeside.text = waited_text  # type: ignore[method-assign]

    with phase("set-up"):
        main = Timed(["-p", "ge-compile", path, "-o", os.devnull])
    main.run()
    result = {"since_enter": time.perf_counter() - t_enter, "times": times, "order": order}
    if use_cprofile:
        result["top"] = {name: _top(p, 40) for name, p in profiles.items()}
    print(json.dumps(result))


def _where(code: tuple[str, int, str]) -> str:
    file, line, func = code
    p = file.replace(str(ROOT) + "/", "")
    if "site-packages/" in p:
        p = p.split("site-packages/", 1)[1]
    if "/lib/python3" in p:
        p = "python/" + p.split("/lib/python3", 1)[1].split("/", 1)[-1]
    return f"{p}:{line}:{func}" if line else func


def _top(prof, n: int) -> dict:
    """The top n functions by own time and the top n project functions by cumulative time."""
    import pstats

    st = pstats.Stats(prof)
    total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    entries = [(k, v[0], v[1], v[2], v[3]) for k, v in st.stats.items()]  # type: ignore[attr-defined]
    own = sorted(entries, key=lambda e: -e[3])[:n]
    proj = [e for e in entries if str(ROOT) in e[0][0] and "bench_xla.py" not in e[0][0]]
    cum = sorted(proj, key=lambda e: -e[4])[:n]
    fmt = lambda e: {"where": _where(e[0]), "calls": e[2], "own_s": e[3], "cum_s": e[4]}  # noqa: E731
    return {"total_s": total, "own": [fmt(e) for e in own], "cum": [fmt(e) for e in cum]}


def import_times(path: Path) -> list[tuple[str, float]]:
    """Top-level packages ge-opt imports, by cumulative import time (python -X importtime)."""
    cmd = [sys.executable, "-X", "importtime", ge_opt_exe(), "-p", "ge-compile", str(path)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=_child_env(), cwd=ROOT)
    tops: dict[str, float] = {}
    for line in p.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = line.split("|")
        try:
            cum = int(parts[1].strip()) / 1e6
        except ValueError:
            continue
        name = parts[2]
        if name.startswith(" ") and not name.startswith("  "):  # depth 0: one leading blank
            top = name.strip().split(".")[0]
            tops[top] = tops.get(top, 0.0) + cum
    return sorted(tops.items(), key=lambda kv: -kv[1])


def profile(args: argparse.Namespace) -> dict:
    from bench.gen_graphs import generate

    kinds = _list(args.kinds or "fanout,diamond,chain", KINDS)
    sizes = [int(s) for s in (args.sizes or "1000,4000").split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="bench_xla_prof_"))
    results = {}
    print(f"byte-compiled {precompile_project()} project modules (ge-opt imports from .pyc)", flush=True)
    interp = min(run_timed([sys.executable, "-c", "pass"])[0] for _ in range(3))
    bare = min(run_timed([sys.executable, "-S", "-c", "pass"])[0] for _ in range(3))
    print(f"Python interpreter start: {interp:.3f} s (with site: the venv's .pth files; {bare:.3f} s without)")
    for k in kinds:
        for n in sizes:
            f = tmp / f"{k}-{n}.mlir"
            f.write_text(generate(k, n, args.seed))
            runs = []
            for _ in range(args.repeat):
                wall, _, _, out = run_timed(
                    [sys.executable, str(HERE / "bench_xla.py"), PHASE_WORKER_FLAG, str(f)], stdout=subprocess.PIPE
                )
                runs.append((wall, json.loads(out.strip().splitlines()[-1])))
            wall, best = min(runs, key=lambda r: r[0])
            _, _, _, out = run_timed(
                [sys.executable, str(HERE / "bench_xla.py"), PHASE_WORKER_FLAG, "--cprofile", str(f)],
                stdout=subprocess.PIPE,
            )
            prof = json.loads(out.strip().splitlines()[-1])
            results[f"{k}-{n}"] = {"wall_s": wall, "phases": best, "profile": prof}
            print_profile(f"{k} {n}", wall, interp, best, prof, args.top)
    imports = import_times(tmp / f"{kinds[0]}-{sizes[0]}.mlir")
    print("\nimports of ge-opt by top-level package (python -X importtime, cumulative s, one run):")
    for name, t in imports[:15]:
        print(f"  {name:<24} {t:.3f}")
    for p in tmp.iterdir():
        p.unlink()
    tmp.rmdir()
    return {"interpreter_s": interp, "interpreter_no_site_s": bare, "graphs": results, "imports": imports}


def print_profile(name: str, wall: float, interp: float, best: dict, prof: dict, top: int) -> None:
    times, order = best["times"], best["order"]
    in_proc = best["since_enter"]
    print(f"\n## {name}: whole process {wall:.2f} s (best of the phase runs)")
    print("| phase | s | % of process |")
    print("|---|---|---|")
    rest = wall - in_proc
    print(f"| interpreter start, exit, bench wrapper | {rest:.3f} | {100 * rest / wall:.1f} |")
    for ph in order:
        print(f"| {ph} | {times[ph]:.3f} | {100 * times[ph] / wall:.1f} |")
    for ph in order:
        t = prof["top"].get(ph)
        if not t or times[ph] < 0.05 * wall:
            continue
        print(f"\n{name}, {ph} (cProfile total {t['total_s']:.2f} s): top by own time")
        for e in t["own"][:top]:
            print(f"  {e['own_s']:7.3f} own {e['cum_s']:7.3f} cum {e['calls']:>9} calls  {e['where']}")
        print("  project functions by cumulative time:")
        for e in t["cum"][:top]:
            print(f"  {e['own_s']:7.3f} own {e['cum_s']:7.3f} cum {e['calls']:>9} calls  {e['where']}")


# =========================================================================================


def _list(spec: str, known: tuple[str, ...]) -> list[str]:
    out = [s for s in spec.split(",") if s]
    bad = [s for s in out if s not in known]
    if bad:
        raise SystemExit(f"bench_xla.py: error: unknown kind {', '.join(bad)} (known: {', '.join(known)})")
    return out


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [PHASE_WORKER_FLAG]:
        profile_worker(argv[1:])
        return
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--kinds", default=None, help=f"comma-separated generated kinds (default: all: {','.join(KINDS)})")
    ap.add_argument("--sizes", default=None, help="comma-separated node counts (default 1000,4000,16000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per side and graph; the minimum is kept")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--keep", metavar="DIR", help="write the graphs and their translations to DIR and keep them")
    ap.add_argument(
        "--profile",
        action="store_true",
        help="profile ge-opt's phases instead (default fanout,diamond,chain at 1000,4000)",
    )
    ap.add_argument("--top", type=int, default=12, help="functions listed per phase with --profile")
    ap.add_argument("--translate", metavar="FILE", help="only print the jax.numpy translation of FILE")
    ap.add_argument("-o", "--output", help="with --translate: write it here")
    args = ap.parse_args(argv)
    if args.translate:
        try:
            prog = translate_text(Path(args.translate).read_text(), args.translate)
        except Untranslatable as e:
            print(e, file=sys.stderr)
            sys.exit(1)
        if args.output:
            Path(args.output).write_text(prog.source)
        else:
            sys.stdout.write(prog.source)
        return
    if args.profile:
        data = profile(args)
    else:
        if not have_jax():
            print(f"bench_xla.py: {INSTALL_HINT}", file=sys.stderr)
            sys.exit(1)
        args.kinds = args.kinds or ",".join(KINDS)
        args.sizes = args.sizes or "1000,4000,16000"
        data = bench(args)
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
