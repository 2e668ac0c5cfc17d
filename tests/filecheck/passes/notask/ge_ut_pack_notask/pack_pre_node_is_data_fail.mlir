// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_pre_node_is_data_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: BuildPackGraphWithDataInput(ND, ND, {2048, 12288}, {2048, 12288}): data_1, data_2 (ND fp16)
// feed the pack directly; axis = 0. One SSA value per edge: the pack inputs are the Data outputs,
// fp16: 2048*12288*2 B = 50331648 B, aligned.
// Expected: not marked.
// Deciding rule: IsPreNodeTypeValid at input 0 (the source is a Data node).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf16>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf16>
  %pack = ge.Pack(%data1, %data2) {axis = 0} : (tensor<2048x12288xf16>, tensor<2048x12288xf16>) -> tensor<2x2048x12288xf16>
  ge.NetOutput %pack : tensor<2x2048x12288xf16>
}

// CHECK:      %data1 = ge.Data {name = "data_1", index = 0} :
// CHECK-NEXT: %data2 = ge.Data {name = "data_2", index = 1} :
// CHECK-NEXT: %pack = ge.Pack(%data1, %data2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: input 0: {{.*}}(IsPreNodeTypeValid){{$}}
// REMARK-NOT: remark:
