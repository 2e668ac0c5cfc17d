"""`ge-compile`: the pipeline of docs/architecture.md as one pass, whose constituent passes the tools splice
into xDSL's PassPipeline (so that dumps and timings stay per constituent pass).

The order is GE's, with two differences that docs/pipeline.md explains: ge-phony-notask runs in its two stages, `mark` on the original
graph (GeLocalGraphOptimizer) and `calc` just before memory assignment
(CalcOpRunningParam at build time), and ge-pack-notask runs after ge-concat-notask.

Here in ge_tools/, the composition root, not in passes/: ge-compile runs passes of
passes/ and of lowering/, and passes/ may import ge_dialect and passes/ only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from ge_dialect.pass_options import LazyOptions, Option, PassOptionError, check_options


@dataclass(frozen=True)
class PipelinePass(ModulePass, ABC):
    """A pass that stands for a sequence of passes (as inconspiquous' XZSSimpl does): run
    alone it runs them in order; the tools splice `passes()` into their PassPipeline."""

    @abstractmethod
    def passes(self) -> tuple[ModulePass, ...]:
        """The constituent passes, in order."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PassPipeline(self.passes()).apply(ctx, op)


@dataclass(frozen=True)
class GeCompilePass(PipelinePass):
    """The whole compile path, ge graph to npu.model (docs/architecture.md): each pass
    with its default options, except that `enable-pass` goes to ge-lower-autofuse,
    `fusion-solver` to ge-autofuse (its `solver`) and `streams` to ge-to-npu.

    Graph preparation first (GE's GraphPrepare, then OptimizeStage1's folding):
    ge-for-pass (graph_prepare.cc: GraphEquivalentTransformation),
    ge-dimension-compute-pass, ge-constant-folding-pass (graph_prepare.cc:
    InferShapeForPreprocess), ge-infer-shape-for-preprocess (the same walk per node with
    InferShapePass first), ge-cond-pass, ge-dropout-pass, ge-stop-gradient-pass,
    ge-prevent-gradient-pass, ge-snapshot-pass, ge-identity-pass (PrepareOptimize's order),
    ge-dimension-compute-pass, ge-constant-folding-pass again (graph_manager.cc:
    OptimizeStage1: what the removals exposed); ge-const-to-attr (the fusion engine's
    ConstToAttrPass: Expand, ReduceXxx and SplitV with Const inputs become their D forms);
    ge-partition-dynamic (graph_manager.cc:
    DoDynamicShapePartition: a graph with an unknown-shape node becomes known and unknown
    subgraphs; the passes below compile the known ones into known-node models and leave the
    root and the unknown ones as ge graphs); then ge-phony-notask{stage=mark}, ge-lower-autofuse{enable-pass=E},
    ge-autofuse{solver=F}, ge-split-notask, ge-concat-notask, ge-pack-notask, ge-subgraph-pass,
    ge-label-allocator,
    ge-phony-notask{stage=calc}, ge-assign-memory, ge-to-npu{streams=S}. ge-opt and ge-run run (verify, dump and
    time) each of them as its own pass.
    """

    name = "ge-compile"

    streams: int = 1
    enable_pass: tuple[str, ...] = ()
    fusion_solver: str = "greedy"

    OPTIONS = LazyOptions(lambda: _compile_options())

    def __post_init__(self) -> None:
        check_options(self)
        try:
            self.passes()  # each constituent checks the options it receives
        except PassOptionError as e:
            raise PassOptionError(self.name, e.option, e.expected) from None

    def passes(self) -> tuple[ModulePass, ...]:
        # Imported here: the tools import this module for PipelinePass and `expand`, and a
        # run of one pass (ge-opt -p ge-concat-notask) loads none of the others.
        from lowering.ge_to_npu import GeToNpuPass
        from lowering.lower_autofuse import LowerAutofusePass
        from passes.autofuse.autofuse import AutofusePass
        from passes.control.cond_pass import CondPass
        from passes.control.for_pass import ForPass
        from passes.control.label_allocator import LabelAllocatorPass
        from passes.memory.assign_memory import AssignMemoryPass
        from passes.memory.subgraph_pass import SubgraphPass
        from passes.notask.concat import ConcatNotaskPass
        from passes.notask.pack import PackNotaskPass
        from passes.notask.phony import PhonyNotaskPass
        from passes.notask.split import SplitNotaskPass
        from passes.partition.dynamic_shape_partition import DynamicShapePartitionPass
        from passes.prepare.const_to_attr import ConstToAttrPass
        from passes.prepare.constant_folding import ConstantFoldingPass
        from passes.prepare.dimension_compute import DimensionComputePass
        from passes.prepare.dropout import DropOutPass
        from passes.prepare.identity import IdentityPass
        from passes.prepare.infer_shape import InferShapeForPreprocessPass
        from passes.prepare.prevent_gradient import PreventGradientPass
        from passes.prepare.snapshot import SnapshotPass
        from passes.prepare.stop_gradient import StopGradientPass

        return (
            # graph_prepare.cc: GraphEquivalentTransformation (ForToWhilePass)
            ForPass(),
            # graph_prepare.cc: InferShapeForPreprocess (DimensionComputePass, ConstantFoldingPass)
            DimensionComputePass(),
            ConstantFoldingPass(),
            # the same per node (GEPass), with InferShapePass first: the dims ONNX's inference
            # left unknown behind a computed value (a no-op on a graph without `?`)
            InferShapeForPreprocessPass(),
            # graph_prepare.cc: PrepareOptimize (names_to_passes: CondPass after EnterPass,
            # then, in inference, DropOutPass)
            CondPass(),
            DropOutPass(),
            StopGradientPass(),
            PreventGradientPass(),
            SnapshotPass(),
            IdentityPass(),
            # graph_manager.cc: OptimizeStage1 (DimensionComputePass, ConstantFoldingPass again)
            DimensionComputePass(),
            ConstantFoldingPass(),
            # the fusion engine's graph fusion (OptimizeOriginalGraph): ConstToAttrPass
            ConstToAttrPass(),
            # graph_manager.cc: OptimizeSubgraph -> DoDynamicShapePartition (after
            # PreRunOptimizeOriginalGraph, before the subgraphs are optimized and built)
            DynamicShapePartitionPass(),
            PhonyNotaskPass(stage="mark"),
            LowerAutofusePass(enable_pass=self.enable_pass),
            AutofusePass(solver=self.fusion_solver),
            # the split before the concat (passes/notask/split.py says why)
            SplitNotaskPass(),
            ConcatNotaskPass(),
            PackNotaskPass(),
            # graph_manager.cc: OptimizeStage2 -> ControlAttrOptimize (SubgraphPass, then
            # LabelAllocator)
            SubgraphPass(),
            LabelAllocatorPass(),
            PhonyNotaskPass(stage="calc"),
            AssignMemoryPass(),
            GeToNpuPass(streams=self.streams),
        )


def _compile_options() -> dict[str, Option]:
    """ge-compile's options: the constituents' own (their meaning and values), passed on."""
    from lowering.ge_to_npu import GeToNpuPass
    from lowering.lower_autofuse import LowerAutofusePass
    from passes.autofuse.autofuse import AutofusePass

    streams = GeToNpuPass.OPTIONS["streams"]
    enable = LowerAutofusePass.OPTIONS["enable_pass"]
    solver = AutofusePass.OPTIONS["solver"]
    return {
        "streams": Option(f"ge-to-npu's streams: {streams.doc}", streams.allowed),
        "enable_pass": Option(f"ge-lower-autofuse's enable-pass: {enable.doc}", enable.allowed),
        "fusion_solver": Option(f"ge-autofuse's solver: {solver.doc}", solver.allowed),
    }


def expand(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """`passes` with every PipelinePass replaced by its constituent passes, recursively:
    what the tools' PassPipeline runs."""
    out: list[ModulePass] = []
    for p in passes:
        if isinstance(p, PipelinePass):
            out.extend(expand(p.passes()))
        else:
            out.append(p)
    return tuple(out)
