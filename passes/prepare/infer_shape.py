"""ge-infer-shape-for-preprocess: GE's InferShapeForPreprocess walk: per node, in graph
order, InferShapePass, then DimensionComputePass, then ConstantFoldingPass.

Port of ``compiler/graph/preprocess/graph_prepare.cc: GraphPrepare::InferShapeForPreprocess``
(hicann/ge): one GEPass runs its names_to_passes on each node in turn (InferShapePass,
DimensionComputePass, ConstantFoldingPass, among others), so a value folded to a Const
is known when its consumer's shape is inferred, and a Shape of that consumer folds in the
same walk. What makes it needed here: ONNX's shape inference does not follow a value
computed in the graph into every consumer (a Slice's ends, a Tile's repeats, a Resize's
sizes), so the importer leaves those dims unknown (`?`); here they become static.

* InferShapePass (infershape_pass.cc: InferShapePass::Infer): the node's output shapes
  by its infer function (the ge dialect's `infer()`, each op's GE infer rule); an unknown
  dim of an output becomes the inferred one (a known dim is kept: the verifier checks
  that the two agree). Outputs of another rank, or not inferred, are left;
* DimensionComputePass and ConstantFoldingPass as passes/prepare/dimension_compute.py and
  constant_folding.py (their kernels, their refusals, their Consts' names).

A dim that stays unknown (its value is known only when the data arrives) is a dynamic
shape: ge-partition-dynamic and the dynamic executor take it. `remarks` prints one line
per node whose shapes were refined and per node folded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, NoneAttr, TensorType, UnrankedTensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from ge_dialect.desc import shape_of
from ge_dialect.diagnostics import op_location, remark
from ge_dialect.ge import GeNode
from ge_dialect.names import ge_type, node_name
from ge_dialect.pass_options import REMARKS, Option
from ge_dialect.shapes import fmt_shape
from passes.prepare.constant_folding import all_const_inputs, compute_potential_weight
from passes.prepare.dimension_compute import compute_dimension
from passes.prepare.dimension_kernels import NODE_KERNELS
from passes.prepare.folding import run_folding


def infer_shape(op: Operation) -> list[str]:
    """InferShapePass on one node: its outputs' unknown dims set from `infer()`; returns
    one text per output refined ('name:i 2x?x3 -> 2x4x3')."""
    if not isinstance(op, GeNode):
        return []
    cur = [shape_of(r.type) for r in op.results]
    if all(s is not None and all(d >= 0 for d in s) for s in cur):
        return []
    try:
        inferred = op.infer()
    except VerifyException:
        return []  # the values are wrong for the node: the verifier says so, not this pass
    if inferred is None:
        return []
    done: list[str] = []
    for i, (r, old, new) in enumerate(zip(list(op.results), cur, inferred)):
        t = r.type
        if new is None or (old is not None and (len(old) != len(new) or all(d >= 0 for d in old))):
            continue
        if old is None:  # an unknown rank: the inferred shape
            assert isinstance(t, UnrankedTensorType)
            dims, shown, enc = tuple(new), "unranked", NoneAttr()
        else:
            assert isinstance(t, TensorType)
            dims, shown, enc = tuple(o if o >= 0 else n for o, n in zip(old, new)), fmt_shape(old), t.encoding
            if dims == old:
                continue
        Rewriter.replace_value_with_new_type(r, TensorType(t.element_type, list(dims), enc))
        done.append(f"{node_name(op)}:{i} {shown} -> {fmt_shape(dims)}")
    return done


def _fold_node(op: Operation) -> tuple[list, str] | None:
    # DimensionComputePass, then ConstantFoldingPass, on the node (GEPass's order)
    if ge_type(op) in NODE_KERNELS:
        got = compute_dimension(op)
        if got is not None:
            return got
    return compute_potential_weight(op) if all_const_inputs(op) else None


@dataclass(frozen=True)
class InferShapeForPreprocessPass(ModulePass):
    """Per node in graph order: unknown output dims inferred from folded values, then
    Shape/Size/Rank and all-Const nodes folded (GE's InferShapeForPreprocess)."""

    name = "ge-infer-shape-for-preprocess"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        def before(node: Operation) -> None:
            done = infer_shape(node)
            if done and self.remarks:
                remark(
                    None,
                    f"{self.name}: {ge_type(node)} '{node_name(node)}' output shapes inferred: {'; '.join(done)}",
                    pass_name=self.name,
                    location=op_location(node),
                )

        run_folding(
            op,
            self.name,
            _fold_node,
            self.remarks,
            may_fold=lambda n: ge_type(n) in NODE_KERNELS or all_const_inputs(n),
            before=before,
        )
