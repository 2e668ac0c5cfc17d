// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// MatMul, Conv2D (each of its checks) and HcomAllGather.

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<2x4x8xf16>
  %b = ge.Data {index = 1} : tensor<8x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: MatMul takes 2-D inputs, got 2x4x8 and 8x16
  %y = ge.MatMul(%a, %b) : (tensor<2x4x8xf16>, tensor<8x16xf16>) -> tensor<2x4x16xf16>
  ge.NetOutput %y : tensor<2x4x16xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<4x8xf16>
  %b = ge.Data {index = 1} : tensor<16x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: MatMul inner dims differ: 4x8 @ 16x8
  %y = ge.MatMul(%a, %b) : (tensor<4x8xf16>, tensor<16x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %y : tensor<4x8xf16>
}

// -----

// transpose_x1 transposes x1 before the product: 8x4 @ 8x16 does not fit.
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<4x8xf16>
  %b = ge.Data {index = 1} : tensor<8x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: MatMul inner dims differ: 8x4 @ 8x16
  %y = ge.MatMul(%a, %b) {transpose_x1 = true} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %y : tensor<8x16xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<4x8xf16>
  %b = ge.Data {index = 1} : tensor<8x16xf16>
  %c = ge.Data {index = 2} : tensor<8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: bias has shape 8, expected 16
  %y = ge.MatMul(%a, %b, %c) : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<8xf16>) -> tensor<4x16xf16>
  ge.NetOutput %y : tensor<4x16xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<4x8xf16>
  %b = ge.Data {index = 1} : tensor<8x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: output 0 has shape 4x8, but MatMul infers 4x16
  %y = ge.MatMul(%a, %b) : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x8xf16>
  ge.NetOutput %y : tensor<4x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<4x8xf16>
  %b = ge.Data {index = 1} : tensor<8x16xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: inputs and output must share one dtype, got f16, f32
  %y = ge.MatMul(%a, %b) : (tensor<4x8xf16>, tensor<8x16xf32>) -> tensor<4x16xf16>
  ge.NetOutput %y : tensor<4x16xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<4x8xf16>
  %b = ge.Data {index = 1} : tensor<8x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: attribute 'transpose_x2' must be a bool (true/false), got 0 : i64
  %y = ge.MatMul(%a, %b) {transpose_x2 = 0} : (tensor<4x8xf16>, tensor<8x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %y : tensor<4x16xf16>
}

// -----

// Conv2D: NCHW only ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: Conv2D supports data_format NCHW, got NHWC
  %y = ge.Conv2D(%x, %w) {data_format = "NHWC"} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

// ... x and filter of one dtype ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: x and filter must share one dtype, got f16, f32
  %y = ge.Conv2D(%x, %w) : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf16>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

// ... 4-D x and filter ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: Conv2D takes 4-D x and filter, got 4x8x8 and 8x4x3x3
  %y = ge.Conv2D(%x, %w) : (tensor<4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

// ... strides, pads and dilations with 4 entries ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: 'strides' must have 4 entries, got [2, 2]
  %y = ge.Conv2D(%x, %w) {strides = [2, 2]} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  ge.NetOutput %y : tensor<1x8x3x3xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: 'pads' must have 4 entries, got [1, 1]
  %y = ge.Conv2D(%x, %w) {pads = [1, 1]} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  ge.NetOutput %y : tensor<1x8x8x8xf32>
}

// -----

// ... strides and dilations > 0, pads >= 0, groups > 0 ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: strides and dilations must be > 0, pads >= 0, groups > 0
  %y = ge.Conv2D(%x, %w) {strides = [1, 1, 0, 1]} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: strides and dilations must be > 0, pads >= 0, groups > 0
  %y = ge.Conv2D(%x, %w) {pads = [0, 0, -1, 0]} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x5xf32>
  ge.NetOutput %y : tensor<1x8x6x5xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: strides and dilations must be > 0, pads >= 0, groups > 0
  %y = ge.Conv2D(%x, %w) {groups = 0} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

// ... filter channels = input channels / groups ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x3x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: filter 8x3x3x3 does not match input channels 4 with groups 1
  %y = ge.Conv2D(%x, %w) : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<6x2x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: filter 6x2x3x3 does not match input channels 4 with groups 4
  %y = ge.Conv2D(%x, %w) {groups = 4} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  ge.NetOutput %y : tensor<1x6x6x6xf32>
}

// -----

// ... a bias with one entry per output channel ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  %b = ge.Data {index = 2} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: bias has shape 4, expected 8
  %y = ge.Conv2D(%x, %w, %b) : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>) -> tensor<1x8x6x6xf32>
  ge.NetOutput %y : tensor<1x8x6x6xf32>
}

// -----

// ... a non-empty output ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x2x2xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: Conv2D output would be empty (0x0)
  %y = ge.Conv2D(%x, %w) : (tensor<1x4x2x2xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x1x1xf32>
  ge.NetOutput %y : tensor<1x8x1x1xf32>
}

// -----

// ... of size (H + pads - dilation * (kh - 1) - 1) / stride + 1: (8 + 2 - 2 - 1) / 2 + 1 = 4.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4x8x8xf32>
  %w = ge.Data {index = 1} : tensor<8x4x3x3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Conv2D: output 0 has shape 1x8x8x8, but Conv2D infers 1x8x4x4
  %y = ge.Conv2D(%x, %w) {strides = [1, 1, 2, 2], pads = [1, 1, 1, 1]} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  ge.NetOutput %y : tensor<1x8x8x8xf32>
}

// -----

// HcomAllGather: rank_size > 0 ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.HcomAllGather: rank_size must be > 0, got 0
  %y = ge.HcomAllGather(%x) {rank_size = 0} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %y : tensor<4x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.HcomAllGather: HcomAllGather requires attribute 'rank_size' (an integer)
  %y = ge.HcomAllGather(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %y : tensor<4x8xf16>
}

// -----

// ... gathers on axis 0, rank_size times ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.HcomAllGather: output 0 has shape 4x64, but HcomAllGather infers 32x8
  %y = ge.HcomAllGather(%x) {rank_size = 8} : (tensor<4x8xf16>) -> tensor<4x64xf16>
  ge.NetOutput %y : tensor<4x64xf16>
}

// -----

// ... never a scalar ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.HcomAllGather: HcomAllGather cannot gather a scalar
  %y = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<f16>) -> tensor<2xf16>
  ge.NetOutput %y : tensor<2xf16>
}

// -----

// ... and keeps the dtype.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.HcomAllGather: input and output must share one dtype, got f16, f32
  %y = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf32>
  ge.NetOutput %y : tensor<8x8xf32>
}
