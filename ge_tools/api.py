"""The Python API of ge-xdsl: what ge-opt and ge-run do, without the command line.

    import numpy as np
    from xdsl.dialects.builtin import f32
    from ge_dialect import ge
    from ge_tools import api

    with api.GraphBuilder("main") as g:
        x = g.data((4, 16), f32, name="x")
        r = ge.Relu.build(x, name="r")
        g.output(ge.ConcatD.build([r, x], concat_dim=0, name="c"))
    result = api.compile(g.module, enable_pass=("concat",))
    for remark in result.remarks:
        print(remark.pass_name, remark.rule, remark.nodes, remark.message)
    outputs = api.simulate(result.module, [np.ones((4, 16), np.float32)]).outputs

- `parse_module(text)` / `load(path)`: ge IR text (or an ONNX model, by its `.onnx`
  suffix) into a verified module whose nodes are all named (ge_dialect/names.py), as
  the tools read their input; every bad input raises the tools' one-line error.
- Op builders: `ge.<Type>.build(inputs..., attr=value)` (ge_dialect/ge.py:
  GeNode.build) infers the result types with the verifier's own shape inference;
  `GraphBuilder` collects the nodes built inside its `with` block into a `ge.graph`
  with Data inputs (`data`, indexed in order) and a NetOutput (`output`).
- `compile(module, pipeline="ge-compile", **options)`: the passes ge-opt runs for that
  `-p` (ge_tools/pipeline_spec.py: build_pipeline), each verified, on a copy; returns the
  compiled module, every remark as a `Remark` object (ge_dialect/diagnostics.py:
  pass, GE rule, nodes, message, location) and the model's figures as ge-run
  --stats-json writes them.
- `simulate(model_or_module, inputs, executions=N, streams=S)`: the device simulator
  (runtime/simulator.py) on the npu.model (compiling first when there is none); a graph
  of unknown shapes runs as ge-run runs it, on the dynamic executor.
- `reference(module, inputs)`: the reference interpreter (runtime/reference.py).

Errors are the tools' exceptions: `UserError` (bad text, bad pipeline or option: the
one line ge-opt prints), `LocatedError` (a node that fails to verify or to compile),
`ReferenceEvalError` (bad inputs), `SimulatorFault`; a node `build` refuses is a
ValueError.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Self, cast

import numpy as np
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass, PassPipeline

from ge_dialect import ge, npu
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import Remark, remark_sink
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.ge import value_dtype
from ge_dialect.graph import find_model, is_dynamic_graph, is_dynamic_module, output_names, root_graphs, select_graph
from ge_dialect.names import name_all_nodes
from ge_dialect.pass_options import PassOptionError
from ge_tools import parse
from ge_tools.parse import UserError
from ge_tools.registry import get_all_passes, make_context
from ge_tools.workflow import DEFAULT_DIM, compile_dynamic, execute_model, load_model_or_text, random_inputs
from report.figures import model_figures, simulation_stats
from report.html import RunRecorder

__all__ = [
    "CompileResult",
    "GraphBuilder",
    "Remark",
    "SimulationResult",
    "UserError",
    "compile",
    "const",
    "load",
    "parse_module",
    "reference",
    "simulate",
]


def _prepare(module: ModuleOp) -> ModuleOp:
    """`module` verified as the tools verify it (one LocatedError at the failing op) and
    every nameless node named (ge_dialect/names.py), as ge-run reads its input."""
    from ge_dialect.verify import verify_module

    verify_module(module)
    name_all_nodes(module)
    return module


def parse_module(
    text: str | bytes, name: str = "<string>", *, ctx: Context | None = None, verify: bool = True
) -> ModuleOp:
    """ge IR text (str, or UTF-8 bytes) as a module; ops are located at `name`:LINE:COL.
    With `verify` (the default) the module is verified and its nameless nodes named.
    A syntax error, bad bytes or too deep nesting raise UserError, one line
    `NAME:LINE:COL: error: ...` (ge_tools/parse.py: parse_module)."""
    module = parse.parse_module(ctx or make_context(), text, name)
    return _prepare(module) if verify else module


def load(path: str, *, input_shapes: Mapping[str, Sequence[int]] | None = None, ctx: Context | None = None) -> ModuleOp:
    """The module in file `path`: an ONNX model (`.onnx`, imported by importers/onnx.py
    with `input_shapes` for its symbolic dims) or ge IR text; verified, nodes named."""
    return _prepare(load_model_or_text(path, ctx, input_shapes))


# ---------------------------------------------------------------------------------------
# Building graphs
# ---------------------------------------------------------------------------------------


def _element_type(dt: np.dtype) -> Attribute:
    """The builtin element type whose numpy dtype (ge_dialect/dtypes.py: numpy_dtype) is `dt`."""
    candidates: list[Attribute] = [
        Float16Type(),
        BFloat16Type(),
        Float32Type(),
        Float64Type(),
        IntegerType(1),
        *(IntegerType(w) for w in (8, 16, 32, 64)),
        *(IntegerType(w, Signedness.UNSIGNED) for w in (8, 16, 32, 64)),
    ]
    for t in candidates:
        if numpy_dtype(t) == dt:
            return t
    raise ValueError(f"no ge dtype for numpy dtype {dt}; give dtype= (an xDSL element type)")


def const(value: object, dtype: Attribute | None = None, *, name: str | None = None) -> ge.Const:
    """A ge.Const holding `value` (a numpy array or anything np.asarray takes), of
    element type `dtype` (default: the array's dtype's, e.g. float32 -> f32)."""
    arr = np.asarray(value)
    elem = dtype if dtype is not None else _element_type(arr.dtype)
    t = TensorType(elem, list(arr.shape))
    want = numpy_dtype(elem)
    if want == np.bool_:  # i1 `true` is the signless byte -1, as xDSL stores it
        data = np.where(arr.astype(bool), -1, 0).astype(np.int8).tobytes()
    else:
        data = np.ascontiguousarray(arr.astype(want)).tobytes()
    return ge.Const.build(value=DenseIntOrFPElementsAttr(t, BytesAttr(data)), name=name)  # type: ignore[arg-type]


class GraphBuilder:
    """A `ge.graph` built in Python: every node built inside the `with` block (by
    `ge.<Type>.build`, `data`, `const`, `output`) is appended to the graph in order
    (xDSL's ImplicitBuilder); on leaving the block the graph is verified and its
    nameless nodes named (`Relu_1`, as GE's parser names them).

        with GraphBuilder("main") as g:
            x = g.data((2, 3), f32)
            g.output(ge.Exp.build(x))
        module = g.module

    `module`: the module to add the graph to (default: a new one, `g.module`). Every op
    created inside the block goes into the graph (ImplicitBuilder sees them all): compile
    or parse after the block, not inside it."""

    def __init__(self, name: str = "main", module: ModuleOp | None = None):
        self.name = name
        self.module = module if module is not None else ModuleOp([])
        self.block = Block()
        self.graph: ge.GraphOp | None = None
        self._datas = 0
        self._builder = ImplicitBuilder(self.block)

    def __enter__(self) -> Self:
        self._builder.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._builder.__exit__(exc_type, exc, tb)
        if exc_type is not None:
            return
        if not isinstance(self.block.last_op, ge.NetOutput):
            raise ValueError(f"graph @{self.name}: no NetOutput; call output(...) in the with block")
        self.graph = ge.GraphOp(self.name, Region(self.block))
        self.module.body.block.add_op(self.graph)
        _prepare(self.module)

    def data(
        self, shape: Sequence[int], dtype: Attribute, *, name: str | None = None, index: int | None = None
    ) -> SSAValue:
        """A ge.Data input of type tensor<shape x dtype>; its index is the next one
        (0, 1, ...) unless given."""
        i = self._datas if index is None else index
        self._datas = max(self._datas, i + 1)
        return ge.Data.build(shape=shape, dtype=dtype, index=i, name=name).results[0]

    def const(self, value: object, dtype: Attribute | None = None, *, name: str | None = None) -> SSAValue:
        """`const(value, dtype)` in this graph: its value."""
        return const(value, dtype, name=name).results[0]

    def output(self, *values: SSAValue | ge.GeNode | Sequence[SSAValue | ge.GeNode]) -> ge.NetOutput:
        """The graph's NetOutput, returning `values` in order (a multi-output node
        given alone returns all its outputs)."""
        flat: list[SSAValue] = []
        for v in values:
            for x in (v,) if isinstance(v, SSAValue | ge.GeNode) else v:
                flat.extend(x.results if isinstance(x, ge.GeNode) else (x,))
        return ge.NetOutput.build(flat)


# ---------------------------------------------------------------------------------------
# Compiling
# ---------------------------------------------------------------------------------------


@dataclass
class CompileResult:
    """What `compile` returns."""

    module: ModuleOp
    """The compiled copy (the input module is left as it was)."""
    remarks: list[Remark]
    """Every remark the passes made, in order (what `--remarks` prints, as objects)."""
    stats: dict[str, object]
    """The figures ge-run --stats-json writes about the compiled program: graph, passes,
    outputs (index, name, shape, dtype) and, when the pipeline built an npu.model, tasks, kernels, streams, events,
    no_task_nodes, memory_size, memory_lower_bound, memory_proven_bound, memory_gap."""
    recorder: RunRecorder | None = None
    """With `compile(..., record=True)`: what ge-run --report shows (the pictures after fusion
    and after planning, the kernels, the remarks), for report/html.py: write_report."""

    def model(self, graph: str | None = None) -> npu.ModelOp | None:
        """The npu.model of `graph` (default: the root graph), or None."""
        return _find_model(self.module, graph)


def _find_model(module: ModuleOp, graph: str | None) -> npu.ModelOp | None:
    """The npu.model of `graph`, of the root graph, or a module's only model."""
    if graph is None:
        if not any(isinstance(g, ge.GraphOp) for g in module.ops):
            models = [m for m in module.ops if isinstance(m, npu.ModelOp)]
            return models[0] if len(models) == 1 else None
        graph = select_graph(module, None).sym_name.data
    return find_model(module, graph)


def _spec_value(v: object) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, list | tuple):
        return ",".join(_spec_value(x) for x in v)
    return str(v)


def _passes(pipeline: str, options: Mapping[str, object]) -> tuple[ModulePass, ...]:
    """The passes of `-p pipeline`, `options` given to its single pass (as
    `name{option=value ...}`: the command line's checks and messages); remarks on."""
    from ge_tools.pipeline_spec import PipelineError, build_pipeline, with_remarks

    spec = pipeline
    if options:
        if "," in pipeline or "{" in pipeline:
            raise UserError(
                f"compile: options {sorted(options)} apply to a pipeline of one pass without options, "
                f"not '{pipeline}'; write them in the pipeline"
            )
        spec += "{" + " ".join(f"{k.replace('_', '-')}={_spec_value(v)}" for k, v in options.items()) + "}"
    try:
        passes = build_pipeline(spec, get_all_passes())
    except PipelineError as e:
        raise UserError(f"compile: error: bad pass pipeline '{spec}': {e}") from None
    except PassOptionError as e:
        raise UserError(f"compile: error: {e}") from None
    return with_remarks(passes)


def compile(
    module: ModuleOp,
    pipeline: str = "ge-compile",
    *,
    record: bool = False,
    verify_each: bool = False,
    **options: object,
) -> CompileResult:
    """Run `pipeline` (ge-opt's -p syntax; default the whole compile path) on a copy of
    `module`, verified as ge-opt verifies: the input and the result, or after each pass
    with `verify_each` (a failure names the first pass whose IR is invalid either way:
    pass_callback.apply_verified_at_ends); `options` are its single pass's options with
    Python values (`enable_pass=("reduce",)`, `streams=2`). The remarks go to the
    result, not to stderr. `record`: gather what ge-run --report shows, as ge-run does
    (a RunRecorder around the pipeline), in the result's `recorder`."""
    from ge_tools.pass_callback import PipelineCallback, apply_verified_at_ends

    passes = _passes(pipeline, options)
    _prepare(module)
    compiled = module.clone()
    remarks: list[Remark] = []
    verify = PipelineCallback(verify_each=verify_each)
    running: list[str | None] = [None]

    def between(previous: ModulePass | None, m: ModuleOp, next: ModulePass | None) -> None:
        verify(previous, m, next)
        running[0] = next.name if next is not None else None

    def collect(r: Remark) -> None:
        # a remark whose pass did not say its name is the running pass's
        remarks.append(r if r.pass_name is not None else dataclasses.replace(r, pass_name=running[0]))

    recorder = RunRecorder(between) if record else None
    ctx = make_context()

    def apply() -> None:
        if recorder is not None:
            with recorder.collecting():
                PassPipeline(passes, recorder).apply(ctx, compiled)
        else:
            with remark_sink(collect):
                PassPipeline(passes, between).apply(ctx, compiled)

    apply_verified_at_ends(apply, passes, verify, ctx, module.clone)
    if recorder is not None:
        remarks = recorder.remarks
    stats: dict[str, object] = {"passes": [p.name for p in passes]}
    graphs = [g for g in module.ops if isinstance(g, ge.GraphOp)]
    if graphs:
        roots = root_graphs(module)
        if len(roots) == 1:
            root = roots[0]
            stats["graph"] = root.sym_name.data
            types = [cast(TensorType[Attribute], v.type) for v in root.net_output.operands]
            stats["outputs"] = [
                {
                    "index": i,
                    "name": n,
                    "shape": list(t.get_shape()) if isinstance(t, TensorType) else None,  # None: unranked
                    "dtype": str(numpy_dtype(t.element_type)),
                }
                for i, (n, t) in enumerate(zip(output_names(root), types))
            ]
            if (model := _find_model(compiled, root.sym_name.data)) is not None:
                stats.update(model_figures(model))
    return CompileResult(compiled, remarks, stats, recorder)


# ---------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------


def _inputs(graph: ge.GraphOp, inputs: Sequence[object] | Mapping[str, object] | None, seed: int) -> list[np.ndarray]:
    """The graph's inputs in Data index order, checked as ge-run checks its --input files:
    a sequence, a mapping from Data node names, or None for ge-run's seeded random ones."""
    from runtime.graph_interpreter import check_value

    datas = graph.data_nodes
    if inputs is None:
        # an unknown dim takes ge-run's size without --dim (run.py: make_input_sets)
        return random_inputs(graph, np.random.default_rng(seed), [_concrete_shape(d) for d in datas])
    if isinstance(inputs, Mapping):
        names = [ge.node_name(d) for d in datas]
        unknown = sorted(set(inputs) - set(names))
        missing = [n for n in names if n not in inputs]
        if unknown or missing:
            raise ValueError(f"graph @{graph.sym_name.data} takes inputs {names}; unknown {unknown}, missing {missing}")
        values = [inputs[n] for n in names]
    else:
        values = list(inputs)
        if len(values) != len(datas):
            raise ValueError(f"graph @{graph.sym_name.data} takes {len(datas)} inputs, {len(values)} given")
    out = []
    for i, (d, v) in enumerate(zip(datas, values)):
        want = numpy_dtype(value_dtype(d.results[0]))
        a = np.asarray(v)
        if a.dtype != want and a.dtype.kind in "fiub" and want.kind in "fiub":
            a = a.astype(want)  # Python floats / ints to the Data's dtype
        check_value(d, d.results[0], a, f"input {i}")
        out.append(a)
    return out


def _concrete_shape(d: ge.DataLike) -> tuple[int, ...] | None:
    sh = shape_of(d.results[0].type)
    return None if sh is None else tuple(x if x >= 0 else DEFAULT_DIM for x in sh)


def reference(
    module: ModuleOp,
    inputs: Sequence[object] | Mapping[str, object] | None = None,
    *,
    graph: str | None = None,
    seed: int = 0,
) -> list[np.ndarray]:
    """The outputs of `graph` (default: the root graph) on the reference interpreter
    (runtime/reference.py), in NetOutput order. `inputs` as for `simulate`."""
    from runtime.interpreter import run_graph

    g = select_graph(module, graph)
    return run_graph(g, _inputs(g, inputs, seed))


@dataclass
class SimulationResult:
    """What `simulate` returns."""

    outputs: list[np.ndarray]
    """The last execution's outputs, in NetOutput order."""
    runs: list[list[np.ndarray]]
    """Every execution's outputs."""
    stats: dict[str, object] = field(default_factory=dict)
    """ge-run --stats-json's simulator figures: tasks, tasks_by_kind, kernels, streams,
    no_task_nodes, bytes_moved, kernel_bytes_read/written, memcpy_bytes, memory_size,
    memory_lower_bound, memory_proven_bound, memory_gap, peak_live_fm_bytes, executions,
    refreshed_tasks."""


def simulate(
    model_or_module: ModuleOp | npu.ModelOp,
    inputs: Sequence[object] | Mapping[str, object] | None = None,
    *,
    executions: int = 1,
    streams: int | None = None,
    graph: str | None = None,
    frozen_inputs: Sequence[int] = (),
    seed: int = 0,
) -> SimulationResult:
    """Load the npu.model on the device simulator once and execute it `executions` times
    on fresh input buffers (as ge-run does). A module without an npu.model is compiled
    first (`ge-compile{streams=S}`, S default 1); a given model must have `streams`
    streams when it is given. A graph ge-run runs on the dynamic executor (unknown dims,
    or partitioned; ge_dialect/graph.py: is_dynamic_graph) is compiled as ge-run compiles it
    (ge_tools/workflow.py: compile_dynamic: its known-shape subgraphs become npu.models) and executed on
    runtime/dynamic_executor.py; its stats are ge-run --stats-json's `dynamic` figures.
    `inputs`: arrays in Data index order, a mapping from Data node names, or None for
    ge-run's random inputs of `seed` (a bare npu.model takes arrays only). A
    SimulatorFault propagates."""
    if executions < 1:
        raise ValueError(f"executions must be >= 1, got {executions}")
    g: ge.GraphOp | None = None
    if isinstance(model_or_module, npu.ModelOp):
        model = model_or_module
    else:
        module = model_or_module
        if any(isinstance(op, ge.GraphOp) for op in module.ops):
            g = select_graph(module, graph)
        found = _find_model(module, graph)
        if found is None:
            if g is None:
                raise ValueError("the module holds neither an npu.model nor a ge.graph")
            if is_dynamic_graph(module, g):
                return _simulate_dynamic(module, g, inputs, executions, streams, frozen_inputs, seed)
            found = compile(module, f"ge-compile{{streams={streams or 1}}}").model(g.sym_name.data)
            if found is None:  # ge-compile partitioned it: a node's shape is only known at run time
                return _simulate_dynamic(module, g, inputs, executions, streams, frozen_inputs, seed)
        model = found
    if streams is not None and model.streams.value.data != streams:
        raise ValueError(f"the model runs on {model.streams.value.data} stream(s), not {streams}")
    if g is not None:
        arrays = _inputs(g, inputs, seed)
    elif inputs is None or isinstance(inputs, Mapping):
        raise ValueError("a bare npu.model takes its inputs as a sequence of arrays, in Data index order")
    else:
        arrays = [np.asarray(a) for a in inputs]
    # one name per model output (the graph's `node:index` names; by index for a bare model)
    ex = execute_model(model, [arrays] * executions, frozen_inputs)
    return SimulationResult(ex.runs[-1], ex.runs, simulation_stats(ex.figures, ex.stats, ex.refreshed, executions))


def _simulate_dynamic(
    module: ModuleOp,
    g: ge.GraphOp,
    inputs: Sequence[object] | Mapping[str, object] | None,
    executions: int,
    streams: int | None,
    frozen_inputs: Sequence[int],
    seed: int,
) -> SimulationResult:
    """What ge-run does with a graph of unknown shapes (ge_tools/run.py: _run_dynamic):
    compile_dynamic (ge_tools/workflow.py), then the dynamic executor, `executions` times on fresh buffers."""
    from runtime.dynamic_executor import DynamicExecutor, partition_summary

    arrays = _inputs(g, inputs, seed)
    if is_dynamic_module(module):
        compiled = module.clone()
    else:
        passes = _passes(f"ge-compile{{streams={streams or 1}}}", {})
        _prepare(module)
        with remark_sink(lambda r: None):
            compiled = compile_dynamic(make_context(), PassPipeline(passes), module, g)
    ex = DynamicExecutor(compiled, frozen_inputs)
    runs = [ex.execute([np.array(a, copy=True) for a in arrays]) for _ in range(executions)]
    stats: dict[str, object] = {
        "executions": executions,
        "dynamic": {
            "clusters": partition_summary(compiled).as_dict(),
            "executions": [h.as_dict() for h in ex.history],
        },
    }
    return SimulationResult(runs[-1], runs, stats)
