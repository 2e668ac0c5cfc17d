// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather,reduce},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Not_Fuse_gather_and_reduce (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md), real lowering (enable-pass=gather,reduce) and the real decider:
// data1 -> Gather (params), data2 -> EletAbs -> Gather (indices), data3 -> Gather (axis,
// our Const), Gather -> {Reduce, EletAbs1 -> EletAdd (+ data4)}. GE: -2 nodes, "gather,
// abs1 and add fuse together". GE's abs1 and add are separate AscBackends; our lowering
// would inline Abs into the Add's kernel, so abs1 is an Exp here (GE's heavy op: it
// realizes its output), which keeps GE's five kernels. By hand: EletAbs -> Gather is a
// forward fusion into a gather (refused, IsForwardFuseGather); Gather -> Reduce is refused
// (CheckGatherReduceFuse: enable_reduce_gather_fusion is false on A2/A3); Gather -> Exp is
// gather -> pointwise, 2 axes each, simplest loads, priority HIGH: fused; the result (primary
// type gather) -> Add (reads it and data4 through simplest loads): fused. 5 kernels -> 3.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<16xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %data4 = ge.Data {index = 2} : tensor<4x16xf32>
  %abs = ge.Abs(%data2) : (tensor<16xi32>) -> tensor<16xi32>
  %gather = ge.GatherV2(%data1, %abs, %data3) : (tensor<4x16xf32>, tensor<16xi32>, tensor<i32>) -> tensor<4x16xf32>
  %reduce = ge.ReduceSumD(%gather) {axes = [1], keep_dims = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %abs1 = ge.Exp(%gather) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %add = ge.Add(%abs1, %data4) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %reduce, %add : tensor<4x1xf32>, tensor<4x16xf32>
}

// CHECK:      %abs = ge.AscBackend(%data2) {name = "autofuse_pointwise_0_Abs"
// CHECK:      %gather, %add = ge.AscBackend(%data1, %abs, %data4) {name = "autofuse_1_GatherV2_Exp_Add", fuse_type = "gather", fuse_type_mask = 66, origin_nodes = ["gather", "abs1", "add"]
// CHECK:      %reduce = ge.AscBackend(%gather) {name = "autofuse_reduce_2_ReduceSumD"
// CHECK:      ge.NetOutput %reduce, %add

// REMARK-DAG: 'autofuse_pointwise_0_Abs' and 'autofuse_gather_1_GatherV2' not fused: a gather takes no producer into its kernel (no forward fusion) [NF1016] [GatherCanNotFuseForward]
// REMARK-DAG: and 'autofuse_reduce_2_ReduceSumD' not fused: a gather does not fuse with a reduction on A2/A3 [NF1017] [GatherCanNotFuseWithReduce]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 3,
