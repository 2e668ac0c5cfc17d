// RUN: ge-opt %examples/phony_concat_split.mlir -p ge-phony-notask | filecheck %s
// RUN: ge-opt %examples/phony_concat_split.mlir -p ge-phony-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
//
// examples/phony_concat_split.mlir: GE's PhonyConcatCalcOffset and PhonySplitCalcOffset graphs
// in one, with pieces 1x1x1x4x8 f16 (64 B) so that GE's offsets are the concatenation (GE's
// own 1x2x2x4x8 pieces overlap: tests/filecheck/passes/notask/phony_notask_layout.mlir).
// PhonyConcat concat_dim [3, 1], N [2, 2] (first axis fastest): piece k at slice ids
// [k % 2, k // 2]; axis 3 slice = prod({4,8}) * 2 B = 64 B, the block grows to 1x1x1x8x8;
// axis 1 slice = prod({1,1,8,8}) * 2 B = 128 B -> 0, 64, 128, 64 + 128 = 192.
// PhonySplit split_dim [1, 3], num_split [2, 2] (last axis fastest): the same offsets, written
// into slot 0 of each two-input Mul consumer (slot 1 reads a Data node: 0). No layout warning.

// CHECK: %m0 = ge.Mul(%x, %y) {_output_offset_list_for_continuous = [0]}
// CHECK: %m1 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [64]}
// CHECK: %m2 = ge.Mul(%y, %y) {_output_offset_list_for_continuous = [128]}
// CHECK: %m3 = ge.Mul(%y, %x) {_output_offset_list_for_continuous = [192]}
// CHECK: %block = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [3, 1], N = [2, 2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// CHECK: %sum = ge.Add(%block, %block) : (
// CHECK: %p0, %p1, %p2, %p3 = ge.PhonySplit(%sum) {split_dim = [1, 3], num_split = [2, 2], _no_task = true, _no_padding_continuous_output = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// CHECK: %o0 = ge.Mul(%p0, %x) {_input_offset_list_for_continuous = [0, 0]}
// CHECK: %o1 = ge.Mul(%p1, %x) {_input_offset_list_for_continuous = [64, 0]}
// CHECK: %o2 = ge.Mul(%p2, %y) {_input_offset_list_for_continuous = [128, 0]}
// CHECK: %o3 = ge.Mul(%p3, %y) {_input_offset_list_for_continuous = [192, 0]}

// REMARK-NOT: warning:
// REMARK: remark: PhonyConcat 'block' marked no-task; offsets: m0:0=0, m1:0=64, m2:0=128, m3:0=192
// REMARK-NOT: warning:
// REMARK: remark: PhonySplit 'p0' marked no-task; input offsets: o0:0=0, o1:0=64, o2:0=128, o3:0=192
// REMARK-NOT: warning:
