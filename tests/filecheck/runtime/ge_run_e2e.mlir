// RUN: ge-run %examples/split_relu_concat.mlir --seed 3 --executions 2 --stats-json %t.json | filecheck %s
// RUN: filecheck %s --check-prefix=JSON < %t.json
// RUN: ge-run %examples/split_relu_concat.mlir --streams 2 | filecheck %s --check-prefix=TWO
// RUN: ge-run %examples/phony_concat_split.mlir | filecheck %s --check-prefix=PHONY
// RUN: ge-run %examples/subgraph_call.mlir --executions 3 | filecheck %s --check-prefix=CALL

// The no-task SplitD and ConcatD have no task (ge-split-notask, ge-concat-notask): the
// kernels are the four Relus (the first reads and writes 48x32 f16 = 3072 bytes, each
// branch 1024 + 1024), the memcpy copies the concat's 3072 bytes to output 0. The first
// execution refreshes every task with addresses (5), the second only those touching the
// new input/output buffers (the first Relu reads input 0, the memcpy writes output 0).
// CHECK:      simulator: 6 tasks on 1 stream(s) (end_graph 1, kernel 4, memcpy 1), 4 kernels
// CHECK-NEXT: no-task nodes: 2 (s0 (SplitD), c (ConcatD)); bytes moved by their tasks: 0
// CHECK-NEXT: bytes moved per execution: 15360 (kernels read 6144, wrote 6144; memcpy 3072)
// CHECK-NEXT: memory: feature map {{[0-9]+}} bytes, lower bound {{[0-9]+}}
// CHECK-NEXT: executions: 2, args refreshed per execution: [5, 2]
// CHECK-NEXT: max error: 0
// CHECK-NEXT: output 0 c:0: shape 48x32 float16
// CHECK-NEXT: outputs match the reference

// JSON: "kernels": 4
// JSON: "mismatch_count": 0
// JSON: "no_task_nodes": [
// JSON-NEXT: "s0 (SplitD)",
// JSON-NEXT: "c (ConcatD)"
// JSON: "refreshed_tasks": [
// JSON-NEXT: 5,
// JSON-NEXT: 2

// TWO: simulator: {{[0-9]+}} tasks on 2 stream(s) ({{.*}}event_record 2, event_wait 2{{.*}}stream_active 1)
// TWO: outputs match the reference

// examples/phony_concat_split.mlir, pieces 1x1x1x4x8 f16 = 64 B, block 1x2x1x8x8 = 256 B.
// Kernels (4): ge-lower-autofuse makes one AscBackend per Mul and one for the Add; the four
// producers of 'block' fuse into one (reading x and y once: 2 x 64 = 128, writing its four
// pieces: 256), the Add stays alone and is lifted back to a library kernel (reads block
// twice: 2 x 256 = 512, writes 256), and the four consumers fuse in pairs, each reading two
// pieces of 'p0' and one Data (3 x 64 = 192) and writing two outputs (128). Every piece
// keeps its own offset slot in the fused nodes' lists (passes/notask/phony.py: OffsetSlots).
// Read 128 + 512 + 2 * 192 = 1024, written 256 + 256 + 2 * 128 = 768. Each piece is read and
// written contiguously at GE's offsets (0, 64, 128, 192), and the outputs match the
// reference interpreter's concatenation and split.
// PHONY: simulator: 5 tasks on 1 stream(s) (end_graph 1, kernel 4), 4 kernels
// PHONY-NEXT: no-task nodes: 2 (block (PhonyConcat), p0 (PhonySplit)); bytes moved by their tasks: 0
// PHONY-NEXT: bytes moved per execution: 1792 (kernels read 1024, wrote 768; memcpy 0)
// PHONY: outputs match the reference

// CALL: no-task nodes: 1 (y (PartitionedCall))
// CALL: executions: 3, args refreshed per execution: [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}]
// CALL: outputs match the reference
