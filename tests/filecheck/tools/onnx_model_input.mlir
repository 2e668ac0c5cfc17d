// ge-opt and ge-run take an ONNX model directly (ge_tools/import_onnx.py:
// load_model_or_text), --input-shape too, with ge-import's errors; ge-run compares the
// simulator's outputs with the reference and with onnxruntime (ge_tools/onnx_oracle.py).
// The zoo's MLP holds PyTorch's exported flatten (Shape -> Gather -> Unsqueeze -> Concat
// -> Reshape) and a Dropout: the prepare passes fold and remove them.

// RUN: ge-opt %examples/zoo/mlp_classifier.onnx -p 'ge-dimension-compute-pass,ge-constant-folding-pass,ge-dropout-pass' | filecheck %s
// CHECK:      %image = ge.Data {index = 0} : tensor<2x1x8x8xf32>
// CHECK-NEXT: %dynamic_const_3 = ge.Const {value = dense<[2, -1]> : tensor<2xi64>, _is_from_constant_folding = true} : tensor<2xi64>
// CHECK-NEXT: %_Reshape = ge.Reshape(%image, %dynamic_const_3)
// CHECK-NOT:  ge.Shape
// CHECK-NOT:  ge.Dropout

// A remark about an ONNX model names its node, not a line of the binary file.
// RUN: ge-opt %examples/zoo/mlp_classifier.onnx -p 'ge-dimension-compute-pass{remarks=true},ge-constant-folding-pass{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// REMARK: mlp_classifier.onnx: node '/Shape' (Shape): remark: ge-dimension-compute-pass: Shape '_Shape' folded
// REMARK: mlp_classifier.onnx: node '/Concat' (Concat): remark: ge-constant-folding-pass: ConcatD '_Concat' folded to Const 'dynamic_const_3' = [2, -1]
// REMARK-NOT: .onnx:{{[0-9]}}

// RUN: ge-run %examples/zoo/mlp_classifier.onnx --streams 2 | filecheck %s --check-prefix=SIM
// SIM:      outputs match the reference
// SIM-NEXT: onnxruntime: output 'logits' float32: max abs error {{.*}}, max rel error {{.*}}
// SIM-NEXT: outputs match onnxruntime

// RUN: not ge-opt %examples/zoo/mlp_classifier.onnx --input-shape nope=1 2>&1 | filecheck %s --check-prefix=NAME
// NAME: mlp_classifier.onnx: error: --input-shape names 'nope', which is not a graph input (inputs: 'image')

// RUN: not ge-run %examples/zoo/mlp_classifier.onnx --input-shape image=1x2 2>&1 | filecheck %s --check-prefix=RANK
// RANK: mlp_classifier.onnx: input 'image': error: --input-shape gives rank 2 ([1, 2]), the model says rank 4 ([2, 1, 8, 8])

// RUN: not ge-opt %s --input-shape x=1 2>&1 | filecheck %s --check-prefix=TEXT
// TEXT: onnx_model_input.mlir: error: --input-shape applies to an ONNX model (.onnx) only

// RUN: echo garbage > %t.onnx
// RUN: not ge-run %t.onnx 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not ge-opt %t.onnx 2>&1 | filecheck %s --check-prefix=BAD
// BAD: .onnx: error: not an ONNX model, or a truncated one: the protobuf does not decode
// BAD-NOT: Traceback

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<2xf32>
  ge.NetOutput %x : tensor<2xf32>
}
