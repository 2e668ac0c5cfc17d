// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// GE sizes every tensor in int64 (tensor_utils.cc CalcTensorMemSize: CalcElementCntByDims,
// then types.cc GetSizeInBytes): an element count or a byte size past 2^63 - 1 is an error
// located at the node whose output it is. The sizes below are computed by hand.

// 2^61 x 4: 2^63 elements, one more than int64 can count.
ge.graph @main {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: shape 2305843009213693952x4 has 9223372036854775808 elements, more than int64 can count (GE: CalcElementCntByDims overflows)
  %x = ge.Data {index = 0} : tensor<2305843009213693952x4xf16>
  ge.NetOutput %x : tensor<2305843009213693952x4xf16>
}

// -----

// 2^62 f32 elements: the count fits, 2^62 x 4 bytes = 2^64 does not.
ge.graph @main {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: 4611686018427387904 x DT_FLOAT is too large: GE sizes tensors in int64 and 4611686018427387904 x 4 bytes overflows it (GetSizeInBytes)
  %x = ge.Data {index = 0} : tensor<4611686018427387904xf32>
  ge.NetOutput %x : tensor<4611686018427387904xf32>
}

// -----

// 2^60 i64 elements: 2^60 x 8 = 2^63 bytes, one past the limit.
ge.graph @main {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: 1152921504606846976 x DT_INT64 is too large: GE sizes tensors in int64 and 1152921504606846976 x 8 bytes overflows it (GetSizeInBytes)
  %x = ge.Data {index = 0} : tensor<1024x1125899906842624xi64>
  ge.NetOutput %x : tensor<1024x1125899906842624xi64>
}

// -----

// int4: 2^62 elements are 2^61 bytes, but GE multiplies the count by 4 bits first (2^64).
ge.graph @main {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: 4611686018427387904 x DT_INT4 is too large: GE sizes tensors in int64 and 4611686018427387904 x 4 bits overflows it (GetSizeInBytes)
  %x = ge.Data {index = 0} : tensor<4611686018427387904xi4>
  ge.NetOutput %x : tensor<4611686018427387904xi4>
}

// -----

// The storage shape counts: NCHW 2^56 x 17 x 1 x 1 f32 is 68 x 2^56 bytes (fits), its
// NC1HWC0 storage 2^56 x 2 x 1 x 1 x 16 pads C to 32: 128 x 2^56 = 2^63 bytes.
ge.graph @main {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: 2305843009213693952 x DT_FLOAT is too large: GE sizes tensors in int64 and 2305843009213693952 x 4 bytes overflows it (GetSizeInBytes)
  %x = ge.Data {index = 0} : tensor<72057594037927936x17x1x1xf32, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %x : tensor<72057594037927936x17x1x1xf32, #ge.desc<NC1HWC0, origin = NCHW>>
}

// -----

// Inputs that fit, an output that does not: ConcatD of two 2^60-element f32 tensors
// (2^62 bytes each) is 2^61 elements, 2^63 bytes.
ge.graph @main {
  %a = ge.Data {index = 0} : tensor<1152921504606846976xf32>
  %b = ge.Data {index = 1} : tensor<1152921504606846976xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: output 0: 2305843009213693952 x DT_FLOAT is too large: GE sizes tensors in int64 and 2305843009213693952 x 4 bytes overflows it (GetSizeInBytes)
  %c = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<1152921504606846976xf32>, tensor<1152921504606846976xf32>) -> tensor<2305843009213693952xf32>
  ge.NetOutput %c : tensor<2305843009213693952xf32>
}

// -----

// At the limit and past it in other dims with a 0 dim: accepted. GE counts 0 elements as
// soon as it sees a 0 dim (CalcTensorElementCnt), and 2^61 - 1 f32 elements are 2^63 - 4 bytes.
// CHECK:      ge.graph @main {
// CHECK-NEXT:   %e = ge.Data {index = 0} : tensor<0x9223372036854775807x9223372036854775807xf32>
// CHECK-NEXT:   %m = ge.Data {index = 1} : tensor<2305843009213693951xf32>
// CHECK-NEXT:   %b = ge.Data {index = 2} : tensor<9223372036854775807xi8>
ge.graph @main {
  %e = ge.Data {index = 0} : tensor<0x9223372036854775807x9223372036854775807xf32>
  %m = ge.Data {index = 1} : tensor<2305843009213693951xf32>
  %b = ge.Data {index = 2} : tensor<9223372036854775807xi8>
  ge.NetOutput %e, %m, %b : tensor<0x9223372036854775807x9223372036854775807xf32>, tensor<2305843009213693951xf32>, tensor<9223372036854775807xi8>
}
