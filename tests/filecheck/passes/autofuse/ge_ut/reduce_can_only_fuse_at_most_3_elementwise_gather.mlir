// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather,reduce},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Reduce_Can_Only_Fuse_At_Most_3_Elementwise (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), real lowering (enable-pass=gather,reduce) and the real decider:
// Gather -> Reduce -> D -> A -> R -> R1 -> E1, GE's D..E1 all Abs kernels. Ours are Exp
// (GE's heavy op realizes its output, so each stays its own kernel as in GE's hand-built
// graph; Abs chains would be inlined into one kernel by our lowering). GE: -4 nodes;
// docs/ge/autofuse.md reads it as {Reduce, D, A, R} + {R1, E1}. By hand: Gather -> Reduce is
// refused (gather_fusion_strategy.cpp CheckGatherReduceFuse, enable_reduce_gather_fusion
// false on A2/A3); Reduce absorbs D, A, R (reduction_fusion_strategy.cpp: at most
// max_reduce_can_fuse_elementwise_nums = 3 compute nodes after a reduction), R1 would be
// the 4th: refused; R1 and E1 fuse (pointwise); {R1, E1} after the reduction would make
// 5: refused. 7 kernels -> 3.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<16xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %gather = ge.GatherV2(%data1, %data2, %data3) : (tensor<4x16xf32>, tensor<16xi32>, tensor<i32>) -> tensor<4x16xf32>
  %Reduce = ge.ReduceSumD(%gather) {axes = [1], keep_dims = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %D = ge.Exp(%Reduce) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %A = ge.Exp(%D) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %R = ge.Exp(%A) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %R1 = ge.Exp(%R) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %E1 = ge.Exp(%R1) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  ge.NetOutput %E1 : tensor<4x1xf32>
}

// CHECK:      %gather = ge.AscBackend(%data1, %data2) {name = "autofuse_gather_0_GatherV2"
// CHECK:      %R = ge.AscBackend(%gather) {name = "autofuse_2_ReduceSumD_Exp_Exp_Exp", fuse_type = "reduce"{{.*}}origin_nodes = ["Reduce", "D", "A", "R"], reduce_fused_elementwise_node_num = 3
// CHECK:      %E1 = ge.AscBackend(%R) {name = "autofuse_3_Exp_Exp", fuse_type = "pointwise"{{.*}}origin_nodes = ["R1", "E1"]
// CHECK:      ge.NetOutput %E1

// REMARK:     'autofuse_gather_0_GatherV2' and 'autofuse_reduce_1_ReduceSumD' not fused: a gather does not fuse with a reduction on A2/A3 [NF1017] [GatherCanNotFuseWithReduce]
// REMARK:     'autofuse_2_ReduceSumD_Exp_Exp_Exp' and 'autofuse_pointwise_5_Exp' not fused: a reduction may absorb 3 compute nodes, this fusion gives 4 [NF1030] [ReduceCanFuseWithin3SubNodes]
// REMARK:     remark: ge-autofuse @main: kernels 7 -> 3,
