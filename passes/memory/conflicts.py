"""GE's memory-layout conflict solver: an Identity copy where two layout constraints on one
memory symbol cannot both hold (compiler/graph/optimize/mem_layout_conflict_optimize/:
mem_layout_conflict_optimizer.cc, mem_layout_conflict_util.cc), run by ge-assign-memory
before it plans: as GE's Process does, the whole graph is checked first (find_conflict_nodes:
which anchor keeps each memory symbol depends on every anchor before it), then each
conflicting node gets its copies from one application of the SolveInAnchorConflict pattern
(a PatternRewriteWalker sweep). Also the anchor classification it and the planner both read: GE's
continuous memory types (GetContinuousMemoryType), the ref mapping (GetRefMapping) and the
immutable-address outputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint

from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.ge import GraphOp, Identity, ge_type, node_name
from ge_dialect.graph import graph_nodes
from ge_dialect.node_types import CONST_TYPES, DATA_NODE_TYPES, VARIABLE_TYPES
from passes.notask.phony import KEEP_INPUT_OFFSET, PHONY_CONCAT, reset_offset_slot

# -- node classification ----------------------------------------------------------------------


# Data, Const and Variable nodes are GE's immutable-address outputs
# (ANCHOR_ATTR_IMMUTABLE_ADDRESS_OUTPUT, mem_layout_conflict_util.cc: MarkOutTypes).
IMMUTABLE_OUTPUT_TYPES = DATA_NODE_TYPES | CONST_TYPES | VARIABLE_TYPES


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


def out_name(v: SSAValue) -> str:
    op = v.owner
    assert isinstance(op, Operation)
    return f"'{node_name(op)}':{v.index}"  # type: ignore[attr-defined]


# -- the conflict solver: Identity insertion --------------------------------------------------


@dataclass(frozen=True)
class _PendingCopy:
    """The output of an Identity the analysis has decided to insert before input `index` of
    `node`: a symbol of its own, which ref chains traced later reach instead of the input."""

    node: Operation
    index: int
    name: str


# A memory symbol: a ref-traced source output, or the output of a copy decided earlier.
_Symbol = SSAValue | _PendingCopy


def trace_ref_source(
    value: SSAValue, copies: dict[tuple[Operation, int], _PendingCopy] | None = None
) -> tuple[_Symbol, bool]:
    """Follow ref nodes (reshape family, Reshape) back to the output that owns the memory;
    returns it and whether the value was reached directly (no ref node in between). On the
    graph as it is once the `copies` decided so far are in: a chain through an input that
    gets a copy ends at the copy (an Identity is no ref node).

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
        direct = False
        if copies and (copy := copies.get((op, idx))) is not None:
            return copy, direct
        value = op.operands[idx]


def _symbol_name(sym: _Symbol) -> str:
    return f"'{sym.name}':0" if isinstance(sym, _PendingCopy) else out_name(sym)


def _symbol_producer(sym: _Symbol) -> Operation | None:
    """The node writing the symbol; None for a copy not inserted yet (an Identity: neither
    an immutable-address output nor a no-padding node)."""
    if isinstance(sym, _PendingCopy):
        return None
    op = sym.owner
    assert isinstance(op, Operation)
    return op


@dataclass(frozen=True)
class InAnchorConflict:
    """An in-anchor in conflict: an Identity named `name` goes before input `index` of `node`."""

    node: Operation
    index: int
    name: str
    why: str


@dataclass
class _ConflictFinder:
    """One graph's conflict check over its no-padding anchors, in node order: the first
    anchor on a memory symbol keeps it, every later one that cannot share it gets a copy.

    # mem_layout_conflict_optimizer.cc: MemLayoutConflictOptimizer::Process (GetRefMapping,
    # MarkAllAttribute, FindConflictNodes per symbol; SolveConflict comes after)
    """

    graph: GraphOp
    first_index: int = 0  # the number of the first copy (copies already made in this graph)
    conflicts: list[InAnchorConflict] = field(default_factory=list)
    # symbol -> ("in" | "out", node)
    claims: dict[_Symbol, tuple[str, Operation]] = field(default_factory=dict)
    copies: dict[tuple[Operation, int], _PendingCopy] = field(default_factory=dict)

    def conflict(self, node: Operation, idx: int, why: str) -> None:
        """# mem_layout_conflict_util.cc: MemLayoutConflictUtil::CreateIdentityOpDesc (the
        # name; ours numbers the copies of one graph in the order they are found)"""
        name = f"identity_{idx}_{node_name(node)}_MemLayoutConflict_{self.first_index + len(self.conflicts)}"
        self.conflicts.append(InAnchorConflict(node, idx, name, why))
        self.copies[(node, idx)] = _PendingCopy(node, idx, name)

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
            src, _ = trace_ref_source(node.operands[i], self.copies)
            prod = _symbol_producer(src)
            ptype = ge_type(prod) if prod is not None else "Identity"
            claim = self.claims.get(src)
            if ptype in IMMUTABLE_OUTPUT_TYPES and not same_anchor:
                # immutable_out_and_nopadding_continuous_in_checker.cc:
                # ImmutableOutputAndNoPaddingContinuousInputChecker
                self.conflict(
                    node, i,
                    f"immutable-address output {_symbol_name(src)} ({ptype}) feeds a no-padding "
                    "continuous input",
                )  # fmt: skip
            elif prod is not None and is_nopadding_continuous_output(prod):
                # mem_layout_conflict_util.cc: FindConflictNodes (NoPaddingContinuousOutput x
                # NoPaddingContinuousInput)
                self.conflict(
                    node, i,
                    f"output of no-padding continuous-output {ptype} '{node_name(prod)}' feeds "
                    "a no-padding continuous input",
                )  # fmt: skip
            elif claim is not None and not (claim == ("in", node) and same_anchor):
                # mem_layout_conflict_util.cc: FindConflictNodes (two no-padding continuous
                # inputs, or a no-padding input and output, on one symbol: every anchor but
                # the first gets a copy)
                if claim[1] is node:
                    why = f"{_symbol_name(src)} feeds an earlier input of the same node"
                else:
                    kind = "input" if claim[0] == "in" else "output"
                    why = (
                        f"{_symbol_name(src)} already feeds no-padding continuous-{kind} "
                        f"{ge_type(claim[1])} '{node_name(claim[1])}'"
                    )
                self.conflict(node, i, why)
            else:
                self.claims[src] = ("in", node)

    def check_output_node(self, node: Operation) -> None:
        """The in-anchor 0 of a no-padding continuous-output node."""
        src, direct = trace_ref_source(node.operands[0], self.copies)
        prod = _symbol_producer(src)
        claim = self.claims.get(src)
        if prod is not None and is_nopadding_continuous_output(prod):
            # mem_layout_conflict_util.cc: FindConflictNodes (NoPaddingContinuousOutput chained)
            self.conflict(
                node, 0,
                f"no-padding continuous-output {ge_type(prod)} '{node_name(prod)}' feeds "
                "another no-padding continuous-output node",
            )  # fmt: skip
        elif prod is not None and is_nopadding_continuous_input(prod) and not direct:
            # mem_layout_conflict_util.cc: FindConflictNodes (input node meets output node;
            # only PhonyConcat output 0 -> PhonySplit input 0 directly is allowed)
            self.conflict(
                node, 0,
                f"no-padding continuous-input {ge_type(prod)} '{node_name(prod)}' reaches it "
                "through a ref node",
            )  # fmt: skip
        elif claim is not None and claim[0] == "in":
            self.conflict(
                node, 0,
                f"{_symbol_name(src)} is also a piece of no-padding continuous-input "
                f"{ge_type(claim[1])} '{node_name(claim[1])}'",
            )  # fmt: skip
        else:
            self.claims.setdefault(src, ("out", node))

    def run(self) -> list[InAnchorConflict]:
        for node in graph_nodes(self.graph):
            if is_nopadding_continuous_input(node):
                self.check_input_node(node)
            elif is_nopadding_continuous_output(node):
                self.check_output_node(node)
        return self.conflicts


def find_conflict_nodes(graph: GraphOp, first_index: int = 0) -> list[InAnchorConflict]:
    """The in-anchors of `graph` that need an Identity copy, in node then input order.

    # mem_layout_conflict_util.cc: MemLayoutConflictUtil::FindConflictNodes (over every
    # symbol of GetRefMapping)
    A whole-graph analysis: which anchor keeps a symbol depends on every anchor before it.
    """
    return _ConflictFinder(graph, first_index).run()


def conflict_identity(v: SSAValue, name: str, near: Operation) -> Identity:
    """A copy of `v` named `name` (not yet in a block), located at `near`.

    # mem_layout_conflict_util.cc: CreateIdentityOpDesc, then SetNotDeleteAttr (IdentityPass
    # keeps it)
    """
    ident = Identity.create(
        operands=[v],
        result_types=[v.type],
        attributes={
            A.NODE_NAME: StringAttr(name),
            "no_need_constant_folding": A.bool_attr(False),
            A.CANNOT_BE_DELETED: A.bool_attr(True),
            A.INSERTED_BY: StringAttr("ge-assign-memory"),
        },
    )
    ident.location = near.location
    ident.results[0].name_hint = name
    return ident


@dataclass
class SolveInAnchorConflict(RewritePattern):
    """An Identity before each conflicting in-anchor of the matched node (the conflicts
    from find_conflict_nodes, given to the constructor).

    # mem_layout_conflict_optimizer.cc: MemLayoutConflictOptimizer::SolveInAnchorConflict
    # (an Identity made by MemLayoutConflictUtil::CreateIdentityOpDesc, marked
    # _cannot_be_deleted, inserted before the in-anchor: GraphUtils::InsertNodeBefore)
    """

    conflicts: dict[Operation, list[InAnchorConflict]]
    remarks: bool

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for c in self.conflicts.get(op, ()):
            self.insert_identity(c, rewriter)

    def insert_identity(self, c: InAnchorConflict, rewriter: PatternRewriter) -> None:
        node, idx, name = c.node, c.index, c.name
        v = node.operands[idx]
        ident = conflict_identity(v, name, node)
        rewriter.insert(ident, InsertPoint.before(node))
        node.operands[idx] = ident.results[0]
        rewriter.notify_op_modified(node)
        # Ours: the pairs (node, idx) and (v's producer, v's index) are gone, so are their
        # offset slots (notask.phony.OffsetSlots); the new pairs get theirs when the
        # lists are computed on the solved graph.
        reset_offset_slot(node, A.INPUT_OFFSET_LIST_FOR_CONTINUOUS, idx)
        prod = v.owner
        if isinstance(prod, Operation) and not any(ge_type(u.operation) == PHONY_CONCAT for u in v.uses):
            reset_offset_slot(prod, A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS, v.index)  # type: ignore[attr-defined]
        if self.remarks:
            remark(
                node,
                f"inserted Identity '{name}' before input {idx} of {ge_type(node)} "
                f"'{node_name(node)}' (reads {out_name(v)}): {c.why}",
            )


def solve_mem_layout_conflicts(graph: GraphOp, remarks: bool, first_index: int = 0) -> list[InAnchorConflict]:
    """Find the graph's conflicts, then insert their Identities (one pattern application
    per node, in node order); returns the conflicts.

    # mem_layout_conflict_optimizer.cc: MemLayoutConflictOptimizer::Process
    """
    conflicts = find_conflict_nodes(graph, first_index)
    by_node: dict[Operation, list[InAnchorConflict]] = {}
    for c in conflicts:
        by_node.setdefault(c.node, []).append(c)
    if by_node:
        walker = PatternRewriteWalker(SolveInAnchorConflict(by_node, remarks), apply_recursively=False)
        walker.rewrite_region(graph.body)
    return conflicts
