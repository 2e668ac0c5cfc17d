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

Upstream tools keep no SSA names (mlir-opt prints `%0`, `%1`, ...), so the generic form the
tools write carries each node's SSA names as its `ge.ssa_names` attribute too
(`names_as_attributes`), which mlir-opt keeps; the tools' parser reads it back into the SSA
names and drops it (`adopt_parsed_name`), so that the custom syntax reads as before the
round trip. A `name` attribute is left as it is (it is part of the node: xDSL's cse keeps
two nodes apart that differ in it).

xDSL strips a `_<digits>` suffix from every SSA name hint it is given (so `%data_1` and
`%data_2` would both become node `data`). GE node names are identities (remarks, the
`lxslice` rule, offset lists name producers), so the project keeps SSA names exactly, by
replacing SSAValue.extract_valid_name (ge_fast/ssa_names.py: why it is still global).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue

from ge_dialect.attrs import NODE_NAME
from ge_fast.ssa_names import keep_exact_ssa_names

# xDSL would strip `_<digits>` from every SSA name: ge_fast/ssa_names.py keeps them exact
# (a feature, on whatever ge_fast's switch says), from before any op is built.
keep_exact_ssa_names()


def is_node(op: Operation) -> bool:
    """A GE node: an op of the ge dialect other than the graph itself."""
    return op.name.startswith("ge.") and op.name != "ge.graph"


# The generic form's copy of a node's SSA names (`names_as_attributes`): one string, or
# one per result for a node of several results ("" for a result without a name).
SSA_NAMES = "ge.ssa_names"


def _ssa_names_attr(op: Operation) -> Attribute:
    hints = [r.name_hint or "" for r in op.results]
    return StringAttr(hints[0]) if len(hints) == 1 else ArrayAttr([StringAttr(h) for h in hints])


def _ssa_names_of(attr: Attribute) -> list[str] | None:
    if isinstance(attr, StringAttr):
        return [attr.data]
    if isinstance(attr, ArrayAttr) and all(isinstance(a, StringAttr) for a in attr.data):
        return [a.data for a in attr.data]  # type: ignore[attr-defined]
    return None


@contextmanager
def names_as_attributes(root: Operation) -> Iterator[None]:
    """While the block runs, every GE node with results under `root` carries its results'
    SSA names as its `ge.ssa_names` attribute (the generic form the tools print: upstream
    tools keep attributes, not SSA names; a nameless node is named first, `name_nodes`);
    the attributes are removed afterwards."""
    added: list[Operation] = []
    for op in root.walk():
        if op.results and is_node(op) and SSA_NAMES not in op.attributes:
            node_name(op)
            op.attributes[SSA_NAMES] = _ssa_names_attr(op)
            added.append(op)
    try:
        yield
    finally:
        for op in added:
            del op.attributes[SSA_NAMES]


def adopt_parsed_name(values: Sequence[SSAValue]) -> None:
    """What the tools' parser does with each SSA definition (`%a = ...`, `%0:2 = ...`) of a
    node's first result: a `ge.ssa_names` attribute (the generic form, read back after an
    upstream tool renumbered the values) gives the node's results their SSA names again,
    and goes, so that the custom syntax reads as before the round trip."""
    first = values[0] if values else None
    if not isinstance(first, OpResult) or first.index != 0 or not is_node(first.owner):
        return
    op = first.owner
    attr = op.attributes.get(SSA_NAMES)
    names = _ssa_names_of(attr) if attr is not None else None
    if names is None or len(names) != len(op.results):
        return  # not the tools' attribute: left for the verifier to see
    for r, n in zip(op.results, names):
        if n and SSAValue.is_valid_name(n):
            r.name_hint = n
    del op.attributes[SSA_NAMES]


def ge_type(op: Operation) -> str:
    """GE's op type string: the op name without the dialect prefix."""
    return op.name.split(".", 1)[1] if op.name.startswith("ge.") else op.name


def given_name(op: Operation) -> str | None:
    """The name the IR gives the node: its `name` attribute, else its first result's SSA
    name (or, read by a parser that did not take them in, the first of its `ge.ssa_names`),
    else its type for a node without results; None for a nameless node."""
    n = op.attributes.get(NODE_NAME)
    if isinstance(n, StringAttr):
        return n.data
    if not op.results:
        return ge_type(op)
    if op.results[0].name_hint is None and (ssa := op.attributes.get(SSA_NAMES)) is not None:
        names = _ssa_names_of(ssa)
        if names and names[0]:
            return names[0]
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
                if any(is_node(o) for o in block.ops):
                    name_nodes(block)
