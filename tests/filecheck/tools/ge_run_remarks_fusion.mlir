// RUN: ge-run %examples/softmax_like.mlir --enable-pass reduce --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARKS
// RUN: ge-run %examples/softmax_like.mlir --enable-pass reduce --remarks 2>/dev/null | filecheck %s --check-prefix=FUSED
// RUN: ge-run %examples/softmax_like.mlir -p 'ge-compile{enable-pass=reduce}' 2>&1 | filecheck %s --check-prefix=FUSED
// RUN: ge-run %examples/softmax_like.mlir 2>&1 | filecheck %s --check-prefix=UNFUSED
// RUN: ge-run %examples/softmax_like.mlir 2>&1 | filecheck %s --check-prefix=QUIET

// Issue 14 point 5: the README tour's reduce fusion of softmax_like (ge-opt -p
// 'ge-lower-autofuse{enable-pass=reduce},ge-autofuse' --remarks) simulated directly by
// ge-run, with ge-compile's enable-pass as a flag and the remarks on stderr as ge-opt
// prints them. By hand, 8x64 f32 (2048 bytes; a reduced 8x1 row is 32): without the
// reduce class the four kernels are ReduceMaxD, Sub+Exp, ReduceSumD, RealDiv, reading
// 2048 + 2080 + 2048 + 2080 = 8256 and writing 32 + 2048 + 32 + 2048 = 4160 bytes; with
// it Sub, Exp, ReduceSumD and RealDiv are one kernel and ReduceMaxD is lifted back to a
// kernel of its own: 2 kernels reading 2048 + 2080 = 4128 and writing 32 + 2048 = 2080.

// REMARKS: softmax_like.mlir:7:3: remark: ReduceMaxD 'm': lowered into autofuse_reduce_0_ReduceMaxD
// REMARKS: softmax_like.mlir:10:3: remark: ReduceSumD 's': lowered into autofuse_reduce_2_ReduceSumD
// REMARKS: remark: ge-autofuse: lifted 'autofuse_reduce_0_ReduceMaxD' back to ReduceMaxD 'm'
// REMARKS: softmax_like.mlir:5:1: remark: ge-autofuse @main: kernels 4 -> 2, global-memory bytes moved by kernels 12416 -> 6208
// REMARKS: softmax_like.mlir:5:1: remark: graph @main: memory_size

// FUSED:      simulator: 3 tasks on 1 stream(s) (end_graph 1, kernel 2), 2 kernels
// FUSED:      bytes moved per execution: 6208 (kernels read 4128, wrote 2080; memcpy 0)
// FUSED:      outputs match the reference

// UNFUSED:    simulator: 5 tasks on 1 stream(s) (end_graph 1, kernel 4), 4 kernels
// UNFUSED:    bytes moved per execution: 12416 (kernels read 8256, wrote 4160; memcpy 0)
// UNFUSED:    outputs match the reference

// QUIET-NOT:  remark:
