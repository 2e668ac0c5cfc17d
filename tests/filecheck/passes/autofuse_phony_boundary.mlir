// RUN: ge-opt %s -p 'ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse{remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// Not a GE rule (passes/autofuse_decider.py: phony_piece_conflict): two producers of one
// PhonyConcat share both inputs, so GE's solver would fuse them horizontally; but GE-local
// CalcPhonyConcatNodeOffset gives each producer ONE offset list, so the fused node could
// keep only one piece's offset. They stay two kernels, and lifting (fewer than 2 compute
// ops each) gives back the original Mul and Add.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<1x1x1x4x8xf16>
  %y = ge.Data {index = 1} : tensor<1x1x1x4x8xf16>
  %a = ge.Mul(%x, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %b = ge.Add(%x, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [3], N = [2]} : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x8x8xf16>
  ge.NetOutput %pc : tensor<1x1x1x8x8xf16>
}

// CHECK-NOT: ge.AscBackend
// CHECK: %a = ge.Mul(%x, %y)
// CHECK-NEXT: %b = ge.Add(%x, %y)
// CHECK-NEXT: %pc = ge.PhonyConcat(%a, %b)
// REMARK: not fused: the fused node would write 2 pieces of PhonyConcat 'pc', whose offset list keeps one piece per node [PhonyPiecesWouldShareANode]
