// --split-input-file runs every chunk, reports each chunk's error on stderr (with the line
// numbers of the whole file) and exits 1 if any failed; the chunks that pass are printed.
// RUN: not ge-opt %s --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// RUN: not ge-opt %s --split-input-file 2>/dev/null | filecheck %s --check-prefix=OUT
// Without it the first error ends the run.
// RUN: not ge-opt %s 2>&1 | filecheck %s --check-prefix=ONE

ge.graph @first {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %r = ge.Reshape(%x) : (tensor<4x8xf16>) -> tensor<4x4xf16>
  ge.NetOutput %r : tensor<4x4xf16>
}
// ERR: {{\A}}{{.*}}split_input_file.mlir:[[# @LINE - 3]]:3: error: ge.Reshape: Reshape changes the element count
// ONE: {{\A}}{{.*}}split_input_file.mlir:[[# @LINE - 4]]:3: error: ge.Reshape: Reshape changes the element count

// -----

ge.graph @second {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}
// OUT: ge.graph @second

// -----

ge.graph @third {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Relu(%x) : (tensor<4xf16>) -> tensor<8xf16>
  ge.NetOutput %y : tensor<8xf16>
}
// ERR-NEXT: {{^}}{{.*}}split_input_file.mlir:[[# @LINE - 3]]:3: error: ge.Relu: output 0 has shape 8, but Relu infers 4{{$}}
// ERR-NOT: {{.}}
// OUT-NOT: ge.graph
// ONE-NOT: error
