// RUN: ge-opt %s -p ge-compile | filecheck %s
// RUN: ge-run %s --executions 2 | filecheck %s --check-prefix=OUT
// RUN: ge-run %s --streams 2 --executions 2 | filecheck %s --check-prefix=OUT

// Identities GE's IdentityPass keeps reach task generation. GE places an Identity on the
// rts engine (DNN_VM_RTS, COST_2, sorted ahead of the GE-local engine's COST_9, whose
// GeDeletedOp would fail), and the rts engine's MemcpyAsyncOp copies its input into its
// output (op_factory.cc: REGISTER_OP_CREATOR(Identity, MemcpyAsyncOp)). Kept here:
// `j`, whose first consumer is a PartitionedCall; `c`, next to the subgraph's Data and
// NetOutput; `k`, which carries _is_inserted_by_cann and writes graph output 2 itself
// (zero-copy). An int32 Identity is not lowered by ge-lower-autofuse, so each stays a node.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x8xf32>
  %n = ge.Data {index = 1} : tensor<3xi32>
  %j = ge.Identity(%n) : (tensor<3xi32>) -> tensor<3xi32>
  %z = ge.PartitionedCall(%j) {f = @sub} : (tensor<3xi32>) -> tensor<3xi32>
  %k = ge.Identity(%n) {_is_inserted_by_cann = true} : (tensor<3xi32>) -> tensor<3xi32>
  %r = ge.Relu(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  ge.NetOutput %r, %z, %k : tensor<4x8xf32>, tensor<3xi32>, tensor<3xi32>
}

ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<3xi32>
  %c = ge.Identity(%a) : (tensor<3xi32>) -> tensor<3xi32>
  ge.NetOutput %c : tensor<3xi32>
}

// CHECK-DAG: npu.memcpy ins("n:0" at #npu.addr<input:1, 0, 12>) outs("j:0" at #npu.addr<fm, {{[0-9]+}}, 12>) {node = "j"}
// CHECK-DAG: npu.memcpy ins("z/a:0" at #npu.addr<fm, {{[0-9]+}}, 12>) outs("z/c:0" at #npu.addr<fm, {{[0-9]+}}, 12>) {node = "z/c"}
// CHECK-DAG: npu.memcpy ins("n:0" at #npu.addr<input:1, 0, 12>) outs("k:0" at #npu.addr<output:2, 0, 12>) {node = "k"}

// OUT:      simulator: {{.*}}memcpy 4
// OUT:      output 0 r:0: shape 4x8 float32
// OUT-NEXT: output 1 z:0: shape 3 int32
// OUT-NEXT: output 2 k:0: shape 3 int32
// OUT-NEXT: outputs match the reference
