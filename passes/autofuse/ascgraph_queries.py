"""AscGraph queries shared by the autofuse strategies, axis mapping and decider.

GE keeps these in `can_fuse/backend/backend_utils.cpp` (BackendUtils): which fuse types a
node carries, how many compute nodes its AscGraph holds, whether a Load is a "simplest
load" (`is_simplest_load`: GE's IsSimplestLoad, with its concat and Broadcast-reader
rules and FusedBackSteppingViewOp's broadcast info), and where an AscBackend port leads inside
a FusedAscBackend. They are plain functions of the IR (docs/ge/autofuse.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, ShapedType, StringAttr
from xdsl.ir import Attribute, Operation, OpResult

from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_dialect.asc_backend import FUSE_TYPE_ATTR, FUSE_TYPE_MASK_ATTR

# GE AutoFuseAttrs::fusion_nodes_size_ is summed on fusion and never recounted after
# load/store elimination (fusion_strategy_solver.cpp, FusingNode). The ge.AscBackend
# verifier requires `fusion_nodes_size` to be the real node count, so GE's summed figure,
# which the size cap reads, is carried in this separate attribute (absent = node count).
CANFUSE_NODES_SIZE_ATTR = "canfuse_nodes_size"
# GE AutoFuseAttrs::reduce_fused_elementwise_node_num.
REDUCE_FUSED_ELEMENTWISE_ATTR = "reduce_fused_elementwise_node_num"
# GE AutoFuseAttrs::vector_core_num (the user core-number scope).
VECTOR_CORE_NUM_ATTR = "vector_core_num"


def is_asc_backend(op: Operation) -> bool:
    return isinstance(op, ge.AscBackend)


def is_fused_asc_backend(op: Operation) -> bool:
    return isinstance(op, ge.FusedAscBackend)


def asc_graph(op: Operation) -> ag.AscGraphOp | None:
    """The AscGraph of an AscBackend (None for anything else or a malformed region)."""
    if not isinstance(op, ge.AscBackend):
        return None
    if not op.regions or not op.regions[0].blocks:
        return None
    first = op.regions[0].block.first_op
    return first if isinstance(first, ag.AscGraphOp) and first.next_op is None else None


def inner_backends(op: Operation) -> list[ge.AscBackend]:
    """The AscBackends of a node: itself, or those in a FusedAscBackend's graph."""
    if isinstance(op, ge.AscBackend):
        return [op]
    if isinstance(op, ge.FusedAscBackend):
        return [o for o in op.body.block.ops if isinstance(o, ge.AscBackend)]
    return []


def asc_graphs(op: Operation) -> list[ag.AscGraphOp]:
    return [g for b in inner_backends(op) if (g := asc_graph(b)) is not None]


def asc_nodes(op: Operation) -> Iterator[ag.AscNode]:
    for g in asc_graphs(op):
        yield from g.nodes()


# -- fuse types (autofuse_attrs.h: HasFuseType, GetAllFuseType) ------------------------------


# ag.fuse_type_bit of each fuse type, looked up (the solver asks about 200,000 times on a
# 1,000-node graph: a tuple search each was a fifth of the fuse-type queries' time)
_BIT: dict[str, int] = {t: ag.fuse_type_bit(t) for t in ag.FUSE_TYPES}
_DEFAULT_BIT = _BIT["default"]


def primary_fuse_type(op: Operation) -> str:
    a = op.attributes.get(FUSE_TYPE_ATTR)
    return a.data if isinstance(a, StringAttr) and a.data in _BIT else "default"


def all_fuse_types(op: Operation) -> int:
    """GetAllFuseType: the primary type's bit OR the inner `fuse_type` bitmask."""
    attrs = op.attributes
    a = attrs.get(FUSE_TYPE_MASK_ATTR)
    mask = a.value.data if isinstance(a, IntegerAttr) else 0
    t = attrs.get(FUSE_TYPE_ATTR)
    return mask | (_BIT.get(t.data, _DEFAULT_BIT) if isinstance(t, StringAttr) else _DEFAULT_BIT)


def has_fuse_type(op: Operation, t: str) -> bool:
    """HasFuseType(t): the primary type is t or the mask holds t's bit."""
    return bool(all_fuse_types(op) & _BIT[t])


_POINTWISE_MASK = ag.fuse_type_bit("pointwise") | ag.fuse_type_bit("reshape")


def is_only_pointwise(op: Operation) -> bool:
    """BackendUtils::IsOnlyPointwise: the fuse-type mask is within {Pointwise, Reshape}."""
    return all_fuse_types(op) & ~_POINTWISE_MASK == 0


def is_only_type(op: Operation, t: str) -> bool:
    return all_fuse_types(op) == _BIT[t]


def int_attr(op: Operation, name: str, default: int) -> int:
    a = op.attributes.get(name)
    return a.value.data if isinstance(a, IntegerAttr) else default


# -- node counts ---------------------------------------------------------------------------------


def node_count(op: Operation) -> int:
    """Real AscIR node count over all AscGraphs of the node."""
    return sum(ag.node_count(g) for g in asc_graphs(op))


def canfuse_nodes_size(op: Operation) -> int:
    """GE's fusion_nodes_size_ (the size cap's operand): the carried sum, else the count;
    1 for a node without an AscGraph (FusingNode)."""
    if not inner_backends(op):
        return 1
    a = op.attributes.get(CANFUSE_NODES_SIZE_ATTR)  # the count (a walk of every graph) only when absent
    return a.value.data if isinstance(a, IntegerAttr) else node_count(op)


_NON_COMPUTE = (ag.Data, ag.Load, ag.Store, ag.Output)


def compute_node_num(op: Operation) -> int:
    """BackendUtils::GetComputeNodeNumInAscgraph: nodes other than Data/Load/Store/Output."""
    return sum(1 for n in asc_nodes(op) if not isinstance(n, _NON_COMPUTE))


def loop_axis_count(op: Operation) -> int:
    """The number of loop axes (HintGraph: the graph's axis list; the largest inner one)."""
    return max((len(g.axis.data) for g in asc_graphs(op)), default=0)


# -- views of a Load (BackendUtils::IsSimplestLoad and the view queries) ----------------------


@dataclass(frozen=True)
class LoadView:
    broadcast: bool  # a Data repeat of 1 under a Load repeat > 1
    slice: bool  # a non-zero offset, or strides that skip elements / a partial extent
    transpose: bool  # strides permuted: the view's memory order is not its axis order

    @property
    def simplest(self) -> bool:
        return not (self.broadcast or self.slice or self.transpose)


def load_view(load: ag.Load) -> LoadView:
    """How a Load reads its Data: GE folds broadcast, slice and permute into the Load view
    (docs/ge/autofuse.md); a simplest load reads the whole tensor in order."""
    d, out = load.in_type(), load.out_type()
    broadcast = any(ri == 1 and ro > 1 for ri, ro in zip(d.repeat_list, out.repeat_list))
    live = [(r, s) for r, s in zip(d.repeat_list, d.stride_list) if r > 1]
    order = sorted(live, key=lambda rs: -rs[1])
    transpose = order != live  # load_transposed
    acc, dense = 1, True
    for r, s in reversed(order):
        dense &= s == acc
        acc *= r
    n = _operand_numel(load)
    # a part of a larger tensor: an offset, skipped elements, or a dense prefix
    slice_ = load.offset != 0 or not dense or (n is not None and acc < n)
    return LoadView(broadcast, slice_, transpose)


def load_transposed(load: ag.Load) -> bool:
    """`load_view(load).transpose` alone (without the slice test's operand size)."""
    d = load.in_type()
    live = [(r, s) for r, s in zip(d.repeat_list, d.stride_list) if r > 1]
    return sorted(live, key=lambda rs: -rs[1]) != live


def load_broadcast_info(load: ag.Load, sizes: dict[int, int] | None = None) -> list[int]:
    """The axis ids along which a Load broadcasts (GE's ViewOpAttrInfo::broadcast_info).

    backend_utils.cpp FusedBackSteppingViewOpBroadcast: a Load repeat of 1 on an axis
    whose loop size in the Load's AscGraph is not 1 (GE's fused form: UpdateBroadcastInfoToLoad
    folds a Broadcast into its Load as repeat 1). This IR also folds a broadcast into the
    Load view as a Data repeat of 1 under a Load repeat > 1 (BackSteppingViewOpBroadcast's
    rule), which counts too. Ids in the Load's axis order, each once. `sizes`: the Load's
    graph's axis sizes, when the caller has them."""
    d, out = load.in_type(), load.out_type()
    if sizes is None:
        g = load.graph()
        sizes = g.axis_sizes() if g is not None else {}
    info: list[int] = []
    d_reps = d.repeat_list  # (read once: each read builds the tuple)
    for i, (a, ro) in enumerate(zip(out.axis_ids, out.repeat_list)):
        folded = i < len(d_reps) and d_reps[i] == 1 and ro > 1
        if (ro == 1 and sizes.get(a, 1) != 1) or folded:
            if a not in info:
                info.append(a)
    return info


def view_op_next_broadcast(load: ag.Load) -> bool:
    """backend_utils.cpp BackendUtils::GetViewOpNextNodeByLoad: from the Load, follow each
    Load/Gather/Broadcast node's first reader (GE's first peer anchor: the earliest reader
    in graph order); true when that chain reaches a Broadcast."""
    cur: Operation = load
    while isinstance(cur, ag.Load | ag.Gather | ag.Broadcast):
        if isinstance(cur, ag.Broadcast):
            return True
        nxt = _first_reader(cur)
        if nxt is None:
            return False
        cur = nxt
    return False


def _first_reader(op: Operation) -> Operation | None:
    """The earliest node in graph order that reads op's first result."""
    readers = {id(u.operation) for u in op.results[0].uses}
    n = op.next_op
    while readers and n is not None:
        if id(n) in readers:
            return n
        n = n.next_op
    return None


def is_simplest_load(
    backend: Operation, load: ag.Load, condition_with_node_type: bool = True, sizes: dict[int, int] | None = None
) -> tuple[bool, list[int] | None]:
    """backend_utils.cpp BackendUtils::IsSimplestLoad for a Load of the AscBackend
    `backend`: (simplest, broadcast info GE appends to attr_infos, or None when it appends
    none). A concat-typed node reads every input simply; a Load whose first-reader chain
    reaches a Broadcast is a view without info (with `condition_with_node_type`); otherwise
    the Load's back-stepped view (broadcast per `load_broadcast_info`, slice, transpose)
    decides. `sizes`: the Load's graph's axis sizes, when the caller has them."""
    # backend_utils.cpp IsSimplestLoad: HasFuseType(kConcat) -> simplest, no info
    if has_fuse_type(backend, "concat"):
        return True, None
    # backend_utils.cpp IsSimplestLoad: GetViewOpNextNodeByLoad finds a Broadcast -> view, no info
    if condition_with_node_type and view_op_next_broadcast(load):
        return False, None
    # backend_utils.cpp IsSimplestLoad: FusedBackSteppingViewOp's broadcast/slice/transpose info
    info = load_broadcast_info(load, sizes)
    return not (info or _transposed_or_slice(load)), info


def is_simplest_load_kept(
    backend: Operation, load: ag.Load, sizes: dict[int, int], axis: Attribute, memo: dict[tuple, tuple]
) -> tuple[bool, list[int] | None]:
    """`is_simplest_load(backend, load, sizes=sizes)` for a backend without the concat fuse
    type, `sizes` being the axis sizes of the Load's graph's `axis` table. When the Load's
    first reader is no Load, Gather or Broadcast (GetViewOpNextNodeByLoad stops there: no
    view), the answer is a function of the Load's input and output type objects, its offset
    and the sizes, and is kept in `memo` under their identities (the entry holds them, so no
    id is reused while it lives). A fused node's graph keeps the Loads of the nodes it took,
    with their types: CanFuse's first look at each fused node asks again of every one."""
    nxt = _first_reader(load)
    if nxt is not None and isinstance(nxt, ag.Load | ag.Gather | ag.Broadcast):
        return is_simplest_load(backend, load, sizes=sizes)
    d, out = load.in_type(), load.out_type()
    key = (id(d), id(out), load.offset, id(axis))
    hit = memo.get(key)
    if hit is None:
        info = load_broadcast_info(load, sizes)
        hit = memo[key] = (not (info or _transposed_or_slice(load)), info, (d, out, axis))
    return hit[0], hit[1]


def _transposed_or_slice(load: ag.Load) -> bool:
    """`load_transposed(load) or _is_slice(load)`, the Data view read once."""
    d = load.in_type()
    live = [(r, s) for r, s in zip(d.repeat_list, d.stride_list) if r > 1]
    if sorted(live, key=lambda rs: -rs[1]) != live:
        return True
    acc = 1
    for r, s in reversed(live):
        if s != acc:
            return True
        acc *= r
    return load.offset != 0


def _is_slice(load: ag.Load) -> bool:
    """backend_utils.cpp IsSlice (is_fuse): the view's strides are not the contiguous
    strides of its repeats, or the Load has a non-zero offset (IsOffsetZero). A dense
    prefix of a larger tensor read from offset 0 is no slice here (LoadView.slice counts it)."""
    d = load.in_type()
    acc = 1
    for r, s in reversed([(r, s) for r, s in zip(d.repeat_list, d.stride_list) if r > 1]):
        if s != acc:
            return True
        acc *= r
    return load.offset != 0


def node_all_inputs_simplest_load(op: Operation) -> bool:
    """backend_utils.cpp BackendUtils::IsNodeAllInputsAreSimplestLoad: every reader of every
    Data of an AscBackend is a simplest load; a FusedAscBackend asks the inner AscBackend
    that first reads each of its inputs (GetFusedAscBackendInputNode)."""
    if isinstance(op, ge.AscBackend):
        g = asc_graph(op)
        if g is None:
            return False
        for d in g.data_nodes():
            for u in d.results[0].uses:
                r = u.operation
                if isinstance(r, ag.Load) and not is_simplest_load(op, r)[0]:
                    return False
        return True
    if isinstance(op, ge.FusedAscBackend):
        for d in op.body.block.ops:
            if isinstance(d, ge.Data):
                inner = _first_reader(d)
                if isinstance(inner, ge.AscBackend) and not node_all_inputs_simplest_load(inner):
                    return False
        return True
    return False


def _operand_numel(load: ag.Load) -> int | None:
    """Elements of the AscBackend operand behind the Load's Data."""
    data = load.operands[0].owner
    g = load.graph()
    if not isinstance(data, ag.Data) or g is None:
        return None
    backend = g.parent_op()
    if not isinstance(backend, ge.AscBackend) or data.index >= len(backend.operands):
        return None
    t = backend.operands[data.index].type
    shape = t.get_shape() if isinstance(t, ShapedType) else None
    if shape is None or any(s < 0 for s in shape):
        return None
    n = 1
    for s in shape:
        n *= s
    return n


def loads_of(data: ag.AscNode) -> list[ag.Load]:
    """The Loads of a Data in graph order (GE walks the Data's peer anchors in edge order;
    xDSL lists uses newest first)."""
    v = data.results[0]
    block = data.parent_block()
    if block is None:
        return [u.operation for u in v.uses if isinstance(u.operation, ag.Load)]
    return [op for op in block.ops if isinstance(op, ag.Load) and op.operands[0] is v]


def graph_loads(op: Operation) -> list[ag.Load]:
    return [n for n in asc_nodes(op) if isinstance(n, ag.Load)]


def has_broadcast(op: Operation) -> bool:
    """An explicit Broadcast node or a broadcasting Load (GE: HasBroadcast / view info)."""
    return any(
        isinstance(n, ag.Broadcast) or (isinstance(n, ag.Load) and load_view(n).broadcast) for n in asc_nodes(op)
    )


# -- ports: where an AscBackend/FusedAscBackend input or output leads ----------------------------


def input_datas(op: Operation, j: int) -> list[tuple[ge.AscBackend, ag.Data]]:
    """The AscGraph Data nodes behind input j (through a FusedAscBackend's ge.Data j)."""
    if isinstance(op, ge.AscBackend):
        g = asc_graph(op)
        return [(op, d) for d in (g.data_nodes() if g else []) if d.index == j]
    out: list[tuple[ge.AscBackend, ag.Data]] = []
    if isinstance(op, ge.FusedAscBackend):
        for d in op.body.block.ops:
            if isinstance(d, ge.Data) and d.int_attr("index") == j:
                for use in d.results[0].uses:
                    inner = use.operation
                    if isinstance(inner, ge.AscBackend):
                        out.extend(input_datas(inner, use.index))
    return out


def output_store(op: Operation, k: int) -> tuple[ge.AscBackend, ag.Store] | None:
    """The AscBackend and Store that write output k (through a FusedAscBackend's NetOutput)."""
    if isinstance(op, ge.AscBackend):
        g = asc_graph(op)
        outs = [o for o in (g.output_nodes() if g else []) if o.index == k]
        if not outs:
            return None
        st = outs[0].operands[0].owner
        return (op, st) if isinstance(st, ag.Store) else None
    if isinstance(op, ge.FusedAscBackend):
        net = op.body.block.last_op
        if net is None or k >= len(net.operands):
            return None
        v = net.operands[k]
        if isinstance(v, OpResult) and isinstance(v.owner, ge.AscBackend):
            return output_store(v.owner, v.index)
    return None
