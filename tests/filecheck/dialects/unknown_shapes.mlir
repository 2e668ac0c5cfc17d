// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// A graph with an unknown batch (`?`, GE's -1) and an unranked tensor (GE's -2) verifies and
// round-trips: broadcast of ? against 16 is 16, against 1 stays ?, MatMul keeps the batch,
// a ConcatD with an unknown input has an unknown concat dim, an unranked input gives an
// unranked Relu.

ge.graph @dynamic {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %w = ge.Data {index = 1} : tensor<32x16xf32>
  %b = ge.Data {index = 2} : tensor<?x16xf32>
  %u = ge.Data {index = 3} : tensor<*xf32>
  %m = ge.MatMul(%x, %w) : (tensor<?x32xf32>, tensor<32x16xf32>) -> tensor<?x16xf32>
  %a = ge.Add(%m, %b) : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %c = ge.ConcatD(%a, %m) {concat_dim = 0} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = ge.Relu(%u) : (tensor<*xf32>) -> tensor<*xf32>
  ge.NetOutput %c, %r : tensor<?x16xf32>, tensor<*xf32>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   ge.graph @dynamic {
// CHECK-NEXT:     %x = ge.Data {index = 0} : tensor<?x32xf32>
// CHECK-NEXT:     %w = ge.Data {index = 1} : tensor<32x16xf32>
// CHECK-NEXT:     %b = ge.Data {index = 2} : tensor<?x16xf32>
// CHECK-NEXT:     %u = ge.Data {index = 3} : tensor<*xf32>
// CHECK-NEXT:     %m = ge.MatMul(%x, %w) : (tensor<?x32xf32>, tensor<32x16xf32>) -> tensor<?x16xf32>
// CHECK-NEXT:     %a = ge.Add(%m, %b) : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
// CHECK-NEXT:     %c = ge.ConcatD(%a, %m) {concat_dim = 0} : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
// CHECK-NEXT:     %r = ge.Relu(%u) : (tensor<*xf32>) -> tensor<*xf32>
// CHECK-NEXT:     ge.NetOutput %c, %r : tensor<?x16xf32>, tensor<*xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
