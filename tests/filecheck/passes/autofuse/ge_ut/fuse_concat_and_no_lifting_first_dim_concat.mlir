// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{remarks=true max_fuse_rounds=1 max_fusion_size=2 max_input_nums_after_fuse=2}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_and_no_lifting_first_dim_concat (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), GE's config (1 round, max_fusion_size 2, max_input_nums_after_fuse 2):
// data -> D, and Data-0..2 -> ConcatFirstDim -> G. GE: -1 node, {D, Concat} in a
// FusedAscBackend that LowerConcatHelper::LiftingPoorPerfFusedAscBackendOps KEEPS.
// By hand, fusion as in ..._lifting_below_threshold (4 inputs > 2 allowed into a concat).
// By hand, lower_concat_helper.cpp: the concat dim 0 is the first dim -> can_be_no_task,
// but its other inputs come from Data nodes (IsPeerNodeValidForNoTask: Data unsupported)
// -> case kFirstDim, threshold 0.0: ratio 3/12 = 0.25 >= 0 -> kept. G (one Exp) is
// lifted back. The may-be-no-task twin (other inputs from
// kernels, unfolded) is tests/passes/autofuse/test_concat_lifting.py.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<3x4xf32>
  %data_0 = ge.Data {index = 1} : tensor<3x4xf32>
  %data_1 = ge.Data {index = 2} : tensor<3x4xf32>
  %data_2 = ge.Data {index = 3} : tensor<3x4xf32>
  %D = ge.Exp(%data) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %cat = ge.ConcatD(%D, %data_0, %data_1, %data_2) {concat_dim = 0} : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<12x4xf32>
  %G = ge.Exp(%cat) : (tensor<12x4xf32>) -> tensor<12x4xf32>
  ge.NetOutput %G : tensor<12x4xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data, %data_0, %data_1, %data_2) {{{.*}}origin_nodes = ["D", "cat"]
// CHECK:        %D = ge.AscBackend(%data0) {{{.*}}origin_nodes = ["D"]
// CHECK:        ge.AscBackend(%D, %data1, %data2, %data3) {{{.*}}origin_nodes = ["cat"]
// CHECK:      %G = ge.Exp(%cat)
// CHECK-NEXT: ge.NetOutput %G

// REMARK:     'autofuse_concat_1_ConcatD' and 'autofuse_pointwise_2_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011] [ConcatCanNotFuseBackward]
// REMARK:     FusedAscBackend 'autofuse_fused_0_Exp_ConcatD' kept: concat in 'autofuse_concat_1_ConcatD': case first_dim: fused AscBackends produce 3/12 = 0.2500 of concat dim 0 >= threshold 0.0 (LowerConcatHelper::NeedLifting)
// REMARK:     lifted 'autofuse_pointwise_2_Exp' back to Exp 'G'
// REMARK:     remark: ge-autofuse @main: kernels 3 -> 2, {{.*}}(1 fusions in 1 rounds, 0 unfolded, 1 lifted)
