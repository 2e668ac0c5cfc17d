// RUN: ge-opt %s -p 'ge-phony-notask,ge-assign-memory,ge-identity-pass{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err

// The Identity ge-assign-memory inserts to resolve a memory-layout conflict (m0 is a
// piece of two no-padding PhonyConcats) carries what MemLayoutConflictUtil's
// SetNotDeleteAttr sets, no_need_constant_folding = false and _cannot_be_deleted = true,
// so a later IdentityPass keeps it (identity_pass.cc: CheckIdentityUsable, HasAttr).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %m0 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %pa = ge.PhonyConcat(%m0, %m1) {concat_dim = [1], N = [2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x4x8xf16>
  %pb = ge.PhonyConcat(%m2, %m0) {concat_dim = [1], N = [2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x4x8xf16>
  ge.NetOutput %pa, %pb : tensor<1x4x2x4x8xf16>, tensor<1x4x2x4x8xf16>
}

// CHECK: %identity_1_pb_MemLayoutConflict_0 = ge.Identity(%m0) {{{.*}}no_need_constant_folding = false
// CHECK: ge.PhonyConcat(%m2, %identity_1_pb_MemLayoutConflict_0)

// REMARK: remark: ge-identity-pass: Identity 'identity_1_pb_MemLayoutConflict_0' kept: it carries no_need_constant_folding (CheckIdentityUsable)
