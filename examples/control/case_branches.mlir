// A Case (GE's functional Case): branch_index (int32) picks one of the branches; an
// index out of range takes the last branch (GE's GenIndexForCase). Each branch takes the
// inputs after the index (Data _parent_node_index 1, 2) and writes the Case's outputs.
// ge-run examples/control/case_branches.mlir --reference
ge.graph @main {
  %k = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<3x5xf16>
  %y = ge.Data {index = 2} : tensor<3x5xf16>
  %r:2 = ge.Case(%k, %x, %y) {branches = [@add_sub, @mul_max, @swap]} : (tensor<i32>, tensor<3x5xf16>, tensor<3x5xf16>) -> (tensor<3x5xf16>, tensor<3x5xf16>)
  ge.NetOutput %r#0, %r#1 : tensor<3x5xf16>, tensor<3x5xf16>
}
ge.graph @add_sub {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<3x5xf16>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<3x5xf16>
  %s = ge.Add(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  %d = ge.Sub(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  ge.NetOutput %s, %d {_parent_node_index = [0, 1]} : tensor<3x5xf16>, tensor<3x5xf16>
}
ge.graph @mul_max {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<3x5xf16>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<3x5xf16>
  %m = ge.Mul(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  %x = ge.Maximum(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  ge.NetOutput %m, %x {_parent_node_index = [0, 1]} : tensor<3x5xf16>, tensor<3x5xf16>
}
ge.graph @swap {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<3x5xf16>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<3x5xf16>
  ge.NetOutput %b, %a {_parent_node_index = [0, 1]} : tensor<3x5xf16>, tensor<3x5xf16>
}
