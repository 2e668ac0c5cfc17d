"""The command-line arguments ge-opt, ge-run and ge-import share, and their error policy:
a bad option or input is one line `<tool>: error: ...` and exit 1, never a traceback
(`one_line_arg_errors`, `run_tool`); --input-shape / --dynamic-dims (an ONNX model's
dynamic dims), --max-input-size (the cap on what is read whole), --elide-large-elements
(how large values print) and --no-fast-paths (ge_fast's switch).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from typing import IO, NoReturn

from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from ge_fast import ENV, set_enabled
from ge_fast.process import tune_gc
from ge_tools.parse import UserError, read_capped


def one_line_arg_errors(arg_parser: argparse.ArgumentParser, hint: Callable[[], str | None] | None = None) -> None:
    """A bad command-line option is one line `<prog>: error: ...` and exit 1, as every
    other error (argparse would print the usage and exit 2); `hint` may add a word to
    "unrecognized arguments" (shell_split_hint)."""

    def error(message: str) -> NoReturn:
        extra = hint() if hint is not None and message.startswith("unrecognized arguments") else None
        raise UserError(f"{arg_parser.prog}: error: {message}" + (f"; {extra}" if extra else ""))

    arg_parser.error = error  # type: ignore[method-assign]


VERIFY_EACH_HELP = (
    "verify the IR after every pass (mlir-opt's and xdsl-opt's default). Without it "
    "the input and the pipeline's result are verified; when the result does not "
    "verify or a pass fails, the pipeline runs again on the input with a verify after "
    "every pass, so the error still names the first pass whose IR is invalid "
    "(`... (after pass NAME)`). Only IR that a pass breaks and a later pass repairs or "
    "removes goes unreported without --verify-each"
)

DUMP_DIR_HELP = (
    "write the input as DIR/00_input.mlir and the IR after each pass that changed it as "
    "DIR/NN_<pass>.mlir (NN: the pass's place in the pipeline); the passes that left the IR "
    "as it was are listed in DIR/unchanged.txt (`NN_<pass>.mlir: same as <file>`)"
)


# -- ONNX models as input (docs/onnx.md; ge_tools/import_onnx.py is ge-import) -----------------

ONNX_SUFFIX = ".onnx"


INPUT_SHAPE_HELP = (
    "fix the shape of graph input NAME, e.g. x=1x3x224x224 (x- or comma-separated; "
    "NAME= for a 0-d input); repeat for several inputs. Needed for every input whose "
    "shape has a dynamic (named or unknown) dimension"
)


def is_onnx_path(path: str) -> bool:
    return path.lower().endswith(ONNX_SUFFIX)


DYNAMIC_DIMS_HELP = (
    "keep a named (e.g. batch 'N') or unknown dim of an ONNX graph input that --input-shape "
    "does not fix as an unknown dim, ? (GE's -1; ATC's --input_shape with -1, onnxruntime's "
    "free dimensions), carried through the graph by ONNX's shape inference; without it such "
    "a dim is an error"
)


def add_input_shape_argument(p: argparse.ArgumentParser, only_onnx: bool = False) -> None:
    """--input-shape NAME=DIMS and --dynamic-dims, as ge-import, ge-opt and ge-run take them."""
    extra = " (an ONNX model input only)" if only_onnx else ""
    p.add_argument("--input-shape", action="append", metavar="NAME=DIMS", help=INPUT_SHAPE_HELP + extra)
    p.add_argument("--dynamic-dims", action="store_true", help=DYNAMIC_DIMS_HELP + extra)


# The largest input file a tool reads (--max-input-size raises it): the input is read whole
# (the parser and the --verify-diagnostics check keep its text; protobuf decodes a model
# from its bytes), so an endless stream (/dev/zero, a pipe) or an enormous file would be
# read until memory ran out. 256 MiB of IR text is about 2 million GE nodes, far past what
# the passes compile; an ONNX model's protobuf cannot pass 2 GiB (protobuf's limit for
# one message: larger models keep their weights as external data, which is read tensor by
# tensor, each exactly its declared bytes, and is not counted here).
MAX_TEXT_BYTES = 256 << 20


MAX_ONNX_BYTES = 2 << 30


MAX_INPUT_SIZE_HELP = (
    "refuse an input file larger than SIZE bytes (a suffix K, M, G: binary units) before "
    f"reading it whole; default {MAX_TEXT_BYTES >> 20}M for IR text, {MAX_ONNX_BYTES >> 30}G "
    "for an .onnx model (protobuf's limit; its external data is not counted)"
)


_SIZE = re.compile(r"^\s*(\d+)\s*([KMGT]?)i?B?\s*$", re.I)


def parse_size(text: str) -> int:
    """`123`, `64K`, `512M`, `4G` (binary units) as a number of bytes."""
    m = _SIZE.match(text)
    if m is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size (e.g. 512M, 4G or a number of bytes)")
    return int(m.group(1)) << (10 * " KMGT".index(m.group(2).upper() or " "))


def add_max_input_size_argument(p: argparse.ArgumentParser) -> None:
    """--max-input-size SIZE, as ge-import, ge-opt and ge-run take it."""
    p.add_argument("--max-input-size", type=parse_size, metavar="SIZE", help=MAX_INPUT_SIZE_HELP)


def input_size_cap(path: str, given: int | None) -> int:
    """The most bytes the tools read of `path`: --max-input-size, else the default of its kind."""
    if given is not None:
        return given
    return MAX_ONNX_BYTES if is_onnx_path(path) else MAX_TEXT_BYTES


def regular_within_cap(f: IO[bytes], name: str, cap: int) -> bool:
    """Whether `f` is a non-empty regular file (which its reader may read itself); one of
    more than `cap` bytes is refused as read_capped refuses it."""
    try:
        st = os.fstat(f.fileno())
    except (OSError, AttributeError, io.UnsupportedOperation):
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
        return False
    if st.st_size > cap:
        read_capped(f, name, cap)  # its error
    return True


# --elide-large-elements: the limit where a print is read by a person (a terminal, the
# dumps, --print-ir-after-all) and none is given; mlir-opt users' usual
# --mlir-elide-elementsattrs-if-larger=16
DEFAULT_ELIDE_ELEMENTS = 16


ELIDE_HELP = (
    "print a constant of more than N elements (not a splat) elided, as mlir-opt's "
    "--mlir-elide-elementsattrs-if-larger: `dense_resource<__elided__> : tensor<SHAPExDTYPE>`, "
    "its shape and dtype without its data. Default: elided with N = "
    f"{DEFAULT_ELIDE_ELEMENTS} on a terminal, in --dump-dir files and in --print-ir-after-all / "
    "--print-ir-after-change; never in output to a file or a pipe, which must read back (weights go whole, "
    "as hex in the module's resource section). N < 0: never elide. A module read back with "
    "an elided constant is an error where its data is needed (running, lowering, folding it)"
)


def add_elide_argument(p: argparse.ArgumentParser) -> None:
    """--elide-large-elements N, as ge-opt, ge-run and ge-import take it."""
    p.add_argument("--elide-large-elements", type=int, metavar="N", help=ELIDE_HELP)


def elide_limit(given: int | None, stream: IO[str] | None, default_on: bool = False) -> int | None:
    """The elision limit of a print to `stream`: --elide-large-elements N (None when N < 0),
    else DEFAULT_ELIDE_ELEMENTS where a person reads it (`default_on`: a dump or an
    --print-ir-after-all; a terminal), else none: a file or a pipe gets every byte."""
    if given is not None:
        return None if given < 0 else given
    if default_on:
        return DEFAULT_ELIDE_ELEMENTS
    try:
        return DEFAULT_ELIDE_ELEMENTS if stream is not None and stream.isatty() else None
    except (ValueError, AttributeError):
        return None


def input_shapes_arg(specs: Sequence[str] | None, tool: str = "ge-import") -> dict[str, tuple[int, ...]]:
    """The --input-shape options as {name: dims}; a bad one is a UserError."""
    if not specs:
        return {}  # without the importer (and onnx) loaded: ge-opt on IR text never needs it
    from importers.onnx import parse_input_shape

    out: dict[str, tuple[int, ...]] = {}
    for spec in specs or []:
        try:
            name, dims = parse_input_shape(spec)
        except ValueError as e:
            raise UserError(f"{tool}: error: --input-shape {e}") from None
        if name in out:
            raise UserError(f"{tool}: error: --input-shape gives '{name}' twice")
        out[name] = dims
    return out


def run_tool(make: Callable[[], object], tool: str) -> None:
    """Run a tool's main with the project's error policy: one line, exit 1, no traceback
    (set GE_XDSL_TRACEBACK=1 to see Python's traceback of an internal error)."""
    try:
        make()
    except (UserError, DiagnosticException) as e:
        print(str(e), file=sys.stderr)
        sys.exit(1)
    except OSError as e:
        print(f"{tool}: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except ArgSpecParseError as e:  # a BaseException: build_pipeline catches it, this is a backstop
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        print(f"{tool}: error: bad pass pipeline: {lines[-1] if lines else e}", file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # an internal error: say so, in one line
        if os.environ.get("GE_XDSL_TRACEBACK"):
            raise
        first = str(e).strip().split("\n")[0]  # one line even when the message is not
        print(f"{tool}: error: internal error: {type(e).__name__}: {first}", file=sys.stderr)
        sys.exit(1)


NO_FAST_PATHS_HELP = (
    f"run xDSL's own code everywhere the project has a faster path of its own (the verifier, "
    f"lexer, parser, printer, op building, the forked print, the GC tuning: ge_fast/); the "
    f"output is byte-identical, only slower. The environment variable {ENV}=0 does the same"
)


class _NoFastPaths(argparse.Action):
    def __call__(self, parser: object, namespace: argparse.Namespace, values: object, option: object = None) -> None:
        setattr(namespace, self.dest, True)
        set_enabled(False)
        tune_gc()  # CPython's thresholds again: main tuned them before the arguments were read


def add_fast_paths_argument(p: argparse.ArgumentParser) -> None:
    """--no-fast-paths (ge_fast's switch), as ge-opt, ge-run and ge-import take it."""
    p.add_argument("--no-fast-paths", action=_NoFastPaths, nargs=0, default=False, help=NO_FAST_PATHS_HELP)
