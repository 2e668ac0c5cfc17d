// RUN: ge-run %examples/dynamic_transformer.mlir --dim 0=2,8,5 --dim 1=3,16,7 --remarks 2>&1 | filecheck %s
// RUN: ge-run %examples/dynamic_transformer.mlir --dim 0=3,8,4 --dim 1=3,16,4 2>&1 | filecheck %s --check-prefix=GUARD
// RUN: ge-run %examples/dynamic_batch.mlir --dim 0=2,8,5 | filecheck %s --check-prefix=BATCH
// Issue 30: a graph with `?` batch and `?` sequence, every compute op lowerable, compiled
// once over symbols (ge-symbolic-autofuse): the symbols with their sources and hints, the
// lowering into AscBackends over them, CanFuse's decisions with their symbolic scores
// (256 bytes per batch and sequence position: one [s0, s1, 64] f32 buffer), then three
// executions with no node on the host.
// CHECK-DAG: remark: ReduceMeanD 'mean': lowered into autofuse_reduce_0_ReduceMeanD
// CHECK-DAG: remark: ge-autofuse: 'autofuse_pointwise_6_Sub_Exp' and 'autofuse_reduce_7_ReduceSumD' fused into '{{.*}}' (priority DEFAULT, ScoreFusionMemory 256*s0*s1 bytes)
// CHECK-DAG: remark: ge-autofuse: 'autofuse_reduce_5_ReduceMaxD' and 'autofuse_pointwise_6_Sub_Exp' not fused: {{.*}}[ReduceCanNotFuseHorizontal]
// CHECK-DAG: remark: symbol s0: input 0 dim 0 (hint 2)
// CHECK-DAG: remark: symbol s1: input 0 dim 1 (hint 3)
// CHECK-DAG: remark: guard: every symbol >= 2 (0/1 specialisation)
// CHECK: compiles: 1
// CHECK-NEXT: execution 0: inputs 2x3x64; symbols s0=2, s1=3, 5 device kernels, 0 host nodes
// CHECK-NEXT: execution 1: inputs 8x16x64; symbols s0=8, s1=16, 5 device kernels, 0 host nodes
// CHECK-NEXT: execution 2: inputs 5x7x64; symbols s0=5, s1=7, 5 device kernels, 0 host nodes
// CHECK: outputs match the reference

// Execution 0 has batch == sequence: duck sizing gives both one symbol, which 8x16 breaks
// (a second compile); 4x4 passes the first compile's guards again.
// GUARD: execution 1: guard failed (input 0 dim 1 is 16, compiled equal to s0 = 8 (input 0 dim 0; duck sizing)): recompiling for inputs 8x16x64
// GUARD-NOT: execution 2: guard failed
// GUARD: compiles: 2
// GUARD: execution 2: inputs 4x4x64; symbols s0=4, 5 device kernels, 0 host nodes
// GUARD: outputs match the reference

// The issue-16 graph: its unknown-batch Mul, Relu and ReduceMeanD now device kernels
// BATCH: compiles: 1
// BATCH: execution 0: inputs 2x32; symbols s0=2, {{[0-9]+}} device kernels, 0 host nodes, static model runs: 1
// BATCH: outputs match the reference
