"""ge-import: an ONNX model (or a torch.export program, `.pt2`) to ge-dialect IR.

    ge-import MODEL.onnx [-o OUT.mlir] [--input-shape NAME=DIMS ...] [--dynamic-dims]

`load_model_or_text(path)` is the one entry the other tools use to read their input: an
`.onnx` file is imported (importers/onnx.py), anything else is parsed as ge IR text
(`ge-opt MODEL.onnx ...` and `ge-run MODEL.onnx ...` read a model this way, with
`--input-shape` as here).
Errors are one line and exit 1 (`MODEL.onnx: node 'NAME' (OpType): error: ...`).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from ge_fast.process import exit_without_teardown
from ge_tools.cli_args import (  # noqa: F401  (is_onnx_path, input_shapes_arg: re-exported)
    add_elide_argument,
    add_fast_paths_argument,
    add_input_shape_argument,
    add_max_input_size_argument,
    elide_limit,
    input_shapes_arg,
    input_size_cap,
    is_onnx_path,
    one_line_arg_errors,
    run_tool,
)
from ge_tools.parse import UserError, parse_module, read_capped, read_ir_file
from ge_tools.printer import print_module
from ge_tools.registry import make_context


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
        return _load_onnx(path, dict(input_shapes or {}), dynamic_dims, max_bytes)
    try:
        with open(path, "rb") as f:
            data, resources = read_ir_file(f, path, input_size_cap(path, max_bytes))
    except OSError:
        raise  # run_tool's `TOOL: error: FILE: why`, as for any file
    return parse_module(ctx or make_context(), data, path, resources=resources)


def _load_onnx(
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


def _epilog() -> str:
    from importers import onnx as onnx_importer

    ops = ", ".join(onnx_importer.supported_ops())
    return "\n".join(
        [
            "What it does:",
            *textwrap.wrap(
                "Reads an ONNX model (ai.onnx opsets "
                f"{onnx_importer.MIN_OPSET} to {onnx_importer.MAX_OPSET}, and {onnx_importer.OLDEST_OPSET} to "
                f"{onnx_importer.MIN_OPSET - 1} where each op is unchanged since; static shapes; external data "
                "next to the model) and prints one ge.graph @main: graph inputs become ge.Data "
                "{index} in order, initializers and Constant nodes ge.Const, outputs the "
                "ge.NetOutput, and each node the GE op(s) GE's ONNX plugin for it makes "
                "(Conv -> Conv2D, Div -> RealDiv, Concat -> ConcatD, Split -> SplitD/SplitVD, "
                "ReduceSum -> ReduceSumD, Transpose -> TransposeD, Expand -> BroadcastToD, "
                "Gather -> GatherV2, Gemm -> MatMul, ...). Node names are the ONNX names, made "
                "valid and unique (the original kept as `onnx_name`).",
                76,
                initial_indent="  ",
                subsequent_indent="  ",
            ),
            "",
            "Supported ONNX ops:",
            *textwrap.wrap(ops, 76, initial_indent="  ", subsequent_indent="  "),
            "",
            "Errors (one line, exit 1): MODEL.onnx: node 'NAME' (OpType): error: ... for an",
            "unsupported op (with the list above) or attribute value, a dynamic or missing",
            "dimension (fix it with --input-shape, or keep it as ? with --dynamic-dims), a",
            "negative dim other than -1, a value two nodes (or a node and an input or",
            "initializer) define, a constant index out of range of Gather / GatherElements,",
            "a shape-inference failure (with its cause), a truncated or non-ONNX file,",
            "missing external data, an opset outside the range. A sparse initializer is",
            "imported as the dense tensor it stands for.",
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    def run() -> None:
        p = argparse.ArgumentParser(
            prog="ge-import",
            description="ge-import: import an ONNX model as ge-dialect IR (GE's ONNX op mapping)",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            epilog=_epilog(),
        )
        one_line_arg_errors(p)
        p.add_argument(
            "model", metavar="MODEL.onnx", help="the ONNX model file, or a torch.export program (.pt2, importers/fx.py)"
        )
        p.add_argument("-o", "--output", metavar="OUT.mlir", help="write the module here (default: stdout)")
        add_input_shape_argument(p)
        add_max_input_size_argument(p)
        add_elide_argument(p)
        add_fast_paths_argument(p)
        args = p.parse_args(argv)
        shapes = input_shapes_arg(args.input_shape)
        if is_torch_program_path(args.model) and not shapes and not args.dynamic_dims:
            module = load_model_or_text(args.model, max_bytes=args.max_input_size)
        else:
            from ge_tools.progress import phase

            with phase(f"ge-import: importing {os.path.basename(args.model)}"):
                module = _load_onnx(args.model, shapes, args.dynamic_dims, args.max_input_size)
        # weights streamed as the module's resource section (ge_tools/printer.py); elided
        # only where asked, or on a terminal
        if args.output:
            with open(args.output, "w") as f:
                print_module(module, f, elide_limit(args.elide_large_elements, f))
                f.write("\n")
        else:
            print_module(module, sys.stdout, elide_limit(args.elide_large_elements, sys.stdout))
            sys.stdout.write("\n")

    run_tool(run, "ge-import")


def cli() -> NoReturn:
    """The ge-import console script: main, then exit_without_teardown (ge_fast/process.py)."""
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
