"""GE node names: the one function every pass, remark and tool asks for a node's name.

A node's name is its `name` attribute, else its first result's SSA name, else (a node
without results, such as NetOutput) its type. A node the file leaves nameless (numeric
SSA names `%0`, `%1`, as generic printers and upstream mlir-opt write them) is named the
way GE's ONNX parser names a nameless node, `<type>_<index>` with one index over the
graph's nameless nodes in order (`Data_0`, `Data_1`, `Add_2`), and a name already taken in
the graph is made unique the way GE's TensorFlow parser does it, `<name>_0`, `<name>_1`,
... (`name_nodes`). Names are unique per graph (per block: a FusedAscBackend body is its
own scope); the assigned name is stored as the first result's SSA name, so the printed IR
shows it and a later pass or tool sees the same name.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, SSAValue

from ge_dialect.attrs import NODE_NAME


def _keep_exact_ssa_name(cls: type, name: str | None) -> str | None:
    """SSA names are GE node names here: keep them exactly.

    xDSL strips a `_<digits>` suffix from every SSA name hint (so `%data_1` and `%data_2`
    would both become node `data`, printed `%data` and `%data_1`). GE node names are
    identities (remarks, the `lxslice` rule, offset lists name producers), so the
    project's tools keep the name as written; the printer still adds `_<n>` on a clash.
    """
    if name is not None and not SSAValue.is_valid_name(name):
        raise ValueError(f"invalid SSA value name '{name}'")
    return name


SSAValue.extract_valid_name = classmethod(_keep_exact_ssa_name)  # type: ignore[method-assign, assignment]


def ge_type(op: Operation) -> str:
    """GE's op type string: the op name without the dialect prefix."""
    return op.name.split(".", 1)[1] if op.name.startswith("ge.") else op.name


def given_name(op: Operation) -> str | None:
    """The name the IR gives the node: its `name` attribute, else its first result's SSA
    name, else its type for a node without results; None for a nameless node."""
    n = op.attributes.get(NODE_NAME)
    if isinstance(n, StringAttr):
        return n.data
    if not op.results:
        return ge_type(op)
    return op.results[0].name_hint


def node_name(op: Operation) -> str:
    """GE's node name of `op`, unique in its graph.

    A nameless node gets its name from `name_nodes` on its block the first time any node
    of that block is asked for (once per block: every nameless node is named at once).
    """
    n = given_name(op)
    if n is not None:
        return n
    block = op.parent_block()
    if block is None or not op.name.startswith("ge."):
        # a node not yet in a graph has no name to keep unique; other ops are not nodes
        return ge_type(op)
    name_nodes(block)
    n = given_name(op)
    assert n is not None
    return n


class UniqueNames:
    """graph_to_function_def.cc: NameMapHelper::GetUniqueName (a taken name gets the first
    free `_<i>` suffix, i = 0, 1, ...)."""

    def __init__(self, taken: Iterable[str]):
        self.used = set(taken)
        self.next_suffix: dict[str, int] = {}

    def get(self, name: str) -> str:
        if name not in self.used:
            self.used.add(name)
            return name
        i = self.next_suffix.get(name, 0)
        while f"{name}_{i}" in self.used:
            i += 1
        self.next_suffix[name] = i + 1
        self.used.add(f"{name}_{i}")
        return f"{name}_{i}"


def _set_name(op: Operation, name: str) -> None:
    if NODE_NAME in op.attributes or not op.results:
        op.attributes[NODE_NAME] = StringAttr(name)
    else:
        op.results[0].name_hint = name


def name_nodes(block: Block) -> bool:
    """Give every node of `block` a name of its own, in one walk; True if a name changed.

    Nodes without results keep their type (NetOutput) ahead of everything else; then, in
    block order, the first node of a given name keeps it, and a nameless node or a later
    node of a taken name gets a fresh one:
    onnx_parser.cc: UpdateNodeNameAndOpType (a nameless node is `op_type + "_" + index`,
    the index counting the graph's nameless nodes) and graph_to_function_def.cc:
    NameMapHelper::GetUniqueName (a taken name gets `_0`, `_1`, ...).
    """
    ops = list(block.ops)
    given = [given_name(op) for op in ops]
    first: dict[str, Operation] = {}
    for op, n in zip(ops, given):
        if n is not None and not op.results:
            first.setdefault(n, op)
    for op, n in zip(ops, given):
        if n is not None:
            first.setdefault(n, op)
    names = UniqueNames(first)
    index = 0
    changed = False
    for op, n in zip(ops, given):
        if n is None:
            # onnx_parser.cc: UpdateNodeNameAndOpType
            _set_name(op, names.get(f"{ge_type(op)}_{index}"))
            index += 1
            changed = True
        elif first[n] is not op:
            # graph_to_function_def.cc: NameMapHelper::GetUniqueName
            _set_name(op, names.get(n))
            changed = True
    return changed


def name_all_nodes(root: Operation) -> None:
    """`name_nodes` on every block under `root` that holds nodes (each graph, each
    FusedAscBackend body): what a tool runs once on its input, before any pass changes
    the graphs, so that names follow the input file."""
    for op in root.walk():
        for region in op.regions:
            for block in region.blocks:
                if any(o.name.startswith("ge.") and o.name != "ge.graph" for o in block.ops):
                    name_nodes(block)
