// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=reduce,split}' | filecheck %s
// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=reduce,split remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// Lowering and realize rules one by one (docs/ge/autofuse.md); each case's CHECKs fail
// when its rule is removed. Remarks (stderr, printed before the IR) say why.

// Readers (TriggerRealizeAsTooManyReaders): Abs -> {Abs, Abs}: a single-output value with
// 2 readers > recomputation_threshold 1 is a boundary: 3 AscBackends.
ge.graph @readers {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = ge.Abs(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = ge.Abs(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %b, %c : tensor<4x16xf32>, tensor<4x16xf32>
}
// REMARK: remark: Abs 'a': lowered into autofuse_pointwise_0_Abs; output 0 realized: 2 readers > recomputation_threshold 1
// REMARK: remark: Abs 'b': lowered into autofuse_pointwise_1_Abs; output 0 realized: read by NetOutput 'NetOutput', which is not lowered
// CHECK-LABEL: ge.graph @readers
// CHECK:  %a = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Abs"
// CHECK:  %b = ge.AscBackend(%a) {name = "autofuse_pointwise_1_Abs"
// CHECK:  %c = ge.AscBackend(%a) {name = "autofuse_pointwise_2_Abs"

// -----

// Heavy op (TriggerRealizeAsHeavyOps): Exp realizes its output; the Abs after it is a
// new AscBackend, while Abs -> Abs (no heavy op) stays one.
ge.graph @heavy {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %e = ge.Exp(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = ge.Abs(%e) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = ge.Abs(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %b : tensor<4x16xf32>
}
// REMARK: remark: Exp 'e': lowered into autofuse_pointwise_0_Exp; output 0 realized: heavy op Exp
// REMARK: remark: Abs 'a': lowered into autofuse_pointwise_1_Abs_Abs; output 0 inlined into its reader
// CHECK-LABEL: ge.graph @heavy
// CHECK:  %e = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Exp"
// CHECK:  %b = ge.AscBackend(%e) {name = "autofuse_pointwise_1_Abs_Abs"

// -----

// RealizeAsReduction: a reduction ends the fusion: Abs -> ReduceMaxD -> Abs is two
// AscBackends, the reduce one holding the Abs before it.
ge.graph @reduction {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = ge.ReduceMaxD(%a) {axes = [1], keep_dims = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %b = ge.Abs(%m) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  ge.NetOutput %b : tensor<4x1xf32>
}
// REMARK: remark: ReduceMaxD 'm': lowered into autofuse_reduce_0_Abs_ReduceMaxD; output 0 realized: reduce (its StoreReduction realizes itself)
// CHECK-LABEL: ge.graph @reduction
// CHECK:  %m = ge.AscBackend(%x) {name = "autofuse_reduce_0_Abs_ReduceMaxD", fuse_type = "reduce"
// CHECK:    ascgraph.Max(%abs) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK:  %b = ge.AscBackend(%m) {name = "autofuse_pointwise_1_Abs"

// -----

// The reduce small-last-dim skip: reducing dim 0 of 4x4xf32 (last dim 16 bytes < 64, last
// and second-to-last differ in reduce membership) is not lowered; its input is realized.
ge.graph @small_last_dim {
  %x = ge.Data {index = 0} : tensor<4x4xf32>
  %a = ge.Abs(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = ge.ReduceSumD(%a) {axes = [0], keep_dims = true} : (tensor<4x4xf32>) -> tensor<1x4xf32>
  ge.NetOutput %s : tensor<1x4xf32>
}
// REMARK: remark: Abs 'a': lowered into autofuse_pointwise_0_Abs; output 0 realized: read by ReduceSumD 's', which is not lowered
// REMARK: remark: ReduceSumD 's': not lowered (small last dim: 4 x 4 bytes < 64); its inputs are realized
// CHECK-LABEL: ge.graph @small_last_dim
// CHECK:  %a = ge.AscBackend(%x)
// CHECK:  %s = ge.ReduceSumD(%a)

// -----

// Stream labels (SkipFuseAsDifferentStreamLabel / FuseAsSameStreamLabel): a reader with a
// different non-empty _stream_label ends the fusion; the same label fuses.
ge.graph @streams {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a = ge.Abs(%x) {_stream_label = "s1"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = ge.Neg(%a) {_stream_label = "s2"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = ge.Relu(%b) {_stream_label = "s2"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %c : tensor<4x16xf32>
}
// REMARK: remark: Abs 'a': lowered into autofuse_pointwise_0_Abs; output 0 realized: reader 'b' has stream label 's2', this node 's1'
// REMARK: remark: Neg 'b': lowered into autofuse_pointwise_1_Neg_Relu; output 0 inlined into its reader
// CHECK-LABEL: ge.graph @streams
// CHECK:  %a = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Abs"
// CHECK:  %c = ge.AscBackend(%a) {name = "autofuse_pointwise_1_Neg_Relu"

// -----

// Ops without a lowering stay GE ops and realize their inputs (fallback lowering); so do
// skipped nodes (_super_kernel_scope, FallbackLoweringAsInSuperKernelScope).
ge.graph @fallback {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %w = ge.Data {index = 1} : tensor<16x8xf32>
  %a = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = ge.MatMul(%a, %w) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %r = ge.Relu(%m) {_super_kernel_scope = "sk"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = ge.Neg(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %n : tensor<4x8xf32>
}
// REMARK: remark: Abs 'a': lowered into autofuse_pointwise_0_Abs; output 0 realized: read by MatMul 'm', which is not lowered
// REMARK: remark: MatMul 'm': not lowered (no lowering for MatMul); its inputs are realized
// REMARK: remark: Relu 'r': not lowered (_super_kernel_scope is set); its inputs are realized
// CHECK-LABEL: ge.graph @fallback
// CHECK:  %a = ge.AscBackend(%x)
// CHECK:  %m = ge.MatMul(%a, %w)
// CHECK:  %r = ge.Relu(%m)
// CHECK:  %n = ge.AscBackend(%r) {name = "autofuse_pointwise_1_Neg"

// -----

// Views: BroadcastToD folds into the Data view (repeat 1, stride 0); a Reshape of a buffer
// reads the buffer with the new shape; ExpandDims (size-1 dims only) reindexes an inlined
// expression. All inside one AscBackend; the fuse-type mask has the reshape bit (512).
ge.graph @views {
  %x = ge.Data {index = 0} : tensor<16xf32>
  %y = ge.Data {index = 1} : tensor<4x4xf32>
  %b = ge.BroadcastToD(%x) {shape = [4, 16]} : (tensor<16xf32>) -> tensor<4x16xf32>
  %r = ge.Reshape(%y) : (tensor<4x4xf32>) -> tensor<16xf32>
  %s = ge.Add(%b, %r) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %e = ge.ExpandDims(%s) {axis = 1} : (tensor<4x16xf32>) -> tensor<4x1x16xf32>
  ge.NetOutput %e : tensor<4x1x16xf32>
}
// CHECK-LABEL: ge.graph @views
// CHECK:  %e = ge.AscBackend(%x, %y) {name = "autofuse_pointwise_0_BroadcastToD_Reshape_Add_ExpandDims", fuse_type = "pointwise", fuse_type_mask = 514
// CHECK-NEXT:    ascgraph.graph @e_out0_graph axis = [0: z0 = 4, 1: z1 = 1, 2: z2 = 16] {
// CHECK-NEXT:      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 1, 16], strides = [0, 0, 1]>
// CHECK-NEXT:      %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [4, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:      %data_1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [1, 1, 16], strides = [0, 0, 1]>
// CHECK-NEXT:      %load_1 = ascgraph.Load(%data_1) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [4, 1, 16], strides = [16, 0, 1]>
// CHECK-NEXT:      %add = ascgraph.Add(%load, %load_1)

// -----

// A reshape that is not a view of an inlined expression (4x4 -> 16 of an Abs) realizes
// the producer and reads its buffer with the new shape.
ge.graph @reshape_realizes {
  %y = ge.Data {index = 0} : tensor<4x4xf32>
  %a = ge.Abs(%y) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = ge.Reshape(%a) : (tensor<4x4xf32>) -> tensor<16xf32>
  %n = ge.Neg(%r) : (tensor<16xf32>) -> tensor<16xf32>
  ge.NetOutput %n : tensor<16xf32>
}
// REMARK: remark: Abs 'a': lowered into autofuse_pointwise_0_Abs; output 0 realized: read by Reshape 'r', a reshape that is not a view of its expression
// CHECK-LABEL: ge.graph @reshape_realizes
// CHECK:  %a = ge.AscBackend(%y)
// CHECK:  %n = ge.AscBackend(%a) {name = "autofuse_pointwise_1_Reshape_Neg"
// CHECK-NEXT:    ascgraph.graph @n_out0_graph axis = [0: z0 = 16] {
// CHECK-NEXT:      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [16], strides = [1]>

// -----

// SplitD as StridedSlices (A2/A3): each output a slice view; the second's Load starts at
// offset 2 x 16 = 32 of the shared Data view.
ge.graph @split {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %s0, %s1 = ge.SplitD(%x) {split_dim = 0, num_split = 2} : (tensor<4x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>)
  %a = ge.Abs(%s0) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  %b = ge.Neg(%s1) : (tensor<2x16xf32>) -> tensor<2x16xf32>
  ge.NetOutput %a, %b : tensor<2x16xf32>, tensor<2x16xf32>
}
// REMARK: remark: SplitD 's0': lowered into autofuse_pointwise_0_SplitD_Abs, autofuse_pointwise_1_SplitD_Neg; output 0 inlined into its reader; output 1 inlined into its reader
// CHECK-LABEL: ge.graph @split
// CHECK:  %a = ge.AscBackend(%x) {name = "autofuse_pointwise_0_SplitD_Abs", fuse_type = "pointwise", fuse_type_mask = 34
// CHECK:      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 16], strides = [16, 1]>
// CHECK-NEXT: %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]}
// CHECK:  %b = ge.AscBackend(%x) {name = "autofuse_pointwise_1_SplitD_Neg"
// CHECK:      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 16], strides = [16, 1]>
// CHECK-NEXT: %load = ascgraph.Load(%data) {offset = 32, sched.axis = [0, 1]}

// -----

// GE's defaults: concat and transpose are off unless enable-pass names them.
ge.graph @flags_off {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %c = ge.ConcatD(%x, %x) {concat_dim = 0} : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %t = ge.TransposeD(%c) {perm = [1, 0]} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  ge.NetOutput %t : tensor<16x8xf32>
}
// REMARK: remark: ConcatD 'c': not lowered (class 'concat' is not in enable-pass); its inputs are realized
// REMARK: remark: TransposeD 't': not lowered (class 'transpose' is not in enable-pass); its inputs are realized
// CHECK-LABEL: ge.graph @flags_off
// CHECK-NOT: ge.AscBackend
// CHECK: ge.NetOutput
