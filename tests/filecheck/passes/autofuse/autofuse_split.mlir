// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split},ge-autofuse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// A split on A2/A3 lowers into one StridedSlice (a "slice" AscBackend) per output
// (lowering_impl.cpp LowerSplit; docs/ge/autofuse.md). GE's eagle-graph test
// AbsAndSliceNotCanfuse (§9.5) with the real decider (slice_fusion_strategy.cpp): a slice
// that reads its producer's output through a slice view, when the producer itself loads
// without a slice, does not fuse with it (GE logs kNodeInputHasSplit, NF1026, for it:
// CheckIfSubGraphLinksHaveSpecifiedLoadTypePairs with a slice load on node2's side); two
// slices linked only horizontally do not fuse.
// Nothing fuses, and lifting (fewer than 2 compute ops) gives back Exp and the SplitD (its
// two slice kernels together). GE: unchanged.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %e = ge.Exp(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a, %b = ge.SplitD(%e) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  ge.NetOutput %a, %b : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK:      %e = ge.Exp(%x)
// CHECK-NEXT: %a, %b = ge.SplitD(%e) {split_dim = 1, num_split = 2}
// CHECK-NOT:  ge.AscBackend

// REMARK:     'autofuse_pointwise_0_Exp' and 'autofuse_slice_1_SplitD' not fused: node2 slices node1's output, which node1 computes without a slice [NF1026] [NodeInputHasSplit]
// REMARK:     'autofuse_pointwise_0_Exp' and 'autofuse_slice_2_SplitD' not fused: {{.*}}[NodeInputHasSplit]
// REMARK:     'autofuse_slice_1_SplitD' and 'autofuse_slice_2_SplitD' not fused: two slices fuse only along a producer -> consumer link [NF1023] [SliceHasOnlyHorizontalLink]
// REMARK:     lifted 'autofuse_slice_1_SplitD', 'autofuse_slice_2_SplitD' back to SplitD 'a'
// REMARK:     remark: ge-autofuse @main: kernels 3 -> 2,
