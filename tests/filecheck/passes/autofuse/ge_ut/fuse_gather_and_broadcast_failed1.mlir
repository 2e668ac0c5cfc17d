// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_gather_and_Broadcast_Failed1 (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), real lowering (enable-pass=gather) and the real decider: data1,
// data2, data3 -> Gather (5 loop axes) -> BroadcastWith6Axis (a pointwise AscGraph over 6
// axes). GE: 0 nodes fused ("node1 axis size(5) != node2 axis size(6)"). Ours: the
// gather loops over 2 axes [4, 8]; BroadcastToD to [2, 4, 8] then Abs is one pointwise
// kernel over 3 axes. By hand: vertical, n2 only pointwise, but the loop axis counts
// differ, 2 != 3 (gather_fusion_strategy.cpp CheckGatherFuseAxis, checked before the
// view; the Abs kernel also broadcasts): refused with GatherNodeAxisSizeNotEqual.
// 2 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<8xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %gather = ge.GatherV2(%data1, %data2, %data3) : (tensor<4x16xf32>, tensor<8xi32>, tensor<i32>) -> tensor<4x8xf32>
  %b = ge.BroadcastToD(%gather) {shape = [2, 4, 8]} : (tensor<4x8xf32>) -> tensor<2x4x8xf32>
  %abs = ge.Abs(%b) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  ge.NetOutput %abs : tensor<2x4x8xf32>
}

// CHECK:      %gather = ge.AscBackend(%data1, %data2) {name = "autofuse_gather_0_GatherV2"
// CHECK:        ascgraph.graph @gather_out0_graph axis = [0: z0 = 4, 1: z1 = 8]
// CHECK:      %abs = ge.AscBackend(%gather) {name = "autofuse_pointwise_1_BroadcastToD_Abs"
// CHECK:        axis = [0: z0 = 2, 1: z1 = 4, 2: z2 = 8]
// CHECK:      ge.NetOutput %abs

// REMARK:     'autofuse_gather_0_GatherV2' and 'autofuse_pointwise_1_BroadcastToD_Abs' not fused: the gather loops over 2 axes, node2 over 3 [NF1019] [GatherNodeAxisSizeNotEqual]
// REMARK:     remark: ge-autofuse @main: kernels 2 -> 2,
