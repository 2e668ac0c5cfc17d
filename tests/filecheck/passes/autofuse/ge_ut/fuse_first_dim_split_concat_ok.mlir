// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,concat split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_first_dim_split_concat_ok (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real A5 split lowering and the real decider: data ->
// SplitFirstDim -> {A, R} -> Concat2Inputs -> NetOutput. GE: -3 nodes (all four fuse).
// A and R are Exp so the lowering keeps them as their own AscBackends (heavy op), as in GE's
// UT. By hand: HIGHEST: the two StoreSplit pieces fuse (GE's SplitFirstDim); HIGHER: A and
// R join it (vertical from a split); HIGH: split+A+R -> concat is allowed because the split
// is first-dim (concat_fusion_strategy.cpp), but a concat never loop-merges
// (ConcatFusionStrategy::CanMergeLoop), so the result is one FusedAscBackend holding the
// split kernel and the concat kernel (the remark is the inner round's loop-merge refusal).
// 5 kernels -> 1; the GE graph 7 -> 3 (GE's 6 -> 3 from its one-node split).

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<8x16xf32>
  %s0, %s1 = ge.SplitD(%data) {split_dim = 0, num_split = 2} : (tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>)
  %A = ge.Exp(%s0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %R = ge.Exp(%s1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %cat = ge.ConcatD(%A, %R) {concat_dim = 1} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x32xf32>
  ge.NetOutput %cat : tensor<4x32xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data) {{{.*}}origin_nodes = ["s0", "s0", "A", "R", "cat"]
// CHECK:        %A, %R = ge.AscBackend(%data0) {{{.*}}fuse_type = "split"{{.*}}origin_nodes = ["s0", "s0", "A", "R"]
// CHECK:        ge.AscBackend(%A, %R) {{{.*}}origin_nodes = ["cat"]
// CHECK:      ge.NetOutput %cat
// CHECK-NOT:  ge.AscBackend

// REMARK-NOT: SplitCanNotFuseConcatBackward
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 1,
