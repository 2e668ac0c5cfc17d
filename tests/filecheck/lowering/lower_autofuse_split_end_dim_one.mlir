// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// lowering_impl.cpp LowerSplitToStridedSlices (A2/A3, split-lowering=slice): CheckEndDimHasOne
// -- a SplitD with an output whose last dim is 1 is not lowered at all (GE returns
// GRAPH_FAILED before building any StridedSlice), so the SplitD stays a GE op and the Exp
// reading its output lowers on its own. The twin below (last dim 2) is lowered into slices.

ge.graph @end_dim_one {
  %x = ge.Data {index = 0} : tensor<4x2xf32>
  %p, %q = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<4x2xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>)
  %e = ge.Exp(%p) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  ge.NetOutput %q, %e : tensor<4x1xf32>, tensor<4x1xf32>
}

// CHECK-LABEL: ge.graph @end_dim_one
// CHECK:       %p, %q = ge.SplitD(%x)
// CHECK-NEXT:  %e = ge.AscBackend(%p) {name = "autofuse_pointwise_0_Exp"

// REMARK: [[# @LINE - 9]]:3: remark: SplitD 'p': not lowered (an output's last dim is 1 (CheckEndDimHasOne: no strided-slice lowering))

ge.graph @end_dim_two {
  %x = ge.Data {index = 0} : tensor<4x4xf32>
  %p, %q = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<4x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  %e = ge.Exp(%p) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  ge.NetOutput %q, %e : tensor<4x2xf32>, tensor<4x2xf32>
}

// CHECK-LABEL: ge.graph @end_dim_two
// CHECK-NOT:   ge.SplitD
// CHECK:       fuse_type = "slice"
