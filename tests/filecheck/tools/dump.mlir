// --dump-dir keeps the input (00_input.mlir, even with no passes) and the IR after each
// pass that changed it (NN_<pass>.mlir), and lists the passes that did not in unchanged.txt
// (empty when every pass changed the IR); --print-ir-after-all prints each pass's result to stderr.
// RUN: rm -rf %t && ge-opt %s --dump-dir %t > %t.out
// RUN: ls %t | filecheck %s --check-prefix=EMPTY-LS
// RUN: filecheck %s --check-prefix=INPUT < %t/00_input.mlir
// RUN: rm -rf %t && ge-opt %s -p ge-phony-notask --dump-dir %t > %t.out
// RUN: ls %t | filecheck %s --check-prefix=LS
// RUN: filecheck %s --check-prefix=AFTER < %t/01_ge-phony-notask.mlir
// RUN: wc -c < %t/unchanged.txt | filecheck %s --check-prefix=NONE
// A pass that changes nothing (the second ge-phony-notask{stage=mark}) is listed, not written:
// RUN: rm -rf %t && ge-opt %s -p ge-phony-notask,ge-phony-notask --dump-dir %t > %t.out
// RUN: ls %t | filecheck %s --check-prefix=LS
// RUN: filecheck %s --check-prefix=SAME < %t/unchanged.txt
// RUN: ge-opt %s -p ge-phony-notask --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=STDERR
// RUN: ge-opt %s --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=NOPASS --allow-empty

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2x16xf16>
  %r = ge.ExpandDims(%x) {axis = -1} : (tensor<2x16xf16>) -> tensor<2x16x1xf16>
  ge.NetOutput %r : tensor<2x16x1xf16>
}

// EMPTY-LS: {{\A}}00_input.mlir{{$}}
// EMPTY-LS-NEXT: {{^}}unchanged.txt{{$}}
// EMPTY-LS-NOT: {{.}}

// INPUT: builtin.module {
// INPUT-NEXT: ge.graph @main {
// INPUT-NEXT: %x = ge.Data {index = 0} : tensor<2x16xf16>
// INPUT-NEXT: %r = ge.ExpandDims(%x) {axis = -1} : (tensor<2x16xf16>) -> tensor<2x16x1xf16>

// LS: {{\A}}00_input.mlir{{$}}
// LS-NEXT: {{^}}01_ge-phony-notask.mlir{{$}}
// LS-NEXT: {{^}}unchanged.txt{{$}}
// LS-NOT: {{.}}

// The pass marks ExpandDims' output as reusing input 0 (GE's CalcNodeOffsetByReuseInput):
// the dump is the IR after the pass, not the input.
// AFTER: %r = ge.ExpandDims(%x) {{{.*}}reuse_input = [true]{{.*}}}

// STDERR: // -----// IR Dump After ge-phony-notask
// STDERR-NEXT: builtin.module {
// STDERR: %r = ge.ExpandDims(%x)

// NOPASS-NOT: IR Dump

// NONE: {{^}}0{{$}}
// SAME: {{\A}}02_ge-phony-notask.mlir: same as 01_ge-phony-notask.mlir{{$}}
// SAME-NOT: {{.}}
