// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// DynamicRNN and DynamicGRUV2 (rnn.h): each shape, input-order and attribute check.

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %w = ge.Data {index = 1} : tensor<9x24xf32>
  %b = ge.Data {index = 2} : tensor<24xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicRNN: DynamicRNN w has shape 9x24, expected 10x24
  %y:8 = ge.DynamicRNN(%x, %w, %b) : (tensor<5x3x4xf32>, tensor<9x24xf32>, tensor<24xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %w = ge.Data {index = 1} : tensor<10x24xf32>
  %b = ge.Data {index = 2} : tensor<24xf32>
  %h = ge.Data {index = 3} : tensor<1x3x6xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicRNN: DynamicRNN takes init_h and init_c together
  %y:8 = ge.DynamicRNN(%x, %w, %b, %h) : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>, tensor<1x3x6xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %w = ge.Data {index = 1} : tensor<10x24xf32>
  %b = ge.Data {index = 2} : tensor<24xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicRNN: DynamicRNN direction must be one of UNIDIRECTIONAL, REDIRECTIONAL, got 'BIDIRECTIONAL'
  %y:8 = ge.DynamicRNN(%x, %w, %b) {direction = "BIDIRECTIONAL"} : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %w = ge.Data {index = 1} : tensor<10x24xf32>
  %b = ge.Data {index = 2} : tensor<24xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicRNN: DynamicRNN takes wci, wcf and wco (after init_h, init_c) exactly with use_peephole
  %y:8 = ge.DynamicRNN(%x, %w, %b) {use_peephole = true} : (tensor<5x3x4xf32>, tensor<10x24xf32>, tensor<24xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %wi = ge.Data {index = 1} : tensor<4x18xf32>
  %wh = ge.Data {index = 2} : tensor<6x18xf32>
  %bi = ge.Data {index = 3} : tensor<18xf32>
  %s = ge.Data {index = 4} : tensor<3xi64>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicGRUV2: DynamicGRUV2 seq_length must be int32, got DT_INT64
  %y:6 = ge.DynamicGRUV2(%x, %wi, %wh, %bi, %bi, %s) : (tensor<5x3x4xf32>, tensor<4x18xf32>, tensor<6x18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<3xi64>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %wi = ge.Data {index = 1} : tensor<4x18xf32>
  %wh = ge.Data {index = 2} : tensor<6x18xf32>
  %bi = ge.Data {index = 3} : tensor<18xf32>
  %h = ge.Data {index = 4} : tensor<1x2x6xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicGRUV2: DynamicGRUV2 inputs disagree on the batch: 3 and 2 (init_h)
  %y:6 = ge.DynamicGRUV2(%x, %wi, %wh, %bi, %bi, %h) : (tensor<5x3x4xf32>, tensor<4x18xf32>, tensor<6x18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<1x2x6xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}

// -----

ge.graph @g {
  %x = ge.Data {index = 0} : tensor<5x3x4xf32>
  %wi = ge.Data {index = 1} : tensor<4x18xf32>
  %wh = ge.Data {index = 2} : tensor<6x18xf32>
  %bi = ge.Data {index = 3} : tensor<18xf32>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.DynamicGRUV2: DynamicGRUV2 supports keep_prob 1.0 only (inference), got 0.5
  %y:6 = ge.DynamicGRUV2(%x, %wi, %wh, %bi, %bi) {keep_prob = 5.000000e-01 : f32} : (tensor<5x3x4xf32>, tensor<4x18xf32>, tensor<6x18xf32>, tensor<18xf32>, tensor<18xf32>) -> (tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>, tensor<5x3x6xf32>)
  ge.NetOutput %y#0 : tensor<5x3x6xf32>
}
