// RUN: ge-run %s --reference --print-values | filecheck %s
// Conv2D of [[1,2,3],[4,5,6],[7,8,9]] with the 2x2 filter [[1,2],[3,4]] (NCHW, no pads):
//   1+4+12+20 = 37, 2+6+15+24 = 47, 4+10+21+32 = 67, 5+12+24+36 = 77.
// MatMul [[1,2],[3,4]] @ [[5,6],[7,8]] = [[19,22],[43,50]], in f16, run in subgraph @mm
// through PartitionedCall; HcomAllGather with rank_size 2 stacks two copies of [1, 2].

ge.graph @main {
  %x = ge.Const {value = dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>} : tensor<1x1x3x3xf32>
  %w = ge.Const {value = dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>} : tensor<1x1x2x2xf32>
  %conv = ge.Conv2D(%x, %w) {strides = [1, 1, 1, 1], pads = [0, 0, 0, 0], dilations = [1, 1, 1, 1], groups = 1} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %a = ge.Const {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>} : tensor<2x2xf16>
  %b = ge.Const {value = dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf16>} : tensor<2x2xf16>
  %mm = ge.PartitionedCall(%a, %b) {f = @mm} : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  %v = ge.Const {value = dense<[[1, 2]]> : tensor<1x2xi64>} : tensor<1x2xi64>
  %g = ge.HcomAllGather(%v) {rank_size = 2} : (tensor<1x2xi64>) -> tensor<2x2xi64>
  ge.NetOutput %conv, %mm, %g : tensor<1x1x2x2xf32>, tensor<2x2xf16>, tensor<2x2xi64>
}

ge.graph @mm {
  %l = ge.Data {index = 0} : tensor<2x2xf16>
  %r = ge.Data {index = 1} : tensor<2x2xf16>
  %p = ge.MatMul(%l, %r) : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  ge.NetOutput %p : tensor<2x2xf16>
}

// CHECK:      output 0 conv:0: shape 1x1x2x2 float32 min 37 max 77 mean 57 crc32 35792b35
// CHECK-NEXT: {{^\[\[\[\[}}37., 47.],
// CHECK-NEXT: {{^}}   [67., 77.]]]]
// CHECK-NEXT: output 1 mm:0: shape 2x2 float16 min 19 max 50 mean 33.5 crc32 01b8c32a
// CHECK-NEXT: {{^\[\[}}19., 22.],
// CHECK-NEXT: {{^}} [43., 50.]]
// CHECK-NEXT: output 2 g:0: shape 2x2 int64 min 1 max 2 mean 1.5
// CHECK-NEXT: {{^\[\[}}1, 2],
// CHECK-NEXT: {{^}} [1, 2]]
