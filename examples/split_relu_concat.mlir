// Block computation, then a merge: the Concat No Task seed, §2.2 "Result Merging After
// Block Computation" (Input -> Split -> Relu x3 -> ConcatD -> Output).
//
// The input is split on the batch axis (dim 0) into three blocks, each block goes through
// its own Relu, and ConcatD glues the blocks back together on the same axis. Each Relu
// output is 16x32 f16 = 1024 bytes (a multiple of NOTASK_TENSOR_ALIGN_SIZE, 32), so GE's
// ConcatNotaskPass can make the ConcatD a no-task node whose inputs are written side by
// side. The leading Relu keeps the SplitD's input from being a graph input.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<48x32xf16>
  %r = ge.Relu(%x) : (tensor<48x32xf16>) -> tensor<48x32xf16>
  %s0, %s1, %s2 = ge.SplitD(%r) {split_dim = 0, num_split = 3} : (tensor<48x32xf16>) -> (tensor<16x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>)
  %b0 = ge.Relu(%s0) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b1 = ge.Relu(%s1) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b2 = ge.Relu(%s2) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %c = ge.ConcatD(%b0, %b1, %b2) {concat_dim = 0, N = 3} : (tensor<16x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<48x32xf16>
  ge.NetOutput %c : tensor<48x32xf16>
}
