"""ge-run's command line: its description (--help), its arguments and its version.

Light on purpose: it loads what ge-opt loads to read its own arguments (xDSL, the dialects'
definitions, the pass options), never numpy, the runtime or the report, so that the
console script (ge_tools/run_cli.py) answers --help, --version and a bad argument before
ge_tools/run.py loads them (bench/bench_run_startup.py measures it against ge-opt).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import textwrap
from typing import get_origin, get_type_hints

from xdsl.utils.hints import type_repr

from ge_dialect.pass_options import option_table
from ge_tools.cli_args import (
    DUMP_DIR_HELP,
    VERIFY_EACH_HELP,
    add_elide_argument,
    add_fast_paths_argument,
    add_input_shape_argument,
    add_max_input_size_argument,
    one_line_arg_errors,
)
from ge_tools.dump_onnx import add_dump_onnx_argument
from ge_tools.pipeline import GeCompilePass
from ge_tools.tolerances import tolerance_text
from report.figures import help_text as memory_help

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
--stats-json counts them as unbounded_elements. Anchored judgment (runtime/anchored.py;
docs/tolerance.md): where the end-to-end bounds leave elements undecidable (they compound
over a deep network's layers) or find a mismatch, and always with --anchored, the model
executes once more with each kernel's outputs copied out as written; each kernel output
that is a value of the graph (its node's name, shape and dtype) is judged against the
reference of its step evaluated on the captured values the graph wires into it, with that
step's bound alone (same formula), so bounds never compound beyond one kernel. A step
outside its tolerance is a mismatch, printed at its node ("step 'N' (Type) output K: ...
outside the tolerance on the inputs the compiled program read"): the first such step is
the first wrong kernel. An element undecidable end to end is judged where its last step's
bound is finite and no step before it is undecidable ("anchored: N steps judged ...; M
output elements undecidable end to end judged step by step"; --stats-json
anchored_elements, anchored_steps). An output of more than one element whose
reference values are all equal is warned about ("warning: output K NAME is constant"): a
match on it proves little.

ONNX models: FILE.onnx is imported as ge-import imports it (--input-shape fixes dynamic
input dims; errors as ge-import's). After the comparison with the reference, the
simulator's outputs are compared with onnxruntime's (CPU provider, optimisations and pre-packing off,
the same inputs): one line per output with its largest absolute and relative error, then
"outputs match onnxruntime" or the mismatch (exit 1). Tolerance |a-b| <= atol + rtol*|b| + e
per dtype: {ORT_TOLERANCES}; e is the element's error bound with every op's own rounding
counted (the intermediate dtypes: an f16 op between two Casts may round in f16 here and in
f32 in onnxruntime). An element whose e is infinite is undecidable, as above, and judged
anchored: onnxruntime runs once more with its intermediate tensors as outputs, each judged
against the reference on onnxruntime's own inputs with e (a wrong one fails the
comparison, named at its ONNX node); the element is judged when both anchored judgments
judge it. Else "comparison with onnxruntime inconclusive" (exit 1) unless
--accept-undecidable.

Output: one summary line per NetOutput value (index, producer node:output, shape, dtype,
min, max, mean, crc32 of the array's bytes); --print-values adds the full arrays.

Errors (syntax, verifier, bad input files, ops without reference semantics) are one
line FILE:LINE:COL: error: ... and exit 1. The file is read as ge-opt reads it (UTF-8 IR
text whatever its extension, an .onnx model imported). Before allocating anything, ge-run refuses a graph whose
tensors need more host memory than the machine has (twice the sum of every node's
output bytes, as numpy arrays: the reference's values and the compiled run's), located
at the node with the largest output.

Threads: the kernels run on numpy's BLAS (OpenBLAS), one task at a time; ge-run pins
BLAS, OpenMP and MKL to one thread (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS,
MKL_NUM_THREADS = 1) unless the environment sets them: a second thread spin-waiting beside
the first costs CPU without making a simulated kernel faster (numpy's start alone 75 ->
41 ms CPU), and the tests that check the numbers run on one thread too.
"""
DESCRIPTION = DESCRIPTION.replace("{ORT_TOLERANCES}", tolerance_text()).replace("{MEMORY_FIGURES}", memory_help())


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
        "max_error, unbounded_elements (undecidable: an infinite error bound, see Tolerance; after the "
        "anchored judgment), anchored_elements (undecidable end to end, judged step by step), anchored_steps "
        "(kernel outputs judged on their own inputs; 0: the anchored judgment did not run) and, with the "
        "simulator: tasks, tasks_by_kind, kernels, no_task_nodes, "
        "bytes_moved, kernel_bytes_read/written, memcpy_bytes, memory_size, "
        "memory_lower_bound, memory_proven_bound (a proven lower bound on any plan), memory_gap "
        "(memory_size / memory_proven_bound - 1; 0 when optimal), peak_live_fm_bytes, "
        "executions, refreshed_tasks (per execution)",
    )  # fmt: skip
    p.add_argument(
        "--anchored", action="store_true",
        help="judge every compiled step on the inputs it read (see Tolerance, anchored judgment) even when "
        "the end-to-end comparison judges every element: names the first wrong kernel",
    )  # fmt: skip
    p.add_argument(
        "--accept-undecidable", action="store_true",
        help="accept output elements whose error bound is infinite (undecidable, see Tolerance) unjudged: "
        "without it they make the comparison inconclusive (exit 1); with it a wrong value there goes unnoticed",
    )  # fmt: skip
    p.add_argument("--verify-each", action="store_true", help=VERIFY_EACH_HELP)
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
    hints = get_type_hints(GeCompilePass)
    flags: list[tuple[argparse.Action, dataclasses.Field[object]]] = []
    for f in compile_option_fields():
        name = f.name.replace("_", "-")
        hint = hints.get(f.name, str)
        if hint is bool:
            action = p.add_argument("--" + name, nargs="?", const="true", default=None, metavar="true|false")
        else:
            word = f.name.rsplit("_", 1)[-1].upper()
            metavar = f"{word}[,{word}...]" if get_origin(hint) is tuple else ("N" if hint is int else word)
            action = p.add_argument("--" + name, default=None, metavar=metavar)
        flags.append((action, f))
    # The flags' help reads ge-compile's option table, which imports its constituent passes:
    # filled in when the help is printed, not on every run (start-up time; ge-opt's epilog
    # does the same)
    format_help = p.format_help

    def format_help_with_options() -> str:
        docs = _field_docs(GeCompilePass)
        for action, f in flags:
            action.help = _flag_help(f, hints.get(f.name, str), docs)
        return format_help()

    p.format_help = format_help_with_options
    p.add_argument(
        "--remarks", action="store_true",
        help="each pass that supports it says, node by node, what it decided and why "
        "(FILE:LINE:COL: remark: ... on stderr, as ge-opt --remarks prints them)",
    )  # fmt: skip
    p.add_argument("--version", action="version", version=version_string())


def _flag_help(f: dataclasses.Field[object], hint: object, docs: dict[str, str]) -> str:
    """The help of ge-compile's option `f` as a flag: its doc and values from the option
    table --help and the checks read, its default."""
    name = f.name.replace("_", "-")
    default = f.default if f.default is not dataclasses.MISSING else None
    shown = _spec_text(default) if default not in (None, ()) else "none"
    opt = option_table(GeCompilePass).get(f.name)
    if opt is not None:
        doc, takes = opt.doc.rstrip("."), f"takes {opt.allowed.describe(type_repr(hint))}; "
    else:
        doc, takes = docs.get(f.name, type_repr(hint)).rstrip("."), ""
    listed = "; a list is a,b,c" if get_origin(hint) is tuple else ""
    return f"{doc} ({takes}ge-compile's {name}; default {shown}{listed})"


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


def check_arguments(args: argparse.Namespace) -> str | None:
    """The error line of an argument argparse cannot check alone, or None."""
    if args.executions is not None and args.executions < 1:
        return f"ge-run: error: --executions must be >= 1, got {args.executions}"
    if args.seed is not None and args.seed < 0:  # numpy's default_rng takes non-negative seeds only
        return f"ge-run: error: --seed must be >= 0, got {args.seed}"
    return None
