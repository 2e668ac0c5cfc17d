// The Concat No Task seed's §5.3 ("Relationship with Address Refresh"): a graph input
// feeding a no-task split.
//
//     data                                   data
//      |                                       |
//    split (no_task,                  =>   identity      (offline build)
//           no_padding_continuous_output)      |
//    /  |  \                                 split
//  op1 op2 op3                              /  |  \
//
// ge-split-notask marks the SplitD no-task: its outputs are views of the user's input
// buffer at +0, +128, +256 bytes (each 2x32 f16 piece is 128 bytes). Whether they may stay
// there is GE's layout-conflict rule (UserInputAndNoPaddingContinuousOutputChecker): the
// model must refresh the address of every piece each time the user passes a new buffer.
// ge-compile builds online (ge-assign-memory build-graph-mode=online, GE's default), and
// the simulator refreshes every view's readers with the new buffer: no copy at all. An
// offline build (GE's ATC: `ge-assign-memory{build-graph-mode=offline}`) or a single-op
// scene gets the Identity after the Data, and every reader of the Data (the Exp too) reads
// the copy.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<6x32xf16>
  %s0, %s1, %s2 = ge.SplitD(%x) {split_dim = 0, num_split = 3} : (tensor<6x32xf16>) -> (tensor<2x32xf16>, tensor<2x32xf16>, tensor<2x32xf16>)
  %op1 = ge.Relu(%s0) : (tensor<2x32xf16>) -> tensor<2x32xf16>
  %op2 = ge.Abs(%s1) : (tensor<2x32xf16>) -> tensor<2x32xf16>
  %op3 = ge.Neg(%s2) : (tensor<2x32xf16>) -> tensor<2x32xf16>
  %e = ge.Exp(%x) : (tensor<6x32xf16>) -> tensor<6x32xf16>
  %w = ge.Data {index = 1} : tensor<32x32xf16>
  %m = ge.MatMul(%e, %w) : (tensor<6x32xf16>, tensor<32x32xf16>) -> tensor<6x32xf16>
  ge.NetOutput %op1, %op2, %op3, %m : tensor<2x32xf16>, tensor<2x32xf16>, tensor<2x32xf16>, tensor<6x32xf16>
}
