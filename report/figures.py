"""The figures of a run, each defined once: ge-run's report and --stats-json, the Python
API's `stats` (ge_tools/api.py) and the HTML report (report/html.py) all take them from
here.

- `model_figures(model)`: what a compiled npu.model is (tasks, kernels, streams, events,
  no-task nodes, the memory figures);
- `simulation_stats(...)`: what executing it did, per execution (bytes moved, tasks by
  kind, the peak of live feature-map bytes, the args refreshed);
- `Check`: one comparison of the run's outputs (ge-run prints and reports each; the report
  draws them); here, not in report/html.py, so that a run without --report imports none
  of the report;
- the memory figures' names and definitions (MEMORY_FIGURES): ge-run's memory line and
  --help, its --stats-json keys, the report's memory section and the memory picture
  (report/memory_svg.py). F <= ... : L <= F always; P <= L on one stream, P <= F on any
  number of streams.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import StringAttr

from ge_dialect import attrs as A

if TYPE_CHECKING:
    from ge_dialect import npu
    from runtime.simulator import Stats


@dataclass
class Check:
    """One comparison of the run's outputs: against whom, whether they matched, its
    figures (name -> value) and one line per difference."""

    against: str
    matched: bool
    figures: dict[str, object] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Figure:
    name: str  # as ge-run's memory line and the report print it
    letter: str
    stats_key: str  # its --stats-json key
    definition: str


PLANNED_ARENA = Figure(
    "feature map",
    "F",
    "memory_size",
    "the size of the model's feature-map region, the planned arena: the arena ge-assign-memory "
    "planned for the graph (its memory_size) plus, for each inlined PartitionedCall, its subgraph's "
    "arena (512-aligned, appended).",
)
LOWER_BOUND = Figure(
    "lower bound",
    "L",
    "memory_lower_bound",
    "the planner's memory_lower_bound, plus each inlined call arena's: the most bytes of feature-map "
    "blocks alive at one node (a block is a memory symbol's stored size, GE's TensorUtils::GetSize of "
    "its storage shape, rounded up to 512; alive from its first producer to its last reader, both "
    "included). No placement of those blocks fits in fewer bytes: L <= F.",
)
PEAK_LIVE = Figure(
    "peak live",
    "P",
    "peak_live_fm_bytes",
    "measured by the simulator, the most feature-map bytes live at once: a byte is live from the "
    "task that writes it until the last task that reads it (of its tensor, or of a view over it: a "
    "PhonySplit piece nobody reads is dead), a running task's inputs and outputs live together, an "
    "output nobody reads live while its task runs; bytes are counted once (views share them) and at "
    "their tensor's storage size, not rounded. The maximum over all executions. P <= L on one stream "
    "(every live byte lies in a block the plan keeps alive at that node); P <= F on any number of "
    "streams.",
)
MEMORY_FIGURES = (PLANNED_ARENA, LOWER_BOUND, PEAK_LIVE)


def help_text(width: int = 88) -> str:
    """The figures as ge-run --help lists them."""
    out = [
        'The memory line, in bytes ("memory: feature map F bytes, lower bound L (F/L x), peak',
        'live P"; --stats-json: ' + ", ".join(f"{f.letter} {f.stats_key}" for f in MEMORY_FIGURES) + "):",
    ]
    for f in MEMORY_FIGURES:
        lines = textwrap.wrap(f"{f.letter}: {f.definition}", width - 15)
        out.append(f"  {f.name:<11}  {lines[0]}")
        out.extend(f"{'':15}{ln}" for ln in lines[1:])
    return "\n".join(out)


def model_figures(model: npu.ModelOp) -> dict[str, object]:
    """The figures of a compiled npu.model (--stats-json's keys): tasks, kernels, streams,
    events, no_task_nodes (`node (Type)`), memory_size, memory_lower_bound,
    memory_proven_bound, memory_gap."""
    from ge_dialect import npu  # here: ge-run --help reads the definitions above without the dialect

    tasks = [t for s in model.stream_ops() for t in s.tasks]
    # a node with tasks of its own (a While's label tasks) is not a no-task node, though its
    # outputs are aliases (the loop-carried buffers)
    tasked = {n.data for t in tasks if isinstance(n := t.attributes.get("node"), StringAttr)}
    no_task: dict[str, str] = {}
    for e in model.table():
        if isinstance(e, npu.AliasOp):
            node, ty = e.attributes.get("node"), e.attributes.get("type")
            if (
                isinstance(node, StringAttr)
                and isinstance(ty, StringAttr)
                and ty.data not in ("Data", "RefData")
                and node.data not in tasked
            ):
                no_task.setdefault(node.data, ty.data)
    size = model.regions_table().get("fm", 0)
    bound = A.get_int(model, A.MEMORY_PROVEN_BOUND, 0) or 0
    return {
        "tasks": len(tasks),
        "kernels": sum(isinstance(t, npu.KernelOp) for t in tasks),
        "streams": model.streams.value.data,
        "events": model.events.value.data,
        "no_task_nodes": [f"{n} ({t})" for n, t in no_task.items()],
        PLANNED_ARENA.stats_key: size,
        LOWER_BOUND.stats_key: A.get_int(model, "memory_lower_bound", 0),
        "memory_proven_bound": bound,
        "memory_gap": size / bound - 1 if bound else 0.0,
    }


def simulation_stats(
    figures: dict[str, object], stats: Stats, refreshed: Sequence[int], executions: int
) -> dict[str, object]:
    """The model's `figures` (model_figures) and the simulator's `stats` over `executions`
    executions, per execution (`refreshed`: the tasks whose I/O addresses each execution
    refreshed): --stats-json's simulator figures and the API's SimulationResult.stats."""
    n = stats.executions
    return {
        **figures,
        "executions": executions,
        "refreshed_tasks": list(refreshed),
        "bytes_moved": (stats.kernel_bytes_read + stats.kernel_bytes_written + stats.memcpy_bytes) // n,
        "tasks_by_kind": {k: v // n for k, v in stats.tasks_by_kind.items()},
        "kernel_bytes_read": stats.kernel_bytes_read // n,
        "kernel_bytes_written": stats.kernel_bytes_written // n,
        "memcpy_bytes": stats.memcpy_bytes // n,
        PEAK_LIVE.stats_key: stats.peak_live_fm_bytes,
    }
