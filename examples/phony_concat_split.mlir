// GE-local PhonyConcat and PhonySplit, after GE's unit tests PhonyConcatCalcOffset and
// PhonySplitCalcOffset (ge_local_ops_kernel_builder tests; docs/ge/notask.md): the same
// graph (four Mul producers -> PhonyConcat, PhonySplit -> four Mul consumers) and the same
// attributes, concat_dim [3, 1], N [2, 2] and split_dim [1, 3], num_split [2, 2].
//
// The pieces are 1x1x1x4x8 f16 (64 B), not GE's 1x2x2x4x8: GE gives each piece ONE byte
// offset (GetConcatOffset / GetSplitOffset) and the kernel writes or reads it contiguously
// there, which is the concatenation only when, at each level, the block's dims before the
// concat axis are all 1. GE's test shapes have 1x2x2 before axis 3: its offsets 0, 64, 512,
// 576 make 256-byte pieces overlap (ge-phony-notask warns; the simulator reports the clobber,
// tests/filecheck/runtime/phony_ge_shapes.mlir). Here the layout is exact:
//   PhonyConcat (first listed axis fastest): piece k at (dim 3: k % 2, dim 1: k / 2);
//     axis 3: 1 * prod({4, 8}) * 2 B = 64; the block grows to 1x1x1x8x8;
//     axis 1: 1 * prod({1, 1, 8, 8}) * 2 B = 128; the block grows to 1x2x1x8x8 (256 B);
//     offsets 0, 64, 128, 64 + 128 = 192.
//   PhonySplit (last listed axis fastest): output k at (dim 1: k / 2, dim 3: k % 2), the
//     same offsets 0, 64, 128, 192 into the Add's 1x2x1x8x8 output.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<1x1x1x4x8xf16>
  %y = ge.Data {index = 1} : tensor<1x1x1x4x8xf16>
  %m0 = ge.Mul(%x, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %m1 = ge.Mul(%x, %x) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %m2 = ge.Mul(%y, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %m3 = ge.Mul(%y, %x) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %block = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x2x1x8x8xf16>
  %sum = ge.Add(%block, %block) : (tensor<1x2x1x8x8xf16>, tensor<1x2x1x8x8xf16>) -> tensor<1x2x1x8x8xf16>
  %p0, %p1, %p2, %p3 = ge.PhonySplit(%sum) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x2x1x8x8xf16>) -> (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>)
  %o0 = ge.Mul(%p0, %x) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %o1 = ge.Mul(%p1, %x) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %o2 = ge.Mul(%p2, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %o3 = ge.Mul(%p3, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  ge.NetOutput %o0, %o1, %o2, %o3 : tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>
}
