// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// A ge graph is a DAG listed in topological order: an input produced further down the
// block (a forward edge, or a cycle) is rejected at the node that uses it. xDSL's parser
// resolves forward references and ge.graph has no dominance check of its own, so without
// this rule such graphs reached the passes (KeyError / "delete SSA value" crashes).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: input 0 '%b' is produced by 'b' further down the graph: nodes must be listed in topological order (no cycles)
  %a = ge.Relu(%b) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %a : tensor<4x16xf16>
}

// -----

// A cycle: Add -> Relu -> Add.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Add: input 1 '%b' is produced by 'b' further down the graph: nodes must be listed in topological order (no cycles)
  %a = ge.Add(%x, %b) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Relu(%a) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %b : tensor<4x16xf16>
}

// -----

// The second output of a multi-output node further down; the producer is named by its
// node name (its first result's SSA name).
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: input 0 '%s1' is produced by 's0' further down the graph: nodes must be listed in topological order (no cycles)
  %t0, %t1 = ge.SplitD(%s1) {split_dim = 0, num_split = 2} : (tensor<2x16xf16>) -> (tensor<1x16xf16>, tensor<1x16xf16>)
  %s0, %s1 = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %t0 : tensor<1x16xf16>
}

// -----

// A subgraph's Data without its index: PartitionedCall reads the callee's Data nodes
// before the callee's own nodes verify; the error still names the Data node.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %y : tensor<4x16xf16>
}
ge.graph @sub {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: Data requires attribute 'index' (an integer)
  %in = ge.Data : tensor<4x16xf16>
  ge.NetOutput %in : tensor<4x16xf16>
}
