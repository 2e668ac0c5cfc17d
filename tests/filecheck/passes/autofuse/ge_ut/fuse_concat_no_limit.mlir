// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{lifting=false remarks=true max_fuse_rounds=1 max_fusion_size=2 max_input_nums_after_fuse=2}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_no_limit (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md
// §9.1) with the real decider and GE's config: max_fuse_rounds 1, max_fusion_size 2,
// max_input_nums_after_fuse 2. data -> {D, E, F} -> Concat -> G. GE: -3 nodes, one
// FusedAscBackend {D, E, F, Concat}. By hand: the HIGH (concat) bucket: D, E, F each join
// the concat vertically; into a concat the fusion size is not capped
// (concat_fusion_strategy.cpp), so 2 is no bar; the FusedAscBackend reads data once (1
// input <= 2). D, E, F among themselves are horizontal pointwise pairs: capped (5 + 5 > 2),
// also in the inner round, so the FusedAscBackend keeps 4 AscBackends. Concat -> G: no
// backward fusion on A2/A3. 5 kernels -> 2.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %D = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %F = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %cat = ge.ConcatD(%D, %E, %F) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x96xf32>
  %G = ge.Exp(%cat) : (tensor<4x96xf32>) -> tensor<4x96xf32>
  ge.NetOutput %G : tensor<4x96xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data) {{{.*}}origin_nodes = ["D", "E", "F", "cat"]
// CHECK:        %D = ge.AscBackend(%data0) {{{.*}}origin_nodes = ["D"]
// CHECK:        %E = ge.AscBackend(%data0) {{{.*}}origin_nodes = ["E"]
// CHECK:        %F = ge.AscBackend(%data0) {{{.*}}origin_nodes = ["F"]
// CHECK:        ge.AscBackend(%D, %E, %F) {{{.*}}origin_nodes = ["cat"]
// CHECK:      %G = ge.AscBackend(%cat) {{{.*}}origin_nodes = ["G"]
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %G

// REMARK-DAG: 'autofuse_concat_3_ConcatD' and 'autofuse_pointwise_4_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011] [ConcatCanNotFuseBackward]
// REMARK-DAG: 'autofuse_pointwise_0_Exp' and 'autofuse_pointwise_1_Exp' not fused: fused size 10 > 2 [NF1010] [MaxFusionNodesSizeExceedThreshold]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2, {{.*}}(3 fusions in 1 rounds
