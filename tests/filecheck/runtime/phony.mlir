// RUN: ge-run %s --reference --seed 0 --print-values | filecheck %s
// PhonyConcat places input k at slice ids first-listed-axis-fastest (GE's GetConcatOffset):
// concat_dim = [2, 1], N = [2, 2] puts input k at (dim 2: k % 2, dim 1: k / 2), so the
// splats 0, 1, 2, 3 of shape 1x1x2 make [[[0, 0, 1, 1], [2, 2, 3, 3]]].
// PhonySplit takes output k at slice ids last-listed-axis-fastest (GetSplitOffset):
// split_dim = [1, 2] gives the pieces back in order 0, 1, 2, 3; split_dim = [2, 1] makes
// dim 1 the fastest: 0, 2, 1, 3.

ge.graph @main {
  %p0 = ge.Const {value = dense<0> : tensor<1x1x2xi32>} : tensor<1x1x2xi32>
  %p1 = ge.Const {value = dense<1> : tensor<1x1x2xi32>} : tensor<1x1x2xi32>
  %p2 = ge.Const {value = dense<2> : tensor<1x1x2xi32>} : tensor<1x1x2xi32>
  %p3 = ge.Const {value = dense<3> : tensor<1x1x2xi32>} : tensor<1x1x2xi32>
  %c = ge.PhonyConcat(%p0, %p1, %p2, %p3) {concat_dim = [2, 1], N = [2, 2]} : (tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>) -> tensor<1x2x4xi32>
  %a0, %a1, %a2, %a3 = ge.PhonySplit(%c) {split_dim = [1, 2], num_split = [2, 2]} : (tensor<1x2x4xi32>) -> (tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>)
  %b0, %b1, %b2, %b3 = ge.PhonySplit(%c) {split_dim = [2, 1], num_split = [2, 2]} : (tensor<1x2x4xi32>) -> (tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>)
  ge.NetOutput %c, %a1, %a2, %b1, %b2 : tensor<1x2x4xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>, tensor<1x1x2xi32>
}

// CHECK:      output 0 c:0: shape 1x2x4 int32 min 0 max 3 mean 1.5
// CHECK-NEXT: {{^\[\[\[}}0, 0, 1, 1],
// CHECK-NEXT: {{^}}  [2, 2, 3, 3]]]
// CHECK-NEXT: output 1 a0:1: shape 1x1x2 int32 min 1 max 1 mean 1
// CHECK-NEXT: {{^\[\[\[}}1, 1]]]
// CHECK-NEXT: output 2 a0:2: shape 1x1x2 int32 min 2 max 2 mean 2
// CHECK-NEXT: {{^\[\[\[}}2, 2]]]
// CHECK-NEXT: output 3 b0:1: shape 1x1x2 int32 min 2 max 2 mean 2
// CHECK-NEXT: {{^\[\[\[}}2, 2]]]
// CHECK-NEXT: output 4 b0:2: shape 1x1x2 int32 min 1 max 1 mean 1
// CHECK-NEXT: {{^\[\[\[}}1, 1]]]
