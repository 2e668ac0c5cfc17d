// A For (GE's functional For): for i = start; i < limit; i += delta: acc = body(i, acc).
// The body's Data 0 is the loop variable (_parent_node_index 0, the start input, as
// ForPass::UpdateForBodyInputMapping keeps it); its loop inputs are the For's inputs 3...
// ge-compile's ForPass turns it into a While over (i, |delta|, |limit - start|, start,
// delta, acc) whose body calls this one.
// ge-run examples/control/for_counter.mlir --reference
ge.graph @main {
  %acc = ge.Data {index = 0} : tensor<6xf32>
  %start = ge.Data {index = 1} : tensor<i32>
  %limit = ge.Const {value = dense<7> : tensor<i32>} : tensor<i32>
  %delta = ge.Const {value = dense<2> : tensor<i32>} : tensor<i32>
  %r = ge.For(%start, %limit, %delta, %acc) {body = @accumulate} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<6xf32>) -> tensor<6xf32>
  ge.NetOutput %r : tensor<6xf32>
}
ge.graph @accumulate {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %acc = ge.Data {index = 1, _parent_node_index = 3} : tensor<6xf32>
  %f = ge.Cast(%i) : (tensor<i32>) -> tensor<f32>
  %y = ge.Add(%acc, %f) : (tensor<6xf32>, tensor<f32>) -> tensor<6xf32>
  ge.NetOutput %y {_parent_node_index = [0]} : tensor<6xf32>
}
