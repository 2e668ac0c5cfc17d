// RUN: ge-run %examples/dynamic_mlp.mlir --dim 0=2,8,5 --remarks --no-symbolic 2>&1 | filecheck %s
// The flat form of examples/dynamic_batch.mlir (its unknown part on the host: --no-symbolic): ge-compile's ge-partition-dynamic makes the
// partition GE's DynamicShapePartitioner makes (the Data in the root, the five Consts the
// known subgraph _input (GetSubgraphName), the unknown-batch Mul, Relu and ReduceMeanD one
// UNKNOWN_SHAPE cluster, the MLP head from the 1x32 mean one KNOWN_SHAPE cluster compiled
// into a known-node model), and says why for each node. dynamic_batch.mlir, written with its
// Consts in the root, refreshes 96, 64 and 0 argument bytes (worked out by hand there); here
// the _input model's five copies (weight -> output) add their 10 slots on the first
// execution and their 5 output slots when the output blocks move (execution 1), and the head
// reads its four weights from those moving blocks instead of fixed Const blocks: 4 more
// slots in execution 1 (12 instead of 8). Execution 2 finds every block where it was.
// CHECK-DAG: remark: ge-partition-dynamic: Data 'x' -> cluster {{[0-9]+}} DATA in the root @main
// CHECK-DAG: remark: ge-partition-dynamic: Mul 's' -> cluster {{[0-9]+}} UNKNOWN_SHAPE in @main_sub_1_unknow: {{.*}}unknown
// CHECK-DAG: remark: ge-partition-dynamic: Relu 'h' -> cluster {{[0-9]+}} UNKNOWN_SHAPE in @main_sub_1_unknow
// CHECK-DAG: remark: ge-partition-dynamic: ReduceMeanD 'm' -> cluster {{[0-9]+}} UNKNOWN_SHAPE in @main_sub_1_unknow
// CHECK-DAG: remark: ge-partition-dynamic: MatMul 'z' -> cluster {{[0-9]+}} KNOWN_SHAPE in @main_sub_2_know: known shape (IsUnknownShapeNode)
// CHECK-DAG: remark: ge-partition-dynamic: Sigmoid 'y' -> cluster {{[0-9]+}} KNOWN_SHAPE in @main_sub_2_know
// CHECK-DAG: remark: ge-assign-memory: graph @main skipped: an unknown-shape graph runs op by op on the host
// CHECK: clusters: 1 unknown-shape, 2 known-shape (2 run as static models: @main_sub_0_input, @main_sub_2_know), 1 data, 1 netoutput
// CHECK-NEXT: execution 0: inputs 2x32; 3 host nodes, static model runs: 2 (@main_sub_0_input all-one-time, 10 args slots refreshed (80 bytes); @main_sub_2_know all-one-time, 12 args slots refreshed (96 bytes))
// CHECK-NEXT: execution 1: inputs 8x32; 3 host nodes, static model runs: 2 (@main_sub_0_input model-io, 5 args slots refreshed (40 bytes); @main_sub_2_know fm-and-model-io, 12 args slots refreshed (96 bytes))
// CHECK-NEXT: execution 2: inputs 5x32; 3 host nodes, static model runs: 2 (@main_sub_0_input no_need_update, 0 args slots refreshed (0 bytes); @main_sub_2_know no_need_update, 0 args slots refreshed (0 bytes))
// CHECK-NEXT: executions: 3, args bytes refreshed per execution (8 per slot): [176, 136, 0]
// CHECK: output 1 h:0: shape 5x32 float32
// CHECK: outputs match the reference
