// A While with loop-carried values: (i, n, acc) = (0, n, x); while i < n:
// (i, n, acc) = (i + 1, n, exp(acc / 2) - acc / 2). n is an input, so the trip count is data.
// The cond graph returns one bool; the body returns the loop-carried values in the
// parent's input order (NetOutput _parent_node_index), which become the While's outputs.
// ge-run examples/control/while_accumulate.mlir
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x16xf32>
  %n = ge.Data {index = 1} : tensor<i32>
  %i0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %w:3 = ge.While(%i0, %n, %x) {cond = @loop_cond, body = @loop_body} : (tensor<i32>, tensor<i32>, tensor<2x16xf32>) -> (tensor<i32>, tensor<i32>, tensor<2x16xf32>)
  ge.NetOutput %w#2, %w#0 : tensor<2x16xf32>, tensor<i32>
}
ge.graph @loop_cond {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %acc = ge.Data {index = 2, _parent_node_index = 2} : tensor<2x16xf32>
  %c = ge.Less(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  ge.NetOutput %c : tensor<i1>
}
ge.graph @loop_body {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %n = ge.Data {index = 1, _parent_node_index = 1} : tensor<i32>
  %acc = ge.Data {index = 2, _parent_node_index = 2} : tensor<2x16xf32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %i1 = ge.Add(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %half = ge.Const {value = dense<0.5> : tensor<f32>} : tensor<f32>
  %h = ge.Mul(%acc, %half) : (tensor<2x16xf32>, tensor<f32>) -> tensor<2x16xf32>
  %e = ge.Exp(%h) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  %a1 = ge.Sub(%e, %h) : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  ge.NetOutput %i1, %n, %a1 {_parent_node_index = [0, 1, 2]} : tensor<i32>, tensor<i32>, tensor<2x16xf32>
}
