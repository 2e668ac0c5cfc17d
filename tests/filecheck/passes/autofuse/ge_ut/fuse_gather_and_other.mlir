// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_gather_and_other (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md
// §9.1), real lowering (enable-pass=gather) and the real decider: data1, data2, data3 ->
// Gather -> Abs. data3 is the GatherV2's axis Const (LowerGather requires a Const axis; on
// A2/A3 it must be x's last axis). GE: -1 node, "Gather, abs fuse together". By hand: the
// gather's Store realizes itself, so Abs is a second kernel reading it through a plain
// Load. The pair is vertical, n1's primary type is gather (priority HIGH,
// GetFusionPairPriority), n2 is only pointwise, both loop over 2 axes and Abs reads only
// simplest loads: CheckGatherElemwiseFuse passes and the two loop-merge (no concat): one
// AscBackend whose Abs reads the Gather's on-chip value (its Store/Data/Load gone): 5 + 5
// nodes -> Data, Data, Gather, Abs, Store, Output = 6. 2 kernels -> 1.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x16xf32>
  %data2 = ge.Data {index = 1} : tensor<8xi32>
  %data3 = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %gather = ge.GatherV2(%data1, %data2, %data3) : (tensor<4x16xf32>, tensor<8xi32>, tensor<i32>) -> tensor<4x8xf32>
  %abs = ge.Abs(%gather) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %abs : tensor<4x8xf32>
}

// CHECK:      %abs = ge.AscBackend(%data1, %data2) {name = "autofuse_0_GatherV2_Abs", fuse_type = "gather", fuse_type_mask = 66, origin_nodes = ["gather", "abs"]{{.*}}fusion_nodes_size = 6
// CHECK-NEXT:   ascgraph.graph
// CHECK-NEXT:     ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:     ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:     %gather = ascgraph.Gather
// CHECK-NEXT:     %[[ABS:.*]] = ascgraph.Abs(%gather)
// CHECK-NEXT:     ascgraph.Store(%[[ABS]])
// CHECK-NEXT:     ascgraph.Output
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: ge.NetOutput %abs

// REMARK:     remark: ge-autofuse @main: kernels 2 -> 1,
