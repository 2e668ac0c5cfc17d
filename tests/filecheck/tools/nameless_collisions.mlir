// RUN: ge-opt %s -p ge-identity-pass | filecheck %s
// RUN: ge-opt %s -p 'ge-identity-pass,ge-assign-memory,ge-to-npu' | filecheck %s --check-prefix=NPU
// RUN: ge-opt %s -p 'ge-lower-autofuse' | filecheck %s --check-prefix=FUSE
// RUN: ge-run %s | filecheck %s --check-prefix=OUT
// RUN: ge-run %s --streams 2 | filecheck %s --check-prefix=OUT
// RUN: ge-opt %s -p ge-lower-autofuse --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Mixed numeric and named values whose names collide once GE's suffixes are added. The
// nameless nodes are numbered 0, 1, 2, 3 in order (onnx_parser.cc:
// UpdateNodeNameAndOpType); a name another node already has gets `_0`, `_1`, ...
// (graph_to_function_def.cc: NameMapHelper::GetUniqueName): nameless #1 would be Add_1,
// which %Add_1 has; nameless #2 would be Add_2, which %Add_2 (further down) has; the
// NetOutput node keeps its type, so %NetOutput becomes NetOutput_0.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %0 = ge.Data {index = 1} : tensor<2x3xf32>
  %Add_1 = ge.Add(%x, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ge.Add(%x, %Add_1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = ge.Add(%1, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %Add_2 = ge.Mul(%2, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %NetOutput = ge.Relu(%Add_2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ge.Sub(%NetOutput, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = ge.ConcatD(%3, %Add_1) {concat_dim = 0} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  ge.NetOutput %c, %Add_1 : tensor<4x3xf32>, tensor<2x3xf32>
}

// CHECK:      %x = ge.Data {index = 0}
// CHECK-NEXT: %Data_0 = ge.Data {index = 1}
// CHECK-NEXT: %Add_1 = ge.Add(%x, %Data_0)
// CHECK-NEXT: %Add_1_0 = ge.Add(%x, %Add_1)
// CHECK-NEXT: %Add_2_0 = ge.Add(%Add_1_0, %Data_0)
// CHECK-NEXT: %Add_2 = ge.Mul(%Add_2_0, %x)
// CHECK-NEXT: %NetOutput_0 = ge.Relu(%Add_2)
// CHECK-NEXT: %Sub_3 = ge.Sub(%NetOutput_0, %Add_1_0)
// CHECK-NEXT: %c = ge.ConcatD(%Sub_3, %Add_1)
// CHECK-NEXT: ge.NetOutput %c, %Add_1

// NPU-DAG: npu.tensor "x:0" at #npu.addr<input:0, {{.*}}{node = "x", type = "Data"}
// NPU-DAG: npu.tensor "Data_0:0" at #npu.addr<input:1, {{.*}}{node = "Data_0", type = "Data"}
// NPU-DAG: npu.tensor "Add_1:0" at {{.*}}{node = "Add_1", type = "Add"}
// NPU-DAG: npu.tensor "Add_1_0:0" at {{.*}}{node = "Add_1_0", type = "Add"}
// NPU-DAG: npu.tensor "Add_2_0:0" at {{.*}}{node = "Add_2_0", type = "Add"}
// NPU-DAG: npu.tensor "Add_2:0" at {{.*}}{node = "Add_2", type = "Mul"}
// NPU-DAG: npu.tensor "NetOutput_0:0" at {{.*}}{node = "NetOutput_0", type = "Relu"}
// NPU-DAG: npu.tensor "Sub_3:0" at {{.*}}{node = "Sub_3", type = "Sub"}

// The AscBackend lowering names its origin nodes by the same names.
// FUSE: origin_nodes = ["Add_1"]
// FUSE: origin_nodes = ["Add_1_0"]
// FUSE: origin_nodes = ["Add_2_0", "Add_2", "NetOutput_0", "Sub_3"]

// OUT:      output 0 c:0: shape 4x3 float32
// OUT-NEXT: output 1 Add_1:0: shape 2x3 float32
// OUT-NEXT: outputs match the reference

// Remarks name the nodes the same way.
// REMARK:      nameless_collisions.mlir:18:3: remark: Add 'Add_1': lowered
// REMARK-NEXT: nameless_collisions.mlir:19:3: remark: Add 'Add_1_0': lowered
// REMARK-NEXT: nameless_collisions.mlir:20:3: remark: Add 'Add_2_0': lowered
// REMARK-NEXT: nameless_collisions.mlir:21:3: remark: Mul 'Add_2': lowered
// REMARK-NEXT: nameless_collisions.mlir:22:3: remark: Relu 'NetOutput_0': lowered
// REMARK-NEXT: nameless_collisions.mlir:23:3: remark: Sub 'Sub_3': lowered
