// RUN: ge-opt %s --split-input-file -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.allgather_connect_to_concat_unknownop (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #12.
// Graph: GO = BuildTrainGraphOutputInvalid(ND, ND, {2048, 12288}, {2048, 12288}) (RELU predecessors both
// fed from data_1; concat -> reshape -> relu_1), concat_dim = 0; three Runs, one case each:
// (a) @unknown_input: concat input 0 has an unknown dim. GE writes {4096, -1}; here {2048, -1}
//     (= tensor<2048x?xf32>) so that Relu's shape rule (output = input shape) verifies.
// (b) @unknown_output: inputs static, concat output {4096, -1} (tensor<4096x?xf32>).
// (c) @unknown_graph: all shapes static, the graph's GraphUnknownFlag set (our graph attribute
//     _graph_unknown_flag = true, ge_dialect/attrs.py GRAPH_UNKNOWN_FLAG).
// Our IR has one SSA value per edge: each tensor carries the shape/format GE's test sets on the
// concat input desc (ND, {2048, 12288}, GE's DSL default dtype DT_FLOAT = f32). The Data nodes take
// the type their consumer's shape rule needs (GE: ND fp16 {256, 12288}, which no rule reads).
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: not marked in all three; nothing locked.
// Deciding rules: (a), (b) IsUnknownShapeOp (a negative dim in an input / output runtime shape);
// (c) IsOwnerGraphUnknown.

ge.graph @unknown_input {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} : (tensor<2048x12288xf32>) -> tensor<2048x?xf32>
  %HcomAllGather2 = ge.Relu(%data1) {name = "HcomAllGather_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x?xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  %reshape = ge.Reshape(%concat) : (tensor<4096x12288xf32>) -> tensor<4096x12288xf32>
  %relu1 = ge.Relu(%reshape) {name = "relu_1"} : (tensor<4096x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %relu1 : tensor<4096x12288xf32>
}

// CHECK-LABEL: ge.graph @unknown_input
// CHECK:      %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} :
// CHECK-NEXT: %HcomAllGather2 = ge.Relu(%data1) {name = "HcomAllGather_2"} :
// CHECK-NEXT: %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} :

// REMARK:      remark: ConcatD 'concat' not marked: {{.*}}(IsUnknownShapeOp){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(IsUnknownShapeOp){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(IsOwnerGraphUnknown){{$}}
// REMARK-NOT: remark:

// -----

ge.graph @unknown_output {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.Relu(%data1) {name = "HcomAllGather_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x?xf32>
  %reshape = ge.Reshape(%concat) : (tensor<4096x?xf32>) -> tensor<4096x12288xf32>
  %relu1 = ge.Relu(%reshape) {name = "relu_1"} : (tensor<4096x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %relu1 : tensor<4096x12288xf32>
}

// CHECK-LABEL: ge.graph @unknown_output
// CHECK:      %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} :
// CHECK-NEXT: %HcomAllGather2 = ge.Relu(%data1) {name = "HcomAllGather_2"} :
// CHECK-NEXT: %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} :

// -----

ge.graph @unknown_graph attributes {_graph_unknown_flag = true} {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.Relu(%data1) {name = "HcomAllGather_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  %reshape = ge.Reshape(%concat) : (tensor<4096x12288xf32>) -> tensor<4096x12288xf32>
  %relu1 = ge.Relu(%reshape) {name = "relu_1"} : (tensor<4096x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %relu1 : tensor<4096x12288xf32>
}

// CHECK-LABEL: ge.graph @unknown_graph
// CHECK:      %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} :
// CHECK-NEXT: %HcomAllGather2 = ge.Relu(%data1) {name = "HcomAllGather_2"} :
// CHECK-NEXT: %concat = ge.ConcatD(%HcomAllGather1, %HcomAllGather2) {concat_dim = 0} :
