// RUN: not ge-opt %s -p ge-concat-notask --remarks 2>&1 | filecheck %s

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_dim_minus10 (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #21.
// Graph: C5 as #13 (NC1HWC0, NCHW, {1, 32, 16, 16}, {1, 2, 16, 16, 16}, DT_FLOAT16), concat_dim = -10.
// GE: CheckDim computes -10 + 4 = -6, its GE_ASSERT 0 <= dim < rank fails, the node is not marked.
// In our IR this graph never reaches the pass: the ge.ConcatD verifier rejects a concat_dim outside
// [-rank, rank-1] (ge_dialect/ge.py ConcatBase.axis / normalize_axis), exactly the range CheckDim
// asserts, so the node is reported as a located error and nothing is marked.
// (Consequence: for verified IR, CheckDim's range assertion cannot fail; see the report.)

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = -10} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK: conv_5hd_connect_to_concat_dim_minus10.mlir:{{[0-9]+}}:3: error: ge.ConcatD: concat_dim -10 is out of range for rank 4 (valid: [-4, 3])
// CHECK-NOT: _no_task
// CHECK-NOT: Traceback
