"""The dynamic executor (runtime/dynamic_executor.py, issue 16): mixed execution of a
partitioned graph, its known-shape part a static model whose args are refreshed each
execution (GE's davinci_model_kernel.cc / UpdateKnownNodeArgs), on the caching allocator
of runtime/device_memory.py.

The modules are built by hand in DYN_CONTRACT.md §2's form (already partitioned) and
compiled with ge-compile, which leaves their partition as it is and compiles the known
subgraphs into known-node models.
Every address and refresh count below is worked out by hand from the allocator's rules
(512-byte blocks, lowest fitting free block, split at half, merge on free).
"""

from __future__ import annotations

import numpy as np
import pytest

from ge_tools import api
from runtime import dynamic_executor as dx
from runtime.device_memory import DeviceMemory, block_size
from runtime.dynamic_executor import DynamicExecutor, partition_summary
from runtime.graph_interpreter import ReferenceEvalError
from runtime.simulator import (
    K_INIT_ONE_TIME,
    K_NO_NEED_UPDATE,
    K_UPDATE_FM_AND_MODEL_IO,
    K_UPDATE_MODEL_IO,
    SimulatorFault,
)

B = 0x1_0000_0000  # runtime/device_memory.py: DEVICE_BASE, the first segment's address

# x (unknown batch) -> ReduceSumD over the batch (unknown-shape cluster) -> a known model
# Exp(s * w) whose second input is the root's Data w
SUM_THEN_KNOWN = """
ge.graph @main attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %w = ge.Data {index = 1} : tensor<32xf32>
  %s = ge.PartitionedCall(%x) {f = @main_sub_1_unknow, _is_unknown_shape = true} : (tensor<?x32xf32>) -> tensor<32xf32>
  %k = ge.PartitionedCall(%s, %w) {f = @main_sub_2_know, _is_unknown_shape = false} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  ge.NetOutput %k : tensor<32xf32>
}
ge.graph @main_sub_1_unknow attributes {_is_unknown_shape = true} {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %s = ge.ReduceSumD(%x) {axes = [0], keep_dims = false} : (tensor<?x32xf32>) -> tensor<32xf32>
  ge.NetOutput %s : tensor<32xf32>
}
ge.graph @main_sub_2_know attributes {_is_unknown_shape = false} {
  %a = ge.Data {index = 0} : tensor<32xf32>
  %b = ge.Data {index = 1} : tensor<32xf32>
  %c = ge.Mul(%a, %b) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %d = ge.Exp(%c) : (tensor<32xf32>) -> tensor<32xf32>
  ge.NetOutput %d : tensor<32xf32>
}
"""


def _compiled(text: str):  # noqa: ANN202
    module = api.parse_module(text)
    return module, api.compile(module).module


def _example():  # noqa: ANN202
    module = api.load("examples/dynamic_batch.mlir")
    return module, api.compile(module).module


def _rand(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


# -- the allocator ---------------------------------------------------------------------------


def test_caching_allocator_rounds_splits_merges_and_reuses() -> None:
    dev = DeviceMemory()
    assert [block_size(n) for n in (0, 1, 512, 513, 1500)] == [512, 512, 512, 1024, 1536]
    a = dev.malloc(1000, "a")  # a fresh 512 KiB segment, split: a at its start
    b = dev.malloc(100, "b")
    assert (a.ptr, a.size, b.ptr, b.size) == (B, 1024, B + 1024, 512)
    assert dev.describe(B + 1100) == "inside live allocation #2 ('b', 512 bytes at 0x100000400)"
    assert dev.describe(B + (512 << 10)) == "not device memory"
    assert dev.stats.segments == 1 and dev.stats.reserved_bytes == 512 * 1024
    dev.free(a)
    c = dev.malloc(600, "c")  # 1024 fits the freed block, more than half of it: not split
    assert (c.ptr, c.size) == (B, 1024)
    dev.free(c)
    d = dev.malloc(512, "d")  # exactly half of the 1024 block: split, the lowest fitting block
    assert (d.ptr, d.size) == (B, 512)
    assert (
        dev.describe(B + 512)
        == "free memory (last held allocation #3 ('c', 1024 bytes at 0x100000000), freed in execution 0)"
    )
    dev.free(d)
    dev.free(b)  # everything merges back into the one segment block
    assert dev.bins[0] == [(512 * 1024, B)] and dev.stats.in_use_bytes == 0
    big = dev.malloc(600 * 1024, "big")  # beyond bin 0: a new 8 MiB + 512 segment, 2 MiB aligned
    assert big.ptr == B + (2 << 20) and dev.stats.segments == 2


# -- execution --------------------------------------------------------------------------------


def test_unknown_batch_at_three_batch_sizes() -> None:
    module, compiled = _example()
    s = partition_summary(compiled)
    assert (s.unknown_shape, s.known_shape, s.static_models) == (
        ["main_sub_1_unknow"], ["main_sub_2_know"], ["main_sub_2_know"],
    )  # fmt: skip
    ex = DynamicExecutor(compiled)
    for k, batch in enumerate((2, 8, 5)):
        x = _rand((batch, 32), k)
        got, relu = ex.execute([x])
        # the reference by numpy: h = Relu(2x), its mean over the batch, then the MLP head
        np.testing.assert_array_equal(relu, np.maximum(2 * x, 0))
        m = np.maximum(2 * x, 0).mean(axis=0, keepdims=True)
        h = np.maximum(m @ np.full((32, 16), 0.0625, np.float32) - 0.25, 0)
        want = 1 / (1 + np.exp(-(h @ np.full((16, 4), -0.25, np.float32) + [[2.0, 1.0, 0.0, -1.0]])))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        ref = api.reference(module, [x])
        np.testing.assert_allclose(got, ref[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(relu, ref[1])
        st = ex.last_stats
        assert st.input_shapes == [(batch, 32)]
        assert st.host_nodes == 3  # Mul, Relu, ReduceMeanD (the Const's block is made once)
        assert [m.model for m in st.known_models] == ["main_sub_2_know"]
    # the first refresh writes every slot: 4 kernels x (2 inputs + 1 output)
    assert [h.known_models[0].ret_up for h in ex.history][0] == K_INIT_ONE_TIME
    assert ex.history[0].refreshed_slots == 12 and ex.history[0].args_bytes_refreshed == 96


def test_known_model_input_moves_while_frozen_input_stays() -> None:
    """Hand-worked on the allocator (frozen input 1 = w):
    execution 0, batch 4: x 512 B at B, w 512 at B+0x200 (kept), s at B+0x400 (x still
      alive), x freed; the model's output takes x's hole at B. Model in [B+0x400, B+0x200],
      out B; first refresh: 3 slots (kernel Mul+Exp: 2 ins, 1 out), kInitOneTime.
    execution 1, batch 8: x 1024 B at B+0x400 (the hole at B is too small), w copied into
      its block, s 512 into the hole at B, x freed and merged, the output at B+0x400.
      input:0 and output:0 moved, input:1 did not: 2 slots, kUpdateModelIo.
    execution 2, batch 8 again: the same sizes in the same order, the same addresses:
      nothing refreshed (kNoNeedUpdate).
    execution 3, batch 4: back to execution 0's addresses: 2 slots."""
    module, compiled = _compiled(SUM_THEN_KNOWN)
    ex = DynamicExecutor(compiled, frozen_inputs=[1])
    (lm,) = ex.models.values()
    assert lm.frozen == frozenset({1})  # GetValidFrozenIndicies: the call's operand 1 is Data 1
    w = _rand((32,), 9)
    seen = []
    for k, batch in enumerate((4, 8, 8, 4)):
        x = _rand((batch, 32), k)
        (got,) = ex.execute([x, w])
        np.testing.assert_allclose(got, np.exp(x.sum(axis=0) * w), rtol=1e-5, atol=1e-6)
        (run,) = ex.last_stats.known_models
        seen.append((run.input_addresses, run.output_addresses, run.refreshed_slots, run.ret_up))
    assert seen == [
        ([B + 0x400, B + 0x200], [B], 3, K_INIT_ONE_TIME),
        ([B, B + 0x200], [B + 0x400], 2, K_UPDATE_MODEL_IO),
        ([B, B + 0x200], [B + 0x400], 0, K_NO_NEED_UPDATE),
        ([B + 0x400, B + 0x200], [B], 2, K_UPDATE_MODEL_IO),
    ]
    assert [h.args_bytes_refreshed for h in ex.history] == [24, 16, 0, 16]


def test_stale_frozen_address_is_a_fault() -> None:
    """The frozen input's block moves (the test frees it, as a user handing another buffer
    for a frozen input would): the model's slot keeps the old address, which execution 1
    has given to x (then freed), and the simulator says so."""
    _, compiled = _compiled(SUM_THEN_KNOWN)
    ex = DynamicExecutor(compiled, frozen_inputs=[1])
    w = _rand((32,), 9)
    ex.execute([_rand((4, 32), 0), w])
    old = ex.frozen_blocks.pop(1)  # allocation #2 at B+0x200
    ex.device.free(old.alloc)
    with pytest.raises(SimulatorFault) as e:
        ex.execute([_rand((8, 32), 1), w])
    msg = str(e.value)
    assert msg.startswith("known-shape model @main_sub_2_know (call 'k'): stream 0 task 0 (npu.kernel ")
    assert "stale address in execution 1" in msg
    assert 'the args slot of tensor "b:0" (input:1 [0, 128)) holds device address 0x100000200' in msg
    # execution 1: x #5 at B (1024 bytes, over the old block), the new w #6 at B+0x400
    assert "this execution's input:1 is allocation #6 ('w:0 (frozen)', 512 bytes at 0x100000400)" in msg
    assert (
        "0x100000200 is free memory (last held allocation #5 ('x:0', 1024 bytes at 0x100000000), freed in execution 1)"
        in msg
    )
    assert e.value.region == "input:1" and e.value.node == "k"


def test_stale_address_without_refresh_reads_reused_memory() -> None:
    """Without the frozen rule the same move is refreshed: the model reads the new block."""
    _, compiled = _compiled(SUM_THEN_KNOWN)
    ex = DynamicExecutor(compiled)
    w = _rand((32,), 9)
    ex.execute([_rand((4, 32), 0), w])
    x = _rand((8, 32), 1)
    (got,) = ex.execute([x, w])
    np.testing.assert_allclose(got, np.exp(x.sum(axis=0) * w), rtol=1e-5, atol=1e-6)


def test_feature_map_refresh_rewrites_the_fm_slots() -> None:
    """DavinciModelUpdateWorkspaces with an arena elsewhere: the fm id's slots are rewritten
    (kUpdateFmAndModelIo). The example's model keeps z, the Add+Relu output and o in fm:
    matmul_0 writes z (1 slot), ascbackend_1 reads z and writes its output (2), matmul_2
    reads it and writes o (2), ascbackend_3 reads o (1): 6 slots; input:0 and output:0 have
    one slot each (inputs 1-4, the root's Consts, keep their blocks)."""
    _, compiled = _example()
    ex = DynamicExecutor(compiled)
    ex.execute([_rand((3, 32), 0)])
    (lm,) = ex.models.values()
    dev = ex.device
    consts = [lm.current[f"input:{k}"] for k in range(1, 5)]  # W1, b1, W2, b2: kept blocks
    dev.malloc(64 * 1024, "pad")  # everything below lands past execution 0's blocks
    m, out, fm_a, fm_b = (dev.malloc(n, t) for n, t in ((128, "m"), (16, "out"), (1024, "fm a"), (1024, "fm b")))
    dev.view(m.ptr, 128)[...] = np.zeros(32, np.float32).view(np.uint8)
    steps = []
    for fm in (fm_a, fm_b, fm_b):
        lm.update_workspaces({"fm": fm})
        lm.execute_known_node([m, *consts], [out])
        steps.append((lm.ret_up, lm.refreshed_slots))
    assert steps == [(K_UPDATE_FM_AND_MODEL_IO, 6 + 1 + 1), (K_UPDATE_FM_AND_MODEL_IO, 6), (K_NO_NEED_UPDATE, 0)]
    # y = Sigmoid(Relu(0 @ W1 - 0.25) @ W2 + b2) = Sigmoid(b2)
    got = dev.view(out.ptr, 16).view(np.float32)
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-np.array([2.0, 1.0, 0.0, -1.0]))), rtol=1e-6)


def test_model_created_once_over_many_executions(monkeypatch: pytest.MonkeyPatch) -> None:
    loads = []
    real = dx.load

    def counting(*a, **k):  # noqa: ANN002, ANN003, ANN202
        loads.append(a[0].sym_name.data)
        return real(*a, **k)

    monkeypatch.setattr(dx, "load", counting)
    _, compiled = _example()
    ex = DynamicExecutor(compiled)
    (lm,) = ex.models.values()
    assert ex.device.stats.in_use_bytes == 0  # the model has no weights: the Consts are in the root
    for k in range(6):
        ex.execute([_rand((1 + k % 3, 32), k)])
        # every block but the root's Consts' (2, W1, b1, W2, b2) is back in the pool
        assert ex.device.stats.in_use_bytes == block_size(4) + block_size(2048) + 3 * 512
    assert loads == ["main_sub_2_know"] and lm.stats.executions == 6
    assert list(ex.models.values()) == [lm]
    # batch 1, 2, 3 take x blocks of 512 (128, 256, 384 bytes): the same addresses (execution
    # 0 allocates the Consts after x*2 and h, whose blocks are free again when the mean and
    # the model's blocks are asked for), so only the first execution refreshes
    assert [h.refreshed_slots for h in ex.history] == [12, 0, 0, 0, 0, 0]
    assert all(h.pool.reused_blocks == h.pool.mallocs for h in ex.history[1:])  # no new segment


def test_run_time_shape_against_the_declared_type() -> None:
    """A host node whose concrete output contradicts its declared (known) type is a located
    error, before any known model reads it."""
    _, compiled = _compiled(SUM_THEN_KNOWN.replace("tensor<?x32xf32>", "tensor<?x?xf32>"))
    ex = DynamicExecutor(compiled)
    with pytest.raises(
        ReferenceEvalError, match=r"^<string>:11:3: error: ge.ReduceSumD: output 0 is an array of shape 16"
    ):
        ex.execute([_rand((4, 16), 0), _rand((32,), 1)])


SCALAR_AND_EMPTY = """
ge.graph @main attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<?x?xf16>
  %s = ge.PartitionedCall(%x) {f = @main_sub_1_unknow, _is_unknown_shape = true} : (tensor<?x?xf16>) -> tensor<f16>
  %k:2 = ge.PartitionedCall(%s) {f = @main_sub_2_know, _is_unknown_shape = false} : (tensor<f16>) -> (tensor<f16>, tensor<3xf16>)
  %t = ge.PartitionedCall(%x, %k#0) {f = @main_sub_3_unknow, _is_unknown_shape = true} : (tensor<?x?xf16>, tensor<f16>) -> tensor<?x?xf16>
  ge.NetOutput %t, %k#1 : tensor<?x?xf16>, tensor<3xf16>
}
ge.graph @main_sub_1_unknow attributes {_is_unknown_shape = true} {
  %x = ge.Data {index = 0} : tensor<?x?xf16>
  %s = ge.ReduceSumD(%x) {axes = [0, 1], keep_dims = false} : (tensor<?x?xf16>) -> tensor<f16>
  ge.NetOutput %s : tensor<f16>
}
ge.graph @main_sub_2_know attributes {_is_unknown_shape = false} {
  %a = ge.Data {index = 0} : tensor<f16>
  %n = ge.Neg(%a) : (tensor<f16>) -> tensor<f16>
  %c = ge.Const {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf16>} : tensor<3xf16>
  %m = ge.Mul(%c, %a) : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  ge.NetOutput %n, %m : tensor<f16>, tensor<3xf16>
}
ge.graph @main_sub_3_unknow attributes {_is_unknown_shape = true} {
  %x = ge.Data {index = 0} : tensor<?x?xf16>
  %n = ge.Data {index = 1} : tensor<f16>
  %t = ge.Add(%x, %n) : (tensor<?x?xf16>, tensor<f16>) -> tensor<?x?xf16>
  ge.NetOutput %t : tensor<?x?xf16>
}
"""


def test_scalar_empty_and_two_outputs_f16() -> None:
    """A 0-d tensor into a known model with two outputs (one read by a later unknown-shape
    subgraph, one by NetOutput), f16, and an empty (0x5) input."""
    _, compiled = _compiled(SCALAR_AND_EMPTY)
    ex = DynamicExecutor(compiled)
    for k, shape in enumerate(((2, 3), (0, 5), (4, 3))):
        x = np.random.default_rng(k).integers(-3, 4, shape).astype(np.float16)  # exact sums in f16
        t, m = ex.execute([x])
        s = x.astype(np.float32).sum()
        assert t.shape == shape and t.dtype == np.float16
        np.testing.assert_array_equal(t, (x.astype(np.float32) - s).astype(np.float16))
        np.testing.assert_array_equal(m, (np.array([1, 2, 3], np.float32) * s).astype(np.float16))
    # the model's two kernels: Neg (1 input, 1 output), Mul (the constant, the input, 1 output)
    assert ex.history[0].refreshed_slots == 5
    assert all(h.pool.in_use_bytes == ex.history[0].pool.in_use_bytes for h in ex.history)  # no leak
