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
import inspect
import json
import math
import os
import sys
import textwrap
import zlib
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import BinaryIO, NoReturn, get_origin, get_type_hints

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, OpResult
from xdsl.passes import PassPipeline
from xdsl.utils.hints import type_repr

from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import Remark, current_remark_sink, op_location, remark, remark_sink
from ge_dialect.dtypes import compute_dtype, dtype_bits, ge_dtype_name, is_float_dtype, numpy_dtype
from ge_dialect.graph import IS_UNKNOWN_SHAPE, has_unknown_shape
from ge_dialect.names import name_all_nodes
from ge_dialect.pass_options import PassOptionError, option_table
from ge_dialect.shape_env import AssertFailed, GuardFailed
from ge_dialect.shapes import fmt_shape
from ge_dialect.verify import verify_module
from ge_fast.process import exit_without_teardown, tune_gc
from ge_tools.cli_args import (
    DUMP_DIR_HELP,
    add_elide_argument,
    add_fast_paths_argument,
    elide_limit,
    input_size_cap,
    one_line_arg_errors,
    run_tool,
)
from ge_tools.dump_onnx import add_dump_onnx_argument, with_dump_onnx
from ge_tools.import_onnx import add_input_shape_argument, add_max_input_size_argument
from ge_tools.input_ranges import InputRange, draw_integers, input_ranges
from ge_tools.onnx_oracle import tolerance_text
from ge_tools.opt import context
from ge_tools.parse import INT64_MAX, UserError, host_memory_bytes, parse_module, read_ir_file
from ge_tools.pass_callback import PipelineCallback
from ge_tools.pipeline import GeCompilePass
from ge_tools.pipeline_spec import PipelineError, build_pipeline, with_remarks
from ge_tools.progress import PassBar, phase, steps
from ge_tools.registry import get_all_passes
from report.figures import help_text as memory_help
from report.html import Check, RunRecorder, write_report
from report.layered import RENDERER as REPORT_RENDERER
from report.remarks import write_remarks_json
from runtime.dynamic_executor import (
    PARTITIONED_ATTR,
    DynamicExecutor,
    ExecutionStats,
    PartitionSummary,
    is_dynamic_module,
    partition_summary,
)
from runtime.error_bound import output_error_bounds
from runtime.graph_interpreter import ReferenceEvalError, check_value
from runtime.interpreter import run_graph
from runtime.reference import select_graph
from runtime.simulator import ARGS_SLOT_BYTES, UPDATE_POLICY_NAMES, LoadedModel, SimulatorFault, load
from runtime.simulator import Stats as SimulatorStats

RTOL = 1e-5
ATOL = 1e-6
DEFAULT_DIM = 1  # the size of an unknown dim without --dim (a free dimension's usual 1)
PARTITION_PASS = "ge-partition-dynamic"  # GE's DynamicShapePartitioner (passes/partition/)
NPY_MAGIC = b"\x93NUMPY"
NPY_MAX_HEADER = 10000  # numpy.lib.format's default max_header_size (literal_eval is not fed more)

DESCRIPTION = """\
ge-run: run a ge graph on the reference interpreter and check a compiled copy against it.

Modes:
  default      run the passes of ge-compile (ge_tools/pipeline.py: graph preparation,
               ge-dimension-compute-pass, ge-constant-folding-pass, ge-dropout-pass,
               ge-stop-gradient-pass, ge-prevent-gradient-pass, ge-snapshot-pass,
               ge-identity-pass, the two folding passes again, ge-partition-dynamic; then
               ge-phony-notask{stage=mark}, ge-lower-autofuse, ge-autofuse,
               ge-split-notask, ge-concat-notask, ge-pack-notask,
               ge-phony-notask{stage=calc}, ge-assign-memory, ge-to-npu{streams=S}) on a copy of
               the module (nodes the file leaves nameless named first, as GE's parser
               names them: `Add_2`, ge_dialect/names.py), load the npu.model
               on the device simulator (runtime/simulator.py) and execute it --executions
               times, each with fresh copies of the inputs (new zero-copy buffers: the
               I/O address refresh of GE's DavinciModel); evaluate the original graph on
               the reference interpreter and compare every output of every execution
               element by element (see Tolerance). Prints a report (simulator: tasks by
               kind, kernels, no-task nodes and the bytes their tasks moved (none: a
               no-task node has no task), bytes moved, args refreshed; memory, see
               below; max error; a list of more than 20 items, as the no-task nodes of a
               large graph, shows its count and first 20, --stats-json all of them), the
               outputs, then "outputs match the reference"
               (exit 0) or a mismatch report (exit 1).
               A simulator fault (bad address, wrong offset: a task's address or a
               no-task view's layout, uninitialised or stale read, clobbered live
               bytes, race, deadlock) is one line "FILE:LINE:COL: error: simulator: ..."
               located at the faulting task's (or view's) GE node (else at its graph;
               for an ONNX model "MODEL.onnx: node 'NAME' (OpType): error: simulator:
               ...", the node's ONNX node), and exit 1.
               When the pipeline does not produce an npu.model, the compiled graph is
               evaluated by the reference interpreter instead.
  -p PIPELINE  the passes to run instead of ge-compile, in ge-opt's -p syntax
               (`-p 'ge-lower-autofuse{enable-pass=reduce},ge-autofuse'`). The options
               of ge-compile are flags too (--streams 2, --enable-pass reduce,concat;
               one per GeCompilePass option), added to -p's single pass.
  --remarks    what each pass decided, node by node, on stderr as ge-opt --remarks
               prints it (`ge-run examples/softmax_like.mlir --enable-pass reduce
               --remarks` shows the reduce fusions and simulates them).
  --reference  only evaluate the graph on the reference interpreter and print outputs.
  dynamic      a graph with nodes of unknown shape (`?` dims), partitioned into known-
               and unknown-shape subgraphs (ge.PartitionedCall with _is_unknown_shape) by
               the -p pipeline's ge-partition-dynamic (a module already in that form keeps
               its partition), whose later passes compile each known subgraph into an
               npu.model marked known_node (ge-opt -p ge-compile's module), runs on the dynamic
               executor (runtime/dynamic_executor.py): unknown-shape nodes on the host with
               the reference semantics over a simulated device memory pool (GE's caching
               allocator), each known-shape model created once and, every execution, given
               its feature-map arena and the addresses of its inputs and outputs (GE's
               DavinciModelUpdateWorkspaces / UpdateArgs / Execute: only the args slots
               whose allocation's address changed are rewritten, frozen inputs on the first
               execution only). Each execution may have other input shapes (--input
               NAME=A.npy,B.npy, --dim) and is compared with the reference on its own
               inputs. Prints the clusters of each kind and which ran as static models,
               then per execution: input shapes, host nodes, per static model GE's update
               policy (all-one-time, model-io, fm-and-model-io, no_need_update) and the
               args slots refreshed, in bytes (8 per slot: 64-bit device addresses), and
               the pool's mallocs and peak; --stats-json adds "dynamic" and
               "args_bytes_refreshed", --report a "Dynamic shapes" section.
               The unknown-shape parts are compiled once over symbols (ge-symbolic-autofuse:
               each `?` dim of an input a symbol whose hint is execution 0's size) into
               fused AscBackends that run as device kernels, tiled per symbol values; each
               execution checks the guards first, and one that fails compiles again for
               that execution's shapes ("guard failed ...: recompiling"). Per execution:
               symbol values, device kernels; --stats-json adds "compiles" and per execution
               "device_kernels"; --no-symbolic runs those nodes on the host. A slot left
               pointing at a moved block is a simulator fault "stale address in execution
               K". An already compiled module (its known parts npu.models) runs without a
               reference. A graph ge-partition-dynamic leaves whole and unknown (its
               placement=HOST, static-model-ops-lower-limit=-1, or a static graph under
               host-scheduling-max-threshold) runs the same way, every node on the host.

{MEMORY_FIGURES}

Inputs, in ge.Data index order: one --input per Data node (.npy arrays whose shape and
numpy dtype must be the Data type's; i1 is held as bool, sub-byte ints as int8/uint8,
bf16 and f8E5M2 / f8E4M3FN / f8E8M0FNU as ml_dtypes' bfloat16 / float8_e5m2 /
float8_e4m3fn / float8_e8m0fnu, GE's bytes; numpy.save writes those with a dtype numpy
alone cannot read back (|V2, <f1, |V1), so for such a Data a file whose dtype is a void
of the same width, or the dtype's own descriptor, is taken as the Data's bytes, and
--save-dir writes them as void arrays of their bytes: `np.load(f).view(ml_dtypes.bfloat16)`;
a file's header is checked against the Data before its data is read, so a header claiming
more elements than the graph takes is refused, not allocated; a Fortran-ordered file runs:
an input the simulator cannot use in place is copied into the model's own buffer, as GE's
DavinciModel copies an input it cannot zero-copy),
or, with --input NAME=A.npy,B.npy,..., one file per execution for Data NAME (one file:
every execution; --executions defaults to the number of files),
or random inputs from --seed: an unknown dim takes --dim [NAME:]AXIS=S1,S2,...'s size for
the execution (the list repeats; --executions defaults to its length), else 1, the size
of a free dimension with no override; each execution of a graph with unknown dims draws
its own values, a static graph's executions share one draw; floats uniform in [-1, 1) rounded to the input
dtype (to nearest, ties to even: representable values; f8E8M0FNU, which holds only
powers of two, 2^k for k uniform in [-4, 4]), signed ints in [-4, 4], unsigned ints in
[0, 8] (narrower for sub-byte types), bools uniform. Random inputs are valid for the
graph (ge_tools/input_ranges.py): an integer input whose values reach the indices of a
gather (Gather, GatherV2, GatherElements), through Cast, Identity, the reshape family,
TransposeD, BroadcastToD, Tile, slices, splits, concats, a gather's data or an Add/Sub of
an integer constant, is uniform over [0, d) of the dim d it indexes (the smallest d where
it indexes several; [0, 1) for an unknown dim), and an input that reaches a divisor (Div,
RealDiv, FloorDiv, Mod, FloorMod) holds no zero (a float one rounded to 0 becomes 1);
--remarks says which inputs and why ("input 'ids': values in [0, 50) because it indexes
node 'emb' (GatherV2) axis 0"). The other inputs draw the same values as without them.

Tolerance: compiled a matches reference b when |a-b| <= 1e-6 + 1e-5*|b| + e (floats; NaN
equals NaN) or |a-b| <= e (integers and bools), where e is the element's error bound
(runtime/error_bound.py; docs/tolerance.md): 0 where the compiled program has no freedom,
else what accumulating in another order may change, carried through the ops that follow. A
sum or mean of n terms (ReduceSumD, ReduceMeanD, AddN) may differ by 2*gamma(n-1)*sum|terms|
(0 for two terms, and 0 where every order gives the exact sum: each term a multiple of the
smallest last significant bit q, sum|terms| < q*2^p), a MatMul or Conv2D dot product of length n by
2*gamma(n)*sum|products| (gamma(n) = n*u/(1-n*u), u the accumulation dtype's unit roundoff:
2^-24 for f32 and for f16, bf16 and float8, which accumulate in f32, 2^-53 for f64), a
ReduceProdD likewise relative to prod(|x|+e); DynamicRNN and DynamicGRUV2 carry the bounds
through their steps (each step's matmuls as MatMul's, sigmoid's and tanh's slopes, the
float32 roundings of the gates); each later op maps its inputs' bounds through
its exact range (Pow(x, 8) multiplies a relative error by 8, Sub of near-equal values keeps
the absolute error, SoftmaxV2 moves y by y*(e^(2D)-1) for inputs moved by D, LayerNorm by
its derivative bounded through the variance and epsilon) and adds its own rounding
(2u|result| plus the dtype's smallest subnormal, u of its dtype: f16 2^-11, bf16 2^-8,
f8E4M3FN 2^-4, f8E5M2 2^-3, f8E8M0FNU 2^-1). A comparison, a bool op, a remainder, an
ArgMax or a gathered index is judged exactly where its operands lie farther from the
decision boundary than their bounds. An element whose bound is infinite (a singularity,
an overflow or a decision boundary within reach) is undecidable and never a match: ge-run
prints "tolerance: N output elements are undecidable", the first indices per output, and
"comparison inconclusive" (exit 1), unless --accept-undecidable accepts them unjudged;
--stats-json counts them as unbounded_elements. An output of more than one element whose
reference values are all equal is warned about ("warning: output K NAME is constant"): a
match on it proves little.

ONNX models: FILE.onnx is imported as ge-import imports it (--input-shape fixes dynamic
input dims; errors as ge-import's). After the comparison with the reference, the
simulator's outputs are compared with onnxruntime's (CPU provider, optimisations off,
the same inputs): one line per output with its largest absolute and relative error, then
"outputs match onnxruntime" or the mismatch (exit 1). Tolerance |a-b| <= atol + rtol*|b| + e
per dtype: {ORT_TOLERANCES}; e is the element's error bound with every op's own rounding
counted (the intermediate dtypes: an f16 op between two Casts may round in f16 here and in
f32 in onnxruntime). An element whose e is infinite is undecidable, as above: "comparison
with onnxruntime inconclusive" (exit 1) unless --accept-undecidable.

Output: one summary line per NetOutput value (index, producer node:output, shape, dtype,
min, max, mean, crc32 of the array's bytes); --print-values adds the full arrays.

Errors (syntax, verifier, bad input files, ops without reference semantics) are one
line FILE:LINE:COL: error: ... and exit 1. The file is read as ge-opt reads it (UTF-8 IR
text whatever its extension, an .onnx model imported). Before allocating anything, ge-run refuses a graph whose
tensors need more host memory than the machine has (twice the sum of every node's
output bytes, as numpy arrays: the reference's values and the compiled run's), located
at the node with the largest output.
"""
DESCRIPTION = DESCRIPTION.replace("{ORT_TOLERANCES}", tolerance_text()).replace("{MEMORY_FIGURES}", memory_help())


@dataclass
class Output:
    index: int
    name: str
    array: np.ndarray


def output_names(graph: ge.GraphOp) -> list[str]:
    """GE's tensor names of the NetOutput values: `producer:output index`."""
    names = []
    for v in graph.net_output.operands:
        if isinstance(v, OpResult):
            names.append(f"{ge.node_name(v.op)}:{v.index}")
        else:
            names.append(v.name_hint or "?")
    return names


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
    t = data.results[0].type
    if shape is None:
        shape = shape_of(t)
    if shape is None or any(d < 0 for d in shape):
        raise ReferenceEvalError(data, f"random inputs need a known shape, got {t}; give --input files")
    elem = t.element_type  # type: ignore[attr-defined]
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
        want = numpy_dtype(d.results[0].type.element_type)  # type: ignore[attr-defined]
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
            itemsize = numpy_dtype(r.type.element_type).itemsize  # type: ignore[attr-defined]
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


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ge-run", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    one_line_arg_errors(p)
    p.add_argument("file", metavar="FILE", help="ge-dialect IR (.mlir), or an ONNX model (.onnx)")
    add_input_shape_argument(p, only_onnx=True)  # docs/onnx.md
    add_max_input_size_argument(p)
    add_elide_argument(p)
    add_fast_paths_argument(p)
    p.add_argument("--reference", action="store_true", help="only evaluate the graph on the reference interpreter")
    p.add_argument(
        "--graph", metavar="NAME", help="the ge.graph to run (default: the only graph no PartitionedCall calls)"
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument(
        "--input", metavar="PATH.npy | NAME=A.npy[,B.npy...]", action="append", default=[],
        help="an input array, one per ge.Data in index order (repeat the option); or, per Data node "
        "NAME, one file per execution (shapes may differ between executions where its type has "
        "unknown dims; one file is used in every execution)",
    )  # fmt: skip
    src.add_argument("--seed", type=int, default=None, help="seed of the random inputs (default 0)")
    p.add_argument("--print-values", action="store_true", help="print every output array in full after its summary")
    p.add_argument(
        "--save-dir", metavar="DIR",
        help="write the outputs as DIR/output_0.npy, ...; when comparing these are the compiled "
        "graph's outputs and the reference's go to DIR/reference_output_0.npy, ...",
    )  # fmt: skip
    p.add_argument(
        "--stats-json", metavar="PATH",
        help="write figures as JSON: graph, mode, passes, outputs (name, shape, dtype) and, "
        "when comparing, mismatch_count (differing elements over all outputs, all executions), "
        "max_error, unbounded_elements (undecidable: an infinite error bound, see Tolerance) and, with the simulator: tasks, tasks_by_kind, kernels, no_task_nodes, "
        "bytes_moved, kernel_bytes_read/written, memcpy_bytes, memory_size, "
        "memory_lower_bound, memory_proven_bound (a proven lower bound on any plan), memory_gap "
        "(memory_size / memory_proven_bound - 1; 0 when optimal), peak_live_fm_bytes, "
        "executions, refreshed_tasks (per execution)",
    )  # fmt: skip
    p.add_argument(
        "--accept-undecidable", action="store_true",
        help="accept output elements whose error bound is infinite (undecidable, see Tolerance) unjudged: "
        "without it they make the comparison inconclusive (exit 1); with it a wrong value there goes unnoticed",
    )  # fmt: skip
    p.add_argument("--dump-dir", metavar="DIR", help=DUMP_DIR_HELP)
    add_dump_onnx_argument(p)
    p.add_argument(
        "--dot-dir", metavar="DIR", help="draw the input and the graph after each pass as ge-opt --dot-dir does"
    )
    p.add_argument(
        "--remarks-json", metavar="FILE",
        help="write every remark of the compile as a JSON object to FILE (pass, stage, verdict, GE rule, "
        "NF code, nodes, message, location, data), as ge-opt --remarks-json does",
    )  # fmt: skip
    p.add_argument(
        "--report", metavar="DIR",
        help="write DIR/index.html, one self-contained page: the summary, the kernels and every fusion "
        "and no-task decision, the graph before and after fusion, the memory plan, the task program per "
        "stream and the comparison (report/html.py), with the full DOT of each picture beside it",
    )  # fmt: skip
    p.add_argument(
        "--executions", type=int, default=None, metavar="N",
        help="execute the loaded model N times, each with fresh input buffers (default 1, or the "
        "number of files per --input NAME=... or of sizes per --dim)",
    )  # fmt: skip
    p.add_argument(
        "--dim", action="append", default=[], metavar="[NAME:]AXIS=SIZE[,SIZE...]",
        help="random inputs: an unknown dim (?) at AXIS (of Data NAME, or of every Data) has SIZE "
        "in execution 0, the next SIZE in execution 1, ... (the list repeats); default 1, as a "
        "free dimension without an override; a --dim that matches no unknown dim is an error",
    )  # fmt: skip
    p.add_argument(
        "--no-symbolic", action="store_true",
        help="dynamic graphs: run the unknown-shape nodes on the host op by op instead of compiling them "
        "once over symbols into fused device kernels (ge-symbolic-autofuse)",
    )  # fmt: skip
    p.add_argument(
        "--frozen-input", type=int, action="append", default=[], metavar="K",
        help="input K is frozen (ge.exec.frozenInputIndexes): its address is refreshed on the first execution only",
    )  # fmt: skip
    add_pipeline_arguments(p)
    return p


def compile_option_fields() -> list[dataclasses.Field[object]]:
    """GeCompilePass's options, each of which ge-run takes as a flag (`--enable-pass`)."""
    return [f for f in dataclasses.fields(GeCompilePass) if f.init and f.name not in ("name", "remarks")]


def _field_docs(cls: type) -> dict[str, str]:
    """The docstring under each dataclass field of `cls` and its bases (`x: int = 1`
    followed by a string), read from their source."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for a, b in zip(body, body[1:]):
            if (
                isinstance(a, ast.AnnAssign)
                and isinstance(a.target, ast.Name)
                and isinstance(b, ast.Expr)
                and isinstance(b.value, ast.Constant)
                and isinstance(b.value.value, str)
            ):
                docs[a.target.id] = " ".join(b.value.value.split())
    return docs


def add_pipeline_arguments(p: argparse.ArgumentParser) -> None:
    """-p, ge-compile's options as flags (from GeCompilePass's fields), --remarks, --version."""
    p.add_argument(
        "-p", "--passes", metavar="PIPELINE", default=None,
        help="the passes to compile with, as ge-opt -p takes them (default: ge-compile); "
        "the flags below set the options of its single pass",
    )  # fmt: skip
    docs, hints = _field_docs(GeCompilePass), get_type_hints(GeCompilePass)
    for f in compile_option_fields():
        name = f.name.replace("_", "-")
        hint = hints.get(f.name, str)
        listed = get_origin(hint) is tuple
        default = f.default if f.default is not dataclasses.MISSING else None
        shown = _spec_text(default) if default not in (None, ()) else "none"
        opt = option_table(GeCompilePass).get(f.name)  # the table --help and the checks read
        if opt is not None:
            doc, takes = opt.doc.rstrip("."), f"takes {opt.allowed.describe(type_repr(hint))}; "
        else:
            doc, takes = docs.get(f.name, type_repr(hint)).rstrip("."), ""
        text = f"{doc} ({takes}ge-compile's {name}; default {shown}{'; a list is a,b,c' if listed else ''})"
        if hint is bool:
            p.add_argument("--" + name, nargs="?", const="true", default=None, metavar="true|false", help=text)
        else:
            word = f.name.rsplit("_", 1)[-1].upper()
            metavar = f"{word}[,{word}...]" if listed else ("N" if hint is int else word)
            p.add_argument("--" + name, default=None, metavar=metavar, help=text)
    p.add_argument(
        "--remarks", action="store_true",
        help="each pass that supports it says, node by node, what it decided and why "
        "(FILE:LINE:COL: remark: ... on stderr, as ge-opt --remarks prints them)",
    )  # fmt: skip
    p.add_argument("--version", action="version", version=version_string())


def _spec_text(v: object) -> str:
    """An option value as -p writes it: true/false, a,b,c."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, tuple):
        return ",".join(map(_spec_text, v))
    return str(v)


def version_string() -> str:
    """`ge-run VERSION (xdsl VERSION)` from the installed packages' metadata."""
    from importlib.metadata import PackageNotFoundError, version

    def of(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "unknown"

    return f"ge-run {of('ge-xdsl')} (xdsl {of('xdsl')})"


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
    with --remarks, verified after each, dumped with --dump-dir: what ge-opt -p runs."""
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
        return PassPipeline(passes, RunRecorder(stages, echo=args.remarks))
    return PassPipeline(passes, stages)


def model_figures(model: npu.ModelOp) -> dict[str, object]:
    tasks = [t for s in model.stream_ops() for t in s.tasks]
    # a node with tasks of its own (a While's label tasks) is not a no-task node, though its
    # outputs are aliases (the loop-carried buffers)
    tasked = {n.data for t in tasks if isinstance(n := t.attributes.get("node"), StringAttr)}
    no_task: dict[str, str] = {}
    for e in model.table():
        if isinstance(e, npu.AliasOp):
            node, ty = e.attributes.get("node"), e.attributes.get("type")
            if (
                isinstance(node, StringAttr)
                and isinstance(ty, StringAttr)
                and ty.data not in ("Data", "RefData")
                and node.data not in tasked
            ):
                no_task.setdefault(node.data, ty.data)
    size = model.regions_table().get("fm", 0)
    bound = A.get_int(model, A.MEMORY_PROVEN_BOUND, 0) or 0
    return {
        "tasks": len(tasks),
        "kernels": sum(isinstance(t, npu.KernelOp) for t in tasks),
        "streams": model.streams.value.data,
        "events": model.events.value.data,
        "no_task_nodes": [f"{n} ({t})" for n, t in no_task.items()],
        "memory_size": model.regions_table().get("fm", 0),
        "memory_lower_bound": A.get_int(model, "memory_lower_bound", 0),
        "memory_proven_bound": bound,
        "memory_gap": size / bound - 1 if bound else 0.0,
    }


def _simulate(
    loaded: LoadedModel, inputs: Sequence[np.ndarray], names: Sequence[str], n: int
) -> tuple[list[list[Output]], list[int]]:
    runs, refreshed = [], []
    for _ in steps(range(n), "ge-run: executions", n):
        outs = loaded.execute([np.array(a, copy=True) for a in inputs])
        runs.append([Output(i, nm, a) for i, (nm, a) in enumerate(zip(names, outs))])
        refreshed.append(len(loaded.refreshed))
    return runs, refreshed


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


def check_arguments(args: argparse.Namespace) -> str | None:
    """The error line of an argument argparse cannot check alone, or None."""
    if args.executions is not None and args.executions < 1:
        return f"ge-run: error: --executions must be >= 1, got {args.executions}"
    if args.seed is not None and args.seed < 0:  # numpy's default_rng takes non-negative seeds only
        return f"ge-run: error: --seed must be >= 0, got {args.seed}"
    return None


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
    from ge_tools.import_onnx import input_shapes_arg, is_onnx_path, is_torch_program_path, load_model_or_text

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
    args: argparse.Namespace, inputs: Sequence[np.ndarray], got: Sequence[Output], graph: ge.GraphOp | None = None
) -> tuple[int, Check | None]:
    """For an ONNX model, the compiled outputs against onnxruntime's
    (ge_tools/onnx_oracle.py), printed; the exit status and the check the report shows.
    (0, None) for anything else. With the imported `graph`, each element's tolerance
    also takes its error bound under independent rounding (docs/tolerance.md: an f16 island
    between two Casts rounds each op in f16 here, maybe in f32 in onnxruntime)."""
    from ge_tools.import_onnx import is_onnx_path

    if not is_onnx_path(args.file):
        return 0, None
    from ge_tools.onnx_oracle import compare_with_onnxruntime, print_oracle

    bounds = output_error_bounds(graph, inputs, independent=True) if graph is not None else None
    result = compare_with_onnxruntime(args.file, inputs, [o.array for o in got], bounds=bounds)
    status = print_oracle(result, args.accept_undecidable)
    figures: dict[str, object] = {}
    for o in result.outputs:
        figures[f"{o.name}: max abs error"] = o.max_abs
        figures[f"{o.name}: max rel error"] = o.max_rel
    lines = [f"output '{o.name}': {o.bad} of {o.size} elements outside the tolerance" for o in result.outputs if o.bad]
    lines += [
        f"output '{o.name}': {o.undecidable} of {o.size} elements undecidable" for o in result.outputs if o.undecidable
    ]
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


def compile_module(ctx: Context, pipeline: PassPipeline, module: ModuleOp) -> ModuleOp:
    """A copy of `module` through `pipeline` (the original stays for the reference). With
    a progress line (stderr is a terminal) each remark starts on a clean line and the line
    is erased at the end."""
    compiled = module.clone()
    cb = pipeline.callback
    inner = cb.inner if isinstance(cb, RunRecorder) else cb
    progress = getattr(inner, "progress", None)
    if progress is None:
        pipeline.apply(ctx, compiled)
        return compiled
    outer = current_remark_sink()

    def sink(r: Remark) -> None:
        progress.clear()
        outer(r)

    try:
        with remark_sink(sink):
            pipeline.apply(ctx, compiled)
    finally:
        progress.clear()
    return compiled


def find_model(compiled: ModuleOp, name: str) -> npu.ModelOp | None:
    """The npu.model ge-to-npu built for graph @name, or None (a pipeline that stops earlier)."""
    return next((m for m in compiled.ops if isinstance(m, npu.ModelOp) and m.sym_name.data == name), None)


@dataclass
class Simulation:
    """A model loaded once and executed N times (runtime/simulator.py)."""

    figures: dict[str, object]  # model_figures
    runs: list[list[Output]]
    refreshed: list[int]  # per execution: tasks whose I/O addresses were refreshed
    stats: SimulatorStats


def simulate_model(
    model: npu.ModelOp, inputs: Sequence[np.ndarray], names: Sequence[str], executions: int, frozen: Sequence[int]
) -> Simulation:
    """DavinciModel: load `model` (frozen inputs refreshed once), execute it `executions`
    times on fresh input buffers. A SimulatorFault propagates."""
    figures = model_figures(model)
    with phase(f"ge-run: loading @{model.sym_name.data} ({len(model.stream_ops())} streams)"):
        loaded = load(model, frozen)
    runs, refreshed = _simulate(loaded, inputs, names, executions)
    return Simulation(figures, runs, refreshed, loaded.stats)


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


def simulation_stats(sim: Simulation, executions: int) -> dict[str, object]:
    """The simulator's figures for --stats-json (per execution) and the Python API."""
    fig, st = sim.figures, sim.stats
    n = st.executions
    return {
        **fig,
        "executions": executions,
        "refreshed_tasks": sim.refreshed,
        "bytes_moved": (st.kernel_bytes_read + st.kernel_bytes_written + st.memcpy_bytes) // n,
        "tasks_by_kind": {k: v // n for k, v in st.tasks_by_kind.items()},
        "kernel_bytes_read": st.kernel_bytes_read // n,
        "kernel_bytes_written": st.kernel_bytes_written // n,
        "memcpy_bytes": st.memcpy_bytes // n,
        "peak_live_fm_bytes": st.peak_live_fm_bytes,
    }


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
    return simulation_stats(sim, executions)


@dataclass
class Comparison:
    """Every execution's outputs against the reference's (see Tolerance)."""

    mismatches: int  # differing elements over all outputs and executions
    report: list[str]  # one line per differing output (per execution when there are several)
    max_error: float
    unbounded: int  # output elements whose error bound is infinite (undecidable)
    undecidable: list[str] = dataclasses.field(default_factory=list)  # per output: count, first indices
    warnings: list[str] = dataclasses.field(default_factory=list)  # constant outputs


def compare_runs(ref: Sequence[Output], runs: Sequence[Sequence[Output]], bounds: Sequence[np.ndarray]) -> Comparison:
    mismatches, report = 0, []
    for k, r in enumerate(runs):
        bad, lines = compare(ref, r, bounds)
        mismatches += bad
        report += [f"execution {k}: {ln}" for ln in lines] if len(runs) > 1 else lines
    unbounded, where = undecidable(ref, bounds)
    return Comparison(
        mismatches, report, max(_max_error(ref, r) for r in runs), unbounded, where, constant_outputs(ref)
    )


def report_comparison(
    c: Comparison, got: Sequence[Output], print_values: bool, accept_undecidable: bool = False
) -> int:
    """Print the comparison and the last execution's outputs; the exit status: 1 on a
    mismatch, and on undecidable elements unless `accept_undecidable`."""
    print(f"max error: {c.max_error:.6g}")
    for line in c.warnings:
        print(line)
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
    rec = pipeline.callback if isinstance(pipeline.callback, RunRecorder) else None
    if args.remarks_json:
        write_remarks_json(args.remarks_json, rec.remarks if rec is not None else [])
    if args.report:
        page = write_report(args.report, args.file, stats, module, rec, compiled, checks)
        print(f"ge-run: report {page}: graph pictures drawn by {REPORT_RENDERER}", file=sys.stderr)


def write_stats(path: str | None, stats: dict[str, object]) -> None:
    if path:
        with open(path, "w") as f:
            json.dump(stats, f, indent=2, sort_keys=True)
            f.write("\n")


def run(argv: Sequence[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
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
    rec = pipeline.callback if isinstance(pipeline.callback, RunRecorder) else None
    compiled: ModuleOp | None = None
    if is_dynamic_graph(module, graph):
        if not _static_inputs_only(module, graph) or args.reference:
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
    return _finish(args, pipeline, module, compiled, stats, c, runs, refs[-1], sets[-1])


def _finish(
    args: argparse.Namespace,
    pipeline: PassPipeline,
    module: ModuleOp,
    compiled: ModuleOp,
    stats: dict[str, object],
    c: Comparison,
    runs: Sequence[Sequence[Output]],
    ref: Sequence[Output],
    inputs: Sequence[np.ndarray],
) -> int:
    """Print the comparison and the last execution's outputs, compare them with
    onnxruntime's on that execution's `inputs`, save, write --stats-json and the reports;
    the exit status."""
    status = report_comparison(c, runs[-1], args.print_values, args.accept_undecidable)
    oracle_status, oracle_check = compare_with_onnx_model(args, inputs, runs[-1], select_graph(module, args.graph))
    status = max(status, oracle_status)
    stats.update(mismatch_count=c.mismatches, max_error=c.max_error, unbounded_elements=c.unbounded)
    if args.save_dir:
        _save(args.save_dir, "output_", runs[-1])
        _save(args.save_dir, "reference_output_", ref)
    write_stats(args.stats_json, stats)
    figures: dict[str, object] = {
        "mismatch_count": c.mismatches,
        "max_error": c.max_error,
        "unbounded_elements": c.unbounded,
    }
    passed = not c.mismatches and not (c.unbounded and not args.accept_undecidable)
    checks = [Check("the reference interpreter", passed, figures, c.report + c.undecidable)]
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
    for k, (ref, r, b) in enumerate(zip(refs, runs, bounds)):
        bad, lines = compare(ref, r, b)
        mismatches += bad
        report += [f"execution {k}: {ln}" for ln in lines] if len(runs) > 1 else lines
        err = max(err, _max_error(ref, r))
        n, lines = undecidable(ref, b)
        unbounded += n
        where += [f"execution {k}: {ln}" for ln in lines] if len(runs) > 1 else lines
        warnings += [w for w in constant_outputs(ref) if w not in warnings]
    return Comparison(mismatches, report, err, unbounded, where, warnings)


def simulate_sets(
    model: npu.ModelOp, sets: Sequence[Sequence[np.ndarray]], names: Sequence[str], frozen: Sequence[int]
) -> Simulation:
    """DavinciModel: load `model` once, execute it once per input set (fresh buffers)."""
    figures = model_figures(model)
    with phase(f"ge-run: loading @{model.sym_name.data} ({len(model.stream_ops())} streams)"):
        loaded = load(model, frozen)
    runs, refreshed = [], []
    for ins in sets:
        outs = loaded.execute([np.array(a, copy=True) for a in ins])
        runs.append([Output(i, nm, a) for i, (nm, a) in enumerate(zip(names, outs))])
        refreshed.append(len(loaded.refreshed))
    return Simulation(figures, runs, refreshed, loaded.stats)


# ---------------------------------------------------------------------------------------
# Dynamic shapes (docs/dynamic_shapes.md): partitioned graphs on runtime/dynamic_executor.py
# ---------------------------------------------------------------------------------------


def is_dynamic_graph(module: ModuleOp, graph: ge.GraphOp) -> bool:
    """A graph the dynamic executor runs: partitioned (DYN_CONTRACT.md §2/§3), or with a
    node of unknown shape (GE's IsUnknownShapeOp on any node of the root graph)."""
    if PARTITIONED_ATTR in graph.attributes or is_dynamic_module(module):
        return True
    return any(has_unknown_shape(op) for op in graph.body.block.ops)


def _static_inputs_only(module: ModuleOp, graph: ge.GraphOp) -> bool:
    """A flat graph whose Data nodes all have static shapes (its unknown dims are inside)."""
    if PARTITIONED_ATTR in graph.attributes or is_dynamic_module(module):
        return False
    return all(not has_unknown_shape(d) for d in graph.data_nodes)


def uncompiled_known_subgraphs(module: ModuleOp) -> list[str]:
    """The callees of known-shape calls (`_is_unknown_shape = false`, DYN_CONTRACT.md §2)
    that are still ge.graphs, not known-node models, in call order."""
    graphs = {g.sym_name.data for g in module.ops if isinstance(g, ge.GraphOp)}
    out: dict[str, None] = {}
    for op in module.walk():
        if isinstance(op, ge.PartitionedCall) and not A.get_bool(op, IS_UNKNOWN_SHAPE, True):
            f = op.attributes.get("f")
            if isinstance(f, SymbolRefAttr) and f.root_reference.data in graphs:
                out.setdefault(f.root_reference.data, None)
    return list(out)


def compile_dynamic(
    ctx: Context, pipeline: PassPipeline, module: ModuleOp, graph: ge.GraphOp, remarks: bool = False
) -> ModuleOp:
    """DYN_CONTRACT.md §3's module, made by the pipeline itself on the whole module, flat or
    already partitioned (§2): in ge-compile, ge-partition-dynamic partitions a flat root and
    leaves a partitioned one as it is, and the passes after it compile each known-shape
    subgraph into a known-node model (ge-to-npu) and skip the root and the unknown ones;
    there is no second list of passes for a partitioned module. A -p pipeline without the
    partition pass gets it first on a flat root (what ge-compile would have run)."""
    if is_dynamic_module(module):
        return module.clone()  # already compiled: the known subgraphs are npu.models
    available = get_all_passes()
    if (
        PARTITIONED_ATTR not in graph.attributes
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
    if root is not None and A.get_bool(root, A.GRAPH_UNKNOWN_FLAG) and not A.get_bool(root, PARTITIONED_ATTR):
        # dynamic_shape_partition.cc: SetRootGraphUnknown (placement HOST, lower limit -1,
        # only Data and NetOutput) or host scheduling: the root is left whole and unknown,
        # and the host runs it op by op
        return compiled
    if root is not None and PARTITIONED_ATTR in root.attributes:
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
    rec = pipeline.callback if isinstance(pipeline.callback, RunRecorder) else None
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
    return _finish(args, pipeline, module, compiled, stats, c, runs, refs[-1], sets[-1])


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
    """The ge-run console script: main, then exit_without_teardown (ge_fast/process.py)."""
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
