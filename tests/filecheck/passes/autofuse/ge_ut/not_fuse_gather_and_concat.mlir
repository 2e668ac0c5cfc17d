// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather,concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Not_Fuse_gather_and_concat (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), real lowering (enable-pass=gather,concat) and the real decider:
// data1 -> {Gather, Concat}, data2 -> Gather (indices), data3 -> Gather (axis), Gather ->
// Concat. GE's hand-built Concat also reads data3; ours concatenates data1 with the
// gather's output along dim 1 (an axis Const has no place in a concat of tensors), and
// data3 is the GatherV2's axis Const, which GE's LowerGather requires. GE: 0 nodes fused.
// By hand: lowering makes two kernels, the gather (its Store realizes itself) and the
// concat (StoreConcat realizes itself). Their pair is vertical (Gather -> Concat) and
// shares data1; the concat strategy has no objection (concat_fusion_strategy.cpp: the
// concat is the consumer, 2 loop axes each), the gather strategy refuses
// (gather_fusion_strategy.cpp CheckGatherConcatFuse: enable_gather_concat_fusion is false
// on A2/A3). 2 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<16xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %gather = ge.GatherV2(%data1, %data2, %data3) : (tensor<4x16xf32>, tensor<16xi32>, tensor<i32>) -> tensor<4x16xf32>
  %concat = ge.ConcatD(%data1, %gather) {concat_dim = 1} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x32xf32>
  ge.NetOutput %concat : tensor<4x32xf32>
}

// CHECK:      %gather = ge.AscBackend(%data1, %data2) {name = "autofuse_gather_0_GatherV2", fuse_type = "gather"
// CHECK:      %concat = ge.AscBackend(%data1, %gather) {name = "autofuse_concat_1_ConcatD", fuse_type = "concat"
// CHECK-NOT:  ge.FusedAscBackend
// CHECK:      ge.NetOutput %concat

// REMARK:     'autofuse_gather_0_GatherV2' and 'autofuse_concat_1_ConcatD' not fused: a gather does not fuse with a concat on A2/A3 [NF1018] [GatherCanNotFuseWithConcat]
// REMARK:     remark: ge-autofuse @main: kernels 2 -> 2,
