"""ONNX models that used to get through: each is refused (or, for a sparse initializer,
imported as the dense tensor it stands for) by ge-import, `ge-opt -p ge-compile` and ge-run
alike, with one error line naming the input or the node(s), exit 1.

Classes (issue 27 part 4): a negative input dim other than -1; a value with two producers
(two nodes, a node and a graph input, a node and an initializer, one node twice); a
constant index out of range of an index op; a shape-inference failure inside a subgraph
(the cause kept); a sparse initializer. Each class has several shapes of model, built here
with onnx.helper.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from conftest import run_cli
from ge_tools import import_onnx
from ge_tools import opt as ge_opt
from ge_tools import run as ge_run
from importers import onnx as imp
from importers.onnx import OnnxImportError, import_model

TOOLS: dict[str, Callable[[list[str]], None]] = {
    "ge-import": import_onnx.main,
    "ge-opt": lambda a: ge_opt.main([*a[:1], "-p", "ge-compile", *a[1:]]),
    "ge-run": ge_run.main,
}


def model(nodes, inputs, outputs, inits=None, opset: int = 17, sparse=()) -> onnx.ModelProto:
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info(n, e, s) for n, e, s in inputs],
        [h.make_tensor_value_info(n, T.UNDEFINED, None) for n in outputs],
        initializer=[numpy_helper.from_array(a, n) for n, a in (inits or {}).items()],
        sparse_initializer=list(sparse),
    )
    for o in g.output:
        o.ClearField("type")
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def run_tool(tool: str, *args: str) -> tuple[int, str, str]:
    return run_cli(TOOLS[tool], args)


def refused_by_every_tool(m: onnx.ModelProto, tmp_path: Path, pattern: str, *extra: str) -> None:
    """ge-import, ge-opt -p ge-compile and ge-run each exit 1 with one error line matching
    `pattern` (after the model's path) and print nothing else."""
    p = tmp_path / "m.onnx"
    onnx.save(m, str(p))
    for tool in TOOLS:
        code, out, err = run_tool(tool, str(p), *extra)
        assert code == 1, (tool, out, err)
        lines = err.splitlines()
        assert len(lines) == 1 and out == "", (tool, out, err)
        assert "Traceback" not in err and "internal error" not in err, (tool, err)
        assert re.match(re.escape(str(p)) + ": " + pattern, lines[0]), (tool, lines[0])


# ---------------------------------------------------------------------------------------
# Negative dims
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "elem", "dim", "extra"),
    [
        ([-5, 3], T.FLOAT, 0, ()),
        ([2, -7, 4], T.FLOAT16, 1, ()),
        ([4, 2, -2], T.INT32, 2, ()),
        ([-5, 3], T.FLOAT, 0, ("--dynamic-dims",)),  # not a dynamic dim: refused even then
        (["N", -3], T.FLOAT, 1, ("--dynamic-dims",)),
    ],
    ids=["batch", "middle", "last-int32", "with-dynamic-dims", "beside-a-named-dim"],
)
def test_negative_dim_other_than_minus_one_is_refused(tmp_path: Path, shape, elem, dim: int, extra) -> None:
    m = model([h.make_node("Abs", ["x"], ["y"], name="abs0")], [("x", elem, shape)], ["y"])
    value = shape[dim]
    refused_by_every_tool(
        m, tmp_path, rf"input 'x': error: dim {dim} is {value} in shape \[.*\]: a dim is a size >= 0, or -1", *extra
    )


def test_minus_one_is_an_unknown_dim_and_input_shape_fixes_a_bad_one(tmp_path: Path) -> None:
    m = model([h.make_node("Abs", ["x"], ["y"], name="abs0")], [("x", T.FLOAT, [-1, 3])], ["y"])
    with pytest.raises(OnnxImportError, match=r"input 'x': error: dim 0 is dynamic \(unknown\) in shape \[\?, 3\]"):
        import_model(m, "m.onnx")
    assert "tensor<?x3xf32>" in str(import_model(m, "m.onnx", dynamic_dims=True))
    m.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -5
    assert "tensor<2x3xf32>" in str(import_model(m, "m.onnx", {"x": (2, 3)}))


# ---------------------------------------------------------------------------------------
# One producer per value
# ---------------------------------------------------------------------------------------


def test_two_nodes_making_one_value(tmp_path: Path) -> None:
    m = model(
        [
            h.make_node("Relu", ["x"], ["t"], name="first"),
            h.make_node("Neg", ["x"], ["t"], name="second"),
            h.make_node("Abs", ["t"], ["y"], name="abs0"),
        ],
        [("x", T.FLOAT, [2, 3])],
        ["y"],
    )
    refused_by_every_tool(
        m, tmp_path, r"node 'second' \(Neg\): error: output 0 't' is already defined by node 'first' \(Relu\)"
    )


def test_a_node_redefining_a_graph_input(tmp_path: Path) -> None:
    m = model(
        [h.make_node("Abs", ["x"], ["z"], name="abs0"), h.make_node("Add", ["x", "z"], ["y"], name="add0")],
        [("x", T.FLOAT, [4]), ("z", T.FLOAT, [4])],
        ["y"],
    )
    refused_by_every_tool(
        m, tmp_path, r"node 'abs0' \(Abs\): error: output 0 'z' is already defined by graph input 'z'"
    )


def test_a_node_redefining_an_initializer_and_a_second_output(tmp_path: Path) -> None:
    m = model(
        [h.make_node("Mul", ["x", "w"], ["w"], name="mul0"), h.make_node("Abs", ["w"], ["y"], name="abs0")],
        [("x", T.INT64, [3])],
        ["y"],
        {"w": np.arange(3, dtype=np.int64)},
    )
    refused_by_every_tool(
        m, tmp_path, r"node 'mul0' \(Mul\): error: output 0 'w' is already defined by initializer 'w'"
    )
    # a multi-output node: its second output clashes with an earlier node's
    m = model(
        [
            h.make_node("Relu", ["x"], ["b"], name="r0"),
            h.make_node("Split", ["x"], ["a", "b"], name="sp", axis=0, num_outputs=2),
            h.make_node("Add", ["a", "b"], ["y"], name="add0"),
        ],
        [("x", T.FLOAT, [4, 2])],
        ["y"],
        opset=18,
    )
    refused_by_every_tool(
        m, tmp_path, r"node 'sp' \(Split\): error: output 1 'b' is already defined by node 'r0' \(Relu\)"
    )
    # one node naming the same value twice
    m.graph.node[0].output[0] = "c"
    m.graph.node[1].output[1] = "a"
    refused_by_every_tool(
        m, tmp_path, r"node 'sp' \(Split\): error: output 1 'a' is already defined by node 'sp' \(Split\)"
    )


# ---------------------------------------------------------------------------------------
# Constant indices out of range
# ---------------------------------------------------------------------------------------


def _gather(axis: int, idx: np.ndarray, shape=(4, 3), as_constant: bool = False) -> onnx.ModelProto:
    nodes = [h.make_node("Relu", ["x"], ["r"], name="re0")]
    inits = {"i": idx}
    if as_constant:
        nodes.insert(0, h.make_node("Constant", [], ["i"], name="k", value=numpy_helper.from_array(idx)))
        inits = {}
    nodes.append(h.make_node("Gather", ["r", "i"], ["y"], name="ga0", axis=axis))
    return model(nodes, [("x", T.FLOAT, list(shape))], ["y"], inits)


@pytest.mark.parametrize(
    ("m", "pattern"),
    [
        (
            _gather(0, np.array([1, 7], np.int64)),
            r"node 'ga0' \(Gather\): error: index 7 at \[1\] of input 1 'i' is out of range for dim 0 \(size 4\) "
            r"of input 0: valid indices are -4 to 3$",
        ),
        (
            _gather(1, np.array([[0, 3], [-4, 2]], np.int32)),
            r"node 'ga0' \(Gather\): error: index 3 at \[0, 1\] .* dim 1 \(size 3\) .* -3 to 2 \(2 indices are out of range\)$",
        ),
        (
            _gather(-1, np.array(5, np.int64), (2, 5), as_constant=True),
            r"node 'ga0' \(Gather\): error: index 5 at \[\] .* dim 1 \(size 5\)",
        ),
        (
            _gather(0, np.array([-5, 0], np.int64)),
            r"node 'ga0' \(Gather\): error: index -5 at \[0\] .* valid indices are -4 to 3$",
        ),
        (
            model(
                [h.make_node("GatherElements", ["x", "i"], ["y"], name="ge0", axis=1)],
                [("x", T.FLOAT, [2, 3])],
                ["y"],
                {"i": np.array([[0, 1], [2, 9]], np.int64)},
            ),
            r"node 'ge0' \(GatherElements\): error: index 9 at \[1, 1\] .* dim 1 \(size 3\)",
        ),
    ],
    ids=["axis0", "axis1-int32", "scalar-constant-node", "negative", "gather-elements"],
)
def test_constant_index_out_of_range_is_refused(tmp_path: Path, m: onnx.ModelProto, pattern: str) -> None:
    refused_by_every_tool(m, tmp_path, pattern)


def test_constant_indices_in_range_import() -> None:
    # negative indices in [-n, -1] are ONNX's "from the end": valid
    for idx in (np.array([0, 3, -1, -4], np.int64), np.array(2, np.int32), np.zeros((0,), np.int64)):
        import_model(_gather(0, idx), "m.onnx")


def _ctx(op_type: str, data: tuple[int, ...], idx: np.ndarray, **attrs: int) -> imp._NodeCtx:
    importer = imp._Importer("m.onnx", 17, {})
    importer.values["x"] = imp._Value(T.FLOAT, data, producer="input 'x'")
    importer.values["i"] = imp._Value(T.INT64, idx.shape, const=idx, producer="initializer 'i'")
    ins = ["x", "i", "x"] if op_type.startswith("Scatter") else ["x", "i"]
    return imp._NodeCtx(importer, h.make_node(op_type, ins, ["y"], name="n", **attrs), 1)


@pytest.mark.parametrize(
    ("op_type", "data", "idx", "attrs", "pattern"),
    [
        ("ScatterElements", (3, 4), np.array([[0, 4]]), {"axis": 1}, r"index 4 at \[0, 1\] .* dim 1 \(size 4\)"),
        (
            "GatherND",
            (2, 3),
            np.array([[1, 2], [2, 0]]),
            {},
            r"index 2 at \[1\] .* \(coordinate 0\) .* dim 0 \(size 2\)",
        ),
        (
            "GatherND",
            (2, 3, 5),
            np.array([[1, 5]]),
            {"batch_dims": 1},
            r"index 5 .* \(coordinate 1\) .* dim 2 \(size 5\)",
        ),
        ("ScatterND", (4,), np.array([[-5]]), {}, r"index -5 .* dim 0 \(size 4\)"),
    ],
    ids=["scatter-elements", "gather-nd", "gather-nd-batch", "scatter-nd"],
)
def test_constant_index_check_of_the_other_index_ops(op_type: str, data, idx, attrs, pattern: str) -> None:
    with pytest.raises(OnnxImportError, match=rf"^m\.onnx: node 'n' \({op_type}\): error: " + pattern):
        imp._check_constant_indices(_ctx(op_type, data, idx, **attrs))
    imp._check_constant_indices(_ctx(op_type, data, np.zeros_like(idx), **attrs))  # in range: no error


# ---------------------------------------------------------------------------------------
# Shape inference: the cause, not the wrapper
# ---------------------------------------------------------------------------------------


def _if_model(inner: onnx.NodeProto) -> onnx.ModelProto:
    then = h.make_graph([inner], "then", [], [h.make_tensor_value_info("t", T.FLOAT, None)])
    other = h.make_graph(
        [h.make_node("Identity", ["a"], ["e"], name="inner_id")],
        "else",
        [],
        [h.make_tensor_value_info("e", T.FLOAT, None)],
    )
    return model(
        [h.make_node("If", ["c"], ["y"], name="if0", then_branch=then, else_branch=other)],
        [("a", T.FLOAT, [2, 3]), ("b", T.FLOAT, [4, 3]), ("c", T.BOOL, [])],
        ["y"],
    )


@pytest.mark.parametrize(
    ("m", "pattern"),
    [
        (
            _if_model(h.make_node("Add", ["a", "b"], ["t"], name="inner_add")),
            r"node 'if0' \(If\): error: ONNX shape inference fails in a subgraph, at node 'inner_add' \(Add\): "
            r"\[ShapeInferenceError\] Incompatible dimensions$",
        ),
        (
            _if_model(h.make_node("MatMul", ["a", "b"], ["t"], name="inner_mm")),
            r"node 'if0' \(If\): .* at node 'inner_mm' \(MatMul\): .*Incompatible dimensions for matrix multiplication$",
        ),
        (
            model(
                [
                    h.make_node("Relu", ["a"], ["r"], name="r0"),
                    h.make_node("Concat", ["r", "b"], ["y"], name="cat", axis=0),
                ],
                [("a", T.FLOAT, [2, 3]), ("b", T.FLOAT, [4, 4])],
                ["y"],
            ),
            r"node 'cat' \(Concat\): error: ONNX shape inference fails: .*dimension",
        ),
    ],
    ids=["if-add", "if-matmul", "concat"],
)
def test_shape_inference_failure_keeps_its_cause(tmp_path: Path, m: onnx.ModelProto, pattern: str) -> None:
    refused_by_every_tool(m, tmp_path, pattern)


def test_inference_failure_text_forms() -> None:
    f = imp._inference_failure
    assert str(f("[ShapeInferenceError] (op_type:Add, node name: ad): B has inconsistent type", "m.onnx")) == (
        "m.onnx: node 'ad' (Add): error: ONNX shape inference fails: B has inconsistent type"
    )
    assert str(f("something\nelse", "m.onnx")) == "m.onnx: error: ONNX shape inference fails: something else"
    # two failures, the first nested: the first is told, with its subgraph's node
    text = (
        "[ShapeInferenceError] Inference error(s): (op_type:If, node name: if0): [ShapeInferenceError] Inference "
        "error(s): (op_type:Add, node name: a1): [ShapeInferenceError] Incompatible dimensions\n"
        "(op_type:MatMul, node name: mm): [ShapeInferenceError] Incompatible dimensions for matrix multiplication\n"
    )
    assert str(f(text, "m.onnx")) == (
        "m.onnx: node 'if0' (If): error: ONNX shape inference fails in a subgraph, at node 'a1' (Add): "
        "[ShapeInferenceError] Incompatible dimensions"
    )
    text = "Inference error(s): (op_type:Relu, node name: r0): bad\n(op_type:Abs, node name: a0): worse"
    assert str(f(text, "m.onnx")) == "m.onnx: node 'r0' (Relu): error: ONNX shape inference fails: bad"
    # a node name holding parentheses
    text = "[ShapeInferenceError] Inference error(s): (op_type:Relu, node name: f(x)): bad rank\n"
    assert str(f(text, "m.onnx")) == "m.onnx: node 'f(x)' (Relu): error: ONNX shape inference fails: bad rank"


# ---------------------------------------------------------------------------------------
# Sparse initializers
# ---------------------------------------------------------------------------------------


def _sparse(name: str, values: np.ndarray, indices: np.ndarray, dims: Sequence[int]) -> onnx.SparseTensorProto:
    s = h.make_sparse_tensor(numpy_helper.from_array(values, name), numpy_helper.from_array(indices), list(dims))
    return s


@pytest.mark.parametrize(
    ("values", "indices", "dims"),
    [
        (np.array([1.5, -2.0], np.float32), np.array([0, 5], np.int64), (2, 3)),  # linear offsets
        (np.array([3, 4, 5], np.int32), np.array([[0, 1], [1, 0], [2, 2]], np.int64), (3, 3)),  # coordinates
        (np.array([0.25], np.float16), np.array([[1, 0, 2]], np.int64), (2, 2, 3)),
        (np.zeros((0,), np.float32), np.zeros((0,), np.int64), (4,)),  # all zeros
    ],
    ids=["linear-f32", "coords-i32", "coords-3d-f16", "empty"],
)
def test_sparse_initializer_is_its_dense_tensor(tmp_path: Path, values, indices, dims) -> None:
    sp = _sparse("w", values, indices, dims)
    elem = onnx.helper.np_dtype_to_tensor_dtype(values.dtype)
    m = model([h.make_node("Add", ["x", "w"], ["y"], name="ad")], [("x", elem, list(dims))], ["y"], sparse=[sp])
    # the dense tensor, built independently of the importer
    dense = np.zeros(dims, values.dtype)
    for v, ix in zip(values, indices):
        if indices.ndim == 1:
            dense[np.unravel_index(int(ix), dims)] = v
        else:
            dense[tuple(int(a) for a in ix)] = v
    got = import_model(m, "m.onnx")
    const = next(op for op in got.walk() if op.name == "ge.Const")
    assert const.results[0].name_hint == "w"
    want = import_model(
        model([h.make_node("Add", ["x", "w"], ["y"], name="ad")], [("x", elem, list(dims))], ["y"], {"w": dense}),
        "m.onnx",
    )
    assert str(got) == str(want)
    p = tmp_path / "sparse.onnx"
    onnx.save(m, str(p))
    code, out, err = run_tool("ge-run", str(p))  # checked against onnxruntime too
    assert code == 0 and "outputs match onnxruntime" in out, out + err


def test_invalid_sparse_initializer_says_what_is_wrong(tmp_path: Path) -> None:
    sp = _sparse("w", np.array([1.0], np.float32), np.array([9], np.int64), (2, 3))  # index past 6 elements
    m = model([h.make_node("Add", ["x", "w"], ["y"], name="ad")], [("x", T.FLOAT, [2, 3])], ["y"], sparse=[sp])
    refused_by_every_tool(m, tmp_path, r"sparse initializer 'w': error: the ONNX checker refuses it: .*index")
