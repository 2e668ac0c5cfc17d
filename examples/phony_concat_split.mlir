// GE-local PhonyConcat and PhonySplit, from GE's unit tests (ge_notask.md §7.3/§7.4:
// PhonyConcatCalcOffset and PhonySplitCalcOffset in ge_local_ops_kernel_builder tests).
//
// Four Mul producers of 1x2x2x4x8 f16 are laid out by PhonyConcat with concat_dim [3, 1]
// and N [2, 2] (the first listed axis varies fastest: offsets 0, 64, 512, 576 bytes) into
// one 1x4x2x8x8 block. An Add reads the block, and PhonySplit with split_dim [1, 3] and
// num_split [2, 2] (the last listed axis varies fastest: the same offsets) hands four
// views of it to four Mul consumers.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %y = ge.Data {index = 1} : tensor<1x2x2x4x8xf16>
  %m0 = ge.Mul(%x, %y) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m2 = ge.Mul(%y, %y) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m3 = ge.Mul(%y, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %block = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %sum = ge.Add(%block, %block) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  %p0, %p1, %p2, %p3 = ge.PhonySplit(%sum) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  %o0 = ge.Mul(%p0, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %o1 = ge.Mul(%p1, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %o2 = ge.Mul(%p2, %y) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %o3 = ge.Mul(%p3, %y) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %o0, %o1, %o2, %o3 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
}
