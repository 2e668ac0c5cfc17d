"""ge-assign-memory: GE's feature-map memory planning of a static graph.

Follows GE's build-time memory assignment (compiler/graph/build/memory/: graph_mem_assigner.cc,
block_mem_assigner.cc) and, before it, the memory-layout conflict solver
(compiler/graph/optimize/mem_layout_conflict_optimize/mem_layout_conflict_optimizer.cc), which
inserts Identity copies where two layout constraints on one memory symbol cannot both hold.
Sizes are GE's stored tensor sizes, the no-padding continuous nodes (no-task ConcatD/Pack,
PhonyConcat, PhonySplit) lay their pieces out as AssignContinuousInputMemory /
AssignContinuousOutputMemory do, and the feature-map blocks are placed by an offline
interval allocator over the nodes' topological order (GE's BlockMemAssigner reuses freed
blocks in the same order; the placement differs, the rules of what may share do not).
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import LocatedError, remark
from ge_dialect.dtypes import tensor_size_in_bytes
from ge_dialect.ge import GraphOp, Identity, NetOutput, ge_type, node_name
from ge_dialect.graph import consumers, graph_nodes, graphs_in_pass_order, node_order
from ge_dialect.mem_types import MEM_ALIGN_SIZE
from ge_dialect.node_types import CONST_TYPES, DATA_NODE_TYPES, GE_LOCAL_NOOP_TYPES, VARIABLE_TYPES
from passes.memory.exact import ExactOptions, exact_offsets
from passes.memory.ge_local_sizes import ge_local_output_size, memory_size_with_auto_padding
from passes.notask.phony import (
    KEEP_INPUT_OFFSET,
    PHONY_CONCAT,
    PHONY_SPLIT,
    OffsetSlots,
    buffer_fusion_producer,
    calc_phony_concat_node_offset,
    calc_phony_split_node_offset,
    reset_offset_slot,
)

# Attributes this pass writes (the contract with ge-to-npu and the simulator).
OUTPUT_OFFSET = "output_offset"
OUTPUT_REGION = "output_region"
OUTPUT_SIZE = "output_size"
INPUT_OFFSET = "input_offset"
MEMORY_SIZE = "memory_size"
MEMORY_LOWER_BOUND = "memory_lower_bound"
MEMORY_PROVEN_BOUND = "memory_proven_bound"
WEIGHT_SIZE = "weight_size"
VAR_SIZE = "var_size"
# ge_attr_define.cc: ATTR_NAME_CANNOT_BE_DELETED, set on the Identity MemLayoutConflictUtil
# inserts (SetNotDeleteAttr) so IdentityPass keeps it: it is a real copy.
CANNOT_BE_DELETED = "_cannot_be_deleted"
INSERTED_BY = "_inserted_by"

REGION_FM = "fm"
REGION_WEIGHT = "weight"
REGION_VAR = "var"

# Data, Const and Variable nodes are GE's immutable-address outputs
# (ANCHOR_ATTR_IMMUTABLE_ADDRESS_OUTPUT, mem_layout_conflict_util.cc: MarkOutTypes).
IMMUTABLE_OUTPUT_TYPES = DATA_NODE_TYPES | CONST_TYPES | VARIABLE_TYPES


@cache
def _int_list_attr(values: tuple[int, ...]) -> ArrayAttr:
    return A.int_list_attr(values)


@cache
def _str_list_attr(values: tuple[str, ...]) -> ArrayAttr:
    return ArrayAttr([StringAttr(v) for v in values])


def align(n: int, a: int = MEM_ALIGN_SIZE) -> int:
    return (n + a - 1) // a * a


# -- node classification ----------------------------------------------------------------------


def is_nopadding_continuous_input(node: Operation) -> bool:
    """kTypeInputNoPadding: not a regular continuous-input node, and both
    `_no_padding_continuous_input` and `_output_reuse_input`.

    # graph_mem_assigner.cc: GetContinuousMemoryType
    """
    return (
        not A.get_bool(node, A.CONTINUOUS_INPUT)
        and A.get_bool(node, A.NOPADDING_CONTINUOUS_INPUT)
        and A.get_bool(node, A.OUTPUT_REUSE_INPUT)
    )


def is_nopadding_continuous_output(node: Operation) -> bool:
    """kTypeOutputNoPadding (the same with `_no_padding_continuous_output`).

    # graph_mem_assigner.cc: GetContinuousMemoryType
    """
    return (
        not A.get_bool(node, A.CONTINUOUS_OUTPUT)
        and A.get_bool(node, A.NOPADDING_CONTINUOUS_OUTPUT)
        and A.get_bool(node, A.OUTPUT_REUSE_INPUT)
    )


def ref_input_index(node: Operation, out_idx: int) -> int | None:
    """The input whose memory output `out_idx` shares (a ref of that input), or None.

    # graph_utils.cc: GraphUtils::GetRefMapping / IsRefFromInput: an output desc with
    # TensorUtils reuse_input (the reshape family after CalcNodeOffsetByReuseInput) refs
    # input reuse_input_index; Reshape's output is a ref of input 0 (RefOpTransfer of GE's
    # kRefOps)
    """
    if A.get_output_flag(node, A.REUSE_INPUT, out_idx, default=False):
        return A.get_output_int(node, A.REUSE_INPUT_INDEX, out_idx, 0)
    if ge_type(node) == "Reshape" and out_idx == 0:
        return 0
    return None


def stored_size(value: SSAValue) -> int:
    """GE's stored size (TensorUtils::GetSize) of an output.

    # ge_local_ops_kernel_builder.cc: CalcOpRunningParam for GE-local NoOp types
    # (passes/memory/ge_local_sizes.py); every other node: graph_metadef tensor_utils.cc:
    # TensorUtils::GetTensorMemorySizeInBytes (raw rounded up to 32 plus 32 of padding),
    # what the kernel builders (FE's CalcOpRunningParam) store
    """
    op = value.owner
    assert isinstance(op, Operation)
    if ge_type(op) in GE_LOCAL_NOOP_TYPES:
        return ge_local_output_size(op, value.index)  # type: ignore[attr-defined]
    raw = tensor_desc(value.type).size_in_bytes
    assert raw is not None  # unknown shapes are rejected first
    return memory_size_with_auto_padding(raw)


def nopadding_size(node: Operation, value: SSAValue, what: str) -> int:
    """Raw bytes of a no-padding piece: dims [0, `_reuse_input_on_dim_index`) count as 1.

    # graph_mem_assigner.cc: GetMemorySize (a missing `_reuse_input_on_dim_index` FAILS; a
    # dim index >= rank and != 0 FAILS)
    """
    dim_index = A.get_int(node, A.REUSE_INPUT_ON_DIM_INDEX)
    if dim_index is None:
        raise LocatedError(
            node,
            f"GetMemorySize: no-padding continuous {ge_type(node)} '{node_name(node)}' has no "
            f"'{A.REUSE_INPUT_ON_DIM_INDEX}'",
        )
    td = tensor_desc(value.type)
    shape = td.storage_shape
    assert shape is not None
    if dim_index != 0 and not 0 <= dim_index < len(shape):
        raise LocatedError(
            node,
            f"GetMemorySize: '{A.REUSE_INPUT_ON_DIM_INDEX}' = {dim_index} is out of range for "
            f"{what} of runtime shape [{', '.join(map(str, shape))}] (rank {len(shape)})",
        )
    dims = [1] * dim_index + list(shape[dim_index:])
    return tensor_size_in_bytes(dims, td.dtype)


def _out_name(v: SSAValue) -> str:
    op = v.owner
    assert isinstance(op, Operation)
    return f"'{node_name(op)}':{v.index}"  # type: ignore[attr-defined]


def check_static(graph: GraphOp) -> None:
    """Every tensor of the graph has a known shape: a static plan needs every size."""
    for node in graph_nodes(graph):
        for v in (*node.operands, *node.results):
            if tensor_desc(v.type).is_unknown_shape:
                raise LocatedError(
                    node,
                    f"{ge_type(node)} '{node_name(node)}' has a tensor of unknown shape; "
                    "ge-assign-memory plans static graphs only (GE assigns such memory at "
                    "run time)",
                )


# -- memory-layout conflicts: Identity insertion ----------------------------------------------


def trace_ref_source(value: SSAValue) -> tuple[SSAValue, bool]:
    """Follow ref nodes (reshape family, Reshape) back to the output that owns the memory;
    returns it and whether the value was reached directly (no ref node in between).

    # mem_layout_conflict_util.cc: MemLayoutConflictUtil::TraverseRefChain
    """
    direct = True
    while True:
        op = value.owner
        if not isinstance(op, Operation):
            return value, direct
        idx = ref_input_index(op, value.index)  # type: ignore[attr-defined]
        if idx is None or idx >= len(op.operands):
            return value, direct
        value = op.operands[idx]
        direct = False


@dataclass
class _ConflictSolver:
    """One graph's pass of MemLayoutConflictOptimizer::Process over no-padding anchors."""

    graph: GraphOp
    remarks: bool
    inserted: list[tuple[Operation, Operation, str]] = field(default_factory=list)
    # symbol (ref-traced source output) -> ("in" | "out", node)
    claims: dict[SSAValue, tuple[str, Operation]] = field(default_factory=dict)
    counter: int = 0

    def insert_identity(self, node: Operation, idx: int, why: str) -> None:
        """# mem_layout_conflict_optimizer.cc: SolveInAnchorConflict (an Identity named by
        # MemLayoutConflictUtil::CreateIdentityOpDesc, marked _cannot_be_deleted, before
        # the in-anchor)"""
        v = node.operands[idx]
        name = f"identity_{idx}_{node_name(node)}_MemLayoutConflict_{self.counter}"
        self.counter += 1
        ident = Identity.create(
            operands=[v],
            result_types=[v.type],
            attributes={
                A.NODE_NAME: StringAttr(name),
                # mem_layout_conflict_util.cc: SetNotDeleteAttr (IdentityPass keeps it)
                "no_need_constant_folding": A.bool_attr(False),
                CANNOT_BE_DELETED: A.bool_attr(True),
                INSERTED_BY: StringAttr("ge-assign-memory"),
            },
        )
        ident.location = node.location
        ident.results[0].name_hint = name
        block = node.parent_block()
        assert block is not None
        block.insert_op_before(ident, node)
        node.operands[idx] = ident.results[0]
        # Ours: the pairs (node, idx) and (v's producer, v's index) are gone, so are their
        # offset slots (notask.phony.OffsetSlots); the new pairs get theirs when the
        # lists are computed on the solved graph.
        reset_offset_slot(node, A.INPUT_OFFSET_LIST_FOR_CONTINUOUS, idx)
        prod = v.owner
        if isinstance(prod, Operation) and not any(ge_type(u.operation) == PHONY_CONCAT for u in v.uses):
            reset_offset_slot(prod, A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS, v.index)  # type: ignore[attr-defined]
        self.inserted.append((ident, node, why))
        if self.remarks:
            remark(
                node,
                f"inserted Identity '{name}' before input {idx} of {ge_type(node)} "
                f"'{node_name(node)}' (reads {_out_name(v)}): {why}",
            )

    def check_input_node(self, node: Operation) -> None:
        """Every in-anchor of a no-padding continuous-input node."""
        # immutable_out_and_nopadding_continuous_in_checker.cc: all real inputs the same
        # anchor is exempt, and so is a repeat of that anchor on the same node in the symbol
        # checker. Ours: only while every piece sits at one offset (a single input, or
        # keep_input_offset = false: all at +0); else one output would have to sit at two
        # offsets of the block, so the repeats get copies, and with them the inputs are no
        # longer the same anchor (the fixed point of GE's next MemLayoutConflictOptimizer
        # round, computed here in one).
        pieces_at_one_offset = len(node.operands) == 1 or not A.get_bool(node, KEEP_INPUT_OFFSET, True)
        same_anchor = len(set(node.operands)) == 1 and pieces_at_one_offset
        for i in range(len(node.operands)):
            src, _ = trace_ref_source(node.operands[i])
            prod = src.owner
            assert isinstance(prod, Operation)
            ptype = ge_type(prod)
            claim = self.claims.get(src)
            if ptype in IMMUTABLE_OUTPUT_TYPES and not same_anchor:
                # immutable_out_and_nopadding_continuous_in_checker.cc:
                # ImmutableOutputAndNoPaddingContinuousInputChecker
                self.insert_identity(
                    node, i,
                    f"immutable-address output {_out_name(src)} ({ptype}) feeds a no-padding "
                    "continuous input",
                )  # fmt: skip
            elif is_nopadding_continuous_output(prod):
                # mem_layout_conflict_util.cc: FindConflictNodes (NoPaddingContinuousOutput x
                # NoPaddingContinuousInput)
                self.insert_identity(
                    node, i,
                    f"output of no-padding continuous-output {ptype} '{node_name(prod)}' feeds "
                    "a no-padding continuous input",
                )  # fmt: skip
            elif claim is not None and not (claim == ("in", node) and same_anchor):
                # mem_layout_conflict_util.cc: FindConflictNodes (two no-padding continuous
                # inputs, or a no-padding input and output, on one symbol: every anchor but
                # the first gets a copy)
                if claim[1] is node:
                    why = f"{_out_name(src)} feeds an earlier input of the same node"
                else:
                    kind = "input" if claim[0] == "in" else "output"
                    why = (
                        f"{_out_name(src)} already feeds no-padding continuous-{kind} "
                        f"{ge_type(claim[1])} '{node_name(claim[1])}'"
                    )
                self.insert_identity(node, i, why)
            else:
                self.claims[src] = ("in", node)

    def check_output_node(self, node: Operation) -> None:
        """The in-anchor 0 of a no-padding continuous-output node."""
        src, direct = trace_ref_source(node.operands[0])
        prod = src.owner
        assert isinstance(prod, Operation)
        claim = self.claims.get(src)
        if is_nopadding_continuous_output(prod):
            # mem_layout_conflict_util.cc: FindConflictNodes (NoPaddingContinuousOutput chained)
            self.insert_identity(
                node, 0,
                f"no-padding continuous-output {ge_type(prod)} '{node_name(prod)}' feeds "
                "another no-padding continuous-output node",
            )  # fmt: skip
        elif is_nopadding_continuous_input(prod) and not direct:
            # mem_layout_conflict_util.cc: FindConflictNodes (input node meets output node;
            # only PhonyConcat output 0 -> PhonySplit input 0 directly is allowed)
            self.insert_identity(
                node, 0,
                f"no-padding continuous-input {ge_type(prod)} '{node_name(prod)}' reaches it "
                "through a ref node",
            )  # fmt: skip
        elif claim is not None and claim[0] == "in":
            self.insert_identity(
                node, 0,
                f"{_out_name(src)} is also a piece of no-padding continuous-input "
                f"{ge_type(claim[1])} '{node_name(claim[1])}'",
            )  # fmt: skip
        else:
            self.claims.setdefault(src, ("out", node))

    def run(self) -> None:
        for node in list(graph_nodes(self.graph)):
            if is_nopadding_continuous_input(node):
                self.check_input_node(node)
            elif is_nopadding_continuous_output(node):
                self.check_output_node(node)


def recompute_phony_offsets(graph: GraphOp, order: dict[Operation, int]) -> None:
    """The PhonyConcat / PhonySplit offset lists of the graph as it is planned: GE computes
    them in the build's CalcOpRunningParam, after conflict solving inserted its Identity
    copies, on the final producers and consumers.

    # ge_local_ops_kernel_calc_op_param.cc: CalcPhonyConcatNodeOffset / CalcPhonySplitNodeOffset
    Ours: always, not only after an insertion, so that every (producer, output) and
    (consumer, input) pair of a piece has its slot whichever pass made the pair (a fusion
    after ge-phony-notask{stage=calc}, an Identity, a hand-written graph), all in one
    calculation (notask.phony.OffsetSlots). Only the nodes ge-phony-notask marks no-task
    are computed, and a PhonyConcat with a buffer-fusion producer is not (LxFusion's).
    """
    slots = OffsetSlots()
    for node in graph_nodes(graph):
        if not A.get_bool(node, A.NO_TASK):
            continue
        t = ge_type(node)
        if t == PHONY_CONCAT and buffer_fusion_producer(node) is None:
            calc_phony_concat_node_offset(node, slots)
        elif t == PHONY_SPLIT:
            calc_phony_split_node_offset(node, order, slots)


# -- symbols: union-find with relative offsets --------------------------------------------------


class Symbols:
    """Output tensors that must share memory, each at a fixed offset from its symbol's root
    (GE: the ref mapping's symbols plus the continuous no-padding layout)."""

    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}
        self.rel: dict[SSAValue, int] = {}  # offset from parent

    def add(self, v: SSAValue) -> None:
        self.parent[v] = v
        self.rel[v] = 0

    def find(self, v: SSAValue) -> tuple[SSAValue, int]:
        path = []
        while self.parent[v] is not v:
            path.append(v)
            v = self.parent[v]
        root = v
        # path compression, offsets accumulated from the root down
        acc = 0
        for u in reversed(path):
            acc += self.rel[u]
            self.parent[u] = root
            self.rel[u] = acc
        return (root, self.rel[path[0]]) if path else (root, 0)

    def union(self, base: SSAValue, v: SSAValue, delta: int) -> bool:
        """Put `v` at offset(base) + delta; False when that contradicts the known layout."""
        rb, ob = self.find(base)
        rv, ov = self.find(v)
        if rb is rv:
            return ov == ob + delta
        # rv's root goes under rb: offset(rv) = ob + delta - ov
        self.parent[rv] = rb
        self.rel[rv] = ob + delta - ov
        return True


# -- the allocator ---------------------------------------------------------------------------


@dataclass
class Block:
    """One feature-map allocation: a symbol's bytes and its lifetime [begin, end] in node
    positions (both inclusive)."""

    key: tuple[int, int]
    size: int
    begin: int
    end: int
    offset: int = -1


class Occupancy:
    """The bytes that placed blocks hold, queried by a window of node positions: which byte
    ranges does any block alive somewhere in [begin, end] hold?

    A segment tree over node positions. A block is stored in the O(log n) canonical nodes
    that tile its lifetime (`own`: blocks covering the whole node range) and in those nodes
    and every ancestor of them (`sub`: blocks touching the node range from inside it). A
    window's blocks are then exactly `sub` of its canonical nodes plus `own` of their
    ancestors (the root paths of its first and last position): no block is listed for each
    block it overlaps. Each node keeps its byte ranges as one sorted list of disjoint,
    coalesced runs, so a node holds as many entries as there are holes between its blocks,
    not as many as blocks. A query or an insertion is O(log n) runs lists; the answer
    (the union of the window's byte ranges) is what a best fit needs.
    """

    def __init__(self, horizon: int) -> None:
        self.leaves = 1
        while self.leaves < horizon:
            self.leaves *= 2
        self.own: list[tuple[list[int], list[int]] | None] = [None] * (2 * self.leaves)
        self.sub: list[tuple[list[int], list[int]] | None] = [None] * (2 * self.leaves)

    def _nodes(self, begin: int, end: int) -> tuple[list[int], list[int]]:
        """The canonical nodes of [begin, end] and the root paths of its two ends."""
        canon: list[int] = []
        lo, hi = begin + self.leaves, end + self.leaves + 1
        while lo < hi:
            if lo & 1:
                canon.append(lo)
                lo += 1
            if hi & 1:
                hi -= 1
                canon.append(hi)
            lo >>= 1
            hi >>= 1
        path: list[int] = []
        lo, hi = (begin + self.leaves) >> 1, (end + self.leaves) >> 1
        while lo != hi:
            path += (lo, hi)
            lo >>= 1
            hi >>= 1
        while lo:
            path.append(lo)
            lo >>= 1
        return canon, path

    def held(self, begin: int, end: int) -> list[tuple[int, int]]:
        """Sorted (lo, hi) byte ranges (possibly overlapping) of the blocks alive in the window."""
        canon, path = self._nodes(begin, end)
        spans: list[tuple[int, int]] = []
        for n in canon:
            if (runs := self.sub[n]) is not None:
                spans += zip(*runs)
        for n in path:
            if (runs := self.own[n]) is not None:
                spans += zip(*runs)
        spans.sort()
        return spans

    def add(self, begin: int, end: int, lo: int, hi: int) -> None:
        """Record bytes [lo, hi) held from position begin to end (inclusive)."""
        canon, path = self._nodes(begin, end)
        own, sub = self.own, self.sub
        for table, nodes in ((own, canon), (sub, canon), (sub, path)):
            for n in nodes:
                # insert [lo, hi) into the node's runs, merging the runs it touches
                runs = table[n]
                if runs is None:
                    table[n] = ([lo], [hi])
                    continue
                starts, ends = runs
                i = bisect.bisect_left(ends, lo)  # first run ending at or after lo
                j = bisect.bisect_right(starts, hi)  # runs [i, j) touch [lo, hi)
                if i == j:
                    starts.insert(i, lo)
                    ends.insert(i, hi)
                else:
                    a, z = starts[i], ends[j - 1]
                    starts[i:j] = (a if a < lo else lo,)
                    ends[i:j] = (z if z > hi else hi,)


def _best_fit(size: int, spans: list[tuple[int, int]]) -> int:
    """The lowest offset of the smallest gap of at least `size` bytes between `spans`
    (sorted (lo, hi) byte ranges), else the first offset above all of them."""
    best: int | None = None
    best_gap = math.inf
    cursor = 0
    for lo, hi in spans:
        gap = lo - cursor
        if gap >= size and gap < best_gap:
            best, best_gap = cursor, gap
        cursor = max(cursor, hi)
    return best if best is not None else cursor


class _Windows:
    """Per block, the bytes held in its lifetime, through `Occupancy`."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = blocks
        self.occ = Occupancy(max((b.end for b in blocks), default=0) + 1)

    def held(self, i: int) -> list[tuple[int, int]]:
        b = self.blocks[i]
        return self.occ.held(b.begin, b.end)

    def add(self, i: int, lo: int) -> None:
        b = self.blocks[i]
        self.occ.add(b.begin, b.end, lo, lo + b.size)


class _Neighbours:
    """The same answers from each block's list of the blocks overlapping it in time: linear
    in blocks + overlapping pairs, so cheaper than `_Windows` when few blocks live at once."""

    def __init__(self, blocks: Sequence[Block], nbrs: list[list[int]] | None = None) -> None:
        self.blocks = blocks
        self.offset = [-1] * len(blocks)
        self.nbrs = nbrs if nbrs is not None else overlapping_lists(blocks)

    def held(self, i: int) -> list[tuple[int, int]]:
        off, blocks = self.offset, self.blocks
        return sorted((off[j], off[j] + blocks[j].size) for j in self.nbrs[i] if off[j] >= 0)

    def add(self, i: int, lo: int) -> None:
        self.offset[i] = lo


def overlapping_lists(blocks: Sequence[Block]) -> list[list[int]]:
    """For each block, the blocks whose lifetimes intersect its own (one sweep in begin order)."""
    nbrs: list[list[int]] = [[] for _ in blocks]
    live: dict[int, None] = {}
    ends: list[tuple[int, int]] = []
    for i in sorted(range(len(blocks)), key=lambda i: (blocks[i].begin, blocks[i].key)):
        while ends and ends[0][0] < blocks[i].begin:
            live.pop(heapq.heappop(ends)[1], None)
        for j in live:
            nbrs[i].append(j)
            nbrs[j].append(i)
        live[i] = None
        heapq.heappush(ends, (blocks[i].end, i))
    return nbrs


# Above this many time-overlapping pairs per block, the pair lists cost more than the tree.
PAIRS_PER_BLOCK = 24


def few_alive_at_once(blocks: Sequence[Block]) -> bool:
    """Whether the blocks overlap in time in at most PAIRS_PER_BLOCK pairs per block (counted
    in one sweep, without listing them)."""
    pairs = 0
    ends: list[int] = []
    for b in sorted(blocks, key=lambda b: b.begin):
        while ends and ends[0] < b.begin:
            heapq.heappop(ends)
        pairs += len(ends)
        heapq.heappush(ends, b.end)
    return pairs <= PAIRS_PER_BLOCK * len(blocks)


def overlap_index(blocks: Sequence[Block]) -> Callable[[], _Neighbours | _Windows]:
    """A maker of fresh `_Neighbours` (sharing one set of lists) when few blocks are alive at
    once (`few_alive_at_once`), else of `_Windows`: both give the same placements."""
    if not few_alive_at_once(blocks):
        return lambda: _Windows(blocks)
    nbrs = overlapping_lists(blocks)
    return lambda: _Neighbours(blocks, nbrs)


def _place_by_size(blocks: Sequence[Block], index: Callable[[], _Neighbours | _Windows] | None = None) -> list[int]:
    """Largest block first (ties: earlier begin, then key), each into the best-fitting gap
    between the already-placed blocks that overlap it in time."""
    order = sorted(range(len(blocks)), key=lambda i: (-blocks[i].size, blocks[i].begin, blocks[i].key))
    offset = [-1] * len(blocks)
    held = (index or overlap_index(blocks))()
    for i in order:
        offset[i] = o = _best_fit(blocks[i].size, held.held(i))
        held.add(i, o)
    return offset


def _place_by_chains(blocks: Sequence[Block], index: Callable[[], _Neighbours | _Windows] | None = None) -> list[int]:
    """Blocks of one size that never live at once are chained (in begin order, each joins the
    chain of that size whose last block ended latest before it begins), and a chain keeps
    one offset: a value's successor takes its slot, as GE's in-order reuse of a freed block
    of the same size does. Chains are then placed largest first, best fit."""
    chains: list[list[int]] = []
    tails: dict[int, list[tuple[int, int]]] = {}  # size -> sorted (last end, chain)
    for i in sorted(range(len(blocks)), key=lambda i: (blocks[i].begin, blocks[i].key)):
        b = blocks[i]
        lst = tails.setdefault(b.size, [])
        k = bisect.bisect_left(lst, (b.begin, -1)) - 1
        if k >= 0:
            _, c = lst.pop(k)
        else:
            c = len(chains)
            chains.append([])
        chains[c].append(i)
        bisect.insort(lst, (b.end, c))
    size = [blocks[c[0]].size for c in chains]
    first = [blocks[c[0]].begin for c in chains]
    offset = [-1] * len(blocks)
    held = (index or overlap_index(blocks))()
    for c in sorted(range(len(chains)), key=lambda c: (-size[c], first[c], c)):
        spans = sorted(s for i in chains[c] for s in held.held(i))
        o = _best_fit(size[c], spans)
        for i in chains[c]:
            offset[i] = o
            held.add(i, o)
    return offset


# The time sweep's search (`_place_by_sweep`): the beam width, the node positions ahead at
# which a layout's free space is scored, how far ahead the largest coming block is looked
# for, the local retries after a dead end, in turn (beam factor, positions replayed before
# it, positions after it), the retries allowed per 64 blocks, and the capacity step (a
# fraction of the bound). Chosen on bench/gen_graphs.py's graphs (bench/README.md).
SWEEP_BEAM = 4
SWEEP_HORIZONS = (1, 2, 4, 8)
SWEEP_LOOKAHEAD = 32
SWEEP_RETRIES = ((4, 16, 16), (16, 32, 32), (32, 64, 64))
SWEEP_RETRY_BUDGET = 2
SWEEP_STEP = 0.01

# A sweep layout: the blocks alive at the current position, (offset, size, end) sorted by
# offset, with the choices that led to it as a linked list (block, offset, previous choices).
_Layout = tuple[tuple[int, int, int], ...]
_Choices = tuple[int, int, "_Choices"] | None


def _sweep_step(
    states: list[tuple[_Layout, _Choices]], i: int, b: Block, capacity: int, width: int, big: int
) -> list[tuple[_Layout, _Choices]]:
    """One block of the sweep: every state's blocks still alive at `b.begin`, `b` put at each
    canonical offset under `capacity` (the bottom and the top of every free gap that holds
    it), and the `width` best distinct layouts kept. A layout is ranked, at each horizon h of
    SWEEP_HORIZONS, on the free gaps left by the blocks still alive at begin + h: first the
    free bytes in gaps smaller than `big` (the largest block coming soon: bytes it cannot
    use), then the sum of the squared gaps (larger = more contiguous space); ties keep the
    earlier state, then the lower offset."""
    size, begin, end = b.size, b.begin, b.end
    horizons = [begin + h for h in SWEEP_HORIZONS]
    # how many of the horizons the new block is still alive at: only their gaps change
    alive_at = sum(1 for t in horizons if end >= t)
    scored: list[tuple[int, int, int, int, int]] = []  # (waste, -square, state, offset, k)
    lives: list[_Layout] = []
    seen_live: set[_Layout] = set()
    for si, (layout, _) in enumerate(states):
        live = tuple(x for x in layout if x[2] >= begin)
        lives.append(live)
        if live in seen_live:
            continue  # the same blocks alive as an earlier state: its children win the ties
        seen_live.add(live)
        n = len(live)
        # gap k lies below live[k] (k = n: below the capacity); at each horizon, the gap of
        # the blocks still alive then that contains it
        waste = square = 0
        containers: list[list[tuple[int, int]]] = []
        for j, t in enumerate(horizons):
            cur = pending = 0
            cont: list[tuple[int, int]] = []
            for k, (o, s, e) in enumerate(live):
                if e >= t:
                    g = o - cur
                    if g:
                        if g < big:
                            waste += g
                        square += g * g
                    cont += [(cur, o)] * (k + 1 - pending)
                    cur, pending = o + s, k + 1
            g = capacity - cur
            if g > 0:
                if g < big:
                    waste += g
                square += g * g
            if j < alive_at:
                cont += [(cur, capacity)] * (n + 1 - pending)
                containers.append(cont)
        cur = 0
        for k in range(n + 1):
            top = live[k][0] if k < n else capacity
            if top - cur >= size:
                for c in (cur, top - size) if top - size != cur else (cur,):
                    w, sq = waste, square
                    # the block splits one gap at every horizon it is still alive at
                    for cont in containers:
                        lo, hi = cont[k]
                        g, below, above = hi - lo, c - lo, hi - c - size
                        if below < big:
                            w += below
                        if above < big:
                            w += above
                        if g < big:
                            w -= g
                        sq += below * below + above * above - g * g
                    scored.append((w, -sq, si, c, k))
            if k < n:
                cur = live[k][0] + live[k][1]
    scored.sort()
    out: list[tuple[_Layout, _Choices]] = []
    seen: set[_Layout] = set()
    for _, _, si, c, k in scored:
        live = lives[si]
        child = (*live[:k], (c, size, end), *live[k:])
        if child not in seen:
            seen.add(child)
            out.append((child, (i, c, states[si][1])))
            if len(out) == width:
                break
    return out


def _place_by_sweep(blocks: Sequence[Block], bound: int, above: int) -> list[int] | None:
    """A time sweep under an arena size (the capacity) that starts at the lower bound: blocks
    in begin order (ties: key), each put at a canonical offset (`_sweep_step`), a beam of
    SWEEP_BEAM layouts kept. Placing in begin order, the blocks a new block may overlap in
    time are exactly the placed ones still alive at its begin (two lifetimes intersect iff
    one begins inside the other), so a layout only holds the live blocks.

    When every layout of the beam dead-ends at a block, the sweep goes back a few positions
    and replays them past the dead end with a wider beam (SWEEP_RETRIES), at most
    SWEEP_RETRY_BUDGET times per 64 blocks; when that fails too, the capacity grows by
    SWEEP_STEP of the bound and the sweep places the last positions (the longest replay)
    again under it (every layout that fits a capacity fits a larger one, so the beam there
    is still valid). Returns None once the capacity reaches `above` (no better than what the
    caller has). The work is linear in the blocks: a bounded number of layouts and offsets
    per block, a bounded number of replays, and at most (above - bound) / step growths."""
    order = sorted(range(len(blocks)), key=lambda i: (blocks[i].begin, blocks[i].key))
    n = len(order)
    # big[p]: the largest block among the next SWEEP_LOOKAHEAD in sweep order (sliding max)
    big = [0] * n
    window: deque[int] = deque()  # positions with decreasing sizes
    for p in range(n - 1, -1, -1):
        while window and blocks[order[window[-1]]].size <= blocks[order[p]].size:
            window.pop()
        window.append(p)
        if window[0] >= p + SWEEP_LOOKAHEAD:
            window.popleft()
        big[p] = blocks[order[window[0]]].size
    capacity = align(bound)
    step = align(max(1, int(bound * SWEEP_STEP)))
    beams: list[list[tuple[_Layout, _Choices]]] = [[((), None)]]
    budget = SWEEP_RETRY_BUDGET * (1 + n // 64)
    p = 0
    while p < n:
        if capacity >= above:
            return None
        nxt = _sweep_step(beams[p], order[p], blocks[order[p]], capacity, SWEEP_BEAM, big[p])
        if nxt:
            beams.append(nxt)
            p += 1
            continue
        resolved = False
        for factor, back, ahead in SWEEP_RETRIES:
            if budget == 0:
                break
            budget -= 1
            start, stop = max(0, p - back), min(n, p + 1 + ahead)
            replay = [beams[start]]
            for q in range(start, stop):
                width = SWEEP_BEAM * factor
                nxt = _sweep_step(replay[-1], order[q], blocks[order[q]], capacity, width, big[q])
                if not nxt:
                    break
                replay.append(nxt)
            else:
                del beams[start:]
                beams += replay
                p, resolved = stop, True
                break
        if not resolved:
            # a larger arena, and the last positions placed again under it
            capacity += step
            p = max(0, p - SWEEP_RETRIES[-1][1])
            del beams[p + 1 :]
    offset = [-1] * len(blocks)
    chosen = beams[n][0][1]
    while chosen is not None:
        i, o, chosen = chosen
        offset[i] = o
    return offset


# The arena / lower-bound ratio above which the sweep placement is tried (issue 6's
# quality target for the planner).
SWEEP_ABOVE_BOUND = 1.10


def assign_offsets(blocks: Sequence[Block], sweep: bool = True) -> int:
    """Place every block so that no two blocks alive at once overlap; returns the arena size.

    An offline interval allocator: two deterministic placements (largest block first; and
    same-size chains, largest first), each a best fit among the blocks overlapping in time
    (found through each block's list of overlapping blocks when few live at once, else
    through `Occupancy`: O(log n) run lists per block, so a graph with thousands of tensors
    alive at once stays near-linear; see `overlap_index`). When both leave the arena more
    than SWEEP_ABOVE_BOUND over the lower bound (`live_lower_bound`, aligned) and few
    blocks are alive at once (each
    of its steps costs the live blocks), a third one searches: `_place_by_sweep`,
    a beam search in time order under an arena size that starts at the bound and grows only
    where the search dead-ends. It ranks each placement by the free gaps the layout leaves
    a few positions later (bytes in gaps too small for the largest coming block count as
    lost) and keeps several layouts, so the slots of a repeating pattern can slide instead
    of staying in fixed lanes (the greedy placements keep the lanes, which on the diamond
    graphs of bench/gen_graphs.py costs 18 % over the bound). The smallest arena wins (ties: the
    earlier placement). GE's BlockMemAssigner (block_mem_assigner.cc: ReuseBlock /
    ApplyMemory) reuses freed blocks in node order under the same rule: two tensors alive
    at the same node never share bytes. `sweep=False` leaves the sweep out (the exact
    solver from best fit's plan costs less in all than the sweep and then the solver:
    bench/README.md).
    """
    best: list[int] | None = None
    best_top = 0
    index = overlap_index(blocks)
    for place in (_place_by_size, _place_by_chains):
        offset = place(blocks, index)
        top = max((o + b.size for o, b in zip(offset, blocks)), default=0)
        if best is None or top < best_top:
            best, best_top = offset, top
    assert best is not None or not blocks
    bound = live_lower_bound(blocks)
    # the sweep's layouts hold every live block: only when few are alive at once; and only
    # when best fit misses SWEEP_ABOVE_BOUND (the sweep costs ~1 s per 10k blocks even when
    # it cannot improve, e.g. bench `mixed` 10k: best fit 1.030, the sweep no better)
    if sweep and best_top > SWEEP_ABOVE_BOUND * align(bound) and few_alive_at_once(blocks):
        swept = _place_by_sweep(blocks, bound, best_top)
        if swept is not None:
            top = max(o + b.size for o, b in zip(swept, blocks))
            if top < best_top:
                best, best_top = swept, top
    for b, o in zip(blocks, best or ()):
        b.offset = o
    return best_top


def live_lower_bound(blocks: Sequence[Block]) -> int:
    """The largest total size of blocks alive at one node position."""
    delta: dict[int, int] = {}
    for b in blocks:
        delta[b.begin] = delta.get(b.begin, 0) + b.size
        delta[b.end + 1] = delta.get(b.end + 1, 0) - b.size
    cur = best = 0
    for t in sorted(delta):
        cur += delta[t]
        best = max(best, cur)
    return best


# -- the per-graph planner --------------------------------------------------------------------


@dataclass
class _Placement:
    region: str
    offset: int
    why: str


class _GraphPlanner:
    def __init__(self, graph: GraphOp, remarks: bool, exact: ExactOptions | None = None):
        self.graph = graph
        self.remarks = remarks
        self.exact = exact
        self.nodes = list(graph_nodes(graph))
        self.order = node_order(graph)
        self.sym = Symbols()
        self.size: dict[SSAValue, int] = {}
        self.why: dict[SSAValue, str] = {}  # why a value is not its symbol's own block

    # -- sizes and layout constraints --

    def collect(self) -> None:
        for node in self.nodes:
            for r in node.results:
                self.sym.add(r)
                self.size[r] = stored_size(r)

    def join(self, base: SSAValue, v: SSAValue, delta: int, node: Operation, why: str) -> None:
        if not self.sym.union(base, v, delta):
            raise LocatedError(
                node,
                f"memory layout conflict left unresolved: {_out_name(v)} cannot be at "
                f"{_out_name(base)} + {delta} ({why})",
            )
        self.why.setdefault(v, why)

    def layout(self) -> None:
        for node in self.nodes:
            t, name = ge_type(node), node_name(node)
            # graph_utils.cc: GraphUtils::GetRefMapping (ref outputs share the input's symbol)
            for j, r in enumerate(node.results):
                k = ref_input_index(node, j)
                if k is not None and k < len(node.operands) and not is_nopadding_continuous_input(node):
                    self.join(node.operands[k], r, 0, node, f"alias of {_out_name(node.operands[k])} ({t} output {j} reuses input {k})")
            if is_nopadding_continuous_input(node):
                self.layout_continuous_input(node, t, name)
            elif is_nopadding_continuous_output(node):
                self.layout_continuous_output(node, t, name)

    def layout_continuous_input(self, node: Operation, t: str, name: str) -> None:
        """# graph_mem_assigner.cc: AssignContinuousInputMemory (no padding): the output refs
        # input 0 (symbol size = max, block_mem_assigner.cc: GetNoNeedAssignMemoryFlag: only
        # input 0's producer is allocated); piece i at base + the raw sizes before it, or at
        # base + the producer's _output_offset_list_for_continuous[peer index]"""
        out = node.results[0]
        running = 0
        for i, v in enumerate(node.operands):
            prod = v.owner
            assert isinstance(prod, Operation)
            piece = nopadding_size(node, v, f"input {i}")
            offsets = A.get_int_list(prod, A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS)
            pidx: int = v.index  # type: ignore[attr-defined]
            if offsets is not None and pidx < len(offsets) and t == PHONY_CONCAT:
                rel = offsets[pidx]
                how = "offset list"
            else:
                rel = running
                how = "raw sizes before it"
            self.join(out, v, rel, node, f"piece {i} of no-task {t} '{name}' at +{rel} ({how})")
            running += piece
        self.why.setdefault(out, f"output of no-task {t} '{name}' (block of its input 0)")

    def layout_continuous_output(self, node: Operation, t: str, name: str) -> None:
        """# graph_mem_assigner.cc: AssignContinuousOutputMemory (no padding): base = the
        # input's offset; output i at base + a consumer's _input_offset_list_for_continuous
        # entry, else base + the raw sizes of the outputs before it"""
        src = node.operands[0]
        running = 0
        for j, r in enumerate(node.results):
            piece = nopadding_size(node, r, f"output {j}")
            rel = None
            for c, k in consumers(r, self.order):
                lst = A.get_int_list(c, A.INPUT_OFFSET_LIST_FOR_CONTINUOUS)
                if lst is not None and k < len(lst):
                    rel = lst[k]
                    break
            how = "offset list"
            if rel is None:
                rel, how = running, "raw sizes before it"
            self.join(src, r, rel, node, f"output {j} of no-task {t} '{name}' at +{rel} ({how})")
            running += piece

    # -- regions, lifetimes, allocation --

    def plan(self) -> None:
        self.collect()
        self.layout()
        members: dict[SSAValue, list[SSAValue]] = {}
        for node in self.nodes:
            for r in node.results:
                root, _ = self.sym.find(r)
                members.setdefault(root, []).append(r)
        net = self.graph.net_output if isinstance(self.graph.body.block.last_op, NetOutput) else None
        out_uses: dict[SSAValue, list[int]] = {}
        if net is not None:
            for k, v in enumerate(net.operands):
                out_uses.setdefault(v, []).append(k)
        self.placement: dict[SSAValue, _Placement] = {}
        blocks: list[Block] = []
        block_of: dict[SSAValue, Block] = {}
        weight_top = var_top = 0
        for root, ms in members.items():
            rels = {m: self.sym.find(m)[1] for m in ms}
            immutable = [m for m in ms if ge_type(m.owner) in IMMUTABLE_OUTPUT_TYPES]  # type: ignore[arg-type]
            if immutable:
                anchor = immutable[0]
                if len({m.owner for m in immutable}) > 1:
                    raise LocatedError(
                        immutable[1].owner,  # type: ignore[arg-type]
                        f"memory layout conflict left unresolved: {_out_name(immutable[0])} and "
                        f"{_out_name(immutable[1])} would share memory",
                    )
                op = anchor.owner
                assert isinstance(op, Operation)
                t = ge_type(op)
                base = rels[anchor]
                extent = max(rels[m] - base + self.size[m] for m in ms)
                if t in DATA_NODE_TYPES:
                    region = f"input:{A.get_int(op, 'index', 0)}"
                    start = 0
                    why = f"graph input {A.get_int(op, 'index', 0)} (zero-copy)"
                elif t in CONST_TYPES:
                    # weights one after another, each 512-aligned (our layout of the weight region)
                    region, start, weight_top = REGION_WEIGHT, weight_top, weight_top + align(extent)
                    why = "weight"
                else:
                    region, start, var_top = REGION_VAR, var_top, var_top + align(extent)
                    why = "variable"
                for m in ms:
                    off = start + rels[m] - base
                    if off < start:
                        raise LocatedError(
                            m.owner,  # type: ignore[arg-type]
                            f"memory layout conflict left unresolved: {_out_name(m)} would lie "
                            f"before {_out_name(anchor)} in its {region} region",
                        )
                    self.placement[m] = _Placement(region, off, self.why.get(m, why))
                continue
            if len(ms) == 1 and self.zero_copy_output(ms[0], out_uses):
                k = out_uses[ms[0]][0]
                self.placement[ms[0]] = _Placement(f"output:{k}", 0, f"zero-copy graph output {k}")
                continue
            lo = min(rels.values())
            extent = max(rels[m] - lo + self.size[m] for m in ms)
            begin = min(self.order[m.owner] for m in ms)  # type: ignore[index]
            # block_mem_assigner.cc: GetContinuousNodeLifeTimeBegin (the block lives from the
            # earliest producer of any piece across the cascade)
            end = begin
            for m in ms:
                end = max(end, self.order[m.owner])  # type: ignore[index]
                for u in m.uses:
                    end = max(end, self.order.get(u.operation, end))
            # block_mem_assigner.cc: GetBlockSize (blocks are MEM_ALIGN_SIZE-aligned)
            blk = Block((self.order[root.owner], root.index), align(extent), begin, end)  # type: ignore[index,attr-defined]
            blocks.append(blk)
            block_of[root] = blk
            for m in ms:
                self.placement[m] = _Placement(REGION_FM, rels[m] - lo, self.why.get(m, ""))
        self.memory_size = assign_offsets(blocks, sweep=self.exact is None)
        self.lower_bound = live_lower_bound(blocks)
        self.proven_bound = self.lower_bound
        self.exact_note = ""
        if self.exact is not None and self.memory_size > self.lower_bound:
            # passes/memory/exact.py: CP-SAT on the same blocks, the heuristic plan as the hint
            got = exact_offsets(blocks, [b.offset for b in blocks], self.exact)
            swept = 0
            if self.memory_size > SWEEP_ABOVE_BOUND * align(self.lower_bound) and not got.optimal:
                # where the heuristic alone runs the sweep and the solver proved no optimum:
                # the sweep's plan when better (so solver=exact is never worse)
                swept = assign_offsets(blocks)
            self.memory_size, self.proven_bound = got.peak, got.proven_bound
            if swept and swept < got.peak:
                self.memory_size = swept
            else:
                for b, o in zip(blocks, got.offsets):
                    b.offset = o
            self.exact_note = f"; exact solver: heuristic {got.heuristic_peak} B, {got.models} models, work {got.work:.3f}"
        self.weight_size = weight_top
        self.var_size = var_top
        self.blocks = blocks
        for root, blk in block_of.items():
            for m in members[root]:
                self.placement[m].offset += blk.offset
        if self.remarks:
            self.reuse_notes(block_of, members)

    def zero_copy_output(self, v: SSAValue, out_uses: dict[SSAValue, list[int]]) -> bool:
        """A NetOutput input is written straight into the user's output buffer when it feeds
        NetOutput once, is its own symbol (no alias, not a no-padding piece) and is written by
        a task (not a GE-local NoOp type, not a no-task node); otherwise it stays in the
        feature map and ge-to-npu copies it out.

        # compiler/graph/build/memory/block_mem_assigner.cc: zero-copy blocks (is_zero_copy_)
        # for the model outputs; davinci_model.cc: non-zero-copyable outputs are copied after
        # the run (ge_executor.md §3.5)
        """
        uses = out_uses.get(v)
        if uses is None or len(uses) != 1:
            return False
        op = v.owner
        assert isinstance(op, Operation)
        return ge_type(op) not in GE_LOCAL_NOOP_TYPES and not A.get_bool(op, A.NO_TASK)

    def reuse_notes(self, block_of: dict[SSAValue, Block], members: dict[SSAValue, list[SSAValue]]) -> None:
        """For the remarks: which earlier block, dead by then, last held this block's offset."""
        last_at: dict[int, tuple[int, SSAValue]] = {}
        for root, blk in sorted(block_of.items(), key=lambda kv: (kv[1].begin, kv[1].key)):
            prev = last_at.get(blk.offset)
            note = "new block"
            if prev is not None and prev[0] < blk.begin:
                note = f"reused block of {_out_name(prev[1])}"
            last_at[blk.offset] = (blk.end, root)
            p = self.placement[root]
            p.why = f"{p.why}; {note}" if p.why else note

    # -- results --

    def write(self) -> None:
        for node in self.nodes:
            if node.results:
                ps = [self.placement[r] for r in node.results]
                node.attributes[OUTPUT_OFFSET] = _int_list_attr(tuple(p.offset for p in ps))
                node.attributes[OUTPUT_REGION] = _str_list_attr(tuple(p.region for p in ps))
                node.attributes[OUTPUT_SIZE] = _int_list_attr(tuple(self.size[r] for r in node.results))
                if self.remarks:
                    for r, p in zip(node.results, ps):
                        remark(
                            node,
                            f"{_out_name(r)} -> {p.region} [{p.offset}, {p.offset + self.size[r]}): {p.why}",
                        )
            if node.operands:
                node.attributes[INPUT_OFFSET] = _int_list_attr(tuple(self.placement[v].offset for v in node.operands))
        g = self.graph
        A.set_int(g, MEMORY_SIZE, self.memory_size)
        A.set_int(g, MEMORY_LOWER_BOUND, self.lower_bound)
        A.set_int(g, MEMORY_PROVEN_BOUND, self.proven_bound)
        A.set_int(g, WEIGHT_SIZE, self.weight_size)
        if self.var_size:
            A.set_int(g, VAR_SIZE, self.var_size)
        if self.remarks:
            ratio = self.memory_size / self.lower_bound if self.lower_bound else 1.0
            tensors = sum(len(n.results) for n in self.nodes)
            gap = self.memory_size / self.proven_bound - 1 if self.proven_bound else 0.0
            proof = "optimal" if self.memory_size <= self.proven_bound else f"gap {100 * gap:.1f} %"
            remark(
                g,
                f"graph @{g.sym_name.data}: memory_size {self.memory_size} B, "
                f"memory_lower_bound {self.lower_bound} B (ratio {ratio:.3f}), "
                f"memory_proven_bound {self.proven_bound} B ({proof}), "
                f"weight_size {self.weight_size} B; {len(self.blocks)} feature-map blocks for "
                f"{tensors} tensors{self.exact_note}",
            )


@dataclass(frozen=True)
class AssignMemoryPass(ModulePass):
    """Plan each static graph's memory: feature-map offsets with reuse, no-padding continuous
    layouts, aliases, zero-copy inputs/outputs and weights (GE's GraphMemoryAssigner).

    Per graph (root graphs, then subgraphs; each its own arena), in node order:
    1. MemLayoutConflictOptimizer: an Identity copy (`_cannot_be_deleted = true`) is inserted
       before a no-padding continuous input fed by an immutable address (Data, Const,
       Variable; unless every input is the same tensor), by a no-padding continuous output,
       or by a tensor already laid out by another no-padding node; and before a no-padding
       continuous output fed by another one, or by a PhonyConcat through a ref node. The
       PhonyConcat/PhonySplit offset lists are then computed on the solved graph, one
       slot per (producer, output) and (consumer, input) pair.
    2. Sizes: GE-local NoOp types as CalcOpRunningParam stores them, other outputs raw bytes
       rounded to 32 plus 32; no-padding pieces by their raw size (GetMemorySize with
       `_reuse_input_on_dim_index`).
    3. Symbols: ref outputs (reshape family `reuse_input`, Reshape) share their input's
       memory; a no-padding continuous input node places input i at its output's offset +
       the raw sizes before it (or + its producer's `_output_offset_list_for_continuous`);
       a PhonySplit places output i at its input + a consumer's
       `_input_offset_list_for_continuous` entry (or the raw sizes before it).
    4. Regions: a symbol holding a Data output lives in `input:<index>`, a Const in
       `weight`, a Variable in `var`; a NetOutput input that is its own symbol, feeds
       NetOutput once and is written by a task lives in `output:<k>` (zero-copy); every
       other symbol is one 512-aligned feature-map block alive from its first producer to
       its last reader, placed by an interval allocator (best fit largest first, or a time
       sweep's beam search when best fit stays above the lower bound: `assign_offsets`).
    Writes `output_offset`, `output_region`, `output_size` on every node with outputs,
    `input_offset` on every node with inputs, and `memory_size` (the arena's peak),
    `memory_lower_bound` (the most bytes alive at one node), `weight_size` on the graph.
    5. `solver=exact` (the default): when the arena is above the lower bound, CP-SAT
       improves the plan on the same blocks (passes/memory/exact.py: the heuristic plan as
       the hint, a fixed seed, at most `solver-work-limit` of CP-SAT's deterministic time
       per graph, the better plan kept); `solver=heuristic` stops after step 4.
       `memory_proven_bound` is a proven lower bound on any 512-aligned plan of the
       blocks (the lower bound, or what the solver proved); the plan is optimal when
       memory_size equals it.
    With `remarks`, every output says where it went and why, and each graph its summary.
    """

    name = "ge-assign-memory"

    remarks: bool = False
    solver: str = "exact"
    solver_work_limit: float = 0.5

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.solver not in ("heuristic", "exact"):
            raise LocatedError(op, f"ge-assign-memory: solver must be heuristic or exact, got '{self.solver}'")
        if not self.solver_work_limit >= 0.0:
            raise LocatedError(op, f"ge-assign-memory: solver-work-limit must be >= 0, got {self.solver_work_limit}")
        exact = ExactOptions(work_limit=self.solver_work_limit) if self.solver == "exact" else None
        for graph in graphs_in_pass_order(op):
            check_static(graph)
            solver = _ConflictSolver(graph, self.remarks)
            solver.run()
            recompute_phony_offsets(graph, node_order(graph))
            planner = _GraphPlanner(graph, self.remarks, exact)
            planner.plan()
            planner.write()
