// RUN: ge-opt %examples/softmax_like.mlir -p 'ge-lower-autofuse{enable-pass=reduce}' | filecheck %s
// RUN: ge-opt %examples/softmax_like.mlir -p 'ge-lower-autofuse' | filecheck %s --check-prefix=DEFAULT
// RUN: not ge-opt %examples/softmax_like.mlir -p 'ge-lower-autofuse{enable-pass=slice}' 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not ge-opt %examples/softmax_like.mlir -p 'ge-lower-autofuse{max-loop-ops=0}' 2>&1 | filecheck %s --check-prefix=ERR0
// The issue's softmax_like example is examples/softmax_like.mlir. GE's LoweringSoftmaxLikeExample
// lowers one SoftmaxV2 node through ReduceThenBroadcast into one AscGraph; the decomposed
// graph here follows the realize rules instead: ReduceMaxD realizes itself, Sub+Exp fuse
// and Exp (heavy) realizes, ReduceSumD realizes itself, RealDiv reads both: 4 AscBackends.
// The kept reduced dim (8x1) is a Data view with repeat 1 / stride 0 on z1.

// CHECK:      %m = ge.AscBackend(%x) {name = "autofuse_reduce_0_ReduceMaxD", fuse_type = "reduce", fuse_type_mask = 4, origin_nodes = ["m"], fusion_nodes_size = 5} : (tensor<8x64xf32>) -> tensor<8x1xf32> {
// CHECK-NEXT:   ascgraph.graph @m_out0_graph axis = [0: z0 = 8, 1: z1 = 64] {
// CHECK-NEXT:     %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 64], strides = [64, 1]>
// CHECK-NEXT:     %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 64], strides = [64, 1]>
// CHECK-NEXT:     %max = ascgraph.Max(%load) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 1], strides = [1, 0]>
// CHECK-NEXT:     %store = ascgraph.Store(%max) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 1], strides = [1, 0]>
// CHECK-NEXT:     %output = ascgraph.Output(%store) {index = 0}
// CHECK:      %e = ge.AscBackend(%x, %m) {name = "autofuse_pointwise_1_Sub_Exp", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["d", "e"], fusion_nodes_size = 8}
// CHECK:          %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 1], strides = [1, 0]>
// CHECK-NEXT:     %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 64], strides = [64, 1]>
// CHECK-NEXT:     %sub = ascgraph.Sub(%load, %load_1)
// CHECK-NEXT:     %exp = ascgraph.Exp(%sub)
// CHECK:      %s = ge.AscBackend(%e) {name = "autofuse_reduce_2_ReduceSumD"
// CHECK:          ascgraph.Sum(%load) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [8, 1], strides = [1, 0]>
// CHECK:      %y = ge.AscBackend(%e, %s) {name = "autofuse_pointwise_3_RealDiv"
// CHECK:          ascgraph.Div(%load, %load_1)
// CHECK:      ge.NetOutput %y

// GE's default flags: reductions stay GE ops; Sub+Exp and RealDiv still lower.
// DEFAULT:      %m = ge.ReduceMaxD(%x)
// DEFAULT-NEXT: %e = ge.AscBackend(%x, %m) {name = "autofuse_pointwise_0_Sub_Exp"
// DEFAULT:      %s = ge.ReduceSumD(%e)
// DEFAULT-NEXT: %y = ge.AscBackend(%e, %s) {name = "autofuse_pointwise_1_RealDiv"

// ERR: {{\A}}ge-opt: error: ge-lower-autofuse: option enable-pass: expected a list of reduce, concat, split, transpose, gather, got 'slice' (GE's flag exists, but this op set has no such lowering){{$}}
// ERR0: {{\A}}ge-opt: error: ge-lower-autofuse: option max-loop-ops: expected an integer >= 1, got 0{{$}}
