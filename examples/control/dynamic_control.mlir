// Control flow on the dynamic path: the batch dim is `?`, so ge-partition-dynamic puts the
// If, the Case and the While in an unknown-shape cluster (a node with a subgraph is unknown
// when its inputs, outputs or any of its subgraphs are), and the dynamic executor runs them
// on the host as GE's control-op tasks do (If: the cond's truth value picks a branch; Case:
// an index out of range takes the last branch; While: cond, body, outputs fed back), each
// subgraph with the batch size of the execution; the known-shape head after it (a MatMul on
// the batch mean, then pointwise ops) runs as a static model on the device simulator.
// ge-run examples/control/dynamic_control.mlir --dim 0=3,5,3
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %k = ge.Data {index = 1} : tensor<i32>
  %n = ge.Data {index = 2} : tensor<i32>
  %s = ge.ReduceSumD(%x) {axes = [0, 1], keep_dims = false} : (tensor<?x4xf32>) -> tensor<f32>
  %zero = ge.Const {value = dense<0.0> : tensor<f32>} : tensor<f32>
  %pos = ge.Greater(%s, %zero) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %a = ge.If(%pos, %x) {then_branch = @scale, else_branch = @negate} : (tensor<i1>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %b = ge.Case(%k, %a) {branches = [@relu, @tanh, @square]} : (tensor<i32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %i0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:3 = ge.While(%i0, %n, %b) {cond = @below_n, body = @damp} : (tensor<i32>, tensor<i32>, tensor<?x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<?x4xf32>)
  %m = ge.ReduceMeanD(%w#2) {axes = [0], keep_dims = true} : (tensor<?x4xf32>) -> tensor<1x4xf32>
  %wt = ge.Const {value = dense<[[1.0, 0.5], [-1.0, 0.25], [0.5, -0.5], [2.0, 1.0]]> : tensor<4x2xf32>} : tensor<4x2xf32>
  %y = ge.MatMul(%m, %wt) : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %bias = ge.Const {value = dense<[[0.25, -0.5]]> : tensor<1x2xf32>} : tensor<1x2xf32>
  %yb = ge.Add(%y, %bias) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  %yr = ge.Relu(%yb) : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %yt = ge.Tanh(%yr) : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %ys = ge.Sigmoid(%yt) : (tensor<1x2xf32>) -> tensor<1x2xf32>
  ge.NetOutput %ys, %w#2 : tensor<1x2xf32>, tensor<?x4xf32>
}
ge.graph @scale {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<?x4xf32>
  %h = ge.Const {value = dense<0.5> : tensor<f32>} : tensor<f32>
  %y = ge.Mul(%x, %h) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  ge.NetOutput %y : tensor<?x4xf32>
}
ge.graph @negate {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<?x4xf32>
  %y = ge.Neg(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  ge.NetOutput %y : tensor<?x4xf32>
}
ge.graph @relu {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<?x4xf32>
  %y = ge.Relu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  ge.NetOutput %y : tensor<?x4xf32>
}
ge.graph @tanh {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<?x4xf32>
  %y = ge.Tanh(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  ge.NetOutput %y : tensor<?x4xf32>
}
ge.graph @square {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<?x4xf32>
  %y = ge.Square(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  ge.NetOutput %y : tensor<?x4xf32>
}
ge.graph @below_n {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %x = ge.Data {index = 2, _parent_node_index = 2} : tensor<?x4xf32>
  %c = ge.Less(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %c : tensor<i1>
}
ge.graph @damp {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %x = ge.Data {index = 2, _parent_node_index = 2} : tensor<?x4xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %q = ge.Const {value = dense<0.75> : tensor<f32>} : tensor<f32>
  %c = ge.Const {value = dense<0.125> : tensor<f32>} : tensor<f32>
  %m = ge.Mul(%x, %q) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %y = ge.Add(%m, %c) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  ge.NetOutput %i1, %n, %y {_parent_node_index = [0, 1, 2]} : tensor<i32>, tensor<i32>, tensor<?x4xf32>
}
