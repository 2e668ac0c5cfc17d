// RUN: ge-run %examples/control/if_loop_dynamic.onnx --dynamic-dims --dim 0=2,5 | filecheck %s
// An ONNX If and Loop (examples/control/gen_onnx_control.py) with a `?` batch run on the
// dynamic path and match the reference and onnxruntime.

// CHECK: execution 0: inputs 2x4
// CHECK: execution 1: inputs 5x4
// CHECK: outputs match the reference
// CHECK: outputs match onnxruntime
