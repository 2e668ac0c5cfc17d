// RUN: not ge-opt %s 2>&1 | filecheck %s
// concat_dim outside [-rank, rank) (GE's ConcatNotaskPass would normalise -10 on rank 2 to
// -8 and reject; the verifier rejects it first).
// CHECK: {{\A}}{{.*}}concat_dim_out_of_range.mlir:[[# @LINE + 4]]:3: error: ge.ConcatD: concat_dim -10 is out of range for rank 2 (valid: [-2, 1]){{$}}
// CHECK-NOT: {{.}}
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %c = ge.ConcatD(%x, %x) {concat_dim = -10} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %c : tensor<8x16xf16>
}
