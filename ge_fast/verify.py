"""The op verifier, fast: xDSL's IRDL checks compiled per op class (replaces
xdsl/irdl/operations.py: OpDef.verify, as run by the `verify_` that irdl_op_definition
generates, get_accessors_from_op_def).

xDSL's IRDL verifier (OpDef.verify) is generic: per op it looks up the variadic options,
builds a VerificationContext and walks every constraint object. Most ge, npu and
ascgraph ops are one variadic operand and result list of any type (or of
!ascgraph.tensor) and a few properties of a base attribute type, so `_fast_plan`
compiles each op class's definition once into plain isinstance / equality tests that
accept exactly what OpDef.verify accepts. An op the plan accepts then runs the class's
own verifier (and its traits) as xDSL would; anything the plan cannot decide (successors,
variadic or constrained regions, a block's last op that is not a terminator where one
is needed, values from outside an IsolatedFromAbove op other than its own block's ops',
constraints other than the ones below) or rejects goes through xDSL's own
Operation.verify, so a failing op gets xDSL's message.

It reads the closure cells of xDSL 0.74's generated `verify_` (`op_def`,
`custom_verify`). With the switch off (ge_fast), `verify_op` is xDSL's
`op.verify(verify_nested_ops=False)`. tests/tools/test_fast_verify.py proves both give the
same outcome and message on every op of the examples, of compiled and of broken graphs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, ArrayOfConstraint
from xdsl.ir import Attribute, Block, ErasedSSAValue, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl.constraints import AnyAttr, AttrConstraint, BaseAttr, EqAttrConstraint, ParamAttrConstraint, RangeOf
from xdsl.irdl.operations import (
    AttributeDef,
    IRDLOperation,
    OpDef,
    OperandDef,
    OptAttributeDef,
    OptionalDef,
    OptPropertyDef,
    PropertyDef,
    RegionDef,
    ResultDef,
    SingleBlockRegionDef,
    VarOperandDef,
    VarResultDef,
)
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator

from ge_fast import SWITCH


class _Undecidable(Exception):
    """A constraint `_attr_test` does not compile: the class is verified by xDSL."""


def _attr_test(c: AttrConstraint) -> Callable[[Attribute], bool] | None:
    """A test that holds exactly when `c.verify(attr)` does not raise (None: every
    attribute passes). Only the constraint classes themselves, by exact type: a subclass
    may verify differently."""
    kind = type(c)
    if kind is AnyAttr:
        return None
    if kind is BaseAttr:
        base = cast(BaseAttr[Attribute], c).attr
        return lambda a: isinstance(a, base)
    if kind is EqAttrConstraint:
        want = cast(EqAttrConstraint[Attribute], c).attr
        return lambda a: not (a != want)  # EqAttrConstraint.verify's test
    if kind is ParamAttrConstraint:
        p = cast(ParamAttrConstraint[ParametrizedAttribute], c)
        base, tests = p.base_attr, tuple(_attr_test(q) for q in p.param_constrs)

        def params(a: Attribute) -> bool:
            if not isinstance(a, base) or len(a.parameters) != len(tests):
                return False
            return all(t is None or t(x) for t, x in zip(tests, a.parameters))

        return params
    if kind is ArrayOfConstraint:
        elems = cast(ArrayOfConstraint[Attribute], c).elem_range_constraint
        if type(elems) is not RangeOf:
            raise _Undecidable
        elem = _attr_test(elems.constr)
        return lambda a: isinstance(a, ArrayAttr) and (elem is None or all(elem(e) for e in a.data))
    raise _Undecidable


def _values_test(defs: Sequence[tuple[str, OperandDef | ResultDef]]) -> Callable[[Sequence[SSAValue]], bool]:
    """irdl_op_verify_arg_list's outcome for a definition of no values (their count must
    be 0) or of one variadic list (any count) of a compiled constraint."""
    if not defs:
        return lambda values: not values
    if len(defs) != 1 or type(defs[0][1]) not in (VarOperandDef, VarResultDef):
        raise _Undecidable
    constr = defs[0][1].constr
    if type(constr) is not RangeOf:
        raise _Undecidable
    test = _attr_test(constr.constr)
    if test is None:
        return lambda values: True

    def each(values: Sequence[SSAValue]) -> bool:  # all(test(v.type) ...), without a generator
        for v in values:
            if not test(v.type):
                return False
        return True

    return each


def _fields_test(
    defs: dict[str, AttributeDef] | dict[str, PropertyDef], optional: type[OptionalDef], closed: bool
) -> Callable[[dict[str, Attribute]], bool]:
    """OpDef.verify's property (`closed`: no other key) or attribute checks."""
    tests = tuple((name, _attr_test(d.constr), isinstance(d, optional)) for name, d in defs.items())
    if not tests:  # no field defined: none allowed where closed, any other
        return (lambda fields: not fields) if closed else (lambda fields: True)

    def check(fields: dict[str, Attribute]) -> bool:
        for name, test, opt in tests:
            a = fields.get(name)
            if a is None:
                if not opt:
                    return False
            elif test is not None and not test(a):
                return False
        return not closed or all(k in defs for k in fields)

    return check


def _fast_plan(cls: type[Operation]) -> Callable[[Operation], bool] | None:
    """For an IRDL op class: a check of one op that returns True when the op passes what
    `op.verify(verify_nested_ops=False)` checks, and False (or raises) when it cannot say;
    None when the class is not one it can check (then xDSL verifies every op of it)."""
    verify_ = getattr(cls, "verify_", None)  # what op.verify_() calls, inherited or not
    code = getattr(verify_, "__code__", None)
    closure = getattr(verify_, "__closure__", None) or ()
    # irdl_op_definition's generated verify_ (xdsl/irdl/operations.py,
    # get_accessors_from_op_def): `op_def.verify(self)` then the class's own verify_
    if (
        code is None
        or code.co_qualname != "get_accessors_from_op_def.<locals>.verify_"
        or cls.verify is not Operation.verify
        or not issubclass(cls, IRDLOperation)
    ):
        return None
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in closure)))
    op_def = cells.get("op_def")
    custom: Callable[[Operation], None] | None = cells.get("custom_verify")
    if not isinstance(op_def, OpDef) or set(cells) - {"op_def", "custom_verify"}:
        return None
    if op_def.options or op_def.successors:
        return None
    # irdl_op_verify_regions for plain regions: their number, one block where single_block,
    # and no entry-argument constraint (RangeOf(AnyAttr()), region_def's default)
    single: list[bool] = []
    for _, rdef in op_def.regions:
        entry = rdef.entry_args
        if type(rdef) not in (RegionDef, SingleBlockRegionDef) or type(entry) is not RangeOf:
            return None
        if type(cast(RangeOf[Attribute], entry).constr) is not AnyAttr:
            return None
        single.append(type(rdef) is SingleBlockRegionDef)
    n_regions, single_block = len(single), tuple(single)
    try:
        operands = _values_test(op_def.operands)
        results = _values_test(op_def.results)
        properties = _fields_test(op_def.properties, OptPropertyDef, closed=True)
        attributes = _fields_test(op_def.attributes, OptAttributeDef, closed=False)
    except _Undecidable:
        return None
    all_traits = tuple(op_def.traits)
    traits = tuple(t for t in all_traits if type(t) is not IsolatedFromAbove)
    isolated = len(traits) < len(all_traits)  # checked by _isolated, xDSL's where it cannot say

    def check(op: Operation) -> bool:
        if op.successors:
            return False
        regions = op.regions
        if len(regions) != n_regions:
            return False
        for region, one in zip(regions, single_block):
            if one and len(region.blocks) != 1:
                return False
        block = op.parent
        if block is not None and block.last_op is op and not _may_end_block(op, block):
            return False
        if isolated and not _isolated(op):
            return False
        values = op.operands
        for v in values:
            if isinstance(v, ErasedSSAValue):
                return False
        if not (operands(values) and results(op.results) and properties(op.properties) and attributes(op.attributes)):
            return False
        for trait in traits:
            trait.verify(op)
        if custom is not None:
            custom(op)
        return True

    return check


def _may_end_block(op: Operation, block: Block) -> bool:
    """Operation.verify's terminator rules pass for `op`, the last op of `block`: a block
    of no region, the one block of a region of no op or of a NoTerminator op, or a
    terminator (False: xDSL decides, and reports)."""
    region = block.parent
    if region is None:
        return True
    parent = region.parent
    if (
        region.first_block is block
        and region.last_block is block
        and (parent is None or parent.has_trait(NoTerminator))
    ):
        return True
    return op.has_trait(IsTerminator)


def _isolated(op: Operation) -> bool:
    """IsolatedFromAbove.verify(op) passes: every operand of an op in op's regions is the
    result of an op of that same block (so op is an ancestor of its owner, and not the
    owner), looking into no nested region but those of IsolatedFromAbove ops, which verify
    themselves. False when it cannot say so cheaply (a block argument, a value from an
    enclosing block, a nested region): then xDSL's trait decides."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                for v in child.operands:
                    owner = v.owner
                    if not isinstance(owner, Operation) or owner.parent is not block:
                        return False
                if child.regions and not child.has_trait(IsolatedFromAbove):
                    return False
    return True


_FAST_PLANS: dict[type[Operation], Callable[[Operation], bool] | None] = {}


@dataclass
class VerifyCounts:
    """How verify_module decided its ops (tests/tools/test_fast_verify.py counts them)."""

    fast: int = 0  # by the compiled plan and the class's own verifier
    xdsl: int = 0  # by xDSL's Operation.verify


VERIFY_COUNTS = VerifyCounts()


def verify_op(op: Operation, fast: bool | None = None) -> None:
    """`op.verify(verify_nested_ops=False)`: by the class's compiled plan where it decides
    (`fast`: None follows the switch), else by xDSL."""
    if SWITCH.on if fast is None else fast:
        cls = type(op)
        if cls in _FAST_PLANS:
            plan = _FAST_PLANS[cls]
        else:
            plan = _FAST_PLANS[cls] = _fast_plan(cls)
        if plan is not None:
            try:
                if plan(op):
                    VERIFY_COUNTS.fast += 1
                    return
            except Exception:  # xDSL's verify below raises it again, with its own wording
                pass
    VERIFY_COUNTS.xdsl += 1
    op.verify(verify_nested_ops=False)
