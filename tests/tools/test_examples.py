"""Every example parses, verifies, round-trips (custom and generic syntax) and, once the
reference interpreter exists, runs on it with finite outputs of the declared shapes."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.parser import Parser
from xdsl.printer import Printer

from conftest import EXAMPLES
from ge_dialect import ge
from ge_dialect.desc import tensor_desc
from ge_dialect.dtypes import numpy_dtype
from ge_tools.registry import make_context
from runtime.interpreter import run_module


def _context() -> Context:
    return make_context()


def _parse(text: str, name: str = "<example>") -> ModuleOp:
    module = Parser(_context(), text, name).parse_module()
    module.verify()
    return module


def _print(module: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


def test_the_examples_exist():
    names = {p.name for p in EXAMPLES}
    for required in (
        "allgather_concat.mlir",
        "split_relu_concat.mlir",
        "phony_concat_split.mlir",
        "softmax_like.mlir",
        "residual_conv.mlir",
        "nc1hwc0.mlir",
    ):
        assert required in names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_has_a_header_comment(path: Path):
    assert path.read_text().startswith("//"), "each example starts with a comment explaining it"


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_round_trips(path: Path, generic: bool):
    module = _parse(path.read_text(), str(path))
    graphs = [op for op in module.ops if isinstance(op, ge.GraphOp)]
    assert graphs, "an example holds at least one ge.graph"
    first = _print(module, generic)
    again = _parse(first)
    # Printing the re-parsed module in the custom syntax gives the same text as printing
    # the original: nothing is lost or changed by either syntax.
    assert _print(again) == _print(module)
    assert again.is_structurally_equivalent(module)


def _random_inputs(graph: ge.GraphOp, rng: np.random.Generator) -> list[np.ndarray]:
    inputs = []
    for d in graph.data_nodes:
        t = d.results[0].type
        assert isinstance(t, TensorType)
        shape = tensor_desc(t).shape
        assert shape is not None
        inputs.append(rng.standard_normal(shape).astype(numpy_dtype(t.element_type)))
    return inputs


def _run(path: Path) -> tuple[list[np.ndarray], list[np.ndarray], ge.GraphOp]:
    module = _parse(path.read_text(), str(path))
    main = next(op for op in module.ops if isinstance(op, ge.GraphOp))
    inputs = _random_inputs(main, np.random.default_rng(0))
    return inputs, [np.asarray(o) for o in run_module(module, inputs)], main


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs_on_the_reference(path: Path):
    _, outputs, main = _run(path)
    declared = [v.type for v in main.net_output.operands]
    assert len(outputs) == len(declared)
    for out, t in zip(outputs, declared):
        assert out.shape == tuple(t.get_shape())
        assert out.dtype == numpy_dtype(t.element_type)
        assert np.all(np.isfinite(out.astype(np.float64)))


# Known answers, computed here with numpy independently of the reference interpreter.


def _example(name: str) -> Path:
    return next(p for p in EXAMPLES if p.name == name)


def test_split_relu_concat_is_relu():
    # Split on dim 0, Relu each block, concat on dim 0: the blocks go back in order.
    (x,), (y,), _ = _run(_example("split_relu_concat.mlir"))
    np.testing.assert_array_equal(y, np.maximum(x, 0))


def test_softmax_matches_numpy():
    (x,), (y,), _ = _run(_example("softmax_like.mlir"))
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=-1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(y.sum(axis=-1), 1.0, rtol=1e-6)


def test_subgraph_call_matches_numpy():
    (x, b), (z,), _ = _run(_example("subgraph_call.mlir"))
    t = x + b
    want = np.maximum(np.concatenate([np.maximum(t[:2], 0), np.tanh(t[2:])]), 0)
    np.testing.assert_allclose(z, want, rtol=1e-6)


def test_phony_concat_split_matches_numpy():
    # PhonyConcat with concat_dim [3, 1], N [2, 2]: input k sits at slice (k % 2) of dim 3
    # and (k // 2) of dim 1 (the first listed axis varies fastest, GE's GetConcatOffset);
    # PhonySplit with split_dim [1, 3], num_split [2, 2]: output k is slice (k // 2) of dim 1
    # and (k % 2) of dim 3 (the last listed axis varies fastest, GetSplitOffset).
    # Pieces 1x1x1x4x8, block 1x2x1x8x8 (dim 1: 1 * 2, dim 3: 4 * 2).
    (x, y), outs, _ = _run(_example("phony_concat_split.mlir"))
    m = [x * y, x * x, y * y, y * x]
    block = np.empty((1, 2, 1, 8, 8), dtype=x.dtype)
    for k, piece in enumerate(m):
        d3, d1 = k % 2, k // 2
        block[:, d1 : d1 + 1, :, 4 * d3 : 4 * d3 + 4, :] = piece
    s = block + block
    pieces = [s[:, k // 2 : k // 2 + 1, :, 4 * (k % 2) : 4 * (k % 2) + 4, :] for k in range(4)]
    want = [pieces[0] * x, pieces[1] * x, pieces[2] * y, pieces[3] * y]
    for got, w in zip(outs, want):
        np.testing.assert_array_equal(got, w)
