// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_pre_node_continuous_output_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: BuildPackGraph(ND, ND, {2048, 12288}, {2048, 12288}), axis = 0; relu_1 has continuous_output = true.
// Expected: not marked; nothing locked.
// Deciding rule: IsPreNodeAttrValid at input 0 (the direct predecessor relu_1). Input 0's earlier
// rules pass: 100663296 B, source relu_1:0 of type Relu, no subgraph, no lock, one consumer.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1", continuous_output = true} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %pack = ge.Pack(%relu1, %relu2) {axis = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<2x2048x12288xf32>
  ge.NetOutput %pack : tensor<2x2048x12288xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1", continuous_output = true} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: input 0: {{.*}}(IsPreNodeAttrValid){{$}}
// REMARK-NOT: remark:
