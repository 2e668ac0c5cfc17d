"""ONNX models with control flow: an If and a Loop over a named batch 'N'.

    python examples/control/gen_onnx_control.py [-o DIR]

writes DIR/if_loop_dynamic.onnx (default: this folder), the same bytes each time (fixed
ir_version, opset, producer, no weights from a clock). The model: s = sum(x);
y = If(s > 0, then: Relu(x), else: Neg(x)); z = Loop(M = 3, v = y: v * 0.5). Import it with
`--dynamic-dims` (the batch is `?`): `ge-run examples/control/if_loop_dynamic.onnx
--dynamic-dims --dim 0=2,5` runs the If and the While (the Loop) on the dynamic path and
compares with the reference and onnxruntime.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper


def if_loop_dynamic() -> onnx.ModelProto:
    vi = h.make_tensor_value_info
    then_g = h.make_graph([h.make_node("Relu", ["x"], ["t0"], name="relu")], "then", [], [vi("t0", T.FLOAT, ["N", 4])])
    else_g = h.make_graph([h.make_node("Neg", ["x"], ["e0"], name="neg")], "else", [], [vi("e0", T.FLOAT, ["N", 4])])
    body = h.make_graph(
        [h.make_node("Mul", ["v_in", "half"], ["v_out"], name="halve"),
         h.make_node("Identity", ["cond_in"], ["cond_out"], name="keep_going")],
        "body",
        [vi("iter", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v_in", T.FLOAT, ["N", 4])],
        [vi("cond_out", T.BOOL, []), vi("v_out", T.FLOAT, ["N", 4])],
        initializer=[numpy_helper.from_array(np.array(0.5, np.float32), "half")],
    )  # fmt: skip
    nodes = [
        h.make_node("ReduceSum", ["x"], ["s"], keepdims=0, name="sum"),
        h.make_node("Greater", ["s", "zero"], ["c"], name="positive"),
        h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g, name="branch"),
        h.make_node("Loop", ["M", "", "y"], ["z"], body=body, name="loop"),
    ]
    inits = [
        numpy_helper.from_array(np.array(0, np.float32), "zero"),
        numpy_helper.from_array(np.array(3, np.int64), "M"),
    ]
    g = h.make_graph(nodes, "if_loop_dynamic", [vi("x", T.FLOAT, ["N", 4])], [vi("z", T.FLOAT, ["N", 4])], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)], producer_name="ge-xdsl examples/control")
    m.ir_version = 8
    return m


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-o", default=str(Path(__file__).parent), help="output directory")
    args = p.parse_args()
    onnx.save(if_loop_dynamic(), str(Path(args.o) / "if_loop_dynamic.onnx"))


if __name__ == "__main__":
    main()
