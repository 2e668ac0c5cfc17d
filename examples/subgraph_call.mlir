// A partitioned graph: the root graph calls a subgraph through PartitionedCall, as GE's
// dynamic-shape partitioning leaves it (docs/ge/notask.md, PartitionedCall's output size
// test). The call's inputs map to the subgraph's Data nodes by index, its outputs to the
// subgraph's NetOutput. The subgraph holds a small split/relu/concat block.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<4x50xf32>
  %b = ge.Data {index = 1} : tensor<4x50xf32>
  %y = ge.PartitionedCall(%x, %b) {f = @block} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %z = ge.Relu(%y) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %z : tensor<4x50xf32>
}

ge.graph @block {
  %in = ge.Data {index = 0} : tensor<4x50xf32>
  %bias = ge.Data {index = 1} : tensor<4x50xf32>
  %t = ge.Add(%in, %bias) : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %h0, %h1 = ge.SplitD(%t) {split_dim = 0, num_split = 2} : (tensor<4x50xf32>) -> (tensor<2x50xf32>, tensor<2x50xf32>)
  %r0 = ge.Relu(%h0) : (tensor<2x50xf32>) -> tensor<2x50xf32>
  %r1 = ge.Tanh(%h1) : (tensor<2x50xf32>) -> tensor<2x50xf32>
  %c = ge.ConcatD(%r0, %r1) {concat_dim = 0} : (tensor<2x50xf32>, tensor<2x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %c : tensor<4x50xf32>
}
