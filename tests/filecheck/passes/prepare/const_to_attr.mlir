// RUN: ge-opt %s -p 'ge-const-to-attr{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// The fusion engine's ConstToAttrPass: Expand(x, Const shape) -> BroadcastToD {shape = the
// output's shape}; ReduceSum(x, Const axes) -> ReduceSumD {axes, keep_dims}; empty axes with
// noop_with_empty_axes -> Identity; SplitV(x, Const size_splits, Const split_dim) ->
// SplitVD. A Const goes when nothing reads it any more (%ax after its second reader). An
// Expand whose shape is a graph input's value stays.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x1xf32>
  %d = ge.Data {index = 1} : tensor<3xi64>
  %s = ge.Const {value = dense<[3, 1, 4]> : tensor<3xi64>} : tensor<3xi64>
  %e = ge.Expand(%x, %s) : (tensor<2x1xf32>, tensor<3xi64>) -> tensor<3x2x4xf32>
  %ax = ge.Const {value = dense<[1]> : tensor<1xi64>} : tensor<1xi64>
  %r = ge.ReduceSum(%e, %ax) {keep_dims = false} : (tensor<3x2x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  %rm = ge.ReduceMin(%e, %ax) {keep_dims = true} : (tensor<3x2x4xf32>, tensor<1xi64>) -> tensor<3x1x4xf32>
  %none = ge.Const {value = dense<> : tensor<0xi64>} : tensor<0xi64>
  %n = ge.ReduceMax(%e, %none) {noop_with_empty_axes = true} : (tensor<3x2x4xf32>, tensor<0xi64>) -> tensor<3x2x4xf32>
  %sz = ge.Const {value = dense<[1, -1]> : tensor<2xi32>} : tensor<2xi32>
  %dim = ge.Const {value = dense<2> : tensor<i32>} : tensor<i32>
  %p:2 = ge.SplitV(%e, %sz, %dim) {num_split = 2} : (tensor<3x2x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<3x2x1xf32>, tensor<3x2x3xf32>)
  %dyn = ge.Expand(%x, %d) : (tensor<2x1xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  ge.NetOutput %r, %rm, %n, %p#0, %p#1, %dyn : tensor<3x4xf32>, tensor<3x1x4xf32>, tensor<3x2x4xf32>, tensor<3x2x1xf32>, tensor<3x2x3xf32>, tensor<?x?x?xf32>
}

// CHECK:      %e = ge.BroadcastToD(%x) {shape = [3, 2, 4]} : (tensor<2x1xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: %r = ge.ReduceSumD(%e) {axes = [1], keep_dims = false} : (tensor<3x2x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %rm = ge.ReduceMinD(%e) {axes = [1], keep_dims = true} : (tensor<3x2x4xf32>) -> tensor<3x1x4xf32>
// CHECK-NEXT: %n = ge.Identity(%e) : (tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NEXT: %p, %p_1 = ge.SplitVD(%e) {size_splits = [1, -1], split_dim = 2, num_split = 2}
// CHECK-NEXT: %dyn = ge.Expand(%x, %d)

// REMARK: remark: ge-const-to-attr: Expand 'e' becomes BroadcastToD {shape = [3, 2, 4]}; Const 's' removed
// REMARK: remark: ge-const-to-attr: ReduceSum 'r' becomes ReduceSumD {axes = [1], keep_dims = false}
// REMARK: remark: ge-const-to-attr: ReduceMin 'rm' becomes ReduceMinD {axes = [1], keep_dims = true}; Const 'ax' removed
// REMARK: remark: ge-const-to-attr: ReduceMax 'n' becomes Identity; Const 'none' removed
// REMARK: remark: ge-const-to-attr: SplitV 'p' becomes SplitVD {size_splits = [1, -1], split_dim = 2, num_split = 2}; Const 'sz', 'dim' removed
// REMARK-NOT: 'dyn'
