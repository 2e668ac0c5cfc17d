// RUN: ge-opt %examples/dynamic_batch.mlir -p ge-compile --remarks 2>&1 | filecheck %s
//
// ge-compile on a module already partitioned (examples/dynamic_batch.mlir, the root
// `_dynamic_shape_partitioned = true` with an unknown and a known subgraph): GE partitions
// once per root graph (graph_manager.cc: OptimizeSubgraph -> DoDynamicShapePartition), so
// ge-partition-dynamic leaves the root's two calls as they are (no third subgraph
// @main_sub_1_unknow_0 of the root's calls) and says so at the root's line; the known
// subgraph becomes the known-node model, the unknown one stays a ge graph.

// CHECK:      dynamic_batch.mlir:12:1: remark: ge-partition-dynamic: graph @main not partitioned again: it carries _dynamic_shape_partitioned = true, it is already partitioned (DoDynamicShapePartition runs once per root graph); its subgraphs @main_sub_1_unknow, @main_sub_2_know stay as they are
// CHECK-NOT:  main_sub_1_unknow_0
// CHECK:      ge.graph @main attributes {_dynamic_shape_partitioned = true} {
// CHECK:        ge.PartitionedCall(%x, %two) {f = @main_sub_1_unknow, _is_unknown_shape = true}
// CHECK:        ge.PartitionedCall(%{{.*}}, %w1, %b1, %w2, %b2) {f = @main_sub_2_know, _is_unknown_shape = false}
// CHECK:      ge.graph @main_sub_1_unknow attributes {_is_unknown_shape = true} {
// CHECK:      npu.model @main_sub_2_know streams = 1 events = 0 attributes {known_node = true,
// CHECK-NOT:  main_sub_1_unknow_0
