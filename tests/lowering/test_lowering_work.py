"""Work counts of ge-lower-autofuse and ge-to-npu (issue 12, part 3): what each builds or
copies. Each test counts (ops built, regions copied), never seconds, and checks that the
faster path gives the same printed IR as the plain one."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from xdsl.dialects.builtin import Float32Type, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import PassPipeline

from bench.gen_graphs import generate
from conftest import parse, print_module
from ge_dialect import ascgraph as ag
from ge_dialect import ge
from ge_fast.op_builder import clone_op, new_block, new_op
from ge_tools.pipeline import GeCompilePass
from ge_tools.registry import make_context
from lowering import ge_to_npu
from lowering import loop_ir as L
from lowering.lower_autofuse import OPTIONAL_CLASSES, LowerAutofusePass

T = TensorType(Float32Type(), [4, 8])

# @block is inlined twice into @main's model; @main has a three-node AscBackend of its own.
TWO_CALLS = """
ge.graph @main attributes {_single_op_scene = false} {
  %x = ge.Data {index = 0} : tensor<4x50xf32>
  %b = ge.Data {index = 1} : tensor<4x50xf32>
  %y = ge.PartitionedCall(%x, %b) {f = @block} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %z0 = ge.Relu(%y) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  %z1 = ge.Neg(%z0) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  %z = ge.Sigmoid(%z1) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  %y2 = ge.PartitionedCall(%z, %b) {f = @once} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %y3 = ge.PartitionedCall(%y2, %b) {f = @block} : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %y3 : tensor<4x50xf32>
}

ge.graph @block {
  %in = ge.Data {index = 0} : tensor<4x50xf32>
  %bias = ge.Data {index = 1} : tensor<4x50xf32>
  %t = ge.Add(%in, %bias) : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %r = ge.Tanh(%t) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %r : tensor<4x50xf32>
}

ge.graph @once {
  %in = ge.Data {index = 0} : tensor<4x50xf32>
  %bias = ge.Data {index = 1} : tensor<4x50xf32>
  %t = ge.Mul(%in, %bias) : (tensor<4x50xf32>, tensor<4x50xf32>) -> tensor<4x50xf32>
  %r = ge.Abs(%t) : (tensor<4x50xf32>) -> tensor<4x50xf32>
  ge.NetOutput %r : tensor<4x50xf32>
}
"""


def _to_npu(text: str, monkeypatch: pytest.MonkeyPatch, copy_all: bool) -> tuple[str, int]:
    """ge-compile of `text`, with the Region.clone calls ge-to-npu makes; `copy_all` has
    every AscGraph copied, as if each graph were lowered twice (the plain path)."""
    m = parse(text)
    passes = GeCompilePass().passes()
    PassPipeline(passes[:-1]).apply(make_context(), m)
    if copy_all:
        counts = ge_to_npu._lowering_counts  # pyright: ignore[reportPrivateUsage]
        monkeypatch.setattr(ge_to_npu, "_lowering_counts", lambda mod, g: dict.fromkeys(counts(mod, g), 2))
    clones = [0]
    plain = Region.clone

    def counted(self: Region, *args: object, **kwargs: object) -> Region:
        clones[0] += 1
        return plain(self, *args, **kwargs)  # pyright: ignore[reportArgumentType]

    with monkeypatch.context() as mp:
        mp.setattr(Region, "clone", counted)
        passes[-1].apply(make_context(), m)
    m.verify()
    return print_module(m), clones[0]


def test_ge_to_npu_moves_the_asc_graphs_of_graphs_lowered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """ge-to-npu gives each AscBackend's AscGraph to its kernel_def instead of copying it,
    except in a subgraph it inlines twice (@block): there the second lowering needs it."""
    assert ge_to_npu._lowering_counts(parse(TWO_CALLS), parse(TWO_CALLS).ops.first) == {  # pyright: ignore[reportPrivateUsage, reportArgumentType]
        "main": 1,
        "block": 2,
        "once": 1,
    }
    moved, moved_clones = _to_npu(TWO_CALLS, monkeypatch, copy_all=False)
    copied, copied_clones = _to_npu(TWO_CALLS, monkeypatch, copy_all=True)
    assert moved == copied
    assert moved.count("= ascgraph :") == 4  # @main's, @once's and @block's twice
    assert (moved_clones, copied_clones) == (2, 4)


# -- ge-lower-autofuse: ops built field for field as xDSL builds them ----------------------


def _state(op: Operation) -> dict[str, object]:
    """Every field of `op` as a comparable value (uses by owner and index, results by
    type, index and name, regions by their ops' states)."""
    d = dict(vars(op))
    d["_operand_uses"] = [(u.operation is op, u.index) for u in op._operand_uses]  # pyright: ignore[reportPrivateUsage]
    d["results"] = [
        (type(r), vars(r).keys(), r.type, r.index, r.op is op, r.name_hint, r.first_use) for r in op.results
    ]
    d["regions"] = [(r.parent is op, [[_state(o) for o in b.ops] for b in r.blocks]) for r in op.regions]
    return d


def test_new_op_and_clone_op_build_what_xdsl_builds() -> None:
    """op_builder.new_op is Operation.create and clone_op is Operation.clone, field for
    field, on every op class ge-lower-autofuse builds (its AscIR nodes, AscGraph, AscBackend
    and origin graph's ops)."""
    m = parse(generate("mixed", 120, 3))
    LowerAutofusePass(enable_pass=OPTIONAL_CLASSES).apply(make_context(), m)
    seen = 0
    for op in m.walk():
        if not isinstance(op, ag.AscNode | ag.AscGraphOp | ge.GeNode) or op.successors:
            continue
        regions = [Region() for _ in op.regions]
        a = type(op).create(
            operands=list(op.operands),
            result_types=[r.type for r in op.results],
            attributes=op.attributes,
            properties=op.properties,
            regions=regions,
        )
        b = new_op(
            type(op),
            op.operands,
            [r.type for r in op.results],
            op.attributes,
            op.properties,
            [Region() for _ in op.regions],
        )
        for x, y in zip(a._operand_uses, b._operand_uses):  # pyright: ignore[reportPrivateUsage]
            assert (x._next_use is None) == (y._next_use is None)  # pyright: ignore[reportPrivateUsage]
        sa, sb = _state(a), _state(b)
        del sa["_operand_uses"], sb["_operand_uses"]
        assert sa.keys() == sb.keys() and all(sa[k] == sb[k] for k in sa if k != "_operands")
        assert list(a.operands) == list(b.operands)
        if not op.regions:
            va: dict[SSAValue, SSAValue] = {}
            vb: dict[SSAValue, SSAValue] = {}
            ca, cb = op.clone(value_mapper=va), clone_op(op, vb)
            assert _state(ca).keys() == _state(cb).keys() and list(va) == list(vb)
            assert [r.name_hint for r in ca.results] == [r.name_hint for r in cb.results]
        for o in (a, b):
            o.erase(safe_erase=False)
        seen += 1
    assert seen > 100


# -- ge-lower-autofuse: each distinct box structure realized once --------------------------


def _lowered(text: str, monkeypatch: pytest.MonkeyPatch, reuse: bool, **options: object) -> tuple[str, int, int]:
    """`text` through ge-lower-autofuse: the printed IR, the AscGraphBuilder.realize calls
    and the AscGraphs made; without `reuse` every box is realized (the plain path)."""
    calls = [0]
    plain = L.AscGraphBuilder.realize

    def counted(self: L.AscGraphBuilder, *args: object) -> ag.AscGraphOp:
        calls[0] += 1
        return plain(self, *args)  # pyright: ignore[reportArgumentType]

    def every_time(self: L.AscGraphCache, dims, root, out_dtype, name, cse=True):  # noqa: ANN001, ANN202
        b = L.AscGraphBuilder(dims, cse=cse)
        return b.realize(root, out_dtype, name), b.buffers

    with monkeypatch.context() as mp:
        mp.setattr(L.AscGraphBuilder, "realize", counted)
        if not reuse:
            mp.setattr(L.AscGraphCache, "realize", every_time)
        m = parse(text)
        LowerAutofusePass(**options).apply(make_context(), m)  # pyright: ignore[reportArgumentType]
    m.verify()
    graphs = sum(isinstance(o, ag.AscGraphOp) for o in m.walk())
    return print_module(m), calls[0], graphs


def test_lower_autofuse_realizes_each_distinct_box_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A box whose expression has the structure of one realized before (structure_key)
    gets a copy of that AscGraph's nodes, not a realization: fanout 1k makes 977
    AscGraphs from 57 realizations, and the IR is the one realizing every box gives."""
    text = generate("fanout", 1000, 0)
    fast, realized, graphs = _lowered(text, monkeypatch, reuse=True)
    plain, realized_plain, graphs_plain = _lowered(text, monkeypatch, reuse=False)
    assert fast == plain
    assert (graphs, graphs_plain, realized_plain) == (977, 977, 977)
    assert realized == 57


@pytest.mark.parametrize("kind", ["chain", "diamond", "concat_tree", "mixed"])
@pytest.mark.parametrize("split", ["slice", "split"])
def test_reused_asc_graphs_are_the_realized_ones(kind: str, split: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every optional class on (reductions, concats, splits, transposes, gathers),
    either split lowering and without CSE, reusing gives the IR realizing every box gives."""
    text = generate(kind, 400, 5)
    for cse in (True, False):
        opts = {"enable_pass": OPTIONAL_CLASSES, "split_lowering": split, "cse": cse}
        fast, realized, graphs = _lowered(text, monkeypatch, True, **opts)
        plain, _, _ = _lowered(text, monkeypatch, False, **opts)
        assert fast == plain and realized <= graphs


def test_new_block_links_as_block_does() -> None:
    """op_builder.new_block(ops) is Block(ops): the same parent, first/last and per-op links."""

    def made() -> list[Operation]:
        d = new_op(ge.Data, (), (T,), {"index": L.int_attr(0)})
        r = new_op(ge.Relu, d.results, (T,))
        return [d, r, new_op(ge.NetOutput, r.results)]

    def links(b: Block) -> Sequence[object]:
        """Each op's parent and its instance's link fields, ops by position."""
        ops = list(b.ops)
        pos = {o: i for i, o in enumerate(ops)} | {None: None}
        return [(b.first_op is ops[0], b.last_op is ops[-1])] + [
            (o.parent is b, sorted(vars(o)), pos[o.prev_op], pos[o.next_op]) for o in ops
        ]

    a, b = Block(made()), new_block(made())
    assert [type(o) for o in a.ops] == [type(o) for o in b.ops]
    assert links(a) == links(b)
    with pytest.raises(ValueError, match="already attached"):
        new_block(list(a.ops)[:1])
