// RUN: ge-opt %s -p ge-compile | filecheck %s
// RUN: ge-run %s --executions 2 | filecheck %s --check-prefix=OUT
// RUN: ge-run %s --streams 2 | filecheck %s --check-prefix=OUT

// Issue 17 case 7: an Identity between a Data (or a library kernel: MatMul, GatherV2) and
// the root NetOutput reached task generation and failed there ("should have been removed
// during graph optimization (IdentityPass)"). ge-compile now starts with
// ge-identity-pass, which deletes them as GE's IdentityPass does: NetOutput reads the
// Data, the MatMul and the GatherV2 directly, and no Identity is left in the model.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf16>
  %w = ge.Data {index = 1} : tensor<32x16xf16>
  %t = ge.Data {index = 2} : tensor<4x8xf32>
  %ix = ge.Const {value = dense<[3, 0]> : tensor<2xi32>} : tensor<2xi32>
  %ax = ge.Const {value = dense<[1]> : tensor<1xi32>} : tensor<1xi32>
  %i0 = ge.Identity(%x) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %mm = ge.MatMul(%x, %w) {transpose_x1 = false, transpose_x2 = true} : (tensor<8x16xf16>, tensor<32x16xf16>) -> tensor<8x32xf16>
  %i1 = ge.Identity(%mm) : (tensor<8x32xf16>) -> tensor<8x32xf16>
  %g = ge.GatherV2(%t, %ix, %ax) : (tensor<4x8xf32>, tensor<2xi32>, tensor<1xi32>) -> tensor<4x2xf32>
  %i2 = ge.Identity(%g) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  ge.NetOutput %i0, %i1, %i2 : tensor<8x16xf16>, tensor<8x32xf16>, tensor<4x2xf32>
}

// CHECK:     npu.model @main
// CHECK-NOT: Identity
// CHECK:     npu.memcpy ins("x:0" at #npu.addr<input:0, 0, 256>) outs("NetOutput:0" at #npu.addr<output:0, 0, 256>) {node = "NetOutput"}
// CHECK-NOT: Identity

// OUT:      output 0 i0:0: shape 8x16 float16
// OUT-NEXT: output 1 i1:0: shape 8x32 float16
// OUT-NEXT: output 2 i2:0: shape 4x2 float32
// OUT-NEXT: outputs match the reference
