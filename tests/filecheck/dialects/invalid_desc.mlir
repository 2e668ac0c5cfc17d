// RUN: not ge-opt %s --split-input-file 2>&1 | filecheck %s
// The #ge.desc encoding (desc.py): known GE formats, known fields each given once,
// non-negative storage dims and mask (parse errors, located at the offending token);
// a storage shape that is derivable or written out, and equal to the derived one when
// both exist (verify errors, located at the op whose value has the type).

ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:53: error: unknown GE format 'NC1HWC8' (known: ND, NCHW, NHWC, HWCN, CHWN, NDHWC, NCDHW, DHWCN, DHWNC, NC1HWC0, NDC1HWC0, FRACTAL_Z, FRACTAL_NZ, FRACTAL_NZ_C0_2, FRACTAL_NZ_C0_4, FRACTAL_NZ_C0_8, FRACTAL_NZ_C0_16, FRACTAL_NZ_C0_32)
  %x = ge.Data {index = 0} : tensor<4xf16, #ge.desc<NC1HWC8>>
  ge.NetOutput %x : tensor<4xf16, #ge.desc<NC1HWC8>>
}

// -----

ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:78: error: unknown GE format 'NCWH' (known: {{.*}})
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCWH>>
  ge.NetOutput %x : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCWH>>
}

// -----

ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:69: error: unknown #ge.desc field 'format' (expected origin, shape or reshape_type_mask)
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, format = NCHW>>
  ge.NetOutput %x : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, format = NCHW>>
}

// -----

ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:84: error: 'origin' given twice
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, origin = NHWC>>
  ge.NetOutput %x : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, origin = NHWC>>
}

// -----

ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:92: error: storage shape dims must be >= 0
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, -2, 4, 4, 16]>>
  ge.NetOutput %x : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, -2, 4, 4, 16]>>
}

// -----

ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:99: error: reshape_type_mask must be >= 0
  %x = ge.Data {index = 0} : tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, reshape_type_mask = -1>>
  ge.NetOutput %x : tensor<4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, reshape_type_mask = -1>>
}

// -----

// GE's format rules cannot derive an NC1HWC0 shape from a 3-D ND tensor: write it out.
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: cannot derive the NC1HWC0 storage shape from origin ND 2x3x4 (DT_FLOAT16); write it with shape = [...]
  %x = ge.Data {index = 0} : tensor<2x3x4xf16, #ge.desc<NC1HWC0>>
  ge.NetOutput %x : tensor<2x3x4xf16, #ge.desc<NC1HWC0>>
}

// -----

// A written storage shape must be the derived one: NCHW 1x32x4x4 f16 is NC1HWC0 1x2x4x4x16.
ge.graph @g {
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Data: output 0: storage shape [1, 4, 4, 4, 8] of NC1HWC0 does not match [1, 2, 4, 4, 16] derived from origin NCHW 1x32x4x4
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 4, 4, 4, 8]>>
  ge.NetOutput %x : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW, shape = [1, 4, 4, 4, 8]>>
}

// -----

// The same checks hold for the outputs of every node, not only of Data.
ge.graph @g {
  %x = ge.Data {index = 0} : tensor<2x3x4xf16>
  // CHECK: {{.*}}.mlir:[[# @LINE + 1]]:3: error: ge.Relu: output 0: cannot derive the NC1HWC0 storage shape from origin ND 2x3x4 (DT_FLOAT16); write it with shape = [...]
  %r = ge.Relu(%x) : (tensor<2x3x4xf16>) -> tensor<2x3x4xf16, #ge.desc<NC1HWC0>>
  ge.NetOutput %r : tensor<2x3x4xf16, #ge.desc<NC1HWC0>>
}
