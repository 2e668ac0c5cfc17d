"""The npu dialect: a loaded-once task program, as GE's task generator hands it to the
static executor (ge_executor.md §8: model header, regions, tasks per stream).

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

* Regions (GE's logical allocation table, ge_executor.md §3.4): `fm` (the feature-map
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
  (STREAM_ACTIVE), `npu.end_graph` (MODEL_END_GRAPH). Each kernel/memcpy operand is
  `"<tensor>" at #npu.addr<...>`: which tensor of the table it reads or writes and where.

Verifier rules (messages name the task and the address): tasks sit in a stream, and
table entries, kernel_defs and streams in the model (HasParent); every address lies inside its
region and regions are declared once; tensor names are unique and aliases refer to
declared tensors; a kernel names a kernel_def and has its arity; an operand address is at
least its tensor type's bytes; a memcpy copies one range to an equally long one; event
ids are below `events`, each recorded once and waited once on another stream; stream ids
are 0..streams-1, stream 0 is the head stream and every other stream is the target of a
stream_active; stream 0 ends with the model's one end_graph.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
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
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from ge_dialect.ascgraph import AscGraphOp
from ge_dialect.dtypes import numpy_dtype

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
    return math.prod(t.get_shape()) * numpy_dtype(t.element_type).itemsize


# ---------------------------------------------------------------------------------------
# Table entries
# ---------------------------------------------------------------------------------------


def _print_attrs(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_string(" ")
        printer.print_attr_dict(op.attributes)


@irdl_op_definition
class RegionOp(IRDLOperation):
    """`npu.region <id> size = <bytes>`: one entry of the allocation table."""

    name = "npu.region"
    region = prop_def(StringAttr)
    size = prop_def(IntAttr)
    traits = lazy_traits_def(lambda: (HasParent(ModelOp),))

    def __init__(self, region: str, size: int):
        super().__init__(properties={"region": StringAttr(region), "size": IntAttr(size)})

    @classmethod
    def parse(cls, parser: Parser) -> RegionOp:
        region = _parse_region_id(parser)
        parser.parse_keyword("size")
        parser.parse_punctuation("=")
        size = parser.parse_integer(allow_negative=False)
        op = RegionOp(region, size)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.region.data} size = {self.size.data}")
        _print_attrs(printer, self)


class _TableEntry(IRDLOperation):
    tensor = prop_def(StringAttr)
    addr = prop_def(AddrAttr)
    traits = lazy_traits_def(lambda: (HasParent(ModelOp),))

    @property
    def tensor_name(self) -> str:
        return self.tensor.data


@irdl_op_definition
class TensorOp(_TableEntry):
    """`npu.tensor "<name>" at #npu.addr<...>`: a buffer a task writes, or a model input."""

    name = "npu.tensor"

    def __init__(self, tensor: str, addr: AddrAttr, attributes: dict[str, Attribute] | None = None):
        super().__init__(properties={"tensor": StringAttr(tensor), "addr": addr}, attributes=attributes or {})

    @classmethod
    def parse(cls, parser: Parser) -> TensorOp:
        name = parser.parse_str_literal()
        parser.parse_keyword("at")
        addr = parser.parse_attribute()
        if not isinstance(addr, AddrAttr):
            parser.raise_error(f"expected #npu.addr<...>, got {addr}")
        op = TensorOp(name, addr)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.tensor.data)
        printer.print_string(" at ")
        printer.print_attribute(self.addr)
        _print_attrs(printer, self)


@irdl_op_definition
class AliasOp(_TableEntry):
    """`npu.alias "<name>" at #npu.addr<...> of ["t0", ...]`: the output of a node with no
    task, a view made of the listed tensors (GE: NoNeedGenTask nodes keep only addresses)."""

    name = "npu.alias"
    sources = prop_def(ArrayAttr[StringAttr])

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

    @classmethod
    def parse(cls, parser: Parser) -> AliasOp:
        name = parser.parse_str_literal()
        parser.parse_keyword("at")
        addr = parser.parse_attribute()
        if not isinstance(addr, AddrAttr):
            parser.raise_error(f"expected #npu.addr<...>, got {addr}")
        parser.parse_keyword("of")
        srcs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal)
        op = AliasOp(name, addr, srcs)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.tensor.data)
        printer.print_string(" at ")
        printer.print_attribute(self.addr)
        printer.print_string(" of [")
        printer.print_list(self.sources.data, lambda s: printer.print_string_literal(s.data))
        printer.print_string("]")
        _print_attrs(printer, self)

    @property
    def source_names(self) -> list[str]:
        return [s.data for s in self.sources.data]


@irdl_op_definition
class ConstOp(_TableEntry):
    """`npu.const "<name>" at #npu.addr<weight|var, ...> = dense<...> : tensor<...>`:
    a weight (copied at load) or a variable's initial value."""

    name = "npu.const"
    value = prop_def(DenseIntOrFPElementsAttr)

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

    @classmethod
    def parse(cls, parser: Parser) -> ConstOp:
        name = parser.parse_str_literal()
        parser.parse_keyword("at")
        addr = parser.parse_attribute()
        if not isinstance(addr, AddrAttr):
            parser.raise_error(f"expected #npu.addr<...>, got {addr}")
        parser.parse_punctuation("=")
        vpos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(f"expected dense<...> : tensor<...>, got {value}", vpos, parser.pos)
        op = ConstOp(name, addr, value)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.tensor.data)
        printer.print_string(" at ")
        printer.print_attribute(self.addr)
        printer.print_string(" = ")
        printer.print_attribute(self.value)
        _print_attrs(printer, self)

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
        n_data, n_out = len(graph.data_nodes()), len(graph.output_nodes())
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


def _parse_operands(parser: Parser, keyword: str) -> tuple[list[str], list[AddrAttr]]:
    parser.parse_keyword(keyword)

    def one() -> tuple[str, AddrAttr]:
        name = parser.parse_str_literal()
        parser.parse_keyword("at")
        pos = parser.pos
        addr = parser.parse_attribute()
        if not isinstance(addr, AddrAttr):
            parser.raise_error(f"expected #npu.addr<...>, got {addr}", pos, parser.pos)
        return name, addr

    items = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
    return [n for n, _ in items], [a for _, a in items]


def _print_operands(printer: Printer, keyword: str, names: ArrayAttr, addrs: ArrayAttr) -> None:
    printer.print_string(f" {keyword}(")

    def one(item: tuple[StringAttr, AddrAttr]) -> None:
        printer.print_string_literal(item[0].data)
        printer.print_string(" at ")
        printer.print_attribute(item[1])

    printer.print_list(list(zip(names.data, addrs.data)), one)
    printer.print_string(")")


def _names(vs: Sequence[str]) -> ArrayAttr:
    return ArrayAttr([StringAttr(v) for v in vs])


class _MoveTask(TaskOp):
    in_tensors = prop_def(ArrayAttr[StringAttr])
    in_addrs = prop_def(ArrayAttr[AddrAttr])
    out_tensors = prop_def(ArrayAttr[StringAttr])
    out_addrs = prop_def(ArrayAttr[AddrAttr])

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

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        sym = parser.parse_symbol_name().data
        in_names, in_addrs = _parse_operands(parser, "ins")
        out_names, out_addrs = _parse_operands(parser, "outs")
        op = KernelOp(sym, list(zip(in_names, in_addrs)), list(zip(out_names, out_addrs)))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.kernel.root_reference.data)
        _print_operands(printer, "ins", self.in_tensors, self.in_addrs)
        _print_operands(printer, "outs", self.out_tensors, self.out_addrs)
        _print_attrs(printer, self)

    def verify_(self) -> None:
        self._verify_lists()


@irdl_op_definition
class MemcpyOp(_MoveTask):
    """`npu.memcpy ins("t" at src) outs("u" at dst)`: MEMCPY_ASYNC, device to device."""

    name = "npu.memcpy"

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

    @classmethod
    def parse(cls, parser: Parser) -> MemcpyOp:
        pos = parser.pos
        in_names, in_addrs = _parse_operands(parser, "ins")
        out_names, out_addrs = _parse_operands(parser, "outs")
        if len(in_names) != 1 or len(out_names) != 1:
            parser.raise_error("a memcpy has one source and one destination", pos, parser.pos)
        op = MemcpyOp((in_names[0], in_addrs[0]), (out_names[0], out_addrs[0]))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        _print_operands(printer, "ins", self.in_tensors, self.in_addrs)
        _print_operands(printer, "outs", self.out_tensors, self.out_addrs)
        _print_attrs(printer, self)

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

    @classmethod
    def parse(cls, parser: Parser) -> _IdTask:
        n = parser.parse_integer(allow_negative=False)
        op = cls.create(properties={cls.KEY: IntAttr(n)})
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.properties[self.KEY].data}")  # type: ignore[attr-defined]
        _print_attrs(printer, self)

    @property
    def id(self) -> int:
        return self.properties[self.KEY].data  # type: ignore[attr-defined]


@irdl_op_definition
class EventRecordOp(_IdTask):
    """`npu.event_record <e>`: EVENT_RECORD (rts Send)."""

    name = "npu.event_record"
    KEY: ClassVar = "event"
    event = prop_def(IntAttr)

    def __init__(self, event: int):
        super().__init__(properties={"event": IntAttr(event)})


@irdl_op_definition
class EventWaitOp(_IdTask):
    """`npu.event_wait <e>`: EVENT_WAIT followed by the event's reset (rts Recv)."""

    name = "npu.event_wait"
    KEY: ClassVar = "event"
    event = prop_def(IntAttr)

    def __init__(self, event: int):
        super().__init__(properties={"event": IntAttr(event)})


@irdl_op_definition
class StreamActiveOp(_IdTask):
    """`npu.stream_active <s>`: STREAM_ACTIVE, starts stream s."""

    name = "npu.stream_active"
    KEY: ClassVar = "target"
    target = prop_def(IntAttr)

    def __init__(self, target: int):
        super().__init__(properties={"target": IntAttr(target)})


@irdl_op_definition
class EndGraphOp(TaskOp):
    """`npu.end_graph`: MODEL_END_GRAPH, the model's completion."""

    name = "npu.end_graph"

    def __init__(self) -> None:
        super().__init__()

    @classmethod
    def parse(cls, parser: Parser) -> EndGraphOp:
        op = EndGraphOp()
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        _print_attrs(printer, self)


@irdl_op_definition
class StreamOp(IRDLOperation):
    """`npu.stream <id> { tasks }`: one stream's task list in program order."""

    name = "npu.stream"
    stream = prop_def(IntAttr)
    body = region_def("single_block")
    traits = lazy_traits_def(lambda: (NoTerminator(), HasParent(ModelOp)))

    def __init__(self, stream: int, tasks: Sequence[Operation] = ()):
        super().__init__(properties={"stream": IntAttr(stream)}, regions=[Region(Block(tasks))])

    @classmethod
    def parse(cls, parser: Parser) -> StreamOp:
        n = parser.parse_integer(allow_negative=False)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        return StreamOp.create(
            properties={"stream": IntAttr(n)}, regions=[body], attributes=attributes.data if attributes else {}
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.stream.data}")
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


@irdl_op_definition
class ModelOp(IRDLOperation):
    """`npu.model @name streams = N events = M attributes {...} { table, kernels, streams }`."""

    name = "npu.model"
    sym_name = prop_def(StringAttr)
    streams = prop_def(IntAttr)
    events = prop_def(IntAttr)
    body = region_def("single_block")
    traits = traits_def(SymbolOpInterface(), NoTerminator())

    def __init__(
        self,
        name: str,
        streams: int,
        events: int,
        ops: Sequence[Operation] = (),
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={"sym_name": StringAttr(name), "streams": IntAttr(streams), "events": IntAttr(events)},
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
            properties={"sym_name": StringAttr(name), "streams": IntAttr(streams), "events": IntAttr(events)},
            regions=[body],
            attributes=attrs.data if attrs is not None else {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(f" streams = {self.streams.data} events = {self.events.data}")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    # -- queries ------------------------------------------------------------------------

    def regions_table(self) -> dict[str, int]:
        return {op.region.data: op.size.data for op in self.body.block.ops if isinstance(op, RegionOp)}

    def table(self) -> Iterator[_TableEntry]:
        for op in self.body.block.ops:
            if isinstance(op, _TableEntry):
                yield op

    def kernel_defs(self) -> dict[str, KernelDefOp]:
        return {op.sym_name.data: op for op in self.body.block.ops if isinstance(op, KernelDefOp)}

    def stream_ops(self) -> list[StreamOp]:
        return sorted((op for op in self.body.block.ops if isinstance(op, StreamOp)), key=lambda s: s.stream.data)

    # -- verification ---------------------------------------------------------------------

    def verify_(self) -> None:
        regions: dict[str, int] = {}
        for op in self.body.block.ops:
            if isinstance(op, RegionOp):
                if op.region.data in regions:
                    raise VerifyException(f"region {op.region.data} is declared twice")
                regions[op.region.data] = op.size.data
            elif not isinstance(op, _TableEntry | KernelDefOp | StreamOp):
                raise VerifyException(f"an npu.model holds regions, tensors, kernels and streams, got {op.name}")

        def check_addr(addr: AddrAttr, what: str) -> None:
            r = addr.region.data
            if r not in regions:
                raise VerifyException(f"{what}: address {addr} is in region {r}, which the model does not declare")
            if addr.end > regions[r]:
                raise VerifyException(
                    f"{what}: address {addr} ends at byte {addr.end}, beyond region {r} of {regions[r]} bytes"
                )

        names: set[str] = set()
        for e in self.table():
            what = f'{e.name} "{e.tensor_name}"'
            if e.tensor_name in names:
                raise VerifyException(f"{what}: tensor name declared twice")
            names.add(e.tensor_name)
            check_addr(e.addr, what)
        for e in self.table():
            if isinstance(e, AliasOp):
                for s in e.source_names:
                    if s not in names:
                        raise VerifyException(f'npu.alias "{e.tensor_name}": source tensor "{s}" is not in the table')

        kernels = self.kernel_defs()
        streams = self.stream_ops()
        n_streams, n_events = self.streams.data, self.events.data
        ids = [s.stream.data for s in streams]
        if ids != list(range(n_streams)):
            raise VerifyException(
                f"the model declares {n_streams} streams, its npu.stream ids are {ids} (expected 0..{n_streams - 1})"
            )
        records: dict[int, int] = {}
        waits: dict[int, int] = {}
        activated: set[int] = set()
        end_graphs: list[tuple[int, int]] = []
        for s in streams:
            sid = s.stream.data
            tasks = s.tasks
            for pos, t in enumerate(tasks):
                what = f"stream {sid} task {pos} ({t.name})"
                if isinstance(t, _MoveTask):
                    ins, outs = t.footprint()
                    for n, a in (*ins, *outs):
                        if n not in names:
                            raise VerifyException(f'{what}: tensor "{n}" is not in the model\'s table')
                        check_addr(a, what)
                if isinstance(t, KernelOp):
                    self._verify_kernel(t, kernels, what)
                elif isinstance(t, EventRecordOp | EventWaitOp):
                    e = t.event.data
                    if e >= n_events:
                        raise VerifyException(f"{what}: event {e} is not below the model's {n_events} events")
                    table = records if isinstance(t, EventRecordOp) else waits
                    if e in table:
                        verb = "recorded" if isinstance(t, EventRecordOp) else "waited"
                        raise VerifyException(
                            f"{what}: event {e} is {verb} twice (streams {table[e]} and {sid}); events are one-shot"
                        )
                    table[e] = sid
                elif isinstance(t, StreamActiveOp):
                    tgt = t.target.data
                    if tgt >= n_streams or tgt == sid or tgt == 0:
                        raise VerifyException(
                            f"{what}: stream_active targets stream {tgt}; it must name another non-head stream below {n_streams}"
                        )
                    activated.add(tgt)
                elif isinstance(t, EndGraphOp):
                    end_graphs.append((sid, pos))
        # EventRecordTaskInfo / EventWaitTaskInfo: each wait consumes (resets) the event.
        for e in range(n_events):
            if e in records and e not in waits:
                raise VerifyException(f"event {e} is recorded on stream {records[e]} but never waited")
            if e in waits and e not in records:
                raise VerifyException(
                    f"event {e} is waited on stream {waits[e]} but never recorded: the stream would deadlock"
                )
            if e in waits and records[e] == waits[e]:
                raise VerifyException(f"event {e} is recorded and waited on the same stream {waits[e]}")
        # DavinciModel::BindModelStream: streams not targeted by an activation are HEAD
        # streams; only stream 0 is a head stream here.
        for sid in range(1, n_streams):
            if sid not in activated:
                raise VerifyException(f"stream {sid} is never activated by a stream_active: its tasks would never run")
        main_len = len(streams[0].tasks) if streams else 0
        if end_graphs != [(0, main_len - 1)]:
            where = ", ".join(f"stream {s} task {p}" for s, p in end_graphs) or "none"
            raise VerifyException(f"the model has one npu.end_graph, the last task of stream 0 (found: {where})")

    @staticmethod
    def _verify_kernel(t: KernelOp, kernels: dict[str, KernelDefOp], what: str) -> None:
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
                need = raw_bytes(ty)
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
        EndGraphOp,
    ],
    [AddrAttr],
)
