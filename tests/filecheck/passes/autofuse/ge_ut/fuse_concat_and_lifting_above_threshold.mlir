// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{remarks=true max_fuse_rounds=1 max_fusion_size=2 max_input_nums_after_fuse=2}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_and_lifting_above_threshold (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real decider and GE's config (1 round, max_fusion_size 2,
// max_input_nums_after_fuse 2): data -> D, and Data-0, Data-1 -> Concat3Inputs -> G.
// GE: -1 node, {D, Concat} in a FusedAscBackend, which
// LowerConcatHelper::LiftingPoorPerfFusedAscBackendOps then KEEPS.
// By hand, fusion: D joins the concat vertically; into a concat neither the size cap nor
// the input cap applies (the FusedAscBackend has 3 inputs > 2, GE fuses it too); the concat
// does not fuse into G (A2/A3). Lifting: G is one Exp, lifted back (liftings.cpp).
// By hand, lower_concat_helper.cpp NeedLifting: concat dim 1 is not the first non-1 dim;
// stride 3 x 4 B = 12 B per input is not 32-B aligned -> case kOther, threshold 0.3333
// (concat_alg 0); ratio = concat-dim size fed by AscBackends / output size = 3/9 =
// 0.3333.. >= 0.3333 -> kept. (ge-autofuse's
// LiftingPoorPerfFusedAscBackendOps, passes/autofuse/concat_lifting.py: GE's threshold
// is 0.3333, not 1/3, so one fused input of three stays just above it.)

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x3xf32>
  %data_0 = ge.Data {index = 1} : tensor<4x3xf32>
  %data_1 = ge.Data {index = 2} : tensor<4x3xf32>
  %D = ge.Exp(%data) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %cat = ge.ConcatD(%D, %data_0, %data_1) {concat_dim = 1} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
  %G = ge.Exp(%cat) : (tensor<4x9xf32>) -> tensor<4x9xf32>
  ge.NetOutput %G : tensor<4x9xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data, %data_0, %data_1) {{{.*}}origin_nodes = ["D", "cat"]
// CHECK:        %D = ge.AscBackend(%data0) {{{.*}}origin_nodes = ["D"]
// CHECK:        ge.AscBackend(%D, %data1, %data2) {{{.*}}origin_nodes = ["cat"]
// CHECK:      %G = ge.Exp(%cat)
// CHECK-NEXT: ge.NetOutput %G

// REMARK:     'autofuse_concat_1_ConcatD' and 'autofuse_pointwise_2_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011] [ConcatCanNotFuseBackward]
// REMARK:     FusedAscBackend 'autofuse_fused_0_Exp_ConcatD' kept: concat in 'autofuse_concat_1_ConcatD': case other: fused AscBackends produce 3/9 = 0.3333 of concat dim 1 >= threshold 0.3333 (LowerConcatHelper::NeedLifting)
// REMARK:     lifted 'autofuse_pointwise_2_Exp' back to Exp 'G'
// REMARK:     remark: ge-autofuse @main: kernels 3 -> 2, {{.*}}(1 fusions in 1 rounds, 0 unfolded, 1 lifted)
