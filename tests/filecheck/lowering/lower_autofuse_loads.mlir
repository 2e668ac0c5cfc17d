// RUN: ge-opt %s -p 'ge-lower-autofuse{max-loop-loads=5}' | filecheck %s --check-prefix=LOADS5
// RUN: ge-opt %s -p 'ge-lower-autofuse' | filecheck %s --check-prefix=LOADS4
// GE's RealizeAsTooManyLoads: a chain of Adds, each reading a new input, has 2 loads, then
// one more per Add; the box realizes when num_loads >= max_loop_loads: every 4th Add with
// max_loop_loads = 5 (5 Data + 5 Load + 4 Add + Store + Output = 16 nodes), every 3rd with
// GE's default 4.
ge.graph @RealizeAsTooManyLoads {
  %d0 = ge.Data {index = 0} : tensor<4x16xf32>
  %d1 = ge.Data {index = 1} : tensor<4x16xf32>
  %d2 = ge.Data {index = 2} : tensor<4x16xf32>
  %d3 = ge.Data {index = 3} : tensor<4x16xf32>
  %d4 = ge.Data {index = 4} : tensor<4x16xf32>
  %d5 = ge.Data {index = 5} : tensor<4x16xf32>
  %d6 = ge.Data {index = 6} : tensor<4x16xf32>
  %d7 = ge.Data {index = 7} : tensor<4x16xf32>
  %d8 = ge.Data {index = 8} : tensor<4x16xf32>
  %s0 = ge.Add(%d0, %d1) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s1 = ge.Add(%s0, %d2) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s2 = ge.Add(%s1, %d3) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s3 = ge.Add(%s2, %d4) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s4 = ge.Add(%s3, %d5) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s5 = ge.Add(%s4, %d6) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s6 = ge.Add(%s5, %d7) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s7 = ge.Add(%s6, %d8) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %s7 : tensor<4x16xf32>
}
// LOADS5:      %s3 = ge.AscBackend(%d0, %d1, %d2, %d3, %d4) {name = "autofuse_pointwise_0_Add_Add_Add_Add", {{.*}}, fusion_nodes_size = 16}
// LOADS5:      %s7 = ge.AscBackend(%s3, %d5, %d6, %d7, %d8) {name = "autofuse_pointwise_1_Add_Add_Add_Add", {{.*}}, fusion_nodes_size = 16}
// LOADS5-NOT:  ge.AscBackend
// LOADS4:      %s2 = ge.AscBackend(%d0, %d1, %d2, %d3) {name = "autofuse_pointwise_0_Add_Add_Add"
// LOADS4:      %s5 = ge.AscBackend(%s2, %d4, %d5, %d6) {name = "autofuse_pointwise_1_Add_Add_Add"
// LOADS4:      %s7 = ge.AscBackend(%s5, %d7, %d8) {name = "autofuse_pointwise_2_Add_Add"
// LOADS4-NOT:  ge.AscBackend
