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
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from ge_tools.opt import (  # noqa: F401  (is_onnx_path, input_shapes_arg: re-exported)
    add_input_shape_argument,
    exit_without_teardown,
    input_shapes_arg,
    is_onnx_path,
    one_line_arg_errors,
    run_tool,
)
from ge_tools.parse import UserError, parse_module
from ge_tools.registry import make_context
from importers import onnx as onnx_importer


def is_torch_program_path(path: str) -> bool:
    """A torch.export program saved with torch.export.save (`.pt2`)."""
    return path.lower().endswith(".pt2")


def load_model_or_text(
    path: str,
    ctx: Context | None = None,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    dynamic_dims: bool = False,
) -> ModuleOp:
    """The module in `path`: an ONNX model (by its `.onnx` suffix) imported with
    `input_shapes` and `dynamic_dims` (importers/onnx.py: import_model), a torch.export
    program (`.pt2`, importers/fx.py: load_exported_program), else ge IR text
    parsed with `ctx` (not verified; an imported module is). Errors are one-line exceptions
    (OnnxImportError, UserError) that `run_tool` prints."""
    if is_onnx_path(path):
        return onnx_importer.load_model(path, input_shapes, dynamic_dims=dynamic_dims)
    if is_torch_program_path(path) and not input_shapes and not dynamic_dims:
        # a torch.export program (.pt2): importers/fx.py, TorchAir's ATen converters
        from importers.fx import load_exported_program

        return load_exported_program(path)
    if input_shapes or dynamic_dims:
        flag = "--input-shape" if input_shapes else "--dynamic-dims"
        raise UserError(f"{path}: error: {flag} applies to an ONNX model (.onnx) only")
    with open(path, "rb") as f:
        data = f.read()
    return parse_module(ctx or make_context(), data, path)


def _epilog() -> str:
    ops = ", ".join(onnx_importer.supported_ops())
    return "\n".join(
        [
            "What it does:",
            *textwrap.wrap(
                "Reads an ONNX model (ai.onnx opsets "
                f"{onnx_importer.MIN_OPSET} to {onnx_importer.MAX_OPSET}, static shapes; external data "
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
            "truncated or non-ONNX file, missing external data, an opset outside the range.",
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
        args = p.parse_args(argv)
        shapes = input_shapes_arg(args.input_shape)
        if is_torch_program_path(args.model) and not shapes and not args.dynamic_dims:
            module = load_model_or_text(args.model)
        else:
            module = onnx_importer.load_model(args.model, shapes, dynamic_dims=args.dynamic_dims)
        if args.output:
            with open(args.output, "w") as f:
                Printer(stream=f).print_op(module)
                f.write("\n")
        else:
            Printer(stream=sys.stdout).print_op(module)
            sys.stdout.write("\n")

    run_tool(run, "ge-import")


def cli() -> NoReturn:
    """The ge-import console script: main, then exit_without_teardown (ge_tools/opt.py)."""
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
