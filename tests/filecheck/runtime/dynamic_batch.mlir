// RUN: ge-run %examples/dynamic_batch.mlir --dim 0=2,8,5 --no-symbolic | filecheck %s
// RUN: python -c "import numpy; numpy.save('%t3.npy', numpy.full((3, 32), 0.25, 'float32')); numpy.save('%t7.npy', numpy.full((7, 32), 0.25, 'float32'))"
// RUN: ge-run %examples/dynamic_batch.mlir --input x=%t3.npy,%t7.npy --no-symbolic | filecheck %s --check-prefix=FILES
// ge-run on examples/dynamic_batch.mlir (issue 16): the unknown-batch part on the host
// (--no-symbolic: dynamic_symbolic.mlir has it as device kernels), the
// MLP head a static model whose args are refreshed per execution. Worked out by hand on the
// caching allocator (runtime/device_memory.py: 512-byte blocks, the lowest fitting free
// block, split when at most half of it is asked for, merged on free; B = 0x100000000):
// - execution 0, batch 2 (256-byte rows of x: 512-byte blocks): x at B, the Const 2 at
//   B+0x200 (kept), x*2 at B+0x400, x freed, h = Relu at B, x*2 freed, the mean m at B+0x400,
//   the Consts W1 (2048 bytes) at B+0x600, b1 B+0xe00, W2 B+0x1000, b2 B+0x1200, the model's
//   output at B+0x1400, its 1024-byte feature map at B+0x1600: every args slot written, 4
//   kernels x (2 inputs + 1 output) = 12 slots, 8 bytes each: 96 (all-one-time);
// - execution 1, batch 8 (1024-byte blocks): the free blocks are B (512), B+0x400 (512) and
//   the rest from B+0x1400; x at B+0x1400, x*2 at B+0x1800, x freed, h into x's block, x*2
//   freed, m at B, the output at B+0x400, the feature map at B+0x1800: input 0 (1 slot),
//   output 0 (1 slot) and the feature map (z written, read, the Add+Relu output written,
//   read, o written, read: 6 slots) moved: 8 slots, 64 bytes (fm-and-model-io);
// - execution 2, batch 5 (640 bytes: 1024-byte blocks again) finds the same free blocks and
//   asks for the same sizes: the same addresses, nothing refreshed (no_need_update).
// CHECK: clusters: 1 unknown-shape, 1 known-shape (1 run as static models: @main_sub_2_know), 1 data, 5 input nodes (Const), 1 netoutput
// CHECK-NEXT: execution 0: inputs 2x32; 3 host nodes, static model runs: 1 (@main_sub_2_know all-one-time, 12 args slots refreshed (96 bytes))
// CHECK-NEXT: execution 1: inputs 8x32; 3 host nodes, static model runs: 1 (@main_sub_2_know fm-and-model-io, 8 args slots refreshed (64 bytes))
// CHECK-NEXT: execution 2: inputs 5x32; 3 host nodes, static model runs: 1 (@main_sub_2_know no_need_update, 0 args slots refreshed (0 bytes))
// CHECK-NEXT: executions: 3, args bytes refreshed per execution (8 per slot): [96, 64, 0]
// CHECK: output 1 u:0: shape 5x32 float32
// CHECK: outputs match the reference
//
// With x = 0.25 everywhere, any batch: h = Relu(2x) = 0.5, its mean 0.5, 0.5 * 0.0625 * 32 -
// 0.25 = 0.75, 16 * 0.75 * -0.25 = -3, + b2 = [-1, -2, -3, -4], Sigmoid = [0.268941,
// 0.119203, 0.0474259, 0.0179862] (mean 0.113389); batches 3 and 7 take the block sizes of
// batches 2 and 8, so the same addresses and refreshes.
// FILES: execution 0: inputs 3x32; 3 host nodes, static model runs: 1 (@main_sub_2_know all-one-time, 12 args slots refreshed (96 bytes))
// FILES-NEXT: execution 1: inputs 7x32; 3 host nodes, static model runs: 1 (@main_sub_2_know fm-and-model-io, 8 args slots refreshed (64 bytes))
// FILES: output 0 y:0: shape 1x4 float32 min 0.0179862 max 0.268941 mean 0.113389
// FILES-NEXT: output 1 u:0: shape 7x32 float32 min 0.5 max 0.5 mean 0.5
// FILES-NEXT: outputs match the reference
