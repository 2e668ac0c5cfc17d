"""GE's label_maker_unittest.cc, by name (if_label_maker_run_success,
while_label_maker_run_success, case_label_maker_run_success,
partition_label_maker_run_success), and label_allocator_unittest.cc's AssignFunctionalLabels:
the labels LabelAllocator gives each functional node and the tasks ge-to-npu lays out as the
makers do, run on the simulator (no host) against the reference interpreter."""

from __future__ import annotations

import numpy as np
import pytest

from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_tools import api
from runtime.interpreter import run_module
from runtime.simulator import SimulatorFault, load

IF = """
ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @e} : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %r = ge.Exp(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
ge.graph @e {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %r = ge.Neg(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
"""

WHILE = """
ge.graph @main {
  %n = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  %i0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:3 = ge.While(%i0, %n, %x) {cond = @c, body = @b} : (tensor<i32>, tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<i32>, tensor<4xf32>)
  ge.NetOutput %w#2, %w#0 : tensor<4xf32>, tensor<i32>
}
ge.graph @c {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %x = ge.Data {index = 2, _parent_node_index = 2} : tensor<4xf32>
  %l = ge.Less(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %l : tensor<i1>
}
ge.graph @b {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %x = ge.Data {index = 2, _parent_node_index = 2} : tensor<4xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %h = ge.Const {value = dense<0.5> : tensor<f32>} : tensor<f32>
  %x1 = ge.Mul(%x, %h) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %x2 = ge.Add(%x1, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %i1, %n, %x2 {_parent_node_index = [0, 1, 2]} : tensor<i32>, tensor<i32>, tensor<4xf32>
}
"""

CASE = """
ge.graph @main {
  %k = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  %y = ge.Case(%k, %x) {branches = [@b0, @b1, @b2]} : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @b0 {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %r = ge.Exp(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
ge.graph @b1 {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %r = ge.Neg(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
ge.graph @b2 {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %r = ge.Abs(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
"""

PARTITION = """
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.PartitionedCall(%x) {f = @f} : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @f {
  %a = ge.Data {index = 0} : tensor<4xf32>
  %r = ge.Exp(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %r : tensor<4xf32>
}
"""


def compiled(text: str, streams: int = 1) -> npu.ModelOp:
    m = api.compile(api.parse_module(text), f"ge-compile{{streams={streams}}}").model("main")
    assert m is not None
    return m


def tasks(model: npu.ModelOp) -> list[str]:
    out = []
    for s in model.stream_ops():
        for t in s.tasks:
            if isinstance(t, npu.LabelSetOp | npu.LabelGotoOp):
                out.append(f"{t.name.split('.')[1]} {t.id}")
            elif isinstance(t, npu.LabelSwitchByIndexOp):
                out.append(f"label_switch_by_index {t.label_ids()}")
            else:
                out.append(t.name.split(".")[1])
    return out


def labelled(text: str) -> ge.ControlOp:
    m = api.compile(api.parse_module(text), "ge-cond-pass,ge-subgraph-pass,ge-label-allocator").module
    (node,) = [
        op for g in m.ops if isinstance(g, ge.GraphOp) for op in g.body.block.ops if isinstance(op, ge.ControlOp)
    ]
    return node


def run_both(text: str, inputs: list[np.ndarray], streams: int = 1) -> None:
    model = load(compiled(text, streams))
    want = run_module(api.parse_module(text), inputs)
    for _ in range(2):
        got = model.execute(inputs)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-6)


def test_if_label_maker_run_success() -> None:
    # if_op_label_maker.cc: 3 labels; switch {else, then}; then: LabelSet, body, LabelGoto(leave);
    # else: LabelSet, body, LabelSet(leave)
    assert A.get_int_list(labelled(IF), A.LABEL_INDEXES) == [0, 1, 2]
    assert tasks(compiled(IF)) == [
        "label_switch_by_index [1, 0]", "label_set 0", "kernel", "label_goto 2",
        "label_set 1", "kernel", "label_set 2", "memcpy", "end_graph",
    ]  # fmt: skip
    x = np.array([0.5, -1.0, 2.0, 0.0], np.float32)
    for c in (0, 1, 7, -3):  # non-zero is true (out of range takes the last label: then)
        run_both(IF, [np.array(c, np.int32), x])


def test_while_label_maker_run_success() -> None:
    # while_op_label_maker.cc: LabelSet(cond), cond, switch {leave, body}, LabelSet(body), body,
    # LabelGoto(cond), LabelSet(leave)
    assert A.get_int_list(labelled(WHILE), A.LABEL_INDEXES) == [0, 1, 2]
    got = tasks(compiled(WHILE))
    assert got[got.index("label_set 0") :].count("label_goto 0") == 1
    assert "label_switch_by_index [2, 1]" in got
    i = got.index("label_switch_by_index [2, 1]")
    assert got[i + 1] == "label_set 1" and got[got.index("label_goto 0") + 1] == "label_set 2"
    x = np.array([1.0, -2.0, 3.0, 0.25], np.float32)
    for n in (0, 1, 5):
        model = load(compiled(WHILE))
        out, it = model.execute([np.array(n, np.int32), x])
        np.testing.assert_allclose(out, x * 1.5**n, rtol=1e-6)  # numpy, independently
        assert int(it) == n
        assert model.last_stats.tasks_by_kind["label_switch_by_index"] == n + 1  # on the device


def test_case_label_maker_run_success() -> None:
    # case_op_label_maker.cc: one label per branch and the leave label
    assert A.get_int_list(labelled(CASE), A.LABEL_INDEXES) == [0, 1, 2, 3]
    assert tasks(compiled(CASE)) == [
        "label_switch_by_index [0, 1, 2]", "label_set 0", "kernel", "label_goto 3",
        "label_set 1", "kernel", "label_goto 3", "label_set 2", "kernel", "label_set 3", "memcpy", "end_graph",
    ]  # fmt: skip
    x = np.array([0.5, -1.0, 2.0, 0.0], np.float32)
    for k in (0, 1, 2, 9, -1):
        run_both(CASE, [np.array(k, np.int32), x])


def test_single_branch_case_has_no_labels() -> None:
    one = CASE.replace("[@b0, @b1, @b2]", "[@b1]")
    assert A.get_int_list(labelled(one), A.LABEL_INDEXES) == []
    assert tasks(compiled(one)) == ["kernel", "memcpy", "end_graph"]


def test_partition_label_maker_run_success() -> None:
    # partitioned_call_label_maker.cc: no switch; the called graph runs inline, no labels
    model = compiled(PARTITION)
    assert not any(
        isinstance(t, npu.LabelSetOp | npu.LabelSwitchByIndexOp) for s in model.stream_ops() for t in s.tasks
    )
    run_both(PARTITION, [np.array([0.5, -1.0, 2.0, 0.0], np.float32)])


def test_AssignFunctionalLabels() -> None:
    # label_allocator.cc: one serial index over the graph; the root gets the count
    text = IF + CASE.replace("@main", "@main2").replace("@b0", "@c0").replace("@b1", "@c1").replace("@b2", "@c2")
    m = api.compile(api.parse_module(text), "ge-cond-pass,ge-label-allocator").module
    ids = [A.get_int_list(op, A.LABEL_INDEXES) for g in m.ops if isinstance(g, ge.GraphOp) for op in g.body.block.ops
           if isinstance(op, ge.ControlOp)]  # fmt: skip
    assert ids == [[0, 1, 2], [3, 4, 5, 6]]
    roots = {g.sym_name.data: A.get_int(g, A.LABEL_NUM) for g in m.ops if isinstance(g, ge.GraphOp)}
    assert roots["main"] == 7 and roots["main2"] == 7 and roots["t"] is None


def test_AssignFunctionalLabels_skips_unknown_graphs() -> None:
    dyn = IF.replace("tensor<4xf32>", "tensor<?xf32>")
    m = api.compile(api.parse_module(dyn), "ge-cond-pass,ge-partition-dynamic,ge-label-allocator").module
    nodes = [op for g in m.ops if isinstance(g, ge.GraphOp) for op in g.body.block.ops if isinstance(op, ge.ControlOp)]
    assert nodes and all(A.LABEL_INDEXES not in n.attributes for n in nodes)


@pytest.mark.parametrize("streams", [1, 2])
def test_nested_while_if_on_two_streams(streams: int) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "examples" / "control" / "nested_while_if.mlir").read_text()
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 2, 8).astype(np.float32)
    run_both(text, [x, np.array(4, np.int32), np.array(6.0, np.float32)], streams)


def test_unwritten_branch_output_is_a_fault() -> None:
    model = compiled(IF)
    # drop the else branch's kernel: the If's output is left unwritten when cond is 0
    stream = model.stream_ops()[0]
    ops = stream.tasks
    k = ops.index(next(t for t in ops if isinstance(t, npu.LabelSetOp) and t.id == 1)) + 1
    ops[k].detach()
    ops[k].erase()
    m = load(model)
    x = np.ones(4, np.float32)
    m.execute([np.array(1, np.int32), x])  # then branch: fine
    with pytest.raises(SimulatorFault, match="branch output left unwritten"):
        m.execute([np.array(0, np.int32), x])


def test_while_iteration_cap_names_the_node() -> None:
    never = WHILE.replace("%l = ge.Less(%i, %n)", "%l = ge.Less(%n, %i)").replace(
        "ge.NetOutput %i1, %n", "ge.NetOutput %i, %n"
    )
    m = load(compiled(never))
    m.iteration_cap = 7
    with pytest.raises(SimulatorFault, match=r"While 'w' did not stop after 7 iterations .*WHILE_ITERATION_CAP = 7"):
        m.execute([np.array(-1, np.int32), np.ones(4, np.float32)])


@pytest.mark.parametrize(("n", "dtype", "streams"), [(5, "f16", 1), (33, "f32", 2), (16, "f16", 2)])
def test_generated_nested_while_if_static(n: int, dtype: str, streams: int) -> None:
    # the nested example with other sizes and dtypes, several executions with new inputs
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "examples" / "control" / "nested_while_if.mlir").read_text()
    text = text.replace("8xf32", f"{n}x{dtype}").replace("tensor<f32>", f"tensor<{dtype}>")
    model = load(compiled(text, streams))
    npdt = np.float16 if dtype == "f16" else np.float32
    rng = np.random.default_rng(n)
    for trips in (0, 3, 6):
        inputs = [rng.uniform(0, 2, n).astype(npdt), np.array(trips, np.int32), np.array(n * 0.8, npdt)]
        (want,) = run_module(api.parse_module(text), inputs)
        (got,) = model.execute(inputs)
        np.testing.assert_array_equal(got, want)
