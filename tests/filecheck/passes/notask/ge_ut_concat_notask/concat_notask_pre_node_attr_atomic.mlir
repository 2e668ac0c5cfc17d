// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.concat_notask_pre_node_attr_atomic (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #9.
// Graph: G2 = BuildStroageFormatTrainGraph2(ND, ND, {2048, 12288}, {2048, 12288}); concat_dim = 0;
// HcomAllGather_2 has atomic_output_index = [0]. (GE also sets engine names, which no rule reads.)
// Our IR has one SSA value per edge: each tensor carries the shape/format GE's test sets on the
// concat input desc (ND, {2048, 12288}, GE's DSL default dtype DT_FLOAT = f32). The Data nodes take
// the type their consumer's shape rule needs (GE: ND fp16 {256, 12288}, which no rule reads).
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: not marked; both predecessors stay unlocked.
// Deciding rule: IsPreNodeAttrValid: the direct predecessor of input 1 has atomic outputs.

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2", atomic_output_index = [0]} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %concat : tensor<4096x12288xf32>
}

// CHECK:      %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} :
// CHECK-NEXT: %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2", atomic_output_index = [0]} :
// CHECK-NEXT: %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} :
// REMARK:     remark: ConcatD 'concat' not marked: input 1: {{.*}}(IsPreNodeAttrValid){{$}}
// REMARK-NOT: remark:
