// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 | filecheck %s

// GE test: UtestConcatNotaskPass.scalar_input_check (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #28.
// GE graph: data_1 ({6} fp16) -> relu1 -> concat input 0; data_2 ({} fp16) -> relu2 -> concat
// input 1; concat -> NetOutput; the concat's input 0 origin shape is then set to {} and input 1's
// to {100}, concat_dim = 0. GE expects IsScalarInput(0) == true, IsScalarInput(1) == false and
// InputCheck == false (rule IsScalarInput: origin rank 0).
// In our IR an origin shape is the value's type, so input 0 is a scalar f16 tensor and input 1 a
// {100} tensor. GE's ConcatD infer (concatv2d.cc: InferShape4ConcatV2Common) counts the scalar
// input 0 as shape [1], so the output is {101}: the graph verifies and InputCheck's first rule,
// IsScalarInput, rejects the concat at input 0.

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<f16>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<100xf16>
  %relu1 = ge.Relu(%data1) : (tensor<f16>) -> tensor<f16>
  %relu2 = ge.Relu(%data2) : (tensor<100xf16>) -> tensor<100xf16>
  %concat = ge.ConcatD(%relu1, %relu2) {concat_dim = 0} : (tensor<f16>, tensor<100xf16>) -> tensor<101xf16>
  ge.NetOutput %concat : tensor<101xf16>
}

// CHECK: scalar_input_check.mlir:[[# @LINE - 4]]:3: remark: ConcatD 'concat' not marked: input 0: is a scalar (origin rank 0) (IsScalarInput)
// CHECK-NOT: _no_task
// CHECK-NOT: Traceback

// A second graph in the same module.

// IsScalarInput(1): input 0 (96 fp16 = 192 bytes) passes IsScalarInput and CheckTensorAlign;
// the scalar input 1 (shape [1] in GE's infer: 96 + 1 + 1 = 98) is the first rejection.
ge.graph @second {
  %data1 = ge.Data {index = 0} : tensor<96xf16>
  %data2 = ge.Data {index = 1} : tensor<f16>
  %relu1 = ge.Relu(%data1) : (tensor<96xf16>) -> tensor<96xf16>
  %relu2 = ge.Relu(%data2) : (tensor<f16>) -> tensor<f16>
  %exp2 = ge.Exp(%data2) : (tensor<f16>) -> tensor<f16>
  %concat = ge.ConcatV2D(%relu1, %relu2, %exp2) {concat_dim = -1} : (tensor<96xf16>, tensor<f16>, tensor<f16>) -> tensor<98xf16>
  ge.NetOutput %concat : tensor<98xf16>
}

// CHECK: scalar_input_check.mlir:[[# @LINE - 4]]:3: remark: ConcatV2D 'concat' not marked: input 1: is a scalar (origin rank 0) (IsScalarInput)
// CHECK-NOT: _no_task
// CHECK-NOT: Traceback
