// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP

// CHECK:      npu.model @main streams = 2 events = 2 attributes {memory_size = 4096 : i64} {
// CHECK-NEXT:   npu.region fm size = 4096
// CHECK-NEXT:   npu.region input:0 size = 3072 {type = tensor<48x32xf16>}
// CHECK-NEXT:   npu.region output:0 size = 3072
// CHECK-NEXT:   npu.region weight size = 64
// CHECK-NEXT:   npu.tensor "x:0" at #npu.addr<input:0, 0, 3072> {node = "x", type = "Data"}
// CHECK-NEXT:   npu.tensor "r:0" at #npu.addr<fm, 0, 3072>
// CHECK-NEXT:   npu.tensor "b:0" at #npu.addr<output:0, 0, 1536>
// CHECK-NEXT:   npu.tensor "d:0" at #npu.addr<output:0, 1536, 1536>
// CHECK-NEXT:   npu.tensor "p:0" at #npu.addr<fm, 64, 704>
// CHECK-NEXT:   npu.alias "c:0" at #npu.addr<output:0, 0, 3072> of ["b:0", "d:0"] {node = "c", type = "ConcatD"}
// CHECK-NEXT:   npu.const "w:0" at #npu.addr<weight, 0, 64> = dense<1.000000e+00> : tensor<4x4xf32>
// CHECK-NEXT:   npu.kernel_def @relu = library "Relu" {} : (tensor<48x32xf16>) -> (tensor<48x32xf16>)
// CHECK-NEXT:   npu.kernel_def @relu_h = library "Relu" {} : (tensor<24x32xf16>) -> (tensor<24x32xf16>)
// CHECK-NEXT:   npu.stream 0 {
// CHECK-NEXT:     npu.stream_active 1
// CHECK-NEXT:     npu.kernel @relu ins("x:0" at #npu.addr<input:0, 0, 3072>) outs("r:0" at #npu.addr<fm, 0, 3072>) {node = "r"}
// CHECK-NEXT:     npu.event_record 0
// CHECK-NEXT:     npu.kernel @relu_h ins("r:0" at #npu.addr<fm, 0, 1536>) outs("b:0" at #npu.addr<output:0, 0, 1536>)
// CHECK-NEXT:     npu.event_wait 1
// CHECK-NEXT:     npu.end_graph
// CHECK-NEXT:   }
// CHECK-NEXT:   npu.stream 1 {
// CHECK-NEXT:     npu.event_wait 0
// CHECK-NEXT:     npu.memcpy ins("r:0" at #npu.addr<fm, 1536, 1536>) outs("d:0" at #npu.addr<output:0, 1536, 1536>)
// CHECK-NEXT:     npu.event_record 1
// CHECK-NEXT:   }
// CHECK-NEXT: }
npu.model @main streams = 2 events = 2 attributes {memory_size = 4096 : i64} {
  npu.region fm size = 4096
  npu.region input:0 size = 3072 {type = tensor<48x32xf16>}
  npu.region output:0 size = 3072
  npu.region weight size = 64
  npu.tensor "x:0" at #npu.addr<input:0, 0, 3072> {node = "x", type = "Data"}
  npu.tensor "r:0" at #npu.addr<fm, 0, 3072>
  npu.tensor "b:0" at #npu.addr<output:0, 0, 1536>
  npu.tensor "d:0" at #npu.addr<output:0, 1536, 1536>
  npu.tensor "p:0" at #npu.addr<fm, 64, 704>
  npu.alias "c:0" at #npu.addr<output:0, 0, 3072> of ["b:0", "d:0"] {node = "c", type = "ConcatD"}
  npu.const "w:0" at #npu.addr<weight, 0, 64> = dense<1.0> : tensor<4x4xf32>
  npu.kernel_def @relu = library "Relu" {} : (tensor<48x32xf16>) -> (tensor<48x32xf16>)
  npu.kernel_def @relu_h = library "Relu" {} : (tensor<24x32xf16>) -> (tensor<24x32xf16>)
  npu.stream 0 {
    npu.stream_active 1
    npu.kernel @relu ins("x:0" at #npu.addr<input:0, 0, 3072>) outs("r:0" at #npu.addr<fm, 0, 3072>) {node = "r"}
    npu.event_record 0
    npu.kernel @relu_h ins("r:0" at #npu.addr<fm, 0, 1536>) outs("b:0" at #npu.addr<output:0, 0, 1536>)
    npu.event_wait 1
    npu.end_graph
  }
  npu.stream 1 {
    npu.event_wait 0
    npu.memcpy ins("r:0" at #npu.addr<fm, 1536, 1536>) outs("d:0" at #npu.addr<output:0, 1536, 1536>)
    npu.event_record 1
  }
}

// -----

// The assembly_format corners: discardable attributes after every task kind, a kernel
// without inputs, a variable's initial value, an empty stream body.
// CHECK:      npu.model @corners streams = 2 events = 1 {
// CHECK-NEXT:   npu.region var size = 16 {kind = "var"}
// CHECK-NEXT:   npu.region fm size = 16
// CHECK-NEXT:   npu.const "v:0" at #npu.addr<var, 0, 16> = dense<[1, 2, 3, 4]> : tensor<4xi32> {node = "v", type = "Variable"}
// CHECK-NEXT:   npu.alias "a:0" at #npu.addr<fm, 0, 16> of ["o:0"]
// CHECK-NEXT:   npu.tensor "o:0" at #npu.addr<fm, 0, 16>
// CHECK-NEXT:   npu.kernel_def @fill = library "Fill" {value = 0 : i64} : () -> (tensor<4xi32>)
// CHECK-NEXT:   npu.stream 0 {
// CHECK-NEXT:     npu.stream_active 1 {why = "head"}
// CHECK-NEXT:     npu.kernel @fill ins() outs("o:0" at #npu.addr<fm, 0, 16>)
// CHECK-NEXT:     npu.event_record 0 {n = 1 : i64}
// CHECK-NEXT:     npu.memcpy ins("v:0" at #npu.addr<var, 0, 16>) outs("o:0" at #npu.addr<fm, 0, 16>) {node = "copy"}
// CHECK-NEXT:     npu.end_graph {last}
// CHECK-NEXT:   }
// CHECK-NEXT:   npu.stream 1 {
// CHECK-NEXT:     npu.event_wait 0 {n = 2 : i64}
// CHECK-NEXT:   }
// CHECK-NEXT: }
npu.model @corners streams = 2 events = 1 {
  npu.region var size = 16 {kind = "var"}
  npu.region fm size = 16
  npu.const "v:0" at #npu.addr<var, 0, 16> = dense<[1, 2, 3, 4]> : tensor<4xi32> {node = "v", type = "Variable"}
  npu.alias "a:0" at #npu.addr<fm, 0, 16> of ["o:0"]
  npu.tensor "o:0" at #npu.addr<fm, 0, 16>
  npu.kernel_def @fill = library "Fill" {value = 0 : i64} : () -> (tensor<4xi32>)
  npu.stream 0 {
    npu.stream_active 1 {why = "head"}
    npu.kernel @fill ins() outs("o:0" at #npu.addr<fm, 0, 16>)
    npu.event_record 0 {n = 1 : i64}
    npu.memcpy ins("v:0" at #npu.addr<var, 0, 16>) outs("o:0" at #npu.addr<fm, 0, 16>) {node = "copy"}
    npu.end_graph {last}
  }
  npu.stream 1 {
    npu.event_wait 0 {n = 2 : i64}
  }
}
