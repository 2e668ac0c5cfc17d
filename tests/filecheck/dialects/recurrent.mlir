// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the recurrent ops (rnn.h): DynamicRNN with and without seq_length, initial
// states and peepholes; DynamicGRUV2 with seq_length and init_h, reset_after false.

ge.graph @recurrent {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %w = ge.Data {index = 1} : tensor<10x24xf32>
  %b = ge.Data {index = 2} : tensor<24xf32>
  %s = ge.Data {index = 3} : tensor<3xi32>
  %h = ge.Data {index = 4} : tensor<1x3x6xf32>
  %c = ge.Data {index = 5} : tensor<1x3x6xf32>
  %p = ge.Data {index = 6} : tensor<6xf32>
  %y, %oh, %oc, %i, %j, %f, %o, %tc = ge.DynamicRNN(%x, %w, %b) : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  %y2, %oh2, %oc2, %i2, %j2, %f2, %o2, %tc2 = ge.DynamicRNN(%x, %w, %b, %s, %h, %c, %p, %p, %p) {direction = "REDIRECTIONAL", use_peephole = true, forget_bias = 1.000000e+00 : f32, is_training = false} : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>, tensor<3xi32>, tensor<1x3x6xf32>, tensor<1x3x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  %wi = ge.Data {index = 7} : tensor<4x18xf16>
  %wh = ge.Data {index = 8} : tensor<6x18xf16>
  %bi = ge.Data {index = 9} : tensor<18xf16>
  %hh = ge.Data {index = 10} : tensor<1x3x6xf16>
  %xh = ge.Data {index = 11} : tensor<5x3x4xf16>
  %gy, %gh, %gz, %gr, %gn, %ghn = ge.DynamicGRUV2(%xh, %wi, %wh, %bi, %bi, %s, %hh) {reset_after = false, gate_order = "rzh"} : (tensor<5x3x4xf16>, tensor<4x18xf16>, tensor<6x18xf16>, tensor<18xf16>, tensor<18xf16>, tensor<3xi32>, tensor<1x3x6xf16>) -> (tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>)
  ge.NetOutput %y, %oh2, %gy : tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf16>
}

// CHECK:      ge.graph @recurrent {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<5x3x4xf32>
// CHECK-NEXT:   %w = ge.Data {index = 1} : tensor<10x24xf32>
// CHECK-NEXT:   %b = ge.Data {index = 2} : tensor<24xf32>
// CHECK-NEXT:   %s = ge.Data {index = 3} : tensor<3xi32>
// CHECK-NEXT:   %h = ge.Data {index = 4} : tensor<1x3x6xf32>
// CHECK-NEXT:   %c = ge.Data {index = 5} : tensor<1x3x6xf32>
// CHECK-NEXT:   %p = ge.Data {index = 6} : tensor<6xf32>
// CHECK-NEXT:   %y, %oh, %oc, %i, %j, %f, %o, %tc = ge.DynamicRNN(%x, %w, %b) : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
// CHECK-NEXT:   %y2, %oh2, %oc2, %i2, %j2, %f2, %o2, %tc2 = ge.DynamicRNN(%x, %w, %b, %s, %h, %c, %p, %p, %p) {direction = "REDIRECTIONAL", use_peephole = true, forget_bias = 1.000000e+00 : f32, is_training = false} : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>, tensor<3xi32>, tensor<1x3x6xf32>, tensor<1x3x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
// CHECK-NEXT:   %wi = ge.Data {index = 7} : tensor<4x18xf16>
// CHECK-NEXT:   %wh = ge.Data {index = 8} : tensor<6x18xf16>
// CHECK-NEXT:   %bi = ge.Data {index = 9} : tensor<18xf16>
// CHECK-NEXT:   %hh = ge.Data {index = 10} : tensor<1x3x6xf16>
// CHECK-NEXT:   %xh = ge.Data {index = 11} : tensor<5x3x4xf16>
// CHECK-NEXT:   %gy, %gh, %gz, %gr, %gn, %ghn = ge.DynamicGRUV2(%xh, %wi, %wh, %bi, %bi, %s, %hh) {reset_after = false, gate_order = "rzh"} : (tensor<5x3x4xf16>, tensor<4x18xf16>, tensor<6x18xf16>, tensor<18xf16>, tensor<18xf16>, tensor<3xi32>, tensor<1x3x6xf16>) -> (tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>, tensor<5x3x6xf16>)
// CHECK-NEXT:   ge.NetOutput %y, %oh2, %gy : tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf16>
// CHECK-NEXT: }
