// RUN: ge-opt %s -p ge-compile | filecheck %s
// RUN: ge-run %s | filecheck %s --check-prefix=OUT
// RUN: ge-run %s --streams 2 --executions 2 | filecheck %s --check-prefix=OUT
// RUN: ge-opt %s --print-op-generic | ge-opt -p ge-compile | filecheck %s

// Numeric SSA names (issue 17 case 6): every node is nameless, so GE's parser names them
// `<type>_<index>`, one index over the nameless nodes (onnx_parser.cc:
// UpdateNodeNameAndOpType). Before, all of them were named by their type and the two
// Data tensors were both "Data:0" ("tensor name declared twice").

ge.graph @main {
  %0 = ge.Data {index = 0} : tensor<2x3xf32>
  %1 = ge.Data {index = 1} : tensor<2x3xf32>
  %2 = ge.Add(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  ge.NetOutput %2 : tensor<2x3xf32>
}

// CHECK:     npu.tensor "Data_0:0" at #npu.addr<input:0, 0, 24> {node = "Data_0", type = "Data"}
// CHECK:     npu.tensor "Data_1:0" at #npu.addr<input:1, 0, 24> {node = "Data_1", type = "Data"}
// CHECK:     npu.tensor "Add_2:0" at #npu.addr<output:0, 0, 24> {node = "Add_2", type = "Add"}
// CHECK:     npu.kernel @add_0 ins("Data_0:0" at #npu.addr<input:0, 0, 24>, "Data_1:0" at #npu.addr<input:1, 0, 24>) outs("Add_2:0" at #npu.addr<output:0, 0, 24>) {node = "Add_2"}

// OUT:      output 0 Add_2:0: shape 2x3 float32
// OUT-NEXT: outputs match the reference
