// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// The HasParent traits of nested ops (ge_dialect/ge.py InGeGraph and AtModuleLevel,
// ascgraph.py InAscGraph, npu.py): one case per trait. Nested ops verify before their
// parent, so the misplaced op reports itself first.

// a GE node inside an npu.model (InGeGraph: a ge.graph, FusedAscBackend or AscBackend origin)
npu.model @m streams = 1 events = 0 {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: Data node 'x' is inside npu.model: GE nodes live in a ge.graph body
  %x = ge.Data {index = 0} : tensor<4xf16>
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// a GE node in an AscBackend's kernel region: only its origin body is a GE graph
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %y = ge.AscBackend(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:5: error: ge.Relu: Relu node 'r' is inside ge.AscBackend 'y': GE nodes live in a ge.graph body
    %r = ge.Relu(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  }
  ge.NetOutput %y : tensor<4x8xf32>
}

// -----

// a ge.graph inside an npu.model (AtModuleLevel)
npu.model @m streams = 1 events = 0 {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.graph: ge.graph @inner is nested inside npu.model: a subgraph is a ge.graph of its own at module level, called by a ge.PartitionedCall (f = @name)
  ge.graph @inner {
    ge.NetOutput
  }
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// an AscIR node in a ge.graph body (InAscGraph)
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ascgraph.Data: ascgraph.Data must be inside an ascgraph.graph
  %a = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
  ge.NetOutput
}

// -----

// a task directly in the model (HasParent(npu.stream))
npu.model @m streams = 1 events = 0 {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: npu.end_graph: 'npu.end_graph' expects parent op 'npu.stream'
  npu.end_graph
}

// -----

// a table entry inside a stream (HasParent(npu.model))
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.stream 0 {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:5: error: npu.tensor: 'npu.tensor' expects parent op 'npu.model'
    npu.tensor "t:0" at #npu.addr<fm, 0, 64>
    npu.end_graph
  }
}

// -----

// a region entry at module level
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.region: 'npu.region' expects parent op 'npu.model'
npu.region fm size = 64

// -----

// a kernel definition at module level
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.kernel_def: 'npu.kernel_def' expects parent op 'npu.model'
npu.kernel_def @relu = library "Relu" {} : (tensor<4xf32>) -> (tensor<4xf32>)

// -----

// a stream outside a model
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.stream: 'npu.stream' expects parent op 'npu.model'
npu.stream 0 {
  npu.end_graph
}
