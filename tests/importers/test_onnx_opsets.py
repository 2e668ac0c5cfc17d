"""Every ai.onnx opset from MIN_OPSET to MAX_OPSET (issue 28): the newest one both the
installed onnx and onnxruntime run; each move of an attribute to an input across opsets
(Split, Squeeze, Unsqueeze, ReduceSum at 13, the other reductions at 18, Split's
num_outputs at 18) imported at the opsets on both sides of it, and a representative set of
ops at opsets 11, 13, 17, 18, 21 and MAX_OPSET checked against onnxruntime (the reference
interpreter on the imported module, and ge-run's compiled path at the newest opset). The
one op version whose semantics changed for the dtypes imported (Range-27 on float16) is a
refusal naming the op and the version.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from conftest import run_cli
from ge_tools import api
from ge_tools import run as ge_run
from importers.onnx import MAX_OPSET, MIN_OPSET, OnnxImportError, import_model

OPSETS = sorted({11, 13, 17, 18, 21, MAX_OPSET})


def relu(opset: int) -> onnx.ModelProto:
    g = h.make_graph(
        [h.make_node("Relu", ["x"], ["y"])],
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2])],
        [h.make_tensor_value_info("y", T.FLOAT, [2])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 10
    return m


def test_max_opset_is_the_newest_onnx_and_onnxruntime_run() -> None:
    assert MIN_OPSET == 11
    assert onnx.defs.onnx_opset_version() >= MAX_OPSET
    ort.InferenceSession(relu(MAX_OPSET).SerializeToString(), providers=["CPUExecutionProvider"])
    with pytest.raises(Exception, match="(?i)opset"):  # onnxruntime's ValidateOpsetForDomain
        ort.InferenceSession(relu(MAX_OPSET + 1).SerializeToString(), providers=["CPUExecutionProvider"])


def ints(name: str, v: list[int]) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(v, np.int64), name)


def model(opset: int) -> onnx.ModelProto:
    """One graph of representative ops, each in the form its version at `opset` takes:
    attributes before the move to an input, inputs after."""
    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []

    def axes_input(op: str, since: int, x: str, out: str, axes: list[int], **attrs: object) -> None:
        if opset >= since:
            inits.append(ints(f"{out}_axes", axes))
            nodes.append(h.make_node(op, [x, f"{out}_axes"], [out], name=out, **attrs))
        else:
            nodes.append(h.make_node(op, [x], [out], name=out, axes=axes, **attrs))

    # x [2, 3, 4]
    axes_input("ReduceSum", 13, "x", "rsum", [2], keepdims=1)  # [2, 3, 1]
    axes_input("ReduceMean", 18, "x", "rmean", [1], keepdims=0)  # [2, 4]
    axes_input("ReduceMax", 18, "x", "rmax", [0, 2], keepdims=1)  # [1, 3, 1]
    axes_input("Squeeze", 13, "rsum", "sq", [2])  # [2, 3]
    axes_input("Unsqueeze", 13, "sq", "unsq", [0])  # [1, 2, 3]
    # Split of x on axis 2 into [1, 3]; Split-18's num_outputs for the equal split of rmean
    if opset >= 13:
        inits.append(ints("split_sizes", [1, 3]))
        nodes.append(h.make_node("Split", ["x", "split_sizes"], ["sp0", "sp1"], name="split", axis=2))
    else:
        nodes.append(h.make_node("Split", ["x"], ["sp0", "sp1"], name="split", axis=2, split=[1, 3]))
    if opset >= 18:
        nodes.append(h.make_node("Split", ["rmean"], ["eq0", "eq1"], name="split_eq", axis=1, num_outputs=2))
    else:
        nodes.append(h.make_node("Split", ["rmean"], ["eq0", "eq1"], name="split_eq", axis=1))
    inits += [ints("pads", [0, 1, 0, 0, 0, 2]), numpy_helper.from_array(np.array(0.5, np.float32), "pv")]
    nodes.append(h.make_node("Pad", ["x", "pads", "pv"], ["pad"], name="pad"))  # [2, 4, 6]
    inits += [
        numpy_helper.from_array(np.array(-0.5, np.float32), "lo"),
        numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
    ]
    nodes.append(h.make_node("Clip", ["x", "lo", "hi"], ["clip"], name="clip"))
    inits += [ints("st", [1]), ints("en", [3]), ints("sax", [2])]
    nodes.append(h.make_node("Slice", ["x", "st", "en", "sax"], ["slice"], name="slice"))  # [2, 3, 2]
    inits.append(ints("shape", [6, 4]))
    nodes.append(h.make_node("Reshape", ["x", "shape"], ["reshape"], name="reshape"))
    inits.append(ints("eshape", [2, 2, 3, 4]))
    nodes.append(h.make_node("Expand", ["x", "eshape"], ["expand"], name="expand"))
    nodes.append(h.make_node("Softmax", ["x"], ["softmax"], name="softmax", axis=-1))
    inits.append(ints("gi", [2, 0]))
    nodes.append(h.make_node("Gather", ["x", "gi"], ["gather"], name="gather", axis=1))
    nodes.append(h.make_node("Cast", ["x"], ["cast"], name="cast", to=T.FLOAT16))
    nodes.append(h.make_node("LeakyRelu", ["x"], ["leaky"], name="leaky", alpha=0.2))
    nodes.append(h.make_node("Transpose", ["x"], ["tr"], name="tr", perm=[2, 0, 1]))
    nodes.append(h.make_node("Shape", ["x"], ["sh"], name="sh"))
    nodes.append(
        h.make_node(
            "ConstantOfShape", ["sh"], ["cos"], name="cos", value=numpy_helper.from_array(np.array([2.0], np.float32))
        )
    )
    inits += [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in (("r0", 1), ("r1", 9), ("r2", 3))]
    nodes.append(h.make_node("Range", ["r0", "r1", "r2"], ["range"], name="range"))
    inits += [
        numpy_helper.from_array(np.zeros(0, np.float32), "roi"),  # Resize-11's roi is not optional
        numpy_helper.from_array(np.array([1.0, 1.0, 2.0, 2.0], np.float32), "scales"),
    ]
    nodes.append(h.make_node("Resize", ["x4", "roi", "scales"], ["resize"], name="resize", mode="nearest",
                             coordinate_transformation_mode="asymmetric", nearest_mode="floor"))  # fmt: skip
    outs = ["rsum", "rmax", "unsq", "sp0", "sp1", "eq0", "eq1", "pad", "clip", "slice", "reshape", "expand",
            "softmax", "gather", "cast", "leaky", "tr", "cos", "range", "resize"]  # fmt: skip
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4]), h.make_tensor_value_info("x4", T.FLOAT, [1, 2, 3, 4])],
        [onnx.ValueInfoProto(name=o) for o in outs],
        initializer=inits,
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 10 if opset <= 21 else 11
    return m


def feeds() -> dict[str, np.ndarray]:
    r = np.random.default_rng(5)
    return {
        "x": r.standard_normal((2, 3, 4)).astype(np.float32),
        "x4": r.standard_normal((1, 2, 3, 4)).astype(np.float32),
    }


@pytest.mark.parametrize("opset", OPSETS)
def test_representative_ops_match_onnxruntime(opset: int) -> None:
    m = model(opset)
    module = import_model(m, f"opset{opset}.onnx")
    f = feeds()
    got = api.reference(module, [f["x"], f["x4"]])
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, f)
    assert len(got) == len(want)
    for name, g, w in zip([o.name for o in m.graph.output], got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, name
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=name)


def test_the_newest_opset_compiles_and_matches_onnxruntime(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(model(MAX_OPSET), path)
    code, out, err = run_cli(ge_run.main, [str(path), "--seed", "0"])
    text = out + err
    assert code == 0, text
    assert "outputs match the reference" in text and "outputs match onnxruntime" in text, text


@pytest.mark.parametrize("opset", [27, MAX_OPSET])
def test_range_27_of_float16_is_refused_naming_op_and_version(opset: int) -> None:
    g = h.make_graph(
        [h.make_node("Range", ["a", "b", "c"], ["y"], name="rg")],
        "g",
        [h.make_tensor_value_info(n, T.FLOAT16, []) for n in "abc"],
        [h.make_tensor_value_info("y", T.FLOAT16, [None])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    with pytest.raises(OnnxImportError, match=r"node 'rg' \(Range\): error: Range-27 of float16 \(stash_type 1\)"):
        import_model(m, "m.onnx")


def test_an_opset_past_the_newest_is_refused() -> None:
    with pytest.raises(OnnxImportError, match=rf"opset {MAX_OPSET + 1} is outside the supported range 7-{MAX_OPSET}"):
        import_model(relu(MAX_OPSET + 1), "m.onnx")


def older(opset: int, nodes: list[onnx.NodeProto], inputs, outputs) -> onnx.ModelProto:
    g = h.make_graph(nodes, "g", inputs, outputs)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 7
    return m


@pytest.mark.parametrize("opset", [7, 8, 9, 10])
def test_an_older_opset_imports_the_ops_unchanged_since(opset: int, tmp_path) -> None:
    # And-7, Xor-7, Relu-6, Softmax-1 are the versions opset 11 has too: imported as there
    m = older(
        opset,
        [
            h.make_node("Xor", ["a", "b"], ["x"]),
            h.make_node("And", ["x", "a"], ["y"]),
            h.make_node("Relu", ["f"], ["r"]),
        ],
        [
            h.make_tensor_value_info("a", T.BOOL, [3, 4]),
            h.make_tensor_value_info("b", T.BOOL, [4]),
            h.make_tensor_value_info("f", T.FLOAT, [2, 5]),
        ],
        [h.make_tensor_value_info("y", T.BOOL, [3, 4]), h.make_tensor_value_info("r", T.FLOAT, [2, 5])],
    )
    path = tmp_path / "old.onnx"
    onnx.save(m, path)
    code, out, err = run_cli(ge_run.main, [str(path), "--seed", str(opset)])
    assert code == 0 and "outputs match onnxruntime" in out, out + err


@pytest.mark.parametrize(
    ("opset", "node", "why"),
    [
        (
            9,
            h.make_node("Slice", ["f"], ["r"], starts=[0], ends=[1]),
            "Slice-1 (opset 9) is not supported: the op changed to Slice-11",
        ),
        (
            10,
            h.make_node("Clip", ["f"], ["r"], min=0.0),
            "Clip-6 (opset 10) is not supported: the op changed to Clip-11",
        ),
        (
            8,
            h.make_node("MaxPool", ["f"], ["r"], kernel_shape=[1]),
            "MaxPool-8 (opset 8) is not supported: the op changed to MaxPool-11",
        ),
    ],
)
def test_an_older_op_version_is_refused_by_name(opset: int, node: onnx.NodeProto, why: str) -> None:
    m = older(
        opset,
        [node],
        [h.make_tensor_value_info("f", T.FLOAT, [2, 5, 3])],
        [h.make_tensor_value_info("r", T.FLOAT, None)],
    )
    with pytest.raises(OnnxImportError, match=rf"node '[^']*' \({node.op_type}\): error: {re.escape(why)}"):
        import_model(m, "m.onnx")
