// RUN: ge-opt %s --split-input-file -p 'ge-phony-notask' | filecheck %s
// RUN: ge-opt %s --split-input-file -p 'ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse,ge-phony-notask{stage=calc}' | filecheck %s --check-prefix=FUSED
// RUN: ge-opt %s --split-input-file -p 'ge-phony-notask,ge-lower-autofuse,ge-autofuse,ge-assign-memory' | filecheck %s --check-prefix=LATE
//
// Offsets belong to each (consumer, input) and (producer, output) pair (ours, not GE's:
// passes/notask/phony.py OffsetSlots). GE's CalcPhonySplitNodeOffset /
// CalcPhonyConcatNodeOffset write a node's WHOLE list once per piece, so a node touching two
// pieces keeps the last one's offset and reads (writes) the other at 0 or at the wrong place.

// The issue's repro: pieces 1x16 f32 = 64 B, split_dim [0], num_split [3]: output k at 64k.
// Sub reads outputs 1 and 2: [64, 128] (GE's overwrite leaves [0, 128]: b is read at 0, a's bytes).
ge.graph @consumer_of_two {
  %x = ge.Data {index = 0} : tensor<3x16xf32>
  %r = ge.Relu(%x) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %a, %b, %c = ge.PhonySplit(%r) {split_dim = [0], num_split = [3]} : (tensor<3x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  %s = ge.Sub(%b, %c) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  ge.NetOutput %s : tensor<1x16xf32>
}
// CHECK-LABEL: ge.graph @consumer_of_two
// CHECK: %s = ge.Sub(%b, %c) {_input_offset_list_for_continuous = [64, 128]}

// -----

// NetOutput listing three outputs in another order: %c (128), %b (64), %a (0).
ge.graph @net_output_lists_three {
  %x = ge.Data {index = 0} : tensor<3x16xf32>
  %r = ge.Relu(%x) : (tensor<3x16xf32>) -> tensor<3x16xf32>
  %a, %b, %c = ge.PhonySplit(%r) {split_dim = [0], num_split = [3]} : (tensor<3x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
  ge.NetOutput %c, %b, %a : tensor<1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>
}
// CHECK-LABEL: ge.graph @net_output_lists_three
// CHECK: ge.NetOutput %c, %b, %a {_input_offset_list_for_continuous = [128, 64, 0]}

// -----

// A SplitD whose three outputs (16x16 f32 = 1024 B) feed one PhonyConcat in another order:
// PhonyConcat input k at 1024k, so s#2 (input 0) at 0, s#0 (input 1) at 1024, s#1 (input
// 2) at 2048: the SplitD's list, by output, [1024, 2048, 0] (GE: the last piece written,
// s#1, leaves [0, 2048, 0]).
ge.graph @producer_of_three {
  %x = ge.Data {index = 0} : tensor<48x16xf32>
  %r = ge.Relu(%x) : (tensor<48x16xf32>) -> tensor<48x16xf32>
  %s:3 = ge.SplitD(%r) {split_dim = 0, num_split = 3} : (tensor<48x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>)
  %c = ge.PhonyConcat(%s#2, %s#0, %s#1) {concat_dim = [0], N = [3]} : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<48x16xf32>
  %e = ge.Exp(%c) : (tensor<48x16xf32>) -> tensor<48x16xf32>
  ge.NetOutput %e : tensor<48x16xf32>
}
// CHECK-LABEL: ge.graph @producer_of_three
// CHECK: ge.SplitD(%r) {split_dim = 0, num_split = 3, _output_offset_list_for_continuous = [1024, 2048, 0]}

// -----

// One consumer of two different PhonySplits (pieces 1x16 f32, output 1 of each at 64):
// both slots are 64 (GE: the second split's write leaves [0, 64]). Each PhonySplit output
// has one consumer; after ge-autofuse fuses Abs, Exp and Add into one AscBackend (FUSED)
// that node reads both pieces, and both are at 64 too. When the offsets were computed
// before the fusion (the LATE run), ge-assign-memory computes
// them on the graph it plans, so the fused node has its slots all the same.
ge.graph @two_splits_one_consumer {
  %x = ge.Data {index = 0} : tensor<2x16xf32>
  %y = ge.Data {index = 1} : tensor<2x16xf32>
  %r = ge.Relu(%x) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  %q = ge.Relu(%y) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  %a0, %a1 = ge.PhonySplit(%r) {split_dim = [0], num_split = [2]} : (tensor<2x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>)
  %b0, %b1 = ge.PhonySplit(%q) {split_dim = [0], num_split = [2]} : (tensor<2x16xf32>) -> (tensor<1x16xf32>, tensor<1x16xf32>)
  %e = ge.Abs(%a1) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %f = ge.Exp(%b1) : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = ge.Add(%e, %f) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %t = ge.Mul(%a1, %b1) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  ge.NetOutput %s, %t : tensor<1x16xf32>, tensor<1x16xf32>
}
// CHECK-LABEL: ge.graph @two_splits_one_consumer
// CHECK: %t = ge.Mul(%a1, %b1) {_input_offset_list_for_continuous = [64, 64]}

// FUSED-LABEL: ge.graph @two_splits_one_consumer
// FUSED: = ge.AscBackend(%b1, %a1) {name = "autofuse_{{.*}}, _input_offset_list_for_continuous = [64, 64]}

// LATE-LABEL: ge.graph @two_splits_one_consumer
// LATE: %a0, %a1 = ge.PhonySplit(%r) {{.*}}, output_offset = {{\[}}[[A0:[0-9]+]], [[A1:[0-9]+]]]
// LATE: %b0, %b1 = ge.PhonySplit(%q) {{.*}}, output_offset = {{\[}}[[B0:[0-9]+]], [[B1:[0-9]+]]]
// LATE: = ge.AscBackend(%b1, %a1) {name = "autofuse_{{.*}}, _input_offset_list_for_continuous = [64, 64], {{.*}}, input_offset = {{\[}}[[B1]], [[A1]]]}
