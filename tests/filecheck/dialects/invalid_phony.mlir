// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// PhonyConcat / PhonySplit: GE's CheckPhonyConcatInputShapeSame /
// CheckPhonySplitOutputShapeSame, CheckDimAttrValid (non-empty equal-length lists, N > 0,
// prod(N) = number of pieces) and CheckDimAttrMatchTensor (dims in range), plus the block
// shape the pieces make (ge_local_ops_kernel_calc_op_param.cc, docs/ge/notask.md).

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %b = ge.Data {index = 1} : tensor<1x2x2x4x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: input 1 has shape 1x2x2x4x4; PhonyConcat needs all inputs equal to input 0 (1x2x2x4x8)
  %c = ge.PhonyConcat(%a, %b) {concat_dim = [4], N = [2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x4xf16>) -> tensor<1x2x2x4x12xf16>
  ge.NetOutput %c : tensor<1x2x2x4x12xf16>
}

// -----

// GE's PhonyConcatCalcOffsetInvalidDim: N = [2, 1] names 2 pieces, the node has 4 inputs.
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: product of 'N' [2, 1] is 2, but the node has 4 inputs
  %c = ge.PhonyConcat(%a, %a, %a, %a) {concat_dim = [3, 1], N = [2, 1]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %c : tensor<1x4x2x8x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: 'concat_dim' ([3]) and 'N' ([2, 2]) must be non-empty lists of equal length
  %c = ge.PhonyConcat(%a, %a, %a, %a) {concat_dim = [3], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %c : tensor<1x4x2x8x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: 'concat_dim' ([]) and 'N' ([]) must be non-empty lists of equal length
  %c = ge.PhonyConcat(%a) {concat_dim = [], N = []} : (tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %c : tensor<1x2x2x4x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: every entry of 'N' must be > 0, got [-1, -2]
  %c = ge.PhonyConcat(%a, %a) {concat_dim = [3, 1], N = [-1, -2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  ge.NetOutput %c : tensor<1x2x2x4x8xf16>
}

// -----

// CheckDimAttrMatchTensor: a dim in [-rank, rank); -2 is fine (it is 3), 5 is not.
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: 'concat_dim' entry 5 is out of range for rank 5 (valid: [-5, 4])
  %c = ge.PhonyConcat(%a, %a, %a, %a) {concat_dim = [-2, 5], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x8x8xf16>
  ge.NetOutput %c : tensor<1x4x2x8x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: 'concat_dim' [3, -2] names an axis twice
  %c = ge.PhonyConcat(%a, %a, %a, %a) {concat_dim = [3, -2], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x16x8xf16>
  ge.NetOutput %c : tensor<1x2x2x16x8xf16>
}

// -----

// The block: the piece grown by N[i] along concat_dim[i] (1x2x2x4x8 by [3, 1] x [2, 2]).
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: output 0 has shape 4x2x2x4x8, but PhonyConcat infers 1x4x2x8x8
  %c = ge.PhonyConcat(%a, %a, %a, %a) {concat_dim = [3, 1], N = [2, 2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<4x2x2x4x8xf16>
  ge.NetOutput %c : tensor<4x2x2x4x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: PhonyConcat requires attribute 'N' (a list of integers, e.g. [0, 1])
  %c = ge.PhonyConcat(%a, %a) {concat_dim = [3]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x8x8xf16>
  ge.NetOutput %c : tensor<1x2x2x8x8xf16>
}

// -----

// A PhonyConcat's concat_dim is a list, not ConcatD's single integer.
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: attribute 'concat_dim' must be a list of integers, e.g. [0, 1], got 3 : i64
  %c = ge.PhonyConcat(%a, %a) {concat_dim = 3, N = [2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x8x8xf16>
  ge.NetOutput %c : tensor<1x2x2x8x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: attribute 'keep_input_offset' must be a bool (true/false), got 1 : i64
  %c = ge.PhonyConcat(%a, %a) {concat_dim = [3], N = [2], keep_input_offset = 1} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x8x8xf16>
  ge.NetOutput %c : tensor<1x2x2x8x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonyConcat: inputs and output must share one dtype, got f16, f32
  %c = ge.PhonyConcat(%a, %a) {concat_dim = [3], N = [2]} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x8x8xf32>
  ge.NetOutput %c : tensor<1x2x2x8x8xf32>
}

// -----

// PhonySplit: outputs of one shape ...
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonySplit: output 1 has shape 1x2x2x8x8; PhonySplit needs all outputs equal to output 0 (1x2x2x4x8)
  %p0, %p1 = ge.PhonySplit(%a) {split_dim = [1], num_split = [2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x8x8xf16>)
  ge.NetOutput %p0 : tensor<1x2x2x4x8xf16>
}

// -----

// ... that make up the input block ...
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonySplit: input has shape 1x4x2x8x4, but 4 outputs of 1x2x2x4x8 split by split_dim [1, 3] make 1x4x2x8x8
  %p0, %p1, %p2, %p3 = ge.PhonySplit(%a) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x4xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  ge.NetOutput %p0 : tensor<1x2x2x4x8xf16>
}

// -----

// ... with prod(num_split) outputs ...
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonySplit: product of 'num_split' [2, 2] is 4, but the node has 2 outputs
  %p0, %p1 = ge.PhonySplit(%a) {split_dim = [1, 3], num_split = [2, 2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>)
  ge.NetOutput %p0 : tensor<1x2x2x4x8xf16>
}

// -----

// ... split along axes of the output's rank ...
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonySplit: 'split_dim' entry -6 is out of range for rank 5 (valid: [-5, 4])
  %p0, %p1 = ge.PhonySplit(%a) {split_dim = [-6], num_split = [2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x8x8xf16>, tensor<1x2x2x8x8xf16>)
  ge.NetOutput %p0 : tensor<1x2x2x8x8xf16>
}

// -----

ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonySplit: 'split_dim' ([1, 3]) and 'num_split' ([4]) must be non-empty lists of equal length
  %p0, %p1, %p2, %p3 = ge.PhonySplit(%a) {split_dim = [1, 3], num_split = [4]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x1x2x8x8xf16>, tensor<1x1x2x8x8xf16>, tensor<1x1x2x8x8xf16>, tensor<1x1x2x8x8xf16>)
  ge.NetOutput %p0 : tensor<1x1x2x8x8xf16>
}

// -----

// ... of the input's dtype.
ge.graph @g {
  %a = ge.Data {index = 0} : tensor<1x4x2x8x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PhonySplit: input and outputs must share one dtype, got bf16, f16
  %p0, %p1 = ge.PhonySplit(%a) {split_dim = [1], num_split = [2]} : (tensor<1x4x2x8x8xf16>) -> (tensor<1x2x2x8x8xbf16>, tensor<1x2x2x8x8xbf16>)
  ge.NetOutput %p0 : tensor<1x2x2x8x8xbf16>
}
