// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,concat split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's decider UT AscBackendFusionDecider_SplitAndConcat_Ok (asc_backend_fusion_decider_unittest.cpp,
// docs/ge/autofuse.md): Data1 -> Split1 (3 outputs) -> Concat1 (3 inputs) -> Shape; GE:
// CanFuseVertical(Split1, Concat1) is true. With the real A5 split lowering the three
// StoreSplit pieces first fuse into the three-output split (HIGHEST, same gid); then
// split -> concat is allowed because the split is first-dim (concat_fusion_strategy.cpp),
// and the concat makes a FusedAscBackend. Its CanFuse refusing would leave 2 kernels.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<6x8xf32>
  %a, %b, %c = ge.SplitD(%data1) {split_dim = 0, num_split = 3} : (tensor<6x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
  %cat = ge.ConcatD(%a, %b, %c) {concat_dim = 1} : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x24xf32>
  %shape = ge.Abs(%cat) : (tensor<2x24xf32>) -> tensor<2x24xf32>
  ge.NetOutput %shape : tensor<2x24xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data1) {{{.*}}origin_nodes = ["a", "a", "a", "cat"]
// CHECK:        %a, %b, %c = ge.AscBackend(%data0) {{{.*}}fuse_type = "split"
// CHECK:        ge.AscBackend(%a, %b, %c) {{{.*}}origin_nodes = ["cat"]
// CHECK:      %shape = ge.AscBackend(%cat)

// REMARK-NOT: SplitCanNotFuseConcatBackward
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
