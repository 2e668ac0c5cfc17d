// RUN: ge-opt %s -p 'ge-phony-notask{stage=mark},ge-lower-autofuse,ge-autofuse,ge-phony-notask{stage=calc}' | filecheck %s
// RUN: ge-run %s --executions 2 | filecheck %s --check-prefix=SIM
// RUN: ge-run %s --streams 2 | filecheck %s --check-prefix=SIM
//
// Two producers of one PhonyConcat share both inputs, so GE's solver fuses them
// horizontally into one AscBackend with two outputs, both pieces of the concat. Each
// (producer, output) pair has its own slot of the offset list (passes/notask/phony.py:
// OffsetSlots): output 0 at 0, output 1 at 1 * (4*8) * 2 B = 64, so [0, 64]. (GE's
// CalcPhonyConcatNodeOffset writes the whole list per piece; the same list here only
// because piece 0's offset is 0.) The compiled graph computes what the original does.

ge.graph @main {
  %x = ge.Data {index = 0} : tensor<1x1x1x4x8xf16>
  %y = ge.Data {index = 1} : tensor<1x1x1x4x8xf16>
  %a = ge.Mul(%x, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %b = ge.Add(%x, %y) : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x4x8xf16>
  %pc = ge.PhonyConcat(%a, %b) {concat_dim = [3], N = [2]} : (tensor<1x1x1x4x8xf16>, tensor<1x1x1x4x8xf16>) -> tensor<1x1x1x8x8xf16>
  ge.NetOutput %pc : tensor<1x1x1x8x8xf16>
}

// CHECK: %a, %b = ge.AscBackend(%x, %y) {name = "autofuse_0_Mul_Add", {{.*}}, _output_offset_list_for_continuous = [0, 64]}
// CHECK: %pc = ge.PhonyConcat(%a, %b)

// SIM: no-task nodes: 1 (pc (PhonyConcat))
// SIM: outputs match the reference
