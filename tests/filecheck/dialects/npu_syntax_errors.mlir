// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// Syntax errors of the npu ops written with assembly_format and the custom directives of
// ge_dialect/npu.py (Count, RegionId, Addr, Operands, MemcpyOperand, DenseValue,
// TensorNames): each points at the offending token.

npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:21: error: expected #npu.addr<...>, got 3 : i64
  npu.tensor "x" at 3
}

// -----

npu.model @m streams = 1 events = 0 {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:14: error: unknown region 'bogus' (expected fm, weight, var, workspace, input:<k> or output:<k>)
  npu.region bogus size = 4
}

// -----

npu.model @m streams = 1 events = 0 {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:24: error: Expected integer literal
  npu.region fm size = -4
}

// -----

npu.model @m streams = 1 events = 0 {
  npu.stream 0 {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:58: error: expected #npu.addr<...>, got 7 : i64
    npu.kernel @k ins("a" at #npu.addr<fm, 0, 4>, "b" at 7) outs()
  }
}

// -----

npu.model @m streams = 1 events = 0 {
  npu.stream 0 {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:22: error: Expected integer literal
    npu.event_record -1
  }
}

// -----

npu.model @m streams = 1 events = 0 {
  npu.region weight size = 64
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:47: error: expected dense<...> : tensor<...>, got 3 : i64
  npu.const "w" at #npu.addr<weight, 0, 64> = 3
}

// -----

npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.tensor "a" at #npu.addr<fm, 0, 4>
  npu.stream 0 {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:19: error: a memcpy has one source and one destination
    npu.memcpy ins("a" at #npu.addr<fm, 0, 4>, "a" at #npu.addr<fm, 0, 4>) outs("a" at #npu.addr<fm, 0, 4>)
    npu.end_graph
  }
}

// -----

npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:44: error: string literal expected
  npu.alias "c" at #npu.addr<fm, 0, 4> of [1]
}
