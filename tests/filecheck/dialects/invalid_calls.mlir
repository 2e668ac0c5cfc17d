// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// PartitionedCall (its subgraph symbol, Data nodes and NetOutput against the call's inputs
// and outputs) and FusedAscBackend (its body: a graph body of AscBackends).

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: PartitionedCall requires attribute 'f' = @subgraph
  %y = ge.PartitionedCall(%x) : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}

// -----

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: PartitionedCall requires attribute 'f' = @subgraph
  %y = ge.PartitionedCall(%x) {f = "sub"} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %a : tensor<4xf16>
}

// -----

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: subgraph @nope is not a ge.graph (or a known-node npu.model) in this module
  %y = ge.PartitionedCall(%x) {f = @nope} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}

// -----

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: subgraph @f is not a ge.graph (or a known-node npu.model) in this module
  %y = ge.PartitionedCall(%x) {f = @f} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
func.func @f(%a: tensor<4xf16>) -> tensor<4xf16> {
  func.return %a : tensor<4xf16>
}

// -----

// One Data node per call input ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: subgraph @sub has 1 Data nodes for 2 inputs
  %y = ge.PartitionedCall(%x, %x) {f = @sub} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %a : tensor<4xf16>
}

// -----

// ... of the input's type (matched by index, not by position in the body) ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  %z = ge.Data {index = 1} : tensor<8xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: subgraph @sub: Data 0 has type tensor<8xf16>, but input is tensor<4xf16>
  %y = ge.PartitionedCall(%x, %z) {f = @sub} : (tensor<4xf16>, tensor<8xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @sub {
  %a = ge.Data {index = 1} : tensor<4xf16>
  %b = ge.Data {index = 0} : tensor<8xf16>
  ge.NetOutput %a : tensor<4xf16>
}

// -----

// ... one NetOutput value per call output ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: subgraph @sub returns 2 values for 1 outputs
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4xf16>) -> tensor<4xf16>
  ge.NetOutput %y : tensor<4xf16>
}
ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %a, %a : tensor<4xf16>, tensor<4xf16>
}

// -----

// ... of the output's type.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.PartitionedCall: subgraph @sub: output 0 has type tensor<4xf32>, but the body returns tensor<4xf16>
  %y = ge.PartitionedCall(%x) {f = @sub} : (tensor<4xf16>) -> tensor<4xf32>
  ge.NetOutput %y : tensor<4xf32>
}
ge.graph @sub {
  %a = ge.Data {index = 0} : tensor<4xf16>
  ge.NetOutput %a : tensor<4xf16>
}

// -----

// A FusedAscBackend body is a graph body: it ends with NetOutput ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.FusedAscBackend: FusedAscBackend body must end with ge.NetOutput
  %f = ge.FusedAscBackend(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    %d0 = ge.Data {index = 0} : tensor<4x16xf16>
  }
  ge.NetOutput %f : tensor<4x16xf16>
}

// -----

// ... its Data indices are the parent's input indices, each once ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.FusedAscBackend: FusedAscBackend body: Data indices must be 0..0; index 0 is missing
  %f = ge.FusedAscBackend(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    %d0 = ge.Data {index = 1} : tensor<4x16xf16>
    %k = ge.AscBackend(%d0) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
      ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 16] {
        %k_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_l = ascgraph.Load(%k_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_r = ascgraph.Abs(%k_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_s = ascgraph.Store(%k_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_o = ascgraph.Output(%k_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      }
    }
    ge.NetOutput %k : tensor<4x16xf16>
  }
  ge.NetOutput %f : tensor<4x16xf16>
}

// -----

// ... one per parent input ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.FusedAscBackend: FusedAscBackend body has 1 Data nodes for 2 inputs
  %f = ge.FusedAscBackend(%x, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16> {
    %d0 = ge.Data {index = 0} : tensor<4x16xf16>
    %k = ge.AscBackend(%d0) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
      ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 16] {
        %k_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_l = ascgraph.Load(%k_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_r = ascgraph.Abs(%k_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_s = ascgraph.Store(%k_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_o = ascgraph.Output(%k_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      }
    }
    ge.NetOutput %k : tensor<4x16xf16>
  }
  ge.NetOutput %f : tensor<4x16xf16>
}

// -----

// ... and its NetOutput gives the parent's outputs, type for type ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.FusedAscBackend: FusedAscBackend body: output 0 has type tensor<64xf16>, but the body returns tensor<4x16xf16>
  %f = ge.FusedAscBackend(%x) : (tensor<4x16xf16>) -> tensor<64xf16> {
    %d0 = ge.Data {index = 0} : tensor<4x16xf16>
    %k = ge.AscBackend(%d0) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
      ascgraph.graph @k axis = [0: z0 = 4, 1: z1 = 16] {
        %k_d = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_l = ascgraph.Load(%k_d) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_r = ascgraph.Abs(%k_l) {sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_s = ascgraph.Store(%k_r) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
        %k_o = ascgraph.Output(%k_s) {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 16], strides = [16, 1]>
      }
    }
    ge.NetOutput %k : tensor<4x16xf16>
  }
  ge.NetOutput %f : tensor<64xf16>
}

// -----

// ... and it holds AscBackends only ...
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.FusedAscBackend: FusedAscBackend body holds AscBackend nodes only, got ge.Relu 'r'
  %f = ge.FusedAscBackend(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    %d0 = ge.Data {index = 0} : tensor<4x16xf16>
    %r = ge.Relu(%d0) : (tensor<4x16xf16>) -> tensor<4x16xf16>
    ge.NetOutput %r : tensor<4x16xf16>
  }
  ge.NetOutput %f : tensor<4x16xf16>
}

// -----

// ... at least one.
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.FusedAscBackend: FusedAscBackend body holds no AscBackend
  %f = ge.FusedAscBackend(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    %d0 = ge.Data {index = 0} : tensor<4x16xf16>
    ge.NetOutput %d0 : tensor<4x16xf16>
  }
  ge.NetOutput %f : tensor<4x16xf16>
}
