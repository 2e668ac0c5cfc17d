// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Fuse_concat_has_vertical_and_horizontal_fuse (fusion_strategy_solver_unittest.cpp)
// with the real decider: F2(data1, data2), data3 -> {A, B}, Concat4Inputs(F2, data2, A, B).
// GE: -3 nodes, "A, B, F2, Concat fuse together". F2 is Add+Exp here (Exp is the heavy op
// that keeps it its own kernel in lowering). By hand: HIGH (concat) bucket: F2 joins the
// concat vertically AND horizontally (both read data2); A and B join vertically (into a
// concat unlimited); 4 kernels -> 1 FusedAscBackend reading data1..3 once each. Its inner
// round loop-merges A+B (they share data3); F2 shares no input with them.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x8xf32>
  %data2 = ge.Data {index = 1} : tensor<4x8xf32>
  %data3 = ge.Data {index = 2} : tensor<4x8xf32>
  %s = ge.Add(%data1, %data2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %F2 = ge.Exp(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %A = ge.Exp(%data3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %B = ge.Exp(%data3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %cat = ge.ConcatD(%F2, %data2, %A, %B) {concat_dim = 1} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x32xf32>
  ge.NetOutput %cat : tensor<4x32xf32>
}

// CHECK:      %cat = ge.FusedAscBackend({{%data[123], %data[123], %data[123]}}) {{{.*}}origin_nodes = ["A", "B", "s", "F2", "cat"]
// CHECK:        %A, %B = ge.AscBackend({{.*}}) {{{.*}}origin_nodes = ["A", "B"]
// CHECK:        %F2 = ge.AscBackend({{.*}}) {{{.*}}origin_nodes = ["s", "F2"]
// CHECK:        ge.AscBackend(%F2, {{.*}}, %A, %B) {{{.*}}origin_nodes = ["cat"]
// CHECK:        ge.NetOutput
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %cat

// REMARK:     remark: ge-autofuse @main: kernels 4 -> 1,
