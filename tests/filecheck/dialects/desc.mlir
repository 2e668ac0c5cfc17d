// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the #ge.desc tensor encoding: storage format, origin format, explicit
// storage shape, reshape_type_mask; and of unknown dims `?` (with and without a desc).

ge.graph @formats {
  // NC1HWC0 from NCHW: storage shape derived (1x2x4x4x16), nothing else printed.
  %a = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  // An explicit storage shape equal to the derived one is kept as written.
  %b = ge.Data {index = 1} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 2, 4, 4, 16]>>
  // A 2-D NCHW tensor with its reshape type mask (GE's _reshape_type_mask).
  %c = ge.Data {index = 2} : tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 1, 4, 1, 16], reshape_type_mask = 9>>
  // FRACTAL_NZ from ND, no origin written (ND is the default and is not printed).
  %d = ge.Data {index = 3} : tensor<4x33xf16, #ge.desc<FRACTAL_NZ>>
  // Origin written as ND explicitly: prints without it.
  %e = ge.Data {index = 4} : tensor<4x33xf16, #ge.desc<FRACTAL_NZ, origin = ND>>
  // A storage shape GE's rules cannot derive (3-D ND to NC1HWC0) must be written out.
  %f = ge.Data {index = 5} : tensor<2x3x4xf16, #ge.desc<NC1HWC0, shape = [2, 1, 3, 4, 16]>>
  // Fields in any order.
  %g = ge.Data {index = 6} : tensor<4x4xf16, #ge.desc<NC1HWC0, reshape_type_mask = 9, origin = NCHW>>
  // FRACTAL_Z weights and an NHWC -> NCHW permutation.
  %h = ge.Data {index = 7} : tensor<32x16x3x3xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %i = ge.Data {index = 8} : tensor<1x4x4x3xf32, #ge.desc<NCHW, origin = NHWC>>
  // Unknown dims: plain, and with a desc (no storage shape can be derived; none needed).
  %u = ge.Data {index = 9} : tensor<?x16xf16>
  %v = ge.Data {index = 10} : tensor<?x32x?x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %w = ge.Relu(%u) : (tensor<?x16xf16>) -> tensor<?x16xf16>
  %x = ge.ConcatD(%w, %u) {concat_dim = 0} : (tensor<?x16xf16>, tensor<?x16xf16>) -> tensor<?x16xf16>
  %r = ge.Relu(%a) : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %b, %c, %d, %e, %f, %g, %h, %i, %v, %x, %r : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 2, 4, 4, 16]>>, tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 1, 4, 1, 16], reshape_type_mask = 9>>, tensor<4x33xf16, #ge.desc<FRACTAL_NZ>>, tensor<4x33xf16, #ge.desc<FRACTAL_NZ, origin = ND>>, tensor<2x3x4xf16, #ge.desc<NC1HWC0, shape = [2, 1, 3, 4, 16]>>, tensor<4x4xf16, #ge.desc<NC1HWC0, reshape_type_mask = 9, origin = NCHW>>, tensor<32x16x3x3xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x4x4x3xf32, #ge.desc<NCHW, origin = NHWC>>, tensor<?x32x?x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<?x16xf16>, tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}

// CHECK:      ge.graph @formats {
// CHECK-NEXT:   %a = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
// CHECK-NEXT:   %b = ge.Data {index = 1} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 2, 4, 4, 16]>>
// CHECK-NEXT:   %c = ge.Data {index = 2} : tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 1, 4, 1, 16], reshape_type_mask = 9>>
// CHECK-NEXT:   %d = ge.Data {index = 3} : tensor<4x33xf16, #ge.desc<FRACTAL_NZ>>
// CHECK-NEXT:   %e = ge.Data {index = 4} : tensor<4x33xf16, #ge.desc<FRACTAL_NZ>>
// CHECK-NEXT:   %f = ge.Data {index = 5} : tensor<2x3x4xf16, #ge.desc<NC1HWC0, shape = [2, 1, 3, 4, 16]>>
// CHECK-NEXT:   %g = ge.Data {index = 6} : tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, reshape_type_mask = 9>>
// CHECK-NEXT:   %h = ge.Data {index = 7} : tensor<32x16x3x3xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>
// CHECK-NEXT:   %i = ge.Data {index = 8} : tensor<1x4x4x3xf32, #ge.desc<NCHW, origin = NHWC>>
// CHECK-NEXT:   %u = ge.Data {index = 9} : tensor<?x16xf16>
// CHECK-NEXT:   %v = ge.Data {index = 10} : tensor<?x32x?x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
// CHECK-NEXT:   %w = ge.Relu(%u) : (tensor<?x16xf16>) -> tensor<?x16xf16>
// CHECK-NEXT:   %x = ge.ConcatD(%w, %u) {concat_dim = 0} : (tensor<?x16xf16>, tensor<?x16xf16>) -> tensor<?x16xf16>
// CHECK-NEXT:   %r = ge.Relu(%a) : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
// CHECK-NEXT:   ge.NetOutput %b, %c, %d, %e, %f, %g, %h, %i, %v, %x, %r : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 2, 4, 4, 16]>>, tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 1, 4, 1, 16], reshape_type_mask = 9>>, tensor<4x33xf16, #ge.desc<FRACTAL_NZ>>, tensor<4x33xf16, #ge.desc<FRACTAL_NZ>>, tensor<2x3x4xf16, #ge.desc<NC1HWC0, shape = [2, 1, 3, 4, 16]>>, tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, reshape_type_mask = 9>>, tensor<32x16x3x3xf16, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x4x4x3xf32, #ge.desc<NCHW, origin = NHWC>>, tensor<?x32x?x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<?x16xf16>, tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
// CHECK-NEXT: }
