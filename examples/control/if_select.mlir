// An If (GE's functional If): the then_branch runs when the cond is true, else the
// else_branch; both take the inputs after the cond (their Data nodes carry the parent
// input index, _parent_node_index) and write the If's outputs. The cond here is a bool
// computed from the data (sum(x) > 0), so the branch taken depends on the input.
// ge-run examples/control/if_select.mlir
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.Data {index = 1} : tensor<4x8xf32>
  %s = ge.ReduceSumD(%x) {axes = [0, 1], keep_dims = false} : (tensor<4x8xf32>) -> tensor<f32>
  %zero = ge.Const {value = dense<0.0> : tensor<f32>} : tensor<f32>
  %c = ge.Greater(%s, %zero) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = ge.If(%c, %x, %y) {then_branch = @then_add, else_branch = @else_mul} : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = ge.Relu(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %o : tensor<4x8xf32>
}
ge.graph @then_add {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4x8xf32>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<4x8xf32>
  %t = ge.Add(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %t {_parent_node_index = [0]} : tensor<4x8xf32>
}
ge.graph @else_mul {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4x8xf32>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<4x8xf32>
  %t = ge.Mul(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = ge.Neg(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %n {_parent_node_index = [0]} : tensor<4x8xf32>
}
