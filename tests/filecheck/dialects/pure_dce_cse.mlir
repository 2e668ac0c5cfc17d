// RUN: ge-opt %s --split-input-file -p dce | filecheck %s --check-prefix=DCE
// RUN: ge-opt %s --split-input-file -p cse | filecheck %s --check-prefix=CSE
// xDSL's stock dce and cse act on ge IR: the nodes that only compute their outputs carry
// the Pure trait (ge_dialect/ge.py, GeNode); graph inputs, state, collectives, calls and
// the NetOutput have effects and stay.

// dce: the dead chain Relu -> Exp, the unused Const and the unused Reshape go; the
// unused Data and RefData (the graph's signature), the Variable (state), the
// HcomAllGather (a collective), the PartitionedCall (its callee has state) stay.
// DCE:      ge.graph @dead {
// DCE-NEXT:   %x = ge.Data {index = 0} : tensor<4x8xf16>
// DCE-NEXT:   %unused_in = ge.Data {index = 1} : tensor<4x8xf16>
// DCE-NEXT:   %ref = ge.RefData {index = 2} : tensor<4x8xf16>
// DCE-NEXT:   %v = ge.Variable : tensor<4x8xf16>
// DCE-NEXT:   %g = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf16>
// DCE-NEXT:   %call = ge.PartitionedCall(%x) {f = @state} : (tensor<4x8xf16>) -> tensor<4x8xf16>
// DCE-NEXT:   %r = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
// DCE-NEXT:   ge.NetOutput %r : tensor<4x8xf16>
// DCE-NEXT: }
// DCE:      ge.graph @state {
// DCE-NEXT:   %in = ge.Data {index = 0} : tensor<4x8xf16>
// DCE-NEXT:   %w = ge.Variable : tensor<4x8xf16>
// DCE-NEXT:   ge.NetOutput %in : tensor<4x8xf16>
// DCE-NEXT: }
ge.graph @dead {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %unused_in = ge.Data {index = 1} : tensor<4x8xf16>
  %ref = ge.RefData {index = 2} : tensor<4x8xf16>
  %v = ge.Variable : tensor<4x8xf16>
  %c = ge.Const {value = dense<1.0> : tensor<4x8xf16>} : tensor<4x8xf16>
  %dead = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %dead2 = ge.Exp(%dead) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %flat = ge.Reshape(%x) : (tensor<4x8xf16>) -> tensor<32xf16>
  %g = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf16>
  %call = ge.PartitionedCall(%x) {f = @state} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %r = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  ge.NetOutput %r : tensor<4x8xf16>
}
ge.graph @state {
  %in = ge.Data {index = 0} : tensor<4x8xf16>
  %w = ge.Variable : tensor<4x8xf16>
  ge.NetOutput %in : tensor<4x8xf16>
}

// -----

// cse: two identical nameless Relus of %x merge (the Add reads the first twice); the
// named ones differ in their `name` attribute and stay apart; two equal Variables and
// two equal HcomAllGathers are not Pure and stay apart.
// CSE:      ge.graph @twins {
// CSE-NEXT:   %x = ge.Data {index = 0} : tensor<4x8xf16>
// CSE-NEXT:   %a = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CSE-NEXT:   %s = ge.Add(%a, %a) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
// CSE-NEXT:   %n1 = ge.Relu(%x) {name = "n1"} : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CSE-NEXT:   %n2 = ge.Relu(%x) {name = "n2"} : (tensor<4x8xf16>) -> tensor<4x8xf16>
// CSE-NEXT:   %v1 = ge.Variable : tensor<4x8xf16>
// CSE-NEXT:   %v2 = ge.Variable : tensor<4x8xf16>
// CSE-NEXT:   %g1 = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf16>
// CSE-NEXT:   %g2 = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf16>
// CSE-NEXT:   ge.NetOutput %s, %n1, %n2, %v1, %v2, %g1, %g2 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>
// CSE-NEXT: }
ge.graph @twins {
  %x = ge.Data {index = 0} : tensor<4x8xf16>
  %a = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %b = ge.Relu(%x) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %s = ge.Add(%a, %b) : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %n1 = ge.Relu(%x) {name = "n1"} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %n2 = ge.Relu(%x) {name = "n2"} : (tensor<4x8xf16>) -> tensor<4x8xf16>
  %v1 = ge.Variable : tensor<4x8xf16>
  %v2 = ge.Variable : tensor<4x8xf16>
  %g1 = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf16>
  %g2 = ge.HcomAllGather(%x) {rank_size = 2} : (tensor<4x8xf16>) -> tensor<8x8xf16>
  ge.NetOutput %s, %n1, %n2, %v1, %v2, %g1, %g2 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>
}
