// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_c1_not_align (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #18.
// Graph: C5(NC1HWC0, NCHW, {1, 31, 16, 16}, {1, 2, 16, 16, 16}, DT_FLOAT16), concat_dim = 1.
// Our IR has one SSA value per edge: the conv outputs carry the concat input descs GE's test sets
// (origin NCHW, storage `fmt`, dtype). GE's RefData (origin {1, 2, 4, 5}) cannot make a convolution
// that produces those shapes; the filters here are K x C x 1 x 1 so that ge.Conv2D verifies (the
// pass never looks at them: RefData only feeds the conv). Data/RefData indices are 0..3 (our graphs
// need distinct indices; GE's test gives 0 and 1 twice).
// origin {1, 31, 16, 16} -> runtime {1, ceil(31/16) = 2, 16, 16, 16}, as in GE's test.
// Expected: not marked; nothing locked.
// Deciding rule: CheckDimAlignment: align = [1, C0 = 16, 1, 1], origin C = 31, 31 % 16 = 15 != 0.
// Earlier rules pass: 16384 B per input (multiple of 32); real_dim = C1 = 1, runtime N = 1.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x31x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<31x31x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x31x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<31x31x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x31x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<31x31x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x31x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<31x31x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x62x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x62x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: {{.*}}(CheckDimAlignment){{$}}
// REMARK-NOT: remark:
