"""ge-run: evaluate a ge graph, compile it to an NPU task program, execute it on the
device simulator and check its numbers against the reference interpreter.

    ge-run FILE [--graph NAME] [--input X.npy ... | --seed N] [--reference]
                [--print-values] [--save-dir DIR] [--stats-json PATH] [--dump-dir DIR]
                [--dot-dir DIR] [--remarks-json FILE] [--report DIR] [--executions N]
                [--frozen-input K ...] [-p PIPELINE] [--streams 1|2] [--enable-pass P,...]
                [--remarks] [--version]

The file is parsed and verified as ge-opt does (located one-line errors, exit 1). Inputs
come from .npy files or from a seeded generator. With --reference only the reference
interpreter (runtime/reference.py) runs. Otherwise the passes of `-p` (default
`ge-compile`, ge_tools/pipeline.py: GeCompilePass; its options as flags: --streams,
--enable-pass, one per GeCompilePass field) run on a copy of the module; when
they end in an npu.model (ge-to-npu) the model is loaded once on runtime/simulator.py
and executed N times with fresh input buffers, else the compiled graph is evaluated by
the reference interpreter; the outputs are compared with the reference's on the
original graph.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import math
import os
import sys
import zlib
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, NoReturn

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import PassPipeline

from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import op_location, remark
from ge_dialect.dtypes import compute_dtype, is_float_dtype, numpy_dtype
from ge_dialect.ge import value_dtype
from ge_dialect.graph import (
    find_model,
    has_static_inputs_only,
    is_dynamic_graph,
    is_dynamic_module,
    output_names,
    select_graph,
)
from ge_dialect.names import name_all_nodes
from ge_dialect.pass_options import PassOptionError
from ge_dialect.shape_env import AssertFailed, GuardFailed
from ge_dialect.shapes import fmt_shape
from ge_dialect.verify import verify_module
from ge_fast.process import exit_without_teardown, tune_gc
from ge_tools.cli_args import elide_limit, input_size_cap, run_tool
from ge_tools.dump_onnx import with_dump_onnx
from ge_tools.input_ranges import input_ranges
from ge_tools.opt import context
from ge_tools.parse import INT64_MAX, UserError, host_memory_bytes, parse_module, read_ir_file
from ge_tools.pass_callback import PipelineCallback
from ge_tools.pipeline_spec import PipelineError, build_pipeline, with_remarks
from ge_tools.progress import PassBar, phase
from ge_tools.registry import get_all_passes
from ge_tools.run_args import build_arg_parser, check_arguments, compile_option_fields
from ge_tools.workflow import (
    DEFAULT_DIM,
    PARTITION_PASS,  # noqa: F401  (ge-run's steps, as callers read them here)
    Execution,
    compile_dynamic,
    compile_module,
    execute_model,
    is_torch_program_path,
    load_model_or_text,
    random_input,
    random_inputs,
)
from report.figures import Check, simulation_stats
from runtime.anchored import Verdict, judge_simulator
from runtime.dynamic_executor import (
    PARTITIONED_ATTR,
    DynamicExecutor,
    ExecutionStats,
    PartitionSummary,
    partition_summary,
)
from runtime.error_bound import output_error_bounds
from runtime.graph_interpreter import ReferenceEvalError, check_value
from runtime.interpreter import run_graph
from runtime.simulator import ARGS_SLOT_BYTES, UPDATE_POLICY_NAMES, SimulatorFault
from runtime.simulator import Stats as SimulatorStats

if TYPE_CHECKING:
    from report.html import RunRecorder

RTOL = 1e-5
ATOL = 1e-6
NPY_MAGIC = b"\x93NUMPY"
NPY_MAX_HEADER = 10000  # numpy.lib.format's default max_header_size (literal_eval is not fed more)


@dataclass
class Output:
    index: int
    name: str
    array: np.ndarray


# ---------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------


def remark_input_ranges(graph: ge.GraphOp) -> None:
    """ge-run --remarks: one remark per random input whose values input_ranges limits,
    `input 'ids': values in [0, 50) because it indexes node 'emb' (GatherV2) axis 0`."""
    for d, r in zip(graph.data_nodes, input_ranges(graph)):
        if r is not None:
            remark(
                d,
                f"input '{ge.node_name(d)}': {r.describe()} because {'; and '.join(r.why)}",
                pass_name="ge-run",
                stage="inputs",
                verdict="ranged",
            )


def _npy_header(f: BinaryIO) -> tuple[tuple[int, ...], bool, str | np.dtype]:
    """The shape, fortran_order and dtype of the .npy file at `f`'s start, read from its
    header alone (numpy's format, NEP 1: magic, version, length, a Python dict literal),
    `f` left at the data. The dtype is numpy's, or the descriptor string when numpy cannot
    read it (numpy.save of an ml_dtypes float8 array writes '<f1'). A bad header is a
    ValueError."""
    major, _ = np.lib.format.read_magic(f)
    n = int.from_bytes(f.read(2 if major == 1 else 4), "little")
    if n > NPY_MAX_HEADER:
        raise ValueError(f"its header has {n} bytes, more than numpy reads ({NPY_MAX_HEADER})")
    try:
        header = ast.literal_eval(f.read(n).decode("latin1" if major < 3 else "utf8"))
        descr, shape, fortran = header["descr"], tuple(header["shape"]), bool(header["fortran_order"])
    except (SyntaxError, KeyError, TypeError, UnicodeDecodeError) as e:
        raise ValueError(f"its header is not numpy's ({type(e).__name__})") from None
    if not all(isinstance(d, int) and d >= 0 for d in shape):
        raise ValueError(f"its header's shape {shape} is not a shape")
    try:
        dtype: str | np.dtype = np.lib.format.descr_to_dtype(descr)
    except (ValueError, TypeError):
        dtype = str(descr)
    return shape, fortran, dtype


def _as_data_dtype(dtype: str | np.dtype, want: np.dtype) -> str | np.dtype:
    """The dtype a file's arrays are taken as for a Data of numpy dtype `want`: its bytes as
    `want` when numpy.save wrote a bf16 / float8 array as a void of the same width (|V2,
    |V1) or with a descriptor numpy cannot read ('<f1' is float8_e5m2's)."""
    if isinstance(dtype, str):
        return want if dtype == want.str else dtype
    if is_float_dtype(want) and dtype.kind == "V" and dtype.fields is None and dtype.itemsize == want.itemsize:
        return want
    return dtype


def _read_npy(f: BinaryIO, node: ge.DataLike, what: str, want: np.dtype) -> np.ndarray:
    """The array of the .npy file at `f` for Data `node` of numpy dtype `want` (see
    _as_data_dtype). Its header's shape and dtype are checked against the Data's type
    before any of its data is read or allocated: a header claiming 10^12 elements is
    refused, not allocated."""
    shape, fortran, dtype = _npy_header(f)
    dtype = _as_data_dtype(dtype, want)
    if isinstance(dtype, str):
        raise ValueError(f"numpy cannot read its dtype '{dtype}'")
    # the header's shape and dtype, as a zero-strided array of no memory
    check_value(node, node.results[0], np.broadcast_to(np.zeros((), dtype), shape), what)
    if dtype.hasobject:
        raise ValueError("it holds Python objects (pickles are not read)")
    count = math.prod(shape)
    data = f.read(count * dtype.itemsize)
    if len(data) != count * dtype.itemsize:
        raise ValueError(f"it holds {len(data)} bytes of data, its header says {count * dtype.itemsize}")
    # a Fortran-ordered file gives a Fortran-ordered array, as numpy.load does
    return np.frombuffer(bytearray(data), dtype=dtype).reshape(shape, order="F" if fortran else "C")


def load_inputs(graph: ge.GraphOp, paths: Sequence[str]) -> list[np.ndarray]:
    datas = graph.data_nodes
    if len(paths) != len(datas):
        raise ReferenceEvalError(
            graph, f"graph @{graph.sym_name.data} takes {len(datas)} inputs, {len(paths)} --input files given"
        )
    arrays = []
    for i, (d, p) in enumerate(zip(datas, paths)):
        want = numpy_dtype(value_dtype(d.results[0]))
        what = f"--input {p} (input {i})"

        try:
            with open(p, "rb") as f:
                if f.read(6) != NPY_MAGIC:
                    raise ReferenceEvalError(d, f"{what}: not a .npy file (no NUMPY magic)")
                f.seek(0)
                a = _read_npy(f, d, what, want)
        except OSError as e:
            raise ReferenceEvalError(d, f"{what}: cannot read it: {e.strerror or e}") from None
        except (ValueError, EOFError) as e:
            raise ReferenceEvalError(d, f"{what}: not a readable .npy array: {e}") from None
        arrays.append(a)
    return arrays


def check_host_memory(module: ModuleOp, limit: int | None) -> None:
    """Refuse, before allocating anything, a module whose tensors cannot fit the host:
    ge-run holds them as numpy arrays (the reference interpreter keeps every value, the
    compiled run its own copies), so twice the sum of every GE node's output bytes must fit
    `limit` (the physical memory). The error is located at the node with the largest
    output. The verifier has already bounded each tensor by GE's int64 size; numpy also
    needs the product of the non-zero dims to fit int64."""
    total, largest, where = 0, -1, None
    for op in module.walk():
        if not isinstance(op, ge.GeNode):
            continue
        for r in op.results:
            shape = shape_of(r.type)
            if shape is None or any(d < 0 for d in shape):
                continue
            itemsize = numpy_dtype(value_dtype(r)).itemsize
            if math.prod(d for d in shape if d) * itemsize > INT64_MAX:
                # numpy multiplies the non-zero dims even for an empty array ("array is too big")
                raise ReferenceEvalError(
                    op,
                    f"output {r.index}: numpy cannot hold a {fmt_shape(shape)} array: its non-zero "
                    "dims multiply past int64, even with 0 elements; ge-run cannot evaluate it",
                )
            size = math.prod(shape) * itemsize
            total += size
            if size > largest:
                largest, where = size, op
    if limit is not None and where is not None and 2 * total > limit:
        raise ReferenceEvalError(
            where,
            f"ge-run needs about {2 * total} bytes of host memory for this graph's tensors (twice "
            f"their {total} bytes: the reference's and the compiled run's), more than this host's "
            f"{limit}; the largest is this node's output ({largest} bytes)",
        )


# ---------------------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------------------


def _num(x: object) -> str:
    if isinstance(x, np.bool_ | bool):
        return str(int(x))
    if isinstance(x, np.integer):
        return str(int(x))
    return f"{float(x):.6g}"  # type: ignore[arg-type]


def checksum(a: np.ndarray) -> str:
    """crc32 of the array's bytes in C order (numpy's native little-endian layout)."""
    return f"{zlib.crc32(np.ascontiguousarray(a).tobytes()):08x}"


def summary(o: Output) -> str:
    a = o.array
    shape = fmt_shape(a.shape)
    head = f"output {o.index} {o.name}: shape {shape} {a.dtype}"
    if a.size == 0:
        return f"{head} (empty) crc32 {checksum(a)}"
    acc = a.astype(np.float64)
    return f"{head} min {_num(a.min())} max {_num(a.max())} mean {_num(acc.mean())} crc32 {checksum(a)}"


def print_outputs(outs: Sequence[Output], values: bool) -> None:
    for o in outs:
        print(summary(o))
        if values:
            print(np.array2string(o.array, threshold=o.array.size + 1, max_line_width=100, separator=", "))


def within_tolerance(got: np.ndarray, ref: np.ndarray, bound: np.ndarray | None = None) -> np.ndarray:
    """Elementwise: floats |got - ref| <= ATOL + RTOL*|ref| + bound (NaN equals NaN);
    integers and bools |got - ref| <= bound (exact when the bound is 0). `bound` is
    runtime/error_bound.py's, 0 when absent. An element whose bound is infinite
    (undecidable) is never within the tolerance: `compare` counts it apart."""
    e = np.zeros(ref.shape) if bound is None else bound
    with np.errstate(invalid="ignore", over="ignore"):
        if is_float_dtype(ref.dtype):
            a, b = got.astype(np.float64), ref.astype(np.float64)
            ok = (np.abs(a - b) <= ATOL + RTOL * np.abs(b) + e) | (a == b) | (np.isnan(a) & np.isnan(b))
        else:
            ok = (got == ref) | (np.abs(got.astype(np.float64) - ref.astype(np.float64)) <= e)
        return ok & ~np.isinf(e)


UNDECIDABLE_SHOWN = 5  # indices listed per output with undecidable elements


def _bound_of(bounds: Sequence[np.ndarray] | None, k: int) -> np.ndarray | None:
    return bounds[k] if bounds is not None and k < len(bounds) else None


def compare(
    ref: Sequence[Output], got: Sequence[Output], bounds: Sequence[np.ndarray] | None = None
) -> tuple[int, list[str]]:
    """Mismatching element count and the report lines; `bounds[k]` widens output k's
    tolerance by runtime/error_bound.py's per-element bound. Elements whose bound is
    infinite are not judged here (`undecidable` lists them)."""
    lines: list[str] = []
    total = 0
    if len(ref) != len(got):
        lines.append(f"the compiled graph has {len(got)} outputs, the reference {len(ref)}")
        total += sum(o.array.size for o in ref[len(got) :]) + sum(o.array.size for o in got[len(ref) :])
    for k, (r, g) in enumerate(zip(ref, got)):
        a, b = g.array, r.array
        if a.shape != b.shape or a.dtype != b.dtype:
            lines.append(
                f"output {r.index} {r.name}: compiled is {a.dtype} {a.shape}, reference is {b.dtype} {b.shape}"
            )
            total += max(a.size, b.size)
            continue
        e = _bound_of(bounds, k)
        ok = within_tolerance(a, b, e)
        if e is not None:
            ok |= np.isinf(e)  # undecidable: counted apart, never a match
        bad = int(ok.size - np.count_nonzero(ok))
        if bad:
            first = tuple(int(i) for i in np.argwhere(~ok)[0])
            lines.append(
                f"output {r.index} {r.name}: {bad} of {a.size} elements differ; first at "
                f"{list(first)}: compiled {_num(a[first])}, reference {_num(b[first])}"
            )
            total += bad
    return total, lines


def undecidable(ref: Sequence[Output], bounds: Sequence[np.ndarray]) -> tuple[int, list[str]]:
    """The elements whose error bound is infinite (no comparison can judge them: rounding
    within reach of a singularity, an overflow or a decision boundary such as a
    comparison's): their count and one line per output with the first indices."""
    total, lines = 0, []
    for r, e in zip(ref, bounds):
        inf = np.isinf(e)
        n = int(np.count_nonzero(inf))
        if n:
            shown = ", ".join(str([int(i) for i in ix]) for ix in np.argwhere(inf)[:UNDECIDABLE_SHOWN])
            more = ", ..." if n > UNDECIDABLE_SHOWN else ""
            lines.append(f"output {r.index} {r.name}: {n} of {e.size} elements undecidable, at {shown}{more}")
            total += n
    return total, lines


def constant_outputs(ref: Sequence[Output]) -> list[str]:
    """One warning per output of more than one element whose reference values are all
    equal (min == max): a match on it says little of the arithmetic behind it."""
    lines = []
    for r in ref:
        a = r.array
        if a.size > 1:
            flat = a.reshape(-1)
            same = bool(np.all(flat == flat[0])) or (
                is_float_dtype(a.dtype) and bool(np.all(np.isnan(flat.astype(np.float64))))
            )
            if same:
                lines.append(
                    f"warning: output {r.index} {r.name} is constant (all {a.size} elements are {_num(flat[0])}): "
                    "a match on it proves little"
                )
    return lines


# ---------------------------------------------------------------------------------------
# The tool
# ---------------------------------------------------------------------------------------


def _save(dir_: str, prefix: str, outs: Sequence[Output]) -> None:
    os.makedirs(dir_, exist_ok=True)
    for o in outs:
        a = o.array
        if compute_dtype(a.dtype) != a.dtype:  # bf16 / float8: their bytes, which numpy reads back
            a = a.view(f"V{a.dtype.itemsize}")
        np.save(os.path.join(dir_, f"{prefix}{o.index}.npy"), a)


def _evaluate(graph: ge.GraphOp, inputs: Sequence[np.ndarray]) -> list[Output]:
    names = output_names(graph)
    return [Output(i, n, a) for i, (n, a) in enumerate(zip(names, run_graph(graph, inputs)))]


def pipeline_spec(args: argparse.Namespace) -> str:
    """The -p pipeline with the option flags given (--enable-pass reduce) appended to its
    single pass: `ge-compile{enable-pass=reduce}`; the pipeline parser checks them."""
    spec = args.passes if args.passes is not None else "ge-compile"
    given = {f.name.replace("_", "-"): v for f in compile_option_fields() if (v := getattr(args, f.name)) is not None}
    if not given:
        return spec
    flags = ", ".join(f"--{k}" for k in given)
    if "{" in spec or "," in spec:
        raise UserError(
            f"ge-run: error: the option flags ({flags}) apply to a -p of one pass without options, "
            f"not '{spec}': write the options in -p"
        )
    return spec + "{" + " ".join(f"{k}={v}" for k, v in given.items()) + "}"


def compile_pipeline(args: argparse.Namespace) -> PassPipeline:
    """The -p passes (default ge-compile; none run with --reference, but their options are
    checked), each PipelinePass spliced in as its constituent passes, with remarks on
    with --remarks, verified at the ends (after each with --verify-each), dumped with --dump-dir: what ge-opt -p runs."""
    spec = pipeline_spec(args)
    try:
        passes = build_pipeline(spec, get_all_passes())
    except PipelineError as e:
        raise UserError(f"ge-run: error: bad pass pipeline '{spec}': {e}") from None
    except PassOptionError as e:
        raise UserError(f"ge-run: error: {e}") from None
    if args.remarks or args.remarks_json or args.report:
        passes = with_remarks(passes)
    passes = () if args.reference else passes
    # a status line per pass when stderr is a terminal (never in pipes or tests)
    progress = PassBar.on_terminal(len(passes), tool="ge-run") if passes else None
    callback = PipelineCallback(
        verify_each=args.verify_each,
        dump_dir=args.dump_dir,
        dot_dir=args.dot_dir,
        progress=progress,
        elide=elide_limit(args.elide_large_elements, None, default_on=True),
    )
    if args.dot_dir:
        from report.svg_render import renderer

        print(f"ge-run: --dot-dir {args.dot_dir}: graph pictures drawn by {renderer()}", file=sys.stderr)
    stages = with_dump_onnx(callback, args.dump_onnx)
    if args.remarks_json or args.report:  # the remarks collected, with what the report draws
        from report.html import RunRecorder  # (the report is imported only when asked for)

        return PassPipeline(passes, RunRecorder(stages, echo=args.remarks))
    return PassPipeline(passes, stages)


def run_recorder(args: argparse.Namespace, pipeline: PassPipeline) -> RunRecorder | None:
    """The RunRecorder compile_pipeline gave `pipeline` for --report and --remarks-json, or
    None."""
    if not (args.remarks_json or args.report):
        return None
    from report.html import RunRecorder

    return pipeline.callback if isinstance(pipeline.callback, RunRecorder) else None


def fault_node(graph: ge.GraphOp, fault: SimulatorFault) -> Operation:
    """The node of `graph` whose task faulted (its tensors are named `node:index`), or the
    graph itself (a fault outside a task, or a node made by a pass, e.g. an AscBackend)."""
    task = fault.task_op
    nodes = {ge.node_name(op): op for op in graph.body.block.ops}
    if fault.node in nodes:  # a fault found at load, at a table entry of this node
        return nodes[fault.node]
    if not isinstance(task, npu.KernelOp | npu.MemcpyOp):
        return graph
    for t in (*task.out_tensors.data, *task.in_tensors.data):
        if (node := nodes.get(t.data.rsplit(":", 1)[0])) is not None:
            return node
    return graph


def _max_error(ref: Sequence[Output], got: Sequence[Output]) -> float:
    err = 0.0
    for r, g in zip(ref, got):
        if r.array.shape == g.array.shape and r.array.size:
            with np.errstate(all="ignore"):
                d = np.abs(g.array.astype(np.float64) - r.array.astype(np.float64))
            d = d[~np.isnan(d)]
            if d.size:
                err = max(err, float(d.max()))
    return err


# ---------------------------------------------------------------------------------------
# The run, step by step: read, inputs, compile, the model, simulate, compare, report
# ---------------------------------------------------------------------------------------


def read_module(ctx: Context, path: str, max_bytes: int | None = None) -> ModuleOp:
    """FILE parsed and verified as ge-opt does it, nameless nodes named (ge_dialect/names.py):
    the reference, the compiled copy and the reports then call each node the same. The
    file is refused beyond `max_bytes` (--max-input-size; default: ge_tools/cli_args.py's cap)."""
    # the text, and its resource section's weights read once, as bytes (ge_tools/parse.py)
    with open(path, "rb") as f:
        data, resources = read_ir_file(f, path, input_size_cap(path, max_bytes))
    module: ModuleOp = parse_module(ctx, data, path, resources=resources)
    verify_module(module)
    name_all_nodes(module)
    return module


def read_input(ctx: Context, args: argparse.Namespace) -> ModuleOp:
    """FILE as read_module reads it, or an ONNX model (.onnx) imported with
    --input-shape (ge_tools/import_onnx.py; errors as ge-import gives them)."""
    from ge_tools.import_onnx import input_shapes_arg, is_onnx_path

    shapes = input_shapes_arg(args.input_shape, "ge-run")
    if not (is_onnx_path(args.file) or is_torch_program_path(args.file)) and not shapes and not args.dynamic_dims:
        return read_module(ctx, args.file, args.max_input_size)
    with phase(f"ge-run: importing {os.path.basename(args.file)}"):
        module = load_model_or_text(
            args.file, ctx, shapes, dynamic_dims=args.dynamic_dims, max_bytes=args.max_input_size
        )
    verify_module(module)
    name_all_nodes(module)
    return module


def compare_with_onnx_model(
    args: argparse.Namespace,
    inputs: Sequence[np.ndarray],
    got: Sequence[Output],
    graph: ge.GraphOp | None = None,
    ours: Callable[[], Verdict | None] | None = None,
) -> tuple[int, Check | None]:
    """For an ONNX model, the compiled outputs against onnxruntime's
    (ge_tools/onnx_oracle.py), printed; the exit status and the check the report shows.
    (0, None) for anything else. With the imported `graph`, each element's tolerance
    also takes its error bound under independent rounding (docs/tolerance.md: an f16 island
    between two Casts rounds each op in f16 here, maybe in f32 in onnxruntime). Elements
    that leaves undecidable are judged anchored (onnx_oracle.anchor_oracle), given `ours`:
    the compiled program's anchored verdict on `inputs` (made when first asked)."""
    from ge_tools.import_onnx import is_onnx_path

    if not is_onnx_path(args.file):
        return 0, None
    from ge_tools.onnx_oracle import anchor_oracle, compare_with_onnxruntime, print_oracle

    bounds = output_error_bounds(graph, inputs, independent=True) if graph is not None else None
    result = compare_with_onnxruntime(args.file, inputs, [o.array for o in got], bounds=bounds)
    if bounds is not None and ours is not None and (result.undecidable or args.anchored) and not result.shape_errors:
        mine = ours()
        if mine is not None:
            bad, unjudged = mine.outputs([o.array for o in got], within_tolerance)
            judged = [~b & ~u for b, u in zip(bad, unjudged)]
            result = anchor_oracle(result, args.file, inputs, bounds, judged, bool(mine.wrong))
    status = print_oracle(result, args.accept_undecidable)
    figures: dict[str, object] = {}
    for o in result.outputs:
        figures[f"{o.name}: max abs error"] = o.max_abs
        figures[f"{o.name}: max rel error"] = o.max_rel
    lines = [f"output '{o.name}': {o.bad} of {o.size} elements outside the tolerance" for o in result.outputs if o.bad]
    lines += [
        f"output '{o.name}': {o.undecidable} of {o.size} elements undecidable" for o in result.outputs if o.undecidable
    ]
    lines += result.steps
    return status, Check("onnxruntime", status == 0, figures, lines + result.shape_errors)


def make_inputs(args: argparse.Namespace, graph: ge.GraphOp) -> list[np.ndarray]:
    """The graph's inputs in ge.Data index order: --input files, else --seed's random ones
    (the first execution's, see make_input_sets)."""
    name = graph.sym_name.data
    n = len(graph.data_nodes)
    for k in args.frozen_input:
        if not 0 <= k < n:
            raise ReferenceEvalError(graph, f"--frozen-input {k}: graph @{name} has {n} inputs (indices 0..{n - 1})")
    if args.input and not _named_inputs(args.input):
        return load_inputs(graph, args.input)
    return make_input_sets(args, graph)[0]


def _named_inputs(specs: Sequence[str]) -> bool:
    return any("=" in sp for sp in specs)


def input_files_per_execution(args: argparse.Namespace, graph: ge.GraphOp) -> list[list[str]]:
    """--input NAME=A.npy,B.npy,...: per execution, one file per Data (index order). A
    Data given one file uses it in every execution; the others must give the same number
    of files."""
    datas = graph.data_nodes
    by_name = {ge.node_name(d): i for i, d in enumerate(datas)}
    files: dict[int, list[str]] = {}
    for sp in args.input:
        nm, eq, paths = sp.partition("=")
        if not eq or nm not in by_name or not paths:
            names = ", ".join(by_name) or "none"
            raise ReferenceEvalError(
                graph,
                f"--input {sp}: give NAME=FILE.npy[,FILE.npy...] for each Data node ({names}), or one path per Data",
            )
        if by_name[nm] in files:
            raise ReferenceEvalError(graph, f"--input {sp}: Data '{nm}' is given twice")
        files[by_name[nm]] = paths.split(",")
    missing = [ge.node_name(d) for i, d in enumerate(datas) if i not in files]
    if missing:
        raise ReferenceEvalError(graph, f"--input: no file for Data {', '.join(repr(m) for m in missing)}")
    counts = sorted({len(v) for v in files.values()} - {1})
    if len(counts) > 1:
        raise ReferenceEvalError(
            graph, f"--input: the inputs give different numbers of files ({counts}), one per execution"
        )
    n = counts[0] if counts else 1
    return [[files[i][k % len(files[i])] for i in range(len(datas))] for k in range(n)]


def dim_sizes(args: argparse.Namespace) -> dict[tuple[str | None, int], list[int]]:
    """--dim [NAME:]AXIS=S1,S2,...: the sizes an unknown dim at AXIS takes in executions 0, 1, ..."""
    out: dict[tuple[str | None, int], list[int]] = {}
    for sp in args.dim:
        key, eq, sizes = sp.partition("=")
        nm, colon, axis = key.rpartition(":")
        try:
            ax = int(axis)
            vals = [int(v) for v in sizes.split(",")]
        except ValueError:
            vals, ax = [], -1
        if not eq or ax < 0 or not vals or any(v < 0 for v in vals):
            raise UserError(f"ge-run: error: --dim {sp}: expected [NAME:]AXIS=SIZE[,SIZE...] (AXIS, SIZE >= 0)")
        out[(nm if colon else None, ax)] = vals
    return out


def execution_count(args: argparse.Namespace, graph: ge.GraphOp) -> int:
    """--executions, else as many executions as the longest --input / --dim list gives."""
    if args.executions is not None:
        return args.executions
    n = 1
    if args.input and _named_inputs(args.input):
        n = max(n, len(input_files_per_execution(args, graph)))
    for sizes in dim_sizes(args).values():
        n = max(n, len(sizes))
    return n


def check_dims_apply(args: argparse.Namespace, graph: ge.GraphOp) -> None:
    """Each --dim names an unknown dim of a random input: one that matches none (a static
    axis, no such input, or --input files giving the shapes) is an error, not ignored."""
    if not args.dim:
        return
    if args.input:
        raise UserError(
            f"ge-run: error: --dim {args.dim[0]}: the --input files give the shapes; --dim sizes random inputs"
        )
    unknown = [
        (ge.node_name(d), ax)
        for d in graph.data_nodes
        if (sh := shape_of(d.results[0].type)) is not None
        for ax, x in enumerate(sh)
        if x < 0
    ]
    names = {f"{nm}:{ax}" for nm, ax in unknown}
    for nm, ax in dim_sizes(args):
        if not any(ax == a and nm in (None, m) for m, a in unknown):
            where = f"unknown dims: {', '.join(sorted(names))}" if names else "the graph's inputs have no unknown dim"
            at = f"{nm}:{ax}" if nm is not None else f"axis {ax}"
            raise UserError(f"ge-run: error: --dim {at}: no graph input has an unknown dim there ({where})")


def make_input_sets(args: argparse.Namespace, graph: ge.GraphOp) -> list[list[np.ndarray]]:
    """Each execution's inputs. Files (--input), or --seed's random inputs: a graph whose
    shapes are all known draws one set for every execution (the same values, fresh
    buffers); an unknown dim (`?`) takes --dim's size for that execution (the list
    repeats), by default 1, and each execution draws its own values."""
    n = execution_count(args, graph)
    check_dims_apply(args, graph)
    if args.input:
        if not _named_inputs(args.input):
            one = load_inputs(graph, args.input)
            return [one] * n
        per = input_files_per_execution(args, graph)
        loaded: dict[tuple[str, ...], list[np.ndarray]] = {}
        sets = []
        for k in range(n):
            paths = tuple(per[k % len(per)])
            if paths not in loaded:
                loaded[paths] = load_inputs(graph, list(paths))
            sets.append(loaded[paths])
        return sets
    rng = np.random.default_rng(0 if args.seed is None else args.seed)
    datas = graph.data_nodes
    shapes = [shape_of(d.results[0].type) for d in datas]
    if all(sh is not None and all(x >= 0 for x in sh) for sh in shapes):
        one = random_inputs(graph, rng)
        return [one] * n
    dims = dim_sizes(args)
    ranges = input_ranges(graph)
    sets = []
    for k in range(n):
        ins = []
        for d, sh, want in zip(datas, shapes, ranges):
            if sh is None:
                raise ReferenceEvalError(
                    d, f"random inputs need a known rank, got {d.results[0].type}; give --input files"
                )
            nm = ge.node_name(d)
            concrete = []
            for ax, x in enumerate(sh):
                if x >= 0:
                    concrete.append(x)
                    continue
                sizes = dims.get((nm, ax)) or dims.get((None, ax)) or [DEFAULT_DIM]
                concrete.append(sizes[k % len(sizes)])
            ins.append(random_input(d, rng, tuple(concrete), want))
        sets.append(ins)
    return sets


@dataclass
class Simulation:
    """A model loaded once and executed N times (runtime/simulator.py)."""

    figures: dict[str, object]  # report/figures.py: model_figures
    runs: list[list[Output]]
    refreshed: list[int]  # per execution: tasks whose I/O addresses were refreshed
    stats: SimulatorStats


def simulate_model(
    model: npu.ModelOp, inputs: Sequence[np.ndarray], names: Sequence[str], executions: int, frozen: Sequence[int]
) -> Simulation:
    """DavinciModel: load `model` (frozen inputs refreshed once), execute it `executions`
    times on fresh input buffers (ge_tools/workflow.py: execute_model). A SimulatorFault
    propagates."""
    return _simulation(execute_model(model, [inputs] * executions, frozen), names)


def _simulation(ex: Execution, names: Sequence[str]) -> Simulation:
    """`ex`'s outputs named (`node:index`) for the comparison."""
    runs = [[Output(i, nm, a) for i, (nm, a) in enumerate(zip(names, outs))] for outs in ex.runs]
    return Simulation(ex.figures, runs, ex.refreshed, ex.stats)


LIST_SHOWN = 20  # items of a long list ge-run prints; --stats-json has them all


def capped(items: Sequence[str]) -> str:
    """`N (a, b, ...)` up to LIST_SHOWN items, else `N; the first 20: a, b, ...; all in
    --stats-json`: a 10,000-node graph's no-task line was 14,672 characters (tests/tools/test_dumps.py)."""
    if not items:
        return "0"
    if len(items) <= LIST_SHOWN:
        return f"{len(items)} ({', '.join(items)})"
    return f"{len(items)}; the first {LIST_SHOWN}: {', '.join(items[:LIST_SHOWN])}; all in --stats-json"


def capped_values(values: Sequence[int]) -> str:
    """A per-execution list, `[a, b]`, or its first LIST_SHOWN values and a count."""
    if len(values) <= LIST_SHOWN:
        return str(list(values))
    shown = ", ".join(str(v) for v in values[:LIST_SHOWN])
    return f"[{shown}, ...] ({len(values)} executions; the first {LIST_SHOWN} shown, all in --stats-json)"


def report_simulation(sim: Simulation, executions: int) -> dict[str, object]:
    """Print the simulator's figures (per execution); return them for --stats-json."""
    fig, st = sim.figures, sim.stats
    n = st.executions
    moved = st.kernel_bytes_read + st.kernel_bytes_written + st.memcpy_bytes
    kinds = ", ".join(f"{k} {v // n}" for k, v in sorted(st.tasks_by_kind.items()))
    lb = fig["memory_lower_bound"] or 0
    ratio = f" ({fig['memory_size'] / lb:.2f}x)" if lb else ""  # type: ignore[operator]
    print(f"simulator: {fig['tasks']} tasks on {fig['streams']} stream(s) ({kinds}), {fig['kernels']} kernels")
    nt: list[str] = fig["no_task_nodes"]  # type: ignore[assignment]
    nt_moved = sum(st.bytes_by_node.get(str(x).rsplit(" (", 1)[0], 0) for x in nt)
    print(f"no-task nodes: {capped(nt)}" + (f"; bytes moved by their tasks: {nt_moved // n}" if nt else ""))
    print(
        f"bytes moved per execution: {moved // n} (kernels read {st.kernel_bytes_read // n}, "
        f"wrote {st.kernel_bytes_written // n}; memcpy {st.memcpy_bytes // n})"
    )
    print(f"memory: feature map {fig['memory_size']} bytes, lower bound {lb}{ratio}, peak live {st.peak_live_fm_bytes}")
    print(f"executions: {executions}, args refreshed per execution: {capped_values(sim.refreshed)}")
    return simulation_stats(sim.figures, sim.stats, sim.refreshed, executions)


@dataclass
class Comparison:
    """Every execution's outputs against the reference's (see Tolerance)."""

    mismatches: int  # differing elements over all outputs and executions
    report: list[str]  # one line per differing output (per execution when there are several)
    max_error: float
    unbounded: int  # output elements whose error bound is infinite (undecidable)
    undecidable: list[str] = dataclasses.field(default_factory=list)  # per output: count, first indices
    warnings: list[str] = dataclasses.field(default_factory=list)  # constant outputs
    # per execution, per output: the elements whose end-to-end bound is infinite
    infinite: list[list[np.ndarray]] = dataclasses.field(default_factory=list, repr=False)
    anchored: int = 0  # of those, elements the anchored judgment judged (runtime/anchored.py)
    steps: list[str] = dataclasses.field(default_factory=list)  # the anchored judgment's lines
    anchored_steps: int = 0  # steps judged on their own inputs (0: the judgment did not run)


def compare_runs(ref: Sequence[Output], runs: Sequence[Sequence[Output]], bounds: Sequence[np.ndarray]) -> Comparison:
    mismatches, report = 0, []
    for k, r in enumerate(runs):
        bad, lines = compare(ref, r, bounds)
        mismatches += bad
        report += [f"execution {k}: {ln}" for ln in lines] if len(runs) > 1 else lines
    unbounded, where = undecidable(ref, bounds)
    inf = [np.isinf(b) for b in bounds]
    return Comparison(
        mismatches, report, max(_max_error(ref, r) for r in runs), unbounded, where, constant_outputs(ref),
        [inf] * len(runs),
    )  # fmt: skip


def report_comparison(
    c: Comparison, got: Sequence[Output], print_values: bool, accept_undecidable: bool = False
) -> int:
    """Print the comparison and the last execution's outputs; the exit status: 1 on a
    mismatch, and on undecidable elements unless `accept_undecidable`."""
    print(f"max error: {c.max_error:.6g}")
    for line in c.warnings:
        print(line)
    if c.anchored_steps:
        print(
            f"anchored: {c.anchored_steps} steps judged on the inputs they read; {c.anchored} output elements "
            "undecidable end to end judged step by step"
        )
        for line in c.steps:
            print(f"  {line}")
    if c.unbounded:
        verdict = "accepted unjudged (--accept-undecidable)" if accept_undecidable else "never a match"
        print(f"tolerance: {c.unbounded} output elements are undecidable (their error bound is infinite): {verdict}")
        for line in c.undecidable:
            print(f"  {line}")
    print_outputs(got, print_values)
    if c.mismatches:
        for line in c.report:
            print(line)
        print(f"outputs do not match the reference ({c.mismatches} elements differ)")
        return 1
    if c.unbounded and not accept_undecidable:
        print(
            f"comparison inconclusive: {c.unbounded} output elements are undecidable "
            "(--accept-undecidable accepts them unjudged); the other elements match the reference"
        )
        return 1
    print("outputs match the reference")
    return 0


def write_reports(
    args: argparse.Namespace,
    pipeline: PassPipeline,
    module: ModuleOp,
    compiled: ModuleOp | None,
    stats: dict[str, object],
    checks: Sequence[Check],
) -> None:
    """--remarks-json and --report, from the remarks and stages the pipeline's RunRecorder gathered."""
    rec = run_recorder(args, pipeline)
    if args.remarks_json:
        from report.remarks import write_remarks_json

        write_remarks_json(args.remarks_json, rec.remarks if rec is not None else [])
    if args.report:
        from report.html import write_report
        from report.layered import RENDERER as REPORT_RENDERER

        page = write_report(args.report, args.file, stats, module, rec, compiled, checks)
        print(f"ge-run: report {page}: graph pictures drawn by {REPORT_RENDERER}", file=sys.stderr)


def write_stats(path: str | None, stats: dict[str, object]) -> None:
    if path:
        with open(path, "w") as f:
            json.dump(stats, f, indent=2, sort_keys=True)
            f.write("\n")


def run(argv: Sequence[str] | None = None) -> int:
    """ge-run on `argv` (ge_tools/run_args.py's arguments): its exit status."""
    return run_parsed(build_arg_parser().parse_args(argv))


def run_parsed(args: argparse.Namespace) -> int:
    """ge-run on its parsed arguments (ge_tools/run_cli.py reads them before this module
    loads): the exit status."""
    if (error := check_arguments(args)) is not None:
        print(error, file=sys.stderr)
        return 1
    pipeline = compile_pipeline(args)
    ctx = context()  # ge-opt's: every dialect
    module = read_input(ctx, args)
    graph = select_graph(module, args.graph)
    check_host_memory(module, host_memory_bytes())
    try:
        status = _run_graph(args, ctx, pipeline, module, graph)
    except MemoryError as e:  # a backstop: check_host_memory refuses what clearly cannot fit
        print(f"{op_location(graph)}: error: ge-run: out of host memory: {e}", file=sys.stderr)
        return 1
    sys.stdout.flush()
    return status


def _run_graph(
    args: argparse.Namespace, ctx: Context, pipeline: PassPipeline, module: ModuleOp, graph: ge.GraphOp
) -> int:
    name = graph.sym_name.data
    rec = run_recorder(args, pipeline)
    compiled: ModuleOp | None = None
    if is_dynamic_graph(module, graph):
        if not has_static_inputs_only(module, graph) or args.reference:
            return _run_dynamic(args, ctx, pipeline, module, graph)
        # static inputs, unknown dims inside (values computed in the graph, which
        # ONNX's inference did not follow): GE's preparation may make the graph static
        with rec.collecting() if rec is not None else nullcontext():
            compiled = compile_module(ctx, pipeline, module)
        if find_model(compiled, name) is None:
            return _run_dynamic(args, ctx, pipeline, module, graph)
    inputs = make_inputs(args, graph)
    named = bool(args.input) and _named_inputs(args.input)
    sets = make_input_sets(args, graph) if named else [inputs] * execution_count(args, graph)
    executions = len(sets)
    distinct = len({id(x) for x in sets}) > 1  # --input NAME=A.npy,B.npy: other values per execution
    ref = _evaluate(graph, inputs)
    stats: dict[str, object] = {
        "graph": name,
        "mode": "reference" if args.reference else "compare",
        "passes": [p.name for p in pipeline.passes],
        "outputs": [
            {"index": o.index, "name": o.name, "shape": list(o.array.shape), "dtype": str(o.array.dtype)} for o in ref
        ],
    }
    if args.reference:
        if args.remarks and not args.input:
            remark_input_ranges(graph)
        print_outputs(ref, args.print_values)
        if args.save_dir:
            _save(args.save_dir, "output_", ref)
        write_stats(args.stats_json, stats)
        write_reports(args, pipeline, module, None, stats, [])
        return 0

    if compiled is None:
        with rec.collecting() if rec is not None else nullcontext():
            if (args.remarks or rec is not None) and not args.input:
                remark_input_ranges(graph)
            compiled = compile_module(ctx, pipeline, module)
    host_root = select_graph(compiled, name) if find_model(compiled, name) is None else None
    if isinstance(host_root, ge.GraphOp) and A.get_bool(host_root, A.GRAPH_UNKNOWN_FLAG):
        # dynamic_shape_partition.cc: IsGraphNeedUnknownShapePartition (host scheduling,
        # ge.exec.hostSchedulingMaxThreshold) or SetRootGraphUnknown (placement HOST): a
        # static graph left unknown runs op by op on the dynamic executor
        return _run_dynamic(args, ctx, pipeline, module, graph)
    if (model := find_model(compiled, name)) is not None:
        try:
            if distinct:
                sim = simulate_sets(model, sets, output_names(graph), args.frozen_input)
            else:
                sim = simulate_model(model, inputs, output_names(graph), executions, args.frozen_input)
        except SimulatorFault as e:
            print(f"{op_location(fault_node(graph, e))}: error: simulator: {e}", file=sys.stderr)
            return 1
        stats.update(report_simulation(sim, executions))
        runs = sim.runs
    else:
        runs = [_evaluate(select_graph(compiled, name), s) for s in (sets if distinct else [inputs])]
    if distinct:
        refs = _references(graph, sets)
        c = compare_each(refs, runs, _bounds(graph, sets))
    else:
        refs = [ref]
        c = compare_runs(ref, runs, output_error_bounds(graph, inputs))
    return _finish(args, pipeline, module, compiled, stats, c, runs, refs[-1], sets)


def _finish(
    args: argparse.Namespace,
    pipeline: PassPipeline,
    module: ModuleOp,
    compiled: ModuleOp,
    stats: dict[str, object],
    c: Comparison,
    runs: Sequence[Sequence[Output]],
    ref: Sequence[Output],
    sets: Sequence[Sequence[np.ndarray]],
) -> int:
    """Print the comparison (anchored step by step where the end-to-end comparison leaves
    elements undecidable or finds a mismatch, or with --anchored: anchor_comparison) and
    the last execution's outputs, compare them with onnxruntime's on that execution's
    inputs (`sets[k]`: execution k's), save, write --stats-json and the reports; the exit
    status."""
    graph = select_graph(module, args.graph)
    model = find_model(compiled, graph.sym_name.data)
    verdicts: dict[int, Verdict] = {}
    if model is not None and (c.unbounded or c.mismatches or args.anchored):
        c, verdicts = anchor_comparison(c, model, graph, sets, runs, args.frozen_input)
    status = report_comparison(c, runs[-1], args.print_values, args.accept_undecidable)

    def ours() -> Verdict | None:  # the anchored judgment of the last execution, made once
        if id(sets[-1]) not in verdicts and model is not None:
            verdicts[id(sets[-1])] = judge_simulator(model, graph, sets[-1], args.frozen_input, within_tolerance)[0]
        return verdicts.get(id(sets[-1]))

    oracle_status, oracle_check = compare_with_onnx_model(args, sets[-1], runs[-1], graph, ours)
    status = max(status, oracle_status)
    stats.update(mismatch_count=c.mismatches, max_error=c.max_error, unbounded_elements=c.unbounded)
    stats.update(anchored_elements=c.anchored, anchored_steps=c.anchored_steps)
    if args.save_dir:
        _save(args.save_dir, "output_", runs[-1])
        _save(args.save_dir, "reference_output_", ref)
    write_stats(args.stats_json, stats)
    figures: dict[str, object] = {
        "mismatch_count": c.mismatches,
        "max_error": c.max_error,
        "unbounded_elements": c.unbounded,
        "anchored_elements": c.anchored,
    }
    passed = not c.mismatches and not (c.unbounded and not args.accept_undecidable)
    checks = [Check("the reference interpreter", passed, figures, c.report + c.steps + c.undecidable)]
    if oracle_check is not None:
        checks.append(oracle_check)
    write_reports(args, pipeline, module, compiled, stats, checks)
    return status


def _references(graph: ge.GraphOp, sets: Sequence[Sequence[np.ndarray]]) -> list[list[Output]]:
    """The reference's outputs for each execution's inputs (once per distinct set)."""
    done: dict[int, list[Output]] = {}
    return [done.setdefault(id(s), _evaluate(graph, s)) for s in sets]


def _bounds(graph: ge.GraphOp, sets: Sequence[Sequence[np.ndarray]]) -> list[list[np.ndarray]]:
    done: dict[int, list[np.ndarray]] = {}
    return [done.setdefault(id(s), output_error_bounds(graph, s)) for s in sets]


def compare_each(
    refs: Sequence[Sequence[Output]], runs: Sequence[Sequence[Output]], bounds: Sequence[Sequence[np.ndarray]]
) -> Comparison:
    """Execution k's outputs against the reference's on execution k's inputs."""
    mismatches, report, err, unbounded, where, warnings = 0, [], 0.0, 0, [], []
    infinite = []
    for k, (ref, r, b) in enumerate(zip(refs, runs, bounds)):
        infinite.append([np.isinf(e) for e in b])
        bad, lines = compare(ref, r, b)
        mismatches += bad
        report += [f"execution {k}: {ln}" for ln in lines] if len(runs) > 1 else lines
        err = max(err, _max_error(ref, r))
        n, lines = undecidable(ref, b)
        unbounded += n
        where += [f"execution {k}: {ln}" for ln in lines] if len(runs) > 1 else lines
        warnings += [w for w in constant_outputs(ref) if w not in warnings]
    return Comparison(mismatches, report, err, unbounded, where, warnings, infinite)


ANCHOR_WHO = "the compiled program"


def anchor_comparison(
    c: Comparison,
    model: npu.ModelOp,
    graph: ge.GraphOp,
    sets: Sequence[Sequence[np.ndarray]],
    runs: Sequence[Sequence[Output]],
    frozen: Sequence[int],
) -> tuple[Comparison, dict[int, Verdict]]:
    """`c` with the anchored judgment (runtime/anchored.py, docs/tolerance.md): per
    distinct input set the model executed once more, each kernel's outputs captured and
    judged against the reference on the inputs it read. An element `c` left undecidable is
    judged where its last step's bound is finite and every step before it is decided;
    a step outside its tolerance, or such an element outside its last step's, is a
    mismatch. Also returns the verdicts by input set (id)."""
    verdicts: dict[int, Verdict] = {}
    mism, judged, still, lines, where = 0, 0, 0, [], []
    many = len(runs) > 1
    for k, (ins, run) in enumerate(zip(sets, runs)):
        at = f"execution {k}: " if many else ""
        if id(ins) not in verdicts:
            v, outs = judge_simulator(model, graph, ins, frozen, within_tolerance)
            verdicts[id(ins)] = v
            for st in v.wrong:
                mism += st.bad
                lines.append(f"{op_location(st.node)}: {at}{st.describe(ANCHOR_WHO)}")
            for st in v.undecided:
                lines.append(f"{op_location(st.node)}: {at}{st.describe(ANCHOR_WHO)}")
        else:
            v, outs = verdicts[id(ins)], []
        bad, unjudged = v.outputs([o.array for o in run], within_tolerance)
        for o, a, b, u, inf in zip(run, outs or [None] * len(run), bad, unjudged, c.infinite[k]):
            if a is not None and np.any(moved := inf & ~_same_values(a, o.array)):
                # the steps judged are the second execution's: an element they judge must be its
                mism += int(np.count_nonzero(moved))
                lines.append(
                    f"{at}output {o.index} {o.name}: {int(np.count_nonzero(moved))} elements undecidable end to end "
                    "differ from a second execution on the same inputs"
                )
            wrong = inf & b
            if np.any(wrong):
                n, first = int(np.count_nonzero(wrong)), _first(wrong)
                mism += n
                lines.append(
                    f"{at}output {o.index} {o.name}: {n} of the elements undecidable end to end are outside their "
                    f"last step's tolerance; first at {list(first)}: compiled {_num(o.array[first])}, "
                    f"reference on the step's inputs {_num(v.refs[o.index][first])}"
                )
            left = inf & u
            n = int(np.count_nonzero(left))
            if n:
                shown = ", ".join(str([int(i) for i in ix]) for ix in np.argwhere(left)[:UNDECIDABLE_SHOWN])
                where.append(
                    f"{at}output {o.index} {o.name}: {n} of {left.size} elements undecidable step by step too, at {shown}"
                )
            judged += int(np.count_nonzero(inf & ~u & ~b))
            still += n
    steps = sum(v.steps for v in verdicts.values())
    c = dataclasses.replace(
        c, mismatches=c.mismatches + mism, unbounded=still, undecidable=where if c.unbounded else c.undecidable,
        anchored=judged, steps=lines, anchored_steps=steps,
    )  # fmt: skip
    return c, verdicts


def _same_values(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise: equal, or both NaN (all False where shapes or dtypes differ)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return np.zeros(b.shape, bool)
    with np.errstate(invalid="ignore"):
        same = a == b
        if is_float_dtype(a.dtype):
            same |= np.isnan(a.astype(np.float64)) & np.isnan(b.astype(np.float64))
    return same


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def simulate_sets(
    model: npu.ModelOp, sets: Sequence[Sequence[np.ndarray]], names: Sequence[str], frozen: Sequence[int]
) -> Simulation:
    """DavinciModel: load `model` once, execute it once per input set (fresh buffers)."""
    return _simulation(execute_model(model, sets, frozen), names)


# ---------------------------------------------------------------------------------------
# Dynamic shapes (docs/dynamic_shapes.md): partitioned graphs on runtime/dynamic_executor.py
# ---------------------------------------------------------------------------------------


def _policy(p: int) -> str:
    return UPDATE_POLICY_NAMES.get(p, "unknown")


def symbolic_compile(ctx: Context, compiled: ModuleOp, inputs: Sequence[np.ndarray], remarks: bool) -> ModuleOp:
    """`compiled` (ge-compile's dynamic module) with its unknown-shape graphs lowered over
    symbols made from `inputs`' shapes (ge-symbolic-autofuse) and fused (ge-autofuse
    symbolic=true), a copy."""
    from lowering.symbolic_autofuse import SymbolicAutofusePass
    from passes.autofuse.autofuse import AutofusePass

    shapes = tuple("x".join(map(str, np.shape(a))) or "scalar" for a in inputs)
    out = compiled.clone()
    # first stage over symbols, then ge-autofuse's CanFuse on the symbolic AscBackends
    SymbolicAutofusePass(input_shapes=shapes, remarks=remarks).apply(ctx, out)
    AutofusePass(symbolic=True, remarks=remarks).apply(ctx, out)
    return out


def report_dynamic(
    summary: PartitionSummary, history: Sequence[ExecutionStats], compiles: int | None = None
) -> dict[str, object]:
    """Print the partition and each execution's refresh cost; return them for --stats-json."""
    print(summary.line())
    if compiles is not None:
        print(f"compiles: {compiles} (symbolic: one compile serves every execution whose guards hold)")
    for h in history:
        shapes = ", ".join(fmt_shape(s) for s in h.input_shapes)
        models = "; ".join(
            f"@{m.model} {_policy(m.ret_up)}, {m.refreshed_slots} args slots refreshed ({m.refreshed_bytes} bytes)"
            for m in h.known_models
        )
        syms = ", ".join(f"{n}={v}" for n, v in h.symbols.items())
        print(
            f"execution {h.execution}: inputs {shapes}; "
            + (f"symbols {syms}, {h.device_kernels} device kernels, " if h.symbols or h.device_kernels else "")
            + f"{h.host_nodes} host nodes, "
            f"static model runs: {h.known_models_executed}" + (f" ({models})" if models else "")
            + f"; pool: {h.pool.mallocs} mallocs ({h.pool.reused_blocks} reused), peak {h.pool.peak_in_use_bytes} bytes"
        )  # fmt: skip
    refreshed = [h.args_bytes_refreshed for h in history]
    print(f"executions: {len(history)}, args bytes refreshed per execution ({ARGS_SLOT_BYTES} per slot): {refreshed}")
    return {
        "executions": len(history),
        "args_bytes_refreshed": refreshed,
        "dynamic": {"clusters": summary.as_dict(), "executions": [h.as_dict() for h in history]},
    }


def _run_dynamic(
    args: argparse.Namespace, ctx: Context, pipeline: PassPipeline, module: ModuleOp, graph: ge.GraphOp
) -> int:
    """Each execution's inputs (their shapes may differ) on the reference and on
    the dynamic executor (runtime/dynamic_executor.py), compared execution by execution."""
    name = graph.sym_name.data
    make_inputs(args, graph)  # checks --frozen-input
    sets = make_input_sets(args, graph)
    refs = _references(graph, sets) if not is_dynamic_module(module) else []
    stats: dict[str, object] = {
        "graph": name,
        "mode": "reference" if args.reference else "compare",
        "passes": [p.name for p in pipeline.passes],
        "outputs": [
            {"index": o.index, "name": o.name, "shape": list(o.array.shape), "dtype": str(o.array.dtype)}
            for o in (refs[-1] if refs else [])
        ],
    }
    if args.reference:
        if args.remarks and not args.input:
            remark_input_ranges(graph)
        for k, ref in enumerate(refs):
            if len(refs) > 1:
                print(f"execution {k}:")
            print_outputs(ref, args.print_values)
        if args.save_dir and refs:
            _save(args.save_dir, "output_", refs[-1])
        write_stats(args.stats_json, stats)
        write_reports(args, pipeline, module, None, stats, [])
        return 0
    rec = run_recorder(args, pipeline)
    with rec.collecting() if rec is not None else nullcontext():
        if (args.remarks or rec is not None) and not args.input:
            remark_input_ranges(graph)
        compiled = compile_dynamic(ctx, pipeline, module, graph, args.remarks or bool(args.remarks_json or args.report))
    names = output_names(graph)
    root = next((g for g in compiled.ops if isinstance(g, ge.GraphOp) and g.sym_name.data == graph.sym_name.data), None)
    # a root ge-partition-dynamic left whole and unknown (placement HOST, host scheduling,
    # lower limit -1: SetRootGraphUnknown) runs op by op on the host, as GE's host
    # execution does, never over symbols in device kernels
    host_whole = root is not None and A.get_bool(root, A.GRAPH_UNKNOWN_FLAG) and not A.get_bool(root, PARTITIONED_ATTR)
    symbolic = not args.no_symbolic and not is_dynamic_module(module) and bool(sets) and not host_whole
    remarks = args.remarks or bool(args.remarks_json or args.report)
    base = compiled
    if symbolic:
        compiled = symbolic_compile(ctx, base, sets[0], remarks)
    compiles = 1
    history: list[ExecutionStats] = []
    try:
        # guard_cache.cc: the compiled graphs (guarded execution points), the first whose
        # guards hold runs an execution; none: compile again, for its shapes
        points = [DynamicExecutor(compiled, args.frozen_input)]
        runs = []
        for k, ins in enumerate(sets):
            outs = None
            failed: list[str] = []
            for ex in points:
                ex.executions = k
                try:
                    outs = ex.execute([np.array(a, copy=True) for a in ins])
                except GuardFailed as g:
                    failed.append(str(g))
                    continue
                history.append(ex.last_stats)
                break
            if outs is None:
                shapes = ", ".join(fmt_shape(np.shape(a)) for a in ins)
                print(f"execution {k}: guard failed ({'; '.join(failed)}): recompiling for inputs {shapes}")
                compiles += 1
                compiled = symbolic_compile(ctx, base, ins, remarks)
                ex = DynamicExecutor(compiled, args.frozen_input)
                ex.executions = k
                outs = ex.execute([np.array(a, copy=True) for a in ins])
                history.append(ex.last_stats)
                points.append(ex)
            runs.append([Output(i, nm, a) for i, (nm, a) in enumerate(zip(names, outs))])
    except SimulatorFault as e:
        print(f"{op_location(fault_node(graph, e))}: error: simulator: {e}", file=sys.stderr)
        return 1
    except AssertFailed as e:
        print(f"{op_location(graph)}: error: {e}", file=sys.stderr)
        return 1
    stats["compiles"] = compiles
    stats.update(report_dynamic(partition_summary(compiled), history, compiles if symbolic else None))
    if not refs:  # a compiled module: no graph to take a reference from
        print("no reference: the module is already compiled (its known-shape subgraphs are npu.models)")
        print_outputs(runs[-1], args.print_values)
        write_stats(args.stats_json, stats)
        return 0
    c = compare_each(refs, runs, _bounds(graph, sets))
    return _finish(args, pipeline, module, compiled, stats, c, runs, refs[-1], sets)


def main(argv: Sequence[str] | None = None) -> None:
    tune_gc()
    status = 0

    def go() -> None:
        nonlocal status
        status = run(argv)

    run_tool(go, "ge-run")
    if status:
        sys.exit(status)


def cli() -> NoReturn:
    """main, then exit_without_teardown (ge_fast/process.py): the console script of an install
    made before ge_tools/run_cli.py, whose script reads the arguments first."""
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
