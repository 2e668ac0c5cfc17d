// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Concat_Can_Not_Fuse_By_Only_Horizontal (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real decider: data1 -> Reduce -> {B, C}, data2 -> F,
// data3 -> E, {C, F, E} -> Concat; outputs B and Concat. GE: -4 nodes (6 kernels -> 2),
// "C, F, E, Concat fuse together; Reduce and B fuse together". By hand: HIGH (concat)
// bucket: C, F, E each join the concat vertically (a FusedAscBackend; a concat never
// loop-merges); Reduce + B loop-merge (pointwise after a reduction, 1 <= 3); the reduction
// kernel and the concat FusedAscBackend (linked Reduce -> C) do not fuse: a reduction fuses
// forward only with pointwise nodes; B and C (both read Reduce: horizontal only) are not
// merged across the concat (loops [4, 1] vs the concat's [4, 65]).

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x32xf32>
  %data2 = ge.Data {index = 1} : tensor<4x32xf32>
  %data3 = ge.Data {index = 2} : tensor<4x32xf32>
  %R = ge.ReduceSumD(%data1) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %F = ge.Exp(%data2) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%data3) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %B = ge.Exp(%R) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %C = ge.Exp(%R) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %cat = ge.ConcatD(%C, %F, %E) {concat_dim = 1} : (tensor<4x1xf32>, tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x65xf32>
  ge.NetOutput %B, %cat : tensor<4x1xf32>, tensor<4x65xf32>
}

// CHECK:      %R, %B = ge.AscBackend(%data1) {{{.*}}origin_nodes = ["R", "B"]
// CHECK:      %cat = ge.FusedAscBackend(%R, %data2, %data3) {{{.*}}origin_nodes = ["C", "F", "E", "cat"]
// CHECK:        ge.AscBackend({{.*}}) {{{.*}}origin_nodes = ["cat"]
// CHECK:        ge.NetOutput
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %B, %cat

// REMARK-DAG: 'autofuse_3_ReduceSumD_Exp' and 'autofuse_fused_2_Exp_Exp_Exp_ConcatD' not fused: a reduction fuses forward only with pointwise nodes (no reduction + reduction) [NF1031] [ReduceCanOnlyBackwardFuse3Elementwise]
// REMARK-DAG: 'autofuse_pointwise_3_Exp' and 'autofuse_fused_2_Exp_Exp_Exp_ConcatD' not fused: loop axes cannot be unified: the loops [4, 1] and [4, 65] cannot be mapped [NF1006] [UnifySubgraphAxisFailed]
// REMARK:     remark: ge-autofuse @main: kernels 6 -> 2,
