"""The real-network suite: whole torchvision and transformers networks, exported as they come.

    python -m ge_tools.networks [NAME ...] [-o DIR] [--exporter torchscript|dynamo] [--list]
    python -m ge_tools.networks --torch-compile [--accept-undecidable] [NAME ...]

Each network is built from its library's own class with random weights (seeded; no weights
are ever downloaded), small inputs, and exported to ONNX by torch's exporters exactly as a
user would: `torch.onnx.export(..., dynamo=False)` (the TorchScript exporter, opset 17) or
`dynamo=True` (torch's default exporter, its own opset). Nothing is folded or simplified
afterwards. `ge-run DIR/NAME.onnx` then imports, compiles, simulates and compares each with
the reference interpreter and onnxruntime (tests/models/test_real_networks.py does this for
every network; bench/bench_models.py measures the phases).

torch, torchvision and transformers come with the project's `models` extra
(`pip install -e '.[models]'`); this module imports them only when a network is built.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Network:
    name: str
    family: str  # "torchvision", "transformers" or "torch.nn"
    build: Callable[[], Any]  # the module, in eval mode, random weights
    inputs: Callable[[], tuple[Any, ...]]  # example inputs (seeded)
    input_names: tuple[str, ...]
    exporter: str  # the exporter this network is exported with by default


def _seed() -> None:
    import torch

    torch.manual_seed(0)


def _image(n: int = 64) -> Callable[[], tuple[Any, ...]]:
    def make() -> tuple[Any, ...]:
        import torch

        g = torch.Generator().manual_seed(1)
        return (torch.randn(1, 3, n, n, generator=g),)

    return make


def _tokens(vocab: int, length: int = 8) -> Callable[[], tuple[Any, ...]]:
    def make() -> tuple[Any, ...]:
        import torch

        g = torch.Generator().manual_seed(1)
        return (torch.randint(0, vocab, (1, length), generator=g),)

    return make


def _torchvision(name: str, **kwargs: Any) -> Callable[[], Any]:
    def build() -> Any:
        import torchvision

        _seed()
        return getattr(torchvision.models, name)(weights=None, **kwargs).eval()

    return build


def _vit() -> Any:
    from torchvision.models.vision_transformer import VisionTransformer

    _seed()
    # torchvision's own ViT class at a small configuration (vit_b_16 is this class at 224/16/12/768)
    return VisionTransformer(
        image_size=32, patch_size=8, num_layers=2, num_heads=2, hidden_dim=64, mlp_dim=128, num_classes=10
    ).eval()


_VOCAB = 128


def _hidden_states(model: Any) -> Any:
    """`model(input_ids=...).last_hidden_state` as a module of one tensor argument: how a user
    exports a transformers model (transformers 5's forward takes no positional `use_cache`,
    which torch's TorchScript exporter passes when it binds the traced arguments)."""
    import torch

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any) -> Any:
            return self.model(input_ids=input_ids).last_hidden_state

    return LastHiddenState().eval()


def _bert() -> Any:
    from transformers import BertConfig, BertModel

    _seed()
    cfg = BertConfig(
        vocab_size=_VOCAB,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=32,
    )
    return _hidden_states(BertModel(cfg))


def _distilbert() -> Any:
    from transformers import DistilBertConfig, DistilBertModel

    _seed()
    cfg = DistilBertConfig(vocab_size=_VOCAB, dim=32, n_layers=2, n_heads=2, hidden_dim=64, max_position_embeddings=32)
    return _hidden_states(DistilBertModel(cfg))


def _t5_encoder() -> Any:
    from transformers import T5Config, T5EncoderModel

    _seed()
    cfg = T5Config(vocab_size=_VOCAB, d_model=32, d_kv=16, d_ff=64, num_layers=2, num_heads=2)
    return _hidden_states(T5EncoderModel(cfg))


def _gpt2() -> Any:
    from transformers import GPT2Config, GPT2Model

    _seed()
    cfg = GPT2Config(vocab_size=_VOCAB, n_positions=32, n_embd=32, n_layer=2, n_head=2, bos_token_id=0, eos_token_id=0)
    return _hidden_states(GPT2Model(cfg))


def _rnn(kind: str) -> Callable[[], Any]:
    def build() -> Any:
        import torch

        class Recurrent(torch.nn.Module):
            """A sequence classifier: a 2-layer recurrent net and a linear head on its last step."""

            def __init__(self) -> None:
                super().__init__()
                cls = torch.nn.LSTM if kind == "lstm" else torch.nn.GRU
                self.rnn = cls(16, 24, num_layers=2, batch_first=True, bidirectional=kind == "gru")
                self.head = torch.nn.Linear(24 * (2 if kind == "gru" else 1), 5)

            def forward(self, x: Any) -> Any:
                y, _ = self.rnn(x)
                return self.head(y[:, -1])

        _seed()
        return Recurrent().eval()

    return build


def _sequence() -> tuple[Any, ...]:
    import torch

    g = torch.Generator().manual_seed(1)
    return (torch.randn(2, 6, 16, generator=g),)


def _class(name: str, **kwargs: Any) -> Network:
    return Network(name, "torchvision", _torchvision(name, **kwargs), _image(), ("image",), "torchscript")


def _text(name: str, build: Callable[[], Any], exporter: str = "torchscript") -> Network:
    return Network(name, "transformers", build, _tokens(_VOCAB), ("input_ids",), exporter)


NETWORKS: dict[str, Network] = {
    n.name: n
    for n in [
        _class("resnet18"),
        _class("resnet50"),
        _class("mobilenet_v2"),
        _class("mobilenet_v3_small"),
        _class("efficientnet_b0"),
        _class("densenet121"),
        _class("regnet_y_400mf"),
        _class("convnext_tiny"),
        _class("googlenet", aux_logits=False, init_weights=True),
        _class("shufflenet_v2_x0_5"),
        _class("squeezenet1_1"),
        Network("vit", "torchvision", _vit, _image(32), ("image",), "torchscript"),
        _text("bert", _bert),
        _text("distilbert", _distilbert),
        _text("t5_encoder", _t5_encoder),
        # the TorchScript exporter cannot export GPT-2's attention (transformers 5): torch's default one
        _text("gpt2", _gpt2, exporter="dynamo"),
        Network("lstm", "torch.nn", _rnn("lstm"), _sequence, ("x",), "torchscript"),
        Network("gru", "torch.nn", _rnn("gru"), _sequence, ("x",), "torchscript"),
    ]
}

EXPORTERS = ("torchscript", "dynamo")
TORCHSCRIPT_OPSET = 17


def export(name: str, path: str, exporter: str | None = None) -> str:
    """Export network `name` to `path` (.onnx) with `exporter` (default: the network's)."""
    import warnings

    import torch

    net = NETWORKS[name]
    exporter = exporter or net.exporter
    model = net.build()
    args = net.inputs()
    # not under torch.no_grad(): as a user calls it (nn.MultiheadAttention's inference fast
    # path, taken without grad, is an op the TorchScript exporter cannot export)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if exporter == "torchscript":
            torch.onnx.export(
                model,
                args,
                path,
                dynamo=False,
                opset_version=TORCHSCRIPT_OPSET,
                input_names=list(net.input_names),
            )
        else:
            prog = torch.onnx.export(model, args, dynamo=True, input_names=list(net.input_names), verbose=False)
            assert prog is not None
            prog.save(path)
    return path


def torch_compile(name: str, accept_undecidable: bool = False) -> str:
    """Run network `name` through `torch.compile(backend="ge_xdsl")` with `check` (every
    output compared with eager at ge-run's tolerance; undecidable elements accepted
    unjudged with `accept_undecidable`, as ge-run's --accept-undecidable); one line: what
    it gave."""
    import torch

    from ge_tools.torch_backend import ge_xdsl

    net = NETWORKS[name]
    torch._dynamo.reset()
    model = net.build()
    stats: dict[str, Any] = {}
    # stats: a dict the backend fills
    options: dict[str, Any] = {"check": True, "accept_undecidable": accept_undecidable, "stats": stats}
    fast = torch.compile(model, backend=ge_xdsl, options=options)
    with torch.no_grad():
        fast(*net.inputs())
    tasks = sum(int(g.get("tasks", 0)) for g in stats.get("graphs", []))
    if not stats.get("compiles"):
        raise RuntimeError("not compiled: Dynamo captured no graph (it ran the model eagerly)")
    unjudged = sum(int(g.get("unbounded_elements", 0)) for g in stats.get("graphs", []))
    accepted = f", {unjudged} undecidable elements accepted unjudged" if unjudged else ""
    return f"{name}: matches eager ({stats.get('compiles', 0)} compiled subgraph(s), {tasks} tasks{accepted})"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m ge_tools.networks",
        description="Export whole networks with random weights to ONNX, as torch's exporters write them.",
    )
    p.add_argument("names", nargs="*", metavar="NAME", help="networks to export (default: all)")
    p.add_argument("-o", "--output-dir", default=".", help="where NAME.onnx is written (default: .)")
    p.add_argument("--exporter", choices=EXPORTERS, help="torch's exporter (default: each network's own)")
    p.add_argument("--list", action="store_true", help="list the networks and exit")
    p.add_argument(
        "--torch-compile",
        action="store_true",
        help='instead of exporting, run each network through torch.compile(backend="ge_xdsl") with check '
        "(compared with eager); one line per network, exit 1 when one fails",
    )
    p.add_argument(
        "--accept-undecidable",
        action="store_true",
        help="with --torch-compile: accept output elements whose error bound is infinite unjudged "
        "(ge-run --accept-undecidable); without it they fail the check as inconclusive",
    )
    args = p.parse_args(argv)
    if args.list:
        for n in NETWORKS.values():
            print(f"{n.name:20} {n.family:13} inputs {', '.join(n.input_names)}; exporter {n.exporter}")
        return 0
    unknown = [n for n in args.names if n not in NETWORKS]
    if unknown:
        print(f"error: unknown network {unknown[0]!r} (see --list)", file=sys.stderr)
        return 1
    missing = [m for m in ("torch", "torchvision", "transformers") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"error: {', '.join(missing)} not installed: pip install -e '.[models]'", file=sys.stderr)
        return 1
    try:
        os.makedirs(args.output_dir, exist_ok=True)
    except OSError as e:
        print(f"error: {args.output_dir}: {e.strerror or e}", file=sys.stderr)
        return 1
    if args.torch_compile:
        return _torch_compile_all(args.names or list(NETWORKS), args.accept_undecidable)
    for name in args.names or list(NETWORKS):
        print(export(name, os.path.join(args.output_dir, name + ".onnx"), args.exporter))
    return 0


def _torch_compile_all(names: Sequence[str], accept_undecidable: bool) -> int:
    failed = 0
    for name in names:
        try:
            print(torch_compile(name, accept_undecidable), flush=True)
        except Exception as e:  # one line per network: Dynamo wraps the backend's error
            inner = getattr(e, "inner_exception", e)
            print(f"{name}: error: {str(inner).splitlines()[0] if str(inner) else type(inner).__name__}", flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
