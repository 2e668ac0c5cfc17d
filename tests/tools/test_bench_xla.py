"""The compile-time benchmark against XLA (bench/bench_xla.py) keeps working without JAX.

The translator (a verified ge graph -> the source of a jax.numpy function) is plain Python
over the project's IR: these tests run it on small generated graphs of every kind and
count what it emitted (one argument per Data, one assignment per computing node, the
node-type census), and parse the rows of ge-opt's --time-passes report the bench sums. JAX itself is a
benchmark-only dependency (`pip install -e '.[bench]'`); only the last test, which
evaluates a translation and compares it with the reference interpreter, needs it and is
skipped without it. No timing is asserted.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from bench import bench_xla as X
from bench.gen_graphs import KINDS, generate
from conftest import README_PIPELINE, ROOT, inputs_for, parse
from ge_dialect.ge import GraphOp, ge_type
from runtime.interpreter import run_module

GE_OPT = str(ROOT / ".venv" / "bin" / "ge-opt")


def _ops(text: str) -> list:
    (graph,) = [op for op in parse(text).ops if isinstance(op, GraphOp)]
    return list(graph.body.block.ops)


def _assignments(source: str) -> list[ast.Assign]:
    """The statements of f's body that bind values (the return excluded)."""
    mod = ast.parse(source)
    (f,) = [n for n in mod.body if isinstance(n, ast.FunctionDef) and n.name == "f"]
    return [s for s in f.body if isinstance(s, ast.Assign)]


@pytest.mark.parametrize("kind", KINDS)
def test_translation_counts(kind: str) -> None:
    text = generate(kind, 120, 2)
    ops = _ops(text)
    prog = X.translate_text(text)
    census = Counter(ge_type(op) for op in ops)
    assert prog.nodes == len(ops) == 120
    assert prog.kinds == dict(census)
    # one argument per Data, with its shape and dtype
    f = next(n for n in ast.parse(prog.source).body if isinstance(n, ast.FunctionDef))
    assert [a.arg for a in f.args.args] == [f"x{i}" for i in range(census["Data"])]
    assert len(prog.inputs) == census["Data"]
    # one assignment per node that computes (Identity is an alias, Data an argument)
    computing = len(ops) - census["Data"] - census["NetOutput"] - census["Identity"]
    assert len(_assignments(prog.source)) == computing
    # every returned name is bound; as many as the NetOutput's operands
    ret = f.body[-1]
    assert isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple)
    assert len(ret.value.elts) == len(ops[-1].operands)
    compile(prog.source, "<translation>", "exec")  # valid Python without importing jax


def test_untranslatable_node_is_one_located_error() -> None:
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.Shape(%x) : (tensor<4xf32>) -> tensor<1xi32>
  ge.NetOutput %y : tensor<1xi32>
}
"""
    with pytest.raises(X.Untranslatable) as e:
        X.translate_text(text, "g.mlir")
    msg = str(e.value)
    assert msg.startswith("g.mlir:3:3: error: ") and "Shape has no jax.numpy translation" in msg


def test_precompile_writes_each_stale_module_once(tmp_path, monkeypatch) -> None:
    """Both sides of the benchmark import from bytecode: precompile_project writes a .pyc
    for every project module that has none or an outdated one (also under
    PYTHONDONTWRITEBYTECODE, which the test sets), and nothing for a fresh one."""
    import importlib.util
    import os

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(X, "ROOT", tmp_path)
    monkeypatch.setattr(X, "PACKAGES", ("pkg_a", "pkg_b"))
    for rel in ("pkg_a/__init__.py", "pkg_a/sub/mod.py", "pkg_b/__init__.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("X = 1\n")
    assert X.precompile_project() == 3
    assert Path(importlib.util.cache_from_source(str(tmp_path / "pkg_a/sub/mod.py"))).exists()
    assert X.precompile_project() == 0  # all fresh
    src = tmp_path / "pkg_b/__init__.py"
    src.write_text("X = 2\n")
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))  # an edit, seconds later
    assert X.precompile_project() == 1


def test_pass_times_sums_ge_opt_lines(tmp_path) -> None:
    f = tmp_path / "g.mlir"
    f.write_text(generate("diamond", 60, 1))
    out = subprocess.run(
        [GE_OPT, "-p", "ge-compile", "--time-passes", str(f), "-o", str(tmp_path / "out.mlir")],
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    times = X.pass_times(out)
    # ge-compile's passes (--time-passes' report on stderr), ge-phony-notask's two stages
    # apart; a pass that runs twice (the folding passes) is one row; no verify, no Total
    assert sorted(times) == sorted(set(README_PIPELINE))
    assert all(t >= 0 for t in times.values())
    report = "  Total Execution Time: 1.7500 seconds\n    1.5000 ( 85.7%)  a\n    0.2500 ( 14.3%)  verify\n"
    assert X.pass_times(report + "    1.7500 (100.0%)  Total\nnoise\n") == {"a": 1.5}


@pytest.mark.parametrize("kind", ["chain", "diamond", "fanout", "concat_tree", "mixed"])
def test_translation_matches_the_reference(kind: str) -> None:
    pytest.importorskip("jax", reason="the bench extra (JAX) is not installed")
    text = generate(kind, 150, 4)
    module = parse(text)
    ins = inputs_for(module, 0)
    want = run_module(module, ins)
    f = X.load(X.translate_text(text))
    got = f(*ins)
    assert len(got) == len(want)
    for w, g in zip(want, got):
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype
        # XLA keeps f16 intermediates of a fused chain in f32, numpy rounds each op
        tol = 2e-2 if w.dtype == np.float16 else 1e-4
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol, atol=tol)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
