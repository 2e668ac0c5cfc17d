// RUN: not ge-run %s --graph ge_test 2>&1 | filecheck %s --check-prefix=CONCAT
// RUN: not ge-run %s --graph split_only 2>&1 | filecheck %s --check-prefix=SPLIT
//
// GE's own PhonyConcatCalcOffset / PhonySplitCalcOffset shapes (ge_notask.md §7.3/§7.4):
// pieces 1x2x2x4x8 f16 (2*2*4*8*2 B = 256 B), concat_dim [3, 1], N [2, 2]. GE's offsets are
//   piece 1: 1 * prod({4, 8}) * 2 B = 64; piece 2: 1 * prod({2, 2, 8, 8}) * 2 B = 512;
//   piece 3: 64 + 512 = 576,
// but each kernel writes its 256 bytes contiguously there, so piece 1 [64, 320) overlaps
// piece 0 [0, 256): GE's formula needs the dims before concat_dim 3 (1x2x2) to be 1.
// ge-phony-notask keeps GE's offsets and warns (ours, not GE's); the simulator, whose
// kernels write contiguously as GE's do, then catches what an NPU would silently corrupt:
//  * @ge_test: piece 1's producer writes fm [64, 320) while piece 0 (fm [0, 256), the
//    block's first allocation at fm 0) is still to be read by the Add: a live-buffer clobber.
//  * @split_only: PhonySplit alone (no write conflict: consumers only read); output k's
//    consumer reads 256 contiguous bytes at 0, 64, 512, 576 of the Add's 1x4x2x8x8 output
//    instead of its slice, so the outputs differ from the reference interpreter's. Output 0
//    reads elements 0..127 of the block: element (a, b, c, d) of the 2x2x4x8 piece reads
//    block element a*64 + b*32 + c*8 + d instead of a*128 + b*64 + c*8 + d, right only
//    for a = b = 0: 2*2 - 1 = 3 of the 4 (a, b) pairs are wrong, 3 * 32 = 96 of 128
//    elements. Output k reads at k's offset; its slice starts at the same element, so the
//    same 96 of 128 differ in each output: 4 * 96 = 384.

// CONCAT: phony_ge_shapes.mlir:[[# @LINE + 21]]:3: warning: PhonyConcat 'block': GE's offsets do not lay its inputs out as their concatenation: before concat_dim 3 the block has dims 1x2x2 (must all be 1); input 1 at byte 64 overlaps input 0 (bytes 0-255)
// CONCAT: phony_ge_shapes.mlir:[[# @LINE + 22]]:3: warning: PhonySplit 'p0': GE's offsets do not lay its outputs out as slices of its input: before split_dim 3 the block has dims 1x2x2 (must all be 1); output 1 at byte 64 overlaps output 0 (bytes 0-255)
// CONCAT: error: simulator: stream 0 task 1 (npu.kernel '{{.*}}'): write into a live buffer: fm [64, 256) (writing tensor "{{.*}}:0" at fm [64, 320)) overlaps tensor "{{.*}}:0" at fm [0, 256), which is still to be read
// CONCAT-NOT: outputs match

// SPLIT: phony_ge_shapes.mlir:[[# @LINE + 29]]:3: warning: PhonySplit 's': GE's offsets do not lay its outputs out as slices of its input: before split_dim 3 the block has dims 1x2x2 (must all be 1); output 1 at byte 64 overlaps output 0 (bytes 0-255)
// SPLIT-NOT: error: simulator
// SPLIT: no-task nodes: 1 (s (PhonySplit))
// SPLIT: output 0 o0:0: 96 of 128 elements differ
// SPLIT: output 1 o1:0: 96 of 128 elements differ
// SPLIT: output 2 o2:0: 96 of 128 elements differ
// SPLIT: output 3 o3:0: 96 of 128 elements differ
// SPLIT: outputs do not match the reference (384 elements differ)

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
