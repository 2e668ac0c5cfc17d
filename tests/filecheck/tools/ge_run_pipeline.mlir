// RUN: ge-run %s -p 'ge-lower-autofuse{enable-pass=reduce},ge-autofuse' --remarks 2>/dev/null | filecheck %s --check-prefix=PARTIAL
// RUN: ge-run %s -p 'ge-lower-autofuse{enable-pass=reduce},ge-autofuse' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=FUSION
// RUN: ge-run %examples/softmax_like.mlir -p ge-compile --streams 2 | filecheck %s --check-prefix=STREAMS
// RUN: ge-run %examples/softmax_like.mlir --streams 2 --enable-pass reduce,concat | filecheck %s --check-prefix=BOTHFLAGS
// RUN: not ge-run %s -p ge-compil 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not ge-run %s --enable-pass reduce,bogus 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not ge-run %s --streams two 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not ge-run %s -p 'ge-compile{streams=2}' --enable-pass reduce 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: not ge-run %s -p ge-assign-memory --enable-pass reduce 2>&1 | filecheck %s --check-prefix=NOOPT
// RUN: ge-run --version | filecheck %s --check-prefix=VERSION

// Issue 14 points 4 and 5: ge-run takes -p (ge-opt's pipeline parser and messages) and
// ge-compile's options as flags, added to -p's one pass; --version.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x32xf32>
  %e = ge.Exp(%x) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %s = ge.ReduceSumD(%e) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  ge.NetOutput %s : tensor<4x1xf32>
}

// A pipeline that stops before ge-to-npu: the compiled graph (Exp and ReduceSumD fused
// into one kernel) is evaluated by the reference interpreter, no simulator line. By
// hand: 4x32 f32 is 512 bytes, 4x1 is 16: Exp then ReduceSumD move 512 + 512 + 512 + 16
// = 1552 bytes, the fused kernel 512 + 16 = 528.
// PARTIAL-NOT: simulator:
// PARTIAL:     output 0 autofuse_0_Exp_ReduceSumD:0: shape 4x1 float32
// PARTIAL:     outputs match the reference
// FUSION:      ge_run_pipeline.mlir:17:3: remark: Exp 'e': lowered into autofuse_pointwise_0_Exp
// FUSION:      ge_run_pipeline.mlir:18:3: remark: ReduceSumD 's': lowered into autofuse_reduce_1_ReduceSumD
// FUSION:      ge_run_pipeline.mlir:15:1: remark: ge-autofuse @main: kernels 2 -> 1, global-memory bytes moved by kernels 1552 -> 528

// --streams reaches ge-to-npu: softmax_like's four kernels (no reduce class) on two
// streams; with the reduce class its two fused kernels form one chain, which ge-to-npu
// keeps on one stream.
// STREAMS:     simulator: 10 tasks on 2 stream(s) (end_graph 1, event_record 2, event_wait 2, kernel 4, stream_active 1), 4 kernels
// STREAMS:     outputs match the reference
// BOTHFLAGS:   simulator: 3 tasks on 1 stream(s) (end_graph 1, kernel 2), 2 kernels
// BOTHFLAGS:   outputs match the reference

// UNKNOWN:     ge-run: error: bad pass pipeline 'ge-compil': unknown pass 'ge-compil'; did you mean 'ge-compile'?
// VALUE:       ge-run: error: ge-compile: option enable-pass: expected a list of reduce, concat, split, transpose, gather, got 'bogus'
// TYPE:        ge-run: error: bad pass pipeline 'ge-compile{streams=two}': pass ge-compile: option streams takes 1 | 2, got 'two'
// BOTH:        ge-run: error: the option flags (--enable-pass) apply to a -p of one pass without options, not 'ge-compile{streams=2}': write the options in -p
// NOOPT:       ge-run: error: bad pass pipeline 'ge-assign-memory{enable-pass=reduce}': pass ge-assign-memory: unknown option 'enable-pass'
// VERSION:     ge-run 0.1.0 (xdsl {{[0-9.]+}})
