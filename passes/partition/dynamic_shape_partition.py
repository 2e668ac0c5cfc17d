"""ge-partition-dynamic: GE's DynamicShapePartitioner (known / unknown shape subgraphs).

Port of ``compiler/graph/partition/dynamic_shape_partition.{h,cc}`` with the cluster graph
of ``base_cluster.cc`` and ``base_partitioner.cc`` (hicann/ge), which GraphManager runs on
the root graph after graph preparation and OptimizeStage1 (graph_manager.cc:
OptimizeSubgraph -> DoDynamicShapePartition). In GE's order:

* **MarkUnknownShapeNodes** (CollectSpreadUnknownShapeNodes, IsUnknownShapeNode): a node
  is unknown when it carries ``_is_unknown_shape`` or ``_force_unknown_shape`` = true
  (JudgeUnknowShapeWithAttr); when one of its output or input descs has a ``?`` dim or an
  unknown rank (IsUnknownShape) and it cannot run without tiling (IsNodeSupportNoTiling:
  GE's kNotilingOps, of which the dialect has PartitionedCall, a node marked
  ``_op_no_tiling``, or one whose engine supports tiling inline and exporting its shape
  (``_op_tiling_inline_engine``, ``_op_export_shape_engine``) with a max shape for each
  unknown output (``_op_max_shape``) and producers that export theirs; MarkOpNoTiling marks
  such a node: ``_op_no_tiling``, per output ``_tensor_no_tiling_mem_type`` and
  ``_tensor_max_shape``; RevertOpNoTilingAttr unmarks it when unknown nodes exist too);
  when its engine is DNN_VM_HOST_CPU (``_specified_engine_name``: GE's engine placement);
  when its subgraph holds an unknown node (IsUnknownShapeGraph); when it carries
  ``_dynamic_tiling_depend_op`` = true (JudgeUnknownShapeForTilingDependNode, tiling sink
  off as by default); when it carries ``_is_support_addr_refresh`` = false
  (IsNodeSupportAddrRefresh). The Consts feeding an unknown node join the unknown set.
  A known PartitionedCall of unknown shape (no tiling) becomes unknown when unknown nodes
  exist too (MarkUnknownShapeNodes: the mixed case is not supported).
* The options of GE's session: placement HOST (ge.exec.placement, GetHostExecFlag) marks
  the root unknown, unpartitioned, like static-model-ops-lower-limit -1 (Partition:
  SetRootGraphUnknown); a graph left unpartitioned because no node is unknown is still
  marked unknown, host-scheduled, when it has fewer known nodes than
  host-scheduling-max-threshold (ge.exec.hostSchedulingMaxThreshold) and no node with a
  subgraph (IsGraphNeedUnknownShapePartition, IsSpecialNode).
* No partition when the root already carries ``_dynamic_shape_partitioned = true`` (a
  module written or dumped after the partition, examples/dynamic_batch.mlir): GE runs
  DoDynamicShapePartition once per root graph (graph_manager.cc: OptimizeSubgraph) and
  builds what it made as it is (graph_builder.cc: Build -> BuildForDynamicShapeGraph); the
  root and its subgraphs are left unchanged, with a remark.
* No partition when no node is unknown (IsGraphNeedUnknownShapePartition: the graph is
  left unchanged), or when the root's ``_no_need_dynamic_shape_partition`` or
  ``_single_op_scene`` is set, or the root holds only Data and NetOutput, or
  static-model-ops-lower-limit is -1: then the root is marked unknown
  (``_graph_unknown_flag``, SetRootGraphUnknown) and nothing is partitioned.
* **InitClusters**: one cluster per node, in topological order (its rank and id; with
  topo-sorting-mode, GE's ge.topoSortingMode, the graph is sorted first by GE's BFS, DFS,
  RDFS or StableRDFS: passes/partition/topo_sorting.py): DATA for
  a Data / RefData, INPUT_NODE for a Const / Constant without inputs, NETOUTPUT, STAGE for
  a PartitionedCall with ``_stage_level``, then UNKNOWN_SHAPE or KNOWN_SHAPE; the cluster
  graph's edges are the data edges.
* **MergeClusters** (MergeClustersNormal, merge-known-first=false as GE's default):
  MergeClustersControlFlow (``_control_flow_group``), TopologicalSortClusters,
  MergeClustersUnknownShape (an unknown cluster absorbs every cluster on a path from an
  unknown input cluster to it: the known clusters between two unknown ones become unknown),
  TryMergeClusters on the known clusters (a known input cluster merges when the merge makes
  no cycle), MergeClustersInputData (all INPUT_NODE clusters into one),
  ChangeSmallClusterType (a known cluster of fewer than static-model-ops-lower-limit nodes
  becomes unknown), TryMergeClusters on the unknown clusters. merge-known-first=true is
  GE's FFTS order (known first, limit 6).
  With topo-sorting-mode 3 (StableRDFS) MergeClustersWithConsistantId replaces all of
  this after MergeClustersControlFlow: in topological order, consecutive known or unknown
  clusters of one kind merge; a run of known clusters shorter than the limit turns
  unknown and joins its neighbours (MergeIdConsistantCluster); the INPUT_NODE clusters
  merge into one (MergeClustersInput).
* **PruneUniqueClusters**: the surviving clusters by id.
* **BuildPartitionFrame / CombinePartitionFrame / BuildPartitionSubgraph**: each
  KNOWN_SHAPE, UNKNOWN_SHAPE and INPUT_NODE cluster becomes a ge.graph
  ``<root>_sub_<k>_know`` / ``_unknow`` / ``_input`` (GetSubgraphName: the root's Consts
  are the known subgraph ``_input``, whose call feeds their readers; k is GE's counter
  over the built frames) called by a ge.PartitionedCall ``<sub>_PartitionedCall_<k>``; every input edge from outside the
  cluster is one call operand and one subgraph ``ge.Data {index = i}``
  (``<sub>_Data_<i>``; AddFrameInput without merge_inputs: two uses of one value are two
  inputs), every output read outside is one call result and one NetOutput operand
  (AddPartitionedCallNodeOutput). The call and the callee carry ``_is_unknown_shape``
  (SetUnknownAttr), an unknown callee also ``_graph_unknown_flag`` and
  ``_memory_discontiguous_allocation``; the root gets ``_dynamic_shape_partitioned`` and
  ``_graph_unknown_flag`` (IsGraphNeedUnknownShapePartition).
  The generated ops carry the source locations of the nodes they come from (for the
  remarks of the later passes): a subgraph and its call the cluster's first node's, a
  subgraph Data the node producing the value it receives, a subgraph NetOutput its first
  operand's producer.

Where this differs from GE: GE marks each moved node
``_is_unknown_shape`` / OwnerGraphIsUnknown; here the call and the graph carry it. A
cluster's nodes keep their graph order in the subgraph (GE: the merge order, which an SSA
block cannot keep when it is not topological), and the root's nodes and calls are ordered by a topological sort that
takes the earliest node first (GE: AddPartitionedCallKeepTopo, then TopologicalSorting).
Not ported, as the dialect has no such nodes: custom ops on the host CPU
(IsCustomOpExecOnHostCpu), ReDynamicShapePartitioner's data-flow pass (Stack / Queue
ops), ref-variable merging (a Variable has no input: MergeRefVariableCluster has nothing
to do), the multi-batch Case graphs, the training-iteration check of the host scheduling
(IsNeedTrainIteFlowCtrl: the dialect has no iteration loop).

The cluster graph is GE's: clusters with in/out lists (here insertion-ordered dicts) and
topological ranks that bound each search (TryMerge, MergeAllPathFrom). A node finds its
cluster through a union-find over the merges, and a merge moves the smaller node list
into the larger, so that the pass stays near-linear on large graphs.
"""

from __future__ import annotations

import heapq
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import LocatedError, remark
from ge_dialect.ge import (
    Const,
    Constant,
    ControlOp,
    Data,
    GraphOp,
    NetOutput,
    PartitionedCall,
    RefData,
    called_graph_names,
)
from ge_dialect.graph import IS_UNKNOWN_SHAPE, graphs_in_pass_order
from ge_dialect.names import UniqueNames, ge_type, name_nodes, node_name
from ge_dialect.pass_options import REMARKS, AtLeast, Flag, OneOf, Option, check_options
from ge_dialect.reason import Reason
from passes.partition.topo_sorting import STABLE_RDFS, topological_sorting

PASS = "ge-partition-dynamic"

# base_partitioner.h (kDataTypeIndex, kNetOutputTypeIndex, kInputNodeTypeIndex) and
# dynamic_shape_partition.cc (kStageTypeIndex, kKnownShapeTypeIndex, kUnknownShapeTypeIndex)
DATA, NETOUTPUT, INPUT_NODE, STAGE, KNOWN_SHAPE, UNKNOWN_SHAPE = 0, 1, 2, 3, 4, 5
# dynamic_shape_partition.cc: InitClusterType
TYPE_NAMES = {
    DATA: "DATA",
    NETOUTPUT: "NETOUTPUT",
    INPUT_NODE: "INPUT_NODE",
    STAGE: "STAGE",
    KNOWN_SHAPE: "KNOWN_SHAPE",
    UNKNOWN_SHAPE: "UNKNOWN_SHAPE",
}

# ge_attr_define.cc
FORCE_UNKNOWN_SHAPE = "_force_unknown_shape"  # ATTR_NAME_FORCE_UNKNOWN_SHAPE
DYNAMIC_TILING_DEPEND_OP = "_dynamic_tiling_depend_op"  # ATTR_NAME_DYNAMIC_TILING_DEPEND_OP
NO_NEED_DYNAMIC_SHAPE_PARTITION = "_no_need_dynamic_shape_partition"
CONTROL_FLOW_GROUP = "_control_flow_group"  # ATTR_NAME_CONTROL_FLOW_GROUP
STAGE_LEVEL = "_stage_level"  # ATTR_STAGE_LEVEL
# dynamic_shape_partition.cc: IsNodeSupportAddrRefresh (kIsSupportAddrRefresh)
SUPPORT_ADDR_REFRESH = "_is_support_addr_refresh"

# dynamic_shape_partition.cc: kDefaultMinKnownSubGraphClusterNum, kDefaultMinNodeNumInKnownCluster
DEFAULT_LOWER_LIMIT = 4
DEFAULT_LOWER_LIMIT_KNOWN_FIRST = 6
# dynamic_shape_partition.cc: kThresholdForMergeAllToUnknownGraph
MERGE_ALL_TO_UNKNOWN = -1
# ge_attr_define.cc: the no-tiling attributes (IsNodeSupportNoTiling, MarkOpNoTiling)
OP_NO_TILING = "_op_no_tiling"  # ATTR_NAME_OP_NO_TILING
OP_TILING_INLINE_ENGINE = "_op_tiling_inline_engine"  # ATTR_NAME_OP_TILING_INLINE_ENGINE
OP_EXPORT_SHAPE_ENGINE = "_op_export_shape_engine"  # ATTR_NAME_OP_EXPORT_SHAPE_ENGINE
OP_MAX_SHAPE = "_op_max_shape"  # ATTR_NAME_OP_MAX_SHAPE
TENSOR_NO_TILING_MEM_TYPE = "_tensor_no_tiling_mem_type"  # ATTR_NAME_TENSOR_NO_TILING_MEM_TYPE (per output)
TENSOR_MAX_SHAPE = "_tensor_max_shape"  # ATTR_NAME_TENSOR_MAX_SHAPE (per output)
NO_TILING_ATTRS = (OP_NO_TILING, OP_TILING_INLINE_ENGINE, OP_EXPORT_SHAPE_ENGINE, OP_MAX_SHAPE)
# A node's engine: GE's engine placement (before this pass) sets the OpDesc's engine name,
# which a user pins with ATTR_NAME_OP_SPECIFIED_ENGINE_NAME (dnnengine_manager.cc:
# GetOpInfos); the dialect has no engine placement, so the node's attribute is its engine
SPECIFIED_ENGINE_NAME = "_specified_engine_name"
# dynamic_shape_partition.cc: kHostCpuEngineName
HOST_CPU_ENGINE = "DNN_VM_HOST_CPU"
# dynamic_shape_partition.cc: IsExportShapeOps (data nodes, MEMCPYASYNC, STREAMMERGE,
# PARTITIONEDCALL, CASE)
EXPORT_SHAPE_TYPES = frozenset({"Data", "RefData", "MemcpyAsync", "StreamMerge", "PartitionedCall", "Case"})
# ge_context.cc: GetHostExecFlag (kHostExecPlacement)
HOST_PLACEMENT = "HOST"
# dynamic_shape_partition.cc: kNotilingOps (MEMCPYASYNC, STREAMMERGE, PARTITIONEDCALL: the dialect has the last)
NOTILING_TYPES = frozenset({"MemcpyAsync", "StreamMerge", "PartitionedCall"})


TRUE, FALSE = A.bool_attr(True), A.bool_attr(False)


class Cluster:
    """base_cluster.h: BaseCluster (DynamicShapeCluster): a set of nodes that becomes one
    partition; `id` is its rank at creation, `min`/`max` the ranks it spans."""

    __slots__ = ("id", "type", "min", "max", "ins", "outs", "nodes", "parent", "node")

    def __init__(self, rank: int, type_index: int, node: Operation):
        self.id = rank
        self.type = type_index
        self.min = rank
        self.max = rank
        # insertion-ordered sets (GE's vectors with find-before-insert)
        self.ins: dict[Cluster, None] = {}
        self.outs: dict[Cluster, None] = {}
        self.nodes: list[Operation] = [node]
        self.parent: Cluster | None = None  # the cluster this one was merged into
        self.node = node  # the node it was made for

    def __repr__(self) -> str:
        return f"Cluster({self.id}, {TYPE_NAMES[self.type]}, {node_name(self.node)})"

    @property
    def is_known(self) -> bool:
        return self.type == KNOWN_SHAPE

    @property
    def is_unknown(self) -> bool:
        return self.type == UNKNOWN_SHAPE

    @property
    def is_independent(self) -> bool:
        return self.type == STAGE

    # base_cluster.cc: AddInput / AddOutput / RemoveInput / RemoveOutput
    def add_input(self, other: Cluster) -> None:
        if other in self.ins:
            return
        self.ins[other] = None
        other.outs.setdefault(self, None)

    def add_output(self, other: Cluster) -> None:
        if other in self.outs:
            return
        self.outs[other] = None
        other.ins.setdefault(self, None)

    def remove_input(self, other: Cluster) -> None:
        self.ins.pop(other, None)
        other.outs.pop(self, None)

    def remove_output(self, other: Cluster) -> None:
        self.outs.pop(other, None)
        other.ins.pop(self, None)

    def _take_nodes(self, other: Cluster) -> None:
        # nodes_.insert(end, other->nodes_): the smaller list moves (order is restored by
        # graph position when the subgraph is built)
        if len(other.nodes) > len(self.nodes):
            self.nodes, other.nodes = other.nodes, self.nodes
        self.nodes.extend(other.nodes)
        other.nodes = []
        other.parent = self

    def merge(self, other: Cluster) -> None:
        """base_cluster.cc: BaseCluster::Merge, and DynamicShapeCluster::Merge (a cluster that
        takes an unknown one becomes unknown)."""
        if other.is_independent:
            return
        self._take_nodes(other)
        other.ins.pop(self, None)
        other.outs.pop(self, None)
        self.ins.pop(other, None)
        self.outs.pop(other, None)
        for c in list(other.ins):
            c.remove_output(other)
            c.add_output(self)
        for c in list(other.outs):
            c.remove_input(other)
            c.add_input(self)
        self.max = max(self.max, other.max)
        self.min = min(self.min, other.min)
        # dynamic_shape_partition.cc: DynamicShapeCluster::Merge
        if not self.is_unknown and other.is_unknown:
            self.type = other.type

    def try_merge(self, other: Cluster) -> bool:
        """base_cluster.cc: TryMerge: merge `other` (an input cluster) only if no other path
        leads from it to this cluster (the merge would make a cycle); the search stays below
        this cluster's rank."""
        queue = deque([other])
        visited: set[Cluster] = set()
        while queue:
            cur = queue.popleft()
            for c in cur.outs:
                if c.max == self.max and cur is not other:
                    return False
                if c.min < self.max and c not in visited:
                    visited.add(c)
                    queue.append(c)
        self.merge(other)
        return True

    def merge_all_path_from(self, other: Cluster, absorbed: list[Operation] | None = None) -> list[Cluster]:
        """base_cluster.cc: MergeAllPathFrom: every cluster on a path from `other` to this
        one (forward from `other`, backward from this, both within the rank window), merged
        into this one (MergeAllPath). Returns them, `other` first."""
        if other.is_independent:
            return []
        path = [other]
        forward: set[Cluster] = set()
        queue = deque([other])
        while queue:
            cur = queue.popleft()
            for c in cur.outs:
                if c.min < self.max and c.max != self.max and c not in forward:
                    forward.add(c)
                    queue.append(c)
        backward: set[Cluster] = set()
        queue = deque[Cluster]([self])
        while queue:
            cur = queue.popleft()
            for c in cur.ins:
                if c.max > other.min and c.max != other.max and c not in backward:
                    backward.add(c)
                    queue.append(c)
                    if c in forward:
                        path.append(c)
        self._merge_all_path(path, absorbed)
        return path

    def _merge_all_path(self, path: list[Cluster], absorbed: list[Operation] | None) -> None:
        """base_cluster.cc: MergeAllPath, MergeInOutClusters, UpdateInOutClusters; the nodes
        of the known clusters merged go to `absorbed` (for the remarks)."""
        members = [c for c in path if not c.is_independent]
        if absorbed is not None:
            absorbed.extend(op for c in members if c.type == KNOWN_SHAPE for op in c.nodes)
        in_path = {self, *members}
        for c in members:
            if c.type == UNKNOWN_SHAPE:
                self.type = UNKNOWN_SHAPE
        new_ins: dict[Cluster, None] = {}
        new_outs: dict[Cluster, None] = {}
        for c in (self, *members):
            for i in c.ins:
                if i not in in_path:
                    new_ins.setdefault(i, None)
            for o in c.outs:
                if o not in in_path:
                    new_outs.setdefault(o, None)
            self.max = max(self.max, c.max)
            self.min = min(self.min, c.min)
        # UpdateInOutClusters: the neighbours forget the path clusters and know this one
        for c in members:
            for i in c.ins:
                i.outs.pop(c, None)
            for o in c.outs:
                o.ins.pop(c, None)
        for c in members:
            self._take_nodes(c)
            c.ins, c.outs = {}, {}
        self.ins, self.outs = new_ins, new_outs
        for i in new_ins:
            i.outs.setdefault(self, None)
        for o in new_outs:
            o.ins.setdefault(self, None)


def _find(c: Cluster) -> Cluster:
    """The cluster a node's first cluster was merged into (BasePartitioner::GetCluster)."""
    root = c
    while root.parent is not None:
        root = root.parent
    while c.parent is not None and c.parent is not root:
        c.parent, c = root, c.parent
    return root


def only_data_and_netoutput(nodes: list[Operation]) -> bool:
    """dynamic_shape_partition.cc: IsUnknownGraphOnlyContainDataNetOutput: only Data and
    NetOutput nodes, one of them of unknown shape."""
    return all(isinstance(op, Data | RefData | NetOutput) for op in nodes) and any(
        tensor_desc(v.type).is_unknown_shape for op in nodes for v in (*op.operands, *op.results)
    )


def _str_list(op: Operation, name: str) -> list[str]:
    """A list-of-strings attribute (GE: AttrUtils::GetListStr), empty when absent."""
    a = op.attributes.get(name)
    if isinstance(a, ArrayAttr):
        return [x.data for x in a.data if isinstance(x, StringAttr)]
    return []


def _strtol(text: str) -> int:
    """std::strtol(text, nullptr, 10): leading spaces, a sign, digits; 0 when none."""
    m = re.match(r"\s*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def is_special_node(op: Operation) -> bool:
    """dynamic_shape_partition.cc: IsSpecialNode: a node with subgraphs (PartitionedCall,
    If, Case, While; the dialect has no stream-control nodes)."""
    return isinstance(op, PartitionedCall | ControlOp) or bool(called_graph_names(op))


def _type_str(v: SSAValue) -> str:
    return str(v.type)


class DynamicShapePartitioner:
    """dynamic_shape_partition.h: DynamicShapePartitioner on one root graph."""

    def __init__(
        self,
        module: ModuleOp,
        graph: GraphOp,
        lower_limit: int,
        merge_known_first: bool,
        remarks: bool,
        topo_sorting_mode: int | None = None,
        host_scheduling_max_threshold: int = 0,
        placement: str = "DEVICE",
    ):
        self.module = module
        self.graph = graph
        self.lower_limit = lower_limit
        self.merge_known_first = merge_known_first
        self.remarks = remarks
        self.topo_sorting_mode = topo_sorting_mode
        self.host_scheduling_max_threshold = host_scheduling_max_threshold
        self.placement = placement
        self.known_count = 0  # known_shape_nodes_ (CollectSpreadUnknownShapeNodes)
        self.has_special_node = False  # has_special_node_ (IsSpecialNode)
        self.graphs = {g.sym_name.data: g for g in module.ops if isinstance(g, GraphOp)}
        self.unknown: dict[Operation, Reason] = {}  # unknown_shape_nodes_, with why
        self.no_tiling: list[Operation] = []  # unknown_shape_no_tiling_nodes_
        self.has_no_tiling = False
        self.graph_unknown_cache: dict[str, Reason | None] = {}
        self.nodes: list[Operation] = []
        self.pos: dict[Operation, int] = {}
        self.first_cluster: dict[Operation, Cluster] = {}
        self.why: dict[Operation, Reason] = {}  # why a node ended where it is (remarks)
        self.int_attrs: dict[int, IntegerAttr] = {}
        self.produced_by: dict[SSAValue, SSAValue] = {}  # a call's result -> its subgraph's value

    # -- MarkUnknownShapeNodes -------------------------------------------------------------

    def unknown_reason(self, op: Operation, in_subgraph: bool = False) -> Reason | None:
        """dynamic_shape_partition.cc: IsUnknownShapeNode: why `op` is unknown, or None."""
        # dynamic_shape_partition.cc: JudgeUnknowShapeWithAttr
        for attr in (IS_UNKNOWN_SHAPE, FORCE_UNKNOWN_SHAPE):
            if A.get_bool(op, attr):
                return Reason("JudgeUnknowShapeWithAttr", f"unknown because it carries {attr} = true")
        # dynamic_shape_partition.cc: IsUnknownShapeNode: a node of the host-CPU engine relies
        # on the runtime scheduler
        if A.get_str(op, SPECIFIED_ENGINE_NAME) == HOST_CPU_ENGINE:
            return Reason(
                "IsUnknownShapeNode", f"unknown because its engine is {HOST_CPU_ENGINE} ({SPECIFIED_ENGINE_NAME})"
            )
        shape_reason = None
        # dynamic_shape_partition.cc: IsUnknownShape (outputs first, then inputs)
        for i, r in enumerate(op.results):
            if tensor_desc(r.type).is_unknown_shape:
                shape_reason = Reason("IsUnknownShape", f"unknown because output {i} is {_type_str(r)}")
                break
        else:
            for i, v in enumerate(op.operands):
                if tensor_desc(v.type).is_unknown_shape:
                    shape_reason = Reason("IsUnknownShape", f"unknown because input {i} is {_type_str(v)}")
                    break
        if shape_reason is not None:
            # dynamic_shape_partition.cc: IsNodeSupportNoTiling, then MarkOpNoTiling
            why_not = self.no_tiling_refusal(op, in_subgraph)
            self.mark_op_no_tiling(op, why_not is None)
            if why_not is not None:
                if any(a in op.attributes for a in NO_TILING_ATTRS):  # the node asked for no tiling
                    return Reason(shape_reason.rule, f"{shape_reason.message}; no tiling: {why_not}")
                return shape_reason
        else:
            self.mark_op_no_tiling(op, False)
        # dynamic_shape_partition.cc: IsUnknownShapeNode (a node with subgraphs, PartitionedCall
        # or a control op: unknown when any of its subgraphs is, IsUnknownShapeGraph)
        for sub in called_graph_names(op):
            inner = self.graph_unknown_reason(sub)
            if inner is not None:
                self.mark_op_no_tiling(op, False)
                return Reason("IsUnknownShapeGraph", f"unknown because its subgraph @{sub} holds {inner.message}")
        if shape_reason is not None and not in_subgraph:
            self.no_tiling.append(op)
        # dynamic_shape_partition.cc: JudgeUnknownShapeForTilingDependNode (no tiling sink:
        # IsSupportTilingSink is off unless tiling_schedule_optimize = 1)
        if A.get_bool(op, DYNAMIC_TILING_DEPEND_OP):
            return Reason(
                "JudgeUnknownShapeForTilingDependNode",
                f"unknown because it carries {DYNAMIC_TILING_DEPEND_OP} = true (tiling depends on a non-Const "
                "input and tiling sink is off)",
            )
        # dynamic_shape_partition.cc: IsNodeSupportAddrRefresh
        if SUPPORT_ADDR_REFRESH in op.attributes and not A.get_bool(op, SUPPORT_ADDR_REFRESH):
            return Reason(
                "IsNodeSupportAddrRefresh",
                f"unknown because it carries {SUPPORT_ADDR_REFRESH} = false (its addresses cannot be refreshed)",
            )
        return None

    def no_tiling_refusal(self, op: Operation, in_subgraph: bool) -> str | None:
        """dynamic_shape_partition.cc: IsNodeSupportNoTiling: None when `op`, of unknown
        shape, can run without tiling (a static model with its outputs at their max shape);
        else why not."""
        if ge_type(op) in NOTILING_TYPES:  # kNotilingOps default support no tiling
            self.has_no_tiling = self.has_no_tiling or not in_subgraph
            return None
        if A.get_bool(op, OP_NO_TILING):  # marked as support no tiling
            self.has_no_tiling = self.has_no_tiling or not in_subgraph
            return None
        data_or_netoutput = isinstance(op, Data | RefData | NetOutput)
        if not data_or_netoutput:
            engine = A.get_str(op, SPECIFIED_ENGINE_NAME) or ""
            if engine not in _str_list(op, OP_TILING_INLINE_ENGINE):
                return f"engine '{engine}' does not support tiling inline ({OP_TILING_INLINE_ENGINE})"
            if engine not in _str_list(op, OP_EXPORT_SHAPE_ENGINE):
                return f"engine '{engine}' does not support update shape ({OP_EXPORT_SHAPE_ENGINE})"
        # judge shape range: the dialect has no shape range, so an output of unknown shape
        # needs _op_max_shape
        if OP_MAX_SHAPE not in op.attributes:
            for i, r in enumerate(op.results):
                d = tensor_desc(r.type)
                if not d.is_unknown_shape:
                    continue
                if d.shape is None:
                    return f"output {i} has an unknown rank"
                return f"output {i} has no shape range ({OP_MAX_SHAPE})"
        # NoTilingCheckInputNodeUpdateShape: each producer of an unknown input exports shapes
        for i, v in enumerate(op.operands):
            src = v.owner
            if not tensor_desc(v.type).is_unknown_shape or not isinstance(src, Operation):
                continue
            if ge_type(src) in EXPORT_SHAPE_TYPES:  # IsExportShapeOps
                continue
            engine = A.get_str(src, SPECIFIED_ENGINE_NAME) or ""
            if engine not in _str_list(src, OP_EXPORT_SHAPE_ENGINE):
                return (
                    f"input {i}'s producer '{node_name(src)}' (engine '{engine}') does not export its shape "
                    f"({OP_EXPORT_SHAPE_ENGINE})"
                )
        if not data_or_netoutput and not in_subgraph:
            self.has_no_tiling = True
        return None

    def mark_op_no_tiling(self, op: Operation, no_tiling: bool) -> None:
        """dynamic_shape_partition.cc: MarkOpNoTiling: `_op_no_tiling`, and on each output
        of unknown shape `_tensor_no_tiling_mem_type` and its `_tensor_max_shape` (from
        `_op_max_shape`: ';' between tensors, ',' between dims).

        Beyond GE: GE writes `_op_no_tiling = false` on every node it looks at; here only on
        a node that carried the attribute (a dump does not grow by one attribute per node).
        The input descs are the producers' output descs (one SSA value for both)."""
        if not no_tiling:
            if OP_NO_TILING in op.attributes:
                op.attributes[OP_NO_TILING] = FALSE
            return
        max_shapes = self.parse_max_shape(op)
        for i, r in enumerate(op.results):
            if not tensor_desc(r.type).is_unknown_shape:
                continue
            A.set_output_flag(op, TENSOR_NO_TILING_MEM_TYPE, i, True, default=False)
            if max_shapes is not None:
                shapes = op.attributes.get(TENSOR_MAX_SHAPE)
                rows = list(shapes.data) if isinstance(shapes, ArrayAttr) else []
                rows += [A.int_list_attr([])] * (len(op.results) - len(rows))
                rows[i] = A.int_list_attr(max_shapes[i])
                op.attributes[TENSOR_MAX_SHAPE] = ArrayAttr(rows)
        op.attributes[OP_NO_TILING] = TRUE

    @staticmethod
    def parse_max_shape(op: Operation) -> list[list[int]] | None:
        """dynamic_shape_partition.cc: ParseShapeRangeAttr / SplitMaxShapeStr: one list of
        dims per output; a count or a rank that does not match fails the partition."""
        text = A.get_str(op, OP_MAX_SHAPE)
        if not text:
            return None
        shapes = [[_strtol(d) for d in t.split(",")] for t in text.split(";")]
        if len(shapes) != len(op.results):
            raise LocatedError(
                op,
                f"{PASS}: {OP_MAX_SHAPE} '{text}' has {len(shapes)} shape{'s' if len(shapes) != 1 else ''} for "
                f"{len(op.results)} output{'s' if len(op.results) != 1 else ''} (ParseShapeRangeAttr); use ';' "
                "between tensors and ',' between dims",
            )
        for i, (dims, r) in enumerate(zip(shapes, op.results)):
            rank = tensor_desc(r.type).rank
            if rank != len(dims):
                raise LocatedError(
                    op,
                    f"{PASS}: {OP_MAX_SHAPE} '{text}' gives output {i} {len(dims)} dim"
                    f"{'s' if len(dims) != 1 else ''}, its rank is {rank} (ParseShapeRangeAttr)",
                )
        return shapes

    def revert_op_no_tiling(self, op: Operation) -> None:
        """dynamic_shape_partition.cc: RevertOpNoTilingAttr."""
        if not A.get_bool(op, OP_NO_TILING):
            return
        for i, r in enumerate(op.results):
            if tensor_desc(r.type).is_unknown_shape:
                A.set_output_flag(op, TENSOR_NO_TILING_MEM_TYPE, i, False, default=False)
        op.attributes[OP_NO_TILING] = FALSE

    def graph_unknown_reason(self, name: str) -> Reason | None:
        """dynamic_shape_partition.cc: IsUnknownShapeGraph: the first unknown node of the
        subgraph, as a Reason naming it (memoised: each subgraph is looked at once)."""
        if name in self.graph_unknown_cache:
            return self.graph_unknown_cache[name]
        self.graph_unknown_cache[name] = None  # a call cycle is refused by the verifier
        g = self.graphs.get(name)
        found = None
        if g is not None:
            for op in g.body.block.ops:
                r = self.unknown_reason(op, in_subgraph=True)
                if r is not None:
                    found = Reason(r.rule, f"unknown {ge_type(op)} '{node_name(op)}' ({r.message})")
                    break
        self.graph_unknown_cache[name] = found
        return found

    def mark_unknown_shape_nodes(self) -> None:
        """dynamic_shape_partition.cc: MarkUnknownShapeNodes / CollectSpreadUnknownShapeNodes."""
        for op in self.nodes:
            if op in self.unknown:
                continue
            r = self.unknown_reason(op)
            if r is None:
                # CollectSpreadUnknownShapeNodes: known_shape_nodes_, has_special_node_
                self.known_count += 1
                self.has_special_node = self.has_special_node or is_special_node(op)
                continue
            self.unknown[op] = r
            # CollectSpreadUnknownShapeNodes: the Consts feeding an unknown node go with it
            for v in op.operands:
                src = v.owner
                if isinstance(src, Const | Constant) and src not in self.unknown:
                    self.unknown[src] = Reason(
                        "CollectSpreadUnknownShapeNodes", f"a Const feeding unknown node '{node_name(op)}'"
                    )
        # MarkUnknownShapeNodes: no-tiling and unknown nodes cannot coexist
        if self.unknown and self.no_tiling:
            for op in self.no_tiling:
                self.revert_op_no_tiling(op)
                if op not in self.unknown:
                    self.unknown[op] = Reason(
                        "MarkUnknownShapeNodes",
                        "unknown because it has an unknown shape (no tiling) and the graph has unknown nodes too",
                    )
            self.no_tiling = []

    # -- InitClusters ----------------------------------------------------------------------

    def init_clusters(self) -> None:
        """dynamic_shape_partition.cc: InitClusters (after graph->TopologicalSorting() in
        the ge.topoSortingMode; unset, the graph's stored order, which is topological)."""
        if self.topo_sorting_mode is not None:
            self.nodes = topological_sorting(self.nodes, self.topo_sorting_mode)
            self.pos = {op: i for i, op in enumerate(self.nodes)}
        for rank, op in enumerate(self.nodes):
            if isinstance(op, Data | RefData) and not op.operands:
                t = DATA
            elif isinstance(op, Const | Constant) and not op.operands:
                t = INPUT_NODE
            elif isinstance(op, NetOutput):
                t = NETOUTPUT
            elif isinstance(op, PartitionedCall) and STAGE_LEVEL in op.attributes:
                t = STAGE
            elif op in self.unknown:
                t = UNKNOWN_SHAPE
            else:
                t = KNOWN_SHAPE
            c = Cluster(rank, t, op)
            self.first_cluster[op] = c
            # already sorted topologically: the parents' clusters exist
            for v in op.operands:
                src = v.owner
                if isinstance(src, Operation) and src in self.first_cluster:
                    c.add_input(self.first_cluster[src])

    def cluster_of(self, op: Operation) -> Cluster:
        return _find(self.first_cluster[op])

    def unique_clusters(self) -> list[Cluster]:
        """The clusters in the order of their first node (GetUniqueClusters)."""
        seen: dict[Cluster, None] = {}
        for op in self.nodes:
            seen.setdefault(self.cluster_of(op), None)
        return list(seen)

    # -- MergeClusters ---------------------------------------------------------------------

    def topological_sort_clusters(self, keep: Callable[[Cluster], bool]) -> list[Cluster]:
        """base_partitioner.cc: TopologicalSortClusters: BFS ranks for every cluster; the
        ones `keep` accepts, in that order."""
        ordered: list[Cluster] = []
        ready: deque[Cluster] = deque()
        pending: dict[Cluster, int] = {}
        uniq = self.unique_clusters()
        for c in uniq:
            if c.ins:
                pending[c] = len(c.ins)
            else:
                ready.append(c)
        rank = 0
        while ready:
            c = ready.popleft()
            c.min = c.max = rank
            rank += 1
            if keep(c):
                ordered.append(c)
            for o in c.outs:
                if pending.get(o, 0) > 0:
                    pending[o] -= 1
                    if pending[o] == 0:
                        ready.append(o)
        assert rank == len(uniq), "the cluster graph has a cycle"
        return ordered

    def merge_clusters_control_flow(self) -> None:
        """dynamic_shape_partition.cc: MergeClustersControlFlow: the nodes of one
        `_control_flow_group` end in one cluster (all paths between them merged)."""
        groups: dict[int, list[Operation]] = {}
        for op in self.nodes:
            g = A.get_int(op, CONTROL_FLOW_GROUP) if CONTROL_FLOW_GROUP in op.attributes else None
            if g is not None:
                groups.setdefault(g, []).append(op)
        for key in sorted(groups):
            members = groups[key]
            for i, front in enumerate(members):
                for back in members[i + 1 :]:
                    cf, cb = self.cluster_of(front), self.cluster_of(back)
                    if cf is cb:
                        continue
                    absorbed: list[Operation] = []
                    cb.merge_all_path_from(cf, absorbed)
                    self._contagion_reasons(absorbed, cf, cb, "MergeClustersControlFlow")

    def _contagion_reasons(self, absorbed: list[Operation], src: Cluster, dst: Cluster, rule: str) -> None:
        """Why the known nodes merged on a path between two clusters became unknown."""
        if not dst.is_unknown:
            return
        why = Reason(rule, f"unknown by contagion: on a path from '{node_name(src.node)}' to '{node_name(dst.node)}'")
        for op in absorbed:
            self.why.setdefault(op, why)

    def try_merge_clusters(self, ordered: list[Cluster], accept: Callable[[Cluster], bool]) -> None:
        """dynamic_shape_partition.cc: TryMergeClusters (ref variables: a Variable has no input)."""
        for c in ordered:
            if c.is_independent or c.parent is not None:
                continue
            for i in list(c.ins):
                if i.parent is not None or not accept(i):
                    continue
                c.try_merge(i)

    def merge_clusters_input_data(self, ordered: list[Cluster]) -> None:
        """dynamic_shape_partition.cc: MergeClustersInputData."""
        first: Cluster | None = None
        for c in ordered:
            if c.type != INPUT_NODE:
                continue
            if first is None:
                first = c
            elif c is not first:
                first.merge(c)

    def change_small_cluster_type(self, ordered: list[Cluster]) -> None:
        """dynamic_shape_partition.cc: ChangeSmallClusterType."""
        for c in ordered:
            if c.parent is None and c.is_known and len(c.nodes) < self.lower_limit:
                c.type = UNKNOWN_SHAPE
                for op in c.nodes:
                    self.why.setdefault(
                        op,
                        Reason(
                            "ChangeSmallClusterType",
                            f"unknown because its known cluster has {len(c.nodes)} node"
                            f"{'s' if len(c.nodes) != 1 else ''}, fewer than "
                            f"static-model-ops-lower-limit {self.lower_limit}",
                        ),
                    )

    def merge_clusters(self) -> None:
        """dynamic_shape_partition.cc: MergeClusters -> MergeClustersNormal."""

        def known_or_input(c: Cluster) -> bool:
            return c.is_known or c.type == INPUT_NODE

        def unknown(c: Cluster) -> bool:
            return c.is_unknown

        def known(c: Cluster) -> bool:
            return c.is_known

        self.merge_clusters_control_flow()
        if self.topo_sorting_mode == STABLE_RDFS:
            self.merge_clusters_with_consistant_id()  # kStableRdfsSort
            return
        if self.merge_known_first:
            # MergeClustersNormal, merge_known_first_ (the FFTS order); ChangeSmallClusterType
            # and MergeClustersInputData walk the ordered clusters of the last sort
            ordered = self.topological_sort_clusters(known_or_input)
            self.try_merge_clusters(ordered, known)
            self.change_small_cluster_type(ordered)
            self.merge_clusters_input_data(ordered)
            self.try_merge_clusters(self.topological_sort_clusters(unknown), unknown)
            return
        self.merge_unknown(self.topological_sort_clusters(unknown))
        ordered = self.topological_sort_clusters(known_or_input)
        self.try_merge_clusters(ordered, known)
        self.merge_clusters_input_data(ordered)
        self.change_small_cluster_type(ordered)
        self.try_merge_clusters(self.topological_sort_clusters(unknown), unknown)

    # -- MergeClustersWithConsistantId (ge.topoSortingMode 3) -------------------------------

    def merge_clusters_with_consistant_id(self) -> None:
        """dynamic_shape_partition.cc: MergeClustersWithConsistantId: MergeIdConsistantCluster,
        MergeRefVariableCluster (a Variable has no input here: nothing to merge),
        MergeClustersInput."""
        self.merge_id_consistant_cluster()
        inputs = [c for c in self.unique_clusters() if c.type == INPUT_NODE]
        for c in inputs[1:]:  # MergeClustersInput: every INPUT_NODE cluster into the first
            inputs[0].merge(c)

    def merge_id_consistant_cluster(self) -> None:
        """dynamic_shape_partition.cc: MergeIdConsistantCluster: the known and unknown
        clusters in topological order, consecutive ones of one kind merged; a run of known
        clusters shorter than static-model-ops-lower-limit (counting the next one when it is
        known too, or the last) merges with the next and turns unknown, and with the unknown
        run before it."""
        unique = [c for c in self.unique_clusters() if c.type in (KNOWN_SHAPE, UNKNOWN_SHAPE)]
        last_num, num = 0, 1
        limit = self.lower_limit
        for i in range(1, len(unique)):
            cur, last = unique[i], unique[i - 1]
            if last.type != cur.type or i == len(unique) - 1:
                # the static run ends here: a known cluster counts itself too
                static_num = num + 1 if cur.type != UNKNOWN_SHAPE else num
                if last.type == KNOWN_SHAPE and static_num < limit:
                    small = [op for op in last.nodes]
                    last.merge(cur)
                    last.type = UNKNOWN_SHAPE
                    self._small_run_reasons(small, static_num)
                    unique[i] = last
                    num += 1
                    prev = None if i < num else unique[i - num]
                    if prev is not None:  # the unknown run before the static one joins
                        prev.merge(last)
                        unique[i] = prev
                        num += last_num
                    continue
            if last.type == cur.type:
                last.merge(cur)
                unique[i] = last
                num += 1
                continue
            last_num, num = num, 1

    def _small_run_reasons(self, nodes: list[Operation], size: int) -> None:
        why = Reason(
            "MergeIdConsistantCluster",
            f"unknown because its run of known clusters has {size}, fewer than static-model-ops-lower-limit "
            f"{self.lower_limit} (ge.topoSortingMode 3)",
        )
        for op in nodes:
            if op not in self.unknown:
                self.why.setdefault(op, why)

    def merge_unknown(self, ordered: list[Cluster]) -> None:
        """dynamic_shape_partition.cc: MergeClustersUnknownShape: for each unknown cluster
        and each unknown input cluster, every cluster on a path between them joins it."""
        expired: set[Cluster] = set()
        for c in ordered:
            if c.is_independent or c in expired:
                continue
            for i in list(c.ins):
                if not i.is_unknown or i in expired:
                    continue
                absorbed: list[Operation] = []
                path = c.merge_all_path_from(i, absorbed)
                self._contagion_reasons(absorbed, i, c, "MergeClustersUnknownShape")
                expired.update(path)

    # -- the whole partition ---------------------------------------------------------------

    def remark_already_partitioned(self) -> None:
        if not self.remarks:
            return
        subs: dict[str, None] = {}  # the callees, in the root's order
        for c in self.graph.body.block.ops:
            f = c.attributes.get("f") if isinstance(c, PartitionedCall) else None
            if isinstance(f, SymbolRefAttr):
                subs.setdefault(f.root_reference.data, None)
        kept = f"; its subgraphs {', '.join('@' + s for s in subs)} stay as they are" if subs else ""
        remark(
            self.graph,
            f"{PASS}: graph @{self.graph.sym_name.data} not partitioned again: it carries "
            f"{A.DYNAMIC_SHAPE_PARTITIONED} = true, it is already partitioned (DoDynamicShapePartition "
            f"runs once per root graph){kept}",
            pass_name=PASS,
            verdict="already partitioned",
        )

    def mark_root_unknown(self, why: str) -> None:
        """dynamic_shape_partition.cc: SetRootGraphUnknown."""
        self.graph.attributes[A.GRAPH_UNKNOWN_FLAG] = TRUE
        if self.remarks:
            remark(
                self.graph,
                f"{PASS}: graph @{self.graph.sym_name.data} not partitioned, marked unknown: {why}",
                pass_name=PASS,
                verdict="not partitioned",
            )

    def partition(self) -> list[GraphOp]:
        """dynamic_shape_partition.cc: Partition. Returns the subgraphs made."""
        block = self.graph.body.block
        # graph_manager.cc: OptimizeSubgraph -> DoDynamicShapePartition runs once per root
        # graph, and what it made is built as it is (graph_builder.cc: Build reads
        # _dynamic_shape_partitioned -> BuildForDynamicShapeGraph): a root that already
        # carries it (a module written or dumped after the partition) is not partitioned
        # again, and its subgraphs stay the known / unknown parts they are.
        if A.get_bool(self.graph, A.DYNAMIC_SHAPE_PARTITIONED):
            self.remark_already_partitioned()
            return []
        self.nodes = list(block.ops)
        self.pos = {op: i for i, op in enumerate(self.nodes)}
        # Partition: GetHostExecFlag (ge.exec.placement = HOST: the host runs the whole graph)
        if self.placement == HOST_PLACEMENT:
            self.mark_root_unknown("placement is HOST (ge.exec.placement: GetHostExecFlag)")
            return []
        # Partition: IsUnknownGraphOnlyContainDataNetOutput / kThresholdForMergeAllToUnknownGraph
        if self.lower_limit == MERGE_ALL_TO_UNKNOWN:
            self.mark_root_unknown("static-model-ops-lower-limit is -1 (kThresholdForMergeAllToUnknownGraph)")
            return []
        if only_data_and_netoutput(self.nodes):
            self.mark_root_unknown("it holds only Data and NetOutput (IsUnknownGraphOnlyContainDataNetOutput)")
            return []
        # IsGraphNeedUnknownShapePartition
        if A.get_bool(self.graph, NO_NEED_DYNAMIC_SHAPE_PARTITION):
            return []
        self.mark_unknown_shape_nodes()
        if not self.unknown and (self.has_no_tiling or not self.no_tiling):
            # IsGraphNeedUnknownShapePartition: no partition; a graph of fewer known nodes
            # than ge.exec.hostSchedulingMaxThreshold, none with a subgraph, is host-scheduled
            # (the root unknown); otherwise unchanged, and no remark (its compile says the
            # same as before)
            if self.known_count < self.host_scheduling_max_threshold and not self.has_special_node:
                self.mark_root_unknown(
                    f"host scheduling: {self.known_count} known node{'s' if self.known_count != 1 else ''}, "
                    f"fewer than host-scheduling-max-threshold {self.host_scheduling_max_threshold} "
                    "(IsGraphNeedUnknownShapePartition)"
                )
            return []
        # IsSingleOpGraph
        if A.get_bool(self.graph, A.SINGLE_OP_SCENE):
            self.mark_root_unknown("single op scene (IsSingleOpGraph)")
            return []
        name_nodes(block)  # the names the subgraphs keep (only once the graph is partitioned)
        self.init_clusters()
        self.merge_clusters()
        clusters = sorted(self.unique_clusters(), key=lambda c: c.id)  # PruneUniqueClusters
        return self.build(clusters)

    # -- BuildPartitionFrame, CombinePartitionFrame, BuildPartitionSubgraph ---------------

    def build(self, clusters: list[Cluster]) -> list[GraphOp]:
        root = self.graph.sym_name.data
        taken = UniqueNames(self.graphs)
        counter = 0
        framed: list[tuple[Cluster, str, str]] = []
        for c in clusters:
            # dynamic_shape_partition.cc: IsNeedBuildPartitionFrame (UNKNOWN, KNOWN, INPUT_NODE)
            if c.type not in (KNOWN_SHAPE, UNKNOWN_SHAPE, INPUT_NODE):
                continue
            k = counter
            counter += 1  # base_cluster.cc: BuildPartitionFrame (unique_id_++)
            # dynamic_shape_partition.cc: GetSubgraphName (an INPUT_NODE cluster, the root's
            # Consts, is the known subgraph `_input`)
            kind = "input" if c.type == INPUT_NODE else "unknow" if c.is_unknown else "know"
            sub = taken.get(f"{root}_sub_{k}_{kind}")
            framed.append((c, sub, f"{sub}_PartitionedCall_{k}"))

        self._remark_nodes(framed)
        block = self.graph.body.block
        made: list[GraphOp] = []
        calls: dict[Cluster, PartitionedCall] = {}
        for c, sub, call_name in framed:
            g, call = self._build_frame(c, sub, call_name)
            made.append(g)
            calls[c] = call
        # the root's new order: a topological sort of its remaining nodes and the calls,
        # earliest node first (AddPartitionedCallKeepTopo, then TopologicalSorting)
        framed_of = {op: calls[c] for c, _, _ in framed for op in c.nodes}
        units_list: list[Operation] = []
        first_pos: dict[Operation, int] = {}
        for op in self.nodes:
            u = framed_of.get(op, op)
            if u not in first_pos:
                first_pos[u] = self.pos[op]
                units_list.append(u)
        indeg: dict[Operation, int] = {}
        succ: dict[Operation, list[Operation]] = {u: [] for u in units_list}
        for u in units_list:
            preds = {v.owner for v in u.operands if isinstance(v.owner, Operation)}
            indeg[u] = len(preds)
            for p in preds:
                succ[p].append(u)
        index = {u: i for i, u in enumerate(units_list)}  # units_list is in first-node order
        heap = [i for i, u in enumerate(units_list) if indeg[u] == 0]
        heapq.heapify(heap)
        order: list[Operation] = []
        while heap:
            u = units_list[heapq.heappop(heap)]
            order.append(u)
            for s in succ[u]:
                indeg[s] -= 1
                if indeg[s] == 0:
                    heapq.heappush(heap, index[s])
        assert len(order) == len(units_list), "the partitioned root graph has a cycle"
        for u in order:
            if u.parent is not None:
                u.detach()
        for u in order:
            block.add_op(u)
        # IsGraphNeedUnknownShapePartition: the root is partitioned and unknown
        self.graph.attributes[A.DYNAMIC_SHAPE_PARTITIONED] = TRUE
        self.graph.attributes[A.GRAPH_UNKNOWN_FLAG] = TRUE
        return made

    def _build_frame(self, c: Cluster, sub: str, call_name: str) -> tuple[GraphOp, PartitionedCall]:
        """base_cluster.cc: BuildPartitionFrame (BuildPartitionNodes: AddFrameInput,
        AddPartitionedCallNodeOutput), CombinePartitionFrame, BuildPartitionSubgraph."""
        members = sorted(c.nodes, key=self.pos.__getitem__)
        inside = set(members)
        body = Block()
        # BuildPartitionNodes: each input edge from outside the cluster is a frame input
        frame_inputs: list[tuple[Operation, int, SSAValue]] = []
        for op in members:
            for idx, v in enumerate(op.operands):
                if isinstance(v.owner, Operation) and v.owner in inside:
                    continue
                frame_inputs.append((op, idx, v))
        # AddPartitionedCallNodeOutput: each output read outside is a frame output
        frame_outputs: list[SSAValue] = []
        for op in members:
            for r in op.results:
                if any(u.operation not in inside for u in r.uses):
                    frame_outputs.append(r)
        unknown = c.is_unknown
        # BuildPartitionSubgraph: one Data per frame input (parent node index i)
        datas = []
        for i, (op, _, v) in enumerate(frame_inputs):
            if i not in self.int_attrs:
                self.int_attrs[i] = A.make_int(i)
            d = Data.create(result_types=[v.type], attributes={"index": self.int_attrs[i]})
            # the frame input's location: its producer's (the value it stands for), else
            # the reader's; so remarks on the subgraph name the source lines
            src = self.produced_by.get(v, v).owner  # through a call built before: the node inside
            d.location = src.location if isinstance(src, Operation) else op.location
            d.results[0].name_hint = f"{sub}_Data_{i}"
            datas.append(d)
        call = PartitionedCall.create(
            operands=[v for _, _, v in frame_inputs],
            result_types=[r.type for r in frame_outputs],
            attributes={"f": SymbolRefAttr(sub), IS_UNKNOWN_SHAPE: (TRUE if unknown else FALSE)},
        )
        call.location = members[0].location  # the cluster's first node (in graph order)
        if call.results:
            call.results[0].name_hint = call_name
        else:
            call.attributes[A.NODE_NAME] = StringAttr(call_name)
        # CombinePartitionFrame: the outside readers read the call's results
        for r, cr in zip(frame_outputs, call.results):
            self.produced_by[cr] = self.produced_by.get(r, r)
            for u in list(r.uses):
                if u.operation not in inside:
                    u.operation.operands = [cr if (j == u.index) else o for j, o in enumerate(u.operation.operands)]
        for (op, idx, _), d in zip(frame_inputs, datas):
            op.operands = [d.results[0] if j == idx else o for j, o in enumerate(op.operands)]
        for d in datas:
            body.add_op(d)
        for op in members:
            op.detach()
            body.add_op(op)
        net = NetOutput.create(operands=frame_outputs)
        # the NetOutput's location: the producer of its first operand, else the last node
        net.location = (frame_outputs[0].owner if frame_outputs else members[-1]).location  # type: ignore[union-attr]
        body.add_op(net)
        attrs: dict[str, Attribute] = {IS_UNKNOWN_SHAPE: (TRUE if unknown else FALSE)}
        if unknown:
            # dynamic_shape_partition.cc: SetUnknownAttr
            attrs[A.GRAPH_UNKNOWN_FLAG] = TRUE
            attrs[A.MEMORY_DISCONTIGUOUS_ALLOCATION] = TRUE
        g = GraphOp(sub, Region(body), attrs)
        g.location = members[0].location  # graph-level remarks name the cluster's first node
        # the subgraph goes after the root graph (root_graph->AddSubgraph)
        return g, call

    def _remark_nodes(self, framed: list[tuple[Cluster, str, str]]) -> None:
        if not self.remarks:
            return
        sub_of = {c: sub for c, sub, _ in framed}
        for op in self.nodes:
            c = self.cluster_of(op)
            t = TYPE_NAMES[c.type]
            where = f"@{sub_of[c]}" if c in sub_of else f"the root @{self.graph.sym_name.data}"
            if c.type in (KNOWN_SHAPE, UNKNOWN_SHAPE) and op in self.unknown:
                why = self.unknown[op]
            elif c.type in (KNOWN_SHAPE, UNKNOWN_SHAPE) and op in self.why:
                why = self.why[op]
            elif c.type == DATA:
                why = Reason("InitClusters", "a Data node stays in the root")
            elif c.type == NETOUTPUT:
                why = Reason("InitClusters", "the NetOutput stays in the root")
            elif c.type == INPUT_NODE:
                why = Reason(
                    "MergeClustersInputData", "a Const without inputs (INPUT_NODE): the root's Consts form one cluster"
                )
            elif c.type == STAGE:
                why = Reason("InitClusters", f"a PartitionedCall with {STAGE_LEVEL} stays in the root")
            else:
                why = Reason("IsUnknownShapeNode", "known shape")
            remark(
                op,
                f"{PASS}: {ge_type(op)} '{node_name(op)}' -> cluster {c.id} {t} in {where}: {why}",
                reason=why,
                pass_name=PASS,
                verdict=t,
                data={"cluster": c.id, "cluster_type": t},
            )


@dataclass(frozen=True)
class DynamicShapePartitionPass(ModulePass):
    """Partitions each root graph with an unknown-shape node into known-shape and
    unknown-shape subgraphs called by ge.PartitionedCall (GE's DynamicShapePartitioner);
    a graph without an unknown-shape node, or one already partitioned
    (`_dynamic_shape_partitioned = true`), is left unchanged. `remarks` prints, for each
    node, the cluster it landed in and why (for a graph already partitioned: one remark
    saying so)."""

    name = PASS

    static_model_ops_lower_limit: int | None = None
    merge_known_first: bool = False
    topo_sorting_mode: int | None = None
    host_scheduling_max_threshold: int = 0
    placement: str = "DEVICE"
    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {
        "static_model_ops_lower_limit": Option(
            "a known-shape cluster of fewer nodes becomes unknown (ChangeSmallClusterType); -1 makes the "
            "whole graph unknown, unpartitioned (GE's option ge.exec.staticModelOpsLowerLimit)",
            AtLeast(-1, or_none="4, or 6 with merge-known-first"),
        ),
        "merge_known_first": Option(
            "merge the known-shape clusters before the unknown ones (MergeClustersNormal's FFTS order)", Flag()
        ),
        "topo_sorting_mode": Option(
            "GE's option ge.topoSortingMode: the topological order the nodes are numbered in before "
            "clustering (0 BFS, 1 DFS, 2 RDFS, 3 StableRDFS, which keeps the graph's order); 3 also merges "
            "consecutive clusters of one kind in that order instead (MergeClustersWithConsistantId)",
            OneOf((0, 1, 2, 3), or_none="the graph's stored order, clusters merged as by 0..2"),
        ),
        "host_scheduling_max_threshold": Option(
            "GE's option ge.exec.hostSchedulingMaxThreshold: a graph without unknown-shape nodes and with fewer "
            "known nodes than this, none with a subgraph, is not compiled to a static model but marked unknown "
            "and run op by op by the host (IsGraphNeedUnknownShapePartition)",
            AtLeast(0),
        ),
        "placement": Option(
            "GE's option ge.exec.placement: HOST marks the root unknown, unpartitioned, so the host runs the "
            "whole graph (GetHostExecFlag); DEVICE partitions",
            OneOf(("HOST", "DEVICE")),
        ),
        "remarks": REMARKS,
    }

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        limit = self.static_model_ops_lower_limit
        if limit is None:
            # dynamic_shape_partition.cc: Initialize
            limit = DEFAULT_LOWER_LIMIT_KNOWN_FIRST if self.merge_known_first else DEFAULT_LOWER_LIMIT
        # a subgraph of a PartitionedCall or of a control op (If, Case, While) is no root
        graphs = [g for g in op.ops if isinstance(g, GraphOp)]
        called = {n for g in graphs for node in g.body.block.ops for n in called_graph_names(node)}
        roots = [g for g in graphs_in_pass_order(op) if g.sym_name.data not in called]
        for graph in roots:
            made = DynamicShapePartitioner(
                op,
                graph,
                limit,
                self.merge_known_first,
                self.remarks,
                self.topo_sorting_mode,
                self.host_scheduling_max_threshold,
                self.placement,
            ).partition()
            # base_cluster.cc: BuildPartitionFrame (root_graph->AddSubgraph): after the root
            anchor: Operation = graph
            for g in made:
                op.body.block.insert_op_after(g, anchor)
                anchor = g
