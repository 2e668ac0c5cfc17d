// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the reductions: keep_dims true/false, negative axes, empty axes (all).

ge.graph @reduce {
  %x = ge.Data {index = 0} : tensor<2x3x4xf32>
  %sum = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %max = ge.ReduceMaxD(%x) {axes = [-1]} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %min = ge.ReduceMinD(%x) {axes = [0, 2], keep_dims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %mean = ge.ReduceMeanD(%x) {axes = []} : (tensor<2x3x4xf32>) -> tensor<f32>
  %prod = ge.ReduceProdD(%x) {axes = [], keep_dims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  ge.NetOutput %sum, %max, %min, %mean, %prod : tensor<2x1x4xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<f32>, tensor<1x1x1xf32>
}

// CHECK:      ge.graph @reduce {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<2x3x4xf32>
// CHECK-NEXT:   %sum = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT:   %max = ge.ReduceMaxD(%x) {axes = [-1]} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:   %min = ge.ReduceMinD(%x) {axes = [0, 2], keep_dims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
// CHECK-NEXT:   %mean = ge.ReduceMeanD(%x) {axes = []} : (tensor<2x3x4xf32>) -> tensor<f32>
// CHECK-NEXT:   %prod = ge.ReduceProdD(%x) {axes = [], keep_dims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:   ge.NetOutput %sum, %max, %min, %mean, %prod : tensor<2x1x4xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<f32>, tensor<1x1x1xf32>
// CHECK-NEXT: }
