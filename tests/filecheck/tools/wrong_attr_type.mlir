// RUN: not ge-opt %s 2>&1 | filecheck %s
// An attribute of the wrong type (a string where GE reads an int).
// CHECK: {{\A}}{{.*}}wrong_attr_type.mlir:[[# @LINE + 5]]:3: error: ge.ConcatD: attribute 'concat_dim' must be an integer, got "0"{{$}}
// CHECK-NOT: {{.}}
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<4x16xf16>
  %c = ge.ConcatD(%x, %y) {concat_dim = "0"} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %c : tensor<8x16xf16>
}
