// RUN: ge-run %s | filecheck %s
// RUN: ge-run %s --streams 2 | filecheck %s

// ge-run's error bounds (runtime/error_bound.py) of 0-d values stay 0-d: numpy's
// ascontiguousarray makes a 0-d array 1-d, and the bound of the 0-d Abs then failed to
// broadcast back to its scalar ("internal error: ValueError: cannot broadcast a
// non-scalar to a scalar array") for every 0-d elementwise op.

ge.graph @main {
  %s = ge.Data {index = 0} : tensor<f32>
  %i = ge.Data {index = 1} : tensor<i32>
  %a = ge.Abs(%s) : (tensor<f32>) -> tensor<f32>
  %e = ge.Exp(%a) : (tensor<f32>) -> tensor<f32>
  %n = ge.Neg(%i) : (tensor<i32>) -> tensor<i32>
  ge.NetOutput %e, %n : tensor<f32>, tensor<i32>
}

// CHECK:      output 0 e:0: shape scalar float32
// CHECK-NEXT: output 1 n:0: shape scalar int32
// CHECK-NEXT: outputs match the reference
