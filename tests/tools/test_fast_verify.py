"""verify_module's compiled IRDL plans (ge_fast/verify.py, _fast_plan): each op class's
definition compiled to isinstance / equality tests, xDSL's OpDef.verify only where a plan
cannot decide or rejects. The tests count OpDef.verify calls and compare the outcome of
every op, valid and mutated, with xDSL's own verify (same exception, same message).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr, i64
from xdsl.ir import Attribute, Block, Operation
from xdsl.irdl.operations import IRDLOperation, OpDef
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import VerifyException

from bench.gen_graphs import generate
from conftest import ROOT, NeverPassedNodes
from ge_dialect import ascgraph as ag
from ge_dialect import npu
from ge_dialect.diagnostics import LocatedError
from ge_dialect.verify import verify_module
from ge_fast import verify as V
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
    fast = _outcome(lambda: V.verify_op(op, True))  # pyright: ignore[reportPrivateUsage]
    assert fast == _outcome(lambda: V.verify_op(op, False)), op.name  # pyright: ignore[reportPrivateUsage]
    plan = V._FAST_PLANS.get(type(op))  # pyright: ignore[reportPrivateUsage]
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
    """A compiled graph's verify runs xDSL's OpDef.verify only on the ops whose region's
    values a plan cannot place (the npu.model: its streams' tasks are nested regions), not
    on the AscGraphs, kernel_defs and the last op of each block (the previous round ran it
    on every op with regions and every block's last op; main on every op)."""
    result = _stages(generate("fanout", 200, 0))[-1]
    calls = [0]
    plain = OpDef.verify

    def counted(self: OpDef, op: Operation) -> None:
        calls[0] += 1
        plain(self, op)

    monkeypatch.setattr(OpDef, "verify", counted)
    ops = sum(1 for _ in result.walk())
    V.VERIFY_COUNTS.fast = V.VERIFY_COUNTS.xdsl = 0
    verify_module(result)
    undecided = [op.name for op in result.walk() if isinstance(op, npu.ModelOp)]
    assert calls[0] == V.VERIFY_COUNTS.xdsl == len(undecided) == 1
    assert V.VERIFY_COUNTS.fast == ops - len(undecided) > ops * 3 // 4
    calls[0] = 0
    verify_module(result, fast=False)
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
    verify_module(lowered)
    # main: one call per output of every node, and one per sched.axis
    assert len(nodes) > 400 and calls[0] * 2 < len(nodes)


# -- AscIR nodes equal to one that passed (ascgraph._PASSED_NODES) --------------------------


def _compiled(kind: str, nodes: int) -> ModuleOp:
    return _stages(generate(kind, nodes, 0))[-1]


def test_ascgraph_nodes_equal_to_a_passed_one_are_checked_once(monkeypatch):
    """AscNode.verify_ runs its checks once per distinct node (class, attribute and type
    objects, producer and reader classes, axis table content), and AscGraphOp.verify_
    checks each distinct result type once per graph: on the compiled fanout 200 (main ran
    both on every node and result), with the same outcome as checking every node."""
    result = _compiled("fanout", 200)
    nodes = [op for op in result.walk() if isinstance(op, ag.AscNode)]
    checked, partial = [0], [0]
    plain_node, plain_partial = ag.AscNode._verify_node, ag._check_partial  # pyright: ignore[reportPrivateUsage]

    def node(self: ag.AscNode, table: ag.AxisTable) -> None:
        checked[0] += 1
        plain_node(self, table)

    def part(*args: object) -> None:
        partial[0] += 1
        plain_partial(*args)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(ag.AscNode, "_verify_node", node)
    monkeypatch.setattr(ag, "_check_partial", part)
    monkeypatch.setattr(ag, "_PASSED_NODES", {})
    verify_module(result)
    results = sum(len(op.results) for op in nodes)
    assert len(nodes) > 400 and checked[0] * 3 < len(nodes) and partial[0] * 3 < results, (checked, partial, results)
    checked[0] = 0
    monkeypatch.setattr(ag, "_PASSED_NODES", NeverPassedNodes())
    verify_module(result)
    assert checked[0] == len(nodes)


def _graph_nodes(m: ModuleOp) -> tuple[ag.AscGraphOp, list[ag.AscNode]]:
    """The compiled module's largest AscGraph and its nodes."""
    g = max((op for op in m.walk() if isinstance(op, ag.AscGraphOp)), key=lambda g: len(g.body.block.ops))
    return g, [op for op in g.body.block.ops if isinstance(op, ag.AscNode)]


def _breakages(m: ModuleOp) -> Iterator[tuple[str, Callable[[], None], Callable[[], None]]]:
    """(what, apply, undo): a node in the middle of the largest graph broken in ways the
    passed-node memo must not hide (new attribute or type objects, a node with the types
    and attributes of one that passed but other neighbours, the graph's axis table)."""
    g, nodes = _graph_nodes(m)
    mid = len(nodes) // 2
    load = next(op for op in nodes[mid:] if isinstance(op, ag.Load))
    old_offset = load.attributes["offset"]

    def bad_offset() -> None:
        load.attributes["offset"] = IntegerAttr(-1, i64)

    def good_offset() -> None:
        load.attributes["offset"] = old_offset

    yield "Load offset", bad_offset, good_offset
    store = next(op for op in nodes[mid:] if isinstance(op, ag.Store))
    reader = next(op for op in nodes[nodes.index(store) :] if isinstance(op, ag.Pointwise) and len(op.operands) == 1)
    old_operands = tuple(reader.operands)

    def read_store() -> None:  # the Store's result also read by a compute node
        reader.operands = (store.results[0],)

    def unread_store() -> None:
        reader.operands = old_operands

    yield "Store read by a compute node", read_store, unread_store
    t = ag.tensor_type(load.results[0])
    old_type = t

    def bad_strides() -> None:  # an on-chip view that is not contiguous
        load.results[0]._type = ag.AscTensorType(
            t.element_type, t.axis_ids, t.repeat_list, [s + 1 for s in t.stride_list]
        )  # pyright: ignore[reportPrivateUsage]

    def good_strides() -> None:
        load.results[0]._type = old_type  # pyright: ignore[reportPrivateUsage]

    yield "Load strides", bad_strides, good_strides
    old_axis = g.properties["axis"]
    axes = list(g.axis.data)
    big = max(range(len(axes)), key=lambda i: axes[i].size.data)

    def small_axis() -> None:  # a table of other content: the nodes' repeats exceed it
        a = axes[big]
        g.properties["axis"] = ArrayAttr([*axes[:big], ag.AxisAttr(a.id.data, a.axis_name.data, 1), *axes[big + 1 :]])

    def old_table() -> None:
        g.properties["axis"] = old_axis

    yield "axis size", small_axis, old_table


def test_a_bad_node_in_a_large_graph_is_caught_with_the_memo_on(monkeypatch):
    """With every node of a compiled fanout 1k known to pass (verified once), a node broken
    afterwards is still reported, with the message and at the op that verifying every node
    gives."""
    _error_text_only(monkeypatch)
    result = _compiled("fanout", 1000)
    monkeypatch.setattr(ag, "_PASSED_NODES", {})
    verify_module(result)
    assert len(ag._PASSED_NODES) > 0  # pyright: ignore[reportPrivateUsage]
    memo = ag._PASSED_NODES  # pyright: ignore[reportPrivateUsage]
    seen = 0
    for what, apply, undo in _breakages(result):
        apply()
        try:
            warm = _outcome(lambda: verify_module(result))
            with monkeypatch.context() as mp:
                mp.setattr(ag, "_PASSED_NODES", NeverPassedNodes())
                plain = _outcome(lambda: verify_module(result))
        finally:
            undo()
        assert warm is not None and warm == plain, what
        seen += 1
        assert memo is ag._PASSED_NODES  # pyright: ignore[reportPrivateUsage]
    assert seen == 4
    assert _outcome(lambda: verify_module(result)) is None


# -- the npu.model's verifier: shared addresses and types checked once ---------------------


def test_npu_model_checks_each_address_and_kernel_type_once(monkeypatch):
    """ModelOp.verify_ checks an address against the region table once per AddrAttr object
    (ge-to-npu shares one per distinct address: a fanout producer's output is read by
    every reader), sizes a kernel type once per type object, and a kernel_def counts its
    AscGraph's Data and Output nodes without sorting them; a bad address is still reported
    at each use, with the message checking every use gives."""
    _error_text_only(monkeypatch)
    result = _compiled("fanout", 200)
    model = next(op for op in result.walk() if isinstance(op, npu.ModelOp))
    ends, sizes, sorts = [0], [0], [0]
    plain_end, plain_raw = npu.AddrAttr.end, npu.raw_bytes
    plain_data, plain_out = ag.AscGraphOp.data_nodes, ag.AscGraphOp.output_nodes

    def end(self: npu.AddrAttr) -> int:
        ends[0] += 1
        return plain_end.fget(self)  # pyright: ignore[reportOptionalCall]

    def raw(t: Attribute) -> int:
        sizes[0] += 1
        return plain_raw(t)

    def data_nodes(self: ag.AscGraphOp) -> list[ag.Data]:
        sorts[0] += 1
        return plain_data(self)

    def output_nodes(self: ag.AscGraphOp) -> list[ag.Output]:
        sorts[0] += 1
        return plain_out(self)

    monkeypatch.setattr(npu.AddrAttr, "end", property(end))
    monkeypatch.setattr(npu, "raw_bytes", raw)
    monkeypatch.setattr(ag.AscGraphOp, "data_nodes", data_nodes)
    monkeypatch.setattr(ag.AscGraphOp, "output_nodes", output_nodes)
    verify_module(result)
    tasks = [t for s in model.stream_ops() for t in s.tasks if isinstance(t, npu.KernelOp | npu.MemcpyOp)]
    uses = len(list(model.table())) + sum(len(t.in_addrs) + len(t.out_addrs) for t in tasks)
    distinct = {id(e.addr) for e in model.table()} | {id(a) for t in tasks for a in (*t.in_addrs, *t.out_addrs)}
    kernels = [t for t in tasks if isinstance(t, npu.KernelOp)]
    assert ends[0] == len(distinct) and uses > 1.5 * len(distinct)
    assert sizes[0] * 2 < sum(len(t.in_addrs) + len(t.out_addrs) for t in kernels)
    assert sorts[0] == 0
    # a task's input address beyond its region: new AddrAttr objects, each checked
    t = kernels[len(kernels) // 2]
    old = t.properties["in_addrs"]
    a = t.in_addrs.data[0]
    t.properties["in_addrs"] = ArrayAttr([npu.AddrAttr(a.region.data, a.offset.data, 1 << 40), *t.in_addrs.data[1:]])
    try:
        fast = _outcome(lambda: verify_module(result))
    finally:
        t.properties["in_addrs"] = old
    assert fast is not None and "beyond region" in fast[1] and fast[2] is model


def test_region_plans_decide_as_xdsl_on_broken_regions(monkeypatch):
    """The plans of ops with regions (AscGraph, kernel_def, ge.graph, ...) and of a block's
    last op decide as xDSL on a second block in a single-block region, a node reading a
    value from outside its IsolatedFromAbove graph, and a non-terminator moved to the end
    of a block."""
    _error_text_only(monkeypatch)
    tried = 0
    for module in _stages(generate("fanout", 40, 0)) + _stages(_texts()[4]):
        ops = list(module.walk())
        graphs = [op for op in ops if isinstance(op, ag.AscGraphOp)]
        for op in ops:
            if not op.regions:
                continue
            _check_same(op)
            region = op.regions[0]
            extra = Block()
            region.add_block(extra)
            try:
                _check_same(op)
            finally:
                region.detach_block(extra)
            tried += 1
            block = region.blocks.first
            if block is None or block.first_op is None or block.first_op is block.last_op:
                continue
            moved = block.first_op
            after = moved.next_op
            block.detach_op(moved)
            block.add_op(moved)
            try:
                _check_same(moved)
                _check_same(op)
            finally:
                block.detach_op(moved)
                block.insert_op_before(moved, after)  # pyright: ignore[reportArgumentType]
            tried += 1
        for g, other in zip(graphs, graphs[1:]):
            reader = next(n for n in g.body.block.ops if n.operands)
            outside = next(iter(other.body.block.ops)).results[0]
            old = tuple(reader.operands)
            reader.operands = (outside, *old[1:])
            try:
                _check_same(g)
                assert _outcome(lambda g=g: V.verify_op(g, True)) is not None  # pyright: ignore[reportPrivateUsage]
            finally:
                reader.operands = old
            tried += 1
    assert tried > 50


class _ReadLog(dict):
    """An attribute or property dictionary that notes every read of it."""

    reads: list[str]
    owner: str = ""

    def _note(self, what: str) -> None:
        self.reads.append(f"{self.owner}.{what}")

    def __getitem__(self, k):  # type: ignore[no-untyped-def]
        self._note(f"[{k!r}]")
        return super().__getitem__(k)

    def get(self, k, default=None):  # type: ignore[no-untyped-def]
        self._note(f"get({k!r})")
        return super().get(k, default)

    def __contains__(self, k) -> bool:  # type: ignore[no-untyped-def]
        self._note(f"contains({k!r})")
        return super().__contains__(k)

    def __iter__(self):  # type: ignore[no-untyped-def]
        self._note("iter")
        return super().__iter__()

    def items(self):  # type: ignore[no-untyped-def]
        self._note("items")
        return super().items()

    def keys(self):  # type: ignore[no-untyped-def]
        self._note("keys")
        return super().keys()

    def values(self):  # type: ignore[no-untyped-def]
        self._note("values")
        return super().values()

    def __len__(self) -> int:
        self._note("len")
        return super().__len__()


# What a node's checks may ask of another op, because _node_key holds it: a neighbour's
# class (isinstance; the key has every producer's and reader's class) and the graph's axis
# ids in table order (the key has the table's content, in that order).
_KEYED_READS = {
    ("ABCMeta.__instancecheck__", None),
    ("AscGraphOp.axis_ids", "graph"),
    ("PropertyAccessor.__get__", "graph"),  # the graph's `axis` property, read by axis_ids
}


@pytest.mark.parametrize("kind,nodes", [("fanout", 200), ("mixed", 300), ("concat_tree", 200), ("diamond", 200)])
def test_node_checks_read_of_other_ops_only_what_the_memo_key_holds(kind, nodes):
    """The passed-node memo (ascgraph._node_key) skips a node whose class, attribute and
    type objects, producer and reader classes and axis table equal a passed one's. That is
    sound only while AscNode._verify_node reads nothing else of another op: this runs the
    checks of every AscIR node of a compiled graph with every call that is handed another op
    traced (sys.setprofile) and every neighbour's attribute and property dictionaries (and
    the node's own properties, which the key does not hold either) logging reads. A check that starts reading more (a producer's attribute, a reader's
    operands, a result type of another output) fails here until _node_key holds it."""
    module = _compiled(kind, nodes)
    checked = 0
    for op in list(module.walk()):
        if not isinstance(op, ag.AscNode):
            continue
        g = op.graph()
        assert g is not None
        table = ag.axis_table(g)
        neighbours = {id(v.owner): v.owner for v in op.operands if isinstance(v.owner, Operation)}
        neighbours.update({id(u.operation): u.operation for r in op.results for u in r.uses})
        neighbours.pop(id(op), None)
        reads: list[str] = []
        saved: list[tuple[Operation, dict, dict]] = []
        for nb in neighbours.values():
            saved.append((nb, nb.attributes, nb.properties))
            for field in ("attributes", "properties"):
                log = _ReadLog(getattr(nb, field))
                log.reads, log.owner = reads, f"{nb.name}.{field}"
                setattr(nb, field, log)
        own = _ReadLog(op.properties)  # the key holds the node's attributes, not properties
        own.reads, own.owner, own_props = reads, f"{op.name}.properties (its own)", op.properties
        op.properties = own
        others = {id(o): ("graph" if o is g else None) for o in (*neighbours.values(), g)}
        calls: list[tuple[str, str | None]] = []

        def profile(frame, event, arg, others=others, calls=calls):  # type: ignore[no-untyped-def]
            if event != "call":
                return
            code = frame.f_code
            for name in code.co_varnames[: code.co_argcount]:
                v = frame.f_locals.get(name)
                if isinstance(v, Operation) and id(v) in others:
                    calls.append((code.co_qualname, others[id(v)]))

        sys.setprofile(profile)
        try:
            op._verify_node(table)  # pyright: ignore[reportPrivateUsage]
        finally:
            sys.setprofile(None)
            op.properties = own_props
            for nb, attrs, props in saved:
                nb.attributes, nb.properties = attrs, props
        assert not reads, (op.name, reads)
        assert set(calls) <= _KEYED_READS, (op.name, set(calls) - _KEYED_READS)
        checked += 1
    assert checked > 150
