// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{remarks=true max_fuse_rounds=1 max_fusion_size=2 max_input_nums_after_fuse=2}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_and_lifting_below_threshold (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), GE's config (1 round, max_fusion_size 2, max_input_nums_after_fuse 2):
// data -> D, and Data-0..2 -> Concat4Inputs -> G. GE: the solver makes {D, Concat} (-1 node,
// which we match); then LiftingPoorPerfFusedAscBackendOps leaves NO FusedAscBackend.
// By hand, NeedLifting: no backward fusion (the concat AscBackend feeds only NetOutput),
// 4 inputs <= concat_max_input_num, concat dim 1 not first; stride 3 x 4 B = 12 B, not
// 32-B aligned -> kOther, threshold 0.3333 (concat_alg 0); ratio = 3 (D's part, the only
// AscBackend source) / 12 = 0.25 < 0.3333 -> UnfoldFusedAscBackend: D and the concat
// AscBackend return to the graph (what LiftingGraph then lifts is not asserted, as in GE).

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x3xf32>
  %data_0 = ge.Data {index = 1} : tensor<4x3xf32>
  %data_1 = ge.Data {index = 2} : tensor<4x3xf32>
  %data_2 = ge.Data {index = 3} : tensor<4x3xf32>
  %D = ge.Exp(%data) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %cat = ge.ConcatD(%D, %data_0, %data_1, %data_2) {concat_dim = 1} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x12xf32>
  %G = ge.Exp(%cat) : (tensor<4x12xf32>) -> tensor<4x12xf32>
  ge.NetOutput %G : tensor<4x12xf32>
}

// GE's assertion: no FusedAscBackend remains.
// CHECK-NOT:  ge.FusedAscBackend
// CHECK:      %D = ge.Exp(%data)
// CHECK-NEXT: %cat = ge.ConcatD(%D, %data_0, %data_1, %data_2) {concat_dim = 1}
// CHECK-NEXT: %G = ge.Exp(%cat)
// CHECK-NEXT: ge.NetOutput %G

// REMARK:     'autofuse_concat_1_ConcatD' and 'autofuse_pointwise_2_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011] [ConcatCanNotFuseBackward]
// REMARK:     FusedAscBackend 'autofuse_fused_0_Exp_ConcatD' unfolded: concat in 'autofuse_concat_1_ConcatD': case other: fused AscBackends produce 3/12 = 0.2500 of concat dim 1 < threshold 0.3333 (LowerConcatHelper::NeedLifting)
// REMARK:     remark: ge-autofuse @main: kernels 3 -> 3, {{.*}}(1 fusions in 1 rounds, 1 unfolded, 3 lifted)
