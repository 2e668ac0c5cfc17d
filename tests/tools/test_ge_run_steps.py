"""ge-run's steps (ge_tools/run.py), each usable alone: read, inputs, compile with the
pipeline object, find the model, simulate, compare, report."""

from __future__ import annotations

import pytest
from xdsl.passes import PassPipeline

from conftest import ROOT
from ge_dialect import npu
from ge_tools import run as R
from ge_tools.opt import context
from ge_tools.pipeline import GeCompilePass
from ge_tools.pipeline_spec import pass_spec
from runtime.reference import select_graph

EXAMPLE = str(ROOT / "examples" / "split_relu_concat.mlir")


def args(*argv: str):
    return R.build_arg_parser().parse_args([EXAMPLE, *argv])


@pytest.mark.parametrize("streams", [1, 2])
def test_the_steps_compile_simulate_and_compare(streams, capsys):
    a = args("--streams", str(streams), "--executions", "2", "--seed", "3")
    pipeline = R.compile_pipeline(a)
    assert isinstance(pipeline, PassPipeline)
    assert [pass_spec(p) for p in pipeline.passes] == [pass_spec(p) for p in GeCompilePass(streams=streams).passes()]
    ctx = context()
    module = R.read_module(ctx, EXAMPLE)
    graph = select_graph(module)
    inputs = R.make_inputs(a, graph)
    compiled = R.compile_module(ctx, pipeline, module)
    assert not any(isinstance(o, npu.ModelOp) for o in module.ops)  # the original is kept
    model = R.find_model(compiled, "main")
    assert model is not None and model.streams.value.data == streams
    sim = R.simulate_model(model, inputs, R.output_names(graph), 2, ())
    assert len(sim.runs) == 2 and len(sim.refreshed) == 2
    ref = R._evaluate(graph, inputs)
    c = R.compare_runs(ref, sim.runs, [])
    assert c.mismatches == 0 and c.report == [] and c.max_error == 0.0
    assert R.report_comparison(c, sim.runs[-1], False) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "outputs match the reference"
    figures = R.report_simulation(sim, 2)
    assert figures["executions"] == 2 and figures["streams"] == streams


def test_a_mismatch_is_reported_per_execution(capsys):
    a = args("--executions", "2")
    ctx = context()
    module = R.read_module(ctx, EXAMPLE)
    graph = select_graph(module)
    inputs = R.make_inputs(a, graph)
    ref = R._evaluate(graph, inputs)
    bad = [R.Output(o.index, o.name, o.array.copy()) for o in ref]
    bad[0].array.flat[5] += 1
    c = R.compare_runs(ref, [ref, bad], [])
    assert c.mismatches == 1
    assert c.report == [f"execution 1: {line}" for line in R.compare(ref, bad)[1]]
    assert R.report_comparison(c, bad, False) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "outputs do not match the reference (1 elements differ)"


def test_reference_mode_runs_no_pass():
    assert R.compile_pipeline(args("--reference")).passes == ()
