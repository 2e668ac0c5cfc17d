// --dump-dir keeps the input (00_input.mlir, even with no passes) and the IR after each
// pass (NN_<pass>.mlir); --print-ir-after-all prints each pass's result to stderr.
// RUN: rm -rf %t && ge-opt %s --dump-dir %t > %t.out
// RUN: ls %t | filecheck %s --check-prefix=EMPTY-LS
// RUN: cat %t/00_input.mlir | filecheck %s --check-prefix=INPUT
// RUN: rm -rf %t && ge-opt %s -p ge-phony-notask --dump-dir %t > %t.out
// RUN: ls %t | filecheck %s --check-prefix=LS
// RUN: cat %t/01_ge-phony-notask.mlir | filecheck %s --check-prefix=AFTER
// RUN: ge-opt %s -p ge-phony-notask --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=STDERR
// RUN: ge-opt %s --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=NOPASS --allow-empty

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x16xf16>
  %r = ge.ExpandDims(%x) {axis = -1} : (tensor<2x16xf16>) -> tensor<2x16x1xf16>
  ge.NetOutput %r : tensor<2x16x1xf16>
}

// EMPTY-LS: {{\A}}00_input.mlir{{$}}
// EMPTY-LS-NOT: {{.}}

// INPUT: builtin.module {
// INPUT-NEXT: ge.graph @main {
// INPUT-NEXT: %x = ge.Data {index = 0} : tensor<2x16xf16>
// INPUT-NEXT: %r = ge.ExpandDims(%x) {axis = -1} : (tensor<2x16xf16>) -> tensor<2x16x1xf16>

// LS: {{\A}}00_input.mlir{{$}}
// LS-NEXT: {{^}}01_ge-phony-notask.mlir{{$}}
// LS-NOT: {{.}}

// The pass marks ExpandDims' output as reusing input 0 (GE's CalcNodeOffsetByReuseInput):
// the dump is the IR after the pass, not the input.
// AFTER: %r = ge.ExpandDims(%x) {{{.*}}reuse_input = [true]{{.*}}}

// STDERR: // -----// IR Dump After ge-phony-notask
// STDERR-NEXT: builtin.module {
// STDERR: %r = ge.ExpandDims(%x)

// NOPASS-NOT: IR Dump
