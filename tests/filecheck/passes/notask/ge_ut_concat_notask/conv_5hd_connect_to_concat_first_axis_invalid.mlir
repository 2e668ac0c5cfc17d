// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_first_axis_invalid (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #23.
// GE graph: C5(NC1HWC0, NCHW, {1, 32, 16, 16}, {2, 2, 16, 16, 16}, DT_FLOAT16), concat_dim = 1.
// Our descs derive the runtime shape from the origin shape, so the origin here is {2, 32, 16, 16},
// whose NC1HWC0 runtime shape is GE's {2, ceil(32/16) = 2, 16, 16, 16}.
// Our IR has one SSA value per edge: the conv outputs carry the concat input descs GE's test sets
// (origin NCHW, storage `fmt`, dtype). GE's RefData (origin {1, 2, 4, 5}) cannot make a convolution
// that produces those shapes; the filters here are K x C x 1 x 1 so that ge.Conv2D verifies (the
// pass never looks at them: RefData only feeds the conv). Data/RefData indices are 0..3 (our graphs
// need distinct indices; GE's test gives 0 and 1 twice).
// Expected: not marked; nothing locked.
// Deciding rule: CheckRealDim (front-dims rule): real_dim = s2d[1][0] = 1 (C1) and runtime dim 0
// (N) = 2 != 1. Earlier rules pass: 2*2*16*16*16*2 B = 32768 B; the alignment rule would pass too
// (32 % 16 = 0), so only the front-dims rule rejects.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<2x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<2x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<2x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<2x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<2x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: {{.*}}(CheckRealDim){{$}}
// REMARK-NOT: remark:
