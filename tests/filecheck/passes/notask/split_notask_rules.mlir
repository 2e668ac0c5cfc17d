// ge-split-notask, rule by rule (passes/notask/split.py): for each rule a split marked only
// because the rule passes, next to its twin refused by that rule. Tensors are ND f16 4x16
// (128 bytes; pieces 2x16 = 64 bytes, multiples of 32) unless a case says otherwise;
// producers are compute ops (Relu) so only the rule under test decides. Remarks name the
// deciding rule.
// RUN: ge-opt %s --split-input-file -p ge-split-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-split-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// --- ShouldSkipGraph: _single_op_scene / _memory_discontiguous_allocation ------------

ge.graph @single_op attributes {_single_op_scene = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %skip_single, %skip_single_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %skip_single, %skip_single_1 : tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @single_op
// CHECK: %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %skip_single, %skip_single_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} :
// REMARK: remark: SplitD 'skip_single' not marked: graph @single_op is a single-op scene (_single_op_scene = true) (ShouldSkipGraph)

// -----

ge.graph @not_single_op attributes {_single_op_scene = false, _memory_discontiguous_allocation = false} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ok_single, %ok_single_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %ok_single, %ok_single_1 : tensor<2x16xf16>, tensor<2x16xf16>
}
// The marks, and the locks on the input's producer output (for ge-concat-notask and
// ge-pack-notask: it is not also made a piece of their blocks).
// CHECK-LABEL: ge.graph @not_single_op
// CHECK: %r = ge.Relu(%x) {can_reused_for_concat_optimize = [false], can_reused_for_pack_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %ok_single, %ok_single_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2, _no_task = true, _no_padding_continuous_output = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
// REMARK: remark: SplitD 'ok_single' marked no-task; locked producers: r:0

// -----

ge.graph @discontiguous attributes {_memory_discontiguous_allocation = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %skip_disc, %skip_disc_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %skip_disc, %skip_disc_1 : tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @discontiguous
// CHECK: %skip_disc, %skip_disc_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} :
// REMARK: remark: SplitD 'skip_disc' not marked: graph @discontiguous allocates memory discontiguously (_memory_discontiguous_allocation = true) (ShouldSkipGraph)

// -----

// --- IsUnknownShapeOp -------------------------------------------------------------------

ge.graph @unknown_shape {
  %x = ge.Data {index = 0} : tensor<4x?xf16>
  %r = ge.Relu(%x) : (tensor<4x?xf16>) -> tensor<4x?xf16>
  %unknown, %unknown_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x?xf16>) -> (tensor<2x?xf16>, tensor<2x?xf16>)
  ge.NetOutput %unknown, %unknown_1 : tensor<2x?xf16>, tensor<2x?xf16>
}
// CHECK-LABEL: ge.graph @unknown_shape
// CHECK: %unknown, %unknown_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} :
// REMARK: remark: SplitD 'unknown' not marked: input 0 has unknown shape 4x? (a -1 dim): its offsets are known only at run time (IsUnknownShapeOp)

// -----

// --- IsOwnerGraphUnknown: a dynamic root graph, and the static subgraph it calls ---------

ge.graph @dynamic_root attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %dyn, %dyn_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %call = ge.PartitionedCall(%x) {f = @static_sub} : (tensor<4x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %dyn, %dyn_1, %call : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
ge.graph @static_sub {
  %d = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %static, %static_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %m = ge.Mul(%static, %static_1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %m : tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @dynamic_root
// CHECK: %dyn, %dyn_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} :
// CHECK-LABEL: ge.graph @static_sub
// CHECK: %static, %static_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'dyn' not marked: graph @dynamic_root is dynamic (_dynamic_shape_partitioned or the unknown-shape flag is set) (IsOwnerGraphUnknown)
// REMARK: remark: SplitD 'static' marked no-task; locked producers: r:0

// -----

// --- IsPreNodeTypeValid: a graph input is a fine source (its pieces are only read), a
// Const is not (an immutable address: GE's conflict solver would copy it), also through a
// Reshape; a subgraph input cannot be traced -------------------------------------------

ge.graph @sources {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %from_data, %from_data_1 = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %w = ge.Const {value = dense<1.0> : tensor<4x16xf16>} : tensor<4x16xf16>
  %from_const, %from_const_1 = ge.SplitD(%w) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %w2 = ge.Const {value = dense<2.0> : tensor<64xf16>} : tensor<64xf16>
  %shape = ge.Const {value = dense<[4, 16]> : tensor<2xi64>} : tensor<2xi64>
  %w2r = ge.Reshape(%w2, %shape) : (tensor<64xf16>, tensor<2xi64>) -> tensor<4x16xf16>
  %via_reshape, %via_reshape_1 = ge.SplitD(%w2r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %call = ge.PartitionedCall(%x) {f = @sub_input} : (tensor<4x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %from_data, %from_data_1, %from_const, %from_const_1, %via_reshape, %via_reshape_1, %call : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
ge.graph @sub_input {
  %d = ge.Data {index = 0} : tensor<4x16xf16>
  %untraced, %untraced_1 = ge.SplitD(%d) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %m = ge.Mul(%untraced, %untraced_1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %m : tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @sources
// CHECK: %from_data, %from_data_1 = ge.SplitD(%x) {split_dim = 0, num_split = 2, _no_task = true,
// CHECK: %from_const, %from_const_1 = ge.SplitD(%w) {split_dim = 0, num_split = 2} :
// CHECK: %via_reshape, %via_reshape_1 = ge.SplitD(%w2r) {split_dim = 0, num_split = 2} :
// CHECK-LABEL: ge.graph @sub_input
// CHECK: %untraced, %untraced_1 = ge.SplitD(%d) {split_dim = 0, num_split = 2} :
// REMARK: remark: SplitD 'from_data' marked no-task; locked producers: x:0
// REMARK: remark: SplitD 'from_const' not marked: input 0: producer 'w' is a Const node (an immutable address: GE's conflict solver would copy it for the split anyway) (IsPreNodeTypeValid)
// REMARK: remark: SplitD 'via_reshape' not marked: input 0: producer 'w2' (traced from 'w2r' through ref nodes) is a Const node {{.*}} (IsPreNodeTypeValid)
// REMARK: remark: SplitD 'untraced' not marked: input 0: its source could not be traced (a subgraph input, or 100 ref nodes deep) (IsPreNodeTypeValid)

// -----

// --- IsPreNodeWithSubgraph: the source is a PartitionedCall; a compute op after it is fine

ge.graph @subgraph_source {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %call = ge.PartitionedCall(%x) {f = @relu_sub} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %with_sub, %with_sub_1 = ge.SplitD(%call) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %r = ge.Relu(%call) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %after_sub, %after_sub_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %with_sub, %with_sub_1, %after_sub, %after_sub_1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
ge.graph @relu_sub {
  %d = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Relu(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %y : tensor<4x16xf16>
}
// CHECK-LABEL: ge.graph @subgraph_source
// CHECK: %with_sub, %with_sub_1 = ge.SplitD(%call) {split_dim = 0, num_split = 2} :
// CHECK: %after_sub, %after_sub_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'with_sub' not marked: input 0: producer 'call' has a subgraph (@relu_sub) (IsPreNodeWithSubgraph)
// REMARK: remark: SplitD 'after_sub' marked no-task; locked producers: r:0

// -----

// --- IsPreOutAnchorCanReuse: the producer output is a piece of a no-task concat or pack
// (either lock); a lock on another output of the producer does not count -----------------

ge.graph @locks {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {can_reused_for_concat_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %concat_locked, %concat_locked_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %b = ge.Abs(%x) {can_reused_for_pack_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pack_locked, %pack_locked_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %t0, %t1 = ge.SplitD(%x) {split_dim = 1, num_split = 2, can_reused_for_concat_optimize = [false, true]} : (tensor<4x16xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
  %other_output, %other_output_1 = ge.SplitD(%t1) {split_dim = 0, num_split = 2} : (tensor<4x8xf16>) -> (tensor<2x8xf16>, tensor<2x8xf16>)
  ge.NetOutput %concat_locked, %concat_locked_1, %pack_locked, %pack_locked_1, %t0, %other_output, %other_output_1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<4x8xf16>, tensor<2x8xf16>, tensor<2x8xf16>
}
// CHECK-LABEL: ge.graph @locks
// CHECK: %concat_locked, %concat_locked_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} :
// CHECK: %pack_locked, %pack_locked_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} :
// CHECK: %other_output, %other_output_1 = ge.SplitD(%t1) {split_dim = 0, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'concat_locked' not marked: input 0: output 'a':0 is already a piece of a no-task node's block (can_reused_for_concat_optimize = false) (IsPreOutAnchorCanReuse)
// REMARK: remark: SplitD 'pack_locked' not marked: input 0: output 'b':0 is already a piece of a no-task node's block (can_reused_for_pack_optimize = false) (IsPreOutAnchorCanReuse)
// REMARK: remark: SplitD 'other_output' marked no-task; locked producers: t0:1

// -----

// --- IsPreNodeAttrValid: the producer has a layout of its own (continuous, ref, virtual,
// atomic); a plain producer is fine --------------------------------------------------------

ge.graph @pre_attrs {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {continuous_output = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pre_continuous, %pre_continuous_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %b = ge.Relu(%x) {reference = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pre_ref, %pre_ref_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %c = ge.Relu(%x) {atomic_output_index = [0]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pre_atomic, %pre_atomic_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %d = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pre_plain, %pre_plain_1 = ge.SplitD(%d) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %pre_continuous, %pre_continuous_1, %pre_ref, %pre_ref_1, %pre_atomic, %pre_atomic_1, %pre_plain, %pre_plain_1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @pre_attrs
// CHECK: %pre_continuous, %pre_continuous_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} :
// CHECK: %pre_ref, %pre_ref_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} :
// CHECK: %pre_atomic, %pre_atomic_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2} :
// CHECK: %pre_plain, %pre_plain_1 = ge.SplitD(%d) {split_dim = 0, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'pre_continuous' not marked: input 0: producer 'a' needs continuous memory (continuous_output = true) (IsPreNodeAttrValid)
// REMARK: remark: SplitD 'pre_ref' not marked: input 0: producer 'b' is a ref op (reference = true) (IsPreNodeAttrValid)
// REMARK: remark: SplitD 'pre_atomic' not marked: input 0: producer 'c' has atomic outputs (atomic_output_index = [0]) (IsPreNodeAttrValid)
// REMARK: remark: SplitD 'pre_plain' marked no-task; locked producers: d:0

// -----

// A split of a no-task split's piece: the producer is a virtual op (two chained no-padding
// continuous outputs would get GE's Identity copy). Nodes are visited in order: the first
// split is marked (its consumer is not marked yet), the second sees it.

ge.graph @chained {
  %x = ge.Data {index = 0} : tensor<8x16xf16>
  %r = ge.Relu(%x) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %outer, %outer_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2} : (tensor<8x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %inner, %inner_1 = ge.SplitD(%outer_1) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %outer, %inner, %inner_1 : tensor<4x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @chained
// CHECK: %outer, %outer_1 = ge.SplitD(%r) {split_dim = 0, num_split = 2, _no_task = true,
// CHECK: %inner, %inner_1 = ge.SplitD(%outer_1) {split_dim = 0, num_split = 2} :
// REMARK: remark: SplitD 'outer' marked no-task; locked producers: r:0
// REMARK: remark: SplitD 'inner' not marked: input 0: producer 'outer' is a virtual op (_no_task = true) (IsPreNodeAttrValid)

// -----

// --- IsSameMemType: the input's memory type (its producer's _output_memory_type, special
// or HBM) is every output's ------------------------------------------------------------------

ge.graph @mem_types {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %mem_differs, %mem_differs_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2, _output_memory_type = [2, 17]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %b = ge.Relu(%x) {_output_memory_type = [17]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %mem_same, %mem_same_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2, _output_memory_type = [17, 17]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %c = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %mem_hbm, %mem_hbm_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2, _output_memory_type = [0, 2]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %mem_differs, %mem_differs_1, %mem_same, %mem_same_1, %mem_hbm, %mem_hbm_1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @mem_types
// CHECK: %mem_differs, %mem_differs_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2, _output_memory_type = [2, 17]} :
// CHECK: %mem_same, %mem_same_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2, _output_memory_type = [17, 17], _no_task = true,
// CHECK: %mem_hbm, %mem_hbm_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2, _output_memory_type = [0, 2], _no_task = true,
// REMARK: remark: SplitD 'mem_differs' not marked: output 1 is in memory type 0x11, its input in RT_MEMORY_HBM (IsSameMemType)
// REMARK: remark: SplitD 'mem_same' marked no-task; locked producers: b:0
// REMARK: remark: SplitD 'mem_hbm' marked no-task; locked producers: c:0

// -----

// --- CheckFormat: the outputs in the input's dtype and formats --------------------------

ge.graph @formats {
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %a = ge.Relu(%x) : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %fmt_differs, %fmt_differs_1 = ge.SplitD(%a) {split_dim = 1, num_split = 2} : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>)
  %b = ge.Relu(%x) : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %fmt_same, %fmt_same_1 = ge.SplitD(%b) {split_dim = 1, num_split = 2} : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  ge.NetOutput %fmt_differs, %fmt_differs_1, %fmt_same, %fmt_same_1 : tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}
// CHECK-LABEL: ge.graph @formats
// CHECK: %fmt_differs, %fmt_differs_1 = ge.SplitD(%a) {split_dim = 1, num_split = 2} :
// CHECK: %fmt_same, %fmt_same_1 = ge.SplitD(%b) {split_dim = 1, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'fmt_differs' not marked: output 0: origin format ND differs from the input's NCHW (CheckFormat)
// REMARK: remark: SplitD 'fmt_same' marked no-task; locked producers: b:0

// -----

// --- CheckTensorAlign: every piece a positive multiple of 32 bytes (4x15 f16 pieces are
// 60 bytes; a 0-size SplitVD piece is 0 bytes), unless the split has one output ----------

ge.graph @align {
  %x = ge.Data {index = 0} : tensor<4x15xf16>
  %a = ge.Relu(%x) : (tensor<4x15xf16>) -> tensor<4x15xf16>
  %unaligned, %unaligned_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4x15xf16>) -> (tensor<2x15xf16>, tensor<2x15xf16>)
  %b = ge.Relu(%x) : (tensor<4x15xf16>) -> tensor<4x15xf16>
  %one_piece = ge.SplitD(%b) {split_dim = 0, num_split = 1} : (tensor<4x15xf16>) -> tensor<4x15xf16>
  %y = ge.Data {index = 1} : tensor<4x16xf16>
  %c = ge.Relu(%y) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %empty_piece, %empty_piece_1 = ge.SplitVD(%c) {size_splits = [0, 4], split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<0x16xf16>, tensor<4x16xf16>)
  %d = ge.Relu(%y) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %uneven, %uneven_1 = ge.SplitVD(%d) {size_splits = [1, 3], split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<1x16xf16>, tensor<3x16xf16>)
  ge.NetOutput %unaligned, %unaligned_1, %one_piece, %empty_piece, %empty_piece_1, %uneven, %uneven_1 : tensor<2x15xf16>, tensor<2x15xf16>, tensor<4x15xf16>, tensor<0x16xf16>, tensor<4x16xf16>, tensor<1x16xf16>, tensor<3x16xf16>
}
// CHECK-LABEL: ge.graph @align
// CHECK: %unaligned, %unaligned_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} :
// CHECK: %one_piece = ge.SplitD(%b) {split_dim = 0, num_split = 1, _no_task = true,
// CHECK: %empty_piece, %empty_piece_1 = ge.SplitVD(%c) {size_splits = [0, 4], split_dim = 0, num_split = 2} :
// CHECK: %uneven, %uneven_1 = ge.SplitVD(%d) {size_splits = [1, 3], split_dim = 0, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'unaligned' not marked: output 0: runtime size 60 bytes (ND [2, 15] DT_FLOAT16) is not a positive multiple of 32 (CheckTensorAlign)
// REMARK: remark: SplitD 'one_piece' marked no-task; locked producers: b:0
// REMARK: remark: SplitVD 'empty_piece' not marked: output 0: runtime size 0 bytes (ND [0, 16] DT_FLOAT16) is not a positive multiple of 32 (CheckTensorAlign)
// REMARK: remark: SplitVD 'uneven' marked no-task; locked producers: d:0

// -----

// --- CheckRealDim: only size-1 axes in front of the split axis, in the storage format.
// ND: the dims before split_dim; NC1HWC0 on C (real axis C1): N; on H: N and C1 -----------

ge.graph @front_dims {
  %x = ge.Data {index = 0} : tensor<4x32xf16>
  %a = ge.Relu(%x) : (tensor<4x32xf16>) -> tensor<4x32xf16>
  %front_not_1, %front_not_1_1 = ge.SplitD(%a) {split_dim = 1, num_split = 2} : (tensor<4x32xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %y = ge.Data {index = 1} : tensor<1x4x32xf16>
  %b = ge.Relu(%y) : (tensor<1x4x32xf16>) -> tensor<1x4x32xf16>
  %front_1, %front_1_1 = ge.SplitD(%b) {split_dim = -2, num_split = 2} : (tensor<1x4x32xf16>) -> (tensor<1x2x32xf16>, tensor<1x2x32xf16>)
  %z = ge.Data {index = 2} : tensor<2x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c = ge.Relu(%z) : (tensor<2x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %n_not_1, %n_not_1_1 = ge.SplitD(%c) {split_dim = 1, num_split = 2} : (tensor<2x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<2x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<2x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  %n_split, %n_split_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2} : (tensor<2x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  %w = ge.Data {index = 3} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %d = ge.Relu(%w) : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %h_c1_2, %h_c1_2_1 = ge.SplitD(%d) {split_dim = 2, num_split = 2} : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x32x2x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x2x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  %v = ge.Data {index = 4} : tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %e = ge.Relu(%v) : (tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %h_c1_1, %h_c1_1_1 = ge.SplitD(%e) {split_dim = 2, num_split = 2} : (tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x16x2x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x2x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  ge.NetOutput %front_not_1, %front_1, %n_not_1, %n_split, %h_c1_2, %h_c1_1 : tensor<4x16xf16>, tensor<1x2x32xf16>, tensor<2x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x2x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x2x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}
// CHECK-LABEL: ge.graph @front_dims
// CHECK: %front_not_1, %front_not_1_1 = ge.SplitD(%a) {split_dim = 1, num_split = 2} :
// CHECK: %front_1, %front_1_1 = ge.SplitD(%b) {split_dim = -2, num_split = 2, _no_task = true,
// CHECK: %n_not_1, %n_not_1_1 = ge.SplitD(%c) {split_dim = 1, num_split = 2} :
// CHECK: %n_split, %n_split_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2, _no_task = true,
// CHECK: %h_c1_2, %h_c1_2_1 = ge.SplitD(%d) {split_dim = 2, num_split = 2} :
// CHECK: %h_c1_1, %h_c1_1_1 = ge.SplitD(%e) {split_dim = 2, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'front_not_1' not marked: output 0: runtime dim 0 of [4, 16] is 4; the dims in front of storage axis 1 (origin axis 1) must be 1 (CheckRealDim)
// REMARK: remark: SplitD 'front_1' marked no-task; locked producers: b:0
// REMARK: remark: SplitD 'n_not_1' not marked: output 0: runtime dim 0 of [2, 1, 4, 4, 16] is 2; the dims in front of storage axis 1 (origin axis 1) must be 1 (CheckRealDim)
// REMARK: remark: SplitD 'n_split' marked no-task; locked producers: c:0
// REMARK: remark: SplitD 'h_c1_2' not marked: output 0: runtime dim 1 of [1, 2, 2, 4, 16] is 2; the dims in front of storage axis 2 (origin axis 2) must be 1 (CheckRealDim)
// REMARK: remark: SplitD 'h_c1_1' marked no-task; locked producers: e:0

// -----

// --- CheckDimAlignment: no padding on the split axis (NC1HWC0 f16: each piece's C a
// multiple of C0 = 16; int8: C0 = 32) --------------------------------------------------------

ge.graph @alignment {
  %x = ge.Data {index = 0} : tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %a = ge.Relu(%x) : (tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c_padded, %c_padded_1 = ge.SplitD(%a) {split_dim = 1, num_split = 2} : (tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x24x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x24x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  %b = ge.Relu(%x) : (tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c_whole, %c_whole_1, %c_whole_2 = ge.SplitD(%b) {split_dim = 1, num_split = 3} : (tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>)
  %y = ge.Data {index = 1} : tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>
  %c = ge.Abs(%y) : (tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>
  %int8_c0_32, %int8_c0_32_1 = ge.SplitD(%c) {split_dim = 1, num_split = 2} : (tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x32x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>)
  %d = ge.Abs(%y) : (tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>
  %int8_c16, %int8_c16_1, %int8_c16_2, %int8_c16_3 = ge.SplitD(%d) {split_dim = 1, num_split = 4} : (tensor<1x64x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>) -> (tensor<1x16x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>)
  ge.NetOutput %c_padded, %c_whole, %int8_c0_32, %int8_c16 : tensor<1x24x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x2x2xi8, #ge.desc<NC1HWC0, origin = NCHW>>
}
// CHECK-LABEL: ge.graph @alignment
// CHECK: %c_padded, %c_padded_1 = ge.SplitD(%a) {split_dim = 1, num_split = 2} :
// CHECK: %c_whole, %c_whole_1, %c_whole_2 = ge.SplitD(%b) {split_dim = 1, num_split = 3, _no_task = true,
// CHECK: %int8_c0_32, %int8_c0_32_1 = ge.SplitD(%c) {split_dim = 1, num_split = 2, _no_task = true,
// CHECK: %int8_c16, %int8_c16_1, %int8_c16_2, %int8_c16_3 = ge.SplitD(%d) {split_dim = 1, num_split = 4} :
// REMARK: remark: SplitD 'c_padded' not marked: output 0: origin dim 1 (24) is not a multiple of 16: the storage format pads it (CheckDimAlignment)
// REMARK: remark: SplitD 'c_whole' marked no-task; locked producers: b:0
// REMARK: remark: SplitD 'int8_c0_32' marked no-task; locked producers: c:0
// REMARK: remark: SplitD 'int8_c16' not marked: output 0: origin dim 1 (16) is not a multiple of 32: the storage format pads it (CheckDimAlignment)

// -----

// --- OutputCheck: no consumer of a piece (through one Reshape) is a virtual op, needs
// continuous input or is a ref op; NetOutput and plain kernels are fine ---------------------

ge.graph @consumers {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %to_virtual, %to_virtual_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %v = ge.Relu(%to_virtual_1) {_no_task = true} : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %b = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %to_continuous, %to_continuous_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %ci = ge.Add(%to_continuous, %to_continuous_1) {continuous_input = true} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  %c = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %to_ref, %to_ref_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %rf = ge.Relu(%to_ref) {reference = true} : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %d = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %through_reshape, %through_reshape_1 = ge.SplitD(%d) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %shape = ge.Const {value = dense<[32]> : tensor<1xi64>} : tensor<1xi64>
  %rs = ge.Reshape(%through_reshape, %shape) : (tensor<2x16xf16>, tensor<1xi64>) -> tensor<32xf16>
  %vr = ge.Relu(%rs) {_output_reuse_input = true} : (tensor<32xf16>) -> tensor<32xf16>
  %e = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %plain, %plain_1 = ge.SplitD(%e) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %shape2 = ge.Const {value = dense<[32]> : tensor<1xi64>} : tensor<1xi64>
  %rs2 = ge.Reshape(%plain, %shape2) : (tensor<2x16xf16>, tensor<1xi64>) -> tensor<32xf16>
  %k = ge.Relu(%rs2) : (tensor<32xf16>) -> tensor<32xf16>
  %m = ge.Mul(%plain_1, %plain_1) : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %to_virtual, %v, %ci, %to_ref_1, %rf, %through_reshape_1, %vr, %k, %m, %plain_1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<32xf16>, tensor<32xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @consumers
// CHECK: %to_virtual, %to_virtual_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2} :
// CHECK: %to_continuous, %to_continuous_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} :
// CHECK: %to_ref, %to_ref_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2} :
// CHECK: %through_reshape, %through_reshape_1 = ge.SplitD(%d) {split_dim = 0, num_split = 2} :
// CHECK: %plain, %plain_1 = ge.SplitD(%e) {split_dim = 0, num_split = 2, _no_task = true,
// REMARK: remark: SplitD 'to_virtual' not marked: output 1 is read by 'v', which needs its own layout or writes in place (_no_task = true) (OutputCheck)
// REMARK: remark: SplitD 'to_continuous' not marked: output 0 is read by 'ci', which needs its own layout or writes in place (continuous_input = true) (OutputCheck)
// REMARK: remark: SplitD 'to_ref' not marked: output 0 is read by 'rf', which needs its own layout or writes in place (reference = true) (OutputCheck)
// REMARK: remark: SplitD 'through_reshape' not marked: output 0 is read by 'vr' (through Reshape 'rs'), which needs its own layout or writes in place (_output_reuse_input = true) (OutputCheck)
// REMARK: remark: SplitD 'plain' marked no-task; locked producers: e:0

// -----

// --- LxFusionCheck: L1 / L2 / UB in the split's memory-type lists, "lxslice" in its name

ge.graph @lx_fusion {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %in_l1, %in_l1_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2, _input_memory_type = [65536]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %b = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %split_lxslice, %split_lxslice_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %c = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %hbm, %hbm_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2, _input_memory_type = [2], name = "split_slice"} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  ge.NetOutput %in_l1, %in_l1_1, %split_lxslice, %split_lxslice_1, %hbm, %hbm_1 : tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @lx_fusion
// CHECK: %in_l1, %in_l1_1 = ge.SplitD(%a) {split_dim = 0, num_split = 2, _input_memory_type = [65536]} :
// CHECK: %split_lxslice, %split_lxslice_1 = ge.SplitD(%b) {split_dim = 0, num_split = 2} :
// CHECK: %hbm, %hbm_1 = ge.SplitD(%c) {split_dim = 0, num_split = 2, _input_memory_type = [2], name = "split_slice", _no_task = true,
// REMARK: remark: SplitD 'in_l1' not marked: _input_memory_type has RT_MEMORY_L1 (an LxFusion buffer) (LxFusionCheck)
// REMARK: remark: SplitD 'split_lxslice' not marked: its name contains 'lxslice' (an LxFusion op) (LxFusionCheck)
// REMARK: remark: SplitD 'split_slice' marked no-task; locked producers: c:0
