// RUN: ge-opt %s -p 'ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// identity_pass.cc: CheckIdentityUsable keeps an Identity that has the attribute
// no_need_constant_folding or _is_inserted_by_cann, whatever its value (HasAttr:
// MemLayoutConflictUtil's SetNotDeleteAttr sets no_need_constant_folding = false). The
// plain Identity next to them goes.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %a = ge.Identity(%x) {no_need_constant_folding = false} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = ge.Identity(%x) {_is_inserted_by_cann = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = ge.Identity(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = ge.Add(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = ge.Sub(%s, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %t : tensor<4x8xf32>
}

// CHECK:      %a = ge.Identity(%x) {no_need_constant_folding = false}
// CHECK-NEXT: %b = ge.Identity(%x) {_is_inserted_by_cann = true}
// CHECK-NEXT: %s = ge.Add(%a, %b)
// CHECK-NEXT: %t = ge.Sub(%s, %x)

// REMARK:      identity_keep_attrs.mlir:11:3: remark: ge-identity-pass: Identity 'a' kept: it carries no_need_constant_folding (CheckIdentityUsable)
// REMARK-NEXT: identity_keep_attrs.mlir:12:3: remark: ge-identity-pass: Identity 'b' kept: it carries _is_inserted_by_cann (CheckIdentityUsable)
// REMARK-NEXT: identity_keep_attrs.mlir:13:3: remark: ge-identity-pass: Identity 'c' removed (IsolateAndDeleteNode)
