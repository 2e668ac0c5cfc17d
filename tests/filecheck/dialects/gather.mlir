// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// GE's Gather (axis 0) and GatherV2 (axis from a Const input), selection_ops.h: output
// shape x.shape[:axis] + indices.shape[batch_dims:] + x.shape[axis+1:].

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Const {value = dense<[7, 0, 3]> : tensor<3xi32>} : tensor<3xi32>
  %ax = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %neg = ge.Const {value = dense<[-1]> : tensor<1xi64>} : tensor<1xi64>
  %j = ge.Const {value = dense<[[0, 3], [2, 1]]> : tensor<2x2xi64>} : tensor<2x2xi64>
  %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
  %g2 = ge.GatherV2(%x, %j, %neg) {negative_index_support = true} : (tensor<4x8xf32>, tensor<2x2xi64>, tensor<1xi64>) -> tensor<4x2x2xf32>
  %h = ge.Gather(%x, %j) {batch_dims = 0} : (tensor<4x8xf32>, tensor<2x2xi64>) -> tensor<2x2x8xf32>
  ge.NetOutput %g, %g2, %h : tensor<4x3xf32>, tensor<4x2x2xf32>, tensor<2x2x8xf32>
}

// CHECK:      %g = ge.GatherV2(%x, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
// CHECK-NEXT: %g2 = ge.GatherV2(%x, %j, %neg) {negative_index_support = true} : (tensor<4x8xf32>, tensor<2x2xi64>, tensor<1xi64>) -> tensor<4x2x2xf32>
// CHECK-NEXT: %h = ge.Gather(%x, %j) {batch_dims = 0} : (tensor<4x8xf32>, tensor<2x2xi64>) -> tensor<2x2x8xf32>

// -----

// batch_dims: the leading dims of x and indices agree and are kept once.
ge.graph @batch {
  %x = ge.Data {index = 0} : tensor<2x5x3xf16>
  %i = ge.Data {index = 1} : tensor<2x4xi32>
  %ax = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %g = ge.GatherV2(%x, %i, %ax) {batch_dims = 1} : (tensor<2x5x3xf16>, tensor<2x4xi32>, tensor<i32>) -> tensor<2x4x3xf16>
  ge.NetOutput %g : tensor<2x4x3xf16>
}

// CHECK: %g = ge.GatherV2(%x, %i, %ax) {batch_dims = 1} : (tensor<2x5x3xf16>, tensor<2x4xi32>, tensor<i32>) -> tensor<2x4x3xf16>
