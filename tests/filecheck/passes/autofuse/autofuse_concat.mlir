// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md) with
// the real decider: data -> {A -> D -> {H, concat}, B -> E -> concat, C -> Reduce -> concat},
// concat -> {G, P}; every compute node an Exp (a heavy op, so lowering keeps each its own
// AscBackend), nodes in GE's depth-first topological order. GE: -6 nodes, one
// FusedAscBackend holding {A, B, D, E, Concat}. By hand: the HIGH (concat) bucket first:
// D+Concat and E+Concat make a FusedAscBackend (a concat never loop-merges); Reduce+Concat
// is refused (concat_fusion_strategy.cpp: no concat with a reduction). Then DEFAULT:
// A and B join the FusedAscBackend vertically (into a concat is unlimited), C+Reduce
// loop-merge, G+P loop-merge horizontally (they share the concat output); H is refused
// (concat backward fusion is off on A2/A3). 10 kernels -> 4. The FusedAscBackend reads
// `data` once (A and B share it: CanDoHorizontalMapping stays on alongside the vertical
// links). Its inner round (§4.7, one round) has the pairs A+D, B+E and A+B (shared data)
// and loop-merges all four into one AscBackend.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %A = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %D = ge.Exp(%A) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %H = ge.Exp(%D) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %B = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%B) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %C = ge.Exp(%data) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %R = ge.ReduceSumD(%C) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %cat = ge.ConcatD(%D, %E, %R) {concat_dim = 1} : (tensor<4x32xf32>, tensor<4x32xf32>, tensor<4x1xf32>) -> tensor<4x65xf32>
  %G = ge.Exp(%cat) : (tensor<4x65xf32>) -> tensor<4x65xf32>
  %P = ge.Exp(%cat) : (tensor<4x65xf32>) -> tensor<4x65xf32>
  ge.NetOutput %H, %G, %P : tensor<4x32xf32>, tensor<4x65xf32>, tensor<4x65xf32>
}

// CHECK:      %R = ge.AscBackend(%data) {{{.*}}origin_nodes = ["C", "R"]
// CHECK:      %D, %cat = ge.FusedAscBackend(%data, %R) {{{.*}}origin_nodes = ["B", "A", "D", "E", "cat"]
// CHECK:        ge.AscBackend(%data0) {{{.*}}origin_nodes = ["B", "A", "D", "E"]
// CHECK:        ge.AscBackend({{.*}}) {name = "autofuse_concat_{{[0-9]+}}_ConcatD"
// CHECK:      %H = ge.AscBackend(%D) {{{.*}}origin_nodes = ["H"]
// CHECK:      %G, %P = ge.AscBackend(%cat) {{{.*}}origin_nodes = ["G", "P"]
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %H, %G, %P

// REMARK-DAG: 'autofuse_reduce_6_ReduceSumD' and 'autofuse_concat_7_ConcatD' not fused: {{.*}}[ReduceCanOnlyBackwardFuse3Elementwise]
// REMARK-DAG: 'autofuse_concat_7_ConcatD' and 'autofuse_pointwise_8_Exp' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011]
// REMARK-DAG: 'autofuse_pointwise_4_Exp' and 'autofuse_concat_7_ConcatD' not fused: the two AscGraphs' loops cannot merge (a concat is involved) [NF1024] [CanNotMergeAscGraph]
// REMARK:     remark: ge-autofuse @main: kernels 10 -> 4,
