// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_pre_node_is_variable_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: var_1, var_2 (Variable, ND fp16 {2048, 12288}) feed the pack directly; axis = 0.
// 50331648 B per input, aligned.
// Expected: not marked.
// Deciding rule: IsPreNodeTypeValid at input 0 (the source is a Variable).

ge.graph @main {
  %var1 = ge.Variable {name = "var_1"} : tensor<2048x12288xf16>
  %var2 = ge.Variable {name = "var_2"} : tensor<2048x12288xf16>
  %pack = ge.Pack(%var1, %var2) {axis = 0} : (tensor<2048x12288xf16>, tensor<2048x12288xf16>) -> tensor<2x2048x12288xf16>
  ge.NetOutput %pack : tensor<2x2048x12288xf16>
}

// CHECK:      %var1 = ge.Variable {name = "var_1"} :
// CHECK-NEXT: %var2 = ge.Variable {name = "var_2"} :
// CHECK-NEXT: %pack = ge.Pack(%var1, %var2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: input 0: {{.*}}(IsPreNodeTypeValid){{$}}
// REMARK-NOT: remark:
