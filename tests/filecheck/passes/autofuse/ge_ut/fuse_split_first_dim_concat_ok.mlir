// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,concat split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_split_first_dim_concat_ok (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real A5 split lowering and the real decider: data -> Split0
// (dim 1) -> {A, R} -> Concat2InputsFirstDim -> NetOutput. GE: -3 nodes (all four fuse).
// A and R are Exp (realized, as GE's UT has them as their own AscBackends). By hand as
// in Fuse_first_dim_split_concat_ok, except that here the concat is the first-dim one:
// split (dim 1) -> concat (dim 0) is allowed (concat_fusion_strategy.cpp: one of them
// first-dim), and the concat makes it a FusedAscBackend. 5 kernels -> 1; the GE graph
// 7 -> 3 (GE's 6 -> 3).

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x16xf32>
  %s0, %s1 = ge.SplitD(%data) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %A = ge.Exp(%s0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %R = ge.Exp(%s1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %cat = ge.ConcatD(%A, %R) {concat_dim = 0} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  ge.NetOutput %cat : tensor<8x8xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data) {{{.*}}origin_nodes = ["s0", "s0", "A", "R", "cat"]
// CHECK:        %A, %R = ge.AscBackend(%data0) {{{.*}}fuse_type = "split"{{.*}}origin_nodes = ["s0", "s0", "A", "R"]
// CHECK:        ge.AscBackend(%A, %R) {{{.*}}origin_nodes = ["cat"]
// CHECK:      ge.NetOutput %cat
// CHECK-NOT:  ge.AscBackend

// REMARK-NOT: SplitCanNotFuseConcatBackward
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 1,
