// RUN: ge-opt %s --split-input-file -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.nullptr_check (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #26. GE calls helpers only;
// each is tested here through the pass, in a graph where exactly that rule decides.
// Our IR has one SSA value per edge: the conv outputs carry the concat input descs GE's test sets
// (origin NCHW, storage `fmt`, dtype). GE's RefData (origin {1, 2, 4, 5}) cannot make a convolution
// that produces those shapes; the filters here are K x C x 1 x 1 so that ge.Conv2D verifies (the
// pass never looks at them: RefData only feeds the conv). Data/RefData indices are 0..3 (our graphs
// need distinct indices; GE's test gives 0 and 1 twice).
//
// Case 1 (@single_input): CheckTensorAlign(C1 concat with runtime shape {2}) == true: a single-
// input concat skips the 32-byte rule. C1 = BuildTrainGraphConcatOneInput: data1, refdata1 ->
// conv2d1 -> concat (1 input), concat_dim 1. As in #24 the {2} runtime shape is written as NCHW
// (origin = storage) {1, 2, 1, 1} fp16: 4 B, not a multiple of 32. Every other rule passes
// (NCHW->NCHW on C, runtime N = 1, align 1), so the concat is marked and conv2d1:0 locked.
// Case 2: CheckTensorAlign(C5 with DT_UNDEFINED) == false (GetSizeByDataType < 0): not buildable,
// every element type our dialect accepts has a GE dtype with a positive size (ge_dialect/dtypes.py).
// Case 3 (@graph_unknown_flag): IsOwnerGraphUnknown(C5 node) is false (case 1 and #13 are marked),
// and true after SetGraphUnknownFlag(true): the C5 graph of #13 with _graph_unknown_flag = true
// is not marked.
// Case 4 (@dynamic_shape_partitioned): C1 graph with _dynamic_shape_partitioned = true:
// IsOwnerGraphUnknown is true, not marked.

ge.graph @single_input {
  %data1 = ge.Data {index = 0} : tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1) {concat_dim = 1} : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @single_input
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1) {concat_dim = 1, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :

// REMARK:      remark: ConcatD 'concat' marked no-task; locked producers: conv2d1:0{{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(IsOwnerGraphUnknown){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(IsOwnerGraphUnknown){{$}}
// REMARK-NOT: remark:

// -----

ge.graph @graph_unknown_flag attributes {_graph_unknown_flag = true} {
  %data1 = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @graph_unknown_flag
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :

// -----

ge.graph @dynamic_shape_partitioned attributes {_dynamic_shape_partitioned = true} {
  %data1 = ge.Data {index = 0} : tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<2x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1) {concat_dim = 1} : (tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x2x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @dynamic_shape_partitioned
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1) {concat_dim = 1} :
