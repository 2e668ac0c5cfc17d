// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split max-buffer-readers=0},ge-autofuse{lifting=false}' | filecheck %s
// XFAIL: *
//
// GE's solver UT Fuse_slice_split (fusion_strategy_solver_unittest.cpp, ge_fusion.md §9.1),
// the A2/A3 slice path: data -> StridedSlice0 -> StridedSlice1 -> D -> NetOutput. GE: -2
// nodes (all three fuse into one AscBackend).
// The slices are SplitD outputs (lowered as StridedSlice views; the other outputs are
// unread); max-buffer-readers=0 keeps each slice its own AscBackend, as in GE's UT.
// We get slice1+D only: slice0 -> slice1 is refused (UnifySubgraphAxisFailed: slice1 loads a
// 4x8 window of slice0's 4x16 output, which axis_mapping cannot pair). GE fuses it because
// AscBackendFusionDecider::DeleteInvalidLoad back-steps the consumer's slice view onto the
// producer's own Loads (BackendUtils::FusedBackSteppingViewOp / ProcessViewOps), which
// ge-autofuse lacks (autofuse_decider.py refuses a loop merge through a slice view). XFAIL
// until that is ported; the CHECK is GE's result.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %a0, %a1 = ge.SplitD(%data) {split_dim = 1, num_split = 2} : (tensor<4x32xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>)
  %b0, %b1 = ge.SplitD(%a0) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %D = ge.Abs(%b0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %D : tensor<4x8xf32>
}

// CHECK:      %D = ge.AscBackend(%data) {{{.*}}origin_nodes = ["a0", "b0", "D"]
