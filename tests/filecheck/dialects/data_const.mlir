// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the graph inputs and constants: Data, RefData, Const, Constant, Variable
// (with and without an initial value), Shape, and a NetOutput with several values.

ge.graph @inputs {
  %ref = ge.RefData {index = 1} : tensor<2x3xf32>
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %c = ge.Const {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : tensor<2x3xf32>
  %k = ge.Constant {value = dense<7> : tensor<3xi32>} : tensor<3xi32>
  %v = ge.Variable : tensor<2x3xf32>
  %v0 = ge.Variable {value = dense<0.5> : tensor<2x3xf32>} : tensor<2x3xf32>
  %s = ge.Shape(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  ge.NetOutput %ref, %x, %c, %k, %v, %v0, %s : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi64>
}

// CHECK:      ge.graph @inputs {
// CHECK-NEXT:   %ref = ge.RefData {index = 1} : tensor<2x3xf32>
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<2x3xf32>
// CHECK-NEXT:   %c = ge.Const {value = dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>} : tensor<2x3xf32>
// CHECK-NEXT:   %k = ge.Constant {value = dense<7> : tensor<3xi32>} : tensor<3xi32>
// CHECK-NEXT:   %v = ge.Variable : tensor<2x3xf32>
// CHECK-NEXT:   %v0 = ge.Variable {value = dense<5.000000e-01> : tensor<2x3xf32>} : tensor<2x3xf32>
// CHECK-NEXT:   %s = ge.Shape(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK-NEXT:   ge.NetOutput %ref, %x, %c, %k, %v, %v0, %s : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi64>
// CHECK-NEXT: }

// -----

// A graph with no inputs and no outputs: the bare NetOutput.
ge.graph @empty {
  ge.NetOutput
}

// CHECK:      ge.graph @empty {
// CHECK-NEXT:   ge.NetOutput
// CHECK-NEXT: }
