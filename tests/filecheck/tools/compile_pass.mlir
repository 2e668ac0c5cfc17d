// ge-compile is a pass with options (ge_tools/pipeline.py: GeCompilePass); the tools run
// its constituent passes one by one, so that verification, --dump-dir,
// --print-ir-after-all, --print-ir-after-change and --time-passes see each of them, and it combines with other
// passes in one -p.
// RUN: ge-opt %s -p 'ge-compile{streams=2}' | filecheck %s --check-prefix=TWO
// RUN: ge-opt %s -p 'ge-compile' | filecheck %s --check-prefix=ONE
// The same module as the passes listed one by one:
// RUN: ge-opt %s -p 'ge-compile{streams=2}' > %t.spliced
// RUN: ge-opt %s -p 'ge-for-pass,ge-dimension-compute-pass,ge-constant-folding-pass,ge-infer-shape-for-preprocess,ge-cond-pass,ge-dropout-pass,ge-stop-gradient-pass,ge-prevent-gradient-pass,ge-snapshot-pass,ge-identity-pass,ge-dimension-compute-pass,ge-constant-folding-pass,ge-const-to-attr,ge-partition-dynamic,ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse,ge-split-notask,ge-concat-notask,ge-pack-notask,ge-subgraph-pass,ge-label-allocator,ge-phony-notask{stage=calc},ge-assign-memory,ge-to-npu{streams=2}' > %t.listed
// (cmp, and filecheck < FILE rather than cat: lit 23 runs its built-in diff and cat with
// PYTHONPATH set to lit's own directory for the RUN lines after them, which then run the
// installed package rather than this tree: lit/TestRunner.py, _executeShCmd)
// RUN: cmp %t.spliced %t.listed
// --time-passes reports on stderr (stdout keeps only the module), each pass named as in -p:
// RUN: ge-opt %s -p 'ge-compile,dce' --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// RUN: ge-opt %s -p 'ge-compile,dce' --time-passes 2>/dev/null | filecheck %s --check-prefix=TIMEOUT
// RUN: rm -rf %t.d && ge-opt %s -p 'ge-compile{streams=2},dce' --dump-dir %t.d > /dev/null
// RUN: ls %t.d | filecheck %s --check-prefix=LS
// RUN: filecheck %s --check-prefix=UNCHANGED < %t.d/unchanged.txt
// RUN: ge-opt %s -p 'ge-compile,dce' --print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=CHANGE
// RUN: filecheck %s --check-prefix=TWO < %t.d/25_ge-to-npu.mlir
// RUN: ge-opt %s -p ge-compile --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// xDSL's --print-between-passes (stdout, between two passes: not after the last one)
// RUN: ge-opt %s -p ge-compile --print-between-passes | grep '^IR after' | filecheck %s --check-prefix=BETWEEN

// Three independent branches (examples/split_relu_concat.mlir): streams=2 uses stream 1.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<48x32xf16>
  %r = ge.Relu(%x) : (tensor<48x32xf16>) -> tensor<48x32xf16>
  %s0, %s1, %s2 = ge.SplitD(%r) {split_dim = 0, num_split = 3} : (tensor<48x32xf16>) -> (tensor<16x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>)
  %b0 = ge.Relu(%s0) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b1 = ge.Relu(%s1) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b2 = ge.Relu(%s2) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %c = ge.ConcatD(%b0, %b1, %b2) {concat_dim = 0, N = 3} : (tensor<16x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<48x32xf16>
  ge.NetOutput %c : tensor<48x32xf16>
}

// TWO: npu.model @main streams = 2
// TWO: npu.stream 1 {
// ONE: npu.model @main streams = 1
// ONE-NOT: npu.stream 1

// The report (mlir-opt's list form): every pass once, named as in -p (a pass run twice summed,
// ge-phony-notask's two stages apart), the largest first, a verify row, then Total at 100 %.
// TIME: {{\A}}===-{{-+}}==={{$}}
// TIME-NEXT: {{^ +}}... Execution time report ...{{$}}
// TIME-NEXT: {{^}}===-{{-+}}==={{$}}
// TIME-NEXT: {{^}}  Total Execution Time: [[TOTAL:[0-9]+\.[0-9]{4}]] seconds{{$}}
// TIME-EMPTY:
// TIME-NEXT: {{^}}  ----Wall Time----  ----Name----{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-dimension-compute-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-constant-folding-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-dropout-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-stop-gradient-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-prevent-gradient-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-snapshot-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-identity-pass{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-partition-dynamic{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-phony-notask{stage=mark}{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-lower-autofuse{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-autofuse{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-split-notask{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-concat-notask{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-pack-notask{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-phony-notask{stage=calc}{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-assign-memory{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}ge-to-npu{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}dce{{$}}
// TIME-DAG: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  }}verify{{$}}
// TIME: {{^ +}}[[TOTAL]] (100.0%)  Total{{$}}
// TIME-EMPTY:
// TIME-NOT: {{.}}
// The rows' number, order and shares: tests/tools/test_opt_cli.py (test_time_passes_report).
// TIMEOUT: builtin.module
// TIMEOUT-NOT: Execution time report

// Only the stages that changed the IR are written; unchanged.txt names the others and the
// file each is the same as (tests/tools/test_opt_cli.py checks them against
// --print-ir-after-all's text).
// LS: {{\A}}00_input.mlir{{$}}
// LS-NEXT: {{^}}16_ge-lower-autofuse.mlir{{$}}
// LS-NEXT: {{^}}17_ge-autofuse.mlir{{$}}
// LS-NEXT: {{^}}18_ge-split-notask.mlir{{$}}
// LS-NEXT: {{^}}19_ge-concat-notask.mlir{{$}}
// LS-NEXT: {{^}}24_ge-assign-memory.mlir{{$}}
// LS-NEXT: {{^}}25_ge-to-npu.mlir{{$}}
// LS-NEXT: {{^}}unchanged.txt{{$}}
// LS-NOT: {{.}}
// UNCHANGED: {{\A}}01_ge-for-pass.mlir: same as 00_input.mlir{{$}}
// UNCHANGED: {{^}}15_ge-phony-notask.mlir: same as 00_input.mlir{{$}}
// UNCHANGED-NEXT: {{^}}20_ge-pack-notask.mlir: same as 19_ge-concat-notask.mlir{{$}}
// UNCHANGED-NEXT: {{^}}21_ge-subgraph-pass.mlir: same as 19_ge-concat-notask.mlir{{$}}
// UNCHANGED-NEXT: {{^}}22_ge-label-allocator.mlir: same as 19_ge-concat-notask.mlir{{$}}
// UNCHANGED-NEXT: {{^}}23_ge-phony-notask.mlir: same as 19_ge-concat-notask.mlir{{$}}
// UNCHANGED-NEXT: {{^}}26_dce.mlir: same as 25_ge-to-npu.mlir{{$}}
// UNCHANGED-NOT: {{.}}

// --print-ir-after-change: the IR after the passes that changed it only
// CHANGE: {{\A}}// -----// IR Dump After ge-lower-autofuse (ge-lower-autofuse) //----- //
// CHANGE-NEXT: builtin.module {
// CHANGE: // -----// IR Dump After ge-autofuse (ge-autofuse) //----- //
// CHANGE: // -----// IR Dump After ge-split-notask (ge-split-notask) //----- //
// CHANGE: // -----// IR Dump After ge-concat-notask (ge-concat-notask) //----- //
// CHANGE: // -----// IR Dump After ge-assign-memory (ge-assign-memory) //----- //
// CHANGE: // -----// IR Dump After ge-to-npu (ge-to-npu) //----- //
// CHANGE-NEXT: builtin.module {
// CHANGE-NOT: IR Dump

// AFTER: // -----// IR Dump After ge-dimension-compute-pass (ge-dimension-compute-pass) //----- //
// AFTER: // -----// IR Dump After ge-constant-folding-pass (ge-constant-folding-pass) //----- //
// AFTER: // -----// IR Dump After ge-dropout-pass (ge-dropout-pass) //----- //
// AFTER: // -----// IR Dump After ge-stop-gradient-pass (ge-stop-gradient-pass) //----- //
// AFTER: // -----// IR Dump After ge-prevent-gradient-pass (ge-prevent-gradient-pass) //----- //
// AFTER: // -----// IR Dump After ge-snapshot-pass (ge-snapshot-pass) //----- //
// AFTER: // -----// IR Dump After ge-identity-pass (ge-identity-pass) //----- //
// AFTER: // -----// IR Dump After ge-dimension-compute-pass (ge-dimension-compute-pass) //----- //
// AFTER: // -----// IR Dump After ge-constant-folding-pass (ge-constant-folding-pass) //----- //
// AFTER: // -----// IR Dump After ge-partition-dynamic (ge-partition-dynamic) //----- //
// AFTER: // -----// IR Dump After ge-phony-notask (ge-phony-notask{stage="mark"}) //----- //
// AFTER: // -----// IR Dump After ge-lower-autofuse (ge-lower-autofuse) //----- //
// AFTER: // -----// IR Dump After ge-autofuse (ge-autofuse) //----- //
// AFTER: // -----// IR Dump After ge-split-notask (ge-split-notask) //----- //
// AFTER: // -----// IR Dump After ge-concat-notask (ge-concat-notask) //----- //
// AFTER: // -----// IR Dump After ge-pack-notask (ge-pack-notask) //----- //
// AFTER: // -----// IR Dump After ge-phony-notask (ge-phony-notask{stage="calc"}) //----- //
// AFTER: // -----// IR Dump After ge-assign-memory (ge-assign-memory) //----- //
// AFTER: memory_size
// AFTER: // -----// IR Dump After ge-to-npu (ge-to-npu) //----- //
// AFTER-NEXT: builtin.module {
// AFTER-NEXT: npu.model @main streams = 1
// AFTER-NOT: IR Dump

// BETWEEN: {{\A}}IR after ge-for-pass:
// BETWEEN-NEXT: IR after ge-dimension-compute-pass:
// BETWEEN-NEXT: IR after ge-constant-folding-pass:
// BETWEEN-NEXT: IR after ge-infer-shape-for-preprocess:
// BETWEEN-NEXT: IR after ge-cond-pass:
// BETWEEN-NEXT: IR after ge-dropout-pass:
// BETWEEN-NEXT: IR after ge-stop-gradient-pass:
// BETWEEN-NEXT: IR after ge-prevent-gradient-pass:
// BETWEEN-NEXT: IR after ge-snapshot-pass:
// BETWEEN-NEXT: IR after ge-identity-pass:
// BETWEEN-NEXT: IR after ge-dimension-compute-pass:
// BETWEEN-NEXT: IR after ge-constant-folding-pass:
// BETWEEN-NEXT: IR after ge-const-to-attr:
// BETWEEN-NEXT: IR after ge-partition-dynamic:
// BETWEEN-NEXT: IR after ge-phony-notask{stage=mark}:
// BETWEEN-NEXT: IR after ge-lower-autofuse:
// BETWEEN-NEXT: IR after ge-autofuse:
// BETWEEN-NEXT: IR after ge-split-notask:
// BETWEEN-NEXT: IR after ge-concat-notask:
// BETWEEN-NEXT: IR after ge-pack-notask:
// BETWEEN-NEXT: IR after ge-subgraph-pass:
// BETWEEN-NEXT: IR after ge-label-allocator:
// BETWEEN-NEXT: IR after ge-phony-notask{stage=calc}:
// BETWEEN-NEXT: IR after ge-assign-memory:
// BETWEEN-NOT: {{.}}
