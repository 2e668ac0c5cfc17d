// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Can_Not_Fuse_By_Sched_Axis_Size_Not_Equal (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real decider: data1 -> A -> {BroadcastWith6Axis1, Concat},
// data3 -> C -> {Concat, BroadcastWith6Axis2}, data2 -> Concat. GE: -2 nodes, "A, C, Concat
// fuse together". Our 6-axis broadcasts are BroadcastToD 4x8 -> 2x2x2x2x4x8. By hand:
// HIGH (concat) bucket: A and C join the concat (a FusedAscBackend). Each broadcast shares
// A (resp. C) with the concat: concat_fusion_strategy.cpp CheckSameSchedAxis refuses
// 2 axes vs 6 (ConcatNodeSchedAxisSizeNotEqual); A/C + broadcast: the broadcast reads a
// multi-referenced output through a view (UnifySubgraphAxisFailed); afterwards each
// broadcast reads the FusedAscBackend: no concat backward fusion on A2/A3. 5 kernels -> 3.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x8xf32>
  %data2 = ge.Data {index = 1} : tensor<4x8xf32>
  %data3 = ge.Data {index = 2} : tensor<4x8xf32>
  %A = ge.Exp(%data1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %C = ge.Exp(%data3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %B = ge.BroadcastToD(%A) {shape = [2, 2, 2, 2, 4, 8]} : (tensor<4x8xf32>) -> tensor<2x2x2x2x4x8xf32>
  %cat = ge.ConcatD(%A, %data2, %C) {concat_dim = 1} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x24xf32>
  %E = ge.BroadcastToD(%C) {shape = [2, 2, 2, 2, 4, 8]} : (tensor<4x8xf32>) -> tensor<2x2x2x2x4x8xf32>
  ge.NetOutput %B, %cat, %E : tensor<2x2x2x2x4x8xf32>, tensor<4x24xf32>, tensor<2x2x2x2x4x8xf32>
}

// CHECK:      %A, %C, %cat = ge.FusedAscBackend({{.*}}) {{{.*}}origin_nodes = ["A", "C", "cat"]
// CHECK:        ge.NetOutput
// CHECK:      %B = ge.AscBackend(%A) {{{.*}}origin_nodes = ["B"]
// CHECK:      %E = ge.AscBackend(%C) {{{.*}}origin_nodes = ["E"]
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %B, %cat, %E

// REMARK-DAG: 'autofuse_pointwise_2_BroadcastToD' and 'autofuse_concat_3_ConcatD' not fused: the concat loops over 2 axes, the other node over 6 [NF1015] [ConcatNodeSchedAxisSizeNotEqual]
// REMARK-DAG: 'autofuse_concat_3_ConcatD' and 'autofuse_pointwise_4_BroadcastToD' not fused: the concat loops over 2 axes, the other node over 6 [NF1015] [ConcatNodeSchedAxisSizeNotEqual]
// REMARK-DAG: 'autofuse_fused_1_Exp_Exp_ConcatD' and 'autofuse_pointwise_2_BroadcastToD' not fused: a concat does not fuse into its consumer on A2/A3 (concat_alg 0) [NF1011]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 3,
