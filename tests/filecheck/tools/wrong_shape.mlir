// RUN: not ge-opt %s 2>&1 | filecheck %s
// A declared result shape that is not the inferred one.
// CHECK: {{\A}}{{.*}}wrong_shape.mlir:[[# @LINE + 4]]:3: error: ge.Add: output 0 has shape 4x8, but Add infers 4x16{{$}}
// CHECK-NOT: {{.}}
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Add(%x, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x8xf16>
  ge.NetOutput %a : tensor<4x8xf16>
}
