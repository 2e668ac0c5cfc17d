// RUN: not ge-opt %s 2>&1 | filecheck %s
// A PhonyConcat whose N does not multiply to its input count (GE's
// PhonyConcatCalcOffsetInvalidDim: N = [2, 1] with 4 inputs).
// CHECK: {{\A}}{{.*}}phony_inconsistent_n.mlir:[[# @LINE + 4]]:3: error: ge.PhonyConcat: product of 'N' [2, 1] is 2, but the node has 4 inputs{{$}}
// CHECK-NOT: {{.}}
ge.graph @main {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %c = ge.PhonyConcat(%a, %a, %a, %a) {concat_dim = [3, 1], N = [2, 1]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %c : tensor<1x4x2x8x8xf16>
}
