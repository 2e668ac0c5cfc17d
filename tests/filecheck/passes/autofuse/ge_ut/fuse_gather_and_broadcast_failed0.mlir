// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_gather_and_Broadcast_Failed0 (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), real lowering (enable-pass=gather) and the real decider: data1,
// data2, data3 -> Gather -> BroadcastWith5Axis (GE's hand-built pointwise AscGraph whose
// Load broadcasts its last axis, same 5 axes as the gather). GE: 0 nodes fused ("node2
// BroadcastWith5Axis (Pointwise with Broadcast) cannot fuse"). Ours: the gather's output
// [4, 1] is added to data4 [4, 8]: the Add kernel loads it with repeat 1, stride 0 on the
// last axis (a broadcast view), both kernels loop over 2 axes. By hand: the pair is
// vertical, n2 is only pointwise, the axis counts agree (2 = 2), but Add does not read
// only simplest loads and enable_gather_broadcast_fusion is false on A2/A3
// (gather_fusion_strategy.cpp CheckGatherWithView): refused. 2 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<1xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %data4 = ge.Data {index = 2} : tensor<4x8xf32>
  %gather = ge.GatherV2(%data1, %data2, %data3) : (tensor<4x16xf32>, tensor<1xi32>, tensor<i32>) -> tensor<4x1xf32>
  %bcast = ge.Add(%gather, %data4) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %bcast : tensor<4x8xf32>
}

// CHECK:      %gather = ge.AscBackend(%data1, %data2) {name = "autofuse_gather_0_GatherV2"
// CHECK:      %bcast = ge.AscBackend(%gather, %data4) {name = "autofuse_pointwise_1_Add"
// CHECK:        %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK:      ge.NetOutput %bcast

// REMARK:     'autofuse_gather_0_GatherV2' and 'autofuse_pointwise_1_Add' not fused: the pointwise node reads an input through a view (broadcast, slice or transpose) [NF1020] [GatherNextNodeIsPointWiseAndInputHasViewOp]
// REMARK:     remark: ge-autofuse @main: kernels 2 -> 2,
