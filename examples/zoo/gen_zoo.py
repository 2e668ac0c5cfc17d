"""The model zoo: small ONNX models built with onnx.helper and seeded weights.

    python examples/zoo/gen_zoo.py [-o DIR] [--check]

writes each model as DIR/<name>.onnx (default: this folder); the same script always
writes the same bytes (numpy's default_rng(seed) weights, fixed ir_version, opset and
producer, no timestamps). `--check` writes nothing and exits 1 when a file in DIR differs
from what the script makes (the tests run it so the committed copies stay current).
Nothing is downloaded: the zoo is generated.

Generated now (their ops all import today):

| model | what it is | ops |
|---|---|---|
| mlp_classifier | 1x8x8 images -> Flatten -> 3 Linear (Gemm, transB) with Relu -> 10 logits | Flatten, Gemm, Relu |
| unet_block | a UNet-style block at one resolution: two Conv+Relu encoder stages, the skip Concat of both on channels, a Conv+Relu decoder, a 1x1 Conv head, a residual Add of the input | Conv, Relu, Concat, Add |
| embedding_bag | token ids -> Gather from an embedding table -> ReduceMean over the sequence -> 2 Linear (Gemm) | Gather, ReduceMean, Gemm, Relu |

The other models of issue 11's zoo, for the next step (each needs the op(s) named, by the
GE op type GE's ONNX plugin makes):

| model | needs |
|---|---|
| resnet_basic_block (Conv-BatchNorm-Relu twice, residual Add) | BatchNormalization (GE BatchNorm) |
| mobilenetv2_inverted_residual (1x1 expand, 3x3 depthwise Conv, 1x1 project, residual) | BatchNormalization (BatchNorm); Clip as Relu6 (ClipByValue) and the depthwise Conv (groups) import |
| transformer_encoder_layer (LayerNorm, QKV MatMuls, softmax attention, GELU MLP, residuals) | MatMul above rank 2 (BatchMatMulV2); LayerNormalization (LayerNorm), Softmax (SoftmaxV2) and Erf / Gelu import |
| unet_block with its down and up sampling | MaxPool (MaxPool / MaxPoolV3), Resize (ResizeNearestNeighborV2) or ConvTranspose (Conv2DTranspose) |
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


def mlp_classifier() -> onnx.ModelProto:
    rng = np.random.default_rng(11)
    sizes = [64, 48, 32, 10]
    inits: dict[str, np.ndarray] = {}
    nodes = [h.make_node("Flatten", ["image"], ["flat"], name="/flatten/Flatten", axis=1)]
    x = "flat"
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        w, bias = _linear(rng, a, b)
        inits[f"fc{i}.weight"], inits[f"fc{i}.bias"] = w, bias
        y = f"fc{i}_out" if i < len(sizes) - 2 else "logits"
        nodes.append(h.make_node("Gemm", [x, f"fc{i}.weight", f"fc{i}.bias"], [y], name=f"/fc{i}/Gemm", transB=1))
        if i < len(sizes) - 2:
            nodes.append(h.make_node("Relu", [y], [f"act{i}"], name=f"/act{i}/Relu"))
            x = f"act{i}"
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
        h.make_node("Add", ["h", "x"], ["y"], name="/residual/Add"),
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


MODELS: dict[str, Callable[[], onnx.ModelProto]] = {
    "mlp_classifier": mlp_classifier,
    "unet_block": unet_block,
    "embedding_bag": embedding_bag,
}


def model_bytes(name: str) -> bytes:
    return MODELS[name]().SerializeToString(deterministic=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gen_zoo.py", description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--output-dir", default=str(HERE), help="where to write <name>.onnx (default: this folder)")
    p.add_argument("--check", action="store_true", help="compare with the files in the folder instead of writing")
    args = p.parse_args(argv)
    out = Path(args.output_dir)
    stale = []
    for name in MODELS:
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
