// RUN: GE_ROUNDTRIP
// RUN: GE_GENERIC_ROUNDTRIP
// Round trip of every pointwise op: binary (with numpy broadcasting), AddN, unary, Cast.

ge.graph @pointwise {
  %x = ge.Data {index = 0} : tensor<4x16xf16>
  %y = ge.Data {index = 1} : tensor<1x16xf16>
  %add = ge.Add(%x, %y) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
  %sub = ge.Sub(%add, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %mul = ge.Mul(%sub, %y) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
  %realdiv = ge.RealDiv(%mul, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %div = ge.Div(%realdiv, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %max = ge.Maximum(%div, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %min = ge.Minimum(%max, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %pow = ge.Pow(%min, %y) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
  %addn = ge.AddN(%pow, %x, %min) {N = 3} : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
  %relu = ge.Relu(%addn) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %abs = ge.Abs(%relu) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %neg = ge.Neg(%abs) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %exp = ge.Exp(%neg) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %log = ge.Log(%exp) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %sqrt = ge.Sqrt(%log) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %rsqrt = ge.Rsqrt(%sqrt) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %sigmoid = ge.Sigmoid(%rsqrt) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %tanh = ge.Tanh(%sigmoid) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %square = ge.Square(%tanh) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %recip = ge.Reciprocal(%square) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %id = ge.Identity(%recip) : (tensor<4x16xf16>) -> tensor<4x16xf16>
  %cast = ge.Cast(%id) {dst_type = 0} : (tensor<4x16xf16>) -> tensor<4x16xf32>
  %cast2 = ge.Cast(%cast) : (tensor<4x16xf32>) -> tensor<4x16xi32>
  ge.NetOutput %cast2, %addn : tensor<4x16xi32>, tensor<4x16xf16>
}

// CHECK:      builtin.module {
// CHECK-NEXT:   ge.graph @pointwise {
// CHECK-NEXT:     %x = ge.Data {index = 0} : tensor<4x16xf16>
// CHECK-NEXT:     %y = ge.Data {index = 1} : tensor<1x16xf16>
// CHECK-NEXT:     %add = ge.Add(%x, %y) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %sub = ge.Sub(%add, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %mul = ge.Mul(%sub, %y) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %realdiv = ge.RealDiv(%mul, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %div = ge.Div(%realdiv, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %max = ge.Maximum(%div, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %min = ge.Minimum(%max, %x) : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %pow = ge.Pow(%min, %y) : (tensor<4x16xf16>, tensor<1x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %addn = ge.AddN(%pow, %x, %min) {N = 3} : (tensor<4x16xf16>, tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %relu = ge.Relu(%addn) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %abs = ge.Abs(%relu) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %neg = ge.Neg(%abs) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %exp = ge.Exp(%neg) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %log = ge.Log(%exp) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %sqrt = ge.Sqrt(%log) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %rsqrt = ge.Rsqrt(%sqrt) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %sigmoid = ge.Sigmoid(%rsqrt) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %tanh = ge.Tanh(%sigmoid) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %square = ge.Square(%tanh) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %recip = ge.Reciprocal(%square) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %id = ge.Identity(%recip) : (tensor<4x16xf16>) -> tensor<4x16xf16>
// CHECK-NEXT:     %cast = ge.Cast(%id) {dst_type = 0} : (tensor<4x16xf16>) -> tensor<4x16xf32>
// CHECK-NEXT:     %cast2 = ge.Cast(%cast) : (tensor<4x16xf32>) -> tensor<4x16xi32>
// CHECK-NEXT:     ge.NetOutput %cast2, %addn : tensor<4x16xi32>, tensor<4x16xf16>
// CHECK-NEXT:   }
// CHECK-NEXT: }
