// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_and_mulreference_node_2 (fusion_strategy_solver_unittest.cpp,
// docs/ge/autofuse.md) with the real decider: data1 -> D -> {Broadcast, G2}, data3 -> G2,
// data4 -> E, Concat(G2, Broadcast, E). GE: -3 nodes (5 AscBackends -> 2), "E, Broadcast,
// G2, Concat fuse together" (D alone). Ours: D is 4x1 broadcast to 4x8 (BroadcastToD, and
// G2 = Exp(Add(data3, D)) with an implicit broadcast); the lowering already inlines the
// BroadcastToD into the concat kernel, so we start from 4 kernels; the groups are GE's.
// By hand: HIGH (concat) bucket: G2 and E join the concat (a FusedAscBackend); D's output
// is read by two nodes, each through a broadcast view: a multi-referenced output read
// through a view cannot be unified (asc_graph_axis_mapping.cpp), before and after G2 joins
// (the FusedAscBackend's input 2 feeds several nodes through a view). 4 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x1xf32>
  %data3 = ge.Data {index = 1} : tensor<4x8xf32>
  %data4 = ge.Data {index = 2} : tensor<4x8xf32>
  %D = ge.Exp(%data1) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %Bc = ge.BroadcastToD(%D) {shape = [4, 8]} : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %s = ge.Add(%data3, %D) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %G2 = ge.Exp(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %E = ge.Exp(%data4) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %cat = ge.ConcatD(%G2, %Bc, %E) {concat_dim = 1} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x24xf32>
  ge.NetOutput %cat : tensor<4x24xf32>
}

// CHECK:      %D = ge.AscBackend(%data1) {{{.*}}origin_nodes = ["D"]
// CHECK:      %cat = ge.FusedAscBackend({{.*}}%D) {{{.*}}origin_nodes = ["E", "s", "G2", "Bc", "cat"]
// CHECK:        %E = ge.AscBackend({{.*}}origin_nodes = ["E"]
// CHECK:        %G2 = ge.AscBackend({{.*}}origin_nodes = ["s", "G2"]
// CHECK:        %cat_1 = ge.AscBackend(%G2, {{.*}}, %E) {{{.*}}origin_nodes = ["Bc", "cat"]
// CHECK:        ge.NetOutput %cat_1
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %cat

// REMARK-DAG: 'autofuse_pointwise_0_Exp' and 'autofuse_pointwise_1_Add_Exp' not fused: loop axes cannot be unified: node2 reads output 0 through a view, but an output of node1 it reads is multi-referenced [NF1006] [UnifySubgraphAxisFailed]
// REMARK-DAG: 'autofuse_pointwise_0_Exp' and 'autofuse_fused_1_Exp_Add_Exp_BroadcastToD_ConcatD' not fused: loop axes cannot be unified: input 2 of the FusedAscBackend feeds several nodes through a view [NF1006] [UnifySubgraphAxisFailed]
// REMARK:     remark: ge-autofuse @main: kernels 4 -> 2,
