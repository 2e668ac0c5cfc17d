// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,concat max-buffer-readers=0},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Slice_Horizontal_Has_Same_Load_Fuse_ok (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), the A2/A3 slice path with the real decider: data1 -> SliceNodeSame1..3
// -> ConcatNode -> NetOutput. GE: -3 nodes (all four fuse).
// The op set has no StridedSlice; the three slices are the outputs of one SplitD, which the
// default lowering turns into three StridedSlice views (lowering_impl.cpp
// LowerSplitToStridedSlices). max-buffer-readers=0 realizes each slice (one reader > 0) so
// they stay three AscBackends as in GE's UT instead of being inlined into the concat. By
// hand: slice + slice is only horizontal: refused (SliceHasOnlyHorizontalLink, also in the
// inner round, where the three read distinct Data nodes: NoSharedData); HIGH (a concat):
// each slice fuses into the concat vertically (into a concat: unlimited), a concat never
// loop-merges: one FusedAscBackend of the three slices and the concat. The GE graph
// 6 -> 3, GE's -3.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x24xf32>
  %s1, %s2, %s3 = ge.SplitD(%data1) {split_dim = 1, num_split = 3} : (tensor<4x24xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %cat = ge.ConcatD(%s1, %s2, %s3) {concat_dim = 0} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<12x8xf32>
  ge.NetOutput %cat : tensor<12x8xf32>
}

// CHECK:      %cat = ge.FusedAscBackend(%data1, {{.*}}origin_nodes = ["s1", "s1", "s1", "cat"]
// CHECK:        %s1 = ge.AscBackend({{.*}}fuse_type = "slice"
// CHECK:        %s2 = ge.AscBackend({{.*}}fuse_type = "slice"
// CHECK:        %s3 = ge.AscBackend({{.*}}fuse_type = "slice"
// CHECK:        ge.AscBackend(%s1, %s2, %s3) {{{.*}}origin_nodes = ["cat"]
// CHECK:      ge.NetOutput %cat
// CHECK-NOT:  ge.AscBackend

// REMARK:     remark: ge-autofuse @main: kernels 4 -> 1,
