"""verify_module's compiled IRDL plans (ge_tools/opt.py, _fast_plan): each op class's
definition compiled to isinstance / equality tests, xDSL's OpDef.verify only where a plan
cannot decide or rejects. The tests count OpDef.verify calls and compare the outcome of
every op, valid and mutated, with xDSL's own verify (same exception, same message).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr, i64
from xdsl.ir import Attribute, Operation
from xdsl.irdl.operations import IRDLOperation, OpDef
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import VerifyException

from bench.gen_graphs import generate
from conftest import ROOT
from ge_dialect import ascgraph as ag
from ge_dialect.diagnostics import LocatedError
from ge_tools import opt as O
from ge_tools.parse import parse_module
from ge_tools.pipeline import GeCompilePass, expand
from ge_tools.registry import make_context


def _stages(text: str) -> list[ModuleOp]:
    """The module before ge-compile and after the passes that change its op classes
    (clones): the lowering to AscBackends, the fusion, the NPU model."""
    ctx = make_context()
    module = parse_module(ctx, text, "g.mlir")
    out: list[ModuleOp] = [module.clone()]

    def keep(previous: ModulePass | None, m: ModuleOp, next: ModulePass | None) -> None:
        if previous is not None and previous.name in ("ge-lower-autofuse", "ge-autofuse", "ge-to-npu"):
            out.append(m.clone())

    PassPipeline(tuple(expand([GeCompilePass()])), keep).apply(ctx, module)
    return out


def _outcome(run: Callable[[], object]) -> tuple[str, str, Operation | None] | None:
    try:
        run()
    except Exception as e:  # what verify_module would see: its type, its text, its op
        return (type(e).__name__, str(e), e.op if isinstance(e, LocatedError) else None)
    return None


def _mutations(op: Operation) -> Iterator[tuple[Callable[[], None], Callable[[], None]]]:
    """(apply, undo) pairs that break what OpDef.verify or a class's verifier checks."""
    for r in op.results:
        old_type = r.type
        for t in (IntegerType(32), op.operands[0].type if op.operands else StringAttr("t")):

            def set_type(r=r, t=t) -> None:
                r._type = t  # pyright: ignore[reportPrivateUsage]

            def reset_type(r=r, old=old_type) -> None:
                r._type = old  # pyright: ignore[reportPrivateUsage]

            yield set_type, reset_type
    for fields in (op.properties, op.attributes):
        for name, old in list(fields.items()):
            bad: tuple[Attribute | None, ...] = (
                None,
                StringAttr("x"),
                IntegerAttr(1, i64),
                ArrayAttr([StringAttr("x")]),
                ArrayAttr([IntegerAttr(1, i64)]),
            )
            for new in bad:

                def put(fields=fields, name=name, new=new) -> None:
                    if new is None:
                        del fields[name]
                    else:
                        fields[name] = new

                def back(fields=fields, name=name, old=old) -> None:
                    fields[name] = old

                yield put, back

        def extra(fields=fields) -> None:
            fields["bogus"] = StringAttr("x")

        def no_extra(fields=fields) -> None:
            del fields["bogus"]

        yield extra, no_extra
    operands = tuple(op.operands)
    if operands:

        def drop(op=op, operands=operands) -> None:
            op.operands = operands[:-1]

        def twice(op=op, operands=operands) -> None:
            op.operands = (*operands, operands[0])

        def restore(op=op, operands=operands) -> None:
            op.operands = operands

        yield drop, restore
        yield twice, restore


def _check_same(op: Operation) -> int:
    """_verify_op's outcome on `op` with and without the plans; 1 when a plan accepted."""
    fast = _outcome(lambda: O._verify_op(op, True))  # pyright: ignore[reportPrivateUsage]
    assert fast == _outcome(lambda: O._verify_op(op, False)), op.name  # pyright: ignore[reportPrivateUsage]
    plan = O._FAST_PLANS.get(type(op))  # pyright: ignore[reportPrivateUsage]
    if plan is None or _outcome(lambda: plan(op)) is not None or not plan(op):
        return 0
    assert isinstance(op, IRDLOperation)
    op_def = type(op).get_irdl_definition()
    assert _outcome(lambda: op_def.verify(op)) is None, op.name  # accepted: xDSL accepts it too
    return 1


def _texts() -> list[str]:
    return [generate("fanout", 24, 0), generate("diamond", 24, 1), generate("mixed", 30, 2)] + [
        (ROOT / "examples" / f).read_text() for f in ("softmax_like.mlir", "embedding_gather.mlir")
    ]


def _error_text_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Operation.emit_error's exception without its dump of the whole module (the same
    for both paths compared; the dump made each failing op cost a module print)."""

    def emit_error(self: Operation, message: str, underlying_error: Exception) -> NoReturn:
        raise VerifyException(f"{self.name}: {message}") from underlying_error

    monkeypatch.setattr(Operation, "emit_error", emit_error)


@pytest.mark.parametrize("index", range(5))
def test_plans_decide_as_xdsl_on_valid_and_mutated_ops(index, monkeypatch):
    _error_text_only(monkeypatch)
    accepted = mutated = 0
    for module in _stages(_texts()[index]):
        for op in list(module.walk()):
            accepted += _check_same(op)
            for apply, undo in _mutations(op):
                apply()
                try:
                    _check_same(op)
                finally:
                    undo()
                mutated += 1
    assert accepted > 20 and mutated > 100


def test_plans_cover_the_compiled_graph(monkeypatch):
    """A compiled graph's verify runs xDSL's OpDef.verify only on the ops with regions
    and the last op of each block (main ran it on every op)."""
    result = _stages(generate("fanout", 200, 0))[-1]
    calls = [0]
    plain = OpDef.verify

    def counted(self: OpDef, op: Operation) -> None:
        calls[0] += 1
        plain(self, op)

    monkeypatch.setattr(OpDef, "verify", counted)
    ops = sum(1 for _ in result.walk())
    O.VERIFY_COUNTS.fast = O.VERIFY_COUNTS.xdsl = 0
    O.verify_module(result)
    undecided = sum(1 for op in result.walk() if op.regions or (op.parent is not None and op.parent.last_op is op))
    assert calls[0] == O.VERIFY_COUNTS.xdsl == undecided
    assert O.VERIFY_COUNTS.fast == ops - undecided > ops * 3 // 4
    calls[0] = 0
    O.verify_module(result, fast=False)
    assert calls[0] == ops


def test_every_example_verifies_the_same(monkeypatch):
    _error_text_only(monkeypatch)
    for path in sorted(Path(ROOT / "examples").glob("*.mlir")):
        module = parse_module(make_context(), path.read_text(), str(path))
        for op in module.walk():
            _check_same(op)


def test_ascgraph_nodes_sharing_views_check_them_once(monkeypatch):
    """AscNode.verify_ checks a `sched.axis` and an output view once per graph table and
    attribute (ascgraph.AxisTable.passed_*): the lowered graph's nodes share them (main
    checked both on every node)."""
    lowered = _stages(generate("fanout", 200, 0))[1]
    nodes = [op for op in lowered.walk() if isinstance(op, ag.AscNode)]
    calls = [0]
    plain = ag._check_axis_ids  # pyright: ignore[reportPrivateUsage]

    def counted(ids, sizes, what) -> None:  # type: ignore[no-untyped-def]
        calls[0] += 1
        plain(ids, sizes, what)

    monkeypatch.setattr(ag, "_check_axis_ids", counted)
    ag._last_table = None  # pyright: ignore[reportPrivateUsage]
    O.verify_module(lowered)
    # main: one call per output of every node, and one per sched.axis
    assert len(nodes) > 400 and calls[0] * 2 < len(nodes)
