// RUN: not ge-opt %s 2>&1 | filecheck %s
// A file cut off in the middle of a type: one located parse error at the end, exit 1.
// CHECK: {{\A}}{{.*}}truncated.mlir:7:54: error: Expected 'x' in shape delimiter, got EOF{{$}}
// CHECK-NOT: {{.}}
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x1