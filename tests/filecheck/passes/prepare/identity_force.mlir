// RUN: ge-opt %s -p 'ge-identity-pass{force=true remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
// RUN: ge-opt %s -p 'ge-identity-pass' | filecheck %s --check-prefix=NOFORCE

// identity_pass.h: IdentityPass(bool force); identity_pass.cc: IdentityPass::Run skips
// CheckIdentityUsable when force_ is set: every Identity goes, also the ones the default
// pass keeps (an attribute, a subgraph's Data or NetOutput, a PartitionedCall).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %k = ge.Identity(%x) {_is_inserted_by_cann = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = ge.PartitionedCall(%k) {f = @sub} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y : tensor<4x8xf32>
}

ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %in = ge.Identity(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %in : tensor<4x8xf32>
}

// CHECK:      %x = ge.Data {index = 0}
// CHECK-NEXT: %y = ge.PartitionedCall(%x) {f = @sub}
// CHECK:      %a = ge.Data {index = 0}
// CHECK-NEXT: ge.NetOutput %a :
// CHECK-NOT:  ge.Identity

// REMARK:      identity_force.mlir:11:3: remark: ge-identity-pass: Identity 'k' removed (force) (IsolateAndDeleteNode)
// REMARK-NEXT: identity_force.mlir:18:3: remark: ge-identity-pass: Identity 'in' removed (force) (IsolateAndDeleteNode)

// NOFORCE: %k = ge.Identity(%x)
// NOFORCE: %in = ge.Identity(%a)
