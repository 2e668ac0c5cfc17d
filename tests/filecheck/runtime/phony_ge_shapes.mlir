// RUN: not ge-run %s --graph ge_test 2>&1 | filecheck %s --check-prefix=CONCAT
// RUN: not ge-run %s --graph split_only 2>&1 | filecheck %s --check-prefix=SPLIT
//
// GE's own PhonyConcatCalcOffset / PhonySplitCalcOffset shapes (docs/ge/notask.md):
// pieces 1x2x2x4x8 f16 (2*2*4*8*2 B = 256 B), concat_dim [3, 1], N [2, 2]. GE's offsets are
//   piece 1: 1 * prod({4, 8}) * 2 B = 64; piece 2: 1 * prod({2, 2, 8, 8}) * 2 B = 512;
//   piece 3: 64 + 512 = 576,
// but each kernel writes its 256 bytes contiguously there, so piece 1 [64, 320) overlaps
// piece 0 [0, 256): GE's formula needs the dims before concat_dim 3 (1x2x2) to be 1.
// ge-phony-notask keeps GE's offsets and warns (ours, not GE's); the simulator, whose
// kernels write contiguously as GE's do, then catches at load what an NPU would silently
// corrupt: a view whose elements are not where the node's semantics take them from.
//  * @ge_test: the PhonyConcat's element (0,0,1,0,0) is piece 0's (dim 3 index 0, dim 1
//    index 0) element (0,0,1,0,0), at m0's byte 2 * (1*4*8) = 64; the block's row-major
//    1x4x2x8x8 layout reads it at byte 2 * (1*8*8) = 128.
//  * @split_only: output k's consumer reads 256 contiguous bytes at 0, 64, 512, 576 of the
//    Add's 1x4x2x8x8 output instead of its slice. Output 0 is elements 0..127 of the
//    block: element (a, b, c, d) of the 2x2x4x8 piece is read at block element
//    a*64 + b*32 + c*8 + d instead of a*128 + b*64 + c*8 + d, right only for a = b = 0:
//    3 of the 4 (a, b) pairs are wrong, 3 * 32 = 96 of 128 elements; the first wrong one,
//    (0, 1, 0, 0), is read at byte 2 * 32 = 64 but lies at byte 2 * 64 = 128.

// CONCAT: phony_ge_shapes.mlir:[[# @LINE + 16]]:3: warning: PhonyConcat 'block': GE's offsets do not lay its inputs out as their concatenation: before concat_dim 3 the block has dims 1x2x2 (must all be 1); input 1 at byte 64 overlaps input 0 (bytes 0-255)
// CONCAT: phony_ge_shapes.mlir:[[# @LINE + 17]]:3: warning: PhonySplit 'p0': GE's offsets do not lay its outputs out as slices of its input: before split_dim 3 the block has dims 1x2x2 (must all be 1); output 1 at byte 64 overlaps output 0 (bytes 0-255)
// CONCAT: phony_ge_shapes.mlir:[[# @LINE + 14]]:3: error: simulator: npu.alias "block:0" (PhonyConcat 'block' output 0): wrong offset: its element [0, 0, 1, 0, 0] is element [0, 0, 1, 0, 0] of "{{[^"]+}}" (at fm [0, 256)), which lies at fm byte 64, but the alias has it at byte 128; 384 of 512 elements are misplaced
// CONCAT-NOT: outputs match

// SPLIT: phony_ge_shapes.mlir:[[# @LINE + 24]]:3: warning: PhonySplit 's': GE's offsets do not lay its outputs out as slices of its input: before split_dim 3 the block has dims 1x2x2 (must all be 1); output 1 at byte 64 overlaps output 0 (bytes 0-255)
// SPLIT: phony_ge_shapes.mlir:[[# @LINE + 23]]:3: error: simulator: npu.alias "s:0" (PhonySplit 's' output 0): wrong offset: its element [0, 0, 1, 0, 0] is element [0, 0, 1, 0, 0] of "sum:0" (at fm [0, 1024)), which lies at fm byte 128, but the alias has it at byte 64; 96 of 128 elements are misplaced
// SPLIT-NOT: outputs match

ge.graph @ge_test {
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

ge.graph @split_only {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  %sum = ge.Add(%a, %a) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  %s, %s1, %s2, %s3 = ge.PhonySplit(%sum) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  %o0 = ge.Abs(%s) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %o1 = ge.Abs(%s1) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %o2 = ge.Abs(%s2) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %o3 = ge.Abs(%s3) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %o0, %o1, %o2, %o3 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
}
