// RUN: ge-opt %s -p 'ge-dropout-pass{remarks=true},ge-stop-gradient-pass{remarks=true},ge-prevent-gradient-pass{remarks=true},ge-snapshot-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
// RUN: ge-run %s | filecheck %s --check-prefix=SIM

// dropout_pass.cc / stop_gradient_pass.cc / prevent_gradient_pass.cc / snapshot_pass.cc:
// each deletes its one type with IsolateAndDeleteNode(node, {0}): the consumers read the
// input. A chain of all four, one read twice, one before NetOutput, a 0-d and an int one,
// and a subgraph's (each pass runs on every graph). ge-run compiles with ge-compile, which
// starts with them: nothing of these reaches task generation.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %n = ge.Data {index = 1} : tensor<i32>
  %d = ge.Dropout(%x) {dropout_ratio = 0.5 : f32} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %s = ge.StopGradient(%d) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %p = ge.PreventGradient(%s) {message = "no grad"} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %q = ge.Snapshot(%p) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %a = ge.Add(%q, %q) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %k = ge.Snapshot(%n) : (tensor<i32>) -> tensor<i32>
  %c = ge.PartitionedCall(%a) {f = @sub} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %c, %k : tensor<4x8xf16>, tensor<i32>
}
ge.graph @sub {
  %y = ge.Data {index = 0} : tensor<4x8xf16>
  %r = ge.Relu(%y) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %t = ge.StopGradient(%r) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %t : tensor<4x8xf16>
}

// CHECK:      ge.graph @main {
// CHECK-NEXT:   %x = ge.Data {index = 0}
// CHECK-NEXT:   %n = ge.Data {index = 1}
// CHECK-NEXT:   %a = ge.Add(%x, %x)
// CHECK-NEXT:   %c = ge.PartitionedCall(%a) {f = @sub}
// CHECK-NEXT:   ge.NetOutput %c, %n :
// CHECK:      ge.graph @sub {
// CHECK-NEXT:   %y = ge.Data {index = 0}
// CHECK-NEXT:   %r = ge.Relu(%y)
// CHECK-NEXT:   ge.NetOutput %r :

// REMARK:      remove_training_nodes.mlir:14:3: remark: ge-dropout-pass: Dropout 'd' removed (DropOutPass: IsolateAndDeleteNode, io_map 0 -> 0)
// REMARK-NEXT: remove_training_nodes.mlir:15:3: remark: ge-stop-gradient-pass: StopGradient 's' removed (StopGradientPass: IsolateAndDeleteNode, io_map 0 -> 0)
// REMARK-NEXT: remove_training_nodes.mlir:26:3: remark: ge-stop-gradient-pass: StopGradient 't' removed (StopGradientPass: IsolateAndDeleteNode, io_map 0 -> 0)
// REMARK-NEXT: remove_training_nodes.mlir:16:3: remark: ge-prevent-gradient-pass: PreventGradient 'p' removed (PreventGradientPass: IsolateAndDeleteNode, io_map 0 -> 0)
// REMARK-NEXT: remove_training_nodes.mlir:17:3: remark: ge-snapshot-pass: Snapshot 'q' removed (SnapshotPass: IsolateAndDeleteNode, io_map 0 -> 0)
// REMARK-NEXT: remove_training_nodes.mlir:19:3: remark: ge-snapshot-pass: Snapshot 'k' removed (SnapshotPass: IsolateAndDeleteNode, io_map 0 -> 0)

// SIM: outputs match the reference
