// RUN: not ge-opt %s 2>&1 | filecheck %s
// A verifier error is one located line on stderr, and exit code 1.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<4x8xf16>
  %c = ge.ConcatD(%x, %y) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x8xf16>) -> tensor<8x16xf16>
  ge.NetOutput %c : tensor<8x16xf16>
}

// CHECK: {{\A}}{{.*}}located_errors.mlir:7:3: error: ge.ConcatD: input 1 has shape 4x8; all inputs must match input 0 (4x16) except on concat_dim 0{{$}}
// CHECK-NOT: {{.}}
