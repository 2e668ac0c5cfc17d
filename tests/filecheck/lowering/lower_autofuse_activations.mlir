// RUN: ge-opt %s -p 'ge-lower-autofuse{remarks=true}' 2>&1 | filecheck %s
// RUN: ge-run %s --seed 3 | filecheck %s --check-prefix=SIM
// A chain of the activation section's ops that GE lowers (lowering_impl.cpp:
// REGISTER_LOWERING(LeakyRelu), REGISTER_POINTWISE_LOWER(Erf / Gelu / Sign / Greater /
// LogicalNot / SelectV2)) is one AscBackend: each node has one reader and the box makes 4
// loads (x, y twice, z), not more than max_loop_loads. Greater and LogicalNot compute uint8
// (bool is uint8 in an AscGraph), which Where reads as its condition. Softplus has no
// lowering in GE: it stays a kernel and realizes the chain.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<16xf16>
  %z = ge.Data {index = 2} : tensor<4x1xf16>
  %a = ge.LeakyRelu(%x) {negative_slope = 0.2 : f32} : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %e = ge.Erf(%a) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %g = ge.Gelu(%e) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %sg = ge.Sign(%g) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %c = ge.Greater(%sg, %y) : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xi1>
  %n = ge.LogicalNot(%c) : (tensor<4x16xi1>) -> tensor<4x16xi1>
  %s = ge.SelectV2(%n, %y, %z) : (tensor<4x16xi1>, tensor<16xf16>, tensor<4x1xf16>) -> tensor<4x16xf16>
  %sp = ge.Softplus(%s) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  ge.NetOutput %sp : tensor<4x16xf16>
}

// CHECK: remark: LeakyRelu 'a': lowered into autofuse_pointwise_0_LeakyRelu_Erf_Gelu_Sign_Greater_LogicalNot_SelectV2; output 0 inlined into its reader
// CHECK: remark: LogicalNot 'n': lowered into autofuse_pointwise_0_LeakyRelu_Erf_Gelu_Sign_Greater_LogicalNot_SelectV2; output 0 inlined into its reader
// CHECK: remark: SelectV2 's': lowered into autofuse_pointwise_0_LeakyRelu_Erf_Gelu_Sign_Greater_LogicalNot_SelectV2; output 0 realized: num_loads 4 >= max_loop_loads 4
// CHECK: remark: Softplus 'sp': not lowered (no lowering for Softplus); its inputs are realized
// CHECK:      %s = ge.AscBackend(%x, %y, %z) {name = "autofuse_pointwise_0_LeakyRelu_Erf_Gelu_Sign_Greater_LogicalNot_SelectV2", fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["a", "e", "g", "sg", "c", "n", "s"]
// CHECK:        %leakyrelu = ascgraph.LeakyRelu(%load) {sched.axis = [0, 1], negative_slope = 2.000000e-01 : f32} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:   %erf = ascgraph.Erf(%leakyrelu)
// CHECK-NEXT:   %gelu = ascgraph.Gelu(%erf)
// CHECK-NEXT:   %sign = ascgraph.Sign(%gelu)
// CHECK:        %gt = ascgraph.Gt(%sign, %load_1) {sched.axis = [0, 1]} : !ascgraph.tensor<ui8, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
// CHECK-NEXT:   %logicalnot = ascgraph.LogicalNot(%gt) {sched.axis = [0, 1]} : !ascgraph.tensor<ui8,
// CHECK:        %where = ascgraph.Where(%logicalnot, %load_1, %load_2) {sched.axis = [0, 1]} : !ascgraph.tensor<f16,
// CHECK-NEXT:   %store = ascgraph.Store(%where)
// CHECK-NOT:  ge.AscBackend
// CHECK:      %sp = ge.Softplus(%s)

// SIM: kernel 2), 2 kernels
// SIM: outputs match the reference
