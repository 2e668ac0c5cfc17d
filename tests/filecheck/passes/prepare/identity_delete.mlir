// RUN: ge-opt %s -p 'ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// identity_pass.cc: IdentityPass::Run deletes an Identity nobody needs (CheckIdentityUsable
// finds no use) with IsolateAndDeleteNode, io_map 0 -> 0: every consumer of the output
// reads the input instead. The root graph's NetOutput is not a subgraph output
// (NodeUtils::IsSubgraphOutput needs a parent node), so an Identity before it goes too.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf16>
  %w = ge.Data {index = 1} : tensor<32x16xf16>
  %t = ge.Data {index = 2} : tensor<4x8xf32>
  %ix = ge.Const {value = dense<[3, 0]> : tensor<2xi32>} : tensor<2xi32>
  %ax = ge.Const {value = dense<[1]> : tensor<1xi32>} : tensor<1xi32>
  // Data -> Identity -> NetOutput
  %i0 = ge.Identity(%x) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  // library kernels -> Identity -> NetOutput
  %mm = ge.MatMul(%x, %w) {transpose_x1 = false, transpose_x2 = true} : (tensor<8x16xf16>, tensor<32x16xf16>) -> tensor<8x32xf16>
  %i1 = ge.Identity(%mm) : (tensor<8x32xf16>) -> tensor<8x32xf16>
  %g = ge.GatherV2(%t, %ix, %ax) : (tensor<4x8xf32>, tensor<2xi32>, tensor<1xi32>) -> tensor<4x2xf32>
  %i2 = ge.Identity(%g) : (tensor<4x2xf32>) -> tensor<4x2xf32>
  // a chain, one value read twice by one op, two consumers, no consumer
  %c1 = ge.Identity(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c2 = ge.Identity(%c1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = ge.Add(%c2, %c2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = ge.Relu(%c1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %dead = ge.Identity(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %i0, %i1, %i2, %s, %r, %c2 : tensor<8x16xf16>, tensor<8x32xf16>, tensor<4x2xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK:      ge.graph @main {
// CHECK:        %mm = ge.MatMul(%x, %w)
// CHECK-NEXT:   %g = ge.GatherV2(%t, %ix, %ax)
// CHECK-NEXT:   %s = ge.Add(%t, %t)
// CHECK-NEXT:   %r = ge.Relu(%t)
// CHECK-NEXT:   ge.NetOutput %x, %mm, %g, %s, %r, %t :
// CHECK-NOT:  ge.Identity

// REMARK:      identity_delete.mlir:16:3: remark: ge-identity-pass: Identity 'i0' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_delete.mlir:19:3: remark: ge-identity-pass: Identity 'i1' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_delete.mlir:21:3: remark: ge-identity-pass: Identity 'i2' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_delete.mlir:23:3: remark: ge-identity-pass: Identity 'c1' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_delete.mlir:24:3: remark: ge-identity-pass: Identity 'c2' removed (IsolateAndDeleteNode)
// REMARK-NEXT: identity_delete.mlir:27:3: remark: ge-identity-pass: Identity 'dead' removed (IsolateAndDeleteNode)
