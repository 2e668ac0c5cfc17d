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
