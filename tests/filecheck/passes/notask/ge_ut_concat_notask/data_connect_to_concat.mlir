// RUN: ge-opt %s --split-input-file -p ge-concat-notask | filecheck %s
// RUN: ge-opt %s --split-input-file -p ge-concat-notask --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// GE test: UtestConcatNotaskPass.data_connect_to_concat (tests/ge/ut/ge/graph/passes/concat_notask_pass_unittest.cc); docs/ge/notask.md #11.
// Graph: GD = BuildTrainGraphDataConcat(ND, ND, {2048, 12288}, {2048, 12288}): data_1 -> concat input 0
// directly; data_2 -> HcomAllGather_2 (RELU) -> concat input 1. concat_dim = 0.
// Our IR has one SSA value per edge: each tensor carries the shape/format GE's test sets on the
// concat input desc (ND, {2048, 12288}, GE's DSL default dtype DT_FLOAT = f32). The Data nodes take
// the type their consumer's shape rule needs (GE: ND fp16 {256, 12288}, which no rule reads).
// GE's names ending in _<digits> are `name` attributes (xDSL drops such suffixes from SSA names).
//
// Case 1 (@gd, GE's graph). Expected: not marked; HcomAllGather_2 stays unlocked.
// Deciding rule: IsPreNodeTypeValid at input 0: the (ref-traced) source node is a Data node.
//
// GE's test also calls IsPreNodeTypeValid on a fresh, unconnected in-anchor: false, because the
// traced source is null (and IsPreNodeWithSubgraph(null) is false, which lets it pass). Our IR has
// no unconnected inputs; the other way GE's tracing yields a null source is its depth limit
// (notask_pass_base.cc: GetFirstOutAnchorNotInRefNode returns no anchor once current_deep >=
// kNotaskDeepth = 100; depth 0 is the concat's own input and each ref node passed adds 1).
// Case 2 (@null_source): input 0 reaches HcomAllGather_1 through 100 Reshapes: after the 100th
// Reshape the depth is 100, so the source is null. HasSameSourceAnchor: {null} then {HcomAllGather_2:0},
// no collision. Expected: not marked, IsPreNodeTypeValid at input 0 (null source); nothing locked.
// Case 3 (@depth_99, control): the same graph with 99 Reshapes: the trace reaches depth 99 < 100 and
// finds HcomAllGather_1:0 (a Relu, valid). Every rule passes, so the concat is marked and the
// DIRECT producers are locked: reshape99:0 and HcomAllGather_2:0.

ge.graph @gd {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%data1, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %concat : tensor<4096x12288xf32>
}

// CHECK-LABEL: ge.graph @gd
// CHECK:      %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2"} :
// CHECK-NEXT: %concat = ge.ConcatD(%data1, %HcomAllGather2) {concat_dim = 0} :

// REMARK:      remark: ConcatD 'concat' not marked: input 0: {{.*}}(IsPreNodeTypeValid){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' not marked: input 0: {{.*}}(IsPreNodeTypeValid){{$}}
// REMARK-NEXT: remark: ConcatD 'concat' marked no-task; locked producers: reshape99:0, HcomAllGather_2:0{{$}}
// REMARK-NOT: remark:

// -----

ge.graph @null_source {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape1 = ge.Reshape(%HcomAllGather1) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape2 = ge.Reshape(%reshape1) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape3 = ge.Reshape(%reshape2) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape4 = ge.Reshape(%reshape3) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape5 = ge.Reshape(%reshape4) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape6 = ge.Reshape(%reshape5) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape7 = ge.Reshape(%reshape6) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape8 = ge.Reshape(%reshape7) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape9 = ge.Reshape(%reshape8) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape10 = ge.Reshape(%reshape9) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape11 = ge.Reshape(%reshape10) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape12 = ge.Reshape(%reshape11) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape13 = ge.Reshape(%reshape12) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape14 = ge.Reshape(%reshape13) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape15 = ge.Reshape(%reshape14) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape16 = ge.Reshape(%reshape15) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape17 = ge.Reshape(%reshape16) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape18 = ge.Reshape(%reshape17) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape19 = ge.Reshape(%reshape18) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape20 = ge.Reshape(%reshape19) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape21 = ge.Reshape(%reshape20) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape22 = ge.Reshape(%reshape21) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape23 = ge.Reshape(%reshape22) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape24 = ge.Reshape(%reshape23) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape25 = ge.Reshape(%reshape24) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape26 = ge.Reshape(%reshape25) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape27 = ge.Reshape(%reshape26) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape28 = ge.Reshape(%reshape27) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape29 = ge.Reshape(%reshape28) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape30 = ge.Reshape(%reshape29) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape31 = ge.Reshape(%reshape30) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape32 = ge.Reshape(%reshape31) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape33 = ge.Reshape(%reshape32) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape34 = ge.Reshape(%reshape33) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape35 = ge.Reshape(%reshape34) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape36 = ge.Reshape(%reshape35) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape37 = ge.Reshape(%reshape36) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape38 = ge.Reshape(%reshape37) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape39 = ge.Reshape(%reshape38) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape40 = ge.Reshape(%reshape39) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape41 = ge.Reshape(%reshape40) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape42 = ge.Reshape(%reshape41) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape43 = ge.Reshape(%reshape42) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape44 = ge.Reshape(%reshape43) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape45 = ge.Reshape(%reshape44) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape46 = ge.Reshape(%reshape45) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape47 = ge.Reshape(%reshape46) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape48 = ge.Reshape(%reshape47) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape49 = ge.Reshape(%reshape48) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape50 = ge.Reshape(%reshape49) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape51 = ge.Reshape(%reshape50) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape52 = ge.Reshape(%reshape51) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape53 = ge.Reshape(%reshape52) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape54 = ge.Reshape(%reshape53) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape55 = ge.Reshape(%reshape54) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape56 = ge.Reshape(%reshape55) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape57 = ge.Reshape(%reshape56) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape58 = ge.Reshape(%reshape57) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape59 = ge.Reshape(%reshape58) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape60 = ge.Reshape(%reshape59) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape61 = ge.Reshape(%reshape60) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape62 = ge.Reshape(%reshape61) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape63 = ge.Reshape(%reshape62) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape64 = ge.Reshape(%reshape63) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape65 = ge.Reshape(%reshape64) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape66 = ge.Reshape(%reshape65) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape67 = ge.Reshape(%reshape66) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape68 = ge.Reshape(%reshape67) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape69 = ge.Reshape(%reshape68) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape70 = ge.Reshape(%reshape69) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape71 = ge.Reshape(%reshape70) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape72 = ge.Reshape(%reshape71) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape73 = ge.Reshape(%reshape72) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape74 = ge.Reshape(%reshape73) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape75 = ge.Reshape(%reshape74) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape76 = ge.Reshape(%reshape75) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape77 = ge.Reshape(%reshape76) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape78 = ge.Reshape(%reshape77) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape79 = ge.Reshape(%reshape78) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape80 = ge.Reshape(%reshape79) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape81 = ge.Reshape(%reshape80) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape82 = ge.Reshape(%reshape81) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape83 = ge.Reshape(%reshape82) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape84 = ge.Reshape(%reshape83) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape85 = ge.Reshape(%reshape84) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape86 = ge.Reshape(%reshape85) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape87 = ge.Reshape(%reshape86) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape88 = ge.Reshape(%reshape87) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape89 = ge.Reshape(%reshape88) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape90 = ge.Reshape(%reshape89) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape91 = ge.Reshape(%reshape90) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape92 = ge.Reshape(%reshape91) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape93 = ge.Reshape(%reshape92) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape94 = ge.Reshape(%reshape93) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape95 = ge.Reshape(%reshape94) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape96 = ge.Reshape(%reshape95) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape97 = ge.Reshape(%reshape96) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape98 = ge.Reshape(%reshape97) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape99 = ge.Reshape(%reshape98) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape100 = ge.Reshape(%reshape99) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%reshape100, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %concat : tensor<4096x12288xf32>
}

// CHECK-LABEL: ge.graph @null_source
// CHECK:      %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} :
// CHECK-NEXT: %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2"} :
// CHECK-NEXT: %reshape1 = ge.Reshape(%HcomAllGather1) :
// CHECK:      %reshape100 = ge.Reshape(%reshape99) :
// CHECK-NEXT: %concat = ge.ConcatD(%reshape100, %HcomAllGather2) {concat_dim = 0} :

// -----

ge.graph @depth_99 {
  %data1 = ge.Data {name = "data_1", index = 0} : tensor<2048x12288xf32>
  %data2 = ge.Data {name = "data_2", index = 1} : tensor<2048x12288xf32>
  %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2"} : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape1 = ge.Reshape(%HcomAllGather1) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape2 = ge.Reshape(%reshape1) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape3 = ge.Reshape(%reshape2) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape4 = ge.Reshape(%reshape3) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape5 = ge.Reshape(%reshape4) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape6 = ge.Reshape(%reshape5) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape7 = ge.Reshape(%reshape6) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape8 = ge.Reshape(%reshape7) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape9 = ge.Reshape(%reshape8) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape10 = ge.Reshape(%reshape9) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape11 = ge.Reshape(%reshape10) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape12 = ge.Reshape(%reshape11) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape13 = ge.Reshape(%reshape12) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape14 = ge.Reshape(%reshape13) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape15 = ge.Reshape(%reshape14) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape16 = ge.Reshape(%reshape15) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape17 = ge.Reshape(%reshape16) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape18 = ge.Reshape(%reshape17) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape19 = ge.Reshape(%reshape18) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape20 = ge.Reshape(%reshape19) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape21 = ge.Reshape(%reshape20) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape22 = ge.Reshape(%reshape21) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape23 = ge.Reshape(%reshape22) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape24 = ge.Reshape(%reshape23) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape25 = ge.Reshape(%reshape24) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape26 = ge.Reshape(%reshape25) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape27 = ge.Reshape(%reshape26) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape28 = ge.Reshape(%reshape27) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape29 = ge.Reshape(%reshape28) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape30 = ge.Reshape(%reshape29) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape31 = ge.Reshape(%reshape30) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape32 = ge.Reshape(%reshape31) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape33 = ge.Reshape(%reshape32) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape34 = ge.Reshape(%reshape33) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape35 = ge.Reshape(%reshape34) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape36 = ge.Reshape(%reshape35) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape37 = ge.Reshape(%reshape36) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape38 = ge.Reshape(%reshape37) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape39 = ge.Reshape(%reshape38) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape40 = ge.Reshape(%reshape39) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape41 = ge.Reshape(%reshape40) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape42 = ge.Reshape(%reshape41) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape43 = ge.Reshape(%reshape42) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape44 = ge.Reshape(%reshape43) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape45 = ge.Reshape(%reshape44) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape46 = ge.Reshape(%reshape45) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape47 = ge.Reshape(%reshape46) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape48 = ge.Reshape(%reshape47) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape49 = ge.Reshape(%reshape48) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape50 = ge.Reshape(%reshape49) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape51 = ge.Reshape(%reshape50) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape52 = ge.Reshape(%reshape51) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape53 = ge.Reshape(%reshape52) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape54 = ge.Reshape(%reshape53) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape55 = ge.Reshape(%reshape54) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape56 = ge.Reshape(%reshape55) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape57 = ge.Reshape(%reshape56) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape58 = ge.Reshape(%reshape57) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape59 = ge.Reshape(%reshape58) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape60 = ge.Reshape(%reshape59) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape61 = ge.Reshape(%reshape60) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape62 = ge.Reshape(%reshape61) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape63 = ge.Reshape(%reshape62) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape64 = ge.Reshape(%reshape63) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape65 = ge.Reshape(%reshape64) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape66 = ge.Reshape(%reshape65) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape67 = ge.Reshape(%reshape66) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape68 = ge.Reshape(%reshape67) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape69 = ge.Reshape(%reshape68) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape70 = ge.Reshape(%reshape69) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape71 = ge.Reshape(%reshape70) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape72 = ge.Reshape(%reshape71) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape73 = ge.Reshape(%reshape72) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape74 = ge.Reshape(%reshape73) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape75 = ge.Reshape(%reshape74) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape76 = ge.Reshape(%reshape75) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape77 = ge.Reshape(%reshape76) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape78 = ge.Reshape(%reshape77) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape79 = ge.Reshape(%reshape78) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape80 = ge.Reshape(%reshape79) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape81 = ge.Reshape(%reshape80) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape82 = ge.Reshape(%reshape81) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape83 = ge.Reshape(%reshape82) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape84 = ge.Reshape(%reshape83) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape85 = ge.Reshape(%reshape84) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape86 = ge.Reshape(%reshape85) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape87 = ge.Reshape(%reshape86) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape88 = ge.Reshape(%reshape87) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape89 = ge.Reshape(%reshape88) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape90 = ge.Reshape(%reshape89) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape91 = ge.Reshape(%reshape90) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape92 = ge.Reshape(%reshape91) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape93 = ge.Reshape(%reshape92) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape94 = ge.Reshape(%reshape93) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape95 = ge.Reshape(%reshape94) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape96 = ge.Reshape(%reshape95) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape97 = ge.Reshape(%reshape96) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape98 = ge.Reshape(%reshape97) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %reshape99 = ge.Reshape(%reshape98) : (tensor<2048x12288xf32>) -> tensor<2048x12288xf32>
  %concat = ge.ConcatD(%reshape99, %HcomAllGather2) {concat_dim = 0} : (tensor<2048x12288xf32>, tensor<2048x12288xf32>) -> tensor<4096x12288xf32>
  ge.NetOutput %concat : tensor<4096x12288xf32>
}

// CHECK-LABEL: ge.graph @depth_99
// CHECK:      %HcomAllGather1 = ge.Relu(%data1) {name = "HcomAllGather_1"} :
// CHECK-NEXT: %HcomAllGather2 = ge.Relu(%data2) {name = "HcomAllGather_2", can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %reshape1 = ge.Reshape(%HcomAllGather1) :
// CHECK:      %reshape98 = ge.Reshape(%reshape97) :
// CHECK-NEXT: %reshape99 = ge.Reshape(%reshape98) {can_reused_for_concat_optimize = [false]} :
// CHECK-NEXT: %concat = ge.ConcatD(%reshape99, %HcomAllGather2) {concat_dim = 0, _no_task = true, _no_padding_continuous_input = true, _output_reuse_input = true, _reuse_input_on_dim_index = 0} :
