// RUN: ge-run %examples/split_relu_concat.mlir | filecheck %s --check-prefix=SPLIT
// RUN: ge-run %examples/split_relu_concat.mlir --streams 2 --executions 2 | filecheck %s --check-prefix=SPLIT
// RUN: ge-run %examples/subgraph_call.mlir --executions 2 | filecheck %s --check-prefix=CALL
// RUN: ge-run --help | filecheck %s --check-prefix=HELP
//
// ge-run's memory figures (defined in ge-run --help), by hand:
//  * split_relu_concat: the SplitD and the ConcatD are no-task (ge-split-notask,
//    ge-concat-notask). Feature map 7168 = the planned arena; lower bound 7168 = while
//    the branch Relus run, r's block (3072 B + 32 padding, rounded to 32 then 512: 3584;
//    the SplitD's outputs are views in it at +0, +1024, +2048) and the concat's block (its
//    pieces b0, b1, b2 side by side, 3072 + 32 -> 3104 -> 3584): 2 * 3584. Peak live
//    4096 = while a branch Relu runs, the bytes of r still to be read plus the branch
//    outputs written so far, each 1024 B: b0 reads s0:0 with s0:1 and s0:2 still to be
//    read (3072) and writes 1024; b1 has s0:1 and s0:2 (2048), b0 and its own 1024; b2 has
//    s0:2, b0, b1 and its own (before, the SplitD's input and outputs lived together:
//    6144). The same on two streams.
//  * subgraph_call: the call's subgraph runs in its own arena appended to the root's:
//    feature map 1024 (root: y's block, 800 + 32 -> 832 -> 1024) + 2048 (the subgraph's)
//    = 3072, and the lower bound is the root's 1024 plus the subgraph's 2048 (t's block
//    1024 and h0's two 512 blocks at the SplitD) = 3072 (it used to print the root's 1024
//    alone, below the peak). Peak live 1600 = t (800 B) and h0:0, h0:1 (400 B each) while
//    the SplitD runs.

// SPLIT: memory: feature map 7168 bytes, lower bound 7168 (1.00x), peak live 4096
// SPLIT: outputs match the reference

// CALL: memory: feature map 3072 bytes, lower bound 3072 (1.00x), peak live 1600
// CALL: outputs match the reference

// HELP: The memory line, in bytes ("memory: feature map F bytes, lower bound L (F/L x), peak
// HELP: feature map  F: the size of the model's feature-map region
// HELP: lower bound  L: the planner's memory_lower_bound, plus each inlined call arena's
// HELP: peak live    P: measured by the simulator, the most feature-map bytes live at once
// HELP: P <= L on one stream
