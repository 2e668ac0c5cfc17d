// RUN: ge-opt %s -p 'ge-constant-folding-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// constant_folding_pass.cc: ConstantFoldingPass computes a node whose inputs are all Consts
// with a host kernel (the AICPU engine's first, then GE's built-in ones) and replaces it
// by a Const; a producer left unused goes (folding_pass.cc: Folding). Chains fold in one
// run. Each refusal is the kernel's NOT_CHANGED:
//  * gather_v2_kernel.cc: supported_type has no DT_FLOAT (the f32 GatherV2 stays);
//  * rsqrt_kernel.cc: an input <= 0 (ZeroCheck);
//  * cast_kernel.cc: a pair outside datatype_transfer.cc's trans_mode_map (f32 -> f64; no modelled AICPU kernel has it);
//  * add_kernel.cc: an int32 overflow (OverflowCheck);
//  * a node with a non-Const input, with no_need_constant_folding, or of a type without
//    a kernel (Relu);
//  * a node whose outputs are all empty (NeedIgnorePass: AreAllOutputsEmptyShape), even
//    with a kernel (reshape_kernel.cc).
// ConcatV2D of int32 folds through the AICPU host kernel tried first (ComputeWithHostCpuKernel).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %a = ge.Const {value = dense<[1, 2, 3]> : tensor<3xi64>} : tensor<3xi64>
  %b = ge.Const {value = dense<[10, 20, 30]> : tensor<3xi64>} : tensor<3xi64>
  %sum = ge.Add(%a, %b) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %two = ge.Const {value = dense<2> : tensor<i64>} : tensor<i64>
  %prod = ge.Mul(%sum, %two) : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %i = ge.Const {value = dense<[2, 0]> : tensor<2xi32>} : tensor<2xi32>
  %ax = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %g = ge.GatherV2(%prod, %i, %ax) : (tensor<3xi64>, tensor<2xi32>, tensor<i32>) -> tensor<2xi64>
  %f = ge.Const {value = dense<[1.0, 4.0, -1.0]> : tensor<3xf32>} : tensor<3xf32>
  %gf = ge.GatherV2(%f, %i, %ax) : (tensor<3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<2xf32>
  %rs = ge.Rsqrt(%f) : (tensor<3xf32>) -> tensor<3xf32>
  %c64 = ge.Cast(%f) : (tensor<3xf32>) -> tensor<3xf64>
  %c32 = ge.Cast(%f) : (tensor<3xf32>) -> tensor<3xi32>
  %big = ge.Const {value = dense<2147483647> : tensor<i32>} : tensor<i32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %ovf = ge.Add(%big, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %xr = ge.Add(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %keep = ge.Mul(%one, %one) {no_need_constant_folding = true} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %re = ge.Relu(%f) : (tensor<3xf32>) -> tensor<3xf32>
  %e0 = ge.Const {value = dense<> : tensor<0x2xi32>} : tensor<0x2xi32>
  %er = ge.Reshape(%e0) : (tensor<0x2xi32>) -> tensor<2x0xi32>
  %cv = ge.ConcatV2D(%c32, %c32) {concat_dim = -1, N = 2} : (tensor<3xi32>, tensor<3xi32>) -> tensor<6xi32>
  ge.NetOutput %g, %gf, %rs, %c64, %c32, %ovf, %xr, %keep, %re, %er, %cv : tensor<2xi64>, tensor<2xf32>, tensor<3xf32>, tensor<3xf64>, tensor<3xi32>, tensor<i32>, tensor<4xf32>, tensor<i32>, tensor<3xf32>, tensor<2x0xi32>, tensor<6xi32>
}

// CHECK:      ge.graph @main {
// CHECK-NEXT:   %x = ge.Data {index = 0}
// CHECK-NEXT:   %i = ge.Const
// CHECK-NEXT:   %ax = ge.Const
// CHECK-NEXT:   %dynamic_const_2 = ge.Const {value = dense<[66, 22]> : tensor<2xi64>, _is_from_constant_folding = true} : tensor<2xi64>
// CHECK-NEXT:   %f = ge.Const
// CHECK-NEXT:   %gf = ge.GatherV2(%f, %i, %ax)
// CHECK-NEXT:   %rs = ge.Rsqrt(%f)
// CHECK-NEXT:   %c64 = ge.Cast(%f)
// CHECK-NEXT:   %dynamic_const_3 = ge.Const {value = dense<[1, 4, -1]> : tensor<3xi32>, _is_from_constant_folding = true} : tensor<3xi32>
// CHECK-NEXT:   %big = ge.Const
// CHECK-NEXT:   %one = ge.Const
// CHECK-NEXT:   %ovf = ge.Add(%big, %one)
// CHECK-NEXT:   %xr = ge.Add(%x, %x)
// CHECK-NEXT:   %keep = ge.Mul(%one, %one) {no_need_constant_folding = true}
// CHECK-NEXT:   %re = ge.Relu(%f)
// CHECK-NEXT:   %e0 = ge.Const
// CHECK-NEXT:   %er = ge.Reshape(%e0)
// CHECK-NEXT:   %dynamic_const_4 = ge.Const {value = dense<[1, 4, -1, 1, 4, -1]> : tensor<6xi32>, _is_from_constant_folding = true} : tensor<6xi32>
// CHECK-NEXT:   ge.NetOutput %dynamic_const_2, %gf, %rs, %c64, %dynamic_const_3, %ovf, %xr, %keep, %re, %er, %dynamic_const_4 :

// REMARK:      constant_folding.mlir:22:3: remark: ge-constant-folding-pass: Add 'sum' folded to Const 'dynamic_const_0' = [11, 22, 33] (add_kernel.cc); its producers 'a', 'b' removed
// REMARK-NEXT: constant_folding.mlir:24:3: remark: ge-constant-folding-pass: Mul 'prod' folded to Const 'dynamic_const_1' = [22, 44, 66] (mul_kernel.cc); its producers 'dynamic_const_0', 'two' removed
// REMARK-NEXT: constant_folding.mlir:27:3: remark: ge-constant-folding-pass: GatherV2 'g' folded to Const 'dynamic_const_2' = [66, 22] (gather_v2_kernel.cc); its producers 'dynamic_const_1' removed
// REMARK-NEXT: constant_folding.mlir:32:3: remark: ge-constant-folding-pass: Cast 'c32' folded to Const 'dynamic_const_3' = [1, 4, -1] (cast_kernel.cc)
// REMARK-NEXT: constant_folding.mlir:41:3: remark: ge-constant-folding-pass: ConcatV2D 'cv' folded to Const 'dynamic_const_4' = [1, 4, -1, 1, 4, -1] (AICPU host kernel ConcatV2D)
// REMARK-NOT:  remark
