// RUN: ge-opt %s -p 'ge-phony-notask{stage=mark}' | filecheck %s --check-prefix=MARK
// RUN: ge-opt %s -p 'ge-phony-notask{stage=calc}' | filecheck %s --check-prefix=CALC
// RUN: ge-opt %s -p 'ge-phony-notask' | filecheck %s --check-prefix=ALL
// RUN: not ge-opt %s -p 'ge-phony-notask{stage=bogus}' 2>&1 | filecheck %s --check-prefix=BAD
//
// GE marks PhonyConcat in GeLocalGraphOptimizer (on the original graph) and computes the
// producers' offsets in CalcOpRunningParam (at build time, after fusion). `stage` runs one
// of the two; ge-compile runs `mark` first and `calc` before memory assignment.
// Pieces 1x1x1x4x8 f16 = 64 bytes; concat_dim [3] N [2]: input 1 at 1 x (4*8*2) = 64.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<1x1x1x4x8xf16>
  %a = ge.Relu(%x) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %b = ge.Abs(%x) : (tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [3], N = [2]} : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x8x8xf16>
  ge.NetOutput %pc : tensor<1x1x1x8x8xf16>
}

// MARK: %a = ge.Relu(%x) : (
// MARK: %b = ge.Abs(%x) : (
// MARK: ge.PhonyConcat(%a, %b) {concat_dim = [3], N = [2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}

// CALC: %a = ge.Relu(%x) {_output_offset_list_for_continuous = [0]}
// CALC: %b = ge.Abs(%x) {_output_offset_list_for_continuous = [64]}
// CALC: ge.PhonyConcat(%a, %b) {concat_dim = [3], N = [2]} :

// ALL: %a = ge.Relu(%x) {_output_offset_list_for_continuous = [0]}
// ALL: %b = ge.Abs(%x) {_output_offset_list_for_continuous = [64]}
// ALL: ge.PhonyConcat(%a, %b) {concat_dim = [3], N = [2], _no_task = true,

// BAD: {{\A}}ge-opt: error: ge-phony-notask: option stage: expected mark, calc or all, got 'bogus'{{$}}
// BAD-NOT: {{.}}
