"""ge-for-pass: GE's ForPass (a For becomes a While over its loop counter).

Port of ``compiler/graph/passes/control_flow_and_stream/for_pass.cc`` (hicann/ge), which
GraphPrepare runs as GraphEquivalentTransformation (``ForToWhilePass``) before the other
preparation passes. For(start, limit, delta, x...) {body} becomes

    i      = Const 0 (int32) -> Identity          (ForPass::TranWhileInfo: <for>_i, <for>_i_Identity)
    |delta|, |limit - start|                       (CreateLoopInput: <for>_Abs_0, <for>_Sub_0, <for>_Abs_1)
    While(i, |delta|, |limit - start|, start, delta, x...) {cond = @<body>_Cond, body = @<body>_Body}

whose outputs 5.. replace the For's (BuildWhileLink, kWhileOutputIndex = 5), and two new
subgraphs (BuildCondGraph, BuildBodyGraph):

    @<body>_Cond: Less(Mul(i, |delta|), |limit - start|)        -- loop while i * |delta| < |limit - start|
    @<body>_Body: (i + 1, |delta|, |limit - start|, start, delta,
                   PartitionedCall(start + i * delta, x...) {f = @<body>})

The For's body keeps its nodes; its Data nodes' parent indices follow its new caller, the
PartitionedCall (UpdateForBodyInputMapping: the loop variable stays 0, loop input k + 2
becomes k). CondPass then casts the Less to int32 (ge-compile runs ge-for-pass first, as
GraphPrepare does). The trip count is ceil(|limit - start| / |delta|) whatever delta's
sign (GE's rule: a delta of the wrong sign still loops, unlike Python's range); a delta
of 0 never ends. `remarks` prints one line per For rewritten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, ModuleOp, StringAttr, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.ge import (
    PARENT_NODE_INDEX,
    Abs,
    Add,
    Const,
    Data,
    For,
    GraphOp,
    Identity,
    Less,
    Mul,
    NetOutput,
    PartitionedCall,
    Sub,
    While,
)
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.names import name_nodes, node_name
from ge_dialect.pass_options import REMARKS, Option

# for_pass.cc: kWhileDataInputIndex (i, |delta|, range, start, delta come first)
WHILE_DATA_INPUT_INDEX = 5
# for_pass.cc: kIDiffValue (For body loop input k + 2 -> PartitionedCall input k)
I_DIFF_VALUE = 2


def _i32() -> TensorType[IntegerType]:
    return TensorType(IntegerType(32), [])


def _const_i32(value: int, name: str) -> Const:
    # for_pass.cc: ForPass::CreateConstDesc (a 0-d DT_INT32 Const)
    dense = DenseIntOrFPElementsAttr.from_list(_i32(), [value])
    return Const.build(name=name, value=dense)


def _datas(types: Sequence[Attribute]) -> list[Data]:
    """Data nodes 0.. standing for the While's inputs 0.. (the input mapping i -> i)."""
    return [
        Data.create(result_types=[t], attributes={"index": A.make_int(k), PARENT_NODE_INDEX: A.make_int(k)})
        for k, t in enumerate(types)
    ]


def _graph(name: str, ops: Sequence[Operation]) -> GraphOp:
    block = Block()
    block.add_ops(ops)
    g = GraphOp(name, Region([block]))
    name_nodes(block)
    return g


def _name(op: Operation, name: str) -> None:
    if SSAValue.is_valid_name(name):
        op.results[0].name_hint = name
    else:
        op.attributes[A.NODE_NAME] = StringAttr(name)


def _unique(name: str, taken: set[str]) -> str:
    out, k = name, 0
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


@dataclass(frozen=True)
class ForPass(ModulePass):
    """Turns every For into a While over its counter, as GE's ForPass (module doc)."""

    name = "ge-for-pass"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        taken = {g.sym_name.data for g in op.ops if isinstance(g, GraphOp)}
        for graph in graphs_in_pass_order(op):
            name_nodes(graph.body.block)
            for node in list(graph.body.block.ops):
                if isinstance(node, For):
                    self._rewrite(op, node, taken)

    def _rewrite(self, module: ModuleOp, node: For, taken: set[str]) -> None:
        for_name = node_name(node)
        body = node.subgraph(0)
        body_name = body.sym_name.data
        start, limit, delta = node.operands[:3]
        data_inputs = list(node.operands[3:])
        # ForPass::TranWhileInfo / CreateLoopInput, in the For's graph before it
        i_const = _const_i32(0, f"{for_name}_i")
        i_identity = Identity.build(i_const, name=f"{for_name}_i_Identity")
        abs_delta = Abs.build(delta, name=f"{for_name}_Abs_0")
        span = Sub.build(limit, start, name=f"{for_name}_Sub_0")
        loop_count = Abs.build(span, name=f"{for_name}_Abs_1")
        while_ins = [i_identity, abs_delta, loop_count, start, delta, *data_inputs]
        cond_name = _unique(f"{body_name}_Cond", taken)
        new_body_name = _unique(f"{body_name}_Body", taken)
        types = [SSAValue.get(v).type for v in while_ins]
        loop = While.create(
            operands=[SSAValue.get(v) for v in while_ins],
            result_types=types,
            attributes={"cond": SymbolRefAttr(cond_name), "body": SymbolRefAttr(new_body_name)},
        )
        _name(loop, f"{for_name}_While")
        for new in (i_const, i_identity, abs_delta, span, loop_count, loop):
            new.location = node.location  # errors and remarks about them point at the For
            Rewriter.insert_op(new, InsertPoint.before(node))

        # ForPass::BuildCondGraph: Less(Mul(i, |delta|), range)
        cd = _datas(types)
        mul = Mul.build(cd[0], cd[1], name="Mul")
        less = Less.build(mul, cd[2], name="Less", dtype=IntegerType(1))
        cond = _graph(cond_name, [*cd, mul, less, NetOutput.create(operands=[less.results[0]])])

        # ForPass::BuildBodyGraph: i + 1, the loop invariants, the body called on start + i * delta
        bd = _datas(types)
        one = _const_i32(1, "Const")
        add0 = Add.build(bd[0], one, name="Add_0")
        bmul = Mul.build(bd[0], bd[4], name="Mul")
        add1 = Add.build(bd[3], bmul, name="Add_1")
        call = PartitionedCall.create(
            operands=[add1.results[0], *(d.results[0] for d in bd[WHILE_DATA_INPUT_INDEX:])],
            result_types=[r.type for r in node.results],
            attributes={"f": SymbolRefAttr(body_name)},
        )
        _name(call, body_name)
        outs = [add0.results[0], *(d.results[0] for d in bd[1:WHILE_DATA_INPUT_INDEX]), *call.results]
        net = NetOutput.create(operands=outs, attributes={PARENT_NODE_INDEX: A.int_list_attr(range(len(outs)))})
        new_body = _graph(new_body_name, [*bd, one, add0, bmul, add1, call, net])

        # ForPass::UpdateForBodyInputMapping: loop variable 0 -> 0, loop input k + 2 -> k
        for d in body.data_nodes:
            p = d.int_attr(PARENT_NODE_INDEX)
            if p is not None and p > 0:
                d.attributes[PARENT_NODE_INDEX] = A.make_int(p - I_DIFF_VALUE)

        if self.remarks:
            remark(
                node,
                f"{self.name}: For '{for_name}' became While '{for_name}_While' over (i, |delta|, |limit - start|, "
                f"start, delta, {len(data_inputs)} loop inputs): cond @{cond_name} (i * |delta| < |limit - start|), "
                f"body @{new_body_name} calling @{body_name} on start + i * delta (ForPass)",
                pass_name=self.name,
                verdict="rewritten",
            )
        module.body.block.insert_ops_after([cond, new_body], body)
        for r, w in zip(node.results, loop.results[WHILE_DATA_INPUT_INDEX:]):
            r.replace_all_uses_with(w)
        node.detach()
        node.erase()
