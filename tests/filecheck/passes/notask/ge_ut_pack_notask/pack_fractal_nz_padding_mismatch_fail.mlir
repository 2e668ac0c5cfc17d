// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_fractal_nz_padding_mismatch_fail (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: BuildPackGraph(FRACTAL_NZ, ND, {1, 30}, {1, 2, 16, 16}), axis = 1.
// ND {1, 30} f32 -> FRACTAL_NZ [ceil(30/16) = 2, ceil(1/16) = 1, 16, 16] (GE writes {1, 2, 16, 16}):
// 2*1*16*16*4 B = 2048 B, aligned. CheckFormat: NZ allowed.
// CheckDim: 0 < 1 < 2 -> CheckDimForInput(1): ND->NZ rank 2: s2d = [[1], [0]], real_dim =
// s2d[1][0] = 0: no runtime dim before it; d2s[0] = [1] not merged -> CheckRealDim true.
// align = [M0 = 16, C0 = 16]; origin[1] = 30, 30 % 16 = 14 != 0 -> CheckDimAlignment false (GE's
// comment says 30 % 32; with the reference's C0 = 16 for fp32 it is 30 % 16, false either way).
// Expected: not marked; nothing locked.
// Deciding rule: CheckDimAlignment.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<1x30xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<1x30xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<1x30xf32>) -> tensor<1x30xf32, #ge.desc<FRACTAL_NZ>>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<1x30xf32>) -> tensor<1x30xf32, #ge.desc<FRACTAL_NZ>>
  %pack = ge.Pack(%relu1, %relu2) {axis = 1} : (tensor<1x30xf32, #ge.desc<FRACTAL_NZ>>, tensor<1x30xf32, #ge.desc<FRACTAL_NZ>>) -> tensor<1x2x30xf32>
  ge.NetOutput %pack : tensor<1x2x30xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1"} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 1} :
// REMARK:     remark: Pack 'pack' not marked: {{.*}}(CheckDimAlignment){{$}}
// REMARK-NOT: remark:
