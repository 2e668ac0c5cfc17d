"""The project as an xDSL plugin: the `xdsl.universe` entry point (pyproject.toml).

With the project installed (`pip install -e .`), stock `xdsl-opt` finds this Universe
(xdsl/universe.py: Universe.get_multiverse) and so parses the ge, ascgraph and npu
dialects and runs every project pass: `xdsl-opt -p ge-concat-notask FILE`. The dialects
and passes are ge_tools/registry.py's lazy factories: loading the plugin imports none of
them. ge-opt's own diagnostics (located one-line errors, remarks, --dump-dir) stay ge-opt's.
"""

from __future__ import annotations

from xdsl.universe import Universe

from ge_tools.registry import get_all_dialects, get_all_passes

GE_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes())
