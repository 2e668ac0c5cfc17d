// RUN: ge-opt %s --split-input-file -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_pre_tensor_locked_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Case 1 (@main, GE's graph): BuildPackGraph(ND, ND, {2048, 12288}, {2048, 12288}), axis = 0; relu_1's
// output has can_reused_for_pack_optimize = false.
// Expected: not marked; relu_2 stays unlocked. Deciding rule: IsPreOutAnchorCanReuse at input 0.
// Case 2 (@concat_lock, added): relu_1's output carries the CONCAT lock instead,
// can_reused_for_concat_optimize = false. Pack and Concat use different lock attributes
// (docs/ge/notask.md), so the Pack pass ignores it: marked, and relu_1 gets the Pack lock next
// to the Concat one; relu_2 is locked too.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1", can_reused_for_pack_optimize = [false]} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %pack = ge.Pack(%relu1, %relu2) {axis = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<2x2048x12288xf32>
  ge.NetOutput %pack : tensor<2x2048x12288xf32>
}

// CHECK-LABEL: ge.graph @main
// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1", can_reused_for_pack_optimize = [false]} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 0} :

// REMARK:      remark: Pack 'pack' not marked: input 0: {{.*}}(IsPreOutAnchorCanReuse){{$}}
// REMARK-NEXT: remark: Pack 'pack' marked no-task; locked producers: relu_1:0, relu_2:0{{$}}
// REMARK-NOT:  remark:

// -----

ge.graph @concat_lock {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1", can_reused_for_concat_optimize = [false]} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %pack = ge.Pack(%relu1, %relu2) {axis = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<2x2048x12288xf32>
  ge.NetOutput %pack : tensor<2x2048x12288xf32>
}

// CHECK-LABEL: ge.graph @concat_lock
// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1", can_reused_for_concat_optimize = [false], can_reused_for_pack_optimize = [false]} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2", can_reused_for_pack_optimize = [false]} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
