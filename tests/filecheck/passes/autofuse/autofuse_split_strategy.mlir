// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=split split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// The split strategy's rules beyond GE's UTs (ge-lower-autofuse split-lowering=split, the
// real decider); each case's CHECKs fail when its rule is removed.

// Low fusion ratio (backend_utils.cpp CanFuseByStrategy: a complete split -- IsSplitComplete,
// all 5 StoreSplit pieces fused back -- whose IsSplitLowFusionRatio is at most
// kSplitLowFusionRatioThreshold 0.2 is refused): of the 5 outputs only the one read by Abs
// has a consumer that CanFuseByStrategyPro accepts: 1/5 = 0.2, not > 0.2. Abs stays apart.
ge.graph @low_ratio {
  %x = ge.Data {index = 0} : tensor<4x40xf32>
  %a, %b, %c, %d, %e = ge.SplitD(%x) {split_dim = 1, num_split = 5} : (tensor<4x40xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Abs(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y, %b, %c, %d, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: ge.graph @low_ratio
// CHECK:       %a, %b, %c, %d, %e = ge.AscBackend(%x) {{{.*}}origin_nodes = ["a", "a", "a", "a", "a"]
// CHECK:       %y = ge.AscBackend(%a)
// REMARK:      'autofuse_3_SplitD_SplitD_SplitD_SplitD_SplitD' and 'autofuse_pointwise_5_Abs' not fused: 1 of the split's 5 outputs can fuse: ratio 0.2 <= 0.2 [NF1050] [SplitLowFuseRatio]

// -----

// The same with 4 outputs: 1/4 = 0.25 > 0.2 (SATISFIED): Abs fuses into the split.
ge.graph @ratio_ok {
  %x = ge.Data {index = 0} : tensor<4x32xf32>
  %a, %b, %c, %d = ge.SplitD(%x) {split_dim = 1, num_split = 4} : (tensor<4x32xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Abs(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y, %b, %c, %d : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: ge.graph @ratio_ok
// CHECK:       %b, %c, %d, %y = ge.AscBackend(%x) {{{.*}}origin_nodes = ["a", "a", "a", "a", "y"]
// CHECK-NOT:   ge.AscBackend
// REMARK-NOT:  SplitLowFuseRatio
// REMARK:      remark: ge-autofuse @ratio_ok: kernels 5 -> 1,

// -----

// split -> a Reshape that only squeezes size-1 dims, whose consumers cannot fuse (here only
// NetOutput): refused (split_fusion_strategy.cpp CheckSplitReshapeFusion). The Squeeze of
// the other piece is inlined into its Abs (a pointwise kernel), which does fuse.
ge.graph @squeeze {
  %x = ge.Data {index = 0} : tensor<2x4x8xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<2x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %sa = ge.Squeeze(%a) {axis = [0]} : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %sb = ge.Squeeze(%b) {axis = [0]} : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %y = ge.Abs(%sb) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %sa, %y : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: ge.graph @squeeze
// CHECK:       %a, %y = ge.AscBackend(%x) {{{.*}}origin_nodes = ["a", "a", "sb", "y"]
// CHECK:       %sa = ge.AscBackend(%a) {name = "autofuse_reshape_{{[0-9]+}}_Squeeze"
// REMARK:      not fused: the reshape only squeezes size-1 dims and none of its consumers can fuse [SplitCanNotFuseReshapeSqueeze]
// REMARK:      remark: ge-autofuse @squeeze: kernels 4 -> 2,

// -----

// The same squeeze with a consumer that can fuse (a pointwise AscBackend; two readers
// realize the Squeeze as its own reshape kernel): CanReshapeNextNodeFuse -> allowed.
ge.graph @squeeze_next_fuses {
  %x = ge.Data {index = 0} : tensor<2x4x8xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<2x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %sa = ge.Squeeze(%a) {axis = [0]} : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %y = ge.Abs(%sa) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %sa, %y, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<1x4x8xf32>
}
// CHECK-LABEL: ge.graph @squeeze_next_fuses
// CHECK:       %b, %sa, %y = ge.AscBackend(%x) {{{.*}}origin_nodes = ["a", "a", "sa", "y"]
// CHECK-NOT:   ge.AscBackend
// REMARK-NOT:  SplitCanNotFuseReshapeSqueeze
