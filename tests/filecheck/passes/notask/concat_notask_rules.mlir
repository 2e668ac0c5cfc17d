// ConcatNotaskPass, rule by rule (docs/ge/notask.md): for each rule a case marked only
// because the rule passes, next to its twin rejected by that rule. Tensors are ND f16
// 4x16 (128 bytes, a multiple of 32) unless a case says otherwise; producers are compute
// ops (Relu/Abs) so only the rule under test decides. Remarks name the deciding rule.
// RUN: ge-opt %s --split-input-file -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// The seed's AllGather + Concat example: the concat is marked and both all-gathers locked.
// RUN: ge-opt %examples/allgather_concat.mlir -p ge-concat-notask --remarks 2>&1 | filecheck %s --check-prefix=EXAMPLE
// EXAMPLE: allgather_concat.mlir:17:3: remark: ConcatD 'batch' marked no-task; locked producers: ga:0, gb:0
// EXAMPLE: %ga = ge.HcomAllGather(%sa) {rank_size = 8, group = "hccl_world_group", can_reused_for_concat_optimize = [false]} :
// EXAMPLE: %gb = ge.HcomAllGather(%sb) {rank_size = 8, group = "hccl_world_group", can_reused_for_concat_optimize = [false]} :
// EXAMPLE: %batch = ge.ConcatD(%ga, %gb) {concat_dim = 0, N = 2, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :

// --- ShouldSkipGraph: _single_op_scene on the graph -----------------------------------

ge.graph @single_op_graph attributes {_single_op_scene = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %skip_single = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %skip_single : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @single_op_graph
// CHECK: %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %skip_single = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'skip_single' not marked: graph @single_op_graph is a single-op scene (_single_op_scene = true) (ShouldSkipGraph)

// -----

ge.graph @not_single_op_graph attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ok_single = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %ok_single : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @not_single_op_graph
// CHECK: %a = ge.Relu(%x) {can_reused_for_concat_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %b = ge.Abs(%x) {can_reused_for_concat_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %ok_single = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
// REMARK: remark: ConcatD 'ok_single' marked no-task; locked producers: a:0, b:0

// -----

// --- ShouldSkipGraph: _single_op_scene carried by a node (the first carrier decides) ----

ge.graph @single_op_node {
  %x = ge.Data {index = 0, _single_op_scene = true} : tensor<4x16xf16>
  %a = ge.Relu(%x) {_single_op_scene = false} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %skip_node = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %skip_node : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @single_op_node
// CHECK: %skip_node = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'skip_node' not marked: graph @single_op_node is a single-op scene (_single_op_scene = true) (ShouldSkipGraph)

// -----

ge.graph @single_op_node_first_false {
  %x = ge.Data {index = 0, _single_op_scene = false} : tensor<4x16xf16>
  %a = ge.Relu(%x) {_single_op_scene = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ok_node = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %ok_node : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @single_op_node_first_false
// CHECK: %ok_node = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'ok_node' marked no-task; locked producers: a:0, b:0

// -----

// --- ShouldSkipGraph: _memory_discontiguous_allocation --------------------------------

ge.graph @discontiguous attributes {_memory_discontiguous_allocation = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %skip_disc = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %skip_disc : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @discontiguous
// CHECK: %skip_disc = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'skip_disc' not marked: graph @discontiguous allocates memory discontiguously (_memory_discontiguous_allocation = true) (ShouldSkipGraph)

// -----

ge.graph @contiguous attributes {_memory_discontiguous_allocation = false} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ok_disc = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %ok_disc : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @contiguous
// CHECK: %ok_disc = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'ok_disc' marked no-task; locked producers: a:0, b:0

// -----

// --- IsUnknownShapeOp -----------------------------------------------------------------

ge.graph @unknown_shape {
  %x = ge.Data {index = 0} : tensor<4x?xf16>
  %a = ge.Relu(%x) : (tensor<4x?xf16>) -> tensor<4x?xf16>
  %b = ge.Abs(%x) : (tensor<4x?xf16>) -> tensor<4x?xf16>
  %unknown = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<8x?xf16>
  ge.NetOutput %unknown : tensor<8x?xf16>
}
// CHECK-LABEL: ge.graph @unknown_shape
// CHECK: %unknown = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'unknown' not marked: input 0 has unknown shape 4x? (a -1 dim): its offsets are known only at run time (IsUnknownShapeOp)

// -----

// --- IsOwnerGraphUnknown: a dynamic root graph is rejected, a static subgraph it calls
// is not (GE ST dynamic_graph_with_concat_in_static_subgraph_success) -------------------

ge.graph @dynamic_root attributes {_dynamic_shape_partitioned = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %dyn = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %call = ge.PartitionedCall(%x) {f = @static_sub} : (tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %dyn, %call : tensor<8x16xf16>, tensor<8x16xf16>
}
ge.graph @static_sub {
  %d = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %static = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %static : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @dynamic_root
// CHECK: %dyn = ge.ConcatD(%a, %b) {concat_dim = 0} :
// CHECK-LABEL: ge.graph @static_sub
// CHECK: %static = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'dyn' not marked: graph @dynamic_root is dynamic (_dynamic_shape_partitioned or the unknown-shape flag is set) (IsOwnerGraphUnknown)
// REMARK: remark: ConcatD 'static' marked no-task; locked producers: a:0, b:0

// -----

ge.graph @unknown_flag attributes {_graph_unknown_flag = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %flagged = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %flagged : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @unknown_flag
// CHECK: %flagged = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'flagged' not marked: graph @unknown_flag is dynamic {{.*}} (IsOwnerGraphUnknown)

// -----

// --- CheckTensorAlign: 4x15 f16 = 120 bytes; a single-input concat is exempt -----------

ge.graph @unaligned {
  %x = ge.Data {index = 0} : tensor<4x15xf16>
  %a = ge.Relu(%x) : (tensor<4x15xf16>) -> tensor<4x15xf16>
  %b = ge.Abs(%x) : (tensor<4x15xf16>) -> tensor<4x15xf16>
  %unaligned = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x15xf16>, tensor<4x15xf16>) -> tensor<8x15xf16>
  ge.NetOutput %unaligned : tensor<8x15xf16>
}
// CHECK-LABEL: ge.graph @unaligned
// CHECK: %unaligned = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'unaligned' not marked: input 0: runtime size 120 bytes (ND [4, 15] DT_FLOAT16) is not a positive multiple of 32 (CheckTensorAlign)

// -----

ge.graph @unaligned_single_input {
  %x = ge.Data {index = 0} : tensor<4x15xf16>
  %a = ge.Relu(%x) : (tensor<4x15xf16>) -> tensor<4x15xf16>
  %single = ge.ConcatD(%a) {concat_dim = 0} : (tensor<4x15xf16>) -> tensor<4x15xf16>
  ge.NetOutput %single : tensor<4x15xf16>
}
// CHECK-LABEL: ge.graph @unaligned_single_input
// CHECK: %single = ge.ConcatD(%a) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'single' marked no-task; locked producers: a:0

// -----

// --- HasSameSourceAnchor: the same tensor twice, directly or through a Reshape ---------

ge.graph @same_anchor {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %same = ge.ConcatD(%a, %a) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %same : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @same_anchor
// CHECK: %same = ge.ConcatD(%a, %a) {concat_dim = 0} :
// REMARK: remark: ConcatD 'same' not marked: input 1: traces to the same source 'a':0 as an earlier input (HasSameSourceAnchor)

// -----

ge.graph @same_anchor_through_reshape {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %r = ge.Reshape(%a) : (tensor<4x16xf16>) -> tensor<2x32xf16>
  %rs = ge.Reshape(%r) : (tensor<2x32xf16>) -> tensor<4x16xf16>
  %same_rs = ge.ConcatD(%rs, %a) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %same_rs : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @same_anchor_through_reshape
// CHECK: %same_rs = ge.ConcatD(%rs, %a) {concat_dim = 0} :
// REMARK: remark: ConcatD 'same_rs' not marked: input 1: traces to the same source 'a':0 as an earlier input (HasSameSourceAnchor)

// -----

// Twin: a Reshape of a compute op is traced to it (valid type); the lock lands on the
// Reshape's output, the direct producer (GE UT allgather_connect_to_concat_reshape).
ge.graph @reshape_of_other_tensor {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %rs = ge.Reshape(%a) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ok_rs = ge.ConcatD(%rs, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %ok_rs : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @reshape_of_other_tensor
// CHECK: %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %rs = ge.Reshape(%a) {can_reused_for_concat_optimize = [false]} :
// CHECK: %ok_rs = ge.ConcatD(%rs, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'ok_rs' marked no-task; locked producers: rs:0, b:0

// -----

// --- IsPreNodeTypeValid: a Data source, directly or through a Reshape -----------------

ge.graph @data_input {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %from_data = ge.ConcatD(%a, %x) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %from_data : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @data_input
// CHECK: %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %from_data = ge.ConcatD(%a, %x) {concat_dim = 0} :
// REMARK: remark: ConcatD 'from_data' not marked: input 1: producer 'x' is a Data node (IsPreNodeTypeValid)

// -----

ge.graph @data_through_reshape {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %rx = ge.Reshape(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %data_rs = ge.ConcatD(%a, %rx) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %data_rs : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @data_through_reshape
// CHECK: %data_rs = ge.ConcatD(%a, %rx) {concat_dim = 0} :
// REMARK: remark: ConcatD 'data_rs' not marked: input 1: producer 'x' (traced from 'rx' through ref nodes) is a Data node (IsPreNodeTypeValid)

// -----

ge.graph @const_input {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %k = ge.Const {value = dense<1.0> : tensor<4x16xf16>} : tensor<4x16xf16>
  %from_const = ge.ConcatD(%a, %k) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %from_const : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @const_input
// CHECK: %from_const = ge.ConcatD(%a, %k) {concat_dim = 0} :
// REMARK: remark: ConcatD 'from_const' not marked: input 1: producer 'k' is a Const node (IsPreNodeTypeValid)

// -----

// --- IsPreNodeWithSubgraph: the source is a PartitionedCall; a compute op after it is fine

ge.graph @call_input {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %call = ge.PartitionedCall(%x) {f = @relu_sub} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %from_call = ge.ConcatD(%a, %call) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %n = ge.Neg(%call) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %after_call = ge.ConcatD(%a, %n) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %from_call, %after_call : tensor<8x16xf16>, tensor<8x16xf16>
}
ge.graph @relu_sub {
  %d = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %r : tensor<4x16xf16>
}
// CHECK-LABEL: ge.graph @call_input
// CHECK: %from_call = ge.ConcatD(%a, %call) {concat_dim = 0} :
// CHECK: %after_call = ge.ConcatD(%a, %n) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'from_call' not marked: input 1: producer 'call' has a subgraph (@relu_sub) (IsPreNodeWithSubgraph)
// REMARK: remark: ConcatD 'after_call' marked no-task; locked producers: a:0, n:0

// -----

// --- IsPreOutAnchorCanReuse: a locked output; the Pack lock does not block a Concat ------

ge.graph @locked {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {can_reused_for_concat_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %locked = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %locked : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @locked
// CHECK: %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %locked = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'locked' not marked: input 0: output 'a':0 is already locked by another no-task node (can_reused_for_concat_optimize = false) (IsPreOutAnchorCanReuse)

// -----

ge.graph @pack_locked {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {can_reused_for_concat_optimize = [true], can_reused_for_pack_optimize = [false]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pack_locked = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %pack_locked : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @pack_locked
// CHECK: %a = ge.Relu(%x) {can_reused_for_concat_optimize = [false], can_reused_for_pack_optimize = [false]} :
// CHECK: %pack_locked = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'pack_locked' marked no-task; locked producers: a:0, b:0

// -----

// Shared producer: %a feeds two concats; the first in node order wins, the second finds
// the lock the first one set.
ge.graph @shared_producer {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %d = ge.Neg(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %first = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %second = ge.ConcatD(%d, %a) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %first, %second : tensor<8x16xf16>, tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @shared_producer
// CHECK: %a = ge.Relu(%x) {can_reused_for_concat_optimize = [false]} :
// CHECK: %d = ge.Neg(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK: %first = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// CHECK: %second = ge.ConcatD(%d, %a) {concat_dim = 0} :
// REMARK: remark: ConcatD 'first' marked no-task; locked producers: a:0, b:0
// REMARK: remark: ConcatD 'second' not marked: input 1: output 'a':0 is already locked by another no-task node (can_reused_for_concat_optimize = false) (IsPreOutAnchorCanReuse)

// -----

// --- IsPreOutAnchorValidMultiRef: several consumers, one NetOutput; twin: several
// consumers without NetOutput (GE UT pre_node_connect_output / pre_node_connect_relu) ---

ge.graph @multi_ref_netoutput {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %to_out = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %to_out, %b : tensor<8x16xf16>, tensor<4x16xf16>
}
// CHECK-LABEL: ge.graph @multi_ref_netoutput
// CHECK: %to_out = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'to_out' not marked: input 1: output 'b':0 has several consumers and one is NetOutput (IsPreOutAnchorValidMultiRef)

// -----

ge.graph @multi_ref_compute {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %to_relu = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %r = ge.Relu(%b) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %to_relu, %r : tensor<8x16xf16>, tensor<4x16xf16>
}
// CHECK-LABEL: ge.graph @multi_ref_compute
// CHECK: %to_relu = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'to_relu' marked no-task; locked producers: a:0, b:0

// -----

// --- IsPreNodeAttrValid (one case per attribute; twins with the attribute false) -------

ge.graph @pre_attrs {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %p1 = ge.Relu(%x) {continuous_input = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c1 = ge.ConcatD(%b, %p1) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %p2 = ge.Relu(%x) {continuous_output = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c2 = ge.ConcatD(%b, %p2) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %p3 = ge.Relu(%x) {reference = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c3 = ge.ConcatD(%b, %p3) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %p4 = ge.Relu(%x) {_no_task = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c4 = ge.ConcatD(%b, %p4) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %p5 = ge.Relu(%x) {_output_reuse_input = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c5 = ge.ConcatD(%b, %p5) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %p6 = ge.Relu(%x) {_no_padding_continuous_input = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c6 = ge.ConcatD(%b, %p6) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %p7 = ge.Relu(%x) {atomic_output_index = [0]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c7 = ge.ConcatD(%b, %p7) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %c1, %c2, %c3, %c4, %c5, %c6, %c7 : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>
}
// Relu's ports are x -> y, so `reference` on %p3 does not make it a ref node: tracing stops
// at %p3 (a valid source) and this rule rejects it. Each concat is rejected before SetNotaskAttr, so %b, shared by all, is never locked.
// CHECK-LABEL: ge.graph @pre_attrs
// CHECK-NOT: _no_task = true, _no_padding
// CHECK: ge.NetOutput
// REMARK: remark: ConcatD 'c1' not marked: input 1: producer 'p1' needs continuous memory (continuous_input = true) (IsPreNodeAttrValid)
// REMARK: remark: ConcatD 'c2' not marked: input 1: producer 'p2' needs continuous memory (continuous_output = true) (IsPreNodeAttrValid)
// REMARK: remark: ConcatD 'c3' not marked: input 1: producer 'p3' is a ref op (reference = true) (IsPreNodeAttrValid)
// REMARK: remark: ConcatD 'c4' not marked: input 1: producer 'p4' is a virtual op (_no_task = true) (IsPreNodeAttrValid)
// REMARK: remark: ConcatD 'c5' not marked: input 1: producer 'p5' is a virtual op (_output_reuse_input = true) (IsPreNodeAttrValid)
// REMARK: remark: ConcatD 'c6' not marked: input 1: producer 'p6' is a virtual op (_no_padding_continuous_input = true) (IsPreNodeAttrValid)
// REMARK: remark: ConcatD 'c7' not marked: input 1: producer 'p7' has atomic outputs (atomic_output_index = [0]) (IsPreNodeAttrValid)

// -----

ge.graph @pre_attrs_false {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %p = ge.Relu(%x) {continuous_input = false, continuous_output = false, reference = false, _no_task = false, _output_reuse_input = false, _no_padding_continuous_input = false, atomic_output_index = []} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %attrs_false = ge.ConcatD(%b, %p) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %attrs_false : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @pre_attrs_false
// CHECK: %attrs_false = ge.ConcatD(%b, %p) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'attrs_false' marked no-task; locked producers: b:0, p:0

// -----

// Chained concats: A feeds B. A comes first, is marked, and is then a virtual op for B.
ge.graph @chained {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<8x16xf16>
  %d = ge.Neg(%y) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %A = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %B = ge.ConcatD(%A, %d) {concat_dim = 0} : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<16x16xf16>
  ge.NetOutput %B : tensor<16x16xf16>
}
// CHECK-LABEL: ge.graph @chained
// CHECK: %A = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
// CHECK: %B = ge.ConcatD(%A, %d) {concat_dim = 0} :
// REMARK: remark: ConcatD 'A' marked no-task; locked producers: a:0, b:0
// REMARK: remark: ConcatD 'B' not marked: input 0: producer 'A' is a virtual op (_no_task = true) (IsPreNodeAttrValid)

// -----

// --- IsSameInputMemType: L1 next to HBM; twin: DDR is not special (reads as HBM), and two
// L1 inputs agree (the concat's own lists are LxFusionCheck's business, not this rule's) --

ge.graph @mem_type_mixed {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) {_output_memory_type = [65536]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %mixed = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %mixed : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @mem_type_mixed
// CHECK: %mixed = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'mixed' not marked: input 1: memory type RT_MEMORY_L1 differs from the earlier inputs' RT_MEMORY_HBM (IsSameInputMemType)

// -----

ge.graph @mem_type_same {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) {_output_memory_type = [4]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ddr_hbm = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %c = ge.Neg(%x) {_output_memory_type = [65536]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %d = ge.Exp(%x) {_output_memory_type = [65536]} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %l1_l1 = ge.ConcatD(%c, %d) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %ddr_hbm, %l1_l1 : tensor<8x16xf16>, tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @mem_type_same
// CHECK: %ddr_hbm = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// CHECK: %l1_l1 = ge.ConcatD(%c, %d) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'ddr_hbm' marked no-task; locked producers: a:0, b:0
// REMARK: remark: ConcatD 'l1_l1' marked no-task; locked producers: c:0, d:0

// -----

// --- CheckDim: a negative concat_dim is normalised by the origin rank (-1 on rank 2 is
// axis 1, so the front-dims rule applies to runtime dim 0 = 1); absent means 0. An
// out-of-range concat_dim does not verify in the ge dialect, so GE's range assert is
// tested in tests/passes/notask/test_notask_rules.py on an unverified op. ---------------------------

ge.graph @dim_range {
  %x = ge.Data {index = 0} : tensor<1x16xf16>
  %a = ge.Relu(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %b = ge.Abs(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %d = ge.Neg(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %e = ge.Exp(%x) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %minus1 = ge.ConcatD(%a, %b) {concat_dim = -1} : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x32xf16>
  %no_dim = ge.ConcatD(%d, %e) : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %minus1, %no_dim : tensor<1x32xf16>, tensor<2x16xf16>
}
// CHECK-LABEL: ge.graph @dim_range
// CHECK: %minus1 = ge.ConcatD(%a, %b) {concat_dim = -1, _no_task = true,
// CHECK: %no_dim = ge.ConcatD(%d, %e) {_no_task = true,
// REMARK: remark: ConcatD 'minus1' marked no-task; locked producers: a:0, b:0
// REMARK: remark: ConcatD 'no_dim' marked no-task; locked producers: d:0, e:0

// -----

// --- CheckRealDim, front-dims rule: runtime dims before the concat axis must be 1 -------

ge.graph @front_dims {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %front = ge.ConcatD(%a, %b) {concat_dim = 1} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x32xf16>
  %y = ge.Data {index = 1} : tensor<1x16xf16>
  %c = ge.Relu(%y) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %d = ge.Abs(%y) : (tensor<1x16xf16>) -> tensor<1x16xf16>
  %front_ok = ge.ConcatD(%c, %d) {concat_dim = 1} : (tensor<1x16xf16>, tensor<1x16xf16>) -> tensor<1x32xf16>
  ge.NetOutput %front, %front_ok : tensor<4x32xf16>, tensor<1x32xf16>
}
// CHECK-LABEL: ge.graph @front_dims
// CHECK: %front = ge.ConcatD(%a, %b) {concat_dim = 1} :
// CHECK: %front_ok = ge.ConcatD(%c, %d) {concat_dim = 1, _no_task = true,
// REMARK: remark: ConcatD 'front' not marked: input 0: runtime dim 0 of [4, 16] is 4; the dims in front of storage axis 1 (origin axis 1) must be 1 (CheckRealDim)
// REMARK: remark: ConcatD 'front_ok' marked no-task; locked producers: c:0, d:0

// -----

// NC1HWC0 (GE UT 13 / 23): concat on C, real axis C1; runtime N in front must be 1.
ge.graph @nc1hwc0_front {
  %x = ge.Data {index = 0} : tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %a = ge.Relu(%x) : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %b = ge.Abs(%x) : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c_ok = ge.ConcatD(%a, %b) {concat_dim = 1} : (tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %y = ge.Data {index = 1} : tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c = ge.Relu(%y) : (tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %d = ge.Abs(%y) : (tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %n2 = ge.ConcatD(%c, %d) {concat_dim = 1} : (tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<2x32x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %c_ok, %n2 : tensor<1x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<2x64x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}
// CHECK-LABEL: ge.graph @nc1hwc0_front
// CHECK: %c_ok = ge.ConcatD(%a, %b) {concat_dim = 1, _no_task = true,
// CHECK: %n2 = ge.ConcatD(%c, %d) {concat_dim = 1} :
// REMARK: remark: ConcatD 'c_ok' marked no-task; locked producers: a:0, b:0
// REMARK: remark: ConcatD 'n2' not marked: input 0: runtime dim 0 of [2, 2, 16, 16, 16] is 2; the dims in front of storage axis 1 (origin axis 1) must be 1 (CheckRealDim)

// -----

// --- CheckRealDim, merged-axis rule (HWCN -> FRACTAL_Z, C1HW lists C, H, W): concat on W
// needs H == 1 in front of it; concat on H needs C <= C0 (CheckSplitAxis) --------------

ge.graph @fz_merged {
  %x = ge.Data {index = 0} : tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %a = ge.Relu(%x) : (tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %b = ge.Abs(%x) : (tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %w_h1 = ge.ConcatD(%a, %b) {concat_dim = 1} : (tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<1x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x4x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %y = ge.Data {index = 1} : tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %c = ge.Relu(%y) : (tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %d = ge.Abs(%y) : (tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %w_h2 = ge.ConcatD(%c, %d) {concat_dim = 1} : (tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<2x2x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<2x4x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %z = ge.Data {index = 2} : tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %e = ge.Relu(%z) : (tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %f = ge.Abs(%z) : (tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %h_c32 = ge.ConcatD(%e, %f) {concat_dim = 0} : (tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<1x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<2x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %v = ge.Data {index = 3} : tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %g = ge.Relu(%v) : (tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %h = ge.Abs(%v) : (tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  %h_c16 = ge.ConcatD(%g, %h) {concat_dim = 0} : (tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<1x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>) -> tensor<2x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
  ge.NetOutput %w_h1, %w_h2, %h_c32, %h_c16 : tensor<1x4x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<2x4x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<2x1x32x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>, tensor<2x1x16x16xf16, #ge.desc<FRACTAL_Z, origin = HWCN>>
}
// CHECK-LABEL: ge.graph @fz_merged
// CHECK: %w_h1 = ge.ConcatD(%a, %b) {concat_dim = 1, _no_task = true,
// CHECK: %w_h2 = ge.ConcatD(%c, %d) {concat_dim = 1} :
// CHECK: %h_c32 = ge.ConcatD(%e, %f) {concat_dim = 0} :
// CHECK: %h_c16 = ge.ConcatD(%g, %h) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'w_h1' marked no-task; locked producers: a:0, b:0
// REMARK: remark: ConcatD 'w_h2' not marked: input 0: origin axis 0 is 2, must be 1: it comes before axis 1 in merged storage axis 0 (CheckRealDim)
// REMARK: remark: ConcatD 'h_c32' not marked: input 0: origin axis 2 (32) is larger than 16, and its outer part sits before axis 0 in merged storage axis 0 (CheckRealDim)
// REMARK: remark: ConcatD 'h_c16' marked no-task; locked producers: g:0, h:0

// -----

// --- GetAlignedShape / TransferDims: formats the transformer rules cannot map ---------

ge.graph @no_mapping {
  %x = ge.Data {index = 0} : tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>
  %a = ge.Relu(%x) : (tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>) -> tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>
  %b = ge.Abs(%x) : (tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>) -> tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>
  %nd_5hd = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>, tensor<1x32x1x16xf16, #ge.desc<NC1HWC0>>) -> tensor<2x32x1x16xf16, #ge.desc<NC1HWC0>>
  %y = ge.Data {index = 1} : tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>
  %c = ge.Relu(%y) : (tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>) -> tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>
  %d = ge.Abs(%y) : (tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>) -> tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>
  %nchw_nd = ge.ConcatD(%c, %d) {concat_dim = 0} : (tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>, tensor<1x1x2x16xf16, #ge.desc<ND, origin = NCHW>>) -> tensor<2x1x2x16xf16, #ge.desc<ND, origin = NCHW>>
  %z = ge.Data {index = 2} : tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %e = ge.Relu(%z) : (tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %f = ge.Abs(%z) : (tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>
  %nchw_nchw = ge.ConcatD(%e, %f) {concat_dim = 0} : (tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>, tensor<1x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>) -> tensor<2x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>
  ge.NetOutput %nd_5hd, %nchw_nd, %nchw_nchw : tensor<2x32x1x16xf16, #ge.desc<NC1HWC0>>, tensor<2x1x2x16xf16, #ge.desc<ND, origin = NCHW>>, tensor<2x1x2x16xf16, #ge.desc<NCHW, origin = NCHW>>
}
// CHECK-LABEL: ge.graph @no_mapping
// CHECK: %nd_5hd = ge.ConcatD(%a, %b) {concat_dim = 0} :
// CHECK: %nchw_nd = ge.ConcatD(%c, %d) {concat_dim = 0} :
// CHECK: %nchw_nchw = ge.ConcatD(%e, %f) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'nd_5hd' not marked: input 0: no aligned shape for origin ND [1, 32, 1, 16] stored as NC1HWC0 (GetAlignedShape)
// REMARK: remark: ConcatD 'nchw_nd' not marked: input 0: no axis mapping for origin NCHW [1, 1, 2, 16] stored as ND [1, 1, 2, 16] (TransferDims)
// REMARK: remark: ConcatD 'nchw_nchw' marked no-task; locked producers: e:0, f:0

// -----

// --- CheckDimAlignment: NCHW -> NC1HWC0 on C needs C % C0 == 0 (GE UT 13 / 18) ---------

ge.graph @c0_alignment {
  %x = ge.Data {index = 0} : tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %a = ge.Relu(%x) : (tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %b = ge.Abs(%x) : (tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c31 = ge.ConcatD(%a, %b) {concat_dim = 1} : (tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x62x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %n31 = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<2x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %c31, %n31 : tensor<1x62x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<2x31x16x16xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}
// Concat on N needs no alignment (align 1), so the same C=31 tensors are fine there.
// CHECK-LABEL: ge.graph @c0_alignment
// CHECK: %c31 = ge.ConcatD(%a, %b) {concat_dim = 1} :
// CHECK: %n31 = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'c31' not marked: input 0: origin dim 1 (31) is not a multiple of 16: the storage format pads it (CheckDimAlignment)
// REMARK: remark: ConcatD 'n31' marked no-task; locked producers: a:0, b:0

// -----

// --- OutputCheck: a virtual consumer, directly or through one Reshape (its first
// consumer); a second Reshape level is not looked through ------------------------------

ge.graph @output_virtual {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %to_virtual = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %v = ge.Relu(%to_virtual) {_no_task = true} : (tensor<8x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %v : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @output_virtual
// CHECK: %to_virtual = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'to_virtual' not marked: consumer 'v' is a virtual op (_no_task = true) (OutputCheck)

// -----

ge.graph @output_virtual_through_reshape {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %via_reshape = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %reshape = ge.Reshape(%via_reshape) : (tensor<8x16xf16>) -> tensor<128xf16>
  %relu1 = ge.Relu(%reshape) {_output_reuse_input = true} : (tensor<128xf16>) -> tensor<128xf16>
  %other = ge.Abs(%reshape) : (tensor<128xf16>) -> tensor<128xf16>
  ge.NetOutput %relu1, %other : tensor<128xf16>, tensor<128xf16>
}
// CHECK-LABEL: ge.graph @output_virtual_through_reshape
// CHECK: %via_reshape = ge.ConcatD(%a, %b) {concat_dim = 0} :
// REMARK: remark: ConcatD 'via_reshape' not marked: consumer 'relu1' (through Reshape 'reshape') is a virtual op (_output_reuse_input = true) (OutputCheck)

// -----

ge.graph @output_virtual_second_consumer {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %first_ok = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %reshape = ge.Reshape(%first_ok) : (tensor<8x16xf16>) -> tensor<128xf16>
  %relu1 = ge.Relu(%reshape) : (tensor<128xf16>) -> tensor<128xf16>
  %virtual = ge.Abs(%reshape) {_no_task = true} : (tensor<128xf16>) -> tensor<128xf16>
  %reshape2 = ge.Reshape(%reshape) : (tensor<128xf16>) -> tensor<8x16xf16>
  ge.NetOutput %relu1, %virtual, %reshape2 : tensor<128xf16>, tensor<128xf16>, tensor<8x16xf16>
}
// Only the Reshape's first consumer (relu1) is looked at.
// CHECK-LABEL: ge.graph @output_virtual_second_consumer
// CHECK: %first_ok = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'first_ok' marked no-task; locked producers: a:0, b:0

// -----

ge.graph @output_two_reshapes {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %two_levels = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %r1 = ge.Reshape(%two_levels) : (tensor<8x16xf16>) -> tensor<128xf16>
  %r2 = ge.Reshape(%r1) : (tensor<128xf16>) -> tensor<8x16xf16>
  %v = ge.Relu(%r2) {_no_task = true} : (tensor<8x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %v : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @output_two_reshapes
// CHECK: %two_levels = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'two_levels' marked no-task; locked producers: a:0, b:0

// -----

// --- LxFusionCheck: L1 / L2 / UB in the concat's own memory-type lists, "lxslice" in
// its name; HBM lists and other names pass -------------------------------------------

ge.graph @lx_fusion {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %in_l1 = ge.ConcatD(%a, %b) {concat_dim = 0, _input_memory_type = [65536, 65536]} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %out_l2 = ge.ConcatD(%a, %b) {concat_dim = 0, _output_memory_type = [131072]} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %out_ub = ge.ConcatD(%a, %b) {concat_dim = 0, _output_memory_type = [32768]} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %concat_lxslice = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %hbm = ge.ConcatD(%a, %b) {concat_dim = 0, _input_memory_type = [2, 2], _output_memory_type = [2], name = "concat_slice"} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %in_l1, %out_l2, %out_ub, %concat_lxslice, %hbm : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @lx_fusion
// CHECK: %in_l1 = ge.ConcatD(%a, %b) {concat_dim = 0, _input_memory_type = [65536, 65536]} :
// CHECK: %out_l2 = ge.ConcatD(%a, %b) {concat_dim = 0, _output_memory_type = [131072]} :
// CHECK: %out_ub = ge.ConcatD(%a, %b) {concat_dim = 0, _output_memory_type = [32768]} :
// CHECK: %concat_lxslice = ge.ConcatD(%a, %b) {concat_dim = 0} :
// CHECK: %hbm = ge.ConcatD(%a, %b) {concat_dim = 0, _input_memory_type = [2, 2], _output_memory_type = [2], name = "concat_slice", _no_task = true,
// REMARK: remark: ConcatD 'in_l1' not marked: _input_memory_type has RT_MEMORY_L1 (an LxFusion buffer) (LxFusionCheck)
// REMARK: remark: ConcatD 'out_l2' not marked: _output_memory_type has RT_MEMORY_L2 (an LxFusion buffer) (LxFusionCheck)
// REMARK: remark: ConcatD 'out_ub' not marked: _output_memory_type has RT_MEMORY_UB (an LxFusion buffer) (LxFusionCheck)
// REMARK: remark: ConcatD 'concat_lxslice' not marked: its name contains 'lxslice' (an LxFusion op) (LxFusionCheck)
// REMARK: remark: ConcatD 'concat_slice' marked no-task; locked producers: a:0, b:0

// -----

// --- Ref tracing (GraphUtils::IsRefFromInput). Each pair: the ref makes two inputs share
// a source (HasSameSourceAnchor), its twin without the ref is marked. Merge has no ge
// dialect op, so only Reshape represents rule (b), tested above. ------------------------

// (c) `reference` = true refs an input only through ports named alike (GE: the output name
// equals an input name). No ge dialect op has such ports (Identity: x -> y), so a
// `reference` node in the middle is a source of its own, and the concat is marked.
ge.graph @ref_reference {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %ref = ge.Identity(%a) {reference = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %rs = ge.Reshape(%ref) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %via_ref = ge.ConcatD(%rs, %a) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %via_ref : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @ref_reference
// CHECK: %via_ref = ge.ConcatD(%rs, %a) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'via_ref' marked no-task; locked producers: rs:0, a:0

// -----

// (d) the output's reuse-input flag with its reuse index (reuse_input / reuse_input_index).
ge.graph @ref_reuse_input {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %reuse1 = ge.Add(%a, %b) {reuse_input = [true], reuse_input_index = [1]} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %rs1 = ge.Reshape(%reuse1) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %reuse_b = ge.ConcatD(%rs1, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %d = ge.Neg(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %reuse0 = ge.Add(%a, %d) {reuse_input = [true], reuse_input_index = [0]} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %rs0 = ge.Reshape(%reuse0) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %reuse_a = ge.ConcatD(%rs0, %d) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %reuse_b, %reuse_a : tensor<8x16xf16>, tensor<8x16xf16>
}
// %reuse1 refs input 1 (%b): same source as the concat's input 1. %reuse0 refs input 0 (%a),
// which differs from %d.
// CHECK-LABEL: ge.graph @ref_reuse_input
// CHECK: %reuse_b = ge.ConcatD(%rs1, %b) {concat_dim = 0} :
// CHECK: %reuse_a = ge.ConcatD(%rs0, %d) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'reuse_b' not marked: input 1: traces to the same source 'b':0 as an earlier input (HasSameSourceAnchor)
// REMARK: remark: ConcatD 'reuse_a' marked no-task; locked producers: rs0:0, d:0

// -----

// (e) a no-padding virtual op (_no_padding_continuous_output + _output_reuse_input) refs
// input 0; without _output_reuse_input it is not a ref.
ge.graph @ref_no_padding {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %v = ge.Identity(%a) {_no_padding_continuous_output = true, _output_reuse_input = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %rs = ge.Reshape(%v) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %via_virtual = ge.ConcatD(%rs, %a) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %nv = ge.Identity(%a) {_no_padding_continuous_output = true} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %rs2 = ge.Reshape(%nv) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %via_nv = ge.ConcatD(%rs2, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %via_virtual, %via_nv : tensor<8x16xf16>, tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @ref_no_padding
// CHECK: %via_virtual = ge.ConcatD(%rs, %a) {concat_dim = 0} :
// CHECK: %via_nv = ge.ConcatD(%rs2, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'via_virtual' not marked: input 1: traces to the same source 'a':0 as an earlier input (HasSameSourceAnchor)
// REMARK: remark: ConcatD 'via_nv' marked no-task; locked producers: rs2:0, b:0

// -----

// (a) a subgraph input node (a Data of a called graph) is a pass-through to its own input
// anchor, which nothing feeds: the trace ends with no source (GE's null anchor), which
// IsPreNodeTypeValid rejects at that same input (so two null sources never get to collide
// in HasSameSourceAnchor). A root-graph Data is its own source: a Data node.
ge.graph @call_sub {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%y) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %root_datas = ge.ConcatD(%x, %y) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %s = ge.PartitionedCall(%a, %b) {f = @sub_datas} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %t = ge.PartitionedCall(%a, %b) {f = @sub_data_relu} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %root_datas, %s, %t : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>
}
ge.graph @sub_datas {
  %d0 = ge.Data {index = 0} : tensor<4x16xf16>
  %d1 = ge.Data {index = 1} : tensor<4x16xf16>
  %sub_datas = ge.ConcatD(%d0, %d1) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %sub_datas : tensor<8x16xf16>
}
ge.graph @sub_data_relu {
  %d0 = ge.Data {index = 0} : tensor<4x16xf16>
  %d1 = ge.Data {index = 1} : tensor<4x16xf16>
  %r = ge.Relu(%d1) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %sub_data_relu = ge.ConcatD(%r, %d0) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %sub_data_relu : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @call_sub
// CHECK: %root_datas = ge.ConcatD(%x, %y) {concat_dim = 0} :
// CHECK-LABEL: ge.graph @sub_datas
// CHECK: %sub_datas = ge.ConcatD(%d0, %d1) {concat_dim = 0} :
// CHECK-LABEL: ge.graph @sub_data_relu
// CHECK: %sub_data_relu = ge.ConcatD(%r, %d0) {concat_dim = 0} :
// REMARK: remark: ConcatD 'root_datas' not marked: input 0: producer 'x' is a Data node (IsPreNodeTypeValid)
// REMARK: remark: ConcatD 'sub_datas' not marked: input 0: its source could not be traced (a subgraph input, or 100 ref nodes deep) (IsPreNodeTypeValid)
// REMARK: remark: ConcatD 'sub_data_relu' not marked: input 1: its source could not be traced (a subgraph input, or 100 ref nodes deep) (IsPreNodeTypeValid)

// -----

// Graphs are gated separately: the root is a single-op scene, the subgraph is not. Each
// graph is processed on its own, root first.
ge.graph @gated_root attributes {_single_op_scene = true} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %root_c = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %y = ge.PartitionedCall(%x) {f = @open_sub} : (tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %root_c, %y : tensor<8x16xf16>, tensor<8x16xf16>
}
ge.graph @open_sub {
  %d = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%d) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %sub_c = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %sub_c : tensor<8x16xf16>
}
// CHECK-LABEL: ge.graph @gated_root
// CHECK: %root_c = ge.ConcatD(%a, %b) {concat_dim = 0} :
// CHECK-LABEL: ge.graph @open_sub
// CHECK: %sub_c = ge.ConcatD(%a, %b) {concat_dim = 0, _no_task = true,
// REMARK: remark: ConcatD 'root_c' not marked: graph @gated_root is a single-op scene (_single_op_scene = true) (ShouldSkipGraph)
// REMARK: remark: ConcatD 'sub_c' marked no-task; locked producers: a:0, b:0

// -----

// --- Targets: exactly ConcatD and ConcatV2D; a Pack is left to ge-pack-notask ---------

ge.graph @targets {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %b = ge.Abs(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %v2 = ge.ConcatV2D(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  %d = ge.Neg(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %e = ge.Exp(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %pk = ge.Pack(%d, %e) {axis = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<2x4x16xf16>
  ge.NetOutput %v2, %pk : tensor<8x16xf16>, tensor<2x4x16xf16>
}
// CHECK-LABEL: ge.graph @targets
// CHECK: %v2 = ge.ConcatV2D(%a, %b) {concat_dim = 0, _no_task = true,
// CHECK: %pk = ge.Pack(%d, %e) {axis = 0} :
// REMARK: remark: ConcatV2D 'v2' marked no-task; locked producers: a:0, b:0
// REMARK-NOT: Pack
