// RUN: ge-run %s -p 'ge-partition-dynamic{host-scheduling-max-threshold=6},ge-assign-memory,ge-to-npu' | filecheck %s --check-prefix=HOST
// RUN: ge-run %s -p 'ge-partition-dynamic{host-scheduling-max-threshold=5},ge-assign-memory,ge-to-npu' | filecheck %s --check-prefix=STATIC
// RUN: ge-opt %s -p 'ge-partition-dynamic{host-scheduling-max-threshold=6 remarks=true}' 2>&1 | filecheck %s --check-prefix=REMARK
//
// ge.exec.hostSchedulingMaxThreshold on a static graph of 5 known nodes (x, w, a, r and
// the NetOutput; none with a subgraph): a threshold above 5 leaves the graph unpartitioned
// but unknown (IsGraphNeedUnknownShapePartition), so the host runs its 2 compute nodes on
// the dynamic executor; 5 is not fewer than 5, and the graph is one static model.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %w = ge.Const {value = dense<0.5> : tensor<4x8xf32>} : tensor<4x8xf32>
  %a = ge.AddN(%x, %w) {N = 2} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = ge.Relu(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %r : tensor<4x8xf32>
}

// HOST: execution 0: inputs 4x8; 2 host nodes, static model runs: 0
// HOST: outputs match the reference

// STATIC-NOT: host nodes
// STATIC: outputs match the reference

// REMARK: graph @main not partitioned, marked unknown: host scheduling: 5 known nodes, fewer than host-scheduling-max-threshold 6 (IsGraphNeedUnknownShapePartition)
