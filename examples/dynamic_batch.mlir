// A graph with a dynamic batch dimension (issue 16), written as GE's DynamicShapePartitioner
// leaves it (the root keeps Data, NetOutput and the Consts, GE's INPUT_NODE clusters; every
// other cluster is a subgraph called by a ge.PartitionedCall marked _is_unknown_shape, named
// as dynamic_shape_partition.cc's GetSubgraphName: <root>_sub_<cluster id>_unknow / _know):
//   unknown-shape part: h = Relu(x * 2) over a batch of any size (an output of the graph),
//     and its mean over the batch (ReduceMeanD axes [0], keep_dims): a 1x32 row, known again;
//   known-shape part: an MLP head y = Sigmoid(Relu(m @ W1 + b1) @ W2 + b2), which ge-run
//     compiles with ge-compile into a static model (npu.model known_node = true) and runs
//     on the device simulator, its input, output and feature-map addresses refreshed on
//     every execution.
// ge-run examples/dynamic_batch.mlir --dim 0=2,8,5
ge.graph @main attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %two = ge.Const {value = dense<2.0> : tensor<f32>} : tensor<f32>
  %u:2 = ge.PartitionedCall(%x, %two) {f = @main_sub_1_unknow, _is_unknown_shape = true} : (tensor<?x32xf32>, tensor<f32>) -> (tensor<?x32xf32>, tensor<1x32xf32>)
  %w1 = ge.Const {value = dense<0.0625> : tensor<32x16xf32>} : tensor<32x16xf32>
  %b1 = ge.Const {value = dense<-0.25> : tensor<1x16xf32>} : tensor<1x16xf32>
  %w2 = ge.Const {value = dense<-0.25> : tensor<16x4xf32>} : tensor<16x4xf32>
  %b2 = ge.Const {value = dense<[[2.0, 1.0, 0.0, -1.0]]> : tensor<1x4xf32>} : tensor<1x4xf32>
  %y = ge.PartitionedCall(%u#1, %w1, %b1, %w2, %b2) {f = @main_sub_2_know, _is_unknown_shape = false} : (tensor<1x32xf32>, tensor<32x16xf32>, tensor<1x16xf32>, tensor<16x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ge.NetOutput %y, %u#0 : tensor<1x4xf32>, tensor<?x32xf32>
}
ge.graph @main_sub_1_unknow attributes {_is_unknown_shape = true} {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %two = ge.Data {index = 1} : tensor<f32>
  %s = ge.Mul(%x, %two) : (tensor<?x32xf32>, tensor<f32>) -> tensor<?x32xf32>
  %h = ge.Relu(%s) : (tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = ge.ReduceMeanD(%h) {axes = [0], keep_dims = true} : (tensor<?x32xf32>) -> tensor<1x32xf32>
  ge.NetOutput %h, %m : tensor<?x32xf32>, tensor<1x32xf32>
}
ge.graph @main_sub_2_know attributes {_is_unknown_shape = false} {
  %m = ge.Data {index = 0} : tensor<1x32xf32>
  %w1 = ge.Data {index = 1} : tensor<32x16xf32>
  %b1 = ge.Data {index = 2} : tensor<1x16xf32>
  %w2 = ge.Data {index = 3} : tensor<16x4xf32>
  %b2 = ge.Data {index = 4} : tensor<1x4xf32>
  %z = ge.MatMul(%m, %w1) : (tensor<1x32xf32>, tensor<32x16xf32>) -> tensor<1x16xf32>
  %zb = ge.Add(%z, %b1) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %r = ge.Relu(%zb) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %o = ge.MatMul(%r, %w2) : (tensor<1x16xf32>, tensor<16x4xf32>) -> tensor<1x4xf32>
  %ob = ge.Add(%o, %b2) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %y = ge.Sigmoid(%ob) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  ge.NetOutput %y : tensor<1x4xf32>
}
