"""ge-dimension-compute-pass: GE's DimensionComputePass (Shape, Size, Rank of a static
shape become Consts).

Port of ``compiler/graph/passes/standard_optimize/constant_folding/dimension_compute_pass.cc``
(hicann/ge), which GraphPrepare runs with InferShapePass while it infers shapes
(graph_prepare.cc: InferShapeForPreprocess, before ConstantFoldingPass): a node whose
type has a built-in host kernel that computes from the node alone (kernel.h:
Compute(const NodePtr &, ...): shape_kernel.cc, size_kernel.cc, rank_kernel.cc; ShapeN
and GatherShapes have no ge op) is folded when its input shape is static
(KernelUtils::IsUnknownShape: a `?` dim is NOT_CHANGED; Rank needs only the rank), and
replaced by a Const (folding_pass.cc: FoldingPass::Folding, passes/prepare/folding.py).
Skipped: a node with `no_need_constant_folding` (folding_pass::IsNoNeedConstantFolding),
one whose outputs are all empty (NeedIgnorePass: AreAllOutputsEmptyShape). The output
dtype must be int32 or int64 (KernelUtils::ConstructTensorDescWithData).

A Shape, Size or Rank left (an unknown dim) reaches task generation, where GE's
GeDeletedOp::Run fails on it: lowering/ge_to_npu.py reports it. `remarks` prints one line
per node folded, with its value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ge_dialect.names import ge_type
from ge_dialect.pass_options import REMARKS, Option
from passes.prepare.dimension_kernels import NODE_KERNELS
from passes.prepare.folding import run_folding

if TYPE_CHECKING:
    import numpy as np


def compute_dimension(op: Operation) -> tuple[list[np.ndarray], str] | None:
    """dimension_compute_pass.cc: DimensionComputePass::ComputePotentialWeight
    (GetKernelByType, then the kernel's Compute(node, outputs))."""
    entry = NODE_KERNELS.get(ge_type(op))
    if entry is None:
        return None  # UNSUPPORTED
    kernel, source = entry
    out = kernel(op)
    return None if out is None else (out, source)


@dataclass(frozen=True)
class DimensionComputePass(ModulePass):
    """Folds Shape, Size and Rank of statically shaped inputs into Consts (named
    `dynamic_const_<k>`, `_is_from_constant_folding`); a producer left unused goes too."""

    name = "ge-dimension-compute-pass"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_folding(op, self.name, compute_dimension, self.remarks, may_fold=lambda n: ge_type(n) in NODE_KERNELS)
