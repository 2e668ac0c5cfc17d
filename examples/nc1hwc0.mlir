// Tensors in GE's 5-D NC1HWC0 storage format (origin NCHW), as FE hands them to GE after
// format selection; the Concat No Task seed, §3.5/§3.7 (CheckDim: a concat on C of an
// NC1HWC0 tensor is a concat on C1 when every input's C is a multiple of C0 = 16 for f16).
// The tensor type's shape is the origin NCHW shape; the storage shape is derived:
// 1x32x4x4 NCHW f16 -> 1x2x4x4x16 NC1HWC0. Two Relu/Add branches are concatenated on C.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %y = ge.Data {index = 1} : tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %a = ge.Relu(%x) : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %b = ge.Add(%y, %y) : (tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %c = ge.ConcatD(%a, %b) {concat_dim = 1, N = 2} : (tensor<1x32x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>, tensor<1x16x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  %z = ge.Relu(%c) : (tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>) -> tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
  ge.NetOutput %z : tensor<1x48x4x4xf16, #ge.desc<NC1HWC0, origin = NCHW>>
}
