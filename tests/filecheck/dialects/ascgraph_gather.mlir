// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// The AscIR Gather node (asc_overrides.h GatherLoad): Data operands read directly with
// whole-tensor views, integer indices, output repeats params[:axis] + indices + params[axis+1:].

// a Gather over its params and indices Data views (positional axis ids, whole tensors) is valid:
// the params Data has repeat 8 on axis z1 of size 3, which only a Gather operand may
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %i0 = ge.Data {index = 1} : tensor<3xi32>
  %y0 = ge.AscBackend(%x0, %i0) : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<4x3xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 3] {
      %p = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %i = ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
      %g = ascgraph.Gather(%p, %i) {sched.axis = [0, 1], axis = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %s = ascgraph.Store(%g) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x3xf32>
}

// CHECK-NOT: error
// CHECK: ascgraph.Gather(%p, %i) {sched.axis = [0, 1], axis = 1}

// -----

// the output repeats are not params[:axis] + indices + params[axis+1:]
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %i0 = ge.Data {index = 1} : tensor<3xi32>
  %y0 = ge.AscBackend(%x0, %i0) : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<4x3xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 3] {
      %p = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %i = ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
      %g = ascgraph.Gather(%p, %i) {sched.axis = [0, 1], axis = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %s = ascgraph.Store(%g) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x3xf32>
}

// CHECK: error: ascgraph.Gather: Gather output repeats [4, 3] are not params[:axis] + indices + params[axis+1:] = [3, 8]

// -----

// the indices are not integers
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %i0 = ge.Data {index = 1} : tensor<3xf32>
  %y0 = ge.AscBackend(%x0, %i0) : (tensor<4x8xf32>, tensor<3xf32>) -> tensor<4x3xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 3] {
      %p = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %i = ascgraph.Data {index = 1} : !ascgraph.tensor<f32, axis = [0], repeats = [3], strides = [1]>
      %g = ascgraph.Gather(%p, %i) {sched.axis = [0, 1], axis = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %s = ascgraph.Store(%g) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x3xf32>
}

// CHECK: error: ascgraph.Gather: Gather indices must be int32 or int64, got f32

// -----

// axis out of range
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %i0 = ge.Data {index = 1} : tensor<3xi32>
  %y0 = ge.AscBackend(%x0, %i0) : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<4x3xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 3] {
      %p = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %i = ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
      %g = ascgraph.Gather(%p, %i) {sched.axis = [0, 1], axis = 2} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %s = ascgraph.Store(%g) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x3xf32>
}

// CHECK: error: ascgraph.Gather: Gather axis 2 is out of range for params of rank 2

// -----

// the params view is not the whole tensor
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %i0 = ge.Data {index = 1} : tensor<3xi32>
  %y0 = ge.AscBackend(%x0, %i0) : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<4x3xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 3] {
      %p = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [16, 1]>
      %i = ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
      %g = ascgraph.Gather(%p, %i) {sched.axis = [0, 1], axis = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %s = ascgraph.Store(%g) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x3xf32>
}

// CHECK: error: ascgraph.Gather: Gather's params Data view must be the whole tensor, contiguous: strides [8, 1], got [16, 1]

// -----

// the indices come through a Load
ge.graph @g {
  %x0 = ge.Data {index = 0} : tensor<4x8xf32>
  %i0 = ge.Data {index = 1} : tensor<3xi32>
  %y0 = ge.AscBackend(%x0, %i0) : (tensor<4x8xf32>, tensor<3xi32>) -> tensor<4x3xf32> {
    ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 3] {
      %p = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
      %i = ascgraph.Data {index = 1} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
      %l = ascgraph.Load(%i) {sched.axis = [0, 1]} : !ascgraph.tensor<i32, axis = [0], repeats = [3], strides = [1]>
      %g = ascgraph.Gather(%p, %l) {sched.axis = [0, 1], axis = 1} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %s = ascgraph.Store(%g) {sched.axis = [0, 1]} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
      %o = ascgraph.Output(%s) {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 3], strides = [3, 1]>
    }
  }
  ge.NetOutput %y0 : tensor<4x3xf32>
}

// CHECK: error: ascgraph.Gather: Gather reads its indices from a Data node, got ascgraph.Load
