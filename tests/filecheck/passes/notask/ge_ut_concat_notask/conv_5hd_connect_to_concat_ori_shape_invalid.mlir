// RUN: not ge-opt %s --split-input-file -p ge-concat-notask 2>&1 | filecheck %s
// RUN: not ge-opt %s --split-input-file -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.conv_5hd_connect_to_concat_ori_shape_invalid (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #25.
//
// Case 1 (@ori_rank1, GE's graph): C5(NC1HWC0, NCHW, ori {32}, {1, 2, 16, 16, 16}, DT_FLOAT16),
// concat_dim = 1. GE: CheckDim asserts 0 <= 1 < origin rank 1, fails, not marked. Conv2D cannot
// produce a rank-1 tensor, so the producers are Relus named conv2d1/conv2d2 (the pass only looks
// at a few type names, none of them Conv2D). In our IR this graph never reaches the pass: the
// ge.ConcatD verifier rejects concat_dim 1 on rank 1 (the same range CheckDim asserts), a located
// error (printed to stdout by --verify-diagnostics).
//
// Case 2 (@concat2): GE then calls CheckDimAlignment(concat2, align, dim 0, ori {1, 2}) directly:
// align {0, 1} -> false (align 0 fails the assert), align {3, 1} -> false (1 % 3 = 1).
// Through the pass: align values come from the format rules (1, M0/N0 = 16, C0 >= 16 per dtype),
// never 0 or 3, so the align-0 cell cannot be built; the "origin dim not a multiple of its align"
// cell can: a ConcatD named concat2 of two ND {1, 2} fp16 inputs stored as FRACTAL_NZ, on dim 0.
// ND->NZ rank 2: s2d = [[1], [0]], d2s = [[1], [0], [-1], [-1]], align = [M0 = 16, C0 = 16];
// runtime = [ceil(2/16) = 1, ceil(1/16) = 1, 16, 16]: 256 * 2 B = 512 B (aligned).
// CheckRealDim: real_dim = s2d[0][0] = 1; runtime dim 0 = 1; d2s[1] = [0] is not merged -> true.
// CheckDimAlignment: origin[0] = 1, align[0] = 16, 1 % 16 = 1 != 0 -> false.
// Expected: not marked; deciding rule CheckDimAlignment.

ge.graph @ori_rank1 {
  %data1 = ge.Data {index = 0} : tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %data2 = ge.Data {index = 1} : tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d1 = ge.Relu(%data1) : (tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %conv2d2 = ge.Relu(%data2) : (tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 1} : (tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %concat : tensor<32xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK: conv_5hd_connect_to_concat_ori_shape_invalid.mlir:{{[0-9]+}}:3: error: ge.ConcatD: concat_dim 1 is out of range for rank 1 (valid: [-1, 0])

// -----

ge.graph @concat2 {
  %data1 = ge.Data {index = 0} : tensor<1x2xf16>
  %data2 = ge.Data {index = 1} : tensor<1x2xf16>
  %relu1 = ge.Relu(%data1) : (tensor<1x2xf16>) -> tensor<1x2xf16, #ge.desc<FRACTAL_NZ>>
  %relu2 = ge.Relu(%data2) : (tensor<1x2xf16>) -> tensor<1x2xf16, #ge.desc<FRACTAL_NZ>>
  %concat2 = ge.ConcatD(%relu1, %relu2) {concat_dim = 0} : (tensor<1x2xf16, #ge.desc<FRACTAL_NZ>>, tensor<1x2xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<2x2xf16, #ge.desc<FRACTAL_NZ>>
  ge.NetOutput %concat2 : tensor<2x2xf16, #ge.desc<FRACTAL_NZ>>
}

// CHECK-LABEL: ge.graph @concat2
// CHECK:      %relu1 = ge.Relu(%data1) :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) :
// CHECK-NEXT: %concat2 = ge.ConcatD(%relu1, %relu2) {concat_dim = 0} :

// REMARK:     remark: ConcatD 'concat2' not marked: {{.*}}(CheckDimAlignment){{$}}
// REMARK-NOT: remark:
