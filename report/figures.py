"""The memory figures, each defined once: ge-run's memory line and --help, its --stats-json
keys, the report's memory section and the memory picture (report/memory_svg.py) all take
their names and definitions from here.

F <= ... : L <= F always; P <= L on one stream, P <= F on any number of streams.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass


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
