// RUN: ge-opt %s -p 'ge-infer-shape-for-preprocess{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// graph_prepare.cc: InferShapeForPreprocess runs InferShapePass, DimensionComputePass and
// ConstantFoldingPass on each node in turn: the Shape of %b folds, the GatherV2 of it folds,
// so the StridedSliceV2's end is a Const when its shape is inferred (2x3), and the Tile's
// multiples too (2x9); the Shape of the Tile then folds in the same walk. The Tile of a
// graph input's value stays unknown (a dynamic shape).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x7xf32>
  %b = ge.Data {index = 1} : tensor<1x3xf32>
  %m = ge.Data {index = 2} : tensor<2xi64>
  %s = ge.Shape(%b) : (tensor<1x3xf32>) -> tensor<2xi64>
  %ax = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %i1 = ge.Const {value = dense<[1]> : tensor<1xi64>} : tensor<1xi64>
  %n = ge.GatherV2(%s, %i1, %ax) : (tensor<2xi64>, tensor<1xi64>, tensor<i32>) -> tensor<1xi64>
  %z = ge.Const {value = dense<[0]> : tensor<1xi64>} : tensor<1xi64>
  %one = ge.Const {value = dense<[1]> : tensor<1xi64>} : tensor<1xi64>
  %sl = ge.StridedSliceV2(%x, %z, %n, %one) : (tensor<2x7xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  %t = ge.Tile(%sl, %s) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %st = ge.Shape(%t) : (tensor<?x?xf32>) -> tensor<2xi64>
  %dyn = ge.Tile(%x, %m) : (tensor<2x7xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  ge.NetOutput %t, %st, %dyn : tensor<?x?xf32>, tensor<2xi64>, tensor<?x?xf32>
}

// CHECK:      %sl = ge.StridedSliceV2(%x, %z, %{{.*}}, %one) : (tensor<2x7xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3xf32>
// CHECK-NEXT: %t = ge.Tile(%sl, %{{.*}}) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x9xf32>
// CHECK-NEXT: %{{.*}} = ge.Const {value = dense<[2, 9]> : tensor<2xi64>, _is_from_constant_folding = true}
// CHECK-NEXT: %dyn = ge.Tile(%x, %m) : (tensor<2x7xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: ge.NetOutput %t, %{{.*}}, %dyn : tensor<2x9xf32>, tensor<2xi64>, tensor<?x?xf32>

// REMARK: remark: ge-infer-shape-for-preprocess: Shape 's' folded to Const 'dynamic_const_0' = [1, 3] (shape_kernel.cc)
// REMARK: remark: ge-infer-shape-for-preprocess: GatherV2 'n' folded to Const 'dynamic_const_1' = [3] (gather_v2_kernel.cc)
// REMARK: remark: ge-infer-shape-for-preprocess: StridedSliceV2 'sl' output shapes inferred: sl:0 ?x? -> 2x3
// REMARK: remark: ge-infer-shape-for-preprocess: Tile 't' output shapes inferred: t:0 ?x? -> 2x9
// REMARK: remark: ge-infer-shape-for-preprocess: Shape 'st' folded to Const 'dynamic_const_2' = [2, 9] (shape_kernel.cc)
// REMARK-NOT: dyn
