// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=gather}' | filecheck %s
// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=gather remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse' | filecheck %s --check-prefix=OFF
// GE's gather lowering (lowering_impl.cpp LowerGather, loop_api.cpp GatherLoad,
// asc_overrides.h AscOverrides::GatherLoad; docs/ge/autofuse.md "Gather/GatherV2"), A2/A3.
// Each case's CHECKs fail when its rule is removed.

// GatherV2 on x's last axis: the producer Exp is realized (LowerGather realizes every
// input box), the gather's own Store is realized at once, so the Abs after it is a new
// AscBackend. The AscGraph is GE's GatherLoad: Data(params) and Data(indices) with their
// whole tensors as views and axis ids 0..rank-1 by position (params [4, 8] on ids [0, 1],
// indices [3] on id [0]), no Load, a Gather {axis = 1} over the loop [4, 3]
// (= params[:1] + indices + params[2:]), Store, Output: 5 nodes, fuse type gather (bit 6:
// mask 64). The axis Const is not an input of the kernel.
ge.graph @tail {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %ax = ge.Const {value = dense<-1> : tensor<i32>} : tensor<i32>
  %e = ge.Exp(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = ge.GatherV2(%e, %i, %ax) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
  %a = ge.Abs(%g) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  ge.NetOutput %a : tensor<4x3xf32>
}
// CHECK-LABEL: ge.graph @tail
// CHECK:      %g = ge.AscBackend(%e, %i) {name = "autofuse_gather_1_GatherV2", fuse_type = "gather", fuse_type_mask = 64, origin_nodes = ["g"], fusion_nodes_size = 5} : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<4x3xf32> {
// CHECK-NEXT:   ascgraph.graph @g_out0_graph axis = [0: z0 = 4, 1: z1 = 3] {
// CHECK-NEXT:     %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
// CHECK-NEXT:     %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
// CHECK-NEXT:     %gather = ascgraph.Gather(%data, %data_1) {sched.axis = [0, 1], axis = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:     %store = ascgraph.Store(%gather) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:     %output = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      %a = ge.AscBackend(%g) {name = "autofuse_pointwise_2_Abs"
// REMARK: remark: GatherV2 'g': lowered into autofuse_gather_1_GatherV2; output 0 realized: gather (its Store realizes itself)
// OFF-LABEL: ge.graph @tail
// OFF: %g = ge.GatherV2(%e, %i, %ax)

// -----

// LowerGather realizes its inputs: the Abs feeding the params is not inlined (it would be
// by the pointwise rules: one reader, no heavy op) but ends its own AscBackend.
ge.graph @realize {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %i = ge.Data {index = 1} : tensor<2x2xi64>
  %ax = ge.Const {value = dense<[1]> : tensor<1xi64>} : tensor<1xi64>
  %b = ge.Abs(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %g = ge.GatherV2(%b, %i, %ax) {negative_index_support = true} : (tensor<4x8xf16>, tensor<2x2xi64>, tensor<1xi64>) -> tensor<4x2x2xf16>
  ge.NetOutput %g : tensor<4x2x2xf16>
}
// REMARK: remark: Abs 'b': lowered into autofuse_pointwise_0_Abs; output 0 realized: read by GatherV2 'g' (LowerGather realizes its inputs)
// CHECK-LABEL: ge.graph @realize
// CHECK:      %b = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Abs"
// negative_index_support is carried to the AscIR Gather (GE's ir_attr); indices [2, 2]
// take two loop axes: the loop is [4] + [2, 2] + [] = [4, 2, 2].
// CHECK:      %g = ge.AscBackend(%b, %i) {name = "autofuse_gather_1_GatherV2"
// CHECK:      ascgraph.Gather(%data, %data_1) {sched.axis = [0, 1, 2], axis = 1, negative_index_support = true} : !ascgraph.tensor<f16, axis = [0, 1, 2], repeats = [4, 2, 2], strides = [4, 2, 1]>

// -----

// ge.Gather (two inputs) gathers on axis 0: no last-axis condition (LowerGather's
// gather_data_num_two branch).
ge.graph @gather_axis0 {
  %x = ge.Data {index = 0} : tensor<6x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %g = ge.Gather(%x, %i) : (tensor<6x8xf32>, tensor<3xi32>) -> tensor<3x8xf32>
  ge.NetOutput %g : tensor<3x8xf32>
}
// CHECK-LABEL: ge.graph @gather_axis0
// CHECK:      %g = ge.AscBackend(%x, %i) {name = "autofuse_gather_0_Gather", fuse_type = "gather"
// CHECK:      ascgraph.Gather(%data, %data_1) {sched.axis = [0, 1], axis = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [3, 8], strides = [8, 1]>

// -----

// Not lowered, each for its own LowerGather rule: a GatherV2 on a non-last axis
// (enable_non_tail_gather is false on A2/A3), batch_dims != 0, the high-performance impl
// mode (_op_impl_mode_enum 2), an axis that is not a Const; and (not GE's) 0-d indices.
ge.graph @skips {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %k = ge.Data {index = 2} : tensor<4x3xi32>
  %d = ge.Data {index = 3} : tensor<i32>
  %s = ge.Data {index = 4} : tensor<i32>
  %a0 = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %a1 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %n = ge.GatherV2(%x, %i, %a0) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<3x8xf32>
  %b = ge.GatherV2(%x, %k, %a1) {batch_dims = 1} : (tensor<4x8xf32>, tensor<4x3xi32>, tensor<i32>) -> tensor<4x3xf32>
  %h = ge.GatherV2(%x, %i, %a1) {_op_impl_mode_enum = 2} : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
  %v = ge.GatherV2(%x, %i, %d) : (tensor<4x8xf32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xf32>
  %z = ge.GatherV2(%x, %s, %a1) : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4xf32>
  ge.NetOutput %n, %b, %h, %v, %z : tensor<3x8xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>
}
// REMARK: remark: GatherV2 'n': not lowered (axis 0 is not the last dim of x (A2/A3: enable_non_tail_gather is false)); its inputs are realized
// REMARK: remark: GatherV2 'b': not lowered (batch_dims is 1, not 0); its inputs are realized
// REMARK: remark: GatherV2 'h': not lowered (Gather is in high_performance mode); its inputs are realized
// REMARK: remark: GatherV2 'v': not lowered (axis is not a Const input); its inputs are realized
// REMARK: remark: GatherV2 'z': not lowered (scalar indices); its inputs are realized
// CHECK-LABEL: ge.graph @skips
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %n, %b, %h, %v, %z

// -----

// Without enable-pass=gather (GE's default) the class is off: the node stays.
ge.graph @off {
  %x = ge.Data {index = 0} : tensor<6x8xf32>
  %i = ge.Data {index = 1} : tensor<3xi32>
  %g = ge.Gather(%x, %i) : (tensor<6x8xf32>, tensor<3xi32>) -> tensor<3x8xf32>
  ge.NetOutput %g : tensor<3x8xf32>
}
// OFF-LABEL: ge.graph @off
// OFF: %g = ge.Gather(%x, %i)
