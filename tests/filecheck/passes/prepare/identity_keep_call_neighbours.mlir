// RUN: ge-opt %s -p 'ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// identity_pass.cc: CheckIdentityUsable keeps an Identity next to a node with a subgraph
// (OpDesc::GetSubgraphInstanceNames() not empty: a PartitionedCall), on either side: its
// input comes from one, or its first consumer is one. An Identity between two plain
// nodes goes, even when a PartitionedCall is two hops away.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %r = ge.Relu(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %to = ge.Identity(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = ge.PartitionedCall(%to) {f = @sub} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %from = ge.Identity(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %far = ge.Identity(%from) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = ge.Exp(%far) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %e : tensor<4x8xf32>
}

ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %n = ge.Neg(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %n : tensor<4x8xf32>
}

// CHECK:      %r = ge.Relu(%x)
// CHECK-NEXT: %to = ge.Identity(%r)
// CHECK-NEXT: %y = ge.PartitionedCall(%to) {f = @sub}
// CHECK-NEXT: %from = ge.Identity(%y)
// CHECK-NEXT: %e = ge.Exp(%from)

// REMARK:      identity_keep_call_neighbours.mlir:12:3: remark: ge-identity-pass: Identity 'to' kept: its first consumer is PartitionedCall 'y', a node with a subgraph (CheckIdentityUsable)
// REMARK-NEXT: identity_keep_call_neighbours.mlir:14:3: remark: ge-identity-pass: Identity 'from' kept: its input comes from PartitionedCall 'y', a node with a subgraph (CheckIdentityUsable)
// REMARK-NEXT: identity_keep_call_neighbours.mlir:15:3: remark: ge-identity-pass: Identity 'far' removed (IsolateAndDeleteNode)
