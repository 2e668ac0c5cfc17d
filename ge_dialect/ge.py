"""The ge dialect: GE graphs and nodes, named by GE's op type strings.

    ge.graph @main attributes {_single_op_scene = false} {
      %x = ge.Data {index = 0} : tensor<4x16xf16>
      %a = ge.Relu(%x) : (tensor<4x16xf16>) -> tensor<4x16xf16>
      %c = ge.ConcatD(%a, %x) {concat_dim = 0} : (tensor<4x16xf16>, tensor<4x16xf16>) -> tensor<8x16xf16>
      ge.NetOutput %c : tensor<8x16xf16>
    }

Every node prints as `ge.<Type>(operands) {attributes} : (operand types) -> result types`
(nodes without inputs: `: result types`). All GE attributes are discardable attributes
with GE's exact strings (see `attrs.py`). A node's name is its `name` attribute, or else
its first result's SSA name; a nameless node is named as GE's parser names it (`names.py`).

Shapes are origin shapes; GE's storage side is in the `#ge.desc` encoding (`desc.py`).
Each op checks its arity, its attributes and, where GE infers shapes, that the declared
result shapes are the inferred ones.

Adding an op: one class named by GE's op type, under the base of its family, registered
in `GE_NODE_OPS` below (the ascgraph dialect's AscIR nodes work the same way, with
`Unary`/`Binary`/`Compare`/`Reduction` there). A pointwise op is four lines:

    @irdl_op_definition
    class Atan(Unary):
        \"\"\"atan(x)\"\"\"

        name = "ge.Atan"

The bases (`Unary`, `Binary`, `Elementwise`, `ReduceD`, `ConcatBase`, `SplitBase`,
`ReshapeLike`, `GatherBase`, `DataLike`, `ConstLike`) bring the verifier (arity, dtypes,
shape inference) and the traits (`Pure` for the side-effect-free families, see `GeNode`);
an op sets only what differs: `NUM_INPUTS` / `NUM_OUTPUTS` as
(min, max), `ATTRS` (GE attribute -> (kind, required)), and `check()` / `infer()` for its
own rules (see `GeNode`); `CheckedUnary` / `CheckedBinary` add GE's REG_OP dtype lists
(`DTYPES`, `OUT_DTYPE`) and `Float` attributes (`FLOAT_ATTRS`, read with `float_attr`). Its
semantics go in the reference interpreter
(`runtime/reference.py`); a pointwise op autofuse lowers goes in `lower_autofuse.POINTWISE`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import ClassVar, Self, TypeAlias, cast, overload

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, OpResult, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarOperand,
    VarOpResult,
    irdl_op_definition,
    lazy_traits_def,
    opt_region_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect import memo
from ge_dialect.asc_backend import FUSE_TYPE_ATTR, FUSE_TYPE_MASK_ATTR, verify_asc_backend, verify_fuse_attrs
from ge_dialect.desc import GeDescAttr, shape_of, tensor_desc
from ge_dialect.diagnostics import LocatedError
from ge_dialect.dtypes import dtype_bits, ge_dtype_name
from ge_dialect.names import ge_type, node_name  # noqa: F401  (re-exported: the one naming function)
from ge_dialect.shapes import dims_agree, fmt_shape, merge_shapes, normalize_axis
from ge_dialect.weights import is_elided, weight_array
from ge_fast.parser import parse_common_form

Dims = tuple[int, ...]  # a tensor shape, as GE's GeShape::GetDims


def _known(s: Dims | None) -> bool:
    return s is not None and all(d >= 0 for d in s)


def broadcast_dim(x: int, y: int) -> int | None:
    """One dim of a broadcast (numpy's rule on known dims); None when x and y do not
    broadcast. An unknown dim (-1) against a known n is GE's TwoBroadcastShape rule: n when
    n != 1 (the unknown one must then be 1 or n: either way the result is n, and 0 against
    0 or 1 is 0), unknown against 1 (the result is the unknown dim).

    # op_proto/util/util.cpp: TwoBroadcastShape (InferShapeAndTypeTwoInOneOutBroadcast's
    # dynamic case: dimsX == -1 && dimsY > 1 -> dimsY; dimsY == 1 -> -1; dimsY == 0 -> 0)
    """
    if x == y or y == 1:
        return x
    if x == 1:
        return y
    if x < 0:
        return y
    if y < 0:
        return x
    return None


def broadcast_shapes(a: Dims, b: Dims) -> Dims | None:
    """numpy broadcasting of two shapes, an unknown dim by GE's rule (broadcast_dim); None
    when they do not broadcast."""
    out: list[int] = []
    for i in range(1, max(len(a), len(b)) + 1):
        d = broadcast_dim(a[-i] if i <= len(a) else 1, b[-i] if i <= len(b) else 1)
        if d is None:
            return None
        out.append(d)
    return tuple(reversed(out))


class InGeGraph(HasParent):
    """HasParent(ge.graph, ge.FusedAscBackend, ge.AscBackend), worded for GE: a GE node
    belongs to a graph (OpDesc::GetOwnerComputeGraph), and in an AscBackend only to its
    origin body. Every GeNode has it."""

    def __init__(self) -> None:
        super().__init__(GraphOp, FusedAscBackend, AscBackend)

    def verify(self, op: Operation) -> None:
        assert isinstance(op, GeNode)
        _verify_node_placement(op)


class AtModuleLevel(HasParent):
    """HasParent(builtin.module) for ge.graph, worded for GE (see _verify_graph_placement)."""

    def __init__(self) -> None:
        super().__init__(ModuleOp)

    def verify(self, op: Operation) -> None:
        assert isinstance(op, GraphOp)
        _verify_graph_placement(op)


def _discard(op: Operation) -> None:
    """Drop a node `GeNode.build` made and does not return: out of its block (xDSL's
    ImplicitBuilder appends every op it sees created) and off its inputs' uses."""
    if op.parent is not None:
        op.detach()
    op.erase()


def _const_value(v: SSAValue) -> Attribute | None:
    """The `value` of the ge.Const / ge.Constant producing `v`, else None (what const_ints
    and const_scalar read of an input's producer)."""
    owner = v.owner
    # (type(): both classes are final, and an ABC isinstance costs more than the rest of the key)
    return owner.attributes.get("value") if type(owner) is Const or type(owner) is Constant else None


# The type of every input and output of a GE node, as GeNode's verifier checks it
# (GeNode._verify_type): a ranked tensor, or GE's unknown rank (-2) as an unranked one.
GeTensorType: TypeAlias = TensorType[Attribute] | UnrankedTensorType[Attribute]


def value_type(v: SSAValue) -> GeTensorType:
    """The tensor type of `v`, an input or output of a verified GE node."""
    return cast(GeTensorType, v.type)


def value_dtype(v: SSAValue) -> Attribute:
    """The element type (GE's dtype) of `v`, an input or output of a verified GE node."""
    return cast(GeTensorType, v.type).element_type


class GeNode(IRDLOperation):
    """Base of every GE node: variadic tensor inputs and outputs, GE attributes.

    Traits: every node has `InGeGraph`; a family whose nodes only compute their outputs
    from their inputs adds xDSL's `Pure`, so the stock `dce` and `cse` passes act on ge
    IR. Nodes with effects beyond their outputs have no `Pure` and are kept: the graph's
    inputs (Data, RefData: their indices are the graph signature), Variable (state that
    persists across runs), NetOutput (the terminator), HcomAllGather (a collective every
    rank takes part in) and PartitionedCall (its subgraph may hold any of these)."""

    # identity hashing in C: IRDLOperation.__hash__ computes the same id(self) in Python,
    # and the passes key dicts and sets by nodes (tests/dialects/test_node_hash.py)
    __hash__ = object.__hash__

    # Any type is accepted here and _verify_type refuses what is not a GeTensorType (its own
    # message, located at the node); typed for the checker through the cast, so that
    # `node.inputs[i].type.element_type`, input_dtype and output_dtype need no cast at use.
    inputs = cast(VarOperand[GeTensorType], var_operand_def())
    outputs = cast(VarOpResult[GeTensorType], var_result_def())
    traits = lazy_traits_def(lambda: (InGeGraph(),))

    def input_dtype(self, i: int) -> Attribute:
        """The element type of input `i` (value_dtype)."""
        return value_dtype(self.operands[i])

    def output_dtype(self, i: int = 0) -> Attribute:
        """The element type of output `i` (value_dtype)."""
        return value_dtype(self.results[i])

    # (min, max) numbers of inputs and outputs; None = unbounded.
    NUM_INPUTS: ClassVar[tuple[int, int | None]] = (0, None)
    NUM_OUTPUTS: ClassVar[tuple[int, int | None]] = (1, 1)
    # Op-specific attributes: name -> (kind, required).
    ATTRS: ClassVar[dict[str, tuple[A.AttrKind, bool]]] = {}

    # -- syntax ---------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> GeNode:
        if not cls.HAS_REGION and (op := parse_common_form(cls, parser)) is not None:
            return op
        start = parser.pos
        args = []
        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                args = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
                parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        regions: list[Region] = []
        parser.parse_punctuation(":")
        tpos = parser.pos
        if args:
            in_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            parser.parse_punctuation("->")
            if parser.parse_optional_punctuation("(") is not None:
                out_types = []
                if parser.parse_optional_punctuation(")") is None:
                    out_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                    parser.parse_punctuation(")")
            else:
                out_types = [parser.parse_type()]
        else:
            in_types = []
            out_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(in_types) != len(args):
            parser.raise_error(f"{len(args)} inputs but {len(in_types)} input types", tpos, parser.pos)
        operands = parser.resolve_operands(args, in_types, start)
        if cls.HAS_REGION:
            region = parser.parse_optional_region()
            regions = [region if region is not None else Region()]
        op = cls.create(operands=operands, result_types=out_types, attributes=attributes, regions=regions)
        return op

    HAS_REGION: ClassVar[bool] = False

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string("(")
            printer.print_list(self.operands, printer.print_operand)
            printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            A.print_ge_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        if self.operands:
            printer.print_string("(")
            printer.print_list((o.type for o in self.operands), printer.print_attribute)
            printer.print_string(") -> ")
            if len(self.results) == 1:
                printer.print_attribute(self.results[0].type)
            else:
                printer.print_string("(")
                printer.print_list((r.type for r in self.results), printer.print_attribute)
                printer.print_string(")")
        else:
            printer.print_list((r.type for r in self.results), printer.print_attribute)
        if self.HAS_REGION:
            printer.print_string(" ")
            printer.print_region(self.regions[0], print_entry_block_args=False)

    # -- verification ---------------------------------------------------------------

    # True for a node whose verify reads beyond verify_inputs() (its region, a subgraph it
    # calls): ge_dialect/memo.py never skips its verify
    VERIFY_READS_GRAPH: ClassVar[bool] = False

    def verify_(self) -> None:
        # (the placement is the InGeGraph trait, verified just before this)
        key = None
        if memo.ENABLED and not self.VERIFY_READS_GRAPH:
            key = self.verify_inputs()
            if memo.NODE_VERIFIED.get(self) == key:
                memo.COUNTS.skipped += 1
                return  # nothing this verify reads changed since it last passed
        memo.COUNTS.verified += 1
        self._verify_arity()
        for i, v in enumerate(self.operands):
            self._verify_type(v.type, f"input {i}")
        for i, r in enumerate(self.results):
            self._verify_type(r.type, f"output {i}")
            # tensor_utils.cc: CalcTensorMemSize; types.cc: GetSizeInBytes (int64 sizes)
            _verify_tensor_size(r.type, f"output {i}")
        self._verify_attributes()
        self.check()
        inferred = self.infer()
        if inferred is not None:
            self._compare_results(inferred)
        if key is not None:
            memo.NODE_VERIFIED[self] = key

    def verify_inputs(self) -> tuple[object, ...]:
        """Everything verify_ reads of a node that does not read its graph: its inputs
        (the values) and their types, its result types, attributes and properties, and
        the `value` of each ge.Const / ge.Constant producing an input (const_ints,
        const_scalar). Two equal tuples give the same verdict (ge_dialect/memo.py)."""
        inputs = tuple(self.operands)
        return (
            inputs,
            tuple([v.type for v in inputs]),
            tuple([r.type for r in self.results]),
            tuple(self.attributes.items()),
            tuple(self.properties.items()),
            tuple([_const_value(v) for v in inputs]),
        )

    def _verify_arity(self) -> None:
        for what, n, (lo, hi) in (
            ("inputs", len(self.operands), self.NUM_INPUTS),
            ("outputs", len(self.results), self.NUM_OUTPUTS),
        ):
            if n < lo or (hi is not None and n > hi):
                want = f"{lo}" if lo == hi else (f"at least {lo}" if hi is None else f"{lo} to {hi}")
                raise VerifyException(f"{ge_type(self)} takes {want} {what}, got {n}")

    @staticmethod
    def _verify_type(t: Attribute, what: str) -> None:
        if not isinstance(t, TensorType | UnrankedTensorType):
            raise VerifyException(f"{what} must be a tensor, got {t}")
        try:
            ge_dtype_name(t.element_type)
            tensor_desc(t)
        except (ValueError, VerifyException) as e:
            raise VerifyException(f"{what}: {e}") from None

    def _verify_attributes(self) -> None:
        for name, (kind, required) in self.ATTRS.items():
            a = self.attributes.get(name)
            if a is None:
                if required:
                    raise VerifyException(f"{ge_type(self)} requires attribute '{name}' ({kind.value})")
                continue
            if (err := A.kind_error(name, a, kind)) is not None:
                raise VerifyException(err)
        for name, a in self.attributes.items():
            if name in self.ATTRS:
                continue
            kind = A.NODE_ATTR_KINDS.get(name)
            if kind is None:
                continue  # other GE attributes pass through unchecked
            if (err := A.kind_error(name, a, kind)) is not None:
                raise VerifyException(err)
            if name in A.PER_OUTPUT_ATTRS:
                assert isinstance(a, ArrayAttr)
                if len(a.data) != len(self.results):
                    raise VerifyException(
                        f"per-output attribute '{name}' has {len(a.data)} entries for {len(self.results)} outputs"
                    )
            # ge_local_ops_kernel_calc_op_param.cc: CalcPhonyConcatNodeOffset writes one
            # offset per producer output, CalcPhonySplitNodeOffset one per consumer input.
            for list_name, count, what in (
                (A.OUTPUT_OFFSET_LIST_FOR_CONTINUOUS, len(self.results), "outputs"),
                (A.INPUT_OFFSET_LIST_FOR_CONTINUOUS, len(self.operands), "inputs"),
            ):
                if name == list_name and len(a.data) != count:  # type: ignore[attr-defined]
                    raise VerifyException(
                        f"'{name}' has {len(a.data)} offsets for {count} {what}"  # type: ignore[attr-defined]
                    )

    def _compare_results(self, inferred: Sequence[Dims | None]) -> None:
        if len(inferred) != len(self.results):
            raise VerifyException(f"{ge_type(self)} produces {len(inferred)} outputs, got {len(self.results)}")
        for i, (want, r) in enumerate(zip(inferred, self.results)):
            got = shape_of(r.type)
            if want is None or got is None:
                continue
            if len(want) != len(got) or any(w >= 0 and g >= 0 and w != g for w, g in zip(want, got)):
                raise VerifyException(
                    f"output {i} has shape {fmt_shape(got)}, but {ge_type(self)} infers {fmt_shape(want)}"
                )

    # -- hooks for subclasses -----------------------------------------------------------

    def check(self) -> None:
        """Op-specific attribute and input checks."""

    def infer(self) -> list[Dims | None] | None:
        """The inferred output shapes, or None when GE infers nothing we check."""
        return None

    # -- helpers --------------------------------------------------------------------------

    def in_shape(self, i: int) -> Dims | None:
        return shape_of(self.operands[i].type)

    def out_shape(self, i: int) -> Dims | None:
        return shape_of(self.results[i].type)

    def same_dtype(self, values: Sequence[SSAValue], what: str) -> None:
        first = value_dtype(values[0]) if values else None
        if all(value_dtype(v) == first for v in values):
            return  # the common case, without building strings
        dts = {str(value_dtype(v)) for v in values}
        if len(dts) > 1:
            raise VerifyException(f"{what} must share one dtype, got {', '.join(sorted(dts))}")

    @overload
    def int_attr(self, name: str, default: int) -> int: ...
    @overload
    def int_attr(self, name: str, default: None = None) -> int | None: ...
    def int_attr(self, name: str, default: int | None = None) -> int | None:
        return A.get_int(self, name, default)

    def int_list(self, name: str) -> list[int] | None:
        return A.get_int_list(self, name)

    # -- building from Python ----------------------------------------------------------------

    # The output dtype is input 0's (the families whose check() ties them); False where
    # the dtype is the op's own (Cast, Shape, Bitcast): `build` then needs `dtype=`.
    SAME_DTYPE_OUT: ClassVar[bool] = True

    @classmethod
    def build(  # pyright: ignore[reportIncompatibleMethodOverride]
        cls,
        *inputs: SSAValue | Operation | Sequence[SSAValue | Operation],
        name: str | None = None,
        shape: Sequence[int] | None = None,
        dtype: Attribute | None = None,
        result_types: Sequence[Attribute] | None = None,
        **attrs: object,
    ) -> Self:
        """A node of this type on `inputs` (values, single-result nodes, or lists of them,
        flattened in order), its result types inferred by the op's own shape inference
        (`infer()`, the verifier's) and dtype rule (input 0's dtype, see SAME_DTYPE_OUT),
        then verified as the verifier does, except the checks that need the enclosing graph.

            x = ge.Data.build(shape=(4, 16), dtype=f16, index=0)
            r = ge.Relu.build(x, name="r")
            c = ge.ConcatD.build([r, x], concat_dim=0)    # tensor<8x16xf16>

        Keyword arguments are GE attributes, converted by their kind (ATTRS, or the node
        attributes any GE node takes; else by their Python type: bool, int, str, list of
        ints or bools, or an xDSL Attribute). `shape` / `dtype` give what the op does not
        infer (a Data's type, a Reshape's shape, a Cast's dtype); `result_types` gives
        every result type. `name` is the node's name (its first result's SSA name, or the
        `name` attribute when that is not a valid SSA name). A ConstLike's type is its
        `value`'s (a DenseIntOrFPElementsAttr). Raises ValueError, naming the op type,
        when the node does not verify. (It replaces xDSL's IRDLOperation.build, which
        takes operand groups and result types and checks nothing: `create` does that.)"""
        operands = [
            SSAValue.get(v) for arg in inputs for v in ((arg,) if isinstance(arg, SSAValue | Operation) else arg)
        ]
        attributes = {k: cls._build_attr(k, v) for k, v in attrs.items()}
        op: Self | None = None
        try:
            types = (
                list(result_types) if result_types is not None else cls._build_types(operands, attributes, shape, dtype)
            )
            op = cls.create(operands=operands, result_types=types, attributes=attributes)
            if name is not None:
                if op.results and SSAValue.is_valid_name(name):
                    op.results[0].name_hint = name
                else:
                    op.attributes[A.NODE_NAME] = StringAttr(name)
            op.verify_()
        except VerifyException as e:
            if op is not None:
                _discard(op)
            raise ValueError(f"{cls.name}.build: {e}") from None
        return op

    @classmethod
    def _build_attr(cls, key: str, value: object) -> Attribute:
        """A Python value as the GE attribute `key` (see `build`)."""
        if isinstance(value, Attribute):
            return value
        kind = cls.ATTRS[key][0] if key in cls.ATTRS else A.NODE_ATTR_KINDS.get(key)
        seq = isinstance(value, Sequence) and not isinstance(value, str)
        if kind is None:
            kind = (
                A.AttrKind.BOOL if isinstance(value, bool) else
                A.AttrKind.INT if isinstance(value, int) else
                A.AttrKind.STR if isinstance(value, str) else
                A.AttrKind.LIST_BOOL if seq and value and all(isinstance(v, bool) for v in value) else  # type: ignore[union-attr]
                A.AttrKind.LIST_INT if seq else None
            )  # fmt: skip
        if kind is A.AttrKind.BOOL and isinstance(value, bool):
            return A.bool_attr(value)
        if kind is A.AttrKind.INT and isinstance(value, int) and not isinstance(value, bool):
            return A.make_int(value)
        if kind is A.AttrKind.STR and isinstance(value, str):
            return StringAttr(value)
        if kind is A.AttrKind.LIST_INT and seq and all(isinstance(v, int) and not isinstance(v, bool) for v in value):  # type: ignore[union-attr]
            return A.int_list_attr(value)  # type: ignore[arg-type]
        if kind is A.AttrKind.LIST_BOOL and seq and all(isinstance(v, bool) for v in value):  # type: ignore[union-attr]
            return ArrayAttr([A.bool_attr(v) for v in value])  # type: ignore[union-attr]
        want = kind.value if kind is not None else "an xDSL Attribute, a bool, an int, a str or a list"
        raise ValueError(f"{cls.name}.build: attribute '{key}' must be {want}, got {value!r}")

    @classmethod
    def _build_num_outputs(cls, attributes: dict[str, Attribute]) -> int | None:
        """How many outputs `build` makes, when the op type and attributes say it."""
        lo, hi = cls.NUM_OUTPUTS
        return lo if lo == hi else None

    @classmethod
    def _build_types(
        cls,
        operands: Sequence[SSAValue],
        attributes: dict[str, Attribute],
        shape: Sequence[int] | None,
        dtype: Attribute | None,
    ) -> list[Attribute]:
        """The result types `build` infers: the count from `_build_num_outputs`, the
        shapes from `infer()` on a probe node (infer reads inputs and attributes only),
        the dtype from `dtype`, else input 0's."""
        what = cls.name.removeprefix("ge.")
        n = cls._build_num_outputs(attributes)
        if n is None:
            raise VerifyException(f"give result_types= (the number of outputs of {what} is not fixed)")
        if n == 0:
            return []
        elem: Attribute | None = dtype
        if elem is None:
            if not operands or not cls.SAME_DTYPE_OUT:
                raise VerifyException(f"give dtype= ({what}'s output dtype is not its input's)")
            elem = value_dtype(operands[0])
        if shape is not None:
            return [TensorType(elem, list(shape))] * n
        # (inside xDSL's ImplicitBuilder the probe is appended to the block like any op:
        # erased below, it leaves no trace)
        probe = cls.create(operands=list(operands), result_types=[TensorType(elem, [])] * n, attributes=attributes)
        try:
            probe._verify_arity()
            probe._verify_attributes()
            inferred = probe.infer()
        finally:
            _discard(probe)
        unknown_in = any(tensor_desc(v.type).is_unknown_shape for v in operands)
        if inferred is None or any(s is None for s in inferred) and not unknown_in:
            raise VerifyException(f"give shape= ({what} infers no output shape from these inputs)")
        # an output of unknown rank (GE's -2) is unranked, from inputs of unknown shape
        return [UnrankedTensorType(elem) if s is None else TensorType(elem, list(s)) for s in inferred]


# ---------------------------------------------------------------------------------------
# Graph
# ---------------------------------------------------------------------------------------


_ISA: dict[tuple[type, tuple[type, ...]], bool] = {}


def _isa(obj: object, classes: tuple[type, ...]) -> bool:
    """isinstance(obj, classes), kept per (type, classes) while ge_dialect/memo.py is on:
    an xDSL op or value class is an ABC, whose isinstance is a Python call per object, and
    the graph checks ask it of every node and input."""
    if not memo.ENABLED:
        return isinstance(obj, classes)
    key = (type(obj), classes)
    hit = _ISA.get(key)
    if hit is None:
        hit = _ISA[key] = isinstance(obj, classes)
    return hit


def _verify_graph_body(block_ops: Sequence[Operation], what: str) -> list[DataLike]:
    """Shared by ge.graph and ge.FusedAscBackend: nodes in topological order, dense Data
    indices, a final NetOutput. Returns the Data nodes by index."""
    # the ops seen so far (a set of ops: their identity hash is C's, a value's is Python's)
    defined: set[Operation] = set()
    for op in block_ops:
        # GE graphs are DAGs listed in topological order (passes and the interpreters walk
        # the block in order): an input produced further down is a forward edge or a cycle.
        block = op.parent
        for i, v in enumerate(op.operands):
            if not _isa(v, _OP_RESULT):
                continue
            r = cast(OpResult, v)
            if r.op not in defined and r.op.parent is block:
                raise LocatedError(
                    op,
                    f"input {i} '%{r.name_hint or r.index}' is produced by '{node_name(r.op)}' further down "
                    "the graph: nodes must be listed in topological order (no cycles)",
                )
        defined.add(op)
    datas = _graph_data_nodes(block_ops, what)
    if not block_ops or not isinstance(block_ops[-1], NetOutput):
        raise VerifyException(f"{what} must end with ge.NetOutput")
    return datas


def _graph_data_nodes(block_ops: Sequence[Operation], what: str) -> list[DataLike]:
    """The body's Data nodes by index; their indices must be 0..n-1, each once."""
    datas: list[DataLike] = []
    seen: dict[int, DataLike] = {}
    for op in block_ops:
        if _isa(op, _DATA_TYPES):
            assert isinstance(op, DataLike)
            idx = op.int_attr("index")
            if idx is None:
                # A callee graph is read by its PartitionedCall before its own nodes verify.
                try:
                    op.verify_()
                except VerifyException as e:
                    raise LocatedError(op, str(e)) from None
                raise LocatedError(op, "requires an integer attribute 'index'")
            if idx in seen:
                raise VerifyException(
                    f"{what}: Data index {idx} is used by '{node_name(seen[idx])}' and '{node_name(op)}'"
                )
            seen[idx] = op
            datas.append(op)
    for k in range(len(seen)):
        if k not in seen:
            raise VerifyException(f"{what}: Data indices must be 0..{len(seen) - 1}; index {k} is missing")
    return sorted(datas, key=lambda d: d.int_attr("index") or 0)


@irdl_op_definition
class GraphOp(IRDLOperation):
    """`ge.graph @name attributes {...} { nodes }`: one GE (sub)graph."""

    # identity hashing in C: IRDLOperation.__hash__ computes the same id(self) in Python,
    # and the passes key dicts and sets by nodes (tests/dialects/test_node_hash.py)
    __hash__ = object.__hash__

    name = "ge.graph"
    sym_name = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), NoTerminator(), AtModuleLevel())

    def __init__(self, name: str, body: Region, attributes: dict[str, Attribute] | None = None):
        super().__init__(properties={"sym_name": StringAttr(name)}, regions=[body], attributes=attributes or {})

    @classmethod
    def parse(cls, parser: Parser) -> GraphOp:
        name = parser.parse_symbol_name().data
        attributes = {}
        if parser.parse_optional_keyword("attributes") is not None:
            attributes = parser.parse_optional_attr_dict()
        body = parser.parse_region()
        if not body.blocks:
            # `ge.graph @g {}`: an empty body, reported as a graph without NetOutput
            body.add_block(Block())
        return GraphOp(name, body, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.attributes:
            printer.print_string(" attributes ")
            A.print_ge_attr_dict(printer, self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        for name, a in self.attributes.items():
            kind = A.GRAPH_ATTR_KINDS.get(name)
            if kind is not None and (err := A.kind_error(name, a, kind)) is not None:
                raise VerifyException(err)
        if self.body.block.args:
            raise VerifyException("a ge.graph takes its inputs through ge.Data nodes, not block arguments")
        ops = list(self.body.block.ops)
        _verify_graph_body_ops(ops, f"graph @{self.sym_name.data}")
        _verify_graph_body(ops, f"graph @{self.sym_name.data}")
        _verify_no_call_cycle(self, ops)  # stream_allocator.cc: kMaxSubgraphDepth bounds the subgraph tree

    @property
    def data_nodes(self) -> list[DataLike]:
        """The graph's Data nodes by index (one scan of the body; no other checks)."""
        return _graph_data_nodes(list(self.body.block.ops), f"graph @{self.sym_name.data}")

    @property
    def net_output(self) -> NetOutput:
        last = self.body.block.last_op
        assert isinstance(last, NetOutput)
        return last


# -- graph structure ---------------------------------------------------------------------

INT64_MAX = 2**63 - 1


def _describe(op: Operation) -> str:
    if isinstance(op, GraphOp):
        return f"ge.graph @{op.sym_name.data}"
    if isinstance(op, GeNode):
        return f"{op.name} '{node_name(op)}'"
    return op.name


def _verify_graph_placement(graph: GraphOp) -> None:
    """A ge.graph sits directly in a builtin.module: GE keeps every subgraph in the root
    graph's flat list (compute_graph.cc: ComputeGraphImpl::AddSubgraph, "subgraphs should
    only be added to the root graph"), reached through a node's subgraph instance name
    (PartitionedCall `f`), never nested in another graph's body."""
    parent = graph.parent_op()
    if parent is None or isinstance(parent, ModuleOp):
        return
    raise VerifyException(
        f"ge.graph @{graph.sym_name.data} is nested inside {_describe(parent)}: a subgraph is a ge.graph "
        "of its own at module level, called by a ge.PartitionedCall (f = @name)"
    )


def _verify_node_placement(node: GeNode) -> None:
    """A GE node belongs to a graph: a ge.graph body, a FusedAscBackend body or an
    AscBackend's origin body (each a ComputeGraph in GE: OpDesc::GetOwnerComputeGraph)."""
    parent = node.parent_op()
    if parent is None or isinstance(parent, GraphOp | FusedAscBackend):
        return
    if isinstance(parent, AscBackend) and parent.origin is not None and node.parent_region() is parent.origin:
        return
    top = parent.name == "builtin.module" and parent.parent_op() is None
    where = "directly in the module" if top else f"inside {_describe(parent)}"
    raise VerifyException(f"{ge_type(node)} node '{node_name(node)}' is {where}: GE nodes live in a ge.graph body")


def _verify_graph_body_ops(ops: Sequence[Operation], what: str) -> None:
    """A graph body holds GE nodes (a nested ge.graph reports itself, verified first)."""
    for op in ops:
        if not _isa(op, _BODY_TYPES):
            raise LocatedError(op, f"{what} holds {op.name}: a ge.graph body holds GE nodes only")


def _verify_tensor_size(t: Attribute, what: str) -> None:
    """A tensor's size must fit GE's int64 sizes: TensorUtils::CalcTensorMemSize (tensor_utils.cc)
    counts the elements of the runtime (storage) shape with CalcElementCntByDims, failing when
    the product overflows int64 (a 0 dim gives 0 elements first, CalcTensorElementCnt), then
    GetSizeInBytes (types.cc) fails when count * type size (count * bits for sub-byte types)
    overflows int64, and GetTensorSizeInBytes fails on the negative size."""
    desc = tensor_desc(t)
    if desc.is_unknown_shape:
        return
    assert desc.storage_shape is not None
    for shape, which in ((desc.shape, "shape"), (desc.storage_shape, f"{desc.storage_format} storage shape")):
        assert shape is not None
        count = math.prod(shape)
        if count > INT64_MAX:
            raise VerifyException(
                f"{what}: {which} {fmt_shape(tuple(shape))} has {count} elements, more than int64 can count "
                "(GE: CalcElementCntByDims overflows)"
            )
    count = math.prod(desc.storage_shape)
    bits = dtype_bits(desc.dtype)
    # types.cc: GetSizeInBytes multiplies by the bit width for sub-byte types, else by bytes
    factor = bits if bits < 8 else bits // 8
    if count * factor > INT64_MAX:
        unit = "bits" if bits < 8 else "bytes"
        raise VerifyException(
            f"{what}: {count} x {ge_dtype_name(desc.dtype)} is too large: GE sizes tensors in int64 and "
            f"{count} x {factor} {unit} overflows it (GetSizeInBytes)"
        )


def _verify_no_call_cycle(graph: GraphOp, ops: Sequence[Operation]) -> None:
    """No chain of subgraph calls (PartitionedCall's `f`, a control op's branches, cond and
    body) leads back to its own graph. GE's subgraphs form a tree under the root graph,
    each with one parent node (ComputeGraph::GetParentNode), and the walks over it are
    bounded (stream_allocator.cc: BuildEventReuseMapOfOneDim fails beyond
    kMaxSubgraphDepth): a recursive call has no static meaning. One depth-first walk from
    this graph over the graphs it reaches; a graph without calls costs nothing."""
    calls = [(op, called_graph_names(op)) for op in ops if _isa(op, _CALL_TYPES)]
    module = graph.parent_op()
    if not calls or module is None:
        return
    graphs = {g.sym_name.data: g for g in module.regions[0].block.ops if isinstance(g, GraphOp)}
    me = graph.sym_name.data
    seen: set[str] = set()
    for call, firsts in calls:
        kind = ge_type(call)
        for first in firsts:
            if first == me:
                raise LocatedError(call, f"{kind} calls @{me}, the graph it is in: GE graphs cannot recurse")
            # iterative DFS; `came_from` rebuilds the path of the cycle
            came_from: dict[str, str] = {first: me}
            stack = [first] if first not in seen else []
            while stack:
                name = stack.pop()
                if name in seen:
                    continue
                seen.add(name)
                g = graphs.get(name)
                if g is None:
                    continue
                for op in g.body.block.ops:
                    if not isinstance(op, PartitionedCall | ControlOp):
                        continue
                    for nxt in called_graph_names(op):
                        if nxt == me:
                            path = [me, name]
                            while path[-1] != first:
                                path.append(came_from[path[-1]])
                            chain = " -> ".join(f"@{n}" for n in [me, *reversed(path[1:]), me])
                            raise LocatedError(
                                call,
                                f"{kind} calls @{first}, which calls back into @{me} ({chain}): GE graphs cannot recurse",
                            )
                        if nxt not in seen:
                            came_from.setdefault(nxt, name)
                            stack.append(nxt)


# ---------------------------------------------------------------------------------------
# Data and constants
# ---------------------------------------------------------------------------------------


class DataLike(GeNode):
    NUM_INPUTS: ClassVar = (0, 0)
    # a subgraph's Data: the parent node's input it stands for (see "Control flow" below)
    ATTRS: ClassVar = {"index": (A.AttrKind.INT, True), "_parent_node_index": (A.AttrKind.INT, False)}

    def check(self) -> None:
        idx = self.int_attr("index")
        if idx is not None and idx < 0:
            raise VerifyException(f"Data index must be >= 0, got {idx}")


@irdl_op_definition
class Data(DataLike):
    name = "ge.Data"


@irdl_op_definition
class RefData(DataLike):
    name = "ge.RefData"


class ConstLike(GeNode):
    NUM_INPUTS: ClassVar = (0, 0)
    VALUE_REQUIRED: ClassVar[bool] = True

    @classmethod
    def _build_types(
        cls,
        operands: Sequence[SSAValue],
        attributes: dict[str, Attribute],
        shape: Sequence[int] | None,
        dtype: Attribute | None,
    ) -> list[Attribute]:
        v = attributes.get("value")
        if isinstance(v, DenseIntOrFPElementsAttr) and shape is None and dtype is None:
            return [v.get_type()]  # the output is the value's type (check())
        return super()._build_types(operands, attributes, shape, dtype)

    def check(self) -> None:
        v = self.attributes.get("value")
        if v is None:
            if self.VALUE_REQUIRED:
                raise VerifyException(f"{ge_type(self)} requires attribute 'value' (dense<...> : tensor<...>)")
            return
        # an elided value (printed without its data, ge_dialect/weights.py) reads back; what
        # needs its bytes says so (elided_error)
        if not isinstance(v, DenseIntOrFPElementsAttr) and not is_elided(v):
            raise VerifyException(f"attribute 'value' must be a dense<...> tensor, got {v}")
        vt, rt = v.get_type(), value_type(self.results[0])  # type: ignore[attr-defined]
        if shape_of(vt) != shape_of(rt) or vt.element_type != rt.element_type:  # type: ignore[attr-defined]
            raise VerifyException(f"attribute 'value' has type {vt}, but the output is {rt}")


@irdl_op_definition
class Const(ConstLike):
    name = "ge.Const"
    traits = traits_def(Pure())


@irdl_op_definition
class Constant(ConstLike):
    name = "ge.Constant"
    traits = traits_def(Pure())


@irdl_op_definition
class Variable(ConstLike):
    """A variable: its `value` is the initial value (zeros when absent)."""

    name = "ge.Variable"
    VALUE_REQUIRED: ClassVar = False


@irdl_op_definition
class NetOutput(GeNode):
    """`ge.NetOutput %a, %b : tensor<...>, tensor<...>`: the graph's outputs, in order."""

    name = "ge.NetOutput"
    NUM_OUTPUTS: ClassVar = (0, 0)
    traits = traits_def(IsTerminator())
    # a subgraph's NetOutput: the parent node's output each input writes (GE keeps
    # ATTR_NAME_PARENT_NODE_INDEX on each input desc; here one list entry per input)
    ATTRS: ClassVar = {"_parent_node_index": (A.AttrKind.LIST_INT, False)}

    def check(self) -> None:
        idx = self.int_list("_parent_node_index")
        if idx is not None and len(idx) != len(self.operands):
            raise VerifyException(f"'_parent_node_index' has {len(idx)} entries for {len(self.operands)} inputs")

    @classmethod
    def parse(cls, parser: Parser) -> NetOutput:
        start = parser.pos
        args = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        attributes = parser.parse_optional_attr_dict()
        types = []
        if args:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        operands = parser.resolve_operands(args, types, start)
        return NetOutput.create(operands=operands, attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        if self.attributes:
            printer.print_string(" ")
            A.print_ge_attr_dict(printer, self.attributes)
        if self.operands:
            printer.print_string(" : ")
            printer.print_list((o.type for o in self.operands), printer.print_attribute)


# ---------------------------------------------------------------------------------------
# Pointwise
# ---------------------------------------------------------------------------------------


class Elementwise(GeNode):
    """Pointwise ops: inputs broadcast with numpy's rules; one dtype."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)

    def check(self) -> None:
        self.same_dtype(self.operands, "inputs")
        if self.SAME_DTYPE_OUT and self.output_dtype(0) != self.input_dtype(0):
            raise VerifyException(f"output dtype {self.output_dtype(0)} differs from input dtype {self.input_dtype(0)}")

    def infer(self) -> list[Dims | None] | None:
        shapes = [self.in_shape(i) for i in range(len(self.operands))]
        if any(s is None for s in shapes):
            # util.cpp: InferShapeAndTypeTwoInOneOutBroadcast: an UNKNOWN_RANK input gives
            # an UNKNOWN_RANK output
            return [None]
        out: Dims = shapes[0]  # type: ignore[assignment]
        for i, s in enumerate(shapes[1:], 1):
            b = broadcast_shapes(out, s)  # type: ignore[arg-type]
            if b is None:
                raise VerifyException(
                    f"input shapes {fmt_shape(shapes[0])} and {fmt_shape(s)} do not broadcast (input {i})"
                )
            out = b
        return [out]


class Binary(Elementwise):
    NUM_INPUTS: ClassVar = (2, 2)


class Unary(Elementwise):
    pass


@irdl_op_definition
class Add(Binary):
    """x1 + x2"""

    name = "ge.Add"


@irdl_op_definition
class Sub(Binary):
    """x1 - x2"""

    name = "ge.Sub"


@irdl_op_definition
class Mul(Binary):
    """x1 * x2"""

    name = "ge.Mul"


@irdl_op_definition
class RealDiv(Binary):
    """x1 / x2"""

    name = "ge.RealDiv"


@irdl_op_definition
class Div(Binary):
    """x1 / x2; on integers rounded toward zero (TensorFlow's Div, which GE's REG_OP(Div) follows)"""

    name = "ge.Div"


@irdl_op_definition
class Maximum(Binary):
    """max(x1, x2)"""

    name = "ge.Maximum"


@irdl_op_definition
class Minimum(Binary):
    """min(x1, x2)"""

    name = "ge.Minimum"


@irdl_op_definition
class Pow(Binary):
    """x1 ** x2"""

    name = "ge.Pow"


@irdl_op_definition
class Relu(Unary):
    """max(x, 0)"""

    name = "ge.Relu"


@irdl_op_definition
class Abs(Unary):
    """|x|"""

    name = "ge.Abs"


@irdl_op_definition
class Neg(Unary):
    """-x"""

    name = "ge.Neg"


@irdl_op_definition
class Exp(Unary):
    """e ** x"""

    name = "ge.Exp"


@irdl_op_definition
class Log(Unary):
    """ln x"""

    name = "ge.Log"


@irdl_op_definition
class Sqrt(Unary):
    """sqrt x"""

    name = "ge.Sqrt"


@irdl_op_definition
class Rsqrt(Unary):
    """1 / sqrt x"""

    name = "ge.Rsqrt"


@irdl_op_definition
class Sigmoid(Unary):
    """1 / (1 + e ** -x)"""

    name = "ge.Sigmoid"


@irdl_op_definition
class Tanh(Unary):
    """tanh x"""

    name = "ge.Tanh"


@irdl_op_definition
class Square(Unary):
    """x * x"""

    name = "ge.Square"


@irdl_op_definition
class Reciprocal(Unary):
    """1 / x"""

    name = "ge.Reciprocal"


@irdl_op_definition
class Identity(Unary):
    """x (GE deletes it before execution)"""

    name = "ge.Identity"


@irdl_op_definition
class Cast(Unary):
    """Converts to the output's dtype; `dst_type` (GE's DataType number) is optional."""

    name = "ge.Cast"
    SAME_DTYPE_OUT: ClassVar = False
    ATTRS: ClassVar = {"dst_type": (A.AttrKind.INT, False)}


@irdl_op_definition
class AddN(Elementwise):
    """x0 + x1 + ... (GE's AddN, attribute N = number of inputs)."""

    name = "ge.AddN"
    NUM_INPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {"N": (A.AttrKind.INT, False)}

    def check(self) -> None:
        super().check()
        n = self.int_attr("N")
        if n is not None and n != len(self.operands):
            raise VerifyException(f"attribute N = {n} but AddN has {len(self.operands)} inputs")


# ---------------------------------------------------------------------------------------
# Activations, comparisons, logic, selection and normalisation (the ops ONNX models need)
#
# Each op's dtypes are its REG_OP's in GE's op protos (ops/built-in/op_proto/inc/:
# nonlinear_fuc_ops.h, elewise_calculation_ops.h, math_ops.h, selection_ops.h,
# nn_norm_ops.h); the TensorType groups are metadef's operator_reg TensorType helpers
# (FloatingDataType, RealNumberType, BasicType, ...), restricted to the dtypes the ge
# dialect has. Float attributes (GE `Float`) are FloatAttrs (an integer is accepted too);
# an absent one reads as the REG_OP default.
# ---------------------------------------------------------------------------------------

# metadef operator_reg: TensorType::FloatingDataType / RealNumberType / BasicType /
# NumberType / UnaryDataType, as far as the ge dialect has the dtypes (no complex, no
# quantised types). DT_BF16 is in them as in GE's later protos, whose REG_OPs add it
# (hicann/ge tests/depends/op_stub/op_proto/inc/elewise_calculation_ops.h: Equal, Mod, Sign);
# an op the public copy registers for float16/float32 only (Gelu, HardSwish, Mish, ...)
# keeps that list.
FLOATING_TYPES: frozenset[str] = frozenset({"DT_FLOAT", "DT_FLOAT16", "DT_DOUBLE", "DT_BF16"})
REAL_NUMBER_TYPES: frozenset[str] = FLOATING_TYPES | {
    "DT_INT8", "DT_INT16", "DT_INT32", "DT_INT64", "DT_UINT8", "DT_UINT16", "DT_UINT32", "DT_UINT64",
}  # fmt: skip
BASIC_TYPES: frozenset[str] = REAL_NUMBER_TYPES
F16_F32: frozenset[str] = frozenset({"DT_FLOAT", "DT_FLOAT16"})
BOOL_TYPES: frozenset[str] = frozenset({"DT_BOOL"})


def float_attr(op: Operation, name: str, default: float) -> float:
    """A GE `Float` attribute of `op` (a FloatAttr, or an integer), `default` when absent."""
    a = op.attributes.get(name)
    if a is None:
        return default
    if isinstance(a, FloatAttr):
        return float(a.value.data)
    if isinstance(a, IntegerAttr) and not (isinstance(a.type, IntegerType) and a.type.width.data == 1):
        return float(a.value.data)
    raise VerifyException(f"attribute '{name}' must be a float (e.g. 0.01 : f32), got {a}")


def _dtype_of(v: SSAValue) -> str:
    return ge_dtype_name(value_dtype(v))


class _Checked(Elementwise):
    """A pointwise op whose inputs take GE's REG_OP dtypes `DTYPES` (input `i` of
    `IN_DTYPES`, when given, its own) and whose output is `OUT_DTYPE` (None: the input's);
    `FLOAT_ATTRS` are its `Float` attributes with their REG_OP defaults."""

    DTYPES: ClassVar[frozenset[str]] = FLOATING_TYPES
    IN_DTYPES: ClassVar[dict[int, frozenset[str]]] = {}
    OUT_DTYPE: ClassVar[str | None] = None
    FLOAT_ATTRS: ClassVar[dict[str, float]] = {}
    # input indices that share the output's dtype (the others: their own IN_DTYPES)
    DATA_INPUTS: ClassVar[tuple[int, ...] | None] = None

    def check(self) -> None:
        data = list(self.operands) if self.DATA_INPUTS is None else [self.operands[i] for i in self.DATA_INPUTS]
        self.same_dtype(data, "inputs" if self.DATA_INPUTS is None else "data inputs")
        for i, v in enumerate(self.operands):
            allowed = self.IN_DTYPES.get(i, self.DTYPES)
            if _dtype_of(v) not in allowed:
                raise VerifyException(
                    f"{ge_type(self)} input {i} has dtype {value_dtype(v)}; GE's {ge_type(self)} takes "
                    f"{', '.join(sorted(allowed))}"
                )
        out = self.results[0]
        if self.OUT_DTYPE is not None:
            if _dtype_of(out) != self.OUT_DTYPE:
                raise VerifyException(f"{ge_type(self)} outputs {self.OUT_DTYPE}, got {value_dtype(out)}")
        elif value_dtype(out) != value_dtype(data[0]):
            raise VerifyException(f"output dtype {value_dtype(out)} differs from input dtype {value_dtype(data[0])}")
        for name, default in self.FLOAT_ATTRS.items():
            float_attr(self, name, default)

    def fattr(self, name: str) -> float:
        return float_attr(self, name, self.FLOAT_ATTRS[name])


class CheckedUnary(_Checked):
    NUM_INPUTS: ClassVar = (1, 1)


class CheckedBinary(_Checked):
    NUM_INPUTS: ClassVar = (2, 2)


# -- activations (nonlinear_fuc_ops.h unless said otherwise) -------------------------------


@irdl_op_definition
class Erf(CheckedUnary):
    """erf(x) (math_ops.h: REG_OP(Erf), FloatingDataType)"""

    name = "ge.Erf"


@irdl_op_definition
class Gelu(CheckedUnary):
    """The tanh approximation x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3))) (GE's Gelu
    kernel, tbe/impl/dynamic/gelu.py: gelu_compute); float16, float32."""

    name = "ge.Gelu"
    DTYPES: ClassVar = F16_F32


@irdl_op_definition
class HardSwish(CheckedUnary):
    """x * relu6(x + 3) / 6 (tbe/impl/dynamic/hard_swish.py); float16, float32."""

    name = "ge.HardSwish"
    DTYPES: ClassVar = F16_F32


@irdl_op_definition
class HardSigmoid(CheckedUnary):
    """max(0, min(1, alpha * x + beta)); REG_OP defaults alpha 0.16666666, beta 0.5."""

    name = "ge.HardSigmoid"
    DTYPES: ClassVar = F16_F32
    FLOAT_ATTRS: ClassVar = {"alpha": 0.16666666, "beta": 0.5}


@irdl_op_definition
class LeakyRelu(CheckedUnary):
    """x if x >= 0 else negative_slope * x (REG_OP default negative_slope 0.0)."""

    name = "ge.LeakyRelu"
    DTYPES: ClassVar = frozenset({"DT_FLOAT", "DT_FLOAT16", "DT_DOUBLE"})
    FLOAT_ATTRS: ClassVar = {"negative_slope": 0.0}


@irdl_op_definition
class Relu6(CheckedUnary):
    """min(max(x, 0), 6) (RealNumberType)."""

    name = "ge.Relu6"
    DTYPES: ClassVar = REAL_NUMBER_TYPES


@irdl_op_definition
class Elu(CheckedUnary):
    """alpha * (exp(min(x, 0)) - 1) + max(x, 0) (REG_OP default alpha 1.0; the formula of
    GE's Elu lowering, lowering_impl.cpp REGISTER_LOWERING(Elu), scale = input_scale = 1)."""

    name = "ge.Elu"
    FLOAT_ATTRS: ClassVar = {"alpha": 1.0}


@irdl_op_definition
class Selu(CheckedUnary):
    """scale * (max(x, 0) + min(0, alpha * (exp(x) - 1))) with SELU's fixed alpha and scale
    (selu_plugin.cc: ALPHA_DEFAULT 1.67326324235, GAMMA_DEFAULT 1.05070098736)."""

    name = "ge.Selu"
    DTYPES: ClassVar = frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_DOUBLE", "DT_INT8", "DT_INT32"})


@irdl_op_definition
class Celu(CheckedUnary):
    """max(0, x) + min(0, alpha1 * (exp(x / alpha2) - 1)) (REG_OP Celu: alpha1, alpha2,
    alpha3 default 1.0; celu_plugin.cc sets alpha1 = alpha2 = ONNX alpha)."""

    name = "ge.Celu"
    DTYPES: ClassVar = F16_F32
    FLOAT_ATTRS: ClassVar = {"alpha1": 1.0, "alpha2": 1.0, "alpha3": 1.0}


@irdl_op_definition
class Softplus(CheckedUnary):
    """log(1 + exp(x)) (FloatingDataType)."""

    name = "ge.Softplus"


@irdl_op_definition
class Softsign(CheckedUnary):
    """x / (1 + |x|) (FloatingDataType)."""

    name = "ge.Softsign"


@irdl_op_definition
class Mish(CheckedUnary):
    """x * tanh(log(1 + exp(x))) (tbe/impl/mish.py); float16, float32."""

    name = "ge.Mish"
    DTYPES: ClassVar = F16_F32


# -- rounding and trigonometry (elewise_calculation_ops.h) ----------------------------------


@irdl_op_definition
class Floor(CheckedUnary):
    """floor(x) (FloatingDataType)."""

    name = "ge.Floor"


@irdl_op_definition
class Ceil(CheckedUnary):
    """ceil(x) (FloatingDataType)."""

    name = "ge.Ceil"


@irdl_op_definition
class Round(CheckedUnary):
    """x rounded to the nearest integer, halves to even (float16, float32, double, int32,
    int64: integers are kept)."""

    name = "ge.Round"
    DTYPES: ClassVar = frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_DOUBLE", "DT_BF16", "DT_INT32", "DT_INT64"})


@irdl_op_definition
class Sign(CheckedUnary):
    """-1, 0 or 1 by the sign of x (float16, float32, double, int32, int64)."""

    name = "ge.Sign"
    DTYPES: ClassVar = frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_DOUBLE", "DT_BF16", "DT_INT32", "DT_INT64"})


@irdl_op_definition
class Sin(CheckedUnary):
    """sin(x) (UnaryDataType)."""

    name = "ge.Sin"


@irdl_op_definition
class Cos(CheckedUnary):
    """cos(x) (UnaryDataType)."""

    name = "ge.Cos"


@irdl_op_definition
class IsNan(CheckedUnary):
    """x is NaN, as bool (math_ops.h: REG_OP(IsNan), float16/float32/double)."""

    name = "ge.IsNan"
    OUT_DTYPE: ClassVar = "DT_BOOL"
    SAME_DTYPE_OUT: ClassVar = False


@irdl_op_definition
class IsInf(CheckedUnary):
    """x is +inf or -inf, as bool (math_ops.h: REG_OP(IsInf))."""

    name = "ge.IsInf"
    OUT_DTYPE: ClassVar = "DT_BOOL"
    SAME_DTYPE_OUT: ClassVar = False


# -- binary arithmetic -----------------------------------------------------------------------


_MOD_TYPES: frozenset[str] = frozenset(
    {"DT_FLOAT16", "DT_FLOAT", "DT_INT32", "DT_INT8", "DT_UINT8", "DT_INT64", "DT_DOUBLE", "DT_BF16"}
)  # elewise_calculation_ops.h: REG_OP(Mod) (DT_BF16: the later proto above)


@irdl_op_definition
class Mod(CheckedBinary):
    """x1 - trunc(x1 / x2) * x2, the sign of x1 (TensorFlow's Mod, tbe/impl/dynamic/mod.py:
    truncate_mod); an integer x2 of 0 is an error."""

    name = "ge.Mod"
    DTYPES: ClassVar = _MOD_TYPES


@irdl_op_definition
class FloorMod(CheckedBinary):
    """x1 - floor(x1 / x2) * x2, the sign of x2 (TensorFlow's FloorMod; int32, int64, float16,
    float32, double); an integer x2 of 0 is an error."""

    name = "ge.FloorMod"
    DTYPES: ClassVar = frozenset({"DT_INT32", "DT_INT64", "DT_FLOAT", "DT_FLOAT16", "DT_DOUBLE"})


# -- comparisons and logic (elewise_calculation_ops.h): bool outputs --------------------------


class Comparison(CheckedBinary):
    """x1 <op> x2 with numpy broadcasting, as a bool tensor (RealNumberType inputs)."""

    DTYPES: ClassVar = REAL_NUMBER_TYPES
    OUT_DTYPE: ClassVar = "DT_BOOL"
    SAME_DTYPE_OUT: ClassVar = False


@irdl_op_definition
class Equal(Comparison):
    """x1 == x2 (bool inputs too)."""

    name = "ge.Equal"
    DTYPES: ClassVar = REAL_NUMBER_TYPES | BOOL_TYPES


@irdl_op_definition
class NotEqual(Comparison):
    """x1 != x2"""

    name = "ge.NotEqual"


@irdl_op_definition
class Less(Comparison):
    """x1 < x2"""

    name = "ge.Less"


@irdl_op_definition
class LessEqual(Comparison):
    """x1 <= x2"""

    name = "ge.LessEqual"


@irdl_op_definition
class Greater(Comparison):
    """x1 > x2"""

    name = "ge.Greater"


@irdl_op_definition
class GreaterEqual(Comparison):
    """x1 >= x2"""

    name = "ge.GreaterEqual"


@irdl_op_definition
class LogicalAnd(CheckedBinary):
    """x1 and x2 (bool)"""

    name = "ge.LogicalAnd"
    DTYPES: ClassVar = BOOL_TYPES


@irdl_op_definition
class LogicalOr(CheckedBinary):
    """x1 or x2 (bool)"""

    name = "ge.LogicalOr"
    DTYPES: ClassVar = BOOL_TYPES


@irdl_op_definition
class LogicalNot(CheckedUnary):
    """not x (bool)"""

    name = "ge.LogicalNot"
    DTYPES: ClassVar = BOOL_TYPES


# -- selection and clipping (three broadcast inputs) -------------------------------------------


@irdl_op_definition
class SelectV2(_Checked):
    """then where condition else else, the three broadcast (selection_ops.h: REG_OP(SelectV2):
    condition bool, then/else BasicType)."""

    name = "ge.SelectV2"
    NUM_INPUTS: ClassVar = (3, 3)
    DTYPES: ClassVar = BASIC_TYPES
    IN_DTYPES: ClassVar = {0: BOOL_TYPES}
    DATA_INPUTS: ClassVar = (1, 2)


@irdl_op_definition
class ClipByValue(_Checked):
    """min(max(x, clip_value_min), clip_value_max) (elewise_calculation_ops.h:
    REG_OP(ClipByValue), NumberType); the bounds broadcast to x's shape, which is the
    output's."""

    name = "ge.ClipByValue"
    NUM_INPUTS: ClassVar = (3, 3)
    DTYPES: ClassVar = REAL_NUMBER_TYPES

    def infer(self) -> list[Dims | None] | None:
        out = super().infer()
        x = self.in_shape(0)
        if out is None or out[0] is None or x is None:
            return out
        if not dims_agree(out[0], x):
            raise VerifyException(
                f"clip_value_min {fmt_shape(self.in_shape(1))} and clip_value_max {fmt_shape(self.in_shape(2))} "
                f"must broadcast to x's shape {fmt_shape(x)} (the output is x's shape)"
            )
        return [merge_shapes(out[0], x)]


# -- softmax and layer norm (nn_norm_ops.h) ----------------------------------------------------


class SoftmaxBase(GeNode):
    """Softmax over the axes `axes` (REG_OP default [-1]) jointly; float16, float32, double."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"axes": (A.AttrKind.LIST_INT, False)}

    def norm_axes(self) -> list[int] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        axes = self.int_list("axes")
        axes = [-1] if axes is None else axes
        if not axes:
            raise VerifyException("axes must name at least one axis")
        rank = max(len(s), 1)  # a 0-d input is one element: axis 0 / -1 names it
        norm = sorted({normalize_axis(a, rank, "axes entry") for a in axes})
        if len(norm) != len(axes):
            raise VerifyException(f"axes {axes} name an axis twice")
        return norm

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "input and output")
        if _dtype_of(self.operands[0]) not in FLOATING_TYPES:
            raise VerifyException(f"{ge_type(self)} takes float16, float32 or double, got {self.input_dtype(0)}")

    def infer(self) -> list[Dims | None] | None:
        self.norm_axes()
        return [self.in_shape(0)]


@irdl_op_definition
class SoftmaxV2(SoftmaxBase):
    """exp(x - max) / sum(exp(x - max)) over `axes`."""

    name = "ge.SoftmaxV2"


@irdl_op_definition
class LogSoftmaxV2(SoftmaxBase):
    """x - max - log(sum(exp(x - max))) over `axes`."""

    name = "ge.LogSoftmaxV2"


@irdl_op_definition
class LayerNorm(GeNode):
    """`ge.LayerNorm(%x, %gamma, %beta) -> (y, mean, variance)` (nn_norm_ops.h:
    REG_OP(LayerNorm)): mean and (biased) variance of x over the axes from
    `begin_norm_axis` on, kept as size 1 (runtime/layer_norm.cc: LayerNormInferShape), y =
    gamma * (x - mean) / sqrt(variance + epsilon) + beta with gamma and beta of shape
    x.shape[begin_params_axis:]. REG_OP defaults: begin_norm_axis 0, begin_params_axis 0,
    epsilon 1e-7; float16, float32."""

    traits = traits_def(Pure())

    name = "ge.LayerNorm"
    NUM_INPUTS: ClassVar = (3, 3)
    NUM_OUTPUTS: ClassVar = (3, 3)
    ATTRS: ClassVar = {"begin_norm_axis": (A.AttrKind.INT, False), "begin_params_axis": (A.AttrKind.INT, False)}

    def epsilon(self) -> float:
        return float_attr(self, "epsilon", 1e-7)

    def axes(self) -> tuple[int, int] | None:
        """(begin_norm_axis, begin_params_axis), normalised by x's rank."""
        s = self.in_shape(0)
        if s is None:
            return None
        rank = len(s)
        if rank == 0:
            raise VerifyException("LayerNorm needs x of rank >= 1")
        n = normalize_axis(self.int_attr("begin_norm_axis", 0), rank, "begin_norm_axis")
        p = normalize_axis(self.int_attr("begin_params_axis", 0), rank, "begin_params_axis")
        return n, p

    def check(self) -> None:
        self.same_dtype([*self.operands, *self.results], "inputs and outputs")
        if _dtype_of(self.operands[0]) not in F16_F32:
            raise VerifyException(f"LayerNorm takes float16 or float32, got {self.input_dtype(0)}")
        self.epsilon()

    def infer(self) -> list[Dims | None] | None:
        s, ax = self.in_shape(0), self.axes()
        if s is None or ax is None:
            return None
        n, p = ax
        for i, what in ((1, "gamma"), (2, "beta")):
            g = self.in_shape(i)
            if not dims_agree(g, s[p:]):
                raise VerifyException(
                    f"{what} has shape {fmt_shape(g)}, but x {fmt_shape(s)} with begin_params_axis {p} needs "
                    f"{fmt_shape(s[p:])}"
                )
        # gamma and beta are x's trailing dims: a dim x leaves unknown they may know
        s = s[:p] + (merge_shapes(s[p:], self.in_shape(1), self.in_shape(2)) or ())
        stat = tuple(1 if i >= n else d for i, d in enumerate(s))
        return [s, stat, stat]


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------


class ReduceD(GeNode):
    """Reduction over constant `axes` (empty: all axes), `keep_dims` default false."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"axes": (A.AttrKind.LIST_INT, True), "keep_dims": (A.AttrKind.BOOL, False)}

    def reduced_axes(self) -> list[int] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        axes = self.int_list("axes") or []
        if not axes:
            return list(range(len(s)))
        norm = sorted({normalize_axis(a, len(s), "axis") for a in axes})
        if len(norm) != len(axes):
            raise VerifyException(f"axes {axes} name an axis twice")
        return norm

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "input and output")

    def infer(self) -> list[Dims | None] | None:
        s, axes = self.in_shape(0), self.reduced_axes()
        if s is None or axes is None:
            return None
        keep = A.get_bool(self, "keep_dims", False)
        return [tuple(1 if i in axes else d for i, d in enumerate(s) if keep or i not in axes)]


@irdl_op_definition
class ReduceSumD(ReduceD):
    name = "ge.ReduceSumD"


@irdl_op_definition
class ReduceMaxD(ReduceD):
    name = "ge.ReduceMaxD"


@irdl_op_definition
class ReduceMinD(ReduceD):
    name = "ge.ReduceMinD"


@irdl_op_definition
class ReduceMeanD(ReduceD):
    name = "ge.ReduceMeanD"


@irdl_op_definition
class ReduceProdD(ReduceD):
    name = "ge.ReduceProdD"


# ---------------------------------------------------------------------------------------
# Concat, Pack, Split and their GE-local phony forms
# ---------------------------------------------------------------------------------------


class ConcatBase(GeNode):
    """ConcatD / ConcatV2D: `concat_dim` (default 0, GE reads it with default 0), `N`."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {"concat_dim": (A.AttrKind.INT, False), "N": (A.AttrKind.INT, False)}

    def check(self) -> None:
        self.same_dtype([*self.operands, self.results[0]], "inputs and output")
        n = self.int_attr("N")
        if n is not None and n != len(self.operands):
            raise VerifyException(f"attribute N = {n} but {ge_type(self)} has {len(self.operands)} inputs")

    def axis(self) -> int | None:
        """`concat_dim` normalised by the output rank (GE's infer: input 0's rank, a scalar
        input 0 of several counting as shape [1]); None when input 0 is unranked or is the
        only input and a scalar (GE returns its shape without reading concat_dim)."""
        s = self.in_shape(0)
        if s is None or (not s and len(self.operands) == 1):
            return None
        return normalize_axis(self.int_attr("concat_dim", 0) or 0, max(len(s), 1), "concat_dim")

    def infer(self) -> list[Dims | None] | None:
        # concatv2d.cc: InferShape4ConcatV2Common (GE's ConcatD/ConcatV2D infer; ops-math
        # concat_infershape.cpp: ConcatInferShapeCommon): one input is the output; else the
        # first input of known rank is the base (none: unknown rank), a scalar base becomes
        # shape [1], a scalar input adds 1 to a rank-1 output, every other ranked input has
        # the base's rank and, off concat_dim, its dims (an unknown dim is a wildcard and a
        # known one fills it in); concat_dim is the sum, unknown when an input's is or an
        # input has unknown rank.
        shapes = [self.in_shape(i) for i in range(len(self.operands))]
        if len(shapes) == 1:
            return [shapes[0]]
        ranked = [i for i, t in enumerate(shapes) if t is not None]
        if not ranked:
            return [None]
        base_i = ranked[0]
        out = list(shapes[base_i] or (1,))
        axis = normalize_axis(self.int_attr("concat_dim", 0) or 0, len(out), "concat_dim")
        unknown = len(ranked) < len(shapes) or out[axis] < 0
        total = 0 if unknown else out[axis]
        for i in ranked:
            if i == base_i:
                continue
            t = shapes[i]
            assert t is not None
            if not t and len(out) == 1:
                total += 1
                continue
            if len(t) != len(out) or any(
                a != b and a >= 0 and b >= 0 for k, (a, b) in enumerate(zip(t, out)) if k != axis
            ):
                shown = fmt_shape(tuple(out)) if shapes[base_i] else "scalar, counted as shape 1"
                raise VerifyException(
                    f"input {i} has shape {fmt_shape(t)}; all inputs must match input {base_i} "
                    f"({shown}) except on concat_dim {axis}"
                )
            out = [b if b >= 0 or k == axis else a for k, (a, b) in enumerate(zip(t, out))]
            if t[axis] < 0:
                unknown = True
            else:
                total += t[axis]
        out[axis] = -1 if unknown else total
        return [tuple(out)]


@irdl_op_definition
class ConcatD(ConcatBase):
    name = "ge.ConcatD"


@irdl_op_definition
class ConcatV2D(ConcatBase):
    name = "ge.ConcatV2D"


@irdl_op_definition
class Pack(GeNode):
    """Stacks N equal inputs along a new `axis` (normalised by rank + 1), GE's Pack."""

    traits = traits_def(Pure())

    name = "ge.Pack"
    NUM_INPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {"axis": (A.AttrKind.INT, False), "N": (A.AttrKind.INT, False)}

    def check(self) -> None:
        self.same_dtype([*self.operands, self.results[0]], "inputs and output")
        n = self.int_attr("N")
        if n is not None and n != len(self.operands):
            raise VerifyException(f"attribute N = {n} but Pack has {len(self.operands)} inputs")

    def infer(self) -> list[Dims | None] | None:
        shapes = [self.in_shape(i) for i in range(len(self.operands))]
        if any(s is None for s in shapes):
            return None
        first: Dims = shapes[0]  # type: ignore[assignment]
        for i, s in enumerate(shapes):
            if not dims_agree(s, first):
                raise VerifyException(
                    f"input {i} has shape {fmt_shape(s)}; Pack needs all inputs equal to input 0 ({fmt_shape(first)})"
                )
        first = merge_shapes(*shapes) or first
        axis = normalize_axis(self.int_attr("axis", 0) or 0, len(first) + 1, "axis")
        return [first[:axis] + (len(self.operands),) + first[axis:]]


class SplitBase(GeNode):
    """SplitD: `num_split` equal parts along `split_dim`; SplitVD overrides `sizes`."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)
    NUM_OUTPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {"split_dim": (A.AttrKind.INT, True), "num_split": (A.AttrKind.INT, True)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], *self.results], "input and outputs")
        n = self.int_attr("num_split")
        if n is not None and n != len(self.results):
            raise VerifyException(f"num_split = {n} but {ge_type(self)} has {len(self.results)} outputs")

    @classmethod
    def _build_num_outputs(cls, attributes: dict[str, Attribute]) -> int | None:
        n = attributes.get("num_split")
        return n.value.data if isinstance(n, IntegerAttr) and n.value.data > 0 else None

    def sizes(self, dim_size: int) -> list[int]:
        n = len(self.results)
        if dim_size >= 0 and dim_size % n:
            raise VerifyException(f"split_dim size {dim_size} is not divisible by num_split {n}")
        return [dim_size // n if dim_size >= 0 else -1] * n

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        if not s:
            raise VerifyException(f"{ge_type(self)} cannot split a scalar")
        axis = normalize_axis(self.int_attr("split_dim", 0) or 0, len(s), "split_dim")
        return [s[:axis] + (p,) + s[axis + 1 :] for p in self.sizes(s[axis])]


@irdl_op_definition
class SplitD(SplitBase):
    """Splits input 0 into `num_split` equal parts along `split_dim`."""

    name = "ge.SplitD"


@irdl_op_definition
class SplitVD(SplitBase):
    """Splits input 0 along `split_dim` into parts of `size_splits` (one entry may be -1)."""

    name = "ge.SplitVD"
    ATTRS: ClassVar = {
        "size_splits": (A.AttrKind.LIST_INT, True),
        "split_dim": (A.AttrKind.INT, True),
        "num_split": (A.AttrKind.INT, True),
    }

    def sizes(self, dim_size: int) -> list[int]:
        sizes = self.int_list("size_splits") or []
        if len(sizes) != len(self.results):
            raise VerifyException(f"size_splits has {len(sizes)} entries for {len(self.results)} outputs")
        if sum(1 for s in sizes if s == -1) > 1 or any(s < -1 for s in sizes):
            raise VerifyException(f"size_splits {sizes}: sizes must be >= 0, with at most one -1")
        if dim_size < 0:
            return [s if s >= 0 else -1 for s in sizes]
        rest = dim_size - sum(s for s in sizes if s >= 0)
        if (-1 in sizes and rest < 0) or (-1 not in sizes and rest != 0):
            raise VerifyException(f"size_splits {sizes} do not add up to split_dim size {dim_size}")
        return [rest if s == -1 else s for s in sizes]


def phony_block_shape(piece: Dims, dims: Sequence[int], ns: Sequence[int]) -> Dims:
    """The whole block of a PhonyConcat/PhonySplit: the piece grown by N[i] along dims[i]."""
    shape = list(piece)
    for d, n in zip(dims, ns):
        shape[d] *= n
    return tuple(shape)


def check_phony_dim_attrs(
    dims: list[int], ns: list[int], count: int, rank: int, names: tuple[str, str], what: str
) -> list[int]:
    """GE's CheckDimAttrValid plus CheckDimAttrMatchTensor; returns the normalised dims.

    # ge_local_ops_kernel_calc_op_param.cc: CheckDimAttrValid / CheckDimAttrMatchTensor
    """
    dn, nn = names
    if not dims or len(dims) != len(ns):
        raise VerifyException(f"'{dn}' ({dims}) and '{nn}' ({ns}) must be non-empty lists of equal length")
    if any(n <= 0 for n in ns):
        raise VerifyException(f"every entry of '{nn}' must be > 0, got {ns}")
    if math.prod(ns) != count:
        raise VerifyException(f"product of '{nn}' {ns} is {math.prod(ns)}, but the node has {count} {what}")
    out = []
    for d in dims:
        out.append(normalize_axis(d, rank, f"'{dn}' entry"))
    if len(set(out)) != len(out):
        raise VerifyException(f"'{dn}' {dims} names an axis twice")
    return out


@irdl_op_definition
class PhonyConcat(GeNode):
    """GE-local zero-copy concat: inputs of one shape laid out by `concat_dim`/`N` lists.

    Input k's slice ids: the first listed axis varies fastest (CalcPhonyConcatNodeOffset).
    """

    traits = traits_def(Pure())

    name = "ge.PhonyConcat"
    NUM_INPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {
        "concat_dim": (A.AttrKind.LIST_INT, True),
        "N": (A.AttrKind.LIST_INT, True),
        "keep_input_offset": (A.AttrKind.BOOL, False),
    }

    def check(self) -> None:
        self.same_dtype([*self.operands, self.results[0]], "inputs and output")

    def infer(self) -> list[Dims | None] | None:
        s0 = self.in_shape(0)
        if s0 is None:
            return None
        for i in range(len(self.operands)):
            if not dims_agree(self.in_shape(i), s0):
                raise VerifyException(
                    f"input {i} has shape {fmt_shape(self.in_shape(i))}; PhonyConcat needs all inputs equal to input 0 ({fmt_shape(s0)})"
                )
        s0 = merge_shapes(*(self.in_shape(i) for i in range(len(self.operands)))) or s0
        dims = check_phony_dim_attrs(
            self.int_list("concat_dim") or [],
            self.int_list("N") or [],
            len(self.operands),
            len(s0),
            ("concat_dim", "N"),
            "inputs",
        )
        return [phony_block_shape(s0, dims, self.int_list("N") or [])]


@irdl_op_definition
class PhonySplit(GeNode):
    """GE-local zero-copy split into outputs of one shape by `split_dim`/`num_split` lists.

    Output k's slice ids: the last listed axis varies fastest (CalcPhonySplitNodeOffset).
    """

    traits = traits_def(Pure())

    name = "ge.PhonySplit"
    NUM_INPUTS: ClassVar = (1, 1)
    NUM_OUTPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {
        "split_dim": (A.AttrKind.LIST_INT, True),
        "num_split": (A.AttrKind.LIST_INT, True),
        "keep_output_offset": (A.AttrKind.BOOL, False),
    }

    def check(self) -> None:
        self.same_dtype([self.operands[0], *self.results], "input and outputs")
        s0 = self.out_shape(0)
        for i in range(len(self.results)):
            if not dims_agree(self.out_shape(i), s0):
                raise VerifyException(
                    f"output {i} has shape {fmt_shape(self.out_shape(i))}; PhonySplit needs all outputs equal to output 0 ({fmt_shape(s0)})"
                )
        if s0 is None:
            return
        dims = check_phony_dim_attrs(
            self.int_list("split_dim") or [],
            self.int_list("num_split") or [],
            len(self.results),
            len(s0),
            ("split_dim", "num_split"),
            "outputs",
        )
        want = phony_block_shape(s0, dims, self.int_list("num_split") or [])
        got = self.in_shape(0)
        if not dims_agree(got, want):
            raise VerifyException(
                f"input has shape {fmt_shape(got)}, but {len(self.results)} outputs of {fmt_shape(s0)} split by split_dim {dims} make {fmt_shape(want)}"
            )


# ---------------------------------------------------------------------------------------
# The reshape family, transpose, broadcast
# ---------------------------------------------------------------------------------------


class ReshapeLike(GeNode):
    """Views that keep the element count (GE marks most of them output-reuses-input 0)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "input and output")
        a, b = self.in_shape(0), self.out_shape(0)
        if _known(a) and _known(b) and math.prod(a) != math.prod(b):  # type: ignore[arg-type]
            raise VerifyException(
                f"{ge_type(self)} changes the element count: {fmt_shape(a)} has {math.prod(a)}, "  # type: ignore[arg-type]
                f"{fmt_shape(b)} has {math.prod(b)}"  # type: ignore[arg-type]
            )


@irdl_op_definition
class Reshape(ReshapeLike):
    """Reshape to the output shape; GE's second input (the shape tensor) is optional here."""

    name = "ge.Reshape"
    NUM_INPUTS: ClassVar = (1, 2)

    def infer(self) -> list[Dims | None] | None:
        # A constant shape input is the output shape, TensorFlow's Reshape (REG_OP(Reshape),
        # array_ops.h: "Compatible with the TensorFlow operator Reshape"): one -1 is the
        # element count over the other dims, unknown when x's count is; a computed shape
        # (no ge.Const) infers nothing here, its values are the run's.
        if len(self.operands) < 2:
            return None
        dims = const_ints(self.operands[1])
        if dims is None:
            return None
        if sum(1 for d in dims if d == -1) > 1 or any(d < -1 for d in dims):
            raise VerifyException(f"shape {dims} may hold one -1 and no other negative entry")
        x = self.in_shape(0)
        if -1 in dims and _known(x):
            rest = math.prod(d for d in dims if d != -1)
            total = math.prod(x)  # type: ignore[arg-type]
            if rest == 0 or total % rest:
                raise VerifyException(f"cannot reshape {fmt_shape(x)} ({total} elements) to {dims}")
            dims = [total // rest if d == -1 else d for d in dims]
        return [tuple(dims)]


@irdl_op_definition
class Flatten(ReshapeLike):
    """Flattens to 2-D at `axis` (default 1)."""

    name = "ge.Flatten"


@irdl_op_definition
class FlattenV2(ReshapeLike):
    """Flattens axes `axis`..`end_axis`."""

    name = "ge.FlattenV2"


@irdl_op_definition
class ReFormat(ReshapeLike):
    """Changes the format tag only."""

    name = "ge.ReFormat"


@irdl_op_definition
class SqueezeV2(ReshapeLike):
    """Squeeze, V2."""

    name = "ge.SqueezeV2"


@irdl_op_definition
class SqueezeV3(ReshapeLike):
    """Squeeze, V3: the axes, when given, are input 1 (array_ops.h: REG_OP(SqueezeV3),
    an optional int32/int64 axes; the output is x's data in the output's shape)."""

    name = "ge.SqueezeV3"
    NUM_INPUTS: ClassVar = (1, 2)

    def infer(self) -> list[Dims | None] | None:
        # squeezev3_kernel.cc / SqueezeV3's infer: the axes input's values, when a Const
        # (the importer's folded form keeps the axes in its `axes` attribute)
        axes = const_ints(self.operands[1]) if len(self.operands) == 2 else self.int_list("axes")
        s = self.in_shape(0)
        return None if axes is None or s is None else [squeeze_shape(s, axes)]


@irdl_op_definition
class UnsqueezeV2(ReshapeLike):
    """Unsqueeze, V2."""

    name = "ge.UnsqueezeV2"


@irdl_op_definition
class UnsqueezeV3(ReshapeLike):
    """Unsqueeze, V3: the axes are input 1 when given (array_ops.h: REG_OP(UnsqueezeV3));
    the output is x's data in the output's shape."""

    name = "ge.UnsqueezeV3"
    NUM_INPUTS: ClassVar = (1, 2)

    def infer(self) -> list[Dims | None] | None:
        # unsqueezev3_kernel.cc / UnsqueezeV3's infer: the axes input's values, when a Const
        # (the importer's folded form keeps the axes in its `axes` attribute)
        axes = const_ints(self.operands[1]) if len(self.operands) == 2 else self.int_list("axes")
        s = self.in_shape(0)
        return None if axes is None or s is None else [unsqueeze_shape(s, axes)]


def squeeze_shape(s: Dims, axes: Sequence[int]) -> Dims | None:
    """`s` without the size-1 `axes` (all size-1 axes when empty; None: unknown rank)."""
    if not axes:
        return None if any(d < 0 for d in s) else tuple(d for d in s if d != 1)
    norm = {normalize_axis(a, len(s), "axes entry") for a in axes}
    for a in norm:
        if s[a] not in (1, -1):
            raise VerifyException(f"cannot squeeze axis {a} of size {s[a]}")
    return tuple(d for i, d in enumerate(s) if i not in norm)


def unsqueeze_shape(s: Dims, axes: Sequence[int]) -> Dims:
    """`s` with size-1 axes inserted at `axes` (positions in the output)."""
    rank = len(s) + len(axes)
    norm = {normalize_axis(a, rank, "axes entry") for a in axes}
    if len(norm) != len(axes):
        raise VerifyException(f"axes {list(axes)} name an axis twice")
    it = iter(s)
    return tuple(1 if i in norm else next(it) for i in range(rank))


@irdl_op_definition
class Squeeze(ReshapeLike):
    """Removes size-1 `axis` entries (all size-1 axes when `axis` is absent or empty)."""

    name = "ge.Squeeze"
    ATTRS: ClassVar = {"axis": (A.AttrKind.LIST_INT, False)}

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        axes = self.int_list("axis") or []
        if not axes:
            # which dims go depends on which are 1: an unknown dim leaves the rank unknown
            return [None] if any(d < 0 for d in s) else [tuple(d for d in s if d != 1)]
        norm = {normalize_axis(a, len(s), "axis") for a in axes}
        for a in norm:
            if s[a] not in (1, -1):
                raise VerifyException(f"cannot squeeze axis {a} of size {s[a]}")
        return [tuple(d for i, d in enumerate(s) if i not in norm)]


@irdl_op_definition
class Unsqueeze(ReshapeLike):
    """Inserts size-1 axes at `axes` (positions in the output)."""

    name = "ge.Unsqueeze"
    ATTRS: ClassVar = {"axes": (A.AttrKind.LIST_INT, True)}

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        axes = self.int_list("axes") or []
        rank = len(s) + len(axes)
        norm = {normalize_axis(a, rank, "axes entry") for a in axes}
        if len(norm) != len(axes):
            raise VerifyException(f"axes {axes} name an axis twice")
        it = iter(s)
        return [tuple(1 if i in norm else next(it) for i in range(rank))]


@irdl_op_definition
class ExpandDims(ReshapeLike):
    """Inserts one size-1 axis at `axis` (normalised by rank + 1)."""

    name = "ge.ExpandDims"
    ATTRS: ClassVar = {"axis": (A.AttrKind.INT, True)}

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        a = normalize_axis(self.int_attr("axis", 0) or 0, len(s) + 1, "axis")
        return [s[:a] + (1,) + s[a:]]


@irdl_op_definition
class Bitcast(GeNode):
    """Reinterprets the bytes as the output dtype; the byte size is kept."""

    traits = traits_def(Pure())

    name = "ge.Bitcast"
    NUM_INPUTS: ClassVar = (1, 1)
    SAME_DTYPE_OUT: ClassVar = False

    def check(self) -> None:
        a, b = self.operands[0].type, self.results[0].type
        da, db = tensor_desc(a), tensor_desc(b)
        if da.size_in_bytes is not None and db.size_in_bytes is not None and da.size_in_bytes != db.size_in_bytes:
            raise VerifyException(
                f"Bitcast changes the byte size: {a} is {da.size_in_bytes} bytes, {b} is {db.size_in_bytes}"
            )


@irdl_op_definition
class TransposeD(GeNode):
    """Permutes axes: output dim i = input dim perm[i]."""

    traits = traits_def(Pure())

    name = "ge.TransposeD"
    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"perm": (A.AttrKind.LIST_INT, True)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "input and output")

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        perm = self.int_list("perm") or []
        if sorted(perm) != list(range(len(s))):
            raise VerifyException(f"perm {perm} is not a permutation of 0..{len(s) - 1}")
        return [tuple(s[p] for p in perm)]


@irdl_op_definition
class BroadcastToD(GeNode):
    """Broadcasts input 0 to `shape` with numpy's rules."""

    traits = traits_def(Pure())

    name = "ge.BroadcastToD"
    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"shape": (A.AttrKind.LIST_INT, True)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "input and output")

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        target = tuple(self.int_list("shape") or [])
        if s is None:
            return [target]
        if len(s) > len(target) or any(d >= 0 and d != 1 and d != t for d, t in zip(s[::-1], target[::-1])):
            raise VerifyException(f"input shape {fmt_shape(s)} cannot broadcast to {fmt_shape(target)}")
        return [target]


@irdl_op_definition
class Shape(GeNode):
    """The input's shape as a 1-D int32/int64 tensor (GE folds it away)."""

    traits = traits_def(Pure())

    name = "ge.Shape"
    NUM_INPUTS: ClassVar = (1, 1)
    SAME_DTYPE_OUT: ClassVar = False

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        return [(-1,) if s is None else (len(s),)]  # 1-D whatever the rank


# ---------------------------------------------------------------------------------------
# Gather (GE's op proto selection_ops.h: Gather, GatherV2)
# ---------------------------------------------------------------------------------------

INDEX_DTYPES: frozenset[str] = frozenset({"DT_INT32", "DT_INT64"})


def const_ints(v: SSAValue) -> list[int] | None:
    """The integer values of a ge.Const/ge.Constant producing `v`, flat; None when `v`
    is not a constant (GE's OpDescUtils GetInputConstData)."""
    owner = v.owner
    if not isinstance(owner, Const | Constant):
        return None
    val = owner.attributes.get("value")
    if not isinstance(val, DenseIntOrFPElementsAttr):
        return None
    if val.get_element_type() == IntegerType(1):
        return [int(x) for x in val.get_values()]  # i1 true is the signless -1
    return [int(x) for x in weight_array(val).reshape(-1).tolist()]  # no Python number per byte


class GatherBase(GeNode):
    """Gathers slices of `x` along `axis` at `indices`: output shape
    x.shape[:axis] + indices.shape[batch_dims:] + x.shape[axis+1:]. `batch_dims` leading
    dims are shared by x and indices (GE's attribute, default 0). An index outside
    [0, x.shape[axis]) is an error (GE's default impl mode raises an AI-core error); with
    `negative_index_support = true`, [-x.shape[axis], -1] counts from the end."""

    traits = traits_def(Pure())

    ATTRS: ClassVar = {
        "batch_dims": (A.AttrKind.INT, False),
        "negative_index_support": (A.AttrKind.BOOL, False),
    }

    def gather_axis(self) -> int | None:
        """The gather axis as written (GatherV2: its constant axis input), or None."""
        return 0

    def normalized_axis(self) -> int | None:
        s = self.in_shape(0)
        a = self.gather_axis()
        if s is None or a is None:
            return None
        return normalize_axis(a, len(s), "axis")

    def batch_dims(self) -> int:
        return self.int_attr("batch_dims", 0) or 0

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        it = value_type(self.operands[1])
        if ge_dtype_name(it.element_type) not in INDEX_DTYPES:
            raise VerifyException(f"indices must be int32 or int64, got {it.element_type}")

    def infer(self) -> list[Dims | None] | None:
        x, idx = self.in_shape(0), self.in_shape(1)
        if x is None or idx is None:
            return None
        if not x:
            raise VerifyException("x must have rank >= 1 to gather from")
        axis = self.normalized_axis()
        if axis is None:
            return None
        b = self.batch_dims()
        if b < 0:
            b += len(idx)
        if not 0 <= b <= min(axis, len(idx)):
            raise VerifyException(
                f"batch_dims {self.batch_dims()} is out of range: 0 <= batch_dims <= min(axis {axis}, indices rank {len(idx)})"
            )
        if not dims_agree(x[:b], idx[:b]):
            raise VerifyException(
                f"the first {b} dims of x {fmt_shape(x)} and indices {fmt_shape(idx)} must agree (batch_dims)"
            )
        # the batch dims are x's and indices' both: known where either knows them
        lead = merge_shapes(x[:b], idx[:b]) or ()
        return [lead + tuple(x[b:axis]) + tuple(idx[b:]) + tuple(x[axis + 1 :])]


@irdl_op_definition
class Gather(GatherBase):
    """`ge.Gather(%x, %indices)`: GatherV2 on axis 0 (GE's `Gather`, TensorFlow's Gather)."""

    name = "ge.Gather"
    NUM_INPUTS: ClassVar = (2, 2)


@irdl_op_definition
class GatherV2(GatherBase):
    """`ge.GatherV2(%x, %indices, %axis)`: `axis` is a 0-d or 1-element int32/int64
    tensor, a ge.Const in every graph GE lowers (TensorFlow's GatherV2)."""

    name = "ge.GatherV2"
    NUM_INPUTS: ClassVar = (3, 3)

    def gather_axis(self) -> int | None:
        vals = const_ints(self.operands[2])
        return vals[0] if vals else None

    def check(self) -> None:
        super().check()
        at = value_type(self.operands[2])
        if ge_dtype_name(at.element_type) not in INDEX_DTYPES:
            raise VerifyException(f"axis must be int32 or int64, got {at.element_type}")
        s = shape_of(at)
        if s is not None and all(d >= 0 for d in s) and math.prod(s) != 1:
            raise VerifyException(f"axis must hold one value, got a tensor of shape {fmt_shape(s)}")


# ---------------------------------------------------------------------------------------
# Ops autofuse does not lower
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class MatMul(GeNode):
    """x1 @ x2 (+ bias) on 2-D inputs; `transpose_x1`/`transpose_x2` transpose first."""

    traits = traits_def(Pure())

    name = "ge.MatMul"
    NUM_INPUTS: ClassVar = (2, 3)
    ATTRS: ClassVar = {"transpose_x1": (A.AttrKind.BOOL, False), "transpose_x2": (A.AttrKind.BOOL, False)}

    def check(self) -> None:
        self.same_dtype([*self.operands, self.results[0]], "inputs and output")

    def infer(self) -> list[Dims | None] | None:
        a, b = self.in_shape(0), self.in_shape(1)
        if a is None or b is None:
            return None
        if len(a) != 2 or len(b) != 2:
            raise VerifyException(f"MatMul takes 2-D inputs, got {fmt_shape(a)} and {fmt_shape(b)}")
        if A.get_bool(self, "transpose_x1"):
            a = a[::-1]
        if A.get_bool(self, "transpose_x2"):
            b = b[::-1]
        if a[1] >= 0 and b[0] >= 0 and a[1] != b[0]:
            raise VerifyException(f"MatMul inner dims differ: {fmt_shape(a)} @ {fmt_shape(b)}")
        n = b[1]
        if len(self.operands) == 3:
            bias = self.in_shape(2)
            if bias is not None and not (dims_agree(bias, (n,)) or dims_agree(bias, (1, n))):
                raise VerifyException(f"bias has shape {fmt_shape(bias)}, expected {fmt_shape((n,))}")
            if n < 0 and bias:
                n = bias[-1]  # the bias is [N]: it knows N when x2 does not
        return [(a[0], n)]


def quad_attr(op: Operation, name: str, default: list[int]) -> list[int]:
    """A 4-entry list attribute of a convolution (`strides`, `pads`, `dilations`), `default`
    when absent."""
    v = A.get_int_list(op, name)
    if v is None:
        return default
    if len(v) != 4:
        raise VerifyException(f"'{name}' must have 4 entries, got {v}")
    return v


# -- what Conv2D, Conv2DTranspose and the pooling ops check alike -------------------------


def check_nchw(op: GeNode, default: str) -> None:
    """`data_format` (default `default`, GE's REG_OP default) must be NCHW, the layout the
    shape rules, the interpreters and the kernels know."""
    fmt = A.get_str(op, "data_format", default)
    if fmt != "NCHW":
        raise VerifyException(f"{ge_type(op)} supports data_format NCHW, got {fmt}")


def conv_window(op: GeNode, x: Dims, w: Dims, *more_pads: str) -> tuple[list[int], list[int], list[int], list[list[int]], int]:  # fmt: skip
    """A convolution's 4-D x and filter, and its window attributes: `strides`, `pads`,
    `dilations` and the 4-lists `more_pads` (Conv2DTranspose's output_padding), then
    `groups`; strides and dilations > 0, the pads >= 0, groups > 0."""
    if len(x) != 4 or len(w) != 4:
        raise VerifyException(f"{ge_type(op)} takes 4-D x and filter, got {fmt_shape(x)} and {fmt_shape(w)}")
    s = quad_attr(op, "strides", [1, 1, 1, 1])
    p = quad_attr(op, "pads", [0, 0, 0, 0])
    d = quad_attr(op, "dilations", [1, 1, 1, 1])
    more = [quad_attr(op, n, [0, 0, 0, 0]) for n in more_pads]
    g = op.int_attr("groups", 1)
    assert g is not None  # groups = 0 must be rejected below, not read as 1
    if min(s) <= 0 or min(d) <= 0 or min(p) < 0 or any(min(q) < 0 for q in more) or g <= 0:
        pads = " and ".join(("pads", *more_pads))
        raise VerifyException(f"strides and dilations must be > 0, {pads} >= 0, groups > 0")
    return s, p, d, more, g


def conv_bias_channels(op: GeNode, index: int, k: int) -> int:
    """The output channels `k`, checked against the optional bias [K] at operand `index`
    (which knows K when the filter does not)."""
    if len(op.operands) <= index:
        return k
    bias = op.in_shape(index)
    if not dims_agree(bias, (k,)):
        raise VerifyException(f"bias has shape {fmt_shape(bias)}, expected {fmt_shape((k,))}")
    return (merge_shapes((k,), bias) or (k,))[0]


def conv_output_hw(op: GeNode, x: Dims, w: Dims, size: Callable[[int], int]) -> tuple[int, int]:
    """The output H and W: `size(i)` for the spatial axis i (2, 3) where x's and the
    filter's dims are known (an unknown one leaves it unknown); an empty output is an error."""
    known = [x[i] >= 0 and w[i] >= 0 for i in (2, 3)]
    oh, ow = (size(i) if k else -1 for i, k in zip((2, 3), known))
    if (known[0] and oh <= 0) or (known[1] and ow <= 0):
        raise VerifyException(f"{ge_type(op)} output would be empty ({oh}x{ow})")
    return oh, ow


@irdl_op_definition
class Conv2D(GeNode):
    """NCHW convolution: x [N,C,H,W], filter [K,C/groups,kh,kw] (NCHW), optional bias [K].

    `strides` and `dilations` are NCHW 4-lists, `pads` is [top, bottom, left, right].
    """

    traits = traits_def(Pure())

    name = "ge.Conv2D"
    NUM_INPUTS: ClassVar = (2, 3)
    ATTRS: ClassVar = {
        "strides": (A.AttrKind.LIST_INT, False),
        "pads": (A.AttrKind.LIST_INT, False),
        "dilations": (A.AttrKind.LIST_INT, False),
        "groups": (A.AttrKind.INT, False),
        "data_format": (A.AttrKind.STR, False),
    }

    def check(self) -> None:
        check_nchw(self, "NCHW")
        self.same_dtype([self.operands[0], self.operands[1]], "x and filter")

    def infer(self) -> list[Dims | None] | None:
        x, w = self.in_shape(0), self.in_shape(1)
        if x is None or w is None:
            return [None]
        s, p, d, _, g = conv_window(self, x, w)
        # an unknown dim is checked where it is known, and leaves unknown what it determines
        if (x[1] >= 0 and x[1] % g) or (w[0] >= 0 and w[0] % g) or (x[1] >= 0 and w[1] >= 0 and w[1] * g != x[1]):
            raise VerifyException(f"filter {fmt_shape(w)} does not match input channels {x[1]} with groups {g}")
        k = conv_bias_channels(self, 2, w[0])
        # pads [top, bottom, left, right]: axis i's are p[2 * (i - 2)] and the one after
        oh, ow = conv_output_hw(
            self, x, w, lambda i: (x[i] + p[2 * i - 4] + p[2 * i - 3] - d[i] * (w[i] - 1) - 1) // s[i] + 1
        )
        return [(x[0], k, oh, ow)]


@irdl_op_definition
class HcomAllGather(GeNode):
    """Collective all-gather over `rank_size` ranks, concatenated on axis 0."""

    name = "ge.HcomAllGather"
    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"rank_size": (A.AttrKind.INT, True), "group": (A.AttrKind.STR, False)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "input and output")
        r = self.int_attr("rank_size")
        if r is not None and r <= 0:
            raise VerifyException(f"rank_size must be > 0, got {r}")

    def infer(self) -> list[Dims | None] | None:
        s, r = self.in_shape(0), self.int_attr("rank_size") or 1
        if s is None:
            return None
        if not s:
            raise VerifyException("HcomAllGather cannot gather a scalar")
        return [(s[0] * r if s[0] >= 0 else -1,) + s[1:]]


# ---------------------------------------------------------------------------------------
# Subgraph calls and fused kernels
# ---------------------------------------------------------------------------------------


def _check_body_against(datas: Sequence[DataLike], net_output: NetOutput, op: GeNode, what: str) -> None:
    if len(datas) != len(op.operands):
        raise VerifyException(f"{what} has {len(datas)} Data nodes for {len(op.operands)} inputs")
    for d, v in zip(datas, op.operands):
        if d.results[0].type != v.type:
            raise VerifyException(
                f"{what}: Data {d.int_attr('index')} has type {d.results[0].type}, but input is {v.type}"
            )
    if len(net_output.operands) != len(op.results):
        raise VerifyException(f"{what} returns {len(net_output.operands)} values for {len(op.results)} outputs")
    for i, (a, r) in enumerate(zip(net_output.operands, op.results)):
        if a.type != r.type:
            raise VerifyException(f"{what}: output {i} has type {r.type}, but the body returns {a.type}")


@irdl_op_definition
class PartitionedCall(GeNode):
    """Calls subgraph `f` (a ge.graph symbol): inputs map to its Data nodes by index."""

    name = "ge.PartitionedCall"
    VERIFY_READS_GRAPH: ClassVar = True
    NUM_OUTPUTS: ClassVar = (0, None)

    def check(self) -> None:
        f = self.attributes.get("f")
        if not isinstance(f, SymbolRefAttr):
            raise VerifyException("PartitionedCall requires attribute 'f' = @subgraph")
        callee = SymbolTable.lookup_symbol(self, f)
        if isinstance(callee, GraphOp):
            _check_body_against(callee.data_nodes, callee.net_output, self, f"subgraph {f}")
            return
        from ge_dialect.npu import ModelOp, RegionOp

        # after ge-compile of a dynamic-shape module, a known-shape subgraph is a known-node
        # model (davinci_model.h: known_node_) of the same name: its input:i / output:i
        # regions are the call's operands / results
        if isinstance(callee, ModelOp) and A.get_bool(callee, "known_node"):
            io: dict[str, Attribute | None] = {
                r.region.data: r.attributes.get("type")
                for r in callee.body.block.ops
                if isinstance(r, RegionOp) and r.region.data.startswith(("input:", "output:"))
            }
            for what, values in (("input", self.operands), ("output", self.results)):
                n = sum(1 for k in io if k.startswith(what + ":"))
                if n != len(values):
                    raise VerifyException(f"known-node model {f} has {n} {what} regions for {len(values)} {what}s")
                for i, v in enumerate(values):
                    t = io.get(f"{what}:{i}")
                    if t != v.type:
                        raise VerifyException(
                            f"known-node model {f}: region {what}:{i} has type {t}, but {what} {i} is {v.type}"
                        )
            return
        raise VerifyException(f"subgraph {f} is not a ge.graph (or a known-node npu.model) in this module")

    def callee(self) -> GraphOp:
        f = self.attributes["f"]
        assert isinstance(f, SymbolRefAttr)
        g = SymbolTable.lookup_symbol(self, f)
        assert isinstance(g, GraphOp)
        return g


@irdl_op_definition
class AscBackend(GeNode):
    """A fused loop-nest kernel: its region holds one AscGraph (ascgraph dialect).

    Operands map in order to the AscGraph's Data nodes and results to its Output nodes.
    """

    name = "ge.AscBackend"
    VERIFY_READS_GRAPH: ClassVar = True
    NUM_INPUTS: ClassVar = (0, None)
    NUM_OUTPUTS: ClassVar = (1, None)
    HAS_REGION: ClassVar = True
    # GE AutoFuseAttrs (autofuse_attrs.h): primary FuseType (FuseTypeToString), the
    # `1 << FuseType` bitmask of what is fused in, and the AscIR node count for the size cap.
    ATTRS: ClassVar = {
        FUSE_TYPE_ATTR: (A.AttrKind.STR, False),
        FUSE_TYPE_MASK_ATTR: (A.AttrKind.INT, False),
        "fusion_nodes_size": (A.AttrKind.INT, False),
    }
    body = region_def()
    # GE AutoFuseAttrs origin nodes of an AscBackend made by lowering
    # (is_fuse_from_lowering): a ge graph body (Data by input index, the original GE ops,
    # NetOutput) that lifting (liftings.cpp) puts back; printed as `origin { ... }`.
    origin = opt_region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> AscBackend:
        op = super().parse(parser)
        if parser.parse_optional_keyword("origin") is not None:
            op.add_region(parser.parse_region())
        return op  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        super().print(printer)
        if self.origin is not None:
            printer.print_string(" origin ")
            printer.print_region(self.origin, print_entry_block_args=False)

    def check(self) -> None:
        verify_asc_backend(self)
        if self.origin is not None:
            ops = list(self.origin.block.ops)
            datas = _verify_graph_body(ops, "AscBackend origin")
            net_output = ops[-1]
            assert isinstance(net_output, NetOutput)  # _verify_graph_body checked it ends so
            _check_body_against(datas, net_output, self, "AscBackend origin")


@irdl_op_definition
class FusedAscBackend(GeNode):
    """AscBackends whose loops could not merge: its region is a ge graph body of
    AscBackends with Data nodes (parent input index) and a NetOutput."""

    name = "ge.FusedAscBackend"
    VERIFY_READS_GRAPH: ClassVar = True
    NUM_INPUTS: ClassVar = (0, None)
    NUM_OUTPUTS: ClassVar = (1, None)
    HAS_REGION: ClassVar = True
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator(), Pure())

    ATTRS: ClassVar = {
        FUSE_TYPE_ATTR: (A.AttrKind.STR, False),
        FUSE_TYPE_MASK_ATTR: (A.AttrKind.INT, False),
    }

    def check(self) -> None:
        verify_fuse_attrs(self, "FusedAscBackend")
        ops = list(self.body.block.ops)
        datas = _verify_graph_body(ops, "FusedAscBackend body")
        assert isinstance(ops[-1], NetOutput)
        _check_body_against(datas, ops[-1], self, "FusedAscBackend body")
        # docs/ge/autofuse.md (MergeGraphToFusedAscBackendNode): Data, >= 1 AscBackend, NetOutput.
        inner = [op for op in ops if not isinstance(op, Data | RefData | NetOutput)]
        for op in inner:
            if not isinstance(op, AscBackend):
                raise VerifyException(
                    f"FusedAscBackend body holds AscBackend nodes only, got {op.name} '{node_name(op)}'"
                )
        if not inner:
            raise VerifyException("FusedAscBackend body holds no AscBackend")


# ---------------------------------------------------------------------------------------
# Control flow: If, Case, While, For (GE's functional control-flow nodes)
#
# GE keeps control flow as functional nodes that call subgraphs (ops/built-in/op_proto/
# inc/functional_ops.h: REG_OP(If), REG_OP(Case), REG_OP(While), REG_OP(For), with their
# stateless variants StatelessIf / StatelessCase / StatelessWhile, the same signatures).
# Each subgraph is a module-level ge.graph named by symbol, as PartitionedCall's `f`. A
# subgraph's Data carries `_parent_node_index` (ATTR_NAME_PARENT_NODE_INDEX): the parent
# node's input it stands for; a branch's or body's NetOutput may carry `_parent_node_index`
# as a list, one parent output index per input (GE keeps it on each input desc). The
# parent's inputs that no subgraph receives lead: If's cond and Case's branch_index
# (input 0), For's start/limit/delta (inputs 0..2; the body's Data 0 is the loop variable,
# parent index 0 as ForPass::UpdateForBodyInputMapping keeps it).
# ---------------------------------------------------------------------------------------

# ge_attr_define.cc: ATTR_NAME_PARENT_NODE_INDEX
PARENT_NODE_INDEX = "_parent_node_index"
# ge_attr_define.cc: the subgraph names of the functional ops (ATTR_NAME_THEN_BRANCH, ...)
THEN_BRANCH, ELSE_BRANCH, BRANCHES, COND, BODY = "then_branch", "else_branch", "branches", "cond", "body"


def _types_agree(a: Attribute, b: Attribute) -> bool:
    """One dtype, and shapes that can both hold (dims_agree: `?` agrees with any extent)."""
    return a.element_type == b.element_type and dims_agree(shape_of(a), shape_of(b))  # type: ignore[attr-defined]


def _sym(a: Attribute | None) -> str | None:
    return a.root_reference.data if isinstance(a, SymbolRefAttr) else None


class ControlOp(GeNode):
    """Base of the functional control-flow nodes: subgraphs by symbol (`subgraph_refs`),
    their signatures checked against the node's inputs and outputs (`check`)."""

    NUM_OUTPUTS: ClassVar = (0, None)
    VERIFY_READS_GRAPH: ClassVar = True
    # inputs before the ones the subgraphs receive (If/Case: 1, For: 3, While: 0)
    LEAD_INPUTS: ClassVar[int] = 0

    def subgraph_refs(self) -> list[tuple[str, SymbolRefAttr]]:
        """(GE subgraph name, symbol) of each subgraph, in GE's subgraph order."""
        raise NotImplementedError

    def subgraph_names(self) -> list[str]:
        return [r.root_reference.data for _, r in self.subgraph_refs()]

    def subgraph(self, i: int) -> GraphOp:
        """Subgraph i (in subgraph_refs order) of a verified node."""
        g = SymbolTable.lookup_symbol(self, self.subgraph_refs()[i][1])
        assert isinstance(g, GraphOp)
        return g

    def _refs(self, *names: str) -> list[tuple[str, SymbolRefAttr]]:
        out = []
        for n in names:
            a = self.attributes.get(n)
            if not isinstance(a, SymbolRefAttr):
                raise VerifyException(f"{ge_type(self)} requires attribute '{n}' = @subgraph")
            out.append((n, a))
        return out

    def check(self) -> None:
        graphs = []
        for role, ref in self.subgraph_refs():
            g = SymbolTable.lookup_symbol(self, ref)
            if not isinstance(g, GraphOp):
                raise VerifyException(f"{ge_type(self)}'s {role} {ref} is not a ge.graph in this module")
            graphs.append((role, g))
        self.check_subgraphs(graphs)

    def check_subgraphs(self, graphs: list[tuple[str, GraphOp]]) -> None:
        """The node's own rules on its (resolved) subgraphs."""

    def _signature(
        self,
        role: str,
        graph: GraphOp,
        ins: Sequence[Attribute],
        parents: Sequence[int],
        outs: Sequence[Attribute] | None,
    ) -> None:
        """`graph` takes `ins` (its Data k standing for parent input parents[k]) and, when
        `outs` is given, returns `outs` (NetOutput input i for parent output i).

        GE: a subgraph's Data maps to its parent input by ATTR_NAME_PARENT_NODE_INDEX
        (NodeUtils::GetParentInput); its NetOutput input to the parent output likewise
        (NodeUtils::GetParentOutput / GraphUtils::HandleSubgraphOutput)."""
        what = f"{ge_type(self)}'s {role} @{graph.sym_name.data}"
        datas = graph.data_nodes
        if len(datas) != len(ins):
            raise VerifyException(
                f"{what} has {len(datas)} Data nodes, but the {ge_type(self)} passes it {len(ins)} inputs"
            )
        for k, (d, t, p) in enumerate(zip(datas, ins, parents)):
            if not _types_agree(d.results[0].type, t):
                raise VerifyException(f"{what}: Data {k} has type {d.results[0].type}, but it receives {t}")
            got = d.int_attr(PARENT_NODE_INDEX)
            if got is None:
                raise VerifyException(f"{what}: Data {k} lacks '{PARENT_NODE_INDEX}' (it stands for input {p})")
            if got != p:
                raise VerifyException(f"{what}: Data {k} has {PARENT_NODE_INDEX} = {got}, but it stands for input {p}")
        if outs is None:
            return
        net = graph.net_output
        if len(net.operands) != len(outs):
            raise VerifyException(
                f"{what} returns {len(net.operands)} values, but the {ge_type(self)} has {len(outs)} outputs"
            )
        for i, (v, t) in enumerate(zip(net.operands, outs)):
            if not _types_agree(v.type, t):
                raise VerifyException(
                    f"{what}: output {i} has type {v.type}, but the {ge_type(self)}'s output {i} is {t}"
                )
        idx = net.int_list(PARENT_NODE_INDEX)
        if idx is not None and idx != list(range(len(outs))):
            raise VerifyException(
                f"{what}: NetOutput's {PARENT_NODE_INDEX} is {idx}, expected {list(range(len(outs)))}"
            )

    def _lead_scalar_int32(self, i: int, what: str) -> None:
        t = value_type(self.operands[i])
        if ge_dtype_name(t.element_type) != "DT_INT32":
            raise VerifyException(f"{ge_type(self)}'s {what} (input {i}) must be int32, got {t}")
        s = shape_of(t)
        if s is not None and _known(s) and math.prod(s) != 1:
            raise VerifyException(
                f"{ge_type(self)}'s {what} (input {i}) must hold one element, got shape {fmt_shape(s)}"
            )

    def branch_ins(self) -> tuple[list[Attribute], list[int]]:
        """The types and parent indices of the inputs the subgraphs receive."""
        n = self.LEAD_INPUTS
        return [v.type for v in self.operands[n:]], list(range(n, len(self.operands)))

    def _branches_agree(self, graphs: list[tuple[str, GraphOp]]) -> None:
        """Each branch takes the inputs after the lead ones and returns the op's results."""
        ins, parents = self.branch_ins()
        outs = [r.type for r in self.results]
        for role, g in graphs:
            self._signature(role, g, ins, parents, outs)


class IfBase(ControlOp):
    """`ge.If(%cond, %x...) {then_branch = @t, else_branch = @e}`: then_branch when cond is
    true (a non-zero scalar, or a non-empty tensor), else else_branch; both take the inputs
    after cond and return the node's outputs. (CondPass turns cond into an int32 scalar.)"""

    NUM_INPUTS: ClassVar = (1, None)
    LEAD_INPUTS: ClassVar = 1

    def subgraph_refs(self) -> list[tuple[str, SymbolRefAttr]]:
        return self._refs(THEN_BRANCH, ELSE_BRANCH)

    def check_subgraphs(self, graphs: list[tuple[str, GraphOp]]) -> None:
        self._branches_agree(graphs)


@irdl_op_definition
class If(IfBase):
    name = "ge.If"


@irdl_op_definition
class StatelessIf(IfBase):
    name = "ge.StatelessIf"


class CaseBase(ControlOp):
    """`ge.Case(%branch_index, %x...) {branches = [@b0, @b1, ...]}`: branch `branch_index`
    (int32, one element; out of range takes the last branch: GenIndexForCase)."""

    NUM_INPUTS: ClassVar = (1, None)
    LEAD_INPUTS: ClassVar = 1

    def subgraph_refs(self) -> list[tuple[str, SymbolRefAttr]]:
        a = self.attributes.get(BRANCHES)
        if not isinstance(a, ArrayAttr) or not a.data or not all(isinstance(b, SymbolRefAttr) for b in a.data):
            raise VerifyException(f"{ge_type(self)} requires attribute 'branches' = [@b0, @b1, ...] (at least one)")
        return [(f"branch {k}", cast(SymbolRefAttr, b)) for k, b in enumerate(a.data)]

    def check_subgraphs(self, graphs: list[tuple[str, GraphOp]]) -> None:
        # functional_ops.h: REG_OP(Case) INPUT(branch_index, DT_INT32)
        self._lead_scalar_int32(0, "branch_index")
        self._branches_agree(graphs)


@irdl_op_definition
class Case(CaseBase):
    name = "ge.Case"


@irdl_op_definition
class StatelessCase(CaseBase):
    name = "ge.StatelessCase"


class WhileBase(ControlOp):
    """`ge.While(%x...) {cond = @c, body = @b}`: while cond(x) is true, x = body(x); the
    outputs are the last x. cond returns one value (CondPass makes it an int32 scalar);
    body returns the inputs' types (loop-carried values)."""

    NUM_INPUTS: ClassVar = (0, None)
    ATTRS: ClassVar = {"parallel_iterations": (A.AttrKind.INT, False)}

    def subgraph_refs(self) -> list[tuple[str, SymbolRefAttr]]:
        return self._refs(COND, BODY)

    def check_subgraphs(self, graphs: list[tuple[str, GraphOp]]) -> None:
        ins, parents = self.branch_ins()
        if len(self.results) != len(ins):
            raise VerifyException(
                f"{ge_type(self)} has {len(ins)} inputs but {len(self.results)} outputs (they are the loop-carried values)"
            )
        for i, (t, r) in enumerate(zip(ins, self.results)):
            if not _types_agree(t, r.type):
                raise VerifyException(f"{ge_type(self)}'s output {i} has type {r.type}, but input {i} is {t}")
        (_, cond), (_, body) = graphs
        self._signature(COND, cond, ins, parents, None)
        n = len(cond.net_output.operands)
        if n != 1:
            # cond_pass.cc: GetCondInfoForWhile ("cond_graph has and only has one output")
            raise VerifyException(f"{ge_type(self)}'s cond @{cond.sym_name.data} returns {n} values, expected 1")
        self._signature(BODY, body, ins, parents, ins)


@irdl_op_definition
class While(WhileBase):
    name = "ge.While"


@irdl_op_definition
class StatelessWhile(WhileBase):
    name = "ge.StatelessWhile"


@irdl_op_definition
class For(ControlOp):
    """`ge.For(%start, %limit, %delta, %x...) {body = @b}`: for i = start; i < limit (or >
    for a negative delta); i += delta: x = body(i, x...); int32 scalars start/limit/delta.
    ForPass turns it into a While (passes/control/for_pass.py)."""

    name = "ge.For"
    NUM_INPUTS: ClassVar = (3, None)
    LEAD_INPUTS: ClassVar = 3

    def subgraph_refs(self) -> list[tuple[str, SymbolRefAttr]]:
        return self._refs(BODY)

    def check_subgraphs(self, graphs: list[tuple[str, GraphOp]]) -> None:
        # functional_ops.h: REG_OP(For) INPUT(start/limit/delta, DT_INT32)
        for i, what in enumerate(("start", "limit", "delta")):
            self._lead_scalar_int32(i, what)
        ins, parents = self.branch_ins()
        if len(self.results) != len(ins):
            raise VerifyException(f"For has {len(ins)} loop inputs but {len(self.results)} outputs")
        for i, (t, r) in enumerate(zip(ins, self.results)):
            if not _types_agree(t, r.type):
                raise VerifyException(f"For's output {i} has type {r.type}, but input {i + 3} is {t}")
        # for_pass.cc: UpdateForBodyInputMapping: body Data 0 (the loop variable) keeps
        # parent index 0 (FOR_START_INPUT); the loop inputs are 3.. (FOR_DATA_INPUT)
        i32 = TensorType(IntegerType(32), [])
        self._signature(BODY, graphs[0][1], [i32, *ins], [0, *parents], [r.type for r in self.results])


CONTROL_OPS: tuple[type[ControlOp], ...] = (If, StatelessIf, Case, StatelessCase, While, StatelessWhile, For)


def called_graph_names(op: Operation) -> list[str]:
    """The ge.graph symbols a node calls: PartitionedCall's `f`, a control op's subgraphs
    (unresolved, in GE's subgraph order; [] for any other node or a malformed one)."""
    if isinstance(op, PartitionedCall):
        s = _sym(op.attributes.get("f"))
        return [] if s is None else [s]
    if isinstance(op, ControlOp):
        try:
            return op.subgraph_names()
        except VerifyException:
            return []
    return []


# ---------------------------------------------------------------------------------------
# Structural and compute ops of real models: BatchNorm, pooling, PadV3,
# StridedSliceV2, Tile, BatchMatMulV2, ArgMaxV2, ArgMin, GatherElements, Tril, Triu, the
# two resizes and Conv2DTranspose.
# Each is one library kernel task: GE's autofuse has no lowering of pooling, normalisation,
# pad, arg-reductions, GatherElements, the triangles or resizing, and its slice, matmul and
# conv lowerings are off by default (GE's autofuse feature flags). GE also lists
# Tile among the broadcast views it lowers; lowering/lower_autofuse.py has no Tile view
# yet, so here Tile runs as a kernel too.
# ---------------------------------------------------------------------------------------

FLOAT_DTYPES: frozenset[str] = frozenset({"DT_FLOAT16", "DT_BF16", "DT_FLOAT", "DT_DOUBLE"})
# nn_pooling_ops.h: REG_OP(MaxPoolV3) / REG_OP(MaxPool): x of these types
POOL_MAX_DTYPES: frozenset[str] = FLOAT_DTYPES | {
    "DT_INT8", "DT_UINT8", "DT_INT16", "DT_UINT16", "DT_INT32", "DT_INT64",
}  # fmt: skip


def dtype_of(v: SSAValue) -> str:
    return ge_dtype_name(value_dtype(v))


def _check_dtypes(op: GeNode, v: SSAValue, allowed: frozenset[str], what: str) -> None:
    dt = dtype_of(v)
    if dt not in allowed:
        raise VerifyException(f"{ge_type(op)} {what} must be one of {', '.join(sorted(allowed))}, got {dt}")


def _const_input(op: GeNode, i: int, what: str) -> list[int] | None:
    """The values of constant index input `i` (int32/int64), None when it is not a Const."""
    if ge_dtype_name(value_dtype(op.operands[i])) not in INDEX_DTYPES:
        raise VerifyException(f"{what} must be int32 or int64, got {value_dtype(op.operands[i])}")
    return const_ints(op.operands[i])


@irdl_op_definition
class BatchNorm(GeNode):
    """`ge.BatchNorm(%x, %scale, %offset, %mean, %variance)`: batch normalisation of NCHW
    x over channel axis 1 (nn_norm_ops.h: REG_OP(BatchNorm): x f16/f32/bf16, the other
    inputs float32 [C]; six outputs y, batch_mean, batch_variance, reserve_space_1,
    reserve_space_2, reserve_space_3; epsilon default 1e-4, data_format NHWC, is_training
    true). Inference (is_training = false) needs mean and variance:
    y = scale * (x - mean) / sqrt(variance + epsilon) + offset; batch_mean and
    reserve_space_1 are mean, batch_variance and reserve_space_2 variance, reserve_space_3
    one float (no meaning: 0). Only NCHW (4-D) and NCDHW (5-D) are supported."""

    traits = traits_def(Pure())

    name = "ge.BatchNorm"
    NUM_INPUTS: ClassVar = (3, 5)
    NUM_OUTPUTS: ClassVar = (6, 6)
    ATTRS: ClassVar = {
        "data_format": (A.AttrKind.STR, False),
        "is_training": (A.AttrKind.BOOL, False),
    }

    def epsilon(self) -> float:
        return float_attr(self, "epsilon", 1e-4)

    def check(self) -> None:
        fmt = A.get_str(self, "data_format", "NHWC")
        _check_dtypes(self, self.operands[0], frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_BF16"}), "x")
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        for v in [*self.operands[1:], *self.results[1:]]:
            if dtype_of(v) != "DT_FLOAT":
                raise VerifyException(
                    f"BatchNorm's scale, offset, mean, variance and outputs 1-5 are float32, got {dtype_of(v)}"
                )
        if self.epsilon() <= 0:
            raise VerifyException(f"epsilon must be > 0, got {self.epsilon()}")
        training = A.get_bool(self, "is_training", True)
        if not training and len(self.operands) != 5:
            raise VerifyException("BatchNorm with is_training = false needs mean and variance (5 inputs)")
        s = self.in_shape(0)
        if s is not None:
            want = {4: "NCHW", 5: "NCDHW"}.get(len(s))
            if want is None or fmt != want:
                raise VerifyException(
                    f"BatchNorm supports 4-D NCHW and 5-D NCDHW x, got {fmt_shape(s)} with data_format {fmt}"
                )

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is None:
            return None
        c = s[1]
        for i in range(1, len(self.operands)):
            p = self.in_shape(i)
            if not dims_agree(p, (c,)):
                raise VerifyException(f"input {i} has shape {fmt_shape(p)}, expected [{c}] (the channels of x)")
        # the channel count is known when x or any of the per-channel inputs knows it
        c = (merge_shapes((c,), *(self.in_shape(i) for i in range(1, len(self.operands)))) or (c,))[0]
        return [s[:1] + (c,) + s[2:], (c,), (c,), (c,), (c,), (1,)]


# -- pooling (nn_pooling_ops.h) -----------------------------------------------------------


def pool_window(in_dim: int, k: int, s: int, p0: int, p1: int, mode: str, ceil: bool) -> tuple[int, int, int]:
    """(output size, begin pad, end pad) of one pooled dim. nn_pooling_ops.h (MaxPoolV3,
    AvgPoolV2 output formulas): SAME: ceil(in / s) with TensorFlow's pads (the odd pad at
    the end); VALID: (in - k + s) / s, no pads; CALCULATED: (in + p0 + p1 - k) / s + 1,
    with ceil_mode (in + p0 + p1 - k + s - 1) / s + 1, less one when the last window
    would start at or past in + p0."""
    if mode == "SAME":
        out = -(-in_dim // s)
        total = max(0, (out - 1) * s + k - in_dim)
        return out, total // 2, total - total // 2
    if mode == "VALID":
        return (in_dim - k + s) // s, 0, 0
    span = in_dim + p0 + p1 - k
    if not ceil:
        return span // s + 1, p0, p1
    out = (span + s - 1) // s + 1
    if (out - 1) * s >= in_dim + p0:
        out -= 1
    return out, p0, p1


class PoolBase(GeNode):
    """2-D pooling of NCHW x: `ksize` and `strides` are NCHW 4-lists with 1 on N and C,
    `pads` [top, bottom, left, right] (CALCULATED mode), `padding_mode` (V3/V2) or
    `padding` (MaxPool/AvgPool) SAME / VALID / CALCULATED, `ceil_mode`, `global_pooling`
    (the window is the whole plane)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)
    MODE_ATTR: ClassVar[str] = "padding_mode"
    MODES: ClassVar[tuple[str, ...]] = ("SAME", "VALID", "CALCULATED")
    DTYPES: ClassVar[frozenset[str]] = POOL_MAX_DTYPES
    ATTRS: ClassVar = {
        "ksize": (A.AttrKind.LIST_INT, True),
        "strides": (A.AttrKind.LIST_INT, True),
        "padding_mode": (A.AttrKind.STR, False),
        "pads": (A.AttrKind.LIST_INT, False),
        "data_format": (A.AttrKind.STR, False),
        "global_pooling": (A.AttrKind.BOOL, False),
        "ceil_mode": (A.AttrKind.BOOL, False),
    }

    def mode(self) -> str:
        return A.get_str(self, self.MODE_ATTR, "CALCULATED") or "CALCULATED"

    def check(self) -> None:
        check_nchw(self, "NCHW")
        _check_dtypes(self, self.operands[0], self.DTYPES, "x")
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        if self.mode() not in self.MODES:
            raise VerifyException(f"{self.MODE_ATTR} must be one of {', '.join(self.MODES)}, got {self.mode()}")
        k, s = quad_attr(self, "ksize", [1, 1, 1, 1]), quad_attr(self, "strides", [1, 1, 1, 1])
        p = quad_attr(self, "pads", [0, 0, 0, 0])
        if k[0] != 1 or k[1] != 1 or s[0] != 1 or s[1] != 1:
            raise VerifyException(f"ksize {k} and strides {s} must be 1 on N and C (NCHW)")
        if min(k) <= 0 or min(s) <= 0 or min(p) < 0:
            raise VerifyException(f"ksize and strides must be > 0 and pads >= 0, got {k}, {s}, {p}")

    def windows(self, shape: Dims | None = None) -> tuple[list[tuple[int, int, int]], list[int], list[int]] | None:
        """Per spatial dim (output size, begin pad, end pad), the window and the stride, of
        x's shape (or of `shape`, an array's); None when it is unknown."""
        x = self.in_shape(0) if shape is None else shape
        if not _known(x):
            return None
        assert x is not None
        if len(x) != 4:
            raise VerifyException(f"{ge_type(self)} takes a 4-D NCHW x, got {fmt_shape(x)}")
        k, s = quad_attr(self, "ksize", [1, 1, 1, 1])[2:], quad_attr(self, "strides", [1, 1, 1, 1])[2:]
        p = quad_attr(self, "pads", [0, 0, 0, 0])
        if A.get_bool(self, "global_pooling"):
            return [(1, 0, 0), (1, 0, 0)], list(x[2:]), [1, 1]
        ceil = A.get_bool(self, "ceil_mode")
        dims = [pool_window(x[2 + i], k[i], s[i], p[2 * i], p[2 * i + 1], self.mode(), ceil) for i in range(2)]
        return dims, k, s

    def infer(self) -> list[Dims | None] | None:
        x = self.in_shape(0)
        if x is None:
            return [None]
        if len(x) != 4:
            raise VerifyException(f"{ge_type(self)} takes a 4-D NCHW x, got {fmt_shape(x)}")
        # each spatial dim from its own input dim: an unknown one pools to an unknown one
        # (global pooling to 1 either way); the windows of a known shape as windows() has them
        probe = tuple(d if d >= 0 else 1 for d in x)
        w = self.windows(probe)
        assert w is not None
        glob = A.get_bool(self, "global_pooling")
        known = [x[2 + i] >= 0 or glob for i in range(2)]
        if any(k and w[0][i][0] <= 0 for i, k in enumerate(known)):
            shown = "x".join(str(w[0][i][0]) if k else "?" for i, k in enumerate(known))
            raise VerifyException(
                f"{ge_type(self)} output would be empty ({shown}): the window is larger than the input"
            )
        return [(x[0], x[1], *(w[0][i][0] if k else -1 for i, k in enumerate(known)))]


@irdl_op_definition
class MaxPoolV3(PoolBase):
    """Max pooling (nn_pooling_ops.h: REG_OP(MaxPoolV3): ksize, strides required;
    padding_mode CALCULATED, pads [0, 0, 0, 0], data_format NCHW, global_pooling and
    ceil_mode false by default). Padding never wins the max."""

    name = "ge.MaxPoolV3"


@irdl_op_definition
class AvgPoolV2(PoolBase):
    """Average pooling (nn_pooling_ops.h: REG_OP(AvgPoolV2): the MaxPoolV3 attributes plus
    `exclusive` (default true: padding is not counted) and `divisor_override` (0: none);
    x f16/f32/bf16/double). A window's divisor is its elements inside x (exclusive) or
    inside the padded x (not exclusive)."""

    name = "ge.AvgPoolV2"
    DTYPES: ClassVar = FLOAT_DTYPES
    ATTRS: ClassVar = {
        **PoolBase.ATTRS,
        "exclusive": (A.AttrKind.BOOL, False),
        "divisor_override": (A.AttrKind.INT, False),
    }

    def check(self) -> None:
        super().check()
        d = self.int_attr("divisor_override", 0)
        if d is not None and d < 0:
            raise VerifyException(f"divisor_override must be >= 0, got {d}")


@irdl_op_definition
class MaxPool(PoolBase):
    """Max pooling, TensorFlow's form (nn_pooling_ops.h: REG_OP(MaxPool): ksize, strides,
    padding SAME/VALID required; data_format default NHWC, only NCHW here)."""

    name = "ge.MaxPool"
    MODE_ATTR: ClassVar = "padding"
    MODES: ClassVar = ("SAME", "VALID")
    ATTRS: ClassVar = {
        "ksize": (A.AttrKind.LIST_INT, True),
        "strides": (A.AttrKind.LIST_INT, True),
        "padding": (A.AttrKind.STR, True),
        "data_format": (A.AttrKind.STR, False),
    }


@irdl_op_definition
class AvgPool(PoolBase):
    """Average pooling, TensorFlow's form (nn_pooling_ops.h: REG_OP(AvgPool): ksize,
    strides, padding SAME/VALID required; data_format default NHWC, only NCHW here; SAME's
    padding is not counted)."""

    name = "ge.AvgPool"
    MODE_ATTR: ClassVar = "padding"
    MODES: ClassVar = ("SAME", "VALID")
    DTYPES: ClassVar = FLOAT_DTYPES
    ATTRS: ClassVar = MaxPool.ATTRS


# -- PadV3, StridedSliceV2, Tile (pad_ops.h, selection_ops.h) ------------------------------

PAD_MODES = ("constant", "reflect", "edge")


def pad_pairs(paddings: Sequence[int], rank: int, contiguous: bool) -> list[tuple[int, int]] | None:
    """PadV3's paddings as (begin, end) per axis: contiguous [[b0, e0], [b1, e1], ...] or
    not [b0, b1, ..., e0, e1, ...] (pad_ops.h: paddings_contiguous); None: wrong length."""
    if len(paddings) != 2 * rank:
        return None
    if contiguous:
        return [(paddings[2 * i], paddings[2 * i + 1]) for i in range(rank)]
    return [(paddings[i], paddings[rank + i]) for i in range(rank)]


@irdl_op_definition
class PadV3(GeNode):
    """`ge.PadV3(%x, %paddings [, %constant_values])`: pads (a negative pad crops) each axis
    (pad_ops.h: REG_OP(PadV3): paddings int32/int64, a ge.Const here; mode constant
    (default), reflect or edge; paddings_contiguous default true; constant_values a
    one-element tensor of x's dtype, 0 when absent). y.shape[i] = x.shape[i] + b_i + e_i
    >= 0; reflect needs -dim <= pad < dim, edge and constant pad >= -dim."""

    traits = traits_def(Pure())

    name = "ge.PadV3"
    NUM_INPUTS: ClassVar = (2, 3)
    ATTRS: ClassVar = {"mode": (A.AttrKind.STR, False), "paddings_contiguous": (A.AttrKind.BOOL, False)}

    def pads(self) -> list[tuple[int, int]] | None:
        vals = _const_input(self, 1, "paddings")
        s = self.in_shape(0)
        if vals is None or s is None:
            return None
        pairs = pad_pairs(vals, len(s), A.get_bool(self, "paddings_contiguous", True))
        if pairs is None:
            raise VerifyException(f"paddings has {len(vals)} values for a rank-{len(s)} x (2 per axis)")
        return pairs

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        mode = A.get_str(self, "mode", "constant")
        if mode not in PAD_MODES:
            raise VerifyException(f"PadV3 mode must be one of {', '.join(PAD_MODES)}, got {mode}")
        if len(self.operands) == 3:
            self.same_dtype([self.operands[0], self.operands[2]], "x and constant_values")
            cs = self.in_shape(2)
            if _known(cs) and math.prod(cs) != 1:  # type: ignore[arg-type]
                raise VerifyException(f"constant_values must hold one value, got shape {fmt_shape(cs)}")

    def infer(self) -> list[Dims | None] | None:
        s, pairs = self.in_shape(0), self.pads()
        if s is None or pairs is None:
            return None
        mode = A.get_str(self, "mode", "constant")
        out = []
        for i, (d, (b, e)) in enumerate(zip(s, pairs)):
            if d < 0:
                out.append(-1)
                continue
            lo = -d
            if (mode == "reflect" and not (lo <= b < max(d, 1) and lo <= e < max(d, 1))) or b < lo or e < lo:
                raise VerifyException(f"pads ({b}, {e}) of axis {i} (size {d}) are out of range for mode {mode}")
            if mode != "constant" and (b > 0 or e > 0) and d - max(0, -b) - max(0, -e) <= 0:
                raise VerifyException(f"mode {mode} cannot pad axis {i}: nothing of it is left to repeat")
            if d + b + e < 0:
                raise VerifyException(f"pads ({b}, {e}) make axis {i} of size {d} negative")
            out.append(d + b + e)
        return [tuple(out)]


def slice_ranges(
    shape: Sequence[int],
    begin: Sequence[int],
    end: Sequence[int],
    axes: Sequence[int] | None,
    steps: Sequence[int] | None,
) -> list[tuple[int, int, int]]:
    """(start, stop, step) per axis of ONNX Slice's semantics, which StridedSliceV2 follows
    (selection_ops.h: "Compatible with the onnx operator Slice"): negative begin/end count
    from the end, then begin and end are clamped to [0, dim] (step > 0) or [0, dim - 1] and
    [-1, dim - 1] (step < 0); unlisted axes are whole. stop = -1 with step < 0 means "past
    index 0". A VerifyException for a bad list."""
    rank = len(shape)
    n = len(begin)
    axes = list(range(n)) if axes is None else list(axes)
    steps = [1] * n if steps is None else list(steps)
    if len(end) != n or len(axes) != n or len(steps) != n:
        raise VerifyException(
            f"begin, end, axes and strides have different lengths ({n}, {len(end)}, {len(axes)}, {len(steps)})"
        )
    out = [(0, d, 1) for d in shape]
    seen: set[int] = set()
    for b, e, a, st in zip(begin, end, axes, steps):
        a = normalize_axis(a, rank, "axes entry")
        if a in seen:
            raise VerifyException(f"axes {list(axes)} name axis {a} twice")
        seen.add(a)
        if st == 0:
            raise VerifyException("a slice step (strides entry) must not be 0")
        d = shape[a]
        b = b + d if b < 0 else b
        e = e + d if e < 0 else e
        if st > 0:
            b, e = min(max(b, 0), d), min(max(e, 0), d)
        else:
            b, e = min(max(b, 0), d - 1), min(max(e, -1), d - 1)
        out[a] = (b, e, st)
    return out


def slice_len(start: int, stop: int, step: int) -> int:
    return max(0, -(-(stop - start) // step))


@irdl_op_definition
class StridedSliceV2(GeNode):
    """`ge.StridedSliceV2(%x, %begin, %end [, %axes [, %strides]])`: ONNX Slice
    (selection_ops.h: REG_OP(StridedSliceV2): begin, end, optional axes and strides
    int32/int64, ge.Consts here; the five masks default 0, only 0 supported here)."""

    traits = traits_def(Pure())

    name = "ge.StridedSliceV2"
    NUM_INPUTS: ClassVar = (3, 5)
    MASKS: ClassVar = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")
    ATTRS: ClassVar = {m: (A.AttrKind.INT, False) for m in MASKS}

    def ranges(self) -> list[tuple[int, int, int]] | None:
        s = self.in_shape(0)
        lists = [
            _const_input(self, i, w) for i, w in zip(range(1, len(self.operands)), ("begin", "end", "axes", "strides"))
        ]
        if s is None or any(v is None for v in lists):
            return None
        # an unknown dim is sliced as a size-0 one here (the lists are checked all the same);
        # infer() leaves it unknown
        s = tuple(max(d, 0) for d in s)
        begin, end = lists[0], lists[1]
        axes = lists[2] if len(lists) > 2 else None
        steps = lists[3] if len(lists) > 3 else None
        return slice_ranges(s, begin, end, axes, steps)  # type: ignore[arg-type]

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        for m in self.MASKS:
            if (self.int_attr(m, 0) or 0) != 0:
                raise VerifyException(f"StridedSliceV2 {m} = {self.int_attr(m)} is not supported (only 0)")

    def infer(self) -> list[Dims | None] | None:
        r, x = self.ranges(), self.in_shape(0)
        if r is None or x is None:
            return None if x is not None else [None]
        # a slice of an unknown dim is unknown (begin/end clamp to the run-time extent),
        # unless it is empty at every extent: begin at or past end, both counted from the
        # same side (the clamps keep their order)
        lists = [_const_input(self, i, w) or [] for i, w in zip(range(1, len(self.operands)), ("b", "e", "a", "s"))]
        n = len(lists[0])
        axes = lists[2] if len(lists) > 2 else list(range(n))
        steps = lists[3] if len(lists) > 3 else [1] * n
        empty: set[int] = set()
        for b, e, a, st in zip(lists[0], lists[1], axes, steps):
            if (b >= 0) == (e >= 0) and ((st > 0 and b >= e) or (st < 0 and b <= e)):
                empty.add(a + len(x) if a < 0 else a)
        return [tuple(slice_len(*t) if d >= 0 else (0 if k in empty else -1) for k, (t, d) in enumerate(zip(r, x)))]


@irdl_op_definition
class Tile(GeNode):
    """`ge.Tile(%x, %multiples)`: x repeated multiples[i] times along axis i (selection_ops.h:
    REG_OP(Tile): multiples int32/int64, a ge.Const here, one entry per axis, >= 0)."""

    traits = traits_def(Pure())

    name = "ge.Tile"
    NUM_INPUTS: ClassVar = (2, 2)

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")

    def infer(self) -> list[Dims | None] | None:
        s, m = self.in_shape(0), _const_input(self, 1, "multiples")
        if s is None or m is None:
            return None
        if len(m) != len(s) or any(k < 0 for k in m):
            raise VerifyException(f"multiples {m} must have one entry >= 0 per axis of x {fmt_shape(s)}")
        # an unknown dim tiled 0 times is 0, else unknown
        return [tuple(d * k if d >= 0 or k == 0 else -1 for d, k in zip(s, m))]


# -- BatchMatMulV2 (matrix_calculation_ops.h) ----------------------------------------------


@irdl_op_definition
class BatchMatMulV2(GeNode):
    """`ge.BatchMatMulV2(%x1, %x2 [, %bias])`: x1 @ x2 over the last two axes, the batch
    axes broadcast as numpy does (matrix_calculation_ops.h: REG_OP(BatchMatMulV2): x1, x2
    2-D to 6-D of f16/f32/bf16/int32, optional bias [N], adj_x1 / adj_x2 (default false)
    transpose the last two axes first; offset_w / offset_x are quantisation, not supported)."""

    traits = traits_def(Pure())

    name = "ge.BatchMatMulV2"
    NUM_INPUTS: ClassVar = (2, 3)
    ATTRS: ClassVar = {
        "adj_x1": (A.AttrKind.BOOL, False),
        "adj_x2": (A.AttrKind.BOOL, False),
        "offset_x": (A.AttrKind.INT, False),
    }

    def check(self) -> None:
        _check_dtypes(self, self.operands[0], frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_BF16", "DT_INT32"}), "x1")
        self.same_dtype([*self.operands, self.results[0]], "inputs and output")
        if (self.int_attr("offset_x", 0) or 0) != 0:
            raise VerifyException("BatchMatMulV2 offset_x (quantisation) is not supported")

    def infer(self) -> list[Dims | None] | None:
        a, b = self.in_shape(0), self.in_shape(1)
        if a is None or b is None:
            return None
        if not (2 <= len(a) <= 6 and 2 <= len(b) <= 6):
            raise VerifyException(f"BatchMatMulV2 takes 2-D to 6-D inputs, got {fmt_shape(a)} and {fmt_shape(b)}")
        m, ka = (a[-1], a[-2]) if A.get_bool(self, "adj_x1") else (a[-2], a[-1])
        kb, n = (b[-1], b[-2]) if A.get_bool(self, "adj_x2") else (b[-2], b[-1])
        if ka >= 0 and kb >= 0 and ka != kb:
            raise VerifyException(f"BatchMatMulV2 inner dims differ: {fmt_shape(a)} @ {fmt_shape(b)}")
        batch = broadcast_shapes(a[:-2], b[:-2])
        if batch is None:
            raise VerifyException(f"the batch dims of {fmt_shape(a)} and {fmt_shape(b)} do not broadcast")
        if len(self.operands) == 3:
            bias = self.in_shape(2)
            if not dims_agree(bias, (n,)):
                raise VerifyException(f"bias has shape {fmt_shape(bias)}, expected {fmt_shape((n,))}")
            n = (merge_shapes((n,), bias) or (n,))[0]
        return [(*batch, m, n)]


# -- ArgMaxV2, ArgMin, GatherElements, Tril, Triu (elewise_calculation_ops.h,
#    selection_ops.h, matrix_calculation_ops.h) -----------------------------------------

# types.h: DataType numbers of the index outputs ArgMaxV2 / ArgMin take as `dtype`
ARG_DTYPES: dict[int, str] = {3: "DT_INT32", 9: "DT_INT64"}


class ArgBase(GeNode):
    """`ge.ArgMaxV2(%x, %dimension)` / `ge.ArgMin(...)`: the index of the first largest /
    smallest value along the axis `dimension` (a 0-d or 1-element int32/int64 ge.Const),
    which is removed (elewise_calculation_ops.h: REG_OP(ArgMaxV2) / REG_OP(ArgMin): x a
    NumberType, y int32 or int64 as `dtype` says (GE's DataType number, default DT_INT64 =
    9); "if there are multiple maximum values, the index of the first ... is used")."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {"dtype": (A.AttrKind.INT, False)}

    def axis(self) -> int | None:
        vals = _const_input(self, 1, "dimension")
        s = self.in_shape(0)
        if vals is None or s is None:
            return None
        if len(vals) != 1:
            raise VerifyException(f"dimension must hold one value, got {len(vals)}")
        return normalize_axis(vals[0], len(s), "dimension")

    def check(self) -> None:
        dt = self.int_attr("dtype", 9)
        assert dt is not None
        if dt not in ARG_DTYPES:
            raise VerifyException(f"dtype must be DT_INT32 (3) or DT_INT64 (9), got {dt}")
        if dtype_of(self.results[0]) != ARG_DTYPES[dt]:
            raise VerifyException(f"y must be {ARG_DTYPES[dt]} (dtype = {dt}), got {dtype_of(self.results[0])}")
        if dtype_of(self.operands[0]) == "DT_BOOL":
            raise VerifyException(f"{ge_type(self)} x must be a number, got DT_BOOL")

    def infer(self) -> list[Dims | None] | None:
        s, a = self.in_shape(0), self.axis()
        if s is None or a is None:
            return None
        if s[a] == 0:
            raise VerifyException(f"{ge_type(self)} of an empty axis {a} has no index")
        return [s[:a] + s[a + 1 :]]


@irdl_op_definition
class ArgMaxV2(ArgBase):
    name = "ge.ArgMaxV2"


@irdl_op_definition
class ArgMin(ArgBase):
    name = "ge.ArgMin"


@irdl_op_definition
class GatherElements(GeNode):
    """`ge.GatherElements(%x, %index)`: y[i] = x[i with i[dim] replaced by index[i]]
    (selection_ops.h: REG_OP(GatherElements): index int32/int64 of x's rank, dims other
    than `dim` at most x's, y of index's shape; `dim` default 0; an index outside
    [0, x.shape[dim]) is an AI-core error, as PyTorch's gather, which it follows)."""

    traits = traits_def(Pure())

    name = "ge.GatherElements"
    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {"dim": (A.AttrKind.INT, False)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        if dtype_of(self.operands[1]) not in INDEX_DTYPES:
            raise VerifyException(f"index must be int32 or int64, got {dtype_of(self.operands[1])}")

    def infer(self) -> list[Dims | None] | None:
        x, idx = self.in_shape(0), self.in_shape(1)
        if x is None or idx is None:
            return None
        if len(x) != len(idx) or not x:
            raise VerifyException(f"index {fmt_shape(idx)} must have x's rank ({fmt_shape(x)}), at least 1")
        d = normalize_axis(self.int_attr("dim", 0) or 0, len(x), "dim")
        for i, (a, b) in enumerate(zip(x, idx)):
            if i != d and a >= 0 and b >= 0 and b > a:
                raise VerifyException(f"index dim {i} ({b}) is larger than x's ({a})")
        return [idx]


class TriBase(GeNode):
    """`ge.Tril(%x)` / `ge.Triu(%x)`: the lower / upper triangle of the last two axes,
    from `diagonal` (default 0; > 0 above the main diagonal) on, the rest 0
    (matrix_calculation_ops.h: REG_OP(Tril) / REG_OP(Triu), PyTorch's tril / triu; x 2-D
    to 8-D)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"diagonal": (A.AttrKind.INT, False)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is not None and not 2 <= len(s) <= 8:
            raise VerifyException(f"{ge_type(self)} takes a 2-D to 8-D x, got {fmt_shape(s)}")
        return [s]


@irdl_op_definition
class Tril(TriBase):
    name = "ge.Tril"


@irdl_op_definition
class Triu(TriBase):
    name = "ge.Triu"


# -- ResizeNearestNeighborV2, ResizeBilinearV2 (image_ops.h) -------------------------------


class ResizeBase(GeNode):
    """`ge.ResizeNearestNeighborV2(%x, %size)` / `ge.ResizeBilinearV2(%x, %size)`: x
    [N, C, H, W] (the ONNX plugin sets FORMAT_NCHW) resized to `size` = [new H, new W] (a
    1-D int32 ge.Const of 2) as TensorFlow's resize kernels do, which these ops follow
    (image_ops.h): scale = in / out, or (in - 1) / (out - 1) with `align_corners`; a
    source coordinate is out * scale, or (out + 0.5) * scale (- 0.5 for bilinear) with
    `half_pixel_centers`; the two are exclusive."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {"align_corners": (A.AttrKind.BOOL, False), "half_pixel_centers": (A.AttrKind.BOOL, False)}

    def check(self) -> None:
        if A.get_bool(self, "align_corners") and A.get_bool(self, "half_pixel_centers"):
            raise VerifyException("align_corners and half_pixel_centers cannot both be true")
        if dtype_of(self.operands[1]) != "DT_INT32":
            raise VerifyException(f"size must be int32, got {dtype_of(self.operands[1])}")

    def infer(self) -> list[Dims | None] | None:
        s, size = self.in_shape(0), const_ints(self.operands[1])
        if s is None or size is None:
            return None
        if len(s) != 4:
            raise VerifyException(f"{ge_type(self)} takes a 4-D NCHW x, got {fmt_shape(s)}")
        if len(size) != 2 or min(size) <= 0:
            raise VerifyException(f"size must be [new_height, new_width] > 0, got {size}")
        return [(s[0], s[1], size[0], size[1])]


@irdl_op_definition
class ResizeNearestNeighborV2(ResizeBase):
    """The nearest source pixel: round (align_corners) or floor of the source
    coordinate, at most in - 1 (image_ops.h: REG_OP(ResizeNearestNeighborV2): y of x's
    type)."""

    name = "ge.ResizeNearestNeighborV2"

    def check(self) -> None:
        super().check()
        self.same_dtype([self.operands[0], self.results[0]], "x and y")


@irdl_op_definition
class ResizeBilinearV2(ResizeBase):
    """Bilinear interpolation of the two source rows and columns around the source
    coordinate (clamped to the image), computed in float32 (image_ops.h:
    REG_OP(ResizeBilinearV2): x f16/f32/bf16 here; y float32, or x's f16 / bf16)."""

    name = "ge.ResizeBilinearV2"

    def check(self) -> None:
        super().check()
        x, y = dtype_of(self.operands[0]), dtype_of(self.results[0])
        if x not in ("DT_FLOAT16", "DT_FLOAT", "DT_BF16"):
            raise VerifyException(f"ResizeBilinearV2 x must be DT_FLOAT16, DT_FLOAT or DT_BF16 here, got {x}")
        if y != "DT_FLOAT" and y != x:
            raise VerifyException(f"ResizeBilinearV2 y must be DT_FLOAT or x's {x}, got {y}")


# ONNX's Resize attribute values that GE's Resize op (image_ops.h: REG_OP(Resize)) lists
RESIZE_COORDINATE_MODES: tuple[str, ...] = (
    "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
    "tf_crop_and_resize",
)  # fmt: skip
RESIZE_NEAREST_MODES: tuple[str, ...] = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


@irdl_op_definition
class Resize(GeNode):
    """`ge.Resize(%x, %roi, %scales [, %sizes])`: ONNX's Resize as GE's op of that name
    (image_ops.h: REG_OP(Resize), "compatible with" ONNX's attributes: x 4-D of int8 ..
    double, roi f16/f32/f64, scales f32, sizes int32/int64; attrs
    coordinate_transformation_mode "half_pixel", cubic_coeff_a -0.75, exclude_outside 0,
    extrapolation_value 0.0, mode "nearest", nearest_mode "round_prefer_floor"). roi,
    scales and sizes are inputs (Consts, or values computed from the data); sizes, when
    not empty, is the output shape (and each axis's scale is sizes / in), else the output
    is floor(in * scales); roi ([start per axis, end per axis], 8 values) is read by
    tf_crop_and_resize only. Here: mode nearest, linear or cubic, ONNX's coordinate modes
    (RESIZE_COORDINATE_MODES), N and C not resized (scale 1). The semantics are ONNX's
    (ge_dialect/resize.py; runtime/reference.py: _resize_onnx)."""

    name = "ge.Resize"
    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (3, 4)
    ATTRS: ClassVar = {
        "coordinate_transformation_mode": (A.AttrKind.STR, False),
        "mode": (A.AttrKind.STR, False),
        "nearest_mode": (A.AttrKind.STR, False),
        "exclude_outside": (A.AttrKind.INT, False),
    }

    def check(self) -> None:
        mode = A.get_str(self, "mode") or "nearest"
        coord = A.get_str(self, "coordinate_transformation_mode") or "half_pixel"
        nm = A.get_str(self, "nearest_mode") or "round_prefer_floor"
        if mode not in ("nearest", "linear", "cubic"):
            raise VerifyException(f"mode must be nearest, linear or cubic, got '{mode}'")
        if coord not in RESIZE_COORDINATE_MODES:
            raise VerifyException(
                f"coordinate_transformation_mode must be one of {', '.join(RESIZE_COORDINATE_MODES)} here, got '{coord}'"
            )
        if nm not in RESIZE_NEAREST_MODES:
            raise VerifyException(f"nearest_mode must be one of {', '.join(RESIZE_NEAREST_MODES)}, got '{nm}'")
        float_attr(self, "cubic_coeff_a", -0.75)
        float_attr(self, "extrapolation_value", 0.0)
        x = dtype_of(self.operands[0])
        if x not in {"DT_INT8", "DT_UINT8", "DT_INT16", "DT_UINT16", "DT_INT32", "DT_INT64"} | FLOATING_TYPES - {
            "DT_BF16"
        }:
            raise VerifyException(f"Resize x must be an int8 .. int64, float16, float32 or double tensor, got {x}")
        if mode != "nearest" and x not in FLOATING_TYPES:
            raise VerifyException(f"{mode} Resize takes a float x here, got {x}")
        if dtype_of(self.operands[1]) not in {"DT_FLOAT16", "DT_FLOAT", "DT_DOUBLE"}:
            raise VerifyException(f"roi must be float16, float32 or double, got {dtype_of(self.operands[1])}")
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        if dtype_of(self.operands[2]) != "DT_FLOAT":
            raise VerifyException(f"scales must be float32, got {dtype_of(self.operands[2])}")
        if len(self.operands) == 4 and dtype_of(self.operands[3]) not in INDEX_DTYPES:
            raise VerifyException(f"sizes must be int32 or int64, got {dtype_of(self.operands[3])}")

    def scales_and_shape(self) -> tuple[list[float], Dims] | None:
        """Each axis's scale and the output shape, from the Const scales / sizes."""
        s = self.in_shape(0)
        sizes = const_ints(self.operands[3]) if len(self.operands) == 4 else []
        owner = self.operands[2].owner
        val = owner.attributes.get("value") if isinstance(owner, Const | Constant) else None
        if s is None or sizes is None or not isinstance(val, DenseIntOrFPElementsAttr):
            return None
        return resize_scales_and_shape(s, weight_array(val).reshape(-1).astype(float).tolist(), sizes)

    def infer(self) -> list[Dims | None] | None:
        got = self.scales_and_shape()
        return None if got is None else [got[1]]


def resize_scales_and_shape(s: Sequence[int], scales: list[float], sizes: list[int]) -> tuple[list[float], Dims]:
    """ge.Resize's scale per axis and output shape for x of shape `s` and the values of its
    scales and sizes (sizes, when not empty, is the shape and the scales are sizes / in;
    else the shape is floor(in * scales)); a VerifyException for values it refuses."""
    if len(s) != 4:
        raise VerifyException(f"Resize takes a 4-D x, got {fmt_shape(tuple(s))}")
    # an unknown input dim (-1) leaves its scale (sizes given) or its output dim (scales
    # given) unknown until run time, where the reference infers again on the real shape
    if sizes:
        if len(sizes) != 4 or min(sizes) <= 0:
            raise VerifyException(f"sizes must hold 4 sizes > 0, got {sizes}")
        out = tuple(sizes)
        scales = [_f32(_f32(o) / _f32(i)) if i > 0 else math.nan for o, i in zip(out, s)]
    else:
        if len(scales) != 4 or min(scales) <= 0:
            raise VerifyException(f"scales must hold 4 scales > 0 (or sizes be given), got {scales}")
        out = tuple(-1 if i < 0 else math.floor(i * _f32(f)) for i, f in zip(s, scales))  # as ONNX's shape inference
    if any(i >= 0 and o != i for i, o in zip(s[:2], out[:2])) or any(
        not math.isnan(f) and f != 1.0 for f in scales[:2]
    ):
        raise VerifyException(f"Resize resizes H and W here, not N or C ({fmt_shape(tuple(s))} -> {fmt_shape(out)})")
    if 0 in out:
        raise VerifyException(f"Resize output {fmt_shape(out)} would be empty")
    return scales, out


def _f32(v: float) -> float:
    """`v` rounded to float32 (as GE's float32 scales compute)."""
    import struct

    return struct.unpack("f", struct.pack("f", v))[0]


# -- Conv2DTranspose (nn_calculation_ops.h) ------------------------------------------------


@irdl_op_definition
class Conv2DTranspose(GeNode):
    """`ge.Conv2DTranspose(%input_size, %x, %filter [, %bias])`: the transpose of an NCHW
    convolution, ONNX's ConvTranspose (nn_calculation_ops.h: REG_OP(Conv2DTranspose):
    input_size int32/int64 [4] (a ge.Const: the output shape, or zeros for "infer it", as
    the ONNX plugin writes it), x [N, C, H, W], filter [C, K / groups, kh, kw], bias [K];
    strides and pads [top, bottom, left, right] required, dilations [1, 1, 1, 1],
    groups 1, data_format NHWC (only NCHW here), output_padding [0, 0, 0, 0], offset_x 0 by
    default). Output H = (H - 1) * stride - top - bottom + dilation * (kh - 1) +
    output_padding + 1 (and W alike)."""

    traits = traits_def(Pure())

    name = "ge.Conv2DTranspose"
    NUM_INPUTS: ClassVar = (3, 4)
    ATTRS: ClassVar = {
        "strides": (A.AttrKind.LIST_INT, True),
        "pads": (A.AttrKind.LIST_INT, True),
        "dilations": (A.AttrKind.LIST_INT, False),
        "groups": (A.AttrKind.INT, False),
        "data_format": (A.AttrKind.STR, False),
        "output_padding": (A.AttrKind.LIST_INT, False),
        "offset_x": (A.AttrKind.INT, False),
    }

    def check(self) -> None:
        check_nchw(self, "NHWC")
        _check_dtypes(self, self.operands[1], frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_BF16"}), "x")
        self.same_dtype([*self.operands[1:], self.results[0]], "x, filter, bias and y")
        if (self.int_attr("offset_x", 0) or 0) != 0:
            raise VerifyException("Conv2DTranspose offset_x (quantisation) is not supported")

    def infer(self) -> list[Dims | None] | None:
        size = _const_input(self, 0, "input_size")
        x, w = self.in_shape(1), self.in_shape(2)
        if x is None or w is None:
            return [tuple(size) if size is not None and any(size) else None]
        s, p, d, (op_,), g = conv_window(self, x, w, "output_padding")
        # an unknown dim is checked where it is known, and leaves unknown what it determines
        if not dims_agree((x[1],), (w[0],)) or (x[1] >= 0 and x[1] % g):
            raise VerifyException(f"filter {fmt_shape(w)} does not match input channels {x[1]} with groups {g}")
        k = conv_bias_channels(self, 3, w[1] * g if w[1] >= 0 else -1)
        oh, ow = conv_output_hw(
            self, x, w, lambda i: (x[i] - 1) * s[i] - p[2 * i - 4] - p[2 * i - 3] + d[i] * (w[i] - 1) + op_[i] + 1
        )
        out = (x[0], k, oh, ow)
        if size is not None and any(size):
            if not dims_agree(tuple(size), out):
                raise VerifyException(f"input_size {size} is not the output shape {fmt_shape(out)}")
            out = tuple(size)  # input_size is the output shape: it knows what x leaves unknown
        return [out]


STRUCTURAL_OPS: list[type[GeNode]] = [
    BatchNorm, MaxPoolV3, AvgPoolV2, MaxPool, AvgPool, PadV3, StridedSliceV2, Tile, BatchMatMulV2,
    ArgMaxV2, ArgMin, GatherElements, Tril, Triu, ResizeNearestNeighborV2, ResizeBilinearV2,
    Resize, Conv2DTranspose,
]  # fmt: skip


# ---------------------------------------------------------------------------------------
# Recurrent ops: DynamicRNN (LSTM) and DynamicGRUV2 (GRU), GE's op protos
# (ops/built-in/op_proto/inc/rnn.h: REG_OP(DynamicRNN), REG_OP(DynamicGRUV2); hicann/ops-nn
# rnn/dynamic_rnn/op_graph/dynamic_rnn_proto.h). Time-major 3-D tensors here (GE's ND
# form): x [T, B, I]; every output [T, B, H], one row per time step in the input's time
# order, for either direction (tbe/impl/dynamic_rnn.py, tbe/impl/dynamic_gru_v2.py: the
# REDIRECTIONAL loop writes step t at index t). Optional inputs are given in the proto's
# order, an absent one skipped: seq_length is the one int32 input, so the operand list
# stays unambiguous. Each is one library kernel task (autofuse lowers no recurrence).
# ---------------------------------------------------------------------------------------

RNN_DIRECTIONS: tuple[str, ...] = ("UNIDIRECTIONAL", "REDIRECTIONAL")


class RecurrentBase(GeNode):
    """What DynamicRNN and DynamicGRUV2 check alike: float16/float32 data of one dtype,
    an int32 seq_length [B], direction, time_major true, activation tanh, cell_depth 1,
    keep_prob 1, num_proj 0 (what the kernels implement; the protos' other values are
    refused by tbe/impl/dynamic_rnn.py: check_attr and dynamic_gru_v2.py: _check_attr)."""

    traits = traits_def(Pure())

    GATES: ClassVar[int] = 4
    # the float attributes and their REG_OP defaults
    FLOAT_ATTRS: ClassVar[dict[str, float]] = {"keep_prob": 1.0, "cell_clip": -1.0}

    # where the hidden size H shows: (input name, axis, multiple of H)
    HIDDEN_IN: ClassVar[tuple[tuple[str, int, int], ...]] = ()

    def roles(self) -> dict[str, SSAValue]:
        """The operands by their proto names (absent optional inputs left out)."""
        raise NotImplementedError

    def _known(self, roles: dict[str, SSAValue], where: Sequence[tuple[str, int, int]], what: str) -> int:
        """The one value of a size the inputs show at `where` (-1: none shows it)."""
        found = -1
        for name, axis, mult in where:
            s = shape_of(roles[name].type) if name in roles else None
            if s is None or len(s) <= axis or s[axis] < 0:
                continue
            if s[axis] % mult:
                raise VerifyException(f"{ge_type(self)} {name} dim {axis} = {s[axis]} is not a multiple of {mult}")
            v = s[axis] // mult
            if found >= 0 and v != found:
                raise VerifyException(f"{ge_type(self)} inputs disagree on {what}: {found} and {v} ({name})")
            found = v
        return found

    def check(self) -> None:
        data = [v for k, v in self.roles().items() if k != "seq_length"]
        for v in (*data, *self.results):
            _check_dtypes(self, v, F16_F32, "inputs and outputs")
        self.same_dtype([*data, *self.results], "data inputs and outputs")
        seq = self.roles().get("seq_length")
        if seq is not None and dtype_of(seq) != "DT_INT32":
            raise VerifyException(f"{ge_type(self)} seq_length must be int32, got {dtype_of(seq)}")
        direction = A.get_str(self, "direction", "UNIDIRECTIONAL")
        if direction not in RNN_DIRECTIONS:
            raise VerifyException(
                f"{ge_type(self)} direction must be one of {', '.join(RNN_DIRECTIONS)}, got '{direction}'"
            )
        if not A.get_bool(self, "time_major", True):
            raise VerifyException(f"{ge_type(self)} supports time_major true only")
        activation = A.get_str(self, "activation", "tanh")
        if activation != "tanh":
            raise VerifyException(f"{ge_type(self)} supports activation 'tanh' only, got '{activation}'")
        for name, want in (("cell_depth", 1), ("num_proj", 0)):
            v = self.int_attr(name, want)
            if v != want:
                raise VerifyException(f"{ge_type(self)} supports {name} = {want} only, got {v}")
        if (k := float_attr(self, "keep_prob", 1.0)) != 1.0:
            raise VerifyException(f"{ge_type(self)} supports keep_prob 1.0 only (inference), got {k}")
        for name, default in self.FLOAT_ATTRS.items():
            float_attr(self, name, default)

    def infer(self) -> list[Dims | None] | None:
        roles = self.roles()
        x = shape_of(roles["x"].type)
        n = len(self.results)
        if x is not None and len(x) != 3:
            raise VerifyException(f"{ge_type(self)} x must be 3-D [T, B, I], got {fmt_shape(x)}")
        hid = self._known(roles, self.HIDDEN_IN, "the hidden size")
        batch = self._known(roles, (("x", 1, 1), ("seq_length", 0, 1), ("init_h", 1, 1), ("init_c", 1, 1)), "the batch")  # fmt: skip
        if x is None:
            return [None for _ in range(n)]
        xb: Dims = (x[0], batch, x[2])
        for name, want in self.expected_shapes(xb, hid).items():
            v = roles.get(name)
            if v is None:
                continue
            s = shape_of(v.type)
            if not dims_agree(s, want):
                raise VerifyException(f"{ge_type(self)} {name} has shape {fmt_shape(s)}, expected {fmt_shape(want)}")
        out: Dims = (x[0], batch, hid)
        return [out for _ in range(n)]

    def expected_shapes(self, x: Dims, hid: int) -> dict[str, Dims]:
        raise NotImplementedError

    def _optional(self, first: int, names: Sequence[str]) -> dict[str, SSAValue]:
        """Operands from `first` on: seq_length when the next is int32, then `names`."""
        out: dict[str, SSAValue] = {}
        rest = list(self.operands[first:])
        if rest and dtype_of(rest[0]) not in F16_F32:  # the one non-float input
            if dtype_of(rest[0]) != "DT_INT32":
                raise VerifyException(f"{ge_type(self)} seq_length must be int32, got {dtype_of(rest[0])}")
            out["seq_length"] = rest.pop(0)
        if len(rest) > len(names):
            raise VerifyException(f"{ge_type(self)} has {len(rest) - len(names)} inputs too many")
        out.update(zip(names, rest))
        return out


@irdl_op_definition
class DynamicRNN(RecurrentBase):
    """`ge.DynamicRNN(%x, %w, %b [, %seq_length] [, %init_h, %init_c [, %wci, %wcf, %wco]])`:
    an LSTM over x [T, B, I] (rnn.h: REG_OP(DynamicRNN)). w [I + H, 4H] is the input and
    recurrent weights stacked, b [4H], the gates in `gate_order` (ijfo: input, cell
    candidate j, forget, output; ifjo), seq_length int32 [B], init_h / init_c [1, B, H],
    the peephole weights wci / wcf / wco [H] with use_peephole. Per step
    (tbe/impl/dynamic_rnn.py: dynamic_rnn_core):

        i, j, f, o = split([x_t, h] @ w + b)
        i = sigmoid(i + wci * c);  f = sigmoid(f + forget_bias + wcf * c);  j = tanh(j)
        c' = f * c + i * j  (cell_clip > 0: c' = min(c', cell_clip))
        o = sigmoid(o + wco * c');  h' = o * tanh(c')

    A step t >= seq_length[b] keeps the state (c, h) and writes y = 0. direction
    REDIRECTIONAL runs t = T-1 .. 0. Outputs y, output_h, output_c, i, j, f, o, tanhc, each
    [T, B, H] (output_h / output_c: the state after each step)."""

    name = "ge.DynamicRNN"
    HIDDEN_IN: ClassVar = (("b", 0, 4), ("w", 1, 4), ("init_h", 2, 1), ("init_c", 2, 1), ("wci", 0, 1), ("wcf", 0, 1), ("wco", 0, 1))  # fmt: skip
    NUM_INPUTS: ClassVar = (3, 9)
    NUM_OUTPUTS: ClassVar = (8, 8)
    FLOAT_ATTRS: ClassVar = {"keep_prob": 1.0, "cell_clip": -1.0, "forget_bias": 0.0}
    ATTRS: ClassVar = {
        "cell_type": (A.AttrKind.STR, False),
        "direction": (A.AttrKind.STR, False),
        "cell_depth": (A.AttrKind.INT, False),
        "use_peephole": (A.AttrKind.BOOL, False),
        "num_proj": (A.AttrKind.INT, False),
        "time_major": (A.AttrKind.BOOL, False),
        "activation": (A.AttrKind.STR, False),
        "gate_order": (A.AttrKind.STR, False),
        "is_training": (A.AttrKind.BOOL, False),
    }

    def roles(self) -> dict[str, SSAValue]:
        out = {"x": self.operands[0], "w": self.operands[1], "b": self.operands[2]}
        out.update(self._optional(3, ("init_h", "init_c", "wci", "wcf", "wco")))
        return out

    def check(self) -> None:
        super().check()
        roles = self.roles()
        if (A.get_str(self, "cell_type", "LSTM")) != "LSTM":
            raise VerifyException(f"DynamicRNN supports cell_type 'LSTM' only, got '{A.get_str(self, 'cell_type')}'")
        if (g := A.get_str(self, "gate_order", "ijfo")) not in ("ijfo", "ifjo"):
            raise VerifyException(f"DynamicRNN gate_order must be ijfo or ifjo, got '{g}'")
        if ("init_h" in roles) != ("init_c" in roles):
            raise VerifyException("DynamicRNN takes init_h and init_c together")
        peep = A.get_bool(self, "use_peephole", False)
        if peep != ("wci" in roles) or (peep and len(roles) - ("seq_length" in roles) != 8):
            raise VerifyException("DynamicRNN takes wci, wcf and wco (after init_h, init_c) exactly with use_peephole")

    def expected_shapes(self, x: Dims, hid: int) -> dict[str, Dims]:
        t, b, i = x
        return {
            "w": (i + hid if i >= 0 and hid >= 0 else -1, 4 * hid if hid >= 0 else -1),
            "seq_length": (b,),
            "init_h": (1, b, hid),
            "init_c": (1, b, hid),
            "wci": (hid,),
            "wcf": (hid,),
            "wco": (hid,),
        }


@irdl_op_definition
class DynamicGRUV2(RecurrentBase):
    """`ge.DynamicGRUV2(%x, %weight_input, %weight_hidden, %bias_input, %bias_hidden
    [, %seq_length] [, %init_h])`: a GRU over x [T, B, I] (rnn.h: REG_OP(DynamicGRUV2)).
    weight_input [I, 3H], weight_hidden [H, 3H], bias_input / bias_hidden [3H], the gates
    in `gate_order` (zrh: update, reset, new; rzh), seq_length int32 [B], init_h [1, B, H].
    Per step (tbe/impl/dynamic_gru_v2.py: _dynamic_gru_v2_inner):

        zi, ri, ni = split(x_t @ weight_input + bias_input)
        zh, rh, nh = split(h @ weight_hidden + bias_hidden)
        z = sigmoid(zi + zh);  r = sigmoid(ri + rh)
        n = tanh(ni + r * nh)                      (reset_after, GE's default)
        n = tanh(ni + (r * h) @ weight_hidden_n + bias_hidden_n)   (reset_after false)
        h' = z * h + (1 - z) * n

    A step t >= seq_length[b] keeps h, and y is the state kept (update_y_gm is update_h
    after the mask). Outputs y, output_h, update, reset, new, hidden_new, each [T, B, H]
    (hidden_new: nh, the hidden part of the new gate before the reset). The TBE kernel
    takes reset_after true only; the proto's false (ONNX's linear_before_reset = 0) is
    computed here as written above."""

    name = "ge.DynamicGRUV2"
    HIDDEN_IN: ClassVar = (
        ("weight_hidden", 0, 1), ("weight_hidden", 1, 3), ("weight_input", 1, 3), ("bias_input", 0, 3),
        ("bias_hidden", 0, 3), ("init_h", 2, 1),
    )  # fmt: skip
    NUM_INPUTS: ClassVar = (5, 7)
    NUM_OUTPUTS: ClassVar = (6, 6)
    GATES: ClassVar = 3
    ATTRS: ClassVar = {
        "direction": (A.AttrKind.STR, False),
        "cell_depth": (A.AttrKind.INT, False),
        "num_proj": (A.AttrKind.INT, False),
        "time_major": (A.AttrKind.BOOL, False),
        "activation": (A.AttrKind.STR, False),
        "gate_order": (A.AttrKind.STR, False),
        "reset_after": (A.AttrKind.BOOL, False),
        "is_training": (A.AttrKind.BOOL, False),
    }

    def roles(self) -> dict[str, SSAValue]:
        names = ("x", "weight_input", "weight_hidden", "bias_input", "bias_hidden")
        out: dict[str, SSAValue] = dict(zip(names, self.operands[:5]))
        out.update(self._optional(5, ("init_h",)))
        return out

    def check(self) -> None:
        super().check()
        if (g := A.get_str(self, "gate_order", "zrh")) not in ("zrh", "rzh"):
            raise VerifyException(f"DynamicGRUV2 gate_order must be zrh or rzh, got '{g}'")

    def expected_shapes(self, x: Dims, hid: int) -> dict[str, Dims]:
        t, b, i = x
        g = 3 * hid if hid >= 0 else -1
        return {
            "weight_input": (i, g),
            "weight_hidden": (hid, g),
            "bias_input": (g,),
            "bias_hidden": (g,),
            "seq_length": (b,),
            "init_h": (1, b, hid),
        }


RECURRENT_OPS: list[type[GeNode]] = [DynamicRNN, DynamicGRUV2]


# ---------------------------------------------------------------------------------------
# Ops that take a shape, axes or sizes as a tensor input: what the CANN ONNX
# plugins make when the value is an ONNX input (Expand, ReduceXxx with an axes input,
# SplitV). GE's graph preparation folds the input to a Const (DimensionComputePass,
# ConstantFoldingPass) and the fusion engine's ConstToAttrPass turns the node into the
# D form the rest of the pipeline lowers (passes/prepare/const_to_attr.py); a node whose
# input stays computed runs as a library kernel with its input's run-time values.
# ---------------------------------------------------------------------------------------


def _index_vector(op: GeNode, i: int, what: str) -> None:
    dt = dtype_of(op.operands[i])
    if dt not in INDEX_DTYPES:
        raise VerifyException(f"{ge_type(op)} {what} must be int32 or int64, got {dt}")
    s = op.in_shape(i)
    if s is not None and len(s) > 1:
        raise VerifyException(f"{ge_type(op)} {what} must be 0-d or 1-D, got shape {fmt_shape(s)}")


@irdl_op_definition
class Expand(GeNode):
    """`ge.Expand(%x, %shape)`: x broadcast with `shape` both ways (array_ops.h:
    REG_OP(Expand), "Compatible with the ONNX operator Expand": the output is the numpy
    broadcast of x's shape and `shape`, so a 1 in `shape` keeps x's dim)."""

    traits = traits_def(Pure())

    name = "ge.Expand"
    NUM_INPUTS: ClassVar = (2, 2)

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        _index_vector(self, 1, "shape")

    def infer(self) -> list[Dims | None] | None:
        s, target = self.in_shape(0), const_ints(self.operands[1])
        if s is None or target is None:
            return None
        if any(t < 0 for t in target):
            raise VerifyException(f"shape {target} has a negative entry")
        out = broadcast_shapes(s, tuple(target))
        if out is None:
            raise VerifyException(f"x {fmt_shape(s)} and shape {target} do not broadcast")
        return [out]


class ReduceAxes(GeNode):
    """A reduction over the axes of input 1 (reduce_ops.h: REG_OP(ReduceSum) and its
    kin: x, axes int32/int64; `keep_dims` default false; `noop_with_empty_axes`
    default false: empty axes reduce every axis, set: the output is x)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {"keep_dims": (A.AttrKind.BOOL, False), "noop_with_empty_axes": (A.AttrKind.BOOL, False)}
    D_FORM: ClassVar[type[ReduceD]]

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        _index_vector(self, 1, "axes")

    def infer(self) -> list[Dims | None] | None:
        s, axes = self.in_shape(0), const_ints(self.operands[1])
        if s is None or axes is None:
            return None
        if not axes and A.get_bool(self, "noop_with_empty_axes", False):
            return [s]
        norm = sorted({normalize_axis(a, len(s), "axes entry") for a in axes}) if axes else list(range(len(s)))
        if axes and len(norm) != len(axes):
            raise VerifyException(f"axes {axes} name an axis twice")
        keep = A.get_bool(self, "keep_dims", False)
        return [tuple(1 if i in norm else d for i, d in enumerate(s) if keep or i not in norm)]


@irdl_op_definition
class ReduceSum(ReduceAxes):
    name = "ge.ReduceSum"
    D_FORM: ClassVar = ReduceSumD


@irdl_op_definition
class ReduceMax(ReduceAxes):
    name = "ge.ReduceMax"
    D_FORM: ClassVar = ReduceMaxD


@irdl_op_definition
class ReduceMin(ReduceAxes):
    name = "ge.ReduceMin"
    D_FORM: ClassVar = ReduceMinD


@irdl_op_definition
class ReduceMean(ReduceAxes):
    name = "ge.ReduceMean"
    D_FORM: ClassVar = ReduceMeanD


@irdl_op_definition
class ReduceProd(ReduceAxes):
    name = "ge.ReduceProd"
    D_FORM: ClassVar = ReduceProdD


@irdl_op_definition
class SplitV(GeNode):
    """`ge.SplitV(%x, %size_splits, %split_dim)`: x split along the 0-d `split_dim`
    into parts of `size_splits` (one entry may be -1: the rest), `num_split` outputs
    (split_combination_ops.h: REG_OP(SplitV))."""

    traits = traits_def(Pure())

    name = "ge.SplitV"
    NUM_INPUTS: ClassVar = (3, 3)
    NUM_OUTPUTS: ClassVar = (1, None)
    ATTRS: ClassVar = {"num_split": (A.AttrKind.INT, True)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], *self.results], "x and outputs")
        _index_vector(self, 1, "size_splits")
        _index_vector(self, 2, "split_dim")
        n = self.int_attr("num_split")
        if n is not None and n != len(self.results):
            raise VerifyException(f"num_split = {n} but SplitV has {len(self.results)} outputs")

    @classmethod
    def _build_num_outputs(cls, attributes: dict[str, Attribute]) -> int | None:
        n = attributes.get("num_split")
        return n.value.data if isinstance(n, IntegerAttr) and n.value.data > 0 else None

    def infer(self) -> list[Dims | None] | None:
        s, sizes, dim = self.in_shape(0), const_ints(self.operands[1]), const_ints(self.operands[2])
        if s is None or sizes is None or dim is None:
            return None
        if len(dim) != 1:
            raise VerifyException(f"split_dim must hold one value, got {dim}")
        axis = normalize_axis(dim[0], len(s), "split_dim")
        parts = split_sizes(sizes, len(self.results), s[axis])
        return [s[:axis] + (p,) + s[axis + 1 :] for p in parts]


def split_sizes(sizes: Sequence[int], n: int, dim_size: int) -> list[int]:
    """SplitV's part sizes: `sizes` with its one -1 resolved (SplitVD's rule)."""
    if len(sizes) != n:
        raise VerifyException(f"size_splits has {len(sizes)} entries for {n} outputs")
    if sum(1 for s in sizes if s == -1) > 1 or any(s < -1 for s in sizes):
        raise VerifyException(f"size_splits {list(sizes)}: sizes must be >= 0, with at most one -1")
    if dim_size < 0:
        return [s if s >= 0 else -1 for s in sizes]
    rest = dim_size - sum(s for s in sizes if s >= 0)
    if (-1 in sizes and rest < 0) or (-1 not in sizes and rest != 0):
        raise VerifyException(f"size_splits {list(sizes)} do not add up to split_dim size {dim_size}")
    return [rest if s == -1 else s for s in sizes]


INPUT_FORM_OPS: list[type[GeNode]] = [Expand, ReduceSum, ReduceMax, ReduceMin, ReduceMean, ReduceProd, SplitV]


# ---------------------------------------------------------------------------------------
# Graph preparation: nodes GE's prepare passes remove (DropOutPass, StopGradientPass,
# PreventGradientPass, SnapshotPass) or fold on the host (DimensionComputePass,
# ConstantFoldingPass: Size, Rank, Fill, Range); passes/prepare/ holds the passes
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class Dropout(Unary):
    """x in inference (GE's DropOutPass deletes it: dropout_pass.cc); `dropout_ratio` kept."""

    name = "ge.Dropout"


@irdl_op_definition
class StopGradient(Unary):
    """x (a training-only marker; StopGradientPass deletes it)."""

    name = "ge.StopGradient"


@irdl_op_definition
class PreventGradient(Unary):
    """x (a training-only marker with a `message`; PreventGradientPass deletes it)."""

    name = "ge.PreventGradient"
    ATTRS: ClassVar = {"message": (A.AttrKind.STR, False)}


@irdl_op_definition
class Snapshot(Unary):
    """A copy of x (SnapshotPass deletes it)."""

    name = "ge.Snapshot"


class ShapeInfo(GeNode):
    """A value computed from the input's shape alone, an int32/int64 tensor (GE folds it:
    DimensionComputePass with the host kernels size_kernel.cc, rank_kernel.cc)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)

    def check(self) -> None:
        et = self.output_dtype(0)
        if ge_dtype_name(et) not in INDEX_DTYPES:
            raise VerifyException(f"{ge_type(self)}'s output must be int32 or int64, got {et}")

    def infer(self) -> list[Dims | None] | None:
        return [()]


@irdl_op_definition
class Size(ShapeInfo):
    """The input's element count, 0-d (GE's Size, attribute `dtype`: DT_INT32 default)."""

    name = "ge.Size"
    ATTRS: ClassVar = {"dtype": (A.AttrKind.INT, False)}


@irdl_op_definition
class Rank(ShapeInfo):
    """The input's rank, 0-d int32 (GE's Rank)."""

    name = "ge.Rank"


@irdl_op_definition
class Fill(GeNode):
    """`ge.Fill(%dims, %value)`: a tensor of shape `dims` (1-D int32/int64) filled with
    the 0-d `value` (GE's Fill; ONNX's ConstantOfShape maps to it, constantofshape_plugin.cc)."""

    traits = traits_def(Pure())

    name = "ge.Fill"
    NUM_INPUTS: ClassVar = (2, 2)

    def check(self) -> None:
        dt = self.input_dtype(0)
        if ge_dtype_name(dt) not in INDEX_DTYPES:
            raise VerifyException(f"dims must be int32 or int64, got {dt}")
        ds, vs = self.in_shape(0), self.in_shape(1)
        if ds is not None and len(ds) != 1:
            raise VerifyException(f"dims must be 1-D, got shape {fmt_shape(ds)}")
        if vs is not None and _known(vs) and math.prod(vs) != 1:
            raise VerifyException(f"value must hold one element, got shape {fmt_shape(vs)}")
        self.same_dtype([self.operands[1], self.results[0]], "value and output")

    def infer(self) -> list[Dims | None] | None:
        dims = const_ints(self.operands[0])
        if dims is None:
            return None
        if any(d < 0 for d in dims):
            raise VerifyException(f"dims {dims} has a negative entry")
        return [tuple(dims)]


def range_length(start: float, limit: float, delta: float) -> int:
    """range_kernel.cc: GetRange: ceil((limit - start) / delta) elements (0 when negative)."""
    if delta == 0:
        raise VerifyException("Range's delta must not be 0")
    return max(0, math.ceil((limit - start) / delta))


@irdl_op_definition
class Range(GeNode):
    """`ge.Range(%start, %limit, %delta)`: [start, start + delta, ...) up to `limit`
    (exclusive), 1-D; three 0-d inputs of the output's dtype (GE's Range)."""

    traits = traits_def(Pure())

    name = "ge.Range"
    NUM_INPUTS: ClassVar = (3, 3)

    def check(self) -> None:
        self.same_dtype([*self.operands, self.results[0]], "start, limit, delta and output")
        for i, what in enumerate(("start", "limit", "delta")):
            s = self.in_shape(i)
            if s is not None and s != ():
                raise VerifyException(f"{what} must be 0-d, got shape {fmt_shape(s)}")

    def infer(self) -> list[Dims | None] | None:
        vals = [const_scalar(v) for v in self.operands]
        if any(v is None for v in vals):
            return [(-1,)]
        return [(range_length(*vals),)]  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# More ops of ONNX models: Cumsum, HardMax, ScatterElements, GatherNd,
# TensorScatterUpdate / TensorScatterAdd / TensorScatterMax / TensorScatterMin,
# DepthToSpace, SpaceToDepth, BitwiseAnd / BitwiseOr / BitwiseXor, Invert, LeftShift,
# RightShift. Each is one library kernel task: GE's autofuse lowers none of them
# (lowering/lower_autofuse.py: POINTWISE and LOWERINGS hold no entry for them).
# ---------------------------------------------------------------------------------------

# elewise_calculation_ops.h: REG_OP(BitwiseAnd) / BitwiseOr / BitwiseXor / Invert /
# LeftShift / RightShift: x1, x2 int8, int16, int32, int64, uint8, uint16 (the shifts and
# the later protos add uint32, uint64)
BITWISE_TYPES: frozenset[str] = frozenset(
    {"DT_INT8", "DT_INT16", "DT_INT32", "DT_INT64", "DT_UINT8", "DT_UINT16", "DT_UINT32", "DT_UINT64"}
)


@irdl_op_definition
class BitwiseAnd(CheckedBinary):
    """x1 & x2, broadcast (elewise_calculation_ops.h: REG_OP(BitwiseAnd))."""

    name = "ge.BitwiseAnd"
    DTYPES: ClassVar = BITWISE_TYPES


@irdl_op_definition
class BitwiseOr(CheckedBinary):
    """x1 | x2, broadcast (elewise_calculation_ops.h: REG_OP(BitwiseOr))."""

    name = "ge.BitwiseOr"
    DTYPES: ClassVar = BITWISE_TYPES


@irdl_op_definition
class BitwiseXor(CheckedBinary):
    """x1 ^ x2, broadcast (elewise_calculation_ops.h: REG_OP(BitwiseXor))."""

    name = "ge.BitwiseXor"
    DTYPES: ClassVar = BITWISE_TYPES


@irdl_op_definition
class Invert(CheckedUnary):
    """~x, every bit flipped (elewise_calculation_ops.h: REG_OP(Invert))."""

    name = "ge.Invert"
    DTYPES: ClassVar = BITWISE_TYPES


@irdl_op_definition
class LeftShift(CheckedBinary):
    """x << y, broadcast; a shift of the width or more gives 0 (elewise_calculation_ops.h:
    REG_OP(LeftShift), TensorFlow's left_shift on unsigned x)."""

    name = "ge.LeftShift"
    DTYPES: ClassVar = BITWISE_TYPES


@irdl_op_definition
class RightShift(CheckedBinary):
    """x >> y, broadcast (arithmetic on signed x, logical on unsigned x); a shift of the
    width or more gives 0 (or -1 for a negative signed x) (elewise_calculation_ops.h:
    REG_OP(RightShift))."""

    name = "ge.RightShift"
    DTYPES: ClassVar = BITWISE_TYPES


@irdl_op_definition
class Cumsum(GeNode):
    """`ge.Cumsum(%x, %axis)`: the running sum of x along `axis` (a 0-d or 1-element
    int32/int64 ge.Const); `exclusive` leaves each element out of its own sum, `reverse`
    sums from the end (math_ops.h: REG_OP(Cumsum): x NumberType, exclusive and reverse
    default false)."""

    traits = traits_def(Pure())

    name = "ge.Cumsum"
    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {"exclusive": (A.AttrKind.BOOL, False), "reverse": (A.AttrKind.BOOL, False)}

    def axis(self) -> int | None:
        vals = _const_input(self, 1, "axis")
        s = self.in_shape(0)
        if vals is None or s is None:
            return None
        if len(vals) != 1:
            raise VerifyException(f"axis must hold one value, got {len(vals)}")
        return normalize_axis(vals[0], len(s), "axis")

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        _check_dtypes(self, self.operands[0], REAL_NUMBER_TYPES, "x")

    def infer(self) -> list[Dims | None] | None:
        self.axis()
        return [self.in_shape(0)]


@irdl_op_definition
class HardMax(GeNode):
    """`ge.HardMax(%x) {axis}`: 1 at the first largest value along `axis`, 0 elsewhere
    (nn_norm_ops.h: REG_OP(HardMax): x float16/float32, axis default -1)."""

    traits = traits_def(Pure())

    name = "ge.HardMax"
    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {"axis": (A.AttrKind.INT, False)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        _check_dtypes(self, self.operands[0], FLOAT_DTYPES, "x")

    def infer(self) -> list[Dims | None] | None:
        s = self.in_shape(0)
        if s is not None:
            if not s:
                raise VerifyException("HardMax takes x of rank >= 1")
            normalize_axis(self.int_attr("axis", -1), len(s), "axis")
        return [s]


# selection_ops.h: REG_OP(ScatterElements) .ATTR(reduction, String, "none"): none, add, mul
SCATTER_REDUCTIONS: tuple[str, ...] = ("none", "add", "mul")


@irdl_op_definition
class ScatterElements(GeNode):
    """`ge.ScatterElements(%data, %indices, %updates) {axis, reduction}`: a copy of data
    where, for each position i of indices, the element at i with i[axis] replaced by
    indices[i] is updates[i] (reduction "none"), or that element plus / times updates[i]
    ("add" / "mul", in index order) (selection_ops.h: REG_OP(ScatterElements): indices
    int32/int64 of data's rank and updates' shape, an index outside [0, data.shape[axis])
    an error)."""

    traits = traits_def(Pure())

    name = "ge.ScatterElements"
    NUM_INPUTS: ClassVar = (3, 3)
    ATTRS: ClassVar = {"axis": (A.AttrKind.INT, False), "reduction": (A.AttrKind.STR, False)}

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.operands[2], self.results[0]], "data, updates and y")
        _check_dtypes(self, self.operands[1], INDEX_DTYPES, "indices")
        r = A.get_str(self, "reduction", "none")
        if r not in SCATTER_REDUCTIONS:
            raise VerifyException(f"reduction must be one of {', '.join(SCATTER_REDUCTIONS)}, got '{r}'")

    def infer(self) -> list[Dims | None] | None:
        d, i, u = self.in_shape(0), self.in_shape(1), self.in_shape(2)
        if d is None or i is None or u is None:
            return [d]
        if len(i) != len(d) or not d:
            raise VerifyException(f"indices {fmt_shape(i)} must have data's rank ({fmt_shape(d)}), at least 1")
        if not dims_agree(i, u):
            raise VerifyException(f"updates {fmt_shape(u)} must have indices' shape {fmt_shape(i)}")
        a = normalize_axis(self.int_attr("axis", 0), len(d), "axis")
        for k, (x, y) in enumerate(zip(d, i)):
            if k != a and x >= 0 and y >= 0 and y > x:
                raise VerifyException(f"indices dim {k} ({y}) is larger than data's ({x})")
        return [d]


def _nd_index_shape(op: GeNode, x: Dims, idx: Dims) -> int:
    """The index depth k (indices' last dim) of a GatherNd / TensorScatter op, checked."""
    if not idx:
        raise VerifyException(f"{ge_type(op)} indices must have rank >= 1")
    k = idx[-1]
    if k >= 0 and k > len(x):
        raise VerifyException(f"indices' last dim {k} exceeds x's rank {len(x)}")
    return k


@irdl_op_definition
class GatherNd(GeNode):
    """`ge.GatherNd(%x, %indices)`: y[j] = x[indices[j]] where each indices[j] (the last
    dim, k) indexes x's first k dims; y's shape is indices.shape[:-1] + x.shape[k:]
    (array_ops.h: REG_OP(GatherNd): indices int32/int64; an index outside [0, dim) an
    error)."""

    traits = traits_def(Pure())

    name = "ge.GatherNd"
    NUM_INPUTS: ClassVar = (2, 2)

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        _check_dtypes(self, self.operands[1], INDEX_DTYPES, "indices")

    def infer(self) -> list[Dims | None] | None:
        x, idx = self.in_shape(0), self.in_shape(1)
        if x is None or idx is None:
            return None
        k = _nd_index_shape(self, x, idx)
        if k < 0:  # an unknown index depth: an unknown rank
            return [None]
        return [idx[:-1] + x[k:]]


class TensorScatterBase(GeNode):
    """`ge.TensorScatterXxx(%x, %indices, %updates)`: a copy of x where the slice
    x[indices[j]] (indices' last dim k indexing x's first k dims) is updates[j]
    (TensorScatterUpdate), or that slice combined with updates[j] in index order (Add,
    Max, Min); updates' shape is indices.shape[:-1] + x.shape[k:] (array_ops.h:
    REG_OP(TensorScatterUpdate) / REG_OP(TensorScatterAdd) / REG_OP(TensorScatterMax) /
    REG_OP(TensorScatterMin): indices int32/int64, an index outside [0, dim) an error)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (3, 3)
    REDUCTION: ClassVar[str] = "none"

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.operands[2], self.results[0]], "x, updates and y")
        _check_dtypes(self, self.operands[1], INDEX_DTYPES, "indices")

    def infer(self) -> list[Dims | None] | None:
        x, idx, u = self.in_shape(0), self.in_shape(1), self.in_shape(2)
        if x is None or idx is None or u is None:
            return [x]
        k = _nd_index_shape(self, x, idx)
        if k < 0:
            return [x]
        if not dims_agree(u, idx[:-1] + x[k:]):
            raise VerifyException(f"updates {fmt_shape(u)} must have shape {fmt_shape(idx[:-1] + x[k:])}")
        # x's sliced dims are updates' trailing ones: either knows them
        return [x[:k] + (merge_shapes(x[k:], u[len(idx) - 1 :]) or x[k:])]


@irdl_op_definition
class TensorScatterUpdate(TensorScatterBase):
    name = "ge.TensorScatterUpdate"


@irdl_op_definition
class TensorScatterAdd(TensorScatterBase):
    name = "ge.TensorScatterAdd"
    REDUCTION: ClassVar = "add"


@irdl_op_definition
class TensorScatterMax(TensorScatterBase):
    name = "ge.TensorScatterMax"
    REDUCTION: ClassVar = "max"


@irdl_op_definition
class TensorScatterMin(TensorScatterBase):
    name = "ge.TensorScatterMin"
    REDUCTION: ClassVar = "min"


class SpaceDepthBase(GeNode):
    """`ge.DepthToSpace(%x) {block_size, mode, data_format}` / `ge.SpaceToDepth(...)`:
    NCHW x's channels moved into block_size x block_size spatial blocks and back
    (array_ops.h / transformation_ops.h: REG_OP(DepthToSpace) .ATTR(mode, String, "DCR"):
    DCR takes depth-column-row order, CRD column-row-depth; REG_OP(SpaceToDepth);
    block_size >= 2; data_format NCHW here, as the ONNX plugins set it)."""

    traits = traits_def(Pure())

    NUM_INPUTS: ClassVar = (1, 1)
    ATTRS: ClassVar = {
        "block_size": (A.AttrKind.INT, True),
        "mode": (A.AttrKind.STR, False),
        "data_format": (A.AttrKind.STR, False),
    }

    def check(self) -> None:
        self.same_dtype([self.operands[0], self.results[0]], "x and y")
        if self.int_attr("block_size", 0) < 2:
            raise VerifyException(f"block_size must be >= 2, got {self.int_attr('block_size', 0)}")
        if A.get_str(self, "data_format", "NCHW") != "NCHW":
            raise VerifyException(f"data_format must be NCHW, got {A.get_str(self, 'data_format')}")
        if A.get_str(self, "mode", "DCR") not in ("DCR", "CRD"):
            raise VerifyException(f"mode must be DCR or CRD, got {A.get_str(self, 'mode')}")


@irdl_op_definition
class DepthToSpace(SpaceDepthBase):
    name = "ge.DepthToSpace"

    def infer(self) -> list[Dims | None] | None:
        s, b = self.in_shape(0), self.int_attr("block_size", 2)
        if s is None:
            return None
        if len(s) != 4:
            raise VerifyException(f"DepthToSpace takes a 4-D NCHW x, got {fmt_shape(s)}")
        n, c, h, w = s
        if c >= 0 and c % (b * b):
            raise VerifyException(f"channels {c} are not a multiple of block_size^2 = {b * b}")
        return [(n, c // (b * b) if c >= 0 else -1, h * b if h >= 0 else -1, w * b if w >= 0 else -1)]


@irdl_op_definition
class SpaceToDepth(SpaceDepthBase):
    name = "ge.SpaceToDepth"

    def infer(self) -> list[Dims | None] | None:
        s, b = self.in_shape(0), self.int_attr("block_size", 2)
        if s is None:
            return None
        if len(s) != 4:
            raise VerifyException(f"SpaceToDepth takes a 4-D NCHW x, got {fmt_shape(s)}")
        n, c, h, w = s
        if (h >= 0 and h % b) or (w >= 0 and w % b):
            raise VerifyException(f"height {h} and width {w} must be multiples of block_size {b}")
        return [(n, c * b * b if c >= 0 else -1, h // b if h >= 0 else -1, w // b if w >= 0 else -1)]


# math_ops.h: REG_OP(Acos) / Acosh / Asin / Asinh / Atan / Atanh / Cosh / Sinh / Tan: x
# and y FloatingDataType (float16, float32, double)


@irdl_op_definition
class Acos(CheckedUnary):
    """arccos(x)"""

    name = "ge.Acos"


@irdl_op_definition
class Acosh(CheckedUnary):
    """arcosh(x)"""

    name = "ge.Acosh"


@irdl_op_definition
class Asin(CheckedUnary):
    """arcsin(x)"""

    name = "ge.Asin"


@irdl_op_definition
class Asinh(CheckedUnary):
    """arsinh(x)"""

    name = "ge.Asinh"


@irdl_op_definition
class Atan(CheckedUnary):
    """arctan(x)"""

    name = "ge.Atan"


@irdl_op_definition
class Atanh(CheckedUnary):
    """artanh(x)"""

    name = "ge.Atanh"


@irdl_op_definition
class Cosh(CheckedUnary):
    """cosh(x)"""

    name = "ge.Cosh"


@irdl_op_definition
class Sinh(CheckedUnary):
    """sinh(x)"""

    name = "ge.Sinh"


@irdl_op_definition
class Tan(CheckedUnary):
    """tan(x)"""

    name = "ge.Tan"


TRIG_OPS: list[type[GeNode]] = [Acos, Acosh, Asin, Asinh, Atan, Atanh, Cosh, Sinh, Tan]


# image_ops.h: REG_OP(GridSampler2D) / REG_OP(GridSampler3D) (PyTorch's grid_sampler):
# interpolation_mode default "bilinear", padding_mode default "zeros"
GRID_SAMPLE_PADDING: tuple[str, ...] = ("zeros", "border", "reflection")


class _GridSampler(GeNode):
    """`ge.GridSampler2D(%x, %grid)` / `ge.GridSampler3D`: x [N, C, *in] sampled at the
    normalized positions of grid [N, *out, rank] (its last axis x, y[, z]: W first),
    y [N, C, *out] (image_ops.h: REG_OP(GridSampler2D) / (GridSampler3D): x and grid
    float16/float32/double, attrs interpolation_mode, padding_mode "zeros" / "border" /
    "reflection", align_corners false; channel_last false only here). The semantics are
    PyTorch's grid_sampler, which ONNX's GridSample is (runtime/reference.py:
    grid_sample)."""

    traits = traits_def(Pure())
    NUM_INPUTS: ClassVar = (2, 2)
    ATTRS: ClassVar = {
        "interpolation_mode": (A.AttrKind.STR, False),
        "padding_mode": (A.AttrKind.STR, False),
        "align_corners": (A.AttrKind.BOOL, False),
        "channel_last": (A.AttrKind.BOOL, False),
    }
    SPATIAL: ClassVar[int] = 2
    MODES: ClassVar[tuple[str, ...]] = ("bilinear", "nearest")

    def check(self) -> None:
        _check_dtypes(self, self.operands[0], frozenset({"DT_FLOAT16", "DT_FLOAT", "DT_DOUBLE"}), "x")
        self.same_dtype([self.operands[0], self.operands[1], self.results[0]], "x, grid and y")
        mode = A.get_str(self, "interpolation_mode") or "bilinear"
        if mode not in self.MODES:
            raise VerifyException(f"interpolation_mode must be one of {', '.join(self.MODES)}, got '{mode}'")
        pad = A.get_str(self, "padding_mode") or "zeros"
        if pad not in GRID_SAMPLE_PADDING:
            raise VerifyException(f"padding_mode must be one of {', '.join(GRID_SAMPLE_PADDING)}, got '{pad}'")
        if A.get_bool(self, "channel_last"):
            raise VerifyException("channel_last is not supported (NCHW only)")

    def infer(self) -> list[Dims | None] | None:
        s, g = self.in_shape(0), self.in_shape(1)
        if s is None or g is None:
            return None
        r = self.SPATIAL
        if len(s) != r + 2 or len(g) != r + 2 or g[-1] not in (r, -1):
            raise VerifyException(
                f"{self.name} takes x of rank {r + 2} and grid [N, ..., {r}], got {fmt_shape(s)} and {fmt_shape(g)}"
            )
        if s[0] >= 0 and g[0] >= 0 and s[0] != g[0]:
            raise VerifyException(f"x and grid have batch {s[0]} and {g[0]}")
        return [(s[0] if s[0] >= 0 else g[0], s[1], *g[1:-1])]


@irdl_op_definition
class GridSampler2D(_GridSampler):
    name = "ge.GridSampler2D"
    MODES: ClassVar[tuple[str, ...]] = ("bilinear", "nearest", "bicubic")


@irdl_op_definition
class GridSampler3D(_GridSampler):
    name = "ge.GridSampler3D"
    SPATIAL: ClassVar[int] = 3


MORE_ONNX_OPS: list[type[GeNode]] = [
    BitwiseAnd, BitwiseOr, BitwiseXor, Invert, LeftShift, RightShift, Cumsum, HardMax,
    ScatterElements, GatherNd, TensorScatterUpdate, TensorScatterAdd, TensorScatterMax,
    TensorScatterMin, DepthToSpace, SpaceToDepth, *TRIG_OPS, GridSampler2D, GridSampler3D,
]  # fmt: skip


def const_scalar(v: SSAValue) -> float | None:
    """The one value of a one-element ge.Const/ge.Constant producing `v`, else None."""
    owner = v.owner
    if not isinstance(owner, Const | Constant):
        return None
    val = owner.attributes.get("value")
    if not isinstance(val, DenseIntOrFPElementsAttr) or len(val) != 1:  # len: no element read
        return None
    return float(weight_array(val).reshape(-1)[0])


# the class tuples the graph checks ask _isa about
_OP_RESULT: tuple[type, ...] = (OpResult,)
_DATA_TYPES: tuple[type, ...] = (Data, RefData)
_BODY_TYPES: tuple[type, ...] = (GeNode, GraphOp)
_CALL_TYPES: tuple[type, ...] = (PartitionedCall, ControlOp)

GE_NODE_OPS: list[type[GeNode]] = [
    Data, RefData, Const, Constant, Variable, NetOutput,
    Add, Sub, Mul, RealDiv, Div, Maximum, Minimum, Pow, AddN,
    Relu, Abs, Neg, Exp, Log, Sqrt, Rsqrt, Sigmoid, Tanh, Square, Reciprocal, Identity, Cast,
    Erf, Gelu, HardSwish, HardSigmoid, LeakyRelu, Relu6, Elu, Selu, Celu, Softplus, Softsign, Mish,
    Floor, Ceil, Round, Sign, Sin, Cos, IsNan, IsInf, Mod, FloorMod,
    Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, LogicalAnd, LogicalOr, LogicalNot,
    SelectV2, ClipByValue, SoftmaxV2, LogSoftmaxV2, LayerNorm,
    ReduceSumD, ReduceMaxD, ReduceMinD, ReduceMeanD, ReduceProdD,
    ConcatD, ConcatV2D, Pack, SplitD, SplitVD, PhonyConcat, PhonySplit,
    Reshape, Squeeze, Unsqueeze, ExpandDims, Flatten, FlattenV2, Bitcast, ReFormat,
    SqueezeV2, SqueezeV3, UnsqueezeV2, UnsqueezeV3,
    TransposeD, BroadcastToD, Shape, Gather, GatherV2, MatMul, Conv2D, HcomAllGather,
    PartitionedCall, AscBackend, FusedAscBackend,
    *CONTROL_OPS,
    *STRUCTURAL_OPS,
    *INPUT_FORM_OPS,
    *RECURRENT_OPS,
    *MORE_ONNX_OPS,
    Dropout, StopGradient, PreventGradient, Snapshot, Size, Rank, Fill, Range,
]  # fmt: skip

GE = Dialect("ge", [GraphOp, *GE_NODE_OPS], [GeDescAttr])
