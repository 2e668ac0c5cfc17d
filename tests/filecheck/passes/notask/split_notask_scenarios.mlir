// The seed's two split scenarios end to end (Concat No Task seed §5.1 and §5.3), on one
// and two streams, through ge-run (ge-compile, the device simulator, the reference).
//
// Block computation, examples/split_compute_merge.mlir: the SplitD and the ConcatD are
// both no-task, no task of theirs moves a byte and nothing is copied (memcpy 0); kernels:
// the fused Mul+Relu (reads x, y: 2 x 3072, writes 3072), three fused Exp+Mul (each reads
// its 1024-byte view, writes 1024 into the concat's block), the MatMul (reads the 3072-byte
// concat and w, 32x32 f16 = 2048; writes 3072) and the Tanh (reads and writes 3072): read
// 6144 + 3072 + 5120 + 3072 = 17408, written 3072 + 3072 + 3072 + 3072 = 12288.
// RUN: ge-run %examples/split_compute_merge.mlir --executions 2 | filecheck %s --check-prefix=FLAG
// RUN: ge-run %examples/split_compute_merge.mlir --streams 2 --executions 2 | filecheck %s --check-prefix=FLAG2
// FLAG:      simulator: 7 tasks on 1 stream(s) (end_graph 1, kernel 6), 6 kernels
// FLAG-NEXT: no-task nodes: 2 (s0 (SplitD), c (ConcatD)); bytes moved by their tasks: 0
// FLAG-NEXT: bytes moved per execution: 29696 (kernels read 17408, wrote 12288; memcpy 0)
// FLAG:      outputs match the reference
// FLAG2:      no-task nodes: 2 (s0 (SplitD), c (ConcatD)); bytes moved by their tasks: 0
// FLAG2-NEXT: bytes moved per execution: 29696 (kernels read 17408, wrote 12288; memcpy 0)
// FLAG2:      outputs match the reference
//
// The remarks `make example` prints: the fusions, both markings, the reused block.
// RUN: ge-opt %examples/split_compute_merge.mlir -p ge-compile --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// WHY: remark: ge-autofuse @main: kernels 11 -> 8, {{.*}} (3 fusions in 2 rounds
// WHY: remark: SplitD 's0' marked no-task; locked producers: autofuse_pointwise_0_Mul_Relu:0
// WHY: remark: ConcatD 'c' marked no-task; locked producers: autofuse_0_Exp_Mul:0, autofuse_1_Exp_Mul:0, autofuse_2_Exp_Mul:0
// WHY: remark: 's0':1 -> fm [1024, 2080): output 1 of no-task SplitD 's0' at +1024 (raw sizes before it)
// WHY: remark: 's0':2 -> fm [2048, 3104): output 2 of no-task SplitD 's0' at +2048 (raw sizes before it)
// WHY: remark: 'm':0 -> fm [0, 3104): reused block of 'autofuse_pointwise_0_Mul_Relu':0
//
// §5.3, examples/split_graph_input.mlir: a graph input feeding the split. Online (ge-compile's
// default) the pieces stay in the user's buffer at +0, +128, +256 and three executions with
// fresh buffers refresh their readers; offline, an Identity after the Data holds them.
// RUN: ge-run %examples/split_graph_input.mlir --executions 3 | filecheck %s --check-prefix=ONLINE
// RUN: ge-run %examples/split_graph_input.mlir --executions 3 --streams 2 | filecheck %s --check-prefix=ONLINE
// ONLINE: no-task nodes: 1 (s0 (SplitD)); bytes moved by their tasks: 0
// ONLINE: outputs match the reference
// RUN: ge-opt %examples/split_graph_input.mlir -p ge-split-notask,ge-assign-memory,ge-to-npu 2>&1 | filecheck %s --check-prefix=VIEWS
// VIEWS: npu.alias "s0:0" at #npu.addr<input:0, 0, 128> of ["x:0"]
// VIEWS: npu.alias "s0:1" at #npu.addr<input:0, 128, 128> of ["x:0"]
// VIEWS: npu.alias "s0:2" at #npu.addr<input:0, 256, 128> of ["x:0"]
// RUN: ge-opt %examples/split_graph_input.mlir -p 'ge-split-notask,ge-assign-memory{build-graph-mode=offline remarks=true},ge-to-npu{streams=2}' 2>&1 | filecheck %s --check-prefix=OFFLINE
// OFFLINE: remark: inserted Identity 'identity_0_s0_MemLayoutConflict_0' after graph input 'x':0: its memory would hold the pieces of no-padding continuous-output SplitD 's0', whose addresses the model cannot refresh (offline build)
// OFFLINE: npu.tensor "identity_0_s0_MemLayoutConflict_0:0" at #npu.addr<fm, 0, 384>
// OFFLINE: npu.alias "s0:0" at #npu.addr<fm, 0, 128> of ["identity_0_s0_MemLayoutConflict_0:0"]
// OFFLINE: npu.alias "s0:1" at #npu.addr<fm, 128, 128> of ["identity_0_s0_MemLayoutConflict_0:0"]
// OFFLINE: npu.alias "s0:2" at #npu.addr<fm, 256, 128> of ["identity_0_s0_MemLayoutConflict_0:0"]
// The Identity is the one copy (an rts memcpy), and every reader of the Data reads it:
// OFFLINE: npu.memcpy ins("x:0" at #npu.addr<input:0, 0, 384>) outs("identity_0_s0_MemLayoutConflict_0:0" at #npu.addr<fm, 0, 384>)
// OFFLINE: npu.kernel @exp_3 ins("identity_0_s0_MemLayoutConflict_0:0" at #npu.addr<fm, 0, 384>)
