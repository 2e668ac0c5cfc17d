// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=split,reduce split-lowering=split},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's decider UT AscBackendFusionDecider_SplitAndReduce_Ok (asc_backend_fusion_decider_unittest.cpp,
// docs/ge/autofuse.md): Data1 -> Split1 (3 outputs) -> Reduce -> Shape; GE: CanFuseVertical
// is false both ways (split_fusion_strategy.cpp: a split does not fuse with a reduction;
// the reverse order is tests/passes/autofuse/test_split.py). With the real A5 split lowering the
// three StoreSplit pieces fuse (HIGHEST, same gid); split -> Reduce is refused
// (SplitCanNotFuseReduction, in round 1 against the piece, in round 2 against the whole
// split, before its low-fusion-ratio check); Reduce -> Shape fuse
// (pointwise after a reduction). 5 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<6x16xf32>
  %a, %b, %c = ge.SplitD(%data1) {split_dim = 0, num_split = 3} : (tensor<6x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>)
  %r = ge.ReduceSumD(%a) {axes = [1], keep_dims = true} : (tensor<2x16xf32>) -> tensor<2x1xf32>
  %shape = ge.Abs(%r) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  ge.NetOutput %shape, %b, %c : tensor<2x1xf32>, tensor<2x16xf32>, tensor<2x16xf32>
}

// CHECK:      %a, %b, %c = ge.AscBackend(%data1) {{{.*}}fuse_type = "split", fuse_type_mask = 16
// CHECK:      %shape = ge.AscBackend(%a) {{{.*}}origin_nodes = ["r", "shape"]
// CHECK-NOT:  ge.AscBackend

// REMARK:     'autofuse_split_0_SplitD' and 'autofuse_reduce_3_ReduceSumD' not fused: a split does not fuse with a reduction [NF1038] [SplitCanNotFuseReduction]
// REMARK:     'autofuse_1_SplitD_SplitD_SplitD' and 'autofuse_2_ReduceSumD_Abs' not fused: a split does not fuse with a reduction [NF1038] [SplitCanNotFuseReduction]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
