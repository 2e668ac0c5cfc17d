// Control flow's static passes run out of order: one located line each, exit 1, no traceback.
// RUN: not ge-opt %S/../../../examples/control/if_select.mlir -p ge-assign-memory,ge-to-npu 2>&1 | filecheck %s --check-prefix=COND
// RUN: not ge-opt %S/../../../examples/control/if_select.mlir -p ge-cond-pass,ge-subgraph-pass,ge-assign-memory,ge-to-npu 2>&1 | filecheck %s --check-prefix=LABELS
// RUN: not ge-opt %S/../../../examples/control/while_accumulate.mlir -p ge-cond-pass,ge-label-allocator,ge-assign-memory 2>&1 | filecheck %s --check-prefix=INPLACE

// COND: if_select.mlir:12:3: error: ge.If: If 'r': LabelSwitchByIndex reads an int32 index, but its cond is tensor<i1>: run ge-cond-pass first
// COND-NOT: Traceback
// LABELS: if_select.mlir:12:3: error: ge.If: If 'r' has no labels (3 expected): run ge-label-allocator first
// LABELS-NOT: Traceback
// INPLACE: while_accumulate.mlir:10:3: error: ge.While: While 'w' input 0 is 'i0':0, whose buffer the loop cannot write in place (a graph input, weight or variable): run ge-subgraph-pass first (it copies it)
// INPLACE-NOT: Traceback
