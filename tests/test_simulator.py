"""The device simulator and ge-to-npu end to end: every example against the reference
interpreter, fault injection (wrong offset, missing event, uninitialised read, deadlock),
GE's address-refresh policy, and no task for no-task nodes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from ge_dialect import attrs as A
from ge_dialect import ge, npu
from ge_tools.opt import GeOptMain, parse_module
from ge_tools.run import random_input
from runtime.reference import run_graph, select_graph
from runtime.simulator import SimulatorFault, load
from tests.test_assign_memory import PHONY_GE_SHAPES  # GE's PhonyConcatCalcOffset shapes

EXAMPLES = sorted(Path(__file__).parent.parent.joinpath("examples").glob("*.mlir"))
# The passes that exist in HEAD, in DESIGN.md order (autofuse is tested by its own issue).
PLAN = "ge-phony-notask,ge-concat-notask,ge-pack-notask,ge-assign-memory"


def parse(path: Path | str, text: str | None = None) -> tuple[GeOptMain, ModuleOp]:
    opt = GeOptMain(["-p", PLAN])
    data = text if text is not None else Path(path).read_text()
    m = parse_module(opt.ctx, data, str(path))
    m.verify()
    return opt, m


def planned(path: Path | str, text: str | None = None) -> tuple[ModuleOp, ModuleOp]:
    """(original module, module after memory planning)."""
    opt, m = parse(path, text)
    c = m.clone()
    opt.apply_passes(c)
    return m, c


def to_npu(opt_module: ModuleOp, streams: int = 1) -> npu.ModelOp:
    from lowering.ge_to_npu import GeToNpuPass

    GeToNpuPass(streams=streams).apply(None, opt_module)  # type: ignore[arg-type]
    opt_module.verify()
    return next(o for o in opt_module.ops if isinstance(o, npu.ModelOp))


def inputs_for(m: ModuleOp, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [random_input(d, rng) for d in select_graph(m).data_nodes]


def close(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))


@pytest.mark.parametrize("streams", [1, 2])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_matches_the_reference(path: Path, streams: int) -> None:
    m, c = planned(path)
    model = to_npu(c, streams)
    ins = inputs_for(m)
    ref = run_graph(select_graph(m), ins)
    loaded = load(model)
    for k in range(2):  # fresh input buffers each time
        outs = loaded.execute([a.copy() for a in ins])
        assert all(close(o, r) for o, r in zip(outs, ref)), (path.stem, k)


def test_split_relu_concat_has_no_task_for_the_concat() -> None:
    m, c = planned("examples/split_relu_concat.mlir")
    model = to_npu(c)
    nodes = [t.attributes["node"].data for s in model.stream_ops() for t in s.tasks if "node" in t.attributes]  # type: ignore[attr-defined]
    assert "c" not in nodes and nodes.count("b0") == 1
    alias = [e for e in model.table() if isinstance(e, npu.AliasOp)]
    assert [a.tensor_name for a in alias] == ["c:0"] and alias[0].source_names == ["b0:0", "b1:0", "b2:0"]
    # the producers write side by side inside the concat's bytes (zero-copy layout)
    addr = {e.tensor_name: e.addr for e in model.table()}
    c0 = addr["c:0"]
    assert [addr[f"b{i}:0"].offset.data for i in range(3)] == [c0.offset.data + 1024 * i for i in range(3)]


def test_phony_concat_split_have_no_task_and_contiguous_pieces() -> None:
    m, c = planned("examples/phony_concat_split.mlir")
    model = to_npu(c)
    types = {t.attributes["node"].data for s in model.stream_ops() for t in s.tasks if "node" in t.attributes}  # type: ignore[attr-defined]
    assert "block" not in types and "p0" not in types
    addr = {e.tensor_name: e.addr for e in model.table()}
    # PhonyConcat pieces: GE's one offset per piece, 0, 64, 128, 192 bytes after the block
    # (1x1x1x4x8 f16 pieces: 64 B; 128 = 1*1*8*8 * 2 B), each written contiguously (64 B)
    base = addr["block:0"].offset.data
    assert [(addr[f"m{i}:0"].offset.data - base, addr[f"m{i}:0"].length.data) for i in range(4)] == [(0, 64), (64, 64), (128, 64), (192, 64)]
    # PhonySplit consumers read 64 contiguous bytes at the Add's output + 0, 64, 128, 192
    tasks = {t.attributes["node"].data: t for s in model.stream_ops() for t in s.tasks if "node" in t.attributes}  # type: ignore[attr-defined]
    sbase = addr["sum:0"].offset.data
    reads = [tasks[f"o{k}"].footprint()[0][0][1] for k in range(4)]  # type: ignore[attr-defined]
    assert [(a.offset.data - sbase, a.length.data) for a in reads] == [(0, 64), (64, 64), (128, 64), (192, 64)]
    loaded = load(model)
    ins = inputs_for(m)
    ref = run_graph(select_graph(m), ins)
    assert all(close(o, r) for o, r in zip(loaded.execute(ins), ref))


# GE's own PhonyConcatCalcOffset shapes (pieces 1x2x2x4x8 f16, 256 B; offsets 0, 64, 512,
# 576): GE's kernels write each piece contiguously at its offset, so piece 1 [64, 320)
# clobbers piece 0 [0, 256) while the Abs has yet to read it. So does the simulator.
# (The graph is test_assign_memory's; its first line is line 1 here.)


def test_phony_concat_with_ge_test_shapes_is_a_live_buffer_write(capsys: pytest.CaptureFixture[str]) -> None:
    m, c = planned("ge_shapes.mlir", PHONY_GE_SHAPES.lstrip("\n"))
    assert "ge_shapes.mlir:7:3: warning: PhonyConcat 'block': GE's offsets do not lay its inputs out" in capsys.readouterr().err
    model = to_npu(c)
    base = next(e.addr for e in model.table() if e.tensor_name == "block:0").offset.data
    with pytest.raises(SimulatorFault) as e:
        load(model).execute(inputs_for(m))
    msg = str(e.value)
    assert "npu.kernel 'm1'" in msg and "write into a live buffer" in msg and 'tensor "m0:0"' in msg, msg
    assert f'writing tensor "m1:0" at fm [{base + 64}, {base + 320})' in msg, msg
    # the clobbered bytes: piece 1 from 64 up to the end of piece 0 at 256
    assert (e.value.region, e.value.start, e.value.end) == ("fm", base + 64, base + 256)


# -- fault injection ---------------------------------------------------------------------


def test_wrong_output_offset_is_a_live_buffer_write() -> None:
    """Move b1's output onto b0's bytes after planning: b0 is still to be read by the
    concat's reader (the memcpy), so the simulator names both tensors and the range."""
    m, c = planned("examples/split_relu_concat.mlir")
    g = select_graph(c)
    b1 = next(o for o in g.body.block.ops if ge.node_name(o) == "b1")
    b0 = next(o for o in g.body.block.ops if ge.node_name(o) == "b0")
    A.set_int_list(b1, "output_offset", A.get_int_list(b0, "output_offset"))  # type: ignore[arg-type]
    model = to_npu(c)
    with pytest.raises(SimulatorFault) as e:
        load(model).execute(inputs_for(m))
    msg = str(e.value)
    assert "npu.kernel 'b1'" in msg and "write into a live buffer" in msg and 'tensor "b0:0"' in msg
    assert e.value.region == "fm"


def test_wrong_input_offset_reads_uninitialised_memory() -> None:
    m, c = planned("examples/split_relu_concat.mlir")
    g = select_graph(c)
    b2 = next(o for o in g.body.block.ops if ge.node_name(o) == "b2")
    top = A.get_int(g, "memory_size")
    A.set_int_list(b2, "input_offset", [top - 1024])  # type: ignore[operator]
    model = to_npu(c)
    with pytest.raises(SimulatorFault) as e:
        load(model).execute(inputs_for(m))
    assert "npu.kernel 'b2'" in str(e.value) and "read of uninitialised memory: fm" in str(e.value)
    assert e.value.end - e.value.start > 0


def test_missing_event_between_streams_is_a_race() -> None:
    """Drop the record/wait pair that orders the SplitD before b1 on stream 1."""
    m, c = planned("examples/split_relu_concat.mlir")
    model = to_npu(c, streams=2)
    s0, s1 = model.stream_ops()
    wait = next(t for t in s1.tasks if isinstance(t, npu.EventWaitOp))
    e = wait.event.data
    rec = next(t for t in s0.tasks if isinstance(t, npu.EventRecordOp) and t.event.data == e)
    wait.detach()
    rec.detach()
    # renumber the remaining events densely so the model still verifies
    for s in (s0, s1):
        for t in s.tasks:
            if isinstance(t, npu.EventRecordOp | npu.EventWaitOp) and t.event.data > e:
                t.properties["event"] = npu.IntAttr(t.event.data - 1)
    model.properties["events"] = npu.IntAttr(model.events.data - 1)
    with pytest.raises(SimulatorFault) as err:
        load(model).execute(inputs_for(m))
    msg = str(err.value)
    assert "race:" in msg and "no event between them" in msg and "'s0'" in msg and "'b1'" in msg


DEADLOCK = """
npu.model @m streams = 2 events = 2 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.stream_active 1
    npu.event_wait 0
    npu.event_record 1
    npu.end_graph
  }
  npu.stream 1 {
    npu.event_wait 1
    npu.event_record 0
  }
}
"""


def test_wait_for_an_event_never_reached_is_a_deadlock() -> None:
    _, mod = parse("deadlock.mlir", DEADLOCK)
    model = next(o for o in mod.ops if isinstance(o, npu.ModelOp))
    with pytest.raises(SimulatorFault) as e:
        load(model).execute([])
    assert "stream 0 task 1 (npu.event_wait): deadlock: waits for event 0, whose record (stream 1 task 1" in str(e.value)


def test_unjoined_stream_at_end_graph() -> None:
    m, c = planned("examples/split_relu_concat.mlir")
    model = to_npu(c, streams=2)
    s0, s1 = model.stream_ops()
    # b1 on stream 1 feeds the output memcpy on stream 0; drop that join and keep the
    # memcpy reading: the race is the memcpy's read of b1's bytes
    wait = [t for t in s0.tasks if isinstance(t, npu.EventWaitOp)][-1]
    rec = next(t for t in s1.tasks if isinstance(t, npu.EventRecordOp) and t.event.data == wait.event.data)
    wait.detach()
    rec.detach()
    model.properties["events"] = npu.IntAttr(model.events.data - 1)
    with pytest.raises(SimulatorFault) as e:
        load(model).execute(inputs_for(m))
    assert "race:" in str(e.value) or "read of uninitialised memory" in str(e.value)


# -- address refresh -----------------------------------------------------------------------


def test_address_refresh_follows_ge() -> None:
    m, c = planned("examples/residual_conv.mlir")
    model = to_npu(c)
    loaded = load(model)
    g = select_graph(m)
    ins1, ins2 = inputs_for(m, 1), inputs_for(m, 2)
    out = [np.empty((1, 16, 8, 8), np.float32)]
    o1 = loaded.execute(ins1, out)
    assert close(o1[0], run_graph(g, ins1)[0])
    n_tasks = sum(1 for s in model.stream_ops() for t in s.tasks if isinstance(t, npu.KernelOp | npu.MemcpyOp))
    assert len(loaded.refreshed) == n_tasks  # kInitOneTime: every task with args
    loaded.execute(ins1, out)
    assert loaded.refreshed == []  # same buffers: nothing to refresh
    o2 = loaded.execute(ins2, out)  # new input buffers, same output buffer
    assert close(o2[0], run_graph(g, ins2)[0])
    # the tasks that read an input: conv1 (x, w1), conv2 (w2), add (x) — not the relu
    assert sorted(t.split("'")[1] for t in loaded.refreshed) == ["c1", "c2", "sum"]


def test_frozen_input_is_refreshed_once() -> None:
    m, c = planned("examples/residual_conv.mlir")
    loaded = load(to_npu(c), frozen_inputs=[1])
    g = select_graph(m)
    a, b = inputs_for(m, 1), inputs_for(m, 2)
    loaded.execute(a)
    second = [b[0], b[1].copy(), a[2]]
    second[1][...] = 0  # a new buffer for frozen input 1: GE keeps reading the first one
    out = loaded.execute([second[0], second[1], second[2]])
    expect = run_graph(g, [second[0], a[1], second[2]])[0]
    assert close(out[0], expect)
    assert "c1" in " ".join(loaded.refreshed)  # c1 reads input 0, which changed


# -- task generation errors -------------------------------------------------------------------


def test_missing_memory_plan_is_a_located_error() -> None:
    _, mod = parse("examples/softmax_like.mlir")
    from ge_dialect.diagnostics import LocatedError
    from lowering.ge_to_npu import GeToNpuPass

    with pytest.raises(LocatedError) as e:
        GeToNpuPass().apply(None, mod)  # type: ignore[arg-type]
    assert "run ge-assign-memory first" in str(e.value)


def test_identity_reaching_task_generation_names_identity_pass() -> None:
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %r = ge.Relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %i = ge.Identity(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %y = ge.Relu(%i) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}"""
    _, c = planned("id.mlir", text)
    from ge_dialect.diagnostics import LocatedError
    from lowering.ge_to_npu import GeToNpuPass

    with pytest.raises(LocatedError) as e:
        GeToNpuPass().apply(None, c)  # type: ignore[arg-type]
    assert "id.mlir:4:3: error: ge.Identity: a Identity node reached task generation" in str(e.value)
    assert "IdentityPass" in str(e.value)


# -- kernels store in place ---------------------------------------------------------------------


def compiled_model(text: str) -> tuple[ModuleOp, npu.ModelOp]:
    opt = GeOptMain(["-p", "ge-compile"])
    m = parse_module(opt.ctx, text, "inplace.mlir")
    m.verify()
    c = m.clone()
    opt.apply_passes(c)
    return m, next(o for o in c.ops if isinstance(o, npu.ModelOp))


FUSED = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf32>
  %r = ge.Relu(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = ge.Mul(%r, %r) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  ge.NetOutput %y : tensor<8x16xf32>
}"""


def test_ascgraph_store_writes_the_given_output_buffer() -> None:
    """run_asc_graph with an output buffer: the Store writes it (the result shares its
    memory) and the numbers equal a run into a fresh buffer, whatever the buffer held."""
    from runtime.ascgraph_interp import run_asc_graph

    _, model = compiled_model(FUSED)
    (k,) = [d for d in model.kernel_defs().values() if d.kind.data == "ascgraph"]
    x = np.random.default_rng(0).uniform(-1, 1, (8, 16)).astype(np.float32)
    fresh = run_asc_graph(k.asc_graph(), [x], [(8, 16)])[0]
    buf = np.full(128, np.nan, np.float32)
    got = run_asc_graph(k.asc_graph(), [x], [(8, 16)], [buf])[0]
    assert np.shares_memory(got, buf) and np.array_equal(got, fresh) and np.array_equal(fresh, np.maximum(x, 0) ** 2)
    # a buffer of another size or dtype is not used: a fresh one is allocated
    other = np.full(64, np.nan, np.float32)
    got2 = run_asc_graph(k.asc_graph(), [x], [(8, 16)], [other])[0]
    assert not np.shares_memory(got2, other) and np.array_equal(got2, fresh)


def test_dense_cover_decides_when_a_given_buffer_needs_no_zeroing() -> None:
    """Only a Store view that writes each element of its buffer once, row-major from
    offset 0, may skip zeroing the given buffer (the bytes it misses must read 0, as with
    np.zeros)."""
    from xdsl.dialects.builtin import f32

    from ge_dialect.ascgraph import AscTensorType
    from runtime.ascgraph_interp import _dense_cover

    def t(reps: list[int], strides: list[int]) -> AscTensorType:
        return AscTensorType(f32, list(range(len(reps))), reps, strides)

    assert _dense_cover(t([4, 8], [8, 1]), 0, 32)
    assert _dense_cover(t([4, 1, 8], [8, 0, 1]), 0, 32)  # a unit axis's stride is irrelevant
    assert not _dense_cover(t([4, 8], [8, 1]), 1, 33)  # not from offset 0
    assert not _dense_cover(t([4, 4], [8, 2]), 0, 32)  # every other element
    assert not _dense_cover(t([4, 8], [8, 1]), 0, 64)  # half the buffer
    assert not _dense_cover(t([8, 4], [1, 8]), 0, 32)  # transposed: covers, not row-major
    assert not _dense_cover(t([4, 8], [0, 1]), 0, 32)  # broadcast: rows written 4 times


def test_kernel_output_on_its_own_input_is_copied_after_the_kernel() -> None:
    """An output placed on the bytes of an input of the same task (legal once the input is
    dead) is not written during the kernel: the result is computed, then copied."""
    from runtime.simulator import _disjoint

    m, model = compiled_model(FUSED)
    loaded = load(model)
    x = np.random.default_rng(1).uniform(-1, 1, (8, 16)).astype(np.float32)
    out = loaded.execute([x.copy()])
    assert np.array_equal(out[0], np.maximum(x, 0) ** 2)
    (t,) = [t for t in loaded.tasks if t.ins and t.outs]
    assert t.bindings is not None
    (ibuf, ioff), (obuf, ooff) = t.bindings
    assert _disjoint(t.outs[0], obuf, ooff, t)
    # rebind the output onto the input's bytes: no longer disjoint
    t.bindings = [(ibuf, ioff), (ibuf, ioff)]
    assert not _disjoint(t.outs[0], ibuf, ioff, t)
