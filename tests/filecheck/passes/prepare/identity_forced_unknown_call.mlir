// RUN: ge-opt %s -p 'ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// node_utils.cc: NodeUtils::IsSubgraphInput / IsSubgraphOutput: a subgraph whose parent
// node is forced unknown (`_is_unknown_shape = true`) has no subgraph inputs or outputs
// when the parent's own graph is unknown or is the root graph, so CheckIdentityUsable
// does not keep the Identities next to its Data and NetOutput. @inner's parent is forced
// unknown too, but sits in @mid, a known subgraph with a parent: its Identities stay;
// @mid2 has the unknown flag, so @inner2's go.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.PartitionedCall(%x) {f = @top, _is_unknown_shape = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = ge.PartitionedCall(%y) {f = @mid} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %w = ge.PartitionedCall(%z) {f = @mid2} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %w : tensor<4x8xf32>
}

ge.graph @top {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %top_in = ge.Identity(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = ge.Neg(%top_in) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %top_out = ge.Identity(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %top_out : tensor<4x8xf32>
}

ge.graph @mid {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %c = ge.PartitionedCall(%a) {f = @inner, _is_unknown_shape = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %c : tensor<4x8xf32>
}

ge.graph @inner {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %inner_in = ge.Identity(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = ge.Exp(%inner_in) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %e : tensor<4x8xf32>
}

ge.graph @mid2 attributes {_graph_unknown_flag = true} {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %c = ge.PartitionedCall(%a) {f = @inner2, _is_unknown_shape = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %c : tensor<4x8xf32>
}

ge.graph @inner2 {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %inner2_in = ge.Identity(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = ge.Exp(%inner2_in) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %e : tensor<4x8xf32>
}

// CHECK:      ge.graph @top {
// CHECK-NEXT:   %a = ge.Data {index = 0}
// CHECK-NEXT:   %n = ge.Neg(%a)
// CHECK-NEXT:   ge.NetOutput %n :
// CHECK:      ge.graph @inner {
// CHECK-NEXT:   %a = ge.Data {index = 0}
// CHECK-NEXT:   %inner_in = ge.Identity(%a)
// CHECK:      ge.graph @inner2 {
// CHECK-NEXT:   %a = ge.Data {index = 0}
// CHECK-NEXT:   %e = ge.Exp(%a)

// REMARK-DAG: identity_forced_unknown_call.mlir:21:3: remark: ge-identity-pass: Identity 'top_in' removed (IsolateAndDeleteNode)
// REMARK-DAG: identity_forced_unknown_call.mlir:23:3: remark: ge-identity-pass: Identity 'top_out' removed (IsolateAndDeleteNode)
// REMARK-DAG: identity_forced_unknown_call.mlir:35:3: remark: ge-identity-pass: Identity 'inner_in' kept: its input is subgraph input Data 'a'
// REMARK-DAG: identity_forced_unknown_call.mlir:48:3: remark: ge-identity-pass: Identity 'inner2_in' removed (IsolateAndDeleteNode)
