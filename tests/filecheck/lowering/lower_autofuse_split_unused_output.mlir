// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split}' | filecheck %s --check-prefix=LOWER
// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split},ge-autofuse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split},ge-autofuse{lifting=false}' | filecheck %s --check-prefix=NOLIFT
//
// An output of a SplitVD that nobody reads. The A2/A3 lowering gives every output anchor
// its StridedSlice box (lowering_impl.cpp LowerSplitToStridedSlices), so the unread output
// %b becomes a slice AscBackend nobody reads (LOWER), as in GE. GE removes it at the end of
// Lifting (asc_ir_lowerer.cpp AscIrLowerer::PruneUnusedNodesAfterLifting: an AscBackend
// without out nodes, then producers left without readers); ge-autofuse does the same after
// its lifting, so no kernel computes %b while %a's and %c's kernels stay. With lifting off
// (GE's experimental_disable_lifting skips the whole Lifting) the kernel stays (NOLIFT).
// The slices are not lifted back: each piece's SplitVD needs all three outputs' kernels
// liftable, and those of %a and %c also hold Exp/Abs (LiftingOneNodeAscBackendOp).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x24xf32>
  %a, %b, %c = ge.SplitVD(%x) {split_dim = 1, num_split = 3, size_splits = [8, 8, 8]} : (tensor<4x24xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %y = ge.Exp(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %z = ge.Abs(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %y, %z : tensor<4x8xf32>, tensor<4x8xf32>
}

// LOWER:      %b = ge.AscBackend(%x) {name = "autofuse_slice_0_SplitVD"
// LOWER:      %y = ge.AscBackend(%x) {name = "autofuse_pointwise_1_SplitVD_Exp"
// LOWER:      %z = ge.AscBackend(%x) {name = "autofuse_pointwise_2_SplitVD_Abs"

// CHECK-NOT:  autofuse_slice_0_SplitVD
// CHECK:      %y = ge.AscBackend(%x) {name = "autofuse_pointwise_1_SplitVD_Exp"
// CHECK-NOT:  autofuse_slice_0_SplitVD
// CHECK:      %z = ge.AscBackend(%x) {name = "autofuse_pointwise_2_SplitVD_Abs"
// CHECK-NOT:  autofuse_slice_0_SplitVD
// CHECK:      ge.NetOutput %y, %z

// REMARK:     remark: ge-autofuse: removed 'autofuse_slice_0_SplitVD': nobody reads its outputs
// REMARK:     remark: ge-autofuse @main: kernels 3 -> 2,

// NOLIFT:     %b = ge.AscBackend(%x) {name = "autofuse_slice_0_SplitVD"
