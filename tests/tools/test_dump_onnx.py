"""--dump-onnx DIR (ge_tools/dump_onnx.py, issue 33 item 5): the input graph, the graph after
fusion and the compiled graph written as ONNX files that onnx.checker accepts (Netron opens
what the checker accepts), GE attributes kept as node attributes; a dump whose nodes are all
ONNX operators runs on onnxruntime with the numbers numpy computes."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from conftest import ROOT, run_cli
from ge_tools.opt import main as ge_opt
from ge_tools.run import run as ge_run

EX = ROOT / "examples"
STAGES = ("00_input.onnx", "01_after_fusion.onnx", "02_compiled.onnx")


def _load(path) -> onnx.ModelProto:
    m = onnx.load(str(path))
    onnx.checker.check_model(m, full_check=True)
    return m


def _attrs(node: onnx.NodeProto) -> dict[str, object]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def test_ge_opt_dumps_three_stages_with_kernels_as_nodes(tmp_path):
    code, _, err = run_cli(
        ge_opt, [str(EX / "split_compute_merge.mlir"), "-p", "ge-compile", "--dump-onnx", str(tmp_path)]
    )
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == list(STAGES)
    inp, fused, compiled = (_load(tmp_path / s) for s in STAGES)
    # the input: x, y, w are inputs; 12 nodes (Mul, Relu, SplitD, 3 x (Exp, Mul), ConcatD,
    # MatMul, Tanh); Mul, Relu, Exp, Tanh are ONNX's, SplitD, ConcatD, MatMul GE's
    assert [i.name for i in inp.graph.input] == ["x", "y", "w"]
    assert len(inp.graph.node) == 12
    domains = {n.op_type: n.domain for n in inp.graph.node}
    assert domains == {"Mul": "", "Relu": "", "Exp": "", "Tanh": "", "SplitD": "ge", "ConcatD": "ge", "MatMul": "ge"}
    split = next(n for n in inp.graph.node if n.op_type == "SplitD")
    assert _attrs(split)["split_dim"] == 0 and _attrs(split)["num_split"] == 3
    # compiled: four AscBackends (Mul+Relu, then Exp+Mul per block), the no-task SplitD and
    # ConcatD with GE's _no_task, the MatMul and the Tanh kernels
    kinds = [n.op_type for n in compiled.graph.node]
    assert kinds.count("AscBackend") == 4 and "Mul" not in kinds
    k = next(n for n in compiled.graph.node if n.name == "autofuse_pointwise_0_Mul_Relu")
    a = _attrs(k)
    assert a["fuse_type"] == b"pointwise" and a["origin_nodes"] == [b"a", b"r"]
    assert a["asc_graph_nodes"][0] == b"Data" and b"Relu" in a["asc_graph_nodes"]
    for name in ("s0", "c"):
        n = next(n for n in compiled.graph.node if n.name == name)
        assert _attrs(n)["_no_task"] == 1
    # every value has its shape: the kernel's output is 48x32 f16
    infos = {v.name: v for v in compiled.graph.value_info}
    t = infos["autofuse_pointwise_0_Mul_Relu"].type.tensor_type
    assert t.elem_type == onnx.TensorProto.FLOAT16 and [d.dim_value for d in t.shape.dim] == [48, 32]
    assert len(fused.graph.node) >= len(compiled.graph.node)


ONNX_ONLY = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3x4xf32>
  %w = ge.Const {value = dense<[0.5, -1.0, 2.0, 0.25]> : tensor<4xf32>} : tensor<4xf32>
  %a = ge.Mul(%x, %w) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %r = ge.Relu(%a) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %e = ge.Exp(%r) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = ge.Sub(%e, %x) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  ge.NetOutput %s, %x : tensor<3x4xf32>, tensor<3x4xf32>
}
"""


def test_onnx_only_graph_runs_on_onnxruntime(tmp_path):
    src = tmp_path / "g.mlir"
    src.write_text(ONNX_ONLY)
    out = tmp_path / "d"
    code, _, err = run_cli(ge_opt, [str(src), "-p", "ge-compile", "--dump-onnx", str(out)])
    assert code == 0, err
    m = _load(out / "00_input.onnx")
    assert all(n.domain == "" for n in m.graph.node)
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    got = ort.InferenceSession(m.SerializeToString()).run(None, {"x": x})
    w = np.array([0.5, -1.0, 2.0, 0.25], np.float32)
    want = np.exp(np.maximum(x * w, 0)) - x
    np.testing.assert_allclose(got[0], want, rtol=1e-6)
    np.testing.assert_array_equal(got[1], x)  # a graph input as an output: through an Identity
    # the weight is an initializer with its values, not a node
    [init] = m.graph.initializer
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(init), w)


@pytest.mark.parametrize("model", ["transformer_encoder_layer.onnx", "resnet_basic_block.onnx"])
def test_ge_run_dumps_a_zoo_model(tmp_path, model):
    out = tmp_path / "d"
    assert ge_run([str(EX / "zoo" / model), "--dump-onnx", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == list(STAGES)
    for s in STAGES:
        m = _load(out / s)
        assert m.graph.node and m.graph.output
