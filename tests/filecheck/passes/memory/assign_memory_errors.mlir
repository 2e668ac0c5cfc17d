// RUN: not ge-opt %s -p ge-assign-memory --split-input-file 2>&1 | filecheck %s
// RUN: not ge-opt %s -p ge-assign-memory --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT
//
// What GE's GraphMemoryAssigner fails on (graph_mem_assigner.cc: GetMemorySize), and graphs a
// static plan cannot size: one located error each.

// EXIT: assign_memory_errors.mlir:[[# @LINE + 8]]:3: error: ge.PhonyConcat: GetMemorySize: no-padding continuous PhonyConcat 'p' has no '_reuse_input_on_dim_index'
// EXIT-NOT: Traceback

// A no-padding continuous input node without _reuse_input_on_dim_index.
ge.graph @missing_dim_index {
  %x = ge.Data {index = 0} : tensor<1x2x2x4x8xf16>
  %m0 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %m1 = ge.Mul(%x, %x) : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x2x2x4x8xf16>
  %p = ge.PhonyConcat(%m0, %m1) {concat_dim = [1], N = [2], _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true} : (tensor<1x2x2x4x8xf16>, tensor<1x2x2x4x8xf16>) -> tensor<1x4x2x4x8xf16>
  ge.NetOutput %p : tensor<1x4x2x4x8xf16>
}
// CHECK: assign_memory_errors.mlir:[[# @LINE - 3]]:3: error: ge.PhonyConcat: GetMemorySize: no-padding continuous PhonyConcat 'p' has no '_reuse_input_on_dim_index'

// -----

// A dim index >= rank (and != 0) on a no-padding continuous output node.
ge.graph @dim_index_rank {
  %x = ge.Data {index = 0} : tensor<8x16xf16>
  %a = ge.Abs(%x) : (tensor<8x16xf16>) -> tensor<8x16xf16>
  %s0, %s1 = ge.PhonySplit(%a) {split_dim = [0], num_split = [2], _no_task = true, _no_padding_continuous_output = true, _output_reuse_input = true, _reuse_input_on_dim_index = 2} : (tensor<8x16xf16>) -> (tensor<4x16xf16>, tensor<4x16xf16>)
  %y = ge.Add(%s0, %s1) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %y : tensor<4x16xf16>
}
// CHECK: assign_memory_errors.mlir:[[# @LINE - 4]]:3: error: ge.PhonySplit: GetMemorySize: '_reuse_input_on_dim_index' = 2 is out of range for output 0 of runtime shape [4, 16] (rank 2)

// -----

// Unknown shapes: GE assigns such memory at run time; a static plan cannot.
ge.graph @dynamic {
  %x = ge.Data {index = 0} : tensor<?x16xf16>
  %a = ge.Abs(%x) : (tensor<?x16xf16>) -> tensor<?x16xf16>
  ge.NetOutput %a : tensor<?x16xf16>
}
// CHECK: assign_memory_errors.mlir:[[# @LINE - 4]]:3: error: ge.Data: Data 'x' has a tensor of unknown shape; ge-assign-memory plans static graphs only (GE assigns such memory at run time)
