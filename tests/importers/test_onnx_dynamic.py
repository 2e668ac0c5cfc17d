"""ONNX import of dynamic dims (--dynamic-dims): a named or unknown dim of a graph input
stays `?` (GE's -1) and ONNX's shape inference carries it; without the option such a dim
is the error naming --input-shape, as before. The zoo's mlp_dynamic_batch (x [N, 16]) runs
through the reference at two batch sizes and matches onnxruntime."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto as T
from onnx import helper as h

from conftest import ROOT, run_cli
from ge_dialect import ge
from ge_dialect.desc import shape_of
from importers.onnx import OnnxImportError, import_model, load_model
from runtime.interpreter import run_module

ZOO = ROOT / "examples" / "zoo"
sys.path.insert(0, str(ZOO))

import gen_zoo  # noqa: E402  (examples/zoo is not a package: on sys.path just above)

MODEL = ZOO / "mlp_dynamic_batch.onnx"


def _data_and_output_shapes(module) -> tuple[list, list]:
    graph = next(op for op in module.ops if isinstance(op, ge.GraphOp))
    datas = [shape_of(d.results[0].type) for d in graph.data_nodes]
    outs = [shape_of(v.type) for v in graph.net_output.operands]
    return datas, outs


def test_the_dynamic_zoo_model_is_current_and_deterministic(tmp_path: Path) -> None:
    assert gen_zoo.main(["-o", str(tmp_path)]) == 0
    data = (tmp_path / "mlp_dynamic_batch.onnx").read_bytes()
    assert data == MODEL.read_bytes() == gen_zoo.model_bytes("mlp_dynamic_batch")


def test_without_the_option_a_named_dim_is_still_an_error() -> None:
    with pytest.raises(OnnxImportError, match=r"dim 0 is dynamic \('N'\).*--input-shape x=1x16.*--dynamic-dims"):
        load_model(str(MODEL))


@pytest.mark.parametrize("batch", [2, 5])
def test_dynamic_batch_imports_as_unknown_and_matches_onnxruntime(batch: int) -> None:
    module = load_model(str(MODEL), dynamic_dims=True)
    datas, outs = _data_and_output_shapes(module)
    assert datas == [(-1, 16)] and outs == [(-1, 10)]
    x = np.random.default_rng(batch).standard_normal((batch, 16)).astype(np.float32)
    got = run_module(module, [x])
    want = ort.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    assert got[0].shape == (batch, 10)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)


def test_input_shape_still_fixes_a_dim_with_the_option() -> None:
    module = load_model(str(MODEL), {"x": (3, 16)}, dynamic_dims=True)
    assert _data_and_output_shapes(module) == ([(3, 16)], [(3, 10)])


def test_an_unknown_dim_without_a_name_and_a_second_input() -> None:
    # x [?, 4] (no dim_param) + y [N, 4]: ONNX's inference merges the broadcast to [N, 4]
    # or leaves it unknown; either way the output is ? x 4
    x = h.make_tensor_value_info("x", T.FLOAT, [None, 4])
    y = h.make_tensor_value_info("y", T.FLOAT, ["N", 4])
    z = h.make_tensor_value_info("z", T.FLOAT, None)
    g = h.make_graph([h.make_node("Add", ["x", "y"], ["z"], name="add")], "g", [x, y], [z])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    module = import_model(m, "m.onnx", dynamic_dims=True)
    datas, outs = _data_and_output_shapes(module)
    assert datas == [(-1, 4), (-1, 4)] and outs == [(-1, 4)]
    a, b = np.ones((3, 4), np.float32), np.full((3, 4), 2.0, np.float32)
    np.testing.assert_array_equal(run_module(module, [a, b])[0], a + b)


def _tool(main, argv: list[str]) -> tuple[int, str]:
    code, out, err = run_cli(main, argv)
    return code, out + err


def test_ge_import_and_ge_opt_take_dynamic_dims(tmp_path: Path) -> None:
    from ge_tools import import_onnx
    from ge_tools import opt as ge_opt

    code, out = _tool(import_onnx.main, [str(MODEL), "--dynamic-dims"])
    assert code == 0 and "%x = ge.Data {index = 0} : tensor<?x16xf32>" in out
    assert "-> tensor<?x10xf32>" in out
    code, out = _tool(import_onnx.main, [str(MODEL)])
    assert code == 1 and "--dynamic-dims" in out
    code, out = _tool(ge_opt.main, [str(MODEL), "--dynamic-dims"])
    assert code == 0 and "tensor<?x16xf32>" in out, out
    text = tmp_path / "g.mlir"
    text.write_text(
        "ge.graph @main {\n  %x = ge.Data {index = 0} : tensor<2xf32>\n  ge.NetOutput %x : tensor<2xf32>\n}\n"
    )
    code, out = _tool(ge_opt.main, [str(text), "--dynamic-dims"])
    assert code == 1 and "--dynamic-dims applies to an ONNX model (.onnx) only" in out
