// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_format_fractal_z_reject (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// Graph: BuildPackGraph(FRACTAL_Z, NCHW, {1, 32, 16, 16}, {1, 2, 16, 16, 16}), axis = 0.
// Our descs derive the storage shape: NCHW {1, 32, 16, 16} -> FRACTAL_Z [ceil(32/16)*16*16 = 512,
// ceil(1/16) = 1, 16, 16] (GE writes {1, 2, 16, 16, 16}, which FRACTAL_Z cannot have): 131072*4 B,
// aligned.
// Expected: not marked; nothing locked.
// Deciding rule: CheckFormat: FRACTAL_Z is internal and not FRACTAL_NZ.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<1x32x16x16xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<1x32x16x16xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32, #ge.desc<FRACTAL_Z, origin = NCHW>>
  %pack = ge.Pack(%relu1, %relu2) {axis = 0} : (tensor<1x32x16x16xf32, #ge.desc<FRACTAL_Z, origin = NCHW>>, tensor<1x32x16x16xf32, #ge.desc<FRACTAL_Z, origin = NCHW>>) -> tensor<2x1x32x16x16xf32>
  ge.NetOutput %pack : tensor<2x1x32x16x16xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1"} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: {{.*}}(CheckFormat){{$}}
// REMARK-NOT: remark:
