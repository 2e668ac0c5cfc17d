// PackNotaskPass (docs/ge/notask.md): Pack's own rules (target, lock attribute, CheckFormat,
// CheckDim with axis + rank + 1) each with a marked twin. The shared chain is tested rule
// by rule in concat_notask_rules.mlir; a few cases here show Pack runs it too.
// RUN: ge-opt %s --split-input-file -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// --- axis 0: no dimension check (pack_axis0_nd_success) -------------------------------

ge.graph @axis0 {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk0 = ge.Pack(%a, %b) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  ge.NetOutput %pk0 : tensor<2x4x16xf16>
}
// CHECK-LABEL: ge.graph @axis0
// CHECK: %a = ge.Relu(%x) {can_reused_for_pack_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %b = ge.Abs(%x) {can_reused_for_pack_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %pk0 = ge.Pack(%a, %b) {axis = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
// REMARK: remark: Pack 'pk0' marked no-task; locked producers: a:0, b:0

// -----

// --- axis 1 (CheckDimForInput): runtime dim 0 in front must be 1
// (pack_axis1_dim0_is1_success / pack_axis1_dim0_not1_fail); -2 on rank 2 is axis 1
// (pack_negative_axis_not_rank_success) ---------------------------------------------

ge.graph @axis1 {
  %x = ge.Data {index = 0} : tensor<1x16xf16>
  %a = ge.Relu(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %b = ge.Abs(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %pk1 = ge.Pack(%a, %b) {axis = 1} : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x2x16xf16>
  %c = ge.Neg(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %d = ge.Exp(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %pk_neg = ge.Pack(%c, %d) {axis = -2} : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x2x16xf16>
  %y = ge.Data {index = 1} : tensor<4x16xf16>
  %e = ge.Relu(%y) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %f = ge.Abs(%y) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk_front = ge.Pack(%e, %f) {axis = 1} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x2x16xf16>
  ge.NetOutput %pk1, %pk_neg, %pk_front : tensor<1x2x16xf16>, tensor<1x2x16xf16>, tensor<4x2x16xf16>
}
// CHECK-LABEL: ge.graph @axis1
// CHECK: %pk1 = ge.Pack(%a, %b) {axis = 1, _no_task = true,
// CHECK: %pk_neg = ge.Pack(%c, %d) {axis = -2, _no_task = true,
// CHECK: %pk_front = ge.Pack(%e, %f) {axis = 1} :
// REMARK: remark: Pack 'pk1' marked no-task; locked producers: a:0, b:0
// REMARK: remark: Pack 'pk_neg' marked no-task; locked producers: c:0, d:0
// REMARK: remark: Pack 'pk_front' not marked: input 0: runtime dim 0 of [4, 16] is 4; the dims in front of storage axis 1 (origin axis 1) must be 1 (CheckRealDim)

// -----

// --- axis == rank: every origin dim must be 1 (pack_axis_equal_rank_all_ones_success,
// pack_axis_equal_rank_fail, pack_negative_axis_equal_rank_fail: -1 on rank 2 is 2) ---

ge.graph @axis_rank {
  %x = ge.Data {index = 0} : tensor<1x1x1xf16>
  %a = ge.Relu(%x) : (tensor<1x1x1xf16>) -> tensor<1x1x1xf16>
  %ones = ge.Pack(%a) {axis = 3} : (tensor<1x1x1xf16>) -> tensor<1x1x1x1xf16>
  %y = ge.Data {index = 1} : tensor<1x16xf16>
  %b = ge.Relu(%y) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %c = ge.Abs(%y) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %at_rank = ge.Pack(%b, %c) {axis = 2} : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x16x2xf16>
  %d = ge.Neg(%y) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %e = ge.Exp(%y) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %neg_rank = ge.Pack(%d, %e) {axis = -1} : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x16x2xf16>
  ge.NetOutput %ones, %at_rank, %neg_rank : tensor<1x1x1x1xf16>, tensor<1x16x2xf16>, tensor<1x16x2xf16>
}
// CHECK-LABEL: ge.graph @axis_rank
// CHECK: %ones = ge.Pack(%a) {axis = 3, _no_task = true,
// CHECK: %at_rank = ge.Pack(%b, %c) {axis = 2} :
// CHECK: %neg_rank = ge.Pack(%d, %e) {axis = -1} :
// REMARK: remark: Pack 'ones' marked no-task; locked producers: a:0
// REMARK: remark: Pack 'at_rank' not marked: input 0: axis 2 equals the rank, so every origin dim must be 1, got [1, 16] (CheckDim)
// REMARK: remark: Pack 'neg_rank' not marked: input 0: axis -1 (normalised to 2) equals the rank, so every origin dim must be 1, got [1, 16] (CheckDim)

// -----

// --- CheckFormat: internal storage formats are rejected unless FRACTAL_NZ (also with C0);
// public formats pass (pack_format_* cases) ------------------------------------------

ge.graph @formats {
  %x = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %a = ge.Relu(%x) : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %b = ge.Abs(%x) : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %pk_5hd = ge.Pack(%a, %b) {axis = 0} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x1x32x16x16xf16>
  %y = ge.Data {index = 1} : tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %c = ge.Relu(%y) : (tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %d = ge.Abs(%y) : (tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %pk_fz = ge.Pack(%c, %d) {axis = 0} : (tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<2x1x1x16x16xf16>
  %z = ge.Data {index = 2} : tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>
  %e = ge.Relu(%z) : (tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>
  %f = ge.Abs(%z) : (tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>
  %pk_nz = ge.Pack(%e, %f) {axis = 0} : (tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>, tensor<1x2048xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<2x1x2048xf16>
  %w = ge.Data {index = 3} : tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>
  %g = ge.Relu(%w) : (tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>) -> tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>
  %h = ge.Abs(%w) : (tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>) -> tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>
  %pk_nz_c0 = ge.Pack(%g, %h) {axis = 0} : (tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>, tensor<1x2048xf16, #ge.desc<FRACTAL_NZ_C0_16>>) -> tensor<2x1x2048xf16>
  %v = ge.Data {index = 4} : tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>
  %i = ge.Relu(%v) : (tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>) -> tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>
  %j = ge.Abs(%v) : (tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>) -> tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>
  %pk_nhwc = ge.Pack(%i, %j) {axis = 0} : (tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>, tensor<1x2x2x16xf16, #ge.desc<NHWC, origin = NHWC>>) -> tensor<2x1x2x2x16xf16>
  ge.NetOutput %pk_5hd, %pk_fz, %pk_nz, %pk_nz_c0, %pk_nhwc : tensor<2x1x32x16x16xf16>, tensor<2x1x1x16x16xf16>, tensor<2x1x2048xf16>, tensor<2x1x2048xf16>, tensor<2x1x2x2x16xf16>
}
// CHECK-LABEL: ge.graph @formats
// CHECK: %pk_5hd = ge.Pack(%a, %b) {axis = 0} :
// CHECK: %pk_fz = ge.Pack(%c, %d) {axis = 0} :
// CHECK: %pk_nz = ge.Pack(%e, %f) {axis = 0, _no_task = true,
// CHECK: %pk_nz_c0 = ge.Pack(%g, %h) {axis = 0, _no_task = true,
// CHECK: %pk_nhwc = ge.Pack(%i, %j) {axis = 0, _no_task = true,
// REMARK: remark: Pack 'pk_5hd' not marked: input 0: storage format NC1HWC0 is an internal format other than FRACTAL_NZ (CheckFormat)
// REMARK: remark: Pack 'pk_fz' not marked: input 0: storage format FRACTAL_Z is an internal format other than FRACTAL_NZ (CheckFormat)
// REMARK: remark: Pack 'pk_nz' marked no-task; locked producers: e:0, f:0
// REMARK: remark: Pack 'pk_nz_c0' marked no-task; locked producers: g:0, h:0
// REMARK: remark: Pack 'pk_nhwc' marked no-task; locked producers: i:0, j:0

// -----

// --- FRACTAL_NZ on the last axis: n must be a multiple of C0 (pack_fractal_nz_padding_mismatch_fail)

ge.graph @nz_padding {
  %x = ge.Data {index = 0} : tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>
  %a = ge.Relu(%x) : (tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>
  %b = ge.Abs(%x) : (tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>
  %pk30 = ge.Pack(%a, %b) {axis = 1} : (tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>, tensor<1x30xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x2x30xf16>
  %y = ge.Data {index = 1} : tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>
  %c = ge.Relu(%y) : (tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>
  %d = ge.Abs(%y) : (tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>
  %pk32 = ge.Pack(%c, %d) {axis = 1} : (tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>, tensor<1x32xf16, #ge.desc<FRACTAL_NZ>>) -> tensor<1x2x32xf16>
  ge.NetOutput %pk30, %pk32 : tensor<1x2x30xf16>, tensor<1x2x32xf16>
}
// CHECK-LABEL: ge.graph @nz_padding
// CHECK: %pk30 = ge.Pack(%a, %b) {axis = 1} :
// CHECK: %pk32 = ge.Pack(%c, %d) {axis = 1, _no_task = true,
// REMARK: remark: Pack 'pk30' not marked: input 0: origin dim 1 (30) is not a multiple of 16: the storage format pads it (CheckDimAlignment)
// REMARK: remark: Pack 'pk32' marked no-task; locked producers: c:0, d:0

// -----

// --- IsScalarInput (for ConcatD see ge_ut_concat_notask/scalar_input_check): a single
// scalar piece is rejected, a single 1-D piece is marked (pack_scalar_input_fail) -------

ge.graph @scalar {
  %x = ge.Data {index = 0} : tensor<f16>
  %a = ge.Relu(%x) : (tensor<f16>) -> tensor<f16>
  %pk_scalar = ge.Pack(%a) {axis = 0} : (tensor<f16>) -> tensor<1xf16>
  %y = ge.Data {index = 1} : tensor<16xf16>
  %b = ge.Relu(%y) : (tensor<16xf16>) -> tensor<16xf16>
  %pk_vector = ge.Pack(%b) {axis = 0} : (tensor<16xf16>) -> tensor<1x16xf16>
  ge.NetOutput %pk_scalar, %pk_vector : tensor<1xf16>, tensor<1x16xf16>
}
// CHECK-LABEL: ge.graph @scalar
// CHECK: %pk_scalar = ge.Pack(%a) {axis = 0} :
// CHECK: %pk_vector = ge.Pack(%b) {axis = 0, _no_task = true,
// REMARK: remark: Pack 'pk_scalar' not marked: input 0: is a scalar (origin rank 0) (IsScalarInput)
// REMARK: remark: Pack 'pk_vector' marked no-task; locked producers: b:0

// -----

// --- The Pack lock: can_reused_for_pack_optimize blocks a Pack, the concat lock does not;
// a shared producer goes to the first Pack (pack_pre_tensor_locked_fail) --------------

ge.graph @locks {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {can_reused_for_pack_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk_locked = ge.Pack(%a, %b) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  %c = ge.Neg(%x) {can_reused_for_concat_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %d = ge.Exp(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk_concat_locked = ge.Pack(%c, %d) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  %e = ge.Sigmoid(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk_second = ge.Pack(%e, %d) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  ge.NetOutput %pk_locked, %pk_concat_locked, %pk_second : tensor<2x4x16xf16>, tensor<2x4x16xf16>, tensor<2x4x16xf16>
}
// CHECK-LABEL: ge.graph @locks
// CHECK: %pk_locked = ge.Pack(%a, %b) {axis = 0} :
// CHECK: %c = ge.Neg(%x) {can_reused_for_concat_optimize = [false], can_reused_for_pack_optimize = [false]} :
// CHECK: %d = ge.Exp(%x) {can_reused_for_pack_optimize = [false]} :
// CHECK: %pk_concat_locked = ge.Pack(%c, %d) {axis = 0, _no_task = true,
// CHECK: %pk_second = ge.Pack(%e, %d) {axis = 0} :
// REMARK: remark: Pack 'pk_locked' not marked: input 0: output 'a':0 is already locked by another no-task node (can_reused_for_pack_optimize = false) (IsPreOutAnchorCanReuse)
// REMARK: remark: Pack 'pk_concat_locked' marked no-task; locked producers: c:0, d:0
// REMARK: remark: Pack 'pk_second' not marked: input 1: output 'd':0 is already locked by another no-task node (can_reused_for_pack_optimize = false) (IsPreOutAnchorCanReuse)

// -----

// --- The shared chain runs for Pack: a Data producer, and an LxFusion name ------------

ge.graph @shared_chain {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk_data = ge.Pack(%a, %x) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c = ge.Neg(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pack_lxslice = ge.Pack(%b, %c) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  ge.NetOutput %pk_data, %pack_lxslice : tensor<2x4x16xf16>, tensor<2x4x16xf16>
}
// CHECK-LABEL: ge.graph @shared_chain
// CHECK: %pk_data = ge.Pack(%a, %x) {axis = 0} :
// CHECK: %pack_lxslice = ge.Pack(%b, %c) {axis = 0} :
// REMARK: remark: Pack 'pk_data' not marked: input 1: producer 'x' is a Data node (IsPreNodeTypeValid)
// REMARK: remark: Pack 'pack_lxslice' not marked: its name contains 'lxslice' (an LxFusion op) (LxFusionCheck)

// -----

// --- Targets: exactly Pack; ConcatD is left to ge-concat-notask -----------------------

ge.graph @targets {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %cc = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %cc : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @targets
// CHECK: %cc = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK-NOT: ConcatD
