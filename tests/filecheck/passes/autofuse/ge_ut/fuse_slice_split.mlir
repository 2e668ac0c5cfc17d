// RUN: ge-opt %s -p 'ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_slice_split (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md),
// the A2/A3 slice path: data -> StridedSlice0 -> StridedSlice1 -> D -> NetOutput. GE: -2
// nodes (all three fuse into one AscBackend).
// The graph is GE's UT graph after lowering, written by hand: our lowering of a SplitD
// also makes a kernel of each unread piece, which would make StridedSlice0's output
// multi-referenced (a view of it is then refused, as in GE). a0 is the second half of a
// 4x32 input along dim 1 (Data [4, 16] strides [32, 1], Load offset 16), b0 the second
// half of a0 (Data [4, 8] strides [16, 1] in a0's layout, Load offset 8), D = Abs(b0).
// By hand: b0 reads the box start (0, 8), extents (4, 8) of a0's stored [4, 16]
// (backend_utils.cpp SliceCalcOffsetAndStridePerAxisCurNode: offset 8 split by a0's
// output strides [16, 1]); a0's output has one reader, a0 is neither cube nor reduction,
// so the loop merge back-steps the slice onto a0's Load (DeleteInvalidLoad ->
// ProcessViewOps -> ApplyViewOpFinalInfoSlice): the Load reads [4, 8] with a0's input
// strides [32, 1] at offset 16 + 8 x 1 = 24, i.e. data[i, 24 + j] = b0[i, j], on the
// 4x8 loop of b0; a0's Store/Output and b0's Data/Load go. D then merges plainly (its
// Load reads all of b0). One kernel: Data, Load, Abs, Store, Output.

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x32xf32>
  %a0 = ge.AscBackend(%data) {name = "autofuse_slice_0_StridedSlice", fuse_type = "slice", fuse_type_mask = 32, origin_nodes = ["a0"], fusion_nodes_size = 4} : (tensor<4x32xf32>) -> tensor<4x16xf32> {
    ascgraph.graph @a0_graph axis = [0: z0 = 4, 1: z1 = 16] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 16], strides = [32, 1]>
      %l = ascgraph.Load(%d) {offset = 16, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      %s = ascgraph.Store(%l) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
    }
  }
  %b0 = ge.AscBackend(%a0) {name = "autofuse_slice_1_StridedSlice", fuse_type = "slice", fuse_type_mask = 32, origin_nodes = ["b0"], fusion_nodes_size = 4} : (tensor<4x16xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @b0_graph axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [16, 1]>
      %l = ascgraph.Load(%d) {offset = 8, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%l) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  %D = ge.AscBackend(%b0) {name = "autofuse_pointwise_2_Abs", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["D"], fusion_nodes_size = 5} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @D_graph axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %abs = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%abs) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %D : tensor<4x8xf32>
}

// CHECK:      %D = ge.AscBackend(%data) {{{.*}}origin_nodes = ["a0", "b0", "D"]
// CHECK-SAME:   fusion_nodes_size = 5
// CHECK-NEXT:   ascgraph.graph @{{.*}} axis = [0: z0 = 4, 1: z1 = 8] {
// CHECK-NEXT:     %[[D:.*]] = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [32, 1]>
// CHECK-NEXT:     %[[L:.*]] = ascgraph.Load(%[[D]]) {offset = 24, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
// CHECK-NEXT:     %[[A:.*]] = ascgraph.Abs(%[[L]])
// CHECK-NEXT:     ascgraph.Store(%[[A]])
// CHECK-NEXT:     ascgraph.Output
// CHECK-NEXT:   }
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %D

// REMARK:     remark: ge-autofuse @main: kernels 3 -> 1,
