// --verify-diagnostics fails (exit 1) on a diagnostic that no expectation takes (reported
// at the diagnostic: "unexpected error: ...") and on an expectation that no diagnostic took
// (reported at the comment: "expected error "..." was not produced"), in every chunk.
// RUN: not ge-opt %s --split-input-file --verify-diagnostics -p ge-phony-notask --remarks 2>&1 >/dev/null | filecheck %s
// Without --remarks the remark is not produced: its expectation fails.
// RUN: not ge-opt %s --split-input-file --verify-diagnostics -p ge-phony-notask 2>&1 >/dev/null | filecheck %s --check-prefix=NOREMARK

// The message differs: the error is unexpected and its expectation not produced.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // expected-error @+1 {{Reshape keeps the element count}}
  %r = ge.Reshape(%x) : (tensor<4x8xf16>) -> tensor<4x4xf16>
  ge.NetOutput %r : tensor<4x4xf16>
}
// CHECK: verify_diagnostics_fail.mlir:[[# @LINE - 3]]:3: error: unexpected error: ge.Reshape: Reshape changes the element count: 4x8 has 32, 4x4 has 16

// -----

// No expectation at all: the error is unexpected.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Squeeze(%x) {axis = [3]} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
// CHECK: verify_diagnostics_fail.mlir:[[# @LINE - 3]]:3: error: unexpected error: ge.Squeeze:

// -----

// An expectation on the wrong line (the error is on the op's line, not the comment's) and a
// remark of the right kind on its line.
ge.graph @h {
  %a = ge.Data {index = 0} : tensor<2x16xf16>
  %b = ge.Data {index = 1} : tensor<2x16xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  // expected-remark @-1 {{PhonyConcat 'pc' marked no-task}}
  // expected-warning {{overlaps}}
  ge.NetOutput %pc : tensor<4x16xf16>
}
// NOREMARK: verify_diagnostics_fail.mlir:22:3: error: unexpected error: ge.Squeeze:

// -----

// A remark without an expectation (with --remarks only).
ge.graph @k {
  %a = ge.Data {index = 0} : tensor<2x16xf16>
  %pk = ge.PhonyConcat(%a, %a) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %pk : tensor<4x16xf16>
}
// CHECK: verify_diagnostics_fail.mlir:[[# @LINE - 3]]:3: error: unexpected remark: PhonyConcat 'pk' marked no-task

// The expectations not produced come last, in line order, at their comments.
// CHECK: verify_diagnostics_fail.mlir:11:6: error: expected error "Reshape keeps the element count" was not produced
// CHECK-NEXT: verify_diagnostics_fail.mlir:36:6: error: expected warning "overlaps" was not produced
// CHECK-NOT: {{.}}
// NOREMARK: verify_diagnostics_fail.mlir:35:6: error: expected remark "PhonyConcat 'pc' marked no-task" was not produced
// NOREMARK-NOT: unexpected remark
