// RUN: ge-opt %s -p 'ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// identity_pass.cc: CheckIdentityUsable looks at the first consumer only: the
// GetOutDataNodes loop breaks at the first node that is not a Merge. (GE's order is the
// order the edges were made; here the consumers' order in the graph.) An Identity read
// first by a Relu and then by a PartitionedCall goes; read first by the PartitionedCall
// and then by a Relu it stays. The same in a subgraph, with its NetOutput second.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %e = ge.Exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %late = ge.Identity(%e) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = ge.Relu(%late) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y, %y2 = ge.PartitionedCall(%late) {f = @sub} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %early = ge.Identity(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = ge.PartitionedCall(%early) {f = @sub2} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = ge.Tanh(%early) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %r, %z, %t, %y2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %n = ge.Neg(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = ge.Identity(%n) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = ge.Abs(%o) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %m, %o : tensor<4x8xf32>, tensor<4x8xf32>
}

ge.graph @sub2 {
  %a = ge.Data {index = 0} : tensor<4x8xf32>
  %n = ge.Neg(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %n : tensor<4x8xf32>
}

// CHECK:      %e = ge.Exp(%x)
// CHECK-NEXT: %r = ge.Relu(%e)
// CHECK-NEXT: %y, %y2 = ge.PartitionedCall(%e) {f = @sub}
// CHECK-NEXT: %early = ge.Identity(%y)
// CHECK:      ge.graph @sub {
// CHECK:        %n = ge.Neg(%a)
// CHECK-NEXT:   %m = ge.Abs(%n)
// CHECK-NEXT:   ge.NetOutput %m, %n :

// REMARK:      identity_first_consumer.mlir:13:3: remark: ge-identity-pass: Identity 'late' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_first_consumer.mlir:16:3: remark: ge-identity-pass: Identity 'early' kept: its input comes from PartitionedCall 'y', a node with a subgraph (CheckIdentityUsable)
// REMARK-NEXT: identity_first_consumer.mlir:25:3: remark: ge-identity-pass: Identity 'o' removed (IsolateAndDeleteNode)
