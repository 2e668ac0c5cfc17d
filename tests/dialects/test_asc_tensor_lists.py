"""AscTensorType's axis_ids, repeat_list and stride_list are built once per attribute
(issue 12, compile time: the fusion and lowering passes read them hundreds of thousands of
times on a large graph) and change nothing an attribute's users see: equality, hash,
parameters, printed and parsed text."""

from __future__ import annotations

import copy

from xdsl.dialects.builtin import f16, f32

from conftest import parse
from ge_dialect.ascgraph import AscTensorType


def test_each_list_is_built_once():
    t = AscTensorType(f16, [2, 0, 1], [4, 1, 8], [8, 8, 1])
    for name in ("axis_ids", "repeat_list", "stride_list"):
        first = getattr(t, name)
        assert getattr(t, name) is first  # the same tuple, not a new one per read
    assert (t.axis_ids, t.repeat_list, t.stride_list) == ((2, 0, 1), (4, 1, 8), (8, 8, 1))


def test_the_kept_lists_change_no_comparison_or_text():
    a = AscTensorType(f32, [0, 1], [4, 8], [8, 1])
    b = AscTensorType(f32, [0, 1], [4, 8], [8, 1])
    _ = a.axis_ids, a.repeat_list, a.stride_list  # a has its lists kept, b not
    assert a == b and hash(a) == hash(b) and a.parameters == b.parameters
    assert a != AscTensorType(f32, [0, 1], [4, 8], [16, 1])
    assert str(a) == str(b) == "!ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>"
    c = copy.deepcopy(a)
    assert c == a and c.repeat_list == (4, 8)
    # parsed back: an equal attribute with its own lists
    m = parse(
        "ascgraph.graph @g axis = [0: z0 = 4, 1: z1 = 8] {\n"
        "  %d = ascgraph.Data {index = 0} : !ascgraph.tensor<f32, axis = [0, 1], repeats = [4, 8], strides = [8, 1]>\n"
        "}\n"
    )
    d = next(op for op in m.walk() if op.name == "ascgraph.Data")
    assert d.results[0].type == a and d.results[0].type.repeat_list == (4, 8)  # type: ignore[attr-defined]


def test_in_and_out_type_read_what_operands_and_results_hold():
    """AscNode.in_type/out_type index xDSL's operand and result tuples directly
    (Operation._operands, an xDSL 0.74 internal): the same types as through the public
    views, on every node of lowered graphs, and the same IndexError past the end."""
    import pytest

    from bench.gen_graphs import generate
    from ge_dialect import ascgraph as ag
    from ge_tools.registry import make_context
    from lowering.lower_autofuse import LowerAutofusePass

    seen = 0
    for kind in ("mixed", "concat_tree"):
        m = parse(generate(kind, 150, 1))
        LowerAutofusePass().apply(make_context(), m)
        for op in m.walk():
            if isinstance(op, ag.AscNode):
                for i, v in enumerate(op.operands):
                    assert op.in_type(i) is v.type and op.in_type(i - len(op.operands)) is v.type
                for i, r in enumerate(op.results):
                    assert op.out_type(i) is r.type
                seen += 1
                with pytest.raises(IndexError):
                    op.in_type(len(op.operands))
    assert seen > 500
