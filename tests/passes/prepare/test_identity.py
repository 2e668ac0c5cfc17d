"""ge-identity-pass (GE's IdentityPass) and the Identities it keeps, end to end.

The pass's rules have one lit test each (tests/filecheck/passes/prepare/identity_*.mlir); here:
the pass never changes what a graph computes (reference interpreter before and after,
bit for bit), a kept Identity runs as the rts engine's memcpy and gives the reference's
numbers in the simulator on 1 and 2 streams (0-d, size-0, f16, int, a multi-output
producer, a chain), and generated bench graphs with Identity in every position compile.
"""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.parser import Parser
from xdsl.printer import Printer

from bench.gen_graphs import generate
from ge_dialect import ge, npu
from ge_tools import run as ge_run
from ge_tools.registry import make_context
from passes.prepare.identity import IdentityPass
from runtime.interpreter import run_module


def parse(text: str) -> ModuleOp:
    m = Parser(make_context(), text, "<test>").parse_module()
    m.verify()
    return m


def print_module(m: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out).print_op(m)
    return out.getvalue()


def identities(m: ModuleOp) -> list[ge.Identity]:
    return [op for op in m.walk() if isinstance(op, ge.Identity)]


def random_inputs(m: ModuleOp, seed: int) -> list[np.ndarray]:
    g = next(op for op in m.ops if isinstance(op, ge.GraphOp))
    rng = np.random.default_rng(seed)
    return [ge_run.random_input(d, rng) for d in g.data_nodes]


# Kept Identities reaching task generation: 0-d, size-0, fed by output 1 of a SplitD,
# chained, read twice by one op, written straight into graph outputs.
KEPT = """
ge.graph @main {
  %s = ge.Data {index = 0} : tensor<i32>
  %e = ge.Data {index = 1} : tensor<0x4xi32>
  %h = ge.Data {index = 2} : tensor<6x8xf16>
  %n = ge.Data {index = 3} : tensor<5xi32>
  %a, %b = ge.SplitD(%h) {split_dim = 0, num_split = 2} : (tensor<6x8xf16>) -> (tensor<3x8xf16>, tensor<3x8xf16>)
  %i0 = ge.Identity(%s) {_is_inserted_by_cann = true} : (tensor<i32>) -> tensor<i32>
  %i1 = ge.Identity(%e) {_is_inserted_by_cann = true} : (tensor<0x4xi32>) -> tensor<0x4xi32>
  %i2 = ge.Identity(%b) {no_need_constant_folding = true} : (tensor<3x8xf16>) -> tensor<3x8xf16>
  %m = ge.Mul(%i2, %i2) : (tensor<3x8xf16>, tensor<3x8xf16>) -> tensor<3x8xf16>
  %i3 = ge.Identity(%i0) {_is_inserted_by_cann = true} : (tensor<i32>) -> tensor<i32>
  %j = ge.Identity(%n) : (tensor<5xi32>) -> tensor<5xi32>
  %z = ge.PartitionedCall(%j, %j) {f = @sub} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  ge.NetOutput %i0, %i1, %m, %i3, %a, %i2, %z : tensor<i32>, tensor<0x4xi32>, tensor<3x8xf16>, tensor<i32>, tensor<3x8xf16>, tensor<3x8xf16>, tensor<5xi32>
}
ge.graph @sub {
  %p = ge.Data {index = 0} : tensor<5xi32>
  %q = ge.Data {index = 1} : tensor<5xi32>
  %c = ge.Identity(%p) : (tensor<5xi32>) -> tensor<5xi32>
  %d = ge.Add(%c, %q) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %o = ge.Identity(%d) : (tensor<5xi32>) -> tensor<5xi32>
  ge.NetOutput %o : tensor<5xi32>
}
"""


def test_kept_identities_are_memcpy_tasks_with_none_for_zero_bytes():
    from ge_tools.opt import GeOptMain

    m = parse(KEPT)
    GeOptMain(["-p", "ge-compile"]).apply_passes(m)
    model = next(op for op in m.ops if isinstance(op, npu.ModelOp))
    copies = sorted(op.attributes["node"].data for op in model.walk() if isinstance(op, npu.MemcpyOp))  # type: ignore[attr-defined]
    # i1 copies 0 bytes (memcpy_async_op.cc: CheckInputSize skips it); i2, and the
    # subgraph's c and o, were lowered into the AscBackends of the Mul and of the Add by
    # ge-lower-autofuse (an Identity is a view there); z's result is in the fm, so
    # NetOutput copies it to output 6
    assert copies == ["NetOutput", "i0", "i3", "j"]


@pytest.mark.parametrize("streams", ["1", "2"])
def test_kept_identities_give_the_reference_numbers(streams: str, tmp_path, capsys):
    f = tmp_path / "kept.mlir"
    f.write_text(KEPT)
    for seed in ("0", "7"):
        rc = ge_run.run([str(f), "--streams", streams, "--executions", "2", "--seed", seed])
        out = capsys.readouterr()
        assert rc == 0, out.err
        assert "outputs match the reference" in out.out


GENERATED = [("mixed", 60, s) for s in (1, 2, 3, 4)] + [("chain", 40, 5), ("fanout", 50, 6), ("diamond", 40, 7)]


@pytest.mark.parametrize("kind,nodes,seed", GENERATED)
def test_identity_pass_does_not_change_what_the_graph_computes(kind: str, nodes: int, seed: int):
    text = generate(kind, nodes, seed)
    before = parse(text)
    after = parse(text)
    n = len(identities(after))
    IdentityPass().apply(make_context(), after)
    after.verify()
    assert identities(after) == [], "no subgraph: every Identity of a generated graph goes"
    ins = random_inputs(before, seed)
    for r, a in zip(run_module(before, ins), run_module(after, ins), strict=True):
        assert r.dtype == a.dtype and r.shape == a.shape
        assert r.tobytes() == a.tobytes()
    assert n == 0 or print_module(before) != print_module(after)


def test_bench_mixed_graph_with_identities_compiles():
    # bench/gen_graphs.py --kind mixed emits Identity among its unary ops (119 of them at
    # 2000 nodes); ge-compile failed on the first at task generation
    text = generate("mixed", 300, 11)
    assert text.count("ge.Identity(") >= 5
    from ge_tools.opt import GeOptMain

    m = parse(text)
    GeOptMain(["-p", "ge-compile"]).apply_passes(m)
    models = [op for op in m.ops if isinstance(op, npu.ModelOp)]
    assert len(models) == 1
    assert not [op for op in models[0].walk() if op.attributes.get("type") == StringAttr("Identity")]


@pytest.mark.parametrize("streams", ["1", "2"])
@pytest.mark.parametrize("seed", [1, 3])
def test_generated_graphs_with_identities_run(seed: int, streams: str, tmp_path, capsys):
    f = tmp_path / "g.mlir"
    f.write_text(generate("mixed", 60, seed))
    assert "ge.Identity(" in f.read_text()
    rc = ge_run.run([str(f), "--streams", streams, "--executions", "2"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "outputs match the reference" in out.out


# -- task generation: what reaches it --------------------------------------------------------

PLAN_ONLY = "ge-phony-notask,ge-concat-notask,ge-pack-notask,ge-assign-memory"


def _planned(text: str) -> ModuleOp:
    from ge_tools.opt import GeOptMain
    from ge_tools.parse import parse_module

    opt = GeOptMain(["-p", PLAN_ONLY])
    m = parse_module(opt.ctx, text, "id.mlir")
    m.verify()
    opt.apply_passes(m)
    return m


def test_an_identity_reaching_task_generation_is_the_rts_memcpy():
    # without ge-identity-pass the Identity reaches ge-to-npu: GE's engine placement gives
    # it to the rts engine (COST_2 before GE-local's COST_9), a MemcpyAsync, not
    # GeDeletedOp's error (which this test expected before)
    from lowering.ge_to_npu import GeToNpuPass

    m = _planned("""ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %r = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %i = ge.Identity(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %y = ge.Relu(%i) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}""")
    GeToNpuPass().apply(make_context(), m)
    m.verify()
    model = next(op for op in m.ops if isinstance(op, npu.ModelOp))
    (copy,) = [op for op in model.walk() if isinstance(op, npu.MemcpyOp)]
    assert copy.attributes["node"] == StringAttr("i")
    assert [t.data for t in copy.in_tensors.data] == ["r:0"] and [t.data for t in copy.out_tensors.data] == ["i:0"]


def test_other_deleted_types_still_fail_at_task_generation():
    # ge_deleted_op.cc: GeDeletedOp::Run for a type the rts engine does not take (Shape)
    from ge_dialect.diagnostics import LocatedError
    from lowering.ge_to_npu import GeToNpuPass

    m = _planned("""ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x2xf32>
  %s = ge.Shape(%x) : (tensor<4x2xf32>) -> tensor<2xi32>
  ge.NetOutput %s : tensor<2xi32>
}""")
    with pytest.raises(LocatedError) as e:
        GeToNpuPass().apply(make_context(), m)
    assert "id.mlir:3:3: error: ge.Shape: a Shape node reached task generation" in str(e.value)
    assert "constant folding" in str(e.value)
