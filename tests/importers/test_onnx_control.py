"""ONNX If and Loop (importers/onnx_control.py) on generated models, against onnxruntime:
If with branches that compute different things (and read outer-scope values), nested If,
Loop with loop-carried values (trip count only, condition only, both), on several dtypes
and shapes; the refusals (scan outputs, a non-scalar condition) are one located line."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h

from conftest import make_onnx_model
from ge_dialect import ge
from importers.onnx import OnnxImportError, import_model
from runtime.interpreter import run_module

NP = {T.FLOAT: np.float32, T.FLOAT16: np.float16, T.INT32: np.int32, T.INT64: np.int64, T.BOOL: np.bool_}


def ort_run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, feeds)


def check(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    module = import_model(model, "m.onnx")
    module.verify()
    got = run_module(module, list(feeds.values()))
    want = ort_run(model, feeds)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.astype(np.float64), np.asarray(w).astype(np.float64), rtol=1e-3, atol=1e-3)
    return got


def vi(name: str, elem: int, shape: list[int]) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, elem, shape)


def if_model(elem: int, shape: list[int], cond_shape: list[int]) -> onnx.ModelProto:
    # then: (x + y, x * 2); else: (x - y, relu(y)); both read x and y from the outer scope,
    # and the else branch a constant initializer (copied in) and the cond itself
    then_g = h.make_graph(
        [h.make_node("Add", ["x", "y"], ["t0"]), h.make_node("Add", ["x", "x"], ["t1"])],
        "then",
        [],
        [vi("t0", elem, shape), vi("t1", elem, shape)],
    )
    else_g = h.make_graph(
        [h.make_node("Sub", ["x", "y"], ["e0"]), h.make_node("Mul", ["y", "k"], ["e1"])],
        "else",
        [],
        [vi("e0", elem, shape), vi("e1", elem, shape)],
    )
    nodes = [
        h.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        h.make_node("Greater", ["s", "zero"], ["c0"]),
        h.make_node("Reshape", ["c0", "cshape"], ["c"]),
        h.make_node("If", ["c"], ["o0", "o1"], then_branch=then_g, else_branch=else_g, name="branch"),
    ]
    inits = {
        "zero": np.array(0, NP[elem]),
        "k": np.full(shape, 3, NP[elem]),
        "cshape": np.array(cond_shape, np.int64),
    }
    return make_onnx_model(nodes, [("x", elem, shape), ("y", elem, shape)], ["o0", "o1"], inits, opset=13)


@pytest.mark.parametrize(
    ("elem", "shape", "cond_shape"),
    [(T.FLOAT, [2, 3], []), (T.FLOAT16, [4], [1]), (T.INT32, [3, 1, 2], [1, 1]), (T.INT64, [5], [])],
)
@pytest.mark.parametrize("sign", [1, -1])
def test_if_matches_onnxruntime(elem: int, shape: list[int], cond_shape: list[int], sign: int) -> None:
    rng = np.random.default_rng(len(shape) * 10 + sign)
    x = (sign * rng.integers(1, 4, shape)).astype(NP[elem])
    y = rng.integers(-3, 4, shape).astype(NP[elem])
    model = if_model(elem, shape, cond_shape)
    check(model, {"x": x, "y": y})
    module = import_model(model, "m.onnx")
    (node,) = [op for op in module.walk() if isinstance(op, ge.If)]
    assert ge.node_name(node) == "branch"
    # IfSubgraphAdapter: then_branch is subgraph 0; the outer values are inputs, by name
    assert node.subgraph_names() == ["branch_then_branch", "branch_else_branch"]
    assert len(node.operands) == 3  # cond, x, y (k is a constant: copied into the branch)


def test_if_branch_attribute_order_does_not_matter() -> None:
    model = if_model(T.FLOAT, [3], [])
    node = model.graph.node[-1]
    attrs = list(node.attribute)
    del node.attribute[:]
    node.attribute.extend(reversed(attrs))  # else_branch first
    x = np.array([1, 2, 3], np.float32)
    y = np.array([0.5, -1, 2], np.float32)
    check(model, {"x": x, "y": y})


def test_nested_if_reads_grand_outer_values() -> None:
    inner_then = h.make_graph([h.make_node("Neg", ["x"], ["it"])], "it", [], [vi("it", T.FLOAT, [4])])
    inner_else = h.make_graph([h.make_node("Abs", ["w"], ["ie"])], "ie", [], [vi("ie", T.FLOAT, [4])])
    outer_then = h.make_graph(
        [
            h.make_node("If", ["c2"], ["r"], then_branch=inner_then, else_branch=inner_else, name="inner"),
            h.make_node("Add", ["r", "x"], ["ot"]),
        ],
        "ot",
        [],
        [vi("ot", T.FLOAT, [4])],
    )
    outer_else = h.make_graph([h.make_node("Identity", ["w"], ["oe"])], "oe", [], [vi("oe", T.FLOAT, [4])])
    nodes = [h.make_node("If", ["c1"], ["o"], then_branch=outer_then, else_branch=outer_else, name="outer")]
    model = make_onnx_model(
        nodes, [("c1", T.BOOL, []), ("c2", T.BOOL, []), ("x", T.FLOAT, [4]), ("w", T.FLOAT, [4])], ["o"]
    )
    x = np.array([1, -2, 3, -4], np.float32)
    w = np.array([-5, 6, -7, 8], np.float32)
    for c1 in (True, False):
        for c2 in (True, False):
            check(model, {"c1": np.array(c1), "c2": np.array(c2), "x": x, "w": w})


def loop_model(elem: int, shape: list[int], with_m: bool, with_cond: bool) -> onnx.ModelProto:
    # v = v * 0.5 + iter; cond_out = sum(v) > limit (a data-dependent stop)
    body = h.make_graph(
        [
            h.make_node("Cast", ["iter"], ["fi"], to=elem),
            h.make_node("Mul", ["v_in", "half"], ["m"]),
            h.make_node("Add", ["m", "fi"], ["v_out"]),
            h.make_node("ReduceSum", ["v_out"], ["s"], keepdims=0),
            h.make_node("Greater", ["s", "limit"], ["cond_out"]),
        ],
        "body",
        [vi("iter", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v_in", elem, shape)],
        [vi("cond_out", T.BOOL, []), vi("v_out", elem, shape)],
        initializer=[onnx.numpy_helper.from_array(np.array(0.5, NP[elem]), "half")],
    )
    ins = ["M" if with_m else "", "c" if with_cond else "", "v0"]
    nodes = [h.make_node("Loop", ins, ["v"], body=body, name="loop")]
    inputs = [("v0", elem, shape), ("limit", elem, [])]
    if with_m:
        inputs.append(("M", T.INT64, []))
    if with_cond:
        inputs.append(("c", T.BOOL, []))
    return make_onnx_model(nodes, inputs, ["v"], opset=13)


@pytest.mark.parametrize(
    ("elem", "shape", "with_m", "with_cond"),
    [(T.FLOAT, [2, 2], True, True), (T.FLOAT, [3], True, False), (T.FLOAT16, [2], False, True)],
)
@pytest.mark.parametrize("limit", [-100.0, 3.0])
def test_loop_matches_onnxruntime(elem: int, shape: list[int], with_m: bool, with_cond: bool, limit: float) -> None:
    rng = np.random.default_rng(len(shape))
    model = loop_model(elem, shape, with_m, with_cond)
    feeds = {"v0": rng.uniform(0, 1, shape).astype(NP[elem]), "limit": np.array(limit, NP[elem])}
    if with_m:
        feeds["M"] = np.array(6, np.int64)
    if with_cond:
        feeds["c"] = np.array(True)
    if not with_m and limit < 0:
        return  # no trip count and a condition that stays true: onnxruntime would not stop
    check(model, feeds)
    module = import_model(model, "m.onnx")
    (w,) = [op for op in module.walk() if isinstance(op, ge.While)]
    assert w.subgraph_names() == ["loop_cond", "loop_body"]


def test_loop_with_false_initial_condition_runs_no_iteration() -> None:
    model = loop_model(T.FLOAT, [3], True, True)
    v0 = np.array([1, 2, 3], np.float32)
    got = check(model, {"v0": v0, "limit": np.array(0, np.float32), "M": np.array(5, np.int64), "c": np.array(False)})
    np.testing.assert_array_equal(got[0], v0)


def test_loop_scan_output_is_refused() -> None:
    body = h.make_graph(
        [h.make_node("Identity", ["cond_in"], ["cond_out"]), h.make_node("Neg", ["v_in"], ["v_out"]),
         h.make_node("Identity", ["v_out"], ["scan"])],
        "body",
        [vi("iter", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v_in", T.FLOAT, [2])],
        [vi("cond_out", T.BOOL, []), vi("v_out", T.FLOAT, [2]), vi("scan", T.FLOAT, [2])],
    )  # fmt: skip
    nodes = [h.make_node("Loop", ["M", "", "v0"], ["v", "stacked"], body=body, name="scanner")]
    model = make_onnx_model(nodes, [("v0", T.FLOAT, [2]), ("M", T.INT64, [])], ["v", "stacked"], opset=13)
    with pytest.raises(OnnxImportError) as e:
        import_model(model, "m.onnx")
    assert str(e.value).startswith("m.onnx: node 'scanner' (Loop): error: Loop with 1 scan output(s) is not supported")


def test_loop_non_scalar_condition_is_refused() -> None:
    model = loop_model(T.FLOAT, [3], True, True)
    model.graph.input[-1].CopyFrom(vi("c", T.BOOL, [2]))
    body = model.graph.node[0].attribute[0].g
    body.input[1].CopyFrom(vi("cond_in", T.BOOL, None))  # a cond of any shape, as far as ONNX checks
    with pytest.raises(OnnxImportError) as e:
        import_model(model, "m.onnx")
    assert str(e.value) == (
        "m.onnx: node 'loop' (Loop): error: the condition cond (input 1) must hold one element (a scalar), got shape [2]"
    )
