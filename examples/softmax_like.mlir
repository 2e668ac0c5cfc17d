// Numerically stable softmax over the last axis, written as GE's decomposed ops (the shape
// of graph autofuse lowers into AscBackend loop nests; docs/ge/autofuse.md, reduction fusion):
//   m = ReduceMaxD(x, axes=[-1], keep_dims) ; e = Exp(x - m) ; y = e / ReduceSumD(e, keep_dims)
// The kept reduced axis (size 1) broadcasts back against the 8x64 rows in Sub and RealDiv.
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<8x64xf32>
  %m = ge.ReduceMaxD(%x) {axes = [-1], keep_dims = true} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  %d = ge.Sub(%x, %m) : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  %e = ge.Exp(%d) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %s = ge.ReduceSumD(%e) {axes = [1], keep_dims = true} : (tensor<8x64xf32>) -> tensor<8x1xf32>
  %y = ge.RealDiv(%e, %s) : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  ge.NetOutput %y : tensor<8x64xf32>
}
