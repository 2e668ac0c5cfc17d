// RUN: ge-opt %s --split-input-file -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.CheckRealConcatDimTest (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #27 (CheckRealConcatDim
// is CheckRealDim since the NotaskPassBase refactor). GE calls CheckRealDim directly with
// align {1, 16, 1, 1}, src {1, 16, 5, 6} and the NCHW->FRACTAL_Z mapping. Here each cell is a C5-like
// graph (data, refdata -> conv2d1/conv2d2 -> concat, fp16) whose concat inputs are NCHW origin,
// FRACTAL_Z storage, so the pass computes the same mapping and CheckRealDim decides:
//   s2d = [[1, 2], [0, 3], [0], [0]] (N -> N1,N0; C -> C1HW,C0; H, W -> C1HW)
//   d2s = [[1, 2, 3], [0], [0], [1]] (C1HW merges C, H, W in that order)
//   align (GetAlignedShape, FULL_SIZE) = [N0 = 16, C0 = 16, 1, 1]  (GE's cells pass align[0] = 1; the
//         merged-axis rule only reads align[C], and CheckDimAlignment reads align[dim])
//   runtime = [ceil(C/16)*H*W, ceil(N/16), 16, 16]
// Our descs derive the runtime shape from the origin shape, so where GE's cell pairs a src with a
// runtime shape it does not produce, the src is chosen to give the cell's runtime shape with the
// same CheckRealDim outcome, and N = 16 where concat_dim = 0 so that CheckDimAlignment (N % 16)
// passes and only CheckRealDim can decide. Bytes are multiples of 512 (16*16*2 B per block).
//
// (a) @cell_a: src {1, 16, 5, 6}, dim 2 (H): runtime {1*5*6 = 30, 1, 16, 16} (GE's). real_dim = s2d[2][0]
//     = 0: no runtime dim before it. d2s[0] = [1, 2, 3] is merged: f = C (1) comes before H; C is
//     split and s2d[1][0] = 0 = real_dim, so require src[C] = 16 <= align[C] = 16: true.
//     CheckRealDim true; CheckDimAlignment 5 % 1 = 0 -> marked.
// (b) @cell_b: src {1, 16, 5, 6}, dim 3 (W): real_dim = 0; merged: C as in (a) passes; f = H (2) is not
//     split, require src[H] = 5 == 1: false. CheckRealDim false -> not marked.
// (c) @cell_c: src {1, 16, 1, 6} (GE: src[2] = 1), dim 3: runtime {1*1*6 = 6, 1, 16, 16}. C: 16 <= 16,
//     H: 1 == 1: true. CheckDimAlignment 6 % 1 = 0 -> marked.
// (d) @cell_d: src {16, 16, 1, 6}, dim 0 (N): runtime {6, 1, 16, 16} (GE's). real_dim = s2d[0][0] = 1
//     (N1); runtime dim 0 = 6 != 1: false (d2s[1] = [0] is not merged). -> not marked.
// (e) @cell_e: src {16, 16, 1, 1} (GE: src[3] = 1), dim 0: runtime {1*1*1 = 1, 1, 16, 16} (GE's).
//     real_dim = 1; runtime dim 0 = 1: true. CheckDimAlignment 16 % 16 = 0 -> marked.
// (f) @cell_f: src {1, 32, 1, 1} (GE: src[1] = 32), dim 3: runtime {ceil(32/16)*1*1 = 2, 1, 16, 16}
//     (GE's). real_dim = 0; merged: f = C is split, s2d[1][0] = 0 = real_dim, require src[C] = 32
//     <= align[C] = 16: false (CheckSplitAxis). H = 1 would pass, and CheckDimAlignment (1 % 1)
//     too, so only the merged-axis rule rejects. -> not marked.

ge.graph @cell_a {
  %data1 = ge.Data {index = 0} : tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 2} : (tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x10x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x16x10x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @cell_a
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 2, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :

// -----

ge.graph @cell_b {
  %data1 = ge.Data {index = 0} : tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x16x5x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 3} : (tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x16x5x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x5x12xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x16x5x12xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @cell_b
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 3} :

// -----

ge.graph @cell_c {
  %data1 = ge.Data {index = 0} : tensor<1x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 3} : (tensor<1x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x16x1x12xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x16x1x12xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @cell_c
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 3, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :

// -----

ge.graph @cell_d {
  %data1 = ge.Data {index = 0} : tensor<16x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<16x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<16x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<16x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<16x16x1x6xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<16x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 0} : (tensor<16x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<16x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<32x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  ge.NetOutput %concat : tensor<32x16x1x6xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @cell_d
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 0} :

// -----

ge.graph @cell_e {
  %data1 = ge.Data {index = 0} : tensor<16x16x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<16x16x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<16x16x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<16x16x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 0} : (tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<16x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<32x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  ge.NetOutput %concat : tensor<32x16x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @cell_e
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :

// -----

ge.graph @cell_f {
  %data1 = ge.Data {index = 0} : tensor<1x32x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata1 = ge.RefData {index = 1} : tensor<32x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %data2 = ge.Data {index = 2} : tensor<1x32x1x1xf16, #ge.desc<NCHW, origin = NCHW>>
  %refdata2 = ge.RefData {index = 3} : tensor<32x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d1 = ge.Conv2D(%data1, %refdata1) : (tensor<1x32x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %conv2d2 = ge.Conv2D(%data2, %refdata2) : (tensor<1x32x1x1xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<32x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 3} : (tensor<1x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x32x1x1xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<1x32x1x2xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  ge.NetOutput %concat : tensor<1x32x1x2xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
}

// CHECK-LABEL: ge.graph @cell_f
// CHECK:      %conv2d1 = ge.Conv2D(%data1, %refdata1) :
// CHECK-NEXT: %conv2d2 = ge.Conv2D(%data2, %refdata2) :
// CHECK-NEXT: %concat = ge.ConcatD(%conv2d1, %conv2d2) {concat_dim = 3} :

// REMARK:      remark: ConcatD 'concat' marked no-task; locked producers: conv2d1:0, conv2d2:0{{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(CheckRealDim){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' marked no-task; locked producers: conv2d1:0, conv2d2:0{{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(CheckRealDim){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' marked no-task; locked producers: conv2d1:0, conv2d2:0{{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: {{.*}}(CheckRealDim){{$}}
// REMARK-NOT:  remark:
