// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// The checks every GE node shares (GeNode in ge.py): arity, tensor types, GE dtypes,
// attribute kinds (attrs.py), required attributes, per-output attribute lengths, inferred
// result shapes; then the graph rules (ge.graph, Data indices, NetOutput) and constants.

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: Relu takes 1 inputs, got 2
  %r = ge.Relu(%x, %x) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %r : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Add: Add takes 2 inputs, got 1
  %r = ge.Add(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %r : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: Relu takes 1 outputs, got 2
  %r, %s = ge.Relu(%x) : (tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>)
  ge.NetOutput %r : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: SplitD takes at least 1 outputs, got 0
  ge.SplitD(%x) {split_dim = 0, num_split = 0} : (tensor<8xf16>) -> ()
  ge.NetOutput %x : tensor<8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Reshape: Reshape takes 1 to 2 inputs, got 3
  %r = ge.Reshape(%x, %x, %x) : (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<2x4xf16>
  ge.NetOutput %r : tensor<2x4xf16>
}

// -----

// Values are tensors.
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0 must be a tensor, got i32
  %x = ge.Data {index = 0} : i32
  ge.NetOutput %x : i32
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %i = arith.constant 1 : i32
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.NetOutput: input 1 must be a tensor, got i32
  ge.NetOutput %x, %i : tensor<4xf16>, i32
}

// -----

// Element types must have a GE data type.
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: element type index has no GE data type; supported: f16, bf16, f32, f64, f8E5M2, f8E4M3FN, f8E8M0FNU, i1, ui1, i2, ui2, i4, i8, ui8, i16, ui16, i32, ui32, i64, ui64 (GE's DT_HIFLOAT8 has no MLIR element type)
  %x = ge.Data {index = 0} : tensor<4xindex>
  ge.NetOutput %x : tensor<4xindex>
}

// -----

// The only tensor encoding is #ge.desc.
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: tensor encoding must be #ge.desc<...>, got "NCHW"
  %x = ge.Data {index = 0} : tensor<4xf16, "NCHW">
  ge.NetOutput %x : tensor<4xf16, "NCHW">
}

// -----

// Required op attributes (Data's index, SplitD's split_dim, HcomAllGather's rank_size...).
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: Data requires attribute 'index' (an integer)
  %x = ge.Data : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: SplitD requires attribute 'split_dim' (an integer)
  %a, %b = ge.SplitD(%x) {num_split = 2} : (tensor<4x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf16>)
  ge.NetOutput %a : tensor<2x8xf16>
}

// -----

// Attribute kinds (attrs.py kind_error), for the op's own attributes: INT ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: attribute 'concat_dim' must be an integer, got "1"
  %c = ge.ConcatD(%x, %x) {concat_dim = "1"} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x16xf16>
  ge.NetOutput %c : tensor<4x16xf16>
}

// -----

// ... a bool is not an integer ...
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: attribute 'index' must be an integer, got true
  %x = ge.Data {index = true} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// ... BOOL ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceSumD: attribute 'keep_dims' must be a bool (true/false), got 1 : i64
  %s = ge.ReduceSumD(%x) {axes = [1], keep_dims = 1} : (tensor<4x8xf16>) -> tensor<4x1xf16>
  ge.NetOutput %s : tensor<4x1xf16>
}

// -----

// ... STR ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.HcomAllGather: attribute 'group' must be a string, got 0 : i64
  %s = ge.HcomAllGather(%x) {rank_size = 2, group = 0} : (tensor<4x8xf16>) -> tensor<8x8xf16>
  ge.NetOutput %s : tensor<8x8xf16>
}

// -----

// ... LIST_INT ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ReduceSumD: attribute 'axes' must be a list of integers, e.g. [0, 1], got 1 : i64
  %s = ge.ReduceSumD(%x) {axes = 1} : (tensor<4x8xf16>) -> tensor<4xf16>
  ge.NetOutput %s : tensor<4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.TransposeD: attribute 'perm' must be a list of integers, e.g. [0, 1], got [1 : i64, "0"]
  %t = ge.TransposeD(%x) {perm = [1, "0"]} : (tensor<4x8xf16>) -> tensor<8x4xf16>
  ge.NetOutput %t : tensor<8x4xf16>
}

// -----

// ... and for GE's discardable attributes on any node: BOOL ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: attribute '_no_task' must be a bool (true/false), got 1 : i64
  %c = ge.ConcatD(%x, %x) {concat_dim = 0, _no_task = 1} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  ge.NetOutput %c : tensor<8x8xf16>
}

// -----

// ... INT ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.ConcatD: attribute '_reuse_input_on_dim_index' must be an integer, got [0 : i64]
  %c = ge.ConcatD(%x, %x) {concat_dim = 0, _reuse_input_on_dim_index = [0]} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<8x8xf16>
  ge.NetOutput %c : tensor<8x8xf16>
}

// -----

// ... LIST_INT ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: attribute '_output_memory_type' must be a list of integers, e.g. [0, 1], got 0 : i64
  %r = ge.Relu(%x) {_output_memory_type = 0} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}

// -----

// ... STR ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: attribute 'name' must be a string, got 3 : i64
  %r = ge.Relu(%x) {name = 3} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}

// -----

// ... LIST_BOOL (per-output flags) ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: attribute 'can_reused_for_concat_optimize' must be a list of bools, one per output, got false
  %r = ge.Relu(%x) {can_reused_for_concat_optimize = false} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}

// -----

// ... with one entry per output.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.SplitD: per-output attribute 'can_reused_for_concat_optimize' has 1 entries for 2 outputs
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2, can_reused_for_concat_optimize = [false]} : (tensor<4x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf16>)
  ge.NetOutput %a, %b : tensor<2x8xf16>, tensor<2x8xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: per-output attribute 'can_reused_for_pack_optimize' has 2 entries for 1 outputs
  %r = ge.Relu(%x) {can_reused_for_pack_optimize = [true, true]} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}

// -----

// Declared result shapes must be the inferred ones.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: output 0 has shape 8x4, but Relu infers 4x8
  %r = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<8x4xf16>
  ge.NetOutput %r : tensor<8x4xf16>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: output 0 has shape 4x8x1, but Relu infers 4x8
  %r = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8x1xf16>
  ge.NetOutput %r : tensor<4x8x1xf16>
}

// -----

// Graph attributes have kinds too.
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: attribute '_single_op_scene' must be a bool (true/false), got "false"
ge.graph @g attributes {_single_op_scene = "false"} {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: attribute '_memory_discontiguous_allocation' must be a bool (true/false), got 1 : i64
ge.graph @g attributes {_memory_discontiguous_allocation = 1} {
  %x = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// A graph's inputs are its Data nodes, not block arguments.
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: a ge.graph takes its inputs through ge.Data nodes, not block arguments
ge.graph @g {
^bb0(%a: tensor<4xf16>):
  ge.NetOutput %a : tensor<4xf16>
}

// -----

// Data indices: no duplicates ...
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: graph @g: Data index 0 is used by 'x' and 'y'
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %x, %y : tensor<4xf16>, tensor<4xf16>
}

// -----

// ... RefData shares the index space with Data ...
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: graph @g: Data index 0 is used by 'x' and 'r'
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %r = ge.RefData {index = 0} : tensor<4xf16>
  ge.NetOutput %x, %r : tensor<4xf16>, tensor<4xf16>
}

// -----

// ... no gaps ...
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: graph @g: Data indices must be 0..1; index 1 is missing
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %y = ge.Data {index = 2} : tensor<4xf16>
  ge.NetOutput %x, %y : tensor<4xf16>, tensor<4xf16>
}

// -----

// ... and never negative.
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: Data index must be >= 0, got -1
  %x = ge.Data {index = -1} : tensor<4xf16>
  ge.NetOutput %x : tensor<4xf16>
}

// -----

// A graph ends with NetOutput ...
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: graph @g must end with ge.NetOutput
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %r = ge.Relu(%x) : (tensor<4xf16>) -> tensor<4xf16>
}

// -----

// ... even an empty one ...
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: ge.graph: graph @g must end with ge.NetOutput
ge.graph @g {
}

// -----

// ... and NetOutput is the last node.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.NetOutput: 'ge.NetOutput' must be the last operation in its parent block
  ge.NetOutput %x : tensor<4xf16>
  %r = ge.Relu(%x) : (tensor<4xf16>) -> tensor<4xf16>
}

// -----

// Const and Constant need a value ...
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Const: Const requires attribute 'value' (dense<...> : tensor<...>)
  %c = ge.Const : tensor<4xf16>
  ge.NetOutput %c : tensor<4xf16>
}

// -----

// ... that is a dense tensor ...
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Constant: attribute 'value' must be a dense<...> tensor, got 1.000000e+00 : f16
  %c = ge.Constant {value = 1.0 : f16} : tensor<f16>
  ge.NetOutput %c : tensor<f16>
}

// -----

// ... of the output's shape ...
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Const: attribute 'value' has type tensor<2xf16>, but the output is tensor<4xf16>
  %c = ge.Const {value = dense<1.0> : tensor<2xf16>} : tensor<4xf16>
  ge.NetOutput %c : tensor<4xf16>
}

// -----

// ... and dtype (a Variable's initial value too).
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Variable: attribute 'value' has type tensor<4xf32>, but the output is tensor<4xf16>
  %v = ge.Variable {value = dense<0.0> : tensor<4xf32>} : tensor<4xf16>
  ge.NetOutput %v : tensor<4xf16>
}

// -----

// The custom syntax lists one type per input (a parse error, at the types).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:25: error: 2 inputs but 1 input types
  %a = ge.Add(%x, %x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %a : tensor<4xf16>
}

// -----

// GE writes one continuous offset per producer output (CalcPhonyConcatNodeOffset) ...
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: '_output_offset_list_for_continuous' has 2 offsets for 1 outputs
  %r = ge.Relu(%x) {_output_offset_list_for_continuous = [0, 64]} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}

// -----

// ... and one per consumer input (CalcPhonySplitNodeOffset).
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Mul: '_input_offset_list_for_continuous' has 1 offsets for 2 inputs
  %r = ge.Mul(%x, %x) {_input_offset_list_for_continuous = [64]} : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}
