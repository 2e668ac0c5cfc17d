"""The ascgraph dialect: GE's AscGraph, one loop nest of AscIR nodes (docs/ge/autofuse.md).

    %y = ge.AscBackend(%x) {fuse_type = "pointwise", fuse_type_mask = 2, origin_nodes = ["add", "abs", "exp"], fusion_nodes_size = 7} : (tensor<4x8xf16>) -> tensor<4x8xf16> {
      ascgraph.graph @autofuse_pointwise_0_Add_Abs_Exp axis = [0: z0 = 4, 1: z1 = 8] {
        %data = ascgraph.Data {index = 0} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
        %load = ascgraph.Load(%data) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>
        %add = ascgraph.Add(%load, %load) {sched.axis = [0, 1]} : !ascgraph.tensor<...>
        ...
        %store = ascgraph.Store(%exp) {offset = 0, sched.axis = [0, 1]} : !ascgraph.tensor<...>
        %out = ascgraph.Output(%store) {index = 0} : !ascgraph.tensor<...>
      }
    }

* `ascgraph.graph @name axis = [id: name = size, ...]` is one AscGraph: its graph axes
  (GE `AscGraphAttr::axis`, type Original) and one block of nodes in topological order.
  It lives alone in the region of a `ge.AscBackend`, whose operands map in order to its
  `Data` nodes and whose results map to its `Output` nodes.
* Every node is `ascgraph.<AscIR type>`, printed like a ge node; GE's node attributes are
  discardable attributes with GE's strings: `sched.axis` (the loop axes, outer to inner;
  required on compute-class nodes, optional on the memory-class Data/Output/Workspace and
  on Scalar), `index` (Data, Output), `offset` (Load, Store), `value` (Scalar), `gid`
  (Split). A Cast's destination dtype is its output dtype (as in GE).
* Every output is a `!ascgraph.tensor<dtype, axis = [...], repeats = [...], strides = [...]>`
  (GE `AscTensorAttr`): the value's dims in `axis` order, their extents and element
  strides. Because the type is the SSA value's, both ends of an edge agree by construction.
* Sizes, repeats and strides are integers, or, in a graph lowered over symbolic shapes
  (dims of `?`), GE's `Expression`s over the ShapeEnv's symbols, printed quoted:
  `0: z0 = "s0"`, `repeats = ["s0", 32]`, `strides = [32, 1]` (`#ascgraph.sym`). Read
  through the attributes, such a dim is a `symbolic.Dim`: every comparison the verifiers
  and passes make on it is a static check (provable, else NotProvable). `instantiate`
  evaluates them for the symbols' values of one execution (tiling). Offsets stay ints.

Op names are GE's AscIR names (`ascir_ops.cpp`, `REG_ASC_IR`): pointwise maximum/minimum
are `Maximum`/`Minimum` and the reductions are `Sum`, `Max`, `Min`, `Mean`, `Prod`; the
natural log is `Ln`. Reductions keep dims: a reduced axis stays with repeat 1, stride 0.
Concat and Split carry no axis attribute in GE: the concat (split) axis is the one axis
on which the inputs' (outputs') repeats differ from the output's (input's).

Verifier rules (each message names the node and the rule):
* every axis id of a tensor or `sched.axis` is a graph axis; no id twice;
* repeats lie in 1..size and are the axis size or 1, except on the concat/split axis of a
  Concat/Split in the graph (a partial extent); the stride is 0 exactly where the repeat
  is 1; on-chip values (everything but Data, Workspace, Store, Output) are contiguous:
  stride = product of the later repeats (GE's contiguous strides, 0 where the repeat is 1);
* each node's views agree with its operands' (pointwise: same axis list, operand repeat
  equal or 1, output repeat the broadcast of the operands'; Load: Data repeat equal or 1;
  Broadcast, Transpose, Concat, Split, Gather, reductions as documented on each op); a
  Data read only by Gather nodes is a whole params/indices tensor with positional axis
  ids (GE's GatherLoad), so the repeat rules of loop views do not apply to it;
* Data/Output indices are dense 0..n-1; values are defined before use;
* at the `ge.AscBackend` (see `asc_backend.py: verify_asc_backend`): Data/Output count and element type
  match the operands/results, every Data/Load view stays inside its operand tensor, every
  Store view covers its result tensor exactly once, and `fusion_nodes_size` is the node
  count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    IntAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import symbolic as S
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import ge_dtype_name
from ge_fast.operands import operand

SCHED_AXIS = "sched.axis"  # GE AscNodeAttr::sched.axis

# ---------------------------------------------------------------------------------------
# GE's fuse types (autofuse/fusion/fuse_type.h: loop::FuseType, FuseTypeToString)
# ---------------------------------------------------------------------------------------

# Index = the enum value; the strings are FuseTypeToString's (used in AscBackend names).
FUSE_TYPES: tuple[str, ...] = (
    "default", "pointwise", "reduce", "concat", "split", "slice",
    "gather", "transpose", "cube", "reshape", "extern",
)  # fmt: skip
FUSE_TYPE_ALL_BITS = (1 << len(FUSE_TYPES)) - 1


def fuse_type_bit(name: str) -> int:
    """`1 << FuseType` (autofuse_attrs.h: the inner `fuse_type` bitmask is OR-ed bits)."""
    return 1 << FUSE_TYPES.index(name)


# ---------------------------------------------------------------------------------------
# Attributes and types
# ---------------------------------------------------------------------------------------


def contiguous_strides(repeats: Sequence[int]) -> tuple[int, ...]:
    """GE's contiguous strides: stride[i] = prod(repeats[i+1:]), 0 where the repeat is 1
    (asc_lowerer/asc_overrides.cpp, StoreOp::RealizeImpl; docs/ge/autofuse.md)."""
    out = [0] * len(repeats)
    acc = 1
    for i in range(len(repeats) - 1, -1, -1):
        out[i] = 0 if repeats[i] <= 1 else acc
        acc *= max(repeats[i], 1)
    return tuple(out)


def _parse_int_list(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


# The lower bound of the symbols a quoted dim does not state: 2, the ShapeEnv's default
# with 0/1 specialisation (ge_dialect/shape_env.py).
DEFAULT_SYM_LOWER = 2


@irdl_attr_definition
class SymDimAttr(ParametrizedAttribute):
    """`#ascgraph.sym<"s0*32">`: a symbolic dim (GE's Expression) where an axis size,
    repeat or stride is not a constant; `lower` is its symbols' lower bound (>= 2 under
    0/1 specialisation). `data` is the dim as a `symbolic.Dim`, so code reading
    `IntAttr.data` reads it too, comparing only through static checks."""

    name = "ascgraph.sym"
    expr: StringAttr
    lower: IntAttr

    def __init__(self, e: str | S.Dim, lower: int = DEFAULT_SYM_LOWER):
        if isinstance(e, S.Dim):
            e, lower = S.text(e.e), e.lower
        super().__init__(StringAttr(e), IntAttr(lower))

    @property
    def data(self) -> S.Dim:
        d = vars(self)
        if (v := d.get("_dim")) is None:
            v = d["_dim"] = S.Dim(S.parse(self.expr.data), self.lower.data)
        return v

    def text(self) -> str:
        if self.lower.data == DEFAULT_SYM_LOWER:
            return f'"{self.expr.data}"'
        return f'"{self.expr.data}; >={self.lower.data}"'

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            a = _parse_sym_text(parser, parser.parse_str_literal(), parser.pos)
        return (a.expr, a.lower)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")


def _parse_sym_text(parser: AttrParser, text: str, pos: int) -> SymDimAttr:
    body, _, low = text.partition("; >=")
    try:
        d = S.parse(body)
        lower = int(low) if low else DEFAULT_SYM_LOWER
    except ValueError as e:
        parser.raise_error(str(e), pos, parser.pos)
    c = S.as_const(d)
    if c is not None:
        parser.raise_error(f"symbolic dim {text!r} is the constant {c}: write it as an integer", pos, parser.pos)
    return SymDimAttr(S.text(d), lower)


def dim_attr(v: int | S.Dim) -> IntAttr | SymDimAttr:
    """An int dim as an IntAttr, a symbolic one as a SymDimAttr."""
    return SymDimAttr(v) if isinstance(v, S.Dim) else IntAttr(v)


def _dim_str(a: IntAttr | SymDimAttr) -> str:
    return a.text() if isinstance(a, SymDimAttr) else str(a.data)


def _parse_dim(parser: AttrParser) -> IntAttr | SymDimAttr:
    pos = parser.pos
    text = parser.parse_optional_str_literal()
    if text is not None:
        return _parse_sym_text(parser, text, pos)
    return IntAttr(parser.parse_integer())


def _parse_dim_list(parser: AttrParser) -> list[IntAttr | SymDimAttr]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_dim(parser))


@irdl_attr_definition
class AxisAttr(ParametrizedAttribute):
    """`#ascgraph.axis<0: z0 = 16>`: one graph axis (GE `Axis`: id, name, size; type Original)."""

    name = "ascgraph.axis"
    id: IntAttr
    axis_name: StringAttr
    size: IntAttr | SymDimAttr

    def __init__(self, id: int, name: str, size: int | S.Dim):
        super().__init__(IntAttr(id), StringAttr(name), dim_attr(size))

    @staticmethod
    def parse_body(parser: AttrParser) -> AxisAttr:
        start = parser.pos
        i = parser.parse_integer(allow_negative=False)
        parser.parse_punctuation(":")
        n = parser.parse_identifier()
        parser.parse_punctuation("=")
        d = _parse_dim(parser)
        if isinstance(d, SymDimAttr):
            return AxisAttr(i, n, d.data)
        s = d.data
        if s < 1:
            parser.raise_error(f"axis {n} has size {s}; sizes are integers >= 1 or symbolic dims", start, parser.pos)
        return AxisAttr(i, n, s)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            a = cls.parse_body(parser)
        return (a.id, a.axis_name, a.size)

    def body_str(self) -> str:
        return f"{self.id.data}: {self.axis_name.data} = {_dim_str(self.size)}"

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.body_str()}>")


@irdl_attr_definition
class AscTensorType(ParametrizedAttribute, TypeAttribute):
    """`!ascgraph.tensor<f16, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>`: an AscIR
    output tensor (GE `AscTensorAttr`): dtype, axis ids (the value's dim order), per-axis
    extent and element stride."""

    name = "ascgraph.tensor"
    # equal views print the same text (ints and a builtin element type): GePrinter keeps
    # one text per value (ge_tools/printer.py)
    PRINTS_BY_VALUE: ClassVar[bool] = True
    element_type: Attribute
    axis: ArrayAttr[IntAttr]
    repeats: ArrayAttr[IntAttr | SymDimAttr]
    strides: ArrayAttr[IntAttr | SymDimAttr]

    def __init__(
        self,
        element_type: Attribute,
        axis: Sequence[int],
        repeats: Sequence[int | S.Dim],
        strides: Sequence[int | S.Dim],
    ):
        super().__init__(
            element_type,
            ArrayAttr(IntAttr(a) for a in axis),
            ArrayAttr(dim_attr(r) for r in repeats),
            ArrayAttr(dim_attr(s) for s in strides),
        )

    # The three lists as tuples, built once per attribute: it is immutable, and the passes
    # read them hundreds of thousands of times on a large graph. Kept in the instance's
    # __dict__ (written through vars(): the dataclass is frozen), which the dataclass's eq and
    # hash, IRDL's parameters and the printer never read.
    @property
    def axis_ids(self) -> tuple[int, ...]:
        d = vars(self)
        if (t := d.get("_axis_ids")) is None:
            t = d["_axis_ids"] = tuple(a.data for a in self.axis.data)
        return t

    @property
    def repeat_list(self) -> tuple[int, ...]:
        d = vars(self)
        if (t := d.get("_repeat_list")) is None:
            t = d["_repeat_list"] = tuple(a.data for a in self.repeats.data)
        return t  # pyright: ignore[reportReturnType] (a symbolic Dim compares as an int, by proof)

    @property
    def stride_list(self) -> tuple[int, ...]:
        d = vars(self)
        if (t := d.get("_stride_list")) is None:
            t = d["_stride_list"] = tuple(a.data for a in self.strides.data)
        return t  # pyright: ignore[reportReturnType] (a symbolic Dim compares as an int, by proof)

    def repeat_of(self, axis_id: int) -> int:
        """The repeat on `axis_id`; 1 when the value does not have that axis."""
        ids = self.axis_ids
        return self.repeat_list[ids.index(axis_id)] if axis_id in ids else 1

    def verify(self) -> None:
        n = len(self.axis.data)
        if len(self.repeats.data) != n or len(self.strides.data) != n:
            raise VerifyException(
                f"axis, repeats and strides must have the same length, got {n}, "
                f"{len(self.repeats.data)} and {len(self.strides.data)}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            elem = parser.parse_type()
            lists: dict[str, list] = {}
            for key in ("axis", "repeats", "strides"):
                parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                start = parser.pos
                lists[key] = _parse_int_list(parser) if key == "axis" else [d.data for d in _parse_dim_list(parser)]
                if key != "axis" and len(lists[key]) != len(lists["axis"]):
                    parser.raise_error(
                        f"{key} has {len(lists[key])} entries for {len(lists['axis'])} axes", start, parser.pos
                    )
        t = AscTensorType(elem, lists["axis"], lists["repeats"], lists["strides"])
        return (t.element_type, t.axis, t.repeats, t.strides)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element_type)
        if self.is_symbolic():
            reps = "[" + ", ".join(_dim_str(a) for a in self.repeats.data) + "]"
            strides = "[" + ", ".join(_dim_str(a) for a in self.strides.data) + "]"
            printer.print_string(f", axis = {list(self.axis_ids)}, repeats = {reps}, strides = {strides}>")
            return
        printer.print_string(
            f", axis = {list(self.axis_ids)}, repeats = {list(self.repeat_list)}, strides = {list(self.stride_list)}>"
        )

    def is_symbolic(self) -> bool:
        """A repeat or stride is a symbolic dim."""
        d = vars(self)
        if (t := d.get("_symbolic")) is None:
            t = d["_symbolic"] = any(isinstance(a, SymDimAttr) for a in (*self.repeats.data, *self.strides.data))
        return t


_item = tuple.__getitem__  # (SSAValues is a tuple)


def tensor_type(v: SSAValue) -> AscTensorType:
    t = v.type
    assert isinstance(t, AscTensorType)
    return t


# ---------------------------------------------------------------------------------------
# The graph
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class AscGraphOp(IRDLOperation):
    """`ascgraph.graph @name axis = [0: z0 = 4, ...] { nodes }`: one AscGraph (HintGraph)."""

    # identity hashing in C: IRDLOperation.__hash__ computes the same id(self) in Python,
    # and the passes key dicts and sets by nodes (tests/dialects/test_node_hash.py)
    __hash__ = object.__hash__

    name = "ascgraph.graph"
    sym_name = prop_def(StringAttr)
    axis = prop_def(ArrayAttr[AxisAttr])
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator())

    def __init__(self, name: str, axes: Iterable[AxisAttr | tuple[int, str, int]], body: Region | None = None):
        ax = [a if isinstance(a, AxisAttr) else AxisAttr(*a) for a in axes]
        super().__init__(
            properties={"sym_name": StringAttr(name), "axis": ArrayAttr(ax)},
            regions=[body if body is not None else Region(Block())],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AscGraphOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("axis")
        parser.parse_punctuation("=")
        axes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: AxisAttr.parse_body(parser))
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        op = AscGraphOp(name, axes, body)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" axis = [" + ", ".join(a.body_str() for a in self.axis.data) + "]")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    # -- queries ------------------------------------------------------------------------

    def axis_sizes(self) -> dict[int, int]:
        # a symbolic size is a Dim, which compares as an int, by proof
        return {a.id.data: a.size.data for a in self.axis.data}  # pyright: ignore[reportReturnType]

    def axis_names(self) -> dict[int, str]:
        return {a.id.data: a.axis_name.data for a in self.axis.data}

    def axis_ids(self) -> list[int]:
        return [a.id.data for a in self.axis.data]

    def nodes(self) -> list[AscNode]:
        return [op for op in self.body.block.ops if isinstance(op, AscNode)]

    def data_nodes(self) -> list[Data]:
        return sorted((op for op in self.body.block.ops if isinstance(op, Data)), key=lambda d: d.index)

    def output_nodes(self) -> list[Output]:
        return sorted((op for op in self.body.block.ops if isinstance(op, Output)), key=lambda d: d.index)

    def partial_axes(self) -> set[int]:
        """Axes a value may cover partially: the concat/split axes of the graph's nodes."""
        out: set[int] = set()
        for op in self.body.block.ops:
            if isinstance(op, Concat | Split) and (a := op.moving_axis()) is not None:
                out.add(a)
        return out

    # -- verification -------------------------------------------------------------------

    def axis_table_error(self) -> str | None:
        """What is wrong with the axis table (unique ids and names, sizes >= 1), if anything."""
        seen_ids: dict[int, str] = {}
        seen_names: set[str] = set()
        for a in self.axis.data:
            if a.id.data in seen_ids:
                return f"axis id {a.id.data} is used by {seen_ids[a.id.data]} and {a.axis_name.data}"
            if a.axis_name.data in seen_names:
                return f"axis name {a.axis_name.data} is used twice"
            if a.size.data < 1:
                return f"axis {a.axis_name.data} has size {a.size.data}; sizes must be >= 1"
            seen_ids[a.id.data] = a.axis_name.data
            seen_names.add(a.axis_name.data)
        return None

    def verify_(self) -> None:
        table = axis_table(self)
        if table.error is not None:
            raise VerifyException(table.error)
        if self.body.block.args:
            raise VerifyException("an AscGraph takes its inputs through ascgraph.Data nodes, not block arguments")
        defined: set[SSAValue] = set()
        sizes = table.sizes
        partial = self.partial_axes()
        # _check_partial reads a result's type, the sizes and `partial` only, all fixed
        # here: the ids of the type objects that passed (each held by a value of this
        # graph while it verifies), so the results sharing one are checked once
        passed: set[int] = set()
        datas: list[Data] = []
        outputs: list[Output] = []
        for op in self.body.block.ops:
            if not isinstance(op, AscNode):
                raise VerifyException(f"an AscGraph holds ascgraph nodes only, got {op.name}")
            for i, v in enumerate(op.operands):
                if v not in defined:
                    raise VerifyException(
                        f"{op.name} input {i} is not defined before it in this AscGraph (nodes are in topological order)"
                    )
            results = op.results
            if results and not gather_operand(op):
                for k, r in enumerate(results):
                    if id(r.type) not in passed:
                        _check_partial(op, k, tensor_type(r), sizes, partial)
                        passed.add(id(r.type))
            defined.update(results)
            if isinstance(op, Data):
                datas.append(op)
            elif isinstance(op, Output):
                outputs.append(op)
        # data_nodes() and output_nodes(), collected in the walk above
        ordered = (sorted(datas, key=lambda d: d.index), sorted(outputs, key=lambda d: d.index))
        for kind, nodes in zip(("Data", "Output"), ordered):
            for k, n in enumerate(nodes):
                if n.index != k:
                    if k > 0 and nodes[k - 1].index == n.index:
                        raise VerifyException(f"two {kind} nodes have index {n.index}")
                    raise VerifyException(f"{kind} indices must be 0..{len(nodes) - 1}; index {k} is missing")


@dataclass(frozen=True)
class AxisTable:
    """What the verifiers read of a graph's axis table: its error (axis_table_error), the
    sizes and the names by axis id. Read only, shared by the verifiers of one graph."""

    axis: ArrayAttr[AxisAttr]  # the table read: held, so no other object takes its id
    error: str | None
    sizes: dict[int, int]
    names: dict[int, str]
    # AscNode.verify_'s checks of a `sched.axis` attribute and of an output view that
    # passed against this table: the same immutable attribute passes again, so the nodes
    # of a graph that share one check it once. Keyed by the attribute's identity, with the
    # attribute held in the entry (so no other object takes its id while it is here):
    # hashing an attribute's content cost more than the checks. Only passes are kept: a
    # failing check runs again and raises its own message.
    passed_sched: dict[int, tuple[Attribute, frozenset[int]]] = field(default_factory=dict, compare=False)
    passed_views: dict[int, tuple[AscTensorType, set[tuple[frozenset[int], bool, bool]]]] = field(
        default_factory=dict, compare=False
    )


_last_table: AxisTable | None = None


def axis_table(g: AscGraphOp) -> AxisTable:
    """`g`'s AxisTable. Each AscIR node's verifier needs its graph's table, and the nodes
    of a graph verify one after another: a one-entry memo keyed by the identity of the
    graph's `axis` ArrayAttr, which it holds (so the id is never another object's). An
    ArrayAttr is immutable, so the same object always reads the same; what invalidates
    the entry is a different object: another graph, or this graph's table replaced."""
    global _last_table
    axis = g.axis
    t = _last_table
    if t is None or t.axis is not axis:
        t = _last_table = AxisTable(axis, g.axis_table_error(), g.axis_sizes(), g.axis_names())
    return t


def _check_partial(op: Operation, k: int, t: AscTensorType, sizes: dict[int, int], partial: set[int]) -> None:
    # docs/ge/autofuse.md: a repeat is the axis size, or 1 (broadcast/reduced); only a concat
    # input or split output covers part of its axis (§3.2, StoreConcat: "each input's
    # Data/Load uses its own repeat on the concat axis id").
    for a, r in zip(t.axis_ids, t.repeat_list):
        s = sizes.get(a)
        if s is not None and r not in (1, s) and a not in partial:
            raise LocatedError(
                op,
                f"output {k} has repeat {r} on axis {a} of size {s}; a repeat is the axis size or 1 "
                f"(only a Concat or Split axis is partly covered)",
            )


# ---------------------------------------------------------------------------------------
# Nodes
# ---------------------------------------------------------------------------------------


def _parse_defined_operand(parser: Parser) -> SSAValue:
    """An operand defined above (an AscGraph is a DAG in topological order, so its type is
    known and the syntax need not repeat it)."""
    u = parser.parse_unresolved_operand()
    values = parser.ssa_values.get(u.operand_name)
    if values is None or u.index >= len(values):
        parser.raise_error(
            f"%{u.operand_name} is used before it is defined (AscGraph nodes are in topological order)", u.span
        )
    return parser.resolve_operand(u, values[u.index].type)


class InAscGraph(HasParent):
    """HasParent(ascgraph.graph) for every AscIR node, worded as before; unlike the stock
    trait it also refuses a detached node, whose checks need the graph's axis table."""

    def __init__(self) -> None:
        super().__init__(AscGraphOp)

    def verify(self, op: Operation) -> None:
        if not isinstance(op.parent_op(), AscGraphOp):
            raise VerifyException(f"{op.name} must be inside an ascgraph.graph")


class AscNode(IRDLOperation):
    """Base of every AscIR node: `%r = ascgraph.T(%a, ...) {attrs} : !ascgraph.tensor<...>`.

    No AscIR node is `Pure`, though the compute nodes have no side effects: the
    AscBackend's `fusion_nodes_size` counts the AscGraph's nodes (GE AutoFuseAttrs, checked
    by asc_backend.verify_asc_backend), so a stock `dce`/`cse` that removed or merged one
    would leave the count wrong; loop_ir's builder already shares equal nodes."""

    # identity hashing in C: IRDLOperation.__hash__ computes the same id(self) in Python,
    # and the passes key dicts and sets by nodes (tests/dialects/test_node_hash.py)
    __hash__ = object.__hash__

    inputs = var_operand_def()
    outputs = var_result_def(AscTensorType)
    traits = traits_def(InAscGraph())

    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (1, 1)
    NUM_OUTPUTS: ClassVar[tuple[int, int | None]] = (1, 1)
    ATTRS: ClassVar[dict[str, tuple[A.AttrKind, bool]]] = {}
    # Memory-class nodes (Data, Output, Workspace) hold GM views; sched.axis is optional.
    MEMORY: ClassVar[bool] = False
    SCHED_REQUIRED: ClassVar[bool] = True

    @classmethod
    def parse(cls, parser: Parser) -> AscNode:
        operands: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                operands = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: _parse_defined_operand(parser)
                )
                parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls.create(operands=operands, result_types=types, attributes=attributes)

    def print(self, printer: Printer) -> None:
        operands = self.operands
        if operands:
            printer.print_string("(")
            printer.print_list(operands, printer.print_operand)
        keep = A.keeping(printer)
        if keep is not None:
            # the rest of the line as one string, from kept texts (the same text as below)
            attrs = A.ge_attr_dict_text(keep, self.attributes) if self.attributes else ""
            results = self.results
            if len(results) == 1:
                types = keep.attribute_text(results[0].type)
            else:
                types = A.types_text(keep, (r.type for r in results))
            if attrs is not None and types is not None:
                close = ")" if operands else ""
                printer.print_string(f"{close} {attrs} : {types}" if attrs else f"{close} : {types}")
                return
        if operands:
            printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            A.print_ge_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_list((r.type for r in self.results), printer.print_attribute)

    # -- accessors ----------------------------------------------------------------------

    @property
    def asc_type(self) -> str:
        """GE's AscIR type string."""
        return self.name.split(".", 1)[1]

    def graph(self) -> AscGraphOp | None:
        p = self.parent_op()
        return p if isinstance(p, AscGraphOp) else None

    def sched_axis(self) -> list[int]:
        """`sched.axis`; a memory-class node without one runs under all graph axes."""
        v = A.get_int_list(self, SCHED_AXIS)
        if v is not None:
            return v
        g = self.graph()
        return g.axis_ids() if g is not None else []

    # The two most read accessors of AscIR (the fusion queries, lowering and the verifier
    # ask them about a million times on a 4k-node graph): the operand and result tuples
    # indexed as tuples, not through Operation.operands' per-read view and SSAValues'
    # Python __getitem__ (ge_fast/operands.py; tests/dialects/test_asc_tensor_lists.py)
    def in_type(self, i: int = 0) -> AscTensorType:
        t = operand(self, i).type
        assert isinstance(t, AscTensorType)
        return t

    def out_type(self, i: int = 0) -> AscTensorType:
        t = _item(self.results, i).type
        assert isinstance(t, AscTensorType)
        return t

    # -- verification -------------------------------------------------------------------

    def verify_(self) -> None:
        g = self.graph()
        assert g is not None  # the InAscGraph trait, verified just before this
        table = axis_table(g)
        if table.error is not None:
            raise LocatedError(g, table.error)  # nodes verify before their graph: report it there
        key = _node_key(self, table)
        if key in _PASSED_NODES:
            PASSED_NODE_HITS[0] += 1
            return  # a node of this class with these very attributes, types and neighbours passed
        self._verify_node(table)
        if len(_PASSED_NODES) >= _PASSED_NODES_MAX:
            _PASSED_NODES.clear()
        # held with the key, so that no other object takes one of the ids it names
        _PASSED_NODES[key] = (
            [v.type for v in self.operands],
            [r.type for r in self.results],
            list(self.attributes.values()),
        )

    def _verify_node(self, table: AxisTable) -> None:
        """verify_'s checks of a node not known to pass (see _node_key)."""
        for what, n, (lo, hi) in (
            ("inputs", len(self.operands), self.NUM_INPUTS),
            ("outputs", len(self.results), self.NUM_OUTPUTS),
        ):
            if n < lo or (hi is not None and n > hi):
                want = f"{lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
                raise VerifyException(f"{self.asc_type} takes {want} {what}, got {n}")
        for i, v in enumerate(self.operands):
            if not isinstance(v.type, AscTensorType):
                raise VerifyException(f"input {i} must be an !ascgraph.tensor, got {v.type}")
        for name, (kind, required) in self.ATTRS.items():
            a = self.attributes.get(name)
            if a is None:
                if required:
                    raise VerifyException(f"{self.asc_type} requires attribute '{name}' ({kind.value})")
            elif (err := A.kind_error(name, a, kind)) is not None:
                raise VerifyException(err)
        sizes = table.sizes
        names = table.names
        sched = self.attributes.get(SCHED_AXIS)
        if sched is None:
            if self.SCHED_REQUIRED:
                raise VerifyException(f"{self.asc_type} requires attribute '{SCHED_AXIS}' (its loop axis ids)")
            loop = frozenset(self.sched_axis())
        elif (known := table.passed_sched.get(id(sched))) is not None and known[0] is sched:
            loop = known[1]  # sched_axis() reads the same attribute
        else:
            if (err := A.kind_error(SCHED_AXIS, sched, A.AttrKind.LIST_INT)) is not None:
                raise VerifyException(err)
            ids = A.get_int_list(self, SCHED_AXIS) or []
            _check_axis_ids(ids, sizes, SCHED_AXIS)
            loop = frozenset(self.sched_axis())
            table.passed_sched[id(sched)] = (sched, loop)
        on_chip = not self.MEMORY and not isinstance(self, Store)
        gather = isinstance(self, Data) and gather_operand(self)
        for k, r in enumerate(self.results):
            t = tensor_type(r)
            rules = (loop, on_chip, gather)
            views = table.passed_views.get(id(t))
            if views is not None and views[0] is t and rules in views[1]:
                continue
            ids, reps, strides = t.axis_ids, t.repeat_list, t.stride_list  # each read once
            what = f"output {k}"
            _check_axis_ids(ids, sizes, f"{what} axis")
            for a, rep, st in zip(ids, reps, strides):
                if rep < 1 or (rep > sizes[a] and not gather):
                    raise VerifyException(
                        f"{what} has repeat {rep} on axis {names[a]} (id {a}) of size {sizes[a]}; "
                        f"repeats lie in 1..{sizes[a]}"
                    )
                if st < 0:
                    raise VerifyException(f"{what} has negative stride {st} on axis {names[a]}")
                # docs/ge/autofuse.md (AscTensorAttr): stride 0 where repeat 1.
                if (rep == 1) != (st == 0):
                    raise VerifyException(
                        f"{what} has repeat {rep} and stride {st} on axis {names[a]}; "
                        f"the stride is 0 exactly where the repeat is 1"
                    )
            if not loop.issuperset(ids):
                extra = sorted(set(ids) - loop)
                raise VerifyException(f"{what} has axis {extra} outside the node's {SCHED_AXIS} {sorted(loop)}")
            # UB tensors are contiguous (asc_overrides.cpp: compute outputs get contiguous strides).
            if on_chip:
                want = contiguous_strides(reps)
                if strides != want:
                    raise VerifyException(
                        f"{what} has strides {list(strides)}, but an on-chip tensor with repeats "
                        f"{list(reps)} is contiguous: strides {list(want)}"
                    )
            if views is None or views[0] is not t:
                views = table.passed_views[id(t)] = (t, set())
            views[1].add(rules)
        self.check()

    def check(self) -> None:
        """Node-specific checks of the views against the operands."""

    # -- helpers for subclasses ---------------------------------------------------------

    def same_views(self, a: AscTensorType, b: AscTensorType, what: str) -> None:
        if a.axis_ids != b.axis_ids or a.repeat_list != b.repeat_list:
            raise VerifyException(
                f"{what}: axis {list(a.axis_ids)} repeats {list(a.repeat_list)} differ from "
                f"axis {list(b.axis_ids)} repeats {list(b.repeat_list)}"
            )

    def same_dtype(self, a: AscTensorType, b: AscTensorType, what: str) -> None:
        if a.element_type != b.element_type:
            raise VerifyException(f"{what}: dtype {a.element_type} differs from {b.element_type}")


# AscNode.verify_ on a node equal to one that passed: everything verify_ and the node
# classes' check() read is the node's class, its graph's axis table (the `axis` ArrayAttr),
# its attributes, its operands' and results' types, its operands' producer classes (Load,
# Output, Store, Workspace, Gather check them) and its results' reader classes (Store,
# Data's gather_operand). Attributes are immutable, so the same objects with the same
# class and neighbours pass again: keyed by the attributes' and types' identities (hashing
# an attribute's content costs more than the checks), held in the entry, and by the axis
# table's content (_table_key). Only passes are
# kept: a failing node runs the checks again and raises its own message. Fanout 4k's
# result: 13,666 AscIR nodes of about 2 distinct types. `PASSED_NODE_HITS` counts the
# skips (tests/tools/test_fast_verify.py). A check that reads more of another op than this
# key holds (a producer's attribute, a reader's operands) fails that file's
# test_node_checks_read_of_other_ops_only_what_the_memo_key_holds until _node_key holds it.
_PASSED_NODES: dict[tuple[object, ...], tuple[object, ...]] = {}
_PASSED_NODES_MAX = 1 << 16
PASSED_NODE_HITS = [0]


_last_table_key: tuple[AxisTable | None, tuple[object, ...]] = (None, ())


def _table_key(table: AxisTable) -> tuple[object, ...]:
    """What the node checks read of an axis table without error: its sizes and names by
    id, in table order (graphs lowered or fused apart hold equal tables in distinct
    ArrayAttrs). A one-entry memo, as axis_table's: the nodes of a graph verify in turn."""
    global _last_table_key
    held, key = _last_table_key
    if held is not table:
        key = (tuple(table.sizes.items()), tuple(table.names.items()))
        _last_table_key = (table, key)
    return key


def _node_key(op: AscNode, table: AxisTable) -> tuple[object, ...]:
    operands = op.operands
    results = op.results
    return (
        type(op),
        _table_key(table),
        tuple([id(v.type) for v in operands]),
        tuple([type(v.owner) for v in operands]),
        tuple([id(r.type) for r in results]),
        tuple([tuple([type(u.operation) for u in r.uses]) for r in results]),
        tuple([(k, id(a)) for k, a in op.attributes.items()]),
    )


def _check_axis_ids(ids: Sequence[int], sizes: dict[int, int], what: str) -> None:
    seen: set[int] = set()
    for a in ids:
        if a not in sizes:
            raise VerifyException(f"{what} names axis id {a}, which is not a graph axis {sorted(sizes)}")
        if a in seen:
            raise VerifyException(f"{what} names axis id {a} twice")
        seen.add(a)


# -- memory-class and data movement -----------------------------------------------------


@irdl_op_definition
class Data(AscNode):
    """A graph input (GE `Data`, attribute `index`): its view is how the loop nest reads the
    AscBackend operand `index` (element strides into the flat tensor; stride 0 = broadcast)."""

    name = "ascgraph.Data"
    NUM_INPUTS: ClassVar = (0, 0)
    ATTRS: ClassVar = {"index": (A.AttrKind.INT, True)}
    MEMORY: ClassVar = True
    SCHED_REQUIRED: ClassVar = False

    @property
    def index(self) -> int:
        return A.get_int(self, "index", 0) or 0

    def check(self) -> None:
        if self.index < 0:
            raise VerifyException(f"Data index must be >= 0, got {self.index}")


@irdl_op_definition
class Output(AscNode):
    """A graph output (GE `Output`, attribute `index`): the AscBackend result `index`,
    written by the Store that feeds it."""

    name = "ascgraph.Output"
    ATTRS: ClassVar = {"index": (A.AttrKind.INT, True)}
    MEMORY: ClassVar = True
    SCHED_REQUIRED: ClassVar = False

    @property
    def index(self) -> int:
        return A.get_int(self, "index", 0) or 0

    def check(self) -> None:
        if self.index < 0:
            raise VerifyException(f"Output index must be >= 0, got {self.index}")
        src = self.operands[0].owner
        if not isinstance(src, Store):
            raise VerifyException(f"Output takes a Store's result, got {getattr(src, 'name', 'a block argument')}")
        if self.in_type() != self.out_type():
            raise VerifyException(f"Output type {self.out_type()} differs from its Store's {self.in_type()}")


@irdl_op_definition
class Workspace(AscNode):
    """A GM workspace buffer between a Store and the Loads that read it back."""

    name = "ascgraph.Workspace"
    MEMORY: ClassVar = True
    SCHED_REQUIRED: ClassVar = False

    def check(self) -> None:
        src = self.operands[0].owner
        if not isinstance(src, Store):
            raise VerifyException(f"Workspace takes a Store's result, got {getattr(src, 'name', 'a block argument')}")
        if self.in_type() != self.out_type():
            raise VerifyException(f"Workspace type {self.out_type()} differs from its Store's {self.in_type()}")


@irdl_op_definition
class Load(AscNode):
    """GM -> UB (GE `Load`, attribute `offset`): reads its Data/Workspace through that
    value's view, starting `offset` elements in; a repeat-1 input axis broadcasts."""

    name = "ascgraph.Load"
    ATTRS: ClassVar = {"offset": (A.AttrKind.INT, False)}

    @property
    def offset(self) -> int:
        return A.get_int(self, "offset", 0) or 0

    def check(self) -> None:
        src = self.operands[0].owner
        if not isinstance(src, Data | Workspace):
            raise VerifyException(f"Load reads a Data or Workspace, got {getattr(src, 'name', 'a block argument')}")
        if self.offset < 0:
            raise VerifyException(f"Load offset must be >= 0, got {self.offset}")
        a, b = self.in_type(), self.out_type()
        self.same_dtype(a, b, "Load output")
        if a.axis_ids != b.axis_ids:
            raise VerifyException(f"Load output axis {list(b.axis_ids)} differs from its input's {list(a.axis_ids)}")
        for ax, ri, ro in zip(a.axis_ids, a.repeat_list, b.repeat_list):
            if ri != ro and ri != 1:
                raise VerifyException(
                    f"Load output repeat {ro} on axis id {ax} differs from its input's {ri} (only a repeat-1 axis broadcasts)"
                )


@irdl_op_definition
class Store(AscNode):
    """UB -> GM (GE `Store`, attribute `offset`): its output view is where it writes in the
    Output/Workspace tensor, starting `offset` elements in."""

    name = "ascgraph.Store"
    ATTRS: ClassVar = {"offset": (A.AttrKind.INT, False)}

    @property
    def offset(self) -> int:
        return A.get_int(self, "offset", 0) or 0

    def check(self) -> None:
        if self.offset < 0:
            raise VerifyException(f"Store offset must be >= 0, got {self.offset}")
        a, b = self.in_type(), self.out_type()
        self.same_dtype(a, b, "Store output")
        self.same_views(a, b, "Store output")
        if isinstance(self.operands[0].owner, Data | Output | Workspace | Store):
            raise VerifyException(f"Store takes an on-chip value, got {self.operands[0].owner.name}")
        for use in self.results[0].uses:
            if not isinstance(use.operation, Output | Workspace):
                raise VerifyException(f"a Store's result goes to Output or Workspace, not {use.operation.name}")


@irdl_op_definition
class Scalar(AscNode):
    """A constant (GE `Scalar`, attribute `value`, a string as in GE: "1.0", "-3")."""

    name = "ascgraph.Scalar"
    NUM_INPUTS: ClassVar = (0, 0)
    ATTRS: ClassVar = {"value": (A.AttrKind.STR, True)}
    SCHED_REQUIRED: ClassVar = False

    def number(self) -> float | int:
        s = A.get_str(self, "value", "") or ""
        try:
            return int(s)
        except ValueError:
            return float(s)

    def check(self) -> None:
        try:
            self.number()
        except ValueError:
            raise VerifyException(f"Scalar value {A.get_str(self, 'value')!r} is not a number") from None


# -- pointwise ---------------------------------------------------------------------------


class Pointwise(AscNode):
    """Elementwise (compute type Elewise): operands share the output's axis list (or are
    0-d, e.g. a Scalar) and broadcast on repeat-1 axes; the output repeat on each axis is
    the broadcast of the operands'."""

    SAME_DTYPE_OUT: ClassVar[bool] = True
    OUT_DTYPE: ClassVar[str | None] = None  # GE's fixed output dtype (comparisons: uint8)

    def check(self) -> None:
        out = self.out_type()
        out_ids = out.axis_ids
        data_inputs = self.data_inputs()
        # each input's repeats on the output's axes: its own when it has the output's axis
        # list (the output's ids are distinct: AscNode.verify_ checked them), else 1 (0-d)
        in_reps: list[tuple[int, ...] | None] = []
        for i in data_inputs:
            t = self.in_type(i)
            ids = t.axis_ids
            if ids and ids != out_ids:
                raise VerifyException(f"input {i} has axis {list(ids)}, but the output has {list(out_ids)}")
            in_reps.append(t.repeat_list if ids else None)
        for k, (ax, r) in enumerate(zip(out_ids, out.repeat_list)):
            ins = [1 if reps is None else reps[k] for reps in in_reps]
            for i, ri in zip(data_inputs, ins):
                if ri != r and ri != 1:
                    raise VerifyException(
                        f"input {i} has repeat {ri} on axis id {ax}, the output {r}: operand views are "
                        f"incompatible (repeats must be equal, or 1 to broadcast)"
                    )
            if r != max(ins, default=1):
                raise VerifyException(
                    f"output repeat {r} on axis id {ax} is not the broadcast of the inputs' {ins} "
                    f"(an explicit Broadcast node expands an axis)"
                )
        self.check_dtypes()

    def data_inputs(self) -> list[int]:
        return list(range(len(self.operands)))

    def check_dtypes(self) -> None:
        # the dtypes compared as attributes first (str() of one runs the printer)
        if len({self.in_type(i).element_type for i in self.data_inputs()}) > 1:
            dts = {str(self.in_type(i).element_type) for i in self.data_inputs()}
            if len(dts) > 1:
                raise VerifyException(f"inputs must share one dtype, got {', '.join(sorted(dts))}")
        out = self.out_type().element_type
        if self.OUT_DTYPE is not None:
            if ge_dtype_name(out) != self.OUT_DTYPE:
                raise VerifyException(f"{self.asc_type} outputs {self.OUT_DTYPE}, got {out}")
        elif out != self.in_type(0).element_type:
            raise VerifyException(f"output dtype {out} differs from input dtype {self.in_type(0).element_type}")


class Unary(Pointwise):
    NUM_INPUTS: ClassVar = (1, 1)


class Binary(Pointwise):
    NUM_INPUTS: ClassVar = (2, 2)


class Compare(Binary):
    """A comparison: its output is uint8, 1 where it holds (GE's comparisons output uint8)."""

    OUT_DTYPE: ClassVar = "DT_UINT8"


@irdl_op_definition
class Abs(Unary):
    """|x|."""

    name = "ascgraph.Abs"


@irdl_op_definition
class Neg(Unary):
    """-x."""

    name = "ascgraph.Neg"


@irdl_op_definition
class Exp(Unary):
    """e**x."""

    name = "ascgraph.Exp"


@irdl_op_definition
class Ln(Unary):
    """Natural log (GE's AscIR name for Log)."""

    name = "ascgraph.Ln"


@irdl_op_definition
class Relu(Unary):
    """max(x, 0)."""

    name = "ascgraph.Relu"


@irdl_op_definition
class Sqrt(Unary):
    """sqrt(x)."""

    name = "ascgraph.Sqrt"


@irdl_op_definition
class Rsqrt(Unary):
    """1 / sqrt(x)."""

    name = "ascgraph.Rsqrt"


@irdl_op_definition
class Reciprocal(Unary):
    """1 / x."""

    name = "ascgraph.Reciprocal"


@irdl_op_definition
class Sigmoid(Unary):
    """1 / (1 + e**-x)."""

    name = "ascgraph.Sigmoid"


@irdl_op_definition
class Tanh(Unary):
    """tanh(x)."""

    name = "ascgraph.Tanh"


@irdl_op_definition
class Add(Binary):
    """x1 + x2."""

    name = "ascgraph.Add"


@irdl_op_definition
class Sub(Binary):
    """x1 - x2."""

    name = "ascgraph.Sub"


@irdl_op_definition
class Mul(Binary):
    """x1 * x2."""

    name = "ascgraph.Mul"


@irdl_op_definition
class Div(Binary):
    """x1 / x2 (floats; GE registers Div for fp16/fp32)."""

    name = "ascgraph.Div"


@irdl_op_definition
class Maximum(Binary):
    """Pointwise max(x1, x2) (the reduction is `Max`)."""

    name = "ascgraph.Maximum"


@irdl_op_definition
class Minimum(Binary):
    """Pointwise min(x1, x2) (the reduction is `Min`)."""

    name = "ascgraph.Minimum"


@irdl_op_definition
class Pow(Binary):
    """x1 ** x2."""

    name = "ascgraph.Pow"


@irdl_op_definition
class Eq(Compare):
    """x1 == x2."""

    name = "ascgraph.Eq"


@irdl_op_definition
class Ne(Compare):
    """x1 != x2."""

    name = "ascgraph.Ne"


@irdl_op_definition
class Gt(Compare):
    """x1 > x2."""

    name = "ascgraph.Gt"


@irdl_op_definition
class Ge(Compare):
    """x1 >= x2."""

    name = "ascgraph.Ge"


@irdl_op_definition
class Lt(Compare):
    """x1 < x2."""

    name = "ascgraph.Lt"


@irdl_op_definition
class Le(Compare):
    """x1 <= x2."""

    name = "ascgraph.Le"


@irdl_op_definition
class Where(Pointwise):
    """x2 where the uint8 condition x1 is non-zero, else x3 (GE `Where`)."""

    name = "ascgraph.Where"
    NUM_INPUTS: ClassVar = (3, 3)

    def check_dtypes(self) -> None:
        c = self.in_type(0).element_type
        if ge_dtype_name(c) not in ("DT_UINT8", "DT_BOOL"):
            raise VerifyException(f"Where's condition must be uint8 (or bool), got {c}")
        a, b, out = self.in_type(1).element_type, self.in_type(2).element_type, self.out_type().element_type
        if not a == b == out:
            raise VerifyException(f"Where's x2, x3 and output must share one dtype, got {a}, {b}, {out}")


@irdl_op_definition
class Cast(Pointwise):
    """Converts to the output dtype (GE: a Cast's destination dtype is its output dtype)."""

    name = "ascgraph.Cast"
    NUM_INPUTS: ClassVar = (1, 1)

    def check_dtypes(self) -> None:
        ge_dtype_name(self.out_type().element_type)


# -- views and data rearrangement -------------------------------------------------------


@irdl_op_definition
class Broadcast(AscNode):
    """Expands repeat-1 axes to the output's repeats (GE `Broadcast`, compute type Broadcast;
    HintGraph form: right after a Load, one axis per node)."""

    name = "ascgraph.Broadcast"

    def check(self) -> None:
        a, b = self.in_type(), self.out_type()
        self.same_dtype(a, b, "Broadcast output")
        if a.axis_ids != b.axis_ids:
            raise VerifyException(
                f"Broadcast output axis {list(b.axis_ids)} differs from its input's {list(a.axis_ids)}"
            )
        for ax, ri, ro in zip(a.axis_ids, a.repeat_list, b.repeat_list):
            if ri != ro and ri != 1:
                raise VerifyException(
                    f"Broadcast cannot turn repeat {ri} into {ro} on axis id {ax} (only repeat 1 expands)"
                )


@irdl_op_definition
class Transpose(AscNode):
    """Reorders the dims (GE `Transpose`): the output axis list is a permutation of the
    input's, each axis keeping its repeat."""

    name = "ascgraph.Transpose"

    def check(self) -> None:
        a, b = self.in_type(), self.out_type()
        self.same_dtype(a, b, "Transpose output")
        if sorted(a.axis_ids) != sorted(b.axis_ids):
            raise VerifyException(
                f"Transpose output axis {list(b.axis_ids)} is not a permutation of its input's {list(a.axis_ids)}"
            )
        for ax in a.axis_ids:
            if a.repeat_of(ax) != b.repeat_of(ax):
                raise VerifyException(
                    f"Transpose changes the repeat of axis id {ax}: {a.repeat_of(ax)} -> {b.repeat_of(ax)}"
                )


def _moving_axis(whole: AscTensorType, parts: Sequence[AscTensorType], what: str) -> int:
    """The one axis on which the parts' repeats differ from the whole's; they sum to it."""
    diff = [
        j for j, ax in enumerate(whole.axis_ids)
        if any(p.repeat_list[j] != whole.repeat_list[j] for p in parts)
    ]  # fmt: skip
    if len(parts) == 1 and not diff:
        return 0 if whole.axis_ids else -1
    if len(diff) != 1:
        raise VerifyException(
            f"{what} repeats must differ from the whole on exactly one axis, they differ on "
            f"{[whole.axis_ids[j] for j in diff] or 'none'}"
        )
    j = diff[0]
    total = sum(p.repeat_list[j] for p in parts)
    if total != whole.repeat_list[j]:
        raise VerifyException(
            f"{what} repeats on axis id {whole.axis_ids[j]} sum to {total}, but the whole has {whole.repeat_list[j]}"
        )
    return j


class _ConcatSplit(AscNode):
    def parts_and_whole(self) -> tuple[list[AscTensorType], AscTensorType]:
        raise NotImplementedError

    def moving_axis(self) -> int | None:
        """The concat/split axis id (None when the views are malformed: check() reports it)."""
        parts, whole = self.parts_and_whole()
        if not all(isinstance(p, AscTensorType) for p in parts) or not isinstance(whole, AscTensorType):
            return None
        if any(p.axis_ids != whole.axis_ids for p in parts):
            return None
        try:
            j = _moving_axis(whole, parts, "")
        except VerifyException:
            return None
        return whole.axis_ids[j] if j >= 0 else None

    def check(self) -> None:
        parts, whole = self.parts_and_whole()
        side = "input" if isinstance(self, Concat) else "output"
        for i, p in enumerate(parts):
            self.same_dtype(p, whole, f"{side} {i}")
            if p.axis_ids != whole.axis_ids:
                raise VerifyException(
                    f"{side} {i} has axis {list(p.axis_ids)}, the {self.asc_type} has {list(whole.axis_ids)}"
                )
        _moving_axis(whole, parts, f"{self.asc_type} {side}")


@irdl_op_definition
class Concat(_ConcatSplit):
    """Concatenates its inputs (GE `Concat`, compute type Concat) along the one axis on
    which their repeats differ from the output's; the repeats there sum to the output's."""

    name = "ascgraph.Concat"
    NUM_INPUTS: ClassVar = (1, None)

    def parts_and_whole(self) -> tuple[list[AscTensorType], AscTensorType]:
        return [v.type for v in self.operands], self.results[0].type  # type: ignore[return-value]


@irdl_op_definition
class Split(_ConcatSplit):
    """Splits its input (GE `Split`, attribute `gid`) along the one axis on which the
    outputs' repeats differ from the input's; the repeats there sum to the input's."""

    name = "ascgraph.Split"
    NUM_OUTPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {"gid": (A.AttrKind.INT, False)}

    def parts_and_whole(self) -> tuple[list[AscTensorType], AscTensorType]:
        return [r.type for r in self.results], self.operands[0].type  # type: ignore[return-value]


def gather_operand(op: Operation) -> bool:
    """A Data read only by Gather nodes: its view is the whole params/indices tensor with
    positional axis ids (asc_overrides.h GatherLoad: `params_axis[i] = i`), so its repeats
    are the tensor's dims, not loop extents, and the repeat rules of loop views do not apply."""
    uses = op.results[0].uses if isinstance(op, Data) and op.results else ()
    return bool(uses) and all(isinstance(u.operation, Gather) for u in uses)


@irdl_op_definition
class Gather(AscNode):
    """GE's AscIR `Gather` (compute type Gather; ir_attr `axis`, `negative_index_support`):
    gathers input 0 (params) along `axis` at input 1 (int32/int64 indices). Both inputs are
    Data nodes read directly, without a Load (asc_overrides.h GatherLoad): each Data's view
    is its whole tensor, contiguous, with axis ids 0..rank-1 by position. The output is a
    loop tensor whose repeats are params[:axis] + indices + params[axis+1:]."""

    name = "ascgraph.Gather"
    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {
        "axis": (A.AttrKind.INT, True),
        "negative_index_support": (A.AttrKind.BOOL, False),
    }

    @property
    def axis(self) -> int:
        return A.get_int(self, "axis", 0) or 0

    def check(self) -> None:
        for i, what in ((0, "params"), (1, "indices")):
            src = self.operands[i].owner
            if not isinstance(src, Data):
                raise VerifyException(
                    f"Gather reads its {what} from a Data node, got {getattr(src, 'name', 'a block argument')}"
                )
            t = self.in_type(i)
            if t.stride_list != contiguous_strides(t.repeat_list):
                raise VerifyException(
                    f"Gather's {what} Data view must be the whole tensor, contiguous: strides "
                    f"{list(contiguous_strides(t.repeat_list))}, got {list(t.stride_list)}"
                )
        p, idx, out = self.in_type(0), self.in_type(1), self.out_type()
        self.same_dtype(p, out, "Gather output")
        if ge_dtype_name(idx.element_type) not in ("DT_INT32", "DT_INT64"):
            raise VerifyException(f"Gather indices must be int32 or int64, got {idx.element_type}")
        pr = p.repeat_list
        if not 0 <= self.axis < len(pr):
            raise VerifyException(f"Gather axis {self.axis} is out of range for params of rank {len(pr)}")
        want = pr[: self.axis] + idx.repeat_list + pr[self.axis + 1 :]
        if out.repeat_list != want:
            raise VerifyException(
                f"Gather output repeats {list(out.repeat_list)} are not params[:axis] + indices + "
                f"params[axis+1:] = {list(want)}"
            )


# -- reductions -------------------------------------------------------------------------


class Reduction(AscNode):
    """Keep-dims reduction (compute type Reduce; docs/ge/autofuse.md): same axis list; the
    reduced axes are those with input repeat > 1 and output repeat 1."""

    def check(self) -> None:
        a, b = self.in_type(), self.out_type()
        self.same_dtype(a, b, f"{self.asc_type} output")
        if a.axis_ids != b.axis_ids:
            raise VerifyException(
                f"{self.asc_type} keeps dims: output axis {list(b.axis_ids)} must equal the input's {list(a.axis_ids)}"
            )
        for ax, ri, ro in zip(a.axis_ids, a.repeat_list, b.repeat_list):
            if ro != ri and ro != 1:
                raise VerifyException(
                    f"{self.asc_type} output repeat {ro} on axis id {ax} must be the input's {ri} or 1 (reduced)"
                )

    def reduced_positions(self) -> tuple[int, ...]:
        a, b = self.in_type(), self.out_type()
        return tuple(j for j, (ri, ro) in enumerate(zip(a.repeat_list, b.repeat_list)) if ri > 1 and ro == 1)


@irdl_op_definition
class Sum(Reduction):
    """Sum over the reduced axes (keep dims)."""

    name = "ascgraph.Sum"


@irdl_op_definition
class Max(Reduction):
    """Max over the reduced axes (keep dims); pointwise max is `Maximum`."""

    name = "ascgraph.Max"


@irdl_op_definition
class Min(Reduction):
    """Min over the reduced axes (keep dims); pointwise min is `Minimum`."""

    name = "ascgraph.Min"


@irdl_op_definition
class Mean(Reduction):
    """Mean over the reduced axes (keep dims)."""

    name = "ascgraph.Mean"


@irdl_op_definition
class Prod(Reduction):
    """Product over the reduced axes (keep dims)."""

    name = "ascgraph.Prod"


# ---------------------------------------------------------------------------------------
# Queries on AscGraphs and their tensors
# ---------------------------------------------------------------------------------------


# -- activations, sign, NaN test and logic (the AscIR nodes ge-lower-autofuse makes for
# the ge ops of the activation section; ascir_ops.h: their REG_ASC_IR dtype lists) ------


class _FloatUnary(Unary):
    """A float pointwise node: float32 or float16 (bf16 where ascir_ops.h registers it)."""

    DTYPES: ClassVar[frozenset[str]] = frozenset({"DT_FLOAT", "DT_FLOAT16", "DT_BF16"})

    def check_dtypes(self) -> None:
        super().check_dtypes()
        dt = self.in_type(0).element_type
        if ge_dtype_name(dt) not in self.DTYPES:
            raise VerifyException(f"{self.asc_type} takes {', '.join(sorted(self.DTYPES))}, got {dt}")


@irdl_op_definition
class Erf(_FloatUnary):
    """erf(x)."""

    name = "ascgraph.Erf"


@irdl_op_definition
class Gelu(_FloatUnary):
    """GE's Gelu (the tanh approximation; float32, float16)."""

    name = "ascgraph.Gelu"
    DTYPES: ClassVar = frozenset({"DT_FLOAT", "DT_FLOAT16"})


@irdl_op_definition
class LeakyRelu(_FloatUnary):
    """x if x >= 0 else negative_slope * x (ir_attr `negative_slope`, a float)."""

    name = "ascgraph.LeakyRelu"
    DTYPES: ClassVar = frozenset({"DT_FLOAT", "DT_FLOAT16"})

    def check(self) -> None:
        super().check()
        a = self.attributes.get("negative_slope")
        if not isinstance(a, FloatAttr):
            raise VerifyException(f"LeakyRelu requires a float attribute 'negative_slope', got {a}")

    def negative_slope(self) -> float:
        a = self.attributes["negative_slope"]
        assert isinstance(a, FloatAttr)
        return float(a.value.data)


@irdl_op_definition
class Sign(Unary):
    """-1, 0 or 1 by the sign of x."""

    name = "ascgraph.Sign"


@irdl_op_definition
class Isnan(_FloatUnary):
    """x is NaN, as uint8 (GE's AscIR type `Isnan`)."""

    name = "ascgraph.Isnan"
    OUT_DTYPE: ClassVar = "DT_UINT8"
    DTYPES: ClassVar = frozenset({"DT_FLOAT", "DT_FLOAT16", "DT_BF16"})


class _Logical(Pointwise):
    """A logical node on bool values (GE stores bool as uint8: a bool or uint8 input, a uint8
    output, 1 where it holds)."""

    OUT_DTYPE: ClassVar = "DT_UINT8"

    def check_dtypes(self) -> None:
        for i in self.data_inputs():
            dt = self.in_type(i).element_type
            if ge_dtype_name(dt) not in ("DT_BOOL", "DT_UINT8"):
                raise VerifyException(f"{self.asc_type} input {i} must be bool or uint8, got {dt}")
        out = self.out_type().element_type
        if ge_dtype_name(out) != "DT_UINT8":
            raise VerifyException(f"{self.asc_type} outputs DT_UINT8, got {out}")


@irdl_op_definition
class LogicalAnd(_Logical):
    """x1 and x2."""

    name = "ascgraph.LogicalAnd"
    NUM_INPUTS: ClassVar = (2, 2)


@irdl_op_definition
class LogicalOr(_Logical):
    """x1 or x2."""

    name = "ascgraph.LogicalOr"
    NUM_INPUTS: ClassVar = (2, 2)


@irdl_op_definition
class LogicalNot(_Logical):
    """not x."""

    name = "ascgraph.LogicalNot"
    NUM_INPUTS: ClassVar = (1, 1)


ACTIVATION_NODE_OPS: list[type[AscNode]] = [Erf, Gelu, LeakyRelu, Sign, Isnan, LogicalAnd, LogicalOr, LogicalNot]


def node_count(graph: AscGraphOp) -> int:
    """GE `fusion_nodes_size_`: every AscIR node, Data/Load/Store/Output included."""
    return len(graph.body.block.ops)


def view_extent(t: AscTensorType, offset: int = 0) -> int:
    """Number of elements a view reaches: 1 + the largest flat index it touches."""
    return offset + sum((r - 1) * s for r, s in zip(t.repeat_list, t.stride_list)) + 1


ASC_NODE_OPS: list[type[AscNode]] = [
    Data, Output, Workspace, Load, Store, Scalar,
    Abs, Neg, Exp, Ln, Relu, Sqrt, Rsqrt, Reciprocal, Sigmoid, Tanh,
    Add, Sub, Mul, Div, Maximum, Minimum, Pow, Eq, Ne, Gt, Ge, Lt, Le, Where, Cast,
    Broadcast, Transpose, Concat, Split, Gather,
    Sum, Max, Min, Mean, Prod,
    *ACTIVATION_NODE_OPS,
]  # fmt: skip

AscGraph = Dialect("ascgraph", [AscGraphOp, *ASC_NODE_OPS], [AxisAttr, AscTensorType, SymDimAttr])


# ---------------------------------------------------------------------------------------
# Symbolic graphs: tiling per symbol values
# ---------------------------------------------------------------------------------------


def is_symbolic(graph: AscGraphOp) -> bool:
    """An axis size of the graph is a symbolic dim (every symbolic repeat or stride is
    made of the axis sizes, so a graph with static axes has none)."""
    return any(isinstance(a.size, SymDimAttr) for a in graph.axis.data)


def _eval_dim(a: Attribute, values: dict[str, int]) -> IntAttr:
    if isinstance(a, SymDimAttr):
        return IntAttr(S.evaluate(a.data.e, values))
    assert isinstance(a, IntAttr)
    return a


def instantiate(graph: AscGraphOp, values: dict[str, int]) -> AscGraphOp:
    """A copy of symbolic `graph` with every axis size, repeat and stride evaluated for the
    symbols' `values`: what a tiling function gives a kernel for one execution's shapes
    (GE: runtime/v2/engine/aicore/kernel/autofuse_op_kernel.cc SymbolTilingParse). Nodes
    and attributes are the graph's; only the dims change."""
    types: dict[AscTensorType, AscTensorType] = {}

    def conc(t: Attribute) -> Attribute:
        if not isinstance(t, AscTensorType) or not t.is_symbolic():
            return t
        out = types.get(t)
        if out is None:
            out = types[t] = AscTensorType.new(
                (
                    t.element_type,
                    t.axis,
                    ArrayAttr(_eval_dim(a, values) for a in t.repeats.data),
                    ArrayAttr(_eval_dim(a, values) for a in t.strides.data),
                )
            )
        return out

    axes = [AxisAttr.new((a.id, a.axis_name, _eval_dim(a.size, values))) for a in graph.axis.data]
    vmap: dict[SSAValue, SSAValue] = {}
    ops: list[Operation] = []
    for op in graph.body.block.ops:
        made = type(op).create(
            operands=[vmap[v] for v in op.operands],
            result_types=[conc(r.type) for r in op.results],
            attributes=dict(op.attributes),
            properties=dict(op.properties),
        )
        for r, m in zip(op.results, made.results):
            vmap[r] = m
            m.name_hint = r.name_hint
        ops.append(made)
    return AscGraphOp.create(
        properties={"sym_name": graph.sym_name, "axis": ArrayAttr(axes)},
        attributes=dict(graph.attributes),
        regions=[Region(Block(ops))],
    )
