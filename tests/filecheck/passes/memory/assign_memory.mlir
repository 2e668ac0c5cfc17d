// RUN: ge-opt %examples/split_relu_concat.mlir -p ge-concat-notask,ge-assign-memory | filecheck %s
// RUN: ge-opt %examples/split_relu_concat.mlir -p ge-concat-notask,ge-assign-memory --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
//
// examples/split_relu_concat.mlir after ConcatNotaskPass: ConcatD 'c' is no-task, its three
// Relu producers write side by side. Sizes by hand (TensorUtils::GetTensorMemorySizeInBytes:
// raw rounded to 32, plus 32):
//   x  48x32 f16 = 3072 raw -> 3104, graph input 0 (Data: GetTensorMemorySizeInBytesWithAutoPadding)
//   r  48x32 f16 -> 3104 stored, block 3584 (512-aligned), alive at nodes 1..2
//   s0..s2 16x32 f16 = 1024 raw -> 1056, blocks 1536, alive 2..3 / 2..4 / 2..5
//   c's block: pieces b0/b1/b2 at +0/+1024/+2048 (raw 1024 each), c itself 3104 stored;
//     extent max(2048 + 1056, 3104) = 3104 -> 3584, alive from b0 (node 3) to NetOutput (7)
// Node 3 holds s0, s1, s2 and c's block: 3 * 1536 + 3584 = 8192 = lower bound = peak.
// Largest first: r at 0; c's block at 0 too (r is dead by node 3); s0..s2 above 3584.
// c feeds NetOutput but is no-task: it stays in the feature map (ge-to-npu copies it out).

// CHECK:      ge.graph @main attributes {_single_op_scene = false, memory_size = 8192, memory_lower_bound = 8192, memory_proven_bound = 8192, weight_size = 0}
// CHECK-NEXT:   %x = ge.Data {index = 0, output_offset = [0], output_region = ["input:0"], output_size = [3104]}
// CHECK-NEXT:   %r = ge.Relu(%x) {output_offset = [0], output_region = ["fm"], output_size = [3104], input_offset = [0]}
// CHECK-NEXT:   %s0, %s1, %s2 = ge.SplitD(%r) {split_dim = 0, num_split = 3, output_offset = [3584, 5120, 6656], output_region = ["fm", "fm", "fm"], output_size = [1056, 1056, 1056], input_offset = [0]}
// CHECK-NEXT:   %b0 = ge.Relu(%s0) {can_reused_for_concat_optimize = [false], output_offset = [0], output_region = ["fm"], output_size = [1056], input_offset = [3584]}
// CHECK-NEXT:   %b1 = ge.Relu(%s1) {can_reused_for_concat_optimize = [false], output_offset = [1024], output_region = ["fm"], output_size = [1056], input_offset = [5120]}
// CHECK-NEXT:   %b2 = ge.Relu(%s2) {can_reused_for_concat_optimize = [false], output_offset = [2048], output_region = ["fm"], output_size = [1056], input_offset = [6656]}
// CHECK-NEXT:   %c = ge.ConcatD(%b0, %b1, %b2) {{.*}}_no_task = true{{.*}}output_offset = [0], output_region = ["fm"], output_size = [3104], input_offset = [0, 1024, 2048]}
// CHECK-NEXT:   ge.NetOutput %c {input_offset = [0]}

// REMARK: split_relu_concat.mlir:10:3: remark: 'x':0 -> input:0 [0, 3104): graph input 0 (zero-copy)
// REMARK: split_relu_concat.mlir:11:3: remark: 'r':0 -> fm [0, 3104): new block
// REMARK: split_relu_concat.mlir:13:3: remark: 'b0':0 -> fm [0, 1056): piece 0 of no-task ConcatD 'c' at +0 (raw sizes before it)
// REMARK: split_relu_concat.mlir:14:3: remark: 'b1':0 -> fm [1024, 2080): piece 1 of no-task ConcatD 'c' at +1024 (raw sizes before it)
// REMARK: split_relu_concat.mlir:15:3: remark: 'b2':0 -> fm [2048, 3104): piece 2 of no-task ConcatD 'c' at +2048 (raw sizes before it)
// REMARK: split_relu_concat.mlir:16:3: remark: 'c':0 -> fm [0, 3104): output of no-task ConcatD 'c' (block of its input 0); reused block of 'r':0
// REMARK: split_relu_concat.mlir:9:1: remark: graph @main: memory_size 8192 B, memory_lower_bound 8192 B (ratio 1.000), memory_proven_bound 8192 B (optimal), weight_size 0 B; 5 feature-map blocks for 9 tensors
