// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the ops autofuse does not lower: MatMul (transposes, bias), Conv2D (all
// attributes, groups, bias, defaults), HcomAllGather.

ge.graph @library {
  %a = ge.Data {index = 0} : tensor<8x16xf16>
  %b = ge.Data {index = 1} : tensor<32x16xf16>
  %bias = ge.Data {index = 2} : tensor<16xf16>
  %mm = ge.MatMul(%a, %b) {transpose_x1 = false, transpose_x2 = true} : (tensor<8x16xf16>, tensor<32x16xf16>) -> tensor<8x32xf16>
  %mmb = ge.MatMul(%mm, %b, %bias) : (tensor<8x32xf16>, tensor<32x16xf16>, tensor<16xf16>) -> tensor<8x16xf16>
  %x = ge.Data {index = 3} : tensor<1x4x9x9xf32>
  %w = ge.Data {index = 4} : tensor<8x2x3x3xf32>
  %cb = ge.Data {index = 5} : tensor<8xf32>
  %conv = ge.Conv2D(%x, %w, %cb) {strides = [1, 1, 2, 2], pads = [1, 1, 0, 0], dilations = [1, 1, 1, 1], groups = 2, data_format = "NCHW"} : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x4xf32>
  %w1 = ge.Data {index = 6} : tensor<8x4x3x3xf32>
  %conv1 = ge.Conv2D(%x, %w1) : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x7x7xf32>
  %dil = ge.Conv2D(%x, %w1) {dilations = [1, 1, 2, 2]} : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x5x5xf32>
  %g = ge.HcomAllGather(%a) {rank_size = 8, group = "hccl_world_group"} : (tensor<8x16xf16>) -> tensor<64x16xf16>
  ge.NetOutput %mmb, %conv, %conv1, %dil, %g : tensor<8x16xf16>, tensor<1x8x5x4xf32>, tensor<1x8x7x7xf32>, tensor<1x8x5x5xf32>, tensor<64x16xf16>
}

// CHECK:      ge.graph @library {
// CHECK-NEXT:   %a = ge.Data {index = 0} : tensor<8x16xf16>
// CHECK-NEXT:   %b = ge.Data {index = 1} : tensor<32x16xf16>
// CHECK-NEXT:   %bias = ge.Data {index = 2} : tensor<16xf16>
// CHECK-NEXT:   %mm = ge.MatMul(%a, %b) {transpose_x1 = false, transpose_x2 = true} : (tensor<8x16xf16>, tensor<32x16xf16>) -> tensor<8x32xf16>
// CHECK-NEXT:   %mmb = ge.MatMul(%mm, %b, %bias) : (tensor<8x32xf16>, tensor<32x16xf16>, tensor<16xf16>) -> tensor<8x16xf16>
// CHECK-NEXT:   %x = ge.Data {index = 3} : tensor<1x4x9x9xf32>
// CHECK-NEXT:   %w = ge.Data {index = 4} : tensor<8x2x3x3xf32>
// CHECK-NEXT:   %cb = ge.Data {index = 5} : tensor<8xf32>
// CHECK-NEXT:   %conv = ge.Conv2D(%x, %w, %cb) {strides = [1, 1, 2, 2], pads = [1, 1, 0, 0], dilations = [1, 1, 1, 1], groups = 2, data_format = "NCHW"} : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x4xf32>
// CHECK-NEXT:   %w1 = ge.Data {index = 6} : tensor<8x4x3x3xf32>
// CHECK-NEXT:   %conv1 = ge.Conv2D(%x, %w1) : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x7x7xf32>
// CHECK-NEXT:   %dil = ge.Conv2D(%x, %w1) {dilations = [1, 1, 2, 2]} : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x5x5xf32>
// CHECK-NEXT:   %g = ge.HcomAllGather(%a) {rank_size = 8, group = "hccl_world_group"} : (tensor<8x16xf16>) -> tensor<64x16xf16>
// CHECK-NEXT:   ge.NetOutput %mmb, %conv, %conv1, %dil, %g : tensor<8x16xf16>, tensor<1x8x5x4xf32>, tensor<1x8x7x7xf32>, tensor<1x8x5x5xf32>, tensor<64x16xf16>
// CHECK-NEXT: }
