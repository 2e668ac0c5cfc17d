// One producer output read twice by a no-padding continuous-input node cannot sit at two
// offsets of one block: every read but the first gets a layout-conflict Identity copy
// (mem_layout_conflict_util.cc: FindConflictNodes, two in-anchors on one symbol), and an
// immutable Data output read twice gets a copy for every read (GE's immutable checker
// exempts only all-the-same-anchor inputs, which after the first round's copies no longer
// holds). Found by bench/differential.py (seed 200957); before, the simulator refused the
// first graph at load (wrong offset) and ran the second out of the input buffer's bounds.
// RUN: ge-opt %s -p ge-compile --remarks 2>&1 | filecheck %s --check-prefix=RELU
// RUN: ge-run %s --streams 2 | filecheck %s --check-prefix=OK

// RELU-NOT: before input 0 of PhonyConcat
// RELU: remark: inserted Identity 'identity_1_cat_MemLayoutConflict_0' before input 1 of PhonyConcat 'cat' (reads 'r':0): 'r':0 feeds an earlier input of the same node
// RELU-NOT: inserted Identity


// OK: outputs match the reference

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<8x16xf32>
  %r = ge.Relu(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %cat = ge.PhonyConcat(%r, %r) {concat_dim = [0], N = [2]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  ge.NetOutput %cat : tensor<16x16xf32>
}
