// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_pre_outanchor_can_reuse (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc);
// docs/ge/notask.md #16.
// Graph: C5 as #13 (NC1HWC0, NCHW, {1, 32, 16, 16}, {1, 2, 16, 16, 16}, DT_FLOAT16), concat_dim = 1;
// conv2d1's output desc has can_reused_for_concat_optimize = false (already locked).
// Our IR has one SSA value per edge: the conv outputs carry the concat input descs GE's test sets
// (origin NCHW, storage `fmt`, dtype). GE's RefData (origin {1, 2, 4, 5}) cannot make a convolution
// that produces those shapes; the filters here are K x C x 1 x 1 so that ge.Conv2D verifies (the
// pass never looks at them: RefData only feeds the conv). Data/RefData indices are 0..3 (our graphs
// need distinct indices; GE's test gives 0 and 1 twice).
// Expected: not marked; conv2d2 stays unlocked, conv2d1 keeps its lock.
// Deciding rule: IsPreOutAnchorCanReuse at input 0 (the direct producer's output is locked).

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: input 0: {{.*}}(IsPreOutAnchorCanReuse){{$}}
// REMARK-NOT: remark:
