"""GE's subgraph_pass_unittest.cc, by name (add_memcpy_success, while_subgraph_success,
constant_while_subgraph_success, while_body_success, condition_subgraph_symbol_conflict):
each SubgraphPass rule inserts its Identity where GE does, and the graph then runs on the
static path (label tasks on the simulator) with the reference's numbers."""

from __future__ import annotations

import numpy as np

from ge_dialect import ge
from ge_tools import api
from runtime.interpreter import run_module
from runtime.simulator import load


def after(text: str) -> dict[str, list[str]]:
    """graph -> the names of the Identity nodes ge-subgraph-pass inserted in it."""
    m = api.compile(api.parse_module(text), "ge-cond-pass,ge-subgraph-pass").module
    return {
        g.sym_name.data: [ge.node_name(n) for n in g.body.block.ops if isinstance(n, ge.Identity)]
        for g in m.ops
        if isinstance(g, ge.GraphOp)
    }


def runs(text: str, inputs: list[np.ndarray]) -> None:
    model = api.compile(api.parse_module(text)).model("main")
    assert model is not None
    loaded = load(model)
    want = run_module(api.parse_module(text), inputs)
    for _ in range(2):
        for g, w in zip(loaded.execute(inputs), want):
            np.testing.assert_allclose(g, w, rtol=1e-6)


IF_DATA_CONST = """
ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  %y:2 = ge.If(%c, %x) {then_branch = @t, else_branch = @e} : (tensor<i32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  ge.NetOutput %y#0, %y#1 : tensor<4xf32>, tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %k = ge.Const {value = dense<2.0> : tensor<4xf32>} : tensor<4xf32>
  ge.NetOutput %a, %k : tensor<4xf32>, tensor<4xf32>
}
ge.graph @e {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %r = ge.Exp(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r, %r : tensor<4xf32>, tensor<4xf32>
}
"""


def test_add_memcpy_success() -> None:
    # SubgraphOutputNode: Data -> NetOutput (parent not While) and Const -> NetOutput
    got = after(IF_DATA_CONST)
    assert got["t"] == ["NetOutput_input_0_Memcpy", "NetOutput_input_1_Memcpy"]
    x = np.array([0.5, -1.0, 2.0, 0.0], np.float32)
    for c in (0, 1):
        runs(IF_DATA_CONST, [np.array(c, np.int32), x])


def test_condition_subgraph_symbol_conflict() -> None:
    # SeparateOutputsAddrOfCondSubgraph: one node feeding two outputs of a branch
    assert after(IF_DATA_CONST)["e"] == ["r_output_1_Memcpy"]


WHILE_CONST = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %i0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:2 = ge.While(%i0, %x) {cond = @c, body = @b} : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
  %s = ge.Add(%w#1, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %s, %w#0 : tensor<4xf32>, tensor<i32>
}
ge.graph @c {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %x = ge.Data {index = 1, _parent_node_index = 1} : tensor<4xf32>
  %three = ge.Const {value = dense<3> : tensor<i32>} : tensor<i32>
  %l = ge.Less(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %l : tensor<i1>
}
ge.graph @b {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %x = ge.Data {index = 1, _parent_node_index = 1} : tensor<4xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %x1 = ge.Exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %i1, %x1 {_parent_node_index = [0, 1]} : tensor<i32>, tensor<4xf32>
}
"""


def test_constant_while_subgraph_success() -> None:
    # SubgraphInputNode: Const -> While input copied (the loop writes it in place)
    assert "w_input_0_Memcpy" in after(WHILE_CONST)["main"]


def test_while_subgraph_success() -> None:
    # WhileInputNodes: x feeds the While and the Add after it: copied, so the loop does not
    # overwrite what the Add reads
    assert "w_input_1_Memcpy" in after(WHILE_CONST)["main"]
    x = np.array([0.1, -0.2, 0.3, 0.0], np.float32)
    want = np.exp(np.exp(np.exp(x))) + x  # numpy, independently
    model = api.compile(api.parse_module(WHILE_CONST)).model("main")
    assert model is not None
    out, it = load(model).execute([x])
    np.testing.assert_allclose(out, want, rtol=1e-6)
    assert int(it) == 3


SWAP = """
ge.graph @main {
  %a = ge.Data {index = 0} : tensor<4xf32>
  %b = ge.Data {index = 1} : tensor<4xf32>
  %i0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:3 = ge.While(%i0, %a, %b) {cond = @c, body = @b} : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>)
  ge.NetOutput %w#1, %w#2 : tensor<4xf32>, tensor<4xf32>
}
ge.graph @c {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %a = ge.Data {index = 1, _parent_node_index = 1} : tensor<4xf32>
  %b = ge.Data {index = 2, _parent_node_index = 2} : tensor<4xf32>
  %three = ge.Const {value = dense<3> : tensor<i32>} : tensor<i32>
  %l = ge.Less(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %l : tensor<i1>
}
ge.graph @b {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %a = ge.Data {index = 1, _parent_node_index = 1} : tensor<4xf32>
  %b = ge.Data {index = 2, _parent_node_index = 2} : tensor<4xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %s = ge.Add(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %i1, %b, %s {_parent_node_index = [0, 1, 2]} : tensor<i32>, tensor<4xf32>, tensor<4xf32>
}
"""


def test_while_body_success() -> None:
    # WhileBodySubgraph: every loop-carried value read from a copy made at the body's head
    # and written from a copy at its tail (a, b = b, a + b: b is read after a's slot is written)
    got = after(SWAP)["b"]
    assert [n for n in got if n.startswith("b_input_Memcpy")] == [
        "b_input_Memcpy_0",
        "b_input_Memcpy_1",
        "b_input_Memcpy_2",
    ]
    assert [n for n in got if n.startswith("b_output_Memcpy")] == [
        "b_output_Memcpy_0",
        "b_output_Memcpy_1",
        "b_output_Memcpy_2",
    ]
    a = np.array([1, 2, 3, 4], np.float32)
    b = np.array([1, 1, 2, 3], np.float32)
    wa, wb = a, b
    for _ in range(3):  # numpy, independently
        wa, wb = wb, wa + wb
    model = api.compile(api.parse_module(SWAP)).model("main")
    assert model is not None
    ga, gb = load(model).execute([a, b])
    np.testing.assert_array_equal(ga, wa)
    np.testing.assert_array_equal(gb, wb)


def test_while_body_bypass_needs_no_copy() -> None:
    # CheckInsertInputMemcpy: a Data passed straight to the output of its own index is not copied
    text = SWAP.replace("ge.NetOutput %i1, %b, %s", "ge.NetOutput %i1, %a, %s").replace(
        "ge.Add(%a, %b) : (tensor<4xf32>", "ge.Add(%b, %b) : (tensor<4xf32>"
    )
    got = after(text)["b"]
    assert len([n for n in got if n.startswith("b_output_Memcpy")]) == 2  # i and s, not a
    assert len([n for n in got if n.startswith("b_input_Memcpy")]) == 2  # i and b, not a
    a = np.array([1, 2, 3, 4], np.float32)
    b = np.array([1, 1, 2, 3], np.float32)
    runs(text, [a, b])


def test_memory_figures_cover_subgraphs() -> None:
    # ge-assign-memory's totals for a root with subgraphs are the model's figures: every
    # called subgraph's arena and a While's cond slot, in memory_size and memory_lower_bound
    from ge_tools.pipeline import GeCompilePass
    from ge_tools.registry import make_context
    from lowering.ge_to_npu import GeToNpuPass
    from passes.memory.assign_memory import subgraph_arenas
    from random_graphs import control_graph_text

    for text in (SWAP, IF_DATA_CONST, WHILE_CONST, *(control_graph_text(s) for s in range(3000, 3004))):
        m = api.parse_module(text)
        ctx = make_context()
        *prep, to_npu = GeCompilePass().passes()
        assert isinstance(to_npu, GeToNpuPass)
        for p in prep:
            p.apply(ctx, m)
        ((root, (n, size, bound)),) = subgraph_arenas(m).items()
        assert root.sym_name.data == "main" and n >= 1
        to_npu.apply(ctx, m)
        (model,) = [op for op in m.ops if op.name == "npu.model"]
        assert (size, bound) == (
            model.attributes["memory_size"].value.data,  # type: ignore[attr-defined]
            model.attributes["memory_lower_bound"].value.data,  # type: ignore[attr-defined]
        )


CASE_DATA = """
ge.graph @main {
  %k = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  %y = ge.Data {index = 2} : tensor<4xf32>
  %o:2 = ge.Case(%k, %x, %y) {branches = [@b0, @b1]} : (tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  ge.NetOutput %o#0, %o#1 : tensor<4xf32>, tensor<4xf32>
}
ge.graph @b0 {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<4xf32>
  ge.NetOutput %a, %b : tensor<4xf32>, tensor<4xf32>
}
ge.graph @b1 {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<4xf32>
  ge.NetOutput %b, %a : tensor<4xf32>, tensor<4xf32>
}
"""


def test_CaseSubGraph_EachInsertIdentity_Success() -> None:
    # if_case_subgraph_unittest.cc: every branch output fed by a Data gets its own copy into
    # the Case's output buffer (SubgraphOutputNode), so the branches may swap their inputs
    got = after(CASE_DATA)
    assert got["b0"] == ["NetOutput_input_0_Memcpy", "NetOutput_input_1_Memcpy"]
    assert got["b1"] == ["NetOutput_input_0_Memcpy", "NetOutput_input_1_Memcpy"]
    x = np.array([1, 2, 3, 4], np.float32)
    y = np.array([5, 6, 7, 8], np.float32)
    for k in (0, 1, 5):
        runs(CASE_DATA, [np.array(k, np.int32), x, y])


def test_IfSingleOutMultiRefToNetoutput_CheckReturnSuccess() -> None:
    # if_case_subgraph_unittest.cc: one output read by two NetOutput inputs of a branch
    # (SeparateOutputsAddrOfCondSubgraph copies the second): the If's two outputs differ in
    # memory and both hold the value
    x = np.array([0.5, -1.0, 2.0, 0.0], np.float32)
    model = api.compile(api.parse_module(IF_DATA_CONST)).model("main")
    assert model is not None
    o0, o1 = load(model).execute([np.array(0, np.int32), x])
    np.testing.assert_allclose(o0, np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(o1, np.exp(x), rtol=1e-6)
