"""ge-constant-folding-pass: GE's ConstantFoldingPass (a node whose inputs are all Consts
is computed on the host and replaced by Consts).

Port of ``compiler/graph/passes/standard_optimize/constant_folding/constant_folding_pass.cc``
(hicann/ge), which GraphPrepare runs after DimensionComputePass (graph_prepare.cc:
InferShapeForPreprocess) and GraphManager again in its optimize stages:

* ComputePotentialWeight: every input must come from a Const/Constant
  (OpDescUtils::GetConstInputNodeAndAnchor covers all inputs; a node without inputs is
  not folded), then the AICPU engine's host kernel is tried (ComputeWithHostCpuKernel)
  and else GE's built-in one (ComputeWithBuiltInKernel, GetKernelByType); a kernel that
  refuses (NOT_CHANGED) leaves the node. passes/prepare/host_kernels.py holds the
  kernels: the built-in ones of `compiler/host_kernels/` for the ge dialect's types (Add,
  Sub, Mul, Maximum, Rsqrt, Cast, the reshape family, Identity, TransposeD, GatherV2,
  Pack, Fill, Range, ConcatV2D) with their dtype tables, and of the AICPU ones (CANN's,
  not in hicann/ge) ConcatD, ConcatV2D, RealDiv, Div and Minimum;
* NeedIgnorePass: `no_need_constant_folding` (IsNoNeedConstantFolding) and nodes whose
  outputs are all empty (AreAllOutputsEmptyShape) are left;
* FoldingPass::Folding replaces the node by Consts and deletes producers left unused
  (passes/prepare/folding.py).

Not ported: the MEMORY_OPTIMIZATION_POLICY = MemoryPriority rule (a Const of more than 8
elements read twice is not folded; the option is not set by default) and potential
Consts (ConstantUtils::IsPotentialConst: no ge op marks one). `remarks` prints one line
per node folded, with its value and kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.diagnostics import LocatedError
from ge_dialect.ge import Const, Constant, GatherBase, GatherElements
from ge_dialect.names import ge_type
from ge_dialect.pass_options import REMARKS, Option
from ge_dialect.shapes import normalize_axis
from passes.prepare.folding import const_array, run_folding

if TYPE_CHECKING:
    import numpy as np


def all_const_inputs(op: Operation) -> bool:
    """ComputePotentialWeight's first check: a node with inputs, every one from a Const."""
    if not op.operands:
        return False  # input_nodes_2_out_anchors.empty()
    # OpDescUtils::GetConstInputNodeAndAnchor (every input a Const)
    return all(isinstance(v.owner, Const | Constant) for v in op.operands)


def compute_potential_weight(op: Operation) -> tuple[list[np.ndarray], str] | None:
    """constant_folding_pass.cc: ConstantFoldingPass::ComputePotentialWeight."""
    if not all_const_inputs(op):
        return None
    # then GetWeightsFromNodes
    # the kernels (and numpy) are loaded when the first node with all-Const inputs is met
    from passes.prepare.host_kernels import AICPU_KERNELS, BUILTIN_KERNELS

    inputs = []
    for v in op.operands:
        arr = const_array(v.owner)  # type: ignore[arg-type]
        if arr is None:
            return None
        inputs.append(arr)
    t = ge_type(op)
    # ComputeWithHostCpuKernel first, then ComputeWithBuiltInKernel
    for table in (AICPU_KERNELS, BUILTIN_KERNELS):
        entry = table.get(t)
        if entry is None:
            continue
        kernel, source = entry
        out = kernel(op, inputs)
        if out is not None:
            return out, source
    return None


@dataclass(frozen=True)
class ConstantFoldingPass(ModulePass):
    """Computes nodes whose inputs are all Consts with GE's host kernels and replaces them
    by Consts (named `dynamic_const_<k>`, `_is_from_constant_folding`); producers left
    unused go too. Chains fold in one run (nodes are visited in graph order)."""

    name = "ge-constant-folding-pass"

    remarks: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {"remarks": REMARKS}

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_folding(op, self.name, compute_potential_weight, self.remarks, may_fold=all_const_inputs)
        check_constant_indices(op)


def check_constant_indices(module: ModuleOp) -> None:
    """A gather whose indices are a Const (given, or made by folding, as a Shape -> Gather
    chain makes them) with an index outside its dim is a located error here. GE's
    GatherV2Kernel::Check (compiler/host_kernels/gather_v2_kernel.cc) refuses to fold it (NOT_CHANGED) and the kernel fails only when
    the graph runs; we go beyond GE so that a compile names the node. The valid range is
    [0, n), or [-n, n) with `negative_index_support` (GatherBase's rule). numpy is loaded
    only when such a gather is met."""
    for op in module.walk():
        if not isinstance(op, GatherBase | GatherElements) or not isinstance(op.operands[1].owner, Const | Constant):
            continue
        import numpy as np

        x = op.in_shape(0)
        if isinstance(op, GatherBase):
            axis, neg = op.normalized_axis(), A.get_bool(op, "negative_index_support")
        else:
            axis = None if x is None else normalize_axis(op.int_attr("dim", 0) or 0, len(x), "dim")
            neg = False  # GE's GatherElements follows PyTorch: no negative index
        idx = const_array(op.operands[1].owner)  # type: ignore[arg-type]
        if axis is None or x is None or idx is None or idx.size == 0 or x[axis] < 0:
            continue
        n = x[axis]
        lo = -n if neg else 0
        bad = np.flatnonzero((idx < lo) | (idx >= n))
        if bad.size:
            at = [int(a) for a in np.unravel_index(int(bad[0]), idx.shape)]
            raise LocatedError(
                op,
                f"index {int(idx.reshape(-1)[bad[0]])} at {at} of its constant indices is out of range for "
                f"dim {axis} of size {n} (valid: [{lo}, {n - 1}]"
                + ("; negative_index_support is false" if isinstance(op, GatherBase) and not neg else "")
                + ")"
                + (f"; {bad.size} of its indices are" if bad.size > 1 else "")
                + ": the graph would fail when run",
            )
