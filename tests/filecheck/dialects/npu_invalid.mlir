// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// One case per npu verifier rule (ge_dialect/npu.py); each message names the task and the address.

// an address beyond its region
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: npu.tensor "r:0": address fm[512, 1536) ends at byte 1536, beyond region fm of 1024 bytes
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 1024
  npu.tensor "r:0" at #npu.addr<fm, 512, 1024>
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// an undeclared region
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: npu.tensor "x:0": address input:0[0, 16) is in region input:0, which the model does not declare
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 1024
  npu.tensor "x:0" at #npu.addr<input:0, 0, 16>
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// a recorded event nobody waits
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: event 0 is recorded on stream 0 but never waited
npu.model @m streams = 2 events = 1 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.stream_active 1
    npu.event_record 0
    npu.end_graph
  }
  npu.stream 1 {
  }
}

// -----

// a waited event nobody records
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: event 0 is waited on stream 1 but never recorded: the stream would deadlock
npu.model @m streams = 2 events = 1 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.stream_active 1
    npu.end_graph
  }
  npu.stream 1 {
    npu.event_wait 0
  }
}

// -----

// an event recorded twice
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 0 task 2 (npu.event_record): event 0 is recorded twice (streams 0 and 0); events are one-shot
npu.model @m streams = 2 events = 1 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.stream_active 1
    npu.event_record 0
    npu.event_record 0
    npu.end_graph
  }
  npu.stream 1 {
    npu.event_wait 0
  }
}

// -----

// a stream never activated
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 1 is never activated by a stream_active: its tasks would never run
npu.model @m streams = 2 events = 0 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.end_graph
  }
  npu.stream 1 {
  }
}

// -----

// end_graph not last on stream 0
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: the model has one npu.end_graph, the last task of stream 0 (found: stream 0 task 0, stream 0 task 1)
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.end_graph
    npu.end_graph
  }
}

// -----

// kernel arity
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 0 task 0 (npu.kernel): kernel @relu takes 1 inputs and 1 outputs, the task passes 0 and 1
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.tensor "r:0" at #npu.addr<fm, 0, 16>
  npu.kernel_def @relu = library "Relu" {} : (tensor<4xf32>) -> (tensor<4xf32>)
  npu.stream 0 {
    npu.kernel @relu ins() outs("r:0" at #npu.addr<fm, 0, 16>)
    npu.end_graph
  }
}

// -----

// an operand shorter than its type
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 0 task 0 (npu.kernel): input 0 of @relu is tensor<4xf32> (16 bytes), its address fm[0, 8) holds 8
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.tensor "r:0" at #npu.addr<fm, 0, 8>
  npu.tensor "s:0" at #npu.addr<fm, 16, 16>
  npu.kernel_def @relu = library "Relu" {} : (tensor<4xf32>) -> (tensor<4xf32>)
  npu.stream 0 {
    npu.kernel @relu ins("r:0" at #npu.addr<fm, 0, 8>) outs("s:0" at #npu.addr<fm, 16, 16>)
    npu.end_graph
  }
}

// -----

// an unknown kernel
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 0 task 0 (npu.kernel): kernel @nope is not defined in the model
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.stream 0 {
    npu.kernel @nope ins() outs()
    npu.end_graph
  }
}

// -----

// an alias of an unknown tensor
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: npu.alias "c:0": source tensor "a:0" is not in the table
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.alias "c:0" at #npu.addr<fm, 0, 16> of ["a:0"]
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// a memcpy between ranges of different length
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.tensor "a:0" at #npu.addr<fm, 0, 16>
  npu.tensor "b:0" at #npu.addr<fm, 16, 8>
  npu.stream 0 {
    // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:5: error: npu.memcpy: memcpy copies 16 bytes from fm[0, 16) into 8 bytes at fm[16, 24)
    npu.memcpy ins("a:0" at #npu.addr<fm, 0, 16>) outs("b:0" at #npu.addr<fm, 16, 8>)
    npu.end_graph
  }
}

// -----

// a region declared twice (_verify_allocation_table)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: region fm is declared twice
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.region fm size = 32
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// an op that is no table entry, kernel or stream (_verify_allocation_table)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: an npu.model holds regions, tensors, kernels and streams, got builtin.module
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  builtin.module {
  }
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// a tensor name declared twice (_verify_tensor_table)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: npu.const "t:0": tensor name declared twice
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.region weight size = 64
  npu.tensor "t:0" at #npu.addr<fm, 0, 16>
  npu.const "t:0" at #npu.addr<weight, 0, 16> = dense<0.0> : tensor<4xf32>
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// a stream the header declares but the body lacks (_verify_stream_ids)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: the model declares 2 streams, its npu.stream ids are [0] (expected 0..1)
npu.model @m streams = 2 events = 0 {
  npu.region fm size = 64
  npu.stream 0 {
    npu.end_graph
  }
}

// -----

// a task naming a tensor outside the table (_init_task_info)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 0 task 0 (npu.memcpy): tensor "u:0" is not in the model's table
npu.model @m streams = 1 events = 0 {
  npu.region fm size = 64
  npu.tensor "t:0" at #npu.addr<fm, 0, 16>
  npu.stream 0 {
    npu.memcpy ins("t:0" at #npu.addr<fm, 0, 16>) outs("u:0" at #npu.addr<fm, 16, 16>)
    npu.end_graph
  }
}

// -----

// an event id beyond the header's count (_init_event_task)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 0 task 1 (npu.event_record): event 1 is not below the model's 1 events
npu.model @m streams = 2 events = 1 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.stream_active 1
    npu.event_record 1
    npu.end_graph
  }
  npu.stream 1 {
    npu.event_wait 1
  }
}

// -----

// a stream_active naming the head stream (_init_stream_active_task)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: stream 1 task 0 (npu.stream_active): stream_active targets stream 0; it must name another non-head stream below 2
npu.model @m streams = 2 events = 0 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.stream_active 1
    npu.end_graph
  }
  npu.stream 1 {
    npu.stream_active 0
  }
}

// -----

// an event recorded and waited on one stream (_verify_event_pairs)
// CHECK: {{.*}}.mlir:[[# @LINE + 1]]:1: error: npu.model: event 0 is recorded and waited on the same stream 0
npu.model @m streams = 1 events = 1 {
  npu.region fm size = 0
  npu.stream 0 {
    npu.event_record 0
    npu.event_wait 0
    npu.end_graph
  }
}
