// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=transpose},ge-autofuse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's transpose cases with the real decider (docs/ge/autofuse.md,
// test_lowering_and_canfuse.cpp; transpose_fusion_strategy.cpp and §7.3):
// * MutiRefEleAndTransposeNotFuse: Add is read by the transpose and by Mul: a pointwise
//   node fuses into a transpose only when the transpose is its only consumer.
// * TransposeAndTransposeLoweringCanfuse: two transposes (axis groups XY and XY) never
//   merge; both have fewer than 2 compute ops, so lifting gives back both TransposeDs
//   (GE: 0 transpose AscBackends left).
// * a transpose fuses only vertically: t and Mul share no link.
// By hand: Add+Mul loop-merge (Mul reads Add: vertical; both read y, which the fused
// kernel reads once), 4 kernels -> 3.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  %a = ge.Add(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = ge.TransposeD(%a) {perm = [1, 0]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %t2 = ge.TransposeD(%t) {perm = [1, 0]} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %m = ge.Mul(%a, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %t2, %m : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK:      %a, %m = ge.AscBackend(%x, %y) {name = "autofuse_0_Add_Mul"
// CHECK:      %t = ge.TransposeD(%a) {perm = [1, 0]}
// CHECK-NEXT: %t2 = ge.TransposeD(%t) {perm = [1, 0]}
// CHECK-NOT:  ge.AscBackend

// REMARK-DAG: 'autofuse_pointwise_0_Add' and 'autofuse_transpose_1_TransposeD' not fused: a pointwise node fuses into a transpose only when the transpose is its only consumer and it loads its input [NF1022]
// REMARK-DAG: 'autofuse_transpose_1_TransposeD' and 'autofuse_transpose_2_TransposeD' not fused: axis groups XY and XY cannot merge [NF1009] [MergeAxisGroupFailed]
// REMARK-DAG: 'autofuse_transpose_1_TransposeD' and 'autofuse_pointwise_3_Mul' not fused: a transpose fuses only along a producer -> consumer link [NF1022]
// REMARK-DAG: lifted 'autofuse_transpose_1_TransposeD' back to TransposeD 't'
// REMARK-DAG: lifted 'autofuse_transpose_2_TransposeD' back to TransposeD 't2'
// REMARK:     remark: ge-autofuse @main: kernels 4 -> 3,
