// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=split split-lowering=split},ge-autofuse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// Lifting of split kernels (liftings.cpp IsSkipLifting steps 2-3, LowerSplitHelper::NeedLifting
// / CheckFuseOtherNodes): a kernel fused by CanFuse is lifted only when it is a split (has
// a split global id); it goes back to the GE Split when its origin nodes are only the
// Split and it has all the Split's outputs. Each case's CHECKs fail when the rule is
// removed.

// The StoreSplit pieces fuse into the complete split (HIGHEST); the only consumer is
// refused by the low fusion ratio (1/5 <= 0.2); the complete split holds nothing but the
// Split and all 5 outputs: it is lifted back to the SplitD (so is the lone Abs kernel).
ge.graph @complete_split {
  %x = ge.Data {index = 0} : tensor<4x40xf32>
  %a, %b, %c, %d, %e = ge.SplitD(%x) {split_dim = 1, num_split = 5} : (tensor<4x40xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Abs(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y, %b, %c, %d, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: ge.graph @complete_split
// CHECK-NEXT:  %x = ge.Data
// CHECK-NEXT:  %a, %b, %c, %d, %e = ge.SplitD(%x) {split_dim = 1, num_split = 5}
// CHECK-NEXT:  %y = ge.Abs(%a)
// CHECK-NEXT:  ge.NetOutput %y, %b, %c, %d, %e
// REMARK:      lifted 'autofuse_3_SplitD_SplitD_SplitD_SplitD_SplitD' back to SplitD 'a' (all the Split's outputs and nothing else: LowerSplitHelper::NeedLifting)

// -----

// A split that fused other nodes stays a kernel (CheckFuseOtherNodes: an origin node that
// is not a split type).
ge.graph @split_with_consumer {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Abs(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-LABEL: ge.graph @split_with_consumer
// CHECK:       ge.AscBackend(%x) {name = "autofuse_{{[0-9]+}}_SplitD_SplitD_Abs", fuse_type = "split"
// CHECK-NOT:   ge.SplitD
// REMARK:      remark: ge-autofuse @split_with_consumer: kernels 3 -> 1,
