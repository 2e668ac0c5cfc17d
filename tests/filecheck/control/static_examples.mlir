// The examples of examples/control/ on the static path: label tasks on the device, no host,
// on 1 and 2 streams and several executions, against the reference interpreter.
// RUN: ge-run %S/../../../examples/control/if_select.mlir --executions 2 | filecheck %s --check-prefix=IF
// RUN: ge-run %S/../../../examples/control/while_accumulate.mlir --executions 2 --streams 2 | filecheck %s --check-prefix=WHILE
// RUN: ge-run %S/../../../examples/control/case_branches.mlir --executions 3 | filecheck %s --check-prefix=CASE
// RUN: ge-run %S/../../../examples/control/nested_while_if.mlir --executions 2 --streams 2 | filecheck %s --check-prefix=NEST
// RUN: ge-run %S/../../../examples/control/nested_while_if.mlir --streams 2 --stats-json %t.json > /dev/null
// RUN: filecheck %s --check-prefix=JSON < %t.json
// RUN: ge-opt %S/../../../examples/control/while_accumulate.mlir -p ge-compile --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REM

// IF: simulator: {{.*}}label_goto {{[0-9]+}}, label_set 2, label_switch_by_index 1{{.*}}
// IF: outputs match the reference
// WHILE: simulator: {{.*}}label_switch_by_index {{[1-9][0-9]*}}
// WHILE: outputs match the reference
// CASE: simulator: {{.*}}label_switch_by_index 1
// CASE: outputs match the reference
// NEST: simulator: {{.*}}stream_active 1
// NEST: outputs match the reference
// REM: remark: ge-subgraph-pass: inserted Identity 'w_input_2_Memcpy' (MemcpyAsync): Data 'x' feeds While 'w' input 2 (ours: the loop would write that input's buffer in place) (WhileInputNodes)
// REM: remark: ge-subgraph-pass: inserted Identity 'loop_body_input_Memcpy_0' (MemcpyAsync): While body @loop_body reads loop-carried 'i' from a copy
// REM: remark: ge-subgraph-pass: inserted Identity 'w_input_0_Memcpy' (MemcpyAsync): Const 'i0' feeds While 'w' input 0, which the loop writes in place (SubgraphInputNode)
// REM: remark: ge-label-allocator: While 'w': 3 labels (cond-enter 0, body-enter 1, body-leave 2) (WhileOpLabelMaker)
// JSON: "tasks_by_kind": {
// JSON: "label_goto": {{[0-9]+}},
// JSON-NEXT: "label_set": {{[0-9]+}},
// JSON-NEXT: "label_switch_by_index": {{[0-9]+}},
// JSON: "stream_active": 1
