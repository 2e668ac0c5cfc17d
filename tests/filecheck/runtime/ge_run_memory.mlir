// RUN: ge-run %examples/split_relu_concat.mlir | filecheck %s --check-prefix=SPLIT
// RUN: ge-run %examples/split_relu_concat.mlir --streams 2 --executions 2 | filecheck %s --check-prefix=SPLIT
// RUN: ge-run %examples/subgraph_call.mlir --executions 2 | filecheck %s --check-prefix=CALL
// RUN: ge-run --help | filecheck %s --check-prefix=HELP
//
// ge-run's memory figures (defined in ge-run --help), by hand:
//  * split_relu_concat: feature map 8192 = the planned arena; lower bound 8192 = at the
//    SplitD, r's block (3072 B + 32 padding, rounded to 32 then 512: 3584) and the three
//    outputs' blocks (1024 + 32 + 32 -> 1088 -> 1536 each): 3584 + 3 * 1536. Peak live
//    6144 = r (3072 B) and the three SplitD outputs (3 * 1024 B) while the SplitD runs:
//    its input and outputs live together (the simulator used to retire the input first
//    and print 3072, below what the plan keeps alive). The same on two streams.
//  * subgraph_call: the call's subgraph runs in its own arena appended to the root's:
//    feature map 1024 (root: y's block, 800 + 32 -> 832 -> 1024) + 2048 (the subgraph's)
//    = 3072, and the lower bound is the root's 1024 plus the subgraph's 2048 (t's block
//    1024 and h0's two 512 blocks at the SplitD) = 3072 (it used to print the root's 1024
//    alone, below the peak). Peak live 1600 = t (800 B) and h0:0, h0:1 (400 B each) while
//    the SplitD runs.

// SPLIT: memory: feature map 8192 bytes, lower bound 8192 (1.00x), peak live 6144
// SPLIT: outputs match the reference

// CALL: memory: feature map 3072 bytes, lower bound 3072 (1.00x), peak live 1600
// CALL: outputs match the reference

// HELP: The memory line, in bytes ("memory: feature map F bytes, lower bound L (F/L x), peak
// HELP: feature map  F: the size of the model's feature-map region
// HELP: lower bound  L: the planner's memory_lower_bound, plus each inlined call arena's
// HELP: peak live    P: measured by the simulator, the most feature-map bytes live at once
// HELP: P <= L on one stream
