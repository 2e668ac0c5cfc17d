// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_dim_minus3 (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #20.
// Graph: C5 as #13 (NC1HWC0, NCHW, {1, 32, 16, 16}, {1, 2, 16, 16, 16}, DT_FLOAT16), concat_dim = -3.
// Our IR has one SSA value per edge: the conv outputs carry the concat input descs GE's test sets
// (origin NCHW, storage `fmt`, dtype). GE's RefData (origin {1, 2, 4, 5}) cannot make a convolution
// that produces those shapes; the filters here are K x C x 1 x 1 so that ge.Conv2D verifies (the
// pass never looks at them: RefData only feeds the conv). Data/RefData indices are 0..3 (our graphs
// need distinct indices; GE's test gives 0 and 1 twice).
// Expected: marked; conv2d1:0 and conv2d2:0 locked; concat_dim stays -3 on the node (CheckDim
// normalises a local copy).
// Deciding rule: none fails. CheckDim: -3 + rank 4 = 1, then as #13:
// NCHW->NC1HWC0 fp16, C0 = 16: origin {1, 32, 16, 16} -> runtime {1, ceil(32/16) = 2, 16, 16, 16}.
// Per input: 1*2*16*16*16 = 8192 elements * 2 B = 16384 B, 16384 % 32 = 0 (CheckTensorAlign).
// CheckDim: s2d[1] = [1, 4], real_dim = 1 (C1); runtime dim 0 (N) = 1 (front-dims rule);
// d2s[1] = [1] is not a merged axis; align = [1, 16, 1, 1], 32 % 16 = 0 (CheckDimAlignment).

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x32x16x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = -3} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = -3, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
// REMARK:     remark: ConcatD 'concat' marked no-task; locked producers: conv2d1:0, conv2d2:0{{$}}
// REMARK-NOT: remark:
