// RUN: ge-opt %s -p 'ge-lower-autofuse{enable-pass=reduce,concat},ge-autofuse{lifting=false remarks=true}' 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// GE's solver UT Concat_Can_Fuse_By_Same_Sched_Info_Both_Horizontal_And_Vertical
// (fusion_strategy_solver_unittest.cpp, docs/ge/autofuse.md) with the real decider:
// data1 -> Reduce -> {B, F2}, B -> F2, data2 -> F, data3 -> E, {F2, F, E} -> Concat.
// GE: -4 nodes (6 AscBackends -> 2), "B, F2, F, E, Concat fuse together" (Reduce alone).
// Ours: the lowering already inlines F2 (a Mul, a cheap op) into the concat's kernel
// (lower_autofuse: realize rules, §3.3), so we start from 5 kernels; the groups are GE's:
// HIGH (concat) bucket: F, E, and B (B -> F2 inside the concat kernel, while B and F2
// both read Reduce: vertical and horizontal at once, CheckSameSchedAxis holds) join the
// concat in a FusedAscBackend; Reduce is refused (a reduction fuses forward only with
// pointwise nodes). 5 kernels -> 2.

ge.graph @main {
  %data1 = ge.Data {index = 0} : tensor<4x32xf32>
  %data2 = ge.Data {index = 1} : tensor<4x32xf32>
  %data3 = ge.Data {index = 2} : tensor<4x32xf32>
  %R = ge.ReduceSumD(%data1) {axes = [1], keep_dims = true} : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %F = ge.Exp(%data2) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %E = ge.Exp(%data3) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %B = ge.Exp(%R) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %F2 = ge.Mul(%R, %B) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %cat = ge.ConcatD(%F2, %F, %E) {concat_dim = 1} : (tensor<4x1xf32>, tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x65xf32>
  ge.NetOutput %cat : tensor<4x65xf32>
}

// CHECK:      %R = ge.AscBackend(%data1) {{{.*}}origin_nodes = ["R"]
// CHECK:      %cat = ge.FusedAscBackend(%R, %data2, %data3) {{{.*}}origin_nodes = ["B", "F", "E", "F2", "cat"]
// CHECK:        ge.AscBackend({{.*}}) {{{.*}}origin_nodes = ["F2", "cat"]
// CHECK:        ge.NetOutput
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %cat

// REMARK-DAG: 'autofuse_reduce_0_ReduceSumD' and 'autofuse_fused_2_Exp_Exp_Exp_Mul_ConcatD' not fused: a reduction fuses forward only with pointwise nodes (no reduction + reduction) [NF1031] [ReduceCanOnlyBackwardFuse3Elementwise]
// REMARK:     remark: ge-autofuse @main: kernels 5 -> 2,
