// RUN: ge-opt %s -p 'ge-partition-dynamic{topo-sorting-mode=0}' | filecheck %s --check-prefix=BFS
// RUN: ge-run %s --dim 0=2,5,3 -p 'ge-partition-dynamic{placement=HOST},ge-assign-memory,ge-to-npu' | filecheck %s --check-prefix=HOST
// RUN: ge-run %s --dim 0=2,5 --no-symbolic -p 'ge-partition-dynamic{topo-sorting-mode=3},ge-assign-memory,ge-to-npu' | filecheck %s --check-prefix=STABLE
// RUN: not ge-opt %s -p 'ge-partition-dynamic{topo-sorting-mode=4}' 2>&1 | filecheck %s --check-prefix=MODE
// RUN: not ge-opt %s -p 'ge-partition-dynamic{placement=CPU}' 2>&1 | filecheck %s --check-prefix=PLACE
// RUN: not ge-opt %s -p 'ge-partition-dynamic{host-scheduling-max-threshold=-2}' 2>&1 | filecheck %s --check-prefix=THRESHOLD
// RUN: ge-opt --help | filecheck %s --check-prefix=HELP
// RUN: ge-opt %s -p ge-partition-dynamic | filecheck %s --check-prefix=NOSORT
//
// GE's session options of the partition. topo-sorting-mode 0 sorts the root by GE's BFS
// before the clusters are numbered (the Data x, then the Const w: x's consumers a and b by
// name, a2 after them), so the root and the subgraphs follow that order. placement HOST
// leaves the root whole and unknown (GetHostExecFlag): the host runs its 5 compute nodes in
// every execution. topo-sorting-mode 3 keeps the stored order (w x b a a2 s e) and merges
// consecutive clusters of one kind (MergeIdConsistantCluster): b, a, a2, s one unknown
// subgraph (4 host nodes); e, the last, a known run of 1 after an unknown one, stays known
// (no ChangeSmallClusterType in this mode): a static model, like the Consts' _input.

ge.graph @main {
  %w = ge.Const {value = dense<0.5> : tensor<4xf32>} : tensor<4xf32>
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %b = ge.Relu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %a = ge.Abs(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %a2 = ge.Mul(%a, %w) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %s = ge.ReduceSumD(%b) {axes = [0], keep_dims = false} : (tensor<?x4xf32>) -> tensor<4xf32>
  %e = ge.Exp(%s) : (tensor<4xf32>) -> tensor<4xf32>
  ge.NetOutput %a2, %e : tensor<?x4xf32>, tensor<4xf32>
}

// BFS by hand: SortNodes starts x (a Data) before w; x readies a and b (queued by name),
// b readies s, s readies e; w is taken when the queue runs dry, then a2 and NetOutput:
// ranks x0 a1 b2 s3 e4 w5 a2:6. The unknown clusters {b, s} and {a, a2}; e (known, 1 node)
// turns unknown and takes {b, s} (id 4): frames 0 {b, s, e}, 1 the Consts, 2 {a, a2}. In
// the stored order (w first) the same clusters are frames 2, 0 and 1 (NOSORT).
// BFS:      ge.graph @main attributes {_dynamic_shape_partitioned = true, _graph_unknown_flag = true} {
// BFS-NEXT:   %x = ge.Data {index = 0} : tensor<?x4xf32>
// BFS-NEXT:   %[[E:.*]] = ge.PartitionedCall(%x) {f = @main_sub_0_unknow
// BFS-NEXT:   %[[W:.*]] = ge.PartitionedCall {f = @main_sub_1_input
// BFS-NEXT:   %[[A2:.*]] = ge.PartitionedCall(%x, %[[W]]) {f = @main_sub_2_unknow
// BFS-NEXT:   ge.NetOutput %[[A2]], %[[E]]
// BFS:      ge.graph @main_sub_0_unknow
// BFS:        %b = ge.Relu
// BFS-NEXT:   %s = ge.ReduceSumD
// BFS-NEXT:   %e = ge.Exp
// NOSORT: ge.graph @main_sub_0_input
// NOSORT: ge.graph @main_sub_1_unknow
// NOSORT: %a = ge.Abs
// NOSORT: ge.graph @main_sub_2_unknow
// NOSORT: %b = ge.Relu

// HOST: execution 0: inputs 2x4; 5 host nodes, static model runs: 0
// HOST: execution 2: inputs 3x4; 5 host nodes, static model runs: 0
// HOST: outputs match the reference

// (run 3 is --no-symbolic: its unknown cluster runs on the host, as the hand count says)
// STABLE: clusters: 1 unknown-shape, 2 known-shape (2 run as static models: @main_sub_0_input, @main_sub_2_know)
// STABLE: execution 1: inputs 5x4; 4 host nodes, static model runs: 2
// STABLE: outputs match the reference

// MODE: ge-opt: error: ge-partition-dynamic: option topo-sorting-mode: expected 0, 1, 2 or 3, got 4
// PLACE: ge-opt: error: ge-partition-dynamic: option placement: expected HOST or DEVICE, got 'CPU'
// THRESHOLD: ge-opt: error: ge-partition-dynamic: option host-scheduling-max-threshold: expected an integer >= 0, got -2

// HELP: ge-partition-dynamic
// HELP:      topo-sorting-mode: 0 | 1 | 2 | 3, or none
// HELP-NEXT:   GE's option ge.topoSortingMode
// HELP:      host-scheduling-max-threshold: an integer >= 0 (default 0)
// HELP-NEXT:   GE's option ge.exec.hostSchedulingMaxThreshold
// HELP:      placement: HOST | DEVICE (default DEVICE)
// HELP-NEXT:   GE's option ge.exec.placement
