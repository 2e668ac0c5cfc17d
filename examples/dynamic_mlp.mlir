// A graph with a dynamic batch dimension (issue 16), as a user writes it: ge-compile's
// ge-partition-dynamic (GE's DynamicShapePartitioner) splits it into an unknown-shape part,
// h = Relu(x * 2) over a batch of any size and its mean over the batch (a 1x32 row, known
// again), and a known-shape MLP head y = Sigmoid(Relu(m @ W1 + b1) @ W2 + b2), compiled into
// a static model (npu.model known_node = true) whose input, output and feature-map
// addresses the dynamic executor refreshes on every execution.
// It is examples/dynamic_batch.mlir before partitioning; ge-run runs it the same way:
// ge-run examples/dynamic_mlp.mlir --dim 0=2,8,5 --remarks
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x32xf32>
  %two = ge.Const {value = dense<2.0> : tensor<f32>} : tensor<f32>
  %s = ge.Mul(%x, %two) : (tensor<?x32xf32>, tensor<f32>) -> tensor<?x32xf32>
  %h = ge.Relu(%s) : (tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = ge.ReduceMeanD(%h) {axes = [0], keep_dims = true} : (tensor<?x32xf32>) -> tensor<1x32xf32>
  %w1 = ge.Const {value = dense<0.0625> : tensor<32x16xf32>} : tensor<32x16xf32>
  %b1 = ge.Const {value = dense<-0.25> : tensor<1x16xf32>} : tensor<1x16xf32>
  %w2 = ge.Const {value = dense<-0.25> : tensor<16x4xf32>} : tensor<16x4xf32>
  %b2 = ge.Const {value = dense<[[2.0, 1.0, 0.0, -1.0]]> : tensor<1x4xf32>} : tensor<1x4xf32>
  %z = ge.MatMul(%m, %w1) : (tensor<1x32xf32>, tensor<32x16xf32>) -> tensor<1x16xf32>
  %zb = ge.Add(%z, %b1) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %r = ge.Relu(%zb) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %o = ge.MatMul(%r, %w2) : (tensor<1x16xf32>, tensor<16x4xf32>) -> tensor<1x4xf32>
  %ob = ge.Add(%o, %b2) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %y = ge.Sigmoid(%ob) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  ge.NetOutput %y, %h : tensor<1x4xf32>, tensor<?x32xf32>
}
