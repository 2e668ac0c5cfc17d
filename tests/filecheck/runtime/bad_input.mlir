// RUN: python -c "import numpy; numpy.save('%t.npy', numpy.zeros((2, 2), 'float32'))"
// RUN: not ge-run %s --input %t.npy 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: echo "not an array" > %t.txt
// RUN: not ge-run %s --input %t.txt 2>&1 | filecheck %s --check-prefix=NOTNPY
// RUN: not ge-run %s --input %t.npy --input %t.npy 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not ge-run %s --input %t.missing.npy 2>&1 | filecheck %s --check-prefix=MISSING
// A bad --input file is one located error line (at the Data node it feeds), exit code 1.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Neg(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}

// SHAPE: bad_input.mlir:10:3: error: ge.Data: --input {{.*}}.npy (input 0) is an array of shape 2x2 and dtype float32, but the graph expects tensor<4xf16> (numpy dtype float16)
// SHAPE-NOT: Traceback
// NOTNPY: bad_input.mlir:10:3: error: ge.Data: --input {{.*}}.txt (input 0): not a .npy file (no NUMPY magic)
// NOTNPY-NOT: Traceback
// COUNT: bad_input.mlir:9:1: error: ge.graph: graph @main takes 1 inputs, 2 --input files given
// MISSING: bad_input.mlir:10:3: error: ge.Data: --input {{.*}}missing.npy (input 0): cannot read it: No such file or directory
