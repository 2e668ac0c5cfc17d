// RUN: ge-opt %s -p 'ge-partition-dynamic{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// A `?` batch: Relu and the batch reduction see the unknown dim (IsUnknownShape), the
// known tail Add -> Exp -> Mul -> Sigmoid (4 nodes, not fewer than the limit 4) is one
// known cluster (TryMergeClusters). The Const w is an INPUT_NODE, the known subgraph
// _input (GetSubgraphName); its two uses are two call operands (AddFrameInput, no
// merge_inputs). GE's counter numbers the frames in cluster-id order: INPUT_NODE 0, the unknown
// cluster 1 (id 3: ReduceSumD's, which absorbed Relu), the known one 2 (id 7: Sigmoid's).
// Relu's output is read by the NetOutput too: the unknown call has two results.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x16xf32>
  %w = ge.Const {value = dense<1.0> : tensor<16xf32>} : tensor<16xf32>
  %a = ge.Relu(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [0], keep_dims = false} : (tensor<?x16xf32>) -> tensor<16xf32>
  %b = ge.Add(%r, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %c = ge.Exp(%b) : (tensor<16xf32>) -> tensor<16xf32>
  %d = ge.Mul(%c, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %e = ge.Sigmoid(%d) : (tensor<16xf32>) -> tensor<16xf32>
  ge.NetOutput %e, %a : tensor<16xf32>, tensor<?x16xf32>
}

// CHECK:      ge.graph @main attributes {_dynamic_shape_partitioned = true, _graph_unknown_flag = true} {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<?x16xf32>
// CHECK-NEXT:   %[[W:.*]] = ge.PartitionedCall {f = @main_sub_0_input, _is_unknown_shape = false} : tensor<16xf32>
// CHECK-NEXT:   %[[U:.*]], %[[R:.*]] = ge.PartitionedCall(%x) {f = @main_sub_1_unknow, _is_unknown_shape = true} : (tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<16xf32>)
// CHECK-NEXT:   %[[K:.*]] = ge.PartitionedCall(%[[R]], %[[W]], %[[W]]) {f = @main_sub_2_know, _is_unknown_shape = false} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:   ge.NetOutput %[[K]], %[[U]] : tensor<16xf32>, tensor<?x16xf32>
// CHECK-NEXT: }
// CHECK:      ge.graph @main_sub_0_input attributes {_is_unknown_shape = false} {
// CHECK-NEXT:   %w = ge.Const
// CHECK-NEXT:   ge.NetOutput %w : tensor<16xf32>
// CHECK-NEXT: }
// CHECK:      ge.graph @main_sub_1_unknow attributes {_is_unknown_shape = true, _graph_unknown_flag = true, _memory_discontiguous_allocation = true} {
// CHECK-NEXT:   %[[D0:.*]] = ge.Data {index = 0} : tensor<?x16xf32>
// CHECK-NEXT:   %a = ge.Relu(%[[D0]])
// CHECK-NEXT:   %r = ge.ReduceSumD(%a)
// CHECK-NEXT:   ge.NetOutput %a, %r : tensor<?x16xf32>, tensor<16xf32>
// CHECK-NEXT: }
// CHECK:      ge.graph @main_sub_2_know attributes {_is_unknown_shape = false} {
// CHECK-NEXT:   %[[K0:.*]] = ge.Data {index = 0} : tensor<16xf32>
// CHECK-NEXT:   %[[K1:.*]] = ge.Data {index = 1} : tensor<16xf32>
// CHECK-NEXT:   %[[K2:.*]] = ge.Data {index = 2} : tensor<16xf32>
// CHECK-NEXT:   %b = ge.Add(%[[K0]], %[[K1]])
// CHECK-NEXT:   %c = ge.Exp(%b)
// CHECK-NEXT:   %d = ge.Mul(%c, %[[K2]])
// CHECK-NEXT:   %e = ge.Sigmoid(%d)
// CHECK-NEXT:   ge.NetOutput %e : tensor<16xf32>
// CHECK-NEXT: }

// REMARK: Data 'x' -> cluster 0 DATA in the root @main: a Data node stays in the root (InitClusters)
// REMARK: Const 'w' -> cluster 1 INPUT_NODE in @main_sub_0_input: a Const without inputs (INPUT_NODE): the root's Consts form one cluster (MergeClustersInputData)
// REMARK: Relu 'a' -> cluster 3 UNKNOWN_SHAPE in @main_sub_1_unknow: unknown because output 0 is tensor<?x16xf32> (IsUnknownShape)
// REMARK: ReduceSumD 'r' -> cluster 3 UNKNOWN_SHAPE in @main_sub_1_unknow: unknown because input 0 is tensor<?x16xf32> (IsUnknownShape)
// REMARK: Add 'b' -> cluster 7 KNOWN_SHAPE in @main_sub_2_know
// REMARK: Sigmoid 'e' -> cluster 7 KNOWN_SHAPE in @main_sub_2_know
// REMARK: NetOutput 'NetOutput' -> cluster 8 NETOUTPUT in the root @main
