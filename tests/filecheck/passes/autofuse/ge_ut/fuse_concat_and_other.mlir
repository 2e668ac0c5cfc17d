// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,concat},ge-autofuse{lifting=false remarks=true max_fuse_rounds=1}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_and_other (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md
// §9.1) with the real decider and GE's max_fuse_rounds = 1: data -> {D, E, Reduce} ->
// Concat -> G, and D -> H (GE also draws a control edge Concat -> H, which our IR cannot
// state; H comes after the concat here). GE: -2 nodes, "D, E, Concat fuse together". By
// hand: HIGH (concat) bucket: D and E join the concat in a FusedAscBackend; Reduce is
// refused (reduction_fusion_strategy.cpp: a reduction fuses forward only with pointwise
// nodes); G and H are consumers of the FusedAscBackend, refused (no concat backward
// fusion on A2/A3); Reduce and D/E only share data: a reduction never fuses horizontally.
// 6 kernels -> 4. The inner round loop-merges D and E (they share data).

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %D = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %R = ge.ReduceSumD(%data) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %cat = ge.ConcatD(%D, %E, %R) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x65xf32>
  %H = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %G = ge.Exp(%cat) : (tensor<4x65xf32>) -> tensor<4x65xf32>
  ge.NetOutput %G, %H : tensor<4x65xf32>, tensor<4x32xf32>
}

// CHECK:      %R = ge.AscBackend(%data) {{{.*}}origin_nodes = ["R"]
// CHECK:      %D, %cat = ge.FusedAscBackend(%data, %R) {{{.*}}origin_nodes = ["D", "E", "cat"]
// CHECK:        ge.AscBackend(%data0) {{{.*}}origin_nodes = ["D", "E"]
// CHECK:        ge.AscBackend({{.*}}) {{{.*}}origin_nodes = ["cat"]
// CHECK:      %H = ge.AscBackend(%D) {{{.*}}origin_nodes = ["H"]
// CHECK:      %G = ge.AscBackend(%cat) {{{.*}}origin_nodes = ["G"]
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %G, %H

// REMARK-DAG: 'autofuse_reduce_2_ReduceSumD' and 'autofuse_concat_3_ConcatD' not fused: a reduction fuses forward only with pointwise nodes (no reduction + reduction) [NF1031]
// REMARK-DAG: 'autofuse_pointwise_0_Exp' and 'autofuse_reduce_2_ReduceSumD' not fused: node1 and node2 read a common input and one is a reduction [NF1021] [ReduceCanNotFuseHorizontal]
// REMARK-DAG: 'autofuse_concat_3_ConcatD' and 'autofuse_pointwise_5_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011] [ConcatCanNotFuseBackward]
// REMARK-DAG: 'autofuse_fused_1_Exp_Exp_ConcatD' and 'autofuse_pointwise_4_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011]
// REMARK:     remark: ge-autofuse @main: kernels 6 -> 4, {{.*}}(3 fusions in 1 rounds
