// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.non_pack_node_skip (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: data_1 (ND fp16 {256, 12288}) -> relu_1 -> concat (ConcatD, 1 input), the graph output.
// Expected: the ConcatD is not touched and no remark is printed: PackNotaskPass's IsTargetOp
// accepts only type "Pack".
// If it were processed with Pack's rules it would be marked (single input; axis attr absent = 0,
// no dim check; ND), so this test fails when the target-type check is removed. stdout and stderr
// share one stream here (stderr alone would be empty, which filecheck rejects).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<256x12288xf16>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<256x12288xf16>) -> tensor<256x12288xf16>
  %concat = ge.ConcatD(%relu1) : (tensor<256x12288xf16>) -> tensor<256x12288xf16>
  ge.NetOutput %concat : tensor<256x12288xf16>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1"} :
// CHECK-NEXT: %concat = ge.ConcatD(%relu1) :
// REMARK-NOT: remark:
// REMARK:     %concat = ge.ConcatD(%relu1) :
// REMARK-NOT: remark:
