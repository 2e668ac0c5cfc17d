// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split split-lowering=split}' | filecheck %s --check-prefix=LOWER
//
// GE's solver UT Fuse_split (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md) with
// the real A5 split lowering (split_lowered_to_split) and the real decider:
// data -> Split0 -> {A, R} -> NetOutput, A and R elementwise. GE: -2 nodes (Split0, A, R
// become one AscBackend).
// Our start differs by one node: GE's UT hands the solver Split0 as ONE two-output split
// AscBackend; the real lowering (lowering_impl.cpp LowerSplitToNormalSplit, loop_api.cpp
// StoreSplit) makes one realized StoreSplit box per output, both with the Split's global id
// 1 (LOWER). By hand: the HIGHEST bucket (split_fusion_strategy.cpp: both primary split)
// fuses the two pieces (same gid) -- that is GE's Split0; then the HIGHER bucket (a split
// in the mask) fuses A and R into it vertically, unlimited in size (vertical from a split).
// 4 kernels -> 1, the GE graph 6 -> 3 nodes (GE's 5 -> 3 from its one-node Split0).

ge.graph @main {
  %data = ge.Data {index = 0} : tensor<4x16xf32>
  %s0, %s1 = ge.SplitD(%data) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %A = ge.Abs(%s0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %R = ge.Abs(%s1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %A, %R : tensor<4x8xf32>, tensor<4x8xf32>
}

// LOWER:      %s0 = ge.AscBackend(%data) {name = "autofuse_split_0_SplitD", fuse_type = "split", fuse_type_mask = 16
// LOWER:        ascgraph.Split(%load) {sched.axis = [0, 1], gid = 1}
// LOWER:      %s1 = ge.AscBackend(%data) {name = "autofuse_split_1_SplitD", fuse_type = "split", fuse_type_mask = 16
// LOWER:        ascgraph.Split(%load) {sched.axis = [0, 1], gid = 1}

// CHECK:      %A, %R = ge.AscBackend(%data) {name = "autofuse_2_SplitD_SplitD_Abs_Abs", fuse_type = "split", fuse_type_mask = 18, origin_nodes = ["s0", "s0", "A", "R"]
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %A, %R

// REMARK-NOT: not fused
// REMARK:     remark: ge-autofuse @main: kernels 4 -> 1,
