"""ge-const-to-attr: a node that takes a shape, axes or sizes as a Const input becomes
the D form that holds the value as an attribute.

GE's graph preparation folds what the ONNX plugins leave as computed inputs (Shape ->
Gather -> Concat -> Expand) into Consts (ge-dimension-compute-pass,
ge-constant-folding-pass); the fusion engine's ConstToAttrPass then turns each node whose
value input is a Const into its D form (compiler/engines/nn_engine/inc/common/
fusion_pass_util.h names ConstToAttrPass, ConstToAttrReduceSumFusion,
ConstToAttrStridedSliceV2Fusion; the passes are CANN's built-in graph fusion rules, not
in hicann/ge). Here, for the input-form ops the importer makes (ge_dialect/ge.py: Expand,
ReduceSum/Max/Min/Mean/Prod with an axes input, SplitV):

* Expand(x, Const shape) -> BroadcastToD {shape = the output's shape} (ONNX's Expand
  broadcasts both ways; the output type is that broadcast);
* ReduceXxx(x, Const axes) {keep_dims} -> ReduceXxxD {axes, keep_dims}; empty axes with
  noop_with_empty_axes -> Identity (ReduceXxxD's empty axes reduce every axis);
* SplitV(x, Const size_splits, Const split_dim) {num_split} -> SplitVD {size_splits,
  split_dim, num_split}.

The node keeps its name and location; a Const left without a reader goes. A node whose
input stays computed (its value is known only when the data arrives) is left: it runs as
a library kernel reading the input at run time. `remarks` prints one line per node
converted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from ge_dialect import attrs as A
from ge_dialect import ge
from ge_dialect.attrs import NODE_NAME
from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import op_location, remark
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.names import ge_type, name_nodes, node_name
from ge_dialect.pass_options import REMARKS, Option


def _d_form(op: Operation) -> tuple[type[ge.GeNode], dict[str, Attribute]] | None:
    """The D form of `op` and its attributes when its value inputs are Consts, else None."""
    if isinstance(op, ge.Expand):
        out = shape_of(op.results[0].type)
        if ge.const_ints(op.operands[1]) is None or out is None or any(d < 0 for d in out):
            return None
        return ge.BroadcastToD, {"shape": A.int_list_attr(out)}
    if isinstance(op, ge.ReduceAxes):
        axes = ge.const_ints(op.operands[1])
        if axes is None:
            return None
        keep = A.get_bool(op, "keep_dims", False)
        if not axes and A.get_bool(op, "noop_with_empty_axes", False):
            return ge.Identity, {}
        return op.D_FORM, {"axes": A.int_list_attr(axes), "keep_dims": A.bool_attr(keep)}
    if isinstance(op, ge.SplitV):
        sizes, dim = ge.const_ints(op.operands[1]), ge.const_ints(op.operands[2])
        if sizes is None or dim is None or len(dim) != 1:
            return None
        n = len(op.results)
        return ge.SplitVD, {
            "size_splits": A.int_list_attr(sizes),
            "split_dim": A.make_int(dim[0]),
            "num_split": A.make_int(n),
        }
    return None


@dataclass
class ConstInputToAttr(RewritePattern):
    """One input-form node whose value inputs are Consts: replaced by its D form."""

    remarks: bool = False
    pass_name: str = "ge-const-to-attr"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ge.Expand | ge.ReduceAxes | ge.SplitV):
            return
        got = _d_form(op)
        if got is None:
            return
        cls, attrs = got
        keep = {k: v for k, v in op.attributes.items() if k == NODE_NAME or k.startswith("_")}
        new = cls.create(
            operands=[op.operands[0]], result_types=[r.type for r in op.results], attributes={**keep, **attrs}
        )
        new.location = op.location
        for old_r, new_r in zip(op.results, new.results):
            new_r.name_hint = old_r.name_hint
        consts = [v.owner for v in op.operands[1:]]
        name, what = node_name(op), ge_type(op)
        rewriter.replace(op, new)
        gone = []
        for c in consts:
            if isinstance(c, ge.Const | ge.Constant) and not any(r.uses for r in c.results) and c.parent is not None:
                gone.append(node_name(c))
                rewriter.erase(c)
        if self.remarks:
            tail = f"; Const {', '.join(repr(g) for g in gone)} removed" if gone else ""
            remark(
                None,
                f"{self.pass_name}: {what} '{name}' becomes {ge_type(new)}{_fmt_attrs(new, attrs)}{tail}",
                pass_name=self.pass_name,
                location=op_location(new),
            )


def _fmt_attrs(op: Operation, attrs: dict[str, Attribute]) -> str:
    if not attrs:
        return ""
    parts = []
    for k in attrs:
        ints = A.get_int_list(op, k)
        value = ints if ints is not None else (str(A.get_bool(op, k)).lower() if k == "keep_dims" else A.get_int(op, k))
        parts.append(f"{k} = {value}")
    return " {" + ", ".join(parts) + "}"


@dataclass(frozen=True)
class ConstToAttrPass(ModulePass):
    """Turns Expand, ReduceXxx (axes input) and SplitV whose value inputs are Consts into
    BroadcastToD, ReduceXxxD and SplitVD (the fusion engine's ConstToAttrPass)."""

    name = "ge-const-to-attr"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = ConstInputToAttr(self.remarks, self.name)
        for graph in graphs_in_pass_order(op):
            block = graph.body.block
            name_nodes(block)
            PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(graph.body)
