"""ge-import: an ONNX model (or a torch.export program, `.pt2`) to ge-dialect IR.

    ge-import MODEL.onnx [-o OUT.mlir] [--input-shape NAME=DIMS ...] [--dynamic-dims]

`load_model_or_text(path)` (ge_tools/workflow.py) is the one entry the tools and the API
use to read their input: an `.onnx` file is imported (importers/onnx.py), anything else is parsed as ge IR text
(`ge-opt MODEL.onnx ...` and `ge-run MODEL.onnx ...` read a model this way, with
`--input-shape` as here).
Errors are one line and exit 1 (`MODEL.onnx: node 'NAME' (OpType): error: ...`).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import NoReturn

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
from ge_tools.printer import print_module


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
        # the reading work the tools share (ge_tools/workflow.py: it loads numpy and the
        # runtime), after the arguments
        from ge_tools.workflow import is_torch_program_path, load_model_or_text, load_onnx

        shapes = input_shapes_arg(args.input_shape)
        if is_torch_program_path(args.model) and not shapes and not args.dynamic_dims:
            module = load_model_or_text(args.model, max_bytes=args.max_input_size)
        else:
            from ge_tools.progress import phase

            with phase(f"ge-import: importing {os.path.basename(args.model)}"):
                module = load_onnx(args.model, shapes, args.dynamic_dims, args.max_input_size)
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
