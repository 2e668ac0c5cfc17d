// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's decider UT AscBackendFusionDecider_FuseLoopMerge8_Ok (asc_backend_fusion_decider_unittest.cpp,
// docs/ge/autofuse.md; "gather+element can fuse vertically"): data1, data2 -> Gather (two
// inputs: GE's Gather op, axis 0) -> AbsAfterReduce (an Abs kernel). GE calls Fuse
// directly and asserts a fused node with 2 inputs and 1 output. Here the real lowering
// (enable-pass=gather: LowerGather's two-input branch, no last-axis condition) and the
// whole ge-autofuse run: the pair passes CheckGatherElemwiseFuse (vertical, 2 loop axes
// each, Abs reads a simplest load) and loop-merges. By hand: one AscBackend reading data1
// and data2 (2 inputs) and writing Abs's output (1 output); its AscGraph is the gather's
// Data, Data, Gather {axis = 0} and Abs's Abs, Store, Output (the Store -> Data -> Load link
// is gone): 5 + 5 - 4 = 6 nodes.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<6x4xf32>
  %data2 = ge.Data {index = 1} : tensor<2x3xi64>
  %gather = ge.Gather(%data1, %data2) : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %abs = ge.Abs(%gather) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %abs : tensor<2x3x4xf32>
}

// CHECK:      %abs = ge.AscBackend(%data1, %data2) {name = "autofuse_0_Gather_Abs", fuse_type = "gather", fuse_type_mask = 66, origin_nodes = ["gather", "abs"]{{.*}}fusion_nodes_size = 6{{.*}} : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32> {
// CHECK:        ascgraph.Gather(%data, %data_1) {sched.axis = [0, 1, 2], axis = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:   ascgraph.Abs
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %abs

// REMARK:     remark: ge-autofuse @main: kernels 2 -> 1,
