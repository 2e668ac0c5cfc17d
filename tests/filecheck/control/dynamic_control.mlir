// RUN: ge-run %examples/control/dynamic_control.mlir --dim 0=3,5,3 --no-symbolic | filecheck %s
// RUN: ge-opt %examples/control/dynamic_control.mlir -p 'ge-partition-dynamic{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=PART
// The If, Case and While of a graph with a `?` batch run on the host in the dynamic
// executor, over three executions of two batch sizes, and match the reference; the
// known-shape head is a static model, and so are its Consts (the known subgraph _input).

// CHECK: clusters: 1 unknown-shape, 2 known-shape (2 run as static models: @main_sub_0_input, @main_sub_2_know)
// CHECK: execution 0: inputs 3x4, scalar, scalar; 7 host nodes, static model runs: 2
// CHECK: execution 1: inputs 5x4, scalar, scalar; 7 host nodes
// CHECK: execution 2: inputs 3x4, scalar, scalar; 7 host nodes
// CHECK: outputs match the reference

// the branches, cond and body are subgraphs of their control ops, not roots partitioned alone
// PART-NOT: graph @scale
// PART: remark: ge-partition-dynamic: If 'a' {{.*}}unknown because output 0 is tensor<?x4xf32>
// PART-NOT: graph @damp
