// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Not_Fuse_concat_and_reduce (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real decider: data -> D -> {E -> Concat, G -> Reduce}
// (GE's Concat has one input; ours takes E twice). GE: -3 nodes, "D, E, Concat fuse
// together; G, Reduce fuse together". By hand: HIGH (concat) bucket: E+Concat make a
// FusedAscBackend (a concat never loop-merges); D joins it vertically (into a concat is
// unlimited); G+Reduce loop-merge (pointwise into a reduction); the two results share D's
// output only through the FusedAscBackend, and a concat never fuses with a reduction
// (concat_fusion_strategy.cpp). 5 kernels -> 2.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %D = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %cat = ge.ConcatD(%E, %E) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x64xf32>
  %G = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %R = ge.ReduceSumD(%G) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  ge.NetOutput %cat, %R : tensor<4x64xf32>, tensor<4x1xf32>
}

// CHECK:      %D, %cat = ge.FusedAscBackend(%data) {{{.*}}origin_nodes = ["D", "E", "cat"]
// CHECK:      %R = ge.AscBackend(%D) {{{.*}}origin_nodes = ["G", "R"]
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %cat, %R

// REMARK:     'autofuse_fused_1_Exp_Exp_ConcatD' and 'autofuse_2_Exp_ReduceSumD' not fused: a concat does not fuse with a reduction [NF1012] [ConcatCanNotFuseWithReduce]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
