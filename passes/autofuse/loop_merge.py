"""GE's MergeAscGraphByLoop: two AscBackends' AscGraphs merged into one loop nest.

GE source: `can_fuse/backend/asc_backend_fusion_decider.cpp`
(AscBackendFusionDecider::MergeAscGraphByLoop, LinkAscSubGraphNode, DeleteInvalidLoad) and
`backend_utils.cpp` (TryAscDataNodeMerge, CompleteNodeAttrsOnAscGraph,
FusedApplyViewOpSlice / ApplyViewOpSliceLoad).

`LoopMerge` is one merge of a pair CanFuse accepted, after the shape of MLIR's
`LoopFusionUtils.cpp` `fuseLoops`: the legality is CanFuse's (passes/autofuse/decider.py,
as `canFuseLoops` is apart from `fuseLoops`), and the merge clones both graphs into one
block and then fixes up, each step a method named after GE's:

  index_nodes     the Data/Output indices and node1's stored values (MergeAscGraphByLoop)
  take_graph1     graph 1's nodes converted to the merged loop; the Store/Output of an
                  output only node2 reads dropped
  link_graph2     LinkAscSubGraphNode + DeleteInvalidLoad: node2's Data nodes that read
                  node1 go, their Loads read node1's value directly; shared Data nodes
                  merge (TryAscDataNodeMerge)
  build_backend   the AscGraph and the ge.AscBackend holding it

A slice view on a link is back-stepped as GE's DeleteInvalidLoad -> ProcessViewOps does:
when node2's Data reads a sub-box of node1's stored output (axis_mapping.slice_box), node1
runs on the slice's extents: each of node1's Data views takes the box and its Loads the
box's start times their strides as extra offset (ApplyViewOpFinalInfoSlice), node1's
Store/Output and node2's Data/Load go, and node2 reads node1's value directly.

Deviations, each kept numerically exact:
* A view through which the consumer read the producer's value (broadcast, or a transposed
  axis order) becomes an explicit AscIR Broadcast/Transpose on the producer's on-chip
  value (GE's HintGraph form after FallbackPro), instead of GE's ProcessViewOps pushing
  the view up to the producer's own Loads (`LoopBuilder.adapt`).
* The side with fewer loop axes keeps repeat 1 on the axes it lacks (it is constant
  along them); GE's ProcessAscgraphAfterMerge/FallbackPro instead gives each of that
  side's Loads a Broadcast to the merged loop.

The incremental variant (moving nodes instead of cloning them, keeping a graph an earlier
merge built over the same loop whole) is passes/autofuse/fuse_cache.py's `KeptLoopMerge`,
a subclass overriding the hooks `put1`, `put2` and `bypass_anchor`; its output is this
class's, byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.ge import ge_type, node_name
from ge_dialect.node_types import SPLIT_TYPES
from passes.autofuse import ascgraph_queries as U
from passes.autofuse.axis_mapping import (
    AxisUnification,
    NodeFuseInfo,
    NodeQueries,
    sliced_view,
    update_input_maps,
)

DATA, OUTPUT, STORE, LOAD, OTHER = "Data", "Output", "Store", "Load", ""
_KINDS: dict[type, str] = {}


def node_kind(cls: type) -> str:
    """Which of Data/Output/Store/Load an AscIR node class is (isinstance, asked once per
    class: a loop merge asks it of every node of both graphs, and AscIR classes are ABCs,
    whose isinstance is slow)."""
    if (k := _KINDS.get(cls)) is None:
        k = _KINDS[cls] = next(
            (
                n
                for t, n in ((ag.Data, DATA), (ag.Output, OUTPUT), (ag.Store, STORE), (ag.Load, LOAD))
                if issubclass(cls, t)
            ),
            OTHER,
        )
    return k


# Attributes are immutable values, so the loop merges' few distinct integers, sched.axis
# lists and loop axes are each built once and shared (IntegerAttr's constructor checks
# the range: about 17 us of the merge per integer); no entry can become stale.
_INTS: dict[int, IntegerAttr] = {}
_INT_LISTS: dict[tuple[int, ...], ArrayAttr] = {}
_AXES: dict[tuple[int, int], ag.AxisAttr] = {}


def shared_int(v: int) -> IntegerAttr:
    if (a := _INTS.get(v)) is None:
        a = _INTS[v] = A.make_int(v)
    return a


def shared_int_list(vs: list[int]) -> ArrayAttr:
    key = tuple(vs)
    if (a := _INT_LISTS.get(key)) is None:
        a = _INT_LISTS[key] = ArrayAttr([shared_int(v) for v in vs])
    return a


def loop_axis(a: int, size: int) -> ag.AxisAttr:
    """A merged loop's axis `a`, named z<a> as every merged AscGraph's axes are."""
    if (x := _AXES.get((a, size))) is None:
        x = _AXES[(a, size)] = ag.AxisAttr(a, f"z{a}", size)
    return x


def _lone_split(op: Operation) -> tuple[Operation, ge.NetOutput] | None:
    """The one split-type GE op and the NetOutput of an AscBackend's origin region."""
    if not isinstance(op, ge.AscBackend) or op.origin is None:
        return None
    ops = [o for o in op.origin.block.ops if not isinstance(o, ge.Data | ge.RefData | ge.NetOutput)]
    net = op.origin.block.last_op
    if len(ops) != 1 or ge_type(ops[0]) not in SPLIT_TYPES or not isinstance(net, ge.NetOutput):
        return None
    return ops[0], net


def split_origin(info: NodeFuseInfo) -> Region | None:
    """The origin of a loop merge of two pieces of one lowered Split (each origin only that
    Split): Data per fused input, the Split once, NetOutput of the fused node's outputs.

    liftings.cpp IsSkipLifting (step 2-3): a node fused by CanFuse is lifted only when it
    carries a split global id, by LowerSplitHelper::NeedLifting; its origin nodes are the
    Split's, kept here so lifting can put the Split back. Not a GE data structure: GE keeps
    origin nodes by pointer on every node; here only lowering's AscBackends carry them.
    """
    if (side1 := _lone_split(info.n1)) is None or (side2 := _lone_split(info.n2)) is None:
        return None  # (node2's origin is not walked when node1 has none)
    (s1, net1), (s2, net2) = side1, side2
    if node_name(s1) != node_name(s2):
        return None
    block = Block()
    datas = []
    for i, v in enumerate(info.fused_inputs):
        d = ge.Data.create(result_types=[v.type], attributes={"index": A.make_int(i)})
        d.results[0].name_hint = v.name_hint
        block.add_op(d)
        datas.append(d.results[0])
    vmap: dict[SSAValue, SSAValue] = {}
    for n, s in ((info.n1, s1), (info.n2, s2)):
        for v in s.operands:
            src = v.owner
            assert isinstance(src, ge.Data)
            outer = n.operands[src.int_attr("index") or 0]
            if outer not in info.fused_inputs:
                return None
            if vmap.setdefault(v, datas[info.fused_inputs.index(outer)]) is not datas[info.fused_inputs.index(outer)]:
                return None
    if [vmap[v] for v in s1.operands] != [vmap[v] for v in s2.operands]:
        return None  # the two pieces do not split the same value
    split = s1.clone(value_mapper=dict(vmap))
    block.add_op(split)
    outs = [split.results[list[SSAValue](s1.results).index(net1.operands[k])] for k in info.node1_outputs]
    outs += [split.results[list[SSAValue](s2.results).index(v)] for v in net2.operands]
    block.add_op(ge.NetOutput.create(operands=outs))
    return Region(block)


def plan_fused_inputs(info: NodeFuseInfo, u: AxisUnification, memo: NodeQueries | None = None) -> set[int]:
    """The fused node's input list of a loop merge (MergeAscGraphByLoop), written into
    `info`: each shared input's two Data nodes merge when their views, completed to the
    merged loop, agree (BackendUtils::TryAscDataNodeMerge); otherwise node2's Data stays
    a separate input (NodeFuseInfo::RollbackNode2InputMap). Returns the rolled-back node2
    inputs. CanFuse's input cap and Fuse both call this, so the cap counts exactly the
    inputs Fuse produces."""
    rollback: set[int] = set()
    if info.can_do_horizontal_mapping() and info.same_input_map:
        q = memo if memo is not None else NodeQueries()  # `memo`: the decider's, kept for a solve
        t1, t2 = q.tables(info.n1), q.tables(info.n2)
        gr1, gr2 = t1.graph, t2.graph
        assert gr1 is not None and gr2 is not None
        key = None
        if u.key is not None:
            # the rollback depends on the unification (named by its key) and the shared
            # inputs' Data views only: pairs with equal keys share it (NodeQueries)
            views = tuple((q.data_view(t1, gr1, i1), q.data_view(t2, gr2, i2)) for i1, i2 in info.same_input_map)
            key = ("plan", u.key, views)
            if (hit := q.kept(key)) is not None:
                if info.applied_rollback != hit:
                    update_input_maps(info, hit)  # type: ignore[arg-type]
                return set(hit)  # type: ignore[arg-type]
        full = sorted(u.sizes)
        datas1, datas2 = q.data_by_index(gr1), q.data_by_index(gr2)
        for i1, i2 in info.same_input_map:
            d1, d2 = datas1.get(i1), datas2.get(i2)
            if d1 is None or d2 is None:
                continue
            t1 = d1.out_type()
            if u.slices:  # node1's Data as the slice leaves it (sliced_view)
                t1 = sliced_view(t1, next(iter(u.slices.values())))[0]
            # the two completed views compared as their parts (equal parts <=> equal types)
            t2 = d2.out_type()
            v1 = (t1.element_type, *completed_parts(t1, u.map1, full, True))
            v2 = (t2.element_type, *completed_parts(t2, u.map2, full, True))
            if v1 != v2:
                rollback.add(i2)
        if key is not None:
            q.keep_answer(key, frozenset(rollback))
    if info.applied_rollback != rollback:  # (node_fuse_info applied none)
        update_input_maps(info, rollback)
    return rollback


def complete_tensor(t: ag.AscTensorType, m: dict[int, int], full: list[int] | None, memory: bool) -> ag.AscTensorType:
    """A tensor with its axis ids converted through `m` and, for a loop merge (`full` is
    the merged loop), completed to every loop axis (CompleteNodeAttrsOnAscGraph: repeat 1,
    stride 0); an on-chip (non-memory) tensor gets contiguous strides."""
    return ag.AscTensorType(t.element_type, *completed_parts(t, m, full, memory))


def completed_parts(
    t: ag.AscTensorType, m: dict[int, int], full: list[int] | None, memory: bool
) -> tuple[list[int], list[int], list[int]]:
    """complete_tensor's axis ids, repeats and strides (without building the type)."""
    ids = [m[a] for a in t.axis_ids]
    reps, strides = list(t.repeat_list), list(t.stride_list)
    if full is not None and ids:
        for a in full:
            if a in ids:
                continue
            pos = next((i for i, x in enumerate(ids) if x > a), len(ids))
            ids.insert(pos, a)
            reps.insert(pos, 1)
            strides.insert(pos, 0)
        if not memory:
            strides = list(ag.contiguous_strides(reps))
    return ids, reps, strides


class LoopBuilder:
    """Puts AscIR nodes into a new block with axis ids converted through a map and, for
    a loop merge, every tensor completed to the full loop (CompleteNodeAttrsOnAscGraph:
    missing axes get repeat 1, stride 0; sched.axis is the whole loop, as HintGraphs do).
    Every node is cloned; `reuse` is the hook through which fuse_cache's builder moves a
    node whose types the conversion leaves as they are."""

    def __init__(self, full: list[int] | None, sizes: dict[int, int] | None = None, block: Block | None = None):
        self.full = full
        # a loop merge through a slice: on-chip tensors are cut to the merged loop's extents
        self.sizes = sizes
        self.block = Block() if block is None else block
        self.count = 0  # the nodes in `block`, kept as built (the AscBackend's fusion_nodes_size)
        self.anchor: Operation | None = None  # where a node goes in: before it, else at the end
        self.vmap: dict[SSAValue, SSAValue] = {}
        self._sched = shared_int_list(full) if full is not None else None

    def tensor(self, t: ag.AscTensorType, m: dict[int, int], memory: bool) -> ag.AscTensorType:
        """`t` converted; `t` itself when the conversion does not change it."""
        ids, reps, strides = completed_parts(t, m, self.full, memory)
        if self.sizes is not None and not memory:
            reps = [min(r, self.sizes[a]) for a, r in zip(ids, reps)]
            strides = list(ag.contiguous_strides(reps))
        if tuple(ids) == t.axis_ids and tuple(reps) == t.repeat_list and tuple(strides) == t.stride_list:
            return t
        return ag.AscTensorType(t.element_type, ids, reps, strides)

    def clone(
        self, op: ag.AscNode, m: dict[int, int], index: int | None = None, view: ag.AscTensorType | None = None
    ) -> Operation:
        """`op` converted into the block. Returns the node in the block."""
        memory = op.MEMORY or isinstance(op, ag.Store)
        if ag.gather_operand(op):
            # asc_overrides.h GatherLoad: a Gather's Data view is its whole tensor with
            # positional axis ids, not a loop view: it is neither remapped nor completed.
            types = [r.type for r in op.results]
        elif view is not None:
            types = [complete_tensor(view, m, self.full, memory=True)]
        else:
            types = [self.tensor(r.type, m, memory) for r in op.results]  # type: ignore[arg-type]
        sched = None
        if ag.SCHED_AXIS in op.attributes:
            sched = self._sched or shared_int_list([m[a] for a in op.sched_axis()])
        if (kept := self.reuse(op, types, sched, index)) is not None:
            return kept
        attrs = dict(op.attributes)
        if sched is not None:
            attrs[ag.SCHED_AXIS] = sched
        if index is not None:
            attrs["index"] = shared_int(index)
        new = type(op).create(operands=[self.vmap[v] for v in op.operands], result_types=types, attributes=attrs)
        for r, nr in zip(op.results, new.results):
            nr.name_hint = r.name_hint
            self.vmap[r] = nr
        self.insert(new)
        return new

    def reuse(
        self, op: ag.AscNode, types: Sequence[Attribute], sched: Attribute | None, index: int | None
    ) -> Operation | None:
        """The node itself in the block instead of a clone, or None (here: always a clone)."""
        return None

    def value(self, v: SSAValue) -> SSAValue:
        """The new block's value for `v` (a node left in place keeps its own)."""
        return self.vmap.get(v, v)

    def insert(self, op: Operation) -> None:
        self.count += 1
        if self.anchor is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, self.anchor)

    def adapt(self, v: SSAValue, want: ag.AscTensorType) -> SSAValue:
        """The producer's on-chip value as the bypassed Load saw it: an explicit Transpose
        when the axis order differs, a Broadcast where the Load expanded repeat-1 axes."""
        t = v.type
        assert isinstance(t, ag.AscTensorType)
        sched = {ag.SCHED_AXIS: shared_int_list(self.full or list(want.axis_ids))}
        if t.axis_ids != want.axis_ids:
            reps = [t.repeat_of(a) for a in want.axis_ids]
            tt = ag.AscTensorType(t.element_type, want.axis_ids, reps, ag.contiguous_strides(reps))
            op = ag.Transpose.create(operands=[v], result_types=[tt], attributes=dict(sched))
            op.results[0].name_hint = "transpose"
            self.insert(op)
            v, t = op.results[0], tt
        if t.repeat_list != want.repeat_list:
            assert all(a == b or a == 1 for a, b in zip(t.repeat_list, want.repeat_list)), (
                "a slice view cannot be bypassed"
            )
            op = ag.Broadcast.create(operands=[v], result_types=[want], attributes=dict(sched))
            op.results[0].name_hint = "broadcast"
            self.insert(op)
            v = op.results[0]
        return v


def renumbered_backend(op: ge.AscBackend, operands: list[SSAValue], axis_map: dict[int, int]) -> ge.AscBackend:
    """A clone of `op` reading `operands`, its AscGraph's axes renumbered through
    `axis_map` (MergeGraphToFusedAscBackendNode's FlushSubGraphAxisInfo)."""
    g = U.asc_graph(op)
    assert g is not None
    b = LoopBuilder(None)
    for node in g.body.block.ops:
        assert isinstance(node, ag.AscNode)
        b.clone(node, axis_map)
    sizes = g.axis_sizes()
    axes = sorted((axis_map[a], f"z{axis_map[a]}", sizes[a]) for a in g.axis_ids())
    graph = ag.AscGraphOp(g.sym_name.data, axes, Region(b.block))
    new = ge.AscBackend.create(
        operands=operands,
        result_types=[r.type for r in op.results],
        attributes=dict(op.attributes),
        regions=[Region(Block([graph]))] + [r.clone() for r in op.regions[1:]],
    )
    for r, o in zip(new.results, op.results):
        r.name_hint = o.name_hint
    new.location = op.location
    return new


class LoopMerge:
    """asc_backend_fusion_decider.cpp MergeAscGraphByLoop of one pair CanFuse accepted
    (node1 the producer when the pair is vertical): `run` builds the fused AscBackend,
    not inserted; node1 and node2 are left as they were.

    `attrs` are the fused node's attributes (FuseNode's, made by the decider while both
    nodes are whole); `queries` the decider's NodeQueries, or None."""

    def __init__(
        self, info: NodeFuseInfo, u: AxisUnification, attrs: dict[str, Attribute], queries: NodeQueries | None = None
    ):
        self.info, self.u, self.attrs = info, u, attrs
        self.n1, self.n2 = info.n1, info.n2
        gr1, gr2 = U.asc_graph(self.n1), U.asc_graph(self.n2)
        assert gr1 is not None and gr2 is not None
        self.gr1, self.gr2 = gr1, gr2
        self.full = sorted(u.sizes)
        # a slice link (DeleteInvalidLoad -> ProcessViewOps): node1 runs on the slice's box
        self.box = next(iter(u.slices.values()), None)
        # TryAscDataNodeMerge: node2's shared inputs whose Data nodes stay apart (read
        # from both graphs as they are)
        self.rollback = plan_fused_inputs(info, u, queries)
        # each graph's nodes and their kinds (node_kind), as they were
        self.ops1: list[Operation] = []
        self.ops2: list[Operation] = []
        self.kinds1: list[str] = []
        self.kinds2: list[str] = []
        # the Data/Output indices, node1's Data per index and stored value per output
        self.index: dict[Operation, int] = {}
        self.datas1: dict[int, ag.Data] = {}
        self.stored: dict[int, SSAValue] = {}
        # the fused node's output position of each side's kept output
        self.kept1 = set(info.node1_outputs)
        self.out_index: dict[tuple[int, int], int] = {(1, k): pos for pos, k in enumerate(info.node1_outputs)}
        for k in range(len(self.n2.results)):
            self.out_index[(2, k)] = len(info.node1_outputs) + k
        self.linked = {j: k for k, j in info.links}  # node2 input -> node1 output
        self.b: LoopBuilder
        # the new graph's Data and Output nodes in block order; the nodes the merge drops
        self.new_datas: list[ag.Data] = []
        self.new_outputs: list[ag.Output] = []
        self.dropped: list[Operation] = []

    def run(self) -> ge.AscBackend:
        self.index_nodes()
        self.b = self.builder()
        self.take_graph1()
        self.link_graph2()
        return self.build_backend()

    def builder(self) -> LoopBuilder:
        return LoopBuilder(self.full, self.u.sizes if self.box else None)

    # -- hooks (fuse_cache.KeptLoopMerge moves and keeps nodes through them) ------------------

    def put1(self, op: ag.AscNode, index: int | None = None) -> Operation:
        """Graph 1's node `op` in the new block."""
        return self.b.clone(op, self.u.map1, index=index)

    def put2(self, op: ag.AscNode, index: int | None = None) -> Operation:
        """Graph 2's node `op` in the new block."""
        return self.b.clone(op, self.u.map2, index=index)

    def bypass_anchor(self, load: ag.Load) -> Operation | None:
        """Where the nodes replacing a bypassed Load go (None: at the end)."""
        return None

    # -- GE's steps --------------------------------------------------------------------------

    def index_nodes(self) -> None:
        """The Data/Output indices and node1's stored values as they were (a moved node's
        index and operands are rewritten while the later nodes still ask for them)."""
        self.index_graph1()
        self.index_graph2()

    def index_graph1(self) -> None:
        self.ops1 = list(self.gr1.body.block.ops)
        self.kinds1 = [node_kind(type(op)) for op in self.ops1]
        index, datas1, stored = self.index, self.datas1, self.stored
        for op, kind in zip(self.ops1, self.kinds1):
            if kind is DATA:
                index[op] = k = op.index  # type: ignore[attr-defined]
                datas1[k] = op  # type: ignore[assignment]
            elif kind is OUTPUT:
                index[op] = k = op.index  # type: ignore[attr-defined]
                stored[k] = op.operands[0].owner.operands[0]  # type: ignore[union-attr]

    def index_graph2(self) -> None:
        self.ops2 = list(self.gr2.body.block.ops)
        self.kinds2 = [node_kind(type(op)) for op in self.ops2]
        for op, kind in zip(self.ops2, self.kinds2):
            if kind is DATA or kind is OUTPUT:
                self.index[op] = op.index  # type: ignore[attr-defined]

    def _only_dropped_outputs_read(self, store: Operation) -> bool:
        """Every reader of the Store is an Output of an output only node2 read."""
        return all(
            isinstance(x.operation, ag.Output) and self.index[x.operation] not in self.kept1
            for x in store.results[0].uses
        )

    def take_graph1(self) -> None:
        """Graph 1, every node converted to the merged loop; the Store/Output of an output
        only node2 reads are dropped. Through a slice (backend_utils.cpp
        FusedApplyViewOpSlice / ApplyViewOpSliceLoad) each Data view takes the box and its
        Loads the box's start as extra offset."""
        b, u, index = self.b, self.u, self.index
        load_shift: dict[SSAValue, int] = {}
        for op, kind in zip(self.ops1, self.kinds1):
            assert isinstance(op, ag.AscNode)
            if kind is OUTPUT:
                if index[op] not in self.kept1:
                    self.dropped.append(op)
                else:
                    self.new_outputs.append(self.put1(op, self.out_index[(1, index[op])]))  # type: ignore[arg-type]
            elif kind is STORE and self._only_dropped_outputs_read(op):
                self.dropped.append(op)
            elif self.box and kind is DATA:
                view, load_shift[op.results[0]] = sliced_view(op.out_type(), self.box)
                self.new_datas.append(b.clone(op, u.map1, view=view))  # type: ignore[arg-type]
            elif self.box and isinstance(op, ag.Load) and op.operands[0] in load_shift:
                new = b.clone(op, u.map1)
                new.attributes["offset"] = shared_int(op.offset + load_shift[op.operands[0]])
            else:
                new = self.put1(op)
                if kind is DATA:
                    self.new_datas.append(new)  # type: ignore[arg-type]
        b.anchor = None

    def link_graph2(self) -> None:
        """LinkAscSubGraphNode + DeleteInvalidLoad: graph 2's Data nodes that read node1
        and their Loads are bypassed (the Load's readers read node1's stored value P), a
        shared input's Data merges into node1's unless rolled back; every other node is
        converted to the merged loop."""
        b, u, index, info = self.b, self.u, self.index, self.info
        produced = {k: b.value(v) for k, v in self.stored.items()}  # P of each node1 output
        for op, kind in zip(self.ops2, self.kinds2):
            assert isinstance(op, ag.AscNode)
            if kind is DATA:
                if index[op] in self.linked:
                    self.dropped.append(op)
                    continue
                pos = info.node2_input_pos[index[op]]
                if pos < len(self.n1.operands) and index[op] not in self.rollback and pos in self.datas1:
                    b.vmap[op.results[0]] = b.value(self.datas1[pos].results[0])
                    self.dropped.append(op)
                    continue
                self.new_datas.append(self.put2(op, pos))  # type: ignore[arg-type]
            elif kind is LOAD and isinstance(src := op.operands[0].owner, ag.Data) and index[src] in self.linked:
                # DeleteInvalidLoad: consumers read the producer's value directly
                want = b.tensor(op.out_type(), u.map2, memory=False)
                b.anchor = self.bypass_anchor(op)  # type: ignore[arg-type]
                b.vmap[op.results[0]] = b.adapt(produced[self.linked[index[src]]], want)
                b.anchor = None
                self.dropped.append(op)
            elif kind is OUTPUT:
                self.new_outputs.append(self.put2(op, self.out_index[(2, index[op])]))  # type: ignore[arg-type]
            else:
                self.put2(op)

    def build_backend(self) -> ge.AscBackend:
        """The merged AscGraph (axes z<a> of the merged loop) in a ge.AscBackend reading
        the fused inputs, with node1's kept outputs then node2's as results."""
        info, attrs = self.info, self.attrs
        name = attrs[A.NODE_NAME].data  # type: ignore[attr-defined]
        # AscGraphOp(...)'s own arguments, given to Operation.create (IRDL's __init__ checks
        # its arguments again: 40 us of each merge)
        graph = ag.AscGraphOp.create(
            properties={
                "sym_name": StringAttr(f"{name}_graph"),
                "axis": ArrayAttr([loop_axis(a, self.u.sizes[a]) for a in self.full]),
            },
            regions=[Region(self.b.block)],
        )
        self.graph = graph
        attrs["fusion_nodes_size"] = shared_int(self.b.count)  # ag.node_count(graph), counted as built
        new = ge.AscBackend.create(
            operands=list(info.fused_inputs),
            result_types=fused_result_types(info),
            attributes=attrs,
            regions=[Region(Block([graph]))],
        )
        new.location = self.n2.location
        name_fused_results(new, info)
        if (origin := split_origin(info)) is not None:
            new.add_region(origin)
        return new


def fused_result_types(info: NodeFuseInfo) -> list[Attribute]:
    """FuseNode's outputs: node1's kept outputs, then all of node2's."""
    return [info.n1.results[k].type for k in info.node1_outputs] + [r.type for r in info.n2.results]


def name_fused_results(new: Operation, info: NodeFuseInfo) -> None:
    olds = [info.n1.results[k] for k in info.node1_outputs] + list(info.n2.results)
    for r, o in zip(new.results, olds):
        r.name_hint = o.name_hint
