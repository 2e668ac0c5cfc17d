// RUN: ge-run %examples/split_relu_concat.mlir --seed 3 --executions 2 --stats-json %t.json | filecheck %s
// RUN: filecheck %s --check-prefix=JSON < %t.json
// RUN: ge-run %examples/split_relu_concat.mlir --streams 2 | filecheck %s --check-prefix=TWO
// RUN: ge-run %examples/phony_concat_split.mlir | filecheck %s --check-prefix=PHONY
// RUN: ge-run %examples/subgraph_call.mlir --executions 3 | filecheck %s --check-prefix=CALL

// The no-task ConcatD has no task; the first execution refreshes every task with
// addresses (6), the second only those touching the new input/output buffers (the first
// Relu reads input 0, the memcpy writes output 0).
// CHECK:      simulator: 7 tasks on 1 stream(s) (end_graph 1, kernel 5, memcpy 1), 5 kernels
// CHECK-NEXT: no-task nodes: 1 (c (ConcatD))
// CHECK-NEXT: bytes moved per execution: 21504 (kernels read 9216, wrote 9216; memcpy 3072)
// CHECK-NEXT: memory: feature map {{[0-9]+}} bytes, lower bound {{[0-9]+}}
// CHECK-NEXT: executions: 2, args refreshed per execution: [6, 2]
// CHECK-NEXT: max error: 0
// CHECK-NEXT: output 0 c:0: shape 48x32 float16
// CHECK-NEXT: outputs match the reference

// JSON: "kernels": 5
// JSON: "mismatch_count": 0
// JSON: "no_task_nodes": [
// JSON-NEXT: "c (ConcatD)"
// JSON: "refreshed_tasks": [
// JSON-NEXT: 6,
// JSON-NEXT: 2

// TWO: simulator: {{[0-9]+}} tasks on 2 stream(s) ({{.*}}event_record 2, event_wait 2{{.*}}stream_active 1)
// TWO: outputs match the reference

// examples/phony_concat_split.mlir, pieces 1x1x1x4x8 f16 = 64 B, block 1x2x1x8x8 = 256 B.
// Kernels (9): ge-lower-autofuse makes one AscBackend per Mul and one for the Add; the four
// producers may not fuse (each would write a second piece of 'block') nor may the four
// consumers (each would read a second piece of 'p0'), and every AscBackend has a single
// compute op, so lifting gives the original GE ops back as library kernels, which read
// every operand: m0..m3 read 2 x 64 = 128 each (512), the Add(block, block) 2 x 256 = 512,
// o0..o3 (piece, Data) 2 x 64 each (512) -> 1536 read; written 4 * 64 + 256 + 4 * 64 = 768.
// Each piece is read and written contiguously at GE's offsets (0, 64, 128, 192), and the
// outputs match the reference interpreter's concatenation and split.
// PHONY: simulator: 10 tasks on 1 stream(s) (end_graph 1, kernel 9), 9 kernels
// PHONY-NEXT: no-task nodes: 2 (block (PhonyConcat), p0 (PhonySplit))
// PHONY-NEXT: bytes moved per execution: 2304 (kernels read 1536, wrote 768; memcpy 0)
// PHONY: outputs match the reference

// CALL: no-task nodes: 1 (y (PartitionedCall))
// CALL: executions: 3, args refreshed per execution: [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
// CALL: outputs match the reference
