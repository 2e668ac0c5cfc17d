// -t offers only the targets that print ge IR: mlir. xDSL's others read other dialects
// (on a ge module llvm, arm-asm, riscv-asm, x86-asm and mps end in internal errors, csl,
// wat and wgsl print nothing and exit 0): each is one line `ge-opt: error:` with the list.
// RUN: ge-opt %s -t mlir | filecheck %s --check-prefix=MLIR
// RUN: not ge-opt %s -t llvm 2>&1 | filecheck %s --check-prefix=LLVM
// RUN: not ge-opt %s -t x86-asm 2>&1 | filecheck %s --check-prefix=X86
// RUN: not ge-opt %s -t wgsl 2>&1 | filecheck %s --check-prefix=WGSL
// RUN: ge-opt --help | filecheck %s --check-prefix=HELP

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// MLIR: ge.graph @main

// LLVM: {{\A}}ge-opt: error: argument -t/--target: invalid choice: 'llvm' (choose from mlir){{$}}
// LLVM-NOT: {{.}}
// X86: {{\A}}ge-opt: error: argument -t/--target: invalid choice: 'x86-asm' (choose from mlir){{$}}
// X86-NOT: {{.}}
// WGSL: {{\A}}ge-opt: error: argument -t/--target: invalid choice: 'wgsl' (choose from mlir){{$}}
// WGSL-NOT: {{.}}

// HELP: output format: mlir (xDSL's other targets do not read
