// The label rules of the npu verifier (LabelGotoExTaskInfo / LabelSetTaskInfo::Init): a jump
// names a label some label_set sets on its stream, and a label is set once.
// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s

builtin.module {
  npu.model @main streams = 1 events = 0 attributes {memory_size = 512 : i64, memory_lower_bound = 512 : i64, memory_proven_bound = 512 : i64, weight_size = 512 : i64} {
    npu.region fm size = 512
    npu.region input:0 size = 16 {type = tensor<4xf32>}
    npu.region output:0 size = 16 {type = tensor<4xf32>}
    npu.region weight size = 512
    npu.const "k:0" at #npu.addr<weight, 0, 4> = dense<1> : tensor<i32> {node = "k", type = "Const"}
    npu.tensor "x:0" at #npu.addr<input:0, 0, 16> {node = "x", type = "Data"}
    npu.tensor "y:0" at #npu.addr<fm, 0, 16> {node = "y", type = "Case"}
    npu.alias "y/neg/a:0" at #npu.addr<input:0, 0, 16> of ["x:0"] {node = "y/neg/a", type = "Data"}
    npu.alias "y/id/a:0" at #npu.addr<input:0, 0, 16> of ["x:0"] {node = "y/id/a", type = "Data"}
    npu.tensor "NetOutput:0" at #npu.addr<output:0, 0, 16> {node = "NetOutput", type = "NetOutput"}
    npu.kernel_def @neg_0 = library "Neg" {} : (tensor<4xf32>) -> (tensor<4xf32>)
    npu.stream 0 {
      npu.label_switch_by_index ins("k:0" at #npu.addr<weight, 0, 4>) outs("y:0" at #npu.addr<fm, 0, 16>) labels [0 : i64, 1 : i64] {node = "y"}
      npu.label_set 0 {node = "y"}
      npu.kernel @neg_0 ins("y/neg/a:0" at #npu.addr<input:0, 0, 16>) outs("y:0" at #npu.addr<fm, 0, 16>) {node = "y/neg/n"}
      npu.label_goto 9 {node = "y"}
      npu.label_set 1 {node = "y"}
      npu.memcpy ins("y/id/a:0" at #npu.addr<input:0, 0, 16>) outs("y:0" at #npu.addr<fm, 0, 16>) {node = "y/id/NetOutput_input_0_Memcpy"}
      npu.label_set 2 {node = "y"}
      npu.memcpy ins("y:0" at #npu.addr<fm, 0, 16>) outs("NetOutput:0" at #npu.addr<output:0, 0, 16>) {node = "NetOutput"}
      npu.end_graph
    }
  }
}


// CHECK: jumps to label 9, which no label_set sets

// -----

builtin.module {
  npu.model @main streams = 1 events = 0 attributes {memory_size = 512 : i64, memory_lower_bound = 512 : i64, memory_proven_bound = 512 : i64, weight_size = 512 : i64} {
    npu.region fm size = 512
    npu.region input:0 size = 16 {type = tensor<4xf32>}
    npu.region output:0 size = 16 {type = tensor<4xf32>}
    npu.region weight size = 512
    npu.const "k:0" at #npu.addr<weight, 0, 4> = dense<1> : tensor<i32> {node = "k", type = "Const"}
    npu.tensor "x:0" at #npu.addr<input:0, 0, 16> {node = "x", type = "Data"}
    npu.tensor "y:0" at #npu.addr<fm, 0, 16> {node = "y", type = "Case"}
    npu.alias "y/neg/a:0" at #npu.addr<input:0, 0, 16> of ["x:0"] {node = "y/neg/a", type = "Data"}
    npu.alias "y/id/a:0" at #npu.addr<input:0, 0, 16> of ["x:0"] {node = "y/id/a", type = "Data"}
    npu.tensor "NetOutput:0" at #npu.addr<output:0, 0, 16> {node = "NetOutput", type = "NetOutput"}
    npu.kernel_def @neg_0 = library "Neg" {} : (tensor<4xf32>) -> (tensor<4xf32>)
    npu.stream 0 {
      npu.label_switch_by_index ins("k:0" at #npu.addr<weight, 0, 4>) outs("y:0" at #npu.addr<fm, 0, 16>) labels [0 : i64, 1 : i64] {node = "y"}
      npu.label_set 0 {node = "y"}
      npu.kernel @neg_0 ins("y/neg/a:0" at #npu.addr<input:0, 0, 16>) outs("y:0" at #npu.addr<fm, 0, 16>) {node = "y/neg/n"}
      npu.label_goto 2 {node = "y"}
      npu.label_set 1 {node = "y"}
      npu.memcpy ins("y/id/a:0" at #npu.addr<input:0, 0, 16>) outs("y:0" at #npu.addr<fm, 0, 16>) {node = "y/id/NetOutput_input_0_Memcpy"}
      npu.label_set 1 {node = "y"}
      npu.memcpy ins("y:0" at #npu.addr<fm, 0, 16>) outs("NetOutput:0" at #npu.addr<output:0, 0, 16>) {node = "NetOutput"}
      npu.end_graph
    }
  }
}


// CHECK: label 1 is set twice
