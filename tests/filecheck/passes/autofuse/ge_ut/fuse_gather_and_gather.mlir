// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_gather_and_gather (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md
// §9.1), real lowering (enable-pass=gather) and the real decider: data1 -> {Gather,
// Gather1} (params of both), data2 -> Gather (indices), Gather -> Gather1 (its indices),
// data3 -> both (axis), Gather1 -> Abs. Ours: data1 is an int32 table [4, 8] so the
// first gather's output [4, 3] can index the second (GatherV2 axis 1: [4] + [4, 3] =
// [4, 4, 3]); data3 is the axis Const. GE: -1 node, "gather1 and abs fuse together". By
// hand: three kernels (each gather's Store realizes itself; LowerGather realizes its
// inputs). Gather -> Gather1 (vertical, also sharing data1): n2 holds a gather and is an
// AscBackend, so it is a forward fusion into a gather (gather_fusion_strategy.cpp
// IsForwardFuseGather): refused. Gather1 -> Abs: gather -> pointwise, 3 axes each, simplest
// loads: fused (loop merge). Then Gather -> the fused {Gather1, Abs} is again forward into
// a gather: refused. 3 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x8xi32>
  %data2 = ge.Data {index = 1} : tensor<3xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %gather = ge.GatherV2(%data1, %data2, %data3) : (tensor<4x8xi32>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xi32>
  %gather1 = ge.GatherV2(%data1, %gather, %data3) : (tensor<4x8xi32>, tensor<4x3xi32>, tensor<i32>) -> tensor<4x4x3xi32>
  %abs = ge.Abs(%gather1) : (tensor<4x4x3xi32>) -> tensor<4x4x3xi32>
  ge.NetOutput %abs : tensor<4x4x3xi32>
}

// CHECK:      %gather = ge.AscBackend(%data1, %data2) {name = "autofuse_gather_0_GatherV2", fuse_type = "gather"
// CHECK:      %abs = ge.AscBackend(%data1, %gather) {name = "autofuse_0_GatherV2_Abs", fuse_type = "gather", fuse_type_mask = 66, origin_nodes = ["gather1", "abs"]
// CHECK:        ascgraph.Gather
// CHECK-NOT:    ascgraph.Load
// CHECK:        ascgraph.Abs
// CHECK:      ge.NetOutput %abs

// REMARK:     'autofuse_gather_0_GatherV2' and 'autofuse_gather_1_GatherV2' not fused: a gather takes no producer into its kernel (no forward fusion) [NF1016] [GatherCanNotFuseForward]
// REMARK:     'autofuse_gather_0_GatherV2' and 'autofuse_0_GatherV2_Abs' not fused: a gather takes no producer into its kernel (no forward fusion) [NF1016] [GatherCanNotFuseForward]
// REMARK:     remark: ge-autofuse @main: kernels 3 -> 2,
