"""Unknown dims (`?`, GE's -1) and unknown rank (`tensor<*x..>`, GE's -2) through every ge op's
verifier and shape inference, and through the reference interpreter.

The generated part takes every op case of tests/runtime/test_reference_formulas.py (each op
class the dialect registers has cases there: a static instance that verifies, with its inputs
and the outputs computed by an independent formula) and, for each Data input of the op:

* replaces one dim at a time by `?`: the op must verify, and its inferred output dims must be
  the static value where the static shapes determine it and `?` where they do not. Whether a
  dim is determined is found by substitution: the `?` is replaced by every value of a sample
  (0, 1, 2, 3, the case's own value, twice and three times it, 64) for which the static op verifies;
  an output dim that is the same for all of them is determined (so `?` against a known 5 in a
  broadcast gives 5, against a 1 gives `?`: GE's rule, see test_broadcast_* below);
* replaces the whole input by an unranked tensor: the op must verify and its outputs are
  unranked unless their shape does not depend on that input;
* runs the op with the `?` types on the case's own inputs in the reference interpreter: the
  outputs are the formula's.

The hand-written cases below each state one rule and fail when the rule is removed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, UnrankedTensorType, f32, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from ge_dialect import ge
from ge_dialect.desc import shape_of
from ge_tools.opt import GeOptMain
from ge_tools.parse import parse_module
from runtime.interpreter import run_module
from tests.runtime.test_reference_formulas import CASES, Case

_CTX = GeOptMain([]).ctx

# ops whose verifier reads another graph or a fused body: their unknown-shape behaviour is
# the subgraph's (PartitionedCall: helper dyn-partition's verifier) or autofuse's, not an
# inference rule of their own
# (subgraph calls: their subgraphs give their shapes)
NO_INFERENCE = {"ge.PartitionedCall", "ge.AscBackend", "ge.FusedAscBackend", *(c.name for c in ge.CONTROL_OPS)}
# one-input ops whose output shape the input's rank does not set: Size/Rank are 0-d, Shape
# is 1-D, BroadcastToD's is its `shape`
RANK_FREE = {"ge.Size", "ge.Rank", "ge.Shape", "ge.BroadcastToD"}
# ops whose inputs are 0-d (no dim to make unknown; their unknown rank is tested)
SCALAR_INPUTS = {"ge.Range"}

Dims = tuple[int, ...] | None


def _with_dims(t: Attribute, shape: Sequence[int]) -> TensorType:
    assert isinstance(t, TensorType)
    return TensorType(t.element_type, [DYNAMIC_INDEX if d < 0 else d for d in shape], t.encoding)


def _unranked(t: Attribute) -> UnrankedTensorType:
    return UnrankedTensorType(t.element_type)  # type: ignore[attr-defined]


def _the_op(module: ModuleOp, name: str) -> ge.GeNode | None:
    """The case's op of type `name` when the graph is Data/Const nodes, that op and a
    NetOutput of exactly its results."""
    graph = next(op for op in module.ops if isinstance(op, ge.GraphOp))
    nodes = [op for op in graph.body.block.ops if not isinstance(op, ge.Data | ge.Const | ge.NetOutput)]
    if len(nodes) != 1 or nodes[0].name != name:
        return None
    op = nodes[0]
    assert isinstance(op, ge.GeNode)
    if list(graph.net_output.operands) != list(op.results):
        return None
    return op


def _data_operands(op: ge.GeNode) -> list[int]:
    return [i for i, v in enumerate(op.operands) if isinstance(v.owner, ge.Data)]


def _probe(op: ge.GeNode, types: dict[int, Attribute], result_types: Sequence[Attribute] | None = None) -> ge.GeNode:
    """A copy of `op` whose operand i is a fresh Data of types[i] (the others: op's own)."""
    operands: list[SSAValue] = []
    for i, v in enumerate(op.operands):
        if i in types:
            operands.append(ge.Data.create(result_types=[types[i]], attributes={"index": ge.A.make_int(i)}).results[0])
        else:
            operands.append(v)
    results = list(result_types) if result_types is not None else [r.type for r in op.results]
    return type(op).create(operands=operands, result_types=results, attributes=dict(op.attributes))


def _infer(op: ge.GeNode, types: dict[int, Attribute]) -> list[Dims] | None:
    """The op's inferred output shapes with these operand types (None: no inference);
    raises VerifyException when the op refuses them (the checks on inputs and attributes)."""
    # unranked results agree with any inference, so the checks that read the results
    # (PhonySplit, the reshape family) see no conflict
    p = _probe(op, types, [_unranked(r.type) for r in op.results])
    p.check()
    return p.infer()


def _verify_with(op: ge.GeNode, types: dict[int, Attribute], inferred: list[Dims] | None) -> ge.GeNode:
    """The op with these operand types and its inferred result types, fully verified."""
    results: list[Attribute] = []
    for k, r in enumerate(op.results):
        s = None if inferred is None else inferred[k]
        if inferred is None:
            results.append(r.type)  # an op that infers nothing keeps its declared outputs
        elif s is None:
            results.append(_unranked(r.type))
        else:
            results.append(_with_dims(r.type, s))
    p = _probe(op, types, results)
    p.verify_()
    return p


def _expected(op: ge.GeNode, i: int, j: int) -> list[Dims] | None:
    """Output shapes with operand i's dim j unknown, by substitution (see the module doc)."""
    base = shape_of(op.operands[i].type)
    assert base is not None
    v = base[j]
    outs: list[list[Dims]] = []
    for c in sorted({0, 1, 2, 3, v, 2 * v, 3 * v, 64}):
        s = list(base)
        s[j] = c
        try:
            got = _infer(op, {i: _with_dims(op.operands[i].type, s)})
        except VerifyException:
            continue
        if got is None:
            return None
        outs.append(got)
    assert outs, "the case's own value verifies"
    want: list[Dims] = []
    for k in range(len(outs[0])):
        shapes = [o[k] for o in outs]
        first = shapes[0]
        if first is None or any(s is None or len(s) != len(first) for s in shapes):
            want.append(None)
            continue
        want.append(tuple(d if all(s[n] == d for s in shapes) else -1 for n, d in enumerate(first)))  # type: ignore[index]
    return want


def _dim_cases() -> list[tuple[str, Case, int, int]]:
    out = []
    seen: dict[str, int] = {}
    for name, case in CASES:
        # a few cases per op keep the run short; the formulas' first cases are the varied ones
        # (checked before the parse: the cases past the sixth are not read at all)
        if name in NO_INFERENCE or seen.get(name, 0) >= 6:
            continue
        m = parse_module(_CTX, case.text, "t.mlir")
        op = _the_op(m, name)
        if op is None:
            continue
        seen[name] = seen.get(name, 0) + 1
        for i in _data_operands(op):
            s = shape_of(op.operands[i].type) or ()
            for j in range(len(s)):
                out.append((name, case, i, j))
    return out


DIM_CASES = _dim_cases()


def test_every_op_class_with_inference_is_covered():
    covered = {name for name, *_ in DIM_CASES}
    missing = [
        c.name
        for c in ge.GE_NODE_OPS
        if c.name not in covered
        and c.name not in NO_INFERENCE | SCALAR_INPUTS
        and c.NUM_INPUTS != (0, 0)
        and c is not ge.NetOutput
    ]
    assert missing == []


@pytest.mark.parametrize(("op", "case", "i", "j"), DIM_CASES, ids=[f"{c.id}-in{i}-d{j}" for _, c, i, j in DIM_CASES])
def test_one_unknown_dim(op: str, case: Case, i: int, j: int) -> None:
    m = parse_module(_CTX, case.text, "t.mlir")
    node = _the_op(m, op)
    assert node is not None
    s = list(shape_of(node.operands[i].type) or ())
    s[j] = -1
    types = {i: _with_dims(node.operands[i].type, s)}
    got = _infer(node, types)
    want = _expected(node, i, j)
    assert got == want, (op, i, j)
    probe = _verify_with(node, types, got)
    # the reference runs it on the case's own arrays, and the outputs are the formula's
    _run_and_compare(node, probe, case)


def _run_and_compare(node: ge.GeNode, probe: ge.GeNode, case: Case) -> None:
    """`probe` (node with other operand/result types) in a graph of its own, run on the
    case's inputs: the outputs must equal the case's."""
    block = Block()
    mapping: dict[SSAValue, SSAValue] = {}
    for old, new in zip(node.operands, probe.operands):
        owner = old.owner
        if old in mapping:
            continue
        if isinstance(owner, ge.Data):
            d = ge.Data.create(result_types=[new.type], attributes=dict(owner.attributes))
        else:
            assert isinstance(owner, Operation)
            d = owner.clone()
        block.add_op(d)
        mapping[old] = d.results[0]
    op = type(node).create(
        operands=[mapping[v] for v in node.operands],
        result_types=[r.type for r in probe.results],
        attributes=dict(node.attributes),
    )
    block.add_op(op)
    block.add_op(ge.NetOutput.create(operands=list(op.results)))
    module = ModuleOp([ge.GraphOp("main", Region(block))])
    module.verify()
    got = run_module(module, [a.copy() for a in case.inputs])
    for g, w in zip(got, case.want):
        assert g.shape == w.shape and g.dtype == w.dtype
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-2, atol=1e-2, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)


def _rank_cases() -> list[tuple[str, Case, int]]:
    out = []
    seen: set[str] = set()
    for name, case in CASES:
        if name in NO_INFERENCE or name in seen:
            continue
        m = parse_module(_CTX, case.text, "t.mlir")
        op = _the_op(m, name)
        if op is None or not _data_operands(op):
            continue
        seen.add(name)
        out.extend((name, case, i) for i in _data_operands(op))
    return out


RANK_CASES = _rank_cases()


@pytest.mark.parametrize(("op", "case", "i"), RANK_CASES, ids=[f"{c.id}-in{i}" for _, c, i in RANK_CASES])
def test_unknown_rank(op: str, case: Case, i: int) -> None:
    """Input i unranked: the op verifies, runs, and knows no more of an output than with every
    dim of input i unknown; a pointwise op's and a one-input op's outputs are unranked
    (GE: UNKNOWN_RANK in, UNKNOWN_RANK out), except those of a shape the input's rank
    does not set (RANK_FREE)."""
    m = parse_module(_CTX, case.text, "t.mlir")
    node = _the_op(m, op)
    assert node is not None
    types = {i: _unranked(node.operands[i].type)}
    got = _infer(node, types)
    rank = len(shape_of(node.operands[i].type) or ())
    bound = _infer(node, {i: _with_dims(node.operands[i].type, [-1] * rank)})
    propagates = isinstance(node, ge.Elementwise) or (type(node).NUM_INPUTS == (1, 1) and op not in RANK_FREE)
    if got is not None:
        assert bound is not None
        for k, s in enumerate(got):
            if propagates:
                assert s is None, (op, k, s)
            if s is None:
                continue
            b = bound[k]
            assert b is not None and len(s) == len(b), (op, k, s, b)
            assert all(d < 0 or d == e for d, e in zip(s, b)), (op, k, s, b)
    probe = _verify_with(node, types, got)
    _run_and_compare(node, probe, case)


# ---------------------------------------------------------------------------------------
# One rule each: the outputs of `?`/unranked inputs, by hand
# ---------------------------------------------------------------------------------------

Q = -1


def _t(shape: Sequence[int] | None, elem: Attribute = f32) -> Attribute:
    return (
        UnrankedTensorType(elem) if shape is None else TensorType(elem, [DYNAMIC_INDEX if d < 0 else d for d in shape])
    )


def _built(cls: type[ge.GeNode], *shapes: Sequence[int] | None, elem: Attribute = f32, **attrs: object) -> Dims:
    """The output shape `cls.build` infers on Data inputs of `shapes` (None: unranked)."""
    ins = [
        ge.Data.create(result_types=[_t(s, elem)], attributes={"index": ge.A.make_int(k)}) for k, s in enumerate(shapes)
    ]
    op = cls.build(*ins, **attrs)
    return shape_of(op.results[0].type)


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ((Q, 4), (5, 4), (5, 4)),  # ? against n > 1 is n (the ? can only be 1 or n)
        ((5, 4), (Q, 4), (5, 4)),
        ((Q, 4), (1, 4), (Q, 4)),  # ? against 1 stays ?
        ((1, 4), (Q, 4), (Q, 4)),
        ((Q, 4), (0, 4), (0, 4)),  # ? against 0 is 0
        ((Q, 4), (Q, 4), (Q, 4)),
        ((Q,), (3, 1), (3, Q)),  # ranks align on the right; the missing dims are 1
        ((Q, 4), None, None),  # unknown rank in, unknown rank out
    ],
)
def test_broadcast_follows_ge_two_broadcast_shape(a, b, want) -> None:
    assert _built(ge.Add, a, b) == want


def test_broadcast_known_dims_that_differ_are_still_an_error() -> None:
    with pytest.raises(ValueError, match="do not broadcast"):
        _built(ge.Mul, (Q, 3), (4, 5))


def test_a_declared_known_dim_must_agree_with_the_inferred_one() -> None:
    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x4xf32>
  %y = ge.Data {index = 1} : tensor<5x4xf32>
  %z = ge.Add(%x, %y) : (tensor<?x4xf32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  ge.NetOutput %z : tensor<6x4xf32>
}"""
    with pytest.raises(Exception, match="output 0 has shape 6x4, but Add infers 5x4"):
        parse_module(_CTX, text, "t.mlir").verify()


def test_matmul_unknown_inner_dims_agree_and_the_bias_knows_n() -> None:
    assert _built(ge.MatMul, (Q, 4), (4, 8)) == (Q, 8)
    assert _built(ge.MatMul, (3, Q), (Q, 8)) == (3, 8)  # ? agrees with ?
    assert _built(ge.MatMul, (3, 4), (4, Q), (8,)) == (3, 8)  # bias [N] knows N
    with pytest.raises(ValueError, match="inner dims differ"):
        _built(ge.MatMul, (Q, 4), (5, 8))
    assert _built(ge.BatchMatMulV2, (Q, 1, 3, 4), (5, 4, 2)) == (Q, 5, 3, 2)


def test_concat_sum_with_an_unknown_is_unknown_and_other_dims_merge() -> None:
    assert _built(ge.ConcatD, (2, 4), (Q, 4), concat_dim=0) == (Q, 4)
    assert _built(ge.ConcatD, (2, Q), (3, 4), concat_dim=0) == (5, 4)  # off-axis: known wins
    # an unranked input: the base is the first ranked input and the concat dim is unknown
    # (concat_infershape.cpp: ConcatInferShapeCommon)
    assert _built(ge.ConcatD, None, (3, 4), concat_dim=1) == (3, Q)
    assert _built(ge.ConcatD, None, None, concat_dim=1) is None
    with pytest.raises(ValueError, match="except on concat_dim"):
        _built(ge.ConcatD, (2, Q, 5), (3, 4, 6), concat_dim=0)


def test_split_of_an_unknown_dim_is_unknown() -> None:
    ins = ge.Data.create(result_types=[_t((Q, 6))], attributes={"index": ge.A.make_int(0)})
    op = ge.SplitD.build(ins, split_dim=0, num_split=2)
    assert [shape_of(r.type) for r in op.results] == [(Q, 6), (Q, 6)]
    op = ge.SplitVD.build(ins, split_dim=1, num_split=2, size_splits=[2, -1])
    assert [shape_of(r.type) for r in op.results] == [(Q, 2), (Q, 4)]
    op = ge.SplitVD.build(ins, split_dim=0, num_split=2, size_splits=[2, -1])
    assert [shape_of(r.type) for r in op.results] == [(2, 6), (Q, 6)]


def test_reductions_transpose_gather_keep_unknown_dims_where_they_go() -> None:
    assert _built(ge.ReduceSumD, (Q, 3, 5), axes=[1]) == (Q, 5)
    assert _built(ge.ReduceSumD, (Q, 3, 5), axes=[0], keep_dims=True) == (1, 3, 5)
    assert _built(ge.TransposeD, (Q, 3, 5), perm=[2, 0, 1]) == (5, Q, 3)
    x = ge.Data.create(result_types=[_t((Q, 8))], attributes={"index": ge.A.make_int(0)})
    idx = ge.Data.create(result_types=[_t((3, Q), i32)], attributes={"index": ge.A.make_int(1)})
    assert shape_of(ge.Gather.build(x, idx).results[0].type) == (3, Q, 8)


def test_conv_and_pool_unknown_batch_and_plane() -> None:
    assert _built(ge.Conv2D, (Q, 3, 8, 8), (4, 3, 3, 3), pads=[1, 1, 1, 1]) == (Q, 4, 8, 8)
    assert _built(ge.Conv2D, (1, 3, Q, 8), (4, 3, 3, 3)) == (1, 4, Q, 6)
    with pytest.raises(ValueError, match="does not match input channels"):
        _built(ge.Conv2D, (Q, 3, 8, 8), (4, 2, 3, 3))
    assert _built(ge.MaxPoolV3, (Q, 3, Q, 8), ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2]) == (Q, 3, Q, 4)


def test_reshape_with_a_constant_shape_derives_its_minus_one_only_from_known_counts() -> None:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, i64

    def reshape(x_shape, dims):
        x = ge.Data.create(result_types=[_t(x_shape)], attributes={"index": ge.A.make_int(0)})
        c = ge.Const.build(value=DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(dims)]), dims))
        return shape_of(ge.Reshape.build(x, c).results[0].type)

    assert reshape((2, 6), [-1, 3]) == (4, 3)
    assert reshape((Q, 6), [-1, 3]) == (Q, 3)  # the count is unknown: so is the -1
    assert reshape((Q, 6), [4, 3]) == (4, 3)  # a known shape is the output whatever x is
    with pytest.raises(ValueError, match="cannot reshape"):
        reshape((2, 6), [-1, 5])


def test_squeeze_all_of_an_unknown_dim_leaves_the_rank_unknown() -> None:
    assert _built(ge.Squeeze, (1, Q, 3)) is None  # is the ? a 1? the rank depends on it
    assert _built(ge.Squeeze, (1, Q, 3), axis=[0]) == (Q, 3)


def test_slice_tile_pad_cast_of_unknown_dims() -> None:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, i64

    def c(vals):
        return ge.Const.build(value=DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(vals)]), vals))

    x = ge.Data.create(result_types=[_t((Q, 6))], attributes={"index": ge.A.make_int(0)})
    assert shape_of(ge.StridedSliceV2.build(x, c([0, 1]), c([2, 4])).results[0].type) == (Q, 3)
    assert shape_of(ge.StridedSliceV2.build(x, c([3]), c([1])).results[0].type) == (0, 6)  # empty at any extent
    assert shape_of(ge.Tile.build(x, c([2, 2])).results[0].type) == (Q, 12)
    assert shape_of(ge.Tile.build(x, c([0, 1])).results[0].type) == (0, 6)
    assert shape_of(ge.PadV3.build(x, c([1, 1, 0, 2])).results[0].type) == (Q, 8)
    assert shape_of(ge.Cast.build(x, dtype=i32).results[0].type) == (Q, 6)


def test_shape_size_rank_of_an_unranked_input() -> None:
    from xdsl.dialects.builtin import i64

    x = ge.Data.create(result_types=[_t(None)], attributes={"index": ge.A.make_int(0)})
    assert shape_of(ge.Shape.build(x, dtype=i64).results[0].type) == (Q,)
    assert shape_of(ge.Size.build(x, dtype=i32).results[0].type) == ()
    assert isinstance(ge.Relu.build(x).results[0].type, UnrankedTensorType)


# ---------------------------------------------------------------------------------------
# The passes on unknown shapes: what GE skips, with the rule that says why
# ---------------------------------------------------------------------------------------

_MIXED = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x16xf32>
  %s = ge.Data {index = 1} : tensor<4x16xf32>
  %r = ge.Relu(%x) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %e = ge.Exp(%s) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = ge.Mul(%e, %e) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  ge.NetOutput %r, %m : tensor<?x16xf32>, tensor<4x16xf32>
}"""


def test_autofuse_does_not_lower_an_unknown_shape_node_and_says_why() -> None:
    from ge_tools import api

    m = api.parse_module(_MIXED)
    result = api.compile(m, pipeline="ge-lower-autofuse")
    relu = [r for r in result.remarks if r.nodes == ("r",)]
    assert len(relu) == 1 and relu[0].verdict == "not lowered"
    assert relu[0].rule == "AreDescriptorsStatic"
    assert "input 0 has unknown shape ?x16 (a -1 dim)" in relu[0].message
    graph = next(op for op in result.module.ops if isinstance(op, ge.GraphOp))
    kinds = [op.name for op in graph.body.block.ops]
    assert "ge.Relu" in kinds  # stays a ge node
    assert "ge.Exp" not in kinds and "ge.Mul" not in kinds  # the static part is lowered
    # the compiled module runs on any batch, as the source does
    for n in (1, 3):
        x, s = np.ones((n, 16), np.float32), np.full((4, 16), 0.5, np.float32)
        want = run_module(m, [x, s])
        got = run_module(result.module, [x, s])
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-6)


def test_notask_skips_unknown_shapes_with_ge_rule_and_a_readable_shape() -> None:
    from ge_tools import api

    text = """ge.graph @main {
  %x = ge.Data {index = 0} : tensor<?x4xf16>
  %y = ge.Data {index = 1} : tensor<*xf16>
  %a = ge.Relu(%x) : (tensor<?x4xf16>) -> tensor<?x4xf16>
  %b = ge.Relu(%x) : (tensor<?x4xf16>) -> tensor<?x4xf16>
  %c = ge.ConcatD(%a, %b) {concat_dim = 1} : (tensor<?x4xf16>, tensor<?x4xf16>) -> tensor<?x8xf16>
  %u = ge.Relu(%y) : (tensor<*xf16>) -> tensor<*xf16>
  %v = ge.Relu(%y) : (tensor<*xf16>) -> tensor<*xf16>
  %d = ge.ConcatD(%u, %v) {concat_dim = 0} : (tensor<*xf16>, tensor<*xf16>) -> tensor<*xf16>
  ge.NetOutput %c, %d : tensor<?x8xf16>, tensor<*xf16>
}"""
    result = api.compile(api.parse_module(text), pipeline="ge-concat-notask")
    by_node = {r.nodes: r for r in result.remarks}
    assert by_node[("c",)].rule == "IsUnknownShapeOp"
    assert "input 0 has unknown shape ?x4 (a -1 dim)" in by_node[("c",)].message
    assert by_node[("d",)].rule == "IsUnknownShapeOp"
    assert "input 0 has unknown shape * (unknown rank, GE's -2)" in by_node[("d",)].message
