// RUN: ge-opt %s -p ge-pack-notask | filecheck %s
// RUN: ge-opt %s -p ge-pack-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestPackNotaskPass.pack_format_mixed_internal_reject (tests/ge/ut/ge/graph/passes/pack_notask_pass_unittest.cc); docs/ge/notask.md
// GE graph: relu_1's output / pack input 0 ND {2048, 12288}; relu_2's output / pack input 1 NCHW
// origin, NC1HWC0 storage {1, 32, 16, 16} / {1, 2, 16, 16, 16}; axis = 0.
// ge.Pack's verifier needs inputs of one origin shape, so input 0 is ND {1, 32, 16, 16} (still a
// public format, no encoding) and input 1 NC1HWC0 {1, 32, 16, 16} as in GE. Both are 32768 B.
// Our IR has one SSA value per edge: relu_1/relu_2's outputs carry the pack input descs GE's
// test sets (origin/storage format and shape; dtype = GE's DSL default DT_FLOAT = f32, which the
// relu outputs and pack inputs keep). The Data nodes take the type Relu's shape rule needs (GE:
// ND fp16 {256, 12288}, which no rule reads). The pack output desc is not read by any rule.
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
// Expected: not marked; nothing locked.
// Deciding rule: CheckFormat: input 0 (ND) passes, input 1 (NC1HWC0, internal, not NZ) rejects.

ge.graph @main {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<1x32x16x16xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<1x32x16x16xf32>
  %relu1 = ge.Relu(%data1) {name = "relu_1"} : (tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %relu2 = ge.Relu(%data2) {name = "relu_2"} : (tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32, #ge.desc<NC1HWC0, origin = NCHW>>
  %pack = ge.Pack(%relu1, %relu2) {axis = 0} : (tensor<1x32x16x16xf32>, tensor<1x32x16x16xf32, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x1x32x16x16xf32>
  ge.NetOutput %pack : tensor<2x1x32x16x16xf32>
}

// CHECK:      %relu1 = ge.Relu(%data1) {name = "relu_1"} :
// CHECK-NEXT: %relu2 = ge.Relu(%data2) {name = "relu_2"} :
// CHECK-NEXT: %pack = ge.Pack(%relu1, %relu2) {axis = 0} :
// REMARK:     remark: Pack 'pack' not marked: {{.*}}(CheckFormat){{$}}
// REMARK-NOT: remark:
