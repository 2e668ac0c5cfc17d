// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_axis_equal_rank_all_ones_success (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: BuildSingleInputPackGraph(ND, ND, {1, 1, 1}, {1, 1, 1}): data_1 -> relu_1 -> pack (1 input);
// axis = 3 = rank.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: marked; relu_1:0 locked.
// Deciding rule: none fails. CheckTensorAlign: a single-input node skips the 32-byte rule (the
// tensor is 1 element * 4 B = 4 B). CheckDim: axis == rank 3 -> every origin dim must be 1: {1, 1, 1}.

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<1x1x1xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %pack = ge.Pack(%relu1) {axis = 3} : (tensor<1x1x1xf32>) -> tensor<1x1x1x1xf32>
  ge.NetOutput %pack : tensor<1x1x1x1xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1", can_reused_for_pack_optimize = [false]} :
// CHECK-NEXT: %pack = ge.Pack(%relu1) {axis = 3, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
// REMARK:     remark: Pack 'pack' marked no-task; locked producers: relu_1:0{{$}}
// REMARK-NOT: remark:
