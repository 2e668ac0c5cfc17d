// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// Gather/GatherV2 verifiers: index dtype, axis range and dtype, inferred shape, batch_dims.

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Gather: indices must be int32 or int64, got f32
  %g = ge.Gather(%x, %i) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<3x8xf32>
  ge.NetOutput %g : tensor<3x8xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %ax = ge.Const {value = dense<2> : tensor<i32>} : tensor<i32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.GatherV2: axis 2 is out of range for rank 2 (valid: [-2, 1])
  %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
  ge.NetOutput %g : tensor<4x3xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %ax = ge.Const {value = dense<1.0> : tensor<f32>} : tensor<f32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.GatherV2: axis must be int32 or int64, got f32
  %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<f32>) -> tensor<4x3xf32>
  ge.NetOutput %g : tensor<4x3xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %ax = ge.Const {value = dense<[0, 1]> : tensor<2xi32>} : tensor<2xi32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.GatherV2: axis must hold one value, got a tensor of shape 2
  %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<2xi32>) -> tensor<4x3xf32>
  ge.NetOutput %g : tensor<4x3xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %ax = ge.Const {value = dense<-1> : tensor<i32>} : tensor<i32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.GatherV2: output 0 has shape 4x8, but GatherV2 infers 4x3
  %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x8xf32>
  ge.NetOutput %g : tensor<4x8xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Gather: x and y must share one dtype, got f16, f32
  %g = ge.Gather(%x, %i) : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<3x8xf16>
  ge.NetOutput %g : tensor<3x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x5x3xf16>
  %i = ge.Data {index = 1} : tensor<3x4xi32>
  %ax = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.GatherV2: the first 1 dims of x 2x5x3 and indices 3x4 must agree (batch_dims)
  %g = ge.GatherV2(%x, %i, %ax) {batch_dims = 1} : (tensor<2x5x3xf16>, tensor<3x4xi32>, tensor<i32>) -> tensor<2x4x3xf16>
  ge.NetOutput %g : tensor<2x4x3xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x5x3xf16>
  %i = ge.Data {index = 1} : tensor<2x4xi32>
  %ax = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.GatherV2: batch_dims 1 is out of range: 0 <= batch_dims <= min(axis 0, indices rank 2)
  %g = ge.GatherV2(%x, %i, %ax) {batch_dims = 1} : (tensor<2x5x3xf16>, tensor<2x4xi32>, tensor<i32>) -> tensor<2x4x3xf16>
  ge.NetOutput %g : tensor<2x4x3xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Gather: Gather takes 2 inputs, got 1
  %g = ge.Gather(%x) : (tensor<4x8xf32>) -> tensor<3x8xf32>
  ge.NetOutput %g : tensor<3x8xf32>
}
