// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the reshape family (Reshape with and without its shape input, Squeeze,
// Unsqueeze, ExpandDims, Flatten, FlattenV2, ReFormat, the V2/V3 squeezes), Bitcast,
// TransposeD and BroadcastToD.

ge.graph @views {
  %x = ge.Data {index = 0} : tensor<2x1x3x4xf32>
  %shape = ge.Data {index = 1} : tensor<2xi64>
  %r = ge.Reshape(%x) : (tensor<2x1x3x4xf32>) -> tensor<6x4xf32>
  %r2 = ge.Reshape(%x, %shape) : (tensor<2x1x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  %sq = ge.Squeeze(%x) {axis = [1]} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
  %sqall = ge.Squeeze(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
  %un = ge.Unsqueeze(%sq) {axes = [0, -1]} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4x1xf32>
  %ex = ge.ExpandDims(%sq) {axis = -1} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
  %fl = ge.Flatten(%x) {axis = 1} : (tensor<2x1x3x4xf32>) -> tensor<2x12xf32>
  %fl2 = ge.FlattenV2(%x) {axis = 1, end_axis = -1} : (tensor<2x1x3x4xf32>) -> tensor<2x12xf32>
  %rf = ge.ReFormat(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x1x3x4xf32>
  %s2 = ge.SqueezeV2(%x) {axis = [1]} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
  %s3 = ge.SqueezeV3(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
  %u2 = ge.UnsqueezeV2(%sq) {axis = [0]} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %u3 = ge.UnsqueezeV3(%sq) : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
  %bc = ge.Bitcast(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x1x3x4x2xf16>
  %tr = ge.TransposeD(%x) {perm = [0, 2, 3, 1]} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4x1xf32>
  %br = ge.BroadcastToD(%sq) {shape = [5, 2, 3, 4]} : (tensor<2x3x4xf32>) -> tensor<5x2x3x4xf32>
  ge.NetOutput %r, %r2, %sqall, %un, %ex, %fl, %fl2, %rf, %s2, %s3, %u2, %u3, %bc, %tr, %br : tensor<6x4xf32>, tensor<2x12xf32>, tensor<2x3x4xf32>, tensor<1x2x3x4x1xf32>, tensor<2x3x4x1xf32>, tensor<2x12xf32>, tensor<2x12xf32>, tensor<2x1x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<2x3x4x1xf32>, tensor<2x1x3x4x2xf16>, tensor<2x3x4x1xf32>, tensor<5x2x3x4xf32>
}

// CHECK:      ge.graph @views {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<2x1x3x4xf32>
// CHECK-NEXT:   %shape = ge.Data {index = 1} : tensor<2xi64>
// CHECK-NEXT:   %r = ge.Reshape(%x) : (tensor<2x1x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:   %r2 = ge.Reshape(%x, %shape) : (tensor<2x1x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
// CHECK-NEXT:   %sq = ge.Squeeze(%x) {axis = [1]} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %sqall = ge.Squeeze(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %un = ge.Unsqueeze(%sq) {axes = [0, -1]} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4x1xf32>
// CHECK-NEXT:   %ex = ge.ExpandDims(%sq) {axis = -1} : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
// CHECK-NEXT:   %fl = ge.Flatten(%x) {axis = 1} : (tensor<2x1x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:   %fl2 = ge.FlattenV2(%x) {axis = 1, end_axis = -1} : (tensor<2x1x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:   %rf = ge.ReFormat(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x1x3x4xf32>
// CHECK-NEXT:   %s2 = ge.SqueezeV2(%x) {axis = [1]} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %s3 = ge.SqueezeV3(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %u2 = ge.UnsqueezeV2(%sq) {axis = [0]} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT:   %u3 = ge.UnsqueezeV3(%sq) : (tensor<2x3x4xf32>) -> tensor<2x3x4x1xf32>
// CHECK-NEXT:   %bc = ge.Bitcast(%x) : (tensor<2x1x3x4xf32>) -> tensor<2x1x3x4x2xf16>
// CHECK-NEXT:   %tr = ge.TransposeD(%x) {perm = [0, 2, 3, 1]} : (tensor<2x1x3x4xf32>) -> tensor<2x3x4x1xf32>
// CHECK-NEXT:   %br = ge.BroadcastToD(%sq) {shape = [5, 2, 3, 4]} : (tensor<2x3x4xf32>) -> tensor<5x2x3x4xf32>
// CHECK-NEXT:   ge.NetOutput %r, %r2, %sqall, %un, %ex, %fl, %fl2, %rf, %s2, %s3, %u2, %u3, %bc, %tr, %br : tensor<6x4xf32>, tensor<2x12xf32>, tensor<2x3x4xf32>, tensor<1x2x3x4x1xf32>, tensor<2x3x4x1xf32>, tensor<2x12xf32>, tensor<2x12xf32>, tensor<2x1x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<2x3x4x1xf32>, tensor<2x1x3x4x2xf16>, tensor<2x3x4x1xf32>, tensor<5x2x3x4xf32>
// CHECK-NEXT: }
