// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_same_source_anchor_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: data_1 -> relu_1; relu_1:0 feeds both pack inputs (ND {2048, 12288}); axis = 0.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: not marked; nothing locked.
// Deciding rule: HasSameSourceAnchor at input 1 (its source relu_1:0 is input 0's).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %pack = ge.Pack(%relu1, %relu1) {axis = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<2x2048x12288xf32>
  ge.NetOutput %pack : tensor<2x2048x12288xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu1) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: input 1: {{.*}}(HasSameSourceAnchor){{$}}
// REMARK-NOT: remark:
