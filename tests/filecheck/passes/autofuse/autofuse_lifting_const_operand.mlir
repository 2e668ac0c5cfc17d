// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// liftings.cpp LiftingOneNodeAscBackendOp: a lone GatherV2 kernel has one compute op and
// is not fused, so it goes back to the GE GatherV2. The lowering folded the GatherV2's
// Const axis into the kernel (LowerGather reads it as a constant), so the kernel's origin
// region carries a copy of the Const; lifting reconnects the restored GatherV2 to the
// graph's own %axis (same name, same value), not to a second Const.

ge.graph @main {
  %table = ge.Data {index = 0} : tensor<16x8xf32>
  %ids = ge.Data {index = 1} : tensor<2x3xi32>
  %axis = ge.Const {value = dense<1> : tensor<1xi32>} : tensor<1xi32>
  %e = ge.GatherV2(%table, %ids, %axis) : (tensor<16x8xf32>, tensor<2x3xi32>, tensor<1xi32>) -> tensor<16x2x3xf32>
  ge.NetOutput %e : tensor<16x2x3xf32>
}

// CHECK:      %axis = ge.Const {value = dense<1> : tensor<1xi32>} : tensor<1xi32>
// CHECK-NEXT: %e = ge.GatherV2(%table, %ids, %axis)
// CHECK-NOT:  ge.Const
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %e

// REMARK: remark: ge-autofuse: lifted 'autofuse_gather_0_GatherV2' back to GatherV2 'e' (fewer than 2 compute ops, not fused)
// REMARK: (0 fusions in 1 rounds, 0 unfolded, 1 lifted)
