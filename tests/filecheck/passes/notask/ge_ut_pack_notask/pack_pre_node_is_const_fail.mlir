// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_pre_node_is_const_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: const_1, const_2 (type CONSTANT = "Constant", ND fp16 {2048, 12288}) feed the pack
// directly; axis = 0. ge.Constant needs a value: a zero splat.
// Expected: not marked.
// Deciding rule: IsPreNodeTypeValid at input 0 (the source is a Constant).

ge.graph @main {
  %const1 = ge.Constant {name = "const_1", value = dense<0.000000e+00> : tensor<2048x12288xf16>} : tensor<2048x12288xf16>
  %const2 = ge.Constant {name = "const_2", value = dense<0.000000e+00> : tensor<2048x12288xf16>} : tensor<2048x12288xf16>
  %pack = ge.Pack(%const1, %const2) {axis = 0} : (tensor<2048x12288xf16>, tensor<2048x12288xf16>) -> tensor<2x2048x12288xf16>
  ge.NetOutput %pack : tensor<2x2048x12288xf16>
}

// CHECK:      %const1 = ge.Constant {name = "const_1", value = dense<0.000000e+00> : tensor<2048x12288xf16>} :
// CHECK-NEXT: %const2 = ge.Constant {name = "const_2", value = dense<0.000000e+00> : tensor<2048x12288xf16>} :
// CHECK-NEXT: %pack = ge.Pack(%const1, %const2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: input 0: {{.*}}(IsPreNodeTypeValid){{$}}
// REMARK-NOT: remark:
