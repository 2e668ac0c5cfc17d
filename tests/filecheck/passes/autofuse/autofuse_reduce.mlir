// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=reduce},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UTs on the reduction rule (docs/ge/autofuse.md; reduction_fusion_strategy.cpp:
// after a reduction only pointwise nodes fuse, max_reduce_can_fuse_elementwise_nums = 3
// compute nodes in all).

// Reduce_Can_Only_Fuse_At_Most_3_Elementwise: Reduce -> D -> A -> R -> R1 -> E1, each
// pointwise an Exp (its own AscBackend). GE: -4, {Reduce, D, A, R} and {R1, E1}. By hand:
// pairs in topological order: Reduce+D (1 absorbed), +A (2), +R (3); +R1 would be 4 > 3;
// R1+E1 are two pointwise nodes. 6 kernels -> 2.
ge.graph @at_most_3 {
  %x = ge.Data {index = 0} : tensor<4x32xf32>
  %red = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %D = ge.Exp(%red) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %A = ge.Exp(%D) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %R = ge.Exp(%A) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %R1 = ge.Exp(%R) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %E1 = ge.Exp(%R1) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  ge.NetOutput %E1 : tensor<4x1xf32>
}

// CHECK-LABEL: ge.graph @at_most_3
// CHECK:      %R = ge.AscBackend(%x) {{{.*}}fuse_type = "reduce", {{.*}}origin_nodes = ["red", "D", "A", "R"], reduce_fused_elementwise_node_num = 3
// CHECK:      %E1 = ge.AscBackend(%R) {{{.*}}origin_nodes = ["R1", "E1"]
// CHECK-NOT:  ge.AscBackend
// REMARK:     'autofuse_2_ReduceSumD_Exp_Exp_Exp' and 'autofuse_pointwise_4_Exp' not fused: a reduction may absorb 3 compute nodes, this fusion gives 4 [NF1030] [ReduceCanFuseWithin3SubNodes]
// REMARK:     remark: ge-autofuse @at_most_3: kernels 6 -> 2,

// -----

// Reduce_Can_Not_Fuse_With_Elementwise_Which_Has_More_Than_3_Compute_Nodes: the reduction's
// consumer is one AscBackend of 4 compute nodes (Abs, Relu, Neg, Tanh inline into one
// kernel). GE: unchanged. 2 kernels -> 2.
ge.graph @more_than_3 {
  %x = ge.Data {index = 0} : tensor<4x32xf32>
  %red = ge.ReduceSumD(%x) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %a = ge.Abs(%red) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %b = ge.Relu(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %c = ge.Neg(%b) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %d = ge.Tanh(%c) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  ge.NetOutput %d : tensor<4x1xf32>
}

// CHECK-LABEL: ge.graph @more_than_3
// CHECK:      %red = ge.AscBackend(%x) {name = "autofuse_reduce_0_ReduceSumD"
// CHECK:      %d = ge.AscBackend(%red) {name = "autofuse_pointwise_1_Abs_Relu_Neg_Tanh"
// REMARK:     'autofuse_reduce_0_ReduceSumD' and 'autofuse_pointwise_1_Abs_Relu_Neg_Tanh' not fused: a reduction may absorb 3 compute nodes, this fusion gives 4 [NF1030]
// REMARK:     remark: ge-autofuse @more_than_3: kernels 2 -> 2,
