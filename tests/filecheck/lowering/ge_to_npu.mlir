// RUN: ge-opt %examples/split_relu_concat.mlir -p ge-phony-notask,ge-concat-notask,ge-assign-memory,ge-to-npu | filecheck %s
// RUN: ge-opt %examples/split_relu_concat.mlir -p 'ge-phony-notask,ge-concat-notask,ge-assign-memory,ge-to-npu{streams=2}' | filecheck %s --check-prefix=TWO
// RUN: not ge-opt %examples/split_relu_concat.mlir -p ge-to-npu 2>&1 | filecheck %s --check-prefix=NOPLAN

// The no-task ConcatD gets no task: its output is an alias of the three Relu outputs,
// which the planner put side by side (1024 bytes each); it is not zero-copy, so a memcpy
// moves it to output 0. Data and NetOutput give no kernel. The alias names the concat's
// semantics (a library kernel_def no task runs) for the simulator's check of its layout.
// CHECK:      npu.model @main streams = 1 events = 0
// CHECK:      npu.region fm size = 8192
// CHECK-NEXT: npu.region input:0 size = 3072 {type = tensor<48x32xf16>}
// CHECK-NEXT: npu.region output:0 size = 3072 {type = tensor<48x32xf16>}
// CHECK:      npu.tensor "b0:0" at #npu.addr<fm, [[B:[0-9]+]], 1024>
// CHECK:      npu.alias "c:0" at #npu.addr<fm, [[B]], 3072> of ["b0:0", "b1:0", "b2:0"] {node = "c", type = "ConcatD", view = @view_concatd_0, view_result = 0 : i64}
// CHECK:      npu.kernel_def @view_concatd_0 = library "ConcatD" {concat_dim = 0 : i64, N = 3 : i64, _no_task = true
// CHECK:      npu.stream 0 {
// CHECK-NEXT:   npu.kernel @relu_0 ins("x:0" at #npu.addr<input:0, 0, 3072>)
// CHECK-NEXT:   npu.kernel @splitd_1
// CHECK-NEXT:   npu.kernel @relu_2 ins("s0:0" {{.*}} {node = "b0"}
// CHECK-NEXT:   npu.kernel @relu_2 ins("s0:1" {{.*}} {node = "b1"}
// CHECK-NEXT:   npu.kernel @relu_2 ins("s0:2" {{.*}} {node = "b2"}
// CHECK-NEXT:   npu.memcpy ins("c:0" at #npu.addr<fm, [[B]], 3072>) outs("NetOutput:0" at #npu.addr<output:0, 0, 3072>)
// CHECK-NEXT:   npu.end_graph
// CHECK-NEXT: }
// CHECK-NOT:  ConcatD"}

// Two streams: b1 branches off to stream 1 (activated first), waits for the SplitD and
// is joined before the output copy.
// TWO:      npu.model @main streams = 2 events = 2
// TWO:      npu.stream 0 {
// TWO-NEXT:   npu.stream_active 1
// TWO-NEXT:   npu.kernel @relu_0
// TWO-NEXT:   npu.kernel @splitd_1
// TWO-NEXT:   npu.event_record 0
// TWO-NEXT:   npu.kernel @relu_2 {{.*}} {node = "b0"}
// TWO-NEXT:   npu.kernel @relu_2 {{.*}} {node = "b2"}
// TWO-NEXT:   npu.event_wait 1
// TWO-NEXT:   npu.memcpy
// TWO-NEXT:   npu.end_graph
// TWO:      npu.stream 1 {
// TWO-NEXT:   npu.event_wait 0
// TWO-NEXT:   npu.kernel @relu_2 {{.*}} {node = "b1"}
// TWO-NEXT:   npu.event_record 1
// TWO-NEXT: }

// NOPLAN: split_relu_concat.mlir:{{[0-9]+}}:1: error: ge.graph: graph @main has no memory plan (memory_size): run ge-assign-memory first
