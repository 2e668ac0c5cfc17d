// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Not_Fuse_reduce_and_concat (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real decider: data -> D -> {E -> Reduce, G -> Concat}
// (GE's Concat has one input, ours takes G twice; GE's control edge Reduce -> Concat has
// no counterpart in our IR, and it only forbids Concat-before-Reduce orders, which the
// data edges do not need). GE: -3 nodes, "D, E, Reduce fuse together; G, Concat fuse
// together". By hand: HIGH (concat) bucket: G+Concat make a FusedAscBackend; then D+E and
// +Reduce loop-merge (pointwise into a reduction); the reduction kernel and the concat
// FusedAscBackend are linked D -> G: a reduction fuses forward only with pointwise nodes
// (reduction_fusion_strategy.cpp). 5 kernels -> 2.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %D = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %R = ge.ReduceSumD(%E) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %G = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %cat = ge.ConcatD(%G, %G) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x64xf32>
  ge.NetOutput %R, %cat : tensor<4x1xf32>, tensor<4x64xf32>
}

// CHECK:      %D, %R = ge.AscBackend(%data) {{{.*}}origin_nodes = ["D", "E", "R"]
// CHECK:      %cat = ge.FusedAscBackend(%D) {{{.*}}origin_nodes = ["G", "cat"]
// CHECK:        %G = ge.AscBackend(%data0) {{{.*}}origin_nodes = ["G"]
// CHECK:        ge.AscBackend(%G) {name = "autofuse_concat_{{[0-9]+}}_ConcatD"
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %R, %cat

// REMARK:     'autofuse_2_Exp_Exp_ReduceSumD' and 'autofuse_fused_0_Exp_ConcatD' not fused: a reduction fuses forward only with pointwise nodes (no reduction + reduction) [NF1031] [ReduceCanOnlyBackwardFuse3Elementwise]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
