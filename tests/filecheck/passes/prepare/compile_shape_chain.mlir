// RUN: ge-run %s --streams 2 | filecheck %s
// RUN: ge-opt %s -p ge-compile | filecheck %s --check-prefix=NPU

// ge-compile starts with GE's graph preparation, so a Shape of a static shape, the
// Gather / Unsqueeze / Concat chain on it (PyTorch's flatten), a Size and a Snapshot no
// longer reach task generation, where GE's GeDeletedOp::Run fails on a Shape, Size or
// Snapshot (ge_deleted_op.cc): they fold into Consts (the Reshape's shape input [3, -1],
// the Size 120 added to the int input) or go, and the model runs.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<3x4x10xf32>
  %n = ge.Data {index = 1} : tensor<2xi32>
  %s = ge.Shape(%x) : (tensor<3x4x10xf32>) -> tensor<3xi64>
  %i = ge.Const {value = dense<0> : tensor<i64>} : tensor<i64>
  %ax = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
  %b = ge.GatherV2(%s, %i, %ax) : (tensor<3xi64>, tensor<i64>, tensor<i32>) -> tensor<i64>
  %bu = ge.UnsqueezeV3(%b) {axes = [0]} : (tensor<i64>) -> tensor<1xi64>
  %m = ge.Const {value = dense<[-1]> : tensor<1xi64>} : tensor<1xi64>
  %c = ge.ConcatD(%bu, %m) {concat_dim = 0, N = 2} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %snap = ge.Snapshot(%x) : (tensor<3x4x10xf32>) -> tensor<3x4x10xf32>
  %r = ge.Reshape(%snap, %c) : (tensor<3x4x10xf32>, tensor<2xi64>) -> tensor<3x40xf32>
  %y = ge.Relu(%r) : (tensor<3x40xf32>) -> tensor<3x40xf32>
  %sz = ge.Size(%x) : (tensor<3x4x10xf32>) -> tensor<i32>
  %k = ge.Add(%n, %sz) : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  ge.NetOutput %y, %k : tensor<3x40xf32>, tensor<2xi32>
}

// CHECK: outputs match the reference

// NPU:     npu.model
// NPU-NOT: ge.Shape
// NPU-NOT: ge.Size
// NPU-NOT: ge.Snapshot
