// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Slice_Horizontal_Has_Multi_Same_Input_Fuse_ok (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), the A2/A3 slice path with the real decider: SliceNode1(data1, data1,
// data2) and SliceNode2(data1, data1, data3) -> NetOutput. GE: node count unchanged.
// Each slice node here is a slice of data1 (a SplitD output, lowered as a StridedSlice
// view) read twice plus data2 (data3), summed by AddN: the lowering inlines the slice into
// the AddN, so each is one slice-typed AscBackend, as in GE. (GE's node has three inputs,
// data1 twice; our AscBackend loads data1 once -- AscOverrides' CSE of equal Data views.)
// By hand: the two share data1 only horizontally and both hold a slice:
// SliceHasOnlyHorizontalLink (slice_split_fusion_strategy.cpp). 2 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<4x8xf32>
  %data3 = ge.Data {index = 2} : tensor<4x8xf32>
  %s1, %s2 = ge.SplitD(%data1) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %slice1 = ge.AddN(%s1, %s1, %data2) {N = 3} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %slice2 = ge.AddN(%s2, %s2, %data3) {N = 3} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %slice1, %slice2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK:      %slice1 = ge.AscBackend(%data1, %data2) {{{.*}}fuse_type_mask = 34, origin_nodes = ["s1", "slice1"]
// CHECK:      %slice2 = ge.AscBackend(%data1, %data3) {{{.*}}fuse_type_mask = 34, origin_nodes = ["s1", "slice2"]
// CHECK:      ge.NetOutput %slice1, %slice2

// REMARK:     'autofuse_pointwise_0_SplitD_AddN' and 'autofuse_pointwise_1_SplitD_AddN' not fused: two slices fuse only along a producer -> consumer link [NF1023] [SliceHasOnlyHorizontalLink]
// REMARK:     remark: ge-autofuse @main: kernels 2 -> 2,
