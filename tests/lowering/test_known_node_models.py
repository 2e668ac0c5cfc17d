"""ge-compile on a dynamic-shape module: ge-partition-dynamic inside ge-compile, each
known-shape subgraph compiled into its own known-node npu.model (GE's DavinciModel
known_node_), the root and the unknown subgraphs left as ge graphs (DYN_CONTRACT.md §3)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import VerifyException

from conftest import EXAMPLES, parse, print_module
from ge_dialect import attrs as A
from ge_dialect import npu
from ge_dialect.diagnostics import Remark, remark_sink
from ge_dialect.ge import GraphOp, PartitionedCall
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context
from passes.partition.dynamic_shape_partition import DynamicShapePartitionPass
from runtime import simulator
from runtime.interpreter import ge_interpreter

# A `?` batch: the batch reduction is unknown (it reads the `?` input), the static tail is
# one known cluster (5 nodes, two Consts read through the root); the Neg on the batch is
# unknown too, and on no path through the tail (else the tail would be unknown by contagion).
BATCH = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x16xf32>
  %w = ge.Const {value = dense<0.25> : tensor<16xf32>} : tensor<16xf32>
  %bias = ge.Const {value = dense<-1.5> : tensor<16xf32>} : tensor<16xf32>
  %a = ge.Relu(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [0], keep_dims = false} : (tensor<?x16xf32>) -> tensor<16xf32>
  %b = ge.Mul(%r, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %c = ge.Add(%b, %bias) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %d = ge.Sigmoid(%c) : (tensor<16xf32>) -> tensor<16xf32>
  %e = ge.Exp(%d) : (tensor<16xf32>) -> tensor<16xf32>
  %f = ge.Relu(%e) : (tensor<16xf32>) -> tensor<16xf32>
  %y = ge.Neg(%a) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  ge.NetOutput %f, %y : tensor<16xf32>, tensor<?x16xf32>
}
"""


def compile_module(text: str, remarks: bool = False) -> tuple[ModuleOp, list[Remark]]:
    m = parse(text)
    got: list[Remark] = []
    passes = GeCompilePass().passes()
    if remarks:
        import dataclasses

        passes = tuple(
            dataclasses.replace(p, remarks=True) if any(f.name == "remarks" for f in dataclasses.fields(p)) else p
            for p in passes
        )
    with remark_sink(got.append):
        PassPipeline(passes).apply(make_context(), m)
    m.verify()
    return m, got


def by_name(m: ModuleOp) -> dict[str, object]:
    return {op.sym_name.data: op for op in m.ops}  # type: ignore[attr-defined]


class CallValues:
    """A listener of the reference interpreter: each PartitionedCall's inputs and outputs."""

    def __init__(self) -> None:
        self.ins: dict[str, list[np.ndarray]] = {}
        self.outs: dict[str, list[np.ndarray]] = {}

    def will_interpret_op(self, op, args) -> None:  # noqa: ANN001
        if isinstance(op, PartitionedCall):
            self.ins[op.attributes["f"].root_reference.data] = [np.array(a) for a in args]

    def did_interpret_op(self, op, outs) -> None:  # noqa: ANN001
        if isinstance(op, PartitionedCall):
            self.outs[op.attributes["f"].root_reference.data] = [np.array(o) for o in outs]


@pytest.mark.parametrize("batch", [1, 3, 8])
def test_a_question_mark_batch_compiles_into_a_known_node_model(batch):
    m, _ = compile_module(BATCH)
    ops = by_name(m)
    root, unknown, known = ops["main"], ops["main_sub_2_unknow"], ops["main_sub_1_know"]
    # the root and the unknown subgraph stay ge graphs, the known one is a known-node model
    assert isinstance(root, GraphOp) and A.get_bool(root, A.DYNAMIC_SHAPE_PARTITIONED)
    assert isinstance(unknown, GraphOp) and A.MEMORY_SIZE not in unknown.attributes
    assert isinstance(known, npu.ModelOp) and A.get_bool(known, "known_node")
    assert list(known.attributes)[0] == "known_node"
    # no fusion, no memory plan in the dynamic graphs: their nodes are the ge ops
    assert [op.name for op in unknown.body.block.ops] == [
        "ge.Data", "ge.Relu", "ge.ReduceSumD", "ge.Neg", "ge.NetOutput"
    ]  # fmt: skip
    # the known part runs on the simulator and equals the reference on the part's inputs
    partitioned = parse(BATCH)
    DynamicShapePartitionPass().apply(make_context(), partitioned)
    values = CallValues()
    interp = ge_interpreter(partitioned)
    interp.listeners = (*interp.listeners, values)
    x = np.random.default_rng(batch).uniform(-1, 1, (batch, 16)).astype(np.float32)
    interp.run_graph(by_name(partitioned)["main"], [x])  # type: ignore[arg-type]
    ins, want = values.ins["main_sub_1_know"], values.outs["main_sub_1_know"]
    assert ins[0].shape == (16,)
    np.testing.assert_allclose(ins[0], np.maximum(x, 0).sum(axis=0), rtol=1e-6)
    loaded = simulator.load(known)
    got = loaded.execute(ins)
    assert len(got) == len(want) == 1
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)
    # a second execution with other addresses (fresh buffers) gives the same
    np.testing.assert_allclose(loaded.execute([a.copy() for a in ins])[0], want[0], rtol=1e-5, atol=1e-6)


def test_the_dynamic_graphs_are_skipped_with_a_remark():
    _, rem = compile_module(BATCH, remarks=True)
    skipped = {(r.pass_name, r.message.split("@")[1].split(" ")[0]) for r in rem if r.verdict == "skipped"}
    for p in ("ge-lower-autofuse", "ge-autofuse", "ge-assign-memory"):
        assert (p, "main") in skipped and (p, "main_sub_2_unknow") in skipped, p
    assert not any(n == "main_sub_1_know" for _, n in skipped)


def test_every_static_example_compiles_as_without_the_partitioner():
    # ge-compile with and without ge-partition-dynamic: byte-identical on static graphs
    for path in EXAMPLES:
        text = path.read_text()
        a, b = parse(text), parse(text)
        PassPipeline(GeCompilePass().passes()).apply(make_context(), a)
        rest = tuple(p for p in GeCompilePass().passes() if not isinstance(p, DynamicShapePartitionPass))
        assert len(rest) == len(GeCompilePass().passes()) - 1
        PassPipeline(rest).apply(make_context(), b)
        assert print_module(a) == print_module(b), path.name


def test_partitioned_call_accepts_a_known_node_model():
    m, _ = compile_module(BATCH)
    known = by_name(m)["main_sub_1_know"]
    assert isinstance(known, npu.ModelOp)
    call = next(
        op
        for op in by_name(m)["main"].body.block.ops
        if isinstance(op, PartitionedCall) and "_know" in str(op.attributes["f"])  # type: ignore[attr-defined]
    )
    call.verify()
    # a model that is not a known-node model is no callee
    del known.attributes["known_node"]
    with pytest.raises(VerifyException, match="is not a ge.graph"):
        call.verify()
    known.attributes["known_node"] = A.bool_attr(True)
    # a region type that is not the call's
    region = next(r for r in known.body.block.ops if isinstance(r, npu.RegionOp) and r.region.data == "input:0")
    region.attributes["type"] = (
        parse("ge.graph @t { %a = ge.Data {index = 0} : tensor<8xf32>\n ge.NetOutput %a : tensor<8xf32> }")
        .body.block.first_op.body.block.first_op.results[0]
        .type
    )  # type: ignore[union-attr]
    with pytest.raises(VerifyException, match="region input:0 has type tensor<8xf32>, but input 0 is tensor<16xf32>"):
        call.verify()
    # a missing output region
    region.attributes["type"] = call.operands[0].type
    out = next(r for r in known.body.block.ops if isinstance(r, npu.RegionOp) and r.region.data == "output:0")
    out.region = StringAttr("workspace")
    with pytest.raises(VerifyException, match="has 0 output regions for 1 outputs"):
        call.verify()
