// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// Graph structure: a ge.graph sits directly in the module, GE nodes sit in a graph, a graph
// body holds GE nodes only, and no PartitionedCall chain comes back to its own graph.

// A ge.graph nested in another graph's body.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.graph: ge.graph @inner is nested inside ge.graph @main: a subgraph is a ge.graph of its own at module level, called by a ge.PartitionedCall (f = @name)
  ge.graph @inner {
    %z = ge.Data {index = 0} : tensor<4xf16>
    ge.NetOutput %z : tensor<4xf16>
  }
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// Nested two levels: the innermost graph is reported (nested ops verify first).
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.graph @mid {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:5: error: ge.graph: ge.graph @deepest is nested inside ge.graph @mid
    ge.graph @deepest {
      %z = ge.Data {index = 0} : tensor<4xf16>
      ge.NetOutput %z : tensor<4xf16>
    }
    %y = ge.Data {index = 0} : tensor<4xf16>
    ge.NetOutput %y : tensor<4xf16>
  }
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// A ge.graph inside a FusedAscBackend body.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %f = ge.FusedAscBackend(%x) : (tensor<4xf16>) -> tensor<4xf16> {
    %d = ge.Data {index = 0} : tensor<4xf16>
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:5: error: ge.graph: ge.graph @g is nested inside ge.FusedAscBackend 'f'
    ge.graph @g {
      %z = ge.Data {index = 0} : tensor<4xf16>
      ge.NetOutput %z : tensor<4xf16>
    }
    ge.NetOutput %d : tensor<4xf16>
  }
  ge.NetOutput %f : tensor<4xf16>
}

// -----

// GE nodes directly in the module, outside any graph: the first one is reported.
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.Data: Data node 'x' is directly in the module: GE nodes live in a ge.graph body
%x = ge.Data {index = 0} : tensor<4xf16>
%y = ge.Relu(%x) : (tensor<4xf16>) -> tensor<4xf16>
ge.NetOutput %y : tensor<4xf16>

// -----

// A graph that is fine, then a node after it at module level.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.Const: Const node 'c' is directly in the module: GE nodes live in a ge.graph body
%c = ge.Const {value = dense<1.0> : tensor<4xf16>} : tensor<4xf16>

// -----

// A GE node inside a nested builtin.module (not a graph) inside a graph: the node is
// reported first, then (once it is gone) the module itself.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  builtin.module {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:5: error: ge.NetOutput: NetOutput node 'NetOutput' is inside builtin.module: GE nodes live in a ge.graph body
    ge.NetOutput
  }
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// A graph body holds GE nodes only.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: builtin.module: graph @main holds builtin.module: a ge.graph body holds GE nodes only
  builtin.module {
  }
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// PartitionedCall recursion: a graph calling itself.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: PartitionedCall calls @main, the graph it is in: GE graphs cannot recurse
  %y = ge.PartitionedCall(%x) {f = @main} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}

// -----

// Two graphs calling each other; the first graph in module order reports the cycle.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: PartitionedCall calls @other, which calls back into @main (@main -> @other -> @main): GE graphs cannot recurse
  %y = ge.PartitionedCall(%x) {f = @other} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @other {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @main} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}

// -----

// A cycle of three subgraphs below a root that is not on it; the second call of @a is the
// one that closes the cycle, after a call of a graph that does not.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @a} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @a {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %l = ge.PartitionedCall(%x) {f = @leaf} : (tensor<4xf16>) -> tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: PartitionedCall calls @b, which calls back into @a (@a -> @b -> @c -> @a): GE graphs cannot recurse
  %y = ge.PartitionedCall(%l) {f = @b} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @b {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @c} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @c {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @a} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @leaf {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// Not a cycle: a diamond (two graphs call one), and one graph called twice.
// CHECK: ge.graph @main
// CHECK: ge.graph @left
// CHECK: ge.graph @right
// CHECK: ge.graph @shared
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %l = ge.PartitionedCall(%x) {f = @left} : (tensor<4xf16>) -> tensor<4xf16>
  %r = ge.PartitionedCall(%l) {f = @right} : (tensor<4xf16>) -> tensor<4xf16>
  %s = ge.PartitionedCall(%r) {f = @shared} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %s : tensor<4xf16>
}
ge.graph @left {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @shared} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @right {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @shared} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @shared {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Relu(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
