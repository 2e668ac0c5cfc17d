// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// Each verifier rule of the ascgraph dialect and of ge.AscBackend/FusedAscBackend: one
// malformed AscGraph per chunk, one located error each.

// a tensor names an axis id the graph does not have
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 5], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Abs: output 0 axis names axis id 5, which is not a graph axis [0, 1]

// -----

// sched.axis names an unknown axis id
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 7]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Abs: sched.axis names axis id 7, which is not a graph axis [0, 1]

// -----

// an axis id twice in a tensor
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 0], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Data: output 0 axis names axis id 0 twice

// -----

// an output axis outside the node's loop axes
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Abs: output 0 has axis [1] outside the node's sched.axis [0]

// -----

// a repeat larger than its axis
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 9], strides = [9, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Data: output 0 has repeat 9 on axis z1 (id 1) of size 8; repeats lie in 1..8

// -----

// a partial repeat on an axis that is no Concat/Split axis
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x5xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 5], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 5], strides = [5, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 5], strides = [5, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 5], strides = [5, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 5], strides = [5, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x5xf32>
}

// CHECK: error: ascgraph.Data: output 0 has repeat 5 on axis 1 of size 8; a repeat is the axis size or 1 (only a Concat or Split axis is partly covered)

// -----

// a non-zero stride where the repeat is 1
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x1xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x1xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Data: output 0 has repeat 1 and stride 1 on axis z1; the stride is 0 exactly where the repeat is 1

// -----

// stride 0 where the repeat is not 1
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [0, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Data: output 0 has repeat 4 and stride 0 on axis z0; the stride is 0 exactly where the repeat is 1

// -----

// an on-chip tensor that is not contiguous
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [1, 4]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Abs: output 0 has strides [1, 4], but an on-chip tensor with repeats [4, 8] is contiguous: strides [8, 1]

// -----

// two graph axes with one id
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8, 1: z2 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.graph: axis id 1 is used by z1 and z2

// -----

// a graph axis of size 0 (static sizes >= 1)
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 0] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: axis z1 has size 0; sizes are integers >= 1 or symbolic dims

// -----

// a tensor type whose repeats do not match its axes (a parse error)
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: repeats has 1 entries for 2 axes

// -----

// Data indices with a gap
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.graph: Data indices must be 0..0; index 0 is missing

// -----

// two Data nodes with one index
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %x1 = ge.Data {index = 1} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0, %x1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %e = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.graph: two Data nodes have index 0

// -----

// Output indices with a gap
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 2} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.graph: Output indices must be 0..0; index 0 is missing

// -----

// fewer Data nodes than AscBackend inputs
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %x1 = ge.Data {index = 1} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0, %x1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: AscGraph has 1 Data nodes for 2 AscBackend inputs

// -----

// fewer Output nodes than AscBackend outputs
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0, %y1 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0, %y1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: AscGraph has 1 Output nodes for 2 AscBackend outputs

// -----

// a Data dtype that is not its input's
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf16>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf16>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: Data 0 has dtype f32, but AscBackend input 0 is tensor<4x8xf16>

// -----

// an Output dtype that is not its result's
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xi32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xi32>
}

// CHECK: error: ge.AscBackend: Output 0 has dtype f32, but AscBackend output 0 is tensor<4x8xi32>

// -----

// a Data view larger than its input tensor
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x7xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x7xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: Data 0 reads element 31 through its view, but AscBackend input 0 (tensor<4x7xf32>) has 28 elements

// -----

// a Load offset past the end of the input
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {offset = 1, sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: Data 0 reads element 32 through a Load at offset 1, but AscBackend input 0 (tensor<4x8xf32>) has 32 elements

// -----

// a Store view that does not cover its output
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x9xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x9xf32>
}

// CHECK: error: ge.AscBackend: Output 0 is written through a view of 32 elements reaching element 31, but AscBackend output 0 (tensor<4x9xf32>) has 36 elements

// -----

// fusion_nodes_size that is not the node count
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) {fusion_nodes_size = 4} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: fusion_nodes_size is 4, but the AscGraph has 5 nodes (Data/Load/Store/Output included)

// -----

// an unknown fuse_type
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) {fuse_type = "elementwise"} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: AscBackend fuse_type must be one of default, pointwise, reduce, concat, split, slice, gather, transpose, cube, reshape, extern, got "elementwise"

// -----

// a fuse_type_mask with a bit past kExtern
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) {fuse_type_mask = 2048} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: AscBackend fuse_type_mask must be an OR of 1 << FuseType bits (0..2047), got 2048

// -----

// origin_nodes that are not names
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) {origin_nodes = [1, 2]} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ge.AscBackend: AscBackend origin_nodes must be a list of node-name strings

// -----

// an AscBackend without an AscGraph
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.AscBackend(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  }
  ge.NetOutput %y : tensor<4xf32>
}

// CHECK: error: ge.AscBackend: AscBackend's region must hold exactly one ascgraph.graph, found nothing

// -----

// a FusedAscBackend body holding a non-AscBackend node
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<4xf32>
  %y = ge.FusedAscBackend(%x) : (tensor<4xf32>) -> tensor<4xf32> {
    %d = ge.Data {index = 0} : tensor<4xf32>
    %r = ge.Relu(%d) : (tensor<4xf32>) -> tensor<4xf32>
    ge.NetOutput %r : tensor<4xf32>
  }
  ge.NetOutput %y : tensor<4xf32>
}

// CHECK: error: ge.FusedAscBackend: FusedAscBackend body holds AscBackend nodes only, got ge.Relu 'r'

// -----

// a compute node without sched.axis
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Abs: Abs requires attribute 'sched.axis' (its loop axis ids)

// -----

// an ascgraph node outside an AscGraph
%a = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>

// CHECK: error: ascgraph.Data: ascgraph.Data must be inside an ascgraph.graph

// -----

// pointwise operands whose repeats are incompatible
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<1x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %r = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %m = ascgraph.Max(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 8], strides = [0, 1]>
      %a = ascgraph.Add(%l, %r) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %b = ascgraph.Add(%a, %m) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 8], strides = [0, 1]>
      %s = ascgraph.Store(%b) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 8], strides = [0, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [1, 8], strides = [0, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<1x8xf32>
}

// CHECK: error: ascgraph.Add: input 0 has repeat 4 on axis id 0, the output 1: operand views are incompatible (repeats must be equal, or 1 to broadcast)

// -----

// a pointwise node that expands an axis (that is Broadcast's job)
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %r = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %a = ascgraph.Abs(%r) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Abs: output repeat 8 on axis id 1 is not the broadcast of the inputs' [1] (an explicit Broadcast node expands an axis)

// -----

// pointwise operands with another axis order
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %t = ascgraph.Transpose(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [1, 0], repeats = [8, 4], strides = [4, 1]>
      %a = ascgraph.Add(%l, %t) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Add: input 1 has axis [1, 0], but the output has [0, 1]

// -----

// pointwise operands of two dtypes
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %c = ascgraph.Cast(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Add(%l, %c) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Add: inputs must share one dtype, got f16, f32

// -----

// a comparison that does not output uint8
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Gt(%l, %l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Gt: Gt outputs DT_UINT8, got f32

// -----

// a Scalar whose value is not a number
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %k = ascgraph.Scalar {value = "one"} : !ascgraph.tensor<f32, axis = [], repeats = [], strides = []>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Scalar: Scalar value 'one' is not a number

// -----

// a Load that widens a partial Data repeat (only a repeat-1 axis broadcasts)
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Load: Load output repeat 4 on axis id 0 differs from its input's 2 (only a repeat-1 axis broadcasts)

// -----

// a Load of a compute value
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Load(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Load: Load reads a Data or Workspace, got ascgraph.Load

// -----

// a Load that broadcasts a non-1 repeat
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %a = ascgraph.Broadcast(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Load: Load output repeat 1 on axis id 1 differs from its input's 8 (only a repeat-1 axis broadcasts)

// -----

// a Broadcast that shrinks an axis
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x1xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Broadcast(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
    }
  }
  ge.NetOutput %y0 : tensor<4x1xf32>
}

// CHECK: error: ascgraph.Broadcast: Broadcast cannot turn repeat 8 into 1 on axis id 1 (only repeat 1 expands)

// -----

// a Transpose whose output axes are not a permutation of its input's
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %t = ascgraph.Transpose(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Transpose: Transpose output axis [0] is not a permutation of its input's [0, 1]

// -----

// a Concat whose inputs do not add up to its output
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x3xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x3xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %a = ascgraph.Concat(%l, %l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Concat: Concat input repeats on axis id 1 sum to 6, but the whole has 8

// -----

// a Split whose outputs differ from its input on two axes
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %p, %q = ascgraph.Split(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 4], strides = [4, 1]>, !ascgraph.tensor<f32, axis = [0, 1], repeats = [2, 4], strides = [4, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Split: Split output repeats must differ from the whole on exactly one axis, they differ on [0, 1]

// -----

// a reduction that drops an axis (reductions keep dims)
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x1xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %r = ascgraph.Sum(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
      %s = ascgraph.Store(%r) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0], repeats = [4], strides = [1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x1xf32>
}

// CHECK: error: ascgraph.Sum: Sum keeps dims: output axis [0] must equal the input's [0, 1]

// -----

// an Output fed by something other than a Store
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%a) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Output: Output takes a Store's result, got ascgraph.Abs

// -----

// a Store read by a compute node
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %n = ascgraph.Neg(%s) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Store: a Store's result goes to Output or Workspace, not ascgraph.Neg

// -----

// a Store whose view is not its input's
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %y0 = ge.AscBackend(%x0) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 8] {
      %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %l = ascgraph.Load(%d) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %a = ascgraph.Abs(%l) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %s = ascgraph.Store(%a) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 1], strides = [1, 0]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x8xf32>
}

// CHECK: error: ascgraph.Store: Store output: axis [0, 1] repeats [4, 8] differ from axis [0, 1] repeats [4, 1]
