// RUN: ge-opt %examples/softmax_like.mlir -p 'ge-lower-autofuse{enable-pass=reduce},ge-autofuse' --remarks 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.err
//
// The issue's "done when": softmax fuses as GE would and says what it did not fuse. By
// hand (reduction_fusion_strategy.cpp, docs/ge/autofuse.md): ReduceMaxD and Sub_Exp both read
// x, so they are horizontal as well as vertical, and a reduction never fuses horizontally;
// Sub_Exp -> ReduceSumD (pointwise into a reduction), then + RealDiv (1 compute node
// absorbed, <= 3). ReduceMaxD stays alone with one compute op: lifted back to the GE op.
// 4 kernels -> 2.

// CHECK:      %m = ge.ReduceMaxD(%x) {axes = [-1], keep_dims = true}
// CHECK-NEXT: %y = ge.AscBackend(%x, %m) {name = "autofuse_1_Sub_Exp_ReduceSumD_RealDiv", fuse_type = "pointwise", {{.*}}origin_nodes = ["d", "e", "s", "y"], reduce_fused_elementwise_node_num = 1
// CHECK-NOT:  ge.AscBackend
// CHECK:      ge.NetOutput %y

// REMARK:     softmax_like.mlir:7:3: remark: ge-autofuse: 'autofuse_reduce_0_ReduceMaxD' and 'autofuse_pointwise_1_Sub_Exp' not fused: node1 and node2 read a common input and one is a reduction [NF1021] [ReduceCanNotFuseHorizontal]
// REMARK:     softmax_like.mlir:7:3: remark: ge-autofuse: 'autofuse_reduce_0_ReduceMaxD' and 'autofuse_1_Sub_Exp_ReduceSumD_RealDiv' not fused: node1 and node2 read a common input and one is a reduction [NF1021]
// REMARK:     remark: ge-autofuse: lifted 'autofuse_reduce_0_ReduceMaxD' back to ReduceMaxD 'm' (fewer than 2 compute ops, not fused)
// REMARK:     remark: ge-autofuse @main: kernels 4 -> 2,
