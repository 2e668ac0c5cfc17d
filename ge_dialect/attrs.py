"""GE node attributes: their exact strings, their kinds, and typed accessors.

GE keeps attributes on the OpDesc (node) or on a tensor desc (one per output). We keep
both kinds as discardable attributes on the op, with GE's exact strings
(`graph_metadef/graph/attr/ge_attr_define.cc`); per-output ones are arrays with one entry
per result. The kind table lets every op reject an attribute of the wrong type with a
message naming the attribute, wherever it appears.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import overload

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from ge_dialect import memo
from ge_fast.printer import KeepsTexts, keeping  # noqa: F401  (keeping: re-exported, A.keeping)


class AttrKind(Enum):
    BOOL = "a bool (true/false)"
    INT = "an integer"
    STR = "a string"
    LIST_INT = "a list of integers, e.g. [0, 1]"
    LIST_BOOL = "a list of bools, one per output"


# Node attributes any GE node may carry (ge_attr_define.cc constants, see docs/ge/notask.md).
NO_TASK = "_no_task"
NOPADDING_CONTINUOUS_INPUT = "_no_padding_continuous_input"
NOPADDING_CONTINUOUS_OUTPUT = "_no_padding_continuous_output"
OUTPUT_REUSE_INPUT = "_output_reuse_input"
REUSE_INPUT_ON_DIM_INDEX = "_reuse_input_on_dim_index"
CONTINUOUS_INPUT = "continuous_input"
CONTINUOUS_OUTPUT = "continuous_output"
REFERENCE = "reference"
ATOMIC_OUTPUT_INDEX = "atomic_output_index"
INPUT_MEM_TYPE_LIST = "_input_memory_type"
OUTPUT_MEM_TYPE_LIST = "_output_memory_type"
OUTPUT_OFFSET_LIST_FOR_CONTINUOUS = "_output_offset_list_for_continuous"
INPUT_OFFSET_LIST_FOR_CONTINUOUS = "_input_offset_list_for_continuous"
OUTPUT_OFFSET_FOR_BUFFER_FUSION = "_output_offset_for_buffer_fusion"
SINGLE_OP_SCENE = "_single_op_scene"
STREAM_LABEL = "_stream_label"
# Per-output (tensor desc) attributes.
CAN_REUSED_FOR_CONCAT_OPTIMIZE = "can_reused_for_concat_optimize"
CAN_REUSED_FOR_PACK_OPTIMIZE = "can_reused_for_pack_optimize"
# graph_metadef TensorUtils::SetReuseInput / SetReuseInputIndex: GE keeps these on the OUTPUT
# TensorDesc (output i reuses input reuse_input_index[i]); absent reads false / 0. Not the node
# attrs _output_reuse_input / _reuse_input_on_dim_index (the no-padding virtual-op mark).
REUSE_INPUT = "reuse_input"
REUSE_INPUT_INDEX = "reuse_input_index"
# Graph attributes.
MEMORY_DISCONTIGUOUS_ALLOCATION = "_memory_discontiguous_allocation"
DYNAMIC_SHAPE_PARTITIONED = "_dynamic_shape_partitioned"
# GE keeps this one as a ComputeGraph member (GetGraphUnknownFlag/SetGraphUnknownFlag), not
# as an attribute; we spell it as a graph attribute so tests can set it as GE's tests do.
GRAPH_UNKNOWN_FLAG = "_graph_unknown_flag"
# The node's name, when it differs from its first result's SSA name.
NODE_NAME = "name"

# The memory plan: ge-assign-memory writes these, ge-to-npu and the simulator read them.
# Per node (one entry per output or input):
OUTPUT_OFFSET = "output_offset"
OUTPUT_REGION = "output_region"
OUTPUT_SIZE = "output_size"
INPUT_OFFSET = "input_offset"
MEMORY_ATTRS = frozenset({OUTPUT_OFFSET, OUTPUT_REGION, OUTPUT_SIZE, INPUT_OFFSET})
# Per graph:
MEMORY_SIZE = "memory_size"
MEMORY_LOWER_BOUND = "memory_lower_bound"
MEMORY_PROVEN_BOUND = "memory_proven_bound"
WEIGHT_SIZE = "weight_size"
VAR_SIZE = "var_size"
# ge_attr_define.cc: ATTR_NAME_CANNOT_BE_DELETED, set on the Identity MemLayoutConflictUtil
# inserts (SetNotDeleteAttr) so IdentityPass keeps it: it is a real copy.
CANNOT_BE_DELETED = "_cannot_be_deleted"
INSERTED_BY = "_inserted_by"
# The labels LabelAllocator gave a functional control node, in its label maker's order (If:
# then-enter, else-enter, else-leave; While: cond-enter, body-enter, body-leave; Case: one
# per branch, then the leave label); GE keeps them on the LabelSet / LabelSwitchByIndex
# nodes the makers add (ATTR_NAME_LABEL_SWITCH_INDEX, ATTR_NAME_LABEL_SWITCH_LIST).
LABEL_INDEXES = "_label_indexes"
# ge_attr_define.cc: ATTR_MODEL_LABEL_NUM (the root graph's label count)
LABEL_NUM = "_label_num"

NODE_ATTR_KINDS: dict[str, AttrKind] = {
    NO_TASK: AttrKind.BOOL,
    NOPADDING_CONTINUOUS_INPUT: AttrKind.BOOL,
    NOPADDING_CONTINUOUS_OUTPUT: AttrKind.BOOL,
    OUTPUT_REUSE_INPUT: AttrKind.BOOL,
    REUSE_INPUT_ON_DIM_INDEX: AttrKind.INT,
    CONTINUOUS_INPUT: AttrKind.BOOL,
    CONTINUOUS_OUTPUT: AttrKind.BOOL,
    REFERENCE: AttrKind.BOOL,
    ATOMIC_OUTPUT_INDEX: AttrKind.LIST_INT,
    INPUT_MEM_TYPE_LIST: AttrKind.LIST_INT,
    OUTPUT_MEM_TYPE_LIST: AttrKind.LIST_INT,
    OUTPUT_OFFSET_LIST_FOR_CONTINUOUS: AttrKind.LIST_INT,
    INPUT_OFFSET_LIST_FOR_CONTINUOUS: AttrKind.LIST_INT,
    OUTPUT_OFFSET_FOR_BUFFER_FUSION: AttrKind.LIST_INT,
    SINGLE_OP_SCENE: AttrKind.BOOL,
    STREAM_LABEL: AttrKind.STR,
    CAN_REUSED_FOR_CONCAT_OPTIMIZE: AttrKind.LIST_BOOL,
    CAN_REUSED_FOR_PACK_OPTIMIZE: AttrKind.LIST_BOOL,
    REUSE_INPUT: AttrKind.LIST_BOOL,
    REUSE_INPUT_INDEX: AttrKind.LIST_INT,
    NODE_NAME: AttrKind.STR,
}

GRAPH_ATTR_KINDS: dict[str, AttrKind] = {
    SINGLE_OP_SCENE: AttrKind.BOOL,
    MEMORY_DISCONTIGUOUS_ALLOCATION: AttrKind.BOOL,
    DYNAMIC_SHAPE_PARTITIONED: AttrKind.BOOL,
    GRAPH_UNKNOWN_FLAG: AttrKind.BOOL,
}

PER_OUTPUT_ATTRS = frozenset(
    {CAN_REUSED_FOR_CONCAT_OPTIMIZE, CAN_REUSED_FOR_PACK_OPTIMIZE, REUSE_INPUT, REUSE_INPUT_INDEX}
)


def _is_int(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and isinstance(a.type, IntegerType) and a.type.width.data != 1


def _is_bool(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and isinstance(a.type, IntegerType) and a.type.width.data == 1


def kind_error(name: str, attr: Attribute, kind: AttrKind) -> str | None:
    """Why `attr` is not of `kind`, or None when it is."""
    ok: bool
    if kind is AttrKind.BOOL:
        ok = _is_bool(attr)
    elif kind is AttrKind.INT:
        ok = _is_int(attr)
    elif kind is AttrKind.STR:
        ok = isinstance(attr, StringAttr)
    elif kind is AttrKind.LIST_INT:
        ok = isinstance(attr, ArrayAttr) and all(_is_int(e) for e in attr.data)
    else:
        ok = isinstance(attr, ArrayAttr) and all(_is_bool(e) for e in attr.data)
    if ok:
        return None
    return f"attribute '{name}' must be {kind.value}, got {attr}"


# -- typed readers and writers -------------------------------------------------------


def get_bool(op: Operation, name: str, default: bool = False) -> bool:
    a = op.attributes.get(name)
    if a is None or not _is_bool(a):
        return default
    assert isinstance(a, IntegerAttr)
    return bool(a.value.data)


@overload
def get_int(op: Operation, name: str, default: int) -> int: ...
@overload
def get_int(op: Operation, name: str, default: None = None) -> int | None: ...
def get_int(op: Operation, name: str, default: int | None = None) -> int | None:
    a = op.attributes.get(name)
    if a is None or not _is_int(a):
        return default
    assert isinstance(a, IntegerAttr)
    return a.value.data


def get_str(op: Operation, name: str, default: str | None = None) -> str | None:
    a = op.attributes.get(name)
    return a.data if isinstance(a, StringAttr) else default


def get_int_list(op: Operation, name: str) -> list[int] | None:
    a = op.attributes.get(name)
    if not isinstance(a, ArrayAttr):
        return None
    out: list[int] = []
    for e in a.data:
        if not isinstance(e, IntegerAttr):
            return None
        out.append(e.value.data)
    return out


def get_bool_list(op: Operation, name: str) -> list[bool] | None:
    a = op.attributes.get(name)
    if not isinstance(a, ArrayAttr):
        return None
    return [bool(e.value.data) if isinstance(e, IntegerAttr) else False for e in a.data]


def bool_attr(v: bool) -> BoolAttr:
    return IntegerAttr(int(v), i1)


def make_int(v: int) -> IntegerAttr:
    return IntegerAttr(v, i64)


def int_list_attr(vs: Sequence[int]) -> ArrayAttr:
    if memo.ENABLED:  # one IntegerAttr per value (ge_dialect/memo.py): xDSL's checks its range when made
        return ArrayAttr([_INTS.get(v) or _INTS.put(v, IntegerAttr(v, i64)) for v in vs])
    return ArrayAttr([IntegerAttr(v, i64) for v in vs])


_INTS: memo.ValueTable[int, IntegerAttr] = memo.value_table()


def set_bool(op: Operation, name: str, v: bool) -> None:
    op.attributes[name] = bool_attr(v)


def set_int(op: Operation, name: str, v: int) -> None:
    op.attributes[name] = make_int(v)


def set_int_list(op: Operation, name: str, vs: Sequence[int]) -> None:
    op.attributes[name] = int_list_attr(vs)


def get_output_flag(op: Operation, name: str, index: int, default: bool = True) -> bool:
    """A per-output bool (GE: an attr on output desc `index`); absent reads as `default`."""
    flags = get_bool_list(op, name)
    if flags is None or index >= len(flags):
        return default
    return flags[index]


def set_output_flag(op: Operation, name: str, index: int, v: bool, default: bool = True) -> None:
    """Set a per-output bool; the other outputs keep their value (absent = `default`)."""
    flags = get_bool_list(op, name) or []
    n = max(len(op.results), index + 1)
    flags = flags + [default] * (n - len(flags))
    flags[index] = v
    op.attributes[name] = ArrayAttr([bool_attr(f) for f in flags])


def get_output_int(op: Operation, name: str, index: int, default: int = 0) -> int:
    """A per-output int (GE: an int on output desc `index`); absent reads as `default`."""
    vals = get_int_list(op, name)
    if vals is None or index >= len(vals):
        return default
    return vals[index]


def set_output_int(op: Operation, name: str, index: int, v: int, default: int = 0) -> None:
    """Set a per-output int; the other outputs keep their value (absent = `default`)."""
    vals = get_int_list(op, name) or []
    n = max(len(op.results), index + 1)
    vals = vals + [default] * (n - len(vals))
    vals[index] = v
    op.attributes[name] = int_list_attr(vals)


# -- printing -------------------------------------------------------------------------------


def _is_plain_int(a: Attribute) -> bool:
    return isinstance(a, IntegerAttr) and a.type == i64


def print_ge_attr_dict(printer: Printer, attributes: dict[str, Attribute]) -> None:
    """Like the generic attr-dict, but i64 integers print bare (`concat_dim = 1`, `N = [2, 2]`),
    as they parse back to i64; everything else prints as MLIR does."""

    def entry(item: tuple[str, Attribute]) -> None:
        key, a = item
        printer.print_identifier_or_string_literal(key)
        printer.print_string(" = ")
        if _is_plain_int(a):
            printer.print_string(str(a.value.data))  # type: ignore[attr-defined]
        elif isinstance(a, ArrayAttr) and a.data and all(_is_plain_int(e) for e in a.data):
            printer.print_string("[" + ", ".join(str(e.value.data) for e in a.data) + "]")  # type: ignore[attr-defined]
        else:
            printer.print_attribute(a)

    printer.print_string("{")
    printer.print_list(attributes.items(), entry)
    printer.print_string("}")


# -- printing with kept texts ----------------------------------------------------------------


# KeepsTexts and keeping: ge_fast/printer.py (the printer that keeps texts while ge_fast's
# switch is on); the ops' print methods build their lines from its texts through these.


def _key_text(printer: KeepsTexts, key: str) -> str | None:
    # xdsl/printer.py: _print_attr_string prints the key with print_identifier_or_string_literal
    e = printer.kept_texts.get(("attr-key", key))
    if e is not None:
        return e[1]
    text = printer.text_of(lambda: printer.print_identifier_or_string_literal(key))
    if text is not None:
        printer.kept_texts["attr-key", key] = (None, text)
    return text


def _ge_value_text(printer: KeepsTexts, a: Attribute) -> str | None:
    # print_ge_attr_dict's entry, the value (the same three cases)
    if _is_plain_int(a):
        return str(a.value.data)  # type: ignore[attr-defined]
    if isinstance(a, ArrayAttr) and a.data and all(_is_plain_int(e) for e in a.data):
        return "[" + ", ".join(str(e.value.data) for e in a.data) + "]"  # type: ignore[attr-defined]
    return printer.attribute_text(a)


def ge_attr_dict_text(printer: KeepsTexts, attributes: dict[str, Attribute]) -> str | None:
    """The text print_ge_attr_dict(printer, attributes) writes, kept by the names and the
    identities of the (immutable) values; None when a part is not a text to keep."""
    values = tuple(attributes.values())
    key = ("ge-attr-dict", tuple(attributes), tuple(map(id, values)))
    e = printer.kept_texts.get(key)
    if e is not None:
        return e[1]
    parts: list[str] = []
    for name, a in attributes.items():
        k, v = _key_text(printer, name), _ge_value_text(printer, a)
        if k is None or v is None:
            return None
        parts.append(f"{k} = {v}")
    text = "{" + ", ".join(parts) + "}"
    printer.kept_texts[key] = (values, text)  # the entry holds the values: their ids stay theirs
    return text


def attribute_texts(printer: KeepsTexts, attributes: Iterable[Attribute]) -> list[str] | None:
    """The text `printer.print_attribute(a)` writes for each of `attributes`, or None
    when one of them is not a text to keep."""
    texts: list[str] = []
    for a in attributes:
        text = printer.attribute_text(a)
        if text is None:
            return None
        texts.append(text)
    return texts


def types_text(printer: KeepsTexts, types: Iterable[Attribute]) -> str | None:
    """The text `printer.print_list(types, printer.print_attribute)` writes, or None."""
    texts = attribute_texts(printer, types)
    return None if texts is None else ", ".join(texts)
