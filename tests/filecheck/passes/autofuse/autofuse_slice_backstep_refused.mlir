// RUN: ge-opt %s -p 'ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// A loop merge through a slice view back-steps the slice onto node1's Loads only where GE's
// DeleteInvalidLoad does (see ge_ut/fuse_slice_split.mlir for the merge):
// @multi_ref: a0's output is also a graph output, so it is multi-referenced: the view is
//   refused in the axis mapping (asc_graph_axis_mapping.cpp: a view link must be single
//   reference), a0 and b0 stay two kernels.
// @reduction: r sums the right half of a 4x64 input over dim 0 (store [1, 32]); the pointwise
//   b = Abs reads one element of it (Data [1, 1], Load offset 5: an extent-1 slice, which the reduction's
//   store-onto-loop mapping accepts): DeleteInvalidLoad does not back-step a view onto a
//   reduction (is_reduction), so the pair is refused with that reason.

ge.graph @multi_ref {
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
  ge.NetOutput %a0, %b0 : tensor<4x16xf32>, tensor<4x8xf32>
}

ge.graph @reduction {
  %x = ge.Data {index = 0} : tensor<4x64xf32>
  %r = ge.AscBackend(%x) {name = "autofuse_reduce_0_StridedSlice_ReduceSumD", fuse_type = "reduce", fuse_type_mask = 36, origin_nodes = ["r"], fusion_nodes_size = 5} : (tensor<4x64xf32>) -> tensor<1x32xf32> {
    ascgraph.graph @r_graph axis = [0: z0 = 4, 1: z1 = 32] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 32], strides = [64, 1]>
      %l = ascgraph.Load(%d) {offset = 32, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 32], strides = [32, 1]>
      %sum = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 32], strides = [0, 1]>
      %s = ascgraph.Store(%sum) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 32], strides = [0, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 32], strides = [0, 1]>
    }
  }
  %b = ge.AscBackend(%r) {name = "autofuse_pointwise_1_Abs", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["b"], fusion_nodes_size = 5} : (tensor<1x32xf32>) -> tensor<1x1xf32> {
    ascgraph.graph @b_graph axis = [0: z0 = 1, 1: z1 = 1] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 1], strides = [0, 0]>
      %l = ascgraph.Load(%d) {offset = 5, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 1], strides = [0, 0]>
      %abs = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 1], strides = [0, 0]>
      %s = ascgraph.Store(%abs) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 1], strides = [0, 0]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 1], strides = [0, 0]>
    }
  }
  ge.NetOutput %b : tensor<1x1xf32>
}

// CHECK-LABEL: ge.graph @multi_ref
// CHECK:         %a0 = ge.AscBackend(%data)
// CHECK:         %b0 = ge.AscBackend(%a0)
// CHECK-LABEL: ge.graph @reduction
// CHECK:         %r = ge.AscBackend(%x)
// CHECK:         %b = ge.AscBackend(%r)

// REMARK: remark: ge-autofuse: 'autofuse_slice_0_StridedSlice' and 'autofuse_slice_1_StridedSlice' not fused: loop axes cannot be unified: node2 reads output 0 through a view, but an output of node1 it reads is multi-referenced [NF1006] [UnifySubgraphAxisFailed]
// REMARK: remark: ge-autofuse: 'autofuse_reduce_0_StridedSlice_ReduceSumD' and 'autofuse_pointwise_1_Abs' not fused: node2 reads a slice of a reduction's output, which DeleteInvalidLoad does not back-step onto the reduction's Loads [{{NF[0-9]+}}] [CanNotMergeAscGraph]
