// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of ConcatD, ConcatV2D, Pack, SplitD, SplitVD, PhonyConcat and PhonySplit,
// including GE's defaults (ConcatD without concat_dim reads 0) and negative axes.

ge.graph @concat {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<4x8xf16>
  %c = ge.ConcatD(%x, %y) {concat_dim = 1, N = 2} : (tensor<4x16xf16>, tensor<4x8xf16>) -> tensor<4x24xf16>
  %d = ge.ConcatD(%x, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %v = ge.ConcatV2D(%y, %x) {concat_dim = -1} : (tensor<4x8xf16>, tensor<4x16xf16>) -> tensor<4x24xf16>
  %p = ge.Pack(%x, %x, %x) {axis = 1, N = 3} : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x3x16xf16>
  %q = ge.Pack(%x, %x) {axis = -1} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16x2xf16>
  %s0, %s1 = ge.SplitD(%c) {split_dim = 1, num_split = 2} : (tensor<4x24xf16>) -> (tensor<4x12xf16>, tensor<4x12xf16>)
  %t0, %t1, %t2 = ge.SplitVD(%v) {size_splits = [8, -1, 4], split_dim = -1, num_split = 3} : (tensor<4x24xf16>) -> (tensor<4x8xf16>, tensor<4x12xf16>, tensor<4x4xf16>)
  ge.NetOutput %d, %p, %q, %s0, %s1, %t0, %t1, %t2 : tensor<8x16xf16>, tensor<4x3x16xf16>, tensor<4x16x2xf16>, tensor<4x12xf16>, tensor<4x12xf16>, tensor<4x8xf16>, tensor<4x12xf16>, tensor<4x4xf16>
}

// CHECK:      ge.graph @concat {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:   %y = ge.Data {index = 1} : tensor<4x8xf16>
// CHECK-NEXT:   %c = ge.ConcatD(%x, %y) {concat_dim = 1, N = 2} : (tensor<4x16xf16>, tensor<4x8xf16>) -> tensor<4x24xf16>
// CHECK-NEXT:   %d = ge.ConcatD(%x, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
// CHECK-NEXT:   %v = ge.ConcatV2D(%y, %x) {concat_dim = -1} : (tensor<4x8xf16>, tensor<4x16xf16>) -> tensor<4x24xf16>
// CHECK-NEXT:   %p = ge.Pack(%x, %x, %x) {axis = 1, N = 3} : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x3x16xf16>
// CHECK-NEXT:   %q = ge.Pack(%x, %x) {axis = -1} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16x2xf16>
// CHECK-NEXT:   %s0, %s1 = ge.SplitD(%c) {split_dim = 1, num_split = 2} : (tensor<4x24xf16>) -> (tensor<4x12xf16>, tensor<4x12xf16>)
// CHECK-NEXT:   %t0, %t1, %t2 = ge.SplitVD(%v) {size_splits = [8, -1, 4], split_dim = -1, num_split = 3} : (tensor<4x24xf16>) -> (tensor<4x8xf16>, tensor<4x12xf16>, tensor<4x4xf16>)
// CHECK-NEXT:   ge.NetOutput %d, %p, %q, %s0, %s1, %t0, %t1, %t2 : tensor<8x16xf16>, tensor<4x3x16xf16>, tensor<4x16x2xf16>, tensor<4x12xf16>, tensor<4x12xf16>, tensor<4x8xf16>, tensor<4x12xf16>, tensor<4x4xf16>
// CHECK-NEXT: }

// -----

// GE's PhonyConcatCalcOffset / PhonySplitCalcOffset shapes (docs/ge/notask.md), with
// a negative concat_dim entry (-2 is 3 on rank 5) and keep_*_offset written out.
ge.graph @phony {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %b = ge.Data {index = 1} : tensor<1x2x2x4x8xf16>
  %pc = ge.PhonyConcat(%a, %b, %a, %b) {concat_dim = [-2, 1], N = [2, 2], keep_input_offset = true} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %p0, %p1, %p2, %p3 = ge.PhonySplit(%pc) {split_dim = [1, 3], num_split = [2, 2], keep_output_offset = false} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  ge.NetOutput %p0, %p3 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
}

// CHECK:      ge.graph @phony {
// CHECK-NEXT:   %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
// CHECK-NEXT:   %b = ge.Data {index = 1} : tensor<1x2x2x4x8xf16>
// CHECK-NEXT:   %pc = ge.PhonyConcat(%a, %b, %a, %b) {concat_dim = [-2, 1], N = [2, 2], keep_input_offset = true} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
// CHECK-NEXT:   %p0, %p1, %p2, %p3 = ge.PhonySplit(%pc) {split_dim = [1, 3], num_split = [2, 2], keep_output_offset = false} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
// CHECK-NEXT:   ge.NetOutput %p0, %p3 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
// CHECK-NEXT: }
