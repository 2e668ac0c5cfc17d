// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.allgather_connect_to_concat_reshape (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #2.
// Graph: GR = BuildStroageFormatTrainGraphReshape(ND, ND, {2048, 12288}, {2048, 12288}):
// data_1 -> HcomAllGather_1 -> reshape (RESHAPE, InCnt 2) -> concat input 0;
// data_2 -> HcomAllGather_2 -> concat input 1. concat_dim = 0.
// GE leaves reshape's input 1 unconnected; here it is a ge.Const shape, which no rule looks at.
// Our IR has one SSA value per edge: each tensor carries the shape/format GE's test sets on the
// concat input desc (ND, {2048, 12288}, GE's DSL default dtype DT_FLOAT = f32). The Data nodes take
// the type their consumer's shape rule needs (GE: ND fp16 {256, 12288}, which no rule reads).
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: marked. HasSameSourceAnchor / IsPreNodeTypeValid trace input 0 through the Reshape
// (GraphUtils::IsRefFromInput: Reshape output 0 refs input 0) to HcomAllGather_1:0, a valid type;
// the lock (SetNotaskAttr) goes on the DIRECT producer of each input: reshape:0 and
// HcomAllGather_2:0. HcomAllGather_1 itself stays unlocked.
// Deciding rule: none fails (as #1).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<256x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<256x12288xf32>
  %HcomAllGather1 = ge.HcomAllGather(%data1) {name = "HcomAllGather_1", rank_size = 8} : (tensor<256x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.HcomAllGather(%data2) {name = "HcomAllGather_2", rank_size = 8} : (tensor<256x12288xf32>) -> tensor<2048x12288xf32>
  %shape = ge.Const {value = dense<[2048, 12288]> : tensor<2xi64>} : tensor<2xi64>
  %reshape = ge.Reshape(%HcomAllGather1, %shape) : (tensor<2048x12288xf32>, tensor<2xi64>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%reshape, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %concat : tensor<4096x12288xf32>
}

// CHECK:      %HcomAllGather1 = ge.HcomAllGather(%data1) {name = "HcomAllGather_1", rank_size = 8} :
// CHECK-NEXT: %HcomAllGather2 = ge.HcomAllGather(%data2) {name = "HcomAllGather_2", rank_size = 8, can_reused_for_concat_optimize = [false]} :
// CHECK:      %reshape = ge.Reshape(%HcomAllGather1, %shape) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%reshape, %HcomAllGather2) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
// REMARK:     remark: ConcatD 'concat' marked no-task; locked producers: reshape:0, HcomAllGather_2:0{{$}}
// REMARK-NOT: remark:
