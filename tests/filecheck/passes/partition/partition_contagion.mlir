// RUN: ge-opt %s -p 'ge-partition-dynamic{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
// RUN: ge-opt %s -p 'ge-partition-dynamic{static-model-ops-lower-limit=-1}' | filecheck %s --check-prefix=ALL
//
// The known chain k1..k4 sits on a path from the unknown ReduceSumD r (it reads a `?`
// input) to the unknown Add u2: MergeClustersUnknownShape puts everything from r to u2 in
// u2's cluster (id 7, u2's rank), one unknown subgraph (GE's contagion). With the limit -1 nothing is
// partitioned and the root is unknown (kThresholdForMergeAllToUnknownGraph).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x8xf32>
  %u1 = ge.Relu(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = ge.ReduceSumD(%u1) {axes = [0], keep_dims = true} : (tensor<?x8xf32>) -> tensor<1x8xf32>
  %k1 = ge.Relu(%r) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %k2 = ge.Exp(%k1) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %k3 = ge.Neg(%k2) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %k4 = ge.Abs(%k3) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %u2 = ge.Add(%u1, %k4) : (tensor<?x8xf32>, tensor<1x8xf32>) -> tensor<?x8xf32>
  ge.NetOutput %u2 : tensor<?x8xf32>
}

// CHECK:      %[[C:.*]] = ge.PartitionedCall(%x) {f = @main_sub_0_unknow, _is_unknown_shape = true}
// CHECK-NEXT: ge.NetOutput %[[C]]
// CHECK-NOT:  _know
// CHECK:      ge.graph @main_sub_0_unknow

// REMARK: Relu 'k1' -> cluster 7 UNKNOWN_SHAPE in @main_sub_0_unknow: unknown by contagion: on a path from 'r' to 'u2' (MergeClustersUnknownShape)
// REMARK: Abs 'k4' -> cluster 7 UNKNOWN_SHAPE in @main_sub_0_unknow: unknown by contagion: on a path from 'r' to 'u2' (MergeClustersUnknownShape)

// ALL:     ge.graph @main attributes {_graph_unknown_flag = true} {
// ALL-NOT: ge.PartitionedCall
