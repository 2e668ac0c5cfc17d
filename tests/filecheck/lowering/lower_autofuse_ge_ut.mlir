// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=reduce,concat,transpose}' | filecheck %s
// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=reduce,concat,transpose cse=false}' | filecheck %s --check-prefix=NOCSE
// GE's lowering UTs (loop_lowering_manager_asc_backend_unittest.cpp, docs/ge/autofuse.md)
// with GE's symbols made static: s0 = 2, s1 = 3, s2 = 4 unless said otherwise. Each
// expected AscGraph was written from GE's golden text (ReadableAscGraph), substituting
// the sizes: strides are contiguous, 0 where the repeat is 1 (§3.4 item 6).

// SimpleAddAbsExpWithCse: exp(abs(x + x)); the two reads of x share one Data/Load.
ge.graph @SimpleAddAbsExpWithCse {
  %x = ge.Data {index = 0} : tensor<2x3x4xf32>
  %t0 = ge.Add(%x, %x) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %t1 = ge.Abs(%t0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %y = ge.Exp(%t1) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %y : tensor<2x3x4xf32>
}
// CHECK-LABEL: ge.graph @SimpleAddAbsExpWithCse
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<2x3x4xf32>
// CHECK-NEXT:   %y = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Add_Abs_Exp", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["t0", "t1", "y"], fusion_nodes_size = 7} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
// CHECK-NEXT:     ascgraph.graph @y_out0_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 4] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %add = ascgraph.Add(%load, %load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %abs = ascgraph.Abs(%add) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %exp = ascgraph.Exp(%abs) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%exp) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %output = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %y : tensor<2x3x4xf32>

// SimpleLogAddExpNoCse: the same graph realized without CSE (GE: Realize(name, false)):
// one Data and one Load per read of x, so x is the AscBackend's input twice.
// NOCSE-LABEL: ge.graph @SimpleAddAbsExpWithCse
// NOCSE:        ge.AscBackend(%x, %x) {{.*}} fusion_nodes_size = 9}
// NOCSE-NEXT:     ascgraph.graph
// NOCSE-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// NOCSE-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]}
// NOCSE-NEXT:       %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// NOCSE-NEXT:       %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]}
// NOCSE-NEXT:       %add = ascgraph.Add(%load, %load_1)
// NOCSE-NEXT:       %abs = ascgraph.Abs(%add)
// NOCSE-NEXT:       %exp = ascgraph.Exp(%abs)
// NOCSE-NEXT:       %store = ascgraph.Store(%exp)
// NOCSE-NEXT:       %output = ascgraph.Output(%store) {index = 0}

// -----

// TestTensorLoopCorrectWithNewAxisBroadcast: [s0] + [s1,s0] + [s2,s1,s0] with s0 = 4,
// s1 = 3, s2 = 2. New leading axes are repeat 1 / stride 0 in the Data view; every Load
// runs the full loop.
ge.graph @NewAxisBroadcast {
  %d0 = ge.Data {index = 0} : tensor<4xf32>
  %d1 = ge.Data {index = 1} : tensor<3x4xf32>
  %d2 = ge.Data {index = 2} : tensor<2x3x4xf32>
  %add1 = ge.Add(%d0, %d1) : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %add2 = ge.Add(%add1, %d2) : (tensor<3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %add2 : tensor<2x3x4xf32>
}
// CHECK-LABEL: ge.graph @NewAxisBroadcast
// CHECK:        %add2 = ge.AscBackend(%d0, %d1, %d2) {name = "autofuse_pointwise_0_Add_Add", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["add1", "add2"], fusion_nodes_size = 10}
// CHECK-NEXT:     ascgraph.graph @add2_out0_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 4] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 1, 4], strides = [0, 0, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 3, 4], strides = [0, 4, 1]>
// CHECK-NEXT:       %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %add = ascgraph.Add(%load, %load_1) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %data_2 = ascgraph.Data {index = 2} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load_2 = ascgraph.Load(%data_2) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %add_1 = ascgraph.Add(%add, %load_2) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%add_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %output = ascgraph.Output(%store) {index = 0}

// -----

// TestTensorLoopCorrectWithNormBroadcast: [1,1,s0] + [1,s1,s0] then + [s2,s1,1]: a
// size-1 dim is read at index 0, so its Data stride is 0 (GE sets add1 to [s2,s1,s0];
// the ge dialect infers numpy's [1,s1,s0], which broadcasts the same way).
ge.graph @NormBroadcast {
  %d0 = ge.Data {index = 0} : tensor<1x1x4xf32>
  %d1 = ge.Data {index = 1} : tensor<1x3x4xf32>
  %d2 = ge.Data {index = 2} : tensor<2x3x1xf32>
  %add1 = ge.Add(%d0, %d1) : (tensor<1x1x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %add2 = ge.Add(%add1, %d2) : (tensor<1x3x4xf32>, tensor<2x3x1xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %add2 : tensor<2x3x4xf32>
}
// CHECK-LABEL: ge.graph @NormBroadcast
// CHECK:            ascgraph.graph @add2_out0_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 4] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 1, 4], strides = [0, 0, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 3, 4], strides = [0, 4, 1]>
// CHECK-NEXT:       %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %add = ascgraph.Add(%load, %load_1)
// CHECK-NEXT:       %data_2 = ascgraph.Data {index = 2} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 1], strides = [3, 1, 0]>
// CHECK-NEXT:       %load_2 = ascgraph.Load(%data_2) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %add_1 = ascgraph.Add(%add, %load_2)

// -----

// TestTensorLoopCorrectWithNormAndNewAxisBroadcast: [1,s0] + [1,s1,s0] then + [s2,1,1].
ge.graph @NormAndNewAxisBroadcast {
  %d0 = ge.Data {index = 0} : tensor<1x4xf32>
  %d1 = ge.Data {index = 1} : tensor<1x3x4xf32>
  %d2 = ge.Data {index = 2} : tensor<2x1x1xf32>
  %add1 = ge.Add(%d0, %d1) : (tensor<1x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %add2 = ge.Add(%add1, %d2) : (tensor<1x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  ge.NetOutput %add2 : tensor<2x3x4xf32>
}
// CHECK-LABEL: ge.graph @NormAndNewAxisBroadcast
// CHECK:            %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 1, 4], strides = [0, 0, 1]>
// CHECK:            %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 3, 4], strides = [0, 4, 1]>
// CHECK:            %data_2 = ascgraph.Data {index = 2} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 1], strides = [1, 0, 0]>
// CHECK-NEXT:       %load_2 = ascgraph.Load(%data_2) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>

// -----

// FusePointwiseWithEndReductionKeepDim: Abs then ReduceSumD(axes [1], keep dims) in one
// reduce AscBackend; the loop is the input shape, Sum's output repeats [s0,1,s2] with
// strides [s2,0,1]. s2 = 16 here: with a constant last dim GE skips reductions whose last
// dim is under 64 bytes (that skip is tested in lower_autofuse_rules.mlir).
ge.graph @FusePointwiseWithEndReductionKeepDim {
  %x = ge.Data {index = 0} : tensor<2x3x16xf32>
  %a = ge.Abs(%x) : (tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [1], keep_dims = true} : (tensor<2x3x16xf32>) -> tensor<2x1x16xf32>
  ge.NetOutput %r : tensor<2x1x16xf32>
}
// CHECK-LABEL: ge.graph @FusePointwiseWithEndReductionKeepDim
// CHECK:        %r = ge.AscBackend(%x) {name = "autofuse_reduce_0_Abs_ReduceSumD", fuse_type = "reduce", fuse_type_mask = 6, origin_nodes = ["a", "r"], fusion_nodes_size = 6} : (tensor<2x3x16xf32>) -> tensor<2x1x16xf32> {
// CHECK-NEXT:     ascgraph.graph @r_out0_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 16] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 16], strides = [48, 16, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 16], strides = [48, 16, 1]>
// CHECK-NEXT:       %abs = ascgraph.Abs(%load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 16], strides = [48, 16, 1]>
// CHECK-NEXT:       %sum = ascgraph.Sum(%abs) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%sum) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:       %output = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>

// -----

// OptimizeReduceToStoreAsKeepDimAndSrcDimIsOne: reducing a size-1 dim with keep dims is
// a plain Store; the AscBackend is pointwise, no Sum node.
ge.graph @OptimizeReduceToStore {
  %x = ge.Data {index = 0} : tensor<2x1x16xf32>
  %a = ge.Abs(%x) : (tensor<2x1x16xf32>) -> tensor<2x1x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [1], keep_dims = true} : (tensor<2x1x16xf32>) -> tensor<2x1x16xf32>
  ge.NetOutput %r : tensor<2x1x16xf32>
}
// CHECK-LABEL: ge.graph @OptimizeReduceToStore
// CHECK:        ge.AscBackend(%x) {name = "autofuse_pointwise_0_Abs_ReduceSumD", fuse_type = "pointwise", {{.*}}, fusion_nodes_size = 5}
// CHECK-NEXT:     ascgraph.graph @r_out0_graph axis = [0: z0 = 2, 1: z1 = 1, 2: z2 = 16] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:       %abs = ascgraph.Abs(%load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%abs) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:       %output = ascgraph.Output(%store) {index = 0}

// -----

// OptimizeReduceToSqueezeAsKeepDimAndSrcDimIsOne: without keep dims it is a squeeze; the
// loop runs over the output [s0, s2].
ge.graph @OptimizeReduceToSqueeze {
  %x = ge.Data {index = 0} : tensor<2x1x16xf32>
  %a = ge.Abs(%x) : (tensor<2x1x16xf32>) -> tensor<2x1x16xf32>
  %r = ge.ReduceSumD(%a) {axes = [1], keep_dims = false} : (tensor<2x1x16xf32>) -> tensor<2x16xf32>
  ge.NetOutput %r : tensor<2x16xf32>
}
// CHECK-LABEL: ge.graph @OptimizeReduceToSqueeze
// CHECK:        fuse_type = "pointwise"
// CHECK-NEXT:     ascgraph.graph @r_out0_graph axis = [0: z0 = 2, 1: z1 = 16] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 16], strides = [16, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 16], strides = [16, 1]>
// CHECK-NEXT:       %abs = ascgraph.Abs(%load) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 16], strides = [16, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%abs) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 16], strides = [16, 1]>

// -----

// LoweringDim0Concat: [2,s1,s2] ++ [3,s1,s2] on dim 0; each input's Data/Load has its own
// repeat on the concat axis, the Concat node the whole [5,s1,s2].
ge.graph @LoweringDim0Concat {
  %d0 = ge.Data {index = 0} : tensor<2x3x4xf32>
  %d1 = ge.Data {index = 1} : tensor<3x3x4xf32>
  %c = ge.ConcatD(%d0, %d1) {concat_dim = 0} : (tensor<2x3x4xf32>, tensor<3x3x4xf32>) -> tensor<5x3x4xf32>
  ge.NetOutput %c : tensor<5x3x4xf32>
}
// CHECK-LABEL: ge.graph @LoweringDim0Concat
// CHECK:        %c = ge.AscBackend(%d0, %d1) {name = "autofuse_concat_0_ConcatD", fuse_type = "concat", fuse_type_mask = 8, origin_nodes = ["c"], fusion_nodes_size = 7}
// CHECK-NEXT:     ascgraph.graph @c_out0_graph axis = [0: z0 = 5, 1: z1 = 3, 2: z2 = 4] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [3, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [3, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %concat = ascgraph.Concat(%load, %load_1) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [5, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%concat) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [5, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %output = ascgraph.Output(%store) {index = 0}

// -----

// LoweringDim1Concat: [s0,2,s2] ++ [s0,3,s2]: strides [(2*s2), s2, 1] and [(3*s2), s2, 1],
// Concat [s0,5,s2] with strides [(5*s2), s2, 1].
ge.graph @LoweringDim1Concat {
  %d0 = ge.Data {index = 0} : tensor<2x2x4xf32>
  %d1 = ge.Data {index = 1} : tensor<2x3x4xf32>
  %c = ge.ConcatD(%d0, %d1) {concat_dim = 1} : (tensor<2x2x4xf32>, tensor<2x3x4xf32>) -> tensor<2x5x4xf32>
  ge.NetOutput %c : tensor<2x5x4xf32>
}
// CHECK-LABEL: ge.graph @LoweringDim1Concat
// CHECK:            ascgraph.graph @c_out0_graph axis = [0: z0 = 2, 1: z1 = 5, 2: z2 = 4] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 2, 4], strides = [8, 4, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 2, 4], strides = [8, 4, 1]>
// CHECK-NEXT:       %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %concat = ascgraph.Concat(%load, %load_1) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 5, 4], strides = [20, 4, 1]>

// -----

// LoweringDimEndConcat: [s0,s1,2] ++ [s0,s1,3]: strides [(2*s1), 2, 1] and [(3*s1), 3, 1]
// (GE's golden writes s1 where the dim below is 2/3), Concat [s0,s1,5].
ge.graph @LoweringDimEndConcat {
  %d0 = ge.Data {index = 0} : tensor<2x3x2xf32>
  %d1 = ge.Data {index = 1} : tensor<2x3x3xf32>
  %c = ge.ConcatV2D(%d0, %d1) {concat_dim = -1} : (tensor<2x3x2xf32>, tensor<2x3x3xf32>) -> tensor<2x3x5xf32>
  ge.NetOutput %c : tensor<2x3x5xf32>
}
// CHECK-LABEL: ge.graph @LoweringDimEndConcat
// CHECK:        {name = "autofuse_concat_0_ConcatV2D"
// CHECK-NEXT:     ascgraph.graph @c_out0_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 5] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 2], strides = [6, 2, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 2], strides = [6, 2, 1]>
// CHECK-NEXT:       %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 3], strides = [9, 3, 1]>
// CHECK-NEXT:       %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 3], strides = [9, 3, 1]>
// CHECK-NEXT:       %concat = ascgraph.Concat(%load, %load_1) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 5], strides = [15, 5, 1]>

// -----

// RealizedBeforeConcat: Abs producers are inlined into the concat inputs, each under its
// own extent on the concat axis.
ge.graph @RealizedBeforeConcat {
  %d0 = ge.Data {index = 0} : tensor<2x3x2xf32>
  %d1 = ge.Data {index = 1} : tensor<2x3x3xf32>
  %a0 = ge.Abs(%d0) : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %a1 = ge.Abs(%d1) : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %c = ge.ConcatD(%a0, %a1) {concat_dim = 2} : (tensor<2x3x2xf32>, tensor<2x3x3xf32>) -> tensor<2x3x5xf32>
  ge.NetOutput %c : tensor<2x3x5xf32>
}
// CHECK-LABEL: ge.graph @RealizedBeforeConcat
// CHECK:        %c = ge.AscBackend(%d0, %d1) {name = "autofuse_concat_0_Abs_Abs_ConcatD", fuse_type = "concat", fuse_type_mask = 10, origin_nodes = ["a0", "a1", "c"], fusion_nodes_size = 9}
// CHECK:            %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 2], strides = [6, 2, 1]>
// CHECK-NEXT:       %abs = ascgraph.Abs(%load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 2], strides = [6, 2, 1]>
// CHECK:            %abs_1 = ascgraph.Abs(%load_1) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 3], strides = [9, 3, 1]>
// CHECK-NEXT:       %concat = ascgraph.Concat(%abs, %abs_1)

// -----

// FallBackTransposeOK: TransposeD perm [2,1,0] of [s0,s1,s2] is its own AscBackend in GE's
// back-stepped form: Data/Load under axes [2,1,0] with the input's contiguous strides,
// then an explicit Transpose to axes [0,1,2] (repeats [s2,s1,s0]).
ge.graph @FallBackTransposeOK {
  %x = ge.Data {index = 0} : tensor<2x3x4xf32>
  %t = ge.TransposeD(%x) {perm = [2, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  ge.NetOutput %t : tensor<4x3x2xf32>
}
// CHECK-LABEL: ge.graph @FallBackTransposeOK
// CHECK:        %t = ge.AscBackend(%x) {name = "autofuse_transpose_0_TransposeD", fuse_type = "transpose", fuse_type_mask = 128, origin_nodes = ["t"], fusion_nodes_size = 5}
// CHECK-NEXT:     ascgraph.graph @t_out0_graph axis = [0: z0 = 4, 1: z1 = 3, 2: z2 = 2] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [2, 1, 0], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [2, 1, 0], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %transpose = ascgraph.Transpose(%load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [4, 3, 2], strides = [6, 2, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%transpose) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [4, 3, 2], strides = [6, 2, 1]>
// CHECK-NEXT:       %output = ascgraph.Output(%store) {index = 0}

// -----

// FallBackTransposeOK1: Add then TransposeD: the transpose realizes its input, so the Add
// is one AscBackend and the transpose the same graph as above reading it.
ge.graph @FallBackTransposeOK1 {
  %x = ge.Data {index = 0} : tensor<2x3x4xf32>
  %y = ge.Data {index = 1} : tensor<2x3x4xf32>
  %a = ge.Add(%x, %y) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %t = ge.TransposeD(%a) {perm = [2, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  ge.NetOutput %t : tensor<4x3x2xf32>
}
// CHECK-LABEL: ge.graph @FallBackTransposeOK1
// CHECK:        %a = ge.AscBackend(%x, %y) {name = "autofuse_pointwise_0_Add"
// CHECK:        %t = ge.AscBackend(%a) {name = "autofuse_transpose_1_TransposeD"
// CHECK-NEXT:     ascgraph.graph @t_out0_graph axis = [0: z0 = 4, 1: z1 = 3, 2: z2 = 2] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [2, 1, 0], repeats = [2, 3, 4], strides = [12, 4, 1]>
