// RUN: ge-opt %s -p ge-compile | filecheck %s
// The npu model prints and parses back (round trip):
// RUN: ge-opt %s -p ge-compile > %t.mlir
// RUN: ge-opt %t.mlir | filecheck %s
// RUN: ge-run %s --executions 2 | filecheck %s --check-prefix=SIM
// RUN: ge-opt %s -p ge-cond-pass,ge-subgraph-pass,ge-label-allocator --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REM
// A Case in a known-shape graph on the static path: LabelAllocator gives it a label per
// branch and a leave label (CaseOpLabelMaker); ge-to-npu lays the tasks out as the maker
// does: the switch on the branch index at branch 0's head, each branch after its LabelSet,
// all but the last jumping to the leave label. Both branches write the Case's output
// buffer (HandleSubgraphOutput); the pass-through branch copies its Data there
// (SubgraphPass: Data -> NetOutput, parent not a While).

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

// CHECK: npu.tensor "y:0" at #npu.addr<fm, [[Y:[0-9]+]], 16> {node = "y", type = "Case"}
// CHECK: npu.stream 0 {
// CHECK-NEXT: npu.label_switch_by_index ins("k:0" at #npu.addr<weight, 0, 4>) outs("y:0" at #npu.addr<fm, [[Y]], 16>) labels [0 : i64, 1 : i64] {node = "y"}
// CHECK-NEXT: npu.label_set 0 {node = "y"}
// CHECK-NEXT: npu.kernel @{{.*}} ins("y/neg/a:0" at #npu.addr<input:0, 0, 16>) outs("y:0" at #npu.addr<fm, [[Y]], 16>) {node = "y/neg/n"}
// CHECK-NEXT: npu.label_goto 2 {node = "y"}
// CHECK-NEXT: npu.label_set 1 {node = "y"}
// CHECK-NEXT: npu.memcpy ins("y/id/a:0" at #npu.addr<input:0, 0, 16>) outs("y:0" at #npu.addr<fm, [[Y]], 16>) {node = "y/id/NetOutput_input_0_Memcpy"}
// CHECK-NEXT: npu.label_set 2 {node = "y"}

// SIM: simulator: 9 tasks on 1 stream(s) (end_graph 1, label_set 2, label_switch_by_index 1, memcpy 2), 1 kernels
// SIM: outputs match the reference
// REM: remark: ge-subgraph-pass: inserted Identity 'NetOutput_input_0_Memcpy' (MemcpyAsync): Data 'a' feeds the subgraph's output 0 and the parent is not a While (its input and output are different buffers) (SubgraphOutputNode)
// REM: remark: ge-label-allocator: Case 'y': 3 labels (branch-0-enter 0, branch-1-enter 1, leave 2) (CaseOpLabelMaker)
