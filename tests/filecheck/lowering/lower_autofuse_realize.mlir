// RUN: ge-opt %s -p 'ge-lower-autofuse{max-loop-ops=5}' | filecheck %s --check-prefix=OPS5
// RUN: ge-opt %s -p 'ge-lower-autofuse' | filecheck %s --check-prefix=OPS64
// GE's RealizeAsTooManyOps (loop_lowering_manager_lowering_strategy_unittest.cpp): with
// max_loop_ops = 5 a chain of 50 Abs is realized at every 5th op: 10 AscBackends of 5 Abs
// (Data, Load, 5 Abs, Store, Output = 9 nodes). With the default 64 it is one AscBackend.
ge.graph @RealizeAsTooManyOps {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a0 = ge.Abs(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a1 = ge.Abs(%a0) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a2 = ge.Abs(%a1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a3 = ge.Abs(%a2) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a4 = ge.Abs(%a3) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a5 = ge.Abs(%a4) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a6 = ge.Abs(%a5) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a7 = ge.Abs(%a6) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a8 = ge.Abs(%a7) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a9 = ge.Abs(%a8) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a10 = ge.Abs(%a9) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a11 = ge.Abs(%a10) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a12 = ge.Abs(%a11) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a13 = ge.Abs(%a12) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a14 = ge.Abs(%a13) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a15 = ge.Abs(%a14) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a16 = ge.Abs(%a15) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a17 = ge.Abs(%a16) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a18 = ge.Abs(%a17) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a19 = ge.Abs(%a18) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a20 = ge.Abs(%a19) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a21 = ge.Abs(%a20) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a22 = ge.Abs(%a21) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a23 = ge.Abs(%a22) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a24 = ge.Abs(%a23) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a25 = ge.Abs(%a24) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a26 = ge.Abs(%a25) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a27 = ge.Abs(%a26) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a28 = ge.Abs(%a27) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a29 = ge.Abs(%a28) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a30 = ge.Abs(%a29) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a31 = ge.Abs(%a30) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a32 = ge.Abs(%a31) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a33 = ge.Abs(%a32) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a34 = ge.Abs(%a33) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a35 = ge.Abs(%a34) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a36 = ge.Abs(%a35) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a37 = ge.Abs(%a36) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a38 = ge.Abs(%a37) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a39 = ge.Abs(%a38) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a40 = ge.Abs(%a39) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a41 = ge.Abs(%a40) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a42 = ge.Abs(%a41) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a43 = ge.Abs(%a42) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a44 = ge.Abs(%a43) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a45 = ge.Abs(%a44) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a46 = ge.Abs(%a45) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a47 = ge.Abs(%a46) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a48 = ge.Abs(%a47) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a49 = ge.Abs(%a48) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %a49 : tensor<4x16xf32>
}
// OPS5-COUNT-10: {name = "autofuse_pointwise_{{[0-9]}}_Abs_Abs_Abs_Abs_Abs", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = {{.*}}, fusion_nodes_size = 9}
// OPS5-NOT:      ge.AscBackend
// OPS5:          ge.NetOutput %a49
// OPS64:         %a49 = ge.AscBackend(%x) {{.*}} fusion_nodes_size = 54}
// OPS64-NOT:     ge.AscBackend
