"""Anchored judgment (runtime/anchored.py, docs/tolerance.md "Anchored judgment"): each
compiled step, and each onnxruntime node, judged against the reference on the inputs it
read, so bounds never compound beyond one step.

* A deep chain (40 MatMul + LayerNormalization layers) whose end-to-end bounds become
  infinite: ge-run judges every output element step by step and passes.
* Faults: one kernel's output moved by far more than its step's bound (in every execution
  of the simulator), one of onnxruntime's intermediate values moved, and one final output
  element moved: each is reported, the kernel at its ONNX node as the first wrong step.
* Random graphs (tests/random_graphs.py): `ge-run --anchored` judges every step and passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, numpy_helper
from onnx import helper as oh

from conftest import run_cli
from ge_dialect import ge
from ge_tools import onnx_oracle
from ge_tools import run as R
from ge_tools.run import main
from random_graphs import Options, graph_text
from runtime import anchored as AN
from runtime.reference import select_graph
from runtime.simulator import LoadedModel

LAYERS, WIDTH, ROWS = 40, 64, 4
FAULTY = "matmul_20"  # the node whose kernel the fault tests break
MASKED = Options(without=frozenset({"numeric_names", "mixed_names", "identity", "zero_d", "phony", "padded_formats"}))


def deep_chain(layers: int = LAYERS, d: int = WIDTH, rows: int = ROWS, seed: int = 0) -> onnx.ModelProto:
    """x -> (MatMul by a random [-1, 1) weight, LayerNormalization) x layers: an untrained
    network's growth of the worst-case bound, about sqrt(d) per layer."""
    rng = np.random.default_rng(seed)
    nodes, inits, x = [], [], "x"
    for i in range(layers):
        inits += [
            numpy_helper.from_array(rng.uniform(-1, 1, (d, d)).astype(np.float32), f"w{i}"),
            numpy_helper.from_array(rng.uniform(0.5, 1.5, d).astype(np.float32), f"g{i}"),
            numpy_helper.from_array(rng.uniform(-0.1, 0.1, d).astype(np.float32), f"b{i}"),
        ]
        nodes.append(oh.make_node("MatMul", [x, f"w{i}"], [f"m{i}"], name=f"matmul_{i}"))
        nodes.append(oh.make_node("LayerNormalization", [f"m{i}", f"g{i}", f"b{i}"], [f"y{i}"], name=f"ln_{i}"))
        x = f"y{i}"
    graph = oh.make_graph(
        nodes,
        "deep",
        [oh.make_tensor_value_info("x", TensorProto.FLOAT, [rows, d])],
        [oh.make_tensor_value_info(x, TensorProto.FLOAT, [rows, d])],
        inits,
    )
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 17)])


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("anchored") / "chain.onnx"
    onnx.save(deep_chain(), str(path))
    return path


def _ge_run(path: Path, tmp_path: Path, *flags: str) -> tuple[int, str, dict]:
    stats = tmp_path / "stats.json"
    code, out, err = run_cli(main, [str(path), "--seed", "0", "--stats-json", str(stats), *flags])
    return code, out + err, json.loads(stats.read_text()) if stats.exists() else {}


def test_deep_chain_is_undecidable_end_to_end_and_judged_anchored(chain: Path, tmp_path: Path) -> None:
    code, out, stats = _ge_run(chain, tmp_path)
    assert code == 0, out
    assert "outputs match the reference" in out and "outputs match onnxruntime" in out, out
    # every element's end-to-end bound is infinite: each is judged step by step
    assert stats["anchored_elements"] == ROWS * WIDTH, out
    assert stats["unbounded_elements"] == 0 and stats["mismatch_count"] == 0, out
    assert stats["anchored_steps"] >= 2 * LAYERS, out
    assert f"({ROWS * WIDTH} of {ROWS * WIDTH} elements judged step by step)" in out, out
    # without the anchored judgment the same run is inconclusive
    module = R.read_input(R.context(), R.build_arg_parser().parse_args([str(chain)]))
    graph = select_graph(module, None)
    ins = R.make_inputs(R.build_arg_parser().parse_args([str(chain), "--seed", "0"]), graph)
    (e,) = R.output_error_bounds(graph, ins)
    assert np.all(np.isinf(e))


def _break_kernel(monkeypatch: pytest.MonkeyPatch, node: str, at: tuple[int, ...], by: float) -> None:
    """Every simulator execution: the kernel of GE node `node` writes output 0 with element
    `at` moved by `by` times (1 + its magnitude)."""
    init = LoadedModel.__init__

    def patched(self: LoadedModel, *a: object, **k: object) -> None:
        init(self, *a, **k)  # type: ignore[arg-type]
        for t in self.tasks:
            if t.node == node:
                run, shape = t.run, t.outs[0].shape

                def faulty(args: list[np.ndarray], dst: list, run: object = run, shape: tuple = shape) -> list:
                    res = [np.array(r, copy=True) for r in run(args, dst)]  # type: ignore[operator]
                    r0 = res[0].reshape(shape)
                    r0[at] += by * (1 + abs(float(r0[at])))
                    res[0] = r0
                    return res

                t.run = faulty

    monkeypatch.setattr(LoadedModel, "__init__", patched)


def test_a_wrong_kernel_deep_in_the_chain_is_the_first_wrong_step(
    chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MatMul 20's kernel off by 1e-2 relative at one element (its step's tolerance is
    about 1e-4 there): the end-to-end bounds cannot see it, the anchored judgment names
    that node, and only it (every later step is judged on the values it really read)."""
    _break_kernel(monkeypatch, FAULTY, (1, 5), 1e-2)
    code, out, stats = _ge_run(chain, tmp_path)
    assert code == 1, out
    assert "outputs do not match the reference" in out, out
    wrong = [ln for ln in out.splitlines() if "outside the tolerance on the inputs" in ln]
    assert len(wrong) == 1, out
    assert f"node '{FAULTY}' (MatMul)" in wrong[0] and f"step '{FAULTY}' (MatMul) output 0" in wrong[0], out
    assert "first at [1, 5]" in wrong[0], out
    assert stats["mismatch_count"] >= 1, out


def test_a_kernel_off_by_less_than_its_bound_passes(
    chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same element moved by a tenth of its reordering freedom is no fault."""
    _break_kernel(monkeypatch, FAULTY, (1, 5), 1e-7)
    code, out, _ = _ge_run(chain, tmp_path)
    assert code == 0, out


def test_a_wrong_onnxruntime_node_is_reported(chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """onnxruntime's intermediate value of MatMul 20 moved: its node is the first wrong
    step of onnxruntime, and the comparison with onnxruntime fails. (LayerNorm 20, which
    onnxruntime fed the unmoved value, is then judged wrong too: on the value given.)"""
    run = onnx_oracle.run_onnxruntime

    def moved(path: str, inputs: list[np.ndarray], extra: dict | None = None) -> tuple[list[str], list[np.ndarray]]:
        names, values = run(path, inputs, extra)
        if extra:
            k = names.index("m20")
            values[k] = values[k].copy()
            values[k][2, 3] += 1e-2 * (1 + abs(float(values[k][2, 3])))
        return names, values

    monkeypatch.setattr(onnx_oracle, "run_onnxruntime", moved)
    code, out, _ = _ge_run(chain, tmp_path)
    assert code == 1, out
    assert "outputs match the reference" in out, out
    assert "outputs do not match onnxruntime" in out, out
    wrong = [ln for ln in out.splitlines() if "on the inputs onnxruntime read" in ln]
    assert "node 'matmul_20' (MatMul)" in wrong[0] and "first at [2, 3]" in wrong[0], out
    assert all("_20'" in ln for ln in wrong), out


def _simulated(path: Path) -> tuple[ge.GraphOp, list[np.ndarray], AN.Verdict, list[np.ndarray]]:
    args = R.build_arg_parser().parse_args([str(path), "--seed", "0"])
    ctx = R.context()
    module = R.read_input(ctx, args)
    graph = select_graph(module, None)
    compiled = R.compile_module(ctx, R.compile_pipeline(args), module)
    model = R.find_model(compiled, graph.sym_name.data)
    assert model is not None
    ins = R.make_inputs(args, graph)
    v, outs = AN.judge_simulator(model, graph, ins, (), R.within_tolerance)
    return graph, ins, v, outs


def test_one_final_output_element_moved_is_reported(chain: Path) -> None:
    """A final output element moved by just more than its last step's tolerance (10x its
    bound plus the fixed tolerance) is outside; by a tenth of that it is not; no other
    element is flagged."""
    _, _, v, outs = _simulated(chain)
    assert v.steps >= 2 * LAYERS and not v.wrong and not v.undecided
    bad, unjudged = v.outputs(outs, R.within_tolerance)
    assert not np.any(bad[0]) and not np.any(unjudged[0])
    rng = np.random.default_rng(3)
    for _ in range(5):
        at = tuple(int(rng.integers(0, n)) for n in outs[0].shape)
        ref, e = float(v.refs[0][at]), float(v.bounds[0][at])
        tol = R.ATOL + R.RTOL * abs(ref) + e
        for scale, flagged in ((10.0, True), (0.1, False)):
            got = [outs[0].copy()]
            got[0][at] = np.float32(ref + scale * tol)
            b, _ = v.outputs(got, R.within_tolerance)
            assert bool(b[0][at]) is flagged, (at, scale)
            assert int(np.count_nonzero(b[0])) == int(flagged)


def test_an_anchor_is_the_producers_value_not_the_consumers_read(chain: Path) -> None:
    """The kernels' captured outputs are the graph's values by node name, shape and dtype:
    every MatMul and LayerNorm of the chain is anchored."""
    graph, ins, v, _ = _simulated(chain)
    names = {ge.node_name(op) for op in graph.body.block.ops}
    assert {f"matmul_{i}" for i in range(LAYERS)} <= names
    assert v.steps >= 2 * LAYERS


@pytest.mark.parametrize("seed", range(2000, 2006))
def test_random_graphs_are_judged_step_by_step(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "g.mlir"
    path.write_text(graph_text(seed, MASKED))
    code, out, stats = _ge_run(path, tmp_path, "--anchored")
    assert code == 0, out
    assert "outputs match the reference" in out, out
    assert stats["anchored_steps"] > 0, out
    assert "outside the tolerance on the inputs" not in out, out


def test_onnxruntime_refusing_its_intermediates_leaves_the_comparison_inconclusive(
    chain: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No anchored judgment against onnxruntime: its elements stay undecidable (exit 1),
    said in one line; the comparison with the reference still passes."""

    def refuse(path: str, inputs: list[np.ndarray]) -> None:
        raise onnx_oracle.UserError(f"{path}: error: onnxruntime cannot load the model: refused")

    monkeypatch.setattr(onnx_oracle, "onnxruntime_anchors", refuse)
    code, out, _ = _ge_run(chain, tmp_path)
    assert code == 1, out
    assert "outputs match the reference" in out, out
    assert "no anchored judgment:" in out and "comparison with onnxruntime inconclusive" in out, out


@pytest.mark.parametrize("seed", range(2006, 2009))
def test_random_graphs_on_two_streams_are_judged_step_by_step(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "g.mlir"
    path.write_text(graph_text(seed, MASKED))
    code, out, stats = _ge_run(path, tmp_path, "--anchored", "--streams", "2", "--executions", "2")
    assert code == 0, out
    # a graph whose kernels all are fused AscBackends materialises none of its values
    assert stats["unbounded_elements"] == 0 and stats["mismatch_count"] == 0, out
