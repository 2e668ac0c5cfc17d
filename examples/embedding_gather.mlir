// Embedding lookup with a residual: rows of a [16, 8] table gathered at constant token ids
// (GE's two-input Gather, axis 0), then |e| + r. With
//   ge-opt examples/embedding_gather.mlir -p 'ge-lower-autofuse{enable-pass=gather},ge-autofuse' --remarks
// the gather becomes an AscIR Gather kernel (LowerGather; its Store realizes itself) and the
// Abs+Add kernel after it fuses into it: gather -> pointwise, same loop axes, plain loads
// (gather_fusion_strategy.cpp CheckGatherElemwiseFuse). Without enable-pass=gather (GE's
// default) the Gather stays a GE op, run as a library kernel.
ge.graph @main attributes {_single_op_scene = false} {
  %table = ge.Data {index = 0} : tensor<16x8xf32>
  %r = ge.Data {index = 1} : tensor<2x3x8xf32>
  %ids = ge.Const {value = dense<[[3, 0, 15], [7, 7, 1]]> : tensor<2x3xi32>} : tensor<2x3xi32>
  %e = ge.Gather(%table, %ids) : (tensor<16x8xf32>, tensor<2x3xi32>) -> tensor<2x3x8xf32>
  %a = ge.Abs(%e) : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %y = ge.Add(%a, %r) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  ge.NetOutput %y : tensor<2x3x8xf32>
}
