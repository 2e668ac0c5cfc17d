// RUN: not ge-opt %s -p ge-concat-notask --remarks 2>&1 | filecheck %s

// GE test: UtestConcatNotaskPass.scalar_input_check (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); ge_notask.md §4 #28.
// GE graph: data_1 ({6} fp16) -> relu1 -> concat input 0; data_2 ({} fp16) -> relu2 -> concat
// input 1; concat -> NetOutput; the concat's input 0 origin shape is then set to {} and input 1's
// to {100}, concat_dim = 0. GE expects IsScalarInput(0) == true, IsScalarInput(1) == false and
// InputCheck == false (rule IsScalarInput: origin rank 0).
// In our IR an origin shape is the value's type, so input 0 is a scalar f16 tensor and input 1 a
// {100} tensor. Such a ConcatD never reaches the pass: the ge.ConcatD verifier rejects a rank-0
// input 0 (ge_dialect/ge.py ConcatBase.axis), a located error, nothing marked. For a ConcatD,
// IsScalarInput can therefore not decide on verified IR; the rule is exercised through the shared
// NotaskPassBase chain by ge_ut_pack_notask/pack_scalar_input_fail.mlir (ge.Pack accepts scalars).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<f16>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<100xf16>
  %relu1 = ge.Relu(%data1) : (tensor<f16>) -> tensor<f16>
  %relu2 = ge.Relu(%data2) : (tensor<100xf16>) -> tensor<100xf16>
  %concat = ge.ConcatD(%relu1, %relu2) {concat_dim = 0} : (tensor<f16>, tensor<100xf16>) -> tensor<101xf16>
  ge.NetOutput %concat : tensor<101xf16>
}

// CHECK: scalar_input_check.mlir:{{[0-9]+}}:3: error: ge.ConcatD: ConcatD cannot concatenate scalars (input 0 has rank 0)
// CHECK-NOT: _no_task
// CHECK-NOT: Traceback
