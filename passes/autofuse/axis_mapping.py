"""Loop-axis mapping between two AscBackends (docs/ge/autofuse.md).

GE source: `can_fuse/backend/asc_graph_axis_mapping.{h,cpp}` (NodeFuseInfo,
AscGraphAxisMapping::CanAxisMap / FindAxisIndex, CreateSubGraphAxisMapInfo,
FlashContinueAxisId, FlushSubGraphAxisInfo) and `backend_utils.cpp`
(CheckAxisSubsetRelation, IsSameBroadCastInfo).

* `NodeFuseInfo`: how two ge nodes connect (links n1 output -> n2 input, with single or
  multi reference; shared inputs; the fused node's input and output lists).
* `can_axis_map`: pairs the axes of two repeat lists (unique anchors, extend, right-to-left
  fill, and the unit-repeat fallback when allowed).
* `create_axis_map` (CreateSubGraphAxisMapInfo): `process_sub_graph_vertical_map_info`
  (§6.3, each link paired by `get_vertical_axis_map_info`, then the CanLoopMerge checks)
  or `process_sub_graph_horizontal_map_info` (§6.4), then the renumbering to contiguous
  ids (§6.6, FlashContinueAxisId). A failure is a Reason (UnifySubgraphAxisFailed).
* `cur_node_input_is_simplest_load` / `pre_node_input_is_simplest_load`: backend_utils.cpp
  CurNodeInputIsSimplestLoad / PreNodeInputIsSimplestLoad over the shared
  `ascgraph_queries.is_simplest_load` (GE's IsSimplestLoad), for the vertical view checks
  and the horizontal broadcast-info check.
* `slice_box` / `sliced_view` / `slice_back_step_refusal`: a link node2 reads through a
  slice of node1's output, paired axis by axis for a loop merge that runs node1 on the
  slice (backend_utils.cpp SliceCalcOffsetAndStridePerAxisCurNode,
  ApplyViewOpFinalInfoSlice; asc_backend_fusion_decider.cpp DeleteInvalidLoad).

Axis ids are per AscGraph; a FusedAscBackend's AscGraphs share one id space (each fusion
rewrites them with one map), so its "graph axes" are the union of its AscGraphs' axes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Operation, SSAValue

from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.reason import Reason, not_fuse
from passes.autofuse import ascgraph_queries as U


def unify_subgraph_axis_failed(message: str) -> Reason:
    """# asc_backend_fusion_decider.cpp: CanFuse -- the axis map of the pair cannot be built
    (kUnifySubgraphAxisFailed)."""
    return not_fuse("UnifySubgraphAxisFailed", message)


def can_not_merge_asc_graph(message: str) -> Reason:
    """A loop merge that cannot be built (kCanNotMergeAscGraph)."""
    return not_fuse("CanNotMergeAscGraph", message)


# ---------------------------------------------------------------------------------------------
# NodeFuseInfo (asc_graph_axis_mapping.cpp: NodeFuseInfo::UpdateNodeFuseInfo)
# ---------------------------------------------------------------------------------------------


@dataclass
class NodeFuseInfo:
    n1: Operation
    n2: Operation
    # node1_to_node2_link_map: (n1 output slot, n2 input index)
    links: list[tuple[int, int]] = field(default_factory=list)
    # slots whose out-anchor has exactly one peer (its Store/Output can go)
    single_reference: dict[int, bool] = field(default_factory=dict)
    # same_input_map: (n1 input, n2 input) reading the same producer anchor
    same_input_map: list[tuple[int, int]] = field(default_factory=list)
    # node2_input_map: the fused node's inputs (n1's, then n2's new ones)
    fused_inputs: list[SSAValue] = field(default_factory=list)
    # n2 input index -> its position in fused_inputs (absent for linked inputs)
    node2_input_pos: dict[int, int] = field(default_factory=dict)
    # node1_output_map: n1 outputs kept (not all peers in n2); n2 keeps all
    node1_outputs: list[int] = field(default_factory=list)
    has_slice_vertical: bool = False
    can_do_horizontal_mapping_flag: bool = True
    # a strategy's OnlyVerticalMapping: CreateSubGraphAxisMapInfo skips the horizontal
    # axis mapping (ProcessSubGraphHorizontalMapInfo) but the shared inputs still merge
    only_vertical_mapping: bool = False
    # the rollback update_input_maps last applied (None: never run); the maps depend on it
    # and on the two nodes' operands and flags, which do not change while the info lives
    applied_rollback: frozenset[int] | None = None

    @property
    def is_vertical(self) -> bool:
        return bool(self.links)

    @property
    def is_horizontal(self) -> bool:
        """BackendUtils::IsHorizontal: the two nodes read a common producer anchor."""
        return bool(self.same_input_map)

    def can_do_horizontal_mapping(self) -> bool:
        """NodeFuseInfo::CanDoHorizontalMapping."""
        return self.can_do_horizontal_mapping_flag and not self.has_slice_vertical

    def linked_inputs(self) -> set[int]:
        return {j for _, j in self.links}

    def has_mul_reference(self) -> bool:
        """# asc_graph_axis_mapping.h: NodeFuseInfo::HasMulReference -- some output node1
        links to node2 has more than one reader (for the whole pair, not per link)."""
        return not all(self.single_reference.values())


_CUBE_BIT, _SLICE_BIT = ag.fuse_type_bit("cube"), ag.fuse_type_bit("slice")  # U.has_fuse_type's bits


class NodeLinks:
    """One node's operands and result readers as `node_fuse_info` reads them, built once
    for the candidate pairs of one GetPossibleFusions (the decider's pair_cache: no node,
    operand or use changes there), instead of walking xDSL's use lists and operand views
    again for every pair the node is in. Holds the node, its operands and readers, so the
    ids it keys by cannot be reused while it lives."""

    __slots__ = ("op", "operands", "first_read", "uses", "readers")

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.operands: tuple[SSAValue, ...] = tuple(op.operands)
        # each operand's first position, by id (the values are held in `operands`)
        self.first_read: dict[int, int] = {}
        for i, v in enumerate(self.operands):
            self.first_read.setdefault(id(v), i)
        # per result, its uses as (reader, operand index), in use-list order
        self.uses: tuple[tuple[tuple[Operation, int], ...], ...] = tuple(
            tuple((u.operation, u.index) for u in r.uses) for r in op.results
        )
        self.readers: frozenset[int] = frozenset(id(o) for us in self.uses for o, _ in us)  # (held in `uses`)

    def shared_inputs(self, other: NodeLinks) -> list[tuple[int, int]]:
        """same_input_map of (self, other): (self input, other input) reading one producer
        anchor, each value once on other's side (node_fuse_info's rule)."""
        first, same, seen2 = self.first_read, [], set()
        for j, v in enumerate(other.operands):
            if (i := first.get(id(v))) is not None and id(v) not in seen2:
                same.append((i, j))
                seen2.add(id(v))
        return same


def node_fuse_info(a: Operation | NodeLinks, b: Operation | NodeLinks) -> NodeFuseInfo | Reason:
    """NodeFuseInfo::UpdateNodeFuseInfo of nodes a, b (or of their NodeLinks, when the
    caller keeps them: the same info, read from them); a Reason says why it failed
    (NoSharedData when the nodes neither link nor share an input)."""
    l1, n1 = (a, a.op) if isinstance(a, NodeLinks) else (None, a)
    l2, n2 = (b, b.op) if isinstance(b, NodeLinks) else (None, b)
    info = NodeFuseInfo(n1, n2)
    if l2 is not None:
        if id(n1) in l2.readers:
            return unify_subgraph_axis_failed("the link goes from node2 to node1: the caller must order the pair")
    else:
        for v in n2.results:
            if any(u.operation is n1 for u in v.uses):
                return unify_subgraph_axis_failed("the link goes from node2 to node1: the caller must order the pair")
    # asc_graph_axis_mapping.cpp: can_do_horizontal_mapping is false if either is cube.
    bits = U.all_fuse_types(n1), U.all_fuse_types(n2)
    info.can_do_horizontal_mapping_flag = not ((bits[0] | bits[1]) & _CUBE_BIT)
    links, single, outputs = info.links, info.single_reference, info.node1_outputs
    if l1 is not None and id(n2) not in l1.readers:
        # no link: every output of n1 has a peer outside n2, or none (node1_output_map keeps all)
        outputs.extend(range(len(l1.uses)))
    else:
        uses_of = l1.uses if l1 is not None else [[(u.operation, u.index) for u in v.uses] for v in n1.results]
        for k, us in enumerate(uses_of):
            in_n2: set[int] = set()
            n_uses, only_n2 = 0, True
            for o, index in us:
                n_uses += 1
                if o is n2:
                    in_n2.add(index)
                else:
                    only_n2 = False
            if in_n2:
                links.extend((k, j) for j in sorted(in_n2))
                single[k] = n_uses == 1
            # node1_output_map: an n1 output is dropped iff all its peers are in n2
            if not (n_uses and only_n2):
                outputs.append(k)
    if l1 is not None and l2 is not None:
        info.same_input_map = l1.shared_inputs(l2)
    else:
        # keyed by id(): the values are the operands of n1 and n2, alive during this call
        first_read: dict[int, int] = {}
        for i, v in enumerate(n1.operands):
            first_read.setdefault(id(v), i)
        seen2: set[int] = set()
        same = info.same_input_map
        for j, v in enumerate(n2.operands):
            if (i := first_read.get(id(v))) is not None and id(v) not in seen2:
                same.append((i, j))  # duplicates on the n2 side dropped
                seen2.add(id(v))
    if not info.links and not info.same_input_map:
        return not_fuse("NoSharedData", "the nodes share no input and have no link")
    # has_slice_vertical: a slice pair linked vertically that also shares a load is treated
    # as vertical only (asc_graph_axis_mapping.cpp, UpdateNodeFuseInfo)
    info.has_slice_vertical = bool(info.links and info.same_input_map) and bool((bits[0] | bits[1]) & _SLICE_BIT)
    update_input_maps(info)
    return info


def update_input_maps(info: NodeFuseInfo, rollback: set[int] | None = None) -> None:
    """node1_input_map / node2_input_map: n1's inputs, then n2's inputs neither shared with
    n1 (only when horizontal mapping is allowed) nor produced by n1. `rollback` names n2
    inputs whose Data could not merge (NodeFuseInfo::RollbackNode2InputMap)."""
    rollback = rollback or set()
    info.applied_rollback = frozenset(rollback)
    fused = info.fused_inputs = list(info.n1.operands)
    pos: dict[int, int] = {}
    info.node2_input_pos = pos
    shared = {j: i for i, j in info.same_input_map} if info.can_do_horizontal_mapping() else {}
    linked = {j for _, j in info.links}
    for j, v in enumerate(info.n2.operands):
        if j in linked:
            continue
        if j in shared and j not in rollback:
            pos[j] = shared[j]
            continue
        pos[j] = len(fused)
        fused.append(v)


# ---------------------------------------------------------------------------------------------
# CanAxisMap (AscGraphAxisMapping::CanAxisMap, FindAxisIndex)
# ---------------------------------------------------------------------------------------------


def find_axis_index(short: list[int], base: list[int], allow_unit: bool) -> list[int] | None:
    """For each short-side repeat, the base position it maps to (asc_graph_axis_mapping.cpp
    FindAxisIndex): unique anchors, extended left and right while repeats are equal, then
    the rest right to left to the right-most unmapped equal position; with `allow_unit`
    (need_flash) an unmapped position where either repeat is 1 is the fallback."""
    pos: list[int | None] = [None] * len(short)
    used: set[int] = set()
    cs, cb = Counter(short), Counter(base)
    anchors = []
    for i, r in enumerate(short):
        if cs[r] == 1 and cb[r] == 1:
            j = base.index(r)
            pos[i] = j
            used.add(j)
            anchors.append((i, j))
    for i0, j0 in anchors:  # extend from every anchor
        for step in (-1, 1):
            i, j = i0 + step, j0 + step
            while (
                0 <= i < len(short) and 0 <= j < len(base) and pos[i] is None and j not in used and short[i] == base[j]
            ):
                pos[i] = j
                used.add(j)
                i, j = i + step, j + step
    for i in range(len(short) - 1, -1, -1):  # fill right to left
        if pos[i] is not None:
            continue
        cands = [j for j in range(len(base) - 1, -1, -1) if j not in used and base[j] == short[i]]
        if not cands and allow_unit:
            cands = [j for j in range(len(base) - 1, -1, -1) if j not in used and (base[j] == 1 or short[i] == 1)]
        if not cands:
            return None
        pos[i] = cands[0]
        used.add(cands[0])
    return [p for p in pos if p is not None]


@dataclass(frozen=True)
class AxisPairing:
    """A CanAxisMap result: `pairs` maps each axis of side b to its axis on side a (or
    the reverse when a is the short side); `base` is the side whose axes are kept."""

    base: int  # 1 = side a, 2 = side b
    a_to_b: tuple[tuple[int, int], ...]  # (a axis, b axis)


def can_axis_map(
    ax_a: list[int], rep_a: list[int], ax_b: list[int], rep_b: list[int], allow_unit: bool = False
) -> AxisPairing | None:
    """AscGraphAxisMapping::CanAxisMap: the side with more axes (a when equal) is the
    base; each axis of the other maps to a base axis by FindAxisIndex."""
    if len(rep_a) >= len(rep_b):
        pos = find_axis_index(list(rep_b), list(rep_a), allow_unit)
        if pos is None:
            return None
        return AxisPairing(1, tuple((ax_a[p], ax_b[i]) for i, p in enumerate(pos)))
    pos = find_axis_index(list(rep_a), list(rep_b), allow_unit)
    if pos is None:
        return None
    return AxisPairing(2, tuple((ax_a[i], ax_b[p]) for i, p in enumerate(pos)))


def check_axis_subset_relation(a: list, b: list) -> bool:
    """BackendUtils::CheckAxisSubsetRelation: equal, or one an ordered subsequence of the
    other (empty counts as a subsequence)."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    it = iter(long_)
    return all(any(x == y for y in it) for x in short)


# ---------------------------------------------------------------------------------------------
# The loop axes of a node and the unification
# ---------------------------------------------------------------------------------------------


def node_axes(op: Operation) -> tuple[list[int], dict[int, int]]:
    """Graph axis ids (table order; ids for a FusedAscBackend) and sizes of a node."""
    graphs = U.asc_graphs(op)
    if len(graphs) == 1:
        g = graphs[0]
        return g.axis_ids(), g.axis_sizes()
    sizes: dict[int, int] = {}
    for g in graphs:
        for a, s in g.axis_sizes().items():
            sizes[a] = max(sizes.get(a, 1), s)
    return sorted(sizes), sizes


@dataclass
class AxisUnification:
    """The result of CreateSubGraphAxisMapInfo + FlashContinueAxisId: both nodes' axis ids
    mapped to contiguous new ids, with the new axes' sizes."""

    map1: dict[int, int]
    map2: dict[int, int]
    sizes: dict[int, int]
    # links node2 reads through a slice of node1's output (see `slice_box`): (k, j) ->
    # {node1 axis id: (start, extent)}; a loop merge runs node1 on the sliced extents
    slices: dict[tuple[int, int], dict[int, tuple[int, int]]] = field(default_factory=dict)
    # NodeQueries.axis_map_key of a kept answer (equal keys, equal unifications), else None
    key: tuple | None = field(default=None, compare=False, repr=False)


@dataclass
class _Maps:
    pairs: dict[int, int] | None = None  # n2 axis -> n1 axis
    base: int = 1
    # slice links: (k, j) -> {n1 axis id: (start, extent)} on the axes node2 reads partly
    slices: dict[tuple[int, int], dict[int, tuple[int, int]]] = field(default_factory=dict)


def _pairs_of(p: AxisPairing) -> dict[int, int]:
    return {b: a for a, b in p.a_to_b}


def _is_same_map_axis(x: dict[int, int], y: dict[int, int]) -> bool:
    """AscGraphAxisMapping::IsSameMapAxis: one pairing a subset of the other."""
    sx, sy = set(x.items()), set(y.items())
    return sx <= sy or sy <= sx


def _graph_pairing(
    ax1: list[int], sz1: dict[int, int], ax2: list[int], sz2: dict[int, int], allow_unit: bool
) -> AxisPairing | None:
    return can_axis_map(ax1, [sz1[a] for a in ax1], ax2, [sz2[a] for a in ax2], allow_unit)


def _tensor(t: ag.AscTensorType) -> tuple[list[int], list[int]]:
    return list(t.axis_ids), list(t.repeat_list)


def _loop_merge(ax1: list[int], ax2: list[int], pairs: dict[int, int]) -> bool:
    """CanLoopMerge: the two loop-axis lists in one id space are equal or one is an ordered
    subsequence of the other."""
    return check_axis_subset_relation(list(ax1), [pairs.get(b, ("n2", b)) for b in ax2])


def _partial_axes(op: Operation) -> set[int]:
    return set().union(*(g.partial_axes() for g in U.asc_graphs(op)))


class _GraphScan:
    """One walk of an AscGraph's nodes: what several NodeQueries answers read (the Data
    nodes in `data_nodes` order, each value's Loads in graph order as `U.loads_of` lists
    them, the partial axes as `AscGraphOp.partial_axes` finds them)."""

    __slots__ = ("datas", "by_index", "loads", "partial", "outputs")

    def __init__(self, graph: ag.AscGraphOp) -> None:
        loads: dict[SSAValue, list[ag.Load]] = {}
        partial: set[int] = set()
        outputs: list[ag.Output] = []
        datas: list[ag.Data] = []
        for n in graph.body.block.ops:
            t = type(n)  # (these AscIR classes have no subclasses: an exact type test)
            if t is ag.Load:
                loads.setdefault(n.operands[0], []).append(n)  # type: ignore[arg-type]
            elif t is ag.Data:
                datas.append(n)  # type: ignore[arg-type]
            elif t is ag.Output:
                outputs.append(n)  # type: ignore[arg-type]
            elif (t is ag.Concat or t is ag.Split) and (a := n.moving_axis()) is not None:  # type: ignore[attr-defined]
                partial.add(a)
        outputs.sort(key=lambda o: o.index)  # AscGraphOp.output_nodes: stable, by index
        self.outputs: dict[int, ag.Output] = {}
        for o in outputs:
            self.outputs.setdefault(o.index, o)  # U.output_store takes the first
        datas.sort(key=lambda d: d.index)  # AscGraphOp.data_nodes: stable, by index
        self.datas = datas
        self.by_index: dict[int, list[ag.Data]] = {}
        for d in self.datas:
            self.by_index.setdefault(d.index, []).append(d)
        self.loads, self.partial = loads, partial


class _Tables:
    """One node's integer tables (NodeQueries.tables): numbers from NodeQueries.intern."""

    __slots__ = ("op", "axes", "graph", "inputs", "outputs", "data_views")

    def __init__(self, op: Operation, axes: int) -> None:
        self.op = op  # held: the entry's id(op) cannot be reused while it lives
        self.axes = axes
        self.graph = U.asc_graph(op)  # an AscBackend's AscGraph, else None
        self.inputs: dict[int, int] = {}
        self.outputs: dict[int, int] = {}
        self.data_views: dict[int, int | None] = {}


class NodeQueries:
    """One node's answers to the queries `create_axis_map` asks of each side, kept for
    the pairs of one solve. Not GE's (GE reads them off its node objects): the solver
    asks them again for every candidate pair a node is in (up to 2 x buffer-group-window
    pairs per node), and they depend only on the node's own AscGraph, attributes and
    operand types, which nothing changes in place while a solve runs (Fuse makes a new
    node and erases both old ones; the same premise as the decider's axis groups). The
    answers are the functions' own: `node_axes`, `_partial_axes`, `U.input_datas`, and
    `_input_broadcast_infos` of a Data's Loads before the axis-id conversion (which
    `cur_node_input_is_simplest_load` reads too).

    On top of them, each node's integer tables (`tables`: its loop axes, each input and
    output as the axis mapping reads them, interned to small numbers) and, keyed by those
    numbers, the answers of whole steps: a pair's axis unification (`create_axis_map`) and
    input plan (`decider.plan_fused_inputs`). Pairs of nodes with equal tables share one
    answer; a key holds only numbers naming contents, so no entry can go stale. Entries
    hold their op, so no id is reused while the memo lives; a caller without a memo gets
    a fresh one (nothing kept). `keep = False` keeps nothing (every answer afresh)."""

    keep = True

    def __init__(self) -> None:
        self._d: dict[tuple, object] = {}
        self._ids: dict[tuple, int] = {}  # intern's numbers
        self._tables: dict[int, _Tables] = {}  # id(op) -> the op's tables (holding the op)
        self._simplest: dict[tuple, tuple] = {}  # U.is_simplest_load_kept's answers
        # the last successful check-mode create_axis_map: (info, loop_merge, result)
        self.checked: tuple[NodeFuseInfo, bool, AxisUnification] | None = None

    def _get(self, key: tuple, compute):
        if not self.keep:
            return compute()
        d = self._d
        if key not in d:
            d[key] = compute()
        return d[key]

    def kept(self, key: tuple) -> object | None:
        """A whole step's kept answer (None when there is none)."""
        return self._d.get(key)

    def keep_answer(self, key: tuple, value: object) -> None:
        if self.keep:
            self._d[key] = value

    def node_axes(self, op: Operation) -> tuple[list[int], dict[int, int]]:
        return self._get(("axes", op), lambda: node_axes(op))  # type: ignore[return-value]

    def scan(self, graph: ag.AscGraphOp) -> _GraphScan:
        return self._get(("scan", graph), lambda: _GraphScan(graph))  # type: ignore[return-value]

    def partial_axes(self, op: Operation) -> set[int]:
        """`_partial_axes(op)` from the graphs' scans."""
        return self._get(("partial", op), lambda: set().union(*(self.scan(g).partial for g in U.asc_graphs(op))))  # type: ignore[return-value]

    def input_datas(self, op: Operation, j: int) -> list[tuple[Operation, ag.Data]]:
        return self._get(("datas", op, j), lambda: self._input_datas(op, j))  # type: ignore[return-value]

    def _input_datas(self, op: Operation, j: int) -> list[tuple[Operation, ag.Data]]:
        """`U.input_datas(op, j)`; an AscBackend's Data nodes grouped by index once (in
        `data_nodes` order), not listed and sorted again for every input."""
        if not isinstance(op, ge.AscBackend):
            return list[tuple[Operation, ag.Data]](U.input_datas(op, j))
        g = U.asc_graph(op)
        if g is None:
            return []
        return [(op, d) for d in self.scan(g).by_index.get(j, ())]

    def output_store(self, op: Operation, k: int) -> tuple[ge.AscBackend, ag.Store] | None:
        """`U.output_store(op, k)`; an AscBackend's Outputs from its graph's scan."""
        return self._get(("store", op, k), lambda: self._output_store(op, k))  # type: ignore[return-value]

    def _output_store(self, op: Operation, k: int) -> tuple[ge.AscBackend, ag.Store] | None:
        if not isinstance(op, ge.AscBackend):
            return U.output_store(op, k)
        g = U.asc_graph(op)
        o = self.scan(g).outputs.get(k) if g is not None else None
        if o is None:
            return None
        st = o.operands[0].owner
        return (op, st) if isinstance(st, ag.Store) else None

    def loads_of(self, data: ag.Data) -> list[ag.Load]:
        """`U.loads_of(data)` from the scan of the Data's graph."""
        g = data.graph()
        if g is None:
            return U.loads_of(data)
        return self.scan(g).loads.get(data.results[0], [])

    def broadcast_infos(self, backend: Operation, data: ag.Data, conv) -> tuple[bool, list[list]]:
        """`_input_broadcast_infos(backend, U.loads_of(data), conv)`, conv applied to the
        kept unconverted infos."""
        simplest, raw = self._get(
            ("bcast", backend, data),
            lambda: _input_broadcast_infos(
                backend, self.loads_of(data), lambda a: a, self._simplest if self.keep else None
            ),
        )  # type: ignore[misc]
        return simplest, [[conv(a) for a in info] for info in raw]

    def data_by_index(self, graph: ag.AscGraphOp) -> dict[int, ag.Data]:
        """A node's AscGraph's Data nodes by index (CanFuse's input plan reads the shared
        inputs' Data nodes of both graphs for every candidate pair)."""
        return self._get(("data_by_index", graph), lambda: {i: ds[-1] for i, ds in self.scan(graph).by_index.items()})  # type: ignore[return-value]

    def cur_node_input_is_simplest_load(self, op: Operation, j: int) -> bool:
        """`cur_node_input_is_simplest_load(op, j)` over the kept answers."""
        datas = self.input_datas(op, j)
        if not datas:
            return False
        backend, data = _first_input_data(datas)
        return self.broadcast_infos(backend, data, lambda a: a)[0]

    # -- integer tables of what create_axis_map reads (one per node, input and output) ----

    def intern(self, value: tuple) -> int:
        """A small integer naming `value` (a tuple of ints, bools and attributes, which
        compare by content): equal tables get one number, so a pair's key is a few integers. Keyed by content, never reused."""
        ids = self._ids
        if (i := ids.get(value)) is None:
            i = ids[value] = len(ids)
        return i

    def tables(self, op: Operation) -> _Tables:
        """The node's tables; its loop axes and sizes (`node_axes`, in their order), partial
        axes (`_partial_axes`), fuse-type bits and kind (AscBackend / FusedAscBackend) as
        `axes`; inputs, outputs and Data views filled in when first asked."""
        t = self._tables.get(id(op))
        if t is None or t.op is not op:
            ax, sz = self.node_axes(op)
            kind = (U.is_asc_backend(op), U.is_fused_asc_backend(op), U.has_fuse_type(op, "reduce"))
            t = _Tables(op, self.intern((tuple(ax), tuple(sz.items()), tuple(sorted(self.partial_axes(op))), kind)))
            if self.keep:
                self._tables[id(op)] = t
        return t

    def input_table(self, t: _Tables, j: int) -> int:
        """Input j as the vertical and horizontal mappings read it: the number of Data nodes
        behind it; the first one's view and its Loads' offsets and repeats (the link's
        pairing and `slice_box`); the simplest-load answer and broadcast infos of the
        earliest reader's Data (`_first_input_data`)."""
        if (n := t.inputs.get(j)) is not None:
            return n
        datas = self.input_datas(t.op, j)
        if not datas:
            n = self.intern((0,))
        else:
            d0 = datas[0][1]
            v = d0.out_type()
            loads = tuple((ld.offset, ld.out_type().repeat_list) for ld in self.loads_of(d0))
            backend, data = _first_input_data(datas)
            simplest, infos = self.broadcast_infos(backend, data, lambda a: a)
            raw = tuple(tuple(i) for i in infos)
            n = self.intern((len(datas), v.axis_ids, v.repeat_list, v.stride_list, loads, simplest, raw))
        t.inputs[j] = n
        return n

    def output_table(self, t: _Tables, k: int) -> int:
        """Output k as the vertical mapping reads it: the Store's view and offset
        (`U.output_store`). Not `pre_node_input_is_simplest_load` (a walk of node1's graph
        that few pairs need): an answer that read it is not kept (`_create_axis_map`)."""
        if (n := t.outputs.get(k)) is not None:
            return n
        ps = self.output_store(t.op, k)
        if ps is None:
            n = self.intern((None,))
        else:
            st = ps[1].out_type()
            n = self.intern((st.axis_ids, st.repeat_list, st.stride_list, ps[1].offset))
        t.outputs[k] = n
        return n

    def data_view(self, t: _Tables, graph: ag.AscGraphOp, i: int) -> int | None:
        """The view (element type, axis ids, repeats, strides) of the AscGraph's Data of
        index i (`data_by_index`), or None without one: what the input plan compares."""
        if i in t.data_views:
            return t.data_views[i]
        d = self.data_by_index(graph).get(i)
        n = None
        if d is not None:
            v = d.out_type()
            n = self.intern((v.element_type, v.axis_ids, v.repeat_list, v.stride_list))
        t.data_views[i] = n
        return n

    def axis_map_key(self, info: NodeFuseInfo, need_flash: bool, loop_merge: bool) -> tuple:
        """Everything `_compute_axis_map` reads of a pair, as integers: equal keys give
        equal answers (the unification, or the same Reason)."""
        t1, t2 = self.tables(info.n1), self.tables(info.n2)
        i, o = self.input_table, self.output_table
        return (
            need_flash,
            loop_merge,
            info.can_do_horizontal_mapping(),
            info.only_vertical_mapping,
            info.has_mul_reference(),
            t1.axes,
            t2.axes,
            tuple((k, j, o(t1, k), i(t2, j)) for k, j in info.links),
            tuple((i1, i2, i(t1, i1), i(t2, i2)) for i1, i2 in info.same_input_map),
        )


@dataclass
class _AxisMapping:
    """What CreateSubGraphAxisMapInfo's steps share (GE: AscGraphAxisMapping's members): the
    pair, both nodes' loop axes and sizes, and the pairing filter of a loop merge."""

    info: NodeFuseInfo
    need_flash: bool
    loop_merge: bool
    ax1: list[int] = field(init=False)
    sz1: dict[int, int] = field(init=False)
    ax2: list[int] = field(init=False)
    sz2: dict[int, int] = field(init=False)
    maps: _Maps = field(default_factory=_Maps)
    q: NodeQueries = field(default_factory=NodeQueries)  # per-node answers, kept for a solve
    # the mapping asked pre_node_input_is_simplest_load (not in NodeQueries.axis_map_key)
    read_pre_node: bool = False

    def __post_init__(self) -> None:
        q = self.q
        self.ax1, self.sz1 = q.node_axes(self.info.n1)
        self.ax2, self.sz2 = q.node_axes(self.info.n2)
        self._part = (q.partial_axes(self.info.n1), q.partial_axes(self.info.n2)) if self.loop_merge else None

    def ok(self, p: AxisPairing | None) -> AxisPairing | None:
        """`loop_merge`: a pairing is kept only when every paired loop axis has one size
        (`sizes_agree`); otherwise the caller tries the next of GE's steps."""
        if p is None or self._part is None:
            return p
        return p if sizes_agree(p, self.sz1, self.sz2, *self._part) else None


def get_vertical_axis_map_info(am: _AxisMapping, k: int, j: int) -> AxisPairing | Reason:
    """The pairing of one link, node1's output k -> node2's input j, by GE's steps (§6.3
    step 1..4). # asc_graph_axis_mapping.cpp: AscGraphAxisMapping::GetVerticalAxisMapInfo"""
    n1, n2, ax1, sz1, ax2, sz2 = am.info.n1, am.info.n2, am.ax1, am.sz1, am.ax2, am.sz2
    ps = am.q.output_store(n1, k)
    datas = am.q.input_datas(n2, j)
    if ps is None or not datas:
        return unify_subgraph_axis_failed(f"output {k} of node1 or input {j} of node2 has no AscGraph node")
    store = ps[1]
    data = datas[0][1]
    pre = _tensor(store.out_type())
    cur = _tensor(data.out_type())
    p = None
    if am.loop_merge and len(datas) == 1 and (sl := _slice_pairing(store, data, ax1, sz1, ax2, sz2)) is not None:
        # §6.3 step 1 of a slice link: GE's consumer Data keeps node1's whole output (the
        # slice is on its Load), so CreateVerticalMapInfo pairs the store with it axis by
        # axis; here the Data carries the slice, so the pairing is positional
        p, am.maps.slices[(k, j)] = sl
    # §6.3 step 1..4 (asc_graph_axis_mapping.cpp, CreateVerticalMapInfo)
    if p is None:
        p = am.ok(can_axis_map(pre[0], pre[1], cur[0], cur[1]))
    if p is not None and U.has_fuse_type(n1, "reduce"):
        # a reduction also needs its store to map onto the consumer's loop (with the
        # unit-repeat fallback: the reduced axes have repeat 1)
        if can_axis_map(pre[0], pre[1], ax2, [sz2[a] for a in ax2], allow_unit=True) is None:
            return unify_subgraph_axis_failed(
                f"the reduction's store {pre[1]} does not map onto node2's loop {[sz2[a] for a in ax2]}"
            )
    if p is None:
        p = am.ok(can_axis_map(pre[0], pre[1], ax2, [sz2[a] for a in ax2]))
    if p is None:
        store_is_graph = pre[0] == ax1
        data_is_graph = cur[0] == ax2
        if not (store_is_graph and not data_is_graph):
            p = am.ok(_graph_pairing(ax1, sz1, ax2, sz2, allow_unit=True))
    if p is None:
        return unify_subgraph_axis_failed(
            f"node1's output {k} (repeats {pre[1]}) cannot map onto node2's input {j} (repeats {cur[1]})"
        )
    return p


def process_sub_graph_vertical_map_info(am: _AxisMapping) -> Reason | None:
    """Every link's pairing (one pairing for all links), then GE's per-link loop-merge
    checks (§6.3). # asc_graph_axis_mapping.cpp: AscGraphAxisMapping::ProcessSubGraphVerticalMapInfo"""
    info, m = am.info, am.maps
    n1, n2 = info.n1, info.n2
    reduction1 = U.has_fuse_type(n1, "reduce")
    for k, j in info.links:
        p = get_vertical_axis_map_info(am, k, j)
        if isinstance(p, Reason):
            return p
        pairs = _pairs_of(p)
        if m.pairs is None:
            m.pairs, m.base = pairs, p.base
        elif not _is_same_map_axis(m.pairs, pairs):
            return unify_subgraph_axis_failed(f"the link {k}->{j} maps the axes differently from the first link")
        # §6.3 per-link loop-merge checks: CurNodeInputIsSimplestLoad, CanLoopMerge
        cur_view = not am.q.cur_node_input_is_simplest_load(n2, j)
        can_merge = _loop_merge(am.ax1, am.ax2, m.pairs)
        # asc_graph_axis_mapping.cpp ProcessSubGraphVerticalMapInfo: a view link needs
        # !fuse_info.HasMulReference(), a property of the pair: every linked output of
        # node1 single-referenced, not only this link's
        single = not info.has_mul_reference()
        if reduction1 and not can_merge:
            return unify_subgraph_axis_failed("a reduction's loop axes must merge with its consumer's")
        if not can_merge:
            # asc_graph_axis_mapping.cpp ProcessSubGraphVerticalMapInfo: PreNodeInputIsSimplestLoad
            pre_simplest = pre_node_input_is_simplest_load(n1, k)
            am.read_pre_node = True
            both_asc = U.is_asc_backend(n1) and U.is_asc_backend(n2)
            if not ((pre_simplest and not cur_view) or (pre_simplest and cur_view and single and both_asc)):
                return unify_subgraph_axis_failed(
                    "the loop axes differ and the link is neither a plain transpose nor a single-reference view"
                )
        elif cur_view and not single:
            return unify_subgraph_axis_failed(
                f"node2 reads output {k} through a view, but an output of node1 it reads is multi-referenced"
            )
        elif cur_view and U.is_fused_asc_backend(n2) and len(U.input_datas(n2, j)) > 1:
            return unify_subgraph_axis_failed(f"input {j} of the FusedAscBackend feeds several nodes through a view")
    return None


def process_sub_graph_horizontal_map_info(am: _AxisMapping) -> Reason | None:
    """The loops' pairing for every shared input, with the broadcast-view and loop-merge
    checks (§6.4). # asc_graph_axis_mapping.cpp: AscGraphAxisMapping::ProcessSubGraphHorizontalMapInfo"""
    info, m = am.info, am.maps
    n1, n2, ax1, sz1, ax2, sz2 = info.n1, info.n2, am.ax1, am.sz1, am.ax2, am.sz2
    for i1, i2 in info.same_input_map:
        d1, d2 = am.q.input_datas(n1, i1), am.q.input_datas(n2, i2)
        if not d1 or not d2:
            return unify_subgraph_axis_failed(f"shared input {i1}/{i2} has no Data node")
        gp = am.ok(_graph_pairing(ax1, sz1, ax2, sz2, allow_unit=am.need_flash))
        if gp is None:
            return unify_subgraph_axis_failed(
                f"the loops {[sz1[a] for a in ax1]} and {[sz2[a] for a in ax2]} cannot be mapped"
            )
        pairs = _pairs_of(gp)
        # backend_utils.cpp CurNodeInputIsSimplestLoad on both sides, then
        # IsSameBroadCastInfo when neither side reads the input only simply
        (b1, e1), (b2, e2) = _first_input_data(d1), _first_input_data(d2)
        simplest1, infos1 = am.q.broadcast_infos(b1, e1, lambda a: a)
        simplest2, infos2 = am.q.broadcast_infos(b2, e2, lambda b, pairs=pairs: pairs.get(b, f"n2:{b}"))
        if not simplest1 and not simplest2 and not is_same_broadcast_info(infos1, infos2):
            return unify_subgraph_axis_failed(f"shared input {i1}/{i2} is read through two different broadcast views")
        if not pairs or not _loop_merge(ax1, ax2, pairs):
            return unify_subgraph_axis_failed(
                "the loop axes of the two nodes are neither equal nor an ordered subsequence"
            )
        if m.pairs is None:
            m.pairs, m.base = pairs, gp.base
    return None


def create_axis_map(
    info: NodeFuseInfo, need_flash: bool, loop_merge: bool = False, memo: NodeQueries | None = None
) -> AxisUnification | Reason:
    """# asc_graph_axis_mapping.cpp: AscGraphAxisMapping::CreateSubGraphAxisMapInfo, then
    FlashContinueAxisId/FlushSubGraphAxisInfo (check only when `need_flash` is False). A
    Reason (UnifySubgraphAxisFailed) says why the axes cannot be unified.

    `loop_merge` (the pair will become one loop nest): a pairing is kept only when
    every paired loop axis has one size (see `sizes_agree`); otherwise the next of
    GE's steps is tried. `memo` keeps the per-node answers across the pairs of a solve
    (`NodeQueries`)."""
    if memo is not None and need_flash and (c := memo.checked) is not None and c[0] is info and c[1] == loop_merge:
        # The check mode's unification of this pair succeeded: Fuse's is the same. need_flash
        # only lets FindAxisIndex fall back to a unit repeat where no equal repeat is left,
        # and a check that succeeded found an equal repeat for every axis (so the fallback
        # never runs); every other step is the same. CanFuse asks both in a row
        # (AscBackendFusionDecider._plan_fused_inputs).
        return c[2]
    u = _create_axis_map(info, need_flash, loop_merge, memo)
    if memo is not None:
        memo.checked = (info, loop_merge, u) if not need_flash and isinstance(u, AxisUnification) else None
    return u


def _create_axis_map(
    info: NodeFuseInfo, need_flash: bool, loop_merge: bool, memo: NodeQueries | None
) -> AxisUnification | Reason:
    if memo is None:
        return _compute_axis_map(_AxisMapping(info, need_flash, loop_merge))
    # Pairs whose nodes have equal tables (NodeQueries.axis_map_key) share one answer: the
    # candidate pairs of one shared input are mostly alike. The answer is never changed
    # after it is made (its users read it).
    key = ("axis_map", memo.axis_map_key(info, need_flash, loop_merge))
    if (hit := memo.kept(key)) is not None:
        return hit  # type: ignore[return-value]
    am = _AxisMapping(info, need_flash, loop_merge, q=memo)
    u = _compute_axis_map(am)
    if not am.read_pre_node:  # an answer that read what the key lacks is not kept
        if isinstance(u, AxisUnification):
            u.key = key  # names the answer for the input plan's memo (decider.plan_fused_inputs)
        memo.keep_answer(key, u)
    return u


def _compute_axis_map(am: _AxisMapping) -> AxisUnification | Reason:
    info = am.info
    m = am.maps
    if (why := process_sub_graph_vertical_map_info(am)) is not None:
        return why
    # asc_graph_axis_mapping.cpp CreateSubGraphAxisMapInfo: no horizontal mapping when a
    # strategy says OnlyVerticalMapping; FusionStrategyRegistry::Get always adds the default
    # FusionStrategy, whose OnlyVerticalMapping holds for every pair with a link and a
    # shared input, so a pair with a link (m.pairs set) never maps horizontally
    if m.pairs is None and info.can_do_horizontal_mapping() and not info.only_vertical_mapping and info.same_input_map:
        if (why := process_sub_graph_horizontal_map_info(am)) is not None:
            return why
    u = _flash(am.ax1, am.sz1, am.ax2, am.sz2, m)
    if isinstance(u, AxisUnification) and m.slices:
        # the merged loop runs on the extents node2 reads (ProcessViewOps hands node2's
        # Load view to node1's Loads)
        u.slices = m.slices
        for box in m.slices.values():
            for a, (_, extent) in box.items():
                u.sizes[u.map1[a]] = extent
    return u


def slice_box(store: ag.Store, data: ag.Data) -> list[tuple[int, int]] | None:
    """Per axis of node1's Store, the (start, extent) of the sub-box node2's Data reads,
    or None when the Data is not a slice of the stored tensor.

    backend_utils.cpp SliceCalcOffsetAndStridePerAxisCurNode: the consumer Load's stride
    per axis is floor(load stride / output stride) (here: 1, a unit element step inside
    the box) and its offset is split per axis by the output strides, outer axis first.
    The slice keeps the axis order and the rank, every Load of the Data reads the same
    view (DeleteInvalidLoad: several Loads mean merged ones, with one view) without a
    broadcast, and the box lies inside the stored tensor. An unchanged view is no slice."""
    st, dt = store.out_type(), data.out_type()
    if store.offset != 0 or len(st.axis_ids) != len(dt.axis_ids):
        return None
    if st.stride_list != ag.contiguous_strides(st.repeat_list):
        return None
    loads = U.loads_of(data)
    if not loads or any(ld.offset != loads[0].offset or ld.out_type().repeat_list != dt.repeat_list for ld in loads):
        return None
    rem = loads[0].offset
    box: list[tuple[int, int]] = []
    for big, s_big, r, s in zip(st.repeat_list, st.stride_list, dt.repeat_list, dt.stride_list):
        if r > big or (r > 1 and s != s_big):
            return None
        start = 0 if big == 1 else rem // s_big
        rem -= start * s_big
        if start + r > big:
            return None
        box.append((start, r))
    if rem != 0 or all(o == 0 and r == big for (o, r), big in zip(box, st.repeat_list)):
        return None
    return box


def _slice_pairing(
    store: ag.Store, data: ag.Data, ax1: list[int], sz1: dict[int, int], ax2: list[int], sz2: dict[int, int]
) -> tuple[AxisPairing, dict[int, tuple[int, int]]] | None:
    """The positional pairing of a slice link and its box on node1's axes (the axes
    node2 reads partly): node1's Store covers node1's loop on each sliced axis and node2's
    loop runs exactly the slice's extent there."""
    box = slice_box(store, data)
    if box is None:
        return None
    st, dt = store.out_type(), data.out_type()
    part: dict[int, tuple[int, int]] = {}
    for a, b, big, (start, r) in zip(st.axis_ids, dt.axis_ids, st.repeat_list, box):
        if start == 0 and r == big:
            continue
        if sz1.get(a) != big or sz2.get(b) != r:
            return None
        part[a] = (start, r)
    pairs = tuple(zip(st.axis_ids, dt.axis_ids))
    return AxisPairing(1 if len(ax1) >= len(ax2) else 2, pairs), part


def sliced_view(t: ag.AscTensorType, box: dict[int, tuple[int, int]]) -> tuple[ag.AscTensorType, int]:
    """A node1 Data view restricted to the slice box, and the offset its Loads gain
    (backend_utils.cpp ApplyViewOpFinalInfoSlice: offset += start x the Load's stride
    along each axis; the extents become the slice's). A broadcast axis (repeat 1) keeps
    reading its one element."""
    reps, strides = list(t.repeat_list), list(t.stride_list)
    delta = 0
    for i, a in enumerate(t.axis_ids):
        if a in box and reps[i] > 1:
            start, r = box[a]
            delta += start * strides[i]
            reps[i] = r
            if r == 1:
                strides[i] = 0
    return ag.AscTensorType(t.element_type, t.axis_ids, reps, strides), delta


def slice_back_step_refusal(info: NodeFuseInfo) -> Reason | None:
    """Why node1 cannot run on the slice node2 reads, or None
    (asc_backend_fusion_decider.cpp DeleteInvalidLoad / backend_utils.cpp ProcessViewOps)."""
    n1 = info.n1
    # DeleteInvalidLoad: a cube node1 keeps the view (!IsCubeAscNode(node1))
    if U.has_fuse_type(n1, "cube"):
        return can_not_merge_asc_graph(
            "node2 reads a slice of a cube node's output, which DeleteInvalidLoad does not back-step"
        )
    nodes = list(U.asc_nodes(n1))
    # DeleteInvalidLoad: is_reduction (the node1 subgraph reduces): no ProcessViewOps
    if U.has_fuse_type(n1, "reduce") or any(isinstance(n, ag.Reduction) for n in nodes):
        return can_not_merge_asc_graph(
            "node2 reads a slice of a reduction's output, which DeleteInvalidLoad does not back-step onto the reduction's Loads"
        )
    # ProcessViewOps: IsLoadConnectedToSplit -- a Load feeding a Split keeps its view
    for n in nodes:
        if isinstance(n, ag.Split):
            return can_not_merge_asc_graph(
                "node2 reads a slice of node1's output and node1 splits a Load (IsLoadConnectedToSplit: not back-stepped)"
            )
    # Ours: the whole of node1 runs on the slice, so nothing else may need its full loop
    # and every node must follow the loop index (a concat/gather moves elements along an axis)
    if len(info.links) != 1 or info.node1_outputs:
        return can_not_merge_asc_graph(
            "node2 reads a slice of node1's output, but node1 has other outputs that need its whole loop"
        )
    for n in nodes:
        if isinstance(n, ag.Concat | ag.Gather | ag.Workspace):
            return can_not_merge_asc_graph(
                f"node2 reads a slice of node1's output, which node1 computes with a {n.asc_type} (not back-stepped)"
            )
    return None


def sizes_agree(p: AxisPairing, sz1: dict[int, int], sz2: dict[int, int], part1: set[int], part2: set[int]) -> bool:
    """Not GE's (GE compares symbolic repeats, and a tensor's repeat-1 axes match any
    axis): two loop axes can be one loop of a merged nest only when their sizes are
    equal, or one is 1 (that side is constant along it: reduced or broadcast), or one
    side covers the axis partly (a concat/split axis). Pairing a 96-loop with an 8-loop
    because both tensors have repeat 1 there would run one side's nodes over the wrong
    extent."""
    for a, b in p.a_to_b:
        s1, s2 = sz1.get(a), sz2.get(b)
        if s1 is None or s2 is None or s1 == s2 or 1 in (s1, s2) or a in part1 or b in part2:
            continue
        return False
    return True


def _view(t: ag.AscTensorType, m: dict[int, int]) -> dict[int, tuple[int, int]]:
    """Per merged axis id, the (repeat, stride) of a view; repeat-1 axes are dropped
    (they address nothing)."""
    return {m[a]: (r, s) for a, r, s in zip(t.axis_ids, t.repeat_list, t.stride_list) if r != 1}


def link_views_disagree(info: NodeFuseInfo, u: AxisUnification, memo: NodeQueries | None = None) -> Reason | None:
    """Why a loop merge cannot read node1's on-chip value where node2 loaded node1's
    output, or None. Not GE's check (GE's DeleteInvalidLoad moves the view up to
    node1's Loads; this port turns a broadcast or axis permutation into an explicit
    Broadcast/Transpose on the value, see passes/autofuse/decider.py): at every loop
    index, node2's Load must read the element node1's Store wrote there, i.e. the
    Store's and the Data's views have the same offset and the same (repeat, stride) on
    every merged axis. A reshape that regroups axes fails this. A slice link
    (`u.slices`, paired by `slice_box`) passes when DeleteInvalidLoad would back-step the
    slice onto node1's Loads (`slice_back_step_refusal`). `memo`: the decider's NodeQueries."""
    for k, j in info.links:
        if (k, j) in u.slices:
            # DeleteInvalidLoad -> ProcessViewOps moves the slice up to node1's Loads
            if (why := slice_back_step_refusal(info)) is not None:
                return why
            continue
        ps = U.output_store(info.n1, k) if memo is None else memo.output_store(info.n1, k)
        if ps is None:
            return can_not_merge_asc_graph(f"output {k} of node1 has no Store")
        store = ps[1]
        want = _view(store.out_type(), u.map1)
        for _, d in U.input_datas(info.n2, j) if memo is None else memo.input_datas(info.n2, j):
            if _view(d.out_type(), u.map2) != want:
                return can_not_merge_asc_graph(
                    f"node2 input {j} reads node1's output {k} through a view ({list(d.out_type().repeat_list)}) "
                    f"that is not the layout node1 stores ({list(store.out_type().repeat_list)}): a slice or a regrouping reshape"
                )
            for ld in U.loads_of(d) if memo is None else memo.loads_of(d):
                if ld.offset != store.offset:
                    return can_not_merge_asc_graph(
                        f"node2 input {j} reads node1's output {k} at offset {ld.offset}, node1 stores it at {store.offset}"
                    )
    return None


def _input_broadcast_infos(
    backend: Operation, loads: list[ag.Load], conv, memo: dict[tuple, tuple] | None = None
) -> tuple[bool, list[list]]:
    """backend_utils.cpp CurNodeInputIsSimplestLoad: IsSimplestLoad on each Load of one
    Data of the AscBackend `backend`, collecting the broadcast info IsSimplestLoad appends
    (ids converted by `conv`), up to the first Load that is not a simplest load. Returns
    (every Load simplest, the collected infos). `memo`: the per-Load answers kept across
    calls (U.is_simplest_load_kept)."""
    if U.has_fuse_type(backend, "concat"):
        return True, []  # IsSimplestLoad: HasFuseType(kConcat) -> every Load simplest, no info
    infos: list[list] = []
    g = loads[0].graph() if loads else None
    sizes = g.axis_sizes() if g is not None else {}  # (the Loads' one graph's, read once)
    for ld in loads:
        if memo is not None and g is not None:
            simplest, info = U.is_simplest_load_kept(backend, ld, sizes, g.axis, memo)
        else:
            simplest, info = U.is_simplest_load(backend, ld, sizes=sizes)
        if info is not None:
            infos.append([conv(a) for a in info])
        if not simplest:
            return False, infos
    return True, infos


def cur_node_input_is_simplest_load(op: Operation, j: int) -> bool:
    """backend_utils.cpp BackendUtils::CurNodeInputIsSimplestLoad: every Load of input j's
    Data is a simplest load (a FusedAscBackend: of the inner AscBackend that first reads
    it, GetFusedAscBackendInputNode)."""
    datas = U.input_datas(op, j)
    if not datas:
        return False
    backend, data = _first_input_data(datas)
    return _input_broadcast_infos(backend, U.loads_of(data), lambda a: a)[0]


def _first_input_data(datas: Sequence[tuple[Operation, ag.Data]]) -> tuple[Operation, ag.Data]:
    """backend_utils.cpp GetFusedAscBackendInputNode: a FusedAscBackend input's first
    peer, the earliest inner reader in graph order (one entry for an AscBackend)."""
    return min(datas, key=lambda bd: _block_index(bd[0])) if len(datas) > 1 else datas[0]


def _block_index(op: Operation) -> int:
    """op's position in its block (0 for an op outside a block)."""
    i, n = 0, op.prev_op
    while n is not None:
        i, n = i + 1, n.prev_op
    return i


def pre_node_input_is_simplest_load(n1: Operation, k: int) -> bool:
    """backend_utils.cpp BackendUtils::PreNodeInputIsSimplestLoad / AscNodeInputIsSimplestLoad:
    the Loads FindPrefaceLoadNodes reaches walking back from the Store of node1's output k
    (through a FusedAscBackend to the AscBackend writing it) are all simplest loads."""
    ps = U.output_store(n1, k)
    if ps is None:
        return False
    backend, store = ps
    loads: list[ag.Load] = []
    seen: set[int] = set()
    stack = [store.operands[0].owner]
    while stack:  # FindPrefaceLoadNodes: stop at a Load/Gather, else walk the inputs
        n = stack.pop()
        if not isinstance(n, Operation) or id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, ag.Load | ag.Gather):
            if isinstance(n, ag.Load):
                loads.append(n)
            continue
        stack.extend(v.owner for v in n.operands)
    return all(U.is_simplest_load(backend, ld)[0] for ld in loads)


def is_same_broadcast_info(infos1: list[list], infos2: list[list]) -> bool:
    """backend_utils.cpp BackendUtils::IsSameBroadCastInfo: both lists empty is the same;
    one empty is not; otherwise every info within each list must be the same
    (IsSameAttrInfoInVector, axis ids compared sorted) and the two lists' first infos equal."""
    if not infos1 and not infos2:
        return True
    if not infos1 or not infos2:
        return False
    s1 = [sorted(i, key=str) for i in infos1]
    s2 = [sorted(i, key=str) for i in infos2]
    if any(i != s1[0] for i in s1) or any(i != s2[0] for i in s2):
        return False
    return s1[0] == s2[0]


def _flash(
    ax1: list[int], sz1: dict[int, int], ax2: list[int], sz2: dict[int, int], m: _Maps
) -> AxisUnification | Reason:
    """FlashContinueAxisId + FlushSubGraphAxisInfo's check: every axis of both graphs has a
    mapping, and the targets are renumbered 0..k-1 in the base side's axis order."""
    pairs = m.pairs or {}
    if m.pairs is None:
        if ax1 == ax2 and sz1 == sz2:
            pairs = {a: a for a in ax2}
        else:
            return unify_subgraph_axis_failed("no link or shared input maps the two loops")
    if m.base == 1:
        if missing := [b for b in ax2 if b not in pairs]:
            return unify_subgraph_axis_failed(f"node2's loop axes {missing} have no mapping")
        order = list(ax1)
        key2 = {b: pairs[b] for b in ax2}
        key1 = {a: a for a in ax1}
    else:
        inv = {a: b for b, a in pairs.items()}
        if missing := [a for a in ax1 if a not in inv]:
            return unify_subgraph_axis_failed(f"node1's loop axes {missing} have no mapping")
        order = list(ax2)
        key1 = {a: inv[a] for a in ax1}
        key2 = {b: b for b in ax2}
    new = {k: i for i, k in enumerate(order)}
    map1 = {a: new[key1[a]] for a in ax1}
    map2 = {b: new[key2[b]] for b in ax2}
    sizes: dict[int, int] = {}
    for a, s in sz1.items():
        sizes[map1[a]] = max(sizes.get(map1[a], 1), s)
    for b, s in sz2.items():
        sizes[map2[b]] = max(sizes.get(map2[b], 1), s)
    return AxisUnification(map1, map2, sizes)
