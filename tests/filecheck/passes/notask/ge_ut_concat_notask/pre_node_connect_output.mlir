// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.pre_node_connect_output (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #14.
// Graph: C5-O = BuildTrainGraphPreNodeConnectOutput(NC1HWC0, NCHW, {1, 32, 16, 16}, {1, 2, 16, 16, 16},
// DT_FLOAT16): C5, plus conv2d2 output 0 also feeds the NetOutput node "output". concat_dim = 1.
// Our IR has one SSA value per edge: the conv outputs carry the concat input descs GE's test sets
// (origin NCHW, storage `fmt`, dtype). GE's RefData (origin {1, 2, 4, 5}) cannot make a convolution
// that produces those shapes; the filters here are K x C x 1 x 1 so that ge.Conv2D verifies (the
// pass never looks at them: RefData only feeds the conv). Data/RefData indices are 0..3 (our graphs
// need distinct indices; GE's test gives 0 and 1 twice).
// Expected: not marked; nothing locked.
// Deciding rule: IsPreOutAnchorValidMultiRef at input 1: conv2d2:0 has two consumers (concat and
// NetOutput) and one of them is a NetOutput. Input 0 and all shape rules pass as in #13.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat, %conv2d2 {name = "output"} : tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: input 1: {{.*}}(IsPreOutAnchorValidMultiRef){{$}}
// REMARK-NOT: remark:
