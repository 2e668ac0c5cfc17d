// A transformer layer's vector part over `?` batch and `?` sequence (issue 30): LayerNorm,
// a softmax over the hidden axis, a residual add, and the mean over the sequence, all in
// GE's decomposed ops, every one lowerable. ge-run compiles it once over symbols (the
// batch and sequence of the first inputs are the hints) and runs each size in fused
// device kernels, no node on the host:
//   ge-run examples/dynamic_transformer.mlir --dim 0=2,8,5 --dim 1=3,16,7 --remarks
ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x?x64xf32>
  %gamma = ge.Const {value = dense<1.5> : tensor<64xf32>} : tensor<64xf32>
  %beta = ge.Const {value = dense<0.25> : tensor<64xf32>} : tensor<64xf32>
  %eps = ge.Const {value = dense<1.0e-5> : tensor<f32>} : tensor<f32>
  %mean = ge.ReduceMeanD(%x) {axes = [2], keep_dims = true} : (tensor<?x?x64xf32>) -> tensor<?x?x1xf32>
  %d = ge.Sub(%x, %mean) : (tensor<?x?x64xf32>, tensor<?x?x1xf32>) -> tensor<?x?x64xf32>
  %sq = ge.Mul(%d, %d) : (tensor<?x?x64xf32>, tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  %var = ge.ReduceMeanD(%sq) {axes = [2], keep_dims = true} : (tensor<?x?x64xf32>) -> tensor<?x?x1xf32>
  %ve = ge.Add(%var, %eps) : (tensor<?x?x1xf32>, tensor<f32>) -> tensor<?x?x1xf32>
  %r = ge.Rsqrt(%ve) : (tensor<?x?x1xf32>) -> tensor<?x?x1xf32>
  %n = ge.Mul(%d, %r) : (tensor<?x?x64xf32>, tensor<?x?x1xf32>) -> tensor<?x?x64xf32>
  %g = ge.Mul(%n, %gamma) : (tensor<?x?x64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>
  %ln = ge.Add(%g, %beta) : (tensor<?x?x64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>
  %m = ge.ReduceMaxD(%ln) {axes = [-1], keep_dims = true} : (tensor<?x?x64xf32>) -> tensor<?x?x1xf32>
  %sh = ge.Sub(%ln, %m) : (tensor<?x?x64xf32>, tensor<?x?x1xf32>) -> tensor<?x?x64xf32>
  %e = ge.Exp(%sh) : (tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  %s = ge.ReduceSumD(%e) {axes = [2], keep_dims = true} : (tensor<?x?x64xf32>) -> tensor<?x?x1xf32>
  %p = ge.RealDiv(%e, %s) : (tensor<?x?x64xf32>, tensor<?x?x1xf32>) -> tensor<?x?x64xf32>
  %y = ge.Add(%p, %x) : (tensor<?x?x64xf32>, tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  %pool = ge.ReduceMeanD(%y) {axes = [1], keep_dims = false} : (tensor<?x?x64xf32>) -> tensor<?x64xf32>
  ge.NetOutput %y, %pool : tensor<?x?x64xf32>, tensor<?x64xf32>
}
