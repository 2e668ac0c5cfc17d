"""`--dump-onnx DIR` (ge-opt and ge-run): stages of the compile written as ONNX files that
Netron opens, as GE's DUMP_GE_GRAPH writes its graphs for Netron (# GE:
graph/utils/ge_ir_utils.cc OnnxUtils::ConvertGeModelToModelProto, EncodeNode: one
NodeProto per GE node, its type as op_type, its GE attributes as node attributes).

Stages written (one file per ge.graph, `STAGE.onnx`, or `STAGE.GRAPH.onnx` when the module
has several graphs):

* `00_input`: the graph as read (imported, for an ONNX model);
* `01_after_fusion`: after ge-autofuse;
* `02_compiled`: the last stage that still holds ge graphs (before ge-to-npu, or the
  pipeline's end): fused kernels as nodes (`AscBackend`, `FusedAscBackend`, with their
  fuse type, the original ops they hold and their AscGraph's node types), no-task nodes
  with `_no_task`, every node with its memory offsets once planned.

Mapping: a Data is a graph input, a Const / Constant an initializer (its bytes), the
NetOutput's operands the graph outputs; every other node a NodeProto. A node whose GE type
is an ONNX operator of the same meaning (`ONNX_SAME`: elementwise ops GE and ONNX define
alike, numpy broadcasting) and that carries no attribute is in ONNX's domain, so a model of
such nodes only runs on onnxruntime; every other node is in the domain `ge` (Netron shows
any domain) with its GE attributes as ONNX attributes (ints, floats, strings, lists of
them; anything else as its IR text). Every value gets its shape and dtype (value_info), a
dynamic dim a dim_param `?`. Beyond GE: GE's dump has no initializer bytes (it names the
weights); here the weights are kept, so the dumped input graph runs.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.desc import shape_of
from ge_dialect.dtypes import numpy_dtype
from ge_dialect.ge import AscBackend, ConstLike, Data, FusedAscBackend, GeNode, GraphOp, NetOutput
from ge_dialect.names import ge_type, node_name

if TYPE_CHECKING:
    import onnx

FUSION_PASS = "ge-autofuse"
TO_NPU_PASS = "ge-to-npu"
GE_DOMAIN = "ge"
OPSET = 17

# GE types that are ONNX operators of the same meaning when they carry no attribute
# (elementwise, numpy broadcasting in both).
ONNX_SAME = frozenset(
    {"Abs", "Add", "Ceil", "Cos", "Erf", "Exp", "Floor", "Identity", "Log", "Mul", "Neg", "Reciprocal", "Relu",
     "Sigmoid", "Sin", "Sqrt", "Sub", "Tanh"}
)  # fmt: skip

_TEXT_LIMIT = 4096


def _value_name(v: SSAValue) -> str:
    op = v.owner
    assert isinstance(op, Operation)
    name = node_name(op)
    return f"{name}:{v.index}" if len(op.results) > 1 else name  # type: ignore[attr-defined]


def _value_info(name: str, t: Attribute) -> onnx.ValueInfoProto:
    from onnx import TensorProto, helper

    if isinstance(t, TensorType | UnrankedTensorType):
        try:
            elem = helper.np_dtype_to_tensor_dtype(numpy_dtype(t.element_type))
        except (KeyError, ValueError, TypeError):
            elem = TensorProto.UNDEFINED
        shape = None if isinstance(t, UnrankedTensorType) else shape_of(t)
        if shape is None:
            return helper.make_tensor_value_info(name, elem, None)
        dims: list[int | str] = [d if d >= 0 else "?" for d in shape]
        return helper.make_tensor_value_info(name, elem, dims)
    return helper.make_empty_tensor_value_info(name)


def _attribute(name: str, a: Attribute) -> onnx.AttributeProto | None:
    from onnx import helper

    value: Any
    if isinstance(a, IntegerAttr):
        value = int(a.value.data)
        if isinstance(a.type, IntegerType) and a.type.width.data == 1:
            value = int(value != 0)  # a bool: 1 or 0 (xDSL reads i1 true as -1)
    elif isinstance(a, FloatAttr):
        value = float(a.value.data)
    elif isinstance(a, StringAttr):
        value = a.data
    elif isinstance(a, DenseArrayBase):
        value = [float(x) if isinstance(x, float) else int(x) for x in a.get_values()]
        if not value:
            return None
    elif isinstance(a, ArrayAttr) and a.data and all(isinstance(x, IntegerAttr) for x in a.data):
        value = [int(x.value.data) for x in a.data]  # type: ignore[attr-defined]
    elif isinstance(a, ArrayAttr) and a.data and all(isinstance(x, StringAttr) for x in a.data):
        value = [x.data for x in a.data]  # type: ignore[attr-defined]
    elif isinstance(a, ArrayAttr) and a.data and all(isinstance(x, FloatAttr) for x in a.data):
        value = [float(x.value.data) for x in a.data]  # type: ignore[attr-defined]
    else:
        text = str(a)
        value = text if len(text) <= _TEXT_LIMIT else text[: _TEXT_LIMIT - 1] + "\u2026"
    return helper.make_attribute(name, value)


def _attributes(op: Operation) -> list[onnx.AttributeProto]:
    out = []
    for name, a in sorted({**op.properties, **op.attributes}.items()):
        if isinstance(a, DenseIntOrFPElementsAttr):
            continue
        p = _attribute(name, a)
        if p is not None:
            out.append(p)
    return out


def _kernel_attributes(op: AscBackend | FusedAscBackend) -> list[onnx.AttributeProto]:
    """The kernel's own attributes, and what it holds: its AscGraph's node types (an
    AscBackend) or its AscBackends (a FusedAscBackend)."""
    from onnx import helper

    out = _attributes(op)
    if isinstance(op, AscBackend):
        inner = [n.asc_type for n in asc_graph_of(op).body.block.ops if isinstance(n, ag.AscNode)]
        out.append(helper.make_attribute("asc_graph_nodes", inner or ["(empty)"]))
    else:
        inner = [node_name(n) for n in op.body.block.ops if isinstance(n, AscBackend | FusedAscBackend)]
        out.append(helper.make_attribute("asc_backends", inner or ["(none)"]))
    return out


def graph_to_onnx(g: GraphOp, title: str) -> onnx.ModelProto:
    """One ge.graph as an ONNX model (module doc)."""
    from onnx import helper, numpy_helper

    from runtime.reference import dense_value

    inputs, outputs, inits, nodes, infos = [], [], [], [], []
    domains = {""}
    for op in g.body.block.ops:
        if not isinstance(op, GeNode):
            continue
        name = node_name(op)
        if isinstance(op, Data):
            inputs.append(_value_info(_value_name(op.results[0]), op.results[0].type))
            continue
        if isinstance(op, ConstLike):
            v = op.attributes.get("value")
            if isinstance(v, DenseIntOrFPElementsAttr):
                inits.append(numpy_helper.from_array(dense_value(op, v), _value_name(op.results[0])))
                continue
        if isinstance(op, NetOutput):
            seen: set[str] = set()
            for k, v in enumerate(op.operands):
                src = _value_name(v)
                if src in seen or isinstance(v.owner, Data | ConstLike):
                    # an output must be a distinct node's output: an Identity makes one
                    out = f"{name}:{k}"
                    nodes.append(helper.make_node("Identity", [src], [out], name=out))
                    src = out
                seen.add(src)
                outputs.append(_value_info(src, v.type))
            continue
        t = ge_type(op)
        attrs = _kernel_attributes(op) if isinstance(op, AscBackend | FusedAscBackend) else _attributes(op)
        domain = "" if t in ONNX_SAME and not attrs else GE_DOMAIN
        domains.add(domain)
        outs = [_value_name(r) for r in op.results]
        node = helper.make_node(t, [_value_name(v) for v in op.operands], outs, name=name, domain=domain)
        node.attribute.extend(attrs)
        nodes.append(node)
        infos.extend(_value_info(o, r.type) for o, r in zip(outs, op.results))
    graph = helper.make_graph(nodes, g.sym_name.data, inputs, outputs, inits, doc_string=title, value_info=infos)
    opsets = [helper.make_opsetid(d, OPSET if d == "" else 1) for d in sorted(domains)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="ge-xdsl", doc_string=title)
    model.ir_version = 8  # what onnxruntime 1.x and Netron read
    return model


def write_stage(module: ModuleOp, stage: str, out_dir: str | os.PathLike[str]) -> list[Path]:
    """`module`'s graphs as ONNX files `STAGE[.GRAPH].onnx` in `out_dir`; the paths."""
    from onnx import save_model

    graphs = [op for op in module.walk() if isinstance(op, GraphOp)]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for g in graphs:
        p = out / (f"{stage}.onnx" if len(graphs) == 1 else f"{stage}.{g.sym_name.data}.onnx")
        save_model(graph_to_onnx(g, stage), str(p))
        paths.append(p)
    return paths


class OnnxStages:
    """A PassPipeline callback (wrapping the tool's own) writing the stages of the module
    doc; xDSL calls it before the first pass (previous None), between passes and after the
    last (next None)."""

    def __init__(self, inner: Callable[..., None] | None, out_dir: str):
        self.inner = inner
        self.out_dir = out_dir
        self.compiled = False

    @property
    def progress(self) -> Any:
        """The wrapped callback's progress line (ge-run clears it before a remark)."""
        return getattr(self.inner, "progress", None)

    def __call__(self, previous: Any, module: ModuleOp, next: Any) -> None:
        if self.inner is not None:
            self.inner(previous, module, next)
        has_graph = any(isinstance(op, GraphOp) for op in module.walk())
        if not has_graph:
            return
        if previous is None:
            write_stage(module, "00_input", self.out_dir)
        if previous is not None and previous.name == FUSION_PASS:
            write_stage(module, "01_after_fusion", self.out_dir)
        last = (next is not None and next.name == TO_NPU_PASS) or (next is None and previous is not None)
        if last and not self.compiled:
            self.compiled = True
            write_stage(module, "02_compiled", self.out_dir)


DUMP_ONNX_HELP = (
    "write the input graph (DIR/00_input.onnx), the graph after ge-autofuse (01_after_fusion.onnx) and "
    "the compiled graph, fused kernels as nodes (02_compiled.onnx: before ge-to-npu or at the pipeline's "
    "end) as ONNX files Netron opens, GE's attributes as node attributes (as GE's DUMP_GE_GRAPH); one file "
    "per graph (STAGE.GRAPH.onnx) when there are several"
)


def add_dump_onnx_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dump-onnx", metavar="DIR", default=None, help=DUMP_ONNX_HELP)


def with_dump_onnx(callback: Callable[..., None] | None, out_dir: str | None) -> Any:
    """`callback`, wrapped to write --dump-onnx's stages when `out_dir` is given."""
    return callback if not out_dir else OnnxStages(callback, out_dir)


def node_names(model: onnx.ModelProto) -> Sequence[str]:
    return [n.name for n in model.graph.node]
