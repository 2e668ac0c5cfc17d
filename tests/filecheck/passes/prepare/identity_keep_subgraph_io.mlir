// RUN: ge-opt %s -p 'ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// identity_pass.cc: CheckIdentityUsable keeps an Identity near a subgraph's entrance or
// exit: its input is a Data of a subgraph (NodeUtils::IsSubgraphInput: the Data's graph
// has a parent node, here a graph some PartitionedCall calls), or its first consumer is a
// subgraph's NetOutput (NodeUtils::IsSubgraphOutput). The same Identities in the root
// graph, which has no parent node, are deleted.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %rx = ge.Identity(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = ge.Exp(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %re = ge.Identity(%e) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %re, %rx : tensor<4x8xf32>, tensor<4x8xf32>
}

ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %in = ge.Identity(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = ge.Neg(%in) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %mid = ge.Identity(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = ge.Abs(%mid) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %out = ge.Identity(%m) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %out : tensor<4x8xf32>
}

// CHECK:      ge.graph @main {
// CHECK-NEXT:   %x = ge.Data {index = 0}
// CHECK-NEXT:   %y = ge.PartitionedCall(%x) {f = @sub}
// CHECK-NEXT:   %e = ge.Exp(%y)
// CHECK-NEXT:   ge.NetOutput %e, %x :
// CHECK:      ge.graph @sub {
// CHECK-NEXT:   %a = ge.Data {index = 0}
// CHECK-NEXT:   %in = ge.Identity(%a)
// CHECK-NEXT:   %n = ge.Neg(%in)
// CHECK-NEXT:   %m = ge.Abs(%n)
// CHECK-NEXT:   %out = ge.Identity(%m)
// CHECK-NEXT:   ge.NetOutput %out :

// REMARK:      identity_keep_subgraph_io.mlir:12:3: remark: ge-identity-pass: Identity 'rx' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_keep_subgraph_io.mlir:15:3: remark: ge-identity-pass: Identity 're' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_keep_subgraph_io.mlir:21:3: remark: ge-identity-pass: Identity 'in' kept: its input is subgraph input Data 'a' (near the subgraph's entrance) (CheckIdentityUsable)
// REMARK-NEXT: identity_keep_subgraph_io.mlir:23:3: remark: ge-identity-pass: Identity 'mid' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_keep_subgraph_io.mlir:25:3: remark: ge-identity-pass: Identity 'out' kept: its first consumer is the subgraph's NetOutput (near the subgraph's output) (CheckIdentityUsable)
