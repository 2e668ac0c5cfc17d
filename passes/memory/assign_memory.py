"""ge-assign-memory: GE's feature-map memory planning of a static graph.

Follows GE's build-time memory assignment (compiler/graph/build/memory/: graph_mem_assigner.cc,
block_mem_assigner.cc) and, before it, the memory-layout conflict solver
(compiler/graph/optimize/mem_layout_conflict_optimize/mem_layout_conflict_optimizer.cc), which
inserts Identity copies where two layout constraints on one memory symbol cannot both hold
(conflicts.py). Sizes are GE's stored tensor sizes, the no-padding continuous nodes (no-task ConcatD/Pack,
PhonyConcat, PhonySplit) lay their pieces out as AssignContinuousInputMemory /
AssignContinuousOutputMemory do, and the feature-map blocks are placed by an offline
interval allocator over the nodes' topological order (allocator.py; GE's BlockMemAssigner
reuses freed blocks in the same order; the placement differs, the rules of what may share do
not), then by CP-SAT where it is still above the bound (exact.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.desc import tensor_desc
from ge_dialect.diagnostics import LocatedError, remark
from ge_dialect.dtypes import tensor_size_in_bytes
from ge_dialect.ge import GraphOp, NetOutput, WhileBase, called_graph_names, ge_type, node_name
from ge_dialect.graph import IS_UNKNOWN_SHAPE, consumers, graph_nodes, graphs_to_compile, node_order
from ge_dialect.node_types import CONST_TYPES, DATA_NODE_TYPES, GE_LOCAL_NOOP_TYPES
from ge_dialect.pass_options import REMARKS, AtLeast, OneOf, Option, check_options
from ge_dialect.shapes import fmt_dims
from passes.memory.allocator import SWEEP_ABOVE_BOUND, FmBlock, Symbols, align, assign_offsets, live_lower_bound
from passes.memory.conflicts import (
    IMMUTABLE_OUTPUT_TYPES,
    conflict_identity,
    is_nopadding_continuous_input,
    is_nopadding_continuous_output,
    out_name,
    ref_input_index,
    solve_mem_layout_conflicts,
    trace_ref_source,
)
from passes.memory.exact import ExactOptions, exact_offsets
from passes.memory.ge_local_sizes import ge_local_output_size, memory_size_with_auto_padding
from passes.notask.phony import (
    PHONY_CONCAT,
    PHONY_SPLIT,
    OffsetSlots,
    buffer_fusion_producer,
    calc_phony_concat_node_offset,
    calc_phony_split_node_offset,
)

REGION_FM = "fm"
REGION_WEIGHT = "weight"
REGION_VAR = "var"


@cache
def _int_list_attr(values: tuple[int, ...]) -> ArrayAttr:
    return A.int_list_attr(values)


@cache
def _str_list_attr(values: tuple[str, ...]) -> ArrayAttr:
    return ArrayAttr([StringAttr(v) for v in values])


# -- sizes ------------------------------------------------------------------------------------


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
            f"{what} of runtime shape {fmt_dims(shape)} (rank {len(shape)})",
        )
    dims = [1] * dim_index + list(shape[dim_index:])
    return tensor_size_in_bytes(dims, td.dtype)


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


# -- a graph input feeding a no-padding continuous output (Concat No Task seed, §5.3) ----------

# ge_types.h: OPTION_BUILD_GRAPH_MODE ("ge.buildGraphMode"): ATC and aclgrphBuildModel
# (atc/main_impl.cc, ge_ir_build.cc) set "offline"; unset, the build is online.
BUILD_GRAPH_MODES = ("online", "offline")


def is_support_user_input_nopadding_continuous_output(graph: GraphOp, build_graph_mode: str) -> bool:
    """Whether the loaded model can refresh the address of every piece of a no-padding
    continuous output that lives in a user input (the second and later pieces).

    # mem_layout_conflict_util.cc: MemLayoutConflictUtil::IsSupportUserInputNopaddingContinuousOutput
    Not when the build is offline or the graph is a single-op scene (the graph's own
    `_single_op_scene`); GE's third case, heterogeneous execution, is not modelled.
    """
    return build_graph_mode != "offline" and not A.get_bool(graph, A.SINGLE_OP_SCENE)


def solve_user_input_nopadding_output(graph: GraphOp, build_graph_mode: str, remarks: bool) -> int:
    """An Identity after a graph input whose memory would hold the pieces of a no-padding
    continuous-output node (a no-task SplitD / SplitVD, a PhonySplit), when the model cannot
    refresh their addresses: data -> identity -> split (the seed's §5.3 layout).

    # user_in_and_continuous_in_out_checker.cc: UserInputAndNoPaddingContinuousOutputChecker
    # (then UserInputAndContinuousInputOutputChecker: the conflict anchor is the Data's
    # output); mem_layout_conflict_optimizer.cc: SolveOutAnchorConflict (the Identity is
    # inserted after that output and every reader of the Data reads the copy)
    A node with one output is not a no-padding continuous output for the solver
    (mem_layout_conflict_util.cc: IsNoPaddingContinuousOutput, more than one out anchor).
    Named and marked as the conflict solver's other copies (conflicts.py), numbered first;
    returns how many it made (the conflict solver numbers its copies after them).
    """
    if is_support_user_input_nopadding_continuous_output(graph, build_graph_mode):
        return 0
    made = 0
    order = node_order(graph)
    done: set[SSAValue] = set()
    for node in list(graph_nodes(graph)):
        if not (is_nopadding_continuous_output(node) and len(node.results) > 1):
            continue
        src, _ = trace_ref_source(node.operands[0])
        assert isinstance(src, SSAValue)  # no pending copies given: an output of the graph
        data = src.owner
        if not isinstance(data, Operation) or ge_type(data) not in DATA_NODE_TYPES or src in done:
            continue
        done.add(src)
        readers = consumers(src, order)
        first, idx = readers[0]
        # mem_layout_conflict_util.cc: CreateIdentityOpDesc (named after the first peer in-anchor)
        name = f"identity_{idx}_{node_name(first)}_MemLayoutConflict_{made}"
        made += 1
        ident = conflict_identity(src, name, data)
        block = data.parent_block()
        assert block is not None
        block.insert_op_after(ident, data)
        for reader, k in readers:
            reader.operands[k] = ident.results[0]
        if remarks:
            why = "offline build" if build_graph_mode == "offline" else "single-op scene"
            remark(
                node,
                f"inserted Identity '{name}' after graph input {out_name(src)}: its memory would hold the "
                f"pieces of no-padding continuous-output {ge_type(node)} '{node_name(node)}', whose addresses "
                f"the model cannot refresh ({why})",
            )
    return made


# -- graphs with subgraphs -------------------------------------------------------------------


def subgraph_arenas(module: ModuleOp) -> dict[GraphOp, tuple[int, int, int]]:
    """Per planned root graph that calls subgraphs (PartitionedCall, If, Case, While): how
    many arenas its model holds (one per call of a subgraph, nested calls included), and
    its memory_size and memory_lower_bound over the root's and all arenas (each arena
    aligned, appended to the feature map, and a While's cond value in a slot of its own:
    lowering/ge_to_npu.py `arena`, `lower_while`)."""
    graphs = {g.sym_name.data: g for g in module.ops if isinstance(g, GraphOp)}
    called = {c for g in graphs.values() for n in g.body.block.ops for c in called_graph_names(n)}
    out: dict[GraphOp, tuple[int, int, int]] = {}

    def walk(g: GraphOp, stack: tuple[str, ...]) -> tuple[int, int, int]:
        n = 0
        size = align(A.get_int(g, A.MEMORY_SIZE, 0) or 0)
        bound = A.get_int(g, A.MEMORY_LOWER_BOUND, 0) or 0
        for node in g.body.block.ops:
            if isinstance(node, WhileBase) and (cg := graphs.get(node.subgraph_names()[0])) is not None:
                # the cond's value has a slot of its own (ge-to-npu: lower_while)
                slot = align(tensor_desc(cg.net_output.operands[0].type).size_in_bytes or 0)
                size, bound = size + slot, bound + slot
            for c in called_graph_names(node):
                sub = graphs.get(c)
                if sub is None or c in stack or A.get_int(sub, A.MEMORY_SIZE) is None:
                    continue
                k, s2, b2 = walk(sub, (*stack, c))
                n, size, bound = n + 1 + k, size + s2, bound + b2
        return n, size, bound

    for name, g in graphs.items():
        if name not in called and A.get_int(g, A.MEMORY_SIZE) is not None:
            got = walk(g, (name,))
            if got[0]:
                out[g] = got
    return out


# -- the per-graph planner --------------------------------------------------------------------


@dataclass
class _Placement:
    region: str
    offset: int
    why: str


# known_node_executor.cc: KnownNodeTask::UpdateArgs (a known-shape subgraph's inputs and outputs)
_KNOWN_IO = "of the calling PartitionedCall, its address refreshed per execution (not a zero-copy user buffer)"


class GraphPlanner:
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
                f"memory layout conflict left unresolved: {out_name(v)} cannot be at "
                f"{out_name(base)} + {delta} ({why})",
            )
        self.why.setdefault(v, why)

    def layout(self) -> None:
        for node in self.nodes:
            t, name = ge_type(node), node_name(node)
            # graph_utils.cc: GraphUtils::GetRefMapping (ref outputs share the input's symbol)
            for j, r in enumerate(node.results):
                k = ref_input_index(node, j)
                if k is not None and k < len(node.operands) and not is_nopadding_continuous_input(node):
                    self.join(
                        node.operands[k],
                        r,
                        0,
                        node,
                        f"alias of {out_name(node.operands[k])} ({t} output {j} reuses input {k})",
                    )
            if isinstance(node, WhileBase):
                self.layout_while(node, name)
            if is_nopadding_continuous_input(node):
                self.layout_continuous_input(node, t, name)
            elif is_nopadding_continuous_output(node):
                self.layout_continuous_output(node, t, name)

    def layout_while(self, node: WhileBase, name: str) -> None:
        """# graph_utils.cc: GraphUtils::HandleSubgraphInput / HandleSubgraphOutput: a
        # While's output k, its cond's and body's Data k and its body's NetOutput input k
        # are one symbol with its input k: the loop-carried value lives in place (the
        # subgraphs reach it through their input:k / output:k, ge-to-npu)"""
        seen: set[SSAValue] = set()
        for k, (v, r) in enumerate(zip(node.operands, node.results)):
            if v in seen:
                raise LocatedError(
                    node,
                    f"While '{name}' takes {out_name(v)} as two inputs, which cannot both be loop-carried in "
                    "place: run ge-subgraph-pass first (WhileInputNodes copies it)",
                )
            seen.add(v)
            src = v.owner
            if isinstance(src, Operation) and ge_type(src) in IMMUTABLE_OUTPUT_TYPES:
                raise LocatedError(
                    node,
                    f"While '{name}' input {k} is {out_name(v)}, whose buffer the loop cannot write in place "
                    "(a graph input, weight or variable): run ge-subgraph-pass first (it copies it)",
                )
            self.join(v, r, 0, node, f"While '{name}' output {k} is its input {k}, loop-carried in place")

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
        # entry, else base + the raw sizes of the outputs before it. Only a PhonySplit's
        # consumers carry lists for its pieces (CalcPhonySplitNodeOffset); a consumer's list
        # read for a no-task SplitD piece holds another node's slot (or a 0), so a SplitD
        # (ge-split-notask) always takes the raw sizes, as layout_continuous_input does
        # for a no-task concat"""
        src = node.operands[0]
        running = 0
        for j, r in enumerate(node.results):
            piece = nopadding_size(node, r, f"output {j}")
            rel = None
            for c, k in consumers(r, self.order) if t == PHONY_SPLIT else ():
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
        """The memory plan: every symbol (a value with the values that share its memory)
        placed in a fixed region (input, weight, variable), a zero-copy graph output, or
        a feature-map block whose lifetime the allocator packs."""
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
        # known_node_executor.cc: KnownNodeTask::UpdateArgs: a known-shape subgraph's inputs
        # and outputs are its known node's (the calling PartitionedCall's), refreshed every
        # execution (UpdateKnownNodeArgs), not zero-copy user buffers
        self.known = IS_UNKNOWN_SHAPE in self.graph.attributes and not A.get_bool(self.graph, IS_UNKNOWN_SHAPE)
        self.weight_size = self.var_size = 0
        block_of: dict[SSAValue, FmBlock] = {}
        for root, ms in members.items():
            rels = {m: self.sym.find(m)[1] for m in ms}
            if self.place_fixed(ms, rels):
                continue
            if len(ms) == 1 and self.zero_copy_output(ms[0], out_uses):
                self.place_zero_copy_output(ms[0], out_uses[ms[0]][0])
                continue
            block_of[root] = self.lifetime_block(root, ms, rels)
        self.blocks = list(block_of.values())
        self.allocate(self.blocks)
        for root, blk in block_of.items():
            for m in members[root]:
                self.placement[m].offset += blk.offset
        if self.remarks:
            self.reuse_notes(block_of, members)

    def place_fixed(self, ms: list[SSAValue], rels: dict[SSAValue, int]) -> bool:
        """A symbol holding a Data, Const or variable output lives in that node's region:
        the graph input's own buffer (zero-copy), or the weight / variable region, one
        after another, each 512-aligned (our layout of those regions). False: none."""
        immutable = [m for m in ms if ge_type(m.owner) in IMMUTABLE_OUTPUT_TYPES]  # type: ignore[arg-type]
        if not immutable:
            return False
        anchor = immutable[0]
        if len({m.owner for m in immutable}) > 1:
            raise LocatedError(
                immutable[1].owner,  # type: ignore[arg-type]
                f"memory layout conflict left unresolved: {out_name(immutable[0])} and "
                f"{out_name(immutable[1])} would share memory",
            )
        op = anchor.owner
        assert isinstance(op, Operation)
        t = ge_type(op)
        base = rels[anchor]
        extent = max(rels[m] - base + self.size[m] for m in ms)
        if t in DATA_NODE_TYPES:
            k = A.get_int(op, "index", 0)
            region, start = f"input:{k}", 0
            why = f"known-node input {k}: operand {k} {_KNOWN_IO}" if self.known else f"graph input {k} (zero-copy)"
        elif t in CONST_TYPES:
            region, start, self.weight_size = REGION_WEIGHT, self.weight_size, self.weight_size + align(extent)
            why = "weight"
        else:
            region, start, self.var_size = REGION_VAR, self.var_size, self.var_size + align(extent)
            why = "variable"
        for m in ms:
            off = start + rels[m] - base
            if off < start:
                raise LocatedError(
                    m.owner,  # type: ignore[arg-type]
                    f"memory layout conflict left unresolved: {out_name(m)} would lie "
                    f"before {out_name(anchor)} in its {region} region",
                )
            self.placement[m] = _Placement(region, off, self.why.get(m, why))
        return True

    def place_zero_copy_output(self, v: SSAValue, k: int) -> None:
        """NetOutput's input k written straight into the user's output buffer k."""
        why = f"known-node output {k}: result {k} {_KNOWN_IO}" if self.known else f"zero-copy graph output {k}"
        self.placement[v] = _Placement(f"output:{k}", 0, why)

    def lifetime_block(self, root: SSAValue, ms: list[SSAValue], rels: dict[SSAValue, int]) -> FmBlock:
        """The feature-map block of a symbol: its extent over all members and its lifetime
        from the earliest producer to the last reader of any member; each member placed
        at its offset in the block (the block's own offset is added by `plan`)."""
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
        for m in ms:
            self.placement[m] = _Placement(REGION_FM, rels[m] - lo, self.why.get(m, ""))
        # block_mem_assigner.cc: GetBlockSize (blocks are MEM_ALIGN_SIZE-aligned)
        return FmBlock((self.order[root.owner], root.index), align(extent), begin, end)  # type: ignore[index,attr-defined]

    def allocate(self, blocks: list[FmBlock]) -> None:
        """Offsets for the feature-map blocks (allocator.assign_offsets), and with
        solver=exact the CP-SAT plan where it beats the heuristic's."""
        self.memory_size = assign_offsets(blocks, sweep=self.exact is None)
        self.lower_bound = live_lower_bound(blocks)
        self.proven_bound = self.lower_bound
        self.exact_note = ""
        if self.exact is None or self.memory_size <= self.lower_bound:
            return
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
        self.exact_note = (
            f"; exact solver: heuristic {got.heuristic_peak} B, {got.models} models, work {got.work:.3f}, "
            f"{got.searches} searches, {got.nodes} nodes"
        )

    def zero_copy_output(self, v: SSAValue, out_uses: dict[SSAValue, list[int]]) -> bool:
        """A NetOutput input is written straight into the user's output buffer when it feeds
        NetOutput once, is its own symbol (no alias, not a no-padding piece) and is written by
        a task (not a GE-local NoOp type, not a no-task node); otherwise it stays in the
        feature map and ge-to-npu copies it out.

        # compiler/graph/build/memory/block_mem_assigner.cc: zero-copy blocks (is_zero_copy_)
        # for the model outputs; davinci_model.cc: non-zero-copyable outputs are copied after
        # the run (docs/ge/executor.md)
        """
        uses = out_uses.get(v)
        if uses is None or len(uses) != 1:
            return False
        op = v.owner
        assert isinstance(op, Operation)
        return ge_type(op) not in GE_LOCAL_NOOP_TYPES and not A.get_bool(op, A.NO_TASK)

    def reuse_notes(self, block_of: dict[SSAValue, FmBlock], members: dict[SSAValue, list[SSAValue]]) -> None:
        """For the remarks: which earlier block, dead by then, last held this block's offset."""
        last_at: dict[int, tuple[int, SSAValue]] = {}
        for root, blk in sorted(block_of.items(), key=lambda kv: (kv[1].begin, kv[1].key)):
            prev = last_at.get(blk.offset)
            note = "new block"
            if prev is not None and prev[0] < blk.begin:
                note = f"reused block of {out_name(prev[1])}"
            last_at[blk.offset] = (blk.end, root)
            p = self.placement[root]
            p.why = f"{p.why}; {note}" if p.why else note

    # -- results --

    def write(self) -> None:
        for node in self.nodes:
            if node.results:
                ps = [self.placement[r] for r in node.results]
                node.attributes[A.OUTPUT_OFFSET] = _int_list_attr(tuple(p.offset for p in ps))
                node.attributes[A.OUTPUT_REGION] = _str_list_attr(tuple(p.region for p in ps))
                node.attributes[A.OUTPUT_SIZE] = _int_list_attr(tuple(self.size[r] for r in node.results))
                if self.remarks:
                    for r, p in zip(node.results, ps):
                        remark(
                            node,
                            f"{out_name(r)} -> {p.region} [{p.offset}, {p.offset + self.size[r]}): {p.why}",
                        )
            if node.operands:
                node.attributes[A.INPUT_OFFSET] = _int_list_attr(tuple(self.placement[v].offset for v in node.operands))
        g = self.graph
        A.set_int(g, A.MEMORY_SIZE, self.memory_size)
        A.set_int(g, A.MEMORY_LOWER_BOUND, self.lower_bound)
        A.set_int(g, A.MEMORY_PROVEN_BOUND, self.proven_bound)
        A.set_int(g, A.WEIGHT_SIZE, self.weight_size)
        if self.var_size:
            A.set_int(g, A.VAR_SIZE, self.var_size)
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
       after a graph input whose memory would hold the pieces of a no-padding continuous
       output of several outputs (no-task SplitD/SplitVD, PhonySplit) when the model cannot
       refresh their addresses: `build-graph-mode=offline` (GE's ATC build) or a
       `_single_op_scene` graph; `online` (the default, GE's when the option is unset) keeps
       the pieces in the input's memory. Then one is inserted
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
       `_input_offset_list_for_continuous` entry (or the raw sizes before it), a no-task
       SplitD/SplitVD (ge-split-notask) at its input + the raw sizes before it.
    4. Regions: a symbol holding a Data output lives in `input:<index>`, a Const in
       `weight`, a Variable in `var`; a NetOutput input that is its own symbol, feeds
       NetOutput once and is written by a task lives in `output:<k>` (zero-copy); every
       other symbol is one 512-aligned feature-map block alive from its first producer to
       its last reader, placed by an interval allocator (best fit largest first, or a time
       sweep's beam search when best fit stays above the lower bound: `assign_offsets`).
    Writes `output_offset`, `output_region`, `output_size` on every node with outputs,
    `input_offset` on every node with inputs, and `memory_size` (the arena's peak),
    `memory_lower_bound` (the most bytes alive at one node), `weight_size` on the graph.
    5. `solver=exact` (the default): when the arena is above the lower bound, the
       planner's own searches (passes/memory/search.py: a skyline branch and bound and a
       dive, under a node limit) and CP-SAT improve the plan on the same blocks
       (passes/memory/exact.py: the heuristic plan as the start, a fixed seed, at most
       `solver-work-limit` of CP-SAT's deterministic time per graph, the better plan
       kept); `solver=heuristic` stops after step 4.
       `memory_proven_bound` is a proven lower bound on any 512-aligned plan of the
       blocks (the lower bound, or what the solver proved); the plan is optimal when
       memory_size equals it.
    With `remarks`, every output says where it went and why, and each graph its summary.
    """

    name = "ge-assign-memory"

    remarks: bool = False
    solver: str = "exact"
    solver_work_limit: float = 0.5
    build_graph_mode: str = "online"

    OPTIONS: ClassVar[dict[str, Option]] = {
        "remarks": REMARKS,
        "solver": Option(
            "heuristic: the interval allocator only; exact: then the own searches and CP-SAT improve "
            "the plan when it is above the lower bound (passes/memory/exact.py)",
            OneOf(("heuristic", "exact")),
        ),
        "solver_work_limit": Option(
            "with solver=exact, at most this much of CP-SAT's deterministic time per graph", AtLeast(0.0, "a number")
        ),
        "build_graph_mode": Option(
            "online (GE's default) keeps a no-padding split of a graph input in the input's memory; "
            "offline (GE's ATC build) copies the input first (an Identity)",
            OneOf(BUILD_GRAPH_MODES),
        ),
    }

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        exact = ExactOptions(work_limit=self.solver_work_limit) if self.solver == "exact" else None
        for graph in graphs_to_compile(op, self.name, self.remarks, "no memory plan: memory is allocated at run time"):
            check_static(graph)
            made = solve_user_input_nopadding_output(graph, self.build_graph_mode, self.remarks)
            solve_mem_layout_conflicts(graph, self.remarks, first_index=made)
            recompute_phony_offsets(graph, node_order(graph))
            planner = GraphPlanner(graph, self.remarks, exact)
            planner.plan()
            planner.write()
        if self.remarks:
            for root, (n, size, bound) in subgraph_arenas(op).items():
                remark(
                    root,
                    f"graph @{root.sym_name.data} with its {n} subgraph arena(s): memory_size {size} B, "
                    f"memory_lower_bound {bound} B (each subgraph called runs in its own arena, appended to "
                    "the feature map by ge-to-npu: the model's figures)",
                )
