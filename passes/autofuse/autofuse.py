"""ge-autofuse: GE's second-stage fusion (CanFuse) between AscBackends, then lifting.

Follows compiler/graph/optimize/autofuse/autofuse/autofuser.cpp (Autofuser::Fuse steps 5
and 6, ge_fusion.md §1): the FusionStrategySolver (passes/autofuse/solver.py) with the
AscBackend decider (passes/autofuse/decider.py) on every graph, the loop-merge round
inside each FusedAscBackend, then AscIrLowerer::Lifting: the concat poor-performance
unfolding (LowerConcatHelper, passes/autofuse/concat_lifting.py) and
LiftingManager::LiftingGraph (passes/autofuse/lifting.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import attrs as A
from ge_dialect.diagnostics import remark
from ge_dialect.ge import GraphOp, NetOutput, ge_type
from ge_dialect.graph import graphs_in_pass_order
from ge_dialect.node_types import SOURCE_TYPES
from ge_dialect.pass_options import at_least, one_of
from passes.autofuse.concat_lifting import lifting_poor_perf_fused_asc_backends
from passes.autofuse.decider import AscBackendFusionDecider, AscBackendSubGraphFusionDecider
from passes.autofuse.global_solver import MAX_NODES_EXPLORED, MAX_REGION_NODES, GlobalConfig, GlobalSolver
from passes.autofuse.lifting import lift_graph
from passes.autofuse.solver import (
    BUFFER_GROUP_WINDOW,
    MAX_FUSE_ROUNDS,
    MAX_OUTPUT_MEMORY_SIZE_AFTER_FUSION,
    SolverConfig,
    buffer_bytes,
    fuse_block,
)

# Nodes that launch no kernel: graph inputs, constants, the output node, subgraph calls.
NOT_KERNELS = SOURCE_TYPES | {"NetOutput", "PartitionedCall"}


def is_kernel(op: Operation) -> bool:
    """A node that runs as a kernel: AscBackend, FusedAscBackend or a GE op with a task."""
    return ge_type(op) not in NOT_KERNELS and not A.get_bool(op, A.NO_TASK)


def kernel_traffic(block: Block) -> tuple[int, int]:
    """(kernels, global-memory bytes they move): each kernel reads each of its inputs once
    and writes each of its outputs once."""
    kernels = moved = 0
    for op in block.ops:
        if not is_kernel(op):
            continue
        kernels += 1
        moved += sum(buffer_bytes(v) for v in dict.fromkeys(op.operands))
        moved += sum(buffer_bytes(r) for r in op.results)
    return kernels, moved


def ideal_traffic(block: Block) -> int:
    """The least any schedule moves: the graph inputs that are read, read once, and the
    graph outputs written once."""
    inputs: dict[SSAValue, None] = {}
    outputs: dict[SSAValue, None] = {}
    for op in block.ops:
        if isinstance(op, NetOutput):
            outputs.update(dict.fromkeys(v for v in op.operands if not _is_input(v)))
        elif ge_type(op) in SOURCE_TYPES:
            inputs.update(dict.fromkeys(r for r in op.results if r.uses))
    return sum(map(buffer_bytes, inputs)) + sum(map(buffer_bytes, outputs))


def _is_input(v: SSAValue) -> bool:
    return isinstance(v.owner, Operation) and ge_type(v.owner) in SOURCE_TYPES


@dataclass(frozen=True)
class AutofusePass(ModulePass):
    """Fuses AscBackends along loop axes (GE's CanFuse), then lifts tiny lowered kernels.

    GE's greedy solver: candidate pairs share a buffer, bucketed by priority and sorted by
    bytes saved, proximity and topological order; each pair passes the solver's checks (no
    shared data, cycle, max-proximity, 13 GiB horizontal output cap) and the AscBackend
    decider's (strategies, size and input caps, axis mapping, axis groups) and becomes one
    AscBackend (loop merge) or a FusedAscBackend; up to max-fuse-rounds rounds, then one
    loop-merge round inside each FusedAscBackend. Lifting: a concat FusedAscBackend whose
    concat dim comes too little from fused producers is unfolded (GE's per-case
    thresholds), and AscBackends from lowering with fewer than 2 compute ops that did not
    fuse go back to their GE ops (`lifting=false` skips both, GE's disable_lifting).
    `remarks` prints why each candidate pair was not fused, each lifting decision and a
    per-graph summary of kernels and bytes.

    `solver=global` (not GE's; passes/autofuse/global_solver.py) keeps every rule above and
    searches, region by region (windows of at most `max-region-nodes` nodes), the plans
    CanFuse accepts for the one moving the fewest global-memory bytes, started from
    greedy's plan, at most `max-nodes-explored` states per window; it never moves more
    bytes than greedy, and `remarks` says per window by how much it beat greedy, or that
    greedy was already optimal or the work limit was hit.
    """

    name = "ge-autofuse"

    # auto_fuse_config.h: FusionStrategySolverConfig (ge_fusion.md §4.1)
    max_fusion_size: int = 64
    max_fuse_rounds: int = MAX_FUSE_ROUNDS
    max_input_nums_after_fuse: int = 8
    max_proximity: int | None = None  # GE: INT64_MAX (disabled)
    max_output_bytes: int = MAX_OUTPUT_MEMORY_SIZE_AFTER_FUSION
    max_reduce_fused_elementwise: int = 3
    # Not GE's: pairs per node in a shared-buffer group larger than window + 1
    # (passes/autofuse/solver.py explains the bound).
    buffer_group_window: int = BUFFER_GROUP_WINDOW
    lifting: bool = True
    remarks: bool = False
    solver: str = "greedy"
    max_nodes_explored: int = MAX_NODES_EXPLORED
    max_region_nodes: int = MAX_REGION_NODES

    def __post_init__(self) -> None:
        for field, lo in (
            ("max_fusion_size", 0),
            ("max_fuse_rounds", 0),
            ("max_input_nums_after_fuse", 1),
            ("max_proximity", 0),
            ("max_output_bytes", 0),
            ("max_reduce_fused_elementwise", 0),
            ("buffer_group_window", 1),
            ("max_nodes_explored", 1),
            ("max_region_nodes", 1),
        ):
            at_least(self, field, lo)
        one_of(self, "solver", ("greedy", "global"))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kw: dict[str, Any] = dict(
            max_fusion_size=self.max_fusion_size,
            max_input_nums_after_fuse=self.max_input_nums_after_fuse,
            max_reduce_fused_elementwise=self.max_reduce_fused_elementwise,
        )
        cfg = SolverConfig(
            max_fuse_rounds=self.max_fuse_rounds,
            max_proximity=self.max_proximity,
            max_output_bytes=self.max_output_bytes,
            buffer_group_window=self.buffer_group_window,
        )
        for graph in graphs_in_pass_order(op):
            block = graph.body.block
            before = kernel_traffic(block)
            if self.solver == "global":
                stats = self._fuse_global(graph, cfg, kw)
                block = graph.body.block
            else:
                decider = AscBackendFusionDecider(**kw)
                stats = fuse_block(block, decider, cfg, inner_decider=lambda: AscBackendSubGraphFusionDecider(**kw))
            if self.remarks:
                for r in stats.not_fused():
                    remark(
                        None,
                        f"ge-autofuse: '{r.first_name}' and '{r.second_name}' not fused: {r.reason.coded()}",
                        reason=r.reason,
                        pass_name=self.name,
                        stage="fuse",
                        verdict="not fused",
                        nodes=(r.first_name, r.second_name),
                        location=r.location,
                    )
            unfolded: list[str] = []
            lifted: list[str] = []
            # autofuser.cpp: AscIrLowerer::Lifting -- concat unfolding first, then LiftingGraph
            if self.lifting:
                unfolded = lifting_poor_perf_fused_asc_backends(block, remarks=self.remarks)
                lifted = lift_graph(block, remarks=self.remarks)
            if self.remarks:
                self._summary(graph, stats, before, kernel_traffic(block), lifted, unfolded)

    def _fuse_global(self, graph: GraphOp, cfg: SolverConfig, kw: dict[str, Any]):
        """solver=global: greedy and the global search each on a clone of the graph's body;
        the body kept is the one moving fewer bytes (greedy's on a tie)."""
        solver = GlobalSolver(
            lambda: AscBackendFusionDecider(**kw),
            cfg,
            GlobalConfig(self.max_nodes_explored, self.max_region_nodes),
            inner_decider=lambda: AscBackendSubGraphFusionDecider(**kw),
        )
        kept, stats = solver.fuse(graph.body.block, lambda: graph.clone().body.block)
        old = graph.body.block
        kept.parent.detach_block(kept)  # type: ignore[union-attr]
        graph.body.detach_block(old)
        old.erase(safe_erase=False)
        graph.body.add_block(kept)
        if self.remarks:
            rep = solver.report
            for w in rep.windows:
                remark(
                    graph,
                    f"ge-autofuse @{graph.sym_name.data} solver=global: {w.describe()}",
                    pass_name=self.name,
                    stage="global",
                )
            why = f", {rep.aborted}" if rep.aborted else ""
            remark(
                graph,
                f"ge-autofuse @{graph.sym_name.data} solver=global: fused-kernel bytes {rep.global_bytes} "
                f"(greedy {rep.greedy_bytes}, {rep.greedy_bytes - rep.global_bytes} fewer), kept {rep.kept}'s plan{why}",
                pass_name=self.name,
                stage="global",
            )
        return stats

    def _summary(
        self,
        graph: GraphOp,
        stats,
        before: tuple[int, int],
        after: tuple[int, int],
        lifted: list[str],
        unfolded: list[str],
    ) -> None:
        remark(
            graph,
            f"ge-autofuse @{graph.sym_name.data}: kernels {before[0]} -> {after[0]}, "
            f"global-memory bytes moved by kernels {before[1]} -> {after[1]} "
            f"({stats.fusions} fusions in {stats.rounds} rounds, {len(unfolded)} unfolded, {len(lifted)} lifted)",
            pass_name=self.name,
            stage="summary",
        )
