// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.allgather_connect_to_concat (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #1.
// Graph: G1 = BuildStroageFormatTrainGraph1(ND, ND, {2048, 12288}, {2048, 12288}):
// data_i -> HcomAllGather_i -> concat input i-1; concat is the graph output. concat_dim = 0.
// Our IR has one SSA value per edge: each tensor carries the shape/format GE's test sets on the
// concat input desc (ND, {2048, 12288}, GE's DSL default dtype DT_FLOAT = f32). The Data nodes take
// the type their consumer's shape rule needs (GE: ND fp16 {256, 12288}, which no rule reads).
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// HcomAllGather (rank_size 8) gathers data {256, 12288} into {2048, 12288}.
// Expected: marked; both HcomAllGather output descs locked (can_reused_for_concat_optimize = false).
// Deciding rule: none fails. Per input: origin rank 2 (not scalar); 2048*12288*4 B = 100663296 B,
// a multiple of 32 (CheckTensorAlign); two distinct sources of type HcomAllGather; no lock; one
// consumer each; no attributes; both HBM. CheckDim: ND->ND, concat_dim 0, no runtime dim before
// it, align 1. OutputCheck: NetOutput is not virtual. LxFusionCheck: no mem types, name 'concat'.
// The remark names the concat's own location.

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<256x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<256x12288xf32>
  %HcomAllGather1 = ge.HcomAllGather(%data1) {name = "HcomAllGather_1", rank_size = 8} : (tensor<256x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.HcomAllGather(%data2) {name = "HcomAllGather_2", rank_size = 8} : (tensor<256x12288xf32>) -> tensor<2048x12288xf32>
  // REMARK: allgather_connect_to_concat.mlir:[[# @LINE + 1]]:3: remark: ConcatD 'concat' marked no-task; locked producers: HcomAllGather_1:0, HcomAllGather_2:0{{$}}
  %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %concat : tensor<4096x12288xf32>
}

// CHECK:      %HcomAllGather1 = ge.HcomAllGather(%data1) {name = "HcomAllGather_1", rank_size = 8, can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %HcomAllGather2 = ge.HcomAllGather(%data2) {name = "HcomAllGather_2", rank_size = 8, can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
// REMARK-NOT: remark:
