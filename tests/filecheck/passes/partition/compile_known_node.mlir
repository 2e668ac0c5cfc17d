// RUN: ge-opt %s -p ge-compile | filecheck %s
//
// ge-compile on a `?` batch: ge-partition-dynamic runs after the graph preparation; the
// known tail (Mul, Add, Sigmoid, Exp, Relu: cluster 9, frame 1) becomes a known-node model
// of the same name, fused into one AscBackend kernel, with one input region per call
// operand (r, w, bias) and one output region; the root and the unknown subgraph (Relu,
// ReduceSumD, Neg: cluster 10, frame 2) stay ge graphs, no AscBackend, no memory plan. The
// Consts w and bias (INPUT_NODE, cluster 1, frame 0) are the known subgraph _input
// (GetSubgraphName), a known-node model that copies its weights to its outputs.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x16xf32>
  %w = ge.Const {value = dense<0.25> : tensor<16xf32>} : tensor<16xf32>
  %bias = ge.Const {value = dense<-1.5> : tensor<16xf32>} : tensor<16xf32>
  %a = ge.Relu(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [0], keep_dims = false} : (tensor<?x16xf32>) -> tensor<16xf32>
  %b = ge.Mul(%r, %w) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %c = ge.Add(%b, %bias) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %d = ge.Sigmoid(%c) : (tensor<16xf32>) -> tensor<16xf32>
  %e = ge.Exp(%d) : (tensor<16xf32>) -> tensor<16xf32>
  %f = ge.Relu(%e) : (tensor<16xf32>) -> tensor<16xf32>
  %y = ge.Neg(%a) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  ge.NetOutput %f, %y : tensor<16xf32>, tensor<?x16xf32>
}

// CHECK:      ge.graph @main attributes {_dynamic_shape_partitioned = true, _graph_unknown_flag = true} {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<?x16xf32>
// CHECK-NEXT:   %[[W:[^,]*]], %[[B:.*]] = ge.PartitionedCall {f = @main_sub_0_input, _is_unknown_shape = false} : tensor<16xf32>, tensor<16xf32>
// CHECK-NEXT:   %[[R:.*]], %[[Y:.*]] = ge.PartitionedCall(%x) {f = @main_sub_2_unknow, _is_unknown_shape = true} : (tensor<?x16xf32>) -> (tensor<16xf32>, tensor<?x16xf32>)
// CHECK-NEXT:   %[[F:.*]] = ge.PartitionedCall(%[[R]], %[[W]], %[[B]]) {f = @main_sub_1_know, _is_unknown_shape = false} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:   ge.NetOutput %[[F]], %[[Y]] : tensor<16xf32>, tensor<?x16xf32>
// CHECK-NEXT: }
// CHECK:      npu.model @main_sub_0_input streams = 1 events = 0 attributes {known_node = true,
// CHECK:        npu.const "w:0" at #npu.addr<weight, 0, 64>
// CHECK:        npu.const "bias:0" at #npu.addr<weight, 512, 64>
// CHECK:        npu.memcpy ins("w:0" at #npu.addr<weight, 0, 64>) outs("NetOutput:0" at #npu.addr<output:0, 0, 64>)
// CHECK-NEXT:   npu.memcpy ins("bias:0" at #npu.addr<weight, 512, 64>) outs("NetOutput:1" at #npu.addr<output:1, 0, 64>)
// CHECK:      npu.model @main_sub_1_know streams = 1 events = 0 attributes {known_node = true,
// CHECK:        npu.region input:0 size = 64 {type = tensor<16xf32>}
// CHECK-NEXT:   npu.region input:1 size = 64 {type = tensor<16xf32>}
// CHECK-NEXT:   npu.region input:2 size = 64 {type = tensor<16xf32>}
// CHECK-NEXT:   npu.region output:0 size = 64 {type = tensor<16xf32>}
// CHECK:        npu.kernel_def @ascbackend_0 = ascgraph
// CHECK:        npu.end_graph
// CHECK:      ge.graph @main_sub_2_unknow attributes {_is_unknown_shape = true, _graph_unknown_flag = true, _memory_discontiguous_allocation = true} {
// CHECK-NEXT:   ge.Data {index = 0} : tensor<?x16xf32>
// CHECK-NEXT:   %a = ge.Relu
// CHECK-NEXT:   %r = ge.ReduceSumD
// CHECK-NEXT:   %y = ge.Neg
// CHECK-NEXT:   ge.NetOutput %r, %y : tensor<16xf32>, tensor<?x16xf32>
// CHECK-NEXT: }
