// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,concat split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_split_nok (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md)
// with the real A5 split lowering and the real decider: data -> A -> Split0 -> Concat2Inputs
// (both split outputs) -> NetOutput. GE: node count unchanged.
// Our start has one more node: the lowering makes one StoreSplit box per output (and
// realizes A, StoreSplit's input). By hand: the two pieces (same gid) fuse in the HIGHEST
// bucket -- GE's Split0. A -> split: nothing fuses into a split (SplitCanNotFuseForward).
// split -> concat: neither the split (dim 1) nor the concat (dim 1) is first-dim
// (concat_fusion_strategy.cpp, SplitCanNotFuseConcatBackward). So A, the split and the
// concat stay: GE's three kernels; ours 4 -> 3.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x16xf32>
  %A = ge.Abs(%data) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %s0, %s1 = ge.SplitD(%A) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %cat = ge.ConcatD(%s0, %s1) {concat_dim = 1} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  ge.NetOutput %cat : tensor<4x16xf32>
}

// CHECK:      %A = ge.AscBackend(%data) {name = "autofuse_pointwise_0_Abs"
// CHECK:      %s0, %s1 = ge.AscBackend(%A) {name = "autofuse_0_SplitD_SplitD", fuse_type = "split", fuse_type_mask = 16, origin_nodes = ["s0", "s0"]
// CHECK:      %cat = ge.AscBackend(%s0, %s1) {name = "autofuse_concat_3_ConcatD"
// CHECK-NOT:  ge.AscBackend
// CHECK-NOT:  ge.FusedAscBackend

// REMARK-DAG: 'autofuse_pointwise_0_Abs' and 'autofuse_0_SplitD_SplitD' not fused: nothing fuses into a split [NF1028] [SplitCanNotFuseForward]
// REMARK-DAG: 'autofuse_0_SplitD_SplitD' and 'autofuse_concat_3_ConcatD' not fused: split -> concat needs a first-dim split or concat [NF1029] [SplitCanNotFuseConcatBackward]
// REMARK:     remark: ge-autofuse @main: kernels 4 -> 3,
