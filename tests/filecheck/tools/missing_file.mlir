// A nonexistent input file: one line naming it, exit 1.
// RUN: not ge-opt %s.does-not-exist.mlir 2>&1 | filecheck %s
// CHECK: {{\A}}ge-opt: error: {{.*}}missing_file.mlir.does-not-exist.mlir: No such file or directory{{$}}
// CHECK-NOT: {{.}}
