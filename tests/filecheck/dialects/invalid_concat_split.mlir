// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// ConcatD / ConcatV2D, Pack, SplitD, SplitVD: attribute consistency, axis ranges, shapes.

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: inputs and output must share one dtype, got f16, f32
  %c = ge.ConcatD(%x, %y) {concat_dim = 0} : (tensor<4x8xf16>, tensor<4x8xf32>) -> tensor<8x8xf16>
  ge.NetOutput %c : tensor<8x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: attribute N = 3 but ConcatD has 2 inputs
  %c = ge.ConcatD(%x, %x) {concat_dim = 0, N = 3} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  ge.NetOutput %c : tensor<8x8xf16>
}

// -----

// Scalar inputs (concatv2d.cc: InferShape4ConcatV2Common): of several inputs, a scalar
// input 0 counts as shape [1], so concat_dim lies in [-1, 1) ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: concat_dim 1 is out of range for rank 1 (valid: [-1, 0])
  %c = ge.ConcatD(%x, %x) {concat_dim = 1} : (tensor<f16>, tensor<f16>) -> tensor<2xf16>
  ge.NetOutput %c : tensor<2xf16>
}

// -----

// ... and each scalar adds 1 to the concat dim of a rank-1 output only.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  %y = ge.Data {index = 1} : tensor<2x3xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: input 1 has shape scalar; all inputs must match input 0 (2x3) except on concat_dim 0
  %c = ge.ConcatD(%y, %x) : (tensor<2x3xf16>, tensor<f16>) -> tensor<3x3xf16>
  ge.NetOutput %c : tensor<3x3xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  %y = ge.Data {index = 1} : tensor<2x3xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: input 1 has shape 2x3; all inputs must match input 0 (scalar, counted as shape 1) except on concat_dim 0
  %c = ge.ConcatD(%x, %y) : (tensor<f16>, tensor<2x3xf16>) -> tensor<3x3xf16>
  ge.NetOutput %c : tensor<3x3xf16>
}

// -----

// The inferred shape: two scalars and a 3-vector make a 5-vector.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  %y = ge.Data {index = 1} : tensor<3xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: output 0 has shape 4, but ConcatD infers 5
  %c = ge.ConcatD(%x, %y, %x) : (tensor<f16>, tensor<3xf16>, tensor<f16>) -> tensor<4xf16>
  ge.NetOutput %c : tensor<4xf16>
}

// -----

// concat_dim lies in [-rank, rank).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: concat_dim 2 is out of range for rank 2 (valid: [-2, 1])
  %c = ge.ConcatD(%x, %x) {concat_dim = 2} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x16xf16>
  ge.NetOutput %c : tensor<4x16xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatV2D: concat_dim -3 is out of range for rank 2 (valid: [-2, 1])
  %c = ge.ConcatV2D(%x, %x) {concat_dim = -3} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x16xf16>
  ge.NetOutput %c : tensor<4x16xf16>
}

// -----

// Inputs agree on every dim except concat_dim ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<4x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: input 1 has shape 4x4; all inputs must match input 0 (4x8) except on concat_dim 0
  %c = ge.ConcatD(%x, %y) {concat_dim = 0} : (tensor<4x8xf16>, tensor<4x4xf16>) -> tensor<8x8xf16>
  ge.NetOutput %c : tensor<8x8xf16>
}

// -----

// ... and on the rank ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<4x8x1xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatV2D: input 1 has shape 4x8x1; all inputs must match input 0 (4x8) except on concat_dim 1
  %c = ge.ConcatV2D(%x, %y) {concat_dim = 1} : (tensor<4x8xf16>, tensor<4x8x1xf16>) -> tensor<4x16xf16>
  ge.NetOutput %c : tensor<4x16xf16>
}

// -----

// ... and the output's concat_dim is the sum of the inputs'.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<4x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: output 0 has shape 4x16, but ConcatD infers 4x12
  %c = ge.ConcatD(%x, %y) {concat_dim = -1} : (tensor<4x8xf16>, tensor<4x4xf16>) -> tensor<4x16xf16>
  ge.NetOutput %c : tensor<4x16xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Pack: attribute N = 2 but Pack has 3 inputs
  %p = ge.Pack(%x, %x, %x) {axis = 0, N = 2} : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<3x4x8xf16>
  ge.NetOutput %p : tensor<3x4x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %y = ge.Data {index = 1} : tensor<8x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Pack: input 1 has shape 8x4; Pack needs all inputs equal to input 0 (4x8)
  %p = ge.Pack(%x, %y) {axis = 0} : (tensor<4x8xf16>, tensor<8x4xf16>) -> tensor<2x4x8xf16>
  ge.NetOutput %p : tensor<2x4x8xf16>
}

// -----

// Pack's axis lies in [-(rank + 1), rank + 1).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Pack: axis 3 is out of range for rank 3 (valid: [-3, 2])
  %p = ge.Pack(%x, %x) {axis = 3} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8x2xf16>
  ge.NetOutput %p : tensor<4x8x2xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Pack: output 0 has shape 2x4x8, but Pack infers 4x2x8
  %p = ge.Pack(%x, %x) {axis = 1} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<2x4x8xf16>
  ge.NetOutput %p : tensor<2x4x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Pack: inputs and output must share one dtype, got f16, f32
  %p = ge.Pack(%x, %x) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<2x4x8xf32>
  ge.NetOutput %p : tensor<2x4x8xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: num_split = 4 but SplitD has 2 outputs
  %a, %b = ge.SplitD(%x) {split_dim = 1, num_split = 4} : (tensor<4x8xf16>) -> (tensor<4x4xf16>, tensor<4x4xf16>)
  ge.NetOutput %a, %b : tensor<4x4xf16>, tensor<4x4xf16>
}

// -----

// SplitD splits into equal parts: 8 does not divide by 3.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: split_dim size 8 is not divisible by num_split 3
  %a, %b, %c = ge.SplitD(%x) {split_dim = 1, num_split = 3} : (tensor<4x8xf16>) -> (tensor<4x3xf16>, tensor<4x3xf16>, tensor<4x2xf16>)
  ge.NetOutput %a : tensor<4x3xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<f16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: SplitD cannot split a scalar
  %a = ge.SplitD(%x) {split_dim = 0, num_split = 1} : (tensor<f16>) -> tensor<f16>
  ge.NetOutput %a : tensor<f16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: split_dim -3 is out of range for rank 2 (valid: [-2, 1])
  %a, %b = ge.SplitD(%x) {split_dim = -3, num_split = 2} : (tensor<4x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf16>)
  ge.NetOutput %a : tensor<2x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: output 1 has shape 4x4, but SplitD infers 2x8
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x8xf16>) -> (tensor<2x8xf16>, tensor<4x4xf16>)
  ge.NetOutput %a : tensor<2x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: input and outputs must share one dtype, got f16, f32
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf32>)
  ge.NetOutput %a : tensor<2x8xf16>
}

// -----

// SplitVD: one size per output ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: size_splits has 3 entries for 2 outputs
  %a, %b = ge.SplitVD(%x) {size_splits = [2, 2, 4], split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x2xf16>, tensor<4x6xf16>)
  ge.NetOutput %a : tensor<4x2xf16>
}

// -----

// ... sizes >= 0 with at most one -1 ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: size_splits [-1, -1]: sizes must be >= 0, with at most one -1
  %a, %b = ge.SplitVD(%x) {size_splits = [-1, -1], split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x4xf16>, tensor<4x4xf16>)
  ge.NetOutput %a : tensor<4x4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: size_splits [10, -2]: sizes must be >= 0, with at most one -1
  %a, %b = ge.SplitVD(%x) {size_splits = [10, -2], split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x10xf16>, tensor<4x2xf16>)
  ge.NetOutput %a : tensor<4x10xf16>
}

// -----

// ... that add up to the split dim ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: size_splits [2, 4] do not add up to split_dim size 8
  %a, %b = ge.SplitVD(%x) {size_splits = [2, 4], split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x2xf16>, tensor<4x4xf16>)
  ge.NetOutput %a : tensor<4x2xf16>
}

// -----

// ... or, with a -1, do not exceed it.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: size_splits [10, -1] do not add up to split_dim size 8
  %a, %b = ge.SplitVD(%x) {size_splits = [10, -1], split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x10xf16>, tensor<4x0xf16>)
  ge.NetOutput %a : tensor<4x10xf16>
}

// -----

// The -1 takes the rest: here 6, not 4.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: output 1 has shape 4x4, but SplitVD infers 4x6
  %a, %b = ge.SplitVD(%x) {size_splits = [2, -1], split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x2xf16>, tensor<4x4xf16>)
  ge.NetOutput %a : tensor<4x2xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitVD: SplitVD requires attribute 'size_splits' (a list of integers, e.g. [0, 1])
  %a, %b = ge.SplitVD(%x) {split_dim = 1, num_split = 2} : (tensor<4x8xf16>) -> (tensor<4x4xf16>, tensor<4x4xf16>)
  ge.NetOutput %a : tensor<4x4xf16>
}
