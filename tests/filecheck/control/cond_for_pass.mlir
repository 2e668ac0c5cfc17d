// RUN: ge-opt %s -p 'ge-for-pass,ge-cond-pass' | filecheck %s
// RUN: ge-opt %s -p 'ge-for-pass{remarks=true},ge-cond-pass{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// ge-for-pass turns the For into a While over its counter (ForPass), then ge-cond-pass
// casts the new cond graph's bool to int32 and puts a Size before the If's non-scalar cond
// (CondPass); each says so in a remark.

ge.graph @main {
  %acc = ge.Data {index = 0} : tensor<4xf32>
  %s = ge.Data {index = 1} : tensor<i32>
  %l = ge.Data {index = 2} : tensor<i32>
  %one = ge.Const {value = dense<1> : tensor<i32>} : tensor<i32>
  %r = ge.For(%s, %l, %one, %acc) {body = @add_i} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
  %y = ge.If(%r, %acc) {then_branch = @id, else_branch = @id} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @add_i {
  %i = ge.Data {index = 0, _parent_node_index = 0} : tensor<i32>
  %a = ge.Data {index = 1, _parent_node_index = 3} : tensor<4xf32>
  %f = ge.Cast(%i) : (tensor<i32>) -> tensor<f32>
  %b = ge.Add(%a, %f) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  ge.NetOutput %b : tensor<4xf32>
}
ge.graph @id {
  %a = ge.Data {index = 0, _parent_node_index = 1} : tensor<4xf32>
  ge.NetOutput %a : tensor<4xf32>
}

// CHECK:      ge.graph @main {
// CHECK:        %r_i = ge.Const {value = dense<0> : tensor<i32>} : tensor<i32>
// CHECK-NEXT:   %r_i_Identity = ge.Identity(%r_i)
// CHECK-NEXT:   %r_Abs_0 = ge.Abs(%one)
// CHECK-NEXT:   %r_Sub_0 = ge.Sub(%l, %s)
// CHECK-NEXT:   %r_Abs_1 = ge.Abs(%r_Sub_0)
// CHECK-NEXT:   %r_While, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[R:.*]] = ge.While(%r_i_Identity, %r_Abs_0, %r_Abs_1, %s, %one, %acc) {cond = @add_i_Cond, body = @add_i_Body}
// CHECK-NEXT:   %y_Size = ge.Size(%[[R]]) : (tensor<4xf32>) -> tensor<i32>
// CHECK-NEXT:   %y = ge.If(%y_Size, %acc) {then_branch = @id, else_branch = @id} : (tensor<i32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK:      ge.graph @add_i {
// CHECK-NEXT:   %i = ge.Data {index = 0, _parent_node_index = 0}
// CHECK-NEXT:   %a = ge.Data {index = 1, _parent_node_index = 1}
// CHECK:      ge.graph @add_i_Cond {
// CHECK:        %Mul = ge.Mul(%Data_0, %Data_1)
// CHECK-NEXT:   %Less = ge.Less(%Mul, %Data_2) : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:   %NetOutput_Cast = ge.Cast(%Less) {dst_type = 3} : (tensor<i1>) -> tensor<i32>
// CHECK-NEXT:   ge.NetOutput %NetOutput_Cast : tensor<i32>
// CHECK:      ge.graph @add_i_Body {
// CHECK:        %Add_0 = ge.Add(%Data_0, %Const)
// CHECK-NEXT:   %Mul = ge.Mul(%Data_0, %Data_4)
// CHECK-NEXT:   %Add_1 = ge.Add(%Data_3, %Mul)
// CHECK-NEXT:   %add_i = ge.PartitionedCall(%Add_1, %Data_5) {f = @add_i}
// CHECK-NEXT:   ge.NetOutput %Add_0, %Data_1, %Data_2, %Data_3, %Data_4, %add_i {_parent_node_index = [0, 1, 2, 3, 4, 5]}

// REMARK: cond_for_pass.mlir:12:3: remark: ge-for-pass: For 'r' became While 'r_While' over (i, |delta|, |limit - start|, start, delta, 1 loop inputs): cond @add_i_Cond (i * |delta| < |limit - start|), body @add_i_Body calling @add_i on start + i * delta (ForPass)
// REMARK-NEXT: cond_for_pass.mlir:12:3: remark: ge-cond-pass: the cond of While 'r_While' is a DT_BOOL scalar: cast to int32 (HandleScalarCond): Cast 'NetOutput_Cast' inserted in @add_i_Cond
// REMARK-NEXT: cond_for_pass.mlir:13:3: remark: ge-cond-pass: the cond of If 'y' is a DT_FLOAT tensor of shape [4]: its element count (HandleNonScalarCond): Size 'y_Size' inserted in @main
