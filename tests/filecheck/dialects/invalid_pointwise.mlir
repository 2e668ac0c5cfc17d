// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// Pointwise ops (one dtype, numpy broadcasting, AddN's N) and reductions (axes in range,
// no repeats, keep_dims shapes, one dtype).

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Add: inputs must share one dtype, got f16, f32
  %a = ge.Add(%x, %y) : (tensor<4x8xf16>, tensor<4x8xf32>) -> tensor<4x8xf16>
  ge.NetOutput %a : tensor<4x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: output dtype f32 differs from input dtype f16
  %a = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf32>
  ge.NetOutput %a : tensor<4x8xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<3x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Mul: input shapes 4x8 and 3x8 do not broadcast (input 1)
  %a = ge.Mul(%x, %y) : (tensor<4x8xf16>, tensor<3x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %a : tensor<4x8xf16>
}

// -----

// Broadcasting gives the output shape: 4x1 with 1x8 is 4x8, not 4x1.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x1xf16>
  %y = ge.Data {index = 1} : tensor<1x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Sub: output 0 has shape 4x1, but Sub infers 4x8
  %a = ge.Sub(%x, %y) : (tensor<4x1xf16>, tensor<1x8xf16>) -> tensor<4x1xf16>
  ge.NetOutput %a : tensor<4x1xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.AddN: attribute N = 3 but AddN has 2 inputs
  %a = ge.AddN(%x, %x) {N = 3} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %a : tensor<4x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<4x8xi8>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.AddN: inputs must share one dtype, got f16, i8
  %a = ge.AddN(%x, %x, %y) : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xi8>) -> tensor<4x8xf16>
  ge.NetOutput %a : tensor<4x8xf16>
}

// -----

// Reduction axes lie in [-rank, rank) ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceSumD: axis 2 is out of range for rank 2 (valid: [-2, 1])
  %s = ge.ReduceSumD(%x) {axes = [2]} : (tensor<4x8xf16>) -> tensor<4xf16>
  ge.NetOutput %s : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceMaxD: axis -3 is out of range for rank 2 (valid: [-2, 1])
  %s = ge.ReduceMaxD(%x) {axes = [-3]} : (tensor<4x8xf16>) -> tensor<8xf16>
  ge.NetOutput %s : tensor<8xf16>
}

// -----

// ... and name each axis once (-1 and 1 are the same axis of a rank-2 tensor).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceMeanD: axes [1, -1] name an axis twice
  %s = ge.ReduceMeanD(%x) {axes = [1, -1]} : (tensor<4x8xf16>) -> tensor<4xf16>
  ge.NetOutput %s : tensor<4xf16>
}

// -----

// keep_dims keeps the reduced axis as 1.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceSumD: output 0 has shape 4, but ReduceSumD infers 4x1
  %s = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<4x8xf16>) -> tensor<4xf16>
  ge.NetOutput %s : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceProdD: input and output must share one dtype, got f16, f32
  %s = ge.ReduceProdD(%x) {axes = [0]} : (tensor<4x8xf16>) -> tensor<8xf32>
  ge.NetOutput %s : tensor<8xf32>
}

// -----

// The axes attribute is required (an empty list reduces every axis).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceMinD: ReduceMinD requires attribute 'axes' (a list of integers, e.g. [0, 1])
  %s = ge.ReduceMinD(%x) : (tensor<4x8xf16>) -> tensor<f16>
  ge.NetOutput %s : tensor<f16>
}
