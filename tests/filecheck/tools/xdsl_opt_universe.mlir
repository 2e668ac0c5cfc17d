// Stock xdsl-opt loads the project as a plugin (pyproject.toml's `xdsl.universe` entry
// point, ge_tools/universe.py): it parses the ge dialect and runs a project pass.
// RUN: xdsl-opt -p ge-concat-notask %examples/allgather_concat.mlir | filecheck %s
// The whole pipeline, and its npu-level output read back by xdsl-opt (the npu dialect):
// RUN: xdsl-opt -p ge-compile %examples/allgather_concat.mlir | xdsl-opt | filecheck %s --check-prefix=NPU
// The generic form of every level reads back the same (ge, ascgraph and npu):
// RUN: xdsl-opt -p ge-compile %examples/allgather_concat.mlir > %t.custom
// RUN: xdsl-opt -p ge-compile %examples/allgather_concat.mlir --print-op-generic | xdsl-opt > %t.generic
// RUN: diff %t.custom %t.generic
// RUN: xdsl-opt -p 'ge-lower-autofuse,ge-autofuse' %examples/softmax_like.mlir --print-op-generic | xdsl-opt | filecheck %s --check-prefix=ASC

// The two all-gathers write side by side into the concat's output: the ConcatD is no-task
// (allgather_concat.mlir's header: 64x16 f32 inputs, 4096 bytes each, 32-byte aligned).
// CHECK:      %batch = ge.ConcatD(%ga, %gb) {concat_dim = 0, N = 2, _no_task = true,
// CHECK-SAME: _no_padding_continuous_input = true

// NPU:      npu.model @main
// NPU:      npu.alias "batch:0" at #npu.addr<fm, 0, 8192> of ["ga:0", "gb:0"]
// NPU:      npu.end_graph

// ASC:      ge.AscBackend
// ASC:      ascgraph.graph @e_out0_graph

