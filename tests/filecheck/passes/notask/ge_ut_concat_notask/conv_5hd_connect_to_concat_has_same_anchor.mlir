// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_has_same_anchor (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #17.
// Graph: SA = BuildRefDataWithStroageFormatTrainGraphSameAnchor(NC1HWC0, NCHW, {1, 32, 16, 16}, ""):
// data1, refdata1 -> conv2d1 -> reshape (RESHAPE 1->1) -> concat input 0, and conv2d1 -> concat
// input 1; data2, refdata2 -> conv2d2 (dangling, as in GE). concat_dim = 1.
// Every conv/reshape/concat desc is NCHW origin and format, and the concat inputs keep GE's DSL
// default shape {1, 1, 224, 224} and DT_FLOAT; so conv2d1's output is NCHW {1, 1, 224, 224} f32
// (data {1, 1, 224, 224}, filter {1, 1, 1, 1} so that ge.Conv2D verifies).
// Expected: not marked; nothing locked.
// Deciding rule: HasSameSourceAnchor at input 1: input 0 traces through the Reshape (a ref node,
// output 0 refs input 0) to conv2d1:0, input 1 is conv2d1:0 itself. Input 0 passes everything
// (1*1*224*224*4 = 200704 B, a multiple of 32); without this rule the concat would be marked
// (conv2d1:0's two consumers include no NetOutput; NCHW->NCHW, runtime N = 1).

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<1x1x1x1xf32, #ge.desc<NCHW, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<1x1x1x1xf32, #ge.desc<NCHW, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>, tensor<1x1x1x1xf32, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>, tensor<1x1x1x1xf32, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
  %reshape = ge.Reshape(%conv2d1) : (tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
  %concat = ge.ConcatD(%reshape, %conv2d1) {concat_dim = 1} : (tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>, tensor<1x1x224x224xf32, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x2x224x224xf32, #ge.desc<NCHW, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %reshape = ge.Reshape(%conv2d1) :
// CHECK-NEXT: %concat = ge.ConcatD(%reshape, %conv2d1) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: input 1: {{.*}}(HasSameSourceAnchor){{$}}
// REMARK-NOT: remark:
