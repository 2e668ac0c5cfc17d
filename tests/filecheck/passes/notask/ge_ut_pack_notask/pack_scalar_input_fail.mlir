// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_scalar_input_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: data_k -> relu_k -> pack input k-1, the relu outputs and pack inputs are ND scalars
// (origin and runtime shape {}); axis = 0. GE's data nodes are {1} fp16; Relu's shape rule needs
// its input to be a scalar too here. Pack of two scalars is a {2} tensor.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: not marked; nothing locked.
// Deciding rule: IsScalarInput at input 0 (origin rank 0), the first check of InputCheck.

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<f32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<f32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<f32>) -> tensor<f32>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<f32>) -> tensor<f32>
  %pack = ge.Pack(%relu1, %relu2) {axis = 0} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  ge.NetOutput %pack : tensor<2xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1"} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: input 0: {{.*}}(IsScalarInput){{$}}
// REMARK-NOT: remark:
