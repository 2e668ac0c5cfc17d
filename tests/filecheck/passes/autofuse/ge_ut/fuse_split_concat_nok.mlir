// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,concat split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_split_concat_nok (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md
// §9.1) with the real A5 split lowering and the real decider: data -> Split0 -> {A, R} ->
// Concat2Inputs -> NetOutput. GE: -2 nodes ({Split0, A, R} fuse, the concat stays).
// A and R are Exp here so the lowering realizes them (heavy op) instead of inlining them
// into the concat, as GE's UT has them as their own AscBackends. By hand: HIGHEST: the two
// StoreSplit pieces fuse (GE's Split0); HIGHER: A and R fuse into the split (vertical from a
// split, unlimited); HIGH (a concat): split+A+R -> concat is refused, the split (dim 1) and
// the concat (dim 1) are not first-dim (SplitCanNotFuseConcatBackward). 5 kernels -> 2; the
// GE graph 7 -> 4 (GE's 6 -> 4 from its one-node Split0).

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x16xf32>
  %s0, %s1 = ge.SplitD(%data) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %A = ge.Exp(%s0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %R = ge.Exp(%s1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %cat = ge.ConcatD(%A, %R) {concat_dim = 1} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  ge.NetOutput %cat : tensor<4x16xf32>
}

// CHECK:      %A, %R = ge.AscBackend(%data) {{{.*}}fuse_type = "split"{{.*}}origin_nodes = ["s0", "s0", "A", "R"]
// CHECK:      %cat = ge.AscBackend(%A, %R) {{{.*}}origin_nodes = ["cat"]
// CHECK-NOT:  ge.AscBackend
// CHECK-NOT:  ge.FusedAscBackend

// REMARK:     'autofuse_2_SplitD_SplitD_Exp_Exp' and 'autofuse_concat_4_ConcatD' not fused: split -> concat needs a first-dim split or concat [NF1029] [SplitCanNotFuseConcatBackward]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
