// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_axis1_dim0_is1_success (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: BuildPackGraph(ND, ND, {1, 12288}, {1, 12288}), axis = 1.
// Expected: marked; relu_1:0, relu_2:0 locked.
// Deciding rule: none fails. 12288*4 B = 49152 B (multiple of 32). CheckDim: 0 < axis 1 < rank 2
// -> CheckDimForInput(1): ND->ND, real_dim = 1, runtime dim 0 = 1 (front-dims rule), align 1.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<1x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<1x12288xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<1x12288xf32>) -> tensor<1x12288xf32>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<1x12288xf32>) -> tensor<1x12288xf32>
  %pack = ge.Pack(%relu1, %relu2) {axis = 1} : (tensor<1x12288xf32>, tensor<1x12288xf32>) -> tensor<1x2x12288xf32>
  ge.NetOutput %pack : tensor<1x2x12288xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1", can_reused_for_pack_optimize = [false]} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2", can_reused_for_pack_optimize = [false]} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 1, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
// REMARK:     remark: Pack 'pack' marked no-task; locked producers: relu_1:0, relu_2:0{{$}}
// REMARK-NOT: remark:
