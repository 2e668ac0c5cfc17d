// RUN: ge-run %examples/dynamic_batch.mlir --dim 0=2,8,5 | filecheck %s
// RUN: python -c "import numpy; numpy.save('%t3.npy', numpy.full((3, 32), 0.25, 'float32')); numpy.save('%t7.npy', numpy.full((7, 32), 0.25, 'float32'))"
// RUN: ge-run %examples/dynamic_batch.mlir --input x=%t3.npy,%t7.npy | filecheck %s --check-prefix=FILES
// ge-run on examples/dynamic_batch.mlir (issue 16): the unknown-batch part on the host, the
// MLP head as a static model whose args are refreshed per execution. Hand-checked:
// - execution 0 writes every args slot of the model's 4 kernels (2 inputs + 1 output each:
//   12 slots, 8 bytes each = 96, GE's all-one-time policy);
// - execution 1 (a batch of 8: 1024-byte blocks instead of 512) moves the model's input and
//   output blocks but not its feature map: 2 slots (model-io);
// - execution 2 (a batch of 5: 640 bytes, 1024-byte blocks again) allocates the same sizes
//   in the same order: the same addresses, nothing refreshed.
// CHECK: clusters: 1 unknown-shape, 1 known-shape (1 run as static models: @main_sub_2_know), 1 data, 1 netoutput
// CHECK-NEXT: execution 0: inputs 2x32; 3 host nodes, static model runs: 1 (@main_sub_2_know all-one-time, 12 args slots refreshed (96 bytes))
// CHECK-NEXT: execution 1: inputs 8x32; 3 host nodes, static model runs: 1 (@main_sub_2_know model-io, 2 args slots refreshed (16 bytes))
// CHECK-NEXT: execution 2: inputs 5x32; 3 host nodes, static model runs: 1 (@main_sub_2_know no_need_update, 0 args slots refreshed (0 bytes))
// CHECK-NEXT: executions: 3, args bytes refreshed per execution (8 per slot): [96, 16, 0]
// CHECK: outputs match the reference
//
// With x = 0.25 everywhere, any batch: mean(Relu(2x)) = 0.5, 0.5 * 0.0625 * 32 - 0.25 = 0.75,
// 16 * 0.75 * -0.25 = -3, + b2 = [-1, -2, -3, -4], Sigmoid = [0.268941, 0.119203, 0.0474259,
// 0.0179862] (mean 0.113389); batch 3 and 7 take 512- and 1024-byte blocks as 2 and 8 do.
// FILES: execution 0: inputs 3x32; 3 host nodes, static model runs: 1 (@main_sub_2_know all-one-time, 12 args slots refreshed (96 bytes))
// FILES-NEXT: execution 1: inputs 7x32; 3 host nodes, static model runs: 1 (@main_sub_2_know model-io, 2 args slots refreshed (16 bytes))
// FILES: output 0 y:0: shape 1x4 float32 min 0.0179862 max 0.268941 mean 0.113389
// FILES-NEXT: outputs match the reference
