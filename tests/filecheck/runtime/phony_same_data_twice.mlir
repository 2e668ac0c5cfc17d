// The Data twin of phony_same_value_twice.mlir: an immutable Data output read twice by a
// PhonyConcat gets a copy for every read (see there).
// RUN: ge-opt %s -p ge-compile --remarks 2>&1 | filecheck %s --check-prefix=DATA
// RUN: ge-run %s --streams 2 --executions 2 | filecheck %s --check-prefix=OK

// DATA: remark: inserted Identity 'identity_0_cat_MemLayoutConflict_0' before input 0 of PhonyConcat 'cat' (reads 'x':0): immutable-address output 'x':0 (Data) feeds a no-padding continuous input
// DATA: remark: inserted Identity 'identity_1_cat_MemLayoutConflict_1' before input 1 of PhonyConcat 'cat' (reads 'x':0): immutable-address output 'x':0 (Data) feeds a no-padding continuous input

// OK: outputs match the reference

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf32>
  %cat = ge.PhonyConcat(%x, %x) {concat_dim = [0], N = [2]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  ge.NetOutput %cat : tensor<16x16xf32>
}
