"""The one registry of the project's dialects and passes (lazy factories, as xDSL does).

`ge-compile` (ge_tools/pipeline.py) is a pass that stands for the whole pipeline (docs/architecture.md): the
tools run its constituent passes one by one; each pass also runs alone.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.ir import Dialect
from xdsl.passes import ModulePass


def make_context() -> Context:
    """A Context that knows builtin and the project's dialects (as ge-opt's, minus xDSL's
    other dialects): what tests, benchmarks and tools use to parse ge IR."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def get_ge() -> Dialect:
        from ge_dialect.ge import GE

        return GE

    def get_ascgraph() -> Dialect:
        from ge_dialect.ascgraph import AscGraph

        return AscGraph

    def get_npu() -> Dialect:
        from ge_dialect.npu import NPU

        return NPU

    return {"ge": get_ge, "ascgraph": get_ascgraph, "npu": get_npu}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory of the pass class."""

    def get_identity() -> type[ModulePass]:
        from passes.prepare.identity import IdentityPass

        return IdentityPass

    def get_dimension_compute() -> type[ModulePass]:
        from passes.prepare.dimension_compute import DimensionComputePass

        return DimensionComputePass

    def get_constant_folding() -> type[ModulePass]:
        from passes.prepare.constant_folding import ConstantFoldingPass

        return ConstantFoldingPass

    def get_infer_shape() -> type[ModulePass]:
        from passes.prepare.infer_shape import InferShapeForPreprocessPass

        return InferShapeForPreprocessPass

    def get_const_to_attr() -> type[ModulePass]:
        from passes.prepare.const_to_attr import ConstToAttrPass

        return ConstToAttrPass

    def get_dropout() -> type[ModulePass]:
        from passes.prepare.dropout import DropOutPass

        return DropOutPass

    def get_stop_gradient() -> type[ModulePass]:
        from passes.prepare.stop_gradient import StopGradientPass

        return StopGradientPass

    def get_prevent_gradient() -> type[ModulePass]:
        from passes.prepare.prevent_gradient import PreventGradientPass

        return PreventGradientPass

    def get_snapshot() -> type[ModulePass]:
        from passes.prepare.snapshot import SnapshotPass

        return SnapshotPass

    def get_phony_notask() -> type[ModulePass]:
        from passes.notask.phony import PhonyNotaskPass

        return PhonyNotaskPass

    def get_concat_notask() -> type[ModulePass]:
        from passes.notask.concat import ConcatNotaskPass

        return ConcatNotaskPass

    def get_split_notask() -> type[ModulePass]:
        from passes.notask.split import SplitNotaskPass

        return SplitNotaskPass

    def get_pack_notask() -> type[ModulePass]:
        from passes.notask.pack import PackNotaskPass

        return PackNotaskPass

    def get_assign_memory() -> type[ModulePass]:
        from passes.memory.assign_memory import AssignMemoryPass

        return AssignMemoryPass

    def get_lower_autofuse() -> type[ModulePass]:
        from lowering.lower_autofuse import LowerAutofusePass

        return LowerAutofusePass

    def get_symbolic_autofuse() -> type[ModulePass]:
        from lowering.symbolic_autofuse import SymbolicAutofusePass

        return SymbolicAutofusePass

    def get_autofuse() -> type[ModulePass]:
        from passes.autofuse.autofuse import AutofusePass

        return AutofusePass

    def get_ge_to_npu() -> type[ModulePass]:
        from lowering.ge_to_npu import GeToNpuPass

        return GeToNpuPass

    def get_partition_dynamic() -> type[ModulePass]:
        from passes.partition.dynamic_shape_partition import DynamicShapePartitionPass

        return DynamicShapePartitionPass

    def get_cond() -> type[ModulePass]:
        from passes.control.cond_pass import CondPass

        return CondPass

    def get_for() -> type[ModulePass]:
        from passes.control.for_pass import ForPass

        return ForPass

    def get_subgraph() -> type[ModulePass]:
        from passes.memory.subgraph_pass import SubgraphPass

        return SubgraphPass

    def get_label_allocator() -> type[ModulePass]:
        from passes.control.label_allocator import LabelAllocatorPass

        return LabelAllocatorPass

    def get_compile() -> type[ModulePass]:
        from ge_tools.pipeline import GeCompilePass

        return GeCompilePass

    return {
        "ge-for-pass": get_for,
        "ge-cond-pass": get_cond,
        "ge-dimension-compute-pass": get_dimension_compute,
        "ge-constant-folding-pass": get_constant_folding,
        "ge-const-to-attr": get_const_to_attr,
        "ge-infer-shape-for-preprocess": get_infer_shape,
        "ge-dropout-pass": get_dropout,
        "ge-stop-gradient-pass": get_stop_gradient,
        "ge-prevent-gradient-pass": get_prevent_gradient,
        "ge-snapshot-pass": get_snapshot,
        "ge-identity-pass": get_identity,
        "ge-partition-dynamic": get_partition_dynamic,
        "ge-phony-notask": get_phony_notask,
        "ge-split-notask": get_split_notask,
        "ge-concat-notask": get_concat_notask,
        "ge-pack-notask": get_pack_notask,
        "ge-lower-autofuse": get_lower_autofuse,
        "ge-autofuse": get_autofuse,
        "ge-subgraph-pass": get_subgraph,
        "ge-symbolic-autofuse": get_symbolic_autofuse,
        "ge-label-allocator": get_label_allocator,
        "ge-assign-memory": get_assign_memory,
        "ge-to-npu": get_ge_to_npu,
        "ge-compile": get_compile,
    }
