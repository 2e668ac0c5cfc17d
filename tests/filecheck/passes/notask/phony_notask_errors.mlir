// RUN: not ge-opt %s -p ge-phony-notask --split-input-file 2>&1 | filecheck %s
// RUN: not ge-opt %s -p ge-phony-notask --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT
//
// Where GE's CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset return FAILED,
// CalcOpRunningParam fails and so does the build: a located error naming the GE check.
// Failures the ge dialect's verifier catches first (on origin shapes) show its message.

// Without --verify-diagnostics the first failing chunk ends the run: one line on stderr, exit code 1, no traceback.
// EXIT: phony_notask_errors.mlir:[[# @LINE + 11]]:3: error: ge.PhonyConcat: CalcPhonyConcatNodeOffset: PhonyConcat 'phony_concat' does not support an unknown graph (@concat_dynamic has _graph_unknown_flag = true)
// EXIT-NOT: Traceback

// GE PhonyConcatSplitInDynamicGraph, concat half: GE's PhonyConcatCalcOffset graph with
// SetGraphUnknownFlag(true); known shapes, so CalcOpRunningParam does not skip the node.
ge.graph @concat_dynamic attributes {_graph_unknown_flag = true} {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %add = ge.Add(%phony_concat, %phony_concat) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %add : tensor<1x4x2x8x8xf16>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 4]]:3: error: ge.PhonyConcat: CalcPhonyConcatNodeOffset: PhonyConcat 'phony_concat' does not support an unknown graph (@concat_dynamic has _graph_unknown_flag = true)

// -----

// GE PhonyConcatSplitInDynamicGraph, split half.
ge.graph @split_dynamic attributes {_graph_unknown_flag = true} {
  %x = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  %add = ge.Add(%x, %x) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  %phony_split:4 = ge.PhonySplit(%add) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  ge.NetOutput %phony_split#0, %phony_split#1, %phony_split#2, %phony_split#3 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonySplit: CalcPhonySplitNodeOffset: PhonySplit 'phony_split' does not support an unknown graph (@split_dynamic has _graph_unknown_flag = true)

// -----

// GE PhonyConcatCalcOffsetNot32Align: mul1, mul2 ND int8 {2,3} -> phony_concat (concat_dim [0],
// N [2]) -> add. Input 0 is 2 * 3 * 1 B = 6 B, not a multiple of 32.
ge.graph @not_32_align {
  %x = ge.Data {index = 0} : tensor<2x3xi8>
  %mul1 = ge.Mul(%x, %x) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %mul2 = ge.Mul(%x, %x) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2) {concat_dim = [0], N = [2]} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<4x3xi8>
  %add = ge.Add(%phony_concat, %phony_concat) : (tensor<4x3xi8>, tensor<4x3xi8>) -> tensor<4x3xi8>
  ge.NetOutput %add : tensor<4x3xi8>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 4]]:3: error: ge.PhonyConcat: CheckPhonyConcatInputIs32Align: input 0 is 6 bytes, not a positive multiple of 32

// -----

// An empty piece (0 bytes) fails the same check: the size must be > 0.
ge.graph @empty_piece {
  %x = ge.Data {index = 0} : tensor<0x16xf16>
  %a = ge.Relu(%x) : (tensor<0x16xf16>) -> tensor<0x16xf16>
  %b = ge.Abs(%x) : (tensor<0x16xf16>) -> tensor<0x16xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1], N = [2]} : (tensor<0x16xf16>, tensor<0x16xf16>) -> tensor<0x32xf16>
  ge.NetOutput %pc : tensor<0x32xf16>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonyConcat: CheckPhonyConcatInputIs32Align: input 0 is 0 bytes, not a positive multiple of 32

// -----

// GE PhonyConcatCalcOffsetInvalidDim, first half: N {2, 1} with 4 inputs. CheckDimAttrValid
// fails in GE; here the verifier rejects the node while parsing (its check_phony_dim_attrs).
ge.graph @invalid_dim {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 1]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %phony_concat : tensor<1x4x2x8x8xf16>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonyConcat: product of 'N' [2, 1] is 2, but the node has 4 inputs

// -----

// CheckPhonyConcatInputShapeSame compares RUNTIME shapes: the origin shapes are equal (the
// verifier accepts), but input 1 is NC1HWC0 {1,1,4,4,16} and input 0 NCHW {1,16,4,4}.
#nchw = #ge.desc<NCHW, origin = NCHW>
#nc1hwc0 = #ge.desc<NC1HWC0, origin = NCHW>
ge.graph @concat_runtime_shapes_differ {
  %x = ge.Data {index = 0} : tensor<1x16x4x4xf16, #nchw>
  %y = ge.Data {index = 1} : tensor<1x16x4x4xf16, #nc1hwc0>
  %a = ge.Relu(%x) : (tensor<1x16x4x4xf16, #nchw>) -> tensor<1x16x4x4xf16, #nchw>
  %b = ge.Relu(%y) : (tensor<1x16x4x4xf16, #nc1hwc0>) -> tensor<1x16x4x4xf16, #nc1hwc0>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1], N = [2]} : (tensor<1x16x4x4xf16, #nchw>, tensor<1x16x4x4xf16, #nc1hwc0>) -> tensor<1x32x4x4xf16, #nchw>
  ge.NetOutput %pc : tensor<1x32x4x4xf16, #nchw>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonyConcat: CheckPhonyConcatInputShapeSame: input 1 has runtime shape [1, 1, 4, 4, 16], input 0 has [1, 16, 4, 4]

// -----

// CheckPhonySplitOutputShapeSame, the same on PhonySplit outputs.
#nchw = #ge.desc<NCHW, origin = NCHW>
#nc1hwc0 = #ge.desc<NC1HWC0, origin = NCHW>
ge.graph @split_runtime_shapes_differ {
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #nchw>
  %ps:2 = ge.PhonySplit(%x) {split_dim = [1], num_split = [2]} : (tensor<1x32x4x4xf16, #nchw>) -> (tensor<1x16x4x4xf16, #nchw>, tensor<1x16x4x4xf16, #nc1hwc0>)
  ge.NetOutput %ps#0, %ps#1 : tensor<1x16x4x4xf16, #nchw>, tensor<1x16x4x4xf16, #nc1hwc0>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonySplit: CheckPhonySplitOutputShapeSame: output 1 has runtime shape [1, 1, 4, 4, 16], output 0 has [1, 16, 4, 4]

// -----

// CheckDimAttrMatchTensor checks concat_dim against the RUNTIME rank: an NCDHW tensor stored as
// NCHW [2, 2, 4, 8] (rank 4). concat_dim [4] is in range for the origin rank 5 (the verifier
// accepts) but not for the runtime rank 4.
#ncdhw_as_nchw = #ge.desc<NCHW, origin = NCDHW, shape = [2, 2, 4, 8]>
#ncdhw_out = #ge.desc<NCHW, origin = NCDHW, shape = [2, 2, 4, 16]>
ge.graph @dim_out_of_runtime_rank {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>
  %a = ge.Relu(%x) : (tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>) -> tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>
  %b = ge.Abs(%x) : (tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>) -> tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [4], N = [2]} : (tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>, tensor<1x2x2x4x8xf16, #ncdhw_as_nchw>) -> tensor<1x2x2x4x16xf16, #ncdhw_out>
  ge.NetOutput %pc : tensor<1x2x2x4x16xf16, #ncdhw_out>
}
// CHECK: phony_notask_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonyConcat: CheckDimAttrMatchTensor: 'concat_dim' entry 0 (4) is out of range for the runtime shape [2, 2, 4, 8] (rank 4) of input 0 ('a':0)
