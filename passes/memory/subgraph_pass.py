"""ge-subgraph-pass: GE's SubgraphPass (copies where memory shared across a subgraph border
would conflict).

Port of ``compiler/graph/passes/memory_conflict/subgraph_pass.cc`` (hicann/ge), which
GraphManager runs in OptimizeStage2 (ControlAttrOptimize) right before LabelAllocator. Memory
is shared across subgraph borders (GraphUtils::HandleSubgraphInput / HandleSubgraphOutput,
ge-assign-memory): a subgraph's Data is the buffer feeding its parent's input, its
NetOutput's input k is the parent's output k, and a While's output k is its input k (the
loop-carried value lives in place). Where that sharing would break a value, GE inserts a
copy, an Identity marked `_cannot_be_deleted` (the rts engine's MemcpyAsync), rule by rule
(SubgraphPass::Run, per graph, node by node):

1. a subgraph Data read by a node that needs continuous input: an Identity after the Data
   (SubgraphInputNode: `<data>_output_0_Memcpy`);
2. a subgraph Data of a While fed by a Const: an Identity between the Const and the While
   (SubgraphInputNode: `<while>_input_<i>_Memcpy`; the loop writes its inputs in place);
3. a subgraph NetOutput input fed by a Const, by an atomic output, by a continuous output,
   or by a Data when the parent is not a While (the parent's output cannot be those
   buffers): an Identity before it (SubgraphOutputNode: `<netoutput>_input_<i>_Memcpy`);
4. a While input whose producer feeds other nodes too (a variable excepted): an Identity
   before the While (WhileInputNodes: `<while>_input_<i>_Memcpy`), so the loop does not
   overwrite what they read;
5. a While body: copies of its Data nodes at its head (`<body>_input_Memcpy`) and of its
   NetOutput inputs at its tail (`<body>_output_Memcpy`), except a Data passed straight to
   the NetOutput input of its own index (WhileBodySubgraph, CheckInsertInputMemcpy,
   InsertInputMemcpy, InsertOutputMemcpy): every iteration reads all loop-carried values
   before it writes any of them;
6. an If or Case in a known graph: a branch's NetOutput fed twice by one node gets an
   Identity on the second input (SeparateOutputsAddrOfCondSubgraph:
   `<node>_output_<i>_Memcpy`), so each output of the parent has its own buffer.

Ours, beyond GE: GE builds rule 5's copies as one Identity of many inputs; the ge dialect's
Identity is unary, so each value gets its own (`<body>_input_Memcpy_<k>`,
`<body>_output_Memcpy_<k>`), the same copies. A While input fed by a Data also gets rule 4's copy: the loop
would otherwise write in place the user's input buffer (a root graph's Data) or its
parent's (a subgraph's); GE leaves the user's buffer to its memory-layout conflict solver,
whose user-input rules are not ported. Unknown-shape graphs are skipped, as GE skips them (they run on the host).
`remarks` prints one line per copy, with its rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.ge import PARENT_NODE_INDEX, CaseBase, ControlOp, Data, GraphOp, IfBase, NetOutput, WhileBase
from ge_dialect.graph import graphs_to_compile
from ge_dialect.names import ge_type, name_nodes, node_name
from ge_dialect.node_types import CONST_TYPES, DATA_NODE_TYPES, VARIABLE_TYPES
from ge_dialect.pass_options import REMARKS, Option
from passes.memory.conflicts import conflict_identity

INSERTED_BY = "ge-subgraph-pass"


def subgraph_parents(module: ModuleOp) -> dict[str, list[tuple[ControlOp, int]]]:
    """Subgraph symbol -> (control node, subgraph index) of each node calling it."""
    out: dict[str, list[tuple[ControlOp, int]]] = {}
    for g in module.ops:
        if not isinstance(g, GraphOp):
            continue
        for op in g.body.block.ops:
            if isinstance(op, ControlOp):
                for i, name in enumerate(op.subgraph_names()):
                    out.setdefault(name, []).append((op, i))
    return out


def _needs_continuous_input(node: Operation) -> bool:
    # subgraph_pass.cc: IsInputContinuesRequired (continuous_input or no-padding continuous input)
    return A.get_bool(node, A.CONTINUOUS_INPUT) or A.get_bool(node, A.NOPADDING_CONTINUOUS_INPUT)


def _is_atomic_output(node: Operation, index: int) -> bool:
    # subgraph_pass.cc: IsAtomicRequired (the output is in atomic_output_index)
    return index in (A.get_int_list(node, A.ATOMIC_OUTPUT_INDEX) or [])


def _is_continuous_output(node: Operation) -> bool:
    # subgraph_pass.cc: IsOutputContinuesRequired (continuous_output or no-padding continuous output)
    return A.get_bool(node, A.CONTINUOUS_OUTPUT) or A.get_bool(node, A.NOPADDING_CONTINUOUS_OUTPUT)


@dataclass
class _Copies:
    remarks: bool
    made: int = 0

    def insert(self, v: SSAValue, uses: list[tuple[Operation, int]], name: str, before: Operation, why: str) -> None:
        """An Identity of `v` right before `before`, read by `uses` instead of `v`.

        # subgraph_pass.cc: SubgraphPass::InsertMemcpyNode (IDENTITY, _cannot_be_deleted)
        """
        ident = conflict_identity(v, name, before)
        ident.attributes[A.INSERTED_BY] = StringAttr(INSERTED_BY)
        block = before.parent_block()
        assert block is not None
        block.insert_op_before(ident, before)
        for op, k in uses:
            op.operands[k] = ident.results[0]
        self.made += 1
        if self.remarks:
            remark(
                ident,
                f"{INSERTED_BY}: inserted Identity '{name}' (MemcpyAsync): {why}",
                pass_name=INSERTED_BY,
                verdict="inserted",
            )


@dataclass(frozen=True)
class SubgraphPass(ModulePass):
    """Inserts GE's SubgraphPass copies at subgraph borders (module doc)."""

    name = "ge-subgraph-pass"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        parents = subgraph_parents(op)
        copies = _Copies(self.remarks)
        for graph in graphs_to_compile(op, self.name, self.remarks, "no copies: its control flow runs on the host"):
            name_nodes(graph.body.block)
            owner = parents.get(graph.sym_name.data, [])
            for node in list(graph.body.block.ops):
                if owner and isinstance(node, Data):
                    self.subgraph_input(node, owner, copies)
                elif owner and isinstance(node, NetOutput):
                    self.subgraph_output(graph, node, owner, copies)
                elif isinstance(node, WhileBase):
                    self.while_inputs(node, copies)
                    self.while_body(node.subgraph(1), copies)
                elif isinstance(node, IfBase | CaseBase):
                    self.separate_outputs(node, copies)
            name_nodes(graph.body.block)

    @staticmethod
    def subgraph_input(data: Data, owner: list[tuple[ControlOp, int]], copies: _Copies) -> None:
        # subgraph_pass.cc: SubgraphPass::SubgraphInputNode
        v = data.results[0]
        uses = [(u.operation, u.index) for u in v.uses]
        if any(_needs_continuous_input(op) for op, _ in uses):
            first = min((op for op, _ in uses), key=lambda o: o.parent_block().get_operation_index(o))  # type: ignore[union-attr]
            copies.insert(
                v, uses, f"{node_name(data)}_output_0_Memcpy", first,
                f"subgraph Data '{node_name(data)}' is read by a node that needs continuous input (SubgraphInputNode)",
            )  # fmt: skip
        p = data.int_attr(PARENT_NODE_INDEX)
        for parent, _ in owner:
            if not isinstance(parent, WhileBase) or p is None or p >= len(parent.operands):
                continue
            src = parent.operands[p]
            prod = src.owner
            if isinstance(prod, Operation) and ge_type(prod) in CONST_TYPES:
                copies.insert(
                    src, [(parent, p)], f"{node_name(parent)}_input_{p}_Memcpy", parent,
                    f"Const '{node_name(prod)}' feeds While '{node_name(parent)}' input {p}, which the loop "
                    "writes in place (SubgraphInputNode)",
                )  # fmt: skip

    @staticmethod
    def subgraph_output(graph: GraphOp, net: NetOutput, owner: list[tuple[ControlOp, int]], copies: _Copies) -> None:
        # subgraph_pass.cc: SubgraphPass::SubgraphOutputNode
        while_parent = all(isinstance(p, WhileBase) for p, _ in owner)
        for i, v in enumerate(list(net.operands)):
            prod = v.owner
            if not isinstance(prod, Operation):
                continue
            t = ge_type(prod)
            idx: int = v.index  # type: ignore[attr-defined]
            why = None
            if t in CONST_TYPES:
                why = f"Const '{node_name(prod)}' feeds the subgraph's output {i} (a weight is no output buffer)"
            elif _is_atomic_output(prod, idx):
                why = f"atomic output {idx} of {t} '{node_name(prod)}' feeds the subgraph's output {i}"
            elif _is_continuous_output(prod):
                why = f"continuous output {idx} of {t} '{node_name(prod)}' feeds the subgraph's output {i}"
            elif t in DATA_NODE_TYPES and not while_parent:
                why = (
                    f"Data '{node_name(prod)}' feeds the subgraph's output {i} and the parent is not a While "
                    "(its input and output are different buffers)"
                )
            if why is not None:
                copies.insert(v, [(net, i)], f"{node_name(net)}_input_{i}_Memcpy", net, f"{why} (SubgraphOutputNode)")

    @staticmethod
    def while_inputs(node: WhileBase, copies: _Copies) -> None:
        # subgraph_pass.cc: SubgraphPass::WhileInputNodes
        for i, v in enumerate(list(node.operands)):
            prod = v.owner
            if not isinstance(prod, Operation) or ge_type(prod) in VARIABLE_TYPES:
                continue  # OpTypeUtils::IsVarLikeNode
            readers = sum(1 for _ in v.uses)
            if readers > 1:
                why = f"{out_desc(v)} feeds While '{node_name(node)}' input {i} and {readers - 1} other input(s)"
            elif ge_type(prod) in DATA_NODE_TYPES:
                # ours: the loop would write in place the user's input buffer (a root graph's
                # Data) or the parent's input buffer (a subgraph's Data)
                why = (
                    f"Data '{node_name(prod)}' feeds While '{node_name(node)}' input {i} (ours: the loop would "
                    "write that input's buffer in place)"
                )
            else:
                continue
            copies.insert(v, [(node, i)], f"{node_name(node)}_input_{i}_Memcpy", node, f"{why} (WhileInputNodes)")

    @staticmethod
    def while_body(body: GraphOp, copies: _Copies) -> None:
        # subgraph_pass.cc: SubgraphPass::WhileBodySubgraph, CheckInsertInputMemcpy
        if any(A.INSERTED_BY in n.attributes and node_name(n).startswith(f"{body.sym_name.data}_input_Memcpy")
               for n in body.body.block.ops):  # fmt: skip
            return  # a body shared by two Whiles is copied once
        net = body.net_output
        outs = A.get_int_list(net, PARENT_NODE_INDEX) or list(range(len(net.operands)))
        bypass: set[int] = set()
        datas: list[Operation] = []
        for d in body.data_nodes:
            v = d.results[0]
            uses = list(v.uses)
            p = A.get_int(d, PARENT_NODE_INDEX)
            if len(uses) == 1 and uses[0].operation is net and p is not None and outs[uses[0].index] == p:
                bypass.add(uses[0].index)
                continue
            datas.append(d)
        gname = body.sym_name.data
        first = next(n for n in body.body.block.ops if not isinstance(n, Data))
        for k, d in enumerate(datas):
            v = d.results[0]
            uses = [(u.operation, u.index) for u in v.uses]
            if uses:
                copies.insert(
                    v, uses, f"{gname}_input_Memcpy_{k}", first,
                    f"While body @{gname} reads loop-carried '{node_name(d)}' from a copy: the iteration writes "
                    "the loop-carried values in place at its end (WhileBodySubgraph: InsertInputMemcpy)",
                )  # fmt: skip
        k = 0
        for i, v in enumerate(list(net.operands)):
            if i in bypass:
                continue
            copies.insert(
                v, [(net, i)], f"{gname}_output_Memcpy_{k}", net,
                f"While body @{gname} writes loop-carried output {i} in place after every value of the "
                "iteration is computed (WhileBodySubgraph: InsertOutputMemcpy)",
            )  # fmt: skip
            k += 1

    @staticmethod
    def separate_outputs(node: ControlOp, copies: _Copies) -> None:
        # subgraph_pass.cc: SubgraphPass::SeparateOutputsAddrOfCondSubgraph
        for i in range(len(node.subgraph_refs())):
            net = node.subgraph(i).net_output
            seen: set[Operation] = set()
            for k, v in enumerate(list(net.operands)):
                prod = v.owner
                if not isinstance(prod, Operation):
                    continue
                if prod in seen:
                    copies.insert(
                        v, [(net, k)], f"{node_name(prod)}_output_{k}_Memcpy", net,
                        f"{ge_type(prod)} '{node_name(prod)}' feeds two outputs of {ge_type(node)} "
                        f"'{node_name(node)}''s branch @{node.subgraph(i).sym_name.data}: each output has its "
                        "own buffer (SeparateOutputsAddrOfCondSubgraph)",
                    )  # fmt: skip
                seen.add(prod)


def out_desc(v: SSAValue) -> str:
    prod = v.owner
    assert isinstance(prod, Operation)
    return f"{ge_type(prod)} '{node_name(prod)}' output {v.index}"  # type: ignore[attr-defined]
