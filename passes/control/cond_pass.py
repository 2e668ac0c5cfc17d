"""ge-cond-pass: GE's CondPass (the cond of an If and of a While becomes an int32 scalar).

Port of ``compiler/graph/passes/control_flow_and_stream/cond_pass.cc`` (hicann/ge), a node
pass GraphPrepare runs on every graph and subgraph (graph_prepare.cc: PrepareOptimize,
names_to_passes, right after EnterPass). The cond is If's input 0 (GetCondInfoForIf) or
the only input of the NetOutput of a While's cond subgraph (GetCondInfoForWhile). Its
tensor desc decides (CondPass::Run):

* unknown rank: left as it is (only a string cond would get StringLength);
* not a scalar: a Size node is inserted (HandleNonScalarCond): the cond becomes its
  element count, true when the tensor is not empty;
* a scalar of bool, float, double, uint8, int16, int8 or int64: a Cast to int32
  (HandleScalarCond; the Cast truncates, so a float cond of 0.5 becomes 0: false, where
  the If itself reads any non-zero value as true: GE's rule, kept);
* an int32 scalar: nothing to do;
* any other scalar dtype (float16, bfloat16, the unsigned types but uint8, ...): the pass
  fails, a located error naming the node (GE: "data_type ... check invalid").

A string cond (HandleStringCond: StringLength) cannot occur: the ge dialect has no string
dtype. The inserted node is named `<consumer>_Size` / `<consumer>_Cast` after the node
whose input it feeds (the If, or the cond graph's NetOutput), as GE names it.
`remarks` prints one line per cond normalised.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import LocatedError, remark
from ge_dialect.dtypes import ge_dtype_name
from ge_dialect.ge import Cast, GraphOp, IfBase, Size, WhileBase, value_type
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.names import ge_type, name_nodes, node_name
from ge_dialect.pass_options import REMARKS, Option

# cond_pass.cc: CondPass::Run, the scalar dtypes HandleScalarCond casts to int32
CAST_TO_INT32 = frozenset({"DT_BOOL", "DT_FLOAT", "DT_DOUBLE", "DT_UINT8", "DT_INT16", "DT_INT8", "DT_INT64"})
# ge_dialect's DataType numbers are GE's (graph/types.h): DT_INT32 = 3
DT_INT32 = 3


def cond_input(op: Operation) -> tuple[Operation, int] | None:
    """(consumer, input index) of the cond of an If or a While, else None.

    # cond_pass.cc: CondPass::GetCondInfo (kIfOpTypes: If/_If/StatelessIf; kWhileOpTypes:
    # While/_While/StatelessWhile), GetCondInfoForIf (IF_COND_INPUT = 0), GetCondInfoForWhile
    # (the cond subgraph's NetOutput, input 0)
    """
    if isinstance(op, IfBase):
        return op, 0
    if isinstance(op, WhileBase):
        return op.subgraph(0).net_output, 0
    return None


@dataclass(frozen=True)
class CondPass(ModulePass):
    """Makes every If / While cond an int32 scalar, as GE's CondPass (module doc)."""

    name = "ge-cond-pass"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for graph in graphs_in_pass_order(op):
            name_nodes(graph.body.block)
            for node in list(graph.body.block.ops):
                found = cond_input(node)
                if found is not None:
                    self._normalise(node, *found)

    def _normalise(self, node: Operation, consumer: Operation, index: int) -> None:
        cond = consumer.operands[index]
        t = value_type(cond)
        shape = shape_of(t)
        if shape is None:
            return  # CondPass::Run: unknown rank (no string dtype here)
        dt = ge_dtype_name(t.element_type)
        i32 = IntegerType(32)
        if shape != ():
            # cond_pass.cc: CondPass::HandleNonScalarCond (Size)
            kind, why = "Size", f"a {dt} tensor of shape {list(shape)}: its element count (HandleNonScalarCond)"
        elif dt == "DT_INT32":
            return
        elif dt in CAST_TO_INT32:
            # cond_pass.cc: CondPass::HandleScalarCond (Cast to DT_INT32)
            kind, why = "Cast", f"a {dt} scalar: cast to int32 (HandleScalarCond)"
        else:
            raise LocatedError(
                node,
                f"CondPass: the cond of {ge_type(node)} '{node_name(node)}' is a {dt} scalar; GE casts only "
                "bool, float, double, uint8, int16, int8 and int64 scalars to int32 (cond_pass.cc: CondPass::Run)",
            )
        name = f"{node_name(consumer)}_{kind}"
        if kind == "Size":
            new: Operation = Size.build(cond, name=name, dtype=i32)
        else:
            new = Cast.build(cond, name=name, dtype=i32, dst_type=DT_INT32)
        Rewriter.insert_op(new, InsertPoint.before(consumer))
        consumer.operands[index] = new.results[0]
        if self.remarks:
            graph = consumer.parent_op()
            where = f" in @{graph.sym_name.data}" if isinstance(graph, GraphOp) else ""
            remark(
                node,
                f"{self.name}: the cond of {ge_type(node)} '{node_name(node)}' is {why}: {kind} '{name}' "
                f"inserted{where}",
                pass_name=self.name,
                verdict="normalised",
            )
