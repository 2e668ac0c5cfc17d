// RUN: ge-opt %s -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_tensor_not_align (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #19.
// GE graph: C5(NC1HWC0, NCHW, {1, 32, 16, 16}, {1, 2, 15, 15, 15}, DT_FLOAT16), concat_dim = 1: the
// runtime shape {1, 2, 15, 15, 15} has 6750 elements * 2 B = 13500 B.
// Our descs derive the runtime shape from the origin shape, and an NC1HWC0 fp16 tensor always has
// a multiple of C0*2 = 32 bytes, so that runtime shape cannot be written with origin {1, 32, 16, 16}.
// The same rule decides on an NCHW (origin = storage) fp16 tensor of the same 6750 elements:
// {1, 30, 15, 15}: 1*30*15*15 = 6750 elements * 2 B = 13500 B; 13500 = 421*32 + 28, not a multiple
// of 32. Data/filter {30, 30, 1, 1} make ge.Conv2D verify.
// Expected: not marked; nothing locked.
// Deciding rule: CheckTensorAlign at input 0 (two inputs, so the single-input exemption does not
// apply). Without it the concat would be marked: NCHW->NCHW concat on C, runtime N = 1, align 1.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<30x30x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<30x30x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<30x30x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<30x30x1x1xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<1x30x15x15xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x60x15x15xf16, #ge.desc<NCHW, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x60x15x15xf16, #ge.desc<NCHW, origin = NCHW>>
}

// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} :
// REMARK:     remark: ConcatD 'concat' not marked: input 0: {{.*}}(CheckTensorAlign){{$}}
// REMARK-NOT: remark:
