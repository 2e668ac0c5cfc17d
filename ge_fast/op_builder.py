"""Building many small ops quickly, for the lowerings (ge-lower-autofuse builds one
AscBackend, its AscGraph and its origin graph per realized box: tens of thousands of ops
on a 4k-node graph).

`new_op(cls, ...)` is `cls.create(...)` (xdsl/ir/core.py: Operation.create ->
Operation.__init__, then IRDLOperation.__post_init__'s default attributes and
properties) without the generic steps that cannot apply to a new op: no old operand
uses to remove, no successors, the unknown location bound once, each class's defaults
looked up once. `clone_op(op, mapper)` is `op.clone(mapper)` for an op without regions or
successors (Operation.clone_without_regions: mapped operands, copied attribute and
property dicts, the location, results' name hints). tests/lowering/test_lowering_work.py
compares every field of what these build with what xDSL's own calls build. They write
xDSL 0.74's private fields (`Operation._operands`, `_operand_uses`, `_successors`,
`Block._first_op`, `Operation._prev_op`, ...). With the switch off (ge_fast) each is the
xDSL call it replaces.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from xdsl.dialects.builtin import UNKNOWN_LOC, LocationAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue, SSAValues, Use
from xdsl.irdl import IRDLOperation
from xdsl.irdl.operations import OptionalDef

from ge_fast import SWITCH

OpT = TypeVar("OpT", bound=Operation)

_NO_ATTRS: Mapping[str, Attribute] = {}
_NO_VALUES: SSAValues[Any] = SSAValues()  # an immutable empty tuple, as Operation's own default


@functools.cache
def _defaults(cls: type[Operation]) -> tuple[tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...]]:
    """The (properties, attributes) IRDLOperation.__post_init__ fills in when absent."""
    if not issubclass(cls, IRDLOperation):
        return (), ()
    op_def = cls.get_irdl_definition()
    props = tuple(
        (n, d.default_value)
        for n, d in op_def.properties.items()
        if not isinstance(d, OptionalDef) and d.default_value is not None
    )
    attrs = tuple(
        (n, d.default_value)
        for n, d in op_def.attributes.items()
        if not isinstance(d, OptionalDef) and d.default_value is not None
    )
    return props, attrs


def new_op(
    cls: type[OpT],
    operands: Sequence[SSAValue] = (),
    result_types: Sequence[Attribute] = (),
    attributes: Mapping[str, Attribute] = _NO_ATTRS,
    properties: Mapping[str, Attribute] = _NO_ATTRS,
    regions: Sequence[Region] = (),
    location: LocationAttr | None = None,
    hints: Sequence[str] = (),
) -> OpT:
    """`cls.create(operands=..., result_types=..., attributes=..., properties=...,
    regions=..., location=...)`, field for field; `hints` are the results' name hints
    (`result.name_hint = hint`, each distinct hint checked once)."""
    if not SWITCH.on:
        built = cls.create(
            operands=operands,
            result_types=result_types,
            attributes=dict(attributes),
            properties=dict(properties),
            regions=regions,
            location=location,
        )
        for r, h in zip(built.results, hints):
            r.name_hint = h
        return built
    op = cls.__new__(cls)
    if operands:
        ops = SSAValues(operands)
        uses = tuple([Use(op, i) for i in range(len(ops))])
        for v, u in zip(ops, uses):
            v.add_use(u)
        op._operands = ops  # pyright: ignore[reportPrivateUsage]
        op._operand_uses = uses  # pyright: ignore[reportPrivateUsage]
    else:
        op._operands = _NO_VALUES  # pyright: ignore[reportPrivateUsage]
        op._operand_uses = ()  # pyright: ignore[reportPrivateUsage]
    op.results = SSAValues([OpResult(t, op, i) for i, t in enumerate(result_types)]) if result_types else _NO_VALUES
    for r, h in zip(op.results, hints):
        r._name = _checked_name(h)  # pyright: ignore[reportPrivateUsage]
    op.properties = dict(properties)
    op.attributes = dict(attributes)
    op.location = UNKNOWN_LOC if location is None else location
    op._successors = ()  # pyright: ignore[reportPrivateUsage]
    op._successor_uses = ()  # pyright: ignore[reportPrivateUsage]
    op.regions = ()
    for r in regions:
        op.add_region(r)
    props, attrs = _defaults(cls)
    if props:
        for n, v in props:
            if n not in op.properties:
                op.properties[n] = v
    if attrs:
        for n, v in attrs:
            if n not in op.attributes:
                op.attributes[n] = v
    return op


def clone_op(op: OpT, value_mapper: dict[SSAValue, SSAValue]) -> OpT:
    """`op.clone(value_mapper=value_mapper)` (which an op with regions or successors gets)."""
    if not SWITCH.on or op.regions or op.successors:
        return op.clone(value_mapper=value_mapper)
    new = new_op(
        type(op),
        [value_mapper.get(v, v) for v in op.operands],
        [r.type for r in op.results],
        op.attributes,
        op.properties,
        location=op.location,
    )
    for old, r in zip(op.results, new.results, strict=True):
        value_mapper[old] = r
        r.name_hint = old.name_hint
    return new


@functools.cache
def _checked_name(name: str) -> str:
    """What the name_hint setter stores for `name` (SSAValue.extract_valid_name, which
    ge_fast/ssa_names.py keeps exact, before any op is built)."""
    return SSAValue.extract_valid_name(name)


def new_block(ops: Sequence[Operation]) -> Block:
    """`Block(ops)`: Block.add_op's links, op by op (a new block has no parent, so
    _attach_op's ancestor check cannot fail)."""
    if not SWITCH.on:
        return Block(ops)
    block = Block()
    prev: Operation | None = None
    for op in ops:
        if op.parent is not None:
            raise ValueError("Can't add to a block an operation already attached to a block.")
        op.parent = block
        if prev is None:
            block._first_op = op  # pyright: ignore[reportPrivateUsage]
        else:
            op._prev_op = prev  # pyright: ignore[reportPrivateUsage]
            op._next_op = None  # pyright: ignore[reportPrivateUsage]
            prev._next_op = op  # pyright: ignore[reportPrivateUsage]
        prev = op
    block._last_op = prev  # pyright: ignore[reportPrivateUsage]
    return block
