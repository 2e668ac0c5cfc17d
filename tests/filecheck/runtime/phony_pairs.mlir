// RUN: ge-run %s --graph consumer_of_two | filecheck %s
// RUN: ge-run %s --graph consumer_of_two --streams 2 --executions 2 | filecheck %s
// RUN: ge-run %s --graph net_output_lists_two | filecheck %s
// RUN: ge-run %s --graph producer_of_three --streams 2 | filecheck %s
// RUN: ge-run %s --graph fused_two_splits --executions 2 | filecheck %s --check-prefix=FUSED
//
// Issue 17 case 1, end to end: every piece of a PhonySplit (PhonyConcat) read (written) by
// a node with other pieces keeps its own offset (passes/notask/phony.py: OffsetSlots),
// so the compiled graph computes what the reference interpreter does. On GE's
// overwrite, @consumer_of_two read b at a's offset (13 of 16 elements differed),
// @net_output_lists_two copied b from 0, @producer_of_three read uninitialised memory, and
// @fused_two_splits (one AscBackend reading a piece of each PhonySplit) read a1 at 0.

// CHECK: no-task nodes:
// CHECK: outputs match the reference

// FUSED: simulator: {{[0-9]+}} tasks on 1 stream(s) (end_graph 1, kernel 3), 3 kernels
// FUSED: no-task nodes: 2 (a0 (PhonySplit), b0 (PhonySplit))
// FUSED: outputs match the reference

ge.graph @consumer_of_two {
  %x = ge.Data {index = 0} : tensor<3x16xf32>
  %r = ge.Relu(%x) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %a, %b, %c = ge.PhonySplit(%r) {split_dim = [0], num_split = [3]} : (tensor<3x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  %s = ge.Sub(%b, %c) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  ge.NetOutput %s : tensor<1x16xf32>
}

ge.graph @net_output_lists_two {
  %x = ge.Data {index = 0} : tensor<3x16xf32>
  %r = ge.Relu(%x) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %a, %b, %c = ge.PhonySplit(%r) {split_dim = [0], num_split = [3]} : (tensor<3x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  ge.NetOutput %c, %b : tensor<1x16xf32>, tensor<1x16xf32>
}

ge.graph @producer_of_three {
  %x = ge.Data {index = 0} : tensor<48x16xf32>
  %r = ge.Relu(%x) : (tensor<48x16xf32>) -> tensor<48x16xf32>
  %s:3 = ge.SplitD(%r) {split_dim = 0, num_split = 3} : (tensor<48x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>)
  %c = ge.PhonyConcat(%s#2, %s#0, %s#1) {concat_dim = [0], N = [3]} : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<48x16xf32>
  %e = ge.Exp(%c) : (tensor<48x16xf32>) -> tensor<48x16xf32>
  ge.NetOutput %e : tensor<48x16xf32>
}

ge.graph @fused_two_splits {
  %x = ge.Data {index = 0} : tensor<2x16xf32>
  %y = ge.Data {index = 1} : tensor<2x16xf32>
  %r = ge.Relu(%x) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  %q = ge.Relu(%y) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  %a0, %a1 = ge.PhonySplit(%r) {split_dim = [0], num_split = [2]} : (tensor<2x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>)
  %b0, %b1 = ge.PhonySplit(%q) {split_dim = [0], num_split = [2]} : (tensor<2x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>)
  %e = ge.Abs(%a1) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %f = ge.Exp(%b1) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = ge.Add(%e, %f) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  ge.NetOutput %s : tensor<1x16xf32>
}
