// RUN: ge-opt %s -p ge-compile --remarks -o /dev/null 2>&1 | filecheck %s
//
// ge-assign-memory's remarks on a known-shape subgraph (the tail Mul .. Relu, frame 1,
// which ge-partition-dynamic makes @main_sub_1_know): its input:i / output:i regions are
// not zero-copy graph I/O but the known node's (known_node_executor.cc:
// KnownNodeTask::UpdateArgs), the operands and results of the root's PartitionedCall,
// refreshed every execution; the remark says so. The partitioner's generated ops carry
// the locations of the nodes they come from: the subgraph (and its graph-level remarks)
// the cluster's first node's, Mul at line 18; each subgraph Data the line of the value
// it receives (%r line 17, %w line 14, %bias line 15), not FILE:1:1.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x16xf32>
  %w = ge.Const {value = dense<0.25> : tensor<16xf32>} : tensor<16xf32>
  %bias = ge.Const {value = dense<-1.5> : tensor<16xf32>} : tensor<16xf32>
  %a = ge.Relu(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [0], keep_dims = false} : (tensor<?x16xf32>) -> tensor<16xf32>
  %b = ge.Mul(%r, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %c = ge.Add(%b, %bias) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %d = ge.Sigmoid(%c) : (tensor<16xf32>) -> tensor<16xf32>
  %e = ge.Exp(%d) : (tensor<16xf32>) -> tensor<16xf32>
  %f = ge.Relu(%e) : (tensor<16xf32>) -> tensor<16xf32>
  %y = ge.Neg(%a) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  ge.NetOutput %f, %y : tensor<16xf32>, tensor<?x16xf32>
}

// CHECK-NOT:  zero-copy graph
// CHECK-NOT:  (zero-copy)
// CHECK-NOT:  :1:1: remark
// CHECK:      known_node_memory_remarks.mlir:18:3: remark: ge-autofuse @main_sub_1_know: kernels 2 -> 1
// CHECK:      known_node_memory_remarks.mlir:17:3: remark: 'main_sub_1_know_Data_0':0 -> input:0 [0, 96): known-node input 0: operand 0 of the calling PartitionedCall, its address refreshed per execution (not a zero-copy user buffer)
// CHECK-NEXT: known_node_memory_remarks.mlir:14:3: remark: 'main_sub_1_know_Data_1':0 -> input:1 [0, 96): known-node input 1: operand 1 of the calling PartitionedCall, its address refreshed per execution (not a zero-copy user buffer)
// CHECK-NEXT: known_node_memory_remarks.mlir:15:3: remark: 'main_sub_1_know_Data_2':0 -> input:2 [0, 96): known-node input 2: operand 2 of the calling PartitionedCall, its address refreshed per execution (not a zero-copy user buffer)
// CHECK:      remark: '{{.*}}':0 -> output:0 [0, 96): known-node output 0: result 0 of the calling PartitionedCall, its address refreshed per execution (not a zero-copy user buffer)
// CHECK-NOT:  zero-copy graph
// CHECK-NOT:  (zero-copy)
// CHECK-NOT:  :1:1: remark
