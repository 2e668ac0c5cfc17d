// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Not_Fuse_concat_and_concat (docs/ge/autofuse.md): D -> E -> Concat,
// D -> G -> Concat1 (each Concat takes its input twice). GE: -3 nodes, FusedAscBackends
// {D, G, Concat1} and {E, Concat}. By hand: G+Concat1 and E+Concat first (HIGH), D joins
// one of them; the two FusedAscBackends both hold a concat (concat_fusion_strategy.cpp:
// concat never fuses with concat). 5 kernels -> 2. The inner round loop-merges D+G.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %D = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %G = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %cat = ge.ConcatD(%E, %E) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x64xf32>
  %cat1 = ge.ConcatD(%G, %G) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x64xf32>
  ge.NetOutput %cat, %cat1 : tensor<4x64xf32>, tensor<4x64xf32>
}

// CHECK:      %D, %cat1 = ge.FusedAscBackend(%data) {{{.*}}origin_nodes = ["D", "G", "cat1"]
// CHECK:        ge.AscBackend(%data0) {{{.*}}origin_nodes = ["D", "G"]
// CHECK:      %cat = ge.FusedAscBackend(%D) {{{.*}}origin_nodes = ["E", "cat"]
// CHECK-NOT:  ge.FusedAscBackend
// CHECK:      ge.NetOutput %cat, %cat1

// REMARK:     not fused: both nodes hold a concat [NF1013] [ConcatCanNotFuseWithConcat]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
