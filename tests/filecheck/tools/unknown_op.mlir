// RUN: not ge-opt %s 2>&1 | filecheck %s
// An op the ge dialect does not have: one parse error located at the op name, exit 1.
// CHECK: {{\A}}{{.*}}unknown_op.mlir:[[# @LINE + 4]]:8: error: Operation ge.Frobnicate is not registered{{$}}
// CHECK-NOT: {{.}}
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %r = ge.Frobnicate(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %r : tensor<4xf16>
}
