// RUN: ge-opt %s -p ge-phony-notask --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=WARN
// RUN: ge-opt %s -p ge-phony-notask --split-input-file 2>/dev/null | filecheck %s
//
// Ours, not GE's: ge-phony-notask warns (always, without --remarks) when GE's offsets
// (GetConcatOffset / GetSplitOffset, one byte offset per piece, written or read
// contiguously by the kernel) do not lay the pieces out as their concatenation, i.e. when at
// some level i with N[i] > 1 the block grown so far has a dim != 1 before dims[i]. The
// offsets stay GE's. Stderr holds the warnings only: each one is the NEXT line, and the
// WARN-NOT at the end fails on any warning for the graphs that must have none.

// GE's PhonyConcatCalcOffset shapes: pieces 1x2x2x4x8 f16 = 256 B, concat_dim [-2, 1]
// (-2 + rank 5 = 3), N [2, 2]. Level 0, axis 3: the piece's dims before it are 1x2x2.
// Offsets: 1 * prod({4,8}) * 2 B = 64; 1 * prod({2,2,8,8}) * 2 B = 512; 576. Piece 1 at 64
// starts inside piece 0 = bytes 0..255.
ge.graph @ge_concat {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %m0 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %pc = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [-2, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %pc : tensor<1x4x2x8x8xf16>
}
// WARN: phony_notask_layout.mlir:[[# @LINE - 3]]:3: warning: PhonyConcat 'pc': GE's offsets do not lay its inputs out as their concatenation: before concat_dim 3 the block has dims 1x2x2 (must all be 1); input 1 at byte 64 overlaps input 0 (bytes 0-255)
// CHECK-LABEL: ge.graph @ge_concat
// CHECK: %m1 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [64]}
// CHECK: %m2 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [512]}
// CHECK: %m3 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [576]}

// -----

// The mirror PhonySplit (GE's PhonySplitCalcOffset): split_dim [1, 3], num_split [2, 2], the
// last listed axis first: axis 3 sees 1x2x2 before it. Same offsets, same overlap.
ge.graph @ge_split {
  %x = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  %ps:4 = ge.PhonySplit(%x) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  %a = ge.Abs(%ps#1) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %a : tensor<1x2x2x4x8xf16>
}
// WARN-NEXT: phony_notask_layout.mlir:[[# @LINE - 4]]:3: warning: PhonySplit 'ps': GE's offsets do not lay its outputs out as slices of its input: before split_dim 3 the block has dims 1x2x2 (must all be 1); output 1 at byte 64 overlaps output 0 (bytes 0-255)
// CHECK-LABEL: ge.graph @ge_split
// CHECK: %a = ge.Abs(%ps_1) {_input_offset_list_for_continuous = [64]}

// -----

// The break at the second level: pieces 1x1x2 i32 (8 B), split_dim [2, 1], num_split [2, 2].
// Last axis first: axis 1 sees {1} before it (fine), the block grows to 1x2x2; axis 2 sees
// 1x2. Offsets: output k -> slice ids [k // 2, k % 2]; 1 * prod({1,2}) * 4 B = 8 for output 1,
// 1 * prod(grown {1,2,2}[2:]) * 4 B = 8 for output 2, 16 for output 3. In address order
// output 0 is [0, 8), output 1 starts at 8 (adjacent), output 2 at 8 lies inside output 1.
ge.graph @second_level {
  %x = ge.Data {index = 0} : tensor<1x2x4xi32>
  %ps:4 = ge.PhonySplit(%x) {split_dim = [2, 1], num_split = [2, 2]} : (tensor<1x2x4xi32>) -> (tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>)
  %a = ge.Abs(%ps#2) : (tensor<1x1x2xi32>) -> tensor<1x1x2xi32>
  ge.NetOutput %a : tensor<1x1x2xi32>
}
// WARN-NEXT: phony_notask_layout.mlir:[[# @LINE - 4]]:3: warning: PhonySplit 'ps': GE's offsets do not lay its outputs out as slices of its input: before split_dim 2 the block has dims 1x2 (must all be 1); output 2 at byte 8 overlaps output 1 (bytes 8-15)
// CHECK-LABEL: ge.graph @second_level
// CHECK: %a = ge.Abs(%ps_2) {_input_offset_list_for_continuous = [8]}

// -----

// A single-axis concat on the inner dim of 2x4 f32 (32 B): the dims before axis 1 are {2}.
// Offset of input 1: prod({4}) * 4 B = 16, inside input 0 = bytes 0..31.
ge.graph @inner_axis {
  %x = ge.Data {index = 0} : tensor<2x4xf32>
  %a = ge.Abs(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %b = ge.Neg(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1], N = [2]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  ge.NetOutput %pc : tensor<2x8xf32>
}
// WARN-NEXT: phony_notask_layout.mlir:[[# @LINE - 3]]:3: warning: PhonyConcat 'pc': GE's offsets do not lay its inputs out as their concatenation: before concat_dim 1 the block has dims 2 (must all be 1); input 1 at byte 16 overlaps input 0 (bytes 0-31)
// CHECK-LABEL: ge.graph @inner_axis
// CHECK: %b = ge.Neg(%x) {_output_offset_list_for_continuous = [16]}

// -----

// No warning: examples/phony_concat_split.mlir's shapes, pieces 1x1x1x4x8 f16 (64 B),
// concat_dim [3, 1], N [2, 2]: axis 3 sees 1x1x1, the block grows to 1x1x1x8x8; axis 1
// sees {1}. Offsets 0, 1 * prod({4,8}) * 2 B = 64, 1 * prod({1,1,8,8}) * 2 B = 128, 192:
// the pieces tile bytes 0..255. The mirror split: the same offsets, no warning.
ge.graph @valid {
  %x = ge.Data {index = 0} : tensor<1x1x1x4x8xf16>
  %m0 = ge.Abs(%x) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %m1 = ge.Neg(%x) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %m2 = ge.Exp(%x) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %m3 = ge.Relu(%x) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %pc = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x2x1x8x8xf16>
  %ps:4 = ge.PhonySplit(%pc) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x2x1x8x8xf16>) -> (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>)
  %o2 = ge.Abs(%ps#2) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %o3 = ge.Abs(%ps#3) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  ge.NetOutput %o2, %o3 : tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>
}
// CHECK-LABEL: ge.graph @valid
// CHECK: %m1 = ge.Neg(%x) {_output_offset_list_for_continuous = [64]}
// CHECK: %m2 = ge.Exp(%x) {_output_offset_list_for_continuous = [128]}
// CHECK: %m3 = ge.Relu(%x) {_output_offset_list_for_continuous = [192]}
// CHECK: %o2 = ge.Abs(%ps_2) {_input_offset_list_for_continuous = [128]}
// CHECK: %o3 = ge.Abs(%ps_3) {_input_offset_list_for_continuous = [192]}

// -----

// No warning: a level with N = 1 adds no slice, whatever lies before its axis. Pieces 2x4
// f32 (32 B), concat_dim [1, 0], N [1, 2]: axis 1 (N 1) is skipped, axis 0 has nothing
// before it. Offset of input 1: slice ids [0, 1] -> 1 * prod({2,4}) * 4 B = 32.
ge.graph @trivial_level {
  %x = ge.Data {index = 0} : tensor<2x4xf32>
  %a = ge.Abs(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %b = ge.Neg(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1, 0], N = [1, 2]} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  ge.NetOutput %pc : tensor<4x4xf32>
}
// CHECK-LABEL: ge.graph @trivial_level
// CHECK: %b = ge.Neg(%x) {_output_offset_list_for_continuous = [32]}

// -----

// No warning: keep_input_offset = false puts every piece at 0, GE's user-defined layout
// (test PhonyConcatCalcOffsetNotKeepOffset); the formula is not used, so nothing to check.
ge.graph @not_keep {
  %x = ge.Data {index = 0} : tensor<2x4xf32>
  %a = ge.Abs(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %b = ge.Neg(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1], N = [2], keep_input_offset = false} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  ge.NetOutput %pc : tensor<2x8xf32>
}
// CHECK-LABEL: ge.graph @not_keep
// CHECK: %b = ge.Neg(%x) {_output_offset_list_for_continuous = [0]}
// WARN-NOT: warning:
