"""ge-autofuse: GE's second-stage fusion (CanFuse) between AscBackends, then lifting.

Follows compiler/graph/optimize/autofuse/autofuse/autofuser.cpp (Autofuser::Fuse steps 5
and 6, docs/ge/autofuse.md): the FusionStrategySolver (passes/autofuse/solver.py) with the
AscBackend decider (passes/autofuse/decider.py) on every graph, the loop-merge round
inside each FusedAscBackend, then AscIrLowerer::Lifting: the concat poor-performance
unfolding (LowerConcatHelper, passes/autofuse/concat_lifting.py) and
LiftingManager::LiftingGraph (passes/autofuse/lifting.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from ge_dialect import ascgraph as ag
from ge_dialect import attrs as A
from ge_dialect.asc_backend import asc_graph_of
from ge_dialect.diagnostics import remark
from ge_dialect.ge import AscBackend, GraphOp, NetOutput, ge_type
from ge_dialect.graph import dynamic_graphs, graphs_in_pass_order, graphs_to_compile
from ge_dialect.node_types import SOURCE_TYPES
from ge_dialect.pass_options import REMARKS, AtLeast, Flag, OneOf, Option, check_options
from passes.autofuse.concat_lifting import lifting_poor_perf_fused_asc_backends
from passes.autofuse.decider import AscBackendFusionDecider, AscBackendSubGraphFusionDecider
from passes.autofuse.fuse_cache import make_fuse_cache
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


def symbolic_graphs(module: ModuleOp) -> list[GraphOp]:
    """The unknown-shape graphs holding AscBackends over symbolic axes (ge-symbolic-autofuse's)."""
    dynamic = dynamic_graphs(module)
    out = []
    for g in graphs_in_pass_order(module):
        if g.sym_name.data in dynamic and any(
            isinstance(n, AscBackend) and ag.is_symbolic(asc_graph_of(n)) for n in g.body.block.ops
        ):
            out.append(g)
    return out


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

    # auto_fuse_config.h: FusionStrategySolverConfig (docs/ge/autofuse.md)
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
    fuse_cache: bool = True
    symbolic: bool = False

    OPTIONS: ClassVar[dict[str, Option]] = {
        "max_fusion_size": Option("the most AscIR nodes one fused kernel may hold (0: never fuse)", AtLeast(0)),
        "max_fuse_rounds": Option("the greedy solver's rounds on a graph", AtLeast(0)),
        "max_input_nums_after_fuse": Option("the most inputs a fused kernel may have (GE: 8 on A2/A3)", AtLeast(1)),
        "max_proximity": Option(
            "horizontal fusion is refused when the two nodes are further apart than this in topological order",
            AtLeast(0, or_none="no limit, GE's INT64_MAX"),
        ),
        "max_output_bytes": Option("the output bytes a horizontal fusion may have (GE: 13 GiB)", AtLeast(0)),
        "max_reduce_fused_elementwise": Option("the compute nodes a reduction may absorb after it", AtLeast(0)),
        "buffer_group_window": Option(
            "not GE's: in a group of nodes that share a buffer, each node is paired with this many "
            "next nodes only (passes/autofuse/solver.py)",
            AtLeast(1),
        ),
        "lifting": Option(
            "after fusion, unfold poor concat kernels and lift tiny unfused ones (false: GE's disable_lifting)", Flag()
        ),
        "remarks": REMARKS,
        "solver": Option(
            "greedy: GE's FusionStrategySolver, unchanged; global (not GE's): after greedy, an exact "
            "branch and bound per window of max-region-nodes nodes over the plans CanFuse accepts, for "
            "the fewest global-memory bytes, kept only where it moves fewer bytes than greedy "
            "(passes/autofuse/global_solver.py)",
            OneOf(("greedy", "global")),
        ),
        "max_nodes_explored": Option(
            "solver=global: the search states per window (a deterministic work limit)", AtLeast(1)
        ),
        "max_region_nodes": Option("solver=global: the most nodes of one searched window", AtLeast(1)),
        "fuse_cache": Option(
            "not GE's: keep the decider's answers across pairs and move nodes into a loop merge instead of "
            "cloning them (passes/autofuse/fuse_cache.py); false, or GE_FUSE_CACHE=0, computes each afresh, "
            "with the same result",
            Flag(),
        ),
        "symbolic": Option(
            "fuse the AscBackends over symbolic shapes of the unknown-shape graphs (ge-symbolic-autofuse's "
            "output) instead of the static graphs: candidate pairs ranked by ScoreFusionMemory as an "
            "expression in ScoreFusion::Compare's order, a fact CanFuse cannot prove refuses the pair, no lifting",
            Flag(),
        ),
    }

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kw: dict[str, Any] = dict(
            max_fusion_size=self.max_fusion_size,
            max_input_nums_after_fuse=self.max_input_nums_after_fuse,
            max_reduce_fused_elementwise=self.max_reduce_fused_elementwise,
        )
        cache = self.fuse_cache
        cfg = SolverConfig(
            max_fuse_rounds=self.max_fuse_rounds,
            max_proximity=self.max_proximity,
            max_output_bytes=self.max_output_bytes,
            buffer_group_window=self.buffer_group_window,
        )
        graphs = symbolic_graphs(op) if self.symbolic else graphs_to_compile(op, self.name, self.remarks, "no fusion")
        if self.symbolic:
            cfg.symbolic = True
        for graph in graphs:
            block = graph.body.block
            before = kernel_traffic(block)
            if self.solver == "global" and not self.symbolic:
                stats = self._fuse_global(graph, cfg, kw)
                block = graph.body.block
            else:
                decider = AscBackendFusionDecider(**kw, cache=make_fuse_cache(cache))
                stats = fuse_block(
                    block,
                    decider,
                    cfg,
                    inner_decider=lambda: AscBackendSubGraphFusionDecider(**kw, cache=make_fuse_cache(cache)),
                )
            if self.remarks:
                for f in stats.fused:
                    score = f.shared_expr if self.symbolic else f.shared_bytes
                    remark(
                        None,
                        f"ge-autofuse: '{f.first_name}' and '{f.second_name}' fused into '{f.fused_name}' "
                        f"(priority {f.priority.name}, ScoreFusionMemory {score} bytes)",
                        pass_name=self.name,
                        stage="fuse",
                        verdict="fused",
                        nodes=(f.first_name, f.second_name, f.fused_name),
                        location=f.location,
                        data={"priority": f.priority.name, "shared_bytes": f.shared_bytes},
                    )
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
                        data={"shared_bytes": r.shared_bytes},
                    )
            unfolded: list[str] = []
            lifted: list[str] = []
            # autofuser.cpp: AscIrLowerer::Lifting -- concat unfolding first, then LiftingGraph
            # lifting would give GE ops back to the host: not over symbols
            if self.lifting and not self.symbolic:
                unfolded = lifting_poor_perf_fused_asc_backends(block, remarks=self.remarks)
                lifted = lift_graph(block, remarks=self.remarks)
            if self.remarks:
                self._summary(graph, stats, before, kernel_traffic(block), lifted, unfolded)

    def _fuse_global(self, graph: GraphOp, cfg: SolverConfig, kw: dict[str, Any]):
        """solver=global: greedy and the global search each on a clone of the graph's body;
        the body kept is the one moving fewer bytes (greedy's on a tie)."""
        solver = GlobalSolver(
            lambda: AscBackendFusionDecider(**kw, cache=make_fuse_cache(self.fuse_cache)),
            cfg,
            GlobalConfig(self.max_nodes_explored, self.max_region_nodes),
            inner_decider=lambda: AscBackendSubGraphFusionDecider(**kw, cache=make_fuse_cache(self.fuse_cache)),
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
