// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=split split-lowering=split}' | filecheck %s
// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=split split-lowering=split remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: ge-opt %s --split-input-file -p 'ge-lower-autofuse{enable-pass=split}' | filecheck %s --check-prefix=SLICE
// RUN: not ge-opt %s -p 'ge-lower-autofuse{enable-pass=split split-lowering=strided}' 2>&1 | filecheck %s --check-prefix=BADOPT
// RUN: python %S/Inputs/gen_split.py 49 1 > %t.49.mlir
// RUN: ge-opt %t.49.mlir -p 'ge-lower-autofuse{enable-pass=split split-lowering=split remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=END49
// RUN: python %S/Inputs/gen_split.py 48 1 > %t.48.mlir
// RUN: ge-opt %t.48.mlir -p 'ge-lower-autofuse{enable-pass=split split-lowering=split remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=END48
// RUN: python %S/Inputs/gen_split.py 513 0 > %t.513.mlir
// RUN: ge-opt %t.513.mlir -p 'ge-lower-autofuse{enable-pass=split split-lowering=split remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=MAX513
//
// GE's A5 split lowering (backend_spec.cpp: slice_split_spec.split_lowered_to_split true;
// lowering_impl.cpp LowerSplit -> LowerSplitToNormalSplit, loop_api.cpp StoreSplit,
// asc_overrides.cpp AscOverrides::StoreSplit), against the default A2/A3 one (prefix SLICE,
// LowerSplitToStridedSlices). Each case's CHECKs fail when its rule is removed.

// StoreSplit: every output is its own realized box (fuse type split) holding Data -> Load
// of the whole input -> Split (one result per piece, sizes 8 and 24 on the split axis) ->
// Store of its own piece -> Output; both carry the Split's global id 1. StoreSplit realizes
// its input's box first, so the Abs producing it is its own kernel (with slices it is
// inlined into each slice, SLICE).
ge.graph @store_split {
  %x = ge.Data {index = 0} : tensor<4x32xf16>
  %a = ge.Abs(%x) : (tensor<4x32xf16>) -> tensor<4x32xf16>
  %p, %q = ge.SplitVD(%a) {split_dim = -1, num_split = 2, size_splits = [8, 24]} : (tensor<4x32xf16>) -> (tensor<4x8xf16>, tensor<4x24xf16>)
  ge.NetOutput %p, %q : tensor<4x8xf16>, tensor<4x24xf16>
}
// CHECK-LABEL: ge.graph @store_split
// CHECK:       %a = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Abs"
// CHECK:       %p = ge.AscBackend(%a) {name = "autofuse_split_1_SplitVD", fuse_type = "split", fuse_type_mask = 16, origin_nodes = ["p"], fusion_nodes_size = 5}
// CHECK-NEXT:    ascgraph.graph @p_out0_graph axis = [0: z0 = 4, 1: z1 = 32] {
// CHECK-NEXT:      %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 32], strides = [32, 1]>
// CHECK-NEXT:      %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 32], strides = [32, 1]>
// CHECK-NEXT:      %split, %split1 = ascgraph.Split(%load) {sched.axis = [0, 1], gid = 1} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>, !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 24], strides = [24, 1]>
// CHECK-NEXT:      %store = ascgraph.Store(%split) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
// CHECK-NEXT:      %output = ascgraph.Output(%store) {index = 0}
// CHECK:       %q = ge.AscBackend(%a) {name = "autofuse_split_2_SplitVD", fuse_type = "split"
// CHECK:           ascgraph.Split(%load) {sched.axis = [0, 1], gid = 1}
// CHECK-NEXT:      %store = ascgraph.Store(%split1) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 24], strides = [24, 1]>
// REMARK:      remark: SplitVD 'p': lowered into autofuse_split_1_SplitVD, autofuse_split_2_SplitVD; output 0 realized: split (its Store realizes itself); output 1 realized: split (its Store realizes itself)
// SLICE-LABEL: ge.graph @store_split
// SLICE:       %p = ge.AscBackend(%x) {name = "autofuse_pointwise_0_Abs_SplitVD", fuse_type = "pointwise"
// SLICE:       %q = ge.AscBackend(%x) {name = "autofuse_pointwise_1_Abs_SplitVD", fuse_type = "pointwise"

// -----

// Each lowered Split takes the next global id (StoreSplitDesc::id_, counted over the
// module): the second SplitD's boxes carry gid 2.
ge.graph @two_splits {
  %x = ge.Data {index = 0} : tensor<4x16xf32>
  %a, %b = ge.SplitD(%x) {split_dim = 1, num_split = 2} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %c, %d = ge.SplitD(%a) {split_dim = 0, num_split = 2} : (tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>)
  ge.NetOutput %b, %c, %d : tensor<4x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}
// CHECK-LABEL: ge.graph @two_splits
// CHECK:       %a = ge.AscBackend(%x) {name = "autofuse_split_0_SplitD"
// CHECK:         ascgraph.Split(%load) {sched.axis = [0, 1], gid = 1}
// CHECK:       %b = ge.AscBackend(%x) {name = "autofuse_split_1_SplitD"
// CHECK:         ascgraph.Split(%load) {sched.axis = [0, 1], gid = 1}
// CHECK:       %c = ge.AscBackend(%a) {name = "autofuse_split_2_SplitD"
// CHECK:         ascgraph.Split(%load) {sched.axis = [0, 1], gid = 2}
// CHECK:       %d = ge.AscBackend(%a) {name = "autofuse_split_3_SplitD"
// CHECK:         ascgraph.Split(%load) {sched.axis = [0, 1], gid = 2}

// BADOPT: {{\A}}ge-opt: error: ge-lower-autofuse: option split-lowering: expected slice or split, got 'strided'{{$}}
// BADOPT-NOT: {{.}}

// LowerSplitToNormalSplit: a last-dim split of a rank > 1 input with a size-1 output end
// dim and more than kSplitCanLowerEndDimMaxOutput (48) outputs is not lowered; 48 is.
// END49: remark: SplitD 'y0': not lowered (last-dim split with a size-1 output end dim and 49 outputs > 48 (kSplitCanLowerEndDimMaxOutput))
// END48: remark: SplitD 'y0': lowered into autofuse_split_0_SplitD,
// More than kSplitCanFuseMaxOutput (512) outputs: not lowered.
// MAX513: remark: SplitD 'y0': not lowered (513 outputs > 512 (kSplitCanFuseMaxOutput))
