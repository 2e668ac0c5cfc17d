"""The composition root of the interpreters: which xDSL interpreter functions run a ge
module, said once.

`ge_interpreter(module)` makes a `GeInterpreter` (runtime/graph_interpreter.py) and
registers on it the reference semantics of the ge ops (runtime/reference.py's
`ReferenceFunctions`) and the AscGraph interpreter (runtime/ascgraph_interp.py's
`AscGraphFunctions`: ge.AscBackend and the AscGraph nodes). ge-run, the simulator, the error bounds, the benches and the tests get
their interpreter here, so neither interpreter module imports the other's registrations
and nothing depends on what was imported first. A caller may register more on its own
instance (`register_implementations(..., override=True)`); no other instance sees it.

`run_graph(graph, inputs)` executes one `ge.graph` and returns its NetOutput values;
`run_module(module, inputs, graph_name=None)` picks the root graph (the one no
`ge.PartitionedCall` calls) unless a name is given.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from ge_dialect import ge
from ge_dialect.graph import select_graph
from runtime.ascgraph_interp import AscGraphFunctions
from runtime.graph_interpreter import GeInterpreter
from runtime.reference import ReferenceFunctions

__all__ = ["ge_interpreter", "run_graph", "run_module"]


def ge_interpreter(module: ModuleOp | None = None) -> GeInterpreter:
    """A fresh interpreter of `module` with the reference and AscGraph functions registered."""
    interpreter = GeInterpreter(module if module is not None else ModuleOp([]))
    interpreter.register_implementations(ReferenceFunctions())
    interpreter.register_implementations(AscGraphFunctions())
    return interpreter


def _module_of(op: Operation) -> ModuleOp | None:
    top = op.parent_op()
    while top is not None and not isinstance(top, ModuleOp):
        top = top.parent_op()
    return top


def run_graph(graph: ge.GraphOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Evaluate `graph` on `inputs` (in ge.Data index order); returns NetOutput's values."""
    return ge_interpreter(_module_of(graph)).run_graph(graph, inputs)


def run_module(module: ModuleOp, inputs: Sequence[np.ndarray], graph_name: str | None = None) -> list[np.ndarray]:
    """Evaluate graph `graph_name`, or else the module's only root graph."""
    return ge_interpreter(module).run_graph(select_graph(module, graph_name), inputs)
