"""The work ge-run (ge_tools/run.py) and the Python API (ge_tools/api.py) share, below both:
the API never imports the command-line modules; they import this.

- reading the input: `load_model_or_text` (an ONNX model, a torch.export program or ge IR
  text, within the input cap);
- inputs: `random_input(s)`, ge-run's seeded random inputs, valid for the graph
  (ge_tools/input_ranges.py);
- compiling: `compile_module` (a copy through a pipeline), `compile_dynamic` (a graph of
  unknown shapes into the dynamic executor's module);
- executing: `execute_model`, GE's DavinciModel: an npu.model loaded once on the device
  simulator and executed once per input set on fresh buffers.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import Remark, current_remark_sink, remark_sink
from ge_dialect.dtypes import dtype_bits, ge_dtype_name, is_float_dtype, numpy_dtype
from ge_dialect.ge import value_type
from ge_dialect.graph import is_dynamic_module, uncompiled_known_subgraphs
from ge_tools.cli_args import input_size_cap, is_onnx_path
from ge_tools.input_ranges import InputRange, draw_integers, input_ranges
from ge_tools.parse import UserError, parse_module, read_capped, read_ir_file
from ge_tools.pass_callback import PipelineCallback, apply_verified_at_ends
from ge_tools.pipeline_spec import build_pipeline, with_remarks
from ge_tools.progress import phase, steps
from ge_tools.registry import get_all_passes, make_context
from report.figures import model_figures
from runtime.graph_interpreter import ReferenceEvalError
from runtime.simulator import Stats, load

DEFAULT_DIM = 1  # the size of an unknown dim without --dim (a free dimension's usual 1)
PARTITION_PASS = "ge-partition-dynamic"  # GE's DynamicShapePartitioner (passes/partition/)


# ---------------------------------------------------------------------------------------
# Reading the input
# ---------------------------------------------------------------------------------------


def read_input_file(path: str, max_bytes: int | None = None) -> bytes:
    """The bytes of the tools' input file, refused beyond `max_bytes` (--max-input-size;
    None: the default cap of its kind, ge_tools/cli_args.py input_size_cap)."""
    try:
        with open(path, "rb") as f:
            return read_capped(f, path, input_size_cap(path, max_bytes))
    except OSError as e:
        if not is_onnx_path(path):
            raise  # run_tool's `TOOL: error: FILE: why`, as for any file
        raise UserError(f"{path}: error: cannot read the model: {e.strerror or e}") from None


def is_torch_program_path(path: str) -> bool:
    """A torch.export program saved with torch.export.save (`.pt2`)."""
    return path.lower().endswith(".pt2")


def load_model_or_text(
    path: str,
    ctx: Context | None = None,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    dynamic_dims: bool = False,
    max_bytes: int | None = None,
) -> ModuleOp:
    """The module in `path`: an ONNX model (by its `.onnx` suffix) imported with
    `input_shapes` and `dynamic_dims` (importers/onnx.py: import_model), a torch.export
    program (`.pt2`, importers/fx.py: load_exported_program), else ge IR text parsed with
    `ctx` (not verified; an imported module is). The file is read with read_input_file's
    cap (`max_bytes`). Errors are one-line exceptions (OnnxImportError, UserError) that
    `run_tool` prints."""
    if is_torch_program_path(path) and not input_shapes and not dynamic_dims:
        # a torch.export program (.pt2): importers/fx.py, TorchAir's ATen converters
        from importers.fx import load_exported_program

        read_input_file(path, max_bytes)  # refused past --max-input-size, as every input is
        return load_exported_program(path)
    if not is_onnx_path(path) and (input_shapes or dynamic_dims):
        flag = "--input-shape" if input_shapes else "--dynamic-dims"
        raise UserError(f"{path}: error: {flag} applies to an ONNX model (.onnx) only")
    if is_onnx_path(path):
        return load_onnx(path, dict(input_shapes or {}), dynamic_dims, max_bytes)
    try:
        with open(path, "rb") as f:
            data, resources = read_ir_file(f, path, input_size_cap(path, max_bytes))
    except OSError:
        raise  # run_tool's `TOOL: error: FILE: why`, as for any file
    return parse_module(ctx or make_context(), data, path, resources=resources)


def load_onnx(
    path: str, input_shapes: Mapping[str, Sequence[int]], dynamic_dims: bool, max_bytes: int | None
) -> ModuleOp:
    """An ONNX model imported (importers/onnx.py: load_model). A regular file within the cap
    is read by the importer, which lets the file's bytes go once they are decoded (the
    weights then live once, as their raw bytes); anything else is read here, capped."""
    from importers import onnx as onnx_importer  # onnx loads in ~1.5 s: only when a model is read

    cap = input_size_cap(path, max_bytes)
    try:
        st = os.stat(path)
    except OSError as e:
        raise UserError(f"{path}: error: cannot read the model: {e.strerror or e}") from None
    if stat.S_ISREG(st.st_mode):
        if st.st_size > cap:
            raise UserError(
                f"{path}: error: the input has {st.st_size} bytes, more than the cap on an input's size, {cap} "
                "(raise it with --max-input-size SIZE)"
            )
        return onnx_importer.load_model(path, input_shapes, dynamic_dims=dynamic_dims)
    data = read_input_file(path, max_bytes)
    return onnx_importer.load_model(path, input_shapes, dynamic_dims=dynamic_dims, data=data)


# ---------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------


def random_input(
    data: ge.DataLike,
    rng: np.random.Generator,
    shape: tuple[int, ...] | None = None,
    want: InputRange | None = None,
) -> np.ndarray:
    """A random array for `data` (of `shape`, its concrete shape, when its type has unknown
    dims), within `want` (ge_tools/input_ranges.py: an index in range, a divisor without
    zero) when given."""
    t = value_type(data.results[0])
    if shape is None:
        shape = shape_of(t)
    if shape is None or any(d < 0 for d in shape):
        raise ReferenceEvalError(data, f"random inputs need a known shape, got {t}; give --input files")
    elem = t.element_type
    dt = numpy_dtype(elem)
    if 0 in shape:  # nothing to draw (numpy's generators would build a float64/int64 array first)
        return np.zeros(shape, dt)
    if ge_dtype_name(elem) == "DT_FLOAT8_E8M0":  # no sign, no zero: powers of two
        return np.asarray(np.ldexp(1.0, rng.integers(-4, 5, shape))).astype(dt)
    if is_float_dtype(dt):
        # float64 draws rounded once to the dtype (bf16 / float8: to nearest, ties to even)
        a = np.asarray(rng.uniform(-1.0, 1.0, shape)).astype(dt)
        if want is not None and want.nonzero:  # a divisor: a value rounded to 0 becomes 1
            a[a == 0] = 1
        return a
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dt)
    bits = dtype_bits(elem)
    half = 2 ** (bits - 1)
    default = (0, min(9, 2**bits)) if dt.kind == "u" else (-min(4, half), min(5, half))
    a = rng.integers(*default, shape).astype(dt)
    if want is None or (want.high is None and not want.nonzero):
        return a
    # Drawn from a generator spawned from `rng` after the usual draw, so that the values of
    # every other input stay those they would have without this input's range.
    return draw_integers(rng.spawn(1)[0], want, default, shape, dt)


def random_inputs(
    graph: ge.GraphOp, rng: np.random.Generator, shapes: Sequence[tuple[int, ...] | None] | None = None
) -> list[np.ndarray]:
    """--seed's random inputs of `graph`, in Data index order (of `shapes` where its types
    have unknown dims), each within what the graph needs of it (input_ranges)."""
    datas = graph.data_nodes
    return [random_input(d, rng, sh, r) for d, sh, r in zip(datas, shapes or [None] * len(datas), input_ranges(graph))]


# ---------------------------------------------------------------------------------------
# Compiling
# ---------------------------------------------------------------------------------------


def compile_module(ctx: Context, pipeline: PassPipeline, module: ModuleOp) -> ModuleOp:
    """A copy of `module` through `pipeline` (the original stays for the reference). With
    a progress line (stderr is a terminal) each remark starts on a clean line and the line
    is erased at the end. When the pipeline's PipelineCallback verifies at the ends only,
    a failure is looked into on another copy (pass_callback.apply_verified_at_ends)."""
    compiled = module.clone()
    verifier = pipeline_verifier(pipeline)
    progress = getattr(verifier, "progress", None)

    def apply() -> None:
        bar = progress
        if bar is None:
            pipeline.apply(ctx, compiled)
            return
        outer = current_remark_sink()

        def sink(r: Remark) -> None:
            bar.clear()
            outer(r)

        try:
            with remark_sink(sink):
                pipeline.apply(ctx, compiled)
        finally:
            bar.clear()

    if verifier is None:
        apply()
    else:
        apply_verified_at_ends(apply, pipeline.passes, verifier, ctx, module.clone)
    return compiled


def pipeline_verifier(pipeline: PassPipeline) -> PipelineCallback | None:
    """The PipelineCallback a pipeline's callback is or wraps (RunRecorder, OnnxStages:
    each keeps the callback it wraps as `inner`)."""
    cb: object = pipeline.callback
    while cb is not None and not isinstance(cb, PipelineCallback):
        cb = getattr(cb, "inner", None)
    return cb


def compile_dynamic(
    ctx: Context, pipeline: PassPipeline, module: ModuleOp, graph: ge.GraphOp, remarks: bool = False
) -> ModuleOp:
    """The dynamic executor's module (docs/dynamic_shapes.md), made by the pipeline itself
    on the whole module, flat or already partitioned: in ge-compile, ge-partition-dynamic partitions a flat root and
    leaves a partitioned one as it is, and the passes after it compile each known-shape
    subgraph into a known-node model (ge-to-npu) and skip the root and the unknown ones;
    there is no second list of passes for a partitioned module. A -p pipeline without the
    partition pass gets it first on a flat root (what ge-compile would have run)."""
    if is_dynamic_module(module):
        return module.clone()  # already compiled: the known subgraphs are npu.models
    available = get_all_passes()
    if (
        A.DYNAMIC_SHAPE_PARTITIONED not in graph.attributes
        and PARTITION_PASS in available
        and all(p.name != PARTITION_PASS for p in pipeline.passes)
    ):
        passes = build_pipeline(PARTITION_PASS, available)
        module = module.clone()
        PassPipeline(with_remarks(passes) if remarks else passes).apply(ctx, module)
    compiled = compile_module(ctx, pipeline, module)
    if is_dynamic_module(compiled):
        return compiled
    name = graph.sym_name.data
    root = next((g for g in compiled.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == name), None)
    if (
        root is not None
        and A.get_bool(root, A.GRAPH_UNKNOWN_FLAG)
        and not A.get_bool(root, A.DYNAMIC_SHAPE_PARTITIONED)
    ):
        # dynamic_shape_partition.cc: SetRootGraphUnknown (placement HOST, lower limit -1,
        # only Data and NetOutput) or host scheduling: the root is left whole and unknown,
        # and the host runs it op by op
        return compiled
    if root is not None and A.DYNAMIC_SHAPE_PARTITIONED in root.attributes:
        left = uncompiled_known_subgraphs(compiled)
        if left:
            raise ReferenceEvalError(
                graph,
                f"graph @{name} is partitioned, but the pipeline did not compile its known-shape subgraph"
                f"{'s' if len(left) > 1 else ''} {', '.join('@' + n for n in left)} into known-node models "
                "(npu.model known_node = true: ge-assign-memory, ge-to-npu)",
            )
        return compiled  # every cluster unknown: the host runs the whole graph op by op
    raise ReferenceEvalError(
        graph,
        f"graph @{name} has inputs of unknown shape and the pipeline did not partition it into "
        "known- and unknown-shape subgraphs (ge-partition-dynamic); give the partitioned module "
        "(DYN_CONTRACT.md §2: PartitionedCalls marked _is_unknown_shape)",
    )


# ---------------------------------------------------------------------------------------
# Executing
# ---------------------------------------------------------------------------------------


@dataclass
class Execution:
    """A model loaded once and executed once per input set (runtime/simulator.py)."""

    figures: dict[str, object]  # report/figures.py: model_figures
    runs: list[list[np.ndarray]]  # per execution: the outputs in NetOutput order
    refreshed: list[int]  # per execution: tasks whose I/O addresses were refreshed
    stats: Stats


def execute_model(model: npu.ModelOp, sets: Sequence[Sequence[np.ndarray]], frozen: Sequence[int]) -> Execution:
    """DavinciModel: load `model` (frozen inputs refreshed once), execute it once per input
    set, each time on fresh copies of the inputs (new zero-copy buffers). A SimulatorFault
    propagates."""
    figures = model_figures(model)
    with phase(f"ge-run: loading @{model.sym_name.data} ({len(model.stream_ops())} streams)"):
        loaded = load(model, frozen)
    runs, refreshed = [], []
    for ins in steps(sets, "ge-run: executions", len(sets)):
        runs.append(loaded.execute([np.array(a, copy=True) for a in ins]))
        refreshed.append(len(loaded.refreshed))
    return Execution(figures, runs, refreshed, loaded.stats)
