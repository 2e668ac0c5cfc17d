// The Concat No Task seed's "split-compute-merge zero-copy pipeline" (§2.2 and §5.1):
// Input -> Split (no task) -> Computation -> Concat (no task) -> Output, with every
// headline of ge-compile in one graph (`make example` prints them):
//
// * fusion: ge-autofuse fuses Mul + Relu before the split, and Exp + Mul on each block;
// * zero-copy split: ge-split-notask marks the SplitD no-task; its three outputs are views
//   at +0, +1024 and +2048 bytes of the fused kernel's 48x32 f16 output (each block
//   16x32 f16 = 1024 bytes, whole 32-byte blocks, split on dim 0 so no axis is in front);
// * zero-copy concat: ge-concat-notask marks the ConcatD no-task; the three branch
//   kernels write their blocks side by side into its output;
// * memory reuse: the MatMul's output takes the feature-map block of the split's input,
//   dead once the last branch has read its view.
//
// Neither the SplitD nor the ConcatD gets a task: ge-run lists both as no-task nodes, no
// kernel or memcpy runs for them, and the outputs match the reference interpreter.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<48x32xf16>
  %y = ge.Data {index = 1} : tensor<48x32xf16>
  %w = ge.Data {index = 2} : tensor<32x32xf16>
  %a = ge.Mul(%x, %y) : (tensor<48x32xf16>, tensor<48x32xf16>) -> tensor<48x32xf16>
  %r = ge.Relu(%a) : (tensor<48x32xf16>) -> tensor<48x32xf16>
  %s0, %s1, %s2 = ge.SplitD(%r) {split_dim = 0, num_split = 3} : (tensor<48x32xf16>) -> (tensor<16x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>)
  %e0 = ge.Exp(%s0) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b0 = ge.Mul(%e0, %s0) : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  %e1 = ge.Exp(%s1) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b1 = ge.Mul(%e1, %s1) : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  %e2 = ge.Exp(%s2) : (tensor<16x32xf16>) -> tensor<16x32xf16>
  %b2 = ge.Mul(%e2, %s2) : (tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<16x32xf16>
  %c = ge.ConcatD(%b0, %b1, %b2) {concat_dim = 0, N = 3} : (tensor<16x32xf16>, tensor<16x32xf16>, tensor<16x32xf16>) -> tensor<48x32xf16>
  %m = ge.MatMul(%c, %w) : (tensor<48x32xf16>, tensor<32x32xf16>) -> tensor<48x32xf16>
  %t = ge.Tanh(%m) : (tensor<48x32xf16>) -> tensor<48x32xf16>
  ge.NetOutput %t : tensor<48x32xf16>
}
