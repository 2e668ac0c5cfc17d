// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// The control-flow ops' verifiers: subgraphs exist, branch signatures agree with the
// parent (inputs, outputs, Data _parent_node_index), a Case's index is int32, a While's
// cond returns one value, no subgraph calls its parent. Each is one located line.

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If requires attribute 'else_branch' = @subgraph
  %y = ge.If(%c, %x) {then_branch = @t} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If's else_branch @nope is not a ge.graph in this module
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @nope} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

// branches whose signatures disagree: the else branch returns another shape
ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If's else_branch @e: output 0 has type tensor<2xf32>, but the If's output 0 is tensor<4xf32>
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @e} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}
ge.graph @e {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %h0, %h1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  ge.NetOutput %h0 : tensor<2xf32>
}

// -----

// an unknown dim in the If's output agrees with branches of different extents
ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @e} : (tensor<i1>, tensor<4xf32>) -> tensor<?xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: Relu takes 1 inputs, got 2
  %z = ge.Relu(%y, %y) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  ge.NetOutput %y : tensor<?xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}
ge.graph @e {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %h0, %h1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  ge.NetOutput %h0 : tensor<2xf32>
}

// -----

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If's then_branch @t has 2 Data nodes, but the If passes it 1 inputs
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @t} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %b = ge.Data {index = 1, _parent_node_index = 2} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If's then_branch @t: Data 0 has type tensor<4xf16>, but it receives tensor<4xf32>
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @t} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf16>
  ge.NetOutput %a : tensor<4xf16>
}

// -----

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If's then_branch @t: Data 0 has _parent_node_index = 0, but it stands for input 1
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @t} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If's then_branch @t: Data 0 lacks '_parent_node_index' (it stands for input 1)
  %y = ge.If(%c, %x) {then_branch = @t, else_branch = @t} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.StatelessIf: StatelessIf's then_branch @t: NetOutput's _parent_node_index is [1], expected [0]
  %y = ge.StatelessIf(%c, %x) {then_branch = @t, else_branch = @t} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @t {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a {_parent_node_index = [1]} : tensor<4xf32>
}

// -----

// a subgraph that calls its parent: the then branch is the graph the If is in
ge.graph @main {
  %c = ge.Data {index = 0} : tensor<i1>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.If: If calls @inner, which calls back into @main (@main -> @inner -> @main): GE graphs cannot recurse
  %y = ge.If(%c, %x) {then_branch = @inner, else_branch = @leaf} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @leaf {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}
ge.graph @inner {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  %t = ge.Const {value = dense<true> : tensor<i1>} : tensor<i1>
  %y = ge.If(%t, %a) {then_branch = @main, else_branch = @leaf} : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}

// -----

ge.graph @main {
  %i = ge.Data {index = 0} : tensor<i64>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Case: Case's branch_index (input 0) must be int32, got tensor<i64>
  %y = ge.Case(%i, %x) {branches = [@b, @b]} : (tensor<i64>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @b {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %i = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Case: Case requires attribute 'branches' = [@b0, @b1, ...] (at least one)
  %y = ge.Case(%i, %x) {branches = []} : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}

// -----

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.While: While's cond @c returns 2 values, expected 1
  %y = ge.While(%x) {cond = @c, body = @b} : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @c {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  ge.NetOutput %a, %a : tensor<4xf32>, tensor<4xf32>
}
ge.graph @b {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.While: While's output 0 has type tensor<4xf16>, but input 0 is tensor<4xf32>
  %y = ge.While(%x) {cond = @c, body = @b} : (tensor<4xf32>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @c {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}
ge.graph @b {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.StatelessWhile: StatelessWhile's body @b: output 0 has type tensor<4xf16>, but the StatelessWhile's output 0 is tensor<4xf32>
  %y = ge.StatelessWhile(%x) {cond = @c, body = @b} : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @c {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}
ge.graph @b {
  %a = ge.Data {index = 0, _parent_node_index = 0} : tensor<4xf32>
  %h = ge.Cast(%a) : (tensor<4xf32>) -> tensor<4xf16>
  ge.NetOutput %h : tensor<4xf16>
}

// -----

ge.graph @main {
  %s = ge.Data {index = 0} : tensor<i32>
  %l = ge.Data {index = 1} : tensor<f32>
  %d = ge.Data {index = 2} : tensor<i32>
  %x = ge.Data {index = 3} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.For: For's limit (input 1) must be int32, got tensor<f32>
  %y = ge.For(%s, %l, %d, %x) {body = @b} : (tensor<i32>, tensor<f32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @b {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %a = ge.Data {index = 1, _parent_node_index = 3} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// -----

ge.graph @main {
  %s = ge.Data {index = 0} : tensor<i32>
  %x = ge.Data {index = 1} : tensor<4xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.For: For's body @b: Data 1 has _parent_node_index = 1, but it stands for input 3
  %y = ge.For(%s, %s, %s, %x) {body = @b} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @b {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %a = ge.Data {index = 1, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}
