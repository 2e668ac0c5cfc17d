"""Bad ONNX models and bad ge-import arguments: one error line, exit 1, no traceback.

Each error class of the importer (importers/onnx.py) has tests: an op we do not support
(the message lists the supported ones and names GE's mapping), an attribute value we do
not support, a dynamic or missing dimension (and `--input-shape` fixing it), a truncated or
non-ONNX file (several shapes of bad bytes, and every truncation of a small model), missing
external data, an opset outside 11-28, and a static input that is not constant. They run
ge-import in-process (`main`), one of them also as a subprocess.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from conftest import ROOT, run_cli
from ge_tools import import_onnx, workflow
from importers.onnx import OnnxImportError, import_model, load_model, supported_ops


def model(nodes, inputs, outputs, inits=None, opset: int = 17) -> onnx.ModelProto:
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info(n, e, s) for n, e, s in inputs],
        [h.make_tensor_value_info(n, e, s) for n, e, s in outputs],
        initializer=[numpy_helper.from_array(a, n) for n, a in (inits or {}).items()],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def relu_model(shape=(2, 3), opset: int = 17) -> onnx.ModelProto:
    return model(
        [h.make_node("Relu", ["x"], ["y"], name="relu")],
        [("x", T.FLOAT, list(shape))],
        [("y", T.FLOAT, None)],
        opset=opset,
    )


def run_import(*args: str) -> tuple[int, str, str]:
    return run_cli(import_onnx.main, args)


def expect_error(path: Path | str, *extra: str, pattern: str) -> str:
    """ge-import fails with one line on stderr matching `pattern`, nothing on stdout."""
    code, out, err = run_import(str(path), *extra)
    lines = err.splitlines()
    assert code == 1, err
    assert out == ""
    assert len(lines) == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert re.search(pattern, lines[0]), lines[0]
    return lines[0]


def save(m: onnx.ModelProto, tmp_path: Path, name: str = "m.onnx") -> Path:
    p = tmp_path / name
    onnx.save(m, str(p))
    return p


# ---------------------------------------------------------------------------------------
# Unsupported ops and attribute values
# ---------------------------------------------------------------------------------------


def test_unsupported_op_names_the_node_ges_mapping_and_the_supported_ops(tmp_path: Path) -> None:
    m = model(
        [h.make_node("Einsum", ["x"], ["y"], name="attn/einsum", equation="ij->ji")],
        [("x", T.FLOAT, [2, 3])],
        [("y", T.FLOAT, None)],
    )
    line = expect_error(
        save(m, tmp_path),
        pattern=r"^.*m\.onnx: node 'attn/einsum' \(Einsum\): error: op Einsum is not supported yet",
    )
    assert "Einsum (einsum_plugin.cc)" in line
    assert "supported: " + ", ".join(supported_ops()) in line


def test_unsupported_op_without_a_ge_mapping(tmp_path: Path) -> None:
    m = model([h.make_node("Det", ["x"], ["y"], name="det")], [("x", T.FLOAT, [3, 3])], [("y", T.FLOAT, None)])
    expect_error(
        save(m, tmp_path),
        pattern=r"node 'det' \(Det\): error: op Det is not supported yet: GE's public ONNX plugins have no mapping",
    )


def test_op_of_another_domain(tmp_path: Path) -> None:
    m = model(
        [h.make_node("FusedGemm", ["x", "x"], ["y"], name="fg", domain="com.microsoft")],
        [("x", T.FLOAT, [2, 2])],
        [("y", T.FLOAT, None)],
    )
    m.opset_import.append(h.make_opsetid("com.microsoft", 1))
    with pytest.raises(
        OnnxImportError,
        match=r"node 'fg' \(FusedGemm\): error: op com.microsoft::FusedGemm is not supported: only the ai.onnx domain",
    ):
        import_model(m, "m.onnx")


@pytest.mark.parametrize(
    ("node", "inputs", "pattern"),
    [
        (
            h.make_node("Gemm", ["a", "b"], ["y"], name="g", alpha=0.5),
            [("a", T.INT32, [2, 3]), ("b", T.INT32, [3, 4])],
            r"node 'g' \(Gemm\): error: attribute alpha = 0.5 is not supported: an integer Gemm takes alpha = beta = 1",
        ),
        (
            h.make_node("Gemm", ["a", "b", "a2"], ["y"], name="g", beta=2.0),
            [("a", T.INT64, [2, 3]), ("b", T.INT64, [3, 4]), ("a2", T.INT64, [4])],
            r"attribute beta = 2.0 is not supported",
        ),
        (
            h.make_node("Cast", ["a"], ["y"], name="c", to=T.BFLOAT16),
            [("a", T.FLOAT, [2])],
            r"node 'c' \(Cast\): error: attribute to = BFLOAT16 is not supported: GE's Cast plugin maps only",
        ),
        (
            h.make_node("Conv", ["a", "w"], ["y"], name="c3", kernel_shape=[1, 1, 1]),
            [("a", T.FLOAT, [1, 2, 3, 3, 3]), ("w", T.FLOAT, [2, 2, 1, 1, 1])],
            r"node 'c3' \(Conv\): error: a 3-D Conv \(5-D input\) needs Conv3D",
        ),
        (
            h.make_node("MatMul", ["a", "b"], ["y"], name="bmm"),
            [("a", T.FLOAT, [2, 3, 4]), ("b", T.FLOAT, [4])],
            r"node 'bmm' \(MatMul\): error: MatMul of a rank-3 and a rank-1 input: GE's BatchMatMulV2 \(matmul_plugin.cc\) takes 2-D to 6-D",
        ),
        (
            h.make_node("Pow", ["a", "b"], ["y"], name="p"),
            [("a", T.BFLOAT16, [2]), ("b", T.FLOAT, [2])],
            r"node 'p' \(Pow\): error: Pow with a bfloat16 input of another dtype: GE's Cast plugin has no such type",
        ),
    ],
    ids=["gemm-alpha", "gemm-beta", "cast-bf16", "conv3d", "matmul-1d", "pow-mixed-bf16"],
)
def test_unsupported_attribute_value(tmp_path: Path, node, inputs, pattern: str) -> None:
    m = model([node], inputs, [("y", T.UNDEFINED, None)])
    for o in m.graph.output:
        o.ClearField("type")
    expect_error(save(m, tmp_path), pattern=pattern)


def test_static_input_must_be_constant(tmp_path: Path) -> None:
    # Dropout's training_mode chooses the mapping (inference: Identity): it must be a
    # constant; shapes, axes, scales and sizes of the other ops may be computed
    # (tests/importers/test_onnx_computed_inputs.py)
    m = model(
        [h.make_node("Dropout", ["x", "", "t"], ["y"], name="drop")],
        [("x", T.FLOAT, [1, 1, 2, 3]), ("t", T.BOOL, [])],
        [("y", T.FLOAT, None)],
        opset=18,
    )
    expect_error(
        save(m, tmp_path),
        pattern=r"node 'drop' \(Dropout\): error: input 2 \('training_mode'\) must be a constant \(an initializer or a Constant node\) .* it is input 't'",
    )


def test_static_input_made_by_a_node_names_that_node(tmp_path: Path) -> None:
    m = model(
        [
            h.make_node("Not", ["f"], ["t"], name="mode_of_x"),
            h.make_node("Dropout", ["x", "", "t"], ["y"], name="drop"),
        ],
        [("x", T.FLOAT, [1, 1, 2, 3]), ("f", T.BOOL, [])],
        [("y", T.FLOAT, None)],
        opset=18,
    )
    expect_error(save(m, tmp_path), pattern=r"it is output 0 of node 'mode_of_x' \(Not\)")


def test_dropout_in_training_mode_is_refused(tmp_path: Path) -> None:
    m = model(
        [h.make_node("Dropout", ["x", "r", "t"], ["y"], name="drop")],
        [("x", T.FLOAT, [2, 3])],
        [("y", T.FLOAT, None)],
        inits={"r": np.array(0.5, np.float32), "t": np.array(True)},
    )
    expect_error(
        save(m, tmp_path),
        pattern=r"node 'drop' \(Dropout\): error: attribute training_mode = true is not supported: only inference",
    )


def test_nodes_out_of_topological_order(tmp_path: Path) -> None:
    m = model(
        [h.make_node("Relu", ["c"], ["y"], name="second"), h.make_node("Relu", ["x"], ["c"], name="first")],
        [("x", T.FLOAT, [2])],
        [("y", T.FLOAT, None)],
    )
    expect_error(
        save(m, tmp_path),
        pattern=r"node 'second' \(Relu\): error: input 0 'c' is not defined before the node \(a later node makes it",
    )


def test_shape_inference_failure_is_located(tmp_path: Path) -> None:
    m = model(
        [h.make_node("Add", ["a", "b"], ["y"], name="bad_add")],
        [("a", T.FLOAT, [2, 3]), ("b", T.FLOAT, [4, 3])],
        [("y", T.FLOAT, None)],
    )
    expect_error(
        save(m, tmp_path),
        pattern=r"node 'bad_add' \(Add\): error: ONNX shape inference fails: .*Incompatible dimensions",
    )


# ---------------------------------------------------------------------------------------
# Dynamic and missing dimensions, --input-shape
# ---------------------------------------------------------------------------------------


def test_dynamic_dimension_suggests_input_shape(tmp_path: Path) -> None:
    p = save(relu_model(("batch", 3)), tmp_path)
    expect_error(
        p,
        pattern=r"m\.onnx: input 'x': error: dim 0 is dynamic \('batch'\) in shape \[batch, 3\]: static shapes only; "
        r"give it with --input-shape, e.g. --input-shape x=1x3 \(or import it as \? with --dynamic-dims\)$",
    )
    code, out, err = run_import(str(p), "--input-shape", "x=4x3")
    assert code == 0, err
    assert "tensor<4x3xf32>" in out


def test_unknown_dimension_and_missing_shape(tmp_path: Path) -> None:
    m = relu_model((2, 3))
    m.graph.input[0].type.tensor_type.shape.dim[1].Clear()
    expect_error(save(m, tmp_path), pattern=r"input 'x': error: dim 1 is dynamic \(unknown\)")
    m.graph.input[0].type.tensor_type.ClearField("shape")
    expect_error(
        save(m, tmp_path), pattern=r"input 'x': error: the model gives no shape for it; give it with --input-shape"
    )
    code, out, _ = run_import(str(save(m, tmp_path)), "--input-shape", "x=5,6")
    assert code == 0 and "tensor<5x6xf32>" in out


@pytest.mark.parametrize(
    ("spec", "pattern"),
    [
        ("x=2x4", r"m\.onnx: input 'x': error: --input-shape gives dim 1 = 4, but the model fixes it to 3"),
        ("x=2x3x1", r"--input-shape gives rank 3 \(\[2, 3, 1\]\), the model says rank 2"),
        ("z=1x3", r"m\.onnx: error: --input-shape names 'z', which is not a graph input \(inputs: 'x'\)"),
        ("x=2xfoo", r"^ge-import: error: --input-shape 'x=2xfoo': dim 'foo' is not a non-negative integer"),
        ("x", r"^ge-import: error: --input-shape 'x' is not NAME=DIMS"),
    ],
    ids=["conflict", "rank", "unknown-name", "bad-dim", "no-equals"],
)
def test_bad_input_shape(tmp_path: Path, spec: str, pattern: str) -> None:
    expect_error(save(relu_model(("N", 3)), tmp_path), "--input-shape", spec, pattern=pattern)


def test_input_shape_0d_and_library_call() -> None:
    m = relu_model(("N",))
    m.graph.input[0].type.tensor_type.shape.ClearField("dim")
    del m.graph.input[0].type.tensor_type.shape.dim[:]
    mod = import_model(m, "m.onnx", {"x": ()})
    assert "tensor<f32>" in str(mod)


# ---------------------------------------------------------------------------------------
# Bad files
# ---------------------------------------------------------------------------------------


BAD_BYTES = {
    "empty": (b"", r"the file is empty, not an ONNX model"),
    "text": (
        b"ge.graph @main {\n  ge.NetOutput\n}\n",
        r"not an ONNX model, or a truncated one: the protobuf does not decode",
    ),
    "random": (
        bytes(np.random.default_rng(0).integers(0, 256, 300, dtype=np.uint8)),
        r"not an ONNX model, or a truncated one",
    ),
    "zeros": (b"\0" * 16, r"not an ONNX model, or a truncated one"),
    "a-tensor-proto": (
        numpy_helper.from_array(np.ones(3, np.float32), "t").SerializeToString(),
        r"not an ONNX model, or a truncated one",
    ),
    "a-graph-proto": (
        relu_model().graph.SerializeToString(),
        r"not an ONNX model: the file decodes, but has no ir_version, graph, opset_import",
    ),
    "half-a-model": (relu_model().SerializeToString()[:40], r"not an ONNX model, or a truncated one"),
}


@pytest.mark.parametrize("kind", list(BAD_BYTES))
def test_bad_file(tmp_path: Path, kind: str) -> None:
    data, pattern = BAD_BYTES[kind]
    p = tmp_path / "bad.onnx"
    p.write_bytes(data)
    expect_error(p, pattern=r"bad\.onnx: error: " + pattern)


def test_every_truncation_of_a_model_is_one_error_line(tmp_path: Path) -> None:
    """Cut a small real model (two nodes, a weight) at every byte: each prefix either
    imports or is one OnnxImportError, never another exception."""
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    m = model(
        [h.make_node("MatMul", ["x", "w"], ["m"], name="mm"), h.make_node("Relu", ["m"], ["y"], name="r")],
        [("x", T.FLOAT, [4, 2])],
        [("y", T.FLOAT, None)],
        {"w": w},
    )
    data = m.SerializeToString()
    p = tmp_path / "cut.onnx"
    errors = 0
    for n in range(len(data)):
        p.write_bytes(data[:n])
        try:
            load_model(str(p))
        except OnnxImportError as e:
            assert "\n" not in str(e) and str(e).startswith(str(p)), str(e)
            errors += 1
    assert errors == len(data)  # every proper prefix lacks something the importer needs
    load_model(str(save(m, tmp_path, "full.onnx")))  # and the whole model imports


def test_missing_file(tmp_path: Path) -> None:
    expect_error(tmp_path / "nope.onnx", pattern=r"nope\.onnx: error: cannot read the model: No such file or directory")


# ---------------------------------------------------------------------------------------
# External data
# ---------------------------------------------------------------------------------------


def external_model(tmp_path: Path) -> Path:
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    m = model(
        [h.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [("x", T.FLOAT, [2, 3])],
        [("y", T.FLOAT, None)],
        {"w": w},
    )
    p = tmp_path / "ext.onnx"
    onnx.save(
        m, str(p), save_as_external_data=True, all_tensors_to_one_file=True, location="ext.weights", size_threshold=0
    )
    return p


def test_external_data_loads(tmp_path: Path) -> None:
    p = external_model(tmp_path)
    code, out, err = run_import(str(p))
    assert code == 0, err
    assert "ge.MatMul" in out and "tensor<3x4xf32>" in out


def test_missing_external_data(tmp_path: Path) -> None:
    p = external_model(tmp_path)
    os.remove(tmp_path / "ext.weights")
    expect_error(
        p, pattern=r"ext\.onnx: initializer 'w': error: external data file 'ext\.weights' is missing \(looked in "
    )


def test_truncated_external_data(tmp_path: Path) -> None:
    p = external_model(tmp_path)
    wf = tmp_path / "ext.weights"
    wf.write_bytes(wf.read_bytes()[:20])
    expect_error(
        p,
        pattern=r"initializer 'w': error: external data file 'ext\.weights' (holds 20 bytes|gives 20 bytes, a float tensor of shape \[3, 4\] has 48)",
    )


def test_external_data_outside_the_model_folder(tmp_path: Path) -> None:
    p = external_model(tmp_path)
    m = onnx.load(str(p), load_external_data=False)
    for e in m.graph.initializer[0].external_data:
        if e.key == "location":
            e.value = "../elsewhere.bin"
    onnx.save(m, str(p))
    expect_error(
        p,
        pattern=r"initializer 'w': error: (external data location '\.\./elsewhere\.bin' is outside the model's folder|bad external data entry)",
    )


def test_import_model_refuses_unloaded_external_data(tmp_path: Path) -> None:
    m = onnx.load(str(external_model(tmp_path)), load_external_data=False)
    with pytest.raises(OnnxImportError, match=r"initializer 'w': error: its data is external and was not loaded"):
        import_model(m, "ext.onnx")


# ---------------------------------------------------------------------------------------
# Opsets
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("opset", [5, 6, 29])
def test_opset_outside_the_range(tmp_path: Path, opset: int) -> None:
    expect_error(
        save(relu_model(opset=opset), tmp_path),
        pattern=rf"m\.onnx: error: ai\.onnx opset {opset} is outside the supported range 7-28",
    )


@pytest.mark.parametrize("opset", [7, 10, 11, 21, 28])
def test_opset_range_ends_import(opset: int) -> None:
    import_model(relu_model(opset=opset), "m.onnx")


def test_no_ai_onnx_opset(tmp_path: Path) -> None:
    m = relu_model()
    del m.opset_import[:]
    m.opset_import.append(h.make_opsetid("ai.onnx.ml", 3))
    expect_error(save(m, tmp_path), pattern=r"m\.onnx: error: the model imports no ai\.onnx opset")


# ---------------------------------------------------------------------------------------
# The CLI as a process
# ---------------------------------------------------------------------------------------


def test_ge_import_process_error_and_help(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "ge-import"
    m = model(
        [h.make_node("Einsum", ["x"], ["y"], name="es", equation="ij->ji")],
        [("x", T.FLOAT, [2, 3])],
        [("y", T.FLOAT, None)],
    )
    p = subprocess.run([str(exe), str(save(m, tmp_path))], capture_output=True, text=True)
    assert p.returncode == 1 and p.stdout == ""
    assert len(p.stderr.splitlines()) == 1 and "node 'es' (Einsum): error:" in p.stderr
    hp = subprocess.run([str(exe), "--help"], capture_output=True, text=True)
    assert hp.returncode == 0
    for word in ("--input-shape", "-o OUT.mlir", "Supported ONNX ops:", "Conv,", "opsets 11 to 28"):
        assert word in hp.stdout, word


def test_output_file_and_load_model_or_text(tmp_path: Path) -> None:
    p = save(relu_model(), tmp_path)
    out = tmp_path / "m.mlir"
    code, stdout, err = run_import(str(p), "-o", str(out))
    assert code == 0 and stdout == "", err
    text = out.read_text()
    assert "ge.Relu" in text
    # the same module, read back as ge IR text, and straight from the model
    a = workflow.load_model_or_text(str(out))
    b = workflow.load_model_or_text(str(p))
    assert str(a) == str(b)
    a.verify()


@pytest.mark.parametrize(
    ("node", "pattern"),
    [
        (
            h.make_node("Relu", ["x"], ["y"], name="r", foo=1),
            r"node 'r' \(Relu\): error: the ONNX checker refuses it: Unrecognized attribute: foo for operator Relu$",
        ),
        (
            h.make_node("Flatten", ["x"], ["y"], name="f", axis="one"),
            r"node 'f' \(Flatten\): error: the ONNX checker refuses it: .*axis",
        ),
    ],
    ids=["unknown-attribute", "attribute-of-the-wrong-type"],
)
def test_checker_errors_are_located(tmp_path: Path, node, pattern: str) -> None:
    m = model([node], [("x", T.FLOAT, [2, 3])], [("y", T.FLOAT, None)])
    expect_error(save(m, tmp_path), pattern=pattern)


def test_load_model_or_text_errors(tmp_path: Path) -> None:
    from ge_tools.parse import UserError

    text = tmp_path / "g.mlir"
    text.write_text("ge.graph @main {\n  ge.NetOutput\n}\n")
    with pytest.raises(UserError, match=r"g\.mlir: error: --input-shape applies to an ONNX model \(\.onnx\) only"):
        workflow.load_model_or_text(str(text), input_shapes={"x": (1,)})
    p = save(relu_model(("N", 3)), tmp_path)
    with pytest.raises(OnnxImportError, match=r"input 'x': error: dim 0 is dynamic"):
        workflow.load_model_or_text(str(p))
    assert "tensor<7x3xf32>" in str(workflow.load_model_or_text(str(p), input_shapes={"x": (7, 3)}))


def test_name_that_is_not_utf8(tmp_path: Path) -> None:
    """protobuf hands a non-UTF-8 string over as bytes: a corrupt file, said in one line."""
    m = model([h.make_node("Relu", ["x"], ["y"], name="QQQQ")], [("x", T.FLOAT, [2])], [("y", T.FLOAT, None)])
    p = tmp_path / "bad_name.onnx"
    p.write_bytes(m.SerializeToString().replace(b"QQQQ", b"\xff\xfeQQ"))
    expect_error(p, pattern=r"bad_name\.onnx: error: the name b'\\xff\\xfeQQ' is not valid UTF-8: the file is corrupt")


def test_mutated_models_never_crash(tmp_path: Path) -> None:
    """A deterministic fuzzer: 1 to 3 random bytes changed in small models (the zoo's MLP
    and embedding bag, a Conv/Concat model); each mutant imports or is one OnnxImportError."""
    import random

    sys.path.insert(0, str(ROOT / "examples" / "zoo"))
    import gen_zoo

    sources = [
        gen_zoo.model_bytes("mlp_classifier"),
        gen_zoo.model_bytes("embedding_bag"),
        gen_zoo.model_bytes("unet_block"),
    ]
    rng = random.Random(11)
    p = tmp_path / "mutant.onnx"
    outcomes = {"ok": 0, "error": 0}
    for i in range(450):
        b = bytearray(sources[i % len(sources)])
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        p.write_bytes(bytes(b))
        try:
            load_model(str(p))
            outcomes["ok"] += 1
        except OnnxImportError as e:
            assert "\n" not in str(e), str(e)
            outcomes["error"] += 1
    assert outcomes["error"] > 20 and outcomes["ok"] > 20  # both kinds of mutant were made
