// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of the ascgraph dialect: every AscIR node, the graph's axis table, the
// !ascgraph.tensor type (and #ascgraph.axis in the generic form), inside ge.AscBackend.
// Input lines are in the printer's form; CHECK-NEXT requires each back verbatim.

// GE's SimpleAddAbsExpWithCse (docs/ge/autofuse.md): exp(abs(x + x)) with one shared Load;
// 7 nodes, Data/Load/Store/Output included.
ge.graph @add_abs_exp {
  %x = ge.Data {index = 0} : tensor<2x3x4xf32>
  %y = ge.AscBackend(%x) {fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["add", "abs", "exp"], fusion_nodes_size = 7} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
    ascgraph.graph @add_abs_exp_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 4] {
      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
      %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
      %add = ascgraph.Add(%load, %load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
      %abs = ascgraph.Abs(%add) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
      %exp = ascgraph.Exp(%abs) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
      %store = ascgraph.Store(%exp) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
      %out = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
    }
  }
  ge.NetOutput %y : tensor<2x3x4xf32>
}

// CHECK:      ge.graph @add_abs_exp {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<2x3x4xf32>
// CHECK-NEXT:   %y = ge.AscBackend(%x) {fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["add", "abs", "exp"], fusion_nodes_size = 7} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
// CHECK-NEXT:     ascgraph.graph @add_abs_exp_graph axis = [0: z0 = 2, 1: z1 = 3, 2: z2 = 4] {
// CHECK-NEXT:       %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %add = ascgraph.Add(%load, %load) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %abs = ascgraph.Abs(%add) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %exp = ascgraph.Exp(%abs) {sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %store = ascgraph.Store(%exp) {offset = 0, sched.axis = [0, 1, 2]} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:       %out = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1, 2], repeats = [2, 3, 4], strides = [12, 4, 1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %y : tensor<2x3x4xf32>
// CHECK-NEXT: }

// -----

// Every pointwise node, a 0-d Scalar broadcast into Mul, comparisons to uint8, Where, and
// a Cast whose destination dtype is its output dtype; two outputs; no fuse attributes.
ge.graph @pointwise {
  %x = ge.Data {index = 0} : tensor<8xf32>
  %y = ge.Data {index = 1} : tensor<8xf32>
  %a, %b = ge.AscBackend(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf16>, tensor<8xui8>) {
    ascgraph.graph @pointwise_graph axis = [0: z0 = 8] {
      %dx = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %dy = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %lx = ascgraph.Load(%dx) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %ly = ascgraph.Load(%dy) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %two = ascgraph.Scalar {value = "2.0"} : !ascgraph.tensor<f32, axis = [], repeats = [], strides = []>
      %b0 = ascgraph.Add(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %b1 = ascgraph.Sub(%b0, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %b2 = ascgraph.Mul(%b1, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %b3 = ascgraph.Div(%b2, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %b4 = ascgraph.Maximum(%b3, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %b5 = ascgraph.Minimum(%b4, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %b6 = ascgraph.Pow(%b5, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %m = ascgraph.Mul(%b6, %two) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u0 = ascgraph.Abs(%m) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u1 = ascgraph.Neg(%u0) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u2 = ascgraph.Exp(%u1) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u3 = ascgraph.Ln(%u2) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u4 = ascgraph.Relu(%u3) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u5 = ascgraph.Sqrt(%u4) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u6 = ascgraph.Rsqrt(%u5) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u7 = ascgraph.Reciprocal(%u6) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u8 = ascgraph.Sigmoid(%u7) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %u9 = ascgraph.Tanh(%u8) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %c0 = ascgraph.Eq(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %c1 = ascgraph.Ne(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %c2 = ascgraph.Gt(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %c3 = ascgraph.Ge(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %c4 = ascgraph.Lt(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %c5 = ascgraph.Le(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %w = ascgraph.Where(%c2, %u9, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
      %h = ascgraph.Cast(%w) {sched.axis = [0]} : !ascgraph.tensor<f16, axis = [0], repeats = [8], strides = [1]>
      %s0 = ascgraph.Store(%h) {sched.axis = [0]} : !ascgraph.tensor<f16, axis = [0], repeats = [8], strides = [1]>
      %s1 = ascgraph.Store(%c5) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
      %o0 = ascgraph.Output(%s0) {index = 0} : !ascgraph.tensor<f16, axis = [0], repeats = [8], strides = [1]>
      %o1 = ascgraph.Output(%s1) {index = 1} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
    }
  }
  ge.NetOutput %a, %b : tensor<8xf16>, tensor<8xui8>
}

// CHECK-LABEL: ge.graph @pointwise {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<8xf32>
// CHECK-NEXT:   %y = ge.Data {index = 1} : tensor<8xf32>
// CHECK-NEXT:   %a, %b = ge.AscBackend(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf16>, tensor<8xui8>) {
// CHECK-NEXT:     ascgraph.graph @pointwise_graph axis = [0: z0 = 8] {
// CHECK-NEXT:       %dx = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %dy = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %lx = ascgraph.Load(%dx) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %ly = ascgraph.Load(%dy) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %two = ascgraph.Scalar {value = "2.0"} : !ascgraph.tensor<f32, axis = [], repeats = [], strides = []>
// CHECK-NEXT:       %b0 = ascgraph.Add(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %b1 = ascgraph.Sub(%b0, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %b2 = ascgraph.Mul(%b1, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %b3 = ascgraph.Div(%b2, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %b4 = ascgraph.Maximum(%b3, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %b5 = ascgraph.Minimum(%b4, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %b6 = ascgraph.Pow(%b5, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %m = ascgraph.Mul(%b6, %two) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u0 = ascgraph.Abs(%m) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u1 = ascgraph.Neg(%u0) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u2 = ascgraph.Exp(%u1) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u3 = ascgraph.Ln(%u2) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u4 = ascgraph.Relu(%u3) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u5 = ascgraph.Sqrt(%u4) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u6 = ascgraph.Rsqrt(%u5) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u7 = ascgraph.Reciprocal(%u6) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u8 = ascgraph.Sigmoid(%u7) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %u9 = ascgraph.Tanh(%u8) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %c0 = ascgraph.Eq(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %c1 = ascgraph.Ne(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %c2 = ascgraph.Gt(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %c3 = ascgraph.Ge(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %c4 = ascgraph.Lt(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %c5 = ascgraph.Le(%lx, %ly) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %w = ascgraph.Where(%c2, %u9, %ly) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %h = ascgraph.Cast(%w) {sched.axis = [0]} : !ascgraph.tensor<f16, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %s0 = ascgraph.Store(%h) {sched.axis = [0]} : !ascgraph.tensor<f16, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %s1 = ascgraph.Store(%c5) {sched.axis = [0]} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %o0 = ascgraph.Output(%s0) {index = 0} : !ascgraph.tensor<f16, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:       %o1 = ascgraph.Output(%s1) {index = 1} : !ascgraph.tensor<ui8, axis = [0], repeats = [8], strides = [1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %a, %b : tensor<8xf16>, tensor<8xui8>
// CHECK-NEXT: }

// -----

// Views in the Data: x^T through permuted strides [1, 4], y[:, None] as repeat 1 / stride 0,
// an explicit Broadcast after the Load (HintGraph form), out = x^T + y.
ge.graph @views {
  %x = ge.Data {index = 0} : tensor<3x4xf32>
  %y = ge.Data {index = 1} : tensor<4xf32>
  %o = ge.AscBackend(%x, %y) {fuse_type = "pointwise", fuse_type_mask = 2, fusion_nodes_size = 9} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<4x3xf32> {
    ascgraph.graph @views_graph axis = [0: z0 = 4, 1: z1 = 3] {
      %dx = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [1, 4]>
      %dy = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %lx = ascgraph.Load(%dx) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %ly = ascgraph.Load(%dy) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %by = ascgraph.Broadcast(%ly) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %add = ascgraph.Add(%lx, %by) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %st = ascgraph.Store(%add) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %out = ascgraph.Output(%st) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %unused = ascgraph.Scalar {value = "0"} : !ascgraph.tensor<f32, axis = [], repeats = [], strides = []>
    }
  }
  ge.NetOutput %o : tensor<4x3xf32>
}

// CHECK-LABEL: ge.graph @views {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<3x4xf32>
// CHECK-NEXT:   %y = ge.Data {index = 1} : tensor<4xf32>
// CHECK-NEXT:   %o = ge.AscBackend(%x, %y) {fuse_type = "pointwise", fuse_type_mask = 2, fusion_nodes_size = 9} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<4x3xf32> {
// CHECK-NEXT:     ascgraph.graph @views_graph axis = [0: z0 = 4, 1: z1 = 3] {
// CHECK-NEXT:       %dx = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [1, 4]>
// CHECK-NEXT:       %dy = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %lx = ascgraph.Load(%dx) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %ly = ascgraph.Load(%dy) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %by = ascgraph.Broadcast(%ly) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %add = ascgraph.Add(%lx, %by) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %st = ascgraph.Store(%add) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %out = ascgraph.Output(%st) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %unused = ascgraph.Scalar {value = "0"} : !ascgraph.tensor<f32, axis = [], repeats = [], strides = []>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %o : tensor<4x3xf32>
// CHECK-NEXT: }

// -----

// GE's FallBackTransposeOK shape: Data/Load on axes [1, 0], a Transpose node to [0, 1];
// and a sliced view: Load offset 10 reads x[1:3, 2:6] of a 4x8 tensor.
ge.graph @transpose_slice {
  %x = ge.Data {index = 0} : tensor<3x4xf32>
  %s = ge.Data {index = 1} : tensor<4x8xf32>
  %o, %p = ge.AscBackend(%x, %s) {fuse_type = "transpose", fuse_type_mask = 128} : (tensor<3x4xf32>, tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<2x4xf32>) {
    ascgraph.graph @transpose_slice_graph axis = [0: z0 = 4, 1: z1 = 3, 2: z2 = 2] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [1, 0], repeats = [3, 4], strides = [4, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [1, 0], repeats = [3, 4], strides = [4, 1]>
      %t = ascgraph.Transpose(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %st = ascgraph.Store(%t) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %out = ascgraph.Output(%st) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %ds = ascgraph.Data {index = 1, sched.axis = [2, 0]} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [8, 1]>
      %ls = ascgraph.Load(%ds) {offset = 10, sched.axis = [2, 0]} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [4, 1]>
      %ss = ascgraph.Store(%ls) {sched.axis = [2, 0]} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [4, 1]>
      %os = ascgraph.Output(%ss) {index = 1} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [4, 1]>
    }
  }
  ge.NetOutput %o, %p : tensor<4x3xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: ge.graph @transpose_slice {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<3x4xf32>
// CHECK-NEXT:   %s = ge.Data {index = 1} : tensor<4x8xf32>
// CHECK-NEXT:   %o, %p = ge.AscBackend(%x, %s) {fuse_type = "transpose", fuse_type_mask = 128} : (tensor<3x4xf32>, tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<2x4xf32>) {
// CHECK-NEXT:     ascgraph.graph @transpose_slice_graph axis = [0: z0 = 4, 1: z1 = 3, 2: z2 = 2] {
// CHECK-NEXT:       %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [1, 0], repeats = [3, 4], strides = [4, 1]>
// CHECK-NEXT:       %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [1, 0], repeats = [3, 4], strides = [4, 1]>
// CHECK-NEXT:       %t = ascgraph.Transpose(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %st = ascgraph.Store(%t) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %out = ascgraph.Output(%st) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %ds = ascgraph.Data {index = 1, sched.axis = [2, 0]} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [8, 1]>
// CHECK-NEXT:       %ls = ascgraph.Load(%ds) {offset = 10, sched.axis = [2, 0]} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [4, 1]>
// CHECK-NEXT:       %ss = ascgraph.Store(%ls) {sched.axis = [2, 0]} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [4, 1]>
// CHECK-NEXT:       %os = ascgraph.Output(%ss) {index = 1} : !ascgraph.tensor<f32, axis = [2, 0], repeats = [2, 4], strides = [4, 1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %o, %p : tensor<4x3xf32>, tensor<2x4xf32>
// CHECK-NEXT: }

// -----

// Keep-dim reductions: the reduced axis stays with repeat 1 and stride 0 (docs/ge/autofuse.md).
ge.graph @reduce {
  %x = ge.Data {index = 0} : tensor<4x6xf32>
  %y0, %y1, %y2, %y3, %y4, %y5 = ge.AscBackend(%x) {fuse_type = "reduce", fuse_type_mask = 4, origin_nodes = ["sum"], fusion_nodes_size = 20} : (tensor<4x6xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x6xf32>) {
    ascgraph.graph @reduce_graph axis = [0: z0 = 4, 1: z1 = 6] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 6], strides = [6, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 6], strides = [6, 1]>
      %r0 = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %r1 = ascgraph.Max(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %r2 = ascgraph.Min(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %r3 = ascgraph.Mean(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %r4 = ascgraph.Prod(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %r5 = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 6], strides = [0, 1]>
      %s0 = ascgraph.Store(%r0) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %s1 = ascgraph.Store(%r1) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %s2 = ascgraph.Store(%r2) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %s3 = ascgraph.Store(%r3) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %s4 = ascgraph.Store(%r4) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %s5 = ascgraph.Store(%r5) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 6], strides = [0, 1]>
      %o0 = ascgraph.Output(%s0) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o1 = ascgraph.Output(%s1) {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o2 = ascgraph.Output(%s2) {index = 2} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o3 = ascgraph.Output(%s3) {index = 3} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o4 = ascgraph.Output(%s4) {index = 4} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o5 = ascgraph.Output(%s5) {index = 5} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 6], strides = [0, 1]>
    }
  }
  ge.NetOutput %y0, %y1, %y2, %y3, %y4, %y5 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x6xf32>
}

// CHECK-LABEL: ge.graph @reduce {
// CHECK-NEXT:   %x = ge.Data {index = 0} : tensor<4x6xf32>
// CHECK-NEXT:   %y0, %y1, %y2, %y3, %y4, %y5 = ge.AscBackend(%x) {fuse_type = "reduce", fuse_type_mask = 4, origin_nodes = ["sum"], fusion_nodes_size = 20} : (tensor<4x6xf32>) -> (tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x6xf32>) {
// CHECK-NEXT:     ascgraph.graph @reduce_graph axis = [0: z0 = 4, 1: z1 = 6] {
// CHECK-NEXT:       %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 6], strides = [6, 1]>
// CHECK-NEXT:       %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 6], strides = [6, 1]>
// CHECK-NEXT:       %r0 = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %r1 = ascgraph.Max(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %r2 = ascgraph.Min(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %r3 = ascgraph.Mean(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %r4 = ascgraph.Prod(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %r5 = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 6], strides = [0, 1]>
// CHECK-NEXT:       %s0 = ascgraph.Store(%r0) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %s1 = ascgraph.Store(%r1) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %s2 = ascgraph.Store(%r2) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %s3 = ascgraph.Store(%r3) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %s4 = ascgraph.Store(%r4) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %s5 = ascgraph.Store(%r5) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 6], strides = [0, 1]>
// CHECK-NEXT:       %o0 = ascgraph.Output(%s0) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %o1 = ascgraph.Output(%s1) {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %o2 = ascgraph.Output(%s2) {index = 2} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %o3 = ascgraph.Output(%s3) {index = 3} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %o4 = ascgraph.Output(%s4) {index = 4} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
// CHECK-NEXT:       %o5 = ascgraph.Output(%s5) {index = 5} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 6], strides = [0, 1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %y0, %y1, %y2, %y3, %y4, %y5 : tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<1x6xf32>
// CHECK-NEXT: }

// -----

// Concat along axis 1 (the inputs' repeats 2 + 4 = 6), Split back into 3 + 3, one half
// through a GM Workspace and a Load again.
ge.graph @concat_split {
  %a = ge.Data {index = 0} : tensor<4x2xf16>
  %b = ge.Data {index = 1} : tensor<4x4xf16>
  %u, %v = ge.AscBackend(%a, %b) {fuse_type = "concat", fuse_type_mask = 24, origin_nodes = ["concat", "split"], fusion_nodes_size = 14} : (tensor<4x2xf16>, tensor<4x4xf16>) -> (tensor<4x3xf16>, tensor<4x3xf16>) {
    ascgraph.graph @concat_split_graph axis = [0: z0 = 4, 1: z1 = 6] {
      %d0 = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 2], strides = [2, 1]>
      %d1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 4], strides = [4, 1]>
      %l0 = ascgraph.Load(%d0) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 2], strides = [2, 1]>
      %l1 = ascgraph.Load(%d1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 4], strides = [4, 1]>
      %c = ascgraph.Concat(%l0, %l1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 6], strides = [6, 1]>
      %s0, %s1 = ascgraph.Split(%c) {gid = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>, !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %st0 = ascgraph.Store(%s0) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %ws = ascgraph.Workspace(%st0) : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %lw = ascgraph.Load(%ws) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %n = ascgraph.Neg(%lw) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %st1 = ascgraph.Store(%n) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %st2 = ascgraph.Store(%s1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o0 = ascgraph.Output(%st1) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o1 = ascgraph.Output(%st2) {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %u, %v : tensor<4x3xf16>, tensor<4x3xf16>
}

// CHECK-LABEL: ge.graph @concat_split {
// CHECK-NEXT:   %a = ge.Data {index = 0} : tensor<4x2xf16>
// CHECK-NEXT:   %b = ge.Data {index = 1} : tensor<4x4xf16>
// CHECK-NEXT:   %u, %v = ge.AscBackend(%a, %b) {fuse_type = "concat", fuse_type_mask = 24, origin_nodes = ["concat", "split"], fusion_nodes_size = 14} : (tensor<4x2xf16>, tensor<4x4xf16>) -> (tensor<4x3xf16>, tensor<4x3xf16>) {
// CHECK-NEXT:     ascgraph.graph @concat_split_graph axis = [0: z0 = 4, 1: z1 = 6] {
// CHECK-NEXT:       %d0 = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 2], strides = [2, 1]>
// CHECK-NEXT:       %d1 = ascgraph.Data {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 4], strides = [4, 1]>
// CHECK-NEXT:       %l0 = ascgraph.Load(%d0) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 2], strides = [2, 1]>
// CHECK-NEXT:       %l1 = ascgraph.Load(%d1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 4], strides = [4, 1]>
// CHECK-NEXT:       %c = ascgraph.Concat(%l0, %l1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 6], strides = [6, 1]>
// CHECK-NEXT:       %s0, %s1 = ascgraph.Split(%c) {gid = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>, !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %st0 = ascgraph.Store(%s0) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %ws = ascgraph.Workspace(%st0) : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %lw = ascgraph.Load(%ws) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %n = ascgraph.Neg(%lw) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %st1 = ascgraph.Store(%n) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %st2 = ascgraph.Store(%s1) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %o0 = ascgraph.Output(%st1) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:       %o1 = ascgraph.Output(%st2) {index = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   ge.NetOutput %u, %v : tensor<4x3xf16>, tensor<4x3xf16>
// CHECK-NEXT: }
