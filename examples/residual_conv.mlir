// A ResNet basic block in NCHW: Conv2D -> Relu -> Conv2D -> Add(block input) -> Relu.
// Both 3x3 convolutions use stride 1 and pads [1, 1, 1, 1] (top, bottom, left, right), so
// the 1x16x8x8 feature map keeps its size and the residual Add needs no broadcast.
// Conv2D is one of the ops autofuse does not lower (a library kernel, DESIGN.md); the
// Relu/Add in between are what it fuses.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<1x16x8x8xf32>
  %w1 = ge.Data {index = 1} : tensor<16x16x3x3xf32>
  %w2 = ge.Data {index = 2} : tensor<16x16x3x3xf32>
  %c1 = ge.Conv2D(%x, %w1) {strides = [1, 1, 1, 1], pads = [1, 1, 1, 1], dilations = [1, 1, 1, 1], groups = 1, data_format = "NCHW"} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %r1 = ge.Relu(%c1) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c2 = ge.Conv2D(%r1, %w2) {strides = [1, 1, 1, 1], pads = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %sum = ge.Add(%c2, %x) : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = ge.Relu(%sum) : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  ge.NetOutput %y : tensor<1x16x8x8xf32>
}
