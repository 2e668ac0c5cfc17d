"""The model zoo: small ONNX models built with onnx.helper and seeded weights.

    python examples/zoo/gen_zoo.py [-o DIR] [--check]

writes each model as DIR/<name>.onnx (default: this folder); the same script always
writes the same bytes (numpy's default_rng(seed) weights, fixed ir_version, opset and
producer, no timestamps). `--check` writes nothing and exits 1 when a file in DIR differs
from what the script makes (the tests run it so the committed copies stay current).
Nothing is downloaded: the zoo is generated.

Generated:

| model | what it is | ops |
|---|---|---|
| mlp_classifier | 2x1x8x8 images -> PyTorch's exported flatten (`x.view(x.size(0), -1)`: Shape -> Gather -> Unsqueeze -> Concat -> Reshape, folded by GE's DimensionComputePass / ConstantFoldingPass) -> 3 Linear (Gemm, transB) with Relu and a Dropout (removed by DropOutPass) -> 10 logits | Shape, Gather, Unsqueeze, Concat, Reshape, Gemm, Relu, Dropout |
| unet_block | a UNet-style block at one resolution: two Conv+Relu encoder stages, the skip Concat of both on channels, a Conv+Relu decoder, a 1x1 Conv head, a residual Add of the input, a Relu (the Add and the Relu fuse) | Conv, Relu, Concat, Add, Relu |
| embedding_bag | token ids -> Gather from an embedding table -> ReduceMean over the sequence -> 2 Linear (Gemm) | Gather, ReduceMean, Gemm, Relu |
| resnet_basic_block | ResNet's basic block: Conv3x3-BatchNorm-Relu, Conv3x3-BatchNorm, residual Add, Relu | Conv, BatchNormalization, Relu, Add |
| mobilenetv2_inverted_residual | 1x1 expand Conv-BatchNorm-Relu6, 3x3 depthwise Conv (group = channels)-BatchNorm-Relu6, 1x1 project Conv-BatchNorm, residual Add | Conv, BatchNormalization, Clip, Add |
| transformer_encoder_layer | a post-LN BERT layer: Q/K/V MatMuls (+bias), heads split by Reshape+Transpose, scaled scores, Softmax, context MatMul, output projection, residual Add + LayerNormalization, exact-GELU MLP (Erf), residual Add + LayerNormalization (`transformer_encoder_layer(hidden, heads, seq)` builds it at any size: bench/bench_import.py compiles BERT-base's) | MatMul (3-D and 4-D), Add, Reshape, Transpose, Div, Softmax, LayerNormalization, Mul, Erf |

| mlp_dynamic_batch | x [N, 16] with a named batch 'N' (`DYNAMIC_MODELS`: import with `--dynamic-dims`, the batch is `?`) -> MatMul + Add + Relu -> MatMul + Add -> Softmax: y [N, 10] | MatMul, Add, Relu, Softmax |

The last three of `MODELS` use ops of the ge dialect's issue-11 sections: BatchNormalization
(BatchNorm), Clip as Relu6 (ClipByValue), Softmax (SoftmaxV2), LayerNormalization (LayerNorm),
Erf (Erf), MatMul above rank 2 (BatchMatMulV2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

HERE = Path(__file__).resolve().parent
OPSET = 17
IR_VERSION = 8


def _model(name: str, nodes, inputs, outputs, inits: dict[str, np.ndarray]) -> onnx.ModelProto:
    g = h.make_graph(
        nodes,
        name,
        inputs,
        outputs,
        initializer=[numpy_helper.from_array(a, n) for n, a in inits.items()],
    )
    m = h.make_model(
        g, opset_imports=[h.make_opsetid("", OPSET)], producer_name="ge-xdsl gen_zoo", producer_version="1"
    )
    m.ir_version = IR_VERSION
    onnx.checker.check_model(m, full_check=True)
    return m


def _linear(rng: np.random.Generator, n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray]:
    """PyTorch's nn.Linear init (uniform in +-1/sqrt(n_in)): weight [out, in], bias [out]."""
    bound = 1.0 / np.sqrt(n_in)
    w = rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32)
    b = rng.uniform(-bound, bound, (n_out,)).astype(np.float32)
    return w, b


def _conv(rng: np.random.Generator, c_out: int, c_in: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    bound = 1.0 / np.sqrt(c_in * k * k)
    w = rng.uniform(-bound, bound, (c_out, c_in, k, k)).astype(np.float32)
    b = rng.uniform(-bound, bound, (c_out,)).astype(np.float32)
    return w, b


def _const(name: str, arr: np.ndarray) -> onnx.NodeProto:
    return h.make_node("Constant", [], [name], name=name, value=numpy_helper.from_array(arr, name))


def mlp_classifier() -> onnx.ModelProto:
    rng = np.random.default_rng(11)
    sizes = [64, 48, 32, 10]
    inits: dict[str, np.ndarray] = {}
    # torch.onnx.export of `x.view(x.size(0), -1)`: the batch dim read from the shape
    nodes = [
        h.make_node("Shape", ["image"], ["/Shape_output_0"], name="/Shape"),
        _const("/Constant_output_0", np.array(0, dtype=np.int64)),
        h.make_node("Gather", ["/Shape_output_0", "/Constant_output_0"], ["/Gather_output_0"], name="/Gather", axis=0),
        _const("/Constant_1_output_0", np.array([0], dtype=np.int64)),
        h.make_node(
            "Unsqueeze", ["/Gather_output_0", "/Constant_1_output_0"], ["/Unsqueeze_output_0"], name="/Unsqueeze"
        ),
        _const("/Constant_2_output_0", np.array([-1], dtype=np.int64)),
        h.make_node(
            "Concat", ["/Unsqueeze_output_0", "/Constant_2_output_0"], ["/Concat_output_0"], name="/Concat", axis=0
        ),
        h.make_node("Reshape", ["image", "/Concat_output_0"], ["flat"], name="/Reshape"),
    ]
    x = "flat"
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        w, bias = _linear(rng, a, b)
        inits[f"fc{i}.weight"], inits[f"fc{i}.bias"] = w, bias
        y = f"fc{i}_out" if i < len(sizes) - 2 else "logits"
        nodes.append(h.make_node("Gemm", [x, f"fc{i}.weight", f"fc{i}.bias"], [y], name=f"/fc{i}/Gemm", transB=1))
        if i < len(sizes) - 2:
            nodes.append(h.make_node("Relu", [y], [f"act{i}"], name=f"/act{i}/Relu"))
            x = f"act{i}"
        if i == 0:  # nn.Dropout(0.1) exported in inference: y and its (unused) mask
            inits["drop.ratio"] = np.array(0.1, dtype=np.float32)
            nodes.append(h.make_node("Dropout", [x, "drop.ratio"], ["drop0", "drop0_mask"], name="/drop0/Dropout"))
            x = "drop0"
    return _model(
        "mlp_classifier",
        nodes,
        [h.make_tensor_value_info("image", T.FLOAT, [2, 1, 8, 8])],
        [h.make_tensor_value_info("logits", T.FLOAT, [2, 10])],
        inits,
    )


def unet_block() -> onnx.ModelProto:
    rng = np.random.default_rng(12)
    inits: dict[str, np.ndarray] = {}

    def conv(name: str, x: str, c_out: int, c_in: int, k: int, relu: bool, y: str) -> list[onnx.NodeProto]:
        w, b = _conv(rng, c_out, c_in, k)
        inits[f"{name}.weight"], inits[f"{name}.bias"] = w, b
        p = k // 2
        out = f"{name}_conv" if relu else y
        ns = [
            h.make_node(
                "Conv",
                [x, f"{name}.weight", f"{name}.bias"],
                [out],
                name=f"/{name}/Conv",
                kernel_shape=[k, k],
                pads=[p, p, p, p],
            )
        ]
        if relu:
            ns.append(h.make_node("Relu", [out], [y], name=f"/{name}/Relu"))
        return ns

    nodes = [
        *conv("enc1", "x", 8, 4, 3, True, "e1"),
        *conv("enc2", "e1", 8, 8, 3, True, "e2"),
        h.make_node("Concat", ["e2", "e1"], ["skip"], name="/skip/Concat", axis=1),
        *conv("dec", "skip", 8, 16, 3, True, "d"),
        *conv("head", "d", 4, 8, 1, False, "h"),
        h.make_node("Add", ["h", "x"], ["r"], name="/residual/Add"),
        h.make_node("Relu", ["r"], ["y"], name="/out/Relu"),  # fuses with the Add (one kernel)
    ]
    return _model(
        "unet_block",
        nodes,
        [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 16, 16])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 16, 16])],
        inits,
    )


def embedding_bag() -> onnx.ModelProto:
    rng = np.random.default_rng(13)
    vocab, dim, hidden, classes = 50, 16, 12, 4
    table = rng.standard_normal((vocab, dim)).astype(np.float32)
    w0, b0 = _linear(rng, dim, hidden)
    w1, b1 = _linear(rng, hidden, classes)
    nodes = [
        h.make_node("Gather", ["embedding.weight", "ids"], ["emb"], name="/embedding/Gather", axis=0),
        h.make_node("ReduceMean", ["emb"], ["pooled"], name="/pool/ReduceMean", axes=[1], keepdims=0),
        h.make_node("Gemm", ["pooled", "fc0.weight", "fc0.bias"], ["h0"], name="/fc0/Gemm", transB=1),
        h.make_node("Relu", ["h0"], ["a0"], name="/act0/Relu"),
        h.make_node("Gemm", ["a0", "fc1.weight", "fc1.bias"], ["scores"], name="/fc1/Gemm", transB=1),
    ]
    return _model(
        "embedding_bag",
        nodes,
        [h.make_tensor_value_info("ids", T.INT64, [2, 6])],
        [h.make_tensor_value_info("scores", T.FLOAT, [2, classes])],
        {"embedding.weight": table, "fc0.weight": w0, "fc0.bias": b0, "fc1.weight": w1, "fc1.bias": b1},
    )


def _batchnorm(rng: np.random.Generator, inits: dict[str, np.ndarray], name: str, c: int) -> list[str]:
    """nn.BatchNorm2d(c) in eval mode with trained-looking statistics."""
    inits[f"{name}.weight"] = rng.uniform(0.5, 1.5, c).astype(np.float32)
    inits[f"{name}.bias"] = rng.uniform(-0.2, 0.2, c).astype(np.float32)
    inits[f"{name}.running_mean"] = rng.uniform(-0.3, 0.3, c).astype(np.float32)
    inits[f"{name}.running_var"] = rng.uniform(0.5, 2.0, c).astype(np.float32)
    return [f"{name}.{p}" for p in ("weight", "bias", "running_mean", "running_var")]


def _conv_bn(
    rng: np.random.Generator,
    inits: dict[str, np.ndarray],
    name: str,
    x: str,
    c_out: int,
    c_in: int,
    k: int,
    group: int = 1,
) -> tuple[list[onnx.NodeProto], str]:
    """Conv (no bias, as before a BatchNorm) then BatchNormalization: the output's name."""
    bound = 1.0 / np.sqrt(c_in // group * k * k)
    inits[f"{name}.conv.weight"] = rng.uniform(-bound, bound, (c_out, c_in // group, k, k)).astype(np.float32)
    p = k // 2
    conv = h.make_node(
        "Conv", [x, f"{name}.conv.weight"], [f"{name}_conv"], name=f"/{name}/conv/Conv",
        kernel_shape=[k, k], pads=[p, p, p, p], group=group,
    )  # fmt: skip
    bn = h.make_node(
        "BatchNormalization", [f"{name}_conv", *_batchnorm(rng, inits, f"{name}.bn", c_out)], [f"{name}_bn"],
        name=f"/{name}/bn/BatchNormalization", epsilon=1e-5,
    )  # fmt: skip
    return [conv, bn], f"{name}_bn"


def resnet_basic_block() -> onnx.ModelProto:
    rng = np.random.default_rng(14)
    inits: dict[str, np.ndarray] = {}
    c = 8
    a, ya = _conv_bn(rng, inits, "conv1", "x", c, c, 3)
    b, yb = _conv_bn(rng, inits, "conv2", "r1", c, c, 3)
    nodes = [
        *a,
        h.make_node("Relu", [ya], ["r1"], name="/relu1/Relu"),
        *b,
        h.make_node("Add", [yb, "x"], ["sum"], name="/residual/Add"),
        h.make_node("Relu", ["sum"], ["y"], name="/relu2/Relu"),
    ]
    return _model(
        "resnet_basic_block",
        nodes,
        [h.make_tensor_value_info("x", T.FLOAT, [1, c, 8, 8])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, c, 8, 8])],
        inits,
    )


def mobilenetv2_inverted_residual() -> onnx.ModelProto:
    rng = np.random.default_rng(15)
    inits: dict[str, np.ndarray] = {"relu6.min": np.array(0.0, np.float32), "relu6.max": np.array(6.0, np.float32)}
    c, t = 8, 4
    e, ye = _conv_bn(rng, inits, "expand", "x", c * t, c, 1)
    d, yd = _conv_bn(rng, inits, "depthwise", "a1", c * t, c * t, 3, group=c * t)
    p, yp = _conv_bn(rng, inits, "project", "a2", c, c * t, 1)
    nodes = [
        *e,
        h.make_node("Clip", [ye, "relu6.min", "relu6.max"], ["a1"], name="/expand/Clip"),
        *d,
        h.make_node("Clip", [yd, "relu6.min", "relu6.max"], ["a2"], name="/depthwise/Clip"),
        *p,
        h.make_node("Add", ["x", yp], ["y"], name="/residual/Add"),
    ]
    return _model(
        "mobilenetv2_inverted_residual",
        nodes,
        [h.make_tensor_value_info("x", T.FLOAT, [1, c, 8, 8])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, c, 8, 8])],
        inits,
    )


def transformer_encoder_layer(hidden: int = 16, heads: int = 2, seq: int = 8, batch: int = 1) -> onnx.ModelProto:
    """A post-LN BERT encoder layer (PyTorch's export pattern) at the given sizes; seeded."""
    rng = np.random.default_rng(16)
    inits: dict[str, np.ndarray] = {}
    dh, ffn = hidden // heads, 4 * hidden
    nodes: list[onnx.NodeProto] = []

    def linear(name: str, x: str, n_in: int, n_out: int, y: str) -> None:
        w, b = _linear(rng, n_in, n_out)
        inits[f"{name}.weight"], inits[f"{name}.bias"] = np.ascontiguousarray(w.T), b  # [in, out] for MatMul
        nodes.append(h.make_node("MatMul", [x, f"{name}.weight"], [f"{name}_mm"], name=f"/{name}/MatMul"))
        nodes.append(h.make_node("Add", [f"{name}_mm", f"{name}.bias"], [y], name=f"/{name}/Add"))

    def layernorm(name: str, x: str, y: str) -> None:
        inits[f"{name}.weight"] = rng.uniform(0.8, 1.2, hidden).astype(np.float32)
        inits[f"{name}.bias"] = rng.uniform(-0.1, 0.1, hidden).astype(np.float32)
        nodes.append(
            h.make_node(
                "LayerNormalization", [x, f"{name}.weight", f"{name}.bias"], [y], name=f"/{name}/LayerNormalization",
                axis=-1, epsilon=1e-12,
            )
        )  # fmt: skip

    inits["heads_shape"] = np.array([batch, seq, heads, dh], dtype=np.int64)
    inits["hidden_shape"] = np.array([batch, seq, hidden], dtype=np.int64)
    inits["scale"] = np.array(np.sqrt(dh), dtype=np.float32)
    for n in ("query", "key", "value"):
        linear(f"attn.{n}", "x", hidden, hidden, f"{n}_lin")
        nodes.append(h.make_node("Reshape", [f"{n}_lin", "heads_shape"], [f"{n}_heads"], name=f"/attn/{n}/Reshape"))
        perm = [0, 2, 3, 1] if n == "key" else [0, 2, 1, 3]
        nodes.append(h.make_node("Transpose", [f"{n}_heads"], [f"{n}_t"], name=f"/attn/{n}/Transpose", perm=perm))
    nodes += [
        h.make_node("MatMul", ["query_t", "key_t"], ["scores_raw"], name="/attn/scores/MatMul"),
        h.make_node("Div", ["scores_raw", "scale"], ["scores"], name="/attn/scores/Div"),
        h.make_node("Softmax", ["scores"], ["probs"], name="/attn/Softmax", axis=-1),
        h.make_node("MatMul", ["probs", "value_t"], ["context"], name="/attn/context/MatMul"),
        h.make_node("Transpose", ["context"], ["context_t"], name="/attn/context/Transpose", perm=[0, 2, 1, 3]),
        h.make_node("Reshape", ["context_t", "hidden_shape"], ["context_m"], name="/attn/context/Reshape"),
    ]
    linear("attn.output", "context_m", hidden, hidden, "attn_out")
    nodes.append(h.make_node("Add", ["attn_out", "x"], ["res1"], name="/attn/residual/Add"))
    layernorm("attn.norm", "res1", "h1")
    # the MLP with exact GELU: x * 0.5 * (1 + erf(x / sqrt(2)))
    linear("mlp.fc1", "h1", hidden, ffn, "f1")
    inits["sqrt2"] = np.array(np.sqrt(2.0), dtype=np.float32)
    inits["one"] = np.array(1.0, dtype=np.float32)
    inits["half"] = np.array(0.5, dtype=np.float32)
    nodes += [
        h.make_node("Div", ["f1", "sqrt2"], ["g0"], name="/mlp/gelu/Div"),
        h.make_node("Erf", ["g0"], ["g1"], name="/mlp/gelu/Erf"),
        h.make_node("Add", ["g1", "one"], ["g2"], name="/mlp/gelu/Add"),
        h.make_node("Mul", ["f1", "g2"], ["g3"], name="/mlp/gelu/Mul"),
        h.make_node("Mul", ["g3", "half"], ["gelu"], name="/mlp/gelu/Mul_1"),
    ]
    linear("mlp.fc2", "gelu", ffn, hidden, "f2")
    nodes.append(h.make_node("Add", ["f2", "h1"], ["res2"], name="/mlp/residual/Add"))
    layernorm("mlp.norm", "res2", "y")
    return _model(
        "transformer_encoder_layer",
        nodes,
        [h.make_tensor_value_info("x", T.FLOAT, [batch, seq, hidden])],
        [h.make_tensor_value_info("y", T.FLOAT, [batch, seq, hidden])],
        inits,
    )


def mlp_dynamic_batch() -> onnx.ModelProto:
    """x [N, 16] with a named batch dim 'N' -> MatMul + Add + Relu -> MatMul + Add ->
    Softmax over the classes: y [N, 10]. Imported with --dynamic-dims the batch is `?`."""
    rng = np.random.default_rng(23)
    inits: dict[str, np.ndarray] = {}
    nodes = []
    x = "x"
    for k, (n_in, n_out) in enumerate([(16, 32), (32, 10)]):
        w, b = _linear(rng, n_in, n_out)
        inits[f"w{k}"], inits[f"b{k}"] = np.ascontiguousarray(w.T), b  # MatMul takes [in, out]
        nodes += [
            h.make_node("MatMul", [x, f"w{k}"], [f"mm{k}"], name=f"matmul{k}"),
            h.make_node("Add", [f"mm{k}", f"b{k}"], [f"add{k}"], name=f"add{k}"),
        ]
        x = f"add{k}"
        if k == 0:
            nodes.append(h.make_node("Relu", [x], ["relu0"], name="relu0"))
            x = "relu0"
    nodes.append(h.make_node("Softmax", [x], ["y"], name="softmax", axis=-1))
    return _model(
        "mlp_dynamic_batch",
        nodes,
        [h.make_tensor_value_info("x", T.FLOAT, ["N", 16])],
        [h.make_tensor_value_info("y", T.FLOAT, ["N", 10])],
        inits,
    )


MODELS: dict[str, Callable[[], onnx.ModelProto]] = {
    "mlp_classifier": mlp_classifier,
    "unet_block": unet_block,
    "embedding_bag": embedding_bag,
    "resnet_basic_block": resnet_basic_block,
    "mobilenetv2_inverted_residual": mobilenetv2_inverted_residual,
    "transformer_encoder_layer": transformer_encoder_layer,
}

# Models with a dynamic (named) dim: imported with --dynamic-dims, run through the
# reference at any batch; ge-compile needs the dynamic-shape partition for them (issue 16)
DYNAMIC_MODELS: dict[str, Callable[[], onnx.ModelProto]] = {
    "mlp_dynamic_batch": mlp_dynamic_batch,
}


def model_bytes(name: str) -> bytes:
    return {**MODELS, **DYNAMIC_MODELS}[name]().SerializeToString(deterministic=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gen_zoo.py", description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--output-dir", default=str(HERE), help="where to write <name>.onnx (default: this folder)")
    p.add_argument("--check", action="store_true", help="compare with the files in the folder instead of writing")
    args = p.parse_args(argv)
    out = Path(args.output_dir)
    stale = []
    for name in [*MODELS, *DYNAMIC_MODELS]:
        data = model_bytes(name)
        path = out / f"{name}.onnx"
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(path.name)
            continue
        out.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"{path}: {len(data)} bytes")
    if stale:
        print(f"gen_zoo.py: out of date: {', '.join(stale)} (run python examples/zoo/gen_zoo.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
