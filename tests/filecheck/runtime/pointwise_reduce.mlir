// RUN: ge-run %s --reference --seed 0 --print-values | filecheck %s
// RUN: ge-run %s --seed 7 | filecheck %s --check-prefix=CMP
// The input only enters through x * 0, so the outputs are known whatever the seed:
//   a * b  = [[0.5, -0.5, 6], [-2, 1.25, -12]];  relu = [[0.5, 0, 6], [0, 1.25, 0]]
//   row sums = [6.5, 1.25]; mean of relu = 7.75 / 6 = 1.29167.
// The crc32 values are zlib.crc32 of these hand-written float32 arrays' bytes.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3xf32>
  %zero = ge.Const {value = dense<0.0> : tensor<2x3xf32>} : tensor<2x3xf32>
  %xz = ge.Mul(%x, %zero) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = ge.Const {value = dense<[[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]]> : tensor<2x3xf32>} : tensor<2x3xf32>
  %b = ge.Const {value = dense<[0.5, 0.25, 2.0]> : tensor<3xf32>} : tensor<3xf32>
  %s = ge.Add(%xz, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = ge.Mul(%s, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = ge.Relu(%m) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %sum = ge.ReduceSumD(%r) {axes = [1]} : (tensor<2x3xf32>) -> tensor<2xf32>
  ge.NetOutput %r, %sum : tensor<2x3xf32>, tensor<2xf32>
}

// CHECK:      output 0 r:0: shape 2x3 float32 min 0 max 6 mean 1.29167 crc32 76d2c53b
// CHECK-NEXT: {{^\[\[}}0.5 , 0.  , 6.  ],
// CHECK-NEXT: {{^}} [0.  , 1.25, 0.  ]]
// CHECK-NEXT: output 1 sum:0: shape 2 float32 min 1.25 max 6.5 mean 3.875 crc32 378e0adb
// CHECK-NEXT: {{^\[}}6.5 , 1.25]
// CHECK-NOT: match

// CMP:      output 0 r:0: shape 2x3 float32 min 0 max 6 mean 1.29167 crc32 76d2c53b
// CMP-NEXT: output 1 sum:0: shape 2 float32 min 1.25 max 6.5 mean 3.875 crc32 378e0adb
// CMP-NEXT: outputs match the reference
