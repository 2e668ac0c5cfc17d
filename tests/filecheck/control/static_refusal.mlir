// RUN: not ge-run %s 2>&1 | filecheck %s
// RUN: not ge-opt %s -p ge-compile 2>&1 | filecheck %s
// RUN: ge-run %s --reference | filecheck %s --check-prefix=REF
// Until the label makers are ported, a control-flow node in a graph compiled as a static
// model is refused by ge-label-allocator: one located line naming the node, exit 1, no
// traceback; the reference interpreter runs it.

ge.graph @main {
  %k = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.Case(%k, %x) {branches = [@neg, @id]} : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @neg {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %n = ge.Neg(%a) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %n : tensor<4xf32>
}
ge.graph @id {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// CHECK: static_refusal.mlir:11:3: error: ge.Case: Case on the static path is not supported yet: its label tasks (LabelSet, LabelGoto, LabelSwitchByIndex, StreamActive) are not generated; {{.*}} (CaseOpLabelMaker)
// CHECK-NOT: Traceback
// REF: output 0 y:0: shape 4 float32
