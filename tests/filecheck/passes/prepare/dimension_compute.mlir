// RUN: ge-opt %s -p 'ge-dimension-compute-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// dimension_compute_pass.cc: DimensionComputePass folds the nodes whose host kernel computes
// from the node alone: Shape (shape_kernel.cc), Size (size_kernel.cc, 0-d), Rank
// (rank_kernel.cc, 0-d) of a static shape, int32 or int64. Left: a Shape of an unknown
// dim (KernelUtils::IsUnknownShape), one with no_need_constant_folding (Rank of an unknown
// dim folds: it needs the rank only). A producer left without
// consumers goes with the folded node (folding_pass.cc: Folding), a Data does not.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x3x4xf32>
  %u = ge.Data {index = 1} : tensor<?x5xf16>
  %e = ge.Data {index = 2} : tensor<0x7xi8>
  %r = ge.Relu(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s = ge.Shape(%r) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %s32 = ge.Shape(%e) : (tensor<0x7xi8>) -> tensor<2xi32>
  %n = ge.Size(%x) : (tensor<2x3x4xf32>) -> tensor<i64>
  %n0 = ge.Size(%e) : (tensor<0x7xi8>) -> tensor<i32>
  %k = ge.Rank(%u) : (tensor<?x5xf16>) -> tensor<i32>
  %su = ge.Shape(%u) : (tensor<?x5xf16>) -> tensor<2xi64>
  %sk = ge.Shape(%x) {no_need_constant_folding = true} : (tensor<2x3x4xf32>) -> tensor<3xi64>
  ge.NetOutput %s, %s32, %n, %n0, %k, %su, %sk : tensor<3xi64>, tensor<2xi32>, tensor<i64>, tensor<i32>, tensor<i32>, tensor<2xi64>, tensor<3xi64>
}

// CHECK:      ge.graph @main {
// CHECK-NEXT:   %x = ge.Data {index = 0}
// CHECK-NEXT:   %u = ge.Data {index = 1}
// CHECK-NEXT:   %e = ge.Data {index = 2}
// CHECK-NEXT:   %dynamic_const_0 = ge.Const {value = dense<[2, 3, 4]> : tensor<3xi64>, _is_from_constant_folding = true} : tensor<3xi64>
// CHECK-NEXT:   %dynamic_const_1 = ge.Const {value = dense<[0, 7]> : tensor<2xi32>, _is_from_constant_folding = true} : tensor<2xi32>
// CHECK-NEXT:   %dynamic_const_2 = ge.Const {value = dense<24> : tensor<i64>, _is_from_constant_folding = true} : tensor<i64>
// CHECK-NEXT:   %dynamic_const_3 = ge.Const {value = dense<0> : tensor<i32>, _is_from_constant_folding = true} : tensor<i32>
// CHECK-NEXT:   %dynamic_const_4 = ge.Const {value = dense<2> : tensor<i32>, _is_from_constant_folding = true} : tensor<i32>
// CHECK-NEXT:   %su = ge.Shape(%u)
// CHECK-NEXT:   %sk = ge.Shape(%x) {no_need_constant_folding = true}
// CHECK-NEXT:   ge.NetOutput %dynamic_const_0, %dynamic_const_1, %dynamic_const_2, %dynamic_const_3, %dynamic_const_4, %su, %sk :

// REMARK:      dimension_compute.mlir:16:3: remark: ge-dimension-compute-pass: Shape 's' folded to Const 'dynamic_const_0' = [2, 3, 4] (shape_kernel.cc); its producers 'r' removed
// REMARK-NEXT: dimension_compute.mlir:17:3: remark: ge-dimension-compute-pass: Shape 's32' folded to Const 'dynamic_const_1' = [0, 7] (shape_kernel.cc)
// REMARK-NEXT: dimension_compute.mlir:18:3: remark: ge-dimension-compute-pass: Size 'n' folded to Const 'dynamic_const_2' = 24 (size_kernel.cc)
// REMARK-NEXT: dimension_compute.mlir:19:3: remark: ge-dimension-compute-pass: Size 'n0' folded to Const 'dynamic_const_3' = 0 (size_kernel.cc)
// REMARK-NEXT: dimension_compute.mlir:20:3: remark: ge-dimension-compute-pass: Rank 'k' folded to Const 'dynamic_const_4' = 2 (rank_kernel.cc)
// REMARK-NOT:  remark
