// RUN: ge-opt %s -p ge-phony-notask --split-input-file | filecheck %s
// RUN: ge-opt %s -p ge-phony-notask --split-input-file --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
//
// ge-phony-notask (docs/ge/notask.md): GeLocalGraphOptimizer::OptimizeOriginalGraphJudgeInsert
// marks PhonyConcat/PhonySplit; GeLocalOpsKernelBuilder::CalcOpRunningParam computes their
// offset lists (CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset) and marks the reshape
// family output-reuses-input (CalcNodeOffsetByReuseInput). Graphs follow GE's tests in
// ge_local_engine_unittest.cc and ge_local_ops_kernel_builder_unittest.cc; GE's Mul nodes
// there have no inputs, ours read a Data node. Every offset is computed by hand below.

// GE GeLocalGraphOptimizer_JudegInsert, graph 1: mul1, mul2 -> phony_concat -> add -> netoutput.
// GE's DSL default desc: NCHW DT_FLOAT {1,1,224,224}. GE's test sets no concat_dim/N (it runs
// only the optimizer); our PhonyConcat requires them: concat_dim [1], N [2].
// Offsets: mul2 = 1 * prod({1,224,224}) * 4 B = 50176 * 4 = 200704.
#nchw = #ge.desc<NCHW, origin = NCHW>
ge.graph @judge_insert_concat {
  %x = ge.Data {index = 0} : tensor<1x1x224x224xf32, #nchw>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>) -> tensor<1x1x224x224xf32, #nchw>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>) -> tensor<1x1x224x224xf32, #nchw>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2) {concat_dim = [1], N = [2]} : (tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>) -> tensor<1x2x224x224xf32, #nchw>
  %add = ge.Add(%phony_concat, %phony_concat) : (tensor<1x2x224x224xf32, #nchw>, tensor<1x2x224x224xf32, #nchw>) -> tensor<1x2x224x224xf32, #nchw>
  ge.NetOutput %add : tensor<1x2x224x224xf32, #nchw>
}
// CHECK-LABEL: ge.graph @judge_insert_concat
// CHECK: %mul1 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// CHECK: %mul2 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [200704]}
// CHECK: %phony_concat = ge.PhonyConcat(%mul1, %mul2) {concat_dim = [1], N = [2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// CHECK: %add = ge.Add(%phony_concat, %phony_concat) : (
// REMARK: phony_notask.mlir:[[# @LINE - 9]]:3: remark: PhonyConcat 'phony_concat' marked no-task; offsets: mul1:0=0, mul2:0=200704

// -----

// GE GeLocalGraphOptimizer_JudegInsert, graph 2: add -> phony_split -> mul1, mul2 -> netoutput.
// split_dim [1], num_split [2] on pieces {1,1,224,224} f32: mul2's input 0 at 50176 * 4 = 200704.
// Each Mul's second input is a Data node, so its list has a 0 in slot 1.
#nchw = #ge.desc<NCHW, origin = NCHW>
ge.graph @judge_insert_split {
  %x = ge.Data {index = 0} : tensor<1x2x224x224xf32, #nchw>
  %y = ge.Data {index = 1} : tensor<1x1x224x224xf32, #nchw>
  %add = ge.Add(%x, %x) : (tensor<1x2x224x224xf32, #nchw>, tensor<1x2x224x224xf32, #nchw>) -> tensor<1x2x224x224xf32, #nchw>
  %phony_split:2 = ge.PhonySplit(%add) {split_dim = [1], num_split = [2]} : (tensor<1x2x224x224xf32, #nchw>) -> (tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>)
  %mul1 = ge.Mul(%phony_split#0, %y) : (tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>) -> tensor<1x1x224x224xf32, #nchw>
  %mul2 = ge.Mul(%phony_split#1, %y) : (tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>) -> tensor<1x1x224x224xf32, #nchw>
  ge.NetOutput %mul1, %mul2 : tensor<1x1x224x224xf32, #nchw>, tensor<1x1x224x224xf32, #nchw>
}
// CHECK-LABEL: ge.graph @judge_insert_split
// CHECK: %add = ge.Add(%x, %x) : (
// CHECK: %phony_split, %phony_split_1 = ge.PhonySplit(%add) {split_dim = [1], num_split = [2], _no_task = true, _no_padding_continuous_output = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// CHECK: %mul1 = ge.Mul(%phony_split, %y) {_input_offset_list_for_continuous = [0, 0]}
// CHECK: %mul2 = ge.Mul(%phony_split_1, %y) {_input_offset_list_for_continuous = [200704, 0]}
// REMARK: phony_notask.mlir:[[# @LINE - 10]]:3: remark: PhonySplit 'phony_split' marked no-task; input offsets: mul1:0=0, mul2:0=200704

// -----

// GE PhonyConcatCalcOffset: mul1..mul4 ND fp16 {1,2,2,4,8}, concat_dim [3, 1], N [2, 2].
// Slice ids (first listed axis fastest): idx 0 [0,0], 1 [1,0], 2 [0,1], 3 [1,1].
// Axis 3 first: one slice = prod({4,8}) = 32 elems * 2 B = 64 B; the piece grows to {1,2,2,8,8}.
// Axis 1 next: one slice = prod({2,2,8,8}) = 256 elems * 2 B = 512 B.
// Offsets: mul1 0, mul2 64, mul3 512, mul4 64 + 512 = 576.
ge.graph @calc_offset {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %add = ge.Add(%phony_concat, %phony_concat) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %add : tensor<1x4x2x8x8xf16>
}
// CHECK-LABEL: ge.graph @calc_offset
// CHECK: %mul1 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// CHECK: %mul2 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [64]}
// CHECK: %mul3 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [512]}
// CHECK: %mul4 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [576]}
// CHECK: %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 2], _no_task = true,
// REMARK: phony_notask.mlir:[[# @LINE - 10]]:3: remark: PhonyConcat 'phony_concat' marked no-task; offsets: mul1:0=0, mul2:0=64, mul3:0=512, mul4:0=576

// -----

// GE PhonyConcatCalcOffsetInvalidDim, second half: concat_dim [-2, 1] on rank 5: -2 + 5 = 3,
// so the offsets are those of [3, 1]: 0, 64, 512, 576. The attribute keeps its written value.
ge.graph @negative_dim {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [-2, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %add = ge.Add(%phony_concat, %phony_concat) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %add : tensor<1x4x2x8x8xf16>
}
// CHECK-LABEL: ge.graph @negative_dim
// CHECK: %mul1 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// CHECK: %mul2 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [64]}
// CHECK: %mul3 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [512]}
// CHECK: %mul4 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [576]}
// CHECK: ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [-2, 1], N = [2, 2], _no_task = true,
// REMARK: remark: PhonyConcat 'phony_concat' marked no-task; offsets: mul1:0=0, mul2:0=64, mul3:0=512, mul4:0=576

// -----

// GE PhonyConcatCalcOffsetNotKeepOffset: keep_input_offset = false, every piece at 0.
ge.graph @concat_not_keep_offset {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 2], keep_input_offset = false} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  %add = ge.Add(%phony_concat, %phony_concat) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %add : tensor<1x4x2x8x8xf16>
}
// CHECK-LABEL: ge.graph @concat_not_keep_offset
// CHECK: %mul1 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// CHECK: %mul2 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// CHECK: %mul3 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// CHECK: %mul4 = ge.Mul(%x, %x) {_output_offset_list_for_continuous = [0]}
// REMARK: remark: PhonyConcat 'phony_concat' marked no-task; offsets: mul1:0=0, mul2:0=0, mul3:0=0, mul4:0=0 (keep_input_offset = false)

// -----

// GE PhonyConcatSkipProcess: a producer with _output_offset_for_buffer_fusion (LxFusion laid the
// pieces out already) stops the calculation: no producer gets an offset list. GE's test sets it
// on all four producers; HasBufferFusionOffset needs only one, so only mul3 carries it here.
ge.graph @buffer_fusion_skip {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %mul1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Mul(%x, %x) {_output_offset_for_buffer_fusion = [0]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %phony_concat : tensor<1x4x2x8x8xf16>
}
// CHECK-LABEL: ge.graph @buffer_fusion_skip
// CHECK-NOT: _output_offset_list_for_continuous
// CHECK: %phony_concat = ge.PhonyConcat(%mul1, %mul2, %mul3, %mul4) {concat_dim = [3, 1], N = [2, 2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// CHECK-NOT: _output_offset_list_for_continuous
// REMARK: remark: PhonyConcat 'phony_concat' marked no-task; offsets not computed: producer 'mul3' has _output_offset_for_buffer_fusion (HasBufferFusionOffset)

// -----

// GE PhonySplitCalcOffset: add -> phony_split (split_dim [1, 3], num_split [2, 2]) -> mul1..mul4,
// consumers' input descs ND fp16 {1,2,2,4,8}. Slice ids (LAST listed axis fastest):
// idx 0 [0,0], 1 [0,1], 2 [1,0], 3 [1,1]. Axis 3 first (list walked backwards): one slice =
// prod({4,8}) * 2 B = 64 B, piece grows to {1,2,2,8,8}; axis 1: prod({2,2,8,8}) * 2 B = 512 B.
// Offsets: mul1 0, mul2 64, mul3 512, mul4 576.
ge.graph @split_calc_offset {
  %x = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  %add = ge.Add(%x, %x) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  %phony_split:4 = ge.PhonySplit(%add) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  %mul1 = ge.Relu(%phony_split#0) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Relu(%phony_split#1) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Relu(%phony_split#2) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Relu(%phony_split#3) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %mul1, %mul2, %mul3, %mul4 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
}
// GE's mul1..mul4 have one input each (so a one-entry list); a one-input op (Relu) keeps that.
// CHECK-LABEL: ge.graph @split_calc_offset
// CHECK: ge.PhonySplit(%add) {split_dim = [1, 3], num_split = [2, 2], _no_task = true, _no_padding_continuous_output = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// CHECK: %mul1 = ge.Relu(%phony_split) {_input_offset_list_for_continuous = [0]}
// CHECK: %mul2 = ge.Relu(%phony_split_1) {_input_offset_list_for_continuous = [64]}
// CHECK: %mul3 = ge.Relu(%phony_split_2) {_input_offset_list_for_continuous = [512]}
// CHECK: %mul4 = ge.Relu(%phony_split_3) {_input_offset_list_for_continuous = [576]}
// REMARK: remark: PhonySplit 'phony_split' marked no-task; input offsets: mul1:0=0, mul2:0=64, mul3:0=512, mul4:0=576

// -----

// GE PhonySplitCalcOffsetNotKeepOffset: keep_output_offset = false, every consumer reads at 0.
ge.graph @split_not_keep_offset {
  %x = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  %add = ge.Add(%x, %x) : (tensor<1x4x2x8x8xf16>, tensor<1x4x2x8x8xf16>) -> tensor<1x4x2x8x8xf16>
  %phony_split:4 = ge.PhonySplit(%add) {split_dim = [1, 3], num_split = [2, 2], keep_output_offset = false} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  %mul1 = ge.Relu(%phony_split#0) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul2 = ge.Relu(%phony_split#1) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul3 = ge.Relu(%phony_split#2) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %mul4 = ge.Relu(%phony_split#3) : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %mul1, %mul2, %mul3, %mul4 : tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>
}
// CHECK-LABEL: ge.graph @split_not_keep_offset
// CHECK: %mul1 = ge.Relu(%phony_split) {_input_offset_list_for_continuous = [0]}
// CHECK: %mul2 = ge.Relu(%phony_split_1) {_input_offset_list_for_continuous = [0]}
// CHECK: %mul3 = ge.Relu(%phony_split_2) {_input_offset_list_for_continuous = [0]}
// CHECK: %mul4 = ge.Relu(%phony_split_3) {_input_offset_list_for_continuous = [0]}
// REMARK: remark: PhonySplit 'phony_split' marked no-task; input offsets: mul1:0=0, mul2:0=0, mul3:0=0, mul4:0=0 (keep_output_offset = false)

// -----

// Multi-axis concat with a negative dim: pieces {2,3,16} f16 (192 B, a multiple of 32),
// concat_dim [-1, 0] -> [2, 0] on rank 3, N [2, 3], six inputs. Slice ids (first axis fastest):
// idx k -> [k % 2, k // 2]. Axis 2: one slice = prod({16}) * 2 B = 32 B, piece grows to {2,3,32};
// axis 0: one slice = prod({2,3,32}) * 2 B = 384 B.
// Offsets: a 0, b 32, c 384, d 384+32 = 416, e 2*384 = 768, f 768+32 = 800.
ge.graph @multi_axis_concat {
  %x = ge.Data {index = 0} : tensor<2x3x16xf16>
  %a = ge.Relu(%x) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %b = ge.Abs(%x) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %c = ge.Neg(%x) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %d = ge.Exp(%x) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %e = ge.Tanh(%x) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %f = ge.Sigmoid(%x) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %pc = ge.PhonyConcat(%a, %b, %c, %d, %e, %f) {concat_dim = [-1, 0], N = [2, 3]} : (tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>) -> tensor<6x3x32xf16>
  ge.NetOutput %pc : tensor<6x3x32xf16>
}
// CHECK-LABEL: ge.graph @multi_axis_concat
// CHECK: %a = ge.Relu(%x) {_output_offset_list_for_continuous = [0]}
// CHECK: %b = ge.Abs(%x) {_output_offset_list_for_continuous = [32]}
// CHECK: %c = ge.Neg(%x) {_output_offset_list_for_continuous = [384]}
// CHECK: %d = ge.Exp(%x) {_output_offset_list_for_continuous = [416]}
// CHECK: %e = ge.Tanh(%x) {_output_offset_list_for_continuous = [768]}
// CHECK: %f = ge.Sigmoid(%x) {_output_offset_list_for_continuous = [800]}
// REMARK: remark: PhonyConcat 'pc' marked no-task; offsets: a:0=0, b:0=32, c:0=384, d:0=416, e:0=768, f:0=800

// -----

// Multi-axis split with a negative dim, the mirror image: input {6,3,32} f16, split_dim [0, -1]
// -> [0, 2], num_split [3, 2]. Slice ids (last axis fastest): idx k -> [k // 2, k % 2].
// Axis 2 first: 32 B per slice, piece grows to {2,3,32}; axis 0: 384 B per slice.
// Offsets: 0, 32, 384, 416, 768, 800 (the same block layout as the concat above).
ge.graph @multi_axis_split {
  %x = ge.Data {index = 0} : tensor<6x3x32xf16>
  %ps:6 = ge.PhonySplit(%x) {split_dim = [0, -1], num_split = [3, 2]} : (tensor<6x3x32xf16>) -> (tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>)
  %a = ge.Relu(%ps#0) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %b = ge.Relu(%ps#1) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %c = ge.Relu(%ps#2) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %d = ge.Relu(%ps#3) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %e = ge.Relu(%ps#4) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  %f = ge.Relu(%ps#5) : (tensor<2x3x16xf16>) -> tensor<2x3x16xf16>
  ge.NetOutput %a, %b, %c, %d, %e, %f : tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>, tensor<2x3x16xf16>
}
// CHECK-LABEL: ge.graph @multi_axis_split
// CHECK: %a = ge.Relu(%ps) {_input_offset_list_for_continuous = [0]}
// CHECK: %b = ge.Relu(%ps_1) {_input_offset_list_for_continuous = [32]}
// CHECK: %c = ge.Relu(%ps_2) {_input_offset_list_for_continuous = [384]}
// CHECK: %d = ge.Relu(%ps_3) {_input_offset_list_for_continuous = [416]}
// CHECK: %e = ge.Relu(%ps_4) {_input_offset_list_for_continuous = [768]}
// CHECK: %f = ge.Relu(%ps_5) {_input_offset_list_for_continuous = [800]}
// REMARK: remark: PhonySplit 'ps' marked no-task; input offsets: a:0=0, b:0=32, c:0=384, d:0=416, e:0=768, f:0=800

// -----

// The offsets use the RUNTIME (storage) shape: NCHW {1,16,4,4} f16 is NC1HWC0 {1,1,4,4,16}.
// concat_dim [2] (H), N [2]: one slice = prod({4,4,16}) * 2 B = 512 B (the origin shape would
// give prod({4,4}) * 2 B = 32 B). Input 0 is 256 * 2 = 512 B, a multiple of 32.
#nc1hwc0 = #ge.desc<NC1HWC0, origin = NCHW>
ge.graph @runtime_shape {
  %x = ge.Data {index = 0} : tensor<1x16x4x4xf16, #nc1hwc0>
  %a = ge.Relu(%x) : (tensor<1x16x4x4xf16, #nc1hwc0>) -> tensor<1x16x4x4xf16, #nc1hwc0>
  %b = ge.Abs(%x) : (tensor<1x16x4x4xf16, #nc1hwc0>) -> tensor<1x16x4x4xf16, #nc1hwc0>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [2], N = [2]} : (tensor<1x16x4x4xf16, #nc1hwc0>, tensor<1x16x4x4xf16, #nc1hwc0>) -> tensor<1x16x8x4xf16, #nc1hwc0>
  ge.NetOutput %pc : tensor<1x16x8x4xf16, #nc1hwc0>
}
// CHECK-LABEL: ge.graph @runtime_shape
// CHECK: %a = ge.Relu(%x) {_output_offset_list_for_continuous = [0]}
// CHECK: %b = ge.Abs(%x) {_output_offset_list_for_continuous = [512]}
// REMARK: remark: PhonyConcat 'pc' marked no-task; offsets: a:0=0, b:0=512

// -----

// A producer with two outputs: the list has one entry per producer output, zeros elsewhere, and
// each PhonyConcat input sets its own entry (ours: one slot per (producer, output) pair; GE's
// AttrUtils::SetListInt of the whole list would keep only the last piece, [0, 128]).
// Pieces {2,16} f16 = 64 B; concat_dim [0], N [3]: idx k at k * prod({2,16}) * 2 B = 64k.
// u (idx 0): [0]. s#0 (idx 1) sets slot 0 to 64, s#1 (idx 2) slot 1 to 128: [64, 128].
// h: only output 1 feeds a concat (pc2 idx 1): [0, 64].
ge.graph @two_output_producer {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %r2 = ge.Reshape(%r) : (tensor<4x16xf16>) -> tensor<2x32xf16>
  %s:2 = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %h:2 = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %t = ge.Tanh(%h#0) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %u = ge.Abs(%s#0) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %pc = ge.PhonyConcat(%u, %s#0, %s#1) {concat_dim = [0], N = [3]} : (tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<6x16xf16>
  %pc2 = ge.PhonyConcat(%t, %h#1) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %pc, %pc2, %r2 : tensor<6x16xf16>, tensor<4x16xf16>, tensor<2x32xf16>
}
// CHECK-LABEL: ge.graph @two_output_producer
// CHECK: %s, %s_1 = ge.SplitD(%x) {split_dim = 0, num_split = 2, _output_offset_list_for_continuous = [64, 128]}
// CHECK: %h, %h_1 = ge.SplitD(%x) {split_dim = 0, num_split = 2, _output_offset_list_for_continuous = [0, 64]}
// CHECK: %t = ge.Tanh(%h) {_output_offset_list_for_continuous = [0]}
// CHECK: %u = ge.Abs(%s) {_output_offset_list_for_continuous = [0]}
// REMARK: remark: PhonyConcat 'pc' marked no-task; offsets: u:0=0, s:0=64, s:1=128
// REMARK: remark: PhonyConcat 'pc2' marked no-task; offsets: t:0=0, h:1=64

// -----

// A consumer with several inputs: the list has one entry per consumer input, zeros elsewhere,
// and each PhonySplit output it reads sets its own entry (ours; GE overwrites the list, which
// here gives the same lists: the piece at 0 is always the one lost). Input {4,16} f16,
// split_dim [0], num_split [2]: output k at k * prod({2,16}) * 2 B = 64k.
// m = Mul(%y, ps#1): [0, 64]. n = Add(ps#0, ps#1): slot 0 = 0, slot 1 = 64.
// o = Sub(ps#1, ps#0): slot 0 = 64, slot 1 = 0.
ge.graph @multi_input_consumer {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<2x16xf16>
  %ps:2 = ge.PhonySplit(%x) {split_dim = [0], num_split = [2]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %m = ge.Mul(%y, %ps#1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  %n = ge.Add(%ps#0, %ps#1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  %o = ge.Sub(%ps#1, %ps#0) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %m, %n, %o : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @multi_input_consumer
// CHECK: %m = ge.Mul(%y, %ps_1) {_input_offset_list_for_continuous = [0, 64]}
// CHECK: %n = ge.Add(%ps, %ps_1) {_input_offset_list_for_continuous = [0, 64]}
// CHECK: %o = ge.Sub(%ps_1, %ps) {_input_offset_list_for_continuous = [64, 0]}
// REMARK: remark: PhonySplit 'ps' marked no-task; input offsets: n:0=0, o:1=0, m:1=64, n:1=64, o:0=64

// -----

// The reshape family (CalcNodeOffsetByReuseInput): output 0 reuses input 0, written as the
// per-output reuse_input = [true], reuse_input_index = [0] (GE: TensorUtils::SetReuseInput /
// SetReuseInputIndex on the output desc). Reshape is GE-local but not in the list; Relu is not
// GE-local: neither is marked. The graph has no unknown flag.
ge.graph @reshape_family {
  %x = ge.Data {index = 0} : tensor<2x1x16xf16>
  %sq = ge.Squeeze(%x) {axis = [1]} : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %us = ge.Unsqueeze(%sq) {axes = [0]} : (tensor<2x16xf16>) -> tensor<1x2x16xf16>
  %ed = ge.ExpandDims(%sq) {axis = 0} : (tensor<2x16xf16>) -> tensor<1x2x16xf16>
  %fl = ge.Flatten(%x) : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %fl2 = ge.FlattenV2(%x) : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %rf = ge.ReFormat(%x) : (tensor<2x1x16xf16>) -> tensor<2x1x16xf16>
  %sq2 = ge.SqueezeV2(%x) : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %sq3 = ge.SqueezeV3(%x) : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %us2 = ge.UnsqueezeV2(%sq) : (tensor<2x16xf16>) -> tensor<2x1x16xf16>
  %us3 = ge.UnsqueezeV3(%sq) : (tensor<2x16xf16>) -> tensor<2x1x16xf16>
  %bc = ge.Bitcast(%sq) : (tensor<2x16xf16>) -> tensor<2x16xi16>
  %rs = ge.Reshape(%x) : (tensor<2x1x16xf16>) -> tensor<32xf16>
  %relu = ge.Relu(%x) : (tensor<2x1x16xf16>) -> tensor<2x1x16xf16>
  ge.NetOutput %us, %ed, %fl, %fl2, %rf, %sq2, %sq3, %us2, %us3, %bc, %rs, %relu : tensor<1x2x16xf16>, tensor<1x2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x1x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x1x16xf16>, tensor<2x1x16xf16>, tensor<2x16xi16>, tensor<32xf16>, tensor<2x1x16xf16>
}
// CHECK-LABEL: ge.graph @reshape_family
// CHECK: %sq = ge.Squeeze(%x) {axis = [1], reuse_input = [true], reuse_input_index = [0]}
// CHECK: %us = ge.Unsqueeze(%sq) {axes = [0], reuse_input = [true], reuse_input_index = [0]}
// CHECK: %ed = ge.ExpandDims(%sq) {axis = 0, reuse_input = [true], reuse_input_index = [0]}
// CHECK: %fl = ge.Flatten(%x) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %fl2 = ge.FlattenV2(%x) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %rf = ge.ReFormat(%x) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %sq2 = ge.SqueezeV2(%x) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %sq3 = ge.SqueezeV3(%x) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %us2 = ge.UnsqueezeV2(%sq) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %us3 = ge.UnsqueezeV3(%sq) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %bc = ge.Bitcast(%sq) {reuse_input = [true], reuse_input_index = [0]}
// CHECK: %rs = ge.Reshape(%x) : (
// CHECK: %relu = ge.Relu(%x) : (
// REMARK: remark: Squeeze 'sq' marked output 0 reuses input 0
// REMARK: remark: Unsqueeze 'us' marked output 0 reuses input 0
// REMARK: remark: ExpandDims 'ed' marked output 0 reuses input 0
// REMARK: remark: Flatten 'fl' marked output 0 reuses input 0
// REMARK: remark: FlattenV2 'fl2' marked output 0 reuses input 0
// REMARK: remark: ReFormat 'rf' marked output 0 reuses input 0
// REMARK: remark: SqueezeV2 'sq2' marked output 0 reuses input 0
// REMARK: remark: SqueezeV3 'sq3' marked output 0 reuses input 0
// REMARK: remark: UnsqueezeV2 'us2' marked output 0 reuses input 0
// REMARK: remark: UnsqueezeV3 'us3' marked output 0 reuses input 0
// REMARK: remark: Bitcast 'bc' marked output 0 reuses input 0
// REMARK-NOT: Reshape 'rs'

// -----

// GE StaticGraph_Bitcast_OutputReuseInput: data_0, data_1 (NCHW int32 {1,5,4,4}) -> add ->
// bitcast (int4 {1,5,4,4,8}, 320 B both) -> netoutput, graph not unknown: output 0 reuses input 0.
#nchw = #ge.desc<NCHW, origin = NCHW>
ge.graph @bitcast_static {
  %data_0 = ge.Data {index = 0} : tensor<1x5x4x4xi32, #nchw>
  %data_1 = ge.Data {index = 1} : tensor<1x5x4x4xi32, #nchw>
  %add = ge.Add(%data_0, %data_1) : (tensor<1x5x4x4xi32, #nchw>, tensor<1x5x4x4xi32, #nchw>) -> tensor<1x5x4x4xi32, #nchw>
  %bitcast = ge.Bitcast(%add) : (tensor<1x5x4x4xi32, #nchw>) -> tensor<1x5x4x4x8xi4>
  ge.NetOutput %bitcast : tensor<1x5x4x4x8xi4>
}
// CHECK-LABEL: ge.graph @bitcast_static
// CHECK: %bitcast = ge.Bitcast(%add) {reuse_input = [true], reuse_input_index = [0]}
// REMARK: remark: Bitcast 'bitcast' marked output 0 reuses input 0

// -----

// GE DynamicGraph_Bitcast_OutputNotReuseInput: int4 {-1,5,4,-1} -> int32 {-1,5,4} in an unknown
// graph: CalcOpRunningParam skips the unknown-shape node, nothing is set.
ge.graph @bitcast_dynamic attributes {_graph_unknown_flag = true} {
  %data_0 = ge.Data {index = 0} : tensor<?x5x4x?xi4>
  %data_1 = ge.Data {index = 1} : tensor<?x5x4x?xi4>
  %add = ge.Add(%data_0, %data_1) : (tensor<?x5x4x?xi4>, tensor<?x5x4x?xi4>) -> tensor<?x5x4x?xi4>
  %bitcast = ge.Bitcast(%add) : (tensor<?x5x4x?xi4>) -> tensor<?x5x4xi32>
  ge.NetOutput %bitcast : tensor<?x5x4xi32>
}
// CHECK-LABEL: ge.graph @bitcast_dynamic
// CHECK: %bitcast = ge.Bitcast(%add) : (
// REMARK: remark: Bitcast 'bitcast' not marked: unknown shape (CalcOpRunningParam)

// -----

// Known shapes in a graph with the unknown flag: CalcNodeOffsetByReuseInput does not mark.
ge.graph @reshape_family_unknown_graph attributes {_graph_unknown_flag = true} {
  %x = ge.Data {index = 0} : tensor<2x1x16xf16>
  %sq = ge.Squeeze(%x) {axis = [1]} : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %sq : tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @reshape_family_unknown_graph
// CHECK: %sq = ge.Squeeze(%x) {axis = [1]} : (
// REMARK: remark: Squeeze 'sq' not marked: owner graph is unknown (CalcNodeOffsetByReuseInput)

// -----

// Unknown-shape PhonyConcat: marked (OptimizeOriginalGraphJudgeInsert is unconditional), but
// CalcOpRunningParam skips the node before CalcPhonyConcatNodeOffset, so neither an offset list
// nor the unknown-graph failure.
ge.graph @phony_unknown_shape attributes {_graph_unknown_flag = true} {
  %x = ge.Data {index = 0} : tensor<?x2x4x8xf16>
  %a = ge.Relu(%x) : (tensor<?x2x4x8xf16>) -> tensor<?x2x4x8xf16>
  %b = ge.Abs(%x) : (tensor<?x2x4x8xf16>) -> tensor<?x2x4x8xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1], N = [2]} : (tensor<?x2x4x8xf16>, tensor<?x2x4x8xf16>) -> tensor<?x4x4x8xf16>
  ge.NetOutput %pc : tensor<?x4x4x8xf16>
}
// CHECK-LABEL: ge.graph @phony_unknown_shape
// CHECK: %a = ge.Relu(%x) : (
// CHECK: %b = ge.Abs(%x) : (
// CHECK: %pc = ge.PhonyConcat(%a, %b) {concat_dim = [1], N = [2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// REMARK: remark: PhonyConcat 'pc' marked no-task; offsets not computed: unknown shape (CalcOpRunningParam)

// -----

// The GE-local calculations read only the owner graph's unknown flag, not
// _dynamic_shape_partitioned (which the no-task Concat pass's IsOwnerGraphUnknown also reads):
// offsets are computed. Pieces {2,16} f16: b at prod({2,16}) * 2 B = 64.
ge.graph @partitioned_only attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<2x16xf16>
  %a = ge.Relu(%x) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %b = ge.Abs(%x) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %pc : tensor<4x16xf16>
}
// CHECK-LABEL: ge.graph @partitioned_only
// CHECK: %b = ge.Abs(%x) {_output_offset_list_for_continuous = [64]}
// REMARK: remark: PhonyConcat 'pc' marked no-task; offsets: a:0=0, b:0=64

// -----

// Subgraphs: GE's GetAllNodes covers them. A static subgraph called from an unknown root graph
// is marked too (the flag is the owner graph's), the root's own Squeeze is not.
// In @sub: r at 0, t at prod({2,16}) * 2 B = 64.
ge.graph @dynamic_root attributes {_graph_unknown_flag = true} {
  %x = ge.Data {index = 0} : tensor<2x1x16xf16>
  %sq_root = ge.Squeeze(%x) {axis = [1]} : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<2x1x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %y, %sq_root : tensor<4x16xf16>, tensor<2x16xf16>
}
ge.graph @sub {
  %in = ge.Data {index = 0} : tensor<2x1x16xf16>
  %sq = ge.Squeeze(%in) {axis = [1]} : (tensor<2x1x16xf16>) -> tensor<2x16xf16>
  %r = ge.Relu(%sq) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %t = ge.Tanh(%sq) : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %pc = ge.PhonyConcat(%r, %t) {concat_dim = [0], N = [2]} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %pc : tensor<4x16xf16>
}
// CHECK-LABEL: ge.graph @dynamic_root
// CHECK: %sq_root = ge.Squeeze(%x) {axis = [1]} : (
// CHECK-LABEL: ge.graph @sub
// CHECK: %sq = ge.Squeeze(%in) {axis = [1], reuse_input = [true], reuse_input_index = [0]}
// CHECK: %r = ge.Relu(%sq) {_output_offset_list_for_continuous = [0]}
// CHECK: %t = ge.Tanh(%sq) {_output_offset_list_for_continuous = [64]}
// CHECK: %pc = ge.PhonyConcat(%r, %t) {concat_dim = [0], N = [2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0}
// REMARK: remark: Squeeze 'sq_root' not marked: owner graph is unknown (CalcNodeOffsetByReuseInput)
// REMARK: remark: Squeeze 'sq' marked output 0 reuses input 0
// REMARK: remark: PhonyConcat 'pc' marked no-task; offsets: r:0=0, t:0=64
