"""The Python API (ge_tools/api.py, issue 14): builders that infer result types with the
dialect's own shape inference, GraphBuilder, parse_module / load, compile (remarks as
objects, --stats-json's figures), simulate and reference; and the parser's new home
ge_tools/parse.py, which the CLIs use."""

from __future__ import annotations

import json
import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from xdsl.dialects.builtin import IntegerType, TensorType, f16, f32, i32

from conftest import ROOT, parse, print_module
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.diagnostics import remark, remark_sink
from ge_tools import api
from ge_tools import run as ge_run
from ge_tools.parse import UserError
from ge_tools.pipeline import GeCompilePass
from runtime.graph_interpreter import ReferenceEvalError

SOFTMAX = ROOT / "examples" / "softmax_like.mlir"


def shape(v) -> tuple[int, ...]:
    return tuple(v.results[0].type.get_shape() if isinstance(v, ge.GeNode) else v.type.get_shape())


# ---------------------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------------------


def test_build_infers_the_result_types_the_verifier_infers():
    x = ge.Data.build(shape=(4, 16), dtype=f16, index=0)
    y = ge.Data.build(shape=(2, 16), dtype=f16, index=1)
    r = ge.Relu.build(x, name="r")
    c = ge.ConcatD.build([r, y], concat_dim=0)
    assert r.results[0].type == TensorType(f16, [4, 16]) and r.results[0].name_hint == "r"
    assert c.results[0].type == TensorType(f16, [6, 16])
    assert c.attributes["concat_dim"] == A.make_int(0)
    a = ge.Add.build(c, ge.Data.build(shape=(16,), dtype=f16, index=2))
    assert shape(a) == (6, 16)
    parts = ge.SplitD.build(c, split_dim=1, num_split=4)
    assert [tuple(p.type.get_shape()) for p in parts.results] == [(6, 4)] * 4
    sums = ge.ReduceSumD.build(x, axes=[1], keep_dims=True)
    assert shape(sums) == (4, 1) and shape(ge.ReduceSumD.build(x, axes=[0])) == (16,)
    t = ge.TransposeD.build(x, perm=[1, 0])
    assert shape(t) == (16, 4)
    # dtype: input 0's, or the op's own when it has one (Cast needs dtype=)
    assert ge.Cast.build(x, dtype=i32).results[0].type == TensorType(i32, [4, 16])


def test_build_on_zero_d_and_empty_tensors():
    s = ge.Data.build(shape=(), dtype=f32, index=0)
    assert shape(ge.Exp.build(s)) == ()
    e = ge.Data.build(shape=(0, 3), dtype=f32, index=1)
    z = ge.Data.build(shape=(2, 3), dtype=f32, index=2)
    assert shape(ge.ConcatD.build([e, z], concat_dim=0)) == (2, 3)
    assert shape(ge.ReduceSumD.build(e, axes=[1])) == (0,)
    # GE's concat infer: a scalar input 0 of several counts as shape [1]
    assert shape(ge.ConcatD.build([s, s], concat_dim=0)) == (2,)


@pytest.mark.parametrize("seed", range(6))
def test_broadcast_results_are_numpys(seed):
    """Add / Mul / Maximum on random broadcastable shapes (ranks 0 to 4, size-0 and size-1
    dims) get numpy's broadcast shape; non-broadcastable pairs are refused as the verifier
    refuses them."""
    rng = random.Random(seed)
    for _ in range(20):
        rank = rng.randint(0, 4)
        out = [rng.choice([0, 1, 2, 3, 5]) for _ in range(rank)]
        a = [d if rng.random() < 0.6 else 1 for d in out][rng.randint(0, rank) :]
        b = [d if rng.random() < 0.6 else 1 for d in out][rng.randint(0, rank) :]
        dt = rng.choice([f16, f32, i32])
        x = ge.Data.build(shape=a, dtype=dt, index=0)
        y = ge.Data.build(shape=b, dtype=dt, index=1)
        op = rng.choice([ge.Add, ge.Mul, ge.Maximum])
        built = op.build(x, y)
        assert shape(built) == np.broadcast_shapes(tuple(a), tuple(b))
        assert built.results[0].type.element_type == dt
    x = ge.Data.build(shape=(3, 4), dtype=f32, index=0)
    y = ge.Data.build(shape=(5,), dtype=f32, index=1)
    with pytest.raises(ValueError, match=r"ge.Add.build: input shapes 3x4 and 5 do not broadcast"):
        ge.Add.build(x, y)


def test_a_refused_build_leaves_no_trace():
    x = ge.Data.build(shape=(4, 16), dtype=f16, index=0)
    y = ge.Data.build(shape=(4, 8), dtype=f16, index=1)
    with pytest.raises(ValueError, match="ge.ConcatD.build: input 1 has shape 4x8; all inputs must match input 0"):
        ge.ConcatD.build([x, y], concat_dim=0)
    with pytest.raises(ValueError, match="ge.Cast.build: give dtype="):
        ge.Cast.build(x)
    with pytest.raises(ValueError, match="ge.Reshape.build: give shape="):
        ge.Reshape.build(x)
    with pytest.raises(ValueError, match="changes the element count"):
        ge.Reshape.build(x, shape=[65])
    with pytest.raises(ValueError, match="attribute 'axes' must be a list of integers"):
        ge.ReduceSumD.build(x, axes="a")
    assert not list(x.results[0].uses) and not list(y.results[0].uses)
    with pytest.raises(ValueError, match="cannot split a scalar"):
        with api.GraphBuilder("g") as g:
            s = g.data((), f32)
            ge.SplitD.build(s, split_dim=0, num_split=1)
    assert [op.name for op in g.block.ops] == ["ge.Data"]  # neither the probe nor the node


def test_const_from_numpy():
    c = api.const(np.arange(6, dtype=np.int32).reshape(2, 3), name="k")
    assert c.results[0].type == TensorType(i32, [2, 3]) and c.results[0].name_hint == "k"
    b = api.const(np.array([True, False]))
    assert b.results[0].type == TensorType(IntegerType(1), [2])
    with api.GraphBuilder("main") as g:
        v = g.const([1.5, -2.0], f16)
        g.output(ge.Neg.build(v))
    (out,) = api.reference(g.module, [])
    assert out.dtype == np.float16 and out.tolist() == [-1.5, 2.0]


def test_graph_builder_makes_the_graph_the_parser_makes():
    with api.GraphBuilder("main") as g:
        x = g.data((4, 16), f16, name="x")
        y = g.data((4, 16), f16)
        r = ge.Relu.build(x, name="r")
        g.output(ge.ConcatD.build([r, y], concat_dim=0, name="c"), r)
    text = print_module(g.module)
    again = parse(text)
    assert print_module(again) == text
    assert [ge.node_name(op) for op in g.graph.body.block.ops] == ["x", "Data_0", "r", "c", "NetOutput"]
    assert [d.int_attr("index") for d in g.graph.data_nodes] == [0, 1]
    with pytest.raises(ValueError, match="no NetOutput"):
        with api.GraphBuilder("empty"):
            pass


# ---------------------------------------------------------------------------------------
# Parsing and loading
# ---------------------------------------------------------------------------------------


def test_parse_module_reads_text_and_bytes_and_names_nodes():
    text = SOFTMAX.read_text()
    m = api.parse_module(text, "softmax.mlir")
    assert print_module(m) == print_module(api.parse_module(text.encode(), "softmax.mlir"))
    nameless = "ge.graph @main {\n  %0 = ge.Data {index = 0} : tensor<2xf32>\n  ge.NetOutput %0 : tensor<2xf32>\n}\n"
    (graph,) = api.parse_module(nameless).ops
    assert [ge.node_name(op) for op in graph.body.block.ops] == ["Data_0", "NetOutput"]
    with pytest.raises(UserError, match=r"^t.mlir:1:1: error: expected an operation, got '}'"):
        api.parse_module("}", "t.mlir")
    with pytest.raises(UserError, match=r"^b.mlir:1:3: error: byte 0xFF is not valid UTF-8"):
        api.parse_module(b"  \xff", "b.mlir")


def test_load_reads_ir_and_onnx(tmp_path):
    assert print_module(api.load(str(SOFTMAX))) == print_module(api.parse_module(SOFTMAX.read_text(), str(SOFTMAX)))
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])],
    )
    path = tmp_path / "relu.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    m = api.load(str(path), input_shapes={"x": (2, 3)})
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    assert api.reference(m, [x])[0].tolist() == np.maximum(x, 0).tolist()


def test_the_parser_lives_in_ge_tools_parse():
    from ge_tools import opt, parse, workflow
    from ge_tools import run as R

    assert opt.parse_module is parse.parse_module and R.parse_module is parse.parse_module
    assert workflow.parse_module is parse.parse_module
    for name in ("LocatedParser", "GeLexer", "decode_input", "_line_starts", "_nesting_error"):
        assert hasattr(parse, name) and not hasattr(opt, name), name


# ---------------------------------------------------------------------------------------
# compile, simulate, reference
# ---------------------------------------------------------------------------------------


def softmax_graph() -> api.GraphBuilder:
    with api.GraphBuilder("main") as g:
        x = g.data((8, 64), f32, name="x")
        m = ge.ReduceMaxD.build(x, axes=[-1], keep_dims=True, name="m")
        e = ge.Exp.build(ge.Sub.build(x, m, name="d"), name="e")
        s = ge.ReduceSumD.build(e, axes=[1], keep_dims=True, name="s")
        g.output(ge.RealDiv.build(e, s, name="y"))
    return g


def test_compile_returns_remarks_as_objects_naming_built_nodes(capsys):
    g = softmax_graph()
    before = print_module(g.module)
    result = api.compile(g.module, enable_pass=("reduce",))
    assert print_module(g.module) == before  # the input is not compiled in place
    assert capsys.readouterr().err == ""  # remarks go to the result, not to stderr
    assert all(r.pass_name is not None for r in result.remarks)
    lowered = [r for r in result.remarks if r.pass_name == "ge-lower-autofuse"]
    # each lowering remark names the built node first, then the AscBackend it became
    assert [r.nodes[0] for r in lowered] == ["m", "d", "e", "s", "y"]
    assert lowered[0].nodes == ("m", "autofuse_reduce_0_ReduceMaxD")
    assert lowered[0].message.startswith("ReduceMaxD 'm': lowered into autofuse_reduce_0_ReduceMaxD")
    refused = [r for r in result.remarks if r.rule == "ReduceCanNotFuseHorizontal"]
    assert refused and all(r.pass_name == "ge-autofuse" and r.nf_code == "NF1021" for r in refused)
    assert {r.location for r in result.remarks} == {"<unknown>:0:0"}  # no file: names carry it
    assert result.stats["kernels"] == 2 and result.stats["graph"] == "main"
    assert [p for p in result.stats["passes"]] == [p.name for p in GeCompilePass().passes()]
    assert api.compile(g.module).stats["kernels"] == 4  # without the reduce class


def test_compile_stats_are_ge_runs_and_remarks_its_lines(tmp_path, capsys):
    stats = tmp_path / "stats.json"
    assert ge_run.run([str(SOFTMAX), "--enable-pass", "reduce", "--remarks", "--stats-json", str(stats)]) == 0
    lines = capsys.readouterr().err.splitlines()
    written = json.loads(stats.read_text())
    result = api.compile(api.load(str(SOFTMAX)), "ge-compile", enable_pass=["reduce"])
    for k, v in result.stats.items():
        assert written[k] == v, k
    assert set(result.stats) >= {"outputs", "tasks", "kernels", "memory_size", "memory_lower_bound", "no_task_nodes"}
    assert result.stats["outputs"] == [{"index": 0, "name": "y:0", "shape": [8, 64], "dtype": "float32"}]
    assert [r.line() for r in result.remarks] == lines


def test_compile_pipeline_errors_are_the_command_lines():
    g = softmax_graph()
    with pytest.raises(UserError, match=r"unknown option 'enable-passes'.*did you mean 'enable-pass'"):
        api.compile(g.module, enable_passes=("reduce",))
    with pytest.raises(UserError, match="option streams: expected 1 or 2, got 3"):
        api.compile(g.module, streams=3)
    with pytest.raises(UserError, match="unknown pass 'ge-compil'; did you mean 'ge-compile'"):
        api.compile(g.module, "ge-compil")
    with pytest.raises(UserError, match="apply to a pipeline of one pass"):
        api.compile(g.module, "ge-lower-autofuse,ge-autofuse", enable_pass=("reduce",))
    partial = api.compile(g.module, "ge-lower-autofuse{enable-pass=reduce},ge-autofuse")
    assert "tasks" not in partial.stats and partial.model() is None


@pytest.mark.parametrize("streams", [1, 2])
def test_simulate_and_reference_agree_with_numpy(streams):
    g = softmax_graph()
    x = np.random.default_rng(streams).uniform(-3, 3, (8, 64)).astype(np.float32)
    want = np.exp(x - x.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    (ref,) = api.reference(g.module, {"x": x})
    assert np.allclose(ref, want, rtol=1e-5, atol=1e-7)
    run = api.simulate(g.module, [x], executions=3, streams=streams)
    assert len(run.runs) == 3 and run.stats["executions"] == 3 and run.stats["streams"] == streams
    assert all(np.allclose(r[0], want, rtol=1e-5, atol=1e-7) for r in run.runs)
    compiled = api.compile(g.module, streams=streams)
    again = api.simulate(compiled.module, [x])
    assert np.array_equal(again.outputs[0], run.outputs[0])
    model = compiled.model()
    assert model is not None and np.array_equal(api.simulate(model, [x]).outputs[0], run.outputs[0])
    with pytest.raises(ValueError, match=f"runs on {streams} stream"):
        api.simulate(model, [x], streams=3 - streams)


@pytest.mark.parametrize("parts", [2, 3, 5])
def test_simulate_returns_every_output_not_one_per_input(parts):
    # a graph with fewer inputs than outputs: simulate returned only as many outputs as
    # there were inputs (it named the outputs by the inputs' count)
    with api.GraphBuilder("main") as g:
        x = g.data((parts * 2, 3), f32, name="x")
        g.output(ge.SplitD.build(x, split_dim=0, num_split=parts, name="s"))
    x = np.arange(parts * 6, dtype=np.float32).reshape(parts * 2, 3)
    want = np.split(x, parts)
    compiled = api.compile(g.module)
    model = compiled.model()
    assert model is not None
    for run in (api.simulate(g.module, [x]), api.simulate(compiled.module, [x]), api.simulate(model, [x])):
        assert len(run.outputs) == parts
        assert all(np.array_equal(o, w) for o, w in zip(run.outputs, want))


@pytest.mark.parametrize("name", ["dynamic_mlp.mlir", "dynamic_batch.mlir"])
def test_simulate_and_reference_run_what_ge_run_runs_dynamically(name):
    # a graph of unknown dims (flat, or already partitioned) compiles to no static root
    # model: api.simulate compiled it with ge-compile and asserted that the root had one;
    # now it runs as ge-run does (compile_dynamic, the dynamic executor)
    module = api.load(str(ROOT / "examples" / name))
    for batch in (1, 5):
        x = np.random.default_rng(batch).uniform(-1, 1, (batch, 32)).astype(np.float32)
        ref = api.reference(module, [x])
        h = np.maximum(x * 2, 0)
        assert np.allclose(ref[1], h) and ref[0].shape == (1, 4)
        run = api.simulate(module, [x], executions=2)
        assert len(run.runs) == 2 and run.stats["executions"] == 2
        assert [h["execution"] for h in run.stats["dynamic"]["executions"]] == [0, 1]  # type: ignore[index]
        for got, want in zip(run.outputs, ref):
            assert got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6)
    # None: ge-run's random inputs, an unknown dim of ge-run's default size
    (y, h) = api.simulate(module, seed=3).outputs
    assert h.shape == (ge_run.DEFAULT_DIM, 32)
    assert np.allclose(y, api.reference(module, seed=3)[0], rtol=1e-5, atol=1e-6)


def test_inputs_are_checked():
    g = softmax_graph()
    with pytest.raises(ValueError, match=r"takes inputs \['x'\]; unknown \['y'\], missing \['x'\]"):
        api.reference(g.module, {"y": np.zeros((8, 64), np.float32)})
    with pytest.raises(ValueError, match="takes 1 inputs, 2 given"):
        api.simulate(g.module, [np.zeros((8, 64))] * 2)
    with pytest.raises(ReferenceEvalError, match="input 0"):
        api.reference(g.module, [np.zeros((8, 63), np.float32)])
    # None: ge-run's seeded random inputs
    assert np.array_equal(api.reference(g.module, seed=4)[0], api.reference(g.module, seed=4)[0])


def test_a_remark_names_its_node_by_default():
    with api.GraphBuilder("main") as g:
        x = g.data((2,), f32, name="x")
        g.output(ge.Relu.build(x))
    got = []
    relu = next(op for op in g.graph.body.block.ops if isinstance(op, ge.Relu))
    with remark_sink(got.append):
        remark(relu, "about the relu")
        remark(g.graph, "about the graph")
        remark(relu, "about two", nodes=("a", "b"))
        remark(ge.Relu.create(operands=[x], result_types=[x.type]), "unnamed")
    assert [r.nodes for r in got] == [("Relu_0",), (), ("a", "b"), ()]


def test_the_api_names_only_public_things():
    for name in api.__all__:
        assert not name.startswith("_") and getattr(api, name).__doc__, name
