// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// Known dims that disagree are errors with unknown dims around: `?` agrees with anything.

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %y = ge.Data {index = 1} : tensor<5x4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Add: output 0 has shape 6x4, but Add infers 5x4
  %a = ge.Add(%x, %y) : (tensor<?x4xf32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  ge.NetOutput %a : tensor<6x4xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %w = ge.Data {index = 1} : tensor<5x8xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.MatMul: MatMul inner dims differ: ?x4 @ 5x8
  %m = ge.MatMul(%x, %w) : (tensor<?x4xf32>, tensor<5x8xf32>) -> tensor<?x8xf32>
  ge.NetOutput %m : tensor<?x8xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x?x5xf32>
  %y = ge.Data {index = 1} : tensor<3x4x6xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: input 1 has shape 3x4x6; all inputs must match input 0 (2x?x5) except on concat_dim 0
  %c = ge.ConcatD(%x, %y) {concat_dim = 0} : (tensor<2x?x5xf32>, tensor<3x4x6xf32>) -> tensor<5x4x5xf32>
  ge.NetOutput %c : tensor<5x4x5xf32>
}
