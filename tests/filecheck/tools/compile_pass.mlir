// ge-compile is a pass with options (ge_tools/pipeline.py: GeCompilePass); the tools run
// its constituent passes one by one, so that verification, --dump-dir,
// --print-ir-after-all and --time-passes see each of them, and it combines with other
// passes in one -p.
// RUN: ge-opt %s -p 'ge-compile{streams=2}' | filecheck %s --check-prefix=TWO
// RUN: ge-opt %s -p 'ge-compile' | filecheck %s --check-prefix=ONE
// The same module as the passes listed one by one:
// RUN: ge-opt %s -p 'ge-compile{streams=2}' > %t.spliced
// RUN: ge-opt %s -p 'ge-dimension-compute-pass,ge-constant-folding-pass,ge-dropout-pass,ge-stop-gradient-pass,ge-prevent-gradient-pass,ge-snapshot-pass,ge-identity-pass,ge-dimension-compute-pass,ge-constant-folding-pass,ge-partition-dynamic,ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse,ge-split-notask,ge-concat-notask,ge-pack-notask,ge-phony-notask{stage=calc},ge-assign-memory,ge-to-npu{streams=2}' > %t.listed
// RUN: diff %t.spliced %t.listed
// --time-passes reports on stderr (stdout keeps only the module), each pass named as in -p:
// RUN: ge-opt %s -p 'ge-compile,dce' --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// RUN: ge-opt %s -p 'ge-compile,dce' --time-passes 2>/dev/null | filecheck %s --check-prefix=TIMEOUT
// RUN: rm -rf %t.d && ge-opt %s -p 'ge-compile{streams=2},dce' --dump-dir %t.d > /dev/null
// RUN: ls %t.d | filecheck %s --check-prefix=LS
// RUN: cat %t.d/19_ge-to-npu.mlir | filecheck %s --check-prefix=TWO
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

// TIME: {{^}}Pass ge-dimension-compute-pass took
// TIME-NEXT: {{^}}Pass ge-constant-folding-pass took
// TIME-NEXT: {{^}}Pass ge-dropout-pass took
// TIME-NEXT: {{^}}Pass ge-stop-gradient-pass took
// TIME-NEXT: {{^}}Pass ge-prevent-gradient-pass took
// TIME-NEXT: {{^}}Pass ge-snapshot-pass took
// TIME-NEXT: {{^}}Pass ge-identity-pass took
// TIME-NEXT: {{^}}Pass ge-dimension-compute-pass took
// TIME-NEXT: {{^}}Pass ge-constant-folding-pass took
// TIME-NEXT: {{^}}Pass ge-partition-dynamic took
// TIME-NEXT: {{^}}Pass ge-phony-notask{stage=mark} took {{[0-9.]+}} seconds{{$}}
// TIME-NEXT: {{^}}Pass ge-lower-autofuse took
// TIME-NEXT: {{^}}Pass ge-autofuse took
// TIME-NEXT: {{^}}Pass ge-split-notask took
// TIME-NEXT: {{^}}Pass ge-concat-notask took
// TIME-NEXT: {{^}}Pass ge-pack-notask took
// TIME-NEXT: {{^}}Pass ge-phony-notask{stage=calc} took {{[0-9.]+}} seconds{{$}}
// TIME-NEXT: {{^}}Pass ge-assign-memory took
// TIME-NEXT: {{^}}Pass ge-to-npu took
// TIME-NEXT: {{^}}Pass dce took {{[0-9.]+}} seconds{{$}}
// TIME-NOT: {{.}}
// TIMEOUT: builtin.module
// TIMEOUT-NOT: Pass {{.*}} took

// LS: {{\A}}00_input.mlir{{$}}
// LS-NEXT: {{^}}01_ge-dimension-compute-pass.mlir{{$}}
// LS-NEXT: {{^}}02_ge-constant-folding-pass.mlir{{$}}
// LS-NEXT: {{^}}03_ge-dropout-pass.mlir{{$}}
// LS-NEXT: {{^}}04_ge-stop-gradient-pass.mlir{{$}}
// LS-NEXT: {{^}}05_ge-prevent-gradient-pass.mlir{{$}}
// LS-NEXT: {{^}}06_ge-snapshot-pass.mlir{{$}}
// LS-NEXT: {{^}}07_ge-identity-pass.mlir{{$}}
// LS-NEXT: {{^}}08_ge-dimension-compute-pass.mlir{{$}}
// LS-NEXT: {{^}}09_ge-constant-folding-pass.mlir{{$}}
// LS-NEXT: {{^}}10_ge-partition-dynamic.mlir{{$}}
// LS-NEXT: {{^}}11_ge-phony-notask.mlir{{$}}
// LS-NEXT: {{^}}12_ge-lower-autofuse.mlir{{$}}
// LS-NEXT: {{^}}13_ge-autofuse.mlir{{$}}
// LS-NEXT: {{^}}14_ge-split-notask.mlir{{$}}
// LS-NEXT: {{^}}15_ge-concat-notask.mlir{{$}}
// LS-NEXT: {{^}}16_ge-pack-notask.mlir{{$}}
// LS-NEXT: {{^}}17_ge-phony-notask.mlir{{$}}
// LS-NEXT: {{^}}18_ge-assign-memory.mlir{{$}}
// LS-NEXT: {{^}}19_ge-to-npu.mlir{{$}}
// LS-NEXT: {{^}}20_dce.mlir{{$}}
// LS-NOT: {{.}}

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

// BETWEEN: {{\A}}IR after ge-dimension-compute-pass:
// BETWEEN-NEXT: IR after ge-constant-folding-pass:
// BETWEEN-NEXT: IR after ge-dropout-pass:
// BETWEEN-NEXT: IR after ge-stop-gradient-pass:
// BETWEEN-NEXT: IR after ge-prevent-gradient-pass:
// BETWEEN-NEXT: IR after ge-snapshot-pass:
// BETWEEN-NEXT: IR after ge-identity-pass:
// BETWEEN-NEXT: IR after ge-dimension-compute-pass:
// BETWEEN-NEXT: IR after ge-constant-folding-pass:
// BETWEEN-NEXT: IR after ge-partition-dynamic:
// BETWEEN-NEXT: IR after ge-phony-notask{stage=mark}:
// BETWEEN-NEXT: IR after ge-lower-autofuse:
// BETWEEN-NEXT: IR after ge-autofuse:
// BETWEEN-NEXT: IR after ge-split-notask:
// BETWEEN-NEXT: IR after ge-concat-notask:
// BETWEEN-NEXT: IR after ge-pack-notask:
// BETWEEN-NEXT: IR after ge-phony-notask{stage=calc}:
// BETWEEN-NEXT: IR after ge-assign-memory:
// BETWEEN-NOT: {{.}}
