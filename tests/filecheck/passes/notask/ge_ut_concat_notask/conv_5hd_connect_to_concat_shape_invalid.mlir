// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_shape_invalid (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #24.
// GE graph: C5(NC1HWC0, NCHW, {1, 32, 16, 16}, {2}, DT_FLOAT16), concat_dim = 1: runtime shape {2},
// 2 elements * 2 B = 4 B.
// Our descs derive the runtime shape from the origin shape ({2} cannot be an NC1HWC0 storage
// shape of {1, 32, 16, 16}), so the same rule decides on an NCHW (origin = storage) fp16 tensor of
// the same 2 elements: {1, 2, 1, 1}: 2 * 2 B = 4 B, 4 % 32 != 0. Filter {2, 2, 1, 1}.
// Expected: not marked; nothing locked.
// Deciding rule: CheckTensorAlign at input 0. Without it the concat would be marked (NCHW->NCHW on
// C, runtime N = 1, align 1).

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x4x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x4x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: input 0: {{.*}}(CheckTensorAlign){{$}}
// REMARK-NOT: remark:
