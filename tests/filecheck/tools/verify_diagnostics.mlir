// --verify-diagnostics checks every diagnostic of the run against the input's expected-*
// comments, as mlir-opt does: here every chunk's diagnostics are the expected ones, so the
// run exits 0, prints nothing on stderr and the modules of the chunks that passed on stdout.
// Errors of the parser, of the verifier and of a pass, warnings and --remarks remarks; the
// designators @+N, @-N, @above, @below; line numbers of the whole file in each chunk.
// RUN: ge-opt %s --split-input-file --verify-diagnostics -p ge-phony-notask --remarks 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=NOERR --allow-empty < %t.err
// NOERR-NOT: {{.}}

// A verifier error, expected on the next line.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // expected-error @+1 {{Reshape changes the element count: 4x8 has 32, 4x4 has 16}}
  %r = ge.Reshape(%x) : (tensor<4x8xf16>) -> tensor<4x4xf16>
  ge.NetOutput %r : tensor<4x4xf16>
}

// -----

// A parse error, located at the token after the missing '>' (two lines down) and expected
// with @-N from a comment below it.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Relu(%x) : (tensor<4xf16>) -> tensor<4xf16

  ge.NetOutput %y : tensor<4xf16>
  // expected-error @-1 {{Expected '>' after builtin parameter list}}
}

// -----

// A pass's error (ge-phony-notask on an unknown graph), with @below: the next line without
// an expectation.
ge.graph @concat_dynamic attributes {_graph_unknown_flag = true} {
  %a = ge.Data {index = 0} : tensor<2x16xf16>
  %b = ge.Data {index = 1} : tensor<2x16xf16>
  // expected-error @below {{does not support an unknown graph}}
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %pc : tensor<4x16xf16>
}

// -----

// A warning (ge-phony-notask's layout check) and a remark on the same line, @above.
ge.graph @ge_concat {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %m0 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %pc = ge.PhonyConcat(%m0, %m1, %m2, %m3) {concat_dim = [-2, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  // expected-warning @above {{input 1 at byte 64 overlaps input 0 (bytes 0-255)}}
  // expected-remark @above {{PhonyConcat 'pc' marked no-task}}
  ge.NetOutput %pc : tensor<1x4x2x8x8xf16>
}
// CHECK: ge.graph @ge_concat

// -----

// A chunk without diagnostics is printed.
ge.graph @fine {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}
// CHECK: {{//}} -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: ge.graph @fine
