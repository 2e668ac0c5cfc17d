// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// The reshape family (element count, Squeeze/Unsqueeze/ExpandDims axes), Bitcast's byte
// size, TransposeD's perm, BroadcastToD's target, Shape's output.

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Reshape: Reshape changes the element count: 4x8 has 32, 4x4 has 16
  %r = ge.Reshape(%x) : (tensor<4x8xf16>) -> tensor<4x4xf16>
  ge.NetOutput %r : tensor<4x4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Reshape: input and output must share one dtype, got f16, f32
  %r = ge.Reshape(%x) : (tensor<4x8xf16>) -> tensor<32xf32>
  ge.NetOutput %r : tensor<32xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Flatten: Flatten changes the element count: 2x3x4 has 24, 2x4 has 8
  %r = ge.Flatten(%x) {axis = 1} : (tensor<2x3x4xf16>) -> tensor<2x4xf16>
  ge.NetOutput %r : tensor<2x4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReFormat: input and output must share one dtype, got f16, i16
  %r = ge.ReFormat(%x) : (tensor<2x3x4xf16>) -> tensor<2x3x4xi16>
  ge.NetOutput %r : tensor<2x3x4xi16>
}

// -----

// Squeeze removes size-1 axes only ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x1x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Squeeze: cannot squeeze axis 2 of size 4
  %r = ge.Squeeze(%x) {axis = [1, 2]} : (tensor<2x1x4xf16>) -> tensor<8xf16>
  ge.NetOutput %r : tensor<8xf16>
}

// -----

// ... of the input's rank ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x1x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Squeeze: axis 3 is out of range for rank 3 (valid: [-3, 2])
  %r = ge.Squeeze(%x) {axis = [3]} : (tensor<2x1x4xf16>) -> tensor<2x4xf16>
  ge.NetOutput %r : tensor<2x4xf16>
}

// -----

// ... and, without axes, all of them.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x1x4x1xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Squeeze: output 0 has shape 2x4x1, but Squeeze infers 2x4
  %r = ge.Squeeze(%x) : (tensor<2x1x4x1xf16>) -> tensor<2x4x1xf16>
  ge.NetOutput %r : tensor<2x4x1xf16>
}

// -----

// Unsqueeze: axes are output positions, each named once ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Unsqueeze: axes [0, -4] name an axis twice
  %r = ge.Unsqueeze(%x) {axes = [0, -4]} : (tensor<2x4xf16>) -> tensor<1x1x2x4xf16>
  ge.NetOutput %r : tensor<1x1x2x4xf16>
}

// -----

// ... in [-(rank + len(axes)), rank + len(axes)).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Unsqueeze: axes entry 3 is out of range for rank 3 (valid: [-3, 2])
  %r = ge.Unsqueeze(%x) {axes = [3]} : (tensor<2x4xf16>) -> tensor<2x4x1xf16>
  ge.NetOutput %r : tensor<2x4x1xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Unsqueeze: output 0 has shape 1x2x4, but Unsqueeze infers 2x1x4
  %r = ge.Unsqueeze(%x) {axes = [1]} : (tensor<2x4xf16>) -> tensor<1x2x4xf16>
  ge.NetOutput %r : tensor<1x2x4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Unsqueeze: Unsqueeze requires attribute 'axes' (a list of integers, e.g. [0, 1])
  %r = ge.Unsqueeze(%x) : (tensor<2x4xf16>) -> tensor<1x2x4xf16>
  ge.NetOutput %r : tensor<1x2x4xf16>
}

// -----

// ExpandDims: axis in [-(rank + 1), rank + 1) ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ExpandDims: axis -4 is out of range for rank 3 (valid: [-3, 2])
  %r = ge.ExpandDims(%x) {axis = -4} : (tensor<2x4xf16>) -> tensor<1x2x4xf16>
  ge.NetOutput %r : tensor<1x2x4xf16>
}

// -----

// ... inserting 1 there (-1 appends).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ExpandDims: output 0 has shape 2x1x4, but ExpandDims infers 2x4x1
  %r = ge.ExpandDims(%x) {axis = -1} : (tensor<2x4xf16>) -> tensor<2x1x4xf16>
  ge.NetOutput %r : tensor<2x1x4xf16>
}

// -----

// Bitcast keeps the byte size: 4x8 f16 is 64 bytes, 4x8 f32 is 128.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Bitcast: Bitcast changes the byte size: tensor<4x8xf16> is 64 bytes, tensor<4x8xf32> is 128
  %r = ge.Bitcast(%x) : (tensor<4x8xf16>) -> tensor<4x8xf32>
  ge.NetOutput %r : tensor<4x8xf32>
}

// -----

// TransposeD: perm is a permutation of the input's axes ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.TransposeD: perm [0, 2, 2] is not a permutation of 0..2
  %r = ge.TransposeD(%x) {perm = [0, 2, 2]} : (tensor<2x3x4xf16>) -> tensor<2x4x4xf16>
  ge.NetOutput %r : tensor<2x4x4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.TransposeD: perm [1, 0] is not a permutation of 0..2
  %r = ge.TransposeD(%x) {perm = [1, 0]} : (tensor<2x3x4xf16>) -> tensor<3x2xf16>
  ge.NetOutput %r : tensor<3x2xf16>
}

// -----

// ... output dim i is input dim perm[i] ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.TransposeD: output 0 has shape 4x3x2, but TransposeD infers 4x2x3
  %r = ge.TransposeD(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf16>) -> tensor<4x3x2xf16>
  ge.NetOutput %r : tensor<4x3x2xf16>
}

// -----

// ... and the dtype is kept.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.TransposeD: input and output must share one dtype, got f16, f32
  %r = ge.TransposeD(%x) {perm = [1, 0]} : (tensor<2x3xf16>) -> tensor<3x2xf32>
  ge.NetOutput %r : tensor<3x2xf32>
}

// -----

// BroadcastToD: numpy's rules towards `shape` ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.BroadcastToD: input shape 3x4 cannot broadcast to 2x4
  %r = ge.BroadcastToD(%x) {shape = [2, 4]} : (tensor<3x4xf16>) -> tensor<2x4xf16>
  ge.NetOutput %r : tensor<2x4xf16>
}

// -----

// ... never to a lower rank ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.BroadcastToD: input shape 1x3x4 cannot broadcast to 3x4
  %r = ge.BroadcastToD(%x) {shape = [3, 4]} : (tensor<1x3x4xf16>) -> tensor<3x4xf16>
  ge.NetOutput %r : tensor<3x4xf16>
}

// -----

// ... and the output is `shape`.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<1x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.BroadcastToD: output 0 has shape 3x4, but BroadcastToD infers 5x4
  %r = ge.BroadcastToD(%x) {shape = [5, 4]} : (tensor<1x4xf16>) -> tensor<3x4xf16>
  ge.NetOutput %r : tensor<3x4xf16>
}

// -----

// Shape: a 1-D tensor with one entry per input axis.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Shape: output 0 has shape 2, but Shape infers 3
  %s = ge.Shape(%x) : (tensor<2x3x4xf16>) -> tensor<2xi64>
  ge.NetOutput %s : tensor<2xi64>
}
