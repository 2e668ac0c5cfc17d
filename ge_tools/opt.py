"""ge-opt: xdsl-opt with the project's dialects and passes, and located diagnostics.

Every parse, verify and pass error is one line `FILE:LINE:COL: error: <op>: <message>` on
stderr (for an ONNX model, `MODEL.onnx: node 'NAME' (OpType): error: ...`) and exit code 1 (--split-input-file: one per failing chunk; --verify-diagnostics:
checked against the input's expected-* comments, ge_tools/expected.py; --parsing-diagnostics:
on stdout, exit 0). A command-line mistake is one line `ge-opt: error: ...`. Never a
traceback, never a dump of the whole module. --help is the manual of the project's passes,
built from each pass's OPTIONS table (ge_dialect/pass_options.py).

The passes run in xDSL's PassPipeline: `-p` is parsed here (one message per mistake,
`build_pipeline`), each PipelinePass (`ge-compile`) is spliced in as its constituent
passes, and `PipelineCallback` verifies (op by op, located), times, prints and dumps
between them. Verification: the input and the pipeline's result, or after every pass with
--verify-each; a failure after an unverified pass reruns the input with --verify-each's
checks to name the pass that broke the IR (GeOptMain.apply_passes). The driver patches nothing of xDSL (the parser and the lexer are
subclasses, in ge_tools/parse.py); ge_dialect/names.py still replaces
SSAValue.extract_valid_name.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import gc
import io
import os
import re
import stat
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import BytesIO
from itertools import accumulate
from typing import IO, NoReturn, cast, get_args, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ArrayOfConstraint, ModuleOp
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
from xdsl.passes import ModulePass, PassPipeline
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.universe import Universe
from xdsl.utils.arg_spec import ArgSpec, PipelineLexer, SpecTokenKind, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, VerifyException
from xdsl.utils.hints import type_repr
from xdsl.xdsl_opt_main import xDSLOptMain

from ge_dialect.diagnostics import LocatedError, Remark, current_remark_sink, remark_sink
from ge_dialect.names import names_as_attributes
from ge_dialect.pass_options import Option, PassOptionError, option_table
from ge_tools.beside import MIN_INPUT_BYTES, PrintBeside
from ge_tools.dump_onnx import add_dump_onnx_argument, with_dump_onnx
from ge_tools.expected import Diagnostic
from ge_tools.expected import check as check_expected
from ge_tools.parse import MAX_NESTING, UserError, one_line, parse_module, read_capped, read_ir_file
from ge_tools.pipeline import PipelinePass, expand
from ge_tools.printer import GeMLIRTarget, print_module
from ge_tools.progress import Progress
from ge_tools.registry import get_all_dialects, get_all_passes


def one_line_arg_errors(arg_parser: argparse.ArgumentParser, hint: Callable[[], str | None] | None = None) -> None:
    """A bad command-line option is one line `<prog>: error: ...` and exit 1, as every
    other error (argparse would print the usage and exit 2); `hint` may add a word to
    "unrecognized arguments" (shell_split_hint)."""

    def error(message: str) -> NoReturn:
        extra = hint() if hint is not None and message.startswith("unrecognized arguments") else None
        raise UserError(f"{arg_parser.prog}: error: {message}" + (f"; {extra}" if extra else ""))

    arg_parser.error = error  # type: ignore[method-assign]


class PipelineError(Exception):
    """A malformed pass pipeline: the message names the pass and the option."""


# A pipeline element: a pass name, then optionally `{...}`, nothing else.
_PASS_NAME = re.compile(r"[A-Za-z0-9_.-]+")


def _pipeline_elements(spec: str) -> list[tuple[int, str]]:
    """The comma-separated elements of `spec` with their start columns (1-based), split at
    commas outside `{...}` and outside string literals; an unclosed `{` or a stray `}` is a
    PipelineError."""
    out: list[tuple[int, str]] = []
    start, depth, i, open_at = 0, 0, 0, -1
    while i < len(spec):
        ch = spec[i]
        if ch == '"':
            j = i + 1
            while j < len(spec) and spec[j] != '"':
                j += 2 if spec[j] == "\\" else 1
            if j >= len(spec):
                raise PipelineError(f"string at column {i + 1} is not closed")
            i = j
        elif ch == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif ch == "}":
            if depth == 0:
                raise PipelineError(f"'}}' at column {i + 1} closes nothing")
            depth -= 1
        elif ch == "," and depth == 0:
            out.append((start + 1, spec[start:i]))
            start = i + 1
        i += 1
    if depth:
        name = _PASS_NAME.match(spec, start)
        who = f"pass {name.group()}: " if name and spec[name.end() : name.end() + 1] == "{" else ""
        raise PipelineError(f"{who}options opened at column {open_at + 1} are not closed (missing '}}')")
    out.append((start + 1, spec[start:]))
    return out


def _group_end(text: str) -> int:
    """Index of the `}` that closes the `{` at text[0] (strings skipped; balanced, as
    _pipeline_elements checked)."""
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def _spec_value(values: tuple[object, ...]) -> str:
    return ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values) or "(none)"


def _make_pass(cls: type[ModulePass], spec: ArgSpec) -> ModulePass:
    """`cls` configured by `spec`: each option checked by name and type, one message each."""
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init and f.name != "name"}
    hints = get_type_hints(cls)
    args = spec.normalize_parameter_names().parameters
    # `name=none` unsets an `X | None` option, as `name` alone does in xDSL's syntax.
    args = {k: () if v == ("none",) and type(None) in get_args(hints.get(k)) else v for k, v in args.items()}
    spec = ArgSpec(spec.name, args)
    for key, values in args.items():
        shown = key.replace("_", "-")
        if key not in fields:
            known = ", ".join(f.replace("_", "-") for f in fields) or "none"
            close = difflib.get_close_matches(key, list(fields), 1)
            maybe = f"; did you mean '{close[0].replace('_', '-')}'?" if close else ""
            raise PipelineError(f"pass {cls.name}: unknown option '{shown}' (options: {known}){maybe}")
        try:
            cls.from_pass_spec(ArgSpec(cls.name, {key: values}))
        except PassOptionError:
            raise  # a value of the right type the pass refuses: the caller reports it
        except (ValueError, TypeError):
            want = type_repr(hints.get(key, object))
            if key in (table := option_table(cls)):
                want = table[key].allowed.describe(want)
            got = "no value" if not values else f"'{_spec_value(values)}'"
            raise PipelineError(f"pass {cls.name}: option {shown} takes {want}, got {got}") from None
    try:
        return cls.from_pass_spec(spec)
    except PassOptionError:
        raise
    except (ValueError, TypeError) as e:  # a backstop: each option was built alone above
        raise PipelineError(f"pass {cls.name}: {one_line(str(e))}") from None


def _parse_element(name: str, element: str, column: int) -> ArgSpec:
    """xDSL's ArgSpec of one element, with its syntax errors (ArgSpecParseError derives
    from BaseException) and repeated options as PipelineErrors."""
    try:
        spec = parse_spec(element)
    except ArgSpecParseError as e:
        # xDSL's message: a header, `pass-pipeline:LINE:COL`, the text, carets, the message.
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        where = re.search(r"pass-pipeline:\d+:(\d+)", str(e))
        col = column + int(where.group(1)) - 1 if where else column
        msg = lines[-1].strip().replace("`", "'")
        raise PipelineError(f"pass {name}: bad options: {msg[:1].lower()}{msg[1:]} (column {col})") from None
    # Option keys are the IDENT tokens right after `{` or a space; xDSL keeps the last of
    # a repeated key silently.
    seen: set[str] = set()
    lexer, prev = PipelineLexer(element), None
    while (tok := lexer.lex()).kind is not SpecTokenKind.EOF:
        if tok.kind is SpecTokenKind.IDENT and prev in (SpecTokenKind.L_BRACE, SpecTokenKind.SPACE):
            key = tok.span.text.replace("_", "-")
            if key in seen:
                raise PipelineError(f"pass {name}: option {key} is given twice")
            seen.add(key)
        prev = tok.kind
    return spec


def build_pipeline(spec: str, available: dict[str, Callable[[], type[ModulePass]]]) -> tuple[ModulePass, ...]:
    """The passes of a `-p` pipeline `name{option=value ...},...`, each PipelinePass
    (`ge-compile`) spliced in as its constituent passes. Every malformed pipeline is a
    PipelineError naming the pass and the option: an unknown pass or option, a value of
    the wrong type, unbalanced braces, MLIR's nested `builtin.module(...)` syntax, text
    after the options; a value of the right type that the pass refuses is its
    PassOptionError (passes/options.py)."""
    passes: list[ModulePass] = []
    for column, raw in _pipeline_elements(spec):
        element = raw.strip()
        if not element:
            continue  # `a,` and an empty -p: nothing to run (as before)
        column += len(raw) - len(raw.lstrip())
        m = _PASS_NAME.match(element)
        if m is None:
            raise PipelineError(f"expected a pass name at column {column}, got '{element[0]}'")
        name, rest = m.group(), element[m.end() :]
        if rest.startswith("("):
            raise PipelineError(
                f"'{name}(...)' at column {column}: MLIR's nested pass-manager syntax is not "
                f"supported; list the passes: -p 'pass1,pass2{{option=value}}'"
            )
        if rest and not (rest.startswith("{") and _group_end(rest) == len(rest) - 1):
            after = rest[_group_end(rest) + 1 :] if rest.startswith("{") else rest
            raise PipelineError(
                f"pass {name}: unexpected '{after.strip()}' at column {column + len(element) - len(after)} "
                "(options go in one {option=value ...} after the name)"
            )
        if name not in available:
            close = difflib.get_close_matches(name, list(available), 1)
            maybe = f"; did you mean '{close[0]}'?" if close else ""
            ours = [n for n in project_pass_order() if n in available]
            raise PipelineError(
                f"unknown pass '{name}'{maybe} (the project's passes: {', '.join(ours)}; "
                "ge-opt --help lists xDSL's too)"
            )
        passes.append(_make_pass(available[name](), _parse_element(name, element, column)))
    return expand(passes)


def _open_braces(text: str) -> int:
    return text.count("{") - text.count("}")


def shell_split_hint(argv: Sequence[str]) -> str | None:
    """When the shell split the -p value at unquoted spaces (`-p ge-autofuse{a=1 b=2}`,
    `-p 'a, b'` without quotes): a hint with the pipeline as it was probably meant. The
    value is followed by the next arguments while a `{` is open, the value ends with a
    comma or the next argument starts with a comma or a `}`; none that starts with '-'."""
    for i, a in enumerate(argv):
        if a in ("-p", "--passes") and i + 1 < len(argv):
            value, rest = argv[i + 1], argv[i + 2 :]
        elif a.startswith("--passes="):
            value, rest = a[len("--passes=") :], argv[i + 1 :]
        elif a.startswith("-p") and not a.startswith("--") and len(a) > 2:
            value, rest = a[2:], argv[i + 1 :]
        else:
            continue
        pieces = [value]
        for tok in rest:
            joined = " ".join(pieces)
            if tok.startswith("-") or not (
                _open_braces(joined) > 0 or joined.rstrip().endswith(",") or tok.startswith((",", "}"))
            ):
                break
            pieces.append(tok)
        if len(pieces) == 1:
            return None
        return f"the shell split the -p value at a space: quote the whole pipeline, -p '{' '.join(pieces)}'"
    return None


def with_remarks(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """`passes` with `remarks=true` on each pass that has the option (--remarks)."""
    return tuple(
        dataclasses.replace(p, remarks=True)  # type: ignore[call-arg]
        if any(f.name == "remarks" for f in dataclasses.fields(p))
        else p
        for p in passes
    )


class InvalidAfterPass(LocatedError):
    """The IR a pass produced does not verify: the verifier's error at the op that fails,
    with the pass named (`... (after pass ge-foo)`)."""

    def __init__(self, op: Operation, message: str, pass_name: str):
        super().__init__(op, f"{message} (after pass {pass_name})")
        self.pass_name = pass_name


# -- verification -----------------------------------------------------------------------
#
# xDSL's IRDL verifier (OpDef.verify) is generic: per op it looks up the variadic options,
# builds a VerificationContext and walks every constraint object. Most ge, npu and
# ascgraph ops are one variadic operand and result list of any type (or of
# !ascgraph.tensor) and a few properties of a base attribute type, so `_fast_plan`
# compiles each op class's definition once into plain isinstance / equality tests that
# accept exactly what OpDef.verify accepts. An op the plan accepts then runs the class's
# own verifier (and its traits) as xDSL would; anything the plan cannot decide (successors,
# variadic or constrained regions, a block's last op that is not a terminator where one
# is needed, values from outside an IsolatedFromAbove op other than its own block's ops',
# constraints other than the ones below) or rejects goes through xDSL's own
# Operation.verify, so a failing op gets xDSL's message.


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


def _verify_op(op: Operation, fast: bool) -> None:
    if fast:
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


def verify_module(module: ModuleOp, fast: bool = True) -> None:
    """`module.verify()` with each failure one LocatedError at the op that fails.

    xDSL's Operation.verify runs an op's own verifier after its regions' and reports a
    failure through Operation.emit_error, which prints the whole module. Here each op is
    verified alone in the same order (nested ops first), so that the op that failed is
    known; a LocatedError a verifier raises about another op passes through. `fast`:
    the ops a compiled plan can decide skip xDSL's generic IRDL checks (see _fast_plan;
    the same outcome and message either way)."""
    for op in module.walk(region_first=True):
        try:
            _verify_op(op, fast)
        except VerifyException as e:
            raise LocatedError(op, one_line(str(e))) from None
        # Block.verify's rule, which verify_nested_ops=False skips
        for region in op.regions:
            if len(region.blocks) == 1 and region.block.first_op is None and not op.has_trait(NoTerminator):
                raise LocatedError(
                    op,
                    f"Operation {op.name} contains empty block in single-block region that expects at least a terminator",
                )


@dataclass
class PipelineCallback:
    """What runs between two passes (xDSL's PassPipeline callback: previous pass or None,
    the module, next pass or None): verification with located errors (after every pass,
    or with `verify_each=False` only of the input and of the pipeline's result; an error
    after a pass names it: InvalidAfterPass), then, as asked,
    --time-passes (a report after the last pass: `time_report`), --print-between-passes,
    --print-ir-after-all and --print-ir-after-change (stderr) and --dump-dir
    (DIR/NN_<pass>.mlir, 00_input.mlir first, only the stages whose text differs from the
    stage before; the others are listed in DIR/unchanged.txt; chunk<K>_ before each name from
    the second module on, as --split-input-file gives) and --dot-dir (the same stages drawn,
    report/stages.py)."""

    verify: bool = True
    verify_each: bool = True
    time_passes: bool = False
    print_between_passes: bool = False
    print_ir_after_all: bool = False
    print_ir_after_change: bool = False
    dump_dir: str | None = None
    dot_dir: str | None = None
    print_generic: bool = False  # --print-op-generic: the prints and dumps in generic form too
    # the prints and dumps elide a value of more than this many elements (GePrinter.elide_limit)
    elide: int | None = None
    progress: Progress | None = None
    # called with the module right before the verify of the pipeline's result (ge-opt
    # starts the result's print beside that verify: ge_tools/beside.py)
    before_result_verify: Callable[[ModuleOp], None] | None = None
    origin_types: dict[str, str] = field(default_factory=dict)  # node -> GE type, at the input
    modules: int = 0
    index: int = 0
    started: float = 0.0
    # --time-passes: seconds per pass as named in -p (a pass run twice summed), in first-run
    # order, and the seconds the verifies took
    times: dict[str, float] = field(default_factory=dict)
    verify_time: float = 0.0
    # the text of the stage before (--dump-dir, --print-ir-after-change), its dump's name,
    # and the stages --dump-dir did not write because the text was the same
    last_text: str | None = None
    last_stage: str = ""
    unchanged: list[str] = field(default_factory=list)

    def __call__(self, previous: ModulePass | None, module: ModuleOp, next: ModulePass | None) -> None:
        now = time.perf_counter()
        if self.progress is not None:
            self.progress.clear()  # what is printed below starts on a clean line
        if previous is None:
            self.modules += 1
            self.index = 0
            self.times, self.verify_time, self.last_text = {}, 0.0, None
        elif self.time_passes:
            spec = pass_spec(previous)
            self.times[spec] = self.times.get(spec, 0.0) + now - self.started
        if self.verify and (self.verify_each or previous is None or next is None):
            if next is None and previous is not None and self.before_result_verify is not None:
                self.before_result_verify(module)
            started = time.perf_counter()
            self._verify(previous, module)
            self.verify_time += time.perf_counter() - started
        if previous is not None:
            self.index += 1
            if self.print_between_passes and next is not None:
                # xdsl_opt_main.py: xDSLOptMain.setup_pipeline's callback
                print(f"IR after {pass_spec(previous)}:")
                self._print(module, sys.stdout)
                print("\n\n\n")
        text = self._text(module) if self.dump_dir or self.print_ir_after_change else None
        changed = text is None or text != self.last_text
        if previous is not None and (self.print_ir_after_all or (self.print_ir_after_change and changed)):
            # mlir-opt's --mlir-print-ir-after-all / --mlir-print-ir-after-change header
            print(f"// -----// IR Dump After {previous.name} ({previous}) //----- //", file=sys.stderr)
            if text is not None:
                sys.stderr.write(text)
            else:
                self._print(module, sys.stderr)
            print(file=sys.stderr)
        if self.dump_dir:
            assert text is not None
            self._dump("input" if previous is None else previous.name, text, changed)
        self.last_text = text
        if self.dot_dir:
            self._draw("input" if previous is None else previous.name, module)
        if self.time_passes and next is None:
            print(time_report(self.times, self.verify_time if self.verify else None), file=sys.stderr, end="")
        if self.progress is not None and next is not None:
            self.progress.show(self.index + 1, pass_spec(next), module)
        self.started = time.perf_counter()

    @staticmethod
    def _verify(previous: ModulePass | None, module: ModuleOp) -> None:
        if previous is None:
            verify_module(module)
            return
        try:
            verify_module(module)
        except InvalidAfterPass:
            raise
        except LocatedError as e:
            raise InvalidAfterPass(e.op, e.message, pass_spec(previous)) from None

    def _print(self, module: ModuleOp, stream: IO[str]) -> None:
        if not self.print_generic:
            print_module(module, stream, self.elide)
            return
        with names_as_attributes(module):  # node names that upstream tools keep
            print_module(module, stream, self.elide, print_generic_format=True)

    def _text(self, module: ModuleOp) -> str:
        out = io.StringIO()
        self._print(module, out)
        return out.getvalue()

    def _dump(self, name: str, text: str, changed: bool) -> None:
        """DIR/NN_<name>.mlir when the stage's text differs from the stage before (the input
        always); an unchanged stage is a line `NN_<name>.mlir: same as <file before>` of
        DIR/unchanged.txt, which is rewritten (empty when every pass changed the IR) at
        each stage so that it never lists a stale run's stages."""
        assert self.dump_dir
        os.makedirs(self.dump_dir, exist_ok=True)
        prefix = "" if self.modules <= 1 else f"chunk{self.modules}_"
        stage = f"{prefix}{self.index:02d}_{name}.mlir"
        if self.modules <= 1 and self.index == 0:
            self.unchanged = []
        if changed:
            with open(os.path.join(self.dump_dir, stage), "w") as f:
                f.write(text)
                f.write("\n")
            self.last_stage = stage
        else:
            self.unchanged.append(f"{stage}: same as {self.last_stage}")
        with open(os.path.join(self.dump_dir, "unchanged.txt"), "w") as f:
            f.writelines(line + "\n" for line in self.unchanged)

    def _draw(self, name: str, module: ModuleOp) -> None:
        from report.dot import node_types  # report/ only for --dot-dir (start-up time)
        from report.stages import write_stage

        assert self.dot_dir
        prefix = "" if self.modules <= 1 else f"chunk{self.modules}_"
        if self.index == 0:  # the input's node types name the ops each kernel holds later
            self.origin_types = node_types(module)
        write_stage(module, f"{prefix}{self.index:02d}_{name}", self.dot_dir, self.origin_types)


TIME_RULE = "===" + "-" * 73 + "==="


def time_report(times: dict[str, float], verify_time: float | None) -> str:
    """--time-passes' report, in mlir-opt's list form (mlir/lib/Support/Timing.cpp:
    TimerImpl::printAsList): the total, then each pass (named as in -p, a pass run twice
    once, its times summed) with its wall time and share of the total, the largest first,
    then the Total line. `verify_time`: the verifies between the passes (a `verify` row);
    None when nothing was verified. The total is the sum of the rows: parsing and printing
    are outside the pipeline."""
    rows = dict(times)
    if verify_time is not None:
        rows["verify"] = verify_time
    total = sum(rows.values())

    def row(seconds: float, name: str) -> str:
        share = 100.0 * seconds / total if total > 0 else (100.0 if name == "Total" else 0.0)
        return f"  {seconds:10.4f} ({share:5.1f}%)  {name}"

    order = sorted(rows.items(), key=lambda kv: -kv[1])  # stable: ties in first-run order
    lines = [
        TIME_RULE,
        "... Execution time report ...".center(len(TIME_RULE)).rstrip(),
        TIME_RULE,
        f"  Total Execution Time: {total:.4f} seconds",
        "",
        "  ----Wall Time----  ----Name----",
        *(row(seconds, name) for name, seconds in order),
        row(total, "Total"),
        "",
    ]
    return "\n".join(lines) + "\n"


def register_dialects(ctx: Context) -> None:
    """Every dialect xDSL knows and the project's, each loaded when first used."""
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    known = set(ctx.registered_dialect_names)
    for name, factory in get_all_dialects().items():
        if name not in known:
            ctx.register_dialect(name, factory)


def context() -> Context:
    """ge-opt's context, for a tool or a test without a GeOptMain."""
    ctx = Context()
    register_dialects(ctx)
    return ctx


def pass_spec(p: ModulePass) -> str:
    """`p` as it is typed in -p: its name, then the options that are not their default
    (`ge-phony-notask{stage=mark}`)."""
    opts = [
        f"{f.name.replace('_', '-')}={_spec_value(v if isinstance(v, tuple) else (v,))}"
        for f in dataclasses.fields(p)
        if f.init and (v := getattr(p, f.name)) != f.default
    ]
    return f"{p.name}{{{' '.join(opts)}}}" if opts else p.name


def _default_shown(v: object) -> str:
    if v is None:
        return "none"
    return _spec_value(v if isinstance(v, tuple) else (v,)) if v != () else "empty"


def _wrap(text: str, indent: int, width: int = 80) -> list[str]:
    pad = " " * indent
    return textwrap.wrap(
        " ".join(text.split()), width, initial_indent=pad, subsequent_indent=pad, break_on_hyphens=False
    )


def project_pass_order() -> list[str]:
    """The project's pass names for --help: ge-compile first, then the passes in the order
    it runs them, then any other."""
    passes = get_all_passes()
    order = ["ge-compile"] if "ge-compile" in passes else []
    for p in expand([passes["ge-compile"]()()]) if order else ():
        if p.name not in order:
            order.append(p.name)
    return order + [n for n in passes if n not in order]


def option_rows(cls: type[ModulePass]) -> list[tuple[str, str, str, str]]:
    """Each option of `cls` as (name, allowed values, default, meaning), from the pass's
    OPTIONS table (the one its __post_init__ checks): what --help and docs/passes.md show."""
    rows: list[tuple[str, str, str, str]] = []
    table = option_table(cls)
    hints = get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        opt = table.get(f.name, Option(""))
        allowed = opt.allowed.describe(type_repr(hints.get(f.name, object)))
        rows.append((f.name.replace("_", "-"), allowed, _default_shown(f.default), opt.doc))
    return rows


def option_help(cls: type[ModulePass]) -> list[str]:
    """Each option of `cls` as --help shows it: `name: allowed values (default D)`, then
    what it means."""
    lines: list[str] = []
    for name, allowed, default, doc in option_rows(cls):
        lines.append(f"        {name}: {allowed} (default {default})")
        if doc:
            lines.extend(_wrap(doc, 12))
    return lines


def pass_summary(cls: type[ModulePass]) -> str:
    """The first paragraph of a pass's docstring: what --help and docs/passes.md say of it."""
    return (cls.__doc__ or "").strip().split("\n\n")[0]


def pass_docs_markdown() -> str:
    """docs/passes.md: each project pass in --help's order with its summary, the passes a
    pipeline pass runs, and its options, from the same tables as `ge-opt --help`
    (`make docs` writes it; tests/tools/test_pass_docs.py checks that it is current)."""
    out = [
        "# Passes",
        "",
        "<!-- generated by `make docs` (ge_tools/opt.py: pass_docs_markdown) from each pass's",
        "     docstring and OPTIONS table, as `ge-opt --help` shows them; do not edit -->",
        "",
        "Each pass runs alone (`ge-opt -p NAME`) or with options (`-p 'NAME{option=value ...}'`;",
        "a list value is `a,b,c`). `ge-compile` runs the others in the order listed here.",
    ]
    passes = get_all_passes()
    for name in project_pass_order():
        cls = passes[name]()
        out += ["", f"## `{name}`", "", " ".join(pass_summary(cls).split())]
        if issubclass(cls, PipelinePass):
            out += ["", "Runs: " + ", ".join(f"`{pass_spec(p)}`" for p in cls().passes()) + "."]
        rows = option_rows(cls)
        if rows:
            out += ["", "| option | values | default | meaning |", "|---|---|---|---|"]
            for opt, allowed, default, doc in rows:
                cells = (f"`{opt}`", allowed, f"`{default}`", " ".join(doc.split()))
                out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out) + "\n"


def pass_help(inherited: Sequence[str] = ()) -> str:
    """The --help epilog: each project pass with its first doc paragraph and its options
    (allowed values and meaning); a pipeline pass (ge-compile) also with the passes it
    runs; then the names of `inherited` (xDSL's passes), compact."""
    lines = ["project passes (-p 'name{option=value ...}'; a list value is a,b,c):"]
    passes = get_all_passes()
    for name in project_pass_order():
        cls = passes[name]()
        doc = pass_summary(cls)
        lines.append("")
        lines.append(f"  {name}")
        lines.extend(_wrap(doc, 6))
        if issubclass(cls, PipelinePass):
            lines.extend(_wrap(f"runs: {', '.join(pass_spec(p) for p in cls().passes())}", 6))
        opts = option_help(cls)
        if opts:
            lines.append("      options:")
            lines.extend(opts)
    if inherited:
        lines.append("")
        lines.append("xDSL's passes (inherited; they work on xDSL's dialects, not on ge IR):")
        lines.extend(_wrap(", ".join(sorted(inherited)), 2))
    lines.append("")
    lines.append("-p takes comma-separated passes, each optionally followed by one {option=value ...}")
    lines.append("(space-separated, so quote the whole -p value). MLIR's nested 'builtin.module(...)' is")
    lines.append("not supported. Input files are UTF-8 IR text, whatever their extension ('-' or none:")
    lines.append(f"standard input); brackets nest at most {MAX_NESTING} levels. Every error is one line, exit 1.")
    return "\n".join(lines)


# The -t targets that print ge IR (see GeOptMain.register_all_targets).
GE_TARGETS = ("mlir",)

# ge-opt's words for xDSL's options whose behaviour it changes or whose help lists ~150 names.
OWN_HELP = {
    "passes": "the pass pipeline: 'pass1,pass2{option=value ...}' (the passes are listed below)",
    "target": f"output format: {', '.join(GE_TARGETS)} (xDSL's other targets do not read ge IR)",
    "input_file": "the input IR file; '-' or none: standard input",
    "verify_diagnostics": "check the diagnostics against the input's '// expected-error {{...}}', "
    "expected-warning and expected-remark comments (@+N, @-N, @above, @below) as mlir-opt does: "
    "exit 1 when one is missing or unexpected",
    "parsing_diagnostics": "print a parse or verify error on stdout and exit 0 (xDSL's negative tests)",
    "split_input_file": "process each '// -----' chunk of the input alone; every chunk's error is "
    "reported (line numbers of the whole file), exit 1 if any",
    "print_between_passes": "print the IR on stdout after each pass but the last",
    "time_passes": "after the pipeline, print a timing report to stderr as mlir-opt does: the total "
    "and each pass (named as in -p, ge-phony-notask{stage=mark}; a pass run twice summed) with "
    "its wall time and share of the total, the largest first, a `verify` row for the verifies, "
    "then a Total line",
    "disable_verify": "verify nothing: neither the input, nor the IR after a pass (see --verify-each)",
}


DUMP_DIR_HELP = (
    "write the input as DIR/00_input.mlir and the IR after each pass that changed it as "
    "DIR/NN_<pass>.mlir (NN: the pass's place in the pipeline); the passes that left the IR "
    "as it was are listed in DIR/unchanged.txt (`NN_<pass>.mlir: same as <file>`)"
)


class GeOptMain(xDSLOptMain):
    version_format = "ge-opt 0.1.0 (xdsl {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        self.argv = list(sys.argv[1:] if args is None else args)
        super().__init__(description="ge-opt: run GE's graph passes on ge-dialect IR", args=args)

    # -- registration -----------------------------------------------------------------

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # xDSL's other targets read other dialects: on ge IR, llvm, arm-asm, riscv-asm,
        # x86-asm and mps fail with internal errors and csl, wat and wgsl print nothing.
        super().register_all_targets()
        self.available_targets = {name: t for name, t in self.available_targets.items() if name in GE_TARGETS}
        self.available_targets["mlir"] = lambda: GeMLIRTarget  # the same text, fewer writes

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:  # used without --split-input-file offsets
            return self._parse(io.read(), 0)

        self.available_frontends["mlir"] = parse_mlir

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = "ge-opt"
        one_line_arg_errors(arg_parser, lambda: shell_split_hint(self.argv))
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        for action in arg_parser._actions:
            if action.dest in OWN_HELP:
                action.help = OWN_HELP[action.dest]
        # The epilog builds every project pass: only when the help is printed (start-up time).
        format_help = arg_parser.format_help

        def format_help_with_passes() -> str:
            project = get_all_passes()
            arg_parser.epilog = pass_help([n for n in self.available_passes if n not in project])
            return format_help()

        arg_parser.format_help = format_help_with_passes  # type: ignore[method-assign]
        arg_parser.add_argument(
            "--verify-each",
            action="store_true",
            help="verify the IR after every pass (mlir-opt's and xdsl-opt's default). Without it "
            "ge-opt verifies the input and the pipeline's result only; when the result does not "
            "verify or a pass fails, it runs the pipeline again on the input with a verify after "
            "every pass, so the error still names the first pass whose IR is invalid "
            "(`... (after pass NAME)`). Only IR that a pass breaks and a later pass repairs or "
            "removes goes unreported without --verify-each",
        )
        arg_parser.add_argument(
            "--disable-threading",
            action="store_true",
            help="run everything in this one process (mlir-opt's --mlir-disable-threading). "
            "Without it, for an input of 64 KiB or more, ge-opt renders the result's text in "
            "a forked second process while it verifies the result, and prints that text only "
            "once the verify passed (the same text, the same errors: ge_tools/beside.py)",
        )
        arg_parser.add_argument(
            "--print-ir-after-all",
            action="store_true",
            help="print the IR to stderr after every pass",
        )
        arg_parser.add_argument(
            "--print-ir-after-change",
            action="store_true",
            help="print the IR to stderr after a pass only when the pass changed its text "
            "(mlir-opt's --mlir-print-ir-after-change)",
        )
        arg_parser.add_argument(
            "--dump-dir",
            metavar="DIR",
            help=DUMP_DIR_HELP,
        )
        add_dump_onnx_argument(arg_parser)
        arg_parser.add_argument(
            "--dot-dir",
            metavar="DIR",
            help="draw the input and the graph after each pass: DIR/NN_<pass>.dot and .svg "
            "(Graphviz's dot when on PATH, else report/layered.py's pure-Python layout; large graphs summarised "
            "by kernel), and DIR/NN_<pass>.memory.svg once memory is planned",
        )
        add_elide_argument(arg_parser)
        add_input_shape_argument(arg_parser, only_onnx=True)  # ge-opt MODEL.onnx (docs/onnx.md)
        add_max_input_size_argument(arg_parser)
        arg_parser.add_argument(
            "--remarks",
            action="store_true",
            help="each pass that supports it says, node by node, what it decided and why "
            "(FILE:LINE:COL: remark: ... on stderr; for an ONNX model "
            "MODEL.onnx: node 'NAME' (OpType): remark: ...)",
        )
        arg_parser.add_argument(
            "--remarks-json",
            metavar="FILE",
            help="write every remark as a JSON object to FILE (pass, stage, verdict, GE rule, "
            "NF code, nodes, message, location, data: report/remarks.py); the remarks are "
            "printed on stderr only with --remarks too",
        )

    # -- parsing ------------------------------------------------------------------------

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        # Every file is IR text whatever its name (xDSL picks a frontend by extension and
        # fails on `.txt` or `.onnx` with an unlocated ValueError); bytes that are not
        # UTF-8 text get parse_module's located error.
        # `-` is standard input, as none is.
        if self.args.input_file == "-":
            return sys.stdin.buffer, "mlir"
        try:
            f, extension = super().get_input_stream()
        except OSError as e:
            hint = shell_split_hint(self.argv)
            if hint is None:
                raise
            raise UserError(f"ge-opt: error: {e.filename}: {e.strerror or e}; {hint}") from None
        return f, extension if extension in self.available_frontends else "mlir"

    def get_input_name(self) -> str:
        return "<stdin>" if self.args.input_file in (None, "-") else self.args.input_file

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        # xDSL's, with the whole input kept (--verify-diagnostics reads its expectations).
        f, file_extension = self.get_input_stream()
        self.resources: dict[str, bytes] = {}
        try:
            cap = input_size_cap(self.get_input_name(), self.args.max_input_size)
            if is_onnx_path(self.get_input_name()) and _regular_within_cap(f, self.get_input_name(), cap):
                self.input_data = b""  # the importer reads the model (its bytes go once decoded)
            elif self.args.split_input_file or self.args.verify_diagnostics:
                self.input_data = read_capped(f, self.get_input_name(), cap)  # each chunk has its own section
            else:  # the text before the resource section, and its blobs (ge_tools/parse.py)
                self.input_data, self.resources = read_ir_file(f, self.get_input_name(), cap)
        finally:
            if f is not sys.stdin.buffer:
                f.close()
        if self.args.split_input_file:
            # xdsl_opt_main.py: xDSLOptMain.prepare_input (chunks at `// -----`, line offsets)
            pieces = self.input_data.split(b"// -----")
            offsets = accumulate([0, *[piece.count(b"\n") for piece in pieces[:-1]]])
            chunks: list[tuple[IO[bytes], int]] = [(BytesIO(c), o) for c, o in zip(pieces, offsets, strict=True)]
        else:
            chunks = [(BytesIO(self.input_data), 0)]
        return chunks, self.args.frontend or file_extension

    def _parse(self, data: bytes, offset: int) -> ModuleOp:
        return parse_module(
            self.ctx, data, self.get_input_name(), offset, not self.args.no_implicit_module, self.resources
        )

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        # an ONNX model (.onnx, docs/onnx.md) is imported (importers/onnx.py), with --input-shape
        shapes = input_shapes_arg(self.args.input_shape, "ge-opt")
        if is_onnx_path(self.get_input_name()):
            from importers import onnx as onnx_importer

            return onnx_importer.load_model(
                self.get_input_name(), shapes, dynamic_dims=self.args.dynamic_dims, data=self.input_data or None
            )
        if self.get_input_name().lower().endswith(".pt2") and not shapes and not self.args.dynamic_dims:
            from importers.fx import load_exported_program  # a torch.export program

            return load_exported_program(self.get_input_name())
        if shapes or self.args.dynamic_dims:
            flag = "--input-shape" if shapes else "--dynamic-dims"
            raise UserError(f"{self.get_input_name()}: error: {flag} applies to an ONNX model (.onnx) only")
        if file_extension != "mlir":
            return self.available_frontends[file_extension](chunk)
        return self._parse(chunk.read(), start_offset)

    # -- the pipeline ---------------------------------------------------------------------

    def setup_pipeline(self) -> None:
        try:
            passes = build_pipeline(self.args.passes, self.available_passes)
        except PipelineError as e:
            hint = shell_split_hint(self.argv)
            raise UserError(
                f"ge-opt: error: bad pass pipeline '{self.args.passes}': {e}" + (f"; {hint}" if hint else "")
            ) from None
        except PassOptionError as e:
            raise UserError(f"ge-opt: error: {e}") from None
        if self.args.remarks or self.args.remarks_json:
            passes = with_remarks(passes)
        from ge_tools.progress import PassBar  # a tqdm bar, on a terminal only

        self.verifier = PipelineCallback(
            verify=not self.args.disable_verify,
            verify_each=self.args.verify_each,
            time_passes=self.args.time_passes,
            print_between_passes=self.args.print_between_passes,
            print_ir_after_all=self.args.print_ir_after_all,
            print_ir_after_change=self.args.print_ir_after_change,
            dump_dir=self.args.dump_dir,
            dot_dir=self.args.dot_dir,
            print_generic=self.args.print_op_generic,
            elide=elide_limit(self.args.elide_large_elements, None, default_on=True),
            progress=PassBar.on_terminal(len(passes)),
            before_result_verify=None if self.args.disable_threading else self._start_print_beside,
        )
        callback: Callable[..., None] = self.verifier
        self.collector = None
        if self.args.remarks_json:
            from report.remarks import RemarkCollector  # report/ only when asked (start-up time)

            self.collector = RemarkCollector(echo=self.args.remarks)
        if self.collector is not None:
            callback = self.collector.callback(callback)
        self.pipeline = PassPipeline(passes, with_dump_onnx(callback, self.args.dump_onnx))

    # -- running --------------------------------------------------------------------------

    def output_resulting_program(self, prog: ModuleOp) -> str:
        out = io.StringIO()
        self.emit_result(prog, out)
        return out.getvalue()

    def emit_result(self, prog: ModuleOp, out: IO[str]) -> None:
        """The result written to `out` as it is printed (xDSLOptMain.output_resulting_program's
        target, without the one string: a weight's hex is streamed), large values elided as
        --elide-large-elements and the output (a terminal or not) say."""
        # xdsl_opt_main.py: xDSLOptMain.output_resulting_program (the mlir target, the only one)
        target = GeMLIRTarget(
            print_generic_format=self.args.print_op_generic,
            print_properties_as_attributes=self.args.print_no_properties,
            print_debuginfo=self.args.print_debuginfo,
            syntax_highlight=self.args.syntax_highlight,
            elide_large_elements=elide_limit(self.args.elide_large_elements, out),
        )
        if not self.args.print_op_generic:
            target.emit(self.ctx, prog, out)
            return
        with names_as_attributes(prog):  # node names that upstream tools keep
            target.emit(self.ctx, prog, out)

    def apply_passes(self, prog: ModuleOp, reparse: Callable[[], ModuleOp | None] | None = None) -> None:
        """The pipeline on `prog`. Verified at the ends only (no --verify-each), a failure
        after at least one pass is looked into: `reparse` (the same input again) is run with
        a verify after every pass and, when that shows a pass whose IR is invalid, that
        error (InvalidAfterPass) is raised instead of the one the run ended with."""
        try:
            self._apply_passes(prog)
        except Exception as e:
            v = self.verifier
            if reparse is None or not v.verify or v.verify_each or v.index == 0 or isinstance(e, PipelineError):
                raise  # no pass whose result went unverified ran before the failure
            found = self._first_invalid_pass(reparse)
            if found is None:
                raise
            raise found from None

    def _first_invalid_pass(self, reparse: Callable[[], ModuleOp | None]) -> InvalidAfterPass | None:
        """The error of the first pass whose IR does not verify, when the pipeline is run on
        `reparse()` with a verify after every pass (remarks and stderr of that run dropped);
        None when every pass's IR verifies up to the failure."""
        pipeline = PassPipeline(self.pipeline.passes, PipelineCallback(verify=True, verify_each=True))
        try:
            with remark_sink(lambda r: None), contextlib.redirect_stderr(io.StringIO()):
                module = reparse()
                if module is not None:
                    pipeline.apply(self.ctx, module)
        except InvalidAfterPass as e:
            return e
        except Exception:
            return None
        return None

    def _apply_passes(self, prog: ModuleOp) -> None:
        progress = self.pipeline.callback.progress if isinstance(self.pipeline.callback, PipelineCallback) else None
        if progress is None:
            self.pipeline.apply(self.ctx, prog)
            return
        outer = current_remark_sink()  # --remarks-json's collector, --verify-diagnostics', or stderr

        # A remark or an error starts on a clean line, not after the progress text.
        def sink(r: Remark) -> None:
            progress.clear()
            outer(r)

        try:
            with remark_sink(sink):
                self.pipeline.apply(self.ctx, prog)
        finally:
            progress.clear()

    def run(self) -> None:
        """Each chunk parsed, run and printed. An error ends the run (exit 1), except with
        --split-input-file (every chunk's error on stderr, then exit 1), --verify-diagnostics
        (the diagnostics checked against the input's expectations: ge_tools/expected.py) and
        --parsing-diagnostics (the error on stdout, exit 0). With --remarks-json every remark
        is collected and written, whatever the outcome."""
        if self.collector is None:
            return self._run()
        try:
            with self.collector.collecting():
                self._run()
        finally:
            from report.remarks import write_remarks_json

            write_remarks_json(self.args.remarks_json, self.collector.remarks)

    def _run(self) -> None:
        chunks, file_extension = self.prepare_input()
        verify = self.args.verify_diagnostics
        produced: list[str | Diagnostic] = []
        failed = False
        out = self.prepare_output()
        try:
            for i, (chunk, offset) in enumerate(chunks):
                try:
                    if i > 0:
                        out.write("// -----\n")
                    if verify:
                        produced.extend(self._diagnostics_of(chunk, file_extension, offset, out))
                    else:
                        self._run_chunk(chunk, file_extension, offset, out)
                    out.flush()
                except (UserError, DiagnosticException) as e:
                    if self.args.parsing_diagnostics:
                        print(str(e))
                    elif self.args.split_input_file:
                        print(str(e), file=sys.stderr)
                        failed = True
                    else:
                        raise
                finally:
                    chunk.close()
        finally:
            if out is not sys.stdout:
                out.close()
        if verify:
            text = self.input_data.decode("utf-8", errors="replace")  # a bad byte: its own error
            failures = check_expected(text, self.get_input_name(), produced)
            for line in failures:
                print(line, file=sys.stderr)
            failed = bool(failures)
        if failed:
            raise SystemExit(1)

    def _run_chunk(self, chunk: IO[bytes], file_extension: str, offset: int, out: IO[str]) -> None:
        data = chunk.read()

        def parse() -> ModuleOp | None:
            return self.parse_chunk(BytesIO(data), file_extension, offset)

        module = parse()
        if module is None:
            return
        # the result's text is rendered beside its verify (PrintBeside) for a large input
        # (not one with weights in a resource section: their hex is streamed, never one text)
        self._beside_wanted = len(data) >= MIN_INPUT_BYTES and not self.resources
        try:
            self.apply_passes(module, parse)
            beside, self._beside = self._beside, None
            text = beside.text() if beside is not None else None
        finally:
            self._beside_wanted = False
            if self._beside is not None:  # the verify (or a pass after it) failed
                self._beside.cancel()
                self._beside = None
        if text is not None:
            out.write(text)
        else:
            self.emit_result(module, out)

    _beside_wanted: bool = False
    _beside: PrintBeside | None = None

    def _start_print_beside(self, module: ModuleOp) -> None:
        """PipelineCallback.before_result_verify: fork the child that renders the result."""
        if self._beside_wanted and self._beside is None:
            self._beside = PrintBeside.start(lambda: self.output_resulting_program(module))

    def _diagnostics_of(
        self, chunk: IO[bytes], file_extension: str, offset: int, out: IO[str]
    ) -> list[str | Diagnostic]:
        """Run one chunk and return its diagnostics instead of printing them: the error that
        ended it, the remarks, the warnings (written to stderr: taken from it; what else the
        run writes there is passed on)."""
        found: list[str | Diagnostic] = []
        err = io.StringIO()
        try:
            with remark_sink(lambda r: found.append(r.line())), contextlib.redirect_stderr(err):
                self._run_chunk(chunk, file_extension, offset, out)
        except (UserError, DiagnosticException) as e:
            found.append(str(e))
        for line in err.getvalue().splitlines():
            d = Diagnostic.parse(line)
            if d is not None and d.kind == "warning":
                found.append(d)
            else:
                print(line, file=sys.stderr)
        return found


# -- ONNX models as input (docs/onnx.md; ge_tools/import_onnx.py is ge-import) -----------------

ONNX_SUFFIX = ".onnx"
INPUT_SHAPE_HELP = (
    "fix the shape of graph input NAME, e.g. x=1x3x224x224 (x- or comma-separated; "
    "NAME= for a 0-d input); repeat for several inputs. Needed for every input whose "
    "shape has a dynamic (named or unknown) dimension"
)


def is_onnx_path(path: str) -> bool:
    return path.lower().endswith(ONNX_SUFFIX)


DYNAMIC_DIMS_HELP = (
    "keep a named (e.g. batch 'N') or unknown dim of an ONNX graph input that --input-shape "
    "does not fix as an unknown dim, ? (GE's -1; ATC's --input_shape with -1, onnxruntime's "
    "free dimensions), carried through the graph by ONNX's shape inference; without it such "
    "a dim is an error"
)


def add_input_shape_argument(p: argparse.ArgumentParser, only_onnx: bool = False) -> None:
    """--input-shape NAME=DIMS and --dynamic-dims, as ge-import, ge-opt and ge-run take them."""
    extra = " (an ONNX model input only)" if only_onnx else ""
    p.add_argument("--input-shape", action="append", metavar="NAME=DIMS", help=INPUT_SHAPE_HELP + extra)
    p.add_argument("--dynamic-dims", action="store_true", help=DYNAMIC_DIMS_HELP + extra)


# The largest input file a tool reads (--max-input-size raises it): the input is read whole
# (the parser and the --verify-diagnostics check keep its text; protobuf decodes a model
# from its bytes), so an endless stream (/dev/zero, a pipe) or an enormous file would be
# read until memory ran out. 256 MiB of IR text is about 2 million GE nodes, far past what
# the passes compile; an ONNX model's protobuf cannot pass 2 GiB (protobuf's limit for
# one message: larger models keep their weights as external data, which is read tensor by
# tensor, each exactly its declared bytes, and is not counted here).
MAX_TEXT_BYTES = 256 << 20
MAX_ONNX_BYTES = 2 << 30
MAX_INPUT_SIZE_HELP = (
    "refuse an input file larger than SIZE bytes (a suffix K, M, G: binary units) before "
    f"reading it whole; default {MAX_TEXT_BYTES >> 20}M for IR text, {MAX_ONNX_BYTES >> 30}G "
    "for an .onnx model (protobuf's limit; its external data is not counted)"
)
_SIZE = re.compile(r"^\s*(\d+)\s*([KMGT]?)i?B?\s*$", re.I)


def parse_size(text: str) -> int:
    """`123`, `64K`, `512M`, `4G` (binary units) as a number of bytes."""
    m = _SIZE.match(text)
    if m is None:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size (e.g. 512M, 4G or a number of bytes)")
    return int(m.group(1)) << (10 * " KMGT".index(m.group(2).upper() or " "))


def add_max_input_size_argument(p: argparse.ArgumentParser) -> None:
    """--max-input-size SIZE, as ge-import, ge-opt and ge-run take it."""
    p.add_argument("--max-input-size", type=parse_size, metavar="SIZE", help=MAX_INPUT_SIZE_HELP)


def input_size_cap(path: str, given: int | None) -> int:
    """The most bytes the tools read of `path`: --max-input-size, else the default of its kind."""
    if given is not None:
        return given
    return MAX_ONNX_BYTES if is_onnx_path(path) else MAX_TEXT_BYTES


def _regular_within_cap(f: IO[bytes], name: str, cap: int) -> bool:
    """Whether `f` is a non-empty regular file (which its reader may read itself); one of
    more than `cap` bytes is refused as read_capped refuses it."""
    try:
        st = os.fstat(f.fileno())
    except (OSError, AttributeError, io.UnsupportedOperation):
        return False
    if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
        return False
    if st.st_size > cap:
        read_capped(f, name, cap)  # its error
    return True


# --elide-large-elements: the limit where a print is read by a person (a terminal, the
# dumps, --print-ir-after-all) and none is given; mlir-opt users' usual
# --mlir-elide-elementsattrs-if-larger=16
DEFAULT_ELIDE_ELEMENTS = 16
ELIDE_HELP = (
    "print a constant of more than N elements (not a splat) elided, as mlir-opt's "
    "--mlir-elide-elementsattrs-if-larger: `dense_resource<__elided__> : tensor<SHAPExDTYPE>`, "
    "its shape and dtype without its data. Default: elided with N = "
    f"{DEFAULT_ELIDE_ELEMENTS} on a terminal, in --dump-dir files and in --print-ir-after-all / "
    "--print-ir-after-change; never in output to a file or a pipe, which must read back (weights go whole, "
    "as hex in the module's resource section). N < 0: never elide. A module read back with "
    "an elided constant is an error where its data is needed (running, lowering, folding it)"
)


def add_elide_argument(p: argparse.ArgumentParser) -> None:
    """--elide-large-elements N, as ge-opt, ge-run and ge-import take it."""
    p.add_argument("--elide-large-elements", type=int, metavar="N", help=ELIDE_HELP)


def elide_limit(given: int | None, stream: IO[str] | None, default_on: bool = False) -> int | None:
    """The elision limit of a print to `stream`: --elide-large-elements N (None when N < 0),
    else DEFAULT_ELIDE_ELEMENTS where a person reads it (`default_on`: a dump or an
    --print-ir-after-all; a terminal), else none: a file or a pipe gets every byte."""
    if given is not None:
        return None if given < 0 else given
    if default_on:
        return DEFAULT_ELIDE_ELEMENTS
    try:
        return DEFAULT_ELIDE_ELEMENTS if stream is not None and stream.isatty() else None
    except (ValueError, AttributeError):
        return None


def input_shapes_arg(specs: Sequence[str] | None, tool: str = "ge-import") -> dict[str, tuple[int, ...]]:
    """The --input-shape options as {name: dims}; a bad one is a UserError."""
    if not specs:
        return {}  # without the importer (and onnx) loaded: ge-opt on IR text never needs it
    from importers.onnx import parse_input_shape

    out: dict[str, tuple[int, ...]] = {}
    for spec in specs or []:
        try:
            name, dims = parse_input_shape(spec)
        except ValueError as e:
            raise UserError(f"{tool}: error: --input-shape {e}") from None
        if name in out:
            raise UserError(f"{tool}: error: --input-shape gives '{name}' twice")
        out[name] = dims
    return out


def run_tool(make: Callable[[], object], tool: str) -> None:
    """Run a tool's main with the project's error policy: one line, exit 1, no traceback
    (set GE_XDSL_TRACEBACK=1 to see Python's traceback of an internal error)."""
    try:
        make()
    except (UserError, DiagnosticException) as e:
        print(str(e), file=sys.stderr)
        sys.exit(1)
    except OSError as e:
        print(f"{tool}: error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except ArgSpecParseError as e:  # a BaseException: build_pipeline catches it, this is a backstop
        lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
        print(f"{tool}: error: bad pass pipeline: {lines[-1] if lines else e}", file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # an internal error: say so, in one line
        if os.environ.get("GE_XDSL_TRACEBACK"):
            raise
        first = str(e).strip().split("\n")[0]  # one line even when the message is not
        print(f"{tool}: error: internal error: {type(e).__name__}: {first}", file=sys.stderr)
        sys.exit(1)


# CPython's default gen-0 threshold (700 allocations) has the collector run about 900 times
# while a 2,000-node graph goes through ge-compile, 12 % of the CPU time. The IR is made of
# long-lived objects and a run leaves little cyclic garbage, while each collection walks
# every object allocated since the last one (about 0.4 us each: a collection per million
# objects cost fanout 4k 0.5 s and 16k 1.4 s). So the tools collect once per ten million
# net allocations: a graph up to about 40k nodes is compiled without a collection, a larger
# one pays what it did at a lower threshold, and the garbage left is bounded
# (bench/README.md: "Start-up": fanout 16k peak RSS 512 -> 562 MB).
GC_THRESHOLDS = (10_000_000, 1000, 1000)


def tune_gc() -> None:
    """The tools' garbage-collector thresholds (GC_THRESHOLDS), set by each tool's main."""
    gc.set_threshold(*GC_THRESHOLDS)


def main(argv: Sequence[str] | None = None) -> None:
    tune_gc()
    run_tool(lambda: GeOptMain(argv).run(), "ge-opt")


def exit_without_teardown(tool_main: Callable[[], None]) -> NoReturn:
    """Run a tool's main as its console script and leave through os._exit once its output
    is flushed: the interpreter's teardown frees every IR object one at a time (0.6 s of
    the 5.2 s of `ge-opt -p ge-compile` on fanout 4k, bench/README.md: "Start-up"), and
    nothing is left to it: every file the tools write is closed by a `with` before main
    returns. mypy's util.hard_exit does the same. In-process callers (the tests) call
    main, which returns or raises SystemExit as before."""
    code: int = 0
    try:
        tool_main()
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:  # sys.exit("message"): Python prints it and exits 1
            print(e.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: what Python's own exit reports as 120
            code = code or 120
    os._exit(code)


def cli() -> NoReturn:
    """The ge-opt console script: main, then exit_without_teardown."""
    exit_without_teardown(main)


if __name__ == "__main__":
    cli()
