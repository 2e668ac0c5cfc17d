// Nested control flow: a While whose body holds an If. Each iteration halves the
// loop-carried x when its sum is above the limit (then_branch), else adds 1 (else_branch);
// the loop runs n times (i counts, n is an input).
// ge-run examples/control/nested_while_if.mlir --reference
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8xf32>
  %n = ge.Data {index = 1} : tensor<i32>
  %lim = ge.Data {index = 2} : tensor<f32>
  %i0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:4 = ge.While(%i0, %n, %lim, %x) {cond = @count_cond, body = @step_body} : (tensor<i32>, tensor<i32>, tensor<f32>, tensor<8xf32>) -> (tensor<i32>, tensor<i32>, tensor<f32>, tensor<8xf32>)
  ge.NetOutput %w#3 : tensor<8xf32>
}
ge.graph @count_cond {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %lim = ge.Data {index = 2, _parent_node_index = 2} : tensor<f32>
  %x = ge.Data {index = 3, _parent_node_index = 3} : tensor<8xf32>
  %c = ge.Less(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %c : tensor<i1>
}
ge.graph @step_body {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %lim = ge.Data {index = 2, _parent_node_index = 2} : tensor<f32>
  %x = ge.Data {index = 3, _parent_node_index = 3} : tensor<8xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %s = ge.ReduceSumD(%x) {axes = [0], keep_dims = false} : (tensor<8xf32>) -> tensor<f32>
  %big = ge.Greater(%s, %lim) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %x1 = ge.If(%big, %x) {then_branch = @halve, else_branch = @add_one} : (tensor<i1>, tensor<8xf32>) -> tensor<8xf32>
  ge.NetOutput %i1, %n, %lim, %x1 {_parent_node_index = [0, 1, 2, 3]} : tensor<i32>, tensor<i32>, tensor<f32>, tensor<8xf32>
}
ge.graph @halve {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<8xf32>
  %h = ge.Const {value = dense<0.5> : tensor<f32>} : tensor<f32>
  %y = ge.Mul(%x, %h) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  ge.NetOutput %y {_parent_node_index = [0]} : tensor<8xf32>
}
ge.graph @add_one {
  %x = ge.Data {index = 0, _parent_node_index = 1} : tensor<8xf32>
  %o = ge.Const {value = dense<1.0> : tensor<f32>} : tensor<f32>
  %y = ge.Add(%x, %o) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  ge.NetOutput %y {_parent_node_index = [0]} : tensor<8xf32>
}
