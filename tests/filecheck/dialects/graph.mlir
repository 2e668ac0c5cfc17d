// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of ge.graph (graph attributes, several graphs per module), PartitionedCall,
// AscBackend and FusedAscBackend with their regions, and the discardable GE attributes
// nodes carry (node flags, memory types, per-output flags, offset lists, names).

ge.graph @main attributes {_single_op_scene = false, _memory_discontiguous_allocation = true, _dynamic_shape_partitioned = false, _graph_unknown_flag = false} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %z, %w = ge.PartitionedCall(%y, %x) {f = @two} : (tensor<4x16xf16>, tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<8x16xf16>)
  ge.NetOutput %z, %w : tensor<4x16xf16>, tensor<8x16xf16>
}

ge.graph @sub {
  %in = ge.Data {index = 0} : tensor<4x16xf16>
  %r = ge.Relu(%in) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %r : tensor<4x16xf16>
}

ge.graph @two {
  %b = ge.Data {index = 1} : tensor<4x16xf16>
  %a = ge.Data {index = 0} : tensor<4x16xf16>
  %c = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
  ge.NetOutput %a, %c : tensor<4x16xf16>, tensor<8x16xf16>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   ge.graph @main attributes {_single_op_scene = false, _memory_discontiguous_allocation = true, _dynamic_shape_partitioned = false, _graph_unknown_flag = false} {
// CHECK-NEXT:     %x = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:     %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %z, %w = ge.PartitionedCall(%y, %x) {f = @two} : (tensor<4x16xf16>, tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<8x16xf16>)
// CHECK-NEXT:     ge.NetOutput %z, %w : tensor<4x16xf16>, tensor<8x16xf16>
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.graph @sub {
// CHECK-NEXT:     %in = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:     %r = ge.Relu(%in) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     ge.NetOutput %r : tensor<4x16xf16>
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.graph @two {
// CHECK-NEXT:     %b = ge.Data {index = 1} : tensor<4x16xf16>
// CHECK-NEXT:     %a = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:     %c = ge.ConcatD(%a, %b) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
// CHECK-NEXT:     ge.NetOutput %a, %c : tensor<4x16xf16>, tensor<8x16xf16>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// AscBackend holds one AscGraph (ascgraph dialect; its bodies are tested in
// ascgraph*.mlir). FusedAscBackend holds a ge graph body of AscBackends.
ge.graph @fused {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a = ge.AscBackend(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    ascgraph.graph @a axis = [0: z0 = 4, 1: z1 = 16] {
      %a_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      %a_l = ascgraph.Load(%a_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      %a_r = ascgraph.Abs(%a_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      %a_s = ascgraph.Store(%a_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      %a_o = ascgraph.Output(%a_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
    }
  }
  %f, %g = ge.FusedAscBackend(%x, %a) : (tensor<4x16xf16>, tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>) {
    %d1 = ge.Data {index = 1} : tensor<4x16xf16>
    %d0 = ge.Data {index = 0} : tensor<4x16xf16>
    %k = ge.AscBackend(%d0, %d1) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16> {
      ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 16] {
        %k_d0 = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_d1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_l0 = ascgraph.Load(%k_d0) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_l1 = ascgraph.Load(%k_d1) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_r = ascgraph.Add(%k_l0, %k_l1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_s = ascgraph.Store(%k_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_o = ascgraph.Output(%k_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      }
    }
    %m, %n = ge.AscBackend(%k) : (tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>) {
      ascgraph.graph @m axis = [0: z0 = 4, 1: z1 = 16] {
        %m_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_l = ascgraph.Load(%m_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_r = ascgraph.Relu(%m_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_n = ascgraph.Neg(%m_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_s0 = ascgraph.Store(%m_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_s1 = ascgraph.Store(%m_n) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_o0 = ascgraph.Output(%m_s0) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %m_o1 = ascgraph.Output(%m_s1) {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      }
    }
    ge.NetOutput %m, %n : tensor<4x16xf16>, tensor<4x16xf16>
  }
  ge.NetOutput %f, %g : tensor<4x16xf16>, tensor<4x16xf16>
}

// CHECK:      ge.graph @fused {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:   %a = ge.AscBackend(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
// CHECK-NEXT:     ascgraph.graph @a axis = [0: z0 = 4, 1: z1 = 16] {
// CHECK-NEXT:       %a_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:       %a_l = ascgraph.Load(%a_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:       %a_r = ascgraph.Abs(%a_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:       %a_s = ascgraph.Store(%a_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:       %a_o = ascgraph.Output(%a_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %f, %g = ge.FusedAscBackend(%x, %a) : (tensor<4x16xf16>, tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>) {
// CHECK-NEXT:     %d1 = ge.Data {index = 1} : tensor<4x16xf16>
// CHECK-NEXT:     %d0 = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:     %k = ge.AscBackend(%d0, %d1) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16> {
// CHECK-NEXT:       ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 16] {
// CHECK-NEXT:         %k_d0 = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %k_d1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %k_l0 = ascgraph.Load(%k_d0) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %k_l1 = ascgraph.Load(%k_d1) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %k_r = ascgraph.Add(%k_l0, %k_l1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %k_s = ascgraph.Store(%k_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %k_o = ascgraph.Output(%k_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     %m, %n = ge.AscBackend(%k) : (tensor<4x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>) {
// CHECK-NEXT:       ascgraph.graph @m axis = [0: z0 = 4, 1: z1 = 16] {
// CHECK-NEXT:         %m_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_l = ascgraph.Load(%m_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_r = ascgraph.Relu(%m_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_n = ascgraph.Neg(%m_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_s0 = ascgraph.Store(%m_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_s1 = ascgraph.Store(%m_n) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_o0 = ascgraph.Output(%m_s0) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:         %m_o1 = ascgraph.Output(%m_s1) {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     ge.NetOutput %m, %n : tensor<4x16xf16>, tensor<4x16xf16>
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %f, %g : tensor<4x16xf16>, tensor<4x16xf16>
// CHECK-NEXT: }

// -----

// GE's discardable attributes (docs/ge/notask.md), as a pass leaves them: a no-task
// ConcatD, its producers' per-output lock flags and memory types, PhonyConcat offsets,
// node names that differ from the SSA names, attributes the dialect does not know.
ge.graph @marked attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2, can_reused_for_concat_optimize = [false, true], _output_memory_type = [0, 0], continuous_output = false, name = "split_1"} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %r = ge.Relu(%a) {_output_offset_list_for_continuous = [0], reference = false, atomic_output_index = [], _stream_label = "s0", can_reused_for_pack_optimize = [true]} : (tensor<2x16xf16>) -> tensor<2x16xf16>
  %c = ge.ConcatD(%r, %b) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0, _input_memory_type = [0, 0], continuous_input = false, _single_op_scene = false} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
  %p0, %p1 = ge.PhonySplit(%c) {split_dim = [0], num_split = [2], _no_padding_continuous_output = true, _input_offset_list_for_continuous = [0], _output_offset_for_buffer_fusion = [0, 64]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
  %o = ge.Add(%p0, %p1) {_some_future_attr = "kept", _weight = 1.5 : f32} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
  ge.NetOutput %o {name = "out"} : tensor<2x16xf16>
}

// CHECK:      ge.graph @marked attributes {_single_op_scene = false} {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:   %a, %b = ge.SplitD(%x) {split_dim = 0, num_split = 2, can_reused_for_concat_optimize = [false, true], _output_memory_type = [0, 0], continuous_output = false, name = "split_1"} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
// CHECK-NEXT:   %r = ge.Relu(%a) {_output_offset_list_for_continuous = [0], reference = false, atomic_output_index = [], _stream_label = "s0", can_reused_for_pack_optimize = [true]} : (tensor<2x16xf16>) -> tensor<2x16xf16>
// CHECK-NEXT:   %c = ge.ConcatD(%r, %b) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0, _input_memory_type = [0, 0], continuous_input = false, _single_op_scene = false} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:   %p0, %p1 = ge.PhonySplit(%c) {split_dim = [0], num_split = [2], _no_padding_continuous_output = true, _input_offset_list_for_continuous = [0], _output_offset_for_buffer_fusion = [0, 64]} : (tensor<4x16xf16>) -> (tensor<2x16xf16>, tensor<2x16xf16>)
// CHECK-NEXT:   %o = ge.Add(%p0, %p1) {_some_future_attr = "kept", _weight = 1.500000e+00 : f32} : (tensor<2x16xf16>, tensor<2x16xf16>) -> tensor<2x16xf16>
// CHECK-NEXT:   ge.NetOutput %o {name = "out"} : tensor<2x16xf16>
// CHECK-NEXT: }
