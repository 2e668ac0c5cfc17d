// `-` reads standard input, as no input file does; errors are located in `<stdin>`.
// RUN: ge-opt - < %s | filecheck %s
// RUN: cat %s | ge-opt -p ge-compile - | filecheck %s --check-prefix=COMPILED
// RUN: ge-opt < %s | filecheck %s
// RUN: sed 's/ge.Relu(/ge.Relux(/' %s | not ge-opt - 2>&1 | filecheck %s --check-prefix=ERR

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Relu(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}

// CHECK: ge.graph @main
// CHECK: ge.Relu
// COMPILED: npu.model @main
// ERR: {{\A}}<stdin>:9:8: error: Operation ge.Relux is not registered
