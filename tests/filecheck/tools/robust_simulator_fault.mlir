// RUN: not ge-run %s 2>&1 | filecheck %s
// A simulator fault is located at the GE node whose task faulted (found by the fuzzer of
// tests/tools/test_robustness.py: it used to be "FILE: error: simulator: ..." with no line).
// Here the user's per-output `reuse_input` makes the Relu write into its graph input's
// buffer, which the caller still owns: the simulator refuses the write.
// CHECK: {{\A}}{{.*}}robust_simulator_fault.mlir:[[# @LINE + 4]]:3: error: simulator: stream 0 task 0 (npu.kernel 'a'): write into a live buffer: input:0 [0, 128) (writing tensor "a:0" at input:0 [0, 128)) overlaps tensor "x:0" at input:0 [0, 128), which is still to be read{{$}}
// CHECK-NOT: {{.}}
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {reuse_input = [true]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %a : tensor<4x16xf16>
}
