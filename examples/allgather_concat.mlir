// Distributed training: AllGather + Concat, the Concat No Task seed, §2.1 (Card0: Data ->
// AllGather, Card1: Data -> AllGather, both -> ConcatD -> complete batch).
//
// Two feature shards are each scaled (a compute op, so no ConcatD input comes from a Data
// node), gathered over 8 ranks with HcomAllGather (rank_size 8 multiplies dim 0 by 8), and
// concatenated on dim 0 into one batch. Each gathered tensor is 64x16 f32 = 4096 bytes, a
// multiple of NOTASK_TENSOR_ALIGN_SIZE (32): ConcatNotaskPass can mark the ConcatD
// _no_task and have the two all-gathers write side by side. A MatMul consumes the batch.
ge.graph @main attributes {_single_op_scene = false} {
  %a = ge.Data {index = 0} : tensor<8x16xf32>
  %b = ge.Data {index = 1} : tensor<8x16xf32>
  %w = ge.Data {index = 2} : tensor<16x16xf32>
  %sa = ge.Mul(%a, %a) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sb = ge.Mul(%b, %b) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %ga = ge.HcomAllGather(%sa) {rank_size = 8, group = "hccl_world_group"} : (tensor<8x16xf32>) -> tensor<64x16xf32>
  %gb = ge.HcomAllGather(%sb) {rank_size = 8, group = "hccl_world_group"} : (tensor<8x16xf32>) -> tensor<64x16xf32>
  %batch = ge.ConcatD(%ga, %gb) {concat_dim = 0, N = 2} : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<128x16xf32>
  %y = ge.MatMul(%batch, %w) : (tensor<128x16xf32>, tensor<16x16xf32>) -> tensor<128x16xf32>
  ge.NetOutput %y : tensor<128x16xf32>
}
