"""The npu dialect: a loaded-once task program, as GE's task generator hands it to the
static executor (docs/ge/executor.md: model header, regions, tasks per stream).

    npu.model @main streams = 2 events = 2 attributes {memory_size = 4608} {
      npu.region fm size = 4608
      npu.region input:0 size = 3072
      npu.region output:0 size = 3072
      npu.tensor "x:0" at #npu.addr<input:0, 0, 3072> {node = "x", type = "Data"}
      npu.tensor "r:0" at #npu.addr<fm, 0, 3072> {node = "r", type = "Relu"}
      npu.alias "c:0" at #npu.addr<output:0, 0, 3072> of ["b0:0", "b1:0"] {node = "c", type = "ConcatD"}
      npu.const "w:0" at #npu.addr<weight, 0, 64> = dense<1.0> : tensor<4x4xf32>
      npu.kernel_def @relu_0 = library "Relu" {} : (tensor<48x32xf16>) -> (tensor<48x32xf16>)
      npu.kernel_def @fused_0 = ascgraph : (tensor<4x8xf16>) -> (tensor<4x8xf16>) { ascgraph.graph ... }
      npu.stream 0 {
        npu.stream_active 1
        npu.kernel @relu_0 ins("x:0" at #npu.addr<input:0, 0, 3072>) outs("r:0" at #npu.addr<fm, 0, 3072>) {node = "r"}
        npu.event_record 0
        npu.memcpy ins("r:0" at #npu.addr<fm, 0, 3072>) outs("r:0@out" at #npu.addr<output:0, 0, 3072>)
        npu.end_graph
      }
      npu.stream 1 { npu.event_wait 0 ... }
    }

* Regions (GE's logical allocation table, docs/ge/executor.md): `fm` (the feature-map
  arena), `input:<k>` / `output:<k>` (zero-copy model I/O: the user's buffers, bound at
  every execute), `weight` (constants, copied at load), `var` (variables, persist across
  runs), `workspace` (kernel workspaces: the buffers between the kernels of a
  FusedAscBackend). An address is `#npu.addr<region, offset, length>` in bytes.
* The table names every tensor the tasks touch: `npu.tensor` (a buffer some task writes,
  or a model input), `npu.const` (weights and variables with their initial value) and
  `npu.alias` (the output of a `_no_task` node or a GE-local NoOp-class node: no task, a
  view of the tensors it is made of; GE NoNeedGenTask / FilterCandidatesNodes).
* Kernels: `library "<GE type>"` (run by the GE type's reference semantics on views of
  device memory; attributes copied) or `ascgraph` (a copy of the AscBackend's AscGraph).
* Tasks, per stream, in program order: `npu.kernel`, `npu.memcpy` (MEMCPY_ASYNC),
  `npu.event_record` / `npu.event_wait` (EVENT_RECORD / EVENT_WAIT), `npu.stream_active`
  (STREAM_ACTIVE), `npu.label_set` / `npu.label_goto` / `npu.label_switch_by_index`
  (LABEL_SET, LABEL_GOTO_EX, LABEL_SWITCH_BY_INDEX: the branches and loops of If, Case and
  While, docs/control_flow.md), `npu.end_graph` (MODEL_END_GRAPH). Each kernel/memcpy operand is
  `"<tensor>" at #npu.addr<...>`: which tensor of the table it reads or writes and where.

Verifier rules (messages name the task and the address): tasks sit in a stream, and
table entries, kernel_defs and streams in the model (HasParent); every address lies inside its
region and regions are declared once; tensor names are unique and aliases refer to
declared tensors; a kernel names a kernel_def and has its arity; an operand address is at
least its tensor type's bytes; a memcpy copies one range to an equally long one; event
ids are below `events`, each recorded once and waited once on another stream; stream ids
are 0..streams-1, stream 0 is the head stream and every other stream is the target of a
stream_active; stream 0 ends with the model's one end_graph; a label is set once, and
every goto or switch jumps to a label set on its own stream.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, ParametrizedAttribute, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from ge_dialect import attrs as A
from ge_dialect.ascgraph import AscGraphOp, Data, Output
from ge_dialect.dtypes import held_bits
from ge_dialect.weights import is_elided

FIXED_REGIONS = ("fm", "weight", "var", "workspace")
IO_KINDS = ("input", "output")


def region_error(region: str) -> str | None:
    """None when `region` is a valid region id (fm, weight, var, workspace, input:k, output:k)."""
    if region in FIXED_REGIONS:
        return None
    kind, _, k = region.partition(":")
    if kind in IO_KINDS and k.isdigit():
        return None
    return f"unknown region '{region}' (expected fm, weight, var, workspace, input:<k> or output:<k>)"


def _parse_region_id(parser: AttrParser) -> str:
    start = parser.pos
    kind = parser.parse_identifier("region (fm, weight, var, workspace, input:<k>, output:<k>)")
    if kind in IO_KINDS:
        parser.parse_punctuation(":")
        k = parser.parse_integer(allow_negative=False)
        kind = f"{kind}:{k}"
    if (err := region_error(kind)) is not None:
        parser.raise_error(err, start, parser.pos)
    return kind


@irdl_attr_definition
class AddrAttr(ParametrizedAttribute):
    """`#npu.addr<region, offset, length>`: `length` bytes at byte `offset` of `region`.

    Always one contiguous range, as a GE kernel sees its tensor (one address per tensor):
    a PhonyConcat producer writes, a PhonySplit consumer reads, its whole piece from the
    piece's offset on (ge_local_ops_kernel_calc_op_param.cc: CalcPhonyConcatNodeOffset /
    CalcPhonySplitNodeOffset give one offset per piece).
    """

    name = "npu.addr"
    # equal addresses print the same text: GePrinter keeps one text per value (ge_tools/printer.py)
    PRINTS_BY_VALUE: ClassVar[bool] = True

    region: StringAttr
    offset: IntAttr
    length: IntAttr

    def __init__(self, region: str, offset: int, length: int):
        super().__init__(StringAttr(region), IntAttr(offset), IntAttr(length))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            region = _parse_region_id(parser)
            parser.parse_punctuation(",")
            off = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(",")
            length = parser.parse_integer(allow_negative=False)
        return (StringAttr(region), IntAttr(off), IntAttr(length))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.region.data}, {self.offset.data}, {self.length.data}>")

    def verify(self) -> None:
        if (err := region_error(self.region.data)) is not None:
            raise VerifyException(err)
        if self.offset.data < 0 or self.length.data < 0:
            raise VerifyException("address offset and length must be >= 0")

    @property
    def end(self) -> int:
        return self.offset.data + self.length.data

    def __str__(self) -> str:  # used in messages
        return f"{self.region.data}[{self.offset.data}, {self.end})"


def raw_bytes(t: Attribute) -> int:
    """Bytes of a tensor type's elements in origin row-major order (the view a kernel makes)."""
    assert isinstance(t, TensorType)
    return math.prod(t.get_shape()) * (held_bits(t.element_type) // 8)


# ---------------------------------------------------------------------------------------
# Assembly format directives
# ---------------------------------------------------------------------------------------
# The declarative format prints an AddrAttr property without its `#npu.addr` prefix
# (xdsl_guide.md §2.2) and an integer property with its `: i64`; these keep the short
# syntax. Integer properties are builtin IntegerAttr (i64), not xDSL's IntAttr, so that
# the generic form (`size = 64 : i64`) parses with upstream mlir-opt too.


@irdl_custom_directive
class Count(CustomDirective):
    """A non-negative integer property as a bare integer: `npu.event_record 3`."""

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.value.set(state, IntegerAttr(parser.parse_integer(allow_negative=False), i64))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        v = self.value.get(op)
        assert isinstance(v, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(str(v.value.data))


@irdl_custom_directive
class RegionId(CustomDirective):
    """A region id, bare and checked as it is parsed: `fm`, `input:0`."""

    region: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.region.set(state, StringAttr(_parse_region_id(parser)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        v = self.region.get(op)
        assert isinstance(v, StringAttr)
        state.print_whitespace(printer)
        printer.print_string(v.data)


def _parse_addr(parser: Parser) -> AddrAttr:
    pos = parser.pos
    addr = parser.parse_attribute()
    if not isinstance(addr, AddrAttr):
        parser.raise_error(f"expected #npu.addr<...>, got {addr}", pos, parser.pos)
    return addr


@irdl_custom_directive
class Addr(CustomDirective):
    """An AddrAttr property in full: `#npu.addr<fm, 0, 64>`."""

    addr: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.addr.set(state, _parse_addr(parser))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_attribute(self.addr.get(op))  # type: ignore[arg-type]


@irdl_custom_directive
class Operands(CustomDirective):
    """A task's operands, `("t" at #npu.addr<...>, ...)` right after `ins`/`outs`: the
    tensor name list and the address list, pairwise."""

    tensors: AttributeVariable
    addrs: AttributeVariable
    SINGLE: ClassVar[bool] = False  # exactly one operand (a memcpy's source, destination)

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def one() -> tuple[str, AddrAttr]:
            name = parser.parse_str_literal()
            parser.parse_keyword("at")
            return name, _parse_addr(parser)

        pos = parser.pos
        items = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
        if self.SINGLE and len(items) != 1:
            parser.raise_error("a memcpy has one source and one destination", pos, parser.pos)
        self.tensors.set(state, _names([n for n, _ in items]))
        self.addrs.set(state, ArrayAttr([a for _, a in items]))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        names, addrs = self.tensors.get(op), self.addrs.get(op)
        assert isinstance(names, ArrayAttr) and isinstance(addrs, ArrayAttr)

        def one(item: tuple[Attribute, Attribute]) -> None:
            assert isinstance(item[0], StringAttr)
            printer.print_string_literal(item[0].data)
            printer.print_string(" at ")
            printer.print_attribute(item[1])

        keep = A.keeping(printer)
        # the list as one string from kept texts: a StringAttr prints as the string literal
        # of its data (xdsl builtin.py: StringAttr.print_builtin), as `one` prints it
        texts = None if keep is None else A.attribute_texts(keep, [*names.data, *addrs.data])
        if texts is not None:
            n = len(names.data)
            printer.print_string("(" + ", ".join(f"{t} at {a}" for t, a in zip(texts[:n], texts[n:])) + ")")
        else:
            printer.print_string("(")  # no space: `ins(`
            printer.print_list(list(zip(names.data, addrs.data)), one)
            printer.print_string(")")
        state.should_emit_space, state.last_was_punctuation = True, False


@irdl_custom_directive
class MemcpyOperand(Operands):
    """A memcpy's one source or destination, written like a task's operand list."""

    tensors: AttributeVariable
    addrs: AttributeVariable
    SINGLE: ClassVar[bool] = True


@irdl_custom_directive
class DenseValue(CustomDirective):
    """A constant's value, `dense<...> : tensor<...>`, checked as it is parsed."""

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        value = parser.parse_attribute()
        if is_elided(value):  # a weight of a compiled model is its bytes (ge_dialect/weights.py)
            parser.raise_error(
                "this weight was elided when the module was printed (dense_resource<__elided__>): "
                "write the module without --elide-large-elements",
                pos,
                parser.pos,
            )
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(f"expected dense<...> : tensor<...>, got {value}", pos, parser.pos)
        self.value.set(state, value)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_attribute(self.value.get(op))  # type: ignore[arg-type]


@irdl_custom_directive
class TensorNames(CustomDirective):
    """A list of tensor names, `["a:0", "b:0"]`."""

    names: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.names.set(
            state, _names(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal))
        )

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        names = self.names.get(op)
        assert isinstance(names, ArrayAttr)
        state.print_whitespace(printer)
        printer.print_string("[")
        printer.print_list(names.data, lambda n: printer.print_string_literal(n.data))  # type: ignore[attr-defined]
        printer.print_string("]")


def _names(vs: Sequence[str]) -> ArrayAttr:
    return ArrayAttr([StringAttr(v) for v in vs])


# ---------------------------------------------------------------------------------------
# Table entries
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class RegionOp(IRDLOperation):
    """`npu.region <id> size = <bytes>`: one entry of the allocation table."""

    name = "npu.region"
    region = prop_def(StringAttr)
    size = prop_def(IntegerAttr[I64])
    traits = lazy_traits_def(lambda: (HasParent(ModelOp),))
    custom_directives = (RegionId, Count)
    assembly_format = "custom<RegionId>($region) `size` `=` custom<Count>($size) attr-dict"

    def __init__(self, region: str, size: int):
        super().__init__(properties={"region": StringAttr(region), "size": IntegerAttr(size, i64)})


class _TableEntry(IRDLOperation):
    tensor = prop_def(StringAttr)
    addr = prop_def(AddrAttr)
    traits = lazy_traits_def(lambda: (HasParent(ModelOp),))
    custom_directives = (Addr,)

    @property
    def tensor_name(self) -> str:
        return self.tensor.data


@irdl_op_definition
class TensorOp(_TableEntry):
    """`npu.tensor "<name>" at #npu.addr<...>`: a buffer a task writes, or a model input."""

    name = "npu.tensor"
    assembly_format = "$tensor `at` custom<Addr>($addr) attr-dict"

    def __init__(self, tensor: str, addr: AddrAttr, attributes: dict[str, Attribute] | None = None):
        super().__init__(properties={"tensor": StringAttr(tensor), "addr": addr}, attributes=attributes or {})


# An npu.alias's attribute naming the operands of its view's semantics where they are more
# than the tensors it is made of (a Reshape views its input 0; its shape input is a parameter).
VIEW_OPERANDS = "view_operands"


@irdl_op_definition
class AliasOp(_TableEntry):
    """`npu.alias "<name>" at #npu.addr<...> of ["t0", ...]`: the output of a node with no
    task, a view made of the listed tensors (GE: NoNeedGenTask nodes keep only addresses)."""

    name = "npu.alias"
    sources = prop_def(ArrayAttr[StringAttr])
    custom_directives = (Addr, TensorNames)
    assembly_format = "$tensor `at` custom<Addr>($addr) `of` custom<TensorNames>($sources) attr-dict"

    def __init__(
        self, tensor: str, addr: AddrAttr, sources: Sequence[str], attributes: dict[str, Attribute] | None = None
    ):
        super().__init__(
            properties={
                "tensor": StringAttr(tensor),
                "addr": addr,
                "sources": ArrayAttr([StringAttr(s) for s in sources]),
            },
            attributes=attributes or {},
        )

    @property
    def source_names(self) -> list[str]:
        return [s.data for s in self.sources.data]

    @property
    def view_operand_names(self) -> list[str]:
        """The operands of the alias's `view` semantics: its `view_operands` attribute (a
        reshape-family node's input 0 and its shape input), else its sources."""
        ops = self.attributes.get(VIEW_OPERANDS)
        if isinstance(ops, ArrayAttr):
            return [s.data for s in ops.data if isinstance(s, StringAttr)]
        return self.source_names


@irdl_op_definition
class ConstOp(_TableEntry):
    """`npu.const "<name>" at #npu.addr<weight|var, ...> = dense<...> : tensor<...>`:
    a weight (copied at load) or a variable's initial value."""

    name = "npu.const"
    value = prop_def(DenseIntOrFPElementsAttr)
    custom_directives = (Addr, DenseValue)
    assembly_format = "$tensor `at` custom<Addr>($addr) `=` custom<DenseValue>($value) attr-dict"

    def __init__(
        self,
        tensor: str,
        addr: AddrAttr,
        value: DenseIntOrFPElementsAttr,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={"tensor": StringAttr(tensor), "addr": addr, "value": value}, attributes=attributes or {}
        )

    def verify_(self) -> None:
        if self.addr.region.data not in ("weight", "var"):
            raise VerifyException(f"a constant lives in region weight or var, not {self.addr.region.data}")
        need = raw_bytes(self.value.get_type())
        if self.addr.length.data < need:
            raise VerifyException(f"address {self.addr} holds {self.addr.length.data} bytes, the value needs {need}")


# ---------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------

KERNEL_KINDS = ("library", "ascgraph")


@irdl_op_definition
class KernelDefOp(IRDLOperation):
    """`npu.kernel_def @sym = library "<GE type>" {attrs} : (ins) -> (outs)` or
    `npu.kernel_def @sym = ascgraph : (ins) -> (outs) { ascgraph.graph ... }`."""

    name = "npu.kernel_def"
    sym_name = prop_def(StringAttr)
    kind = prop_def(StringAttr)
    ge_type = opt_prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    body = region_def()
    traits = lazy_traits_def(lambda: (SymbolOpInterface(), IsolatedFromAbove(), NoTerminator(), HasParent(ModelOp)))
    # Custom syntax, not assembly_format: the form depends on the value of `kind` (a GE
    # type and an attribute dict, printed even when empty, for a library kernel; a body
    # for an ascgraph one), which a declarative format's optional groups cannot key on.

    def __init__(
        self,
        sym: str,
        kind: str,
        function_type: FunctionType,
        ge_type: str | None = None,
        body: Region | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(sym),
            "kind": StringAttr(kind),
            "function_type": function_type,
        }
        if ge_type is not None:
            props["ge_type"] = StringAttr(ge_type)
        super().__init__(
            properties=props, regions=[body if body is not None else Region()], attributes=attributes or {}
        )

    @classmethod
    def parse(cls, parser: Parser) -> KernelDefOp:
        sym = parser.parse_symbol_name().data
        parser.parse_punctuation("=")
        kpos = parser.pos
        kind = parser.parse_identifier("kernel kind (library or ascgraph)")
        if kind not in KERNEL_KINDS:
            parser.raise_error(f"unknown kernel kind '{kind}' (expected library or ascgraph)", kpos, parser.pos)
        ge_type = parser.parse_str_literal() if kind == "library" else None
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ins = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        outs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        body = parser.parse_optional_region() if kind == "ascgraph" else None
        return KernelDefOp(sym, kind, FunctionType.from_lists(ins, outs), ge_type, body, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(f" = {self.kind.data}")
        if self.ge_type is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.ge_type.data)
        if self.attributes or self.kind.data == "library":
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        keep = A.keeping(printer)
        ins = None if keep is None else A.types_text(keep, self.function_type.inputs.data)
        outs = None if keep is None else A.types_text(keep, self.function_type.outputs.data)
        if ins is not None and outs is not None:
            printer.print_string(f" : ({ins}) -> ({outs})")  # the same text, from kept texts
        else:
            printer.print_string(" : (")
            printer.print_list(self.function_type.inputs.data, printer.print_attribute)
            printer.print_string(") -> (")
            printer.print_list(self.function_type.outputs.data, printer.print_attribute)
            printer.print_string(")")
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        for what, types in (("input", self.function_type.inputs.data), ("output", self.function_type.outputs.data)):
            for i, t in enumerate(types):
                if not isinstance(t, TensorType) or any(d < 0 for d in t.get_shape()):
                    raise VerifyException(f"kernel {what} {i} must be a static tensor type, got {t}")
        if self.kind.data == "library":
            if self.ge_type is None:
                raise VerifyException("a library kernel names its GE type")
            if self.body.blocks:
                raise VerifyException("a library kernel has no body")
            return
        if self.ge_type is not None:
            raise VerifyException("an ascgraph kernel has no GE type: its body is the kernel")
        ops = list(self.body.block.ops) if len(self.body.blocks) == 1 else []
        if len(ops) != 1 or not isinstance(ops[0], AscGraphOp):
            raise VerifyException("an ascgraph kernel's body holds exactly one ascgraph.graph")
        graph = ops[0]
        # len(graph.data_nodes()), len(graph.output_nodes()): counted, not sorted
        n_data = n_out = 0
        for node in graph.body.block.ops:
            if isinstance(node, Data):
                n_data += 1
            elif isinstance(node, Output):
                n_out += 1
        if (n_data, n_out) != (len(self.function_type.inputs), len(self.function_type.outputs)):
            raise VerifyException(
                f"the AscGraph has {n_data} Data and {n_out} Output nodes, the kernel type "
                f"{len(self.function_type.inputs)} inputs and {len(self.function_type.outputs)} outputs"
            )

    def asc_graph(self) -> Operation:
        return self.body.block.first_op  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------------------


class TaskOp(IRDLOperation):
    """Base of the task ops; each one's docstring names its GE task type (runtime_model_ge.h)."""

    traits = lazy_traits_def(lambda: (HasParent(StreamOp),))

    def footprint(self) -> tuple[list[tuple[str, AddrAttr]], list[tuple[str, AddrAttr]]]:
        return [], []


class _MoveTask(TaskOp):
    in_tensors = prop_def(ArrayAttr[StringAttr])
    in_addrs = prop_def(ArrayAttr[AddrAttr])
    out_tensors = prop_def(ArrayAttr[StringAttr])
    out_addrs = prop_def(ArrayAttr[AddrAttr])
    custom_directives = (Operands,)

    def footprint(self) -> tuple[list[tuple[str, AddrAttr]], list[tuple[str, AddrAttr]]]:
        ins = [(n.data, a) for n, a in zip(self.in_tensors.data, self.in_addrs.data)]
        outs = [(n.data, a) for n, a in zip(self.out_tensors.data, self.out_addrs.data)]
        return ins, outs

    def _verify_lists(self) -> None:
        if len(self.in_tensors) != len(self.in_addrs) or len(self.out_tensors) != len(self.out_addrs):
            raise VerifyException("each operand names one tensor and one address")


@irdl_op_definition
class KernelOp(_MoveTask):
    """`npu.kernel @kernel ins("t" at #npu.addr<...>, ...) outs(...)`: KERNEL / ALL_KERNEL."""

    name = "npu.kernel"
    kernel = prop_def(SymbolRefAttr)
    assembly_format = (
        "$kernel `ins` custom<Operands>($in_tensors, $in_addrs) `outs` custom<Operands>($out_tensors, $out_addrs) "
        "attr-dict"
    )

    def __init__(
        self,
        kernel: str,
        ins: Sequence[tuple[str, AddrAttr]],
        outs: Sequence[tuple[str, AddrAttr]],
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={
                "kernel": SymbolRefAttr(kernel),
                "in_tensors": _names([n for n, _ in ins]),
                "in_addrs": ArrayAttr([a for _, a in ins]),
                "out_tensors": _names([n for n, _ in outs]),
                "out_addrs": ArrayAttr([a for _, a in outs]),
            },
            attributes=attributes or {},
        )

    def verify_(self) -> None:
        self._verify_lists()


@irdl_op_definition
class MemcpyOp(_MoveTask):
    """`npu.memcpy ins("t" at src) outs("u" at dst)`: MEMCPY_ASYNC, device to device."""

    name = "npu.memcpy"
    custom_directives = (MemcpyOperand,)
    assembly_format = (
        "`ins` custom<MemcpyOperand>($in_tensors, $in_addrs) `outs` custom<MemcpyOperand>($out_tensors, $out_addrs) "
        "attr-dict"
    )

    def __init__(
        self, src: tuple[str, AddrAttr], dst: tuple[str, AddrAttr], attributes: dict[str, Attribute] | None = None
    ):
        super().__init__(
            properties={
                "in_tensors": _names([src[0]]),
                "in_addrs": ArrayAttr([src[1]]),
                "out_tensors": _names([dst[0]]),
                "out_addrs": ArrayAttr([dst[1]]),
            },
            attributes=attributes or {},
        )

    def verify_(self) -> None:
        self._verify_lists()
        if len(self.in_addrs) != 1 or len(self.out_addrs) != 1:
            raise VerifyException("a memcpy has one source and one destination")
        src, dst = self.in_addrs.data[0], self.out_addrs.data[0]
        # MemcpyAsyncTaskInfo: count <= dst_max
        if src.length.data != dst.length.data:
            raise VerifyException(
                f"memcpy copies {src.length.data} bytes from {src} into {dst.length.data} bytes at {dst}"
            )


class _IdTask(TaskOp):
    KEY: ClassVar[str] = ""
    custom_directives = (Count,)

    @property
    def id(self) -> int:
        return self.properties[self.KEY].value.data  # type: ignore[attr-defined]


@irdl_op_definition
class EventRecordOp(_IdTask):
    """`npu.event_record <e>`: EVENT_RECORD (rts Send)."""

    name = "npu.event_record"
    KEY: ClassVar = "event"
    event = prop_def(IntegerAttr[I64])
    assembly_format = "custom<Count>($event) attr-dict"

    def __init__(self, event: int):
        super().__init__(properties={"event": IntegerAttr(event, i64)})


@irdl_op_definition
class EventWaitOp(_IdTask):
    """`npu.event_wait <e>`: EVENT_WAIT followed by the event's reset (rts Recv)."""

    name = "npu.event_wait"
    KEY: ClassVar = "event"
    event = prop_def(IntegerAttr[I64])
    assembly_format = "custom<Count>($event) attr-dict"

    def __init__(self, event: int):
        super().__init__(properties={"event": IntegerAttr(event, i64)})


@irdl_op_definition
class StreamActiveOp(_IdTask):
    """`npu.stream_active <s>`: STREAM_ACTIVE, starts stream s."""

    name = "npu.stream_active"
    KEY: ClassVar = "target"
    target = prop_def(IntegerAttr[I64])
    assembly_format = "custom<Count>($target) attr-dict"

    def __init__(self, target: int):
        super().__init__(properties={"target": IntegerAttr(target, i64)})


class _LabelTask(_IdTask):
    """A task that names one label of its stream (`npu.<op> <l>`): its property, syntax
    and builder, shared as xDSL's arith binary ops share theirs in a base class."""

    KEY: ClassVar = "label"
    label = prop_def(IntegerAttr[I64])
    assembly_format = "custom<Count>($label) attr-dict"

    def __init__(self, label: int, attributes: dict[str, Attribute] | None = None):
        super().__init__(properties={"label": IntegerAttr(label, i64)}, attributes=attributes or {})


@irdl_op_definition
class LabelSetOp(_LabelTask):
    """`npu.label_set <l>`: LABEL_SET, binds label l to this position of its stream
    (rts label_set_op.cc; rtLabelSet). Runs as a no-op; a jump to l continues here."""

    name = "npu.label_set"


@irdl_op_definition
class LabelGotoOp(_LabelTask):
    """`npu.label_goto <l>`: LABEL_GOTO_EX (rts label_goto_ex_op.cc; rtLabelGotoEx), an
    unconditional jump to label l on the same stream."""

    name = "npu.label_goto"


@irdl_op_definition
class LabelSwitchByIndexOp(_MoveTask):
    """`npu.label_switch_by_index ins("i" at addr) outs(...) labels [l0, l1, ...]`:
    LABEL_SWITCH_BY_INDEX (rts label_switch_by_index_op.cc; rtLabelSwitchByIndex): reads
    the int32 index at `ins`, jumps to labels[index] (an index at or above the label count,
    or negative, takes the last label: ours, GE's runtime leaves it open; it gives If's
    "non-zero is true" with labels [else, then] and Case's "out of range takes the last
    branch"). `outs` are the parent node's outputs the branch taken must write (an If's or
    a Case's): until a task writes them, a read of their bytes is a fault."""

    name = "npu.label_switch_by_index"
    labels = prop_def(ArrayAttr[IntegerAttr[I64]])
    assembly_format = (
        "`ins` custom<Operands>($in_tensors, $in_addrs) `outs` custom<Operands>($out_tensors, $out_addrs) "
        "`labels` $labels attr-dict"
    )

    def __init__(
        self,
        index: tuple[str, AddrAttr],
        labels: Sequence[int],
        outs: Sequence[tuple[str, AddrAttr]] = (),
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={
                "in_tensors": _names([index[0]]),
                "in_addrs": ArrayAttr([index[1]]),
                "out_tensors": _names([n for n, _ in outs]),
                "out_addrs": ArrayAttr([a for _, a in outs]),
                "labels": ArrayAttr([IntegerAttr(x, i64) for x in labels]),
            },
            attributes=attributes or {},
        )

    def footprint(self) -> tuple[list[tuple[str, AddrAttr]], list[tuple[str, AddrAttr]]]:
        # the branch outputs are not written by the switch (the branch taken writes them)
        ins, _ = super().footprint()
        return ins, []

    def branch_outputs(self) -> list[tuple[str, AddrAttr]]:
        return [(n.data, a) for n, a in zip(self.out_tensors.data, self.out_addrs.data)]

    def label_ids(self) -> list[int]:
        return [x.value.data for x in self.labels.data]

    def verify_(self) -> None:
        self._verify_lists()
        if len(self.in_addrs) != 1 or not self.labels.data:
            raise VerifyException("a label_switch_by_index reads one index and has at least one label")
        if self.in_addrs.data[0].length.data < 4:
            raise VerifyException(f"the index at {self.in_addrs.data[0]} is shorter than an int32")


@irdl_op_definition
class EndGraphOp(TaskOp):
    """`npu.end_graph`: MODEL_END_GRAPH, the model's completion."""

    name = "npu.end_graph"
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class StreamOp(IRDLOperation):
    """`npu.stream <id> { tasks }`: one stream's task list in program order."""

    name = "npu.stream"
    stream = prop_def(IntegerAttr[I64])
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (NoTerminator(), HasParent(ModelOp)))
    # Custom syntax, not assembly_format: an empty body `{}` parses to a region with no
    # block, which the declarative format keeps (and the single-block region then fails
    # to verify); this parser adds the empty block, as builtin.module's does.

    def __init__(self, stream: int, tasks: Sequence[Operation] = ()):
        super().__init__(properties={"stream": IntegerAttr(stream, i64)}, regions=[Region(Block(tasks))])

    @classmethod
    def parse(cls, parser: Parser) -> StreamOp:
        n = parser.parse_integer(allow_negative=False)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        return StreamOp.create(
            properties={"stream": IntegerAttr(n, i64)}, regions=[body], attributes=attributes.data if attributes else {}
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.stream.value.data}")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        for op in self.body.block.ops:
            if not isinstance(op, TaskOp):
                raise VerifyException(f"a stream holds tasks only, got {op.name}")

    @property
    def tasks(self) -> list[TaskOp]:
        return list(self.body.block.ops)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------


def _check_addr(addr: AddrAttr, what: str, regions: dict[str, int], passed: dict[int, AddrAttr]) -> None:
    """An address lies in a declared region (GenMemAllocations' table, docs/ge/executor.md).
    `passed`: the addresses that passed against these `regions`, by identity (an AddrAttr is
    immutable and the model's tensors and tasks share them: ge-to-npu builds each distinct
    address once), each held; only passes are kept, so a failing one fails at each use."""
    if passed.get(id(addr)) is addr:
        return
    r = addr.region.data
    if r not in regions:
        raise VerifyException(f"{what}: address {addr} is in region {r}, which the model does not declare")
    if addr.end > regions[r]:
        raise VerifyException(
            f"{what}: address {addr} ends at byte {addr.end}, beyond region {r} of {regions[r]} bytes"
        )
    passed[id(addr)] = addr


@dataclass
class _TaskWalk:
    """What the walk over the tasks collects for the cross-stream rules."""

    records: dict[int, int] = field(default_factory=dict)  # event -> recording stream
    waits: dict[int, int] = field(default_factory=dict)  # event -> waiting stream
    activated: set[int] = field(default_factory=set)  # streams a stream_active targets
    end_graphs: list[tuple[int, int]] = field(default_factory=list)  # (stream, task position)
    label_sets: dict[int, int] = field(default_factory=dict)  # label -> the stream that sets it
    jumps: list[tuple[int, int, str]] = field(default_factory=list)  # (label, stream, task) of gotos / switches
    addrs: dict[int, AddrAttr] = field(default_factory=dict)  # _check_addr's passes
    sizes: dict[int, tuple[Attribute, int]] = field(default_factory=dict)  # id(type) -> (type, raw_bytes)


@irdl_op_definition
class ModelOp(IRDLOperation):
    """`npu.model @name streams = N events = M attributes {...} { table, kernels, streams }`."""

    name = "npu.model"
    sym_name = prop_def(StringAttr)
    streams = prop_def(IntegerAttr[I64])
    events = prop_def(IntegerAttr[I64])
    body = region_def("single_block")
    traits = traits_def(SymbolOpInterface(), NoTerminator())
    # Custom syntax, not assembly_format: an empty body, as for npu.stream.

    def __init__(
        self,
        name: str,
        streams: int,
        events: int,
        ops: Sequence[Operation] = (),
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "streams": IntegerAttr(streams, i64),
                "events": IntegerAttr(events, i64),
            },
            regions=[Region(Block(ops))],
            attributes=attributes or {},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ModelOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("streams")
        parser.parse_punctuation("=")
        streams = parser.parse_integer(allow_negative=False)
        parser.parse_keyword("events")
        parser.parse_punctuation("=")
        events = parser.parse_integer(allow_negative=False)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        return ModelOp.create(
            properties={
                "sym_name": StringAttr(name),
                "streams": IntegerAttr(streams, i64),
                "events": IntegerAttr(events, i64),
            },
            regions=[body],
            attributes=attrs.data if attrs is not None else {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(f" streams = {self.streams.value.data} events = {self.events.value.data}")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    # -- queries ------------------------------------------------------------------------

    def regions_table(self) -> dict[str, int]:
        return {op.region.data: op.size.value.data for op in self.body.block.ops if isinstance(op, RegionOp)}

    def table(self) -> Iterator[_TableEntry]:
        for op in self.body.block.ops:
            if isinstance(op, _TableEntry):
                yield op

    def kernel_defs(self) -> dict[str, KernelDefOp]:
        return {op.sym_name.data: op for op in self.body.block.ops if isinstance(op, KernelDefOp)}

    def stream_ops(self) -> list[StreamOp]:
        return sorted((op for op in self.body.block.ops if isinstance(op, StreamOp)), key=lambda s: s.stream.value.data)

    # -- verification ---------------------------------------------------------------------
    # One function per rule, in the order GE's loader meets them (docs/ge/executor.md,
    # DavinciModel::Init): the allocation table, the tensors in it, the streams, each
    # task's TaskInfo::Init, then the cross-stream rules (events, BindModelStream, the end).

    def verify_(self) -> None:
        regions = self._verify_allocation_table()
        walk = _TaskWalk()
        names = self._verify_tensor_table(regions, walk.addrs)
        streams = self._verify_stream_ids()
        kernels = self.kernel_defs()
        for s in streams:
            for pos, t in enumerate(s.tasks):
                what = f"stream {s.stream.value.data} task {pos} ({t.name})"
                self._init_task_info(t, s.stream.value.data, pos, what, regions, names, kernels, walk)
        self._verify_event_pairs(walk)
        self._verify_labels(walk)
        self._bind_model_stream(walk)
        self._verify_end_graph(streams, walk)

    def _verify_allocation_table(self) -> dict[str, int]:
        """The logical allocation table (GenMemAllocations, docs/ge/executor.md): each region
        declared once; the model body holds only table entries, kernels and streams."""
        regions: dict[str, int] = {}
        for op in self.body.block.ops:
            if isinstance(op, RegionOp):
                if op.region.data in regions:
                    raise VerifyException(f"region {op.region.data} is declared twice")
                regions[op.region.data] = op.size.value.data
            elif not isinstance(op, _TableEntry | KernelDefOp | StreamOp):
                raise VerifyException(f"an npu.model holds regions, tensors, kernels and streams, got {op.name}")
        return regions

    def _verify_tensor_table(self, regions: dict[str, int], passed: dict[int, AddrAttr]) -> set[str]:
        """Tensor names are unique, each address lies in a declared region, and an alias is
        made of declared tensors. Returns the names."""
        names: set[str] = set()
        for e in self.table():
            what = f'{e.name} "{e.tensor_name}"'
            if e.tensor_name in names:
                raise VerifyException(f"{what}: tensor name declared twice")
            names.add(e.tensor_name)
            _check_addr(e.addr, what, regions, passed)
        for e in self.table():
            if isinstance(e, AliasOp):
                for s in e.source_names:
                    if s not in names:
                        raise VerifyException(f'npu.alias "{e.tensor_name}": source tensor "{s}" is not in the table')
                for s in e.view_operand_names:
                    if s not in names:
                        raise VerifyException(f'npu.alias "{e.tensor_name}": view operand "{s}" is not in the table')
        return names

    def _verify_stream_ids(self) -> list[StreamOp]:
        """InitRuntimeResource creates `stream_num` streams: the npu.stream ids are
        0..streams-1, each once. Returns the streams by id."""
        streams = self.stream_ops()
        n_streams = self.streams.value.data
        ids = [s.stream.value.data for s in streams]
        if ids != list(range(n_streams)):
            raise VerifyException(
                f"the model declares {n_streams} streams, its npu.stream ids are {ids} (expected 0..{n_streams - 1})"
            )
        return streams

    def _init_task_info(
        self,
        t: TaskOp,
        sid: int,
        pos: int,
        what: str,
        regions: dict[str, int],
        names: set[str],
        kernels: dict[str, KernelDefOp],
        walk: _TaskWalk,
    ) -> None:
        """One task's TaskInfo::Init: its operands name table tensors at declared
        addresses, a kernel matches its kernel_def, an event or stream id is in range."""
        if isinstance(t, _MoveTask):
            ins, outs = t.footprint()
            for n, a in (*ins, *outs):
                if n not in names:
                    raise VerifyException(f'{what}: tensor "{n}" is not in the model\'s table')
                _check_addr(a, what, regions, walk.addrs)
        if isinstance(t, KernelOp):
            self._verify_kernel(t, kernels, what, walk.sizes)
        elif isinstance(t, EventRecordOp | EventWaitOp):
            self._init_event_task(t, sid, what, walk)
        elif isinstance(t, StreamActiveOp):
            self._init_stream_active_task(t, sid, what, walk)
        elif isinstance(t, EndGraphOp):
            walk.end_graphs.append((sid, pos))
        elif isinstance(t, LabelSetOp):
            # LabelSetTaskInfo::Init: a label is bound to one position (rtLabelSet once)
            if t.id in walk.label_sets:
                raise VerifyException(f"{what}: label {t.id} is set twice")
            walk.label_sets[t.id] = sid
        elif isinstance(t, LabelGotoOp):
            walk.jumps.append((t.id, sid, what))
        if isinstance(t, LabelSwitchByIndexOp):
            walk.jumps.extend((x, sid, what) for x in t.label_ids())

    def _init_event_task(self, t: EventRecordOp | EventWaitOp, sid: int, what: str, walk: _TaskWalk) -> None:
        """EventRecordTaskInfo / EventWaitTaskInfo::Init: the event id is below `events`
        (GE fails `event_id >= eventList.size()`). Here events are one-shot (each wait
        resets its event), so each is recorded once and waited once."""
        e, n_events = t.event.value.data, self.events.value.data
        if e >= n_events:
            raise VerifyException(f"{what}: event {e} is not below the model's {n_events} events")
        table = walk.records if isinstance(t, EventRecordOp) else walk.waits
        if e in table:
            verb = "recorded" if isinstance(t, EventRecordOp) else "waited"
            raise VerifyException(
                f"{what}: event {e} is {verb} twice (streams {table[e]} and {sid}); events are one-shot"
            )
        table[e] = sid

    def _init_stream_active_task(self, t: StreamActiveOp, sid: int, what: str, walk: _TaskWalk) -> None:
        """StreamActiveTaskInfo::Init: the target is below `streams` (GE fails
        `active_stream_index >= stream size`); here also another stream than its own, and
        not the head stream 0 (see _bind_model_stream)."""
        tgt, n_streams = t.target.value.data, self.streams.value.data
        if tgt >= n_streams or tgt == sid or tgt == 0:
            raise VerifyException(
                f"{what}: stream_active targets stream {tgt}; it must name another non-head stream below {n_streams}"
            )
        walk.activated.add(tgt)

    def _verify_event_pairs(self, walk: _TaskWalk) -> None:
        """EventRecordTaskInfo / EventWaitTaskInfo: each wait consumes (resets) the event, so
        every recorded event is waited, on another stream, and every waited one recorded."""
        records, waits = walk.records, walk.waits
        for e in range(self.events.value.data):
            if e in records and e not in waits:
                raise VerifyException(f"event {e} is recorded on stream {records[e]} but never waited")
            if e in waits and e not in records:
                raise VerifyException(
                    f"event {e} is waited on stream {waits[e]} but never recorded: the stream would deadlock"
                )
            if e in waits and records[e] == waits[e]:
                raise VerifyException(f"event {e} is recorded and waited on the same stream {waits[e]}")

    @staticmethod
    def _verify_labels(walk: _TaskWalk) -> None:
        """LabelGotoExTaskInfo / LabelSwitchByIndexTaskInfo::Init: every label a jump names
        is set, on the jump's own stream (a label is a position of one stream)."""
        for label, sid, what in walk.jumps:
            at = walk.label_sets.get(label)
            if at is None:
                raise VerifyException(f"{what}: jumps to label {label}, which no label_set sets")
            if at != sid:
                raise VerifyException(f"{what}: jumps to label {label}, which is set on stream {at}, not on {sid}")

    def _bind_model_stream(self, walk: _TaskWalk) -> None:
        """DavinciModel::BindModelStream: streams not targeted by an activation are HEAD
        streams; only stream 0 is a head stream here, every other one is activated."""
        for sid in range(1, self.streams.value.data):
            if sid not in walk.activated:
                raise VerifyException(f"stream {sid} is never activated by a stream_active: its tasks would never run")

    @staticmethod
    def _verify_end_graph(streams: list[StreamOp], walk: _TaskWalk) -> None:
        """MODEL_END_GRAPH: the model has one, the last task of stream 0."""
        main_len = len(streams[0].tasks) if streams else 0
        if walk.end_graphs != [(0, main_len - 1)]:
            where = ", ".join(f"stream {s} task {p}" for s, p in walk.end_graphs) or "none"
            raise VerifyException(f"the model has one npu.end_graph, the last task of stream 0 (found: {where})")

    @staticmethod
    def _verify_kernel(
        t: KernelOp, kernels: dict[str, KernelDefOp], what: str, sizes: dict[int, tuple[Attribute, int]]
    ) -> None:
        sym = t.kernel.root_reference.data
        k = kernels.get(sym)
        if k is None:
            raise VerifyException(f"{what}: kernel @{sym} is not defined in the model")
        ft = k.function_type
        if len(t.in_addrs) != len(ft.inputs) or len(t.out_addrs) != len(ft.outputs):
            raise VerifyException(
                f"{what}: kernel @{sym} takes {len(ft.inputs)} inputs and {len(ft.outputs)} outputs, "
                f"the task passes {len(t.in_addrs)} and {len(t.out_addrs)}"
            )
        for kind, types, addrs in (
            ("input", ft.inputs.data, t.in_addrs.data),
            ("output", ft.outputs.data, t.out_addrs.data),
        ):
            for i, (ty, a) in enumerate(zip(types, addrs)):
                known = sizes.get(id(ty))  # raw_bytes once per type object, held
                if known is not None and known[0] is ty:
                    need = known[1]
                else:
                    need = raw_bytes(ty)
                    sizes[id(ty)] = (ty, need)
                if a.length.data < need:
                    raise VerifyException(
                        f"{what}: {kind} {i} of @{sym} is {ty} ({need} bytes), its address {a} holds {a.length.data}"
                    )


NPU = Dialect(
    "npu",
    [
        ModelOp,
        RegionOp,
        TensorOp,
        AliasOp,
        ConstOp,
        KernelDefOp,
        StreamOp,
        KernelOp,
        MemcpyOp,
        EventRecordOp,
        EventWaitOp,
        StreamActiveOp,
        LabelSetOp,
        LabelGotoOp,
        LabelSwitchByIndexOp,
        EndGraphOp,
    ],
    [AddrAttr],
)
